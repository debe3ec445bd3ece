//! Concrete tensor data: scalars, element buffers, constants and runtime values.
//!
//! Floats of every width are stored as `f64` holding a value that is exactly representable in
//! the tensor's dtype ([`round_float`] is applied after every operation); integers are stored as
//! `i64` wrapped to the dtype's width ([`wrap_int`]): sign-extended for signed dtypes,
//! zero-extended for unsigned ones, so that the `i64` is the element's value, except for `u64`
//! elements above `i64::MAX`, held as their bit pattern ([`int_value`] reads any element as
//! the number it stands for, and every kernel that orders, divides or converts integers reads
//! them through it). This keeps one code path per element class
//! while staying bit-exact for each dtype: f64 arithmetic followed by rounding to f32/f16/bf16 is
//! the correctly rounded result for `+ - * / sqrt` (the double has more than `2p + 2` bits).
//!
//! Equality and hashing compare floats by bit pattern, with every NaN equal to every other NaN,
//! so that `parse(print(p)) == p` holds for constants containing NaN and `-0.0 != 0.0`.

use crate::types::{DType, TensorType};
use std::fmt;
use std::hash::{Hash, Hasher};

/// Rounds `x` to the nearest value representable in the float dtype `d` (identity for f64).
pub fn round_float(d: DType, x: f64) -> f64 {
    match d {
        DType::F32 => x as f32 as f64,
        DType::F16 => half::f16::from_f64(x).to_f64(),
        DType::BF16 => half::bf16::from_f64(x).to_f64(),
        _ => x,
    }
}

/// Wraps `x` to the width of the integer dtype `d` (modulo `2^bits`): its low `bits` bits,
/// sign-extended for a signed dtype and zero-extended for an unsigned one. A 64-bit dtype (and
/// any non-integer dtype) keeps `x` as it is: a `u64` element is its bit pattern.
///
/// ```
/// use ptir_ir::{wrap_int, DType};
/// assert_eq!(wrap_int(DType::I8, 200), -56);
/// assert_eq!(wrap_int(DType::U8, -1), 255);
/// assert_eq!(wrap_int(DType::U32, 1 << 32), 0);
/// assert_eq!(wrap_int(DType::U64, -1), -1); // the bits of u64::MAX
/// ```
pub fn wrap_int(d: DType, x: i64) -> i64 {
    let bits = d.bits();
    if !d.is_int() || bits >= 64 {
        return x;
    }
    let shift = 64 - bits;
    if d.is_unsigned() {
        (((x as u64) << shift) >> shift) as i64
    } else {
        (x << shift) >> shift
    }
}

/// The number an integer element `x` of dtype `d` stands for: `x` itself, except that a `u64`
/// element is read as unsigned (`-1` is the bits of `u64::MAX`).
///
/// ```
/// use ptir_ir::{int_value, DType};
/// assert_eq!(int_value(DType::U64, -1), u64::MAX as i128);
/// assert_eq!(int_value(DType::I64, -1), -1);
/// assert_eq!(int_value(DType::U32, 4_000_000_000), 4_000_000_000);
/// ```
pub fn int_value(d: DType, x: i64) -> i128 {
    if d.is_unsigned() {
        i128::from(x as u64)
    } else {
        i128::from(x)
    }
}

/// The element of the integer dtype `d` congruent to `x` modulo `2^bits` (wrapping).
pub fn int_from_i128(d: DType, x: i128) -> i64 {
    wrap_int(d, x as i64)
}

fn float_key(x: f64) -> u64 {
    if x.is_nan() {
        f64::NAN.to_bits()
    } else {
        x.to_bits()
    }
}

/// One element.
#[derive(Clone, Copy, Debug)]
pub enum Scalar {
    /// A float of any width (already rounded to its dtype).
    Float(f64),
    /// An integer of any width (already wrapped to its dtype).
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl Scalar {
    /// The zero of a dtype.
    pub fn zero(d: DType) -> Scalar {
        Scalar::from_f64(d, 0.0)
    }

    /// The one of a dtype.
    pub fn one(d: DType) -> Scalar {
        Scalar::from_f64(d, 1.0)
    }

    /// Converts a real number to an element of dtype `d` (rounding, truncating or comparing
    /// with zero as `cast` does).
    pub fn from_f64(d: DType, x: f64) -> Scalar {
        if d.is_float() {
            Scalar::Float(round_float(d, x))
        } else if d.is_int() {
            Scalar::Int(wrap_int(d, float_to_int(d, x)))
        } else {
            Scalar::Bool(x != 0.0)
        }
    }

    /// The element as a real number (bool is 0 or 1), integers read as signed: a `u64`
    /// element above `i64::MAX` needs [`Scalar::as_f64_in`].
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Float(x) => x,
            Scalar::Int(i) => i as f64,
            Scalar::Bool(b) => b as u8 as f64,
        }
    }

    /// The element of dtype `d` as a real number (nearest `f64` of a large integer; bool is
    /// 0 or 1).
    ///
    /// ```
    /// use ptir_ir::{DType, Scalar};
    /// assert_eq!(Scalar::Int(-1).as_f64_in(DType::U64), u64::MAX as f64);
    /// assert_eq!(Scalar::Int(-1).as_f64_in(DType::I8), -1.0);
    /// ```
    pub fn as_f64_in(self, d: DType) -> f64 {
        match self {
            Scalar::Int(i) => int_value(d, i) as f64,
            other => other.as_f64(),
        }
    }

    /// A number written in a rule (a splat literal, or a number bound from a splat) as an
    /// element of dtype `d`, or `None` when `d` has no such element. Floats round it; integer
    /// dtypes take `inf` and `-inf` as their largest and smallest values (as `cast`
    /// saturates) and a finite number only when it is an integer within range, so that a
    /// rule written for `-1` never matches, nor builds, an unsigned `0` or `u32::MAX`; bool is
    /// `x != 0`.
    ///
    /// ```
    /// use ptir_ir::{DType, Scalar};
    /// assert_eq!(Scalar::from_number(DType::U32, -1.0), None);
    /// assert_eq!(Scalar::from_number(DType::U8, f64::INFINITY), Some(Scalar::Int(255)));
    /// assert_eq!(Scalar::from_number(DType::I32, 0.5), None);
    /// assert_eq!(Scalar::from_number(DType::I8, -1.0), Some(Scalar::Int(-1)));
    /// ```
    pub fn from_number(d: DType, x: f64) -> Option<Scalar> {
        match d.int_range() {
            Some((lo, hi)) if x.is_finite() => {
                // `lo` and `hi + 1` are powers of two, exact in f64 (`hi` may not be).
                let exact = x.fract() == 0.0 && (lo as f64..(hi + 1) as f64).contains(&x);
                exact.then(|| Scalar::from_f64(d, x))
            }
            Some(_) if x.is_nan() => None,
            _ => Some(Scalar::from_f64(d, x)),
        }
    }

    /// The element of dtype `d` as a rule's number, when [`Scalar::from_number`] gives it
    /// back exactly (`None` for an integer beyond 2^53 that an `f64` would round), so that a
    /// rule binding a splat and building it again builds the same element.
    ///
    /// ```
    /// use ptir_ir::{DType, Scalar};
    /// assert_eq!(Scalar::Int(-1).to_number(DType::U64), None); // u64::MAX
    /// assert_eq!(Scalar::Int(255).to_number(DType::U8), Some(255.0));
    /// ```
    pub fn to_number(self, d: DType) -> Option<f64> {
        let x = self.as_f64_in(d);
        (Scalar::from_number(d, x) == Some(self)).then_some(x)
    }

    /// The smallest element of an integer dtype (`None` for floats and bool).
    pub fn int_min(d: DType) -> Option<Scalar> {
        d.int_range()
            .map(|(lo, _)| Scalar::Int(int_from_i128(d, lo)))
    }

    /// The largest element of an integer dtype (`None` for floats and bool).
    pub fn int_max(d: DType) -> Option<Scalar> {
        d.int_range()
            .map(|(_, hi)| Scalar::Int(int_from_i128(d, hi)))
    }

    /// Does this element fit dtype `d` exactly (right class, rounded, wrapped)?
    pub fn fits(self, d: DType) -> bool {
        match self {
            Scalar::Float(x) => d.is_float() && (x.is_nan() || round_float(d, x) == x),
            Scalar::Int(i) => d.is_int() && wrap_int(d, i) == i,
            Scalar::Bool(_) => d == DType::Bool,
        }
    }
}

/// Float to integer conversion of `cast`: truncation toward zero, saturating at the bounds of
/// the target (so a negative number converts to 0 in an unsigned dtype), NaN to 0. The
/// result is an element of `d` ([`wrap_int`]'s form).
///
/// ```
/// use ptir_ir::{float_to_int, DType};
/// assert_eq!(float_to_int(DType::U8, 300.7), 255);
/// assert_eq!(float_to_int(DType::U32, -5.0), 0);
/// assert_eq!(float_to_int(DType::I16, -1e9), -32768);
/// assert_eq!(float_to_int(DType::U64, 1e30), -1); // the bits of u64::MAX
/// assert_eq!(float_to_int(DType::I8, f64::NAN), 0);
/// ```
pub fn float_to_int(d: DType, x: f64) -> i64 {
    match d.int_range() {
        // `as i128` truncates toward zero, saturates, and takes NaN to 0.
        Some((lo, hi)) => int_from_i128(d, (x as i128).clamp(lo, hi)),
        None => x as i64,
    }
}

impl PartialEq for Scalar {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Scalar::Float(a), Scalar::Float(b)) => float_key(*a) == float_key(*b),
            (Scalar::Int(a), Scalar::Int(b)) => a == b,
            (Scalar::Bool(a), Scalar::Bool(b)) => a == b,
            _ => false,
        }
    }
}
impl Eq for Scalar {}

impl Hash for Scalar {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Scalar::Float(x) => (0u8, float_key(*x)).hash(state),
            Scalar::Int(i) => (1u8, i).hash(state),
            Scalar::Bool(b) => (2u8, b).hash(state),
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", ScalarIn(DType::F64, *self))
    }
}

/// Displays a scalar as an element of a dtype, in the text the parser reads back exactly:
/// floats of f16/bf16/f32 tensors as the shortest `f32` decimal, of f64 tensors as the shortest
/// `f64` decimal; `nan`, `inf`, `-inf` and `-0.0` kept. [`parse_float`] is the inverse.
pub struct ScalarIn(pub DType, pub Scalar);

impl fmt::Display for ScalarIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Scalar::Float(x) if x.is_nan() => f.write_str("nan"),
            Scalar::Float(x) if x.is_infinite() => {
                f.write_str(if x > 0.0 { "inf" } else { "-inf" })
            }
            Scalar::Float(x) if self.0 != DType::F64 => write!(f, "{:?}", x as f32),
            Scalar::Float(x) => write!(f, "{x:?}"),
            Scalar::Int(i) => write!(f, "{}", int_value(self.0, i)),
            Scalar::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// Reads a float literal of dtype `d` as [`ScalarIn`] writes it (f16/bf16/f32 text is read as
/// an `f32`, then rounded to the dtype).
pub fn parse_float(d: DType, text: &str) -> Option<f64> {
    let x = match text {
        "nan" => f64::NAN,
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        _ if d == DType::F64 => text.parse::<f64>().ok()?,
        _ => text.parse::<f32>().ok()? as f64,
    };
    Some(round_float(d, x))
}

/// A flat, row-major element buffer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Data {
    /// Float elements.
    Float(Vec<FloatBits>),
    /// Integer elements.
    Int(Vec<i64>),
    /// Boolean elements.
    Bool(Vec<bool>),
}

/// An `f64` compared and hashed by bit pattern (all NaNs equal), so buffers can be `Eq + Hash`.
#[derive(Clone, Copy, Debug)]
pub struct FloatBits(pub f64);

impl PartialEq for FloatBits {
    fn eq(&self, other: &Self) -> bool {
        float_key(self.0) == float_key(other.0)
    }
}
impl Eq for FloatBits {}
impl Hash for FloatBits {
    fn hash<H: Hasher>(&self, state: &mut H) {
        float_key(self.0).hash(state)
    }
}

impl Data {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Data::Float(v) => v.len(),
            Data::Int(v) => v.len(),
            Data::Bool(v) => v.len(),
        }
    }

    /// No elements?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i`.
    pub fn get(&self, i: usize) -> Scalar {
        match self {
            Data::Float(v) => Scalar::Float(v[i].0),
            Data::Int(v) => Scalar::Int(v[i]),
            Data::Bool(v) => Scalar::Bool(v[i]),
        }
    }

    /// A buffer of `n` copies of `s`.
    pub fn splat(s: Scalar, n: usize) -> Data {
        match s {
            Scalar::Float(x) => Data::Float(vec![FloatBits(x); n]),
            Scalar::Int(i) => Data::Int(vec![i; n]),
            Scalar::Bool(b) => Data::Bool(vec![b; n]),
        }
    }

    /// Builds a buffer of the class of `d` from scalars (which must be of that class).
    pub fn from_scalars(d: DType, xs: impl IntoIterator<Item = Scalar>) -> Data {
        let it = xs.into_iter();
        if d.is_float() {
            Data::Float(it.map(|s| FloatBits(s.as_f64())).collect())
        } else if d.is_int() {
            Data::Int(
                it.map(|s| match s {
                    Scalar::Int(i) => i,
                    other => other.as_f64() as i64,
                })
                .collect(),
            )
        } else {
            Data::Bool(it.map(|s| s.as_f64() != 0.0).collect())
        }
    }

    /// Iterates over the elements.
    pub fn iter(&self) -> impl Iterator<Item = Scalar> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The float elements, if this is a float buffer.
    pub fn as_floats(&self) -> Option<Vec<f64>> {
        match self {
            Data::Float(v) => Some(v.iter().map(|x| x.0).collect()),
            _ => None,
        }
    }
}

/// A tensor value: a type and a buffer of `ty.num_elements()` elements.
///
/// ```
/// use ptir_ir::{DType, Tensor, TensorType};
/// let t = Tensor::from_f64(TensorType::new(DType::F32, vec![2]), &[1.0, 0.1]);
/// assert_eq!(t.to_string(), "f32[2] [1.0, 0.1]");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tensor {
    /// Its type.
    pub ty: TensorType,
    /// Its elements, row-major.
    pub data: Data,
}

impl Tensor {
    /// A tensor from real numbers, converted to the dtype as `cast` would.
    pub fn from_f64(ty: TensorType, xs: &[f64]) -> Tensor {
        let data = Data::from_scalars(ty.dtype, xs.iter().map(|&x| Scalar::from_f64(ty.dtype, x)));
        Tensor { ty, data }
    }

    /// A tensor with every element equal to `s`.
    pub fn splat(ty: TensorType, s: Scalar) -> Tensor {
        let n = ty.num_elements();
        Tensor {
            ty,
            data: Data::splat(s, n),
        }
    }

    /// Element `i` (row-major).
    pub fn get(&self, i: usize) -> Scalar {
        self.data.get(i)
    }

    /// All elements as real numbers.
    pub fn to_f64_vec(&self) -> Vec<f64> {
        self.data.iter().map(Scalar::as_f64).collect()
    }
}

impl fmt::Display for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [", self.ty)?;
        for (i, s) in self.data.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", ScalarIn(self.ty.dtype, s))?;
        }
        f.write_str("]")
    }
}

/// The payload of a `constant` op: one value repeated, or every element.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    /// Every element equals this scalar.
    Splat(Scalar),
    /// Every element, row-major.
    Dense(Data),
}

impl Literal {
    /// Expands the literal into a tensor of type `ty`.
    pub fn to_tensor(&self, ty: &TensorType) -> Tensor {
        match self {
            Literal::Splat(s) => Tensor::splat(ty.clone(), *s),
            Literal::Dense(d) => Tensor {
                ty: ty.clone(),
                data: d.clone(),
            },
        }
    }

    /// The repeated scalar, if every element is the same (splat, or a dense buffer of equal
    /// elements).
    pub fn splat_value(&self) -> Option<Scalar> {
        match self {
            Literal::Splat(s) => Some(*s),
            Literal::Dense(d) => {
                let first = d.iter().next()?;
                d.iter().all(|s| s == first).then_some(first)
            }
        }
    }
}

/// A runtime value: a tensor or a tuple of values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A tensor.
    Tensor(Tensor),
    /// A tuple.
    Tuple(Vec<Value>),
}

impl Value {
    /// The tensor, if this is one.
    pub fn as_tensor(&self) -> Option<&Tensor> {
        match self {
            Value::Tensor(t) => Some(t),
            Value::Tuple(_) => None,
        }
    }

    /// Packs values: one stays itself, several become a tuple.
    pub fn pack(mut vs: Vec<Value>) -> Value {
        if vs.len() == 1 {
            vs.pop().expect("one element")
        } else {
            Value::Tuple(vs)
        }
    }

    /// Unpacks a value produced for `n` results (inverse of [`Value::pack`]).
    pub fn unpack(self, n: usize) -> Vec<Value> {
        match self {
            Value::Tuple(vs) if n != 1 => vs,
            v => vec![v],
        }
    }
}

impl From<Tensor> for Value {
    fn from(t: Tensor) -> Self {
        Value::Tensor(t)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Tensor(t) => write!(f, "{t}"),
            Value::Tuple(vs) => {
                f.write_str("(")?;
                for (i, v) in vs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_equals_nan_and_signed_zeros_differ() {
        assert_eq!(Scalar::Float(f64::NAN), Scalar::Float(-f64::NAN));
        assert_ne!(Scalar::Float(0.0), Scalar::Float(-0.0));
    }

    #[test]
    fn rounding_per_dtype() {
        assert_eq!(round_float(DType::F32, 0.1), 0.1f32 as f64);
        assert_eq!(round_float(DType::BF16, 1.0 + 1.0 / 512.0), 1.0);
        assert_eq!(wrap_int(DType::I32, i32::MAX as i64 + 1), i32::MIN as i64);
        assert_eq!(float_to_int(DType::I32, f64::NAN), 0);
        assert_eq!(float_to_int(DType::I32, 1e20), i32::MAX as i64);
    }

    #[test]
    fn floats_print_shortest_and_read_back_exactly() {
        let tenth32 = 0.1f32 as f64;
        assert_eq!(
            ScalarIn(DType::F32, Scalar::Float(tenth32)).to_string(),
            "0.1"
        );
        assert_eq!(parse_float(DType::F32, "0.1"), Some(tenth32));
        let in64 = ScalarIn(DType::F64, Scalar::Float(tenth32)).to_string();
        assert_eq!(parse_float(DType::F64, &in64), Some(tenth32));
        assert_eq!(Scalar::Float(-0.0).to_string(), "-0.0");
        assert_eq!(Scalar::Float(f64::NEG_INFINITY).to_string(), "-inf");
        assert!(parse_float(DType::BF16, "nan").is_some_and(f64::is_nan));
    }
}
