//! The `.ptir` text format: a readable, MLIR-like syntax with a printer and a parser that
//! round-trip exactly (`parse(print(p)) == p`).
//!
//! ```text
//! extern @log_event(f32[]) -> () impure
//!
//! func @softmax(%0: f32[4,8]) -> (f32[4,8]) {
//!   %1 = reduce_max %0 axes=[1] keep_dims=true : f32[4,1]
//!   %2 = broadcast %1 dims=[0,1] : f32[4,8]
//!   %3 = sub %0, %2 : f32[4,8]
//!   return %3
//! }
//! ```
//!
//! An instruction is `%result = op operands attributes : type regions`. Region ops print their
//! regions after the type as `{ ^(params): ... yield values }`.

mod lexer;
mod parser;
mod printer;
mod source_map;

pub use parser::{parse, parse_with_source_map, ParseError, NESTING_LIMIT};
pub use printer::{is_bare_symbol, op_signature, print, print_inst, write_symbol};
pub use source_map::{LocatedDiagnostic, SourceLoc, SourceMap};
