//! `--target`: legalizing the optimized program for a conversion target, from the library and
//! the command line; every way it can fail is one located message and exit status 2.

use crate::support::{ptir_opt, text};
use std::process::Output;

/// The result lines of `ptir-opt run` (the summary line names the function and its size).
fn results(out: &Output) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("result"))
        .map(str::to_string)
        .collect()
}

#[test]
fn portable_gpt2_block_has_no_calls_and_computes_what_the_input_computes() {
    for engine in ["eqsat", "greedy"] {
        let out = ptir_opt(
            &[
                "corpus/gpt2_block.ptir",
                "--engine",
                engine,
                "--target",
                "portable",
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let program = text(&out.stdout);
        assert!(!program.contains("call @"), "{engine}:\n{program}");
        assert!(!program.contains("extern @"), "{engine}:\n{program}");
        for seed in ["1", "2"] {
            let want = ptir_opt(&["run", "corpus/gpt2_block.ptir", "--seed", seed], "");
            let got = ptir_opt(&["run", "-", "--seed", seed], &program);
            assert!(got.status.success(), "{}", text(&got.stderr));
            assert_eq!(results(&got), results(&want), "{engine}, seed {seed}");
        }
    }
}

#[test]
fn without_a_target_the_fused_calls_stay() {
    // the tensor model prices a fused call below its body, so extraction takes the calls
    let out = ptir_opt(&["corpus/gpt2_block.ptir", "--cost", "tensor"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("call @"));
}

#[test]
fn a_target_that_cannot_be_reached_fails_and_names_every_illegal_op() {
    let dir = crate::support::scratch_dir("target-files");
    let path = dir.join("no-dot.target");
    std::fs::write(
        &path,
        "target no-dot\nlegal-ops *\nillegal-ops dot_general\nillegal-calls fused\n",
    )
    .unwrap();
    let out = ptir_opt(&["corpus/mlp.ptir", "--target", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("conversion to target `no-dot` failed"),
        "{err}"
    );
    assert!(err.contains("dot_general"), "{err}");
    assert!(text(&out.stdout).is_empty(), "no program is printed");

    std::fs::write(&path, "target bad\nlegal-ops *\nlegal-dtypes f33\n").unwrap();
    let out = ptir_opt(&["corpus/mlp.ptir", "--target", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("no-dot.target:3:14: unknown dtype `f33`"),
        "{err}"
    );

    let out = ptir_opt(&["corpus/mlp.ptir", "--target", "no-such-target"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no-such-target"));
}

#[test]
fn the_library_call_legalizes_and_reports() {
    let program =
        ptir::ir::parse(&std::fs::read_to_string("corpus/softmax.ptir").unwrap()).unwrap();
    let options = ptir::Options {
        target: Some(ptir::load_target("portable").unwrap()),
        cost: ptir::Cost::Tensor,
        ..ptir::Options::default()
    };
    let out = ptir::optimize(&program, &options).unwrap();
    let conversion = out.report.conversion.clone().unwrap();
    assert_eq!(conversion.target, "portable");
    assert_eq!(
        conversion.rewrites,
        vec![ptir::RuleCount {
            rule: "expand-fused-call".to_string(),
            count: 1
        }]
    );
    assert!(out
        .report
        .to_string()
        .contains("legalized for target portable: 1 rewrites"));
}

#[test]
fn outline_defines_every_fused_function_and_runs_without_externs() {
    for engine in ["eqsat", "greedy"] {
        let out = ptir_opt(
            &[
                "corpus/gpt2_block.ptir",
                "--engine",
                engine,
                "--outline",
                "--cost",
                "tensor",
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let printed = text(&out.stdout);
        assert!(!printed.contains("extern @"), "{engine}:\n{printed}");
        assert!(
            printed.contains("func @layernorm_fused_0("),
            "{engine}:\n{printed}"
        );
        assert!(printed.contains("call @linear_0("), "{engine}:\n{printed}");
        // No externs registered: the plain interpreter runs it.
        let outlined = ptir::ir::parse(&printed).unwrap();
        let input =
            ptir::ir::parse(&std::fs::read_to_string("corpus/gpt2_block.ptir").unwrap()).unwrap();
        let main = input.function("gpt2").unwrap();
        let args = ptir::ir::generate::random_inputs(main, 3);
        let want = ptir::interpreter(&input).run("gpt2", &args).unwrap();
        let got = ptir::ir::run(&outlined, "gpt2", &args).unwrap();
        assert_eq!(got, want, "{engine}");
    }
}

#[test]
fn rules_compose_over_outlined_functions_when_optimized_again() {
    let first = ptir_opt(&["corpus/gpt2_block.ptir", "--outline"], "");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let printed = text(&first.stdout);
    // Optimized again, the outlined @linear_0 is the library's (its body is the idiom): the
    // rules' externs keep their names, and nothing is renamed into ptir.*.
    let again = ptir_opt(&["-", "--outline", "--report"], &printed);
    assert!(again.status.success(), "{}", text(&again.stderr));
    let report = text(&again.stderr);
    assert!(!report.contains("ptir."), "{report}");
    assert!(!text(&again.stdout).contains("ptir."));
}

/// Regression (extended generator, seed 1039): a function whose body is exactly a fused
/// extern's idiom (a user's own `@softmax_fused`, or an outlined `@softmax_fused_0`) is the
/// extern's definition; the rules must not raise its body to a call of itself.
#[test]
fn a_function_defining_a_fused_extern_never_calls_itself() {
    let input = ptir::ir::parse(&std::fs::read_to_string("corpus/softmax.ptir").unwrap()).unwrap();
    let outlined = ptir::optimize(
        &input,
        &ptir::Options {
            outline: true,
            cost: ptir::Cost::Tensor,
            ..Default::default()
        },
    )
    .unwrap()
    .program;
    for engine in [ptir::Engine::Saturation, ptir::Engine::Greedy] {
        let options = ptir::Options {
            engine,
            outline: true,
            cost: ptir::Cost::Tensor,
            ..Default::default()
        };
        let again = ptir::optimize(&outlined, &options).unwrap().program;
        let def = again.function("softmax_fused_0").unwrap();
        let mut calls = 0;
        def.body
            .walk(&mut |i, _| calls += matches!(i.op, ptir::ir::Op::Call { .. }) as usize);
        assert_eq!(calls, 0, "{engine}:\n{again}");
        let args = ptir::ir::generate::random_inputs(input.function("softmax").unwrap(), 1);
        let want = ptir::interpreter(&input).run("softmax", &args).unwrap();
        let got = ptir::ir::run(&again, "softmax", &args).unwrap();
        assert_eq!(got, want, "{engine}");
    }
}
