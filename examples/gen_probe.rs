//! Prints the generated program of a seed (a quick probe for diff findings):
//! `gen_probe SEED [SIZE] [extended]`; `extended` is the generator `ptir-opt diff --random`
//! runs (trapping and looping helpers, functions named like the bundled rules' externs).
fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let size: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let cfg = if std::env::args().nth(3).as_deref() == Some("extended") {
        let names = ptir::rules::RuleSet::bundled()
            .map(|set| set.externs().keys().cloned().collect())
            .unwrap_or_default();
        ptir::ir::generate::GenConfig::extended(seed, size, names)
    } else {
        ptir::ir::generate::GenConfig {
            seed,
            size,
            ..Default::default()
        }
    };
    print!("{}", ptir::ir::generate::generate(&cfg));
}
