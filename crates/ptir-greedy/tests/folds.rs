//! Folders against the interpreter: a fold computes exactly what running the op computes.
//!
//! - Generated programs whose inputs are turned into constants fold (nearly) completely, and
//!   the folded program returns the same bits as the original run on those inputs.
//! - Each identity fold is checked on inputs full of special values (NaN, ±0, ±inf, integer
//!   extremes), and the non-identities MLIR also leaves alone (`x + 0.0`) are not folded.
//! - Integer division by zero is never folded.

mod common;

use common::{body, interpret, parse, run};
use ptir_greedy::{GreedyConfig, PatternSet};
use ptir_ir::generate::{generate, random_inputs, GenConfig, ENTRY};
use ptir_ir::{Data, Instruction, Literal, Op, Program, Tensor, TensorType, Value};

/// The program with the entry function's parameters replaced by constants holding `inputs`.
fn constantize(p: &Program, inputs: &[Value]) -> Option<Program> {
    let mut p = p.clone();
    let main = p.functions.last_mut()?;
    let params = std::mem::take(&mut main.body.params);
    let mut consts = Vec::new();
    for (param, v) in params.into_iter().zip(inputs) {
        let Value::Tensor(t) = v else { return None };
        consts.push(Instruction {
            result: param.id,
            ty: param.ty,
            op: Op::Constant(Literal::Dense(t.data.clone())),
            operands: vec![],
        });
    }
    consts.append(&mut main.body.insts);
    main.body.insts = consts;
    Some(p)
}

#[test]
fn folding_generated_programs_on_constant_inputs_computes_what_the_interpreter_computes() {
    let (mut folded_total, mut compared) = (0, 0);
    for seed in 0..150 {
        let cfg = GenConfig {
            seed,
            size: 40,
            allow_impure: seed % 2 == 0,
            ..GenConfig::default()
        };
        let p = generate(&cfg);
        let Some(main) = p.function(ENTRY) else {
            continue;
        };
        let inputs = random_inputs(main, seed);
        let Some(constant) = constantize(&p, &inputs) else {
            continue;
        };
        let Ok(expected) = interpret(&p, ENTRY, &inputs) else {
            continue;
        };
        let mut folded = constant.clone();
        let pass = ptir_greedy::Canonicalize::new(PatternSet::new().freeze())
            .with_config(GreedyConfig::canonicalize().with_expensive_checks(seed % 10 == 0));
        let report = ptir_pass::Pass::run(&pass, &mut folded).unwrap();
        folded_total += report
            .stats::<ptir_greedy::CanonicalizeStats>()
            .map_or(0, |g| g.driver.folds);
        if let Err(e) = ptir_ir::verify(&folded) {
            panic!("seed {seed}: {e}\n{}", ptir_ir::print(&folded));
        }
        let got = interpret(&folded, ENTRY, &[]).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(got, expected, "seed {seed}\n{}", ptir_ir::print(&folded));
        compared += 1;
    }
    assert!(compared > 120, "only {compared} programs compared");
    assert!(folded_total > 1000, "only {folded_total} folds");
}

fn f32s(xs: &[f64]) -> Value {
    Value::Tensor(Tensor::from_f64(
        TensorType::new(ptir_ir::DType::F32, vec![xs.len()]),
        xs,
    ))
}

fn i32s(xs: &[i64]) -> Value {
    Value::Tensor(Tensor {
        ty: TensorType::new(ptir_ir::DType::I32, vec![xs.len()]),
        data: Data::Int(xs.to_vec()),
    })
}

const SPECIAL: [f64; 8] = [
    f64::NAN,
    -0.0,
    0.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1.5,
    -3.0,
    1e-40,
];

/// Folds `expr` (a body computing `%r` from `%0`), checks which folds happened and that the
/// result is bit-identical to the original on `input`.
fn check_identity(ty: &str, lines: &[&str], input: Value, folds: bool) {
    let mut text = format!("func @f(%0: {ty}) -> ({ty}) {{\n");
    for l in lines {
        text.push_str(&format!("  {l}\n"));
    }
    text.push_str("}\n");
    let original = parse(&text);
    let (folded, report) = run(&text, PatternSet::new(), &GreedyConfig::canonicalize()).unwrap();
    assert_eq!(report.stats.folds > 0, folds, "{text}\n{:?}", body(&folded));
    let a = interpret(&original, "f", std::slice::from_ref(&input));
    let b = interpret(&folded, "f", &[input]);
    assert_eq!(a, b, "{text}\n{:?}", body(&folded));
}

#[test]
fn float_identities_fold_exactly_and_inexact_ones_do_not() {
    let input = f32s(&SPECIAL);
    let ty = "f32[8]";
    let with_const = |c: &str, op: &str, swap: bool| {
        let expr = if swap {
            format!("%2 = {op} %1, %0 : {ty}")
        } else {
            format!("%2 = {op} %0, %1 : {ty}")
        };
        [
            format!("%1 = constant splat({c}) : {ty}"),
            expr,
            "return %2".to_string(),
        ]
    };
    for (c, op, swap, folds) in [
        ("1.0", "mul", false, true),
        ("1.0", "mul", true, true),
        ("1.0", "div", false, true),
        ("-0.0", "add", false, true),
        ("-0.0", "add", true, true),
        ("0.0", "sub", false, true),
        ("-inf", "max", true, true),
        ("inf", "min", false, true),
        ("0.0", "add", false, false),
        ("-0.0", "sub", false, false),
        ("0.0", "mul", false, false),
        ("1.0", "div", true, false),
        ("1.0", "pow", false, false),
    ] {
        let lines = with_const(c, op, swap);
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        check_identity(ty, &refs, input.clone(), folds);
    }
    let unary = |ops: &[&str]| {
        let mut lines = Vec::new();
        let mut prev = 0;
        for (i, op) in ops.iter().enumerate() {
            lines.push(format!("%{} = {op} %{prev} : {ty}", i + 1));
            prev = i + 1;
        }
        lines.push(format!("return %{prev}"));
        lines
    };
    for (ops, folds) in [
        (&["neg", "neg"][..], true),
        (&["abs", "abs"], true),
        (&["neg", "abs"], false),
    ] {
        let lines = unary(ops);
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        check_identity(ty, &refs, input.clone(), folds);
    }
    for (lines, folds) in [
        (&["%1 = max %0, %0 : f32[8]", "return %1"][..], true),
        (
            &[
                "%1 = eq %0, %0 : bool[8]",
                "%2 = select %1, %0, %0 : f32[8]",
                "return %2",
            ],
            true,
        ),
        (&["%1 = sub %0, %0 : f32[8]", "return %1"], false),
        (&["%1 = transpose %0 perm=[0] : f32[8]", "return %1"], true),
        (&["%1 = broadcast %0 dims=[0] : f32[8]", "return %1"], true),
        (
            &[
                "%1 = reduce_sum %0 axes=[] keep_dims=true : f32[8]",
                "return %1",
            ],
            false,
        ),
        (
            &[
                "%1 = reduce_max %0 axes=[] keep_dims=true : f32[8]",
                "return %1",
            ],
            true,
        ),
        (
            &[
                "%1 = reshape %0 : f32[2,4]",
                "%2 = reshape %1 : f32[4,2]",
                "%3 = reshape %2 : f32[8]",
                "return %3",
            ],
            true,
        ),
    ] {
        check_identity(ty, lines, input.clone(), folds);
    }
}

#[test]
fn integer_identities_fold_and_division_by_zero_does_not() {
    let input = i32s(&[0, 1, -1, 7, -8, i32::MAX as i64, i32::MIN as i64, 3]);
    let ty = "i32[8]";
    for (c, op, folds) in [
        ("0", "add", true),
        ("0", "sub", true),
        ("1", "mul", true),
        ("0", "mul", true),
        ("1", "div", true),
        ("1", "rem", true),
        ("-1", "and", true),
        ("0", "or", true),
        ("-2147483648", "max", true),
        ("2147483647", "min", true),
        ("2", "div", false),
    ] {
        let lines = [
            format!("%1 = constant splat({c}) : {ty}"),
            format!("%2 = {op} %0, %1 : {ty}"),
            "return %2".to_string(),
        ];
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        check_identity(ty, &refs, input.clone(), folds);
    }
    check_identity(
        ty,
        &["%1 = sub %0, %0 : i32[8]", "return %1"],
        input.clone(),
        true,
    );
    check_identity(
        ty,
        &[
            "%1 = reduce_sum %0 axes=[] keep_dims=true : i32[8]",
            "return %1",
        ],
        input.clone(),
        true,
    );
    // Division by a zero constant stays, and still fails at run time.
    let text = "func @f() -> (i32[2]) {
  %0 = constant splat(7) : i32[2]
  %1 = constant dense([1, 0]) : i32[2]
  %2 = div %0, %1 : i32[2]
  return %2
}";
    let (folded, report) = run(text, PatternSet::new(), &GreedyConfig::canonicalize()).unwrap();
    assert_eq!(report.stats.folds, 0);
    assert!(interpret(&folded, "f", &[]).is_err());
}

#[test]
fn elementwise_folds_of_splats_match_the_kernels_on_every_dtype() {
    // Splat operands take the scalar path; compare with the interpreter on the same program.
    for (ty, a, b) in [
        ("f16[3]", "1.1", "3.3"),
        ("bf16[3]", "1.1", "3.3"),
        ("f64[3]", "0.1", "0.2"),
        ("i64[3]", "9", "-4"),
        ("bool[3]", "true", "false"),
    ] {
        let float = ty.starts_with('f') || ty.starts_with("bf");
        let ops: &[&str] = if float {
            &["add", "sub", "mul", "div", "max", "min", "pow", "rem"]
        } else if ty.starts_with('i') {
            &["add", "sub", "mul", "div", "rem", "max", "min", "and", "or"]
        } else {
            &["and", "or"]
        };
        for op in ops {
            let text = format!(
                "func @f() -> ({ty}) {{\n  %0 = constant splat({a}) : {ty}\n  %1 = constant splat({b}) : {ty}\n  %2 = {op} %0, %1 : {ty}\n  return %2\n}}\n"
            );
            let original = parse(&text);
            let (folded, report) =
                run(&text, PatternSet::new(), &GreedyConfig::canonicalize()).unwrap();
            assert_eq!(report.stats.folds, 1, "{text}");
            assert_eq!(
                interpret(&original, "f", &[]),
                interpret(&folded, "f", &[]),
                "{text}"
            );
        }
    }
    // Casts between every pair of dtypes.
    for from in ["f32", "f64", "f16", "i32", "i64", "bool"] {
        for to in ["f32", "bf16", "i32", "i64", "bool"] {
            let v = if from == "bool" {
                "true"
            } else if from.starts_with('i') {
                "-3"
            } else {
                "-2.75"
            };
            let text = format!(
                "func @f() -> ({to}[2]) {{\n  %0 = constant splat({v}) : {from}[2]\n  %1 = cast %0 : {to}[2]\n  return %1\n}}\n"
            );
            let original = parse(&text);
            let (folded, _) = run(&text, PatternSet::new(), &GreedyConfig::canonicalize()).unwrap();
            assert_eq!(body(&folded).len(), 2, "{text}");
            assert_eq!(
                interpret(&original, "f", &[]),
                interpret(&folded, "f", &[]),
                "{text}"
            );
        }
    }
}
