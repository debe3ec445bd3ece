//! Folders: an op whose value is known without running it (MLIR's `fold` hooks).
//!
//! Three kinds of fold, tried in this order:
//!
//! 1. **Constant operands.** Every op but `call`, `rng`, the region ops and tuples is computed
//!    from constant operands *by the interpreter's own code*: splat operands of elementwise
//!    ops go through the scalar kernels ([`unary_scalar`], [`binary_scalar`], …) once, data
//!    movement of a splat is a splat, everything else runs [`eval_op`] on the expanded
//!    tensors. So a folded program computes bit for bit what the interpreter computes. An
//!    error (integer division or remainder by zero, a malformed op) means no fold: the error
//!    stays in the program, where it belongs. Folds whose operands or result would exceed
//!    [`FOLD_ELEMENT_LIMIT`] elements are skipped, and so are folds whose dense result is
//!    larger than their dense operands ([`dense_fold_fits`]: a broadcast or an outer product
//!    stays computed); a splat result is always fine. `iota` is never folded.
//! 2. **Identities** MLIR puts in fold hooks, only where they are exact in IEEE arithmetic:
//!    `x * 1`, `x / 1`, `x + -0.0` and `x - +0.0` (floats; `+0`/`-0` for integers, where
//!    `x - x`, `x * 0` and `x % 1` fold to zero too), `max(x, x)`, `max(x, -inf)`,
//!    `min(x, +inf)` (and the integer bounds), `and`/`or` with themselves, all-ones and
//!    zero, `neg(neg x)`, `not(not x)`, `abs(abs x)`, `select` with a constant or
//!    twice the same choice, integer comparisons of a value with itself, and data movement
//!    that moves nothing (`cast`, `reshape`, `slice` to the same type, `transpose` and
//!    `broadcast` by the identity to the same type, a one-operand `concat`, a reduction over
//!    size-1 axes that keeps them — `reduce_max` and `reduce_prod` always, `reduce_sum` for integers only, since
//!    `0 + -0.0` is `+0.0`), `tuple_get` of a
//!    `tuple`, and, in place, `reshape(reshape x)` → `reshape x`. `x + 0.0` is *not* folded
//!    (`-0.0 + 0.0 = +0.0`), nor `x * 0.0` (NaN, infinities, signs).
//! 3. **Constants to the right** of a commutative op (`add`, `mul`, `max`, `min`, `and`,
//!    `or`), in place, as MLIR's fold of commutative ops does: `c * x` becomes `x * c`, so the
//!    right-hand identities and the rules written with the constant on the right see it, and
//!    CSE merges `c * x` with `x * c`.

use crate::ir::Ir;
use ptir_ir::{
    binary_scalar, bitcast_scalar, cast_scalar, compare_scalar, dense_fold_fits, eval_op,
    unary_scalar, wrap_int, BinaryOp, CmpOp, DType, InstId, Instruction, Literal, Op, OpKey,
    ReduceKind, Scalar, Tensor, Type, UnaryOp, Value, ValueId,
};

pub use ptir_ir::FOLD_ELEMENT_LIMIT;

/// What folding an op gives.
#[derive(Clone, Debug, PartialEq)]
pub enum Fold {
    /// Nothing is known.
    None,
    /// The op's value is this existing value (of the same type).
    Value(ValueId),
    /// The op's value is this constant, to be materialized at the op.
    Constant(Literal),
    /// The op is simplified in place: these are its new operands.
    InPlace {
        /// The new operands.
        operands: Vec<ValueId>,
    },
}

/// Folds instruction `i`; see the module docs. Constants are never folded.
///
/// ```
/// use ptir_greedy::{fold, Fold, ProgramContext, ProgramRewriter};
/// use ptir_ir::{InstId, Literal, Scalar};
/// let p = ptir_ir::parse("func @f() -> (f32[2]) {
///   %0 = constant splat(1.5) : f32[2]
///   %1 = constant splat(2.0) : f32[2]
///   %2 = mul %0, %1 : f32[2]
///   return %2
/// }").unwrap();
/// let cx = ProgramContext::new(&p);
/// let rw = ProgramRewriter::new(p.functions[0].clone(), &cx).unwrap();
/// assert_eq!(fold(&rw, InstId(2)), Fold::Constant(Literal::Splat(Scalar::Float(3.0))));
/// ```
pub fn fold(ir: &Ir<'_>, i: InstId) -> Fold {
    if matches!(ir.op_key(i), None | Some(OpKey::Constant)) {
        return Fold::None;
    }
    let Some(inst) = ir.inst(i) else {
        return Fold::None;
    };
    match fold_constants(ir, inst) {
        Some(lit) => Fold::Constant(lit),
        None => fold_identity(ir, inst),
    }
}

/// The splat scalar of `v` if a constant whose elements are all equal defines it.
pub(crate) fn splat_of(ir: &Ir<'_>, v: ValueId) -> Option<Scalar> {
    ir.constant(v)?.splat_value()
}

fn dtype_of(ir: &Ir<'_>, v: ValueId) -> Option<DType> {
    ir.type_of(v)?.as_tensor().map(|t| t.dtype)
}

fn elements(ty: &Type) -> usize {
    ty.as_tensor().map_or(usize::MAX, |t| t.num_elements())
}

/// Folds an op whose operands are all constants.
fn fold_constants(ir: &Ir<'_>, inst: &Instruction) -> Option<Literal> {
    if inst.operands.is_empty()
        || matches!(
            inst.op,
            Op::Call { .. }
                | Op::Rng { .. }
                | Op::RngBitGenerator { .. }
                | Op::Cond { .. }
                | Op::While { .. }
                | Op::Scan { .. }
                | Op::Tuple
                | Op::TupleGet { .. }
                | Op::OptimizationBarrier
        )
    {
        return None;
    }
    let lits = inst
        .operands
        .iter()
        .map(|&v| Some((ir.constant(v)?, ir.type_of(v)?)))
        .collect::<Option<Vec<_>>>()?;
    inst.ty.as_tensor()?;
    let splats: Option<Vec<Scalar>> = lits.iter().map(|(l, _)| l.splat_value()).collect();
    if let Some(s) = splats.and_then(|s| fold_splats(ir, inst, &s)) {
        return Some(Literal::Splat(s));
    }
    fold_dense(inst, &lits)
}

/// Folds an op whose operands are splat constants, when the result is a splat computed by
/// one kernel call per element kind.
fn fold_splats(ir: &Ir<'_>, inst: &Instruction, s: &[Scalar]) -> Option<Scalar> {
    let d = dtype_of(ir, *inst.operands.first()?)?;
    match (&inst.op, s) {
        (Op::Unary(u), [x]) => unary_scalar(*u, d, *x).ok(),
        (Op::Binary(b), [x, y]) => binary_scalar(*b, d, *x, *y).ok(),
        (Op::Compare(c), [x, y]) => compare_scalar(*c, d, *x, *y).ok().map(Scalar::Bool),
        (Op::Select, [Scalar::Bool(p), t, f]) => Some(if *p { *t } else { *f }),
        (Op::Cast, [x]) => Some(cast_scalar(*x, d, inst.ty.as_tensor()?.dtype)),
        (Op::Bitcast, [x]) => bitcast_scalar(*x, d, inst.ty.as_tensor()?.dtype).ok(),
        (
            Op::Reshape
            | Op::Transpose { .. }
            | Op::Broadcast { .. }
            | Op::Slice(_)
            | Op::Reverse { .. },
            [x],
        ) => Some(*x),
        (Op::Concat { .. }, [x, rest @ ..]) if rest.iter().all(|y| y == x) => Some(*x),
        _ => None,
    }
}

/// Folds by running [`eval_op`] on the expanded operands, keeping a dense result only where
/// [`dense_fold_fits`] allows it.
fn fold_dense(inst: &Instruction, lits: &[(&Literal, &Type)]) -> Option<Literal> {
    let too_big = |ty: &Type| elements(ty) > FOLD_ELEMENT_LIMIT;
    if too_big(&inst.ty) || lits.iter().any(|(_, ty)| too_big(ty)) {
        return None;
    }
    let dense_elements = lits
        .iter()
        .filter(|(lit, _)| lit.splat_value().is_none())
        .map(|(_, ty)| elements(ty))
        .sum();
    let values = lits
        .iter()
        .map(|(lit, ty)| Some(Value::Tensor(lit.to_tensor(ty.as_tensor()?))))
        .collect::<Option<Vec<_>>>()?;
    let refs: Vec<&Value> = values.iter().collect();
    match eval_op(&inst.op, &refs, &inst.ty).ok()? {
        Value::Tensor(t) => match literal_of(t) {
            Literal::Dense(d) if !dense_fold_fits(d.len(), dense_elements) => None,
            lit => Some(lit),
        },
        Value::Tuple(_) => None,
    }
}

/// A tensor as a literal: a splat if every element is equal.
pub(crate) fn literal_of(t: Tensor) -> Literal {
    let first = t.data.iter().next();
    match first {
        Some(f) if t.data.iter().all(|s| s == f) => Literal::Splat(f),
        _ => Literal::Dense(t.data),
    }
}

/// The identities of the module docs.
fn fold_identity(ir: &Ir<'_>, inst: &Instruction) -> Fold {
    let ops = &inst.operands;
    let same_type = |v: ValueId| ir.type_of(v) == Some(&inst.ty);
    let keep = |v: ValueId| {
        if same_type(v) {
            Fold::Value(v)
        } else {
            Fold::None
        }
    };
    match (&inst.op, &ops[..]) {
        (Op::Binary(b), &[x, y]) => binary_identity(ir, *b, x, y),
        (Op::Unary(u), &[x]) => unary_identity(ir, *u, x),
        (Op::Compare(c), &[x, y]) if x == y => compare_self(ir, *c, x),
        (Op::Select, &[p, t, f]) => match splat_of(ir, p) {
            Some(Scalar::Bool(true)) => keep(t),
            Some(Scalar::Bool(false)) => keep(f),
            _ if t == f => keep(t),
            _ => Fold::None,
        },
        (Op::Cast | Op::Bitcast | Op::Slice(_), &[x]) => keep(x),
        (Op::Broadcast { dims }, &[x]) if is_identity(dims) => keep(x),
        (Op::Reshape, &[x]) => match ir.inst_of(x).map(|i| (ir.op(i), ir.operands(i))) {
            _ if same_type(x) => Fold::Value(x),
            Some((Op::Reshape, &[inner])) => Fold::InPlace {
                operands: vec![inner],
            },
            _ => Fold::None,
        },
        (Op::Transpose { perm }, &[x]) if is_identity(perm) => keep(x),
        (Op::Concat { .. }, &[x]) => keep(x),
        (Op::Reduce { kind, .. }, &[x]) => match (kind, dtype_of(ir, x)) {
            // `max(-inf, x)` and `1 * x` are `x` exactly; `+0 + -0` is not.
            (ReduceKind::Max | ReduceKind::Prod, _) => keep(x),
            (ReduceKind::Sum, Some(d)) if d.is_int() => keep(x),
            _ => Fold::None,
        },
        (Op::TupleGet { index }, &[t]) => match ir.inst_of(t).map(|i| (ir.op(i), ir.operands(i))) {
            Some((Op::Tuple, elems)) => elems.get(*index).map_or(Fold::None, |&v| keep(v)),
            _ => Fold::None,
        },
        _ => Fold::None,
    }
}

fn is_identity(perm: &[usize]) -> bool {
    perm.iter().enumerate().all(|(i, &p)| i == p)
}

fn unary_identity(ir: &Ir<'_>, u: UnaryOp, x: ValueId) -> Fold {
    let Some(def) = ir.inst_of(x) else {
        return Fold::None;
    };
    match (u, ir.op_key(def)) {
        (UnaryOp::Neg, Some(OpKey::Unary(UnaryOp::Neg)))
        | (UnaryOp::Not, Some(OpKey::Unary(UnaryOp::Not))) => match ir.operands(def) {
            &[inner] => Fold::Value(inner),
            _ => Fold::None,
        },
        (UnaryOp::Abs, Some(OpKey::Unary(UnaryOp::Abs))) => Fold::Value(x),
        _ => Fold::None,
    }
}

/// `x cmp x` on integers and bools (floats are not reflexive: NaN).
fn compare_self(ir: &Ir<'_>, c: CmpOp, x: ValueId) -> Fold {
    match dtype_of(ir, x) {
        Some(d) if !d.is_float() => {
            let truth = matches!(c, CmpOp::Eq | CmpOp::Le | CmpOp::Ge);
            Fold::Constant(Literal::Splat(Scalar::Bool(truth)))
        }
        _ => Fold::None,
    }
}

fn binary_identity(ir: &Ir<'_>, b: BinaryOp, x: ValueId, y: ValueId) -> Fold {
    let Some(d) = dtype_of(ir, x) else {
        return Fold::None;
    };
    if x == y
        && matches!(
            b,
            BinaryOp::Max | BinaryOp::Min | BinaryOp::And | BinaryOp::Or
        )
    {
        return Fold::Value(x);
    }
    if x == y && d.is_int() && b == BinaryOp::Sub {
        return Fold::Constant(Literal::Splat(Scalar::zero(d)));
    }
    let (cx, cy) = (splat_of(ir, x), splat_of(ir, y));
    // Right-hand constants first; commutative ops also with the constant on the left.
    if let Some(f) = cy.and_then(|c| right_identity(b, d, x, c)) {
        return f;
    }
    if !b.is_commutative() {
        return Fold::None;
    }
    if let Some(f) = cx.and_then(|c| right_identity(b, d, y, c)) {
        return f;
    }
    if ir.constant(x).is_some() && ir.constant(y).is_none() {
        return Fold::InPlace {
            operands: vec![y, x],
        };
    }
    Fold::None
}

/// `x b c` for a splat constant `c`, when it is exactly `x` or a constant.
fn right_identity(b: BinaryOp, d: DType, x: ValueId, c: Scalar) -> Option<Fold> {
    let is = |v: Scalar| c == v;
    let konst = |s: Scalar| Some(Fold::Constant(Literal::Splat(s)));
    let id = Some(Fold::Value(x));
    if d.is_float() {
        let f = |v: f64| Scalar::Float(v);
        return match b {
            BinaryOp::Add if is(f(-0.0)) => id,
            BinaryOp::Sub if is(f(0.0)) => id,
            BinaryOp::Mul | BinaryOp::Div if is(f(1.0)) => id,
            BinaryOp::Max if is(f(f64::NEG_INFINITY)) => id,
            BinaryOp::Min if is(f(f64::INFINITY)) => id,
            _ => None,
        };
    }
    if d == DType::Bool {
        return match (b, c) {
            (BinaryOp::And, Scalar::Bool(true)) | (BinaryOp::Or, Scalar::Bool(false)) => id,
            (BinaryOp::And, Scalar::Bool(false)) | (BinaryOp::Or, Scalar::Bool(true)) => konst(c),
            _ => None,
        };
    }
    let (min, max) = (Scalar::int_min(d)?, Scalar::int_max(d)?);
    let int = Scalar::Int;
    // Every bit set: -1 of a signed dtype, the maximum of an unsigned one.
    let ones = int(wrap_int(d, -1));
    match b {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Or if is(int(0)) => id,
        BinaryOp::Mul | BinaryOp::Div if is(int(1)) => id,
        BinaryOp::Mul | BinaryOp::And if is(int(0)) => konst(int(0)),
        BinaryOp::Rem if is(int(1)) => konst(int(0)),
        BinaryOp::And if is(ones) => id,
        BinaryOp::Or if is(ones) => konst(ones),
        BinaryOp::Max if is(min) => id,
        BinaryOp::Max if is(max) => konst(c),
        BinaryOp::Min if is(max) => id,
        BinaryOp::Min if is(min) => konst(c),
        _ => None,
    }
}

/// The tensor a literal of type `ty` stands for (for tests and callers comparing folds with
/// the interpreter).
pub fn literal_tensor(lit: &Literal, ty: &Type) -> Option<Tensor> {
    Some(lit.to_tensor(ty.as_tensor()?))
}
