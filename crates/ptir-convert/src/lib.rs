//! Dialect conversion for PTIR, with the semantics of MLIR's conversion framework.
//!
//! Where the greedy driver rewrites until nothing applies, a *conversion* has a goal: a
//! [`ConversionTarget`] says which ops, callees and dtypes are legal, and the driver
//! ([`apply_conversion`]) rewrites every op that is not, with [`ConversionPattern`]s that may
//! change types through a [`TypeConverter`] (casts at the boundaries). A full conversion that
//! cannot legalize everything changes nothing and names every op it could not legalize.
//!
//! Uses: `ptir-opt FILE --target portable` (no fused library calls left: each is expanded
//! into its defining ops), `--target f32` (bf16/f16 arithmetic computed in f32), or a target
//! file of the user's.
//!
//! ```
//! use ptir_convert::{apply_conversion, default_patterns, ConversionMode, ConversionTarget};
//! let mut p = ptir_ir::parse(
//!     "func @f(%x: bf16[4], %y: bf16[4]) -> (bf16[4]) {\n  %z = add %x, %y : bf16[4]\n  return %z\n}",
//! )?;
//! let target = ConversionTarget::bundled("f32").unwrap();
//! apply_conversion(&mut p, &target, &default_patterns(), ConversionMode::Full)?;
//! let ops: Vec<&str> = p.functions[0].body.insts.iter().map(|i| i.op.name()).collect();
//! assert_eq!(ops, ["cast", "cast", "add", "cast"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod driver;
mod outline;
mod patterns;
mod target;
mod types;

pub use driver::{
    apply_conversion, ConversionError, ConversionMode, ConversionReport, IllegalOp,
    CONVERSION_DEPTH_LIMIT,
};
pub use outline::{outline_fused_calls, Outlined};
pub use patterns::{
    default_patterns, inline, ComputeInConvertedType, ConversionPattern, ExpandFusedCall,
    RewriteContext,
};
pub use target::{ConversionTarget, DynamicLegality, Legality, TargetError, BUNDLED_TARGETS};
pub use types::TypeConverter;
