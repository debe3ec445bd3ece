//! Instantiation on hand-written rules: every op kind types, DAG and multi-root patterns bind
//! what they share, native calls and extern calls build, and wrong rules are caught.

use super::*;
use crate::{Registry, RuleSet};

const SEEDS: u64 = 12;

fn rules(text: &str) -> RuleSet {
    let mut set = RuleSet::new(Registry::standard());
    set.add_source("t.rules", text).unwrap();
    set
}

/// Instantiates every rule of `text` on `SEEDS` seeds; each must give at least one example,
/// and every example must run the same on ordinary and special inputs. Returns the examples.
fn prove(text: &str) -> Vec<Example> {
    let set = rules(text);
    let mut all = Vec::new();
    for rule in set.rules() {
        let mut found = 0;
        for seed in 0..SEEDS {
            let ex = match instantiate(rule, set.registry(), seed) {
                Ok(ex) => ex,
                Err(InstantiateError::NoInstance { .. }) => continue,
                Err(e) => panic!("{e}"),
            };
            found += 1;
            for kind in [InputKind::Ordinary, InputKind::Special] {
                let inputs = ex.random_inputs(kind, seed);
                if let Err(e) = ex.check(&inputs, rule.is_fast_math()) {
                    panic!("{}: {e}\n{}", rule.name, ptir_ir::print(&ex.program));
                }
            }
            all.push(ex);
        }
        assert!(
            found > SEEDS / 2,
            "{}: only {found} of {SEEDS} seeds",
            rule.name
        );
    }
    all
}

#[test]
fn transpose_of_transpose_binds_inverse_perms() {
    let exs =
        prove("(rule tt (transpose (transpose ?x ?p) ?q) => ?x :when ((inverse-perm ?p ?q)))");
    let ranks: Vec<usize> = exs
        .iter()
        .filter_map(|e| match e.attrs.get(&Var("p".into())) {
            Some(AttrValue::Ints(p)) => Some(p.len()),
            _ => None,
        })
        .collect();
    assert!(
        ranks.iter().any(|&r| r >= 2),
        "only trivial perms: {ranks:?}"
    );
    let f = exs[0].program.function(SOURCE).unwrap();
    assert_eq!((f.body.params.len(), f.body.insts.len()), (1, 2));
}

#[test]
fn every_op_kind_types() {
    // Identities whose two sides are the same op: each must find instances.
    prove(
        "(rule un (exp ?x) => (exp ?x))
         (rule bi (add ?x ?y) => (add ?x ?y))
         (rule cmp (lt ?x ?y) => (lt ?x ?y))
         (rule sel (select ?c ?x ?y) => (select ?c ?x ?y))
         (rule cst (cast ?x ?d) => (cast ?x ?d))
         (rule rsh (reshape ?x ?s) => (reshape ?x ?s))
         (rule bc (broadcast ?x ?d ?s) => (broadcast ?x ?d ?s))
         (rule sl (slice ?x ?a ?b ?c) => (slice ?x ?a ?b ?c))
         (rule cc (concat ?a ?x ?y ?z) => (concat ?a ?x ?y ?z))
         (rule dot (dot_general ?x ?y ?d) => (dot_general ?x ?y ?d))
         (rule red (reduce_sum ?x ?a ?k) => (reduce_sum ?x ?a ?k))
         (rule tg (tuple_get (tuple ?x ?y) ?i) => (tuple_get (tuple ?x ?y) ?i))
         (rule ign (select ?_ ?x ?x) => ?x)",
    );
}

#[test]
fn attributes_given_as_literals_shape_the_operands() {
    prove(
        "(rule l1 (dot_general ?x ?y (dims (0) (0) (2) (1))) => (dot_general ?x ?y (dims (0) (0) (2) (1))))
         (rule l2 (broadcast ?x (1) (3 2)) => (broadcast ?x (1) (3 2)))
         (rule l3 (reshape ?x (6)) => (reshape ?x (6)))
         (rule l4 (reduce_max ?x (0 2) true) => (reduce_max ?x (0 2) true))
         (rule l5 (add ?x (splat 2)) => (add (splat 2) ?x))",
    );
}

#[test]
fn a_dag_rule_shares_the_named_term() {
    let exs = prove(
        "(rule tam
           (mul ?t:(transpose ?a ?p) (add ?t ?b))
           => (transpose (mul ?a (add ?a (transpose ?b (invert-perm ?p)))) ?p))",
    );
    let f = exs[0].program.function(SOURCE).unwrap();
    // a, b; one transpose used twice.
    assert_eq!((f.body.params.len(), f.body.insts.len()), (2, 3));
}

#[test]
fn a_multi_root_rule_gets_one_result_per_root() {
    let exs = prove("(rule mr (roots ?a:(neg ?x) (neg ?x)) => ?a ?a)");
    let f = exs[0].program.function(RESULT).unwrap();
    assert_eq!((f.body.results.len(), f.body.insts.len()), (2, 1));
}

#[test]
fn a_native_call_computes_the_result_attribute() {
    prove("(rule tt2 (transpose (transpose ?x ?p) ?q) => (transpose ?x (compose-perm ?p ?q)))");
}

#[test]
fn an_extern_call_in_the_result_runs_its_reference() {
    let mut registry = Registry::standard();
    registry.add_predicate("last-axis", 2, "?a is the last axis of ?x", |a| {
        matches!((a[0].tensor(), a[1].ints()), (Some(t), Some(ax)) if t.rank() >= 1 && ax == [t.rank() - 1])
    });
    let mut set = RuleSet::new(registry);
    set.add_source(
        "t.rules",
        "(rule softmax
           (div ?e:(exp (sub ?x (broadcast (reduce_max ?x ?ax true) ?d ?s)))
                (broadcast (reduce_sum ?e ?ax true) ?d ?s))
           => (call @softmax_fused ?x)
           :when ((last-axis ?x ?ax) (float ?x)))",
    )
    .unwrap();
    let rule = &set.rules()[0];
    let ex = (0..SEEDS)
        .find_map(|seed| instantiate(rule, set.registry(), seed).ok())
        .expect("an instance");
    for kind in [InputKind::Ordinary, InputKind::Special] {
        let inputs = ex.random_inputs(kind, 1);
        assert_eq!(ex.check(&inputs, false), Ok(Outcome::Same));
    }
}

#[test]
fn a_wrong_rule_is_caught() {
    // x + 0 is not x for x = -0.0 (it is +0.0).
    let set = rules("(rule add-zero (add ?x (splat 0)) => ?x)");
    let rule = &set.rules()[0];
    let caught = (0..SEEDS).any(|seed| {
        instantiate(rule, set.registry(), seed).is_ok_and(|ex| {
            (0..4).any(|i| {
                ex.check(&ex.random_inputs(InputKind::Special, i), false)
                    .is_err()
            })
        })
    });
    assert!(caught);
    // A result of the wrong type is a rule bug, reported as such.
    let set = rules("(rule bad (reduce_sum ?x ?a false) => (reduce_sum ?x ?a true))");
    let err = (0..SEEDS)
        .map(|seed| instantiate(&set.rules()[0], set.registry(), seed))
        .find_map(|r| match r {
            Err(e @ InstantiateError::RuleBug { .. }) => Some(e),
            _ => None,
        });
    assert!(err.is_some_and(|e| e.to_string().contains("replaces a value of type")));
}

#[test]
fn unsatisfiable_rules_have_no_instance() {
    let set = rules("(rule never (transpose ?x (1 0)) => ?x :when ((identity-perm (1 0))))");
    let r = instantiate(&set.rules()[0], set.registry(), 0);
    assert!(
        matches!(r, Err(InstantiateError::NoInstance { .. })),
        "{r:?}"
    );
}

#[test]
fn examples_are_deterministic() {
    let set = rules("(rule cc (concat ?a ?x ?y) => (concat ?a ?x ?y))");
    let a = instantiate(&set.rules()[0], set.registry(), 3).unwrap();
    let b = instantiate(&set.rules()[0], set.registry(), 3).unwrap();
    assert_eq!((a.program, a.inputs), (b.program, b.inputs));
}

/// Does the proof (20 seeds, ordinary and special inputs) catch `rule`?
fn caught(text: &str) -> bool {
    let set = rules(text);
    let rule = &set.rules()[0];
    (0..20).any(|seed| match instantiate(rule, set.registry(), seed) {
        Ok(ex) => [InputKind::Ordinary, InputKind::Special].iter().any(|&k| {
            let inputs = ex.random_inputs(k, seed);
            ex.check(&inputs, rule.is_fast_math()).is_err()
        }),
        Err(InstantiateError::RuleBug { .. }) => true,
        Err(_) => false,
    })
}

#[test]
fn plausible_wrong_rules_are_caught() {
    let wrong = [
        "(rule w (sub ?x ?x) => (splat 0 ?x))",
        "(rule w (mul ?x (splat 0)) => (splat 0 ?x))",
        "(rule w (div ?x ?x) => (splat 1 ?x))",
        "(rule w (exp (log ?x)) => ?x)",
        "(rule w (neg (sub ?x ?y)) => (sub ?y ?x))",
        "(rule w (transpose (transpose ?x ?p) ?q) => ?x :when ((same-ints ?p ?q)))",
        "(rule w (reshape (transpose ?x ?p) ?s) => (reshape ?x ?s))",
        "(rule w (cast (cast ?x ?d) ?e) => (cast ?x ?e))",
        "(rule w (div (mul ?x (splat 2)) (splat 2)) => ?x :when ((int ?x)))",
        "(rule w (dot_general (transpose ?a ?p) ?b ?d) => (dot_general ?a ?b ?d))",
        "(rule w (reduce_sum (transpose ?x ?p) ?a ?k) => (reduce_sum ?x ?a ?k))",
        "(rule w (slice (concat 0 ?x ?y) ?a ?b ?c) => (slice ?x ?a ?b ?c))",
        "(rule w (max ?x ?y) => (select (gt ?x ?y) ?x ?y))",
        "(rule w (add (add ?x ?y) ?z) => (add ?x (add ?y ?z)))",
        "(rule w :labels (fast-math) (mul (add ?x ?y) ?z) => (add (mul ?x ?z) ?y))",
    ];
    let missed: Vec<&str> = wrong.iter().copied().filter(|r| !caught(r)).collect();
    assert!(missed.is_empty(), "not caught: {missed:#?}");
}
