//! The `ptir-opt` binary, driven as a user drives it: each subcommand, and each class of user
//! error (one located message on stderr, exit status 2, no panic).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn ptir_opt(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptir-opt"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    child.wait_with_output().expect("the binary finishes")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn verify_prints_the_canonical_program() {
    let out = ptir_opt(&["verify", "corpus/softmax.ptir"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let printed = text(&out.stdout);
    assert!(
        printed.starts_with("func @softmax(%0: f32[4,8]) -> (f32[4,8]) {"),
        "{printed}"
    );
    let again = ptir_opt(&["verify", "-"], &printed);
    assert_eq!(text(&again.stdout), printed);
}

#[test]
fn run_prints_results_and_a_summary() {
    let out = ptir_opt(&["run", "corpus/gpt2_block.ptir", "--seed", "1"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("result 0: f32[4,8] ["), "{stdout}");
    assert!(stdout.contains("@gpt2: 90 instructions"), "{stdout}");
    let same = ptir_opt(&["run", "corpus/gpt2_block.ptir", "--seed", "1"], "");
    assert_eq!(
        text(&same.stdout).lines().next(),
        stdout.lines().next(),
        "runs are deterministic"
    );
}

#[test]
fn user_errors_exit_2_with_one_located_message() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["verify", "no/such/file.ptir"], "", "error: no/such/file.ptir: No such file"),
        (&["verify", "-"], "func @f() -> () {\n  %1 = frob : f32[]\n}", "error: -:2:8: unknown op `frob`"),
        (&["verify", "-"], "func @f(%0: f32[2]) -> (f32[3]) {\n  return %0\n}", "error: -: the program does not verify:\nin @f: returns (f32[2]) but is declared to return (f32[3])"),
        (&["run", "corpus/softmax.ptir", "--function", "nope"], "", "error: corpus/softmax.ptir: no function @nope"),
        (&["run", "-"], "func @f(%0: i32[]) -> (i32[]) {\n  %1 = constant splat(0) : i32[]\n  %2 = div %0, %1 : i32[]\n  return %2\n}", "division by zero"),
        (&["run", "corpus/softmax.ptir", "--seed", "minus-one"], "", "invalid value 'minus-one'"),
    ];
    for (args, stdin, expected) in cases {
        let out = ptir_opt(args, stdin);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{args:?}: expected {expected:?} in {stderr:?}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn optimizing_prints_a_verified_program_and_the_report() {
    let out = ptir_opt(&["corpus/gpt2_block.ptir", "--report"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let program = ptir_ir::parse(&text(&out.stdout)).expect("the output parses");
    ptir_ir::verify(&program).expect("the output verifies");
    let report = text(&out.stderr);
    for line in [
        "engine: eqsat",
        "cost (tensor): ",
        "e-graph: ",
        "rules fired:",
    ] {
        assert!(report.contains(line), "{line:?} missing from:\n{report}");
    }
    // Options are checked values: a bad one is a usage error.
    let bad = ptir_opt(&["corpus/softmax.ptir", "--cost", "dollars"], "");
    assert_eq!(bad.status.code(), Some(2));
    let bad = ptir_opt(&["corpus/softmax.ptir", "--rules", "no/such.rules"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("no/such.rules"),
        "{}",
        text(&bad.stderr)
    );
}
