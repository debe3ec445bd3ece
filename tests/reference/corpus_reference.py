#!/usr/bin/env python3
"""Independent reference results for the programs in corpus/*.ptir.

Purpose
-------
This script recomputes, in pure Python 3 (standard library only: ``math`` and
``struct``), the outputs of the corpus programs softmax, layernorm, gelu,
attention, mlp, while_loop and scan (rng_impure is skipped: it is not
deterministic).  Each program is transcribed by hand, op by op, from its .ptir
text; nothing here is derived from the project's own Rust code, so the output
can be used as an independent oracle for the interpreter / compiler.

Run from the repository root:

    python3 tests/reference/corpus_reference.py > tests/reference/corpus_expected.txt

Inputs
------
For the function's parameter number ``j`` (0-based, in declaration order) and
flat row-major element index ``k``, the input element is

    ((k * 7 + j * 3) % 17) / 4.0 - 2.0

(all such values are exact in f32).  Scalar parameters have one element, k = 0.

Rounding rules (f32 semantics)
------------------------------
* Every value is an f32.  After EVERY arithmetic operation (add, sub, mul, div,
  exp, tanh, rsqrt, ...) the double-precision result is rounded once to f32
  with ``struct.unpack('f', struct.pack('f', x))[0]``.  rsqrt(x) is computed as
  ``1.0 / math.sqrt(x)`` in double and then rounded once.
* Constants written in the .ptir text (0.7978846, 0.044715, 1e-5, 0.35355338,
  ...) are rounded to f32 before use.
* reduce_sum and the accumulation inside dot_general start from 0.0 and add the
  terms in increasing index order, rounding to f32 after each addition; in
  dot_general each product is rounded to f32 before being added.
* reduce_max starts from -inf.  exp(-inf) = 0.

Output format
-------------
One line per (program, output), sorted by file stem then output index:

    <file stem> <output index> <n> <v0> <v1> ... <v(n-1)>

values flat row-major, each printed with ``repr(float)``.  The first line is a
``#`` comment describing how the file was produced.
"""

import math
import struct

_F32_MAX = struct.unpack('f', struct.pack('I', 0x7F7FFFFF))[0]


def f32(x):
    """Round a Python float (double) to the nearest f32, returned as a float."""
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack('f', struct.pack('f', x))[0]
    except OverflowError:
        # struct refuses values beyond the f32 range; round-to-nearest gives
        # +/-inf unless the value is within half an ulp of FLT_MAX (not reached
        # by these programs, but handle it anyway).
        half_ulp = 2.0 ** (127 - 24)
        if abs(x) < _F32_MAX + half_ulp:
            return math.copysign(_F32_MAX, x)
        return math.copysign(math.inf, x)


# ---------------------------------------------------------------- elementwise

def add(a, b):
    return f32(a + b)


def sub(a, b):
    return f32(a - b)


def mul(a, b):
    return f32(a * b)


def div(a, b):
    return f32(a / b)


def exp(a):
    if a == -math.inf:
        return 0.0
    try:
        return f32(math.exp(a))
    except OverflowError:
        return math.inf


def tanh(a):
    return f32(math.tanh(a))


def rsqrt(a):
    return f32(1.0 / math.sqrt(a))


# ---------------------------------------------------------------- helpers

def make_input(j, n):
    """Flat row-major input for parameter j with n elements."""
    return [f32(((k * 7 + j * 3) % 17) / 4.0 - 2.0) for k in range(n)]


def rows(flat, r, c):
    """Split a flat row-major list into r rows of c elements."""
    assert len(flat) == r * c
    return [flat[i * c:(i + 1) * c] for i in range(r)]


def flatten(m):
    return [v for row in m for v in row]


def sum_seq(terms):
    """reduce_sum: start at 0.0, add in index order, round after each add."""
    acc = 0.0
    for t in terms:
        acc = add(acc, t)
    return acc


def max_seq(terms):
    """reduce_max: start at -inf."""
    acc = -math.inf
    for t in terms:
        if t > acc:
            acc = t
    return acc


def matmul(a, b):
    """dot_general lhs_contract=[1] rhs_contract=[0]: a[m,k] x b[k,n]."""
    m, kk, n = len(a), len(b), len(b[0])
    assert all(len(r) == kk for r in a)
    out = []
    for i in range(m):
        row = []
        for j in range(n):
            acc = 0.0
            for p in range(kk):
                acc = add(acc, mul(a[i][p], b[p][j]))
            row.append(acc)
        out.append(row)
    return out


def matmul_nt(a, b):
    """dot_general lhs_contract=[1] rhs_contract=[1]: a[m,k] x b[n,k]^T."""
    out = []
    for i in range(len(a)):
        row = []
        for j in range(len(b)):
            acc = 0.0
            for p in range(len(a[i])):
                acc = add(acc, mul(a[i][p], b[j][p]))
            row.append(acc)
        out.append(row)
    return out


def gelu_elem(x, half, one, c, k):
    """Transcription of the gelu op sequence for one element."""
    x2 = mul(x, x)
    x3 = mul(x2, x)
    kx3 = mul(k, x3)
    inner = add(x, kx3)
    scaled = mul(c, inner)
    t = tanh(scaled)
    onept = add(one, t)
    hx = mul(half, x)
    return mul(hx, onept)


GELU_HALF = f32(0.5)
GELU_ONE = f32(1.0)
GELU_C = f32(0.7978846)
GELU_K = f32(0.044715)


# ---------------------------------------------------------------- programs

def softmax_rows(x):
    """softmax.ptir body on a list of rows (max-stabilized)."""
    out = []
    for row in x:
        m = max_seq(row)                      # reduce_max axes=[1]
        s = [sub(v, m) for v in row]          # sub x, broadcast(m)
        e = [exp(v) for v in s]
        z = sum_seq(e)                        # reduce_sum axes=[1]
        out.append([div(v, z) for v in e])    # div e, broadcast(z)
    return out


def prog_softmax():
    x = rows(make_input(0, 32), 4, 8)
    return [flatten(softmax_rows(x))]


def prog_layernorm():
    x = rows(make_input(0, 32), 4, 8)
    gamma = make_input(1, 8)
    beta = make_input(2, 8)
    n = f32(8.0)
    eps = f32(1e-5)
    out = []
    for row in x:
        s = sum_seq(row)
        mean = div(s, n)
        d = [sub(v, mean) for v in row]
        d2 = [mul(v, v) for v in d]
        ss = sum_seq(d2)
        var = div(ss, n)
        ve = add(var, eps)
        r = rsqrt(ve)
        xn = [mul(v, r) for v in d]
        xg = [mul(xn[c], gamma[c]) for c in range(8)]
        out.append([add(xg[c], beta[c]) for c in range(8)])
    return [flatten(out)]


def prog_gelu():
    x = make_input(0, 32)
    return [[gelu_elem(v, GELU_HALF, GELU_ONE, GELU_C, GELU_K) for v in x]]


def prog_attention():
    q = rows(make_input(0, 32), 4, 8)
    k = rows(make_input(1, 32), 4, 8)
    v = rows(make_input(2, 32), 4, 8)
    scores = matmul_nt(q, k)                  # [4,4]
    scale = f32(0.35355338)
    scaled = [[mul(s, scale) for s in row] for row in scores]
    # causal mask: dense([T,F,F,F, T,T,F,F, T,T,T,F, T,T,T,T]) -> col <= row
    mask_flat = [True, False, False, False, True, True, False, False,
                 True, True, True, False, True, True, True, True]
    mask = rows(mask_flat, 4, 4)
    masked = [[scaled[i][j] if mask[i][j] else -math.inf for j in range(4)]
              for i in range(4)]
    p = softmax_rows(masked)
    y = matmul(p, v)                          # [4,8]
    return [flatten(y)]


def prog_mlp():
    x = rows(make_input(0, 32), 4, 8)
    w1 = rows(make_input(1, 128), 8, 16)
    b1 = make_input(2, 16)
    w2 = rows(make_input(3, 128), 16, 8)
    b2 = make_input(4, 8)
    h0 = matmul(x, w1)                        # [4,16]
    h = [[add(row[c], b1[c]) for c in range(16)] for row in h0]
    g = [[gelu_elem(val, GELU_HALF, GELU_ONE, GELU_C, GELU_K) for val in row]
         for row in h]
    y0 = matmul(g, w2)                        # [4,8]
    y = [[add(row[c], b2[c]) for c in range(8)] for row in y0]
    return [flatten(y)]


def prog_while_loop():
    x = make_input(0, 8)
    decay = make_input(1, 1)[0]
    bias = make_input(2, 1)[0]
    i = 0
    while i < 10:                             # cond: lt ci, 10
        x = [add(mul(v, decay), bias) for v in x]
        i = i + 1
    return [x]


def prog_scan():
    xs = rows(make_input(0, 15), 5, 3)
    acc = [f32(0.0)] * 3
    ys = []
    for i in range(5):
        nxt = [add(acc[c], xs[i][c]) for c in range(3)]
        acc = nxt
        ys.append(nxt)
    return [acc, flatten(ys)]


PROGRAMS = {
    'attention': prog_attention,
    'gelu': prog_gelu,
    'layernorm': prog_layernorm,
    'mlp': prog_mlp,
    'scan': prog_scan,
    'softmax': prog_softmax,
    'while_loop': prog_while_loop,
}


def main():
    print('# Generated by: python3 tests/reference/corpus_reference.py '
          '> tests/reference/corpus_expected.txt '
          '(independent pure-Python f32 reference; see the script docstring)')
    for stem in sorted(PROGRAMS):
        outs = PROGRAMS[stem]()
        for idx, vals in enumerate(outs):
            print(stem, idx, len(vals), ' '.join(repr(float(v)) for v in vals))


if __name__ == '__main__':
    main()
