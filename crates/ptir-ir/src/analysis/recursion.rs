//! Recursion: the functions of a program that can reach themselves through calls, from the
//! call graph's strongly connected components, in time linear in the calls. (The call graph's
//! transitive closure would hold a tuple per pair of functions: 200M for a chain of 20,000
//! functions each calling the next.) Inlining keeps calls of these functions; speculation
//! counts them as hazards (a recursion may not terminate).

use crate::ops::Op;
use crate::program::Program;
use rustc_hash::{FxHashMap, FxHashSet};

/// The call graph of `program`: for each function (by index), the indices of the functions of
/// the program it calls, once per call site, in program order (calls of externs left out).
pub fn call_edges(program: &Program) -> Vec<Vec<usize>> {
    let index: FxHashMap<&str, usize> = (program.functions.iter().enumerate())
        .map(|(i, f)| (f.name.as_str(), i))
        .collect();
    (program.functions.iter())
        .map(|f| {
            let mut out = Vec::new();
            f.body.walk(&mut |inst, _| {
                if let Op::Call { callee } = &inst.op {
                    if let Some(&j) = index.get(callee.as_str()) {
                        out.push(j);
                    }
                }
            });
            out
        })
        .collect()
}

/// The functions of `program` that can reach themselves through calls (Tarjan's strongly
/// connected components, iteratively: a component of several functions, or one function that
/// calls itself).
pub fn recursive_functions(program: &Program) -> FxHashSet<&str> {
    let callees = call_edges(program);
    let n = callees.len();
    let (mut order, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on_stack, mut stack, mut next) = (vec![false; n], Vec::new(), 0);
    let mut recursive = FxHashSet::default();
    for root in 0..n {
        if order[root] != usize::MAX {
            continue;
        }
        // (node, position in its callee list)
        let mut work = vec![(root, 0)];
        while let Some(&mut (v, ref mut at)) = work.last_mut() {
            if *at == 0 {
                order[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = callees[v].get(*at) {
                *at += 1;
                if order[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 || callees[v].contains(&v) {
                    recursive.extend(
                        component
                            .iter()
                            .map(|&w| program.functions[w].name.as_str()),
                    );
                }
            }
        }
    }
    recursive
}
