//! Rule families and their budgets: a family past its budget waits for the others to reach
//! their fixpoint, then runs again; a family whose rate would pass the node limit in its next
//! iteration is stopped and named in the stop reason, and the others run on to their
//! fixpoint with the room it left.
//!
//! The runaway family is associativity with commutativity over a sum of many terms (every
//! grouping of the sum is an e-class: exponential); the other family sinks a `neg` through a
//! chain of products, one product per iteration, so it needs many iterations after the
//! explosion starts.

use ptir_egraph::{lower, saturate, Limits, SaturationOptions, Scheduler, StopReason};
use ptir_rules::{Registry, RuleSet};

/// Associativity and commutativity of integer `add` (family `ac`), and `neg` sunk into the
/// left operand of a product (family `sink`; exact in Z/2^w).
const RULES: &str = "\
(rule add-comm :labels (ac) :bounded-recursion (add ?a ?b) => (add ?b ?a))
(rule add-assoc :labels (ac) :bounded-recursion (add (add ?a ?b) ?c) => (add ?a (add ?b ?c)) :when ((int ?a)))
(rule neg-sink :labels (sink other) (neg (mul ?a ?b)) => (mul (neg ?a) ?b) :when ((int ?a)))
";

/// A function returning a sum of `terms` parameters and `neg` of a product of `factors`
/// parameters, grouped to the left.
fn program(terms: usize, factors: usize) -> ptir_ir::Program {
    sums(1, terms, factors)
}

/// [`program`] with `copies` sums of `terms` parameters each.
fn sums(copies: usize, terms: usize, factors: usize) -> ptir_ir::Program {
    let ty = "i32[4]";
    let params: Vec<String> = (0..copies * terms + factors)
        .map(|i| format!("%p{i}: {ty}"))
        .collect();
    let mut body = String::new();
    let mut chain = |from: usize, to: usize, op: &str, name: &str| {
        let mut last = format!("%p{from}");
        for i in from + 1..to {
            body.push_str(&format!("  %{name}{i} = {op} {last}, %p{i} : {ty}\n"));
            last = format!("%{name}{i}");
        }
        last
    };
    let sums: Vec<String> = (0..copies)
        .map(|k| chain(k * terms, (k + 1) * terms, "add", "s"))
        .collect();
    let product = chain(copies * terms, copies * terms + factors, "mul", "m");
    let results = vec![ty; copies + 1].join(", ");
    let text = format!(
        "func @f({}) -> ({results}) {{\n{body}  %n = neg {product} : {ty}\n  return {}, %n\n}}",
        params.join(", "),
        sums.join(", ")
    );
    ptir_ir::parse(&text).expect("the program parses")
}

fn rules() -> RuleSet {
    let mut rules = RuleSet::new(Registry::standard());
    rules
        .add_source("families.rules", RULES)
        .expect("the rules load");
    rules
}

fn options(nodes: usize) -> SaturationOptions {
    SaturationOptions {
        limits: Limits {
            nodes: Some(nodes),
            iterations: Some(100),
            ..Limits::default()
        },
        scheduler: Scheduler::Simple,
        ..SaturationOptions::default()
    }
}

#[test]
fn a_runaway_family_is_stopped_and_named_and_the_rest_reach_their_fixpoint() {
    const FACTORS: usize = 16;
    let program = program(12, FACTORS);
    let mut lowered = lower(&program, "f").expect("the function lowers");
    let report = saturate(&mut lowered, &rules(), &options(20_000));
    let StopReason::RunawayFamily {
        family,
        nodes,
        next,
        room,
    } = &report.stop
    else {
        panic!("not stopped by a family: {report}");
    };
    assert_eq!(family, "ac", "{report}");
    assert_eq!(report.runaways(), std::slice::from_ref(&report.stop));
    // Stopped for its rate: one more iteration would have passed the node limit.
    assert!(next > room && *nodes > 0, "{report}");
    assert!(report.nodes <= 20_000, "{report}");
    // The sink family needed an iteration per factor, most of them after `ac` was stopped:
    // it sank `neg` all the way down.
    let sunk = (report.rules_applied().into_iter())
        .find(|(rule, _)| rule == "neg-sink")
        .map(|(_, n)| n);
    assert_eq!(sunk, Some(FACTORS - 1), "{report}");
    let stopped_at = (report.iterations.iter())
        .position(|it| !it.stopped.is_empty())
        .expect("an iteration stopped the family");
    assert!(stopped_at < FACTORS - 1, "{report}");
    for it in &report.iterations[stopped_at + 1..] {
        assert!(!it.growth.contains_key("ac"), "{report}");
        assert!(!it.applied.contains_key("add-comm"), "{report}");
    }
    // The step log says who grew the e-graph and who was stopped.
    let log = report.step_log();
    assert!(log.contains("e-nodes added by family: ac "), "{log}");
    assert!(log.contains("stopped: runaway rule family `ac`"), "{log}");
}

#[test]
fn families_within_their_budget_saturate_as_before() {
    let program = program(3, 6);
    let mut lowered = lower(&program, "f").expect("the function lowers");
    let report = saturate(&mut lowered, &rules(), &options(20_000));
    assert_eq!(report.stop, StopReason::Saturated, "{report}");
    assert!(report.runaways().is_empty());
}

#[test]
fn node_limits_of_zero_and_of_usize_max_stop_without_a_panic() {
    let program = program(8, 4);
    for nodes in [0, 1, usize::MAX] {
        let mut lowered = lower(&program, "f").expect("the function lowers");
        let mut options = options(nodes);
        options.limits.iterations = Some(6);
        let report = saturate(&mut lowered, &rules(), &options);
        assert!(!report.stop.is_fixpoint(), "{nodes}: {report}");
    }
}

#[test]
fn a_family_past_its_budget_waits_for_the_rest_then_runs_again() {
    const FACTORS: usize = 16;
    let program = program(7, FACTORS);
    let mut lowered = lower(&program, "f").expect("the function lowers");
    let report = saturate(&mut lowered, &rules(), &options(2_000));
    let paused = (report.iterations.iter())
        .position(|it| it.paused.iter().any(|p| p.family == "ac"))
        .expect("`ac` is paused at its budget");
    let resumed = (report.iterations.iter())
        .position(|it| it.resumed == ["ac"])
        .expect("`ac` runs again once the rest are done");
    // While it waited, the rest reached their fixpoint: every `neg` sunk.
    let sunk: usize = (report.iterations[..=resumed].iter())
        .filter_map(|it| it.applied.get("neg-sink"))
        .sum();
    assert_eq!(sunk, FACTORS - 1, "{report}");
    for it in &report.iterations[paused + 1..=resumed] {
        assert!(!it.growth.contains_key("ac"), "{report}");
    }
    assert!(
        report.iterations[resumed + 1].growth.contains_key("ac"),
        "{report}"
    );
    let log = report.step_log();
    assert!(log.contains("rule family `ac` paused ("), "{log}");
    assert!(log.contains("; resumed: ac"), "{log}");
}

/// `neg-sink` first, then commutativity alone as family `ac`: in the first iteration `sink`
/// grows before `ac` applies anything.
const SINK_THEN_COMM: &str = "\
(rule neg-sink :labels (sink) (neg (mul ?a ?b)) => (mul (neg ?a) ?b) :when ((int ?a)))
(rule add-comm :labels (ac) :bounded-recursion (add ?a ?b) => (add ?b ?a))
";

#[test]
fn a_family_paused_while_applying_finds_its_matches_again_when_it_resumes() {
    // Commutativity of 40 sums of 4 terms: its closure is one iteration, which passes its
    // budget half-way through while `sink` grows. The matches it did not apply then are in
    // classes nothing else touches: only a search that counts them unseen finds them again.
    let program = sums(40, 4, 16);
    let mut rules = RuleSet::new(Registry::standard());
    rules
        .add_source("sink-comm.rules", SINK_THEN_COMM)
        .expect("the rules load");
    let run = |nodes| {
        let mut lowered = lower(&program, "f").expect("the function lowers");
        let start = lowered.num_nodes();
        (start, saturate(&mut lowered, &rules, &options(nodes)))
    };
    let (start, free) = run(100_000);
    let (_, paused) = run(start + (free.nodes - start) * 6 / 5);
    assert!(
        paused.iterations[0].paused.iter().any(|p| p.family == "ac"),
        "{paused}"
    );
    assert!(free.iterations.iter().all(|it| it.paused.is_empty()));
    assert_eq!(paused.stop, StopReason::Saturated, "{paused}");
    assert_eq!(
        (paused.nodes, paused.classes),
        (free.nodes, free.classes),
        "{paused}\n{free}"
    );
}
