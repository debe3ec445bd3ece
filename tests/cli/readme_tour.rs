//! The documentation's tour, executed: every `ptir-opt` command of the `sh` blocks of README.md
//! and of the `docs/` pages (also written `cargo run --release --bin ptir-opt -- ...`) runs and
//! exits with status 0. Other commands (`cargo test`, `cargo install`, `python ...`) are left to
//! their own tests. Commands run in a scratch directory that links the repository's inputs, so
//! files they write stay out of the tree; each page's commands run in order, so one may read
//! what an earlier one wrote.

use crate::support::{scratch_dir, text};
use std::process::Command;

const README: &str = include_str!("../../README.md");

/// Every page with `sh` blocks, as (path from the repository root, text), README first.
/// `every_docs_page_with_sh_blocks_is_in_the_tour` fails when a page is missing here.
const PAGES: [(&str, &str); 5] = [
    ("README.md", README),
    ("docs/tour.md", include_str!("../../docs/tour.md")),
    (
        "docs/cost-models.md",
        include_str!("../../docs/cost-models.md"),
    ),
    ("docs/python.md", include_str!("../../docs/python.md")),
    ("docs/rules.md", include_str!("../../docs/rules.md")),
];

/// The repository directories the tour reads.
const INPUTS: [&str; 5] = ["corpus", "docs", "rules", "tests", "crates"];

/// The arguments of every `ptir-opt` command in a page's `sh` blocks, with the line.
fn tour_commands(page: &str, text: &str) -> Vec<(usize, Vec<String>)> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    for (n, line) in text.lines().enumerate() {
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
            "{page}:{}: the tour runs commands without a shell: {line}",
            n + 1
        );
        commands.push((n + 1, args.split_whitespace().map(String::from).collect()));
    }
    commands
}

#[test]
fn every_ptir_opt_command_of_the_docs_exits_with_status_0() {
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
    let tour: Vec<(&str, usize, Vec<String>)> = PAGES
        .iter()
        .flat_map(|(page, text)| {
            let commands = tour_commands(page, text);
            commands.into_iter().map(|(line, args)| (*page, line, args))
        })
        .collect();
    assert!(
        tour.len() >= 15,
        "the tour has {} commands over {} pages",
        tour.len(),
        PAGES.len()
    );
    assert!(
        !tour_commands("README.md", README).is_empty(),
        "README.md: the main job is a command of the tour"
    );
    for (page, line, args) in tour {
        let out = Command::new(env!("CARGO_BIN_EXE_ptir-opt"))
            .args(&args)
            .current_dir(run_in)
            .output()
            .expect("ptir-opt starts");
        assert!(
            out.status.success(),
            "{page}:{line}: ptir-opt {} exited with {}:\n{}",
            args.join(" "),
            out.status,
            text(&out.stderr)
        );
    }
}

#[test]
fn every_docs_page_with_sh_blocks_is_in_the_tour() {
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let entries = std::fs::read_dir(&docs).expect("docs/ is readable");
    for entry in entries {
        let path = entry.expect("a docs/ entry").path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let name = format!(
            "docs/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let page = std::fs::read_to_string(&path).expect("the page is readable");
        let has_sh = page.lines().any(|l| l.trim() == "```sh");
        assert!(
            !has_sh || PAGES.iter().any(|(p, _)| *p == name),
            "{name}: the page has `sh` blocks but is not in readme_tour.rs's PAGES, so its \
             commands are not run"
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
