//! [`FnBuilder`]: appends instructions to one PTIR function, numbering values as it goes.
//!
//! The proof harness ([`crate::example`]) builds the `@source` and `@result` functions of a
//! rule with it, and the reference externs ([`crate::externs`]) build their idioms with it. It
//! is a [`ResultBuilder`], so [`crate::Rule::instantiate`] can append a rule's results to it.

use crate::apply::ResultBuilder;
use crate::ast::AttrValue;
use crate::ops::make_op;
use ptir_ir::{Function, Instruction, Literal, Op, OpKey, Param, Region, Scalar, Type, ValueId};
use std::collections::{HashMap, HashSet};

/// Builds one function body: parameters, then instructions, with the type of every value.
#[derive(Clone, Debug, Default)]
pub struct FnBuilder {
    body: Region,
    types: HashMap<ValueId, Type>,
    next: u32,
}

impl FnBuilder {
    /// An empty body.
    pub fn new() -> Self {
        FnBuilder::default()
    }

    fn note(&mut self, v: ValueId, ty: Type) {
        self.next = self.next.max(v.0 + 1);
        self.types.insert(v, ty);
    }

    fn fresh(&mut self, ty: Type) -> ValueId {
        let v = ValueId(self.next);
        self.note(v, ty);
        v
    }

    /// Adds a parameter of type `ty`.
    pub fn param(&mut self, ty: Type) -> ValueId {
        let id = self.fresh(ty.clone());
        self.body.params.push(Param { id, ty });
        id
    }

    /// Appends `op(operands) : ty` (not checked) and returns its value.
    pub fn push(&mut self, op: Op, operands: Vec<ValueId>, ty: Type) -> ValueId {
        let result = self.fresh(ty.clone());
        self.body.insts.push(Instruction {
            result,
            ty,
            op,
            operands,
        });
        result
    }

    /// Appends an op of kind `key` with attribute values in slot order (see
    /// [`crate::attr_slots`]), typed by [`make_op`]; an error says why it does not type.
    pub fn op(
        &mut self,
        key: OpKey,
        attrs: &[AttrValue],
        operands: &[ValueId],
    ) -> Result<ValueId, String> {
        let types = operands
            .iter()
            .map(|v| self.ty(*v).cloned().ok_or(format!("{v} is not defined")))
            .collect::<Result<Vec<_>, _>>()?;
        let refs: Vec<&Type> = types.iter().collect();
        let (op, ty) = make_op(key, None, attrs, &refs, None)?;
        Ok(self.push(op, operands.to_vec(), ty))
    }

    /// Appends a splat constant of type `ty` whose elements are the rule number `x` as its
    /// dtype ([`Scalar::from_number`]; an error when the dtype has no such value).
    pub fn splat(&mut self, x: f64, ty: Type) -> Result<ValueId, String> {
        let dtype = ty.as_tensor().ok_or("a constant must be a tensor")?.dtype;
        let s = Scalar::from_number(dtype, x).ok_or_else(|| format!("{x} is no {dtype} value"))?;
        let lit = Literal::Splat(s);
        Ok(self.push(Op::Constant(lit), Vec::new(), ty))
    }

    /// The type of a value defined so far.
    pub fn ty(&self, v: ValueId) -> Option<&Type> {
        self.types.get(&v)
    }

    /// The instructions so far.
    pub fn insts(&self) -> &[Instruction] {
        &self.body.insts
    }

    /// Finishes the function `name` returning `results` (whose types must be known), after
    /// deleting the instructions that do not feed them.
    pub fn finish(mut self, name: &str, results: Vec<ValueId>) -> Function {
        let result_types = results
            .iter()
            .filter_map(|v| self.types.get(v).cloned())
            .collect();
        self.body.results = results;
        remove_dead(&mut self.body);
        Function {
            name: name.to_string(),
            result_types,
            body: self.body,
        }
    }
}

/// Deletes instructions whose result is used neither by a later instruction nor as a result.
fn remove_dead(body: &mut Region) {
    let mut live: HashSet<ValueId> = body.results.iter().copied().collect();
    let mut keep = vec![false; body.insts.len()];
    for (i, inst) in body.insts.iter().enumerate().rev() {
        if live.contains(&inst.result) {
            keep[i] = true;
            live.extend(inst.operands.iter().copied());
        }
    }
    let mut it = keep.into_iter();
    body.insts.retain(|_| it.next().unwrap_or(true));
}

impl ResultBuilder for FnBuilder {
    type Value = ValueId;

    fn type_of(&self, v: &ValueId) -> Type {
        // Every value handed to the rule came from this builder; an unknown one cannot occur,
        // and an empty tuple type makes any misuse fail type checking instead of panicking.
        self.types
            .get(v)
            .cloned()
            .unwrap_or(Type::Tuple(Vec::new()))
    }

    fn build(&mut self, op: Op, operands: Vec<ValueId>, ty: Type) -> ValueId {
        self.push(op, operands, ty)
    }
}
