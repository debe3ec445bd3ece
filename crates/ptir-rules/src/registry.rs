//! Named native predicates (constraints) and native functions (computed attributes), the
//! DRR `Constraint` / `NativeCodeCall` of our rules.
//!
//! Both see their arguments as [`Bound`]s: an attribute value, or for a value variable, the
//! value's type — never its data, so that both engines can evaluate them at match time.
//! [`Registry::standard`] holds what `rules/` uses; library users add their own with
//! [`Registry::add_predicate`] and [`Registry::add_native`] before loading their rule files.

use crate::ast::{AttrKind, AttrValue};
use indexmap::IndexMap;
use ptir_ir::{free_dims, is_permutation, DType, DotDims, Type};
use std::sync::Arc;

/// What a predicate or native function receives for one argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Bound {
    /// A value variable: the value's type.
    Value(Type),
    /// An attribute (variable or literal).
    Attr(AttrValue),
}

impl Bound {
    /// The tensor type, for a value bound to a tensor.
    pub fn tensor(&self) -> Option<&ptir_ir::TensorType> {
        match self {
            Bound::Value(t) => t.as_tensor(),
            Bound::Attr(_) => None,
        }
    }

    /// The index list, for an `Ints` attribute.
    pub fn ints(&self) -> Option<&[usize]> {
        match self {
            Bound::Attr(AttrValue::Ints(xs)) => Some(xs),
            _ => None,
        }
    }

    /// The dtype: of a dtype attribute, or of a tensor value.
    pub fn dtype(&self) -> Option<DType> {
        match self {
            Bound::Attr(AttrValue::DType(d)) => Some(*d),
            Bound::Value(t) => t.as_tensor().map(|t| t.dtype),
            _ => None,
        }
    }

    /// The attribute, if this is one.
    pub fn attr(&self) -> Option<&AttrValue> {
        match self {
            Bound::Attr(a) => Some(a),
            Bound::Value(_) => None,
        }
    }
}

/// A predicate: true when the match may be rewritten.
pub type PredicateFn = Arc<dyn Fn(&[Bound]) -> bool + Send + Sync>;

/// A native function: computes an attribute; `None` means the rule does not apply.
pub type NativeFn = Arc<dyn Fn(&[Bound]) -> Option<AttrValue> + Send + Sync>;

/// A registered predicate.
#[derive(Clone)]
pub struct Predicate {
    /// Number of arguments.
    pub arity: usize,
    /// The test. `None` for engine-specific predicates (see `greedy_only`).
    pub test: Option<PredicateFn>,
    /// Evaluated by the greedy driver itself (it needs use counts); rules using it are skipped
    /// by the e-graph engine.
    pub greedy_only: bool,
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
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("predicates", &self.predicates.keys().collect::<Vec<_>>())
            .field("natives", &self.natives.keys().collect::<Vec<_>>())
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
/// transpose keeps the relative order of the lhs free dims (the result layout is unchanged).
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
    Some((
        batch.iter().map(|&i| p[i]).collect(),
        contract.iter().map(|&i| p[i]).collect(),
    ))
}

fn same_ints(a: &Bound, b: &Bound) -> bool {
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
        test: impl Fn(&[Bound]) -> bool + Send + Sync + 'static,
    ) {
        let p = Predicate {
            arity,
            test: Some(Arc::new(test)),
            greedy_only: false,
            doc,
        };
        self.predicates.insert(name.to_string(), p);
    }

    /// Registers a predicate that only the greedy driver can evaluate (use counts).
    pub fn add_greedy_predicate(&mut self, name: &str, arity: usize, doc: &'static str) {
        let p = Predicate {
            arity,
            test: None,
            greedy_only: true,
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
        call: impl Fn(&[Bound]) -> Option<AttrValue> + Send + Sync + 'static,
    ) {
        let n = Native {
            arity,
            returns,
            call: Arc::new(call),
            doc,
        };
        self.natives.insert(name.to_string(), n);
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
    /// let p = Bound::Attr(AttrValue::Ints(vec![1, 2, 0]));
    /// let q = Bound::Attr(AttrValue::Ints(vec![2, 0, 1]));
    /// assert!((r.predicate("inverse-perm").unwrap().test.as_ref().unwrap())(&[p, q]));
    /// ```
    pub fn standard() -> Self {
        let mut r = Registry::new();
        r.add_standard_predicates();
        r.add_standard_natives();
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
        self.add_predicate("identity-broadcast", 2, "broadcast dims ?d of value ?x to ?x's own shape is the identity", |a| {
            matches!((a[0].tensor(), a[1].ints()), (Some(t), Some(d)) if d.iter().enumerate().all(|(i, &x)| i == x) && d.len() == t.rank())
        });
        self.add_predicate("same-ints", 2, "two index lists are equal", |a| {
            same_ints(&a[0], &a[1])
        });
        self.add_greedy_predicate(
            "single-use",
            1,
            "the matched value has exactly one user (greedy only)",
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perm_algebra() {
        let p = vec![1, 2, 0];
        let inv = invert_perm(&p).unwrap();
        assert_eq!(compose_perm(&p, &inv), Some(vec![0, 1, 2]));
        assert_eq!(compose_perm(&[1, 0], &[0]), None);
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
    }
}
