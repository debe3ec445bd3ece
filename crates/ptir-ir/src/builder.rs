//! The builder DSL: write PTIR programs as Rust, with every op type-checked as it is added.
//!
//! A [`ProgramBuilder`] declares externs and builds functions; [`ProgramBuilder::function`]
//! hands out a [`FunctionBuilder`], whose methods append one instruction each to the block
//! under construction and return a [`Val`] handle for its result. The result type of every op
//! comes from [`infer_type`], so a shape or dtype error is a [`BuildError`] at the line that
//! makes it, naming the op. [`ProgramBuilder::finish`] runs [`verify`] on the whole program.
//!
//! Region ops (`cond`, `while`, `scan`) take closures that build their regions: the closure gets
//! the same builder, now positioned in the new region, and the region's parameters. Values of
//! the enclosing blocks stay usable inside (regions capture them, as in MLIR), values made
//! inside a region are not usable after it closes.
//!
//! # Softmax
//!
//! ```
//! use ptir_ir::{verify, DType, ProgramBuilder, TensorType};
//!
//! let x_ty = TensorType::new(DType::F32, vec![4, 8]);
//! let mut pb = ProgramBuilder::new();
//! let mut f = pb.function("softmax", &[x_ty])?;
//! let x = f.param(0)?;
//! let max = f.reduce_max(x, &[1], true)?; // f32[4,1]
//! let max_b = f.broadcast_like(max, x)?; // f32[4,8]
//! let shifted = f.sub(x, max_b)?;
//! let e = f.exp(shifted)?;
//! let sum = f.reduce_sum(e, &[1], true)?;
//! let sum_b = f.broadcast_like(sum, x)?;
//! let y = f.div(e, sum_b)?;
//! f.ret(&[y])?;
//! let program = pb.finish()?; // runs `verify`
//! assert!(verify(&program).is_ok());
//! assert_eq!(program.num_insts(), 7);
//!
//! // Shape errors come out where they are made, naming the op:
//! let mut pb = ProgramBuilder::new();
//! let mut f = pb.function("bad", &[TensorType::new(DType::F32, vec![4, 8])])?;
//! let x = f.param(0)?;
//! let err = f.reduce_sum(x, &[2], false).unwrap_err();
//! assert_eq!(err.to_string(), "`reduce_sum`: axis 2 is out of range for rank 2");
//! # Ok::<(), ptir_ir::BuildError>(())
//! ```
//!
//! # Why `f.add(x, y)` and not `x.add(&y)`
//!
//! Seed 002's `PtirValue` style (`x.add(&mut graph, &y)`) needs the graph anyway, and a
//! `Rc<RefCell<..>>` inside every value to drop it would make a value decide which block an op
//! goes into. With regions that is ambiguous: inside a `while` body, `x.add(&y)` on a captured
//! outer `x` belongs in the body, not in `x`'s block. Here the builder is the insertion point
//! and values are plain `Copy` handles, so the block is always the one being built, the borrow
//! checker stops a region closure from appending to the outer block, and nothing can panic on a
//! runtime borrow.

mod op_methods;

#[cfg(any(test, feature = "testing"))]
pub(crate) use op_methods::numpy_broadcast_dims;
mod region_ops;

use crate::infer::{infer_type, InferContext};
use crate::ops::Op;
use crate::program::{
    ExternDecl, Function, Instruction, Param, Program, Region, Signature, ValueId,
};
use crate::types::{DType, TensorType, Type};
use crate::verify::{verify, VerifyError};
use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

/// What went wrong while building.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// An op was given operands or attributes that do not type-check.
    #[error("`{op}`: {message}")]
    Op {
        /// The op (or builder method) that failed.
        op: &'static str,
        /// What is wrong, from shape inference or the builder.
        message: String,
    },
    /// A name is declared twice, or a callee is not declared.
    #[error("{0}")]
    Name(String),
    /// The finished program does not verify.
    #[error("the program does not verify:\n{0}")]
    Verify(#[from] VerifyError),
}

type Result<T> = std::result::Result<T, BuildError>;

fn op_error(op: &'static str, message: impl Into<String>) -> BuildError {
    BuildError::Op {
        op,
        message: message.into(),
    }
}

/// A value under construction: a `Copy` handle to an SSA value of one [`FunctionBuilder`].
///
/// Its type is kept by the builder ([`FunctionBuilder::ty`]). Using a handle with another
/// function's builder, or after the region that defined it has closed, is a [`BuildError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Val {
    id: ValueId,
    owner: u32,
}

impl Val {
    /// The SSA value id it stands for.
    pub fn id(self) -> ValueId {
        self.id
    }
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.id)
    }
}

/// Builds a [`Program`]: extern declarations and functions, verified by [`Self::finish`].
///
/// ```
/// use ptir_ir::{DType, ProgramBuilder, TensorType, Type};
/// let t = TensorType::new(DType::F32, vec![3]);
/// let mut pb = ProgramBuilder::new();
/// pb.declare_extern("log_event", &[t.clone()], &[] as &[Type], false)?;
/// let mut f = pb.function("twice", &[t.clone()])?;
/// let x = f.param(0)?;
/// let y = f.add(x, x)?;
/// f.ret(&[y])?;
/// let mut g = pb.function("main", &[t])?;
/// let x = g.param(0)?;
/// let y = g.call("twice", &[x])?;
/// g.call("log_event", &[y])?;
/// g.ret(&[y])?;
/// let p = pb.finish()?;
/// assert_eq!(p.functions.len(), 2);
/// # Ok::<(), ptir_ir::BuildError>(())
/// ```
#[derive(Debug, Default)]
pub struct ProgramBuilder {
    program: Program,
    /// Callee name -> signature (`None`: a shape-polymorphic extern).
    signatures: FxHashMap<String, Option<Signature>>,
}

impl ProgramBuilder {
    /// An empty program.
    pub fn new() -> Self {
        Self::default()
    }

    fn claim_name(&mut self, name: &str, sig: Option<Signature>) -> Result<()> {
        if self.signatures.contains_key(name) {
            return Err(BuildError::Name(format!("@{name} is declared twice")));
        }
        self.signatures.insert(name.to_string(), sig);
        Ok(())
    }

    /// Declares an extern with a fixed signature; `pure` externs may be merged, moved and
    /// deleted by optimizers.
    pub fn declare_extern<P, R>(
        &mut self,
        name: &str,
        params: &[P],
        results: &[R],
        pure: bool,
    ) -> Result<()>
    where
        P: Clone + Into<Type>,
        R: Clone + Into<Type>,
    {
        let sig = Signature {
            params: params.iter().cloned().map(Into::into).collect(),
            results: results.iter().cloned().map(Into::into).collect(),
        };
        self.claim_name(name, Some(sig.clone()))?;
        self.program.externs.push(ExternDecl {
            name: name.to_string(),
            signature: Some(sig),
            pure,
        });
        Ok(())
    }

    /// Declares a shape-polymorphic extern: its calls state their result type
    /// ([`FunctionBuilder::call_typed`]).
    pub fn declare_polymorphic_extern(&mut self, name: &str, pure: bool) -> Result<()> {
        self.claim_name(name, None)?;
        self.program.externs.push(ExternDecl {
            name: name.to_string(),
            signature: None,
            pure,
        });
        Ok(())
    }

    /// Starts a function with parameters of the given types. It joins the program when
    /// [`FunctionBuilder::ret`] is called; it may call the functions and externs declared
    /// before it.
    pub fn function<P: Clone + Into<Type>>(
        &mut self,
        name: &str,
        params: &[P],
    ) -> Result<FunctionBuilder<'_>> {
        if self.signatures.contains_key(name) {
            return Err(BuildError::Name(format!("@{name} is declared twice")));
        }
        Ok(FunctionBuilder::new(
            self,
            name,
            params.iter().cloned().map(Into::into),
        ))
    }

    /// The signature of a declared function or extern (`Some(None)` for a polymorphic extern).
    pub fn signature(&self, name: &str) -> Option<Option<&Signature>> {
        self.signatures.get(name).map(Option::as_ref)
    }

    /// The program built so far, without verifying it.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Verifies and returns the program.
    pub fn finish(self) -> Result<Program> {
        verify(&self.program)?;
        Ok(self.program)
    }
}

/// Per value: its type and the block that defines it.
#[derive(Debug)]
struct Slot {
    ty: Type,
    block: u32,
}

/// Source of [`Val`] owner tags, so that handles of one function are refused by another.
static NEXT_OWNER: AtomicU32 = AtomicU32::new(1);

/// Builds one function (and the regions nested in it): every op method appends an instruction
/// to the innermost open block and returns its result.
///
/// Value ids are unique in the function, nested regions included, and allocated in order of
/// creation (a region op's result is allocated before its regions' values, so the printed
/// text reads in increasing order). See the [module docs](crate::builder) for an example.
#[derive(Debug)]
pub struct FunctionBuilder<'p> {
    program: &'p mut ProgramBuilder,
    name: String,
    owner: u32,
    /// Indexed by value id.
    slots: Vec<Slot>,
    /// The open blocks, innermost last; `blocks[0]` is the function body.
    blocks: Vec<Region>,
    /// The id of each open block (parallel to `blocks`).
    block_ids: Vec<u32>,
    /// Indexed by block id: is it open (are its values visible)?
    open: Vec<bool>,
    num_insts: usize,
}

impl<'p> FunctionBuilder<'p> {
    fn new(
        program: &'p mut ProgramBuilder,
        name: &str,
        params: impl Iterator<Item = Type>,
    ) -> Self {
        let mut fb = FunctionBuilder {
            program,
            name: name.to_string(),
            owner: NEXT_OWNER.fetch_add(1, Ordering::Relaxed),
            slots: Vec::new(),
            blocks: Vec::new(),
            block_ids: Vec::new(),
            open: Vec::new(),
            num_insts: 0,
        };
        let types: Vec<Type> = params.collect();
        fb.open_block(types);
        fb
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of instructions added so far (nested ones included).
    pub fn num_insts(&self) -> usize {
        self.num_insts
    }

    /// Parameter `i` of the function.
    pub fn param(&self, i: usize) -> Result<Val> {
        self.params()
            .get(i)
            .copied()
            .ok_or_else(|| op_error("param", format!("@{} has no parameter {i}", self.name)))
    }

    /// All parameters of the function.
    pub fn params(&self) -> Vec<Val> {
        let body = self.blocks.first().map_or(&[][..], |b| &b.params[..]);
        body.iter().map(|p| self.val(p.id)).collect()
    }

    fn val(&self, id: ValueId) -> Val {
        Val {
            id,
            owner: self.owner,
        }
    }

    /// The type of a value.
    pub fn ty(&self, v: Val) -> Result<&Type> {
        self.check("type", v)
    }

    /// The tensor type of a value (an error for tuples).
    pub fn tensor_type(&self, v: Val) -> Result<&TensorType> {
        self.tensor_of("type", v)
    }

    /// The shape of a tensor value.
    pub fn shape(&self, v: Val) -> Result<&[usize]> {
        Ok(&self.tensor_type(v)?.shape)
    }

    /// The element type of a tensor value.
    pub fn dtype(&self, v: Val) -> Result<DType> {
        Ok(self.tensor_type(v)?.dtype)
    }

    /// The rank of a tensor value.
    pub fn rank(&self, v: Val) -> Result<usize> {
        Ok(self.tensor_type(v)?.rank())
    }

    /// The values of the innermost open block (its parameters and results of its
    /// instructions) that no instruction built so far uses, in order of creation: the sinks
    /// of the block, what a function would return to keep everything live.
    pub fn unused_values(&self) -> Vec<Val> {
        let mut used = vec![false; self.slots.len()];
        let mut mark = |vs: &[ValueId]| {
            for v in vs {
                if let Some(u) = used.get_mut(v.0 as usize) {
                    *u = true;
                }
            }
        };
        for block in &self.blocks {
            block.walk(&mut |inst, _| {
                mark(&inst.operands);
                inst.op.regions().iter().for_each(|r| mark(&r.results));
            });
        }
        let Some(current) = self.blocks.last() else {
            return Vec::new();
        };
        let defined = current
            .params
            .iter()
            .map(|p| p.id)
            .chain(current.insts.iter().map(|i| i.result));
        defined
            .filter(|v| !used[v.0 as usize])
            .map(|v| self.val(v))
            .collect()
    }

    /// Checks that `v` belongs to this function and is visible here; returns its type.
    fn check(&self, op: &'static str, v: Val) -> Result<&Type> {
        let slot = self
            .slots
            .get(v.id.0 as usize)
            .filter(|_| v.owner == self.owner);
        let slot = slot.ok_or_else(|| op_error(op, format!("{v} belongs to another function")))?;
        if !self.open[slot.block as usize] {
            return Err(op_error(
                op,
                format!("{v} is not visible here: its region is closed"),
            ));
        }
        Ok(&slot.ty)
    }

    fn tensor_of(&self, op: &'static str, v: Val) -> Result<&TensorType> {
        let ty = self.check(op, v)?;
        ty.as_tensor()
            .ok_or_else(|| op_error(op, format!("{v} must be a tensor, found {ty}")))
    }

    /// Allocates the next value id, defined in the innermost open block.
    fn alloc(&mut self, ty: Type) -> ValueId {
        let id = ValueId(self.slots.len() as u32);
        let block = *self.block_ids.last().unwrap_or(&0);
        self.slots.push(Slot { ty, block });
        id
    }

    fn push_inst(&mut self, result: ValueId, ty: Type, op: Op, operands: Vec<ValueId>) -> Val {
        self.slots[result.0 as usize].ty = ty.clone();
        let inst = Instruction {
            result,
            ty,
            op,
            operands,
        };
        if let Some(block) = self.blocks.last_mut() {
            block.insts.push(inst);
        }
        self.num_insts += 1;
        self.val(result)
    }

    /// Opens a block with parameters of the given types; returns them.
    fn open_block(&mut self, params: Vec<Type>) -> Vec<Val> {
        self.block_ids.push(self.open.len() as u32);
        self.open.push(true);
        self.blocks.push(Region::default());
        let mut vals = Vec::with_capacity(params.len());
        for ty in params {
            let id = self.alloc(ty.clone());
            if let Some(b) = self.blocks.last_mut() {
                b.params.push(Param { id, ty });
            }
            vals.push(self.val(id));
        }
        vals
    }

    /// Closes the innermost block with the given results (checked while it is still open);
    /// returns it and the result types. The block closes even if the results are invalid.
    fn close_block(
        &mut self,
        op: &'static str,
        results: Result<Vec<Val>>,
    ) -> Result<(Region, Vec<Type>)> {
        let checked = results.and_then(|rs| {
            let types = rs
                .iter()
                .map(|&r| self.check(op, r).cloned())
                .collect::<Result<Vec<_>>>()?;
            Ok((rs, types))
        });
        let mut block = self.blocks.pop().unwrap_or_default();
        if let Some(id) = self.block_ids.pop() {
            self.open[id as usize] = false;
        }
        let (results, types) = checked?;
        block.results = results.into_iter().map(Val::id).collect();
        Ok((block, types))
    }

    /// Appends an instruction for an op without regions and returns its result.
    ///
    /// `annotated` is the result type for ops whose type is not determined by their operands
    /// (`constant`, `cast`, `reshape`, `broadcast`, `rng`, calls of polymorphic externs); for
    /// the others it is optional and checked. This is the escape hatch under the named
    /// methods, which all go through it.
    ///
    /// ```
    /// use ptir_ir::{DType, Op, ProgramBuilder, TensorType, UnaryOp};
    /// let mut pb = ProgramBuilder::new();
    /// let mut f = pb.function("f", &[TensorType::new(DType::F32, vec![2])])?;
    /// let x = f.param(0)?;
    /// let y = f.emit(Op::Unary(UnaryOp::Tanh), &[x], None)?;
    /// assert_eq!(f.ty(y)?.to_string(), "f32[2]");
    /// # Ok::<(), ptir_ir::BuildError>(())
    /// ```
    pub fn emit(&mut self, op: Op, operands: &[Val], annotated: Option<Type>) -> Result<Val> {
        let name = op.name();
        if !op.regions().is_empty() {
            return Err(op_error(
                name,
                "region ops are built with `cond`, `while_loop` and `scan`",
            ));
        }
        let types = operands
            .iter()
            .map(|&v| self.check(name, v))
            .collect::<Result<Vec<_>>>()?;
        let callee = match &op {
            Op::Call { callee } => self.callee_signature(callee)?,
            _ => None,
        };
        let cx = InferContext {
            annotated: annotated.as_ref(),
            callee: callee.as_ref(),
            region_results: &[],
        };
        let ty = infer_type(&op, &types, &cx).map_err(|m| op_error(name, m))?;
        let id = self.alloc(ty.clone());
        let operands = operands.iter().map(|v| v.id).collect();
        Ok(self.push_inst(id, ty, op, operands))
    }

    fn callee_signature(&self, callee: &str) -> Result<Option<Signature>> {
        match self.program.signatures.get(callee) {
            Some(sig) => Ok(sig.clone()),
            None => Err(op_error("call", format!("@{callee} is not declared (yet)"))),
        }
    }

    /// Ends the function with these results and adds it to the program.
    pub fn ret(mut self, results: &[Val]) -> Result<()> {
        let (body, result_types) = self.close_block("return", Ok(results.to_vec()))?;
        let name = std::mem::take(&mut self.name);
        let sig = Signature {
            params: body.params.iter().map(|p| p.ty.clone()).collect(),
            results: result_types.clone(),
        };
        self.program.claim_name(&name, Some(sig))?;
        self.program.program.functions.push(Function {
            name,
            result_types,
            body,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests;
