//! `docs/rules.md`, the rule language reference: its generated part matches the registry
//! (`PTIR_UPDATE_DOCS=1 cargo test --release --test rules -- rules_doc::` rewrites it), and its worked
//! example fires on the corpus program it names, with both engines.

use ptir::rules::reference::{generated_reference, with_generated};
use ptir::rules::Registry;

const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md");

#[test]
fn the_generated_reference_is_current() {
    let page = std::fs::read_to_string(PAGE).expect("docs/rules.md is readable");
    let generated = generated_reference(&Registry::standard());
    let current = with_generated(&page, &generated).expect("docs/rules.md has its markers");
    if page == current {
        return;
    }
    if std::env::var_os("PTIR_UPDATE_DOCS").is_some() {
        std::fs::write(PAGE, current).expect("docs/rules.md is writable");
        return;
    }
    panic!(
        "docs/rules.md is stale (the registry changed): update it with\n  \
         PTIR_UPDATE_DOCS=1 cargo test --release --test rules -- rules_doc::"
    );
}

#[test]
fn every_predicate_and_native_function_is_documented() {
    let registry = Registry::standard();
    let generated = generated_reference(&registry);
    for name in registry.predicate_names().chain(registry.native_names()) {
        assert!(
            generated.contains(&format!("| `{name}` |")),
            "{name} is not in the reference"
        );
    }
    for name in registry.predicate_names() {
        let doc = registry.predicate(name).map(|p| p.doc).unwrap_or_default();
        assert!(!doc.trim().is_empty(), "predicate {name} has no doc");
    }
    for name in registry.native_names() {
        let doc = registry.native(name).map(|n| n.doc).unwrap_or_default();
        assert!(!doc.trim().is_empty(), "native function {name} has no doc");
    }
}

#[test]
fn the_worked_example_fires_on_the_corpus_program() {
    let page = std::fs::read_to_string(PAGE).expect("docs/rules.md is readable");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/examples/my_softmax.rules"
    );
    let rules = std::fs::read_to_string(file).expect("the example rule file is readable");
    // The page shows the file's rule and extern as they are.
    let shown = page
        .split("```lisp\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("the page shows the example");
    let code: String = rules
        .lines()
        .filter(|l| !l.starts_with(';'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(shown.trim(), code.trim());
    let source =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/softmax.ptir"))
            .expect("the corpus program is readable");
    let program = ptir::ir::parse(&source).expect("it parses");
    for engine in [ptir::Engine::Saturation, ptir::Engine::Greedy] {
        let options = ptir::Options {
            engine,
            bundled_rules: false,
            rule_files: vec![file.into()],
            ..ptir::Options::default()
        };
        let out = ptir::optimize(&program, &options).expect("it optimizes");
        assert_eq!(
            out.report.instructions,
            ptir::InstCounts {
                before: 7,
                after: 1
            }
        );
        assert!(
            out.report
                .rules_fired
                .iter()
                .any(|r| r.rule == "my-softmax"),
            "{engine}: {}",
            out.report
        );
        assert!(ptir::ir::print(&out.program).contains("call @my_softmax(%0)"));
    }
}
