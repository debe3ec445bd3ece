//! Attribute control in `.pat` files (seed 004's must-match / ignored attributes, per pattern):
//! `// ignore-attrs: NAME...` above a pattern function lets those attributes match any value,
//! `// match-attrs: NAME...` compares only those; in both engines.

use crate::support::{only_rules, optimize_text};
use ptir::Engine;

/// `tests/fixtures/total_any_perm.pat`: `sum(transpose(x, perm))` for any `perm`.
const IGNORE: &str = include_str!("../fixtures/total_any_perm.pat");

/// `prog(perm, axes)`: the sum of every element of a transpose of `%x` by `perm`.
fn program(perm: &str) -> String {
    format!(
        "func @f(%x: i32[4,4,4]) -> (i32[]) {{
  %t = transpose %x perm=[{perm}] : i32[4,4,4]
  %s = reduce_sum %t axes=[0,1,2] keep_dims=false : i32[]
  return %s
}}
"
    )
}

/// Optimizes `program` with only the `.pat` text `pat`, in `engine`, validated; returns the
/// output's text.
fn run(program: &str, pat: &str, engine: Engine) -> String {
    let out = optimize_text(program, &only_rules("attrs.pat", pat, engine, 4));
    ptir::ir::print(&out.program)
}

fn raised(text: &str) -> bool {
    text.contains("call @total") && !text.contains("transpose")
}

#[test]
fn an_ignored_attribute_matches_a_different_value_in_both_engines() {
    for engine in [Engine::Greedy, Engine::Saturation] {
        for perm in ["1,0,2", "2,0,1", "0,2,1"] {
            let text = run(&program(perm), IGNORE, engine);
            assert!(raised(&text), "{engine}, perm {perm}:\n{text}");
        }
    }
    // Without the directive, only the pattern's own permutation matches (the default: every
    // attribute must be equal).
    let strict = IGNORE.replace("// ignore-attrs: perm\n", "");
    for engine in [Engine::Greedy, Engine::Saturation] {
        assert!(raised(&run(&program("1,0,2"), &strict, engine)), "{engine}");
        let text = run(&program("2,0,1"), &strict, engine);
        assert!(!raised(&text), "{engine}:\n{text}");
    }
}

#[test]
fn a_required_attribute_refuses_a_different_value_and_the_rest_are_ignored() {
    // `match-attrs: perm`: the permutation must be the pattern's; the reduction's attributes
    // are ignored (the root's type is still the pattern's, so a reduction to another shape
    // is refused by its type).
    let only_perm = IGNORE.replace("// ignore-attrs: perm", "// match-attrs: transpose.perm");
    for engine in [Engine::Greedy, Engine::Saturation] {
        assert!(
            raised(&run(&program("1,0,2"), &only_perm, engine)),
            "{engine}"
        );
        let text = run(&program("2,0,1"), &only_perm, engine);
        assert!(!raised(&text), "{engine}:\n{text}");
        // keep_dims=true sums to i32[1,1,1]: another root type, refused.
        let kept =
            program("1,0,2").replace("keep_dims=false : i32[]", "keep_dims=true : i32[1,1,1]");
        let kept = kept.replace("-> (i32[])", "-> (i32[1,1,1])");
        let text = run(&kept, &only_perm, engine);
        assert!(!raised(&text), "{engine}:\n{text}");
    }
}

#[test]
fn the_directive_is_not_part_of_the_doc() {
    let mut set = ptir::rules::RuleSet::new(ptir::rules::Registry::standard());
    set.add_pat_source("attrs.pat", IGNORE)
        .expect("the file loads");
    let rule = set.rule("total").expect("the rule");
    assert_eq!(rule.doc, "sum(transpose(x, any perm)) is total(x)");
}
