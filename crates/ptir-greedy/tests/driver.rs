//! The driver's semantics, one test each: seeding order, benefit order and ties, any-op
//! patterns, re-queueing, convergence, the rewrite limit, strictness, filtering, expensive
//! checks, the recursion guard (the failure cache, which no caller can turn off, is tested
//! beside the driver), `apply_op_patterns`, constant
//! deduplication, dead ops, the step log and the listener.

mod common;

use common::{body, parse, run, Spy, Swap};
use ptir_greedy::{
    apply_op_patterns, apply_patterns_greedily, GreedyConfig, GreedyError, Ir, Listener, Pattern,
    PatternFilter, PatternSet, ProgramContext, ProgramRewriter, Roots, Strictness, Traversal,
    Violation,
};
use ptir_ir::{InstId, OpKey, UnaryOp, ValueId};
use ptir_pass::{Deadline, StopReason};
use std::time::Duration;

const NESTED: &str = "func @f(%0: bool[], %1: f32[2]) -> (f32[2]) {
  %2 = exp %1 : f32[2]
  %3 = cond %0 : f32[2] {
    %4 = tanh %2 : f32[2]
    yield %4
  } {
    yield %2
  }
  %5 = abs %3 : f32[2]
  return %5
}";

fn seen_order(traversal: Traversal) -> Vec<u32> {
    let (spy, seen) = Spy::any("spy", 1);
    let mut set = PatternSet::new();
    set.add(spy);
    let config = GreedyConfig::default().with_traversal(traversal);
    let (_, report) = run(NESTED, set, &config).unwrap();
    assert!(report.converged && !report.changed);
    assert_eq!(report.stats.iterations, 1);
    let order = seen.borrow().iter().map(|i| i.0).collect();
    order
}

#[test]
fn bottom_up_processes_the_last_op_first_and_nested_ops_before_their_region_op() {
    // Post-order walk [2, 4, 3, 5], popped from the back.
    assert_eq!(seen_order(Traversal::BottomUp), [5, 3, 4, 2]);
}

#[test]
fn top_down_processes_in_program_order() {
    // Pre-order walk [2, 3, 4, 5], reversed, popped from the back.
    assert_eq!(seen_order(Traversal::TopDown), [2, 3, 4, 5]);
}

const EXP: &str = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  return %1
}";

fn first_applied(set: PatternSet) -> String {
    let (_, report) = run(EXP, set, &GreedyConfig::default().with_log(true)).unwrap();
    let log = report.log.unwrap();
    log.applied()
        .first()
        .map_or(String::new(), |s| s.to_string())
}

#[test]
fn ties_go_to_insertion_order_and_higher_benefit_wins() {
    let mut set = PatternSet::new();
    set.add(Swap::new("first", UnaryOp::Exp, UnaryOp::Tanh))
        .add(Swap::new("second", UnaryOp::Exp, UnaryOp::Abs));
    assert_eq!(first_applied(set), "first");

    let mut set = PatternSet::new();
    set.add(Swap::new("low", UnaryOp::Exp, UnaryOp::Tanh))
        .add(Swap::new("high", UnaryOp::Exp, UnaryOp::Abs).benefit(2));
    assert_eq!(first_applied(set), "high");
}

/// A cost model re-ranks the patterns before the run (MLIR's `applyCostModel`): the pattern
/// it favours is applied first, the one it gives `IMPOSSIBLE_TO_MATCH` never.
#[test]
fn a_cost_model_decides_which_pattern_applies_first() {
    let run_with = |model: &dyn Fn(&str, &[String], u16) -> u16| {
        let mut set = PatternSet::new();
        set.add(Swap::new("tanh", UnaryOp::Exp, UnaryOp::Tanh))
            .add(Swap::new("abs", UnaryOp::Exp, UnaryOp::Abs));
        let mut p = parse(EXP);
        let cx = ProgramContext::new(&p);
        let mut rw = ProgramRewriter::new(p.functions.remove(0), &cx).unwrap();
        let mut frozen = set.freeze();
        frozen.apply_cost_model(model);
        apply_patterns_greedily(&mut rw, &frozen, &GreedyConfig::default()).unwrap();
        p.functions.insert(0, rw.finish());
        ptir_ir::print(&p)
    };
    assert!(run_with(&|_, _, b| b).contains("tanh"));
    assert!(run_with(&|name, _, b| if name == "abs" { b + 1 } else { b }).contains("abs"));
    let none = run_with(&|_, _, _| ptir_greedy::IMPOSSIBLE_TO_MATCH);
    assert!(none.contains("exp"), "{none}");
}

#[test]
fn any_op_patterns_go_first_only_when_strictly_higher() {
    let (spy, seen) = Spy::any("spy", 1);
    let mut set = PatternSet::new();
    set.add(spy)
        .add(Swap::new("swap", UnaryOp::Exp, UnaryOp::Tanh));
    let frozen_order = {
        let (s2, _) = Spy::any("spy", 1);
        let mut p = PatternSet::new();
        p.add(s2)
            .add(Swap::new("swap", UnaryOp::Exp, UnaryOp::Tanh));
        let f = p.freeze();
        f.order_for(OpKey::Unary(UnaryOp::Exp))
            .iter()
            .map(|&i| f.name(i).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(frozen_order, ["swap", "spy"]);
    run(EXP, set, &GreedyConfig::default()).unwrap();
    assert!(
        !seen.borrow().contains(&InstId(1)),
        "equal benefit: the exp-specific pattern wins"
    );

    let (spy, seen) = Spy::any("spy", 2);
    let mut set = PatternSet::new();
    set.add(spy)
        .add(Swap::new("swap", UnaryOp::Exp, UnaryOp::Tanh));
    let (p, _) = run(EXP, set, &GreedyConfig::default()).unwrap();
    assert!(
        seen.borrow().contains(&InstId(1)),
        "higher benefit: the any-op pattern first"
    );
    assert!(
        body(&p)[0].contains("tanh"),
        "then the exp-specific one still applies"
    );
}

#[test]
fn new_ops_and_users_of_replaced_values_are_requeued() {
    let text = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = tanh %1 : f32[2]
  return %2
}";
    let (spy, _) = Spy::on("spy", OpKey::Unary(UnaryOp::Tanh), 1);
    let mut set = PatternSet::new();
    set.add(Swap::new("swap", UnaryOp::Exp, UnaryOp::Abs))
        .add(spy);
    let config = GreedyConfig::canonicalize().with_log(true);
    let (p, report) = run(text, set, &config).unwrap();
    let processed: Vec<u32> = report
        .log
        .unwrap()
        .processed()
        .iter()
        .map(|i| i.0)
        .collect();
    // exp, then the abs it became (pushed last, popped first), then tanh; then iteration 2.
    assert_eq!(processed, [1, 3, 2, 3, 2]);
    assert_eq!(
        body(&p),
        ["%3 = abs %0 : f32[2]", "%2 = tanh %3 : f32[2]", "return %2"]
    );
}

#[test]
fn a_run_converges_when_an_iteration_changes_nothing() {
    let mut set = PatternSet::new();
    set.add(Swap::new("swap", UnaryOp::Exp, UnaryOp::Tanh));
    let (p, report) = run(EXP, set, &GreedyConfig::default()).unwrap();
    assert!(report.converged && report.changed);
    assert_eq!(report.stats.iterations, 2);
    assert_eq!(report.stats.rewrites["swap"], 1);
    assert_eq!(body(&p)[0], "%2 = tanh %0 : f32[2]");
}

fn flip_flop() -> PatternSet {
    let mut set = PatternSet::new();
    set.add(Swap::new("there", UnaryOp::Exp, UnaryOp::Tanh))
        .add(Swap::new("back", UnaryOp::Tanh, UnaryOp::Exp));
    set
}

#[test]
fn patterns_undoing_each_other_do_not_converge() {
    // The two patterns undo each other inside one worklist, which never empties: the
    // rewrite limit (over the whole run, unlike MLIR's per-iteration count) stops the run in
    // its first iteration.
    let config = GreedyConfig::default().with_max_rewrites(Some(5));
    let (_, report) = run(EXP, flip_flop(), &config).unwrap();
    assert!(!report.converged && !report.stats.converged);
    assert_eq!(report.stop, StopReason::RewriteLimit { limit: 5 });
    assert_eq!(report.stats.iterations, 1);
    assert_eq!(report.stats.total_rewrites(), 5);
    assert_eq!(
        report.summary().to_string(),
        "did not converge: rewrite limit (5), after 1 iterations, 5 rewrites"
    );

    // By default, the default rewrite limit stops it.
    let (_, report) = run(EXP, flip_flop(), &GreedyConfig::default()).unwrap();
    let limit = ptir_greedy::GREEDY_REWRITE_LIMIT;
    assert_eq!(report.stop, StopReason::RewriteLimit { limit });
    assert_eq!(report.stats.total_rewrites(), limit);

    // A deadline that has passed stops it before it starts.
    let config = GreedyConfig::default()
        .with_max_rewrites(None)
        .with_deadline(Some(Deadline::after(Duration::ZERO)));
    let (_, report) = run(EXP, flip_flop(), &config).unwrap();
    assert_eq!(
        report.stop,
        StopReason::TimeLimit {
            limit: Duration::ZERO
        }
    );
    assert_eq!(report.stats.total_rewrites(), 0);
}

#[test]
fn a_pattern_that_changes_something_every_iteration_hits_the_iteration_limit() {
    // The liar "changes" every op it sees once per iteration: each worklist empties, each
    // iteration changed something.
    let mut set = PatternSet::new();
    set.add(Liar);
    let (_, report) = run(EXP, set, &GreedyConfig::default()).unwrap();
    assert_eq!(report.stop, StopReason::IterationLimit { limit: 10 });
    assert_eq!(report.stats.iterations, 10);
    let mut set = PatternSet::new();
    set.add(Liar);
    let config = GreedyConfig::default().with_max_iterations(Some(3));
    let (_, report) = run(EXP, set, &config).unwrap();
    assert_eq!(report.stop, StopReason::IterationLimit { limit: 3 });
    assert_eq!(report.stats.iterations, 3);
}

#[test]
fn the_rewrite_limit_counts_pattern_successes_only() {
    let text = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = constant splat(2.0) : f32[2]
  %2 = constant splat(3.0) : f32[2]
  %3 = mul %1, %2 : f32[2]
  %4 = exp %0 : f32[2]
  %5 = exp %4 : f32[2]
  %6 = add %3, %5 : f32[2]
  return %6
}";
    let mut set = PatternSet::new();
    set.add(Swap::new("swap", UnaryOp::Exp, UnaryOp::Tanh));
    let config = GreedyConfig::canonicalize()
        .with_max_rewrites(Some(1))
        .with_max_iterations(Some(1));
    let (p, report) = run(text, set, &config).unwrap();
    assert_eq!(
        report.stats.folds, 1,
        "the fold of mul happens and does not count"
    );
    assert_eq!(report.stats.total_rewrites(), 1);
    let lines = body(&p);
    assert!(
        lines.iter().any(|l| l.contains("exp %")),
        "the second exp is left: {lines:?}"
    );
}

fn strict(s: Strictness) -> String {
    let mut set = PatternSet::new();
    set.add(Swap::new("a", UnaryOp::Exp, UnaryOp::Tanh))
        .add(Swap::new("b", UnaryOp::Tanh, UnaryOp::Abs));
    let (p, _) = run(EXP, set, &GreedyConfig::default().with_strictness(s)).unwrap();
    body(&p)[0].clone()
}

#[test]
fn strictness_decides_whether_new_ops_are_processed() {
    assert!(strict(Strictness::AnyOp).contains("abs"));
    assert!(strict(Strictness::ExistingAndNewOps).contains("abs"));
    assert!(strict(Strictness::ExistingOps).contains("tanh"));
}

#[test]
fn filters_keep_by_name_or_label_and_disabled_wins() {
    let names = |filter: PatternFilter| {
        let mut set = PatternSet::new();
        set.add(Swap::new("a", UnaryOp::Exp, UnaryOp::Tanh).label("x"))
            .add(Swap::new("b", UnaryOp::Exp, UnaryOp::Abs).label("y"))
            .add_with_labels(&["x"], Swap::new("c", UnaryOp::Neg, UnaryOp::Abs));
        let f = set.freeze_with(&filter);
        (0..f.len())
            .map(|i| f.name(i).to_string())
            .collect::<Vec<_>>()
    };
    let f = |en: &[&str], dis: &[&str]| PatternFilter {
        enabled: en.iter().map(|s| s.to_string()).collect(),
        disabled: dis.iter().map(|s| s.to_string()).collect(),
    };
    assert_eq!(names(f(&[], &[])), ["a", "b", "c"]);
    assert_eq!(names(f(&["x"], &[])), ["a", "c"]);
    assert_eq!(names(f(&["x", "b"], &["c"])), ["a", "b"]);
    assert_eq!(names(f(&["x"], &["x"])), Vec::<String>::new());
    assert_eq!(names(f(&[], &["y", "a"])), ["c"]);
}

/// Returns success without changing anything.
struct Liar;
impl Pattern for Liar {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![OpKey::Unary(UnaryOp::Exp)])
    }
    fn match_and_rewrite(&self, _: InstId, _: &mut ProgramRewriter<'_>) -> bool {
        true
    }
}

/// Changes the IR and returns failure.
struct Sneak;
impl Pattern for Sneak {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![OpKey::Unary(UnaryOp::Exp)])
    }
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        rw.modify_in_place(root, |e| *e.op = ptir_ir::Op::Unary(UnaryOp::Tanh));
        false
    }
}

/// Makes the IR invalid (an exp of a bool) and returns success.
struct Breaker;
impl Pattern for Breaker {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![OpKey::Unary(UnaryOp::Exp)])
    }
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        let ty: ptir_ir::Type = ptir_ir::TensorType::new(ptir_ir::DType::Bool, vec![2]).into();
        rw.modify_in_place(root, |e| *e.ty = ty);
        true
    }
}

/// Rooted at a `neg`, rewrites the `exp` that feeds it (and not the `neg`) and returns success.
struct Elsewhere;
impl Pattern for Elsewhere {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![OpKey::Unary(UnaryOp::Neg)])
    }
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        let Some(producer) = rw.operands(root).first().and_then(|&v| rw.inst_of(v)) else {
            return false;
        };
        if *rw.op(producer) != ptir_ir::Op::Unary(UnaryOp::Exp) {
            return false;
        }
        rw.modify_in_place(producer, |e| *e.op = ptir_ir::Op::Unary(UnaryOp::Tanh));
        true
    }
}

/// MLIR's contract: a successful pattern updates, replaces or erases its root; changing
/// another op only is refused with the expensive checks, and allowed without them.
#[test]
fn expensive_checks_refuse_a_success_that_leaves_the_root_alone() {
    let src = "func @f(%0: f32[2]) -> (f32[2]) {\n  %1 = exp %0 : f32[2]\n  %2 = neg %1 : f32[2]\n  return %2\n}";
    let set = || {
        let mut set = PatternSet::new();
        set.add(Elsewhere);
        set
    };
    let checked = GreedyConfig::default().with_expensive_checks(true);
    match run(src, set(), &checked).unwrap_err() {
        GreedyError::Contract {
            pattern,
            violation,
            inst,
            ..
        } => {
            assert_eq!(
                (pattern.as_str(), violation, inst),
                ("Elsewhere", Violation::RootUnchanged, InstId(2))
            );
        }
        e => panic!("{e}"),
    }
    assert!(run(src, set(), &GreedyConfig::default()).is_ok());
}

#[test]
fn expensive_checks_name_the_pattern_that_breaks_the_contract() {
    let checked = GreedyConfig::default().with_expensive_checks(true);
    let err = |p: &dyn Fn(&mut PatternSet)| {
        let mut set = PatternSet::new();
        p(&mut set);
        run(EXP, set, &checked).unwrap_err()
    };
    match err(&|s| {
        s.add(Liar);
    }) {
        GreedyError::Contract {
            pattern,
            violation,
            inst,
            ..
        } => {
            assert_eq!(pattern, "Liar");
            assert_eq!(violation, Violation::SuccessWithoutChange);
            assert_eq!(inst, InstId(1));
        }
        e => panic!("{e}"),
    }
    match err(&|s| {
        s.add(Sneak);
    }) {
        GreedyError::Contract {
            pattern, violation, ..
        } => {
            assert_eq!(
                (pattern.as_str(), violation),
                ("Sneak", Violation::FailureWithChange)
            );
        }
        e => panic!("{e}"),
    }
    let e = err(&|s| {
        s.add(Breaker);
    });
    assert!(
        matches!(&e, GreedyError::Verify { after, .. } if after.contains("Breaker")),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("does not verify after pattern `Breaker` on #1"),
        "{e}"
    );
    // Unchecked, the liar just keeps "changing" until the iteration limit.
    let mut set = PatternSet::new();
    set.add(Liar);
    let (_, report) = run(EXP, set, &GreedyConfig::default()).unwrap();
    assert!(!report.converged);
}

/// Replaces `exp x` by a new `exp x`: applies to its own result forever unless stopped.
struct Renew {
    bounded: bool,
}
impl Pattern for Renew {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![OpKey::Unary(UnaryOp::Exp)])
    }
    fn has_bounded_recursion(&self) -> bool {
        self.bounded
    }
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        let (x, ty) = (rw.operands(root)[0], rw.ty(root).clone());
        let new = rw.insert_before(root, ptir_ir::Op::Unary(UnaryOp::Exp), vec![x], ty);
        rw.replace_op(root, new.value());
        true
    }
}

#[test]
fn the_recursion_guard_stops_a_pattern_on_its_own_results() {
    let mut set = PatternSet::new();
    set.add(Renew { bounded: false });
    let (_, report) = run(EXP, set, &GreedyConfig::default()).unwrap();
    assert!(report.converged);
    assert_eq!(report.stats.total_rewrites(), 1);
    assert!(report.stats.recursion_skips >= 1);

    let mut set = PatternSet::new();
    set.add(Renew { bounded: true });
    let config = GreedyConfig::default().with_max_rewrites(Some(3));
    let (_, report) = run(EXP, set, &config).unwrap();
    assert!(
        !report.converged,
        "bounded recursion is trusted: it keeps applying"
    );
    assert_eq!(report.stats.total_rewrites(), 3);
}

#[test]
fn apply_op_patterns_processes_the_given_ops_only() {
    let p = parse(
        "func @f(%0: f32[2]) -> (f32[2], f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = exp %0 : f32[2]
  return %1, %2
}",
    );
    let cx = ProgramContext::new(&p);
    let mut rw = ProgramRewriter::new(p.functions[0].clone(), &cx).unwrap();
    let mut set = PatternSet::new();
    set.add(Swap::new("swap", UnaryOp::Exp, UnaryOp::Tanh));
    let frozen = set.freeze();
    let report =
        apply_op_patterns(&mut rw, &[InstId(1)], &frozen, &GreedyConfig::default()).unwrap();
    assert!(report.converged);
    assert_eq!(report.stats.iterations, 1);
    let f = rw.finish();
    let text = ptir_ir::print(&ptir_ir::Program {
        externs: vec![],
        functions: vec![f],
    });
    assert!(
        text.contains("%3 = tanh %0") && text.contains("%2 = exp %0"),
        "{text}"
    );
}

#[test]
fn constants_are_deduplicated_and_hoisted_to_the_top() {
    let text = "func @f(%0: f32[2], %9: bool[]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = constant splat(1.5) : f32[2]
  %3 = add %1, %2 : f32[2]
  %4 = constant dense([1.5, 1.5]) : f32[2]
  %5 = add %3, %4 : f32[2]
  %6 = cond %9 : f32[2] {
    %7 = constant splat(1.5) : f32[2]
    %8 = mul %5, %7 : f32[2]
    yield %8
  } {
    yield %5
  }
  return %6
}";
    let (p, report) = run(text, PatternSet::new(), &GreedyConfig::default()).unwrap();
    assert_eq!(report.stats.constants_deduplicated, 2);
    let lines = body(&p);
    assert_eq!(lines[0], "%2 = constant splat(1.5) : f32[2]");
    assert!(
        lines.contains(&"%5 = add %3, %2 : f32[2]".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"%8 = mul %5, %2 : f32[2]".to_string()),
        "{lines:?}"
    );
}

#[test]
fn dead_pure_ops_are_erased_and_impure_ones_stay() {
    let text = "extern @log(f32[2]) -> (f32[2]) impure
func @f(%0: f32[2]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = rng uniform : f32[2]
  %3 = call @log(%0) : f32[2]
  %4 = tanh %0 : f32[2]
  return %4
}";
    let (p, report) = run(text, PatternSet::new(), &GreedyConfig::default()).unwrap();
    assert_eq!(report.stats.erased, 1);
    assert_eq!(
        body(&p),
        [
            "%2 = rng uniform : f32[2]",
            "%3 = call @log(%0) : f32[2]",
            "%4 = tanh %0 : f32[2]",
            "return %4"
        ]
    );
}

#[test]
fn the_step_log_prints_mlirs_tree() {
    let text = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = neg %0 : f32[2]
  %2 = neg %1 : f32[2]
  %3 = exp %2 : f32[2]
  return %3
}";
    let mut set = PatternSet::new();
    set.add_rules(
        &ptir_test_support::rules("(rule neg-neg (neg (neg ?x)) => ?x)"),
        &Default::default(),
    )
    .unwrap();
    // The pattern index would not even try neg-neg at `neg %0` (a parameter is no `neg`):
    // off, the log shows the failed attempt too.
    let config = GreedyConfig::canonicalize()
        .with_fold(false)
        .with_log(true)
        .with_pattern_index(false);
    let (p, report) = run(text, set, &config).unwrap();
    assert_eq!(body(&p), ["%3 = exp %0 : f32[2]", "return %3"]);
    let log = report.log.unwrap().to_string();
    let expected = "Processing operation : 'neg'(#2) {
  %2 = neg %1 : f32[2]

  * Pattern neg-neg : 'neg -> ()' {
    ** Replace : 'neg'(#2)
    ** Modified: 'exp'(#3)
    ** Erase   : 'neg'(#2)
    ** Erase   : 'neg'(#1)
  } -> success : pattern applied successfully

} -> success : pattern matched";
    assert!(log.contains(expected), "{log}");
    assert!(
        log.contains("** Match Failure : the source pattern does not match"),
        "{log}"
    );
}

#[derive(Default)]
struct Events(Vec<String>);
impl Listener for Events {
    fn notify_inserted(&mut self, ir: &Ir, inst: InstId) {
        self.0
            .push(format!("insert {} {}", inst, ir.op(inst).name()));
    }
    fn notify_modified(&mut self, _: &Ir, inst: InstId) {
        self.0.push(format!("modify {inst}"));
    }
    fn notify_replaced(&mut self, _: &Ir, inst: InstId, by: ValueId) {
        self.0.push(format!("replace {inst} {by}"));
    }
    fn notify_erased(&mut self, ir: &Ir, inst: InstId) {
        self.0
            .push(format!("erase {inst} uses={}", ir.num_uses(inst.value())));
    }
}

#[test]
fn a_listener_hears_every_change_of_a_run() {
    let p = parse(
        "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = abs %1 : f32[2]
  return %2
}",
    );
    let cx = ProgramContext::new(&p);
    let mut events = Events::default();
    let mut rw = ProgramRewriter::new(p.functions[0].clone(), &cx).unwrap();
    rw.set_listener(&mut events);
    let mut set = PatternSet::new();
    set.add(Swap::new("swap", UnaryOp::Exp, UnaryOp::Tanh));
    let frozen = set.freeze();
    ptir_greedy::apply_patterns_greedily(&mut rw, &frozen, &GreedyConfig::default()).unwrap();
    drop(rw);
    assert_eq!(
        events.0,
        [
            "insert #3 tanh",
            "replace #1 %3",
            "modify #2",
            "erase #1 uses=0"
        ]
    );
}
