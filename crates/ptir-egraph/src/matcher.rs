//! E-matching of single-root patterns, semi-naive by match.
//!
//! egg's pattern machine returns a match as the classes of its variables. The saturation loop
//! needs more to search semi-naively by match: the class of every pattern node the match went
//! through, to tell a match it has seen (all of them unchanged since) from a new one (one of
//! them new, merged or re-analysed since). [`TreeMatcher`] is a pattern machine that keeps
//! them: a pattern is compiled to [`Step`]s, one per op node of the pattern in pre-order, each
//! binding one e-node of the class a register holds and writing the e-node's children to the
//! registers after it, so that at the end the registers hold every class of the match.
//!
//! Ground subterms of a pattern (the `(dims ...)` attribute leaf of `dot_general`, a `(splat 0)`
//! operand) are not enumerated: each search looks their classes up once
//! ([`TreeMatcher::ground_classes`]) and a match compares a register with it, where egg scans
//! the attribute class at every candidate.
//!
//! **Semi-naive by match**, as egglog searches tuples newer than a timestamp. Each op e-node
//! carries the step it was added in ([`crate::language::Stamp`]), and each class the last step
//! in which it changed under its parents ([`crate::analysis::PtirAnalysis::class_stamps`]: its
//! analysis data changed, or it absorbed a class that had parents). A match is new since step
//! `t` if one of its e-nodes was added at `t` or later, or one of its registers below the root
//! holds a class changed at `t` or later. Any other match existed, through the same e-nodes
//! and with the same analysis data, when the rule last saw every match, so applying it again
//! changes nothing. This is complete:
//!
//! - a match through a new e-node is new by the e-node's stamp;
//! - a match made by a union has a register below the root whose class the union changed:
//!   either it absorbed a class with parents (one of those parents now reaches its e-nodes,
//!   or its parents reach the absorbed e-nodes), stamped; or it absorbed a parentless class,
//!   whose e-nodes only the kept class's parents now reach: those e-nodes are stamped as if
//!   new ([`crate::analysis`]'s `stamp`); a union under the root only matters at a register
//!   below it, and one at the root makes no match that was not rooted at either class;
//! - a constraint reads the analysis data of the variables' classes (registers below the
//!   root), stamped when it changes; a rule whose root is named may read the root's data,
//!   and its root is checked too ([`TreeMatcher::new`]'s `check_root`).
//!
//! Appliers that read more than the match (the builtin tuple rewrite reads its tuple class's
//! e-nodes) are searched without `since`.
//!
//! No recursion: the search backtracks over an explicit cursor per step.

use crate::analysis::PtirEGraph;
use crate::language::{NodeHead, PtirNode};
use egg::{ENodeOrVar, Id, Language, PatternAst, Subst, Var};
use smallvec::SmallVec;

/// A register: a slot holding an e-class during a search.
type Reg = u32;

/// A compiled single-root pattern.
#[derive(Clone, Debug)]
pub(crate) struct TreeMatcher {
    /// The op nodes of the pattern in pre-order; `steps[0]` is the root, searched in the
    /// class held by register 0.
    steps: Vec<Step>,
    /// Registers: the root, then the children of each step's e-node.
    regs: usize,
    /// Each variable and the register its first occurrence is in.
    vars: Vec<(Var, Reg)>,
    /// The ground subterms compared with a register, as patterns of their own (leaves first,
    /// the subterm last), in the order of [`Check::Ground`]'s index.
    ground: Vec<Vec<PtirNode>>,
    /// The first register whose class stamp makes a match new: 0 if the root's own is
    /// checked, else 1.
    first_checked: usize,
}

/// One op node of the pattern: bind an e-node of the class in `class` with this head.
#[derive(Clone, Debug)]
struct Step {
    class: Reg,
    head: NodeHead,
    arity: usize,
    /// The register of the e-node's first child (the others follow).
    out: Reg,
    /// What the e-node's children must satisfy.
    checks: SmallVec<[Check; 2]>,
}

/// A condition on the registers a step has just written.
#[derive(Clone, Copy, Debug)]
enum Check {
    /// A repeated variable: the two registers hold the same class.
    Same(Reg, Reg),
    /// A ground subterm: the register holds the class of `ground[i]`.
    Ground(Reg, usize),
}

impl TreeMatcher {
    /// Compiles a pattern whose root is an op node; `None` for a bare variable. With
    /// `check_root`, a change of the root class's analysis data makes its matches new (for
    /// a rule that may read it: one whose root term is named).
    pub(crate) fn new(ast: &PatternAst<PtirNode>, check_root: bool) -> Option<Self> {
        let nodes = ast.as_ref();
        let root = nodes.len().checked_sub(1)?;
        let ground_at = ground_subterms(nodes);
        let mut m = TreeMatcher {
            steps: Vec::new(),
            regs: 1,
            vars: Vec::new(),
            ground: Vec::new(),
            first_checked: usize::from(!check_root),
        };
        // Pre-order, children left to right: the order registers are written in at search
        // time, so the first occurrence of a variable is always written before its repeats.
        let mut todo: Vec<(usize, Reg)> = vec![(root, 0)];
        while let Some((at, class)) = todo.pop() {
            let ENodeOrVar::ENode(node) = &nodes[at] else {
                return None;
            };
            let out = Reg::try_from(m.regs).ok()?;
            let children = node.children();
            m.regs += children.len();
            let mut checks = SmallVec::new();
            let mut later = Vec::new();
            for (k, &child) in children.iter().enumerate() {
                let reg = out + Reg::try_from(k).ok()?;
                let child = usize::from(child);
                match &nodes[child] {
                    ENodeOrVar::Var(v) => match m.vars.iter().find(|(w, _)| w == v) {
                        Some(&(_, first)) => checks.push(Check::Same(reg, first)),
                        None => m.vars.push((*v, reg)),
                    },
                    ENodeOrVar::ENode(_) if ground_at[child] => {
                        checks.push(Check::Ground(reg, m.ground.len()));
                        m.ground.push(extract_ground(nodes, child));
                    }
                    ENodeOrVar::ENode(_) => later.push((child, reg)),
                }
            }
            // Pushed in reverse so that the leftmost child is the next step.
            todo.extend(later.into_iter().rev());
            m.steps.push(Step {
                class,
                head: node.discriminant(),
                arity: children.len(),
                out,
                checks,
            });
        }
        Some(m)
    }

    /// The head of the pattern's root: only classes holding an e-node with it can match.
    pub(crate) fn root_head(&self) -> NodeHead {
        self.steps[0].head
    }

    /// The classes of the pattern's ground subterms in `egraph`, or `None` if one is absent
    /// (then nothing matches).
    pub(crate) fn ground_classes(&self, egraph: &PtirEGraph) -> Option<Vec<Id>> {
        self.ground
            .iter()
            .map(|term| {
                let mut ids: SmallVec<[Id; 4]> = SmallVec::new();
                for node in term {
                    let node = node.clone().map_children(|c| ids[usize::from(c)]);
                    ids.push(egraph.lookup(node)?);
                }
                ids.last().copied()
            })
            .collect()
    }

    /// Appends to `out` the matches rooted at `class` (canonical), at most `limit` in all.
    /// `ground` is [`Self::ground_classes`]. With `since` and the class stamps, only the
    /// matches new since that step (see the module doc). Asks `stop` every
    /// [`STEPS_PER_STOP_CHECK`] steps and gives up when it answers true (returning false; the
    /// matches found so far are in `out`). One
    /// class can hold many matches (an associativity rule over a class of many products whose
    /// operands are products too), and the semi-naive filter can drop most of them after they
    /// were enumerated: the time of one class's search is not bounded by the matches it returns.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_class(
        &self,
        egraph: &PtirEGraph,
        class: Id,
        ground: &[Id],
        since: Option<(u32, &[u32])>,
        limit: usize,
        out: &mut Vec<Subst>,
        stop: &mut dyn FnMut() -> bool,
    ) -> bool {
        if out.len() >= limit {
            return true;
        }
        let mut steps = 0usize;
        let mut regs: SmallVec<[Id; 16]> = SmallVec::from_elem(class, self.regs);
        // Per step: the nodes of its class that may match, and the next one to try.
        let mut cursors: SmallVec<[(&[PtirNode], usize); 8]> =
            SmallVec::from_elem((&[][..], 0), self.steps.len());
        // Per step: the stamp of the e-node it bound.
        let mut stamps: SmallVec<[u32; 8]> = SmallVec::from_elem(0, self.steps.len());
        cursors[0] = (candidates(egraph, class, self.steps[0].head), 0);
        let mut k = 0;
        loop {
            steps += 1;
            if steps.is_multiple_of(STEPS_PER_STOP_CHECK) && stop() {
                return false;
            }
            let (nodes, next) = cursors[k];
            let Some(node) = nodes.get(next) else {
                if k == 0 {
                    return true;
                }
                k -= 1;
                continue;
            };
            cursors[k].1 = next + 1;
            let step = &self.steps[k];
            let children = node.children();
            if node.discriminant() != step.head || children.len() != step.arity {
                continue;
            }
            stamps[k] = match node {
                PtirNode::Op(kind, _) => kind.stamp.0,
                _ => 0,
            };
            let out_at = step.out as usize;
            regs[out_at..out_at + children.len()].copy_from_slice(children);
            let holds = step.checks.iter().all(|check| match *check {
                Check::Same(a, b) => regs[a as usize] == regs[b as usize],
                Check::Ground(a, g) => regs[a as usize] == ground[g],
            });
            if !holds {
                continue;
            }
            if k + 1 < self.steps.len() {
                k += 1;
                let step = &self.steps[k];
                cursors[k] = (candidates(egraph, regs[step.class as usize], step.head), 0);
                continue;
            }
            let new = since.is_none_or(|(since, class_stamps)| {
                let changed = |id: &Id| {
                    let stamp = class_stamps.get(usize::from(*id)).copied().unwrap_or(0);
                    stamp >= since
                };
                stamps.iter().any(|&s| s >= since) || regs[self.first_checked..].iter().any(changed)
            });
            if new {
                let mut subst = Subst::with_capacity(self.vars.len());
                for &(v, r) in &self.vars {
                    subst.insert(v, regs[r as usize]);
                }
                out.push(subst);
                if out.len() >= limit {
                    return true;
                }
            }
        }
    }
}

/// Matcher steps (e-nodes tried) between two calls of a search's stop test: a step costs
/// tens of nanoseconds, so a deadline is overshot by well under a millisecond.
pub(crate) const STEPS_PER_STOP_CHECK: usize = 1 << 12;

/// Classes below which egg's own search scans every node rather than bisect.
const BISECT_FROM: usize = 16;

/// The nodes of `class` that may have head `head`: all of them in a small class, else the
/// run of nodes with that head (egg keeps a clean class's nodes sorted, and a node's head is
/// the first thing it sorts by).
fn candidates(egraph: &PtirEGraph, class: Id, head: NodeHead) -> &[PtirNode] {
    let nodes = &egraph[class].nodes[..];
    if nodes.len() < BISECT_FROM {
        return nodes;
    }
    let start = nodes.partition_point(|n| n.discriminant() < head);
    let len = nodes[start..].partition_point(|n| n.discriminant() == head);
    &nodes[start..start + len]
}

/// Per pattern node: is it an op node with no variable below it?
fn ground_subterms(nodes: &[ENodeOrVar<PtirNode>]) -> Vec<bool> {
    let mut ground = vec![false; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        ground[i] = match node {
            ENodeOrVar::Var(_) => false,
            ENodeOrVar::ENode(n) => n.children().iter().all(|&c| ground[usize::from(c)]),
        };
    }
    ground
}

/// The ground subterm at `at` as a term of its own, leaves first (its nodes' children index
/// the term).
fn extract_ground(nodes: &[ENodeOrVar<PtirNode>], at: usize) -> Vec<PtirNode> {
    // Post-order with an explicit stack: a node is emitted after its children.
    let mut term: Vec<PtirNode> = Vec::new();
    let mut placed: Vec<Option<Id>> = vec![None; nodes.len()];
    let mut stack = vec![(at, false)];
    while let Some((i, expanded)) = stack.pop() {
        if placed[i].is_some() {
            continue;
        }
        let ENodeOrVar::ENode(node) = &nodes[i] else {
            continue;
        };
        if expanded {
            let node = node
                .clone()
                .map_children(|c| placed[usize::from(c)].unwrap_or(c));
            placed[i] = Some(Id::from(term.len()));
            term.push(node);
        } else {
            stack.push((i, true));
            for &c in node.children().iter().rev() {
                stack.push((usize::from(c), false));
            }
        }
    }
    term
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compile;
    use crate::saturate::{bundled_and_fuzzed, saturate, saturated, SaturationOptions, Scheduler};
    use ptir_ir::generate::{generate, matrix_chain, GenConfig};
    use ptir_pass::Limits;
    use ptir_rules::RuleSet;
    use std::time::Duration;

    fn programs() -> Vec<ptir_ir::Program> {
        let mut programs: Vec<_> = (0..32)
            .map(|seed| generate(&GenConfig::extended(seed, 40, vec![])))
            .collect();
        programs.extend((0..6).map(|seed| generate(&GenConfig::new(seed, 25))));
        programs.push(matrix_chain(7, 3).unwrap().0);
        programs
    }

    /// The matches as a set: each one's root and its variables' classes, in a fixed order.
    fn canonical(matches: impl IntoIterator<Item = (Id, Subst)>, vars: &[Var]) -> Vec<Vec<Id>> {
        let mut out: Vec<Vec<Id>> = matches
            .into_iter()
            .map(|(root, s)| {
                std::iter::once(root)
                    .chain(vars.iter().map(|v| s[*v]))
                    .collect()
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn finds_exactly_the_matches_egg_finds() {
        let rules = bundled_and_fuzzed(7_000, 60);
        let limits = SaturationOptions {
            limits: Limits {
                time: Duration::from_secs(600),
                iterations: Some(4),
                ..Limits::default()
            },
            scheduler: Scheduler::Simple,
            ..SaturationOptions::default()
        };
        let programs = programs();
        let mut compared = 0;
        for (program, mut lowered) in saturated(&programs, &rules, &limits) {
            let egraph = &mut lowered.egraph;
            let compiled = compile(&rules, egraph);
            crate::rebuild::rebuild(egraph);
            for rw in &compiled.rewrites {
                let Some(ast) = rw.searcher.get_pattern_ast() else {
                    continue;
                };
                let matcher = TreeMatcher::new(ast, true).expect("a single-root pattern");
                let vars = rw.searcher.vars();
                let theirs = (rw.searcher.search(egraph).into_iter())
                    .flat_map(|m| m.substs.into_iter().map(move |s| (m.eclass, s)));
                let mut ours = Vec::new();
                if let Some(ground) = matcher.ground_classes(egraph) {
                    for class in egraph.classes() {
                        let mut substs = Vec::new();
                        matcher.search_class(
                            egraph,
                            class.id,
                            &ground,
                            None,
                            usize::MAX,
                            &mut substs,
                            &mut || false,
                        );
                        ours.extend(substs.into_iter().map(|s| (class.id, s)));
                    }
                }
                let (theirs, ours) = (canonical(theirs, &vars), canonical(ours, &vars));
                assert_eq!(ours, theirs, "rule {}:\n{program}", rw.name);
                compared += ours.len();
            }
        }
        assert!(compared > 6_000, "only {compared} matches compared");
    }

    /// The matches of `matcher` rooted at `class` (at most `limit`), asking `stop`; whether
    /// the search completed.
    fn search(
        matcher: &TreeMatcher,
        egraph: &PtirEGraph,
        class: Id,
        ground: &[Id],
        limit: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> (bool, Vec<Subst>) {
        let mut out = Vec::new();
        let done = matcher.search_class(egraph, class, ground, None, limit, &mut out, stop);
        (done, out)
    }

    /// Rule `name` of `rules` compiled against `lowered`'s e-graph (rebuilt), as our matcher,
    /// with its ground classes.
    fn compiled_matcher(
        lowered: &mut crate::Lowered,
        rules: &RuleSet,
        name: &str,
    ) -> (TreeMatcher, Vec<Id>) {
        let egraph = &mut lowered.egraph;
        let (compiled, r) = crate::rules::compiled_rewrite(egraph, rules, name);
        let rw = &compiled.rewrites[r];
        let matcher = TreeMatcher::new(rw.searcher.get_pattern_ast().unwrap(), false).unwrap();
        let ground = matcher.ground_classes(egraph).unwrap();
        (matcher, ground)
    }

    /// The seed-1002833 shape of the size-120 campaign: one class's search ran for seconds
    /// past the deadline. A search asks its stop test every few thousand steps, and one that
    /// is told to stop returns at once, having kept what it found.
    #[test]
    fn a_search_asks_its_stop_test_inside_a_class() {
        // A product of ten integers: associativity and commutativity put every bracketing
        // of every subset in a class, over classes that hold as many.
        let params: Vec<String> = (0..10).map(|i| format!("%{i}: i32[2]")).collect();
        let mut text = format!("func @f({}) -> (i32[2]) {{\n", params.join(", "));
        for i in 1..10 {
            let prev = if i == 1 { 0 } else { 8 + i };
            text += &format!("  %{} = mul %{prev}, %{i} : i32[2]\n", 9 + i);
        }
        text += "  return %18\n}\n";
        let program = ptir_ir::parse(&text).unwrap();
        let mut lowered = crate::lower(&program, "f").unwrap();
        let mut rules = RuleSet::bundled().unwrap();
        (rules.add_source("unbounded.rules", crate::saturate::UNBOUNDED_RULES)).unwrap();
        let limits = SaturationOptions {
            limits: Limits {
                iterations: Some(5),
                time: Duration::from_secs(600),
                ..Limits::default()
            },
            scheduler: Scheduler::Simple,
            ..SaturationOptions::default()
        };
        saturate(&mut lowered, &rules, &limits);
        let (matcher, ground) = compiled_matcher(&mut lowered, &rules, "mul-assoc-int-unbounded");
        let egraph = &lowered.egraph;
        let (mut stopped, mut completed) = (0, 0);
        for class in egraph.classes() {
            let (done, all) = search(&matcher, egraph, class.id, &ground, usize::MAX, &mut || {
                false
            });
            assert!(done);
            let mut asked = 0;
            let (finished, cut) =
                search(&matcher, egraph, class.id, &ground, usize::MAX, &mut || {
                    asked += 1;
                    true
                });
            if finished {
                assert_eq!(asked, 0);
                assert_eq!(cut.len(), all.len());
                completed += 1;
            } else {
                assert_eq!(asked, 1, "it stops at the first answer");
                assert!(cut.len() <= all.len());
                stopped += 1;
            }
        }
        assert!(stopped > 0, "no class took {STEPS_PER_STOP_CHECK} steps");
        assert!(completed > 0);
    }

    #[test]
    fn a_limit_cuts_the_search_short() {
        let program = matrix_chain(6, 1).unwrap().0;
        let mut lowered = crate::lower(&program, "chain").unwrap();
        let rules = RuleSet::bundled().unwrap();
        saturate(&mut lowered, &rules, &SaturationOptions::default());
        let (matcher, ground) = compiled_matcher(&mut lowered, &rules, "dot-assoc-int");
        let egraph = &lowered.egraph;
        let root = egraph.find(lowered.root);
        let mut all = Vec::new();
        let mut some = Vec::new();
        for class in egraph.classes() {
            all.extend(
                search(&matcher, egraph, class.id, &ground, usize::MAX, &mut || {
                    false
                })
                .1,
            );
            let left = 3 - some.len();
            some.extend(search(&matcher, egraph, class.id, &ground, left, &mut || false).1);
        }
        assert!(all.len() > 3, "{} matches in @chain ({root})", all.len());
        assert_eq!(some.len(), 3);
        // With every class and node older than the step asked about, nothing is new.
        let mut new = Vec::new();
        let stamps = vec![0; egraph.number_of_classes() * 4];
        for class in egraph.classes() {
            let since = Some((u32::MAX - 1, &stamps[..]));
            matcher.search_class(
                egraph,
                class.id,
                &ground,
                since,
                usize::MAX,
                &mut new,
                &mut || false,
            );
        }
        assert!(new.is_empty(), "{} matches", new.len());
    }
}
