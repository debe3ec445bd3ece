//! Running programs: an interpreter with every extern the project knows how to run.

use crate::ir;
use ptir_ir::{Interpreter, Program, Value};

/// An interpreter for `program` with every extern this project knows how to run: the fused
/// library ops that rules raise idioms to (`@softmax_fused`, `@linear`, ..., computed exactly as
/// their idioms; also under the reserved names they take in programs with functions of those
/// names, `@ptir.linear`), the random generator's test externs (`@gen_pure`, `@gen_impure`) and
/// `@log_event` (returns its argument; the corpus uses it as an impure side effect).
///
/// ```
/// let p = ptir::ir::parse("extern @log_event(f32[]) -> (f32[]) impure\n\
///     func @f(%x: f32[]) -> (f32[]) {\n  %y = call @log_event(%x) : f32[]\n  return %y\n}").unwrap();
/// let x = ptir::ir::Tensor::from_f64(ptir::ir::TensorType::scalar(ptir::ir::DType::F32), &[2.5]);
/// let out = ptir::interpreter(&p).run("f", &[x.clone().into()]).unwrap();
/// assert_eq!(out, vec![x.into()]);
/// ```
pub fn interpreter(program: &Program) -> Interpreter<'_> {
    let mut interp = Interpreter::new(program);
    for (name, f) in ptir_rules::externs::interpreter_externs() {
        interp = interp.with_extern_fn(name, f);
    }
    for e in &program.externs {
        let name = e.name.clone();
        if let Some(f) = ptir_rules::externs::reference_fn(&name) {
            // A rule extern renamed away from the program's own names (`@ptir.linear`).
            interp = interp.with_extern_fn(name, f);
        } else if name == "log_event" {
            interp = interp.with_extern(name, |args: &[Value], _| {
                args.first()
                    .cloned()
                    .ok_or_else(|| "@log_event takes one argument".to_string())
            });
        } else if [
            ir::generate::GEN_PURE_EXTERN,
            ir::generate::GEN_IMPURE_EXTERN,
        ]
        .contains(&name.as_str())
        {
            interp = interp.with_extern(name.clone(), move |args: &[Value], _| {
                ir::generate::extern_reference(&name, args)
                    .map(Value::pack)
                    .ok_or_else(|| format!("@{name}: bad arguments"))
            });
        }
    }
    interp
}
