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
use smallvec::SmallVec;

/// The structure of a value, with its operands' structures interned (borrowing the op and
/// type: a million-instruction function is not copied to be keyed).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key<'a> {
    Param(usize, &'a Type),
    Inst(&'a Op, SmallVec<[u32; 3]>, &'a Type),
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
    /// The keys of the top-level values of `f`, in definition order (parameters first),
    /// interning each.
    fn intern_keys(&mut self, f: &'a Function) -> Vec<(ValueId, u32)> {
        let mut out = Vec::with_capacity(f.body.params.len() + f.body.insts.len());
        self.walk(f, |ids, key| {
            let n = ids.len() as u32;
            let k = *ids.entry(key).or_insert(n);
            out.push(k);
            Some(k)
        });
        let values = f.body.params.iter().map(|p| p.id);
        let values = values.chain(f.body.insts.iter().map(|i| i.result));
        values.zip(out).collect()
    }

    /// The values of `f` whose key is interned already, with it, in definition order.
    /// Nothing is interned: a value whose structure no interned value has cannot be the
    /// operand of one that has, so its users are skipped without being hashed.
    fn known_keys(&mut self, f: &'a Function) -> Vec<(ValueId, u32)> {
        let mut out = Vec::new();
        let values = f.body.params.iter().map(|p| p.id);
        let mut values = values.chain(f.body.insts.iter().map(|i| i.result));
        self.walk(f, |ids, key| {
            let v = values.next();
            let k = ids.get(&key).copied();
            if let (Some(v), Some(k)) = (v, k) {
                out.push((v, k));
            }
            k
        });
        out
    }

    /// Calls `key_of` with the key of each top-level value of `f` in definition order;
    /// `key_of` returns the key's number, or `None` when it has none (then neither has a
    /// value that uses it).
    fn walk(
        &mut self,
        f: &'a Function,
        mut key_of: impl FnMut(&mut HashMap<Key<'a>, u32>, Key<'a>) -> Option<u32>,
    ) {
        let mut of: HashMap<ValueId, u32> = HashMap::default();
        of.reserve(f.body.params.len() + f.body.insts.len());
        for (i, p) in f.body.params.iter().enumerate() {
            if let Some(k) = key_of(&mut self.ids, Key::Param(i, &p.ty)) {
                of.insert(p.id, k);
            }
        }
        for inst in &f.body.insts {
            let operands: Option<SmallVec<[u32; 3]>> =
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
            if let Some(k) = key_of(&mut self.ids, key) {
                of.insert(inst.result, k);
            }
        }
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
    // The output's structures are interned, then looked up for the input's values: the
    // input (often much larger) adds nothing to the table.
    let (old_keys, new_keys, n_keys) = {
        let mut interner = Interner::default();
        let new = interner.intern_keys(after);
        let old = interner.known_keys(before);
        (old, new, interner.ids.len())
    };
    // The input values of each key, in definition order: a linked list through `next_same`
    // from `first[key]` (one allocation for all keys, not a queue per key).
    const NONE: u32 = u32::MAX;
    let mut first = vec![NONE; n_keys];
    let mut next_same = vec![NONE; old_keys.len()];
    for (pos, &(_, k)) in old_keys.iter().enumerate().rev() {
        next_same[pos] = first[k as usize];
        first[k as usize] = pos as u32;
    }
    let mut next = max_id(&before.body).map_or(0, |m| m + 1);
    let mut map: HashMap<ValueId, ValueId> = HashMap::default();
    map.reserve(new_keys.len());
    for (v, k) in new_keys {
        let pos = first[k as usize];
        if pos != NONE {
            first[k as usize] = next_same[pos as usize];
            map.insert(v, old_keys[pos as usize].0);
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

    #[test]
    fn input_values_the_output_has_no_structure_for_are_skipped_in_order() {
        // Only `exp %0` and the parameter have a structure in the output; the first of the two
        // input `exp`s takes the output's, whatever comes between them.
        let before = "func @f(%0: f32[2]) -> (f32[2], f32[2]) {\n  %4 = exp %0 : f32[2]\n  %5 = neg %4 : f32[2]\n  %6 = log %5 : f32[2]\n  %7 = exp %0 : f32[2]\n  return %6, %7\n}";
        let after = "func @f(%0: f32[2]) -> (f32[2], f32[2]) {\n  %1 = exp %0 : f32[2]\n  %2 = tanh %1 : f32[2]\n  return %2, %1\n}";
        assert_eq!(
            kept(before, after),
            "func @f(%0: f32[2]) -> (f32[2], f32[2]) {\n  %4 = exp %0 : f32[2]\n  %8 = tanh %4 : f32[2]\n  return %8, %4\n}\n"
        );
    }
}
