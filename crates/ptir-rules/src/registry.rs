//! Named native predicates (constraints), native functions (computed attributes) and native
//! builders (ops built in results, [`crate::builders`]), the DRR `Constraint` /
//! `NativeCodeCall` of our rules.
//!
//! Both see their arguments as [`Bound`]s: an attribute value, or for a value variable, the
//! value's type — never its data, so that both engines can evaluate them at match time.
//! [`Registry::standard`] holds what `rules/` uses; library users add their own with
//! [`Registry::add_predicate`] and [`Registry::add_native`] before loading their rule files.

use crate::ast::{AttrKind, AttrValue};
use crate::builders::{Built, NativeBuilder};
use indexmap::IndexMap;
use ptir_ir::{free_dims, is_permutation, DType, DotDims, Type};
use std::borrow::Cow;
use std::sync::Arc;

/// What a predicate or native function receives for one argument, borrowed where the engine
/// has it (an e-class's type, a rule's literal) and owned where it was computed.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound<'a> {
    /// A value variable: the value's type.
    Value(Cow<'a, Type>),
    /// An attribute (variable or literal).
    Attr(Cow<'a, AttrValue>),
}

impl Bound<'_> {
    /// A value of type `t`.
    pub fn value(t: Type) -> Bound<'static> {
        Bound::Value(Cow::Owned(t))
    }

    /// The attribute `a`.
    pub fn attribute(a: AttrValue) -> Bound<'static> {
        Bound::Attr(Cow::Owned(a))
    }

    /// The tensor type, for a value bound to a tensor.
    pub fn tensor(&self) -> Option<&ptir_ir::TensorType> {
        match self {
            Bound::Value(t) => t.as_tensor(),
            Bound::Attr(_) => None,
        }
    }

    /// The index list, for an `Ints` attribute.
    pub fn ints(&self) -> Option<&[usize]> {
        match self.attr() {
            Some(AttrValue::Ints(xs)) => Some(xs),
            _ => None,
        }
    }

    /// The dtype: of a dtype attribute, or of a tensor value.
    pub fn dtype(&self) -> Option<DType> {
        match self {
            Bound::Attr(a) => match &**a {
                AttrValue::DType(d) => Some(*d),
                _ => None,
            },
            Bound::Value(t) => t.as_tensor().map(|t| t.dtype),
        }
    }

    /// The attribute, if this is one.
    pub fn attr(&self) -> Option<&AttrValue> {
        match self {
            Bound::Attr(a) => Some(a),
            Bound::Value(_) => None,
        }
    }

    /// The same argument, owning what it borrowed.
    pub fn into_owned(self) -> Bound<'static> {
        match self {
            Bound::Value(t) => Bound::Value(Cow::Owned(t.into_owned())),
            Bound::Attr(a) => Bound::Attr(Cow::Owned(a.into_owned())),
        }
    }

    /// The value's type, if this is a value.
    pub fn ty(&self) -> Option<&Type> {
        match self {
            Bound::Value(t) => Some(t),
            Bound::Attr(_) => None,
        }
    }
}

/// A predicate: true when the match may be rewritten.
pub type PredicateFn = Arc<dyn Fn(&[Bound<'_>]) -> bool + Send + Sync>;

/// A native function: computes an attribute; `None` means the rule does not apply.
pub type NativeFn = Arc<dyn Fn(&[Bound<'_>]) -> Option<AttrValue> + Send + Sync>;

/// A registered predicate.
#[derive(Clone)]
pub struct Predicate {
    /// Number of arguments.
    pub arity: usize,
    /// The test. `None` for the predicate each engine decides itself (see `use_counts`).
    pub test: Option<PredicateFn>,
    /// Decided by each engine from use counts (`single-use`): the greedy driver when it
    /// matches, saturation at extraction (the fused choice is taken only where the value is
    /// extracted for no other user). Both engines run the rules that use it.
    pub use_counts: bool,
    /// One line of documentation.
    pub doc: &'static str,
}

/// A registered native function.
#[derive(Clone)]
pub struct Native {
    /// Number of arguments.
    pub arity: usize,
    /// The kind of attribute it returns.
    pub returns: AttrKind,
    /// The function.
    pub call: NativeFn,
    /// One line of documentation.
    pub doc: &'static str,
}

/// The predicates and native functions rules may name.
#[derive(Clone, Default)]
pub struct Registry {
    predicates: IndexMap<String, Predicate>,
    natives: IndexMap<String, Native>,
    builders: IndexMap<String, NativeBuilder>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("predicates", &self.predicates.keys().collect::<Vec<_>>())
            .field("natives", &self.natives.keys().collect::<Vec<_>>())
            .field("builders", &self.builders.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// Composition of transposes: `transpose(transpose(x, p), q) == transpose(x, compose(p, q))`.
pub fn compose_perm(p: &[usize], q: &[usize]) -> Option<Vec<usize>> {
    (p.len() == q.len() && is_permutation(p) && is_permutation(q))
        .then(|| q.iter().map(|&i| p[i]).collect())
}

/// The inverse permutation: `transpose(transpose(x, p), invert(p)) == x`.
pub fn invert_perm(p: &[usize]) -> Option<Vec<usize>> {
    if !is_permutation(p) {
        return None;
    }
    let mut inv = vec![0; p.len()];
    for (i, &pi) in p.iter().enumerate() {
        inv[pi] = i;
    }
    Some(inv)
}

/// Dims of `dot_general(transpose(a, p), b, d)` expressed on `a`: valid only when the
/// transpose keeps the relative order of the lhs free dims (the result layout is unchanged)
/// and the batch dims stay `a`'s leading dims, in order (the layout batched matmuls run as
/// they are).
pub fn absorb_lhs_transpose(d: &DotDims, p: &[usize]) -> Option<DotDims> {
    absorb_transpose(&d.lhs_batch, &d.lhs_contract, p).map(|(batch, contract)| DotDims {
        lhs_batch: batch,
        lhs_contract: contract,
        ..d.clone()
    })
}

/// As [`absorb_lhs_transpose`], for the rhs.
pub fn absorb_rhs_transpose(d: &DotDims, p: &[usize]) -> Option<DotDims> {
    absorb_transpose(&d.rhs_batch, &d.rhs_contract, p).map(|(batch, contract)| DotDims {
        rhs_batch: batch,
        rhs_contract: contract,
        ..d.clone()
    })
}

fn absorb_transpose(
    batch: &[usize],
    contract: &[usize],
    p: &[usize],
) -> Option<(Vec<usize>, Vec<usize>)> {
    if !is_permutation(p) || batch.iter().chain(contract).any(|&i| i >= p.len()) {
        return None;
    }
    let free: Vec<usize> = free_dims(p.len(), batch, contract)
        .iter()
        .map(|&i| p[i])
        .collect();
    if !free.windows(2).all(|w| w[0] < w[1]) {
        return None;
    }
    // The batch dims stay the operand's leading dims, in order: the layout a batched matmul
    // takes as it is. Absorbed elsewhere, IREE transposes the operand inside the kernel,
    // slower than the transpose removed (a ViT layer: 0.92x).
    if batch.iter().enumerate().any(|(i, &b)| p[b] != i) {
        return None;
    }
    Some((
        batch.iter().map(|&i| p[i]).collect(),
        contract.iter().map(|&i| p[i]).collect(),
    ))
}

/// The shape of a value, or a shape given as an index list.
fn shape_arg<'b>(b: &'b Bound<'_>) -> Option<&'b [usize]> {
    match b.tensor() {
        Some(t) => Some(t.shape.as_slice()),
        None => b.ints(),
    }
}

/// `axes` are distinct and below `rank`.
fn valid_axes(axes: &[usize], rank: usize) -> bool {
    ptir_ir::check_axes(axes, rank, "axis").is_ok()
}

/// The dims of a broadcast that puts the result of reducing a rank-`rank` value over `axes`
/// (with `keep_dims`) back into the value's shape: every dim when the reduced dims were kept,
/// else the kept dims in order.
pub fn restore_dims(rank: usize, axes: &[usize], keep_dims: bool) -> Option<Vec<usize>> {
    if !valid_axes(axes, rank) {
        return None;
    }
    Some(if keep_dims {
        (0..rank).collect()
    } else {
        (0..rank).filter(|d| !axes.contains(d)).collect()
    })
}

/// The dims of `broadcast(x, dims)` after a reduction over `axes` of the broadcast's result,
/// when every reduced axis is a dim the broadcast added (none is in `dims`): unchanged with
/// `keep_dims`, else renumbered past the removed axes.
pub fn dims_after_reduce(dims: &[usize], axes: &[usize], keep_dims: bool) -> Option<Vec<usize>> {
    if axes.iter().any(|a| dims.contains(a)) {
        return None;
    }
    Some(if keep_dims {
        dims.to_vec()
    } else {
        dims.iter()
            .map(|&d| d - axes.iter().filter(|&&a| a < d).count())
            .collect()
    })
}

/// Does transposing a tensor of `shape` by `p` keep the row-major element order, while not
/// being the identity? True when `p` is a permutation of the right length whose non-size-1
/// dims stay in increasing order (only size-1 dims move), so the transpose is a reshape.
pub fn moves_only_unit_dims(shape: &[usize], p: &[usize]) -> bool {
    if p.len() != shape.len() || !is_permutation(p) || p.iter().enumerate().all(|(i, &x)| i == x) {
        return false;
    }
    let kept: Vec<usize> = p.iter().copied().filter(|&x| shape[x] != 1).collect();
    kept.windows(2).all(|w| w[0] < w[1])
}

/// Does broadcasting a tensor of `shape` by `dims` to `out` only insert size-1 dims (so it is
/// a reshape)? `dims` strictly increasing, every operand dim kept at its size, every new dim
/// of size 1, and at least one new dim.
pub fn inserts_only_unit_dims(shape: &[usize], dims: &[usize], out: &[usize]) -> bool {
    dims.len() == shape.len()
        && out.len() > shape.len()
        && dims.windows(2).all(|w| w[0] < w[1])
        && dims
            .iter()
            .zip(shape)
            .all(|(&d, &n)| out.get(d) == Some(&n))
        && (0..out.len()).all(|j| dims.contains(&j) || out[j] == 1)
}

/// Is broadcasting a tensor of `shape` by `dims` to `out` a transpose (by the inverse of
/// `dims`)? `dims` a permutation of the operand's dims, not the identity, and no dim
/// stretched: `out[dims[i]] == shape[i]`.
pub fn permutes_without_stretch(shape: &[usize], dims: &[usize], out: &[usize]) -> bool {
    dims.len() == shape.len()
        && out.len() == shape.len()
        && is_permutation(dims)
        && dims.iter().enumerate().any(|(i, &x)| i != x)
        && dims.iter().zip(shape).all(|(&d, &n)| out[d] == n)
}

/// For `reduce(transpose(x, p), axes, keep_dims = false)`: the permutation `q` with
/// `transpose(reduce(x, map(axes, p)), q)` equal to it. Result dim `i` is the `i`-th kept dim
/// `k` of the transpose, that is `x`'s dim `p[k]`, whose place among `x`'s kept dims is `q[i]`.
pub fn perm_after_reduce(p: &[usize], axes: &[usize]) -> Option<Vec<usize>> {
    if !is_permutation(p) || !valid_axes(axes, p.len()) {
        return None;
    }
    let kept: Vec<usize> = (0..p.len()).filter(|d| !axes.contains(d)).collect();
    let mut x_kept: Vec<usize> = kept.iter().map(|&k| p[k]).collect();
    x_kept.sort_unstable();
    kept.iter()
        .map(|&k| x_kept.iter().position(|&d| d == p[k]))
        .collect()
}

/// The transpose that swaps the lhs-free and rhs-free blocks of a `dot_general` result of
/// operands of ranks `lhs_rank` and `rhs_rank`: batch dims stay in front, then the rhs free
/// dims, then the lhs free dims. `transpose(dot(a, b, d), that) == dot(b, a, swap(d))`.
pub fn dot_swap_perm(d: &DotDims, lhs_rank: usize, rhs_rank: usize) -> Option<Vec<usize>> {
    let nb = d.lhs_batch.len();
    let nl = lhs_rank.checked_sub(nb + d.lhs_contract.len())?;
    let nr = rhs_rank.checked_sub(d.rhs_batch.len() + d.rhs_contract.len())?;
    let mut p: Vec<usize> = (0..nb).collect();
    p.extend(nb + nl..nb + nl + nr);
    p.extend(nb..nb + nl);
    Some(p)
}

/// `dot_general` dims with the operands swapped.
pub fn swap_dot_dims(d: &DotDims) -> DotDims {
    DotDims {
        lhs_batch: d.rhs_batch.clone(),
        rhs_batch: d.lhs_batch.clone(),
        lhs_contract: d.rhs_contract.clone(),
        rhs_contract: d.lhs_contract.clone(),
        result_dtype: d.result_dtype,
        precision: d.precision.map(|[l, r]| [r, l]),
    }
}

/// Is `v` a power of two (of either sign) whose reciprocal is a normal number of the float
/// dtype `d`? Then `x / v` and `x * (1 / v)` are both the correctly rounded `x · 2^-k`, for
/// every `x` (NaN, infinities, zeros and subnormal results included).
pub fn exact_reciprocal(d: DType, v: f64) -> bool {
    if !d.is_float() || !v.is_finite() || v == 0.0 {
        return false;
    }
    let m = v.abs();
    let is_pow2 = m.to_bits() & ((1u64 << 52) - 1) == 0 && m.is_normal();
    let r = 1.0 / m;
    let min_normal = match d {
        DType::F16 => 6.103515625e-5,
        DType::BF16 | DType::F32 => f32::MIN_POSITIVE as f64,
        _ => f64::MIN_POSITIVE,
    };
    let max = match d {
        DType::F16 => 65504.0,
        DType::BF16 => 3.3895313892515355e38,
        DType::F32 => f32::MAX as f64,
        _ => f64::MAX,
    };
    is_pow2 && r >= min_normal && r <= max && m >= min_normal && m <= max
}

fn same_ints(a: &Bound<'_>, b: &Bound<'_>) -> bool {
    matches!((a.ints(), b.ints()), (Some(x), Some(y)) if x == y)
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Registers (or replaces) a predicate.
    pub fn add_predicate(
        &mut self,
        name: &str,
        arity: usize,
        doc: &'static str,
        test: impl Fn(&[Bound<'_>]) -> bool + Send + Sync + 'static,
    ) {
        let p = Predicate {
            arity,
            test: Some(Arc::new(test)),
            use_counts: false,
            doc,
        };
        self.predicates.insert(name.to_string(), p);
    }

    /// Registers a predicate each engine decides itself from use counts (`single-use`: the
    /// engines know it by name, so it is not for library users to add others).
    fn add_use_count_predicate(&mut self, name: &str, arity: usize, doc: &'static str) {
        let p = Predicate {
            arity,
            test: None,
            use_counts: true,
            doc,
        };
        self.predicates.insert(name.to_string(), p);
    }

    /// Registers (or replaces) a native function.
    pub fn add_native(
        &mut self,
        name: &str,
        arity: usize,
        returns: AttrKind,
        doc: &'static str,
        call: impl Fn(&[Bound<'_>]) -> Option<AttrValue> + Send + Sync + 'static,
    ) {
        let n = Native {
            arity,
            returns,
            call: Arc::new(call),
            doc,
        };
        self.natives.insert(name.to_string(), n);
    }

    /// Registers (or replaces) a native builder: `values` value arguments then attribute
    /// arguments of kinds `attrs` (see [`crate::builders`]).
    pub fn add_builder(
        &mut self,
        name: &str,
        values: usize,
        attrs: &'static [AttrKind],
        doc: &'static str,
        call: impl Fn(&[Type], &[AttrValue]) -> Option<Built> + Send + Sync + 'static,
    ) {
        let b = NativeBuilder {
            values,
            attrs,
            call: Arc::new(call),
            doc,
        };
        self.builders.insert(name.to_string(), b);
    }

    /// The native builder named `name`.
    pub fn builder(&self, name: &str) -> Option<&NativeBuilder> {
        self.builders.get(name)
    }

    /// Names of all native builders, in registration order.
    pub fn builder_names(&self) -> impl Iterator<Item = &str> {
        self.builders.keys().map(String::as_str)
    }

    /// The predicate named `name`.
    pub fn predicate(&self, name: &str) -> Option<&Predicate> {
        self.predicates.get(name)
    }

    /// The native function named `name`.
    pub fn native(&self, name: &str) -> Option<&Native> {
        self.natives.get(name)
    }

    /// Names of all predicates, in registration order.
    pub fn predicate_names(&self) -> impl Iterator<Item = &str> {
        self.predicates.keys().map(String::as_str)
    }

    /// Names of all native functions, in registration order.
    pub fn native_names(&self) -> impl Iterator<Item = &str> {
        self.natives.keys().map(String::as_str)
    }

    /// The predicates and natives that `rules/` uses.
    ///
    /// ```
    /// use ptir_rules::{AttrValue, Bound, Registry};
    /// let r = Registry::standard();
    /// let p = Bound::attribute(AttrValue::Ints(vec![1, 2, 0]));
    /// let q = Bound::attribute(AttrValue::Ints(vec![2, 0, 1]));
    /// assert!((r.predicate("inverse-perm").unwrap().test.as_ref().unwrap())(&[p, q]));
    /// ```
    pub fn standard() -> Self {
        let mut r = Registry::new();
        r.add_standard_predicates();
        r.add_standard_natives();
        for (name, values, attrs, doc, call) in crate::builders::standard_builders() {
            r.add_builder(name, values, attrs, doc, call);
        }
        r
    }

    fn add_standard_predicates(&mut self) {
        self.add_predicate("inverse-perm", 2, "transpose by ?p then ?q is the identity", |a| {
            matches!((a[0].ints(), a[1].ints()), (Some(p), Some(q)) if compose_perm(p, q).is_some_and(|r| r.iter().enumerate().all(|(i, &x)| i == x)))
        });
        self.add_predicate("identity-perm", 1, "?p is 0, 1, ..., n-1", |a| {
            a[0].ints()
                .is_some_and(|p| p.iter().enumerate().all(|(i, &x)| i == x))
        });
        self.add_predicate(
            "eq",
            2,
            "two attributes are equal",
            |a| matches!((a[0].attr(), a[1].attr()), (Some(x), Some(y)) if x.same(y)),
        );
        self.add_predicate(
            "same-type",
            2,
            "two values have the same dtype and shape",
            |a| matches!((&a[0], &a[1]), (Bound::Value(x), Bound::Value(y)) if x == y),
        );
        self.add_predicate(
            "has-shape",
            2,
            "value ?x has shape ?s",
            |a| matches!((a[0].tensor(), a[1].ints()), (Some(t), Some(s)) if t.shape == s),
        );
        self.add_predicate(
            "has-dtype",
            2,
            "value ?x has dtype ?d",
            |a| matches!((a[0].tensor(), a[1].dtype()), (Some(t), Some(d)) if t.dtype == d),
        );
        self.add_predicate("float", 1, "the value's dtype is a float type", |a| {
            a[0].dtype().is_some_and(DType::is_float)
        });
        self.add_predicate("int", 1, "the value's dtype is an integer type", |a| {
            a[0].dtype().is_some_and(DType::is_int)
        });
        self.add_predicate("exact-embedding", 2, "every value of dtype ?a converts to dtype ?b and back unchanged", |a| {
            matches!((a[0].dtype(), a[1].dtype()), (Some(x), Some(y)) if x.embeds_exactly_in(y))
        });
        self.add_predicate("exact-cast-chain", 3, "casting value ?x to dtype ?a then to ?b casts its own value to ?b: no integer goes through a float to an integer dtype that does not hold every value of ?x's dtype (a float converts saturating, an integer wrapping)", |a| {
            match (a[0].dtype(), a[1].dtype(), a[2].dtype()) {
                (Some(x), Some(via), Some(to)) => {
                    !(x.is_int() && via.is_float() && to.is_int()) || x.embeds_exactly_in(to)
                }
                _ => false,
            }
        });
        self.add_predicate("identity-broadcast", 2, "broadcast dims ?d of value ?x to ?x's own shape is the identity", |a| {
            matches!((a[0].tensor(), a[1].ints()), (Some(t), Some(d)) if d.iter().enumerate().all(|(i, &x)| i == x) && d.len() == t.rank())
        });
        self.add_predicate(
            "no-padding",
            1,
            "pad attributes ?p pad nothing (low, high and interior all 0)",
            |a| matches!(a[0].attr(), Some(AttrValue::Pad(p)) if p.is_none()),
        );
        self.add_predicate(
            "slice-unpads",
            5,
            "the slice ?s ?l ?t of value ?x padded by ?p is ?x: no interior padding, stride 1, from the low padding to ?x's extent",
            |a| {
                let (Some(x), Some(AttrValue::Pad(p)), Some(s), Some(l), Some(t)) =
                    (a[0].tensor(), a[1].attr(), a[2].ints(), a[3].ints(), a[4].ints())
                else {
                    return false;
                };
                let n = x.shape.len();
                [p.low.len(), p.high.len(), p.interior.len(), s.len(), l.len(), t.len()]
                    .iter()
                    .all(|&k| k == n)
                    && (0..n).all(|i| {
                        p.interior[i] == 0
                            && t[i] == 1
                            && usize::try_from(p.low[i]).is_ok_and(|low| {
                                s[i] == low && l[i] == low + x.shape[i]
                            })
                    })
            },
        );
        self.add_predicate(
            "ragged-dot",
            3,
            "the dot_general of values ?a and ?b with dims ?d has a free dim of 32 or more elements that is not a multiple of 8",
            |a| match (a[0].ty(), a[1].ty(), a[2].attr()) {
                (Some(x), Some(y), Some(AttrValue::Dims(d))) => {
                    crate::builders::ragged_free_dims(d, &[x, y]) > 0
                }
                _ => false,
            },
        );
        self.add_predicate("same-ints", 2, "two index lists are equal", |a| {
            same_ints(&a[0], &a[1])
        });
        self.add_predicate(
            "not-float",
            1,
            "the value's dtype is an integer type or bool (no NaN, no signed zero)",
            |a| a[0].dtype().is_some_and(|d| !d.is_float()),
        );
        self.add_predicate("has-dim", 3, "axis ?a of value ?x has size ?n", |a| {
            matches!((a[0].tensor(), a[1].attr(), a[2].attr()), (Some(t), Some(AttrValue::Int(i)), Some(AttrValue::Int(n))) if t.shape.get(*i) == Some(n))
        });
        self.add_predicate("same-dim", 4, "axis ?a of value ?x has the size of axis ?b of value ?y", |a| {
            matches!((a[0].tensor(), a[1].attr(), a[2].tensor(), a[3].attr()), (Some(x), Some(AttrValue::Int(i)), Some(y), Some(AttrValue::Int(j))) if x.shape.get(*i).is_some() && x.shape.get(*i) == y.shape.get(*j))
        });
        self.add_predicate(
            "dim-value",
            3,
            "number ?c is the size of axis ?a of value ?x",
            |a| dim_number(a, |n| n),
        );
        self.add_predicate(
            "dim-inverse",
            3,
            "number ?c is 1 / the size of axis ?a of value ?x (in f64, or rounded to f32)",
            |a| dim_number(a, |n| 1.0 / n),
        );
        self.add_predicate("has-rank", 2, "value ?x has rank ?n", |a| {
            matches!((a[0].tensor(), a[1].attr()), (Some(t), Some(AttrValue::Int(n))) if t.rank() == *n)
        });
        self.add_predicate(
            "unit-axes",
            2,
            "every axis of ?axes has size 1 in value ?x",
            |a| matches!((a[0].tensor(), a[1].ints()), (Some(t), Some(ax)) if valid_axes(ax, t.rank()) && ax.iter().all(|&i| t.shape[i] == 1)),
        );
        self.add_predicate(
            "increasing-on",
            2,
            "permutation ?p keeps the order of the axes ?axes (p[a] < p[b] for a < b in ?axes)",
            |a| match (a[0].ints(), a[1].ints()) {
                (Some(p), Some(ax)) if is_permutation(p) && valid_axes(ax, p.len()) => {
                    let mut ax = ax.to_vec();
                    ax.sort_unstable();
                    ax.windows(2).all(|w| p[w[0]] < p[w[1]])
                }
                _ => false,
            },
        );
        self.add_predicate(
            "reduces-new-dims",
            3,
            "reducing ?axes of broadcast(_, ?dims, ?shape) only reduces dims the broadcast added, each of size >= 1",
            |a| match (a[0].ints(), a[1].ints(), a[2].ints()) {
                (Some(d), Some(s), Some(ax)) => {
                    valid_axes(ax, s.len()) && ax.iter().all(|&i| !d.contains(&i) && s[i] >= 1)
                }
                _ => false,
            },
        );
        self.add_predicate(
            "exact-reciprocal",
            2,
            "number ?v is a power of two whose reciprocal is exact in ?x's float dtype",
            |a| matches!((a[0].dtype(), a[1].attr()), (Some(d), Some(AttrValue::Number(v))) if exact_reciprocal(d, *v)),
        );
        self.add_predicate(
            "unit-dims-transpose",
            2,
            "transposing value ?x by ?p (not the identity) only moves dims of size 1",
            |a| matches!((a[0].tensor(), a[1].ints()), (Some(t), Some(p)) if moves_only_unit_dims(&t.shape, p)),
        );
        self.add_predicate(
            "unit-dims-broadcast",
            3,
            "broadcast of value ?x by dims ?d to shape ?s only inserts dims of size 1",
            |a| matches!((a[0].tensor(), a[1].ints(), a[2].ints()), (Some(t), Some(d), Some(s)) if inserts_only_unit_dims(&t.shape, d, s)),
        );
        self.add_predicate(
            "permuting-broadcast",
            3,
            "broadcast of value ?x by dims ?d (a permutation, not the identity) to shape ?s stretches no dim",
            |a| matches!((a[0].tensor(), a[1].ints(), a[2].ints()), (Some(t), Some(d), Some(s)) if permutes_without_stretch(&t.shape, d, s)),
        );
        self.add_use_count_predicate(
            crate::ast::SINGLE_USE,
            1,
            "the matched value has exactly one user (greedy: when matched; saturation: in the \
             extracted program, else the unfused form is extracted)",
        );
    }

    fn add_standard_natives(&mut self) {
        use AttrKind::*;
        self.add_native(
            "compose-perm",
            2,
            Ints,
            "the one transpose equal to transposing by ?p then ?q",
            |a| compose_perm(a[0].ints()?, a[1].ints()?).map(AttrValue::Ints),
        );
        self.add_native("invert-perm", 1, Ints, "the inverse permutation", |a| {
            invert_perm(a[0].ints()?).map(AttrValue::Ints)
        });
        self.add_native(
            "permute",
            2,
            Ints,
            "list ?l reordered by permutation ?p: out[i] = l[p[i]]",
            |a| {
                let (l, p) = (a[0].ints()?, a[1].ints()?);
                (l.len() == p.len() && is_permutation(p))
                    .then(|| AttrValue::Ints(p.iter().map(|&i| l[i]).collect()))
            },
        );
        self.add_native(
            "map-dims",
            2,
            Ints,
            "indices ?l mapped through permutation ?p: out[i] = p[l[i]]",
            |a| {
                let (l, p) = (a[0].ints()?, a[1].ints()?);
                l.iter()
                    .map(|&i| p.get(i).copied())
                    .collect::<Option<Vec<_>>>()
                    .map(AttrValue::Ints)
            },
        );
        self.add_native("shape-of", 1, Ints, "the shape of value ?x", |a| {
            Some(AttrValue::Ints(a[0].tensor()?.shape.clone()))
        });
        self.add_native("dtype-of", 1, DType, "the dtype of value ?x", |a| {
            a[0].dtype().map(AttrValue::DType)
        });
        self.add_native("iota", 1, Ints, "0, 1, ..., rank-1 for value ?x", |a| {
            Some(AttrValue::Ints((0..a[0].tensor()?.rank()).collect()))
        });
        self.add_native(
            "last-axis-of",
            1,
            Ints,
            "(rank-1): the last axis of value ?x, as an axes list",
            |a| {
                let r = a[0].tensor()?.rank();
                (r > 0).then(|| AttrValue::Ints(vec![r - 1]))
            },
        );
        self.add_native(
            "restore-dims",
            3,
            Ints,
            "broadcast dims that put reduce(?x, ?axes, ?keep) back into ?x's shape",
            |a| {
                let keep = matches!(a[2].attr()?, AttrValue::Bool(true));
                restore_dims(a[0].tensor()?.rank(), a[1].ints()?, keep).map(AttrValue::Ints)
            },
        );
        self.add_native(
            "axes-size",
            2,
            Number,
            "the number of elements reduce(?x, ?axes) adds up: the product of those dims' sizes (?x a value or a shape)",
            |a| {
                let (s, ax) = (shape_arg(&a[0])?, a[1].ints()?);
                valid_axes(ax, s.len())
                    .then(|| AttrValue::Number(ax.iter().map(|&i| s[i] as f64).product()))
            },
        );
        self.add_native(
            "reduced-shape",
            3,
            Ints,
            "shape ?s (or a value's shape) after reducing ?axes with keep_dims ?keep",
            |a| {
                let (s, ax) = (shape_arg(&a[0])?, a[1].ints()?);
                let keep = matches!(a[2].attr()?, AttrValue::Bool(true));
                valid_axes(ax, s.len())
                    .then(|| AttrValue::Ints(ptir_ir::reduced_shape(s, ax, keep)))
            },
        );
        self.add_native(
            "dims-after-reduce",
            3,
            Ints,
            "broadcast dims ?d after reducing ?axes (all of them added by the broadcast) with keep_dims ?keep",
            |a| {
                let keep = matches!(a[2].attr()?, AttrValue::Bool(true));
                dims_after_reduce(a[0].ints()?, a[1].ints()?, keep).map(AttrValue::Ints)
            },
        );
        self.add_native(
            "perm-after-reduce",
            2,
            Ints,
            "the transpose left after moving reduce(keep_dims = false) over ?axes before transpose ?p",
            |a| perm_after_reduce(a[0].ints()?, a[1].ints()?).map(AttrValue::Ints),
        );
        self.add_native(
            "fill-like",
            2,
            Ints,
            "a list of rank(?x) copies of ?n",
            |a| match a[1].attr()? {
                AttrValue::Int(n) => Some(AttrValue::Ints(vec![*n; a[0].tensor()?.rank()])),
                _ => None,
            },
        );
        self.add_native(
            "dot-swap-perm",
            3,
            Ints,
            "the transpose of dot_general(?a, ?b, ?d) that puts the rhs free dims before the lhs free dims",
            |a| match a[0].attr()? {
                AttrValue::Dims(d) => {
                    dot_swap_perm(d, a[1].tensor()?.rank(), a[2].tensor()?.rank()).map(AttrValue::Ints)
                }
                _ => None,
            },
        );
        self.add_native(
            "swap-dot-dims",
            1,
            Dims,
            "dot_general dims ?d with lhs and rhs exchanged",
            |a| match a[0].attr()? {
                AttrValue::Dims(d) => Some(AttrValue::Dims(swap_dot_dims(d))),
                _ => None,
            },
        );
        self.add_contraction_natives();
        self.add_native("reciprocal", 1, Number, "1 / ?v", |a| {
            match a[0].attr()? {
                AttrValue::Number(v) => Some(AttrValue::Number(1.0 / v)),
                _ => None,
            }
        });
        self.add_native(
            "absorb-lhs-transpose",
            2,
            Dims,
            "dot dims ?d with the lhs transpose ?p folded in",
            |a| match a[0].attr()? {
                AttrValue::Dims(d) => absorb_lhs_transpose(d, a[1].ints()?).map(AttrValue::Dims),
                _ => None,
            },
        );
        self.add_native(
            "absorb-rhs-transpose",
            2,
            Dims,
            "dot dims ?d with the rhs transpose ?p folded in",
            |a| match a[0].attr()? {
                AttrValue::Dims(d) => absorb_rhs_transpose(d, a[1].ints()?).map(AttrValue::Dims),
                _ => None,
            },
        );
    }
    /// Natives of [`crate::contraction`]: slices through `dot_general`, broadcast products
    /// as contractions, reductions through broadcasts.
    fn add_contraction_natives(&mut self) {
        use crate::contraction::{self, Side, SlicePart};
        use AttrKind::*;
        const SLICES: [(&str, Side, SlicePart, &str); 6] = [
            ("dot-lhs-start", Side::Lhs, SlicePart::Start, "starts of the lhs slice that slice(dot_general(?a, ?b, ?d)) with starts ?l reads"),
            ("dot-lhs-limit", Side::Lhs, SlicePart::Limit, "limits of the lhs slice that slice(dot_general(?a, ?b, ?d)) with limits ?l reads"),
            ("dot-lhs-stride", Side::Lhs, SlicePart::Stride, "strides of the lhs slice that slice(dot_general(?a, ?b, ?d)) with strides ?l reads"),
            ("dot-rhs-start", Side::Rhs, SlicePart::Start, "starts of the rhs slice that slice(dot_general(?a, ?b, ?d)) with starts ?l reads"),
            ("dot-rhs-limit", Side::Rhs, SlicePart::Limit, "limits of the rhs slice that slice(dot_general(?a, ?b, ?d)) with limits ?l reads"),
            ("dot-rhs-stride", Side::Rhs, SlicePart::Stride, "strides of the rhs slice that slice(dot_general(?a, ?b, ?d)) with strides ?l reads"),
        ];
        for (name, side, part, doc) in SLICES {
            self.add_native(name, 4, Ints, doc, move |a| match a[0].attr()? {
                AttrValue::Dims(d) => {
                    let (l, r) = (&a[1].tensor()?.shape, &a[2].tensor()?.shape);
                    contraction::dot_operand_slice(d, l, r, side, part, a[3].ints()?)
                        .map(AttrValue::Ints)
                }
                _ => None,
            });
        }
        for (name, side, doc) in [
            ("dot-lhs-dims-in-result", Side::Lhs, "the result dims of dot_general(?a, ?b, ?d) that the lhs dims ?l become (none contracted)"),
            ("dot-rhs-dims-in-result", Side::Rhs, "the result dims of dot_general(?a, ?b, ?d) that the rhs dims ?l become (none contracted)"),
        ] {
            self.add_native(name, 4, Ints, doc, move |a| match a[0].attr()? {
                AttrValue::Dims(d) => {
                    let (l, r) = (a[1].tensor()?.rank(), a[2].tensor()?.rank());
                    contraction::operand_dims_in_result(d, l, r, side, a[3].ints()?)
                        .map(AttrValue::Ints)
                }
                _ => None,
            });
        }
        let projected = |a: &[Bound]| match (a[0].attr()?, a[3].attr()?) {
            (AttrValue::Gather(g), AttrValue::Dims(d)) => {
                let (x, w) = (&a[1].tensor()?.shape, &a[2].tensor()?.shape);
                contraction::projected_row_gather(g, x, w, d, a[4].tensor()?.rank())
            }
            _ => None,
        };
        self.add_native(
            "projected-row-gather",
            5,
            Gather,
            "the gather that reads rows of ?x @ ?w as dot_general(?v = gather(?x, _, ?g), ?w, ?d) reads rows of ?x (none unless ?g takes whole rows of the 2-d ?x and ?d contracts them with the 2-d ?w)",
            move |a| projected(a).map(|g| AttrValue::Gather(Box::new(g))),
        );
        self.add_native(
            "row-projection-dims",
            1,
            Dims,
            "dot_general dims ?d contracting the lhs dim 1 instead (a 2-d table's rows), its result dtype and precision kept",
            |a| match a[0].attr()? {
                AttrValue::Dims(d) => Some(AttrValue::Dims(DotDims {
                    lhs_contract: vec![1],
                    ..d.clone()
                })),
                _ => None,
            },
        );
        self.add_predicate(
            "row-gather-projects",
            5,
            "projected-row-gather ?g ?x ?w ?d ?v exists: ?v = gather(?x, _, ?g) takes whole rows of the 2-d ?x, which ?d contracts with the 2-d ?w",
            move |a| projected(a).is_some(),
        );
        let contraction = |a: &[Bound]| {
            contraction::broadcast_contraction(
                &a[0].tensor()?.shape,
                a[1].ints()?,
                &a[2].tensor()?.shape,
                a[3].ints()?,
                a[4].ints()?,
                a[5].ints()?,
            )
        };
        self.add_native(
            "broadcast-contraction-dims",
            6,
            Dims,
            "the dot_general dims of reduce_sum(mul(broadcast(?a, ?da, ?s), broadcast(?b, ?db, ?s)), ?ax) when it is a contraction",
            move |a| contraction(a).map(|(d, _)| AttrValue::Dims(d)),
        );
        self.add_native(
            "broadcast-contraction-perm",
            6,
            Ints,
            "the transpose that puts that contraction's result in the reduction's dim order",
            move |a| contraction(a).map(|(_, p)| AttrValue::Ints(p)),
        );
        let through = |a: &[Bound]| {
            contraction::reduce_through_broadcast(
                &a[0].tensor()?.shape,
                a[1].ints()?,
                a[2].ints()?,
                a[3].ints()?,
            )
        };
        self.add_native(
            "reduced-broadcast-axes",
            4,
            Ints,
            "the axes of ?x that reduce_sum(broadcast(?x, ?d, ?s), ?ax) sums, when they are all ?x's own, unstretched and in order",
            move |a| through(a).map(|(ax, _)| AttrValue::Ints(ax)),
        );
        self.add_native(
            "reduced-broadcast-dims",
            4,
            Ints,
            "the broadcast dims of reduce_sum(x, reduced-broadcast-axes) into the reduction's shape",
            move |a| through(a).map(|(_, d)| AttrValue::Ints(d)),
        );
    }
}

/// Is number `a[0]` equal to `f(size)`, the size of axis `a[2]` of value `a[1]`, exactly or
/// after rounding both to f32 (a constant of an f32 program holds `f(size)` rounded)?
fn dim_number(a: &[Bound], f: impl Fn(f64) -> f64) -> bool {
    let (Some(AttrValue::Number(c)), Some(t), Some(AttrValue::Int(i))) =
        (a[0].attr(), a[1].tensor(), a[2].attr())
    else {
        return false;
    };
    t.shape.get(*i).is_some_and(|&n| {
        let want = f(n as f64);
        *c == want || (*c as f32) == (want as f32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimension_predicates() {
        let r = Registry::standard();
        let test =
            |name: &str, args: &[Bound]| (r.predicate(name).unwrap().test.as_ref().unwrap())(args);
        let t = |shape: Vec<usize>| {
            Bound::value(ptir_ir::Type::Tensor(ptir_ir::TensorType::new(
                DType::F32,
                shape,
            )))
        };
        let int = |i: usize| Bound::attribute(AttrValue::Int(i));
        let num = |x: f64| Bound::attribute(AttrValue::Number(x));
        assert!(test("has-dim", &[t(vec![2, 16]), int(1), int(16)]));
        assert!(!test("has-dim", &[t(vec![2, 16]), int(2), int(16)]));
        assert!(test(
            "same-dim",
            &[t(vec![2, 16]), int(1), t(vec![16]), int(0)]
        ));
        assert!(!test(
            "same-dim",
            &[t(vec![2, 16]), int(0), t(vec![16]), int(0)]
        ));
        assert!(test("dim-value", &[num(16.0), t(vec![2, 16]), int(1)]));
        assert!(!test("dim-value", &[num(8.0), t(vec![2, 16]), int(1)]));
        // 1/3 held by an f32 constant is 1/3 rounded to f32
        assert!(test(
            "dim-inverse",
            &[num((1.0f32 / 3.0) as f64), t(vec![3]), int(0)]
        ));
        assert!(!test("dim-inverse", &[num(0.25), t(vec![3]), int(0)]));
    }

    #[test]
    fn perm_algebra() {
        let p = vec![1, 2, 0];
        let inv = invert_perm(&p).unwrap();
        assert_eq!(compose_perm(&p, &inv), Some(vec![0, 1, 2]));
        assert_eq!(compose_perm(&[1, 0], &[0]), None);
    }

    #[test]
    fn layout_moves_that_are_reshapes_or_transposes() {
        // [2, 1, 3] -> [1, 2, 3] moves only the size-1 dim; [2, 1, 3] -> [3, 1, 2] does not.
        assert!(moves_only_unit_dims(&[2, 1, 3], &[1, 0, 2]));
        assert!(!moves_only_unit_dims(&[2, 1, 3], &[2, 1, 0]));
        assert!(
            !moves_only_unit_dims(&[2, 1, 3], &[0, 1, 2]),
            "identity is not claimed"
        );
        assert!(!moves_only_unit_dims(&[2, 1], &[0, 0]));
        // [2, 3] -> [1, 2, 1, 3] inserts size-1 dims; stretching or reordering does not.
        assert!(inserts_only_unit_dims(&[2, 3], &[1, 3], &[1, 2, 1, 3]));
        assert!(!inserts_only_unit_dims(&[2, 3], &[1, 3], &[4, 2, 1, 3]));
        assert!(!inserts_only_unit_dims(&[2, 3], &[3, 1], &[1, 3, 1, 2]));
        assert!(!inserts_only_unit_dims(&[2, 3], &[0, 1], &[2, 3]));
        // [2, 3] by dims [1, 0] to [3, 2] is transpose [1, 0]; to [3, 3] it would stretch.
        assert!(permutes_without_stretch(&[2, 3], &[1, 0], &[3, 2]));
        assert!(!permutes_without_stretch(&[1, 3], &[1, 0], &[3, 4]));
        assert!(!permutes_without_stretch(&[2, 3], &[0, 1], &[2, 3]));
    }

    #[test]
    fn reduction_helpers() {
        // reduce over axis 1 of a rank-3 value, put back by broadcast
        assert_eq!(restore_dims(3, &[1], true), Some(vec![0, 1, 2]));
        assert_eq!(restore_dims(3, &[1], false), Some(vec![0, 2]));
        assert_eq!(restore_dims(2, &[2], false), None);
        // broadcast [a, b] -> [n, a, m, b] (dims [1, 3]); reducing the new dims 0 and 2
        assert_eq!(dims_after_reduce(&[1, 3], &[0, 2], false), Some(vec![0, 1]));
        assert_eq!(dims_after_reduce(&[1, 3], &[0, 2], true), Some(vec![1, 3]));
        assert_eq!(dims_after_reduce(&[1, 3], &[1], false), None);
        // transpose [x2, x0, x1] reduced over its dim 1 (x0) leaves (x2, x1); reducing x
        // over dim 0 leaves (x1, x2), so a [1, 0] transpose remains.
        assert_eq!(perm_after_reduce(&[2, 0, 1], &[1]), Some(vec![1, 0]));
        assert_eq!(perm_after_reduce(&[1, 0, 2], &[2]), Some(vec![1, 0]));
        assert_eq!(perm_after_reduce(&[0, 1], &[3]), None);
    }

    #[test]
    fn dot_swap_helpers() {
        let d = DotDims::matmul();
        assert_eq!(dot_swap_perm(&d, 2, 2), Some(vec![1, 0]));
        let s = swap_dot_dims(&d);
        assert_eq!((s.lhs_contract, s.rhs_contract), (vec![0], vec![1]));
        // batched [b, m, k] x [b, k, n] -> [b, m, n]; swapped: [b, n, m]
        assert_eq!(
            dot_swap_perm(&DotDims::batch_matmul(), 3, 3),
            Some(vec![0, 2, 1])
        );
        // [m, k1, k2] x [k1, k2] -> [m]: no rhs free dim, nothing moves
        let v = DotDims {
            lhs_contract: vec![1, 2],
            rhs_contract: vec![0, 1],
            ..DotDims::default()
        };
        assert_eq!(dot_swap_perm(&v, 3, 2), Some(vec![0]));
    }

    #[test]
    fn exact_reciprocals_are_powers_of_two_in_range() {
        assert!(exact_reciprocal(DType::F32, 8.0));
        assert!(exact_reciprocal(DType::F32, -0.5));
        assert!(exact_reciprocal(DType::F16, 1024.0));
        assert!(!exact_reciprocal(DType::F32, 3.0));
        assert!(!exact_reciprocal(DType::F16, 131072.0)); // not an f16 value
        assert!(!exact_reciprocal(DType::F16, 1.0 / 131072.0)); // reciprocal overflows f16
        assert!(!exact_reciprocal(DType::I32, 2.0));
        assert!(!exact_reciprocal(DType::F64, 0.0));
        assert!(!exact_reciprocal(DType::F64, f64::INFINITY));
    }

    #[test]
    fn standard_natives_and_predicates() {
        let r = Registry::standard();
        let t = |shape: &[usize]| -> Bound {
            Bound::value(ptir_ir::TensorType::new(DType::F32, shape.to_vec()).into())
        };
        let ints = |xs: &[usize]| Bound::attribute(AttrValue::Ints(xs.to_vec()));
        let call = |name: &str, args: &[Bound]| (r.native(name).unwrap().call)(args);
        let test =
            |name: &str, args: &[Bound]| (r.predicate(name).unwrap().test.as_ref().unwrap())(args);
        assert_eq!(
            call("last-axis-of", &[t(&[4, 8])]),
            Some(AttrValue::Ints(vec![1]))
        );
        assert_eq!(call("last-axis-of", &[t(&[])]), None);
        assert_eq!(
            call("axes-size", &[t(&[4, 8, 2]), ints(&[1, 2])]),
            Some(AttrValue::Number(16.0))
        );
        assert_eq!(
            call(
                "reduced-shape",
                &[
                    ints(&[4, 8, 2]),
                    ints(&[1]),
                    Bound::attribute(AttrValue::Bool(true))
                ]
            ),
            Some(AttrValue::Ints(vec![4, 1, 2]))
        );
        assert_eq!(
            call(
                "fill-like",
                &[t(&[4, 8]), Bound::attribute(AttrValue::Int(1))]
            ),
            Some(AttrValue::Ints(vec![1, 1]))
        );
        assert_eq!(
            call("reciprocal", &[Bound::attribute(AttrValue::Number(8.0))]),
            Some(AttrValue::Number(0.125))
        );
        assert!(test("unit-axes", &[t(&[4, 1, 1]), ints(&[1, 2])]));
        assert!(!test("unit-axes", &[t(&[4, 1, 1]), ints(&[0])]));
        assert!(test("increasing-on", &[ints(&[2, 0, 1]), ints(&[1, 2])]));
        assert!(!test("increasing-on", &[ints(&[2, 0, 1]), ints(&[0, 1])]));
        assert!(test(
            "reduces-new-dims",
            &[ints(&[1]), ints(&[3, 4]), ints(&[0])]
        ));
        assert!(!test(
            "reduces-new-dims",
            &[ints(&[1]), ints(&[3, 4]), ints(&[1])]
        ));
        assert!(test(
            "has-rank",
            &[t(&[4, 8]), Bound::attribute(AttrValue::Int(2))]
        ));
        assert!(test(
            "not-float",
            &[Bound::attribute(AttrValue::DType(DType::Bool))]
        ));
        assert!(!test("not-float", &[t(&[2])]));
    }

    #[test]
    fn absorbing_a_transpose_keeps_free_dim_order() {
        // lhs [k, m] transposed to [m, k], contracted on dim 1 (k): on the original that is dim 0.
        let d = DotDims::matmul();
        let got = absorb_lhs_transpose(&d, &[1, 0]).unwrap();
        assert_eq!(got.lhs_contract, vec![0]);
        // A transpose that reorders two free dims cannot be absorbed.
        let d3 = DotDims {
            lhs_contract: vec![2],
            rhs_contract: vec![0],
            ..DotDims::default()
        };
        assert_eq!(absorb_lhs_transpose(&d3, &[1, 0, 2]), None);
        // Batch dim 0 of the transposed operand is dim 1 of the original: not absorbed (the
        // batch would no longer lead), though the free dims keep their order.
        assert_eq!(
            absorb_lhs_transpose(&DotDims::batch_matmul(), &[1, 0, 2]),
            None
        );
        // A transpose of the last two dims is absorbed into the contraction.
        let got = absorb_lhs_transpose(&DotDims::batch_matmul(), &[0, 2, 1]).unwrap();
        assert_eq!((got.lhs_batch, got.lhs_contract), (vec![0], vec![1]));
    }
}
