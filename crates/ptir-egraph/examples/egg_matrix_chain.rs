//! The baseline of the matrix-chain target: a plain egg program (no PTIR) that
//! saturates a chain of `n` matrix products under associativity and extracts the cheapest
//! order by multiply-adds, to be timed beside `ptir-opt` on the same chain.
//!
//! ```text
//! cargo run --release -p ptir-egraph --example egg_matrix_chain -- N SEED [--print] [--bundled-order]
//! ```
//!
//! The chain is `ptir_ir::generate::matrix_chain(N, SEED)`, the one `tests/engines/matrix_chain.rs`
//! checks; `--print` writes it as PTIR text on stdout instead, so that `ptir-opt` can run on it.
//!
//! The order of the two rules changes the work: applied in one iteration, the rules' matches
//! make new classes for sub-chains that have one already, which later unions merge, and how
//! many depends on which rule goes first. By default `(a (b c)) => ((a b) c)` goes first (on
//! the left-nested chain, 17k e-nodes made at N = 40); with `--bundled-order`, `((a b) c) =>
//! (a (b c))` goes first, as `dot-assoc-int` precedes `dot-assoc-rev-int` in
//! `rules/algebra.rules` (56k e-nodes made at N = 40, about 1.8x the time).

use egg::{define_language, rewrite, Analysis, CostFunction, DidMerge, Id, Symbol};
use std::time::{Duration, Instant};

define_language! {
    enum Mat {
        "*" = Mul([Id; 2]),
        Leaf(Symbol),
    }
}

/// Each class's (rows, columns), from the leaves' names `m{i}` and the chain's dims.
#[derive(Default)]
struct Dims(Vec<u64>);

impl Analysis<Mat> for Dims {
    type Data = (u64, u64);

    fn make(egraph: &mut egg::EGraph<Mat, Self>, enode: &Mat, _: Id) -> Self::Data {
        match enode {
            Mat::Mul([a, b]) => (egraph[*a].data.0, egraph[*b].data.1),
            Mat::Leaf(s) => {
                let i: usize = s.as_str()[1..].parse().unwrap_or(0);
                let d = &egraph.analysis.0;
                (d[i], d[i + 1])
            }
        }
    }

    fn merge(&mut self, _: &mut Self::Data, _: Self::Data) -> DidMerge {
        DidMerge(false, false)
    }
}

/// Multiply-adds of a product tree.
struct Flops<'a>(&'a egg::EGraph<Mat, Dims>);

impl CostFunction<Mat> for Flops<'_> {
    type Cost = u64;

    fn cost<C: FnMut(Id) -> u64>(&mut self, enode: &Mat, mut costs: C) -> u64 {
        match enode {
            Mat::Mul([a, b]) => {
                let (m, k) = self.0[*a].data;
                let n = self.0[*b].data.1;
                m * k * n + costs(*a) + costs(*b)
            }
            Mat::Leaf(_) => 0,
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (n, seed) = (num(0, 80) as usize, num(1, 1));
    let (program, d) = match ptir_ir::generate::matrix_chain(n, seed) {
        Ok(chain) => chain,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if args.iter().any(|a| a == "--print") {
        print!("{}", ptir_ir::print(&program));
        return;
    }
    let start = Instant::now();
    let mut expr = "m0".to_string();
    for i in 1..n {
        expr = format!("(* {expr} m{i})");
    }
    let expr: egg::RecExpr<Mat> = match expr.parse() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut rules: Vec<egg::Rewrite<Mat, Dims>> = vec![
        rewrite!("assoc-l"; "(* ?a (* ?b ?c))" => "(* (* ?a ?b) ?c)"),
        rewrite!("assoc-r"; "(* (* ?a ?b) ?c)" => "(* ?a (* ?b ?c))"),
    ];
    if args.iter().any(|a| a == "--bundled-order") {
        rules.reverse();
    }
    let runner: egg::Runner<Mat, Dims> = egg::Runner::new(Dims(d.clone()))
        .with_expr(&expr)
        .with_node_limit(1_000_000)
        .with_iter_limit(1_000)
        .with_time_limit(Duration::from_secs(600))
        .with_scheduler(egg::SimpleScheduler)
        .run(&rules);
    let saturate = start.elapsed();
    let extractor = egg::Extractor::new(&runner.egraph, Flops(&runner.egraph));
    let (cost, _) = extractor.find_best(runner.roots[0]);
    println!(
        "egg: n={n} seed={seed}: {} e-nodes, {} iterations, {:?}; saturate {saturate:.2?}, \
         total {:.2?}; cost {cost} multiply-adds",
        runner.egraph.total_number_of_nodes(),
        runner.iterations.len(),
        runner.stop_reason,
        start.elapsed(),
    );
}
