//! Variadic operands: a list variable `?xs...` binds the operands of a `concat`, `call` or
//! `tuple` of any arity, in both engines alike: rules are loaded with the arities up to
//! `ptir_rules::VARIADIC_ARITY` and expanded to a program's longest list.

use crate::support::{assert_user_error, ptir_opt, scratch_file, text};

const FLATTEN: &str = "\
; a concat whose first operand is a concat along the same axis is one concat of all the parts
(rule concat-flatten (concat ?ax (concat ?ax ?xs...) ?y) => (concat ?ax ?xs... ?y))
";

const CONCATS: &str =
    "func @f(%a: f32[2], %b: f32[3], %c: f32[4], %d: f32[1]) -> (f32[10], f32[6], f32[3]) {
  %x = concat %a, %b, %c axis=0 : f32[9]
  %y = concat %x, %d axis=0 : f32[10]
  %u = concat %a, %b axis=0 : f32[5]
  %v = concat %u, %d axis=0 : f32[6]
  %s = concat %a, %d axis=0 : f32[3]
  return %y, %v, %s
}
";

fn optimize(program: &str, rules: &str, extra: &[&str]) -> (String, String) {
    let args = [
        &[program, "--no-bundled-rules", "--rules", rules, "--report"][..],
        extra,
    ]
    .concat();
    let out = ptir_opt(&args, "");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    (text(&out.stdout), stderr)
}

#[test]
fn a_list_variable_matches_every_arity_in_both_engines_alike() {
    let rules = scratch_file("variadic", "flatten.rules", FLATTEN);
    let program = scratch_file("variadic", "concats.ptir", CONCATS);
    let (eqsat, report) = optimize(&program, &rules, &[]);
    let (greedy, _) = optimize(&program, &rules, &["--engine", "greedy"]);
    assert_eq!(eqsat, greedy);
    // Three parts and two parts, each with %d after them, as one concat; %s has no inner concat.
    assert!(
        eqsat.contains("concat %0, %1, %2, %3 axis=0 : f32[10]"),
        "{eqsat}"
    );
    assert!(
        eqsat.contains("concat %0, %1, %3 axis=0 : f32[6]"),
        "{eqsat}"
    );
    assert!(eqsat.contains("concat %0, %3 axis=0 : f32[3]"), "{eqsat}");
    assert!(
        report.contains("concat-flatten/3") && report.contains("concat-flatten/2"),
        "{report}"
    );
}

#[test]
fn the_rule_name_is_a_label_of_every_arity_and_the_expansion_compiles() {
    let rules = scratch_file("variadic", "flatten.rules", FLATTEN);
    let program = scratch_file("variadic", "concats.ptir", CONCATS);
    let (out, _) = optimize(&program, &rules, &["--disable", "concat-flatten"]);
    assert_eq!(out.matches("concat").count(), 5, "{out}");
    let library = scratch_file("variadic", "flatten.ptrl", "");
    let built = ptir_opt(&["compile-rules", &rules, "-o", &library], "");
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let (compiled, _) = optimize(&program, &library, &[]);
    let (source, _) = optimize(&program, &rules, &[]);
    assert_eq!(compiled, source);
}

#[test]
fn calls_of_any_arity_bind_a_list_and_constraints_apply_to_each_element() {
    let rules = scratch_file(
        "variadic",
        "sum.rules",
        "(extern my_sum :pure)
; my_sum adds right to left: my_sum(x, xs...) is x + my_sum(xs...), for floats
(rule my-sum-absorb (add ?x (call @my_sum ?xs...)) => (call @my_sum ?x ?xs...)
  :when ((float ?x) (float ?xs...)))
",
    );
    let program = scratch_file(
        "variadic",
        "sum.ptir",
        "extern @my_sum pure

func @f(%a: f32[2], %b: f32[2], %c: f32[2], %i: i32[2], %j: i32[2]) -> (f32[2], i32[2]) {
  %s = call @my_sum(%b, %c) : f32[2]
  %t = add %a, %s : f32[2]
  %u = call @my_sum(%j) : i32[2]
  %v = add %i, %u : i32[2]
  return %t, %v
}
",
    );
    // Both engines fire it at the float sum only; saturation then extracts by cost (the call
    // of an extern without a cost is no cheaper than the add), greedy keeps the rewrite.
    for engine in ["greedy", "eqsat"] {
        let (_, report) = optimize(&program, &rules, &["--engine", engine]);
        assert!(report.contains("1  my-sum-absorb/2"), "{engine}: {report}");
    }
    let (out, _) = optimize(&program, &rules, &["--engine", "greedy"]);
    assert!(out.contains("call @my_sum(%0, %1, %2) : f32[2]"), "{out}");
    // The integers fail `(float ?xs...)`: their add stays.
    assert!(out.contains("add %3, "), "{out}");
}

#[test]
fn malformed_list_variables_are_located_errors() {
    let program = scratch_file("variadic", "concats.ptir", CONCATS);
    let two = scratch_file(
        "variadic",
        "two.rules",
        "(rule two (concat ?ax ?xs... ?ys...) => (concat ?ax ?ys... ?xs...))",
    );
    assert_user_error(
        &[&program, "--no-bundled-rules", "--rules", &two],
        "",
        "two.rules:1: a rule has at most one list variable, found `?xs...`, `?ys...`",
    );
    let unbound = scratch_file(
        "variadic",
        "unbound.rules",
        "(rule u (concat ?ax ?x ?y) => (concat ?ax ?xs...))",
    );
    assert_user_error(
        &[&program, "--no-bundled-rules", "--rules", &unbound],
        "",
        "unbound.rules:1: in rule `u`",
    );
}

/// A list longer than the arities rules are loaded with (40 parts, from a text rule file and
/// from a compiled library) still matches, in both engines and in the match query.
#[test]
fn a_list_matches_past_the_loaded_arities() {
    let n = 40;
    let program = long_concat(n);
    let program = scratch_file("variadic", "long.ptir", &program);
    // Files of its own: the other tests write `flatten.rules` while this one reads it.
    let rules = scratch_file("variadic", "long_flatten.rules", FLATTEN);
    let library = scratch_file("variadic", "long_flatten.ptrl", "");
    let out = ptir_opt(&["compile-rules", &rules, "-o", &library], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let all: Vec<String> = (0..=n).map(|i| format!("%{i}")).collect();
    let flat = format!("concat {} axis=0", all.join(", "));
    for rules in [&rules, &library] {
        for engine in ["eqsat", "greedy"] {
            let (out, report) = optimize(&program, rules, &["--engine", engine]);
            assert!(out.contains(&flat), "{engine}:\n{out}");
            assert!(report.contains("concat-flatten/40"), "{engine}: {report}");
        }
        let out = ptir_opt(
            &["match", &program, "--no-bundled-rules", "--rules", rules],
            "",
        );
        assert!(
            text(&out.stdout).contains("concat-flatten/40"),
            "{}",
            text(&out.stdout)
        );
    }
}

/// A user's rule named like an arity past the loaded ones (`NAME/40` beside a variadic
/// `NAME`) is a duplicate name when a program asks for that arity, as `NAME/3` is on load:
/// never a silent stand-in for the expansion.
#[test]
fn a_rule_named_like_a_longer_arity_is_a_duplicate_name() {
    let n = 40;
    let program = long_concat(n);
    let program = scratch_file("variadic", "clash.ptir", &program);
    let clash = format!("{FLATTEN}(rule concat-flatten/40 (neg (neg ?x)) => ?x)\n");
    let rules = scratch_file("variadic", "clash.rules", &clash);
    assert_user_error(
        &[&program, "--no-bundled-rules", "--rules", &rules],
        "",
        "in rule `concat-flatten/40`: duplicate rule name",
    );
}

/// `concat(concat(p0 .. p(n-1)), pn)` over `n + 1` parameters of type `f32[1]`.
fn long_concat(n: usize) -> String {
    let params: Vec<String> = (0..=n).map(|i| format!("%p{i}: f32[1]")).collect();
    let parts: Vec<String> = (0..n).map(|i| format!("%p{i}")).collect();
    format!(
        "func @f({}) -> (f32[{}]) {{\n  %x = concat {} axis=0 : f32[{n}]\n  %y = concat %x, %p{n} axis=0 : f32[{}]\n  return %y\n}}\n",
        params.join(", "),
        n + 1,
        parts.join(", "),
        n + 1
    )
}

/// An unsound list rule is refused under `--prove-rules` by the name its user wrote, with the
/// list length of the counterexample (not by an expansion's internal `NAME/1`).
#[test]
fn an_unsound_list_rule_is_refused_by_its_own_name() {
    let options = ptir::Options {
        rule_texts: vec![ptir::RuleText::new(
            "front.rules",
            "(rule my-front\n  (concat 0 ?xs... ?y)\n  => (concat 0 ?y ?xs...))\n",
        )],
        prove_rules: true,
        ..ptir::Options::default()
    };
    match ptir::load_rules(&options) {
        Err(ptir::Error::UnsoundRule {
            location,
            rule,
            counterexample,
        }) => {
            assert_eq!(
                (location.as_str(), rule.as_str()),
                ("front.rules:1", "my-front")
            );
            assert!(
                counterexample.starts_with("with a list of "),
                "{counterexample}"
            );
        }
        other => panic!("not refused: {other:?}"),
    }
}
