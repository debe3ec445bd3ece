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
