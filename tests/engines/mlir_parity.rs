//! Parity with real MLIR: small PTIR programs (elementwise arithmetic on tensors with constants,
//! and TOSA transpose, reshape, negate, mul, cast) are translated to MLIR (`func`, `arith`,
//! `tosa`; constants as `arith.constant dense<...>` or `"tosa.const"`), canonicalized by
//! `mlir-opt-22 --canonicalize`, and canonicalized by our greedy canonicalize pass (the bundled
//! rules minus `fast-math` and `algebra`, as the greedy engine runs them, with folding). Both
//! must keep the same ops (constants aside) and return the same kind of value (a parameter, a
//! constant or an op result) in each position: we remove what MLIR removes and keep what it
//! keeps for IEEE reasons (`x + 0.0`, `x - (-0.0)`, `x * 0.0`, `x - x` stay).
//!
//! A few cases are **known divergences**, pinned on both sides: TOSA's folders drop `x + 0.0`
//! and `x - (-0.0)` and fold `x * 0.0` to `0.0` (not IEEE-exact: `-0.0 + 0.0 = +0.0`,
//! `NaN * 0 = NaN`), which we do not (arith agrees with us); and we merge a cast through an
//! exact intermediate cast, which TOSA does not.
//!
//! **By meaning**: `mlir-opt`'s output is read back by our importer (`ptir_mlir` reads the
//! `arith` and `tosa` ops on static tensors it leaves) and run on the interpreter beside the
//! output of each of our engines (`ptir::optimize`, greedy and saturation, default options)
//! on seeded random inputs: the results must be bit-identical; and saturation must keep no
//! more non-constant ops than MLIR. Pinned divergences are left out of both (they differ by
//! design on `-0.0`, NaN and infinities). TOSA functions that still multiply are not read back:
//! `tosa.mul`'s shift operand is an `i8` tensor, and PTIR has no `i8`; they are counted and
//! named in the output.
//!
//! Needs `mlir-opt-22` (Debian's `mlir-22-tools`); without it the tests print a notice and
//! pass, except under `CI=true`, where they fail. `.ci/run` installs it when it can.

use ptir_greedy::Canonicalize;
use ptir_ir::{BinaryOp, DType, Literal, Op, Program, Scalar, Type, UnaryOp, ValueId};
use ptir_pass::Pass;
use ptir_rules::{RuleFilter, RuleSet};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::Command;

const MLIR_OPT: &str = "mlir-opt-22";

/// Which MLIR dialect the elementwise ops go to (transpose, reshape and cast are always TOSA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flavour {
    /// `arith.addf`, `arith.negf`, ... and `arith.constant`.
    Arith,
    /// `tosa.add`, `tosa.negate`, `tosa.mul`, ... and `"tosa.const"` (division stays `arith`).
    Tosa,
}

/// A known difference: what each side keeps (op names in PTIR terms, sorted), and why.
struct Divergence {
    mlir_keeps: &'static [&'static str],
    ours_keeps: &'static [&'static str],
    why: &'static str,
}

struct Case {
    name: &'static str,
    flavours: &'static [Flavour],
    /// The body of `func @f(%0: T, %1: T) -> (...)`, `T` written as `T`.
    ptir: &'static str,
    divergence: Option<(Flavour, Divergence)>,
}

use Flavour::{Arith, Tosa};

const BOTH: &[Flavour] = &[Arith, Tosa];

/// The cases. `T` stands for `f32[2,3]`, `I` for `i32[2,3]`.
fn cases() -> Vec<Case> {
    let case = |name, flavours, ptir| Case {
        name,
        flavours,
        ptir,
        divergence: None,
    };
    vec![
        case(
            "mul_one",
            BOTH,
            "func @f(%0: T) -> (T) { %1 = constant splat(1.0) : T\n %2 = mul %0, %1 : T\n return %2 }",
        ),
        case(
            "mul_one_left",
            BOTH,
            "func @f(%0: T) -> (T) { %1 = constant splat(1.0) : T\n %2 = mul %1, %0 : T\n return %2 }",
        ),
        Case {
            name: "add_zero",
            flavours: BOTH,
            ptir: "func @f(%0: T) -> (T) { %1 = constant splat(0.0) : T\n %2 = add %0, %1 : T\n return %2 }",
            divergence: Some((
                Tosa,
                Divergence {
                    mlir_keeps: &[],
                    ours_keeps: &["add"],
                    why: "TOSA's add folder drops x + 0.0, wrong for x = -0.0 (-0.0 + 0.0 = +0.0); \
                          arith keeps it, and so do we",
                },
            )),
        },
        case(
            "add_neg_zero",
            BOTH,
            "func @f(%0: T) -> (T) { %1 = constant splat(-0.0) : T\n %2 = add %0, %1 : T\n return %2 }",
        ),
        case(
            "sub_zero",
            BOTH,
            "func @f(%0: T) -> (T) { %1 = constant splat(0.0) : T\n %2 = sub %0, %1 : T\n return %2 }",
        ),
        Case {
            name: "sub_neg_zero",
            flavours: BOTH,
            ptir: "func @f(%0: T) -> (T) { %1 = constant splat(-0.0) : T\n %2 = sub %0, %1 : T\n return %2 }",
            divergence: Some((
                Tosa,
                Divergence {
                    mlir_keeps: &[],
                    ours_keeps: &["sub"],
                    why: "TOSA's sub folder drops x - (-0.0), which is x + 0.0, wrong for x = -0.0; \
                          arith keeps it, and so do we",
                },
            )),
        },
        case(
            "div_one",
            &[Arith],
            "func @f(%0: T) -> (T) { %1 = constant splat(1.0) : T\n %2 = div %0, %1 : T\n return %2 }",
        ),
        case(
            "neg_neg",
            BOTH,
            "func @f(%0: T) -> (T) { %1 = neg %0 : T\n %2 = neg %1 : T\n return %2 }",
        ),
        case(
            "neg_kept",
            BOTH,
            "func @f(%0: T) -> (T) { %1 = neg %0 : T\n return %1 }",
        ),
        Case {
            name: "mul_zero",
            flavours: BOTH,
            ptir: "func @f(%0: T) -> (T) { %1 = constant splat(0.0) : T\n %2 = mul %0, %1 : T\n return %2 }",
            divergence: Some((
                Tosa,
                Divergence {
                    mlir_keeps: &[],
                    ours_keeps: &["mul"],
                    why: "TOSA's mul folder turns x * 0.0 into 0.0, wrong for NaN, infinities and \
                          negative x; arith keeps it, and so do we",
                },
            )),
        },
        case(
            "sub_self",
            &[Arith],
            "func @f(%0: T) -> (T) { %1 = sub %0, %0 : T\n return %1 }",
        ),
        case(
            "mul_two",
            BOTH,
            "func @f(%0: T) -> (T) { %1 = constant splat(2.0) : T\n %2 = mul %0, %1 : T\n return %2 }",
        ),
        case(
            "int_add_zero",
            &[Arith],
            "func @f(%0: I) -> (I) { %1 = constant splat(0) : I\n %2 = add %0, %1 : I\n return %2 }",
        ),
        case(
            "int_sub_self",
            &[Arith],
            "func @f(%0: I) -> (I) { %1 = sub %0, %0 : I\n return %1 }",
        ),
        case(
            "int_mul_zero",
            &[Arith],
            "func @f(%0: I) -> (I) { %1 = constant splat(0) : I\n %2 = mul %0, %1 : I\n return %2 }",
        ),
        case(
            "int_div_one",
            &[Arith],
            "func @f(%0: I) -> (I) { %1 = constant splat(1) : I\n %2 = div %0, %1 : I\n return %2 }",
        ),
        case(
            "int_neg_neg",
            &[Tosa],
            "func @f(%0: I) -> (I) { %1 = neg %0 : I\n %2 = neg %1 : I\n return %2 }",
        ),
        case(
            "chain",
            BOTH,
            "func @f(%0: T, %1: T) -> (T) {
               %2 = constant splat(1.0) : T
               %3 = mul %0, %2 : T
               %4 = neg %3 : T
               %5 = neg %4 : T
               %6 = add %5, %1 : T
               %7 = mul %6, %2 : T
               %8 = neg %7 : T
               %9 = neg %8 : T
               %10 = add %9, %1 : T
               return %10 }",
        ),
        case(
            "transpose_of_transpose_inverse",
            &[Tosa],
            "func @f(%0: f32[2,3,4]) -> (f32[2,3,4]) {
               %1 = transpose %0 perm=[1,2,0] : f32[3,4,2]
               %2 = transpose %1 perm=[2,0,1] : f32[2,3,4]
               return %2 }",
        ),
        case(
            "transpose_of_transpose_composed",
            &[Tosa],
            "func @f(%0: f32[2,3,4]) -> (f32[3,2,4]) {
               %1 = transpose %0 perm=[1,2,0] : f32[3,4,2]
               %2 = transpose %1 perm=[0,2,1] : f32[3,2,4]
               return %2 }",
        ),
        case(
            "identity_transpose",
            &[Tosa],
            "func @f(%0: T) -> (T) { %1 = transpose %0 perm=[0,1] : T\n return %1 }",
        ),
        case(
            "transpose_kept",
            &[Tosa],
            "func @f(%0: T) -> (f32[3,2]) { %1 = transpose %0 perm=[1,0] : f32[3,2]\n return %1 }",
        ),
        case(
            "negate_of_transpose",
            BOTH,
            "func @f(%0: T) -> (f32[3,2]) {
               %1 = transpose %0 perm=[1,0] : f32[3,2]
               %2 = neg %1 : f32[3,2]
               return %2 }",
        ),
        case(
            "reshape_of_reshape",
            &[Tosa],
            "func @f(%0: f32[2,3,4]) -> (f32[6,4]) {
               %1 = reshape %0 : f32[24]
               %2 = reshape %1 : f32[6,4]
               return %2 }",
        ),
        case(
            "reshape_round_trip",
            &[Tosa],
            "func @f(%0: f32[2,3,4]) -> (f32[2,3,4]) {
               %1 = reshape %0 : f32[6,4]
               %2 = reshape %1 : f32[2,3,4]
               return %2 }",
        ),
        case(
            "identity_reshape",
            &[Tosa],
            "func @f(%0: T) -> (T) { %1 = reshape %0 : T\n return %1 }",
        ),
        case(
            "identity_cast",
            &[Tosa],
            "func @f(%0: T) -> (T) { %1 = cast %0 : T\n return %1 }",
        ),
        case(
            "narrowing_cast_kept",
            &[Tosa],
            "func @f(%0: T) -> (f16[2,3]) { %1 = cast %0 : f16[2,3]\n return %1 }",
        ),
        case(
            "cast_round_trip_kept",
            &[Tosa],
            "func @f(%0: T) -> (T) { %1 = cast %0 : f16[2,3]\n %2 = cast %1 : T\n return %2 }",
        ),
        Case {
            name: "cast_of_exact_cast",
            flavours: &[Tosa],
            ptir: "func @f(%0: f16[2,3]) -> (f64[2,3]) {
               %1 = cast %0 : T
               %2 = cast %1 : f64[2,3]
               return %2 }",
            divergence: Some((
                Tosa,
                Divergence {
                    mlir_keeps: &["cast", "cast"],
                    ours_keeps: &["cast"],
                    why: "f16 -> f32 is exact, so f16 -> f32 -> f64 is one f16 -> f64 cast \
                          (our cast-of-exact-cast); TOSA has no such canonicalization",
                },
            )),
        },
    ]
}

// ---- PTIR -> MLIR ---------------------------------------------------------------------------

fn mlir_type(t: &Type) -> Result<String, String> {
    let t = t.as_tensor().ok_or_else(|| format!("not a tensor: {t}"))?;
    Ok(ptir::mlir::mlir_type(t))
}

/// A number as an MLIR literal (floats need a `.`).
fn mlir_number(s: Scalar) -> Result<String, String> {
    match s {
        Scalar::Float(x) if x.is_finite() => {
            let d = format!("{x:?}");
            Ok(if d.contains('.') {
                d
            } else if let Some((m, e)) = d.split_once('e') {
                format!("{m}.0e{e}")
            } else {
                format!("{d}.0")
            })
        }
        Scalar::Float(x) => Err(format!("no MLIR literal for {x}")),
        Scalar::Int(i) => Ok(i.to_string()),
        Scalar::Bool(b) => Ok(b.to_string()),
    }
}

fn dtype_of(t: &Type) -> DType {
    t.as_tensor().map_or(DType::F32, |t| t.dtype)
}

/// The first function of `p` as an MLIR `func.func @name`.
fn to_mlir(p: &Program, name: &str, flavour: Flavour) -> Result<String, String> {
    let f = p.functions.first().ok_or("no function")?;
    let mut types: HashMap<ValueId, Type> = HashMap::new();
    let mut params = Vec::new();
    for (k, prm) in f.body.params.iter().enumerate() {
        types.insert(prm.id, prm.ty.clone());
        params.push(format!("%arg{k}: {}", mlir_type(&prm.ty)?));
    }
    let arg_of: HashMap<ValueId, usize> = f
        .body
        .params
        .iter()
        .enumerate()
        .map(|(k, p)| (p.id, k))
        .collect();
    let val = |v: &ValueId| match arg_of.get(v) {
        Some(k) => format!("%arg{k}"),
        None => format!("%v{}", v.0),
    };
    let results: Vec<String> = f
        .result_types
        .iter()
        .map(mlir_type)
        .collect::<Result<_, _>>()?;
    let mut s = format!(
        "func.func @{name}({}) -> ({}) {{\n",
        params.join(", "),
        results.join(", ")
    );
    for inst in &f.body.insts {
        let r = format!("%v{}", inst.result.0);
        let ty = mlir_type(&inst.ty)?;
        let ops: Vec<String> = inst.operands.iter().map(val).collect();
        let op_ty = |k: usize| {
            inst.operands
                .get(k)
                .and_then(|o| types.get(o))
                .map(mlir_type)
                .unwrap_or_else(|| Err("operand type".into()))
        };
        let float = dtype_of(&inst.ty).is_float();
        let zero = if float { "0.0" } else { "0" };
        let elem = mlir_type(&inst.ty)?
            .rsplit('x')
            .next()
            .unwrap_or("f32>")
            .trim_end_matches('>')
            .trim_start_matches("tensor<")
            .to_string();
        let line = match (&inst.op, flavour) {
            (Op::Constant(Literal::Splat(x)), Arith) => {
                format!("{r} = arith.constant dense<{}> : {ty}", mlir_number(*x)?)
            }
            (Op::Constant(Literal::Splat(x)), Tosa) => format!(
                "{r} = \"tosa.const\"() {{values = dense<{}> : {ty}}} : () -> {ty}",
                mlir_number(*x)?
            ),
            (Op::Binary(b), Arith) | (Op::Binary(b @ BinaryOp::Div), Tosa) => {
                let name = match (b, float) {
                    (BinaryOp::Add, true) => "addf",
                    (BinaryOp::Sub, true) => "subf",
                    (BinaryOp::Mul, true) => "mulf",
                    (BinaryOp::Div, true) => "divf",
                    (BinaryOp::Add, false) => "addi",
                    (BinaryOp::Sub, false) => "subi",
                    (BinaryOp::Mul, false) => "muli",
                    (BinaryOp::Div, false) => "divsi",
                    _ => return Err(format!("no arith op for {b}")),
                };
                format!("{r} = arith.{name} {}, {} : {ty}", ops[0], ops[1])
            }
            (Op::Binary(b @ (BinaryOp::Add | BinaryOp::Sub)), Tosa) => format!(
                "{r} = tosa.{b} {}, {} : ({ty}, {ty}) -> {ty}",
                ops[0], ops[1]
            ),
            (Op::Binary(BinaryOp::Mul), Tosa) => format!(
                "{r}_shift = \"tosa.const\"() {{values = dense<0> : tensor<1xi8>}} : () -> tensor<1xi8>\n  \
                 {r} = tosa.mul {}, {}, {r}_shift : ({ty}, {ty}, tensor<1xi8>) -> {ty}",
                ops[0], ops[1]
            ),
            (Op::Unary(UnaryOp::Neg), Arith) if float => {
                format!("{r} = arith.negf {} : {ty}", ops[0])
            }
            (Op::Unary(UnaryOp::Neg), Tosa) => format!(
                "{r}_zp = \"tosa.const\"() {{values = dense<{zero}> : tensor<1x{elem}>}} : () -> tensor<1x{elem}>\n  \
                 {r} = tosa.negate {}, {r}_zp, {r}_zp : ({ty}, tensor<1x{elem}>, tensor<1x{elem}>) -> {ty}",
                ops[0]
            ),
            (Op::Transpose { perm }, _) => {
                let perms: Vec<String> = perm.iter().map(|p| p.to_string()).collect();
                format!(
                    "{r} = tosa.transpose {} {{perms = array<i32: {}>}} : ({}) -> {ty}",
                    ops[0],
                    perms.join(", "),
                    op_ty(0)?
                )
            }
            (Op::Reshape, _) => {
                let shape = inst.ty.as_tensor().map(|t| t.shape.clone()).unwrap_or_default();
                let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
                let n = shape.len();
                format!(
                    "{r}_shape = tosa.const_shape {{values = dense<[{}]> : tensor<{n}xindex>}} : () -> !tosa.shape<{n}>\n  \
                     {r} = tosa.reshape {}, {r}_shape : ({}, !tosa.shape<{n}>) -> {ty}",
                    dims.join(", "),
                    ops[0],
                    op_ty(0)?
                )
            }
            (Op::Cast, _) => format!("{r} = tosa.cast {} : ({}) -> {ty}", ops[0], op_ty(0)?),
            (op, _) => return Err(format!("no {flavour:?} translation for `{}`", op.name())),
        };
        let _ = writeln!(s, "  {line}");
        types.insert(inst.result, inst.ty.clone());
    }
    let rets: Vec<String> = f.body.results.iter().map(val).collect();
    let _ = writeln!(
        s,
        "  return {} : {}\n}}",
        rets.join(", "),
        results.join(", ")
    );
    Ok(s)
}

// ---- what a canonicalized function keeps ----------------------------------------------------

/// A returned value: a parameter, a constant, or the result of a (non-constant) op.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Returned {
    Param(usize),
    Constant,
    Op,
}

/// What a canonicalized function keeps: its non-constant ops (PTIR names, sorted) and what
/// each result is.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Kept {
    ops: Vec<String>,
    returns: Vec<Returned>,
}

/// The PTIR name of an MLIR op, `None` for constants.
fn ptir_name(mlir_op: &str) -> Option<String> {
    let name = match mlir_op {
        "arith.constant" | "tosa.const" | "tosa.const_shape" => return None,
        "arith.addf" | "arith.addi" | "tosa.add" => "add",
        "arith.subf" | "arith.subi" | "tosa.sub" => "sub",
        "arith.mulf" | "arith.muli" | "tosa.mul" => "mul",
        "arith.divf" | "arith.divsi" => "div",
        "arith.negf" | "tosa.negate" => "neg",
        "tosa.transpose" => "transpose",
        "tosa.reshape" => "reshape",
        "tosa.cast" => "cast",
        other => other,
    };
    Some(name.to_string())
}

/// What each function of `mlir-opt` output keeps, by function name.
fn parse_mlir(text: &str) -> HashMap<String, Kept> {
    let mut out = HashMap::new();
    for chunk in text.split("func.func @").skip(1) {
        let Some(name) = chunk.split('(').next() else {
            continue;
        };
        let mut defs: HashMap<String, Option<String>> = HashMap::new();
        let mut kept = Kept {
            ops: Vec::new(),
            returns: Vec::new(),
        };
        for line in chunk.lines().skip(1).map(str::trim) {
            if let Some(rest) = line.strip_prefix("return") {
                let values = rest.split(':').next().unwrap_or("");
                for v in values.split(',').map(str::trim).filter(|v| !v.is_empty()) {
                    kept.returns.push(match v.strip_prefix("%arg") {
                        Some(k) => Returned::Param(k.parse().unwrap_or(usize::MAX)),
                        None => match defs.get(v) {
                            Some(None) => Returned::Constant,
                            _ => Returned::Op,
                        },
                    });
                }
                break;
            }
            let Some((lhs, rhs)) = line.split_once(" = ") else {
                continue;
            };
            let op = rhs
                .split([' ', '('])
                .next()
                .unwrap_or("")
                .trim_matches('"')
                .to_string();
            let name = ptir_name(&op);
            if let Some(n) = &name {
                kept.ops.push(n.clone());
            }
            defs.insert(lhs.trim().to_string(), name);
        }
        kept.ops.sort();
        out.insert(name.to_string(), kept);
    }
    out
}

/// What our canonicalized function keeps.
fn kept_ptir(p: &Program) -> Kept {
    let f = &p.functions[0];
    let mut ops: Vec<String> = f
        .body
        .insts
        .iter()
        .filter(|i| !matches!(i.op, Op::Constant(_)))
        .map(|i| i.op.name().to_string())
        .collect();
    ops.sort();
    let returns = f
        .body
        .results
        .iter()
        .map(|r| {
            if let Some(k) = f.body.params.iter().position(|p| p.id == *r) {
                Returned::Param(k)
            } else if f
                .body
                .insts
                .iter()
                .any(|i| i.result == *r && matches!(i.op, Op::Constant(_)))
            {
                Returned::Constant
            } else {
                Returned::Op
            }
        })
        .collect();
    Kept { ops, returns }
}

/// Is `mlir-opt-22` here? If not, prints a notice (straight to stderr, so that it shows in
/// normal test output), or fails under `CI=true`.
fn mlir_available() -> bool {
    let here = Command::new(MLIR_OPT)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !here {
        let msg = format!(
            "NOTICE: `{MLIR_OPT}` not found; skipping the MLIR parity test \
             (install Debian's mlir-22-tools: apt-get install -y mlir-22-tools)"
        );
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg} (required under CI=true)");
        }
        let _ = std::io::Write::write_fmt(&mut std::io::stderr(), format_args!("{msg}\n"));
    }
    here
}

/// The text of each function of `mlir-opt` output, by name, as a module of its own.
fn function_texts(text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for chunk in text.split("func.func @").skip(1) {
        let Some(name) = chunk.split('(').next() else {
            continue;
        };
        let body = chunk.split("\n  }").next().unwrap_or(chunk);
        out.insert(name.to_string(), format!("func.func @{body}\n}}\n"));
    }
    out
}

/// How many input sets the by-meaning comparison runs.
const SEEDS: usize = 8;

/// Our output under `engine` with default options (the bundled rules, no `fast-math`).
fn ours_by(engine: ptir::Engine, p: &Program) -> Program {
    let options = ptir::Options {
        engine,
        ..ptir::Options::default()
    };
    ptir::optimize(p, &options)
        .unwrap_or_else(|e| panic!("{engine:?}: {e}"))
        .program
}

/// Non-constant ops of the first function.
fn op_count(p: &Program) -> usize {
    kept_ptir(p).ops.len()
}

fn program(case: &Case) -> Program {
    let text = case
        .ptir
        .replace(" T", " f32[2,3]")
        .replace(" I", " i32[2,3]");
    let text = text
        .replace("(T)", "(f32[2,3])")
        .replace("(I)", "(i32[2,3])");
    let p = ptir_ir::parse(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", case.name));
    ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    p
}

/// Our greedy canonicalize, as the greedy engine runs it (folds on, `fast-math` and `algebra`
/// rules off).
fn ours(p: &Program) -> Program {
    let rules = RuleSet::bundled().expect("the bundled rules load");
    let filter = RuleFilter {
        enabled: Vec::new(),
        disabled: vec!["fast-math".into(), "algebra".into(), "priced".into()],
    };
    let pass = Canonicalize::with_filtered_rules(&rules, &filter).expect("the rules compile");
    let mut out = p.clone();
    pass.run(&mut out).expect("canonicalize runs");
    ptir_ir::verify(&out).expect("the output verifies");
    out
}

#[test]
fn canonicalize_keeps_what_mlir_keeps_and_both_engines_compute_what_it_computes() {
    if !mlir_available() {
        return;
    }
    let cases = cases();
    // One module with a function per case and flavour: one mlir-opt run.
    let mut module = String::new();
    let mut runs: Vec<(&Case, Flavour, String)> = Vec::new();
    for case in &cases {
        let p = program(case);
        for &flavour in case.flavours {
            let fname = format!("{}_{}", case.name, format!("{flavour:?}").to_lowercase());
            let text = to_mlir(&p, &fname, flavour).unwrap_or_else(|e| panic!("{fname}: {e}"));
            module.push_str(&text);
            runs.push((case, flavour, fname));
        }
    }
    let dir = std::env::temp_dir().join(format!("ptir-mlir-parity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let input = dir.join("cases.mlir");
    std::fs::write(&input, &module).expect("the MLIR input is written");
    let output = Command::new(MLIR_OPT)
        .arg("--canonicalize")
        .arg(&input)
        .output()
        .expect("mlir-opt runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        output.status.success(),
        "{MLIR_OPT} --canonicalize failed:\n{}\ninput:\n{module}",
        String::from_utf8_lossy(&output.stderr)
    );
    let canonical_text = String::from_utf8_lossy(&output.stdout).into_owned();
    let canonical = parse_mlir(&canonical_text);
    let texts = function_texts(&canonical_text);
    let mut unread = Vec::new();
    let mut compared = 0;

    let mut failures = Vec::new();
    let mut table =
        String::from("case                                   | MLIR keeps          | we keep\n");
    for (case, flavour, fname) in &runs {
        let before = program(case);
        let mlir = canonical
            .get(fname)
            .unwrap_or_else(|| panic!("{fname} is missing from the mlir-opt output"));
        let ours = kept_ptir(&ours(&before));
        let insts = before.num_insts();
        let mlir_ops = format!("{:?}", mlir.ops);
        let _ = writeln!(
            table,
            "{fname:<38} | {mlir_ops:<19} | {:?} (of {insts} insts)",
            ours.ops
        );
        match &case.divergence {
            Some((f, d)) if f == flavour => {
                if mlir.ops != d.mlir_keeps || ours.ops != d.ours_keeps {
                    failures.push(format!(
                        "{fname}: known divergence ({}) no longer as pinned: MLIR keeps {:?} \
                         (pinned {:?}), we keep {:?} (pinned {:?})",
                        d.why, mlir.ops, d.mlir_keeps, ours.ops, d.ours_keeps
                    ));
                }
            }
            _ => {
                if *mlir != ours {
                    failures.push(format!(
                        "{fname}: MLIR keeps {mlir:?}, we keep {ours:?}\nPTIR:\n{}",
                        ptir_ir::print(&before)
                    ));
                }
                // By meaning: MLIR's output, read back, against each engine's.
                let text = &texts[fname];
                let mut theirs = match ptir_mlir::import(text) {
                    Ok(p) => p,
                    Err(e) if *flavour == Tosa && text.contains("xi8>") => {
                        unread.push(format!("{fname} ({e})"));
                        continue;
                    }
                    Err(e) => {
                        failures.push(format!(
                            "{fname}: mlir-opt's output does not import: {e}\n{text}"
                        ));
                        continue;
                    }
                };
                theirs.functions[0].name = "f".into();
                for engine in [ptir::Engine::Greedy, ptir::Engine::Saturation] {
                    let ours = ours_by(engine, &before);
                    if let Err(e) =
                        ptir::validate(&theirs, &ours, SEEDS, false, &ptir::ExternImpls::new())
                    {
                        failures.push(format!(
                            "{fname}: {engine:?} computes other values than MLIR: {e}"
                        ));
                    }
                    if engine == ptir::Engine::Saturation && op_count(&ours) > op_count(&theirs) {
                        failures.push(format!(
                            "{fname}: saturation keeps {} ops, MLIR {}:\n{}",
                            op_count(&ours),
                            op_count(&theirs),
                            ptir_ir::print(&ours)
                        ));
                    }
                }
                compared += 1;
            }
        }
    }
    println!("{table}");
    println!(
        "by meaning: {compared} functions of mlir-opt's output read back and equal to both \
         engines' on {SEEDS} input sets; not read back ({}): {}",
        unread.len(),
        unread.join("; ")
    );
    assert!(compared > 0, "nothing compared by meaning");
    for case in &cases {
        if let Some((f, d)) = &case.divergence {
            println!("known divergence {} ({f:?}): {}", case.name, d.why);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_translation_is_mlir_that_parses() {
    if !mlir_available() {
        return;
    }
    // Without canonicalization, mlir-opt must round-trip every op we emit.
    let mut module = String::new();
    for case in cases() {
        for &flavour in case.flavours {
            let p = program(&case);
            module.push_str(&to_mlir(&p, &format!("{}_{flavour:?}", case.name), flavour).unwrap());
        }
    }
    let dir = std::env::temp_dir().join(format!("ptir-mlir-parse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let input = dir.join("cases.mlir");
    std::fs::write(&input, &module).expect("written");
    let out = Command::new(MLIR_OPT)
        .arg(&input)
        .output()
        .expect("mlir-opt runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}\n{module}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every op survives a plain parse and print.
    let parsed = parse_mlir(&String::from_utf8_lossy(&out.stdout));
    for case in cases() {
        let p = program(&case);
        let want = kept_ptir(&p).ops;
        for &flavour in case.flavours {
            let got = &parsed[&format!("{}_{flavour:?}", case.name)];
            assert_eq!(got.ops, want, "{}", case.name);
        }
    }
}
