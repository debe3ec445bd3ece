//! Shared by the command-line tests: `ptir-opt` run as a user runs it.

#![allow(dead_code)] // each test binary uses its own part

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `ptir-opt ARGS` in the repository with `stdin` as its standard input.
pub fn ptir_opt(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptir-opt"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // A run that fails on its arguments exits before reading its input: a broken pipe here is
    // that exit racing the write, not an error (the output says what happened).
    let written = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "stdin written: {e}"
        );
    }
    child.wait_with_output().expect("the binary finishes")
}

/// Bytes of an output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for a test's files, under cargo's temporary directory for tests.
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("the scratch directory is created");
    dir
}

/// Writes `contents` to the file `name` of the scratch directory `dir` ([`scratch_dir`]);
/// returns its path as text, as command lines take it. Written whole under another name and
/// renamed into place, so that tests running in parallel that share a file (the same input
/// for several cases) never read it half written.
pub fn scratch_file(dir: &str, name: &str, contents: &str) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = scratch_dir(dir);
    let path = dir.join(name);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let partial = dir.join(format!(".{name}.{}.{n}.partial", std::process::id()));
    std::fs::write(&partial, contents).expect("the scratch file is written");
    std::fs::rename(&partial, &path).expect("the scratch file is moved into place");
    path.to_string_lossy().into_owned()
}

/// Runs `ptir-opt ARGS` and checks that it failed as on a user's error: exit status 2, one
/// message on stderr starting with `error: ` and containing `expected`, no panic. Returns
/// that message.
pub fn assert_user_error(args: &[&str], stdin: &str, expected: &str) -> String {
    let out = ptir_opt(args, stdin);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    assert!(
        stderr.contains(expected),
        "{args:?}: expected {expected:?} in {stderr:?}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    stderr
}

/// Options that run only the rules of `file` (its text `rules`: `.rules` or `.pat`) in
/// `engine`, validated on `validate` seeded input sets.
pub fn only_rules(file: &str, rules: &str, engine: ptir::Engine, validate: usize) -> ptir::Options {
    ptir::Options {
        engine,
        bundled_rules: false,
        rule_texts: vec![ptir::RuleText::new(file, rules)],
        validate: Some(validate),
        ..ptir::Options::default()
    }
}

/// Parses `program` and optimizes it under `options`; an error panics, naming the engine.
pub fn optimize_text(program: &str, options: &ptir::Options) -> ptir::Optimized {
    let program = ptir::ir::parse(program).expect("the program parses");
    ptir::optimize(&program, options).unwrap_or_else(|e| panic!("{}: {e}", options.engine))
}
