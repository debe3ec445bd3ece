//! Program formats in and out: PTIR text (`.ptir`) and StableHLO MLIR text (`.mlir`).
//!
//! [`read_program`] parses and verifies a program in either format ([`read_verified`] keeps
//! it as [`Verified`], which the optimizer takes without verifying it again); [`write_program`] prints
//! one, MLIR with the fused externs the rules introduce emitted as private functions with
//! their defining bodies ([`ptir_rules::externs::idiom_program`]) so the output is
//! self-contained, or as `stablehlo.custom_call`s when asked. [`read_source`] also returns
//! what an MLIR text says beyond the program ([`SourceInfo`]: value names, opaque ops with
//! `allow_opaque`); given back to [`write_program`] ([`WriteOptions::source`]), names survive
//! where the program did not change and opaque ops print as they came.
//!
//! ```
//! use ptir::format::{read_program, write_program, Format, WriteOptions};
//! let mlir = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.add %a, %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}";
//! let p = read_program(mlir, Format::Mlir)?;
//! assert_eq!(write_program(&p, Format::Ptir, &WriteOptions::default())?,
//!     "func @main(%0: f32[4]) -> (f32[4]) {\n  %1 = add %0, %0 : f32[4]\n  return %1\n}\n");
//! # Ok::<(), ptir::format::FormatError>(())
//! ```

use ptir_ir::Program;
pub use ptir_mlir::SourceInfo;
use std::path::Path;

/// A program text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PTIR text.
    Ptir,
    /// StableHLO MLIR text.
    Mlir,
}

impl Format {
    /// The format a file name implies (`.mlir` is MLIR, anything else PTIR).
    pub fn of_path(path: &Path) -> Format {
        if path.extension().is_some_and(|e| e == "mlir") {
            Format::Mlir
        } else {
            Format::Ptir
        }
    }

    /// The format `text` is in: MLIR if it starts, past blank lines and comments, like an MLIR
    /// module or function (`module`, `func.func`, or their generic forms), else PTIR.
    ///
    /// ```
    /// use ptir::format::Format;
    /// assert_eq!(Format::sniff("// JAX\nmodule @jit_f {\n}"), Format::Mlir);
    /// assert_eq!(Format::sniff("func @f() -> () {\n  return\n}"), Format::Ptir);
    /// ```
    pub fn sniff(text: &str) -> Format {
        let first = text
            .lines()
            .map(str::trim_start)
            .find(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('#'));
        let mlir = first.is_some_and(|l| {
            ["module", "func.func", "\"func.func\"", "\"builtin.module\""]
                .iter()
                .any(|k| l.starts_with(k))
        });
        if mlir {
            Format::Mlir
        } else {
            Format::Ptir
        }
    }
}

/// Why a program could not be read or written. Display is `LINE:COL: message` for located
/// errors (the caller prefixes the file name).
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// PTIR text that does not parse.
    #[error("{0}")]
    Ptir(#[from] ptir_ir::ParseError),
    /// MLIR text that does not import, or a program that does not export.
    #[error("{0}")]
    Mlir(#[from] ptir_mlir::MlirError),
    /// A program that does not verify.
    #[error(" the program does not verify:\n{0}")]
    Verify(#[from] ptir_ir::VerifyError),
}

/// How to read a program.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOptions {
    /// MLIR: an op the importer does not support becomes an opaque op (an impure extern call
    /// the optimizer leaves as it is, printed back as it came) instead of an error.
    pub allow_opaque: bool,
    /// MLIR: inline the calls of the module's own functions ([`ptir_pass::transform::inline_calls`]): JAX
    /// wraps helpers in private functions (`@_var`, `@tril`) that no rule can match across.
    /// Off by default: in IREE it made a bf16 layernorm slower (the mean, shared by CSE across
    /// the inlined `@_var`, fuses worse), and no model of the zoo faster.
    pub inline_calls: bool,
}

/// How to write a program.
#[derive(Clone, Copy, Debug, Default)]
pub struct WriteOptions<'a> {
    /// MLIR: emit extern calls as `stablehlo.custom_call` instead of inlining their bodies as
    /// private functions.
    pub custom_calls: bool,
    /// MLIR: the value names and opaque ops of the text the program was read from.
    pub source: Option<&'a SourceInfo>,
}

/// Parses `text` in `format` and verifies it.
pub fn read_program(text: &str, format: Format) -> Result<Program, FormatError> {
    read_source(text, format, &ReadOptions::default()).map(|(program, _)| program)
}

/// Parses `text` in `format` and verifies it; also returns what the text says beyond the
/// program (empty for PTIR, whose value names are the program's own numbers).
pub fn read_source(
    text: &str,
    format: Format,
    options: &ReadOptions,
) -> Result<(Program, SourceInfo), FormatError> {
    read_verified(text, format, options).map(|(program, source)| (program.into_program(), source))
}

/// [`read_source`], the program kept as [`Verified`], which [`crate::optimize_verified`]
/// takes without verifying it again.
///
/// ```
/// use ptir::format::{read_verified, Format, ReadOptions};
/// let (p, _) = read_verified("func @f(%x: f32[2]) -> (f32[2]) {\n  return %x\n}", Format::Ptir, &ReadOptions::default())?;
/// assert_eq!(p.program().functions[0].name, "f");
/// let err = read_verified("func @f(%x: f32[2]) -> (f32[3]) {\n  return %x\n}", Format::Ptir, &ReadOptions::default()).unwrap_err();
/// assert!(err.to_string().contains("does not verify"), "{err}");
/// # Ok::<(), ptir::format::FormatError>(())
/// ```
pub fn read_verified(
    text: &str,
    format: Format,
    options: &ReadOptions,
) -> Result<(Verified, SourceInfo), FormatError> {
    let (program, source) = match format {
        Format::Ptir => (ptir_ir::parse(text)?, SourceInfo::default()),
        Format::Mlir => {
            let options = ptir_mlir::ImportOptions {
                allow_opaque: options.allow_opaque,
            };
            ptir_mlir::import_with(text, &options)?
        }
    };
    let program = Verified::new(program)?;
    if format == Format::Mlir && options.inline_calls {
        // Inlining a verified program's calls keeps it verified.
        let inlined = ptir_pass::transform::inline_calls(program.program()).0;
        return Ok((Verified(inlined), source));
    }
    Ok((program, source))
}

/// A program that verified where it was read: the optimizer's way in
/// ([`crate::optimize_verified`]) does not verify it again.
///
/// ```
/// use ptir::format::Verified;
/// let p = ptir::ir::parse("func @f(%x: f32[2]) -> (f32[2]) {\n  return %x\n}")?;
/// let verified = Verified::new(p.clone())?;
/// assert_eq!(verified.program(), &p);
/// let broken = ptir::ir::parse("func @f(%x: f32[2]) -> (f32[3]) {\n  return %x\n}")?;
/// assert!(Verified::new(broken).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Verified(Program);

impl Verified {
    /// `program`, once it verifies.
    pub fn new(program: Program) -> Result<Self, ptir_ir::VerifyError> {
        ptir_ir::verify(&program)?;
        Ok(Verified(program))
    }

    /// The program.
    pub fn program(&self) -> &Program {
        &self.0
    }

    /// The program, to change (it may then no longer verify).
    pub fn into_program(self) -> Program {
        self.0
    }
}

/// Prints `program` in `format`.
pub fn write_program(
    program: &Program,
    format: Format,
    options: &WriteOptions,
) -> Result<String, FormatError> {
    match format {
        Format::Ptir => Ok(ptir_ir::print(program)),
        Format::Mlir => {
            let body =
                |name: &str, args: &[ptir_ir::Type]| ptir_rules::externs::idiom_program(name, args);
            let options = ptir_mlir::ExportOptions {
                custom_calls: options.custom_calls,
                extern_body: Some(&body),
                source: options.source,
            };
            Ok(ptir_mlir::export(program, &options)?)
        }
    }
}
