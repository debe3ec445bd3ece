//! [`TensorCost`]: FLOPs plus weighted bytes moved, the model before the roofline.

use super::{bytes, elements, CostModel};
use indexmap::IndexMap;
use ptir_ir::{Op, Type};

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

impl TensorCost {
    /// The cost per output element of calling `callee`: its own entry, else that of the extern
    /// it is an outlined or renamed instance of (`@linear_0`, `@ptir.linear` price as
    /// `@linear`).
    pub fn extern_cost(&self, callee: &str) -> Option<f64> {
        super::extern_entry(&self.extern_costs, callee).copied()
    }
}

impl CostModel for TensorCost {
    fn name(&self) -> &str {
        "tensor"
    }

    fn op_cost(&self, op: &Op, operands: &[&Type], result: &Type) -> f64 {
        let n = elements(result);
        match op {
            Op::Constant(_)
            | Op::Reshape
            | Op::Tuple
            | Op::TupleGet { .. }
            | Op::OptimizationBarrier => 0.0,
            Op::Unary(u) if u.is_transcendental() => n * self.transcendental,
            Op::Unary(_) => n,
            Op::Binary(ptir_ir::BinaryOp::Pow | ptir_ir::BinaryOp::Atan2) => {
                n * self.transcendental
            }
            Op::Binary(_)
            | Op::Compare(_)
            | Op::Select
            | Op::Cast
            | Op::Bitcast
            | Op::BitcastResize
            | Op::ReducePrecision { .. }
            | Op::Iota { .. } => n,
            Op::Transpose { .. }
            | Op::Reverse { .. }
            | Op::Pad(_)
            | Op::Broadcast { .. }
            | Op::Slice(_)
            | Op::Concat { .. }
            | Op::Gather(_)
            | Op::DynamicSlice { .. } => bytes(result) * self.byte_weight,
            // Written in place: the update's bytes.
            // A copy of the operand, then a combine per update element.
            Op::Scatter { .. } => {
                bytes(result) * self.byte_weight + super::scatter_work(operands).0
            }
            Op::DynamicUpdateSlice => operands.get(1).map_or(0.0, |u| bytes(u)) * self.byte_weight,
            Op::Reduce { .. } => operands.first().map_or(n, |t| elements(t)),
            Op::MultiReduce { .. } => operands.iter().map(|t| elements(t)).sum(),
            Op::DotGeneral(d) => super::dot_flops(d, operands, n),
            Op::Convolution(c) => super::conv_flops(c, operands, n),
            Op::ReduceWindow { dims, .. } => super::window_flops(dims, n),
            Op::SelectAndScatter { dims, .. } => super::select_scatter_flops(dims, operands),
            Op::Call { callee } => n * self.extern_cost(callee).unwrap_or(1.0),
            Op::Rng { .. } | Op::RngBitGenerator { .. } => n,
            Op::ArgReduce { .. } | Op::Sort { .. } | Op::TopK { .. } => {
                super::order_flops(op, operands).unwrap_or(n)
            }
            Op::Cond { .. } | Op::While { .. } | Op::Scan { .. } => 1.0,
        }
    }
}
