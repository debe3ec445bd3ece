//! `ptir._ptir`: the native half of the Python package. It binds the library's text calls
//! ([`ptir::text::optimize_text`], [`ptir::compare_cost_models`]) and turns their typed errors
//! into the package's exception classes; `python/ptir/` builds the Python API (`Result`,
//! `jit`) on it.
//!
//! Every call takes plain values (text, names, numbers), builds the library's options from
//! them, and runs with the GIL released. Reports cross as JSON text (`Report::to_json`), which
//! the Python side reads with `json.loads`: one schema for `--report-json` and Python.

use ptir::text::{optimize_text, TextError, TextOptions};
use ptir::{Cost, Engine, Options, Runtime};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use std::time::Duration;

create_exception!(ptir, Error, PyException, "Every error PTIR-opt raises.");
create_exception!(
    ptir,
    ParseError,
    Error,
    "The text does not parse (`line` and `column` say where)."
);
create_exception!(
    ptir,
    UnsupportedOp,
    Error,
    "The text uses an op, type or attribute PTIR-opt does not read (`line`, `column`)."
);
create_exception!(
    ptir,
    VerifyError,
    Error,
    "The text parses but is not a valid program (wrong types, undefined values)."
);
create_exception!(
    ptir,
    RuleError,
    Error,
    "A rule file or rule name is wrong, or a user rule failed its proof."
);
create_exception!(
    ptir,
    LimitError,
    Error,
    "A limit (time, iterations, nodes, unrolling) is not a value a limit can take."
);
create_exception!(
    ptir,
    OptionsError,
    Error,
    "The options ask for something that does not exist or cannot be combined."
);
create_exception!(
    ptir,
    ValidationError,
    Error,
    "Translation validation refused the output: it computes something else."
);

/// The options of one call, the dict `ptir/_api.py` passes with every key set (its keyword
/// arguments and their defaults), checked by [`Call::options`].
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Call {
    engine: String,
    fast_math: bool,
    cost: String,
    runtime: Option<String>,
    rules: Vec<String>,
    bundled_rules: bool,
    enable: Vec<String>,
    disable: Vec<String>,
    time_limit: Option<f64>,
    unroll_limit: Option<i64>,
    iter_limit: Option<i64>,
    node_limit: Option<i64>,
    validate: Option<i64>,
}

/// How the text is read and written (the dict's other keys).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Io {
    format: Option<String>,
    allow_opaque: bool,
    inline_calls: bool,
    custom_calls: bool,
}

impl Io {
    /// The library's text options, or the exception naming a format that does not exist.
    fn text_options(&self) -> PyResult<TextOptions> {
        Ok(TextOptions {
            format: text_format(self.format.as_deref())?,
            read: ptir::format::ReadOptions {
                allow_opaque: self.allow_opaque,
                inline_calls: self.inline_calls,
            },
            custom_calls: self.custom_calls,
        })
    }
}

/// A limit given as a Python number: a count of at least `min`.
fn count(name: &str, value: Option<i64>, min: i64) -> PyResult<Option<usize>> {
    match value {
        None => Ok(None),
        Some(v) if v >= min => usize::try_from(v)
            .map(Some)
            .map_err(|e| LimitError::new_err(format!("{name}={v}: {e}"))),
        Some(v) => Err(LimitError::new_err(format!(
            "{name}={v}: must be at least {min}"
        ))),
    }
}

impl Call {
    /// The library's options, or the exception naming the argument that is wrong.
    fn options(&self) -> PyResult<Options> {
        let engine = Engine::from_name(&self.engine).ok_or_else(|| {
            OptionsError::new_err(format!(
                "engine={:?}: expected \"eqsat\" or \"greedy\"",
                self.engine
            ))
        })?;
        let runtime = match &self.runtime {
            None => Runtime::default(),
            Some(name) => Runtime::from_name(name).ok_or_else(|| {
                let known: Vec<_> = Runtime::ALL.iter().map(|r| r.name()).collect();
                OptionsError::new_err(format!(
                    "runtime={name:?}: expected one of {}",
                    known.join(", ")
                ))
            })?,
        };
        let mut options = Options {
            engine,
            fast_math: self.fast_math,
            cost: Cost::parse(&self.cost).map_err(library_error)?,
            bundled_rules: self.bundled_rules,
            enable: self.enable.clone(),
            disable: self.disable.clone(),
            validate: count("validate", self.validate, 1)?,
            ..Options::default()
        }
        .for_runtime(runtime);
        for r in &self.rules {
            options
                .rule_files
                .extend(ptir::rule_files_in(std::path::Path::new(r)).map_err(library_error)?);
        }
        if let Some(t) = self.time_limit {
            options.limits.time = Duration::try_from_secs_f64(t)
                .map_err(|e| LimitError::new_err(format!("time_limit={t}: {e}")))?;
        }
        if let Some(n) = count("unroll_limit", self.unroll_limit, 0)? {
            options.unroll.max_trips = n;
        }
        options.limits.iterations = count("iter_limit", self.iter_limit, 1)?;
        options.limits.nodes = count("node_limit", self.node_limit, 1)?;
        Ok(options)
    }
}

/// The exception for a library error: its class by kind, its message the CLI's.
fn library_error(e: ptir::Error) -> PyErr {
    let message = e.to_string();
    match e {
        ptir::Error::Rules(_)
        | ptir::Error::Library { .. }
        | ptir::Error::UnsoundRule { .. }
        | ptir::Error::UnknownRule(_)
        | ptir::Error::GreedyRules(_)
        | ptir::Error::Io { .. } => RuleError::new_err(message),
        ptir::Error::Options(_)
        | ptir::Error::Pipeline(_)
        | ptir::Error::Target(_)
        | ptir::Error::Conversion(_) => OptionsError::new_err(message),
        ptir::Error::Verify(_) => VerifyError::new_err(message),
        ptir::Error::Validation(_) => ValidationError::new_err(message),
        _ => Error::new_err(message),
    }
}

/// The exception for a read error, with `line` and `column` set where the text has them.
fn read_error(py: Python<'_>, e: &ptir::format::FormatError) -> PyErr {
    use ptir::format::FormatError;
    use ptir::mlir::MlirError;
    let message = e.to_string().trim_start().to_string();
    let (err, at) = match e {
        FormatError::Ptir(p) => (ParseError::new_err(message), Some((p.line, p.col))),
        FormatError::Mlir(MlirError::Syntax { line, col, .. }) => (
            ParseError::new_err(message),
            Some((*line as usize, *col as usize)),
        ),
        FormatError::Mlir(MlirError::Unsupported { line, col, .. }) => (
            UnsupportedOp::new_err(message),
            Some((*line as usize, *col as usize)),
        ),
        FormatError::Mlir(MlirError::Invalid { line, col, .. }) => (
            VerifyError::new_err(message),
            Some((*line as usize, *col as usize)),
        ),
        FormatError::Mlir(MlirError::Export { .. }) => (Error::new_err(message), None),
        FormatError::Verify(_) => (VerifyError::new_err(message), None),
    };
    located(py, err, at)
}

/// `err` with its `line` and `column` attributes set (None where the error has no place).
fn located(py: Python<'_>, err: PyErr, at: Option<(usize, usize)>) -> PyErr {
    let value = err.value(py);
    let (line, column) = at.unzip();
    // Setting an attribute on a fresh exception object cannot fail.
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    err
}

/// The exception for a failed [`optimize_text`].
fn text_error(py: Python<'_>, e: TextError) -> PyErr {
    match e {
        TextError::Read(f) => read_error(py, &f),
        TextError::Empty => located(py, ParseError::new_err(e.to_string()), None),
        TextError::Optimize(e) => library_error(e),
        TextError::Write(f) => Error::new_err(format!("writing the output: {f}")),
    }
}

/// Optimizes a PTIR or StableHLO text with the options of the dict `options` (every key of
/// [`Call`] and [`Io`]); returns `(text, format, report_json, report_text)`.
#[pyfunction]
fn optimize(
    py: Python<'_>,
    text: String,
    options: &Bound<'_, pyo3::types::PyDict>,
) -> PyResult<(String, String, String, String)> {
    let call: Call = options.extract()?;
    let io: Io = options.extract()?;
    let options = call.options()?;
    let io = io.text_options()?;
    let result = py.detach(move || optimize_text(&text, &options, &io));
    let out = result.map_err(|e| text_error(py, e))?;
    let format = match out.format {
        ptir::format::Format::Mlir => "mlir",
        ptir::format::Format::Ptir => "ptir",
    };
    Ok((
        out.text,
        format.to_string(),
        out.report.to_json().to_string(),
        out.report.to_string(),
    ))
}

/// `format=`: `"mlir"`, `"ptir"`, or None (sniffed from the text).
fn text_format(name: Option<&str>) -> PyResult<Option<ptir::format::Format>> {
    match name {
        None => Ok(None),
        Some("mlir") => Ok(Some(ptir::format::Format::Mlir)),
        Some("ptir") => Ok(Some(ptir::format::Format::Ptir)),
        Some(other) => Err(OptionsError::new_err(format!(
            "format={other:?}: expected \"mlir\", \"ptir\" or None"
        ))),
    }
}

/// Saturates once and extracts with every (cost model, extractor) pair of `costs` x
/// `extractors`, with the options of the dict `options` (as [`optimize`]'s); returns the
/// table as JSON text and as `ptir-opt compare` prints it.
#[pyfunction]
fn compare_cost_models(
    py: Python<'_>,
    text: String,
    costs: Vec<String>,
    extractors: Vec<String>,
    options: &Bound<'_, pyo3::types::PyDict>,
) -> PyResult<(String, String)> {
    let call: Call = options.extract()?;
    let io: Io = options.extract()?;
    let options = call.options()?;
    let mut pairs = Vec::new();
    for c in &costs {
        let cost = Cost::parse(c).map_err(library_error)?;
        for x in &extractors {
            let kind = ptir::egraph::ExtractorKind::from_name(x).ok_or_else(|| {
                OptionsError::new_err(format!(
                    "extractor {x:?}: expected \"tree\", \"dag-greedy\" or \"exact\""
                ))
            })?;
            pairs.push((cost.clone(), kind));
        }
    }
    if pairs.is_empty() {
        return Err(OptionsError::new_err(
            "no (cost, extractor) pair to compare: give at least one of each",
        ));
    }
    let (program, _, _) =
        ptir::text::read_text(&text, &io.text_options()?).map_err(|e| text_error(py, e))?;
    let program = program.into_program();
    let table = py
        .detach(move || ptir::compare_cost_models(&program, &options, &pairs))
        .map_err(library_error)?;
    Ok((table.to_json().to_string(), table.to_string()))
}

/// The native module.
#[pymodule]
fn _ptir(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(optimize, m)?)?;
    m.add_function(wrap_pyfunction!(compare_cost_models, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("UnsupportedOp", py.get_type::<UnsupportedOp>())?;
    m.add("VerifyError", py.get_type::<VerifyError>())?;
    m.add("RuleError", py.get_type::<RuleError>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    m.add("OptionsError", py.get_type::<OptionsError>())?;
    m.add("ValidationError", py.get_type::<ValidationError>())?;
    Ok(())
}
