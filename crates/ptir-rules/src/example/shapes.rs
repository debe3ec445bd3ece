//! How the [`Sampler`] types each kind of op: it gives the operands that have no type yet one
//! that suits the op, and chooses the attributes no literal or bound variable fixes, so that
//! [`make_op`] accepts the op (it has the last word: whatever is chosen here is checked there).

use super::sampler::{DClass, Res, Sampler};
use crate::ast::{Attr, AttrValue, Term, TermId};
use crate::externs;
use crate::ops::make_op;
use ptir_ir::{
    BinaryOp, DType, DotDims, GatherDims, IndexDims, OpKey, PadDims, ReduceKind, Shape, TensorType,
    Type, UnaryOp,
};
use rand::seq::SliceRandom;
use rand::Rng;

impl Sampler<'_> {
    /// Types op term `id`, whose operands have been visited.
    pub(super) fn op_term(&mut self, id: TermId) -> Res<()> {
        let Term::Op {
            key,
            callee,
            operands,
            attrs,
            ..
        } = self.term(id)
        else {
            return Err("not an op".into());
        };
        let (values, annotated) = self.choose(*key, callee.as_deref(), operands, attrs)?;
        for (a, v) in attrs.iter().zip(&values) {
            self.bind(a, v.clone())?;
        }
        let types = operands
            .iter()
            .map(|&o| {
                self.ty(o)
                    .cloned()
                    .ok_or_else(|| "an operand has no type".to_string())
            })
            .collect::<Res<Vec<Type>>>()?;
        let refs: Vec<&Type> = types.iter().collect();
        let (op, ty) = make_op(*key, callee.as_deref(), &values, &refs, annotated.as_ref())
            .map_err(|e| format!("`{key}`: {e}"))?;
        self.ops[id.0] = Some(op);
        self.assign(id, ty)
    }

    /// Types the operands of an op and chooses its attributes (and, for calls, the result
    /// type).
    fn choose(
        &mut self,
        key: OpKey,
        callee: Option<&str>,
        ops: &[TermId],
        attrs: &[Attr],
    ) -> Res<(Vec<AttrValue>, Option<Type>)> {
        let x = ops.first().copied().ok_or("an op without operands")?;
        let attrs = match key {
            OpKey::Unary(u) => {
                self.unify(&[x], unary_class(u), true)?;
                vec![]
            }
            OpKey::Binary(b) => {
                self.unify(ops, binary_class(b), true)?;
                vec![]
            }
            OpKey::Compare(_) => {
                self.unify(ops, DClass::Any, false)?;
                vec![]
            }
            OpKey::Select => self.select(ops)?,
            OpKey::Cast => self.cast(x, &attrs[0])?,
            OpKey::Reshape => self.reshape(x, &attrs[0])?,
            OpKey::Transpose => self.transpose(x, &attrs[0])?,
            OpKey::Broadcast => self.broadcast(x, &attrs[0], &attrs[1])?,
            OpKey::Slice => self.slice(x, attrs)?,
            OpKey::Concat => self.concat(ops, &attrs[0])?,
            OpKey::DotGeneral => {
                self.dot(x, *ops.get(1).ok_or("dot needs two operands")?, &attrs[0])?
            }
            OpKey::Reduce(kind) => self.reduce(kind, x, attrs)?,
            OpKey::Reverse => self.reverse(x, &attrs[0])?,
            OpKey::Pad => self.pad(x, *ops.get(1).ok_or("pad needs a value")?, &attrs[0])?,
            OpKey::Call => {
                return self
                    .call(callee.unwrap_or(""), ops)
                    .map(|t| (vec![], Some(t)))
            }
            OpKey::Tuple => {
                for &o in ops {
                    self.ensure(o, DClass::Any, None)?;
                }
                vec![]
            }
            OpKey::TupleGet => self.tuple_get(x, &attrs[0])?,
            OpKey::Gather => {
                self.row_gather(x, *ops.get(1).ok_or("gather needs indices")?, &attrs[0])?
            }
            other => return Err(format!("`{other}` cannot appear in a pattern")),
        };
        Ok((attrs, None))
    }

    fn select(&mut self, ops: &[TermId]) -> Res<Vec<AttrValue>> {
        let open = ops[1..].iter().all(|&o| self.ty(o).is_none()) && self.want().is_none();
        if let (true, Some(shape)) = (open, self.shape(ops[0])) {
            self.ensure(ops[1], DClass::Any, Some(shape))?;
        }
        let t = self.unify(&ops[1..], DClass::Any, true)?;
        let shape = t.as_tensor().ok_or("select of tuples")?.shape.clone();
        self.ensure(ops[0], DClass::Is(DType::Bool), Some(shape))?;
        Ok(vec![])
    }

    fn cast(&mut self, x: TermId, d: &Attr) -> Res<Vec<AttrValue>> {
        let xt = self.ensure(x, DClass::Any, None)?;
        let want = self.want().and_then(|w| w.as_tensor().cloned());
        let d = match (self.known(d, None), want) {
            (Some(d), _) => d,
            (None, Some(w)) if Some(&w.shape) == xt.as_tensor().map(|t| &t.shape) => {
                AttrValue::DType(w.dtype)
            }
            _ => AttrValue::DType(*DType::ALL.choose(self.rng).unwrap_or(&DType::F32)),
        };
        Ok(vec![d])
    }

    fn reshape(&mut self, x: TermId, s: &Attr) -> Res<Vec<AttrValue>> {
        let want = self
            .want()
            .and_then(|w| w.as_tensor().map(|t| t.shape.clone()));
        let known = self.known(s, None).or(want.map(AttrValue::Ints));
        if self.ty(x).is_none() {
            let shape = match &known {
                Some(AttrValue::Ints(s)) => Some(self.refactor(s.iter().product())),
                _ => None,
            };
            self.ensure(x, DClass::Any, shape)?;
        }
        let s = match known {
            Some(s) => s,
            None => {
                let n = self.shape(x).ok_or("reshape of a tuple")?.iter().product();
                AttrValue::Ints(self.refactor(n))
            }
        };
        Ok(vec![s])
    }

    /// A random shape with `n` elements (rank 0 to 3, unit dims now and then).
    fn refactor(&mut self, n: usize) -> Shape {
        let mut factors = Vec::new();
        let (mut m, mut p) = (n, 2);
        while m > 1 {
            while m % p == 0 {
                factors.push(p);
                m /= p;
            }
            p += 1;
        }
        let rank = if n == 1 {
            self.rng.gen_range(0..=2)
        } else {
            self.rng.gen_range(1..=3)
        };
        let mut shape = vec![1; rank.max(1)];
        for f in factors {
            let i = self.rng.gen_range(0..shape.len());
            shape[i] *= f;
        }
        if rank == 0 {
            shape.clear();
        }
        shape.shuffle(self.rng);
        shape
    }

    fn transpose(&mut self, x: TermId, p: &Attr) -> Res<Vec<AttrValue>> {
        if self.ty(x).is_none() {
            let rank = match self.known(p, None) {
                Some(AttrValue::Ints(p)) => p.len(),
                _ => self.rank(),
            };
            let shape = self.fresh_shape(rank);
            self.ensure(x, DClass::Any, Some(shape))?;
        }
        let rank = self.shape(x).ok_or("transpose of a tuple")?.len();
        let p = match self.known(p, Some(rank)) {
            Some(p) => p,
            None => AttrValue::Ints(self.perm(rank)),
        };
        Ok(vec![p])
    }

    /// A `reverse` of dims `d` (known, or a random subset of the operand's dims).
    fn reverse(&mut self, x: TermId, d: &Attr) -> Res<Vec<AttrValue>> {
        if self.ty(x).is_none() {
            let rank = self.rng.gen_range(1..=3);
            let shape = self.fresh_shape(rank);
            self.ensure(x, DClass::Any, Some(shape))?;
        }
        let rank = self.shape(x).ok_or("reverse of a tuple")?.len();
        let d = match self.known(d, Some(rank)) {
            Some(d) => d,
            None => {
                let k = self.rng.gen_range(0..=rank);
                AttrValue::Ints(self.subset(rank, k))
            }
        };
        Ok(vec![d])
    }

    /// A `gather` of whole rows of a 2-d table `x` by a column of `i32` indices (`x[ids]`, as
    /// JAX writes an embedding lookup or a graph net's `x[senders]`): the one form
    /// instantiated. Indices come as random inputs, out of range too, which `gather` clamps.
    fn row_gather(&mut self, x: TermId, idx: TermId, g: &Attr) -> Res<Vec<AttrValue>> {
        if self.ty(x).is_none() {
            let shape = self.fresh_shape(2);
            self.ensure(x, DClass::Any, Some(shape))?;
        }
        let shape = self.shape(x).ok_or("gather of a tuple")?.to_vec();
        let [_, cols] = shape[..] else {
            return Err("only gathers of rows of a 2-d table are instantiated".into());
        };
        let rows = self.size();
        self.ensure(idx, DClass::Is(DType::I32), Some(vec![rows, 1]))?;
        let row = GatherDims {
            dims: IndexDims {
                window_dims: vec![1],
                collapsed_dims: vec![0],
                start_index_map: vec![0],
                index_vector_dim: 1,
                ..IndexDims::default()
            },
            slice_sizes: vec![1, cols],
        };
        match self.known(g, None) {
            Some(AttrValue::Gather(known)) if *known != row => {
                Err("only gathers of rows of a 2-d table are instantiated".into())
            }
            _ => Ok(vec![AttrValue::Gather(Box::new(row))]),
        }
    }

    /// A `pad` of `x` by the scalar `v`: the padding known, or none half of the time, else
    /// random low and high padding in `-1..=2` (cropping at most one element less than the
    /// dim holds) and interior padding of 0 or 1.
    fn pad(&mut self, x: TermId, v: TermId, p: &Attr) -> Res<Vec<AttrValue>> {
        let xt = self.ensure(x, DClass::Any, None)?;
        let xt = xt.as_tensor().ok_or("pad of a tuple")?.clone();
        self.ensure(v, DClass::Is(xt.dtype), Some(vec![]))?;
        let p = match self.known(p, Some(xt.rank())) {
            Some(p) => p,
            None if self.rng.gen_bool(0.5) => AttrValue::Pad(Box::new(PadDims::none(xt.rank()))),
            None => {
                let mut p = PadDims::none(xt.rank());
                for (d, &n) in xt.shape.iter().enumerate() {
                    let least = if n > 1 { -1 } else { 0 };
                    p.low[d] = self.rng.gen_range(least..=2);
                    p.high[d] = self.rng.gen_range(least..=2);
                    p.interior[d] = self.rng.gen_range(0..=1);
                }
                AttrValue::Pad(Box::new(p))
            }
        };
        Ok(vec![p])
    }

    /// A random permutation of `0..n` (the identity a quarter of the time).
    pub(super) fn perm(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        if self.rng.gen_bool(0.75) {
            p.shuffle(self.rng);
        }
        p
    }

    /// `k` distinct indices below `n`, increasing (or in random order now and then).
    pub(super) fn subset(&mut self, n: usize, k: usize) -> Vec<usize> {
        let mut all: Vec<usize> = (0..n).collect();
        all.shuffle(self.rng);
        let mut s: Vec<usize> = all.into_iter().take(k).collect();
        if self.rng.gen_bool(0.85) {
            s.sort_unstable();
        }
        s
    }

    fn slice(&mut self, x: TermId, attrs: &[Attr]) -> Res<Vec<AttrValue>> {
        let mut known: Vec<Option<Vec<usize>>> = self.known_lists(attrs);
        if self.ty(x).is_none() {
            let rank = known
                .iter()
                .flatten()
                .map(Vec::len)
                .next()
                .unwrap_or_else(|| self.rank());
            let mut shape = self.fresh_shape(rank);
            for (d, s) in shape.iter_mut().enumerate() {
                let need = known[..2].iter().flatten().filter_map(|v| v.get(d)).max();
                *s = (*s).max(need.copied().unwrap_or(0));
            }
            self.ensure(x, DClass::Any, Some(shape))?;
            known = self.known_lists(attrs);
        }
        let shape = self.shape(x).ok_or("slice of a tuple")?;
        let mut out = [Vec::new(), Vec::new(), Vec::new()];
        for (d, &n) in shape.iter().enumerate() {
            let at = |i: usize| known[i].as_ref().and_then(|v| v.get(d).copied());
            let start = at(0).unwrap_or_else(|| self.rng.gen_range(0..n.max(1)));
            let limit = match at(1) {
                Some(l) => l,
                None if start < n => self.rng.gen_range(start + 1..=n),
                None => start,
            };
            let stride =
                at(2).unwrap_or_else(|| *[1, 1, 1, 2, 2, 3].choose(self.rng).unwrap_or(&1));
            out[0].push(start);
            out[1].push(limit);
            out[2].push(stride);
        }
        Ok(out.into_iter().map(AttrValue::Ints).collect())
    }

    /// The index lists already fixed among `attrs`.
    fn known_lists(&mut self, attrs: &[Attr]) -> Vec<Option<Vec<usize>>> {
        attrs
            .iter()
            .map(|a| match self.known(a, None) {
                Some(AttrValue::Ints(v)) => Some(v),
                _ => None,
            })
            .collect()
    }

    fn concat(&mut self, ops: &[TermId], axis: &Attr) -> Res<Vec<AttrValue>> {
        let t = match ops.iter().find_map(|&o| self.ty(o).cloned()) {
            Some(t) => t,
            None => {
                let rank = self.rng.gen_range(1..=3);
                let shape = self.fresh_shape(rank);
                self.ensure(ops[0], DClass::Any, Some(shape))?
            }
        };
        let t = t.as_tensor().ok_or("concat of tuples")?.clone();
        if t.rank() == 0 {
            return Err("concat of scalars".into());
        }
        let axis = match self.known(axis, None) {
            Some(AttrValue::Int(a)) => a,
            _ => self.rng.gen_range(0..t.rank()),
        };
        for &o in ops {
            if self.ty(o).is_none() && axis < t.rank() {
                let mut shape = t.shape.clone();
                shape[axis] = self.rng.gen_range(1..=3);
                self.ensure(o, DClass::Is(t.dtype), Some(shape))?;
            }
        }
        Ok(vec![AttrValue::Int(axis)])
    }

    fn reduce(&mut self, kind: ReduceKind, x: TermId, attrs: &[Attr]) -> Res<Vec<AttrValue>> {
        let class = if kind == ReduceKind::Max {
            DClass::Any
        } else {
            DClass::NotBool
        };
        if self.ty(x).is_none() {
            let least = match self.known(&attrs[0], None) {
                Some(AttrValue::Ints(a)) => a.iter().max().map_or(0, |m| m + 1),
                _ => 1,
            };
            let rank = self.rng.gen_range(0..=3).max(least);
            let shape = self.fresh_shape(rank);
            self.ensure(x, class, Some(shape))?;
        }
        let rank = self.shape(x).ok_or("reduce of a tuple")?.len();
        let axes = match self.known(&attrs[0], None) {
            Some(a) => a,
            None => {
                let k = if rank == 0 || self.rng.gen_bool(0.05) {
                    0
                } else {
                    self.rng.gen_range(1..=rank)
                };
                AttrValue::Ints(self.subset(rank, k))
            }
        };
        let keep = match self.known(&attrs[1], None) {
            Some(k) => k,
            None => AttrValue::Bool(self.rng.gen_bool(0.5)),
        };
        Ok(vec![axes, keep])
    }

    fn call(&mut self, callee: &str, ops: &[TermId]) -> Res<Type> {
        let first = match ops.first() {
            Some(&o) => Some(self.ensure(o, DClass::Float, None)?),
            None => None,
        };
        for &o in ops {
            if let (None, Some(t)) = (self.ty(o), &first) {
                self.assign(o, t.clone())?;
            }
        }
        let types: Vec<Type> = ops.iter().filter_map(|&o| self.ty(o).cloned()).collect();
        match externs::result_type(callee, &types) {
            Some(t) => {
                t.map_err(|e| format!("@{callee} does not apply to ({}): {e}", list(&types)))
            }
            None => Ok(first.unwrap_or_else(|| TensorType::scalar(DType::F32).into())),
        }
    }

    fn tuple_get(&mut self, x: TermId, index: &Attr) -> Res<Vec<AttrValue>> {
        let known = match self.known(index, None) {
            Some(AttrValue::Int(i)) => Some(i),
            _ => None,
        };
        if self.ty(x).is_none() {
            let n = known.map_or_else(|| self.rng.gen_range(1..=3), |i| i + 1);
            let elems = (0..n)
                .map(|_| {
                    let r = self.rng.gen_range(0..=2);
                    let d = self.dtype(DClass::Any);
                    TensorType::new(d, self.fresh_shape(r)).into()
                })
                .collect();
            self.assign(x, Type::Tuple(elems))?;
        }
        let n = self.ty(x).and_then(Type::as_tuple).map_or(0, <[Type]>::len);
        let i = match known {
            Some(i) => i,
            None if n > 0 => self.rng.gen_range(0..n),
            None => return Err("tuple_get of a tensor".into()),
        };
        Ok(vec![AttrValue::Int(i)])
    }
}

fn list(types: &[Type]) -> String {
    types
        .iter()
        .map(Type::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn unary_class(u: UnaryOp) -> DClass {
    dclass(u.dtype_class())
}

fn binary_class(b: BinaryOp) -> DClass {
    dclass(b.dtype_class())
}

/// The example builder's class of the element types an op takes.
fn dclass(c: ptir_ir::DTypeClass) -> DClass {
    match c {
        ptir_ir::DTypeClass::IntOrBool => DClass::IntOrBool,
        ptir_ir::DTypeClass::Float => DClass::Float,
        ptir_ir::DTypeClass::Int => DClass::Int,
        ptir_ir::DTypeClass::Numeric => DClass::NotBool,
        ptir_ir::DTypeClass::Signed => DClass::Signed,
    }
}

/// `dims` with the lhs and rhs exchanged.
pub(super) fn swap(d: DotDims) -> DotDims {
    DotDims {
        lhs_batch: d.rhs_batch,
        rhs_batch: d.lhs_batch,
        lhs_contract: d.rhs_contract,
        rhs_contract: d.lhs_contract,
        result_dtype: d.result_dtype,
        precision: d.precision.map(|[l, r]| [r, l]),
    }
}
