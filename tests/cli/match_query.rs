//! `ptir-opt match` and [`ptir::find_matches`]: where rules match, with their bindings, and
//! nothing rewritten.

use crate::support::{assert_user_error, ptir_opt, scratch_file, text};

const RULES: &str = "
; two transposes by inverse permutations are none
(rule transpose-twice (transpose (transpose ?x ?p) ?q) => ?x :when ((inverse-perm ?p ?q)))
; a product used once, added: a fused multiply-add candidate
(rule mul-add-once (add ?m:(mul ?a ?b) ?c) => (add (mul ?b ?a) ?c) :when ((single-use ?m)))
; two roots: an exp and a neg of one value
(rule exp-and-neg (roots (exp ?x) (neg ?x)) => (exp ?x) (neg ?x))
";

const PROGRAM: &str = "func @f(%x: f32[2,3], %y: f32[2,3]) -> (f32[2,3], f32[2,3], f32[2,3]) {
  %t = transpose %x perm=[1,0] : f32[3,2]
  %u = transpose %t perm=[1,0] : f32[2,3]
  %p = transpose %t perm=[0,1] : f32[3,2]
  %m = mul %u, %y : f32[2,3]
  %a = add %m, %y : f32[2,3]
  %k = mul %y, %y : f32[2,3]
  %b = add %k, %y : f32[2,3]
  %e = exp %x : f32[2,3]
  %n = neg %x : f32[2,3]
  %s = add %e, %n : f32[2,3]
  return %a, %b, %k
}
";

fn run(args: &[&str]) -> (String, String) {
    let out = ptir_opt(args, "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    (text(&out.stdout), text(&out.stderr))
}

#[test]
fn every_match_is_printed_with_its_place_and_bindings_and_nothing_is_rewritten() {
    let rules = scratch_file("match_query", "user.rules", RULES);
    let program = scratch_file("match_query", "p.ptir", PROGRAM);
    let (out, err) = run(&["match", &program, "--no-bundled-rules", "--rules", &rules]);
    let expected = [
        // the transposes of perm [1,0] twice; not %p (the permutations are not inverse)
        format!("{program}:3:3: @f %u: transpose-twice ?x=%x ?p=(1 0) ?q=(1 0)"),
        // %m has one use; %k has two (%b and the return): no match there
        format!("{program}:6:3: @f %a: mul-add-once ?a=%u ?b=%y ?m=%m ?c=%y"),
        // both roots, found from the anchor through the shared value
        format!("{program}:9:3: @f %e,%n: exp-and-neg ?x=%x"),
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected, "{out}");
    assert!(
        err.contains("3 matches of 3 rules in 10 instructions"),
        "{err}"
    );
    // Nothing was written back.
    assert_eq!(std::fs::read_to_string(&program).unwrap(), PROGRAM);
}

#[test]
fn matches_inside_regions_and_of_pat_rules_are_found() {
    let program = scratch_file(
        "match_query",
        "loop.ptir",
        "func @g(%x: f32[4], %c: bool[]) -> (f32[4]) {
  %r = cond %c : f32[4] {
    %s = mul %x, %x : f32[4]
    %y = add %s, %x : f32[4]
    yield %y
  } {
    yield %x
  }
  return %r
}
",
    );
    let (out, _) = run(&[
        "match",
        &program,
        "--no-bundled-rules",
        "--rules",
        "tests/fixtures/my_fused.pat",
    ]);
    assert_eq!(
        out.trim_end(),
        format!("{program}:4:5: @g %y: square-plus ?x=%x"),
        "{out}"
    );
}

#[test]
fn the_json_report_lists_roots_matched_ops_and_bindings() {
    let rules = scratch_file("match_query", "user.rules", RULES);
    let program = scratch_file("match_query", "p.ptir", PROGRAM);
    let (out, _) = run(&[
        "match",
        &program,
        "--no-bundled-rules",
        "--rules",
        &rules,
        "--report-json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let matches = json["matches"].as_array().expect("a list");
    assert_eq!(matches.len(), 3);
    let multi = &matches[2];
    assert_eq!(multi["rule"], "exp-and-neg");
    assert_eq!(multi["roots"], serde_json::json!(["%e", "%n"]));
    assert_eq!(multi["location"], "9:3");
    assert_eq!(multi["bindings"], serde_json::json!({"x": "%x"}));
    let first = &matches[0];
    assert_eq!(first["matched"], serde_json::json!(["%u", "%t"]));
}

#[test]
fn the_bundled_rules_match_an_mlir_input() {
    let (out, _) = run(&["match", "corpus/mlir/layernorm.mlir"]);
    assert!(!out.is_empty(), "no match in the layernorm");
    for line in out.lines() {
        assert!(line.starts_with("corpus/mlir/layernorm.mlir: @"), "{line}");
    }
}

#[test]
fn bad_rules_and_programs_are_located_user_errors() {
    let program = scratch_file("match_query", "p.ptir", PROGRAM);
    let bad = scratch_file("match_query", "bad.rules", "(rule r (frobnicate ?x) => ?x)");
    assert_user_error(
        &["match", &program, "--rules", &bad],
        "",
        "bad.rules:1: in rule `r`: unknown op `frobnicate`",
    );
    let broken = scratch_file(
        "match_query",
        "broken.ptir",
        "func @f(%x: f32[4]) -> (f32[4]) {\n  %y = neg %z : f32[4]\n  return %y\n}\n",
    );
    assert_user_error(&["match", &broken], "", "broken.ptir:2:");
}

#[test]
fn the_library_query_agrees_with_what_greedy_rewrites() {
    // Every rule the greedy driver fires on its first visit of a fresh program matched there.
    let program = ptir::ir::parse(PROGRAM).unwrap();
    let mut options = ptir::Options {
        bundled_rules: false,
        rule_texts: vec![ptir::RuleText::new("user.rules", RULES)],
        ..Default::default()
    };
    let matches = ptir::find_matches(&program, &options).unwrap();
    let matched: std::collections::BTreeSet<&str> =
        matches.iter().map(|m| m.rule.as_str()).collect();
    options.engine = ptir::Engine::Greedy;
    let out = ptir::optimize(&program, &options).unwrap();
    let fired: Vec<_> = out
        .report
        .rules_fired
        .iter()
        .filter(|r| !r.rule.starts_with('('))
        .collect();
    assert!(!fired.is_empty());
    for fired in fired {
        assert!(
            matched.contains(fired.rule.as_str()),
            "{} fired but never matched",
            fired.rule
        );
    }
}

#[test]
fn a_root_used_before_the_others_is_pruned_and_the_next_candidate_found() {
    // Two `neg %x` could pair with the `exp %x`: the first is used (by %u) before the exp, so
    // a replacement inserted at the exp could not replace it. Dominance prunes it before it
    // is matched, and the search goes on to the second, which the driver can apply.
    let rules = scratch_file(
        "match_query",
        "pair.rules",
        "(rule exp-and-neg (roots (exp ?x) (neg ?x)) => (exp ?x) (neg ?x))",
    );
    let program = scratch_file(
        "match_query",
        "pair.ptir",
        "func @f(%x: f32[4]) -> (f32[4], f32[4], f32[4], f32[4]) {
  %n1 = neg %x : f32[4]
  %u = abs %n1 : f32[4]
  %e = exp %x : f32[4]
  %n2 = neg %x : f32[4]
  return %u, %e, %n1, %n2
}
",
    );
    let (out, _) = run(&["match", &program, "--no-bundled-rules", "--rules", &rules]);
    assert_eq!(
        out.trim_end(),
        format!("{program}:4:3: @f %e,%n2: exp-and-neg ?x=%x"),
        "{out}"
    );
}
