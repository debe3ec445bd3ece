//! The rule-set lint (`ptir-opt lint-rules`, `ptir_rules::lint`): the bundled library has no
//! finding, proofs included, and each planted defect is found at its `file:line`, on the
//! command line and as a note of an optimization that loads it.

use crate::support::{ptir_opt, scratch_file, text};

/// One defect of each kind, each on its own line, and two rules that are fine.
const PLANTED: &str = "; planted defects, one per line from line 2
(rule swap-mul (mul ?a ?b) => (mul ?b ?a))
(rule double-to-sum (mul ?x (splat 2)) => (add ?x ?x))
(rule sum-to-double (add ?x ?x) => (mul ?x (splat 2)))
(rule abs-abs (abs (abs ?x)) => (abs ?x))
(rule abs-abs-again (abs (abs ?y)) => (abs ?y))
(rule unwrap-mine (call @mine ?x) => ?x)
(rule neg-as-sub (neg ?x) => (sub (splat 0) ?x))
(rule neg-neg (neg (neg ?x)) => ?x)
";

fn lint(args: &[&str]) -> (i32, Vec<String>, String) {
    let mut all = vec!["lint-rules"];
    all.extend_from_slice(args);
    let out = ptir_opt(&all, "");
    let lines = text(&out.stdout).lines().map(String::from).collect();
    (out.status.code().unwrap_or(-1), lines, text(&out.stderr))
}

#[test]
fn the_bundled_library_has_no_finding_proofs_included() {
    let (code, lines, err) = lint(&[]);
    assert_eq!((code, lines.len()), (0, 0), "{lines:#?}\n{err}");
    assert!(err.contains("0 finding(s) in"), "{err}");
}

#[test]
fn each_planted_defect_is_found_at_its_line_and_the_sound_rules_are_not() {
    let file = scratch_file("lint", "planted.rules", PLANTED);
    let (code, lines, err) = lint(&["--no-bundled-rules", "--rules", &file]);
    assert_eq!(code, 1, "findings exit with status 1: {err}");
    let at = |line: usize, rule: &str, what: &str| {
        let prefix = format!("{file}:{line}: rule `{rule}` {what}");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "no `{prefix}` in {lines:#?}"
        );
    };
    at(2, "swap-mul", "loops: applied twice");
    at(3, "double-to-sum", "loops with `sum-to-double`");
    at(6, "abs-abs-again", "is shadowed by `abs-abs`");
    at(
        7,
        "unwrap-mine",
        "never fires unless the program defines @mine",
    );
    at(8, "neg-as-sub", "is unsound: counterexample");
    // A pair that loops is named once, at its first rule; sound rules are not named at all.
    for quiet in ["`sum-to-double`", "`abs-abs`", "`neg-neg`"] {
        assert!(
            !lines.iter().any(|l| l.contains(&format!("rule {quiet}"))),
            "{quiet}: {lines:#?}"
        );
    }
    // Without proofs only the structural findings are left.
    let (_, lines, _) = lint(&["--no-bundled-rules", "--rules", &file, "--proof-seeds", "0"]);
    assert!(lines.iter().all(|l| !l.contains("unsound")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.contains("swap-mul")), "{lines:#?}");
}

#[test]
fn an_optimization_loading_a_defective_rule_file_says_so_in_its_notes() {
    let file = scratch_file(
        "lint",
        "loops.rules",
        "(rule swap-add (add ?a ?b) => (add ?b ?a))\n",
    );
    let program = scratch_file(
        "lint",
        "p.ptir",
        "func @f(%x: f32[4]) -> (f32[4]) {\n  %y = add %x, %x : f32[4]\n  return %y\n}\n",
    );
    let out = ptir_opt(&[&program, "--rules", &file, "--report"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("lint: {file}:1: rule `swap-add` loops")),
        "{err}"
    );
    // The bundled library alone gives no lint note.
    let out = ptir_opt(&[&program, "--report"], "");
    assert!(
        !text(&out.stderr).contains("lint:"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_raise_to_a_bodyless_library_call_is_neither_proven_nor_called_unsound() {
    let file = scratch_file(
        "lint",
        "raise.rules",
        "(extern my_exp :pure :cost 2)\n(rule raise-exp (exp ?x) => (call @my_exp ?x))\n",
    );
    let (code, lines, err) = lint(&["--rules", &file]);
    assert_eq!((code, lines.len()), (0, 0), "{lines:#?}\n{err}");
}

/// Saturation weighs a raise to a user's library call by the call's declared `:cost`; when it
/// keeps the input's form the report says why, while greedy applies the raise.
#[test]
fn a_raise_extraction_did_not_take_is_explained_in_the_report() {
    let rules = scratch_file(
        "lint",
        "raise_exp.rules",
        "(extern my_exp :pure :cost 0.5)\n(rule raise-exp (exp ?x) => (call @my_exp ?x))\n",
    );
    let program = scratch_file(
        "lint",
        "exp.ptir",
        "func @f(%x: f32[1024]) -> (f32[1024]) {\n  %y = exp %x : f32[1024]\n  return %y\n}\n",
    );
    let out = ptir_opt(&[&program, "--rules", &rules, "--report"], "");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    if stdout.contains("call @my_exp") {
        assert!(!stderr.contains("does not call @my_exp"), "{stderr}");
    } else {
        assert!(
            stderr.contains("`raise-exp` fired, but the output does not call @my_exp")
                && stderr.contains("declared cost, 0.5 per output element"),
            "{stderr}"
        );
    }
    let out = ptir_opt(&[&program, "--rules", &rules, "--engine", "greedy"], "");
    assert!(
        text(&out.stdout).contains("call @my_exp"),
        "{}",
        text(&out.stdout)
    );
}
