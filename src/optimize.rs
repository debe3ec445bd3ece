//! `optimize`: one program through one engine, with a report.

use crate::explain;
use crate::format::Verified;
use crate::options::{Engine, Options};
use crate::passes::{LoopPatterns, SiblingReductions, LOOP_PATTERNS_PASS, SIBLING_REDUCTIONS_PASS};
use crate::report::{
    Conversion, FunctionRun, FunctionText, InstCounts, IrAfterPass, Report, RuleCount, SkippedRule,
    StepLog,
};
use crate::Error;
use ptir_cost::{entry_functions, program_cost, program_cost_with_entries};
use ptir_egraph::{EngineOptions, EQSAT_PASS};
use ptir_greedy::{directed_rule_filter, Canonicalize, GreedyConfig};
use ptir_ir::{Function, Op, Program};
use ptir_pass::explain::Provenance;
use ptir_pass::explain::Snapshot;
use ptir_pass::{PassRegistry, PipelineReport};
use ptir_rules::{Registry, RuleSet};
use std::borrow::Cow;
use std::time::Instant;

/// An optimized program and what happened.
#[derive(Clone, Debug)]
pub struct Optimized {
    /// The optimized, verified program.
    pub program: Program,
    /// What happened.
    pub report: Report,
}

/// The rule files a `--rules` argument names: `path` itself, or when it is a directory the
/// `.rules`, `.pat` and `.ptrl` files in it, sorted by name (not its subdirectories).
///
/// ```
/// let files = ptir::rule_files_in(std::path::Path::new("rules"))?;
/// assert!(files.iter().all(|f| f.starts_with("rules")) && !files.is_empty());
/// # Ok::<(), ptir::Error>(())
/// ```
pub fn rule_files_in(path: &std::path::Path) -> Result<Vec<std::path::PathBuf>, Error> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let io = |source| Error::Io {
        path: path.display().to_string(),
        source,
    };
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(path)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| {
            f.extension()
                .is_some_and(|x| x == "rules" || x == "pat" || x == "ptrl")
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Seeds on which [`load_rules`] proves each user-supplied rule ([`ptir_rules::example::prove`]).
pub const USER_RULE_PROOF_SEEDS: u64 = 24;

/// Loads the rule set the options describe (bundled library, extra files and texts),
/// filtered. A file that starts like a compiled rule library ([`ptir_rules::compiled`],
/// written by `ptir-opt compile-rules` or [`RuleSet::to_compiled`]) is loaded as one,
/// whatever its name. With [`Options::prove_rules`], every user-supplied rule is proven by the
/// interpreter on [`USER_RULE_PROOF_SEEDS`] seeds, and the first with a counterexample is
/// refused ([`Error::UnsoundRule`], located at its file and line). A rule the prover cannot
/// instantiate is kept: nothing shows it wrong.
///
/// ```
/// let options = ptir::Options {
///     rule_texts: vec![ptir::RuleText::new("mine.rules", "(rule my-add-zero (add ?x (splat 0)) => ?x)")],
///     prove_rules: true,
///     ..ptir::Options::default()
/// };
/// let err = ptir::load_rules(&options).unwrap_err();
/// assert!(err.to_string().starts_with("mine.rules:1: rule `my-add-zero` is unsound"), "{err}");
/// ```
pub fn load_rules(options: &Options) -> Result<RuleSet, Error> {
    load_rules_within(options, None)
}

/// [`load_rules`], the bundled library decoded only in the rules that can match a program of
/// the op kinds `present`, when given (see [`prunable_at_load`]).
fn load_rules_within(
    options: &Options,
    present: Option<&[ptir_ir::OpKey]>,
) -> Result<RuleSet, Error> {
    let filter = options.filter();
    let mut set = if options.bundled_rules {
        bundled_rules(&options.registry, present.map(|p| (p, &filter)))?
    } else {
        RuleSet::new(options.registry.clone())
    };
    add_rule_files(&mut set, &options.rule_files)?;
    for r in &options.rule_texts {
        if r.file.ends_with(".pat") {
            set.add_pat_source(&r.file, &r.text)?;
        } else {
            set.add_source(&r.file, &r.text)?;
        }
    }
    set.check_names(options.enable.iter().chain(&options.disable))?;
    set.retain(&filter);
    if options.prove_rules {
        prove_user_rules(&set)?;
    }
    Ok(set)
}

/// The bundled rule library as `build.rs` compiled it (the texts of
/// [`ptir_rules::BUNDLED`] and [`ptir_rules::BUNDLED_PATS`]).
const BUNDLED_LIBRARY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bundled.ptrl"));

/// The bundled rule library checked against `registry`: loaded from [`BUNDLED_LIBRARY`] (a
/// third of the time parsing its text takes), or parsed should it not load (its errors,
/// located in the text, are the ones to show).
fn bundled_rules(
    registry: &Registry,
    only: Option<(&[ptir_ir::OpKey], &ptir_rules::RuleFilter)>,
) -> Result<RuleSet, ptir_rules::RuleError> {
    let mut set = RuleSet::new(registry.clone());
    match set.add_compiled_applicable(BUNDLED_LIBRARY, only) {
        Ok(()) => Ok(set),
        Err(_) => RuleSet::bundled_with(registry.clone()),
    }
}

/// The op kinds of `program` when the bundled rules that cannot match it may be left
/// undecoded at load: rule pruning is on, and nothing but the bundled library and the
/// program decides what can match (no rule files or texts, whose results could make what a
/// bundled rule needs; no canonicalization patterns of the caller's; no `while` or `scan`,
/// which loop patterns, idioms and unrolling turn into other ops before the passes run).
/// [`RuleSet::retain_applicable`] then drops what it would have anyway.
fn prunable_at_load(options: &Options, program: &Program) -> Option<Vec<ptir_ir::OpKey>> {
    let kinds = op_kinds(program);
    let loops = kinds.contains(&ptir_ir::OpKey::While) || kinds.contains(&ptir_ir::OpKey::Scan);
    let only_bundled = options.rule_files.is_empty() && options.rule_texts.is_empty();
    let no_natives = options.ops.patterns().next().is_none();
    (options.prune_rules && only_bundled && no_natives && !loops)
        .then(|| kinds.into_iter().collect())
}

/// [`load_rules`] for `program`: its variadic rules (`?xs...`) expanded to the lengths of
/// the operand lists of `program`'s `concat`s, calls and `tuple`s past the arities rules are
/// loaded with ([`ptir_rules::VARIADIC_ARITY`]), so that a list matches any arity.
pub(crate) fn load_rules_for(options: &Options, program: &Program) -> Result<RuleSet, Error> {
    expand_rules_for(load_rules(options)?, options, program)
}

/// `rules` (loaded under `options`) with their variadic rules expanded for `program`, as
/// [`load_rules_for`] gives them.
fn expand_rules_for(
    mut rules: RuleSet,
    options: &Options,
    program: &Program,
) -> Result<RuleSet, Error> {
    if rules.expand_variadic(list_lengths(program))? > 0 {
        rules.retain(&options.filter());
    }
    Ok(rules)
}

/// The op kinds of the instructions of `program`, nested ones included.
fn op_kinds(program: &Program) -> std::collections::BTreeSet<ptir_ir::OpKey> {
    let mut kinds = std::collections::BTreeSet::new();
    for f in &program.functions {
        f.body.walk(&mut |i, _| {
            kinds.insert(i.op.key());
        });
    }
    kinds
}

/// The op kinds the rewriting passes of a pipeline may see in `program`: its own, and where
/// it has loops, what the loop steps before them make of loops (`reduce` from a loop idiom,
/// whatever the replacement of one of `rules`' loop patterns writes, `tuple` and constants
/// from unrolling).
fn reachable_op_kinds(
    program: &Program,
    rules: &RuleSet,
) -> std::collections::BTreeSet<ptir_ir::OpKey> {
    use ptir_ir::{OpKey, ReduceKind};
    let mut kinds = op_kinds(program);
    if kinds.contains(&OpKey::While) || kinds.contains(&OpKey::Scan) {
        kinds.extend([
            OpKey::Reduce(ReduceKind::Sum),
            OpKey::Reduce(ReduceKind::Max),
            OpKey::Tuple,
            OpKey::TupleGet,
            OpKey::Constant,
        ]);
        for pattern in rules.loop_patterns() {
            kinds.extend(pattern.replacement_op_kinds());
        }
    }
    kinds
}

/// The operand counts of the `concat`s, calls and `tuple`s of `program`.
fn list_lengths(program: &Program) -> std::collections::BTreeSet<usize> {
    let mut lengths = std::collections::BTreeSet::new();
    for f in &program.functions {
        f.body.walk(&mut |i, _| {
            if matches!(i.op, Op::Concat { .. } | Op::Call { .. } | Op::Tuple) {
                lengths.insert(i.operands.len());
            }
        });
    }
    lengths
}

/// Adds the rules of each file to `set`, in order: a compiled library (by its first bytes,
/// whatever its name), a `.pat` file, or a `.rules` file.
fn add_rule_files(set: &mut RuleSet, files: &[std::path::PathBuf]) -> Result<(), Error> {
    for path in files {
        let name = path.display().to_string();
        let io = |source| Error::Io {
            path: name.clone(),
            source,
        };
        let bytes = std::fs::read(path).map_err(io)?;
        // A `.ptrl` file, or one cut inside the magic, is a library, damaged if it does not
        // load: never read as rule text (an empty one would have been zero rules).
        let magic = &ptir_rules::compiled::MAGIC;
        let cut_magic = !bytes.is_empty() && bytes.len() < magic.len() && magic.starts_with(&bytes);
        if ptir_rules::compiled::is_compiled(&bytes)
            || cut_magic
            || path.extension().is_some_and(|e| e == "ptrl")
        {
            set.add_compiled(&bytes).map_err(|source| Error::Library {
                path: name.clone(),
                source: Box::new(source),
            })?;
            continue;
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "neither rule text (not UTF-8: {}) nor a compiled rule library (no \
                     `PTIRRULE` header)",
                    e.utf8_error()
                ),
            ))
        })?;
        if path.extension().is_some_and(|e| e == "pat") {
            set.add_pat_source(&name, &text)?;
        } else {
            set.add_source(&name, &text)?;
        }
    }
    Ok(())
}

/// Compiles rule files (`.rules`, `.pat`, or compiled libraries themselves) into one compiled
/// rule library ([`ptir_rules::compiled`]): every rule, `fast-math` included (filtering
/// happens when it is loaded), checked against the standard registry. The bytes are what
/// `ptir-opt compile-rules` writes and what [`Options::rule_files`] accepts.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("ptir-doc-compile-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let src = dir.join("mine.rules");
/// std::fs::write(&src, "; why\n(rule my-neg-neg (neg (neg ?x)) => ?x)")?;
/// let lib = dir.join("mine.ptrl");
/// std::fs::write(&lib, ptir::compile_rules(&[src])?)?;
/// let options = ptir::Options { rule_files: vec![lib], ..ptir::Options::default() };
/// assert!(ptir::load_rules(&options)?.rule("my-neg-neg").is_some());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compile_rules(files: &[std::path::PathBuf]) -> Result<Vec<u8>, Error> {
    let mut set = RuleSet::new(Registry::standard());
    add_rule_files(&mut set, files)?;
    set.to_compiled().map_err(|source| Error::Library {
        path: files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        source: Box::new(source),
    })
}

/// Is a rule written at `location` one of the bundled library's? The user's rules are the
/// others: the rules of the options' files and texts, and of compiled libraries (which keep
/// their source's location).
fn is_bundled(location: &ptir_rules::Location) -> bool {
    (ptir_rules::BUNDLED.iter())
        .chain(ptir_rules::BUNDLED_PATS)
        .any(|(file, _)| *file == location.file)
}

/// The rule-set lint's findings about the user's rules of `set` (its structural checks:
/// proofs are `Options::prove_rules`'), as report notes.
fn lint_notes(set: &RuleSet) -> Vec<String> {
    let options = ptir_rules::lint::LintOptions {
        proof_seeds: 0,
        ..Default::default()
    };
    (ptir_rules::lint::lint(set, &options).into_iter())
        .filter(|f| !is_bundled(&f.location))
        .map(|f| format!("lint: {f}"))
        .collect()
}

/// Proves the user's rules of `set`: those of the options' files and texts and of compiled
/// libraries (see [`load_rules`]).
fn prove_user_rules(set: &RuleSet) -> Result<(), Error> {
    for rule in set.rules() {
        if is_bundled(&rule.location) {
            continue;
        }
        match ptir_rules::example::prove(rule, set.registry(), USER_RULE_PROOF_SEEDS) {
            Err(e) if e.is_counterexample() => {
                // A list rule's expansion (`NAME/3`) is reported by the name the user wrote,
                // with the list length it fails at.
                let expansion = ptir_rules::split_expansion_name(&rule.name)
                    .filter(|(name, _)| (set.variadic_rules().iter()).any(|v| v.name == *name));
                let (name, counterexample) = match expansion {
                    Some((name, n)) => (name.to_string(), format!("with a list of {n}: {e}")),
                    None => (rule.name.clone(), e.to_string()),
                };
                return Err(Error::UnsoundRule {
                    location: rule.location.to_string(),
                    rule: name,
                    counterexample,
                });
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
/// assert_eq!(out.report.verifications, 2); // the input, and the output
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn optimize(program: &Program, options: &Options) -> Result<Optimized, Error> {
    ptir_ir::verify(program)?;
    optimize_input(Cow::Borrowed(program), options, None)
}

/// [`optimize`], taking the program: it is rewritten in place rather than copied first,
/// which halves the memory a large program needs (what the input's value numbers need of
/// it is kept, a few bytes per value; the whole input only for [`Options::validate`]).
///
/// ```
/// let program = ptir::ir::parse(
///     "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = exp %x : f32[4]\n  %b = neg %a : f32[4]\n  %c = neg %b : f32[4]\n  return %c\n}",
/// )?;
/// let out = ptir::optimize_owned(program, &ptir::Options::default())?;
/// assert_eq!(ptir::ir::print(&out.program), "func @f(%0: f32[4]) -> (f32[4]) {\n  %1 = exp %0 : f32[4]\n  return %1\n}\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn optimize_owned(program: Program, options: &Options) -> Result<Optimized, Error> {
    optimize_verified(Verified::new(program)?, options)
}

/// [`optimize_owned`] of a program verified where it was read ([`crate::format::read_verified`],
/// [`Verified::new`]): it is not verified again on the way in (the report counts that
/// verification: [`Report::verifications`]).
///
/// ```
/// use ptir::format::{read_verified, Format, ReadOptions};
/// let mlir = "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.negate %a : tensor<4xf32>\n  %1 = stablehlo.negate %0 : tensor<4xf32>\n  return %1 : tensor<4xf32>\n}";
/// let (program, _) = read_verified(mlir, Format::Mlir, &ReadOptions::default())?;
/// let out = ptir::optimize_verified(program, &ptir::Options::default())?;
/// assert_eq!(out.program.num_insts(), 0);
/// assert_eq!(out.report.verifications, 2); // where it was read, and the output
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn optimize_verified(program: Verified, options: &Options) -> Result<Optimized, Error> {
    optimize_input(Cow::Owned(program.into_program()), options, None)
}

/// The route of every optimization: the input (verified where it was read), the pass
/// pipeline, the steps after it, the output verified where it leaves, and the report.
/// `loaded`: the rules of `options` when the caller has them already ([`load_rules`]).
fn optimize_input(
    input: Cow<'_, Program>,
    options: &Options,
    loaded: Option<RuleSet>,
) -> Result<Optimized, Error> {
    let t = Instant::now();
    // The time limit covers the whole run: setup, raising loops and every pass.
    let deadline = ptir_pass::Deadline::after(options.limits.time);
    let loaded = match loaded {
        Some(rules) => rules,
        None => load_rules_within(options, prunable_at_load(options, &input).as_deref())?,
    };
    let (loading, t) = (t.elapsed(), Instant::now());
    // Rule results own their names: where the program has its own @linear, the rules' is
    // renamed for this run (in the rules, the extern costs and the output).
    let mut rules = expand_rules_for(loaded, options, &input)?;
    let renamed = rules.rename_externs_for(&input);
    let model = options.cost.model(&rules, &input, options.runtime);
    let (program, input) = InputRecord::take(input, options.validate.is_some());
    let mut report = input.report(&program, options, model.as_ref(), &renamed);
    if !(options.rule_files.is_empty() && options.rule_texts.is_empty()) {
        report.notes.extend(lint_notes(&rules));
    }
    report.add_phase_time("rules", loading);
    // With `explain`, the chain of rules behind every derived value, kept through every step
    // that changes the program from here on.
    let mut provenance = options.explain.then(Provenance::default);
    // The rules that can match the program as the rewriting passes get it (loops raised
    // and unrolled by the passes before them); the others would only be indexed and tried.
    if options.prune_rules && options.ops.patterns().next().is_none() {
        let reachable = reachable_op_kinds(&program, &rules);
        rules.retain_applicable(reachable);
    }
    // Built here, in setup, once for every function and pass that asks for it.
    rules.index();
    // Shared with the passes that hold it, not copied: a rule library may be large.
    let rules = std::sync::Arc::new(rules);
    report.add_phase_time("setup", t.elapsed());
    let program = run_pipeline(
        program,
        rules.clone(),
        model.clone(),
        (options, deadline),
        &mut report,
        provenance.as_mut(),
    )?;
    let program = after_pipeline(
        program,
        &input.definitions,
        &rules,
        options,
        &mut report,
        provenance.as_mut(),
    )?;
    report
        .notes
        .extend(untaken_raises(&program, &rules, &report));
    report.verifications += 1;
    ptir_ir::verify(&program).map_err(Error::Output)?;
    let program = input.finish(
        program,
        &rules,
        model.as_ref(),
        options,
        provenance,
        &mut report,
    )?;
    Ok(Optimized { program, report })
}

/// What the output needs of the input once the input is rewritten: its value numbers, its
/// entry functions (pricing), the functions that define library externs, and for validation
/// the whole input.
struct InputRecord<'a> {
    numbers: ptir_ir::ValueNumbers,
    entries: Vec<String>,
    definitions: Vec<Function>,
    whole: Option<Cow<'a, Program>>,
}

impl<'a> InputRecord<'a> {
    /// The program to rewrite (`input` itself when it is owned and not kept whole) and the
    /// record of it.
    fn take(input: Cow<'a, Program>, keep_whole: bool) -> (Program, Self) {
        let numbers = ptir_ir::ValueNumbers::of(&input);
        let entries = entry_functions(&input);
        let definitions = (input.functions.iter())
            .filter(|f| ptir_rules::externs::defined_by(f).is_some())
            .cloned()
            .collect();
        let (program, whole) = match keep_whole {
            true => (input.clone().into_owned(), Some(input)),
            false => (input.into_owned(), None),
        };
        let record = InputRecord {
            numbers,
            entries,
            definitions,
            whole,
        };
        (program, record)
    }

    /// The report of a run on `input` (the program as taken, not rewritten yet).
    fn report(
        &self,
        input: &Program,
        options: &Options,
        model: &dyn ptir_cost::CostModel,
        renamed: &[ptir_rules::ExternRename],
    ) -> Report {
        Report {
            engine: options
                .pipeline
                .clone()
                .unwrap_or_else(|| options.engine.name().to_string()),
            runtime: options.runtime.name().to_string(),
            cost_model: model.name().to_string(),
            cost_before: program_cost_with_entries(input, model, &self.entries),
            instructions: InstCounts {
                before: input.num_insts(),
                after: 0,
            },
            notes: renamed.iter().map(ToString::to_string).collect(),
            // The input's, where it was read.
            verifications: 1,
            ..Report::default()
        }
    }

    /// The verified output's numbers, explanations, costs and, with [`Options::validate`],
    /// its validation against the input.
    fn finish(
        self,
        mut program: Program,
        rules: &RuleSet,
        model: &dyn ptir_cost::CostModel,
        options: &Options,
        provenance: Option<Provenance>,
        report: &mut Report,
    ) -> Result<Program, Error> {
        let mut explanations = provenance.map(|p| explain::explanations(&program, &p));
        // Values the optimization left as they were keep their input numbers (and names).
        self.numbers.renumber(&mut program);
        if let Some(e) = explanations.as_mut() {
            explain::name_values(e, &program);
        }
        report.explanations = explanations;
        report.cost_after = program_cost_with_entries(&program, model, &self.entries);
        report.dag_cost_after =
            ptir_cost::program_dag_cost_with_entries(&program, model, &self.entries);
        // The model's notes about the output alone (extraction priced e-nodes it did not keep).
        let output_model = options.cost.model(rules, &program, options.runtime);
        program_cost(&program, output_model.as_ref());
        report.notes.extend(output_model.notes());
        report.instructions.after = program.num_insts();
        if let (Some(seeds), Some(input)) = (options.validate, &self.whole) {
            let t = Instant::now();
            report.validation = Some(crate::validate(
                input,
                &program,
                seeds,
                options.fast_math,
                &options.externs,
            )?);
            report.add_phase_time("validate", t.elapsed());
        }
        Ok(program)
    }
}

/// The steps after the pipeline: the input's own definitions of library externs given back,
/// the definitions rule files give injected, fused calls outlined and the program legalized
/// for a target when asked.
fn after_pipeline(
    mut program: Program,
    definitions: &[Function],
    rules: &RuleSet,
    options: &Options,
    report: &mut Report,
    mut provenance: Option<&mut Provenance>,
) -> Result<Program, Error> {
    let snapshot = |p: &Program| options.explain.then(|| Snapshot::of(p));
    if let Some(p) = provenance.as_deref_mut() {
        // Value numbers the pipeline freed may be given again by what follows.
        p.retain_defined(&program);
    }
    for name in keep_extern_definitions(&mut program, definitions) {
        if let Some(p) = provenance.as_deref_mut() {
            p.take_function(&name); // the input's own body: every op carried through
        }
    }
    for name in inject_definitions(&mut program, rules) {
        if let (Some(p), Some(f)) = (provenance.as_deref_mut(), program.function(&name)) {
            explain::mark_function(f, &format!("definition of @{name}"), p);
        }
        report
            .notes
            .push(format!("defined @{name} in the output, from its rule file"));
    }
    if options.outline {
        let before = snapshot(&program);
        for (callee, f) in ptir_rules::outline_loop_calls(&mut program, rules.loop_patterns()) {
            report.notes.push(format!(
                "outlined @{callee} as @{f}, defined by its loop pattern"
            ));
        }
        let done = ptir_convert::outline_fused_calls(&mut program).map_err(Error::Outline)?;
        for (ext, f) in &done.functions {
            report
                .notes
                .push(format!("outlined @{ext} as @{f}, defined in the output"));
        }
        if let (Some(s), Some(p)) = (before, provenance.as_deref_mut()) {
            s.mark_changes(&program, "outline", p);
        }
    }
    if let Some(target) = &options.target {
        let before = snapshot(&program);
        program = legalize(program, target, report)?;
        if let (Some(s), Some(p)) = (before, provenance) {
            s.mark_changes(&program, "convert", p);
        }
    }
    Ok(program)
}

/// Gives back their input bodies to the functions of the input that define a fused library
/// extern (`definitions`: their body is exactly its idiom, an outlined `@linear_0` or a
/// user's own `@softmax_fused` that computes it). The rules would raise such a body to a call
/// of the extern, which the function itself now is: a function calling itself forever.
/// Returns the names of the functions given back.
fn keep_extern_definitions(program: &mut Program, definitions: &[Function]) -> Vec<String> {
    let mut kept = Vec::new();
    for f in definitions {
        if let Some(out) = program.functions.iter_mut().find(|g| g.name == f.name) {
            kept.push(f.name.clone());
            *out = f.clone();
        }
    }
    kept
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
    report.add_phase_time("convert", t.elapsed());
    // A conversion verifies what it made before it keeps it.
    report.verifications += 1;
    report.conversion = Some(Conversion {
        target: target.name.clone(),
        rewrites: done
            .rewrites
            .into_iter()
            .map(|(rule, count)| RuleCount { rule, count })
            .collect(),
    });
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

/// Runs the options' pass pipeline ([`Options::pipeline`], else the engine's:
/// [`Engine::pipeline`]), built from a registry holding both engines' passes, the IR
/// transformations and the loop patterns, stopping rewriting by `deadline` (the run's), and records what each
/// pass did in `report`.
fn run_pipeline(
    mut program: Program,
    rules: std::sync::Arc<RuleSet>,
    model: std::sync::Arc<dyn ptir_cost::CostModel>,
    (options, deadline): (&Options, ptir_pass::Deadline),
    report: &mut Report,
    provenance: Option<&mut Provenance>,
) -> Result<Program, Error> {
    let text = match &options.pipeline {
        Some(text) => text.as_str(),
        None => options.engine.pipeline(),
    };
    let config = GreedyConfig::canonicalize()
        .with_log(options.step_log)
        .with_limits(&options.limits)
        .with_deadline(Some(deadline));
    // Compiled for the greedy driver only when a pipeline names `canonicalize`. `rules` is
    // already filtered by the options (fast-math among them): leave out only what no greedy
    // driver can run.
    let (greedy_rules, ops) = (rules.clone(), options.ops.clone());
    let canonicalize =
        move || {
            Ok(Canonicalize::with_filtered_rules_and_ops(
                &greedy_rules,
                &directed_rule_filter(),
                &ops,
            )?
            .with_config(config.with_ops(ops)))
        };
    let mut registry = PassRegistry::new();
    registry.register(
        LOOP_PATTERNS_PASS,
        "the rule files' loop patterns (.pat idioms over loops) raised to their calls",
        {
            let rules = rules.clone();
            move |o: &ptir_pass::PassOptions| {
                o.expect_none(LOOP_PATTERNS_PASS)?;
                Ok(Box::new(LoopPatterns(rules.clone())))
            }
        },
    );
    ptir_pass::transform::register_passes(&mut registry, options.unroll);
    ptir_greedy::register_passes_with(&mut registry, canonicalize);
    let engine = EngineOptions {
        saturation: options.saturation(),
        cost: model.clone(),
        extractor: options.extractor,
        dump_egraph: options.dump_egraph,
        explain: options.explain,
        step_log: options.step_log,
        deadline: Some(deadline),
    };
    ptir_egraph::register_passes(&mut registry, rules, engine);
    registry.register(
        SIBLING_REDUCTIONS_PASS,
        "sibling reductions merged into one multi_reduce (or one split) where the cost model says the runtime gains (exact)",
        {
            let model = model.clone();
            move |o: &ptir_pass::PassOptions| {
                o.expect_none(SIBLING_REDUCTIONS_PASS)?;
                Ok(Box::new(SiblingReductions(model.clone())))
            }
        },
    );
    let pm = registry
        .parse(text)?
        .with_verify_each(options.verify_each)
        .with_ir_after_each(options.ir_after_each);
    if options.dump_egraph && !pm.names().contains(&EQSAT_PASS) {
        return Err(Error::Options(
            "an e-graph dump (--dump-egraph) needs the eqsat engine: the greedy engine builds no e-graph".into(),
        ));
    }
    let pipeline = match provenance {
        Some(p) => pm.run_explained(&mut program, p)?,
        None => pm.run(&mut program)?,
    };
    record_pipeline(report, &pipeline);
    if options.pipeline.is_some() {
        report.engine = pm.names().join(",");
    }
    // Verified by the caller, where the program leaves the optimizer.
    Ok(program)
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

/// Why a raise the user's rules made is not in the output: for each of their rules that fired (in the
/// e-graph, where firing adds an alternative) and whose result calls a library extern that the
/// output does not call, a note saying that extraction priced the call higher under the
/// run's cost model, and how the model prices it (so a user's `:cost` is seen to count).
fn untaken_raises(program: &Program, rules: &RuleSet, report: &Report) -> Vec<String> {
    let called = program.called_names();
    let mut notes = Vec::new();
    for fired in &report.rules_fired {
        // The bundled raises are the cost model's to weigh on every run; the user's are
        // what a user wonders about.
        let Some(rule) = rules.rule(&fired.rule).filter(|r| !is_bundled(&r.location)) else {
            continue;
        };
        let callees = rule.result.terms.iter().filter_map(|t| match t {
            ptir_rules::Term::Op {
                callee: Some(c), ..
            } => Some(c),
            _ => None,
        });
        for callee in callees {
            let Some(spec) = rules.externs().get(callee) else {
                continue;
            };
            if called.contains(callee) {
                continue;
            }
            let priced = match (&spec.definition, ptir_rules::externs::reference_of(callee)) {
                (None, None) => format!(
                    "as a kernel of its own at its declared cost, {} per output element",
                    spec.cost
                ),
                _ => "as its defining body".to_string(),
            };
            notes.push(format!(
                "`{}` fired, but the output does not call @{callee}: extraction kept a form the \
                 {} cost model prices lower (it prices a call of @{callee} {priced})",
                rule.name, report.cost_model
            ));
        }
    }
    notes
}

/// Records in `report` what each pass of `pipeline` did, in the terms every pass reports in
/// ([`PassReport`](ptir_pass::PassReport)): phase times, notes, rules fired, banned and
/// skipped, how each run stopped, step logs, e-graph sizes and dumps, optimality, and the
/// pass manager's verifications.
fn record_pipeline(report: &mut Report, pipeline: &PipelineReport) {
    report.verifications += pipeline.verifications;
    let mut fired: indexmap::IndexMap<String, usize> = indexmap::IndexMap::new();
    for p in &pipeline.passes {
        if let Some(program) = &p.ir_after {
            report.ir_after.push(IrAfterPass {
                pass: p.pass.clone(),
                program: program.clone(),
            });
        }
        match p.phases.is_empty() {
            true => report.add_phase_time(&p.pass, p.time),
            false => (p.phases.iter()).for_each(|(phase, t)| report.add_phase_time(phase, *t)),
        }
        report.notes.extend(p.notes.iter().cloned());
        for (rule, n) in &p.rules_fired {
            *fired.entry(rule.clone()).or_default() += n;
        }
        for (rule, matches) in &p.rules_banned {
            match report.rules_banned.iter_mut().find(|b| b.rule == *rule) {
                Some(b) => b.count = b.count.max(*matches),
                None => report.rules_banned.push(RuleCount {
                    rule: rule.clone(),
                    count: *matches,
                }),
            }
        }
        for (rule, reason) in &p.rules_skipped {
            if !report.rules_skipped.iter().any(|k| k.rule == *rule) {
                report.rules_skipped.push(SkippedRule {
                    rule: rule.clone(),
                    reason: reason.clone(),
                });
            }
        }
        report
            .stops
            .extend(p.runs.iter().map(|(f, run)| FunctionRun {
                function: f.clone(),
                run: run.clone(),
            }));
        report
            .step_log
            .extend(p.step_logs.iter().map(|(f, text)| StepLog {
                pass: p.pass.clone(),
                function: f.clone(),
                text: text.clone(),
            }));
        if let Some(size) = p.egraph {
            *report.egraph.get_or_insert_default() += size;
        }
        report
            .egraphs
            .extend(p.dumps.iter().map(|(f, text)| FunctionText {
                function: f.clone(),
                text: text.clone(),
            }));
        if let Some(optimal) = p.optimal {
            report.extraction_optimal = Some(report.extraction_optimal.unwrap_or(true) && optimal);
        }
    }
    let mut fired: Vec<RuleCount> = fired
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(rule, count)| RuleCount { rule, count })
        .collect();
    fired.sort_by(|a, b| b.count.cmp(&a.count).then(a.rule.cmp(&b.rule)));
    report.rules_fired = fired;
}

/// How many times cheaper `--fast-math` must predict a program for [`fast_math_hint`] to say so.
pub const FAST_MATH_HINT_RATIO: f64 = 2.0;

/// What was left on the table: when `out` came from saturation without `--fast-math`, runs it
/// again with the fast-math rules and, if the cost model predicts the result more than
/// [`FAST_MATH_HINT_RATIO`] times cheaper, says by how much and by which rules (the note
/// `ptir-opt --report` adds). `None` when it is not, or when the options are not saturation's
/// plain engine.
///
/// The second run costs nothing it need not: it is made only when a fast-math rule matches
/// the input or `out`'s program somewhere (the match query, linear in the program: a program
/// with nothing to reassociate gets no second optimization), and only within the time the
/// first run left of the time limit, so that the two stay inside `--time-limit` together
/// (`None` when none is left).
pub fn fast_math_hint(
    program: &Program,
    options: &Options,
    out: &Optimized,
) -> Result<Option<String>, Error> {
    if options.fast_math || options.engine != Engine::Saturation || options.pipeline.is_some() {
        return Ok(None);
    }
    let spent: std::time::Duration = out.report.phases.iter().map(|p| p.time).sum();
    let Some(time_left) = options.limits.time.checked_sub(spent) else {
        return Ok(None);
    };
    let fast_options = Options {
        fast_math: true,
        validate: None,
        explain: false,
        prove_rules: false,
        limits: ptir_pass::Limits {
            time: time_left,
            ..options.limits.clone()
        },
        ..options.clone()
    };
    let fast_math_rules = load_rules(&fast_options)?;
    let only_fast_math = fast_math_rules.filtered(&ptir_rules::RuleFilter {
        enabled: vec![ptir_rules::FAST_MATH.to_string()],
        disabled: Vec::new(),
    });
    let reassociable =
        |p: &Program| ptir_greedy::find_matches(p, &only_fast_math).map(|m| !m.is_empty());
    if !reassociable(program)? && !reassociable(&out.program)? {
        return Ok(None);
    }
    // The rules loaded above, not loaded again (a large library takes a while).
    let fast = optimize_input(Cow::Borrowed(program), &fast_options, Some(fast_math_rules))?;
    let is_fast_math = |name: &str| only_fast_math.rule(name).is_some();
    let (now, then) = (out.report.cost_after, fast.report.cost_after);
    if then <= 0.0 || now / then <= FAST_MATH_HINT_RATIO {
        return Ok(None);
    }
    let fired_now: Vec<&str> = out
        .report
        .rules_fired
        .iter()
        .map(|r| r.rule.as_str())
        .collect();
    let new_rules: Vec<String> = (fast.report.rules_fired.iter())
        .filter(|r| !fired_now.contains(&r.rule.as_str()) && is_fast_math(&r.rule))
        .map(|r| format!("{} ({})", r.rule, r.count))
        .collect();
    Ok(Some(format!(
        "--fast-math would make the program {:.1}x cheaper under the {} cost model ({} -> {}), \
         reassociating floats with {}",
        now / then,
        out.report.cost_model,
        ptir_cost::format_cost(now),
        ptir_cost::format_cost(then),
        if new_rules.is_empty() {
            "the same rules".to_string()
        } else {
            new_rules.join(", ")
        }
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library `build.rs` compiled is the bundled text's, rule for rule (locations,
    /// loop patterns, externs and variadic rules included), and loads against a registry
    /// that adds to the standard one.
    #[test]
    fn the_compiled_bundled_library_is_the_bundled_text() {
        let parsed = RuleSet::bundled().unwrap();
        let mut registry = Registry::standard();
        registry.add_predicate("mine", 1, "a caller's own", |_| true);
        let loaded = RuleSet::from_compiled(BUNDLED_LIBRARY, registry.clone()).unwrap();
        assert_eq!(loaded.rules(), parsed.rules());
        assert_eq!(loaded.to_compiled(), parsed.to_compiled());
        assert_eq!(
            bundled_rules(&registry, None).unwrap().to_compiled(),
            parsed.to_compiled()
        );
    }

    /// A registry the bundled rules do not check against gets the parser's error, located
    /// in the rule text, not the compiled library's.
    #[test]
    fn a_registry_without_the_standard_predicates_gets_the_parsers_error() {
        let err = bundled_rules(&Registry::new(), None).unwrap_err();
        let parsed = RuleSet::bundled_with(Registry::new()).unwrap_err();
        assert_eq!(err.to_string(), parsed.to_string());
        assert!(err.to_string().starts_with("rules/"), "{err}");
        // A standard native registered again with another return kind: the compiled library
        // is refused as the text is (the parser checks what each native returns).
        let mut registry = Registry::standard();
        registry.add_native(
            "invert-perm",
            1,
            ptir_rules::AttrKind::Int,
            "not a permutation",
            |_| None,
        );
        assert!(RuleSet::from_compiled(BUNDLED_LIBRARY, registry.clone()).is_err());
        let err = bundled_rules(&registry, None).unwrap_err();
        assert!(err.to_string().contains("`invert-perm` returns"), "{err}");
    }
}
