//! Rules as greedy patterns: the DAG matcher (shared subterms, repeated variables, attributes,
//! splats, multi-root search and backtracking, call-prefix matching), constraints, result
//! building, and the contract (a rule that cannot finish leaves the IR untouched).
//!
//! Every run has the expensive checks on, so a pattern that lies about changing the IR, or
//! leaves IR that does not verify, fails the test.

mod common;

use common::{body, run};
use ptir_greedy::{GreedyConfig, PatternSet};
use ptir_rules::RuleFilter;

/// Canonicalizes (without folding, so the rules do the work) and returns the body.
fn apply(rules: &str, text: &str) -> Vec<String> {
    apply_with(rules, text, &RuleFilter::exact())
}

fn apply_with(rules: &str, text: &str, filter: &RuleFilter) -> Vec<String> {
    let mut set = PatternSet::new();
    set.add_rules(&ptir_test_support::rules(rules), filter)
        .unwrap();
    let config = GreedyConfig::canonicalize()
        .with_fold(false)
        .with_expensive_checks(true);
    match run(text, set, &config) {
        Ok((p, _)) => body(&p),
        Err(e) => panic!("{e}"),
    }
}

fn func(params: &str, results: &str, lines: &[&str]) -> String {
    let mut s = format!("func @f({params}) -> ({results}) {{\n");
    for l in lines {
        s.push_str("  ");
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("}\n");
    s
}

const DAG: &str = "(rule dag (mul ?t:(transpose ?a ?p) (add ?t ?b)) => (neg ?t))";

#[test]
fn a_shared_subterm_must_be_the_same_value() {
    let hit = func(
        "%0: f32[2,3], %1: f32[3,2]",
        "f32[3,2]",
        &[
            "%2 = transpose %0 perm=[1,0] : f32[3,2]",
            "%3 = add %2, %1 : f32[3,2]",
            "%4 = mul %2, %3 : f32[3,2]",
            "return %4",
        ],
    );
    assert_eq!(
        apply(DAG, &hit),
        [
            "%2 = transpose %0 perm=[1,0] : f32[3,2]",
            "%5 = neg %2 : f32[3,2]",
            "return %5"
        ]
    );
    // The add uses another transpose of the same input: not the same value.
    let miss = func(
        "%0: f32[2,3], %1: f32[3,2]",
        "f32[3,2]",
        &[
            "%2 = transpose %0 perm=[1,0] : f32[3,2]",
            "%5 = transpose %0 perm=[1,0] : f32[3,2]",
            "%3 = add %5, %1 : f32[3,2]",
            "%4 = mul %2, %3 : f32[3,2]",
            "return %4",
        ],
    );
    assert!(apply(DAG, &miss).iter().any(|l| l.contains("mul")));
}

#[test]
fn a_repeated_variable_binds_one_value() {
    let rule = "(rule square (mul ?x ?x) => (abs ?x))";
    let hit = func(
        "%0: f32[2]",
        "f32[2]",
        &["%1 = mul %0, %0 : f32[2]", "return %1"],
    );
    assert_eq!(apply(rule, &hit), ["%2 = abs %0 : f32[2]", "return %2"]);
    let miss = func(
        "%0: f32[2], %1: f32[2]",
        "f32[2]",
        &["%2 = mul %0, %1 : f32[2]", "return %2"],
    );
    assert_eq!(
        apply(rule, &miss),
        ["%2 = mul %0, %1 : f32[2]", "return %2"]
    );
}

#[test]
fn attributes_bind_compare_and_feed_constraints() {
    let rule = "(rule t2 (transpose (transpose ?x ?p) ?q) => ?x :when ((inverse-perm ?p ?q)))";
    let text = |q: &str, ty: &str| {
        func(
            "%0: f32[2,3,4]",
            ty,
            &[
                "%1 = transpose %0 perm=[1,2,0] : f32[3,4,2]",
                &format!("%2 = transpose %1 perm={q} : {ty}"),
                "return %2",
            ],
        )
    };
    assert_eq!(apply(rule, &text("[2,0,1]", "f32[2,3,4]")), ["return %0"]);
    assert_eq!(apply(rule, &text("[1,0,2]", "f32[4,3,2]")).len(), 3);
    // A literal attribute must be equal; `?_` matches anything.
    let lit = "(rule sum0 (reduce_sum ?x (0) ?_) => (reduce_max ?x (0) false))";
    let sum = |axes: &str, ty: &str| {
        func(
            "%0: f32[2,3]",
            ty,
            &[
                &format!("%1 = reduce_sum %0 axes={axes} keep_dims=false : {ty}"),
                "return %1",
            ],
        )
    };
    assert!(apply(lit, &sum("[0]", "f32[3]"))[0].contains("reduce_max"));
    assert!(apply(lit, &sum("[1]", "f32[2]"))[0].contains("reduce_sum"));
}

#[test]
fn a_splat_matches_constants_of_its_value_in_any_dtype() {
    let rule = "(rule mul-one (mul ?x (splat 1)) => ?x)";
    let with = |c: &str, ty: &str| {
        func(
            &format!("%0: {ty}"),
            ty,
            &[
                &format!("%1 = constant {c} : {ty}"),
                &format!("%2 = mul %0, %1 : {ty}"),
                "return %2",
            ],
        )
    };
    assert_eq!(
        apply(rule, &with("splat(1.0)", "f32[2]")).last().unwrap(),
        "return %0"
    );
    assert_eq!(
        apply(rule, &with("dense([1.0, 1.0])", "f64[2]"))
            .last()
            .unwrap(),
        "return %0"
    );
    assert_eq!(
        apply(rule, &with("splat(1)", "i32[2]")).last().unwrap(),
        "return %0"
    );
    assert_eq!(
        apply(rule, &with("splat(1.5)", "f32[2]")).last().unwrap(),
        "return %2"
    );
    assert_eq!(
        apply(rule, &with("dense([1.0, 2.0])", "f32[2]"))
            .last()
            .unwrap(),
        "return %2"
    );
    // Signed zeros are different numbers.
    let add = "(rule add-nzero (add ?x (splat -0.0)) => ?x)";
    let zero = |z: &str| {
        func(
            "%0: f32[2]",
            "f32[2]",
            &[
                &format!("%1 = constant splat({z}) : f32[2]"),
                "%2 = add %0, %1 : f32[2]",
                "return %2",
            ],
        )
    };
    assert_eq!(apply(add, &zero("-0.0")).last().unwrap(), "return %0");
    assert_eq!(apply(add, &zero("0.0")).last().unwrap(), "return %2");
}

const TWO_ROOTS: &str = "(rule pair
  (roots ?a:(reduce_sum ?x ?ax ?k) ?b:(reduce_max ?x ?bx ?k))
  => (reduce_max ?x ?ax ?k) (reduce_sum ?x ?bx ?k)
  :when ((same-ints ?ax ?bx)))";

#[test]
fn a_multi_root_rule_finds_its_other_root_through_the_uses_of_shared_values() {
    let text = func(
        "%0: f32[2,3]",
        "f32[3], f32[3], f32[2]",
        &[
            "%1 = reduce_sum %0 axes=[0] keep_dims=false : f32[3]",
            "%2 = exp %0 : f32[2,3]",
            "%3 = reduce_max %0 axes=[1] keep_dims=false : f32[2]",
            "%4 = reduce_max %0 axes=[0] keep_dims=false : f32[3]",
            "return %1, %4, %3",
        ],
    );
    // The first candidate (%3, other axes) fails the constraint: the search backtracks to %4.
    // Results go before the last root; the dead exp is erased.
    assert_eq!(
        apply(TWO_ROOTS, &text),
        [
            "%3 = reduce_max %0 axes=[1] keep_dims=false : f32[2]",
            "%5 = reduce_max %0 axes=[0] keep_dims=false : f32[3]",
            "%6 = reduce_sum %0 axes=[0] keep_dims=false : f32[3]",
            "return %5, %6, %3",
        ]
    );
}

#[test]
fn a_multi_root_match_is_refused_when_an_earlier_root_is_used_before_the_last() {
    let text = func(
        "%0: f32[2,3]",
        "f32[3], f32[3]",
        &[
            "%1 = reduce_sum %0 axes=[0] keep_dims=false : f32[3]",
            "%2 = neg %1 : f32[3]",
            "%3 = reduce_max %0 axes=[0] keep_dims=false : f32[3]",
            "%4 = add %2, %3 : f32[3]",
            "return %4, %1",
        ],
    );
    assert_eq!(apply(TWO_ROOTS, &text).len(), 5, "nothing changes");
}

/// The bundled `moments` rule alone, canonicalizing with the expensive checks on (the IR is
/// verified after every change).
fn moments(text: &str) -> Vec<String> {
    let mut set = PatternSet::new();
    let filter = RuleFilter {
        enabled: vec!["moments".into()],
        disabled: Vec::new(),
    };
    set.add_rules(&ptir_rules::RuleSet::bundled().unwrap(), &filter)
        .unwrap();
    let config = GreedyConfig::canonicalize().with_expensive_checks(true);
    match run(&format!("extern @moments pure\n{text}"), set, &config) {
        Ok((p, _)) => body(&p),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn multi_root_matches_respect_dominance() {
    // reduce_sum(x) in the body and reduce_sum(x * x) in a cond branch are in
    // different blocks: no match.
    let apart = func(
        "%0: bool[], %1: f32[4,8]",
        "f32[4], f32[4]",
        &[
            "%2 = reduce_sum %1 axes=[1] keep_dims=false : f32[4]",
            "%3 = cond %0 : f32[4] {",
            "  %4 = mul %1, %1 : f32[4,8]",
            "  %5 = reduce_sum %4 axes=[1] keep_dims=false : f32[4]",
            "  yield %5",
            "} {",
            "  yield %2",
            "}",
            "return %2, %3",
        ],
    );
    assert!(!moments(&apart).iter().any(|l| l.contains("moments")));
    // Both roots in the body, but the earlier one is yielded by a branch of a cond placed
    // before the later root, where the moments call would go: replacing it there would use
    // the call before it is defined.
    let yielded = func(
        "%0: bool[], %1: f32[4,8]",
        "f32[4], f32[4]",
        &[
            "%2 = mul %1, %1 : f32[4,8]",
            "%3 = reduce_sum %2 axes=[1] keep_dims=false : f32[4]",
            "%4 = cond %0 : f32[4] {",
            "  yield %3",
            "} {",
            "  %5 = constant splat(0.0) : f32[4]",
            "  yield %5",
            "}",
            "%6 = reduce_sum %1 axes=[1] keep_dims=false : f32[4]",
            "return %6, %4",
        ],
    );
    assert!(!moments(&yielded).iter().any(|l| l.contains("moments")));
    // Yielded after the last root: the match goes through.
    let after = func(
        "%0: bool[], %1: f32[4,8]",
        "f32[4], f32[4]",
        &[
            "%2 = mul %1, %1 : f32[4,8]",
            "%3 = reduce_sum %2 axes=[1] keep_dims=false : f32[4]",
            "%6 = reduce_sum %1 axes=[1] keep_dims=false : f32[4]",
            "%4 = cond %0 : f32[4] {",
            "  yield %3",
            "} {",
            "  yield %6",
            "}",
            "return %6, %4",
        ],
    );
    assert!(moments(&after).iter().any(|l| l.contains("call @moments")));
}

#[test]
fn unconnected_roots_are_found_by_kind_in_the_block() {
    let rule = "(rule apart (roots ?a:(exp ?x) ?b:(tanh ?y)) => (abs ?x) (neg ?y))";
    let text = func(
        "%0: f32[2], %1: f32[2]",
        "f32[2], f32[2]",
        &[
            "%2 = exp %0 : f32[2]",
            "%3 = tanh %1 : f32[2]",
            "return %2, %3",
        ],
    );
    assert_eq!(
        apply(rule, &text),
        [
            "%4 = abs %0 : f32[2]",
            "%5 = neg %1 : f32[2]",
            "return %4, %5"
        ]
    );
}

#[test]
fn a_call_pattern_matches_numbered_specializations() {
    let rule = "(rule unfoo (call @foo ?x) => ?x)";
    let text = |callee: &str| {
        format!(
            "extern @{callee}(f32[2]) -> (f32[2]) pure\n{}",
            func(
                "%0: f32[2]",
                "f32[2]",
                &[&format!("%1 = call @{callee}(%0) : f32[2]"), "return %1"]
            )
        )
    };
    for (callee, hit) in [
        ("foo", true),
        ("foo_0", true),
        ("foo_12", true),
        ("foo_bar", false),
        ("foox_1", false),
    ] {
        let out = apply(rule, &text(callee));
        assert_eq!(out == ["return %0"], hit, "@{callee}: {out:?}");
    }
}

#[test]
fn single_use_is_decided_by_the_driver() {
    let rule = "(rule fuse (neg ?t:(exp ?x)) => (tanh ?x) :when ((single-use ?t)))";
    let once = func(
        "%0: f32[2]",
        "f32[2]",
        &["%1 = exp %0 : f32[2]", "%2 = neg %1 : f32[2]", "return %2"],
    );
    assert_eq!(apply(rule, &once), ["%3 = tanh %0 : f32[2]", "return %3"]);
    let twice = func(
        "%0: f32[2]",
        "f32[2], f32[2]",
        &[
            "%1 = exp %0 : f32[2]",
            "%2 = neg %1 : f32[2]",
            "return %2, %1",
        ],
    );
    assert_eq!(apply(rule, &twice).len(), 3);
}

#[test]
fn results_build_new_ops_and_splats_through_the_rewriter() {
    let rule = "(rule sub-neg (sub ?x ?y) => (add ?x (neg ?y)))
(rule neg-mul (neg ?x) => (mul ?x (splat -1)) :add-benefit 1)";
    let text = func(
        "%0: f32[2], %1: f32[2]",
        "f32[2]",
        &["%2 = sub %0, %1 : f32[2]", "return %2"],
    );
    assert_eq!(
        apply(rule, &text),
        [
            "%5 = constant splat(-1.0) : f32[2]",
            "%6 = mul %1, %5 : f32[2]",
            "%4 = add %0, %6 : f32[2]",
            "return %4"
        ]
    );
}

#[test]
fn fast_math_rules_are_off_unless_asked_for() {
    let rule = "(rule add-zero :labels (fast-math) (add ?x (splat 0)) => ?x)";
    let text = func(
        "%0: f32[2]",
        "f32[2]",
        &[
            "%1 = constant splat(0.0) : f32[2]",
            "%2 = add %0, %1 : f32[2]",
            "return %2",
        ],
    );
    assert_eq!(apply(rule, &text).last().unwrap(), "return %2");
    let all = RuleFilter::default();
    assert_eq!(apply_with(rule, &text, &all).last().unwrap(), "return %0");
}

#[test]
fn a_rule_that_cannot_finish_leaves_the_ir_untouched() {
    // invert-perm declines on a shape that is not a permutation: the rule fails cleanly
    // (the expensive checks would catch a partial rewrite).
    let rule = "(rule odd (reshape ?x ?s) => (transpose ?x (invert-perm ?s)))";
    let text = func(
        "%0: f32[6]",
        "f32[2,3]",
        &["%1 = reshape %0 : f32[2,3]", "return %1"],
    );
    assert_eq!(
        apply(rule, &text),
        ["%1 = reshape %0 : f32[2,3]", "return %1"]
    );
    // A rule whose result is its own root changes nothing and says so.
    let same = "(rule same ?t:(exp ?x) => ?t)";
    let text = func(
        "%0: f32[2]",
        "f32[2]",
        &["%1 = exp %0 : f32[2]", "return %1"],
    );
    assert_eq!(apply(same, &text), ["%1 = exp %0 : f32[2]", "return %1"]);
}

#[test]
fn rules_apply_inside_regions_and_to_captured_values() {
    let rule = "(rule neg-neg (neg (neg ?x)) => ?x)";
    let text = func(
        "%0: bool[], %1: f32[2]",
        "f32[2]",
        &[
            "%2 = neg %1 : f32[2]",
            "%3 = cond %0 : f32[2] {",
            "  %4 = neg %2 : f32[2]",
            "  yield %4",
            "} {",
            "  yield %2",
            "}",
            "return %3",
        ],
    );
    let out = apply(rule, &text);
    assert!(out.contains(&"yield %1".to_string()), "{out:?}");
}
