//! How PTIR ops look in rules: operand counts, attribute slots, and the two conversions
//! engines need — reading the attributes of an existing op ([`op_attrs`]) and building an op
//! from attribute values ([`make_op`]).
//!
//! In a rule an op is written `(name operands... attributes...)`, except `concat`, whose axis
//! comes first (`(concat AXIS ops...)`, any number of operands), `call` (`(call @f ops...)`)
//! and `tuple` (any number of operands). The attributes that are part of the result type in
//! PTIR (the dtype of `cast`, the shape of `reshape` and `broadcast`) are slots here, so that
//! rules can bind and build them.

use crate::ast::{AttrKind, AttrValue};
use ptir_ir::{
    infer_type, ConvDims, DType, DotDims, GatherDims, IndexDims, InferContext, Op, OpKey, PadDims,
    ReduceWindowDims, TensorType, Type,
};
use std::borrow::Borrow;

/// The operand count (`None`: any number, at least one) and the attribute slots of an op kind
/// usable in rules; `None` for kinds rules cannot mention (`constant` — use `splat` —, `rng`
/// and the region ops).
pub fn attr_slots(key: OpKey) -> Option<(Option<usize>, &'static [AttrKind])> {
    use AttrKind::*;
    Some(match key {
        OpKey::Unary(_) => (Some(1), &[]),
        OpKey::Binary(_) | OpKey::Compare(_) => (Some(2), &[]),
        OpKey::DynamicSlice => (None, &[Ints]),
        OpKey::DynamicUpdateSlice => (None, &[]),
        OpKey::Select => (Some(3), &[]),
        OpKey::Cast | OpKey::Bitcast => (Some(1), &[DType]),
        OpKey::Reshape => (Some(1), &[Ints]),
        OpKey::Transpose => (Some(1), &[Ints]),
        OpKey::Broadcast => (Some(1), &[Ints, Ints]),
        OpKey::Slice => (Some(1), &[Ints, Ints, Ints]),
        OpKey::Concat => (None, &[Int]),
        OpKey::DotGeneral => (Some(2), &[Dims]),
        OpKey::Convolution => (Some(2), &[Conv]),
        OpKey::ReduceWindow(_) => (Some(2), &[Window]),
        OpKey::SelectAndScatter(_) => (Some(3), &[Window]),
        OpKey::Pad => (Some(2), &[Pad]),
        OpKey::Gather => (Some(2), &[Gather]),
        OpKey::Scatter(_) => (Some(3), &[Index]),
        OpKey::Reverse => (Some(1), &[Ints]),
        OpKey::Reduce(_) => (Some(1), &[Ints, Bool]),
        OpKey::MultiReduce(_) => (None, &[Ints, Bool]),
        OpKey::ArgReduce(_) => (Some(4), &[Ints]),
        OpKey::Sort => (None, &[Int, Bool, Bool, Bool, Int]),
        OpKey::TopK => (Some(1), &[Int]),
        OpKey::ReducePrecision => (Some(1), &[Int, Int]),
        OpKey::Call | OpKey::Tuple | OpKey::OptimizationBarrier => (None, &[]),
        OpKey::TupleGet => (Some(1), &[Int]),
        OpKey::Constant
        | OpKey::Iota
        | OpKey::BitcastResize
        | OpKey::Rng
        | OpKey::RngBitGenerator
        | OpKey::Cond
        | OpKey::While
        | OpKey::Scan => return None,
    })
}

/// The names of an op kind's attribute slots, in slot order (as [`attr_slots`] gives them):
/// the text format's keyword where a slot is one attribute (`perm`, `axes`, `keep_dims`), and
/// one name for a slot holding several (`dims` of `dot_general`: its batch and contracting
/// dimensions, result dtype and precision; `conv`, `window`, `padding`, `gather`, `scatter`).
/// `.pat` files name attributes by them (`ignore-attrs`, `match-attrs`).
pub fn attr_names(key: OpKey) -> &'static [&'static str] {
    match key {
        OpKey::Cast | OpKey::Bitcast => &["dtype"],
        OpKey::Reshape => &["shape"],
        OpKey::Transpose => &["perm"],
        OpKey::DynamicSlice => &["sizes"],
        OpKey::Broadcast => &["dims", "shape"],
        OpKey::Slice => &["start", "limit", "stride"],
        OpKey::Concat => &["axis"],
        OpKey::DotGeneral => &["dims"],
        OpKey::Convolution => &["conv"],
        OpKey::ReduceWindow(_) | OpKey::SelectAndScatter(_) => &["window"],
        OpKey::Pad => &["padding"],
        OpKey::Gather => &["gather"],
        OpKey::Scatter(_) => &["scatter"],
        OpKey::Reverse => &["dims"],
        OpKey::Reduce(_) | OpKey::MultiReduce(_) => &["axes", "keep_dims"],
        OpKey::ArgReduce(_) => &["axes"],
        OpKey::Sort => &["dim", "descending", "stable", "total_order", "keys"],
        OpKey::TopK => &["k"],
        OpKey::ReducePrecision => &["exponent_bits", "mantissa_bits"],
        OpKey::TupleGet => &["index"],
        _ => &[],
    }
}

/// The attribute values of an existing op with result type `ty`, in slot order.
pub fn op_attrs(op: &Op, ty: &Type) -> Vec<AttrValue> {
    let shape = || AttrValue::Ints(ty.as_tensor().map(|t| t.shape.clone()).unwrap_or_default());
    match op {
        Op::Cast | Op::Bitcast => ty
            .as_tensor()
            .map(|t| vec![AttrValue::DType(t.dtype)])
            .unwrap_or_default(),
        Op::Reshape => vec![shape()],
        Op::Transpose { perm } => vec![AttrValue::Ints(perm.clone())],
        Op::DynamicSlice { sizes } => vec![AttrValue::Ints(sizes.clone())],
        Op::Broadcast { dims } => vec![AttrValue::Ints(dims.clone()), shape()],
        Op::Slice(slice) => vec![
            AttrValue::Ints(slice.start.clone()),
            AttrValue::Ints(slice.limit.clone()),
            AttrValue::Ints(slice.stride.clone()),
        ],
        Op::Concat { axis } => vec![AttrValue::Int(*axis)],
        Op::DotGeneral(d) => vec![AttrValue::Dims((**d).clone())],
        Op::Convolution(c) => vec![AttrValue::Conv(c.clone())],
        Op::ReduceWindow { dims, .. } | Op::SelectAndScatter { dims, .. } => {
            vec![AttrValue::Window(dims.clone())]
        }
        Op::Pad(p) => vec![AttrValue::Pad(p.clone())],
        Op::Gather(g) => vec![AttrValue::Gather(g.clone())],
        Op::Scatter { dims, .. } => vec![AttrValue::Index(dims.clone())],
        Op::Reverse { dims } => vec![AttrValue::Ints(dims.clone())],
        Op::Reduce {
            axes, keep_dims, ..
        }
        | Op::MultiReduce {
            axes, keep_dims, ..
        } => vec![AttrValue::Ints(axes.clone()), AttrValue::Bool(*keep_dims)],
        Op::TupleGet { index } => vec![AttrValue::Int(*index)],
        Op::ArgReduce { axes, .. } => vec![AttrValue::Ints(axes.clone())],
        Op::Sort {
            dim,
            keys,
            descending,
            stable,
            total_order,
        } => vec![
            AttrValue::Int(*dim),
            AttrValue::Bool(*descending),
            AttrValue::Bool(*stable),
            AttrValue::Bool(*total_order),
            AttrValue::Int(*keys),
        ],
        Op::TopK { k } => vec![AttrValue::Int(*k)],
        Op::ReducePrecision {
            exponent_bits,
            mantissa_bits,
        } => vec![
            AttrValue::Int(*exponent_bits),
            AttrValue::Int(*mantissa_bits),
        ],
        _ => vec![],
    }
}

/// An attribute value of the subject, borrowed (no allocation per query).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AttrRef<'a> {
    /// See [`AttrValue::Ints`].
    Ints(&'a [usize]),
    /// See [`AttrValue::Int`].
    Int(usize),
    /// See [`AttrValue::Bool`].
    Bool(bool),
    /// See [`AttrValue::DType`].
    DType(DType),
    /// See [`AttrValue::Dims`].
    Dims(&'a DotDims),
    /// See [`AttrValue::Number`].
    Number(f64),
    /// See [`AttrValue::Conv`].
    Conv(&'a ConvDims),
    /// See [`AttrValue::Window`].
    Window(&'a ReduceWindowDims),
    /// See [`AttrValue::Pad`].
    Pad(&'a PadDims),
    /// See [`AttrValue::Gather`].
    Gather(&'a GatherDims),
    /// See [`AttrValue::Index`].
    Index(&'a IndexDims),
}

impl<'a> From<&'a AttrValue> for AttrRef<'a> {
    fn from(a: &'a AttrValue) -> Self {
        match a {
            AttrValue::Ints(x) => AttrRef::Ints(x),
            AttrValue::Int(x) => AttrRef::Int(*x),
            AttrValue::Bool(x) => AttrRef::Bool(*x),
            AttrValue::DType(x) => AttrRef::DType(*x),
            AttrValue::Dims(x) => AttrRef::Dims(x),
            AttrValue::Number(x) => AttrRef::Number(*x),
            AttrValue::Conv(x) => AttrRef::Conv(x),
            AttrValue::Window(x) => AttrRef::Window(x),
            AttrValue::Pad(x) => AttrRef::Pad(x),
            AttrValue::Gather(x) => AttrRef::Gather(x),
            AttrValue::Index(x) => AttrRef::Index(x),
        }
    }
}

/// Attribute slot `slot` of an existing op with result type `ty`, borrowed: what
/// [`op_attrs`] gives at that position, without building the list (the pattern index asks
/// this for every op it looks at).
pub fn op_attr<'a>(op: &'a Op, ty: &'a Type, slot: usize) -> Option<AttrRef<'a>> {
    let shape = || ty.as_tensor().map(|t| AttrRef::Ints(&t.shape));
    match (op, slot) {
        (Op::Cast | Op::Bitcast, 0) => ty.as_tensor().map(|t| AttrRef::DType(t.dtype)),
        (Op::Reshape, 0) | (Op::Broadcast { .. }, 1) => shape(),
        (Op::Transpose { perm: xs }, 0)
        | (Op::DynamicSlice { sizes: xs }, 0)
        | (Op::Broadcast { dims: xs }, 0)
        | (Op::Reverse { dims: xs }, 0)
        | (Op::ArgReduce { axes: xs, .. }, 0)
        | (Op::Reduce { axes: xs, .. }, 0)
        | (Op::MultiReduce { axes: xs, .. }, 0) => Some(AttrRef::Ints(xs)),
        (Op::Slice(s), 0) => Some(AttrRef::Ints(&s.start)),
        (Op::Slice(s), 1) => Some(AttrRef::Ints(&s.limit)),
        (Op::Slice(s), 2) => Some(AttrRef::Ints(&s.stride)),
        (Op::Concat { axis: i }, 0)
        | (Op::TupleGet { index: i }, 0)
        | (Op::Sort { dim: i, .. }, 0)
        | (Op::TopK { k: i }, 0)
        | (
            Op::ReducePrecision {
                exponent_bits: i, ..
            },
            0,
        )
        | (
            Op::ReducePrecision {
                mantissa_bits: i, ..
            },
            1,
        ) => Some(AttrRef::Int(*i)),
        (Op::Sort { descending, .. }, 1) => Some(AttrRef::Bool(*descending)),
        (Op::Sort { stable, .. }, 2) => Some(AttrRef::Bool(*stable)),
        (Op::Sort { total_order, .. }, 3) => Some(AttrRef::Bool(*total_order)),
        (Op::Sort { keys, .. }, 4) => Some(AttrRef::Int(*keys)),
        (Op::DotGeneral(d), 0) => Some(AttrRef::Dims(d)),
        (Op::Convolution(c), 0) => Some(AttrRef::Conv(c)),
        (Op::ReduceWindow { dims, .. }, 0) | (Op::SelectAndScatter { dims, .. }, 0) => {
            Some(AttrRef::Window(dims))
        }
        (Op::Pad(p), 0) => Some(AttrRef::Pad(p)),
        (Op::Gather(g), 0) => Some(AttrRef::Gather(g)),
        (Op::Scatter { dims, .. }, 0) => Some(AttrRef::Index(dims)),
        (Op::Reduce { keep_dims, .. }, 1) | (Op::MultiReduce { keep_dims, .. }, 1) => {
            Some(AttrRef::Bool(*keep_dims))
        }
        _ => None,
    }
}

fn ints(a: Option<&AttrValue>) -> Result<Vec<usize>, String> {
    match a {
        Some(AttrValue::Ints(xs)) => Ok(xs.clone()),
        other => Err(format!("expected an index list, found {other:?}")),
    }
}

fn int(a: Option<&AttrValue>) -> Result<usize, String> {
    match a {
        Some(AttrValue::Int(i)) => Ok(*i),
        other => Err(format!("expected an index, found {other:?}")),
    }
}

fn flag(a: Option<&AttrValue>) -> Result<bool, String> {
    match a {
        Some(AttrValue::Bool(b)) => Ok(*b),
        other => Err(format!("expected true or false, found {other:?}")),
    }
}

/// Builds an op of kind `key` from attribute values (slot order) and operand types, and infers
/// its result type (the attributes owned or borrowed). `annotated` is the type to give ops whose type is not determined by their
/// operands and attributes (`call` of a polymorphic extern); an error says what is wrong.
pub fn make_op<A: Borrow<AttrValue>>(
    key: OpKey,
    callee: Option<&str>,
    attrs: &[A],
    operands: &[&Type],
    annotated: Option<&Type>,
) -> Result<(Op, Type), String> {
    let (op, annotation) = make_untyped_op(key, callee, attrs, operands, annotated)?;
    let cx = InferContext {
        annotated: annotation.as_ref(),
        callee: None,
        region_results: &[],
    };
    let ty = infer_type(&op, operands, &cx)?;
    Ok((op, ty))
}

/// [`make_op`] without inferring the result type: the op, and the type it is annotated with
/// where its operands and attributes do not determine it. For a caller that knows the op is
/// well typed and its type (saturation's analysis has them for every e-node it typed).
pub fn make_untyped_op<A: Borrow<AttrValue>>(
    key: OpKey,
    callee: Option<&str>,
    attrs: &[A],
    operands: &[&Type],
    annotated: Option<&Type>,
) -> Result<(Op, Option<Type>), String> {
    let a = |i: usize| attrs.get(i).map(Borrow::borrow);
    let first = operands.first().and_then(|t| t.as_tensor());
    let with = |dtype: Option<ptir_ir::DType>, shape: Option<Vec<usize>>| -> Result<Type, String> {
        let x = first.ok_or("the operand must be a tensor")?;
        Ok(TensorType::new(
            dtype.unwrap_or(x.dtype),
            shape.unwrap_or_else(|| x.shape.clone()),
        )
        .into())
    };
    let (op, annotation) = match key {
        OpKey::Unary(u) => (Op::Unary(u), None),
        OpKey::Binary(b) => (Op::Binary(b), None),
        OpKey::Compare(c) => (Op::Compare(c), None),
        OpKey::Select => (Op::Select, None),
        OpKey::DynamicSlice => (Op::DynamicSlice { sizes: ints(a(0))? }, None),
        OpKey::DynamicUpdateSlice => (Op::DynamicUpdateSlice, None),
        OpKey::Tuple => (Op::Tuple, None),
        OpKey::OptimizationBarrier => (Op::OptimizationBarrier, None),
        OpKey::Cast | OpKey::Bitcast => match a(0) {
            Some(AttrValue::DType(d)) => {
                let op = if key == OpKey::Cast {
                    Op::Cast
                } else {
                    Op::Bitcast
                };
                (op, Some(with(Some(*d), None)?))
            }
            other => return Err(format!("{key} needs a dtype, found {other:?}")),
        },
        OpKey::Reshape => (Op::Reshape, Some(with(None, Some(ints(a(0))?))?)),
        OpKey::Transpose => (Op::Transpose { perm: ints(a(0))? }, None),
        OpKey::Broadcast => (
            Op::Broadcast { dims: ints(a(0))? },
            Some(with(None, Some(ints(a(1))?))?),
        ),
        OpKey::Slice => (
            ptir_ir::SliceDims::op(ints(a(0))?, ints(a(1))?, ints(a(2))?),
            None,
        ),
        OpKey::Concat => (Op::Concat { axis: int(a(0))? }, None),
        OpKey::DotGeneral => match a(0) {
            Some(AttrValue::Dims(d)) => (Op::DotGeneral(Box::new(d.clone())), None),
            other => return Err(format!("dot_general needs dims, found {other:?}")),
        },
        OpKey::Convolution => match a(0) {
            Some(AttrValue::Conv(c)) => (Op::Convolution(c.clone()), None),
            other => return Err(format!("convolution needs its attributes, found {other:?}")),
        },
        OpKey::ReduceWindow(kind) => match a(0) {
            Some(AttrValue::Window(w)) => (
                Op::ReduceWindow {
                    kind,
                    dims: w.clone(),
                },
                None,
            ),
            other => return Err(format!("reduce_window needs its window, found {other:?}")),
        },
        OpKey::SelectAndScatter(select) => match a(0) {
            Some(AttrValue::Window(w)) => (
                Op::SelectAndScatter {
                    select,
                    dims: w.clone(),
                },
                None,
            ),
            other => {
                return Err(format!(
                    "select_and_scatter needs its window, found {other:?}"
                ))
            }
        },
        OpKey::Pad => match a(0) {
            Some(AttrValue::Pad(p)) => (Op::Pad(p.clone()), None),
            other => return Err(format!("pad needs its padding, found {other:?}")),
        },
        OpKey::Reverse => (Op::Reverse { dims: ints(a(0))? }, None),
        OpKey::Gather => match a(0) {
            Some(AttrValue::Gather(g)) => (Op::Gather(g.clone()), None),
            other => return Err(format!("gather needs its attributes, found {other:?}")),
        },
        OpKey::Scatter(kind) => match a(0) {
            Some(AttrValue::Index(d)) => (
                Op::Scatter {
                    kind,
                    dims: d.clone(),
                },
                None,
            ),
            other => {
                return Err(format!(
                    "{key} needs its dimension numbers, found {other:?}"
                ))
            }
        },
        OpKey::Reduce(kind) => match a(1) {
            Some(AttrValue::Bool(keep_dims)) => (
                Op::Reduce {
                    kind,
                    axes: ints(a(0))?,
                    keep_dims: *keep_dims,
                },
                None,
            ),
            other => return Err(format!("reduce needs keep_dims, found {other:?}")),
        },
        OpKey::MultiReduce(kind) => match a(1) {
            Some(AttrValue::Bool(keep_dims)) => (
                Op::MultiReduce {
                    kind,
                    axes: ints(a(0))?,
                    keep_dims: *keep_dims,
                },
                None,
            ),
            other => return Err(format!("{key} needs keep_dims, found {other:?}")),
        },
        OpKey::TupleGet => (Op::TupleGet { index: int(a(0))? }, None),
        OpKey::ArgReduce(kind) => (
            Op::ArgReduce {
                kind,
                axes: ints(a(0))?,
            },
            None,
        ),
        OpKey::Sort => (
            Op::Sort {
                dim: int(a(0))?,
                descending: flag(a(1))?,
                stable: flag(a(2))?,
                total_order: flag(a(3))?,
                keys: int(a(4))?,
            },
            None,
        ),
        OpKey::TopK => (Op::TopK { k: int(a(0))? }, None),
        OpKey::ReducePrecision => (
            Op::ReducePrecision {
                exponent_bits: int(a(0))?,
                mantissa_bits: int(a(1))?,
            },
            None,
        ),
        OpKey::Call => (
            Op::Call {
                callee: callee.ok_or("call needs a callee")?.to_string(),
            },
            annotated.cloned(),
        ),
        // The kinds `attr_slots` leaves out of rules (its match names them).
        _ => return Err(format!("`{key}` cannot be built by a rule")),
    };
    Ok((op, annotation))
}

#[cfg(test)]
mod names_tests {
    use super::*;

    #[test]
    fn every_attribute_slot_has_a_name() {
        for key in OpKey::all() {
            if let Some((_, slots)) = attr_slots(key) {
                assert_eq!(attr_names(key).len(), slots.len(), "{}", key.name());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptir_ir::DType;

    #[test]
    fn attrs_round_trip_through_make_op() {
        let x: Type = TensorType::new(DType::F32, vec![2, 3]).into();
        let attrs = vec![AttrValue::Ints(vec![1, 2]), AttrValue::Ints(vec![4, 2, 3])];
        let (op, ty) = make_op(OpKey::Broadcast, None, &attrs, &[&x], None).unwrap();
        assert_eq!(ty.to_string(), "f32[4,2,3]");
        assert_eq!(op_attrs(&op, &ty), attrs);
        let bad = make_op(
            OpKey::Broadcast,
            None,
            &[AttrValue::Ints(vec![0, 1]), AttrValue::Ints(vec![4, 2, 3])],
            &[&x],
            None,
        );
        assert!(bad.is_err());
    }

    #[test]
    fn op_attr_is_op_attrs_by_slot() {
        use ptir_ir::ReduceKind;
        let ty: Type = TensorType::new(DType::F32, vec![2, 3]).into();
        let ops = [
            Op::Cast,
            Op::Bitcast,
            Op::Reshape,
            Op::Transpose { perm: vec![1, 0] },
            Op::Broadcast { dims: vec![1] },
            ptir_ir::SliceDims::op(vec![0, 1], vec![2, 3], vec![1, 2]),
            Op::Concat { axis: 1 },
            Op::DotGeneral(Box::default()),
            Op::Reduce {
                kind: ReduceKind::Sum,
                axes: vec![0],
                keep_dims: true,
            },
            Op::TupleGet { index: 2 },
            Op::Tuple,
        ];
        for op in &ops {
            let all = op_attrs(op, &ty);
            for slot in 0..4 {
                assert_eq!(
                    op_attr(op, &ty, slot),
                    all.get(slot).map(AttrRef::from),
                    "{op:?}"
                );
            }
        }
    }
}
