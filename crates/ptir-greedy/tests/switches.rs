//! Driver switches and pattern kinds that had no test of their own: typed
//! `OpRewritePattern`s, `IMPOSSIBLE_TO_MATCH`, region simplification, the canonicalizer's
//! `test-convergence`, and patterns of equal benefit in insertion order.

mod common;

use common::{body, parse, run, Swap};
use ptir_greedy::views::UnaryView;
use ptir_greedy::{
    Canonicalize, GreedyConfig, Ir, OpRewritePattern, Pattern, PatternSet, ProgramRewriter, Roots,
    Strictness, IMPOSSIBLE_TO_MATCH,
};
use ptir_ir::{InstId, Op, OpKey, UnaryOp};
use ptir_pass::Pass;
use std::cell::RefCell;
use std::rc::Rc;

/// `abs(abs x) = abs x`, seen through the typed unary view; records the kind of every op it
/// is asked to rewrite.
struct AbsAbs {
    kinds: Rc<RefCell<Vec<UnaryOp>>>,
}

impl OpRewritePattern<UnaryView> for AbsAbs {
    fn may_match(&self, op: &UnaryView, _: &Ir<'_>) -> bool {
        op.kind == UnaryOp::Abs
    }

    fn match_and_rewrite(&self, op: UnaryView, rw: &mut ProgramRewriter<'_>) -> bool {
        self.kinds.borrow_mut().push(op.kind);
        match rw.inst_of(op.operand).map(|i| rw.op(i)) {
            Some(Op::Unary(UnaryOp::Abs)) => {
                rw.replace_op(op.root, op.operand);
                true
            }
            _ => rw.notify_match_failure(op.root, || "operand is not an abs".into()),
        }
    }
}

#[test]
fn a_typed_pattern_sees_only_ops_of_its_view_that_pass_its_pre_check() {
    let kinds = Rc::new(RefCell::new(Vec::new()));
    let mut set = PatternSet::new();
    set.add_op(AbsAbs {
        kinds: kinds.clone(),
    });
    let text = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = abs %0 : f32[2]
  %2 = abs %1 : f32[2]
  %3 = exp %2 : f32[2]
  %4 = add %3, %0 : f32[2]
  return %4
}";
    let (p, report) = run(text, set, &GreedyConfig::default()).unwrap();
    assert!(report.converged);
    assert_eq!(
        body(&p),
        [
            "%1 = abs %0 : f32[2]",
            "%3 = exp %1 : f32[2]",
            "%4 = add %3, %0 : f32[2]",
            "return %4"
        ]
    );
    // `exp` passes the view but not `may_match`, `add` is not a unary op: only abs ops reach
    // `match_and_rewrite` (the outer one, which removes itself; the inner one, if the driver
    // revisits it).
    assert!((1..=2).contains(&kinds.borrow().len()), "{kinds:?}");
    assert!(
        kinds.borrow().iter().all(|k| *k == UnaryOp::Abs),
        "{kinds:?}"
    );
}

#[test]
fn an_impossible_to_match_pattern_is_dropped_when_the_set_is_frozen() {
    let mut set = PatternSet::new();
    set.add(Swap::new("never", UnaryOp::Exp, UnaryOp::Tanh).benefit(IMPOSSIBLE_TO_MATCH))
        .add(Swap::new("sometimes", UnaryOp::Abs, UnaryOp::Neg));
    let frozen = {
        let mut s = PatternSet::new();
        s.add(Swap::new("never", UnaryOp::Exp, UnaryOp::Tanh).benefit(IMPOSSIBLE_TO_MATCH));
        s.freeze()
    };
    assert_eq!(frozen.len(), 0);
    let text = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  return %1
}";
    let (p, _) = run(text, set, &GreedyConfig::default()).unwrap();
    assert_eq!(body(&p), ["%1 = exp %0 : f32[2]", "return %1"]);
}

/// Replaces `exp(x)` by `tanh(x)` and leaves an unused `abs(x)` behind (a pattern that
/// creates more than it uses).
struct Litter;

impl Pattern for Litter {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![OpKey::Unary(UnaryOp::Exp)])
    }
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        let x = rw.operands(root)[0];
        let ty = rw.ty(root).clone();
        rw.insert_before(root, Op::Unary(UnaryOp::Abs), vec![x], ty.clone());
        let new = rw.insert_before(root, Op::Unary(UnaryOp::Tanh), vec![x], ty);
        rw.replace_op(root, new.value());
        true
    }
}

#[test]
fn region_simplification_erases_dead_ops_the_worklist_never_visits() {
    // Under `ExistingOps` strictness the new `abs` is never processed: only the sweep after
    // each iteration (MLIR's region simplification) erases it.
    let text = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  return %1
}";
    let config = |simplify| {
        GreedyConfig::default()
            .with_strictness(Strictness::ExistingOps)
            .with_region_simplification(simplify)
    };
    let litter = || {
        let mut set = PatternSet::new();
        set.add(Litter);
        set
    };
    let (p, _) = run(text, litter(), &config(true)).unwrap();
    assert_eq!(body(&p), ["%3 = tanh %0 : f32[2]", "return %3"]);
    let (p, _) = run(text, litter(), &config(false)).unwrap();
    assert_eq!(
        body(&p),
        ["%2 = abs %0 : f32[2]", "%3 = tanh %0 : f32[2]", "return %3"]
    );
}

#[test]
fn test_convergence_makes_a_run_that_does_not_converge_an_error() {
    // `exp -> tanh` and `tanh -> exp` undo each other: the run hits the iteration limit.
    let cycling = || {
        let mut set = PatternSet::new();
        set.add(Swap::new("to-tanh", UnaryOp::Exp, UnaryOp::Tanh))
            .add(Swap::new("to-exp", UnaryOp::Tanh, UnaryOp::Exp));
        Canonicalize::new(set.freeze())
            .with_config(GreedyConfig::canonicalize().with_max_iterations(Some(3)))
    };
    let text = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  return %1
}";
    let mut p = parse(text);
    let report = cycling()
        .run(&mut p)
        .expect("not converging is not an error by default");
    assert!(
        !report
            .stats::<ptir_greedy::CanonicalizeStats>()
            .expect("canonicalize reports")
            .driver
            .converged
    );
    let mut p = parse(text);
    let err = cycling()
        .with_test_convergence(true)
        .run(&mut p)
        .expect_err("with test-convergence it is");
    assert!(err.to_string().contains("converge"), "{err}");
}

#[test]
fn patterns_of_equal_benefit_apply_in_insertion_order() {
    let text = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  return %1
}";
    let mut set = PatternSet::new();
    set.add(Swap::new("first", UnaryOp::Exp, UnaryOp::Tanh))
        .add(Swap::new("second", UnaryOp::Exp, UnaryOp::Abs));
    let (p, _) = run(text, set, &GreedyConfig::default()).unwrap();
    assert!(body(&p)[0].contains("tanh"), "{:?}", body(&p));
}
