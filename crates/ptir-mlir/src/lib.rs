//! StableHLO MLIR in and out of PTIR.
//!
//! [`import`] reads the MLIR text JAX prints (`jax.jit(f).lower(*args).as_text()`: the pretty
//! StableHLO form, and the generic form `--mlir-print-op-generic` prints) into a PTIR
//! [`Program`]; [`export`] prints a program as StableHLO that `iree-compile
//! --iree-input-type=stablehlo` accepts. Every import error is located (`57:10: unsupported
//! op 'stablehlo.fft'`); nothing in the input can make either panic. [`import_with`] also
//! returns a [`SourceInfo`]: the names the text gave values and, with
//! [`ImportOptions::allow_opaque`], the ops it kept as opaque; handed to [`export`]
//! ([`ExportOptions::source`]), names survive and opaque ops print back as they came.
//!
//! ```
//! let mlir = r#"
//! func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<2xf32>) {
//!   %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
//!   %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
//!   return %0 : tensor<2xf32>
//! }"#;
//! let program = ptir_mlir::import(mlir).unwrap();
//! assert!(ptir_ir::print(&program).contains("reduce_sum %0 axes=[1] keep_dims=false : f32[2]"));
//! let back = ptir_mlir::export(&program, &ptir_mlir::ExportOptions::default()).unwrap();
//! assert_eq!(ptir_mlir::import(&back).unwrap(), program);
//! ```
//!
//! Inside: `parse` reads the text into a syntax tree (`ast`), `import` gives it meaning as PTIR,
//! `export` prints PTIR as StableHLO; [`error`] holds the located error type.

mod ast;
pub mod error;
mod export;
mod import;
mod parse;
mod source;

pub use error::{MlirError, Pos, Result};
pub use export::{export, mlir_type, ExportOptions, ExternBody};
pub use parse::NESTING_LIMIT;
use ptir_ir::Program;
pub use source::{FunctionNames, ImportOptions, OpaqueOp, SourceInfo};

/// Reads a StableHLO module (MLIR text) into a PTIR program.
///
/// The program is type-checked op by op as it is built; the caller may still run
/// [`ptir_ir::verify`] (it passes on everything `import` returns).
pub fn import(src: &str) -> Result<Program> {
    import_with(src, &ImportOptions::default()).map(|(program, _)| program)
}

/// [`import`] with options; also returns what the text says beyond the program (value names,
/// opaque ops), for [`ExportOptions::source`].
///
/// ```
/// let mlir = "func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {\n  %y = stablehlo.cholesky %x, lower = true : tensor<4x4xf32>\n  return %y : tensor<4x4xf32>\n}";
/// assert!(ptir_mlir::import(mlir).unwrap_err().to_string().contains("unsupported op 'stablehlo.cholesky'"));
/// let options = ptir_mlir::ImportOptions { allow_opaque: true };
/// let (program, source) = ptir_mlir::import_with(mlir, &options).unwrap();
/// let back = ptir_mlir::export(&program, &ptir_mlir::ExportOptions { source: Some(&source), ..Default::default() }).unwrap();
/// assert!(back.contains("%y = stablehlo.cholesky %x, lower = true : tensor<4x4xf32>"));
/// ```
pub fn import_with(src: &str, options: &ImportOptions) -> Result<(Program, SourceInfo)> {
    let module = parse::parse_module(src)?;
    import::lower_module(&module, src, options)
}
