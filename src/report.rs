//! What an optimization reports: [`Report`], printed as text (`Display`) and serialized as
//! JSON (serde; what `ptir-opt --report-json` writes), with, when asked for, where each op of
//! the output came from ([`FunctionExplanation`], `--explain`).

use ptir_cost::format_cost;
use ptir_ir::Program;
use ptir_pass::RunSummary;
use serde::Serialize;
use std::fmt;
use std::time::Duration;

/// What an optimization did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// The engine's name (`greedy`, `eqsat`), or the pass pipeline that ran
    /// ([`crate::Options::pipeline`]).
    pub engine: String,
    /// The runtime the output is for ([`crate::Options::runtime`]).
    pub runtime: String,
    /// Instructions before and after.
    pub instructions: InstCounts,
    /// The cost model's name.
    pub cost_model: String,
    /// Cost of the input.
    pub cost_before: f64,
    /// Cost of the output.
    pub cost_after: f64,
    /// Cost of the output as extraction prices it, each instruction once
    /// ([`ptir_cost::program_dag_cost_with_entries`]): what [`crate::diff`]'s cost claim
    /// compares, where `cost_after` weighs loop bodies by their trip counts and functions by
    /// their calls.
    pub dag_cost_after: f64,
    /// E-graph e-nodes and e-classes at the end (saturation only; summed over functions).
    pub egraph: Option<EGraphSize>,
    /// Whether the extractor proved every function's choice optimal for its cost notion and
    /// the output is that choice (saturation only; only the exact extractor proves anything,
    /// and a function kept as it came is not its choice).
    pub extraction_optimal: Option<bool>,
    /// How rewriting ended, per function (and per rewriting pass of a pipeline): why it
    /// stopped, iterations, rewrites and (saturation) the e-graph's size.
    pub stops: Vec<FunctionRun>,
    /// Time per phase, in order.
    pub phases: Vec<Phase>,
    /// Rules that fired, with how often, most first.
    pub rules_fired: Vec<RuleCount>,
    /// Rules the saturation scheduler banned for matching too often, each with the most
    /// matches that banned it (the count of [`RuleCount`]), in the order first banned.
    pub rules_banned: Vec<RuleCount>,
    /// Rules the engine left out, with why.
    pub rules_skipped: Vec<SkippedRule>,
    /// What translation validation checked (when [`crate::Options::validate`] is set).
    pub validation: Option<crate::Validation>,
    /// The conversion target the output was legalized for, and the rewrites per conversion
    /// pattern (when [`crate::Options::target`] is set).
    pub conversion: Option<Conversion>,
    /// How many times the program was verified, from where it was read to where it leaves
    /// the optimizer: once on the way in and once on the way out, plus once after each pass
    /// with [`crate::Options::verify_each`] and once by a conversion ([`crate::Options::target`]).
    pub verifications: usize,
    /// What the user should know about this run: rule externs renamed because the program
    /// has its own function of that name, loops raised, definitions added.
    pub notes: Vec<String>,
    /// The step log, per rewriting pass and function, when [`crate::Options::step_log`] is
    /// set: the greedy driver's event tree (`canonicalize`; MLIR's
    /// `-debug-only=greedy-rewriter`), or saturation's applications per iteration and rule
    /// with the e-graph's size (`eqsat`).
    #[serde(skip)]
    pub step_log: Vec<StepLog>,
    /// Each function's saturated e-graph as egraph-serialize JSON, with the cost model's costs
    /// (when [`crate::Options::dump_egraph`] is set).
    #[serde(skip)]
    pub egraphs: Vec<FunctionText>,
    /// The program after each pass (when [`crate::Options::ir_after_each`] is set).
    #[serde(skip)]
    pub ir_after: Vec<IrAfterPass>,
    /// For each op of the output, the chain of rules that derived it from the input (when
    /// [`crate::Options::explain`] is set; absent from the JSON otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanations: Option<Vec<FunctionExplanation>>,
}

/// Where the ops of one output function came from ([`crate::Options::explain`]).
///
/// ```
/// let p = ptir::ir::parse("func @f(%x: f32[4]) -> (f32[4], f32[4]) {
///   %n = neg %x : f32[4]
///   %a = abs %n : f32[4]
///   %e = exp %x : f32[4]
///   return %a, %e
/// }")?;
/// let options = ptir::Options { explain: true, ..ptir::Options::default() };
/// let out = ptir::optimize(&p, &options)?;
/// let f = &out.report.explanations.as_ref().unwrap()[0];
/// let abs = f.ops.iter().find(|o| o.op == "abs").unwrap();
/// assert_eq!(abs.rules, ["abs-neg"]); // |-x| became |x|
/// let exp = f.ops.iter().find(|o| o.op == "exp").unwrap();
/// assert!(exp.unchanged());
/// assert_eq!(f.to_string().lines().nth(1), Some("  %4 = abs  abs-neg"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FunctionExplanation {
    /// The function.
    pub function: String,
    /// Its ops, in the output's order (pre-order: a region op before the ops of its
    /// regions).
    pub ops: Vec<OpExplanation>,
}

/// Where one op of the output came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpExplanation {
    /// Its position in [`FunctionExplanation::ops`] (the output function's instructions in
    /// pre-order).
    pub index: usize,
    /// Its value as the PTIR output prints it (`%4`).
    pub value: String,
    /// Its op's name (`abs`).
    pub op: String,
    /// The steps that derived it from the input, oldest first: rule names (`rule (backward)`
    /// for a saturation union read from its result to its source), and the engines' own
    /// `fold` (constant folding) and `cse` (an equal op merged into this one); after
    /// optimization, `outline` and `convert` (legalization for a target). Empty: an input op
    /// carried through.
    pub rules: Vec<String>,
    /// Older steps left out of `rules` (at most [`ptir::pass::explain::CHAIN_LIMIT`] are
    /// kept, the latest).
    ///
    /// [`ptir::pass::explain::CHAIN_LIMIT`]: ptir_pass::explain::CHAIN_LIMIT
    pub elided: usize,
}

impl OpExplanation {
    /// Is it an input op carried through (no step derived it)?
    pub fn unchanged(&self) -> bool {
        self.rules.is_empty() && self.elided == 0
    }
}

impl fmt::Display for FunctionExplanation {
    /// One line per op: value, op, and its chain (`unchanged`, or the steps joined by ` → `,
    /// after `… (N more)` when older steps were left out).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "// explain @{}: the rules that derived each op, oldest first",
            self.function
        )?;
        let value = self.ops.iter().map(|o| o.value.len()).max().unwrap_or(0);
        let op = self.ops.iter().map(|o| o.op.len()).max().unwrap_or(0);
        for o in &self.ops {
            write!(f, "  {:>value$} = {:<op$}  ", o.value, o.op)?;
            if o.unchanged() {
                writeln!(f, "unchanged")?;
                continue;
            }
            if o.elided > 0 {
                write!(f, "… ({} more) → ", o.elided)?;
            }
            writeln!(f, "{}", o.rules.join(" → "))?;
        }
        Ok(())
    }
}

/// Instructions before and after.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InstCounts {
    /// In the input.
    pub before: usize,
    /// In the output.
    pub after: usize,
}

pub use ptir_pass::EGraphSize;

/// How one function's rewrite run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FunctionRun {
    /// The function.
    pub function: String,
    /// Why it stopped and the counts reached.
    #[serde(flatten)]
    pub run: RunSummary,
}

/// The time of one phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Phase {
    /// The phase: `rules` (reading and checking the rule library), `setup` (raising loops,
    /// pruning and indexing the rules), a pass's name, `lower`, `saturate`, ...
    pub phase: String,
    /// Its wall time (seconds in JSON).
    #[serde(rename = "seconds", serialize_with = "seconds")]
    pub time: Duration,
}

/// How often a rule (or a conversion pattern) applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleCount {
    /// Its name.
    pub rule: String,
    /// Applications.
    pub count: usize,
}

/// A rule an engine left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SkippedRule {
    /// Its name.
    pub rule: String,
    /// Why.
    pub reason: String,
}

/// What legalizing for a target did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Conversion {
    /// The target's name.
    pub target: String,
    /// Rewrites per conversion pattern.
    pub rewrites: Vec<RuleCount>,
}

/// The step log of one pass on one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepLog {
    /// The pass (`canonicalize`, `eqsat`).
    pub pass: String,
    /// The function.
    pub function: String,
    /// The log.
    pub text: String,
}

/// Text about one function (an e-graph dump).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionText {
    /// The function.
    pub function: String,
    /// The text.
    pub text: String,
}

/// The program after one pass of the pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct IrAfterPass {
    /// The pass.
    pub pass: String,
    /// The program it left.
    pub program: Program,
}

/// A duration as seconds, for JSON.
fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl Report {
    /// How often rule `rule` applied (0 if it never did).
    ///
    /// ```
    /// let p = ptir::ir::parse("func @f(%x: f32[2]) -> (f32[2]) {
    ///   %n = neg %x : f32[2]
    ///   %m = neg %n : f32[2]
    ///   return %m
    /// }")?;
    /// let out = ptir::optimize(&p, &ptir::Options::default())?;
    /// assert_eq!(out.report.fired("neg-neg"), 1);
    /// assert_eq!(out.report.fired("no-such-rule"), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fired(&self, rule: &str) -> usize {
        self.rules_fired
            .iter()
            .filter(|r| r.rule == rule)
            .map(|r| r.count)
            .sum()
    }

    /// The report as a JSON value (what `ptir-opt --report-json` writes).
    pub fn to_json(&self) -> serde_json::Value {
        // Every field serializes (strings, numbers, derived structs): this cannot fail.
        serde_json::to_value(self).unwrap_or_default()
    }

    /// Adds `time` to the phase `name`, appending it the first time.
    pub(crate) fn add_phase_time(&mut self, name: &str, time: Duration) {
        match self.phases.iter_mut().find(|p| p.phase == name) {
            Some(p) => p.time += time,
            None => self.phases.push(Phase {
                phase: name.to_string(),
                time,
            }),
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "engine: {} (for {})", self.engine, self.runtime)?;
        let InstCounts { before, after } = self.instructions;
        writeln!(f, "instructions: {before} -> {after}")?;
        // One speedup convention everywhere (the benchmarks' too): before / after, so 3.5x
        // is an output predicted 3.5 times faster.
        let speedup = match (self.cost_before, self.cost_after) {
            (b, a) if a > 0.0 => b / a,
            _ => 1.0,
        };
        writeln!(
            f,
            "cost ({}): {} -> {} (predicted {:.3}x faster)",
            self.cost_model,
            format_cost(self.cost_before),
            format_cost(self.cost_after),
            speedup
        )?;
        if let Some(EGraphSize { nodes, classes }) = self.egraph {
            writeln!(f, "e-graph: {nodes} e-nodes, {classes} e-classes")?;
        }
        for r in &self.stops {
            writeln!(f, "stop (@{}): {}", r.function, r.run)?;
        }
        let phases: Vec<String> = self
            .phases
            .iter()
            .map(|p| format!("{} {:.2?}", p.phase, p.time))
            .collect();
        writeln!(f, "phases: {}", phases.join(", "))?;
        if self.rules_fired.is_empty() {
            writeln!(f, "rules fired: none")?;
        } else {
            writeln!(f, "rules fired:")?;
            for r in &self.rules_fired {
                writeln!(f, "  {:6}  {}", r.count, r.rule)?;
            }
        }
        if !self.rules_banned.is_empty() {
            let bans: Vec<String> = (self.rules_banned.iter())
                .map(|b| format!("{} ({} matches)", b.rule, b.count))
                .collect();
            writeln!(f, "banned for matching too often: {}", bans.join(", "))?;
        }
        for r in &self.rules_skipped {
            writeln!(f, "skipped {}: {}", r.rule, r.reason)?;
        }
        if let Some(c) = &self.conversion {
            let total: usize = c.rewrites.iter().map(|r| r.count).sum();
            writeln!(f, "legalized for target {}: {total} rewrites", c.target)?;
            for r in &c.rewrites {
                writeln!(f, "  {:6}  {}", r.count, r.rule)?;
            }
        }
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        if let Some(v) = &self.validation {
            writeln!(f, "{v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptir_pass::StopReason;

    #[test]
    fn the_json_report_has_named_fields_throughout() {
        let mut report = Report {
            engine: "eqsat".into(),
            instructions: InstCounts {
                before: 7,
                after: 1,
            },
            egraph: Some(EGraphSize {
                nodes: 40,
                classes: 12,
            }),
            stops: vec![FunctionRun {
                function: "f".into(),
                run: RunSummary {
                    stop: StopReason::NodeLimit {
                        limit: 30,
                        nodes: 41,
                    },
                    iterations: 3,
                    rewrites: 9,
                    egraph: Some((41, 12)),
                },
            }],
            rules_fired: vec![RuleCount {
                rule: "neg-neg".into(),
                count: 2,
            }],
            ..Report::default()
        };
        report.add_phase_time("saturate", Duration::from_millis(250));
        report.add_phase_time("saturate", Duration::from_millis(250));
        let json = report.to_json();
        assert_eq!(json["instructions"]["after"], 1);
        assert_eq!(json["egraph"]["classes"], 12);
        assert_eq!(json["stops"][0]["function"], "f");
        assert_eq!(json["stops"][0]["reason"], "node-limit");
        assert_eq!(json["stops"][0]["nodes"], 41);
        assert_eq!(json["stops"][0]["egraph"]["nodes"], 41);
        assert_eq!(json["phases"][0]["seconds"], 0.5);
        assert_eq!(json["rules_fired"][0]["rule"], "neg-neg");
        assert!(json.get("step_log").is_none());
    }
}
