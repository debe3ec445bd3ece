//! Running an [`Example`] and comparing its two functions.
//!
//! Exact rules must give bit-identical results: every NaN equals every NaN (payloads need not
//! be kept), but `-0.0` differs from `+0.0`. Rules labelled `fast-math` are true for real
//! numbers only; their results are compared within [`fast_math_tolerance`], normwise, and only
//! where the source's result is finite.
//!
//! Normwise means relative to the largest finite magnitude of the whole source tensor, not of
//! the element: a reassociated sum errs in proportion to its terms, which can be far larger
//! than a result that cancels to almost nothing (the usual error bound of matrix products).
//! Even so, f16 and bf16 round so coarsely (a step of `2^-11` and `2^-8` of the terms) that
//! no tolerance on the results both admits correct reassociations and rejects wrong rules;
//! so a `fast-math` example is also run *promoted* ([`Example::promoted`]: every float type
//! made f64, which is as close to real numbers as the interpreter gets), and compared there,
//! while its f16 and bf16 results are not compared at their own precision.

use super::{Example, RESULT, SOURCE};
use ptir_ir::{value_type, DType, Scalar, Tensor, Type, Value};

/// How far a `fast-math` result may be from the source's: `|r - s| <= abs + rel * m`, where
/// `m` is the largest finite `|s|` of the source tensor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Absolute part.
    pub abs: f64,
    /// Relative part.
    pub rel: f64,
}

/// The tolerance for `fast-math` results of dtype `d`: `1e-4 + 1e-3·m` for f32 and f64;
/// `None` for f16 and bf16, which are compared promoted to f64 instead (see the module doc).
/// Integers and bools must be equal (tolerance 0).
pub fn fast_math_tolerance(d: DType) -> Option<Tolerance> {
    match d {
        DType::F32 | DType::F64 => Some(Tolerance {
            abs: 1e-4,
            rel: 1e-3,
        }),
        DType::F16 | DType::BF16 => None,
        _ => Some(Tolerance { abs: 0.0, rel: 0.0 }),
    }
}

/// How results are compared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// Bit for bit (NaN equals NaN, `-0.0` differs from `+0.0`).
    Exact,
    /// Within [`fast_math_tolerance`] of each float dtype (f16 and bf16 not compared),
    /// normwise, where the source is finite.
    FastMath,
    /// Within this tolerance, normwise, where the source is finite: for promoted examples.
    Within(Tolerance),
}

/// The tolerance of a promoted `fast-math` example whose coarsest float dtype was `d`:
/// `1e-4 + max(1e-3, 4·ε)·m`, `ε` the rounding step of `d` (`2^-10` for f16, `2^-7` for
/// bf16), as the rule's constants were rounded to `d` before promotion.
pub fn promoted_tolerance(d: Option<DType>) -> Tolerance {
    let eps = match d {
        Some(DType::F16) => 2f64.powi(-10),
        Some(DType::BF16) => 2f64.powi(-7),
        Some(DType::F32) => 2f64.powi(-23),
        _ => 0.0,
    };
    Tolerance {
        abs: 1e-4,
        rel: (4.0 * eps).max(1e-3),
    }
}

/// What running both functions on one input showed.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Same results (within tolerance for `fast-math`).
    Same,
    /// The source fails on these inputs (integer division by zero, ...): its behaviour is
    /// undefined, so any result is allowed.
    Undefined(String),
}

impl Example {
    /// Runs `@source` and `@result` on `inputs` and compares them: exactly, or if
    /// `fast_math` within [`fast_math_tolerance`] and again [`promoted`] to f64 (within
    /// [`promoted_tolerance`]). An error describes the difference, or why the result failed to
    /// run.
    ///
    /// [`promoted`]: Example::promoted
    pub fn check(&self, inputs: &[Value], fast_math: bool) -> Result<Outcome, String> {
        if !fast_math {
            return self.check_with(inputs, Mode::Exact);
        }
        let outcome = self.check_with(inputs, Mode::FastMath)?;
        let inputs: Vec<Value> = inputs.iter().map(promote_value).collect();
        let tol = promoted_tolerance(self.coarsest_float());
        self.promoted()
            .check_with(&inputs, Mode::Within(tol))
            .map_err(|e| format!("promoted to f64: {e}"))?;
        Ok(outcome)
    }

    /// The same example with every float type (of parameters, instructions, results and
    /// inputs) made f64: the rule's claim for real numbers, with little rounding in the way.
    pub fn promoted(&self) -> Example {
        let mut ex = self.clone();
        for f in &mut ex.program.functions {
            f.result_types.iter_mut().for_each(promote_type);
            f.body
                .params
                .iter_mut()
                .for_each(|p| promote_type(&mut p.ty));
            f.body
                .insts
                .iter_mut()
                .for_each(|i| promote_type(&mut i.ty));
        }
        ex.inputs = ex.inputs.iter().map(promote_value).collect();
        ex
    }

    /// The float dtype with the fewest mantissa bits among the program's values.
    fn coarsest_float(&self) -> Option<DType> {
        let mut found = Vec::new();
        for f in &self.program.functions {
            let types = f.body.params.iter().map(|p| &p.ty);
            for t in types.chain(f.body.insts.iter().map(|i| &i.ty)) {
                collect_dtypes(t, &mut found);
            }
        }
        [DType::BF16, DType::F16, DType::F32, DType::F64]
            .into_iter()
            .find(|d| found.contains(d))
    }

    /// Runs both functions on `inputs` and compares them in `mode`.
    pub fn check_with(&self, inputs: &[Value], mode: Mode) -> Result<Outcome, String> {
        let source = match self.run(SOURCE, inputs) {
            Ok(v) => v,
            Err(e) => return Ok(Outcome::Undefined(e.to_string())),
        };
        let result = self
            .run(RESULT, inputs)
            .map_err(|e| format!("@result fails where @source runs: {e}"))?;
        compare(&source, &result, mode).map(|()| Outcome::Same)
    }
}

fn collect_dtypes(t: &Type, out: &mut Vec<DType>) {
    match t {
        Type::Tensor(t) => out.push(t.dtype),
        Type::Tuple(ts) => ts.iter().for_each(|t| collect_dtypes(t, out)),
    }
}

/// Compares the results of a source and its rewrite; an error names the first differing
/// elements.
pub fn compare(source: &[Value], result: &[Value], mode: Mode) -> Result<(), String> {
    if source.len() != result.len() {
        return Err(format!(
            "{} results, expected {}",
            result.len(),
            source.len()
        ));
    }
    let mut diffs = Vec::new();
    for (i, (s, r)) in source.iter().zip(result).enumerate() {
        compare_value(&format!("result {i}"), s, r, mode, &mut diffs);
    }
    if diffs.is_empty() {
        return Ok(());
    }
    let n = diffs.len();
    diffs.truncate(6);
    if n > diffs.len() {
        diffs.push(format!("... {} more", n - 6));
    }
    Err(diffs.join("\n"))
}

fn compare_value(at: &str, s: &Value, r: &Value, mode: Mode, diffs: &mut Vec<String>) {
    match (s, r) {
        (Value::Tensor(s), Value::Tensor(r)) if s.ty == r.ty => {
            compare_tensor(at, s, r, mode, diffs)
        }
        (Value::Tuple(ss), Value::Tuple(rs)) if ss.len() == rs.len() => {
            for (i, (s, r)) in ss.iter().zip(rs).enumerate() {
                compare_value(&format!("{at}.{i}"), s, r, mode, diffs);
            }
        }
        _ => diffs.push(format!(
            "{at}: type {}, expected {}",
            value_type(r),
            value_type(s)
        )),
    }
}

fn compare_tensor(at: &str, s: &Tensor, r: &Tensor, mode: Mode, diffs: &mut Vec<String>) {
    let tol = match mode {
        Mode::Exact => None,
        Mode::FastMath => match fast_math_tolerance(s.ty.dtype) {
            Some(t) => Some(t),
            None => return,
        },
        Mode::Within(t) => Some(t),
    };
    let finite = s.to_f64_vec().into_iter().filter(|x| x.is_finite());
    let scale = finite.fold(0.0f64, |m, x| m.max(x.abs()));
    for i in 0..s.data.len() {
        let (a, b) = (s.get(i), r.get(i));
        let same = match (a, b, tol) {
            (Scalar::Float(x), Scalar::Float(y), Some(t)) => {
                !x.is_finite() || (y - x).abs() <= t.abs + t.rel * scale
            }
            _ => a == b,
        };
        if !same {
            diffs.push(format!(
                "{at}[{i}] of {}: source {}, result {}",
                s.ty,
                show(a),
                show(b)
            ));
        }
    }
}

fn promote_type(t: &mut Type) {
    match t {
        Type::Tensor(t) if t.dtype.is_float() => t.dtype = DType::F64,
        Type::Tensor(_) => {}
        Type::Tuple(ts) => ts.iter_mut().for_each(promote_type),
    }
}

/// The value with every float tensor made f64 (the elements are already stored as f64).
fn promote_value(v: &Value) -> Value {
    match v {
        Value::Tensor(t) if t.ty.dtype.is_float() => Value::Tensor(Tensor {
            ty: t.ty.with_dtype(DType::F64),
            data: t.data.clone(),
        }),
        Value::Tensor(_) => v.clone(),
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(promote_value).collect()),
    }
}

/// A scalar with its sign and full precision (`-0.0`, `nan`, `1.0000001`).
fn show(s: Scalar) -> String {
    match s {
        Scalar::Float(x) if x.is_nan() => "nan".into(),
        Scalar::Float(x) => format!("{x:?}"),
        other => other.to_string(),
    }
}
