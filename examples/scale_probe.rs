//! Times parse and verify of a generated chain once (a quick probe; the benches are in benches/).
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let text = ptir_ir::print(&ptir_ir::generate::generate_chain(n));
    let t = std::time::Instant::now();
    let p = ptir_ir::parse(&text).expect("parses");
    let parsed = t.elapsed();
    let ok = ptir_ir::verify(&p).is_ok();
    println!(
        "n={n} parse {parsed:?} verify {:?} ok={ok}",
        t.elapsed() - parsed
    );
}
