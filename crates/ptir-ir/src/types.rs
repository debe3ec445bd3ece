//! Element types, shapes and value types.
//!
//! Every SSA value of PTIR has a [`Type`]: a [`TensorType`] (an element [`DType`] and a static
//! [`Shape`]; rank 0 is a scalar) or a tuple of types, which is what region ops and calls with
//! several results produce.

use std::fmt;

/// Element type of a tensor.
///
/// The text format spells the integer types `i8` .. `i64` (two's complement) and `u8` ..
/// `u64` (unsigned; MLIR's `ui8` .. `ui64`), the floats `f16`, `bf16`, `f32`, `f64`, and
/// booleans `bool` (MLIR's `i1`). Every fact about a dtype (its name, width and kind) comes
/// from one table, [`DType::facts`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum DType {
    /// IEEE binary16.
    F16,
    /// bfloat16 (8-bit exponent, 7-bit mantissa).
    BF16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
    /// 32-bit two's complement integer.
    I32,
    /// 64-bit two's complement integer.
    I64,
    /// Boolean.
    Bool,
    /// 8-bit two's complement integer.
    I8,
    /// 16-bit two's complement integer.
    I16,
    /// 8-bit unsigned integer.
    U8,
    /// 16-bit unsigned integer.
    U16,
    /// 32-bit unsigned integer.
    U32,
    /// 64-bit unsigned integer.
    U64,
}

/// What kind of numbers a dtype holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DTypeKind {
    /// IEEE-style binary floating point.
    Float,
    /// Two's complement integers.
    Signed,
    /// Unsigned integers.
    Unsigned,
    /// `false` / `true`.
    Bool,
}

/// The facts of one dtype: the row of [`DType::facts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DTypeFacts {
    /// The keyword of the text format.
    pub name: &'static str,
    /// Width in bits (8 for bool, which is stored as a byte).
    pub bits: u32,
    /// Float, signed, unsigned or bool.
    pub kind: DTypeKind,
    /// Significand bits of a float, the implicit one included (0 for the others).
    pub significand: u32,
}

impl DType {
    /// All element types, in a fixed order (used by generators and tests).
    pub const ALL: [DType; 13] = [
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
        DType::I32,
        DType::I64,
        DType::Bool,
        DType::I8,
        DType::I16,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
    ];

    /// The integer element types, signed then unsigned, narrowest first.
    pub const INTS: [DType; 8] = [
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
    ];

    /// The table of dtype facts: every other property of a dtype is read from it.
    pub const fn facts(self) -> DTypeFacts {
        use DTypeKind::*;
        let (name, bits, kind, significand) = match self {
            DType::F16 => ("f16", 16, Float, 11),
            DType::BF16 => ("bf16", 16, Float, 8),
            DType::F32 => ("f32", 32, Float, 24),
            DType::F64 => ("f64", 64, Float, 53),
            DType::I8 => ("i8", 8, Signed, 0),
            DType::I16 => ("i16", 16, Signed, 0),
            DType::I32 => ("i32", 32, Signed, 0),
            DType::I64 => ("i64", 64, Signed, 0),
            DType::U8 => ("u8", 8, Unsigned, 0),
            DType::U16 => ("u16", 16, Unsigned, 0),
            DType::U32 => ("u32", 32, Unsigned, 0),
            DType::U64 => ("u64", 64, Unsigned, 0),
            DType::Bool => ("bool", 8, Bool, 0),
        };
        DTypeFacts {
            name,
            bits,
            kind,
            significand,
        }
    }

    /// The keyword used by the text format.
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// Parses a dtype keyword (`f32`, `u8`, `bool`, ...).
    pub fn from_name(s: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.name() == s)
    }

    /// Float, signed, unsigned or bool.
    pub fn kind(self) -> DTypeKind {
        self.facts().kind
    }

    /// Width in bits (8 for bool).
    pub fn bits(self) -> u32 {
        self.facts().bits
    }

    /// The explicitly stored mantissa bits of a float dtype (its significand without the
    /// implicit one: 10 for `f16`, 7 for `bf16`, 23 for `f32`, 52 for `f64`); `None` otherwise.
    pub fn mantissa_bits(self) -> Option<usize> {
        let s = self.facts().significand;
        (self.is_float() && s > 0).then(|| s as usize - 1)
    }

    /// Floating-point element type?
    pub fn is_float(self) -> bool {
        self.kind() == DTypeKind::Float
    }

    /// Integer element type, signed or unsigned?
    pub fn is_int(self) -> bool {
        matches!(self.kind(), DTypeKind::Signed | DTypeKind::Unsigned)
    }

    /// Unsigned integer element type?
    pub fn is_unsigned(self) -> bool {
        self.kind() == DTypeKind::Unsigned
    }

    /// Signed integer element type?
    pub fn is_signed_int(self) -> bool {
        self.kind() == DTypeKind::Signed
    }

    /// The integer dtype of `bits` bits, signed or unsigned (`None` for another width).
    ///
    /// ```
    /// use ptir_ir::DType;
    /// assert_eq!(DType::int_of_width(16, false), Some(DType::U16));
    /// assert_eq!(DType::int_of_width(64, true), Some(DType::I64));
    /// assert_eq!(DType::int_of_width(12, true), None);
    /// ```
    pub fn int_of_width(bits: u32, signed: bool) -> Option<DType> {
        let kind = if signed {
            DTypeKind::Signed
        } else {
            DTypeKind::Unsigned
        };
        DType::ALL
            .into_iter()
            .find(|d| d.kind() == kind && d.bits() == bits)
    }

    /// The smallest and largest value of an integer dtype (`None` for floats and bool).
    ///
    /// ```
    /// use ptir_ir::DType;
    /// assert_eq!(DType::I8.int_range(), Some((-128, 127)));
    /// assert_eq!(DType::U64.int_range(), Some((0, u64::MAX as i128)));
    /// ```
    pub fn int_range(self) -> Option<(i128, i128)> {
        let bits = self.bits();
        match self.kind() {
            DTypeKind::Signed => Some((-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)),
            DTypeKind::Unsigned => Some((0, (1i128 << bits) - 1)),
            DTypeKind::Float | DTypeKind::Bool => None,
        }
    }

    /// Size of one element in bytes (bool counts as one byte).
    pub fn size_bytes(self) -> usize {
        (self.bits() / 8) as usize
    }

    /// Does every value of `self` convert to `to` and back without change?
    ///
    /// This is what makes `cast(cast(x, to), self)` equal to `x`.
    ///
    /// ```
    /// use ptir_ir::DType;
    /// assert!(DType::U8.embeds_exactly_in(DType::I16));
    /// assert!(DType::U32.embeds_exactly_in(DType::F64));
    /// assert!(!DType::I8.embeds_exactly_in(DType::U64)); // -1 is no u64
    /// assert!(!DType::U32.embeds_exactly_in(DType::F32));
    /// ```
    pub fn embeds_exactly_in(self, to: DType) -> bool {
        if self == to {
            return true;
        }
        match (self.kind(), to.kind()) {
            (DTypeKind::Bool, k) => k != DTypeKind::Bool,
            (DTypeKind::Float, DTypeKind::Float) => {
                // f16 and bf16 embed in f32 and f64 (but not in each other), f32 in f64.
                to.bits() > self.bits()
            }
            (DTypeKind::Signed | DTypeKind::Unsigned, DTypeKind::Float) => {
                let significand = to.facts().significand;
                let (lo, hi) = self.int_range().unwrap_or((0, 0));
                hi <= 1i128 << significand && lo >= -(1i128 << significand)
            }
            (DTypeKind::Signed | DTypeKind::Unsigned, DTypeKind::Signed | DTypeKind::Unsigned) => {
                let ((lo, hi), (tlo, thi)) = (
                    self.int_range().unwrap_or((0, 0)),
                    to.int_range().unwrap_or((0, 0)),
                );
                tlo <= lo && hi <= thi
            }
            _ => false,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A static shape: the size of every dimension. Rank 0 is a scalar.
pub type Shape = Vec<usize>;

/// Number of elements of a shape (1 for a scalar), saturating at `usize::MAX` so that absurd
/// user-written shapes cannot overflow.
pub fn num_elements(shape: &[usize]) -> usize {
    shape.iter().fold(1usize, |n, &d| n.saturating_mul(d))
}

/// Largest size in bytes of a value of one type: `i64::MAX` (2^63 - 1). The parser and the
/// verifier refuse larger types, so that element counts, byte sizes and every index or offset
/// computed from a well-formed type fit in signed 64-bit arithmetic (without the limit,
/// `f32[4294967296,4294967296,4294967296]` wraps to zero elements and passes `reshape` checks
/// it should fail). Far below it, the interpreter refuses values above
/// [`crate::TENSOR_ELEMENT_LIMIT`] elements.
pub const TYPE_BYTES_LIMIT: u64 = i64::MAX as u64;

/// The message of a type above [`TYPE_BYTES_LIMIT`].
fn too_large(ty: &impl fmt::Display) -> String {
    format!("type {ty} is too large: its size is above 2^63 - 1 bytes")
}

/// Row-major strides of a shape, in elements.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1].saturating_mul(shape[i + 1]);
    }
    s
}

/// The type of a tensor value: element type and static shape.
///
/// ```
/// use ptir_ir::{DType, TensorType};
/// let t = TensorType::new(DType::F32, vec![4, 8]);
/// assert_eq!(t.to_string(), "f32[4,8]");
/// assert_eq!(t.num_elements(), 32);
/// ```
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct TensorType {
    /// Element type.
    pub dtype: DType,
    /// Dimension sizes.
    pub shape: Shape,
}

impl TensorType {
    /// A tensor type.
    pub fn new(dtype: DType, shape: impl Into<Shape>) -> Self {
        TensorType {
            dtype,
            shape: shape.into(),
        }
    }

    /// A rank-0 tensor type.
    pub fn scalar(dtype: DType) -> Self {
        TensorType::new(dtype, vec![])
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements.
    pub fn num_elements(&self) -> usize {
        num_elements(&self.shape)
    }

    /// Size in bytes of a value of this type.
    pub fn size_bytes(&self) -> usize {
        self.num_elements().saturating_mul(self.dtype.size_bytes())
    }

    /// Number of elements, or `None` if the product of the dims overflows `usize`.
    ///
    /// ```
    /// use ptir_ir::{DType, TensorType};
    /// assert_eq!(TensorType::new(DType::F32, vec![2, 3]).checked_num_elements(), Some(6));
    /// let huge = TensorType::new(DType::F32, vec![1 << 32, 1 << 32, 1 << 32]);
    /// assert_eq!(huge.checked_num_elements(), None);
    /// ```
    pub fn checked_num_elements(&self) -> Option<usize> {
        self.shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d))
    }

    /// Size in bytes, or `None` if it is above [`TYPE_BYTES_LIMIT`] (or overflows).
    pub fn checked_size_bytes(&self) -> Option<u64> {
        let elements = u64::try_from(self.checked_num_elements()?).ok()?;
        elements
            .checked_mul(self.dtype.size_bytes() as u64)
            .filter(|&b| b <= TYPE_BYTES_LIMIT)
    }

    /// Checks that the type is within [`TYPE_BYTES_LIMIT`]; the message names the type.
    ///
    /// ```
    /// use ptir_ir::{DType, TensorType};
    /// assert!(TensorType::new(DType::F32, vec![100_000, 100_000]).check_size().is_ok());
    /// let huge = TensorType::new(DType::F64, vec![1 << 31, 1 << 31]);
    /// assert!(huge.check_size().unwrap_err().contains("f64[2147483648,2147483648] is too large"));
    /// ```
    pub fn check_size(&self) -> Result<(), String> {
        match self.checked_size_bytes() {
            Some(_) => Ok(()),
            None => Err(too_large(self)),
        }
    }

    /// Same shape, another element type.
    pub fn with_dtype(&self, dtype: DType) -> Self {
        TensorType::new(dtype, self.shape.clone())
    }
}

impl fmt::Display for TensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[", self.dtype)?;
        for (i, d) in self.shape.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")
    }
}

/// The type of an SSA value: a tensor, or a tuple of types.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// A tensor.
    Tensor(TensorType),
    /// A tuple (results of `tuple`, multi-result calls and region ops).
    Tuple(Vec<Type>),
}

impl Type {
    /// Checks that every tensor of the type, and the tuple as a whole, is within
    /// [`TYPE_BYTES_LIMIT`] (see [`TensorType::check_size`]).
    pub fn check_size(&self) -> Result<(), String> {
        match self.checked_size_bytes() {
            Some(_) => Ok(()),
            None => Err(too_large(self)),
        }
    }

    fn checked_size_bytes(&self) -> Option<u64> {
        match self {
            Type::Tensor(t) => t.checked_size_bytes(),
            Type::Tuple(ts) => ts.iter().try_fold(0u64, |n, t| {
                n.checked_add(t.checked_size_bytes()?)
                    .filter(|&b| b <= TYPE_BYTES_LIMIT)
            }),
        }
    }

    /// The tensor type, if this is a tensor.
    pub fn as_tensor(&self) -> Option<&TensorType> {
        match self {
            Type::Tensor(t) => Some(t),
            Type::Tuple(_) => None,
        }
    }

    /// The element types, if this is a tuple.
    pub fn as_tuple(&self) -> Option<&[Type]> {
        match self {
            Type::Tuple(ts) => Some(ts),
            Type::Tensor(_) => None,
        }
    }

    /// Packs a list of result types: one type stays itself, several become a tuple.
    pub fn pack(mut types: Vec<Type>) -> Type {
        if types.len() == 1 {
            types.pop().expect("one element")
        } else {
            Type::Tuple(types)
        }
    }

    /// Total bytes of all tensors in this type.
    pub fn size_bytes(&self) -> usize {
        match self {
            Type::Tensor(t) => t.size_bytes(),
            Type::Tuple(ts) => ts
                .iter()
                .fold(0usize, |n, t| n.saturating_add(t.size_bytes())),
        }
    }
}

impl From<TensorType> for Type {
    fn from(t: TensorType) -> Self {
        Type::Tensor(t)
    }
}

/// A [`Type`] as serialized: its nodes in pre-order ([`crate::preorder`]), so that neither
/// writing nor reading it recurses; reading refuses tuples nested deeper than the text
/// format's [`NESTING_LIMIT`].
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename = "TypeNode")]
enum TypeNode<T> {
    /// A tensor.
    Tensor(T),
    /// A tuple of the next this-many types.
    Tuple(usize),
}

impl serde::Serialize for Type {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut nodes = Vec::new();
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            match t {
                Type::Tensor(t) => nodes.push(TypeNode::Tensor(t)),
                Type::Tuple(ts) => {
                    nodes.push(TypeNode::Tuple(ts.len()));
                    stack.extend(ts.iter().rev());
                }
            }
        }
        serde::Serialize::serialize(&nodes, s)
    }
}

impl<'de> serde::Deserialize<'de> for Type {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use crate::preorder::{from_preorder, PreOrder};
        let nodes = Vec::<TypeNode<TensorType>>::deserialize(d)?;
        let nodes = nodes.into_iter().map(|n| match n {
            TypeNode::Tensor(t) => PreOrder::Leaf(t),
            TypeNode::Tuple(n) => PreOrder::Inner((), n),
        });
        from_preorder(nodes, Type::Tensor, |(), ts| Type::Tuple(ts), NESTING_LIMIT)
            .map_err(|e| <D::Error as serde::de::Error>::custom(format!("a type: {e}")))
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Tensor(t) => write!(f, "{t}"),
            Type::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// How deeply regions and tuple types may nest.
pub const NESTING_LIMIT: usize = 200;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_are_row_major() {
        assert_eq!(strides(&[2, 3, 4]), vec![12, 4, 1]);
        assert_eq!(strides(&[]), Vec::<usize>::new());
    }

    #[test]
    fn types_print() {
        let t = Type::Tuple(vec![
            TensorType::scalar(DType::I32).into(),
            TensorType::new(DType::BF16, vec![2, 3]).into(),
        ]);
        assert_eq!(t.to_string(), "(i32[], bf16[2,3])");
    }

    #[test]
    fn exact_embeddings() {
        assert!(DType::F16.embeds_exactly_in(DType::F64));
        assert!(!DType::F32.embeds_exactly_in(DType::F16));
        assert!(!DType::I64.embeds_exactly_in(DType::F64));
    }

    #[test]
    fn sizes_are_checked_not_wrapped() {
        // 2^96 elements: a wrapping product is 0, a saturating one usize::MAX.
        let huge = TensorType::new(DType::F32, vec![1 << 32, 1 << 32, 1 << 32]);
        assert_eq!(huge.checked_num_elements(), None);
        assert_eq!(huge.checked_size_bytes(), None);
        assert!(huge.check_size().is_err());
        // Elements fit, bytes do not.
        let bytes = TensorType::new(DType::F64, vec![1 << 61]);
        assert_eq!(bytes.checked_num_elements(), Some(1 << 61));
        assert!(bytes.check_size().is_err());
        // Each part of a tuple fits, the tuple does not.
        let half = TensorType::new(DType::Bool, vec![1 << 62]);
        assert!(half.check_size().is_ok());
        let pair = Type::Tuple(vec![half.clone().into(), half.into()]);
        assert!(pair.check_size().unwrap_err().contains("is too large"));
        // A large type a machine could hold is fine (only the interpreter refuses it).
        assert!(TensorType::new(DType::F32, vec![100_000, 100_000])
            .check_size()
            .is_ok());
    }

    #[test]
    fn types_serialize_without_recursion_and_refuse_deep_nesting() {
        let t = Type::Tuple(vec![
            TensorType::new(DType::F32, vec![2, 3]).into(),
            Type::Tuple(vec![]),
            Type::Tuple(vec![TensorType::new(DType::I64, vec![]).into()]),
        ]);
        let bytes = postcard::to_allocvec(&t).unwrap();
        assert_eq!(postcard::from_bytes::<Type>(&bytes).unwrap(), t);
        // 250 nested 1-tuples around a tensor: past the text format's nesting limit.
        let mut deep: Type = TensorType::new(DType::F32, vec![1]).into();
        for _ in 0..250 {
            deep = Type::Tuple(vec![deep]);
        }
        let bytes = postcard::to_allocvec(&deep).unwrap();
        let err = postcard::from_bytes::<Type>(&bytes).unwrap_err();
        assert!(matches!(err, postcard::Error::SerdeDeCustom), "{err}");
        // Nodes that stop inside a tuple, or go on after the type, are refused too.
        let two = postcard::to_allocvec(&Type::Tuple(vec![t.clone(), t.clone()])).unwrap();
        let mut short = two.clone();
        short[0] -= 1; // one node fewer than the tuple promises
        assert!(postcard::from_bytes::<Type>(&short[..short.len()]).is_err());
    }
}
