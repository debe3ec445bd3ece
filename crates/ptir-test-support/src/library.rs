//! A generated library of many sound rules that a transformer block never fires: the
//! workload of the pattern-index benchmark (seed 004: a library of 2,000-10,000 patterns
//! should match in near-flat time).
//!
//! The rules are rooted at op kinds every GPT-2 block holds (`add`, `mul`, `exp`, `neg`,
//! `tanh`, `transpose`), so dispatch by root kind alone tries all of them at every such op;
//! what tells them apart sits deeper: a `transpose` of rank 4 to 6 by a permutation that
//! varies with the rule (a GPT-2 block has no tensor of rank above 3), at depth 0, 1 or 2.
//! Each is exact in IEEE arithmetic (inverse transposes cancel, `add`/`mul` commute,
//! elementwise ops commute with a transpose).

use std::fmt::Write;

/// The `k`th permutation (mod `rank!`) of `0..rank` in lexicographic order.
fn permutation(rank: usize, mut k: usize) -> Vec<usize> {
    let mut pool: Vec<usize> = (0..rank).collect();
    let mut out = Vec::with_capacity(rank);
    for left in (1..=rank).rev() {
        let fact: usize = (1..left).product();
        let i = (k / fact) % left;
        k %= fact;
        out.push(pool.remove(i));
    }
    out
}

fn list(xs: &[usize]) -> String {
    let items: Vec<String> = xs.iter().map(usize::to_string).collect();
    format!("({})", items.join(" "))
}

/// `n` sound rules (names `never-<family>-<i>`) that never fire on a program without tensors
/// of rank 4 or more; see the module docs.
///
/// ```
/// use ptir_rules::{Registry, RuleSet};
/// use ptir_test_support::library::non_firing_rules;
/// let mut set = RuleSet::new(Registry::standard());
/// set.add_source("never.rules", &non_firing_rules(100)).unwrap();
/// assert_eq!(set.rules().len(), 100);
/// ```
pub fn non_firing_rules(n: usize) -> String {
    const UNARY: [&str; 3] = ["exp", "neg", "tanh"];
    const COMMUTATIVE: [&str; 2] = ["add", "mul"];
    let mut text = String::new();
    for i in 0..n {
        let j = i / 4;
        let rank = 4 + j % 3;
        let perm = permutation(rank, j / 3);
        let mut inverse = vec![0; rank];
        for (k, &p) in perm.iter().enumerate() {
            inverse[p] = k;
        }
        let (p, q) = (list(&perm), list(&inverse));
        let bin = COMMUTATIVE[j % 2];
        let _ = match i % 4 {
            0 => writeln!(
                text,
                "; inverse transposes cancel\n\
                 (rule never-tt-{i} (transpose (transpose ?x {p}) {q}) => ?x)"
            ),
            1 => writeln!(
                text,
                "; {bin} commutes\n\
                 (rule never-comm-{i} ({bin} (transpose ?x {p}) ?y) => ({bin} ?y (transpose ?x {p})))"
            ),
            2 => {
                let u = UNARY[j % 3];
                writeln!(
                    text,
                    "; {u} is elementwise: it commutes with a transpose\n\
                     (rule never-unary-{i} ({u} (transpose ?x {p})) => (transpose ({u} ?x) {p}))"
                )
            }
            _ => writeln!(
                text,
                "; add and {bin} commute\n\
                 (rule never-deep-{i} (add ({bin} (transpose ?x {p}) ?z) ?y) \
                 => (add ?y ({bin} ?z (transpose ?x {p}))))"
            ),
        };
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_permutations() {
        for k in 0..130 {
            let mut p = permutation(5, k);
            p.sort_unstable();
            assert_eq!(p, vec![0, 1, 2, 3, 4]);
        }
        assert_eq!(permutation(3, 0), vec![0, 1, 2]);
        assert_eq!(permutation(3, 5), vec![2, 1, 0]);
    }
}
