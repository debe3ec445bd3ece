//! A chain of functions each calling the next: every whole-program fact (purity,
//! speculation, recursion, the rule externs a program owns) is computed once per program and
//! linear in it. Computed per function, or as the call graph's transitive closure (a tuple per
//! pair of functions), a 5,000-function chain ran for hours, every function past its share of
//! the time limit. The test gives the run an hour (0.7 s for the first function's share, a
//! thousand times what it takes), so that on any machine, however loaded, every function
//! saturates unless the facts are computed per function again: it checks the work, not the
//! clock (at the default 5 s limit a busy machine left 76-708 of the 5,000 past their 1 ms).

use ptir::{Engine, Limits, Options};
use ptir_pass::StopReason;
use std::time::Duration;

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
    let options = Options {
        limits: Limits {
            time: Duration::from_secs(3600),
            ..Limits::default()
        },
        ..Options::default()
    };
    let out = ptir::optimize(&chain(n), &options).expect("optimizes");
    assert_eq!(out.report.stops.len(), n);
    let unsaturated: Vec<_> = (out.report.stops.iter())
        .filter(|s| s.run.stop != StopReason::Saturated)
        .map(|s| format!("@{}: {}", s.function, s.run.stop))
        .collect();
    assert!(
        unsaturated.is_empty(),
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
