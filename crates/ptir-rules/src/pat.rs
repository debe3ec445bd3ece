//! Source-written patterns (SMR, seed 004): a rule given as two PTIR functions, the idiom and
//! its replacement, in a `.pat` file.
//!
//! A `.pat` file is a PTIR program. Each pair `@NAME_pattern` / `@NAME_replacement` becomes
//! the rule `NAME` (underscores turned into dashes, labelled `pat` and `raising`). The idiom's
//! parameters are the pattern variables, bound by position and type (their names are
//! ignored); its results are the roots. The replacement takes the same parameters and returns
//! one value per root; it may call the externs the file declares (`extern @gemm ... pure`).
//! The `//` comment lines right above the pattern function are the rule's doc.
//!
//! ```text
//! // a matrix product plus a broadcast bias is one `linear` library call
//! extern @linear(f32[4,8], f32[8,16], f32[16]) -> (f32[4,16]) pure
//!
//! func @linear_pattern(%x: f32[4,8], %w: f32[8,16], %b: f32[16]) -> (f32[4,16]) {
//!   %0 = dot_general %x, %w lhs_contract=[1] rhs_contract=[0] : f32[4,16]
//!   %1 = broadcast %b dims=[1] : f32[4,16]
//!   %2 = add %0, %1 : f32[4,16]
//!   return %2
//! }
//! func @linear_replacement(%x: f32[4,8], %w: f32[8,16], %b: f32[16]) -> (f32[4,16]) {
//!   %0 = call @linear(%x, %w, %b) : f32[4,16]
//!   return %0
//! }
//! ```

use crate::ast::{Attr, AttrValue, Constraint, Location, Pattern, Rule, Term, TermId, Var};
use crate::error::RuleError;
use crate::ops::{attr_slots, op_attrs};
use crate::parse::{ExternSpec, FileContents};
use indexmap::IndexMap;
use ptir_ir::{Function, Op, ValueId};

/// Parses a `.pat` file into rules and the externs it declares.
pub fn parse_pat(file: &str, text: &str) -> Result<FileContents, RuleError> {
    let program = ptir_ir::parse(text).map_err(|e| {
        RuleError::new(
            file,
            e.line,
            None,
            format!("column {}: {}", e.col, e.message),
        )
    })?;
    if let Err(e) = ptir_ir::verify(&program) {
        return Err(RuleError::new(
            file,
            1,
            None,
            format!("the patterns do not verify: {e}"),
        ));
    }
    let mut out = FileContents::default();
    for e in &program.externs {
        out.externs.push(ExternSpec {
            name: e.name.clone(),
            pure: e.pure,
            cost: 1.0,
            location: Location {
                file: file.into(),
                line: line_of(text, &format!("extern @{}", e.name)),
            },
        });
    }
    for f in &program.functions {
        let Some(stem) = f.name.strip_suffix("_pattern") else {
            if !f.name.ends_with("_replacement") {
                return Err(RuleError::new(
                    file,
                    line_of(text, &format!("@{}(", f.name)),
                    None,
                    format!(
                        "@{} is neither `NAME_pattern` nor `NAME_replacement`",
                        f.name
                    ),
                ));
            }
            continue;
        };
        let line = line_of(text, &format!("@{}(", f.name));
        let name = stem.replace('_', "-");
        let err = |m: String| RuleError::new(file, line, Some(name.clone()), m);
        let replacement = program
            .function(&format!("{stem}_replacement"))
            .ok_or_else(|| err(format!("no @{stem}_replacement for @{}", f.name)))?;
        out.rules.push(
            pair_to_rule(f, replacement, &name, doc_above(text, line))
                .map_err(err)?
                .located(file, line),
        );
    }
    Ok(out)
}

impl Rule {
    fn located(mut self, file: &str, line: usize) -> Rule {
        self.location = Location {
            file: file.into(),
            line,
        };
        self
    }
}

fn line_of(text: &str, needle: &str) -> usize {
    text.find(needle)
        .map_or(1, |p| text[..p].matches('\n').count() + 1)
}

/// The `//` comment lines directly above line `line` (1-based).
fn doc_above(text: &str, line: usize) -> String {
    let lines: Vec<&str> = text.lines().take(line.saturating_sub(1)).collect();
    let doc: Vec<&str> = lines
        .iter()
        .rev()
        .take_while(|l| l.trim_start().starts_with("//"))
        .map(|l| l.trim_start().trim_start_matches('/').trim())
        .collect();
    doc.into_iter().rev().collect::<Vec<_>>().join("\n")
}

fn pair_to_rule(
    pattern: &Function,
    replacement: &Function,
    name: &str,
    doc: String,
) -> Result<Rule, String> {
    if pattern.param_types() != replacement.param_types()
        || pattern.result_types != replacement.result_types
    {
        return Err(format!(
            "@{} and @{} must have the same signature",
            pattern.name, replacement.name
        ));
    }
    let params: Vec<Var> = (0..pattern.body.params.len())
        .map(|i| Var(format!("p{i}")))
        .collect();
    let mut constraints = Vec::new();
    for (v, p) in params.iter().zip(&pattern.body.params) {
        let Some(t) = p.ty.as_tensor() else {
            return Err("pattern parameters must be tensors".into());
        };
        constraints.push(Constraint {
            pred: "has-shape".into(),
            args: vec![
                Attr::Var(v.clone()),
                Attr::Lit(AttrValue::Ints(t.shape.clone())),
            ],
        });
        constraints.push(Constraint {
            pred: "has-dtype".into(),
            args: vec![Attr::Var(v.clone()), Attr::Lit(AttrValue::DType(t.dtype))],
        });
    }
    let source = function_to_pattern(pattern, &params, false)?;
    let result = function_to_pattern(replacement, &params, true)?;
    Ok(Rule {
        name: name.to_string(),
        labels: vec!["pat".into(), "raising".into()],
        location: Location::default(),
        source,
        result,
        constraints,
        add_benefit: 0,
        bounded_recursion: false,
        greedy_only: false,
        doc,
        attr_vars: IndexMap::new(),
    })
}

/// Turns a function body into a pattern whose roots are the function's results.
fn function_to_pattern(f: &Function, params: &[Var], is_result: bool) -> Result<Pattern, String> {
    let mut pat = Pattern::default();
    let mut term_of: IndexMap<ValueId, TermId> = IndexMap::new();
    for (p, v) in f.body.params.iter().zip(params) {
        let id = pat.push(Term::Value(v.clone()));
        term_of.insert(p.id, id);
    }
    for inst in &f.body.insts {
        let operands = inst
            .operands
            .iter()
            .map(|v| {
                term_of
                    .get(v)
                    .copied()
                    .ok_or_else(|| format!("{v} is not defined in @{}", f.name))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let term = match &inst.op {
            Op::Constant(lit) => match lit.splat_value() {
                Some(s) => Term::Splat {
                    value: Attr::Lit(AttrValue::Number(s.as_f64())),
                    like: None,
                    name: None,
                },
                None => {
                    return Err(format!(
                        "{} in @{}: only splat constants can appear in patterns",
                        inst.result, f.name
                    ))
                }
            },
            op => {
                let key = op.key();
                attr_slots(key).ok_or_else(|| {
                    format!(
                        "{} in @{}: `{key}` cannot appear in a pattern",
                        inst.result, f.name
                    )
                })?;
                Term::Op {
                    key,
                    callee: match op {
                        Op::Call { callee } => Some(callee.clone()),
                        _ => None,
                    },
                    operands,
                    attrs: op_attrs(op, &inst.ty).into_iter().map(Attr::Lit).collect(),
                    name: None,
                    ty: is_result.then(|| inst.ty.clone()),
                }
            }
        };
        term_of.insert(inst.result, pat.push(term));
    }
    for r in &f.body.results {
        let id = term_of
            .get(r)
            .copied()
            .ok_or_else(|| format!("@{} returns an undefined value", f.name))?;
        if !is_result && matches!(pat.term(id), Term::Value(_)) {
            return Err(format!(
                "@{} returns a parameter: a pattern root must be an op",
                f.name
            ));
        }
        pat.roots.push(id);
    }
    if !is_result {
        check_all_used(&pat, f)?;
    }
    Ok(pat)
}

/// Every instruction and parameter of an idiom must feed a root: otherwise it would match
/// nothing in particular (or leave a variable unbound) and be silently ignored.
fn check_all_used(pat: &Pattern, f: &Function) -> Result<(), String> {
    let mut used = vec![false; pat.terms.len()];
    let mut stack: Vec<TermId> = pat.roots.clone();
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut used[id.0], true) {
            continue;
        }
        if let Term::Op { operands, .. } = pat.term(id) {
            stack.extend(operands);
        }
    }
    match pat.terms.iter().zip(&used).find(|(_, u)| !**u) {
        Some((Term::Value(v), _)) => Err(format!(
            "parameter {} of @{} is not used by the idiom",
            v.0.trim_start_matches('p'),
            f.name
        )),
        Some(_) => Err(format!(
            "an instruction of @{} does not feed its results",
            f.name
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINEAR: &str = "// a matrix product plus a broadcast bias is one library call
extern @linear(f32[4,8], f32[8,16], f32[16]) -> (f32[4,16]) pure

func @linear_pattern(%x: f32[4,8], %w: f32[8,16], %b: f32[16]) -> (f32[4,16]) {
  %0 = dot_general %x, %w lhs_contract=[1] rhs_contract=[0] : f32[4,16]
  %1 = broadcast %b dims=[1] : f32[4,16]
  %2 = add %0, %1 : f32[4,16]
  return %2
}
func @linear_replacement(%x: f32[4,8], %w: f32[8,16], %b: f32[16]) -> (f32[4,16]) {
  %0 = call @linear(%x, %w, %b) : f32[4,16]
  return %0
}
";

    #[test]
    fn a_pair_becomes_a_rule() {
        let c = parse_pat("linear.pat", LINEAR).unwrap();
        assert_eq!(c.externs[0].name, "linear");
        let r = &c.rules[0];
        assert_eq!(
            (r.name.as_str(), r.location.line, r.benefit()),
            ("linear", 4, 3)
        );
        assert_eq!(r.doc, "");
        assert_eq!(r.constraints.len(), 6);
    }

    #[test]
    fn unpaired_or_unused_is_an_error() {
        let no_pair = LINEAR.replace("@linear_replacement", "@other_replacement");
        assert!(parse_pat("x.pat", &no_pair)
            .unwrap_err()
            .to_string()
            .contains("no @linear_replacement"));
        let unused = LINEAR.replace(
            "  %2 = add %0, %1 : f32[4,16]\n  return %2",
            "  %2 = add %0, %0 : f32[4,16]\n  return %2",
        );
        assert!(parse_pat("x.pat", &unused)
            .unwrap_err()
            .to_string()
            .contains("parameter 2 of @linear_pattern is not used"));
        let dangling = LINEAR.replace(
            "  return %2\n}\nfunc @linear_r",
            "  %3 = exp %2 : f32[4,16]\n  return %2\n}\nfunc @linear_r",
        );
        assert!(parse_pat("x.pat", &dangling)
            .unwrap_err()
            .to_string()
            .contains("does not feed"));
    }
}
