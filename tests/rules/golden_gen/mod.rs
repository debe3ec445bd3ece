//! The golden-case generator (used by the ignored test `generate_missing_cases`).
//!
//! A **positive** input is the `@source` function of `ptir_rules::example::instantiate` (renamed
//! `@f`), from the first seed whose instance the rule fires on. A **negative** input is the
//! first mechanical near miss of the positive input on which the rule does not fire and which
//! comes out unchanged, tried in this order:
//!
//! 1. a constant changed (`1.0 → 2.0`, `-0.0 → 0.0`, `0 → 1`, `true → false`, ...), or a splat
//!    made dense with one element different;
//! 2. an attribute changed (a perm with two entries swapped, reduced axes or `keep_dims`, a
//!    concat axis or one more concat operand, a slice bound, a cast's target dtype, a
//!    reshape's shape, a broadcast to one more leading dim), types re-inferred;
//! 3. every value of one dtype given another (a float where the rule needs an int, `f32 → f64`,
//!    ...), constants converted;
//! 4. one use of a value used twice replaced by a new parameter (`x - x → x - y`);
//! 5. one op replaced by a sibling of its class (`neg → abs`, `add → sub`,
//!    `reduce_sum → reduce_max`, `lt → le`), inner ops before the root;
//! 6. a `neg` (`not` for bool) inserted between a value and one of its uses.
//!
//! The near miss is written as the pass leaves it when the rule does not fire (constants
//! hoisted and deduplicated), so that "unchanged" is a fixpoint. A positive instance prefers
//! f32 and shapes of rank >= 1 (the best of 64 seeds; see `dtype_score`).

use ptir_ir::{
    infer_type, BinaryOp, CmpOp, DType, Data, FloatBits, Function, InferContext, Instruction,
    Literal, Op, Param, Program, ReduceKind, Scalar, Type, UnaryOp, ValueId,
};
use ptir_rules::{example, Rule, RuleSet};
use std::collections::HashMap;
use std::path::Path;

/// Seeds tried for a positive instance.
const SEEDS: u64 = 64;

/// Makes the missing case files of `rule`; returns a one-line summary.
pub fn generate(rules: &RuleSet, rule: &Rule, pos: &Path, neg: &Path) -> String {
    let mut summary = String::new();
    let input = if pos.exists() {
        let text = std::fs::read_to_string(pos).unwrap_or_default();
        match ptir_ir::parse(&text) {
            Ok(p) => {
                summary.push_str("pos: exists");
                p
            }
            Err(e) => return format!("pos: does not parse: {e}"),
        }
    } else {
        match positive(rules, rule) {
            Ok((p, seed, n)) => {
                let header = format!(
                    "// golden case for `{}` ({}): the @source function of\n\
                     // ptir_rules::example::instantiate(rule, registry, seed {seed}); `{}` fires {n} time(s).\n",
                    rule.name, rule.location, rule.name
                );
                if let Err(e) = std::fs::write(pos, header + &ptir_ir::print(&p)) {
                    return format!("pos: {e}");
                }
                summary.push_str(&format!("pos: seed {seed} (fired {n})"));
                p
            }
            Err(e) => return format!("pos: NONE: {e}"),
        }
    };
    if neg.exists() {
        summary.push_str(", neg: exists");
        return summary;
    }
    match negative(rules, &rule.name, &input) {
        Some((what, p)) => {
            let header = format!(
                "// near miss for `{}`: the positive case with {what};\n\
                 // `{}` must not fire and the program must come out unchanged.\n",
                rule.name, rule.name
            );
            match std::fs::write(neg, header + &ptir_ir::print(&p)) {
                Ok(()) => summary.push_str(&format!(", neg: {what}")),
                Err(e) => summary.push_str(&format!(", neg: {e}")),
            }
        }
        None => summary.push_str(", neg: NONE"),
    }
    summary
}

/// The first instance of `rule` it fires on: (program, seed, times fired).
fn positive(rules: &RuleSet, rule: &Rule) -> Result<(Program, u64, usize), String> {
    let mut last = String::from("no seed tried");
    let mut best = None;
    for seed in 0..SEEDS {
        let ex = match example::instantiate(rule, rules.registry(), seed) {
            Ok(ex) => ex,
            Err(e) => {
                last = e.to_string();
                continue;
            }
        };
        let Some(mut source) = ex.program.function(example::SOURCE).cloned() else {
            last = "no @source".into();
            continue;
        };
        source.name = "f".into();
        let program = Program {
            externs: ex.program.externs.clone(),
            functions: vec![source],
        };
        match super::run_rule(rules, &rule.name, &program) {
            Ok((_, stats)) if super::fired(&stats, &rule.name) > 0 => {
                let score = dtype_score(&program);
                let better = match &best {
                    Some((_, _, _, b)) => score < *b,
                    None => true,
                };
                if better {
                    best = Some((program, seed, super::fired(&stats, &rule.name), score));
                }
                if score == 0 {
                    break;
                }
            }
            Ok(_) => last = format!("seed {seed}: the rule does not fire"),
            Err(e) => last = format!("seed {seed}: {e}"),
        }
    }
    best.map(|(p, seed, n, _)| (p, seed, n)).ok_or(last)
}

/// How far an instance is from a readable one (lower is better): 4 per degeneracy (a
/// computed value of rank 0, an identity or rank < 2 transpose, a reduction over no axes),
/// plus 0 all f32, 1 f32 and other dtypes, 2 other floats, 3 anything else.
fn dtype_score(p: &Program) -> usize {
    let degenerate = |i: &Instruction| {
        let rank = i.ty.as_tensor().map_or(1, |t| t.rank());
        let scalar = rank == 0 && !matches!(i.op, Op::Constant(_));
        let perm = matches!(&i.op, Op::Transpose { perm }
            if perm.len() < 2 || perm.iter().enumerate().all(|(k, &d)| k == d));
        let axes = matches!(&i.op, Op::Reduce { axes, .. } if axes.is_empty());
        usize::from(scalar) + usize::from(perm) + usize::from(axes)
    };
    let degenerate: usize = p
        .functions
        .iter()
        .flat_map(|f| f.body.insts.iter().map(degenerate))
        .sum();
    let mut dtypes = Vec::new();
    for f in &p.functions {
        let types = f
            .body
            .params
            .iter()
            .map(|p| &p.ty)
            .chain(f.body.insts.iter().map(|i| &i.ty));
        for t in types {
            if let Some(t) = t.as_tensor() {
                dtypes.push(t.dtype);
            }
        }
    }
    let dtype = if dtypes.iter().all(|d| *d == DType::F32) {
        0
    } else if dtypes.contains(&DType::F32) {
        1
    } else if dtypes.iter().all(|d| d.is_float()) {
        2
    } else {
        3
    };
    dtype + 4 * degenerate
}

/// The first near miss of `input` that `rule` leaves alone. The pass still hoists and
/// deduplicates constants, so the near miss is taken as the pass leaves it (a fixpoint).
fn negative(rules: &RuleSet, rule: &str, input: &Program) -> Option<(String, Program)> {
    let untouched = |p: &Program| match super::run_rule(rules, rule, p) {
        Ok((out, stats)) if super::fired(&stats, rule) == 0 => Some(out),
        _ => None,
    };
    mutations(input).into_iter().find_map(|(what, p)| {
        ptir_ir::verify(&p).ok()?;
        let out = untouched(&p)?;
        let again = untouched(&out)?;
        (ptir_ir::print(&again) == ptir_ir::print(&out)).then_some((what, out))
    })
}

fn inst_text(i: &Instruction) -> String {
    ptir_ir::print_inst(i).trim().to_string()
}

/// Every candidate near miss of `p` (only its first function), in priority order.
fn mutations(p: &Program) -> Vec<(String, Program)> {
    let Some(f) = p.functions.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let with_inst = |k: usize, inst: Instruction| -> Option<(String, Program)> {
        let before = inst_text(&f.body.insts[k]);
        let mut g = f.clone();
        g.body.insts[k] = inst;
        let g = retype(g)?;
        let after = inst_text(&g.body.insts[k]);
        let mut q = p.clone();
        q.functions[0] = g;
        Some((format!("`{before}` changed to `{after}`"), q))
    };
    // 1. constants
    for (k, inst) in f.body.insts.iter().enumerate() {
        if let Op::Constant(lit) = &inst.op {
            let dtype = inst.ty.as_tensor().map(|t| t.dtype);
            for l in other_literals(
                lit,
                dtype,
                inst.ty.as_tensor().map_or(0, |t| t.num_elements()),
            ) {
                let mut i = inst.clone();
                i.op = Op::Constant(l);
                out.extend(with_inst(k, i));
            }
        }
    }
    // 2. attributes
    for (k, inst) in f.body.insts.iter().enumerate() {
        for i in other_attributes(inst) {
            out.extend(with_inst(k, i));
        }
    }
    // 3. dtypes
    let mut dtypes: Vec<DType> = Vec::new();
    for t in f
        .body
        .params
        .iter()
        .map(|p| &p.ty)
        .chain(f.body.insts.iter().map(|i| &i.ty))
    {
        if let Some(t) = t.as_tensor() {
            if !dtypes.contains(&t.dtype) {
                dtypes.push(t.dtype);
            }
        }
    }
    for &from in &dtypes {
        for to in other_dtypes(from) {
            if let Some(g) = retype(change_dtype(f, from, to)) {
                let mut q = p.clone();
                q.functions[0] = g;
                out.push((format!("every {from} value made {to}"), q));
            }
        }
    }
    // 4. un-alias a value used twice
    let uses = use_counts(f);
    for (k, inst) in f.body.insts.iter().enumerate() {
        for (slot, v) in inst.operands.iter().enumerate() {
            if uses.get(v).copied().unwrap_or(0) < 2 {
                continue;
            }
            let Some(ty) = type_of(f, *v) else { continue };
            let mut g = f.clone();
            let fresh = g.fresh_value_id();
            g.body.params.push(Param { id: fresh, ty });
            g.body.insts[k].operands[slot] = fresh;
            if let Some(g) = retype(g) {
                let mut q = p.clone();
                q.functions[0] = g;
                out.push((
                    format!(
                        "operand {slot} of `{}` (%{}, used twice) replaced by a new parameter %{}",
                        inst_text(inst),
                        v.0,
                        fresh.0
                    ),
                    q,
                ));
            }
        }
    }
    // 5. sibling ops, inner ops first
    let roots: Vec<ValueId> = f.body.results.clone();
    let mut order: Vec<usize> = (0..f.body.insts.len()).collect();
    order.sort_by_key(|&k| roots.contains(&f.body.insts[k].result));
    for k in order {
        for op in sibling_ops(&f.body.insts[k].op) {
            let mut i = f.body.insts[k].clone();
            i.op = op;
            out.extend(with_inst(k, i));
        }
    }
    // 6. an op inserted between a value and one of its uses
    for (k, inst) in f.body.insts.iter().enumerate() {
        for (slot, v) in inst.operands.iter().enumerate() {
            let Some(ty) = type_of(f, *v) else { continue };
            let Some(t) = ty.as_tensor() else { continue };
            let op = if t.dtype == DType::Bool {
                UnaryOp::Not
            } else {
                UnaryOp::Neg
            };
            let mut g = f.clone();
            let fresh = g.fresh_value_id();
            g.body.insts.insert(
                k,
                Instruction {
                    result: fresh,
                    ty: ty.clone(),
                    op: Op::Unary(op),
                    operands: vec![*v],
                },
            );
            g.body.insts[k + 1].operands[slot] = fresh;
            if let Some(g) = retype(g) {
                let mut q = p.clone();
                q.functions[0] = g;
                out.push((
                    format!(
                        "`{op}` inserted before operand {slot} (%{}) of `{}`",
                        v.0,
                        inst_text(inst)
                    ),
                    q,
                ));
            }
        }
    }
    out
}

fn use_counts(f: &Function) -> HashMap<ValueId, usize> {
    let mut n = HashMap::new();
    for i in &f.body.insts {
        for o in &i.operands {
            *n.entry(*o).or_insert(0) += 1;
        }
    }
    for r in &f.body.results {
        *n.entry(*r).or_insert(0) += 1;
    }
    n
}

fn type_of(f: &Function, v: ValueId) -> Option<Type> {
    f.body
        .params
        .iter()
        .find(|p| p.id == v)
        .map(|p| p.ty.clone())
        .or_else(|| {
            f.body
                .insts
                .iter()
                .find(|i| i.result == v)
                .map(|i| i.ty.clone())
        })
}

/// Re-infers the type of every top-level instruction whose type follows from its operands,
/// and the result types; `None` if something no longer types.
fn retype(mut f: Function) -> Option<Function> {
    let mut types: HashMap<ValueId, Type> =
        f.body.params.iter().map(|p| (p.id, p.ty.clone())).collect();
    for inst in &mut f.body.insts {
        let annotated = matches!(
            inst.op,
            Op::Constant(_)
                | Op::Cast
                | Op::Reshape
                | Op::Broadcast { .. }
                | Op::Rng { .. }
                | Op::RngBitGenerator { .. }
                | Op::Call { .. }
                | Op::Cond { .. }
                | Op::While { .. }
                | Op::Scan { .. }
        );
        if !annotated {
            let operands: Option<Vec<&Type>> = inst.operands.iter().map(|o| types.get(o)).collect();
            inst.ty = infer_type(&inst.op, &operands?, &InferContext::default()).ok()?;
        }
        types.insert(inst.result, inst.ty.clone());
    }
    f.result_types = f
        .body
        .results
        .iter()
        .map(|r| types.get(r).cloned())
        .collect::<Option<Vec<_>>>()?;
    Some(f)
}

fn other_scalars(s: Scalar, dtype: DType) -> Vec<Scalar> {
    let v = match s {
        Scalar::Float(x) if x == 0.0 => vec![Scalar::Float(-x), Scalar::Float(1.0)],
        Scalar::Float(x) => vec![
            Scalar::Float(x + 1.0),
            Scalar::Float(-x),
            Scalar::Float(0.5 * x),
        ],
        Scalar::Int(i) => vec![Scalar::Int(i + 1), Scalar::Int(-i), Scalar::Int(i - 1)],
        Scalar::Bool(b) => vec![Scalar::Bool(!b)],
    };
    let mut seen: Vec<Scalar> = vec![s];
    v.into_iter()
        .filter(|x| x.fits(dtype))
        .filter(|x| {
            let new = !seen.contains(x);
            seen.push(*x);
            new
        })
        .collect()
}

fn other_literals(lit: &Literal, dtype: Option<DType>, n: usize) -> Vec<Literal> {
    let Some(dtype) = dtype else {
        return Vec::new();
    };
    match lit {
        Literal::Splat(s) => {
            let mut v: Vec<Literal> = other_scalars(*s, dtype)
                .into_iter()
                .map(Literal::Splat)
                .collect();
            if n >= 2 {
                if let Some(&o) = other_scalars(*s, dtype).first() {
                    let mut d = Data::splat(*s, n);
                    set_first(&mut d, o);
                    v.push(Literal::Dense(d));
                }
            }
            v
        }
        Literal::Dense(d) => {
            let Some(first) = first_scalar(d) else {
                return Vec::new();
            };
            other_scalars(first, dtype)
                .into_iter()
                .map(|o| {
                    let mut d = d.clone();
                    set_first(&mut d, o);
                    Literal::Dense(d)
                })
                .collect()
        }
    }
}

fn first_scalar(d: &Data) -> Option<Scalar> {
    match d {
        Data::Float(v) => v.first().map(|x| Scalar::Float(x.0)),
        Data::Int(v) => v.first().map(|x| Scalar::Int(*x)),
        Data::Bool(v) => v.first().map(|x| Scalar::Bool(*x)),
    }
}

fn set_first(d: &mut Data, s: Scalar) {
    match (d, s) {
        (Data::Float(v), Scalar::Float(x)) if !v.is_empty() => v[0] = FloatBits(x),
        (Data::Int(v), Scalar::Int(x)) if !v.is_empty() => v[0] = x,
        (Data::Bool(v), Scalar::Bool(x)) if !v.is_empty() => v[0] = x,
        _ => {}
    }
}

/// The instruction with one attribute changed, each way that may still type.
fn other_attributes(inst: &Instruction) -> Vec<Instruction> {
    let mut ops: Vec<Op> = Vec::new();
    let mut retyped: Vec<Type> = Vec::new();
    let mut extra: Vec<Instruction> = Vec::new();
    match &inst.op {
        Op::Transpose { perm } => {
            for a in 0..perm.len() {
                for b in a + 1..perm.len() {
                    let mut p = perm.clone();
                    p.swap(a, b);
                    ops.push(Op::Transpose { perm: p });
                }
            }
        }
        Op::Reduce {
            kind,
            axes,
            keep_dims,
        } => {
            // Axes that do not exist fail to type and are dropped.
            let rank = 6;
            let reduce = |axes: Vec<usize>, keep_dims: bool| Op::Reduce {
                kind: *kind,
                axes,
                keep_dims,
            };
            ops.push(reduce(axes.clone(), !keep_dims));
            for (k, _) in axes.iter().enumerate() {
                for other in 0..rank {
                    if !axes.contains(&other) {
                        let mut a = axes.clone();
                        a[k] = other;
                        ops.push(reduce(a, *keep_dims));
                    }
                }
                if axes.len() > 1 {
                    let mut a = axes.clone();
                    a.remove(k);
                    ops.push(reduce(a, *keep_dims));
                }
            }
            for other in 0..rank {
                if !axes.contains(&other) {
                    let mut a = axes.clone();
                    a.push(other);
                    ops.push(reduce(a, *keep_dims));
                }
            }
        }
        Op::Concat { axis } => {
            for a in 0..4 {
                if a != *axis {
                    ops.push(Op::Concat { axis: a });
                }
            }
            // one more operand (the first again); the result type is re-inferred
            if let Some(&first) = inst.operands.first() {
                let mut i = inst.clone();
                i.operands.push(first);
                extra.push(i);
            }
        }
        Op::Broadcast { dims } => {
            // a new leading result dim of size 2
            if let Some(t) = inst.ty.as_tensor() {
                let mut shape = vec![2];
                shape.extend(t.shape.iter().copied());
                extra.push(Instruction {
                    op: Op::Broadcast {
                        dims: dims.iter().map(|d| d + 1).collect(),
                    },
                    ty: ptir_ir::TensorType::new(t.dtype, shape).into(),
                    ..inst.clone()
                });
            }
        }
        Op::Slice(slice) => {
            let ptir_ir::SliceDims {
                start,
                limit,
                stride,
            } = &**slice;
            for d in 0..start.len() {
                let mut s = start.clone();
                if s[d] + 1 < limit[d] {
                    s[d] += 1;
                    ops.push(ptir_ir::SliceDims::op(s, limit.clone(), stride.clone()));
                }
                if start[d] > 0 {
                    let mut s = start.clone();
                    s[d] -= 1;
                    ops.push(ptir_ir::SliceDims::op(s, limit.clone(), stride.clone()));
                }
                let mut t = stride.clone();
                t[d] += 1;
                ops.push(ptir_ir::SliceDims::op(start.clone(), limit.clone(), t));
            }
        }
        Op::TupleGet { index } => {
            for i in 0..4 {
                if i != *index {
                    ops.push(Op::TupleGet { index: i });
                }
            }
        }
        Op::Cast => {
            if let Some(t) = inst.ty.as_tensor() {
                for d in DType::ALL {
                    if d != t.dtype {
                        retyped.push(t.with_dtype(d).into());
                    }
                }
            }
        }
        Op::Reshape => {
            if let Some(t) = inst.ty.as_tensor() {
                let n = t.num_elements();
                let mut shapes = vec![vec![n], vec![1, n], vec![n, 1]];
                let mut rev = t.shape.clone();
                rev.reverse();
                shapes.push(rev);
                for s in shapes {
                    if s != t.shape {
                        retyped.push(ptir_ir::TensorType::new(t.dtype, s).into());
                    }
                }
            }
        }
        _ => {}
    }
    let mut v: Vec<Instruction> = ops
        .into_iter()
        .map(|op| Instruction { op, ..inst.clone() })
        .collect();
    v.extend(
        retyped
            .into_iter()
            .map(|ty| Instruction { ty, ..inst.clone() }),
    );
    v.extend(extra);
    v
}

fn other_dtypes(d: DType) -> Vec<DType> {
    match d {
        DType::F32 => vec![DType::I32, DType::F64, DType::F16],
        DType::F64 => vec![DType::I64, DType::F32],
        DType::F16 | DType::BF16 => vec![DType::I32, DType::F32],
        DType::I32 => vec![DType::F32, DType::I64],
        DType::I64 => vec![DType::F64, DType::I32],
        DType::Bool => vec![DType::I32],
        // The narrow and unsigned integers: a float, and the signed dtype of the width.
        _ => vec![
            DType::F32,
            if d.bits() == 64 {
                DType::I64
            } else {
                DType::I32
            },
        ],
    }
}

fn change_type(t: &Type, from: DType, to: DType) -> Type {
    match t {
        Type::Tensor(tt) if tt.dtype == from => tt.with_dtype(to).into(),
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| change_type(t, from, to)).collect()),
        t => t.clone(),
    }
}

/// `f` with every `from` value made `to` (constants converted as `cast` converts).
fn change_dtype(f: &Function, from: DType, to: DType) -> Function {
    let mut g = f.clone();
    for p in &mut g.body.params {
        p.ty = change_type(&p.ty, from, to);
    }
    for i in &mut g.body.insts {
        let was = i.ty.as_tensor().map(|t| t.dtype);
        i.ty = change_type(&i.ty, from, to);
        if was == Some(from) {
            if let Op::Constant(lit) = &mut i.op {
                *lit = match lit {
                    Literal::Splat(s) => Literal::Splat(Scalar::from_f64(to, s.as_f64())),
                    Literal::Dense(d) => Literal::Dense(convert_data(d, to)),
                };
            }
        }
    }
    g.result_types = g
        .result_types
        .iter()
        .map(|t| change_type(t, from, to))
        .collect();
    g
}

fn convert_data(d: &Data, to: DType) -> Data {
    let scalars: Vec<Scalar> = match d {
        Data::Float(v) => v.iter().map(|x| Scalar::from_f64(to, x.0)).collect(),
        Data::Int(v) => v.iter().map(|x| Scalar::from_f64(to, *x as f64)).collect(),
        Data::Bool(v) => v
            .iter()
            .map(|x| Scalar::from_f64(to, *x as u8 as f64))
            .collect(),
    };
    if to.is_float() {
        Data::Float(scalars.iter().map(|s| FloatBits(s.as_f64())).collect())
    } else if to.is_int() {
        Data::Int(scalars.iter().map(|s| s.as_f64() as i64).collect())
    } else {
        Data::Bool(scalars.iter().map(|s| s.as_f64() != 0.0).collect())
    }
}

/// Ops of the same class as `op`, with the same attributes.
fn sibling_ops(op: &Op) -> Vec<Op> {
    match op {
        Op::Unary(u) => UnaryOp::ALL
            .iter()
            .filter(|x| *x != u)
            .map(|x| Op::Unary(*x))
            .collect(),
        Op::Binary(b) => BinaryOp::ALL
            .iter()
            .filter(|x| *x != b)
            .map(|x| Op::Binary(*x))
            .collect(),
        Op::Compare(c) => CmpOp::ALL
            .iter()
            .filter(|x| *x != c)
            .map(|x| Op::Compare(*x))
            .collect(),
        Op::Reduce {
            kind,
            axes,
            keep_dims,
        } => [ReduceKind::Sum, ReduceKind::Max]
            .into_iter()
            .filter(|k| k != kind)
            .map(|k| Op::Reduce {
                kind: k,
                axes: axes.clone(),
                keep_dims: *keep_dims,
            })
            .collect(),
        _ => Vec::new(),
    }
}
