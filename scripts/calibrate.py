#!/usr/bin/env python3
"""Measure what each distinct op of a corpus costs in IREE (or XLA): the table a calibrated cost model fits.

With ``--runtime xla-cpu`` every step below is the same but the runtime: the programs are
optimized for XLA (``--runtime xla-cpu``), the one-op modules are not compiled ahead but
compiled and timed in the worker by the Python package (``ptir.compile_module``, JAX's own
client, ``pip install ./python``) on one thread (``bench_zoo.XLA_FLAGS``), 64-bit types kept.

The measuring half of the calibrated cost model ("A cost model that predicts the runtime,
calibrated on a real one"). Given StableHLO programs (``.mlir`` files or directories of them;
``.ptir`` files are read as they are), the script

1. lists the distinct kernels of each with ``ptir-opt signatures FILE`` (a file ptir-opt
   refuses is skipped with a notice; ``--allow-opaque`` retries it keeping the unsupported
   ops opaque): every op *signature*, the instruction with its value names replaced by their
   types, ``op attrs : operand types -> result type``, e.g.
   ``dot_general lhs_contract=[1] rhs_contract=[0] : f16[256,512], f16[512,512] -> f32[256,512]``,
   with the op's FLOPs and bytes, the default roofline's prediction and the one-op PTIR
   program computing it. ptir-opt makes the signatures, so they are exactly the keys
   ``--cost measured=FILE`` looks up. Region ops (``cond``, ``while``, ``scan``) are not
   calibrated but their bodies are, as are the bodies of called functions; ``call``,
   ``tuple``, ``tuple_get``, ``constant`` and ``rng`` are not calibrated. The kernels of each
   program optimized with default options, with ``--fast-math`` and with ``--cost tensor``
   (which raises idioms to fused calls, whose bodies are listed) are listed too (not with
   ``--inputs-only``): those are the programs a measured model prices during extraction.
   Then (``--rounds``, default 2) each program is optimized with ``--cost measured=`` the
   table just written, and the kernels that model chose and the table lacks are timed and
   added: a kernel the table lacks is priced by the fit, and what is priced by the fit
   rather than measured is what a measured model is drawn to (an LSTM's gate product split
   into four unmeasured small ones, 0.90x in IREE);
2. writes each one-op PTIR program (its operands are the function's parameters), translates it to StableHLO (``ptir-opt translate X.ptir --emit mlir``) and compiles it with
   IREE (llvm-cpu, ``--iree-llvmcpu-target-cpu=host``, via ``scripts/iree_check.py``), two
   compilations at a time; compiled modules are cached in ``--cache`` under a hash of the
   signature, the StableHLO text, the IREE version and the CPU, so a second run only times;
3. times every module in one worker process on IREE's single-threaded ``local-sync`` device
   with glibc's malloc thresholds fixed (both from ``scripts/zoo/bench_zoo.py``; see
   ``bench_zoo.MALLOC_ENV`` for why): ``--warmup`` calls, then ``--calls`` timed calls, keeping
   the minimum (and the median, for the noise). The per-call overhead of the runtime is
   measured on a module whose function returns its argument (``call_overhead_us``). A worker
   that crashes or hangs on a module is restarted after it (the module is listed as a failure).
   Two chains of 1 and 129 small dispatches give what each further dispatch of a program costs
   (``dispatch_overhead_us``: a one-op module cannot, it is one dispatch and a run's overhead);
4. fits ``time_us ≈ call_overhead_us + kernel_overhead_us + max(flops / peak, bytes / bandwidth)``
   (least absolute deviations of log(time_us), by grid search: see ``fit_roofline``), writes
   the JSON cost table (``--out``) and prints a summary: signatures, time taken, the fit and
   the Spearman rank correlation between the fitted roofline and the measured times (and
   that of ptir-opt's default, unfitted roofline).

The cost table (``format`` ``ptir-cost-table``, ``version`` 1)::

    {"format": "ptir-cost-table", "version": 1,
     "machine": {"cpu": "<model name in /proc/cpuinfo>", "cores": N, "hostname": "..."},
     "tools": {"iree": "<iree-base-compiler version>", "ptir_opt": "<sha256 prefix of the binary>"},
     "created": "<ISO 8601 UTC>",
     "settings": {"device": "local-sync", "target_cpu": "host", "warmup": 3, "calls": 20,
                  "statistic": "min", "malloc": "..."},
     "call_overhead_us": 3.1,      # one call of an identity module (min over calls)
     "fit": {"peak_gflops": ..., "bandwidth_gbs": ..., "kernel_overhead_us": ...,
             "dispatch_overhead_us": ..., "method": "...", "n": ..., "spearman": ..., "median_abs_log2_error": ...},
     "ops": [{"signature": "...", "op": "dot_general", "time_us": 123.4, "median_us": 125.0,
              "flops": ..., "bytes": ..., "predicted_us": ..., "count": 3}, ...],
     "failures": [{"signature": "...", "op": "...", "stage": "ptir-opt|iree-compile|iree-run",
                   "error": "..."}, ...],
     "sources": {"read": [...], "skipped": {"file": "reason"}}}

``time_us`` is the minimum wall time of one call of the one-op module, the runtime's call
overhead included (subtract ``call_overhead_us`` for the op's own time). ``flops`` and
``bytes`` are ptir-opt's (``ptir_cost::op_work``: ``dot_general`` 2·M·N·K, reductions
one per input element, elementwise ops one per element and transcendental ones 4, layout ops
none; bytes read and written, a ``reshape`` none and a slice only its block);
``predicted_us`` is the default roofline's time of the op as its own kernel (``Machine::
REFERENCE``). ``ops`` is sorted by signature, so two runs differ only in their timings.
``count`` is how many times the signature occurs in the programs read; ``median_us`` is the
median of the timed calls (its distance from ``time_us`` shows the noise). In ``fit``, ``n``
is the number of ops fitted, ``spearman`` the rank correlation of the fitted prediction with
``time_us`` and ``median_abs_log2_error`` the median of |log2(predicted / measured)| (0.2: a
typical op is predicted within 15%). ``failures`` lists the signatures whose one-op module
ptir-opt could not translate (``ptir-opt``), IREE could not compile (``iree-compile``) or run
(``iree-run``), with the first line of the error. The file has one line per op.

Usage (with the project's venv, ``scripts/requirements.txt``)::

    python scripts/calibrate.py                                   # corpus/zoo and corpus/mlir
    python scripts/calibrate.py corpus/zoo/softmax.mlir my_dir/ --out my_table.json
    python scripts/calibrate.py --allow-opaque --calls 50 --cache /tmp/cal-cache
    python scripts/calibrate.py --runtime xla-cpu --out xla_table.json     # XLA:CPU, through the package
"""

import argparse
import concurrent.futures
import datetime
import glob
import hashlib
import importlib.metadata
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "zoo"))
import iree_check  # noqa: E402  (compile flags, signature, load, on_device)
import bench_zoo  # noqa: E402  (MALLOC_ENV, local-sync, random inputs, snapshot of the binary)

DEFAULT_INPUTS = [os.path.join(ROOT, "corpus", "zoo"), os.path.join(ROOT, "corpus", "mlir")]
DEFAULT_CACHE = ".ptir-calibration-cache"
COMPILE_FLAGS = "llvm-cpu --iree-llvmcpu-target-cpu=host, from stdin"  # what iree_check.compile_module does

# ----------------------------------------------------------------------------------------
# Reading the programs.
# ----------------------------------------------------------------------------------------


def input_files(paths):
    """The `.mlir` (and `.ptir`) files named, directories expanded (sorted, not recursive)."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "*.mlir")) + glob.glob(os.path.join(p, "*.ptir")))
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise SystemExit(f"no such file or directory: {p}")
    return files


# What the optimizer makes of each program, whose kernels are calibrated too: a measured
# model is asked to price the programs extraction may choose, not only the input.
# Under `--cost tensor` the fused library calls are chosen, so their bodies' kernels (which
# extraction prices whenever it weighs a call) are listed too.
OPTIMIZED_SETTINGS = {"default": [], "fast-math": ["--fast-math"], "fused": ["--cost", "tensor"]}


def run_signatures(binary, path, extra):
    """The kernel dicts of ``ptir-opt signatures path``, or raises RuntimeError(first line)."""
    r = subprocess.run([binary, "signatures", path] + extra, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(bench_zoo.first_line(r.stderr or r.stdout).replace(ROOT + os.sep, ""))
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def kernels_of(binary, path, allow_opaque, optimized, tmp, settings=OPTIMIZED_SETTINGS, own=True):
    """(list of kernel dicts, None) of a program, or (None, the first line of ptir-opt's refusal).

    Each dict is a line of ``ptir-opt signatures``: signature, op, flops, bytes, fusion,
    count, predicted_us (the default roofline's time of the op as its own kernel) and program
    (the one-op PTIR program computing it). With `optimized`, the kernels of the program
    optimized under each of `settings` are added (a setting that fails adds none); with
    `own` false, only those.
    """
    extra = []
    try:
        kernels = run_signatures(binary, path, extra)
    except RuntimeError as e:
        if not allow_opaque:
            return None, str(e)
        extra = ["--allow-opaque"]
        try:
            kernels = run_signatures(binary, path, extra)
        except RuntimeError as e2:
            return None, str(e2)
    if not own:
        kernels = []
    for name, flags in settings.items() if optimized else ():
        out = os.path.join(tmp, f"optimized-{name}.ptir")
        r = subprocess.run([binary, path, "--emit", "ptir", "-o", out] + extra + flags,
                           capture_output=True, text=True)
        if r.returncode == 0:
            try:
                kernels += run_signatures(binary, out, [])
            except RuntimeError:
                pass
    return kernels, None


def collect(binary, files, allow_opaque, optimized, tmp, settings=OPTIMIZED_SETTINGS, own=True):
    """{signature: kernel dict (count summed over the files)}, the files read and
    {file: reason} skipped."""
    found, read, skipped = {}, [], {}
    for path in files:
        kernels, error = kernels_of(binary, path, allow_opaque, optimized, tmp, settings, own)
        rel = os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path
        if kernels is None:
            print(f"skipped {rel}: {error}", file=sys.stderr)
            skipped[rel] = error
            continue
        for k in kernels:
            if k["signature"] in found:
                found[k["signature"]]["count"] += k["count"]
            else:
                found[k["signature"]] = k
        read.append(rel)
    return found, read, skipped


# ----------------------------------------------------------------------------------------
# One-op modules: translate, compile (cached), in parallel.
# ----------------------------------------------------------------------------------------


@dataclass
class Module:
    """A one-op module on its way through ptir-opt and IREE."""

    key: str  # the signature key ("identity" for the call-overhead module)
    op: str
    vmfb: str = ""
    error: str = ""
    stage: str = ""
    compile_s: float = 0.0
    cached: bool = False


def build_module(key, op, program, binary, cache, salt, runtime="iree-cpu"):
    """Writes `program`, translates it to StableHLO and compiles it unless cached (for IREE;
    XLA compiles in the timing worker, `vmfb` is then the StableHLO file).

    Runs in a worker process. The cache name hashes the signature, the StableHLO text and
    `salt` (IREE version, CPU, flags); a failure is cached as a `.err` file beside it.
    """
    mod = Module(key, op)
    base = os.path.join(cache, hashlib.sha256(key.encode()).hexdigest()[:16])
    with open(base + ".ptir", "w") as fh:
        fh.write(program)
    r = subprocess.run([binary, "translate", base + ".ptir", "--emit", "mlir", "-o", base + ".mlir"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        mod.stage, mod.error = "ptir-opt", bench_zoo.first_line(r.stderr or r.stdout)
        return mod
    if runtime == "xla-cpu":
        mod.vmfb = base + ".mlir"
        return mod
    mlir = open(base + ".mlir").read()
    digest = hashlib.sha256("\n".join([key, mlir, salt]).encode()).hexdigest()[:24]
    mod.vmfb = os.path.join(cache, f"{digest}.vmfb")
    if os.path.exists(mod.vmfb) or os.path.exists(mod.vmfb + ".err"):
        mod.cached = True
    else:
        compile_into_cache(base + ".mlir", mod)
    if os.path.exists(mod.vmfb + ".err"):
        mod.stage, mod.error = "iree-compile", open(mod.vmfb + ".err").read().strip()
    return mod


def compile_into_cache(mlir_path, mod):
    """Compiles to a temporary file, then renames (or writes the error to `.err`)."""
    tmp = mod.vmfb + f".{os.getpid()}.tmp"
    try:
        mod.compile_s = bench_zoo.compile_vmfb(mlir_path, tmp)
        os.replace(tmp, mod.vmfb)
    except bench_zoo.IreeError as e:
        with open(mod.vmfb + ".err", "w") as fh:
            fh.write(str(e) + "\n")
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def build_all(jobs, binary, cache, salt, workers, runtime="iree-cpu"):
    """Builds every (key, op, program) job with `workers` processes; Modules in job order."""
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(build_module, k, op, prog, binary, cache, salt, runtime)
                   for k, op, prog in jobs]
        return [f.result() for f in futures]


IDENTITY_KEY = "identity"
IDENTITY_PROGRAM = "func @main(%0: f32[1]) -> (f32[1]) {\n  return %0\n}\n"

# Two chains of dispatches, 1 and DISPATCH_CHAIN + 1 long, each a row sum of a 16x16 tile and
# the `min` of the tile and the sums: what each further dispatch of a program costs, as the
# one-op modules cannot say (each is one dispatch and the run's fixed overhead).
DISPATCH_CHAIN = 128


def dispatch_chain_program(steps):
    lines = ["func @main(%x: f32[16,16]) -> (f32[16,16]) {"]
    last = "%x"
    for i in range(steps):
        lines += [f"  %r{i} = reduce_sum {last} axes=[1] : f32[16]",
                  f"  %b{i} = broadcast %r{i} dims=[0] : f32[16,16]",
                  f"  %m{i} = min {last}, %b{i} : f32[16,16]"]
        last = f"%m{i}"
    return "\n".join(lines + [f"  return {last}", "}"]) + "\n"


DISPATCH_KEYS = ("dispatch-chain-1", f"dispatch-chain-{DISPATCH_CHAIN + 1}")


def dispatch_overhead(times):
    """Microseconds each further dispatch adds to a run, from the two chains; None if either
    failed."""
    short, long = (times.get(k, {}).get("time_us") for k in DISPATCH_KEYS)
    if short is None or long is None:
        return None
    return round(max(long - short, 0.0) / DISPATCH_CHAIN, 4)


# ----------------------------------------------------------------------------------------
# Timing (in a worker process with bench_zoo.MALLOC_ENV, one module after the other).
# ----------------------------------------------------------------------------------------


def inputs_for(mlir_text, op, seed, demote_f64=True):
    """Seeded inputs for the one-op module (bench_zoo's), with nonzero integer divisors for
    div and rem, and f64 arguments as f32: IREE demotes f64 to f32 by default
    (``--iree-input-demote-f64-to-f32``), so an f64 op is timed as the f32 code IREE runs."""
    sig = bench_zoo.quiet(iree_check.signature, mlir_text, "main")
    inputs = bench_zoo.random_inputs(sig, seed)
    if op in ("div", "rem"):
        inputs = [np.where(x == 0, 1, x).astype(x.dtype) if x.dtype.kind in "iu" else x for x in inputs]
    if not demote_f64:
        return inputs
    return [x.astype(np.float32) if x.dtype == np.float64 else x for x in inputs]


def xla_loaded(mlir_path, op):
    """The module compiled on XLA (each call waited for) and its inputs on the device."""
    text = open(mlir_path).read()
    return bench_zoo.xla_module(text), bench_zoo.xla_inputs(inputs_for(text, op, 0, demote_f64=False))


def time_module(job, warmup, calls, runtime="iree-cpu"):
    """(min, median) wall time in microseconds of one call of the job's module."""
    if runtime == "xla-cpu":
        f, inputs = xla_loaded(job["mlir"], job["op"])
    else:
        f = iree_check.load(job["vmfb"], "main")
        inputs = iree_check.on_device(inputs_for(open(job["mlir"]).read(), job["op"], 0))
    for _ in range(warmup):
        f(*inputs)
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        f(*inputs)
        times.append(time.perf_counter() - start)
    return min(times) * 1e6, statistics.median(times) * 1e6


def timing_worker(jobs_path, out_path):
    """Times every job of the jobs file; appends one JSON line per job to `out_path`."""
    with open(jobs_path) as fh:
        spec = json.load(fh)
    runtime = spec.get("runtime", "iree-cpu")
    if runtime == "xla-cpu":
        import jax

        jax.config.update("jax_enable_x64", True)  # f64 and i64 modules keep their types
    else:
        bench_zoo.use_local_sync()
    for job in spec["jobs"]:
        calls = max(spec["calls"], 200) if job["key"] == IDENTITY_KEY else spec["calls"]
        try:
            t_min, t_med = time_module(job, spec["warmup"], calls, runtime)
            line = {"key": job["key"], "time_us": t_min, "median_us": t_med}
        except Exception as e:  # noqa: BLE001  (a failure of one module is a table entry)
            line = {"key": job["key"], "error": f"{type(e).__name__}: {bench_zoo.first_line(str(e))}"}
        with open(out_path, "a") as fh:
            fh.write(json.dumps(line) + "\n")


def read_lines(path):
    """The JSON lines written so far by the timing worker."""
    if not os.path.exists(path):
        return []
    with open(path) as fh:
        return [json.loads(line) for line in fh if line.endswith("\n")]


def run_timing(modules, args, tmp):
    """{key: timing line} for every compiled module, the worker restarted past any crash."""
    pending = [{"key": m.key, "op": m.op, "vmfb": m.vmfb, "mlir": mlir_of(m, args.cache)}
               for m in modules if not m.error]
    results = {}
    env = dict(os.environ, **bench_zoo.MALLOC_ENV)
    env.setdefault("XLA_FLAGS", bench_zoo.XLA_FLAGS)
    while pending:
        jobs_path, out_path = os.path.join(tmp, "jobs.json"), os.path.join(tmp, "times.jsonl")
        with open(jobs_path, "w") as fh:
            json.dump({"jobs": pending, "warmup": args.warmup, "calls": args.calls,
                       "runtime": args.runtime}, fh)
        if os.path.exists(out_path):
            os.unlink(out_path)
        status = watch_worker(jobs_path, out_path, env, args.op_timeout)
        for line in read_lines(out_path):
            results[line["key"]] = line
        pending = [j for j in pending if j["key"] not in results]
        if pending:  # the worker died (or hung) on the first job it did not finish
            results[pending[0]["key"]] = {"key": pending[0]["key"], "error": status}
            print(f"timing worker: {status} on {pending[0]['key']}", file=sys.stderr)
            pending = pending[1:]
    return results


def mlir_of(mod, cache):
    return os.path.join(cache, hashlib.sha256(mod.key.encode()).hexdigest()[:16] + ".mlir")


def watch_worker(jobs_path, out_path, env, op_timeout):
    """Runs the timing worker until it exits, or kills it after `op_timeout` s without progress."""
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", jobs_path, "--worker-out", out_path]
    err_path = out_path + ".stderr"
    with open(err_path, "w") as err:
        proc = subprocess.Popen(cmd, env=env, stderr=err)
    seen, last = 0, time.time()
    while proc.poll() is None:
        time.sleep(0.2)
        n = len(read_lines(out_path))
        if n != seen:
            seen, last = n, time.time()
        elif time.time() - last > op_timeout:
            proc.kill()
            proc.wait()
            return f"timeout after {op_timeout:g} s"
    with open(err_path) as fh:
        tail = fh.read()[-2000:]
    return f"worker exit {proc.returncode}: {bench_zoo.first_line(tail)}" if proc.returncode else "ok"


# ----------------------------------------------------------------------------------------
# The fit: time ≈ call_overhead + kernel_overhead + max(flops / peak, bytes / bandwidth).
# ----------------------------------------------------------------------------------------


def roofline(fl, by, peak, bw, k0):
    """Predicted microseconds of one op (without the call overhead); arrays broadcast."""
    return k0 + np.maximum(fl / (peak * 1e3), by / (bw * 1e3))


def log_error(pred, measured):
    """Absolute log errors, summed over the last axis: the fit's objective."""
    return np.sum(np.abs(np.log(pred) - np.log(measured)), axis=-1)


def grid_search(fl, by, t, overhead, peaks, bws, k0s):
    """The (peak, bandwidth, kernel overhead) of the grids with the least absolute log error."""
    best = (math.inf, None)
    k0 = k0s[:, None]
    for peak in peaks:
        for bw in bws:
            err = log_error(overhead + roofline(fl, by, peak, bw, k0), t)
            i = int(np.argmin(err))
            if err[i] < best[0]:
                best = (float(err[i]), (float(peak), float(bw), float(k0s[i])))
    return best[1]


def fit_roofline(rows, overhead):
    """Fits the roofline to the measured rows (dicts with flops, bytes, time_us).

    Least absolute deviations of log(time) (relative errors: the times span orders of
    magnitude, and a few large kernels must not decide the fit; absolute rather than squared
    so that outliers, such as results over 32 MiB that glibc mmaps afresh on every call, do
    not either), the call overhead fixed at its measurement, by grid search: a coarse
    log-spaced grid (peak 0.1-10^4 GFLOP/s, bandwidth 0.01-10^4 GB/s, kernel overhead 0 or
    10^-2-10^3 us), then two finer grids around the best point.
    """
    fl = np.array([r["flops"] for r in rows], float)
    by = np.array([r["bytes"] for r in rows], float)
    t = np.array([r["time_us"] for r in rows], float)
    peaks, bws = np.logspace(-1, 4, 41), np.logspace(-2, 4, 49)
    k0s = np.concatenate([[0.0], np.logspace(-2, 3, 41)])
    peak, bw, k0 = grid_search(fl, by, t, overhead, peaks, bws, k0s)
    for span in (10 ** 0.25, 10 ** 0.05):
        peaks = np.geomspace(peak / span, peak * span, 21)
        bws = np.geomspace(bw / span, bw * span, 21)
        k0s = np.concatenate([[0.0], np.geomspace(max(k0, 1e-3) / span, max(k0, 1e-3) * span, 41)])
        peak, bw, k0 = grid_search(fl, by, t, overhead, peaks, bws, k0s)
    pred = overhead + roofline(fl, by, peak, bw, k0)
    return {"peak_gflops": round(peak, 3), "bandwidth_gbs": round(bw, 3), "kernel_overhead_us": round(k0, 3),
            "method": "least absolute deviations of log(time_us), grid search; time_us ~ "
                      "call_overhead_us + kernel_overhead_us + max(flops / peak, bytes / bandwidth)",
            "n": len(rows), "spearman": round(spearman(pred, t), 4),
            "median_abs_log2_error": round(float(np.median(np.abs(np.log2(pred / t)))), 4)}


def spearman(x, y):
    """Spearman's rank correlation (scipy's, ties averaged)."""
    from scipy.stats import spearmanr

    return float(spearmanr(x, y).statistic) if len(x) > 1 else float("nan")


# ----------------------------------------------------------------------------------------
# The table.
# ----------------------------------------------------------------------------------------


def cpu_model():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or platform.machine()


def op_rows(sigs, modules, times):
    """The `ops` and `failures` lists, sorted by signature."""
    by_key = {m.key: m for m in modules}
    ops, failures = [], []
    for key in sorted(sigs):
        k = sigs[key]
        mod, line = by_key[key], times.get(key, {})
        if mod.error or "error" in line:
            stage = mod.stage or "iree-run"
            failures.append({"signature": key, "op": k["op"], "stage": stage, "error": mod.error or line["error"]})
            continue
        ops.append({"signature": key, "op": k["op"], "time_us": round(line["time_us"], 3),
                    "median_us": round(line["median_us"], 3), "flops": k["flops"],
                    "bytes": k["bytes"], "predicted_us": k["predicted_us"], "count": k["count"]})
    return ops, failures


def write_table(args, info, iree_version, ident, sigs, modules, times, read, skipped):
    """Writes the cost table of every module timed so far to ``args.out``; returns it."""
    ops, failures = op_rows(sigs, modules[1 + len(DISPATCH_KEYS):], times)
    tab = table(args, info, iree_version, ident["time_us"], ops, failures, read, skipped)
    if tab["fit"] is not None and dispatch_overhead(times) is not None:
        tab["fit"]["dispatch_overhead_us"] = dispatch_overhead(times)
    with open(args.out, "w") as fh:
        fh.write(dumps_table(tab))
    return tab


def table(args, info, iree_version, overhead, ops, failures, read, skipped):
    """The cost table (see the module docstring)."""
    return {"format": "ptir-cost-table", "version": 1,
            "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "hostname": socket.gethostname()},
            "tools": {"iree": iree_version, "ptir_opt": info["sha256"], "runtime": args.runtime,
                      **({"jaxlib": importlib.metadata.version("jaxlib")}
                         if args.runtime == "xla-cpu" else {})},
            "created": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
            "settings": {"device": "xla-cpu" if args.runtime == "xla-cpu" else "local-sync",
                         "target_cpu": "host", "warmup": args.warmup,
                         "calls": args.calls, "statistic": "min",
                         "malloc": " ".join(f"{k}={v}" for k, v in bench_zoo.MALLOC_ENV.items())},
            "call_overhead_us": round(overhead, 3),
            "fit": fit_roofline(ops, overhead) if ops else None,
            "ops": ops, "failures": failures,
            "sources": {"read": read, "skipped": skipped}}


def dumps_table(tab):
    """The table as JSON text: one line per top-level field, and per entry of the lists."""
    fields = []
    for key, value in tab.items():
        if key in ("ops", "failures") and value:
            items = ",\n  ".join(json.dumps(x) for x in value)
            fields.append(f" {json.dumps(key)}: [\n  {items}\n ]")
        else:
            fields.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def summary(tab, sigs, elapsed, build_s, time_s, cached):
    """The lines printed at the end."""
    fit, ops = tab["fit"], tab["ops"]
    lines = [f"{len(sigs)} signatures from {len(tab['sources']['read'])} programs "
             f"({len(tab['sources']['skipped'])} skipped); {len(ops)} timed, {len(tab['failures'])} failed",
             f"time: {elapsed:.1f} s (translate+compile {build_s:.1f} s, {cached} modules cached; "
             f"timing {time_s:.1f} s)",
             f"call overhead: {tab['call_overhead_us']:.2f} us"]
    if fit:
        default = spearman([o["predicted_us"] for o in ops], [o["time_us"] for o in ops])
        lines += [f"fit: peak {fit['peak_gflops']} GFLOP/s, bandwidth {fit['bandwidth_gbs']} GB/s, "
                  f"kernel overhead {fit['kernel_overhead_us']} us, "
                  f"dispatch overhead {fit.get('dispatch_overhead_us', 'not measured')} us "
                  f"(median |log2 error| "
                  f"{fit['median_abs_log2_error']})",
                  f"Spearman(fitted roofline, measured) = {fit['spearman']:.3f} over {fit['n']} ops "
                  f"(ptir-opt's default roofline, unfitted: {default:.3f})"]
    lines += [f"FAILED [{f['stage']}] {f['signature']}: {f['error']}" for f in tab["failures"]]
    return lines


# ----------------------------------------------------------------------------------------
# Command line.
# ----------------------------------------------------------------------------------------


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[-5:]))
    ap.add_argument("inputs", nargs="*", help="StableHLO .mlir files or directories (default: corpus/zoo corpus/mlir)")
    ap.add_argument("--runtime", default="iree-cpu", choices=["iree-cpu", "xla-cpu"],
                    help="the runtime timed, and the one the optimized programs are for (default iree-cpu)")
    ap.add_argument("--out", default="calibration.json", help="the cost table (default: calibration.json)")
    ap.add_argument("--cache", default=DEFAULT_CACHE, help=f"compiled modules (default: {DEFAULT_CACHE}/)")
    ap.add_argument("--ptir-opt", default=bench_zoo.DEFAULT_PTIR_OPT, help="the ptir-opt binary")
    ap.add_argument("--allow-opaque", action="store_true",
                    help="read programs ptir-opt refuses with --allow-opaque (their supported ops only)")
    ap.add_argument("--inputs-only", action="store_true",
                    help="calibrate the programs' own kernels only, not those of their optimized forms "
                         "(default and --fast-math), which a measured model also prices")
    ap.add_argument("--rounds", type=int, default=2,
                    help="rounds of timing: after the first, the kernels that --cost measured= the "
                         "table chooses and it lacks are timed and added (default 2; 1: no such round)")
    ap.add_argument("--warmup", type=int, default=3, help="untimed calls per module (default 3)")
    ap.add_argument("--calls", type=int, default=20, help="timed calls per module; the minimum is kept (default 20)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel compilations (default 2)")
    ap.add_argument("--op-timeout", type=float, default=120, help="seconds without progress before a timing worker is killed")
    ap.add_argument("--wait-binary", type=float, default=600, help="seconds to wait for the ptir-opt binary")
    ap.add_argument("--worker", default="", help=argparse.SUPPRESS)
    ap.add_argument("--worker-out", default="", help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    if args.worker:
        timing_worker(args.worker, args.worker_out)
        return 0
    start = time.perf_counter()
    os.makedirs(args.cache, exist_ok=True)
    args.cache = os.path.abspath(args.cache)
    iree_version = importlib.metadata.version("iree-base-compiler")
    salt = f"iree {iree_version}; {cpu_model()}; {COMPILE_FLAGS}"
    with tempfile.TemporaryDirectory(prefix="ptir_calibrate_") as tmp:
        binary, info = bench_zoo.snapshot_binary(args.ptir_opt, tmp, args.wait_binary)
        files = input_files(args.inputs or DEFAULT_INPUTS)
        settings = {k: v + ["--runtime", args.runtime] for k, v in OPTIMIZED_SETTINGS.items()}
        sigs, read, skipped = collect(binary, files, args.allow_opaque, not args.inputs_only, tmp,
                                      settings)
        jobs = [(IDENTITY_KEY, "identity", IDENTITY_PROGRAM)]
        jobs += [(key, "dispatch chain", dispatch_chain_program(n))
                 for key, n in zip(DISPATCH_KEYS, (1, DISPATCH_CHAIN + 1))]
        jobs += [(key, k["op"], k["program"]) for key, k in sorted(sigs.items())]
        print(f"{len(sigs)} signatures; compiling ({args.jobs} at a time) ...", file=sys.stderr)
        modules = build_all(jobs, binary, args.cache, salt, args.jobs, args.runtime)
        build_s = time.perf_counter() - start
        print(f"compiled in {build_s:.1f} s; timing {len(modules)} modules ...", file=sys.stderr)
        times = run_timing(modules, args, tmp)
        time_s = time.perf_counter() - start - build_s
        ident = times.get(IDENTITY_KEY, {})
        if "time_us" not in ident:
            raise SystemExit(f"the call-overhead module failed: {modules[0].error or ident.get('error')}")
        tab = write_table(args, info, iree_version, ident, sigs, modules, times, read, skipped)
        kept = [f for f in files if (os.path.relpath(f, ROOT) if f.startswith(ROOT + os.sep) else f) in read]
        for round_ in range(2, args.rounds + 1 if not args.inputs_only else 0):
            measured = {"measured": ["--cost", "measured=" + os.path.abspath(args.out),
                                     "--runtime", args.runtime]}
            chosen, _, _ = collect(binary, kept, args.allow_opaque, True, tmp, measured, own=False)
            new = {key: k for key, k in chosen.items() if key not in sigs}
            print(f"round {round_}: the measured model chose {len(new)} kernel(s) the table lacks",
                  file=sys.stderr)
            if not new:
                break
            more = build_all([(key, k["op"], k["program"]) for key, k in sorted(new.items())],
                             binary, args.cache, salt, args.jobs, args.runtime)
            times.update(run_timing(more, args, tmp))
            sigs.update(new)
            modules += more
            tab = write_table(args, info, iree_version, ident, sigs, modules, times, read, skipped)
    cached = sum(m.cached for m in modules)
    print("\n".join(summary(tab, sigs, time.perf_counter() - start, build_s, time_s, cached)))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
