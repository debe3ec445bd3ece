#!/usr/bin/env python3
"""Export the JAX fixtures of PTIR-opt as StableHLO MLIR text.

Every model here is written for this project. Each is lowered with
``jax.jit(f).lower(*args).as_text()`` (the pretty StableHLO form JAX prints) and written to
``corpus/mlir/<name>.mlir``. Weights are parameters, so the files stay small and the
compilers cannot constant-fold the models away. ``dropout_typed_key`` (a ``jax.random.key``
argument, which JAX wraps in Shardy's ``sdy.sharding_constraint``: IREE 3.13 cannot read it) goes
to ``tests/fixtures/`` instead, where the IREE judge compares its translation with the
interpreter only.

Usage: ``python scripts/export_models.py [OUT_DIR]`` (pinned versions in
``scripts/requirements.txt``).
"""

import os
import sys

import jax
import jax.numpy as jnp
from jax import lax

F32 = jnp.float32


def spec(shape, dtype=F32):
    return jax.ShapeDtypeStruct(shape, dtype)


def layernorm(x, gamma, beta, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    centered = x - mean
    var = jnp.mean(centered * centered, axis=-1, keepdims=True)
    return centered * jax.lax.rsqrt(var + eps) * gamma + beta


def softmax(x):
    m = jnp.max(x, axis=-1, keepdims=True)
    e = jnp.exp(x - m)
    return e / jnp.sum(e, axis=-1, keepdims=True)


def gelu(x):
    return 0.5 * x * (1.0 + jnp.tanh(0.7978846 * (x + 0.044715 * x * x * x)))


def mlp(x, w1, b1, w2, b2):
    return gelu(x @ w1 + b1) @ w2 + b2


def attention(q, k, v):
    """Causal single-head attention."""
    s = q.shape[0]
    scores = (q @ k.T) / jnp.sqrt(jnp.float32(q.shape[-1]))
    rows = jnp.arange(s)[:, None]
    cols = jnp.arange(s)[None, :]
    scores = jnp.where(cols <= rows, scores, -jnp.inf)
    return softmax(scores) @ v


def multi_head(x, w_qkv, b_qkv, w_o, b_o, heads):
    t, d = x.shape
    hd = d // heads
    qkv = x @ w_qkv + b_qkv
    q, k, v = jnp.split(qkv, 3, axis=-1)

    def split_heads(a):
        return a.reshape(t, heads, hd).transpose(1, 0, 2)

    q, k, v = split_heads(q), split_heads(k), split_heads(v)
    scores = jnp.einsum("htd,hsd->hts", q, k) / jnp.sqrt(jnp.float32(hd))
    mask = jnp.arange(t)[None, :] <= jnp.arange(t)[:, None]
    scores = jnp.where(mask[None], scores, -jnp.inf)
    out = jnp.einsum("hts,hsd->htd", softmax(scores), v)
    return out.transpose(1, 0, 2).reshape(t, d) @ w_o + b_o


def block(x, p, heads):
    h = layernorm(x, p["ln1_g"], p["ln1_b"])
    x = x + multi_head(h, p["w_qkv"], p["b_qkv"], p["w_o"], p["b_o"], heads)
    h = layernorm(x, p["ln2_g"], p["ln2_b"])
    return x + mlp(h, p["w_fc"], p["b_fc"], p["w_proj"], p["b_proj"])


def block_params(d):
    return {
        "ln1_g": spec((d,)),
        "ln1_b": spec((d,)),
        "w_qkv": spec((d, 3 * d)),
        "b_qkv": spec((3 * d,)),
        "w_o": spec((d, d)),
        "b_o": spec((d,)),
        "ln2_g": spec((d,)),
        "ln2_b": spec((d,)),
        "w_fc": spec((d, 4 * d)),
        "b_fc": spec((4 * d,)),
        "w_proj": spec((4 * d, d)),
        "b_proj": spec((d,)),
    }


def gpt2_forward(ids, wte, wpe, blocks, lnf_g, lnf_b, heads):
    """GPT-2 forward pass: token + position embeddings, blocks, final norm, tied logits."""
    t = ids.shape[0]
    x = jnp.take(wte, ids, axis=0) + wpe[:t]
    for p in blocks:
        x = block(x, p, heads)
    x = layernorm(x, lnf_g, lnf_b)
    return x @ wte.T


def gpt2_args(layers, d, vocab, ctx, tokens):
    return (
        spec((tokens,), jnp.int32),
        spec((vocab, d)),
        spec((ctx, d)),
        [block_params(d) for _ in range(layers)],
        spec((d,)),
        spec((d,)),
    )


def matrix_chain_f32(a, b, c, d):
    # Written left to right; (a @ (b @ (c @ d))) is cheaper at these shapes.
    return ((a @ b) @ c) @ d


def matrix_chain_i32(a, b, c, d):
    return ((a @ b) @ c) @ d


def chain_specs(dtype):
    return (
        spec((256, 256), dtype),
        spec((256, 256), dtype),
        spec((256, 256), dtype),
        spec((256, 8), dtype),
    )


def remat_mlp_step(params, x, y):
    """A training step of a tanh MLP whose layers are rematerialized (``jax.checkpoint``): the
    gradient recomputes each layer behind an ``optimization_barrier``."""

    def loss(params):
        h = x
        for w, b in params:
            h = jax.checkpoint(lambda h, w, b: jnp.tanh(h @ w + b))(h, w, b)
        return jnp.mean((h - y) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    return value, jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)


def discounted_returns(rewards, discounts):
    """Reinforcement-learning returns with per-step discounts: ``jnp.cumprod`` (a
    ``reduce_window`` with a multiply body), ``jnp.prod`` (a ``reduce`` with one), a reversed
    ``jnp.cumsum``, and the returns rounded to bfloat16's format with ``lax.reduce_precision``."""
    d = jnp.cumprod(discounts, axis=1)
    ret = jnp.cumsum((rewards * d)[:, ::-1], axis=1)[:, ::-1] / d
    return ret, jnp.prod(discounts, axis=1), lax.reduce_precision(ret, 8, 7)


def dropout_typed_key(key, x, w1, w2):
    """An MLP with dropout drawn from a typed PRNG key (``jax.random.key``)."""
    k1, _ = jax.random.split(key)
    h = jax.nn.relu(x @ w1)
    h = jnp.where(jax.random.bernoulli(k1, 0.9, h.shape), h / 0.9, 0.0)
    return h @ w2


def models():
    """Name -> (function, example arguments)."""
    d = 64
    return {
        "mlp": (mlp, (spec((16, d)), spec((d, 4 * d)), spec((4 * d,)), spec((4 * d, d)), spec((d,)))),
        "layernorm": (layernorm, (spec((16, d)), spec((d,)), spec((d,)))),
        "softmax": (softmax, (spec((16, 32)),)),
        "attention": (attention, (spec((16, d)), spec((16, d)), spec((16, d)))),
        "gpt2_block": (
            lambda x, p: block(x, p, 4),
            (spec((16, d)), block_params(d)),
        ),
        "gpt2_small": (
            lambda ids, wte, wpe, blocks, g, b: gpt2_forward(ids, wte, wpe, blocks, g, b, 12),
            gpt2_args(layers=12, d=768, vocab=1024, ctx=64, tokens=16),
        ),
        "matrix_chain_f32": (matrix_chain_f32, chain_specs(F32)),
        "matrix_chain_i32": (matrix_chain_i32, chain_specs(jnp.int32)),
        "remat_mlp_step": (
            remat_mlp_step,
            (((spec((64, 64)), spec((64,))), (spec((64, 64)), spec((64,)))), spec((32, 64)), spec((32, 64))),
        ),
        "discounted_returns": (discounted_returns, (spec((16, 64)), spec((16, 64)))),
    }


# Written to tests/fixtures/ (IREE cannot read them; see the module docs).
FIXTURES = {
    "dropout_typed_key": (
        dropout_typed_key,
        (spec((), jax.random.key(0).dtype), spec((32, 64)), spec((64, 128)), spec((128, 16))),
    ),
}


# Also exported in the generic op form.
GENERIC = ("attention", "gpt2_block")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "corpus", "mlir"
    )
    os.makedirs(out, exist_ok=True)
    for name, (f, args) in models().items():
        text = jax.jit(f).lower(*args).as_text()
        path = os.path.join(out, f"{name}.mlir")
        with open(path, "w") as fh:
            fh.write(text)
        print(f"{path}: {text.count(chr(10))} lines")
        if name in GENERIC:
            # The generic op form (as `mlir-opt --mlir-print-op-generic` prints it).
            module = jax.jit(f).lower(*args).compiler_ir("stablehlo")
            text = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
            path = os.path.join(out, f"{name}.generic.mlir")
            with open(path, "w") as fh:
                fh.write(text)
            print(f"{path}: {text.count(chr(10))} lines")


def export_fixtures():
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures")
    for name, (f, args) in FIXTURES.items():
        text = jax.jit(f).lower(*args).as_text()
        path = os.path.join(out, f"{name}.mlir")
        with open(path, "w") as fh:
            fh.write(text)
        print(f"{path}: {text.count(chr(10))} lines")


if __name__ == "__main__":
    main()
    if len(sys.argv) == 1:
        export_fixtures()
