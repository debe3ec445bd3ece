//! Optimizes a generated GPT-2 stack of N layers and prints the report (a quick probe), or,
//! with `--print`, prints the stack as PTIR text (the input of the BENCHMARKS.md scaling
//! tables, measured whole-process with `ptir-opt FILE --report` under `/usr/bin/time -v`).
//!
//! ```text
//! cargo run --release --example gpt2_probe -- 96            # optimize, print the report
//! cargo run --release --example gpt2_probe -- 96 --print > stack96.ptir
//! ```
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let layers: usize = args.iter().find_map(|s| s.parse().ok()).unwrap_or(12);
    let print = args.iter().any(|a| a == "--print");
    let program =
        match ptir::ir::generate::gpt2_stack(&ptir::ir::generate::Gpt2Config::small(layers)) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("cannot build a {layers}-layer stack: {e}");
                std::process::exit(2);
            }
        };
    if print {
        print!("{}", ptir::ir::print(&program));
        return;
    }
    let t = std::time::Instant::now();
    match ptir::optimize(&program, &ptir::Options::default()) {
        Ok(out) => println!("{layers} layers in {:.2?}\n{}", t.elapsed(), out.report),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
