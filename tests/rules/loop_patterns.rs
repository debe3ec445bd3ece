//! Loop patterns: `.pat` idioms over `scan`, `while` and `cond`, matched up to value names and
//! raised before both engines (`crates/ptir-rules/src/loop_pat.rs`).

use crate::support::{assert_user_error, ptir_opt, scratch_file, text};

const EMA: &str = "tests/fixtures/ema_loop.pat";

/// Two exponential moving averages at different sizes, with other value names than the
/// pattern's, and a near miss: the same loop computing `(2 - a) * x`.
const SMOOTH: &str = include_str!("../../corpus/ema.ptir");

fn run_ok(args: &[&str]) -> (String, String) {
    let out = ptir_opt(args, "");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    (text(&out.stdout), stderr)
}

#[test]
fn a_loop_pattern_raises_every_loop_alike_up_to_names_in_both_engines_and_no_other() {
    let program = "corpus/ema.ptir".to_string();
    for engine in ["eqsat", "greedy"] {
        let (out, err) = run_ok(&[&program, "--rules", EMA, "--engine", engine, "--report"]);
        assert_eq!(out.matches("call @ema(").count(), 2, "{engine}: {out}");
        // The near miss (`2 - a`) stays a loop.
        assert_eq!(out.matches("scan ").count(), 1, "{engine}: {out}");
        assert!(err.contains("2  ema"), "{engine}: {err}");
    }
}

#[test]
fn with_outline_the_callee_is_defined_by_the_pattern_at_each_signature_and_validates() {
    let program = "corpus/ema.ptir".to_string();
    let (out, err) = run_ok(&[
        &program,
        "--rules",
        EMA,
        "--outline",
        "--validate",
        "--report",
    ]);
    assert!(
        out.contains("func @ema_0(%0: f32[8], %1: f32[16,8], %2: f32[8])"),
        "{out}"
    );
    assert!(
        out.contains("func @ema_1(%0: f32[3], %1: f32[5,3], %2: f32[3])"),
        "{out}"
    );
    assert!(out.contains("length=5"), "{out}");
    assert!(!out.contains("extern"), "the output needs no extern: {out}");
    assert!(
        err.contains("outlined @ema as @ema_0, defined by its loop pattern"),
        "{err}"
    );
    assert!(err.contains("16 runs agree"), "{err}");
}

#[test]
fn a_while_pattern_matches_its_outer_constants_captures_and_tuple_get() {
    let pat = scratch_file(
        "loop_patterns",
        "damped.pat",
        "extern @damped_loop(f32[8], f32[], f32[]) -> (f32[8]) pure

// ten steps of x <- x * decay + bias
func @damped_pattern(%x: f32[8], %decay: f32[], %bias: f32[]) -> (f32[8]) {
  %zero = constant splat(0) : i32[]
  %ten = constant splat(10) : i32[]
  %r = while %x, %zero : (f32[8], i32[]) {
  ^(%cx: f32[8], %ci: i32[]):
    %go = lt %ci, %ten : bool[]
    yield %go
  } {
  ^(%bx: f32[8], %bi: i32[]):
    %db = broadcast %decay dims=[] : f32[8]
    %bb = broadcast %bias dims=[] : f32[8]
    %m = mul %bx, %db : f32[8]
    %nx = add %m, %bb : f32[8]
    %one = constant splat(1) : i32[]
    %ni = add %bi, %one : i32[]
    yield %nx, %ni
  }
  %y = tuple_get %r index=0 : f32[8]
  return %y
}

func @damped_replacement(%x: f32[8], %decay: f32[], %bias: f32[]) -> (f32[8]) {
  %y = call @damped_loop(%x, %decay, %bias) : f32[8]
  return %y
}
",
    );
    let (out, _) = run_ok(&[
        "corpus/while_loop.ptir",
        "--no-bundled-rules",
        "--rules",
        &pat,
    ]);
    assert!(out.contains("call @damped_loop(%0, %1, %2)"), "{out}");
    assert!(
        !out.contains("while"),
        "the loop and its counters are gone: {out}"
    );
    let (out, _) = run_ok(&[
        "corpus/while_loop.ptir",
        "--no-bundled-rules",
        "--rules",
        &pat,
        "--outline",
        "--validate",
    ]);
    assert!(out.contains("func @damped_loop_0("), "{out}");
}

#[test]
fn a_parameter_bound_twice_must_bind_one_value_and_a_capture_must_come_from_outside() {
    let pat = scratch_file(
        "loop_patterns",
        "twice.pat",
        "extern @scale_sum(f32[4], f32[3,4]) -> (f32[4]) pure

// the sum of the rows of xs, each scaled by w, starting from w
func @scale_sum_pattern(%w: f32[4], %xs: f32[3,4]) -> (f32[4]) {
  %r = scan %w, %xs num_carry=1 length=3 : f32[4] {
  ^(%h: f32[4], %x: f32[4]):
    %m = mul %w, %x : f32[4]
    %n = add %h, %m : f32[4]
    yield %n
  }
  return %r
}

func @scale_sum_replacement(%w: f32[4], %xs: f32[3,4]) -> (f32[4]) {
  %y = call @scale_sum(%w, %xs) : f32[4]
  return %y
}
",
    );
    let program = scratch_file(
        "loop_patterns",
        "twice.ptir",
        "func @f(%w: f32[4], %v: f32[4], %xs: f32[3,4]) -> (f32[4], f32[4], f32[4]) {
  %a = scan %w, %xs num_carry=1 length=3 : f32[4] {
  ^(%h: f32[4], %x: f32[4]):
    %m = mul %w, %x : f32[4]
    %n = add %h, %m : f32[4]
    yield %n
  }
  %b = scan %v, %xs num_carry=1 length=3 : f32[4] {
  ^(%h2: f32[4], %x2: f32[4]):
    %m2 = mul %w, %x2 : f32[4]
    %n2 = add %h2, %m2 : f32[4]
    yield %n2
  }
  %c = scan %w, %xs num_carry=1 length=3 : f32[4] {
  ^(%h3: f32[4], %x3: f32[4]):
    %m3 = mul %h3, %x3 : f32[4]
    %n3 = add %h3, %m3 : f32[4]
    yield %n3
  }
  return %a, %b, %c
}
",
    );
    let (out, _) = run_ok(&["match", &program, "--no-bundled-rules", "--rules", &pat]);
    // %b starts from %v, not %w; %c multiplies by its own carry, not the outer %w.
    assert_eq!(
        out.trim_end(),
        format!("{program}:2:3: @f %a: scale-sum ?w=%w ?xs=%xs"),
        "{out}"
    );
}

#[test]
fn a_cond_pattern_matches_inside_a_loop_body_and_the_filter_and_library_see_it() {
    let pat = scratch_file(
        "loop_patterns",
        "relu_or.pat",
        "extern @pick(bool[], f32[4]) -> (f32[4]) pure

// relu of x if c, else x
func @pick_pattern(%c: bool[], %x: f32[4]) -> (f32[4]) {
  %r = cond %c : f32[4] {
    %z = constant splat(0.0) : f32[4]
    %m = max %x, %z : f32[4]
    yield %m
  } {
    yield %x
  }
  return %r
}

func @pick_replacement(%c: bool[], %x: f32[4]) -> (f32[4]) {
  %y = call @pick(%c, %x) : f32[4]
  return %y
}
",
    );
    let program = scratch_file(
        "loop_patterns",
        "nested.ptir",
        "func @g(%p: bool[], %xs: f32[2,4], %h0: f32[4]) -> (f32[4]) {
  %r = scan %h0, %xs num_carry=1 length=2 : f32[4] {
  ^(%h: f32[4], %x: f32[4]):
    %s = add %h, %x : f32[4]
    %t = cond %p : f32[4] {
      %zero = constant splat(0.0) : f32[4]
      %u = max %s, %zero : f32[4]
      yield %u
    } {
      yield %s
    }
    yield %t
  }
  return %r
}
",
    );
    let args = ["--no-bundled-rules", "--rules", &pat];
    let (out, err) = run_ok(&[&[program.as_str()][..], &args, &["--report"]].concat());
    assert!(
        out.contains("call @pick(") && !out.contains("cond"),
        "{out}"
    );
    assert!(err.contains("1  pick"), "{err}");
    let (out, _) = run_ok(&[&[program.as_str()][..], &args, &["--disable", "loop"]].concat());
    assert!(out.contains("cond"), "--disable loop keeps the cond: {out}");
    // Compiled into a library and loaded back: the same output.
    let library = scratch_file("loop_patterns", "relu_or.ptrl", "");
    run_ok(&["compile-rules", &pat, "-o", &library]);
    let (compiled, _) = run_ok(&[program.as_str(), "--no-bundled-rules", "--rules", &library]);
    let (source, _) = run_ok(&[&[program.as_str()][..], &args].concat());
    assert_eq!(compiled, source);
}

#[test]
fn a_user_function_named_like_the_callee_is_never_called_by_the_pattern() {
    let program = scratch_file(
        "loop_patterns",
        "owned.ptir",
        &format!(
            "func @ema(%x: f32[8]) -> (f32[8]) {{\n  %y = neg %x : f32[8]\n  return %y\n}}\n{}",
            SMOOTH.replace("@smooth", "@main")
        ),
    );
    let (out, err) = run_ok(&[&program, "--rules", EMA, "--report"]);
    assert!(!out.contains("call @ema("), "{out}");
    assert!(out.contains("call @ptir.ema("), "{out}");
    assert!(err.contains("rule extern @ema is @ptir.ema here"), "{err}");
}

#[test]
fn malformed_loop_patterns_are_located_errors() {
    let cases = [
        (
            "unused.pat",
            "func @u_pattern(%a: f32[4], %b: f32[4]) -> (f32[4]) {
  %r = cond %c : f32[4] {
    yield %a
  } {
    yield %a
  }
  return %r
}
func @u_replacement(%a: f32[4], %b: f32[4]) -> (f32[4]) {
  return %a
}
",
            "unused.pat:1:",
        ),
        (
            "unused_param.pat",
            "func @u_pattern(%c: bool[], %a: f32[4], %b: f32[4]) -> (f32[4]) {
  %r = cond %c : f32[4] {
    yield %a
  } {
    yield %a
  }
  return %r
}
func @u_replacement(%c: bool[], %a: f32[4], %b: f32[4]) -> (f32[4]) {
  return %a
}
",
            "of the loop pattern @u_pattern is unused",
        ),
        (
            "rng.pat",
            "func @n_pattern(%c: bool[], %a: f32[4]) -> (f32[4]) {
  %r = cond %c : f32[4] {
    %z = rng uniform : f32[4]
    %s = add %a, %z : f32[4]
    yield %s
  } {
    yield %a
  }
  return %r
}
func @n_replacement(%c: bool[], %a: f32[4]) -> (f32[4]) {
  return %a
}
",
            "`rng` cannot appear in the loop pattern n",
        ),
    ];
    let program = "corpus/ema.ptir".to_string();
    for (name, pat, expected) in cases {
        let file = scratch_file("loop_patterns", name, pat);
        assert_user_error(&[&program, "--rules", &file], "", expected);
    }
    let dup = scratch_file(
        "loop_patterns",
        "dup.pat",
        &std::fs::read_to_string(EMA).unwrap(),
    );
    assert_user_error(
        &[&program, "--rules", EMA, "--rules", &dup],
        "",
        "duplicate rule name",
    );
}

#[test]
fn a_loop_pattern_can_ignore_attributes_in_its_bodies_and_its_libraries_keep_that() {
    let pat = |directive: &str| {
        format!(
            "extern @sum_t(f32[4,4], f32[3,4,4]) -> (f32[4,4]) pure

// the sum of the transposed rows of xs, from h0
{directive}
func @sum_t_pattern(%h0: f32[4,4], %xs: f32[3,4,4]) -> (f32[4,4]) {{
  %r = scan %h0, %xs num_carry=1 length=3 : f32[4,4] {{
  ^(%h: f32[4,4], %x: f32[4,4]):
    %t = transpose %x perm=[1,0] : f32[4,4]
    %n = add %h, %t : f32[4,4]
    yield %n
  }}
  return %r
}}

func @sum_t_replacement(%h0: f32[4,4], %xs: f32[3,4,4]) -> (f32[4,4]) {{
  %y = call @sum_t(%h0, %xs) : f32[4,4]
  return %y
}}
"
        )
    };
    let program = scratch_file(
        "loop_patterns",
        "perms.ptir",
        "func @f(%h: f32[4,4], %xs: f32[3,4,4]) -> (f32[4,4], f32[4,4]) {
  %a = scan %h, %xs num_carry=1 length=3 : f32[4,4] {
  ^(%g: f32[4,4], %x: f32[4,4]):
    %t = transpose %x perm=[1,0] : f32[4,4]
    %n = add %g, %t : f32[4,4]
    yield %n
  }
  %b = scan %h, %xs num_carry=1 length=3 : f32[4,4] {
  ^(%g2: f32[4,4], %x2: f32[4,4]):
    %t2 = transpose %x2 perm=[0,1] : f32[4,4]
    %n2 = add %g2, %t2 : f32[4,4]
    yield %n2
  }
  return %a, %b
}
",
    );
    let matches = |pat_file: &str| {
        let (out, _) = run_ok(&["match", &program, "--no-bundled-rules", "--rules", pat_file]);
        out.lines().count()
    };
    let exact = scratch_file("loop_patterns", "sum_t.pat", &pat(""));
    let loose = scratch_file(
        "loop_patterns",
        "sum_t_any.pat",
        &pat("// ignore-attrs: perm"),
    );
    // Every attribute compared: only %a; the permutation ignored: %b too.
    assert_eq!(matches(&exact), 1);
    assert_eq!(matches(&loose), 2);
    let required = scratch_file(
        "loop_patterns",
        "sum_t_req.pat",
        &pat("// match-attrs: transpose.perm"),
    );
    assert_eq!(matches(&required), 1);
    // Compiled, the library keeps which attributes are ignored.
    let library = scratch_file("loop_patterns", "sum_t_any.ptrl", "");
    run_ok(&["compile-rules", &loose, "-o", &library]);
    assert_eq!(matches(&library), 2);
}

/// Seed 004's Listing 2: a user's pattern raising a naive dot-product loop to the user's
/// library call (`@blas_sdot`, a body-less extern), on a loop written with its commutative
/// operands the other way round (`add %p, %acc`, `mul %y, %x`).
const SDOT: &str = "extern @blas_sdot(f32[?n], f32[?n]) -> (f32[]) pure

func @sdot_pattern(%a: f32[?n], %b: f32[?n]) -> (f32[]) {
  %zero = constant splat(0.0) : f32[]
  %r = scan %zero, %a, %b num_carry=1 length=?n : f32[] {
  ^(%acc: f32[], %x: f32[], %y: f32[]):
    %p = mul %x, %y : f32[]
    %s = add %acc, %p : f32[]
    yield %s
  }
  return %r
}

func @sdot_replacement(%a: f32[?n], %b: f32[?n]) -> (f32[]) {
  %r = call @blas_sdot(%a, %b) : f32[]
  return %r
}
";

const COMMUTED_DOT: &str = "func @main(%u: f32[64], %v: f32[64]) -> (f32[]) {
  %zero = constant splat(0.0) : f32[]
  %r = scan %zero, %u, %v num_carry=1 length=64 : f32[] {
  ^(%acc: f32[], %x: f32[], %y: f32[]):
    %p = mul %y, %x : f32[]
    %s = add %p, %acc : f32[]
    yield %s
  }
  return %r
}
";

#[test]
fn a_users_dot_loop_pattern_wins_over_the_builtin_idiom_and_matches_commuted_operands() {
    let pat = scratch_file("loop_patterns", "sdot.pat", SDOT);
    let program = scratch_file("loop_patterns", "dot.ptir", COMMUTED_DOT);
    for engine in ["eqsat", "greedy"] {
        let (out, err) = run_ok(&[&program, "--rules", &pat, "--engine", engine, "--report"]);
        assert!(out.contains("call @blas_sdot(%0, %1)"), "{engine}: {out}");
        assert!(
            !out.contains("scan") && !out.contains("reduce"),
            "{engine}: {out}"
        );
        assert!(err.contains("1  sdot"), "{engine}: {err}");
    }
    // Without the user's pattern the built-in idiom raises the same loop to a reduce.
    let (out, _) = run_ok(&[&program]);
    assert!(out.contains("reduce") && !out.contains("scan"), "{out}");
    // The match query finds what optimize raises.
    let (out, _) = run_ok(&["match", &program, "--rules", &pat]);
    assert!(out.contains("sdot"), "{out}");
}

#[test]
fn the_loop_steps_are_passes_the_pipeline_text_orders_and_the_ir_after_each_shows() {
    let pat = scratch_file("loop_patterns", "sdot2.pat", SDOT);
    let program = scratch_file("loop_patterns", "dot2.ptir", COMMUTED_DOT);
    // The idiom before the user's patterns: the loop is a reduce before they look.
    let pipeline = "loop-idioms,loop-patterns,eqsat";
    let (out, _) = run_ok(&[&program, "--rules", &pat, "--pass-pipeline", pipeline]);
    assert!(
        out.contains("reduce") && !out.contains("blas_sdot"),
        "{out}"
    );
    // No loop step at all: the loop stays.
    let (out, _) = run_ok(&[&program, "--pass-pipeline", "eqsat"]);
    assert!(out.contains("scan"), "{out}");
    let (_, err) = run_ok(&[&program, "--rules", &pat, "--print-ir-after-all"]);
    for pass in ["loop-patterns", "loop-idioms", "unroll", "eqsat"] {
        assert!(
            err.contains(&format!("IR Dump After {pass}")),
            "{pass}: {err}"
        );
    }
}

/// The rules a raised loop's replacement needs are kept when rules are pruned to the
/// program: the replacement writes `neg(neg(call))`, which the program does not hold before
/// the loop steps run, and `neg-neg` still cleans it up.
#[test]
fn rules_for_the_ops_a_loop_pattern_writes_survive_pruning() {
    let ema = std::fs::read_to_string(EMA).unwrap();
    let doubled = ema.replace(
        "  %y = call @ema(%h0, %xs, %a) : f32[?n]\n  return %y",
        "  %y = call @ema(%h0, %xs, %a) : f32[?n]\n  %n = neg %y : f32[?n]\n  %m = neg %n : f32[?n]\n  return %m",
    );
    assert_ne!(doubled, ema, "the replacement is rewritten");
    let pat = scratch_file("loop_patterns", "ema_negs.pat", &doubled);
    // Alone (the bundled library has rules whose native results keep every rule).
    let neg_neg = scratch_file(
        "loop_patterns",
        "neg_neg.rules",
        "(rule neg-neg (neg (neg ?x)) => ?x)\n",
    );
    for engine in ["eqsat", "greedy"] {
        let args = [
            "corpus/ema.ptir",
            "--no-bundled-rules",
            "--rules",
            &pat,
            "--rules",
            &neg_neg,
        ];
        let (out, _) = run_ok(&[&args[..], &["--engine", engine]].concat());
        assert_eq!(out.matches("call @ema(").count(), 2, "{engine}: {out}");
        assert!(
            !out.contains("neg "),
            "{engine}: neg-neg was pruned away: {out}"
        );
    }
}
