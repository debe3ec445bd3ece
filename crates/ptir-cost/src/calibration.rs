//! The kernels a cost table times: every distinct op signature of a program, each with its
//! work and the one-op program that computes it (`ptir-opt signatures`, which
//! `scripts/calibrate.py` reads, so that the signatures it times are the ones
//! [`super::Roofline::measured`] looks up).

use super::{op_work, OpWork};
use indexmap::IndexMap;
use ptir_ir::{op_signature, Function, Instruction, Op, Param, Program, Region, Type, ValueId};

/// One distinct kernel of a program.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// Its signature ([`ptir_ir::op_signature`]).
    pub signature: String,
    /// The op's name.
    pub op: &'static str,
    /// Its work, run on its own.
    pub work: OpWork,
    /// How many instructions of the programs have it.
    pub count: usize,
    /// `@main`, computing just this op on its parameters.
    pub program: Program,
}

/// Is `op` timed on its own? Not constants, calls, random numbers, tuples or region ops:
/// they are not kernels of their own (a region op's body is, and is listed).
fn timed(op: &Op) -> bool {
    !matches!(
        op,
        Op::Constant(_)
            | Op::Call { .. }
            | Op::Rng { .. }
            | Op::Tuple
            | Op::TupleGet { .. }
            | Op::Cond { .. }
            | Op::While { .. }
            | Op::Scan { .. }
    )
}

/// Adds the kernels of `program` (every function, region bodies and the bodies of fused
/// extern calls included) to `into`, keyed by signature, in the order first met.
///
/// ```
/// let p = ptir_ir::parse("func @f(%a: f32[4]) -> (f32[4]) {\n  %b = exp %a : f32[4]\n  %c = exp %b : f32[4]\n  return %c\n}").unwrap();
/// let mut kernels = indexmap::IndexMap::new();
/// ptir_cost::collect_kernels(&p, &mut kernels);
/// let k = &kernels["exp : f32[4] -> f32[4]"];
/// assert_eq!((k.count, k.work.flops), (2, 4.0 * 28.0)); // 4 elements, 28 FLOPs each
/// assert_eq!(ptir_ir::print(&k.program), "func @main(%0: f32[4]) -> (f32[4]) {\n  %1 = exp %0 : f32[4]\n  return %1\n}\n");
/// // An op of several results returns each of them.
/// let p = ptir_ir::parse("func @f(%a: f32[8]) -> (f32[2]) {\n  %t = top_k %a k=2 : (f32[2], i32[2])\n  %v = tuple_get %t index=0 : f32[2]\n  return %v\n}").unwrap();
/// ptir_cost::collect_kernels(&p, &mut kernels);
/// let k = &kernels["top_k k=2 : f32[8] -> (f32[2], i32[2])"];
/// assert!(ptir_ir::verify(&k.program).is_ok());
/// assert_eq!(k.program.functions[0].result_types.len(), 2);
/// ```
pub fn collect_kernels(program: &Program, into: &mut IndexMap<String, Kernel>) {
    for f in &program.functions {
        super::visit_typed(f, &mut |i, operands| {
            if operands.len() != i.operands.len() {
                return; // an operand of unknown type: no signature
            }
            // A fused extern is priced as its body (the same resolution of outlined and
            // renamed names as `Roofline`): its kernels are the body's.
            if let Op::Call { callee } = &i.op {
                let args: Vec<Type> = operands.iter().map(|t| (*t).clone()).collect();
                let body = ptir_rules::externs::reference_of(callee)
                    .and_then(|name| ptir_rules::externs::idiom_program(name, &args));
                if let Some(Ok(body)) = body {
                    collect_kernels(&body, into);
                }
            }
            if !timed(&i.op) {
                return;
            }
            let signature = op_signature(&i.op, operands, &i.ty);
            if let Some(k) = into.get_mut(&signature) {
                k.count += 1;
                return;
            }
            let kernel = Kernel {
                op: i.op.name(),
                work: op_work(&i.op, operands, &i.ty),
                count: 1,
                program: one_op_program(i, operands),
                signature: signature.clone(),
            };
            into.insert(signature, kernel);
        });
    }
}

/// `@main(operands) -> result`, computing `inst`'s op on its parameters; an op of several
/// results (a tuple) returns each (StableHLO functions return tensors).
fn one_op_program(inst: &Instruction, operands: &[&Type]) -> Program {
    let params: Vec<Param> = operands
        .iter()
        .zip(0u32..)
        .map(|(t, id)| Param {
            id: ValueId(id),
            ty: (*t).clone(),
        })
        .collect();
    let result = ValueId(params.len() as u32);
    let mut insts = vec![Instruction {
        result,
        ty: inst.ty.clone(),
        op: inst.op.clone(),
        operands: params.iter().map(|p| p.id).collect(),
    }];
    let (mut results, mut result_types) = (vec![result], vec![inst.ty.clone()]);
    if let Type::Tuple(parts) = &inst.ty {
        (results, result_types) = (Vec::new(), Vec::new());
        for (index, ty) in parts.iter().enumerate() {
            let part = ValueId(result.0 + 1 + index as u32);
            insts.push(Instruction {
                result: part,
                ty: ty.clone(),
                op: Op::TupleGet { index },
                operands: vec![result],
            });
            results.push(part);
            result_types.push(ty.clone());
        }
    }
    Program {
        externs: Vec::new(),
        functions: vec![Function {
            name: "main".to_string(),
            result_types,
            body: Region {
                insts,
                params,
                results,
            },
        }],
    }
}
