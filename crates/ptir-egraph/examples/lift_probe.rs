//! Lowers, saturates with the bundled rules, extracts (op count, tree extractor) and lifts a
//! .ptir file; prints it.
use ptir_egraph::{choose, lift, lower, saturate, ExtractorKind, SaturationOptions};
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let Ok(program) = ptir_ir::parse(&text) else {
        return eprintln!("bad program");
    };
    let name = program
        .functions
        .last()
        .map(|f| f.name.clone())
        .unwrap_or_default();
    let Ok(mut lowered) = lower(&program, &name) else {
        return eprintln!("lowering failed");
    };
    let rules = ptir_rules::RuleSet::bundled()
        .unwrap_or_else(|_| ptir_rules::RuleSet::new(ptir_rules::Registry::standard()));
    let report = saturate(&mut lowered, &rules, &SaturationOptions::default());
    eprint!("{report}");
    let choice = match choose(&lowered, &ptir_rules::cost::OpCount, ExtractorKind::Tree) {
        Ok(choice) => choice,
        Err(e) => return eprintln!("{e}"),
    };
    match lift(&lowered, &choice) {
        Ok(f) => print!("{f}"),
        Err(e) => eprintln!("{e}"),
    }
}
