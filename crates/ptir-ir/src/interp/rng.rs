//! `rng`: random tensors drawn from the run's single ChaCha8 stream.
//!
//! A run seeds one [`ChaCha8Rng`] with `seed_from_u64(seed)`; every `rng` instruction draws its
//! elements from that stream in row-major order, and instructions draw in execution order. The
//! draws per element:
//!
//! - `uniform`, float dtype with `p` significand bits (f16: 11, bf16: 8, f32: 24, f64: 53): the
//!   top `p` bits of one `next_u64`, times `2^-p`. Every such value is exact in the dtype and
//!   lies in `[0, 1)` (rounding a finer draw could have produced `1.0`).
//! - `normal` (floats): one `rand_distr::StandardNormal` `f64` sample, rounded to the dtype.
//! - `uniform` integers of up to 32 bits: the low bits of one `next_u32` (so i32 is `next_u32`
//!   reinterpreted); i64 and u64: the bits of one `next_u64`.
//! - `uniform` bool: the top bit of `next_u32`.

use super::error::{InterpError, InterpResult};
use super::kernels::build_data;
use crate::ops::RngDist;
use crate::tensor::{round_float, wrap_int, Scalar, Tensor};
use crate::types::{DType, TensorType};
use rand::{Rng, RngCore};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

/// One element of `rng dist` of dtype `d`.
fn draw_one(rng: &mut ChaCha8Rng, dist: RngDist, d: DType) -> InterpResult<Scalar> {
    Ok(match (dist, d) {
        (RngDist::Uniform, _) if d.is_int() && d.bits() <= 32 => {
            Scalar::Int(wrap_int(d, i64::from(rng.next_u32())))
        }
        (RngDist::Uniform, _) if d.is_int() => Scalar::Int(rng.next_u64() as i64),
        (RngDist::Uniform, DType::Bool) => Scalar::Bool(rng.next_u32() >> 31 == 1),
        (RngDist::Uniform, _) => {
            let p = d.facts().significand;
            let bits = rng.next_u64() >> (64 - p);
            Scalar::Float(bits as f64 / (1u64 << p) as f64)
        }
        (RngDist::Normal, _) if d.is_float() => {
            let x: f64 = rng.sample(StandardNormal);
            Scalar::Float(round_float(d, x))
        }
        (RngDist::Normal, _) => {
            return Err(InterpError::malformed(format!("`rng normal` of {d}")));
        }
    })
}

/// A tensor of type `ty` drawn from `rng`.
pub(crate) fn draw(rng: &mut ChaCha8Rng, dist: RngDist, ty: &TensorType) -> InterpResult<Tensor> {
    let data = build_data(ty.dtype, ty.num_elements(), |_| {
        draw_one(rng, dist, ty.dtype)
    })?;
    Ok(Tensor {
        ty: ty.clone(),
        data,
    })
}
