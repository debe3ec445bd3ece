//! Differential testing: the greedy driver and equality saturation on the same program and
//! rules, checked against each other by the interpreter and the cost model.
//!
//! Both outputs must verify; the input and both outputs, run on the same seeded random inputs,
//! must give the same results (bit-exact — NaN equals NaN, `-0.0` differs from `0.0` — or,
//! with `fast-math` rules, within [`FAST_MATH_TOLERANCE`]); and saturation's output must cost
//! no more than greedy's under the chosen model.

use crate::optimize::optimize;
use crate::options::{Engine, Options};
use crate::run::interpreter;
use crate::Error;
use ptir_ir::{generate::random_inputs, Program, Value};
use rayon::prelude::*;
use std::fmt;

/// Relative tolerance of results when `fast-math` rules are on (plus the same absolute
/// tolerance scaled by the largest magnitude of the reference tensor).
pub const FAST_MATH_TOLERANCE: f64 = 1e-3;

/// Random input sets per program in [`diff`].
pub const DIFF_TRIALS: usize = 8;

/// Loop fuel of each interpreter run in [`diff`]: generated loops run a few iterations, and
/// a generated helper that never returns should fail fast (the input program failing on an
/// input skips that input; see [`DiffReport::skipped`]).
pub const DIFF_WHILE_FUEL: u64 = 20_000;

/// One disagreement.
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// An engine failed (error message).
    Failed {
        /// The engine.
        engine: String,
        /// Its error.
        message: String,
    },
    /// Results differ on an input set.
    Results {
        /// The engine whose output differs from the input program.
        engine: String,
        /// The seed of the input set (inputs are `random_inputs(function, seed)`).
        seed: u64,
        /// The inputs.
        inputs: Vec<Value>,
        /// What the input program computes.
        expected: Vec<Value>,
        /// What the engine's output computes.
        got: Vec<Value>,
    },
    /// Saturation's output costs more than greedy's.
    Cost {
        /// Greedy's cost.
        greedy: f64,
        /// Saturation's cost.
        saturation: f64,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Failed { engine, message } => write!(f, "{engine} failed: {message}"),
            Mismatch::Results {
                engine,
                seed,
                inputs,
                expected,
                got,
            } => {
                writeln!(f, "{engine} output differs on input seed {seed}:")?;
                for (i, v) in inputs.iter().enumerate() {
                    writeln!(f, "  input {i}: {v}")?;
                }
                for (i, (e, g)) in expected.iter().zip(got).enumerate() {
                    writeln!(f, "  result {i}: expected {e}\n            got      {g}")?;
                }
                Ok(())
            }
            Mismatch::Cost { greedy, saturation } => {
                write!(f, "saturation costs {saturation} > greedy {greedy}")
            }
        }
    }
}

/// What [`diff`] found on one program.
#[derive(Clone, Debug)]
pub struct DiffReport {
    /// Instructions in the input.
    pub insts: usize,
    /// The cost model's name.
    pub cost_model: String,
    /// Input, greedy and saturation costs.
    pub costs: (f64, f64, f64),
    /// Rules that fired in greedy and saturation.
    pub rules_fired: (Vec<String>, Vec<String>),
    /// Disagreements (empty: the engines agree).
    pub mismatches: Vec<Mismatch>,
    /// Input sets compared.
    pub trials: usize,
    /// (function, input set) runs skipped because the input program itself fails on them
    /// (division by zero, a call that never returns, a tensor over the limit): they say
    /// nothing about the engines and are not mismatches.
    pub skipped: usize,
}

impl DiffReport {
    /// Did the engines agree?
    pub fn ok(&self) -> bool {
        self.mismatches.is_empty()
    }
}

impl fmt::Display for DiffReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (i, g, s) = self.costs;
        writeln!(
            f,
            "{} instructions, {} trials ({} runs skipped: the input fails), cost ({}): input {i}, greedy {g}, eqsat {s}",
            self.insts, self.trials, self.skipped, self.cost_model
        )?;
        for m in &self.mismatches {
            writeln!(f, "MISMATCH: {m}")?;
            writeln!(
                f,
                "  rules fired (greedy): {}",
                self.rules_fired.0.join(", ")
            )?;
            writeln!(
                f,
                "  rules fired (eqsat): {}",
                self.rules_fired.1.join(", ")
            )?;
        }
        Ok(())
    }
}

/// Do two results agree: bit-exact, or within the fast-math tolerance?
fn same(a: &Value, b: &Value, fast_math: bool) -> bool {
    match (a, b) {
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q, fast_math))
        }
        (Value::Tensor(x), Value::Tensor(y)) if fast_math && x.ty == y.ty => {
            let (xs, ys) = (x.to_f64_vec(), y.to_f64_vec());
            let scale = xs
                .iter()
                .filter(|v| v.is_finite())
                .fold(1.0f64, |m, v| m.max(v.abs()));
            xs.iter().zip(&ys).all(|(p, q)| {
                p.to_bits() == q.to_bits()
                    || (p - q).abs() <= FAST_MATH_TOLERANCE * scale
                    || !p.is_finite()
            })
        }
        _ => a == b,
    }
}

/// Runs greedy and saturation on `program` and compares them (see the module docs).
///
/// ```
/// let program = ptir::ir::parse(&std::fs::read_to_string("corpus/softmax.ptir")?)?;
/// let report = ptir::diff(&program, &ptir::Options::default())?;
/// assert!(report.ok(), "{report}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn diff(program: &Program, options: &Options) -> Result<DiffReport, Error> {
    ptir_ir::verify(program)?;
    let run_engine = |engine| {
        optimize(
            program,
            &Options {
                engine,
                ..options.clone()
            },
        )
    };
    let (greedy, sat) = (run_engine(Engine::Greedy), run_engine(Engine::Saturation));
    let mut report = DiffReport {
        insts: program.num_insts(),
        cost_model: String::new(),
        costs: (0.0, 0.0, 0.0),
        rules_fired: (Vec::new(), Vec::new()),
        mismatches: Vec::new(),
        trials: DIFF_TRIALS,
        skipped: 0,
    };
    let mut outputs = Vec::new();
    for (name, result) in [("greedy", greedy), ("eqsat", sat)] {
        match result {
            Ok(o) => outputs.push((name, o)),
            Err(e) => report.mismatches.push(Mismatch::Failed {
                engine: name.into(),
                message: e.to_string(),
            }),
        }
    }
    if let [(_, g), (_, s)] = &outputs[..] {
        report.cost_model = g.report.cost_model.clone();
        report.costs = (
            g.report.cost_before,
            g.report.cost_after,
            s.report.cost_after,
        );
        report.rules_fired = (names(&g.report.rules_fired), names(&s.report.rules_fired));
        if s.report.cost_after > g.report.cost_after * (1.0 + 1e-9) {
            report.mismatches.push(Mismatch::Cost {
                greedy: g.report.cost_after,
                saturation: s.report.cost_after,
            });
        }
    }
    for seed in 0..DIFF_TRIALS as u64 {
        compare_runs(program, &outputs, seed, options.fast_math, &mut report);
    }
    Ok(report)
}

fn names(fired: &[(String, usize)]) -> Vec<String> {
    fired.iter().map(|(r, _)| r.clone()).collect()
}

/// Runs every function of the input and of each output on input set `seed` and records the
/// first difference per engine.
fn compare_runs(
    program: &Program,
    outputs: &[(&str, crate::Optimized)],
    seed: u64,
    fast_math: bool,
    report: &mut DiffReport,
) {
    for f in &program.functions {
        let inputs = random_inputs(f, seed);
        let reference = interpreter(program)
            .with_seed(seed)
            .with_while_fuel(DIFF_WHILE_FUEL)
            .run(&f.name, &inputs);
        let Ok(expected) = reference else {
            report.skipped += 1; // the input itself fails on these inputs (e.g. division by zero)
            continue;
        };
        for (engine, out) in outputs {
            if report
                .mismatches
                .iter()
                .any(|m| matches!(m, Mismatch::Results { engine: e, .. } if e == engine))
            {
                continue;
            }
            let got = interpreter(&out.program)
                .with_seed(seed)
                .with_while_fuel(DIFF_WHILE_FUEL)
                .run(&f.name, &inputs);
            let agree = got.as_ref().is_ok_and(|g| {
                g.len() == expected.len()
                    && g.iter().zip(&expected).all(|(a, b)| same(b, a, fast_math))
            });
            if !agree {
                report.mismatches.push(Mismatch::Results {
                    engine: engine.to_string(),
                    seed,
                    inputs: inputs.clone(),
                    expected: expected.clone(),
                    got: got.unwrap_or_default(),
                });
            }
        }
    }
}

/// Optimizes many programs in parallel (rayon); results in input order.
pub fn optimize_batch(
    programs: &[Program],
    options: &Options,
) -> Vec<Result<crate::Optimized, Error>> {
    programs.par_iter().map(|p| optimize(p, options)).collect()
}

/// Diffs many programs in parallel (rayon); results in input order.
pub fn diff_batch(programs: &[Program], options: &Options) -> Vec<Result<DiffReport, Error>> {
    programs.par_iter().map(|p| diff(p, options)).collect()
}
