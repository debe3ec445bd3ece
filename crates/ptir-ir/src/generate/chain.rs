//! Long straight-line programs for scaling benches.

use crate::builder::{BuildError, ProgramBuilder};
use crate::ops::{BinaryOp, Op, UnaryOp};
use crate::program::{Function, Instruction, Param, Program, Region, ValueId};
use crate::types::{DType, TensorType, Type};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

/// A chain of `n` i32 matrix products (at least one matrix) with dimensions drawn in 2..64
/// (ChaCha8 seeded with `seed`), multiplied left to right (`((A B) C) ...`), and the
/// dimensions: matrix `i` is `dims[i] x dims[i + 1]`. The workload of the matrix-chain
/// benchmarks and tests, whose best order a dynamic program knows.
///
/// ```
/// let (p, dims) = ptir_ir::generate::matrix_chain(5, 1).unwrap();
/// assert_eq!((p.num_insts(), dims.len()), (4, 6));
/// ```
pub fn matrix_chain(n: usize, seed: u64) -> Result<(Program, Vec<u64>), BuildError> {
    let n = n.max(1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dims: Vec<u64> = (0..=n).map(|_| rng.gen_range(2..64)).collect();
    let params: Vec<Type> = dims
        .windows(2)
        .map(|d| TensorType::new(DType::I32, vec![d[0] as usize, d[1] as usize]).into())
        .collect();
    let mut pb = ProgramBuilder::new();
    let mut f = pb.function("chain", &params)?;
    let ms = f.params();
    let mut prev = ms[0];
    for &m in &ms[1..] {
        prev = f.matmul(prev, m)?;
    }
    f.ret(&[prev])?;
    Ok((pb.finish()?, dims))
}
