//! Trip counts of `while` loops known at compile time: the loop's control (the carried
//! values whose initial value is a constant and whose next value the body computes from such
//! values and constants only, found as a fixed point, and a condition computed from them
//! alone) run with the interpreter's own kernels ([`crate::eval_op`]) until the condition is
//! false. Anything else (a bound that is an argument, a condition that reads data, an op that
//! fails to evaluate) has no static trip count. Read by unrolling (`ptir_pass::transform`)
//! and by the cost models (a loop body priced once per iteration).

use crate::interp::eval_op;
use crate::ops::Op;
use crate::program::{Instruction, Region, ValueId};
use crate::tensor::Value;
use rustc_hash::{FxHashMap, FxHashSet};

/// The most elements a control value may have: counters are scalars; a loop whose control
/// carries more is not worth running at compile time.
const CONTROL_ELEMENT_LIMIT: usize = 1024;

/// The trip count of every `while` of `f` (in any block) whose control is known at compile
/// time, by the loop's result, `max_trips` for one still running after that many (a lower
/// bound): what a cost model multiplies a loop body by.
pub fn static_trip_counts(f: &crate::Function, max_trips: usize) -> FxHashMap<ValueId, usize> {
    let mut out = FxHashMap::default();
    let mut constants = None;
    f.body.walk(&mut |inst, _| {
        if let Op::While { .. } = inst.op {
            let constants = constants.get_or_insert_with(|| constants_of(&f.body));
            if let Some(t) = simulate(inst, constants, max_trips) {
                out.insert(inst.result, t.unwrap_or(max_trips));
            }
        }
    });
    out
}

/// The value of every small constant of `region` and its nested regions, by id.
pub fn constants_of(region: &Region) -> FxHashMap<ValueId, Value> {
    let mut out = FxHashMap::default();
    region.walk(&mut |inst, _| {
        let small = inst
            .ty
            .as_tensor()
            .is_some_and(|t| t.num_elements() <= CONTROL_ELEMENT_LIMIT);
        if let (Op::Constant(_), true) = (&inst.op, small) {
            if let Ok(v) = eval_op(&inst.op, &[], &inst.ty) {
                out.insert(inst.result, v);
            }
        }
    });
    out
}

/// May the control of a loop evaluate `inst` at compile time: an op pure by its kind (which
/// leaves out calls, effects and region ops) but no barrier, with a small result?
pub fn evaluable(inst: &Instruction) -> bool {
    inst.op.key().is_pure_kind()
        && !matches!(inst.op, Op::OptimizationBarrier)
        && inst
            .ty
            .as_tensor()
            .is_some_and(|t| t.num_elements() <= CONTROL_ELEMENT_LIMIT)
}

/// The trip count of the `while` instruction `w` (its operands, condition and body), if its
/// control is known at compile time and it stops within `max_trips` iterations (see the module
/// docs). `constants`: the values of the constants its blocks and the enclosing ones define.
pub fn trip_count(
    w: &Instruction,
    constants: &FxHashMap<ValueId, Value>,
    max_trips: usize,
) -> Option<usize> {
    simulate(w, constants, max_trips)?.ok()
}

/// Runs the control of loop `w` for at most `max_trips` iterations: `None` if its control is
/// not known at compile time, `Some(Ok(n))` if it stops after `n`, `Some(Err(()))` if it is
/// still running after `max_trips`.
fn simulate(
    w: &Instruction,
    constants: &FxHashMap<ValueId, Value>,
    max_trips: usize,
) -> Option<Result<usize, ()>> {
    let Op::While { cond, body } = &w.op else {
        return None;
    };
    let n = w.operands.len();
    if cond.params.len() != n || body.params.len() != n || body.results.len() != n {
        return None;
    }
    // The control slots: a constant start, and a next value computed from control slots.
    let mut control: Vec<bool> = (w.operands.iter())
        .map(|v| constants.contains_key(v))
        .collect();
    loop {
        let known = computable(body, &control, constants);
        let next: Vec<bool> = (0..n)
            .map(|j| control[j] && known.contains(&body.results[j]))
            .collect();
        if next == control {
            break;
        }
        control = next;
    }
    let test = *cond.results.first()?;
    if cond.results.len() != 1 || !computable(cond, &control, constants).contains(&test) {
        return None;
    }
    let mut state: Vec<Option<Value>> = (w.operands.iter().zip(&control))
        .map(|(v, &c)| if c { constants.get(v).cloned() } else { None })
        .collect();
    for trips in 0..=max_trips {
        let go = evaluate(cond, &state, constants)?;
        match go
            .get(&test)
            .or_else(|| constants.get(&test))?
            .as_tensor()?
            .data
            .iter()
            .next()?
        {
            crate::Scalar::Bool(false) => return Some(Ok(trips)),
            crate::Scalar::Bool(true) => {}
            _ => return None,
        }
        if trips == max_trips {
            break;
        }
        let env = evaluate(body, &state, constants)?;
        state = (body.results.iter().zip(&control))
            .map(|(r, &c)| {
                c.then(|| env.get(r).or_else(|| constants.get(r)).cloned())
                    .flatten()
            })
            .collect();
    }
    Some(Err(()))
}

/// The values of `region` computable from its control parameters and constants.
fn computable(
    region: &Region,
    control: &[bool],
    constants: &FxHashMap<ValueId, Value>,
) -> FxHashSet<ValueId> {
    let mut known: FxHashSet<ValueId> = (region.params.iter().zip(control))
        .filter(|(_, &c)| c)
        .map(|(p, _)| p.id)
        .collect();
    for inst in &region.insts {
        let ready = (inst.operands.iter()).all(|v| known.contains(v) || constants.contains_key(v));
        if evaluable(inst) && ready {
            known.insert(inst.result);
        }
    }
    known.extend(region.results.iter().filter(|r| constants.contains_key(r)));
    known
}

/// Runs the evaluable instructions of `region` whose operands are known, its parameters bound
/// to `state` where it has a value; `None` if one fails (a division by zero).
fn evaluate(
    region: &Region,
    state: &[Option<Value>],
    constants: &FxHashMap<ValueId, Value>,
) -> Option<FxHashMap<ValueId, Value>> {
    let mut env: FxHashMap<ValueId, Value> = FxHashMap::default();
    for (p, v) in region.params.iter().zip(state) {
        if let Some(v) = v {
            env.insert(p.id, v.clone());
        }
    }
    for inst in &region.insts {
        if !evaluable(inst) {
            continue;
        }
        let operands: Option<Vec<&Value>> = (inst.operands.iter())
            .map(|v| env.get(v).or_else(|| constants.get(v)))
            .collect();
        let Some(operands) = operands else { continue };
        let value = eval_op(&inst.op, &operands, &inst.ty).ok()?;
        env.insert(inst.result, value);
    }
    Some(env)
}
