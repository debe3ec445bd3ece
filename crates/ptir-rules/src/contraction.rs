//! Index algebra for rules that move work through `dot_general` and broadcasts: which operand
//! dims a result dim comes from, so that a slice of a product becomes a product of slices and a
//! sum of a broadcast product becomes a contraction.
//!
//! Each function answers `None` when its precondition fails; as a native function that means
//! "the rule does not apply here" (see [`crate::Registry`]).

use ptir_ir::{free_dims, DotDims, GatherDims};

/// One operand of a `dot_general`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The left operand.
    Lhs,
    /// The right operand.
    Rhs,
}

/// One of the three index lists of a `slice`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlicePart {
    /// The first index taken, per dim.
    Start,
    /// One past the last index, per dim.
    Limit,
    /// The step, per dim.
    Stride,
}

/// Where each dim of one operand of `dot_general(lhs, rhs, d)` appears in the result: `Some(r)`
/// for a batch or free dim (result dim `r`), `None` for a contracting dim. The result lays out
/// the batch dims, then the lhs free dims, then the rhs free dims, each in operand order.
fn result_dim_of(
    d: &DotDims,
    lhs_rank: usize,
    rhs_rank: usize,
    side: Side,
) -> Option<Vec<Option<usize>>> {
    let lhs_free = free_dims(lhs_rank, &d.lhs_batch, &d.lhs_contract);
    let rhs_free = free_dims(rhs_rank, &d.rhs_batch, &d.rhs_contract);
    let (rank, batch, contract, free, offset) = match side {
        Side::Lhs => (lhs_rank, &d.lhs_batch, &d.lhs_contract, lhs_free, 0),
        Side::Rhs => (
            rhs_rank,
            &d.rhs_batch,
            &d.rhs_contract,
            rhs_free,
            lhs_free_len(d, lhs_rank)?,
        ),
    };
    if batch.iter().chain(contract).any(|&i| i >= rank) {
        return None;
    }
    let nb = batch.len();
    Some(
        (0..rank)
            .map(|i| {
                if let Some(k) = batch.iter().position(|&b| b == i) {
                    Some(k)
                } else {
                    free.iter().position(|&f| f == i).map(|p| nb + offset + p)
                }
            })
            .collect(),
    )
}

/// The result dims of `dot_general(lhs, rhs, d)` that the operand dims `dims` of `side` become
/// (a broadcast of a factor into that operand along `dims`, moved onto the result); `None` if
/// one of them is contracted (the factor varies along a sum and cannot leave it) or the
/// dims do not come out in increasing order (a broadcast's dims must).
///
/// ```
/// use ptir_ir::DotDims;
/// use ptir_rules::contraction::{operand_dims_in_result, Side};
/// // x [B, T, K] @ w [K, N]: w's dim 1 (N) is the result's dim 2, x's dim 1 (T) its dim 1.
/// let d = DotDims { lhs_contract: vec![2], rhs_contract: vec![0], ..DotDims::matmul() };
/// assert_eq!(operand_dims_in_result(&d, 3, 2, Side::Rhs, &[1]), Some(vec![2]));
/// assert_eq!(operand_dims_in_result(&d, 3, 2, Side::Lhs, &[0, 1]), Some(vec![0, 1]));
/// assert_eq!(operand_dims_in_result(&d, 3, 2, Side::Rhs, &[0]), None); // K is summed
/// ```
pub fn operand_dims_in_result(
    d: &DotDims,
    lhs_rank: usize,
    rhs_rank: usize,
    side: Side,
    dims: &[usize],
) -> Option<Vec<usize>> {
    let map = result_dim_of(d, lhs_rank, rhs_rank, side)?;
    let out: Vec<usize> = dims
        .iter()
        .map(|&i| map.get(i).copied().flatten())
        .collect::<Option<_>>()?;
    out.windows(2).all(|w| w[0] < w[1]).then_some(out)
}

/// The gather that reads rows of `x @ w` as `dot_general(gather(x, rows), w, d)` reads rows
/// of `x`: when `g` takes whole rows of the 2-d table `x` (`x[rows]`, each index one row:
/// collapsed and started along dim 0, the slice `[1, x.cols]`, the row the last result dim
/// of a `gathered_rank` result), and `d` contracts that row with the rows of the 2-d `w`
/// (no batch dims), then `gather(x @ w, rows)` with the slice `[1, w.cols]` is the same value:
/// each of its rows is the product of the same row of `x` with `w`, summed in the same order,
/// and an index out of range is clamped to the same row of both tables. `None` otherwise.
///
/// ```
/// use ptir_ir::{DotDims, GatherDims, IndexDims};
/// use ptir_rules::contraction::projected_row_gather;
/// // x[senders] @ w: x [256, 64], w [64, 32], 2048 senders as a [2048, 1] index vector
/// let g = GatherDims {
///     dims: IndexDims { window_dims: vec![1], collapsed_dims: vec![0], start_index_map: vec![0],
///         index_vector_dim: 1, ..IndexDims::default() },
///     slice_sizes: vec![1, 64],
/// };
/// let p = projected_row_gather(&g, &[256, 64], &[64, 32], &DotDims::matmul(), 2).unwrap();
/// assert_eq!(p.slice_sizes, vec![1, 32]);
/// assert!(projected_row_gather(&g, &[256, 64], &[64, 32], &DotDims::matmul(), 3).is_none());
/// ```
pub fn projected_row_gather(
    g: &GatherDims,
    x: &[usize],
    w: &[usize],
    d: &DotDims,
    gathered_rank: usize,
) -> Option<GatherDims> {
    let [_, cols] = *x else { return None };
    let [k, out_cols] = *w else { return None };
    let last = gathered_rank.checked_sub(1)?;
    let rows = g.dims.collapsed_dims == [0]
        && g.dims.start_index_map == [0]
        && g.dims.operand_batching_dims.is_empty()
        && g.dims.window_dims == [last]
        && g.slice_sizes == [1, cols];
    let product = d.lhs_batch.is_empty()
        && d.rhs_batch.is_empty()
        && d.lhs_contract == [last]
        && d.rhs_contract == [0]
        && k == cols;
    (rows && product).then(|| GatherDims {
        dims: g.dims.clone(),
        slice_sizes: vec![1, out_cols],
    })
}

fn lhs_free_len(d: &DotDims, lhs_rank: usize) -> Option<usize> {
    lhs_rank.checked_sub(d.lhs_batch.len() + d.lhs_contract.len())
}

/// The slice of one operand that `slice(dot_general(lhs, rhs, d), start, limit, stride)`
/// reads: a batch or free dim is sliced as its result dim is, a contracting dim is taken
/// whole. Then `dot_general(slice(lhs), slice(rhs), d)` is the sliced product bit for bit:
/// every remaining result element sums the same products in the same order.
///
/// `list` is the slice's `part` (its starts, limits or strides); `lhs` and `rhs` are the
/// operand shapes. `None` when the list does not fit the result's rank.
///
/// ```
/// use ptir_ir::DotDims;
/// use ptir_rules::contraction::{dot_operand_slice, Side, SlicePart};
/// // (h @ w)[63:64, :] with h [64, 128], w [128, 2048] reads h[63:64, 0:128] and all of w
/// let d = DotDims::matmul();
/// let (h, w) = ([64, 128], [128, 2048]);
/// let limit = [64, 2048];
/// assert_eq!(dot_operand_slice(&d, &h, &w, Side::Lhs, SlicePart::Limit, &limit), Some(vec![64, 128]));
/// assert_eq!(dot_operand_slice(&d, &h, &w, Side::Rhs, SlicePart::Start, &[63, 0]), Some(vec![0, 0]));
/// ```
pub fn dot_operand_slice(
    d: &DotDims,
    lhs: &[usize],
    rhs: &[usize],
    side: Side,
    part: SlicePart,
    list: &[usize],
) -> Option<Vec<usize>> {
    let result_rank = d.lhs_batch.len()
        + lhs_free_len(d, lhs.len())?
        + rhs
            .len()
            .checked_sub(d.rhs_batch.len() + d.rhs_contract.len())?;
    if list.len() != result_rank {
        return None;
    }
    let shape = match side {
        Side::Lhs => lhs,
        Side::Rhs => rhs,
    };
    let map = result_dim_of(d, lhs.len(), rhs.len(), side)?;
    Some(
        map.iter()
            .zip(shape)
            .map(|(r, &n)| match (r, part) {
                (Some(r), _) => list[*r],
                (None, SlicePart::Start) => 0,
                (None, SlicePart::Limit) => n,
                (None, SlicePart::Stride) => 1,
            })
            .collect(),
    )
}

/// `reduce_sum(mul(broadcast(a, da, s), broadcast(b, db, s)), axes)` (reduced dims dropped) as
/// `transpose(dot_general(a, b, dims), perm)`: the dims and the perm, when the product is a
/// contraction.
///
/// It is one when every dim of `s` comes from `a` or `b` (none is made of copies of both),
/// every reduced dim from both (a contracting dim), no operand dim is stretched (size 1 to
/// `n`), at least one dim is reduced, and the dims from both that are kept (batch dims) are
/// the leading dims of `a` and `b` in the same order (the layout batched matmuls run in).
/// Exact: `dot_general` visits the contracting dims in the order listed, here increasing in
/// `s` as `reduce_sum` visits them, multiplies the same pairs and sums from `+0`.
///
/// ```
/// use ptir_rules::contraction::broadcast_contraction;
/// // jnp.sum(a[:, :, None] * b[None, :, :], axis=1) is a @ b
/// let (dims, perm) = broadcast_contraction(&[4, 8], &[0, 1], &[8, 3], &[1, 2], &[4, 8, 3], &[1]).unwrap();
/// assert_eq!((dims.lhs_contract, dims.rhs_contract), (vec![1], vec![0]));
/// assert_eq!(perm, vec![0, 1]);
/// // a dim of s that only b has, reduced, is not a contraction (it sums b first)
/// assert!(broadcast_contraction(&[4], &[0], &[8], &[1], &[4, 8], &[1]).is_none());
/// ```
pub fn broadcast_contraction(
    a: &[usize],
    da: &[usize],
    b: &[usize],
    db: &[usize],
    s: &[usize],
    axes: &[usize],
) -> Option<(DotDims, Vec<usize>)> {
    let fits = |shape: &[usize], dims: &[usize]| {
        shape.len() == dims.len()
            && ptir_ir::check_axes(dims, s.len(), "dim").is_ok()
            && dims.iter().zip(shape).all(|(&t, &n)| s[t] == n)
    };
    if !fits(a, da)
        || !fits(b, db)
        || axes.is_empty()
        || ptir_ir::check_axes(axes, s.len(), "axis").is_err()
    {
        return None;
    }
    let pos = |dims: &[usize], t: usize| dims.iter().position(|&x| x == t);
    let mut dims = DotDims::default();
    for t in 0..s.len() {
        match (pos(da, t), pos(db, t), axes.contains(&t)) {
            (None, None, _) | (None, Some(_), true) | (Some(_), None, true) => return None,
            (Some(i), Some(j), true) => {
                dims.lhs_contract.push(i);
                dims.rhs_contract.push(j);
            }
            (Some(i), Some(j), false) => {
                dims.lhs_batch.push(i);
                dims.rhs_batch.push(j);
            }
            _ => {}
        }
    }
    let leading = |batch: &[usize]| batch.iter().enumerate().all(|(k, &i)| i == k);
    if !leading(&dims.lhs_batch) || !leading(&dims.rhs_batch) {
        return None;
    }
    // The dims of s in the order dot_general lays them out, then where each kept dim of s
    // (the reduction's result order) sits in it.
    let batch_s = (0..s.len()).filter(|t| !axes.contains(t) && da.contains(t) && db.contains(t));
    let lhs_free = free_dims(a.len(), &dims.lhs_batch, &dims.lhs_contract)
        .into_iter()
        .map(|i| da[i]);
    let rhs_free = free_dims(b.len(), &dims.rhs_batch, &dims.rhs_contract)
        .into_iter()
        .map(|j| db[j]);
    let order: Vec<usize> = batch_s.chain(lhs_free).chain(rhs_free).collect();
    let perm = (0..s.len())
        .filter(|t| !axes.contains(t))
        .map(|t| order.iter().position(|&x| x == t))
        .collect::<Option<Vec<_>>>()?;
    Some((dims, perm))
}

/// For `reduce_sum(broadcast(x, dims, s), axes)` (reduced dims dropped) where every reduced
/// dim is one of `x`'s own, not stretched: `x`'s axes to reduce and the broadcast dims of the
/// result, so that it equals `broadcast(reduce_sum(x, x_axes), new_dims, reduced s)` bit for
/// bit. `dims` must keep the reduced dims in order (the reduction then visits the same
/// elements in the same order).
///
/// ```
/// use ptir_rules::contraction::reduce_through_broadcast;
/// // sum over axis 1 of y broadcast to [4, 8] along dim 1: sum(y) broadcast to [4]
/// assert_eq!(reduce_through_broadcast(&[8], &[1], &[4, 8], &[1]), Some((vec![0], vec![])));
/// // a stretched dim (size 1 to 8) sums 8 copies: not this
/// assert_eq!(reduce_through_broadcast(&[1], &[1], &[4, 8], &[1]), None);
/// ```
pub fn reduce_through_broadcast(
    x: &[usize],
    dims: &[usize],
    s: &[usize],
    axes: &[usize],
) -> Option<(Vec<usize>, Vec<usize>)> {
    if x.len() != dims.len()
        || ptir_ir::check_axes(dims, s.len(), "dim").is_err()
        || ptir_ir::check_axes(axes, s.len(), "axis").is_err()
        || axes.is_empty()
    {
        return None;
    }
    let mut sorted_axes = axes.to_vec();
    sorted_axes.sort_unstable();
    let x_axes = sorted_axes
        .iter()
        .map(|&t| dims.iter().position(|&d| d == t).filter(|&i| x[i] == s[t]))
        .collect::<Option<Vec<_>>>()?;
    if !x_axes.windows(2).all(|w| w[0] < w[1]) {
        return None;
    }
    let new_dims = dims
        .iter()
        .filter(|d| !axes.contains(d))
        .map(|&d| d - axes.iter().filter(|&&a| a < d).count())
        .collect();
    Some((x_axes, new_dims))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_of_a_batched_product_map_to_both_operands() {
        // [b, m, k] x [b, k, n] -> [b, m, n]
        let d = DotDims::batch_matmul();
        let (l, r) = ([2, 4, 8], [2, 8, 3]);
        let start = [1, 2, 1];
        assert_eq!(
            dot_operand_slice(&d, &l, &r, Side::Lhs, SlicePart::Start, &start),
            Some(vec![1, 2, 0])
        );
        assert_eq!(
            dot_operand_slice(&d, &l, &r, Side::Rhs, SlicePart::Start, &start),
            Some(vec![1, 0, 1])
        );
        assert_eq!(
            dot_operand_slice(&d, &l, &r, Side::Rhs, SlicePart::Limit, &[2, 4, 3]),
            Some(vec![2, 8, 3])
        );
        assert_eq!(
            dot_operand_slice(&d, &l, &r, Side::Lhs, SlicePart::Stride, &[1, 2, 3]),
            Some(vec![1, 2, 1])
        );
        // a list of the wrong rank is declined
        assert_eq!(
            dot_operand_slice(&d, &l, &r, Side::Lhs, SlicePart::Start, &[0, 0]),
            None
        );
        // dims that point past the operand are declined, not indexed
        let bad = DotDims {
            lhs_contract: vec![5],
            ..DotDims::matmul()
        };
        assert_eq!(
            dot_operand_slice(&bad, &[4, 8], &[8, 3], Side::Lhs, SlicePart::Start, &[0, 0]),
            None
        );
    }

    #[test]
    fn broadcast_products_that_are_contractions() {
        // batched: a [b, m, k] to [b, m, k, n] (dims 0 1 2), c [b, k, n] (dims 0 2 3), sum k
        let (d, p) = broadcast_contraction(
            &[2, 4, 8],
            &[0, 1, 2],
            &[2, 8, 3],
            &[0, 2, 3],
            &[2, 4, 8, 3],
            &[2],
        )
        .unwrap();
        assert_eq!(d, DotDims::batch_matmul());
        assert_eq!(p, vec![0, 1, 2]);
        // a [m, k] placed as dims (2, 1) of [n, k, m]: the result [n, m] is the product
        // [m, n] transposed
        let (d, p) =
            broadcast_contraction(&[4, 8], &[2, 1], &[3, 8], &[0, 1], &[3, 8, 4], &[1]).unwrap();
        assert_eq!((d.lhs_contract, d.rhs_contract), (vec![1], vec![1]));
        assert_eq!(p, vec![1, 0]);
        // batch dims not leading in an operand: declined (IREE runs that layout slowly)
        assert!(
            broadcast_contraction(&[8, 2], &[2, 0], &[2, 8], &[0, 2], &[2, 4, 8], &[2]).is_none()
        );
        // a stretched dim: declined
        assert!(
            broadcast_contraction(&[1, 8], &[0, 1], &[8, 3], &[1, 2], &[4, 8, 3], &[1]).is_none()
        );
        // no reduced dim, or a dim from neither operand: declined
        assert!(
            broadcast_contraction(&[4, 8], &[0, 1], &[8, 3], &[1, 2], &[4, 8, 3], &[]).is_none()
        );
        assert!(broadcast_contraction(&[8], &[1], &[8], &[1], &[4, 8], &[1]).is_none());
    }

    #[test]
    fn reductions_through_broadcasts() {
        // x [4, 8] to [4, 3, 8] by dims (0, 2); sum axes 0 and 2: sum of x, broadcast to [3]
        assert_eq!(
            reduce_through_broadcast(&[4, 8], &[0, 2], &[4, 3, 8], &[0, 2]),
            Some((vec![0, 1], vec![]))
        );
        // sum axis 2 only: x summed over its dim 1, then at dim 0 of [4, 3]
        assert_eq!(
            reduce_through_broadcast(&[4, 8], &[0, 2], &[4, 3, 8], &[2]),
            Some((vec![1], vec![0]))
        );
        // a reduced dim the broadcast added: not this rule's
        assert_eq!(
            reduce_through_broadcast(&[4, 8], &[0, 2], &[4, 3, 8], &[1]),
            None
        );
        // dims that reverse the reduced dims' order would visit them in another order
        assert_eq!(
            reduce_through_broadcast(&[4, 8], &[2, 0], &[8, 3, 4], &[0, 2]),
            None
        );
    }
}
