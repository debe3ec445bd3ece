//! The README's tour, executed: every `ptir-opt` command of its `sh` blocks (also written
//! `cargo run --release --bin ptir-opt -- ...`) runs and exits with status 0. Other commands
//! (`cargo test`, `cargo install`, `python ...`) are left to their own tests. Commands run in a
//! scratch directory that links the repository's inputs, so files they write stay out of the
//! tree.

use crate::support::{scratch_dir, text};
use std::process::Command;

const README: &str = include_str!("../../README.md");

/// The repository directories the tour reads.
const INPUTS: [&str; 5] = ["corpus", "docs", "rules", "tests", "crates"];

/// The arguments of every `ptir-opt` command in the README's `sh` blocks, with the line.
fn tour_commands() -> Vec<(usize, Vec<String>)> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    for (n, line) in README.lines().enumerate() {
        let line = line.trim();
        if line.starts_with("```") {
            in_sh = !in_sh && line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let command = line.split(" #").next().unwrap_or_default().trim();
        let args = command
            .strip_prefix("ptir-opt")
            .or_else(|| command.strip_prefix("cargo run --release --bin ptir-opt --"));
        let Some(args) = args else {
            continue;
        };
        assert!(
            !args.contains(['\'', '"', '$', '|', '>', '<']),
            "README.md:{}: the tour runs commands without a shell: {line}",
            n + 1
        );
        commands.push((n + 1, args.split_whitespace().map(String::from).collect()));
    }
    commands
}

#[test]
fn every_ptir_opt_command_of_the_readme_exits_with_status_0() {
    let dir = scratch_dir("readme-tour");
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    #[cfg(unix)]
    for input in INPUTS {
        let link = dir.join(input);
        if !link.exists() {
            std::os::unix::fs::symlink(repo.join(input), &link).expect("the input is linked");
        }
    }
    let run_in = if cfg!(unix) { dir.as_path() } else { repo };
    let commands = tour_commands();
    assert!(
        commands.len() >= 15,
        "the tour has {} commands",
        commands.len()
    );
    for (line, args) in commands {
        let out = Command::new(env!("CARGO_BIN_EXE_ptir-opt"))
            .args(&args)
            .current_dir(run_in)
            .output()
            .expect("ptir-opt starts");
        assert!(
            out.status.success(),
            "README.md:{line}: ptir-opt {} exited with {}:\n{}",
            args.join(" "),
            out.status,
            text(&out.stderr)
        );
    }
}

#[test]
fn the_readme_opens_with_the_main_job_and_the_test_command() {
    let mut lines = README.lines().skip_while(|l| *l != "```sh").skip(1);
    assert!(lines
        .next()
        .is_some_and(|l| l
            .starts_with("cargo run --release --bin ptir-opt -- corpus/gpt2_block.ptir --report")));
    assert!(lines
        .next()
        .is_some_and(|l| l.starts_with("cargo test --release --workspace")));
}
