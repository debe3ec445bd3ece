#!/usr/bin/env python3
"""Benchmark ptir-opt on the model zoo (or your own StableHLO files) with IREE as the judge.

For each model and each optimizer setting (``default``; ``fast-math``: ``--fast-math``;
``greedy``: ``--engine greedy``) the script:

1. runs ``ptir-opt MODEL.mlir -o OUT.mlir --report-json=REPORT.json [FLAGS]`` and records the
   optimizer's wall time, the instruction counts and the predicted cost before and after (the
   predicted speedup is cost before / cost after). A model ptir-opt refuses is recorded as
   ``unsupported: <first line of the error>`` and retried with ``--allow-opaque`` (both are
   recorded);
2. compiles the input and the output with IREE (llvm-cpu, ``--iree-llvmcpu-target-cpu=host``,
   via ``scripts/iree_check.py``), runs both on the same seeded random inputs on the
   single-threaded ``local-sync`` device and compares them (tolerance by dtype, from
   ``iree_check.TOLERANCE``: f32 1e-4, f16 2e-2, bf16 5e-2, integers exactly; ``--fast-math``
   outputs get ``--fast-math-tolerance-scale`` times that);
3. times the input (A), the output (B) and a second copy of the input module (A', the A/A
   control that shows the noise) in one process, round-robin in rotating order, ``--rounds``
   rounds, ``--reps`` times (each repetition loads the three modules and uploads the inputs
   afresh); the measured speedup of a repetition is median(A) / median(B) and its A/A ratio
   median(A) / median(A').

4. with ``xla-cpu`` among ``--runtimes`` (the default has both), does the same on XLA through
   the Python package (``pip install ./python``): ``ptir.optimize(text, runtime="xla-cpu")``
   with the setting's options (the output is optimized for XLA, not IREE's output reused),
   input, output and the A/A copy compiled with ``ptir.compile_module`` (JAX's own client, with
   ``jax.jit``'s compile options; one thread: ``XLA_FLAGS`` gets
   ``--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1`` unless set), each
   call waited for, the same agreement check and the same round-robin timing.

Each model runs in its own worker process (a crash or a hang of one model is recorded in the
table and never stops the run), with glibc's malloc thresholds fixed (``MALLOC_ENV``; see there
why; ``--glibc-malloc-defaults`` turns that off). The result is a markdown table (printed, and written to
``--out``) and a JSON file with the raw numbers (``--json``, default: ``--out`` with ``.json``).

The ptir-opt binary is copied once at the start (after waiting for it to exist and be stable),
so a rebuild during the run does not mix two versions.

Usage:
  python scripts/zoo/bench_zoo.py --out /tmp/zoo_bench.md                 # the whole zoo
  python scripts/zoo/bench_zoo.py --models softmax,llama_block --rounds 10
  python scripts/zoo/bench_zoo.py --model path/to/model.mlir --out my.md   # your own model
  python scripts/zoo/bench_zoo.py --runtimes xla-cpu --settings default     # XLA alone
"""

import argparse
import contextlib
import glob
import hashlib
import io
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import iree_check  # noqa: E402  (scripts/iree_check.py: compile, signature, compare)

ZOO = os.path.join(ROOT, "corpus", "zoo")
DEFAULT_PTIR_OPT = os.path.join(ROOT, "target", "release", "ptir-opt")

SETTINGS = {
    "default": [],
    "fast-math": ["--fast-math"],
    "greedy": ["--engine", "greedy"],
}

# The same settings as `ptir.optimize` options (the XLA judge optimizes through the package).
PY_SETTINGS = {
    "default": {},
    "fast-math": {"fast_math": True},
    "greedy": {"engine": "greedy"},
}

RUNTIMES = ("iree-cpu", "xla-cpu")

# XLA:CPU on one thread, as IREE's local-sync device: the speedups compare kernels, not how
# two runtimes split work between cores.
XLA_FLAGS = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"

# IREE's local devices allocate each call's transient buffers with malloc. Under glibc's
# dynamic mmap threshold a process may settle in a state where every buffer over 128 KiB is
# mmapped and unmapped on every call: ~1000 page faults and 1.4 ms of system time per call on
# a 0.17 ms model, decided by the allocation history (the agreement check alone can flip it).
# Fixed thresholds keep freed memory in the heap, so every module is timed without that noise.
MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(4 << 30)}


# ----------------------------------------------------------------------------------------
# ptir-opt.
# ----------------------------------------------------------------------------------------


def snapshot_binary(path, dest_dir, wait_s):
    """Waits until `path` exists, is stable and runs; copies it into `dest_dir`.

    Returns (copy path, description dict). Raises RuntimeError after `wait_s` seconds.
    """
    deadline = time.time() + wait_s
    while True:
        try:
            before = os.stat(path)
            time.sleep(2)
            after = os.stat(path)
            if before.st_size == after.st_size and before.st_mtime == after.st_mtime:
                copy = os.path.join(dest_dir, "ptir-opt")
                shutil.copy2(path, copy)
                version = subprocess.run([copy, "--version"], capture_output=True, text=True, timeout=60)
                if version.returncode == 0:
                    return copy, describe_binary(path, copy, version.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
        if time.time() > deadline:
            raise RuntimeError(f"{path}: missing or not runnable after {wait_s} s")
        sys.stderr.write(f"waiting for {path} ...\n")
        time.sleep(10)


def describe_binary(path, copy, version):
    with open(copy, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()[:16]
    mtime = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.stat(path).st_mtime))
    return {"path": path, "version": version, "sha256": digest, "mtime": mtime}


def first_line(text):
    """The first non-empty line of an error message (without the `error: ` prefix)."""
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[len("error: "):] if line.startswith("error: ") else line
    return "(no message)"


def run_ptir_opt(binary, src, out, flags, timeout):
    """One ptir-opt run: wall time, instruction counts and costs from --report-json."""
    report = out + ".report.json"
    cmd = [binary, src, "-o", out, f"--report-json={report}", *flags]
    start = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"flags": flags, "ok": False, "error": f"timeout after {timeout} s"}
    wall_ms = (time.perf_counter() - start) * 1e3
    result = {"flags": flags, "ok": r.returncode == 0, "wall_ms": wall_ms, "exit": r.returncode}
    if r.returncode != 0:
        result["error"] = first_line(r.stderr or r.stdout).replace(os.path.dirname(src) + "/", "")
        # An input ptir-opt cannot read is reported at its file:line:col, with exit status 2.
        result["refused"] = r.returncode == 2 and result["error"].startswith(os.path.basename(src) + ":")
        return result
    with open(report) as fh:
        rep = json.load(fh)
    result.update(
        instrs_before=rep["instructions"]["before"],
        instrs_after=rep["instructions"]["after"],
        cost_before=rep.get("cost_before"),
        cost_after=rep.get("cost_after"),
        stops=sorted({s.get("reason", "?") for s in rep.get("stops", [])}),
        rules_fired=sum(x.get("count", 0) for x in rep.get("rules_fired", [])),
        output=out,
    )
    if result["cost_before"] and result["cost_after"]:
        result["predicted_speedup"] = result["cost_before"] / result["cost_after"]
    return result


def optimize(binary, src, workdir, setting, flags, timeout):
    """Runs one setting; a refused model is retried with --allow-opaque. Returns the attempts."""
    out = os.path.join(workdir, f"{setting}.opt.mlir")
    attempts = [run_ptir_opt(binary, src, out, flags, timeout)]
    if not attempts[0]["ok"]:
        first = attempts[0]
        kind = "unsupported" if first.get("refused") else f"ptir-opt failed (exit {first.get('exit')})"
        first["error"] = f"{kind}: {first['error']}"
        out = os.path.join(workdir, f"{setting}.opaque.opt.mlir")
        attempts.append(run_ptir_opt(binary, src, out, flags + ["--allow-opaque"], timeout))
    return attempts


# ----------------------------------------------------------------------------------------
# IREE: compile, run, compare (scripts/iree_check.py does the work).
# ----------------------------------------------------------------------------------------


class IreeError(Exception):
    """iree_check reported a failure (it exits; the message is its stderr)."""


def quiet(fn, *args):
    """Calls an iree_check function that prints to stderr and exits on failure."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            return fn(*args)
    except SystemExit as e:
        text = err.getvalue()
        errors = [line for line in text.splitlines() if "error:" in line]
        raise IreeError(first_line(errors[0] if errors else text) if text.strip() else f"exit {e.code}")


def use_local_sync():
    """Makes iree_check load every module on one single-threaded device (local-sync)."""
    import iree.runtime as rt

    if iree_check._CONFIG is None:
        iree_check._CONFIG = rt.Config("local-sync")


def compile_vmfb(src, out):
    start = time.perf_counter()
    quiet(iree_check.compile_module, src, out)
    return time.perf_counter() - start


def random_inputs(sig, seed):
    """Seeded inputs: iree_check's own (so `iree_check.py --seed S` sees the same ones) when it
    knows every dtype; else the same recipe extended to unsigned and other integers."""
    if all(dtype in iree_check.NUMPY for _, dtype in sig):
        return quiet(iree_check.random_inputs, sig, seed)
    rng = np.random.default_rng(seed)
    out = []
    for shape, dtype in sig:
        if dtype in iree_check.NUMPY and dtype.startswith(("f", "bf")):
            out.append((rng.standard_normal(size=shape) * 0.5).astype(iree_check.NUMPY[dtype]))
        elif dtype == "i1":
            out.append(rng.integers(0, 2, size=shape).astype(np.bool_))
        elif dtype.startswith(("ui", "i")) and dtype.lstrip("ui").isdigit():
            kind = "uint" if dtype.startswith("ui") else "int"
            out.append(rng.integers(0, 8, size=shape).astype(f"{kind}{dtype.lstrip('ui')}"))
        else:
            raise IreeError(f"unsupported argument dtype {dtype}")
    return out


def check_agreement(ref, cand, sig, trials, seed, scale):
    """`None` if the two functions agree on `trials` seeded input sets, else the first problem."""
    for trial in range(trials):
        inputs = random_inputs(sig, seed + trial)
        problems = iree_check.compare(iree_check.call(ref, inputs), iree_check.call(cand, inputs), scale)
        if problems:
            return f"MISMATCH (seed {seed + trial}): " + "; ".join(problems[:3])
    return None


# ----------------------------------------------------------------------------------------
# Timing: input (A), output (B) and the input loaded again (A'), round-robin, one process.
# ----------------------------------------------------------------------------------------


def calls_per_sample(fns, inputs, min_sample_s):
    """How many calls make one timed sample at least `min_sample_s` long (at most 1000)."""
    single = []
    for f in fns:
        f(*inputs)  # warm up
        start = time.perf_counter()
        f(*inputs)
        single.append(time.perf_counter() - start)
    return max(1, min(1000, math.ceil(min_sample_s / max(min(single), 1e-7))))


def time_round_robin(fns, inputs, rounds, k):
    """Per-call times (s) of each function: `rounds` rounds, the order rotating every round."""
    times = [[] for _ in fns]
    for r in range(rounds):
        for j in range(len(fns)):
            i = (r + j) % len(fns)
            start = time.perf_counter()
            for _ in range(k):
                fns[i](*inputs)
            times[i].append((time.perf_counter() - start) / k)
    return times


def measure(vmfbs, sig, args):
    """Median per-call time (s) of each module, for each repetition.

    Every repetition loads the modules afresh and uploads fresh inputs: where a module's speed
    depends on where its buffers land (some do, by 15%), the repetitions show it, and the A/A
    control, loaded beside the output, is exposed to it as much as the output is.
    """
    out = []
    for _ in range(args.reps):
        fns = [iree_check.load(v, args.function) for v in vmfbs]
        inputs = iree_check.on_device(random_inputs(sig, args.seed))
        k = calls_per_sample(fns, inputs, args.min_sample_ms / 1e3)
        out.append(([statistics.median(t) for t in time_round_robin(fns, inputs, args.rounds, k)], k))
        del fns, inputs
    return out


def timing_record(medians, k, rounds):
    """Milliseconds and ratios of one repetition of (input, output, input again)."""
    ta, tb, ta2 = medians
    return {"input_ms": ta * 1e3, "output_ms": tb * 1e3, "input_again_ms": ta2 * 1e3,
            "speedup": ta / tb, "aa_ratio": ta / ta2, "calls_per_sample": k, "rounds": rounds}


# ----------------------------------------------------------------------------------------
# One model (in a worker process).
# ----------------------------------------------------------------------------------------


class Baseline:
    """The input module, compiled once (A, and the A/A control A' loaded from the same file)."""

    def __init__(self, src, workdir, function):
        self.sig = quiet(iree_check.signature, open(src).read(), function)
        self.vmfb = os.path.join(workdir, "input.vmfb")
        self.compile_s = compile_vmfb(src, self.vmfb)
        self.a = iree_check.load(self.vmfb, function)


def judge(base, src, attempt, workdir, setting, args, cache):
    """IREE agreement and timing of one optimized output against the baseline."""
    text = open(attempt["output"]).read()
    sig = quiet(iree_check.signature, text, args.function)
    if sig != base.sig:
        return {"agree": False, "detail": f"different signature: {sig} against {base.sig}"}
    digest = hashlib.sha256(text.encode()).hexdigest()
    result = {"identical_to_input": text == open(src).read()}
    if digest not in cache:
        vmfb = os.path.join(workdir, f"{setting}.vmfb")
        result["compile_s"] = compile_vmfb(attempt["output"], vmfb)
        cache[digest] = vmfb
    b = iree_check.load(cache[digest], args.function)
    scale = args.fast_math_tolerance_scale if "--fast-math" in attempt["flags"] else 1.0
    problem = check_agreement(base.a, b, base.sig, args.trials, args.seed, scale)
    result.update(agree=problem is None, detail=problem or f"same on {args.trials} input sets",
                  tolerance_scale=scale)
    if args.rounds > 0:
        del b
        timings = measure([base.vmfb, cache[digest], base.vmfb], base.sig, args)
        result["reps"] = [timing_record(m, k, args.rounds) for m, k in timings]
    return result


def bench_setting(binary, src, base, workdir, setting, args, cache):
    """ptir-opt in one setting (retried with --allow-opaque if refused), then IREE."""
    record = {"setting": setting}
    if "xla-cpu" in args.runtimes and setting in PY_SETTINGS:
        try:
            record["xla"] = judge_xla(src, setting, args)
        except Exception as e:  # noqa: BLE001  (a failure of one setting is a table entry)
            record["xla"] = {"agree": None, "detail": f"{type(e).__name__}: {first_line(str(e))}"}
    attempts = optimize(binary, src, workdir, setting, SETTINGS[setting], args.opt_timeout)
    record["attempts"] = attempts
    final = attempts[-1]
    if not final["ok"] or "iree-cpu" not in args.runtimes:
        return record
    if isinstance(base, str):
        record["iree"] = {"agree": None, "detail": base}
        return record
    try:
        record["iree"] = judge(base, src, final, workdir, setting, args, cache)
    except Exception as e:  # noqa: BLE001  (a failure of one setting is a table entry)
        record["iree"] = {"agree": None, "detail": f"{type(e).__name__}: {first_line(str(e))}"}
    return record


def xla_optimize(text, setting, args):
    """The XLA output of one setting through the package: (result, attempts), retried with
    ``allow_opaque`` when refused, attempts recorded as the CLI's are."""
    import ptir

    options = dict(PY_SETTINGS[setting], runtime="xla-cpu", time_limit=args.opt_timeout)
    attempts = []
    for opaque in (False, True):
        start = time.perf_counter()
        try:
            result = ptir.optimize(text, allow_opaque=opaque, **options)
        except ptir.Error as e:
            kind = "unsupported" if isinstance(e, (ptir.ParseError, ptir.UnsupportedOp)) else "refused"
            attempts.append({"ok": False, "opaque": opaque, "error": f"{kind}: {first_line(str(e))}"})
            continue
        rep = result.report
        attempts.append({"ok": True, "opaque": opaque, "wall_ms": (time.perf_counter() - start) * 1e3,
                         "instrs_before": rep["instructions"]["before"],
                         "instrs_after": rep["instructions"]["after"],
                         "predicted_speedup": result.speedup if rep["cost_after"] else None})
        return result, attempts
    return None, attempts


def xla_module(text):
    """`text` compiled on XLA, each call waited for (as local-sync IREE calls are). 64-bit
    types are on: the inputs of a module of `i64`s must reach XLA as 64-bit arrays."""
    import jax
    import ptir

    jax.config.update("jax_enable_x64", True)
    module = ptir.compile_module(text, "xla-cpu")
    return lambda *inputs: jax.block_until_ready(module(*inputs))


def xla_inputs(arrays):
    """Host arrays uploaded once to JAX's device: timing then measures the module."""
    import jax

    return [jax.device_put(x) for x in arrays]


def judge_xla(src, setting, args):
    """XLA agreement and timing of the setting's XLA output against the input."""
    text = open(src).read()
    result, attempts = xla_optimize(text, setting, args)
    record = {"attempts": attempts}
    if result is None:
        return record
    sig = quiet(iree_check.signature, text, args.function)
    record["identical_to_input"] = result.text == text
    a, b = xla_module(text), xla_module(result.text)
    scale = args.fast_math_tolerance_scale if PY_SETTINGS[setting].get("fast_math") else 1.0
    problem = check_agreement(a, b, sig, args.trials, args.seed, scale)
    record.update(agree=problem is None, detail=problem or f"same on {args.trials} input sets",
                  tolerance_scale=scale)
    if args.rounds > 0:
        reps = []
        for _ in range(args.reps):
            fns = [xla_module(text), xla_module(result.text), xla_module(text)]
            inputs = xla_inputs(random_inputs(sig, args.seed))
            k = calls_per_sample(fns, inputs, args.min_sample_ms / 1e3)
            medians = [statistics.median(t) for t in time_round_robin(fns, inputs, args.rounds, k)]
            reps.append(timing_record(medians, k, args.rounds))
        record["reps"] = reps
    return record


def bench_model(src, binary, args):
    """Every setting of one model; IREE baseline failures are recorded, not raised."""
    use_local_sync()
    record = {"model": model_name(src), "path": src, "settings": []}
    with tempfile.TemporaryDirectory(prefix="zoo_bench_") as tmp:
        workdir = args.keep and os.path.join(args.keep, record["model"]) or tmp
        os.makedirs(workdir, exist_ok=True)
        if "iree-cpu" not in args.runtimes:
            base = "IREE not judged (--runtimes)"
        else:
            try:
                base = Baseline(src, workdir, args.function)
                record["input_compile_s"] = base.compile_s
            except Exception as e:  # noqa: BLE001
                base = f"input: {type(e).__name__}: {first_line(str(e))}"
                record["input_error"] = base
        cache = {}
        for setting in args.settings:
            record["settings"].append(bench_setting(binary, src, base, workdir, setting, args, cache))
        if isinstance(base, Baseline) and args.rounds > 0 and not any(
                "reps" in s.get("iree", {}) for s in record["settings"]):
            record["baseline"] = time_baseline(base, args)
    return record


def time_baseline(base, args):
    """The input alone (A against A') when no output could be timed: its time and the noise."""
    return [{"input_ms": ta * 1e3, "input_again_ms": ta2 * 1e3, "aa_ratio": ta / ta2, "calls_per_sample": k}
            for (ta, ta2), k in measure([base.vmfb, base.vmfb], base.sig, args)]


def model_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def run_worker(src, binary, args):
    """Benchmarks one model in a child process; a crash or timeout becomes an error record."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        result_path = fh.name
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", src, "--worker-out", result_path,
           "--ptir-opt", binary, *worker_flags(args)]
    env = dict(os.environ, **({} if args.glibc_malloc_defaults else MALLOC_ENV))
    env.setdefault("XLA_FLAGS", XLA_FLAGS)
    start = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.model_timeout, env=env)
        if r.returncode == 0:
            with open(result_path) as fh:
                record = json.load(fh)
        else:
            record = {"model": model_name(src), "path": src, "settings": [],
                      "error": f"worker exit {r.returncode}: {first_line(r.stderr[-2000:])}"}
    except subprocess.TimeoutExpired:
        record = {"model": model_name(src), "path": src, "settings": [],
                  "error": f"timeout after {args.model_timeout} s"}
    finally:
        os.unlink(result_path)
    record["bench_s"] = time.perf_counter() - start
    return record


def worker_flags(args):
    """The options a worker needs, passed on from the parent's command line."""
    flags = ["--settings", ",".join(args.settings), "--runtimes", ",".join(args.runtimes),
             "--rounds", str(args.rounds),
             "--reps", str(args.reps), "--trials", str(args.trials), "--seed", str(args.seed),
             "--function", args.function, "--opt-timeout", str(args.opt_timeout),
             "--min-sample-ms", str(args.min_sample_ms),
             "--fast-math-tolerance-scale", str(args.fast_math_tolerance_scale)]
    flags += ["--cost-table", args.cost_table] if args.cost_table else []
    return flags + (["--keep", args.keep] if args.keep else [])


# ----------------------------------------------------------------------------------------
# Reporting.
# ----------------------------------------------------------------------------------------


def fmt_ratio(values):
    """`1.23x` for one value, `1.23x (1.21, 1.25)` (median, then each repetition) for several."""
    if not values:
        return "—"
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.2f}x"
    return f"{med:.2f}x ({', '.join(f'{v:.2f}' for v in values)})"


def attempt_notes(attempts):
    """The refusal, and what --allow-opaque changed (`same` if it failed the same way)."""
    notes = [attempts[0]["error"]] if not attempts[0]["ok"] else []
    if len(attempts) > 1:
        second = attempts[1]
        if second["ok"]:
            notes.append("read with --allow-opaque")
        elif attempts[0]["error"].endswith(": " + second["error"]):
            notes.append("same with --allow-opaque")
        else:
            notes.append(f"with --allow-opaque: {second['error']}")
    return notes


def timing_cells(judged, fallback_notes):
    """(input ms, measured speedup, A/A, agreement) of one runtime's judgement; its problems
    go to `fallback_notes`."""
    reps = judged.get("reps", [])
    agree = {True: "agree", False: "**DISAGREE**", None: "n/a"}[judged.get("agree")]
    if judged and judged.get("agree") is not True and judged.get("detail"):
        fallback_notes.append(judged["detail"])
    if judged.get("identical_to_input"):
        fallback_notes.append("output identical to input")
    return [f"{statistics.median(r['input_ms'] for r in reps):.3f}" if reps else "—",
            fmt_ratio([r["speedup"] for r in reps]), fmt_ratio([r["aa_ratio"] for r in reps]),
            agree if judged else "—"]


def xla_cells(s):
    """The XLA columns of one (model, setting) record: predicted, then timing_cells."""
    xla = s.get("xla")
    if not xla:
        return ["—"] * 5, []
    notes = []
    attempts = xla.get("attempts", [])
    final = attempts[-1] if attempts else {"ok": False}
    if attempts and not attempts[0]["ok"]:
        notes.append("XLA: " + attempts[0]["error"] + ("; read with allow_opaque" if final["ok"] else ""))
    if not final["ok"]:
        return ["—"] * 5, notes
    pred = final.get("predicted_speedup")
    xla_notes = []
    cells = [f"{pred:.2f}x" if pred else "—"] + timing_cells(xla, xla_notes)
    return cells, notes + [f"XLA: {n}" for n in xla_notes]


def setting_cells(s):
    """The table cells of one (model, setting) record."""
    final = s["attempts"][-1]
    label = s["setting"] + (" +opaque" if "--allow-opaque" in final["flags"] else "")
    notes = attempt_notes(s["attempts"])
    xla, xla_notes = xla_cells(s)
    if not final["ok"]:
        return [label, "—", "—", "—", "—", "—", "—", "—"] + xla + ["; ".join(notes + xla_notes)]
    iree_notes = []
    iree = timing_cells(s.get("iree", {}), iree_notes)
    pred = final.get("predicted_speedup")
    return ([label, f"{final['instrs_before']}→{final['instrs_after']}", f"{final['wall_ms']:.0f}",
             f"{pred:.2f}x" if pred else "—"] + iree + xla
            + ["; ".join(n for n in notes + iree_notes + xla_notes if n)])


HEADER = ["model", "setting", "instrs before→after", "optimizer ms", "predicted speedup (IREE)",
          "input ms (IREE)", "measured speedup (IREE)", "A/A (IREE)", "IREE agreement",
          "predicted speedup (XLA)", "input ms (XLA)", "measured speedup (XLA)", "A/A (XLA)",
          "XLA agreement", "notes"]


def markdown(records, meta):
    """The result table, a header saying how it was measured, and a summary of refusals."""
    lines = [f"# ptir-opt on the model zoo ({meta['date']})", "",
             f"ptir-opt `{meta['ptir_opt']['version']}` (sha256 {meta['ptir_opt']['sha256']}, built "
             f"{meta['ptir_opt']['mtime']}), git {meta['git']}; IREE llvm-cpu (target-cpu=host), "
             f"local-sync (one thread), judging ptir-opt's default (`iree-cpu`) output; XLA:CPU "
             f"through jaxlib's client (`XLA_FLAGS={meta['xla_flags']}`), judging the package's "
             f"`runtime=\"xla-cpu\"` output; {meta['rounds']} rounds x {meta['reps']} repetitions, "
             f"speedup = median(input) / median(output) per repetition, A/A = median(input) / "
             f"median(input loaded again); `median (rep1, rep2)`. {meta['cpu']}; malloc: "
             f"{meta['malloc']}.", "",
             "| " + " | ".join(HEADER) + " |", "|" + " --- |" * len(HEADER)]
    for rec in records:
        if rec.get("error") or not rec["settings"]:
            lines.append(f"| {rec['model']} | — |" + " — |" * (len(HEADER) - 3) + f" {rec.get('error', '')} |")
        for s in rec["settings"]:
            cells = [rec["model"]] + setting_cells(s)
            if rec.get("baseline") and cells[5] == "—":  # no output timed: the input alone
                cells[5] = f"{statistics.median(r['input_ms'] for r in rec['baseline']):.3f}"
                cells[7] = fmt_ratio([r["aa_ratio"] for r in rec["baseline"]])
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines + [""] + summary(records)) + "\n"


def summary(records):
    """Which models ptir-opt reads and which it refuses (default setting, first attempt)."""
    read, refused = [], []
    for rec in records:
        first = next((s["attempts"][0] for s in rec["settings"]), None)
        if first is None:
            continue
        (read if first["ok"] else refused).append((rec["model"], first.get("error", "")))
    out = [f"ptir-opt reads {len(read)} of {len(read) + len(refused)} models: "
           + ", ".join(f"`{m}`" for m, _ in read), "", f"Refused ({len(refused)}):", ""]
    out += [f"- `{m}`: {e}" for m, e in refused]
    xla_disagree = [f"`{r['model']}` ({s['setting']})" for r in records for s in r["settings"]
                    if s.get("xla", {}).get("agree") is False]
    if xla_disagree:
        out += ["", "XLA DISAGREES: " + ", ".join(xla_disagree)]
    disagree = [(r, s) for r in records for s in r["settings"] if s.get("iree", {}).get("agree") is False]
    if disagree:
        out += ["", "IREE DISAGREES (to reproduce):", ""]
        out += [f"- `{r['model']}` ({s['setting']}): `{repro(r['path'], s)}`" for r, s in disagree]
    return out


def repro(path, s):
    """The commands that reproduce a disagreement with scripts/iree_check.py."""
    final = s["attempts"][-1]
    out = f"/tmp/{model_name(path)}.{s['setting']}.mlir"
    scale = s["iree"].get("tolerance_scale", 1.0)
    rel = os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path
    return (f"target/release/ptir-opt {rel} {' '.join(final['flags'])} -o {out} && "
            f"python scripts/iree_check.py {rel} {out}{'' if scale == 1.0 else f'@{scale:g}'}").replace("  ", " ")


# ----------------------------------------------------------------------------------------
# Command line.
# ----------------------------------------------------------------------------------------


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[-4:]))
    ap.add_argument("--zoo", default=ZOO, help="directory of zoo models (default: corpus/zoo)")
    ap.add_argument("--models", default="", help="comma-separated zoo model names (default: all)")
    ap.add_argument("--model", action="append", default=[], metavar="FILE.mlir",
                    help="a StableHLO file of your own (repeatable; replaces the zoo)")
    ap.add_argument("--settings", default=",".join(SETTINGS), type=lambda s: s.split(","),
                    help=f"comma-separated optimizer settings among {', '.join(SETTINGS)} (default: all)")
    ap.add_argument("--runtimes", default=",".join(RUNTIMES), type=lambda s: s.split(","),
                    help="comma-separated runtimes that judge each output, among iree-cpu (the CLI's "
                         "output) and xla-cpu (the package's output for XLA) (default: both)")
    ap.add_argument("--cost-table", default="",
                    help="a scripts/calibrate.py table: adds the setting `measured` (default options, "
                         "--cost measured=TABLE)")
    ap.add_argument("--ptir-opt", default=DEFAULT_PTIR_OPT, help="the ptir-opt binary")
    ap.add_argument("--rounds", type=int, default=30, help="timed rounds per repetition (0: no timing)")
    ap.add_argument("--reps", type=int, default=2, help="repetitions of the timing")
    ap.add_argument("--min-sample-ms", type=float, default=2.0,
                    help="repeat calls within one timed sample until it lasts this long")
    ap.add_argument("--trials", type=int, default=2, help="seeded input sets the agreement check uses")
    ap.add_argument("--seed", type=int, default=0, help="first input seed")
    ap.add_argument("--function", default="main", help="the public function to run")
    ap.add_argument("--fast-math-tolerance-scale", type=float, default=100.0,
                    help="tolerance multiplier for --fast-math outputs")
    ap.add_argument("--opt-timeout", type=float, default=300, help="seconds per ptir-opt run")
    ap.add_argument("--model-timeout", type=float, default=1800, help="seconds per model (all settings)")
    ap.add_argument("--wait-binary", type=float, default=1800,
                    help="seconds to wait for the ptir-opt binary to exist (it may be being rebuilt)")
    ap.add_argument("--glibc-malloc-defaults", action="store_true",
                    help="time with glibc's dynamic mmap threshold (default: fixed thresholds, see MALLOC_ENV)")
    ap.add_argument("--keep", default="", help="keep optimized outputs and vmfbs in this directory")
    ap.add_argument("--out", default="zoo_bench.md", help="the markdown table (default: zoo_bench.md)")
    ap.add_argument("--json", default="", help="the raw numbers (default: --out with .json)")
    ap.add_argument("--worker", default="", help=argparse.SUPPRESS)
    ap.add_argument("--worker-out", default="", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.cost_table:
        # The measured model as one more setting: default options, kernels priced by the table.
        args.cost_table = os.path.abspath(args.cost_table)
        SETTINGS["measured"] = ["--cost", f"measured={args.cost_table}"]
        PY_SETTINGS["measured"] = {"cost": f"measured={args.cost_table}"}
        if "measured" not in args.settings:
            args.settings.append("measured")
    unknown = [s for s in args.settings if s not in SETTINGS]
    if unknown:
        ap.error(f"unknown settings: {', '.join(unknown)}")
    unknown = [r for r in args.runtimes if r not in RUNTIMES]
    if unknown:
        ap.error(f"unknown runtimes: {', '.join(unknown)} (expected {', '.join(RUNTIMES)})")
    return args


def model_paths(args):
    """The files to benchmark: --model files, else the zoo (or its --models subset)."""
    if args.model:
        missing = [p for p in args.model if not os.path.isfile(p)]
        if missing:
            raise SystemExit(f"no such files: {', '.join(missing)}")
        return [os.path.abspath(p) for p in args.model]
    paths = sorted(glob.glob(os.path.join(args.zoo, "*.mlir")))
    if args.models:
        wanted = args.models.split(",")
        by_name = {model_name(p): p for p in paths}
        missing = [m for m in wanted if m not in by_name]
        if missing:
            raise SystemExit(f"no such zoo models: {', '.join(missing)}")
        paths = [by_name[m] for m in wanted]
    return paths


def metadata(args, binary_info):
    git = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return {"date": time.strftime("%Y-%m-%d %H:%M"), "ptir_opt": binary_info,
            "git": git.stdout.strip() or "?", "rounds": args.rounds, "reps": args.reps,
            "trials": args.trials, "seed": args.seed, "settings": args.settings,
            "runtimes": args.runtimes, "xla_flags": os.environ.get("XLA_FLAGS", XLA_FLAGS),
            "cpu": f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs",
            "fast_math_tolerance_scale": args.fast_math_tolerance_scale,
            "malloc": "glibc defaults" if args.glibc_malloc_defaults else
            " ".join(f"{k}={v}" for k, v in MALLOC_ENV.items())}


def main(argv=None):
    args = parse_args(argv)
    if args.worker:
        record = bench_model(args.worker, args.ptir_opt, args)
        with open(args.worker_out, "w") as fh:
            json.dump(record, fh)
        return 0
    paths = model_paths(args)
    with tempfile.TemporaryDirectory(prefix="zoo_bin_") as bindir:
        binary, info = snapshot_binary(args.ptir_opt, bindir, args.wait_binary)
        meta, records, start = metadata(args, info), [], time.perf_counter()
        for n, path in enumerate(paths):
            records.append(run_worker(path, binary, args))
            print(f"[{n + 1}/{len(paths)}] {model_name(path)}: {records[-1]['bench_s']:.1f} s", file=sys.stderr)
    meta["total_s"] = time.perf_counter() - start
    text = markdown(records, meta)
    print(text)
    with open(args.out, "w") as fh:
        fh.write(text)
    with open(args.json or os.path.splitext(args.out)[0] + ".json", "w") as fh:
        json.dump({"meta": meta, "models": records}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
