//! Source-written patterns: a rule given as two PTIR functions, the idiom and
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
//!
//! Several pairs may share one file.
//!
//! # Named dimensions
//!
//! A size written `?name` in a type (`%x: f32[?m,?n]`, result `f32[?m]`) is a named dimension:
//! bound when the idiom matches, and the same at every mention. It becomes constraints that
//! both engines check at match time: `has-rank` and `has-dim` (fixed sizes) on each value whose
//! type names a dimension, and `same-dim` tying every mention of `?n` to its first (the idiom's
//! ops with such types are named `?vK:(op ...)` so their types can be constrained; their size
//! attributes, `broadcast`'s or `reshape`'s shape, then match anything). A constant may stand
//! for a dimension: `constant splat(?n)` matches a splat equal to the bound size (the count of
//! `sum(x) / n`), `constant splat(1/?n)` one equal to its inverse, exactly or rounded to f32
//! (the `1/n` of a mean computed by multiplication); they become `dim-value` and `dim-inverse`
//! constraints. Other constants, such as an epsilon, are literal. In a replacement a named
//! dimension may appear only in the type of a call that is a root (or a tuple of roots): the
//! call takes the type of the value it replaces. [`specialize_pat`] gives the idiom at fixed
//! sizes (the interpreter proof checks generic idioms through it).
//!
//! The text is parsed as PTIR after each `?name` is replaced by a stand-in size (7919 + its
//! number), so the program grammar is unchanged; a file naming dimensions must not spell
//! those sizes itself.
//!
//! # Definitions
//!
//! A function that is neither `NAME_pattern` nor `NAME_replacement` defines a callee of the
//! replacements (it must be called by one): it is declared as a pure extern of the rule set
//! carrying its body ([`ExternSpec::definition`]), and when a rule's result calls it,
//! `ptir::optimize` (both engines) adds the function to the output in place of the extern
//! declaration, so the output runs in the plain interpreter. A definition has one signature
//! (no named dimensions) and calls nothing.
//!
//! ```text
//! func @square_plus_pattern(%x: f32[4]) -> (f32[4]) { ... x * x + x ... }
//! func @square_plus_replacement(%x: f32[4]) -> (f32[4]) {
//!   %y = call @my_fused(%x) : f32[4]
//!   return %y
//! }
//! func @my_fused(%x: f32[4]) -> (f32[4]) { ... x * x + x ... }
//! ```

use crate::ast::{
    Attr, AttrKind, AttrValue, Constraint, Location, Pattern, Rule, Term, TermId, Var,
};
use crate::error::RuleError;
use crate::loop_pat::LoopPattern;
use crate::ops::{attr_slots, op_attrs};
use crate::parse::{ExternSpec, FileContents};
use indexmap::IndexMap;
use ptir_ir::{Function, Op, Type, ValueId};
use std::collections::HashMap;

/// Parses a `.pat` file into rules and the externs it declares.
pub fn parse_pat(file: &str, text: &str) -> Result<FileContents, RuleError> {
    let (parsed, dims) = with_stand_ins(file, text)?;
    let (program, names) = ptir_ir::parse_with_source_map(&parsed).map_err(|e| {
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
    let source = SourceLines::new(text);
    let mut out = FileContents::default();
    for e in &program.externs {
        out.externs.push(ExternSpec {
            name: e.name.clone(),
            pure: e.pure,
            cost: 1.0,
            location: Location {
                file: file.into(),
                line: source.line("extern", &e.name),
            },
            definition: None,
        });
    }
    let mut used_directives = Vec::new();
    for f in &program.functions {
        let line = source.line("func", &f.name);
        if let Some(stem) = f.name.strip_suffix("_pattern") {
            let name = stem.replace('_', "-");
            let err = |m: String| RuleError::new(file, line, Some(name.clone()), m);
            let control = AttrControl::above(&source, line)
                .map_err(|(at, m)| RuleError::new(file, at, Some(name.clone()), m))?;
            if let Some(at) = control.line {
                used_directives.push(at);
            }
            let replacement = program
                .function(&format!("{stem}_replacement"))
                .ok_or_else(|| err(format!("no @{stem}_replacement for @{}", f.name)))?;
            let mut has_region = false;
            f.body
                .walk(&mut |i, _| has_region |= !i.op.regions().is_empty());
            control
                .check_names(f)
                .map_err(|(at, m)| RuleError::new(file, at, Some(name.clone()), m))?;
            if has_region {
                let mut p = LoopPattern::new(
                    &name,
                    f,
                    replacement,
                    dims.names.len(),
                    source.doc_above(line),
                )
                .map_err(err)?
                .with_param_names(param_vars(f, &names).into_iter().map(|v| v.0).collect())
                .with_ignored(control.ignored_slots(f));
                p.location = Location {
                    file: file.into(),
                    line,
                };
                out.loop_patterns.push(p);
                continue;
            }
            out.rules.push(
                pair_to_rule(
                    f,
                    replacement,
                    &name,
                    source.doc_above(line),
                    &dims,
                    param_vars(f, &names),
                    &control,
                )
                .map_err(err)?
                .located(file, line),
            );
        } else if !f.name.ends_with("_replacement") {
            let spec =
                definition(f, &program, &dims).map_err(|m| RuleError::new(file, line, None, m))?;
            out.externs.push(ExternSpec {
                location: Location {
                    file: file.into(),
                    line,
                },
                ..spec
            });
        }
    }
    if let Some(at) = source.directives().find(|at| !used_directives.contains(at)) {
        return Err(RuleError::new(
            file,
            at,
            None,
            "`ignore-attrs` / `match-attrs` must be among the `//` lines right above a \
             `func @NAME_pattern`",
        ));
    }
    Ok(out)
}

/// Which attributes of an idiom's ops are compared (seed 004's per-dialect configuration, per
/// pattern here): a `//` line above the pattern function, among its doc lines,
/// `// ignore-attrs: NAME...` (these match any value, every other attribute must be equal) or
/// `// match-attrs: NAME...` (only these must be equal, every other matches any value). A name
/// is an attribute slot's name ([`crate::ops::attr_names`]: `keep_dims`, `perm`, `dims`) or
/// `op.name` for one op kind's (`reduce_sum.axes`). Attributes naming dimensions match
/// anything either way.
#[derive(Clone, Debug, Default)]
struct AttrControl {
    /// The directive's line, if there is one.
    line: Option<usize>,
    /// `match-attrs` (the names must match, the rest is ignored) rather than `ignore-attrs`.
    only: bool,
    /// The names: an op kind (if qualified) and an attribute.
    names: Vec<(Option<String>, String)>,
}

/// The prefixes of the two directives.
const IGNORE_ATTRS: &str = "ignore-attrs:";
const MATCH_ATTRS: &str = "match-attrs:";

/// The directive a `//` line holds, if any: whether it is `match-attrs`, and its list.
fn directive(line: &str) -> Option<(bool, &str)> {
    let text = line
        .trim_start()
        .strip_prefix("//")?
        .trim_start_matches('/')
        .trim();
    if let Some(rest) = text.strip_prefix(IGNORE_ATTRS) {
        return Some((false, rest));
    }
    text.strip_prefix(MATCH_ATTRS).map(|rest| (true, rest))
}

impl AttrControl {
    /// The directive among the doc lines above line `line` (1-based); `Err` with the line of
    /// a malformed or second one.
    fn above(source: &SourceLines<'_>, line: usize) -> Result<AttrControl, (usize, String)> {
        let mut out = AttrControl::default();
        for (at, text) in source.doc_lines_above(line) {
            let Some((only, list)) = directive(text) else {
                continue;
            };
            if out.line.is_some() {
                return Err((
                    at,
                    "a pattern takes one `ignore-attrs` or `match-attrs` line".into(),
                ));
            }
            let names: Vec<(Option<String>, String)> = list
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|n| !n.is_empty())
                .map(|n| match n.split_once('.') {
                    Some((op, attr)) => (Some(op.to_string()), attr.to_string()),
                    None => (None, n.to_string()),
                })
                .collect();
            if names.is_empty() {
                let kind = if only { MATCH_ATTRS } else { IGNORE_ATTRS };
                return Err((at, format!("`{kind}` lists no attribute")));
            }
            out = AttrControl {
                line: Some(at),
                only,
                names,
            };
        }
        Ok(out)
    }

    /// Does the name `(op, attr)` name slot `slot` of an op of kind `key`?
    fn names_slot(op: &Option<String>, attr: &str, key: ptir_ir::OpKey, slot: usize) -> bool {
        crate::ops::attr_names(key).get(slot) == Some(&attr)
            && op.as_ref().is_none_or(|o| o == key.name())
    }

    /// Is slot `slot` of an op of kind `key` ignored?
    fn ignores(&self, key: ptir_ir::OpKey, slot: usize) -> bool {
        if self.line.is_none() {
            return false;
        }
        let named = (self.names.iter()).any(|(op, attr)| Self::names_slot(op, attr, key, slot));
        named != self.only
    }

    /// The slots ignored in the ops of `f` (its regions included), by op kind.
    fn ignored_slots(&self, f: &Function) -> Vec<(ptir_ir::OpKey, Vec<usize>)> {
        let mut out: Vec<(ptir_ir::OpKey, Vec<usize>)> = Vec::new();
        f.body.walk(&mut |i, _| {
            let key = i.op.key();
            if out.iter().any(|(k, _)| *k == key) {
                return;
            }
            let slots = (0..crate::ops::attr_names(key).len())
                .filter(|&s| self.ignores(key, s))
                .collect();
            out.push((key, slots));
        });
        out
    }

    /// Every name must name an attribute of an op of the idiom `f`.
    fn check_names(&self, f: &Function) -> Result<(), (usize, String)> {
        let Some(at) = self.line else {
            return Ok(());
        };
        let mut present: Vec<String> = Vec::new();
        f.body.walk(&mut |i, _| {
            let key = i.op.key();
            for a in crate::ops::attr_names(key) {
                let qualified = format!("{}.{a}", key.name());
                if !present.contains(&qualified) {
                    present.push(qualified);
                }
            }
        });
        for (op, attr) in &self.names {
            let found = present.iter().any(|q| match op {
                Some(op) => *q == format!("{op}.{attr}"),
                None => q.split_once('.').is_some_and(|(_, a)| a == attr),
            });
            if !found {
                let name = match op {
                    Some(op) => format!("{op}.{attr}"),
                    None => attr.clone(),
                };
                let known = if present.is_empty() {
                    "its ops have no attributes".to_string()
                } else {
                    format!("its ops have {}", present.join(", "))
                };
                return Err((
                    at,
                    format!(
                        "`{name}` is not an attribute of any op of @{} ({known})",
                        f.name
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// A function of a `.pat` file that is neither an idiom nor a replacement: the definition of a
/// callee of the replacements, injected into the output where a rule's result calls it.
fn definition(f: &Function, program: &ptir_ir::Program, dims: &Dims) -> Result<ExternSpec, String> {
    let called = program
        .functions
        .iter()
        .filter(|g| g.name.ends_with("_replacement"))
        .any(|g| {
            g.body
                .insts
                .iter()
                .any(|i| matches!(&i.op, Op::Call { callee } if *callee == f.name))
        });
    if !called {
        return Err(format!(
            "@{} is neither `NAME_pattern` nor `NAME_replacement`, nor called by a replacement",
            f.name
        ));
    }
    let generic = f
        .param_types()
        .iter()
        .chain(&f.result_types)
        .any(|t| dims.in_type(t))
        || f.body.insts.iter().any(|i| dims.in_type(&i.ty));
    if generic {
        return Err(format!(
            "the definition @{} names dimensions: a definition has one signature",
            f.name
        ));
    }
    let mut pure = true;
    f.body
        .walk(&mut |i, _| pure &= !matches!(i.op, Op::Call { .. }));
    if !pure {
        return Err(format!(
            "the definition @{} calls a function: a definition must be self-contained",
            f.name
        ));
    }
    Ok(ExternSpec {
        name: f.name.clone(),
        pure: true,
        cost: 1.0,
        location: Location::default(),
        definition: Some(f.clone()),
    })
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

/// The lines of a `.pat` file and where each function and extern is declared, found in one
/// pass, so that a file of thousands of patterns is read in linear time.
struct SourceLines<'a> {
    text: &'a str,
    lines: Vec<&'a str>,
    /// `func @name` / `extern @name` to its first 1-based line.
    decls: HashMap<&'a str, usize>,
}

impl<'a> SourceLines<'a> {
    fn new(text: &'a str) -> Self {
        let lines: Vec<&str> = text.lines().collect();
        let mut decls = HashMap::new();
        for (k, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            for prefix in ["func @", "extern @"] {
                if let Some(rest) = t.strip_prefix(prefix) {
                    let end = rest
                        .find(|c: char| c == '(' || c.is_whitespace())
                        .unwrap_or(rest.len());
                    decls.entry(&t[..prefix.len() + end]).or_insert(k + 1);
                }
            }
        }
        SourceLines { text, lines, decls }
    }

    /// The line declaring `kind @name` (`func` or `extern`).
    fn line(&self, kind: &str, name: &str) -> usize {
        let key = format!("{kind} @{name}");
        match self.decls.get(key.as_str()) {
            Some(&line) => line,
            None => line_of(self.text, &key),
        }
    }

    /// The `//` comment lines directly above line `line` (1-based), with their line numbers,
    /// in file order.
    fn doc_lines_above(&self, line: usize) -> Vec<(usize, &'a str)> {
        let end = line.saturating_sub(1).min(self.lines.len());
        let start = (self.lines[..end].iter())
            .rposition(|l| !l.trim_start().starts_with("//"))
            .map_or(0, |k| k + 1);
        (start..end).map(|k| (k + 1, self.lines[k])).collect()
    }

    /// The doc: the `//` comment lines directly above line `line` (1-based), but the
    /// `ignore-attrs` / `match-attrs` line.
    fn doc_above(&self, line: usize) -> String {
        let doc: Vec<&str> = (self.doc_lines_above(line).into_iter())
            .filter(|(_, l)| directive(l).is_none())
            .map(|(_, l)| l.trim_start().trim_start_matches('/').trim())
            .collect();
        doc.join("\n")
    }

    /// The lines (1-based) holding an `ignore-attrs` or `match-attrs` directive.
    fn directives(&self) -> impl Iterator<Item = usize> + '_ {
        (self.lines.iter().enumerate())
            .filter(|(_, l)| directive(l).is_some())
            .map(|(k, _)| k + 1)
    }
}

/// The pattern variable of each parameter of `f`: its name in the source (`%x` is `?x`), or
/// `?pK` by position where the source numbers it or its name could be taken for a variable
/// the compilation generates (`?vK`, `?pK`, `?dK_...`).
fn param_vars(f: &Function, names: &ptir_ir::SourceMap) -> Vec<Var> {
    let generated = |n: &str| {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        n.strip_prefix('v').is_some_and(digits)
            || n.strip_prefix('p').is_some_and(digits)
            || n.strip_prefix('d').is_some_and(|r| r.contains('_'))
    };
    f.body
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let named = names.value_name(&f.name, p.id).filter(|n| {
                n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    && *n != "_"
                    && !generated(n)
            });
            Var(named.map_or_else(|| format!("p{i}"), str::to_string))
        })
        .collect()
}

fn pair_to_rule(
    pattern: &Function,
    replacement: &Function,
    name: &str,
    doc: String,
    dims: &Dims,
    params: Vec<Var>,
    control: &AttrControl,
) -> Result<Rule, String> {
    if pattern.param_types() != replacement.param_types()
        || pattern.result_types != replacement.result_types
    {
        return Err(format!(
            "@{} and @{} must have the same signature",
            pattern.name, replacement.name
        ));
    }
    let mut shapes = ShapeConstraints::new(dims);
    for (v, p) in params.iter().zip(&pattern.body.params) {
        let Some(t) = p.ty.as_tensor() else {
            return Err("pattern parameters must be tensors".into());
        };
        shapes.value(v, t, true);
    }
    let mut source = function_to_pattern(pattern, &params, dims, Some(control))?;
    let result = function_to_pattern(replacement, &params, dims, None)?;
    name_generic_values(pattern, &mut source, &mut shapes)?;
    if control.line.is_some() {
        type_roots(pattern, &mut source, &mut shapes);
    }
    let (constraints, attr_vars) = shapes.finish(&source, &pattern.name)?;
    Ok(Rule {
        name: name.to_string(),
        labels: vec!["pat".into(), "raising".into()],
        location: Location::default(),
        source,
        result,
        aux: Vec::new(),
        constraints,
        add_benefit: 0,
        bounded_recursion: false,
        doc,
        attr_vars,
    })
}

/// The constraints a source-written idiom puts on the types of its values: fixed shapes as
/// `has-shape`, named dimensions as `has-rank`, `has-dim` and `same-dim` (every mention of `?n`
/// has the size of its first), and constants standing for `?n` or `1/?n` as `dim-value` and
/// `dim-inverse`.
struct ShapeConstraints<'d> {
    dims: &'d Dims,
    /// The value and axis of each named dimension's first mention.
    first: IndexMap<usize, (Var, usize)>,
    out: Vec<Constraint>,
}

impl<'d> ShapeConstraints<'d> {
    fn new(dims: &'d Dims) -> Self {
        ShapeConstraints {
            dims,
            first: IndexMap::new(),
            out: Vec::new(),
        }
    }

    /// Constrains value `v` of type `t`; `param` also fixes its dtype (an op's result dtype
    /// follows from its operands).
    fn value(&mut self, v: &Var, t: &ptir_ir::TensorType, param: bool) {
        let var = || Attr::Var(v.clone());
        let int = |i: usize| Attr::Lit(AttrValue::Int(i));
        if !self.dims.in_shape(&t.shape) {
            if param {
                let shape = Attr::Lit(AttrValue::Ints(t.shape.clone()));
                self.push("has-shape", vec![var(), shape]);
            }
        } else {
            self.push("has-rank", vec![var(), int(t.rank())]);
            for (axis, &size) in t.shape.iter().enumerate() {
                match self.dims.of(size) {
                    None => self.push("has-dim", vec![var(), int(axis), int(size)]),
                    Some(k) => match self.first.get(&k) {
                        Some((w, b)) => {
                            let args = vec![var(), int(axis), Attr::Var(w.clone()), int(*b)];
                            self.push("same-dim", args);
                        }
                        None => {
                            self.first.insert(k, (v.clone(), axis));
                        }
                    },
                }
            }
        }
        if param {
            let dtype = Attr::Lit(AttrValue::DType(t.dtype));
            self.push("has-dtype", vec![var(), dtype]);
        }
    }

    fn push(&mut self, pred: &str, args: Vec<Attr>) {
        self.out.push(Constraint {
            pred: pred.into(),
            args,
        });
    }

    /// The constraints, with those of the constants that stand for dimensions, and the kinds
    /// of those constants' variables.
    fn finish(
        mut self,
        source: &Pattern,
        func: &str,
    ) -> Result<(Vec<Constraint>, IndexMap<Var, AttrKind>), String> {
        let mut attr_vars = IndexMap::new();
        for t in &source.terms {
            let Term::Splat {
                value: Attr::Var(c),
                ..
            } = t
            else {
                continue;
            };
            let Some((k, inverse)) = c.0.strip_prefix('d').and_then(|s| {
                let (k, inv) = s.split_once('_')?;
                Some((k.parse::<usize>().ok()?, inv == "inv"))
            }) else {
                continue;
            };
            let (w, axis) = self.first.get(&k).cloned().ok_or_else(|| {
                format!(
                    "?{} in a constant of @{func} is not the size of any value",
                    self.dims.names[k]
                )
            })?;
            let pred = if inverse { "dim-inverse" } else { "dim-value" };
            let args = vec![
                Attr::Var(c.clone()),
                Attr::Var(w),
                Attr::Lit(AttrValue::Int(axis)),
            ];
            self.push(pred, args);
            attr_vars.insert(c.clone(), AttrKind::Number);
        }
        Ok((self.out, attr_vars))
    }
}

/// Names each op of the idiom whose type mentions a named dimension (`?v3:(op ...)`) and
/// constrains its shape: its size attributes are not compared (they hold stand-ins), so the
/// type constraints say what they would have.
fn name_generic_values(
    f: &Function,
    source: &mut Pattern,
    shapes: &mut ShapeConstraints<'_>,
) -> Result<(), String> {
    let first_inst = f.body.params.len();
    for (i, inst) in f.body.insts.iter().enumerate() {
        if !shapes.dims.in_type(&inst.ty) {
            continue;
        }
        let Some(t) = inst.ty.as_tensor() else {
            return Err(format!(
                "{} in @{}: a tuple with named dimensions cannot appear in an idiom",
                inst.result, f.name
            ));
        };
        let v = Var(format!("v{i}"));
        if let Term::Op { name, .. } = &mut source.terms[first_inst + i] {
            *name = Some(v.clone());
            shapes.value(&v, t, false);
        }
    }
    Ok(())
}

/// Constrains the type of each root of an idiom whose attributes are not all compared (an
/// ignored attribute can change a root's type, and the replacement's is fixed): its dtype, and
/// its shape unless it names dimensions (then `name_generic_values` constrained it).
fn type_roots(f: &Function, source: &mut Pattern, shapes: &mut ShapeConstraints<'_>) {
    let first_inst = f.body.params.len();
    for &root in &source.roots.clone() {
        let Some(i) = root.0.checked_sub(first_inst) else {
            continue;
        };
        let Some(t) = f.body.insts.get(i).and_then(|inst| inst.ty.as_tensor()) else {
            continue;
        };
        let Term::Op { name, .. } = &mut source.terms[root.0] else {
            continue;
        };
        match name {
            Some(v) => {
                let args = vec![Attr::Var(v.clone()), Attr::Lit(AttrValue::DType(t.dtype))];
                shapes.push("has-dtype", args);
            }
            None => {
                let v = Var(format!("v{i}"));
                *name = Some(v.clone());
                shapes.value(&v, t, true);
            }
        }
    }
}

/// Turns a function body into a pattern whose roots are the function's results (a replacement
/// if `control` is `None`, else an idiom whose attributes `control` says which to compare). In an idiom, attributes that mention named dimensions match
/// anything (the type constraints check them) and constants standing for `?n` or `1/?n` bind
/// the variable `?dK_val` or `?dK_inv`; in a replacement, an op whose type mentions named
/// dimensions takes the type of the root it replaces.
fn function_to_pattern(
    f: &Function,
    params: &[Var],
    dims: &Dims,
    control: Option<&AttrControl>,
) -> Result<Pattern, String> {
    let is_result = control.is_none();
    let mut pat = Pattern::default();
    let mut term_of: IndexMap<ValueId, TermId> = IndexMap::new();
    for (p, v) in f.body.params.iter().zip(params) {
        let id = pat.push(Term::Value(v.clone()));
        term_of.insert(p.id, id);
    }
    let no_dims = |v: ValueId, what: &str| {
        format!(
            "{v} in @{}: named dimensions cannot appear in {what} of a replacement",
            f.name
        )
    };
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
                Some(s) => {
                    let dtype = inst.ty.as_tensor().map_or(ptir_ir::DType::F64, |t| t.dtype);
                    let x = s.as_f64_in(dtype);
                    let value = match dims.of_number(x) {
                        None => Attr::Lit(AttrValue::Number(x)),
                        Some(_) if is_result => return Err(no_dims(inst.result, "a constant")),
                        Some((k, inverse)) => {
                            let suffix = if inverse { "inv" } else { "val" };
                            Attr::Var(Var(format!("d{k}_{suffix}")))
                        }
                    };
                    Term::Splat {
                        value,
                        like: None,
                        name: None,
                    }
                }
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
                    attrs: op_attrs(op, &inst.ty)
                        .into_iter()
                        .enumerate()
                        .map(|(slot, a)| match (dims.in_attr(&a), is_result) {
                            (false, false) if control.is_some_and(|c| c.ignores(key, slot)) => {
                                Ok(Attr::Ignore)
                            }
                            (false, _) => Ok(Attr::Lit(a)),
                            (true, false) => Ok(Attr::Ignore),
                            (true, true) => Err(no_dims(inst.result, "an attribute")),
                        })
                        .collect::<Result<_, _>>()?,
                    name: None,
                    ty: (is_result && !dims.in_type(&inst.ty)).then(|| inst.ty.clone()),
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
    if is_result {
        check_typed(&pat, f)?;
    } else {
        check_all_used(&pat, f)?;
    }
    Ok(pat)
}

/// A replacement call whose type mentions named dimensions must take it from the roots: be a
/// root, or a tuple whose elements are all roots.
fn check_typed(pat: &Pattern, f: &Function) -> Result<(), String> {
    for (i, t) in pat.terms.iter().enumerate() {
        let id = TermId(i);
        let untyped_call = matches!(
            t,
            Term::Op {
                key: ptir_ir::OpKey::Call,
                ty: None,
                ..
            }
        );
        if untyped_call
            && !pat.roots.contains(&id)
            && crate::parse::tuple_of_roots(pat, id).is_none()
        {
            return Err(format!(
                "a call of @{} whose type has named dimensions must be a result (or a tuple of results)",
                f.name
            ));
        }
    }
    Ok(())
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
            "parameter {v} of @{} is not used by the idiom",
            f.name
        )),
        Some(_) => Err(format!(
            "an instruction of @{} does not feed its results",
            f.name
        )),
        None => Ok(()),
    }
}

/// First size standing for a named dimension while the `.pat` text is parsed as PTIR: dim `k`
/// (in order of first mention) is written as `DIM_BASE + k`. Small enough that a rank-4 type
/// of such sizes stays within the type size limit; a file that spells one of these sizes
/// literally is rejected, so the stand-ins are unambiguous.
use crate::loop_pat::DIM_BASE;

/// Most named dimensions one `.pat` file may use.
const MAX_DIMS: usize = 64;

/// The named dimensions (`?n`) of a `.pat` file, in order of first mention.
#[derive(Debug, Default)]
struct Dims {
    names: Vec<String>,
}

impl Dims {
    /// The dimension a size stands for, if it is a stand-in.
    fn of(&self, size: usize) -> Option<usize> {
        size.checked_sub(DIM_BASE).filter(|&k| k < self.names.len())
    }

    /// Does the size list mention a named dimension?
    fn in_shape(&self, shape: &[usize]) -> bool {
        shape.iter().any(|&s| self.of(s).is_some())
    }

    /// Does the type mention a named dimension?
    fn in_type(&self, ty: &Type) -> bool {
        match ty {
            Type::Tensor(t) => self.in_shape(&t.shape),
            Type::Tuple(ts) => ts.iter().any(|t| self.in_type(t)),
        }
    }

    /// Does the attribute mention a named dimension?
    fn in_attr(&self, a: &AttrValue) -> bool {
        match a {
            AttrValue::Ints(xs) => self.in_shape(xs),
            _ => false,
        }
    }

    /// The dimension a splat constant's value stands for: `?n` (its size) or `1/?n`.
    fn of_number(&self, x: f64) -> Option<(usize, bool)> {
        let inverse = x < 0.0;
        let m = x.abs();
        (m.fract() == 0.0 && m >= DIM_BASE as f64)
            .then(|| self.of(m as usize))
            .flatten()
            .map(|k| (k, inverse))
    }
}

/// How a `?name` of a `.pat` file is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mention {
    /// A size in a type or attribute: `f32[?m,?n]`.
    Size,
    /// A constant's value: `splat(?n)`.
    Value,
    /// The inverse of a size: `splat(1/?n)`.
    Inverse,
}

/// Rewrites every `?name` of `text` (outside `//` comments) with `emit(k, name, mention)`,
/// where `k` numbers the names in order of first mention; returns the text and the names.
fn substitute_dims(
    file: &str,
    text: &str,
    mut emit: impl FnMut(usize, &str, Mention) -> Result<String, String>,
) -> Result<(String, Dims), RuleError> {
    let mut out = String::with_capacity(text.len());
    let mut dims = Dims::default();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let (code, comment) = match line.find("//") {
            Some(p) => line.split_at(p),
            None => (line, ""),
        };
        let mut rest = code;
        while let Some(p) = rest.find('?') {
            out.push_str(&rest[..p]);
            let after = &rest[p + 1..];
            let len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            let name = &after[..len];
            let col = code.len() - rest.len() + p + 1;
            let err = |m: String| RuleError::new(file, i + 1, None, format!("column {col}: {m}"));
            if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                return Err(err("`?` must be followed by a dimension name".into()));
            }
            let mention = if out.ends_with("splat(1/") {
                out.truncate(out.len() - 2);
                Mention::Inverse
            } else if out.ends_with("splat(") {
                Mention::Value
            } else {
                Mention::Size
            };
            let k = match dims.names.iter().position(|n| n == name) {
                Some(k) => k,
                None if dims.names.len() == MAX_DIMS => {
                    return Err(err(format!("more than {MAX_DIMS} named dimensions")))
                }
                None => {
                    dims.names.push(name.to_string());
                    dims.names.len() - 1
                }
            };
            out.push_str(&emit(k, name, mention).map_err(err)?);
            rest = &after[len..];
        }
        out.push_str(rest);
        out.push_str(comment);
    }
    Ok((out, dims))
}

/// The `.pat` text with named dimensions replaced by their stand-in sizes ([`DIM_BASE`]).
fn with_stand_ins(file: &str, text: &str) -> Result<(String, Dims), RuleError> {
    if text.contains('?') {
        for k in 0..MAX_DIMS {
            let s = (DIM_BASE + k).to_string();
            let clash = text.match_indices(&s).any(|(p, _)| {
                let before = text[..p].chars().next_back();
                let after = text[p + s.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric())
            });
            if clash {
                return Err(RuleError::new(
                    file,
                    line_of(text, &s),
                    None,
                    format!("size {s} is reserved in `.pat` files that name dimensions"),
                ));
            }
        }
    }
    substitute_dims(file, text, |k, _, m| {
        let s = DIM_BASE + k;
        Ok(match m {
            Mention::Size => s.to_string(),
            Mention::Value => format!("{s}.0"),
            Mention::Inverse => format!("-{s}.0"),
        })
    })
}

/// The `.pat` text with each named dimension given a concrete size (`sizes`, by name): the
/// idiom at one shape. The interpreter proof checks source-written rules through these.
pub fn specialize_pat(
    file: &str,
    text: &str,
    sizes: &IndexMap<String, usize>,
) -> Result<String, RuleError> {
    let (out, _) = substitute_dims(file, text, |_, name, m| {
        let n = *sizes
            .get(name)
            .ok_or_else(|| format!("no size given for ?{name}"))?;
        Ok(match m {
            Mention::Size => n.to_string(),
            Mention::Value => format!("{:?}", n as f64),
            Mention::Inverse => format!("{:?}", 1.0 / n as f64),
        })
    })?;
    Ok(out)
}

/// The named dimensions of a `.pat` file, in order of first mention.
pub fn pat_dims(file: &str, text: &str) -> Result<Vec<String>, RuleError> {
    Ok(substitute_dims(file, text, |_, _, _| Ok(String::new()))?
        .1
        .names)
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
    fn several_pairs_in_one_file_become_several_rules_in_file_order() {
        let both = format!(
            "{LINEAR}
// exp of a negation is the reciprocal of exp
func @exp_neg_pattern(%x: f32[4]) -> (f32[4]) {{
  %0 = neg %x : f32[4]
  %1 = exp %0 : f32[4]
  return %1
}}
func @exp_neg_replacement(%x: f32[4]) -> (f32[4]) {{
  %0 = exp %x : f32[4]
  %1 = constant splat(1.0) : f32[4]
  %2 = div %1, %0 : f32[4]
  return %2
}}
"
        );
        let c = parse_pat("two.pat", &both).unwrap();
        let names: Vec<&str> = c.rules.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["linear", "exp-neg"]);
        assert_eq!(c.rules[1].location.line, 16);
        assert_eq!(c.rules[1].doc, "exp of a negation is the reciprocal of exp");
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
            .contains("parameter ?b of @linear_pattern is not used"));
        let dangling = LINEAR.replace(
            "  return %2\n}\nfunc @linear_r",
            "  %3 = exp %2 : f32[4,16]\n  return %2\n}\nfunc @linear_r",
        );
        assert!(parse_pat("x.pat", &dangling)
            .unwrap_err()
            .to_string()
            .contains("does not feed"));
    }

    const MEAN: &str = "// the row mean, computed by multiplying by 1/n, is one call
extern @row_mean(f32[?m,?n]) -> (f32[?m]) pure

func @row_mean_pattern(%x: f32[?m,?n]) -> (f32[?m]) {
  %k = constant splat(1/?n) : f32[?m]
  %s = reduce_sum %x axes=[1] keep_dims=false : f32[?m]
  %y = mul %s, %k : f32[?m]
  return %y
}
func @row_mean_replacement(%x: f32[?m,?n]) -> (f32[?m]) {
  %y = call @row_mean(%x) : f32[?m]
  return %y
}
";

    #[test]
    fn named_dims_become_shape_constraints() {
        let c = parse_pat("mean.pat", MEAN).unwrap();
        let r = &c.rules[0];
        let preds: Vec<&str> = r.constraints.iter().map(|c| c.pred.as_str()).collect();
        // ?x has rank 2 and binds ?m, ?n; %s and %y have rank 1 and the size of ?m; the
        // constant is 1/?n
        assert_eq!(
            preds,
            [
                "has-rank",
                "has-dtype",
                "has-rank",
                "same-dim",
                "has-rank",
                "same-dim",
                "dim-inverse"
            ]
        );
        assert_eq!(
            r.attr_vars.get(&Var("d1_inv".into())),
            Some(&AttrKind::Number)
        );
        // the replacement's call takes the root's type
        assert!(matches!(
            r.result.term(r.result.roots[0]),
            Term::Op { ty: None, .. }
        ));
    }

    #[test]
    fn specializing_gives_the_fixed_idiom() {
        let sizes: IndexMap<String, usize> = [("m".to_string(), 2), ("n".to_string(), 4)].into();
        let fixed = specialize_pat("mean.pat", MEAN, &sizes).unwrap();
        assert!(
            fixed.contains("%k = constant splat(0.25) : f32[2]"),
            "{fixed}"
        );
        assert!(fixed.contains("-> (f32[2])"), "{fixed}");
        assert_eq!(pat_dims("mean.pat", MEAN).unwrap(), ["m", "n"]);
        assert!(parse_pat("mean.pat", &fixed).is_ok());
        let missing = specialize_pat("mean.pat", MEAN, &IndexMap::new()).unwrap_err();
        assert!(
            missing.to_string().contains("no size given for ?m"),
            "{missing}"
        );
    }

    #[test]
    fn bad_named_dims_are_located_errors() {
        let bad = MEAN.replace(
            "f32[?m,?n]) -> (f32[?m]) {\n  %k",
            "f32[?1,?n]) -> (f32[?m]) {\n  %k",
        );
        let e = parse_pat("x.pat", &bad).unwrap_err().to_string();
        assert!(
            e.contains(":4") && e.contains("column 32: `?` must be followed"),
            "{e}"
        );
        let clash = MEAN.replace("constant splat(1/?n)", "constant splat(7919.0)");
        let e = parse_pat("x.pat", &clash).unwrap_err().to_string();
        assert!(e.contains("size 7919 is reserved"), "{e}");
        let unbound = MEAN.replace("splat(1/?n)", "splat(?k)");
        let e = parse_pat("x.pat", &unbound).unwrap_err().to_string();
        assert!(e.contains("?k in a constant of @row_mean_pattern"), "{e}");
        let attr = MEAN.replace(
            "  %y = call @row_mean(%x) : f32[?m]\n  return %y\n}\n",
            "  %y = call @row_mean(%x) : f32[?m]\n  %z = broadcast %y dims=[0] : f32[?m,?n]\n  %w = reduce_sum %z axes=[1] keep_dims=false : f32[?m]\n  return %w\n}\n",
        );
        let e = parse_pat("x.pat", &attr).unwrap_err().to_string();
        assert!(
            e.contains("cannot appear in an attribute of a replacement"),
            "{e}"
        );
        let inner = MEAN.replace(
            "  %y = call @row_mean(%x) : f32[?m]\n  return %y\n}\n",
            "  %y = call @row_mean(%x) : f32[?m]\n  %z = exp %y : f32[?m]\n  return %z\n}\n",
        );
        let e = parse_pat("x.pat", &inner).unwrap_err().to_string();
        assert!(e.contains("must be a result"), "{e}");
    }

    const DEFINED: &str = "func @twice_pattern(%x: f32[4]) -> (f32[4]) {
  %y = add %x, %x : f32[4]
  return %y
}
func @twice_replacement(%x: f32[4]) -> (f32[4]) {
  %y = call @my_twice(%x) : f32[4]
  return %y
}
func @my_twice(%x: f32[4]) -> (f32[4]) {
  %y = add %x, %x : f32[4]
  return %y
}
";

    #[test]
    fn a_third_function_defines_a_callee() {
        let c = parse_pat("d.pat", DEFINED).unwrap();
        let e = &c.externs[0];
        assert_eq!((e.name.as_str(), e.location.line), ("my_twice", 9));
        assert_eq!(
            e.definition.as_ref().map(|f| f.name.as_str()),
            Some("my_twice")
        );
        let uncalled = DEFINED.replace("call @my_twice(%x)", "add %x, %x");
        let e = parse_pat("d.pat", &uncalled).unwrap_err().to_string();
        assert!(e.contains("nor called by a replacement"), "{e}");
    }
}
