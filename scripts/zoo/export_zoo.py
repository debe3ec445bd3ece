#!/usr/bin/env python3
"""Export the PTIR-opt model zoo: JAX programs written as a user would, as StableHLO MLIR.

Each model is a plain ``jax.numpy`` / ``lax`` function with its example arguments given as
``jax.ShapeDtypeStruct``s (weights are parameters, never constants, so the files stay small and
nothing can be constant-folded away). Each is lowered with
``jax.jit(f).lower(*args).as_text()`` and written to ``corpus/zoo/<name>.mlir``; the export is
deterministic (no random values are traced). Models that need 64-bit integers are lowered
inside ``jax.enable_x64(True)`` only. ``corpus/zoo/README.md`` lists every model, its family
and the ops it exercises (``--readme`` rewrites it from the registry below).

Sizes are chosen so that every model runs in roughly 0.1-20 ms in IREE on one CPU thread.

Usage: ``python scripts/zoo/export_zoo.py [--out corpus/zoo] [--models a,b] [--list]``
(pinned versions in ``scripts/requirements.txt``).
"""

import argparse
import collections
import math
import os
import re
import sys

import jax
import jax.numpy as jnp
from jax import lax

F32, F16, BF16 = jnp.float32, jnp.float16, jnp.bfloat16
I32, I64, U32 = jnp.int32, jnp.int64, jnp.uint32

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "..", "corpus", "zoo"))

Model = collections.namedtuple("Model", "name family ops build x64")
MODELS = {}


def model(name, family, ops, x64=False):
    """Registers ``build() -> (function, example_args)`` as the zoo model ``name``."""

    def register(build):
        MODELS[name] = Model(name, family, ops, build, x64)
        return build

    return register


def spec(*shape, dtype=F32):
    """An abstract argument: a weight or input of this shape and dtype."""
    return jax.ShapeDtypeStruct(shape, dtype)


# ----------------------------------------------------------------------------------------
# Building blocks, written the way model code usually writes them.
# ----------------------------------------------------------------------------------------


def layernorm(x, gamma, beta, eps=1e-5):
    """Layer normalization over the last axis, with ``jnp.mean`` and ``jnp.var``."""
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + eps) * gamma + beta


def rmsnorm(x, weight, eps=1e-6):
    """RMSNorm (LLaMA): scale by the reciprocal root mean square, no centering."""
    ms = jnp.mean(jnp.square(x), axis=-1, keepdims=True)
    return x * lax.rsqrt(ms + eps) * weight


def split_heads(x, heads):
    """[T, D] -> [H, T, D/H]."""
    t, d = x.shape
    return x.reshape(t, heads, d // heads).transpose(1, 0, 2)


def merge_heads(x):
    """[H, T, hd] -> [T, H*hd]."""
    h, t, hd = x.shape
    return x.transpose(1, 0, 2).reshape(t, h * hd)


def causal_mask_iota(t):
    """Lower-triangular mask from an iota comparison."""
    rows = lax.broadcasted_iota(jnp.int32, (t, t), 0)
    cols = lax.broadcasted_iota(jnp.int32, (t, t), 1)
    return cols <= rows


def attend(q, k, v, mask=None):
    """Scaled dot-product attention on [..., T, hd] heads (scale on q, as most code does)."""
    q = q / math.sqrt(q.shape[-1])
    scores = jnp.einsum("...qd,...kd->...qk", q, k)
    if mask is not None:
        scores = jnp.where(mask, scores, jnp.finfo(scores.dtype).min)
    return jnp.einsum("...qk,...kd->...qd", jax.nn.softmax(scores, axis=-1), v)


def rotary(x, base=10000.0):
    """Rotary position embedding on [H, T, hd] with sin/cos computed in the program."""
    _, t, hd = x.shape
    inv_freq = 1.0 / (base ** (jnp.arange(0, hd, 2, dtype=F32) / hd))
    angles = jnp.arange(t, dtype=F32)[:, None] * inv_freq[None, :]
    sin, cos = jnp.sin(angles), jnp.cos(angles)
    x1, x2 = x[..., : hd // 2], x[..., hd // 2 :]
    return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)


def gpt2_params(d, hidden):
    """Argument specs of one GPT-2 block."""
    return {
        "ln1": (spec(d), spec(d)),
        "qkv": (spec(d, 3 * d), spec(3 * d)),
        "proj": (spec(d, d), spec(d)),
        "ln2": (spec(d), spec(d)),
        "fc": (spec(d, hidden), spec(hidden)),
        "out": (spec(hidden, d), spec(d)),
    }


def gpt2_block(x, p, heads, approximate):
    """Pre-norm GPT-2 block: causal multi-head attention and a GELU MLP."""
    t = x.shape[0]
    h = layernorm(x, *p["ln1"])
    q, k, v = jnp.split(h @ p["qkv"][0] + p["qkv"][1], 3, axis=-1)
    q, k, v = (split_heads(a, heads) for a in (q, k, v))
    mask = jnp.arange(t)[None, :] <= jnp.arange(t)[:, None]
    a = merge_heads(attend(q, k, v, mask[None]))
    x = x + a @ p["proj"][0] + p["proj"][1]
    h = layernorm(x, *p["ln2"])
    h = jax.nn.gelu(h @ p["fc"][0] + p["fc"][1], approximate=approximate)
    return x + h @ p["out"][0] + p["out"][1]


# ----------------------------------------------------------------------------------------
# Transformer blocks.
# ----------------------------------------------------------------------------------------


@model("gpt2_block_gelu_exact", "transformer",
       "layernorm (mean/var/sqrt/divide), dot_general, split, transpose, causal mask (iota compare, select), "
       "softmax, GELU with erfc (jax.nn.gelu(approximate=False) lowers to chlo.erfc)")
def _gpt2_exact():
    return (lambda x, p: gpt2_block(x, p, 4, approximate=False)), (spec(128, 256), gpt2_params(256, 1024))


@model("gpt2_block_gelu_tanh", "transformer",
       "as gpt2_block_gelu_exact with the tanh GELU (jax.nn.gelu(approximate=True)): tanh, pow-free cubic")
def _gpt2_tanh():
    return (lambda x, p: gpt2_block(x, p, 4, approximate=True)), (spec(128, 256), gpt2_params(256, 1024))


def llama_block(x, wn1, wq, wk, wv, wo, wn2, w_gate, w_up, w_down, heads=4):
    """LLaMA block: RMSNorm, rotary q/k, iota causal mask, SwiGLU MLP."""
    h = rmsnorm(x, wn1)
    q, k, v = (split_heads(h @ w, heads) for w in (wq, wk, wv))
    q, k = rotary(q), rotary(k)
    a = merge_heads(attend(q, k, v, causal_mask_iota(x.shape[0])[None]))
    x = x + a @ wo
    h = rmsnorm(x, wn2)
    return x + (jax.nn.silu(h @ w_gate) * (h @ w_up)) @ w_down


@model("llama_block", "transformer",
       "RMSNorm (square, mean, rsqrt), rotary embedding (iota, pow, sine, cosine, slice, concatenate), "
       "iota-compare causal mask, softmax, SwiGLU (silu as x / (1 + exp(-x)), multiply)")
def _llama():
    d, f = 256, 688
    args = (spec(128, d), spec(d), spec(d, d), spec(d, d), spec(d, d), spec(d, d), spec(d),
            spec(d, f), spec(d, f), spec(f, d))
    return llama_block, args


def mqa(x, wq, wk, wv, wo, heads=8):
    """Multi-query attention: 8 query heads share one key/value head; jnp.tril mask."""
    t, d = x.shape
    hd = d // heads
    q = split_heads(x @ wq, heads)
    k, v = x @ wk, x @ wv  # [T, hd] each, broadcast over the heads
    mask = jnp.tril(jnp.ones((t, t), dtype=bool))
    scores = jnp.einsum("hqd,kd->hqk", q, k) / jnp.sqrt(jnp.float32(hd))
    scores = jnp.where(mask[None], scores, -jnp.inf)
    out = jnp.einsum("hqk,kd->hqd", jax.nn.softmax(scores, axis=-1), v)
    return merge_heads(out) @ wo


@model("mqa_attention", "transformer",
       "multi-query attention: einsum with a shared K/V head, jnp.tril mask (iota, compare, select with -inf), "
       "softmax, divide by sqrt(d)")
def _mqa():
    d = 256
    return mqa, (spec(128, d), spec(d, d), spec(d, d // 8), spec(d, d // 8), spec(d, d))


def vit_layer(x, p, heads=4):
    """ViT encoder layer: pre-norm, bidirectional attention, exact GELU MLP."""
    h = layernorm(x, *p["ln1"])
    q, k, v = jnp.split(h @ p["qkv"][0] + p["qkv"][1], 3, axis=-1)
    a = merge_heads(attend(*(split_heads(t, heads) for t in (q, k, v))))
    x = x + a @ p["proj"][0] + p["proj"][1]
    h = layernorm(x, *p["ln2"])
    return x + jax.nn.gelu(h @ p["fc"][0] + p["fc"][1], approximate=False) @ p["out"][0] + p["out"][1]


@model("vit_layer", "transformer",
       "ViT-Tiny encoder layer on 197 tokens (class token + 14x14 patches, width 192, 3 heads): layernorm, unmasked attention, exact GELU")
def _vit():
    return (lambda x, p: vit_layer(x, p, heads=3)), (spec(197, 192), gpt2_params(192, 768))


@model("attention_scale_after", "transformer",
       "multi-head attention with the 1/sqrt(d) scale multiplied into Q.K^T (scores), not into q")
def _attention_scale_after():
    def f(q, k, v):
        scores = jnp.einsum("hqd,hkd->hqk", q, k) * (1.0 / math.sqrt(q.shape[-1]))
        return jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(scores, axis=-1), v)

    return f, (spec(8, 256, 64), spec(8, 256, 64), spec(8, 256, 64))


@model("last_token_logits", "transformer",
       "slice of a matmul: (h @ W)[-1] (logits of the last token only), dot_general then slice/reshape")
def _last_token_logits():
    return (lambda h, w: (h @ w)[-1]), (spec(64, 128), spec(128, 2048))


@model("swiglu_mlp", "transformer",
       "SwiGLU feed-forward on a batch of tokens: two projections, silu (x / (1 + exp(-x))), product, down projection")
def _swiglu():
    def f(x, w_gate, w_up, w_down):
        return (jax.nn.silu(x @ w_gate) * (x @ w_up)) @ w_down

    return f, (spec(128, 256), spec(256, 688), spec(256, 688), spec(688, 256))


# ----------------------------------------------------------------------------------------
# Normalizations and reductions.
# ----------------------------------------------------------------------------------------


@model("layernorm_var", "normalization",
       "layernorm with jnp.mean and jnp.var (reduce add, subtract, square, divide by N, sqrt, divide)")
def _layernorm_var():
    return layernorm, (spec(1024, 1024), spec(1024), spec(1024))


def fast_variance_stats(x, axes):
    """Mean and variance as flax's norms compute them (``use_fast_variance``, the default of
    ``nn.LayerNorm``, ``nn.GroupNorm``, ``nn.BatchNorm``): the mean and the mean of squares,
    two sibling reductions of ``x``."""
    mean = jnp.mean(x, axis=axes, keepdims=True)
    mean2 = jnp.mean(jnp.square(x), axis=axes, keepdims=True)
    return mean, jnp.maximum(0.0, mean2 - jnp.square(mean))


@model("layernorm_fast_variance", "normalization",
       "flax nn.LayerNorm: mean and mean of squares (two sibling reductions), rsqrt, scale, shift")
def _layernorm_fast_variance():
    def f(x, gamma, beta):
        mean, var = fast_variance_stats(x, -1)
        return (x - mean) * lax.rsqrt(var + 1e-6) * gamma + beta

    return f, (spec(2048, 768), spec(768), spec(768))


@model("groupnorm_fast_variance", "normalization",
       "flax nn.GroupNorm on NHWC: 32 groups, sibling reductions over (H, W, C/G), rsqrt, affine")
def _groupnorm_fast_variance():
    def f(x, gamma, beta):
        n, h, w, c = x.shape
        g = x.reshape(n, h, w, 32, c // 32)
        mean, var = fast_variance_stats(g, (1, 2, 4))
        y = ((g - mean) * lax.rsqrt(var + 1e-6)).reshape(n, h, w, c)
        return y * gamma + beta

    return f, (spec(4, 32, 32, 128), spec(128), spec(128))


@model("layernorm_bf16", "normalization",
       "layernorm in bfloat16: bf16 reductions (JAX accumulates in f32: convert), sqrt, divide")
def _layernorm_bf16():
    return layernorm, (spec(1024, 1024, dtype=BF16), spec(1024, dtype=BF16), spec(1024, dtype=BF16))


@model("rmsnorm_f16", "normalization",
       "RMSNorm in float16: square, mean (f32 accumulation via convert), rsqrt, multiply")
def _rmsnorm_f16():
    return rmsnorm, (spec(1024, 1024, dtype=F16), spec(1024, dtype=F16))


@model("batchnorm_inference", "normalization",
       "batch normalization at inference on NCHW: broadcast per-channel statistics, rsqrt, fma")
def _batchnorm():
    def f(x, mean, var, gamma, beta):
        shape = (1, -1, 1, 1)
        scale = gamma.reshape(shape) * lax.rsqrt(var.reshape(shape) + 1e-5)
        return (x - mean.reshape(shape)) * scale + beta.reshape(shape)

    return f, (spec(8, 64, 32, 32), spec(64), spec(64), spec(64), spec(64))


@model("softmax", "reduction", "jax.nn.softmax on the last axis: reduce max, subtract, exp, reduce add, divide")
def _softmax():
    return (lambda x: jax.nn.softmax(x, axis=-1)), (spec(256, 1024),)


@model("logsumexp", "reduction",
       "jax.nn.logsumexp: reduce max, is_finite guard (select), exp, reduce add, log, add, stop_gradient")
def _logsumexp():
    return (lambda x: jax.nn.logsumexp(x, axis=-1)), (spec(256, 1024),)


@model("softplus", "elementwise", "jax.nn.softplus: logaddexp(x, 0) = max + log1p(exp(-|x - 0|)), select on NaN")
def _softplus():
    return jax.nn.softplus, (spec(256, 1024),)


@model("outer_sum", "reduction",
       "broadcast then reduce: jnp.sum(x[:, None] * y[None, :], axis=1) (equals x * sum(y))")
def _outer_sum():
    return (lambda x, y: jnp.sum(x[:, None] * y[None, :], axis=1)), (spec(4096), spec(4096))


@model("broadcast_matmul", "reduction",
       "a matmul written as broadcast-multiply-reduce: jnp.sum(a[:, :, None] * b[None, :, :], axis=1)")
def _broadcast_matmul():
    return (lambda a, b: jnp.sum(a[:, :, None] * b[None, :, :], axis=1)), (spec(256, 256), spec(256, 256))


# ----------------------------------------------------------------------------------------
# Matrix chains and contractions.
# ----------------------------------------------------------------------------------------


@model("matvec_chain_f32", "matrix chain", "(A @ B) @ v with square A, B: A @ (B @ v) is 256x cheaper")
def _matvec_chain_f32():
    return (lambda a, b, v: (a @ b) @ v), (spec(256, 256), spec(256, 256), spec(256))


@model("matvec_chain_i32", "matrix chain", "(A @ B) @ v in int32 (exact reassociation in modular arithmetic)")
def _matvec_chain_i32():
    return (lambda a, b, v: (a @ b) @ v), (spec(256, 256, dtype=I32), spec(256, 256, dtype=I32), spec(256, dtype=I32))


def chain4(a, b, c, d):
    """Written left to right; other parenthesizations cost less at the zoo's shapes."""
    return ((a @ b) @ c) @ d


@model("matrix_chain_unequal_f32", "matrix chain",
       "four f32 matrices of unequal sizes (128x1024, 1024x64, 64x1024, 1024x16) multiplied left to right")
def _chain_f32():
    return chain4, (spec(128, 1024), spec(1024, 64), spec(64, 1024), spec(1024, 16))


@model("matrix_chain_unequal_i32", "matrix chain", "as matrix_chain_unequal_f32 in int32")
def _chain_i32():
    return chain4, tuple(spec(*s, dtype=I32) for s in ((128, 1024), (1024, 64), (64, 1024), (1024, 16)))


@model("mixed_precision_matmul", "matrix chain",
       "f16 operands with preferred_element_type=f32 (dot_general f16 x f16 -> f32), f32 bias, tanh GELU, "
       "convert back to f16")
def _mixed_precision():
    def f(x, w, b):
        y = lax.dot_general(x, w, (((1,), (0,)), ((), ())), preferred_element_type=F32)
        return jax.nn.gelu(y + b).astype(F16)

    return f, (spec(256, 512, dtype=F16), spec(512, 512, dtype=F16), spec(512))


@model("int8_weight_matmul", "quantized",
       "weight-only int8 matmul, per-output-channel f32 scale, as quantized LLM code writes it: "
       "x @ (w_int8.astype(f32) * scale)")
def _int8_weight_matmul():
    def f(x, w, scale):
        return x @ (w.astype(F32) * scale)

    return f, (spec(64, 1024), spec(1024, 1024, dtype=jnp.int8), spec(1024))


@model("int8_group_decode", "quantized",
       "one decoding step of a group-wise int8 weight-only linear layer (groups of 128 rows, "
       "one f32 scale per group and output channel, as GPTQ/AWQ-style code dequantizes): "
       "x @ (w.reshape(K/G, G, N).astype(f32) * s[:, None, :]).reshape(K, N)")
def _int8_group_decode():
    group = 128

    def f(x, w, s):
        k, n = w.shape
        deq = (w.reshape(k // group, group, n).astype(F32) * s[:, None, :]).reshape(k, n)
        return x @ deq

    return f, (spec(4, 2048), spec(2048, 2048, dtype=jnp.int8), spec(2048 // group, 2048))


@model("int8_mlp_bf16", "quantized",
       "two-layer bf16 MLP with int8 weights stored [out, in] and bf16 per-row scales "
       "(einsum 'bk,nk->bn' of w.astype(bf16) * s[:, None]), GELU between")
def _int8_mlp_bf16():
    def dense(x, w, s):
        return jnp.einsum("bk,nk->bn", x, w.astype(x.dtype) * s[:, None])

    def f(x, w1, s1, w2, s2):
        return dense(jax.nn.gelu(dense(x, w1, s1)), w2, s2)

    i8 = jnp.int8
    return f, (spec(32, 512, dtype=BF16), spec(1024, 512, dtype=i8), spec(1024, dtype=BF16),
               spec(512, 1024, dtype=i8), spec(512, dtype=BF16))


@model("gnn_message_passing", "graph",
       "two rounds of graph message passing as jraph-style code writes them: per-edge messages "
       "x[senders] @ w (gather rows, project), summed into receivers (jax.ops.segment_sum), relu; "
       "8x more edges than nodes")
def _gnn_message_passing():
    def layer(x, w, senders, receivers):
        messages = x[senders] @ w
        return jax.nn.relu(jax.ops.segment_sum(messages, receivers, num_segments=x.shape[0]))

    def f(x, w1, w2, senders, receivers):
        return layer(layer(x, w1, senders, receivers), w2, senders, receivers)

    return f, (spec(256, 64), spec(64, 64), spec(64, 64), spec(2048, dtype=I32), spec(2048, dtype=I32))


@model("embedding_projection", "graph",
       "token embedding lookup (table[ids], 512 ids into a 4096-row table) then a projection: "
       "fewer rows gathered than in the table, so projecting the table first does not pay")
def _embedding_projection():
    def f(table, ids, w):
        return jnp.tanh(table[ids] @ w)

    return f, (spec(4096, 128), spec(512, dtype=I32), spec(128, 128))


@model("einsum_ops", "contraction",
       "einsum code: bilinear form 'bi,ij,bj->b', batched 'bij,bjk->bik', three-operand 'ij,jk,kl->il', "
       "trace-like 'ii->' and a transpose 'ij->ji'")
def _einsum():
    def f(x, w, y, p, q, a, b, c):
        bil = jnp.einsum("bi,ij,bj->b", x, w, y)
        bmm = jnp.einsum("bij,bjk->bik", p, q)
        chain = jnp.einsum("ij,jk,kl->il", a, b, c)
        chain = chain + jnp.einsum("ii->", a[:, :256])
        return bil, bmm, jnp.einsum("ij->ji", chain)

    return f, (spec(256, 256), spec(256, 256), spec(256, 256), spec(16, 128, 128), spec(16, 128, 128),
               spec(256, 1024), spec(1024, 64), spec(64, 256))


# ----------------------------------------------------------------------------------------
# Training, recurrent networks, convolutions, routing, embeddings.
# ----------------------------------------------------------------------------------------


def mlp_loss(params, x, y):
    """Mean squared error of a two-layer ReLU MLP."""
    w1, b1, w2, b2 = params
    pred = jax.nn.relu(x @ w1 + b1) @ w2 + b2
    return jnp.mean((pred - y) ** 2)


@model("mlp_train_step", "training",
       "loss + jax.grad + SGD update: forward (dot, max), backward (transposed dots, select of the ReLU mask, "
       "reduce of bias gradients), parameter update")
def _mlp_train_step():
    def step(params, x, y):
        loss, grads = jax.value_and_grad(mlp_loss)(params, x, y)
        return loss, jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)

    params = (spec(128, 512), spec(512), spec(512, 32), spec(32))
    return step, (params, spec(256, 128), spec(256, 32))


def gru_cell(h, x, w, u, b):
    """One GRU step; gates stacked as [z, r, n] along the last axis."""
    hd = h.shape[-1]
    xw = x @ w + b
    hu = h @ u
    z = jax.nn.sigmoid(xw[:, :hd] + hu[:, :hd])
    r = jax.nn.sigmoid(xw[:, hd:2 * hd] + hu[:, hd:2 * hd])
    n = jnp.tanh(xw[:, 2 * hd:] + r * hu[:, 2 * hd:])
    return (1.0 - z) * n + z * h


@model("gru_scan", "rnn", "GRU over 32 steps with lax.scan (stablehlo.while, dynamic_slice, dynamic_update_slice), "
       "sigmoid (1 / (1 + exp(-x))), tanh")
def _gru():
    def f(xs, h0, w, u, b):
        def step(h, x):
            h = gru_cell(h, x, w, u, b)
            return h, h

        return lax.scan(step, h0, xs)

    return f, (spec(32, 8, 64), spec(8, 128), spec(64, 384), spec(128, 384), spec(384))


@model("lstm_scan", "rnn", "LSTM over 32 steps with lax.scan: one fused gate matmul, split, sigmoid, tanh, "
       "a (h, c) tuple carry")
def _lstm():
    def f(xs, h0, c0, w, u, b):
        def step(carry, x):
            h, c = carry
            i, g, fo, o = jnp.split(x @ w + h @ u + b, 4, axis=-1)
            c = jax.nn.sigmoid(fo) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h

        return lax.scan(step, (h0, c0), xs)

    return f, (spec(32, 8, 64), spec(8, 128), spec(8, 128), spec(64, 512), spec(128, 512), spec(512))


@model("scan_dynamic_slice", "rnn",
       "lax.scan over step indices that reads a sliding window with lax.dynamic_slice and writes with "
       "lax.dynamic_update_slice (clamped starts), a moving-average filter")
def _scan_dynamic_slice():
    def f(signal, taps):
        n, w = signal.shape[0] - taps.shape[0] + 1, taps.shape[0]

        def step(out, i):
            window = lax.dynamic_slice(signal, (i, 0), (w, signal.shape[1]))
            row = jnp.sum(window * taps[:, None], axis=0)
            return lax.dynamic_update_slice(out, row[None], (i, 0)), jnp.max(row)

        out0 = jnp.zeros((n, signal.shape[1]), signal.dtype)
        return lax.scan(step, out0, jnp.arange(n))

    return f, (spec(136, 64), spec(9))


def conv(x, w, b):
    """3x3 SAME convolution, NHWC activations and HWIO weights, plus bias."""
    y = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return y + b


def max_pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def avg_pool(x):
    return lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0


def convnet(params, images):
    """conv-relu-maxpool, conv-relu-avgpool, dense: logits of a small image classifier."""
    (w1, b1), (w2, b2), (w3, b3) = params
    x = max_pool(jax.nn.relu(conv(images, w1, b1)))
    x = avg_pool(jax.nn.relu(conv(x, w2, b2)))
    return x.reshape(x.shape[0], -1) @ w3 + b3


def convnet_params():
    return ((spec(3, 3, 3, 16), spec(16)), (spec(3, 3, 16, 32), spec(32)), (spec(8 * 8 * 32, 10), spec(10)))


@model("convnet", "convolution",
       "lax.conv_general_dilated (NHWC/HWIO, SAME), ReLU, max pooling and average pooling (reduce_window), "
       "reshape, dense")
def _convnet():
    return convnet, (convnet_params(), spec(8, 32, 32, 3))


@model("convnet_grad", "convolution",
       "gradient of the convnet's cross-entropy: select_and_scatter (max-pool backward), pad/reduce_window "
       "(avg-pool backward), transposed convolutions, log_softmax")
def _convnet_grad():
    def loss(params, images, labels):
        logp = jax.nn.log_softmax(convnet(params, images))
        return -jnp.mean(jnp.sum(logp * labels, axis=-1))

    return jax.grad(loss), (convnet_params(), spec(8, 32, 32, 3), spec(8, 10))


@model("moe_routing", "routing",
       "mixture-of-experts top-2 routing: jax.lax.top_k, softmax over the chosen logits, jnp.argmax, one_hot "
       "(iota compare), expert einsum, gated combine, per-expert load counts")
def _moe():
    def f(x, w_router, w_experts):
        logits = x @ w_router
        top_vals, top_idx = lax.top_k(logits, 2)
        gates = jax.nn.softmax(top_vals, axis=-1)
        dispatch = jnp.sum(jax.nn.one_hot(top_idx, logits.shape[-1]) * gates[..., None], axis=1)
        expert_out = jnp.einsum("td,edh->teh", x, w_experts)
        y = jnp.einsum("te,teh->th", dispatch, expert_out)
        load = jnp.sum(jax.nn.one_hot(jnp.argmax(logits, axis=-1), logits.shape[-1]), axis=0)
        return y, load

    return f, (spec(128, 256), spec(256, 8), spec(8, 256, 256))


@model("embedding_xent", "embedding",
       "embedding lookup (jnp.take: gather), tied output projection, log_softmax, cross-entropy with "
       "jnp.take_along_axis (gather), mean")
def _embedding_xent():
    def f(ids, targets, table, w_out):
        h = jnp.take(table, ids, axis=0)
        logp = jax.nn.log_softmax(jnp.tanh(h) @ w_out, axis=-1)
        return -jnp.mean(jnp.take_along_axis(logp, targets[:, None], axis=1))

    return f, (spec(256, dtype=I32), spec(256, dtype=I32), spec(2048, 128), spec(128, 2048))


@model("scatter_add", "scatter",
       "segment sum with .at[ids].add (stablehlo.scatter with an add region) and a .at[].set of a row")
def _scatter_add():
    def f(x, ids):
        sums = jnp.zeros((64, x.shape[1]), x.dtype).at[ids].add(x)
        counts = jnp.zeros((64,), x.dtype).at[ids].add(1.0)
        return (sums / jnp.maximum(counts, 1.0)[:, None]).at[0].set(0.0)

    return f, (spec(8192, 128), spec(8192, dtype=I32))


# ----------------------------------------------------------------------------------------
# Stencils.
# ----------------------------------------------------------------------------------------


def laplace_step(u):
    """One Jacobi step of the 5-point Laplacian on the interior (edge padding)."""
    p = jnp.pad(u, 1, mode="edge")
    return 0.25 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:])


@model("stencil_laplace_2d", "stencil",
       "four unrolled 5-point Jacobi steps on 512x512: pad (edge mode: concatenate of slices), slices, adds")
def _laplace():
    def f(u):
        for _ in range(4):
            u = laplace_step(u)
        return u

    return f, (spec(512, 512),)


@model("stencil_roll_1d", "stencil",
       "periodic 3-point smoothing and a centered difference with jnp.roll (slice + concatenate)")
def _roll():
    def f(x):
        smooth = 0.25 * jnp.roll(x, 1, axis=-1) + 0.5 * x + 0.25 * jnp.roll(x, -1, axis=-1)
        grad = (jnp.roll(smooth, -1, axis=-1) - jnp.roll(smooth, 1, axis=-1)) * 0.5
        return smooth, grad

    return f, (spec(64, 4096),)


@model("heat_fori_loop", "stencil",
       "lax.fori_loop (stablehlo.while with a counter) of 16 explicit heat-equation steps, a 3-point stencil "
       "written with slices and concatenate")
def _heat():
    def f(u, alpha):
        def body(_, u):
            lap = jnp.concatenate([u[:1] * 0, u[:-2] - 2 * u[1:-1] + u[2:], u[:1] * 0])
            return u + alpha * lap

        return lax.fori_loop(0, 16, body, u)

    return f, (spec(65536), spec())


# ----------------------------------------------------------------------------------------
# Integer code and numerics.
# ----------------------------------------------------------------------------------------


@model("uint32_hash", "integer",
       "uint32 xorshift/multiply hash (shift_left, shift_right_logical, xor, multiply wraparound), "
       "popcnt (lax.population_count), bitcast_convert to f32 uniforms, unsigned compare")
def _uint32_hash():
    def f(x, key):
        h = x ^ key
        for s1, s2 in ((13, 17), (5, 11)):
            h = h ^ (h << s1)
            h = h ^ (h >> s2)
            h = h * jnp.uint32(0x9E3779B1)
        uniform = lax.bitcast_convert_type((h >> 9) | jnp.uint32(0x3F800000), F32) - 1.0
        return h, lax.population_count(h), uniform, (h > jnp.uint32(0x80000000)).astype(U32)

    return f, (spec(1 << 20, dtype=U32), spec(dtype=U32))


@model("int64_lcg", "integer",
       "int64 (x64 enabled for this export only): a 64-bit LCG with wraparound, arithmetic and logical shifts, "
       "remainder, integer reductions, a cumulative sum", x64=True)
def _int64_lcg():
    def f(seed, scale):
        s = seed * jnp.int64(6364136223846793005) + jnp.int64(1442695040888963407)
        bits = lax.shift_right_logical(s, jnp.int64(33)) ^ (s >> 7)
        r = jnp.remainder(bits, 1000) - 500
        return r * scale, jnp.sum(r), jnp.cumsum(r[:256]), jnp.max(jnp.abs(r))

    return f, (spec(262144, dtype=I64), spec(dtype=I64))


@model("numerics", "numerics",
       "log1p, expm1, erfc (chlo), is_finite, clamp (jnp.clip), remainder (rem with sign fix), "
       "integer shifts, floor, sign, select")
def _numerics():
    def f(x, y, k):
        a = jnp.log1p(jnp.abs(x)) + jnp.expm1(jnp.clip(x, -4.0, 4.0))
        b = jax.scipy.special.erfc(y)
        q = x / y
        c = jnp.where(jnp.isfinite(q), q, 0.0)
        d = jnp.remainder(x * 10.0, 0.7) + jnp.floor(y) * jnp.sign(x)
        i = (k << 3) >> 1
        return a + b + c + d, lax.shift_right_logical(i, 2) + lax.clamp(0, k, 5)

    return f, (spec(65536), spec(65536), spec(65536, dtype=I32))


@model("gelu_erf_elementwise", "elementwise",
       "exact GELU by itself on a large tensor: chlo.erfc of -x/sqrt(2), multiply")
def _gelu_elementwise():
    return (lambda x: jax.nn.gelu(x, approximate=False)), (spec(512, 1024),)


@model("sort_topk_values", "routing",
       "jnp.sort along the last axis (stablehlo.sort with a comparator region) and lax.top_k of the same rows")
def _sort():
    def f(x):
        return jnp.sort(x, axis=-1)[:, ::-1][:, :4], lax.top_k(x, 4)[0]

    return f, (spec(32, 128),)


# ----------------------------------------------------------------------------------------
# Export.
# ----------------------------------------------------------------------------------------


def lower(m):
    """The StableHLO text of one model (x64 enabled around the lowering if it asks for it)."""
    fn, args = m.build()
    if m.x64:
        with jax.enable_x64(True):
            fn, args = m.build()  # the specs' int64 dtypes only exist under x64
            return jax.jit(fn).lower(*args).as_text()
    return jax.jit(fn).lower(*args).as_text()


def stablehlo_ops(text):
    """The distinct dialect ops a module uses (for the README), sorted."""
    ops = set(re.findall(r"\b((?:stablehlo|chlo)\.[a-z_]+)\b", text))
    return sorted(op.split(".", 1)[0] + "." + op.split(".", 1)[1] for op in ops)


README_HEAD = """# PTIR-opt model zoo

JAX programs written the way users write them (plain `jax.numpy` / `lax`), exported as
StableHLO MLIR with `jax.jit(f).lower(*args).as_text()` by `scripts/zoo/export_zoo.py`
(`python scripts/zoo/export_zoo.py` regenerates every file here, deterministically).
Weights are function arguments. Sizes are CPU-friendly (each model runs in about 0.1-20 ms in
IREE on one CPU thread). `scripts/zoo/bench_zoo.py` optimizes each with `ptir-opt` (default,
`--fast-math`, `--engine greedy`), checks the result against the input in IREE and times both.

| model | family | what it exercises | StableHLO/CHLO ops in the file | lines |
| --- | --- | --- | --- | --- |
"""


def readme(rows):
    """The zoo's README: one table row per model."""
    lines = [README_HEAD]
    for m, text in rows:
        ops = ", ".join(f"`{op.split('.', 1)[1]}`" if op.startswith("stablehlo.") else f"`{op}`"
                        for op in stablehlo_ops(text))
        lines.append(f"| `{m.name}` | {m.family} | {m.ops} | {ops} | {text.count(chr(10))} |\n")
    return "".join(lines)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=DEFAULT_OUT, help="output directory (default: corpus/zoo)")
    ap.add_argument("--models", default="", help="comma-separated subset of models (default: all)")
    ap.add_argument("--list", action="store_true", help="list the models and exit")
    ap.add_argument("--no-readme", action="store_true", help="do not rewrite OUT/README.md")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.list:
        for m in MODELS.values():
            print(f"{m.name:28} {m.family}")
        return 0
    names = [n for n in args.models.split(",") if n] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.stderr.write(f"unknown models: {', '.join(unknown)}\n")
        return 2
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for name in names:
        text = lower(MODELS[name])
        path = os.path.join(args.out, f"{name}.mlir")
        with open(path, "w") as fh:
            fh.write(text)
        rows.append((MODELS[name], text))
        print(f"{path}: {text.count(chr(10))} lines, {len(text)} bytes")
    if not args.no_readme and len(names) == len(MODELS):
        with open(os.path.join(args.out, "README.md"), "w") as fh:
            fh.write(readme(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
