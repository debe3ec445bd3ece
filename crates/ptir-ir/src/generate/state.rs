//! The generator's state: the random stream, the pool of values an op may take as operands,
//! random types, leaves (constants and `rng`), and [`Gen::want`], which finds or makes a value
//! of a given type.

use super::tensor_ops::{binary_ok, unary_ok};
use super::{GenConfig, GenStats, GEN_IMPURE_EXTERN, GEN_PURE_EXTERN};
use crate::builder::{numpy_broadcast_dims, BuildError, FunctionBuilder, ProgramBuilder, Val};
use crate::ops::{BinaryOp, CmpOp, Op, RngAlgorithm, RngDist, UnaryOp};
use crate::tensor::{Data, Literal, Scalar};
use crate::types::{num_elements, DType, Shape, TensorType, Type};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub(super) type Result<T> = std::result::Result<T, BuildError>;

/// How many of the most recent pool values an operand search looks at.
const POOL_WINDOW: usize = 48;
/// How many older pool values it also probes at random.
const POOL_PROBES: usize = 8;

/// A function or extern the generated code may call.
pub(super) struct Callee {
    pub name: String,
    pub params: Vec<Type>,
    /// An extern rather than a generated function.
    pub is_extern: bool,
    /// Calling it may trap or never return: it is called only under a guard
    /// ([`GenConfig::risky_call_weight`]).
    pub risk: Option<Risk>,
    /// The result type, where the generator needs it (risky helpers).
    pub result: Option<TensorType>,
}

/// How a generated helper misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Risk {
    /// Divides by its first parameter: traps where that has a zero.
    Trap,
    /// Never returns.
    Spin,
}

/// A function named after a rule extern, and the idiom of that extern if the generator knows
/// it.
pub(super) struct Clash {
    pub name: String,
    pub params: Vec<TensorType>,
    pub idiom: Option<&'static str>,
}

/// The generator.
pub(super) struct Gen<'c> {
    pub cfg: &'c GenConfig,
    pub rng: ChaCha8Rng,
    /// Values usable as operands: one level per open block, innermost last.
    pub pool: Vec<Vec<Val>>,
    /// Nesting depth of the block being generated (0 = a function body).
    pub depth: usize,
    /// Callable functions and externs, with their parameter types.
    pub callees: Vec<Callee>,
    pub stats: GenStats,
    /// The function named after a rule extern, if this program has one.
    pub clash: Option<Clash>,
    /// Looping helpers whose body becomes an unconditional call of themselves once the
    /// program is built (the builder cannot call a function before it is finished).
    pub recursive: Vec<String>,
}

/// The tensor type of a value, cloned.
pub(super) fn ty_of(f: &FunctionBuilder<'_>, v: Val) -> Result<TensorType> {
    f.tensor_type(v).cloned()
}

impl<'c> Gen<'c> {
    pub fn new(cfg: &'c GenConfig) -> Self {
        Gen {
            cfg,
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            pool: Vec::new(),
            depth: 0,
            callees: Vec::new(),
            stats: GenStats::default(),
            clash: None,
            recursive: Vec::new(),
        }
    }

    pub fn into_stats(self) -> GenStats {
        self.stats
    }

    pub fn coin(&mut self, p: f64) -> bool {
        self.rng.gen_bool(p.clamp(0.0, 1.0))
    }

    /// Declares [`GEN_PURE_EXTERN`] and, if impure ops are allowed, [`GEN_IMPURE_EXTERN`].
    pub fn declare_externs(&mut self, pb: &mut ProgramBuilder) {
        let t: Type = self.rand_type(|_| true).into();
        let results = vec![t.clone(), t.clone()];
        self.declare_extern(pb, GEN_PURE_EXTERN, vec![t], results, true);
        if self.cfg.allow_impure {
            let t: Type = self.rand_type(|_| true).into();
            let u: Type = self.rand_type(|_| true).into();
            self.declare_extern(pb, GEN_IMPURE_EXTERN, vec![t.clone(), u], vec![t], false);
        }
    }

    fn declare_extern(
        &mut self,
        pb: &mut ProgramBuilder,
        name: &'static str,
        params: Vec<Type>,
        results: Vec<Type>,
        pure: bool,
    ) {
        match pb.declare_extern(name, &params, &results, pure) {
            Ok(()) => self.callees.push(Callee {
                name: name.to_string(),
                params,
                is_extern: true,
                risk: None,
                result: None,
            }),
            Err(e) => self.reject(e.to_string()),
        }
    }

    /// A random dtype from the config satisfying `ok` (from all dtypes if none does). The
    /// narrow and unsigned integer dtypes are drawn one time in four (when another dtype
    /// qualifies), so that floats, where most rules apply, keep most of the programs.
    pub fn rand_dtype(&mut self, ok: impl Fn(DType) -> bool) -> DType {
        let mut ds: Vec<DType> = self.cfg.dtypes.iter().copied().filter(|&d| ok(d)).collect();
        if ds.is_empty() {
            ds = DType::ALL.iter().copied().filter(|&d| ok(d)).collect();
        }
        let rare = |d: &DType| d.is_int() && (d.is_unsigned() || d.bits() < 32);
        if ds.iter().any(|d| !rare(d)) && !self.coin(0.25) {
            ds.retain(|d| !rare(d));
        }
        ds.choose(&mut self.rng).copied().unwrap_or(DType::F32)
    }

    /// A random shape of rank at most `max_rank` with at most `max_elements` elements.
    pub fn rand_shape_within(&mut self, max_rank: usize, max_elements: usize) -> Shape {
        let rank = self.rng.gen_range(0..=max_rank);
        let mut shape: Shape = (0..rank)
            .map(|_| self.rng.gen_range(1..=self.cfg.max_dim))
            .collect();
        while num_elements(&shape) > max_elements.max(1) {
            if let Some(d) = shape.iter_mut().max() {
                *d = (*d / 2).max(1);
            }
        }
        shape
    }

    /// A random type within the config's bounds whose dtype satisfies `ok`.
    pub fn rand_type(&mut self, ok: impl Fn(DType) -> bool) -> TensorType {
        let shape = self.rand_shape_within(self.cfg.max_rank, self.cfg.max_elements);
        TensorType::new(self.rand_dtype(ok), shape)
    }

    /// A random shape with exactly `n` elements (rank at most `max_rank`).
    pub fn shape_with_elements(&mut self, n: usize) -> Shape {
        let rank = self
            .rng
            .gen_range(if n > 1 { 1 } else { 0 }..=self.cfg.max_rank);
        let mut shape = Vec::with_capacity(rank);
        let mut rest = n;
        for _ in 1..rank {
            let divisors: Vec<usize> = (1..=rest)
                .filter(|&d| rest.checked_rem(d) == Some(0))
                .collect();
            let d = divisors.choose(&mut self.rng).copied().unwrap_or(1);
            shape.push(d);
            rest /= d;
        }
        if rank > 0 {
            shape.push(rest);
        }
        shape.shuffle(&mut self.rng);
        shape
    }

    /// A small value of a dtype: multiples of 1/4 in [-2, 2] (exact in every float type),
    /// integers in [-4, 4] (wrapped: -1 of an unsigned dtype is its maximum), either bool.
    pub fn small_value(&mut self, dtype: DType) -> Scalar {
        if dtype.is_float() {
            Scalar::from_f64(dtype, self.rng.gen_range(-8..=8) as f64 / 4.0)
        } else if dtype.is_int() {
            Scalar::Int(crate::tensor::wrap_int(dtype, self.rng.gen_range(-4..=4)))
        } else {
            Scalar::Bool(self.coin(0.5))
        }
    }

    /// Adds a value to the innermost pool level.
    pub fn add(&mut self, v: Val) -> Val {
        if let Some(level) = self.pool.last_mut() {
            level.push(v);
        }
        v
    }

    /// Pool value number `i`, counting through the levels outermost first.
    fn pool_at(&self, mut i: usize) -> Option<Val> {
        for level in &self.pool {
            match level.get(i) {
                Some(&v) => return Some(v),
                None => i -= level.len(),
            }
        }
        None
    }

    /// Picks a pool value whose type satisfies `ok`, preferring recent ones: looks at the
    /// newest [`POOL_WINDOW`] values and [`POOL_PROBES`] older ones at random.
    pub fn pick(&mut self, f: &FunctionBuilder<'_>, ok: impl Fn(&Type) -> bool) -> Option<Val> {
        let total: usize = self.pool.iter().map(Vec::len).sum();
        let recent = total.saturating_sub(POOL_WINDOW);
        let probes = (0..POOL_PROBES.min(recent))
            .map(|_| self.rng.gen_range(0..recent))
            .collect::<Vec<_>>();
        let cands: Vec<Val> = probes
            .into_iter()
            .chain(recent..total)
            .filter_map(|i| self.pool_at(i))
            .filter(|&v| f.ty(v).is_ok_and(&ok))
            .collect();
        if cands.is_empty() {
            return None;
        }
        let n = cands.len();
        let i = if self.coin(0.5) {
            n - 1 - self.rng.gen_range(0..n.min(4))
        } else {
            self.rng.gen_range(0..n)
        };
        Some(cands[i])
    }

    /// Picks a pool tensor whose type satisfies `ok`.
    pub fn pick_tensor(
        &mut self,
        f: &FunctionBuilder<'_>,
        ok: impl Fn(&TensorType) -> bool,
    ) -> Option<Val> {
        self.pick(f, |t| t.as_tensor().is_some_and(&ok))
    }

    /// An operand whose type satisfies `ok`: mostly an existing value, else a new leaf of a
    /// type made by `fallback` (which must satisfy `ok`).
    pub fn operand_where(
        &mut self,
        f: &mut FunctionBuilder<'_>,
        ok: impl Fn(&TensorType) -> bool,
        fallback: impl FnOnce(&mut Self) -> TensorType,
    ) -> Result<Val> {
        match self.pick_tensor(f, ok) {
            Some(v) if self.coin(0.9) => Ok(v),
            _ => {
                let ty = fallback(self);
                self.leaf(f, ty)
            }
        }
    }

    /// An operand whose dtype satisfies `ok`.
    pub fn operand(
        &mut self,
        f: &mut FunctionBuilder<'_>,
        ok: impl Fn(DType) -> bool + Copy,
    ) -> Result<Val> {
        self.operand_where(f, |t| ok(t.dtype), |g| g.rand_type(ok))
    }

    /// A new leaf of type `ty`: a constant (dense or splat), sometimes an `rng` or the bits of
    /// an `rng_bit_generator` of a constant state.
    pub fn leaf(&mut self, f: &mut FunctionBuilder<'_>, ty: TensorType) -> Result<Val> {
        let bits = ty.dtype.is_int() || ty.dtype == DType::F32;
        if self.cfg.allow_impure && bits && self.coin(0.02) {
            let algorithm = *RngAlgorithm::ALL
                .choose(&mut self.rng)
                .unwrap_or(&RngAlgorithm::Default);
            let state_ty = TensorType::new(DType::U64, vec![2 + usize::from(self.coin(0.3))]);
            let state = self.constant(f, state_ty.clone())?;
            let pair = Type::Tuple(vec![state_ty.into(), ty.into()]);
            let both = f.emit(Op::RngBitGenerator { algorithm }, &[state], Some(pair))?;
            let v = f.tuple_get(both, 1)?;
            return Ok(self.add(v));
        }
        if self.cfg.allow_impure && self.coin(0.06) {
            let dist = if ty.dtype.is_float() && self.coin(0.5) {
                RngDist::Normal
            } else {
                RngDist::Uniform
            };
            let v = f.rng(dist, ty)?;
            return Ok(self.add(v));
        }
        self.constant(f, ty)
    }

    /// A new constant of type `ty` with small values, splat or dense.
    pub fn constant(&mut self, f: &mut FunctionBuilder<'_>, ty: TensorType) -> Result<Val> {
        let lit = if self.coin(0.4) {
            Literal::Splat(self.small_value(ty.dtype))
        } else {
            let xs: Vec<Scalar> = (0..ty.num_elements())
                .map(|_| self.small_value(ty.dtype))
                .collect();
            Literal::Dense(Data::from_scalars(ty.dtype, xs))
        };
        let v = f.constant(lit, ty)?;
        Ok(self.add(v))
    }

    /// A value of exactly type `ty`: an existing one, an elementwise op of an existing one,
    /// one derived from an existing value of another type (`cast`, `reshape`, `broadcast`, a
    /// comparison for `bool`), or, failing those or by chance, a new leaf.
    pub fn want(&mut self, f: &mut FunctionBuilder<'_>, ty: &TensorType) -> Result<Val> {
        if let Some(v) = self.pick_tensor(f, |t| t == ty) {
            if self.coin(0.6) {
                return Ok(v);
            }
            if self.coin(0.5) {
                let w = self.refresh(f, v)?;
                return Ok(self.add(w));
            }
        }
        if self.coin(0.85) {
            let mut ways = [0, 1, 2];
            ways.shuffle(&mut self.rng);
            for way in ways {
                if let Some(v) = self.derive(f, ty, way)? {
                    return Ok(self.add(v));
                }
            }
        }
        self.leaf(f, ty.clone())
    }

    /// A new value of `v`'s type computed from `v` by an elementwise op (with another value
    /// of that type for binary ops).
    pub fn refresh(&mut self, f: &mut FunctionBuilder<'_>, v: Val) -> Result<Val> {
        let ty = ty_of(f, v)?;
        let d = ty.dtype;
        if self.coin(0.5) {
            let ops: Vec<UnaryOp> = UnaryOp::ALL
                .iter()
                .copied()
                .filter(|&u| unary_ok(u, d))
                .collect();
            if let Some(&u) = ops.choose(&mut self.rng) {
                return f.unary(u, v);
            }
        }
        let safe = |b: BinaryOp| {
            binary_ok(b, d) && !(d.is_int() && matches!(b, BinaryOp::Div | BinaryOp::Rem))
        };
        let ops: Vec<BinaryOp> = BinaryOp::ALL.iter().copied().filter(|&b| safe(b)).collect();
        let other = self.pick_tensor(f, |t| *t == ty).unwrap_or(v);
        match ops.choose(&mut self.rng) {
            Some(&b) => f.binary(b, v, other),
            None => Ok(v),
        }
    }

    /// Tries one way of deriving a value of type `ty` from the pool: 0 `cast` (or a
    /// comparison, for `bool`), 1 `reshape`, 2 `broadcast`.
    fn derive(
        &mut self,
        f: &mut FunctionBuilder<'_>,
        ty: &TensorType,
        way: u8,
    ) -> Result<Option<Val>> {
        let n = ty.num_elements();
        match way {
            0 => match self.pick_tensor(f, |t| t.shape == ty.shape && t.dtype != ty.dtype) {
                Some(x) if ty.dtype == DType::Bool && self.coin(0.6) => {
                    self.compare_with(f, x).map(Some)
                }
                Some(x) => f.cast(x, ty.dtype).map(Some),
                None => Ok(None),
            },
            1 => match self.pick_tensor(f, |t| {
                t.dtype == ty.dtype && t.num_elements() == n && t.shape != ty.shape
            }) {
                Some(x) => f.reshape(x, &ty.shape).map(Some),
                None => Ok(None),
            },
            _ => match self.pick_tensor(f, |t| {
                t.dtype == ty.dtype
                    && t.shape != ty.shape
                    && numpy_broadcast_dims(&t.shape, &ty.shape).is_some()
            }) {
                Some(x) => f.broadcast_to(x, &ty.shape).map(Some),
                None => Ok(None),
            },
        }
    }

    /// `x <cmp> y` for a random comparison and a `y` of `x`'s type.
    pub fn compare_with(&mut self, f: &mut FunctionBuilder<'_>, x: Val) -> Result<Val> {
        let ty = ty_of(f, x)?;
        let y = self.want(f, &ty)?;
        let c = CmpOp::ALL
            .choose(&mut self.rng)
            .copied()
            .unwrap_or(CmpOp::Lt);
        f.compare(c, x, y)
    }
}
