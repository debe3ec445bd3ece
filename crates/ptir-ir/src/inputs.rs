//! Seeded random inputs for a function's parameters, and the externs generated programs call
//! ([`GEN_PURE_EXTERN`], [`GEN_IMPURE_EXTERN`], [`extern_reference`]): what a run of a program
//! needs besides the program. Product code (translation validation, `ptir-opt run`), unlike
//! the program generator (`generate`, test code behind the `testing` feature).

use crate::interp::check_param_size;
use crate::program::Function;
use crate::tensor::{wrap_int, Data, Scalar, Tensor, Value};
use crate::types::{TensorType, Type};
use crate::InterpError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Name of the generated pure extern, `(T) -> (T, T)`.
pub const GEN_PURE_EXTERN: &str = "gen_pure";
/// Name of the generated impure extern, `(T, U) -> (T)`.
pub const GEN_IMPURE_EXTERN: &str = "gen_impure";

/// The reference semantics of the generated externs: every result is a copy of the first
/// argument (`None` for other names or no arguments). The interpreter or differential tester
/// registers this for [`GEN_PURE_EXTERN`] and [`GEN_IMPURE_EXTERN`].
///
/// ```
/// use ptir_ir::inputs::{extern_reference, GEN_PURE_EXTERN};
/// use ptir_ir::{DType, Tensor, TensorType, Value};
/// let x = Value::Tensor(Tensor::from_f64(TensorType::new(DType::F32, vec![1]), &[2.0]));
/// assert_eq!(extern_reference(GEN_PURE_EXTERN, &[x.clone()]), Some(vec![x.clone(), x]));
/// ```
pub fn extern_reference(name: &str, args: &[Value]) -> Option<Vec<Value>> {
    let first = args.first()?;
    match name {
        GEN_PURE_EXTERN => Some(vec![first.clone(), first.clone()]),
        GEN_IMPURE_EXTERN => Some(vec![first.clone()]),
        _ => None,
    }
}

/// Random arguments for `f`, one per parameter, the same for the same seed: floats uniform
/// in [-2, 2) (rounded to their dtype), integers zero a third of the time (so that guarded
/// divisions see their divisor be zero) and otherwise uniform in [-4, 4], bools either way.
///
/// ```
/// use ptir_ir::inputs::random_inputs;
/// let p = ptir_ir::parse("func @main(%0: f32[4], %1: i32[2]) -> (f32[4]) {\n  return %0\n}").unwrap();
/// let main = &p.functions[0];
/// assert_eq!(random_inputs(main, 1), random_inputs(main, 1));
/// assert_eq!(random_inputs(main, 1).len(), 2);
/// ```
///
/// # Panics
///
/// If a parameter's type is above [`crate::TENSOR_ELEMENT_LIMIT`] elements: use
/// [`try_random_inputs`] for functions a user wrote.
pub fn random_inputs(f: &Function, seed: u64) -> Vec<Value> {
    match try_random_inputs(f, seed) {
        Ok(inputs) => inputs,
        Err(e) => panic!("random_inputs: {e} (use try_random_inputs on user functions)"),
    }
}

/// [`random_inputs`], or [`InterpError::Argument`] (naming the parameter) if a parameter's
/// type is above [`crate::TENSOR_ELEMENT_LIMIT`] elements, checked before anything is
/// allocated: the limit that bounds every value of a run bounds its inputs too.
///
/// ```
/// use ptir_ir::inputs::try_random_inputs;
/// let p = ptir_ir::parse("func @f(%0: f32[100000,100000]) -> (f32[100000,100000]) {\n  return %0\n}").unwrap();
/// let err = try_random_inputs(&p.functions[0], 0).unwrap_err();
/// assert!(err.to_string().starts_with("argument 0 of @f: a value of type f32[100000,100000]"));
/// ```
pub fn try_random_inputs(f: &Function, seed: u64) -> Result<Vec<Value>, InterpError> {
    inputs_drawn(f, seed, Ints::Any)
}

/// [`try_random_inputs`] with every integer in [1, 4] and every float in [0.25, 2): inputs
/// that avoid the usual traps of integer code (a zero divisor, `MIN / -1`, a negative index or
/// shift) and the NaNs of float code (a logarithm or square root of a negative number, `0 /
/// 0`), for a function whose input set of [`try_random_inputs`] traps or computes a NaN, so
/// that it can still be checked on something.
///
/// ```
/// use ptir_ir::inputs::try_trap_free_inputs;
/// let p = ptir_ir::parse("func @f(%0: i32[8], %1: f32[8]) -> (i32[8]) {\n  return %0\n}").unwrap();
/// let inputs = try_trap_free_inputs(&p.functions[0], 7).unwrap();
/// let t = inputs[0].as_tensor().unwrap();
/// assert!((0..8).all(|i| matches!(t.get(i), ptir_ir::Scalar::Int(1..=4))));
/// let x = inputs[1].as_tensor().unwrap();
/// assert!(x.to_f64_vec().iter().all(|&v| (0.25..2.0).contains(&v)));
/// ```
pub fn try_trap_free_inputs(f: &Function, seed: u64) -> Result<Vec<Value>, InterpError> {
    inputs_drawn(f, seed, Ints::Positive)
}

/// How integers (and floats) are drawn.
#[derive(Clone, Copy)]
enum Ints {
    /// Zero a third of the time, else uniform in [-4, 4] (wrapped to the dtype).
    Any,
    /// Uniform in [1, 4] (and floats in [0.25, 2)).
    Positive,
}

fn inputs_drawn(f: &Function, seed: u64, ints: Ints) -> Result<Vec<Value>, InterpError> {
    (0..f.body.params.len()).try_for_each(|i| check_param_size(f, i))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Ok(f.body
        .params
        .iter()
        .map(|p| value_drawn(&p.ty, &mut rng, ints))
        .collect())
}

/// A random value of type `ty` (tuples element by element), as [`random_inputs`] makes them.
pub fn random_value(ty: &Type, rng: &mut impl Rng) -> Value {
    value_drawn(ty, rng, Ints::Any)
}

fn value_drawn(ty: &Type, rng: &mut impl Rng, ints: Ints) -> Value {
    match ty {
        Type::Tensor(t) => Value::Tensor(tensor_drawn(t, rng, ints)),
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| value_drawn(t, rng, ints)).collect()),
    }
}

/// A random tensor of type `ty`, as [`random_inputs`] makes them.
pub fn random_tensor(ty: &TensorType, rng: &mut impl Rng) -> Tensor {
    tensor_drawn(ty, rng, Ints::Any)
}

fn tensor_drawn(ty: &TensorType, rng: &mut impl Rng, ints: Ints) -> Tensor {
    let d = ty.dtype;
    let elems = (0..ty.num_elements()).map(|_| {
        if d.is_float() {
            let range = match ints {
                Ints::Any => -2.0..2.0,
                Ints::Positive => 0.25..2.0,
            };
            Scalar::from_f64(d, rng.gen_range(range))
        } else if d.is_int() {
            Scalar::Int(match ints {
                Ints::Positive => rng.gen_range(1..=4),
                Ints::Any if rng.gen_bool(1.0 / 3.0) => 0,
                // Wrapped: -4 of a u8 is 252.
                Ints::Any => wrap_int(d, rng.gen_range(-4..=4)),
            })
        } else {
            Scalar::Bool(rng.gen_bool(0.5))
        }
    });
    Tensor {
        ty: ty.clone(),
        data: Data::from_scalars(d, elems.collect::<Vec<_>>()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DType;

    #[test]
    fn values_fit_their_types() {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        for d in DType::ALL {
            let t = random_tensor(&TensorType::new(d, vec![3, 5]), &mut rng);
            assert_eq!(t.data.len(), 15);
            assert!(t.data.iter().all(|s| s.fits(d)), "{t}");
        }
    }
}
