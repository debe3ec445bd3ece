//! Proof by interpreter (issue 3): every bundled rule, and every rule of `rules/*.pat`, is
//! instantiated on [`SEEDS`] seeds (random shapes, dtypes and attributes from its source
//! pattern, its constraints satisfied: [`ptir_rules::example`]); both functions verify, and
//! `@source` and `@result` run on the same inputs (and the same rng seed) must agree:
//!
//! - **exact rules**: bit for bit (NaN equals NaN, `-0.0` differs from `+0.0`), on ordinary
//!   inputs and on inputs full of special values (NaN, ±inf, ±0, huge, tiny, subnormal, integer
//!   extremes), which catch identities that only hold for real numbers;
//! - **`fast-math` rules**: within [`ptir_rules::example::fast_math_tolerance`] (`1e-4 +
//!   1e-3·m`, `m` the largest finite magnitude of the source tensor), on two sets of ordinary
//!   inputs, skipping elements where the source is not finite; both at the example's own
//!   dtypes (f32 and f64 results) and with every float type promoted to f64 (all results:
//!   f16 and bf16 round too coarsely to compare reassociated sums at their own precision).
//!
//! Inputs on which the source itself fails (integer division by zero) prove nothing and are
//! skipped. A rule for which no seed gives an instance fails too: it was never checked.
//! A failure is a bug in the rule, not in this test; the message names the rule, where it is
//! written, the seed, the program and the differing values. With `PTIR_PROOF_REPORT=path` the
//! failures are also written to that file (Markdown).

use ptir_rules::example;
use ptir_rules::{Registry, Rule, RuleSet};
use std::collections::BTreeMap;
use std::time::Instant;

/// Seeds per rule (`PTIR_PROOF_SEEDS` overrides it, for a longer search).
const SEEDS: u64 = 50;

fn seeds() -> u64 {
    std::env::var("PTIR_PROOF_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SEEDS)
}

/// Fewest bundled rules the library should have.
const MIN_RULES: usize = 60;

/// The bundled rules plus the source-written patterns of `rules/*.pat` not bundled yet.
fn all_rules() -> RuleSet {
    let mut set = RuleSet::bundled().unwrap_or_else(|e| panic!("bundled rules: {e}"));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules");
    let mut pats: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    pats.retain(|p| p.extension().is_some_and(|x| x == "pat"));
    pats.sort();
    for p in pats {
        let name = format!("rules/{}", p.file_name().unwrap().to_string_lossy());
        if set.rules().iter().any(|r| r.location.file == name) {
            continue; // bundled already
        }
        let text = std::fs::read_to_string(&p).unwrap();
        set.add_pat_source(&name, &text)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    set
}

/// One way a rule failed its proof.
struct Failure {
    rule: String,
    location: String,
    message: String,
}

/// Proves one rule on every seed ([`example::prove`]); returns the number of examples checked.
fn prove(rule: &Rule, registry: &Registry, failures: &mut Vec<Failure>) -> usize {
    match example::prove(rule, registry, seeds()) {
        Ok(p) => p.examples,
        Err(e) => {
            failures.push(Failure {
                rule: rule.name.clone(),
                location: rule.location.to_string(),
                message: e.to_string(),
            });
            0
        }
    }
}

/// Writes the failures as Markdown to `$PTIR_PROOF_REPORT`, if set.
fn report(failures: &[Failure], summary: &str) {
    let Ok(path) = std::env::var("PTIR_PROOF_REPORT") else {
        return;
    };
    let mut md = format!(
        "# Proof failures\n\nWritten by `cargo test -p ptir-rules --test proof` (do not commit).\n\n{summary}\n"
    );
    if failures.is_empty() {
        md.push_str("\nNo rule failed.\n");
    }
    for f in failures {
        md.push_str(&format!(
            "\n## `{}` ({})\n\n```text\n{}\n```\n",
            f.rule, f.location, f.message
        ));
    }
    std::fs::write(&path, md).unwrap_or_else(|e| panic!("writing {path}: {e}"));
}

#[test]
fn every_rule_is_proven_by_the_interpreter() {
    let start = Instant::now();
    let set = all_rules();
    let mut failures = Vec::new();
    let mut per_file: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for rule in set.rules() {
        let before = failures.len();
        let examples = prove(rule, set.registry(), &mut failures);
        let entry = per_file.entry(rule.location.file.clone()).or_default();
        entry.0 += usize::from(failures.len() == before);
        entry.1 += 1;
        entry.2 += examples;
    }
    let mut summary = String::new();
    for (file, (ok, all, examples)) in &per_file {
        summary.push_str(&format!(
            "{file}: {ok}/{all} rules proven ({examples} examples)\n"
        ));
    }
    summary.push_str(&format!(
        "{} rules, {} failed, in {:.1?}\n",
        set.rules().len(),
        failures.len(),
        start.elapsed()
    ));
    println!("{summary}");
    report(&failures, &summary);
    let messages: Vec<String> = failures
        .iter()
        .map(|f| format!("rule `{}` ({}): {}", f.rule, f.location, f.message))
        .collect();
    assert!(
        failures.is_empty(),
        "{} rule(s) failed their proof:\n\n{}",
        failures.len(),
        messages.join("\n\n")
    );
}

#[test]
fn bundled_rules_are_documented_and_plenty() {
    let set = RuleSet::bundled().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        set.undocumented(),
        Vec::<&str>::new(),
        "rules without a doc comment"
    );
    assert!(
        set.rules().len() >= MIN_RULES,
        "only {} bundled rules, expected at least {MIN_RULES}",
        set.rules().len()
    );
}

#[test]
fn every_extern_a_result_calls_has_a_reference() {
    let set = all_rules();
    let mut missing = Vec::new();
    for rule in set.rules() {
        for t in &rule.result.terms {
            if let ptir_rules::Term::Op {
                callee: Some(c), ..
            } = t
            {
                let in_source =
                    rule.source.terms.iter().any(
                        |s| matches!(s, ptir_rules::Term::Op { callee: Some(d), .. } if d == c),
                    );
                if !in_source && !ptir_rules::externs::has_reference(c) {
                    missing.push(format!("@{c} (rule `{}`, {})", rule.name, rule.location));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "externs without a reference implementation in ptir_rules::externs: {}",
        missing.join(", ")
    );
}
