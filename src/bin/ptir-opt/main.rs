//! `ptir-opt`: the command line, in the spirit of `mlir-opt`.
//!
//! Every user error (missing file, bad program, bad flag value) prints one located message on
//! stderr and exits with status 2; nothing a user supplies can make it panic. Status 1 means
//! the tool found a fault of its own: `diff` mismatches, or `--validate` refusing an output.

mod diff;

use clap::{Parser, Subcommand};
use ptir::format::{
    write_program, Format, FormatError, ReadOptions, SourceInfo, Verified, WriteOptions,
};
use ptir::ir::{self, Program};
use std::fmt::Write as _;
use std::process::ExitCode;

/// The allocator of the command line: the optimizer allocates many small short-lived values
/// (e-nodes, types, attributes), where mimalloc costs a fraction of the system allocator.
/// The library leaves the choice to its user's binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::{Duration, Instant};

/// Optimize, verify and run PTIR programs.
///
/// `ptir-opt FILE` optimizes FILE (`-`: stdin) and prints the result; the subcommands verify,
/// translate, compare, diff, match (where rules match) and run programs, and compile and lint
/// rule sets.
#[derive(Parser)]
#[command(
    name = "ptir-opt",
    version,
    about,
    args_conflicts_with_subcommands = true,
    // One file: the usage clap derives from the list below would say `[FILE]...`; a second
    // file gets its own message (`run_command`).
    override_usage = "ptir-opt [OPTIONS] [FILE]\n       ptir-opt <COMMAND>"
)]
struct Cli {
    /// A `.ptir` or `.mlir` (StableHLO) file to optimize, or `-` for stdin (one file).
    #[arg(value_name = "FILE")]
    files: Vec<String>,
    #[command(flatten)]
    io: IoArgs,
    #[command(flatten)]
    emit: EmitArgs,
    #[command(flatten)]
    opt: OptArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The input format and the output file, for every subcommand.
#[derive(clap::Args, Clone, Debug)]
struct IoArgs {
    /// The input format (default: from the extension; `.mlir` is StableHLO, else PTIR).
    #[arg(long, value_enum, global = true)]
    input_format: Option<FormatArg>,
    /// Write the output to FILE instead of stdout.
    #[arg(short = 'o', value_name = "FILE", global = true)]
    output: Option<String>,
    /// MLIR input: keep an op the importer does not support as an opaque op (an impure call
    /// the optimizer leaves as it is, printed back exactly as it came) instead of failing.
    #[arg(long, global = true)]
    allow_opaque: bool,
    /// MLIR input: inline the calls of the module's own functions (JAX's private helpers,
    /// `@_var`, `@tril`, `@"<lambda>"`), so that rules and folds see across them; recursive
    /// functions stay. Off by default: measured in IREE, inlining JAX's `@_var` into a bf16
    /// layernorm let CSE share the mean between the f32 and bf16 paths, 0.92x of the input.
    /// `translate` and `verify` never inline.
    #[arg(long, global = true)]
    inline_calls: bool,
}

/// How a program is printed (`ptir-opt FILE`, `verify`, `translate`).
#[derive(clap::Args, Clone, Debug, Default)]
struct EmitArgs {
    /// The output format (default: the input's; for `translate`, the other one).
    #[arg(long, value_enum)]
    emit: Option<FormatArg>,
    /// MLIR output: keep fused externs as `stablehlo.custom_call`s instead of emitting their
    /// bodies as private functions.
    #[arg(long)]
    custom_calls: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum FormatArg {
    /// PTIR text.
    Ptir,
    /// StableHLO MLIR text.
    Mlir,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Ptir => Format::Ptir,
            FormatArg::Mlir => Format::Mlir,
        }
    }
}

/// How the command line reads its inputs (`--input-format`, `--allow-opaque`,
/// `--inline-calls`): made once in `main` from the arguments and handed to every command that
/// reads a file.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Reader {
    /// `--input-format`, where given.
    format: Option<Format>,
    /// How MLIR is read.
    options: ReadOptions,
}

/// The format of the file at `path`: `--input-format`, else its extension.
fn input_format(rd: &Reader, path: &str) -> Format {
    (rd.format).unwrap_or_else(|| Format::of_path(std::path::Path::new(path)))
}

/// Prints a program in the output format (`--emit`, else `default`), with the names and
/// opaque ops of the text it came from.
fn emit(
    program: &Program,
    source: &SourceInfo,
    io: &EmitArgs,
    default: Format,
    path: &str,
) -> Result<String, CliError> {
    let format = io.emit.map_or(default, Format::from);
    let options = WriteOptions {
        custom_calls: io.custom_calls,
        source: Some(source),
    };
    write_program(program, format, &options).map_err(|source| CliError::Format {
        path: path.to_string(),
        source,
    })
}

/// How to optimize.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct OptArgs {
    /// The engine: `greedy` is the pipeline `loop-patterns,loop-idioms,unroll,canonicalize,cse,dce`,
    /// `eqsat` is `loop-patterns,loop-idioms,unroll,eqsat`.
    #[arg(long, value_enum, default_value = "eqsat")]
    engine: EngineArg,
    /// Run this pass pipeline instead of the engine's (mlir-opt's `--pass-pipeline`): pass
    /// names separated by commas, among `loop-patterns` (the rule files' loop patterns),
    /// `loop-idioms` (reduction loops to `reduce`), `unroll{max-trips=N max-insts=N}`,
    /// `inline`, `licm`, `canonicalize{test-convergence=true}`, `cse`, `dce` and `eqsat`
    /// (saturation, extraction and lifting), e.g. `loop-idioms,canonicalize,eqsat,dce`. It is
    /// every step the run takes: without `unroll`, no loop is written out.
    #[arg(long, value_name = "PASSES", conflicts_with = "engine")]
    pass_pipeline: Option<String>,
    /// Verify the program after each pass (mlir-opt's `--verify-each`), naming the pass that
    /// broke it; an expensive check. Without it the program is verified once when read and
    /// once before it is written.
    #[arg(long)]
    verify_each: bool,
    /// Print the rules that would run (name, labels, file:line and doc comment; after
    /// --rules, --no-bundled-rules, --enable, --disable and --fast-math) and exit.
    #[arg(long, conflicts_with = "files")]
    list_rules: bool,
    /// Split the input at lines `// -----` and optimize each chunk on its own (mlir-opt's
    /// `--split-input-file`); outputs are joined by `// -----`, errors give the line in the
    /// whole file.
    #[arg(long)]
    split_input_file: bool,
    /// Legalize the optimized program for a conversion target: a bundled one (`portable`: no
    /// fused library calls, each expanded into its defining ops; `f32`: bf16/f16 arithmetic
    /// computed in f32) or a target file. Fails, naming every op it cannot legalize.
    #[arg(long, value_name = "NAME|FILE")]
    target: Option<String>,
    /// Define each fused library call's function in the output (`@linear_0`, ...), with the
    /// body the rules raise from, so the output runs with no registered externs.
    #[arg(long)]
    outline: bool,
    /// The runtime the output is for: its decisions (which loops are written out) are made
    /// for it. `iree-cpu` (IREE's llvm-cpu) or `xla-cpu` (XLA on the CPU, what `jax.jit` runs).
    #[arg(long, value_enum, default_value = "iree-cpu")]
    runtime: RuntimeArg,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    extract: ExtractArgs,
    #[command(flatten)]
    output: OutputArgs,
}

/// Which rules run (every subcommand that optimizes).
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Rules")]
pub(crate) struct RuleArgs {
    /// Extra rule files (`.rules`, `.pat`, compiled `.ptrl` libraries) or directories of them.
    #[arg(long = "rules", value_name = "DIR|FILE")]
    rules: Vec<std::path::PathBuf>,
    /// Do not load the bundled rule library.
    #[arg(long)]
    no_bundled_rules: bool,
    /// Keep only these rules (names or labels; repeatable).
    #[arg(long, value_name = "NAME|LABEL")]
    enable: Vec<String>,
    /// Drop these rules (names or labels; repeatable; wins over --enable).
    #[arg(long, value_name = "NAME|LABEL")]
    disable: Vec<String>,
    /// Allow rules that are only true for real numbers (label `fast-math`).
    #[arg(long)]
    fast_math: bool,
    /// Prove each user rule by the interpreter on load and refuse an unsound one with its
    /// counterexample (off by default: the prover samples types a rule may not be meant for).
    #[arg(long)]
    prove_rules: bool,
}

/// When rewriting stops (every subcommand that optimizes, both engines unless said).
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Limits")]
pub(crate) struct LimitArgs {
    /// Maximum iterations per function [default: for eqsat 30, or the depth of a deeper
    /// function (longest chain of ops); for greedy 10].
    #[arg(long, value_name = "N")]
    iter_limit: Option<usize>,
    /// Maximum successful rewrites per function, over its whole run [default: 100000 for
    /// greedy, none for eqsat (the node limit bounds it)].
    #[arg(long, value_name = "N")]
    rewrite_limit: Option<usize>,
    /// Time limit in seconds for the whole program: all functions together, not each. Each
    /// function rewrites until its share of the time left is used up; extracting and lifting
    /// the last one come on top.
    #[arg(long, value_name = "SECONDS", default_value_t = ptir::egraph::EGRAPH_TIME_LIMIT.as_secs_f64())]
    time_limit: f64,
    /// Eqsat: maximum e-nodes per function [default: 50000, or 4 times the function's
    /// e-nodes after lowering if larger].
    #[arg(long, value_name = "N")]
    node_limit: Option<usize>,
    /// Eqsat: which rules run in each iteration.
    #[arg(long, value_enum, default_value = "backoff")]
    scheduler: SchedulerArg,
    /// Write out (unroll) every `while` loop whose trip count is known at compile time and at
    /// most N (`lax.fori_loop` with static bounds, `lax.scan`), before either engine runs; 0
    /// unrolls nothing. Unrolling adds at most 8192 instructions to the program: loops past that
    /// stay loops [default: the runtime's: 256 for iree-cpu, 0 for xla-cpu].
    #[arg(long, value_name = "N")]
    unroll_limit: Option<usize>,
}

/// How saturation's result is extracted (eqsat).
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Extraction")]
pub(crate) struct ExtractArgs {
    /// The cost model extraction minimizes and the report uses: `roofline` (predicted
    /// microseconds on a runtime that fuses, as IREE; the default), `measured=FILE` (the
    /// roofline with the kernels a `scripts/calibrate.py` table timed), `tensor` (FLOPs and
    /// bytes, unit-free) or `ops` (one per instruction).
    #[arg(long, value_name = "MODEL", value_parser = ptir::CostSpec::parse, default_value = "roofline")]
    cost: ptir::CostSpec,
    /// The extractor.
    #[arg(long, value_enum, default_value = "dag-greedy")]
    extractor: ExtractorArg,
}

/// What `ptir-opt FILE` prints besides the program.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Output")]
pub(crate) struct OutputArgs {
    /// Print a report (rules fired, e-graph size, stop reason, phase times, costs) on stderr.
    #[arg(long)]
    report: bool,
    /// Print the step log on stderr: greedy, the driver's event tree (like MLIR's
    /// `-debug-only=greedy-rewriter`); eqsat, the applications of each rule per iteration.
    #[arg(long)]
    step_log: bool,
    /// Print on stderr, for each op of the output (value, op), the chain of rules that
    /// derived it from the input, oldest first, or `unchanged` for an input op carried
    /// through; `fold` and `cse` are the engines' own steps. Eqsat reads egg's explanations
    /// (on only with this flag: it costs memory and time), greedy its rewriter's record.
    /// In --report-json as `explanations`.
    #[arg(long)]
    explain: bool,
    /// Write the report as JSON to FILE, or with `-` (the default) to stdout, where it takes
    /// the place of the program (write the program with -o); with --split-input-file, an
    /// array of one report per chunk.
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true,
          default_missing_value = "-")]
    report_json: Option<String>,
    /// Print the program after each pass on stderr, in the output format (mlir-opt's
    /// `--mlir-print-ir-after-all`).
    #[arg(long)]
    print_ir_after_all: bool,
    /// Translation validation: after optimizing, run the input and the output on N seeded
    /// random input sets (default 16) and refuse (exit status 1) an output that computes
    /// something else, naming the input seed, the result and both values.
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true,
          default_missing_value = "16", value_parser = clap::value_parser!(u64).range(1..))]
    validate: Option<u64>,
    /// Eqsat: write the saturated e-graph (egraph-serialize JSON, costs from --cost) to this
    /// file; with several functions, one file per function (`FILE.name.json`).
    #[arg(long, value_name = "FILE.json")]
    dump_egraph: Option<std::path::PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum SchedulerArg {
    /// Every rule runs in every iteration.
    Simple,
    /// egg's backoff: a rule matching too often is banned for a while (bans are waited out
    /// before the run can saturate).
    Backoff,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum RuntimeArg {
    /// XLA on the CPU (`jax.jit`'s): loops stay loops.
    XlaCpu,
    /// IREE's llvm-cpu backend: loops with a known trip count are written out.
    IreeCpu,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum EngineArg {
    /// The greedy driver (MLIR semantics).
    Greedy,
    /// Equality saturation.
    Eqsat,
}

/// The measured cost model of the table in `file` (a located error if it cannot be used).
fn measured_cost(file: &std::path::Path) -> Result<ptir::Cost, CliError> {
    let table = ptir::cost::CostTable::read(file).map_err(CliError::CostTable)?;
    Ok(ptir::Cost::Measured(std::sync::Arc::new(table)))
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ExtractorArg {
    /// Bottom-up tree cost (egg's semantics).
    Tree,
    /// DAG-aware greedy (a shared value is paid once; `greedy` is accepted too).
    #[value(name = "dag-greedy", alias = "greedy")]
    DagGreedy,
    /// Exact DAG extraction (ILP, 10 s limit, falls back to the best answer found).
    Exact,
}

impl OptArgs {
    pub(crate) fn options(&self) -> Result<ptir::Options, CliError> {
        let mut options = ptir::Options {
            engine: match self.engine {
                EngineArg::Greedy => ptir::Engine::Greedy,
                EngineArg::Eqsat => ptir::Engine::Saturation,
            },
            dump_egraph: self.output.dump_egraph.is_some(),
            step_log: self.output.step_log,
            explain: self.output.explain,
            validate: self.output.validate.and_then(|n| usize::try_from(n).ok()),
            outline: self.outline,
            pipeline: self.pass_pipeline.clone(),
            ir_after_each: self.output.print_ir_after_all,
            verify_each: self.verify_each,
            target: match &self.target {
                Some(spec) => {
                    Some(
                        ptir::load_target(spec).map_err(|source| CliError::Optimize {
                            path: "--target".into(),
                            source,
                        })?,
                    )
                }
                None => None,
            },
            ..ptir::Options::default()
        }
        .for_runtime(match self.runtime {
            RuntimeArg::XlaCpu => ptir::Runtime::XlaCpu,
            RuntimeArg::IreeCpu => ptir::Runtime::IreeCpu,
        });
        self.rules.apply(&mut options)?;
        self.limits.apply(&mut options)?;
        self.extract.apply(&mut options)?;
        Ok(options)
    }
}

impl RuleArgs {
    pub(crate) fn apply(&self, options: &mut ptir::Options) -> Result<(), CliError> {
        options.rule_files.clear();
        for p in &self.rules {
            options.rule_files.extend(rule_files_in(p)?);
        }
        options.bundled_rules = !self.no_bundled_rules;
        options.enable = self.enable.clone();
        options.disable = self.disable.clone();
        options.fast_math = self.fast_math;
        options.prove_rules = self.prove_rules;
        Ok(())
    }
}

impl LimitArgs {
    pub(crate) fn apply(&self, options: &mut ptir::Options) -> Result<(), CliError> {
        let time = std::time::Duration::try_from_secs_f64(self.time_limit).map_err(|e| {
            CliError::Usage {
                path: "--time-limit".into(),
                message: e.to_string(),
            }
        })?;
        options.limits = ptir::Limits {
            iterations: self.iter_limit,
            rewrites: self.rewrite_limit,
            nodes: self.node_limit,
            time,
        };
        options.scheduler = match self.scheduler {
            SchedulerArg::Simple => ptir::egraph::Scheduler::Simple,
            SchedulerArg::Backoff => ptir::egraph::Scheduler::Backoff,
        };
        if let Some(n) = self.unroll_limit {
            options.unroll.max_trips = n;
        }
        Ok(())
    }
}

impl ExtractArgs {
    pub(crate) fn apply(&self, options: &mut ptir::Options) -> Result<(), CliError> {
        options.cost = match &self.cost {
            ptir::CostSpec::Model(cost) => cost.clone(),
            ptir::CostSpec::Table(file) => measured_cost(file)?,
        };
        options.extractor = match self.extractor {
            ExtractorArg::Tree => ptir::egraph::ExtractorKind::Tree,
            ExtractorArg::DagGreedy => ptir::egraph::ExtractorKind::DagGreedy,
            ExtractorArg::Exact => ptir::egraph::ExtractorKind::Exact,
        };
        Ok(())
    }
}

/// [`ptir::rule_files_in`], its error the command line's.
fn rule_files_in(p: &std::path::Path) -> Result<Vec<std::path::PathBuf>, CliError> {
    ptir::rule_files_in(p).map_err(|source| CliError::Optimize {
        path: p.display().to_string(),
        source,
    })
}

fn compare(
    rd: &Reader,
    path: &str,
    rules: &RuleArgs,
    limits: &LimitArgs,
    table: Option<&std::path::Path>,
    out_dir: Option<&std::path::Path>,
) -> Result<String, CliError> {
    let (program, _, _) = load(rd, path)?;
    let mut options = ptir::Options::default();
    rules.apply(&mut options)?;
    limits.apply(&mut options)?;
    let mut pairs = Vec::new();
    let mut costs = vec![ptir::Cost::Ops, ptir::Cost::Tensor, ptir::Cost::Roofline];
    if let Some(file) = table {
        costs.push(measured_cost(file)?);
    }
    for cost in costs {
        for kind in ptir::egraph::ExtractorKind::ALL {
            pairs.push((cost.clone(), *kind));
        }
    }
    let table = ptir::compare_cost_models(&program, &options, &pairs).map_err(|source| {
        CliError::Optimize {
            path: path.to_string(),
            source,
        }
    })?;
    if let Some(dir) = out_dir {
        let write = |name: String, p: &ptir::ir::Program| {
            let file = dir.join(name);
            std::fs::write(&file, ptir::ir::print(p)).map_err(|e| CliError::Io {
                path: file.display().to_string(),
                source: e,
            })
        };
        std::fs::create_dir_all(dir).map_err(|e| CliError::Io {
            path: dir.display().to_string(),
            source: e,
        })?;
        write("input.ptir".into(), &program)?;
        for r in &table.rows {
            write(
                format!("{}-{}.ptir", r.model, r.extractor.name()),
                &r.program,
            )?;
        }
    }
    Ok(table.to_string())
}

/// `ptir-opt signatures`: the distinct kernels of `files`, one JSON object per line.
/// `ptir-opt match`: the matches of the selected rules in the program of `path`, as lines or
/// (with `report_json`) JSON; values are named as the source names them, and a `.ptir` input's
/// matches are placed at the root's `line:col`.
fn match_rules(
    rd: &Reader,
    path: &str,
    rules: &RuleArgs,
    report_json: Option<&str>,
) -> Result<String, CliError> {
    let text = read_source(path)?;
    let (program, map) = if input_format(rd, path) == Format::Mlir {
        (import(rd, &text, path)?.0, ir::SourceMap::default())
    } else {
        let (program, map) = ir::parse_with_source_map(&text).map_err(|_| {
            // The parser's own error, with its hint, from the usual route.
            match parse(rd, path, &text) {
                Err(e) => e,
                Ok(_) => CliError::Usage {
                    path: path.to_string(),
                    message: "the program parses once but not twice".into(),
                },
            }
        })?;
        ir::verify(&program).map_err(|e| located(path, &text, &e))?;
        (program, map)
    };
    let mut options = ptir::Options::default();
    rules.apply(&mut options)?;
    let optimize = |source| CliError::Optimize {
        path: path.to_string(),
        source,
    };
    let matches = ptir::find_matches(&program, &options).map_err(optimize)?;
    let name = |function: &str, v: ir::ValueId| match map.value_name(function, v) {
        Some(n) => format!("%{n}"),
        None => v.to_string(),
    };
    let mut out = String::new();
    let mut json = Vec::new();
    for m in &matches {
        let roots: Vec<String> = m.roots.iter().map(|&v| name(&m.function, v)).collect();
        let loc = m.roots.first().and_then(|&v| map.inst_loc(&m.function, v));
        let values = m
            .values
            .iter()
            .map(|(k, &v)| (k.clone(), name(&m.function, v)));
        let attrs = m.attrs.iter().map(|(k, a)| (k.clone(), a.to_string()));
        let bindings: Vec<(String, String)> = values.chain(attrs).collect();
        if report_json.is_some() {
            json.push(serde_json::json!({
                "function": m.function,
                "rule": m.rule,
                "roots": roots,
                "location": loc.map(|l| l.to_string()),
                "matched": m.matched.iter().map(|&v| name(&m.function, v)).collect::<Vec<_>>(),
                "bindings": bindings.iter().map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str()))).collect::<serde_json::Map<_, _>>(),
            }));
            continue;
        }
        let place = loc.map_or_else(|| path.to_string(), |l| format!("{path}:{l}"));
        let _ = write!(
            out,
            "{place}: @{} {}: {}",
            m.function,
            roots.join(","),
            m.rule
        );
        for (k, v) in &bindings {
            let _ = write!(out, " ?{k}={v}");
        }
        out.push('\n');
    }
    let rules_matched: std::collections::BTreeSet<&str> =
        matches.iter().map(|m| m.rule.as_str()).collect();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    eprintln!(
        "{} of {} in {}",
        plural(matches.len(), "match", "matches"),
        plural(rules_matched.len(), "rule", "rules"),
        plural(program.num_insts(), "instruction", "instructions"),
    );
    let Some(dest) = report_json else {
        return Ok(out);
    };
    let json = format!("{:#}\n", serde_json::json!({ "matches": json }));
    if dest == "-" {
        return Ok(json);
    }
    std::fs::write(dest, json).map_err(|source| CliError::Io {
        path: dest.to_string(),
        source,
    })?;
    Ok(String::new())
}

fn signatures(rd: &Reader, files: &[String]) -> Result<String, CliError> {
    let mut kernels = indexmap::IndexMap::new();
    for path in files {
        let (program, _, _) = load(rd, path)?;
        ptir::cost::collect_kernels(&program, &mut kernels);
    }
    let mut out = String::new();
    for k in kernels.values() {
        let line = serde_json::json!({
            "signature": k.signature,
            "op": k.op,
            "flops": k.work.flops,
            "bytes": k.work.bytes,
            "fusion": k.work.fusion.name(),
            "predicted_us": ptir::cost::Machine::REFERENCE.kernel_us(&k.work),
            "count": k.count,
            "program": ir::print(&k.program),
        });
        let _ = writeln!(out, "{line}");
    }
    Ok(out)
}

/// `ptir-opt FILE`: optimizes the file (or, with `--split-input-file`, each of its chunks)
/// and returns what goes to stdout or `-o`.
fn optimize(
    rd: &Reader,
    path: &str,
    args: &OptArgs,
    io: &IoArgs,
    emit_args: &EmitArgs,
) -> Result<String, CliError> {
    let options = args.options()?;
    let source = read_source(path)?;
    let chunks = if args.split_input_file {
        split_input(&source)
    } else {
        vec![source]
    };
    let mut outputs = Vec::new();
    let mut reports = Vec::new();
    let mut errors = Vec::new();
    for chunk in &chunks {
        match optimize_one(rd, path, chunk, &options, args, emit_args) {
            Ok((text, report)) => {
                outputs.push(text);
                // Serialized only when asked for: it costs as much as a pass on a large program.
                if args.output.report_json.is_some() {
                    reports.push(report.to_json());
                }
            }
            Err(e) => errors.push(e),
        }
    }
    let program = outputs.join(SPLIT_MARKER_LINE);
    if !errors.is_empty() {
        let error = CliError::several(errors);
        return Err(if outputs.is_empty() {
            error
        } else {
            CliError::Partial {
                output: program,
                error: Box::new(error),
            }
        });
    }
    let Some(dest) = &args.output.report_json else {
        return Ok(program);
    };
    let json = if args.split_input_file {
        serde_json::Value::Array(reports)
    } else {
        reports.pop().unwrap_or_default()
    };
    let json = format!("{json:#}\n");
    match (dest.as_str(), &io.output) {
        ("-", None) => Ok(json),
        ("-", Some(_)) => {
            print!("{json}");
            Ok(program)
        }
        (file, _) => {
            std::fs::write(file, json).map_err(|source| CliError::Io {
                path: file.to_string(),
                source,
            })?;
            Ok(program)
        }
    }
}

/// The line between chunks of a `--split-input-file` input and output (mlir-opt's).
const SPLIT_MARKER_LINE: &str = "// -----\n";

/// The chunks of `source` between lines `// -----`, each preceded by as many empty lines as
/// came before it in `source`, so that errors in a chunk are located in the whole file.
fn split_input(source: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut chunk = String::new();
    let mut lines_before = 0;
    for (n, line) in source.split_inclusive('\n').enumerate() {
        if line.trim_end() == SPLIT_MARKER_LINE.trim_end() {
            chunks.push(std::mem::take(&mut chunk));
            lines_before = n + 1;
            chunk = "\n".repeat(lines_before);
        } else {
            chunk.push_str(line);
        }
    }
    if chunk.len() > lines_before || chunks.is_empty() {
        chunks.push(chunk);
    }
    chunks
}

/// Optimizes one program given as text; returns it printed and the report. Prints the
/// report, the step log and the IR after each pass on stderr as asked.
fn optimize_one(
    rd: &Reader,
    path: &str,
    source: &str,
    options: &ptir::Options,
    args: &OptArgs,
    emit_args: &EmitArgs,
) -> Result<(String, ptir::Report), CliError> {
    let format = input_format(rd, path);
    // Verified once here, where it is read, and once more by the optimizer before it is
    // written.
    let (program, names) = match format {
        Format::Mlir => import_verified(rd, source, path)?,
        Format::Ptir => {
            let program = parse(rd, path, source)?;
            let verified = Verified::new(program).map_err(|e| located(path, source, &e))?;
            (verified, SourceInfo::default())
        }
    };
    let spinner = progress_spinner(&format!("optimizing {path} ({})", options.engine));
    // `--report` says what `--fast-math` would have made of it: the input is kept for that.
    let hint_input = (args.output.report
        && !options.fast_math
        && options.engine == ptir::Engine::Saturation
        && options.pipeline.is_none())
    .then(|| program.program().clone());
    let result = ptir::optimize_verified(program, options);
    spinner.finish_and_clear();
    let mut out = result.map_err(|error| CliError::Optimize {
        path: path.to_string(),
        source: error,
    })?;
    for dump in &out.report.ir_after {
        eprint!(
            "// -----// IR Dump After {} //----- //\n{}",
            dump.pass,
            emit(&dump.program, &names, emit_args, format, path)?
        );
    }
    if let Some(input) = &hint_input {
        // A run that fails with fast-math rules gives no hint; the user's run stands.
        if let Ok(Some(note)) = ptir::fast_math_hint(input, options, &out) {
            out.report.notes.push(note);
        }
    }
    if args.output.report {
        eprint!("{}", out.report);
    }
    for log in &out.report.step_log {
        eprintln!(
            "// {} step log of @{}\n{}",
            log.pass, log.function, log.text
        );
    }
    for e in out.report.explanations.iter().flatten() {
        eprint!("{e}");
    }
    if let Some(path) = &args.output.dump_egraph {
        write_egraphs(path, &out.report.egraphs)?;
    }
    let text = emit(&out.program, &names, emit_args, format, path)?;
    Ok((text, out.report))
}

/// `ptir-opt --list-rules`: the rules the options select, one paragraph each.
fn list_rules(args: &OptArgs) -> Result<String, CliError> {
    let options = args.options()?;
    let rules = ptir::load_rules(&options).map_err(|source| CliError::Optimize {
        path: "--list-rules".into(),
        source,
    })?;
    let mut out = String::new();
    let mut entry = |name: &str, labels: &[String], location: &dyn std::fmt::Display, doc: &str| {
        let labels = if labels.is_empty() {
            String::new()
        } else {
            format!(" ({})", labels.join(", "))
        };
        let _ = writeln!(out, "{name}{labels}  {location}");
        for line in doc.lines() {
            let _ = writeln!(out, "    {line}");
        }
    };
    for rule in rules.rules() {
        entry(&rule.name, &rule.labels, &rule.location, &rule.doc);
    }
    // Loop patterns (`.pat` idioms over `while`/`scan`) run before the engines, on the loops.
    for pattern in rules.loop_patterns() {
        entry(
            &pattern.name,
            &pattern.labels,
            &pattern.location,
            &pattern.doc,
        );
    }
    let loops = match rules.loop_patterns().len() {
        0 => String::new(),
        n => format!(", {n} loop pattern{}", if n == 1 { "" } else { "s" }),
    };
    let _ = writeln!(out, "{} rules{loops}", rules.rules().len());
    Ok(out)
}

/// A spinner on stderr while a long optimization runs; hidden when stderr is not a terminal.
fn progress_spinner(message: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner().with_message(message.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// A function name as part of a file name: every byte but ASCII letters, digits, `_`, `-` and
/// `.` becomes `_` (JAX's quoted names hold `<`, `>` and `/`), and a name that changed gets the
/// hex of its bytes' FNV hash, so that two names never share a file.
fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '-' | '.' => c,
            _ => '_',
        })
        .collect();
    if safe == name {
        return safe;
    }
    let hash = name.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    });
    format!("{safe}_{:08x}", hash as u32)
}

/// Writes one e-graph to `path`, or several to `path` with the function name inserted.
fn write_egraphs(path: &std::path::Path, egraphs: &[ptir::FunctionText]) -> Result<(), CliError> {
    for ptir::FunctionText {
        function: name,
        text: json,
    } in egraphs
    {
        let target = if egraphs.len() == 1 {
            path.to_path_buf()
        } else {
            path.with_extension(format!("{}.json", file_safe(name)))
        };
        std::fs::write(&target, json).map_err(|source| CliError::Io {
            path: target.display().to_string(),
            source,
        })?;
    }
    Ok(())
}

#[derive(Subcommand)]
enum Command {
    /// Convert between PTIR and StableHLO MLIR without optimizing (the output format is the
    /// other one unless --emit says otherwise).
    Translate {
        /// A `.ptir` or `.mlir` file, or `-` for stdin.
        file: String,
        #[command(flatten)]
        emit: EmitArgs,
    },
    /// Parse and verify a program; print it in canonical form.
    Verify {
        /// A `.ptir` file, or `-` for stdin.
        file: String,
        #[command(flatten)]
        emit: EmitArgs,
    },
    /// Saturate once and extract with every (cost model, extractor) pair; print the table of
    /// costs under every model, extraction times and optimality.
    Compare {
        /// A `.ptir` file, or `-` for stdin.
        file: String,
        /// Add the measured model of this `scripts/calibrate.py` table to the roofline, tensor
        /// and op-count models.
        #[arg(long, value_name = "FILE")]
        cost_table: Option<std::path::PathBuf>,
        /// Also write the input and each row's program to this directory as PTIR
        /// (`input.ptir`, `<model>-<extractor>.ptir`), for timing them:
        /// `scripts/compare_iree.py` runs them in IREE beside the predictions.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<std::path::PathBuf>,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// List the distinct kernels (op signatures) of programs as JSON lines: signature, op,
    /// FLOPs, bytes, fusion class, the default roofline's time of the op as its own kernel,
    /// count, and the one-op PTIR program computing it. What
    /// `scripts/calibrate.py` times to make a `--cost measured=FILE` table.
    Signatures {
        /// `.ptir` or `.mlir` files (`-`: stdin).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Greedy against saturation on a file, or on N generated programs: both outputs verified,
    /// run on the same random inputs and compared; exit status 1 on any mismatch.
    Diff {
        /// A `.ptir` file, or `-` for stdin (omit with --random).
        #[arg(required_unless_present = "random")]
        file: Option<String>,
        /// Diff N generated programs instead.
        #[arg(long, value_name = "N", conflicts_with = "file")]
        random: Option<usize>,
        /// Seed of the first generated program.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Approximate instructions per generated program.
        #[arg(long, default_value_t = 30)]
        size: usize,
        /// With --random: print one line per mismatching program (seed, size, first mismatch).
        #[arg(long, requires = "random")]
        list: bool,
        #[command(flatten)]
        gen: diff::GenArgs,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        extract: ExtractArgs,
    },
    /// Print where the rules match in a program, with their bindings, rewriting nothing: one
    /// line per match (`FILE:LINE:COL: @function %root: rule ?var=value ...`), in program
    /// order; a summary on stderr.
    Match {
        /// A `.ptir` or `.mlir` file, or `-` for stdin.
        file: String,
        #[command(flatten)]
        rules: RuleArgs,
        /// Write the matches as JSON to FILE, or with `-` (the default) to stdout in place of
        /// the lines.
        #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true,
              default_missing_value = "-")]
        report_json: Option<String>,
    },
    /// Compile rule files (`.rules`, `.pat`, or directories of them) into one compiled rule
    /// library, written with -o, that `--rules` loads without parsing (the format of SMR's
    /// compiled pattern files; refused with a clear error once stale or damaged).
    CompileRules {
        /// Rule files or directories of them.
        #[arg(required = true, value_name = "DIR|FILE")]
        files: Vec<std::path::PathBuf>,
    },
    /// Lint a rule set (the bundled library and --rules files): rules that never fire, rules
    /// shadowed by an earlier one with the same left side, rules that loop under the greedy
    /// driver, and rules whose proof on the interpreter finds a counterexample; one line per
    /// finding (`FILE:LINE: rule `NAME` ...`), exit status 1 if there is any.
    LintRules {
        #[command(flatten)]
        rules: RuleArgs,
        /// Seeds each rule's proof runs on (0: no proofs, the structural checks only).
        #[arg(long, value_name = "N", default_value_t = 16)]
        proof_seeds: u64,
    },
    /// Run a function of a program in the interpreter and print its results and a summary.
    Run {
        /// A `.ptir` file, or `-` for stdin.
        file: String,
        /// The function to run (default: `@main` if there is one, else the last function no
        /// other function calls).
        #[arg(long)]
        function: Option<String>,
        /// Seed of the random inputs and of `rng`.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Inputs instead of random ones: a file with one tensor per line, written as results
        /// are printed (`f32[2,2] [1.0, 2.0, 3.0, 4.0]`; `splat(0.5)` also works; `//` comments).
        #[arg(long, value_name = "FILE")]
        inputs: Option<String>,
    },
}

/// A failure reported to the user: one message, exit status 2.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{source}{hint}")]
    Parse {
        path: String,
        source: ir::ParseError,
        /// Empty, or why the text may be another format than the one it was read as.
        hint: &'static str,
    },
    /// The verifier's diagnostics, each placed in the source (`path:line:col`) with the
    /// source's value names.
    #[error("{}", .located.iter().map(|d| match d.loc {
        Some(loc) => format!("{path}:{loc}: {}", d.message),
        None => format!("{path}: {}", d.message),
    }).collect::<Vec<_>>().join("\n"))]
    Verify {
        path: String,
        located: Vec<ir::LocatedDiagnostic>,
    },
    #[error("{path}:{source}")]
    Format { path: String, source: FormatError },
    #[error("{path}: {message}")]
    Usage { path: String, message: String },
    #[error("{0}")]
    CostTable(ptir::cost::CostTableError),
    #[error("{}", optimize_message(path, source))]
    Optimize { path: String, source: ptir::Error },
    #[error("{path}: {source}")]
    Run {
        path: String,
        source: ir::InterpError,
    },
    /// Some chunks of a `--split-input-file` input failed: the others' `output` is written,
    /// then the run fails with `error`.
    #[error("{error}")]
    Partial {
        output: String,
        error: Box<CliError>,
    },
    /// Several failures (the chunks of a `--split-input-file` input), one per line.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\nerror: "))]
    Several(Vec<CliError>),
}

impl CliError {
    /// One error as itself, several as [`CliError::Several`].
    fn several(mut errors: Vec<CliError>) -> CliError {
        match errors.len() {
            1 => errors.remove(0),
            _ => CliError::Several(errors),
        }
    }

    /// 1 when translation validation refused the output (the optimizer is at fault, not the
    /// user), 2 for every user error.
    fn exit_status(&self) -> u8 {
        match self {
            CliError::Optimize {
                source: ptir::Error::Validation(v),
                ..
            } if matches!(**v, ptir::ValidationError::Differs { .. }) => 1,
            CliError::Several(errors) => {
                errors.iter().map(CliError::exit_status).max().unwrap_or(2)
            }
            CliError::Partial { error, .. } => error.exit_status(),
            _ => 2,
        }
    }
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
pub(crate) fn load(rd: &Reader, path: &str) -> Result<(Program, Duration, Duration), CliError> {
    load_text(rd, path, &read_source(path)?)
}

/// Parses and verifies the program `text` read from `path`, timing the two phases.
fn load_text(
    rd: &Reader,
    path: &str,
    text: &str,
) -> Result<(Program, Duration, Duration), CliError> {
    let t0 = Instant::now();
    if input_format(rd, path) == Format::Mlir {
        let (program, _) = import(rd, text, path)?;
        return Ok((program, t0.elapsed(), Duration::ZERO));
    }
    let program = parse(rd, path, text)?;
    let t1 = Instant::now();
    ir::verify(&program).map_err(|e| located(path, text, &e))?;
    Ok((program, t1 - t0, t1.elapsed()))
}

/// An optimization error of the input `path`: errors of a rule file or library name their
/// own file (a missing `--rules` file is not the input's), the others are the input's.
fn optimize_message(path: &str, source: &ptir::Error) -> String {
    match source {
        ptir::Error::Io { .. }
        | ptir::Error::Rules(_)
        | ptir::Error::Library { .. }
        | ptir::Error::UnsoundRule { .. } => source.to_string(),
        _ => format!("{path}: {source}"),
    }
}

/// Parses the PTIR `text` of the file `path`. Text that looks like MLIR, read as PTIR only
/// because nothing said otherwise (stdin, another extension), gets a hint saying how to read it;
/// a text that defines no function (empty, or comments only) is refused.
fn parse(rd: &Reader, path: &str, text: &str) -> Result<Program, CliError> {
    let program = ir::parse(text).map_err(|source| {
        let format_given = rd.format.is_some();
        let hint = if !format_given && Format::sniff(text) == Format::Mlir {
            " (this looks like MLIR: pass `--input-format mlir`, or name the file `*.mlir`)"
        } else {
            ""
        };
        CliError::Parse {
            path: path.to_string(),
            source,
            hint,
        }
    })?;
    if program.functions.is_empty() {
        // An empty file (or one of comments only) is a mistake, not a program to optimize.
        return Err(CliError::Usage {
            path: path.to_string(),
            message: "the file defines no function (is it empty?)".into(),
        });
    }
    Ok(program)
}

/// The verifier's diagnostics `e` about the program parsed from `text`, placed in `text`. The
/// source map is recorded by parsing again, here: a program that verifies (the usual case)
/// never pays for it.
fn located(path: &str, text: &str, e: &ir::VerifyError) -> CliError {
    let located = match ir::parse_with_source_map(text) {
        Ok((_, map)) => map.locate_all(e),
        Err(_) => ir::SourceMap::default().locate_all(e),
    };
    CliError::Verify {
        path: path.to_string(),
        located,
    }
}

/// Imports MLIR `text` (of the file `path`) with the command line's read options.
fn import(rd: &Reader, text: &str, path: &str) -> Result<(Program, SourceInfo), CliError> {
    import_verified(rd, text, path).map(|(program, source)| (program.into_program(), source))
}

/// [`import`], the program kept as verified, for the optimizer not to verify it again.
fn import_verified(
    rd: &Reader,
    text: &str,
    path: &str,
) -> Result<(Verified, SourceInfo), CliError> {
    let options = rd.options;
    ptir::format::read_verified(text, Format::Mlir, &options).map_err(|source| CliError::Format {
        path: path.to_string(),
        source,
    })
}

/// [`load_text`], with what an MLIR text says beyond the program (names, opaque ops).
fn load_source_text(
    rd: &Reader,
    path: &str,
    text: &str,
) -> Result<(Program, SourceInfo), CliError> {
    if input_format(rd, path) == Format::Mlir {
        return import(rd, text, path);
    }
    load_text(rd, path, text).map(|(program, _, _)| (program, SourceInfo::default()))
}

/// [`load_source_text`] of the file `path`.
fn load_source(rd: &Reader, path: &str) -> Result<(Program, SourceInfo), CliError> {
    load_source_text(rd, path, &read_source(path)?)
}

/// Reads an inputs file (see [`ptir::parse_inputs`]); errors are located at its line.
fn read_inputs(path: &str) -> Result<Vec<ir::Value>, CliError> {
    ptir::parse_inputs(&read_source(path)?).map_err(|e| CliError::Usage {
        path: format!("{path}:{}", e.line),
        message: e.message,
    })
}

/// The function `run` runs when none is named: `@main` (a JAX module's entry, whatever its
/// private helpers are called and wherever they stand), else the last function no other
/// calls, else the last.
fn entry_function(program: &Program) -> Option<&ir::Function> {
    if let Some(main) = program.function("main") {
        return Some(main);
    }
    let entries = ptir::cost::entry_functions(program);
    entries
        .last()
        .and_then(|name| program.function(name))
        .or_else(|| program.functions.last())
}

fn run(
    rd: &Reader,
    path: &str,
    function: Option<&str>,
    seed: u64,
    inputs: Option<&str>,
) -> Result<String, CliError> {
    let (program, parse_time, verify_time) = load(rd, path)?;
    let usage = |message: String| CliError::Usage {
        path: path.to_string(),
        message,
    };
    let func = match function {
        Some(name) => program
            .function(name)
            .ok_or_else(|| usage(format!("no function @{name}")))?,
        None => {
            entry_function(&program).ok_or_else(|| usage("the program has no functions".into()))?
        }
    };
    let inputs = match inputs {
        Some(file) => read_inputs(file)?,
        None => ir::inputs::try_random_inputs(func, seed).map_err(|source| CliError::Run {
            path: path.to_string(),
            source,
        })?,
    };
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
    // `translate` and `verify` show the module as it is.
    let shows = matches!(
        cli.command,
        Some(Command::Translate { .. } | Command::Verify { .. })
    );
    let reader = Reader {
        format: cli.io.input_format.map(Format::from),
        options: ReadOptions {
            allow_opaque: cli.io.allow_opaque,
            inline_calls: cli.io.inline_calls && !shows,
        },
    };
    // A `--split-input-file` run whose chunks partly failed writes the good chunks' output,
    // then fails with the errors of the others, as mlir-opt does.
    let mut after_write = None;
    let (result, status, failure) = match run_command(&cli, &reader) {
        Ok(done) => {
            after_write = done.after_write;
            (Ok(done.out), if done.agreed { 0 } else { 1 }, None)
        }
        Err(CliError::Partial { output, error }) => (Ok(output.into_bytes()), 0, Some(*error)),
        Err(e) => (Err(e), 0, None),
    };
    let written = result.and_then(|out| match &cli.io.output {
        Some(path) => std::fs::write(path, out).map_err(|source| CliError::Io {
            path: path.clone(),
            source,
        }),
        None => {
            use std::io::Write;
            std::io::stdout()
                .write_all(&out)
                .map_err(|source| CliError::Io {
                    path: "stdout".into(),
                    source,
                })
        }
    });
    let status = match written.and_then(|()| failure.map_or(Ok(()), Err)) {
        Ok(()) => {
            if let Some(message) = &after_write {
                eprintln!("{message}");
            }
            status
        }
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_status()
        }
    };
    exit_now(status)
}

/// Ends the process with `status` once the output is flushed, without the C library's exit
/// handlers: the allocator's, which walks every page it holds to give it back, took 3% of
/// a small run (a 20-matrix chain) for memory the kernel takes back anyway. Everything the
/// run made was dropped before this (files written, temporary directories removed).
fn exit_now(status: u8) -> ExitCode {
    use std::io::Write;
    if std::io::stdout().flush().is_err() || std::io::stderr().flush().is_err() {
        return ExitCode::from(status);
    }
    // SAFETY: `_exit` ends the process at once; no Rust code runs after it, and the standard
    // streams, the only buffers left, are flushed above.
    unsafe { libc::_exit(i32::from(status)) }
}

/// `ptir-opt lint-rules`: one line per finding of the rule set `rules` loads (fast-math rules
/// included unless disabled), and whether there is none; the count on stderr.
fn lint_rules(rules: &RuleArgs, proof_seeds: u64) -> Result<Outcome, CliError> {
    let mut options = ptir::Options::default();
    rules.apply(&mut options)?;
    options.fast_math = true;
    let set = ptir::load_rules(&options).map_err(|source| CliError::Optimize {
        path: "lint-rules".into(),
        source,
    })?;
    let lint = ptir::rules::lint::LintOptions {
        proof_seeds,
        ..Default::default()
    };
    let findings = ptir::rules::lint::lint(&set, &lint);
    let text: String = findings.iter().map(|f| format!("{f}\n")).collect();
    Ok(Outcome {
        out: text.into_bytes(),
        agreed: findings.is_empty(),
        after_write: Some(format!(
            "{} finding(s) in {} rules",
            findings.len(),
            set.rules().len()
        )),
    })
}

/// `ptir-opt compile-rules`: the compiled library of `files`, for -o (never a terminal).
fn compile_rules(files: &[std::path::PathBuf], output: Option<&str>) -> Result<Outcome, CliError> {
    use std::io::IsTerminal;
    if output.is_none() && std::io::stdout().is_terminal() {
        return Err(CliError::Usage {
            path: "compile-rules".into(),
            message: "a compiled rule library is binary: write it to a file with -o FILE".into(),
        });
    }
    let mut paths = Vec::new();
    for f in files {
        paths.extend(rule_files_in(f)?);
    }
    let bytes = ptir::compile_rules(&paths).map_err(|source| CliError::Optimize {
        path: "compile-rules".into(),
        source,
    })?;
    let message = format!(
        "compiled {} rule files into {} bytes{}",
        paths.len(),
        bytes.len(),
        output.map(|o| format!(" ({o})")).unwrap_or_default()
    );
    Ok(Outcome {
        out: bytes,
        agreed: true,
        after_write: Some(message),
    })
}

/// What a command gives back to `main`.
struct Outcome {
    /// The bytes for stdout (or `-o`).
    out: Vec<u8>,
    /// False when what the command checks failed (`diff` found a mismatch, `lint-rules` a
    /// finding): exit status 1, the output written all the same.
    agreed: bool,
    /// What to say on stderr once the output is written (and only then: `compile-rules` to
    /// an unwritable path says nothing but the error).
    after_write: Option<String>,
}

impl Outcome {
    fn text(text: String, agreed: bool) -> Outcome {
        Outcome {
            out: text.into_bytes(),
            agreed,
            after_write: None,
        }
    }
}

/// The read flags (global, so that they may follow a subcommand) are refused by the
/// subcommands that read no program, rather than silently ignored.
fn refuse_read_flags(cli: &Cli) -> Result<(), CliError> {
    let command = match &cli.command {
        Some(Command::CompileRules { .. }) => "compile-rules",
        Some(Command::LintRules { .. }) => "lint-rules",
        _ => return Ok(()),
    };
    let io = &cli.io;
    let given = [
        (io.input_format.is_some(), "--input-format"),
        (io.allow_opaque, "--allow-opaque"),
        (io.inline_calls, "--inline-calls"),
    ];
    match given.iter().find(|(set, _)| *set) {
        None => Ok(()),
        Some((_, flag)) => Err(CliError::Usage {
            path: command.into(),
            message: format!("{flag} is for reading programs; `{command}` reads rule files"),
        }),
    }
}

/// Runs what the command line asks, reading files as `rd` says.
fn run_command(cli: &Cli, rd: &Reader) -> Result<Outcome, CliError> {
    let ok = |text: String| Ok(Outcome::text(text, true));
    refuse_read_flags(cli)?;
    match (&cli.command, &cli.files[..]) {
        (Some(Command::Verify { file, emit: e }), _) => load_source(rd, file)
            .and_then(|(p, s)| ok(emit(&p, &s, e, input_format(rd, file), file)?)),
        (Some(Command::Translate { file, emit: e }), _) => {
            let (p, source) = load_source(rd, file)?;
            let other = match input_format(rd, file) {
                Format::Mlir => Format::Ptir,
                Format::Ptir => Format::Mlir,
            };
            ok(emit(&p, &source, e, other, file)?)
        }
        (
            Some(Command::Run {
                file,
                function,
                seed,
                inputs,
            }),
            _,
        ) => ok(run(
            rd,
            file,
            function.as_deref(),
            *seed,
            inputs.as_deref(),
        )?),
        (
            Some(Command::Compare {
                file,
                cost_table,
                out_dir,
                rules,
                limits,
            }),
            _,
        ) => ok(compare(
            rd,
            file,
            rules,
            limits,
            cost_table.as_deref(),
            out_dir.as_deref(),
        )?),
        (Some(Command::Signatures { files }), _) => ok(signatures(rd, files)?),
        (
            Some(Command::Match {
                file,
                rules,
                report_json,
            }),
            _,
        ) => ok(match_rules(rd, file, rules, report_json.as_deref())?),
        (
            Some(Command::Diff {
                file,
                random,
                seed,
                size,
                list,
                gen,
                rules,
                limits,
                extract,
            }),
            _,
        ) => diff::options(rules, limits, extract)
            .and_then(|o| {
                let input = match file {
                    Some(path) => Some((path.as_str(), load(rd, path)?.0)),
                    None => None,
                };
                diff::run(input, *random, *seed, *size, *list, gen, &o)
            })
            .map(|(text, agreed)| Outcome::text(text, agreed)),
        (Some(Command::LintRules { rules, proof_seeds }), _) => lint_rules(rules, *proof_seeds),
        (Some(Command::CompileRules { files }), _) => {
            compile_rules(files, cli.io.output.as_deref())
        }
        (None, _) if cli.opt.list_rules => ok(list_rules(&cli.opt)?),
        (None, [file]) => ok(optimize(rd, file, &cli.opt, &cli.io, &cli.emit)?),
        (None, []) => Err(CliError::Usage {
            path: "ptir-opt".into(),
            message: "give a file to optimize (`-` for stdin) or a subcommand; see --help".into(),
        }),
        (None, files) => Err(CliError::Usage {
            path: files[1].clone(),
            message: format!(
                "ptir-opt optimizes one file at a time, got {}: {} (for several programs in one \
                 file, separate them with `// -----` lines and pass --split-input-file)",
                files.len(),
                files.join(", ")
            ),
        }),
    }
}
