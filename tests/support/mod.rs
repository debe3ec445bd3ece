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
