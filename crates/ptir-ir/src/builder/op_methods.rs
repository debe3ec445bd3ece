//! The named op methods of [`FunctionBuilder`]: one per op (and a few conveniences such as
//! [`FunctionBuilder::broadcast_like`] and [`FunctionBuilder::matmul`]), all through
//! [`FunctionBuilder::emit`].

use super::{op_error, FunctionBuilder, Result, Val};
use crate::ops::{BinaryOp, CmpOp, DotDims, Op, ReduceKind, RngDist, UnaryOp};
use crate::tensor::{Data, Literal, Scalar, Tensor};
use crate::types::{DType, TensorType, Type};

macro_rules! unary_methods {
    ($($name:ident => $op:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($name), "(x)`, elementwise.")]
        pub fn $name(&mut self, x: Val) -> Result<Val> {
            self.unary(UnaryOp::$op, x)
        }
    )*};
}

macro_rules! binary_methods {
    ($method:ident, $kind:ident: $($name:ident => $op:ident),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($name), "(a, b)`, elementwise; operands of one type.")]
        pub fn $name(&mut self, a: Val, b: Val) -> Result<Val> {
            self.$method($kind::$op, a, b)
        }
    )*};
}
impl FunctionBuilder<'_> {
    /// A constant of type `ty` with the given payload.
    pub fn constant(&mut self, literal: Literal, ty: TensorType) -> Result<Val> {
        self.emit(Op::Constant(literal), &[], Some(ty.into()))
    }

    /// A constant of type `ty` whose elements all equal `value`, converted to the dtype as
    /// `cast` converts (rounded for floats, truncated for integers, `!= 0` for bool).
    pub fn constant_splat(&mut self, value: f64, ty: TensorType) -> Result<Val> {
        let s = Scalar::from_f64(ty.dtype, value);
        self.constant(Literal::Splat(s), ty)
    }

    /// A rank-0 constant.
    pub fn scalar(&mut self, value: f64, dtype: DType) -> Result<Val> {
        self.constant_splat(value, TensorType::scalar(dtype))
    }

    /// A dense constant of type `ty` from row-major real numbers (converted as by `cast`).
    pub fn constant_dense(&mut self, values: &[f64], ty: TensorType) -> Result<Val> {
        let s = values.iter().map(|&x| Scalar::from_f64(ty.dtype, x));
        let data = Data::from_scalars(ty.dtype, s);
        self.constant(Literal::Dense(data), ty)
    }

    /// A dense constant holding a tensor.
    pub fn constant_tensor(&mut self, t: &Tensor) -> Result<Val> {
        self.constant(Literal::Dense(t.data.clone()), t.ty.clone())
    }

    /// An elementwise unary op.
    pub fn unary(&mut self, op: UnaryOp, x: Val) -> Result<Val> {
        self.emit(Op::Unary(op), &[x], None)
    }

    /// An elementwise binary op on operands of one type.
    pub fn binary(&mut self, op: BinaryOp, a: Val, b: Val) -> Result<Val> {
        self.emit(Op::Binary(op), &[a, b], None)
    }

    /// An elementwise comparison; the result is `bool`.
    pub fn compare(&mut self, op: CmpOp, a: Val, b: Val) -> Result<Val> {
        self.emit(Op::Compare(op), &[a, b], None)
    }

    unary_methods! {
        neg => Neg, exp => Exp, log => Log, sqrt => Sqrt, rsqrt => Rsqrt, tanh => Tanh,
        erf => Erf, abs => Abs, logistic => Logistic, not => Not,
    }

    binary_methods! { binary, BinaryOp:
        add => Add, sub => Sub, mul => Mul, div => Div, rem => Rem, max => Max, min => Min,
        pow => Pow, and => And, or => Or,
    }

    binary_methods! { compare, CmpOp:
        eq => Eq, ne => Ne, lt => Lt, le => Le, gt => Gt, ge => Ge,
    }

    /// `select(pred, on_true, on_false)`, elementwise.
    pub fn select(&mut self, pred: Val, on_true: Val, on_false: Val) -> Result<Val> {
        self.emit(Op::Select, &[pred, on_true, on_false], None)
    }

    /// Converts every element to `dtype`.
    pub fn cast(&mut self, x: Val, dtype: DType) -> Result<Val> {
        let ty = self.tensor_of("cast", x)?.with_dtype(dtype);
        self.emit(Op::Cast, &[x], Some(ty.into()))
    }

    /// Reinterprets the bits of every element as `dtype` (of the same width).
    pub fn bitcast(&mut self, x: Val, dtype: DType) -> Result<Val> {
        let ty = self.tensor_of("bitcast", x)?.with_dtype(dtype);
        self.emit(Op::Bitcast, &[x], Some(ty.into()))
    }

    /// The same elements in another shape.
    pub fn reshape(&mut self, x: Val, shape: &[usize]) -> Result<Val> {
        let ty = TensorType::new(self.tensor_of("reshape", x)?.dtype, shape.to_vec());
        self.emit(Op::Reshape, &[x], Some(ty.into()))
    }

    /// Permutes the dims: result dim `i` is operand dim `perm[i]`.
    pub fn transpose(&mut self, x: Val, perm: &[usize]) -> Result<Val> {
        self.emit(
            Op::Transpose {
                perm: perm.to_vec(),
            },
            &[x],
            None,
        )
    }

    /// `broadcast_in_dim`: operand dim `i` becomes result dim `dims[i]` of a result of the
    /// given shape (same size, or stretched from size 1); the other result dims are new.
    pub fn broadcast(&mut self, x: Val, dims: &[usize], shape: &[usize]) -> Result<Val> {
        let ty = TensorType::new(self.tensor_of("broadcast", x)?.dtype, shape.to_vec());
        self.emit(
            Op::Broadcast {
                dims: dims.to_vec(),
            },
            &[x],
            Some(ty.into()),
        )
    }

    /// Broadcasts `x` to `shape` by numpy rules: `x`'s dims map to the trailing dims of
    /// `shape`, each of equal size or stretched from size 1.
    ///
    /// ```
    /// use ptir_ir::{DType, ProgramBuilder, TensorType};
    /// let mut pb = ProgramBuilder::new();
    /// let mut f = pb.function("f", &[TensorType::new(DType::F32, vec![3, 1])])?;
    /// let x = f.param(0)?;
    /// let y = f.broadcast_to(x, &[2, 3, 4])?; // dims [1, 2]
    /// assert_eq!(f.shape(y)?, &[2, 3, 4]);
    /// assert!(f.broadcast_to(x, &[2, 4]).is_err());
    /// # Ok::<(), ptir_ir::BuildError>(())
    /// ```
    pub fn broadcast_to(&mut self, x: Val, shape: &[usize]) -> Result<Val> {
        let xs = &self.tensor_of("broadcast", x)?.shape;
        let dims = numpy_broadcast_dims(xs, shape).ok_or_else(|| {
            op_error("broadcast", format!("cannot broadcast {xs:?} to {shape:?}"))
        })?;
        self.broadcast(x, &dims, shape)
    }

    /// Broadcasts `x` to the shape of `like` ([`Self::broadcast_to`]'s numpy rules).
    pub fn broadcast_like(&mut self, x: Val, like: Val) -> Result<Val> {
        let shape = self.tensor_of("broadcast", like)?.shape.clone();
        self.broadcast_to(x, &shape)
    }

    /// Strided slice `[start, limit)` with `stride` per dim.
    pub fn slice(
        &mut self,
        x: Val,
        start: &[usize],
        limit: &[usize],
        stride: &[usize],
    ) -> Result<Val> {
        let op = crate::SliceDims::op(start.to_vec(), limit.to_vec(), stride.to_vec());
        self.emit(op, &[x], None)
    }

    /// Concatenates along `axis`.
    pub fn concat(&mut self, xs: &[Val], axis: usize) -> Result<Val> {
        self.emit(Op::Concat { axis }, xs, None)
    }

    /// Generalized matrix product ([`DotDims`]).
    pub fn dot_general(&mut self, lhs: Val, rhs: Val, dims: &DotDims) -> Result<Val> {
        self.emit(Op::DotGeneral(Box::new(dims.clone())), &[lhs, rhs], None)
    }

    /// `[m,k] x [k,n] -> [m,n]`.
    pub fn matmul(&mut self, lhs: Val, rhs: Val) -> Result<Val> {
        self.dot_general(lhs, rhs, &DotDims::matmul())
    }

    /// A reduction over `axes`.
    pub fn reduce(
        &mut self,
        kind: ReduceKind,
        x: Val,
        axes: &[usize],
        keep_dims: bool,
    ) -> Result<Val> {
        let op = Op::Reduce {
            kind,
            axes: axes.to_vec(),
            keep_dims,
        };
        self.emit(op, &[x], None)
    }

    /// Sum over `axes`.
    pub fn reduce_sum(&mut self, x: Val, axes: &[usize], keep_dims: bool) -> Result<Val> {
        self.reduce(ReduceKind::Sum, x, axes, keep_dims)
    }

    /// Maximum over `axes`.
    pub fn reduce_max(&mut self, x: Val, axes: &[usize], keep_dims: bool) -> Result<Val> {
        self.reduce(ReduceKind::Max, x, axes, keep_dims)
    }

    /// Calls a function or extern declared before this function; several results come as one
    /// tuple value ([`Self::unpack`]).
    pub fn call(&mut self, callee: &str, args: &[Val]) -> Result<Val> {
        let op = Op::Call {
            callee: callee.to_string(),
        };
        self.emit(op, args, None)
    }

    /// Calls a shape-polymorphic extern, stating the result type.
    pub fn call_typed(&mut self, callee: &str, args: &[Val], result: Type) -> Result<Val> {
        let op = Op::Call {
            callee: callee.to_string(),
        };
        self.emit(op, args, Some(result))
    }

    /// The index along `dim` of each element of a tensor of type `ty`.
    pub fn iota(&mut self, dim: usize, ty: TensorType) -> Result<Val> {
        self.emit(Op::Iota { dim }, &[], Some(ty.into()))
    }

    /// A random tensor (the impure op).
    pub fn rng(&mut self, dist: RngDist, ty: TensorType) -> Result<Val> {
        self.emit(Op::Rng { dist }, &[], Some(ty.into()))
    }

    /// Packs values into a tuple.
    pub fn tuple(&mut self, xs: &[Val]) -> Result<Val> {
        self.emit(Op::Tuple, xs, None)
    }

    /// Element `index` of a tuple.
    pub fn tuple_get(&mut self, t: Val, index: usize) -> Result<Val> {
        self.emit(Op::TupleGet { index }, &[t], None)
    }

    /// The elements of a tuple value (one `tuple_get` each), or the value itself if it is a
    /// tensor: what turns the result of a multi-result call or region op into values.
    pub fn unpack(&mut self, v: Val) -> Result<Vec<Val>> {
        match self.check("tuple_get", v)? {
            Type::Tensor(_) => Ok(vec![v]),
            Type::Tuple(ts) => (0..ts.len()).map(|i| self.tuple_get(v, i)).collect(),
        }
    }
}

/// The `broadcast` dims that map a shape `from` onto the trailing dims of `to` by numpy rules
/// (each dim equal or stretched from size 1), if there are any.
pub(crate) fn numpy_broadcast_dims(from: &[usize], to: &[usize]) -> Option<Vec<usize>> {
    let offset = to.len().checked_sub(from.len())?;
    let fits = from
        .iter()
        .zip(&to[offset..])
        .all(|(&a, &b)| a == 1 || a == b);
    fits.then(|| (offset..to.len()).collect())
}
