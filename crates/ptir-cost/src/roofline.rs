//! [`Roofline`]: the default cost model, predicted microseconds on a CPU runtime that fuses.
//!
//! How a compiler such as IREE or XLA runs a tensor program on a CPU: ops are grouped into
//! kernels (dispatches). A kernel is rooted at an op that needs its operands materialized or
//! loops over a contraction: `dot_general`, `convolution`, `reduce`, `reduce_window`,
//! `select_and_scatter`, gathers, scatters, in-place updates, opaque calls ([`Fusion::Kernel`]).
//! Elementwise ops, broadcasts, transposes, slices, concatenations and pads
//! fuse into the kernels around them ([`Fusion::Fused`]): they never write their result to
//! memory, so they pay their arithmetic and nothing else (Constable, equality saturation on
//! StableHLO, prices layout ops at zero for the same reason). `reshape`, tuples and the shells
//! of region ops are free. A stored (non-splat) constant is read from memory by the kernel
//! that uses it: it pays its bytes ([`Fusion::Load`]), which is why folding a mask computed
//! from `iota`s into a constant makes a program slower.
//!
//! A kernel pays a dispatch's overhead plus `max(flops / peak, bytes / bandwidth)` for the
//! bytes it reads and writes ([`Machine::dispatch_us`]); a run pays once for its fixed
//! overhead, reading its arguments and writing its results ([`CostModel::entry_cost`]).
//! FLOPs per element are what IREE's CPU code takes, measured: an `exp` is 28, an `erf` 70, a
//! float reduction 28 per element it reads ([`element_flops`], [`FLOAT_REDUCTION_FLOPS`]).
//! A call of a fused extern (`@linear`, `@softmax_fused`, ...) pays its defining body, priced
//! the same way, not the size of its result; a call of an extern with no body (a user's
//! library kernel, declared by a rule file) is a kernel of its own at its declared FLOPs per
//! element (default 1).
//!
//! What fuses across ops is decided on the program, inlined, as the runtime sees it
//! ([`CostModel::inst_cost`]; extraction, which prices e-nodes one by one, does without):
//! a sum of products of broadcasts is one contraction (`Roofline::contraction`); an
//! elementwise value several instructions read is written to memory by a kernel of its own
//! and read back; a loop pays [`LOOP_ITERATION_US`] per iteration plus a copy of each carried
//! value its body changes other than in place (see [`super::program_cost`]).
//!
//! With a [`CostTable`] ([`Roofline::measured`]) a kernel whose signature the table holds is
//! priced at its measured time instead, and the machine parameters are the table's fit.
//!
//! ```
//! use ptir_cost::{program_cost, Roofline};
//! let p = ptir_ir::parse("func @f(%a: f32[256,256], %b: f32[256,256]) -> (f32[256,256]) {\n  \
//!     %c = dot_general %a, %b lhs_contract=[1] rhs_contract=[0] : f32[256,256]\n  \
//!     %d = exp %c : f32[256,256]\n  return %d\n}").unwrap();
//! let us = program_cost(&p, &Roofline::default());
//! assert!(us > 100.0 && us < 1000.0, "{us} us"); // 33.5 MFLOP at ~170 GFLOP/s, plus the I/O
//! ```

mod measured;

pub use measured::{CostTable, CostTableError, TableMachine, COST_TABLE_VERSION};

use super::{bytes, elements, extern_entry, CostModel, Dataflow};
use indexmap::{IndexMap, IndexSet};
use ptir_ir::{
    op_signature, BinaryOp, Instruction, Op, Program, ReduceKind, TensorType, Type, ValueId,
};
pub use ptir_rules::builders::{ragged_dot_dim, ragged_free_dims, DOT_TILE, RAGGED_DOT_MIN};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// FLOPs per element of a transcendental function the calibration set has not timed
/// (`log`, `tan`, `cbrt`, the inverse trigonometric and hyperbolic functions, `lgamma`,
/// `pow`, `atan2`, ...): about the measured `exp`'s (see [`element_flops`]).
pub const TRANSCENDENTAL_FLOPS: f64 = 30.0;

/// FLOPs per element of a floating-point division. On its own a division runs at the speed
/// of memory, as a multiplication does (`corpus/calibration/example.json`: 0.12 ns per
/// element for both), and fused after an `exp` it costs what a multiplication costs (an
/// `exp(x - m) / s` and an `exp(x - m) * r` over 256x1024 both run 84 us in IREE).
pub const DIVISION_FLOPS: f64 = 4.0;

/// FLOPs per element of an integer division or remainder: x86 has no vector integer
/// divider, and IREE's `rem` on i64 runs 0.56 ns per element (94 FLOPs at the reference
/// peak).
pub const INTEGER_DIVISION_FLOPS: f64 = 90.0;

/// FLOPs per element of a floating-point remainder: IREE calls `fmodf` for each element,
/// 13.9 ns on the reference machine (2,300 FLOPs at its peak).
pub const FLOAT_REMAINDER_FLOPS: f64 = 2300.0;

/// FLOPs per input element of a floating-point reduction: the runtime may not reassociate
/// the sum, so each element waits for the previous one's addition. IREE's `reduce_sum` and
/// `reduce_max` on f32 take 0.15-0.17 ns per element whatever the shape (28 FLOPs at the
/// reference peak, three times the time of their bytes); on integers they run at the speed
/// of memory.
pub const FLOAT_REDUCTION_FLOPS: f64 = 28.0;

/// The width from which a product's result rows make it run slower: IREE's CPU matrix products
/// whose result is 1,024 columns wide or more run at a median 118 GFLOP/s on the reference
/// machine (9 kernels of the calibration set, 109-124 for 7 of them), narrower ones at 186
/// (40 kernels), about the fitted peak: [`WIDE_DOT_EFFICIENCY`] of it.
pub const WIDE_DOT_COLUMNS: usize = 1024;

/// The rate of a product at least [`WIDE_DOT_COLUMNS`] wide, relative to the machine's peak:
/// 118 / 164.
pub const WIDE_DOT_EFFICIENCY: f64 = 0.72;

/// The rate of a product with a ragged free dim relative to an aligned one, per ragged dim:
/// IREE runs `f32[197,768] x f32[768,192]` in 1,663 us and the same product padded to 200
/// rows in 314 (0.19); the calibration set's 197-row products run at 35-77 GFLOP/s, its
/// 197-by-197 one at 9 (0.05, both free dims ragged), aligned ones at 186.
pub const RAGGED_DOT_EFFICIENCY: f64 = 0.2;

/// The rate of a degenerate contraction relative to the peak: a sum of products in which a
/// factor does not vary along a summed axis (`sum_j x[i] * y[j]`, an outer product summed)
/// is no matrix product, and IREE runs it as a generic reduction: 502 us for 4096 x 4096
/// products, 504 for 2048 x 8192, 502 summed over the other axis, 256 for 512 x 16384 and
/// 38 for 1024 x 1024, 66-71 GFLOP/s where the same count of products as a matrix product
/// runs at a product's rate (`Roofline::contraction`; IREE 3.13, the reference machine).
pub const DEGENERATE_CONTRACTION_EFFICIENCY: f64 = 0.41;

/// How many times its bytes a row vector times a matrix stored row-major (a `dot_general`
/// whose lhs has one row, contracting a dim of the rhs other than its last) moves: it reads
/// the matrix a column at a time. IREE runs `f32[1,128] x f32[128,2048]` at 24 GB/s, where a
/// matrix times a vector gets 70-111 GB/s (`corpus/calibration/example.json`).
pub const VECTOR_MATRIX_READ_FACTOR: f64 = 3.0;

/// The two operands of a `dot_general`, if both are tensors.
fn dot_operands<'t>(operands: &[&'t Type]) -> Option<(&'t TensorType, &'t TensorType)> {
    Some((
        operands.first()?.as_tensor()?,
        operands.get(1)?.as_tensor()?,
    ))
}

/// The elements of `t`'s free dims (neither contracted nor batch) in a product.
fn free_elements(t: &TensorType, contract: &[usize], batch: &[usize]) -> usize {
    (0..t.shape.len())
        .filter(|i| !contract.contains(i) && !batch.contains(i))
        .map(|i| t.shape[i])
        .product()
}

/// Whether `t`'s last dim is among the `contract`ed ones.
fn last_contracted(t: &TensorType, contract: &[usize]) -> bool {
    (t.shape.len().checked_sub(1)).is_some_and(|l| contract.contains(&l))
}

/// Whether `d` on these operands is a row vector times a matrix read across its rows (see
/// [`VECTOR_MATRIX_READ_FACTOR`]).
fn vector_times_matrix(d: &ptir_ir::DotDims, operands: &[&Type]) -> bool {
    let Some((lhs, rhs)) = dot_operands(operands) else {
        return false;
    };
    free_elements(lhs, &d.lhs_contract, &d.lhs_batch) == 1
        && free_elements(rhs, &d.rhs_contract, &d.rhs_batch) > 1
        && !rhs.shape.is_empty()
        && !last_contracted(rhs, &d.rhs_contract)
}

/// The rate of a product narrower than [`WIDE_DOT_COLUMNS`], relative to the machine's peak:
/// such products run at a median 186 GFLOP/s over the calibration set's 40 (the peak, 164, is
/// fitted on every kernel, elementwise ones included), and the zoo's `matvec_chain`'s 256³
/// product at 191 (175 us).
pub const NARROW_DOT_EFFICIENCY: f64 = 1.13;

/// The rate of a product by the width of its `result`: [`WIDE_DOT_EFFICIENCY`] from
/// [`WIDE_DOT_COLUMNS`] on, [`NARROW_DOT_EFFICIENCY`] below.
fn product_efficiency(result: &Type) -> f64 {
    let wide = (result.as_tensor())
        .and_then(|t| t.shape.last())
        .is_some_and(|&n| n >= WIDE_DOT_COLUMNS);
    match wide {
        true => WIDE_DOT_EFFICIENCY,
        false => NARROW_DOT_EFFICIENCY,
    }
}

/// How many times its bytes a float matrix times a vector (contracting the matrix's last,
/// contiguous dim) moves: IREE does not reassociate the float sum along a row, and its float
/// matrix-vector products take longer than integer ones of the same shape, which run at the
/// speed of memory. Timed alone (IREE 3.13, the reference machine), f32 against i32: 1.05x
/// at 1024², 1.15x at 2048², 1.24x at 256 x 4096, 1.15x at 4096 x 256; in the calibration set
/// `f32[256,256] x f32[256]` runs 3.8 us of kernel against 2.4; in the zoo two of them 1.29x
/// the time of two `i32` ones.
pub const FLOAT_MATRIX_VECTOR_READ_FACTOR: f64 = 1.2;

/// Whether `d` on these operands is a float matrix times a vector contracting the matrix's
/// last dim (see [`FLOAT_MATRIX_VECTOR_READ_FACTOR`]), the vector on either side.
fn float_matrix_times_vector(d: &ptir_ir::DotDims, operands: &[&Type]) -> bool {
    let Some((lhs, rhs)) = dot_operands(operands) else {
        return false;
    };
    let (lhs_free, rhs_free) = (
        free_elements(lhs, &d.lhs_contract, &d.lhs_batch),
        free_elements(rhs, &d.rhs_contract, &d.rhs_batch),
    );
    lhs.dtype.is_float()
        && ((rhs_free == 1 && lhs_free > 1 && last_contracted(lhs, &d.lhs_contract))
            || (lhs_free == 1 && rhs_free > 1 && last_contracted(rhs, &d.rhs_contract)))
}

/// The time of one reduction of several operands (`multi_reduce_*`) relative to the same
/// reductions run apart, on IREE: its float accumulations interleave in one kernel. IREE runs
/// `sum(x)` and `sum(x * x)` over `f32[2048,1024]` in 0.777 ms apart and 0.686 as one
/// two-operand `reduce` (0.88; `f32[512,4096]`: 0.781 and 0.696), and flax's `LayerNorm`
/// (whose mean and mean of squares are such siblings) 1.07-1.26x faster merged over four
/// shapes (IREE 3.13, the reference machine, 2026-12-02).
pub const MULTI_REDUCTION_FACTOR: f64 = 0.88;

/// [`MULTI_REDUCTION_FACTOR`] on XLA:CPU, which emits a variadic `reduce` as a scalar loop
/// where it vectorizes (and fuses) the same reductions apart: `sum(x)` and `sum(x * x)` over
/// `f32[2048,1024]` run 0.451 ms apart and 1.153 merged (2.56x; jaxlib 0.10.2, one thread).
pub const XLA_MULTI_REDUCTION_FACTOR: f64 = 2.56;

/// Microseconds one iteration of a loop costs the runtime whatever its body: IREE runs a
/// `while` on the host, reading the condition back and launching the body's kernels again
/// each time. Fitted on the reference machine (IREE 3.13, llvm-cpu, `local-sync`,
/// `scripts/zoo/bench_zoo.py`, 2026-11-27) as what each iteration adds to the model's price
/// of the loop's body and carried values to give the time IREE measures: 4.4 us (128-step
/// scan), 3.7 (32-step GRU), 7.0 (32-step LSTM), 5.9 (16-step stencil).
pub const LOOP_ITERATION_US: f64 = 5.0;

/// Microseconds a `while` iteration costs XLA:CPU beyond its body: XLA compiles the loop into
/// the program's own code, so an iteration is a branch and the carried buffers stay in place.
/// Measured with jaxlib 0.10.2's client on the reference machine (one thread): a 1,000-step
/// `fori_loop` of a 16-float update runs 30.3 us, the 10-step one 5.4 (0.025 us a step).
pub const XLA_LOOP_ITERATION_US: f64 = 0.025;

/// What a runtime does that its machine's speed does not say: the behaviours the roofline's
/// constants measure, per runtime. [`op_work`] and the constants are IREE's (the runtime the
/// roofline was fitted on, [`Behaviour::IREE_CPU`]); a [`Roofline`] for another runtime
/// prices what differs by its own ([`Roofline::with_behaviour`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Behaviour {
    /// The runtime's name (`iree-cpu`, `xla-cpu`).
    pub runtime: &'static str,
    /// Microseconds a `while` iteration costs beyond its body ([`LOOP_ITERATION_US`] on IREE,
    /// [`XLA_LOOP_ITERATION_US`] on XLA).
    pub loop_iteration_us: f64,
    /// The rate of a product per ragged free dim, relative to an aligned one
    /// ([`RAGGED_DOT_EFFICIENCY`] on IREE; 1 on XLA, whose products handle edges without
    /// the penalty: padding a ViT layer's 197-row products ran it 0.90-0.94x there).
    pub ragged_dot_efficiency: f64,
    /// Which `while` loops are written out before the engines run: on IREE those with a known
    /// trip count of at most 256 ([`ptir_pass::transform::UnrollLimits::DEFAULT`]); on XLA none, its
    /// iteration (`loop_iteration_us`) costing less than any copy of a body saves (XLA ran the
    /// zoo's unrolled scans 0.57-0.93x of the loops).
    pub unroll: ptir_pass::transform::UnrollLimits,
    /// The time of a reduction of several operands relative to its reductions apart
    /// ([`MULTI_REDUCTION_FACTOR`] on IREE, [`XLA_MULTI_REDUCTION_FACTOR`] on XLA): below 1,
    /// sibling reductions are merged; above, a merged one is split.
    pub multi_reduction_factor: f64,
}

impl Behaviour {
    /// IREE's `llvm-cpu` backend (the default).
    pub const IREE_CPU: Behaviour = Behaviour {
        runtime: "iree-cpu",
        loop_iteration_us: LOOP_ITERATION_US,
        ragged_dot_efficiency: RAGGED_DOT_EFFICIENCY,
        unroll: ptir_pass::transform::UnrollLimits::DEFAULT,
        multi_reduction_factor: MULTI_REDUCTION_FACTOR,
    };

    /// XLA on the CPU, what `jax.jit` runs.
    pub const XLA_CPU: Behaviour = Behaviour {
        runtime: "xla-cpu",
        loop_iteration_us: XLA_LOOP_ITERATION_US,
        ragged_dot_efficiency: 1.0,
        unroll: ptir_pass::transform::UnrollLimits {
            max_trips: 0,
            ..ptir_pass::transform::UnrollLimits::DEFAULT
        },
        multi_reduction_factor: XLA_MULTI_REDUCTION_FACTOR,
    };
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour::IREE_CPU
    }
}

/// The machine a [`Roofline`] predicts for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Machine {
    /// Arithmetic throughput, GFLOP/s.
    pub peak_gflops: f64,
    /// Memory bandwidth, GB/s.
    pub bandwidth_gbs: f64,
    /// Fixed cost of a run beyond the call itself, microseconds: what a one-kernel program
    /// pays once on top of its kernel's roofline (the calibration fits it to one-op modules).
    /// A program pays it once per run ([`CostModel::entry_cost`]).
    pub kernel_overhead_us: f64,
    /// The runtime's cost of a call of a function that does nothing, microseconds (measured by
    /// `scripts/calibrate.py` on a module returning its argument): paid once per run.
    pub call_overhead_us: f64,
    /// Cost of each kernel a run launches, microseconds: a chain of 128 tiny dispatches
    /// (a reduction and a `minimum`, or a matmul and a `tanh`, on 8x8 to 16x16) runs
    /// 0.11-0.12 us per dispatch longer than one of them in IREE (local-sync), ten times
    /// less than a one-op module's fixed overhead.
    pub dispatch_overhead_us: f64,
}

impl Machine {
    /// The machine this project is measured on: fitted by `scripts/calibrate.py` to 979 one-op
    /// kernels of `corpus/zoo` and `corpus/mlir` (and of their optimized forms) timed in IREE
    /// 3.13 (llvm-cpu, one thread, `local-sync`) on a 2-core AMD EPYC virtual machine,
    /// 2026-11-27 (`corpus/calibration/example.json`), with the call overhead of an identity
    /// module and the dispatch overhead of two chains of 1 and 129 dispatches. Rank
    /// correlation of the fitted kernel times with the measured ones: 0.91.
    pub const REFERENCE: Machine = Machine {
        peak_gflops: 164.059,
        bandwidth_gbs: 83.176,
        kernel_overhead_us: 1.54,
        call_overhead_us: 2.35,
        dispatch_overhead_us: 0.12,
    };

    /// Microseconds to compute `flops` at peak.
    pub fn compute_us(&self, flops: f64) -> f64 {
        flops / (self.peak_gflops * 1e3)
    }

    /// Microseconds to move `bytes` at full bandwidth.
    pub fn memory_us(&self, bytes: f64) -> f64 {
        bytes / (self.bandwidth_gbs * 1e3)
    }

    /// Microseconds of one kernel doing `work` on its own, as a one-op module runs it:
    /// the run's overhead plus the roofline.
    pub fn kernel_us(&self, work: &OpWork) -> f64 {
        self.kernel_overhead_us + self.roofline_us(work)
    }

    /// Microseconds of one kernel doing `work` inside a program: a dispatch's overhead plus
    /// the roofline.
    pub fn dispatch_us(&self, work: &OpWork) -> f64 {
        self.dispatch_overhead_us + self.roofline_us(work)
    }

    /// The roofline of `work`: `max(flops / peak, bytes / bandwidth)`.
    pub fn roofline_us(&self, work: &OpWork) -> f64 {
        self.compute_us(work.flops).max(self.memory_us(work.bytes))
    }

    /// Checks that every parameter is a positive finite number (the overheads may be zero).
    pub fn check(&self) -> Result<(), String> {
        let ok = |x: f64| x.is_finite() && x > 0.0;
        if !ok(self.peak_gflops) {
            return Err(format!(
                "peak_gflops must be positive, found {}",
                self.peak_gflops
            ));
        }
        if !ok(self.bandwidth_gbs) {
            return Err(format!(
                "bandwidth_gbs must be positive, found {}",
                self.bandwidth_gbs
            ));
        }
        for (name, x) in [
            ("kernel_overhead_us", self.kernel_overhead_us),
            ("call_overhead_us", self.call_overhead_us),
            ("dispatch_overhead_us", self.dispatch_overhead_us),
        ] {
            if !(x.is_finite() && x >= 0.0) {
                return Err(format!("{name} must be zero or positive, found {x}"));
            }
        }
        Ok(())
    }
}

impl Default for Machine {
    fn default() -> Self {
        Machine::REFERENCE
    }
}

/// How an op runs in a fused program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fusion {
    /// Costs nothing: a view (`reshape`), a tuple, a splat constant, a region op's shell.
    Free,
    /// Fuses into the kernels around it: pays its arithmetic only.
    Fused,
    /// A transpose or a reversal that moves data: fused or not, the runtime pays a pass over
    /// its bytes (a copy of its own, or the consumer's strided reads, which defeat vector
    /// loads), without a launch of its own. A training step's weight update read through a transpose, rather
    /// than from a product computed in the right layout, runs 0.93x in IREE.
    Strided,
    /// A stored constant: pays the bytes a kernel loads.
    Load,
    /// Roots a kernel: pays the launch and the roofline of its bytes and FLOPs.
    Kernel,
}

impl Fusion {
    /// Its name in `ptir-opt signatures`: `free`, `fused`, `load` or `kernel`.
    pub fn name(self) -> &'static str {
        match self {
            Fusion::Free => "free",
            Fusion::Fused => "fused",
            Fusion::Strided => "strided",
            Fusion::Load => "load",
            Fusion::Kernel => "kernel",
        }
    }
}

/// What one op does: its arithmetic, the bytes it reads and writes run on its own, and how
/// it runs in a fused program.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpWork {
    /// Floating-point (or integer) operations.
    pub flops: f64,
    /// Bytes read and written when the op runs as its own kernel.
    pub bytes: f64,
    /// How it runs in a fused program.
    pub fusion: Fusion,
}

/// The work of `op` on operands of types `operands` giving `result`. FLOPs: `dot_general`
/// `2·M·N·K`, `convolution` `2·N·K` (`K` the kernel's elements per output feature),
/// `reduce_window` one per window position per output element, `select_and_scatter` one
/// per window position and one per window, reductions one per input
/// element, elementwise ops one per element
/// ([`TRANSCENDENTAL_FLOPS`] for transcendental ones), layout ops none. Bytes: every operand
/// and the result, except that a `reshape` moves nothing, a slice reads only its block and an
/// in-place update touches only the update.
///
/// ```
/// use ptir_ir::{DType, Op, TensorType, Type};
/// use ptir_cost::{op_work, Fusion};
/// let t: Type = TensorType::new(DType::F32, vec![8, 8]).into();
/// let w = op_work(&Op::Transpose { perm: vec![1, 0] }, &[&t], &t);
/// assert_eq!((w.flops, w.bytes, w.fusion), (0.0, 512.0, Fusion::Strided));
/// // moving only a dim of size 1 keeps the element order: a reshape's price
/// let u: Type = TensorType::new(DType::F32, vec![1, 8]).into();
/// let v: Type = TensorType::new(DType::F32, vec![8, 1]).into();
/// let w = op_work(&Op::Transpose { perm: vec![1, 0] }, &[&u], &v);
/// assert_eq!(w.fusion, Fusion::Fused);
/// ```
pub fn op_work(op: &Op, operands: &[&Type], result: &Type) -> OpWork {
    let n = elements(result);
    let out = bytes(result);
    let all = operands.iter().map(|t| bytes(t)).sum::<f64>() + out;
    let work = |flops: f64, bytes: f64, fusion: Fusion| OpWork {
        flops,
        bytes,
        fusion,
    };
    match op {
        Op::Constant(lit) if lit.splat_value().is_some() => work(0.0, 0.0, Fusion::Free),
        Op::Constant(_) => work(0.0, out, Fusion::Load),
        Op::Reshape | Op::Tuple | Op::TupleGet { .. } | Op::OptimizationBarrier => {
            work(0.0, 0.0, Fusion::Free)
        }
        Op::Cond { .. } | Op::While { .. } | Op::Scan { .. } => work(0.0, 0.0, Fusion::Free),
        Op::Unary(_) | Op::Binary(_) => work(n * element_flops(op, result), all, Fusion::Fused),
        Op::Compare(_)
        | Op::Select
        | Op::Cast
        | Op::Bitcast
        | Op::BitcastResize
        | Op::ReducePrecision { .. }
        | Op::Iota { .. } => work(n, all, Fusion::Fused),
        Op::Transpose { perm } => match operands.first().and_then(|t| t.as_tensor()) {
            Some(t) if !ptir_rules::moves_only_unit_dims(&t.shape, perm) => {
                work(0.0, all, Fusion::Strided)
            }
            _ => work(0.0, all, Fusion::Fused),
        },
        Op::Broadcast { .. } | Op::Concat { .. } | Op::Pad(_) => work(0.0, all, Fusion::Fused),
        // A reversal reads its operand backwards: a data movement, as a transpose's.
        Op::Reverse { dims } => match operands.first().and_then(|t| t.as_tensor()) {
            Some(t) if dims.iter().any(|&d| t.shape.get(d).is_some_and(|&n| n > 1)) => {
                work(0.0, all, Fusion::Strided)
            }
            _ => work(0.0, all, Fusion::Fused),
        },
        Op::Slice(_) | Op::DynamicSlice { .. } => work(0.0, 2.0 * out, Fusion::Fused),
        // A gather reads the indices and the slices it gathers, and writes them.
        Op::Gather(_) => {
            let ids = operands.get(1).map_or(0.0, |t| bytes(t));
            work(0.0, ids + 2.0 * out, Fusion::Kernel)
        }
        Op::Scatter { .. } => {
            let (flops, update_bytes) = super::scatter_work(operands);
            work(flops, 2.0 * out + update_bytes, Fusion::Kernel)
        }
        Op::DynamicUpdateSlice => {
            let update = operands.get(1).map_or(out, |t| bytes(t));
            work(0.0, 2.0 * update, Fusion::Kernel)
        }
        Op::Reduce { .. } => {
            let input = operands.first().copied().unwrap_or(result);
            work(reduction_flops(input), all, Fusion::Kernel)
        }
        Op::MultiReduce { .. } => {
            let apart: f64 = operands.iter().map(|t| reduction_flops(t)).sum();
            work(MULTI_REDUCTION_FACTOR * apart, all, Fusion::Kernel)
        }
        Op::DotGeneral(d) => {
            let strided = match vector_times_matrix(d, operands) {
                true => {
                    (VECTOR_MATRIX_READ_FACTOR - 1.0) * operands.get(1).map_or(0.0, |t| bytes(t))
                }
                false => 0.0,
            };
            let float_matvec = match float_matrix_times_vector(d, operands) {
                true => (FLOAT_MATRIX_VECTOR_READ_FACTOR - 1.0) * all,
                false => 0.0,
            };
            let rate = product_efficiency(result)
                * RAGGED_DOT_EFFICIENCY.powi(ragged_free_dims(d, operands) as i32);
            work(
                super::dot_flops(d, operands, n) / rate,
                all + strided + float_matvec,
                Fusion::Kernel,
            )
        }
        Op::Convolution(c) => work(super::conv_flops(c, operands, n), all, Fusion::Kernel),
        Op::ReduceWindow { dims, .. } => work(super::window_flops(dims, n), all, Fusion::Kernel),
        Op::SelectAndScatter { dims, .. } => work(
            super::select_scatter_flops(dims, operands),
            all,
            Fusion::Kernel,
        ),
        Op::Call { .. } | Op::Rng { .. } | Op::RngBitGenerator { .. } => {
            work(n, all, Fusion::Kernel)
        }
        // Each line (or reduced block) is read whole by one kernel before it writes.
        Op::ArgReduce { .. } | Op::Sort { .. } | Op::TopK { .. } => work(
            super::order_flops(op, operands).unwrap_or(n),
            all,
            Fusion::Kernel,
        ),
    }
}

/// FLOPs per element of an elementwise unary or binary `op` giving `result`: one for the
/// cheap ones, and for the dear ones what IREE's CPU code takes per element on the reference
/// machine, in FLOPs at its peak, where the calibration set timed them compute-bound
/// (`corpus/calibration/example.json`, f32): `exp` 28, `tanh` 24, `sin`/`cos` 30, `log1p`
/// 53, `erf`/`erfc` 70, `expm1` 123; `sqrt` and `rsqrt` 8 (one hardware instruction, a
/// divider's throughput); other transcendental functions [`TRANSCENDENTAL_FLOPS`]; divisions
/// [`DIVISION_FLOPS`], [`INTEGER_DIVISION_FLOPS`], [`FLOAT_REMAINDER_FLOPS`]. Other ops 1.
///
/// ```
/// use ptir_ir::{BinaryOp, DType, Op, TensorType, Type, UnaryOp};
/// use ptir_cost::element_flops;
/// let f: Type = TensorType::new(DType::F32, vec![8]).into();
/// let i: Type = TensorType::new(DType::I64, vec![8]).into();
/// assert_eq!(element_flops(&Op::Unary(UnaryOp::Exp), &f), 28.0);
/// assert_eq!(element_flops(&Op::Binary(BinaryOp::Add), &f), 1.0);
/// assert!(element_flops(&Op::Binary(BinaryOp::Rem), &f) > element_flops(&Op::Binary(BinaryOp::Rem), &i));
/// ```
pub fn element_flops(op: &Op, result: &Type) -> f64 {
    use ptir_ir::UnaryOp as U;
    match op {
        Op::Unary(U::Exp) => 28.0,
        Op::Unary(U::Tanh) => 24.0,
        Op::Unary(U::Sin | U::Cos) => 30.0,
        Op::Unary(U::Log1p) => 53.0,
        Op::Unary(U::Erf | U::Erfc) => 70.0,
        Op::Unary(U::Expm1) => 123.0,
        Op::Unary(U::Sqrt | U::Rsqrt) => 8.0,
        Op::Unary(u) if u.is_transcendental() => TRANSCENDENTAL_FLOPS,
        Op::Binary(BinaryOp::Pow | BinaryOp::Atan2) => TRANSCENDENTAL_FLOPS,
        Op::Binary(BinaryOp::Div | BinaryOp::Rem) if !is_float(result) => INTEGER_DIVISION_FLOPS,
        Op::Binary(BinaryOp::Rem) => FLOAT_REMAINDER_FLOPS,
        Op::Binary(BinaryOp::Div) => DIVISION_FLOPS,
        _ => 1.0,
    }
}

/// The FLOPs of reducing a tensor of type `input`: [`FLOAT_REDUCTION_FLOPS`] per element of a
/// float one, one per element otherwise.
fn reduction_flops(input: &Type) -> f64 {
    let per_element = match is_float(input) {
        true => FLOAT_REDUCTION_FLOPS,
        false => 1.0,
    };
    per_element * elements(input)
}

fn is_float(t: &Type) -> bool {
    t.as_tensor().is_some_and(|t| t.dtype.is_float())
}

/// Whether the runtime writes `inst`'s result to memory although it could fuse: an elementwise op
/// (arithmetic, a comparison, a select, a conversion) that several instructions use. IREE
/// fuses a producer into its consumer's kernel only when it is that consumer's alone, so a
/// value two kernels read is computed by a kernel of its own, which writes it (broadcasts,
/// slices and other layout ops are cloned into each consumer instead). Written out, a
/// 16-step stencil over 65,536 floats whose every step reads the last one three times runs
/// 9.7 us per step in IREE; its arithmetic alone is 2.
///
/// A concatenation one of whose pieces is a constant is written out too: IREE fills a buffer
/// with the constant and copies the computed pieces into it rather than fusing the
/// concatenation into its consumer. The same 16-step stencil whose boundary element is a
/// constant zero runs 5.2 us per step slower than with the boundary computed (`x[0:1] * 0`,
/// which `--fast-math` folds to the constant): 238 us against 155.
fn materializes(inst: &Instruction, dataflow: &Dataflow<'_>) -> bool {
    if let Op::Concat { .. } = inst.op {
        return inst.operands.iter().any(|&v| {
            dataflow
                .producer(v)
                .is_some_and(|p| matches!(p.op, Op::Constant(_)))
        });
    }
    let elementwise =
        inst.op.key().is_elementwise() || matches!(inst.op, Op::ReducePrecision { .. });
    elementwise
        && inst.ty.as_tensor().is_some_and(|t| t.num_elements() > 1)
        && dataflow.users(inst.result) > 1
}

/// The steps of a softmax that IREE raises to its `linalg.softmax` op, if `inst` is the
/// division that ends one: `e / broadcast(reduce_sum(e))` with `e = exp(x - broadcast(
/// reduce_max(x)))`, as `jax.nn.softmax` writes it (the maxima may be clamped, `max(-inf,
/// reduce_max(x))`). The raised op runs about twice as long as
/// the same steps fused as IREE fuses them otherwise (as two kernels, when the division is a
/// multiplication by the sums' reciprocals): measured in IREE on the reference machine,
/// 2.0x on 256x1024, 2.2x on 4096x64, 2.1x on 8x128x128, 1.4x on 64x4096. Priced as the
/// steps twice: the division's cost adds the cost of the steps before it.
fn raised_softmax<'p>(inst: &Instruction, dataflow: &Dataflow<'p>) -> Option<[&'p Instruction; 4]> {
    if inst.op != Op::Binary(BinaryOp::Div) {
        return None;
    }
    let produced = |v: ValueId, op: fn(&Op) -> bool| dataflow.producer(v).filter(|i| op(&i.op));
    let (&e, &sums) = (inst.operands.first()?, inst.operands.get(1)?);
    let exp = produced(e, |op| *op == Op::Unary(ptir_ir::UnaryOp::Exp))?;
    let shifted = produced(*exp.operands.first()?, |op| {
        *op == Op::Binary(BinaryOp::Sub)
    })?;
    let (&x, &maxima) = (shifted.operands.first()?, shifted.operands.get(1)?);
    let is_max = |op: &Op| {
        matches!(
            op,
            Op::Reduce {
                kind: ReduceKind::Max,
                ..
            }
        )
    };
    let maxima = through_layout(maxima, dataflow);
    // JAX writes the maxima as `max(-inf, reduce_max(x))`.
    let max = produced(maxima, is_max).or_else(|| {
        let clamp = produced(maxima, |op| *op == Op::Binary(BinaryOp::Max))?;
        (clamp.operands.iter()).find_map(|&v| produced(through_layout(v, dataflow), is_max))
    })?;
    let sum = produced(through_layout(sums, dataflow), |op| {
        matches!(
            op,
            Op::Reduce {
                kind: ReduceKind::Sum,
                ..
            }
        )
    })?;
    (max.operands.first() == Some(&x) && sum.operands.first() == Some(&e))
        .then_some([max, shifted, exp, sum])
}

/// The value a chain of broadcasts, reshapes and transposes ending at `v` starts from (`v`
/// itself if it is not computed by one), and whether the chain holds a broadcast.
fn layout_source(v: ValueId, dataflow: &Dataflow<'_>) -> (ValueId, bool) {
    let (mut at, mut broadcast) = (v, false);
    while let Some(i) = dataflow.producer(at) {
        match (&i.op, i.operands.first()) {
            (Op::Broadcast { .. } | Op::Reshape | Op::Transpose { .. }, Some(&from)) => {
                broadcast |= matches!(i.op, Op::Broadcast { .. });
                at = from;
            }
            _ => break,
        }
    }
    (at, broadcast)
}

/// [`layout_source`]'s value alone.
fn through_layout(v: ValueId, dataflow: &Dataflow<'_>) -> ValueId {
    layout_source(v, dataflow).0
}

/// Whether `factor`, of a product of type `product`, is a chain of broadcasts that leaves one
/// of the summed `axes` (longer than 1) to broadcasting: the factor is the same all along
/// it. The walk stops at anything else (a reshape, a transpose) and judges the value it
/// stopped at by its own shape: a dim of size 1 there broadcast along a summed axis counts.
fn constant_along_a_summed_axis(
    factor: ValueId,
    product: &Type,
    axes: &[usize],
    dataflow: &Dataflow<'_>,
) -> bool {
    let Type::Tensor(product) = product else {
        return false;
    };
    // Which dim of the product each dim of the value at hand is.
    let mut at = factor;
    let mut dims: Vec<usize> = (0..product.shape.len()).collect();
    while let Some(i) = dataflow.producer(at) {
        let (Op::Broadcast { dims: map }, Some(&from)) = (&i.op, i.operands.first()) else {
            break;
        };
        let Some(outer) = map.iter().map(|&d| dims.get(d).copied()).collect() else {
            return false;
        };
        (at, dims) = (from, outer);
    }
    let Some(Type::Tensor(source)) = dataflow.type_of(at) else {
        return false;
    };
    let varies = |axis: usize| (dims.iter().zip(&source.shape)).any(|(&d, &n)| d == axis && n > 1);
    axes.iter()
        .any(|&a| product.shape.get(a).is_some_and(|&n| n > 1) && !varies(a))
}

/// The type of the value a chain of broadcasts, reshapes and transposes ending at `v` starts
/// from, if `v` is computed by a broadcast through such a chain; `None` otherwise.
fn broadcast_source<'p>(v: ValueId, dataflow: &Dataflow<'p>) -> Option<&'p Type> {
    match layout_source(v, dataflow) {
        (source, true) => dataflow.type_of(source),
        (_, false) => None,
    }
}

/// The roofline cost model: predicted microseconds (see the module documentation).
pub struct Roofline {
    /// The machine predicted for.
    pub machine: Machine,
    /// The runtime's behaviours (default [`Behaviour::IREE_CPU`]).
    pub behaviour: Behaviour,
    /// FLOPs per output element of externs that have no defining body (declared by rule
    /// files); other calls of unknown callees cost one per element. Each is a kernel.
    pub extern_flops: IndexMap<String, f64>,
    /// Functions of the program: their bodies are priced where they are defined, so a call of
    /// one costs nothing of its own.
    defined: IndexSet<String>,
    /// Measured kernels, and the kernel signatures priced without them.
    table: Option<Arc<CostTable>>,
    misses: Mutex<IndexSet<String>>,
    /// The cost of a fused extern's body, by call signature, on its own or in a program.
    bodies: Mutex<FxHashMap<(String, bool), f64>>,
}

impl Default for Roofline {
    fn default() -> Self {
        Roofline::new(Machine::REFERENCE)
    }
}

impl std::fmt::Debug for Roofline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Roofline")
            .field("machine", &self.machine)
            .field("table", &self.table.as_ref().map(|t| &t.file))
            .finish_non_exhaustive()
    }
}

impl Roofline {
    /// The analytical model for `machine`.
    pub fn new(machine: Machine) -> Self {
        Roofline {
            machine,
            behaviour: Behaviour::default(),
            extern_flops: IndexMap::new(),
            defined: IndexSet::new(),
            table: None,
            misses: Mutex::new(IndexSet::new()),
            bodies: Mutex::new(FxHashMap::default()),
        }
    }

    /// The calibrated model: kernels `table` holds at their measured time, the others (and
    /// fused ops) by the roofline of the table's fitted machine.
    pub fn measured(table: Arc<CostTable>) -> Self {
        Roofline {
            table: Some(table.clone()),
            ..Roofline::new(table.fit)
        }
    }

    /// This model for a runtime that behaves as `behaviour` does.
    ///
    /// ```
    /// use ptir_cost::{Behaviour, Roofline};
    /// let xla = Roofline::default().with_behaviour(Behaviour::XLA_CPU);
    /// assert_eq!(xla.behaviour.runtime, "xla-cpu");
    /// ```
    pub fn with_behaviour(mut self, behaviour: Behaviour) -> Self {
        self.behaviour = behaviour;
        self
    }

    /// This model, knowing the functions `program` defines (a call of one is priced by the
    /// callee's body, counted where it is defined).
    pub fn for_program(mut self, program: &Program) -> Self {
        self.defined = program
            .functions
            .iter()
            .filter(|f| ptir_rules::externs::defined_by(f).is_none())
            .map(|f| f.name.clone())
            .collect();
        self
    }

    /// The kernel signatures priced by the roofline because the table lacks them, in the
    /// order met.
    pub fn table_misses(&self) -> Vec<String> {
        self.misses
            .lock()
            .map(|m| m.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn priced(&self, work: &OpWork) -> f64 {
        match work.fusion {
            Fusion::Free => 0.0,
            Fusion::Fused => self.machine.compute_us(work.flops),
            Fusion::Strided => self.machine.memory_us(work.bytes),
            Fusion::Load => self.machine.memory_us(work.bytes),
            Fusion::Kernel => self.machine.dispatch_us(work),
        }
    }

    /// A kernel at its measured time inside a program, if the table has it: the one-op
    /// module's time less the runtime's call overhead and the run's fixed overhead (both paid
    /// once per program run, [`CostModel::entry_cost`]), plus a dispatch's overhead.
    fn measured_kernel(&self, op: &Op, operands: &[&Type], result: &Type) -> Option<f64> {
        let table = self.table.as_ref()?;
        let signature = op_signature(op, operands, result);
        match table.ops.get(&signature) {
            Some(t) => Some(self.in_program(t - self.machine.call_overhead_us)),
            None => {
                if let Ok(mut m) = self.misses.lock() {
                    m.insert(signature);
                }
                None
            }
        }
    }

    /// A kernel's time inside a program from its time alone in a one-op module (the call
    /// overhead taken off): the run's fixed overhead becomes a dispatch's.
    fn in_program(&self, alone_us: f64) -> f64 {
        (alone_us - self.machine.kernel_overhead_us).max(0.0) + self.machine.dispatch_overhead_us
    }

    /// Microseconds to write `bytes` to memory and read them back.
    fn materialized_us(&self, bytes: f64) -> f64 {
        self.machine.memory_us(2.0 * bytes)
    }

    /// A sum of products of broadcasts (`reduce_sum(mul(broadcast a, broadcast b))`, how
    /// `jnp.einsum` and hand-written outer products come out of JAX) as IREE runs it: the
    /// product fuses into the reduction, which the CPU backend recognizes as a contraction
    /// and runs as a matmul, reading `a` and `b`, never the broadcast product. Priced as a
    /// kernel of a multiplication and an addition per product at a product's rate
    /// ([`product_efficiency`]), less the multiplication the product pays where it is priced
    /// (fused), over the bytes of the broadcasts' sources; `None` for any other
    /// instruction. Measured: `broadcast_matmul` (256³ products) runs 178 us in IREE, as its
    /// `dot_general` does, where the reduction of a stored 256³ tensor would take 4.5 ms. A
    /// factor constant along a summed axis makes it a degenerate contraction, at
    /// [`DEGENERATE_CONTRACTION_EFFICIENCY`] of the rate.
    fn contraction(
        &self,
        inst: &Instruction,
        operands: &[&Type],
        dataflow: &Dataflow<'_>,
    ) -> Option<f64> {
        let Op::Reduce {
            kind: ReduceKind::Sum,
            ref axes,
            ..
        } = inst.op
        else {
            return None;
        };
        let &product = inst.operands.first()?;
        let mul = dataflow.producer(product)?;
        if mul.op != Op::Binary(BinaryOp::Mul) || dataflow.users(product) != 1 {
            return None;
        }
        let products = elements(&mul.ty);
        let mut read = 0.0;
        let mut degenerate = false;
        for &factor in &mul.operands {
            let source = broadcast_source(factor, dataflow)?;
            if elements(source) >= products {
                return None;
            }
            read += bytes(source);
            degenerate |= constant_along_a_summed_axis(factor, &mul.ty, axes, dataflow);
        }
        let rate = match degenerate {
            true => DEGENERATE_CONTRACTION_EFFICIENCY,
            false => product_efficiency(&inst.ty),
        };
        let written: f64 = operands.iter().skip(1).map(|t| bytes(t)).sum::<f64>() + bytes(&inst.ty);
        // A multiplication and an addition per product at `rate`, less the multiplication
        // the product pays where it is priced.
        Some(self.machine.dispatch_us(&OpWork {
            flops: (2.0 * products / rate - products).max(0.0),
            bytes: read + written,
            fusion: Fusion::Kernel,
        }))
    }

    /// The cost of a call of the fused extern `callee` (possibly outlined or renamed) on
    /// operands of these types: its defining body under this model, each op priced on its own
    /// (as extraction prices them) or, `in_program`, as the runtime runs the body
    /// ([`CostModel::inst_cost`]: the softmax a `@softmax_fused` stands for is exported as the
    /// ops IREE raises). `None` if `callee` has no reference body or it does not apply to
    /// these types.
    fn extern_body(
        &self,
        callee: &str,
        operands: &[&Type],
        result: &Type,
        in_program: bool,
    ) -> Option<f64> {
        let name = ptir_rules::externs::reference_of(callee)?;
        let call = Op::Call {
            callee: name.to_string(),
        };
        let key = (op_signature(&call, operands, result), in_program);
        if let Some(c) = self.bodies.lock().ok()?.get(&key) {
            return Some(*c);
        }
        let args: Vec<Type> = operands.iter().map(|t| (*t).clone()).collect();
        let program = ptir_rules::externs::idiom_program(name, &args)?.ok()?;
        let body = program.functions.first()?;
        let cost = match in_program {
            true => super::function_run_cost(body, self),
            false => super::function_cost(body, self),
        };
        self.bodies.lock().ok()?.insert(key, cost);
        Some(cost)
    }
}

impl CostModel for Roofline {
    fn name(&self) -> &str {
        if self.table.is_some() {
            "measured"
        } else {
            "roofline"
        }
    }

    fn op_cost(&self, op: &Op, operands: &[&Type], result: &Type) -> f64 {
        let mut work = op_work(op, operands, result);
        if let Op::DotGeneral(d) = op {
            // `op_work` prices ragged products as IREE runs them.
            let ragged = ragged_free_dims(d, operands) as i32;
            work.flops *=
                (RAGGED_DOT_EFFICIENCY / self.behaviour.ragged_dot_efficiency).powi(ragged);
        }
        if let Op::MultiReduce { .. } = op {
            work.flops *= self.behaviour.multi_reduction_factor / MULTI_REDUCTION_FACTOR;
        }
        if let Op::Call { callee } = op {
            if self.defined.contains(callee) {
                return 0.0;
            }
            if let Some(c) = self.extern_body(callee, operands, result, false) {
                return c;
            }
            // A library kernel with no body: its own kernel, at its declared FLOPs.
            work.flops =
                extern_entry(&self.extern_flops, callee).unwrap_or(&1.0) * elements(result);
        }
        // A one-op module cannot update its argument in place, so the table's time of an
        // in-place update is a copy of the whole operand; in a program it is the update's.
        let in_place = *op == Op::DynamicUpdateSlice;
        if work.fusion == Fusion::Kernel && !in_place {
            if let Some(table) = &self.table {
                return match self.measured_kernel(op, operands, result) {
                    Some(t) => t,
                    None => {
                        let alone = self.machine.kernel_us(&work);
                        self.in_program(alone * table.factor(op.name(), alone))
                    }
                };
            }
        }
        self.priced(&work)
    }

    /// The runtime's [`Behaviour::loop_iteration_us`] ([`LOOP_ITERATION_US`] on IREE), and for
    /// each carried tensor the body changes, its bytes written
    /// and read back twice: the body's kernel writes it, and the runtime copies it into the
    /// loop's carried buffer. IREE runs a 16-step stencil over 256 KB 12 us per iteration
    /// slower as a loop than written out; a GRU whose changing state is a few hundred bytes
    /// (its outputs are updated in place), 6 us.
    fn loop_iteration_cost(&self, changed: &[&Type]) -> f64 {
        let carried: f64 = changed.iter().map(|t| bytes(t)).sum();
        self.behaviour.loop_iteration_us + 2.0 * self.materialized_us(carried)
    }

    fn inst_cost(&self, inst: &Instruction, operands: &[&Type], dataflow: &Dataflow<'_>) -> f64 {
        if let Some(c) = self.contraction(inst, operands, dataflow) {
            return c;
        }
        if let Op::Call { callee } = &inst.op {
            if let Some(c) = self.extern_body(callee, operands, &inst.ty, true) {
                return c;
            }
        }
        let mut own = self.op_cost(&inst.op, operands, &inst.ty);
        if materializes(inst, dataflow) {
            own += self.machine.dispatch_overhead_us + self.materialized_us(bytes(&inst.ty));
        }
        if let Some(steps) = raised_softmax(inst, dataflow) {
            own += steps
                .iter()
                .map(|i| self.op_cost(&i.op, &dataflow.operand_types(i), &i.ty))
                .sum::<f64>();
        }
        own
    }

    fn entry_cost(&self, params: &[&Type], results: &[&Type]) -> f64 {
        let moved: f64 = params.iter().chain(results).map(|t| bytes(t)).sum();
        self.machine.call_overhead_us
            + self.machine.kernel_overhead_us
            + self.machine.memory_us(moved)
    }

    fn pays_its_own_traffic(&self, op: &Op, result: &Type) -> bool {
        op_work(op, &[], result).fusion == Fusion::Kernel
    }

    fn notes(&self) -> Vec<String> {
        let (Some(table), misses) = (&self.table, self.table_misses()) else {
            return Vec::new();
        };
        if misses.is_empty() {
            return Vec::new();
        }
        let shown: Vec<&str> = misses.iter().take(3).map(String::as_str).collect();
        vec![format!(
            "cost table {}: {} kernel signature(s) not in the table, priced by the fitted \
             roofline times their op's factor (rerun scripts/calibrate.py on this program to \
             measure them): {}{}",
            table.file,
            misses.len(),
            shown.join("; "),
            if misses.len() > shown.len() {
                "; ..."
            } else {
                ""
            }
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program_cost;

    fn program(text: &str) -> Program {
        let p = ptir_ir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{e}\n{text}"));
        p
    }

    fn roofline(p: &Program) -> Roofline {
        Roofline::default().for_program(p)
    }

    /// The program's cost less the run's entry cost (its overheads, and reading the arguments
    /// and writing the results no kernel reads or writes).
    fn body_cost(p: &Program) -> f64 {
        let m = roofline(p);
        program_cost(p, &m) - crate::run_entry_cost(&p.functions[0], &m)
    }

    #[test]
    fn a_fused_extern_is_priced_as_its_body() {
        let inlined = program(
            "func @f(%x: f32[64,256], %w: f32[256,128], %b: f32[128]) -> (f32[64,128]) {\n  \
             %d = dot_general %x, %w lhs_contract=[1] rhs_contract=[0] : f32[64,128]\n  \
             %bb = broadcast %b dims=[1] : f32[64,128]\n  \
             %y = add %d, %bb : f32[64,128]\n  return %y\n}",
        );
        let called = program(
            "extern @linear pure\n\
             func @f(%x: f32[64,256], %w: f32[256,128], %b: f32[128]) -> (f32[64,128]) {\n  \
             %y = call @linear(%x, %w, %b) : f32[64,128]\n  return %y\n}",
        );
        let (body, call) = (body_cost(&inlined), body_cost(&called));
        assert!(body > 20.0, "a 4 MFLOP matmul costs tens of us, not {body}");
        assert!(
            (body - call).abs() < 1e-9 * body,
            "body {body}, call {call}"
        );
        // Outlined and renamed instances price as the extern.
        let outlined = program(&ptir_ir::print(&called).replace("@linear", "@linear_0"));
        assert!((body_cost(&outlined) - body).abs() < 1e-9 * body);
    }

    #[test]
    fn a_sum_of_broadcast_products_is_priced_as_the_contraction_it_runs_as() {
        let summed = program(
            "func @f(%a: f32[64,32], %b: f32[32,48]) -> (f32[64,48]) {\n  \
             %x = broadcast %a dims=[0,1] : f32[64,32,48]\n  \
             %y = broadcast %b dims=[1,2] : f32[64,32,48]\n  \
             %p = mul %x, %y : f32[64,32,48]\n  \
             %s = reduce_sum %p axes=[1] : f32[64,48]\n  return %s\n}",
        );
        let dot = program(
            "func @f(%a: f32[64,32], %b: f32[32,48]) -> (f32[64,48]) {\n  \
             %s = dot_general %a, %b lhs_contract=[1] rhs_contract=[0] : f32[64,48]\n  \
             return %s\n}",
        );
        let (summed, dot) = (body_cost(&summed), body_cost(&dot));
        assert!((summed - dot).abs() < 1e-9 * dot, "{summed} against {dot}");
        // The same reduction of a product that is also returned is a reduction of a stored
        // tensor: it reads the product, at a reduction's pace.
        let stored = program(
            "func @f(%a: f32[64,32], %b: f32[32,48]) -> (f32[64,48], f32[64,32,48]) {\n  \
             %x = broadcast %a dims=[0,1] : f32[64,32,48]\n  \
             %y = broadcast %b dims=[1,2] : f32[64,32,48]\n  \
             %p = mul %x, %y : f32[64,32,48]\n  \
             %s = reduce_sum %p axes=[1] : f32[64,48]\n  return %s, %p\n}",
        );
        assert!(body_cost(&stored) > 5.0 * dot, "{}", body_cost(&stored));
    }

    /// A factor constant along the summed axis (an outer product summed, as `jnp.outer(x,
    /// y).sum(1)` comes out of JAX, with its size-1 intermediate broadcast) is no matrix
    /// product: IREE takes 502 us for 4096 x 4096 products, summed over either axis.
    #[test]
    fn a_sum_of_an_outer_product_runs_at_a_generic_reductions_rate() {
        let outer_sum = |axis: usize| {
            program(&format!(
                "func @f(%x: f32[4096], %y: f32[4096]) -> (f32[4096]) {{\n  \
                 %x1 = broadcast %x dims=[0] : f32[4096,1]\n  \
                 %xb = broadcast %x1 dims=[0,1] : f32[4096,4096]\n  \
                 %yb = broadcast %y dims=[1] : f32[4096,4096]\n  \
                 %p = mul %xb, %yb : f32[4096,4096]\n  \
                 %s = reduce_sum %p axes=[{axis}] : f32[4096]\n  return %s\n}}"
            ))
        };
        for axis in [0, 1] {
            let us = body_cost(&outer_sum(axis));
            assert!(
                (502.0 / 1.25..502.0 * 1.25).contains(&us),
                "axis {axis}: {us} us"
            );
        }
        // Where both factors vary along the summed axis it is a matrix product (the test
        // above), at a product's rate.
        let dims = |text: &str| {
            let p = program(text);
            let f = &p.functions[0];
            let dataflow = Dataflow::of(f);
            let ty = &f.body.insts[2].ty;
            [f.body.insts[0].result, f.body.insts[1].result]
                .map(|v| constant_along_a_summed_axis(v, ty, &[1], &dataflow))
        };
        let matmul = "func @f(%a: f32[64,32], %b: f32[32,48]) -> (f32[64,32,48]) {\n  \
             %x = broadcast %a dims=[0,1] : f32[64,32,48]\n  \
             %y = broadcast %b dims=[1,2] : f32[64,32,48]\n  \
             %p = mul %x, %y : f32[64,32,48]\n  return %p\n}";
        assert_eq!(dims(matmul), [false, false]);
        let outer = "func @f(%a: f32[64,48], %b: f32[32,48]) -> (f32[64,32,48]) {\n  \
             %x = broadcast %a dims=[0,2] : f32[64,32,48]\n  \
             %y = broadcast %b dims=[1,2] : f32[64,32,48]\n  \
             %p = mul %x, %y : f32[64,32,48]\n  return %p\n}";
        assert_eq!(dims(outer), [true, false]);
    }

    #[test]
    fn a_run_pays_for_the_bytes_no_kernel_moves_and_a_row_vector_reads_its_matrix_across() {
        use crate::run_entry_cost;
        use ptir_ir::{DType, DotDims, TensorType};
        // A product reads its arguments and writes its result itself: the run adds only its
        // fixed overheads. An elementwise op leaves both to the run.
        let dot = program(
            "func @f(%a: f32[64,128], %b: f32[128,256]) -> (f32[64,256]) {\n  \
             %c = dot_general %a, %b lhs_contract=[1] rhs_contract=[0] : f32[64,256]\n  \
             return %c\n}",
        );
        let m = roofline(&dot);
        assert_eq!(
            run_entry_cost(&dot.functions[0], &m),
            m.entry_cost(&[], &[])
        );
        let neg =
            program("func @f(%a: f32[64]) -> (f32[64]) {\n  %c = neg %a : f32[64]\n  return %c\n}");
        let t: Type = TensorType::new(DType::F32, vec![64]).into();
        assert_eq!(
            run_entry_cost(&neg.functions[0], &m),
            m.entry_cost(&[&t], &[&t])
        );
        // A row vector times a matrix reads the matrix across its rows; a matrix times a
        // column vector, and a product of two matrices, do not pay for it.
        let ty = |shape: Vec<usize>| -> Type { TensorType::new(DType::F32, shape).into() };
        let dims = |lhs: usize, rhs: usize| {
            Op::DotGeneral(Box::new(DotDims {
                lhs_contract: vec![lhs],
                rhs_contract: vec![rhs],
                ..DotDims::default()
            }))
        };
        let (row, matrix) = (ty(vec![1, 128]), ty(vec![128, 2048]));
        let w = op_work(&dims(1, 0), &[&row, &matrix], &ty(vec![1, 2048]));
        let plain = 4.0 * (128.0 + 128.0 * 2048.0 + 2048.0);
        assert_eq!(
            w.bytes,
            plain + (VECTOR_MATRIX_READ_FACTOR - 1.0) * 4.0 * 128.0 * 2048.0
        );
        // A float matrix times a column vector moves its bytes at a float sum's pace, on
        // either side; an integer one at the speed of memory.
        let (rows, column) = (ty(vec![2048, 128]), ty(vec![128]));
        let w = op_work(&dims(1, 0), &[&rows, &column], &ty(vec![2048]));
        assert_eq!(w.bytes, plain * FLOAT_MATRIX_VECTOR_READ_FACTOR);
        let w = op_work(&dims(0, 1), &[&column, &rows], &ty(vec![2048]));
        assert_eq!(w.bytes, plain * FLOAT_MATRIX_VECTOR_READ_FACTOR);
        let int = |shape: Vec<usize>| -> Type { TensorType::new(DType::I32, shape).into() };
        let w = op_work(
            &dims(1, 0),
            &[&int(vec![2048, 128]), &int(vec![128])],
            &int(vec![2048]),
        );
        assert_eq!(w.bytes, plain);
        let square = ty(vec![128, 128]);
        let w = op_work(&dims(1, 0), &[&square, &square], &square);
        assert_eq!(w.bytes, 3.0 * 4.0 * 128.0 * 128.0);
        assert_eq!(w.flops, 2.0 * 128.0 * 128.0 * 128.0 / NARROW_DOT_EFFICIENCY);
        // A product whose result is 1,024 columns wide runs at a lower rate.
        let (lhs, rhs) = (ty(vec![64, 128]), ty(vec![128, 1024]));
        let w = op_work(&dims(1, 0), &[&lhs, &rhs], &ty(vec![64, 1024]));
        assert_eq!(w.flops, 2.0 * 64.0 * 1024.0 * 128.0 / WIDE_DOT_EFFICIENCY);
    }

    #[test]
    fn the_softmax_iree_raises_costs_its_steps_twice_and_its_reciprocal_form_once() {
        let softmax = |normalize: &str| {
            program(&format!(
                "func @f(%x: f32[64,512]) -> (f32[64,512]) {{\n  \
                 %m = reduce_max %x axes=[1] : f32[64]\n  \
                 %c = constant splat(-inf) : f32[64]\n  \
                 %n = max %c, %m : f32[64]\n  \
                 %b = broadcast %n dims=[0] : f32[64,512]\n  \
                 %d = sub %x, %b : f32[64,512]\n  \
                 %e = exp %d : f32[64,512]\n  \
                 %s = reduce_sum %e axes=[1] : f32[64]\n  {normalize}\n}}"
            ))
        };
        let divided = softmax(
            "%t = broadcast %s dims=[0] : f32[64,512]\n  %y = div %e, %t : f32[64,512]\n  return %y",
        );
        let multiplied = softmax(
            "%one = constant splat(1.0) : f32[64]\n  %r = div %one, %s : f32[64]\n  \
             %t = broadcast %r dims=[0] : f32[64,512]\n  %y = mul %e, %t : f32[64,512]\n  return %y",
        );
        let (raised, fused) = (body_cost(&divided), body_cost(&multiplied));
        assert!(
            raised > 1.8 * fused && raised < 2.2 * fused,
            "{raised} against {fused}"
        );
        // The same softmax called as the fused extern is exported as the ops IREE raises: a
        // run prices the call as them.
        let called = program(
            "extern @softmax_fused pure\n\
             func @f(%x: f32[64,512]) -> (f32[64,512]) {\n  \
             %y = call @softmax_fused(%x) : f32[64,512]\n  return %y\n}",
        );
        let call = body_cost(&called);
        assert!(call > 1.8 * fused, "{call} against {fused}");
    }

    #[test]
    fn a_value_several_kernels_read_is_written_to_memory_once() {
        let shared = |uses: &str| {
            program(&format!(
                "func @f(%a: f32[256,256]) -> (f32[256,256]) {{\n  \
                 %x = add %a, %a : f32[256,256]\n  {uses}\n}}"
            ))
        };
        let once = shared("%y = neg %x : f32[256,256]\n  return %y");
        let twice = shared(
            "%y = neg %x : f32[256,256]\n  %z = abs %x : f32[256,256]\n  \
             %w = mul %y, %z : f32[256,256]\n  return %w",
        );
        let m = Roofline::default();
        let elementwise = m.machine.compute_us(256.0 * 256.0);
        let written = m.machine.dispatch_overhead_us + m.machine.memory_us(2.0 * 256.0 * 1024.0);
        let (once, twice) = (body_cost(&once), body_cost(&twice));
        assert!((once - 2.0 * elementwise).abs() < 1e-9, "{once}");
        assert!(
            (twice - (4.0 * elementwise + written)).abs() < 1e-9,
            "{twice}"
        );
        // Across a call, as the runtime sees it inlined: the helper reads its argument twice.
        let helper = program(
            "func @g(%x: f32[256,256]) -> (f32[256,256]) {\n  %y = neg %x : f32[256,256]\n  \
             %z = abs %x : f32[256,256]\n  %w = mul %y, %z : f32[256,256]\n  return %w\n}\n\
             func @f(%a: f32[256,256]) -> (f32[256,256]) {\n  %x = add %a, %a : f32[256,256]\n  \
             %w = call @g(%x) : f32[256,256]\n  return %w\n}",
        );
        let m = roofline(&helper);
        let t: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![256, 256]).into();
        let called = program_cost(&helper, &m) - m.entry_cost(&[&t], &[&t]);
        assert!((called - twice).abs() < 1e-9, "{called} against {twice}");
    }

    #[test]
    fn a_kernel_in_a_program_pays_a_dispatch_and_the_run_its_overhead_once() {
        let m = Roofline::default();
        let t: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![16, 16]).into();
        let row: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![16]).into();
        let scalar: Type = ptir_ir::TensorType::scalar(ptir_ir::DType::F32).into();
        let reduce = Op::Reduce {
            kind: ReduceKind::Max,
            axes: vec![1],
            keep_dims: false,
        };
        let work = op_work(&reduce, &[&t, &scalar], &row);
        let in_program = m.op_cost(&reduce, &[&t, &scalar], &row);
        assert_eq!(in_program, m.machine.dispatch_us(&work));
        assert!(
            m.machine.kernel_us(&work) > 5.0 * in_program,
            "{in_program}"
        );
        assert!(m.entry_cost(&[], &[]) >= m.machine.kernel_overhead_us);
    }

    #[test]
    fn dear_elementwise_ops_and_float_reductions_cost_what_iree_takes() {
        use ptir_ir::{DType, TensorType, UnaryOp};
        let f: Type = TensorType::new(DType::F32, vec![1024]).into();
        let i: Type = TensorType::new(DType::I32, vec![1024]).into();
        let m = Roofline::default();
        let add = m.op_cost(&Op::Binary(BinaryOp::Add), &[&f, &f], &f);
        let exp = m.op_cost(&Op::Unary(UnaryOp::Exp), &[&f], &f);
        let erf = m.op_cost(&Op::Unary(UnaryOp::Erf), &[&f], &f);
        let frem = m.op_cost(&Op::Binary(BinaryOp::Rem), &[&f, &f], &f);
        let irem = m.op_cost(&Op::Binary(BinaryOp::Rem), &[&i, &i], &i);
        assert!(
            add < exp && exp < erf && irem < frem,
            "{add} {exp} {erf} {irem} {frem}"
        );
        assert_eq!(exp, 28.0 * add);
        let scalar = |d| -> Type { TensorType::scalar(d).into() };
        let sum = Op::Reduce {
            kind: ReduceKind::Sum,
            axes: vec![0],
            keep_dims: false,
        };
        let w = op_work(&sum, &[&f, &scalar(DType::F32)], &scalar(DType::F32));
        assert_eq!(w.flops, 1024.0 * FLOAT_REDUCTION_FLOPS);
        let w = op_work(&sum, &[&i, &scalar(DType::I32)], &scalar(DType::I32));
        assert_eq!(w.flops, 1024.0);
    }

    #[test]
    fn a_loop_copies_the_carried_values_its_body_changes_but_not_those_updated_in_place() {
        let looped = |update: &str| {
            program(&format!(
                "func @f(%x: f32[4096], %v: f32[1]) -> (f32[4096]) {{\n  \
                 %0 = constant splat(0) : i32[]\n  \
                 %1 = while %0, %x : (i32[], f32[4096]) {{\n  ^(%2: i32[], %3: f32[4096]):\n    \
                 %4 = constant splat(8) : i32[]\n    %5 = lt %2, %4 : bool[]\n    yield %5\n  }} {{\n  \
                 ^(%6: i32[], %7: f32[4096]):\n    %8 = constant splat(1) : i32[]\n    \
                 %9 = add %6, %8 : i32[]\n    {update}\n    yield %9, %10\n  }}\n  \
                 %11 = tuple_get %1 index=1 : f32[4096]\n  return %11\n}}"
            ))
        };
        let rewritten = looped("%10 = neg %7 : f32[4096]");
        let updated = looped("%10 = dynamic_update_slice %7, %v, %6 : f32[4096]");
        let m = roofline(&rewritten);
        let copies = 8.0 * m.machine.memory_us(4.0 * 4.0 * 4096.0);
        let neg = 8.0 * m.machine.compute_us(4096.0);
        let update = 8.0 * m.op_cost(&Op::DynamicUpdateSlice, &[], &Type::Tuple(vec![]));
        let (a, b) = (program_cost(&rewritten, &m), program_cost(&updated, &m));
        assert!(a - neg > b - update + 0.99 * copies, "{a} {b}");
    }

    #[test]
    fn fusible_layout_ops_cost_next_to_nothing_and_kernels_their_traffic() {
        let t: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![1024, 1024]).into();
        let m = Roofline::default();
        let bcast = Op::Broadcast { dims: vec![0, 1] };
        assert_eq!(m.op_cost(&bcast, &[&t], &t), 0.0);
        assert_eq!(m.op_cost(&Op::Reshape, &[&t], &t), 0.0);
        // A transpose that moves data pays a pass over its bytes, but no launch: less than
        // on its own, more than a layout that keeps the element order.
        let transpose = Op::Transpose { perm: vec![1, 0] };
        let strided = m.op_cost(&transpose, &[&t], &t);
        assert_eq!(strided, m.machine.memory_us(8.0 * 1024.0 * 1024.0));
        let unit: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![1, 1024]).into();
        let flipped: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![1024, 1]).into();
        assert_eq!(m.op_cost(&transpose, &[&unit], &flipped), 0.0);
        // On its own (as calibration times it) the same transpose moves 8 MB.
        let alone = m.machine.kernel_us(&op_work(&transpose, &[&t], &t));
        assert!(alone > 100.0 && alone > strided, "{alone}");
        // A reduction roots a kernel: it pays its launch and reads its 4 MB operand.
        let row: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![1024]).into();
        let reduce = Op::Reduce {
            kind: ptir_ir::ReduceKind::Sum,
            axes: vec![1],
            keep_dims: false,
        };
        let r = m.op_cost(&reduce, &[&t], &row);
        assert!(r > m.machine.memory_us(4.0 * 1024.0 * 1024.0), "{r}");
    }

    #[test]
    fn a_pad_fuses_a_reversal_moves_data_and_select_and_scatter_is_a_kernel() {
        use ptir_ir::{DType, PadDims, ReduceWindowDims, SelectKind, TensorType, Window};
        let t: Type = TensorType::new(DType::F32, vec![8, 32, 32, 16]).into();
        let scalar: Type = TensorType::scalar(DType::F32).into();
        let pad = Op::Pad(Box::new(PadDims::none(4)));
        assert_eq!(op_work(&pad, &[&t, &scalar], &t).fusion, Fusion::Fused);
        let reverse = |dims: Vec<usize>| Op::Reverse { dims };
        assert_eq!(
            op_work(&reverse(vec![1]), &[&t], &t).fusion,
            Fusion::Strided
        );
        // Reversing no dim, or only dims of size 1, moves nothing.
        let u: Type = TensorType::new(DType::F32, vec![1, 32]).into();
        assert_eq!(op_work(&reverse(vec![0]), &[&u], &u).fusion, Fusion::Fused);
        let dims = ReduceWindowDims {
            size: vec![1, 2, 2, 1],
            window: Window {
                strides: vec![1, 2, 2, 1],
                ..Window::unit(4)
            },
        };
        let source: Type = TensorType::new(DType::F32, vec![8, 16, 16, 16]).into();
        let op = Op::SelectAndScatter {
            select: SelectKind::Ge,
            dims: Box::new(dims),
        };
        let w = op_work(&op, &[&t, &source, &scalar], &t);
        assert_eq!(w.fusion, Fusion::Kernel);
        // Per window: 4 comparisons and one addition.
        assert_eq!(w.flops, 8.0 * 16.0 * 16.0 * 16.0 * 5.0);
    }

    #[test]
    fn a_gather_reads_its_slices_and_a_scatter_copies_its_operand() {
        use ptir_ir::{DType, GatherDims, IndexDims, ScatterKind, TensorType};
        // An embedding lookup of 256 rows of 128 floats from a 50000-row table.
        let table: Type = TensorType::new(DType::F32, vec![50000, 128]).into();
        let ids: Type = TensorType::new(DType::I32, vec![256, 1]).into();
        let rows: Type = TensorType::new(DType::F32, vec![256, 128]).into();
        let dims = IndexDims {
            window_dims: vec![1],
            collapsed_dims: vec![0],
            start_index_map: vec![0],
            index_vector_dim: 1,
            ..IndexDims::default()
        };
        let gather = Op::Gather(Box::new(GatherDims {
            dims: dims.clone(),
            slice_sizes: vec![1, 128],
        }));
        let w = op_work(&gather, &[&table, &ids], &rows);
        assert_eq!(w.fusion, Fusion::Kernel);
        // The ids, the rows read and the rows written: not the 25.6 MB table.
        assert_eq!(w.bytes, 1024.0 + 2.0 * 256.0 * 128.0 * 4.0);
        // Its transpose adds the rows back: a copy of the table and the updates' kernel.
        let scatter = Op::Scatter {
            kind: ScatterKind::Add,
            dims: Box::new(dims),
        };
        let w = op_work(&scatter, &[&table, &ids, &rows], &table);
        assert_eq!(w.fusion, Fusion::Kernel);
        assert_eq!(w.flops, 256.0 * 128.0);
        let table_bytes = 50000.0 * 128.0 * 4.0;
        assert_eq!(
            w.bytes,
            2.0 * table_bytes + 1024.0 + 3.0 * 256.0 * 128.0 * 4.0
        );
    }

    #[test]
    fn order_ops_are_kernels_priced_by_their_comparisons() {
        use ptir_ir::{ArgKind, DType, TensorType};
        let x: Type = TensorType::new(DType::F32, vec![32, 128]).into();
        let i: Type = TensorType::new(DType::I32, vec![32, 128]).into();
        let sort = Op::Sort {
            dim: 1,
            keys: 1,
            descending: false,
            stable: true,
            total_order: false,
        };
        let pair = Type::Tuple(vec![x.clone(), i.clone()]);
        let w = op_work(&sort, &[&x, &i], &pair);
        assert_eq!(w.fusion, Fusion::Kernel);
        // log2(128) = 7 compare-and-moves per element of each of the two operands.
        assert_eq!(w.flops, 32.0 * 128.0 * 7.0 * 2.0);
        let k: Type = TensorType::new(DType::F32, vec![32, 4]).into();
        let ki: Type = TensorType::new(DType::I32, vec![32, 4]).into();
        let top = op_work(&Op::TopK { k: 4 }, &[&x], &Type::Tuple(vec![k, ki]));
        assert_eq!(top.flops, 32.0 * 128.0 * 3.0);
        let s: Type = TensorType::scalar(DType::F32).into();
        let si: Type = TensorType::scalar(DType::I32).into();
        let r: Type = TensorType::new(DType::F32, vec![32]).into();
        let ri: Type = TensorType::new(DType::I32, vec![32]).into();
        let arg = Op::ArgReduce {
            kind: ArgKind::Max,
            axes: vec![1],
        };
        let w = op_work(&arg, &[&x, &i, &s, &si], &Type::Tuple(vec![r, ri]));
        assert_eq!((w.fusion, w.flops), (Fusion::Kernel, 6.0 * 32.0 * 128.0));
    }

    #[test]
    fn a_stored_constant_costs_the_bytes_it_loads_and_a_splat_nothing() {
        let m = Roofline::default();
        let t: Type = ptir_ir::TensorType::new(ptir_ir::DType::I32, vec![512, 512]).into();
        let dense = ptir_ir::Literal::Dense(ptir_ir::Data::Int((0..512 * 512).collect()));
        let splat = ptir_ir::Literal::Splat(ptir_ir::Scalar::Int(7));
        let loaded = m.op_cost(&Op::Constant(dense), &[], &t);
        assert!((loaded - m.machine.memory_us(1024.0 * 1024.0)).abs() < 1e-12);
        assert!(loaded > 10.0, "1 MB at ~80 GB/s is ~13 us, not {loaded}");
        assert_eq!(m.op_cost(&Op::Constant(splat), &[], &t), 0.0);
        // The mask a causal attention computes from iotas costs less computed than stored.
        let b: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![128, 128]).into();
        let iota = m.op_cost(&Op::Iota { dim: 0 }, &[], &b);
        let cmp = m.op_cost(&Op::Compare(ptir_ir::CmpOp::Ge), &[&b, &b], &b);
        let stored = m.machine.memory_us(128.0 * 128.0 * 4.0);
        assert!(2.0 * iota + cmp < stored, "{iota} {cmp} {stored}");
    }

    #[test]
    fn a_run_pays_for_its_arguments_and_results_once() {
        let p = program(
            "func @g(%x: f32[1024]) -> (f32[1024]) {\n  %y = neg %x : f32[1024]\n  return %y\n}\n\
             func @f(%x: f32[1024]) -> (f32[1024]) {\n  %y = call @g(%x) : f32[1024]\n  return %y\n}",
        );
        let m = roofline(&p);
        let t: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![1024]).into();
        let entry = m.entry_cost(&[&t], &[&t]);
        let neg = m.machine.compute_us(1024.0);
        // @g is called: its body counts, its entry does not; the call itself costs nothing.
        assert!((program_cost(&p, &m) - (entry + neg)).abs() < 1e-12);
    }

    #[test]
    fn a_call_pays_its_callee_each_time_and_a_loop_each_iteration() {
        let twice = program(
            "func @g(%x: f32[1024]) -> (f32[1024]) {\n  %y = neg %x : f32[1024]\n  return %y\n}\n\
             func @f(%x: f32[1024]) -> (f32[1024]) {\n  %y = call @g(%x) : f32[1024]\n  \
             %z = call @g(%y) : f32[1024]\n  return %z\n}",
        );
        let m = roofline(&twice);
        let t: Type = ptir_ir::TensorType::new(ptir_ir::DType::F32, vec![1024]).into();
        let (entry, neg) = (m.entry_cost(&[&t], &[&t]), m.machine.compute_us(1024.0));
        assert!((program_cost(&twice, &m) - (entry + 2.0 * neg)).abs() < 1e-12);
        // Ten iterations of a `neg` and a counter, with the condition tested eleven times.
        let looped = program(
            "func @f(%x: f32[1024]) -> (f32[1024]) {\n  %0 = constant splat(0) : i32[]\n  \
             %1 = while %0, %x : (i32[], f32[1024]) {\n  ^(%2: i32[], %3: f32[1024]):\n    \
             %4 = constant splat(10) : i32[]\n    %5 = lt %2, %4 : bool[]\n    yield %5\n  } {\n  \
             ^(%6: i32[], %7: f32[1024]):\n    %8 = constant splat(1) : i32[]\n    \
             %9 = add %6, %8 : i32[]\n    %10 = neg %7 : f32[1024]\n    yield %9, %10\n  }\n  \
             %11 = tuple_get %1 index=1 : f32[1024]\n  return %11\n}",
        );
        let m = roofline(&looped);
        let (lt, add) = (m.machine.compute_us(1.0), m.machine.compute_us(1.0));
        // Both carried values change: each iteration writes them and copies them back.
        let counter: Type = ptir_ir::TensorType::scalar(ptir_ir::DType::I32).into();
        let per_iteration = m.loop_iteration_cost(&[&counter, &t]);
        let copies = m.machine.memory_us(4.0 * (4.0 + 4096.0));
        assert!((per_iteration - (LOOP_ITERATION_US + copies)).abs() < 1e-12);
        let expected = entry + 11.0 * lt + 10.0 * (add + neg + per_iteration);
        let got = program_cost(&looped, &m);
        assert!((got - expected).abs() < 1e-9, "{got} against {expected}");
        // A million iterations: priced at the iterations the control was run for, a lower
        // bound (not once, which would make it cheaper than ten).
        let long = program(&ptir_ir::print(&looped).replace("splat(10)", "splat(1000000)"));
        let priced = crate::PRICED_TRIPS as f64;
        let got = program_cost(&long, &m);
        let expected = entry + (priced + 1.0) * lt + priced * (add + neg + per_iteration);
        assert!((got - expected).abs() < 1e-6, "{got} against {expected}");
        // Its bound an argument: the trip count is unknown, the body paid once.
        let unknown = program(&loop_bounded_by_an_argument());
        let m = roofline(&unknown);
        let once = program_cost(&unknown, &m);
        assert!(once < entry + 2.0 * (lt + add + neg), "{once}");
    }

    fn loop_bounded_by_an_argument() -> String {
        "func @f(%x: f32[1024], %n: i32[]) -> (f32[1024]) {\n  %0 = constant splat(0) : i32[]\n  \
         %1 = while %0, %x : (i32[], f32[1024]) {\n  ^(%2: i32[], %3: f32[1024]):\n    \
         %5 = lt %2, %n : bool[]\n    yield %5\n  } {\n  \
         ^(%6: i32[], %7: f32[1024]):\n    %8 = constant splat(1) : i32[]\n    \
         %9 = add %6, %8 : i32[]\n    %10 = neg %7 : f32[1024]\n    yield %9, %10\n  }\n  \
         %11 = tuple_get %1 index=1 : f32[1024]\n  return %11\n}"
            .to_string()
    }

    #[test]
    fn machine_parameters_are_checked() {
        assert!(Machine::REFERENCE.check().is_ok());
        for bad in [
            Machine {
                peak_gflops: 0.0,
                ..Machine::REFERENCE
            },
            Machine {
                bandwidth_gbs: f64::NAN,
                ..Machine::REFERENCE
            },
            Machine {
                kernel_overhead_us: -1.0,
                ..Machine::REFERENCE
            },
            Machine {
                dispatch_overhead_us: f64::INFINITY,
                ..Machine::REFERENCE
            },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
    }
}
