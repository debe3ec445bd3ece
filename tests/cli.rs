//! The `ptir-opt` binary, driven as a user drives it: each subcommand, and each class of user
//! error (one located message on stderr, exit status 2, no panic).

mod support;

use support::{assert_user_error, ptir_opt, scratch_file, text};

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
        (&["verify", "-"], "func @f(%0: f32[2]) -> (f32[3]) {\n  return %0\n}", "error: -:1:1: in @f: returns (f32[2]) but is declared to return (f32[3])"),
        (&["run", "corpus/softmax.ptir", "--function", "nope"], "", "error: corpus/softmax.ptir: no function @nope"),
        (&["run", "-"], "func @f(%0: i32[]) -> (i32[]) {\n  %1 = constant splat(0) : i32[]\n  %2 = div %0, %1 : i32[]\n  return %2\n}", "division by zero"),
        (&["run", "corpus/softmax.ptir", "--seed", "minus-one"], "", "invalid value 'minus-one'"),
    ];
    for (args, stdin, expected) in cases {
        assert_user_error(args, stdin, expected);
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
        "cost (roofline): ",
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

#[test]
fn compare_prints_a_row_per_model_and_extractor() {
    let out = ptir_opt(&["compare", "corpus/matrix_chain.ptir"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert_eq!(table.lines().count(), 2 + 6, "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("tensor") && l.contains("exact") && l.contains("true")),
        "{table}"
    );
}

#[test]
fn diff_on_a_file_and_on_random_programs() {
    let out = ptir_opt(&["diff", "corpus/matrix_chain.ptir", "--cost", "tensor"], "");
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("greedy 2048, eqsat 256"),
        "{}",
        text(&out.stdout)
    );
    let out = ptir_opt(
        &["diff", "--random", "6", "--seed", "1000", "--size", "12"],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("6 programs"), "{stdout}");
    // The slowest program is named (which one depends on the clock), so a campaign's
    // stalls can be found.
    let slowest = stdout
        .lines()
        .find_map(|l| l.strip_prefix("slowest program: seed "));
    let seed = slowest.and_then(|l| l.split(',').next()?.parse::<u64>().ok());
    assert!(seed.is_some_and(|s| (1000..1006).contains(&s)), "{stdout}");
    assert_eq!(
        out.status.code(),
        Some(if stdout.contains(" 0 mismatches, 0 errors") {
            0
        } else {
            1
        })
    );
}

#[test]
fn run_reads_inputs_and_json_report_and_egraph_dump_are_written() {
    let dir = std::env::temp_dir().join(format!("ptir-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let inputs = dir.join("in.txt");
    std::fs::write(&inputs, "// x\nf32[2,2] [1.0, 2.0, 3.0, 4.0]\n").unwrap();
    let program = "func @f(%x: f32[2,2]) -> (f32[2,2]) {\n  %y = transpose %x perm=[1,0] : f32[2,2]\n  return %y\n}\n";
    let out = ptir_opt(&["run", "-", "--inputs", inputs.to_str().unwrap()], program);
    assert!(
        text(&out.stdout).starts_with("result 0: f32[2,2] [1.0, 3.0, 2.0, 4.0]"),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let dump = dir.join("g.json");
    let out = ptir_opt(
        &[
            "corpus/softmax.ptir",
            "--cost",
            "tensor",
            "--report-json",
            "--dump-egraph",
            dump.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&text(&out.stdout)).expect("the report is JSON, alone on stdout");
    assert_eq!(report["instructions"]["after"], 1);
    let graph = ptir::extract::serialize::from_json(&std::fs::read_to_string(&dump).unwrap())
        .expect("the dump reads back");
    assert!(graph.num_nodes() > 10);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_rule_file_is_a_located_user_error() {
    let dir = std::env::temp_dir().join(format!("ptir-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = dir.join("bad.rules");
    std::fs::write(&rules, "; fine\n(rule r\n  (frob ?x)\n  => ?x)\n").unwrap();
    let out = ptir_opt(
        &["corpus/softmax.ptir", "--rules", rules.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bad.rules:3: in rule `r`: unknown op `frob`"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Rule files that used to crash `ptir-opt` (a stack overflow reading a file nested 20,000
/// deep; endless recursion compiling a self-referencing named term) are located user errors.
#[test]
fn hostile_rule_files_exit_2_with_a_located_message() {
    let dir = std::env::temp_dir().join(format!("ptir-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let deep = dir.join("deep.rules");
    let deep_text = format!(
        "(rule deep\n  {}?x{}\n  => ?x)\n",
        "(neg ".repeat(20_000),
        ")".repeat(20_000)
    );
    std::fs::write(&deep, deep_text).unwrap();
    let cyclic = dir.join("cyclic.rules");
    std::fs::write(&cyclic, "(rule r\n  ?a:(add ?a ?b)\n  => ?b)\n").unwrap();
    for (file, message) in [
        (&deep, "deep.rules:2: nesting deeper than 200 levels"),
        (
            &cyclic,
            "cyclic.rules:2: in rule `r`: the named term ?a contains itself",
        ),
    ] {
        for engine in ["greedy", "eqsat"] {
            let args = [
                "corpus/softmax.ptir",
                "--engine",
                engine,
                "--rules",
                file.to_str().unwrap(),
            ];
            let out = ptir_opt(&args, "");
            assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
            let stderr = text(&out.stderr);
            assert!(stderr.contains(message), "{stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn greedy_on_a_cycling_rule_set_stops_at_its_limits_and_says_so() {
    // Undoes the bundled `sub-neg`: without limits, greedy ran until memory ran out.
    let rules = scratch_file(
        "cycle",
        "cycle.rules",
        "(rule add-to-sub (add ?a ?b) => (sub ?a (neg ?b)))\n",
    );
    let program = "func @f(%x: f32[4], %y: f32[4]) -> (f32[4]) {\n  %a = add %x, %y : f32[4]\n  return %a\n}\n";
    let rules = rules.as_str();
    for (extra, stop) in [
        (
            &[][..],
            "did not converge: rewrite limit (100000), after 1 iterations, 100000 rewrites",
        ),
        (
            &["--rewrite-limit", "7"][..],
            "did not converge: rewrite limit (7), after 1 iterations, 7 rewrites",
        ),
        (
            &["--time-limit", "0.2", "--rewrite-limit", "1000000000"][..],
            "did not converge: time limit (200.0ms)",
        ),
    ] {
        let mut args = vec!["-", "--engine", "greedy", "--rules", rules, "--report"];
        args.extend_from_slice(extra);
        let out = ptir_opt(&args, program);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(stop),
            "{args:?}: {}",
            text(&out.stderr)
        );
        ptir_ir::verify(&ptir_ir::parse(&text(&out.stdout)).unwrap()).unwrap();
    }
}

/// A rule name or label that matches nothing is a user error naming it, not a silent
/// "keep no rule".
#[test]
fn an_unknown_rule_name_exits_2_with_a_suggestion() {
    let out = ptir_opt(&["corpus/softmax.ptir", "--enable", "fusoin"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no rule is named or labelled `fusoin` (did you mean `fusion`?)"),
        "{stderr}"
    );
}

#[test]
fn limits_are_documented_for_both_engines_and_checked() {
    let help = text(&ptir_opt(&["--help"], "").stdout);
    for flag in [
        "--iter-limit",
        "--rewrite-limit",
        "--time-limit",
        "--scheduler",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
    assert!(help.contains("whole program"), "{help}");
    let out = ptir_opt(&["corpus/softmax.ptir", "--scheduler", "fifo"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = ptir_opt(&["corpus/softmax.ptir", "--time-limit=-1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--time-limit"),
        "{}",
        text(&out.stderr)
    );
    // A limit too far away to be an instant is no limit, not a crash.
    let out = ptir_opt(&["corpus/softmax.ptir", "--time-limit", "1e18"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = ptir_opt(
        &[
            "corpus/matrix_chain.ptir",
            "--report",
            "--scheduler",
            "backoff",
            "--iter-limit",
            "1",
        ],
        "",
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("did not saturate: iteration limit (1), after 1 iterations"),
        "{stderr}"
    );
}

#[test]
fn the_step_log_covers_saturation_and_the_egraph_dump_needs_it() {
    let out = ptir_opt(&["corpus/matrix_chain.ptir", "--step-log"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stderr);
    assert!(
        log.starts_with("// eqsat step log of @chain\niteration 0: "),
        "{log}"
    );
    assert!(log.contains("dot-assoc-int"), "{log}");
    assert!(log.contains("saturated after "), "{log}");

    let out = ptir_opt(
        &[
            "corpus/softmax.ptir",
            "--engine",
            "greedy",
            "--dump-egraph",
            "g.json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--dump-egraph) needs the eqsat engine"),
        "{stderr}"
    );
    assert!(!std::path::Path::new("g.json").exists());
}

#[test]
fn compare_and_diff_accept_exactly_the_flags_they_use() {
    // Flags a subcommand would ignore are not accepted.
    for args in [
        &["compare", "corpus/matrix_chain.ptir", "--report"][..],
        &["compare", "corpus/matrix_chain.ptir", "--engine", "greedy"],
        &["compare", "corpus/matrix_chain.ptir", "--extractor", "tree"],
        &["compare", "corpus/matrix_chain.ptir", "--step-log"],
        &["diff", "corpus/matrix_chain.ptir", "--engine", "greedy"],
        &["diff", "corpus/matrix_chain.ptir", "--report-json"],
        &[
            "diff",
            "corpus/matrix_chain.ptir",
            "--dump-egraph",
            "g.json",
        ],
    ] {
        let out = ptir_opt(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("unexpected argument"),
            "{args:?}"
        );
    }
    for (sub, absent) in [
        (
            "compare",
            &[
                "--engine",
                "--report",
                "--extractor",
                "--cost",
                "--step-log",
                "--dump-egraph",
            ][..],
        ),
        (
            "diff",
            &["--engine", "--report", "--step-log", "--dump-egraph"],
        ),
    ] {
        let help = text(&ptir_opt(&[sub, "--help"], "").stdout);
        for flag in absent {
            assert!(
                !help.contains(&format!("{flag} ")),
                "{sub}: {flag} in\n{help}"
            );
        }
    }
    // The ones they list work: limits change what compare saturates...
    let cost = |extra: &[&str]| {
        let mut args = vec!["compare", "corpus/matrix_chain.ptir"];
        args.extend_from_slice(extra);
        let out = ptir_opt(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .nth(2)
            .unwrap_or_default()
            .to_string()
    };
    assert_ne!(cost(&[]), cost(&["--iter-limit", "0"]));
    assert_ne!(cost(&[]), cost(&["--disable", "dot-assoc-int"]));
    // ... and diff's extraction flags reach saturation: with nothing learnt (no iteration),
    // eqsat costs what the input costs.
    let out = ptir_opt(
        &[
            "diff",
            "corpus/matrix_chain.ptir",
            "--iter-limit",
            "0",
            "--extractor",
            "tree",
            "--cost",
            "ops",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("cost (ops): input 2, greedy 2, eqsat 2"),
        "{stdout}"
    );
}
