//! `ptir-opt`: the command line, in the spirit of `mlir-opt`.
//!
//! Every user error (missing file, bad program, bad flag value) prints one located message on
//! stderr and exits with status 2; nothing a user supplies can make it panic.

use clap::{Parser, Subcommand};
use ptir::ir::{self, Program};
use std::fmt::Write as _;
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
    /// Run a function of a program in the interpreter and print its results and a summary.
    Run {
        /// A `.ptir` file, or `-` for stdin.
        file: String,
        /// The function to run (default: the last function of the program).
        #[arg(long)]
        function: Option<String>,
        /// Seed of the random inputs and of `rng`.
        #[arg(long, default_value_t = 0)]
        seed: u64,
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
    #[error("{path}: {message}")]
    Usage { path: String, message: String },
    #[error("{path}: {source}")]
    Run {
        path: String,
        source: ir::InterpError,
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

fn run(path: &str, function: Option<&str>, seed: u64) -> Result<String, CliError> {
    let (program, parse_time, verify_time) = load(path)?;
    let usage = |message: String| CliError::Usage {
        path: path.to_string(),
        message,
    };
    let func = match function {
        Some(name) => program
            .function(name)
            .ok_or_else(|| usage(format!("no function @{name}")))?,
        None => program
            .functions
            .last()
            .ok_or_else(|| usage("the program has no functions".into()))?,
    };
    let inputs = ir::generate::random_inputs(func, seed);
    let t = Instant::now();
    let outputs = ptir::interpreter(&program)
        .with_seed(seed)
        .run(&func.name, &inputs)
        .map_err(|source| CliError::Run {
            path: path.to_string(),
            source,
        })?;
    let run_time = t.elapsed();
    let mut out = String::new();
    for (i, v) in outputs.iter().enumerate() {
        let _ = writeln!(out, "result {i}: {v}");
    }
    let _ = writeln!(
        out,
        "\n@{}: {} instructions ({} in the program), {} inputs (seed {seed}), {} results\n\
         parse {parse_time:.2?}, verify {verify_time:.2?}, run {run_time:.2?}",
        func.name,
        func.body.num_insts(),
        program.num_insts(),
        inputs.len(),
        outputs.len(),
    );
    Ok(out)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Verify { file } => load(file).map(|(p, _, _)| ir::print(&p)),
        Command::Run {
            file,
            function,
            seed,
        } => run(file, function.as_deref(), *seed),
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
