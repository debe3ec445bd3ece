//! The `ptir-opt` binary, driven as a user drives it: each subcommand, and each class of user
//! error (one located message on stderr, exit status 2, no panic).

use crate::support::{assert_user_error, ptir_opt, scratch_file, text};

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
        // A missing rule file is reported under its own name, not the input's.
        (&["corpus/softmax.ptir", "--rules", "no/such.rules"], "", "error: no/such.rules: No such file"),
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
    assert_eq!(table.lines().count(), 2 + 9, "{table}");
    assert!(table.contains("cost:roofline"), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("tensor") && l.contains("exact") && l.contains("true")),
        "{table}"
    );
}

#[test]
fn diff_on_a_file_and_on_random_programs() {
    let out = ptir_opt(
        &["diff", "corpus/matrix_chain.ptir", "--cost", "tensor"],
        "",
    );
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

#[test]
fn signatures_lists_each_kernel_with_a_program_that_computes_it() {
    let out = ptir_opt(&["signatures", "corpus/softmax.ptir"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    let ops: Vec<&str> = lines.iter().map(|k| k["op"].as_str().unwrap()).collect();
    assert_eq!(
        ops,
        ["reduce_max", "broadcast", "sub", "exp", "reduce_sum", "div"],
        "the two broadcasts share a signature"
    );
    for k in &lines {
        let p = ptir_ir::parse(k["program"].as_str().unwrap()).expect("the program parses");
        ptir_ir::verify(&p).expect("and verifies");
        let f = &p.functions[0];
        let params: Vec<&ptir_ir::Type> = f.body.params.iter().map(|p| &p.ty).collect();
        let i = &f.body.insts[0];
        assert_eq!(
            ptir_ir::op_signature(&i.op, &params, &i.ty),
            k["signature"].as_str().unwrap()
        );
        assert!(k["predicted_us"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(lines[1]["count"], 2);
}

/// `run` without `--function` runs a JAX module's `@main`, not the private helper printed
/// after it (gru_scan's `@dynamic_update_index_in_dim`, which would run on its own).
#[test]
fn run_picks_main_in_a_jax_module() {
    let out = ptir_opt(&["run", "corpus/zoo/gru_scan.mlir"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\n@main: "),
        "{}",
        &stdout[stdout.len().saturating_sub(300)..]
    );
}

/// `--runtime` decides for the runtime the output is for: a scan is written out for IREE
/// and stays a loop for XLA (`--unroll-limit` still wins), the report names the runtime, and
/// XLA's checked-in table (`scripts/calibrate.py --runtime xla-cpu`) prices an XLA output.
#[test]
fn the_runtime_decides_the_loops_and_names_itself_in_the_report() {
    let run = |args: &[&str]| {
        let out = ptir_opt(args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        (text(&out.stdout), text(&out.stderr))
    };
    let scan = "corpus/zoo/gru_scan.mlir";
    let (iree, report) = run(&[scan, "--report"]);
    assert!(!iree.contains("stablehlo.while"), "{iree}");
    assert!(
        report.starts_with("engine: eqsat (for iree-cpu)\n"),
        "{report}"
    );
    let (xla, report) = run(&[scan, "--runtime", "xla-cpu", "--report"]);
    assert!(xla.contains("stablehlo.while"), "{xla}");
    assert!(
        report.starts_with("engine: eqsat (for xla-cpu)\n"),
        "{report}"
    );
    let (forced, _) = run(&[scan, "--runtime", "xla-cpu", "--unroll-limit", "256"]);
    assert!(!forced.contains("stablehlo.while"), "{forced}");
    let (_, report) = run(&[
        "corpus/zoo/gru_scan.mlir",
        "--runtime",
        "xla-cpu",
        "--cost",
        "measured=corpus/calibration/xla_cpu.json",
        "--report",
    ]);
    assert!(report.contains("cost (measured): "), "{report}");
    let out = ptir_opt(&[scan, "--runtime", "tpu"], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

/// The runtime decides sibling reductions too: flax's `LayerNorm` (a mean and a mean of
/// squares of one input) gets one two-operand `reduce` for IREE, which reads the input once,
/// and keeps two for XLA, which runs them apart faster; both engines, a note in the report,
/// the interpreter's results unchanged (`--validate`).
#[test]
fn the_runtime_decides_whether_sibling_reductions_merge() {
    let model = "corpus/zoo/layernorm_fast_variance.mlir";
    let reduces = |out: &str| out.matches("\"stablehlo.reduce\"(").count();
    for engine in ["eqsat", "greedy"] {
        let mut args = vec![model, "--engine", engine, "--report"];
        if engine == "eqsat" {
            args.push("--validate");
        }
        let out = ptir_opt(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let (iree, report) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(reduces(&iree), 1, "{engine}:\n{iree}");
        assert!(
            report.contains("merged 2 sibling reductions into 1 multi_reduce(s)"),
            "{report}"
        );
        let xla = ptir_opt(&[model, "--engine", engine, "--runtime", "xla-cpu"], "");
        assert!(xla.status.success(), "{}", text(&xla.stderr));
        assert_eq!(reduces(&text(&xla.stdout)), 2, "{engine}");
    }
    // The merged output read back (the importer reads a reduction per operand) is merged
    // again for IREE and stays apart for XLA.
    let merged = ptir_opt(&[model], "");
    let dir = std::env::temp_dir().join(format!("ptir-cli-siblings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("merged.mlir");
    std::fs::write(&file, &merged.stdout).unwrap();
    let file = file.display().to_string();
    for (runtime, n) in [("iree-cpu", 1), ("xla-cpu", 2)] {
        let back = ptir_opt(&[&file, "--runtime", runtime], "");
        assert!(back.status.success(), "{}", text(&back.stderr));
        assert_eq!(reduces(&text(&back.stdout)), n, "{runtime}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The checked-in table was written by `scripts/calibrate.py` from the zoo: a kernel of a zoo
/// model is found in it under the signature ptir-opt makes.
#[test]
fn a_measured_table_prices_the_kernels_it_timed_and_a_damaged_one_is_refused() {
    let table = "corpus/calibration/example.json";
    let cost = format!("measured={table}");
    let out = ptir_opt(
        &["corpus/zoo/softmax.mlir", "--cost", &cost, "--report"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stderr);
    assert!(report.contains("cost (measured): "), "{report}");
    assert!(!report.contains("not in the table"), "{report}");
    let dir = std::env::temp_dir().join(format!("ptir-cli-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("cal.json");
    let whole = std::fs::read_to_string(table).unwrap();
    std::fs::write(&damaged, &whole[..whole.len() / 2]).unwrap();
    let cost = format!("measured={}", damaged.display());
    let out = ptir_opt(&["corpus/softmax.ptir", "--cost", &cost], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    let located = format!("error: {}:", damaged.display());
    assert!(
        err.starts_with(&located) && err.contains("damaged cost table"),
        "{err}"
    );
    for (arg, expected) in [
        ("measured", "needs its table"),
        ("dollars", "expected roofline, measured=FILE, tensor or ops"),
    ] {
        let out = ptir_opt(&["corpus/softmax.ptir", "--cost", arg], "");
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains(expected),
            "{}",
            text(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
    // A kernel the table never timed is named in the report, and only one the output runs.
    let odd = "func @f(%0: f32[3,5,7]) -> (f32[3,5,7]) {\n  %1 = exp %0 : f32[3,5,7]\n  %2 = reduce_max %1 axes=[2] keep_dims=true : f32[3,5,1]\n  %3 = broadcast %2 dims=[0,1,2] : f32[3,5,7]\n  %4 = sub %1, %3 : f32[3,5,7]\n  return %4\n}";
    let cost = format!("measured={table}");
    let out = ptir_opt(&["-", "--cost", &cost, "--report"], odd);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stderr);
    assert!(
        report.contains("1 kernel signature(s) not in the table")
            && report.contains("reduce_max axes=[2] keep_dims=true : f32[3,5,7] -> f32[3,5,1]"),
        "{report}"
    );
}

/// Average ranks (ties share the mean of their positions), for Spearman's correlation.
fn ranks(xs: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
    let mut r = vec![0.0; xs.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && xs[order[j + 1]] == xs[order[i]] {
            j += 1;
        }
        for &k in &order[i..=j] {
            r[k] = (i + j) as f64 / 2.0;
        }
        i = j + 1;
    }
    r
}

fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    let vy: f64 = y.iter().map(|b| (b - my) * (b - my)).sum();
    cov / (vx * vy).sqrt()
}

/// The default model, unfitted, ranks the kernels of the checked-in calibration table (timed
/// one by one in IREE) as IREE does: each signature is rebuilt into its one-op program and
/// priced by today's `op_work` and `Machine::REFERENCE`.
#[test]
fn the_default_model_ranks_measured_kernels_as_the_runtime_does() {
    let table: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("corpus/calibration/example.json").unwrap())
            .unwrap();
    let (mut predicted, mut measured) = (Vec::new(), Vec::new());
    for op in table["ops"].as_array().unwrap() {
        let signature = op["signature"].as_str().unwrap();
        let (head, types) = signature.split_once(" : ").unwrap();
        let (operands, result) = types
            .rsplit_once(" -> ")
            .unwrap_or(("", types.trim_start_matches("-> ")));
        let operands: Vec<&str> = operands.split(", ").filter(|t| !t.is_empty()).collect();
        let (name, attrs) = head.split_once(' ').unwrap_or((head, ""));
        let params: Vec<String> = operands
            .iter()
            .enumerate()
            .map(|(i, t)| format!("%{i}: {t}"))
            .collect();
        let args: Vec<String> = (0..operands.len()).map(|i| format!("%{i}")).collect();
        let text = format!(
            "func @main({}) -> ({result}) {{\n  %r = {name} {} {attrs} : {result}\n  return %r\n}}",
            params.join(", "),
            args.join(", ")
        );
        let p = ptir_ir::parse(&text).unwrap_or_else(|e| panic!("{signature}: {e}"));
        let f = &p.functions[0];
        let types: Vec<&ptir_ir::Type> = f.body.params.iter().map(|p| &p.ty).collect();
        let i = &f.body.insts[0];
        assert_eq!(ptir_ir::op_signature(&i.op, &types, &i.ty), signature);
        let work = ptir::cost::op_work(&i.op, &types, &i.ty);
        predicted.push(ptir::cost::Machine::REFERENCE.kernel_us(&work));
        measured.push(op["time_us"].as_f64().unwrap());
    }
    assert!(predicted.len() > 400, "{} kernels", predicted.len());
    let rho = pearson(&ranks(&predicted), &ranks(&measured));
    eprintln!("Spearman {rho:.4} over {} kernels", predicted.len());
    assert!(
        rho >= 0.9,
        "Spearman {rho:.3} over {} kernels",
        predicted.len()
    );
}

/// A product with a ragged free dim (197 rows: a ViT's tokens) is padded to a multiple of 8
/// under `--fast-math` (IREE runs it 5.3x faster), with the output validated against the
/// input; by default (a runtime sums the padded product in another order) and on aligned or
/// short dims it stays as it is. (Greedy leaves `priced` rules to extraction.)
#[test]
fn ragged_products_are_padded_to_whole_tiles_under_fast_math() {
    let product = |rows: usize| {
        format!(
            "func @f(%0: f32[{rows},64], %1: f32[64,48]) -> (f32[{rows},48]) {{
  %2 = dot_general %0, %1 lhs_contract=[1] rhs_contract=[0] : f32[{rows},48]
  return %2
}}"
        )
    };
    for engine in [&[][..], &["--extractor", "exact"][..]] {
        let run = |program: &str, fast: bool| {
            let mut args = vec!["-", "--validate=3"];
            args.extend_from_slice(engine);
            if fast {
                args.push("--fast-math");
            }
            let out = ptir_opt(&args, program);
            assert!(out.status.success(), "{}", text(&out.stderr));
            text(&out.stdout)
        };
        let padded = run(&product(197), true);
        assert!(
            padded.contains("high=[3,0] : f32[200,64]") && padded.contains(": f32[200,48]"),
            "{engine:?}:\n{padded}"
        );
        assert!(padded.contains("limit=[197,48]"), "{engine:?}:\n{padded}");
        for (rows, fast) in [(197, false), (200, true), (31, true)] {
            let out = run(&product(rows), fast);
            assert!(!out.contains("pad"), "{engine:?}, {rows} rows:\n{out}");
        }
    }
}

/// The rewrites that pay on a real runtime (BENCHMARKS.md, the zoo's `last_token_logits`,
/// `broadcast_matmul`, `outer_sum`), each on a small program: what the optimizer must emit.
#[test]
fn work_moves_into_contractions_and_onto_the_smaller_operand() {
    let optimize = |program: &str, flags: &[&str]| {
        let mut args = vec!["-"];
        args.extend_from_slice(flags);
        let out = ptir_opt(&args, program);
        assert!(out.status.success(), "{}", text(&out.stderr));
        (text(&out.stdout), text(&out.stderr))
    };
    // the last row of a product is the last row of the lhs times the rhs
    let last_row = "func @f(%0: f32[64,32], %1: f32[32,128]) -> (f32[128]) {
  %2 = dot_general %0, %1 lhs_contract=[1] rhs_contract=[0] : f32[64,128]
  %3 = slice %2 start=[63,0] limit=[64,128] stride=[1,1] : f32[1,128]
  %4 = reshape %3 : f32[128]
  return %4
}";
    let (out, _) = optimize(last_row, &[]);
    assert!(
        out.contains("slice %0 start=[63,0] limit=[64,32] stride=[1,1] : f32[1,32]"),
        "{out}"
    );
    assert!(
        out.contains(": f32[1,128]") && !out.contains("f32[64,128]"),
        "{out}"
    );
    // a broadcast product summed over a dim both operands have is a matmul (exact: default)
    let matmul = "func @f(%0: f32[16,32], %1: f32[32,8]) -> (f32[16,8]) {
  %2 = broadcast %0 dims=[0,1] : f32[16,32,8]
  %3 = broadcast %1 dims=[1,2] : f32[16,32,8]
  %4 = mul %2, %3 : f32[16,32,8]
  %5 = reduce_sum %4 axes=[1] keep_dims=false : f32[16,8]
  return %5
}";
    let (out, _) = optimize(matmul, &[]);
    assert!(
        out.contains("dot_general %0, %1 lhs_contract=[1] rhs_contract=[0] : f32[16,8]"),
        "{out}"
    );
    assert!(
        !out.contains("reduce_sum") && !out.contains("f32[16,32,8]"),
        "{out}"
    );
    // sum_j x_i y_j = x_i sum_j y_j only reassociates floats: --fast-math, and the report of
    // the default run says what it would gain and by which rule
    let outer = "func @f(%0: f32[1024], %1: f32[1024]) -> (f32[1024]) {
  %2 = broadcast %0 dims=[0] : f32[1024,1024]
  %3 = broadcast %1 dims=[1] : f32[1024,1024]
  %4 = mul %2, %3 : f32[1024,1024]
  %5 = reduce_sum %4 axes=[1] keep_dims=false : f32[1024]
  return %5
}";
    let (out, report) = optimize(outer, &["--report"]);
    assert!(out.contains("f32[1024,1024]"), "exact by default: {out}");
    assert!(
        report.contains("note: --fast-math would make the program")
            && report.contains("reassociating floats with reduce-sum-of-mul-broadcast (1)")
            && !report.contains("reduce-sum-through-broadcast ("),
        "{report}"
    );
    let (out, _) = optimize(outer, &["--fast-math"]);
    assert!(
        out.contains("reduce_sum %1 axes=[0] keep_dims=false : f32[]"),
        "{out}"
    );
    assert!(!out.contains("f32[1024,1024]"), "{out}");
    // in integers the same factoring is exact, so the default does it
    let (out, _) = optimize(&outer.replace("f32", "i32"), &[]);
    assert!(!out.contains("i32[1024,1024]"), "{out}");
}

/// One product read by three slices (a GRU's gates) may be split into three small products,
/// each cheaper on its own and dearer together. The DAG-greedy extractor starts from the input
/// too, so it keeps the one product; an extractor that pays a shared value per use (`tree`)
/// finds the split, and the engine then keeps the input function and says why.
#[test]
fn no_function_comes_out_costlier_than_it_went_in() {
    let gates = "func @f(%0: f32[8,64], %1: f32[64,384]) -> (f32[8,128]) {
  %2 = dot_general %0, %1 lhs_contract=[1] rhs_contract=[0] : f32[8,384]
  %3 = slice %2 start=[0,0] limit=[8,128] stride=[1,1] : f32[8,128]
  %4 = slice %2 start=[0,128] limit=[8,256] stride=[1,1] : f32[8,128]
  %5 = slice %2 start=[0,256] limit=[8,384] stride=[1,1] : f32[8,128]
  %6 = mul %3, %4 : f32[8,128]
  %7 = add %6, %5 : f32[8,128]
  return %7
}";
    for extractor in ["dag-greedy", "tree", "exact"] {
        let out = ptir_opt(&["-", "--extractor", extractor, "--report"], gates);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let (program, report) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(
            program.matches("dot_general").count(),
            1,
            "{extractor}: {program}"
        );
        assert!(
            report.contains("(predicted 1.000x faster)"),
            "{extractor}: {report}"
        );
        assert_eq!(
            report.contains(
                "note: kept @f as it came: the function extracted from its e-graph would cost"
            ),
            extractor == "tree",
            "{extractor}: {report}"
        );
    }
}

/// A training step's weight gradient computed as `dot(g, x)` then transposed to the weight's
/// layout: the transpose pays a pass over its bytes (strided reads in IREE: the whole step ran
/// 0.93x), so the optimizer swaps the product's operands and drops it.
#[test]
fn a_product_is_computed_in_the_layout_its_user_reads() {
    let step = "func @f(%w: f32[128,512], %x: f32[256,128], %g: f32[256,512]) -> (f32[128,512]) {
  %d = dot_general %g, %x lhs_contract=[0] rhs_contract=[0] : f32[512,128]
  %t = transpose %d perm=[1,0] : f32[128,512]
  %u = sub %w, %t : f32[128,512]
  return %u
}";
    let out = ptir_opt(&["-", "--report"], step);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let program = text(&out.stdout);
    assert!(!program.contains("transpose"), "{program}");
    assert!(
        program.contains("dot_general %1, %2 lhs_contract=[0] rhs_contract=[0] : f32[128,512]"),
        "{program}"
    );
}

/// An impure call is a barrier a runtime cannot fuse across: lifting keeps it where the input
/// had it among the pure values around it (it used to come first, before the reductions that
/// preceded it: a JAX cumsum kept opaque, 0.83x in IREE).
#[test]
fn an_impure_call_keeps_its_place_among_the_pure_values() {
    let program = "extern @log_it(f32[4]) -> (f32[4]) impure

func @f(%0: f32[4]) -> (f32[4], f32[], f32[4]) {
  %1 = exp %0 : f32[4]
  %2 = reduce_sum %1 axes=[0] keep_dims=false : f32[]
  %3 = call @log_it(%1) : f32[4]
  %4 = neg %3 : f32[4]
  return %1, %2, %4
}
";
    let out = ptir_opt(&["-"], program);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), program);
}

/// `compare --out-dir` writes the input and every row's program, each a program that reads back.
#[test]
fn compare_writes_each_extracted_program_for_timing() {
    let dir = std::env::temp_dir().join(format!("ptir-compare-{}", std::process::id()));
    let out = ptir_opt(
        &[
            "compare",
            "corpus/softmax.ptir",
            "--out-dir",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    for name in ["input", "roofline-dag-greedy", "tensor-exact", "ops-tree"] {
        let file = dir.join(format!("{name}.ptir"));
        let back = ptir_opt(&["verify", file.to_str().unwrap()], "");
        assert!(back.status.success(), "{name}: {}", text(&back.stderr));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Softmax normalizes by its row sums: under `--fast-math` the division runs once per row (a
/// reciprocal) and each element is multiplied (2.1x in IREE, BENCHMARKS.md); by default the
/// per-element division stays (the reciprocal rounds first, so it is not exact).
#[test]
fn fast_math_divides_once_per_row_not_per_element() {
    let softmax = std::fs::read_to_string("corpus/softmax.ptir").unwrap();
    // (without the fusion rules and patterns, whose fused call is priced as its body: a tie)
    let flags = [
        "-",
        "--fast-math",
        "--disable",
        "fusion",
        "--disable",
        "pat",
    ];
    let out = ptir_opt(&flags, &softmax);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let program = text(&out.stdout);
    assert!(
        program.contains(": f32[4,1]") || program.contains(": f32[4]"),
        "{program}"
    );
    for line in program.lines().filter(|l| l.contains(" div ")) {
        assert!(
            !line.ends_with(": f32[4,8]"),
            "a per-element division is left: {program}"
        );
    }
    assert!(program.contains(" mul "), "{program}");
    let exact = text(
        &ptir_opt(
            &flags[..1]
                .iter()
                .chain(&flags[2..])
                .copied()
                .collect::<Vec<_>>(),
            &softmax,
        )
        .stdout,
    );
    assert!(
        exact
            .lines()
            .any(|l| l.contains(" div ") && l.ends_with(": f32[4,8]")),
        "{exact}"
    );
}
