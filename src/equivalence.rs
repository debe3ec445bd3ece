//! Does an optimized program compute what its input computes? Both run in the interpreter
//! ([`crate::interpreter`], fused externs registered) on the same seeded random inputs, and
//! their results are compared.
//!
//! This is the one home of result comparison: `diff` ([`crate::diff`]) and translation
//! validation ([`crate::Options::validate`]) both use [`Trial`] and [`same_value`].
//!
//! - **Bit-exact** by default: NaN equals NaN, `-0.0` differs from `0.0` (exact rules must
//!   keep every bit).
//! - **Within a per-dtype tolerance** ([`fast_math_tolerance`]) for float tensors when
//!   `fast-math` rules were enabled; integers and bools stay exact.
//! - An input set on which the **input** program fails (a division by zero it does not
//!   guard, say) proves nothing and is skipped; under fast-math so does one on which the input
//!   computes a NaN anywhere, even in a value its results do not show (`x / x` at zero, cast
//!   to an integer): fast-math assumes no NaN arises, so a rewrite may change what such an
//!   input set gives. An output that fails where the input did not **is** a difference. An
//!   output that cannot run at all because an extern it calls has no implementation is
//!   neither: it is [`CheckError::Unrunnable`], reported as an error.

use crate::run::ExternImpls;
use ptir_ir::inputs::{try_random_inputs, try_trap_free_inputs};
use ptir_ir::{DType, Function, InterpError, Program, Value};
use std::fmt;

/// The relative tolerance of `f32` results under fast-math ([`fast_math_tolerance`]).
pub const FAST_MATH_TOLERANCE: f64 = 1e-3;

/// The relative tolerance of a float dtype under fast-math, scaled by the largest finite
/// magnitude of the expected tensor (at least 1); `None` for integers and bools, which are
/// compared exactly even under fast-math. Reassociated sums and products round partial
/// results that can be far larger than the result, so the tolerance is many ulps of the dtype:
///
/// | dtype | ulp at 1 | tolerance |
/// | --- | --- | --- |
/// | `f16` | 2^-10 | 2^-7 (8 ulps) |
/// | `bf16` | 2^-7 | 2^-4 (8 ulps) |
/// | `f32` | 2^-23 | 1e-3 ([`FAST_MATH_TOLERANCE`], about 2^13 ulps) |
/// | `f64` | 2^-52 | 1e-9 (about 2^22 ulps) |
///
/// ```
/// use ptir::{fast_math_tolerance, ir::DType};
/// assert_eq!(fast_math_tolerance(DType::BF16), Some(0.0625));
/// assert_eq!(fast_math_tolerance(DType::F32), Some(1e-3));
/// assert_eq!(fast_math_tolerance(DType::I32), None);
/// ```
pub fn fast_math_tolerance(dtype: DType) -> Option<f64> {
    match dtype {
        DType::F16 => Some(1.0 / 128.0),
        DType::BF16 => Some(1.0 / 16.0),
        DType::F32 => Some(FAST_MATH_TOLERANCE),
        DType::F64 => Some(1e-9),
        // Integers and bool: exact.
        _ => None,
    }
}

/// Does `got` agree with `expected`: bit-exact, or with `fast_math` within
/// [`fast_math_tolerance`] for float tensors (where `expected` is not finite, fast-math
/// assumes it away and anything agrees)?
///
/// ```
/// use ptir::{same_value, ir::{DType, Tensor, TensorType}};
/// let t = TensorType::new(DType::BF16, vec![1]);
/// let (one, next) = (Tensor::from_f64(t.clone(), &[1.0]), Tensor::from_f64(t, &[1.0078125]));
/// assert!(!same_value(&one.clone().into(), &next.clone().into(), false));
/// assert!(same_value(&one.into(), &next.into(), true)); // one bf16 ulp
/// ```
pub fn same_value(expected: &Value, got: &Value, fast_math: bool) -> bool {
    same_value_within(expected, got, fast_math, None)
}

/// [`same_value`], a float result's fast-math tolerance at least `floor`: what a result
/// computed from less precise floats can be held to ([`computed_tolerance`]).
fn same_value_within(expected: &Value, got: &Value, fast_math: bool, floor: Option<f64>) -> bool {
    match (expected, got) {
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len()
                && (x.iter().zip(y)).all(|(p, q)| same_value_within(p, q, fast_math, floor))
        }
        (Value::Tensor(x), Value::Tensor(y)) if fast_math && x.ty == y.ty => {
            let Some(tolerance) = fast_math_tolerance(x.ty.dtype) else {
                return x == y;
            };
            let tolerance = floor.map_or(tolerance, |f| tolerance.max(f));
            let (xs, ys) = (x.to_f64_vec(), y.to_f64_vec());
            let scale = xs
                .iter()
                .filter(|v| v.is_finite())
                .fold(1.0f64, |m, v| m.max(v.abs()));
            xs.iter().zip(&ys).all(|(p, q)| {
                p.to_bits() == q.to_bits() || (p - q).abs() <= tolerance * scale || !p.is_finite()
            })
        }
        _ => expected == got,
    }
}

/// The loosest fast-math tolerance of the floats `function` computes in (its parameters and
/// every value it defines): a result is only as precise as the least precise float it was
/// computed from, so an `f64` product of `bf16` operands is held to `bf16`'s tolerance under
/// fast-math, not to `f64`'s (a reassociated `bf16` polynomial moved such a product by 1.4%,
/// within `bf16`'s 1/16). `None` if it computes in no float.
fn computed_tolerance(function: &Function) -> Option<f64> {
    let mut loosest: Option<f64> = None;
    let mut see = |t: &ptir_ir::Type| {
        let mut tensors = vec![t];
        while let Some(t) = tensors.pop() {
            match t {
                ptir_ir::Type::Tensor(t) => {
                    if let Some(x) = fast_math_tolerance(t.dtype) {
                        loosest = Some(loosest.map_or(x, |l| l.max(x)));
                    }
                }
                ptir_ir::Type::Tuple(ts) => tensors.extend(ts),
            }
        }
    };
    for p in &function.body.params {
        see(&p.ty);
    }
    function.body.walk(&mut |i, _| see(&i.ty));
    loosest
}

/// Why two programs could not be compared (not a difference between them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// No inputs can be made for the function (a parameter above the interpreter's limits).
    #[error("cannot make random inputs: {source}")]
    Inputs {
        /// The function.
        function: String,
        /// Why.
        source: Box<InterpError>,
    },
    /// A program cannot be run at all: it calls an extern that has no implementation.
    #[error("{program} cannot be run on input seed {seed}: {source}")]
    Unrunnable {
        /// Which program (`"the greedy output"`, ...).
        program: String,
        /// The input set.
        seed: u64,
        /// The interpreter's error (naming the extern).
        source: Box<InterpError>,
    },
}

/// Is `e` about the environment (an extern nobody implements) rather than what the program
/// computes?
fn unrunnable(e: &InterpError) -> bool {
    matches!(
        e.root(),
        InterpError::MissingExtern(_) | InterpError::UnknownCallee(_)
    )
}

/// A function of an output that computes something else than the input on one input set.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// The function.
    pub function: String,
    /// The seed of the input set (inputs are `try_random_inputs(function, seed)`, and the
    /// interpreter's `rng` runs from the same seed).
    pub seed: u64,
    /// The inputs.
    pub inputs: Vec<Value>,
    /// What the input program computes.
    pub expected: Vec<Value>,
    /// What the output computes, or how it fails.
    pub got: Result<Vec<Value>, InterpError>,
    /// The least fast-math tolerance its results are held to: that of the least precise
    /// float the function computes in.
    pub tolerance_floor: Option<f64>,
}

impl Divergence {
    /// The index of the first result that differs (`None`: the output failed, or returned
    /// another number of results).
    pub fn result_index(&self, fast_math: bool) -> Option<usize> {
        let got = self.got.as_ref().ok()?;
        (got.len() == self.expected.len())
            .then(|| {
                self.expected
                    .iter()
                    .zip(got)
                    .position(|(e, g)| !same_value_within(e, g, fast_math, self.tolerance_floor))
            })
            .flatten()
    }
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{} differs on input seed {}:", self.function, self.seed)?;
        for (i, v) in self.inputs.iter().enumerate() {
            write!(f, "\n  input {i}: {v}")?;
        }
        match &self.got {
            Err(e) => write!(
                f,
                "\n  the input program returns normally\n  the output fails: {e}"
            ),
            Ok(got) if got.len() != self.expected.len() => write!(
                f,
                "\n  {} results expected, {} returned",
                self.expected.len(),
                got.len()
            ),
            Ok(got) => {
                let differing = self.expected.iter().zip(got).enumerate();
                for (i, (e, g)) in differing.filter(|(_, (e, g))| e != g) {
                    write!(f, "\n  result {i}: expected {e}\n            got      {g}")?;
                }
                Ok(())
            }
        }
    }
}

/// One input set of one function, and what the input program computes on it.
#[derive(Clone, Debug)]
pub struct Trial {
    function: String,
    seed: u64,
    inputs: Vec<Value>,
    /// `Err`: the input program fails on these inputs, so they prove nothing.
    expected: Result<Vec<Value>, InterpError>,
    /// Whether the input program computes a NaN on the way, even one its results do not
    /// show ([`Interpreter::run_noting_nan`](ptir_ir::Interpreter::run_noting_nan)).
    computes_nan: bool,
    /// Loop fuel of each run.
    while_fuel: u64,
    /// The caller's extern implementations, beside the project's.
    externs: ExternImpls,
    /// The least fast-math tolerance of the function's results ([`computed_tolerance`]).
    floor: Option<f64>,
}

impl Trial {
    /// Makes input set `seed` for `function` of `input` and runs `input` on it.
    pub fn new(input: &Program, function: &Function, seed: u64) -> Result<Trial, CheckError> {
        Trial::with_while_fuel(input, function, seed, ptir_ir::WHILE_FUEL)
    }

    /// [`Trial::new`] with `fuel` loop iterations per run (of the input and of each output)
    /// instead of [`ptir_ir::WHILE_FUEL`].
    pub fn with_while_fuel(
        input: &Program,
        function: &Function,
        seed: u64,
        while_fuel: u64,
    ) -> Result<Trial, CheckError> {
        Trial::with_externs(input, function, seed, while_fuel, &ExternImpls::new())
    }

    /// [`Trial::with_while_fuel`] whose runs (of the input and of each output) also have the
    /// caller's `externs`.
    pub fn with_externs(
        input: &Program,
        function: &Function,
        seed: u64,
        while_fuel: u64,
        externs: &ExternImpls,
    ) -> Result<Trial, CheckError> {
        let inputs = try_random_inputs(function, seed).map_err(|source| CheckError::Inputs {
            function: function.name.clone(),
            source: Box::new(source),
        })?;
        Ok(Trial::on_inputs(
            input, function, seed, inputs, while_fuel, externs,
        ))
    }

    /// Runs `input` on the given `inputs` (set `seed`, which also seeds the runs' random ops).
    fn on_inputs(
        input: &Program,
        function: &Function,
        seed: u64,
        inputs: Vec<Value>,
        while_fuel: u64,
        externs: &ExternImpls,
    ) -> Trial {
        let run = externs
            .interpreter(input)
            .with_seed(seed)
            .with_while_fuel(while_fuel)
            .run_noting_nan(&function.name, &inputs);
        let computes_nan = matches!(run, Ok((_, true)));
        Trial {
            function: function.name.clone(),
            seed,
            inputs,
            expected: run.map(|(results, _)| results),
            computes_nan,
            while_fuel,
            externs: externs.clone(),
            floor: computed_tolerance(function),
        }
    }

    /// The trial on an input set of `seed` that avoids the usual traps
    /// ([`try_trap_free_inputs`]), if it proves something: for a function that traps on this
    /// trial's inputs (a division by an input drawn as zero) or, under `fast_math`, computes a
    /// NaN on them (a square root of a negative input).
    pub(crate) fn trap_free(
        &self,
        input: &Program,
        function: &Function,
        fast_math: bool,
    ) -> Option<Trial> {
        let inputs = try_trap_free_inputs(function, self.seed).ok()?;
        let trial = Trial::on_inputs(
            input,
            function,
            self.seed,
            inputs,
            self.while_fuel,
            &self.externs,
        );
        (!trial.proves_nothing(fast_math)).then_some(trial)
    }

    /// Does the input program fail on this input set (so that it proves nothing)?
    pub fn skipped(&self) -> bool {
        self.expected.is_err()
    }

    /// Does this input set prove nothing about an output: the input program fails on it, or,
    /// under `fast_math`, computes a NaN on the way (fast-math assumes none arises)?
    pub fn proves_nothing(&self, fast_math: bool) -> bool {
        self.skipped() || (fast_math && self.computes_nan)
    }

    /// Why this input set proves nothing, if it does.
    fn why_nothing(&self, fast_math: bool) -> Option<String> {
        match &self.expected {
            Err(e) => Some(e.to_string()),
            Ok(_) if fast_math && self.computes_nan => {
                Some("the input computes a NaN, which fast-math assumes never happens".to_string())
            }
            Ok(_) => None,
        }
    }

    /// Runs `output` (called `name` in errors) on the input set: `Ok(None)` if it computes the
    /// same, or if the input set proves nothing ([`Trial::proves_nothing`]: the input fails
    /// here, or under `fast_math` computes a NaN on the way, which `div-self`'s `x / x = 1`
    /// assumes away), the divergence otherwise.
    pub fn check(
        &self,
        output: &Program,
        name: &str,
        fast_math: bool,
    ) -> Result<Option<Divergence>, CheckError> {
        let Ok(expected) = &self.expected else {
            return Ok(None);
        };
        if self.proves_nothing(fast_math) {
            return Ok(None);
        }
        let got = self
            .externs
            .interpreter(output)
            .with_seed(self.seed)
            .with_while_fuel(self.while_fuel)
            .run(&self.function, &self.inputs);
        match got {
            Err(source) if unrunnable(&source) => Err(CheckError::Unrunnable {
                program: name.to_string(),
                seed: self.seed,
                source: Box::new(source),
            }),
            Ok(g)
                if g.len() == expected.len()
                    && expected
                        .iter()
                        .zip(&g)
                        .all(|(e, g)| same_value_within(e, g, fast_math, self.floor)) =>
            {
                Ok(None)
            }
            got => Ok(Some(Divergence {
                function: self.function.clone(),
                seed: self.seed,
                inputs: self.inputs.clone(),
                expected: expected.clone(),
                got,
                tolerance_floor: self.floor,
            })),
        }
    }
}

/// What translation validation checked ([`crate::Options::validate`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Validation {
    /// Input sets per function.
    pub seeds: usize,
    /// (function, input set) pairs compared.
    pub compared: usize,
    /// Pairs skipped because the input program fails on them (or under fast-math computes a
    /// NaN on them), and on a redrawn input set that avoids the usual traps.
    pub skipped: usize,
    /// Pairs compared on a redrawn, trap-free input set (integers in [1, 4], floats in
    /// [0.25, 2)) because the first proved nothing.
    pub redrawn: usize,
    /// Why the input failed on the first skipped pair.
    pub first_skip: Option<String>,
}

impl fmt::Display for Validation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "validated on {} input sets per function: {} runs agree ({} on trap-free redrawn \
             inputs), {} skipped (the input fails)",
            self.seeds, self.compared, self.redrawn, self.skipped
        )?;
        match &self.first_skip {
            Some(why) => write!(f, "; first skipped: {why}"),
            None => Ok(()),
        }
    }
}

/// Translation validation: runs every function of `input` and of `output` on input sets
/// `0..seeds`, with the caller's `externs` beside the project's; the first divergence is
/// returned as [`ValidationError::Differs`]. An input set the input program fails on is
/// drawn again avoiding the usual traps ([`try_trap_free_inputs`]); when nothing could be
/// compared at all, validation fails ([`ValidationError::NothingCompared`]) rather than pass
/// an output it never checked.
pub fn validate(
    input: &Program,
    output: &Program,
    seeds: usize,
    fast_math: bool,
    externs: &ExternImpls,
) -> Result<Validation, ValidationError> {
    let mut v = Validation {
        seeds,
        ..Validation::default()
    };
    for seed in 0..seeds as u64 {
        for f in &input.functions {
            let mut trial = Trial::with_externs(input, f, seed, ptir_ir::WHILE_FUEL, externs)?;
            if let Some(why) = trial.why_nothing(fast_math) {
                match trial.trap_free(input, f, fast_math) {
                    Some(redrawn) => {
                        trial = redrawn;
                        v.redrawn += 1;
                    }
                    None => {
                        v.skipped += 1;
                        v.first_skip
                            .get_or_insert_with(|| format!("seed {seed}: {why}"));
                        continue;
                    }
                }
            }
            if let Some(d) = trial.check(output, "the optimized program", fast_math)? {
                let result = d.result_index(fast_math);
                return Err(ValidationError::Differs {
                    divergence: Box::new(d),
                    result,
                });
            }
            v.compared += 1;
        }
    }
    if v.compared == 0 && v.skipped > 0 {
        return Err(ValidationError::NothingCompared {
            skipped: v.skipped,
            first: v.first_skip.unwrap_or_default(),
        });
    }
    Ok(v)
}

/// Why translation validation refused an output.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValidationError {
    /// The output computes something else than the input.
    #[error("translation validation refused the optimized program: {divergence}")]
    Differs {
        /// Where and how.
        divergence: Box<Divergence>,
        /// The first differing result, if both returned results.
        result: Option<usize>,
    },
    /// The programs could not be compared.
    #[error("translation validation could not run: {0}")]
    Check(#[from] CheckError),
    /// The input program fails on every input set (or under fast-math computes a NaN on
    /// it), trap-free redraws included: the output was never checked, so it is not accepted
    /// as validated.
    #[error(
        "translation validation compared nothing: the input program fails on all {skipped} \
         input sets (or, under fast-math, computes a NaN on them), redrawn without zero or \
         negative integers too (first: {first})"
    )]
    NothingCompared {
        /// Input sets tried.
        skipped: usize,
        /// Why the input failed on the first.
        first: String,
    },
}

#[cfg(test)]
mod tests {
    /// Under fast-math a result is held to the tolerance of the least precise float its
    /// function computes in: an `f64` product of `bf16` operands to `bf16`'s 1/16 (the
    /// differential tester flagged a reassociated `bf16` GELU whose `f64` product moved 1.4%).
    #[test]
    fn a_result_computed_from_bf16_is_held_to_bf16s_tolerance() {
        let p = ptir_ir::parse(
            "func @f(%x: bf16[2]) -> (f64[]) {\n  \
             %d = dot_general %x, %x lhs_contract=[0] rhs_contract=[0] result_dtype=f64 : f64[]\n  \
             return %d\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        assert_eq!(computed_tolerance(f), Some(1.0 / 16.0));
        let t = ptir_ir::TensorType::scalar(DType::F64);
        let (a, b) = (
            Value::from(Tensor::from_f64(t.clone(), &[1.0])),
            Value::from(Tensor::from_f64(t, &[1.014])),
        );
        assert!(!same_value(&a, &b, true), "f64's own tolerance");
        assert!(same_value_within(&a, &b, true, computed_tolerance(f)));
        assert!(
            !same_value_within(&a, &b, false, computed_tolerance(f)),
            "exact stays exact"
        );
        let ints = ptir_ir::parse("func @f(%x: i32[2]) -> (i32[2]) {\n  return %x\n}").unwrap();
        assert_eq!(computed_tolerance(&ints.functions[0]), None);
    }

    use super::*;
    use ptir_ir::{Tensor, TensorType};

    fn tensor(d: DType, xs: &[f64]) -> Value {
        Tensor::from_f64(TensorType::new(d, vec![xs.len()]), xs).into()
    }

    #[test]
    fn exact_unless_fast_math_and_then_per_dtype() {
        let ulp_bf16 = 1.0 / 128.0;
        let (a, b) = (
            tensor(DType::BF16, &[1.0]),
            tensor(DType::BF16, &[1.0 + ulp_bf16]),
        );
        assert!(!same_value(&a, &b, false));
        assert!(same_value(&a, &b, true), "one bf16 ulp under fast-math");
        // The same difference in f32 is far above its tolerance.
        let (a, b) = (
            tensor(DType::F32, &[1.0]),
            tensor(DType::F32, &[1.0 + ulp_bf16]),
        );
        assert!(!same_value(&a, &b, true));
        // Integers stay exact under fast-math.
        let (a, b) = (tensor(DType::I32, &[1000.0]), tensor(DType::I32, &[1001.0]));
        assert!(!same_value(&a, &b, true));
        // Exact means bits: -0 is not 0, NaN is NaN.
        let (z, nz) = (tensor(DType::F32, &[0.0]), tensor(DType::F32, &[-0.0]));
        assert!(!same_value(&z, &nz, false));
        let nan = tensor(DType::F32, &[f64::NAN]);
        assert!(same_value(&nan, &nan, false));
        // Coarser dtypes get looser tolerances.
        let tolerances = [DType::F64, DType::F32, DType::F16, DType::BF16].map(fast_math_tolerance);
        assert!(tolerances.windows(2).all(|w| w[0] < w[1]), "{tolerances:?}");
    }

    fn program(body: &str) -> Program {
        ptir_ir::parse(&format!("func @f(%x: i32[]) -> (i32[]) {{\n{body}\n}}")).unwrap()
    }

    #[test]
    fn an_output_that_fails_where_the_input_does_not_differs() {
        let input = program("  return %x");
        let output =
            program("  %z = constant splat(0) : i32[]\n  %q = div %x, %z : i32[]\n  return %q");
        let trial = Trial::new(&input, &input.functions[0], 3).unwrap();
        let d = trial.check(&output, "out", false).unwrap().unwrap();
        assert_eq!(d.seed, 3);
        assert!(d.to_string().contains("the output fails: in @f"), "{d}");
        // The other way round the input fails: nothing is proven, nothing reported.
        let trial = Trial::new(&output, &output.functions[0], 3).unwrap();
        assert!(trial.skipped());
        assert_eq!(trial.check(&input, "out", false), Ok(None));
    }

    /// Fast-math assumes no NaN arises: an input set on which the input computes one on the
    /// way (`x / x` at zero, turned into an integer) proves nothing under fast-math, however
    /// the output differs, and is counted as skipped; by default it is compared as any other.
    /// A function that computes a NaN on every input set cannot be validated under fast-math.
    #[test]
    fn under_fast_math_a_nan_the_input_computes_on_the_way_proves_nothing() {
        let float_program = |body: &str| {
            ptir_ir::parse(&format!("func @f(%x: f32[]) -> (i32[]) {{\n{body}\n}}")).unwrap()
        };
        let input = float_program("  %d = div %x, %x : f32[]\n  %i = cast %d : i32[]\n  return %i");
        let output = float_program(
            "  %one = constant splat(1) : f32[]\n  %i = cast %one : i32[]\n  return %i",
        );
        let f = &input.functions[0];
        let at = |x: f64| {
            let t = Tensor::from_f64(TensorType::scalar(DType::F32), &[x]);
            Trial::on_inputs(&input, f, 0, vec![t.into()], 10, &ExternImpls::new())
        };
        let zero = at(0.0);
        assert!(zero.proves_nothing(true) && !zero.proves_nothing(false));
        assert_eq!(zero.check(&output, "out", true), Ok(None));
        assert!(zero.check(&output, "out", false).unwrap().is_some());
        let two = at(2.0);
        assert!(!two.proves_nothing(true));
        let wrong = float_program(
            "  %two = constant splat(2) : f32[]\n  %i = cast %two : i32[]\n  return %i",
        );
        assert!(two.check(&wrong, "out", true).unwrap().is_some());
        // Random inputs are not zero: x / x is one, and the fast-math output is validated.
        let v = validate(&input, &output, 8, true, &ExternImpls::new()).unwrap();
        assert_eq!((v.compared, v.skipped), (8, 0));
        // A square root of a negative number on every input set: nothing to compare under
        // fast-math, and validation says so; by default the NaN is compared bit for bit.
        let always = float_program(
            "  %m = constant splat(-1) : f32[]\n  %s = mul %x, %x : f32[]\n  \
             %n = sub %m, %s : f32[]\n  %r = sqrt %n : f32[]\n  %i = cast %r : i32[]\n  \
             return %i",
        );
        let err = validate(&always, &always, 4, true, &ExternImpls::new()).unwrap_err();
        assert!(matches!(
            err,
            ValidationError::NothingCompared { skipped: 4, .. }
        ));
        assert!(err.to_string().contains("computes a NaN"), "{err}");
        let v = validate(&always, &always, 4, false, &ExternImpls::new()).unwrap();
        assert_eq!(v.compared, 4);
    }

    #[test]
    fn an_output_calling_an_unimplemented_extern_is_an_error() {
        let input = program("  return %x");
        let output = ptir_ir::parse(
            "extern @nowhere(i32[]) -> (i32[]) pure\n\
             func @f(%x: i32[]) -> (i32[]) {\n  %y = call @nowhere(%x) : i32[]\n  return %y\n}",
        )
        .unwrap();
        let err = validate(&input, &output, 4, false, &ExternImpls::new()).unwrap_err();
        assert!(
            err.to_string()
                .contains("extern @nowhere has no registered implementation"),
            "{err}"
        );
        assert!(matches!(
            err,
            ValidationError::Check(CheckError::Unrunnable { seed: 0, .. })
        ));
    }

    #[test]
    fn validation_names_the_seed_the_result_and_both_values() {
        let input = program("  %y = add %x, %x : i32[]\n  return %y");
        let output = program("  return %x");
        let err = validate(&input, &output, 16, false, &ExternImpls::new()).unwrap_err();
        let ValidationError::Differs { divergence, result } = &err else {
            panic!("{err}");
        };
        assert_eq!(*result, Some(0));
        let text = err.to_string();
        let seed = divergence.seed;
        assert!(
            text.starts_with(&format!(
                "translation validation refused the optimized program: @f differs on input seed {seed}:"
            )),
            "{text}"
        );
        assert!(text.contains("result 0: expected i32[]"), "{text}");
        assert_eq!(
            validate(&input, &input, 16, false, &ExternImpls::new()),
            Ok(Validation {
                seeds: 16,
                compared: 16,
                skipped: 0,
                redrawn: 0,
                first_skip: None,
            })
        );
    }

    #[test]
    fn optimize_validates_when_asked_and_refuses_with_a_typed_error() {
        let dir = std::env::temp_dir().join(format!("ptir-validate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.rules");
        std::fs::write(&bad, "(rule bad (add ?x ?y) => ?x)\n").unwrap();
        let input = program("  %y = add %x, %x : i32[]\n  return %y");
        for engine in [crate::Engine::Greedy, crate::Engine::Saturation] {
            let sound = crate::Options {
                engine,
                validate: Some(8),
                ..crate::Options::default()
            };
            let out = crate::optimize(&input, &sound).unwrap();
            assert_eq!(
                out.report.validation.map(|v| (v.seeds, v.compared)),
                Some((8, 8))
            );
            let unsound = crate::Options {
                rule_files: vec![bad.clone()],
                ..sound
            };
            match crate::optimize(&input, &unsound) {
                Err(crate::Error::Validation(e)) => {
                    assert!(matches!(
                        *e,
                        ValidationError::Differs {
                            result: Some(0),
                            ..
                        }
                    ))
                }
                other => panic!("{engine}: {other:?}"),
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
