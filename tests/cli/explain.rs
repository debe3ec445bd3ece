//! `--explain`: for each op of the output, the chain of rules that derived it from the input,
//! under both engines, through the library (`Options::explain`, `Report::explanations`) and
//! the command line; off by default; bounded on long chains.

use crate::support::{ptir_opt, text};
use ptir::{Engine, FunctionExplanation, OpExplanation, Options};

/// `|-x|` becomes `|x|` (the bundled `abs-neg`), `a - (-b)` becomes `a + b` (`sub-neg`),
/// and `exp %y` is carried through.
const PROGRAM: &str = "func @f(%x: f32[4], %y: f32[4]) -> (f32[4], f32[4]) {
  %n = neg %x : f32[4]
  %a = abs %n : f32[4]
  %e = exp %y : f32[4]
  %m = neg %y : f32[4]
  %s = sub %e, %m : f32[4]
  return %a, %s
}
";

const ENGINES: [Engine; 2] = [Engine::Greedy, Engine::Saturation];

fn explained(src: &str, engine: Engine) -> (ptir::Optimized, Vec<FunctionExplanation>) {
    let p = ptir::ir::parse(src).expect("the test program parses");
    let options = Options {
        engine,
        explain: true,
        cost: ptir::Cost::Tensor,
        ..Options::default()
    };
    let out = ptir::optimize(&p, &options).expect("it optimizes");
    let e = out
        .report
        .explanations
        .clone()
        .expect("explanations asked for");
    (out, e)
}

/// The explanation of the one op named `op`.
fn op<'a>(f: &'a FunctionExplanation, op: &str) -> &'a OpExplanation {
    let mut found = f.ops.iter().filter(|o| o.op == op);
    let first = found.next().unwrap_or_else(|| panic!("no {op} in {f}"));
    assert!(found.next().is_none(), "two {op} in {f}");
    first
}

#[test]
fn each_output_op_names_the_rules_that_derived_it_under_both_engines() {
    for engine in ENGINES {
        let (out, e) = explained(PROGRAM, engine);
        assert_eq!(e.len(), 1, "{engine}");
        let f = &e[0];
        assert_eq!(f.function, "f");
        // One entry per output instruction, in the output's order, named as printed.
        let insts = &out.program.functions[0].body.insts;
        assert_eq!(f.ops.len(), insts.len(), "{engine}: {f}");
        for (k, (o, i)) in f.ops.iter().zip(insts).enumerate() {
            assert_eq!(o.index, k);
            assert_eq!(o.value, i.result.to_string(), "{engine}");
            assert_eq!(o.op, i.op.name(), "{engine}");
        }
        let abs = op(f, "abs");
        assert_eq!(abs.rules, ["abs-neg"], "{engine}: {f}");
        assert!(!abs.unchanged());
        let exp = op(f, "exp");
        assert!(exp.unchanged(), "{engine}: {f}");
        assert_eq!(exp.elided, 0);
        // Greedy applies sub-neg; saturation may also commute the sum it made, and says so.
        let add = op(f, "add");
        assert_eq!(
            add.rules.first().map(String::as_str),
            Some("sub-neg"),
            "{engine}: {f}"
        );
        assert_eq!(out.report.fired("sub-neg"), 1, "{engine}");
    }
}

#[test]
fn folds_are_steps_and_chains_compose_across_passes() {
    // 2 + 2 folds to a constant; `canonicalize,eqsat` hands greedy's chains to saturation.
    let src = "func @f(%x: f32[4]) -> (f32[4]) {
  %c = constant splat(2.0) : f32[4]
  %d = add %c, %c : f32[4]
  %n = neg %x : f32[4]
  %a = abs %n : f32[4]
  %m = mul %a, %d : f32[4]
  return %m
}
";
    for engine in ENGINES {
        let (_, e) = explained(src, engine);
        assert_eq!(op(&e[0], "constant").rules, ["fold"], "{engine}: {}", e[0]);
    }
    let p = ptir::ir::parse(src).expect("parses");
    let options = Options {
        pipeline: Some("canonicalize,eqsat".into()),
        explain: true,
        cost: ptir::Cost::Tensor,
        ..Options::default()
    };
    let out = ptir::optimize(&p, &options).expect("it optimizes");
    let f = &out.report.explanations.expect("asked for")[0];
    assert_eq!(op(f, "abs").rules, ["abs-neg"], "{f}");
    assert_eq!(op(f, "constant").rules, ["fold"], "{f}");
}

#[test]
fn cse_merges_are_steps() {
    let src = "func @f(%x: f32[4]) -> (f32[4]) {
  %a = exp %x : f32[4]
  %b = exp %x : f32[4]
  %c = add %a, %b : f32[4]
  return %c
}
";
    let (_, e) = explained(src, Engine::Greedy);
    assert_eq!(op(&e[0], "exp").rules, ["cse"], "{}", e[0]);
    assert!(op(&e[0], "add").unchanged(), "{}", e[0]);
}

#[test]
fn without_explain_the_report_has_no_explanations() {
    let p = ptir::ir::parse(PROGRAM).expect("parses");
    for engine in ENGINES {
        let options = Options {
            engine,
            cost: ptir::Cost::Tensor,
            ..Options::default()
        };
        let out = ptir::optimize(&p, &options).expect("it optimizes");
        assert!(out.report.explanations.is_none(), "{engine}");
        assert!(
            out.report.to_json().get("explanations").is_none(),
            "{engine}"
        );
        assert!(!out.report.to_string().contains("explain"), "{engine}");
    }
    let (out, _) = explained(PROGRAM, Engine::Greedy);
    let json = out.report.to_json();
    assert_eq!(json["explanations"][0]["function"], "f");
    assert!(json["explanations"][0]["ops"]
        .as_array()
        .is_some_and(|a| !a.is_empty()));
}

#[test]
fn the_command_line_prints_the_explanation_on_stderr_and_in_the_json_report() {
    for engine in ["greedy", "eqsat"] {
        let out = ptir_opt(&["-", "--engine", engine, "--explain"], PROGRAM);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "{engine}: {stderr}");
        assert!(
            stdout.starts_with("func @f("),
            "{engine}: the program stays on stdout"
        );
        assert!(stderr.contains("// explain @f:"), "{engine}: {stderr}");
        let abs = stderr
            .lines()
            .find(|l| l.contains(" = abs"))
            .unwrap_or_default();
        assert!(abs.ends_with("abs-neg"), "{engine}: {stderr}");
        let exp = stderr
            .lines()
            .find(|l| l.contains(" = exp"))
            .unwrap_or_default();
        assert!(exp.ends_with("unchanged"), "{engine}: {stderr}");
        // The printed value is the output's.
        let value = abs.split_whitespace().next().unwrap_or_default();
        assert!(
            stdout.contains(&format!("{value} = abs ")),
            "{engine}: {stdout}"
        );

        let out = ptir_opt(
            &["-", "--engine", engine, "--explain", "--report-json"],
            PROGRAM,
        );
        assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
        let json: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("the report is JSON");
        let ops = json["explanations"][0]["ops"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(
            ops.iter()
                .any(|o| o["op"] == "abs" && o["rules"][0] == "abs-neg"),
            "{engine}: {json:#}"
        );
    }
    let plain = ptir_opt(&["-"], PROGRAM);
    assert!(!text(&plain.stderr).contains("explain"), "off by default");
    let help = text(&ptir_opt(&["--help"], "").stdout);
    assert!(help.contains("--explain"), "{help}");
}

/// A chain of 10,000 ops, each rewritten from the one before: explaining it must neither
/// recurse with its length nor make chains that grow with it.
#[test]
fn a_chain_of_10k_ops_is_explained_without_overflowing_the_stack() {
    const N: usize = 10_000;
    let mut src = String::from("func @f(%x: f32[4], %y: f32[4]) -> (f32[4], f32[4]) {\n");
    let mut prev = "%x".to_string();
    for i in 0..N {
        src.push_str(&format!(
            "  %n{i} = neg %y : f32[4]\n  %v{i} = sub {prev}, %n{i} : f32[4]\n"
        ));
        prev = format!("%v{i}");
    }
    // A neg chain as long, which neg-neg collapses, under the abs it feeds.
    let mut neg = "%x".to_string();
    for i in 0..N {
        src.push_str(&format!("  %m{i} = neg {neg} : f32[4]\n"));
        neg = format!("%m{i}");
    }
    src.push_str(&format!(
        "  %a = abs {neg} : f32[4]\n  return {prev}, %a\n}}\n"
    ));
    for engine in ENGINES {
        // Run where the test harness runs tests: a thread with its default stack.
        let (out, e) = explained(&src, engine);
        let f = &e[0];
        assert_eq!(f.ops.len(), out.program.num_insts(), "{engine}");
        let adds = f.ops.iter().filter(|o| o.op == "add").count();
        assert_eq!(adds, N, "{engine}");
        for o in f.ops.iter().filter(|o| o.op == "add") {
            assert_eq!(
                o.rules.first().map(String::as_str),
                Some("sub-neg"),
                "{engine}"
            );
            assert!(o.rules.len() <= ptir::pass::explain::CHAIN_LIMIT);
        }
        assert!(op(f, "abs").unchanged(), "{engine}");
    }
}

/// A chain longer than `CHAIN_LIMIT` keeps its latest steps and counts the others: the first
/// of 40 equal constants absorbs the 39 others, one `cse` step each.
#[test]
fn a_long_chain_is_cut_with_a_count_of_what_was_left_out() {
    const N: usize = 40;
    let mut src = String::from("func @f(%x: f32[4]) -> (f32[4]) {\n");
    let mut prev = "%x".to_string();
    for i in 0..N {
        src.push_str(&format!(
            "  %c{i} = constant splat(3.0) : f32[4]\n  %s{i} = add {prev}, %c{i} : f32[4]\n"
        ));
        prev = format!("%s{i}");
    }
    src.push_str(&format!("  return {prev}\n}}\n"));
    let (_, e) = explained(&src, Engine::Greedy);
    let c = op(&e[0], "constant");
    let limit = ptir::pass::explain::CHAIN_LIMIT;
    assert_eq!(
        (c.rules.len(), c.elided),
        (limit, N - 1 - limit),
        "{}",
        e[0]
    );
    assert!(c.rules.iter().all(|r| r == "cse"));
    let line = e[0].to_string();
    let line = line
        .lines()
        .find(|l| l.contains("constant"))
        .unwrap_or_default();
    assert!(
        line.contains(&format!("… ({} more) → cse → cse", N - 1 - limit)),
        "{line}"
    );
}

/// What `optimize` does after the pipeline is a step too: outlining a fused call.
#[test]
fn outlining_is_a_step() {
    let p = ptir::ir::parse(include_str!("../../corpus/softmax.ptir")).expect("the corpus parses");
    let options = Options {
        outline: true,
        explain: true,
        cost: ptir::Cost::Tensor,
        ..Options::default()
    };
    let out = ptir::optimize(&p, &options).expect("it optimizes");
    let e = out.report.explanations.expect("asked for");
    let softmax = e
        .iter()
        .find(|f| f.function == "softmax")
        .expect("@softmax");
    assert_eq!(
        op(softmax, "call").rules,
        ["softmax-last-axis", "outline"],
        "{softmax}"
    );
    let outlined = e
        .iter()
        .find(|f| f.function != "softmax")
        .expect("the outlined function");
    assert!(
        outlined.ops.iter().all(|o| o.rules == ["outline"]),
        "{outlined}"
    );
}
