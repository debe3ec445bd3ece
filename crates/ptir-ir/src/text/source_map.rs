//! Where the values and instructions of a parsed program were written, and under which
//! names: what places the verifier's diagnostics at `line:col` of the source, with the
//! source's value names (`%y`, not the number the parser gave it). See
//! [`parse_with_source_map`](super::parse_with_source_map).

use crate::program::ValueId;
use crate::verify::{Diagnostic, VerifyError};
use rustc_hash::FxHashMap;
use std::fmt;

/// A position in the source: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceLoc {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Where each function, instruction and value use of a parsed program is written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    pub(super) functions: FxHashMap<String, FunctionSource>,
}

/// One function's part of a [`SourceMap`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct FunctionSource {
    /// The `func` keyword.
    pub(super) at: SourceLoc,
    /// Values written with a name (`%y`), by the number they got.
    pub(super) names: FxHashMap<ValueId, String>,
    /// Each instruction (by its result): where its result is written, and its operands.
    pub(super) insts: FxHashMap<ValueId, InstSource>,
    /// The values of every `return` and `yield`, where they are written.
    pub(super) returned: Vec<(ValueId, SourceLoc)>,
}

/// Where one instruction is written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct InstSource {
    /// Its result.
    pub(super) at: SourceLoc,
    /// Its operands, in order.
    pub(super) operands: Vec<(ValueId, SourceLoc)>,
}

/// A verifier diagnostic placed in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocatedDiagnostic {
    /// Where (the offending use, else the instruction, else the function; `None` for what
    /// the source does not contain, e.g. an extern's problem).
    pub loc: Option<SourceLoc>,
    /// The diagnostic, values named as in the source.
    pub message: String,
}

impl fmt::Display for LocatedDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.loc {
            Some(loc) => write!(f, "{loc}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl SourceMap {
    /// The name `v` of `function` was written with, if it was not a number.
    pub fn value_name(&self, function: &str, v: ValueId) -> Option<&str> {
        self.functions
            .get(function)?
            .names
            .get(&v)
            .map(String::as_str)
    }

    /// Where the instruction defining `v` in `function` is written (its result).
    pub fn inst_loc(&self, function: &str, v: ValueId) -> Option<SourceLoc> {
        Some(self.functions.get(function)?.insts.get(&v)?.at)
    }

    /// Where `d` happens: the use of the value it is about, else its instruction, else its
    /// function.
    pub fn locate(&self, d: &Diagnostic) -> Option<SourceLoc> {
        let f = self.functions.get(&d.function)?;
        let inst = d.inst.and_then(|i| f.insts.get(&i));
        let use_of = |v: ValueId| {
            let operand = inst.and_then(|i| i.operands.iter().find(|(o, _)| *o == v));
            operand
                .or_else(|| f.returned.iter().find(|(r, _)| *r == v))
                .map(|(_, loc)| *loc)
        };
        d.value
            .and_then(use_of)
            .or(inst.map(|i| i.at))
            .or(Some(f.at))
    }

    /// `d` with its values named as in the source (`%y` for what the parser numbered `%2`).
    pub fn describe(&self, d: &Diagnostic) -> String {
        let text = d.to_string();
        let Some(f) = self.functions.get(&d.function) else {
            return text;
        };
        rename_values(&text, |v| f.names.get(&v).map(String::as_str))
    }

    /// Every diagnostic of `error`, located and named as in the source.
    pub fn locate_all(&self, error: &VerifyError) -> Vec<LocatedDiagnostic> {
        error
            .diagnostics
            .iter()
            .map(|d| LocatedDiagnostic {
                loc: self.locate(d),
                message: self.describe(d),
            })
            .collect()
    }
}

/// `text` with every value reference `%N` that `name` knows replaced by `%name`.
fn rename_values<'a>(text: &str, name: impl Fn(ValueId) -> Option<&'a str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..=i]);
        rest = &rest[i + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let id = rest[..digits].parse::<u32>().ok().map(ValueId);
        match id.and_then(&name) {
            Some(n) => out.push_str(n),
            None => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verifier's diagnostics of `src`, located and named.
    fn located(src: &str) -> Vec<String> {
        let (p, map) = crate::parse_with_source_map(src).unwrap();
        let err = crate::verify(&p).unwrap_err();
        map.locate_all(&err)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn diagnostics_are_placed_at_the_use_with_the_source_names() {
        // A returned value that is never defined: located at the `return`.
        assert_eq!(
            located("func @f(%x: f32[4]) -> (f32[4]) {\n  %a = exp %x : f32[4]\n  return %b\n}"),
            [
                "3:10: in @f: returns %b, which is not visible here",
                "1:1: in @f: returns () but is declared to return (f32[4])"
            ]
        );
        // A value of a loop body used after the loop, among numbered values.
        let src = "func @g(%0: i32[]) -> (i32[]) {
  %1 = while %0 : i32[] {
    ^(%c: i32[]):
    %t = constant splat(true) : bool[]
    yield %t
  } {
    ^(%d: i32[]):
    %e = neg %d : i32[]
    yield %e
  }
  %2 = add %e, %0 : i32[]
  return %2
}";
        assert_eq!(
            located(src),
            ["11:12: in @g, instruction %2 = add: uses %e, which is not visible from this region"]
        );
        // A type error: at the instruction.
        assert_eq!(
            located("func @h(%x: f32[4]) -> (f32[4]) {\n  %y = exp %x : f32[5]\n  return %x\n}"),
            ["2:3: in @h, instruction %y = exp: result type f32[5] does not match the inferred type f32[4]"]
        );
    }

    #[test]
    fn only_known_value_numbers_are_renamed() {
        let names = |v: ValueId| (v.0 == 2).then_some("y");
        assert_eq!(
            rename_values("uses %2 and %20, not %; %2", names),
            "uses %y and %20, not %; %y"
        );
    }
}
