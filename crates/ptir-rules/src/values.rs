//! Random data for examples: the numbers of splat constants and the input values. A leaf
//! module (it imports nothing from the crate), read by the proof harness ([`crate::example`])
//! and by the reference externs' own inputs ([`crate::externs`]).
//!
//! Ordinary inputs are what real programs see (floats in `[-3, 3]`, small integers); special
//! inputs mix in the values on which IEEE identities break: NaN, infinities, both zeros,
//! huge, tiny and subnormal numbers, and the integer extremes.

use ptir_ir::{wrap_int, DType, Data, FloatBits, Scalar, Tensor, TensorType, Type, Value};
use rand::seq::SliceRandom;
use rand::Rng;

/// Which inputs to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// Finite, moderate values: floats in `[-3, 3]` (small integers now and then), integers
    /// in `[-4, 4]`.
    Ordinary,
    /// About half the elements special: NaN, ±inf, ±0, ±1, huge, tiny and subnormal floats,
    /// the extremes of the integer types.
    Special,
}

/// Floats that break identities which hold for real numbers.
const SPECIAL_FLOATS: &[f64] = &[
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    1.0,
    -1.0,
    1e30,
    -1e30,
    3.0e38,
    65504.0,
    1e-30,
    -1e-30,
    1e-45,
    5e-324,
    f64::MAX,
];

const SPECIAL_INTS: &[i64] = &[
    0,
    1,
    -1,
    i32::MIN as i64,
    i32::MAX as i64,
    i64::MIN,
    i64::MAX,
];

/// A number for a splat constant whose value a pattern leaves open: mostly small exact
/// values, sometimes NaN, an infinity or a signed zero.
pub fn sample_number(rng: &mut impl Rng) -> f64 {
    const NUMBERS: &[f64] = &[
        0.0,
        1.0,
        2.0,
        -1.0,
        0.5,
        3.0,
        -2.0,
        0.25,
        10.0,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    *NUMBERS.choose(rng).unwrap_or(&1.0)
}

/// A random value of type `ty`.
pub fn random_value(ty: &Type, kind: InputKind, rng: &mut impl Rng) -> Value {
    match ty {
        Type::Tensor(t) => random_tensor(t, kind, rng).into(),
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| random_value(t, kind, rng)).collect()),
    }
}

fn random_tensor(t: &TensorType, kind: InputKind, rng: &mut impl Rng) -> Tensor {
    let n = t.num_elements();
    let special = |rng: &mut dyn rand::RngCore| kind == InputKind::Special && rng.gen_bool(0.5);
    let data = if t.dtype.is_float() {
        Data::Float(
            (0..n)
                .map(|_| {
                    let x = if special(rng) {
                        *SPECIAL_FLOATS.choose(rng).unwrap_or(&0.0)
                    } else if rng.gen_bool(0.15) {
                        rng.gen_range(-3..=3) as f64
                    } else {
                        rng.gen_range(-3.0..=3.0)
                    };
                    FloatBits(Scalar::from_f64(t.dtype, x).as_f64())
                })
                .collect(),
        )
    } else if t.dtype.is_int() {
        Data::Int(
            (0..n)
                .map(|_| {
                    let x = if special(rng) {
                        *SPECIAL_INTS.choose(rng).unwrap_or(&0)
                    } else {
                        rng.gen_range(-4..=4)
                    };
                    wrap_int(t.dtype, x)
                })
                .collect(),
        )
    } else {
        debug_assert_eq!(t.dtype, DType::Bool);
        Data::Bool((0..n).map(|_| rng.gen_bool(0.5)).collect())
    };
    Tensor {
        ty: t.clone(),
        data,
    }
}
