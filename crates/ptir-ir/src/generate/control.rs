//! The generator's structure: functions, the step loop that picks an op kind, blocks of
//! regions, and the ops that make them (`cond`, `while`, `scan`), calls and tuples.

use super::state::{ty_of, Callee, Gen, Result};
use crate::builder::{BuildError, FunctionBuilder, ProgramBuilder, Val};
use crate::ops::Op;
use crate::types::{DType, TensorType, Type};
use rand::seq::SliceRandom;
use rand::Rng;
use std::cell::RefCell;

/// The most results a generated function returns.
const RESULT_LIMIT: usize = 4;
/// The largest number of steps in one region.
const REGION_STEP_LIMIT: usize = 6;
/// The largest trip count of a generated `while`.
const WHILE_TRIP_LIMIT: i64 = 3;
/// The largest `length` of a generated `scan`.
const SCAN_LENGTH_LIMIT: usize = 4;

/// What one generation step makes.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Constant,
    Unary,
    Binary,
    Compare,
    Select,
    Cast,
    Reshape,
    Transpose,
    Broadcast,
    Slice,
    Concat,
    Dot,
    Reduce,
    Rng,
    CallHelper,
    CallExtern,
    Tuple,
    TupleGet,
    Cond,
    While,
    Scan,
    GuardedDiv,
    RiskyCall,
    HugeBroadcast,
    Idiom,
    IndexArith,
    Window,
    Indexing,
    LongReduction,
}

/// Step kinds with their weights; `Rng`, calls and region ops are filtered by [`Gen::allows`],
/// and the kinds of [`Gen::extended_kinds`] follow.
const KINDS: [(Kind, u32); 21] = [
    (Kind::Constant, 2),
    (Kind::Unary, 10),
    (Kind::Binary, 12),
    (Kind::Compare, 4),
    (Kind::Select, 3),
    (Kind::Cast, 3),
    (Kind::Reshape, 3),
    (Kind::Transpose, 3),
    (Kind::Broadcast, 4),
    (Kind::Slice, 3),
    (Kind::Concat, 3),
    (Kind::Dot, 4),
    (Kind::Reduce, 5),
    (Kind::Rng, 1),
    (Kind::CallHelper, 2),
    (Kind::CallExtern, 2),
    (Kind::Tuple, 2),
    (Kind::TupleGet, 1),
    (Kind::Cond, 2),
    (Kind::While, 2),
    (Kind::Scan, 2),
];

impl Gen<'_> {
    /// Generates a function of about `size` instructions and adds it to the program; the
    /// functions generated before it become callable.
    /// `extra_params` follow the random parameters.
    pub fn function(
        &mut self,
        pb: &mut ProgramBuilder,
        name: &str,
        size: usize,
        extra_params: &[TensorType],
    ) {
        let mut params: Vec<TensorType> = (0..self.rng.gen_range(1..=3))
            .map(|_| self.rand_type(|_| true))
            .collect();
        params.extend_from_slice(extra_params);
        let mut f = match pb.function(name, &params) {
            Ok(f) => f,
            Err(e) => return self.reject(e.to_string()),
        };
        self.pool = vec![f.params()];
        self.entry_prelude(&mut f, name);
        let mut tries = 0;
        while f.num_insts() < size && tries < 3 * size + 10 {
            self.step(&mut f);
            tries += 1;
        }
        let results = self.function_results(&f);
        match f.ret(&results) {
            Ok(()) => self.callees.push(Callee {
                name: name.to_string(),
                params: params.into_iter().map(Type::from).collect(),
                is_extern: false,
                risk: None,
                result: None,
            }),
            Err(e) => self.reject(e.to_string()),
        }
    }

    /// At most [`RESULT_LIMIT`] results: the newest tensor of the body, then its unused
    /// tensors, newest first, so that most of the function is live.
    fn function_results(&mut self, f: &FunctionBuilder<'_>) -> Vec<Val> {
        let params = f.params();
        let is_tensor = |v: &Val| f.tensor_type(*v).is_ok();
        let newest = self.pool[0].iter().copied().rev().find(is_tensor);
        let mut results: Vec<Val> = newest.into_iter().collect();
        let sinks = f
            .unused_values()
            .into_iter()
            .rev()
            .filter(|v| is_tensor(v) && !params.contains(v));
        for v in sinks {
            if results.len() >= RESULT_LIMIT {
                break;
            }
            if !results.contains(&v) {
                results.push(v);
            }
        }
        results
    }

    /// Counts a refused step (or declaration) and keeps the first message.
    pub fn reject(&mut self, message: String) {
        self.stats.rejected += 1;
        self.stats.first_rejection.get_or_insert(message);
    }

    fn allows(&self, kind: Kind) -> bool {
        let regions = self.cfg.allow_regions && self.depth < self.cfg.max_depth;
        match kind {
            Kind::Rng => self.cfg.allow_impure,
            Kind::CallHelper => self
                .callees
                .iter()
                .any(|c| !c.is_extern && c.risk.is_none()),
            Kind::CallExtern => self.callees.iter().any(|c| c.is_extern),
            Kind::Cond | Kind::While | Kind::Scan => regions,
            Kind::GuardedDiv | Kind::HugeBroadcast => regions,
            Kind::RiskyCall => regions && self.callees.iter().any(|c| c.risk.is_some()),
            _ => true,
        }
    }

    /// The extended step kinds with their configured weights (zero weights left out, so
    /// that the default config draws exactly as before they existed).
    fn extended_kinds(&self) -> Vec<(Kind, u32)> {
        let c = self.cfg;
        [
            (Kind::GuardedDiv, c.guarded_div_weight),
            (Kind::RiskyCall, c.risky_call_weight),
            (Kind::HugeBroadcast, c.huge_broadcast_weight),
            (Kind::Idiom, c.idiom_weight),
            (Kind::IndexArith, c.index_arith_weight),
            (Kind::Window, c.window_weight),
            (Kind::Indexing, c.indexing_weight),
            (Kind::LongReduction, c.long_reduction_weight),
        ]
        .into_iter()
        .filter(|&(_, w)| w > 0)
        .collect()
    }

    /// One step: picks an op kind and emits it (with the operands it needs). A refused op is
    /// counted and skipped; the builder is unchanged by it.
    pub fn step(&mut self, f: &mut FunctionBuilder<'_>) {
        self.stats.steps += 1;
        let kinds: Vec<(Kind, u32)> = KINDS
            .iter()
            .copied()
            .chain(self.extended_kinds())
            .filter(|&(k, _)| self.allows(k))
            .collect();
        let Ok(&(kind, _)) = kinds.choose_weighted(&mut self.rng, |&(_, w)| w) else {
            return;
        };
        match self.emit(f, kind) {
            Ok(v) => {
                self.add(v);
            }
            Err(e) => self.reject(format!("{kind:?}: {e}")),
        }
    }

    fn emit(&mut self, f: &mut FunctionBuilder<'_>, kind: Kind) -> Result<Val> {
        match kind {
            Kind::Constant => self.gen_constant(f),
            Kind::Unary => self.gen_unary(f),
            Kind::Binary => self.gen_binary(f),
            Kind::Compare => self.gen_compare(f),
            Kind::Select => self.gen_select(f),
            Kind::Cast => self.gen_cast(f),
            Kind::Reshape => self.gen_reshape(f),
            Kind::Transpose => self.gen_transpose(f),
            Kind::Broadcast => self.gen_broadcast(f),
            Kind::Slice => self.gen_slice(f),
            Kind::Concat => self.gen_concat(f),
            Kind::Dot => self.gen_dot(f),
            Kind::Reduce => self.gen_reduce(f),
            Kind::Rng => self.gen_rng(f),
            Kind::CallHelper | Kind::CallExtern => self.gen_call(f, kind),
            Kind::Tuple => self.gen_tuple(f),
            Kind::TupleGet => self.gen_tuple_get(f),
            Kind::Cond => self.gen_cond(f),
            Kind::While => self.gen_while(f),
            Kind::Scan => self.gen_scan(f),
            Kind::GuardedDiv => self.gen_guarded_div(f),
            Kind::RiskyCall => self.gen_risky_call(f),
            Kind::HugeBroadcast => self.gen_huge_broadcast(f),
            Kind::Idiom => self.gen_idiom(f),
            Kind::IndexArith => self.gen_index_arith(f),
            Kind::Window => self.gen_window(f),
            Kind::Indexing => self.gen_indexing(f),
            Kind::LongReduction => self.gen_long_reduction(f),
        }
    }

    /// Unpacks some elements of a tuple result into the pool, at least one; returns the
    /// tuple.
    pub(super) fn unpack_some(&mut self, f: &mut FunctionBuilder<'_>, v: Val) -> Result<Val> {
        let n = f.ty(v)?.as_tuple().map_or(0, <[Type]>::len);
        let first = if n > 0 { self.rng.gen_range(0..n) } else { 0 };
        for i in 0..n {
            if i == first || self.coin(0.5) {
                let x = f.tuple_get(v, i)?;
                self.add(x);
            }
        }
        Ok(v)
    }

    /// A call of the helper function or of an extern (impure ones only if allowed).
    fn gen_call(&mut self, f: &mut FunctionBuilder<'_>, kind: Kind) -> Result<Val> {
        let want_extern = matches!(kind, Kind::CallExtern);
        let cands: Vec<(String, Vec<Type>)> = self
            .callees
            .iter()
            .filter(|c| c.is_extern == want_extern && c.risk.is_none())
            .map(|c| (c.name.clone(), c.params.clone()))
            .collect();
        let Some((name, params)) = cands.choose(&mut self.rng).cloned() else {
            return Err(BuildError::Name(format!("no callee for {kind:?}")));
        };
        let mut args = Vec::with_capacity(params.len());
        for p in params.iter().filter_map(Type::as_tensor) {
            args.push(self.want(f, p)?);
        }
        let v = f.call(&name, &args)?;
        self.unpack_some(f, v)
    }

    /// A tuple of one to three values, or a fifth of the time an `optimization_barrier` of
    /// them (which neither engine may see through), and one element of it.
    fn gen_tuple(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let n = self.rng.gen_range(1..=3);
        let mut xs = Vec::with_capacity(n);
        for _ in 0..n {
            xs.push(self.operand(f, |_| true)?);
        }
        let barrier = self.coin(0.2);
        if barrier && n == 1 {
            return f.emit(Op::OptimizationBarrier, &xs, None);
        }
        let t = if barrier {
            f.emit(Op::OptimizationBarrier, &xs, None)?
        } else {
            f.tuple(&xs)?
        };
        let i = self.rng.gen_range(0..n);
        self.add(t);
        f.tuple_get(t, i)
    }

    fn gen_tuple_get(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let Some(t) = self.pick(f, |t| t.as_tuple().is_some_and(|ts| !ts.is_empty())) else {
            return self.gen_tuple(f);
        };
        let n = f.ty(t)?.as_tuple().map_or(1, <[Type]>::len);
        let i = self.rng.gen_range(0..n);
        f.tuple_get(t, i)
    }

    /// Runs up to [`REGION_STEP_LIMIT`] steps in a new pool level holding `params`, then finds
    /// or makes values of the `results` types. The level is dropped even on error.
    pub(super) fn block(
        &mut self,
        f: &mut FunctionBuilder<'_>,
        params: &[Val],
        results: &[TensorType],
    ) -> Result<Vec<Val>> {
        let steps = self.rng.gen_range(1..=REGION_STEP_LIMIT);
        self.pool.push(params.to_vec());
        self.depth += 1;
        for _ in 0..steps {
            self.step(f);
        }
        let out = results
            .iter()
            .map(|t| self.want_local(f, t, params.len()))
            .collect();
        self.depth -= 1;
        self.pool.pop();
        out
    }

    /// A value of type `ty` for a region result: mostly one computed in the region, else an
    /// elementwise op of a region parameter or [`Gen::want`]. `num_params` leading values of
    /// the innermost pool level are the region's parameters.
    fn want_local(
        &mut self,
        f: &mut FunctionBuilder<'_>,
        ty: &TensorType,
        num_params: usize,
    ) -> Result<Val> {
        let level = self.pool.last().cloned().unwrap_or_default();
        let fits = |v: &&Val| f.tensor_type(**v).is_ok_and(|t| t == ty);
        let computed: Vec<Val> = level
            .iter()
            .skip(num_params)
            .filter(fits)
            .copied()
            .collect();
        if let Some(&v) = computed.choose(&mut self.rng) {
            if self.coin(0.8) {
                return Ok(v);
            }
        }
        let params: Vec<Val> = level
            .iter()
            .take(num_params)
            .filter(fits)
            .copied()
            .collect();
        match params.choose(&mut self.rng) {
            Some(&p) if self.coin(0.5) => self.refresh(f, p),
            _ => self.want(f, ty),
        }
    }

    /// A type for a region result: mostly one that some value in the pool has (so that it
    /// can be found or derived), within `max_rank` and `max_elements`.
    pub(super) fn result_type(
        &mut self,
        f: &FunctionBuilder<'_>,
        max_rank: usize,
        max_elements: usize,
    ) -> TensorType {
        let fits = |t: &TensorType| t.rank() <= max_rank && t.num_elements() <= max_elements;
        match self.pick_tensor(f, fits) {
            Some(v) if self.coin(0.7) => {
                ty_of(f, v).unwrap_or_else(|_| TensorType::scalar(DType::F32))
            }
            _ => {
                let shape = self.rand_shape_within(max_rank, max_elements);
                TensorType::new(self.rand_dtype(|_| true), shape)
            }
        }
    }

    fn gen_cond(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let p = self.predicate(f)?;
        let (max_rank, max_elements) = (self.cfg.max_rank, self.cfg.max_elements);
        let types: Vec<TensorType> = (0..self.rng.gen_range(1..=2))
            .map(|_| self.result_type(f, max_rank, max_elements))
            .collect();
        let this = RefCell::new(&mut *self);
        let v = f.cond(
            p,
            |b| this.borrow_mut().block(b, &[], &types),
            |b| this.borrow_mut().block(b, &[], &types),
        )?;
        self.unpack_some(f, v)
    }

    /// A `while` whose first carried value is an `i32` counter going from `start` up to a
    /// constant at most [`WHILE_TRIP_LIMIT`] above it.
    fn gen_while(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let start = self.rng.gen_range(0..=1);
        let bound = start + self.rng.gen_range(0..=WHILE_TRIP_LIMIT);
        let mut inits = vec![f.scalar(start as f64, DType::I32)?];
        for _ in 0..self.rng.gen_range(1..=2) {
            inits.push(self.operand(f, |_| true)?);
        }
        let mut types = Vec::with_capacity(inits.len() - 1);
        for &v in &inits[1..] {
            types.push(ty_of(f, v)?);
        }
        let flip = self.coin(0.5);
        let this = RefCell::new(&mut *self);
        let v = f.while_loop(
            &inits,
            |c, p| {
                let n = c.scalar(bound as f64, DType::I32)?;
                if flip {
                    c.gt(n, p[0])
                } else {
                    c.lt(p[0], n)
                }
            },
            |b, p| {
                let one = b.scalar(1.0, DType::I32)?;
                let next = b.add(p[0], one)?;
                let rest = this.borrow_mut().block(b, p, &types)?;
                Ok(std::iter::once(next).chain(rest).collect())
            },
        )?;
        self.unpack_some(f, v)
    }

    /// A `scan` of length at most [`SCAN_LENGTH_LIMIT`] with 0–2 carries, 0–2 scanned
    /// operands and outputs, at least one result.
    fn gen_scan(&mut self, f: &mut FunctionBuilder<'_>) -> Result<Val> {
        let max_elements = self.cfg.max_elements;
        let length = self.rng.gen_range(1..=SCAN_LENGTH_LIMIT.min(max_elements));
        let (inner_rank, inner_elements) = (self.cfg.max_rank - 1, max_elements / length);
        let mut carries = Vec::new();
        for _ in 0..self.rng.gen_range(0..=2) {
            carries.push(self.operand(f, |_| true)?);
        }
        let mut xs = Vec::new();
        for _ in 0..self.rng.gen_range(0..=2) {
            let mut t = self.result_type(f, inner_rank, inner_elements);
            t.shape.insert(0, length);
            xs.push(self.want(f, &t)?);
        }
        let mut types = Vec::new();
        for &c in &carries {
            types.push(ty_of(f, c)?);
        }
        let min_ys = usize::from(carries.is_empty());
        for _ in 0..self.rng.gen_range(min_ys..=2) {
            types.push(self.result_type(f, inner_rank, inner_elements));
        }
        let this = RefCell::new(&mut *self);
        let v = f.scan(length, &carries, &xs, |b, c, x| {
            let params: Vec<Val> = c.iter().chain(x).copied().collect();
            this.borrow_mut().block(b, &params, &types)
        })?;
        self.unpack_some(f, v)
    }
}
