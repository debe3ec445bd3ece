//! Greedy canonicalize against `mlir-opt-22 --canonicalize` on the bench chain (mul by a splat
//! 1.0, neg of neg, add of a parameter, repeated; `ptir_test_support::chain`), at each size:
//!
//! - **ours**: the canonicalize pass alone in a `PassManager` (no verification), with the
//!   bundled rules that fire on the chain (`mul-one`, `neg-neg`) and folding, as
//!   `benches/canonicalize.rs` runs it; and the same with every greedy rule of the bundled
//!   library (minus `fast-math` and `algebra`);
//! - **what a user runs**: `ptir::optimize` with `Engine::Greedy` and default `Options` (the
//!   bundled library, folding, then CSE and DCE, verified), per phase, in this process (the
//!   system allocator, as a library user's binary has by default); and the
//!   `ptir-opt FILE --engine greedy -o OUT` process (the binary beside this example: build it
//!   with `cargo build --release --bin ptir-opt`; it allocates with mimalloc), whole and the
//!   sum of the three phases its JSON report gives;
//! - **MLIR**: `mlir-opt-22 --canonicalize --mlir-timing -o OUT` on the same chain printed in
//!   `func`/`arith` (`ptir_test_support::chain::chain_mlir`): the whole process's wall time and the
//!   `Canonicalizer` line of the timing report.
//!
//! Every figure is the best of `--runs` runs (default 5), the runs of both sides interleaved
//! so that the load of a shared machine weighs on both alike. Both sides must leave the same
//! number of `add`s. Prints two Markdown tables for `BENCHMARKS.md`:
//!
//! `cargo run --release --example canonicalize_vs_mlir [-- --runs N] [SIZES...]`

use ptir_greedy::{Canonicalize, CanonicalizeStats, GreedyConfig};
use ptir_ir::Program;
use ptir_pass::{Pass, PassManager};
use ptir_rules::{RuleFilter, RuleSet};
use ptir_test_support::chain::{canonicalize_chain, chain_mlir};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const MLIR_OPT: &str = "mlir-opt-22";

fn greedy_filter() -> RuleFilter {
    RuleFilter {
        enabled: Vec::new(),
        disabled: vec!["fast-math".into(), "algebra".into(), "priced".into()],
    }
}

/// The greedy rules that fire on a small chain with folding off.
fn firing_rules(rules: &RuleSet) -> Result<Vec<String>, String> {
    let pass = Canonicalize::with_filtered_rules(rules, &greedy_filter())
        .map_err(|e| e.to_string())?
        .with_config(GreedyConfig::canonicalize().with_fold(false));
    let mut p = canonicalize_chain(100);
    let report = pass.run(&mut p).map_err(|e| e.to_string())?;
    Ok(report
        .stats::<CanonicalizeStats>()
        .map(|s| s.driver.clone())
        .unwrap_or_default()
        .rewrites
        .keys()
        .cloned()
        .collect())
}

/// One canonicalization of a fresh copy of `program`: wall time (seconds) and the
/// instructions left.
fn time_ours(pm: &PassManager, program: &Program) -> Result<(f64, usize), String> {
    let mut p = program.clone();
    let start = Instant::now();
    pm.run(&mut p).map_err(|e| e.to_string())?;
    let t = start.elapsed().as_secs_f64();
    Ok((t, p.num_insts()))
}

/// One `mlir-opt-22` run on `input`: process wall time and `Canonicalizer` time (seconds).
fn time_mlir(input: &Path, output: &Path) -> Result<(f64, f64), String> {
    let start = Instant::now();
    let out = Command::new(MLIR_OPT)
        .arg("--canonicalize")
        .arg("--mlir-timing")
        .arg(input)
        .arg("-o")
        .arg(output)
        .output()
        .map_err(|e| format!("{MLIR_OPT}: {e}"))?;
    let process = start.elapsed().as_secs_f64();
    let report = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(report.into_owned());
    }
    let pass = report
        .lines()
        .find(|l| l.trim_end().ends_with("Canonicalizer"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|t| t.parse::<f64>().ok())
        .ok_or_else(|| format!("no Canonicalizer line in:\n{report}"))?;
    Ok((process, pass))
}

/// One library call with default options (greedy engine): wall time, the canonicalize, cse
/// and dce phases (seconds), and the instructions left.
fn time_default(program: &Program) -> Result<(f64, [f64; 3], usize), String> {
    let options = ptir::Options {
        engine: ptir::Engine::Greedy,
        ..ptir::Options::default()
    };
    let start = Instant::now();
    let out = ptir::optimize(program, &options).map_err(|e| e.to_string())?;
    let t = start.elapsed().as_secs_f64();
    let phase = |name: &str| {
        out.report
            .phases
            .iter()
            .filter(|p| p.phase == name)
            .map(|p| p.time.as_secs_f64())
            .sum::<f64>()
    };
    let phases = [phase("canonicalize"), phase("cse"), phase("dce")];
    Ok((t, phases, out.program.num_insts()))
}

/// One `ptir-opt FILE --engine greedy -o OUT --report-json=REPORT` process: wall time and
/// the canonicalize, cse and dce phases of its report (seconds).
fn time_cli(binary: &Path, input: &Path, output: &Path) -> Result<(f64, [f64; 3]), String> {
    let report = output.with_extension("json");
    let start = Instant::now();
    let out = Command::new(binary)
        .arg(input)
        .args(["--engine", "greedy", "-o"])
        .arg(output)
        .arg(format!("--report-json={}", report.display()))
        .output()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    let wall = start.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = std::fs::read_to_string(&report).map_err(|e| e.to_string())?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let phase = |name: &str| {
        json["phases"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["phase"] == name)
            .filter_map(|p| p["seconds"].as_f64())
            .sum::<f64>()
    };
    Ok((wall, [phase("canonicalize"), phase("cse"), phase("dce")]))
}

/// The `ptir-opt` binary beside this example's (`target/release/ptir-opt`).
fn ptir_opt_binary() -> Result<std::path::PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .ok_or("no directory above the example")?;
    let binary = dir.join("ptir-opt");
    if binary.exists() {
        Ok(binary)
    } else {
        Err(format!(
            "{} is missing: cargo build --release --bin ptir-opt",
            binary.display()
        ))
    }
}

/// The non-constant `arith` ops of an MLIR file.
fn mlir_ops_left(output: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(output).map_err(|e| e.to_string())?;
    Ok(text
        .lines()
        .filter(|l| l.contains(" = arith.") && !l.contains("arith.constant"))
        .count())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut runs = 5;
    let mut sizes = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--runs" {
            runs = args
                .next()
                .and_then(|r| r.parse().ok())
                .ok_or("--runs takes a number")?;
        } else {
            sizes.push(a.parse::<usize>().map_err(|e| format!("{a}: {e}"))?);
        }
    }
    if sizes.is_empty() {
        sizes = vec![10_000, 100_000, 1_000_000];
    }
    let rules = RuleSet::bundled().map_err(|e| e.to_string())?;
    let fired = firing_rules(&rules)?;
    let filter = RuleFilter {
        enabled: fired.clone(),
        disabled: Vec::new(),
    };
    let mut pm = PassManager::new().with_verify_each(false);
    pm.add(Canonicalize::with_filtered_rules(&rules, &filter).map_err(|e| e.to_string())?);
    let all_rules =
        Canonicalize::with_filtered_rules(&rules, &greedy_filter()).map_err(|e| e.to_string())?;
    let n_all = all_rules.patterns().len();
    let mut pm_all = PassManager::new().with_verify_each(false);
    pm_all.add(all_rules);
    println!("rules that fire on the chain: {fired:?}; best of {runs} runs\n");
    println!(
        "| instructions | ours (ms) | ours per inst (ns) | ours, all {n_all} greedy rules (ms) \
         | MLIR process (ms) | MLIR canonicalizer (ms) | MLIR canonicalizer / ours |"
    );
    println!("|--:|--:|--:|--:|--:|--:|--:|");
    let dir = std::env::temp_dir().join(format!("ptir-vs-mlir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let binary = ptir_opt_binary()?;
    let mut defaults = Vec::new();
    for &n in &sizes {
        let program = canonicalize_chain(n);
        let input = dir.join(format!("chain{n}.mlir"));
        let output = dir.join(format!("chain{n}.out.mlir"));
        std::fs::write(&input, chain_mlir(n)).map_err(|e| e.to_string())?;
        // Interleaved, so that the load of a shared machine weighs on both sides alike.
        let mut best = [f64::INFINITY; 4];
        let (mut left, mut left_all) = (0, 0);
        let ptir_input = dir.join(format!("chain{n}.ptir"));
        let ptir_output = dir.join(format!("chain{n}.out.ptir"));
        std::fs::write(&ptir_input, ptir_ir::print(&program)).map_err(|e| e.to_string())?;
        // Default pipeline: library call, its three phases, the CLI process.
        let mut best_default = [f64::INFINITY; 5];
        let mut best_cli_passes = f64::INFINITY;
        let mut left_default = 0;
        for _ in 0..runs {
            let (t, [canon, cse, dce], l) = time_default(&program)?;
            left_default = l;
            for (b, x) in best_default.iter_mut().zip([t, canon, cse, dce]) {
                *b = b.min(x);
            }
            let (cli, cli_phases) = time_cli(&binary, &ptir_input, &ptir_output)?;
            best_default[4] = best_default[4].min(cli);
            best_cli_passes = best_cli_passes.min(cli_phases.iter().sum());
            let (t, l) = time_ours(&pm, &program)?;
            best[0] = best[0].min(t);
            left = l;
            let (t, l) = time_ours(&pm_all, &program)?;
            best[1] = best[1].min(t);
            left_all = l;
            let (process, pass) = time_mlir(&input, &output)?;
            best[2] = best[2].min(process);
            best[3] = best[3].min(pass);
        }
        let mlir_left = mlir_ops_left(&output)?;
        defaults.push((
            n,
            best_default,
            best_cli_passes,
            best[2],
            best[3],
            left_default,
            mlir_left,
        ));
        if left != mlir_left || left_all != left {
            return Err(format!(
                "n={n}: we leave {left} instructions ({left_all} with all rules), MLIR {mlir_left} ops"
            ));
        }
        let [ours, all, process, pass] = best;
        println!(
            "| {n} | {:.1} | {:.0} | {:.1} | {:.1} | {:.1} | {:.2}x |",
            ours * 1e3,
            ours * 1e9 / n as f64,
            all * 1e3,
            process * 1e3,
            pass * 1e3,
            pass / ours
        );
    }
    println!(
        "\nWhat a user runs: `ptir::optimize` (greedy engine, default options) per phase, and \
         the `ptir-opt FILE --engine greedy -o OUT` process, against mlir-opt-22\n"
    );
    println!(
        "| instructions | canonicalize (ms) | cse (ms) | dce (ms) | library call (ms) \
         | ptir-opt canonicalize+cse+dce (ms) | ptir-opt process (ms) | MLIR canonicalizer (ms) \
         | MLIR process (ms) | canonicalizer / library's 3 passes \
         | canonicalizer / ptir-opt's 3 passes | process / process | left (ours / MLIR) |"
    );
    println!("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (n, [call, canon, cse, dce, cli], cli_passes, process, pass, left, mlir_left) in defaults {
        println!(
            "| {n} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2}x | {:.2}x | {:.2}x | {left} / {mlir_left} |",
            canon * 1e3,
            cse * 1e3,
            dce * 1e3,
            call * 1e3,
            cli_passes * 1e3,
            cli * 1e3,
            pass * 1e3,
            process * 1e3,
            pass / (canon + cse + dce),
            pass / cli_passes,
            process / cli,
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
