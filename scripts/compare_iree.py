#!/usr/bin/env python3
"""Cost models against the truth: `ptir-opt compare` with the time IREE measures for each row.

Usage: ``.venv/bin/python scripts/compare_iree.py PROGRAM [--cost-table FILE] [--rounds N]``

Runs ``ptir-opt compare PROGRAM --out-dir DIR`` (one saturation, every (cost model, extractor)
pair; see ``ptir-opt compare --help``), translates the input and every extracted program to
StableHLO (``ptir-opt translate --emit mlir``: the input too, so that both sides come through
the same exporter), compiles each once with IREE (llvm-cpu, host CPU, from stdin: see
``iree_check.compile_module``), and times them all in one process on IREE's single-threaded
``local-sync`` device: round-robin calls, the median of ``--rounds`` rounds, two repetitions,
with the input loaded twice as the A/A control (``bench_zoo.measure``). Prints the compare
table, then per row the predicted speedup under the row's own model (input cost / row cost)
beside the measured one (input time / row time). Rows whose programs are identical share one
module. Programs IREE cannot compile (opaque ops have no StableHLO in PTIR text) are reported.
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "zoo"))

import bench_zoo  # noqa: E402
import iree_check  # noqa: E402


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:3])} ...: {bench_zoo.first_line(r.stderr or r.stdout)}")
    return r.stdout


def parse_table(text):
    """(header columns, input costs, rows) of `ptir-opt compare`'s table."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    header, input_row, rows = lines[0], lines[1], lines[2:]
    models = [c.split(":", 1)[1] for c in header if c.startswith("cost:")]
    input_costs = dict(zip(models, map(float, input_row[1:1 + len(models)])))
    out = []
    for r in rows:
        costs = dict(zip(models, map(float, r[2:2 + len(models)])))
        out.append((r[0], r[1], costs))
    return models, input_costs, out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("program", help="a .ptir or StableHLO .mlir program")
    ap.add_argument("--cost-table", help="a scripts/calibrate.py table: adds the measured model")
    ap.add_argument("--ptir-opt", default=bench_zoo.DEFAULT_PTIR_OPT, help="the ptir-opt binary")
    ap.add_argument("--function", default="main", help="the function to time (default main)")
    ap.add_argument("--rounds", type=int, default=20, help="timed rounds per repetition (default 20)")
    ap.add_argument("--seed", type=int, default=0, help="input seed")
    args = ap.parse_args(argv)
    bench_zoo.use_local_sync()
    with tempfile.TemporaryDirectory(prefix="ptir_compare_") as tmp:
        cmd = [args.ptir_opt, "compare", args.program, "--out-dir", tmp]
        if args.cost_table:
            cmd += ["--cost-table", args.cost_table]
        table = run(cmd)
        print(table)
        models, input_costs, rows = parse_table(table)
        modules, by_text = {}, {}

        def module(name):
            mlir = os.path.join(tmp, name + ".mlir")
            run([args.ptir_opt, "translate", os.path.join(tmp, name + ".ptir"), "--emit", "mlir", "-o", mlir])
            text = open(mlir).read()
            key = hashlib.sha256(text.encode()).hexdigest()
            if key not in by_text:
                vmfb = os.path.join(tmp, f"m{len(by_text)}.vmfb")
                try:
                    bench_zoo.compile_vmfb(mlir, vmfb)
                    by_text[key] = vmfb
                except bench_zoo.IreeError as e:
                    by_text[key] = e
            return by_text[key], text

        base, base_text = module("input")
        if isinstance(base, Exception):
            raise SystemExit(f"IREE cannot compile the input: {base}")
        sig = iree_check.signature(base_text, args.function)
        for model, extractor, _ in rows:
            modules[(model, extractor)] = module(f"{model}-{extractor}")[0]
        vmfbs = [base] + sorted({v for v in modules.values() if not isinstance(v, Exception)})
        timing = types.SimpleNamespace(reps=2, function=args.function, seed=args.seed,
                                       min_sample_ms=20, rounds=args.rounds)
        reps = bench_zoo.measure(vmfbs + [base], sig, timing)
        median = {v: sorted(r[0][i] for r in reps)[len(reps) // 2] for i, v in enumerate(vmfbs)}
        aa = [r[0][0] / r[0][-1] for r in reps]
        print(f"input: {median[base] * 1e3:.3f} ms; A/A control {', '.join(f'{x:.2f}x' for x in aa)}")
        print(f"{'model':<10} {'extractor':<10} {'predicted':>10} {'measured':>10}")
        for model, extractor, costs in rows:
            v = modules[(model, extractor)]
            cost = costs.get(model)
            predicted = input_costs[model] / cost if cost else float("inf")
            measured = f"{median[base] / median[v]:.2f}x" if v in median else f"({v})"
            print(f"{model:<10} {extractor:<10} {predicted:>9.2f}x {measured:>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
