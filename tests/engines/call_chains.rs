//! A chain of functions each calling the next: every whole-program fact (purity,
//! speculation, recursion, the rule externs a program owns) is computed once per program and
//! linear in it. Computed per function, or as the call graph's transitive closure (a tuple per
//! pair of functions), a 5,000-function chain ran for hours, every function past its share of
//! the time limit; now all but a few saturate inside their share (each function saturates for
//! an equal share of the time left: 1 ms for the first of 5,000).

use ptir::{Engine, Options};
use ptir_rules::StopReason;

/// `@f0` doubles its argument; `@f{i}` calls `@f{i-1}` and multiplies by its argument.
fn chain(n: usize) -> ptir::ir::Program {
    let mut text = String::from(
        "func @f0(%x: f32[4]) -> (f32[4]) {\n  %y = add %x, %x : f32[4]\n  return %y\n}\n",
    );
    for i in 1..n {
        text.push_str(&format!(
            "func @f{i}(%x: f32[4]) -> (f32[4]) {{\n  %y = call @f{}(%x) : f32[4]\n  %z = mul %y, %x : f32[4]\n  return %z\n}}\n",
            i - 1
        ));
    }
    ptir::ir::parse(&text).expect("the chain parses")
}

#[test]
fn a_long_call_chain_saturates_within_its_time_shares() {
    let n = 5_000;
    let out = ptir::optimize(&chain(n), &Options::default()).expect("optimizes");
    assert_eq!(out.report.stops.len(), n);
    let unsaturated: Vec<_> = (out.report.stops.iter())
        .filter(|s| s.run.stop != StopReason::Saturated)
        .map(|s| format!("@{}: {}", s.function, s.run.stop))
        .collect();
    assert!(
        unsaturated.len() <= n / 100,
        "{}: {:?}",
        unsaturated.len(),
        &unsaturated[..3.min(unsaturated.len())]
    );
    // The greedy driver too.
    let greedy = Options {
        engine: Engine::Greedy,
        ..Options::default()
    };
    assert!(ptir::optimize(&chain(n), &greedy).is_ok());
}
