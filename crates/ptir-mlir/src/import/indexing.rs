//! Import of `stablehlo.gather` and `stablehlo.scatter` with general dimension numbers.
//!
//! Every gather (`jnp.take`'s row gather, `x[:, ids]`, `jnp.take_along_axis`'s batching dims,
//! slices wider than one element, several start dims) becomes `gather` with the same
//! dimension numbers, implicit index vectors (`index_vector_dim` the rank of the indices)
//! kept implicit: the export gives back the form it read. A scatter of one operand whose update region is one `add`,
//! `multiply`, `maximum` or `minimum` of its two arguments, or returns the update (`.at[].set`),
//! becomes `scatter_add` (`_mul`, `_max`, `_min`, `_set`); other scatters are located
//! refusals that `--allow-opaque` keeps.

use super::{region_op, FnLower, Insts, ALLOW_OPAQUE_HINT};
use crate::ast::{find_attr, Attr, Block, OpSyntax};
use crate::error::{MlirError, Result};
use crate::export::indexing::{FieldNames, GATHER_FIELDS, SCATTER_FIELDS};
use crate::import::{dims_in, ints_attr};
use ptir_ir::{GatherDims, IndexDims, Op, ScatterKind, TensorType, ValueId};

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
    /// `stablehlo.gather`: `gather` with the same dimension numbers.
    pub(super) fn gather(
        &mut self,
        op: &OpSyntax,
        ty: &TensorType,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        let x = self.operand(out, op, 0)?;
        let dims = index_dims(op, "dimension_numbers", GATHER_FIELDS)?;
        let indices = self.operand(out, op, 1)?;
        let g = GatherDims {
            dims,
            slice_sizes: ints_attr(op, &["slice_sizes"])?,
        };
        self.emit_t(out, pos, Op::Gather(Box::new(g)), &[x, indices], ty)
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
