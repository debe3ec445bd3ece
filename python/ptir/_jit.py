"""``ptir.jit``: ``jax.jit`` with PTIR-opt between lowering and compiling.

A call computes the signature of its arguments (the pytree structure and each leaf's shape,
dtype and weak type, and the values of the static arguments), as ``jax.jit`` caches by. The
first call of a signature lowers the function with ``jax.jit(f, keep_unused=True)`` (so the
module takes every leaf, in ``tree_flatten`` order), optimizes the module for the runtime it
will run on, and compiles the output: on JAX's own backend (``compile_and_load`` of JAX's
client, with the options ``jax.jit`` compiles with) or, for ``runtime="iree-cpu"``, with IREE.
Later calls of the signature run the cached executable.

Whatever goes wrong (a module the optimizer refuses, a compile or a run that fails) the call
runs JAX's own compile of the input instead and warns once per signature with a
:class:`FallbackWarning` naming the reason: the user's program always runs.
"""

import functools
import inspect
import threading
import warnings

from . import _api, _runtime
from ._ptir import Error


class FallbackWarning(UserWarning):
    """``ptir.jit`` ran JAX's own compile of the input: the message says why."""


def jit(fun=None, *, static_argnums=None, static_argnames=None, runtime=None, **options):
    """``jax.jit(fun)`` with the module optimized by PTIR-opt before it is compiled.

    ``static_argnums`` and ``static_argnames`` are ``jax.jit``'s. ``runtime`` is where the
    output runs: None (JAX's default backend, ``"xla-cpu"`` on the CPU), ``"xla-cpu"``, or
    ``"iree-cpu"`` (IREE's llvm-cpu, when ``iree-base-compiler`` and ``iree-base-runtime``
    are installed). The other keyword arguments are :func:`ptir.optimize`'s (``fast_math``,
    ``cost``, ``time_limit``, ``rules``, ...). Usable as a decorator, with or without
    arguments::

        @ptir.jit
        def f(x): ...

        @ptir.jit(static_argnames="n", fast_math=True)
        def g(x, n): ...
    """
    if fun is None:
        return lambda f: jit(
            f,
            static_argnums=static_argnums,
            static_argnames=static_argnames,
            runtime=runtime,
            **options,
        )
    return Jitted(fun, static_argnums, static_argnames, runtime, options)


def _as_tuple(x, kind):
    if x is None:
        return ()
    if isinstance(x, kind):
        return (x,)
    return tuple(x)


def _static_args(fun, static_argnums, static_argnames):
    """The static positions and names, each completed from the other through ``fun``'s
    signature, as ``jax.jit`` does."""
    nums = set(_as_tuple(static_argnums, int))
    names = set(_as_tuple(static_argnames, str))
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return frozenset(nums), frozenset(names)
    positional = [
        p.name
        for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    for i in list(nums):
        if 0 <= i < len(positional) and params[i].kind != params[i].POSITIONAL_ONLY:
            names.add(positional[i])
    for n in list(names):
        if n in positional:
            nums.add(positional.index(n))
    return frozenset(nums), frozenset(names)


def _default_runtime(jax):
    platform = jax.default_backend()
    return "xla-gpu" if platform in ("gpu", "cuda", "rocm") else "xla-cpu"


def _leaf_signature(leaf):
    """What a leaf contributes to a call's signature: shape, dtype and weak type for arrays
    (Python and NumPy scalars included), the type for anything else."""
    try:
        return (leaf.shape, leaf.dtype, getattr(leaf, "weak_type", False))
    except AttributeError:
        return type(leaf)


class Lowered:
    """One signature of a :class:`Jitted` function, lowered and optimized.

    Attributes:
        input_text: the module JAX lowered (StableHLO).
        text: the module that runs: the optimized one, or ``input_text`` after a fallback.
        result: the :class:`ptir.Result` (None after a fallback).
        report: the report as Python data (None after a fallback).
        runtime: the runtime it is optimized and compiled for.
        fallback: why JAX's own compile runs instead, or None.
    """

    __slots__ = ("input_text", "text", "result", "runtime", "fallback", "_jax_lowered")

    def __init__(self, jax_lowered, runtime, result=None, fallback=None):
        self._jax_lowered = jax_lowered
        self.input_text = jax_lowered.as_text()
        self.result = result
        self.text = result.text if result is not None else self.input_text
        self.runtime = runtime
        self.fallback = fallback

    @property
    def report(self):
        return self.result.report if self.result is not None else None

    @property
    def out_tree(self):
        """The pytree structure of the results."""
        return self._jax_lowered.out_tree

    def __str__(self):
        if self.result is None:
            return f"ptir.jit fell back to JAX's own compile: {self.fallback}\n"
        return str(self.result)


class _Compiled:
    """The executable of one signature, and what a call needs to run it."""

    def __init__(self, lowered, run):
        self.lowered = lowered
        self.run = run


class Jitted:
    """What :func:`jit` returns: call it as the function it wraps."""

    def __init__(self, fun, static_argnums, static_argnames, runtime, options):
        import jax

        self._jaxlib = jax
        self._fun = fun
        self._nums, self._names = _static_args(fun, static_argnums, static_argnames)
        static = dict(static_argnums=tuple(sorted(self._nums)) or None,
                      static_argnames=tuple(sorted(self._names)) or None)
        # JAX's own jit: the fallback, and the lowering (every argument kept, so the module's
        # parameters are the flattened leaves).
        self._jax = jax.jit(fun, **static)
        self._lowering = jax.jit(fun, keep_unused=True, **static)
        self._runtime = runtime or _default_runtime(jax)
        if self._runtime not in _api.RUNTIMES and not self._runtime.startswith("xla-"):
            raise ValueError(
                f"ptir.jit: runtime={runtime!r}: expected one of {', '.join(_api.RUNTIMES)}"
            )
        self._options = options
        self._flatten = jax.tree_util.tree_flatten
        self._unflatten = jax.tree_util.tree_unflatten
        self._cache = {}
        self._lock = threading.Lock()
        functools.update_wrapper(self, fun)

    # -- the signature of a call ------------------------------------------------------------

    def _split(self, args, kwargs):
        """(key, dynamic leaves) of a call; the key may be unhashable (a static value)."""
        nums, names = self._nums, self._names
        if any(i < 0 for i in nums):
            # `static_argnums=-1`, as jax.jit takes it: counted from the end of this call's
            # positional arguments.
            nums = {i + len(args) if i < 0 else i for i in nums}
        if nums or names:
            dynamic = tuple(a for i, a in enumerate(args) if i not in nums)
            dyn_kwargs = {k: v for k, v in kwargs.items() if k not in names}
            statics = tuple((i, args[i]) for i in sorted(nums) if i < len(args))
            static_kw = tuple(sorted((k, v) for k, v in kwargs.items() if k in names))
        else:
            dynamic, dyn_kwargs, statics, static_kw = args, kwargs, (), ()
        leaves, tree = self._flatten((dynamic, dyn_kwargs))
        key = (len(args), statics, static_kw, tree, tuple(map(_leaf_signature, leaves)))
        return key, leaves

    # -- calls --------------------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        key, leaves = self._split(args, kwargs)
        try:
            compiled = self._cache.get(key)
        except TypeError:
            # Unhashable static arguments: JAX says what is wrong with them.
            return self._jax(*args, **kwargs)
        if compiled is None:
            with self._lock:
                compiled = self._cache.get(key)
                if compiled is None:
                    compiled = self._compile(args, kwargs, leaves)
                    self._cache[key] = compiled
        if compiled.run is None:
            return self._jax(*args, **kwargs)
        try:
            outs = compiled.run(leaves)
        except Exception as e:  # noqa: BLE001  (any failure of the run: fall back)
            self._fall_back(compiled, f"the optimized module failed to run: {e}")
            return self._jax(*args, **kwargs)
        return self._unflatten(compiled.lowered.out_tree, outs)

    def lower(self, *args, **kwargs):
        """The :class:`Lowered` for these arguments (input text, output text, report),
        compiled and cached as a call would be."""
        key, leaves = self._split(args, kwargs)
        hash(key)  # an unhashable static value is JAX's TypeError, as jax.jit(f).lower says
        with self._lock:
            compiled = self._cache.get(key)
            if compiled is None:
                compiled = self._compile(args, kwargs, leaves)
                self._cache[key] = compiled
        return compiled.lowered

    def cache_size(self):
        """How many signatures are compiled."""
        return len(self._cache)

    def clear_cache(self):
        """Forgets every compiled signature."""
        with self._lock:
            self._cache.clear()

    # -- compiling ----------------------------------------------------------------------------

    def _fall_back(self, compiled, reason):
        name = getattr(self._fun, "__name__", "function")
        warnings.warn(
            f"ptir.jit({name}): running JAX's own compile: {reason}",
            FallbackWarning,
            stacklevel=3,
        )
        compiled.run = None
        compiled.lowered.fallback = reason
        compiled.lowered.result = None
        compiled.lowered.text = compiled.lowered.input_text

    def _compile(self, args, kwargs, leaves):
        jax_lowered = self._lowering.lower(*args, **kwargs)
        lowered = Lowered(jax_lowered, self._runtime)
        compiled = _Compiled(lowered, None)
        try:
            result = _api.optimize(lowered.input_text, runtime=self._optimizer_runtime(),
                                   **self._options)
        except Error as e:
            self._fall_back(compiled, f"the optimizer refused the module: {e}")
            return compiled
        lowered.result, lowered.text = result, result.text
        avals = self._jaxlib.tree_util.tree_leaves(jax_lowered.in_avals)
        if len(avals) != len(leaves):
            self._fall_back(compiled, "the lowered module does not take one parameter per leaf")
            return compiled
        try:
            compiled.run = _runtime.runner(result.text, self._runtime, [a.dtype for a in avals])
        except Exception as e:  # noqa: BLE001  (a compiler failure of any kind: fall back)
            self._fall_back(compiled, f"compiling the optimized module failed: {e}")
        return compiled

    def _optimizer_runtime(self):
        # A runtime without its own decisions yet (xla-gpu) is optimized as XLA on the CPU.
        return self._runtime if self._runtime in _api.RUNTIMES else "xla-cpu"
