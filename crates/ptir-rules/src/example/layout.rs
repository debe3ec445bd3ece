//! The two ops whose attributes tie several shapes together, `broadcast` (dims map + result
//! shape) and `dot_general` (batch and contracting dims of both operands): the [`Sampler`]
//! chooses whichever of operand shapes and attributes is still open so that they agree.

use super::sampler::{DClass, Res, Sampler};
use super::shapes::swap;
use crate::ast::{Attr, AttrValue, TermId};
use ptir_ir::{DotDims, Shape, TensorType};
use rand::seq::SliceRandom;
use rand::Rng;

fn ints(a: Option<AttrValue>) -> Option<Vec<usize>> {
    match a {
        Some(AttrValue::Ints(v)) => Some(v),
        _ => None,
    }
}

impl Sampler<'_> {
    pub(super) fn broadcast(&mut self, x: TermId, d: &Attr, s: &Attr) -> Res<Vec<AttrValue>> {
        let want = self
            .want()
            .and_then(|w| w.as_tensor().map(|t| t.shape.clone()));
        let ks = ints(self.known(s, None)).or(want);
        if self.ty(x).is_none() {
            let kd = ints(self.known(d, None));
            let shape = self.broadcast_operand(kd.as_deref(), ks.as_deref());
            self.ensure(x, DClass::Any, shape)?;
        }
        let xs = self.shape(x).ok_or("broadcast of a tuple")?;
        let kd = ints(self.known(d, Some(xs.len())));
        let (dims, shape) = match (kd, ks) {
            (Some(d), Some(s)) => (d, s),
            (Some(d), None) => {
                let rank = d.iter().max().map_or(0, |m| m + 1).max(xs.len());
                let s = self.broadcast_result(&xs, &d, rank);
                (d, s)
            }
            (None, Some(s)) => (self.broadcast_dims(&xs, &s)?, s),
            (None, None) => {
                let rank = xs.len() + [0, 1, 1, 2].choose(self.rng).copied().unwrap_or(1);
                let d = self.subset(rank, xs.len());
                let s = self.broadcast_result(&xs, &d, rank);
                (d, s)
            }
        };
        Ok(vec![AttrValue::Ints(dims), AttrValue::Ints(shape)])
    }

    /// A shape for a broadcast operand that has none, from what is known of the attributes.
    fn broadcast_operand(
        &mut self,
        dims: Option<&[usize]>,
        shape: Option<&[usize]>,
    ) -> Option<Shape> {
        let d: Vec<usize> = match (dims, shape) {
            (Some(d), _) => d.to_vec(),
            (None, Some(s)) => {
                let k = self.rng.gen_range(0..=s.len());
                self.subset(s.len(), k)
            }
            (None, None) => return None,
        };
        let Some(s) = shape else {
            return Some(self.fresh_shape(d.len()));
        };
        Some(
            d.iter()
                .map(|&i| match s.get(i) {
                    Some(&n) if !self.rng.gen_bool(0.2) => n,
                    _ => 1,
                })
                .collect(),
        )
    }

    /// A result shape of rank `rank` for broadcasting `xs` along `dims`.
    fn broadcast_result(&mut self, xs: &[usize], dims: &[usize], rank: usize) -> Shape {
        let mut s = self.fresh_shape(rank);
        for (&n, &d) in xs.iter().zip(dims) {
            if let Some(slot) = s.get_mut(d) {
                if n != 1 || self.rng.gen_bool(0.5) {
                    *slot = n;
                }
            }
        }
        s
    }

    /// Dims that broadcast `xs` to `s`, increasing where possible.
    fn broadcast_dims(&mut self, xs: &[usize], s: &[usize]) -> Res<Vec<usize>> {
        let mut all = Vec::new();
        let mut cur = Vec::new();
        injective_maps(xs, s, &mut cur, &mut all);
        let increasing: Vec<&Vec<usize>> = all
            .iter()
            .filter(|d| d.windows(2).all(|w| w[0] < w[1]))
            .collect();
        let pick = if !increasing.is_empty() && self.rng.gen_bool(0.85) {
            increasing.choose(self.rng).map(|d| (*d).clone())
        } else {
            all.choose(self.rng).cloned()
        };
        pick.ok_or_else(|| format!("{xs:?} does not broadcast to {s:?}"))
    }

    pub(super) fn dot(&mut self, l: TermId, r: TermId, attr: &Attr) -> Res<Vec<AttrValue>> {
        let dims = match self.known(attr, None) {
            Some(AttrValue::Dims(d)) => {
                self.dot_fill(l, r, &d)?;
                d
            }
            Some(other) => return Err(format!("dot_general dims cannot be {other}")),
            None => self.dot_choose(l, r)?,
        };
        Ok(vec![AttrValue::Dims(dims)])
    }

    fn tensor(&self, id: TermId) -> Res<TensorType> {
        self.ty(id)
            .and_then(|t| t.as_tensor().cloned())
            .ok_or_else(|| "dot_general of a tuple".into())
    }

    /// Types the operands of a `dot_general` with known dims.
    fn dot_fill(&mut self, l: TermId, r: TermId, d: &DotDims) -> Res<()> {
        if self.ty(l).is_none() && self.ty(r).is_none() {
            let used = d.lhs_batch.iter().chain(&d.lhs_contract);
            let rank = used.max().map_or(0, |m| m + 1) + self.rng.gen_range(0..=1);
            let shape = self.fresh_shape(rank);
            self.ensure(l, DClass::NotBool, Some(shape))?;
        }
        if self.ty(r).is_none() {
            let lt = self.tensor(l)?;
            let shape = self.other_side(
                &lt.shape,
                [&d.lhs_batch, &d.lhs_contract],
                [&d.rhs_batch, &d.rhs_contract],
            );
            self.ensure(r, DClass::Is(lt.dtype), Some(shape))?;
        }
        if self.ty(l).is_none() {
            let rt = self.tensor(r)?;
            let shape = self.other_side(
                &rt.shape,
                [&d.rhs_batch, &d.rhs_contract],
                [&d.lhs_batch, &d.lhs_contract],
            );
            self.ensure(l, DClass::Is(rt.dtype), Some(shape))?;
        }
        Ok(())
    }

    /// The shape of a dot operand whose batch and contracting dims `other` pair with the dims
    /// `this` of an operand of shape `shape`; its free dims are fresh.
    fn other_side(&mut self, shape: &[usize], this: [&[usize]; 2], other: [&[usize]; 2]) -> Shape {
        let used = other[0].iter().chain(other[1]);
        let rank = used.max().map_or(0, |m| m + 1) + self.rng.gen_range(0..=1);
        let mut s = self.fresh_shape(rank);
        for (t, o) in this.iter().zip(other) {
            for (&ti, &oi) in t.iter().zip(o) {
                if let Some(slot) = s.get_mut(oi) {
                    *slot = shape.get(ti).copied().unwrap_or(1);
                }
            }
        }
        s
    }

    /// Chooses the dims of a `dot_general` (and the operand types still open).
    fn dot_choose(&mut self, l: TermId, r: TermId) -> Res<DotDims> {
        match (self.shape(l), self.shape(r)) {
            (Some(ls), Some(rs)) => Ok(self.dims_between(&ls, &rs)),
            (Some(_), None) => self.dot_from(l, r, false),
            (None, Some(_)) => self.dot_from(r, l, true),
            (None, None) => {
                let rank = self.rng.gen_range(1..=3);
                let shape = self.fresh_shape(rank);
                self.ensure(l, DClass::NotBool, Some(shape))?;
                self.dot_from(l, r, false)
            }
        }
    }

    /// Dims chosen on the typed operand `this`, and the operand `other` typed to fit them;
    /// `swapped`: `this` is the rhs.
    fn dot_from(&mut self, this: TermId, other: TermId, swapped: bool) -> Res<DotDims> {
        let t = self.tensor(this)?;
        let n = t.rank();
        let nb = usize::from(n >= 2 && self.rng.gen_bool(0.25));
        let nc = [1, 1, 1, 0, 2]
            .choose(self.rng)
            .copied()
            .unwrap_or(1)
            .min(n - nb);
        let pos = self.subset(n, nb + nc);
        let free = [0, 1, 1, 2].choose(self.rng).copied().unwrap_or(1);
        let mut order: Vec<usize> = (0..nb + nc + free).collect();
        if self.rng.gen_bool(0.5) {
            order.shuffle(self.rng);
        }
        let mut shape = self.fresh_shape(order.len());
        for k in 0..nb + nc {
            shape[order[k]] = t.shape[pos[k]];
        }
        self.ensure(other, DClass::Is(t.dtype), Some(shape))?;
        let d = DotDims {
            lhs_batch: pos[..nb].to_vec(),
            rhs_batch: order[..nb].to_vec(),
            lhs_contract: pos[nb..].to_vec(),
            rhs_contract: order[nb..nb + nc].to_vec(),
            ..DotDims::default()
        };
        Ok(if swapped { swap(d) } else { d })
    }

    /// Dims pairing equal-sized dims of two typed operands (none: an outer product).
    fn dims_between(&mut self, ls: &[usize], rs: &[usize]) -> DotDims {
        let want_b = usize::from(self.rng.gen_bool(0.25));
        let want_c = [1, 1, 1, 0, 2].choose(self.rng).copied().unwrap_or(1);
        let mut li: Vec<usize> = (0..ls.len()).collect();
        let mut ri: Vec<usize> = (0..rs.len()).collect();
        li.shuffle(self.rng);
        ri.shuffle(self.rng);
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for i in li {
            if pairs.len() == want_b + want_c {
                break;
            }
            let free = ri
                .iter()
                .find(|&&j| rs[j] == ls[i] && pairs.iter().all(|p| p.1 != j));
            if let Some(&j) = free {
                pairs.push((i, j));
            }
        }
        let nb = want_b.min(pairs.len());
        let (b, c) = pairs.split_at(nb);
        DotDims {
            lhs_batch: b.iter().map(|p| p.0).collect(),
            rhs_batch: b.iter().map(|p| p.1).collect(),
            lhs_contract: c.iter().map(|p| p.0).collect(),
            rhs_contract: c.iter().map(|p| p.1).collect(),
            ..DotDims::default()
        }
    }
}

/// Every injective map `d` of the dims of `xs` into those of `s` with `xs[i]` 1 or `s[d[i]]`.
fn injective_maps(xs: &[usize], s: &[usize], cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    let i = cur.len();
    if i == xs.len() {
        out.push(cur.clone());
        return;
    }
    for (d, &n) in s.iter().enumerate() {
        if !cur.contains(&d) && (xs[i] == 1 || xs[i] == n) {
            cur.push(d);
            injective_maps(xs, s, cur, out);
            cur.pop();
        }
    }
}
