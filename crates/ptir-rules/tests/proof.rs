//! Proof by interpreter: every bundled rule, every rule of `rules/*.pat` and of
//! `tests/fixtures/*.pat` (a `.pat` with named dimensions through its specializations at
//! several sizes, see [`add_pat`]; a `.pat` definition stands in for its extern), is
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

use ptir_rules::example::{self, InstantiateError};
use ptir_rules::{Rule, RuleSet};
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

/// The bundled rules plus the source-written patterns of `rules/*.pat` not bundled yet and of
/// the generic test fixtures (`tests/fixtures/*.pat`).
fn all_rules() -> RuleSet {
    let mut set = RuleSet::bundled().unwrap_or_else(|e| panic!("bundled rules: {e}"));
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for dir in ["rules", "tests/fixtures"] {
        let mut pats: Vec<_> = std::fs::read_dir(root.join(dir))
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        pats.retain(|p| p.extension().is_some_and(|x| x == "pat"));
        pats.sort();
        for p in pats {
            let name = format!("{dir}/{}", p.file_name().unwrap().to_string_lossy());
            if set.rules().iter().any(|r| r.location.file == name) {
                continue; // bundled already
            }
            let text = std::fs::read_to_string(&p).unwrap();
            add_pat(&mut set, &name, &text);
        }
    }
    set
}

/// Replaces the declaration of every extern whose rule file defines it (a `.pat` definition)
/// with that definition, as `ptir::optimize` does in its output.
fn define_externs(program: &mut ptir_ir::Program, set: &RuleSet) {
    for (name, spec) in set.externs() {
        if let Some(def) = &spec.definition {
            if program.extern_decl(name).is_some() && program.function(name).is_none() {
                program.externs.retain(|e| e.name != *name);
                program.functions.push(def.clone());
            }
        }
    }
}

/// Sizes each named dimension of a generic `.pat` takes in turn: 1 (a degenerate axis), small
/// and odd, and the corpus' 8.
const DIM_SIZES: [usize; 3] = [1, 3, 8];

/// Adds the rules of a `.pat` file. An idiom with named dimensions (`f32[?m,?n]`) is proven
/// through its specializations: every named dimension at each of [`DIM_SIZES`] (dimension `i`
/// of a combination takes `DIM_SIZES[(c + i) % 3]`, so every size is seen by every dimension),
/// each a fixed-shape rule named `NAME@m=3,n=8`. The generic rule's constraints accept exactly
/// the programs its specializations match, so proving these proves it at those sizes.
fn add_pat(set: &mut RuleSet, file: &str, text: &str) {
    let dims = ptir_rules::pat_dims(file, text).unwrap_or_else(|e| panic!("{e}"));
    if dims.is_empty() {
        set.add_pat_source(file, text)
            .unwrap_or_else(|e| panic!("{e}"));
        return;
    }
    for c in 0..DIM_SIZES.len() {
        let sizes: indexmap::IndexMap<String, usize> = dims
            .iter()
            .enumerate()
            .map(|(i, d)| (d.clone(), DIM_SIZES[(c + i) % DIM_SIZES.len()]))
            .collect();
        let tag: Vec<String> = sizes.iter().map(|(d, n)| format!("{d}={n}")).collect();
        let fixed =
            ptir_rules::specialize_pat(file, text, &sizes).unwrap_or_else(|e| panic!("{e}"));
        let contents = ptir_rules::parse_pat(file, &fixed).unwrap_or_else(|e| panic!("{e}"));
        for mut rule in contents.rules {
            rule.name = format!("{}@{}", rule.name, tag.join(","));
            set.add_rule(rule).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// One way a rule failed its proof.
struct Failure {
    rule: String,
    location: String,
    message: String,
}

/// Proves one rule on every seed; returns the number of examples checked.
fn prove(rule: &Rule, set: &RuleSet, failures: &mut Vec<Failure>) -> usize {
    let registry = set.registry();
    let fail = |message: String| Failure {
        rule: rule.name.clone(),
        location: rule.location.to_string(),
        message,
    };
    let (mut found, mut compared) = (0, 0);
    let mut reason = String::new();
    for seed in 0..seeds() {
        let mut ex = match example::instantiate(rule, registry, seed) {
            Ok(ex) => ex,
            Err(InstantiateError::NoInstance { reason: r, .. }) => {
                reason = r;
                continue;
            }
            Err(e) => {
                failures.push(fail(format!("seed {seed}: {e}")));
                return found;
            }
        };
        found += 1;
        define_externs(&mut ex.program, set);
        match example::check_example(rule, &ex) {
            Ok(n) => compared += n,
            Err(message) => {
                failures.push(fail(message));
                return found;
            }
        }
    }
    if found == 0 {
        failures.push(fail(format!(
            "no instance in any of {} seeds ({} attempts each); the last attempt failed because {reason}",
            seeds(),
            example::ATTEMPTS
        )));
    } else if compared == 0 {
        failures.push(fail(format!(
            "never compared: @source fails on every input of its {found} examples"
        )));
    }
    found
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
        let examples = prove(rule, &set, &mut failures);
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

/// Seeds per rule and integer dtype in [`integer_rules_are_proven_on_every_integer_dtype`].
const DTYPE_SEEDS: u64 = 12;

/// Does `@source` of `ex` take or compute a value of dtype `d`?
fn touches(ex: &example::Example, d: ptir_ir::DType) -> bool {
    let is = |t: &ptir_ir::Type| t.as_tensor().is_some_and(|t| t.dtype == d);
    ex.program
        .functions
        .iter()
        .filter(|f| f.name == example::SOURCE)
        .any(|f| f.body.params.iter().any(|p| is(&p.ty)) || f.body.insts.iter().any(|i| is(&i.ty)))
}

/// Does every number the source pattern of `rule` matches exist in dtype `d`? (`-1` is no
/// `u32`: a rule written for it has no instance there, rightly.)
fn numbers_exist_in(rule: &Rule, d: ptir_ir::DType) -> bool {
    use ptir_rules::{Attr, AttrValue, Term};
    rule.source.terms.iter().all(|t| match t {
        Term::Splat {
            value: Attr::Lit(AttrValue::Number(x)),
            ..
        } => ptir_ir::Scalar::from_number(d, *x).is_some(),
        _ => true,
    })
}

/// Every rule that holds for integers by a predicate (`int`, `not-float`) is proven on every
/// integer dtype, each width signed and unsigned: wrapping, unsigned order and the integer
/// rules' number literals (`-1` is no `u32`: such a rule must not apply, or must hold, there)
/// differ between them. A rule with no instance of some integer dtype fails, unless a number
/// of its source does not exist there: it was never checked.
#[test]
fn integer_rules_are_proven_on_every_integer_dtype() {
    let set = all_rules();
    let registry = set.registry();
    let mut failures = Vec::new();
    let mut checked = 0;
    let integer_rules: Vec<&Rule> = set
        .rules()
        .iter()
        .filter(|r| {
            r.constraints
                .iter()
                .any(|c| c.pred == "int" || c.pred == "not-float")
        })
        .collect();
    assert!(
        integer_rules.len() >= 20,
        "{} integer rules",
        integer_rules.len()
    );
    for rule in &integer_rules {
        for d in ptir_ir::DType::INTS {
            let mut found = 0;
            for seed in 0..DTYPE_SEEDS {
                let mut ex = match example::instantiate_in(rule, registry, seed, d) {
                    Ok(ex) if touches(&ex, d) => ex,
                    Ok(_) | Err(InstantiateError::NoInstance { .. }) => continue,
                    Err(e) => {
                        failures.push(format!("`{}` on {d}, seed {seed}: {e}", rule.name));
                        break;
                    }
                };
                found += 1;
                define_externs(&mut ex.program, &set);
                if let Err(message) = example::check_example(rule, &ex) {
                    failures.push(format!("`{}` on {d}: {message}", rule.name));
                    break;
                }
            }
            if found == 0 && numbers_exist_in(rule, d) {
                failures.push(format!("`{}`: no instance on {d}", rule.name));
            }
            checked += found;
        }
    }
    println!(
        "{} integer rules, {checked} examples on {} integer dtypes",
        integer_rules.len(),
        ptir_ir::DType::INTS.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
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
                let defined = set.externs().get(c).is_some_and(|e| e.definition.is_some());
                if !in_source && !defined && !ptir_rules::externs::has_reference(c) {
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
