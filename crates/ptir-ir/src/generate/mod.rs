//! A seeded generator of random, well-typed programs, for differential tests, fuzzing and
//! benches.
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

mod chain;
mod control;
mod gpt2;
mod inputs;
mod state;
mod tensor_ops;

pub use chain::generate_chain;
pub use gpt2::{gpt2_stack, Gpt2Config};
pub use inputs::{random_inputs, random_tensor, random_value, try_random_inputs};

use crate::builder::ProgramBuilder;
use crate::ops::OpKey;
use crate::program::Program;
use crate::tensor::Value;
use crate::types::DType;
use state::Gen;
use std::collections::BTreeMap;

/// Name of the generated pure extern, `(T) -> (T, T)`.
pub const GEN_PURE_EXTERN: &str = "gen_pure";
/// Name of the generated impure extern, `(T, U) -> (T)`.
pub const GEN_IMPURE_EXTERN: &str = "gen_impure";
/// Name of the generated helper function that the entry function calls.
pub const HELPER: &str = "helper";
/// Name of the entry function (the last function of a generated program).
pub const ENTRY: &str = "main";

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
    gen.declare_externs(&mut pb);
    let helper_size = (cfg.size / 5).max(2);
    gen.function(&mut pb, HELPER, helper_size);
    gen.function(&mut pb, ENTRY, cfg.size.saturating_sub(helper_size).max(1));
    let program = pb
        .finish()
        .expect("the generator adds only ops that the builder type-checked");
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

/// The reference semantics of the generated externs: every result is a copy of the first
/// argument (`None` for other names or no arguments). The interpreter or differential tester
/// registers this for [`GEN_PURE_EXTERN`] and [`GEN_IMPURE_EXTERN`].
///
/// ```
/// use ptir_ir::generate::{extern_reference, GEN_PURE_EXTERN};
/// use ptir_ir::{DType, Tensor, TensorType, Value};
/// let x = Value::Tensor(Tensor::from_f64(TensorType::new(DType::F32, vec![1]), &[2.0]));
/// assert_eq!(extern_reference(GEN_PURE_EXTERN, &[x.clone()]), Some(vec![x.clone(), x]));
/// ```
pub fn extern_reference(name: &str, args: &[Value]) -> Option<Vec<Value>> {
    let first = args.first()?;
    match name {
        GEN_PURE_EXTERN => Some(vec![first.clone(), first.clone()]),
        GEN_IMPURE_EXTERN => Some(vec![first.clone()]),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
