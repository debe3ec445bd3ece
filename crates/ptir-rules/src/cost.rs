//! Cost models: what an op costs, from its kind, attributes and types.
//!
//! A [`CostModel`] prices one op given its operand and result types; the cost of a program
//! (or of an extracted e-graph, DAG-wise) is the sum over its ops. Costs must be finite and
//! non-negative: extractors add them up and compare sums.
//!
//! - [`OpCount`]: every instruction costs 1 — the model of "fewer ops".
//! - [`TensorCost`]: FLOPs and bytes moved, from the shapes: `dot_general` costs
//!   `2·M·N·K`, elementwise ops one FLOP per element (transcendental ones more), reductions
//!   one per input element, `reshape` nothing, `transpose`/`broadcast`/`slice`/`concat` the
//!   bytes they move, fused extern calls their declared cost per output element.
//! - [`FnCost`]: any closure.
//!
//! ```
//! use ptir_rules::cost::{program_cost, CostModel, OpCount, TensorCost};
//! let p = ptir_ir::parse("func @f(%a: f32[4,8], %b: f32[8,16]) -> (f32[4,16]) {\n  \
//!     %c = dot_general %a, %b lhs_contract=[1] rhs_contract=[0] : f32[4,16]\n  return %c\n}").unwrap();
//! assert_eq!(program_cost(&p, &OpCount), 1.0);
//! assert_eq!(program_cost(&p, &TensorCost::default()), 2.0 * 4.0 * 16.0 * 8.0);
//! ```

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

/// FLOPs plus weighted bytes moved.
#[derive(Clone, Debug)]
pub struct TensorCost {
    /// Cost of one byte moved by a layout op, in FLOPs (default 0.25).
    pub byte_weight: f64,
    /// Cost of a transcendental function per element, in FLOPs (default 4).
    pub transcendental: f64,
    /// Cost per output element of calls to these externs (fused library ops); calls to other
    /// callees cost one FLOP per output element.
    pub extern_costs: IndexMap<String, f64>,
}

impl Default for TensorCost {
    fn default() -> Self {
        TensorCost {
            byte_weight: 0.25,
            transcendental: 4.0,
            extern_costs: IndexMap::new(),
        }
    }
}

fn elements(t: &Type) -> f64 {
    match t {
        Type::Tensor(t) => t.num_elements() as f64,
        Type::Tuple(ts) => ts.iter().map(elements).sum(),
    }
}

fn bytes(t: &Type) -> f64 {
    t.size_bytes() as f64
}

impl TensorCost {
    /// The cost per output element of calling `callee`: its own entry, else that of the extern
    /// it is an outlined or renamed instance of (`@linear_0`, `@ptir.linear` price as
    /// `@linear`).
    pub fn extern_cost(&self, callee: &str) -> Option<f64> {
        if let Some(c) = self.extern_costs.get(callee) {
            return Some(*c);
        }
        let base = crate::externs::base_name(callee);
        self.extern_costs
            .iter()
            .find(|(name, _)| crate::callee_matches(name, base))
            .map(|(_, c)| *c)
    }
}

impl CostModel for TensorCost {
    fn name(&self) -> &str {
        "tensor"
    }

    fn op_cost(&self, op: &Op, operands: &[&Type], result: &Type) -> f64 {
        let n = elements(result);
        match op {
            Op::Constant(_) | Op::Reshape | Op::Tuple | Op::TupleGet { .. } => 0.0,
            Op::Unary(u) if u.is_transcendental() => n * self.transcendental,
            Op::Unary(_) => n,
            Op::Binary(ptir_ir::BinaryOp::Pow | ptir_ir::BinaryOp::Atan2) => {
                n * self.transcendental
            }
            Op::Binary(_) | Op::Compare(_) | Op::Select | Op::Cast | Op::Iota { .. } => n,
            Op::Transpose { .. }
            | Op::Broadcast { .. }
            | Op::Slice(_)
            | Op::Concat { .. }
            | Op::Take
            | Op::DynamicSlice { .. } => bytes(result) * self.byte_weight,
            // Written in place: the update's bytes.
            Op::DynamicUpdateSlice => operands.get(1).map_or(0.0, |u| bytes(u)) * self.byte_weight,
            Op::Reduce { .. } => operands.first().map_or(n, |t| elements(t)),
            Op::DotGeneral(d) => {
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
            Op::Call { callee } => n * self.extern_cost(callee).unwrap_or(1.0),
            Op::Rng { .. } => n,
            Op::Cond { .. } | Op::While { .. } | Op::Scan { .. } => 1.0,
        }
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

/// The cost of a program: the sum over every instruction (region bodies counted once, not
/// per iteration).
pub fn program_cost(program: &Program, model: &dyn CostModel) -> f64 {
    let mut total = 0.0;
    let mut operands: Vec<&Type> = Vec::new();
    for f in &program.functions {
        let mut types = ValueTypes::new(f.body.params.len() + f.body.insts.len());
        for p in &f.body.params {
            types.insert(p.id, &p.ty);
        }
        // Pre-order: every operand (an earlier value, a region parameter, a capture) is
        // defined before its use is priced.
        f.body.walk(&mut |i, _| {
            operands.clear();
            operands.extend(i.operands.iter().filter_map(|&v| types.get(v)));
            total += model.op_cost(&i.op, &operands, &i.ty);
            types.insert(i.result, &i.ty);
            for r in i.op.regions() {
                for p in &r.params {
                    types.insert(p.id, &p.ty);
                }
            }
        });
    }
    total
}
