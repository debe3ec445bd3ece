//! Export of `gather` and `scatter_*` as `stablehlo.gather` and `stablehlo.scatter`
//! (generic form, empty dimension lists left out as StableHLO prints them).

use super::{array, list, mlir_type, type_list, FnPrinter};
use crate::error::Result;
use ptir_ir::{GatherDims, IndexDims, Instruction, ScatterKind, TensorType, ValueId};

/// The StableHLO names of the fields of [`IndexDims`], in its field order.
pub(crate) type FieldNames = [&'static str; 6];

/// `#stablehlo.gather<...>`'s field names.
pub(crate) const GATHER_FIELDS: FieldNames = [
    "offset_dims",
    "collapsed_slice_dims",
    "operand_batching_dims",
    "start_indices_batching_dims",
    "start_index_map",
    "index_vector_dim",
];

/// `#stablehlo.scatter<...>`'s field names.
pub(crate) const SCATTER_FIELDS: FieldNames = [
    "update_window_dims",
    "inserted_window_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
    "scatter_dims_to_operand_dims",
    "index_vector_dim",
];

/// `#stablehlo.<what><...>` of `d` with StableHLO's field `names`.
fn index_dims_attr(what: &str, d: &IndexDims, names: FieldNames) -> String {
    let mut fields = Vec::new();
    for (name, xs) in names.iter().zip([
        &d.window_dims,
        &d.collapsed_dims,
        &d.operand_batching_dims,
        &d.indices_batching_dims,
        &d.start_index_map,
    ]) {
        if !xs.is_empty() {
            fields.push(format!("{name} = {}", list(xs)));
        }
    }
    fields.push(format!("{} = {}", names[5], d.index_vector_dim));
    format!("#stablehlo.{what}<{}>", fields.join(", "))
}

impl FnPrinter<'_, '_, '_> {
    /// The names and types of the first `n` operands of `inst`.
    fn operands_n(&self, inst: &Instruction, n: usize) -> Result<(Vec<String>, Vec<TensorType>)> {
        let operands: Vec<ValueId> = (0..n)
            .map(|i| self.operand(inst, i))
            .collect::<Result<_>>()?;
        Ok((self.names_of(&operands)?, self.types_of(&operands)?))
    }

    /// `gather(x, indices)`: `stablehlo.gather` with the same dimension numbers.
    pub(super) fn gather(
        &mut self,
        inst: &Instruction,
        g: &GatherDims,
        depth: usize,
    ) -> Result<()> {
        let (names, types) = self.operands_n(inst, 2)?;
        let rt = self.tensor(&inst.ty)?;
        let r = self.def_name(inst.result);
        let text = format!(
            "{r} = \"stablehlo.gather\"({}) <{{dimension_numbers = {}, indices_are_sorted = false, slice_sizes = {}}}> : ({}) -> {}",
            names.join(", "),
            index_dims_attr("gather", &g.dims, GATHER_FIELDS),
            array(&g.slice_sizes),
            type_list(&types),
            mlir_type(&rt)
        );
        self.line(depth, &text);
        self.bind(inst.result, vec![r], inst.ty.clone());
        Ok(())
    }

    /// `scatter_<kind>(x, indices, updates)`: `stablehlo.scatter` whose update region
    /// combines by `kind` (`set` returns the update).
    pub(super) fn scatter(
        &mut self,
        inst: &Instruction,
        kind: ScatterKind,
        d: &IndexDims,
        depth: usize,
    ) -> Result<()> {
        let (names, types) = self.operands_n(inst, 3)?;
        let dtype = types[0].dtype;
        let scalar_t = mlir_type(&TensorType::new(dtype, vec![]));
        let region = match scatter_body(kind) {
            Some(body) => self.reducer_region(body, dtype, depth),
            None => {
                let (cur, update) = (self.temp(), self.temp());
                let pad = "  ".repeat(depth);
                format!(
                    "({{\n{pad}^bb0({cur}: {scalar_t}, {update}: {scalar_t}):\n{pad}  \"stablehlo.return\"({update}) : ({scalar_t}) -> ()\n{pad}}})"
                )
            }
        };
        let rt = self.tensor(&inst.ty)?;
        let r = self.def_name(inst.result);
        let text = format!(
            "{r} = \"stablehlo.scatter\"({}) <{{indices_are_sorted = false, scatter_dimension_numbers = {}, unique_indices = false}}> {region} : ({}) -> {}",
            names.join(", "),
            index_dims_attr("scatter", d, SCATTER_FIELDS),
            type_list(&types),
            mlir_type(&rt)
        );
        self.line(depth, &text);
        self.bind(inst.result, vec![r], inst.ty.clone());
        Ok(())
    }
}

/// The op of a scatter's update region (`None` for `set`, which returns the update).
fn scatter_body(kind: ScatterKind) -> Option<&'static str> {
    match kind {
        ScatterKind::Set => None,
        ScatterKind::Add => Some("stablehlo.add"),
        ScatterKind::Mul => Some("stablehlo.multiply"),
        ScatterKind::Max => Some("stablehlo.maximum"),
        ScatterKind::Min => Some("stablehlo.minimum"),
    }
}
