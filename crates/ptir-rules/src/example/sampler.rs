//! One attempt at typing a rule's source pattern: the [`Sampler`] walks the pattern DAG with
//! operands before users, and at each op chooses whatever is still open (the types of leaves,
//! the values of attribute variables) so that the op types; then it builds the constants.
//!
//! A leaf (a value variable, a `?_`, a splat constant) has no type until its first user gives
//! it one; a repeated variable is one [`Slot`], so its second user must adapt to the first.
//! Constraints are used as hints where that is easy ([`Sampler::solve`], [`Sampler::hint`]:
//! `inverse-perm` gives the inverse of an already chosen perm, `has-shape` fixes a leaf's
//! shape, ...); whatever else they demand is left to retries.

use crate::ast::{Attr, AttrValue, Rule, Term, TermId, Var};
use crate::registry::Registry;
use crate::values::sample_number;
use indexmap::IndexMap;
use ptir_ir::{DType, Literal, Op, OpKey, Scalar, Shape, TensorType, Type};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The outcome of one step of an attempt; `Err` says why the attempt was abandoned.
pub(super) type Res<T> = Result<T, String>;

/// Most elements a value of an example may have, unless the rule fixes larger shapes.
pub(super) const ELEMENT_LIMIT: usize = 64;

/// [`ELEMENT_LIMIT`], or for a rule whose constraints fix shapes (source-written patterns),
/// enough for them.
fn element_limit(rule: &Rule) -> usize {
    let fixed = rule.constraints.iter().filter(|c| c.pred == "has-shape");
    let largest = fixed
        .filter_map(|c| match c.args.get(1) {
            Some(Attr::Lit(AttrValue::Ints(s))) => Some(s.iter().product::<usize>()),
            _ => None,
        })
        .max();
    largest.map_or(ELEMENT_LIMIT, |n| ELEMENT_LIMIT.max(n * 16))
}

/// What the type of a term must be, as its users see it: that of the terms `terms` (other
/// operands of elementwise users), with dtype `dtype` if given (the predicate of a `select`).
#[derive(Clone, Debug, Default)]
pub(super) struct Like {
    terms: Vec<TermId>,
    dtype: Option<DType>,
}

/// Does an op of kind `key` have the dtype of its (first) operand?
fn keeps_dtype(key: OpKey) -> bool {
    !matches!(
        key,
        OpKey::Cast | OpKey::Compare(_) | OpKey::Call | OpKey::Tuple | OpKey::TupleGet
    )
}

impl Sampler<'_> {
    /// What operand `i` of op `key` must be, given what the op must be (`like`): for
    /// elementwise ops whose operands have the result's type, the other operands and what the
    /// result must equal; for other ops that keep the dtype, that dtype.
    fn operand_like(&self, key: OpKey, operands: &[TermId], i: usize, like: &Like) -> Like {
        let others = |from: usize| {
            let picked = (from..operands.len()).filter(move |&j| j != i);
            picked.map(|j| operands[j])
        };
        let with_parent = |it: &mut dyn Iterator<Item = TermId>| {
            let terms = it.chain(like.terms.iter().copied()).collect();
            Like {
                terms,
                dtype: like.dtype,
            }
        };
        match key {
            OpKey::Unary(_) => like.clone(),
            OpKey::Binary(_) => with_parent(&mut others(0)),
            OpKey::Compare(_) => Like {
                terms: others(0).collect(),
                dtype: None,
            },
            OpKey::Select if i == 0 => Like {
                terms: others(1).chain(like.terms.iter().copied()).collect(),
                dtype: Some(DType::Bool),
            },
            OpKey::Select => with_parent(&mut others(1)),
            _ if keeps_dtype(key) => Like {
                terms: Vec::new(),
                dtype: self.want_dtype(like),
            },
            _ => Like::default(),
        }
    }

    /// The dtype `like` asks for, if known yet.
    fn want_dtype(&self, like: &Like) -> Option<DType> {
        let typed = || {
            like.terms
                .iter()
                .find_map(|&t| self.ty(t)?.as_tensor().map(|t| t.dtype))
        };
        like.dtype.or_else(typed)
    }
}

/// What holds one type: a value variable (all its occurrences) or one term.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Slot {
    Var(Var),
    Term(TermId),
}

/// How the sizes of fresh dims are chosen in one attempt.
#[derive(Clone, Debug)]
pub(super) enum Sizes {
    /// Independent sizes in 1..=4.
    Small,
    /// Sizes taken in turn from a shuffled pool, so that dims of one shape differ.
    Distinct(Vec<usize>, usize),
    /// Every dim has this size (inverse perms and the like need it).
    Equal(usize),
}

/// A set of dtypes an op accepts for a fresh operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DClass {
    Any,
    Float,
    NotBool,
    IntOrBool,
    Int,
    /// Floats and signed integers.
    Signed,
    Is(DType),
}

impl DClass {
    fn allows(self, d: DType) -> bool {
        match self {
            DClass::Any => true,
            DClass::Float => d.is_float(),
            DClass::NotBool => d != DType::Bool,
            DClass::IntOrBool => !d.is_float(),
            DClass::Int => d.is_int(),
            DClass::Signed => d.is_float() || d.is_signed_int(),
            DClass::Is(x) => d == x,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    No,
    Open,
    Done,
}

/// The state of one attempt.
pub(super) struct Sampler<'a> {
    pub rule: &'a Rule,
    pub registry: &'a Registry,
    pub rng: &'a mut ChaCha8Rng,
    sizes: Sizes,
    base: DType,
    pub types: HashMap<Slot, Type>,
    /// Attribute variables bound so far (splat numbers after conversion to their dtype).
    pub attrs: IndexMap<Var, AttrValue>,
    pub named: HashMap<Var, TermId>,
    /// The op of each op or splat term, once chosen.
    pub ops: Vec<Option<Op>>,
    /// Op and splat terms, operands before users.
    pub order: Vec<TermId>,
    visits: Vec<Visit>,
    raw_numbers: HashMap<Var, f64>,
    /// What the op being typed must be, as its users see it.
    like: Like,
    /// The dtype fresh operands of the op being typed should have, if it keeps the dtype.
    dtype_want: Option<DType>,
    /// Most elements a value may have.
    limit: usize,
}

impl<'a> Sampler<'a> {
    pub fn new(
        rule: &'a Rule,
        registry: &'a Registry,
        rng: &'a mut ChaCha8Rng,
        sizes: Sizes,
        base: DType,
    ) -> Self {
        let n = rule.source.terms.len();
        let named = rule
            .source
            .terms
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.name().map(|v| (v.clone(), TermId(i))))
            .collect();
        Sampler {
            rule,
            registry,
            rng,
            sizes,
            base,
            types: HashMap::new(),
            attrs: IndexMap::new(),
            named,
            ops: vec![None; n],
            order: Vec::new(),
            visits: vec![Visit::No; n],
            raw_numbers: HashMap::new(),
            like: Like::default(),
            dtype_want: None,
            limit: element_limit(rule),
        }
    }

    /// Types the whole source pattern and builds its constants.
    pub fn run(&mut self) -> Res<()> {
        for &root in &self.rule.source.roots {
            self.visit(root, Like::default())?;
        }
        for i in 0..self.order.len() {
            let id = self.order[i];
            if let Term::Splat { value, .. } = self.term(id).clone() {
                self.build_splat(id, &value)?;
            }
        }
        Ok(())
    }

    pub fn term(&self, id: TermId) -> &'a Term {
        let source = &self.rule.source;
        &source.terms[id.0]
    }

    /// The slot holding the type of term `id`.
    pub fn slot(&self, id: TermId) -> Slot {
        match self.term(id) {
            Term::Value(v) if v.0 == "_" => Slot::Term(id),
            Term::Value(v) => match self.named.get(v) {
                Some(&n) => Slot::Term(n),
                None => Slot::Var(v.clone()),
            },
            _ => Slot::Term(id),
        }
    }

    pub fn ty(&self, id: TermId) -> Option<&Type> {
        self.types.get(&self.slot(id))
    }

    pub fn slot_type(&self, slot: &Slot) -> Option<&Type> {
        self.types.get(slot)
    }

    pub fn shape(&self, id: TermId) -> Option<Shape> {
        self.ty(id)?.as_tensor().map(|t| t.shape.clone())
    }

    /// Gives term `id` type `ty`, or fails if it already has another.
    pub fn assign(&mut self, id: TermId, ty: Type) -> Res<()> {
        let elements = match &ty {
            Type::Tensor(t) => t.num_elements(),
            Type::Tuple(ts) => ts
                .iter()
                .filter_map(Type::as_tensor)
                .map(|t| t.num_elements())
                .sum(),
        };
        if elements > self.limit {
            return Err(format!("{ty} is larger than {} elements", self.limit));
        }
        let slot = self.slot(id);
        match self.types.get(&slot) {
            Some(t) if *t != ty => Err(format!("a value must be both {t} and {ty}")),
            _ => {
                self.types.insert(slot, ty);
                Ok(())
            }
        }
    }

    /// Visits term `id`, which must be as `like` says, operands first.
    fn visit(&mut self, id: TermId, like: Like) -> Res<()> {
        match self.visits[id.0] {
            Visit::Done => return Ok(()),
            Visit::Open => return Err("the pattern refers to a named term inside itself".into()),
            Visit::No => self.visits[id.0] = Visit::Open,
        }
        match self.term(id) {
            Term::Value(_) => {
                if let Slot::Term(n) = self.slot(id) {
                    if n != id {
                        self.visit(n, like)?;
                    }
                }
            }
            Term::Splat { .. } => self.order.push(id),
            Term::Native { .. } => return Err("a source pattern has no native builders".into()),
            Term::Op { key, operands, .. } => {
                for (i, &o) in operands.iter().enumerate() {
                    let l = self.operand_like(*key, operands, i, &like);
                    self.visit(o, l)?;
                }
                self.dtype_want = self.want_dtype(&like).filter(|_| keeps_dtype(*key));
                self.like = like;
                self.op_term(id)?;
                self.order.push(id);
            }
        }
        self.visits[id.0] = Visit::Done;
        Ok(())
    }

    fn build_splat(&mut self, id: TermId, value: &Attr) -> Res<()> {
        if self.ty(id).is_none() {
            let ty = self.fresh(id, DClass::Any, None);
            self.assign(id, ty)?;
        }
        let dtype = self
            .ty(id)
            .and_then(Type::as_tensor)
            .map(|t| t.dtype)
            .ok_or("a splat must be a tensor")?;
        let raw = match value {
            Attr::Lit(AttrValue::Number(x)) => *x,
            Attr::Var(v) => match self.attrs.get(v) {
                Some(AttrValue::Number(x)) => *x,
                _ => self.raw_number(v),
            },
            Attr::Ignore => sample_number(self.rng),
            other => return Err(format!("a splat cannot hold {other:?}")),
        };
        let s =
            Scalar::from_number(dtype, raw).ok_or_else(|| format!("{raw} is no {dtype} value"))?;
        if let Attr::Var(v) = value {
            self.bind(value, AttrValue::Number(s.as_f64_in(dtype)))
                .map_err(|e| format!("{v}: {e}"))?;
        }
        self.ops[id.0] = Some(Op::Constant(Literal::Splat(s)));
        Ok(())
    }

    fn raw_number(&mut self, v: &Var) -> f64 {
        if let Some(x) = self.raw_numbers.get(v) {
            return *x;
        }
        let x = match self.solve(v, None) {
            Some(AttrValue::Number(x)) => x,
            _ => sample_number(self.rng),
        };
        self.raw_numbers.insert(v.clone(), x);
        x
    }

    // ---- fresh types ------------------------------------------------------------------

    /// A size for a fresh dim.
    pub fn size(&mut self) -> usize {
        match &mut self.sizes {
            Sizes::Small => self.rng.gen_range(1..=4),
            Sizes::Equal(n) => *n,
            Sizes::Distinct(pool, next) => {
                let s = pool[*next % pool.len()];
                *next += 1;
                s
            }
        }
    }

    /// A rank for a fresh leaf: mostly 1 to 3.
    pub fn rank(&mut self) -> usize {
        *[0, 1, 1, 2, 2, 2, 3, 3, 4].choose(self.rng).unwrap_or(&2)
    }

    /// A fresh shape of rank `rank` with at most [`ELEMENT_LIMIT`] elements.
    pub fn fresh_shape(&mut self, rank: usize) -> Shape {
        let mut shape: Shape = (0..rank).map(|_| self.size()).collect();
        while shape.iter().product::<usize>() > ELEMENT_LIMIT {
            if let Some(m) = shape.iter_mut().max() {
                *m -= 1;
            }
        }
        shape
    }

    /// A dtype in `class`: mostly the attempt's base dtype.
    pub fn dtype(&mut self, class: DClass) -> DType {
        if let DClass::Is(d) = class {
            return d;
        }
        if class.allows(self.base) && self.rng.gen_bool(0.95) {
            return self.base;
        }
        let options: Vec<DType> = DType::ALL
            .into_iter()
            .filter(|&d| class.allows(d))
            .collect();
        *options.choose(self.rng).unwrap_or(&DType::F32)
    }

    /// A fresh type for leaf `id`: what the constraints say, else `class` and `shape` (a
    /// random shape when `None`).
    pub fn fresh(&mut self, id: TermId, class: DClass, shape: Option<Shape>) -> Type {
        let hint = self.hint(id);
        let dtype = match hint.dtype {
            Some(d) => d,
            None => {
                let c = match (hint.class, class, self.dtype_want) {
                    (Some(h), DClass::Any, _) => h,
                    (None, DClass::Any, Some(d)) => DClass::Is(d),
                    _ => class,
                };
                self.dtype(c)
            }
        };
        let mut shape = match (hint.shape, shape) {
            (Some(s), _) | (None, Some(s)) => s,
            (None, None) => {
                let r = hint.rank.unwrap_or_else(|| self.rank());
                self.fresh_shape(r)
            }
        };
        if let Some(r) = hint.rank {
            shape.truncate(r);
            while shape.len() < r {
                let n = self.size();
                shape.push(n);
            }
        }
        TensorType::new(dtype, shape).into()
    }

    /// The type of `id`, given a fresh one first if it has none.
    pub fn ensure(&mut self, id: TermId, class: DClass, shape: Option<Shape>) -> Res<Type> {
        if let Some(t) = self.ty(id) {
            return Ok(t.clone());
        }
        let t = self.fresh(id, class, shape);
        self.assign(id, t.clone())?;
        Ok(t)
    }

    /// The type the op being typed must have, if one of the terms it must equal has one.
    pub fn want(&self) -> Option<Type> {
        let t = self.like.terms.iter().find_map(|&t| self.ty(t).cloned())?;
        match (t, self.like.dtype) {
            (Type::Tensor(t), Some(d)) => Some(t.with_dtype(d).into()),
            (t, _) => Some(t),
        }
    }

    /// Gives every term of `ids` one type: the first existing one, else the one wanted (if
    /// `wanted`, see [`Sampler::want`]), else a fresh one (for a variable if there is one,
    /// as constraints may say what it must be).
    pub fn unify(&mut self, ids: &[TermId], class: DClass, wanted: bool) -> Res<Type> {
        let want = if wanted { self.want() } else { None };
        let t = match ids.iter().find_map(|&i| self.ty(i).cloned()).or(want) {
            Some(t) => t,
            None => {
                let var = ids.iter().find(|&&i| matches!(self.slot(i), Slot::Var(_)));
                self.ensure(*var.unwrap_or(&ids[0]), class, None)?
            }
        };
        for &i in ids {
            self.assign(i, t.clone())?;
        }
        Ok(t)
    }

    // ---- attributes -------------------------------------------------------------------

    /// The value an attribute position already has: a literal, a bound variable, or what a
    /// constraint forces (`len`: the length a list must have, where known).
    pub fn known(&mut self, a: &Attr, len: Option<usize>) -> Option<AttrValue> {
        match a {
            Attr::Lit(x) => Some(x.clone()),
            Attr::Var(v) => match self.attrs.get(v) {
                Some(x) => Some(x.clone()),
                None => self.solve(v, len),
            },
            Attr::Ignore | Attr::Call { .. } => None,
        }
    }

    /// Records that an attribute position holds `value`.
    pub fn bind(&mut self, a: &Attr, value: AttrValue) -> Res<()> {
        match a {
            Attr::Var(v) => match self.attrs.get(v) {
                Some(x) if !x.same(&value) => Err(format!("{v} must be both {x} and {value}")),
                _ => {
                    self.attrs.insert(v.clone(), value);
                    Ok(())
                }
            },
            Attr::Lit(x) if !x.same(&value) => Err(format!("literal {x} is not {value}")),
            _ => Ok(()),
        }
    }
}
