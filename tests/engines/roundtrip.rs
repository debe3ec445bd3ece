//! `parse(print(p)) == p` for every program: a property test over generated programs of every
//! size and shape the generator makes (regions, calls, impure ops, every op and dtype).

use proptest::prelude::*;
use ptir_ir::generate::{generate, GenConfig};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn printing_then_parsing_gives_back_the_program(
        seed in any::<u64>(),
        size in 1usize..120,
        regions in any::<bool>(),
        impure in any::<bool>(),
        depth in 0usize..4,
    ) {
        let cfg = GenConfig { seed, size, allow_regions: regions, allow_impure: impure, max_depth: depth, ..GenConfig::default() };
        let program = generate(&cfg);
        prop_assert!(ptir_ir::verify(&program).is_ok());
        let text = ptir_ir::print(&program);
        let back = ptir_ir::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &program, "{}", text);
        prop_assert_eq!(ptir_ir::print(&back), text);
    }
}

/// MLIR whose generic form declares an operand type other than the value's is refused, never
/// read as some other program: generated programs exported to StableHLO, the first operand
/// type of the first functional type `(...) -> ...` turned into another dtype.
#[test]
fn a_declared_operand_type_that_contradicts_the_value_never_imports() {
    use ptir::format::{read_program, write_program, Format, WriteOptions};
    let mut mutated = 0;
    for seed in 0..300 {
        let program = generate(&GenConfig::new(seed, 30));
        let Ok(text) = write_program(&program, Format::Mlir, &WriteOptions::default()) else {
            continue;
        };
        let Some(lying) = contradict_first_operand_type(&text) else {
            continue;
        };
        mutated += 1;
        assert!(
            read_program(&lying, Format::Mlir).is_err(),
            "seed {seed}: a contradictory operand type was read:\n{lying}"
        );
    }
    assert!(
        mutated >= 100,
        "only {mutated} programs had a functional type to contradict"
    );
}

/// `text` with the element type of the first operand type of its first functional type
/// changed (`f32` to `i32`, anything else to `f32`), or `None` if it has none.
fn contradict_first_operand_type(text: &str) -> Option<String> {
    let at = text.find(" : (tensor<")? + " : (tensor<".len();
    let end = at + text[at..].find('>')?;
    let ty = &text[at..end];
    let elem_at = at + ty.rfind('x').map_or(0, |x| x + 1);
    let elem = &text[elem_at..end];
    let other = if elem == "f32" { "i32" } else { "f32" };
    Some(format!("{}{other}{}", &text[..elem_at], &text[end..]))
}
