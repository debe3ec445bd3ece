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
use indexmap::{Equivalent, IndexSet};
use rustc_hash::{FxBuildHasher, FxHashMap as HashMap};
use smallvec::SmallVec;

/// What a value is, apart from its operands: a parameter's position and type, or an
/// instruction's op (attributes included) and type. Owned, one per distinct shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Shape {
    Param(usize, Type),
    Inst(Op, Type),
}

/// A [`Shape`] borrowed from a program, to look one up without cloning it. Hashes as the
/// `Shape` it stands for (same variants in the same order, fields hashed through `&`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum ShapeRef<'a> {
    Param(usize, &'a Type),
    Inst(&'a Op, &'a Type),
}

impl Equivalent<Shape> for ShapeRef<'_> {
    fn equivalent(&self, key: &Shape) -> bool {
        match (self, key) {
            (ShapeRef::Param(i, t), Shape::Param(j, u)) => i == j && *t == u,
            (ShapeRef::Inst(o, t), Shape::Inst(p, u)) => *o == p && *t == u,
            _ => false,
        }
    }
}

impl ShapeRef<'_> {
    fn to_owned(self) -> Shape {
        match self {
            ShapeRef::Param(i, t) => Shape::Param(i, t.clone()),
            ShapeRef::Inst(o, t) => Shape::Inst(o.clone(), t.clone()),
        }
    }
}

/// The structure of a value: its shape and its operands' structures (interned numbers;
/// sorted for commutative ops).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    shape: u32,
    operands: SmallVec<[u32; 3]>,
}

/// Marks a value with no shape (an op with regions: it matches nothing).
const NONE: u32 = u32::MAX;

/// What [`keep_value_ids`] needs of one input function: its top-level values in definition
/// order with their shapes and operands, compact (a few bytes per value, the shapes once).
#[derive(Clone, Debug)]
struct FunctionShapes {
    name: String,
    shapes: IndexSet<Shape, FxBuildHasher>,
    /// `(value, shape or NONE, end of its operands in operands)`.
    values: Vec<(ValueId, u32, u32)>,
    operands: Vec<ValueId>,
    /// One above the largest value number, nested regions included.
    next: u32,
}

impl FunctionShapes {
    fn of(f: &Function) -> Self {
        let mut shapes: IndexSet<Shape, FxBuildHasher> = IndexSet::default();
        let mut shape_of = |r: ShapeRef<'_>| match shapes.get_index_of(&r) {
            Some(i) => i as u32,
            None => shapes.insert_full(r.to_owned()).0 as u32,
        };
        let mut values = Vec::with_capacity(f.body.params.len() + f.body.insts.len());
        let mut operands = Vec::with_capacity(f.body.insts.len() * 2);
        for (i, p) in f.body.params.iter().enumerate() {
            values.push((p.id, shape_of(ShapeRef::Param(i, &p.ty)), 0));
        }
        for inst in &f.body.insts {
            let shape = if inst.op.regions().is_empty() {
                shape_of(ShapeRef::Inst(&inst.op, &inst.ty))
            } else {
                NONE
            };
            operands.extend_from_slice(&inst.operands);
            values.push((inst.result, shape, operands.len() as u32));
        }
        FunctionShapes {
            name: f.name.clone(),
            shapes,
            values,
            operands,
            next: max_id(&f.body).map_or(0, |m| m + 1),
        }
    }

    /// The key of a value of shape `shape` (`NONE`: none) whose operands have the keys
    /// `operands` gives (`None`: one has none), if it has one.
    fn key(&self, shape: u32, operands: impl Iterator<Item = Option<u32>>) -> Option<Key> {
        if shape == NONE {
            return None;
        }
        let mut operands: SmallVec<[u32; 3]> = operands.collect::<Option<_>>()?;
        if matches!(self.shapes.get_index(shape as usize), Some(Shape::Inst(Op::Binary(b), _)) if b.is_commutative())
        {
            operands.sort_unstable();
        }
        Some(Key { shape, operands })
    }

    /// The number each value of `after` (this function, rewritten) takes: see
    /// [`keep_value_ids`].
    fn renumber(&self, after: &mut Function) {
        // The output's structures are interned, then looked up for the input's values: the
        // input (often much larger) adds nothing to the table, and a value whose structure
        // the output lacks makes its users skip hashing.
        let mut ids: HashMap<Key, u32> = HashMap::default();
        let mut new_keys = Vec::with_capacity(after.body.params.len() + after.body.insts.len());
        {
            let mut of: HashMap<ValueId, u32> = HashMap::default();
            of.reserve(new_keys.capacity());
            let mut intern = |v: ValueId, key: Option<Key>, of: &mut HashMap<ValueId, u32>| {
                if let Some(key) = key {
                    let n = ids.len() as u32;
                    let k = *ids.entry(key).or_insert(n);
                    of.insert(v, k);
                    new_keys.push((v, k));
                }
            };
            for (i, p) in after.body.params.iter().enumerate() {
                let shape = self.shapes.get_index_of(&ShapeRef::Param(i, &p.ty));
                let key = self.key(shape.map_or(NONE, |s| s as u32), std::iter::empty());
                intern(p.id, key, &mut of);
            }
            for inst in &after.body.insts {
                let shape = match inst.op.regions().is_empty() {
                    true => self
                        .shapes
                        .get_index_of(&ShapeRef::Inst(&inst.op, &inst.ty)),
                    false => None,
                };
                let operands = inst.operands.iter().map(|o| of.get(o).copied());
                let key = self.key(shape.map_or(NONE, |s| s as u32), operands);
                intern(inst.result, key, &mut of);
            }
        }
        let mut old_keys = Vec::new();
        {
            let mut of: HashMap<ValueId, u32> = HashMap::default();
            let mut start = 0;
            for &(v, shape, end) in &self.values {
                let operands = &self.operands[start as usize..end as usize];
                start = end;
                let key = self.key(shape, operands.iter().map(|o| of.get(o).copied()));
                if let Some(&k) = key.as_ref().and_then(|key| ids.get(key)) {
                    of.insert(v, k);
                    old_keys.push((v, k));
                }
            }
        }
        // The input values of each key, in definition order: a linked list through
        // `next_same` from `first[key]` (one allocation for all keys, not a queue per key).
        let mut first = vec![NONE; ids.len()];
        let mut next_same = vec![NONE; old_keys.len()];
        for (pos, &(_, k)) in old_keys.iter().enumerate().rev() {
            next_same[pos] = first[k as usize];
            first[k as usize] = pos as u32;
        }
        let mut map: HashMap<ValueId, ValueId> = HashMap::default();
        map.reserve(new_keys.len());
        for (v, k) in new_keys {
            let pos = first[k as usize];
            if pos != NONE {
                first[k as usize] = next_same[pos as usize];
                map.insert(v, old_keys[pos as usize].0);
            }
        }
        let mut next = self.next;
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
}

/// The value structures of a program: what [`keep_value_ids`] needs of its input, owned
/// and compact (a few bytes per value), so that the input program itself can be given away
/// to a rewrite that consumes it and still be numbered against afterwards.
///
/// ```
/// let before = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {\n  %7 = exp %0 : f32[2]\n  %8 = neg %7 : f32[2]\n  return %8\n}")?;
/// let numbers = ptir_ir::ValueNumbers::of(&before);
/// let mut after = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {\n  %1 = exp %0 : f32[2]\n  return %1\n}")?;
/// numbers.renumber(&mut after);
/// assert!(ptir_ir::print(&after).contains("%7 = exp %0"));
/// # Ok::<(), ptir_ir::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ValueNumbers {
    functions: Vec<FunctionShapes>,
}

impl ValueNumbers {
    /// The value structures of `program`'s functions.
    pub fn of(program: &Program) -> Self {
        ValueNumbers {
            functions: program.functions.iter().map(FunctionShapes::of).collect(),
        }
    }

    /// Renumbers the values of every function of `after` that the recorded program has
    /// too (by name), as [`keep_value_ids`] does.
    pub fn renumber(&self, after: &mut Program) {
        let by_name: rustc_hash::FxHashMap<&str, &FunctionShapes> = (self.functions.iter().rev())
            .map(|g| (g.name.as_str(), g))
            .collect();
        for f in &mut after.functions {
            if let Some(input) = by_name.get(f.name.as_str()) {
                input.renumber(f);
            }
        }
    }
}

/// Renumbers the values of every function of `after` that `before` has too (by name): a
/// value that corresponds to an input value (see the module docs) takes its number, every
/// other value a number above all of the input function's.
pub fn keep_value_ids(before: &Program, after: &mut Program) {
    ValueNumbers::of(before).renumber(after);
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
