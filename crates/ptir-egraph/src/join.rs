//! Multi-root patterns searched by a hash join of their roots' matches.
//!
//! egg's `MultiPattern` matches its first root at an e-class and then *scans every e-class*
//! for each further root, so one search costs (matches of the first root) x (e-classes): on
//! an N-layer model, where both are proportional to N, the two-root `moments` rule alone made
//! saturation quadratic. [`JoinPattern`] instead searches each root once, through egg's
//! per-operator class index, and joins the root matches on the pattern variables they share
//! (a hash join, as relational e-matching does): the cost is the sum of the roots' matches
//! plus the size of the result.
//!
//! The join is exact: a substitution is produced iff every root matches under it, which is
//! what `MultiPattern` computes. Each root's class is bound to its root variable, as egg's
//! multi-patterns do, so appliers find the roots in the substitution. Results come in a
//! deterministic order: the order of the first root's matches, then of each further root's.

use egg::{
    Analysis, EGraph, ENodeOrVar, Id, Language, Pattern, SearchMatches, Searcher, Subst, Var,
};
use std::collections::HashMap;

/// A pattern with several roots, each bound to a variable, searched by a hash join.
///
/// Its unit test `joins_roots_on_shared_variables` shows it on a small e-graph.
#[derive(Clone, Debug)]
pub struct JoinPattern<L: Language> {
    /// The roots, patterns with an operator at the top first (they are searched through the
    /// class index), bare variables after (they are read off the join).
    roots: Vec<(Var, Pattern<L>)>,
}

impl<L: Language> JoinPattern<L> {
    /// A join of `roots`, each a variable that binds the root's class and its pattern.
    pub fn new(mut roots: Vec<(Var, Pattern<L>)>) -> Self {
        roots.sort_by_key(|(_, p)| bare_var(p).is_some());
        JoinPattern { roots }
    }

    /// Every substitution under which all roots match, at most `limit`, grouped by the class
    /// of the first root.
    fn join<A: Analysis<L>>(
        &self,
        egraph: &EGraph<L, A>,
        first: Option<Id>,
        limit: usize,
    ) -> Vec<SearchMatches<'_, L>> {
        let mut bound: Vec<Var> = Vec::new();
        let mut rows: Vec<Subst> = vec![Subst::default()];
        for (k, (root, pattern)) in self.roots.iter().enumerate() {
            let last = k + 1 == self.roots.len();
            let cap = if last { limit } else { usize::MAX };
            rows = match bare_var(pattern) {
                Some(v) => self.bind_bare(egraph, rows, *root, v, &bound, cap),
                None => {
                    let found = match (k, first) {
                        (0, Some(id)) => pattern.search_eclass(egraph, id).into_iter().collect(),
                        _ => pattern.search(egraph),
                    };
                    join_root(rows, &bound, *root, pattern, &found, cap)
                }
            };
            bound.push(*root);
            bound.extend(pattern.vars());
            bound.sort();
            bound.dedup();
            if rows.is_empty() {
                return Vec::new();
            }
        }
        group_by_first(&self.roots[0].0, rows)
    }

    /// Extends each row with a root that is a bare variable `v`: its class if `v` is bound,
    /// else every class (a root that shares nothing with the others).
    fn bind_bare<A: Analysis<L>>(
        &self,
        egraph: &EGraph<L, A>,
        rows: Vec<Subst>,
        root: Var,
        v: Var,
        bound: &[Var],
        cap: usize,
    ) -> Vec<Subst> {
        let mut out = Vec::new();
        for row in rows {
            if bound.binary_search(&v).is_ok() {
                let Some(&id) = row.get(v) else { continue };
                let mut row = row;
                row.insert(root, id);
                out.push(row);
            } else {
                for class in egraph.classes() {
                    let mut r = row.clone();
                    r.insert(v, class.id);
                    r.insert(root, class.id);
                    out.push(r);
                    if out.len() >= cap {
                        return out;
                    }
                }
            }
            if out.len() >= cap {
                break;
            }
        }
        out
    }
}

/// The variable a pattern is, if it is nothing else.
fn bare_var<L: Language>(p: &Pattern<L>) -> Option<Var> {
    match p.ast.as_ref() {
        [ENodeOrVar::Var(v)] => Some(*v),
        _ => None,
    }
}

/// Joins `rows` (which bind `bound`, sorted) with the matches `found` of `pattern`, binding
/// `root` to each match's class; at most `cap` rows.
fn join_root<L: Language>(
    rows: Vec<Subst>,
    bound: &[Var],
    root: Var,
    pattern: &Pattern<L>,
    found: &[SearchMatches<'_, L>],
    cap: usize,
) -> Vec<Subst> {
    let vars = pattern.vars();
    let shared: Vec<Var> = vars
        .iter()
        .copied()
        .filter(|v| bound.binary_search(v).is_ok())
        .collect();
    let fresh: Vec<Var> = vars
        .iter()
        .copied()
        .filter(|v| bound.binary_search(v).is_err())
        .collect();
    let key =
        |s: &Subst| -> Option<Vec<Id>> { shared.iter().map(|v| s.get(*v).copied()).collect() };
    // The matches of this root by the classes of the shared variables, in search order.
    let mut index: HashMap<Vec<Id>, Vec<(Id, &Subst)>> = HashMap::new();
    for m in found {
        for s in &m.substs {
            if let Some(k) = key(s) {
                index.entry(k).or_default().push((m.eclass, s));
            }
        }
    }
    let mut out = Vec::new();
    for row in rows {
        let Some(candidates) = key(&row).and_then(|k| index.get(&k)) else {
            continue;
        };
        for (class, s) in candidates {
            let mut r = row.clone();
            for v in &fresh {
                if let Some(id) = s.get(*v) {
                    r.insert(*v, *id);
                }
            }
            r.insert(root, *class);
            out.push(r);
            if out.len() >= cap {
                return out;
            }
        }
    }
    out
}

/// The rows as search matches, one per class of the first root (in order of first sight).
fn group_by_first<'a, L: Language>(first: &Var, rows: Vec<Subst>) -> Vec<SearchMatches<'a, L>> {
    let mut out: Vec<SearchMatches<'a, L>> = Vec::new();
    let mut at: HashMap<Id, usize> = HashMap::new();
    for row in rows {
        let Some(&class) = row.get(*first) else {
            continue;
        };
        let k = *at.entry(class).or_insert_with(|| {
            out.push(SearchMatches {
                eclass: class,
                substs: Vec::new(),
                ast: None,
            });
            out.len() - 1
        });
        out[k].substs.push(row);
    }
    out
}

impl<L: Language, A: Analysis<L>> Searcher<L, A> for JoinPattern<L> {
    fn search_with_limit(&self, egraph: &EGraph<L, A>, limit: usize) -> Vec<SearchMatches<'_, L>> {
        if limit == 0 {
            return Vec::new();
        }
        self.join(egraph, None, limit)
    }

    fn search_eclass_with_limit(
        &self,
        egraph: &EGraph<L, A>,
        eclass: Id,
        limit: usize,
    ) -> Option<SearchMatches<'_, L>> {
        if limit == 0 {
            return None;
        }
        self.join(egraph, Some(eclass), limit).into_iter().next()
    }

    fn vars(&self) -> Vec<Var> {
        let mut vars: Vec<Var> = self
            .roots
            .iter()
            .flat_map(|(root, p)| std::iter::once(*root).chain(p.vars()))
            .collect();
        vars.sort();
        vars.dedup();
        vars
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egg::{MultiPattern, SymbolLang};

    type EG = EGraph<SymbolLang, ()>;

    #[test]
    fn joins_roots_on_shared_variables() {
        let mut eg: EGraph<SymbolLang, ()> = EGraph::default();
        let x = eg.add_expr(&"(f x)".parse().unwrap());
        let y = eg.add_expr(&"(g x)".parse().unwrap());
        eg.add_expr(&"(g y)".parse().unwrap());
        crate::rebuild::rebuild(&mut eg);
        let p = |s: &str| -> Pattern<SymbolLang> { s.parse().unwrap() };
        let var = |s: &str| -> Var { s.parse().unwrap() };
        let join = JoinPattern::new(vec![(var("?r0"), p("(f ?a)")), (var("?r1"), p("(g ?a)"))]);
        let found = join.search(&eg);
        let substs: Vec<_> = found.iter().flat_map(|m| &m.substs).collect();
        assert_eq!(substs.len(), 1); // only `x` is under both `f` and `g`
        assert_eq!(substs[0].get(var("?r0")), Some(&x));
        assert_eq!(substs[0].get(var("?r1")), Some(&y));
    }

    fn var(s: &str) -> Var {
        s.parse().expect("a variable")
    }

    fn pat(s: &str) -> Pattern<SymbolLang> {
        s.parse().expect("a pattern")
    }

    /// Every substitution, restricted to `vars` and sorted, so two searchers compare as sets.
    fn canonical(ms: &[SearchMatches<'_, SymbolLang>], vars: &[Var]) -> Vec<Vec<Option<Id>>> {
        let mut rows: Vec<Vec<Option<Id>>> = ms
            .iter()
            .flat_map(|m| &m.substs)
            .map(|s| vars.iter().map(|v| s.get(*v).copied()).collect())
            .collect();
        rows.sort();
        rows
    }

    fn graph(exprs: &[&str]) -> EG {
        let mut eg = EG::default();
        for e in exprs {
            eg.add_expr(&e.parse().expect("an expression"));
        }
        crate::rebuild::rebuild(&mut eg);
        eg
    }

    /// The join finds exactly what egg's `MultiPattern` finds.
    fn agrees_with_multipattern(eg: &EG, roots: &[(&str, &str)]) {
        let roots: Vec<(Var, Pattern<SymbolLang>)> =
            roots.iter().map(|(v, p)| (var(v), pat(p))).collect();
        let multi = MultiPattern::new(roots.iter().map(|(v, p)| (*v, p.ast.clone())).collect());
        let join = JoinPattern::new(roots);
        let vars = Searcher::<SymbolLang, ()>::vars(&join);
        let expected = canonical(&multi.search(eg), &vars);
        let got = canonical(&join.search(eg), &vars);
        assert_eq!(got, expected);
    }

    #[test]
    fn joins_on_shared_variables_like_multipattern() {
        let eg = graph(&[
            "(mean (sum x) n)",
            "(var (sum (mul x x)) n)",
            "(mean (sum y) n)",
            "(var (sum (mul y y)) m)",
            "(var (sum (mul z z)) n)",
        ]);
        agrees_with_multipattern(
            &eg,
            &[
                ("?m", "(mean (sum ?x) ?n)"),
                ("?v", "(var (sum (mul ?x ?x)) ?n)"),
            ],
        );
    }

    #[test]
    fn roots_sharing_nothing_give_the_cross_product() {
        let eg = graph(&["(f a)", "(f b)", "(g c)", "(g d)", "(g e)"]);
        agrees_with_multipattern(&eg, &[("?r", "(f ?a)"), ("?s", "(g ?b)")]);
        let join = JoinPattern::new(vec![(var("?r"), pat("(f ?a)")), (var("?s"), pat("(g ?b)"))]);
        let n: usize = join.search(&eg).iter().map(|m| m.substs.len()).sum();
        assert_eq!(n, 6);
    }

    #[test]
    fn a_root_that_is_a_bound_variable_is_its_class() {
        let eg = graph(&["(f a)", "(g b)"]);
        agrees_with_multipattern(&eg, &[("?r", "(f ?a)"), ("?s", "?a")]);
    }

    #[test]
    fn three_roots_and_the_limit() {
        let eg = graph(&[
            "(f a b)", "(g b c)", "(h c a)", "(h c b)", "(f b b)", "(g b a)",
        ]);
        agrees_with_multipattern(
            &eg,
            &[
                ("?r", "(f ?a ?b)"),
                ("?s", "(g ?b ?c)"),
                ("?t", "(h ?c ?a)"),
            ],
        );
        let join = JoinPattern::new(vec![
            (var("?r"), pat("(f ?a ?b)")),
            (var("?s"), pat("(g ?b ?c)")),
        ]);
        let n = |limit| -> usize {
            Searcher::<SymbolLang, ()>::search_with_limit(&join, &eg, limit)
                .iter()
                .map(|m| m.substs.len())
                .sum()
        };
        assert_eq!(n(usize::MAX), 4); // two `f`s ending in `b` times two `g`s starting with it
        assert_eq!(n(1), 1);
        assert_eq!(n(0), 0);
    }

    #[test]
    fn searching_one_class_restricts_the_first_root() {
        let eg = graph(&["(f a)", "(f b)", "(g a)", "(g b)"]);
        let join = JoinPattern::new(vec![(var("?r"), pat("(f ?x)")), (var("?s"), pat("(g ?x)"))]);
        let fa = eg
            .lookup_expr(&"(f a)".parse().expect("expr"))
            .expect("present");
        let m = join.search_eclass(&eg, fa).expect("a match at (f a)");
        assert_eq!(m.eclass, fa);
        assert_eq!(m.substs.len(), 1);
    }
}
