//! The transformation passes on generated programs: hoisting keeps programs valid and their
//! results on programs with regions nested every way, and scales to 100k instructions; each
//! pass names itself in the `--explain` chain of the ops it makes.

use super::*;
use crate::explain::Provenance;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use ptir_ir::{Program, ValueId};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn hoisting_loop_invariants_keeps_programs_valid_and_their_results(
        seed in any::<u64>(),
        budget in 1usize..60,
    ) {
        let p = ptir_ir::generate::scoped_program(seed, budget);
        let mut hoisted = p.clone();
        hoist_loop_invariants(&mut hoisted);
        prop_assert!(ptir_ir::verify(&hoisted).is_ok(), "{}", ptir_ir::print(&hoisted));
        let inputs = ptir_ir::inputs::try_random_inputs(&p.functions[0], seed)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Generated `while`s may never stop: a small fuel keeps each run short.
        let run = |q: &Program| {
            let r = ptir_ir::Interpreter::new(q).with_while_fuel(1_000).run("r", &inputs);
            format!("{r:?}")
        };
        prop_assert_eq!(run(&p), run(&hoisted), "{}", ptir_ir::print(&hoisted));
    }
}

#[test]
fn hoisting_scales_to_100k_instructions() {
    let mut p = ptir_ir::generate::loop_program(100_000);
    hoist_loop_invariants(&mut p);
    assert!(ptir_ir::verify(&p).is_ok());
}

#[test]
fn a_transformation_marks_the_ops_it_makes_with_its_name() {
    let text = "func @main(%x: f32[4]) -> (f32[4]) {
  %0 = constant splat(0) : i32[]
  %1 = while %0, %x : (i32[], f32[4]) {
  ^(%2: i32[], %3: f32[4]):
    %4 = constant splat(2) : i32[]
    %5 = lt %2, %4 : bool[]
    yield %5
  } {
  ^(%6: i32[], %7: f32[4]):
    %8 = constant splat(1) : i32[]
    %9 = add %6, %8 : i32[]
    %10 = mul %7, %7 : f32[4]
    yield %9, %10
  }
  %11 = tuple_get %1 index=1 : f32[4]
  return %11
}";
    let mut p = ptir_ir::parse(text).unwrap();
    let mut provenance = Provenance::default();
    let report = Unroll(UnrollLimits::DEFAULT)
        .run_explained(&mut p, &mut provenance)
        .unwrap();
    assert!(report.changed);
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    let f = &p.functions[0];
    let mut marked = 0;
    f.body.walk(&mut |i, _| {
        if let Some(chain) = provenance.chain("main", i.result) {
            assert_eq!(chain.rules().collect::<Vec<_>>(), [UNROLL_PASS]);
            marked += 1;
        }
    });
    assert!(
        marked >= 2,
        "the body copies are the unroller's: {}",
        ptir_ir::print(&p)
    );
    // Unchanged ops keep no chain: the input's `%x` use stays an input op.
    assert!(provenance.chain("main", ValueId(0)).is_none());
}

#[test]
fn unroll_takes_its_limits_from_the_pipeline_text_and_refuses_bad_ones() {
    let mut registry = PassRegistry::new();
    register_passes(&mut registry, UnrollLimits::DEFAULT);
    let mut p: Program = ptir_ir::parse(
        "func @f(%x: f32[]) -> (f32[]) {
  %0 = constant splat(0) : i32[]
  %1 = while %0, %x : (i32[], f32[]) {
  ^(%2: i32[], %3: f32[]):
    %4 = constant splat(3) : i32[]
    %5 = lt %2, %4 : bool[]
    yield %5
  } {
  ^(%6: i32[], %7: f32[]):
    %8 = constant splat(1) : i32[]
    %9 = add %6, %8 : i32[]
    %10 = exp %7 : f32[]
    yield %9, %10
  }
  %11 = tuple_get %1 index=1 : f32[]
  return %11
}",
    )
    .unwrap();
    let kept = registry
        .parse("unroll{max-trips=2}")
        .unwrap()
        .run(&mut p.clone())
        .unwrap();
    assert!(!kept.passes[0].changed, "3 trips are over a limit of 2");
    let none = registry
        .parse("unroll{max-trips=0}")
        .unwrap()
        .run(&mut p.clone())
        .unwrap();
    assert!(!none.passes[0].changed, "a limit of 0 unrolls nothing");
    let done = registry.parse("unroll").unwrap().run(&mut p).unwrap();
    assert!(done.passes[0].changed);
    for bad in [
        "unroll{max-trips=-1}",
        "unroll{max-trips=x}",
        "unroll{trips=3}",
        "licm{x=1}",
    ] {
        assert!(registry.parse(bad).is_err(), "{bad} is refused");
    }
}
