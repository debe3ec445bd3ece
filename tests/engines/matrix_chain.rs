//! Integer matrix chains (the program of `corpus/matrix_chain.ptir`, longer, with random
//! dimensions in 2..64) against the dynamic-programming optimum of the chain's multiplication
//! order: saturation with default options must extract an optimal order, and
//! must not call a run "saturated" before the associativity closure is complete.

use ptir::egraph::Scheduler;
use ptir::ir::Program;
use ptir::pass::StopReason;
use ptir::Options;

/// A chain of `n` i32 matrices with dimensions drawn in 2..64 (seeded), multiplied left to
/// right (`((A B) C) ...`), and the dimensions.
fn chain(n: usize, seed: u64) -> (Program, Vec<u64>) {
    ptir::ir::generate::matrix_chain(n, seed).expect("the generated chain builds")
}

/// The fewest multiply-adds of any multiplication order of matrices `dims[i] x dims[i+1]`
/// (the textbook dynamic program).
pub fn optimal_multiply_adds(dims: &[u64]) -> u64 {
    let n = dims.len() - 1;
    // best[i][j]: the cheapest product of matrices i..=j.
    let mut best = vec![vec![0u64; n]; n];
    for len in 2..=n {
        for i in 0..=n - len {
            let j = i + len - 1;
            best[i][j] = (i..j)
                .map(|k| best[i][k] + best[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1])
                .min()
                .unwrap_or(0);
        }
    }
    best[0][n - 1]
}

#[test]
fn the_dynamic_program_knows_the_textbook_example() {
    // CLRS 15.2: 30x35, 35x15, 15x5, 5x10, 10x20, 20x25 costs 15125 at best.
    assert_eq!(optimal_multiply_adds(&[30, 35, 15, 5, 10, 20, 25]), 15125);
    assert_eq!(
        optimal_multiply_adds(&[16, 2, 16, 2]),
        2 * 16 * 2 + 16 * 2 * 2
    );
}

/// Optimizes the chain; returns the output's cost in multiply-adds (the tensor model prices
/// a product at 2 M N K) and how saturation stopped.
fn optimize(program: &Program, options: &Options) -> (u64, StopReason) {
    let out = ptir::optimize(program, options).expect("the chain optimizes");
    let run = out.report.stops.first().expect("one function").run.clone();
    (out.report.cost_after as u64 / 2, run.stop)
}

#[test]
fn matrix_chain_of_20_reaches_the_optimum_under_the_tensor_model() {
    let options = Options {
        cost: ptir::Cost::Tensor,
        ..Options::default()
    };
    for seed in [1, 2] {
        let (program, dims) = chain(20, seed);
        let (cost, stop) = optimize(&program, &options);
        assert_eq!(cost, optimal_multiply_adds(&dims), "seed {seed}: {stop}");
    }
}

#[test]
fn backoff_bans_are_waited_out_before_the_run_saturates() {
    // The backoff scheduler bans both associativity rules on this chain; a run that called
    // the first quiet iteration "saturated" stopped with 462 of the 1,352 e-nodes of the
    // closure, 1.71x the optimum. Bans are waited out, so the run reaches the closure.
    let (program, dims) = chain(20, 1);
    let options = Options {
        scheduler: Scheduler::Backoff,
        cost: ptir::Cost::Tensor,
        ..Options::default()
    };
    let out = ptir::optimize(&program, &options).expect("the chain optimizes");
    let run = &out.report.stops[0].run;
    assert_eq!(run.stop, StopReason::Saturated, "{run}");
    let closure = 20 * 21 / 2; // one e-class per contiguous sub-chain
    assert!(
        run.egraph.is_some_and(|(_, classes)| classes >= closure),
        "{run}"
    );
    assert_eq!(
        out.report.cost_after as u64 / 2,
        optimal_multiply_adds(&dims)
    );
}

/// N = 40 under the default limits and scheduler (it saturates in about 0.2 s), priced in
/// multiply-adds (the tensor model: the default roofline model prices a product by time, not
/// by its multiply-adds).
#[test]
fn matrix_chain_of_40_reaches_the_optimum_with_default_limits() {
    let (program, dims) = chain(40, 1);
    let options = Options {
        cost: ptir::Cost::Tensor,
        ..Options::default()
    };
    let (cost, stop) = optimize(&program, &options);
    assert_eq!(cost, optimal_multiply_adds(&dims), "{stop}");
}
