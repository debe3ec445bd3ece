//! GPT-2 transformer blocks, built with the builder: the corpus's largest real program and the
//! scaling workload of the engines (a stack of N blocks).
//!
//! One block (pre-norm, as GPT-2): `x + attn(ln1(x))`, then `h + mlp(ln2(h))`, where `attn`
//! is causal multi-head self-attention (fused QKV projection, per-head scaled dot products,
//! softmax, output projection) and `mlp` is `gelu(h W_fc + b_fc) W_proj + b_proj` with the
//! tanh form of GELU. The idioms are written exactly as in `corpus/softmax.ptir`,
//! `corpus/layernorm.ptir` and `corpus/gelu.ptir`, so rules that raise those idioms fire here.

use crate::builder::{BuildError, FunctionBuilder, ProgramBuilder, Val};
use crate::ops::{CmpOp, DotDims};
use crate::program::Program;
use crate::types::{DType, TensorType, Type};

/// The dimensions of a GPT-2 stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gpt2Config {
    /// Number of blocks.
    pub layers: usize,
    /// Sequence length.
    pub seq: usize,
    /// Model width.
    pub d_model: usize,
    /// Attention heads (`d_model` must be a multiple).
    pub heads: usize,
    /// Hidden width of the MLP.
    pub d_ff: usize,
}

impl Gpt2Config {
    /// The small dims of the corpus: 4 tokens, width 8, 2 heads, MLP width 32.
    pub fn small(layers: usize) -> Self {
        Gpt2Config {
            layers,
            seq: 4,
            d_model: 8,
            heads: 2,
            d_ff: 32,
        }
    }

    fn head_dim(&self) -> usize {
        self.d_model / self.heads.max(1)
    }

    /// The parameter types of one block, in order: ln1 gamma, beta; qkv weight, bias; output
    /// projection weight, bias; ln2 gamma, beta; MLP fc weight, bias; MLP proj weight, bias.
    fn block_params(&self) -> Vec<Type> {
        let (d, f) = (self.d_model, self.d_ff);
        let t = |s: &[usize]| Type::from(TensorType::new(DType::F32, s.to_vec()));
        vec![
            t(&[d]),
            t(&[d]),
            t(&[d, 3 * d]),
            t(&[3 * d]),
            t(&[d, d]),
            t(&[d]),
            t(&[d]),
            t(&[d]),
            t(&[d, f]),
            t(&[f]),
            t(&[f, d]),
            t(&[d]),
        ]
    }
}

/// A program with one function `@gpt2` taking the activations `f32[seq, d_model]` and every
/// block's weights, and returning the activations after `layers` blocks.
///
/// ```
/// use ptir_ir::generate::{gpt2_stack, Gpt2Config};
/// let p = gpt2_stack(&Gpt2Config::small(2)).unwrap();
/// assert!(ptir_ir::verify(&p).is_ok());
/// assert_eq!(p.functions[0].body.params.len(), 1 + 2 * 12);
/// ```
pub fn gpt2_stack(cfg: &Gpt2Config) -> Result<Program, BuildError> {
    if cfg.heads == 0 || !cfg.d_model.is_multiple_of(cfg.heads) {
        return Err(BuildError::Name(format!(
            "d_model {} is not a multiple of heads {}",
            cfg.d_model, cfg.heads
        )));
    }
    let mut params: Vec<Type> =
        vec![TensorType::new(DType::F32, vec![cfg.seq, cfg.d_model]).into()];
    for _ in 0..cfg.layers {
        params.extend(cfg.block_params());
    }
    let mut pb = ProgramBuilder::new();
    let mut f = pb.function("gpt2", &params)?;
    let all = f.params();
    let mut x = all[0];
    for layer in 0..cfg.layers {
        let w = &all[1 + layer * 12..1 + (layer + 1) * 12];
        x = block(&mut f, cfg, x, w)?;
    }
    f.ret(&[x])?;
    pb.finish()
}

fn block(
    f: &mut FunctionBuilder<'_>,
    cfg: &Gpt2Config,
    x: Val,
    w: &[Val],
) -> Result<Val, BuildError> {
    let h = layernorm(f, x, w[0], w[1])?;
    let a = attention(f, cfg, h, w[2], w[3], w[4], w[5])?;
    let x1 = f.add(x, a)?;
    let h2 = layernorm(f, x1, w[6], w[7])?;
    let m = mlp(f, h2, w[8], w[9], w[10], w[11])?;
    f.add(x1, m)
}

/// `x w + b` with `b` broadcast over the rows.
fn linear(f: &mut FunctionBuilder<'_>, x: Val, w: Val, b: Val) -> Result<Val, BuildError> {
    let y = f.matmul(x, w)?;
    let shape = f.shape(y)?.to_vec();
    let bb = f.broadcast(b, &[1], &shape)?;
    f.add(y, bb)
}

/// As `corpus/layernorm.ptir`, over the last axis of a rank-2 `x`.
fn layernorm(
    f: &mut FunctionBuilder<'_>,
    x: Val,
    gamma: Val,
    beta: Val,
) -> Result<Val, BuildError> {
    let shape = f.shape(x)?.to_vec();
    let (rows, cols) = (shape[0], shape[1]);
    let row = TensorType::new(DType::F32, vec![rows]);
    let n = f.constant_splat(cols as f64, row.clone())?;
    let eps = f.constant_splat(1e-5, row)?;
    let sum = f.reduce_sum(x, &[1], false)?;
    let mean = f.div(sum, n)?;
    let mean_b = f.broadcast(mean, &[0], &shape)?;
    let d = f.sub(x, mean_b)?;
    let d2 = f.mul(d, d)?;
    let ss = f.reduce_sum(d2, &[1], false)?;
    let var = f.div(ss, n)?;
    let ve = f.add(var, eps)?;
    let r = f.rsqrt(ve)?;
    let rb = f.broadcast(r, &[0], &shape)?;
    let xn = f.mul(d, rb)?;
    let gb = f.broadcast(gamma, &[1], &shape)?;
    let bb = f.broadcast(beta, &[1], &shape)?;
    let xg = f.mul(xn, gb)?;
    f.add(xg, bb)
}

/// As `corpus/softmax.ptir`, over the last axis.
fn softmax(f: &mut FunctionBuilder<'_>, x: Val) -> Result<Val, BuildError> {
    let shape = f.shape(x)?.to_vec();
    let last = shape.len() - 1;
    let all: Vec<usize> = (0..shape.len()).collect();
    let m = f.reduce_max(x, &[last], true)?;
    let mb = f.broadcast(m, &all, &shape)?;
    let s = f.sub(x, mb)?;
    let e = f.exp(s)?;
    let z = f.reduce_sum(e, &[last], true)?;
    let zb = f.broadcast(z, &all, &shape)?;
    f.div(e, zb)
}

/// As `corpus/gelu.ptir` (tanh form).
fn gelu(f: &mut FunctionBuilder<'_>, x: Val) -> Result<Val, BuildError> {
    let ty = f.tensor_type(x)?.clone();
    let half = f.constant_splat(0.5, ty.clone())?;
    let one = f.constant_splat(1.0, ty.clone())?;
    let c = f.constant_splat(0.7978846, ty.clone())?;
    let k = f.constant_splat(0.044715, ty)?;
    let x2 = f.mul(x, x)?;
    let x3 = f.mul(x2, x)?;
    let kx3 = f.mul(k, x3)?;
    let inner = f.add(x, kx3)?;
    let scaled = f.mul(c, inner)?;
    let t = f.tanh(scaled)?;
    let onept = f.add(one, t)?;
    let hx = f.mul(half, x)?;
    f.mul(hx, onept)
}

fn mlp(
    f: &mut FunctionBuilder<'_>,
    x: Val,
    w_fc: Val,
    b_fc: Val,
    w_proj: Val,
    b_proj: Val,
) -> Result<Val, BuildError> {
    let h = linear(f, x, w_fc, b_fc)?;
    let g = gelu(f, h)?;
    linear(f, g, w_proj, b_proj)
}

/// Splits `qkv: [T, 3D]` part `i` into heads: `[H, T, Dh]`.
fn head_split(
    f: &mut FunctionBuilder<'_>,
    cfg: &Gpt2Config,
    qkv: Val,
    i: usize,
) -> Result<Val, BuildError> {
    let (t, d) = (cfg.seq, cfg.d_model);
    let part = f.slice(qkv, &[0, i * d], &[t, (i + 1) * d], &[1, 1])?;
    let heads = f.reshape(part, &[t, cfg.heads, cfg.head_dim()])?;
    f.transpose(heads, &[1, 0, 2])
}

/// Causal multi-head self-attention with a fused QKV projection.
fn attention(
    f: &mut FunctionBuilder<'_>,
    cfg: &Gpt2Config,
    x: Val,
    w_qkv: Val,
    b_qkv: Val,
    w_o: Val,
    b_o: Val,
) -> Result<Val, BuildError> {
    let (t, hs, dh) = (cfg.seq, cfg.heads, cfg.head_dim());
    let qkv = linear(f, x, w_qkv, b_qkv)?;
    let q = head_split(f, cfg, qkv, 0)?;
    let k = head_split(f, cfg, qkv, 1)?;
    let v = head_split(f, cfg, qkv, 2)?;
    let qk = DotDims {
        lhs_batch: vec![0],
        rhs_batch: vec![0],
        lhs_contract: vec![2],
        rhs_contract: vec![2],
        ..DotDims::default()
    };
    let scores = f.dot_general(q, k, &qk)?;
    let score_ty = TensorType::new(DType::F32, vec![hs, t, t]);
    let scale = f.constant_splat(1.0 / (dh as f64).sqrt(), score_ty.clone())?;
    let scaled = f.mul(scores, scale)?;
    let mask = causal_mask(f, t, hs)?;
    let ninf = f.constant_splat(f64::NEG_INFINITY, score_ty)?;
    let masked = f.select(mask, scaled, ninf)?;
    let p = softmax(f, masked)?;
    let o = f.dot_general(p, v, &DotDims::batch_matmul())?;
    let o = f.transpose(o, &[1, 0, 2])?;
    let o = f.reshape(o, &[t, cfg.d_model])?;
    linear(f, o, w_o, b_o)
}

/// `bool[H, T, T]`, true where the key position is not after the query position.
fn causal_mask(f: &mut FunctionBuilder<'_>, t: usize, heads: usize) -> Result<Val, BuildError> {
    let pos: Vec<f64> = (0..t).map(|i| i as f64).collect();
    let col = f.constant_dense(&pos, TensorType::new(DType::I32, vec![t]))?;
    let rows = f.broadcast(col, &[0], &[t, t])?;
    let cols = f.broadcast(col, &[1], &[t, t])?;
    let lower = f.compare(CmpOp::Le, cols, rows)?;
    f.broadcast(lower, &[1, 2], &[heads, t, t])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::random_inputs;
    use crate::interp::Interpreter;

    #[test]
    fn stacks_verify_and_run() {
        for layers in [1, 3] {
            let p = gpt2_stack(&Gpt2Config::small(layers)).unwrap();
            let f = &p.functions[0];
            let out = Interpreter::new(&p)
                .run("gpt2", &random_inputs(f, 1))
                .unwrap();
            let t = out[0].as_tensor().unwrap();
            assert_eq!(t.ty.shape, vec![4, 8]);
            assert!(t.to_f64_vec().iter().all(|x| x.is_finite()));
        }
    }

    #[test]
    fn bad_head_count_is_an_error() {
        let cfg = Gpt2Config {
            heads: 3,
            ..Gpt2Config::small(1)
        };
        assert!(gpt2_stack(&cfg).is_err());
    }
}
