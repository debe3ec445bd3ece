//! `ptir-opt diff`: on a file, or on generated programs with a progress bar.

use crate::{load, CliError, OptArgs};
use indicatif::{ProgressBar, ProgressStyle};
use ptir::ir::generate::{generate, GenConfig};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::time::Instant;

/// Programs diffed per parallel batch (the progress bar advances per batch).
const BATCH: usize = 64;

/// Runs the diff; returns the text to print and whether the engines agreed.
pub(crate) fn run(
    file: Option<&str>,
    random: Option<usize>,
    seed: u64,
    size: usize,
    list: bool,
    args: &OptArgs,
) -> Result<(String, bool), CliError> {
    let options = args.options()?;
    match (file, random) {
        (Some(path), _) => {
            let (program, _, _) = load(path)?;
            let report = ptir::diff(&program, &options).map_err(|source| CliError::Optimize {
                path: path.to_string(),
                source,
            })?;
            let ok = report.ok();
            Ok((
                format!("{report}{}\n", if ok { "OK" } else { "MISMATCH" }),
                ok,
            ))
        }
        (None, Some(n)) => Ok(random_diff(n, seed, size, list, &options)),
        (None, None) => Err(CliError::Usage {
            path: "diff".into(),
            message: "give a file or --random N".into(),
        }),
    }
}

fn random_diff(
    n: usize,
    seed: u64,
    size: usize,
    list: bool,
    options: &ptir::Options,
) -> (String, bool) {
    let start = Instant::now();
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(n as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} programs, {elapsed} ({eta} left)")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut out = String::new();
    // The smallest program that shows each kind of mismatch, by instruction count.
    let mut worst: Option<(usize, u64, String)> = None;
    let (mut mismatches, mut errors, mut insts) = (0, 0, 0);
    let mut first = 0;
    // Why costs were not compared (the same for every program: it follows the extractor).
    let mut cost_unchecked = None;
    while first < n {
        let count = BATCH.min(n - first);
        let programs: Vec<_> = (first..first + count)
            .map(|i| {
                generate(&GenConfig {
                    seed: seed + i as u64,
                    size,
                    ..GenConfig::default()
                })
            })
            .collect();
        for (k, (p, r)) in programs
            .iter()
            .zip(ptir::diff_batch(&programs, options))
            .enumerate()
        {
            let s = seed + (first + k) as u64;
            insts += p.num_insts();
            if let Ok(r) = &r {
                cost_unchecked = cost_unchecked.or(r.cost_unchecked);
            }
            match r {
                Ok(r) if r.ok() => {}
                Ok(r) => {
                    mismatches += 1;
                    if list {
                        let lines: Vec<String> = r
                            .mismatches
                            .iter()
                            .map(|m| m.to_string().lines().next().unwrap_or_default().to_string())
                            .collect();
                        let _ = writeln!(
                            out,
                            "seed {s} ({} instructions): {}",
                            p.num_insts(),
                            lines.join("; ")
                        );
                    }
                    if worst.as_ref().is_none_or(|(w, _, _)| p.num_insts() < *w) {
                        worst = Some((p.num_insts(), s, format!("{r}\n{p}")));
                    }
                }
                Err(e) => {
                    errors += 1;
                    let _ = writeln!(out, "seed {s}: {e}");
                }
            }
        }
        first += count;
        bar.set_position(first as u64);
    }
    bar.finish_and_clear();
    let _ = writeln!(
        out,
        "{n} programs ({insts} instructions, seeds {seed}..{}, size {size}): {mismatches} mismatches, {errors} errors, {:.2?}",
        seed + n as u64,
        start.elapsed()
    );
    if let Some(why) = cost_unchecked {
        let _ = writeln!(out, "cost not compared: {why}");
    }
    if let Some((k, s, text)) = worst {
        let _ = writeln!(
            out,
            "smallest mismatching program: seed {s}, {k} instructions\n{text}"
        );
    }
    (out, mismatches == 0 && errors == 0)
}
