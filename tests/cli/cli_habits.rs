//! The command line an `mlir-opt` user expects: `--pass-pipeline`, `--print-ir-after-all`,
//! `--list-rules`, `--split-input-file`, one input file, `-o` everywhere, `--report-json`
//! off stderr, verifier errors at `file:line:col`, and subcommand help that lists only the
//! flags the subcommand uses.

use crate::support::{ptir_opt, scratch_dir, scratch_file, text};

/// Runs `ptir-opt ARGS`, asserts it succeeded, returns (stdout, stderr).
fn ok(args: &[&str], stdin: &str) -> (String, String) {
    let out = ptir_opt(args, stdin);
    assert!(
        out.status.success(),
        "{args:?}: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    (text(&out.stdout), text(&out.stderr))
}

/// Runs `ptir-opt ARGS`, asserts it exited with status 2, returns stderr.
fn user_error(args: &[&str], stdin: &str) -> String {
    let out = ptir_opt(args, stdin);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stderr)
}

const NEG_NEG: &str = "func @f(%x: f32[4]) -> (f32[4]) {
  %a = neg %x : f32[4]
  %b = neg %a : f32[4]
  %c = exp %b : f32[4]
  %d = exp %b : f32[4]
  %e = add %c, %d : f32[4]
  return %e
}
";

#[test]
fn pass_pipelines_run_the_engines_passes_and_compose_them() {
    // The greedy engine is the pipeline canonicalize,cse,dce; eqsat is the pass eqsat.
    let file = "corpus/gpt2_block.ptir";
    let (greedy, _) = ok(&[file, "--engine", "greedy"], "");
    let (pipeline, _) = ok(&[file, "--pass-pipeline", "canonicalize,cse,dce"], "");
    assert_eq!(greedy, pipeline);
    let (eqsat, _) = ok(&[file], "");
    let (pipeline, _) = ok(&[file, "--pass-pipeline", "eqsat"], "");
    assert_eq!(eqsat, pipeline);
    // Greedy and saturation composed: the report names every pass's phases and runs.
    let (json, _) = ok(
        &[
            file,
            "--pass-pipeline",
            "canonicalize, eqsat,dce",
            "--report-json",
        ],
        "",
    );
    let report: serde_json::Value = serde_json::from_str(&json).expect("the report is JSON");
    assert_eq!(report["engine"], "canonicalize,eqsat,dce");
    let phases: Vec<&str> = report["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["phase"].as_str())
        .collect();
    assert_eq!(
        phases,
        [
            "rules",
            "setup",
            "canonicalize",
            "lower",
            "saturate",
            "extract",
            "lift",
            "dce"
        ]
    );
    let reasons: Vec<&str> = report["stops"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["reason"].as_str())
        .collect();
    assert_eq!(reasons[0], "converged", "{report}");
    assert!(report["egraph"]["nodes"].as_u64().unwrap() > 0, "{report}");
    // Pipeline errors are located in the pipeline text; --engine and a pipeline exclude
    // each other.
    let err = user_error(&[file, "--pass-pipeline", "cse,unrol"], "");
    assert!(
        err.contains(
            "unknown pass `unrol` at column 5 (passes: loop-patterns, loop-idioms, unroll, inline, licm, canonicalize, cse, dce, eqsat, sibling-reductions)"
        ),
        "{err}"
    );
    let err = user_error(&[file, "--pass-pipeline", "cse,,dce"], "");
    assert!(err.contains("empty pass name at column 5"), "{err}");
    let err = user_error(&[file, "--pass-pipeline", "cse", "--engine", "greedy"], "");
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn print_ir_after_all_dumps_each_pass_on_stderr() {
    let (out, err) = ok(
        &[
            "-",
            "--pass-pipeline",
            "canonicalize,cse,dce",
            "--print-ir-after-all",
        ],
        NEG_NEG,
    );
    let dumps: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("// -----// IR Dump After "))
        .collect();
    assert_eq!(
        dumps,
        [
            "// -----// IR Dump After canonicalize //----- //",
            "// -----// IR Dump After cse //----- //",
            "// -----// IR Dump After dce //----- //"
        ]
    );
    // After canonicalize the two exps are still there; CSE shares them.
    let after = |pass: &str| {
        let start = err.find(&format!("After {pass} ")).unwrap();
        err[start..]
            .split("// -----//")
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(after("canonicalize").matches(" exp ").count(), 2, "{err}");
    assert_eq!(after("cse").matches(" exp ").count(), 1, "{err}");
    // The rule externs the pipeline declares for its passes are not in the dumps.
    assert!(!err.contains("extern @"), "{err}");
    // The program itself is on stdout.
    assert!(out.starts_with("func @f("), "{out}");
}

#[test]
fn step_logs_name_the_pass_that_wrote_them() {
    let (_, err) = ok(
        &["-", "--pass-pipeline", "canonicalize,eqsat", "--step-log"],
        NEG_NEG,
    );
    let headers: Vec<&str> = err
        .lines()
        .filter(|l| l.contains(" step log of "))
        .collect();
    assert_eq!(
        headers,
        ["// canonicalize step log of @f", "// eqsat step log of @f"],
        "{err}"
    );
}

/// Loop patterns (a `.pat` idiom over a loop) are listed too, with their labels, place and
/// doc comment, and counted apart.
#[test]
fn list_rules_lists_loop_patterns() {
    let (listed, _) = ok(
        &[
            "--list-rules",
            "--rules",
            "tests/fixtures/ema_loop.pat",
            "--no-bundled-rules",
        ],
        "",
    );
    assert!(
        listed.contains("(pat, raising, loop)  tests/fixtures/ema_loop.pat:"),
        "{listed}"
    );
    assert!(listed.ends_with(" rules, 1 loop pattern\n"), "{listed}");
}

#[test]
fn list_rules_prints_the_selected_rules_with_their_docs() {
    let (all, _) = ok(&["--list-rules"], "");
    assert!(
        all.contains(
            "transpose-of-transpose (canonicalize, tensor)  rules/canonicalize.rules:374\n    \
             transposing by p and then by q with q∘p = id moves every element back where it was."
        ),
        "{all}"
    );
    // fast-math rules only with --fast-math; --enable and --disable filter.
    assert!(!all.contains("(fast-math"), "{all}");
    let (fast, _) = ok(&["--list-rules", "--fast-math"], "");
    assert!(fast.contains("fast-math"), "{fast}");
    let (canon, _) = ok(
        &[
            "--list-rules",
            "--enable",
            "tensor",
            "--disable",
            "transpose-of-transpose",
        ],
        "",
    );
    assert!(
        canon.starts_with("transpose-of-transpose-compose "),
        "{canon}"
    );
    assert!(!canon.contains("\ntranspose-of-transpose "), "{canon}");
    assert!(!canon.contains("(algebra)"), "{canon}");
    // A user's rule, with its doc comment.
    let dir = scratch_dir("list-rules");
    let rules = dir.join("mine.rules");
    std::fs::write(
        &rules,
        "; exp(x) - exp(x) is 0 (sub-self says so for any x)\n(rule my-rule (sub (exp ?x) (exp ?x)) => (sub ?x ?x))\n",
    )
    .unwrap();
    let (mine, _) = ok(
        &[
            "--list-rules",
            "--no-bundled-rules",
            "--rules",
            rules.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(
        mine,
        format!(
            "my-rule  {}:2\n    exp(x) - exp(x) is 0 (sub-self says so for any x)\n1 rules\n",
            rules.display()
        )
    );
    let err = user_error(&["--list-rules", "--enable", "no-such-rule"], "");
    assert!(err.contains("no-such-rule"), "{err}");
}

#[test]
fn split_input_file_optimizes_each_chunk_and_locates_errors_in_the_whole_file() {
    let second = "func @g(%x: f32[4]) -> (f32[4]) {\n  %a = neg %x : f32[4]\n  %b = neg %a : f32[4]\n  return %b\n}\n";
    let input = format!("{NEG_NEG}// -----\n{second}");
    let (out, _) = ok(&["-", "--split-input-file", "--engine", "greedy"], &input);
    let chunks: Vec<&str> = out.split("// -----\n").collect();
    assert_eq!(chunks.len(), 2, "{out}");
    assert!(chunks[0].starts_with("func @f("), "{out}");
    assert_eq!(
        chunks[1],
        "func @g(%0: f32[4]) -> (f32[4]) {\n  return %0\n}\n"
    );
    // Each chunk is its own program: the same function name may appear in both.
    let twice = format!("{NEG_NEG}// -----\n{NEG_NEG}");
    let (json, _) = ok(&["-", "--split-input-file", "--report-json"], &twice);
    let reports: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(reports.as_array().map(Vec::len), Some(2), "{reports}");
    // Errors name the line in the whole input, one per failing chunk.
    let bad = format!(
        "{NEG_NEG}// -----\nfunc @g(%x: f32[4]) -> (f32[4]) {{\n  %a = exp %y : f32[4]\n  return %a\n}}\n// -----\nfunc @h() -> () {{\n  return +\n}}\n"
    );
    let err = user_error(&["-", "--split-input-file"], &bad);
    assert_eq!(
        err,
        "error: -:11:12: in @g, instruction %a = exp: uses %y before its definition\n\
         error: -:16:10: expected `}`, found unexpected character `+`\n"
    );
    // Without the flag, the marker is a comment and the file one program.
    let err = user_error(&["-"], &twice);
    assert!(err.contains("@f is defined twice"), "{err}");
}

#[test]
fn one_input_file_at_a_time() {
    let err = user_error(&["corpus/softmax.ptir", "corpus/matrix_chain.ptir"], "");
    assert_eq!(
        err,
        "error: corpus/matrix_chain.ptir: ptir-opt optimizes one file at a time, got 2: \
         corpus/softmax.ptir, corpus/matrix_chain.ptir (for several programs in one file, \
         separate them with `// -----` lines and pass --split-input-file)\n"
    );
}

#[test]
fn dash_o_writes_every_subcommands_output() {
    let dir = scratch_dir("dash-o");
    let cases: [&[&str]; 7] = [
        &["corpus/softmax.ptir"],
        &["verify", "corpus/softmax.ptir"],
        &["translate", "corpus/softmax.ptir"],
        &["run", "corpus/softmax.ptir"],
        &["compare", "corpus/matrix_chain.ptir"],
        &["diff", "corpus/softmax.ptir"],
        &["--list-rules"],
    ];
    for (i, args) in cases.iter().enumerate() {
        let path = dir.join(format!("out{i}.txt"));
        let mut all = args.to_vec();
        all.extend(["-o", path.to_str().unwrap()]);
        let (stdout, _) = ok(&all, "");
        assert_eq!(stdout, "", "{args:?}");
        let (expected, _) = ok(args, "");
        let written = std::fs::read_to_string(&path).unwrap();
        if args[0] == "run" || args[0] == "compare" || args[0] == "diff" {
            // Timings differ from run to run: compare the first line.
            assert_eq!(written.lines().next(), expected.lines().next(), "{args:?}");
        } else {
            assert_eq!(written, expected, "{args:?}");
        }
    }
}

#[test]
fn dash_o_writes_a_diff_that_found_a_mismatch_with_status_1() {
    let rules = scratch_file(
        "dash-o-mismatch",
        "unsound.rules",
        "; not true: exp(x) is not x\n(rule exp-is-x (exp ?x) => ?x)\n",
    );
    let report = scratch_dir("dash-o-mismatch").join("diff.txt");
    let out = crate::support::ptir_opt(
        &[
            "diff",
            "-",
            "--no-bundled-rules",
            "--rules",
            &rules,
            "-o",
            report.to_str().unwrap(),
        ],
        "func @f(%x: f32[4]) -> (f32[4]) {\n  %y = exp %x : f32[4]\n  return %y\n}\n",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    let written = std::fs::read_to_string(&report).unwrap();
    assert!(
        written.contains("MISMATCH: greedy output differs"),
        "{written}"
    );
    assert!(written.ends_with("MISMATCH\n"), "{written}");
}

#[test]
fn report_json_goes_to_a_file_or_alone_to_stdout() {
    let dir = scratch_dir("report-json");
    let json = dir.join("report.json");
    let arg = format!("--report-json={}", json.display());
    // The tensor model prices the fused call below its body (the roofline, as its body).
    let (program, err) = ok(&["corpus/softmax.ptir", "--cost", "tensor", &arg], "");
    assert!(program.contains("call @softmax_fused"), "{program}");
    assert_eq!(err, "");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["rules_fired"][0]["rule"], "softmax-last-axis");
    assert_eq!(report["cost_model"], "tensor");
    // `-` and the bare flag: the report alone on stdout; with -o, the program in the file.
    for flag in ["--report-json", "--report-json=-"] {
        let (stdout, err) = ok(&["corpus/softmax.ptir", flag], "");
        assert_eq!(err, "");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["cost_model"], "roofline");
        assert_eq!(report["instructions"]["before"], 7);
    }
    let out = dir.join("softmax.opt.ptir");
    let (stdout, _) = ok(
        &[
            "corpus/softmax.ptir",
            "--cost",
            "tensor",
            "--report-json",
            "-o",
            out.to_str().unwrap(),
        ],
        "",
    );
    serde_json::from_str::<serde_json::Value>(&stdout).expect("the report is JSON");
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("call @softmax_fused"));
    let err = user_error(
        &["corpus/softmax.ptir", "--report-json=/no/such/dir/r.json"],
        "",
    );
    assert!(err.starts_with("error: /no/such/dir/r.json: "), "{err}");
}

#[test]
fn verifier_errors_are_located_with_the_sources_value_names() {
    for args in [&["-"][..], &["verify", "-"], &["run", "-"], &["diff", "-"]] {
        let err = user_error(
            args,
            "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = exp %y : f32[4]\n  return %a\n}\n",
        );
        assert_eq!(
            err, "error: -:2:12: in @f, instruction %a = exp: uses %y before its definition\n",
            "{args:?}"
        );
    }
    let err = user_error(
        &["-"],
        "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = exp %x : f32[5]\n  return %b\n}\n",
    );
    assert_eq!(
        err,
        "error: -:2:3: in @f, instruction %a = exp: result type f32[5] does not match the inferred type f32[4]\n\
         -:3:10: in @f: returns %b, which is not visible here\n\
         -:1:1: in @f: returns () but is declared to return (f32[4])\n"
    );
}

#[test]
fn subcommand_help_lists_only_the_flags_it_uses() {
    let help = |sub: &str| text(&ptir_opt(&[sub, "--help"], "").stdout);
    let listed = |help: &str, flag: &str| {
        help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n"))
    };
    for (sub, present, absent) in [
        (
            "run",
            &["--seed", "--inputs", "-o", "--input-format"][..],
            &[
                "--emit",
                "--custom-calls",
                "--engine",
                "--report",
                "--rules",
                "--pass-pipeline",
                "--split-input-file",
            ][..],
        ),
        (
            "verify",
            &["--emit", "--custom-calls", "-o"],
            &[
                "--engine",
                "--rules",
                "--report-json",
                "--print-ir-after-all",
            ],
        ),
        (
            "translate",
            &["--emit", "--custom-calls"],
            &["--engine", "--validate", "--list-rules"],
        ),
        (
            "diff",
            &["--rules", "--extractor", "--iter-limit"],
            &[
                "--emit",
                "--custom-calls",
                "--engine",
                "--report-json",
                "--pass-pipeline",
            ],
        ),
        (
            "compare",
            &["--rules", "--iter-limit"],
            &[
                "--emit",
                "--extractor",
                "--print-ir-after-all",
                "--list-rules",
            ],
        ),
    ] {
        let h = help(sub);
        for flag in present {
            assert!(listed(&h, flag), "{sub}: {flag} missing in\n{h}");
        }
        for flag in absent {
            assert!(!listed(&h, flag), "{sub}: {flag} in\n{h}");
        }
    }
    let main = text(&ptir_opt(&["--help"], "").stdout);
    for flag in [
        "--pass-pipeline",
        "--list-rules",
        "--split-input-file",
        "--print-ir-after-all",
        "--report-json",
    ] {
        assert!(main.contains(flag), "{flag} missing in\n{main}");
    }
}

#[test]
fn the_dag_greedy_extractor_has_its_own_name() {
    let (table, _) = ok(&["compare", "corpus/matrix_chain.ptir"], "");
    assert!(table.contains("ops        dag-greedy "), "{table}");
    let (a, _) = ok(
        &["corpus/matrix_chain.ptir", "--extractor", "dag-greedy"],
        "",
    );
    let (b, _) = ok(&["corpus/matrix_chain.ptir", "--extractor", "greedy"], "");
    assert_eq!(a, b);
    let help = text(&ptir_opt(&["--help"], "").stdout);
    assert!(help.contains("dag-greedy"), "{help}");
    // The engine prints as eqsat everywhere.
    let (json, _) = ok(&["corpus/matrix_chain.ptir", "--report-json"], "");
    assert!(json.contains("\"engine\": \"eqsat\""), "{json}");
    let (diff, _) = ok(&["diff", "corpus/matrix_chain.ptir"], "");
    assert!(
        diff.contains("greedy 2048, eqsat 256") || diff.contains(", eqsat "),
        "{diff}"
    );
}

/// The command line keeps no process globals: what it reads from its arguments (the input
/// format, how MLIR is read, what to say after writing) travels as values. The allocator is
/// the one `static`.
#[test]
fn the_cli_keeps_no_process_globals() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/ptir-opt");
    let mut globals = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the CLI's sources are listed") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("a source file is read");
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_start();
            let declares = ["static ", "pub static ", "pub(crate) static "]
                .iter()
                .any(|p| line.starts_with(p));
            if declares && !line.contains("ALLOCATOR") {
                globals.push(format!("{}:{}: {line}", path.display(), n + 1));
            }
        }
    }
    assert!(
        globals.is_empty(),
        "process globals:\n{}",
        globals.join("\n")
    );
}

/// The rule-set subcommands read no program: the program-reading flags are refused with a
/// message, not ignored.
#[test]
fn rule_set_subcommands_refuse_the_program_reading_flags() {
    for (command, flag) in [
        ("compile-rules", "--allow-opaque"),
        ("lint-rules", "--inline-calls"),
        ("lint-rules", "--input-format=mlir"),
    ] {
        let mut args = vec![command, flag];
        if command == "compile-rules" {
            args.extend(["docs/examples/my_softmax.rules", "-o", "unused.ptrl"]);
        }
        let err = user_error(&args, "");
        let name = flag.split('=').next().unwrap_or(flag);
        assert!(
            err.contains(&format!(
                "{name} is for reading programs; `{command}` reads rule files"
            )),
            "{command} {flag}: {err}"
        );
    }
}
