//! Seed 001's rewriter API beyond `replace_op` and `modify_in_place`: a replacement by a new op
//! in one call, a root update that can be cancelled, and patterns written as a separate match
//! and rewrite, each run by the driver with its expensive checks on.

mod common;

use common::{body, run};
use ptir_greedy::views::{BinaryView, UnaryView};
use ptir_greedy::{
    GreedyConfig, Ir, Listener, MatchRewritePattern, OpRewritePattern, PatternSet, ProgramContext,
    ProgramRewriter, Step,
};
use ptir_ir::{BinaryOp, InstId, Op, UnaryOp, ValueId};

/// `sub(x, y)` becomes `add(x, neg(y))`: the root replaced by a new op in one call.
struct SubToAddNeg;
impl OpRewritePattern<BinaryView> for SubToAddNeg {
    fn may_match(&self, op: &BinaryView, _: &Ir) -> bool {
        op.kind == BinaryOp::Sub
    }
    fn match_and_rewrite(&self, op: BinaryView, rw: &mut ProgramRewriter) -> bool {
        let ty = rw.ty(op.root).clone();
        let neg = rw.insert_before(op.root, Op::Unary(UnaryOp::Neg), vec![op.rhs], ty.clone());
        rw.replace_op_with_new_op(
            op.root,
            Op::Binary(BinaryOp::Add),
            vec![op.lhs, neg.value()],
            ty,
        );
        true
    }
}

fn checked() -> GreedyConfig {
    GreedyConfig::default()
        .with_expensive_checks(true)
        .with_log(true)
}

#[test]
fn replace_op_with_new_op_replaces_every_use_and_erases_the_root() {
    let mut set = PatternSet::new();
    set.add_op(SubToAddNeg);
    let (p, report) = run(
        "func @f(%0: f32[2], %1: f32[2]) -> (f32[2]) {
  %2 = sub %0, %1 : f32[2]
  %3 = exp %2 : f32[2]
  %4 = mul %2, %3 : f32[2]
  return %4
}",
        set,
        &checked(),
    )
    .unwrap();
    assert!(report.converged);
    assert_eq!(
        body(&p),
        [
            "%5 = neg %1 : f32[2]",
            "%6 = add %0, %5 : f32[2]",
            "%3 = exp %6 : f32[2]",
            "%4 = mul %6, %3 : f32[2]",
            "return %4"
        ]
    );
}

#[derive(Default)]
struct Events(Vec<String>);
impl Listener for Events {
    fn notify_modified(&mut self, _: &Ir, inst: InstId) {
        self.0.push(format!("modified {inst}"));
    }
}

#[test]
fn a_cancelled_update_changes_nothing_and_tells_nobody_and_a_kept_one_is_one_event() {
    let p = ptir_ir::parse(
        "func @f(%0: f32[2], %1: f32[2]) -> (f32[2]) {
  %2 = sub %0, %1 : f32[2]
  %3 = add %2, %1 : f32[2]
  return %3
}",
    )
    .unwrap();
    let cx = ProgramContext::new(&p);
    let mut events = Events::default();
    let mut rw = ProgramRewriter::new(p.functions[0].clone(), &cx).unwrap();
    rw.set_listener(&mut events);
    // Operands swapped, then found not to commute: cancelled.
    let swap_if_commutative = |e: &mut ptir_greedy::InstEdit<'_>| {
        e.operands.swap(0, 1);
        matches!(e.op, Op::Binary(b) if b.is_commutative()).then_some(())
    };
    assert_eq!(rw.try_modify_in_place(InstId(2), swap_if_commutative), None);
    assert_eq!(rw.operands(InstId(2)), [ValueId(0), ValueId(1)]);
    assert_eq!(
        rw.try_modify_in_place(InstId(3), swap_if_commutative),
        Some(())
    );
    assert_eq!(rw.operands(InstId(3)), [ValueId(1), ValueId(2)]);
    let f = rw.finish();
    assert_eq!(events.0, ["modified #3"]);
    assert!(f.to_string().contains("add %1, %2"), "{f}");
}

/// `abs(neg x)` is `abs x`, as a match (finding `x`) and a rewrite.
struct AbsOfNeg;
impl MatchRewritePattern<UnaryView> for AbsOfNeg {
    type Match = ValueId;
    fn match_op(&self, op: &UnaryView, ir: &Ir) -> Result<ValueId, String> {
        if op.kind != UnaryOp::Abs {
            return Err("not an abs".into());
        }
        let inner = ir.inst_of(op.operand).ok_or("the operand is a parameter")?;
        match (ir.op(inner), ir.operands(inner)) {
            (Op::Unary(UnaryOp::Neg), [x]) => Ok(*x),
            _ => Err("the operand is not a neg".into()),
        }
    }
    fn rewrite(&self, op: UnaryView, x: ValueId, rw: &mut ProgramRewriter) {
        rw.modify_in_place(op.root, |e| e.operands[0] = x);
    }
}

#[test]
fn a_match_rewrite_pattern_rewrites_matches_and_logs_why_the_others_failed() {
    let mut set = PatternSet::new();
    set.add_match_rewrite(AbsOfNeg);
    let (p, report) = run(
        "func @f(%0: f32[2]) -> (f32[2], f32[2]) {
  %1 = neg %0 : f32[2]
  %2 = abs %1 : f32[2]
  %3 = abs %0 : f32[2]
  return %2, %3
}",
        set,
        &checked(),
    )
    .unwrap();
    assert_eq!(
        body(&p),
        [
            "%2 = abs %0 : f32[2]",
            "%3 = abs %0 : f32[2]",
            "return %2, %3"
        ]
    );
    let log = report.log.unwrap();
    assert_eq!(log.applied(), ["AbsOfNeg"]);
    let failures: Vec<&str> = log
        .steps
        .iter()
        .filter_map(|s| match s {
            Step::MatchFailure(r) => Some(r.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        failures.contains(&"the operand is a parameter"),
        "{failures:?}"
    );
}
