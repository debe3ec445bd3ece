//! The syntax tree of a StableHLO module to a PTIR [`Program`].
//!
//! Each StableHLO op becomes one PTIR instruction where PTIR has the op, or a few where it
//! does not, always computing the same values:
//!
//! | StableHLO | PTIR |
//! | --- | --- |
//! | `iota` | `iota` (kept as an op: never a stored constant) |
//! | `dynamic_slice`, `dynamic_update_slice` | the same ops (start indices clamped) |
//! | `reduce_precision` (pretty `format = e5m10` or generic) | `reduce_precision` |
//! | `is_finite` | `lt(abs x, inf)` (exact) |
//! | `clamp` | `min(max(x, lo), hi)` (StableHLO's definition) |
//! | `reduce` with `add` / `maximum` / `multiply` | `reduce_sum` / `reduce_max` / `reduce_prod`, then the init folded in with `add` / `max` / `mul` unless it is the identity |
//! | `reduce` with `minimum` | `neg(reduce_max(neg x))` (floats), `not(reduce_max(not x))` (integers: `not` reverses the order) |
//! | `reduce` with `and` / `or` (bool) | `not(reduce_max(not x))` / `reduce_max` |
//! | `gather` (any dimension numbers: `jnp.take`, `take_along_axis`'s batching dims, wide slices) | `gather` (start indices clamped) |
//! | `scatter` with an `add` / `multiply` / `maximum` / `minimum` update region, or one returning the update | `scatter_add` (`_mul`, `_max`, `_min`, `_set`) |
//! | `select` with a scalar predicate | `broadcast` of the predicate, then `select` |
//! | `convolution` (pretty `dim_numbers = ..., window = {...}` or generic) | `convolution` (a wider or narrower result dtype as for `dot_general`) |
//! | `reduce_window` with `add` / `maximum` (`or` for bool) / `multiply` | `reduce_window_sum` / `reduce_window_max` / `reduce_window_prod` of the operand and its init |
//! | `reduce_window` with `minimum` / `and` | the flips of `reduce` around `reduce_window_max`, the init flipped too |
//! | `select_and_scatter` with a `GE`/`GT`/`LE`/`LT` compare selecting and an `add` scattering | `select_and_scatter_ge` (`_gt`, `_le`, `_lt`) of the operand, source and init |
//! | `pad`, `reverse` | the same ops |
//! | `reduce` of two operands with JAX's `argmax`/`argmin` body (pretty `reducer(...) (...) {...}` or generic) | `reduce_argmax` / `reduce_argmin` (a tuple), then `tuple_get` per result |
//! | `sort` comparing its leading operands by `LT`/`GT`, lexicographically (`TOTALORDER`, JAX's canonicalized keys, or integers) | `sort` (`keys`, `descending`, `stable`, `total_order`), several operands a tuple |
//! | `chlo.top_k` | `top_k` (a tuple of values and `i32` indices) |
//! | `dot_general` with a wider result dtype | `dot_general` accumulating in it (`result_dtype`) |
//! | `dot_general` with a narrower result dtype | `dot_general`, then `cast` |
//! | `sdy.sharding_constraint` (and the module's `sdy.mesh`, which JAX writes around typed PRNG keys) | its operand: one device has no sharding to constrain |
//! | `optimization_barrier` (`jax.checkpoint`) | `optimization_barrier` (a tuple if several), which nothing folds or rewrites through |
//! | calls with several results | `call` (a tuple), then `tuple_get` per result |
//! | `custom_call @f` | `call @f` of an impure extern declared with the call's signature (`@f.1`, ... for another signature or other attributes); the op's text is kept in [`SourceInfo::opaque`], so it prints back with every attribute |
//! | anything else, with [`ImportOptions::allow_opaque`] | `call @opaque.<op>.<k>` of an impure extern; the op's text is kept in [`SourceInfo::opaque`] |
//!
//! Without `allow_opaque`, an op we do not support is a located error naming it. The names
//! the text gives values are recorded in [`SourceInfo::functions`] (a constant's name goes to
//! its first materialized copy).
//! Every instruction is type-checked as it is built ([`ptir_ir::infer_type`]) against the type
//! the MLIR text declares, so a mismatch is reported at the op's line and column.

pub(crate) mod indexing;
mod order_regions;
mod window_attrs;

use crate::ast::{find_attr, Attr, Block, Dense, Elem, Func, Module, OpSyntax};
use crate::error::{MlirError, Pos, Result};
use crate::export::{binary_name, chlo_binary, chlo_unary, unary_name};
use crate::parse::mlir_elem;
use crate::source::{FunctionNames, ImportOptions, OpaqueOp, SourceInfo};
use indexmap::IndexMap;
use ptir_ir::{
    infer_type, int_from_i128, num_elements, parse_float, round_float, wrap_int, BinaryOp, CmpOp,
    ConvDims, DType, DTypeKind, Data, DotDims, ExternDecl, Function, InferContext, Instruction,
    Literal, Op, PadDims, Param, Precision, Program, ReduceKind, Region, RngAlgorithm, Scalar,
    SelectKind, Signature, TensorType, Type, UnaryOp, ValueId,
};
use std::collections::HashMap;

/// Converts a parsed module (of the text `src`) to a PTIR program.
pub(crate) fn lower_module(
    module: &Module,
    src: &str,
    options: &ImportOptions,
) -> Result<(Program, SourceInfo)> {
    let mut sigs: IndexMap<String, Signature> = IndexMap::new();
    for f in &module.funcs {
        let sig = Signature {
            params: f.params.iter().map(|(_, t, _)| t.clone().into()).collect(),
            results: f.results.iter().map(|t| t.clone().into()).collect(),
        };
        if sigs.insert(f.name.clone(), sig).is_some() {
            return Err(f
                .pos
                .invalid(format!("@{} is defined more than once", f.name)));
        }
    }
    let mut program = Program::default();
    let mut syms = Symbols {
        funcs: sigs,
        custom_calls: IndexMap::new(),
        custom_call_externs: HashMap::new(),
        src,
        options: *options,
        info: SourceInfo::default(),
    };
    for f in &module.funcs {
        match &f.body {
            Some(body) => {
                let mut lower = FnLower::new(&mut syms);
                let function = lower.function(f, body)?;
                let names = std::mem::take(&mut lower.record);
                syms.info.functions.insert(f.name.clone(), names);
                if f.private {
                    syms.info.private.insert(f.name.clone());
                }
                program.functions.push(function);
            }
            None => program.externs.push(ExternDecl {
                name: f.name.clone(),
                signature: syms.funcs.get(&f.name).cloned(),
                pure: false,
            }),
        }
    }
    for (name, sig) in syms.custom_calls {
        program.externs.push(ExternDecl {
            name,
            signature: Some(sig),
            pure: false,
        });
    }
    Ok((program, syms.info))
}

/// The callable symbols: functions (defined or declared), and `custom_call` targets and
/// opaque ops, which become impure externs; with the text and what is learnt about it.
struct Symbols<'s> {
    funcs: IndexMap<String, Signature>,
    custom_calls: IndexMap<String, Signature>,
    /// The extern standing for each distinct `custom_call`: by its target, signature and
    /// attributes (in either form, the call target's name left out).
    custom_call_externs: HashMap<(String, Signature, String), String>,
    src: &'s str,
    options: ImportOptions,
    info: SourceInfo,
}

impl Symbols<'_> {
    fn signature(&self, name: &str) -> Option<&Signature> {
        self.funcs.get(name).or_else(|| self.custom_calls.get(name))
    }
}

/// One function being lowered.
struct FnLower<'a, 's> {
    syms: &'a mut Symbols<'s>,
    /// The names given to this function's values, and every name it binds.
    record: FunctionNames,
    /// The name of each constant (by constant id), given to its first materialized copy.
    const_names: HashMap<u32, String>,
    /// MLIR value name to PTIR value and type.
    names: HashMap<String, Bound>,
    /// Names bound by the regions being lowered (unbound when their region ends).
    undo: Vec<String>,
    /// Where each constant was materialized: `(region, value)` per constant id.
    materialized: HashMap<u32, Vec<(u32, ValueId)>>,
    /// The regions being lowered, outermost (the function body, 0) first.
    regions: Vec<u32>,
    next_region: u32,
    next_const: u32,
    next: u32,
}

/// What an MLIR name stands for.
///
/// Constants are materialized where they are first used (in the region of the use, again in
/// a region that cannot see an earlier copy), so constants only `reduce` inits used are not
/// emitted at all, and export followed by import gives back the same program.
#[derive(Clone, Debug)]
enum Bound {
    Value(ValueId, TensorType),
    Const(u32, Literal, TensorType),
}

/// Where lowered instructions go.
type Insts = Vec<Instruction>;

impl<'a, 's> FnLower<'a, 's> {
    fn new(syms: &'a mut Symbols<'s>) -> Self {
        FnLower {
            syms,
            record: FunctionNames::default(),
            const_names: HashMap::new(),
            names: HashMap::new(),
            undo: Vec::new(),
            materialized: HashMap::new(),
            regions: vec![0],
            next_region: 1,
            next_const: 0,
            next: 0,
        }
    }

    fn fresh(&mut self) -> ValueId {
        let v = ValueId(self.next);
        self.next += 1;
        v
    }

    fn bind(&mut self, name: &str, v: ValueId, t: TensorType, pos: Pos) -> Result<()> {
        self.bind_as(name, Bound::Value(v, t), pos)
    }

    /// Binds `name`. Names a region binds are unbound when it ends, so any name already
    /// bound is visible here: defining it again is an error (SSA).
    fn bind_as(&mut self, name: &str, b: Bound, pos: Pos) -> Result<()> {
        if self.names.contains_key(name) {
            return Err(pos.invalid(format!("{name} is defined more than once")));
        }
        self.reserve(name);
        // The parts of a several-result op (`%5#1`) print as the parts of one name.
        if let (Bound::Value(v, _), false) = (&b, name.contains('#')) {
            self.record
                .names
                .entry(*v)
                .or_insert_with(|| name.to_string());
        }
        self.names.insert(name.to_string(), b);
        if self.regions.len() > 1 {
            self.undo.push(name.to_string());
        }
        Ok(())
    }

    /// Marks `name` (and the base `%5` of `%5#1`) as taken in this function.
    fn reserve(&mut self, name: &str) {
        let base = name.split('#').next().unwrap_or(name);
        self.record.reserved.insert(base.to_string());
    }

    fn function(&mut self, f: &Func, body: &Block) -> Result<Function> {
        let mut params = Vec::new();
        for (name, t, pos) in &f.params {
            let v = self.fresh();
            self.bind(name, v, t.clone(), *pos)?;
            params.push(Param {
                id: v,
                ty: t.clone().into(),
            });
        }
        let (insts, results) = self.block(body, f.pos)?;
        let result_types: Vec<Type> = f.results.iter().map(|t| t.clone().into()).collect();
        let returned: Vec<&TensorType> = results.iter().map(|(_, t)| t).collect();
        if returned.len() != f.results.len()
            || returned.iter().zip(&f.results).any(|(a, b)| *a != b)
        {
            let list = |ts: Vec<String>| ts.join(", ");
            return Err(f.pos.invalid(format!(
                "@{} returns ({}) but declares ({})",
                f.name,
                list(returned.iter().map(|t| t.to_string()).collect()),
                list(f.results.iter().map(|t| t.to_string()).collect()),
            )));
        }
        Ok(Function {
            name: f.name.clone(),
            result_types,
            body: Region {
                params,
                insts,
                results: results.into_iter().map(|(v, _)| v).collect(),
            },
        })
    }

    /// Lowers the ops of a block; returns its instructions and the terminator's operands.
    fn block(&mut self, block: &Block, pos: Pos) -> Result<(Insts, Vec<(ValueId, TensorType)>)> {
        let mut out = Vec::new();
        for (k, op) in block.ops.iter().enumerate() {
            if let Some(results) = self.op(op, &mut out)? {
                if let Some(after) = block.ops.get(k + 1) {
                    return Err(after
                        .pos
                        .invalid(format!("`{}` after the block's terminator", after.name)));
                }
                return Ok((out, results));
            }
        }
        Err(pos.invalid("block without a terminator (`return`)"))
    }

    /// Lowers a region with arguments bound to fresh parameters; names it binds are unbound
    /// after it.
    /// `implicit` names the arguments of a block written without them (pretty `while`).
    fn region(
        &mut self,
        block: &Block,
        pos: Pos,
        implicit: &[(String, TensorType)],
    ) -> Result<(Region, Vec<Type>)> {
        let mark = self.undo.len();
        self.regions.push(self.next_region);
        self.next_region += 1;
        let mut params = Vec::new();
        let args: Vec<(String, TensorType, Pos)> = if block.args.is_empty() {
            implicit
                .iter()
                .map(|(n, t)| (n.clone(), t.clone(), pos))
                .collect()
        } else {
            block.args.clone()
        };
        for (name, t, ppos) in &args {
            let v = self.fresh();
            self.bind(name, v, t.clone(), *ppos)?;
            params.push(Param {
                id: v,
                ty: t.clone().into(),
            });
        }
        let result = self.block(block, pos);
        self.regions.pop();
        for name in self.undo.drain(mark..) {
            self.names.remove(&name);
        }
        let (insts, results) = result?;
        let types = results.iter().map(|(_, t)| t.clone().into()).collect();
        Ok((
            Region {
                params,
                insts,
                results: results.into_iter().map(|(v, _)| v).collect(),
            },
            types,
        ))
    }

    fn bound(&self, op: &OpSyntax, i: usize) -> Result<Bound> {
        let (name, pos) = op.operands.get(i).ok_or_else(|| {
            op.pos
                .invalid(format!("`{}` needs operand {}", op.name, i + 1))
        })?;
        self.names
            .get(name)
            .cloned()
            .ok_or_else(|| pos.invalid(format!("use of undefined value {name}")))
    }

    /// The scalar operand `i` is bound to, if it is a splat constant.
    fn constant_operand(&self, op: &OpSyntax, i: usize) -> Option<Scalar> {
        match self.bound(op, i) {
            Ok(Bound::Const(_, lit, _)) => lit.splat_value(),
            _ => None,
        }
    }

    /// Operand `i`, its constant materialized into `out` if no copy is visible here. The type
    /// a functional type `(...) -> ...` declares for it, or a return's `: T, ...`, must be the
    /// value's own.
    fn operand(
        &mut self,
        out: &mut Insts,
        op: &OpSyntax,
        i: usize,
    ) -> Result<(ValueId, TensorType)> {
        let (v, t) = self.operand_unchecked(out, op, i)?;
        let declares_operands = op.functional_type || is_return(&op.name);
        if let (true, Some(declared)) = (declares_operands, op.operand_types.get(i)) {
            if *declared != t {
                let (name, pos) = &op.operands[i];
                return Err(pos.invalid(format!(
                    "operand {} of `{}` is declared `{}`, but {name} is `{}`",
                    i + 1,
                    op.name,
                    crate::export::mlir_type(declared),
                    crate::export::mlir_type(&t)
                )));
            }
        }
        Ok((v, t))
    }

    fn operand_unchecked(
        &mut self,
        out: &mut Insts,
        op: &OpSyntax,
        i: usize,
    ) -> Result<(ValueId, TensorType)> {
        match self.bound(op, i)? {
            Bound::Value(v, t) => Ok((v, t)),
            Bound::Const(id, lit, t) => {
                let copies = self.materialized.get(&id).map(Vec::as_slice).unwrap_or(&[]);
                if let Some(&(_, v)) = copies.iter().find(|(r, _)| self.regions.contains(r)) {
                    return Ok((v, t));
                }
                let first_copy = copies.is_empty();
                let v = self.fresh();
                out.push(Instruction {
                    result: v,
                    ty: t.clone().into(),
                    op: Op::Constant(lit),
                    operands: vec![],
                });
                if first_copy {
                    if let Some(name) = self.const_names.get(&id) {
                        self.record.names.insert(v, name.clone());
                    }
                }
                let region = self.regions.last().copied().unwrap_or(0);
                self.materialized.entry(id).or_default().push((region, v));
                Ok((v, t))
            }
        }
    }

    fn operands(&mut self, out: &mut Insts, op: &OpSyntax) -> Result<Vec<(ValueId, TensorType)>> {
        (0..op.operands.len())
            .map(|i| self.operand(out, op, i))
            .collect()
    }

    /// The declared type of result `i`: from `(...) -> types`, or the single type of a short
    /// form (`: tensor<4xf32>`, `select`'s `: pred, value`).
    fn result_type(&self, op: &OpSyntax) -> Result<TensorType> {
        declared_type(op)
    }

    /// Emits `op(operands)` with annotated type `ty` after checking it.
    fn emit(
        &mut self,
        out: &mut Insts,
        pos: Pos,
        op: Op,
        operands: &[(ValueId, TensorType)],
        ty: Type,
        region_results: &[Vec<Type>],
    ) -> Result<ValueId> {
        let operand_types: Vec<Type> = operands.iter().map(|(_, t)| t.clone().into()).collect();
        let refs: Vec<&Type> = operand_types.iter().collect();
        let callee = match &op {
            Op::Call { callee } => self.syms.signature(callee).cloned(),
            _ => None,
        };
        let cx = InferContext {
            annotated: Some(&ty),
            callee: callee.as_ref(),
            region_results,
        };
        let inferred = infer_type(&op, &refs, &cx)
            .map_err(|e| pos.invalid(format!("`{}`: {e}", op.name())))?;
        if inferred != ty {
            return Err(pos.invalid(format!(
                "`{}` computes {inferred}, but the text declares {ty}",
                op.name()
            )));
        }
        let v = self.fresh();
        out.push(Instruction {
            result: v,
            ty,
            op,
            operands: operands.iter().map(|(v, _)| *v).collect(),
        });
        Ok(v)
    }

    /// Emits a tensor-typed instruction.
    fn emit_t(
        &mut self,
        out: &mut Insts,
        pos: Pos,
        op: Op,
        operands: &[(ValueId, TensorType)],
        ty: &TensorType,
    ) -> Result<(ValueId, TensorType)> {
        let v = self.emit(out, pos, op, operands, ty.clone().into(), &[])?;
        Ok((v, ty.clone()))
    }

    /// Lowers one op; `Some(values)` if it is a terminator.
    fn op(&mut self, op: &OpSyntax, out: &mut Insts) -> Result<Option<Vec<(ValueId, TensorType)>>> {
        let name = op.name.as_str();
        let short = stablehlo_short(name).unwrap_or(name);
        let pos = op.pos;
        if is_return(name) {
            return self.operands(out, op).map(Some);
        }
        if let Some((lit, ty)) = constant_of(op, short)? {
            let [name] = op.results.as_slice() else {
                return Err(pos.invalid(format!("`{name}` has one result")));
            };
            let id = self.next_const;
            self.next_const += 1;
            self.bind_as(name, Bound::Const(id, lit, ty), pos)?;
            self.const_names.insert(id, name.clone());
            return Ok(None);
        }
        let results = if self.syms.options.allow_opaque {
            // Lowered aside, so that an op we turn out not to support leaves nothing behind.
            let mut insts = Vec::new();
            let first = self.next;
            match self.known(op, short, &mut insts) {
                Ok(results) => {
                    out.extend(insts);
                    results
                }
                Err(e @ MlirError::Unsupported { .. }) => {
                    for copies in self.materialized.values_mut() {
                        copies.retain(|(_, v)| v.0 < first);
                    }
                    match self.opaque(op, out) {
                        Ok(results) => results,
                        // Not even opaque (no result types): the first reason is the clearer.
                        Err(MlirError::Invalid { .. }) => return Err(e),
                        Err(other) => return Err(other),
                    }
                }
                Err(e) => return Err(e),
            }
        } else {
            self.known(op, short, out)?
        };
        if results.len() != op.results.len() {
            return Err(pos.invalid(format!(
                "`{name}` has {} results but binds {} names",
                results.len(),
                op.results.len()
            )));
        }
        for (name, (v, t)) in op.results.iter().zip(results) {
            self.bind(name, v, t, pos)?;
        }
        Ok(None)
    }

    /// Lowers an op PTIR has a meaning for; an `Unsupported` error otherwise.
    fn known(
        &mut self,
        op: &OpSyntax,
        short: &str,
        out: &mut Insts,
    ) -> Result<Vec<(ValueId, TensorType)>> {
        Ok(match short {
            "call" | "func.call" => self.call(op, out)?,
            "custom_call" => self.custom_call(op, out)?,
            "while" => self.while_op(op, out)?,
            "if" => self.if_op(op, out)?,
            "case" => self.case_op(op, out)?,
            _ => match op.name.as_str() {
                "stablehlo.reduce" if op.operands.len() >= 4 => {
                    let n = op.operands.len() / 2;
                    match (op.regions.first())
                        .and_then(|r| order_regions::independent_reducers(r, n))
                    {
                        Some(bodies) if op.operands.len().is_multiple_of(2) => {
                            self.independent_reduce(op, &bodies, out)?
                        }
                        _ => self.arg_reduce(op, out)?,
                    }
                }
                "stablehlo.sort" => self.sort(op, out)?,
                "chlo.top_k" => self.top_k(op, out)?,
                "stablehlo.rng_bit_generator" => self.rng_bit_generator(op, out)?,
                "sdy.sharding_constraint" => vec![self.sharding_constraint(op, out)?],
                "stablehlo.optimization_barrier" => self.optimization_barrier(op, out)?,
                _ => vec![self.single(op, short, out)?],
            },
        })
    }

    /// An op kept as it is (`--allow-opaque`): a call of a fresh impure extern with the op's
    /// types, its text kept to be printed back. Its regions, kept as text, must not use values
    /// from outside them (the program would not see those uses).
    fn opaque(&mut self, op: &OpSyntax, out: &mut Insts) -> Result<Vec<(ValueId, TensorType)>> {
        let pos = op.pos;
        let result_types = if op.functional_type {
            op.result_types.clone()
        } else {
            vec![self.result_type(op)?]
        };
        self.reserve_closed_regions(op)?;
        let args = self.operands(out, op)?;
        let sig = Signature {
            params: args.iter().map(|(_, t)| t.clone().into()).collect(),
            results: result_types.iter().map(|t| t.clone().into()).collect(),
        };
        let base = format!("opaque.{}", op.name.trim_matches('"'));
        let mut k = 0;
        let callee = loop {
            let name = format!("{base}.{k}");
            if self.syms.signature(&name).is_none() {
                break name;
            }
            k += 1;
        };
        let kept = self.op_text(op)?;
        self.syms.info.opaque.insert(callee.clone(), kept);
        self.syms.custom_calls.insert(callee.clone(), sig.clone());
        let ty = Type::pack(sig.results);
        let v = self.emit(out, pos, Op::Call { callee }, &args, ty, &[])?;
        Ok(self.unpack(out, v, &result_types))
    }

    /// Checks that the regions of an opaque op use only values they define, and reserves the
    /// names they define. Walks with an explicit stack.
    fn reserve_closed_regions(&mut self, op: &OpSyntax) -> Result<()> {
        let mut defined: Vec<&str> = Vec::new();
        let mut uses: Vec<&(String, Pos)> = Vec::new();
        let mut stack: Vec<&Block> = op.regions.iter().collect();
        while let Some(block) = stack.pop() {
            defined.extend(block.args.iter().map(|(n, _, _)| n.as_str()));
            for inner in &block.ops {
                defined.extend(inner.results.iter().map(String::as_str));
                uses.extend(&inner.operands);
                stack.extend(&inner.regions);
            }
        }
        let defined: std::collections::HashSet<&str> = defined.into_iter().collect();
        if let Some((name, pos)) = uses.iter().find(|(n, _)| !defined.contains(n.as_str())) {
            return Err(pos.unsupported(format!(
                "use of {name} from outside the regions of opaque op '{}'",
                op.name
            )));
        }
        for name in defined {
            self.reserve(name);
        }
        Ok(())
    }

    fn call(&mut self, op: &OpSyntax, out: &mut Insts) -> Result<Vec<(ValueId, TensorType)>> {
        let pos = op.pos;
        let callee = match (&op.callee, op.attr("callee")) {
            (Some(c), _) => c.clone(),
            (None, Some(Attr::Symbol(c))) => c.clone(),
            _ => return Err(pos.syntax("expected `@callee`")),
        };
        let sig = self
            .syms
            .funcs
            .get(&callee)
            .cloned()
            .ok_or_else(|| pos.invalid(format!("call of undefined function @{callee}")))?;
        let args = self.operands(out, op)?;
        let ty = Type::pack(sig.results.clone());
        let v = self.emit(out, pos, Op::Call { callee }, &args, ty, &[])?;
        let result_types: Vec<TensorType> = sig
            .results
            .iter()
            .filter_map(|t| t.as_tensor().cloned())
            .collect();
        Ok(self.unpack(out, v, &result_types))
    }

    /// `stablehlo.custom_call @target(args)`: a call of an impure extern that prints back as
    /// this op's text, every attribute verbatim (`backend_config`, `api_version`, layouts,
    /// `has_side_effect`, ...). Calls of one target with one signature and the same attributes
    /// share the extern `@target`; another signature or other attributes (two Cholesky calls
    /// of different sizes, or of the other triangle) get `@target.1`, `@target.2`, ...
    fn custom_call(
        &mut self,
        op: &OpSyntax,
        out: &mut Insts,
    ) -> Result<Vec<(ValueId, TensorType)>> {
        let pos = op.pos;
        let target = match (&op.callee, op.attr("call_target_name")) {
            (Some(c), _) => c.clone(),
            (None, Some(Attr::Str(c))) => c.clone(),
            _ => return Err(pos.syntax("expected the target of `stablehlo.custom_call`")),
        };
        if self.syms.funcs.contains_key(&target) {
            return Err(pos.invalid(format!("custom_call target @{target} is also a function")));
        }
        if !op.functional_type {
            return Err(pos.syntax("expected `(types) -> types` after `stablehlo.custom_call`"));
        }
        let args = self.operands(out, op)?;
        let sig = Signature {
            params: args.iter().map(|(_, t)| t.clone().into()).collect(),
            results: op.result_types.iter().map(|t| t.clone().into()).collect(),
        };
        let mut attrs: Vec<String> = (op.attrs.iter())
            .filter(|(name, _)| name != "call_target_name")
            .map(|attr| format!("{attr:?}"))
            .collect();
        attrs.sort();
        // An attribute the parser keeps only as `Other` (`output_operand_aliases`, ...) is
        // told apart by the op's text, its operands named by position.
        let kept = self.op_text(op)?;
        if op.attrs.iter().any(|(_, a)| *a == Attr::Other) {
            let positions: Vec<String> =
                (0..kept.operands.len()).map(|i| format!("%{i}")).collect();
            attrs.push(kept.with_operands(&positions));
        }
        let key = (target.clone(), sig.clone(), attrs.join(", "));
        let callee = match self.syms.custom_call_externs.get(&key) {
            Some(name) => name.clone(),
            None => {
                let name = (0..)
                    .map(|k| match k {
                        0 => target.clone(),
                        k => format!("{target}.{k}"),
                    })
                    .find(|n| self.syms.signature(n).is_none())
                    .unwrap_or_default();
                self.syms.custom_call_externs.insert(key, name.clone());
                self.syms.custom_calls.insert(name.clone(), sig.clone());
                self.syms.info.opaque.insert(name.clone(), kept);
                name
            }
        };
        let ty = Type::pack(sig.results.clone());
        let v = self.emit(out, pos, Op::Call { callee }, &args, ty, &[])?;
        Ok(self.unpack(out, v, &op.result_types))
    }

    /// The text of `op` as written (results and location left out), with its operand names.
    fn op_text(&self, op: &OpSyntax) -> Result<OpaqueOp> {
        let (start, end) = op.span;
        let text = self
            .syms
            .src
            .get(start..end)
            .ok_or_else(|| op.pos.invalid("the op's text is not valid UTF-8"))?
            .trim_end()
            .to_string();
        let operands = op.operands.iter().map(|(n, _)| n.clone()).collect();
        Ok(OpaqueOp { text, operands })
    }

    /// Emits `op(args)` giving the values of `types` (a tuple of them unless there is one),
    /// then unpacks them.
    fn emit_results(
        &mut self,
        out: &mut Insts,
        op: &OpSyntax,
        new: Op,
        args: &[(ValueId, TensorType)],
    ) -> Result<Vec<(ValueId, TensorType)>> {
        self.emit_results_as(out, op, new, args, &op.result_types)
    }

    /// [`Self::emit_results`] giving the values of `types` (the op's own, or retyped).
    fn emit_results_as(
        &mut self,
        out: &mut Insts,
        op: &OpSyntax,
        new: Op,
        args: &[(ValueId, TensorType)],
        types: &[TensorType],
    ) -> Result<Vec<(ValueId, TensorType)>> {
        if !op.functional_type || types.is_empty() {
            return Err(op
                .pos
                .syntax(format!("expected `(types) -> types` after `{}`", op.name)));
        }
        let ty = Type::pack(types.iter().map(|t| t.clone().into()).collect());
        let v = self.emit(out, op.pos, new, args, ty, &[])?;
        Ok(self.unpack(out, v, types))
    }

    /// `stablehlo.reduce` of two operands whose body is JAX's `argmax`/`argmin` reducer
    /// (see [`order_regions::arg_kind`]): `reduce_argmax`/`reduce_argmin`.
    fn arg_reduce(&mut self, op: &OpSyntax, out: &mut Insts) -> Result<Vec<(ValueId, TensorType)>> {
        let kind = op
            .regions
            .first()
            .and_then(order_regions::arg_kind)
            .ok_or_else(|| {
                op.pos.unsupported(format!(
                    "`stablehlo.reduce` of several operands with a body that is neither JAX's argmax/argmin reducer nor one combining op per operand ({ALLOW_OPAQUE_HINT})"
                ))
            })?;
        let axes = ints_attr(op, &["dimensions"])?;
        // The values and their initial value are ordered; the max or min value given back.
        self.emit_ordered(out, op, Op::ArgReduce { kind, axes }, &[0, 2], &[0])
    }

    /// Emits `new` of the op's operands as [`Self::emit_results`] does, with the operands at
    /// `ordered` that are bool (which JAX orders `false < true`, comparing them `UNSIGNED`,
    /// and the IR's order ops refuse) cast to `u8` 0/1 first, which orders them the same, and
    /// the results at `back` cast back to bool. Each cast follows its operand (a constant is
    /// materialized right before it), as the exported text writes them.
    fn emit_ordered(
        &mut self,
        out: &mut Insts,
        op: &OpSyntax,
        new: Op,
        ordered: &[usize],
        back: &[usize],
    ) -> Result<Vec<(ValueId, TensorType)>> {
        let pos = op.pos;
        let mut args = Vec::with_capacity(op.operands.len());
        let mut cast_any = false;
        for i in 0..op.operands.len() {
            let (v, t) = self.operand(out, op, i)?;
            if ordered.contains(&i) && t.dtype == DType::Bool {
                let u = t.with_dtype(DType::U8);
                let c = self.emit(out, pos, Op::Cast, &[(v, t)], u.clone().into(), &[])?;
                args.push((c, u));
                cast_any = true;
            } else {
                args.push((v, t));
            }
        }
        if !cast_any {
            return self.emit_results(out, op, new, &args);
        }
        let mut types = op.result_types.clone();
        for &k in back {
            if let Some(t) = types.get_mut(k).filter(|t| t.dtype == DType::Bool) {
                *t = t.with_dtype(DType::U8);
            }
        }
        let mut results = self.emit_results_as(out, op, new, &args, &types)?;
        for &k in back {
            let declared = op.result_types.get(k).map(|t| t.dtype);
            if let (Some((v, t)), Some(DType::Bool)) = (results.get(k).cloned(), declared) {
                let b = t.with_dtype(DType::Bool);
                let c = self.emit(out, pos, Op::Cast, &[(v, t)], b.clone().into(), &[])?;
                results[k] = (c, b);
            }
        }
        Ok(results)
    }

    /// `sdy.sharding_constraint %x <@mesh, [...]>` (JAX writes one around every typed PRNG key):
    /// on one device a sharding is no constraint at all, so the result is `%x` itself.
    fn sharding_constraint(
        &mut self,
        op: &OpSyntax,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        if op.operands.len() != 1 {
            return Err(pos.invalid("`sdy.sharding_constraint` has one operand"));
        }
        let (v, t) = self.operand(out, op, 0)?;
        let declared = self.result_type(op)?;
        if declared != t {
            return Err(pos.invalid(format!(
                "`sdy.sharding_constraint` of a {t} declares its result {declared}"
            )));
        }
        Ok((v, t))
    }

    /// `stablehlo.optimization_barrier` (pretty, `: types`, or generic): `optimization_barrier`
    /// of the operands, then `tuple_get` per result if there are several.
    fn optimization_barrier(
        &mut self,
        op: &OpSyntax,
        out: &mut Insts,
    ) -> Result<Vec<(ValueId, TensorType)>> {
        let args = self.operands(out, op)?;
        let types: Vec<TensorType> = args.iter().map(|(_, t)| t.clone()).collect();
        if op.functional_type && op.result_types != types {
            return Err(op.pos.invalid(
                "`stablehlo.optimization_barrier` gives its operands' types back".to_string(),
            ));
        }
        let ty = Type::pack(types.iter().map(|t| t.clone().into()).collect());
        let v = self.emit(out, op.pos, Op::OptimizationBarrier, &args, ty, &[])?;
        Ok(self.unpack(out, v, &types))
    }

    /// `stablehlo.sort` whose comparator orders by its leading operands (see
    /// [`order_regions::sort_order`]): `sort`.
    fn sort(&mut self, op: &OpSyntax, out: &mut Insts) -> Result<Vec<(ValueId, TensorType)>> {
        let pos = op.pos;
        let key = op
            .operand_types
            .first()
            .ok_or_else(|| pos.syntax("`stablehlo.sort` needs its operand types"))?;
        let key_dtypes: Vec<DType> = op.operand_types.iter().map(|t| t.dtype).collect();
        let order = op
            .regions
            .first()
            .and_then(|r| order_regions::sort_order(r, &key_dtypes))
            .ok_or_else(|| {
                pos.unsupported(format!(
                    "`stablehlo.sort` with a comparator other than LT/GT of its leading operands, lexicographically (TOTALORDER, or JAX's canonicalized order) ({ALLOW_OPAQUE_HINT})"
                ))
            })?;
        let rank = key.rank() as i64;
        let dim = match op.attr("dimension") {
            None => -1,
            Some(Attr::Int(d)) => *d,
            Some(_) => return Err(pos.syntax("`dimension` of `stablehlo.sort` must be an integer")),
        };
        let dim = to_usize(if dim < 0 { dim + rank } else { dim }, pos)?;
        let stable = match op.attr("is_stable") {
            Some(Attr::Word(w)) => w == "true",
            Some(Attr::Bools(b)) => b == &[true],
            Some(Attr::Int(i)) => *i != 0,
            _ => false,
        };
        let new = Op::Sort {
            dim,
            keys: order.keys,
            descending: order.descending,
            stable,
            total_order: order.total_order,
        };
        // Bool keys ordered as 0/1 (`emit_ordered`), given back as bools.
        let keys: Vec<usize> = (0..order.keys).collect();
        self.emit_ordered(out, op, new, &keys, &keys)
    }

    /// A float `x` as a signed integer of its width that orders as IEEE totalOrder orders `x`
    /// (`-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN`): its bits, the magnitude bits
    /// flipped where the sign is set. A `TOTALORDER` compare outside a sort compares these.
    fn total_order_key(
        &mut self,
        out: &mut Insts,
        pos: Pos,
        x: (ValueId, TensorType),
    ) -> Result<(ValueId, TensorType)> {
        let int = DType::int_of_width(x.1.dtype.bits(), true)
            .ok_or_else(|| pos.invalid(format!("a TOTALORDER compare of {}", x.1)))?;
        let it = x.1.with_dtype(int);
        let bools = x.1.with_dtype(DType::Bool);
        let magnitude = (1i64 << (int.bits() - 1)).wrapping_sub(1);
        let bits = self.emit_t(out, pos, Op::Bitcast, &[x], &it)?;
        let constant = |v: i64| Op::Constant(Literal::Splat(Scalar::Int(v)));
        let zero = self.emit_t(out, pos, constant(0), &[], &it)?;
        let mask = self.emit_t(out, pos, constant(magnitude), &[], &it)?;
        let negative = self.emit_t(
            out,
            pos,
            Op::Compare(CmpOp::Lt),
            &[bits.clone(), zero],
            &bools,
        )?;
        let flipped = self.emit_t(
            out,
            pos,
            Op::Binary(BinaryOp::Xor),
            &[bits.clone(), mask],
            &it,
        )?;
        self.emit_t(out, pos, Op::Select, &[negative, flipped, bits], &it)
    }

    /// `stablehlo.rng_bit_generator %state, algorithm = A` (pretty, as JAX prints it) or
    /// generic with `rng_algorithm = #stablehlo<rng_algorithm A>`: `rng_bit_generator`.
    fn rng_bit_generator(
        &mut self,
        op: &OpSyntax,
        out: &mut Insts,
    ) -> Result<Vec<(ValueId, TensorType)>> {
        let word = word_attr(op, "algorithm").or_else(|| word_attr(op, "rng_algorithm"));
        let algorithm = match word.as_deref() {
            Some("DEFAULT") => RngAlgorithm::Default,
            Some("THREE_FRY") => RngAlgorithm::ThreeFry,
            Some("PHILOX") => RngAlgorithm::Philox,
            other => {
                return Err(op.pos.syntax(format!(
                    "`rng_bit_generator` needs its algorithm (DEFAULT, THREE_FRY or PHILOX), found {other:?}"
                )))
            }
        };
        let state = self.operand(out, op, 0)?;
        self.emit_results(out, op, Op::RngBitGenerator { algorithm }, &[state])
    }

    /// `chlo.top_k(%x, k = K)`: `top_k`.
    fn top_k(&mut self, op: &OpSyntax, out: &mut Insts) -> Result<Vec<(ValueId, TensorType)>> {
        if matches!(op.attr("largest"), Some(a) if *a != Attr::Word("true".into())) {
            return Err(op.pos.unsupported(format!(
                "`chlo.top_k` of the smallest elements ({ALLOW_OPAQUE_HINT})"
            )));
        }
        let k = int_attr(op, &["k"])?;
        let x = self.operand(out, op, 0)?;
        self.emit_results(out, op, Op::TopK { k }, &[x])
    }

    /// The values of a result of type `Type::pack(types)`: itself, or `tuple_get`s.
    fn unpack(
        &mut self,
        out: &mut Insts,
        v: ValueId,
        types: &[TensorType],
    ) -> Vec<(ValueId, TensorType)> {
        if let [t] = types {
            return vec![(v, t.clone())];
        }
        let mut results = Vec::new();
        for (index, t) in types.iter().enumerate() {
            let r = self.fresh();
            out.push(Instruction {
                result: r,
                ty: t.clone().into(),
                op: Op::TupleGet { index },
                operands: vec![v],
            });
            results.push((r, t.clone()));
        }
        results
    }

    /// `stablehlo.while`: pretty (`(%iterArg = %x) ... cond {...} do {...}`) or generic
    /// (regions with block arguments).
    fn while_op(&mut self, op: &OpSyntax, out: &mut Insts) -> Result<Vec<(ValueId, TensorType)>> {
        let pos = op.pos;
        let inits = self.operands(out, op)?;
        let carried: Vec<TensorType> = inits.iter().map(|(_, t)| t.clone()).collect();
        let [cond, body] = op.regions.as_slice() else {
            return Err(pos.invalid("`stablehlo.while` needs a cond and a body region"));
        };
        let implicit: Vec<(String, TensorType)> =
            op.words.iter().cloned().zip(carried.clone()).collect();
        let (cond, cond_r) = self.region(cond, pos, &implicit)?;
        let (body, body_r) = self.region(body, pos, &implicit)?;
        let ty = Type::pack(carried.iter().map(|t| t.clone().into()).collect());
        let v = self.emit(
            out,
            pos,
            Op::While {
                cond: Box::new(cond),
                body: Box::new(body),
            },
            &inits,
            ty,
            &[cond_r, body_r],
        )?;
        Ok(self.unpack(out, v, &carried))
    }

    /// `stablehlo.case %index` with N ≥ 2 branches: `cond`s nested in the else regions
    /// (`index == 0`, then `index == 1`, ...; any other index takes the last branch, as
    /// StableHLO defines).
    fn case_op(&mut self, op: &OpSyntax, out: &mut Insts) -> Result<Vec<(ValueId, TensorType)>> {
        let pos = op.pos;
        let index = self.operand(out, op, 0)?;
        if index.1.rank() != 0 || !index.1.dtype.is_int() {
            return Err(pos.invalid(format!(
                "the index of `stablehlo.case` must be an integer scalar, found {}",
                index.1
            )));
        }
        let mut branches = Vec::new();
        for region in &op.regions {
            branches.push(self.region(region, pos, &[])?);
        }
        // One branch is taken whatever the index (`jnp.corrcoef` writes one): a `cond` on
        // `true` with that branch on both sides.
        if let [only] = op.regions.as_slice() {
            branches.push(self.region(only, pos, &[])?);
            let yes = Op::Constant(Literal::Splat(Scalar::Bool(true)));
            let t = self.emit_t(out, pos, yes, &[], &TensorType::new(DType::Bool, vec![]))?;
            return self.if_like(out, pos, t, branches, &op.result_types);
        }
        if branches.is_empty() {
            return Err(pos.invalid("`stablehlo.case` needs at least one branch"));
        }
        let types = op.result_types.clone();
        let ty = Type::pack(types.iter().map(|t| t.clone().into()).collect());
        let result_types: Vec<Type> = types.iter().map(|t| t.clone().into()).collect();
        let (mut else_region, mut else_types) =
            branches.pop().ok_or_else(|| pos.invalid("no branch"))?;
        while let Some((then_region, then_types)) = branches.pop() {
            let k = branches.len();
            let mut insts = Vec::new();
            let c = TensorType::new(index.1.dtype, vec![]);
            let kv = self.emit_t(
                &mut insts,
                pos,
                Op::Constant(Literal::Splat(Scalar::Int(k as i64))),
                &[],
                &c,
            )?;
            let p = self.emit_t(
                &mut insts,
                pos,
                Op::Compare(CmpOp::Eq),
                &[index.clone(), kv],
                &TensorType::new(DType::Bool, vec![]),
            )?;
            let v = self.emit(
                &mut insts,
                pos,
                Op::Cond {
                    then_region: Box::new(then_region),
                    else_region: Box::new(else_region),
                },
                &[p],
                ty.clone(),
                &[then_types, else_types],
            )?;
            let results = self.unpack(&mut insts, v, &types);
            if k == 0 {
                out.extend(insts);
                return Ok(results);
            }
            else_region = Region {
                params: Vec::new(),
                insts,
                results: results.iter().map(|(v, _)| *v).collect(),
            };
            else_types = result_types.clone();
        }
        Err(pos.invalid("no branch"))
    }

    /// `stablehlo.if %pred` with two regions.
    fn if_op(&mut self, op: &OpSyntax, out: &mut Insts) -> Result<Vec<(ValueId, TensorType)>> {
        let pos = op.pos;
        let pred = self.operand(out, op, 0)?;
        let [a, b] = op.regions.as_slice() else {
            return Err(pos.invalid("`stablehlo.if` needs two regions"));
        };
        let branches = vec![self.region(a, pos, &[])?, self.region(b, pos, &[])?];
        self.if_like(out, pos, pred, branches, &op.result_types)
    }

    /// `cond(pred)` of the two lowered `branches` (then, else) giving `types`, unpacked.
    fn if_like(
        &mut self,
        out: &mut Insts,
        pos: Pos,
        pred: (ValueId, TensorType),
        branches: Vec<(Region, Vec<Type>)>,
        types: &[TensorType],
    ) -> Result<Vec<(ValueId, TensorType)>> {
        let [(then_region, ra), (else_region, rb)] = <[_; 2]>::try_from(branches)
            .map_err(|_| pos.invalid("a conditional needs two branches"))?;
        let ty = Type::pack(types.iter().map(|t| t.clone().into()).collect());
        let v = self.emit(
            out,
            pos,
            Op::Cond {
                then_region: Box::new(then_region),
                else_region: Box::new(else_region),
            },
            &[pred],
            ty,
            &[ra, rb],
        )?;
        Ok(self.unpack(out, v, types))
    }

    /// Lowers an op with one result.
    fn single(
        &mut self,
        op: &OpSyntax,
        short: &str,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        let ty = self.result_type(op)?;
        if let Some(u) = chlo_unary_of(&op.name) {
            let x = self.operand(out, op, 0)?;
            return self.emit_t(out, pos, Op::Unary(u), &[x], &ty);
        }
        if let Some(b) = chlo_binary_of(&op.name) {
            let args = [self.operand(out, op, 0)?, self.operand(out, op, 1)?];
            return self.emit_t(out, pos, Op::Binary(b), &args, &ty);
        }
        if stablehlo_short(&op.name).is_none() {
            return Err(pos.unsupported(format!("op '{}' ({ALLOW_OPAQUE_HINT})", op.name)));
        }
        if op.name == "tosa.negate" {
            // `tosa.negate %x, %input_zp, %output_zp`: plain negation when both are zero.
            let zero = Scalar::zero(ty.dtype);
            if (1..op.operands.len()).any(|i| self.constant_operand(op, i) != Some(zero)) {
                return Err(pos.unsupported("`tosa.negate` with a nonzero zero point"));
            }
        }
        if let Some(u) = unary_of(short) {
            let x = self.operand(out, op, 0)?;
            return self.emit_t(out, pos, Op::Unary(u), &[x], &ty);
        }
        if let Some(b) = binary_of(short) {
            let args = [self.operand(out, op, 0)?, self.operand(out, op, 1)?];
            return self.emit_t(out, pos, Op::Binary(b), &args, &ty);
        }
        match short {
            "iota" => {
                let dim = int_attr(op, &["dim", "iota_dimension"])?;
                self.emit_t(out, pos, Op::Iota { dim }, &[], &ty)
            }
            "compare" => {
                let cmp = comparison(op)?;
                let kind = op
                    .words
                    .get(1)
                    .cloned()
                    .or_else(|| word_attr(op, "compare_type"));
                let lhs = self.operand(out, op, 0)?;
                let d = lhs.1.dtype;
                match (kind.as_deref(), d.kind()) {
                    (Some("TOTALORDER"), DTypeKind::Float) => {
                        let rhs = self.operand(out, op, 1)?;
                        let keys = [
                            self.total_order_key(out, pos, lhs)?,
                            self.total_order_key(out, pos, rhs)?,
                        ];
                        self.emit_t(out, pos, Op::Compare(cmp), &keys, &ty)
                    }
                    (None, _)
                    | (Some("FLOAT"), DTypeKind::Float)
                    | (Some("SIGNED"), DTypeKind::Signed)
                    | (Some("UNSIGNED"), DTypeKind::Unsigned | DTypeKind::Bool) => {
                        let rhs = self.operand(out, op, 1)?;
                        self.emit_t(out, pos, Op::Compare(cmp), &[lhs, rhs], &ty)
                    }
                    // StableHLO requires the type of the operands' class (SIGNED for signed
                    // integers, ...); IREE ignores another one, so it has no meaning to keep.
                    (Some(k), kind) => {
                        let wanted = match kind {
                            DTypeKind::Float => "FLOAT",
                            DTypeKind::Signed => "SIGNED",
                            DTypeKind::Unsigned | DTypeKind::Bool => "UNSIGNED",
                        };
                        Err(pos.invalid(format!(
                            "comparison type {k} does not fit {} operands (StableHLO requires {wanted})",
                            mlir_elem(d)
                        )))
                    }
                }
            }
            "select" => {
                let mut p = self.operand(out, op, 0)?;
                let args = [self.operand(out, op, 1)?, self.operand(out, op, 2)?];
                if p.1.rank() == 0 && ty.rank() > 0 {
                    let bt = TensorType::new(DType::Bool, ty.shape.clone());
                    p = self.emit_t(out, pos, Op::Broadcast { dims: vec![] }, &[p], &bt)?;
                }
                self.emit_t(
                    out,
                    pos,
                    Op::Select,
                    &[p, args[0].clone(), args[1].clone()],
                    &ty,
                )
            }
            "convert" => {
                let x = self.operand(out, op, 0)?;
                self.emit_t(out, pos, Op::Cast, &[x], &ty)
            }
            "bitcast_convert" => {
                let x = self.operand(out, op, 0)?;
                let (from, to) = (x.1.dtype, ty.dtype);
                if from == DType::Bool || to == DType::Bool {
                    return Err(pos.unsupported(format!(
                        "`bitcast_convert` from {} to {} (only between numbers)",
                        mlir_elem(from),
                        mlir_elem(to)
                    )));
                }
                let op = match from.bits() == to.bits() {
                    true => Op::Bitcast,
                    false => Op::BitcastResize,
                };
                self.emit_t(out, pos, op, &[x], &ty)
            }
            "dynamic_slice" => {
                let sizes = ints_attr(op, &["sizes", "slice_sizes"])?;
                let args = self.operands(out, op)?;
                self.emit_t(out, pos, Op::DynamicSlice { sizes }, &args, &ty)
            }
            "dynamic_update_slice" => {
                let args = self.operands(out, op)?;
                self.emit_t(out, pos, Op::DynamicUpdateSlice, &args, &ty)
            }
            "reduce_precision" => {
                let (exponent_bits, mantissa_bits) = precision_format(op)?;
                let x = self.operand(out, op, 0)?;
                let new = Op::ReducePrecision {
                    exponent_bits,
                    mantissa_bits,
                };
                self.emit_t(out, pos, new, &[x], &ty)
            }
            "is_finite" => {
                // |x| < inf: false for NaN (no order) and for both infinities, exactly.
                let x = self.operand(out, op, 0)?;
                let a = self.emit_t(
                    out,
                    pos,
                    Op::Unary(UnaryOp::Abs),
                    std::slice::from_ref(&x),
                    &x.1,
                )?;
                let inf = Op::Constant(Literal::Splat(Scalar::Float(f64::INFINITY)));
                let inf = self.emit_t(out, pos, inf, &[], &x.1)?;
                self.emit_t(out, pos, Op::Compare(CmpOp::Lt), &[a, inf], &ty)
            }
            "clamp" => {
                // StableHLO's definition: minimum(maximum(operand, min), max), the bounds
                // broadcast when they are scalars.
                let x = self.operand(out, op, 1)?;
                let mut bound = |i: usize, out: &mut Insts| {
                    let b = self.operand(out, op, i)?;
                    if b.1.rank() == 0 && ty.rank() > 0 {
                        return self.emit_t(out, pos, Op::Broadcast { dims: vec![] }, &[b], &ty);
                    }
                    Ok(b)
                };
                let lo = bound(0, out)?;
                let hi = bound(2, out)?;
                let m = self.emit_t(out, pos, Op::Binary(BinaryOp::Max), &[x, lo], &ty)?;
                self.emit_t(out, pos, Op::Binary(BinaryOp::Min), &[m, hi], &ty)
            }
            "reshape" => {
                let x = self.operand(out, op, 0)?;
                self.emit_t(out, pos, Op::Reshape, &[x], &ty)
            }
            "transpose" => {
                let perm = ints_attr(op, &["dims", "permutation", "perms"])?;
                let x = self.operand(out, op, 0)?;
                self.emit_t(out, pos, Op::Transpose { perm }, &[x], &ty)
            }
            "broadcast_in_dim" => {
                let dims = ints_attr(op, &["dims", "broadcast_dimensions"])?;
                let x = self.operand(out, op, 0)?;
                self.emit_t(out, pos, Op::Broadcast { dims }, &[x], &ty)
            }
            "slice" => {
                let (start, limit, stride) = match op.attr("slice") {
                    Some(Attr::Slice(dims)) => {
                        let conv = |f: fn(&(i64, i64, i64)) -> i64| -> Result<Vec<usize>> {
                            dims.iter().map(|d| to_usize(f(d), pos)).collect()
                        };
                        (conv(|d| d.0)?, conv(|d| d.1)?, conv(|d| d.2)?)
                    }
                    _ => (
                        ints_attr(op, &["start_indices"])?,
                        ints_attr(op, &["limit_indices"])?,
                        ints_attr(op, &["strides"])?,
                    ),
                };
                let x = self.operand(out, op, 0)?;
                self.emit_t(
                    out,
                    pos,
                    ptir_ir::SliceDims::op(start, limit, stride),
                    &[x],
                    &ty,
                )
            }
            "concatenate" => {
                let axis = int_attr(op, &["dim", "dimension"])?;
                let args = self.operands(out, op)?;
                self.emit_t(out, pos, Op::Concat { axis }, &args, &ty)
            }
            "dot_general" | "dot" => self.dot(op, short, &ty, out),
            "reduce" => self.reduce(op, &ty, out),
            "reduce_window" => self.reduce_window(op, &ty, out),
            "select_and_scatter" => self.select_and_scatter(op, &ty, out),
            "pad" => {
                let signed = |names: &[&str]| signed_ints_attr(op, names);
                let p = PadDims {
                    low: signed(&["low", "edge_padding_low"])?,
                    high: signed(&["high", "edge_padding_high"])?,
                    interior: ints_attr(op, &["interior", "interior_padding"])?,
                };
                let args = [self.operand(out, op, 0)?, self.operand(out, op, 1)?];
                self.emit_t(out, pos, Op::Pad(Box::new(p)), &args, &ty)
            }
            "reverse" => {
                let dims = ints_attr(op, &["dims", "dimensions"])?;
                let x = self.operand(out, op, 0)?;
                self.emit_t(out, pos, Op::Reverse { dims }, &[x], &ty)
            }
            "convolution" => {
                let c = window_attrs::conv_dims(op)?;
                let args = [self.operand(out, op, 0)?, self.operand(out, op, 1)?];
                self.contraction(out, pos, args, &ty, |result_dtype| {
                    Op::Convolution(Box::new(ConvDims {
                        result_dtype,
                        ..c.clone()
                    }))
                })
            }
            "gather" => self.gather(op, &ty, out),
            "scatter" => self.scatter(op, &ty, out),
            _ => Err(pos.unsupported(format!("op '{}' ({ALLOW_OPAQUE_HINT})", op.name))),
        }
    }

    fn dot(
        &mut self,
        op: &OpSyntax,
        short: &str,
        ty: &TensorType,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        let l = self.operand(out, op, 0)?;
        let r = self.operand(out, op, 1)?;
        let dims = if short == "dot" {
            DotDims {
                lhs_contract: vec![l.1.rank().saturating_sub(1)],
                rhs_contract: vec![0],
                ..DotDims::default()
            }
        } else if let Some(Attr::Struct(fields)) = op.attr("dot_dimension_numbers") {
            let get = |k: &str| Ok::<_, MlirError>(dims_in(fields, k, pos)?.unwrap_or_default());
            DotDims {
                lhs_batch: get("lhs_batching_dimensions")?,
                rhs_batch: get("rhs_batching_dimensions")?,
                lhs_contract: get("lhs_contracting_dimensions")?,
                rhs_contract: get("rhs_contracting_dimensions")?,
                ..DotDims::default()
            }
        } else {
            let pair = |k: &str| -> Result<(Vec<usize>, Vec<usize>)> {
                match op.attr(k) {
                    Some(Attr::Pairs(a, b)) => Ok((
                        a.iter().map(|&x| to_usize(x, pos)).collect::<Result<_>>()?,
                        b.iter().map(|&x| to_usize(x, pos)).collect::<Result<_>>()?,
                    )),
                    Some(_) => Err(pos.syntax(format!("`{k}` must look like `[1] x [0]`"))),
                    None => Ok((vec![], vec![])),
                }
            };
            let (lhs_batch, rhs_batch) = pair("batching_dims")?;
            let (lhs_contract, rhs_contract) = pair("contracting_dims")?;
            DotDims {
                lhs_batch,
                rhs_batch,
                lhs_contract,
                rhs_contract,
                ..DotDims::default()
            }
        };
        let precision = precision_config(op)?;
        self.contraction(out, pos, [l, r], ty, |result_dtype| {
            Op::DotGeneral(Box::new(DotDims {
                result_dtype,
                precision,
                ..dims.clone()
            }))
        })
    }

    /// A `dot_general` or `convolution` (`make(result_dtype)`) of `args` whose text declares
    /// the result `ty`. A wider result dtype than the operands' (JAX's
    /// `preferred_element_type`) is where products and sums are computed: as the op's
    /// accumulation type where PTIR has it (f16 into f32, i8 into i32), else with both operands
    /// converted to it first (i8 into f32: every i8 is an f32). A narrower one is computed in
    /// the operands' dtype and converted.
    fn contraction(
        &mut self,
        out: &mut Insts,
        pos: Pos,
        args: [(ValueId, TensorType); 2],
        ty: &TensorType,
        make: impl Fn(Option<DType>) -> Op,
    ) -> Result<(ValueId, TensorType)> {
        let d = args[0].1.dtype;
        if d != ty.dtype {
            let wide = make(Some(ty.dtype));
            let operand_types: [Type; 2] = [args[0].1.clone().into(), args[1].1.clone().into()];
            let refs = [&operand_types[0], &operand_types[1]];
            if infer_type(&wide, &refs, &InferContext::default()).is_ok() {
                return self.emit_t(out, pos, wide, &args, ty);
            }
            if args
                .iter()
                .all(|(_, t)| t.dtype.embeds_exactly_in(ty.dtype))
            {
                let mut wide_args = Vec::with_capacity(2);
                for (v, from) in &args {
                    let to = TensorType::new(ty.dtype, from.shape.clone());
                    wide_args.push(self.emit_t(out, pos, Op::Cast, &[(*v, from.clone())], &to)?);
                }
                return self.emit_t(out, pos, make(None), &wide_args, ty);
            }
            let acc = TensorType::new(d, ty.shape.clone());
            let c = self.emit_t(out, pos, make(None), &args, &acc)?;
            return self.emit_t(out, pos, Op::Cast, &[c], ty);
        }
        self.emit_t(out, pos, make(None), &args, ty)
    }

    /// `stablehlo.reduce_window` of one operand with an `add`, `maximum`, `minimum` (or for
    /// bool `or`, `and`) body: `reduce_window_sum` / `reduce_window_max` of the operand and
    /// its init, minimum and `and` through the flip of both (as `reduce` does).
    fn reduce_window(
        &mut self,
        op: &OpSyntax,
        ty: &TensorType,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        if op.operands.len() != 2 {
            return Err(pos.unsupported(format!(
                "`stablehlo.reduce_window` of several operands ({ALLOW_OPAQUE_HINT})"
            )));
        }
        let body = reducer_of(op.regions.first()).ok_or_else(|| {
            pos.unsupported(format!(
                "`stablehlo.reduce_window` body other than one add/multiply/maximum/minimum/and/or ({ALLOW_OPAQUE_HINT})"
            ))
        })?;
        let dims = Box::new(window_attrs::reduce_window_dims(op)?);
        let d = match self.bound(op, 0)? {
            Bound::Value(_, t) | Bound::Const(_, _, t) => t.dtype,
        };
        let window = |kind| Op::ReduceWindow {
            kind,
            dims: dims.clone(),
        };
        let mut direct = |kind| {
            let args = [self.operand(out, op, 0)?, self.operand(out, op, 1)?];
            self.emit_t(out, pos, window(kind), &args, ty)
        };
        match (body.as_str(), d) {
            ("stablehlo.add", _) if d != DType::Bool => direct(ReduceKind::Sum),
            ("stablehlo.maximum", _) if d != DType::Bool => direct(ReduceKind::Max),
            ("stablehlo.multiply", _) if d != DType::Bool => direct(ReduceKind::Prod),
            ("stablehlo.or", DType::Bool) => direct(ReduceKind::Max),
            ("stablehlo.minimum", _) if d != DType::Bool => {
                self.flipped(out, op, order_flip(d), window(ReduceKind::Max), &[0, 1], ty)
            }
            ("stablehlo.and", DType::Bool) => {
                self.flipped(out, op, UnaryOp::Not, window(ReduceKind::Max), &[0, 1], ty)
            }
            _ => Err(pos.unsupported(format!(
                "`stablehlo.reduce_window` with body `{body}` on {} ({ALLOW_OPAQUE_HINT})",
                d.name()
            ))),
        }
    }

    /// `stablehlo.select_and_scatter` whose select region is one `GE`, `GT`, `LE` or `LT`
    /// compare of its two arguments (either order: swapped, the direction is mirrored) and
    /// whose scatter region is one `add`: `select_and_scatter_<dir>` of the three operands.
    fn select_and_scatter(
        &mut self,
        op: &OpSyntax,
        ty: &TensorType,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        let unsupported = |what: &str| {
            pos.unsupported(format!(
                "`stablehlo.select_and_scatter` {what} ({ALLOW_OPAQUE_HINT})"
            ))
        };
        if op.operands.len() != 3 || op.regions.len() != 2 {
            return Err(unsupported(
                "other than of an operand, a source and an init with two regions",
            ));
        }
        let select = region_op(op.regions.first())
            .filter(|(c, _)| c.name == "stablehlo.compare")
            .filter(|(c, _)| !matches!(compare_kind(c).as_deref(), Some("TOTALORDER" | "UNSIGNED")))
            .and_then(|(c, swapped)| {
                let cmp = comparison(c).ok()?;
                SelectKind::from_cmp(if swapped { mirrored(cmp) } else { cmp })
            })
            .ok_or_else(|| unsupported("select region other than one GE/GT/LE/LT compare"))?;
        if reducer_of(op.regions.get(1)).as_deref() != Some("stablehlo.add") {
            return Err(unsupported("scatter region other than one add"));
        }
        let dims = Box::new(window_attrs::reduce_window_dims(op)?);
        let args = [
            self.operand(out, op, 0)?,
            self.operand(out, op, 1)?,
            self.operand(out, op, 2)?,
        ];
        self.emit_t(out, pos, Op::SelectAndScatter { select, dims }, &args, ty)
    }

    fn reduce(
        &mut self,
        op: &OpSyntax,
        ty: &TensorType,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        if op.operands.len() != 2 {
            return Err(pos.unsupported(format!(
                "`stablehlo.reduce` of several operands, other than JAX's argmax/argmin and independent reductions ({ALLOW_OPAQUE_HINT})"
            )));
        }
        let body = match op.words.iter().position(|w| w == "applies") {
            Some(i) => op.words.get(i + 1).cloned(),
            None => reducer_of(op.regions.first()),
        }
        .ok_or_else(|| {
            pos.unsupported(
                "`stablehlo.reduce` body other than one add/multiply/maximum/minimum/and/or",
            )
        })?;
        self.reduce_part(op, &body, [0, 1], ty, out)
    }

    /// `stablehlo.reduce` of several operands whose body combines each accumulator with its
    /// own element only (`reducer(%a0, %x0) (%a1, %x1) { return a0 + x0, max(a1, x1) }`): one
    /// reduction per operand, exactly (each result is its operand's reduction, whatever the
    /// others); the `sibling-reductions` pass merges them back where the runtime gains.
    fn independent_reduce(
        &mut self,
        op: &OpSyntax,
        bodies: &[String],
        out: &mut Insts,
    ) -> Result<Vec<(ValueId, TensorType)>> {
        if !op.functional_type || op.result_types.len() != bodies.len() {
            return Err(op
                .pos
                .syntax(format!("expected `(types) -> types` after `{}`", op.name)));
        }
        let n = bodies.len();
        (bodies.iter().zip(op.result_types.clone()).enumerate())
            .map(|(i, (body, ty))| self.reduce_part(op, body, [i, n + i], &ty, out))
            .collect()
    }

    /// The reduction by `body` (a combining op's name) of operand `x` of `op` from operand
    /// `init`, of type `ty`.
    fn reduce_part(
        &mut self,
        op: &OpSyntax,
        body: &str,
        [x_at, init_at]: [usize; 2],
        ty: &TensorType,
        out: &mut Insts,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        let axes = ints_attr(op, &["dimensions"])?;
        let x = self.operand(out, op, x_at)?;
        let init_const = self.constant_operand(op, init_at);
        let d = x.1.dtype;
        let reduce = |kind| Op::Reduce {
            kind,
            axes: axes.clone(),
            keep_dims: false,
        };
        let init_is = |s: Scalar| init_const.is_some_and(|c| c == s);
        let (result, identity, combine) = match (body, d) {
            ("stablehlo.add", _) if d.is_float() && !init_is(Scalar::zero(d)) => {
                // PTIR's float sum starts from +0.0; IEEE's additive identity is -0.0 (a sum
                // of -0.0s from +0.0 is +0.0, from -0.0 is -0.0). The sum from -0.0 is
                // -(sum of -x from +0.0), exactly: negation commutes with rounding. Then any
                // other init is added to it, and a -0.0 init is that sum itself.
                let r =
                    self.flipped(out, op, UnaryOp::Neg, reduce(ReduceKind::Sum), &[x_at], ty)?;
                (r, init_is(Scalar::Float(-0.0)), BinaryOp::Add)
            }
            ("stablehlo.add", _) if d != DType::Bool => {
                let r = self.emit_t(out, pos, reduce(ReduceKind::Sum), &[x], ty)?;
                (r, init_is(Scalar::zero(d)), BinaryOp::Add)
            }
            ("stablehlo.maximum", _) if d != DType::Bool => {
                let r = self.emit_t(out, pos, reduce(ReduceKind::Max), &[x], ty)?;
                (r, init_is(lowest(d)), BinaryOp::Max)
            }
            ("stablehlo.multiply", _) if d != DType::Bool => {
                let r = self.emit_t(out, pos, reduce(ReduceKind::Prod), &[x], ty)?;
                (r, init_is(Scalar::one(d)), BinaryOp::Mul)
            }
            ("stablehlo.or", DType::Bool) => {
                let r = self.emit_t(out, pos, reduce(ReduceKind::Max), &[x], ty)?;
                (r, init_is(Scalar::Bool(false)), BinaryOp::Or)
            }
            ("stablehlo.minimum", _) if d != DType::Bool => {
                let r =
                    self.flipped(out, op, order_flip(d), reduce(ReduceKind::Max), &[x_at], ty)?;
                (r, init_is(highest(d)), BinaryOp::Min)
            }
            ("stablehlo.and", DType::Bool) => {
                let r =
                    self.flipped(out, op, UnaryOp::Not, reduce(ReduceKind::Max), &[x_at], ty)?;
                (r, init_is(Scalar::Bool(true)), BinaryOp::And)
            }
            _ => {
                return Err(pos.unsupported(format!(
                    "`stablehlo.reduce` with body `{body}` on {}",
                    d.name()
                )))
            }
        };
        if identity {
            return Ok(result);
        }
        let init = self.operand(out, op, init_at)?;
        if init.1.rank() != 0 {
            return Err(pos.invalid("the init of `stablehlo.reduce` must be a scalar"));
        }
        let b = self.emit_t(out, pos, Op::Broadcast { dims: vec![] }, &[init], ty)?;
        self.emit_t(out, pos, Op::Binary(combine), &[result, b], ty)
    }

    /// `flip(reduce(flip(xs)...))`: a reduction PTIR does not have, through one it has and an
    /// involution that exchanges them (min by max of negations, and by max of nots, a sum
    /// from -0.0 by the negated sum of negations from +0.0); each operand of `op` at
    /// `operands` (a windowed reduction's init too) is flipped, in order.
    fn flipped(
        &mut self,
        out: &mut Insts,
        op: &OpSyntax,
        flip: UnaryOp,
        reduce: Op,
        operands: &[usize],
        ty: &TensorType,
    ) -> Result<(ValueId, TensorType)> {
        let pos = op.pos;
        let mut flipped = Vec::new();
        for &i in operands {
            let x = self.operand(out, op, i)?;
            let xt = x.1.clone();
            flipped.push(self.emit_t(out, pos, Op::Unary(flip), &[x], &xt)?);
        }
        let m = self.emit_t(out, pos, reduce, &flipped, ty)?;
        self.emit_t(out, pos, Op::Unary(flip), &[m], ty)
    }
}

/// What every refusal of an op says: how to keep it all the same.
const ALLOW_OPAQUE_HINT: &str = "--allow-opaque keeps it as an opaque call";

/// The literal and type of `stablehlo.constant` (`None` for other ops).
pub(crate) fn constant_of(op: &OpSyntax, short: &str) -> Result<Option<(Literal, TensorType)>> {
    if stablehlo_short(&op.name).is_none() || short != "constant" {
        return Ok(None);
    }
    let pos = op.pos;
    let ty = declared_type(op)?;
    match op.attr("value").or_else(|| op.attr("values")) {
        Some(Attr::Dense(d, _)) => Ok(Some((literal(d, &ty, pos)?, ty))),
        _ => Err(pos.syntax(format!("expected `dense<...>` in `{}`", op.name))),
    }
}

/// The StableHLO name (without `stablehlo.`) of an op we read: StableHLO's own, and the
/// `arith` and `tosa` ops on static tensors that mean the same (what `mlir-opt
/// --canonicalize` leaves of the MLIR parity cases). `None` for any other op.
fn stablehlo_short(name: &str) -> Option<&str> {
    if let Some(short) = name.strip_prefix("stablehlo.") {
        return Some(short);
    }
    Some(match name {
        "arith.constant" | "tosa.const" | "tosa.const_shape" => "constant",
        "arith.addf" | "arith.addi" | "tosa.add" => "add",
        "arith.subf" | "arith.subi" | "tosa.sub" => "subtract",
        "arith.mulf" | "arith.muli" => "multiply",
        "arith.divf" | "arith.divsi" => "divide",
        "arith.negf" | "tosa.negate" => "negate",
        "tosa.transpose" => "transpose",
        "tosa.reshape" => "reshape",
        "tosa.cast" => "convert",
        _ => return None,
    })
}

/// The single op of a generic reducer region `{^bb0(%a, %b): %r = op(%a, %b); return %r}`.
fn reducer_of(region: Option<&Block>) -> Option<String> {
    let (combine, _) = region_op(region)?;
    // A reducer gives back its arguments' type.
    let arg = &region?.args.first()?.1;
    (region_result_type(combine, arg) == arg).then(|| combine.name.clone())
}

/// The type `op` declares for its result: its functional type's, a short form's one type, or
/// `default` when it declares none.
pub(crate) fn region_result_type<'t>(op: &'t OpSyntax, default: &'t TensorType) -> &'t TensorType {
    (op.result_types.first())
        .or(op.operand_types.first())
        .unwrap_or(default)
}

/// The single op of a region `{^bb0(%a, %b): %r = op(%a, %b); return %r}`, and whether it
/// takes the arguments swapped (`op(%b, %a)`).
fn region_op(region: Option<&Block>) -> Option<(&OpSyntax, bool)> {
    let region = region?;
    let [a, b] = region.args.as_slice() else {
        return None;
    };
    let [combine, ret] = region.ops.as_slice() else {
        return None;
    };
    let operands: Vec<&str> = combine.operands.iter().map(|(n, _)| n.as_str()).collect();
    let swapped = operands == [b.0.as_str(), a.0.as_str()];
    // Types that agree (a body whose types contradict each other is none of the regions
    // PTIR knows, whatever its ops): both arguments one type, the op's declared operands of
    // it, the return's declared operand its result's.
    let declared = |ts: &[TensorType], t: &TensorType| ts.iter().all(|u| u == t);
    let result_agrees = declared(&ret.operand_types, region_result_type(combine, &a.1));
    let ok = (operands == [a.0.as_str(), b.0.as_str()] || swapped)
        && combine.results.len() == 1
        && matches!(ret.name.as_str(), "stablehlo.return" | "return")
        && ret.operands.len() == 1
        && ret.operands[0].0 == combine.results[0]
        && b.1 == a.1
        && declared(&combine.operand_types, &a.1)
        && result_agrees;
    ok.then_some((combine, swapped))
}

/// The direction of a `stablehlo.compare` (pretty `compare GE, ...` or generic
/// `comparison_direction = #stablehlo<comparison_direction GE>`).
pub(crate) fn comparison(op: &OpSyntax) -> Result<CmpOp> {
    let pos = op.pos;
    let dir_word = op
        .words
        .first()
        .cloned()
        .or_else(|| word_attr(op, "comparison_direction"))
        .ok_or_else(|| pos.syntax("`compare` needs a direction"))?;
    Ok(match dir_word.as_str() {
        "EQ" => CmpOp::Eq,
        "NE" => CmpOp::Ne,
        "LT" => CmpOp::Lt,
        "LE" => CmpOp::Le,
        "GT" => CmpOp::Gt,
        "GE" => CmpOp::Ge,
        other => return Err(pos.syntax(format!("unknown comparison direction `{other}`"))),
    })
}

/// The comparison of the swapped operands: `a >= b` is `b <= a`.
fn mirrored(c: CmpOp) -> CmpOp {
    match c {
        CmpOp::Ge => CmpOp::Le,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Eq | CmpOp::Ne => c,
    }
}

/// The StableHLO unary op named `short` (the exporter's names; `multiply` is no `square`).
fn unary_of(short: &str) -> Option<UnaryOp> {
    (UnaryOp::ALL.iter().copied())
        .find(|&u| !chlo_unary(u) && u != UnaryOp::Square && unary_name(u) == short)
}

/// The CHLO elementwise ops JAX emits that are PTIR unary ops: those the exporter writes as
/// CHLO, and `chlo.square` and `chlo.tan` (written back as StableHLO).
fn chlo_unary_of(name: &str) -> Option<UnaryOp> {
    match name.strip_prefix("chlo.")? {
        "square" => Some(UnaryOp::Square),
        "tan" => Some(UnaryOp::Tan),
        short => (UnaryOp::ALL.iter().copied()).find(|&u| chlo_unary(u) && unary_name(u) == short),
    }
}

/// The StableHLO binary op named `short` (the exporter's names).
fn binary_of(short: &str) -> Option<BinaryOp> {
    (BinaryOp::ALL.iter().copied()).find(|&b| !chlo_binary(b) && binary_name(b) == short)
}

/// The CHLO binary op named `name` (`chlo.next_after`).
fn chlo_binary_of(name: &str) -> Option<BinaryOp> {
    let short = name.strip_prefix("chlo.")?;
    (BinaryOp::ALL.iter().copied()).find(|&b| chlo_binary(b) && binary_name(b) == short)
}

/// The lowest value of a dtype (`reduce_max`'s start).
fn lowest(d: DType) -> Scalar {
    match d {
        DType::Bool => Scalar::Bool(false),
        _ => Scalar::int_min(d).unwrap_or(Scalar::Float(f64::NEG_INFINITY)),
    }
}

/// The highest value of a dtype (a `minimum` reduction's identity).
fn highest(d: DType) -> Scalar {
    match d {
        DType::Bool => Scalar::Bool(true),
        _ => Scalar::int_max(d).unwrap_or(Scalar::Float(f64::INFINITY)),
    }
}

fn to_usize(x: i64, pos: Pos) -> Result<usize> {
    usize::try_from(x).map_err(|_| pos.invalid(format!("expected a dimension, found {x}")))
}

/// A `dot_general`'s precision (pretty `precision = [HIGHEST, DEFAULT]` or generic
/// `precision_config = [#stablehlo<precision HIGHEST>, ...]`); `None` when absent or all
/// `DEFAULT`.
fn precision_config(op: &OpSyntax) -> Result<Option<[Precision; 2]>> {
    let words = match op.attr("precision").or_else(|| op.attr("precision_config")) {
        None => return Ok(None),
        Some(Attr::Words(words)) => words,
        Some(_) => {
            return Err(op
                .pos
                .syntax("expected `precision = [DEFAULT|HIGH|HIGHEST, ...]`"))
        }
    };
    let parsed: Vec<Precision> = (words.iter())
        .map(|w| {
            Precision::from_name(&w.to_ascii_lowercase())
                .ok_or_else(|| op.pos.invalid(format!("unknown precision `{w}`")))
        })
        .collect::<Result<_>>()?;
    match parsed[..] {
        [] => Ok(None),
        [lhs, rhs] => Ok(DotDims::precision_of([lhs, rhs])),
        _ => Err(op.pos.invalid(format!(
            "a `dot_general` has 2 operand precisions, found {}",
            parsed.len()
        ))),
    }
}

/// The declared type of an op's (first) result: from `(...) -> types`, or the single type of
/// a short form (`: tensor<4xf32>`, `select`'s `: pred, value`).
fn declared_type(op: &OpSyntax) -> Result<TensorType> {
    let t = if op.functional_type {
        op.result_types.first()
    } else {
        op.operand_types.last()
    };
    t.cloned()
        .ok_or_else(|| op.pos.invalid(format!("`{}` has no result type", op.name)))
}

/// The list of dimensions `name` of `attrs`, if it is there.
pub(crate) fn dims_in(
    attrs: &[(String, Attr)],
    name: &str,
    pos: Pos,
) -> Result<Option<Vec<usize>>> {
    match find_attr(attrs, name) {
        Some(Attr::Ints(xs)) => xs
            .iter()
            .map(|&x| to_usize(x, pos))
            .collect::<Result<_>>()
            .map(Some),
        Some(_) => Err(pos.syntax(format!("`{name}` must be a list of integers"))),
        None => Ok(None),
    }
}

/// The first of the attributes `names` (spellings of one attribute) of `op`: a list of
/// dimensions.
pub(crate) fn ints_attr(op: &OpSyntax, names: &[&str]) -> Result<Vec<usize>> {
    for n in names {
        if let Some(xs) = dims_in(&op.attrs, n, op.pos)? {
            return Ok(xs);
        }
    }
    Err(op
        .pos
        .syntax(format!("`{}` needs `{} = [...]`", op.name, names[0])))
}

/// The first of the attributes `names` (spellings of one attribute) of `op`: a list of
/// integers that may be negative (paddings).
fn signed_ints_attr(op: &OpSyntax, names: &[&str]) -> Result<Vec<i64>> {
    for n in names {
        match op.attr(n) {
            Some(Attr::Ints(xs)) => return Ok(xs.clone()),
            Some(_) => return Err(op.pos.syntax(format!("`{n}` must be a list of integers"))),
            None => {}
        }
    }
    Err(op
        .pos
        .syntax(format!("`{}` needs `{} = [...]`", op.name, names[0])))
}

/// The first of the attributes `names` of `op`: one dimension.
/// The format of a `stablehlo.reduce_precision`: pretty `format = e5m10`, or generic
/// `exponent_bits = 5 : i32, mantissa_bits = 10 : i32`.
fn precision_format(op: &OpSyntax) -> Result<(usize, usize)> {
    if let Some(attr) = op.attr("format") {
        let parsed = match attr {
            Attr::Word(w) => w.strip_prefix('e').and_then(|rest| {
                let (e, m) = rest.split_once('m')?;
                Some((e.parse().ok()?, m.parse().ok()?))
            }),
            _ => None,
        };
        return parsed.ok_or_else(|| {
            op.pos
                .syntax("`format` of `stablehlo.reduce_precision` is `eNmM` (`e5m10`)")
        });
    }
    Ok((
        int_attr(op, &["exponent_bits"])?,
        int_attr(op, &["mantissa_bits"])?,
    ))
}

fn int_attr(op: &OpSyntax, names: &[&str]) -> Result<usize> {
    for n in names {
        match op.attr(n) {
            Some(Attr::Int(x)) => return to_usize(*x, op.pos),
            Some(_) => return Err(op.pos.syntax(format!("`{n}` must be an integer"))),
            None => {}
        }
    }
    Err(op
        .pos
        .syntax(format!("`{}` needs `{} = N`", op.name, names[0])))
}

/// The `compare_type` of a `stablehlo.compare` (pretty `..., FLOAT` or generic
/// `compare_type = #stablehlo<comparison_type FLOAT>`), if written.
pub(crate) fn compare_kind(op: &OpSyntax) -> Option<String> {
    op.words
        .get(1)
        .cloned()
        .or_else(|| word_attr(op, "compare_type"))
}

fn word_attr(op: &OpSyntax, name: &str) -> Option<String> {
    match op.attr(name) {
        Some(Attr::Word(w)) => Some(w.clone()),
        _ => None,
    }
}

/// A dense literal at type `ty`: a splat if every element is equal.
pub(crate) fn literal(d: &Dense, ty: &TensorType, pos: Pos) -> Result<Literal> {
    let n = num_elements(&ty.shape);
    let dt = ty.dtype;
    let scalars: Vec<Scalar> = match d {
        Dense::Elems(elems) => elems
            .iter()
            .map(|e| scalar(e, dt, pos))
            .collect::<Result<_>>()?,
        Dense::Bytes(bytes) => {
            let size = dt.size_bytes();
            if bytes.len() % size != 0 {
                return Err(pos.invalid(format!(
                    "a dense blob of {} bytes is not made of {}",
                    bytes.len(),
                    dt.name()
                )));
            }
            bytes.chunks(size).map(|c| from_bytes(c, dt)).collect()
        }
    };
    match scalars.as_slice() {
        [s] => Ok(Literal::Splat(*s)),
        [first, rest @ ..] if scalars.len() == n && rest.iter().all(|s| s == first) => {
            Ok(Literal::Splat(*first))
        }
        // A zero-size tensor has no elements to make a splat of.
        _ if scalars.len() == n => Ok(Literal::Dense(Data::from_scalars(dt, scalars))),
        _ => Err(pos.invalid(format!(
            "a dense literal of {} elements does not fill {ty}",
            scalars.len()
        ))),
    }
}

fn float_from_bits(dt: DType, bits: u64) -> f64 {
    match dt {
        DType::F16 => half::f16::from_bits(bits as u16).to_f64(),
        DType::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        DType::F32 => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

fn from_bytes(c: &[u8], dt: DType) -> Scalar {
    let mut bits = 0u64;
    for (i, b) in c.iter().enumerate() {
        bits |= (*b as u64) << (8 * i);
    }
    match dt {
        DType::Bool => Scalar::Bool(bits != 0),
        d if d.is_int() => Scalar::Int(wrap_int(d, bits as i64)),
        _ => Scalar::Float(float_from_bits(dt, bits)),
    }
}

fn scalar(e: &Elem, dt: DType, pos: Pos) -> Result<Scalar> {
    let text = match e {
        Elem::Bool(b) => b.to_string(),
        Elem::Num(s) => s.clone(),
        Elem::Hex(h) => format!("0x{h:X}"),
    };
    let bad = |why: &str| pos.invalid(format!("`{text}` is not a valid {} value{why}", dt.name()));
    Ok(match (e, dt) {
        (Elem::Bool(b), DType::Bool) => Scalar::Bool(*b),
        (Elem::Num(s), DType::Bool) => match s.as_str() {
            "0" => Scalar::Bool(false),
            "1" => Scalar::Bool(true),
            _ => return Err(bad("")),
        },
        (Elem::Hex(h), DType::Bool) => Scalar::Bool(*h != 0),
        (Elem::Num(s), d) if d.is_int() => {
            // MLIR reads a signless integer from its signed minimum up to its unsigned
            // maximum (`4294967295 : i32` is -1), an unsigned one from 0.
            let x = s.parse::<i128>().map_err(|_| bad(""))?;
            let (lo, hi) = d.int_range().unwrap_or((0, 0));
            let top = (1i128 << d.bits()) - 1;
            let lowest = if d.is_unsigned() { 0 } else { lo };
            if x < lowest || x > hi.max(top) {
                return Err(bad(" (out of range)"));
            }
            Scalar::Int(int_from_i128(d, x))
        }
        (Elem::Hex(h), d) if d.is_int() => {
            let bits = d.bits();
            if bits < 64 && *h >> bits != 0 {
                return Err(bad(&format!(" (a bit pattern wider than {bits} bits)")));
            }
            Scalar::Int(wrap_int(d, *h as i64))
        }
        (Elem::Num(s), d) => {
            let x = parse_float(d, s).ok_or_else(|| bad(""))?;
            // A finite number past the type's range (`1e39` as f32): MLIR refuses it too.
            if x.is_infinite() && s.parse::<f64>().is_ok_and(f64::is_finite) {
                return Err(bad(" (out of range)"));
            }
            Scalar::Float(x)
        }
        (Elem::Hex(h), d) => {
            let bits = 8 * d.size_bytes() as u32;
            if bits < 64 && *h >> bits != 0 {
                return Err(bad(&format!(" (a bit pattern wider than {bits} bits)")));
            }
            Scalar::Float(round_float(d, float_from_bits(d, *h)))
        }
        (Elem::Bool(_), _) => return Err(bad("")),
    })
}

/// The elementwise op that reverses the order of dtype `d`'s values, so that a minimum is the
/// flip of the maximum of the flipped values: `neg` for floats (exact, NaN and -0.0
/// included), bitwise `not` for integers (`-x - 1` signed, `MAX - x` unsigned: no overflow).
fn order_flip(d: DType) -> UnaryOp {
    if d.is_float() {
        UnaryOp::Neg
    } else {
        UnaryOp::Not
    }
}

/// Is `name` a function's or region's return (its short form's types are its operands')?
fn is_return(name: &str) -> bool {
    matches!(name, "return" | "func.return" | "stablehlo.return")
}
