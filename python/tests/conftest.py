"""Shared fixtures of the Python suite: the repository's corpus and zoo, random arguments."""

import os
import sys

import numpy as np
import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "zoo"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))


@pytest.fixture(scope="session")
def root():
    return ROOT


def read(*parts):
    with open(os.path.join(ROOT, *parts)) as fh:
        return fh.read()


# Per dtype: (rtol, atol), scripts/iree_check.py's tolerances.
TOLERANCE = {"float16": 2e-2, "bfloat16": 5e-2, "float32": 1e-4, "float64": 1e-9}


def random_args(specs, seed=0):
    """Arguments for `jax.ShapeDtypeStruct`s: normal floats, small non-negative integers
    (valid indices for the zoo's gathers), random booleans."""
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(seed)

    def one(s):
        dtype = np.dtype(s.dtype)
        if dtype == np.bool_:
            return jnp.asarray(rng.random(s.shape) < 0.5)
        if np.issubdtype(dtype, np.integer):
            return jnp.asarray(rng.integers(0, 4, s.shape).astype(dtype))
        return jnp.asarray((rng.standard_normal(s.shape) * 0.5).astype(np.float32)).astype(dtype)

    return jax.tree_util.tree_map(one, specs)


def assert_close(actual, expected):
    """Every leaf of `actual` equals `expected`'s within its dtype's tolerance (exactly for
    integers and booleans)."""
    import jax

    a_leaves, a_tree = jax.tree_util.tree_flatten(actual)
    e_leaves, e_tree = jax.tree_util.tree_flatten(expected)
    assert a_tree == e_tree
    for i, (a, e) in enumerate(zip(a_leaves, e_leaves)):
        assert a.shape == e.shape and a.dtype == e.dtype, (i, a.shape, a.dtype, e.shape, e.dtype)
        tol = TOLERANCE.get(np.dtype(e.dtype).name)
        a64, e64 = np.asarray(a, dtype=np.float64), np.asarray(e, dtype=np.float64)
        if tol is None:
            np.testing.assert_array_equal(a64, e64, err_msg=f"result {i}")
        else:
            np.testing.assert_allclose(a64, e64, rtol=tol, atol=tol, err_msg=f"result {i}")
