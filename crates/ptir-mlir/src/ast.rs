//! The syntax tree of an MLIR module as the importer reads it: functions, blocks and ops with
//! their operands, attributes, regions and types, before any meaning is given to them.
//!
//! Pretty (custom) and generic op forms parse into the same [`OpSyntax`]; the pretty forms'
//! positional parts land in [`OpSyntax::words`], `slice`'s `[a:b:c, ...]` in
//! [`Attr::Slice`], `reduce`'s `init:` operands after the inputs, and `convolution`'s
//! `dim_numbers = ..., window = {...}` in the attributes its generic form names
//! (`dimension_numbers`, `window_strides`, `padding` as flattened pairs, `lhs_dilation`,
//! `rhs_dilation`, `window_reversal`).

use crate::error::Pos;
use ptir_ir::TensorType;

/// A module: its functions, in order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Module {
    pub funcs: Vec<Func>,
}

/// `func.func [public|private] @name(params) -> results { body }`.
#[derive(Clone, Debug)]
pub(crate) struct Func {
    pub pos: Pos,
    pub name: String,
    pub params: Vec<(String, TensorType, Pos)>,
    pub results: Vec<TensorType>,
    /// `None` for a declaration without body.
    pub body: Option<Block>,
    /// Written `func.func private`.
    pub private: bool,
}

/// A block: its arguments and ops (the terminator included).
#[derive(Clone, Debug, Default)]
pub(crate) struct Block {
    pub args: Vec<(String, TensorType, Pos)>,
    pub ops: Vec<OpSyntax>,
}

/// One op, in either form.
#[derive(Clone, Debug, Default)]
pub(crate) struct OpSyntax {
    pub pos: Pos,
    /// Full name, e.g. `stablehlo.add`, `func.call`, `func.return`.
    pub name: String,
    /// The names its results bind: `%0`, or `%0#0`, `%0#1`, ... for `%0:2 = ...`.
    pub results: Vec<String>,
    /// Operand names with their positions.
    pub operands: Vec<(String, Pos)>,
    /// Positional words of the pretty form (`LE`, `SIGNED`, `applies`, `stablehlo.add`, ...).
    pub words: Vec<String>,
    /// Named attributes and properties.
    pub attrs: Vec<(String, Attr)>,
    /// Regions, in order.
    pub regions: Vec<Block>,
    /// `@callee` of calls.
    pub callee: Option<String>,
    /// Operand types (from a functional type, or implied by a short form).
    pub operand_types: Vec<TensorType>,
    /// Result types.
    pub result_types: Vec<TensorType>,
    /// Did the type annotation have the functional form `(...) -> ...`?
    pub functional_type: bool,
    /// Byte range of the op in the source, from its name to the end of its types and regions
    /// (results and location excluded): what an opaque op prints back.
    pub span: (usize, usize),
}

impl OpSyntax {
    /// The attribute named `name`.
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        find_attr(&self.attrs, name)
    }
}

/// The attribute `name` of `attrs` (an op's, or the fields of a `#stablehlo.dot<...>`).
pub(crate) fn find_attr<'a>(attrs: &'a [(String, Attr)], name: &str) -> Option<&'a Attr> {
    attrs.iter().find(|(n, _)| n == name).map(|(_, a)| a)
}

/// An attribute value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Attr {
    /// `[1, 2]` or `array<i64: 1, 2>`.
    Ints(Vec<i64>),
    /// `3` or `3 : i64`.
    Int(i64),
    /// A bare word, or the word of `#stablehlo<comparison_direction LT>`.
    Word(String),
    /// `[1] x [0]` (dot dimension pairs of the pretty form).
    Pairs(Vec<i64>, Vec<i64>),
    /// `dense<...>`, with the type that follows it in attribute position.
    Dense(Dense, Option<TensorType>),
    /// `#stablehlo.dot<k = v, ...>`, `#stablehlo.gather<...>`.
    Struct(Vec<(String, Attr)>),
    /// `"text"`.
    Str(String),
    /// `@name`.
    Symbol(String),
    /// `(types) -> types` (`function_type` of a generic `func.func`).
    FnType(Vec<TensorType>, Vec<TensorType>),
    /// `[HIGHEST, DEFAULT]` or `[#stablehlo<precision HIGHEST>, ...]`: the words.
    Words(Vec<String>),
    /// `[true, false]` or `array<i1: true, false>`.
    Bools(Vec<bool>),
    /// A convolution's dimension labels, `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (pretty
    /// `dim_numbers = ...` or generic `#stablehlo.conv<...>`): the input's, kernel's and
    /// output's, one label per dim.
    ConvLabels([Vec<String>; 3]),
    /// `[0:16, 0:64:2]` of `stablehlo.slice`: `(start, limit, stride)` per dim.
    Slice(Vec<(i64, i64, i64)>),
    /// Anything else (kept only to be ignored).
    Other,
}

/// The payload of `dense<...>`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Dense {
    /// Elements, row-major, nesting flattened (one element: a splat).
    Elems(Vec<Elem>),
    /// `"0x..."`: raw little-endian bytes.
    Bytes(Vec<u8>),
}

/// One element of a dense literal.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Elem {
    /// A decimal number as written (int or float).
    Num(String),
    /// `0x...`: an integer, or a float's bit pattern.
    Hex(u64),
    /// `true` / `false`.
    Bool(bool),
}
