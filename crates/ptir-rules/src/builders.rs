//! Native builders: registered functions that build ops in a rule's result (DRR's
//! `NativeCodeCall` that builds an op entirely, `createMyOp($_builder, $0, $1)`).
//!
//! A result term `(mean ?x (1))` names a builder with its value arguments (result terms,
//! first) and attribute arguments (after them). At instantiation the builder sees the value
//! arguments' types and the attributes' values, and returns the ops to build as plain data
//! ([`Built`]); [`crate::Rule::instantiate`] builds them through the engine's
//! [`crate::ResultBuilder`] after checking each op's type with the IR's typing rule, so a
//! builder works in both engines unchanged and cannot make an ill-typed program. A builder
//! that returns `None` declines: the rule does not apply there.

use crate::ast::{AttrKind, AttrValue};
use crate::ops::make_op;
use ptir_ir::{BinaryOp, Literal, Op, OpKey, ReduceKind, Scalar, Type};
use std::sync::Arc;

/// An operand of a built op: the call's `n`th value argument, or the `n`th op built before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltOperand {
    /// The call's value argument.
    Arg(usize),
    /// An op of the same [`Built`], earlier in its list.
    Op(usize),
}

/// One op a native builder makes.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltOp {
    /// The op (attributes included).
    pub op: Op,
    /// Its operands.
    pub operands: Vec<BuiltOperand>,
    /// Its result type (checked against the IR's typing rule when it is built).
    pub ty: Type,
}

/// What a native builder makes: ops in order, and which value the call stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    /// The ops, each from the call's value arguments and earlier ops.
    pub ops: Vec<BuiltOp>,
    /// The call's value.
    pub value: BuiltOperand,
}

/// A native builder's function: the value arguments' types and the attribute arguments'
/// values in, the ops to build out (`None`: the rule does not apply).
pub type BuilderFn = Arc<dyn Fn(&[Type], &[AttrValue]) -> Option<Built> + Send + Sync>;

/// A registered native builder.
#[derive(Clone)]
pub struct NativeBuilder {
    /// Number of value arguments (written first).
    pub values: usize,
    /// Kinds of the attribute arguments (written after the values).
    pub attrs: &'static [AttrKind],
    /// The function.
    pub call: BuilderFn,
    /// One line of documentation.
    pub doc: &'static str,
}

/// `mean ?x AXES`: the float mean of `?x` over `AXES`, dims dropped, as the ops an idiom
/// writes it: `div(reduce_sum(x, AXES, false), splat(n))`, `n` the number of elements summed.
fn mean(types: &[Type], attrs: &[AttrValue]) -> Option<Built> {
    let (x, AttrValue::Ints(axes)) = (types.first()?.as_tensor()?, attrs.first()?) else {
        return None;
    };
    if !x.dtype.is_float() {
        return None;
    }
    let count: usize = axes
        .iter()
        .map(|&a| x.shape.get(a).copied())
        .product::<Option<usize>>()?;
    if count == 0 {
        return None;
    }
    let x_ty = Type::Tensor(x.clone());
    let reduce_attrs = [AttrValue::Ints(axes.clone()), AttrValue::Bool(false)];
    let (sum, sum_ty) = make_op(
        OpKey::Reduce(ReduceKind::Sum),
        None,
        &reduce_attrs,
        &[&x_ty],
        None,
    )
    .ok()?;
    let n = Op::Constant(Literal::Splat(Scalar::from_f64(x.dtype, count as f64)));
    let (div, div_ty) = make_op(
        OpKey::Binary(BinaryOp::Div),
        None,
        &[] as &[AttrValue],
        &[&sum_ty, &sum_ty],
        None,
    )
    .ok()?;
    Some(Built {
        ops: vec![
            BuiltOp {
                op: sum,
                operands: vec![BuiltOperand::Arg(0)],
                ty: sum_ty.clone(),
            },
            BuiltOp {
                op: n,
                operands: Vec::new(),
                ty: sum_ty,
            },
            BuiltOp {
                op: div,
                operands: vec![BuiltOperand::Op(0), BuiltOperand::Op(1)],
                ty: div_ty,
            },
        ],
        value: BuiltOperand::Op(2),
    })
}

/// The tile of IREE's CPU matrix products: a free dim of a product that is long
/// ([`RAGGED_DOT_MIN`] or more) and not a multiple of it leaves a ragged last tile, which the
/// runtime runs at a fraction of the rate (`ptir_cost::RAGGED_DOT_EFFICIENCY`).
pub const DOT_TILE: usize = 8;

/// The length from which a free dim that is not a multiple of [`DOT_TILE`] slows a product
/// down (a short one is a single tile anyway).
pub const RAGGED_DOT_MIN: usize = 32;

/// Whether a free dim of `n` elements leaves a product a ragged tile (see [`DOT_TILE`]).
pub fn ragged_dot_dim(n: usize) -> bool {
    n >= RAGGED_DOT_MIN && !n.is_multiple_of(DOT_TILE)
}

/// How many free dims of a `dot_general` with dims `d` on these operands are ragged
/// ([`ragged_dot_dim`]).
pub fn ragged_free_dims(d: &ptir_ir::DotDims, operands: &[&Type]) -> usize {
    let count = |t: Option<&&Type>, batch: &[usize], contract: &[usize]| {
        t.and_then(|t| t.as_tensor()).map_or(0, |t| {
            (t.shape.iter().enumerate())
                .filter(|(i, &n)| !batch.contains(i) && !contract.contains(i) && ragged_dot_dim(n))
                .count()
        })
    };
    count(operands.first(), &d.lhs_batch, &d.lhs_contract)
        + count(operands.get(1), &d.rhs_batch, &d.rhs_contract)
}

/// `aligned-dot ?a ?b ?d`: the `dot_general` of `?a` and `?b` with dims `?d`, its ragged free
/// dims ([`ragged_dot_dim`]) padded with zeros to a multiple of
/// [`DOT_TILE`] and the result sliced back to its own shape. Each kept element
/// sums the same products in the same order: exact. Declines a product with no ragged free
/// dim, and one of another element type than integers and floats.
fn aligned_dot(types: &[Type], attrs: &[AttrValue]) -> Option<Built> {
    let (a, b) = (types.first()?.as_tensor()?, types.get(1)?.as_tensor()?);
    let AttrValue::Dims(d) = attrs.first()? else {
        return None;
    };
    if !(a.dtype.is_float() || a.dtype.is_int()) {
        return None;
    }
    let padding = |shape: &[usize], batch: &[usize], contract: &[usize]| -> Vec<i64> {
        (0..shape.len())
            .map(|i| match batch.contains(&i) || contract.contains(&i) {
                false if ragged_dot_dim(shape[i]) => {
                    (shape[i].next_multiple_of(DOT_TILE) - shape[i]) as i64
                }
                _ => 0,
            })
            .collect()
    };
    let high = [
        padding(&a.shape, &d.lhs_batch, &d.lhs_contract),
        padding(&b.shape, &d.rhs_batch, &d.rhs_contract),
    ];
    if high.iter().flatten().all(|&h| h == 0) {
        return None;
    }
    let mut ops = Vec::new();
    let zero = ptir_ir::TensorType::scalar(a.dtype);
    ops.push(BuiltOp {
        op: Op::Constant(Literal::Splat(Scalar::zero(a.dtype))),
        operands: Vec::new(),
        ty: Type::Tensor(zero),
    });
    let mut operands = Vec::new();
    for (arg, (t, high)) in [a, b].into_iter().zip(high).enumerate() {
        if high.iter().all(|&h| h == 0) {
            operands.push((BuiltOperand::Arg(arg), Type::Tensor(t.clone())));
            continue;
        }
        let shape: Vec<usize> = (t.shape.iter().zip(&high))
            .map(|(&n, &h)| n + h as usize)
            .collect();
        let ty = Type::Tensor(ptir_ir::TensorType::new(t.dtype, shape));
        let pad = ptir_ir::PadDims {
            low: vec![0; t.shape.len()],
            high,
            interior: vec![0; t.shape.len()],
        };
        ops.push(BuiltOp {
            op: Op::Pad(Box::new(pad)),
            operands: vec![BuiltOperand::Arg(arg), BuiltOperand::Op(0)],
            ty: ty.clone(),
        });
        operands.push((BuiltOperand::Op(ops.len() - 1), ty));
    }
    let dims = [AttrValue::Dims(d.clone())];
    let (dot, dot_ty) = make_op(
        OpKey::DotGeneral,
        None,
        &dims,
        &[&operands[0].1, &operands[1].1],
        None,
    )
    .ok()?;
    let (_, result) = make_op(
        OpKey::DotGeneral,
        None,
        &dims,
        &[&types[0], &types[1]],
        None,
    )
    .ok()?;
    let shape = result.as_tensor()?.shape.clone();
    ops.push(BuiltOp {
        op: dot,
        operands: vec![operands[0].0, operands[1].0],
        ty: dot_ty,
    });
    ops.push(BuiltOp {
        op: ptir_ir::SliceDims::op(vec![0; shape.len()], shape.clone(), vec![1; shape.len()]),
        operands: vec![BuiltOperand::Op(ops.len() - 1)],
        ty: result,
    });
    Some(Built {
        value: BuiltOperand::Op(ops.len() - 1),
        ops,
    })
}

/// `group-scaled-dot ?x ?c ?s ?r ?d ?bd`: a product `?x @ ?r` whose rhs `?r` is
/// `reshape(?c * broadcast(?s, ?bd))` merging the contracted dim of `?r` from two dims of
/// `?c` (groups and their rows: a group-wise quantized weight, `(w.reshape(K/G, G, N) * s[:,
/// None, :]).reshape(K, N)`), with the scale `?s` constant along the rows of a group, computed
/// as one product per group scaled after it: `reduce_sum(dot(x', ?c) * broadcast(?s), 0)` with
/// `x'` the lhs with its contracted dim split the same way and the groups as a batch dim. Each
/// output is the same sum of products of reals, grouped and scaled in another order (so a rule
/// using it is fast-math). Declines anything else: several contracting or batch dims, a merge
/// elsewhere, a scale varying within a group, a result dtype of its own.
fn group_scaled_dot(types: &[Type], attrs: &[AttrValue]) -> Option<Built> {
    let [x, c, s, r] = types else {
        return None;
    };
    let (x, c, s, r) = (
        x.as_tensor()?,
        c.as_tensor()?,
        s.as_tensor()?,
        r.as_tensor()?,
    );
    let (AttrValue::Dims(d), AttrValue::Ints(bd)) = (attrs.first()?, attrs.get(1)?) else {
        return None;
    };
    let ([cx], [rc], true, true, None) = (
        &d.lhs_contract[..],
        &d.rhs_contract[..],
        d.lhs_batch.is_empty(),
        d.rhs_batch.is_empty(),
        d.result_dtype,
    ) else {
        return None;
    };
    let (cx, rc) = (*cx, *rc);
    // ?c is ?r with the contracted dim split into (groups, rows).
    let split = |shape: &[usize], at: usize, groups: usize, rows: usize| {
        let mut out = shape[..at].to_vec();
        out.extend([groups, rows]);
        out.extend_from_slice(&shape[at + 1..]);
        out
    };
    let (groups, rows) = (*c.shape.get(rc)?, *c.shape.get(rc + 1)?);
    let same_dtypes = [x.dtype, c.dtype, r.dtype].iter().all(|&t| t == s.dtype);
    if !s.dtype.is_float()
        || !same_dtypes
        || groups < 2
        || c.shape != split(&r.shape, rc, groups, rows)
    {
        return None;
    }
    // The scale's dims in ?c: none along a group's rows.
    if bd.len() != s.shape.len() || bd.contains(&(rc + 1)) {
        return None;
    }
    let x_split = split(&x.shape, cx, groups, rows);
    let tensor = |shape: Vec<usize>| Type::Tensor(ptir_ir::TensorType::new(x.dtype, shape));
    let x_split_ty = tensor(x_split.clone());
    let dims = ptir_ir::DotDims {
        lhs_batch: vec![cx],
        rhs_batch: vec![rc],
        lhs_contract: vec![cx + 1],
        rhs_contract: vec![rc + 1],
        ..ptir_ir::DotDims::default()
    };
    let c_ty = Type::Tensor(c.clone());
    let (dot, dot_ty) = make_op(
        OpKey::DotGeneral,
        None,
        &[AttrValue::Dims(dims)],
        &[&x_split_ty, &c_ty],
        None,
    )
    .ok()?;
    // The product's dims: the groups, x's free dims, ?c's free dims; ?c's dim j (not the
    // groups nor the rows) is the product's `1 + x free + (its place among ?c's free dims)`.
    let x_free = x.shape.len() - 1;
    let in_product = |j: usize| match j {
        _ if j == rc => Some(0),
        _ if j < rc => Some(1 + x_free + j),
        _ if j > rc + 1 => Some(1 + x_free + j - 2),
        _ => None,
    };
    let scale_dims: Vec<usize> = bd.iter().map(|&j| in_product(j)).collect::<Option<_>>()?;
    let product_shape = dot_ty.as_tensor()?.shape.clone();
    let s_ty = Type::Tensor(s.clone());
    let (scale, scale_ty) = make_op(
        OpKey::Broadcast,
        None,
        &[AttrValue::Ints(scale_dims), AttrValue::Ints(product_shape)],
        &[&s_ty],
        None,
    )
    .ok()?;
    let (scaled, scaled_ty) = make_op(
        OpKey::Binary(BinaryOp::Mul),
        None,
        &[] as &[AttrValue],
        &[&dot_ty, &scale_ty],
        None,
    )
    .ok()?;
    let (sum, sum_ty) = make_op(
        OpKey::Reduce(ReduceKind::Sum),
        None,
        &[AttrValue::Ints(vec![0]), AttrValue::Bool(false)],
        &[&scaled_ty],
        None,
    )
    .ok()?;
    let (reshape, _) = make_op(
        OpKey::Reshape,
        None,
        &[AttrValue::Ints(x_split.clone())],
        &[&Type::Tensor(x.clone())],
        None,
    )
    .ok()?;
    let op = |op, operands, ty| BuiltOp { op, operands, ty };
    use BuiltOperand::{Arg, Op as Made};
    Some(Built {
        ops: vec![
            op(reshape, vec![Arg(0)], x_split_ty),
            op(dot, vec![Made(0), Arg(1)], dot_ty),
            op(scale, vec![Arg(2)], scale_ty),
            op(scaled, vec![Made(1), Made(2)], scaled_ty),
            op(sum, vec![Made(3)], sum_ty),
        ],
        value: BuiltOperand::Op(4),
    })
}

/// A standard builder: its name, value arguments, attribute kinds, doc and function, as
/// [`crate::Registry::add_builder`] takes them.
pub(crate) type StandardBuilder = (
    &'static str,
    usize,
    &'static [AttrKind],
    &'static str,
    fn(&[Type], &[AttrValue]) -> Option<Built>,
);

/// The standard builders, which [`crate::Registry::standard`] registers.
pub(crate) fn standard_builders() -> Vec<StandardBuilder> {
    vec![
        (
            "mean",
            1,
            &[AttrKind::Ints],
            "the float mean of value ?x over ?axes (dims dropped), built as div(reduce_sum(?x, ?axes, false), splat(n))",
            mean,
        ),
        (
            "aligned-dot",
            2,
            &[AttrKind::Dims],
            "the dot_general of values ?a and ?b with dims ?d, its ragged free dims padded with zeros to a multiple of 8 and the result sliced back",
            aligned_dot,
        ),
        (
            "group-scaled-dot",
            4,
            &[AttrKind::Dims, AttrKind::Ints],
            "x @ r, r = reshape(c * broadcast(s, bd)) a group-wise scaled weight (the contracted dim split into groups and rows, s constant along the rows), as reduce_sum(dot(x split the same way, c; groups batched) * broadcast(s), 0); declines anything else",
            group_scaled_dot,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ApplyError, Bindings, FnBuilder, Registry, RuleSet, Var};
    use ptir_ir::{DType, TensorType, UnaryOp};

    /// Instantiates the one rule of `text` (checked against `registry`) on a parameter of
    /// type `x`; returns the built instructions' ops or the error.
    fn build(registry: Registry, text: &str, x: Type) -> Result<Vec<String>, ApplyError> {
        let mut set = RuleSet::new(registry);
        set.add_source("b.rules", text).unwrap();
        let rule = &set.rules()[0];
        let mut f = FnBuilder::new();
        let p = f.param(x.clone());
        let mut b = Bindings::default();
        b.values.insert(Var("x".into()), p);
        let root = Type::Tensor(TensorType::new(DType::F32, vec![2]));
        rule.instantiate(&b, &[root], set.registry(), &mut f)?;
        Ok(f.insts()
            .iter()
            .map(|i| i.op.key().name().to_string())
            .collect())
    }

    #[test]
    fn mean_builds_three_ops_and_declines_integers() {
        let rule = "(rule r (neg ?x) => (mean ?x (1)))";
        let f32x = Type::Tensor(TensorType::new(DType::F32, vec![2, 4]));
        assert_eq!(
            build(Registry::standard(), rule, f32x).unwrap(),
            ["reduce_sum", "constant", "div"]
        );
        let i32x = Type::Tensor(TensorType::new(DType::I32, vec![2, 4]));
        assert_eq!(
            build(Registry::standard(), rule, i32x),
            Err(ApplyError::NativeDeclined("mean".into()))
        );
    }

    #[test]
    fn an_ill_typed_built_op_is_an_error_not_a_program() {
        let mut registry = Registry::standard();
        // Claims neg of f32[2,4] is f32[2].
        registry.add_builder("bad-neg", 1, &[], "wrong on purpose", |types, _| {
            Some(Built {
                ops: vec![BuiltOp {
                    op: Op::Unary(UnaryOp::Neg),
                    operands: vec![BuiltOperand::Arg(0)],
                    ty: Type::Tensor(TensorType::new(types[0].as_tensor()?.dtype, vec![2])),
                }],
                value: BuiltOperand::Op(0),
            })
        });
        let f32x = Type::Tensor(TensorType::new(DType::F32, vec![2, 4]));
        let err = build(registry, "(rule r (neg ?x) => (bad-neg ?x))", f32x).unwrap_err();
        assert!(
            err.to_string().contains("`bad-neg` built an ill-typed op"),
            "{err}"
        );
    }
}
