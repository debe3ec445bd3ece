//! The canonicalize bench workload: a long chain that folds and rewrites away.
//!
//! `@chain(%p: f32[8]) -> (f32[8])` repeats five instructions (mul by a splat 1.0, neg of
//! neg, add of the parameter):
//!
//! ```text
//! %c = constant splat(1.0) : f32[8]
//! %m = mul %prev, %c : f32[8]
//! %n = neg %m : f32[8]
//! %d = neg %n : f32[8]
//! %a = add %d, %p : f32[8]      // the next group's %prev
//! ```
//!
//! Canonicalization leaves one constant-free chain of `add`s: the constants are deduplicated,
//! `x * 1` and `neg(neg x)` disappear (folds, or the `mul-one` and `neg-neg` rules of
//! [`CHAIN_RULES`] when folding is off). [`chain_mlir`] prints the same program in MLIR's
//! `func`/`arith` dialects, for comparing with `mlir-opt --canonicalize`.

use ptir_ir::{
    BinaryOp, DType, Function, Instruction, Literal, Op, Param, Program, Region, Scalar,
    TensorType, Type, UnaryOp, ValueId,
};
use std::fmt::Write;

/// The rules the bench runs with.
pub const CHAIN_RULES: &str = "
; x * 1 = x exactly, in every dtype
(rule mul-one (mul ?x (splat 1)) => ?x)
; negation is an involution
(rule neg-neg (neg (neg ?x)) => ?x)
";

/// The chain with `n / 5` groups of five instructions (`n` rounded down to a multiple of 5).
///
/// ```
/// let p = ptir_test_support::chain::canonicalize_chain(10);
/// assert_eq!(p.num_insts(), 10);
/// assert!(ptir_ir::verify(&p).is_ok());
/// ```
pub fn canonicalize_chain(n: usize) -> Program {
    let ty: Type = TensorType::new(DType::F32, vec![8]).into();
    let p = ValueId(0);
    let groups = n / 5;
    let mut insts = Vec::with_capacity(groups * 5);
    let mut prev = p;
    let mut next = 1u32;
    let mut push = |op: Op, operands: Vec<ValueId>, insts: &mut Vec<Instruction>| {
        let result = ValueId(next);
        next += 1;
        insts.push(Instruction {
            result,
            ty: ty.clone(),
            op,
            operands,
        });
        result
    };
    for _ in 0..groups {
        let one = Op::Constant(Literal::Splat(Scalar::Float(1.0)));
        let c = push(one, vec![], &mut insts);
        let m = push(Op::Binary(BinaryOp::Mul), vec![prev, c], &mut insts);
        let n1 = push(Op::Unary(UnaryOp::Neg), vec![m], &mut insts);
        let n2 = push(Op::Unary(UnaryOp::Neg), vec![n1], &mut insts);
        prev = push(Op::Binary(BinaryOp::Add), vec![n2, p], &mut insts);
    }
    let body = Region {
        params: vec![Param {
            id: p,
            ty: ty.clone(),
        }],
        insts,
        results: vec![prev],
    };
    Program {
        externs: vec![],
        functions: vec![Function {
            name: "chain".into(),
            result_types: vec![ty],
            body,
        }],
    }
}

/// The same chain as MLIR text (`func.func @chain(%p: tensor<8xf32>)` with `arith`).
///
/// ```
/// let text = ptir_test_support::chain::chain_mlir(5);
/// assert!(text.contains("arith.negf"));
/// ```
pub fn chain_mlir(n: usize) -> String {
    let t = "tensor<8xf32>";
    let mut s = format!("func.func @chain(%p: {t}) -> {t} {{\n");
    let mut prev = "%p".to_string();
    for g in 0..n / 5 {
        let _ = writeln!(s, "  %c{g} = arith.constant dense<1.0> : {t}");
        let _ = writeln!(s, "  %m{g} = arith.mulf {prev}, %c{g} : {t}");
        let _ = writeln!(s, "  %n{g} = arith.negf %m{g} : {t}");
        let _ = writeln!(s, "  %d{g} = arith.negf %n{g} : {t}");
        let _ = writeln!(s, "  %a{g} = arith.addf %d{g}, %p : {t}");
        prev = format!("%a{g}");
    }
    let _ = writeln!(s, "  return {prev} : {t}\n}}");
    s
}
