//! Runs the exact extractor on one egraph-serialize JSON file and prints what it proved.
//!
//! ```text
//! cargo run --release -p ptir-extract --example exact_one -- FILE.json [SECONDS]
//! ```

use std::path::Path;
use std::time::{Duration, Instant};

use ptir_extract::serialize::read_json;
use ptir_extract::{ExactDagExtractor, Graph};

/// Reads an egraph-serialize JSON file (the crate does no I/O itself).
fn read_graph(path: &Path) -> Result<Graph, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_json(file).map_err(|e| format!("{}: {e}", path.display()))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_default();
    let secs: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let graph = match read_graph(Path::new(&path)) {
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
