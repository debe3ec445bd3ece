//! [`CostTable`]: kernels timed one by one on a real runtime, read from the JSON file
//! `scripts/calibrate.py` writes (format `ptir-cost-table`, version [`COST_TABLE_VERSION`]).
//!
//! The table maps an op signature ([`ptir_ir::op_signature`]: `op attrs : operand types ->
//! result type`) to the minimum wall time of one call of a module computing just that op,
//! and carries the machine parameters fitted to those times. [`super::Roofline::measured`]
//! prices with it. A file that cannot be read, is not JSON, is not a cost table, or was
//! written by another version of the format is refused with its name (and line:column
//! where the JSON is at fault).
//!
//! ```
//! use ptir_cost::CostTable;
//! let text = r#"{"format": "ptir-cost-table", "version": 1,
//!   "machine": {"cpu": "x", "cores": 2, "hostname": "h"}, "call_overhead_us": 2.5,
//!   "fit": {"peak_gflops": 100, "bandwidth_gbs": 50, "kernel_overhead_us": 1},
//!   "ops": [{"signature": "exp : f32[4] -> f32[4]", "op": "exp", "time_us": 3.0}]}"#;
//! let table = CostTable::parse(text, "t.json")?;
//! assert_eq!(table.ops["exp : f32[4] -> f32[4]"], 3.0);
//! let err = CostTable::parse("{\"format\": \"ptir-cost-table\",\n \"version\": }", "t.json").unwrap_err();
//! assert!(err.to_string().starts_with("t.json:2:13: "), "{err}");
//! # Ok::<(), ptir_cost::CostTableError>(())
//! ```

use super::Machine;
use indexmap::IndexMap;
use serde::Deserialize;

/// The version of the cost table format this build reads.
pub const COST_TABLE_VERSION: u64 = 1;

/// The `format` field of a cost table.
const FORMAT: &str = "ptir-cost-table";

/// A cost table that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CostTableError {
    /// The file could not be read.
    #[error("{file}: cannot read the cost table: {source}")]
    Io {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// The text is not JSON, or a field is missing or of the wrong kind.
    #[error("{file}:{line}:{column}: damaged cost table: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The JSON is well formed but is not a usable table.
    #[error("{file}: not a usable cost table: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// Written by another version of the format.
    #[error(
        "{file}: cost table format version {found}, this ptir-opt reads version {expected}: \
         remake it with scripts/calibrate.py"
    )]
    Stale {
        /// The file.
        file: String,
        /// The version the file says.
        found: u64,
        /// [`COST_TABLE_VERSION`].
        expected: u64,
    },
}

/// Where a table was measured.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct TableMachine {
    /// The CPU model.
    #[serde(default)]
    pub cpu: String,
    /// Its cores.
    #[serde(default)]
    pub cores: u64,
    /// The host.
    #[serde(default)]
    pub hostname: String,
}

/// Kernels timed on a real runtime (see the module documentation).
#[derive(Clone, Debug)]
pub struct CostTable {
    /// The file it was read from (for messages).
    pub file: String,
    /// Where it was measured.
    pub machine: TableMachine,
    /// The runtime's cost of calling a function that does nothing, microseconds: included in
    /// every time of [`CostTable::ops`], paid once per program run.
    pub call_overhead_us: f64,
    /// The machine parameters fitted to the times.
    pub fit: Machine,
    /// Op signature to the minimum time of one call of its one-op module, microseconds.
    pub ops: IndexMap<String, f64>,
    /// Per op name, measured / fitted kernel time of each of the op's entries (those with
    /// `flops` and `bytes`), as `(fitted_us, ratio)` sorted by fitted time: how much the fit
    /// under- or overestimates that kind of op at that size (reductions run about 1.5x slower
    /// than the roofline of their bytes; a small matmul further from peak than a large one).
    /// A kernel the table lacks is priced by the fit times [`CostTable::factor`], so that a
    /// signature missing from the table is neither cheaper nor dearer than its measured
    /// neighbours. One global factor per op made the kernels of an unmeasured split (four
    /// small products for one large one) look cheaper than the measured large one.
    pub op_ratios: IndexMap<String, Vec<(f64, f64)>>,
}

impl CostTable {
    /// The correction for a kernel of op `op` the table lacks, whose fitted time is
    /// `fitted_us`: the ratio of the measured entry of the same op whose fitted time is
    /// nearest on a log scale (ties: the smaller), 1 for an op the table never measured.
    ///
    /// ```
    /// let table = ptir_cost::CostTable::parse(r#"{"format": "ptir-cost-table",
    ///   "version": 1, "call_overhead_us": 1.0,
    ///   "fit": {"peak_gflops": 100.0, "bandwidth_gbs": 100.0, "kernel_overhead_us": 0.0},
    ///   "ops": [
    ///     {"signature": "a", "op": "dot_general", "flops": 1e5, "bytes": 0, "time_us": 4.0},
    ///     {"signature": "b", "op": "dot_general", "flops": 1e7, "bytes": 0, "time_us": 101.0}]}"#,
    ///     "t.json").unwrap();
    /// assert_eq!(table.factor("dot_general", 2.0), 3.0); // near the small one: 3 / 1
    /// assert_eq!(table.factor("dot_general", 90.0), 1.0); // near the large one: 100 / 100
    /// assert_eq!(table.factor("exp", 5.0), 1.0);
    /// ```
    pub fn factor(&self, op: &str, fitted_us: f64) -> f64 {
        let Some(ratios) = self.op_ratios.get(op) else {
            return 1.0;
        };
        let distance = |x: f64| (x.max(1e-9).ln() - fitted_us.max(1e-9).ln()).abs();
        let mut best: Option<(f64, f64)> = None;
        for &(x, r) in ratios {
            if !matches!(best, Some((d, _)) if d <= distance(x)) {
                best = Some((distance(x), r));
            }
        }
        best.map_or(1.0, |(_, r)| r)
    }
}

#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    version: Option<u64>,
}

#[derive(Deserialize)]
struct RawTable {
    #[serde(default)]
    machine: TableMachine,
    call_overhead_us: f64,
    fit: RawFit,
    ops: Vec<RawOp>,
}

#[derive(Deserialize)]
struct RawFit {
    peak_gflops: f64,
    bandwidth_gbs: f64,
    kernel_overhead_us: f64,
    /// Measured by `scripts/calibrate.py` from a chain of dispatches; tables that lack it
    /// take the reference machine's.
    #[serde(default)]
    dispatch_overhead_us: Option<f64>,
}

#[derive(Deserialize)]
struct RawOp {
    signature: String,
    time_us: f64,
    #[serde(default)]
    op: Option<String>,
    #[serde(default)]
    flops: Option<f64>,
    #[serde(default)]
    bytes: Option<f64>,
}

impl CostTable {
    /// Reads the table in `path`.
    pub fn read(path: &std::path::Path) -> Result<CostTable, CostTableError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| CostTableError::Io {
            file: file.clone(),
            source,
        })?;
        CostTable::parse(&text, &file)
    }

    /// The table in `text`, read from `file` (for messages).
    pub fn parse(text: &str, file: &str) -> Result<CostTable, CostTableError> {
        let syntax = |e: serde_json::Error| CostTableError::Syntax {
            file: file.to_string(),
            line: e.line(),
            // serde_json counts the column before the first character as 0.
            column: e.column().max(1),
            message: e.to_string(),
        };
        let invalid = |message: String| CostTableError::Invalid {
            file: file.to_string(),
            message,
        };
        // The header first: a table of another version is stale, not damaged.
        let header: Header = serde_json::from_str(text).map_err(syntax)?;
        match header.format.as_deref() {
            Some(FORMAT) => {}
            Some(other) => return Err(invalid(format!("format is `{other}`, not `{FORMAT}`"))),
            None => return Err(invalid(format!("no `format` field (`{FORMAT}`)"))),
        }
        match header.version {
            Some(COST_TABLE_VERSION) => {}
            Some(found) => {
                return Err(CostTableError::Stale {
                    file: file.to_string(),
                    found,
                    expected: COST_TABLE_VERSION,
                })
            }
            None => return Err(invalid("no `version` field".to_string())),
        }
        let raw: RawTable = serde_json::from_str(text).map_err(syntax)?;
        let fit = Machine {
            peak_gflops: raw.fit.peak_gflops,
            bandwidth_gbs: raw.fit.bandwidth_gbs,
            kernel_overhead_us: raw.fit.kernel_overhead_us,
            call_overhead_us: raw.call_overhead_us,
            dispatch_overhead_us: raw
                .fit
                .dispatch_overhead_us
                .unwrap_or(Machine::REFERENCE.dispatch_overhead_us),
        };
        fit.check().map_err(|m| invalid(format!("fit: {m}")))?;
        if !(raw.call_overhead_us.is_finite() && raw.call_overhead_us >= 0.0) {
            return Err(invalid(format!(
                "call_overhead_us must be zero or positive, found {}",
                raw.call_overhead_us
            )));
        }
        let mut ops = IndexMap::with_capacity(raw.ops.len());
        let mut ratios: IndexMap<String, Vec<(f64, f64)>> = IndexMap::new();
        for (i, op) in raw.ops.into_iter().enumerate() {
            if !(op.time_us.is_finite() && op.time_us >= 0.0) {
                return Err(invalid(format!(
                    "ops[{i}] (`{}`): time_us must be zero or positive, found {}",
                    op.signature, op.time_us
                )));
            }
            if let Some(first) = ops.insert(op.signature.clone(), op.time_us) {
                return Err(invalid(format!(
                    "ops[{i}]: `{}` is listed twice ({first} and {} us)",
                    op.signature, op.time_us
                )));
            }
            if let (Some(name), Some(flops), Some(bytes)) = (op.op, op.flops, op.bytes) {
                let work = super::OpWork {
                    flops,
                    bytes,
                    fusion: super::Fusion::Kernel,
                };
                let fitted = fit.kernel_us(&work);
                let measured = op.time_us - raw.call_overhead_us;
                if fitted > 0.0 && measured > 0.0 {
                    ratios
                        .entry(name)
                        .or_default()
                        .push((fitted, measured / fitted));
                }
            }
        }
        let op_ratios = ratios
            .into_iter()
            .map(|(name, mut r)| {
                r.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                (name, r)
            })
            .collect();
        Ok(CostTable {
            file: file.to_string(),
            machine: raw.machine,
            call_overhead_us: raw.call_overhead_us,
            fit,
            ops,
            op_ratios,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CostModel, Roofline};
    use std::sync::Arc;

    const TABLE: &str = r#"{"format": "ptir-cost-table", "version": 1,
 "machine": {"cpu": "test", "cores": 2, "hostname": "h"},
 "call_overhead_us": 2.0,
 "fit": {"peak_gflops": 100, "bandwidth_gbs": 50, "kernel_overhead_us": 1},
 "ops": [
  {"signature": "dot_general lhs_contract=[1] rhs_contract=[0] : f32[4,8], f32[8,16] -> f32[4,16]", "op": "dot_general", "time_us": 9.5}
 ]}"#;

    fn error(text: &str) -> String {
        CostTable::parse(text, "cal.json")
            .map(|_| ())
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn a_measured_kernel_is_priced_at_its_time_and_a_missing_one_is_noted() {
        let table = Arc::new(CostTable::parse(TABLE, "cal.json").expect("reads"));
        let m = Roofline::measured(table);
        let p = ptir_ir::parse(
            "func @f(%a: f32[4,8], %b: f32[8,16], %c: f32[8,32]) -> (f32[4,16], f32[4,32]) {\n  \
             %d = dot_general %a, %b lhs_contract=[1] rhs_contract=[0] : f32[4,16]\n  \
             %e = dot_general %a, %c lhs_contract=[1] rhs_contract=[0] : f32[4,32]\n  \
             return %d, %e\n}",
        )
        .expect("parses");
        let f = &p.functions[0];
        let ty = |i: usize| &f.body.params[i].ty;
        let d = &f.body.insts[0];
        // The table's time less the runtime's call overhead and the run's fixed overhead
        // (paid once per run), plus a dispatch's.
        let dispatch = m.machine.dispatch_overhead_us;
        assert_eq!(dispatch, crate::Machine::REFERENCE.dispatch_overhead_us);
        assert_eq!(m.op_cost(&d.op, &[ty(0), ty(1)], &d.ty), 6.5 + dispatch);
        assert!(m.notes().is_empty());
        let e = &f.body.insts[1];
        let fallback = m.op_cost(&e.op, &[ty(0), ty(2)], &e.ty);
        let fitted = m
            .machine
            .dispatch_us(&crate::op_work(&e.op, &[ty(0), ty(2)], &e.ty));
        assert!(
            (fallback - fitted).abs() < 1e-12,
            "{fallback} against {fitted}"
        );
        assert_eq!(m.machine.peak_gflops, 100.0, "the table's fit");
        let notes = m.notes();
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains("cal.json: 1 kernel signature(s) not in the table"),
            "{notes:?}"
        );
        assert!(notes[0].contains("f32[8,32] -> f32[4,32]"), "{notes:?}");
        assert_eq!(m.name(), "measured");
    }

    #[test]
    fn a_damaged_table_is_refused_at_its_line_and_column() {
        let cut = &TABLE[..TABLE.find("\"call_overhead_us\"").expect("field")];
        let e = error(cut);
        assert!(e.starts_with("cal.json:3:"), "{e}");
        assert!(e.contains("damaged cost table"), "{e}");
        let wrong_kind = TABLE.replace("\"time_us\": 9.5", "\"time_us\": \"fast\"");
        let e = error(&wrong_kind);
        assert!(e.starts_with("cal.json:6:"), "{e}");
    }

    #[test]
    fn a_table_of_another_format_or_version_is_refused_by_name() {
        let e = error(&TABLE.replace("\"version\": 1", "\"version\": 7"));
        assert!(
            e.contains("cal.json: cost table format version 7, this ptir-opt reads version 1"),
            "{e}"
        );
        assert!(e.contains("scripts/calibrate.py"), "{e}");
        let e = error(&TABLE.replace("ptir-cost-table", "egraph"));
        assert!(e.contains("format is `egraph`"), "{e}");
        let e = error("{\"version\": 1}");
        assert!(e.contains("no `format` field"), "{e}");
        let e = error(&TABLE.replace("\"peak_gflops\": 100", "\"peak_gflops\": 0"));
        assert!(e.contains("fit: peak_gflops must be positive"), "{e}");
        let e = error(&TABLE.replace("9.5", "-1"));
        assert!(e.contains("time_us must be zero or positive"), "{e}");
        let twice = TABLE.replace(
            "\"time_us\": 9.5}",
            "\"time_us\": 9.5},\n  {\"signature\": \"dot_general lhs_contract=[1] rhs_contract=[0] : f32[4,8], f32[8,16] -> f32[4,16]\", \"time_us\": 3}",
        );
        assert!(error(&twice).contains("listed twice"), "{}", error(&twice));
        let missing = CostTable::read(std::path::Path::new("/no/such/cal.json"))
            .map(|_| ())
            .expect_err("missing");
        assert!(
            missing
                .to_string()
                .starts_with("/no/such/cal.json: cannot read"),
            "{missing}"
        );
    }
}
