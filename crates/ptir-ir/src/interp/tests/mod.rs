//! Tests of the interpreter: hand-computed results for every op, control flow, calls, the
//! random stream and the limits.
//!
//! Programs are built directly from the data structures with [`Fb`], a tiny function builder,
//! and every program is verified before it runs, so the tests also check that the
//! interpreter and the verifier agree on what is well formed.

// `&[t.clone()]` reads better than `std::slice::from_ref(&t)` in hand-built programs.
#![allow(clippy::cloned_ref_to_slice_refs)]

mod calls;
mod control;
mod dtypes;
mod elementwise;
mod gather;
mod orders;
mod reductions;
mod reference;
mod shapes;
mod windows;

use crate::{
    eval_op, verify, DType, Function, InstId, Instruction, InterpResult, Interpreter, Op, Param,
    Program, Region, Tensor, TensorType, Type, Value, ValueId,
};
use std::collections::HashMap;

/// A tensor type.
pub(super) fn tt(d: DType, shape: &[usize]) -> TensorType {
    TensorType::new(d, shape.to_vec())
}

/// A tensor type as a [`Type`].
pub(super) fn ty(d: DType, shape: &[usize]) -> Type {
    tt(d, shape).into()
}

/// A tensor value of dtype `d` from real numbers (converted as `cast` would).
pub(super) fn val(d: DType, shape: &[usize], xs: &[f64]) -> Value {
    assert_eq!(xs.len(), crate::num_elements(shape), "test data length");
    Value::Tensor(Tensor::from_f64(tt(d, shape), xs))
}

/// An f32 tensor value.
pub(super) fn f32s(shape: &[usize], xs: &[f64]) -> Value {
    val(DType::F32, shape, xs)
}

/// An i32 tensor value.
pub(super) fn i32s(shape: &[usize], xs: &[i64]) -> Value {
    let xs: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
    val(DType::I32, shape, &xs)
}

/// A bool tensor value.
pub(super) fn bools(shape: &[usize], xs: &[bool]) -> Value {
    let xs: Vec<f64> = xs.iter().map(|&b| b as u8 as f64).collect();
    val(DType::Bool, shape, &xs)
}

/// The elements of a tensor value as real numbers.
pub(super) fn nums(v: &Value) -> Vec<f64> {
    v.as_tensor().expect("a tensor").to_f64_vec()
}

/// The bit patterns of a float tensor (to tell `-0.0` from `+0.0`).
pub(super) fn bits(v: &Value) -> Vec<u64> {
    nums(v).iter().map(|x| x.to_bits()).collect()
}

/// Builds one function: a stack of open blocks sharing one value-id counter.
pub(super) struct Fb {
    next: u32,
    types: HashMap<ValueId, Type>,
    blocks: Vec<Vec<Instruction>>,
}

impl Fb {
    fn fresh(&mut self, ty: Type) -> ValueId {
        let v = ValueId(self.next);
        self.next += 1;
        self.types.insert(v, ty);
        v
    }

    /// Appends `%r = op operands : ty` to the innermost open block.
    pub(super) fn op(&mut self, op: Op, operands: &[ValueId], ty: Type) -> ValueId {
        let result = self.fresh(ty.clone());
        let inst = Instruction {
            result,
            ty,
            op,
            operands: operands.to_vec(),
        };
        self.blocks.last_mut().expect("an open block").push(inst);
        result
    }

    /// The type of a value built so far.
    pub(super) fn ty_of(&self, v: ValueId) -> Type {
        self.types[&v].clone()
    }

    /// A nested region with parameters of types `params`; `body` returns what it yields.
    pub(super) fn region(
        &mut self,
        params: &[Type],
        body: impl FnOnce(&mut Fb, &[ValueId]) -> Vec<ValueId>,
    ) -> Region {
        let ids: Vec<ValueId> = params.iter().map(|t| self.fresh(t.clone())).collect();
        self.blocks.push(Vec::new());
        let results = body(self, &ids);
        let insts = self.blocks.pop().expect("the region's block");
        Region {
            params: ids
                .iter()
                .zip(params)
                .map(|(&id, t)| Param { id, ty: t.clone() })
                .collect(),
            insts,
            results,
        }
    }
}

/// A function `@name(params) -> (...)` whose body `body` builds; result types are taken from
/// the returned values.
pub(super) fn func(
    name: &str,
    params: &[Type],
    body: impl FnOnce(&mut Fb, &[ValueId]) -> Vec<ValueId>,
) -> Function {
    let mut fb = Fb {
        next: 0,
        types: HashMap::new(),
        blocks: Vec::new(),
    };
    let region = fb.region(params, body);
    let result_types = region.results.iter().map(|&r| fb.ty_of(r)).collect();
    Function {
        name: name.to_string(),
        result_types,
        body: region,
    }
}

/// A verified program of these functions (no externs).
pub(super) fn program(functions: Vec<Function>) -> Program {
    let p = Program {
        externs: Vec::new(),
        functions,
    };
    if let Err(e) = verify(&p) {
        panic!("test program does not verify:\n{e}");
    }
    p
}

/// Runs `name` with seed 0, expecting success.
pub(super) fn run_ok(p: &Program, name: &str, args: &[Value]) -> Vec<Value> {
    match Interpreter::new(p).run(name, args) {
        Ok(vs) => vs,
        Err(e) => panic!("run of @{name} failed: {e}"),
    }
}

/// Applies one op to `args` twice: through a verified one-instruction function run by the
/// interpreter, and through [`eval_op`]; both must agree.
pub(super) fn apply(op: Op, args: &[Value], result: Type) -> InterpResult<Value> {
    let params: Vec<Type> = args.iter().map(crate::value_type).collect();
    let f = func("f", &params, |fb, ps| {
        vec![fb.op(op.clone(), ps, result.clone())]
    });
    let p = program(vec![f]);
    let by_run = Interpreter::new(&p)
        .run("f", args)
        .map(|mut vs| vs.remove(0));
    let refs: Vec<&Value> = args.iter().collect();
    let direct = eval_op(&op, &refs, &result);
    assert_eq!(by_run.as_ref().map_err(|e| e.root()), direct.as_ref());
    by_run
}

/// [`apply`], expecting success.
pub(super) fn apply_ok(op: Op, args: &[Value], result: Type) -> Value {
    match apply(op, args, result) {
        Ok(v) => v,
        Err(e) => panic!("op failed: {e}"),
    }
}

#[test]
fn builder_numbers_values_in_order() {
    let f = func("f", &[ty(DType::F32, &[])], |fb, ps| {
        vec![fb.op(Op::Unary(crate::UnaryOp::Neg), ps, ty(DType::F32, &[]))]
    });
    assert_eq!(f.body.insts[0].id(), InstId(1));
}
