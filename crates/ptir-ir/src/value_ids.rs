//! Value numbers that survive a rewrite: [`keep_value_ids`] gives each value of a rewritten
//! function the number of the input value it stands for where the program did not change
//! there, so that printed names (`%7`; the MLIR names an import recorded by number) survive
//! an optimization, and gives every new value a number no input value has.
//!
//! "Did not change" is by structure: a top-level value corresponds to an input value with the
//! same op, attributes, type and corresponding operands (operands of commutative ops in any
//! order; the `n`-th such value to the `n`-th), parameters by position. Values of ops with
//! regions, and values inside regions, get new numbers.

use crate::{Function, Op, Program, Region, Type, ValueId};
use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;

/// The structure of a value, with its operands' structures interned (borrowing the op and
/// type: a million-instruction function is not copied to be keyed).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key<'a> {
    Param(usize, &'a Type),
    Inst(&'a Op, Vec<u32>, &'a Type),
    /// Matches nothing (ops with regions).
    Unique(u32),
}

/// Interns value structures.
#[derive(Default)]
struct Interner<'a> {
    ids: HashMap<Key<'a>, u32>,
    uniques: u32,
}

impl<'a> Interner<'a> {
    fn intern(&mut self, key: Key<'a>) -> u32 {
        let n = self.ids.len() as u32;
        *self.ids.entry(key).or_insert(n)
    }

    /// The keys of the top-level values of `f`, in definition order (parameters first).
    fn keys(&mut self, f: &'a Function) -> Vec<(ValueId, u32)> {
        let values = f.body.params.len() + f.body.insts.len();
        let mut of: HashMap<ValueId, u32> = HashMap::default();
        of.reserve(values);
        self.ids.reserve(values);
        let mut out = Vec::with_capacity(values);
        for (i, p) in f.body.params.iter().enumerate() {
            let k = self.intern(Key::Param(i, &p.ty));
            of.insert(p.id, k);
            out.push((p.id, k));
        }
        for inst in &f.body.insts {
            let operands: Option<Vec<u32>> =
                inst.operands.iter().map(|o| of.get(o).copied()).collect();
            let key = match operands {
                Some(mut ops) if inst.op.regions().is_empty() => {
                    if matches!(&inst.op, Op::Binary(b) if b.is_commutative()) {
                        ops.sort_unstable();
                    }
                    Key::Inst(&inst.op, ops, &inst.ty)
                }
                _ => {
                    self.uniques += 1;
                    Key::Unique(self.uniques)
                }
            };
            let k = self.intern(key);
            of.insert(inst.result, k);
            out.push((inst.result, k));
        }
        out
    }
}

/// Renumbers the values of every function of `after` that `before` has too (by name): a
/// value that corresponds to an input value (see the module docs) takes its number, every
/// other value a number above all of the input function's.
pub fn keep_value_ids(before: &Program, after: &mut Program) {
    for f in &mut after.functions {
        if let Some(input) = before.function(&f.name) {
            keep_function_ids(input, f);
        }
    }
}

fn keep_function_ids(before: &Function, after: &mut Function) {
    let (old_keys, new_keys) = {
        let mut interner = Interner::default();
        (interner.keys(before), interner.keys(after))
    };
    let mut available: HashMap<u32, VecDeque<ValueId>> = HashMap::default();
    for (v, k) in old_keys {
        available.entry(k).or_default().push_back(v);
    }
    let mut next = max_id(&before.body).map_or(0, |m| m + 1);
    let mut map: HashMap<ValueId, ValueId> = HashMap::default();
    for (v, k) in new_keys {
        if let Some(old) = available.get_mut(&k).and_then(VecDeque::pop_front) {
            map.insert(v, old);
        }
    }
    let mut fresh = |v: &mut ValueId| {
        let new = *map.entry(*v).or_insert_with(|| {
            let id = ValueId(next);
            next += 1;
            id
        });
        *v = new;
    };
    // Definitions in order, so that new numbers grow down the function.
    let mut stack: Vec<&mut Region> = vec![&mut after.body];
    while let Some(Region {
        params,
        insts,
        results,
    }) = stack.pop()
    {
        params.iter_mut().for_each(|p| fresh(&mut p.id));
        insts.iter_mut().for_each(|inst| fresh(&mut inst.result));
        for inst in insts {
            inst.operands.iter_mut().for_each(&mut fresh);
            stack.extend(inst.op.regions_mut());
        }
        results.iter_mut().for_each(&mut fresh);
    }
}

/// The largest value number in `region`, nested regions included.
fn max_id(region: &Region) -> Option<u32> {
    let params = region.params.iter().map(|p| p.id.0);
    let mut max = params.max();
    region.walk(&mut |inst, _| {
        max = max.max(Some(inst.result.0));
        for r in inst.op.regions() {
            max = max.max(r.params.iter().map(|p| p.id.0).max());
        }
    });
    max
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse, print};

    fn kept(before: &str, after: &str) -> String {
        let before = parse(before).unwrap();
        let mut after = parse(after).unwrap();
        keep_value_ids(&before, &mut after);
        crate::verify(&after).unwrap();
        print(&after)
    }

    #[test]
    fn unchanged_values_keep_their_numbers_and_new_ones_get_unused_numbers() {
        let before = "func @f(%0: f32[2], %1: f32[2]) -> (f32[2], f32[2]) {\n  %5 = exp %0 : f32[2]\n  %7 = add %5, %1 : f32[2]\n  %8 = neg %7 : f32[2]\n  %9 = neg %8 : f32[2]\n  %10 = mul %9, %5 : f32[2]\n  return %10, %7\n}";
        // An e-graph-style renumbering, commuted operands, and a new `mul`.
        let after = "func @f(%0: f32[2], %1: f32[2]) -> (f32[2], f32[2]) {\n  %2 = exp %0 : f32[2]\n  %3 = add %1, %2 : f32[2]\n  %4 = mul %2, %3 : f32[2]\n  return %4, %3\n}";
        assert_eq!(
            kept(before, after),
            "func @f(%0: f32[2], %1: f32[2]) -> (f32[2], f32[2]) {\n  %5 = exp %0 : f32[2]\n  %7 = add %1, %5 : f32[2]\n  %11 = mul %5, %7 : f32[2]\n  return %11, %7\n}\n"
        );
    }

    #[test]
    fn a_duplicated_value_keeps_its_number_once() {
        let before =
            "func @f(%0: f32[2]) -> (f32[2], f32[2]) {\n  %3 = exp %0 : f32[2]\n  return %3, %3\n}";
        let after = "func @f(%0: f32[2]) -> (f32[2], f32[2]) {\n  %1 = exp %0 : f32[2]\n  %2 = exp %0 : f32[2]\n  return %1, %2\n}";
        assert_eq!(
            kept(before, after),
            "func @f(%0: f32[2]) -> (f32[2], f32[2]) {\n  %3 = exp %0 : f32[2]\n  %4 = exp %0 : f32[2]\n  return %3, %4\n}\n"
        );
    }
}
