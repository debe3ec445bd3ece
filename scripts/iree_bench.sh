#!/usr/bin/env bash
# IREE runtime of `ptir-opt FIXTURE.mlir` (default options) against the input, for every JAX
# fixture: the cost model's predicted speedup (--report, before / after) beside the measured median of N
# alternating runs (scripts/iree_check.py --bench), and the matrix chain with --fast-math.
#
# Usage: scripts/iree_bench.sh [N=20]   (needs target/release/ptir-opt and $PTIR_VENV or .venv)
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-20}"
VENV="${PTIR_VENV:-$PWD/.venv}"
OPT=target/release/ptir-opt
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
run() {  # name, extra ptir-opt flags, tolerance scale
  local name="$1" flags="$2" scale="$3"
  local out="$TMP/$name.opt.mlir"
  # shellcheck disable=SC2086
  "$OPT" "corpus/mlir/$name.mlir" $flags -o "$out" --report 2>"$TMP/report"
  local cost
  cost="$(grep -m1 '^cost' "$TMP/report" | sed 's/.*(predicted \(.*\)x faster)/\1/')"
  local bench
  bench="$("$VENV/bin/python" scripts/iree_check.py "corpus/mlir/$name.mlir" "$out" \
    --bench "$N" --tolerance-scale "$scale" | tail -1)"
  echo "| $name ${flags:+($flags)} | $cost | $bench |"
}
echo "| fixture | predicted speedup | IREE (median of $N alternating runs) |"
echo "| --- | --- | --- |"
for f in mlp layernorm softmax attention gpt2_block gpt2_small matrix_chain_i32 matrix_chain_f32; do
  run "$f" "" 1
done
run matrix_chain_f32 "--fast-math" 100
