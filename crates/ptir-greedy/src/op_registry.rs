//! Per-op hooks a user registers (MLIR's `fold` and `getCanonicalizationPatterns` of an op
//! definition): folders the driver tries before its built-in folds, and canonicalization
//! patterns the `canonicalize` pass runs beside the rules.
//!
//! ```
//! use ptir_greedy::{Fold, Ir, OpRegistry};
//! use ptir_ir::{InstId, Op, OpKey};
//!
//! // `call @my_id(x)` is x: a folder for calls of a user's identity function.
//! let mut ops = OpRegistry::new();
//! ops.add_folder(OpKey::Call, |ir: &Ir, i: InstId| match ir.op(i) {
//!     Op::Call { callee } if callee == "my_id" => Fold::Value(ir.operands(i)[0]),
//!     _ => Fold::None,
//! });
//! assert_eq!(ops.num_folders(), 1);
//! ```

use crate::fold::{fold, Fold};
use crate::ir::Ir;
use crate::pattern::Pattern;
use ptir_ir::{InstId, OpKey};
use std::fmt;
use std::sync::Arc;

/// A user folder: what an instruction of its op kind folds to, or [`Fold::None`].
pub type Folder = Arc<dyn Fn(&Ir<'_>, InstId) -> Fold + Send + Sync>;

/// Makes a canonicalization pattern (one per pass that uses it).
pub type PatternMaker = Arc<dyn Fn() -> Box<dyn Pattern> + Send + Sync>;

/// Folders and canonicalization patterns by op kind; see the module docs. Cloning shares the
/// hooks; two registries are equal when they hold the same hooks.
#[derive(Clone, Default)]
pub struct OpRegistry {
    folders: Vec<(OpKey, Folder)>,
    patterns: Vec<PatternMaker>,
}

impl OpRegistry {
    /// No hooks: the built-in folds and the rules alone.
    pub fn new() -> Self {
        OpRegistry::default()
    }

    /// Registers a folder for ops of kind `key`, tried before the built-in folds (and before
    /// earlier registered folders' later peers: in registration order).
    pub fn add_folder(
        &mut self,
        key: OpKey,
        folder: impl Fn(&Ir<'_>, InstId) -> Fold + Send + Sync + 'static,
    ) -> &mut Self {
        self.folders.push((key, Arc::new(folder)));
        self
    }

    /// Registers a canonicalization pattern: `make` builds it for each canonicalize pass.
    pub fn add_canonicalization_pattern<P: Pattern + 'static>(
        &mut self,
        make: impl Fn() -> P + Send + Sync + 'static,
    ) -> &mut Self {
        self.patterns
            .push(Arc::new(move || Box::new(make()) as Box<dyn Pattern>));
        self
    }

    /// How many folders are registered.
    pub fn num_folders(&self) -> usize {
        self.folders.len()
    }

    /// The canonicalization patterns, built afresh.
    pub fn patterns(&self) -> impl Iterator<Item = Box<dyn Pattern>> + '_ {
        self.patterns.iter().map(|make| make())
    }

    /// Folds `i`: the first registered folder of its kind that knows a fold, else the
    /// built-in [`fold()`](crate::fold()).
    pub fn fold(&self, ir: &Ir<'_>, i: InstId) -> Fold {
        if let Some(key) = ir.op_key(i).filter(|_| !self.folders.is_empty()) {
            for (_, f) in self.folders.iter().filter(|(k, _)| *k == key) {
                let folded = f(ir, i);
                if !matches!(folded, Fold::None) {
                    return folded;
                }
            }
        }
        fold(ir, i)
    }
}

impl fmt::Debug for OpRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kinds: Vec<String> = self.folders.iter().map(|(k, _)| k.to_string()).collect();
        f.debug_struct("OpRegistry")
            .field("folders", &kinds)
            .field("patterns", &self.patterns.len())
            .finish()
    }
}

impl PartialEq for OpRegistry {
    fn eq(&self, other: &Self) -> bool {
        self.folders.len() == other.folders.len()
            && self.patterns.len() == other.patterns.len()
            && (self.folders.iter().zip(&other.folders))
                .all(|((a, f), (b, g))| a == b && Arc::ptr_eq(f, g))
            && (self.patterns.iter().zip(&other.patterns)).all(|(p, q)| Arc::ptr_eq(p, q))
    }
}

impl Eq for OpRegistry {}
