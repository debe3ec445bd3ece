//! From s-expressions to checked [`Rule`]s.
//!
//! The grammar of a rule file (`;` starts a comment; the comment lines right above a rule are
//! its doc, which says why the rule is true):
//!
//! ```text
//! file      := (rule | extern)*
//! extern    := (extern NAME :pure|:impure [:cost N])
//! rule      := (rule NAME option* SOURCE => AUX* RESULT+ option*)
//! option    := :labels (LABEL*) | :add-benefit N | :bounded-recursion | :when (CONSTRAINT*)
//! SOURCE    := TERM | (roots TERM TERM+)            ; one RESULT per root
//! AUX       := ?name:(OP TERM* ATTR*)                ; built first, used by the RESULTs by name
//! TERM      := ?x | ?_ | [?name:] (OP TERM* ATTR*) | [?name:] (splat NUMBER|?v [?like])
//!            | [?name:] (concat ATTR TERM+) | [?name:] (call @callee TERM*)
//!            | [?name:] (native-builder TERM* ATTR*)  ; in results: ops a native builds
//! ATTR      := ?p | ?_ | literal | (native-fn ATTR*)   ; native calls in results and :when
//! CONSTRAINT:= (predicate ATTR*)                       ; a value variable stands for its type
//! ```
//!
//! A result `call` takes its type from the root it replaces, so it must be a result root, or,
//! in a multi-root rule, be used only by `tuple_get` roots that take every element of its
//! tuple, whose types make the tuple type:
//! `=> (tuple_get ?m:(call @moments ?x) 0) (tuple_get ?m 1)`.
//!
//! Everything a rule names is checked here: ops and their arity, attribute kinds, predicates and
//! native functions (from the [`Registry`]), variables used on the right or in constraints but
//! never bound on the left, results whose type cannot be inferred.

use crate::ast::{
    Attr, AttrKind, AttrValue, Constraint, Location, Pattern, Rule, Term, TermId, Var,
};
use crate::error::RuleError;
use crate::ops::attr_slots;
use crate::reader::{self, Form};
use crate::registry::Registry;
use indexmap::IndexMap;
use ptir_ir::{DType, DotDims, OpKey};
use symbolic_expressions::Sexp;

/// An extern function that rule results may call (a fused library op), declared in a rule file.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternSpec {
    /// Name, without `@`.
    pub name: String,
    /// Free of side effects.
    pub pure: bool,
    /// Cost per call for cost models, in the units of the tensor model (FLOP-equivalents per
    /// output element); 1 when not given.
    pub cost: f64,
    /// Where it was declared.
    pub location: Location,
    /// Its body, where the rule file defines it (a `.pat` file's third function): injected
    /// into an output that calls it, so the output runs without a registered extern.
    pub definition: Option<ptir_ir::Function>,
}

/// What one rule file declares.
#[derive(Clone, Debug, Default)]
pub struct FileContents {
    /// Its rules, in file order.
    pub rules: Vec<Rule>,
    /// Its extern declarations.
    pub externs: Vec<ExternSpec>,
    /// Its loop patterns (`.pat` idioms over `scan`, `while`, `cond`), in file order.
    pub loop_patterns: Vec<crate::LoopPattern>,
    /// Its variadic rules as written, for arities past [`VARIADIC_ARITY`]
    /// ([`VariadicRule::expand`]); their arities up to it are among `rules`.
    pub variadic: Vec<VariadicRule>,
}

/// A rule with a list variable (`?xs...`) as written, which [`VariadicRule::expand`] makes into
/// fixed-arity rules: `rules` holds arities 0 to [`VARIADIC_ARITY`], and a program with a
/// longer `concat`, call or `tuple` gets the arities up to its own
/// ([`crate::RuleSet::expand_variadic`]), so that a list matches any arity.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VariadicRule {
    /// Its name (each expansion is `NAME/n`, labelled `NAME`).
    pub name: String,
    /// The file it was read from.
    pub file: String,
    /// The line of its `(rule`.
    pub line: usize,
    /// Its doc comment.
    pub doc: String,
    /// Its text (comments blanked).
    pub text: String,
    /// Its list variable, without `?` and `...`.
    pub list: String,
}

impl VariadicRule {
    /// The rules of arities `arities` (named `NAME/n`, labelled `NAME`), checked against
    /// `registry`; an arity whose expansion is not a rule is left out.
    pub fn expand(
        &self,
        arities: std::ops::RangeInclusive<usize>,
        registry: &Registry,
    ) -> Result<Vec<Rule>, RuleError> {
        let form = Form {
            line: self.line,
            doc: self.doc.clone(),
            text: self.text.clone(),
        };
        let sexp =
            reader::read(&form).map_err(|e| RuleError::new(&self.file, e.line, None, e.message))?;
        let Sexp::List(items) = &sexp else {
            return Ok(Vec::new());
        };
        variadic_rules(&self.file, &form, registry, items, &self.list, arities)
    }
}

/// What a variable stands for, learnt from where it is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VarKind {
    Value,
    Attr(AttrKind),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Source,
    Result,
}

/// Parses one rule file.
pub fn parse_rules(file: &str, src: &str, registry: &Registry) -> Result<FileContents, RuleError> {
    let forms = reader::forms(src).map_err(|e| RuleError::new(file, e.line, None, e.message))?;
    let mut out = FileContents::default();
    for form in &forms {
        let sexp = reader::read(form).map_err(|e| RuleError::new(file, e.line, None, e.message))?;
        let Sexp::List(items) = &sexp else {
            return Err(RuleError::new(
                file,
                form.line,
                None,
                "expected a `(rule ...)` or `(extern ...)` form",
            ));
        };
        match items.first().and_then(atom) {
            Some("rule") => {
                match list_var(items).map_err(|m| RuleError::new(file, form.line, None, m))? {
                    None => out
                        .rules
                        .push(RuleParser::new(file, form, registry).rule(items)?),
                    Some(list) => {
                        let arities = 0..=VARIADIC_ARITY;
                        (out.rules)
                            .extend(variadic_rules(file, form, registry, items, &list, arities)?);
                        out.variadic.push(VariadicRule {
                            name: items.get(1).and_then(atom).unwrap_or_default().to_string(),
                            file: file.to_string(),
                            line: form.line,
                            doc: form.doc.clone(),
                            text: form.text.clone(),
                            list,
                        });
                    }
                }
            }
            Some("extern") => out.externs.push(extern_spec(file, form, items)?),
            other => {
                let found = other.unwrap_or("a list");
                return Err(RuleError::new(
                    file,
                    form.line,
                    None,
                    format!("expected `rule` or `extern`, found `{found}`"),
                ));
            }
        }
    }
    Ok(out)
}

/// The arities a variadic rule is expanded to on load: `?xs...` stands for 0 to this many
/// operands, and to more in a program that has more ([`crate::RuleSet::expand_variadic`]).
pub const VARIADIC_ARITY: usize = 16;

/// The list variable (`?xs...`) of a rule form, without `?` and `...`; an error if it has
/// several.
fn list_var(items: &[Sexp]) -> Result<Option<String>, String> {
    fn collect<'a>(s: &'a Sexp, out: &mut Vec<&'a str>) {
        match s {
            Sexp::String(a) => {
                if let Some(v) = a.strip_prefix('?').and_then(|a| a.strip_suffix("...")) {
                    out.push(v);
                }
            }
            Sexp::List(items) => items.iter().for_each(|i| collect(i, out)),
            Sexp::Empty => {}
        }
    }
    let mut found = Vec::new();
    items.iter().for_each(|i| collect(i, &mut found));
    found.sort_unstable();
    found.dedup();
    match found.as_slice() {
        [] => Ok(None),
        [v] if !v.is_empty() && !v.contains('.') => Ok(Some(v.to_string())),
        [v] => Err(format!("`?{v}...` is not a list variable name")),
        _ => Err(format!(
            "a rule has at most one list variable, found {}",
            found
                .iter()
                .map(|v| format!("`?{v}...`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The name of a list rule's expansion at arity `n`: `NAME/n`.
fn expansion_name(base: &str, n: usize) -> String {
    format!("{base}/{n}")
}

/// The list rule and arity an expansion's name stands for: `NAME/3` is `("NAME", 3)`.
///
/// ```
/// assert_eq!(ptir_rules::split_expansion_name("flatten/3"), Some(("flatten", 3)));
/// assert_eq!(ptir_rules::split_expansion_name("flatten"), None);
/// ```
pub fn split_expansion_name(name: &str) -> Option<(&str, usize)> {
    let (base, n) = name.rsplit_once('/')?;
    Some((base, n.parse().ok()?))
}

/// A rule with a list variable `?xs...` (variadic operands of `concat`, `call`, `tuple`),
/// expanded to one rule per arity `n` in `arities`, named `NAME/n` and labelled
/// `NAME`: `?xs...` becomes `?xs.0 ... ?xs.(n-1)`, and a constraint `(P ?xs...)` one `(P ?xs.i)`
/// per element. Both engines see the same fixed-arity rules. An arity whose expansion is not a
/// rule (a `concat` of nothing) is left out; the rule's errors are those of arity 1.
fn variadic_rules(
    file: &str,
    form: &Form,
    registry: &Registry,
    items: &[Sexp],
    list: &str,
    arities: std::ops::RangeInclusive<usize>,
) -> Result<Vec<Rule>, RuleError> {
    let dotted = format!("?{list}...");
    let mut out = Vec::new();
    for n in arities {
        let elements: Vec<Sexp> = (0..n)
            .map(|k| Sexp::String(format!("?{list}.{k}")))
            .collect();
        let expanded = expand_list(items, &dotted, &elements, false);
        match RuleParser::new(file, form, registry).rule(&expanded) {
            Ok(mut rule) => {
                let base = std::mem::take(&mut rule.name);
                rule.name = expansion_name(&base, n);
                rule.labels.push(base);
                out.push(rule);
            }
            Err(e) if n == 1 => return Err(e),
            Err(_) => {}
        }
    }
    Ok(out)
}

/// `items` with each `dotted` atom replaced by `elements` spliced in place, and inside a
/// `:when` list each constraint `(P dotted)` by one `(P e)` per element.
fn expand_list(items: &[Sexp], dotted: &str, elements: &[Sexp], in_when: bool) -> Vec<Sexp> {
    let mut out = Vec::with_capacity(items.len());
    let mut after_when = false;
    for item in items {
        match item {
            Sexp::String(a) if a == dotted => out.extend(elements.iter().cloned()),
            Sexp::List(inner) if in_when && inner.len() == 2 && atom(&inner[1]) == Some(dotted) => {
                out.extend(
                    elements
                        .iter()
                        .map(|e| Sexp::List(vec![inner[0].clone(), e.clone()])),
                );
            }
            Sexp::List(inner) => {
                out.push(Sexp::List(expand_list(inner, dotted, elements, after_when)))
            }
            other => out.push(other.clone()),
        }
        after_when = atom(item) == Some(":when");
    }
    out
}

fn atom(s: &Sexp) -> Option<&str> {
    match s {
        Sexp::String(s) => Some(s),
        _ => None,
    }
}

fn extern_spec(file: &str, form: &Form, items: &[Sexp]) -> Result<ExternSpec, RuleError> {
    let err = |m: String| RuleError::new(file, form.line, None, m);
    let name = items
        .get(1)
        .and_then(atom)
        .map(|s| s.trim_start_matches('@'))
        .filter(|s| !s.is_empty());
    let name = name
        .ok_or_else(|| err("`extern` needs a name".into()))?
        .to_string();
    let mut spec = ExternSpec {
        name,
        pure: true,
        cost: 1.0,
        location: Location {
            file: file.into(),
            line: form.line,
        },
        definition: None,
    };
    let mut rest = items[2..].iter();
    while let Some(item) = rest.next() {
        match atom(item) {
            Some(":pure") => spec.pure = true,
            Some(":impure") => spec.pure = false,
            Some(":cost") => {
                let c = rest
                    .next()
                    .and_then(atom)
                    .and_then(|s| s.parse::<f64>().ok());
                spec.cost = c
                    .filter(|c| c.is_finite() && *c >= 0.0)
                    .ok_or_else(|| err("`:cost` needs a non-negative number".into()))?;
            }
            _ => {
                return Err(err(format!(
                    "unexpected `{}` in extern declaration (expected :pure, :impure or :cost N)",
                    show(item)
                )))
            }
        }
    }
    Ok(spec)
}

/// Prints a sexp back for messages.
fn show(s: &Sexp) -> String {
    match s {
        Sexp::String(s) => s.clone(),
        Sexp::List(items) => format!("({})", items.iter().map(show).collect::<Vec<_>>().join(" ")),
        Sexp::Empty => "()".into(),
    }
}

struct RuleParser<'a> {
    file: &'a str,
    form: &'a Form,
    registry: &'a Registry,
    name: Option<String>,
    kinds: IndexMap<Var, VarKind>,
    /// Result terms named `?m:(...)`, by name.
    result_names: IndexMap<Var, TermId>,
}

type PResult<T> = Result<T, RuleError>;

impl<'a> RuleParser<'a> {
    fn new(file: &'a str, form: &'a Form, registry: &'a Registry) -> Self {
        RuleParser {
            file,
            form,
            registry,
            name: None,
            kinds: IndexMap::new(),
            result_names: IndexMap::new(),
        }
    }

    /// An error located at the first occurrence of `near` in the rule (or the rule's line).
    fn err(&self, near: &str, message: impl Into<String>) -> RuleError {
        let line = if near.is_empty() {
            self.form.line
        } else {
            reader::line_of(self.form, near)
        };
        RuleError::new(self.file, line, self.name.clone(), message)
    }

    fn rule(mut self, items: &[Sexp]) -> PResult<Rule> {
        let name = items
            .get(1)
            .and_then(atom)
            .filter(|n| !n.starts_with(':') && !n.starts_with('?'));
        let name = name
            .ok_or_else(|| self.err("", "`rule` needs a name"))?
            .to_string();
        self.name = Some(name.clone());
        let mut rule = Rule {
            name,
            labels: Vec::new(),
            location: Location {
                file: self.file.into(),
                line: self.form.line,
            },
            source: Pattern::default(),
            result: Pattern::default(),
            aux: Vec::new(),
            constraints: Vec::new(),
            add_benefit: 0,
            bounded_recursion: false,
            doc: self.form.doc.clone(),
            attr_vars: IndexMap::new(),
        };
        let (mut lhs, mut rhs, mut when) = (Vec::new(), Vec::new(), Vec::new());
        let mut seen_arrow = false;
        let mut it = items[2..].iter();
        while let Some(item) = it.next() {
            match atom(item) {
                Some("=>") if seen_arrow => return Err(self.err("=>", "`=>` appears twice")),
                Some("=>") => seen_arrow = true,
                Some(":when") => match it.next() {
                    Some(Sexp::List(cs)) => when.extend(cs),
                    _ => {
                        return Err(self.err(
                            ":when",
                            "`:when` needs a list of constraints like ((inverse-perm ?p ?q))",
                        ))
                    }
                },
                Some(k) if k.starts_with(':') => self.option(&mut rule, k, &mut it)?,
                _ if seen_arrow => rhs.push(item),
                _ => lhs.push(item),
            }
        }
        if !seen_arrow {
            return Err(self.err("", "missing `=>` between the source pattern and the result"));
        }
        rule.source = self.source(&lhs)?;
        (rule.result, rule.aux) = self.results(&rhs, rule.source.roots.len())?;
        // Constraints come last so that they can mention every variable the source binds.
        for c in when {
            let c = self.constraint(c)?;
            rule.constraints.push(c);
        }
        crate::ast::check_single_use(&rule).map_err(|m| self.err(&rule.name, m))?;
        rule.attr_vars = self
            .kinds
            .iter()
            .filter_map(|(v, k)| match k {
                VarKind::Attr(a) => Some((v.clone(), *a)),
                VarKind::Value => None,
            })
            .collect();
        crate::bounds::check(&rule).map_err(|e| {
            let near = e.near.map(|v| format!("{v}:")).unwrap_or_default();
            self.err(&near, e.message)
        })?;
        Ok(rule)
    }

    fn option<'s>(
        &mut self,
        rule: &mut Rule,
        key: &str,
        it: &mut impl Iterator<Item = &'s Sexp>,
    ) -> PResult<()> {
        match key {
            ":bounded-recursion" => rule.bounded_recursion = true,
            ":labels" => match it.next() {
                Some(Sexp::List(ls)) => {
                    for l in ls {
                        rule.labels.push(atom(l).ok_or_else(|| self.err(":labels", "labels must be names"))?.to_string());
                    }
                }
                _ => return Err(self.err(":labels", "`:labels` needs a list like (canonicalize tensor)")),
            },
            ":add-benefit" => {
                let n = it.next().and_then(atom).and_then(|s| s.parse::<i32>().ok());
                rule.add_benefit = n.ok_or_else(|| self.err(":add-benefit", "`:add-benefit` needs an integer"))?;
            }
            other => {
                return Err(self.err(other, format!("unknown option `{other}` (expected :labels, :add-benefit, :bounded-recursion or :when)")))
            }
        }
        Ok(())
    }

    fn constraint(&mut self, c: &Sexp) -> PResult<Constraint> {
        let Sexp::List(items) = c else {
            return Err(self.err(
                &show(c),
                format!("a constraint is a list like (pred ?x), found `{}`", show(c)),
            ));
        };
        let pred = items.first().and_then(atom).unwrap_or("").to_string();
        let p = self
            .registry
            .predicate(&pred)
            .ok_or_else(|| self.err(&pred, format!("unknown predicate `{pred}`")))?;
        let arity = p.arity;
        let args = self.call_args(&pred, &format!("predicate `{pred}`"), arity, &items[1..])?;
        Ok(Constraint { pred, args })
    }

    // ---- patterns ---------------------------------------------------------------------

    fn source(&mut self, lhs: &[&Sexp]) -> PResult<Pattern> {
        let mut pat = Pattern::default();
        let items = pair_names(lhs.iter().copied(), self)?;
        let [(name, term)] = items.as_slice() else {
            return Err(self.err(
                "",
                format!(
                    "expected one source pattern before `=>`, found {}",
                    items.len()
                ),
            ));
        };
        let roots: Vec<(Option<Var>, &Sexp)> = match term {
            Sexp::List(xs) if xs.first().and_then(atom) == Some("roots") && name.is_none() => {
                let roots = pair_names(xs[1..].iter(), self)?;
                if roots.len() < 2 {
                    return Err(self.err("roots", "`roots` needs at least two patterns"));
                }
                roots
            }
            _ => items.clone(),
        };
        for (name, t) in roots {
            let id = self.term(t, name, Side::Source, &mut pat)?;
            if matches!(pat.term(id), Term::Value(_)) {
                return Err(self.err(&show(t), "a source root must be an op, not a variable"));
            }
            pat.roots.push(id);
        }
        Ok(pat)
    }

    /// The result pattern (one root per source root) and the auxiliary results: results
    /// beyond the source's root count, written first (DRR: the last N results replace the N
    /// roots, the ones before them are auxiliary ops).
    fn results(&mut self, rhs: &[&Sexp], num_roots: usize) -> PResult<(Pattern, Vec<TermId>)> {
        if let Some(expanded) = self.several_results(rhs, num_roots)? {
            return self.results(&expanded.iter().collect::<Vec<_>>(), num_roots);
        }
        let mut pat = Pattern::default();
        let items = pair_names(rhs.iter().copied(), self)?;
        if items.len() < num_roots {
            return Err(self.err(
                "=>",
                format!(
                    "the source has {num_roots} root(s) but {} result(s) follow `=>`",
                    items.len()
                ),
            ));
        }
        let num_aux = items.len() - num_roots;
        let mut aux = Vec::new();
        for (i, (name, t)) in items.into_iter().enumerate() {
            if i < num_aux && (name.is_none() || !matches!(t, Sexp::List(_))) {
                return Err(self.err(
                    "=>",
                    format!(
                        "the source has {num_roots} root(s) but {} results follow `=>`: the \
                         results before the last {num_roots} are auxiliary ops, and each must \
                         be a named op `?name:(...)` that a replacement uses",
                        num_aux + num_roots
                    ),
                ));
            }
            let id = self.term(t, name, Side::Result, &mut pat)?;
            if i < num_aux {
                aux.push(id);
            } else {
                pat.roots.push(id);
            }
        }
        for &root in &pat.roots {
            self.check_result_types(&pat, root)?;
        }
        let used = reachable(&pat, &pat.roots);
        if let Some(&unused) = aux.iter().find(|a| !used[a.0]) {
            let name = pat.term(unused).name().map(ToString::to_string);
            let name = name.unwrap_or_default();
            return Err(self.err(
                &format!("{name}:"),
                format!(
                    "auxiliary result {name} is not used by any replacement (the ops a rule \
                     builds are pure: it would compute nothing)"
                ),
            ));
        }
        // (Every auxiliary op is under a replacement, so the roots' type checks covered it.)
        Ok((pat, aux))
    }

    /// `=> (results T)`: root `i` of the source is replaced by result `i` of the one op `T`
    /// (a call of an extern with several results), written out as the `tuple_get` roots it
    /// stands for, `(tuple_get ?r:T 0) (tuple_get ?r 1) ...`; `None` for any other result
    /// list. `T` may be named (`(results ?m:(call @moments ?x))`); unnamed, it gets a name no
    /// rule can write.
    fn several_results(&self, rhs: &[&Sexp], num_roots: usize) -> PResult<Option<Vec<Sexp>>> {
        let [Sexp::List(xs)] = rhs else {
            return Ok(None);
        };
        if xs.first().and_then(atom) != Some("results") {
            return Ok(None);
        }
        let op = match pair_names(xs[1..].iter(), self)?.as_slice() {
            [(name, op @ Sexp::List(_))] => (name.clone(), (*op).clone()),
            _ => {
                return Err(self.err(
                    "results",
                    "`results` takes one op whose results replace the roots in order, like \
                     (results (call @moments ?x))",
                ))
            }
        };
        let (name, op) = op;
        let name = name.map_or_else(|| "(results)".to_string(), |v| v.0);
        let word = |s: String| Sexp::String(s);
        Ok(Some(
            (0..num_roots)
                .map(|i| {
                    let mut get = vec![word("tuple_get".into())];
                    if i == 0 {
                        get.extend([word(format!("?{name}:")), op.clone()]);
                    } else {
                        get.push(word(format!("?{name}")));
                    }
                    get.push(word(i.to_string()));
                    Sexp::List(get)
                })
                .collect(),
        ))
    }

    fn bind(&mut self, v: &Var, kind: VarKind) -> PResult<()> {
        match self.kinds.get(v) {
            Some(k) if *k != kind => Err(self.err(
                &v.to_string(),
                format!(
                    "{v} is used both as {} and as {}",
                    describe(*k),
                    describe(kind)
                ),
            )),
            _ => {
                self.kinds.insert(v.clone(), kind);
                Ok(())
            }
        }
    }

    fn var(&self, s: &str) -> Option<Var> {
        s.strip_prefix('?')
            .filter(|n| !n.is_empty())
            .map(|n| Var(n.to_string()))
    }

    fn term(
        &mut self,
        s: &Sexp,
        name: Option<Var>,
        side: Side,
        pat: &mut Pattern,
    ) -> PResult<TermId> {
        if let Some(n) = &name {
            if side == Side::Source {
                self.bind(n, VarKind::Value)?;
            } else if self.result_names.contains_key(n) || self.kinds.contains_key(n) {
                return Err(self.err(&n.to_string(), format!("{n} is already bound")));
            }
        }
        let id = match s {
            Sexp::String(a) => {
                let v = self.var(a).ok_or_else(|| {
                    self.err(
                        a,
                        format!("expected a variable like ?x or an op, found `{a}`"),
                    )
                })?;
                if name.is_some() {
                    return Err(self.err(a, "only ops can be named with `?name:`"));
                }
                return self.value_var(v, side, pat);
            }
            Sexp::List(items) => self.op_term(items, name.clone(), side, pat)?,
            Sexp::Empty => return Err(self.err("()", "empty pattern")),
        };
        if let (Some(n), Side::Result) = (name, side) {
            self.result_names.insert(n, id);
        }
        Ok(id)
    }

    fn value_var(&mut self, v: Var, side: Side, pat: &mut Pattern) -> PResult<TermId> {
        match side {
            Side::Source => {
                if v.0 != "_" {
                    self.bind(&v, VarKind::Value)?;
                }
                Ok(pat.push(Term::Value(v)))
            }
            Side::Result if v.0 == "_" => Err(self.err("?_", "`?_` cannot be used in a result")),
            Side::Result => match (self.result_names.get(&v), self.kinds.get(&v)) {
                (Some(id), _) => Ok(*id),
                (None, Some(VarKind::Value)) => Ok(pat.push(Term::Value(v))),
                (None, Some(k)) => Err(self.err(
                    &v.to_string(),
                    format!("{v} is {}, not a value", describe(*k)),
                )),
                (None, None) => Err(self.err(
                    &v.to_string(),
                    format!("{v} is used in the result but never bound in the source"),
                )),
            },
        }
    }

    fn op_term(
        &mut self,
        items: &[Sexp],
        name: Option<Var>,
        side: Side,
        pat: &mut Pattern,
    ) -> PResult<TermId> {
        let head = items.first().and_then(atom).unwrap_or("");
        if head == "splat" {
            return self.splat(items, name, side, pat);
        }
        if OpKey::from_name(head).is_none() && self.registry.builder(head).is_some() {
            return self.native(items, name, side, pat);
        }
        let key =
            OpKey::from_name(head).ok_or_else(|| self.err(head, format!("unknown op `{head}`")))?;
        let (arity, slots) = attr_slots(key).ok_or_else(|| {
            self.err(
                head,
                format!("`{head}` cannot appear in a rule (use `splat` for constants)"),
            )
        })?;
        let args = &items[1..];
        let (callee, attr_items, operand_items): (Option<String>, &[Sexp], Vec<&Sexp>) = match key {
            OpKey::Call => {
                let callee = args
                    .first()
                    .and_then(atom)
                    .and_then(|s| s.strip_prefix('@'))
                    .filter(|s| !s.is_empty());
                let callee = callee
                    .ok_or_else(|| self.err(head, "`call` needs a callee like @softmax_fused"))?;
                (Some(callee.to_string()), &[], args[1..].iter().collect())
            }
            OpKey::Concat => {
                let (axis, rest) = args
                    .split_first()
                    .ok_or_else(|| self.err(head, "`concat` needs an axis and operands"))?;
                (None, std::slice::from_ref(axis), rest.iter().collect())
            }
            _ => {
                let n_ops = args.len().saturating_sub(slots.len());
                (None, &args[n_ops..], args[..n_ops].iter().collect())
            }
        };
        let operand_terms = pair_names(operand_items.into_iter(), self)?;
        let ok_arity = match arity {
            Some(n) => operand_terms.len() == n && attr_items.len() == slots.len(),
            None => !operand_terms.is_empty() || key == OpKey::Call,
        };
        if !ok_arity {
            let want = arity.map_or("at least one".to_string(), |n| n.to_string());
            return Err(self.err(
                head,
                format!(
                    "`{head}` takes {want} operand(s) and {} attribute(s), found {} argument(s)",
                    slots.len(),
                    args.len()
                ),
            ));
        }
        let mut operands = Vec::new();
        for (n, t) in operand_terms {
            operands.push(self.term(t, n, side, pat)?);
        }
        let attrs = attr_items
            .iter()
            .zip(slots.iter())
            .map(|(a, k)| self.attr(a, *k, side))
            .collect::<PResult<Vec<_>>>()?;
        Ok(pat.push(Term::Op {
            key,
            callee,
            operands,
            attrs,
            name,
            ty: None,
        }))
    }

    /// `(builder VALUES... ATTRS...)`: a native builder's call, in a result.
    fn native(
        &mut self,
        items: &[Sexp],
        name: Option<Var>,
        side: Side,
        pat: &mut Pattern,
    ) -> PResult<TermId> {
        let head = items.first().and_then(atom).unwrap_or("");
        if side == Side::Source {
            return Err(self.err(
                head,
                format!("native builder `{head}` builds ops: it can only appear in a result"),
            ));
        }
        let (values, kinds) = match self.registry.builder(head) {
            Some(b) => (b.values, b.attrs),
            None => return Err(self.err(head, format!("unknown op `{head}`"))),
        };
        let args = &items[1..];
        if args.len() != values + kinds.len() {
            return Err(self.err(
                head,
                format!(
                    "native builder `{head}` takes {values} value(s) and {} attribute(s), found \
                     {} argument(s)",
                    kinds.len(),
                    args.len()
                ),
            ));
        }
        let mut operands = Vec::new();
        for (n, t) in pair_names(args[..values].iter(), self)? {
            operands.push(self.term(t, n, side, pat)?);
        }
        let attrs = args[values..]
            .iter()
            .zip(kinds.iter())
            .map(|(a, k)| self.attr(a, *k, side))
            .collect::<PResult<Vec<_>>>()?;
        Ok(pat.push(Term::Native {
            func: head.to_string(),
            operands,
            attrs,
            name,
        }))
    }

    fn splat(
        &mut self,
        items: &[Sexp],
        name: Option<Var>,
        side: Side,
        pat: &mut Pattern,
    ) -> PResult<TermId> {
        let (value, like) = match items {
            [_, v] => (v, None),
            [_, v, Sexp::String(l)] if side == Side::Result => (v, Some(l.as_str())),
            _ => {
                return Err(self.err(
                    "splat",
                    "expected (splat VALUE) or, in a result, (splat VALUE ?like)",
                ))
            }
        };
        let value = self.attr(value, AttrKind::Number, side)?;
        let like = match like.map(|l| {
            self.var(l)
                .ok_or_else(|| self.err(l, format!("expected a variable, found `{l}`")))
        }) {
            Some(v) => {
                let v = v?;
                if self.kinds.get(&v) != Some(&VarKind::Value)
                    && !self.result_names.contains_key(&v)
                {
                    return Err(self.err(
                        &v.to_string(),
                        format!("{v} is used in the result but never bound in the source"),
                    ));
                }
                Some(v)
            }
            None => None,
        };
        Ok(pat.push(Term::Splat { value, like, name }))
    }

    // ---- attributes -------------------------------------------------------------------

    /// An attribute in a slot of known kind.
    fn attr(&mut self, s: &Sexp, kind: AttrKind, side: Side) -> PResult<Attr> {
        if let Sexp::String(a) = s {
            if a == "?_" {
                return match side {
                    Side::Source => Ok(Attr::Ignore),
                    Side::Result => Err(self.err(a, "`?_` cannot be used in a result")),
                };
            }
            if let Some(v) = self.var(a) {
                match side {
                    Side::Source => self.bind(&v, VarKind::Attr(kind))?,
                    Side::Result => self.check_bound_attr(&v, kind)?,
                }
                return Ok(Attr::Var(v));
            }
        }
        if let (Sexp::List(items), Side::Result) = (s, side) {
            if let Some(native) = items
                .first()
                .and_then(atom)
                .and_then(|h| self.registry.native(h).map(|n| (h, n.returns)))
            {
                let call = self.native_call(items)?;
                if native.1 != kind {
                    return Err(self.err(
                        native.0,
                        format!(
                            "`{}` returns {} but this slot needs {kind}",
                            native.0, native.1
                        ),
                    ));
                }
                return Ok(call);
            }
        }
        literal(s, kind)
            .map(Attr::Lit)
            .ok_or_else(|| self.err(&show(s), format!("expected {kind}, found `{}`", show(s))))
    }

    fn check_bound_attr(&self, v: &Var, kind: AttrKind) -> PResult<()> {
        match self.kinds.get(v) {
            Some(VarKind::Attr(k)) if *k == kind => Ok(()),
            Some(k) => Err(self.err(
                &v.to_string(),
                format!("{v} is {} but this slot needs {kind}", describe(*k)),
            )),
            None => Err(self.err(
                &v.to_string(),
                format!("{v} is used in the result but never bound in the source"),
            )),
        }
    }

    fn native_call(&mut self, items: &[Sexp]) -> PResult<Attr> {
        let func = items.first().and_then(atom).unwrap_or("").to_string();
        let native = self
            .registry
            .native(&func)
            .ok_or_else(|| self.err(&func, format!("unknown native function `{func}`")))?;
        let arity = native.arity;
        let args = self.call_args(&func, &format!("`{func}`"), arity, &items[1..])?;
        Ok(Attr::Call { func, args })
    }

    /// The arguments of a predicate or native call named `name` (`what` in messages), checked
    /// against its registered arity.
    fn call_args(
        &mut self,
        name: &str,
        what: &str,
        arity: usize,
        args: &[Sexp],
    ) -> PResult<Vec<Attr>> {
        if arity != args.len() {
            return Err(self.err(
                name,
                format!("{what} takes {arity} argument(s), found {}", args.len()),
            ));
        }
        args.iter().map(|a| self.any_attr(a)).collect()
    }

    /// An argument of a predicate or native call: any bound variable, a literal of any kind,
    /// or a nested native call.
    fn any_attr(&mut self, s: &Sexp) -> PResult<Attr> {
        match s {
            Sexp::String(a) if a.starts_with('?') => {
                let v = self
                    .var(a)
                    .filter(|v| v.0 != "_")
                    .ok_or_else(|| self.err(a, format!("`{a}` is not a usable variable here")))?;
                if !self.kinds.contains_key(&v) {
                    return Err(self.err(a, format!("{v} is used but never bound in the source")));
                }
                Ok(Attr::Var(v))
            }
            Sexp::List(items)
                if items
                    .first()
                    .and_then(atom)
                    .is_some_and(|h| self.registry.native(h).is_some()) =>
            {
                self.native_call(items)
            }
            _ => [
                AttrKind::Int,
                AttrKind::Number,
                AttrKind::Ints,
                AttrKind::Bool,
                AttrKind::DType,
                AttrKind::Dims,
            ]
            .into_iter()
            .find_map(|k| literal(s, k))
            .map(Attr::Lit)
            .ok_or_else(|| {
                let head = match s {
                    Sexp::List(items) => items.first().and_then(atom).unwrap_or(""),
                    _ => "",
                };
                if !head.is_empty() && head.parse::<f64>().is_err() {
                    self.err(head, format!("unknown native function `{head}`"))
                } else {
                    self.err(
                        &show(s),
                        format!("cannot read `{}` as a variable or literal", show(s)),
                    )
                }
            }),
        }
    }

    /// Checks that every result op's type can be inferred: a `call` needs to be a result root
    /// (it takes the root's type) or be used only by `tuple_get` roots that take every element
    /// of its tuple (it takes the tuple of their types); a `splat` needs to be a root, have
    /// `?like`, or be an operand of an elementwise op with a non-splat sibling.
    fn check_result_types(&self, pat: &Pattern, root: TermId) -> PResult<()> {
        let mut stack = vec![(root, true, false)];
        while let Some((id, at_root, has_sibling)) = stack.pop() {
            match pat.term(id) {
                Term::Op {
                    key,
                    operands,
                    callee,
                    ..
                } => {
                    if *key == OpKey::Call && !at_root && tuple_of_roots(pat, id).is_none() {
                        let c = callee.clone().unwrap_or_default();
                        return Err(self.err(&format!("@{c}"), format!("the type of (call @{c} ...) cannot be inferred: a call must be a result root")));
                    }
                    let elementwise = key.is_elementwise();
                    for (i, &o) in operands.iter().enumerate() {
                        let sibling = elementwise
                            && operands.iter().enumerate().any(|(j, &s)| {
                                j != i && !matches!(pat.term(s), Term::Splat { .. })
                            });
                        stack.push((o, false, sibling));
                    }
                }
                Term::Native { operands, .. } => {
                    stack.extend(operands.iter().map(|&o| (o, false, false)));
                }
                Term::Splat { like, .. } => {
                    if !at_root && like.is_none() && !has_sibling {
                        return Err(self.err("splat", "the type of this (splat ...) cannot be inferred: add ?like, or use it beside a non-constant operand of an elementwise op"));
                    }
                }
                Term::Value(_) => {}
            }
        }
        Ok(())
    }
}

/// For a result `call` whose every use is a `tuple_get` root (a multi-root rule's results
/// taken from one call returning a tuple): the root that gives element `i` of the call's
/// tuple type, for every `i`. `None` if the call has another use or an element is missing.
/// Which terms of `pat` the terms `from` reach through operands (`from` included).
fn reachable(pat: &Pattern, from: &[TermId]) -> Vec<bool> {
    let mut seen = vec![false; pat.terms.len()];
    let mut stack = from.to_vec();
    while let Some(t) = stack.pop() {
        if std::mem::replace(&mut seen[t.0], true) {
            continue;
        }
        stack.extend(pat.operands(t));
    }
    seen
}

pub(crate) fn tuple_of_roots(pat: &Pattern, call: TermId) -> Option<Vec<usize>> {
    let mut elements: Vec<Option<usize>> = Vec::new();
    for (t, term) in pat.terms.iter().enumerate() {
        let Term::Op {
            operands,
            attrs,
            key,
            ..
        } = term
        else {
            continue;
        };
        if !operands.contains(&call) {
            continue;
        }
        let root = pat.roots.iter().position(|r| r.0 == t)?;
        let index = match (key, attrs.as_slice()) {
            (OpKey::TupleGet, [Attr::Lit(AttrValue::Int(i))]) => *i,
            _ => return None,
        };
        if elements.len() <= index {
            elements.resize(index + 1, None);
        }
        elements[index].get_or_insert(root);
    }
    elements
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .filter(|e| !e.is_empty())
}

fn describe(k: VarKind) -> String {
    match k {
        VarKind::Value => "a value".into(),
        VarKind::Attr(a) => format!("an attribute ({a})"),
    }
}

/// Pairs `?name:` atoms with the term that follows them.
fn pair_names<'s>(
    items: impl Iterator<Item = &'s Sexp>,
    p: &RuleParser<'_>,
) -> PResult<Vec<(Option<Var>, &'s Sexp)>> {
    let mut out = Vec::new();
    let mut pending: Option<Var> = None;
    for item in items {
        match (atom(item), pending.take()) {
            (Some(a), None) if a.starts_with('?') && a.ends_with(':') && a.len() > 2 => {
                pending = Some(Var(a[1..a.len() - 1].to_string()));
            }
            (_, name) => out.push((name, item)),
        }
    }
    match pending {
        Some(v) => Err(p.err(
            &format!("{v}:"),
            format!("`{v}:` must be followed by the op it names"),
        )),
        None => Ok(out),
    }
}

fn usize_atom(s: &Sexp) -> Option<usize> {
    atom(s)?.parse().ok()
}

fn ints_literal(s: &Sexp) -> Option<Vec<usize>> {
    match s {
        Sexp::List(xs) => xs.iter().map(usize_atom).collect(),
        Sexp::Empty => Some(vec![]),
        Sexp::String(_) => None,
    }
}

/// Reads a literal of the given kind.
fn literal(s: &Sexp, kind: AttrKind) -> Option<AttrValue> {
    match kind {
        AttrKind::Ints => ints_literal(s).map(AttrValue::Ints),
        AttrKind::Int => usize_atom(s).map(AttrValue::Int),
        AttrKind::Bool => match atom(s)? {
            "true" => Some(AttrValue::Bool(true)),
            "false" => Some(AttrValue::Bool(false)),
            _ => None,
        },
        AttrKind::DType => DType::from_name(atom(s)?).map(AttrValue::DType),
        AttrKind::Number => ptir_ir::parse_float(DType::F64, atom(s)?).map(AttrValue::Number),
        AttrKind::Dims => match s {
            Sexp::List(xs) if xs.len() == 5 && atom(&xs[0]) == Some("dims") => {
                Some(AttrValue::Dims(DotDims {
                    lhs_batch: ints_literal(&xs[1])?,
                    rhs_batch: ints_literal(&xs[2])?,
                    lhs_contract: ints_literal(&xs[3])?,
                    rhs_contract: ints_literal(&xs[4])?,
                    ..DotDims::default()
                }))
            }
            _ => None,
        },
        AttrKind::Conv | AttrKind::Window | AttrKind::Pad | AttrKind::Gather | AttrKind::Index => {
            None
        }
    }
}
