//! Compiled rule libraries (`ptir-opt compile-rules`, `ptir_rules::compiled`): the library
//! loads as the same rule set its sources do (same rules, same order) and optimizes the corpus
//! exactly as they do in both engines; a damaged, truncated or stale file is one clear error.

use crate::support::{ptir_opt, scratch_dir, text};
use ptir::rules::compiled::{FORMAT_VERSION, MAGIC};
use ptir::rules::RuleSet;
use ptir::{Engine, Options};

/// The bundled library, compiled, in a file.
fn bundled_library(dir: &std::path::Path) -> std::path::PathBuf {
    let lib = dir.join("bundled.ptrl");
    let bytes = RuleSet::bundled()
        .map(|s| s.to_compiled())
        .expect("the bundled rules load")
        .expect("the bundled rules compile");
    std::fs::write(&lib, bytes).expect("the library is written");
    lib
}

#[test]
fn a_compiled_library_is_the_rule_set_it_was_compiled_from() {
    let dir = scratch_dir("compiled-rules-round-trip");
    let lib = bundled_library(&dir);
    let from_library = Options {
        bundled_rules: false,
        rule_files: vec![lib],
        ..Options::default()
    };
    for fast_math in [false, true] {
        let parsed = ptir::load_rules(&Options {
            fast_math,
            ..Options::default()
        })
        .expect("the bundled rules load");
        let loaded = ptir::load_rules(&Options {
            fast_math,
            ..from_library.clone()
        })
        .expect("the library loads");
        assert_eq!(loaded.rules(), parsed.rules(), "same rules, same order");
        assert_eq!(loaded.externs(), parsed.externs());
    }
    // Same behaviour: every corpus program, both engines, same output and same rules fired.
    let mut programs = 0;
    for entry in std::fs::read_dir("corpus").expect("the corpus is there") {
        let path = entry.expect("a corpus entry").path();
        if path.extension().is_none_or(|e| e != "ptir") {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("the program reads");
        let program = ptir::ir::parse(&source).expect("the program parses");
        for engine in [Engine::Greedy, Engine::Saturation] {
            let run = |options: &Options| {
                ptir::optimize(
                    &program,
                    &Options {
                        engine,
                        ..options.clone()
                    },
                )
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            };
            let (parsed, loaded) = (run(&Options::default()), run(&from_library));
            assert_eq!(
                ptir::ir::print(&loaded.program),
                ptir::ir::print(&parsed.program),
                "{} ({engine})",
                path.display()
            );
            assert_eq!(loaded.report.rules_fired, parsed.report.rules_fired);
        }
        programs += 1;
    }
    assert!(programs >= 8, "{programs} corpus programs");
}

#[test]
fn compile_rules_writes_a_library_that_rules_accepts() {
    let dir = scratch_dir("compiled-rules-cli");
    let rules = dir.join("mine.rules");
    std::fs::write(
        &rules,
        "; exp of a negated negation is exp\n(rule my-exp-neg-neg (exp (neg (neg ?x))) => (exp ?x))\n",
    )
    .expect("the rules are written");
    let lib = dir.join("mine.ptrl");
    let (rules, lib) = (rules.to_string_lossy(), lib.to_string_lossy());
    let out = ptir_opt(&["compile-rules", &rules, "-o", &lib], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("compiled 1 rule files into "));
    let program = "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = neg %x : f32[4]\n  %b = neg %a : f32[4]\n  %c = exp %b : f32[4]\n  return %c\n}\n";
    for engine in ["greedy", "eqsat"] {
        let args = ["-", "--engine", engine, "--no-bundled-rules", "--rules"];
        let from_text = ptir_opt(&[&args[..], &[&*rules]].concat(), program);
        let from_lib = ptir_opt(&[&args[..], &[&*lib]].concat(), program);
        assert!(from_lib.status.success(), "{}", text(&from_lib.stderr));
        assert_eq!(text(&from_lib.stdout), text(&from_text.stdout));
        assert!(text(&from_lib.stdout).contains("= exp %0 :"), "{engine}");
    }
    // --list-rules names the rule where it was written.
    let listed = ptir_opt(&["--list-rules", "--no-bundled-rules", "--rules", &lib], "");
    assert!(text(&listed.stdout).contains("my-exp-neg-neg"));
    assert!(text(&listed.stdout).contains("mine.rules:2"));
}

/// Runs `ptir-opt` on a program with the library `bytes` as `--rules`; returns stderr after
/// checking the exit status is 2 (a user error, no panic).
fn refused(dir: &std::path::Path, name: &str, bytes: &[u8]) -> String {
    let lib = dir.join(name);
    std::fs::write(&lib, bytes).expect("the library is written");
    let out = ptir_opt(
        &["corpus/softmax.ptir", "--rules", &lib.to_string_lossy()],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one message: {stderr}");
    stderr
}

#[test]
fn damaged_truncated_and_stale_libraries_are_refused() {
    let dir = scratch_dir("compiled-rules-damaged");
    let rules = dir.join("neg.rules");
    std::fs::write(&rules, "; why\n(rule my-neg-neg (neg (neg ?x)) => ?x)\n").unwrap();
    let bytes = ptir::compile_rules(&[rules]).expect("the rules compile");
    assert!(bytes.starts_with(&MAGIC));

    let err = refused(&dir, "cut.ptrl", &bytes[..bytes.len() - 3]);
    assert!(
        err.contains("cut.ptrl: truncated compiled rule library"),
        "{err}"
    );
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    let err = refused(&dir, "flipped.ptrl", &flipped);
    assert!(
        err.contains("corrupt compiled rule library: checksum"),
        "{err}"
    );
    // An empty `.ptrl` and one cut inside its magic are damaged libraries, not rule text.
    let err = refused(&dir, "empty.ptrl", b"");
    assert!(err.contains("not a compiled rule library"), "{err}");
    let err = refused(&dir, "cut.rules", &bytes[..5]);
    assert!(err.contains("truncated compiled rule library"), "{err}");
    let mut newer = bytes.clone();
    newer[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let err = refused(&dir, "newer.ptrl", &newer);
    let expected = format!(
        "format version {}, this build reads version {FORMAT_VERSION}: compile the rules again",
        FORMAT_VERSION + 1
    );
    assert!(err.contains(&expected), "{err}");
    let mut stale = bytes;
    stale[12] ^= 0xff;
    let err = refused(&dir, "stale.ptrl", &stale);
    assert!(err.contains("stale compiled rule library"), "{err}");
    // Only the header's magic makes a library: anything else is read as rule text.
    let err = refused(&dir, "binary.rules", &[0xff, 0xfe, 0]);
    assert!(
        err.contains("binary.rules: neither rule text (not UTF-8:")
            && err.contains("nor a compiled"),
        "{err}"
    );
}

/// `compile-rules -o` to a path it cannot write says only the error, not "compiled ... into"
/// first.
#[test]
fn an_unwritable_output_gets_only_the_error() {
    let out = ptir_opt(
        &["compile-rules", "rules", "-o", "/nonexistent-dir/lib.ptrl"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("compiled"), "{stderr}");
    assert!(
        stderr.starts_with("error: /nonexistent-dir/lib.ptrl:"),
        "{stderr}"
    );
}
