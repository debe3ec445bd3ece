//! Rule soundness through the facade, for both engines: rules from user text (written to a
//! temporary file, as `--rules` reads them), programs that define functions named like rule
//! externs, and checks that the optimized program computes what the input computes.

use ptir::ir::{parse, DType, Program, Tensor, TensorType, Value};
use ptir::{Engine, Options};
use std::path::{Path, PathBuf};

const ENGINES: [Engine; 2] = [Engine::Greedy, Engine::Saturation];

/// Writes `text` to a fresh rule file for test `name` and returns its path.
fn rule_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptir-rules-soundness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.rules"));
    std::fs::write(&path, text).expect("rule file written");
    path
}

/// Options for `engine` with only the rules of `path` (no bundled library).
fn user_rules(engine: Engine, path: PathBuf) -> Options {
    Options {
        engine,
        bundled_rules: false,
        rule_files: vec![path],
        cost: ptir::Cost::Tensor,
        ..Options::default()
    }
}

fn tensor(dtype: DType, shape: &[usize], xs: &[f64]) -> Value {
    Tensor::from_f64(TensorType::new(dtype, shape.to_vec()), xs).into()
}

/// Runs `func` of `program` with the project's interpreter (fused externs included).
fn run(program: &Program, func: &str, args: &[Value]) -> Vec<Value> {
    ptir::interpreter(program)
        .run(func, args)
        .unwrap_or_else(|e| panic!("running @{func}: {e}\n{program}"))
}

/// Optimizes `program` with `options` and checks that `func` computes the same on `args`;
/// returns the optimized program and its report.
fn assert_same_results(
    program: &Program,
    options: &Options,
    func: &str,
    args: &[Value],
) -> ptir::Optimized {
    let out =
        ptir::optimize(program, options).unwrap_or_else(|e| panic!("{}: {e}", options.engine));
    assert_eq!(
        run(&out.program, func, args),
        run(program, func, args),
        "{} changed what @{func} computes:\n{}",
        options.engine,
        out.program
    );
    out
}

/// Options for `engine` with the bundled rules and those of `path`.
fn with_rules(engine: Engine, path: &Path) -> Options {
    Options {
        engine,
        rule_files: vec![path.to_path_buf()],
        cost: ptir::Cost::Tensor,
        ..Options::default()
    }
}

/// `linear` is odd in `(x, b)`: true of the library extern, false of a user's ReLU layer.
const NEG_OF_LINEAR: &str = "; linear is odd in (x, b): -(x w + b) = (-x) w + (-b), exactly (rounding is symmetric in sign)\n\
    (rule neg-of-linear\n  (neg (call @linear ?x ?w ?b))\n  => (call @linear (neg ?x) ?w (neg ?b)))\n";

/// `(x*c + y*c) => (x+y)*c` must not match `x*3 + y*5`: a variable named twice binds one value.
#[test]
fn a_variable_named_twice_binds_one_value_in_both_engines() {
    let rules = rule_file(
        "distribute",
        "; distributivity over integers (exact, wrapping)\n\
         (rule factor-mul\n  (add (mul ?x (splat ?c)) (mul ?y (splat ?c)))\n  => (mul (add ?x ?y) (splat ?c)))\n",
    );
    let program = parse(
        "func @main(%x: i32[2], %y: i32[2]) -> (i32[2]) {\n\
         \x20 %three = constant splat(3) : i32[2]\n\
         \x20 %five = constant splat(5) : i32[2]\n\
         \x20 %a = mul %x, %three : i32[2]\n\
         \x20 %b = mul %y, %five : i32[2]\n\
         \x20 %c = add %a, %b : i32[2]\n\
         \x20 return %c\n}",
    )
    .expect("parses");
    let args = [
        tensor(DType::I32, &[2], &[1.0, 2.0]),
        tensor(DType::I32, &[2], &[10.0, -4.0]),
    ];
    for engine in ENGINES {
        let options = user_rules(engine, rules.clone());
        assert_same_results(&program, &options, "main", &args);
    }
    // Equal constants still factor.
    let same = parse(
        "func @main(%x: i32[2], %y: i32[2]) -> (i32[2]) {\n\
         \x20 %three = constant splat(3) : i32[2]\n\
         \x20 %a = mul %x, %three : i32[2]\n\
         \x20 %b = mul %y, %three : i32[2]\n\
         \x20 %c = add %a, %b : i32[2]\n\
         \x20 return %c\n}",
    )
    .expect("parses");
    for engine in ENGINES {
        let out = ptir::optimize(&same, &user_rules(engine, rules.clone())).expect("optimizes");
        assert_eq!(out.program.num_insts(), 3, "{engine}:\n{}", out.program);
    }
}

/// `--enable sofmax` (a typo) used to keep no rule at all, in silence.
#[test]
fn an_enable_or_disable_name_matching_nothing_is_an_error() {
    let program =
        parse("func @f(%x: f32[2]) -> (f32[2]) {\n  %a = neg %x : f32[2]\n  return %a\n}")
            .expect("parses");
    for engine in ENGINES {
        for (enable, disable) in [(vec!["fusoin"], vec![]), (vec![], vec!["mul-onee"])] {
            let options = Options {
                engine,
                enable: enable.iter().map(|s| s.to_string()).collect(),
                disable: disable.iter().map(|s| s.to_string()).collect(),
                cost: ptir::Cost::Tensor,
                ..Options::default()
            };
            let err = ptir::optimize(&program, &options).expect_err("an unknown name");
            let want = match enable.first() {
                Some(_) => "no rule is named or labelled `fusoin` (did you mean `fusion`?)",
                None => "no rule is named or labelled `mul-onee` (did you mean `mul-one`?)",
            };
            assert!(matches!(err, ptir::Error::UnknownRule(_)), "{err:?}");
            assert_eq!(err.to_string(), want);
        }
        // Known names and labels are fine.
        let options = Options {
            engine,
            enable: vec!["canonicalize".into(), "mul-one".into()],
            cost: ptir::Cost::Tensor,
            ..Options::default()
        };
        ptir::optimize(&program, &options).expect("known names");
    }
}

/// `--engine greedy --fast-math` ran no fast-math rule: the facade filtered by the options,
/// then `Canonicalize::with_rules` dropped `fast-math` again.
#[test]
fn fast_math_reaches_both_engines() {
    let program =
        parse("func @f(%x: f32[2]) -> (f32[2]) {\n  %a = sub %x, %x : f32[2]\n  return %a\n}")
            .expect("parses");
    for engine in ENGINES {
        let exact = ptir::optimize(
            &program,
            &Options {
                engine,
                cost: ptir::Cost::Tensor,
                ..Options::default()
            },
        )
        .expect("optimizes");
        assert_eq!(
            exact.program.num_insts(),
            1,
            "{engine}: x - x is not 0 in IEEE"
        );
        let fast = Options {
            engine,
            fast_math: true,
            cost: ptir::Cost::Tensor,
            ..Options::default()
        };
        let out = ptir::optimize(&program, &fast).expect("optimizes");
        assert!(
            out.report.fired("sub-self") > 0,
            "{engine}: {:?}\n{}",
            out.report.rules_fired,
            out.program
        );
        let text = ptir::ir::print(&out.program);
        assert!(text.contains("splat(0.0)"), "{engine}:\n{text}");
    }
}

/// A rule building a result of another type than the value it replaces is a bug in the
/// rule: both engines stop with the same message (greedy used to skip it in silence).
#[test]
fn an_ill_typed_rule_is_the_same_error_in_both_engines() {
    for (name, text) in [
        // An op result (instantiated).
        (
            "ill-typed-op",
            "(rule bad (neg ?x) => (transpose ?x (1 0)))\n",
        ),
        // A source variable (the greedy driver's forwarding path).
        ("ill-typed-var", "(rule bad (reduce_sum ?x ?a ?k) => ?x)\n"),
    ] {
        let rules = rule_file(name, text);
        let program = parse(
            "func @f(%x: f32[2,3]) -> (f32[2,3]) {\n  %a = neg %x : f32[2,3]\n  %b = reduce_sum %a axes=[1] keep_dims=true : f32[2,1]\n  %c = broadcast %b dims=[0,1] : f32[2,3]\n  return %c\n}",
        );
        let program = program.expect("parses");
        let mut messages = Vec::new();
        for engine in ENGINES {
            let err = ptir::optimize(&program, &user_rules(engine, rules.clone()))
                .expect_err("an ill-typed rule");
            let message = err.to_string();
            assert!(
                message.contains("rule `bad`: result 0 has type"),
                "{engine}: {message}"
            );
            messages.push(message);
        }
        assert_eq!(messages[0], messages[1], "{name}");
    }
}

/// A program with its own `@linear` (a ReLU layer) and `@softmax_fused` (anything), and a
/// `@main` that computes the idioms the fusion rules raise to those names.
const USER_NAMED_LIKE_EXTERNS: &str = "\
func @linear(%x: f32[2,3], %w: f32[3,4], %b: f32[4]) -> (f32[2,4]) {
  %y = dot_general %x, %w lhs_contract=[1] rhs_contract=[0] : f32[2,4]
  %bb = broadcast %b dims=[1] : f32[2,4]
  %s = add %y, %bb : f32[2,4]
  %z = constant splat(0.0) : f32[2,4]
  %r = max %s, %z : f32[2,4]
  return %r
}
func @softmax_fused(%x: f32[2,4]) -> (f32[2,4]) {
  %n = neg %x : f32[2,4]
  return %n
}
func @main(%x: f32[2,3], %w: f32[3,4], %b: f32[4]) -> (f32[2,4], f32[2,4], f32[2,4]) {
  %y = dot_general %x, %w lhs_contract=[1] rhs_contract=[0] : f32[2,4]
  %bb = broadcast %b dims=[1] : f32[2,4]
  %s = add %y, %bb : f32[2,4]
  %m = reduce_max %s axes=[1] keep_dims=true : f32[2,1]
  %mb = broadcast %m dims=[0,1] : f32[2,4]
  %d = sub %s, %mb : f32[2,4]
  %e = exp %d : f32[2,4]
  %z = reduce_sum %e axes=[1] keep_dims=true : f32[2,1]
  %zb = broadcast %z dims=[0,1] : f32[2,4]
  %p = div %e, %zb : f32[2,4]
  %u = call @linear(%x, %w, %b) : f32[2,4]
  %v = call @softmax_fused(%s) : f32[2,4]
  return %p, %u, %v
}
";

fn linear_args() -> Vec<Value> {
    let xs: Vec<f64> = (0..6).map(|i| (i as f64 * 0.7).sin() * 2.0).collect();
    let ws: Vec<f64> = (0..12).map(|i| (i as f64 * 1.3).cos()).collect();
    vec![
        tensor(DType::F32, &[2, 3], &xs),
        tensor(DType::F32, &[3, 4], &ws),
        tensor(DType::F32, &[4], &[0.5, -3.0, 1.0, -0.25]),
    ]
}

/// Rule results used to call the user's `@linear` and `@softmax_fused` (wrong values in
/// `@main`, and `@linear`'s own body became a call to itself): the rule externs are renamed
/// for this program, the renaming is reported, and the output computes what the input does.
#[test]
fn rule_results_never_call_a_users_function() {
    let program = parse(USER_NAMED_LIKE_EXTERNS).expect("parses");
    for engine in ENGINES {
        let options = Options {
            engine,
            cost: ptir::Cost::Tensor,
            ..Options::default()
        };
        assert_same_results(&program, &options, "linear", &linear_args());
        let out = assert_same_results(&program, &options, "main", &linear_args());
        let text = ptir::ir::print(&out.program);
        assert!(
            text.contains("call @ptir.linear("),
            "{engine}: raised\n{text}"
        );
        assert!(
            text.contains("call @ptir.softmax_fused("),
            "{engine}: raised\n{text}"
        );
        let own = out.program.function("linear").expect("kept");
        let mut calls_itself = false;
        own.body.walk(&mut |i, _| {
            calls_itself |= matches!(&i.op, ptir::ir::Op::Call { callee } if callee == "linear");
        });
        assert!(!calls_itself, "{engine}: @linear calls itself\n{text}");
        for name in ["linear", "softmax_fused"] {
            let note = format!(
                "rule extern @{name} is @ptir.{name} here: the program has its own @{name}"
            );
            assert!(
                out.report.notes.contains(&note),
                "{engine}: {:?}",
                out.report.notes
            );
            assert!(out.report.to_string().contains(&note));
        }
        // The output is a program like any other: it prints and parses back, and optimizing
        // it again changes nothing more.
        assert_eq!(parse(&text).expect("the output parses"), out.program);
        let again = ptir::optimize(&out.program, &options).expect("optimizes again");
        assert_eq!(again.program, out.program, "{engine}");
    }
}

/// A user function that merely shares the prefix (`@linear_0`, which call-prefix matching
/// would take for the extern) is the user's too: rule results do not call it and rule
/// sources written for the extern do not match it.
#[test]
fn a_users_function_sharing_an_externs_prefix_is_not_the_extern() {
    let text = USER_NAMED_LIKE_EXTERNS
        .replace("@linear(", "@linear_0(")
        .replace("@softmax_fused(", "@softmax_fused_7(")
        .replace(
            "  return %p, %u, %v\n",
            "  %nu = neg %u : f32[2,4]\n  return %p, %nu, %v\n",
        );
    let program = parse(&text).expect("parses");
    // -(x w + b) = (-x) w + (-b) exactly (rounding is symmetric in sign): true of the
    // extern, false of the user's ReLU layer.
    let rules = rule_file("compose", NEG_OF_LINEAR);
    for engine in ENGINES {
        let options = with_rules(engine, &rules);
        let out = assert_same_results(&program, &options, "main", &linear_args());
        assert!(
            out.report.notes.iter().any(|n| n.contains("own @linear_0")),
            "{engine}: {:?}",
            out.report.notes
        );
        assert!(
            out.report.fired("neg-of-linear") == 0,
            "{engine}: {:?}",
            out.report.rules_fired
        );
    }
}

/// A rule matching a call that another rule introduced (`linear` raises `x w + b` to
/// `call @linear`, then `neg-of-linear` matches `neg` of that call) fired under greedy but
/// never under saturation: the e-graph engine compiled call patterns against the callees
/// present before saturation.
#[test]
fn rules_compose_through_introduced_calls_in_both_engines() {
    let program = parse(
        "func @main(%x: f32[2,3], %w: f32[3,4], %b: f32[4]) -> (f32[2,4]) {\n\
         \x20 %y = dot_general %x, %w lhs_contract=[1] rhs_contract=[0] : f32[2,4]\n\
         \x20 %bb = broadcast %b dims=[1] : f32[2,4]\n\
         \x20 %s = add %y, %bb : f32[2,4]\n\
         \x20 %n = neg %s : f32[2,4]\n\
         \x20 return %n\n}",
    )
    .expect("parses");
    let rules = rule_file("compose-neg", NEG_OF_LINEAR);
    for engine in ENGINES {
        let options = with_rules(engine, &rules);
        let out = assert_same_results(&program, &options, "main", &linear_args());
        assert!(
            out.report.fired("neg-of-linear") > 0,
            "{engine}: {:?}",
            out.report.rules_fired
        );
    }
}

/// A user function named exactly like a rule extern *whose body is the extern's idiom* is
/// still the user's: it has one signature, and rules raising the idiom at another shape must
/// not call it (random program 1015734, size 5: `@softmax_fused` on f32[2,4] was called on
/// f32[4], and neither engine's output verified).
#[test]
fn a_users_definition_of_an_extern_at_one_shape_is_not_called_at_another() {
    let text = "func @softmax_fused(%x: f32[2,4]) -> (f32[2,4]) {
  %m = reduce_max %x axes=[1] keep_dims=true : f32[2,1]
  %mb = broadcast %m dims=[0,1] : f32[2,4]
  %s = sub %x, %mb : f32[2,4]
  %e = exp %s : f32[2,4]
  %z = reduce_sum %e axes=[1] keep_dims=true : f32[2,1]
  %zb = broadcast %z dims=[0,1] : f32[2,4]
  %y = div %e, %zb : f32[2,4]
  return %y
}
func @main(%x: f32[1,4]) -> (f32[1,4]) {
  %m = reduce_max %x axes=[1] keep_dims=true : f32[1,1]
  %mb = broadcast %m dims=[0,1] : f32[1,4]
  %s = sub %x, %mb : f32[1,4]
  %e = exp %s : f32[1,4]
  %z = reduce_sum %e axes=[1] keep_dims=true : f32[1,1]
  %zb = broadcast %z dims=[0,1] : f32[1,4]
  %y = div %e, %zb : f32[1,4]
  return %y
}
";
    let program = parse(text).expect("parses");
    let x = tensor(DType::F32, &[1, 4], &[0.5, -1.0, 2.0, 0.25]);
    for engine in ENGINES {
        let options = Options {
            engine,
            cost: ptir::Cost::Tensor,
            ..Options::default()
        };
        let out = assert_same_results(&program, &options, "main", std::slice::from_ref(&x));
        let text = ptir::ir::print(&out.program);
        assert!(
            text.contains("call @ptir.softmax_fused("),
            "{engine}: raised to the library's extern\n{text}"
        );
    }
}
