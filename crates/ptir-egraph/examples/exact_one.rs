//! Runs the exact extractor on one egraph-serialize JSON file and prints what it proved.
//!
//! ```text
//! cargo run --release -p ptir-egraph --example exact_one -- FILE.json [SECONDS]
//! ```

use std::time::{Duration, Instant};

use ptir_egraph::extract::serialize::read_json_file;
use ptir_egraph::extract::ExactDagExtractor;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_default();
    let secs: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let graph = match read_json_file(&path) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let t = Instant::now();
    let exact = ExactDagExtractor::default().with_time_limit(Duration::from_secs_f64(secs));
    let out = exact.solve(&graph);
    println!(
        "DAG cost {} optimal {} lower bound {} rounds {} cuts {} variables {} time {:?}",
        out.extraction.dag_cost(&graph),
        out.optimal,
        out.lower_bound,
        out.rounds,
        out.cuts,
        out.variables,
        t.elapsed()
    );
}
