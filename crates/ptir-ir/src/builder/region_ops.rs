//! The region ops of the builder: `cond`, `while_loop` and `scan`, whose regions are built by
//! closures that receive the builder positioned in the new region.

use super::{op_error, FunctionBuilder, Result, Val};
use crate::infer::{infer_type, region_param_types, InferContext};
use crate::ops::Op;
use crate::types::Type;

/// Builds one region: gets the builder and the region's parameters, returns its results.
type RegionFn<'c, 'p> = Box<dyn FnOnce(&mut FunctionBuilder<'p>, &[Val]) -> Result<Vec<Val>> + 'c>;

impl<'p> FunctionBuilder<'p> {
    /// `cond(pred)`: runs `then_branch` if the `bool[]` predicate is true, else `else_branch`;
    /// both return values of the same types, which become the result (a tuple if several).
    ///
    /// ```
    /// use ptir_ir::{DType, ProgramBuilder, TensorType};
    /// let t = TensorType::new(DType::F32, vec![3]);
    /// let mut pb = ProgramBuilder::new();
    /// let mut f = pb.function("relu_or_neg", &[t, TensorType::scalar(DType::Bool)])?;
    /// let (x, p) = (f.param(0)?, f.param(1)?);
    /// let y = f.cond(
    ///     p,
    ///     |b| Ok(vec![b.neg(x)?]), // `x` is captured from the function body
    ///     |b| {
    ///         let zero = b.constant_splat(0.0, b.tensor_type(x)?.clone())?;
    ///         Ok(vec![b.max(x, zero)?])
    ///     },
    /// )?;
    /// f.ret(&[y])?;
    /// pb.finish()?;
    /// # Ok::<(), ptir_ir::BuildError>(())
    /// ```
    pub fn cond(
        &mut self,
        pred: Val,
        then_branch: impl FnOnce(&mut Self) -> Result<Vec<Val>>,
        else_branch: impl FnOnce(&mut Self) -> Result<Vec<Val>>,
    ) -> Result<Val> {
        let op = Op::Cond {
            then_region: Box::default(),
            else_region: Box::default(),
        };
        let regions: Vec<RegionFn<'_, 'p>> = vec![
            Box::new(|b, _| then_branch(b)),
            Box::new(|b, _| else_branch(b)),
        ];
        self.region_op(op, &[pred], regions)
    }

    /// `while(inits)`: the carried values start as `inits`; while `cond` (given the carried
    /// values, returning a `bool[]`) is true, `body` (given the carried values, returning new
    /// ones of the same types) runs. The result is the final carried values (a tuple if
    /// several).
    ///
    /// ```
    /// use ptir_ir::{DType, ProgramBuilder, TensorType};
    /// let mut pb = ProgramBuilder::new();
    /// let mut f = pb.function("pow3", &[TensorType::new(DType::F32, vec![2])])?;
    /// let x = f.param(0)?;
    /// let i0 = f.scalar(0.0, DType::I32)?;
    /// let acc0 = f.constant_splat(1.0, f.tensor_type(x)?.clone())?;
    /// let out = f.while_loop(
    ///     &[i0, acc0],
    ///     |c, p| {
    ///         let n = c.scalar(3.0, DType::I32)?;
    ///         c.lt(p[0], n)
    ///     },
    ///     |b, p| {
    ///         let one = b.scalar(1.0, DType::I32)?;
    ///         Ok(vec![b.add(p[0], one)?, b.mul(p[1], x)?])
    ///     },
    /// )?;
    /// let acc = f.tuple_get(out, 1)?;
    /// f.ret(&[acc])?;
    /// pb.finish()?;
    /// # Ok::<(), ptir_ir::BuildError>(())
    /// ```
    pub fn while_loop(
        &mut self,
        inits: &[Val],
        cond: impl FnOnce(&mut Self, &[Val]) -> Result<Val>,
        body: impl FnOnce(&mut Self, &[Val]) -> Result<Vec<Val>>,
    ) -> Result<Val> {
        let op = Op::While {
            cond: Box::default(),
            body: Box::default(),
        };
        let regions: Vec<RegionFn<'_, 'p>> = vec![
            Box::new(|b, ps| Ok(vec![cond(b, ps)?])),
            Box::new(|b, ps| body(b, ps)),
        ];
        self.region_op(op, inits, regions)
    }

    /// `scan(carries, xs)` over `length` steps: `body` gets the carried values and the step's
    /// slice of every `xs` (each has leading dim `length`) and returns the new carried values
    /// followed by the step's outputs `ys`. The result is the final carries, then every `ys`
    /// stacked along a new leading dim (a tuple if several).
    ///
    /// ```
    /// use ptir_ir::{DType, ProgramBuilder, TensorType};
    /// let mut pb = ProgramBuilder::new();
    /// let mut f = pb.function("cumsum", &[TensorType::new(DType::F32, vec![4, 2])])?;
    /// let xs = f.param(0)?;
    /// let zero = f.constant_splat(0.0, TensorType::new(DType::F32, vec![2]))?;
    /// let out = f.scan(4, &[zero], &[xs], |b, carry, x| {
    ///     let s = b.add(carry[0], x[0])?;
    ///     Ok(vec![s, s])
    /// })?;
    /// assert_eq!(f.ty(out)?.to_string(), "(f32[2], f32[4,2])");
    /// # Ok::<(), ptir_ir::BuildError>(())
    /// ```
    pub fn scan(
        &mut self,
        length: usize,
        carries: &[Val],
        xs: &[Val],
        body: impl FnOnce(&mut Self, &[Val], &[Val]) -> Result<Vec<Val>>,
    ) -> Result<Val> {
        let num_carry = carries.len();
        let op = Op::Scan {
            num_carry,
            length,
            body: Box::default(),
        };
        let operands: Vec<Val> = carries.iter().chain(xs).copied().collect();
        let regions: Vec<RegionFn<'_, 'p>> = vec![Box::new(move |b, ps| {
            let (c, x) = ps.split_at(num_carry.min(ps.len()));
            body(b, c, x)
        })];
        self.region_op(op, &operands, regions)
    }

    /// Builds a region op: types its operands, allocates its result (so that ids read in
    /// order), builds each region in a fresh block, then infers the result type from the
    /// regions' results.
    fn region_op(
        &mut self,
        mut op: Op,
        operands: &[Val],
        regions: Vec<RegionFn<'_, 'p>>,
    ) -> Result<Val> {
        let name = op.name();
        let types = operands
            .iter()
            .map(|&v| self.check(name, v).cloned())
            .collect::<Result<Vec<Type>>>()?;
        let type_refs: Vec<&Type> = types.iter().collect();
        let params = region_param_types(&op, &type_refs).map_err(|m| op_error(name, m))?;
        let result = self.alloc(Type::Tuple(vec![]));
        let mut built = Vec::with_capacity(regions.len());
        let mut region_results = Vec::with_capacity(regions.len());
        for (build, param_types) in regions.into_iter().zip(params) {
            let vals = self.open_block(param_types);
            let results = build(self, &vals);
            let (region, result_types) = self.close_block(name, results)?;
            built.push(region);
            region_results.push(result_types);
        }
        for (slot, region) in op.regions_mut().into_iter().zip(built) {
            *slot = region;
        }
        let cx = InferContext {
            annotated: None,
            callee: None,
            region_results: &region_results,
        };
        let ty = infer_type(&op, &type_refs, &cx).map_err(|m| op_error(name, m))?;
        let operand_ids = operands.iter().map(|v| v.id()).collect();
        Ok(self.push_inst(result, ty, op, operand_ids))
    }
}
