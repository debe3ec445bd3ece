"""Compiling and running StableHLO text on a runtime: XLA through JAX's own client (what
``jax.jit`` compiles with, on JAX's default backend) or IREE's llvm-cpu backend.

``compile_module(text, runtime)`` is the public face (the zoo benchmark times input against
output with it); ``runner`` is what ``ptir.jit`` calls, with the parameter dtypes the lowering
gave so that Python scalars and NumPy arrays convert as ``jax.jit`` converts them.
"""


def runner(text, runtime, dtypes):
    """A function from the argument leaves to the result leaves (JAX arrays) of the module
    ``text``'s ``@main``, compiled for ``runtime`` (``"iree-cpu"``, else XLA)."""
    if runtime == "iree-cpu":
        return _iree_runner(text, dtypes)
    return _xla_runner(text, dtypes)


class Module:
    """A compiled module: call it with its arguments (arrays), get the list of its results."""

    __slots__ = ("runtime", "_run")

    def __init__(self, runtime, run):
        self.runtime = runtime
        self._run = run

    def __call__(self, *args):
        return self._run(args)


def compile_module(text, runtime="xla-cpu", dtypes=None):
    """Compiles the StableHLO module ``text`` (its ``@main``) for ``runtime``: ``"xla-cpu"`` (or
    any ``"xla-*"``: JAX's default backend, with the options ``jax.jit`` compiles with) or
    ``"iree-cpu"``. ``dtypes``, one per parameter, converts arguments that are not arrays of
    that dtype already; without it arguments go in as they are. Returns a :class:`Module`;
    calls are asynchronous on XLA (``jax.block_until_ready`` waits)."""
    return Module(runtime, runner(text, runtime, dtypes))


def _converter(jax, dtype, device):
    """Puts one argument on `device`, as an array of `dtype` when one is given."""
    import numpy as np

    def convert(leaf):
        if isinstance(leaf, jax.Array) and (dtype is None or leaf.dtype == dtype):
            return leaf
        return jax.device_put(np.asarray(leaf, dtype=dtype), device)

    return convert


def _xla_runner(text, dtypes):
    import jax
    from jax._src import compiler
    from jax.extend import backend as jax_backend
    from jaxlib import _jax

    backend = jax_backend.get_backend()
    device = backend.local_devices()[0]
    options = compiler.get_compile_options(
        num_replicas=1, num_partitions=1, device_assignment=[device]
    )
    executable = backend.compile_and_load(text, _jax.DeviceList((device,)), options)
    if dtypes is None:
        convert = _converter(jax, None, device)

        def arrays(leaves):
            return [convert(l) for l in leaves]
    else:
        converters = [_converter(jax, d, device) for d in dtypes]

        def arrays(leaves):
            if len(leaves) != len(converters):
                raise TypeError(f"@main takes {len(converters)} arguments, given {len(leaves)}")
            return [c(l) for c, l in zip(converters, leaves)]

    def run(leaves):
        results = executable.execute_sharded(arrays(leaves))
        return [r[0] for r in results.disassemble_into_single_device_arrays()]

    return run


def _iree_runner(text, dtypes):
    import jax.numpy as jnp
    import numpy as np
    from iree import compiler as iree_compiler
    from iree import runtime as iree_runtime

    vmfb = iree_compiler.compile_str(
        text,
        input_type="stablehlo",
        extra_args=[
            "--iree-hal-target-device=local",
            "--iree-hal-local-target-device-backends=llvm-cpu",
            "--iree-llvmcpu-target-cpu=host",
        ],
    )
    config = iree_runtime.Config("local-task")
    vm_module = iree_runtime.VmModule.copy_buffer(config.vm_instance, vmfb)
    main = iree_runtime.load_vm_module(vm_module, config).main

    def run(leaves):
        given = dtypes or [None] * len(leaves)
        outs = main(*[np.asarray(l, dtype=d) for l, d in zip(leaves, given)])
        if not isinstance(outs, (tuple, list)):
            outs = (outs,)
        return [jnp.asarray(o.to_host() if hasattr(o, "to_host") else o) for o in outs]

    return run
