//! Debug helper: runs the exact extractor on one file.
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let secs: f64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10.0);
    let g = ptir_egraph::extract::serialize::read_json_file(&path).expect("read");
    let t = std::time::Instant::now();
    let out = ptir_egraph::extract::ExactDagExtractor::default()
        .with_time_limit(std::time::Duration::from_secs_f64(secs))
        .solve(&g);
    println!(
        "cost {} optimal {} bound {} rounds {} cuts {} vars {} time {:?}",
        out.extraction.dag_cost(&g),
        out.optimal,
        out.lower_bound,
        out.rounds,
        out.cuts,
        out.variables,
        t.elapsed()
    );
}
