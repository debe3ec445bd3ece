//! `ptir-opt`: the command line, in the spirit of `mlir-opt`.
//!
//! Every user error (missing file, bad program, bad flag value) prints one located message on
//! stderr and exits with status 2; nothing a user supplies can make it panic.

use clap::{Parser, Subcommand};
use ptir::ir::{self, Program};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Optimize, verify and run PTIR programs.
#[derive(Parser)]
#[command(name = "ptir-opt", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and verify a program; print it in canonical form.
    Verify {
        /// A `.ptir` file, or `-` for stdin.
        file: String,
    },
}

/// A failure reported to the user: one message, exit status 2.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{source}")]
    Parse {
        path: String,
        source: ir::ParseError,
    },
    #[error("{path}: the program does not verify:\n{source}")]
    Verify {
        path: String,
        source: ir::VerifyError,
    },
}

fn read_source(path: &str) -> Result<String, CliError> {
    let io = |source| CliError::Io {
        path: path.to_string(),
        source,
    };
    if path == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(io)
    } else {
        std::fs::read_to_string(path).map_err(io)
    }
}

/// Reads, parses and verifies a program, timing the two phases.
fn load(path: &str) -> Result<(Program, Duration, Duration), CliError> {
    let text = read_source(path)?;
    let t0 = Instant::now();
    let program = ir::parse(&text).map_err(|source| CliError::Parse {
        path: path.to_string(),
        source,
    })?;
    let t1 = Instant::now();
    ir::verify(&program).map_err(|source| CliError::Verify {
        path: path.to_string(),
        source,
    })?;
    Ok((program, t1 - t0, t1.elapsed()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Verify { file } => load(file).map(|(p, _, _)| ir::print(&p)),
    };
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
