//! Long straight-line programs for scaling benches.

use crate::ops::{BinaryOp, Op, UnaryOp};
use crate::program::{Function, Instruction, Param, Program, Region, ValueId};
use crate::types::{DType, TensorType, Type};

/// The ops of a chain, repeated in this order; binary ones take the parameter as their
/// second operand. `neg, neg` leaves a double negation for rewrites to find.
const CHAIN_OPS: [Op; 8] = [
    Op::Binary(BinaryOp::Add),
    Op::Binary(BinaryOp::Mul),
    Op::Unary(UnaryOp::Neg),
    Op::Unary(UnaryOp::Neg),
    Op::Binary(BinaryOp::Sub),
    Op::Unary(UnaryOp::Tanh),
    Op::Binary(BinaryOp::Max),
    Op::Binary(BinaryOp::Min),
];

/// One function `@chain(%0: f32[8]) -> f32[8]` whose body is a straight-line chain of `n`
/// elementwise instructions, each using the previous one's result (and `%0` for binary ops):
/// `add, mul, neg, neg, sub, tanh, max, min`, repeated. Built directly, without shape
/// inference, so that a million instructions take well under a second.
///
/// ```
/// let p = ptir_ir::generate::generate_chain(10);
/// assert_eq!(p.num_insts(), 10);
/// assert!(ptir_ir::verify(&p).is_ok());
/// ```
pub fn generate_chain(n: usize) -> Program {
    let ty: Type = TensorType::new(DType::F32, vec![8]).into();
    let x = ValueId(0);
    let insts = (0..n)
        .map(|i| {
            let op = CHAIN_OPS[i % CHAIN_OPS.len()].clone();
            let prev = ValueId(i as u32);
            let operands = match op {
                Op::Binary(_) => vec![prev, x],
                _ => vec![prev],
            };
            Instruction {
                result: ValueId(i as u32 + 1),
                ty: ty.clone(),
                op,
                operands,
            }
        })
        .collect();
    let body = Region {
        params: vec![Param {
            id: x,
            ty: ty.clone(),
        }],
        insts,
        results: vec![ValueId(n as u32)],
    };
    Program {
        externs: vec![],
        functions: vec![Function {
            name: "chain".to_string(),
            result_types: vec![ty],
            body,
        }],
    }
}
