//! What a caller chooses: engine, rules, limits, cost model, extractor.

use crate::run::ExternImpls;
use ptir_cost::{CostModel, CostTable, OpCount, Roofline, TensorCost};
use ptir_egraph::{ExtractorKind, SaturationOptions, Scheduler};
use ptir_ir::Program;
pub use ptir_pass::Limits;
use ptir_rules::{Registry, RuleFilter, RuleSet, FAST_MATH};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Which engine optimizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The greedy driver with MLIR's semantics (canonicalize → CSE → DCE).
    Greedy,
    /// Equality saturation (the e-graph engine).
    Saturation,
}

impl Engine {
    /// The engine named `name` (`greedy` or `eqsat`, as [`Engine::name`] gives them).
    ///
    /// ```
    /// assert_eq!(ptir::Engine::from_name("greedy"), Some(ptir::Engine::Greedy));
    /// assert_eq!(ptir::Engine::from_name("GREEDY"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Engine> {
        [Engine::Greedy, Engine::Saturation]
            .into_iter()
            .find(|e| e.name() == name)
    }

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Greedy => "greedy",
            Engine::Saturation => "eqsat",
        }
    }
}

impl Engine {
    /// The engine's pipeline, as pipeline text ([`Options::pipeline`] replaces it): the
    /// loop steps ([`LOOP_STEPS`]), then the engine's own passes (`canonicalize,cse,dce`,
    /// [`ptir_greedy::DEFAULT_PIPELINE`], or `eqsat`), then the steps priced on the
    /// program the engine gives ([`FINAL_STEPS`]).
    ///
    /// ```
    /// assert_eq!(
    ///     ptir::Engine::Saturation.pipeline(),
    ///     "loop-patterns,loop-idioms,unroll,eqsat,sibling-reductions"
    /// );
    /// // Each is the loop steps, the engine's own passes, the final steps.
    /// use ptir::{Engine, FINAL_STEPS, LOOP_STEPS};
    /// let greedy = ptir::greedy::DEFAULT_PIPELINE;
    /// assert_eq!(Engine::Greedy.pipeline(), format!("{LOOP_STEPS},{greedy},{FINAL_STEPS}"));
    /// let eqsat = ptir::EQSAT_PASS;
    /// assert_eq!(Engine::Saturation.pipeline(), format!("{LOOP_STEPS},{eqsat},{FINAL_STEPS}"));
    /// ```
    pub fn pipeline(self) -> &'static str {
        match self {
            Engine::Greedy => {
                "loop-patterns,loop-idioms,unroll,canonicalize,cse,dce,sibling-reductions"
            }
            Engine::Saturation => "loop-patterns,loop-idioms,unroll,eqsat,sibling-reductions",
        }
    }
}

/// The steps on loops every engine's pipeline opens with, as pipeline text: the rule files'
/// loop patterns first (a user's pattern for a sum loop raises it to the user's call before
/// the built-in idiom makes it a `reduce`), then the built-in reduction idioms, then
/// unrolling the loops left whose trip count is static and small ([`Options::unroll`]).
pub const LOOP_STEPS: &str = "loop-patterns,loop-idioms,unroll";

/// The steps every engine's pipeline ends with, as pipeline text: decisions that need the
/// whole optimized program and the target's prices, which the engines' rules do not make
/// (sibling reductions merged where the runtime reads their input once, split where it runs
/// them faster apart).
pub const FINAL_STEPS: &str = "sibling-reductions";

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The runtime an output is for: what its decisions (which loops to write out, which cost
/// model prices a choice) are made for. Not the legality `--target` of dialect conversion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Runtime {
    /// XLA on the CPU (what `jax.jit` runs on JAX's CPU backend): a `while` iteration costs
    /// about as little as a dispatch, and long unrolled bodies compile to slower code (the
    /// zoo's unrolled scans ran 0.57-0.93x of the loop), so loops stay loops.
    XlaCpu,
    /// IREE's `llvm-cpu` backend (the default, and what the roofline was fitted to): each
    /// `while` iteration pays dispatches and a host round trip, so loops with a known trip
    /// count are written out (1.6-11.9x on the zoo's `fori_loop` and `scan` models).
    #[default]
    IreeCpu,
}

impl Runtime {
    /// The runtimes there are, by [`Runtime::name`].
    pub const ALL: &'static [Runtime] = &[Runtime::XlaCpu, Runtime::IreeCpu];

    /// Its name on the command line, in Python and in reports (`xla-cpu`, `iree-cpu`).
    pub fn name(self) -> &'static str {
        match self {
            Runtime::XlaCpu => "xla-cpu",
            Runtime::IreeCpu => "iree-cpu",
        }
    }

    /// The runtime named `name`.
    ///
    /// ```
    /// assert_eq!(ptir::Runtime::from_name("xla-cpu"), Some(ptir::Runtime::XlaCpu));
    /// assert_eq!(ptir::Runtime::from_name("xla"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Runtime> {
        Runtime::ALL.iter().copied().find(|r| r.name() == name)
    }

    /// What the roofline knows of this runtime: what a loop iteration costs, how it runs
    /// ragged products ([`ptir_cost::Behaviour`]).
    pub fn behaviour(self) -> ptir_cost::Behaviour {
        match self {
            Runtime::IreeCpu => ptir_cost::Behaviour::IREE_CPU,
            Runtime::XlaCpu => ptir_cost::Behaviour::XLA_CPU,
        }
    }

    /// Which loops are written out for this runtime ([`ptir_cost::Behaviour::unroll`]): on
    /// IREE those with a known trip count of at most 256, on XLA none.
    pub fn unroll_limits(self) -> ptir_pass::transform::UnrollLimits {
        self.behaviour().unroll
    }
}

impl fmt::Display for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A cost model by name, or a user's.
#[derive(Clone, Default)]
pub enum Cost {
    /// One per instruction ([`OpCount`]).
    Ops,
    /// FLOPs and bytes from the shapes ([`TensorCost`]), unit-free, with the rule set's
    /// fused extern costs.
    Tensor,
    /// Predicted microseconds on a runtime that fuses ([`Roofline`]): the default.
    #[default]
    Roofline,
    /// The roofline with kernels measured on a real runtime ([`Roofline::measured`]; the
    /// table from `scripts/calibrate.py`, read with [`CostTable::read`]).
    Measured(Arc<CostTable>),
    /// A user-supplied model.
    Custom(Arc<dyn CostModel>),
}

impl fmt::Debug for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cost::Ops => f.write_str("Ops"),
            Cost::Tensor => f.write_str("Tensor"),
            Cost::Roofline => f.write_str("Roofline"),
            Cost::Measured(t) => write!(f, "Measured({})", t.file),
            Cost::Custom(m) => write!(f, "Custom({})", m.name()),
        }
    }
}

impl Cost {
    /// The cost model `spec` names (see [`CostSpec::parse`]), a `measured=FILE` table read now.
    ///
    /// ```
    /// assert!(matches!(ptir::Cost::parse("tensor"), Ok(ptir::Cost::Tensor)));
    /// let err = ptir::Cost::parse("flops").unwrap_err();
    /// assert_eq!(err.to_string(), "unknown cost model `flops`: expected roofline, measured=FILE, tensor or ops");
    /// ```
    pub fn parse(spec: &str) -> Result<Cost, crate::Error> {
        match CostSpec::parse(spec).map_err(crate::Error::Options)? {
            CostSpec::Model(cost) => Ok(cost),
            CostSpec::Table(file) => {
                let table =
                    CostTable::read(&file).map_err(|e| crate::Error::Options(e.to_string()))?;
                Ok(Cost::Measured(Arc::new(table)))
            }
        }
    }

    /// The model for optimizing `program` with `rules` for `runtime`: the tensor and roofline
    /// models take the extern costs `rules` declare, the roofline the functions `program`
    /// defines and the runtime's behaviours ([`Runtime::behaviour`]).
    pub fn model(
        &self,
        rules: &RuleSet,
        program: &Program,
        runtime: Runtime,
    ) -> Arc<dyn CostModel> {
        let extern_costs = || {
            rules
                .externs()
                .iter()
                .map(|(k, e)| (k.clone(), e.cost))
                .collect()
        };
        let roofline = |mut r: Roofline| {
            r.extern_flops = extern_costs();
            Arc::new(r.with_behaviour(runtime.behaviour()).for_program(program))
        };
        match self {
            Cost::Ops => Arc::new(OpCount),
            Cost::Tensor => Arc::new(TensorCost {
                extern_costs: extern_costs(),
                ..TensorCost::default()
            }),
            Cost::Roofline => roofline(Roofline::default()),
            Cost::Measured(table) => roofline(Roofline::measured(table.clone())),
            Cost::Custom(m) => m.clone(),
        }
    }
}

/// A cost model as a user names it (`--cost`, Python's `cost=`), before any file is read.
#[derive(Clone, Debug)]
pub enum CostSpec {
    /// A built-in model: `roofline`, `tensor` or `ops`.
    Model(Cost),
    /// `measured=FILE`: the roofline with the table in `FILE` (from `scripts/calibrate.py`).
    Table(PathBuf),
}

impl CostSpec {
    /// Reads `spec`: `roofline`, `tensor`, `ops` or `measured=FILE`; the message says what
    /// was expected.
    ///
    /// ```
    /// use ptir::CostSpec;
    /// assert!(matches!(CostSpec::parse("measured=t.json"), Ok(CostSpec::Table(f)) if f.ends_with("t.json")));
    /// assert!(CostSpec::parse("measured").unwrap_err().contains("needs its table"));
    /// ```
    pub fn parse(spec: &str) -> Result<CostSpec, String> {
        match spec {
            "ops" => Ok(CostSpec::Model(Cost::Ops)),
            "tensor" => Ok(CostSpec::Model(Cost::Tensor)),
            "roofline" => Ok(CostSpec::Model(Cost::Roofline)),
            "measured" | "measured=" => {
                Err("`measured` needs its table: measured=FILE (from scripts/calibrate.py)".into())
            }
            _ => match spec.strip_prefix("measured=") {
                Some(file) => Ok(CostSpec::Table(file.into())),
                None => Err(format!(
                    "unknown cost model `{spec}`: expected roofline, measured=FILE, tensor or ops"
                )),
            },
        }
    }
}

/// Rules given as text rather than read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleText {
    /// The file name errors and the report give for them; a name ending in `.pat` reads the
    /// text as a `.pat` file (patterns written as PTIR), any other as a `.rules` file.
    pub file: String,
    /// The source.
    pub text: String,
}

impl RuleText {
    /// Rules `text`, located as if read from `file`.
    pub fn new(file: impl Into<String>, text: impl Into<String>) -> Self {
        RuleText {
            file: file.into(),
            text: text.into(),
        }
    }
}

/// Everything [`crate::optimize`] needs to know.
///
/// `Options::default()` is: equality saturation, the bundled rules without `fast-math`,
/// default limits, the roofline cost model, the DAG-aware greedy extractor (the output program
/// computes each value once, so its cost is the DAG cost of the choice; the tree extractor
/// pays a shared value once per use and cannot see that sharing a value is cheaper).
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine.
    pub engine: Engine,
    /// The runtime the output is for (default [`Runtime::IreeCpu`]); set it with
    /// [`Options::for_runtime`], which also sets what the runtime decides
    /// ([`Options::unroll`]).
    pub runtime: Runtime,
    /// Use the bundled `rules/` library (default true).
    pub bundled_rules: bool,
    /// Extra rule files (`.rules`, `.pat`, or compiled libraries: [`crate::compile_rules`]),
    /// read from disk.
    pub rule_files: Vec<PathBuf>,
    /// Extra rules given as `.rules` text.
    pub rule_texts: Vec<RuleText>,
    /// The predicates, native functions and builders that rules may name (default
    /// [`Registry::standard`]). A caller's own start from the standard registry (the bundled
    /// rules name it) and add theirs, for the rules of [`Options::rule_files`] and
    /// [`Options::rule_texts`] to use.
    pub registry: Registry,
    /// The caller's extern implementations, for the interpreter runs of [`crate::diff`] and
    /// of [`Options::validate`] (default none): what a user raising rule calls can then be
    /// run and compared. The project's own externs are always there ([`crate::interpreter`]).
    pub externs: ExternImpls,
    /// The user's per-op hooks for the greedy engine's `canonicalize` (default none): folders
    /// tried before the built-in folds and canonicalization patterns run beside the rules
    /// (MLIR's per-op `fold` and `getCanonicalizationPatterns`). Saturation runs rules alone.
    pub ops: ptir_greedy::OpRegistry,
    /// Prove every user-supplied rule (of `rule_files` and `rule_texts`, not the bundled
    /// library) by the interpreter when loading it, and refuse one with a counterexample
    /// (default false, `--prove-rules`: the prover samples dtypes and inputs a rule may not be
    /// meant for, so a rule sound on the program's types can be refused; see
    /// [`crate::load_rules`]).
    pub prove_rules: bool,
    /// Rule names or labels to keep (empty: all).
    pub enable: Vec<String>,
    /// Rule names or labels to drop (wins over `enable`).
    pub disable: Vec<String>,
    /// Allow rules labelled `fast-math` (default false).
    pub fast_math: bool,
    /// Limits of either engine ([`Limits`], the one type both read; each fills in its own
    /// defaults).
    pub limits: Limits,
    /// The cost model.
    pub cost: Cost,
    /// Which rules saturation runs in each iteration (saturation only; default
    /// [`Scheduler::Backoff`]).
    pub scheduler: Scheduler,
    /// The extractor (saturation only).
    pub extractor: ExtractorKind,
    /// Keep the saturated e-graphs as egraph-serialize JSON in the report (default false;
    /// saturation only: with the greedy engine, [`crate::optimize`] refuses it).
    pub dump_egraph: bool,
    /// Keep a step log in the report (default false): the greedy driver's event tree, or
    /// saturation's per-iteration applications.
    pub step_log: bool,
    /// Explain every op of the output in the report (default false; `--explain`): the chain
    /// of rules that derived it from the input, or that it is an input op carried through
    /// ([`crate::Report::explanations`]). Greedy passes track what their rewriter inserts
    /// and changes; saturation turns egg's explanations on, which costs memory and time.
    pub explain: bool,
    /// Legalize the optimized program for this target, after optimization (default none;
    /// [`crate::load_target`] reads a bundled one or a file). A full conversion: if some op
    /// cannot be legalized, [`crate::optimize`] fails and names every such op.
    pub target: Option<ptir_convert::ConversionTarget>,
    /// Outline every fused library call into a function defined in the output (`@linear_0`,
    /// ...), so that the output is self-contained (default false; see
    /// [`ptir_convert::outline_fused_calls`]).
    pub outline: bool,
    /// A pass pipeline to run instead of the engine's (default `None`), as `mlir-opt
    /// --pass-pipeline` text: pass names separated by commas, among `loop-patterns`,
    /// `loop-idioms`, `unroll`, `inline`, `licm` (the loop and call steps),
    /// `canonicalize`, `cse`, `dce` (the greedy crate's passes) and `eqsat` (equality
    /// saturation, extraction and lifting), e.g. `loop-idioms,canonicalize,eqsat,dce`; every
    /// step the run takes is one of them ([`Engine::pipeline`] gives the engines'). Each
    /// rewriting pass has the whole time limit.
    pub pipeline: Option<String>,
    /// Keep the program after each pass in the report ([`crate::Report::ir_after`]; default
    /// false; `--print-ir-after-all`).
    pub ir_after_each: bool,
    /// Verify the program after each pass of the pipeline (default false; `--verify-each`,
    /// MLIR's): an expensive check that names the pass that broke the program. Without it
    /// the program is verified where it enters and where it leaves the optimizer.
    pub verify_each: bool,
    /// Translation validation (default `None`): after optimizing, run the input and the output
    /// on this many seeded random input sets and refuse an output that computes something
    /// else ([`crate::Error::Validation`]); see [`crate::validate`].
    pub validate: Option<usize>,
    /// Which `while` loops are written out before the engines run (default
    /// [`Runtime::unroll_limits`] of the default runtime, [`ptir_pass::transform::UnrollLimits::default`]:
    /// a trip count known at compile time of at most 256,
    /// and at most 8,192 instructions added in all; `max_trips: 0` unrolls nothing). See
    /// [`ptir_pass::transform::unroll_loops`]: IREE runs the zoo's `fori_loop` and `scan` loops written out
    /// 1.6-9.8x faster.
    pub unroll: ptir_pass::transform::UnrollLimits,
    /// Drop the rules that can never match the program before the passes run (default true;
    /// [`ptir_rules::RuleSet::retain_applicable`]): a rule whose source needs an op kind that
    /// neither the program, nor the engines, nor the result of a rule that can match makes.
    /// What the other rules do is unchanged, so is the output; a run is spared indexing and
    /// trying the rest. Kept off when [`Options::ops`] has canonicalization patterns (native
    /// code, which may build any op).
    pub prune_rules: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: Engine::Saturation,
            runtime: Runtime::default(),
            bundled_rules: true,
            rule_files: Vec::new(),
            rule_texts: Vec::new(),
            registry: Registry::standard(),
            externs: ExternImpls::new(),
            ops: ptir_greedy::OpRegistry::new(),
            prove_rules: false,
            enable: Vec::new(),
            disable: Vec::new(),
            fast_math: false,
            limits: Limits::default(),
            cost: Cost::Roofline,
            scheduler: Scheduler::default(),
            extractor: ExtractorKind::DagGreedy,
            dump_egraph: false,
            step_log: false,
            explain: false,
            target: None,
            outline: false,
            pipeline: None,
            ir_after_each: false,
            verify_each: false,
            validate: None,
            unroll: Runtime::default().unroll_limits(),
            prune_rules: true,
        }
    }
}

impl Options {
    /// These options with their output meant for `runtime`: the runtime's decisions
    /// ([`Runtime::unroll_limits`]) replace what was set before; set a limit after this call
    /// to override it.
    ///
    /// ```
    /// use ptir::{Options, Runtime};
    /// let xla = Options::default().for_runtime(Runtime::XlaCpu);
    /// assert_eq!((xla.runtime, xla.unroll.max_trips), (Runtime::XlaCpu, 0));
    /// assert_eq!(Options::default().unroll, Runtime::IreeCpu.unroll_limits());
    /// ```
    pub fn for_runtime(mut self, runtime: Runtime) -> Self {
        self.runtime = runtime;
        self.unroll = runtime.unroll_limits();
        self
    }

    /// How saturation searches and when it stops: [`Options::limits`] and
    /// [`Options::scheduler`].
    ///
    /// ```
    /// let options = ptir::Options::default();
    /// let saturation = options.saturation();
    /// assert_eq!(saturation.limits, options.limits);
    /// assert_eq!(saturation.iteration_limit(1), ptir::egraph::EGRAPH_ITER_LIMIT);
    /// ```
    pub fn saturation(&self) -> SaturationOptions {
        SaturationOptions {
            limits: self.limits.clone(),
            scheduler: self.scheduler,
            ..SaturationOptions::default()
        }
    }

    /// The rule filter these options describe.
    pub fn filter(&self) -> RuleFilter {
        let mut disabled = self.disable.clone();
        if !self.fast_math {
            disabled.push(FAST_MATH.to_string());
        }
        RuleFilter {
            enabled: self.enable.clone(),
            disabled,
        }
    }
}
