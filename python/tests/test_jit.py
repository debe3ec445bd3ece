"""`ptir.jit` against `jax.jit`: zoo models, pytrees, static arguments, the cache, the
fallback, time limits, both runtimes."""

import importlib.util
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import ptir
from conftest import assert_close, random_args

import export_zoo  # scripts/zoo/export_zoo.py: the zoo's model functions and their arguments

@pytest.mark.parametrize("name", sorted(export_zoo.MODELS))
def test_zoo_models_agree_with_jax_jit(name):
    model = export_zoo.MODELS[name]
    # The models that need 64-bit integers are built, lowered and run under x64, as exported.
    with jax.enable_x64(model.x64):
        fn, specs = model.build()
        args = random_args(specs, seed=1)
        fast = ptir.jit(fn)
        with warnings.catch_warnings():
            warnings.simplefilter("error", ptir.FallbackWarning)
            out = fast(*args)
        assert_close(out, jax.jit(fn)(*args))
        lowered = fast.lower(*args)
    assert lowered.fallback is None and lowered.runtime == "xla-cpu"
    assert lowered.report["runtime"] == "xla-cpu"
    assert lowered.input_text.startswith("module") and "func.func public @main" in lowered.text


def test_compile_module_runs_a_text_on_xla():
    text = (
        "func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {\n"
        "  %0 = stablehlo.multiply %a, %b : tensor<3xf32>\n  return %0 : tensor<3xf32>\n}\n"
    )
    module = ptir.compile_module(ptir.optimize(text).text, dtypes=[np.float32, np.float32])
    (out,) = module(np.array([1.0, 2.0, 3.0]), [4, 5, 6])
    np.testing.assert_array_equal(np.asarray(out), [4.0, 10.0, 18.0])
    with pytest.raises(TypeError, match="takes 2 arguments"):
        module(np.ones(3))


def test_pytrees_in_and_out_static_arguments_and_keywords():
    traces = []

    def f(params, x, *, act, scale=1.0):
        traces.append(act)
        h = x @ params["w"] + params["b"]
        h = jnp.tanh(h) if act == "tanh" else jax.nn.relu(h)
        return {"h": h * scale, "stats": (h.mean(), h.max())}

    fast = ptir.jit(f, static_argnames="act")
    params = {"w": jnp.ones((4, 3)) * 0.1, "b": jnp.arange(3.0)}
    x = jnp.arange(8.0).reshape(2, 4)
    for act in ("tanh", "relu", "tanh"):
        assert_close(fast(params, x, act=act, scale=2.0), f(params, x, act=act, scale=2.0))
    # Two static values, two signatures; the third call is a hit and traced nothing.
    assert fast.cache_size() == 2
    traced = len(traces)
    fast(params, x, act="relu", scale=3.0)  # a new Python float is the same signature
    assert len(traces) == traced and fast.cache_size() == 2
    fast(params, x[:1], act="relu")  # a new shape is a new one
    assert fast.cache_size() == 3


def test_static_argnums_and_the_decorator_forms():
    @ptir.jit
    def double(x):
        return x + x

    @ptir.jit(static_argnums=1)
    def power(x, n):
        for _ in range(n - 1):
            x = x * x
        return x

    x = jnp.linspace(0.5, 1.5, 6)
    assert_close(double(x), x + x)
    assert_close(power(x, 3), (x * x) * (x * x))
    assert double.__name__ == "double"


def test_a_negative_static_argnum_counts_from_the_end():
    # Two values of the static argument are two programs, not one cached under the type int.
    fast = ptir.jit(lambda x, n: x * n, static_argnums=-1)
    x = jnp.arange(3.0)
    assert_close(fast(x, 2), x * 2)
    assert_close(fast(x, 3), x * 3)
    assert fast.cache_size() == 2


def test_numpy_and_python_scalars_are_arguments_like_jax_arrays():
    fast = ptir.jit(lambda x, y: x * y + 1)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert_close(fast(x, 2.0), jax.jit(lambda x, y: x * y + 1)(x, 2.0))
    assert_close(fast(jnp.asarray(x), 3.0), jnp.asarray(x) * 3 + 1)


def test_an_op_the_optimizer_refuses_falls_back_with_the_reason():
    def spectrum(x):
        return jnp.abs(jnp.fft.fft(x))

    fast = ptir.jit(spectrum)
    x = jnp.linspace(0.0, 1.0, 16)
    with pytest.warns(ptir.FallbackWarning, match="optimizer refused the module.*unsupported"):
        out = fast(x)
    assert_close(out, jax.jit(spectrum)(x))
    assert fast.lower(x).fallback is not None and fast.lower(x).report is None
    with warnings.catch_warnings():
        warnings.simplefilter("error", ptir.FallbackWarning)
        assert_close(fast(x), out)  # warned once per signature


def test_options_reach_the_optimizer_and_a_time_limit_is_honored():
    fn, specs = export_zoo.MODELS["gpt2_block_gelu_exact"].build()
    args = random_args(specs, seed=2)
    fast = ptir.jit(fn, time_limit=0.0)
    assert_close(fast(*args), jax.jit(fn)(*args))
    stops = [s["reason"] for s in fast.lower(*args).report["stops"]]
    assert stops and all(s == "time-limit" for s in stops), stops
    with pytest.warns(ptir.FallbackWarning, match="engine"):
        ptir.jit(fn, engine="nope")(*args)


def test_a_bad_runtime_is_refused_at_once():
    with pytest.raises(ValueError, match="runtime"):
        ptir.jit(lambda x: x, runtime="tpu-v9")


def test_xla_output_keeps_loops_as_loops():
    fn, specs = export_zoo.MODELS["gru_scan"].build()
    lowered = ptir.jit(fn).lower(*random_args(specs))
    assert "stablehlo.while" in lowered.text


@pytest.mark.skipif(
    importlib.util.find_spec("iree") is None, reason="IREE is not installed (pip install iree-base-compiler iree-base-runtime)"
)
# Short reductions: IREE and XLA round long sums (matmuls, 32-step scans) in other orders,
# past f32's tolerance against each other whether or not the module was optimized.
@pytest.mark.parametrize("name", ["softmax", "logsumexp", "layernorm_var"])
def test_iree_runtime_agrees_with_jax_jit(name):
    fn, specs = export_zoo.MODELS[name].build()
    args = random_args(specs, seed=3)
    fast = ptir.jit(fn, runtime="iree-cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ptir.FallbackWarning)
        out = fast(*args)
    assert_close(out, jax.jit(fn)(*args))
    assert fast.lower(*args).report["runtime"] == "iree-cpu"
