//! Local search on DAG cost: re-choose one class at a time while the exact DAG cost drops.
//!
//! The state is a full choice function (a node for every productive class, reachable or not)
//! that is kept acyclic, with a reference count per class: the roots and the chosen nodes'
//! child slots that point at it from reachable classes. A class is in the DAG iff its count is
//! positive, and `total` is the DAG cost. A move at a reachable class `c` from node `a` to `b`:
//!
//! 1. for each candidate `b`: checks that `b`'s children cannot reach `c` (no cycle), acquires
//!    them (what `b` brings in joins the DAG, cascading), releases `a`'s children (what only
//!    `a` used leaves the DAG, cascading), reads the cost, and undoes both from logs,
//! 2. keeps the best `b` if it beats `a` by more than round-off.
//!
//! Acquiring before releasing keeps both cascades to what differs between `a` and `b`: on a
//! chain, re-choosing a class whose alternatives all use the rest of the chain costs O(1).
//!
//! The cycle check uses heights: `height[x] > height[y]` whenever `x`'s choice has child `y`,
//! so only classes higher than `c` can reach it and the search is pruned below that. After a
//! move heights are raised along the parents as needed (never lowered, which stays valid).

use std::time::{Duration, Instant};

use super::graph::{ClassId, Graph, NodeId};

/// A choice per class (`None` for classes without an acyclic term).
pub(crate) type Choice = Vec<Option<NodeId>>;

/// Makes `choice` acyclic by falling back to `fallback`'s choice (which must be acyclic) on
/// each cycle, and fills classes without a choice from `fallback`.
pub(crate) fn repair(
    graph: &Graph,
    choice: &[Option<NodeId>],
    fallback: &[Option<NodeId>],
) -> Choice {
    let mut choice: Choice = choice.iter().zip(fallback).map(|(c, f)| c.or(*f)).collect();
    while let Some(cycle) = find_cycle(graph, &choice) {
        let fix = cycle
            .iter()
            .find(|c| choice[c.index()] != fallback[c.index()]);
        // An acyclic fallback cannot close a cycle alone, so `fix` exists.
        let Some(&c) = fix else { break };
        choice[c.index()] = fallback[c.index()];
    }
    choice
}

/// A cycle of the full choice graph (all classes with a choice), if any.
pub(crate) fn find_cycle(graph: &Graph, choice: &[Option<NodeId>]) -> Option<Vec<ClassId>> {
    let mut state = vec![0u8; graph.num_classes()];
    for start in graph.classes() {
        if state[start.index()] != 0 || choice[start.index()].is_none() {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        state[start.index()] = 1;
        while let Some(&mut (c, ref mut i)) = stack.last_mut() {
            let children = choice[c.index()].map_or(&[][..], |n| graph.children(n));
            let Some(&d) = children.get(*i) else {
                state[c.index()] = 2;
                stack.pop();
                continue;
            };
            *i += 1;
            match state[d.index()] {
                0 if choice[d.index()].is_some() => {
                    state[d.index()] = 1;
                    stack.push((d, 0));
                }
                1 => {
                    let from = stack.iter().position(|&(x, _)| x == d).unwrap_or(0);
                    return Some(stack[from..].iter().map(|&(x, _)| x).collect());
                }
                _ => {}
            }
        }
    }
    None
}

/// Improves an acyclic full choice until no single-class move lowers the DAG cost, or until
/// `limit` has passed.
pub(crate) fn improve(graph: &Graph, choice: Choice, limit: Duration) -> Choice {
    if limit.is_zero() {
        return choice;
    }
    let deadline = Instant::now() + limit;
    let mut search = Search::new(graph, choice);
    while search.pass(deadline) && Instant::now() < deadline {}
    search.choice
}

struct Search<'g> {
    graph: &'g Graph,
    choice: Choice,
    /// Usable nodes of each class whose children all have a choice.
    candidates: Vec<Vec<NodeId>>,
    refc: Vec<u32>,
    height: Vec<u32>,
    total: f64,
    /// Scratch: classes to visit, the log of acquisitions, and the cycle check's marks.
    stack: Vec<ClassId>,
    log: Vec<ClassId>,
    /// The log of releases while a candidate is priced.
    released: Vec<ClassId>,
    mark: Vec<u32>,
    epoch: u32,
}

impl<'g> Search<'g> {
    fn new(graph: &'g Graph, choice: Choice) -> Self {
        let candidates = graph
            .classes()
            .map(|c| {
                let ok = |n: &NodeId| {
                    graph.is_usable(*n)
                        && graph
                            .children(*n)
                            .iter()
                            .all(|d| choice[d.index()].is_some())
                };
                graph.node_ids(c).filter(ok).collect()
            })
            .collect();
        let n = graph.num_classes();
        let mut search = Search {
            graph,
            candidates,
            refc: vec![0; n],
            height: heights(graph, &choice),
            choice,
            total: 0.0,
            stack: Vec::new(),
            log: Vec::new(),
            released: Vec::new(),
            mark: vec![0; n],
            epoch: 0,
        };
        for &r in graph.roots() {
            search.acquire(&[r]);
        }
        search.log.clear();
        search
    }

    /// One sweep over the reachable classes; whether some move was made.
    fn pass(&mut self, deadline: Instant) -> bool {
        let mut improved = false;
        for (i, c) in self.graph.classes().enumerate() {
            if i % 64 == 0 && Instant::now() >= deadline {
                break;
            }
            if self.refc[c.index()] > 0 && self.candidates[c.index()].len() > 1 {
                improved |= self.try_class(c);
            }
        }
        improved
    }

    /// Tries every candidate of `c` and keeps the best if it lowers the DAG cost.
    ///
    /// A candidate `b` is priced by acquiring its children first and only then releasing the
    /// current node's: what both use keeps a positive count, so neither cascade walks it. (In
    /// the other order, releasing a node that alone uses a long chain below it would free the
    /// whole chain, and acquiring the candidate would take it back: quadratic on chains.)
    fn try_class(&mut self, c: ClassId) -> bool {
        let g = self.graph;
        let Some(a) = self.choice[c.index()] else {
            return false;
        };
        let before = self.total;
        let mut bar = before - 1e-9 * before.abs().max(1.0);
        let mut best = None;
        for i in 0..self.candidates[c.index()].len() {
            let b = self.candidates[c.index()][i];
            if b == a || !self.acyclic_with(c, b) {
                continue;
            }
            self.acquire(g.children(b));
            self.release(g.children(a), true);
            let cost = self.total - g.cost(a) + g.cost(b);
            self.undo_release();
            self.undo_acquire();
            if cost < bar {
                (bar, best) = (cost, Some(b));
            }
        }
        let Some(b) = best else {
            return false;
        };
        self.acquire(g.children(b));
        self.release(g.children(a), false);
        self.log.clear();
        self.choice[c.index()] = Some(b);
        self.total += g.cost(b) - g.cost(a);
        self.raise_height(c, b);
        true
    }

    /// Adds a reference to each class of `roots`, cascading into classes that join the DAG and
    /// logging every increment.
    fn acquire(&mut self, roots: &[ClassId]) {
        let g = self.graph;
        self.stack.clear();
        self.stack.extend_from_slice(roots);
        while let Some(x) = self.stack.pop() {
            self.refc[x.index()] += 1;
            self.log.push(x);
            if self.refc[x.index()] > 1 {
                continue;
            }
            let Some(n) = self.choice[x.index()] else {
                continue;
            };
            self.total += g.cost(n);
            self.stack.extend_from_slice(g.children(n));
        }
    }

    /// Reverses the logged increments, newest first.
    fn undo_acquire(&mut self) {
        while let Some(x) = self.log.pop() {
            self.refc[x.index()] -= 1;
            if self.refc[x.index()] == 0 {
                if let Some(n) = self.choice[x.index()] {
                    self.total -= self.graph.cost(n);
                }
            }
        }
    }

    /// Removes a reference from each class of `roots`, cascading into classes that leave, and
    /// logging every decrement if asked.
    fn release(&mut self, roots: &[ClassId], log: bool) {
        let g = self.graph;
        self.stack.clear();
        self.stack.extend_from_slice(roots);
        while let Some(x) = self.stack.pop() {
            self.refc[x.index()] -= 1;
            if log {
                self.released.push(x);
            }
            if self.refc[x.index()] > 0 {
                continue;
            }
            if let Some(n) = self.choice[x.index()] {
                self.total -= g.cost(n);
                self.stack.extend_from_slice(g.children(n));
            }
        }
    }

    /// Reverses the logged decrements, newest first.
    fn undo_release(&mut self) {
        while let Some(x) = self.released.pop() {
            self.refc[x.index()] += 1;
            if self.refc[x.index()] == 1 {
                if let Some(n) = self.choice[x.index()] {
                    self.total += self.graph.cost(n);
                }
            }
        }
    }

    /// Whether choosing `b` for `c` keeps the choice graph acyclic.
    fn acyclic_with(&mut self, c: ClassId, b: NodeId) -> bool {
        let g = self.graph;
        if self.epoch == u32::MAX {
            self.mark.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
        let h = self.height[c.index()];
        let mut stack: Vec<ClassId> = g.children(b).to_vec();
        while let Some(x) = stack.pop() {
            if x == c {
                return false;
            }
            if self.height[x.index()] <= h || self.mark[x.index()] == self.epoch {
                continue;
            }
            self.mark[x.index()] = self.epoch;
            if let Some(n) = self.choice[x.index()] {
                stack.extend_from_slice(g.children(n));
            }
        }
        true
    }

    /// Restores `height[x] > height[y]` along chosen edges after `c` chose `b`.
    fn raise_height(&mut self, c: ClassId, b: NodeId) {
        let g = self.graph;
        let need = g
            .children(b)
            .iter()
            .map(|d| self.height[d.index()] + 1)
            .max()
            .unwrap_or(0);
        if need <= self.height[c.index()] {
            return;
        }
        self.height[c.index()] = need;
        let mut stack = vec![c];
        while let Some(x) = stack.pop() {
            for &p in g.parents(x) {
                let pc = g.class_of(p);
                if self.choice[pc.index()] == Some(p)
                    && self.height[pc.index()] <= self.height[x.index()]
                {
                    self.height[pc.index()] = self.height[x.index()] + 1;
                    stack.push(pc);
                }
            }
        }
    }
}

/// Heights of an acyclic full choice: 0 for leaves, else one more than the highest child.
fn heights(graph: &Graph, choice: &[Option<NodeId>]) -> Vec<u32> {
    let mut height = vec![0u32; graph.num_classes()];
    let mut done = vec![false; graph.num_classes()];
    for start in graph.classes() {
        let mut stack = vec![(start, false)];
        while let Some((c, expanded)) = stack.pop() {
            if done[c.index()] {
                continue;
            }
            let children = choice[c.index()].map_or(&[][..], |n| graph.children(n));
            if expanded {
                let h = children
                    .iter()
                    .map(|d| height[d.index()] + 1)
                    .max()
                    .unwrap_or(0);
                height[c.index()] = h;
                done[c.index()] = true;
            } else {
                stack.push((c, true));
                stack.extend(
                    children
                        .iter()
                        .filter(|d| !done[d.index()])
                        .map(|&d| (d, false)),
                );
            }
        }
    }
    height
}
