//! `ptir-opt diff`: on a file, or on generated programs with a progress bar.
//!
//! `--random N` diffs programs of the extended generator (`GenConfig::extended`, with the
//! bundled rules' extern names to clash with; `--classic` for the plain one, `--chain LEN`
//! for long chains) and, with `--rule-fuzz K`, loads K generated rules that the interpreter
//! proof accepts into both engines and adds their probe programs, and makes loop patterns
//! from the loops of K more generated programs, each raised (with `--outline`) in the program
//! it came from. Inputs on which the input
//! program itself fails are skipped and counted; mismatching programs are counted per class.

use crate::{CliError, ExtractArgs, LimitArgs, RuleArgs};
use indicatif::{ProgressBar, ProgressStyle};
use ptir::ir::generate::{generate, GenConfig};
use ptir::ir::Program;
use ptir::rules::fuzz;
use ptir::{DiffReport, Mismatch};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Programs diffed per parallel batch (the progress bar advances per batch).
const BATCH: usize = 64;

/// Seeds on which `--rule-fuzz` proves each generated rule.
const RULE_FUZZ_PROOF_SEEDS: u64 = 16;

/// Probe programs per probe pattern of each accepted fuzzed rule.
const PROBES_PER_PATTERN: usize = 2;

/// Where the seeds of `--rule-fuzz`'s loop-pattern programs start, past the run's seed (away
/// from the generated programs' seeds).
const LOOP_PROBE_SEED_OFFSET: u64 = 1 << 40;

/// The size of the programs loop patterns are made from.
const LOOP_PROBE_SIZE: usize = 30;

/// How `diff --random` makes its programs.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct GenArgs {
    /// With --random: the plain generator (no trapping or looping helpers, guarded
    /// divisions, huge broadcasts, fusion idioms or functions named like rule externs).
    #[arg(long, requires = "random")]
    classic: bool,
    /// With --random: long-chain mode, every program one chain of LEN elementwise
    /// instructions (slow to diff: use with a small N).
    #[arg(long, value_name = "LEN", requires = "random")]
    chain: Option<usize>,
    /// With --random: generate K rules, load those the interpreter proof accepts into both
    /// engines, check that each refused one is refused on load, and diff their probe
    /// programs (instances of their sources and near misses) too; and make a loop pattern
    /// from the first loop of each of K more generated programs, diffed with it (and
    /// --outline) on the program it came from.
    #[arg(long, value_name = "K", requires = "random")]
    rule_fuzz: Option<usize>,
}

/// The options of both engines: rules, limits and extraction (the engine, the report and
/// the dumps are the diff's own business).
pub(crate) fn options(
    rules: &RuleArgs,
    limits: &LimitArgs,
    extract: &ExtractArgs,
) -> Result<ptir::Options, CliError> {
    let mut options = ptir::Options::default();
    rules.apply(&mut options)?;
    limits.apply(&mut options)?;
    extract.apply(&mut options)?;
    Ok(options)
}

/// Runs the diff; returns the text to print and whether the engines agreed.
pub(crate) fn run(
    file: Option<(&str, Program)>,
    random: Option<usize>,
    seed: u64,
    size: usize,
    list: bool,
    gen: &GenArgs,
    options: &ptir::Options,
) -> Result<(String, bool), CliError> {
    match (file, random) {
        (Some((path, program)), _) => {
            let report = ptir::diff(&program, options).map_err(|source| CliError::Optimize {
                path: path.to_string(),
                source,
            })?;
            let ok = report.ok();
            Ok((
                format!("{report}{}\n", if ok { "OK" } else { "MISMATCH" }),
                ok,
            ))
        }
        (None, Some(n)) => random_diff(n, seed, size, list, gen, options),
        (None, None) => Err(CliError::Usage {
            path: "diff".into(),
            message: "give a file or --random N".into(),
        }),
    }
}

/// One program of a random run.
struct Case {
    /// `seed S` or `probe R#i`.
    label: String,
    program: Program,
    /// A probe program of a fuzzed rule (rather than a generated program).
    probe: bool,
    /// A loop pattern made from the program's own first loop
    /// ([`fuzz::loop_pattern_probe`]), loaded for this program only, with `--outline`.
    loop_pattern: Option<ptir::RuleText>,
    /// Keep its loops (no unrolling): every other generated program, so that the engines
    /// still meet loops and the unroller meets the rest.
    rolled: bool,
}

/// The rule externs of the bundled library: the names generated programs clash with.
fn rule_extern_names() -> Vec<String> {
    ptir::rules::RuleSet::bundled()
        .map(|set| set.externs().keys().cloned().collect())
        .unwrap_or_default()
}

/// The class a flagged program counts under (the first that applies), `None` if the
/// engines agreed.
fn class_of(
    case: &Case,
    result: &std::thread::Result<Result<DiffReport, ptir::Error>>,
    clash_names: &[String],
) -> Option<&'static str> {
    let report = match result {
        Err(_) => return Some("panic"),
        Ok(Err(_)) => return Some("error"),
        Ok(Ok(r)) if r.ok() => return None,
        Ok(Ok(r)) => r,
    };
    let has = |f: fn(&Mismatch) -> bool| report.mismatches.iter().any(f);
    let clash = case
        .program
        .functions
        .iter()
        .any(|f| clash_names.contains(&f.name));
    let output_fails =
        |m: &Mismatch| matches!(m, Mismatch::Results { divergence, .. } if divergence.got.is_err());
    Some(if has(|m| matches!(m, Mismatch::Failed { .. })) {
        "engine failed"
    } else if has(output_fails) {
        "output fails where the input runs (speculation)"
    } else if has(|m| matches!(m, Mismatch::Results { .. })) {
        if case.probe {
            "results differ (rule-fuzz probe)"
        } else if clash {
            "results differ (user function named like a rule extern)"
        } else {
            "results differ (generated program)"
        }
    } else {
        "eqsat costs more than greedy"
    })
}

/// The fuzzed rules and their probe programs (`--rule-fuzz K`); adds the accepted rules to
/// `options` and writes what the fuzzer did to `out`. Also returns how many rules the proof
/// refused that loading with `--prove-rules` accepts, or refuses without a location (each is
/// an error of the run: a user loading it would not be stopped).
fn rule_fuzz(
    k: usize,
    seed: u64,
    options: &mut ptir::Options,
    out: &mut String,
) -> (Vec<Case>, usize) {
    let fuzzed = fuzz::fuzz_rules(seed, k, RULE_FUZZ_PROOF_SEEDS);
    let mut not_refused = 0;
    for (r, _) in &fuzzed.rejected {
        let opts = ptir::Options {
            rule_texts: vec![ptir::RuleText::new("fuzz.rules", r.text.clone())],
            prove_rules: true,
            ..ptir::Options::default()
        };
        match ptir::load_rules(&opts) {
            Err(e) if e.to_string().starts_with("fuzz.rules:") => {}
            Err(e) => {
                not_refused += 1;
                let _ = writeln!(out, "rule {}: refused without a location: {e}", r.name);
            }
            Ok(_) => {
                not_refused += 1;
                let _ = writeln!(
                    out,
                    "rule {}: the proof refuses it but --prove-rules loads it",
                    r.name
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "rule fuzz: {k} rules, {} accepted by the proof, {} refused ({} of them refused on load with --prove-rules, located), {} not checkable, {} ill-formed",
        fuzzed.accepted.len(),
        fuzzed.rejected.len(),
        fuzzed.rejected.len() - not_refused,
        fuzzed.unchecked.len(),
        fuzzed.ill_formed.len()
    );
    options
        .rule_texts
        .push(ptir::RuleText::new("fuzz.rules", fuzzed.rules_text()));
    let mut cases = Vec::new();
    for r in fuzzed.accepted.iter().filter(|r| !r.cyclic) {
        for (i, program) in fuzz::probe_programs(r, seed, PROBES_PER_PATTERN)
            .into_iter()
            .enumerate()
        {
            cases.push(Case {
                label: format!("probe {}#{i}", r.name),
                program,
                probe: true,
                loop_pattern: None,
                rolled: false,
            });
        }
    }
    // Loop patterns: one per generated program that has a loop a pattern may hold, made from
    // that loop and raised in the program it came from.
    let mut loops = 0;
    for i in 0..k as u64 {
        let s = seed.wrapping_add(LOOP_PROBE_SEED_OFFSET).wrapping_add(i);
        let program = generate(&GenConfig::extended(s, LOOP_PROBE_SIZE, Vec::new()));
        let name = format!("fuzz_loop_{i}");
        if let Some(text) = fuzz::loop_pattern_probe(&program, &name) {
            loops += 1;
            cases.push(Case {
                label: format!("loop probe {name} (seed {s})"),
                program,
                probe: true,
                loop_pattern: Some(ptir::RuleText::new(format!("{name}.pat"), text)),
                // The pattern is made from the loop: it must meet the loop.
                rolled: true,
            });
        }
    }
    let _ = writeln!(
        out,
        "loop fuzz: {loops} loop patterns made from the loops of {k} programs"
    );
    (cases, not_refused)
}

/// `stops` as `eqsat: node-limit 1, saturated 39; greedy: converged 40`.
fn stop_tally(stops: &BTreeMap<(&'static str, &'static str), usize>) -> String {
    let stops: Vec<_> = stops.iter().collect();
    let engines: Vec<String> = (stops.chunk_by(|a, b| a.0 .0 == b.0 .0))
        .map(|kinds| {
            let counts: Vec<String> = (kinds.iter())
                .map(|((_, kind), n)| format!("{kind} {n}"))
                .collect();
            format!("{}: {}", kinds[0].0 .0, counts.join(", "))
        })
        .collect();
    engines.join("; ")
}

fn random_diff(
    n: usize,
    seed: u64,
    size: usize,
    list: bool,
    gen: &GenArgs,
    options: &ptir::Options,
) -> Result<(String, bool), CliError> {
    let start = Instant::now();
    let mut out = String::new();
    let mut options = options.clone();
    // User rule files are proven once here rather than once per program.
    ptir::load_rules(&options).map_err(|source| CliError::Optimize {
        path: "--rules".into(),
        source,
    })?;
    let (extra, mut errors) = match gen.rule_fuzz {
        Some(k) => rule_fuzz(k, seed, &mut options, &mut out),
        None => (Vec::new(), 0),
    };
    options.prove_rules = false;
    let clash_names = if gen.classic {
        Vec::new()
    } else {
        rule_extern_names()
    };
    let config = |s: u64| {
        if gen.classic {
            GenConfig::new(s, size)
        } else {
            GenConfig {
                chain_len: gen.chain.unwrap_or(0),
                ..GenConfig::extended(s, size, clash_names.clone())
            }
        }
    };
    let total = n + extra.len();
    let mut rolled = options.clone();
    rolled.unroll.max_trips = 0;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(total as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} programs, {elapsed} ({eta} left)")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // The smallest mismatching program, by instruction count.
    let mut worst: Option<(usize, String, String)> = None;
    // The program that took longest (a campaign's stalls are found by it).
    let mut slowest: Option<(Duration, String)> = None;
    // Engine runs over their time limit's bound, and the worst of them.
    let mut overshoots = 0;
    let mut worst_overshoot: Option<(ptir::Overshoot, String)> = None;
    let (mut mismatches, mut insts, mut skipped) = (0, 0, 0);
    // Programs whose eqsat output costs more than greedy's where the claim is not checked.
    let mut dearer_unchecked = 0;
    let mut classes: BTreeMap<&'static str, usize> = BTreeMap::new();
    // Per engine, how its rewriting runs stopped, by kind.
    let mut stops: BTreeMap<(&'static str, &'static str), usize> = BTreeMap::new();
    // Why costs were not compared (the same for every program: it follows the extractor).
    let mut cost_unchecked = None;
    let mut extra = extra.into_iter();
    let mut first = 0;
    while first < total {
        let count = BATCH.min(total - first);
        let cases: Vec<Case> = (first..first + count)
            .filter_map(|i| {
                if i < n {
                    let s = seed + i as u64;
                    Some(Case {
                        label: format!("seed {s}"),
                        program: generate(&config(s)),
                        probe: false,
                        loop_pattern: None,
                        rolled: s % 2 == 1,
                    })
                } else {
                    extra.next()
                }
            })
            .collect();
        let results: Vec<_> = cases
            .par_iter()
            .map(|c| {
                let t = Instant::now();
                let r = catch_unwind(AssertUnwindSafe(|| match &c.loop_pattern {
                    None if c.rolled => ptir::diff(&c.program, &rolled),
                    None => ptir::diff(&c.program, &options),
                    Some(pat) => {
                        let mut with_loop = if c.rolled {
                            rolled.clone()
                        } else {
                            options.clone()
                        };
                        with_loop.rule_texts.push(pat.clone());
                        with_loop.outline = true;
                        ptir::diff(&c.program, &with_loop)
                    }
                }));
                (r, t.elapsed())
            })
            .collect();
        for (case, (r, took)) in cases.iter().zip(results) {
            if slowest.as_ref().is_none_or(|(t, _)| took > *t) {
                slowest = Some((took, case.label.clone()));
            }
            let p = &case.program;
            insts += p.num_insts();
            if let Ok(Ok(r)) = &r {
                cost_unchecked = cost_unchecked.or(r.cost_unchecked);
                skipped += r.skipped;
                for (engine, stop) in &r.stops {
                    *stops.entry((engine, stop.kind())).or_default() += 1;
                    if list && !stop.is_fixpoint() {
                        let _ = writeln!(out, "{}: {engine} stopped: {stop}", case.label);
                    }
                }
                for o in &r.overshoots {
                    overshoots += 1;
                    if list {
                        let _ = writeln!(out, "{}: time limit overshot: {o}", case.label);
                    }
                    if worst_overshoot
                        .as_ref()
                        .is_none_or(|(w, _)| o.took > w.took)
                    {
                        worst_overshoot = Some((o.clone(), case.label.clone()));
                    }
                }
                let ptir::DiffCosts { greedy, eqsat, .. } = r.costs;
                if r.cost_unchecked.is_some() && r.costs.eqsat_dearer() {
                    dearer_unchecked += 1;
                    if list {
                        let _ = writeln!(
                            out,
                            "{}: eqsat costs {eqsat} > greedy {greedy} (not compared)",
                            case.label
                        );
                    }
                }
            }
            let Some(class) = class_of(case, &r, &clash_names) else {
                continue;
            };
            *classes.entry(class).or_default() += 1;
            match r {
                Ok(Ok(r)) => {
                    mismatches += 1;
                    if list {
                        let lines: Vec<String> = r
                            .mismatches
                            .iter()
                            .map(|m| m.to_string().lines().next().unwrap_or_default().to_string())
                            .collect();
                        let _ = writeln!(
                            out,
                            "{} ({} instructions): {}",
                            case.label,
                            p.num_insts(),
                            lines.join("; ")
                        );
                    }
                    if worst.as_ref().is_none_or(|(w, _, _)| p.num_insts() < *w) {
                        worst = Some((p.num_insts(), case.label.clone(), format!("{r}\n{p}")));
                    }
                }
                Ok(Err(e)) => {
                    errors += 1;
                    let _ = writeln!(out, "{}: {e}", case.label);
                }
                Err(_) => {
                    errors += 1;
                    let _ = writeln!(out, "{}: panicked", case.label);
                }
            }
        }
        first += count;
        bar.set_position(first as u64);
    }
    bar.finish_and_clear();
    let generator = match (gen.classic, gen.chain) {
        (true, _) => "classic".to_string(),
        (false, Some(len)) => format!("extended, chains of {len}"),
        (false, None) => "extended".to_string(),
    };
    let _ = writeln!(
        out,
        "{total} programs ({n} generated ({generator}), seeds {seed}..{}, size {size}; {} rule-fuzz probes; {insts} instructions): {mismatches} mismatches, {errors} errors, {skipped} runs skipped (the input fails, or computes a NaN under --fast-math), {:.2?}",
        seed + n as u64,
        total - n,
        start.elapsed()
    );
    if let Some((took, label)) = &slowest {
        let _ = writeln!(out, "slowest program: {label}, {took:.2?}");
    }
    if !stops.is_empty() {
        let _ = writeln!(out, "stops by kind: {}", stop_tally(&stops));
    }
    if let Some((o, label)) = &worst_overshoot {
        let _ = writeln!(
            out,
            "time limit overshot by {overshoots} engine run(s), by more than twice the limit plus 100 ms (wall time: a loaded machine can cause it); the worst: {label}, {o}"
        );
    }
    if !classes.is_empty() {
        let items: Vec<String> = classes.iter().map(|(c, k)| format!("{c}: {k}")).collect();
        let _ = writeln!(out, "flagged by class: {}", items.join(", "));
    }
    if let Some(why) = cost_unchecked {
        let _ = writeln!(
            out,
            "cost not compared ({dearer_unchecked} programs where eqsat's output costs more than greedy's): {why}"
        );
    }
    if let Some((k, label, text)) = worst {
        let _ = writeln!(
            out,
            "smallest mismatching program: {label}, {k} instructions\n{text}"
        );
    }
    Ok((out, mismatches == 0 && errors == 0))
}
