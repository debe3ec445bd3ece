#!/usr/bin/env python3
"""Which common JAX functions ptir-opt reads: a regression check of the importer.

Exports about 130 functions that model code calls (``jnp`` math, ``jax.nn``, ``jax.random``,
``jax.scipy``, ``lax`` control flow and windows, linear algebra, gradients through
``jax.checkpoint``, ...) with ``jax.jit(f).lower(*args).as_text()``, then runs
``ptir-opt FILE -o OUT`` (default options) on each and prints one line per function: ``ok`` or
the importer's located refusal. Exit status 1 if a function outside ``EXPECTED_REFUSED`` is
refused, or one inside it is now read (so that the list stays true).

Usage: ``python scripts/jax_coverage.py --ptir-opt target/release/ptir-opt [--keep DIR]``
(pinned versions in ``scripts/requirements.txt``).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import jax
import jax.numpy as jnp
from jax import lax

# What the importer does not read yet, and why.
EXPECTED_REFUSED = {
    "fft_abs": "complex element types",
    "fp8_roundtrip": "float8 element types",
    "int4_roundtrip": "4-bit integer element types",
    "uint4_roundtrip": "4-bit integer element types",
    "bessel_i0e_i1e": "chlo.bessel_i1e",
    "polygamma": "chlo.polygamma",
    "zeta": "chlo.zeta",
    "cumlogsumexp": "reduce_window with a logaddexp body",
}


def f32(*s):
    return jnp.zeros(s, jnp.float32)


def i32(*s):
    return jnp.zeros(s, jnp.int32)


def cases():
    """Name -> (function, example arguments)."""
    key = jax.random.PRNGKey(0)
    typed_key = jax.random.key(0)
    mlp = lambda x, w: jnp.tanh(x @ w) @ w  # noqa: E731
    return {
        # Training and remat.
        "checkpoint_mlp": (lambda x, w: jax.checkpoint(lambda x: mlp(x, w))(x), (f32(8, 16), f32(16, 16))),
        "grad_checkpoint": (jax.grad(lambda w, x: jnp.sum(jax.checkpoint(lambda x: jnp.tanh(x @ w))(x))), (f32(16, 16), f32(8, 16))),
        "remat_scan": (lambda x, w: lax.scan(jax.checkpoint(lambda c, xi: (jnp.tanh(c @ w + xi), None)), jnp.zeros(8), x)[0], (f32(5, 8), f32(8, 8))),
        "stop_gradient": (lambda x: x - lax.stop_gradient(jnp.max(x)), (f32(8),)),
        "adam_update": (lambda p, g, m, v, t: (lambda m2, v2: (p - 1e-3 * (m2 / (1 - 0.9 ** t)) / (jnp.sqrt(v2 / (1 - 0.999 ** t)) + 1e-8), m2, v2))(0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g), (f32(64), f32(64), f32(64), f32(64), jnp.float32(1))),
        "clip_by_global_norm": (lambda g: g * jnp.minimum(1.0, 1.0 / (jnp.sqrt(jnp.sum(g * g)) + 1e-6)), (f32(64),)),
        "sigmoid_bce": (lambda l, y: jnp.mean(jnp.maximum(l, 0) - l * y + jnp.log1p(jnp.exp(-jnp.abs(l)))), (f32(16), f32(16))),
        # Randomness.
        "dropout_typed_key": (lambda k, x: jnp.where(jax.random.bernoulli(k, 0.9, x.shape), x / 0.9, 0), (typed_key, f32(8, 16))),
        "dropout_raw_key": (lambda k, x: jnp.where(jax.random.bernoulli(k, 0.9, x.shape), x / 0.9, 0), (key, f32(8, 16))),
        "categorical": (lambda k, l: jax.random.categorical(k, l), (key, f32(4, 10))),
        "random_gamma": (lambda k: jax.random.gamma(k, 2.0, (8,)), (key,)),
        "random_beta": (lambda k: jax.random.beta(k, 2.0, 3.0, (8,)), (key,)),
        "truncated_normal": (lambda k: jax.random.truncated_normal(k, -2.0, 2.0, (8,)), (key,)),
        "permutation": (lambda k: jax.random.permutation(k, 16), (key,)),
        "choice": (lambda k: jax.random.choice(k, 16, (4,), replace=False), (key,)),
        "randint": (lambda k: jax.random.randint(k, (8,), 0, 10), (key,)),
        "orthogonal_init": (lambda k: jax.nn.initializers.orthogonal()(k, (8, 8)), (key,)),
        "glorot_init": (lambda k: jax.nn.initializers.glorot_normal()(k, (8, 8)), (key,)),
        # jax.nn.
        "one_hot": (lambda i: jax.nn.one_hot(i, 10), (i32(8),)),
        "dot_product_attention": (lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True), (f32(1, 16, 2, 8),) * 3),
        "log_softmax": (jax.nn.log_softmax, (f32(4, 10),)),
        "softmax_where": (lambda x: jax.nn.softmax(x, where=x > 0), (f32(4, 8),)),
        "logsumexp_where": (lambda x: jax.nn.logsumexp(x, axis=-1, where=x > 0), (f32(4, 8),)),
        "silu": (jax.nn.silu, (f32(16),)),
        "mish": (lambda x: x * jnp.tanh(jax.nn.softplus(x)), (f32(16),)),
        "elu_selu_celu": (lambda x: jax.nn.elu(x) + jax.nn.selu(x) + jax.nn.celu(x), (f32(16),)),
        "hard_swish": (jax.nn.hard_swish, (f32(16),)),
        "glu": (jax.nn.glu, (f32(4, 16),)),
        "standardize": (jax.nn.standardize, (f32(4, 16),)),
        "gelu_exact_tanh": (lambda x: jax.nn.gelu(x, approximate=False) + jax.nn.gelu(x), (f32(16),)),
        "f16_softmax": (lambda x: jax.nn.softmax(x.astype(jnp.float16)), (f32(4, 8),)),
        # Convolutions and windows.
        "depthwise_conv": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", feature_group_count=4, dimension_numbers=("NHWC", "HWIO", "NHWC")), (f32(1, 8, 8, 4), f32(3, 3, 1, 4))),
        "conv_transpose": (lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), (f32(1, 8, 8, 4), f32(3, 3, 4, 4))),
        "conv_1d_dilated": (lambda x, w: lax.conv_general_dilated(x, w, (1,), [(2, 2)], rhs_dilation=(2,), dimension_numbers=("NWC", "WIO", "NWC")), (f32(1, 16, 4), f32(3, 4, 4))),
        "conv_3d": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1, 1), "SAME", dimension_numbers=("NDHWC", "DHWIO", "NDHWC")), (f32(1, 4, 4, 4, 2), f32(3, 3, 3, 2, 2))),
        "avg_pool": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4, (f32(1, 8, 8, 4),)),
        "max_pool_grad": (jax.grad(lambda x: jnp.sum(lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"))), (f32(1, 8, 8, 4),)),
        "image_resize": (lambda x: jax.image.resize(x, (1, 16, 16, 3), "bilinear"), (f32(1, 8, 8, 3),)),
        "convolve1d": (lambda x, k: jnp.convolve(x, k, mode="same"), (f32(16), f32(3))),
        # Cumulative ops, sorting, indexing.
        "cumsum_rev": (lambda x: jnp.cumsum(x[::-1])[::-1], (f32(16),)),
        "cumprod": (jnp.cumprod, (f32(16),)),
        "prod": (lambda x: jnp.prod(x, axis=1), (f32(4, 8),)),
        "cummax": (lax.cummax, (f32(16),)),
        "cummin": (lax.cummin, (f32(16),)),
        "cumlogsumexp": (lax.cumlogsumexp, (f32(16),)),
        "associative_scan": (lambda x: lax.associative_scan(jnp.add, x), (f32(16),)),
        "argsort": (jnp.argsort, (f32(16),)),
        "sort_kv": (lambda k, v: lax.sort((k, v), num_keys=1), (f32(16), i32(16))),
        "lexsort": (lambda a, b: jnp.lexsort((a, b)), (f32(16), i32(16))),
        "top_k": (lambda x: lax.top_k(x, 3), (f32(4, 16),)),
        "argmax_axis": (lambda x: jnp.argmax(x, axis=0), (f32(4, 16),)),
        "median_quantile": (lambda x: jnp.median(x) + jnp.quantile(x, 0.9), (f32(16),)),
        "percentile": (lambda x: jnp.percentile(x, 50.0), (f32(16),)),
        "searchsorted": (lambda a, v: jnp.searchsorted(a, v), (f32(16), f32(4))),
        "histogram": (lambda x: jnp.histogram(x, bins=4, range=(0, 1))[0], (f32(16),)),
        "bincount": (lambda x: jnp.bincount(x, length=8), (i32(16),)),
        "unique_size": (lambda x: jnp.unique(x, size=4), (i32(16),)),
        "take_along_axis": (lambda x, i: jnp.take_along_axis(x, i, axis=1), (f32(4, 8), i32(4, 2))),
        "gather_2d": (lambda x, i, j: x[i, j], (f32(8, 8), i32(3), i32(3))),
        "embedding_bag": (lambda t, i: jnp.take(t, i, axis=0).mean(1), (f32(32, 8), i32(4, 3))),
        "segment_sum": (lambda d, s: jax.ops.segment_sum(d, s, num_segments=4), (f32(16), i32(16))),
        "scatter_max": (lambda x, i, u: x.at[i].max(u), (f32(16), i32(4), f32(4))),
        "dynamic_update": (lambda x, u, i: lax.dynamic_update_slice(x, u, (i, 0)), (f32(16, 4), f32(2, 4), jnp.int32(0))),
        # Control flow.
        "fori_carry": (lambda x: lax.fori_loop(0, 10, lambda i, c: c * 0.5 + i, x), (f32(8),)),
        "fori_unroll": (lambda x: lax.fori_loop(0, 4, lambda i, c: c * 2.0, x, unroll=2), (f32(8),)),
        "while_dynamic": (lambda x: lax.while_loop(lambda c: jnp.sum(c) < 100.0, lambda c: c * 2 + 1, x), (f32(8),)),
        "scan_unroll_rev": (lambda x: lax.scan(lambda c, xi: (c + xi, c * xi), 0.0, x, reverse=True, unroll=2), (f32(8),)),
        "ctc_like_scan": (lambda x: lax.scan(lambda c, xi: (jnp.logaddexp(c, xi), c), jnp.zeros(4), x), (f32(6, 4),)),
        "switch3": (lambda i, x: lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], x), (jnp.int32(1), f32(8))),
        "cond_operands": (lambda p, x, y: lax.cond(p, lambda a, b: a + b, lambda a, b: a - b, x, y), (jnp.bool_(True), f32(8), f32(8))),
        "map": (lambda x: lax.map(jnp.sum, x), (f32(4, 8),)),
        "vmap_matvec": (jax.vmap(lambda m, v: m @ v), (f32(4, 8, 8), f32(4, 8))),
        "select_n": (lax.select_n, (i32(8), f32(8), f32(8), f32(8))),
        # Linear algebra.
        "einsum_bhqk": (lambda q, k: jnp.einsum("bqhd,bkhd->bhqk", q, k), (f32(1, 8, 2, 4), f32(1, 8, 2, 4))),
        "norm": (lambda x: jnp.linalg.norm(x, axis=-1), (f32(8, 16),)),
        "cosine_similarity": (lambda a, b: jnp.sum(a * b, -1) / (jnp.linalg.norm(a, axis=-1) * jnp.linalg.norm(b, axis=-1)), (f32(4, 8), f32(4, 8))),
        "cholesky": (lambda a: jnp.linalg.cholesky(a @ a.T + jnp.eye(4)), (f32(4, 4),)),
        "solve_triangular": (lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True), (f32(4, 4), f32(4, 2))),
        "qr": (lambda a: jnp.linalg.qr(a)[0], (f32(4, 4),)),
        "inv": (lambda a: jnp.linalg.inv(a + jnp.eye(4)), (f32(4, 4),)),
        "det": (lambda a: jnp.linalg.det(a + jnp.eye(4)), (f32(4, 4),)),
        "slogdet": (lambda a: jnp.linalg.slogdet(a + jnp.eye(4))[1], (f32(4, 4),)),
        "solve": (lambda a, b: jnp.linalg.solve(a + jnp.eye(4), b), (f32(4, 4), f32(4))),
        "eigh": (lambda a: jnp.linalg.eigh(a + a.T)[0], (f32(4, 4),)),
        "svd": (lambda a: jnp.linalg.svd(a, compute_uv=False), (f32(4, 4),)),
        "lu": (lambda a: jax.scipy.linalg.lu(a)[2], (f32(4, 4),)),
        "expm": (jax.scipy.linalg.expm, (f32(4, 4),)),
        "eye_diag_trace": (lambda x: jnp.diag(x) @ jnp.eye(8) + jnp.trace(jnp.outer(x, x)), (f32(8),)),
        "triu_tril": (lambda x: jnp.triu(x) + jnp.tril(x, -1), (f32(8, 8),)),
        "int8_quant_matmul": (lambda x, w, s: lax.dot(x, w, preferred_element_type=jnp.int32).astype(jnp.float32) * s, (jnp.zeros((8, 16), jnp.int8), jnp.zeros((16, 8), jnp.int8), f32(8))),
        "bf16_mixed": (lambda x, w: (x.astype(jnp.bfloat16) @ w.astype(jnp.bfloat16)).astype(jnp.float32), (f32(8, 16), f32(16, 8))),
        # Elementwise math and special functions.
        "round_floor_ceil": (lambda x: jnp.round(x) + jnp.floor(x) + jnp.ceil(x) + jnp.trunc(x), (f32(8),)),
        "isfinite_nan_to_num": (lambda x: jnp.nan_to_num(x) + jnp.isfinite(x), (f32(8),)),
        "int_ops": (lambda a, b: (a // b, a % b, a << 2, a >> 1, jnp.bitwise_xor(a, b), lax.population_count(a), lax.clz(a)), (i32(8), i32(8) + 1)),
        "rem_int_neg": (lambda a, b: lax.rem(a, b) + jnp.floor_divide(a, b), (i32(8), i32(8) + 3)),
        "shift_right": (lambda a: lax.shift_right_logical(a, 3) + lax.shift_right_arithmetic(a, 2), (i32(8),)),
        "float_mod": (lambda a, b: jnp.mod(a, b) + jnp.fmod(a, b), (f32(8), f32(8) + 1)),
        "cbrt_expm1_log1p": (lambda x: jnp.cbrt(x) + jnp.expm1(x) + jnp.log1p(x), (f32(8),)),
        "trig_hyperbolic": (lambda x: jnp.arcsin(x) + jnp.arccos(x) + jnp.arctan(x) + jnp.sinh(x) + jnp.cosh(x) + jnp.arcsinh(x) + jnp.arctanh(x), (f32(8),)),
        "lgamma_digamma": (lambda x: jax.scipy.special.gammaln(x) + jax.scipy.special.digamma(x), (f32(8),)),
        "erf_erfc_erfinv": (lambda x: jax.scipy.special.erf(x) + jax.scipy.special.erfc(x) + jax.scipy.special.erfinv(x), (f32(8),)),
        "gammainc": (lambda x: jax.scipy.special.gammainc(2.0, x), (f32(8),)),
        "betainc": (lambda x: jax.scipy.special.betainc(2.0, 3.0, x), (f32(8),)),
        "xlogy": (lambda x, y: jax.scipy.special.xlogy(x, y) + jax.scipy.special.xlog1py(x, y), (f32(8), f32(8))),
        "entr_kl": (lambda x, y: jax.scipy.special.entr(x) + jax.scipy.special.kl_div(x, y), (f32(8), f32(8))),
        "norm_cdf_ppf": (lambda x: jax.scipy.stats.norm.cdf(x) + jax.scipy.stats.norm.ppf(jax.nn.sigmoid(x)), (f32(8),)),
        "logsumexp_b": (lambda x, b: jax.scipy.special.logsumexp(x, b=b), (f32(8), f32(8))),
        "nextafter": (jnp.nextafter, (f32(8), f32(8))),
        "nanmean_nanmax": (lambda x: jnp.nanmean(x) + jnp.nanmax(x) + jnp.nanstd(x), (f32(8),)),
        "polyval": (lambda x: jnp.polyval(jnp.array([1.0, 2.0, 3.0]), x), (f32(8),)),
        "interp": (lambda x, xp, fp: jnp.interp(x, xp, fp), (f32(8), f32(16), f32(16))),
        "reduce_precision": (lambda x: lax.reduce_precision(x, 5, 10), (f32(8),)),
        "clamp": (lambda x: lax.clamp(-1.0, x, 1.0), (f32(8),)),
        "bool_ops": (lambda a, b: jnp.logical_xor(a, b) | ~a, (jnp.zeros(8, bool), jnp.zeros(8, bool))),
        "uint8_image": (lambda x: x.astype(jnp.float32) / 255.0, (jnp.zeros((4, 4, 3), jnp.uint8),)),
        "bessel_i0e_i1e": (lambda x: jax.scipy.special.i0e(x) + jax.scipy.special.i1e(x), (f32(8),)),
        "polygamma": (lambda x: jax.scipy.special.polygamma(1, x), (f32(8),)),
        "zeta": (lambda x: jax.scipy.special.zeta(x, 1.0), (f32(8),)),
        "fft_abs": (lambda x: jnp.abs(jnp.fft.rfft(x)), (f32(16),)),
        "fp8_roundtrip": (lambda x: x.astype(jnp.float8_e4m3fn).astype(jnp.float32), (f32(8),)),
        "int4_roundtrip": (lambda x: x.astype(jnp.int4).astype(jnp.int32), (i32(8),)),
        "uint4_roundtrip": (lambda x: x.astype(jnp.uint4).astype(jnp.int32), (i32(8),)),
        # Shapes and layout.
        "pad_reflect_edge": (lambda x: jnp.pad(x, ((1, 1), (2, 2)), mode="reflect") + jnp.pad(x, ((1, 1), (2, 2)), mode="edge"), (f32(4, 8),)),
        "tile_repeat": (lambda x: jnp.tile(x, (2, 1)) + jnp.repeat(x, 2, axis=0), (f32(4, 8),)),
        "expand_squeeze": (lambda x: jnp.squeeze(jnp.expand_dims(x, 0), 0).T.reshape(-1), (f32(4, 8),)),
        "linspace_meshgrid": (lambda x: x + jnp.stack(jnp.meshgrid(jnp.linspace(0, 1, 4), jnp.linspace(0, 1, 4))), (f32(2, 4, 4),)),
        "roll": (lambda x: jnp.roll(x, 3, axis=1), (f32(4, 8),)),
        "rope": (lambda x, pos: (lambda f: jnp.concatenate([x[..., :4] * jnp.cos(f) - x[..., 4:] * jnp.sin(f), x[..., :4] * jnp.sin(f) + x[..., 4:] * jnp.cos(f)], -1))(pos[:, None] * (10000 ** (-jnp.arange(4) / 4))[None, :]), (f32(16, 8), f32(16))),
        "group_norm": (lambda x: (lambda y: ((y - y.mean((1, 3), keepdims=True)) / jnp.sqrt(y.var((1, 3), keepdims=True) + 1e-5)).reshape(x.shape))(x.reshape(2, 4, 8, 2)), (f32(2, 8, 8),)),
        "attention_mask_where": (lambda q, k, m: jnp.where(m, q @ k.T, -jnp.inf), (f32(8, 4), f32(8, 4), jnp.zeros((8, 8), bool))),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ptir-opt", required=True, help="the ptir-opt binary")
    ap.add_argument("--keep", help="write the exported and optimized modules to this directory")
    args = ap.parse_args(argv)
    out = args.keep or tempfile.mkdtemp(prefix="ptir-jax-coverage-")
    os.makedirs(out, exist_ok=True)
    unexpected, read = [], 0
    all_cases = cases()
    for name, (f, example) in all_cases.items():
        path = os.path.join(out, f"{name}.mlir")
        with open(path, "w") as fh:
            fh.write(jax.jit(f).lower(*example).as_text())
        r = subprocess.run([args.ptir_opt, path, "-o", os.path.join(out, f"{name}.opt.mlir")],
                           capture_output=True, text=True, timeout=600)
        why = (r.stderr.strip().splitlines() or ["exit status %d" % r.returncode])[0]
        if r.returncode == 0:
            read += 1
            print(f"{name}: ok")
            if name in EXPECTED_REFUSED:
                unexpected.append(f"{name}: read now; take it out of EXPECTED_REFUSED")
        else:
            print(f"{name}: {why}")
            if name not in EXPECTED_REFUSED:
                unexpected.append(f"{name}: {why}")
    print(f"{read} of {len(all_cases)} functions read; {len(EXPECTED_REFUSED)} expected refusals")
    for u in unexpected:
        print(f"UNEXPECTED {u}", file=sys.stderr)
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
