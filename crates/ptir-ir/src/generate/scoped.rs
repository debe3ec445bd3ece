//! Programs of scalars with regions nested in every way (`cond`, `while`, `scan` up to depth
//! 3, outer values captured, value ids out of pre-order): the inputs of the analyses'
//! property tests (dominance against a naive scope walk) and of the loop transformations'
//! (hoisting keeps results), and a 100k-instruction loop for their scaling tests.

use crate::ops::{BinaryOp, CmpOp, Op, UnaryOp};
use crate::program::{Function, Instruction, Param, Program, Region, ValueId};
use crate::types::{DType, TensorType, Type};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A verifiable program of one function `@r` over `f32[]` scalars with nested regions, from
/// `seed`, of about `budget` instructions.
pub fn scoped_program(seed: u64, budget: usize) -> Program {
    Gen::program(seed, budget)
}

fn f32_scalar() -> Type {
    TensorType::scalar(DType::F32).into()
}

fn bool_scalar() -> Type {
    TensorType::scalar(DType::Bool).into()
}

/// A seeded generator of verifiable programs over `f32[]` scalars, with `cond`, `while` and
/// `scan` nested up to depth 3, captured outer values, and value ids that are not in
/// pre-order (a region op's result is numbered after its regions).
struct Gen {
    rng: ChaCha8Rng,
    next: u32,
    budget: usize,
}

impl Gen {
    fn fresh(&mut self) -> ValueId {
        self.next += 1;
        ValueId(self.next - 1)
    }

    fn pick(&mut self, visible: &[ValueId]) -> ValueId {
        visible[self.rng.gen_range(0..visible.len())]
    }

    fn program(seed: u64, budget: usize) -> Program {
        let mut g = Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
            next: 0,
            budget,
        };
        let num_params = g.rng.gen_range(1..=2);
        let body = g.block(num_params, &mut Vec::new(), 0, false);
        let function = Function {
            name: "r".into(),
            result_types: vec![f32_scalar()],
            body,
        };
        Program {
            externs: Vec::new(),
            functions: vec![function],
        }
    }

    /// A block with `num_params` parameters that yields one `f32[]` (or, if `test`, a
    /// `bool[]` comparison, as a `while` test does).
    fn block(
        &mut self,
        num_params: usize,
        visible: &mut Vec<ValueId>,
        depth: usize,
        test: bool,
    ) -> Region {
        let mark = visible.len();
        let mut region = Region::default();
        for _ in 0..num_params {
            let id = self.fresh();
            visible.push(id);
            region.params.push(Param {
                id,
                ty: f32_scalar(),
            });
        }
        for _ in 0..self.rng.gen_range(0..=4) {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            let inst = self.inst(visible, depth, &mut region.insts);
            visible.push(inst.result);
            region.insts.push(inst);
        }
        let result = if test {
            self.compare(visible, &mut region.insts)
        } else {
            self.pick(visible)
        };
        region.results.push(result);
        visible.truncate(mark);
        region
    }

    /// `lt a, b` on two visible values, appended to `insts`; returns its result.
    fn compare(&mut self, visible: &[ValueId], insts: &mut Vec<Instruction>) -> ValueId {
        let operands = vec![self.pick(visible), self.pick(visible)];
        let result = self.fresh();
        insts.push(Instruction {
            result,
            ty: bool_scalar(),
            op: Op::Compare(CmpOp::Lt),
            operands,
        });
        result
    }

    /// One `f32[]` instruction (a region op may first append the `bool[]` test it needs).
    fn inst(
        &mut self,
        visible: &mut Vec<ValueId>,
        depth: usize,
        insts: &mut Vec<Instruction>,
    ) -> Instruction {
        let kinds = if depth < 3 { 5 } else { 2 };
        let (op, operands) = match self.rng.gen_range(0..kinds) {
            0 => (Op::Unary(UnaryOp::Exp), vec![self.pick(visible)]),
            1 => (
                Op::Binary(BinaryOp::Add),
                vec![self.pick(visible), self.pick(visible)],
            ),
            2 => {
                let pred = self.compare(visible, insts);
                let then_region = self.block(0, visible, depth + 1, false);
                let else_region = self.block(0, visible, depth + 1, false);
                (
                    Op::Cond {
                        then_region: Box::new(then_region),
                        else_region: Box::new(else_region),
                    },
                    vec![pred],
                )
            }
            3 => {
                let init = self.pick(visible);
                let cond = self.block(1, visible, depth + 1, true);
                let body = self.block(1, visible, depth + 1, false);
                (
                    Op::While {
                        cond: Box::new(cond),
                        body: Box::new(body),
                    },
                    vec![init],
                )
            }
            _ => {
                let init = self.pick(visible);
                let body = self.block(1, visible, depth + 1, false);
                let op = Op::Scan {
                    num_carry: 1,
                    length: 2,
                    body: Box::new(body),
                };
                (op, vec![init])
            }
        };
        Instruction {
            result: self.fresh(),
            ty: f32_scalar(),
            op,
            operands,
        }
    }
}

/// A function of about `n` instructions: a chain of `n / 2` at the top, then a `while` whose
/// body holds an invariant chain of `n / 4` (from the outer parameter `%1`) followed by a
/// variant chain of `n / 4` (from the loop parameter).
pub fn loop_program(n: u32) -> Program {
    let scalar = f32_scalar;
    let unary = |result: u32, operand: u32| Instruction {
        result: ValueId(result),
        ty: scalar(),
        op: Op::Unary(UnaryOp::Neg),
        operands: vec![ValueId(operand)],
    };
    let params = |ids: &[u32]| {
        ids.iter()
            .map(|&i| Param {
                id: ValueId(i),
                ty: scalar(),
            })
            .collect()
    };
    let top: Vec<Instruction> = (2..n / 2).map(|k| unary(k, k - 1)).collect();
    let last_top = n / 2 - 1;
    let (p, q) = (n / 2, n / 2 + 1);
    let cond_test = Instruction {
        result: ValueId(n / 2 + 2),
        ty: bool_scalar(),
        op: Op::Compare(CmpOp::Lt),
        operands: vec![ValueId(p), ValueId(1)],
    };
    let inv_start = n / 2 + 3;
    let var_start = inv_start + n / 4;
    let mut body: Vec<Instruction> = (inv_start..var_start)
        .map(|k| unary(k, if k == inv_start { 1 } else { k - 1 }))
        .collect();
    body.push(Instruction {
        result: ValueId(var_start),
        ty: scalar(),
        op: Op::Binary(BinaryOp::Add),
        operands: vec![ValueId(q), ValueId(var_start - 1)],
    });
    body.extend((var_start + 1..n).map(|k| unary(k, k - 1)));
    let while_op = Instruction {
        result: ValueId(n),
        ty: scalar(),
        op: Op::While {
            cond: Box::new(Region {
                params: params(&[p]),
                insts: vec![cond_test],
                results: vec![ValueId(n / 2 + 2)],
            }),
            body: Box::new(Region {
                params: params(&[q]),
                insts: body,
                results: vec![ValueId(n - 1)],
            }),
        },
        operands: vec![ValueId(last_top)],
    };
    let mut insts = top;
    insts.push(while_op);
    let body = Region {
        params: params(&[0, 1]),
        insts,
        results: vec![ValueId(n)],
    };
    Program {
        externs: Vec::new(),
        functions: vec![Function {
            name: "big".into(),
            result_types: vec![scalar()],
            body,
        }],
    }
}
