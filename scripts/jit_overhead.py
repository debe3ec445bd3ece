#!/usr/bin/env python3
"""How much ``ptir.jit`` costs beside ``jax.jit``: a cached call, and the first call.

- **Cached call**: one model that runs about 1 ms on XLA:CPU (an MLP, 256x512 @ 512x512 twice
  with tanh), called through ``jax.jit`` and ``ptir.jit`` in one process, alternating rounds
  (the order rotating), each call waited for; median of ``--rounds`` rounds of ``--calls``
  calls; an A/A control (a second ``jax.jit`` of the same function) shows the noise.
- **First call** (trace, lower, optimize, compile, run): each zoo transformer block in fresh
  processes, ``jax.jit`` and ``ptir.jit`` alternating, ``--first-reps`` times, median.

Usage: ``python scripts/jit_overhead.py [--rounds 30] [--first-reps 3]`` (needs
``pip install ./python``; ``XLA_FLAGS`` as the zoo benchmark sets it unless given).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TRANSFORMERS = ["gpt2_block_gelu_exact", "gpt2_block_gelu_tanh", "llama_block", "mqa_attention", "vit_layer"]

FIRST_CALL = """
import sys, time
sys.path.insert(0, {zoo!r})
import jax, numpy as np
import export_zoo
fn, specs = export_zoo.MODELS[{name!r}].build()
rng = np.random.default_rng(0)
args = jax.tree_util.tree_map(lambda s: jax.numpy.asarray((rng.standard_normal(s.shape) * 0.5).astype(np.float32)).astype(s.dtype), specs)
if {ptir!r}:
    import ptir
    jit = ptir.jit
else:
    jit = jax.jit
t = time.perf_counter()
jax.block_until_ready(jit(fn)(*args))
print(time.perf_counter() - t)
"""


def first_call(name, use_ptir):
    code = FIRST_CALL.format(zoo=os.path.join(HERE, "zoo"), name=name, ptir=use_ptir)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def cached_calls(rounds, calls):
    import jax
    import jax.numpy as jnp
    import numpy as np

    import ptir

    def mlp(x, w1, w2):
        return jnp.tanh(jnp.tanh(x @ w1) @ w2)

    rng = np.random.default_rng(0)
    args = [jnp.asarray(rng.standard_normal(s).astype(np.float32) * 0.05)
            for s in ((256, 512), (512, 512), (512, 512))]
    fns = {"jax.jit": jax.jit(mlp), "ptir.jit": ptir.jit(mlp), "jax.jit again": jax.jit(lambda *a: mlp(*a))}
    for f in fns.values():
        jax.block_until_ready(f(*args))
    times = {k: [] for k in fns}
    names = list(fns)
    for r in range(rounds):
        for j in range(len(names)):
            k = names[(r + j) % len(names)]
            f = fns[k]
            t = time.perf_counter()
            for _ in range(calls):
                jax.block_until_ready(f(*args))
            times[k].append((time.perf_counter() - t) / calls)
    return {k: statistics.median(v) for k, v in times.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--first-reps", type=int, default=3)
    args = ap.parse_args(argv)
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    med = cached_calls(args.rounds, args.calls)
    base = med["jax.jit"]
    print("cached call (median per call):")
    for k, v in med.items():
        print(f"  {k:14} {v * 1e3:.3f} ms  ({v / base:.3f}x of jax.jit)")
    print("first call (median of fresh processes):")
    for name in TRANSFORMERS:
        jax_t, ptir_t = [], []
        for _ in range(args.first_reps):
            jax_t.append(first_call(name, False))
            ptir_t.append(first_call(name, True))
        j, p = statistics.median(jax_t), statistics.median(ptir_t)
        print(f"  {name:24} jax.jit {j:.3f} s  ptir.jit {p:.3f} s  ({p / j:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
