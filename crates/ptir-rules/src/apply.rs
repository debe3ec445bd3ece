//! What both engines do with a match: evaluate its constraints and build its results.
//!
//! An engine matches a rule's source pattern its own way (the greedy driver on SSA values, the
//! e-graph engine on e-classes) and hands over the [`Bindings`]: what each value variable and
//! attribute variable bound. [`Rule::constraints_hold`] and [`Rule::instantiate`] then do the
//! rest in one place, through a [`ResultBuilder`] that creates ops in the engine's own IR.

use crate::ast::{Attr, AttrValue, Rule, Term, TermId, Var};
use crate::builders::BuiltOperand;
use crate::ops::make_op;
use crate::registry::{Bound, Registry};
use indexmap::IndexMap;
use ptir_ir::{Literal, Op, OpKey, Scalar, Type};
use std::borrow::Cow;

/// What a match bound. `V` is the engine's value handle (an SSA value, an e-class id).
#[derive(Clone, Debug)]
pub struct Bindings<V> {
    /// Value variables (named terms included).
    pub values: IndexMap<Var, V>,
    /// Attribute variables.
    pub attrs: IndexMap<Var, AttrValue>,
}

impl<V> Default for Bindings<V> {
    fn default() -> Self {
        Bindings {
            values: IndexMap::new(),
            attrs: IndexMap::new(),
        }
    }
}

/// Creates result ops in an engine's IR.
pub trait ResultBuilder {
    /// The engine's value handle.
    type Value: Clone;
    /// The type of a value.
    fn type_of(&self, v: &Self::Value) -> Type;
    /// Creates `op(operands) : ty` and returns its value.
    fn build(&mut self, op: Op, operands: Vec<Self::Value>, ty: Type) -> Self::Value;
}

/// Why a match could not be rewritten.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// A native function declined (its `None`): the rule does not apply here.
    #[error("native function `{0}` does not apply")]
    NativeDeclined(String),
    /// A number of the rule is no value of the dtype it is built in (`-1` as `u32`): the
    /// rule does not apply here.
    #[error("{value} is no {dtype} value")]
    NoSuchValue {
        /// The rule's number, as printed.
        value: String,
        /// The dtype of the splat.
        dtype: ptir_ir::DType,
    },
    /// Building a result failed: the rule is wrong for this match (a rule bug).
    #[error("rule `{rule}`: {message}")]
    Build {
        /// The rule.
        rule: String,
        /// What failed.
        message: String,
    },
}

impl<V> Bindings<V> {
    fn bound(&self, v: &Var, type_of: &impl Fn(&V) -> Type) -> Option<Bound<'_>> {
        match (self.attrs.get(v), self.values.get(v)) {
            (Some(a), _) => Some(Bound::Attr(Cow::Borrowed(a))),
            (None, Some(x)) => Some(Bound::value(type_of(x))),
            (None, None) => None,
        }
    }

    /// Evaluates an attribute expression: a variable, a literal or a native call.
    pub fn eval<'a>(
        &'a self,
        a: &'a Attr,
        registry: &Registry,
        type_of: &impl Fn(&V) -> Type,
    ) -> Result<Bound<'a>, ApplyError> {
        let declined = |f: &str| ApplyError::NativeDeclined(f.to_string());
        match a {
            Attr::Var(v) => self
                .bound(v, type_of)
                .ok_or_else(|| declined(&v.to_string())),
            Attr::Lit(x) => Ok(Bound::Attr(Cow::Borrowed(x))),
            Attr::Ignore => Err(declined("?_")),
            Attr::Call { func, args } => {
                let args = args
                    .iter()
                    .map(|a| self.eval(a, registry, type_of))
                    .collect::<Result<Vec<_>, _>>()?;
                let native = registry.native(func).ok_or_else(|| declined(func))?;
                (native.call)(&args)
                    .map(Bound::attribute)
                    .ok_or_else(|| declined(func))
            }
        }
    }
}

impl Rule {
    /// Do the rule's constraints hold for this match? The predicate each engine decides itself
    /// from use counts (`single-use`: the greedy driver when it matches; saturation answers
    /// yes and decides it at extraction) is asked of `engine_predicate`.
    pub fn constraints_hold<V>(
        &self,
        b: &Bindings<V>,
        registry: &Registry,
        type_of: impl Fn(&V) -> Type,
        mut engine_predicate: impl FnMut(&str, &[Attr]) -> bool,
    ) -> bool {
        self.constraints.iter().all(|c| {
            let Some(pred) = registry.predicate(&c.pred) else {
                return false;
            };
            let Some(test) = &pred.test else {
                return engine_predicate(&c.pred, &c.args);
            };
            let args: Result<Vec<Bound>, _> = c
                .args
                .iter()
                .map(|a| b.eval(a, registry, &type_of))
                .collect();
            args.is_ok_and(|args| test(&args))
        })
    }

    /// Builds the result patterns for a match whose roots have types `root_types`; returns one
    /// value per root. Every built op's type is inferred and each root's must equal the
    /// matched root's: a mismatch is a bug in the rule and comes back as [`ApplyError::Build`].
    pub fn instantiate<B: ResultBuilder>(
        &self,
        b: &Bindings<B::Value>,
        root_types: &[Type],
        registry: &Registry,
        builder: &mut B,
    ) -> Result<Vec<B::Value>, ApplyError> {
        let mut inst = Instantiation {
            rule: self,
            b,
            registry,
            built: vec![None; self.result.terms.len()],
            root_types,
        };
        // Auxiliary ops first, in order (DRR); the replacements then find them built.
        for &aux in &self.aux {
            inst.value(aux, None, builder)?;
        }
        let mut out = Vec::new();
        for (i, &root) in self.result.roots.iter().enumerate() {
            let v = inst.value(root, root_types.get(i), builder)?;
            self.check_result_type(i, &builder.type_of(&v), root_types.get(i))?;
            out.push(v);
        }
        Ok(out)
    }

    /// Does result `i`, of type `got`, have the type of the root it replaces? A mismatch is a
    /// bug in the rule ([`ApplyError::Build`]), the same error in both engines (the greedy
    /// driver checks results that are source variables, `=> ?x`, with this too).
    pub fn check_result_type(
        &self,
        i: usize,
        got: &Type,
        root: Option<&Type>,
    ) -> Result<(), ApplyError> {
        if root == Some(got) {
            return Ok(());
        }
        Err(ApplyError::Build {
            rule: self.name.clone(),
            message: format!(
                "result {i} has type {got} but replaces a value of type {}",
                root.map_or("?".into(), Type::to_string)
            ),
        })
    }
}

struct Instantiation<'r, V> {
    rule: &'r Rule,
    b: &'r Bindings<V>,
    registry: &'r Registry,
    /// Value built for each result term, once built (shared terms are built once).
    built: Vec<Option<V>>,
    root_types: &'r [Type],
}

impl<V: Clone> Instantiation<'_, V> {
    fn bug(&self, message: String) -> ApplyError {
        ApplyError::Build {
            rule: self.rule.name.clone(),
            message,
        }
    }

    /// The value of result term `id`; `hint` is the type a splat there must have.
    fn value<B: ResultBuilder<Value = V>>(
        &mut self,
        id: TermId,
        hint: Option<&Type>,
        builder: &mut B,
    ) -> Result<V, ApplyError> {
        if let Some(v) = &self.built[id.0] {
            return Ok(v.clone());
        }
        let v = match self.rule.result.term(id) {
            Term::Value(var) => self
                .b
                .values
                .get(var)
                .cloned()
                .ok_or_else(|| self.bug(format!("{var} is not bound")))?,
            Term::Splat { value, like, .. } => {
                let ty = match like {
                    Some(l) => self.b.values.get(l).map(|x| builder.type_of(x)),
                    None => hint.cloned(),
                };
                let ty = ty.ok_or_else(|| self.bug("cannot infer the type of a splat".into()))?;
                self.splat(value, ty, builder)?
            }
            Term::Op {
                key,
                callee,
                operands,
                attrs,
                ty,
                ..
            } => {
                let annotated = ty.clone().or_else(|| self.result_type_of(id));
                self.op(*key, callee.as_deref(), operands, attrs, annotated, builder)?
            }
            Term::Native {
                func,
                operands,
                attrs,
                ..
            } => self.native(func, operands, attrs, builder)?,
        };
        self.built[id.0] = Some(v.clone());
        Ok(v)
    }

    /// The type a result op takes from the matched roots: a root's own, or for a call whose
    /// uses are all `tuple_get` roots, the tuple of their types.
    fn result_type_of(&self, id: TermId) -> Option<Type> {
        let roots = &self.rule.result.roots;
        if let Some(i) = roots.iter().position(|r| *r == id) {
            return self.root_types.get(i).cloned();
        }
        let elements = crate::parse::tuple_of_roots(&self.rule.result, id)?;
        let types = elements.iter().map(|&r| self.root_types.get(r).cloned());
        types.collect::<Option<Vec<_>>>().map(Type::Tuple)
    }

    fn op<B: ResultBuilder<Value = V>>(
        &mut self,
        key: OpKey,
        callee: Option<&str>,
        operands: &[TermId],
        attrs: &[Attr],
        annotated: Option<Type>,
        builder: &mut B,
    ) -> Result<V, ApplyError> {
        // Non-splat operands first: their types tell the splats beside them what to be.
        let mut vals: Vec<Option<V>> = vec![None; operands.len()];
        for (i, &o) in operands.iter().enumerate() {
            if !matches!(self.rule.result.term(o), Term::Splat { like: None, .. })
                || self.built[o.0].is_some()
            {
                vals[i] = Some(self.value(o, None, builder)?);
            }
        }
        let sibling = vals.iter().flatten().next().map(|v| builder.type_of(v));
        let hint = if key.is_elementwise() && key != OpKey::Select {
            sibling
        } else {
            None
        };
        let hint = match (key, &vals[..]) {
            (OpKey::Select, [_, a, b]) => a.as_ref().or(b.as_ref()).map(|v| builder.type_of(v)),
            _ => hint,
        };
        for (i, &o) in operands.iter().enumerate() {
            if vals[i].is_none() {
                vals[i] = Some(self.value(o, hint.as_ref(), builder)?);
            }
        }
        let vals: Vec<V> = vals.into_iter().flatten().collect();
        let attr_values = self.attr_values(attrs, builder)?;
        let types: Vec<Type> = vals.iter().map(|v| builder.type_of(v)).collect();
        let type_refs: Vec<&Type> = types.iter().collect();
        let (op, ty) = make_op(key, callee, &attr_values, &type_refs, annotated.as_ref())
            .map_err(|e| self.bug(format!("building `{key}`: {e}")))?;
        Ok(builder.build(op, vals, ty))
    }

    /// The values of a result term's attributes; a value where an attribute belongs is a bug
    /// in the rule.
    fn attr_values<B: ResultBuilder<Value = V>>(
        &self,
        attrs: &[Attr],
        builder: &B,
    ) -> Result<Vec<AttrValue>, ApplyError> {
        let type_of = |v: &V| builder.type_of(v);
        attrs
            .iter()
            .map(|a| match self.b.eval(a, self.registry, &type_of)? {
                Bound::Attr(x) => Ok(x.into_owned()),
                Bound::Value(t) => {
                    Err(self.bug(format!("expected an attribute, found a value of type {t}")))
                }
            })
            .collect()
    }

    /// Builds what native builder `func` makes of these arguments (see [`crate::builders`]);
    /// each op's type is checked by the IR's typing rule first.
    fn native<B: ResultBuilder<Value = V>>(
        &mut self,
        func: &str,
        operands: &[TermId],
        attrs: &[Attr],
        builder: &mut B,
    ) -> Result<V, ApplyError> {
        let args = operands
            .iter()
            .map(|&o| self.value(o, None, builder))
            .collect::<Result<Vec<_>, _>>()?;
        let attr_values = self.attr_values(attrs, builder)?;
        let types: Vec<Type> = args.iter().map(|v| builder.type_of(v)).collect();
        let native = self
            .registry
            .builder(func)
            .ok_or_else(|| ApplyError::NativeDeclined(func.to_string()))?;
        let built = (native.call)(&types, &attr_values)
            .ok_or_else(|| ApplyError::NativeDeclined(func.to_string()))?;
        let mut made: Vec<V> = Vec::with_capacity(built.ops.len());
        let pick = |made: &[V], o: BuiltOperand| match o {
            BuiltOperand::Arg(i) => args.get(i).cloned(),
            BuiltOperand::Op(i) => made.get(i).cloned(),
        };
        for op in built.ops {
            let vals = op
                .operands
                .iter()
                .map(|&o| pick(&made, o))
                .collect::<Option<Vec<V>>>()
                .ok_or_else(|| self.bug(format!("`{func}` built an op of missing operands")))?;
            let types: Vec<Type> = vals.iter().map(|v| builder.type_of(v)).collect();
            let refs: Vec<&Type> = types.iter().collect();
            let cx = ptir_ir::InferContext {
                annotated: Some(&op.ty),
                callee: None,
                region_results: &[],
            };
            ptir_ir::infer_type(&op.op, &refs, &cx)
                .map_err(|e| self.bug(format!("`{func}` built an ill-typed op: {e}")))?;
            made.push(builder.build(op.op, vals, op.ty));
        }
        pick(&made, built.value)
            .ok_or_else(|| self.bug(format!("`{func}` returned a value it did not build")))
    }

    fn splat<B: ResultBuilder<Value = V>>(
        &mut self,
        value: &Attr,
        ty: Type,
        builder: &mut B,
    ) -> Result<V, ApplyError> {
        let type_of = |v: &V| builder.type_of(v);
        let bound = self.b.eval(value, self.registry, &type_of)?;
        let x = match bound.attr() {
            Some(AttrValue::Number(x)) => *x,
            _ => return Err(self.bug(format!("a splat needs a number, found {bound:?}"))),
        };
        let dtype = ty
            .as_tensor()
            .map(|t| t.dtype)
            .ok_or_else(|| self.bug(format!("a splat cannot have type {ty}")))?;
        let s = Scalar::from_number(dtype, x).ok_or(ApplyError::NoSuchValue {
            value: x.to_string(),
            dtype,
        })?;
        let lit = Literal::Splat(s);
        Ok(builder.build(Op::Constant(lit), Vec::new(), ty))
    }
}
