//! How constraints steer the [`Sampler`]: what they force an attribute variable to be
//! ([`Sampler::solve`]: `inverse-perm` inverts the perm already chosen, `eq` and
//! `same-ints` copy the other side, `has-shape` reads a typed value, `no-padding` pads
//! nothing, ...) and what they say about the type of a leaf ([`Sampler::hint`]: `has-shape`, `has-dtype`, `has-rank`, `float`,
//! `int`, `same-type`, `ragged-dot`: a 33-row product). Anything else they demand is left to retries.

use super::sampler::{DClass, Sampler, Slot};
use crate::apply::Bindings;
use crate::ast::{Attr, AttrValue, TermId, Var};
use crate::registry::{invert_perm, Bound};
use ptir_ir::{DType, Shape, Type};
use rand::seq::SliceRandom;

/// What the constraints say about a leaf's type.
#[derive(Default)]
pub(super) struct Hint {
    pub dtype: Option<DType>,
    pub class: Option<DClass>,
    pub shape: Option<Shape>,
    pub rank: Option<usize>,
}

impl Sampler<'_> {
    /// What has been chosen so far, as the bindings constraints are evaluated on (a value
    /// stands for its type).
    fn bindings(&self) -> Bindings<Type> {
        let mut b = Bindings::default();
        for (slot, t) in &self.types {
            if let Slot::Var(v) = slot {
                b.values.insert(v.clone(), t.clone());
            }
        }
        for (v, &id) in &self.named {
            if let Some(t) = self.types.get(&Slot::Term(id)) {
                b.values.insert(v.clone(), t.clone());
            }
        }
        b.attrs = self.attrs.clone();
        b
    }

    fn eval(&self, b: &Bindings<Type>, a: &Attr) -> Option<Bound<'static>> {
        let bound = b.eval(a, self.registry, &|t: &Type| t.clone()).ok()?;
        Some(bound.into_owned())
    }

    /// A value for attribute variable `v` that a constraint forces, given what is bound.
    pub fn solve(&mut self, v: &Var, len: Option<usize>) -> Option<AttrValue> {
        let b = self.bindings();
        let is_v = |a: &Attr| matches!(a, Attr::Var(x) if x == v);
        for c in &self.rule.constraints {
            let (this, other) = match c.args.as_slice() {
                [x, y] if is_v(x) => (0, y),
                [x, y] if is_v(y) => (1, x),
                [x] if is_v(x) && c.pred == "identity-perm" => {
                    return len.map(|n| AttrValue::Ints((0..n).collect()))
                }
                [x] if is_v(x) && c.pred == "no-padding" => {
                    return len.map(|n| AttrValue::Pad(Box::new(ptir_ir::PadDims::none(n))))
                }
                _ => continue,
            };
            let Some(o) = self.eval(&b, other) else {
                continue;
            };
            let got = match (c.pred.as_str(), this) {
                ("eq" | "same-ints", _) => o.attr().cloned(),
                ("inverse-perm", _) => o.ints().and_then(invert_perm).map(AttrValue::Ints),
                ("has-shape", 1) => o.tensor().map(|t| AttrValue::Ints(t.shape.clone())),
                ("has-dtype", 1) => o.tensor().map(|t| AttrValue::DType(t.dtype)),
                ("identity-broadcast", 1) => {
                    o.tensor().map(|t| AttrValue::Ints((0..t.rank()).collect()))
                }
                ("exact-embedding", _) => self.embedding(this, &o),
                _ => None,
            };
            if got.is_some() {
                return got;
            }
        }
        None
    }

    /// A random dtype that `o`'s dtype embeds in (`this == 1`) or that embeds in it.
    fn embedding(&mut self, this: usize, o: &Bound<'_>) -> Option<AttrValue> {
        let d = o.dtype()?;
        let options: Vec<DType> = DType::ALL
            .into_iter()
            .filter(|&x| {
                if this == 1 {
                    d.embeds_exactly_in(x)
                } else {
                    x.embeds_exactly_in(d)
                }
            })
            .collect();
        options.choose(self.rng).map(|&x| AttrValue::DType(x))
    }

    /// What the constraints say about the type of leaf `id`.
    pub(super) fn hint(&mut self, id: TermId) -> Hint {
        let mut h = Hint::default();
        let Slot::Var(v) = self.slot(id) else {
            return h;
        };
        let b = self.bindings();
        let is_v = |a: &Attr| matches!(a, Attr::Var(x) if *x == v);
        for c in &self.rule.constraints {
            let (first, second) = (c.args.first(), c.args.get(1));
            let other = || second.and_then(|o| self.eval(&b, o));
            match (c.pred.as_str(), first) {
                ("float", Some(a)) if is_v(a) => h.class = Some(DClass::Float),
                ("int", Some(a)) if is_v(a) => h.class = Some(DClass::Int),
                ("has-shape", Some(a)) if is_v(a) => {
                    h.shape = other().and_then(|o| o.ints().map(<[usize]>::to_vec))
                }
                ("has-dtype", Some(a)) if is_v(a) => h.dtype = other().and_then(|o| o.dtype()),
                // A product of 33 rows (ragged) by one column, under the examples' 64 elements.
                ("ragged-dot", Some(a)) if is_v(a) => h.shape = Some(vec![33, 1]),
                ("ragged-dot", Some(_)) if second.is_some_and(is_v) => h.shape = Some(vec![1, 1]),
                ("has-rank", Some(a)) if is_v(a) => {
                    h.rank = other().and_then(|o| match o.attr() {
                        Some(AttrValue::Int(n)) => Some(*n),
                        _ => None,
                    })
                }
                ("same-type", Some(a)) => {
                    let o = match (is_v(a), second) {
                        (true, Some(y)) => self.eval(&b, y),
                        (false, Some(y)) if is_v(y) => self.eval(&b, a),
                        _ => None,
                    };
                    if let Some(t) = o.as_ref().and_then(Bound::tensor) {
                        h.dtype = Some(t.dtype);
                        h.shape = Some(t.shape.clone());
                    }
                }
                _ => {}
            }
        }
        h
    }
}
