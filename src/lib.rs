//! PTIR-opt: an equality-saturation optimizer for tensor programs.
//!
//! This root crate is the facade users depend on. Today it re-exports the IR layer as
//! [`ir`]; the rule language, the greedy driver and the e-graph engine join it as they land,
//! together with the one-call entry points (`optimize`, `compare_cost_models`, `diff`).
//!
//! ```
//! let program = ptir::ir::parse(
//!     "func @f(%x: f32[2]) -> (f32[2]) {\n  %y = exp %x : f32[2]\n  return %y\n}",
//! )?;
//! ptir::ir::verify(&program)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use ptir_ir as ir;
