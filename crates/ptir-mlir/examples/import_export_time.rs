//! Times import + export of a StableHLO file (default: the GPT-2-small fixture): the median
//! of 30 runs of each phase, after 3 warm-up runs.
//!
//! `cargo run --release -p ptir-mlir --example import_export_time [FILE.mlir]`

use std::time::{Duration, Instant};

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../corpus/mlir/gpt2_small.mlir"
        )
        .to_string()
    });
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {path}: {e}");
            std::process::exit(2);
        }
    };
    let (mut import, mut export) = (Vec::new(), Vec::new());
    let mut insts = 0;
    for i in 0..33 {
        let t0 = Instant::now();
        // As `ptir-opt translate` does it: the text's value names recorded and printed back.
        let (program, source) = match ptir_mlir::import_with(&text, &Default::default()) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {path}:{e}");
                std::process::exit(2);
            }
        };
        let t1 = Instant::now();
        let options = ptir_mlir::ExportOptions {
            source: Some(&source),
            ..Default::default()
        };
        let out = ptir_mlir::export(&program, &options);
        let t2 = Instant::now();
        if let Err(e) = out {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
        insts = program.num_insts();
        if i >= 3 {
            import.push(t1 - t0);
            export.push(t2 - t1);
        }
    }
    let (i, e) = (median(import), median(export));
    println!(
        "{path}: {} lines, {insts} PTIR instructions; median of 30: import {i:.2?}, export {e:.2?}, total {:.2?}",
        text.lines().count(),
        i + e
    );
}
