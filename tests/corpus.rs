//! Every corpus program parses, verifies, and prints to text that parses back identical.

use std::path::{Path, PathBuf};

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptir"))
        .collect();
    files.sort();
    files
}

#[test]
fn corpus_parses_verifies_and_round_trips() {
    let files = corpus_files();
    assert!(files.len() >= 8, "corpus has {} programs", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let program = ptir_ir::parse(&text).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
        if let Err(e) = ptir_ir::verify(&program) {
            panic!("{} does not verify:\n{e}", path.display());
        }
        let printed = ptir_ir::print(&program);
        let reparsed = ptir_ir::parse(&printed)
            .unwrap_or_else(|e| panic!("{}: reprint: {e}\n{printed}", path.display()));
        assert_eq!(reparsed, program, "{} does not round-trip", path.display());
        assert_eq!(ptir_ir::print(&reparsed), printed);
    }
}
