//! Prints N sound rules that never fire (`ptir_test_support::library::non_firing_rules`), the
//! extra rules of the pattern-scaling figures in BENCHMARKS.md: `never_rules N > never.rules`,
//! then `ptir-opt compile-rules never.rules -o never.ptrl`.
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    print!("{}", ptir_test_support::library::non_firing_rules(n));
}
