//! `single-use` in saturation: decided at extraction.
//!
//! The greedy driver decides `(single-use ?t)` when it matches: the value has exactly one user.
//! An e-graph has no use counts (a class's parents are every way of computing every user), so
//! saturation applies the rule wherever the rest of it matches and records a [`Guard`]: the
//! fused e-node the application put in each root's class, and the classes of the single-use
//! values with their users inside the pattern. Extraction then takes the fused e-node only where
//! no single-use value is extracted for another user ([`violations`]): a choice that breaks a
//! guard has its fused e-nodes banned and is extracted again, so the class falls back to the
//! unfused form (the matched e-node, still in the class). So both engines fuse a value with one
//! use and neither one with two, and no rule is left out of either engine.
//!
//! A fused e-node several applications built is valid if one of them holds; one the input
//! itself computed (a lowered e-node) is never banned: reusing a value the program computes
//! anyway duplicates no work.

use crate::analysis::PtirEGraph;
use crate::language::PtirNode;
use crate::lower::Lowered;
use egg::{Id, Language};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;

/// A class and one of its e-nodes, both canonical.
pub(crate) type Ban = (Id, PtirNode);

fn canonical(eg: &PtirEGraph, node: &PtirNode) -> PtirNode {
    node.clone().map_children(|c| eg.find(c))
}

/// The fused e-nodes `chosen` takes against their guards: each is chosen in a class the
/// extraction reaches, and every guard that built it has a single-use value with a user in the
/// extraction beyond its users inside the pattern. `chosen` gives the e-node of a class.
pub(crate) fn violations(lowered: &Lowered, chosen: &dyn Fn(Id) -> Option<PtirNode>) -> Vec<Ban> {
    let eg = &lowered.egraph;
    let guards = &eg.analysis.single_use;
    if guards.is_empty() {
        return Vec::new();
    }
    // The classes the extraction reaches, and the users of each.
    let root = eg.find(lowered.root);
    let mut reached: FxHashSet<Id> = FxHashSet::default();
    let mut users: FxHashMap<Id, SmallVec<[Id; 2]>> = FxHashMap::default();
    let mut stack = vec![root];
    reached.insert(root);
    while let Some(c) = stack.pop() {
        let Some(node) = chosen(c) else { continue };
        for child in node.children() {
            let child = eg.find(*child);
            let u = users.entry(child).or_default();
            if !u.contains(&c) {
                u.push(c);
            }
            if reached.insert(child) {
                stack.push(child);
            }
        }
    }
    let input: FxHashSet<Ban> = (0..lowered.lowered_nodes.min(eg.nodes().len()))
        .map(|i| {
            let id = Id::from(i);
            (eg.find(id), canonical(eg, eg.id_to_node(id)))
        })
        .collect();
    // Per fused e-node taken: does some guard that built it hold?
    let mut taken: FxHashMap<Ban, bool> = FxHashMap::default();
    for g in guards {
        let active: SmallVec<[Ban; 1]> = (g.fused.iter())
            .map(|(r, f)| (eg.find(*r), canonical(eg, f)))
            .filter(|(r, f)| reached.contains(r) && chosen(*r).as_ref() == Some(f))
            .filter(|ban| !input.contains(ban))
            .collect();
        if active.is_empty() {
            continue;
        }
        let holds = g.values.iter().all(|(t, inside)| {
            let inside: SmallVec<[Id; 1]> = inside.iter().map(|p| eg.find(*p)).collect();
            let outside = users
                .get(&eg.find(*t))
                .map_or(0, |u| u.iter().filter(|c| !inside.contains(c)).count());
            inside.len() + outside == 1
        });
        for ban in active {
            *taken.entry(ban).or_insert(false) |= holds;
        }
    }
    let mut out: Vec<Ban> = (taken.into_iter())
        .filter(|(_, holds)| !holds)
        .map(|(ban, _)| ban)
        .collect();
    out.sort_by_key(|(c, _)| *c);
    out
}

/// Every fused e-node some guard recorded (canonical), except the input's own: what is banned
/// when rounds of extraction do not settle.
pub(crate) fn all_fused(lowered: &Lowered) -> Vec<Ban> {
    let eg = &lowered.egraph;
    let input: FxHashSet<Ban> = (0..lowered.lowered_nodes.min(eg.nodes().len()))
        .map(|i| {
            let id = Id::from(i);
            (eg.find(id), canonical(eg, eg.id_to_node(id)))
        })
        .collect();
    let mut out: Vec<Ban> = (eg.analysis.single_use.iter())
        .flat_map(|g| g.fused.iter())
        .map(|(r, f)| (eg.find(*r), canonical(eg, f)))
        .filter(|ban| !input.contains(ban))
        .collect();
    out.sort_by_key(|(c, _)| *c);
    out.dedup();
    out
}
