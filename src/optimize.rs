//! `optimize`: one program through one engine, with a report.

use crate::options::{Engine, Options};
use crate::Error;
use ptir_egraph::cost::program_cost;
use ptir_egraph::EngineOptions;
use ptir_greedy::{
    directed_rule_filter, Canonicalize, Cse, Dce, GreedyConfig, PassManager, PipelineReport,
};
use ptir_ir::Program;
use ptir_rules::{Registry, RuleSet, RunSummary};
use std::fmt;
use std::time::{Duration, Instant};

/// An optimized program and what happened.
#[derive(Clone, Debug)]
pub struct Optimized {
    /// The optimized, verified program.
    pub program: Program,
    /// What happened.
    pub report: Report,
}

/// What an optimization did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The engine's name.
    pub engine: String,
    /// Rules that fired, with how often, most first.
    pub rules_fired: Vec<(String, usize)>,
    /// Rules the engine left out, with why.
    pub rules_skipped: Vec<(String, String)>,
    /// E-graph e-nodes and e-classes at the end (saturation only; summed over functions).
    pub egraph_size: Option<(usize, usize)>,
    /// How rewriting ended, per function: why it stopped, iterations, rewrites and (saturation)
    /// the e-graph's size.
    pub stops: Vec<(String, RunSummary)>,
    /// Time per phase, in order.
    pub phases: Vec<(String, Duration)>,
    /// The cost model's name.
    pub cost_model: String,
    /// Cost of the input.
    pub cost_before: f64,
    /// Cost of the output.
    pub cost_after: f64,
    /// Instructions before and after.
    pub insts: (usize, usize),
    /// The step log, per function, when [`Options::step_log`] is set: the greedy driver's
    /// event tree (MLIR's `-debug-only=greedy-rewriter`), or saturation's applications per
    /// iteration and rule with the e-graph's size.
    pub step_log: Vec<(String, String)>,
    /// Each function's saturated e-graph as egraph-serialize JSON, with the cost model's costs
    /// (when [`Options::dump_egraph`] is set).
    pub egraphs: Vec<(String, String)>,
    /// The conversion target the output was legalized for, and the rewrites per conversion
    /// pattern (when [`Options::target`] is set).
    pub conversion: Option<(String, Vec<(String, usize)>)>,
    /// What the user should know about this run: rule externs renamed because the program
    /// has its own function of that name.
    pub notes: Vec<String>,
    /// What translation validation checked (when [`Options::validate`] is set).
    pub validation: Option<crate::Validation>,
}

impl Report {
    /// The report as a JSON value (what `ptir-opt --report-json` prints).
    pub fn to_json(&self) -> serde_json::Value {
        let pairs = |v: &[(String, usize)]| {
            v.iter()
                .map(|(k, n)| serde_json::json!({"rule": k, "count": n}))
                .collect::<Vec<_>>()
        };
        serde_json::json!({
            "engine": self.engine,
            "instructions": {"before": self.insts.0, "after": self.insts.1},
            "cost": {"model": self.cost_model, "before": self.cost_before, "after": self.cost_after},
            "egraph": self.egraph_size.map(|(n, c)| serde_json::json!({"nodes": n, "classes": c})),
            "stop": self.stops.iter().map(|(f, s)| serde_json::json!({
                "function": f,
                "reason": s.stop.to_string(),
                "fixpoint": s.stop.is_fixpoint(),
                "iterations": s.iterations,
                "rewrites": s.rewrites,
                "egraph": s.egraph.map(|(n, c)| serde_json::json!({"nodes": n, "classes": c})),
            })).collect::<Vec<_>>(),
            "phases_seconds": self.phases.iter().map(|(p, d)| serde_json::json!({"phase": p, "seconds": d.as_secs_f64()})).collect::<Vec<_>>(),
            "rules_fired": pairs(&self.rules_fired),
            "validation": self.validation.as_ref().map(|v| serde_json::json!({"seeds": v.seeds, "compared": v.compared, "skipped": v.skipped})),
            "rules_skipped": self.rules_skipped.iter().map(|(r, w)| serde_json::json!({"rule": r, "reason": w})).collect::<Vec<_>>(),
            "conversion": self.conversion.as_ref().map(|(t, rw)| serde_json::json!({"target": t, "rewrites": pairs(rw)})),
            "notes": self.notes,
        })
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "engine: {}", self.engine)?;
        writeln!(f, "instructions: {} -> {}", self.insts.0, self.insts.1)?;
        let ratio = if self.cost_before > 0.0 {
            self.cost_after / self.cost_before
        } else {
            1.0
        };
        writeln!(
            f,
            "cost ({}): {} -> {} ({:.3}x)",
            self.cost_model, self.cost_before, self.cost_after, ratio
        )?;
        if let Some((n, c)) = self.egraph_size {
            writeln!(f, "e-graph: {n} e-nodes, {c} e-classes")?;
        }
        for (func, run) in &self.stops {
            writeln!(f, "stop (@{func}): {run}")?;
        }
        let phases: Vec<String> = self
            .phases
            .iter()
            .map(|(p, d)| format!("{p} {d:.2?}"))
            .collect();
        writeln!(f, "phases: {}", phases.join(", "))?;
        if self.rules_fired.is_empty() {
            writeln!(f, "rules fired: none")?;
        } else {
            writeln!(f, "rules fired:")?;
            for (r, n) in &self.rules_fired {
                writeln!(f, "  {n:6}  {r}")?;
            }
        }
        for (r, why) in &self.rules_skipped {
            writeln!(f, "skipped {r}: {why}")?;
        }
        if let Some((target, rewrites)) = &self.conversion {
            let total: usize = rewrites.iter().map(|(_, n)| n).sum();
            writeln!(f, "legalized for target {target}: {total} rewrites")?;
            for (p, n) in rewrites {
                writeln!(f, "  {n:6}  {p}")?;
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

/// Seeds on which [`load_rules`] proves each user-supplied rule ([`ptir_rules::example::prove`]).
pub const USER_RULE_PROOF_SEEDS: u64 = 24;

/// Loads the rule set the options describe (bundled library, extra files and texts),
/// filtered. With [`Options::prove_rules`], every user-supplied rule is proven by the
/// interpreter on [`USER_RULE_PROOF_SEEDS`] seeds, and the first with a counterexample is
/// refused ([`Error::UnsoundRule`], located at its file and line). A rule the prover cannot
/// instantiate is kept: nothing shows it wrong.
///
/// ```
/// let options = ptir::Options {
///     rule_texts: vec![("mine.rules".into(), "(rule my-add-zero (add ?x (splat 0)) => ?x)".into())],
///     prove_rules: true,
///     ..ptir::Options::default()
/// };
/// let err = ptir::load_rules(&options).unwrap_err();
/// assert!(err.to_string().starts_with("mine.rules:1: rule `my-add-zero` is unsound"), "{err}");
/// ```
pub fn load_rules(options: &Options) -> Result<RuleSet, Error> {
    let mut set = if options.bundled_rules {
        RuleSet::bundled()?
    } else {
        RuleSet::new(Registry::standard())
    };
    for path in &options.rule_files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: name.clone(),
            source,
        })?;
        if path.extension().is_some_and(|e| e == "pat") {
            set.add_pat_source(&name, &text)?;
        } else {
            set.add_source(&name, &text)?;
        }
    }
    for (name, text) in &options.rule_texts {
        set.add_source(name, text)?;
    }
    set.check_names(options.enable.iter().chain(&options.disable))?;
    let set = set.filtered(&options.filter());
    if options.prove_rules {
        prove_user_rules(&set, options)?;
    }
    Ok(set)
}

/// Proves the rules of `set` that come from the options' files and texts (see
/// [`load_rules`]).
fn prove_user_rules(set: &RuleSet, options: &Options) -> Result<(), Error> {
    let user_files: Vec<String> = options
        .rule_files
        .iter()
        .map(|p| p.display().to_string())
        .chain(options.rule_texts.iter().map(|(n, _)| n.clone()))
        .collect();
    for rule in set.rules() {
        if !user_files.contains(&rule.location.file) {
            continue;
        }
        match ptir_rules::example::prove(rule, set.registry(), USER_RULE_PROOF_SEEDS) {
            Err(e) if e.is_counterexample() => {
                return Err(Error::UnsoundRule {
                    location: rule.location.to_string(),
                    rule: rule.name.clone(),
                    counterexample: e.to_string(),
                })
            }
            _ => {}
        }
    }
    Ok(())
}

/// Optimizes `program` as `options` say; with [`Options::validate`], the output is checked
/// against the input by the interpreter before it is returned.
///
/// ```
/// let program = ptir::ir::parse(
///     "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = neg %x : f32[4]\n  %b = neg %a : f32[4]\n  return %b\n}",
/// )?;
/// let out = ptir::optimize(&program, &ptir::Options::default())?;
/// assert_eq!(out.program.num_insts(), 0);
/// assert!(out.report.cost_after < out.report.cost_before);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn optimize(program: &Program, options: &Options) -> Result<Optimized, Error> {
    let input = program;
    let t = Instant::now();
    if options.dump_egraph && options.engine == Engine::Greedy {
        return Err(Error::Options(
            "an e-graph dump (--dump-egraph) needs the eqsat engine: the greedy engine builds no e-graph".into(),
        ));
    }
    ptir_ir::verify(program)?;
    // Rule results own their names: where the program has its own @linear, the rules' is
    // renamed for this run (in the rules, the extern costs and the output).
    let (rules, renamed) = load_rules(options)?.renaming_externs_for(program);
    let model = options.cost.model(&rules);
    let mut report = Report {
        engine: options.engine.name().to_string(),
        cost_model: model.name().to_string(),
        cost_before: program_cost(program, model.as_ref()),
        insts: (program.num_insts(), 0),
        notes: renamed.iter().map(ToString::to_string).collect(),
        ..Report::default()
    };
    report.phases.push(("setup".into(), t.elapsed()));
    // Loop idioms first, for both engines: a reduction `scan` becomes a loop-free `reduce`
    // (exact; see `ptir_ir::loop_idioms`), which the rules then see like any other reduce.
    let mut raised = program.clone();
    let loops = ptir_ir::raise_loop_idioms(&mut raised);
    if loops > 0 {
        report
            .notes
            .push(format!("raised {loops} reduction loop(s) to reduce"));
    }
    let program = &raised;
    let program = match options.engine {
        Engine::Greedy => {
            let mut out = program.clone();
            // Raising rules introduce calls to the rule set's externs, and the pass manager
            // verifies after every pass: declare them all, then drop the ones left unused.
            let added = declare_all_externs(&mut out, &rules);
            let config = options.limits.greedy(GreedyConfig {
                log: options.step_log,
                ..GreedyConfig::canonicalize()
            });
            let mut pm = PassManager::new();
            // `rules` is already filtered by the options (fast-math among them): leave out
            // only what no greedy driver can run.
            let canonicalize = Canonicalize::with_filtered_rules(&rules, &directed_rule_filter())?;
            pm.add(canonicalize.with_config(config)).add(Cse).add(Dce);
            let pipeline = pm.run(&mut out)?;
            record_greedy(&mut report, &pipeline);
            drop_unused_externs(&mut out, &added);
            ptir_ir::verify(&out).map_err(Error::Output)?;
            out
        }
        Engine::Saturation => {
            let eo = EngineOptions {
                limits: options.limits.saturation(),
                cost: model.clone(),
                extractor: options.extractor,
                dump_egraph: options.dump_egraph,
            };
            let (out, reports) = ptir_egraph::optimize(program, &rules, &eo)?;
            record_saturation(&mut report, &reports, options.step_log);
            out
        }
    };
    let mut program = program;
    keep_extern_definitions(&mut program, input);
    for name in inject_definitions(&mut program, &rules) {
        report
            .notes
            .push(format!("defined @{name} in the output, from its rule file"));
    }
    ptir_ir::verify(&program).map_err(Error::Output)?;
    if options.outline {
        let done = ptir_convert::outline_fused_calls(&mut program).map_err(Error::Outline)?;
        for (ext, f) in &done.functions {
            report
                .notes
                .push(format!("outlined @{ext} as @{f}, defined in the output"));
        }
    }
    let mut program = match &options.target {
        Some(target) => legalize(program, target, &mut report)?,
        None => program,
    };
    // Values the optimization left as they were keep their input numbers (and names).
    ptir_ir::keep_value_ids(input, &mut program);
    report.cost_after = program_cost(&program, model.as_ref());
    report.insts.1 = program.num_insts();
    if let Some(seeds) = options.validate {
        let t = Instant::now();
        report.validation = Some(crate::validate(input, &program, seeds, options.fast_math)?);
        report.phases.push(("validate".into(), t.elapsed()));
    }
    Ok(Optimized { program, report })
}

/// Gives back their input bodies to the functions of `input` that define a fused library
/// extern (their body is exactly its idiom: an outlined `@linear_0`, or a user's own
/// `@softmax_fused` that computes it). The rules would raise such a body to a call of the
/// extern, which the function itself now is: a function calling itself forever.
fn keep_extern_definitions(program: &mut Program, input: &Program) {
    for f in &input.functions {
        if ptir_rules::externs::defined_by(f).is_none() {
            continue;
        }
        if let Some(out) = program.functions.iter_mut().find(|g| g.name == f.name) {
            *out = f.clone();
        }
    }
}

/// Legalizes `program` for `target` (a full conversion with the bundled conversion patterns).
fn legalize(
    mut program: Program,
    target: &ptir_convert::ConversionTarget,
    report: &mut Report,
) -> Result<Program, Error> {
    let t = Instant::now();
    let done = ptir_convert::apply_conversion(
        &mut program,
        target,
        &ptir_convert::default_patterns(),
        ptir_convert::ConversionMode::Full,
    )?;
    report.phases.push(("convert".into(), t.elapsed()));
    report.conversion = Some((target.name.clone(), done.rewrites.into_iter().collect()));
    Ok(program)
}

/// The conversion target `spec`: a bundled target's name (`portable`, `f32`) or the path of a
/// target file.
///
/// ```
/// let t = ptir::load_target("portable")?;
/// assert_eq!(t.name, "portable");
/// assert!(ptir::load_target("no/such/file.target").is_err());
/// # Ok::<(), ptir::Error>(())
/// ```
pub fn load_target(spec: &str) -> Result<ptir_convert::ConversionTarget, Error> {
    if let Some(t) = ptir_convert::ConversionTarget::bundled(spec) {
        return Ok(t);
    }
    let text = std::fs::read_to_string(spec).map_err(|source| Error::Io {
        path: spec.to_string(),
        source,
    })?;
    Ok(ptir_convert::ConversionTarget::parse(spec, &text)?)
}

/// Declares every extern of `rules` that `program` does not declare; returns their names.
fn declare_all_externs(program: &mut Program, rules: &RuleSet) -> Vec<String> {
    let mut added = Vec::new();
    for (name, spec) in rules.externs() {
        if program.function(name).is_none() && program.extern_decl(name).is_none() {
            program.externs.push(ptir_ir::ExternDecl {
                name: name.clone(),
                signature: None,
                pure: spec.pure,
            });
            added.push(name.clone());
        }
    }
    added
}

/// Defines in `program` every rule extern that it calls, does not define, and whose rule file
/// gives its body (a `.pat` definition), in place of its extern declaration; returns their
/// names.
fn inject_definitions(program: &mut Program, rules: &RuleSet) -> Vec<String> {
    let called = program.called_names();
    let mut added = Vec::new();
    for (name, spec) in rules.externs() {
        let Some(def) = &spec.definition else {
            continue;
        };
        if called.contains(name) && program.function(name).is_none() {
            program.externs.retain(|e| e.name != *name);
            let mut f = def.clone();
            f.name = name.clone();
            program.functions.push(f);
            added.push(name.clone());
        }
    }
    added
}

/// Removes the declarations of `names` that no instruction calls.
fn drop_unused_externs(program: &mut Program, names: &[String]) {
    let called = program.called_names();
    program
        .externs
        .retain(|e| !names.contains(&e.name) || called.contains(&e.name));
}

fn record_greedy(report: &mut Report, pipeline: &PipelineReport) {
    let mut fired: indexmap::IndexMap<String, usize> = indexmap::IndexMap::new();
    for p in &pipeline.passes {
        report.phases.push((p.pass.clone(), p.time));
        report.step_log.extend(
            p.step_log
                .iter()
                .map(|(f, log)| (f.clone(), log.to_string())),
        );
        if let Some(g) = &p.greedy {
            for (rule, n) in &g.rewrites {
                *fired.entry(rule.clone()).or_default() += n;
            }
            if g.folds > 0 {
                *fired.entry("(constant folding)".into()).or_default() += g.folds;
            }
        }
        report.stops.extend(p.runs.iter().cloned());
    }
    let mut fired: Vec<(String, usize)> = fired.into_iter().filter(|(_, n)| *n > 0).collect();
    fired.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    report.rules_fired = fired;
}

fn record_saturation(report: &mut Report, reports: &[ptir_egraph::FunctionReport], log: bool) {
    let mut fired: indexmap::IndexMap<String, usize> = indexmap::IndexMap::new();
    let (mut nodes, mut classes) = (0, 0);
    let mut phase =
        |name: &str, d: Duration| match report.phases.iter_mut().find(|(p, _)| p == name) {
            Some((_, t)) => *t += d,
            None => report.phases.push((name.to_string(), d)),
        };
    for r in reports {
        phase("lower", r.lower_time);
        phase("saturate", r.saturation.time);
        phase("extract", r.extract_time);
        phase("lift", r.lift_time);
    }
    report.egraphs = reports
        .iter()
        .filter_map(|r| r.egraph_json.clone().map(|j| (r.name.clone(), j)))
        .collect();
    for r in reports {
        for (rule, n) in r.saturation.rules_applied() {
            *fired.entry(rule).or_default() += n;
        }
        nodes += r.saturation.nodes;
        classes += r.saturation.classes;
        report.stops.push((r.name.clone(), r.saturation.summary()));
        if log {
            report
                .step_log
                .push((r.name.clone(), r.saturation.step_log()));
        }
        for s in &r.saturation.skipped {
            if !report.rules_skipped.iter().any(|(n, _)| *n == s.name) {
                report
                    .rules_skipped
                    .push((s.name.clone(), s.reason.clone()));
            }
        }
    }
    let mut fired: Vec<(String, usize)> = fired.into_iter().collect();
    fired.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    report.rules_fired = fired;
    report.egraph_size = Some((nodes, classes));
}
