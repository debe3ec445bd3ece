//! Property and scaling tests: dominance against a naive scope walk on random programs with
//! nested regions, and every analysis on a generated 100k-instruction program.

use super::*;
use crate::ops::{BinaryOp, CmpOp, Op, UnaryOp};
use crate::program::{Function, InstId, Instruction, Param, Program, Region, ValueId};
use crate::types::{DType, TensorType, Type};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashSet;

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

/// Dominance by brute force: walk the function keeping the list of visible values, and
/// record every (visible value, point) pair. Blocks are numbered in pre-order, as
/// [`FunctionFacts`] documents.
#[derive(Default)]
struct Naive {
    dominates: FxHashSet<(ValueId, InstId)>,
    at_entry: FxHashSet<(ValueId, BlockId)>,
    at_results: FxHashSet<(ValueId, BlockId)>,
    blocks: u32,
}

impl Naive {
    fn of(f: &Function) -> Naive {
        let mut n = Naive::default();
        n.visit(&f.body, &mut Vec::new());
        n
    }

    fn visit(&mut self, region: &Region, visible: &mut Vec<ValueId>) {
        let b = BlockId(self.blocks);
        self.blocks += 1;
        let mark = visible.len();
        visible.extend(region.params.iter().map(|p| p.id));
        self.at_entry.extend(visible.iter().map(|&v| (v, b)));
        for inst in &region.insts {
            self.dominates
                .extend(visible.iter().map(|&v| (v, inst.id())));
            for r in inst.op.regions() {
                self.visit(r, visible);
            }
            visible.push(inst.result);
        }
        self.at_results.extend(visible.iter().map(|&v| (v, b)));
        visible.truncate(mark);
    }
}

/// Checks every (value, instruction) and (value, block) pair of `p`'s function against
/// [`Naive`], through the plain-Rust queries and through [`DominanceProgram`].
fn check_dominance(p: &Program) -> Result<(), TestCaseError> {
    let f = &p.functions[0];
    let facts = FunctionFacts::of(f);
    let naive = Naive::of(f);
    let values: Vec<ValueId> = facts.values().map(|(v, _)| v).collect();
    let blocks: Vec<BlockId> = (0..naive.blocks).map(BlockId).collect();
    prop_assert_eq!(facts.blocks().len(), blocks.len());
    let mut queries = Vec::new();
    for &v in &values {
        for i in facts.insts() {
            let expected = naive.dominates.contains(&(v, i.id));
            prop_assert_eq!(
                facts.dominates(v, i.id),
                expected,
                "{} dominates {}",
                v,
                i.id
            );
            queries.push((v, i.id));
        }
        for &b in &blocks {
            let entry = naive.at_entry.contains(&(v, b));
            prop_assert_eq!(facts.available_at(v, b), entry, "{} available at {}", v, b);
            let results = naive.at_results.contains(&(v, b));
            prop_assert_eq!(
                facts.available_at_results(v, b),
                results,
                "{} at results of {}",
                v,
                b
            );
        }
    }
    let mut dl = DominanceProgram::from_facts(&facts);
    dl.dominance_query = queries;
    dl.availability_query = values
        .iter()
        .flat_map(|&v| blocks.iter().map(move |&b| (v, b)))
        .collect();
    dl.run();
    let dominates: FxHashSet<(ValueId, InstId)> = dl.dominates.into_iter().collect();
    prop_assert_eq!(dominates, naive.dominates);
    let available: FxHashSet<(ValueId, BlockId)> = dl.available.into_iter().collect();
    prop_assert_eq!(available, naive.at_entry);
    Ok(())
}

/// Every operand and result slot is counted once.
fn check_use_counts(p: &Program) -> Result<(), TestCaseError> {
    let f = &p.functions[0];
    let a = Analysis::of(p);
    let fa = a.function(&f.name).unwrap();
    let mut slots = f.body.results.len();
    f.body.walk(&mut |inst, _| {
        slots += inst.operands.len();
        slots += inst
            .op
            .regions()
            .iter()
            .map(|r| r.results.len())
            .sum::<usize>();
    });
    let counted: usize = fa.facts().values().map(|(v, _)| fa.use_count(v)).sum();
    prop_assert_eq!(counted, slots);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn dominance_matches_a_naive_scope_walk(seed in any::<u64>(), budget in 1usize..60) {
        let p = Gen::program(seed, budget);
        prop_assert!(crate::verify(&p).is_ok(), "{}", crate::print(&p));
        check_dominance(&p)?;
        check_use_counts(&p)?;
    }

    #[test]
    fn hoisting_loop_invariants_keeps_programs_valid_and_their_results(
        seed in any::<u64>(),
        budget in 1usize..60,
    ) {
        let p = Gen::program(seed, budget);
        let mut hoisted = p.clone();
        crate::hoist_loop_invariants(&mut hoisted);
        prop_assert!(crate::verify(&hoisted).is_ok(), "{}", crate::print(&hoisted));
        let inputs = crate::inputs::try_random_inputs(&p.functions[0], seed)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Generated `while`s may never stop: a small fuel keeps each run short.
        let run = |q: &Program| {
            let r = crate::Interpreter::new(q).with_while_fuel(1_000).run("r", &inputs);
            format!("{r:?}")
        };
        prop_assert_eq!(run(&p), run(&hoisted), "{}", crate::print(&hoisted));
    }

    #[test]
    fn analyses_do_not_panic_on_broken_programs(seed in any::<u64>(), junk in any::<u32>()) {
        let mut p = Gen::program(seed, 30);
        let body = &mut p.functions[0].body;
        if let Some(inst) = body.insts.last_mut() {
            inst.operands.push(ValueId(junk));
        }
        body.results.push(ValueId(junk));
        let a = Analysis::of(&p);
        prop_assert_eq!(a.functions().len(), 1);
    }
}

/// A function of about `n` instructions: a chain of `n / 2` at the top, then a `while` whose
/// body holds an invariant chain of `n / 4` (from the outer parameter `%1`) followed by a
/// variant chain of `n / 4` (from the loop parameter).
fn big_program(n: u32) -> Program {
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

#[test]
fn hoisting_scales_to_100k_instructions() {
    let mut p = big_program(100_000);
    crate::hoist_loop_invariants(&mut p);
    assert!(crate::verify(&p).is_ok());
}

#[test]
fn all_analyses_scale_to_100k_instructions() {
    let n = 100_000;
    let p = big_program(n);
    assert!(crate::verify(&p).is_ok());
    let start = std::time::Instant::now();
    let a = Analysis::of(&p);
    let elapsed = start.elapsed();
    eprintln!("analysed {} instructions in {elapsed:?}", p.num_insts());
    let f = a.function("big").unwrap();
    assert_eq!(p.num_insts(), n as usize - 3);
    assert!(a.is_pure_function("big"));
    assert_eq!(f.dead(), Vec::<InstId>::new());
    let invariant = f.loop_invariant();
    assert_eq!(invariant.len(), n as usize / 4);
    assert_eq!(invariant.first(), Some(&InstId(n / 2 + 3)));
    assert_eq!(invariant.last(), Some(&InstId(n / 2 + 3 + n / 4 - 1)));
    assert_eq!(f.use_count(ValueId(1)), 3);
    assert_eq!(f.use_count(ValueId(n - 1)), 1);
    assert!(f.dominates(ValueId(0), InstId(n - 1)));
    assert!(f.dominates(ValueId(2), InstId(n / 2 - 1)));
    assert!(!f.dominates(ValueId(n / 2 - 1), InstId(2)));
    assert!(!f.dominates(ValueId(n - 1), InstId(n)));
    assert!(!f.dominates(ValueId(n / 2 + 3), InstId(n / 2 + 2)));
}
