//! Sibling reductions: reductions of one kind over the same axes of operands of one shape
//! that read a common input (`sum(x)` and `sum(x * x)`, as flax's `LayerNorm` computes a mean
//! and a mean of squares) merged into one `multi_reduce_<kind>`, which reads that input once,
//! where the caller's price says the merged reduction is cheaper; and a `multi_reduce_<kind>`
//! split back into its reductions where they are cheaper apart. Both are exact: each result
//! of a `multi_reduce` is its operand's reduction, element for element.
//!
//! Siblings are found per block (nested regions are blocks of their own), among the `reduce`
//! instructions of one key (kind, axes, `keep_dims`, operand shape). Two share an input when
//! the elementwise computations their operands come from (within the block, up to
//! [`SOURCE_WALK_LIMIT`] instructions each) read a common value other than a constant. The
//! merged instruction goes where the last of its reductions was, their results become its
//! `tuple_get`s (keeping their value ids, so no use changes), and the block is put back in
//! order: a stable topological sort, which keeps every instruction where it was unless it
//! reads a result that moved. A reduction whose operand depends on another's result cannot
//! join it (the sort would find a cycle): groups are then merged one at a time, each kept only
//! if the block still sorts.
//!
//! ```
//! let mut p = ptir_ir::parse("func @f(%x: f32[4,8]) -> (f32[4], f32[4]) {
//!   %s = reduce_sum %x axes=[1] keep_dims=false : f32[4]
//!   %x2 = mul %x, %x : f32[4,8]
//!   %s2 = reduce_sum %x2 axes=[1] keep_dims=false : f32[4]
//!   return %s, %s2
//! }").unwrap();
//! // A price under which a kernel costs 1 whatever it reduces: merging pays.
//! let stats = ptir_pass::transform::balance_sibling_reductions(&mut p, &|_, _, _| 1.0);
//! assert_eq!((stats.merged, stats.split), (1, 0));
//! ptir_ir::verify(&p).unwrap();
//! assert!(ptir_ir::print(&p).contains("multi_reduce_sum %0, %2"));
//! ```

use ptir_ir::{Function, Instruction, Op, Program, ReduceKind, Region, Type, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BinaryHeap;

/// How many instructions the walk from a reduction's operand through the elementwise
/// instructions it comes from visits at most, looking for the inputs it reads.
pub const SOURCE_WALK_LIMIT: usize = 64;

/// How many reductions one `multi_reduce` merges at most: a larger group is merged in parts
/// (and the fallback that grows a group one reduction at a time stays cheap).
pub const MAX_SIBLINGS: usize = 8;

/// The price of an op alone, on operands of these types giving this type (a cost model's
/// `op_cost`): what the pass compares merged and apart.
pub type OpPrice<'a> = dyn Fn(&Op, &[&Type], &Type) -> f64 + 'a;

/// What [`balance_sibling_reductions`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SiblingStats {
    /// `multi_reduce` instructions made.
    pub merged: usize,
    /// Reductions they replace.
    pub reductions: usize,
    /// `multi_reduce` instructions split into their reductions.
    pub split: usize,
}

/// Merges sibling reductions where `price` says one `multi_reduce` costs less than they do
/// apart, and splits `multi_reduce`s it says cost more (see the module docs). The program
/// stays valid.
pub fn balance_sibling_reductions(program: &mut Program, price: &OpPrice<'_>) -> SiblingStats {
    let mut stats = SiblingStats::default();
    for f in &mut program.functions {
        let types = value_types(f);
        let uses = tuple_uses(&f.body);
        let mut next = f.fresh_value_id().0;
        balance_block(
            &mut f.body,
            &mut Context {
                price,
                types: &types,
                uses: &uses,
                next: &mut next,
                stats: &mut stats,
            },
        );
    }
    stats
}

struct Context<'a, 'p> {
    price: &'a OpPrice<'p>,
    types: &'a FxHashMap<ValueId, Type>,
    /// How each value is used: `None` when anything but a `tuple_get` of this block uses it.
    uses: &'a FxHashMap<ValueId, Option<Vec<(usize, ValueId)>>>,
    next: &'a mut u32,
    stats: &'a mut SiblingStats,
}

impl Context<'_, '_> {
    fn fresh(&mut self) -> ValueId {
        let v = ValueId(*self.next);
        *self.next += 1;
        v
    }

    fn type_of(&self, v: ValueId) -> Option<&Type> {
        self.types.get(&v)
    }

    fn price_of(&self, op: &Op, operands: &[ValueId], ty: &Type) -> Option<f64> {
        let types: Option<Vec<&Type>> = operands.iter().map(|&v| self.type_of(v)).collect();
        Some((self.price)(op, &types?, ty))
    }
}

/// The type of every value of `f` (parameters of every block and instruction results).
fn value_types(f: &Function) -> FxHashMap<ValueId, Type> {
    let mut types: FxHashMap<ValueId, Type> = (f.body.params.iter())
        .map(|p| (p.id, p.ty.clone()))
        .collect();
    f.body.walk(&mut |inst, _| {
        types.insert(inst.result, inst.ty.clone());
        for r in inst.op.regions() {
            types.extend(r.params.iter().map(|p| (p.id, p.ty.clone())));
        }
    });
    types
}

/// For each value used, the `(index, result)` of the `tuple_get`s reading it, or `None` when
/// something else uses it (any other instruction, a `tuple_get` in another block, a block's
/// results).
fn tuple_uses(body: &Region) -> FxHashMap<ValueId, Option<Vec<(usize, ValueId)>>> {
    let mut uses: FxHashMap<ValueId, Option<Vec<(usize, ValueId)>>> = FxHashMap::default();
    fn visit(block: &Region, uses: &mut FxHashMap<ValueId, Option<Vec<(usize, ValueId)>>>) {
        let here: FxHashSet<ValueId> = block.insts.iter().map(|i| i.result).collect();
        for inst in &block.insts {
            match (&inst.op, inst.operands.as_slice()) {
                (Op::TupleGet { index }, [t]) if here.contains(t) => {
                    if let Some(list) = uses.entry(*t).or_insert_with(|| Some(Vec::new())) {
                        list.push((*index, inst.result));
                    }
                }
                _ => {
                    for v in &inst.operands {
                        uses.insert(*v, None);
                    }
                }
            }
            for r in inst.op.regions() {
                visit(r, uses);
            }
        }
        for v in &block.results {
            uses.insert(*v, None);
        }
    }
    visit(body, &mut uses);
    uses
}

fn balance_block(block: &mut Region, cx: &mut Context<'_, '_>) {
    for inst in &mut block.insts {
        for r in inst.op.regions_mut() {
            balance_block(r, cx);
        }
    }
    split_costly(block, cx);
    merge_siblings(block, cx);
}

/// Splits each `multi_reduce` of the block that costs more than its reductions apart, when
/// its only uses are `tuple_get`s of this block, one per result: each becomes the reduction.
fn split_costly(block: &mut Region, cx: &mut Context<'_, '_>) {
    let mut replace: FxHashMap<ValueId, Instruction> = FxHashMap::default();
    let mut gone: FxHashSet<ValueId> = FxHashSet::default();
    for inst in &block.insts {
        let Op::MultiReduce {
            kind,
            ref axes,
            keep_dims,
        } = inst.op
        else {
            continue;
        };
        let Some(Some(gets)) = cx.uses.get(&inst.result) else {
            continue;
        };
        let mut indices: Vec<usize> = gets.iter().map(|g| g.0).collect();
        indices.sort_unstable();
        indices.dedup();
        if indices.len() != gets.len() {
            continue;
        }
        let reduce = Op::Reduce {
            kind,
            axes: axes.clone(),
            keep_dims,
        };
        let parts: Option<Vec<(ValueId, ValueId, Type)>> = (gets.iter())
            .map(|&(i, get)| Some((get, *inst.operands.get(i)?, cx.type_of(get)?.clone())))
            .collect();
        let Some(parts) = parts else { continue };
        let apart: Option<f64> = (parts.iter())
            .map(|(_, x, ty)| cx.price_of(&reduce, &[*x], ty))
            .sum();
        let together = cx.price_of(&inst.op, &inst.operands, &inst.ty);
        let (Some(apart), Some(together)) = (apart, together) else {
            continue;
        };
        if apart >= together {
            continue;
        }
        gone.insert(inst.result);
        for (get, x, ty) in parts {
            replace.insert(
                get,
                Instruction {
                    result: get,
                    ty,
                    op: reduce.clone(),
                    operands: vec![x],
                },
            );
        }
        cx.stats.split += 1;
    }
    if gone.is_empty() {
        return;
    }
    let insts = std::mem::take(&mut block.insts);
    block.insts = (insts.into_iter())
        .filter(|i| !gone.contains(&i.result))
        .map(|i| replace.remove(&i.result).unwrap_or(i))
        .collect();
}

/// What sibling reductions are grouped by: kind, sorted axes, `keep_dims`, operand shape.
type SiblingKey = (ReduceKind, Vec<usize>, bool, Vec<usize>);

/// A group of sibling reductions (positions in the block), the inputs they read, and the
/// operands they reduce.
struct Group {
    members: Vec<usize>,
    sources: FxHashSet<ValueId>,
    operands: FxHashSet<ValueId>,
}

/// Merges the block's sibling reductions where it pays (see the module docs).
fn merge_siblings(block: &mut Region, cx: &mut Context<'_, '_>) {
    let at: FxHashMap<ValueId, usize> = (block.insts.iter().enumerate())
        .map(|(i, inst)| (inst.result, i))
        .collect();
    let mut buckets: indexmap::IndexMap<SiblingKey, Vec<Group>> = indexmap::IndexMap::new();
    for (i, inst) in block.insts.iter().enumerate() {
        let (
            Op::Reduce {
                kind,
                axes,
                keep_dims,
            },
            [x],
        ) = (&inst.op, inst.operands.as_slice())
        else {
            continue;
        };
        let Some(Type::Tensor(xt)) = cx.type_of(*x) else {
            continue;
        };
        let mut sorted = axes.clone();
        sorted.sort_unstable();
        let sources = sources_of(*x, block, &at);
        if sources.is_empty() {
            continue;
        }
        let groups = buckets
            .entry((*kind, sorted, *keep_dims, xt.shape.clone()))
            .or_default();
        let joins = |g: &&mut Group| {
            g.members.len() < MAX_SIBLINGS
                && !g.operands.contains(x)
                && !g.sources.is_disjoint(&sources)
        };
        match groups.iter_mut().find(joins) {
            Some(g) => {
                g.members.push(i);
                g.sources.extend(sources);
                g.operands.insert(*x);
            }
            None => groups.push(Group {
                members: vec![i],
                sources,
                operands: [*x].into_iter().collect(),
            }),
        }
    }
    let groups: Vec<Vec<usize>> = (buckets.into_values().flatten())
        .map(|g| g.members)
        .filter(|m| m.len() > 1 && pays(block, m, cx))
        .collect();
    if groups.is_empty() {
        return;
    }
    let merged = match with_merged(block, &groups, cx) {
        Some(insts) => {
            block.insts = insts;
            groups.iter().map(Vec::len).collect()
        }
        None => merge_one_by_one(block, groups, cx),
    };
    cx.stats.merged += merged.len();
    cx.stats.reductions += merged.iter().sum::<usize>();
}

/// Merges what can be of `groups` (positions in `block`), where merging them all at once
/// would make a value depend on itself: each group grown one reduction at a time, a reduction
/// joining only if the block still sorts with it (one reading another's result does not).
/// Returns the sizes of the merged groups.
fn merge_one_by_one(
    block: &mut Region,
    groups: Vec<Vec<usize>>,
    cx: &mut Context<'_, '_>,
) -> Vec<usize> {
    // Positions of `block` before any merge: each merge is applied to the original block
    // together with the groups already kept.
    let original = block.clone();
    let mut kept: Vec<Vec<usize>> = Vec::new();
    for g in groups {
        let mut grown = vec![g[0]];
        for &m in &g[1..] {
            grown.push(m);
            let mut trial = kept.clone();
            trial.push(grown.clone());
            if with_merged(&original, &trial, cx).is_none() {
                grown.pop();
            }
        }
        if grown.len() > 1 && pays(&original, &grown, cx) {
            kept.push(grown);
        }
    }
    if let Some(insts) = with_merged(&original, &kept, cx) {
        block.insts = insts;
        return kept.iter().map(Vec::len).collect();
    }
    Vec::new()
}

/// The merged instruction of the reductions at `members` of `block`.
fn merged_op(block: &Region, members: &[usize]) -> Option<(Op, Vec<ValueId>, Type)> {
    let first = &block.insts[*members.first()?];
    let Op::Reduce {
        kind,
        ref axes,
        keep_dims,
    } = first.op
    else {
        return None;
    };
    let op = Op::MultiReduce {
        kind,
        axes: axes.clone(),
        keep_dims,
    };
    let operands = members
        .iter()
        .map(|&m| block.insts[m].operands[0])
        .collect();
    let ty = Type::Tuple(members.iter().map(|&m| block.insts[m].ty.clone()).collect());
    Some((op, operands, ty))
}

/// Whether the merged reduction of `members` costs less than they do apart.
fn pays(block: &Region, members: &[usize], cx: &Context<'_, '_>) -> bool {
    let Some((op, operands, ty)) = merged_op(block, members) else {
        return false;
    };
    let apart: Option<f64> = (members.iter())
        .map(|&m| {
            let inst = &block.insts[m];
            cx.price_of(&inst.op, &inst.operands, &inst.ty)
        })
        .sum();
    match (apart, cx.price_of(&op, &operands, &ty)) {
        (Some(apart), Some(together)) => together < apart,
        _ => false,
    }
}

/// The inputs other than constants that the value `x` of `block` is computed from through
/// elementwise instructions of the block (`x` itself when it is not computed by one); empty
/// when the walk passes [`SOURCE_WALK_LIMIT`] instructions.
fn sources_of(x: ValueId, block: &Region, at: &FxHashMap<ValueId, usize>) -> FxHashSet<ValueId> {
    let mut sources = FxHashSet::default();
    let mut seen = FxHashSet::default();
    let mut stack = vec![x];
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > SOURCE_WALK_LIMIT {
            return FxHashSet::default();
        }
        match at.get(&v).map(|&i| &block.insts[i]) {
            Some(inst) if matches!(inst.op, Op::Constant(_)) => {}
            Some(inst) if inst.op.key().is_elementwise() => stack.extend(&inst.operands),
            _ => {
                sources.insert(v);
            }
        }
    }
    sources
}

/// The block's instructions with each group of `groups` merged, in a valid order; `None` if
/// a merge would make a value depend on itself.
fn with_merged(
    block: &Region,
    groups: &[Vec<usize>],
    cx: &mut Context<'_, '_>,
) -> Option<Vec<Instruction>> {
    // Each instruction with its sort key: its position, and after the last member of a
    // group, the merged instruction and its `tuple_get`s.
    let mut member: FxHashSet<usize> = FxHashSet::default();
    let mut after: FxHashMap<usize, Vec<Instruction>> = FxHashMap::default();
    for g in groups {
        let (op, operands, ty) = merged_op(block, g)?;
        let t = cx.fresh();
        let mut insts = vec![Instruction {
            result: t,
            ty,
            op,
            operands,
        }];
        for (index, &m) in g.iter().enumerate() {
            let r = &block.insts[m];
            insts.push(Instruction {
                result: r.result,
                ty: r.ty.clone(),
                op: Op::TupleGet { index },
                operands: vec![t],
            });
        }
        member.extend(g.iter().copied());
        after.insert(*g.iter().max()?, insts);
    }
    let mut keyed: Vec<((usize, usize), Instruction)> = Vec::with_capacity(block.insts.len() + 1);
    for (i, inst) in block.insts.iter().enumerate() {
        if !member.contains(&i) {
            keyed.push(((i, 0), inst.clone()));
        }
        if let Some(insts) = after.remove(&i) {
            keyed.extend((insts.into_iter().enumerate()).map(|(k, inst)| ((i, k + 1), inst)));
        }
    }
    stable_topological_order(keyed)
}

/// The instructions ordered so that each comes after the instructions of the list defining
/// what it reads (its operands, and the outer values its regions read), each as early as its
/// key allows (instructions already in order keep it); `None` if they form a cycle.
fn stable_topological_order(keyed: Vec<((usize, usize), Instruction)>) -> Option<Vec<Instruction>> {
    let index: FxHashMap<ValueId, usize> = (keyed.iter().enumerate())
        .map(|(k, (_, inst))| (inst.result, k))
        .collect();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); keyed.len()];
    let mut waiting: Vec<usize> = vec![0; keyed.len()];
    for (k, (_, inst)) in keyed.iter().enumerate() {
        let mut reads: FxHashSet<ValueId> = inst.operands.iter().copied().collect();
        for r in inst.op.regions() {
            r.walk(&mut |i, _| reads.extend(&i.operands));
            reads.extend(&r.results);
        }
        for v in reads {
            if let Some(&d) = index.get(&v) {
                if d != k {
                    users[d].push(k);
                    waiting[k] += 1;
                }
            }
        }
    }
    let mut ready: BinaryHeap<std::cmp::Reverse<((usize, usize), usize)>> = (0..keyed.len())
        .filter(|&k| waiting[k] == 0)
        .map(|k| std::cmp::Reverse((keyed[k].0, k)))
        .collect();
    let mut order = Vec::with_capacity(keyed.len());
    while let Some(std::cmp::Reverse((_, k))) = ready.pop() {
        order.push(k);
        for &u in &users[k] {
            waiting[u] -= 1;
            if waiting[u] == 0 {
                ready.push(std::cmp::Reverse((keyed[u].0, u)));
            }
        }
    }
    if order.len() != keyed.len() {
        return None;
    }
    let mut slots: Vec<Option<Instruction>> = keyed.into_iter().map(|(_, i)| Some(i)).collect();
    order.into_iter().map(|k| slots[k].take()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Program {
        ptir_ir::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A price under which every kernel costs 1: merging always pays, splitting never.
    fn flat(_: &Op, _: &[&Type], _: &Type) -> f64 {
        1.0
    }

    /// A price under which a `multi_reduce` costs 10: splitting always pays.
    fn dear(op: &Op, _: &[&Type], _: &Type) -> f64 {
        match op {
            Op::MultiReduce { .. } => 10.0,
            _ => 1.0,
        }
    }

    fn run(p: &Program) -> Vec<ptir_ir::Value> {
        let inputs = ptir_ir::inputs::random_inputs(&p.functions[0], 7);
        (ptir_ir::Interpreter::new(p).run("f", &inputs)).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A reduction reading the other's result cannot join it; the order of the block is
    /// repaired when the merged one moves before uses of the first reduction.
    #[test]
    fn a_dependent_reduction_stays_apart_and_uses_are_reordered() {
        let text = "func @f(%x: f32[4,8]) -> (f32[4], f32[4], f32[4]) {
  %s = reduce_sum %x axes=[1] keep_dims=false : f32[4]
  %m = mul %s, %s : f32[4]
  %x2 = mul %x, %x : f32[4,8]
  %s2 = reduce_sum %x2 axes=[1] keep_dims=false : f32[4]
  %b = broadcast %s dims=[0] : f32[4,8]
  %c = sub %x, %b : f32[4,8]
  %v = reduce_sum %c axes=[1] keep_dims=false : f32[4]
  return %m, %s2, %v
}";
        let mut p = parse(text);
        let before = run(&p);
        let stats = balance_sibling_reductions(&mut p, &flat);
        ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{e}\n{}", ptir_ir::print(&p)));
        assert_eq!(
            (stats.merged, stats.reductions),
            (1, 2),
            "{}",
            ptir_ir::print(&p)
        );
        assert_eq!(run(&p), before);
        let text = ptir_ir::print(&p);
        assert!(text.contains("multi_reduce_sum %0, %3"), "{text}");
        assert!(text.contains("reduce_sum %6"), "{text}");
    }

    #[test]
    fn unrelated_reductions_and_other_keys_stay_apart() {
        let mut p = parse(
            "func @f(%x: f32[4,8], %y: f32[4,8]) -> (f32[4], f32[4], f32[8], f32[4,1]) {
  %a = reduce_sum %x axes=[1] keep_dims=false : f32[4]
  %b = reduce_sum %y axes=[1] keep_dims=false : f32[4]
  %c = reduce_sum %x axes=[0] keep_dims=false : f32[8]
  %d = reduce_sum %x axes=[1] keep_dims=true : f32[4,1]
  return %a, %b, %c, %d
}",
        );
        let before = p.clone();
        assert_eq!(
            balance_sibling_reductions(&mut p, &flat),
            SiblingStats::default()
        );
        assert_eq!(p, before);
    }

    #[test]
    fn a_costly_multi_reduce_is_split_into_its_reductions() {
        let text = "func @f(%x: f32[4,8], %y: i32[4,8]) -> (f32[4], i32[4]) {
  %t = multi_reduce_sum %x, %y axes=[1] keep_dims=false : (f32[4], i32[4])
  %a = tuple_get %t index=0 : f32[4]
  %b = tuple_get %t index=1 : i32[4]
  return %a, %b
}";
        let mut p = parse(text);
        let before = run(&p);
        let stats = balance_sibling_reductions(&mut p, &dear);
        assert_eq!(stats.split, 1);
        ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{e}"));
        assert!(!ptir_ir::print(&p).contains("multi_reduce"));
        assert_eq!(run(&p), before);
        // Under a price where it pays, it stays; so does one whose tuple is used whole.
        let mut kept = parse(text);
        assert_eq!(balance_sibling_reductions(&mut kept, &flat).split, 0);
        let mut whole = parse(
            "func @f(%x: f32[4,8]) -> (f32[4]) {
  %t = multi_reduce_sum %x, %x axes=[1] keep_dims=false : (f32[4], f32[4])
  %a = tuple_get %t index=0 : f32[4]
  %b = tuple_get %t index=0 : f32[4]
  %c = add %a, %b : f32[4]
  return %c
}",
        );
        assert_eq!(balance_sibling_reductions(&mut whole, &dear).split, 0);
    }

    /// Siblings inside a loop body merge there; a reduction outside does not join them.
    #[test]
    fn siblings_in_a_region_merge_in_their_block() {
        let mut p = parse(
            "func @f(%x: f32[4,8]) -> (f32[4,8]) {
  %r = scan %x num_carry=1 length=3 : f32[4,8] {
  ^(%h: f32[4,8]):
    %s = reduce_max %h axes=[1] keep_dims=true : f32[4,1]
    %n = neg %h : f32[4,8]
    %t = reduce_max %n axes=[1] keep_dims=true : f32[4,1]
    %st = add %s, %t : f32[4,1]
    %b = broadcast %st dims=[0, 1] : f32[4,8]
    %o = sub %h, %b : f32[4,8]
    yield %o
  }
  return %r
}",
        );
        let before = run(&p);
        let stats = balance_sibling_reductions(&mut p, &flat);
        assert_eq!(stats.merged, 1);
        ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(run(&p), before);
    }
}
