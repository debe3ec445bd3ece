//! Loop-invariant code motion: the instructions of a `while` or `scan` region that compute the
//! same value on every iteration move out, right before the loop, where they run once.
//!
//! What may move is decided by the Datalog analyses ([`ptir_ir::analysis`]): an instruction is a
//! candidate when [`is_loop_invariant`](ptir_ir::FunctionAnalysis::is_loop_invariant) says so
//! (pure, reading only values from outside the loop or other invariant instructions of it). A candidate moves unless it
//! would run where the program did not run it:
//!
//! - a `while` test region and the body of a `scan` of length 1 or more run at least once, so
//!   every candidate moves out of them (a trapping op would have trapped on the first
//!   iteration anyway);
//! - a `while` body and the body of a `scan` of length 0 may not run at all: only
//!   speculatable candidates move ([`speculation::inst_hazard`]: no integer division or
//!   remainder, no result larger than the speculation limit) and no call (its callee could
//!   trap or not terminate);
//! - region ops never move (their bodies would run once more or less often only if hoisted
//!   whole, which the analysis of the outer loop decides after an inner round);
//! - an instruction reading a value of its region that stays stays too.
//!
//! Nested loops are hoisted one level per round, to a fixpoint: what leaves an inner loop may
//! leave the outer one on the next round. Each moved instruction keeps its value id, and its
//! new place dominates every use it had, so the program still verifies.
//!
//! The e-graph engine gets the same effect from lifting (a value is placed where it is first
//! available); any pipeline runs this as the `licm` pass (MLIR's
//! `-loop-invariant-code-motion`), e.g. `--pass-pipeline canonicalize,licm,cse,dce`.
//!
//! ```
//! let mut p = ptir_ir::parse("func @f(%x: f32[4], %w: f32[]) -> (f32[4]) {
//!   %r = scan %x, %x num_carry=1 length=4 : (f32[4], f32[4,4]) {
//!   ^(%h: f32[4], %row: f32[]):
//!     %wb = broadcast %w dims=[] : f32[4]
//!     %e = exp %wb : f32[4]
//!     %n = mul %h, %e : f32[4]
//!     yield %n, %n
//!   }
//!   %y = tuple_get %r index=0 : f32[4]
//!   return %y
//! }").unwrap_or_else(|e| panic!("{e}"));
//! assert_eq!(ptir_pass::transform::hoist_loop_invariants(&mut p), 2);
//! let text = ptir_ir::print(&p);
//! assert!(text.find("exp").unwrap() < text.find("scan").unwrap(), "{text}");
//! ptir_ir::verify(&p).unwrap();
//! ```

use ptir_ir::analysis::loops::is_loop_region;
use ptir_ir::analysis::{speculation, Analysis};
use ptir_ir::{InstId, Instruction, Program, Region, ValueId};
use ptir_ir::{Op, OpKey};
use rustc_hash::{FxHashMap, FxHashSet};

/// Rounds of hoisting at most (one loop level each); deeper nests stop there, still valid.
pub const HOIST_ROUNDS: usize = 16;

/// Hoists the loop-invariant instructions of every loop of `program` (see the module docs);
/// returns how many instructions moved (an instruction moving out of two loops counts twice).
pub fn hoist_loop_invariants(program: &mut Program) -> usize {
    let mut moved = 0;
    for _ in 0..HOIST_ROUNDS {
        let analysis = Analysis::of(program);
        let mut round = 0;
        for (f, a) in program.functions.iter_mut().zip(analysis.functions()) {
            let plan: FxHashMap<InstId, InstId> = a
                .loop_invariant()
                .into_iter()
                .filter_map(|i| Some((i, a.invariant_loop(i)?)))
                .collect();
            if !plan.is_empty() {
                round += hoist_in(&mut f.body, &plan);
            }
        }
        if round == 0 {
            break;
        }
        moved += round;
    }
    moved
}

/// Hoists, in `block` and the blocks nested in it, the planned instructions (each with the
/// loop it is invariant in) out of their loop.
fn hoist_in(block: &mut Region, plan: &FxHashMap<InstId, InstId>) -> usize {
    let mut moved = 0;
    let insts = std::mem::take(&mut block.insts);
    for mut inst in insts {
        let key = inst.op.key();
        let loop_id = inst.id();
        let may_skip = match &inst.op {
            Op::Scan { length, .. } => *length == 0,
            _ => false,
        };
        let mut hoisted = Vec::new();
        for (index, region) in inst.op.regions_mut().into_iter().enumerate() {
            moved += hoist_in(region, plan);
            if !is_loop_region(key, index) {
                continue;
            }
            let runs_once = match key {
                OpKey::While => index == 0,
                _ => !may_skip,
            };
            hoisted.extend(take_invariants(region, plan, loop_id, runs_once));
        }
        moved += hoisted.len();
        block.insts.extend(hoisted);
        block.insts.push(inst);
    }
    moved
}

/// Removes from `region` of the loop `loop_id`, in order, the instructions planned to leave
/// that loop that may move (see the module docs) and returns them. (An instruction that an
/// inner loop's hoisting just brought here is planned for the inner loop: it waits for the
/// next round's analysis.)
fn take_invariants(
    region: &mut Region,
    plan: &FxHashMap<InstId, InstId>,
    loop_id: InstId,
    runs_once: bool,
) -> Vec<Instruction> {
    let defined: FxHashSet<ValueId> = region.insts.iter().map(|i| i.result).collect();
    let mut staying: FxHashSet<ValueId> = region.params.iter().map(|p| p.id).collect();
    staying.extend(&defined);
    let mut out = Vec::new();
    let insts = std::mem::take(&mut region.insts);
    for inst in insts {
        let movable = plan.get(&inst.id()) == Some(&loop_id)
            && inst.op.regions().is_empty()
            && (runs_once || (inst.op.key() != OpKey::Call && !speculation::inst_hazard(&inst)))
            && !inst
                .operands
                .iter()
                .any(|v| staying.contains(v) && defined.contains(v));
        if movable {
            staying.remove(&inst.result);
            out.push(inst);
        } else {
            region.insts.push(inst);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hoisted(text: &str) -> (usize, String) {
        let mut p = ptir_ir::parse(text).unwrap_or_else(|e| panic!("{e}"));
        let before = ptir_ir::Interpreter::new(&p).run(
            &p.functions[0].name,
            &ptir_ir::inputs::try_random_inputs(&p.functions[0], 1).unwrap(),
        );
        let n = hoist_loop_invariants(&mut p);
        ptir_ir::verify(&p).unwrap_or_else(|e| panic!("{e}\n{}", ptir_ir::print(&p)));
        let after = ptir_ir::Interpreter::new(&p).run(
            &p.functions[0].name,
            &ptir_ir::inputs::try_random_inputs(&p.functions[0], 1).unwrap(),
        );
        assert_eq!(format!("{before:?}"), format!("{after:?}"));
        (n, ptir_ir::print(&p))
    }

    #[test]
    fn a_trap_guarded_by_a_loop_that_may_not_run_stays_in_the_loop() {
        // `div` of integers by a loop-invariant zero: the while body never runs (the test is
        // false), so the program does not trap; hoisted, it would.
        let (n, text) = hoisted(
            "func @f(%x: i32[], %z: i32[]) -> (i32[]) {
  %r = while %x : i32[] {
  ^(%c: i32[]):
    %f = constant splat(false) : bool[]
    yield %f
  } {
  ^(%b: i32[]):
    %q = div %x, %z : i32[]
    %s = add %b, %q : i32[]
    yield %s
  }
  return %r
}",
        );
        // The test's constant moves; the division does not.
        assert_eq!(n, 1, "{text}");
        assert!(
            text.find("div").unwrap() > text.find("while").unwrap(),
            "{text}"
        );
    }

    #[test]
    fn chains_move_in_order_and_a_value_of_the_loop_keeps_its_readers_in() {
        let (n, text) = hoisted(
            "func @f(%x: f32[4], %w: f32[4]) -> (f32[4]) {
  %r = scan %x, %x num_carry=1 length=4 : (f32[4], f32[4,4]) {
  ^(%h: f32[4], %row: f32[]):
    %a = exp %w : f32[4]
    %b = neg %a : f32[4]
    %c = mul %h, %b : f32[4]
    %d = tanh %c : f32[4]
    yield %d, %b
  }
  %y = tuple_get %r index=0 : f32[4]
  return %y
}",
        );
        assert_eq!(n, 2, "{text}");
        let (exp, neg, scan) = (
            text.find("exp").unwrap(),
            text.find("neg").unwrap(),
            text.find("scan").unwrap(),
        );
        assert!(exp < neg && neg < scan, "{text}");
        assert!(text.find("tanh").unwrap() > scan, "{text}");
    }

    #[test]
    fn nested_loops_hoist_level_by_level_to_the_outside() {
        let (n, text) = hoisted(
            "func @f(%x: f32[4], %w: f32[4]) -> (f32[4]) {
  %r = scan %x, %x num_carry=1 length=4 : (f32[4], f32[4,4]) {
  ^(%h: f32[4], %row: f32[]):
    %i = scan %h, %h num_carry=1 length=4 : (f32[4], f32[4,4]) {
    ^(%g: f32[4], %col: f32[]):
      %e = exp %w : f32[4]
      %m = mul %g, %e : f32[4]
      yield %m, %m
    }
    %j = tuple_get %i index=0 : f32[4]
    yield %j, %j
  }
  %y = tuple_get %r index=0 : f32[4]
  return %y
}",
        );
        // Out of the inner loop, then out of the outer one.
        assert_eq!(n, 2, "{text}");
        assert!(
            text.find("exp").unwrap() < text.find("scan").unwrap(),
            "{text}"
        );
    }

    #[test]
    fn a_program_without_invariants_is_left_as_it_is() {
        let text = "func @f(%x: f32[4]) -> (f32[4]) {
  %r = scan %x, %x num_carry=1 length=4 : (f32[4], f32[4,4]) {
  ^(%h: f32[4], %row: f32[]):
    %n = neg %h : f32[4]
    yield %n, %n
  }
  %y = tuple_get %r index=0 : f32[4]
  return %y
}";
        let (n, out) = hoisted(text);
        assert_eq!(n, 0);
        assert_eq!(out, ptir_ir::print(&ptir_ir::parse(text).unwrap()));
    }
}
