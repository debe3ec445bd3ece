//! The execution state of one run: the random stream, the loop fuel left, the nesting depth,
//! and the evaluation of functions, regions and the ops that need them.
//!
//! Each function call gets one environment mapping [`ValueId`]s to values. Value ids are unique
//! within a function, nested regions included, so a region simply runs in its function's
//! environment: it sees every value defined before its op (captures need no special handling),
//! and its parameters and results overwrite those of the previous iteration.
//!
//! - `cond`: runs the region picked by the `bool[]` predicate.
//! - `while`: runs `cond` on the carried values; while it yields true, burns one unit of fuel
//!   and runs `body` to get the next carried values.
//! - `scan`: for `i` in `0..length`, burns one unit of fuel and runs `body` on the carries and
//!   row `i` of every `xs`; the first `num_carry` results are the next carries, the rest are
//!   appended to the stacked `ys`.
//! - `call`: a program function runs in a fresh environment; a declared extern runs its
//!   registered [`ExternFn`](super::ExternFn), whose result must have the call's type.

use super::error::{InterpError, InterpResult};
use super::eval::{check_buffers, check_size, eval_op, value_type};
use super::shape_ops::{append_range, empty_data, leading_row};
use super::{check_value, rng, Interpreter};
use crate::ops::Op;
use crate::program::{Function, Instruction, Region, ValueId};
use crate::tensor::{Data, Scalar, Tensor, Value};
use crate::types::{TensorType, Type};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

/// The values of one function call.
type Env = FxHashMap<ValueId, Value>;

/// One run in progress.
pub(crate) struct Machine<'i, 'p> {
    interp: &'i Interpreter<'p>,
    rng: ChaCha8Rng,
    fuel: u64,
    depth: usize,
    /// Whether the run has computed a NaN in some float tensor; `None` when not watched
    /// ([`Interpreter::run_noting_nan`]).
    pub(crate) nan_seen: Option<bool>,
}

/// Does `v` hold a NaN anywhere (tuples element by element)?
fn holds_nan(v: &Value) -> bool {
    match v {
        Value::Tensor(t) => match &t.data {
            Data::Float(xs) => xs.iter().any(|x| x.0.is_nan()),
            Data::Int(_) | Data::Bool(_) => false,
        },
        Value::Tuple(vs) => vs.iter().any(holds_nan),
    }
}

fn lookup(env: &Env, v: ValueId) -> InterpResult<&Value> {
    env.get(&v)
        .ok_or_else(|| InterpError::malformed(format!("{v} is not defined here")))
}

fn operand_refs<'e>(env: &'e Env, inst: &Instruction) -> InterpResult<Vec<&'e Value>> {
    inst.operands.iter().map(|&v| lookup(env, v)).collect()
}

fn operands_owned(env: &Env, inst: &Instruction) -> InterpResult<Vec<Value>> {
    inst.operands
        .iter()
        .map(|&v| lookup(env, v).cloned())
        .collect()
}

/// The value of a `bool[]` predicate.
fn predicate(v: Option<&Value>) -> InterpResult<bool> {
    match v
        .and_then(Value::as_tensor)
        .map(|t| (t.data.len(), &t.data))
    {
        Some((1, d)) => match d.get(0) {
            Scalar::Bool(b) => Ok(b),
            s => Err(InterpError::malformed(format!(
                "predicate {s} is not a bool"
            ))),
        },
        _ => Err(InterpError::malformed("predicate is not a bool[] value")),
    }
}

/// Adds the function and instruction to an error. Errors from inside the regions of a region
/// op already name their own instruction (in the same function), so they pass through.
fn at(function: &str, inst: &Instruction, e: InterpError) -> InterpError {
    let from_region = !inst.op.regions().is_empty() && matches!(e, InterpError::At { .. });
    if from_region {
        return e;
    }
    InterpError::At {
        function: function.to_string(),
        inst: inst.result,
        op: inst.op.name(),
        cause: Box::new(e),
    }
}

impl<'i, 'p> Machine<'i, 'p> {
    /// A fresh run: the stream seeded by the interpreter's seed, full fuel, depth 0.
    pub(crate) fn new(interp: &'i Interpreter<'p>) -> Self {
        Machine {
            interp,
            rng: ChaCha8Rng::seed_from_u64(interp.seed),
            fuel: interp.while_fuel,
            depth: 0,
            nan_seen: None,
        }
    }

    /// Calls `f` on `args` (already checked against its parameters).
    pub(crate) fn call(&mut self, f: &'p Function, args: Vec<Value>) -> InterpResult<Vec<Value>> {
        let mut env = Env::default();
        self.enter()?;
        let results = self.block(&f.name, &f.body, args, &mut env);
        self.depth -= 1;
        results
    }

    /// Goes one nesting level deeper, failing if that passes the depth limit. The caller
    /// decrements `depth` when it leaves.
    fn enter(&mut self) -> InterpResult<()> {
        if self.depth >= self.interp.depth_limit {
            return Err(InterpError::DepthLimit(self.interp.depth_limit));
        }
        self.depth += 1;
        Ok(())
    }

    fn burn_fuel(&mut self) -> InterpResult<()> {
        if self.fuel == 0 {
            return Err(InterpError::OutOfFuel(self.interp.while_fuel));
        }
        self.fuel -= 1;
        Ok(())
    }

    /// Runs a block: binds its parameters, runs its instructions, returns its results.
    fn block(
        &mut self,
        function: &str,
        region: &'p Region,
        args: Vec<Value>,
        env: &mut Env,
    ) -> InterpResult<Vec<Value>> {
        if args.len() != region.params.len() {
            return Err(InterpError::malformed(format!(
                "a block of {} parameter(s) gets {} argument(s)",
                region.params.len(),
                args.len()
            )));
        }
        for (p, a) in region.params.iter().zip(args) {
            env.insert(p.id, a);
        }
        for inst in &region.insts {
            let v = self
                .instruction(function, inst, env)
                .map_err(|e| at(function, inst, e))?;
            if self.nan_seen == Some(false) && holds_nan(&v) {
                self.nan_seen = Some(true);
            }
            env.insert(inst.result, v);
        }
        region
            .results
            .iter()
            .map(|&r| lookup(env, r).cloned())
            .collect()
    }

    /// Runs a region one nesting level deeper.
    fn region(
        &mut self,
        function: &str,
        region: &'p Region,
        args: Vec<Value>,
        env: &mut Env,
    ) -> InterpResult<Vec<Value>> {
        self.enter()?;
        let results = self.block(function, region, args, env);
        self.depth -= 1;
        results
    }

    /// Runs one instruction. Each region op has its own method, which keeps this frame small:
    /// calls and regions recurse through it, so its size bounds the usable nesting depth.
    fn instruction(
        &mut self,
        function: &str,
        inst: &'p Instruction,
        env: &mut Env,
    ) -> InterpResult<Value> {
        check_size(&inst.ty)?;
        match &inst.op {
            Op::Call { callee } => self.call_op(callee, operands_owned(env, inst)?, &inst.ty),
            Op::Rng { dist } => match &inst.ty {
                Type::Tensor(ty) => rng::draw(&mut self.rng, *dist, ty).map(Value::Tensor),
                Type::Tuple(_) => Err(InterpError::malformed("`rng` of a tuple type")),
            },
            Op::Cond {
                then_region,
                else_region,
            } => self.cond(function, inst, [then_region, else_region], env),
            Op::While { cond, body } => self.while_loop(function, inst, cond, body, env),
            Op::Scan {
                num_carry,
                length,
                body,
            } => {
                let scan = ScanOp {
                    num_carry: *num_carry,
                    length: *length,
                    body,
                    ty: &inst.ty,
                };
                self.scan(function, &scan, operands_owned(env, inst)?, env)
            }
            op => eval_op(op, &operand_refs(env, inst)?, &inst.ty),
        }
    }

    fn cond(
        &mut self,
        function: &str,
        inst: &Instruction,
        [then_region, else_region]: [&'p Region; 2],
        env: &mut Env,
    ) -> InterpResult<Value> {
        let pred = predicate(inst.operands.first().map(|&v| lookup(env, v)).transpose()?)?;
        let region = if pred { then_region } else { else_region };
        self.region(function, region, Vec::new(), env)
            .map(Value::pack)
    }

    fn call_op(&mut self, callee: &str, args: Vec<Value>, ty: &Type) -> InterpResult<Value> {
        match self.interp.functions.get(callee) {
            Some(&f) => self.call(f, args).map(Value::pack),
            None => self.call_extern(callee, &args, ty),
        }
    }

    fn call_extern(&self, callee: &str, args: &[Value], ty: &Type) -> InterpResult<Value> {
        if self.interp.program.extern_decl(callee).is_none() {
            return Err(InterpError::UnknownCallee(callee.to_string()));
        }
        let imp = self
            .interp
            .externs
            .get(callee)
            .ok_or_else(|| InterpError::MissingExtern(callee.to_string()))?;
        let v = imp(args, ty).map_err(|message| InterpError::Extern {
            name: callee.to_string(),
            message,
        })?;
        let found = value_type(&v);
        if found != *ty {
            return Err(InterpError::ExternResult {
                name: callee.to_string(),
                expected: ty.clone(),
                found,
            });
        }
        check_value(&v)?;
        Ok(v)
    }

    fn while_loop(
        &mut self,
        function: &str,
        inst: &Instruction,
        cond: &'p Region,
        body: &'p Region,
        env: &mut Env,
    ) -> InterpResult<Value> {
        let mut carried = operands_owned(env, inst)?;
        loop {
            let test = self.region(function, cond, carried, env)?;
            // Take the carried values back from the cond region's parameters.
            carried = cond
                .params
                .iter()
                .map(|p| env.remove(&p.id))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| InterpError::malformed("while cond lost its parameters"))?;
            if !predicate(test.first())? {
                return Ok(Value::pack(carried));
            }
            self.burn_fuel()?;
            carried = self.region(function, body, carried, env)?;
        }
    }
}

/// The attributes of a `scan` being run.
struct ScanOp<'p, 't> {
    num_carry: usize,
    length: usize,
    body: &'p Region,
    /// The instruction's result type: the carries, then the stacked `ys`.
    ty: &'t Type,
}

fn tensor_of<'v>(v: &'v Value, what: &str) -> InterpResult<&'v Tensor> {
    v.as_tensor()
        .ok_or_else(|| InterpError::malformed(format!("{what} is a tuple")))
}

impl ScanOp<'_, '_> {
    /// The types of the stacked outputs: the result types after the carries.
    fn stacked_types(&self) -> InterpResult<Vec<TensorType>> {
        let n = self.body.results.len();
        let results = match self.ty {
            Type::Tuple(ts) if n != 1 => ts.as_slice(),
            t => std::slice::from_ref(t),
        };
        let ys = results.get(self.num_carry..).unwrap_or_default();
        ys.iter()
            .map(|t| tensor_of_type(t, "scan output type"))
            .collect()
    }

    /// The body's arguments for step `i`: the carries, then row `i` of every `xs`.
    fn step_args(
        &self,
        mut carries: Vec<Value>,
        xs: &[Value],
        i: usize,
    ) -> InterpResult<Vec<Value>> {
        for x in xs {
            let row = leading_row(tensor_of(x, "a scanned operand")?, i)?;
            carries.push(Value::Tensor(row));
        }
        Ok(carries)
    }

    /// Splits one step's results into the next carries, appending the outputs to `ys`.
    fn step_results(&self, mut out: Vec<Value>, ys: &mut [Data]) -> InterpResult<Vec<Value>> {
        if out.len() != self.num_carry + ys.len() {
            return Err(InterpError::malformed(
                "scan body yields the wrong number of values",
            ));
        }
        let step_ys = out.split_off(self.num_carry);
        for (acc, y) in ys.iter_mut().zip(&step_ys) {
            let y = tensor_of(y, "a scan output")?;
            append_range(acc, &y.data, 0..y.data.len())?;
        }
        Ok(out)
    }
}

fn tensor_of_type(t: &Type, what: &str) -> InterpResult<TensorType> {
    t.as_tensor()
        .cloned()
        .ok_or_else(|| InterpError::malformed(format!("{what} is a tuple")))
}

impl<'i, 'p> Machine<'i, 'p> {
    fn scan(
        &mut self,
        function: &str,
        scan: &ScanOp<'p, '_>,
        mut carries: Vec<Value>,
        env: &mut Env,
    ) -> InterpResult<Value> {
        if scan.num_carry > carries.len() {
            return Err(InterpError::malformed(
                "`scan` has fewer operands than carries",
            ));
        }
        let xs = carries.split_off(scan.num_carry);
        let y_types = scan.stacked_types()?;
        let mut ys: Vec<Data> = y_types.iter().map(|t| empty_data(t.dtype)).collect();
        for i in 0..scan.length {
            self.burn_fuel()?;
            let args = scan.step_args(carries, &xs, i)?;
            let out = self.region(function, scan.body, args, env)?;
            carries = scan.step_results(out, &mut ys)?;
        }
        let mut results = carries;
        for (ty, data) in y_types.into_iter().zip(ys) {
            let stacked = Value::Tensor(Tensor { ty, data });
            check_buffers(&stacked)?;
            results.push(stacked);
        }
        Ok(Value::pack(results))
    }
}
