//! Every rule is a finite, shallow DAG: what the engines may assume when they walk one.
//!
//! Both engines, the proof harness and [`crate::Rule::instantiate`] walk rule patterns
//! recursively (the e-graph engine expands a reference to a named term, `?t` of `?t:(...)`,
//! where it is used). So a rule is checked once, when it enters a [`crate::RuleSet`]:
//!
//! - **acyclic**: a named term may not contain a reference to itself, directly
//!   (`?a:(add ?a ?b)`) or through other named terms (`?a:(neg ?b)` with `?b:(neg ?a)`);
//! - **shallow**: no path from a root down, references to named terms followed, is longer
//!   than [`RULE_DEPTH_LIMIT`] (the program parser's nesting limit);
//! - **small**: the pattern with every reference expanded has at most [`RULE_SIZE_LIMIT`]
//!   terms (a chain of named terms each used twice doubles at every link).
//!
//! The text of a rule file is bounded before it is read (`reader.rs`), so that the
//! s-expression reader and the parser's own recursion are bounded by the same limit.

use crate::ast::{Pattern, Rule, Term, TermId, Var};
use std::collections::HashMap;

/// The deepest a rule pattern may be: the program parser's [`ptir_ir::text::NESTING_LIMIT`].
pub const RULE_DEPTH_LIMIT: usize = ptir_ir::text::NESTING_LIMIT;

/// The most terms a rule pattern may have with every named-term reference expanded.
pub const RULE_SIZE_LIMIT: usize = 10_000;

/// Why a rule is not a bounded DAG; `near` is the named term to point at, if any.
#[derive(Debug)]
pub(crate) struct ShapeError {
    pub near: Option<Var>,
    pub message: String,
}

/// Checks that both patterns of `rule` are acyclic, shallow and small (see the module docs).
pub(crate) fn check(rule: &Rule) -> Result<(), ShapeError> {
    check_pattern(&rule.source, "source", true)?;
    check_pattern(&rule.result, "result", false)
}

/// The children of term `t`: its operands and, in a source pattern, the named term a
/// reference `?t` stands for.
fn children(p: &Pattern, named: &HashMap<&Var, TermId>, t: TermId) -> Vec<TermId> {
    match p.term(t) {
        Term::Op { operands, .. } | Term::Native { operands, .. } => operands.clone(),
        Term::Value(v) => named.get(v).copied().into_iter().collect(),
        Term::Splat { .. } => Vec::new(),
    }
}

fn check_pattern(p: &Pattern, side: &str, follow_names: bool) -> Result<(), ShapeError> {
    let named: HashMap<&Var, TermId> = match follow_names {
        true => (0..p.terms.len())
            .filter_map(|t| p.terms[t].name().map(|n| (n, TermId(t))))
            .collect(),
        false => HashMap::new(),
    };
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let n = p.terms.len();
    let mut mark = vec![Mark::New; n];
    let mut depth = vec![0usize; n];
    let mut size = vec![0usize; n];
    // Roots first, so that a cycle is reported from the term written first.
    let starts = p.roots.iter().map(|r| r.0).chain(0..n);
    for start in starts {
        if mark[start] != Mark::New {
            continue;
        }
        // Iterative depth-first search: (term, its children, next child to visit).
        let mut stack = vec![(TermId(start), children(p, &named, TermId(start)), 0usize)];
        mark[start] = Mark::Open;
        while let Some((t, kids, next)) = stack.last_mut() {
            if let Some(&k) = kids.get(*next) {
                *next += 1;
                match mark[k.0] {
                    Mark::Done => {}
                    Mark::Open => {
                        let from = stack.iter().position(|(s, _, _)| *s == k).unwrap_or(0);
                        return Err(cycle(p, stack[from..].iter().map(|(s, _, _)| *s)));
                    }
                    Mark::New => {
                        mark[k.0] = Mark::Open;
                        let grandkids = children(p, &named, k);
                        stack.push((k, grandkids, 0));
                    }
                }
                continue;
            }
            let t = *t;
            let below = kids.iter().map(|k| depth[k.0]).max().unwrap_or(0);
            let expanded = kids
                .iter()
                .fold(1usize, |acc, k| acc.saturating_add(size[k.0]));
            depth[t.0] = below + 1;
            size[t.0] = expanded;
            mark[t.0] = Mark::Done;
            stack.pop();
            let name = p.term(t).name().cloned();
            if depth[t.0] > RULE_DEPTH_LIMIT {
                return Err(ShapeError {
                    near: name,
                    message: format!(
                        "the {side} pattern is nested deeper than {RULE_DEPTH_LIMIT} levels \
                         (counting each use of a named term)"
                    ),
                });
            }
            if size[t.0] > RULE_SIZE_LIMIT {
                return Err(ShapeError {
                    near: name,
                    message: format!(
                        "the {side} pattern has more than {RULE_SIZE_LIMIT} terms with every \
                         use of a named term expanded"
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The error for a cycle through `terms` (in walking order).
fn cycle(p: &Pattern, terms: impl Iterator<Item = TermId>) -> ShapeError {
    let names: Vec<Var> = terms.filter_map(|t| p.term(t).name().cloned()).collect();
    let mut path: Vec<String> = names.iter().map(Var::to_string).collect();
    if let Some(first) = path.first().cloned() {
        path.push(first);
    }
    let near = names.first().cloned();
    let message = match (&near, names.len()) {
        (Some(v), 1) => format!("the named term {v} contains itself: a pattern must be acyclic"),
        (Some(_), _) => format!(
            "the named terms {} contain each other: a pattern must be acyclic",
            path.join(" -> ")
        ),
        (None, _) => "the pattern contains a cycle: a pattern must be acyclic".to_string(),
    };
    ShapeError { near, message }
}

#[cfg(test)]
mod tests {
    use crate::{Registry, RuleSet};

    fn error_of(text: &str) -> String {
        let mut set = RuleSet::new(Registry::standard());
        set.add_source("c.rules", text).unwrap_err().to_string()
    }

    #[test]
    fn self_reference_is_rejected_with_its_location() {
        assert_eq!(
            error_of("; a\n(rule r\n  ?a:(add ?a ?b)\n  => ?b)"),
            "c.rules:3: in rule `r`: the named term ?a contains itself: a pattern must be acyclic"
        );
    }

    #[test]
    fn mutual_references_are_rejected() {
        let e = error_of("(rule r (roots ?a:(neg ?b)\n  ?b:(abs ?a)) => ?a ?b)");
        assert!(
            e.starts_with("c.rules:1: in rule `r`: the named terms"),
            "{e}"
        );
        assert!(e.contains("contain each other"), "{e}");
    }

    #[test]
    fn references_that_do_not_loop_are_fine() {
        let mut set = RuleSet::new(Registry::standard());
        set.add_source("ok.rules", "(rule r (add ?t ?t:(neg ?x)) => (add ?t ?t))")
            .unwrap();
    }

    #[test]
    fn doubling_chains_of_named_terms_are_bounded() {
        // ?t0 = neg x; ?t(k+1) = add ?tk ?tk: 2^k terms when expanded.
        let mut roots = vec!["?t0:(neg ?x)".to_string()];
        for k in 1..20 {
            roots.push(format!("?t{k}:(add ?t{} ?t{})", k - 1, k - 1));
        }
        let results: Vec<String> = (0..20).map(|k| format!("?t{k}")).collect();
        let text = format!(
            "(rule r (roots {}) => {})",
            roots.join(" "),
            results.join(" ")
        );
        assert!(
            error_of(&text).contains("more than 10000 terms"),
            "{}",
            error_of(&text)
        );
    }

    #[test]
    fn deep_source_written_patterns_are_bounded() {
        // A .pat pattern is one term per instruction: a 20,000-long chain is 20,000 deep.
        let mut text = String::from("func @deep_pattern(%v0: f32[2]) -> (f32[2]) {\n");
        for i in 1..=20_000 {
            text.push_str(&format!("  %v{i} = neg %v{} : f32[2]\n", i - 1));
        }
        text.push_str("  return %v20000\n}\nfunc @deep_replacement(%v0: f32[2]) -> (f32[2]) {\n  return %v0\n}\n");
        let mut set = RuleSet::new(Registry::standard());
        let e = set
            .add_pat_source("deep.pat", &text)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("in rule `deep`: the source pattern is nested deeper than 200"),
            "{e}"
        );
    }

    #[test]
    fn deep_chains_through_named_terms_are_bounded() {
        let chain = |inner: &str| format!("{}{inner}{}", "(neg ".repeat(150), ")".repeat(150));
        let text = format!(
            "(rule r (roots ?a:{} {}) => ?x ?x)",
            chain("?x"),
            chain("?a")
        );
        assert!(
            error_of(&text).contains("nested deeper than 200"),
            "{}",
            error_of(&text)
        );
    }
}
