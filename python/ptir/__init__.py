"""PTIR-opt from Python: an equality-saturation optimizer for StableHLO and JAX programs.

Two doors, both on the Rust library (no subprocess):

- ``ptir.optimize(text, ...)`` optimizes a StableHLO (or PTIR) text and returns a
  :class:`Result` (``.text``, ``.report``, ``str(result)`` the readable report);
  ``ptir.compare_cost_models(text, ...)`` prices one saturated e-graph under several cost
  models.
- ``ptir.jit(f)`` is used like ``jax.jit(f)``: each call lowers ``f`` for its argument
  signature, optimizes the module for the runtime it will run on, compiles it on JAX's own
  backend (XLA) or with IREE, caches it, and runs it. A module the optimizer cannot read, or a
  run that fails, runs JAX's own compile instead, with a :class:`FallbackWarning` naming why.

Errors are exceptions derived from :class:`Error`, with the message (and ``line``/``column``)
the command line gives::

    import ptir
    fast = ptir.jit(model)              # in place of jax.jit(model)
    y = fast(params, x)
    print(fast.lower(params, x).report)  # what the optimizer did
"""

from ._ptir import (  # noqa: F401  (the exception classes are the native module's)
    Error,
    LimitError,
    OptionsError,
    ParseError,
    RuleError,
    UnsupportedOp,
    ValidationError,
    VerifyError,
    __version__,
)
from ._api import RUNTIMES, CostComparison, Result, compare_cost_models, optimize  # noqa: F401
from ._jit import FallbackWarning, Jitted, Lowered, jit  # noqa: F401
from ._runtime import Module, compile_module  # noqa: F401

__all__ = [
    "optimize",
    "compare_cost_models",
    "jit",
    "compile_module",
    "Module",
    "Result",
    "CostComparison",
    "Jitted",
    "Lowered",
    "RUNTIMES",
    "FallbackWarning",
    "Error",
    "ParseError",
    "UnsupportedOp",
    "VerifyError",
    "RuleError",
    "LimitError",
    "OptionsError",
    "ValidationError",
]
