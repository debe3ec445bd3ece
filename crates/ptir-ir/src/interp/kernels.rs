//! Elementwise kernels: the exact value of every unary, binary, comparison and conversion on
//! one element, and their application to whole tensors.
//!
//! These functions are the ground truth of elementwise arithmetic. Constant folders must call
//! them rather than recompute, so that a folded program computes bit for bit what the
//! interpreter computes. The rules:
//!
//! - Floats of every width are computed in `f64` and rounded to the dtype once at the end
//!   ([`round_float`]); transcendental functions come from the `libm` crate, which gives the
//!   same bits on every platform.
//! - Integers wrap at their width ([`wrap_int`]), every integer dtype alike: an element is
//!   read as the number it stands for ([`int_value`]: unsigned dtypes are unsigned, so `max`,
//!   `min`, comparisons, `div` and `rem` are unsigned there), the result is computed exactly
//!   in `i128` and wrapped modulo `2^bits`. `div` truncates; `div`/`rem` by zero is
//!   [`InterpError::DivisionByZero`] (signed or unsigned); `MIN / -1` wraps to `MIN` and
//!   `MIN % -1` is `0`. Shifts read the amount as unsigned: an amount of the width or more
//!   (or a negative signed one) gives 0 for `shl` and `shr_logical`, and the sign fill (the
//!   top bit of the width, also for unsigned dtypes) for `shr_arith`, as StableHLO says.
//!   `popcnt` and `clz` count bits at the dtype's width.
//! - `max`/`min` propagate the NaN operand (sign and payload) and order `-0 < +0`.
//! - Comparisons are IEEE on floats (every comparison with NaN is false, except `ne`); bools
//!   order `false < true`.

use super::error::{InterpError, InterpResult};
use crate::ops::{BinaryOp, CmpOp, UnaryOp};
use crate::tensor::{
    int_from_i128, int_value, round_float, wrap_int, Data, FloatBits, Scalar, Tensor,
};
use crate::types::{DType, TensorType};

/// `max` on floats: the NaN operand if either is NaN (the first if both: its sign and payload
/// too, as hardware propagates them, so that `max(x, x)`, a maximum over one element and
/// the rules that forward `x` agree bit for bit even where a `bitcast` reads the bits), and
/// `max(-0, +0) = +0`.
pub fn float_max(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a == b {
        if a.is_sign_negative() {
            b
        } else {
            a
        }
    } else if a > b {
        a
    } else {
        b
    }
}

/// `min` on floats: the NaN operand if either is NaN (the first if both, as [`float_max`]),
/// and `min(-0, +0) = -0`.
pub fn float_min(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() {
        b
    } else if a == b {
        if a.is_sign_negative() {
            a
        } else {
            b
        }
    } else if a < b {
        a
    } else {
        b
    }
}

fn class_error(what: impl std::fmt::Display, d: DType) -> InterpError {
    InterpError::malformed(format!("`{what}` is not defined on {d} elements"))
}

/// One element of an elementwise unary op on dtype `dtype`.
///
/// ```
/// use ptir_ir::{unary_scalar, DType, Scalar, UnaryOp};
/// let r = unary_scalar(UnaryOp::Neg, DType::I32, Scalar::Int(i32::MIN as i64));
/// assert_eq!(r, Ok(Scalar::Int(i32::MIN as i64)));
/// ```
pub fn unary_scalar(op: UnaryOp, dtype: DType, x: Scalar) -> InterpResult<Scalar> {
    match x {
        Scalar::Float(f) if dtype.is_float() => {
            let r = match op {
                UnaryOp::Neg => -f,
                UnaryOp::Exp => libm::exp(f),
                UnaryOp::Log => libm::log(f),
                UnaryOp::Sqrt => libm::sqrt(f),
                UnaryOp::Rsqrt => 1.0 / libm::sqrt(f),
                UnaryOp::Tanh => libm::tanh(f),
                UnaryOp::Erf => libm::erf(f),
                UnaryOp::Abs => f.abs(),
                UnaryOp::Logistic => 1.0 / (1.0 + libm::exp(-f)),
                UnaryOp::Square => f * f,
                UnaryOp::Sin => libm::sin(f),
                UnaryOp::Cos => libm::cos(f),
                UnaryOp::Tan => libm::tan(f),
                UnaryOp::Erfc => libm::erfc(f),
                UnaryOp::ErfInv => erf_inv(f),
                UnaryOp::Sinh => libm::sinh(f),
                UnaryOp::Cosh => libm::cosh(f),
                UnaryOp::Asin => libm::asin(f),
                UnaryOp::Acos => libm::acos(f),
                UnaryOp::Atan => libm::atan(f),
                UnaryOp::Asinh => libm::asinh(f),
                UnaryOp::Acosh => libm::acosh(f),
                UnaryOp::Atanh => libm::atanh(f),
                UnaryOp::Lgamma => libm::lgamma(f),
                UnaryOp::Digamma => digamma(f),
                UnaryOp::Log1p => libm::log1p(f),
                UnaryOp::Expm1 => libm::expm1(f),
                UnaryOp::Cbrt => libm::cbrt(f),
                UnaryOp::Floor => f.floor(),
                UnaryOp::Ceil => f.ceil(),
                UnaryOp::Round => f.round_ties_even(),
                UnaryOp::RoundAfz => f.round(),
                UnaryOp::Sign if f.is_nan() || f == 0.0 => f,
                UnaryOp::Sign => f.signum(),
                UnaryOp::Not | UnaryOp::Popcnt | UnaryOp::Clz => {
                    return Err(class_error(op, dtype))
                }
            };
            Ok(Scalar::Float(round_float(dtype, r)))
        }
        Scalar::Int(i) if dtype.is_int() && op.dtype_class().admits(dtype) => {
            let v = int_value(dtype, i);
            let r = match op {
                UnaryOp::Neg => v.wrapping_neg(),
                UnaryOp::Abs => v.abs(),
                UnaryOp::Not => !v,
                UnaryOp::Square => v.wrapping_mul(v),
                UnaryOp::Sign => v.signum(),
                UnaryOp::Popcnt => i128::from(width_bits(dtype, i).count_ones()),
                UnaryOp::Clz => {
                    i128::from(width_bits(dtype, i).leading_zeros() - (64 - dtype.bits()))
                }
                _ => return Err(class_error(op, dtype)),
            };
            Ok(Scalar::Int(int_from_i128(dtype, r)))
        }
        Scalar::Bool(b) if dtype == DType::Bool && op == UnaryOp::Not => Ok(Scalar::Bool(!b)),
        _ => Err(class_error(op, dtype)),
    }
}

/// One element of an elementwise binary op on dtype `dtype`.
///
/// ```
/// use ptir_ir::{binary_scalar, BinaryOp, DType, InterpError, Scalar};
/// let max = binary_scalar(BinaryOp::Max, DType::F32, Scalar::Float(-0.0), Scalar::Float(0.0));
/// assert_eq!(max, Ok(Scalar::Float(0.0)));
/// let div = binary_scalar(BinaryOp::Div, DType::I32, Scalar::Int(1), Scalar::Int(0));
/// assert_eq!(div, Err(InterpError::DivisionByZero));
/// ```
pub fn binary_scalar(op: BinaryOp, dtype: DType, a: Scalar, b: Scalar) -> InterpResult<Scalar> {
    match (a, b) {
        (Scalar::Float(x), Scalar::Float(y)) if dtype.is_float() && op == BinaryOp::NextAfter => {
            next_after(dtype, x, y).map(Scalar::Float)
        }
        (Scalar::Float(x), Scalar::Float(y)) if dtype.is_float() => {
            binary_float(op, x, y).map(|r| Scalar::Float(round_float(dtype, r)))
        }
        (Scalar::Int(x), Scalar::Int(y)) if dtype.is_int() => {
            binary_int(op, dtype, x, y).map(|r| Scalar::Int(wrap_int(dtype, r)))
        }
        (Scalar::Bool(x), Scalar::Bool(y)) if dtype == DType::Bool => match op {
            BinaryOp::And => Ok(Scalar::Bool(x && y)),
            BinaryOp::Or => Ok(Scalar::Bool(x || y)),
            BinaryOp::Xor => Ok(Scalar::Bool(x != y)),
            _ => Err(class_error(op, dtype)),
        },
        _ => Err(class_error(op, dtype)),
    }
}

fn binary_float(op: BinaryOp, x: f64, y: f64) -> InterpResult<f64> {
    Ok(match op {
        BinaryOp::Add => x + y,
        BinaryOp::Sub => x - y,
        BinaryOp::Mul => x * y,
        BinaryOp::Div => x / y,
        BinaryOp::Rem => x % y,
        BinaryOp::Max => float_max(x, y),
        BinaryOp::Min => float_min(x, y),
        BinaryOp::Pow => libm::pow(x, y),
        BinaryOp::Atan2 => libm::atan2(x, y),
        BinaryOp::NextAfter => return Err(InterpError::malformed("`next_after` needs its dtype")),
        BinaryOp::And
        | BinaryOp::Or
        | BinaryOp::Xor
        | BinaryOp::Shl
        | BinaryOp::ShrArith
        | BinaryOp::ShrLogical => return Err(InterpError::malformed(format!("`{op}` on floats"))),
    })
}

/// `next_after(x, y)` in float dtype `d`: one step of `d`'s bits from `x` toward `y`, from
/// `±0` to the smallest subnormal of `y`'s sign; `y` when they are equal, NaN when either is.
fn next_after(d: DType, x: f64, y: f64) -> InterpResult<f64> {
    if x.is_nan() || y.is_nan() {
        return Ok(f64::NAN);
    }
    if x == y {
        return Ok(y);
    }
    let bits = element_bits(d, Scalar::Float(x))
        .ok_or_else(|| InterpError::malformed(format!("`next_after` of {d}")))?;
    let sign = 1u64 << (d.bits() - 1);
    let next = if x == 0.0 {
        if y > 0.0 {
            1
        } else {
            sign | 1
        }
    } else if (x < y) == (bits & sign == 0) {
        bits + 1 // away from zero
    } else {
        bits - 1 // toward zero
    };
    let unsigned = DType::int_of_width(d.bits(), false)
        .ok_or_else(|| InterpError::malformed(format!("`next_after` of {d}")))?;
    match bitcast_scalar(Scalar::Int(next as i64), unsigned, d)? {
        Scalar::Float(f) => Ok(f),
        s => Err(InterpError::malformed(format!("`next_after` gave {s}"))),
    }
}

/// The bits of an integer element at its dtype's width, zero-extended.
fn width_bits(d: DType, x: i64) -> u64 {
    match d.bits() {
        64 => x as u64,
        bits => x as u64 & ((1u64 << bits) - 1),
    }
}

/// The element's bits at its width read as two's complement (the sign `shr_arith` fills
/// with, for unsigned dtypes too).
fn width_signed(d: DType, x: i64) -> i128 {
    let shift = 64 - d.bits();
    i128::from(((width_bits(d, x) << shift) as i64) >> shift)
}

fn binary_int(op: BinaryOp, dtype: DType, x: i64, y: i64) -> InterpResult<i64> {
    let (a, b) = (int_value(dtype, x), int_value(dtype, y));
    // The shift amount, read as unsigned, when it is below the width.
    let shift = u32::try_from(b).ok().filter(|&s| s < dtype.bits());
    let r = match op {
        BinaryOp::Shl => shift.map_or(0, |s| a.wrapping_shl(s)),
        BinaryOp::ShrLogical => shift.map_or(0, |s| i128::from(width_bits(dtype, x) >> s)),
        BinaryOp::ShrArith => {
            let signed = width_signed(dtype, x);
            shift.map_or(if signed < 0 { -1 } else { 0 }, |s| signed >> s)
        }
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::Div | BinaryOp::Rem if b == 0 => return Err(InterpError::DivisionByZero),
        // Exact in i128 (`MIN / -1` is `-MIN`, which wraps back to `MIN`).
        BinaryOp::Div => a / b,
        BinaryOp::Rem => a % b,
        BinaryOp::Max => a.max(b),
        BinaryOp::Min => a.min(b),
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::Pow | BinaryOp::Atan2 | BinaryOp::NextAfter => {
            return Err(InterpError::malformed(format!("`{op}` on integers")))
        }
    };
    Ok(int_from_i128(dtype, r))
}

/// One element of a comparison of two elements of dtype `dtype` (unsigned dtypes compare
/// as unsigned).
///
/// ```
/// use ptir_ir::{compare_scalar, CmpOp, DType, Scalar};
/// let nan = Scalar::Float(f64::NAN);
/// assert_eq!(compare_scalar(CmpOp::Eq, DType::F32, nan, nan), Ok(false));
/// assert_eq!(compare_scalar(CmpOp::Ne, DType::F32, nan, nan), Ok(true));
/// // u64::MAX (held as the bits -1) is above 1.
/// assert_eq!(compare_scalar(CmpOp::Gt, DType::U64, Scalar::Int(-1), Scalar::Int(1)), Ok(true));
/// ```
pub fn compare_scalar(op: CmpOp, dtype: DType, a: Scalar, b: Scalar) -> InterpResult<bool> {
    match (a, b) {
        (Scalar::Float(x), Scalar::Float(y)) => Ok(compare_with(op, &x, &y)),
        (Scalar::Int(x), Scalar::Int(y)) => {
            Ok(compare_with(op, &int_value(dtype, x), &int_value(dtype, y)))
        }
        (Scalar::Bool(x), Scalar::Bool(y)) => Ok(compare_with(op, &x, &y)),
        _ => Err(InterpError::malformed(format!(
            "`{op}` compares elements of different classes"
        ))),
    }
}

fn compare_with<T: PartialOrd>(op: CmpOp, x: &T, y: &T) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

/// Correctly rounded conversion of an integer to the float dtype `d` (one rounding, ties to
/// even, overflow to infinity).
///
/// Integers of magnitude below 2^53 are exact in `f64` and are rounded once from there. Larger
/// ones are first cut to 53 significant bits with "round to odd" (the lowest kept bit is set if
/// any dropped bit was), which makes the second rounding to a narrower dtype exact.
///
/// The integer is the number an element stands for ([`int_value`]), so `u64` values above
/// `i64::MAX` convert as themselves.
///
/// ```
/// use ptir_ir::{int_to_float, DType};
/// assert_eq!(int_to_float(DType::F16, 70000), f64::INFINITY);
/// assert_eq!(int_to_float(DType::F32, 16_777_217), 16_777_216.0);
/// assert_eq!(int_to_float(DType::F32, u64::MAX as i128), 18446744073709551616.0);
/// ```
pub fn int_to_float(d: DType, i: i128) -> f64 {
    const EXACT: u128 = 1 << 53;
    let mag = i.unsigned_abs();
    if d == DType::F64 || mag < EXACT {
        // Rust's integer to float `as` rounds to nearest, ties to even.
        return round_float(d, i as f64);
    }
    let shift = 128 - mag.leading_zeros() - 53;
    let mut kept = mag >> shift;
    if mag & ((1u128 << shift) - 1) != 0 {
        kept |= 1;
    }
    let x = kept as f64 * (1u128 << shift) as f64;
    round_float(d, if i < 0 { -x } else { x })
}

/// Converts one element to dtype `to`, as `cast` does: float to float rounds, float to int
/// truncates toward zero and saturates (NaN gives 0), int to float rounds
/// ([`int_to_float`]), int to int wraps, numbers to bool test `!= 0` (NaN is true), bool to
/// numbers gives 0 or 1.
///
/// `from` is the dtype of `x` (which tells how an integer reads: `u64` elements above
/// `i64::MAX` are held as their bits). Float to unsigned saturates at 0 and the maximum;
/// integer to integer keeps the low bits of the two's complement form (`-1i8` is `255u8`).
///
/// ```
/// use ptir_ir::{cast_scalar, DType, Scalar};
/// assert_eq!(cast_scalar(Scalar::Float(-2.7), DType::F32, DType::I32), Scalar::Int(-2));
/// assert_eq!(cast_scalar(Scalar::Float(f64::NAN), DType::F32, DType::I64), Scalar::Int(0));
/// assert_eq!(cast_scalar(Scalar::Int(3), DType::I32, DType::Bool), Scalar::Bool(true));
/// assert_eq!(cast_scalar(Scalar::Int(-1), DType::I8, DType::U8), Scalar::Int(255));
/// assert_eq!(cast_scalar(Scalar::Float(-1.0), DType::F32, DType::U32), Scalar::Int(0));
/// ```
pub fn cast_scalar(x: Scalar, from: DType, to: DType) -> Scalar {
    match x {
        Scalar::Float(f) => Scalar::from_f64(to, f),
        Scalar::Int(i) if to.is_float() => Scalar::Float(int_to_float(to, int_value(from, i))),
        Scalar::Int(i) if to.is_int() => Scalar::Int(wrap_int(to, i)),
        Scalar::Int(i) => Scalar::Bool(i != 0),
        Scalar::Bool(b) => Scalar::from_f64(to, if b { 1.0 } else { 0.0 }),
    }
}

/// The bits of a float or integer element at its dtype's width (`None` for bool).
fn element_bits(d: DType, x: Scalar) -> Option<u64> {
    Some(match (x, d) {
        (Scalar::Float(f), DType::F16) => u64::from(half::f16::from_f64(f).to_bits()),
        (Scalar::Float(f), DType::BF16) => u64::from(half::bf16::from_f64(f).to_bits()),
        (Scalar::Float(f), DType::F32) => u64::from((f as f32).to_bits()),
        (Scalar::Float(f), _) => f.to_bits(),
        (Scalar::Int(i), _) => width_bits(d, i),
        (Scalar::Bool(_), _) => return None,
    })
}

/// One element of `bitcast`: the bits of `x` (of dtype `from`) read as an element of `to`,
/// a float or integer dtype of the same width. A NaN keeps its payload as far as `f64`
/// conversions keep it (every NaN compares equal to every other here).
///
/// ```
/// use ptir_ir::{bitcast_scalar, DType, Scalar};
/// let one = bitcast_scalar(Scalar::Int(0x3f80_0000), DType::U32, DType::F32);
/// assert_eq!(one, Ok(Scalar::Float(1.0)));
/// let bits = bitcast_scalar(Scalar::Float(-0.0), DType::F64, DType::U64);
/// assert_eq!(bits, Ok(Scalar::Int(i64::MIN)));
/// ```
pub fn bitcast_scalar(x: Scalar, from: DType, to: DType) -> InterpResult<Scalar> {
    let bits = element_bits(from, x)
        .filter(|_| from.bits() == to.bits() && to != DType::Bool)
        .ok_or_else(|| InterpError::malformed(format!("`bitcast` of {from} to {to}")))?;
    if to.is_float() {
        return float_of_bits(to, bits);
    }
    Ok(Scalar::Int(wrap_int(to, bits as i64)))
}

/// Builds a buffer of dtype `d` from `n` elements computed by `f`, checking that each element
/// has the dtype's class.
pub(crate) fn build_data(
    d: DType,
    n: usize,
    mut f: impl FnMut(usize) -> InterpResult<Scalar>,
) -> InterpResult<Data> {
    let wrong = |s: Scalar| InterpError::malformed(format!("element {s} in a {d} buffer"));
    if d.is_float() {
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            match f(i)? {
                Scalar::Float(x) => v.push(FloatBits(x)),
                s => return Err(wrong(s)),
            }
        }
        Ok(Data::Float(v))
    } else if d.is_int() {
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            match f(i)? {
                Scalar::Int(x) => v.push(x),
                s => return Err(wrong(s)),
            }
        }
        Ok(Data::Int(v))
    } else {
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            match f(i)? {
                Scalar::Bool(x) => v.push(x),
                s => return Err(wrong(s)),
            }
        }
        Ok(Data::Bool(v))
    }
}

/// Applies a unary op to every element.
pub(crate) fn unary(op: UnaryOp, x: &Tensor) -> InterpResult<Tensor> {
    let d = x.ty.dtype;
    let data = build_data(d, x.data.len(), |i| unary_scalar(op, d, x.data.get(i)))?;
    Ok(Tensor {
        ty: x.ty.clone(),
        data,
    })
}

/// `reduce_precision` of every element (see [`reduce_precision_scalar`]).
pub(crate) fn reduce_precision(
    x: &Tensor,
    exponent: usize,
    mantissa: usize,
) -> InterpResult<Tensor> {
    let d = x.ty.dtype;
    let data = build_data(d, x.data.len(), |i| {
        reduce_precision_scalar(x.data.get(i), d, exponent, mantissa)
    })?;
    Ok(Tensor {
        ty: x.ty.clone(),
        data,
    })
}

/// One element of `reduce_precision`: `x` (of float dtype `d`) rounded to the format of
/// `exponent` exponent bits and `mantissa` mantissa bits and back, on its bits as XLA's
/// emitter and IREE compute it. The mantissa is rounded to nearest, ties to even (adding the
/// bias may carry into the exponent, which is right); then an exponent above the format's
/// range gives `±inf`, and one at or below its smallest normal's minus one `±0` (subnormals of
/// the format flush). A NaN is returned as it is, even to a format with no mantissa bits
/// (where XLA's emitter gives `+inf`; IREE 3.13, which runs the output, keeps the NaN). Widths
/// the dtype already has leave that part alone.
///
/// ```
/// use ptir_ir::{reduce_precision_scalar, DType, Scalar};
/// // f32 to f16's format: 1 + 2^-11 is a tie, to even (1.0); 70000 is beyond f16's range.
/// let r = |x: f64| reduce_precision_scalar(Scalar::Float(x), DType::F32, 5, 10).unwrap();
/// assert_eq!(r(1.0 + 2f64.powi(-11)), Scalar::Float(1.0));
/// assert_eq!(r(70000.0), Scalar::Float(f64::INFINITY));
/// assert_eq!(r(-1e-8), Scalar::Float(-0.0));
/// ```
pub fn reduce_precision_scalar(
    x: Scalar,
    d: DType,
    exponent: usize,
    mantissa: usize,
) -> InterpResult<Scalar> {
    let (Some(src_mantissa), Some(bits)) = (d.mantissa_bits(), element_bits(d, x)) else {
        return Err(InterpError::malformed(format!("`reduce_precision` of {d}")));
    };
    let width = d.bits() as usize;
    let src_exponent = width - 1 - src_mantissa;
    let exp_mask = ((1u64 << src_exponent) - 1) << src_mantissa;
    let sign_mask = 1u64 << (width - 1);
    let is_nan = (bits & !sign_mask) > exp_mask;
    let mut v = bits;
    if mantissa < src_mantissa {
        let last = 1u64 << (src_mantissa - mantissa);
        let bias = (last >> 1) - 1 + ((v & last) >> (src_mantissa - mantissa));
        v = v.wrapping_add(bias) & !(last - 1);
    }
    if exponent < src_exponent {
        let bias = (1u64 << (src_exponent - 1)) - 1;
        let reduced_bias = (1u64 << (exponent - 1)) - 1;
        let (max, min) = (bias + reduced_bias, bias - reduced_bias);
        let e = v & exp_mask;
        if e > max << src_mantissa {
            v = (v & sign_mask) | exp_mask;
        } else if e <= min << src_mantissa {
            v &= sign_mask;
        }
    }
    if width < 64 {
        v &= (1u64 << width) - 1;
    }
    if is_nan {
        return Ok(x);
    }
    float_of_bits(d, v)
}

/// The float of dtype `d` whose bits are `bits`.
fn float_of_bits(d: DType, bits: u64) -> InterpResult<Scalar> {
    Ok(Scalar::Float(match d {
        DType::F16 => half::f16::from_bits(bits as u16).to_f64(),
        DType::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        DType::F32 => f64::from(f32::from_bits(bits as u32)),
        DType::F64 => f64::from_bits(bits),
        _ => return Err(InterpError::malformed(format!("{d} is not a float"))),
    }))
}

/// Applies a binary op to every pair of elements (operands of the same type).
pub(crate) fn binary(op: BinaryOp, a: &Tensor, b: &Tensor) -> InterpResult<Tensor> {
    let d = a.ty.dtype;
    let data = build_data(d, a.data.len(), |i| {
        binary_scalar(op, d, a.data.get(i), b.data.get(i))
    })?;
    Ok(Tensor {
        ty: a.ty.clone(),
        data,
    })
}

/// Compares every pair of elements; the result is `bool`.
pub(crate) fn compare(op: CmpOp, a: &Tensor, b: &Tensor) -> InterpResult<Tensor> {
    let d = a.ty.dtype;
    let data = build_data(DType::Bool, a.data.len(), |i| {
        compare_scalar(op, d, a.data.get(i), b.data.get(i)).map(Scalar::Bool)
    })?;
    Ok(Tensor {
        ty: a.ty.with_dtype(DType::Bool),
        data,
    })
}

/// `select(pred, on_true, on_false)`, elementwise.
pub(crate) fn select(pred: &Tensor, t: &Tensor, f: &Tensor) -> InterpResult<Tensor> {
    let data = build_data(t.ty.dtype, t.data.len(), |i| match pred.data.get(i) {
        Scalar::Bool(true) => Ok(t.data.get(i)),
        Scalar::Bool(false) => Ok(f.data.get(i)),
        s => Err(InterpError::malformed(format!(
            "select predicate element {s}"
        ))),
    })?;
    Ok(Tensor {
        ty: t.ty.clone(),
        data,
    })
}

/// Converts every element to the dtype of `ty` (same shape).
pub(crate) fn cast(x: &Tensor, ty: &TensorType) -> InterpResult<Tensor> {
    let data = build_data(ty.dtype, x.data.len(), |i| {
        Ok(cast_scalar(x.data.get(i), x.ty.dtype, ty.dtype))
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}

/// `bitcast_resize`: the bits of `x`'s elements (little-endian: the first of each group of
/// narrow elements is the least significant part of the wide one) read as `ty`'s elements.
pub(crate) fn bitcast_resize(x: &Tensor, ty: &TensorType) -> InterpResult<Tensor> {
    let (from, to) = (x.ty.dtype, ty.dtype);
    let (fb, tb) = (from.bits(), to.bits());
    let mask = |bits: u32| {
        if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        }
    };
    let bits_of = |i: usize| {
        element_bits(from, x.data.get(i))
            .ok_or_else(|| InterpError::malformed(format!("`bitcast_resize` of {from}")))
    };
    let unsigned = DType::int_of_width(tb, false)
        .ok_or_else(|| InterpError::malformed(format!("`bitcast_resize` to {to}")))?;
    let n = ty.num_elements();
    let data = build_data(to, n, |o| {
        let word = if fb < tb {
            // Widening: element o gathers the k narrow elements o*k .. o*k + k.
            let k = (tb / fb) as usize;
            (0..k).try_fold(0u64, |acc, j| {
                Ok::<_, InterpError>(acc | (bits_of(o * k + j)? & mask(fb)) << (j as u32 * fb))
            })?
        } else {
            // Narrowing: element o is part o % k of wide element o / k.
            let k = (fb / tb) as usize;
            (bits_of(o / k)? >> ((o % k) as u32 * tb)) & mask(tb)
        };
        bitcast_scalar(Scalar::Int(word as i64), unsigned, to)
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}

/// The digamma function `Γ'(x) / Γ(x)`, with XLA's values at its poles: `-inf` at `±0`, NaN
/// at the negative integers and `-inf`. Elsewhere the reflection `ψ(1 - x) - π / tan(πx)`
/// below 1/2, then the recurrence `ψ(x) = ψ(x + 1) - 1/x` up to 6 and the asymptotic series.
fn digamma(x: f64) -> f64 {
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_nan() || x == f64::NEG_INFINITY || (x < 0.0 && x == x.floor()) {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x < 0.5 {
        let pi = core::f64::consts::PI;
        return digamma(1.0 - x) - pi / libm::tan(pi * x);
    }
    let (mut x, mut acc) = (x, 0.0);
    while x < 6.0 {
        acc -= 1.0 / x;
        x += 1.0;
    }
    let inv2 = 1.0 / (x * x);
    // 1/(12x²) - 1/(120x⁴) + 1/(252x⁶) - 1/(240x⁸) + 1/(132x¹⁰)
    let series = inv2
        * (1.0 / 12.0
            - inv2 * (1.0 / 120.0 - inv2 * (1.0 / 252.0 - inv2 * (1.0 / 240.0 - inv2 / 132.0))));
    acc + libm::log(x) - 0.5 / x - series
}

/// The inverse error function: Giles' approximation ("Approximating the erfinv function",
/// GPU Computing Gems, 2010; what XLA and IREE lower `erf_inv` to in single precision), then
/// Newton steps on `erf` (on `erfc` near `±1`, where `erf` has no digits left) to f64
/// accuracy. `±1` gives `±inf`, beyond them NaN; `-0` stays `-0`.
fn erf_inv(y: f64) -> f64 {
    let a = y.abs();
    if y.is_nan() || a > 1.0 {
        return f64::NAN;
    }
    if a == 1.0 {
        return f64::INFINITY.copysign(y);
    }
    if a == 0.0 {
        return y;
    }
    let w = -libm::log((1.0 - a) * (1.0 + a));
    let p = if w < 5.0 {
        let w = w - 2.5;
        [
            3.432_739_39e-7,
            -3.523_387_7e-6,
            -4.391_506_54e-6,
            2.185_808_7e-4,
            -1.253_725_03e-3,
            -4.177_681_64e-3,
            0.246_640_727,
            1.501_409_41,
        ]
        .iter()
        .fold(2.810_226_36e-8, |p, c| c + p * w)
    } else {
        let w = libm::sqrt(w) - 3.0;
        [
            1.009_505_58e-4,
            1.349_343_22e-3,
            -3.673_428_44e-3,
            5.739_507_73e-3,
            -7.622_461_3e-3,
            9.438_870_47e-3,
            1.001_674_06,
            2.832_976_82,
        ]
        .iter()
        .fold(-2.002_142_57e-4, |p, c| c + p * w)
    };
    let mut x = p * a;
    let slope = 2.0 / core::f64::consts::PI.sqrt();
    for _ in 0..4 {
        // erf(x) - a, from the side that keeps its digits.
        let residual = if a > 0.5 {
            (1.0 - a) - libm::erfc(x)
        } else {
            libm::erf(x) - a
        };
        x -= residual / (slope * libm::exp(-x * x));
    }
    x.copysign(y)
}

/// Reinterprets the bits of every element as the dtype of `ty` (same shape and width).
pub(crate) fn bitcast(x: &Tensor, ty: &TensorType) -> InterpResult<Tensor> {
    let data = build_data(ty.dtype, x.data.len(), |i| {
        bitcast_scalar(x.data.get(i), x.ty.dtype, ty.dtype)
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}
