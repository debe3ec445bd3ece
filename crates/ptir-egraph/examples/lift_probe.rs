//! Lowers, saturates with the bundled rules, extracts (AST size) and lifts a .ptir file; prints it.
use egg::{AstSize, Extractor, Id};
use ptir_egraph::{lift, lower, saturate, Limits, PtirNode};
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
    let report = saturate(&mut lowered, &rules, &Limits::default());
    eprint!("{report}");
    let ex = Extractor::new(&lowered.egraph, AstSize);
    let choose = |c: Id| -> PtirNode { ex.find_best_node(c).clone() };
    match lift(&lowered, &choose) {
        Ok(f) => print!("{f}"),
        Err(e) => eprintln!("{e}"),
    }
}
