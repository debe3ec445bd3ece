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
    for seed in 0..400 {
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

/// One generated `stablehlo.custom_call`: target, operands (indices into the values so far),
/// result count, attribute dictionary (`None`: written without one).
#[derive(Clone, Debug)]
struct CustomCall {
    target: &'static str,
    operands: Vec<usize>,
    results: usize,
    attrs: Option<Vec<(&'static str, &'static str)>>,
}

/// Attribute values of every kind MLIR writes: strings with escapes and brackets, typed
/// integers and floats (signed, unsigned, hex bit patterns, `-0.0`), arrays, nested and unit
/// dictionaries, dense and dialect attributes, symbols, types.
const ATTR_VALUES: [&str; 22] = [
    "\"uplo=L\"",
    "\"\"",
    "\"a\\22b{}, c = 1\"",
    "\"\\n\\\\\\\"}\"",
    "2 : i32",
    "-3 : i64",
    "76 : ui8",
    "1.5 : f32",
    "-0.0 : bf16",
    "0x7FC00000 : f32",
    "1.0e-3 : f64",
    "true",
    "[]",
    "[1.5, 2.0]",
    "[\"a\", \"b\"]",
    "{uplo = 76 : ui8}",
    "{b, c = 2.5}",
    "dense<[0, 1]> : tensor<2xindex>",
    "#my.attr<\"q\">",
    "#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>",
    "@sym",
    "tensor<4xf32>",
];

/// Attribute names: the ones JAX and XLA write, dotted dialect names, and the unit attribute
/// (`= ...` left out) of `my.unit`.
const ATTR_NAMES: [&str; 8] = [
    "backend_config",
    "mhlo.backend_config",
    "api_version",
    "has_side_effect",
    "operand_layouts",
    "mhlo.frontend_attributes",
    "my.attr",
    "my.unit",
];

fn custom_call() -> impl Strategy<Value = CustomCall> {
    let attrs = prop::collection::vec(
        (
            prop::sample::select(&ATTR_NAMES[..]),
            prop::sample::select(&ATTR_VALUES[..]),
        ),
        0..4,
    );
    (
        prop::sample::select(&["lapack_spotrf", "my_kernel", "linear", "main_1"][..]),
        prop::collection::vec(any::<prop::sample::Index>(), 0..3),
        0usize..3,
        prop::option::of(attrs),
    )
        .prop_map(|(target, operands, results, attrs)| CustomCall {
            target,
            operands: operands.iter().map(|i| i.index(usize::MAX)).collect(),
            results,
            attrs: attrs.map(|mut a| {
                // One value per name, as MLIR requires.
                a.sort_by_key(|(n, _)| *n);
                a.dedup_by_key(|(n, _)| *n);
                a
            }),
        })
}

/// A module of `calls` over f32[4] values, between elementwise ops the optimizer rewrites
/// (`x + x`), returning the last value; and the part of each call line that must come back
/// verbatim: the target and everything from the attribute dictionary on (value names are
/// renumbered).
fn custom_call_module(calls: &[CustomCall]) -> (String, Vec<String>) {
    let ty = "tensor<4xf32>";
    let mut values = vec!["%a".to_string()];
    let mut body = String::new();
    let mut kept = Vec::new();
    for (i, c) in calls.iter().enumerate() {
        let operands: Vec<&str> = (c.operands.iter())
            .map(|&k| values[k % values.len()].as_str())
            .collect();
        let dict = match &c.attrs {
            None => String::new(),
            Some(a) => {
                let items: Vec<String> = (a.iter())
                    .map(|(n, v)| match *n {
                        "my.unit" => n.to_string(),
                        "has_side_effect" => format!("{n} = {}", v.len() % 2 == 0),
                        _ => format!("{n} = {v}"),
                    })
                    .collect();
                format!(" {{{}}}", items.join(", "))
            }
        };
        let results = match c.results {
            0 => "()".to_string(),
            1 => ty.to_string(),
            n => format!("({})", vec![ty; n].join(", ")),
        };
        let signature = format!("({}) -> {results}", vec![ty; operands.len()].join(", "));
        let tail = format!("{dict} : {signature}");
        let lhs = match c.results {
            0 => String::new(),
            1 => format!("%c{i} = "),
            n => format!("%c{i}:{n} = "),
        };
        body.push_str(&format!(
            "  {lhs}stablehlo.custom_call @{}({}){tail}\n",
            c.target,
            operands.join(", ")
        ));
        kept.push(format!("stablehlo.custom_call @{}(", c.target));
        // An empty dictionary is no dictionary (MLIR prints neither).
        kept.push(format!("){tail}").replace(") {} : ", ") : "));
        match c.results {
            0 => {}
            1 => values.push(format!("%c{i}")),
            n => values.extend((0..n).map(|r| format!("%c{i}#{r}"))),
        }
        body.push_str(&format!(
            "  %s{i} = stablehlo.add {0}, {0} : {ty}\n",
            values[values.len() - 1]
        ));
        values.push(format!("%s{i}"));
    }
    let module = format!(
        "func.func @main(%a: {ty}) -> {ty} {{\n{body}  return {} : {ty}\n}}\n",
        values[values.len() - 1]
    );
    (module, kept)
}

/// How many times `needle` occurs in `haystack`.
fn occurrences(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Custom calls come back exactly as written, through a translation and through default
    /// optimization: every attribute verbatim, each call once (impure: never merged with its
    /// twin, deleted when unused, or duplicated), at any arity, chained through each other's
    /// results and beside ops the optimizer rewrites.
    #[test]
    fn custom_calls_round_trip_exactly(calls in prop::collection::vec(custom_call(), 1..6)) {
        use ptir::format::{read_source, write_program, Format, ReadOptions, WriteOptions};
        let (module, kept) = custom_call_module(&calls);
        let (program, source) = read_source(&module, Format::Mlir, &ReadOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{e}\n{module}")))?;
        let write = WriteOptions { source: Some(&source), ..WriteOptions::default() };
        let optimized = ptir::optimize(&program, &ptir::Options::default())
            .map_err(|e| TestCaseError::fail(format!("{e}\n{module}")))?;
        for (what, out) in [("translated", &program), ("optimized", &optimized.program)] {
            let text = write_program(out, Format::Mlir, &write)
                .map_err(|e| TestCaseError::fail(format!("{what}: {e}\n{module}")))?;
            for piece in &kept {
                prop_assert_eq!(
                    occurrences(&text.replace(") {} : ", ") : "), piece),
                    occurrences(&module.replace(") {} : ", ") : "), piece),
                    "{} `{}`\n{}\n{}", what, piece, module, text
                );
            }
            prop_assert_eq!(occurrences(&text, "custom_call"), calls.len(), "{}\n{}", what, text);
        }
    }
}
