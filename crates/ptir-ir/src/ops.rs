//! The op set: what an instruction computes, with its attributes.
//!
//! Ops whose result type is not a function of their operands (`constant`, `cast`, `reshape`,
//! `broadcast`, `rng`, `call`) take it from the instruction's annotated result type; everything
//! else is inferred and checked by [`crate::infer`]. [`OpKey`] is the attribute-free kind of an op,
//! used for dispatch (pattern roots, indexes, e-node kinds).

use crate::gather::{GatherDims, IndexDims, ScatterKind};
use crate::program::Region;
use crate::tensor::Literal;
use crate::window::{ConvDims, PadDims, ReduceWindowDims};
use smallvec::{smallvec, SmallVec};
use std::fmt;

use crate::keyword::keyword_enum;

keyword_enum! {
    /// Elementwise unary ops.
    UnaryOp {
        /// `-x` (wrapping for integers).
        Neg = "neg",
        /// `e^x` (floats).
        Exp = "exp",
        /// Natural logarithm (floats).
        Log = "log",
        /// Square root (floats).
        Sqrt = "sqrt",
        /// `1 / sqrt(x)` (floats).
        Rsqrt = "rsqrt",
        /// Hyperbolic tangent (floats).
        Tanh = "tanh",
        /// Error function (floats).
        Erf = "erf",
        /// `|x|` (wrapping for the minimum integer).
        Abs = "abs",
        /// `1 / (1 + e^-x)` (floats).
        Logistic = "logistic",
        /// Logical not (bool) or bitwise not (integers).
        Not = "not",
        /// `x * x` (wrapping for integers; `chlo.square`).
        Square = "square",
        /// Sine (floats).
        Sin = "sin",
        /// Cosine (floats).
        Cos = "cos",
        /// Tangent (floats).
        Tan = "tan",
        /// Complementary error function `1 - erf(x)`, computed without the cancellation
        /// (floats).
        Erfc = "erfc",
        /// `log(1 + x)`, accurate near 0 (floats).
        Log1p = "log1p",
        /// `e^x - 1`, accurate near 0 (floats).
        Expm1 = "expm1",
        /// Cube root (floats).
        Cbrt = "cbrt",
        /// Round toward -inf (floats).
        Floor = "floor",
        /// Round toward +inf (floats).
        Ceil = "ceil",
        /// Round to nearest, ties to even (floats; `round_nearest_even`).
        Round = "round",
        /// Round to nearest, ties away from zero (floats; `round_nearest_afz`).
        RoundAfz = "round_afz",
        /// -1, 0 or 1 by the sign (`-0.0` and NaN stay themselves for floats; signed types).
        Sign = "sign",
        /// The number of one bits at the dtype's width (integers; StableHLO `popcnt`).
        Popcnt = "popcnt",
        /// The number of leading zero bits at the dtype's width (integers; StableHLO
        /// `count_leading_zeros`).
        Clz = "clz",
        /// The inverse error function: `erf(erf_inv(y)) = y` on (-1, 1), `±inf` at `±1`, NaN
        /// beyond (floats; `chlo.erf_inv`, which `jax.random.normal` uses).
        ErfInv = "erf_inv",
        /// Hyperbolic sine (floats; `chlo.sinh`).
        Sinh = "sinh",
        /// Hyperbolic cosine (floats; `chlo.cosh`).
        Cosh = "cosh",
        /// Arcsine, NaN outside [-1, 1] (floats; `chlo.asin`).
        Asin = "asin",
        /// Arccosine, NaN outside [-1, 1] (floats; `chlo.acos`).
        Acos = "acos",
        /// Arctangent (floats; `chlo.atan`).
        Atan = "atan",
        /// Inverse hyperbolic sine (floats; `chlo.asinh`).
        Asinh = "asinh",
        /// Inverse hyperbolic cosine, NaN below 1 (floats; `chlo.acosh`).
        Acosh = "acosh",
        /// Inverse hyperbolic tangent, `±inf` at `±1`, NaN beyond (floats; `chlo.atanh`).
        Atanh = "atanh",
        /// `log |Γ(x)|`, `+inf` at the poles (floats; `chlo.lgamma`, `gammaln`).
        Lgamma = "lgamma",
        /// `Γ'(x) / Γ(x)`: `-inf` at `±0`, NaN at the negative integers, as XLA gives (floats;
        /// `chlo.digamma`).
        Digamma = "digamma",
    }
}

impl UnaryOp {
    /// The element types the op is defined on.
    pub fn dtype_class(self) -> DTypeClass {
        match self {
            UnaryOp::Not => DTypeClass::IntOrBool,
            UnaryOp::Popcnt | UnaryOp::Clz => DTypeClass::Int,
            UnaryOp::Neg | UnaryOp::Square => DTypeClass::Numeric,
            UnaryOp::Abs | UnaryOp::Sign => DTypeClass::Signed,
            _ => DTypeClass::Float,
        }
    }

    /// Is the op defined only on floats?
    pub fn float_only(self) -> bool {
        self.dtype_class() == DTypeClass::Float
    }

    /// Is the op a transcendental function (priced as several FLOPs per element)?
    pub fn is_transcendental(self) -> bool {
        !matches!(
            self,
            UnaryOp::Neg
                | UnaryOp::Abs
                | UnaryOp::Not
                | UnaryOp::Square
                | UnaryOp::Sign
                | UnaryOp::Popcnt
                | UnaryOp::Clz
                | UnaryOp::Floor
                | UnaryOp::Ceil
                | UnaryOp::Round
                | UnaryOp::RoundAfz
        )
    }
}

keyword_enum! {
    /// Elementwise binary ops whose result has the operands' type.
    BinaryOp {
        /// Addition (wrapping for integers).
        Add = "add",
        /// Subtraction (wrapping for integers).
        Sub = "sub",
        /// Multiplication (wrapping for integers).
        Mul = "mul",
        /// Division (integers: truncating; division by zero is an error).
        Div = "div",
        /// Remainder with the sign of the dividend (integers: by zero is an error).
        Rem = "rem",
        /// Maximum (NaN if either operand is NaN; `max(-0, +0) = +0`).
        Max = "max",
        /// Minimum (NaN if either operand is NaN; `min(-0, +0) = -0`).
        Min = "min",
        /// Power (floats only).
        Pow = "pow",
        /// Logical / bitwise and (bool, integers).
        And = "and",
        /// Logical / bitwise or (bool, integers).
        Or = "or",
        /// Logical / bitwise exclusive or (bool, integers).
        Xor = "xor",
        /// `atan2(y, x)`: the angle of the point (x, y), in `[-pi, pi]` (floats).
        Atan2 = "atan2",
        /// The next value of the dtype after `x` toward `y` (`y` itself when equal, NaN when
        /// either is; floats; `chlo.next_after`, `jnp.nextafter`).
        NextAfter = "next_after",
        /// Shift left by the second operand; by the bit width or more (or a negative amount)
        /// gives 0 (integers; StableHLO `shift_left`).
        Shl = "shl",
        /// Shift right, filling with the sign bit; by the bit width or more (or a negative
        /// amount) gives 0 or -1 by the sign (integers; `shift_right_arithmetic`).
        ShrArith = "shr_arith",
        /// Shift right of the two's complement bits as unsigned, filling with zeros; by the bit
        /// width or more (or a negative amount) gives 0 (integers; `shift_right_logical`).
        ShrLogical = "shr_logical",
    }
}

/// Which element types an elementwise op is defined on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DTypeClass {
    /// Floats only.
    Float,
    /// Integers only.
    Int,
    /// Integers and bool.
    IntOrBool,
    /// Floats and integers.
    Numeric,
    /// Floats and signed integers (`abs` and `sign`, which StableHLO does not define on
    /// unsigned integers).
    Signed,
}

impl BinaryOp {
    /// The element types the op is defined on.
    pub fn dtype_class(self) -> DTypeClass {
        match self {
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => DTypeClass::IntOrBool,
            BinaryOp::Pow | BinaryOp::Atan2 | BinaryOp::NextAfter => DTypeClass::Float,
            BinaryOp::Shl | BinaryOp::ShrArith | BinaryOp::ShrLogical => DTypeClass::Int,
            _ => DTypeClass::Numeric,
        }
    }

    /// Is `op(a, b) == op(b, a)` for all values (bit-exact, NaN-ness included)?
    pub fn is_commutative(self) -> bool {
        matches!(
            self,
            BinaryOp::Add
                | BinaryOp::Mul
                | BinaryOp::Max
                | BinaryOp::Min
                | BinaryOp::And
                | BinaryOp::Or
                | BinaryOp::Xor
        )
    }
}

keyword_enum! {
    /// Elementwise comparisons; the result is `bool`.
    CmpOp {
        /// `==` (false on NaN).
        Eq = "eq",
        /// `!=` (true on NaN).
        Ne = "ne",
        /// `<`.
        Lt = "lt",
        /// `<=`.
        Le = "le",
        /// `>`.
        Gt = "gt",
        /// `>=`.
        Ge = "ge",
    }
}

keyword_enum! {
    /// Reductions.
    ReduceKind {
        /// Sum, in row-major order of the reduced elements, starting from zero.
        Sum = "reduce_sum",
        /// Maximum, starting from the dtype's lowest value (`-inf` for floats); NaN propagates.
        Max = "reduce_max",
        /// Product, in row-major order of the reduced elements, starting from one (`jnp.prod`;
        /// windowed, `jnp.cumprod`).
        Prod = "reduce_prod",
    }
}

impl ReduceKind {
    /// The binary op one step of this reduction applies on elements of `d` (`max` of bools is
    /// `or`).
    pub fn step(self, d: crate::DType) -> BinaryOp {
        match (self, d) {
            (ReduceKind::Sum, _) => BinaryOp::Add,
            (ReduceKind::Max, crate::DType::Bool) => BinaryOp::Or,
            (ReduceKind::Max, _) => BinaryOp::Max,
            (ReduceKind::Prod, _) => BinaryOp::Mul,
        }
    }

    /// The value this reduction starts from on elements of `d`: `0`, the lowest value (`-inf`,
    /// `false`, the integer minimum) or `1`.
    pub fn identity(self, d: crate::DType) -> crate::Scalar {
        use crate::Scalar;
        match (self, d) {
            (ReduceKind::Sum, _) => Scalar::zero(d),
            (ReduceKind::Max, crate::DType::Bool) => Scalar::Bool(false),
            (ReduceKind::Max, _) => Scalar::int_min(d).unwrap_or(Scalar::Float(f64::NEG_INFINITY)),
            (ReduceKind::Prod, _) => Scalar::one(d),
        }
    }

    /// The name of the windowed reduction of this kind (`reduce_window_sum`, ...).
    pub fn window_name(self) -> &'static str {
        match self {
            ReduceKind::Sum => "reduce_window_sum",
            ReduceKind::Max => "reduce_window_max",
            ReduceKind::Prod => "reduce_window_prod",
        }
    }

    /// The name of the reduction of several operands of this kind (`multi_reduce_sum`, ...).
    pub fn multi_name(self) -> &'static str {
        match self {
            ReduceKind::Sum => "multi_reduce_sum",
            ReduceKind::Max => "multi_reduce_max",
            ReduceKind::Prod => "multi_reduce_prod",
        }
    }
}

keyword_enum! {
    /// The comparison a `select_and_scatter` selects with: StableHLO's select region
    /// `compare <dir>, current, candidate`; the current selection is kept while it holds.
    SelectKind {
        /// `GE`: the first maximum (JAX's max pooling gradient).
        Ge = "select_and_scatter_ge",
        /// `GT`: the last maximum.
        Gt = "select_and_scatter_gt",
        /// `LE`: the first minimum.
        Le = "select_and_scatter_le",
        /// `LT`: the last minimum.
        Lt = "select_and_scatter_lt",
    }
}

impl SelectKind {
    /// The comparison of the select region.
    pub fn compare(self) -> CmpOp {
        match self {
            SelectKind::Ge => CmpOp::Ge,
            SelectKind::Gt => CmpOp::Gt,
            SelectKind::Le => CmpOp::Le,
            SelectKind::Lt => CmpOp::Lt,
        }
    }

    /// The kind selecting with `c`; `None` for `eq` and `ne`, which select no extremum.
    pub fn from_cmp(c: CmpOp) -> Option<Self> {
        SelectKind::ALL.iter().copied().find(|k| k.compare() == c)
    }
}

keyword_enum! {
    /// The extremum a `reduce_arg*` selects: StableHLO's two-operand `reduce` whose body is
    /// JAX's `argmax`/`argmin` reducer (see [`Op::ArgReduce`]).
    ArgKind {
        /// `compare GT`: the greatest value (JAX's `argmax`).
        Max = "reduce_argmax",
        /// `compare LT`: the least value (JAX's `argmin`).
        Min = "reduce_argmin",
    }
}

impl ArgKind {
    /// The value comparison of the reducer body.
    pub fn compare(self) -> CmpOp {
        match self {
            ArgKind::Max => CmpOp::Gt,
            ArgKind::Min => CmpOp::Lt,
        }
    }

    /// The kind selecting with `c`; `None` for comparisons that select no extremum.
    pub fn from_cmp(c: CmpOp) -> Option<Self> {
        ArgKind::ALL.iter().copied().find(|k| k.compare() == c)
    }
}

keyword_enum! {
    /// Algorithms of `rng_bit_generator` (StableHLO's `rng_algorithm`).
    RngAlgorithm {
        /// The implementation's choice (IREE's and the interpreter's: Philox).
        Default = "default",
        /// Threefry-2x32 with 20 rounds.
        ThreeFry = "three_fry",
        /// Philox-4x32 with 10 rounds.
        Philox = "philox",
    }
}

keyword_enum! {
    /// Distributions of `rng`.
    RngDist {
        /// Uniform on `[0, 1)` (floats) or over the whole range (integers, bool).
        Uniform = "uniform",
        /// Standard normal (floats only).
        Normal = "normal",
    }
}

/// Dimension numbers of `dot_general` (as StableHLO): the result's dims are the batch dims,
/// then the lhs free dims, then the rhs free dims, each in operand order.
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct DotDims {
    /// Batch dims of the lhs.
    pub lhs_batch: Vec<usize>,
    /// Batch dims of the rhs (paired with `lhs_batch`).
    pub rhs_batch: Vec<usize>,
    /// Contracting dims of the lhs.
    pub lhs_contract: Vec<usize>,
    /// Contracting dims of the rhs (paired with `lhs_contract`).
    pub rhs_contract: Vec<usize>,
    /// The result's element type when it is wider than the operands' (StableHLO's mixed
    /// precision, JAX's `preferred_element_type`: f16 or bf16 operands, an f32 result):
    /// products and sums are computed in it. `None`: the operands' own.
    pub result_dtype: Option<crate::types::DType>,
    /// StableHLO's `precision_config` (lhs, rhs), kept for the backends that honour it (a
    /// GPU or TPU computes `DEFAULT` f32 products in fewer bits); `None`: both `DEFAULT`, the
    /// one way to say so ([`DotDims::precision_of`]; `Some` of two `DEFAULT`s does not verify,
    /// so that equal dots compare equal and print back as they were). The interpreter and CPU
    /// runtimes compute every product exactly as the dtype says.
    pub precision: Option<[Precision; 2]>,
}

keyword_enum! {
    /// The precision a backend computes an operand of a `dot_general` with (StableHLO's
    /// `precision_config`).
    Precision {
        /// The backend's fastest.
        Default = "default",
        /// More than the fastest (bf16x3 on a TPU).
        High = "high",
        /// The dtype's own (f32 products in f32).
        Highest = "highest",
    }
}

impl DotDims {
    /// The [`DotDims::precision`] of an (lhs, rhs) pair: `None` for two `DEFAULT`s.
    ///
    /// ```
    /// use ptir_ir::{DotDims, Precision};
    /// assert_eq!(DotDims::precision_of([Precision::Default; 2]), None);
    /// assert_eq!(
    ///     DotDims::precision_of([Precision::Highest, Precision::Default]),
    ///     Some([Precision::Highest, Precision::Default])
    /// );
    /// ```
    pub fn precision_of(pair: [Precision; 2]) -> Option<[Precision; 2]> {
        (pair != [Precision::Default; 2]).then_some(pair)
    }

    /// Plain matrix product of rank-2 operands: `[m,k] x [k,n] -> [m,n]`.
    pub fn matmul() -> Self {
        DotDims {
            lhs_contract: vec![1],
            rhs_contract: vec![0],
            ..DotDims::default()
        }
    }

    /// Batched matrix product of rank-3 operands: `[b,m,k] x [b,k,n] -> [b,m,n]`.
    pub fn batch_matmul() -> Self {
        DotDims {
            lhs_batch: vec![0],
            rhs_batch: vec![0],
            lhs_contract: vec![2],
            rhs_contract: vec![1],
            ..DotDims::default()
        }
    }
}

/// The attributes of a `slice`: `[start, limit)` with `stride` per dim.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SliceDims {
    /// First index per dim.
    pub start: Vec<usize>,
    /// One past the last index per dim.
    pub limit: Vec<usize>,
    /// Step per dim (at least 1).
    pub stride: Vec<usize>,
}

impl SliceDims {
    /// The slice `[start, limit)` with steps `stride`, as an op.
    pub fn op(start: Vec<usize>, limit: Vec<usize>, stride: Vec<usize>) -> Op {
        Op::Slice(Box::new(SliceDims {
            start,
            limit,
            stride,
        }))
    }
}

/// What an instruction computes. Attributes are fields; operands live in the instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// A constant of the annotated type.
    Constant(Literal),
    /// The index along `dim` of each element, of the annotated type (StableHLO `iota`).
    /// Kept as an op, never folded into a constant: a compiler computes it for free inside
    /// the kernel that reads it, where a constant would be read from memory.
    Iota {
        /// The dimension whose index each element holds.
        dim: usize,
    },
    /// Elementwise unary op.
    Unary(UnaryOp),
    /// Elementwise binary op on two operands of the same type.
    Binary(BinaryOp),
    /// Elementwise comparison of two operands of the same type; `bool` result.
    Compare(CmpOp),
    /// `select(pred, on_true, on_false)`, elementwise; `pred` is `bool` of the same shape.
    Select,
    /// Elementwise conversion to the annotated dtype.
    Cast,
    /// The bits of each element reinterpreted as the annotated dtype, of the same width and
    /// shape (StableHLO `bitcast_convert` between equal widths: `u32` to `f32` and back).
    Bitcast,
    /// The bits of `x` reinterpreted as the annotated dtype of another width (StableHLO's
    /// `bitcast_convert` between widths): the narrower side has one more dim, the ratio of the
    /// widths, whose first element is the least significant part (little-endian, as IREE and
    /// XLA run it). Not elementwise: one element of the wider side is several of the other.
    BitcastResize,
    /// Each element rounded to the float format of `exponent_bits` and `mantissa_bits` and
    /// back (StableHLO `reduce_precision`, `jax.lax.reduce_precision`), as XLA and IREE
    /// compute it: the mantissa rounded to nearest, ties to even; beyond the format's range
    /// `±inf`, below its smallest normal `±0`; a NaN stays itself.
    ReducePrecision {
        /// Exponent bits of the format, at least 1.
        exponent_bits: usize,
        /// Mantissa bits of the format (without the implicit one).
        mantissa_bits: usize,
    },
    /// Same elements, the annotated shape.
    Reshape,
    /// Result dim `i` is operand dim `perm[i]`.
    Transpose {
        /// The permutation.
        perm: Vec<usize>,
    },
    /// Operand dim `i` becomes result dim `dims[i]` (size 1 or equal); other dims are new.
    /// The result shape is annotated (StableHLO `broadcast_in_dim`).
    Broadcast {
        /// Operand-to-result dimension map.
        dims: Vec<usize>,
    },
    /// Strided slice `[start, limit)` with `stride` per dim (boxed: the largest attributes
    /// of any op would otherwise size every op).
    Slice(Box<SliceDims>),
    /// Concatenation of one or more operands along `axis`.
    Concat {
        /// The axis.
        axis: usize,
    },
    /// Generalized matrix product.
    DotGeneral(Box<DotDims>),
    /// `gather(x, indices)`: StableHLO's `gather` with general dimension numbers (see
    /// [`crate::gather`]); start indices are clamped so that every slice is in bounds. One op
    /// for every form: `jnp.take`'s row gather (an embedding lookup), `x[:, ids]`,
    /// `jnp.take_along_axis`'s batching dims, slices wider than one element.
    Gather(Box<GatherDims>),
    /// `scatter_<kind>(x, indices, updates)`: `x` with each update combined into the element
    /// it lands on (StableHLO's `scatter` with general dimension numbers, see
    /// [`crate::gather`]; updates landing out of bounds are skipped; updates are applied in
    /// row-major order of the updates).
    Scatter {
        /// How an update combines with the element.
        kind: ScatterKind,
        /// The dimension numbers.
        dims: Box<IndexDims>,
    },
    /// `dynamic_slice(x, i0, ..., i{r-1})`: the block of shape `sizes` of `x` starting at
    /// the scalar integer indices, each clamped to `[0, dim - size]` (StableHLO's clamp: never
    /// out of bounds, never a trap).
    DynamicSlice {
        /// The block's shape.
        sizes: Vec<usize>,
    },
    /// `dynamic_update_slice(x, u, i0, ..., i{r-1})`: `x` with the block `u` written at the
    /// scalar integer indices, each clamped to `[0, dim - size]`.
    DynamicUpdateSlice,
    /// `convolution(input, kernel)` (StableHLO's, see [`ConvDims`]; boxed like `dot_general`'s
    /// dims).
    Convolution(Box<ConvDims>),
    /// `reduce_window_<kind>(x, init)`: each window of `x` reduced from the scalar `init`,
    /// which also fills the padding (StableHLO's `reduce_window` with an `add` or `maximum`
    /// body; see [`ReduceWindowDims`]).
    ReduceWindow {
        /// Sum or max.
        kind: ReduceKind,
        /// The window.
        dims: Box<ReduceWindowDims>,
    },
    /// `select_and_scatter_<select>(operand, source, init)`: the result starts as the scalar
    /// `init` everywhere; for each window of `operand` (row-major), the position the
    /// comparison selects (the current selection is kept while `compare(current, candidate)`
    /// holds; positions in padding are never selected) gets the window's `source` element
    /// added (StableHLO's `select_and_scatter` with an `add` scatter region; see
    /// [`ReduceWindowDims`], without dilation).
    SelectAndScatter {
        /// The select region's comparison.
        select: SelectKind,
        /// The window.
        dims: Box<ReduceWindowDims>,
    },
    /// `pad(x, value)`: `x` with the scalar `value` around and between its elements (see
    /// [`PadDims`]; negative padding crops).
    Pad(Box<PadDims>),
    /// `reverse(x)`: `x` with the order of its elements along each of `dims` reversed.
    Reverse {
        /// The reversed dims (distinct).
        dims: Vec<usize>,
    },
    /// `reduce_arg<kind>(x, i, x0, i0)`: the values and indices of an `argmax`/`argmin`
    /// over `axes`, as a tuple `(values, indices)` (StableHLO's two-operand `reduce` with
    /// JAX's reducer). Starting from the scalars `(x0, i0)`, the elements `(x, i)` of each
    /// reduced block are folded in row-major order by `r(acc, e)`: with
    /// `pick = acc.x <cmp> e.x || acc.x != acc.x` (a NaN accumulator stays),
    /// the value is `pick ? acc.x : e.x` and the index `pick || (acc.x == e.x && acc.i < e.i)
    /// ? acc.i : e.i` (the smaller index among equal values).
    ArgReduce {
        /// Max or min.
        kind: ArgKind,
        /// The reduced axes (distinct, any order).
        axes: Vec<usize>,
    },
    /// `sort(k1, ..., x1, ...)`: the operands, all of one shape, permuted along `dim` by the
    /// lexicographic order of the first `keys` operands (`k1`, then `k2` among equal `k1`, ...);
    /// one result for one operand, a tuple otherwise (StableHLO's `sort` with a comparator on
    /// the keys, as `lax.sort(..., num_keys)` and `jnp.lexsort` write it).
    Sort {
        /// The sorted dim.
        dim: usize,
        /// How many leading operands are keys (at least 1).
        keys: usize,
        /// Greatest key first (every key)?
        descending: bool,
        /// Keep equal keys in their order? (Without, equal keys still keep it here: the
        /// interpreter's sort is stable; the flag is kept for export.)
        stable: bool,
        /// Float keys in IEEE totalOrder (`-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN`,
        /// StableHLO's `TOTALORDER` compare); otherwise JAX's order (`-0 == +0`, every NaN
        /// equal and after `+inf`). Integer keys: their order either way.
        total_order: bool,
    },
    /// `top_k(x)`: the `k` greatest elements of each row of `x` (along its last dim) in
    /// descending IEEE totalOrder, equal elements by increasing index, and their `i32`
    /// indices, as a tuple `(values, indices)` (`chlo.top_k`).
    TopK {
        /// How many.
        k: usize,
    },
    /// Reduction over `axes`.
    Reduce {
        /// Sum or max.
        kind: ReduceKind,
        /// The reduced axes (distinct, any order).
        axes: Vec<usize>,
        /// Keep reduced axes as size-1 dims?
        keep_dims: bool,
    },
    /// `multi_reduce_<kind>(x1, ..., xn)`: each operand reduced over `axes` exactly as
    /// `reduce_<kind>` reduces it, the results as a tuple of `n` (StableHLO's variadic
    /// `reduce` whose body combines each operand's accumulator with its own element only).
    /// The operands share one shape (their dtypes may differ); one kernel reads them all:
    /// sibling reductions merged so that the input they share is read once.
    MultiReduce {
        /// The reduction of every operand.
        kind: ReduceKind,
        /// The reduced axes (distinct, any order).
        axes: Vec<usize>,
        /// Keep reduced axes as size-1 dims?
        keep_dims: bool,
    },
    /// Call of a function of the program or a declared extern; several results come as a tuple.
    Call {
        /// Callee name, without `@`.
        callee: String,
    },
    /// Random tensor of the annotated type, drawn from the interpreter's seeded stream.
    /// The one stateful op: never merged, moved across other impure ops, or deleted.
    Rng {
        /// The distribution.
        dist: RngDist,
    },
    /// `rng_bit_generator(state)`: random bits of the annotated output type from a `u64[2]`
    /// (or `[3]`) state, and the state to use next, as a tuple `(state, bits)` (StableHLO's
    /// `rng_bit_generator`, bit for bit as IREE computes it: see the interpreter). A function
    /// of its state, but what it computes is the implementation's, so it is kept as an effect:
    /// never folded, merged, moved or deleted.
    RngBitGenerator {
        /// The generator.
        algorithm: RngAlgorithm,
    },
    /// `cond(pred) then else`: runs one region (no parameters) and returns its results.
    Cond {
        /// Taken when `pred` is true.
        then_region: Box<Region>,
        /// Taken otherwise.
        else_region: Box<Region>,
    },
    /// `while(inits...)`: the carried values go through `cond` (returns a `bool` scalar) and
    /// `body` (returns new carried values) until `cond` is false; returns the carried values.
    While {
        /// Loop test.
        cond: Box<Region>,
        /// Loop body.
        body: Box<Region>,
    },
    /// `scan(carries..., xs...)`: for `i` in `0..n`, `body(carries, xs[i]...)` returns new
    /// carries and per-step outputs `ys`; the result is the final carries and the `ys` stacked
    /// along a new leading dim. `n` is the `length` attribute; every `xs` has leading dim `n`.
    Scan {
        /// Number of leading operands that are carries.
        num_carry: usize,
        /// Number of iterations.
        length: usize,
        /// The step.
        body: Box<Region>,
    },
    /// Packs its operands into a tuple.
    Tuple,
    /// Element `index` of a tuple.
    TupleGet {
        /// The element.
        index: usize,
    },
    /// Its operands, unchanged (a tuple of them if there are several), through which no
    /// optimization sees: StableHLO's `optimization_barrier`, which `jax.checkpoint` writes so
    /// that the recomputation it asks for is not merged back into the values it recomputes.
    /// Pure (an unused barrier goes), never folded, and no rule looks through it.
    OptimizationBarrier,
}

/// The kind of an op, without attributes: what patterns are rooted at and indexes key on.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[allow(missing_docs)]
pub enum OpKey {
    Constant,
    Iota,
    Unary(UnaryOp),
    Binary(BinaryOp),
    Compare(CmpOp),
    Select,
    Cast,
    Bitcast,
    BitcastResize,
    ReducePrecision,
    Reshape,
    Transpose,
    Broadcast,
    Slice,
    Concat,
    DotGeneral,
    Gather,
    Scatter(ScatterKind),
    DynamicSlice,
    DynamicUpdateSlice,
    Convolution,
    ReduceWindow(ReduceKind),
    SelectAndScatter(SelectKind),
    Pad,
    Reverse,
    ArgReduce(ArgKind),
    Sort,
    TopK,
    Reduce(ReduceKind),
    MultiReduce(ReduceKind),
    Call,
    Rng,
    RngBitGenerator,
    Cond,
    While,
    Scan,
    Tuple,
    TupleGet,
    OptimizationBarrier,
}

impl OpKey {
    /// Every op kind.
    pub fn all() -> Vec<OpKey> {
        let mut keys = vec![OpKey::Constant, OpKey::Iota];
        keys.extend(UnaryOp::ALL.iter().map(|&u| OpKey::Unary(u)));
        keys.extend(BinaryOp::ALL.iter().map(|&b| OpKey::Binary(b)));
        keys.extend(CmpOp::ALL.iter().map(|&c| OpKey::Compare(c)));
        keys.extend([
            OpKey::Select,
            OpKey::Cast,
            OpKey::Bitcast,
            OpKey::BitcastResize,
            OpKey::ReducePrecision,
            OpKey::Reshape,
            OpKey::Transpose,
            OpKey::Broadcast,
            OpKey::Slice,
            OpKey::Concat,
            OpKey::DotGeneral,
            OpKey::Gather,
        ]);
        keys.extend(ScatterKind::ALL.iter().map(|&s| OpKey::Scatter(s)));
        keys.extend([
            OpKey::DynamicSlice,
            OpKey::DynamicUpdateSlice,
            OpKey::Convolution,
        ]);
        keys.extend(ReduceKind::ALL.iter().map(|&r| OpKey::ReduceWindow(r)));
        keys.extend(SelectKind::ALL.iter().map(|&s| OpKey::SelectAndScatter(s)));
        keys.extend([OpKey::Pad, OpKey::Reverse]);
        keys.extend(ArgKind::ALL.iter().map(|&a| OpKey::ArgReduce(a)));
        keys.extend([OpKey::Sort, OpKey::TopK]);
        keys.extend(ReduceKind::ALL.iter().map(|&r| OpKey::Reduce(r)));
        keys.extend(ReduceKind::ALL.iter().map(|&r| OpKey::MultiReduce(r)));
        keys.extend([
            OpKey::Call,
            OpKey::Rng,
            OpKey::RngBitGenerator,
            OpKey::Cond,
            OpKey::While,
            OpKey::Scan,
            OpKey::Tuple,
            OpKey::TupleGet,
            OpKey::OptimizationBarrier,
        ]);
        keys
    }

    /// The op's name in the text format.
    pub fn name(self) -> &'static str {
        match self {
            OpKey::Constant => "constant",
            OpKey::Iota => "iota",
            OpKey::Unary(u) => u.name(),
            OpKey::Binary(b) => b.name(),
            OpKey::Compare(c) => c.name(),
            OpKey::Select => "select",
            OpKey::Cast => "cast",
            OpKey::Bitcast => "bitcast",
            OpKey::BitcastResize => "bitcast_resize",
            OpKey::ReducePrecision => "reduce_precision",
            OpKey::Reshape => "reshape",
            OpKey::Transpose => "transpose",
            OpKey::Broadcast => "broadcast",
            OpKey::Slice => "slice",
            OpKey::Concat => "concat",
            OpKey::DotGeneral => "dot_general",
            OpKey::Gather => "gather",
            OpKey::Scatter(k) => k.name(),
            OpKey::DynamicSlice => "dynamic_slice",
            OpKey::DynamicUpdateSlice => "dynamic_update_slice",
            OpKey::Convolution => "convolution",
            OpKey::ReduceWindow(r) => r.window_name(),
            OpKey::SelectAndScatter(s) => s.name(),
            OpKey::Pad => "pad",
            OpKey::Reverse => "reverse",
            OpKey::ArgReduce(a) => a.name(),
            OpKey::Sort => "sort",
            OpKey::TopK => "top_k",
            OpKey::Reduce(r) => r.name(),
            OpKey::MultiReduce(r) => r.multi_name(),
            OpKey::Call => "call",
            OpKey::Rng => "rng",
            OpKey::RngBitGenerator => "rng_bit_generator",
            OpKey::Cond => "cond",
            OpKey::While => "while",
            OpKey::Scan => "scan",
            OpKey::Tuple => "tuple",
            OpKey::TupleGet => "tuple_get",
            OpKey::OptimizationBarrier => "optimization_barrier",
        }
    }

    /// The kind with this name (looked up in a table built once: rule files name an op kind
    /// per term).
    pub fn from_name(s: &str) -> Option<OpKey> {
        static BY_NAME: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, OpKey>> =
            std::sync::OnceLock::new();
        let by_name = BY_NAME.get_or_init(|| {
            let mut by_name = rustc_hash::FxHashMap::default();
            for k in OpKey::all() {
                by_name.entry(k.name()).or_insert(k);
            }
            by_name
        });
        by_name.get(s).copied()
    }

    /// Is this an elementwise op (unary, binary, compare, select, cast, bitcast)?
    pub fn is_elementwise(self) -> bool {
        matches!(
            self,
            OpKey::Unary(_)
                | OpKey::Binary(_)
                | OpKey::Compare(_)
                | OpKey::Select
                | OpKey::Cast
                | OpKey::Bitcast
        )
    }

    /// Is the op kind pure by itself? (`call` and region ops depend on callee and bodies.)
    pub fn is_pure_kind(self) -> bool {
        !matches!(
            self,
            OpKey::Rng
                | OpKey::RngBitGenerator
                | OpKey::Call
                | OpKey::Cond
                | OpKey::While
                | OpKey::Scan
        )
    }
}

impl fmt::Display for OpKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Op {
    /// The op's kind.
    pub fn key(&self) -> OpKey {
        match self {
            Op::Constant(_) => OpKey::Constant,
            Op::Iota { .. } => OpKey::Iota,
            Op::Unary(u) => OpKey::Unary(*u),
            Op::Binary(b) => OpKey::Binary(*b),
            Op::Compare(c) => OpKey::Compare(*c),
            Op::Select => OpKey::Select,
            Op::Cast => OpKey::Cast,
            Op::Bitcast => OpKey::Bitcast,
            Op::BitcastResize => OpKey::BitcastResize,
            Op::ReducePrecision { .. } => OpKey::ReducePrecision,
            Op::Reshape => OpKey::Reshape,
            Op::Transpose { .. } => OpKey::Transpose,
            Op::Broadcast { .. } => OpKey::Broadcast,
            Op::Slice(_) => OpKey::Slice,
            Op::Concat { .. } => OpKey::Concat,
            Op::DotGeneral(_) => OpKey::DotGeneral,
            Op::Gather(_) => OpKey::Gather,
            Op::Scatter { kind, .. } => OpKey::Scatter(*kind),
            Op::DynamicSlice { .. } => OpKey::DynamicSlice,
            Op::DynamicUpdateSlice => OpKey::DynamicUpdateSlice,
            Op::Convolution(_) => OpKey::Convolution,
            Op::ReduceWindow { kind, .. } => OpKey::ReduceWindow(*kind),
            Op::SelectAndScatter { select, .. } => OpKey::SelectAndScatter(*select),
            Op::Pad(_) => OpKey::Pad,
            Op::Reverse { .. } => OpKey::Reverse,
            Op::ArgReduce { kind, .. } => OpKey::ArgReduce(*kind),
            Op::Sort { .. } => OpKey::Sort,
            Op::TopK { .. } => OpKey::TopK,
            Op::Reduce { kind, .. } => OpKey::Reduce(*kind),
            Op::MultiReduce { kind, .. } => OpKey::MultiReduce(*kind),
            Op::Call { .. } => OpKey::Call,
            Op::Rng { .. } => OpKey::Rng,
            Op::RngBitGenerator { .. } => OpKey::RngBitGenerator,
            Op::Cond { .. } => OpKey::Cond,
            Op::While { .. } => OpKey::While,
            Op::Scan { .. } => OpKey::Scan,
            Op::Tuple => OpKey::Tuple,
            Op::TupleGet { .. } => OpKey::TupleGet,
            Op::OptimizationBarrier => OpKey::OptimizationBarrier,
        }
    }

    /// The op's name in the text format.
    pub fn name(&self) -> &'static str {
        self.key().name()
    }

    /// The regions of a region op, in their textual order (empty for other ops).
    pub fn regions(&self) -> SmallVec<[&Region; 2]> {
        match self {
            Op::Cond {
                then_region,
                else_region,
            } => smallvec![&**then_region, &**else_region],
            Op::While { cond, body } => smallvec![&**cond, &**body],
            Op::Scan { body, .. } => smallvec![&**body],
            _ => SmallVec::new(),
        }
    }

    /// Mutable access to the regions of a region op.
    pub fn regions_mut(&mut self) -> SmallVec<[&mut Region; 2]> {
        match self {
            Op::Cond {
                then_region,
                else_region,
            } => smallvec![&mut **then_region, &mut **else_region],
            Op::While { cond, body } => smallvec![&mut **cond, &mut **body],
            Op::Scan { body, .. } => smallvec![&mut **body],
            _ => SmallVec::new(),
        }
    }
}

impl DTypeClass {
    /// Is the op defined on elements of `d`?
    pub fn admits(self, d: crate::types::DType) -> bool {
        match self {
            DTypeClass::Float => d.is_float(),
            DTypeClass::Int => d.is_int(),
            DTypeClass::IntOrBool => !d.is_float(),
            DTypeClass::Numeric => d != crate::types::DType::Bool,
            DTypeClass::Signed => d.is_float() || d.is_signed_int(),
        }
    }
}

/// A scatter's combining op, beside the ops (`gather` defines the kinds, and knows no op).
impl ScatterKind {
    /// The binary op combining the current element (first) with the update; `None` for `set`.
    pub fn combine(self) -> Option<BinaryOp> {
        match self {
            ScatterKind::Set => None,
            ScatterKind::Add => Some(BinaryOp::Add),
            ScatterKind::Mul => Some(BinaryOp::Mul),
            ScatterKind::Max => Some(BinaryOp::Max),
            ScatterKind::Min => Some(BinaryOp::Min),
        }
    }

    /// The kind combining with `op`, if a scatter has one.
    pub fn from_combine(op: BinaryOp) -> Option<Self> {
        ScatterKind::ALL
            .iter()
            .copied()
            .find(|k| k.combine() == Some(op))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every walk, move and copy of a program touches whole instructions: region bodies, dot
    /// dimensions and slice bounds are boxed so that the rare op does not size the common one
    /// (216 bytes an instruction with them inline, 104 now; the largest inline variant is a
    /// constant's literal).
    #[test]
    fn ops_and_instructions_stay_small() {
        assert!(
            std::mem::size_of::<Op>() <= 80,
            "{}",
            std::mem::size_of::<Op>()
        );
        let inst = std::mem::size_of::<crate::Instruction>();
        assert!(inst <= 144, "{inst}");
    }

    #[test]
    fn every_key_name_round_trips() {
        for k in OpKey::all() {
            assert_eq!(OpKey::from_name(k.name()), Some(k), "{k}");
        }
    }
}
