//! Import of `stablehlo.gather` and `stablehlo.scatter` with general dimension numbers.
//!
//! A gather of the `jnp.take(table, ids, axis=0)` form becomes PTIR's `take` (which rules and
//! the cost models know as the embedding lookup); every other gather (`jnp.take_along_axis`'s
//! batching dims, slices wider than one element, several start dims) becomes `gather` with
//! the same dimension numbers. A scatter of one operand whose update region is one `add`,
//! `multiply`, `maximum` or `minimum` of its two arguments, or returns the update (`.at[].set`),
//! becomes `scatter_add` (`_mul`, `_max`, `_min`, `_set`); other scatters are located
//! refusals that `--allow-opaque` keeps.

use super::{region_op, FnLower, Insts, ALLOW_OPAQUE_HINT};
use crate::ast::{find_attr, Attr, Block, OpSyntax};
use crate::error::{MlirError, Pos, Result};
use crate::import::{dims_in, ints_attr};
use ptir_ir::{GatherDims, IndexDims, Op, ScatterKind, TensorType, ValueId};

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

/// The dimension numbers in the struct attribute `attr` of `op` whose fields are `names`
/// (absent lists are empty, an absent `index_vector_dim` is 0, as StableHLO prints them).
fn index_dims(op: &OpSyntax, attr: &str, names: FieldNames) -> Result<IndexDims> {
    let pos = op.pos;
    let fields = match op.attr(attr) {
        Some(Attr::Struct(f)) => f,
        _ => return Err(pos.syntax(format!("`{}` needs `{attr}`", op.name))),
    };
    let list = |k: &str| Ok::<_, MlirError>(dims_in(fields, k, pos)?.unwrap_or_default());
    let index_vector_dim = match find_attr(fields, names[5]) {
        Some(Attr::Int(i)) => {
            usize::try_from(*i).map_err(|_| pos.syntax(format!("negative `{}`", names[5])))?
        }
        Some(_) => return Err(pos.syntax(format!("`{}` must be an integer", names[5]))),
        None => 0,
    };
    Ok(IndexDims {
        window_dims: list(names[0])?,
        collapsed_dims: list(names[1])?,
        operand_batching_dims: list(names[2])?,
        indices_batching_dims: list(names[3])?,
        start_index_map: list(names[4])?,
        index_vector_dim,
    })
}

/// Is `g` the row gather `jnp.take(table, ids, axis=0)` lowers to, for a table of type `table`
/// and indices of type `ids`?
fn is_take(g: &GatherDims, table: &TensorType, ids: &TensorType) -> bool {
    let (r, ir, d) = (table.rank(), ids.rank(), &g.dims);
    let mut row = vec![1usize];
    row.extend_from_slice(table.shape.get(1..).unwrap_or(&[]));
    let batch = if d.index_vector_dim == ir {
        ir
    } else {
        ir.saturating_sub(1)
    };
    r >= 1
        && d.collapsed_dims == [0]
        && d.start_index_map == [0]
        && d.operand_batching_dims.is_empty()
        && d.indices_batching_dims.is_empty()
        && g.slice_sizes == row
        && d.window_dims == (batch..batch + r - 1).collect::<Vec<_>>()
        && (d.index_vector_dim == ir
            || (d.index_vector_dim + 1 == ir && ids.shape.last() == Some(&1)))
}

/// The kind of a scatter's update region `{^bb0(%cur, %upd): ...}`: one `add`, `multiply`,
/// `maximum` or `minimum` of both arguments, or `return %upd` (set).
fn scatter_kind(region: Option<&Block>) -> Option<ScatterKind> {
    let block = region?;
    if let ([_, update], [ret]) = (block.args.as_slice(), block.ops.as_slice()) {
        let returns_update = matches!(ret.name.as_str(), "stablehlo.return" | "return")
            && ret.operands.len() == 1
            && ret.operands[0].0 == update.0;
        return returns_update.then_some(ScatterKind::Set);
    }
    let (combine, _) = region_op(region)?;
    match combine.name.as_str() {
        "stablehlo.add" => Some(ScatterKind::Add),
        "stablehlo.multiply" => Some(ScatterKind::Mul),
        "stablehlo.maximum" => Some(ScatterKind::Max),
        "stablehlo.minimum" => Some(ScatterKind::Min),
        _ => None,
    }
}

impl FnLower<'_, '_> {
    /// `stablehlo.gather`: `take` for `jnp.take`'s row gather, `gather` otherwise.
    pub(super) fn gather(
        &mut self,
        op: &OpSyntax,
        ty: &TensorType,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        let table = self.operand(out, op, 0)?;
        let ids = self.operand(out, op, 1)?;
        let g = GatherDims {
            dims: index_dims(op, "dimension_numbers", GATHER_FIELDS)?,
            slice_sizes: ints_attr(op, &["slice_sizes"])?,
        };
        if !is_take(&g, &table.1, &ids.1) {
            return self.emit_t(out, pos, Op::Gather(Box::new(g)), &[table, ids], ty);
        }
        self.take(pos, g.dims.index_vector_dim, table, ids, ty, out)
    }

    /// `take(table, ids)`, the ids' trailing index vector dim of 1 reshaped away.
    fn take(
        &mut self,
        pos: Pos,
        index_vector_dim: usize,
        table: (ValueId, TensorType),
        mut ids: (ValueId, TensorType),
        ty: &TensorType,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        if index_vector_dim != ids.1.rank() {
            let shape = ids.1.shape[..index_vector_dim].to_vec();
            let t = TensorType::new(ids.1.dtype, shape);
            ids = self.emit_t(out, pos, Op::Reshape, &[ids], &t)?;
        }
        self.emit_t(out, pos, Op::Take, &[table, ids], ty)
    }

    /// `stablehlo.scatter` of one operand with a set, add, multiply, maximum or minimum update
    /// region: `scatter_<kind>` of the operand, indices and updates.
    pub(super) fn scatter(
        &mut self,
        op: &OpSyntax,
        ty: &TensorType,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        let unsupported = |what: &str| {
            pos.unsupported(format!("`stablehlo.scatter` {what} ({ALLOW_OPAQUE_HINT})"))
        };
        if op.operands.len() != 3 || op.regions.len() != 1 {
            return Err(unsupported(
                "other than of one operand, its indices and updates with one update region",
            ));
        }
        let kind = scatter_kind(op.regions.first()).ok_or_else(|| {
            unsupported("update region other than set, add, multiply, maximum or minimum")
        })?;
        let dims = Box::new(index_dims(op, "scatter_dimension_numbers", SCATTER_FIELDS)?);
        let args = [
            self.operand(out, op, 0)?,
            self.operand(out, op, 1)?,
            self.operand(out, op, 2)?,
        ];
        self.emit_t(out, pos, Op::Scatter { kind, dims }, &args, ty)
    }
}
