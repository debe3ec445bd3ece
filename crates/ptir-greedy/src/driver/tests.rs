//! The failure cache, against the driver with it off: the switch is this module's alone (the
//! cache changes no result, only skips work, so no caller needs it off).

use super::{apply_patterns_greedily, GreedyConfig, GreedyReport};
use crate::facts::ProgramContext;
use crate::pattern::{Pattern, PatternSet, Roots};
use crate::rewriter::ProgramRewriter;
use ptir_ir::{InstId, Op, OpKey, UnaryOp};
use std::cell::RefCell;
use std::rc::Rc;

/// Replaces `from(x)` by a new `to(x)`.
struct Swap(UnaryOp, UnaryOp);

impl Pattern for Swap {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![OpKey::Unary(self.0)])
    }
    fn debug_name(&self) -> &str {
        "swap"
    }
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        let (x, ty) = (rw.operands(root)[0], rw.ty(root).clone());
        let new = rw.insert_before(root, Op::Unary(self.1), vec![x], ty);
        rw.replace_op(root, new.value());
        true
    }
}

/// Never matches an `exp`; records every one it is tried on.
struct Spy(Rc<RefCell<Vec<InstId>>>);

impl Pattern for Spy {
    fn roots(&self) -> Roots {
        Roots::Ops(vec![OpKey::Unary(UnaryOp::Exp)])
    }
    fn debug_name(&self) -> &str {
        "spy"
    }
    fn match_and_rewrite(&self, root: InstId, rw: &mut ProgramRewriter<'_>) -> bool {
        self.0.borrow_mut().push(root);
        rw.notify_match_failure(root, || "spy only watches".to_string())
    }
}

/// Runs the spy (and `swap`, if given) on the first function of `text`: how many times the
/// spy was tried, and the report.
fn spy(text: &str, swap: Option<Swap>, config: &GreedyConfig) -> (usize, GreedyReport) {
    let mut p = ptir_ir::parse(text).unwrap();
    let cx = ProgramContext::new(&p);
    let mut rw = ProgramRewriter::new(p.functions.remove(0), &cx).unwrap();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut set = PatternSet::new();
    set.add(Spy(seen.clone()));
    if let Some(swap) = swap {
        set.add(swap);
    }
    let report = apply_patterns_greedily(&mut rw, &set.freeze(), config).unwrap();
    let n = seen.borrow().len();
    (n, report)
}

#[test]
fn erasing_an_op_requeues_operands_left_with_at_most_one_other_user() {
    let config = GreedyConfig::canonicalize()
        .with_max_iterations(Some(1))
        .with_failure_cache(false);
    // The dead tanh is erased; exp keeps one other user (abs): it is processed again.
    let one_other = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = tanh %1 : f32[2]
  %3 = abs %1 : f32[2]
  return %3
}";
    assert_eq!(spy(one_other, None, &config).0, 2);
    // With two other users (abs, neg), it is not.
    let two_others = "func @f(%0: f32[2]) -> (f32[2], f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = tanh %1 : f32[2]
  %3 = abs %1 : f32[2]
  %4 = neg %1 : f32[2]
  return %3, %4
}";
    assert_eq!(spy(two_others, None, &config).0, 1);
}

#[test]
fn the_failure_cache_skips_a_pattern_until_what_it_read_changes() {
    const TWO_CHAINS: &str = "func @f(%0: f32[2]) -> (f32[2], f32[2]) {
  %1 = exp %0 : f32[2]
  %2 = tanh %0 : f32[2]
  return %1, %2
}";
    // The tanh rewrite forces a second iteration; the spy failed on an unchanged exp.
    let runs = |cache: bool| {
        let config = GreedyConfig::default().with_failure_cache(cache);
        let swap = Swap(UnaryOp::Tanh, UnaryOp::Abs);
        let (n, report) = spy(TWO_CHAINS, Some(swap), &config);
        assert_eq!(report.stats.iterations, 2);
        (n, report.stats.cache_hits)
    };
    assert_eq!(runs(true), (1, 1));
    assert_eq!(runs(false), (2, 0));
    // When the exp's operand is rewired, the spy is tried again.
    let text = "func @f(%0: f32[2]) -> (f32[2]) {
  %1 = tanh %0 : f32[2]
  %2 = exp %1 : f32[2]
  return %2
}";
    let swap = Swap(UnaryOp::Tanh, UnaryOp::Abs);
    let (n, _) = spy(text, Some(swap), &GreedyConfig::default());
    // Bottom-up: exp, then exp again once the tanh below it became an abs; iteration 2
    // skips it (nothing it read changed since).
    assert_eq!(n, 2);
}
