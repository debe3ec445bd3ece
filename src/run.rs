//! Running programs: an interpreter with every extern the project knows how to run, and the
//! text format of input tensors (`ptir-opt run --inputs`).

use crate::ir;
use ptir_ir::{ExternFn, Value};

/// A line of an inputs file that is not a tensor (or is too large to build).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}: {message}")]
pub struct InputsError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads tensors, one per line: `TYPE [elements]` or `TYPE splat(x)`, as results are printed;
/// `//` starts a comment. Each line is checked by the program parser as the literal of a
/// constant, so its errors are the parser's. A tensor above [`ptir_ir::TENSOR_ELEMENT_LIMIT`]
/// elements (a `splat` can be short to write and huge to build) is refused before it is built.
///
/// ```
/// let inputs = ptir::parse_inputs("f32[2] [1.0, 2.5]  // x\ni32[] splat(3)\n").unwrap();
/// assert_eq!(inputs[0].to_string(), "f32[2] [1.0, 2.5]");
/// let err = ptir::parse_inputs("\nf32[100000,100000] splat(0.5)").unwrap_err();
/// assert_eq!(err.line, 2);
/// assert!(err.message.contains("above the limit of 16777216"), "{err}");
/// ```
pub fn parse_inputs(text: &str) -> Result<Vec<Value>, InputsError> {
    let mut values = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("").trim();
        if !line.is_empty() {
            values.push(parse_tensor(line).map_err(|message| InputsError {
                line: i + 1,
                message,
            })?);
        }
    }
    Ok(values)
}

/// One tensor: `TYPE [elements]` or `TYPE splat(x)`.
fn parse_tensor(line: &str) -> Result<Value, String> {
    let (ty, lit) = line.split_once(' ').unwrap_or((line, ""));
    let lit = lit.trim();
    let lit = if lit.starts_with('[') {
        format!("dense({lit})")
    } else {
        lit.to_string()
    };
    let src = format!("func @v() -> ({ty}) {{\n  %0 = constant {lit} : {ty}\n  return %0\n}}");
    let parsed = ir::parse(&src)
        .map_err(|e| format!("expected a tensor like `f32[2] [1.0, 2.0]`: {}", e.message))?;
    let inst = parsed.functions.first().and_then(|f| f.body.insts.first());
    let (
        Some(ir::Instruction {
            op: ir::Op::Constant(lit),
            ty: ty @ ir::Type::Tensor(t),
            ..
        }),
        Ok(()),
    ) = (inst, ir::verify(&parsed))
    else {
        return Err("the tensor does not match its type".into());
    };
    ir::check_size(ty).map_err(|e| e.to_string())?;
    Ok(Value::Tensor(lit.to_tensor(t)))
}

#[doc(inline)]
pub use ptir_rules::externs::interpreter;

/// A caller's implementations of externs, for the interpreter runs of [`crate::diff`] and of
/// translation validation ([`crate::Options::externs`]): what a user raising rule calls
/// (`@my_gelu`) can then be run, and the runs compare it like any other op. Registered after
/// the project's own ([`interpreter`]), so one of the same name replaces it. Cheap to clone.
///
/// ```
/// use ptir::ir::{Tensor, Type, Value};
/// let externs = ptir::ExternImpls::new().with("twice", |args: &[Value], _: &Type| {
///     let x = args.first().and_then(Value::as_tensor).ok_or("one tensor")?;
///     let twice: Vec<f64> = x.to_f64_vec().iter().map(|v| 2.0 * v).collect();
///     Ok(Value::Tensor(Tensor::from_f64(x.ty.clone(), &twice)))
/// });
/// let p = ptir::ir::parse("extern @twice(f32[2]) -> (f32[2]) pure\n\
///     func @f(%x: f32[2]) -> (f32[2]) {\n  %y = call @twice(%x) : f32[2]\n  return %y\n}").unwrap();
/// let x = ptir::parse_inputs("f32[2] [1.5, -2.0]").unwrap();
/// let out = externs.interpreter(&p).run("f", &x).unwrap();
/// assert_eq!(out[0].to_string(), "f32[2] [3.0, -4.0]");
/// ```
#[derive(Clone, Default)]
pub struct ExternImpls {
    impls: indexmap::IndexMap<String, ExternFn>,
}

impl ExternImpls {
    /// No implementations.
    pub fn new() -> Self {
        ExternImpls::default()
    }

    /// Adds (or replaces) the implementation of extern `name`: it gets the call's operands and
    /// result type and returns the result (a [`Value::Tuple`] for several), or why it cannot.
    pub fn with(
        mut self,
        name: impl Into<String>,
        f: impl Fn(&[Value], &ptir_ir::Type) -> Result<Value, String> + Send + Sync + 'static,
    ) -> Self {
        self.impls.insert(name.into(), std::sync::Arc::new(f));
        self
    }

    /// The names implemented, in the order they were added.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.impls.keys().map(String::as_str)
    }

    /// Registers these implementations on `interp`.
    pub fn register<'p>(&self, mut interp: ptir_ir::Interpreter<'p>) -> ptir_ir::Interpreter<'p> {
        for (name, f) in &self.impls {
            interp = interp.with_extern_fn(name.clone(), f.clone());
        }
        interp
    }

    /// [`interpreter`] for `program` with these implementations registered too.
    pub fn interpreter<'p>(&self, program: &'p ptir_ir::Program) -> ptir_ir::Interpreter<'p> {
        self.register(interpreter(program))
    }
}

impl std::fmt::Debug for ExternImpls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.impls.keys()).finish()
    }
}
