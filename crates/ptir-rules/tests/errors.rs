//! Every class of rule-file error: a bad file and the exact message it must produce (file,
//! line, rule, what is wrong).

use ptir_rules::{Registry, RuleSet};

/// Loads `text` as `bad.rules` into a fresh set and returns the error message.
fn error_of(text: &str) -> String {
    let mut set = RuleSet::new(Registry::standard());
    match set.add_source("bad.rules", text) {
        Ok(()) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn each_error_class_has_a_located_message() {
    let cases: &[(&str, &str)] = &[
        // unknown op
        ("(rule r\n  (frobnicate ?x)\n  => ?x)", "bad.rules:2: in rule `r`: unknown op `frobnicate`"),
        // ops rules cannot mention
        ("(rule r (while ?x) => ?x)", "bad.rules:1: in rule `r`: `while` cannot appear in a rule (use `splat` for constants)"),
        // wrong arity
        ("(rule r\n  (add ?x)\n  => ?x)", "bad.rules:2: in rule `r`: `add` takes 2 operand(s) and 0 attribute(s), found 1 argument(s)"),
        ("(rule r (transpose ?x) => ?x)", "bad.rules:1: in rule `r`: `transpose` takes 1 operand(s) and 1 attribute(s), found 1 argument(s)"),
        // unknown predicate and native function
        ("(rule r (neg (neg ?x)) => ?x\n  :when ((shiny ?x)))", "bad.rules:2: in rule `r`: unknown predicate `shiny`"),
        ("(rule r (transpose ?x ?p) => (transpose ?x (twist ?p)))", "bad.rules:1: in rule `r`: expected an index list like (1 0), found `(twist ?p)`"),
        ("(rule r (neg ?x) => ?x :when ((eq (twist ?x) 1)))", "bad.rules:1: in rule `r`: unknown native function `twist`"),
        // predicate arity
        ("(rule r (neg ?x) => ?x :when ((float ?x ?x)))", "bad.rules:1: in rule `r`: predicate `float` takes 1 argument(s), found 2"),
        // variable used on the right but never bound
        ("(rule r\n  (neg ?x)\n  => ?y)", "bad.rules:3: in rule `r`: ?y is used in the result but never bound in the source"),
        ("(rule r (transpose ?x ?p) => (transpose ?x ?q))", "bad.rules:1: in rule `r`: ?q is used in the result but never bound in the source"),
        ("(rule r (neg ?x) => ?x :when ((float ?z)))", "bad.rules:1: in rule `r`: ?z is used but never bound in the source"),
        // a variable bound as two kinds
        ("(rule r (transpose ?p ?p) => ?p)", "bad.rules:1: in rule `r`: ?p is used both as a value and as an attribute (an index list like (1 0))"),
        // result types that cannot be inferred
        ("(rule r (neg ?x) => (add (call @f ?x) ?x))", "bad.rules:1: in rule `r`: the type of (call @f ...) cannot be inferred: a call must be a result root"),
        ("(rule r (neg ?x) => (neg (splat 1)))", "bad.rules:1: in rule `r`: the type of this (splat ...) cannot be inferred: add ?like, or use it beside a non-constant operand of an elementwise op"),
        // structure
        ("(rule r (neg ?x))", "bad.rules:1: in rule `r`: missing `=>` between the source pattern and the result"),
        ("(rule r ?x => ?x)", "bad.rules:1: in rule `r`: a source root must be an op, not a variable"),
        ("(rule r (roots (neg ?x) (abs ?x)) => ?x)", "bad.rules:1: in rule `r`: the source has 2 root(s) but 1 result(s) follow `=>`"),
        // auxiliary results (DRR): named ops, written first, used by a replacement
        ("(rule r (neg ?x) => (exp ?x) ?x)", "bad.rules:1: in rule `r`: the source has 1 root(s) but 2 results follow `=>`: the results before the last 1 are auxiliary ops, and each must be a named op `?name:(...)` that a replacement uses"),
        ("(rule r (neg ?x)\n  => ?e:(exp ?x) ?x)", "bad.rules:2: in rule `r`: auxiliary result ?e is not used by any replacement (the ops a rule builds are pure: it would compute nothing)"),
        // native builders: results only, with their arguments
        ("(rule r (mean ?x (1)) => ?x)", "bad.rules:1: in rule `r`: native builder `mean` builds ops: it can only appear in a result"),
        ("(rule r (neg ?x) => (mean ?x))", "bad.rules:1: in rule `r`: native builder `mean` takes 1 value(s) and 1 attribute(s), found 1 argument(s)"),
        ("(rule r (neg ?x) => ?x :colour red)", "bad.rules:1: in rule `r`: unknown option `:colour` (expected :labels, :add-benefit, :bounded-recursion or :when)"),
        ("(rule r (neg ?x) => ?_)", "bad.rules:1: in rule `r`: `?_` cannot be used in a result"),
        // single-use: the replacement is an op the rule builds, and does not use the value
        ("(rule r (neg ?t:(neg ?x)) => ?x :when ((single-use ?t)))", "bad.rules:1: in rule `r`: `(single-use ?t)` needs each replacement to be an op the rule builds, not the matched value ?x: saturation decides single-use by choosing the fused op or not"),
        ("(rule r (neg ?t:(exp ?x)) => (add ?t ?x) :when ((single-use ?t)))", "bad.rules:1: in rule `r`: ?t is single-use, so the result cannot use it (it is the value the fusion removes)"),
        // reader errors
        ("\n(rule r (neg ?x) => ?x", "bad.rules:2: this form is never closed: missing `)`"),
        ("rule r", "bad.rules:1: expected `(` to start a form, found `rule`"),
        ("(rool r)", "bad.rules:1: expected `rule` or `extern`, found `rool`"),
        ("(extern f :cost -1)", "bad.rules:1: `:cost` needs a non-negative number"),
    ];
    for (text, expected) in cases {
        assert_eq!(&error_of(text), expected, "for:\n{text}");
    }
}

#[test]
fn duplicate_rule_names_are_rejected_across_files() {
    let mut set = RuleSet::new(Registry::standard());
    set.add_source("a.rules", "; neg neg\n(rule twice (neg (neg ?x)) => ?x)")
        .unwrap();
    let err = set
        .add_source("b.rules", "\n\n(rule twice (abs (abs ?x)) => (abs ?x))")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "b.rules:3: in rule `twice`: duplicate rule name (first defined at a.rules:2)"
    );
}

#[test]
fn bad_pat_files_are_located() {
    let mut set = RuleSet::new(Registry::standard());
    let err = set
        .add_pat_source(
            "p.pat",
            "func @x_pattern(%a: f32[]) -> (f32[]) {\n  %b = neg %a : f32[]\n  return %b\n}\n",
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "p.pat:1: in rule `x`: no @x_replacement for @x_pattern"
    );
    let err = set
        .add_pat_source(
            "p.pat",
            "func @f(%a: f32[]) -> (f32[]) {\n  %b = nope %a : f32[]\n}\n",
        )
        .unwrap_err();
    assert_eq!(err.to_string(), "p.pat:2: column 8: unknown op `nope`");
}

/// `ignore-attrs` / `match-attrs` lines: a name no op of the idiom has, an empty list, two
/// lines and a line above nothing are errors at the directive's line.
#[test]
fn bad_attribute_directives_are_located() {
    let pair = |directive: &str| {
        format!(
            "// doc\n{directive}\nfunc @x_pattern(%a: f32[2,3]) -> (f32[3,2]) {{\n  \
             %b = transpose %a perm=[1,0] : f32[3,2]\n  %c = neg %b : f32[3,2]\n  return %c\n}}\n\
             func @x_replacement(%a: f32[2,3]) -> (f32[3,2]) {{\n  \
             %b = transpose %a perm=[1,0] : f32[3,2]\n  %c = neg %b : f32[3,2]\n  return %c\n}}\n"
        )
    };
    let error = |text: &str| {
        let mut set = RuleSet::new(Registry::standard());
        set.add_pat_source("p.pat", text).unwrap_err().to_string()
    };
    assert_eq!(
        error(&pair("// ignore-attrs: colour")),
        "p.pat:2: in rule `x`: `colour` is not an attribute of any op of @x_pattern (its ops \
         have transpose.perm)"
    );
    assert_eq!(
        error(&pair("// match-attrs: reduce_sum.axes")),
        "p.pat:2: in rule `x`: `reduce_sum.axes` is not an attribute of any op of @x_pattern \
         (its ops have transpose.perm)"
    );
    assert_eq!(
        error(&pair("// ignore-attrs:")),
        "p.pat:2: in rule `x`: `ignore-attrs:` lists no attribute"
    );
    assert_eq!(
        error(&pair("// ignore-attrs: perm\n// match-attrs: perm")),
        "p.pat:3: in rule `x`: a pattern takes one `ignore-attrs` or `match-attrs` line"
    );
    let stray = format!("{}\n// ignore-attrs: perm\n", pair("// ok"));
    assert_eq!(
        error(&stray),
        "p.pat:14: `ignore-attrs` / `match-attrs` must be among the `//` lines right above a \
         `func @NAME_pattern`"
    );
    // A good one loads.
    let mut set = RuleSet::new(Registry::standard());
    set.add_pat_source("p.pat", &pair("// ignore-attrs: perm"))
        .unwrap();
}

#[test]
fn filters_by_name_and_label_with_disabled_winning() {
    let mut set = RuleSet::new(Registry::standard());
    set.add_source(
        "f.rules",
        "(rule a :labels (x fast-math) (neg (neg ?v)) => ?v)\n(rule b :labels (x) (abs (abs ?v)) => (abs ?v))\n(rule c (not (not ?v)) => ?v)",
    )
    .unwrap();
    let names = |f: &ptir_rules::RuleFilter| {
        set.filtered(f)
            .rules()
            .iter()
            .map(|r| r.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&ptir_rules::RuleFilter::exact()), ["b", "c"]);
    let f = ptir_rules::RuleFilter {
        enabled: vec!["x".into()],
        disabled: vec!["a".into()],
    };
    assert_eq!(names(&f), ["b"]);
}

/// Hostile rule files are errors, not crashes: a file nested 20,000 deep (which would
/// overflow the s-expression reader's stack) and self-referencing named terms (which the
/// e-graph engine would expand forever).
#[test]
fn hostile_rule_files_are_located_errors() {
    let deep = format!(
        "; deep\n(rule deep\n  {}?x{}\n  => ?x)",
        "(neg ".repeat(20_000),
        ")".repeat(20_000)
    );
    assert_eq!(
        error_of(&deep),
        "bad.rules:3: nesting deeper than 200 levels"
    );
    assert_eq!(
        error_of("(rule r\n  ?a:(add ?a ?b)\n  => ?b)"),
        "bad.rules:2: in rule `r`: the named term ?a contains itself: a pattern must be acyclic"
    );
    assert_eq!(
        error_of("(rule r\n  (roots ?a:(neg ?b)\n         ?b:(abs ?a))\n  => ?a ?b)"),
        "bad.rules:2: in rule `r`: the named terms ?a -> ?b -> ?a contain each other: a pattern must be acyclic"
    );
}
