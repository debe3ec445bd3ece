//! Reference implementations of the fused library calls that rules raise idioms to.
//!
//! Each extern is defined by its idiom: a few PTIR instructions built at the call's operand
//! types and run by the interpreter. So a raising rule whose source is that idiom is exact,
//! bit for bit, and the proof harness ([`crate::example`]) can check it like any other rule.
//! The idioms (conventions the rules in `rules/fusion.rules` follow):
//!
//! | extern | computes |
//! | --- | --- |
//! | `softmax_fused(x)` | softmax over the last axis: `e = exp(x - max(x))`, `e / sum(e)` (`reduce_* keep_dims=true`, broadcast back), as `corpus/softmax.ptir` |
//! | `layernorm_fused(x, gamma, beta)` | over the last axis of size `n`: `d = x - sum(x)/n`, `d * rsqrt(sum(d*d)/n + 1e-5) * gamma + beta` (`keep_dims=false`), as `corpus/layernorm.ptir` |
//! | `gelu_fused(x)` | `(0.5 * x) * (1 + tanh(0.7978846 * (x + 0.044715 * (x * x * x))))`, as `corpus/gelu.ptir` |
//! | `layernorm_jax_fused(x, gamma, beta, eps)` | layer normalization as JAX writes it (`jnp.mean`, `jnp.var`, `keepdims=True`), `eps` of the kept shape `[.., 1]`: `d = x - broadcast(sum(x))/n`, `d / sqrt(broadcast(sum(square(d)))/n + eps) * gamma + beta` |
//! | `gelu_tanh_jax_fused(x)` | `jax.nn.gelu(approximate=True)`: `x * (0.5 * (1 + tanh(0.7978846 * (x + 0.044715 * (x * x * x)))))` |
//! | `gelu_erfc_fused(x)` | `jax.nn.gelu(approximate=False)`: `(0.5 * x) * erfc(-x * 0.70710677)` |
//! | `linear(x, w, b)` | `dot_general(x, w)` contracting the last dim of `x` with the first of `w`, plus `b` broadcast along the trailing dims |
//! | `moments(x)` | the tuple `(sum(x), sum(x * x))` over the last axis, `keep_dims=false` |
//! | `attention(q, k, v, mask, scale)` | `q [S,E]`, `k [T,E]`, `v [T,F]`, `mask bool[S,T]`, `scale [S,T]`: `s = dot_general(q, k)` contracting dim 1 with dim 1, `p = softmax_fused(select(mask, s * scale, -inf))`, `dot_general(p, v)` contracting dim 1 with dim 0, as `corpus/attention.ptir` |
//! | `transpose_add_mul(a, b)` | `a [M,N]`, `b [N,M]`: `t = transpose(a, [1, 0])`, `t * (t + b)` (a DAG: `t` is used twice) |
//!
//! ```
//! use ptir_ir::{DType, Tensor, TensorType, Type};
//! let x = Tensor::from_f64(TensorType::new(DType::F32, vec![2]), &[0.0, 0.0]);
//! let ty: Type = x.ty.clone().into();
//! assert_eq!(ptir_rules::externs::result_type("softmax_fused", &[ty.clone()]), Some(Ok(ty.clone())));
//! let softmax = ptir_rules::externs::reference_fn("softmax_fused").unwrap();
//! assert_eq!(softmax(&[x.into()], &ty).unwrap().to_string(), "f32[2] [0.5, 0.5]");
//! ```

use crate::ast::AttrValue;
use crate::build::FnBuilder;
use crate::values::{random_value, InputKind};
use ptir_ir::{
    value_type, BinaryOp, DotDims, ExternFn, Interpreter, OpKey, Program, ReduceKind, TensorType,
    Type, UnaryOp, Value, ValueId,
};
use rand::SeedableRng;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

type Res<T> = Result<T, String>;

/// Builds an idiom on the parameters of a function and returns its results.
type Idiom = fn(&mut FnBuilder, &[ValueId]) -> Res<Vec<ValueId>>;

/// The externs with a reference implementation: name, operand count, idiom.
const REFERENCES: &[(&str, usize, Idiom)] = &[
    ("softmax_fused", 1, softmax),
    ("layernorm_fused", 3, layernorm),
    ("gelu_fused", 1, gelu),
    ("gelu_tanh_jax_fused", 1, gelu_tanh_jax),
    ("gelu_erfc_fused", 1, gelu_erfc),
    ("layernorm_jax_fused", 4, layernorm_jax),
    ("linear", 3, linear),
    ("moments", 1, moments),
    ("attention", 5, attention),
    ("transpose_add_mul", 2, transpose_add_mul),
];

/// The reserved namespace of rule externs renamed for a program that owns their name:
/// `@linear` becomes `@ptir.linear` (then `@ptir.linear.1`, ...) in a program that defines its
/// own `@linear` ([`crate::RuleSet::renaming_externs_for`]). Such a name still denotes the
/// extern: [`reference_fn`] and the other lookups here resolve it.
pub const RENAMED_PREFIX: &str = "ptir.";

/// The names a rule extern `name` may take in a program, in order of preference: `name`,
/// then the reserved `ptir.name`, `ptir.name.1`, `ptir.name.2`, ...
pub fn candidate_names(name: &str) -> impl Iterator<Item = String> + '_ {
    std::iter::once(name.to_string())
        .chain(std::iter::once(format!("{RENAMED_PREFIX}{name}")))
        .chain((1usize..).map(move |k| format!("{RENAMED_PREFIX}{name}.{k}")))
}

/// The extern a possibly renamed name denotes: `linear`, `ptir.linear` and `ptir.linear.2` all
/// denote `linear` (see [`RENAMED_PREFIX`]).
pub fn base_name(name: &str) -> &str {
    let Some(rest) = name.strip_prefix(RENAMED_PREFIX) else {
        return name;
    };
    match rest.rsplit_once('.') {
        Some((base, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => rest,
    }
}

fn reference(name: &str) -> Option<&'static (&'static str, usize, Idiom)> {
    let base = base_name(name);
    REFERENCES.iter().find(|r| r.0 == base)
}

/// The extern with a reference implementation that a call of `callee` denotes: its own name,
/// a renamed form (`@ptir.linear`, see [`RENAMED_PREFIX`]) or an outlined instance
/// (`@linear_0`, by the call-prefix rule of [`crate::callee_matches`]).
///
/// ```
/// use ptir_rules::externs::reference_of;
/// assert_eq!(reference_of("linear_0"), Some("linear"));
/// assert_eq!(reference_of("ptir.softmax_fused"), Some("softmax_fused"));
/// assert_eq!(reference_of("my_kernel"), None);
/// ```
pub fn reference_of(callee: &str) -> Option<&'static str> {
    let base = base_name(callee);
    REFERENCES
        .iter()
        .map(|r| r.0)
        .find(|n| crate::callee_matches(n, base))
}

/// Names of the externs that have a reference implementation.
pub fn reference_names() -> Vec<&'static str> {
    REFERENCES.iter().map(|r| r.0).collect()
}

/// Does `name` (possibly renamed, see [`RENAMED_PREFIX`]) have a reference implementation?
pub fn has_reference(name: &str) -> bool {
    reference(name).is_some()
}

/// The idiom of extern `name` as a program with one function `@name` taking `args`; `None`
/// if the extern has no reference, an error if the idiom does not apply to these types.
pub fn idiom_program(name: &str, args: &[Type]) -> Option<Res<Program>> {
    let &(_, arity, idiom) = reference(name)?;
    Some(build_idiom(name, arity, idiom, args))
}

fn build_idiom(name: &str, arity: usize, idiom: Idiom, args: &[Type]) -> Res<Program> {
    if args.len() != arity {
        return Err(format!(
            "@{name} takes {arity} operand(s), found {}",
            args.len()
        ));
    }
    let mut b = FnBuilder::new();
    let params: Vec<ValueId> = args.iter().map(|t| b.param(t.clone())).collect();
    let results = idiom(&mut b, &params)?;
    Ok(Program {
        externs: Vec::new(),
        functions: vec![b.finish(name, results)],
    })
}

/// Is `f` the definition of extern `name` (possibly renamed): its body is exactly the idiom
/// at `f`'s parameter types, as outlining writes it? Such a function is the library's, not a
/// user's function that merely shares the name.
pub fn is_definition(name: &str, f: &ptir_ir::Function) -> bool {
    match idiom_program(name, &f.param_types()) {
        Some(Ok(p)) => p
            .functions
            .first()
            .is_some_and(|g| g.body == f.body && g.result_types == f.result_types),
        _ => false,
    }
}

/// The fused extern `f` defines, if any: its name calls that extern (`@linear`, `@linear_0`,
/// by the call-prefix rule) and its body is the extern's idiom ([`is_definition`]).
pub fn defined_by(f: &ptir_ir::Function) -> Option<&'static str> {
    REFERENCES
        .iter()
        .map(|r| r.0)
        .find(|n| crate::callee_matches(n, &f.name) && is_definition(n, f))
}

/// The result type of a call of `name` on operands of types `args` (`None`: no reference).
pub fn result_type(name: &str, args: &[Type]) -> Option<Res<Type>> {
    let program = idiom_program(name, args)?;
    Some(program.and_then(|p| {
        p.functions
            .first()
            .map(|f| Type::pack(f.result_types.clone()))
            .ok_or_else(|| "empty idiom".to_string())
    }))
}

/// The reference implementation of extern `name`, for [`Interpreter::with_extern_fn`].
pub fn reference_fn(name: &str) -> Option<ExternFn> {
    let &(name, arity, idiom) = reference(name)?;
    Some(Arc::new(move |args: &[Value], _ty: &Type| {
        let types: Vec<Type> = args.iter().map(value_type).collect();
        let program = build_idiom(name, arity, idiom, &types)?;
        let out = Interpreter::new(&program)
            .run(name, args)
            .map_err(|e| e.to_string())?;
        Ok(Value::pack(out))
    }))
}

/// Every reference implementation, to register on an [`Interpreter`].
pub fn interpreter_externs() -> Vec<(String, ExternFn)> {
    REFERENCES
        .iter()
        .filter_map(|r| reference_fn(r.0).map(|f| (r.0.to_string(), f)))
        .collect()
}

/// An interpreter for `program` with every extern this project knows how to run: the fused
/// library ops that rules raise idioms to (`@softmax_fused`, `@linear`, ..., computed exactly as
/// their idioms; also under the reserved names they take in programs with functions of those
/// names, `@ptir.linear`), the random generator's test externs (`@gen_pure`, `@gen_impure`) and
/// `@log_event` (returns its argument; the corpus uses it as an impure side effect).
///
/// ```
/// let p = ptir_ir::parse("extern @log_event(f32[]) -> (f32[]) impure\n\
///     func @f(%x: f32[]) -> (f32[]) {\n  %y = call @log_event(%x) : f32[]\n  return %y\n}").unwrap();
/// let x = ptir_ir::Tensor::from_f64(ptir_ir::TensorType::scalar(ptir_ir::DType::F32), &[2.5]);
/// let out = ptir_rules::externs::interpreter(&p).run("f", &[x.clone().into()]).unwrap();
/// assert_eq!(out, vec![x.into()]);
/// ```
pub fn interpreter(program: &ptir_ir::Program) -> ptir_ir::Interpreter<'_> {
    let mut interp = ptir_ir::Interpreter::new(program);
    for (name, f) in interpreter_externs() {
        interp = interp.with_extern_fn(name, f);
    }
    for e in &program.externs {
        let name = e.name.clone();
        if let Some(f) = reference_fn(&name) {
            // A rule extern renamed away from the program's own names (`@ptir.linear`).
            interp = interp.with_extern_fn(name, f);
        } else if name == "log_event" {
            interp = interp.with_extern(name, |args: &[ptir_ir::Value], _| {
                args.first()
                    .cloned()
                    .ok_or_else(|| "@log_event takes one argument".to_string())
            });
        } else if [
            ptir_ir::inputs::GEN_PURE_EXTERN,
            ptir_ir::inputs::GEN_IMPURE_EXTERN,
        ]
        .contains(&name.as_str())
        {
            interp = interp.with_extern(name.clone(), move |args: &[ptir_ir::Value], _| {
                ptir_ir::inputs::extern_reference(&name, args)
                    .map(ptir_ir::Value::pack)
                    .ok_or_else(|| format!("@{name}: bad arguments"))
            });
        }
    }
    interp
}

/// A stand-in for an extern without a reference: a deterministic function of its name and
/// its arguments' bits, returning ordinary random values of the call's type. Rules that only
/// move such calls around (or merge equal ones) can still be checked with it.
pub fn opaque_extern(name: &str) -> ExternFn {
    let name = name.to_string();
    Arc::new(move |args: &[Value], ty: &Type| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        name.hash(&mut h);
        args.hash(&mut h);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(h.finish());
        Ok(random_value(ty, InputKind::Ordinary, &mut rng))
    })
}

// ---- the idioms -----------------------------------------------------------------------

fn tensor(b: &FnBuilder, v: ValueId) -> Res<TensorType> {
    b.ty(v)
        .and_then(Type::as_tensor)
        .cloned()
        .ok_or_else(|| format!("{v} must be a tensor"))
}

fn ints(xs: impl IntoIterator<Item = usize>) -> AttrValue {
    AttrValue::Ints(xs.into_iter().collect())
}

/// Reduces `x` over its last axis.
fn reduce_last(b: &mut FnBuilder, kind: ReduceKind, x: ValueId, keep: bool) -> Res<ValueId> {
    let r = tensor(b, x)?.rank();
    let last = r
        .checked_sub(1)
        .ok_or("the operand must have rank 1 or more")?;
    b.op(
        OpKey::Reduce(kind),
        &[ints([last]), AttrValue::Bool(keep)],
        &[x],
    )
}

/// Broadcasts `v`, a reduction of `like` over its last axis, back to `like`'s shape.
fn back(b: &mut FnBuilder, v: ValueId, like: &TensorType) -> Res<ValueId> {
    let rank = tensor(b, v)?.rank();
    b.op(
        OpKey::Broadcast,
        &[ints(0..rank), ints(like.shape.clone())],
        &[v],
    )
}

fn bin(b: &mut FnBuilder, op: BinaryOp, x: ValueId, y: ValueId) -> Res<ValueId> {
    b.op(OpKey::Binary(op), &[], &[x, y])
}

fn softmax(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let x = args[0];
    let t = tensor(b, x)?;
    let m = reduce_last(b, ReduceKind::Max, x, true)?;
    let mb = back(b, m, &t)?;
    let s = bin(b, BinaryOp::Sub, x, mb)?;
    let e = b.op(OpKey::Unary(UnaryOp::Exp), &[], &[s])?;
    let z = reduce_last(b, ReduceKind::Sum, e, true)?;
    let zb = back(b, z, &t)?;
    Ok(vec![bin(b, BinaryOp::Div, e, zb)?])
}

fn layernorm(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let (x, gamma, beta) = (args[0], args[1], args[2]);
    let t = tensor(b, x)?;
    let sum = reduce_last(b, ReduceKind::Sum, x, false)?;
    let red: Type = tensor(b, sum)?.into();
    let n = b.splat(t.shape.last().copied().unwrap_or(1) as f64, red.clone())?;
    let eps = b.splat(1e-5, red)?;
    let mean = bin(b, BinaryOp::Div, sum, n)?;
    let meanb = back(b, mean, &t)?;
    let d = bin(b, BinaryOp::Sub, x, meanb)?;
    let d2 = bin(b, BinaryOp::Mul, d, d)?;
    let ss = reduce_last(b, ReduceKind::Sum, d2, false)?;
    let var = bin(b, BinaryOp::Div, ss, n)?;
    let ve = bin(b, BinaryOp::Add, var, eps)?;
    let r = b.op(OpKey::Unary(UnaryOp::Rsqrt), &[], &[ve])?;
    let rb = back(b, r, &t)?;
    let xn = bin(b, BinaryOp::Mul, d, rb)?;
    scale_shift_last(b, xn, gamma, beta, &t)
}

/// `xn * gamma + beta`, both broadcast along the last axis of `t`.
fn scale_shift_last(
    b: &mut FnBuilder,
    xn: ValueId,
    gamma: ValueId,
    beta: ValueId,
    t: &TensorType,
) -> Res<Vec<ValueId>> {
    let along_last = [ints([t.rank().saturating_sub(1)]), ints(t.shape.clone())];
    let gb = b.op(OpKey::Broadcast, &along_last, &[gamma])?;
    let bb = b.op(OpKey::Broadcast, &along_last, &[beta])?;
    let xg = bin(b, BinaryOp::Mul, xn, gb)?;
    Ok(vec![bin(b, BinaryOp::Add, xg, bb)?])
}

/// `1 + tanh(0.7978846 * (x + 0.044715 * ((x * x) * x)))`, the tanh GELU's factor, and the
/// splat `0.5` of `x`'s type (its constants made first, as both GELU forms write them).
fn tanh_gelu_factor(b: &mut FnBuilder, x: ValueId) -> Res<(ValueId, ValueId)> {
    let ty: Type = tensor(b, x)?.into();
    let half = b.splat(0.5, ty.clone())?;
    let one = b.splat(1.0, ty.clone())?;
    let c = b.splat(0.7978846, ty.clone())?;
    let k = b.splat(0.044715, ty)?;
    let x2 = bin(b, BinaryOp::Mul, x, x)?;
    let x3 = bin(b, BinaryOp::Mul, x2, x)?;
    let kx3 = bin(b, BinaryOp::Mul, k, x3)?;
    let inner = bin(b, BinaryOp::Add, x, kx3)?;
    let scaled = bin(b, BinaryOp::Mul, c, inner)?;
    let th = b.op(OpKey::Unary(UnaryOp::Tanh), &[], &[scaled])?;
    Ok((bin(b, BinaryOp::Add, one, th)?, half))
}

/// Layer normalization as JAX writes it (`jnp.mean`, `jnp.var` inlined, `keepdims=True`):
/// `x [.., D]`, `eps` of the kept shape `[.., 1]`: `mean = broadcast(sum(x)) / D`,
/// `d = x - mean`, `var = broadcast(sum(square(d))) / D`,
/// `d / sqrt(var + eps) * gamma + beta`.
fn layernorm_jax(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let (x, gamma, beta, eps) = (args[0], args[1], args[2], args[3]);
    let t = tensor(b, x)?;
    let kept = tensor(b, eps)?;
    let keep = |b: &mut FnBuilder, v: ValueId| {
        let rank = tensor(b, v)?.rank();
        b.op(
            OpKey::Broadcast,
            &[ints(0..rank), ints(kept.shape.clone())],
            &[v],
        )
    };
    let n = b.splat(
        t.shape.last().copied().unwrap_or(1) as f64,
        kept.clone().into(),
    )?;
    let sum = reduce_last(b, ReduceKind::Sum, x, false)?;
    let sum = keep(b, sum)?;
    let mean = bin(b, BinaryOp::Div, sum, n)?;
    let meanb = back(b, mean, &t)?;
    let d = bin(b, BinaryOp::Sub, x, meanb)?;
    let d2 = b.op(OpKey::Unary(UnaryOp::Square), &[], &[d])?;
    let ss = reduce_last(b, ReduceKind::Sum, d2, false)?;
    let ss = keep(b, ss)?;
    let var = bin(b, BinaryOp::Div, ss, n)?;
    let ve = bin(b, BinaryOp::Add, var, eps)?;
    let r = b.op(OpKey::Unary(UnaryOp::Sqrt), &[], &[ve])?;
    let rb = back(b, r, &t)?;
    let xn = bin(b, BinaryOp::Div, d, rb)?;
    scale_shift_last(b, xn, gamma, beta, &t)
}

fn gelu(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let x = args[0];
    let (onept, half) = tanh_gelu_factor(b, x)?;
    let hx = bin(b, BinaryOp::Mul, half, x)?;
    Ok(vec![bin(b, BinaryOp::Mul, hx, onept)?])
}

/// `jax.nn.gelu(approximate=True)`: the half multiplies the tanh factor, then `x` multiplies
/// that (not `(0.5 * x) * factor`: halving `x` first rounds a subnormal `x`).
fn gelu_tanh_jax(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let x = args[0];
    let (onept, half) = tanh_gelu_factor(b, x)?;
    let scaled = bin(b, BinaryOp::Mul, half, onept)?;
    Ok(vec![bin(b, BinaryOp::Mul, x, scaled)?])
}

/// `jax.nn.gelu(approximate=False)`: `(0.5 * x) * erfc(-x * 0.70710677)`.
fn gelu_erfc(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let x = args[0];
    let ty: Type = tensor(b, x)?.into();
    let half = b.splat(0.5, ty.clone())?;
    let hx = bin(b, BinaryOp::Mul, half, x)?;
    let neg = b.op(OpKey::Unary(UnaryOp::Neg), &[], &[x])?;
    let inv_sqrt2 = b.splat(0.70710677, ty)?;
    let scaled = bin(b, BinaryOp::Mul, neg, inv_sqrt2)?;
    let e = b.op(OpKey::Unary(UnaryOp::Erfc), &[], &[scaled])?;
    Ok(vec![bin(b, BinaryOp::Mul, hx, e)?])
}

fn linear(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let (x, w, bias) = (args[0], args[1], args[2]);
    let last = tensor(b, x)?
        .rank()
        .checked_sub(1)
        .ok_or("x must have rank 1 or more")?;
    let dims = DotDims {
        lhs_contract: vec![last],
        rhs_contract: vec![0],
        ..DotDims::default()
    };
    let y = b.op(OpKey::DotGeneral, &[AttrValue::Dims(dims)], &[x, w])?;
    let yt = tensor(b, y)?;
    let k = tensor(b, bias)?.rank();
    let from = yt
        .rank()
        .checked_sub(k)
        .ok_or("the bias has too many dims")?;
    let bb = b.op(
        OpKey::Broadcast,
        &[ints(from..yt.rank()), ints(yt.shape)],
        &[bias],
    )?;
    Ok(vec![bin(b, BinaryOp::Add, y, bb)?])
}

fn attention(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let (q, k, v, mask, scale) = (args[0], args[1], args[2], args[3], args[4]);
    let contract = |l: usize, r: usize| {
        AttrValue::Dims(DotDims {
            lhs_contract: vec![l],
            rhs_contract: vec![r],
            ..DotDims::default()
        })
    };
    let scores = b.op(OpKey::DotGeneral, &[contract(1, 1)], &[q, k])?;
    let scaled = bin(b, BinaryOp::Mul, scores, scale)?;
    let ty: Type = tensor(b, scaled)?.into();
    let ninf = b.splat(f64::NEG_INFINITY, ty)?;
    let masked = b.op(OpKey::Select, &[], &[mask, scaled, ninf])?;
    let p = softmax(b, &[masked])?;
    Ok(vec![b.op(
        OpKey::DotGeneral,
        &[contract(1, 0)],
        &[p[0], v],
    )?])
}

fn transpose_add_mul(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let t = b.op(OpKey::Transpose, &[ints([1, 0])], &[args[0]])?;
    let s = bin(b, BinaryOp::Add, t, args[1])?;
    Ok(vec![bin(b, BinaryOp::Mul, t, s)?])
}

fn moments(b: &mut FnBuilder, args: &[ValueId]) -> Res<Vec<ValueId>> {
    let x = args[0];
    let s = reduce_last(b, ReduceKind::Sum, x, false)?;
    let x2 = bin(b, BinaryOp::Mul, x, x)?;
    let q = reduce_last(b, ReduceKind::Sum, x2, false)?;
    Ok(vec![s, q])
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptir_ir::{DType, Tensor};

    fn f32s(shape: &[usize], xs: &[f64]) -> Value {
        Tensor::from_f64(TensorType::new(DType::F32, shape.to_vec()), xs).into()
    }

    /// The softmax idiom run through its reference equals the corpus program's output.
    #[test]
    fn softmax_matches_the_corpus() {
        let corpus = ptir_ir::parse(include_str!("../../../corpus/softmax.ptir")).unwrap();
        let xs: Vec<f64> = (0..32).map(|i| (i as f64 * 0.37).sin() * 3.0).collect();
        let x = f32s(&[4, 8], &xs);
        let want = ptir_ir::run(&corpus, "softmax", std::slice::from_ref(&x)).unwrap();
        let ty = value_type(&want[0]);
        assert_eq!(
            reference_fn("softmax_fused").unwrap()(&[x], &ty).unwrap(),
            want[0]
        );
    }

    #[test]
    fn layernorm_and_gelu_match_the_corpus() {
        let xs: Vec<f64> = (0..32).map(|i| (i as f64 * 0.91).cos() * 2.0).collect();
        let x = f32s(&[4, 8], &xs);
        let g = f32s(&[8], &[1.0, 0.5, 2.0, -1.0, 0.25, 1.5, 3.0, -0.5]);
        let be = f32s(&[8], &[0.0, 0.1, -0.2, 0.3, 1.0, -1.0, 0.5, 0.0]);
        let ln = ptir_ir::parse(include_str!("../../../corpus/layernorm.ptir")).unwrap();
        let want = ptir_ir::run(&ln, "layernorm", &[x.clone(), g.clone(), be.clone()]).unwrap();
        let got =
            reference_fn("layernorm_fused").unwrap()(&[x.clone(), g, be], &value_type(&want[0]));
        assert_eq!(got.unwrap(), want[0]);
        let ge = ptir_ir::parse(include_str!("../../../corpus/gelu.ptir")).unwrap();
        let want = ptir_ir::run(&ge, "gelu", std::slice::from_ref(&x)).unwrap();
        assert_eq!(
            reference_fn("gelu_fused").unwrap()(&[x], &value_type(&want[0])).unwrap(),
            want[0]
        );
    }

    #[test]
    fn attention_matches_the_corpus() {
        let corpus = ptir_ir::parse(include_str!("../../../corpus/attention.ptir")).unwrap();
        let qkv: Vec<Value> = (0..3)
            .map(|k| {
                let xs: Vec<f64> = (0..32)
                    .map(|i| ((i * (k + 2)) as f64 * 0.53).sin())
                    .collect();
                f32s(&[4, 8], &xs)
            })
            .collect();
        let want = ptir_ir::run(&corpus, "attention", &qkv).unwrap();
        let causal: Vec<bool> = (0..16).map(|i| i % 4 <= i / 4).collect();
        let bools = TensorType::new(DType::Bool, vec![4, 4]);
        let mask = Tensor {
            ty: bools,
            data: ptir_ir::Data::Bool(causal),
        };
        let scale = f32s(&[4, 4], &[0.35355338; 16]);
        let mut args = qkv;
        args.extend([mask.into(), scale]);
        let got = reference_fn("attention").unwrap()(&args, &value_type(&want[0]));
        assert_eq!(got.unwrap(), want[0]);
    }

    #[test]
    fn linear_and_moments_types() {
        let t = |s: &[usize]| -> Type { TensorType::new(DType::F32, s.to_vec()).into() };
        assert_eq!(
            result_type("linear", &[t(&[2, 3]), t(&[3, 4]), t(&[4])]),
            Some(Ok(t(&[2, 4])))
        );
        assert_eq!(
            result_type("moments", &[t(&[2, 3])]),
            Some(Ok(Type::Tuple(vec![t(&[2]), t(&[2])])))
        );
        assert!(matches!(
            result_type("softmax_fused", &[t(&[])]),
            Some(Err(_))
        ));
        assert_eq!(result_type("frobnicate", &[t(&[2])]), None);
        assert_eq!(
            result_type("ptir.linear.3", &[t(&[2, 3]), t(&[3, 4]), t(&[4])]),
            Some(Ok(t(&[2, 4])))
        );
    }

    #[test]
    fn renamed_names_denote_their_extern() {
        let names: Vec<String> = candidate_names("linear").take(3).collect();
        assert_eq!(names, ["linear", "ptir.linear", "ptir.linear.1"]);
        for n in &names {
            assert_eq!(base_name(n), "linear");
        }
        assert_eq!(base_name("ptir.a.b"), "a.b");
        assert_eq!(base_name("linear.1"), "linear.1");
        assert!(has_reference("ptir.softmax_fused") && !has_reference("softmax_fused_0"));
    }
}
