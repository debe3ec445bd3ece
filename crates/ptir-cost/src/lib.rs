//! Cost models: what an op costs, from its kind, attributes and types, on the runtime an
//! output is for (`ptir-cost`, the crate both engines and the facade price programs with).
//!
//! A [`CostModel`] prices one op given its operand and result types; the cost of a program
//! (or of an extracted e-graph, DAG-wise) is the sum over its ops. Costs must be finite and
//! non-negative: extractors add them up and compare sums.
//!
//! - [`Roofline`] (the default, `roofline.rs`): predicted microseconds on a CPU runtime that
//!   fuses, as IREE does: a kernel (`dot_general`, `reduce`, gathers, opaque calls) pays a
//!   launch overhead plus `max(flops / peak, bytes / bandwidth)`; elementwise and layout ops
//!   fuse into the kernels around them and pay only their arithmetic; a stored constant pays
//!   the bytes it loads; a fused extern pays its defining body. Machine parameters are
//!   [`Machine`] values fitted on a real runtime, and what a runtime does beyond its speed
//!   (loop iterations, ragged products) is its [`Behaviour`] (IREE's or XLA's).
//! - [`Roofline::measured`] (`roofline/measured.rs`): the roofline with a [`CostTable`] of kernels timed one by
//!   one in IREE or XLA (`scripts/calibrate.py --runtime`); kernels the table lacks fall back to the roofline,
//!   and the model says which ([`CostModel::notes`]).
//! - [`TensorCost`] (`tensor.rs`): FLOPs and bytes moved, unit-free, the model before the
//!   roofline.
//! - [`OpCount`]: every instruction costs 1 — the model of "fewer ops".
//! - [`FnCost`]: any closure.
//!
//! ```
//! use ptir_cost::{program_cost, CostModel, OpCount, TensorCost};
//! let p = ptir_ir::parse("func @f(%a: f32[4,8], %b: f32[8,16]) -> (f32[4,16]) {\n  \
//!     %c = dot_general %a, %b lhs_contract=[1] rhs_contract=[0] : f32[4,16]\n  return %c\n}").unwrap();
//! assert_eq!(program_cost(&p, &OpCount), 1.0);
//! assert_eq!(program_cost(&p, &TensorCost::default()), 2.0 * 4.0 * 16.0 * 8.0);
//! ```

mod calibration;
mod roofline;
mod tensor;

pub use calibration::{collect_kernels, Kernel};
pub use roofline::{
    element_flops, op_work, ragged_dot_dim, Behaviour, Fusion, Machine, OpWork, Roofline,
    DIVISION_FLOPS, DOT_TILE, FLOAT_REDUCTION_FLOPS, FLOAT_REMAINDER_FLOPS, INTEGER_DIVISION_FLOPS,
    LOOP_ITERATION_US, RAGGED_DOT_EFFICIENCY, RAGGED_DOT_MIN, TRANSCENDENTAL_FLOPS,
    VECTOR_MATRIX_READ_FACTOR, WIDE_DOT_COLUMNS, WIDE_DOT_EFFICIENCY, XLA_LOOP_ITERATION_US,
};
pub use roofline::{CostTable, CostTableError, TableMachine, COST_TABLE_VERSION};
pub use tensor::TensorCost;

use indexmap::IndexMap;
use ptir_ir::{Op, Program, Type, ValueId};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Prices one op.
pub trait CostModel: Send + Sync {
    /// The model's name, for reports.
    fn name(&self) -> &str;
    /// The cost of `op` applied to operands of types `operands`, giving `result`.
    fn op_cost(&self, op: &Op, operands: &[&Type], result: &Type) -> f64;
    /// The fixed cost of running a function with these parameter and result types, whatever
    /// its body: reading its arguments and writing its results. Extraction never sees it (it is
    /// the same for every choice); [`program_cost`] adds it once per entry function, so that a
    /// predicted speedup (cost before / cost after) is a ratio of whole runs. Default 0.
    fn entry_cost(&self, _params: &[&Type], _results: &[&Type]) -> f64 {
        0.0
    }
    /// Whether `op` (giving `result`) runs as a kernel that reads its operands from memory and
    /// writes its result there, paying for those bytes in its own cost: a run's entry then
    /// does not pay again for the arguments such kernels read or the results they write
    /// ([`program_cost`]). Default false.
    fn pays_its_own_traffic(&self, op: &Op, result: &Type) -> bool {
        let _ = (op, result);
        false
    }
    /// What the model wants the report to say after pricing (e.g. ops a measured table
    /// lacked). Default none.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }
    /// The cost of one iteration of a loop beyond its body's instructions, whose body changes
    /// the carried values of types `changed` (the others it yields back as they came in or
    /// updates in place, with a `dynamic_update_slice`):
    /// [`program_cost`] adds it per iteration of every loop whose trip count it knows.
    /// Default 0.
    fn loop_iteration_cost(&self, changed: &[&Type]) -> f64 {
        let _ = changed;
        0.0
    }
    /// The cost of `inst` in a program, whose `dataflow` says what produces its operands and
    /// who uses its result: what a runtime fuses across ops (a sum of products of broadcasts
    /// runs as one contraction) and materializes (a value several kernels read). Default
    /// [`CostModel::op_cost`]. [`program_cost`] prices with it; extraction, which prices
    /// e-nodes one by one, and [`program_dag_cost_with_entries`] with `op_cost`.
    fn inst_cost(
        &self,
        inst: &ptir_ir::Instruction,
        operands: &[&Type],
        dataflow: &Dataflow<'_>,
    ) -> f64 {
        let _ = dataflow;
        self.op_cost(&inst.op, operands, &inst.ty)
    }
}

/// A function's dataflow, for [`CostModel::inst_cost`]: the instruction that defines each
/// value, and how many instructions (a `return` or `yield` counting as one) use it.
pub struct Dataflow<'p> {
    producers: FxHashMap<ValueId, &'p ptir_ir::Instruction>,
    params: FxHashMap<ValueId, &'p Type>,
    users: FxHashMap<ValueId, u32>,
}

impl<'p> Dataflow<'p> {
    /// The dataflow of `f`, region bodies included.
    pub fn of(f: &'p ptir_ir::Function) -> Self {
        let mut flow = Dataflow {
            producers: FxHashMap::default(),
            params: f.body.params.iter().map(|p| (p.id, &p.ty)).collect(),
            users: FxHashMap::default(),
        };
        let count = |users: &mut FxHashMap<ValueId, u32>, values: &[ValueId]| {
            for (k, v) in values.iter().enumerate() {
                if !values[..k].contains(v) {
                    *users.entry(*v).or_default() += 1;
                }
            }
        };
        count(&mut flow.users, &f.body.results);
        f.body.walk(&mut |i, _| {
            flow.producers.insert(i.result, i);
            count(&mut flow.users, &i.operands);
            for r in i.op.regions() {
                count(&mut flow.users, &r.results);
                flow.params.extend(r.params.iter().map(|p| (p.id, &p.ty)));
            }
        });
        flow
    }

    /// The type of `v` if it is a parameter of the function or of one of its regions.
    pub fn param_type(&self, v: ValueId) -> Option<&'p Type> {
        self.params.get(&v).copied()
    }

    /// The type of `v`, computed or a parameter.
    pub fn type_of(&self, v: ValueId) -> Option<&'p Type> {
        match self.producer(v) {
            Some(i) => Some(&i.ty),
            None => self.param_type(v),
        }
    }

    /// The types of `inst`'s operands (those the dataflow knows).
    pub fn operand_types(&self, inst: &ptir_ir::Instruction) -> Vec<&'p Type> {
        inst.operands
            .iter()
            .filter_map(|&v| self.type_of(v))
            .collect()
    }

    /// The instruction that defines `v`; `None` for a parameter.
    pub fn producer(&self, v: ValueId) -> Option<&'p ptir_ir::Instruction> {
        self.producers.get(&v).copied()
    }

    /// How many instructions use `v` (each once, however many of its operands it is).
    pub fn users(&self, v: ValueId) -> usize {
        self.users.get(&v).copied().unwrap_or(0) as usize
    }
}

/// One per instruction.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpCount;

impl CostModel for OpCount {
    fn name(&self) -> &str {
        "ops"
    }

    fn op_cost(&self, _: &Op, _: &[&Type], _: &Type) -> f64 {
        1.0
    }
}

/// The signature of a closure cost model: op, operand types, result type.
pub type CostFn = dyn Fn(&Op, &[&Type], &Type) -> f64 + Send + Sync;

/// A cost model from a closure.
#[derive(Clone)]
pub struct FnCost {
    name: String,
    f: Arc<CostFn>,
}

impl FnCost {
    /// A model named `name` that prices ops with `f`.
    pub fn new(
        name: &str,
        f: impl Fn(&Op, &[&Type], &Type) -> f64 + Send + Sync + 'static,
    ) -> Self {
        FnCost {
            name: name.to_string(),
            f: Arc::new(f),
        }
    }
}

impl CostModel for FnCost {
    fn name(&self) -> &str {
        &self.name
    }

    fn op_cost(&self, op: &Op, operands: &[&Type], result: &Type) -> f64 {
        (self.f)(op, operands, result)
    }
}

/// The types of a function's values by id: a table indexed by id for the ids below a bound
/// proportional to the function's size (the numbers parsed and rewritten programs use), a
/// hash map beyond it.
struct ValueTypes<'p> {
    dense: Vec<Option<&'p Type>>,
    sparse: FxHashMap<ValueId, &'p Type>,
}

impl<'p> ValueTypes<'p> {
    fn new(values: usize) -> Self {
        ValueTypes {
            dense: vec![None; 2 * values + 1024],
            sparse: FxHashMap::default(),
        }
    }

    fn insert(&mut self, v: ValueId, ty: &'p Type) {
        match self.dense.get_mut(v.0 as usize) {
            Some(slot) => *slot = Some(ty),
            None => {
                self.sparse.insert(v, ty);
            }
        }
    }

    fn get(&self, v: ValueId) -> Option<&'p Type> {
        match self.dense.get(v.0 as usize) {
            Some(slot) => *slot,
            None => self.sparse.get(&v).copied(),
        }
    }
}

/// The entry of `map` for a call of `callee`: its own, else that of the extern it is an
/// outlined or renamed instance of (`@linear_0` and `@ptir.linear` find `linear`'s).
pub(crate) fn extern_entry<'m, T>(map: &'m IndexMap<String, T>, callee: &str) -> Option<&'m T> {
    if let Some(c) = map.get(callee) {
        return Some(c);
    }
    let base = ptir_rules::externs::base_name(callee);
    map.iter()
        .find(|(name, _)| ptir_rules::callee_matches(name, base))
        .map(|(_, c)| c)
}

/// A cost as reports print it: whole numbers as they are, others to six significant digits
/// (a roofline's microseconds are sums of tiny fractions; their last digits are noise), and
/// from 10^15 up in scientific notation.
///
/// ```
/// use ptir_cost::format_cost;
/// assert_eq!(format_cost(10256.0), "10256");
/// assert_eq!(format_cost(17.193938556295674), "17.1939");
/// assert_eq!(format_cost(0.000123456789), "0.000123457");
/// assert_eq!(format_cost(1.5e300), "1.50000e300");
/// ```
pub fn format_cost(x: f64) -> String {
    if !x.is_finite() || (x.fract() == 0.0 && x.abs() < 1e15) {
        return format!("{x}");
    }
    if x.abs() >= 1e15 {
        return format!("{x:.5e}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = (5 - magnitude).clamp(0, 17) as usize;
    let s = format!("{x:.decimals$}");
    match s.contains('.') {
        true => s.trim_end_matches('0').trim_end_matches('.').to_string(),
        false => s,
    }
}

pub(crate) fn elements(t: &Type) -> f64 {
    match t {
        Type::Tensor(t) => t.num_elements() as f64,
        Type::Tuple(ts) => ts.iter().map(elements).sum(),
    }
}

pub(crate) fn bytes(t: &Type) -> f64 {
    t.size_bytes() as f64
}

/// `2·M·N·K` of a `dot_general` with dims `d` on these operands giving `n` elements: the
/// product of the contracted lhs dims is `K` (a missing operand or dim counts as 1).
pub(crate) fn dot_flops(d: &ptir_ir::DotDims, operands: &[&Type], n: f64) -> f64 {
    let k: f64 = operands
        .first()
        .and_then(|t| t.as_tensor())
        .map_or(1.0, |l| {
            d.lhs_contract
                .iter()
                .map(|&i| l.shape.get(i).copied().unwrap_or(1) as f64)
                .product()
        });
    2.0 * n * k
}

/// `2·N·K` of a `convolution` giving `n` elements: each output element takes `K` products
/// and sums, `K` the kernel's elements per output feature (its input features times its
/// window; a missing operand counts as 1).
pub(crate) fn conv_flops(c: &ptir_ir::ConvDims, operands: &[&Type], n: f64) -> f64 {
    let k = operands
        .get(1)
        .and_then(|t| t.as_tensor())
        .map_or(1.0, |r| {
            let out_features = r.shape.get(c.kernel[0]).copied().unwrap_or(1).max(1);
            (r.num_elements() / out_features) as f64
        });
    2.0 * n * k
}

/// One step per window position per output element of a `reduce_window` giving `n`
/// elements.
pub(crate) fn window_flops(w: &ptir_ir::ReduceWindowDims, n: f64) -> f64 {
    n * w.size.iter().map(|&k| k as f64).product::<f64>()
}

/// The work of a `select_and_scatter`: for each source element (one per window), a
/// comparison per window position and one addition.
pub(crate) fn select_scatter_flops(w: &ptir_ir::ReduceWindowDims, operands: &[&Type]) -> f64 {
    let windows = operands
        .get(1)
        .and_then(|t| t.as_tensor())
        .map_or(1.0, |t| t.num_elements() as f64);
    windows * (window_flops(w, 1.0) + 1.0)
}

/// The work of a `scatter_*` beyond the copy of its operand: one combine per update element
/// (FLOPs), and the bytes of the indices plus a read of each update and a read-modify-write
/// of the element it lands on.
pub(crate) fn scatter_work(operands: &[&Type]) -> (f64, f64) {
    let size = |i: usize| operands.get(i).and_then(|t| t.as_tensor());
    let ids = size(1).map_or(0.0, |t| t.size_bytes() as f64);
    let updates = size(2).map_or(0.0, |t| t.size_bytes() as f64);
    let n = size(2).map_or(0.0, |t| t.num_elements() as f64);
    (n, ids + 3.0 * updates)
}

/// The comparisons of an op that orders elements, from its first operand's `n` elements and
/// `len` elements per line: `reduce_arg*` a step of about six scalar ops (three compares, two
/// selects, the logic) per element, `sort` `log2(len)` compare-and-moves per element of every
/// operand (a merge sort of each line), `top_k` `log2(k) + 1` per element (a heap of `k`);
/// `None` for other ops.
pub(crate) fn order_flops(op: &ptir_ir::Op, operands: &[&Type]) -> Option<f64> {
    let first = operands.first().and_then(|t| t.as_tensor());
    let n = first.map_or(1.0, |t| t.num_elements() as f64);
    let line = |dim: usize| {
        first
            .and_then(|t| t.shape.get(dim))
            .map_or(1.0, |&l| (l.max(2) as f64).log2())
    };
    match op {
        ptir_ir::Op::ArgReduce { .. } => Some(6.0 * n),
        ptir_ir::Op::Sort { dim, .. } => Some(n * line(*dim) * operands.len() as f64),
        ptir_ir::Op::TopK { k } => Some(n * ((*k).max(1) as f64).log2() + n),
        _ => None,
    }
}

/// Visits every instruction of `f` in pre-order (an op before its regions' instructions) with
/// the types of its operands: earlier values, region parameters and captures are typed before
/// their use. An operand of unknown type (only in a program that does not verify) is left
/// out of the slice.
pub(crate) fn visit_typed<'p>(
    f: &'p ptir_ir::Function,
    visit: &mut impl FnMut(&'p ptir_ir::Instruction, &[&'p Type]),
) {
    let mut types = ValueTypes::new(f.body.params.len() + f.body.insts.len());
    for p in &f.body.params {
        types.insert(p.id, &p.ty);
    }
    let mut operands: Vec<&Type> = Vec::new();
    f.body.walk(&mut |i, _| {
        operands.clear();
        operands.extend(i.operands.iter().filter_map(|&v| types.get(v)));
        visit(i, &operands);
        types.insert(i.result, &i.ty);
        for r in i.op.regions() {
            for p in &r.params {
                types.insert(p.id, &p.ty);
            }
        }
    });
}

/// The cost of `f`'s instructions under `model`, region bodies included (once each).
pub fn function_cost(f: &ptir_ir::Function, model: &dyn CostModel) -> f64 {
    let mut total = 0.0;
    visit_typed(f, &mut |i, operands| {
        total += model.op_cost(&i.op, operands, &i.ty)
    });
    total
}

/// The cost of one run of `f` on its own, as a program's cost counts it: its instructions as
/// the runtime runs them ([`CostModel::inst_cost`]: what fuses, what a value with several
/// users writes to memory), region bodies once each, calls at their op cost, plus
/// [`CostModel::entry_cost`] for the parameters and results no kernel moves. What an engine
/// compares to decide whether its output may replace the input function: [`function_cost`]
/// sums op costs alone, and a function it priced cheaper could run slower.
///
/// ```
/// use ptir_cost::{function_cost, function_run_cost_with_entry, Roofline};
/// // A run of fused elementwise ops reads its parameters and writes its results: op costs
/// // alone leave that traffic out.
/// let p = ptir_ir::parse(
///     "func @f(%x: f32[256]) -> (f32[256]) {\n  %m = max %x, %x : f32[256]\n  \
///      %a = add %m, %m : f32[256]\n  return %a\n}",
/// )?;
/// let (model, f) = (Roofline::default(), &p.functions[0]);
/// assert!(function_run_cost_with_entry(f, &model) > function_cost(f, &model));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn function_run_cost_with_entry(f: &ptir_ir::Function, model: &dyn CostModel) -> f64 {
    function_run_cost(f, model) + run_entry_cost(f, model)
}

/// The cost of `f`'s instructions as a program runs them ([`CostModel::inst_cost`]), region
/// bodies once each.
pub(crate) fn function_run_cost(f: &ptir_ir::Function, model: &dyn CostModel) -> f64 {
    let dataflow = Dataflow::of(f);
    let mut total = 0.0;
    visit_typed(f, &mut |i, operands| {
        total += model.inst_cost(i, operands, &dataflow)
    });
    total
}

/// The cost of a program: a run of every entry function (one no other function calls), plus
/// [`CostModel::entry_cost`] for each. A run is the sum over its instructions, where a call of
/// a function of the program costs a run of that function (recursion: nothing more), and a
/// `while` whose trip count is known at compile time ([`ptir_ir::static_trip_counts`], at most
/// [`PRICED_TRIPS`]) pays its body once per iteration, its condition once more, and
/// [`CostModel::loop_iteration_cost`] per iteration (given the carried values its body
/// changes); other region bodies are paid once.
/// Functions that define a fused extern (an outlined `@linear_0`) are not counted: their calls
/// are priced as the extern. (Extraction prices each function's instructions once, the
/// weights of a loop body aside: within a function, the cheapest choice is the same.)
pub fn program_cost(program: &Program, model: &dyn CostModel) -> f64 {
    program_cost_with_entries(program, model, &entry_functions(program))
}

/// The functions no function of `program` calls: its entry points, as [`program_cost`] takes
/// them.
pub fn entry_functions(program: &Program) -> Vec<String> {
    let mut called: rustc_hash::FxHashSet<&str> = Default::default();
    for f in &program.functions {
        f.body.walk(&mut |i, _| {
            if let Op::Call { callee } = &i.op {
                called.insert(callee);
            }
        });
    }
    (program.functions.iter())
        .filter(|f| !called.contains(f.name.as_str()))
        .map(|f| f.name.clone())
        .collect()
}

/// [`program_cost`] with the entry functions given: an optimized program is priced with the
/// entries of its input, since a helper whose only call optimization deleted is not a new
/// entry point (it made a random program look costlier than its input).
pub fn program_cost_with_entries(
    program: &Program,
    model: &dyn CostModel,
    entries: &[String],
) -> f64 {
    // Priced as the runtime runs it, inlined: what fuses and what a kernel writes to memory
    // is decided across calls (a helper's argument that its body reads three times is
    // written by the caller's kernel).
    let inlined;
    let program = match calls_own_functions(program) {
        true => {
            inlined = ptir_pass::transform::inline_calls(program).0;
            &inlined
        }
        false => program,
    };
    let runs = Runs::of(program, model);
    let mut total = 0.0;
    for f in &program.functions {
        if ptir_rules::externs::defined_by(f).is_some() || !entries.contains(&f.name) {
            continue;
        }
        total += runs.cost(&f.name);
        total += run_entry_cost(f, model);
    }
    total
}

/// [`CostModel::entry_cost`] of a run of `f` for the parameters and results whose bytes no
/// kernel of `f` pays already ([`CostModel::pays_its_own_traffic`]): a matrix product reads
/// its argument and writes its result itself, where a chain of fused elementwise ops leaves
/// both to the run.
pub(crate) fn run_entry_cost(f: &ptir_ir::Function, model: &dyn CostModel) -> f64 {
    let mut moved_by_kernels: rustc_hash::FxHashSet<ValueId> = Default::default();
    f.body.walk(&mut |i, _| {
        if model.pays_its_own_traffic(&i.op, &i.ty) {
            moved_by_kernels.extend(i.operands.iter().copied());
            moved_by_kernels.insert(i.result);
        }
    });
    let params: Vec<&Type> = (f.body.params.iter())
        .filter(|p| !moved_by_kernels.contains(&p.id))
        .map(|p| &p.ty)
        .collect();
    let results: Vec<&Type> = (f.body.results.iter().zip(&f.result_types))
        .filter(|(v, _)| !moved_by_kernels.contains(v))
        .map(|(_, t)| t)
        .collect();
    model.entry_cost(&params, &results)
}

/// Whether some function of `program` calls another of its functions.
fn calls_own_functions(program: &Program) -> bool {
    ptir_ir::analysis::call_edges(program)
        .iter()
        .any(|calls| !calls.is_empty())
}

/// The functions of `program`, each after the functions it calls (a cycle in some order), by
/// an iterative depth-first search of the call graph.
fn callees_first(program: &Program) -> Vec<&ptir_ir::Function> {
    let edges = ptir_ir::analysis::call_edges(program);
    let mut seen = vec![false; program.functions.len()];
    let mut order = Vec::with_capacity(program.functions.len());
    for root in 0..program.functions.len() {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, &edges[root], 0)];
        while let Some((f, next, at)) = stack.last_mut() {
            match next.get(*at).copied() {
                Some(g) => {
                    *at += 1;
                    if !seen[g] {
                        seen[g] = true;
                        stack.push((g, &edges[g], 0));
                    }
                }
                None => {
                    order.push(&program.functions[*f]);
                    stack.pop();
                }
            }
        }
    }
    order
}

/// The cost of `program` as extraction prices it: every instruction once (a region body
/// once, not per iteration; a function once, not per call), plus [`CostModel::entry_cost`]
/// for each of `entries`. Within one function, the program extraction picks is the cheapest
/// under this sum, which is what [`program_cost`] cannot promise (it weighs a loop body by its
/// trip count): the differential tester's cost claim is about this one.
pub fn program_dag_cost_with_entries(
    program: &Program,
    model: &dyn CostModel,
    entries: &[String],
) -> f64 {
    let mut total = 0.0;
    for f in &program.functions {
        if ptir_rules::externs::defined_by(f).is_some() {
            continue;
        }
        total += function_cost(f, model);
        if entries.contains(&f.name) {
            total += function_entry_cost(f, model);
        }
    }
    total
}

/// [`CostModel::entry_cost`] of a run of `f`: all its parameters read, all its results
/// written (the DAG cost's, the same for every choice extraction makes).
fn function_entry_cost(f: &ptir_ir::Function, model: &dyn CostModel) -> f64 {
    let params: Vec<&Type> = f.body.params.iter().map(|p| &p.ty).collect();
    let results: Vec<&Type> = f.result_types.iter().collect();
    model.entry_cost(&params, &results)
}

/// The most iterations [`program_cost`] runs a loop's control at compile time to price it (a
/// longer loop is priced at this many: a lower bound; simulating 65,536 took 90 ms).
pub const PRICED_TRIPS: usize = 1024;

/// The cost of a run of each function of a program ([`program_cost`]), callees priced before
/// their callers, without recursion (a chain of 20,000 functions each calling the next is a
/// program like any other).
struct Runs<'p> {
    model: &'p dyn CostModel,
    /// A function's run, once priced; a call of one not yet priced (a call back into a cycle)
    /// costs nothing more.
    memo: FxHashMap<&'p str, f64>,
}

impl<'p> Runs<'p> {
    fn of(program: &'p Program, model: &'p dyn CostModel) -> Self {
        let mut runs = Runs {
            model,
            memo: FxHashMap::default(),
        };
        for f in callees_first(program) {
            if ptir_rules::externs::defined_by(f).is_some() {
                continue;
            }
            let mut own: FxHashMap<*const ptir_ir::Instruction, f64> = FxHashMap::default();
            let dataflow = Dataflow::of(f);
            visit_typed(f, &mut |i, operands| {
                own.insert(i, model.inst_cost(i, operands, &dataflow));
            });
            let trips = ptir_ir::static_trip_counts(f, PRICED_TRIPS);
            let cost = runs.block(&f.body, &own, &trips);
            runs.memo.insert(&f.name, cost);
        }
        runs
    }

    fn cost(&self, name: &str) -> f64 {
        self.memo.get(name).copied().unwrap_or(0.0)
    }

    fn block(
        &self,
        region: &ptir_ir::Region,
        own: &FxHashMap<*const ptir_ir::Instruction, f64>,
        trips: &FxHashMap<ValueId, usize>,
    ) -> f64 {
        let mut total = 0.0;
        for i in &region.insts {
            total += own.get(&(i as *const _)).copied().unwrap_or(0.0);
            if let Op::Call { callee } = &i.op {
                total += self.cost(callee);
            }
            match (&i.op, trips.get(&i.result)) {
                (Op::While { cond, body }, Some(&t)) => {
                    let t = t as f64;
                    // A carried value the body updates in place is not copied.
                    let in_place: rustc_hash::FxHashSet<ValueId> = (body.insts.iter())
                        .filter(|i| i.op == Op::DynamicUpdateSlice)
                        .map(|i| i.result)
                        .collect();
                    let changed: Vec<&Type> = (body.params.iter().zip(&body.results))
                        .filter(|(p, r)| p.id != **r && !in_place.contains(r))
                        .map(|(p, _)| &p.ty)
                        .collect();
                    total += (t + 1.0) * self.block(cond, own, trips)
                        + t * (self.block(body, own, trips)
                            + self.model.loop_iteration_cost(&changed));
                }
                _ => {
                    for r in i.op.regions() {
                        total += self.block(r, own, trips);
                    }
                }
            }
        }
        total
    }
}
