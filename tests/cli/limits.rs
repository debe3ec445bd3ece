//! Both engines stop at their limits and say which one stopped them: a rule that
//! cycles with a bundled rule, a rule set that explodes on several functions under a time
//! limit for the whole run, and the options that only one engine supports.

use ptir::pass::StopReason;
use ptir::{Engine, Error, Limits, Options};
use std::path::PathBuf;
use std::time::Duration;

/// `(add ?a ?b) => (sub ?a (neg ?b))` undoes the bundled `sub-neg` (`a - (-b) => a + b`).
const CYCLING_RULE: &str = "; a + b = a - (-b), for any ring\n\
    (rule add-to-sub (add ?a ?b) => (sub ?a (neg ?b)))\n";

/// Writes `text` to a fresh rule file of this test process.
fn rule_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptir-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the rule file is written");
    path
}

/// `functions` copies of `@f{k}(x0..x{n-1}) = x0 + x1 + ... + x{n-1}` on i32.
fn sums(functions: usize, n: usize) -> ptir::ir::Program {
    let mut text = String::new();
    for k in 0..functions {
        let params: Vec<String> = (0..n).map(|i| format!("%x{i}: i32[4]")).collect();
        text.push_str(&format!(
            "func @f{k}({}) -> (i32[4]) {{\n",
            params.join(", ")
        ));
        let mut prev = "%x0".to_string();
        for i in 1..n {
            text.push_str(&format!("  %s{i} = add {prev}, %x{i} : i32[4]\n"));
            prev = format!("%s{i}");
        }
        text.push_str(&format!("  return {prev}\n}}\n\n"));
    }
    ptir::ir::parse(&text).expect("the sums parse")
}

fn with_engine(engine: Engine, options: Options) -> Options {
    Options { engine, ..options }
}

#[test]
fn greedy_stops_a_cycling_rule_set_within_its_default_limits() {
    let options = Options {
        rule_files: vec![rule_file("cycle.rules", CYCLING_RULE)],
        ..Options::default()
    };
    let program = sums(1, 2);
    let out = ptir::optimize(&program, &with_engine(Engine::Greedy, options.clone()))
        .expect("a limit is not an error");
    let run = &out.report.stops[0].run;
    let limit = ptir::greedy::GREEDY_REWRITE_LIMIT;
    assert_eq!(run.stop, StopReason::RewriteLimit { limit }, "{run}");
    assert_eq!(run.rewrites, limit);
    assert!(
        out.report.to_string().contains(&format!(
            "stop (@f0): did not converge: rewrite limit ({limit}), after 1 iterations, {limit} rewrites"
        )),
        "{}",
        out.report
    );
    ptir::ir::verify(&out.program).expect("the output verifies");

    // Saturation holds both directions in one e-class and stops by itself.
    let out = ptir::optimize(&program, &with_engine(Engine::Saturation, options))
        .expect("saturation runs");
    assert_eq!(out.report.stops[0].run.stop, StopReason::Saturated);
}

#[test]
fn the_time_limit_is_for_the_whole_run_and_stops_inside_long_iterations() {
    // Eight functions; commutativity and (unbounded, a user's) associativity of a 30-term sum
    // have an astronomical closure, and no other limit is in the way: only the clock can stop
    // the run. Before the fix, each function got the whole limit and the clock was read only
    // between rules.
    let limits = Limits {
        iterations: Some(usize::MAX),
        nodes: Some(usize::MAX),
        time: Duration::from_millis(500),
        ..Limits::default()
    };
    let program = sums(8, 30);
    let assoc = "; wrapping addition is associative\n\
        (rule add-assoc-unbounded (add (add ?a ?b) ?c) => (add ?a (add ?b ?c)))\n";
    let options = Options {
        limits: limits.clone(),
        rule_files: vec![rule_file("assoc.rules", assoc)],
        ..Options::default()
    };
    let out = ptir::optimize(&program, &options).expect("a limit is not an error");
    let time_limit = StopReason::TimeLimit {
        limit: Duration::from_millis(500),
    };
    assert_eq!(out.report.stops.len(), 8);
    for ptir::FunctionRun { function: f, run } in &out.report.stops {
        assert_eq!(run.stop, time_limit, "@{f}: {run}");
    }
    // Greedy shares one deadline too: the cycling rule runs until the clock stops it.
    let options = Options {
        engine: Engine::Greedy,
        rule_files: vec![rule_file("cycle-timed.rules", CYCLING_RULE)],
        limits: Limits {
            rewrites: Some(usize::MAX),
            ..limits
        },
        ..Options::default()
    };
    let out = ptir::optimize(&sums(4, 3), &options).expect("a limit is not an error");
    for ptir::FunctionRun { function: f, run } in &out.report.stops {
        assert_eq!(run.stop, time_limit, "@{f}: {run}");
    }
}

#[test]
fn a_runaway_rule_family_is_named_in_the_stop_line_under_default_limits() {
    // A user's unbounded associativity (a family of its own: it has no label) with the
    // bundled commutativity enumerates every grouping of a 14-term sum, its growth doubling
    // each iteration: before families, the run went on to the node limit (2.2 s on the
    // machine of the change, against 0.3 s), and the report named no culprit. The bundled
    // `algebra` family, stopped after it, is named in a note.
    let assoc = "; wrapping addition is associative\n\
        (rule add-assoc-unbounded (add (add ?a ?b) ?c) => (add ?a (add ?b ?c)))\n";
    let options = Options {
        rule_files: vec![rule_file("runaway.rules", assoc)],
        ..Options::default()
    };
    let program = sums(1, 14);
    let out = ptir::optimize(&program, &options).expect("a runaway family is not an error");
    let run = &out.report.stops[0].run;
    let StopReason::RunawayFamily {
        family, next, room, ..
    } = &run.stop
    else {
        panic!("no family named: {}", out.report);
    };
    assert_eq!(family, "add-assoc-unbounded (unlabelled)", "{run}");
    assert!(next > room, "{run}");
    let (egraph_nodes, _) = run.egraph.expect("saturation reports its e-graph");
    assert!(egraph_nodes <= ptir::egraph::EGRAPH_NODE_LIMIT, "{run}");
    assert!(
        (out.report.notes.iter())
            .any(|n| n.starts_with("@f0: saturation stopped a runaway rule family `algebra`")),
        "{}",
        out.report
    );
    let text = out.report.to_string();
    assert!(
        text.contains(&format!(
            "stop (@f0): did not saturate: runaway rule family `{family}` ("
        )),
        "{text}"
    );
    let json = serde_json::to_value(&out.report).expect("the report is JSON");
    assert_eq!(json["stops"][0]["reason"], "runaway-family");
    assert_eq!(json["stops"][0]["family"], family.as_str());
    ptir::ir::verify(&out.program).expect("the output verifies");
}

#[test]
fn saturation_has_a_step_log_and_greedy_refuses_an_egraph_dump() {
    let program = sums(1, 3);
    let options = Options {
        step_log: true,
        ..Options::default()
    };
    let out = ptir::optimize(&program, &options).expect("saturation runs");
    let ptir::StepLog {
        function: f,
        text: log,
        ..
    } = &out.report.step_log[0];
    assert_eq!(f, "f0");
    assert!(log.starts_with("iteration 0: "), "{log}");
    assert!(log.contains("add-comm"), "{log}");
    assert!(log.contains("saturated after "), "{log}");

    let options = Options {
        engine: Engine::Greedy,
        dump_egraph: true,
        ..Options::default()
    };
    let err = ptir::optimize(&program, &options).expect_err("greedy builds no e-graph");
    assert!(matches!(err, Error::Options(_)), "{err}");
    assert!(err.to_string().contains("--dump-egraph"), "{err}");
}

#[test]
fn moments_across_a_cond_is_correct_in_both_engines() {
    // The greedy multi-root `moments` rule replaced a root yielded by a cond branch
    // with a value defined after the cond; the output did not verify.
    let program = ptir::ir::parse(
        "func @f(%p: bool[], %x: f32[4,8]) -> (f32[4], f32[4]) {
  %sq = mul %x, %x : f32[4,8]
  %ss = reduce_sum %sq axes=[1] keep_dims=false : f32[4]
  %c = cond %p : f32[4] {
    yield %ss
  } {
    %z = constant splat(0.0) : f32[4]
    yield %z
  }
  %s = reduce_sum %x axes=[1] keep_dims=false : f32[4]
  return %s, %c
}",
    )
    .expect("the program parses");
    let report = ptir::diff(&program, &Options::default()).expect("both engines run");
    assert!(report.ok(), "{report}");
}

#[test]
fn a_match_that_changed_nothing_is_retried_in_the_next_iteration() {
    let text = include_str!("../data/retry_after_transient_failure.ptir");
    let program = ptir::ir::parse(text).expect("the program parses");
    let report = ptir::diff(&program, &Options::default()).expect("both engines run");
    assert!(report.ok(), "{report}");
}

#[test]
fn a_result_that_reads_the_root_it_replaces_is_declined_by_greedy() {
    // `?t` is the root: replacing it by `-(-t)` would make the new ops read themselves (an
    // SSA cycle); greedy panicked in `replace_op`. Greedy declines the match, saturation
    // keeps both in one e-class; both stop by themselves and compute the same.
    let rules = "; -(-t) = t in any ring\n(rule wrap-neg ?t:(neg ?a) => (neg (neg ?t)))\n";
    let options = Options {
        rule_files: vec![rule_file("wrap.rules", rules)],
        validate: Some(8),
        ..Options::default()
    };
    let program = ptir::ir::parse(
        "func @f(%x: i32[4], %y: i32[4]) -> (i32[4]) {
  %n = neg %x : i32[4]
  %s = add %n, %y : i32[4]
  return %s
}",
    )
    .expect("the program parses");
    for engine in [Engine::Greedy, Engine::Saturation] {
        let out = ptir::optimize(&program, &with_engine(engine, options.clone()))
            .unwrap_or_else(|e| panic!("{engine}: {e}"));
        ptir::ir::verify(&out.program).expect("the output verifies");
        if engine == Engine::Greedy {
            let fired = out.report.rules_fired.iter().any(|r| r.rule == "wrap-neg");
            assert!(!fired, "{}", out.report);
        }
    }
    let report = ptir::diff(&program, &options).expect("both engines run");
    assert!(report.ok(), "{report}");
}

/// The mask `jnp.tril` computes, as JAX exports it: two iotas, an add of a zero, a compare and
/// a select, in a private helper. The integer associativity and distributivity rules, whose
/// results the analysis folded into new constants, made saturation enumerate sums of
/// constants (19 e-nodes to 29,000 and the time limit); now it saturates small, and the mask
/// stays computed from iotas instead of becoming a stored 128x128 constant.
const TRIL: &str = r#"module @jit_f {
  func.func public @main(%arg0: tensor<128x128xf32>) -> (tensor<128x128xf32>) {
    %0 = call @tril(%arg0) : (tensor<128x128xf32>) -> tensor<128x128xf32>
    return %0 : tensor<128x128xf32>
  }
  func.func private @tril(%arg0: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<128x128xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<128x128xi32>
    %2 = stablehlo.add %0, %1 : tensor<128x128xi32>
    %3 = stablehlo.iota dim = 1 : tensor<128x128xi32>
    %4 = stablehlo.compare  GE, %2, %3,  SIGNED : (tensor<128x128xi32>, tensor<128x128xi32>) -> tensor<128x128xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x128xf32>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<128x128xi1>, tensor<128x128xf32>
    return %6 : tensor<128x128xf32>
  }
}"#;

/// Asserts that every function of the run saturated (`context` names the case); the number of
/// functions.
fn assert_saturated(report: &ptir::Report, context: &str) -> usize {
    for run in &report.stops {
        assert!(
            matches!(run.run.stop, StopReason::Saturated),
            "{context} @{}: {}",
            run.function,
            run.run
        );
    }
    report.stops.len()
}

#[test]
fn a_tril_mask_saturates_small_and_stays_computed() {
    for inline_calls in [false, true] {
        let options = ptir::format::ReadOptions {
            inline_calls,
            ..Default::default()
        };
        let (program, _) =
            ptir::format::read_source(TRIL, ptir::format::Format::Mlir, &options).unwrap();
        let out = ptir::optimize(&program, &Options::default()).unwrap();
        assert_saturated(&out.report, "tril");
        let nodes = out.report.egraph.map_or(0, |e| e.nodes);
        assert!(nodes <= 40, "{nodes} e-nodes\n{}", out.report);
        let text = ptir::ir::print(&out.program);
        assert_eq!(text.matches("iota").count(), 2, "{text}");
        assert!(
            !text.contains("dense("),
            "the mask became a constant:\n{text}"
        );
    }
}

/// A rewrite that moves an op along a chain moves it one op per iteration: a slice of the end
/// of a chain of elementwise ops 100 deep (as a model's `x[-1]` through its residual stream)
/// rises to the input by default, where a fixed limit of 30 iterations stopped it a third of
/// the way (the iteration limit scales with the depth of the function).
#[test]
fn a_slice_rises_through_a_chain_deeper_than_the_old_iteration_limit() {
    let depth = 100;
    let mut text = String::from("func @f(%0: f32[64,8]) -> (f32[1,8]) {\n");
    for i in 0..depth {
        let op = if i % 2 == 0 { "exp" } else { "neg" };
        text.push_str(&format!("  %{} = {op} %{i} : f32[64,8]\n", i + 1));
    }
    text.push_str(&format!(
        "  %{} = slice %{depth} start=[63,0] limit=[64,8] stride=[1,1] : f32[1,8]\n  return %{}\n}}\n",
        depth + 1,
        depth + 1
    ));
    let program = ptir::ir::parse(&text).unwrap();
    let out = ptir::optimize(&program, &Options::default()).unwrap();
    assert_saturated(&out.report, "deep slice");
    let printed = ptir::ir::print(&out.program);
    // Every op runs on the one row: the input's type is left only on the parameter.
    assert_eq!(printed.matches("f32[64,8]").count(), 1, "{printed}");
    // An explicit limit is the user's.
    let limited = Options {
        limits: Limits {
            iterations: Some(30),
            ..Limits::default()
        },
        ..Options::default()
    };
    let out = ptir::optimize(&program, &limited).unwrap();
    assert!(
        matches!(
            out.report.stops[0].run.stop,
            StopReason::IterationLimit { limit: 30 }
        ),
        "{}",
        out.report
    );
}

/// The class the tril mask belongs to, generated: integer index arithmetic on iotas with splat
/// and dense constants, compared into masks (the extended generator's index arithmetic, alone).
/// Every function saturates under the default options, with at most 20 e-nodes per input
/// instruction.
#[test]
fn index_arithmetic_saturates_within_20_e_nodes_per_instruction() {
    let runs = saturates_within_20_e_nodes_per_instruction(&Options::default(), |cfg| {
        cfg.index_arith_weight = 40;
    });
    assert!(runs >= 80, "{runs} runs");
}

/// Long reductions written out (`add`, `mul`, `max`, `min` over up to 16 terms, repeated
/// values and constants among them, any grouping), under the default options and under
/// `--fast-math`. Unbounded associativity of `max` and `min` (exact, so on by default) with
/// their commutativity enumerated the groupings: generated programs stopped on the time,
/// node and iteration limits.
#[test]
fn long_reductions_saturate_within_20_e_nodes_per_instruction() {
    for fast_math in [false, true] {
        let options = Options {
            fast_math,
            ..Options::default()
        };
        let runs = saturates_within_20_e_nodes_per_instruction(&options, |cfg| {
            cfg.long_reduction_weight = 20;
        });
        assert!(runs >= 80, "{runs} runs");
    }
}

/// Optimizes 40 generated programs (no regions, pure) whose config `shape` adjusts; asserts
/// that every function saturates with at most 20 e-nodes per input instruction. Returns the
/// runs.
fn saturates_within_20_e_nodes_per_instruction(
    options: &Options,
    shape: impl Fn(&mut ptir::ir::generate::GenConfig),
) -> usize {
    use ptir::ir::generate::{generate, GenConfig};
    let mut runs = 0;
    for seed in 0..40 {
        let mut cfg = GenConfig {
            seed,
            size: 30,
            allow_regions: false,
            allow_impure: false,
            ..GenConfig::default()
        };
        shape(&mut cfg);
        let program = generate(&cfg);
        let out = ptir::optimize(&program, options).unwrap();
        runs += assert_saturated(&out.report, &format!("seed {seed}\n{program}"));
        let nodes = out.report.egraph.map_or(0, |e| e.nodes);
        let insts = program.num_insts().max(1);
        assert!(
            nodes <= 20 * insts,
            "seed {seed}: {nodes} e-nodes for {insts} instructions\n{program}"
        );
    }
    runs
}

/// `--report` says what `--fast-math` would have made of a program when the cost model
/// predicts it more than twice as cheap (an f32 matrix-vector chain: the dot order), and says
/// nothing when it would not (a softmax).
#[test]
fn the_report_says_what_fast_math_would_have_made_cheaper() {
    let read = |path: &str| {
        let text = std::fs::read_to_string(path).expect("the zoo model");
        ptir::format::read_program(&text, ptir::format::Format::Mlir).expect("reads")
    };
    let options = Options::default();
    let chain = read("corpus/zoo/matvec_chain_f32.mlir");
    let out = ptir::optimize(&chain, &options).unwrap();
    let hint = ptir::fast_math_hint(&chain, &options, &out).unwrap();
    let hint = hint.expect("a hint for the f32 chain");
    assert!(
        hint.starts_with("--fast-math would make the program"),
        "{hint}"
    );
    assert!(hint.contains("dot-assoc"), "{hint}");
    let softmax = read("corpus/mlir/softmax.mlir");
    let out = ptir::optimize(&softmax, &options).unwrap();
    assert_eq!(
        ptir::fast_math_hint(&softmax, &options, &out).unwrap(),
        None
    );
    let fast = Options {
        fast_math: true,
        ..Options::default()
    };
    let out = ptir::optimize(&chain, &fast).unwrap();
    assert_eq!(ptir::fast_math_hint(&chain, &fast, &out).unwrap(), None);
    // The hint's second run gets what the first left of the time limit: nothing after a
    // first run that used it all up.
    let mut out = ptir::optimize(&chain, &options).unwrap();
    out.report.phases.push(ptir::Phase {
        phase: "saturate".into(),
        time: options.limits.time,
    });
    assert_eq!(ptir::fast_math_hint(&chain, &options, &out).unwrap(), None);
}
