//! What the workspace's tests share, in one place: the corpus (`corpus/*.ptir`, and the JAX
//! fixtures `corpus/mlir/*.mlir`), rule sets from text, and the interpreter with every extern
//! the project knows how to run.
//!
//! A dev-dependency only (`publish = false`): the helpers panic with the file or rule at fault,
//! which is what a test wants and no library may do.
//!
//! ```
//! let corpus = ptir_test_support::corpus_programs();
//! assert!(corpus.iter().any(|(name, _)| name == "softmax.ptir"));
//! let set = ptir_test_support::rules("(rule neg-neg (neg (neg ?x)) => ?x)");
//! assert_eq!(set.rules().len(), 1);
//! ```

pub mod chain;
pub mod library;

use std::path::{Path, PathBuf};

use ptir_ir::Program;
use ptir_rules::{Registry, RuleSet};

#[doc(inline)]
pub use ptir_rules::externs::interpreter;

/// The repository's `corpus/` directory.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// The files of `dir` whose extension is `ext`, sorted by path.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path()
        })
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

/// `(file name, text)` of each file of `dir` with extension `ext`, sorted by name.
pub fn texts_with_extension(dir: &Path, ext: &str) -> Vec<(String, String)> {
    files_with_extension(dir, ext)
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            (name.into_owned(), text)
        })
        .collect()
}

/// The corpus programs' files (`corpus/*.ptir`), sorted.
pub fn corpus_files() -> Vec<PathBuf> {
    files_with_extension(&corpus_dir(), "ptir")
}

/// `(file name, text)` of every corpus program, sorted by name.
pub fn corpus_texts() -> Vec<(String, String)> {
    texts_with_extension(&corpus_dir(), "ptir")
}

/// `(file name, program)` of every corpus program, sorted by name.
pub fn corpus_programs() -> Vec<(String, Program)> {
    let parse = |(name, text): (String, String)| {
        let program = ptir_ir::parse(&text).unwrap_or_else(|e| panic!("{name}:{e}"));
        (name, program)
    };
    corpus_texts().into_iter().map(parse).collect()
}

/// `(file name, text)` of every JAX-exported fixture (`corpus/mlir/*.mlir`), sorted by name.
pub fn mlir_fixtures() -> Vec<(String, String)> {
    texts_with_extension(&corpus_dir().join("mlir"), "mlir")
}

/// A rule set of `src` alone (standard registry), read as the file `test.rules`.
pub fn rules(src: &str) -> RuleSet {
    let mut set = RuleSet::new(Registry::standard());
    if let Err(e) = set.add_source("test.rules", src) {
        panic!("{e}");
    }
    set
}
