//! Indexed data movement with general dimension numbers: StableHLO's `gather` and `scatter`,
//! their attributes ([`IndexDims`], [`GatherDims`]) and typing rules.
//!
//! Both walk an index space (the gather's result, the scatter's updates) whose dims are either
//! *window* dims (`window_dims`: StableHLO's `offset_dims` / `update_window_dims`), which step
//! through a slice of the operand, or *batch* dims, which step through the start indices
//! (`indices` without its `index_vector_dim`). For an index `i` of that space, with batch part
//! `b` and window part `w`:
//!
//! - the start vector is `indices[b with index_vector_dim inserted]` (one element when
//!   `index_vector_dim` is the rank of `indices`); its element `k` is the start along operand
//!   dim `start_index_map[k]` (a gather clamps it so that the slice fits, a scatter does not);
//! - operand dim `operand_batching_dims[j]` takes the batch index of `indices` dim
//!   `indices_batching_dims[j]` (the batch dims `jnp.take_along_axis` and vmapped indexing
//!   give);
//! - the operand dims that are neither collapsed (`collapsed_dims`: StableHLO's
//!   `collapsed_slice_dims` / `inserted_window_dims`) nor batching take `w`, in order.
//!
//! The operand index is the sum of the three. A gather reads it; a scatter combines its update
//! into it ([`ScatterKind`]), skipping updates whose operand index is out of bounds.

use crate::axes::check_axes;
use crate::types::{DType, TensorType};

type Result<T> = std::result::Result<T, String>;

/// The dimension numbers `gather` and `scatter` share (StableHLO's names in brackets: gather's
/// first, then scatter's).
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct IndexDims {
    /// Dims of the result (updates) that step through the slice (`offset_dims`,
    /// `update_window_dims`); increasing.
    pub window_dims: Vec<usize>,
    /// Operand dims the slice has size 1 in and the result (updates) lacks
    /// (`collapsed_slice_dims`, `inserted_window_dims`); increasing.
    pub collapsed_dims: Vec<usize>,
    /// Operand dims indexed by a batch dim of the indices (`operand_batching_dims`,
    /// `input_batching_dims`); increasing.
    pub operand_batching_dims: Vec<usize>,
    /// The dims of the indices paired with `operand_batching_dims`
    /// (`start_indices_batching_dims`, `scatter_indices_batching_dims`).
    pub indices_batching_dims: Vec<usize>,
    /// The operand dim each element of an index vector starts (`start_index_map`,
    /// `scatter_dims_to_operand_dims`).
    pub start_index_map: Vec<usize>,
    /// The dim of the indices holding index vectors; the rank of the indices for vectors of
    /// one element.
    pub index_vector_dim: usize,
}

/// The attributes of a `gather`: its [`IndexDims`] and the size of the slice it reads.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct GatherDims {
    /// The dimension numbers.
    pub dims: IndexDims,
    /// The slice's size along each operand dim (1 in collapsed and batching dims).
    pub slice_sizes: Vec<usize>,
}

crate::keyword::keyword_enum! {
    /// How a `scatter` combines an update with the element it lands on (StableHLO's update
    /// region).
    ScatterKind {
        /// The update replaces the element (a region returning its second argument:
        /// `.at[].set`).
        Set = "scatter_set",
        /// Addition (`.at[].add`).
        Add = "scatter_add",
        /// Multiplication (`.at[].multiply`).
        Mul = "scatter_mul",
        /// Maximum (`.at[].max`).
        Max = "scatter_max",
        /// Minimum (`.at[].min`).
        Min = "scatter_min",
    }
}

/// What checking [`IndexDims`] against an operand and indices finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexShape {
    /// The shape of the batch dims: the indices' shape without `index_vector_dim`.
    pub batch: Vec<usize>,
    /// The operand dims the window steps through (neither collapsed nor batching), in order.
    pub window_operand_dims: Vec<usize>,
}

impl IndexDims {
    /// The number of elements of an index vector of `indices`.
    fn vector_len(&self, indices: &TensorType) -> usize {
        indices
            .shape
            .get(self.index_vector_dim)
            .copied()
            .unwrap_or(1)
    }

    /// Checks the dims against an operand and the indices (`op` names the op in messages).
    pub fn check(&self, op: &str, x: &TensorType, indices: &TensorType) -> Result<IndexShape> {
        let (n, ir) = (x.rank(), indices.rank());
        if !indices.dtype.is_int() {
            return Err(format!(
                "the indices of `{op}` must be integers, found {indices}"
            ));
        }
        if self.index_vector_dim > ir {
            return Err(format!(
                "`{op}`'s index_vector_dim {} is beyond the rank {ir} of the indices",
                self.index_vector_dim
            ));
        }
        for (what, dims) in [
            ("collapsed dim", &self.collapsed_dims),
            ("operand batching dim", &self.operand_batching_dims),
        ] {
            if !dims.windows(2).all(|p| p[0] < p[1]) {
                return Err(format!("`{op}`'s {what}s {dims:?} must increase"));
            }
        }
        let mut removed = self.collapsed_dims.clone();
        removed.extend_from_slice(&self.operand_batching_dims);
        check_axes(&removed, n, &format!("`{op}`'s collapsed or batching dim"))?;
        check_axes(
            &self.start_index_map,
            n,
            &format!("`{op}`'s start index dim"),
        )?;
        if let Some(d) = self
            .start_index_map
            .iter()
            .find(|d| self.operand_batching_dims.contains(d))
        {
            return Err(format!(
                "`{op}`'s start index dim {d} is also an operand batching dim"
            ));
        }
        let k = self.vector_len(indices);
        if self.start_index_map.len() != k {
            return Err(format!(
                "`{op}`'s start index map {:?} has {} entries for index vectors of {k}",
                self.start_index_map,
                self.start_index_map.len()
            ));
        }
        check_axes(
            &self.indices_batching_dims,
            ir,
            &format!("`{op}`'s indices batching dim"),
        )?;
        if self.indices_batching_dims.contains(&self.index_vector_dim) {
            return Err(format!(
                "`{op}`'s index_vector_dim {} is also an indices batching dim",
                self.index_vector_dim
            ));
        }
        if self.indices_batching_dims.len() != self.operand_batching_dims.len() {
            return Err(format!(
                "`{op}` pairs {} operand batching dims with {} indices batching dims",
                self.operand_batching_dims.len(),
                self.indices_batching_dims.len()
            ));
        }
        for (&o, &i) in self
            .operand_batching_dims
            .iter()
            .zip(&self.indices_batching_dims)
        {
            if x.shape[o] != indices.shape[i] {
                return Err(format!(
                    "`{op}`'s operand batching dim {o} of {x} and indices batching dim {i} \
                     of {indices} differ in size"
                ));
            }
        }
        if !self.window_dims.windows(2).all(|p| p[0] < p[1]) {
            return Err(format!(
                "`{op}`'s window dims {:?} must increase",
                self.window_dims
            ));
        }
        let mut batch = indices.shape.clone();
        if self.index_vector_dim < ir {
            batch.remove(self.index_vector_dim);
        }
        let window_operand_dims: Vec<usize> = (0..n).filter(|d| !removed.contains(d)).collect();
        if self.window_dims.len() != window_operand_dims.len() {
            return Err(format!(
                "`{op}` has {} window dims for the {} operand dims neither collapsed nor batching",
                self.window_dims.len(),
                window_operand_dims.len()
            ));
        }
        check_axes(
            &self.window_dims,
            batch.len() + self.window_dims.len(),
            &format!("`{op}`'s window dim"),
        )?;
        Ok(IndexShape {
            batch,
            window_operand_dims,
        })
    }

    /// The batch dims of a walked space (result or updates) of rank `rank`: those that are
    /// not window dims, in order.
    pub fn batch_positions(&self, rank: usize) -> Vec<usize> {
        (0..rank)
            .filter(|d| !self.window_dims.contains(d))
            .collect()
    }
}

/// The result type of `gather(x, indices)` with attributes `g`.
pub fn gather_type(x: &TensorType, indices: &TensorType, g: &GatherDims) -> Result<TensorType> {
    let s = g.dims.check("gather", x, indices)?;
    if g.slice_sizes.len() != x.rank() {
        return Err(format!(
            "`gather`'s slice sizes {:?} have {} entries for the operand {x}",
            g.slice_sizes,
            g.slice_sizes.len()
        ));
    }
    for (d, (&size, &dim)) in g.slice_sizes.iter().zip(&x.shape).enumerate() {
        if size > dim {
            return Err(format!(
                "`gather`'s slice size {size} exceeds dim {d} of the operand {x}"
            ));
        }
        let removed =
            g.dims.collapsed_dims.contains(&d) || g.dims.operand_batching_dims.contains(&d);
        if removed && size > 1 {
            return Err(format!(
                "`gather`'s slice size {size} of collapsed or batching dim {d} must be at most 1"
            ));
        }
    }
    let rank = s.batch.len() + g.dims.window_dims.len();
    let mut batch = s.batch.iter();
    let mut window = s.window_operand_dims.iter().map(|&d| g.slice_sizes[d]);
    let shape = (0..rank)
        .map(|d| {
            let next = if g.dims.window_dims.contains(&d) {
                window.next()
            } else {
                batch.next().copied()
            };
            next.ok_or_else(|| "`gather`'s dims do not add up".to_string())
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(TensorType::new(x.dtype, shape))
}

/// The result type of `scatter_<kind>(x, indices, updates)` with attributes `d`: the
/// operand's. The updates are of the operand's dtype, their batch dims the indices' and their
/// window dims no larger than the operand dims they step through.
pub fn scatter_type(
    kind: ScatterKind,
    x: &TensorType,
    indices: &TensorType,
    updates: &TensorType,
    d: &IndexDims,
) -> Result<TensorType> {
    if x.dtype == DType::Bool && kind != ScatterKind::Set {
        return Err(format!("`{}` is not defined on bool", kind.name()));
    }
    if updates.dtype != x.dtype {
        return Err(format!(
            "the updates {updates} of `{}` must have the operand's dtype {}",
            kind.name(),
            x.dtype
        ));
    }
    let s = d.check(kind.name(), x, indices)?;
    let rank = s.batch.len() + d.window_dims.len();
    if updates.rank() != rank {
        return Err(format!(
            "the updates {updates} of `{}` must have rank {rank}",
            kind.name()
        ));
    }
    let batch: Vec<usize> = d
        .batch_positions(rank)
        .iter()
        .map(|&u| updates.shape[u])
        .collect();
    if batch != s.batch {
        return Err(format!(
            "the batch dims {batch:?} of the updates {updates} of `{}` must be the indices' \
             {:?}",
            kind.name(),
            s.batch
        ));
    }
    for (&u, &o) in d.window_dims.iter().zip(&s.window_operand_dims) {
        if updates.shape[u] > x.shape[o] {
            return Err(format!(
                "window dim {u} of the updates {updates} of `{}` exceeds operand dim {o} of {x}",
                kind.name()
            ));
        }
    }
    Ok(x.clone())
}
