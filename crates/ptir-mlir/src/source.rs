//! What an import knows about the MLIR text beyond the program it built: the names the text
//! gave to values, and the opaque ops (`--allow-opaque`) with their text. The exporter reads
//! both back ([`crate::ExportOptions::source`]), so that names survive where the program did
//! not change and opaque ops print exactly as they came.

use indexmap::IndexMap;
use ptir_ir::ValueId;
use std::collections::{HashMap, HashSet};

/// How to import.
#[derive(Clone, Copy, Debug, Default)]
pub struct ImportOptions {
    /// An op the importer does not support becomes an *opaque op* instead of an error: a call
    /// of an impure extern (`@opaque.<op>.<k>`) with the op's operand and result types, so
    /// the optimizer keeps it as it is (side effects are never merged, moved or deleted) and
    /// the exporter prints it back from its text ([`SourceInfo::opaque`]).
    pub allow_opaque: bool,
}

/// The value names and opaque ops of an imported module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceInfo {
    /// Per function (by name): the names of its values.
    pub functions: IndexMap<String, FunctionNames>,
    /// The ops printed back as they came, by the extern that stands for each: opaque ops
    /// (`--allow-opaque`) and `custom_call`s (every attribute verbatim).
    pub opaque: IndexMap<String, OpaqueOp>,
    /// The functions the text defined `private`: the export keeps them private, and leaves
    /// out those no function calls any more (helpers left dead by inlining or unrolling), so
    /// that the output's entry points are the input's.
    pub private: HashSet<String>,
}

/// The value names of one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionNames {
    /// The MLIR name (`%arg0`, `%cst_1`, `%0`) of each value the text named.
    pub names: HashMap<ValueId, String>,
    /// Every name the text bound in the function (values the import did not keep, results of
    /// several-result ops as `%5`, names inside opaque ops' regions): new names avoid them.
    pub reserved: HashSet<String>,
}

/// An op kept as text (`--allow-opaque`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpaqueOp {
    /// The op as written, from its name to the end of its types (results and location left
    /// out): `stablehlo.cbrt %0 : tensor<4xf32>`, `"stablehlo.fft"(%x) <{...}> : ...`.
    pub text: String,
    /// The operand names as written in `text`, in operand order.
    pub operands: Vec<String>,
}

impl OpaqueOp {
    /// The text with operand `i` renamed to `names[i]` (names inside strings untouched).
    pub fn with_operands(&self, names: &[String]) -> String {
        let rename: HashMap<&str, &str> = self
            .operands
            .iter()
            .map(String::as_str)
            .zip(names.iter().map(String::as_str))
            .collect();
        let mut out = String::with_capacity(self.text.len());
        let text = self.text.as_str();
        let (mut i, mut in_string, mut escaped) = (0, false, false);
        while let Some(c) = text[i..].chars().next() {
            if c == '%' && !in_string {
                let end = text[i + 1..]
                    .find(|c: char| !is_name_char(c))
                    .map_or(text.len(), |k| i + 1 + k);
                let token = &text[i..end];
                out.push_str(rename.get(token).copied().unwrap_or(token));
                i = end;
                continue;
            }
            if in_string {
                in_string = escaped || c != '"';
                escaped = !escaped && c == '\\';
            } else {
                in_string = c == '"';
            }
            out.push(c);
            i += c.len_utf8();
        }
        out
    }
}

/// A character of a value name after `%` (`%arg0`, `%5#1`).
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-' | '#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_are_renamed_as_whole_names_outside_strings() {
        let op = OpaqueOp {
            text: r#""x.f"(%a, %a1, %b) {s = "%a \" é %b"} : (tensor<f32>, tensor<f32>) -> tensor<f32>"#
                .into(),
            operands: vec!["%a".into(), "%a1".into(), "%b".into()],
        };
        let names = ["%0".to_string(), "%z".into(), "%a".into()];
        assert_eq!(
            op.with_operands(&names),
            r#""x.f"(%0, %z, %a) {s = "%a \" é %b"} : (tensor<f32>, tensor<f32>) -> tensor<f32>"#
        );
    }
}
