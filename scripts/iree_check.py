#!/usr/bin/env python3
"""IREE as the independent judge: do two StableHLO modules compute the same thing?

Compiles REFERENCE.mlir and each CANDIDATE.mlir with IREE's llvm-cpu backend, runs the public
function of each (default ``main``) on the same seeded random inputs, and compares the
results with a tolerance by dtype (integers and booleans exactly, NaN where NaN). With
``--bench N`` it also times both, alternating, and prints the medians and their ratio.

Exit status: 0 same results, 1 different results, 2 a tool or compile failure.

A candidate written ``CANDIDATE.mlir@SCALE`` is compared with the tolerances times SCALE
(``@0``: identical results), others with ``--tolerance-scale``.

Usage: ``python scripts/iree_check.py REFERENCE.mlir CANDIDATE.mlir[@SCALE]... [--seed S] [--bench N]``
(requirements pinned in ``scripts/requirements.txt``).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import ml_dtypes  # pinned in requirements.txt: numpy has no bfloat16
import numpy as np

# Relative and absolute tolerance per dtype. Rewrites may reassociate within IEEE-exact rules
# only, but IREE itself fuses and vectorizes each module differently.
TOLERANCE = {
    "f16": (2e-2, 2e-2),
    "bf16": (5e-2, 5e-2),
    "f32": (1e-4, 1e-4),
    "f64": (1e-9, 1e-9),
}

NUMPY = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f32": np.float32,
    "f64": np.float64,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "ui8": np.uint8,
    "ui16": np.uint16,
    "ui32": np.uint32,
    "ui64": np.uint64,
    "i1": np.bool_,
}


def tool(name):
    here = os.path.dirname(sys.executable)
    path = os.path.join(here, name)
    return path if os.path.exists(path) else name


def compile_module(src, out):
    """Compiles the StableHLO file `src` to the IREE module `out`.

    The text goes in on stdin, so every module is compiled under the same source name: IREE
    keeps the file name in every op's location, and the name's length alone moved a scatter
    model's run time by 1.6x (the same text copied to a longer path ran 0.63x).
    """
    cmd = [
        tool("iree-compile"),
        "--iree-input-type=stablehlo",
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
        "--iree-llvmcpu-target-cpu=host",
        "-",
        "-o",
        out,
    ]
    with open(src) as fh:
        text = fh.read()
    r = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(f"iree-compile failed on {src}:\n{r.stderr.replace('<stdin>:', src + ':')}\n")
        sys.exit(2)


def signature(text, function):
    """The parameter types of the public function, as (shape, dtype) pairs."""
    m = re.search(r"func\.func\s+(?:public\s+)?@" + re.escape(function) + r"\((.*?)\)\s*->", text, re.S)
    if not m:
        sys.stderr.write(f"no function @{function}\n")
        sys.exit(2)
    params = []
    for t in re.findall(r"tensor<([^>]*)>", m.group(1)):
        parts = t.split("x")
        dims = [int(p) for p in parts[:-1]]
        params.append((tuple(dims), parts[-1]))
    return params


def random_inputs(params, seed):
    rng = np.random.default_rng(seed)
    out = []
    for shape, dtype in params:
        if dtype in ("i8", "i16", "i32", "i64"):
            # Small integers: products stay far from overflow, and gather indices in range.
            out.append(rng.integers(0, 8, size=shape).astype(NUMPY[dtype]))
        elif dtype.startswith("ui"):
            # Every bit pattern (hashes and bit tricks; the top bit set half the time).
            info = np.iinfo(NUMPY[dtype])
            out.append(rng.integers(0, int(info.max), size=shape, dtype=NUMPY[dtype], endpoint=True))
        elif dtype == "i1":
            out.append(rng.integers(0, 2, size=shape).astype(np.bool_))
        else:
            out.append((rng.standard_normal(size=shape) * 0.5).astype(NUMPY[dtype]))
    return out


_CONFIG = None


def config():
    """One runtime config (one device) for every module, so inputs are uploaded once."""
    global _CONFIG
    if _CONFIG is None:
        import iree.runtime as rt

        _CONFIG = rt.Config("local-task")
    return _CONFIG


def load(vmfb, function):
    import iree.runtime as rt

    cfg = config()
    with open(vmfb, "rb") as fh:
        vm_module = rt.VmModule.copy_buffer(cfg.vm_instance, fh.read())
    return getattr(rt.load_vm_module(vm_module, cfg), function)


def on_device(inputs):
    """Uploads host arrays once: timing then measures the module, not the copies."""
    import iree.runtime as rt

    return [rt.asdevicearray(config().device, x) for x in inputs]


def call(f, inputs):
    out = f(*inputs)
    if isinstance(out, (list, tuple)):
        return [np.asarray(o.to_host() if hasattr(o, "to_host") else o) for o in out]
    return [np.asarray(out.to_host() if hasattr(out, "to_host") else out)]


def compare(a, b, rtol_scale):
    problems = []
    if len(a) != len(b):
        return [f"{len(a)} results against {len(b)}"]
    for i, (x, y) in enumerate(zip(a, b)):
        if x.shape != y.shape or x.dtype != y.dtype:
            problems.append(f"result {i}: {x.dtype}{list(x.shape)} against {y.dtype}{list(y.shape)}")
            continue
        if x.dtype.kind in "iub":
            bad = np.count_nonzero(x != y)
            if bad:
                problems.append(f"result {i}: {bad} of {x.size} elements differ")
            continue
        name = {np.float16: "f16", np.float32: "f32", np.float64: "f64"}.get(x.dtype.type, "f32")
        if x.dtype.name == "bfloat16":
            # Compared in f32 (numpy's isclose knows no bfloat16), with bf16's tolerance.
            name, x, y = "bf16", x.astype(np.float32), y.astype(np.float32)
        rtol, atol = TOLERANCE[name]
        rtol, atol = rtol * rtol_scale, atol * rtol_scale
        close = np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
        if not close.all():
            err = np.nanmax(np.abs(x.astype(np.float64) - y.astype(np.float64)))
            problems.append(
                f"result {i}: {np.count_nonzero(~close)} of {x.size} elements differ "
                f"(max abs error {err:.3g}, rtol {rtol:g}, atol {atol:g})"
            )
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reference")
    ap.add_argument("candidates", nargs="+")
    ap.add_argument("--function", default="main")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--trials", type=int, default=2, help="input sets to compare on")
    ap.add_argument("--tolerance-scale", type=float, default=1.0,
                    help="multiply the tolerances (e.g. 100 for --fast-math outputs)")
    ap.add_argument("--bench", type=int, default=0, help="time N alternating runs of each")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        ref_text = open(args.reference).read()
        ref_sig = signature(ref_text, args.function)
        # Each distinct text is compiled once: a candidate the same as the reference or as an
        # earlier candidate (an optimizer that changed nothing) reuses its module.
        compiled = {}

        def module(path, text):
            if text not in compiled:
                vmfb = os.path.join(tmp, f"{len(compiled)}.vmfb")
                compile_module(path, vmfb)
                compiled[text] = vmfb
            return compiled[text]

        ref = load(module(args.reference, ref_text), args.function)
        status = 0
        for cand in args.candidates:
            scale = args.tolerance_scale
            path, at, given = cand.rpartition("@")
            if at and path.endswith(".mlir"):
                cand, scale = path, float(given)
            cand_text = open(cand).read()
            sig = signature(cand_text, args.function)
            if sig != ref_sig:
                print(f"{cand}: different signature: {sig} against {ref_sig}")
                status = 1
                continue
            f = load(module(cand, cand_text), args.function)
            bad = None
            for trial in range(args.trials):
                inputs = random_inputs(ref_sig, args.seed + trial)
                problems = compare(call(ref, inputs), call(f, inputs), scale)
                if problems:
                    bad = f"MISMATCH (seed {args.seed + trial}): " + "; ".join(problems)
                    break
            if bad:
                print(f"{cand}: {bad}")
                status = 1
                continue
            what = "identical" if scale == 0 else "same"
            print(f"{cand}: {what} results on {args.trials} input sets (seed {args.seed})")
            if args.bench:
                bench(ref, f, on_device(random_inputs(ref_sig, args.seed)), args.bench)
        return status


def bench(ref, f, inputs, n):
    """Times `n` alternating runs of both; prints the medians and the speedup."""
    fns = (ref, f)
    times = ([], [])
    for g in fns:  # warm up
        call(g, inputs)
    for _ in range(n):
        for k, g in enumerate(fns):
            t = time.perf_counter()
            call(g, inputs)
            times[k].append(time.perf_counter() - t)
    m = [statistics.median(t) for t in times]
    print(
        f"median of {n} runs: reference {m[0] * 1e3:.3f} ms, "
        f"candidate {m[1] * 1e3:.3f} ms, speedup {m[0] / m[1]:.3f}x"
    )


if __name__ == "__main__":
    status = main()
    # End without the interpreter's teardown: IREE's local-task worker threads can abort the
    # process as its runtime objects are destroyed at exit ("terminate called without an
    # active exception", exit 134), turning a finished, agreeing check into a failure.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status or 0)
