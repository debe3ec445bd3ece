//! Prints the tables of BENCHMARKS.md's "Engines" section: per corpus program and per GPT-2
//! stack (1, 4, 12 layers), greedy against saturation (costs under both models, time), the
//! saturated e-graph of each stack (size, stop reason, extraction time per extractor), and the
//! rayon batch speedup on this machine.
//!
//! `cargo run --release --example engines_table`

use ptir::cost::{program_cost, OpCount};
use ptir::egraph::{ExtractorKind, SaturationOptions};
use ptir::ir::generate::{generate, gpt2_stack, GenConfig, Gpt2Config};
use ptir::ir::Program;
use ptir::{Engine, Options};
use std::time::{Duration, Instant};

fn best_of<T>(n: usize, mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..n {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        out = Some(r);
    }
    (out.expect("n >= 1"), best)
}

fn programs() -> Vec<(String, Program)> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir("corpus")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    for p in paths {
        if let Some(program) = std::fs::read_to_string(&p)
            .ok()
            .and_then(|t| ptir::ir::parse(&t).ok())
        {
            out.push((
                p.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                program,
            ));
        }
    }
    for layers in [1, 4, 12] {
        if let Ok(p) = gpt2_stack(&Gpt2Config::small(layers)) {
            out.push((format!("gpt2 x{layers}"), p));
        }
    }
    out
}

fn engines(programs: &[(String, Program)]) {
    println!("| program | insts | ops: in / greedy / eqsat | tensor: in / greedy / eqsat | greedy time | eqsat time | eqsat strictly better by |");
    println!("|---|--:|--:|--:|--:|--:|---|");
    for (name, p) in programs {
        let run = |engine| {
            ptir::optimize(
                p,
                &Options {
                    engine,
                    ..Options::default()
                },
            )
        };
        let ((g, s), _) = best_of(1, || (run(Engine::Greedy), run(Engine::Saturation)));
        let (Ok(g), Ok(s)) = (g, s) else {
            println!("| {name} | engine failed |");
            continue;
        };
        let (_, gt) = best_of(5, || run(Engine::Greedy));
        let (_, st) = best_of(5, || run(Engine::Saturation));
        let ops = |q: &Program| program_cost(q, &OpCount);
        let better = if s.report.cost_after < g.report.cost_after {
            let only: Vec<String> = s
                .report
                .rules_fired
                .iter()
                .map(|r| r.rule.clone())
                .filter(|r| !g.report.rules_fired.iter().any(|x| x.rule == *r))
                .collect();
            format!("rules only saturation fired: {}", only.join(", "))
        } else {
            "-".into()
        };
        println!(
            "| {name} | {} | {} / {} / {} | {} / {} / {} | {gt:.2?} | {st:.2?} | {better} |",
            p.num_insts(),
            ops(p),
            ops(&g.program),
            ops(&s.program),
            s.report.cost_before,
            g.report.cost_after,
            s.report.cost_after
        );
    }
}

fn egraphs(programs: &[(String, Program)]) {
    println!("\n| stack | e-nodes | e-classes | saturation | stop | extract tree | extract greedy | extract exact (optimal) | tensor cost before -> after |");
    println!("|---|--:|--:|--:|---|--:|--:|--:|---|");
    let rules = ptir::load_rules(&Options::default()).expect("bundled rules load");
    for (name, p) in programs.iter().filter(|(n, _)| n.starts_with("gpt2")) {
        let model = ptir::Cost::Tensor.model(&rules, p, ptir::Runtime::default());
        let Ok(mut lowered) = ptir::egraph::lower(p, "gpt2") else {
            continue;
        };
        let t = Instant::now();
        let report = ptir::egraph::saturate(&mut lowered, &rules, &SaturationOptions::default());
        let sat = t.elapsed();
        let mut cells = Vec::new();
        let mut after = 0.0;
        for kind in ExtractorKind::ALL {
            let t = Instant::now();
            let choice = ptir::egraph::choose(&lowered, model.as_ref(), *kind);
            let d = t.elapsed();
            let optimal = choice.as_ref().is_ok_and(|c| c.optimal);
            if let Ok(c) = choice {
                if let Ok(f) = ptir::egraph::lift(&lowered, &c) {
                    let mut q = p.clone();
                    q.functions[0] = f;
                    after = program_cost(&q, model.as_ref());
                }
            }
            cells.push(if *kind == ExtractorKind::Exact {
                format!("{d:.2?} ({optimal})")
            } else {
                format!("{d:.2?}")
            });
        }
        println!(
            "| {name} | {} | {} | {sat:.2?} | {} after {} iterations | {} | {} | {} | {} -> {after} |",
            report.nodes,
            report.classes,
            report.stop,
            report.iterations.len(),
            cells[0],
            cells[1],
            cells[2],
            program_cost(p, model.as_ref())
        );
    }
}

fn batch() {
    let programs: Vec<Program> = (0..128)
        .map(|seed| {
            generate(&GenConfig {
                seed,
                size: 40,
                ..GenConfig::default()
            })
        })
        .collect();
    let opts = Options::default();
    let timed = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        best_of(3, || {
            pool.install(|| ptir::optimize_batch(&programs, &opts))
        })
        .1
    };
    let (one, two) = (timed(1), timed(2));
    println!(
        "\nrayon batch: optimize_batch of 128 generated programs (size 40, eqsat): 1 thread {one:.2?}, 2 threads {two:.2?}, speedup {:.2}x",
        one.as_secs_f64() / two.as_secs_f64()
    );
}

fn main() {
    let programs = programs();
    engines(&programs);
    egraphs(&programs);
    batch();
}
