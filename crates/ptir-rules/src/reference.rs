#![doc = include_str!("../../../docs/rules.md")]

use crate::ops::attr_slots;
use crate::registry::Registry;
use ptir_ir::OpKey;
use std::fmt::Write as _;

/// The line after which `docs/rules.md` holds [`generated_reference`]'s text.
pub const GENERATED_BEGIN: &str = "<!-- BEGIN GENERATED: `PTIR_UPDATE_DOCS=1 cargo test --release --test rules -- rules_doc::` rewrites what follows from the registry; do not edit by hand -->";

/// The line before which `docs/rules.md`'s generated text ends.
pub const GENERATED_END: &str = "<!-- END GENERATED -->";

/// The part of the rule language reference that comes from code, as Markdown: the ops rules
/// may name with their attribute slots, and every predicate and native function of
/// `registry` with its arity and documentation.
///
/// ```
/// let text = ptir_rules::reference::generated_reference(&ptir_rules::Registry::standard());
/// assert!(text.contains("| `inverse-perm` | 2 | transpose by ?p then ?q is the identity |"));
/// ```
pub fn generated_reference(registry: &Registry) -> String {
    let mut out = String::new();
    out.push_str("### Ops and their attributes\n\n");
    out.push_str(
        "Operands come first, then the attributes in this order, each with the name a `.pat` \
         file's `ignore-attrs` / `match-attrs` line calls it by. `constant` is written \
         `splat`; `rng` and the region ops (`cond`, `while`, `scan`) cannot be named (a `.pat` loop \
         pattern matches region ops).\n\n",
    );
    out.push_str("| op | operands | attributes |\n| --- | --- | --- |\n");
    for key in OpKey::all() {
        let Some((arity, slots)) = attr_slots(key) else {
            continue;
        };
        let operands = arity.map_or("1 or more".to_string(), |n| n.to_string());
        let names = crate::ops::attr_names(key);
        let attrs: Vec<String> = (slots.iter().zip(names))
            .map(|(slot, name)| format!("`{name}`: {slot}"))
            .collect();
        let attrs = if attrs.is_empty() {
            "-".to_string()
        } else {
            attrs.join("; ")
        };
        let _ = writeln!(out, "| `{}` | {operands} | {attrs} |", key.name());
    }
    out.push_str("\n### `:when` predicates\n\n");
    out.push_str(
        "A value variable stands for its type (never its data), an attribute variable for its \
         value. Predicates marked *use counts* are decided by each engine from the uses of a \
         value: the greedy driver when it matches, saturation at extraction (see `single-use` \
         above); both engines run every rule.\n\n",
    );
    out.push_str("| predicate | arguments | holds when |\n| --- | --- | --- |\n");
    for name in registry.predicate_names() {
        let Some(p) = registry.predicate(name) else {
            continue;
        };
        let greedy = if p.use_counts { " (*use counts*)" } else { "" };
        let _ = writeln!(out, "| `{name}` | {} | {}{greedy} |", p.arity, cell(p.doc));
    }
    out.push_str("\n### Native functions\n\n");
    out.push_str(
        "They compute an attribute from their arguments, in results and in `:when`; when one \
         cannot (no answer for those arguments), the rule does not apply.\n\n",
    );
    out.push_str("| function | arguments | returns | value |\n| --- | --- | --- | --- |\n");
    for name in registry.native_names() {
        let Some(n) = registry.native(name) else {
            continue;
        };
        let _ = writeln!(
            out,
            "| `{name}` | {} | {} | {} |",
            n.arity,
            n.returns,
            cell(n.doc)
        );
    }
    out.push_str("\n### Native builders\n\n");
    out.push_str(
        "They build ops in a result (DRR's `NativeCodeCall` that builds an op): written like an \
         op, `(mean ?x (1))`, value arguments first, then attributes. The ops they return are \
         type-checked before either engine builds them; when one cannot build (no answer for \
         those types), the rule does not apply.\n\n",
    );
    out.push_str("| builder | values | attributes | builds |\n| --- | --- | --- | --- |\n");
    for name in registry.builder_names() {
        let Some(b) = registry.builder(name) else {
            continue;
        };
        let attrs: Vec<String> = b.attrs.iter().map(ToString::to_string).collect();
        let attrs = if attrs.is_empty() {
            "-".to_string()
        } else {
            attrs.join("; ")
        };
        let _ = writeln!(
            out,
            "| `{name}` | {} | {attrs} | {} |",
            b.values,
            cell(b.doc)
        );
    }
    out
}

/// `text` made safe for a Markdown table cell (brackets escaped, so that rustdoc does not
/// take `p[i]` for a link).
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace('\n', " ")
}

/// `page` with its generated part (between [`GENERATED_BEGIN`] and [`GENERATED_END`])
/// replaced by `generated`; `None` if the markers are missing.
pub fn with_generated(page: &str, generated: &str) -> Option<String> {
    let begin = page.find(GENERATED_BEGIN)? + GENERATED_BEGIN.len();
    let end = begin + page[begin..].find(GENERATED_END)?;
    Some(format!(
        "{}\n\n{generated}\n{}",
        &page[..begin],
        &page[end..]
    ))
}
