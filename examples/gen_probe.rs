//! Prints the generated program of a seed (a quick probe for diff findings).
fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let size: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let cfg = ptir::ir::generate::GenConfig {
        seed,
        size,
        ..Default::default()
    };
    print!("{}", ptir::ir::generate::generate(&cfg));
}
