//! Typed views of an instruction, the `T` of [`OpRewritePattern<T>`](crate::OpRewritePattern).
//!
//! A view owns small copies of what it shows (operand ids, attributes), so a pattern can hold
//! it while it edits through the rewriter. [`OpView::keys`] are the kinds the view accepts —
//! the pattern's roots.

use crate::ir::Ir;
use ptir_ir::{
    BinaryOp, CmpOp, DType, DotDims, InstId, Literal, Op, OpKey, ReduceKind, Type, UnaryOp, ValueId,
};

/// A typed view of one kind (or family) of op.
pub trait OpView: Sized {
    /// The op kinds this view accepts.
    fn keys() -> Vec<OpKey>;
    /// The view of instruction `root`, if it is of an accepted kind.
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self>;
}

fn operand(ir: &Ir<'_>, root: InstId, k: usize) -> Option<ValueId> {
    ir.inst(root)?.operands.get(k).copied()
}

fn shape(ir: &Ir<'_>, root: InstId) -> Vec<usize> {
    ir.inst(root)
        .and_then(|i| i.ty.as_tensor())
        .map_or_else(Vec::new, |t| t.shape.clone())
}

/// Any op at all (the pattern is rooted at every kind; use it for patterns that look at the
/// op's kind themselves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyOpView {
    /// The instruction.
    pub root: InstId,
    /// Its kind.
    pub key: OpKey,
}

impl OpView for AnyOpView {
    fn keys() -> Vec<OpKey> {
        OpKey::all()
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        Some(AnyOpView {
            root,
            key: ir.inst(root)?.op.key(),
        })
    }
}

/// `constant`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstantView {
    /// The instruction.
    pub root: InstId,
    /// Its literal.
    pub literal: Literal,
    /// Its type.
    pub ty: Type,
}

impl OpView for ConstantView {
    fn keys() -> Vec<OpKey> {
        vec![OpKey::Constant]
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        let inst = ir.inst(root)?;
        match &inst.op {
            Op::Constant(lit) => Some(ConstantView {
                root,
                literal: lit.clone(),
                ty: inst.ty.clone(),
            }),
            _ => None,
        }
    }
}

macro_rules! simple_view {
    ($(#[$m:meta])* $name:ident, $variant:ident, $kind:ty, $all:expr, { $($(#[$fm:meta])* $field:ident = $k:expr),* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name {
            /// The instruction.
            pub root: InstId,
            /// Which op of the family.
            pub kind: $kind,
            $($(#[$fm])* pub $field: ValueId,)*
        }

        impl OpView for $name {
            fn keys() -> Vec<OpKey> {
                $all.iter().map(|&k| OpKey::$variant(k)).collect()
            }
            fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
                match ir.inst(root)?.op {
                    Op::$variant(kind) => Some($name {
                        root,
                        kind,
                        $($field: operand(ir, root, $k)?,)*
                    }),
                    _ => None,
                }
            }
        }
    };
}

simple_view!(
    /// The elementwise unary ops.
    UnaryView, Unary, UnaryOp, UnaryOp::ALL, {
    /// The operand.
    operand = 0
});

simple_view!(
    /// The elementwise binary ops.
    BinaryView, Binary, BinaryOp, BinaryOp::ALL, {
    /// The left operand.
    lhs = 0,
    /// The right operand.
    rhs = 1
});

simple_view!(
    /// The comparisons.
    CompareView, Compare, CmpOp, CmpOp::ALL, {
    /// The left operand.
    lhs = 0,
    /// The right operand.
    rhs = 1
});

/// `select(pred, on_true, on_false)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectView {
    /// The instruction.
    pub root: InstId,
    /// The predicate.
    pub pred: ValueId,
    /// Taken where the predicate is true.
    pub on_true: ValueId,
    /// Taken elsewhere.
    pub on_false: ValueId,
}

impl OpView for SelectView {
    fn keys() -> Vec<OpKey> {
        vec![OpKey::Select]
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        match ir.inst(root)?.op {
            Op::Select => Some(SelectView {
                root,
                pred: operand(ir, root, 0)?,
                on_true: operand(ir, root, 1)?,
                on_false: operand(ir, root, 2)?,
            }),
            _ => None,
        }
    }
}

/// `cast` to a dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastView {
    /// The instruction.
    pub root: InstId,
    /// The operand.
    pub operand: ValueId,
    /// The target dtype.
    pub to: DType,
}

impl OpView for CastView {
    fn keys() -> Vec<OpKey> {
        vec![OpKey::Cast]
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        let inst = ir.inst(root)?;
        match inst.op {
            Op::Cast => Some(CastView {
                root,
                operand: operand(ir, root, 0)?,
                to: inst.ty.as_tensor()?.dtype,
            }),
            _ => None,
        }
    }
}

/// `reshape` to a shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReshapeView {
    /// The instruction.
    pub root: InstId,
    /// The operand.
    pub operand: ValueId,
    /// The result shape.
    pub shape: Vec<usize>,
}

impl OpView for ReshapeView {
    fn keys() -> Vec<OpKey> {
        vec![OpKey::Reshape]
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        match ir.inst(root)?.op {
            Op::Reshape => Some(ReshapeView {
                root,
                operand: operand(ir, root, 0)?,
                shape: shape(ir, root),
            }),
            _ => None,
        }
    }
}

/// `transpose` by a permutation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransposeView {
    /// The instruction.
    pub root: InstId,
    /// The operand.
    pub operand: ValueId,
    /// Result dim `i` is operand dim `perm[i]`.
    pub perm: Vec<usize>,
}

impl OpView for TransposeView {
    fn keys() -> Vec<OpKey> {
        vec![OpKey::Transpose]
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        match &ir.inst(root)?.op {
            Op::Transpose { perm } => Some(TransposeView {
                root,
                operand: operand(ir, root, 0)?,
                perm: perm.clone(),
            }),
            _ => None,
        }
    }
}

/// `broadcast` with a dimension map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BroadcastView {
    /// The instruction.
    pub root: InstId,
    /// The operand.
    pub operand: ValueId,
    /// Operand dim `i` becomes result dim `dims[i]`.
    pub dims: Vec<usize>,
    /// The result shape.
    pub shape: Vec<usize>,
}

impl OpView for BroadcastView {
    fn keys() -> Vec<OpKey> {
        vec![OpKey::Broadcast]
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        match &ir.inst(root)?.op {
            Op::Broadcast { dims } => Some(BroadcastView {
                root,
                operand: operand(ir, root, 0)?,
                dims: dims.clone(),
                shape: shape(ir, root),
            }),
            _ => None,
        }
    }
}

/// `reduce_sum` / `reduce_max`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReduceView {
    /// The instruction.
    pub root: InstId,
    /// Sum or max.
    pub kind: ReduceKind,
    /// The operand.
    pub operand: ValueId,
    /// The reduced axes.
    pub axes: Vec<usize>,
    /// Are reduced axes kept as size-1 dims?
    pub keep_dims: bool,
}

impl OpView for ReduceView {
    fn keys() -> Vec<OpKey> {
        ReduceKind::ALL.iter().map(|&k| OpKey::Reduce(k)).collect()
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        match &ir.inst(root)?.op {
            Op::Reduce {
                kind,
                axes,
                keep_dims,
            } => Some(ReduceView {
                root,
                kind: *kind,
                operand: operand(ir, root, 0)?,
                axes: axes.clone(),
                keep_dims: *keep_dims,
            }),
            _ => None,
        }
    }
}

/// `dot_general`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DotGeneralView {
    /// The instruction.
    pub root: InstId,
    /// The left operand.
    pub lhs: ValueId,
    /// The right operand.
    pub rhs: ValueId,
    /// The dimension numbers.
    pub dims: DotDims,
}

impl OpView for DotGeneralView {
    fn keys() -> Vec<OpKey> {
        vec![OpKey::DotGeneral]
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        match &ir.inst(root)?.op {
            Op::DotGeneral(dims) => Some(DotGeneralView {
                root,
                lhs: operand(ir, root, 0)?,
                rhs: operand(ir, root, 1)?,
                dims: (**dims).clone(),
            }),
            _ => None,
        }
    }
}

/// `call`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallView {
    /// The instruction.
    pub root: InstId,
    /// The callee, without `@`.
    pub callee: String,
    /// The arguments.
    pub args: Vec<ValueId>,
}

impl OpView for CallView {
    fn keys() -> Vec<OpKey> {
        vec![OpKey::Call]
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        let inst = ir.inst(root)?;
        match &inst.op {
            Op::Call { callee } => Some(CallView {
                root,
                callee: callee.clone(),
                args: inst.operands.clone(),
            }),
            _ => None,
        }
    }
}

/// `tuple_get`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TupleGetView {
    /// The instruction.
    pub root: InstId,
    /// The tuple.
    pub tuple: ValueId,
    /// The element.
    pub index: usize,
}

impl OpView for TupleGetView {
    fn keys() -> Vec<OpKey> {
        vec![OpKey::TupleGet]
    }
    fn view(ir: &Ir<'_>, root: InstId) -> Option<Self> {
        match ir.inst(root)?.op {
            Op::TupleGet { index } => Some(TupleGetView {
                root,
                tuple: operand(ir, root, 0)?,
                index,
            }),
            _ => None,
        }
    }
}
