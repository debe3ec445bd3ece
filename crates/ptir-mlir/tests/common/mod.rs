//! What the op tests of this crate share: tensors from numbers, and the import, round trip
//! and run of a module.

// Each test binary uses some of these.
#![allow(dead_code)]

use ptir_ir::{DType, Interpreter, Program, Tensor, TensorType, Value};

/// A tensor value of dtype `d` from real numbers.
pub fn t(d: DType, shape: &[usize], xs: &[f64]) -> Value {
    Value::Tensor(Tensor::from_f64(TensorType::new(d, shape.to_vec()), xs))
}

/// Imports `src`, checks that export and import give it back, runs `@main` on `inputs`:
/// the program and the results as the interpreter prints them.
pub fn run(src: &str, inputs: &[Value]) -> (Program, String) {
    let p = ptir_mlir::import(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{e}"));
    let back = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
    assert_eq!(
        ptir_mlir::import(&back).as_ref(),
        Ok(&p),
        "round trip of\n{back}"
    );
    let out = Interpreter::new(&p).run("main", inputs).unwrap();
    let text = out.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    (p, text.join("; "))
}

/// The import error of `src` as text (empty if it imports).
pub fn err(src: &str) -> String {
    ptir_mlir::import(src)
        .map(|_| String::new())
        .unwrap_or_else(|e| e.to_string())
}
