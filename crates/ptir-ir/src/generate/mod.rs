//! A seeded generator of random, well-typed programs, for differential tests, fuzzing and
//! benches. Test code: compiled for this crate's tests and with the `testing` feature
//! (`ptir-opt diff --random` ships it); the inputs of a run are [`crate::inputs`], always
//! compiled.
//!
//! [`generate`] builds a program of about [`GenConfig::size`] instructions through the
//! [`builder`](crate::ProgramBuilder), so every op is shape-checked as it is made and the
//! result verifies. The same seed and config always give the same program (`ChaCha8Rng`).
//!
//! What a generated program looks like:
//! - two externs, [`GEN_PURE_EXTERN`] `(T) -> (T, T)` (pure) and, if impure ops are allowed,
//!   [`GEN_IMPURE_EXTERN`] `(T, U) -> (T)`; [`extern_reference`] gives their semantics;
//! - a function `@helper` and the entry function `@main` (the last one, [`ENTRY`]), whose
//!   parameters are the inputs ([`random_inputs`] makes values for them);
//! - every op kind of [`OpKey::all`](crate::OpKey::all): elementwise ops, constants (dense and
//!   splat), shape ops, `dot_general` with batch and contracting dims, reductions with and
//!   without `keep_dims`, calls of `@helper` and of both externs, `rng`, tuples, and `cond`,
//!   `while` and `scan` whose regions capture outer values, nested up to
//!   [`GenConfig::max_depth`];
//! - shared subterms: operands are mostly existing values (recent ones preferred), so programs
//!   are DAGs rather than trees.
//!
//! Programs stay cheap to interpret: no tensor has more than [`GenConfig::max_elements`]
//! elements, every `while` counts an `i32` from 0 or 1 up to a constant of at most 4, and
//! integer `div`/`rem` only divide by positive constants.
//!
//! ```
//! use ptir_ir::generate::{generate, random_inputs, GenConfig, ENTRY};
//! let p = generate(&GenConfig { seed: 7, size: 40, ..GenConfig::default() });
//! assert!(ptir_ir::verify(&p).is_ok());
//! let main = p.function(ENTRY).unwrap();
//! let inputs = random_inputs(main, 7);
//! assert_eq!(inputs.len(), main.body.params.len());
//! ```

mod adversarial;
mod chain;
mod control;
mod gpt2;
mod indexing;
mod orders;
mod scoped;
mod state;
mod tensor_ops;
mod windows;

pub use chain::{generate_chain, matrix_chain};
pub use gpt2::{gpt2_stack, Gpt2Config};
pub use scoped::{loop_program, scoped_program};
// What a run of a generated program needs besides the program (product code, always
// compiled), gathered here for the tests that generate programs.
pub use crate::inputs::{
    extern_reference, random_inputs, random_tensor, random_value, try_random_inputs,
    try_trap_free_inputs, GEN_IMPURE_EXTERN, GEN_PURE_EXTERN,
};

use crate::builder::ProgramBuilder;
use crate::ops::OpKey;
use crate::program::Program;
use crate::types::DType;
use state::Gen;
use std::collections::BTreeMap;

/// Name of the generated helper function that the entry function calls.
pub const HELPER: &str = "helper";
/// Name of the entry function (the last function of a generated program).
pub const ENTRY: &str = "main";
/// Name prefix of the generated helpers that trap ([`GenConfig::trapping_helpers`]).
pub const TRAP_PREFIX: &str = "trap";
/// Name prefix of the generated helpers that never return ([`GenConfig::looping_helpers`]).
pub const SPIN_PREFIX: &str = "spin";
/// The fusion idioms the generator can write, by the name of the extern the bundled rules
/// raise them to ([`GenConfig::idiom_weight`], [`GenConfig::clash_names`]).
pub const IDIOMS: [&str; 5] = [
    "linear",
    "softmax_fused",
    "gelu_fused",
    "moments",
    "transpose_add_mul",
];

/// What to generate. `Default` gives small, varied programs of every op kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Seed of the random stream: equal configs give equal programs.
    pub seed: u64,
    /// About how many instructions, over all functions, nested ones included (default 30).
    pub size: usize,
    /// Largest tensor rank, at least 1 (default 3).
    pub max_rank: usize,
    /// Largest size of a dim in random shapes, at least 1 (default 4).
    pub max_dim: usize,
    /// Largest number of elements of any tensor, at least 1 (default 64).
    pub max_elements: usize,
    /// Deepest nesting of regions (default 2).
    pub max_depth: usize,
    /// Generate `cond`, `while` and `scan` (default true).
    pub allow_regions: bool,
    /// Generate `rng` and calls of the impure extern (default true).
    pub allow_impure: bool,
    /// The dtypes of random types (default: all). `bool` results of comparisons and the
    /// `i32` counters of loops appear whatever this says; empty means all.
    pub dtypes: Vec<DType>,
    /// Plain generated functions besides [`HELPER`], named `helper1`, `helper2`, ...
    /// (default 0).
    pub extra_helpers: usize,
    /// Generated functions that trap on some inputs, [`TRAP_PREFIX`]`0`, ...: an integer
    /// division of a constant by their first parameter (default 0).
    pub trapping_helpers: usize,
    /// Generated functions that never return, [`SPIN_PREFIX`]`0`, ...: an endless `while`
    /// or an unconditional call of themselves (default 0).
    pub looping_helpers: usize,
    /// Step weight of guarded integer divisions, `cond (x != 0) { 100 / x + 1 } else { 0 }`
    /// with `x` often an input, sometimes twice on the same `x` (default 0: never).
    pub guarded_div_weight: u32,
    /// Step weight of calls of the trapping and looping helpers inside a `cond` whose guard
    /// protects them, or inside a `while` whose trip count comes from an input and is often
    /// zero (default 0: never).
    pub risky_call_weight: u32,
    /// Step weight of `cond`s whose branch not taken (on generated inputs) broadcasts to more
    /// than [`TENSOR_ELEMENT_LIMIT`](crate::TENSOR_ELEMENT_LIMIT) elements (default 0: never).
    pub huge_broadcast_weight: u32,
    /// Step weight of the idioms that the bundled fusion rules raise to library calls
    /// (`linear`, `softmax_fused`, `gelu_fused`, `moments`, `transpose_add_mul`; see
    /// [`IDIOMS`]) (default 0: never).
    pub idiom_weight: u32,
    /// Step weight of index arithmetic as JAX writes masks and indices: integer `iota`s
    /// combined with splat and dense constants by `add`, `sub` and `mul`, compared into a
    /// mask that selects between two values (`jnp.tril`, causal masks, strided indices). The
    /// integer associativity and distributivity rules, whose results the analysis folds into
    /// new constants, once made saturation enumerate sums on such programs (default 0: never).
    pub index_arith_weight: u32,
    /// Step weight of windowed ops: `convolution`s (random layouts, padding, strides,
    /// dilations, reversal, feature and batch groups), `reduce_window`s,
    /// `select_and_scatter`s, `pad`s, `reverse`s, and the order ops `reduce_arg*`, `sort`
    /// and `top_k` (default 0: never).
    pub window_weight: u32,
    /// Step weight of indexed ops: `gather`s and `scatter_*`s with random dimension numbers
    /// and constant start indices, some out of range (default 0: never).
    pub indexing_weight: u32,
    /// Step weight of long reductions written out: one of `add`, `mul`, `max`, `min`, `and`,
    /// `or` folded
    /// over 6 to 16 terms of one type, values of the function repeated and
    /// constants among them, grouped at random. Commutativity, associativity and
    /// distributivity (under `--fast-math` for floats) have an exponential closure on them
    /// (default 0: never).
    pub long_reduction_weight: u32,
    /// Names a program may give one of its own functions: the externs rules introduce,
    /// filled by the caller (`ptir-ir` knows no rules), e.g. from `RuleSet::externs()`
    /// (default empty).
    pub clash_names: Vec<String>,
    /// Percent of programs that define a function named after one of
    /// [`GenConfig::clash_names`] (with the idiom's signature when the name is one of
    /// [`IDIOMS`], a body other than the idiom most of the time, and the idiom in `@main`)
    /// (default 0).
    pub clash_percent: u32,
    /// Long-chain mode: if non-zero, the program is only `@main`, a straight chain of this
    /// many elementwise instructions (sometimes inside a `cond`), for the scaling bugs of
    /// lifting, extraction and printing (default 0: off).
    pub chain_len: usize,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            seed: 0,
            size: 30,
            max_rank: 3,
            max_dim: 4,
            max_elements: 64,
            max_depth: 2,
            allow_regions: true,
            allow_impure: true,
            dtypes: DType::ALL.to_vec(),
            extra_helpers: 0,
            trapping_helpers: 0,
            looping_helpers: 0,
            guarded_div_weight: 0,
            risky_call_weight: 0,
            huge_broadcast_weight: 0,
            idiom_weight: 0,
            index_arith_weight: 0,
            window_weight: 0,
            indexing_weight: 0,
            long_reduction_weight: 0,
            clash_names: Vec::new(),
            clash_percent: 0,
            chain_len: 0,
        }
    }
}

impl GenConfig {
    /// The default config with this seed and size.
    pub fn new(seed: u64, size: usize) -> Self {
        GenConfig {
            seed,
            size,
            ..GenConfig::default()
        }
    }

    /// The extended generator: the default config plus the shapes that broke the optimizer
    /// at rates that suit `ptir-opt diff --random`: 0–2 extra helpers, one
    /// trapping and one looping helper, guarded divisions, risky calls in `cond`s and
    /// zero-trip loops, huge broadcasts in branches not taken, fusion idioms, iota index
    /// arithmetic and masks, convolutions and windowed reductions, long reductions written
    /// out, and in
    /// `clash_percent` = 30% of programs a function named after one of `clash_names`.
    ///
    /// ```
    /// use ptir_ir::generate::{generate, GenConfig};
    /// let cfg = GenConfig::extended(3, 40, vec!["linear".to_string()]);
    /// assert!(ptir_ir::verify(&generate(&cfg)).is_ok());
    /// ```
    pub fn extended(seed: u64, size: usize, clash_names: Vec<String>) -> Self {
        GenConfig {
            seed,
            size,
            extra_helpers: (seed % 3) as usize,
            trapping_helpers: 1,
            looping_helpers: 1,
            guarded_div_weight: 3,
            risky_call_weight: 3,
            huge_broadcast_weight: 1,
            idiom_weight: 2,
            index_arith_weight: 2,
            window_weight: 1,
            indexing_weight: 1,
            long_reduction_weight: 1,
            clash_names,
            clash_percent: 30,
            ..GenConfig::default()
        }
    }

    /// The config with every bound brought into its valid range.
    fn sanitized(&self) -> GenConfig {
        let mut c = self.clone();
        c.max_rank = c.max_rank.clamp(1, 6);
        c.max_dim = c.max_dim.clamp(1, 16);
        c.max_elements = c.max_elements.max(1);
        if c.dtypes.is_empty() {
            c.dtypes = DType::ALL.to_vec();
        }
        c
    }
}

/// Counters of one generation run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenStats {
    /// Generation steps tried (one op each, with the ops they needed).
    pub steps: usize,
    /// Steps whose op the builder refused (a generator bug; they are skipped).
    pub rejected: usize,
    /// The first refusal, for debugging.
    pub first_rejection: Option<String>,
}

/// Generates a program; it always verifies.
pub fn generate(cfg: &GenConfig) -> Program {
    generate_with_stats(cfg).0
}

/// Generates a program and reports how the generation went.
pub fn generate_with_stats(cfg: &GenConfig) -> (Program, GenStats) {
    let cfg = cfg.sanitized();
    let mut gen = Gen::new(&cfg);
    let mut pb = ProgramBuilder::new();
    if cfg.chain_len > 0 {
        gen.long_chain(&mut pb, cfg.chain_len);
    } else {
        gen.declare_externs(&mut pb);
        let helper_size = (cfg.size / 5).max(2);
        gen.function(&mut pb, HELPER, helper_size, &[]);
        let mut main_size = cfg.size.saturating_sub(helper_size).max(1);
        for i in 1..=cfg.extra_helpers {
            let size = (cfg.size / 8).max(2);
            main_size = main_size.saturating_sub(size).max(1);
            gen.function(&mut pb, &format!("{HELPER}{i}"), size, &[]);
        }
        gen.risky_helpers(&mut pb);
        gen.clash_function(&mut pb);
        let inputs = gen.main_inputs();
        gen.function(&mut pb, ENTRY, main_size, &inputs);
    }
    let mut program = pb
        .finish()
        .expect("the generator adds only ops that the builder type-checked");
    gen.patch_recursive(&mut program);
    (program, gen.into_stats())
}

/// How many instructions of each kind a program has (nested ones included).
pub fn op_histogram(program: &Program) -> BTreeMap<OpKey, usize> {
    let mut h = BTreeMap::new();
    for f in &program.functions {
        f.body
            .walk(&mut |inst, _| *h.entry(inst.op.key()).or_insert(0) += 1);
    }
    h
}

#[cfg(test)]
mod tests;
