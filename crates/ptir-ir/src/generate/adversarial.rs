//! The extended generator: the program shapes that broke the optimizer while the
//! plain generator never made them. Each is behind a [`GenConfig`](super::GenConfig) knob,
//! off by default:
//!
//! - helpers that trap (integer division by their first parameter) or never return (an
//!   endless `while`, or an unconditional call of themselves), called only where a guard
//!   protects them: in a `cond` whose predicate is derived from the divisor, or in a `while`
//!   whose trip count comes from an input and is often zero;
//! - guarded divisions, `cond (x != 0) { 100 / x + 1 } else { 0 }`, sometimes twice on the
//!   same `x` (two identical divisions under two guards);
//! - broadcasts to more than [`TENSOR_ELEMENT_LIMIT`] elements in a branch that generated
//!   inputs do not take;
//! - the fusion idioms the bundled rules raise to library calls, and a user function named
//!   after one of those externs (with the extern's signature and, mostly, another body);
//! - index arithmetic and masks as JAX writes them: integer `iota`s combined with splat and
//!   dense constants, compared into a mask that selects between two values;
//! - long reductions written out: `add`, `mul`, `max`, `min`, `and` or `or` folded over many
//!   terms, some repeated, some constant (the shape on which commutativity, associativity
//!   and distributivity enumerate groupings);
//! - long straight chains of elementwise ops (a separate mode).
//!
//! Generated inputs make the guards matter: integer inputs are zero a third of the time
//! ([`random_tensor`](super::random_tensor)), and `@main` takes the trapping helpers'
//! divisor types and an `i32` trip count as parameters.

use super::state::{ty_of, Callee, Clash, Gen, Result, Risk};
use super::{ENTRY, IDIOMS, SPIN_PREFIX, TRAP_PREFIX};
use crate::builder::{FunctionBuilder, ProgramBuilder, Val};
use crate::interp::TENSOR_ELEMENT_LIMIT;
use crate::ops::{BinaryOp, CmpOp, DotDims, Op, ReduceKind, UnaryOp};
use crate::program::{Instruction, Program, ValueId};
use crate::tensor::{wrap_int, Literal, Scalar};
use crate::types::{num_elements, DType, Shape, TensorType, Type};
use rand::seq::SliceRandom;
use rand::Rng;

/// Shapes of the huge broadcasts: each has more than [`TENSOR_ELEMENT_LIMIT`] elements.
const HUGE_SHAPES: [&[usize]; 3] = [&[5000, 5000], &[4097, 4097], &[2, 3000, 3000]];

/// The largest trip count of a loop whose trip count comes from an input.
const INPUT_TRIP_LIMIT: f64 = 3.0;

/// A splat constant of `ty` holding `value` (`false`/`true` for bools).
fn splat(f: &mut FunctionBuilder<'_>, value: i64, ty: &TensorType) -> Result<Val> {
    let s = match ty.dtype {
        DType::Bool => Scalar::Bool(value != 0),
        d if d.is_int() => Scalar::Int(wrap_int(d, value)),
        d => Scalar::from_f64(d, value as f64),
    };
    f.constant(Literal::Splat(s), ty.clone())
}

/// A float splat constant of `ty` (the idioms' constants).
fn splat_f(f: &mut FunctionBuilder<'_>, value: f64, ty: &TensorType) -> Result<Val> {
    f.constant(
        Literal::Splat(Scalar::from_f64(ty.dtype, value)),
        ty.clone(),
    )
}

/// The first result of a region op (one result comes as itself, several as a tuple).
fn first_result(f: &mut FunctionBuilder<'_>, v: Val) -> Result<Val> {
    if f.ty(v)?.as_tuple().is_some() {
        f.tuple_get(v, 0)
    } else {
        Ok(v)
    }
}

/// `bool[]`: no element of the integer tensor `x` is zero.
fn nonzero_guard(f: &mut FunctionBuilder<'_>, x: Val) -> Result<Val> {
    let ty = ty_of(f, x)?;
    let zero = splat(f, 0, &ty)?;
    if ty.rank() == 0 {
        return f.compare(CmpOp::Ne, x, zero);
    }
    let is_zero = f.compare(CmpOp::Eq, x, zero)?;
    let axes: Vec<usize> = (0..ty.rank()).collect();
    let any_zero = f.reduce(ReduceKind::Max, is_zero, &axes, false)?;
    f.unary(UnaryOp::Not, any_zero)
}

/// The idiom the bundled rules raise to a call of `name`, on `args` (typed by
/// [`Gen::idiom_signature`]); its results.
fn emit_idiom(f: &mut FunctionBuilder<'_>, name: &str, args: &[Val]) -> Result<Vec<Val>> {
    let x = args[0];
    let xt = ty_of(f, x)?;
    let last = xt.rank().saturating_sub(1);
    match name {
        "linear" => {
            let dims = DotDims {
                lhs_contract: vec![1],
                rhs_contract: vec![0],
                ..DotDims::default()
            };
            let d = f.dot_general(x, args[1], &dims)?;
            let shape = ty_of(f, d)?.shape;
            let b = f.broadcast(args[2], &[1], &shape)?;
            Ok(vec![f.binary(BinaryOp::Add, d, b)?])
        }
        "softmax_fused" => {
            let all: Vec<usize> = (0..xt.rank()).collect();
            let m = f.reduce(ReduceKind::Max, x, &[last], true)?;
            let mb = f.broadcast(m, &all, &xt.shape)?;
            let s = f.binary(BinaryOp::Sub, x, mb)?;
            let e = f.unary(UnaryOp::Exp, s)?;
            let z = f.reduce(ReduceKind::Sum, e, &[last], true)?;
            let zb = f.broadcast(z, &all, &xt.shape)?;
            Ok(vec![f.binary(BinaryOp::Div, e, zb)?])
        }
        "gelu_fused" => {
            let half = splat_f(f, 0.5, &xt)?;
            let hx = f.binary(BinaryOp::Mul, half, x)?;
            let one = splat_f(f, 1.0, &xt)?;
            let k = splat_f(f, 0.7978846, &xt)?;
            let c = splat_f(f, 0.044715, &xt)?;
            let xx = f.binary(BinaryOp::Mul, x, x)?;
            let xxx = f.binary(BinaryOp::Mul, xx, x)?;
            let cx = f.binary(BinaryOp::Mul, c, xxx)?;
            let inner = f.binary(BinaryOp::Add, x, cx)?;
            let scaled = f.binary(BinaryOp::Mul, k, inner)?;
            let t = f.unary(UnaryOp::Tanh, scaled)?;
            let onet = f.binary(BinaryOp::Add, one, t)?;
            Ok(vec![f.binary(BinaryOp::Mul, hx, onet)?])
        }
        "moments" => {
            let sum = f.reduce(ReduceKind::Sum, x, &[last], false)?;
            let xx = f.binary(BinaryOp::Mul, x, x)?;
            let sq = f.reduce(ReduceKind::Sum, xx, &[last], false)?;
            Ok(vec![sum, sq])
        }
        _ => {
            let t = f.transpose(x, &[1, 0])?;
            let s = f.binary(BinaryOp::Add, t, args[1])?;
            Ok(vec![f.binary(BinaryOp::Mul, t, s)?])
        }
    }
}

impl Gen<'_> {
    /// The trapping and looping helpers of [`GenConfig::trapping_helpers`] and
    /// [`GenConfig::looping_helpers`](super::GenConfig).
    pub fn risky_helpers(&mut self, pb: &mut ProgramBuilder) {
        for i in 0..self.cfg.trapping_helpers {
            let name = format!("{TRAP_PREFIX}{i}");
            if let Err(e) = self.trap_helper(pb, &name) {
                self.reject(format!("@{name}: {e}"));
            }
        }
        for i in 0..self.cfg.looping_helpers {
            let name = format!("{SPIN_PREFIX}{i}");
            if let Err(e) = self.spin_helper(pb, &name) {
                self.reject(format!("@{name}: {e}"));
            }
        }
    }

    /// An integer type for divisors: mostly `i32`, else any integer dtype, a scalar or a
    /// short vector.
    fn divisor_type(&mut self) -> TensorType {
        let dtype = if self.coin(0.5) {
            DType::I32
        } else {
            *DType::INTS.choose(&mut self.rng).unwrap_or(&DType::I64)
        };
        let shape = if self.coin(0.5) {
            vec![]
        } else {
            vec![self.rng.gen_range(1..=3)]
        };
        TensorType::new(dtype, shape)
    }

    /// `@trapN(%a: iK[S], ...) -> iK[S]`: `100 / a + 1` (or `rem`), then a few random steps.
    fn trap_helper(&mut self, pb: &mut ProgramBuilder, name: &str) -> Result<()> {
        let divisor = self.divisor_type();
        let mut params = vec![divisor.clone()];
        if self.coin(0.5) {
            params.push(self.rand_type(|_| true));
        }
        let mut f = pb.function(name, &params)?;
        self.pool = vec![f.params()];
        let a = f.param(0)?;
        let hundred = splat(&mut f, 100, &divisor)?;
        let op = if self.coin(0.8) {
            BinaryOp::Div
        } else {
            BinaryOp::Rem
        };
        let q = f.binary(op, hundred, a)?;
        let one = splat(&mut f, 1, &divisor)?;
        let r = f.binary(BinaryOp::Add, q, one)?;
        self.add(q);
        self.add(r);
        for _ in 0..self.rng.gen_range(0..=2) {
            self.step(&mut f);
        }
        f.ret(&[r])?;
        self.callees.push(Callee {
            name: name.to_string(),
            params: params.into_iter().map(Type::from).collect(),
            is_extern: false,
            risk: Some(Risk::Trap),
            result: Some(divisor),
        });
        Ok(())
    }

    /// `@spinN(%x: T) -> T`: an endless `while` on `x`, or (patched in once the program is
    /// built) `call @spinN(%x)`.
    fn spin_helper(&mut self, pb: &mut ProgramBuilder, name: &str) -> Result<()> {
        let ty = self.rand_type(|_| true);
        let recursive = self.coin(0.5);
        let mut f = pb.function(name, std::slice::from_ref(&ty))?;
        let x = f.param(0)?;
        let out = if recursive {
            self.recursive.push(name.to_string());
            x
        } else {
            let v = f.while_loop(
                &[x],
                |c, _| splat(c, 1, &TensorType::scalar(DType::Bool)),
                |_, p| Ok(p.to_vec()),
            )?;
            first_result(&mut f, v)?
        };
        f.ret(&[out])?;
        self.callees.push(Callee {
            name: name.to_string(),
            params: vec![ty.clone().into()],
            is_extern: false,
            risk: Some(Risk::Spin),
            result: Some(ty),
        });
        Ok(())
    }

    /// Makes each function of [`Gen::recursive`] one unconditional call of itself.
    pub fn patch_recursive(&self, program: &mut Program) {
        for name in &self.recursive {
            let Some(f) = program.functions.iter_mut().find(|f| &f.name == name) else {
                continue;
            };
            let (Some(p), Some(ty)) = (f.body.params.first(), f.result_types.first()) else {
                continue;
            };
            let result = ValueId(p.id.0 + 1);
            f.body.insts = vec![Instruction {
                result,
                ty: ty.clone(),
                op: Op::Call {
                    callee: name.clone(),
                },
                operands: vec![p.id],
            }];
            f.body.results = vec![result];
        }
    }

    /// The parameter and result types of a fusion idiom (float, within the bounds).
    fn idiom_signature(&mut self, name: &str) -> (Vec<TensorType>, Vec<TensorType>) {
        let d = self.rand_dtype(DType::is_float);
        let max = self.cfg.max_dim.clamp(1, 4);
        let mut dim = || self.rng.gen_range(1..=max);
        let (m, k, n) = (dim(), dim(), dim());
        let t = |shape: &[usize]| TensorType::new(d, shape.to_vec());
        match name {
            "linear" => (vec![t(&[m, k]), t(&[k, n]), t(&[n])], vec![t(&[m, n])]),
            "moments" => (vec![t(&[m, k])], vec![t(&[m]), t(&[m])]),
            "transpose_add_mul" => (vec![t(&[m, k]), t(&[k, m])], vec![t(&[k, m])]),
            _ => {
                let x = if self.coin(0.5) { t(&[m, k]) } else { t(&[k]) };
                (vec![x.clone()], vec![x])
            }
        }
    }

    /// In [`GenConfig::clash_percent`](super::GenConfig) of programs: a function named after
    /// one of the rule externs of [`GenConfig::clash_names`](super::GenConfig). For a known
    /// idiom it has the extern's signature and, a third of the time, the idiom as its body
    /// (the rule would make it call itself); otherwise random code.
    pub fn clash_function(&mut self, pb: &mut ProgramBuilder) {
        let cfg = self.cfg;
        if cfg.clash_names.is_empty()
            || cfg.clash_percent == 0
            || !self.coin(f64::from(cfg.clash_percent) / 100.0)
        {
            return;
        }
        let Some(name) = cfg.clash_names.choose(&mut self.rng).cloned() else {
            return;
        };
        let reserved = name == ENTRY || self.callees.iter().any(|c| c.name == name);
        if reserved {
            return;
        }
        let idiom = IDIOMS.iter().copied().find(|i| *i == name);
        let Some(idiom) = idiom else {
            self.function(pb, &name, (cfg.size / 6).max(2), &[]);
            self.clash = Some(Clash {
                name,
                params: Vec::new(),
                idiom: None,
            });
            return;
        };
        let (params, results) = self.idiom_signature(idiom);
        if let Err(e) = self.idiom_function(pb, &name, idiom, &params, &results) {
            self.reject(format!("@{name}: {e}"));
            return;
        }
        self.clash = Some(Clash {
            name,
            params,
            idiom: Some(idiom),
        });
    }

    fn idiom_function(
        &mut self,
        pb: &mut ProgramBuilder,
        name: &str,
        idiom: &str,
        params: &[TensorType],
        results: &[TensorType],
    ) -> Result<()> {
        let mut f = pb.function(name, params)?;
        let args = f.params();
        self.pool = vec![args.clone()];
        let outs = if self.coin(1.0 / 3.0) {
            emit_idiom(&mut f, idiom, &args)?
        } else {
            for _ in 0..(self.cfg.size / 6).max(2) {
                self.step(&mut f);
            }
            let mut outs = Vec::with_capacity(results.len());
            for t in results {
                outs.push(self.want(&mut f, t)?);
            }
            outs
        };
        f.ret(&outs)?;
        self.callees.push(Callee {
            name: name.to_string(),
            params: params.iter().cloned().map(Type::from).collect(),
            is_extern: false,
            risk: None,
            result: None,
        });
        Ok(())
    }

    /// Parameters `@main` gets besides its random ones: the trapping helpers' divisor types
    /// (so that divisors are inputs, zero a third of the time), an `i32` scalar for trip
    /// counts and guards, and the clashing idiom's parameter types.
    pub fn main_inputs(&mut self) -> Vec<TensorType> {
        let mut out: Vec<TensorType> = self
            .callees
            .iter()
            .filter(|c| c.risk == Some(Risk::Trap))
            .filter_map(|c| c.params.first().and_then(Type::as_tensor).cloned())
            .collect();
        let cfg = self.cfg;
        if cfg.guarded_div_weight + cfg.risky_call_weight + cfg.huge_broadcast_weight > 0 {
            out.push(TensorType::scalar(DType::I32));
        }
        if let Some(Clash {
            idiom: Some(_),
            params,
            ..
        }) = &self.clash
        {
            out.extend(params.iter().cloned());
        }
        out
    }

    /// What `@main` starts with: the clashing extern's idiom on its parameters, so that the
    /// rule fires in a program that defines a function of that name.
    pub fn entry_prelude(&mut self, f: &mut FunctionBuilder<'_>, name: &str) {
        if name != ENTRY {
            return;
        }
        let Some(Clash {
            name: callee,
            params,
            idiom: Some(idiom),
        }) = &self.clash
        else {
            return;
        };
        let (callee, idiom) = (callee.clone(), *idiom);
        let n = f.params().len();
        let args: Vec<Val> = f.params()[n - params.len()..].to_vec();
        match emit_idiom(f, idiom, &args) {
            Ok(outs) => {
                for v in outs {
                    self.add(v);
                }
            }
            Err(e) => self.reject(format!("prelude @{callee}: {e}")),
        }
    }

    /// A value of `@main`'s parameters (or, elsewhere, the pool) of exactly type `ty`, else
    /// [`Gen::want`].
    fn input_of(&mut self, f: &mut FunctionBuilder<'_>, ty: &TensorType) -> Result<Val> {
        let params: Vec<Val> = f
            .params()
            .into_iter()
            .filter(|&p| f.tensor_type(p).is_ok_and(|t| t == ty))
            .collect();
        match params.choose(&mut self.rng) {
            Some(&p) if self.coin(0.8) => Ok(p),
            _ => self.want(f, ty),
        }
    }

    /// `cond (x != 0) { 100 / x + 1 } else { 0 }` on an integer `x` (an input most of the
    /// time); sometimes the same again under a second guard.
    pub fn gen_guarded_div(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let ints: Vec<Val> = f
            .params()
            .into_iter()
            .filter(|&p| f.tensor_type(p).is_ok_and(|t| t.dtype.is_int()))
            .collect();
        let x = match ints.choose(&mut self.rng) {
            Some(&p) if self.coin(0.7) => p,
            _ => {
                let ty = self.divisor_type();
                self.want(f, &ty)?
            }
        };
        let ty = ty_of(f, x)?;
        let rem = self.coin(0.2);
        let twice = self.coin(0.4);
        let mut first = None;
        for _ in 0..if twice { 2 } else { 1 } {
            let guard = nonzero_guard(f, x)?;
            let v = f.cond(
                guard,
                |b| {
                    let hundred = splat(b, 100, &ty)?;
                    let op = if rem { BinaryOp::Rem } else { BinaryOp::Div };
                    let q = b.binary(op, hundred, x)?;
                    let one = splat(b, 1, &ty)?;
                    Ok(vec![b.binary(BinaryOp::Add, q, one)?])
                },
                |b| Ok(vec![splat(b, 0, &ty)?]),
            )?;
            let r = first_result(f, v)?;
            self.add(r);
            first.get_or_insert(r);
        }
        first.ok_or_else(|| crate::builder::BuildError::Name("no guarded division".into()))
    }

    /// An `i32` scalar from the inputs when there is one, else from the pool.
    fn input_scalar(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        self.input_of(f, &TensorType::scalar(DType::I32))
    }

    /// A predicate that generated inputs rarely (`never`: never) make true: an `i32` input
    /// above 3 (4 is a possible input) or above 4.
    fn rare_predicate(&mut self, f: &mut FunctionBuilder<'_>, never: bool) -> Result<Val> {
        let n = self.input_scalar(f)?;
        let bound = f.scalar(if never { 4.0 } else { 3.0 }, DType::I32)?;
        f.compare(CmpOp::Gt, n, bound)
    }

    /// A call of a trapping or looping helper where a guard protects it: in a `cond` (guard
    /// derived from the divisor for trapping helpers, a rare predicate for looping ones) or
    /// in a `while` whose trip count is an input clamped to [`INPUT_TRIP_LIMIT`] (zero when
    /// the input is not positive).
    pub fn gen_risky_call(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let cands: Vec<(String, Vec<Type>, Risk, TensorType)> = self
            .callees
            .iter()
            .filter_map(|c| Some((c.name.clone(), c.params.clone(), c.risk?, c.result.clone()?)))
            .collect();
        let Some((name, params, risk, result)) = cands.choose(&mut self.rng).cloned() else {
            return Err(crate::builder::BuildError::Name("no risky callee".into()));
        };
        let mut args = Vec::with_capacity(params.len());
        for (i, p) in params.iter().filter_map(Type::as_tensor).enumerate() {
            args.push(if i == 0 {
                self.input_of(f, p)?
            } else {
                self.want(f, p)?
            });
        }
        let call = |b: &mut FunctionBuilder<'_>| b.call(&name, &args);
        let v = if self.coin(0.5) {
            let guard = match risk {
                Risk::Trap => nonzero_guard(f, args[0])?,
                Risk::Spin => self.rare_predicate(f, false)?,
            };
            let swap = self.coin(0.3);
            let (guard, then_calls) = if swap {
                (f.unary(UnaryOp::Not, guard)?, false)
            } else {
                (guard, true)
            };
            let zero = |b: &mut FunctionBuilder<'_>| -> Result<Vec<Val>> {
                Ok(vec![splat(b, 0, &result)?])
            };
            let called = |b: &mut FunctionBuilder<'_>| -> Result<Vec<Val>> { Ok(vec![call(b)?]) };
            let v = if then_calls {
                f.cond(guard, called, zero)?
            } else {
                f.cond(guard, zero, called)?
            };
            first_result(f, v)?
        } else {
            let n = self.input_scalar(f)?;
            let limit = f.scalar(INPUT_TRIP_LIMIT, DType::I32)?;
            let n = f.binary(BinaryOp::Min, n, limit)?;
            let start = f.scalar(0.0, DType::I32)?;
            let init = splat(f, 0, &result)?;
            let v = f.while_loop(
                &[start, init],
                |c, p| c.compare(CmpOp::Lt, p[0], n),
                |b, p| {
                    let one = b.scalar(1.0, DType::I32)?;
                    let next = b.binary(BinaryOp::Add, p[0], one)?;
                    Ok(vec![next, call(b)?])
                },
            )?;
            f.tuple_get(v, 1)?
        };
        Ok(v)
    }

    /// `cond` whose branch not taken on generated inputs broadcasts a scalar to more than
    /// [`TENSOR_ELEMENT_LIMIT`] elements and reduces it back to a scalar.
    pub fn gen_huge_broadcast(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let d = self.rand_dtype(|_| true);
        let scalar = TensorType::scalar(d);
        let s = self.want(f, &scalar)?;
        let shape: Shape = HUGE_SHAPES
            .choose(&mut self.rng)
            .map_or_else(|| vec![5000, 5000], |s| s.to_vec());
        debug_assert!(num_elements(&shape) > TENSOR_ELEMENT_LIMIT);
        let kind = if d == DType::Bool || self.coin(0.5) {
            ReduceKind::Max
        } else {
            ReduceKind::Sum
        };
        let guard = self.rare_predicate(f, true)?;
        let v = f.cond(
            guard,
            |b| {
                let big = b.broadcast(s, &[], &shape)?;
                let axes: Vec<usize> = (0..shape.len()).collect();
                Ok(vec![b.reduce(kind, big, &axes, false)?])
            },
            |_| Ok(vec![s]),
        )?;
        first_result(f, v)
    }

    /// A fusion idiom on pool values: the clashing function's idiom most of the time, else
    /// any of [`IDIOMS`].
    pub fn gen_idiom(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let clashing = match &self.clash {
            Some(Clash {
                idiom: Some(i),
                params,
                ..
            }) => Some((*i, params.clone())),
            _ => None,
        };
        let (name, params) = match clashing {
            Some(c) if self.coin(0.7) => c,
            _ => {
                let name = *IDIOMS.choose(&mut self.rng).unwrap_or(&"gelu_fused");
                (name, self.idiom_signature(name).0)
            }
        };
        let mut args = Vec::with_capacity(params.len());
        for t in &params {
            args.push(self.want(f, t)?);
        }
        let outs = emit_idiom(f, name, &args)?;
        let (last, rest) = outs
            .split_last()
            .ok_or_else(|| crate::builder::BuildError::Name("an idiom without results".into()))?;
        for &v in rest {
            self.add(v);
        }
        Ok(*last)
    }

    /// Long-chain mode: `@main(%x: f32[8], %n: i32[])`, a straight chain of `n` random
    /// elementwise ops on `%x` (binary ones take `%x` as their other operand), inside a
    /// `cond (n > 0)` half of the time.
    pub fn long_chain(&mut self, pb: &mut ProgramBuilder, len: usize) {
        const UNARY: [UnaryOp; 4] = [UnaryOp::Exp, UnaryOp::Neg, UnaryOp::Tanh, UnaryOp::Abs];
        const BINARY: [BinaryOp; 5] = [
            BinaryOp::Add,
            BinaryOp::Mul,
            BinaryOp::Sub,
            BinaryOp::Max,
            BinaryOp::Min,
        ];
        let ops: Vec<std::result::Result<UnaryOp, BinaryOp>> = (0..len)
            .map(|_| {
                if self.coin(0.6) {
                    Ok(UNARY[self.rng.gen_range(0..UNARY.len())])
                } else {
                    Err(BINARY[self.rng.gen_range(0..BINARY.len())])
                }
            })
            .collect();
        let in_cond = self.coin(0.5);
        let x_ty = TensorType::new(DType::F32, vec![8]);
        let params = [x_ty, TensorType::scalar(DType::I32)];
        let chain = |b: &mut FunctionBuilder<'_>, x: Val| -> Result<Val> {
            let mut v = x;
            for op in &ops {
                v = match *op {
                    Ok(u) => b.unary(u, v)?,
                    Err(o) => b.binary(o, v, x)?,
                };
            }
            Ok(v)
        };
        let built = (|| -> Result<()> {
            let mut f = pb.function(ENTRY, &params)?;
            let (x, n) = (f.param(0)?, f.param(1)?);
            let out = if in_cond {
                let zero = f.scalar(0.0, DType::I32)?;
                let guard = f.compare(CmpOp::Gt, n, zero)?;
                let v = f.cond(guard, |b| Ok(vec![chain(b, x)?]), |_| Ok(vec![x]))?;
                first_result(&mut f, v)?
            } else {
                chain(&mut f, x)?
            };
            f.ret(&[out])
        })();
        if let Err(e) = built {
            self.reject(format!("long chain: {e}"));
        }
    }
}

/// The most terms of a generated long reduction ([`GenConfig::long_reduction_weight`]).
///
/// [`GenConfig::long_reduction_weight`]: super::GenConfig::long_reduction_weight
pub const LONG_REDUCTION_LIMIT: usize = 16;

impl Gen<'_> {
    /// A long reduction written out ([`GenConfig::long_reduction_weight`]): one of `add`,
    /// `mul`, `max`, `min`, `and`, `or` over 6 to [`LONG_REDUCTION_LIMIT`] terms of one type (values of the function,
    /// repeated, and a few splat constants), folded to the left, to the right or as a
    /// balanced tree.
    ///
    /// [`GenConfig::long_reduction_weight`]: super::GenConfig::long_reduction_weight
    pub(super) fn gen_long_reduction(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        const OPS: [BinaryOp; 6] = [
            BinaryOp::Add,
            BinaryOp::Mul,
            BinaryOp::Max,
            BinaryOp::Min,
            BinaryOp::And,
            BinaryOp::Or,
        ];
        let op = *OPS.choose(&mut self.rng).unwrap_or(&BinaryOp::Add);
        let first = self.operand(f, move |d| super::tensor_ops::binary_ok(op, d))?;
        let ty = ty_of(f, first)?;
        let n = self.rng.gen_range(6..=LONG_REDUCTION_LIMIT);
        let mut terms = vec![first];
        while terms.len() < n {
            let term = if self.coin(0.15) {
                splat(f, self.rng.gen_range(-2..=3), &ty)?
            } else {
                self.want(f, &ty)?
            };
            terms.push(term);
        }
        match self.rng.gen_range(0..3) {
            0 => (terms[1..].iter()).try_fold(first, |sum, &t| f.binary(op, sum, t)),
            1 => {
                (terms[..n - 1].iter().rev()).try_fold(terms[n - 1], |sum, &t| f.binary(op, t, sum))
            }
            _ => balanced(f, op, &terms),
        }
    }
}

/// `terms` combined by `op` as a balanced tree.
fn balanced(f: &mut FunctionBuilder<'_>, op: BinaryOp, terms: &[Val]) -> Result<Val> {
    match terms {
        [] => Err(crate::builder::BuildError::Op {
            op: "balanced",
            message: "no terms".into(),
        }),
        [one] => Ok(*one),
        _ => {
            let (left, right) = terms.split_at(terms.len() / 2);
            let (l, r) = (balanced(f, op, left)?, balanced(f, op, right)?);
            f.binary(op, l, r)
        }
    }
}

/// The integer dtypes of generated index arithmetic: every one (JAX's iotas are `i32` or
/// `u32`; narrow ones wrap within a few steps).
const INDEX_DTYPES: [DType; 8] = DType::INTS;

/// The longest chain of `add`/`sub`/`mul` in one generated index expression.
const INDEX_CHAIN_LIMIT: usize = 6;

impl Gen<'_> {
    /// A mask from index arithmetic ([`GenConfig::index_arith_weight`]): two index
    /// expressions over one integer type, compared; the mask selects between two values of
    /// its shape when the pool has one, and is the result otherwise.
    ///
    /// [`GenConfig::index_arith_weight`]: super::GenConfig::index_arith_weight
    pub(super) fn gen_index_arith(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        if self.coin(0.3) {
            if let Some(x) = self.pick(f, |t| t.as_tensor().is_some_and(|t| t.rank() > 0)) {
                return self.dynamic_block(f, x);
            }
        }
        let rank = self.rng.gen_range(1..=2usize.min(self.cfg.max_rank));
        let shape: Shape = (0..rank)
            .map(|_| self.rng.gen_range(1..=self.cfg.max_dim.clamp(1, 8)))
            .collect();
        let dtype = *INDEX_DTYPES.choose(&mut self.rng).unwrap_or(&DType::I32);
        let ty = TensorType::new(dtype, shape.clone());
        let (row, col) = (self.index_expr(f, &ty)?, self.index_expr(f, &ty)?);
        let cmp = *CmpOp::ALL.choose(&mut self.rng).unwrap_or(&CmpOp::Ge);
        let mask = f.compare(cmp, row, col)?;
        let same_shape = |t: &Type| t.as_tensor().is_some_and(|t| t.shape == shape);
        let Some(on_true) = self.pick(f, same_shape) else {
            return Ok(mask);
        };
        let on_false = splat(f, 0, &ty_of(f, on_true)?)?;
        f.select(mask, on_true, on_false)
    }

    /// A block of `x` at scalar indices that may be out of range (StableHLO clamps them):
    /// `dynamic_slice`, and half the time that block written back into `x`
    /// elsewhere by `dynamic_update_slice`.
    fn dynamic_block(&mut self, f: &mut FunctionBuilder<'_>, x: Val) -> Result<Val> {
        let ty = ty_of(f, x)?;
        let dtype = *INDEX_DTYPES.choose(&mut self.rng).unwrap_or(&DType::I32);
        let sizes: Vec<usize> = ty
            .shape
            .iter()
            .map(|&d| self.rng.gen_range(1..=d.max(1)).min(d))
            .collect();
        let indices = |gen: &mut Self, f: &mut FunctionBuilder<'_>| -> Result<Vec<Val>> {
            (ty.shape.iter())
                .map(|&d| {
                    let i = gen.rng.gen_range(-2..=d as i64 + 2);
                    splat(f, i, &TensorType::new(dtype, vec![]))
                })
                .collect()
        };
        let starts = indices(self, f)?;
        let operands: Vec<Val> = std::iter::once(x).chain(starts).collect();
        let block = f.emit(Op::DynamicSlice { sizes }, &operands, None)?;
        if self.coin(0.5) {
            return Ok(block);
        }
        let starts = indices(self, f)?;
        let operands: Vec<Val> = [x, block].into_iter().chain(starts).collect();
        f.emit(Op::DynamicUpdateSlice, &operands, None)
    }

    /// An index expression: an iota along a random dim, then a chain of `add`, `sub` and
    /// `mul` with small splats, other iotas and dense constants, on either side.
    fn index_expr(&mut self, f: &mut FunctionBuilder<'_>, ty: &TensorType) -> Result<Val> {
        let dim = self.rng.gen_range(0..ty.rank().max(1));
        let mut x = f.iota(dim, ty.clone())?;
        for _ in 0..self.rng.gen_range(1..=INDEX_CHAIN_LIMIT) {
            let c = match self.rng.gen_range(0..10) {
                0..=6 => splat(f, self.rng.gen_range(-3..=4), ty)?,
                7 | 8 => {
                    let dim = self.rng.gen_range(0..ty.rank().max(1));
                    f.iota(dim, ty.clone())?
                }
                _ => self.constant(f, ty.clone())?,
            };
            let b = *[BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul]
                .choose(&mut self.rng)
                .unwrap_or(&BinaryOp::Add);
            x = if self.coin(0.5) {
                f.binary(b, x, c)?
            } else {
                f.binary(b, c, x)?
            };
        }
        Ok(x)
    }
}
