//! Optimizes a generated GPT-2 stack of N layers and prints the report (a quick probe).
fn main() {
    let layers: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let Ok(program) =
        ptir::ir::generate::gpt2_stack(&ptir::ir::generate::Gpt2Config::small(layers))
    else {
        return;
    };
    let t = std::time::Instant::now();
    match ptir::optimize(&program, &ptir::Options::default()) {
        Ok(out) => println!("{layers} layers in {:.2?}\n{}", t.elapsed(), out.report),
        Err(e) => eprintln!("{e}"),
    }
}
