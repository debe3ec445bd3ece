//! Pure is not speculatable: regression tests for work moved out of conditional code.
//!
//! Each program guards something that traps, may not terminate, or is huge, and is run on the
//! input that makes the guard matter (a zero divisor, a loop that runs zero times, the branch
//! not taken). Both engines, default options, and greedy with loop-invariant code motion: the
//! optimized program must give the input's results on exactly those inputs. Last, effects
//! (`rng_bit_generator`, in a callee too) are neither merged nor dropped, and neither engine
//! sees through an `optimization_barrier`.

use ptir::ir::{parse, DType, Interpreter, Program, Scalar, Tensor, TensorType, Value};
use ptir::{Engine, Options};

fn scalar(d: DType, x: f64) -> Value {
    Value::Tensor(Tensor::splat(
        TensorType::new(d, vec![]),
        Scalar::from_f64(d, x),
    ))
}

fn i32s(x: i64) -> Value {
    scalar(DType::I32, x as f64)
}

fn boolean(b: bool) -> Value {
    scalar(DType::Bool, b as i64 as f64)
}

fn run(p: &Program, args: &[Value]) -> Result<Vec<Value>, String> {
    Interpreter::new(p)
        .with_while_fuel(10_000)
        .run("main", args)
        .map_err(|e| e.to_string())
}

/// Optimizes `text` with both engines and checks each output on every argument list: same
/// results as the input, and the input itself must not fail on them.
fn check(text: &str, cases: &[Vec<Value>]) -> Vec<Program> {
    let input = parse(text).unwrap_or_else(|e| panic!("{e}"));
    let mut outs = Vec::new();
    // Both engines, and greedy with loop-invariant code motion (`licm`) in its pipeline.
    let licm = Some("canonicalize,licm,cse,dce".to_string());
    for (engine, pipeline) in [
        (Engine::Saturation, None),
        (Engine::Greedy, None),
        (Engine::Greedy, licm),
    ] {
        let name = pipeline.clone().unwrap_or_else(|| engine.to_string());
        let options = Options {
            engine,
            pipeline,
            ..Options::default()
        };
        let out = ptir::optimize(&input, &options)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .program;
        for args in cases {
            let want = run(&input, args).unwrap_or_else(|e| panic!("the input fails: {e}"));
            let got = run(&out, args);
            assert_eq!(got, Ok(want), "{name} on {args:?}:\n{out}");
        }
        outs.push(out);
    }
    outs
}

#[test]
fn a_division_guarded_by_a_cond_stays_guarded_even_under_a_pure_user() {
    let text = "func @main(%x: i32[]) -> (i32[]) {
  %z = constant splat(0) : i32[]
  %nz = ne %x, %z : bool[]
  %r = cond %nz : i32[] {
    %h = constant splat(100) : i32[]
    %q = div %h, %x : i32[]
    %one = constant splat(1) : i32[]
    %s = add %q, %one : i32[]
    yield %s
  } {
    yield %z
  }
  return %r
}";
    check(text, &[vec![i32s(0)], vec![i32s(7)]]);
}

#[test]
fn identical_divisions_under_two_different_guards_are_not_merged_above_them() {
    let text = "func @main(%x: i32[], %p: bool[], %q: bool[]) -> (i32[], i32[]) {
  %z = constant splat(0) : i32[]
  %h = constant splat(100) : i32[]
  %a = cond %p : i32[] {
    %d = div %h, %x : i32[]
    yield %d
  } {
    yield %z
  }
  %b = cond %q : i32[] {
    %e = div %h, %x : i32[]
    %e2 = neg %e : i32[]
    yield %e2
  } {
    yield %z
  }
  return %a, %b
}";
    let f = false;
    let t = true;
    let outs = check(
        text,
        &[
            vec![i32s(0), boolean(f), boolean(f)],
            vec![i32s(3), boolean(t), boolean(t)],
            vec![i32s(3), boolean(t), boolean(f)],
        ],
    );
    let body_divs = outs[0].functions[0]
        .body
        .insts
        .iter()
        .filter(|i| i.op.name() == "div")
        .count();
    assert_eq!(body_divs, 0, "{}", outs[0]);
}

#[test]
fn a_call_of_a_pure_function_that_divides_stays_in_its_branch() {
    let text = "func @inv(%x: i32[]) -> (i32[]) {
  %h = constant splat(100) : i32[]
  %d = div %h, %x : i32[]
  return %d
}
func @main(%x: i32[]) -> (i32[]) {
  %z = constant splat(0) : i32[]
  %nz = ne %x, %z : bool[]
  %r = cond %nz : i32[] {
    %c = call @inv(%x) : i32[]
    %s = add %c, %x : i32[]
    yield %s
  } {
    yield %z
  }
  return %r
}";
    check(text, &[vec![i32s(0)], vec![i32s(5)]]);
}

#[test]
fn a_call_that_never_returns_is_not_hoisted_out_of_a_loop_that_runs_zero_times() {
    let text = "func @spin(%x: f32[]) -> (f32[]) {
  %t = constant splat(true) : bool[]
  %r = while %x : f32[] {
  ^(%c: f32[]):
    yield %t
  } {
  ^(%b: f32[]):
    yield %b
  }
  return %r
}
func @main(%x: f32[], %n: i32[]) -> (f32[]) {
  %zero = constant splat(0) : i32[]
  %r = while %x, %zero : (f32[], i32[]) {
  ^(%cx: f32[], %ci: i32[]):
    %go = lt %ci, %n : bool[]
    yield %go
  } {
  ^(%bx: f32[], %bi: i32[]):
    %s = call @spin(%x) : f32[]
    %nx = add %bx, %s : f32[]
    %one = constant splat(1) : i32[]
    %ni = add %bi, %one : i32[]
    yield %nx, %ni
  }
  %y = tuple_get %r index=0 : f32[]
  return %y
}";
    check(text, &[vec![scalar(DType::F32, 1.5), i32s(0)]]);
}

#[test]
fn a_huge_broadcast_from_the_branch_not_taken_is_not_computed() {
    // 25M elements: over the interpreter's tensor limit, so computing it at all fails.
    let text = "func @main(%x: f32[], %p: bool[]) -> (f32[]) {
  %r = cond %p : f32[] {
    %b = broadcast %x dims=[] : f32[5000,5000]
    %s = reduce_sum %b axes=[0,1] keep_dims=false : f32[]
    yield %s
  } {
    yield %x
  }
  return %r
}";
    check(text, &[vec![scalar(DType::F32, 2.0), boolean(false)]]);
}

#[test]
fn loop_invariant_speculatable_values_are_still_hoisted() {
    let text = "func @main(%x: f32[8], %k: f32[], %n: i32[]) -> (f32[8]) {
  %zero = constant splat(0) : i32[]
  %r = while %x, %zero : (f32[8], i32[]) {
  ^(%cx: f32[8], %ci: i32[]):
    %go = lt %ci, %n : bool[]
    yield %go
  } {
  ^(%bx: f32[8], %bi: i32[]):
    %e = exp %k : f32[]
    %kb = broadcast %e dims=[] : f32[8]
    %nx = mul %bx, %kb : f32[8]
    %one = constant splat(1) : i32[]
    %ni = add %bi, %one : i32[]
    yield %nx, %ni
  }
  %y = tuple_get %r index=0 : f32[8]
  return %y
}";
    let program = parse(text).unwrap();
    let out = ptir::optimize(&program, &Options::default())
        .unwrap()
        .program;
    let hoisted = out.functions[0]
        .body
        .insts
        .iter()
        .any(|i| i.op.name() == "exp");
    assert!(hoisted, "exp not hoisted out of the loop:\n{out}");
}

#[test]
fn with_licm_greedy_moves_loop_invariant_work_out_as_saturation_places_it() {
    let input =
        parse(include_str!("../../corpus/while_loop.ptir")).unwrap_or_else(|e| panic!("{e}"));
    let body_ops = |pipeline: Option<&str>, engine| {
        // The loop stays a loop (its trip count is known: unrolled, it has no body to hoist
        // from).
        let options = Options {
            engine,
            pipeline: pipeline.map(str::to_string),
            unroll: ptir::pass::transform::UnrollLimits {
                max_trips: 0,
                ..Default::default()
            },
            ..Options::default()
        };
        let out = ptir::optimize(&input, &options).unwrap_or_else(|e| panic!("{e}"));
        let text = out.program.to_string();
        let body = &text[text.find("} {").unwrap_or_else(|| panic!("{text}"))..];
        body.matches(" = ").count()
    };
    let eqsat = body_ops(None, Engine::Saturation);
    let greedy = body_ops(None, Engine::Greedy);
    let licm = body_ops(Some("canonicalize,licm,cse,dce"), Engine::Greedy);
    // The two broadcasts of outer scalars leave the body (and the body's constant).
    assert_eq!(licm, eqsat);
    assert!(licm < greedy, "licm {licm}, greedy {greedy}");
}

/// `rng_bit_generator` is kept as an effect by both engines: two calls of a function that
/// generates bits from the same state stay two calls, and a generator whose bits nobody reads
/// stays too (its bits are the implementation's; merging or dropping it is not ours to do).
#[test]
fn random_bits_are_kept_as_effects_by_both_engines() {
    let text = "func @gen(%0: u64[2]) -> (u32[4]) {
  %1 = rng_bit_generator %0 algorithm=philox : (u64[2], u32[4])
  %2 = tuple_get %1 index=1 : u32[4]
  return %2
}
func @main(%0: u64[2]) -> (u32[4]) {
  %1 = call @gen(%0) : u32[4]
  %2 = call @gen(%0) : u32[4]
  %3 = rng_bit_generator %0 : (u64[2], u32[4])
  %4 = add %1, %2 : u32[4]
  return %4
}
";
    let state = Value::Tensor(Tensor::splat(
        TensorType::new(DType::U64, vec![2]),
        Scalar::Int(7),
    ));
    for (engine, printed) in by_each_engine(text, state) {
        let main = printed.split("func @main").nth(1).unwrap_or_default();
        assert_eq!(main.matches("call @gen").count(), 2, "{engine}:\n{printed}");
        assert_eq!(
            main.matches("rng_bit_generator").count(),
            1,
            "{engine}:\n{printed}"
        );
    }
}

/// `optimization_barrier` (what `jax.checkpoint` writes) hides its operands from both engines:
/// `x * barrier(1)` is not folded to `x`, nor `barrier(x) - x` to zero, nor is a constant
/// folded through it; a barrier nobody reads goes, as any pure op.
#[test]
fn neither_engine_sees_through_an_optimization_barrier() {
    let text = "func @main(%0: i32[4]) -> (i32[4], i32[4]) {
  %1 = constant splat(1) : i32[4]
  %2 = optimization_barrier %1 : i32[4]
  %3 = mul %0, %2 : i32[4]
  %4 = optimization_barrier %0, %1 : (i32[4], i32[4])
  %5 = tuple_get %4 index=0 : i32[4]
  %6 = sub %5, %0 : i32[4]
  %7 = tuple_get %4 index=1 : i32[4]
  %8 = add %6, %7 : i32[4]
  %9 = optimization_barrier %0 : i32[4]
  return %3, %8
}
";
    let x = Value::Tensor(Tensor::splat(
        TensorType::new(DType::I32, vec![4]),
        Scalar::Int(-3),
    ));
    for (engine, printed) in by_each_engine(text, x) {
        assert_eq!(
            printed.matches("optimization_barrier").count(),
            2,
            "{engine}:\n{printed}"
        );
        for op in ["mul", "sub", "add"] {
            assert!(
                printed.contains(&format!("= {op} ")),
                "{engine}: {op}\n{printed}"
            );
        }
    }
}

/// `text` optimized by each engine with default options, each output printed, and checked to
/// give the input's results on `input`.
fn by_each_engine(text: &str, input: Value) -> Vec<(Engine, String)> {
    let program = parse(text).unwrap_or_else(|e| panic!("{e}"));
    [Engine::Greedy, Engine::Saturation]
        .into_iter()
        .map(|engine| {
            let options = Options {
                engine,
                ..Options::default()
            };
            let out =
                ptir::optimize(&program, &options).unwrap_or_else(|e| panic!("{engine}: {e}"));
            assert_eq!(
                run(&out.program, std::slice::from_ref(&input)),
                run(&program, std::slice::from_ref(&input)),
                "{engine}"
            );
            (engine, ptir::ir::print(&out.program))
        })
        .collect()
}
