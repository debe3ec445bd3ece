//! The reference interpreter: runs a verified program on concrete inputs, deterministically.
//!
//! Its results are the ground truth that every optimization is tested against, so each
//! semantic choice is written down next to the code that makes it:
//!
//! - elementwise arithmetic, conversions and comparisons: `kernels.rs` (the public
//!   [`unary_scalar`], [`binary_scalar`], [`compare_scalar`], [`cast_scalar`]);
//! - accumulation order of `reduce_*` and `dot_general`: `reduce.rs`;
//! - data movement (`transpose`, `broadcast`, `slice`, `concat`, `reverse`): `shape_ops.rs`;
//! - indexed reads and writes (`gather`, `scatter_*`: clamped starts, skipped updates):
//!   `gather.rs`;
//! - windows (`convolution`, `reduce_window_*`, `select_and_scatter_*`, `pad`): `window.rs`;
//! - orders (`sort`, `top_k`, `reduce_argmax`/`reduce_argmin`): `sort.rs`;
//! - the random stream of `rng`: `rng.rs`; the bits of `rng_bit_generator`: `rng_bits.rs`;
//! - calls, regions and limits: `machine.rs`.
//!
//! [`eval_op`] evaluates one op on its own, for the constant folders.
//!
//! **Limits.** A run never panics, whatever the program (verified or not) and the inputs: a
//! value above [`TENSOR_ELEMENT_LIMIT`] elements, more than [`WHILE_FUEL`] loop iterations, or
//! calls and regions nested deeper than [`CALL_DEPTH_LIMIT`] end the run with an
//! [`InterpError`]. So loops cannot run forever and recursion cannot overflow the stack. (The
//! number of calls is not budgeted: a tree recursion within the depth limit may still take
//! exponential time.)

mod error;
mod eval;
mod gather;
mod kernels;
mod machine;
mod reduce;
mod rng;
mod rng_bits;
mod shape_ops;
mod sort;
#[cfg(test)]
mod tests;
mod window;

pub use error::{InterpError, InterpResult};
pub use eval::{check_size, check_value, dense_fold_fits, eval_op, value_type, FOLD_ELEMENT_LIMIT};
pub use kernels::{
    binary_scalar, bitcast_scalar, cast_scalar, compare_scalar, float_max, float_min, int_to_float,
    reduce_precision_scalar, unary_scalar,
};

use crate::program::{Function, Program};
use crate::tensor::Value;
use crate::types::Type;
use machine::Machine;
use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::Arc;

/// Most elements one value may have (all tensors of a tuple together): 2^24, 128 MiB of
/// buffer. A larger instruction result (or [`eval_op`] result) is refused with
/// [`InterpError::TensorTooLarge`] before it is computed, so that random or hostile shapes
/// cannot exhaust memory.
pub const TENSOR_ELEMENT_LIMIT: usize = 1 << 24;

/// Default loop fuel of one run: at most 1,000,000 loop iterations in all (`while` body runs
/// plus `scan` steps, nested loops included). Running out is [`InterpError::OutOfFuel`];
/// without it a non-terminating `while` would hang the caller. Change it with
/// [`Interpreter::with_while_fuel`].
pub const WHILE_FUEL: u64 = 1_000_000;

/// Default limit on the nesting of calls and region executions (each call and each entry
/// into a `cond`/`while`/`scan` region counts one level): 128. The interpreter recurses on
/// the native stack, about 6 KiB per level in debug builds and 1.5 KiB in release builds
/// (measured), so 128 levels stay well inside the 2 MiB of a test thread; deeper nesting
/// would overflow it. Hitting the limit is [`InterpError::DepthLimit`]. Change it with
/// [`Interpreter::with_call_depth_limit`].
pub const CALL_DEPTH_LIMIT: usize = 128;

/// A native implementation of an extern: receives the call's arguments and its annotated
/// result type, returns a value of that type or a message.
pub type ExternFn = Arc<dyn Fn(&[Value], &Type) -> Result<Value, String> + Send + Sync>;

/// Runs functions of one program.
///
/// Each [`run`](Interpreter::run) starts a fresh random stream from the seed, so the same
/// run on the same inputs always gives the same outputs.
///
/// ```
/// use ptir_ir::{BinaryOp, DType, Function, Instruction, Interpreter, Op, Param, Program};
/// use ptir_ir::{Region, Tensor, TensorType, Type, Value, ValueId};
///
/// // func @double(%0: f32[2]) -> (f32[2]) { %1 = add %0, %0 : f32[2]; return %1 }
/// let ty: Type = TensorType::new(DType::F32, vec![2]).into();
/// let body = Region {
///     params: vec![Param { id: ValueId(0), ty: ty.clone() }],
///     insts: vec![Instruction {
///         result: ValueId(1),
///         ty: ty.clone(),
///         op: Op::Binary(BinaryOp::Add),
///         operands: vec![ValueId(0), ValueId(0)],
///     }],
///     results: vec![ValueId(1)],
/// };
/// let f = Function { name: "double".into(), result_types: vec![ty.clone()], body };
/// let program = Program { externs: vec![], functions: vec![f] };
///
/// let x = Tensor::from_f64(TensorType::new(DType::F32, vec![2]), &[1.5, -2.0]);
/// let out = Interpreter::new(&program).with_seed(7).run("double", &[x.into()]).unwrap();
/// assert_eq!(out[0].to_string(), "f32[2] [3.0, -4.0]");
/// ```
#[derive(Clone)]
pub struct Interpreter<'p> {
    program: &'p Program,
    functions: FxHashMap<&'p str, &'p Function>,
    externs: FxHashMap<String, ExternFn>,
    seed: u64,
    while_fuel: u64,
    depth_limit: usize,
}

impl fmt::Debug for Interpreter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut externs: Vec<&String> = self.externs.keys().collect();
        externs.sort();
        f.debug_struct("Interpreter")
            .field("functions", &self.functions.len())
            .field("externs", &externs)
            .field("seed", &self.seed)
            .field("while_fuel", &self.while_fuel)
            .field("depth_limit", &self.depth_limit)
            .finish()
    }
}

impl<'p> Interpreter<'p> {
    /// An interpreter for `program`, with seed 0, no extern implementations, [`WHILE_FUEL`]
    /// and [`CALL_DEPTH_LIMIT`].
    pub fn new(program: &'p Program) -> Self {
        // The first definition wins, should a malformed program define a name twice.
        let mut functions = FxHashMap::default();
        for f in &program.functions {
            functions.entry(f.name.as_str()).or_insert(f);
        }
        Interpreter {
            program,
            functions,
            externs: FxHashMap::default(),
            seed: 0,
            while_fuel: WHILE_FUEL,
            depth_limit: CALL_DEPTH_LIMIT,
        }
    }

    /// Seeds the random stream of `rng` (default 0).
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Registers the implementation of the extern `name` (replacing any earlier one). Calls
    /// of a declared extern without an implementation fail with [`InterpError::MissingExtern`].
    pub fn with_extern(
        mut self,
        name: impl Into<String>,
        f: impl Fn(&[Value], &Type) -> Result<Value, String> + Send + Sync + 'static,
    ) -> Self {
        self.externs.insert(name.into(), Arc::new(f));
        self
    }

    /// Registers an already shared extern implementation.
    pub fn with_extern_fn(mut self, name: impl Into<String>, f: ExternFn) -> Self {
        self.externs.insert(name.into(), f);
        self
    }

    /// Sets the loop fuel of each run (default [`WHILE_FUEL`]).
    pub fn with_while_fuel(mut self, fuel: u64) -> Self {
        self.while_fuel = fuel;
        self
    }

    /// Sets the nesting limit of calls and regions (default [`CALL_DEPTH_LIMIT`]). Raising it
    /// far above the default risks overflowing the native stack.
    pub fn with_call_depth_limit(mut self, limit: usize) -> Self {
        self.depth_limit = limit;
        self
    }

    /// The program being run.
    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// Runs the function `name` on `args` and returns its results.
    ///
    /// The arguments must have exactly the parameter types and be well formed
    /// ([`check_value`]); otherwise the run fails before it starts.
    pub fn run(&self, name: &str, args: &[Value]) -> Result<Vec<Value>, InterpError> {
        self.run_watching(name, args, false)
            .map(|(results, _)| results)
    }

    /// [`Interpreter::run`], also saying whether any instruction of the run (in any called
    /// function or region) computed a NaN, even one no result shows: fast-math assumes no NaN
    /// arises, so a run that computes one says nothing about a fast-math rewrite of it.
    ///
    /// ```
    /// use ptir_ir::{DType, Interpreter, Tensor, TensorType};
    /// let program = ptir_ir::parse("func @f(%x: f32[]) -> (i32[]) {
    ///   %d = div %x, %x : f32[]
    ///   %i = cast %d : i32[]
    ///   return %i
    /// }").unwrap();
    /// let zero = Tensor::from_f64(TensorType::new(DType::F32, vec![]), &[0.0]);
    /// let interpreter = Interpreter::new(&program);
    /// let (_, nan) = interpreter.run_noting_nan("f", &[zero.into()]).unwrap();
    /// assert!(nan); // 0 / 0, though the integer result shows no NaN
    /// let one = Tensor::from_f64(TensorType::new(DType::F32, vec![]), &[1.0]);
    /// assert!(!interpreter.run_noting_nan("f", &[one.into()]).unwrap().1);
    /// ```
    pub fn run_noting_nan(
        &self,
        name: &str,
        args: &[Value],
    ) -> Result<(Vec<Value>, bool), InterpError> {
        self.run_watching(name, args, true)
    }

    /// Runs `name` on `args`; with `watch_nan`, also says whether the run computed a NaN
    /// (without, the answer is `false` and no value is scanned).
    fn run_watching(
        &self,
        name: &str,
        args: &[Value],
        watch_nan: bool,
    ) -> Result<(Vec<Value>, bool), InterpError> {
        let f = self.function(name)?;
        check_args(f, args)?;
        let mut machine = Machine::new(self);
        machine.nan_seen = watch_nan.then_some(false);
        let results = machine.call(f, args.to_vec())?;
        Ok((results, machine.nan_seen == Some(true)))
    }

    fn function(&self, name: &str) -> InterpResult<&'p Function> {
        self.functions
            .get(name)
            .copied()
            .ok_or_else(|| InterpError::UnknownFunction(name.to_string()))
    }
}

fn check_args(f: &Function, args: &[Value]) -> InterpResult<()> {
    if args.len() != f.body.params.len() {
        return Err(InterpError::ArgumentCount {
            function: f.name.clone(),
            expected: f.body.params.len(),
            found: args.len(),
        });
    }
    for (index, (p, a)) in f.body.params.iter().zip(args).enumerate() {
        check_param_size(f, index)?;
        let found = value_type(a);
        if found != p.ty {
            return Err(InterpError::ArgumentType {
                function: f.name.clone(),
                index,
                expected: p.ty.clone(),
                found,
            });
        }
        check_value(a)?;
    }
    Ok(())
}

/// Refuses parameter `index` of `f` if a value of its type is above [`TENSOR_ELEMENT_LIMIT`]
/// (checked on the type, before any value of it is built).
pub(crate) fn check_param_size(f: &Function, index: usize) -> InterpResult<()> {
    let Some(p) = f.body.params.get(index) else {
        return Ok(());
    };
    check_size(&p.ty).map_err(|cause| InterpError::Argument {
        function: f.name.clone(),
        index,
        cause: Box::new(cause),
    })
}

/// Runs `function` of `program` on `args` with the default settings (seed 0, no externs).
///
/// ```
/// # use ptir_ir::Program;
/// let err = ptir_ir::run(&Program::default(), "main", &[]).unwrap_err();
/// assert_eq!(err.to_string(), "no function @main");
/// ```
pub fn run(program: &Program, function: &str, args: &[Value]) -> InterpResult<Vec<Value>> {
    Interpreter::new(program).run(function, args)
}
