//! Text in, text out: one program given as PTIR or StableHLO text, optimized and printed back
//! in the format it came in. The call a binding makes (the Python package's
//! `ptir.optimize`), where the command line reads files and prints reports itself.

use crate::format::{self, Format, FormatError, ReadOptions, WriteOptions};
use crate::{Error, Options, Report};

/// How [`optimize_text`] reads and writes the text.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextOptions {
    /// The format of the text (default: [`Format::sniff`] decides).
    pub format: Option<Format>,
    /// How MLIR is read (opaque ops, inlining JAX's helper functions).
    pub read: ReadOptions,
    /// MLIR: emit fused calls as `stablehlo.custom_call` instead of private functions with
    /// their bodies.
    pub custom_calls: bool,
}

/// What [`optimize_text`] returns.
#[derive(Clone, Debug)]
pub struct OptimizedText {
    /// The optimized program, printed in [`OptimizedText::format`].
    pub text: String,
    /// The format of the input and of [`OptimizedText::text`].
    pub format: Format,
    /// What happened.
    pub report: Report,
}

/// Why [`optimize_text`] failed.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    /// The text does not parse, import or verify (located `LINE:COL: message` where it can
    /// be).
    #[error("{0}")]
    Read(FormatError),
    /// The text parsed, but defines no function (empty, or comments only).
    #[error("the text defines no function (is it empty?)")]
    Empty,
    /// The optimizer failed (rules, options, validation).
    #[error(transparent)]
    Optimize(#[from] Error),
    /// The optimized program cannot be printed in the input's format.
    #[error("{0}")]
    Write(FormatError),
}

/// Reads `text` (PTIR or StableHLO MLIR), optimizes it with `options` and prints the result in
/// the same format, with the input's value names where the program did not change.
///
/// ```
/// use ptir::text::{optimize_text, TextOptions};
/// let mlir = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.multiply %a, %a : tensor<4xf32>\n  %1 = stablehlo.multiply %a, %a : tensor<4xf32>\n  %2 = stablehlo.add %0, %1 : tensor<4xf32>\n  return %2 : tensor<4xf32>\n}";
/// let out = optimize_text(mlir, &ptir::Options::default(), &TextOptions::default())?;
/// assert_eq!(out.format, ptir::format::Format::Mlir);
/// assert_eq!(out.text.matches("stablehlo.multiply").count(), 1);
/// assert_eq!(out.report.instructions.after, 2);
/// let err = optimize_text("func @f() -> () {\n  %1 = frob : f32[]\n}", &ptir::Options::default(), &TextOptions::default()).unwrap_err();
/// assert_eq!(err.to_string(), "2:8: unknown op `frob`");
/// # Ok::<(), ptir::text::TextError>(())
/// ```
pub fn optimize_text(
    text: &str,
    options: &Options,
    io: &TextOptions,
) -> Result<OptimizedText, TextError> {
    let (program, source, format) = read_text(text, io)?;
    let out = crate::optimize_verified(program, options)?;
    let write = WriteOptions {
        custom_calls: io.custom_calls,
        source: Some(&source),
    };
    let text = format::write_program(&out.program, format, &write).map_err(TextError::Write)?;
    Ok(OptimizedText {
        text,
        format,
        report: out.report,
    })
}

/// Reads and verifies `text` as [`optimize_text`] does (its format from `io`, else sniffed),
/// refusing a text that defines no function; returns the program, what the text says beyond
/// it, and the format.
///
/// ```
/// use ptir::text::{read_text, TextError, TextOptions};
/// let (p, _, format) = read_text("func @f(%x: f32[2]) -> (f32[2]) {\n  return %x\n}", &TextOptions::default())?;
/// assert_eq!((p.program().functions.len(), format), (1, ptir::format::Format::Ptir));
/// assert!(matches!(read_text("// nothing", &TextOptions::default()), Err(TextError::Empty)));
/// # Ok::<(), TextError>(())
/// ```
pub fn read_text(
    text: &str,
    io: &TextOptions,
) -> Result<(format::Verified, format::SourceInfo, Format), TextError> {
    let format = io.format.unwrap_or_else(|| Format::sniff(text));
    let (program, source) =
        format::read_verified(text, format, &io.read).map_err(TextError::Read)?;
    if program.program().functions.is_empty() {
        return Err(TextError::Empty);
    }
    Ok((program, source, format))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptir_text_comes_back_as_ptir_and_empty_text_is_refused() {
        let ptir = "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = neg %x : f32[4]\n  %b = neg %a : f32[4]\n  return %b\n}";
        let out = optimize_text(ptir, &Options::default(), &TextOptions::default()).unwrap();
        assert_eq!(out.format, Format::Ptir);
        assert_eq!(
            out.text,
            "func @f(%0: f32[4]) -> (f32[4]) {\n  return %0\n}\n"
        );
        let err = optimize_text("// nothing\n", &Options::default(), &TextOptions::default())
            .unwrap_err();
        assert!(matches!(err, TextError::Empty), "{err}");
    }

    #[test]
    fn mlir_errors_are_located() {
        let mlir = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.fft %a : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}";
        let err = optimize_text(mlir, &Options::default(), &TextOptions::default()).unwrap_err();
        assert!(err.to_string().starts_with("2:"), "{err}");
    }
}
