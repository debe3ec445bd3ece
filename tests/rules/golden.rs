//! Golden tests of the bundled rule library (`rules/*.rules` and `rules/*.pat`), one rule at a
//! time, through the greedy canonicalize pass.
//!
//! Every file `tests/golden/<rule>[.<variant>].ptir` is a **positive** case: canonicalizing it
//! with only `<rule>` enabled (`RuleFilter { enabled: [<rule>] }`) must fire that rule at least
//! once and print exactly `tests/golden/<rule>[.<variant>].out.ptir`. Every file
//! `tests/golden/<rule>.neg[-<variant>].ptir` is a **negative** case, a near miss: the rule must
//! not fire and the program must come out unchanged.
//!
//! The pass is [`Canonicalize`] with [`GreedyConfig::canonicalize`] (top-down, constant
//! deduplication, region simplification, iteration limit 10) with **folding off**, so that the
//! rule does the work (the folders already know `x * 1`, `neg(neg x)`, ... and would otherwise
//! take over), and with the expensive checks on, so a rule that lies about changing the IR or
//! leaves IR that does not verify fails here. Nothing runs after it (no CSE, no DCE).
//!
//! - Re-bless the expected outputs: `PTIR_BLESS=1 cargo test --release --test rules -- golden::`.
//! - Make the cases of rules that have none (the input is `@source` of
//!   `ptir_rules::example::instantiate`, the negative a mechanical near miss of it):
//!   `cargo test --release --test rules -- --ignored golden::generate_missing_cases`, then bless.
//!
//! `tests/golden/README.md` lists the rules that have no negative case, and why.

#[path = "golden_gen/mod.rs"]
mod golden_gen;

use ptir_greedy::{Canonicalize, CanonicalizeStats, GreedyConfig, GreedyStats};
use ptir_ir::Program;
use ptir_pass::Pass;
use ptir_rules::{RuleFilter, RuleSet};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Where the cases live.
fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// A rule that keeps rewriting its own results (the commutativity rules of `algebra.rules`)
/// would rewrite forever within one iteration; this cap on pattern applications over the run
/// (`GreedyConfig::max_rewrites`) ends such a run after 64 rewrites, deterministically.
pub const MAX_REWRITES: usize = 64;

/// The pass config of every golden case; see the module docs.
pub fn golden_config() -> GreedyConfig {
    GreedyConfig::canonicalize()
        .with_fold(false)
        .with_expensive_checks(true)
        .with_max_rewrites(Some(MAX_REWRITES))
}

/// Canonicalizes `program` with only `rule` enabled; returns the output and the counters.
pub fn run_rule(
    rules: &RuleSet,
    rule: &str,
    program: &Program,
) -> Result<(Program, GreedyStats), String> {
    let filter = RuleFilter {
        enabled: vec![rule.to_string()],
        disabled: Vec::new(),
    };
    let pass = Canonicalize::with_filtered_rules(rules, &filter)
        .map_err(|e| e.to_string())?
        .with_config(golden_config());
    if pass.patterns().len() != 1 {
        return Err(format!(
            "the filter keeps {} patterns, not just `{rule}`",
            pass.patterns().len()
        ));
    }
    let mut out = program.clone();
    let report = pass.run(&mut out).map_err(|e| e.to_string())?;
    ptir_ir::verify(&out).map_err(|e| format!("the output does not verify:\n{e}"))?;
    Ok((
        out,
        report
            .stats::<CanonicalizeStats>()
            .map(|s| s.driver.clone())
            .unwrap_or_default(),
    ))
}

/// Times `rule` fired.
pub fn fired(stats: &GreedyStats, rule: &str) -> usize {
    stats.rewrites.get(rule).copied().unwrap_or(0)
}

/// What a case file is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// Must fire; its expected output is in `expected`.
    Positive { expected: PathBuf },
    /// Must not fire, nor change anything.
    Negative,
}

/// The rule and kind of a case file name, `None` for an expected output or another file.
fn classify(path: &Path) -> Option<(String, Kind)> {
    let name = path.file_name()?.to_str()?;
    let stem = name.strip_suffix(".ptir")?;
    if stem.ends_with(".out") {
        return None;
    }
    let (rule, variant) = match stem.split_once('.') {
        Some((r, v)) => (r, Some(v)),
        None => (stem, None),
    };
    let kind = match variant {
        Some(v) if v == "neg" || v.starts_with("neg-") => Kind::Negative,
        _ => Kind::Positive {
            expected: path.with_file_name(format!("{stem}.out.ptir")),
        },
    };
    Some((rule.to_string(), kind))
}

/// The header of a blessed expected output.
fn out_header(rule: &str) -> String {
    format!(
        "// expected output: greedy canonicalize with only `{rule}` enabled, folding off\n\
         // (tests/rules/golden.rs). Re-bless with PTIR_BLESS=1 cargo test --release --test rules -- golden::.\n"
    )
}

/// Checks one case file; `bless` rewrites a positive case's expected output.
fn check(rules: &RuleSet, path: &Path, bless: bool) -> Result<(), String> {
    let Some((rule, kind)) = classify(path) else {
        return Ok(());
    };
    if rules.rule(&rule).is_none() {
        return Err(format!("no bundled rule named `{rule}`"));
    }
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let input = ptir_ir::parse(&text).map_err(|e| format!("does not parse: {e}"))?;
    ptir_ir::verify(&input).map_err(|e| format!("does not verify:\n{e}"))?;
    let (out, stats) = run_rule(rules, &rule, &input)?;
    let printed = ptir_ir::print(&out);
    match kind {
        Kind::Negative => {
            if fired(&stats, &rule) != 0 {
                return Err(format!("`{rule}` fired on a near miss; output:\n{printed}"));
            }
            let before = ptir_ir::print(&input);
            if printed != before {
                return Err(format!("the program changed:\n{before}\n=>\n{printed}"));
            }
            Ok(())
        }
        Kind::Positive { expected } => {
            if fired(&stats, &rule) == 0 {
                return Err(format!(
                    "`{rule}` did not fire; output:\n{printed}\n{stats}"
                ));
            }
            if bless {
                return std::fs::write(&expected, out_header(&rule) + &printed)
                    .map_err(|e| e.to_string());
            }
            let want = std::fs::read_to_string(&expected)
                .map_err(|e| format!("{}: {e} (bless with PTIR_BLESS=1)", expected.display()))?;
            let want = ptir_ir::parse(&want)
                .map(|p| ptir_ir::print(&p))
                .map_err(|e| format!("{}: does not parse: {e}", expected.display()))?;
            if printed != want {
                return Err(format!(
                    "output differs from {} (re-bless with PTIR_BLESS=1 if intended):\n\
                     --- expected\n{want}--- got\n{printed}",
                    expected.display()
                ));
            }
            Ok(())
        }
    }
}

/// Every case file, sorted.
fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| classify(p).is_some());
    files.sort();
    files
}

fn bundled() -> RuleSet {
    RuleSet::bundled().expect("the bundled rules load")
}

#[test]
fn golden_cases() {
    let rules = bundled();
    let bless = std::env::var_os("PTIR_BLESS").is_some_and(|v| v != "0");
    let files = case_files();
    assert!(
        !files.is_empty(),
        "no golden cases in {}",
        golden_dir().display()
    );
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            check(&rules, f, bless)
                .err()
                .map(|e| format!("{}: {e}", f.display()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} golden cases failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// Rules listed in the README's "No negative case" section.
fn rules_without_negative() -> BTreeSet<String> {
    let readme = std::fs::read_to_string(golden_dir().join("README.md")).unwrap_or_default();
    let section = readme
        .split("## No negative case")
        .nth(1)
        .unwrap_or("")
        .split("\n## ")
        .next()
        .unwrap_or("");
    section
        .lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_bundled_rule_has_a_positive_and_a_negative_case() {
    let rules = bundled();
    let mut positive = BTreeSet::new();
    let mut negative = BTreeSet::new();
    for f in case_files() {
        match classify(&f) {
            Some((r, Kind::Positive { .. })) => positive.insert(r),
            Some((r, Kind::Negative)) => negative.insert(r),
            None => false,
        };
    }
    let excused = rules_without_negative();
    let names: Vec<&str> = rules.rules().iter().map(|r| r.name.as_str()).collect();
    let no_pos: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !positive.contains(*n))
        .collect();
    let no_neg: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !negative.contains(*n) && !excused.contains(*n))
        .collect();
    assert!(
        no_pos.is_empty(),
        "rules without a positive golden case: {no_pos:?}"
    );
    assert!(
        no_neg.is_empty(),
        "rules without a negative golden case (add one, or list the rule under \
         `## No negative case` in tests/golden/README.md with the reason): {no_neg:?}"
    );
    let stale: Vec<&String> = excused.iter().filter(|n| negative.contains(*n)).collect();
    assert!(
        stale.is_empty(),
        "README excuses rules that have a negative case: {stale:?}"
    );
}

/// Writes a positive case (and, where a near miss is found, a negative one) for every bundled
/// rule that has no positive case yet. Run it, then bless.
#[test]
#[ignore = "generator: writes tests/golden/*.ptir"]
fn generate_missing_cases() {
    let rules = bundled();
    let dir = golden_dir();
    std::fs::create_dir_all(&dir).expect("the golden directory can be created");
    let mut report = Vec::new();
    for rule in rules.rules() {
        let pos = dir.join(format!("{}.ptir", rule.name));
        let neg = dir.join(format!("{}.neg.ptir", rule.name));
        let line = golden_gen::generate(&rules, rule, &pos, &neg);
        report.push(format!("{:<40} {line}", rule.name));
    }
    println!("{}", report.join("\n"));
}
