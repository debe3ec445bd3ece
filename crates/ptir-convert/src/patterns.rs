//! Conversion patterns: how an illegal instruction becomes legal ones.
//!
//! A [`ConversionPattern`] rewrites one instruction into a list of instructions, the last of
//! which defines the original result, with the original type; the driver then legalizes the
//! new instructions in turn (a pattern may produce ops that other patterns convert further, up
//! to [`crate::CONVERSION_DEPTH_LIMIT`]). Because the original value keeps its id and type,
//! no use needs to change: type changes are confined to the replacement, between a target
//! materialization of the operands and a source materialization of the result.
//!
//! The bundled patterns ([`default_patterns`]):
//!
//! - [`ExpandFusedCall`]: a call of a fused library extern (`@softmax_fused`, `@linear`, ...)
//!   becomes the extern's defining ops (its idiom, [`ptir_rules::externs::idiom_program`]),
//!   instantiated at the call's operand types and inlined.
//! - [`ComputeInConvertedType`]: an arithmetic op on a dtype the target's type converter
//!   converts (bf16 → f32) is computed in the converted dtype, with casts around it.

use crate::types::TypeConverter;
use ptir_ir::{
    infer_type, Function, InferContext, Instruction, Op, OpKey, Program, Region, Type, ValueId,
};
use rustc_hash::FxHashMap;

/// What a pattern may read and allocate while rewriting.
pub struct RewriteContext<'a> {
    program: &'a Program,
    types: &'a FxHashMap<ValueId, Type>,
    next: &'a mut u32,
    /// The target's type converter.
    pub converter: &'a TypeConverter,
}

impl<'a> RewriteContext<'a> {
    pub(crate) fn new(
        program: &'a Program,
        types: &'a FxHashMap<ValueId, Type>,
        next: &'a mut u32,
        converter: &'a TypeConverter,
    ) -> Self {
        RewriteContext {
            program,
            types,
            next,
            converter,
        }
    }

    /// The program being converted (as it was before the conversion).
    pub fn program(&self) -> &Program {
        self.program
    }

    /// The type of value `v` (`None` if unknown).
    pub fn type_of(&self, v: ValueId) -> Option<&Type> {
        self.types.get(&v)
    }

    /// A value id unused in the function.
    pub fn fresh(&mut self) -> ValueId {
        *self.next += 1;
        ValueId(*self.next - 1)
    }
}

/// One way to legalize an instruction (MLIR's `ConversionPattern`).
pub trait ConversionPattern: Send + Sync {
    /// The pattern's name, for reports.
    fn name(&self) -> &str;

    /// The op kind it applies to (`None`: any).
    fn root(&self) -> Option<OpKey>;

    /// Patterns with a higher benefit are tried first (default 1).
    fn benefit(&self) -> usize {
        1
    }

    /// The replacement of `inst`: instructions whose last defines `inst.result` with type
    /// `inst.ty`; `Ok(None)` if the pattern does not apply; `Err` if it applies but fails.
    fn rewrite(
        &self,
        inst: &Instruction,
        cx: &mut RewriteContext<'_>,
    ) -> Result<Option<Vec<Instruction>>, String>;
}

/// The bundled patterns: [`ExpandFusedCall`] and [`ComputeInConvertedType`].
pub fn default_patterns() -> Vec<Box<dyn ConversionPattern>> {
    vec![Box::new(ExpandFusedCall), Box::new(ComputeInConvertedType)]
}

/// Expands a call of a fused library extern into its defining ops (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct ExpandFusedCall;

impl ConversionPattern for ExpandFusedCall {
    fn name(&self) -> &str {
        "expand-fused-call"
    }

    fn root(&self) -> Option<OpKey> {
        Some(OpKey::Call)
    }

    fn rewrite(
        &self,
        inst: &Instruction,
        cx: &mut RewriteContext<'_>,
    ) -> Result<Option<Vec<Instruction>>, String> {
        let Op::Call { callee } = &inst.op else {
            return Ok(None);
        };
        if cx.program().function(callee).is_some() {
            // The program's own function of that name, not the library's.
            return Ok(None);
        }
        let types = inst
            .operands
            .iter()
            .map(|v| cx.type_of(*v).cloned().ok_or(format!("{v} has no type")))
            .collect::<Result<Vec<_>, _>>()?;
        let Some(program) = ptir_rules::externs::idiom_program(callee, &types) else {
            return Ok(None);
        };
        let program = program.map_err(|e| format!("expanding @{callee}: {e}"))?;
        let body = program
            .functions
            .first()
            .ok_or_else(|| format!("expanding @{callee}: empty idiom"))?;
        inline(body, inst, cx).map(Some)
    }
}

/// The instructions of `callee`'s body with fresh ids, its parameters bound to `call`'s
/// operands, ending with the definition of `call`'s result.
pub fn inline(
    callee: &Function,
    call: &Instruction,
    cx: &mut RewriteContext<'_>,
) -> Result<Vec<Instruction>, String> {
    let body = &callee.body;
    if body.params.len() != call.operands.len() {
        return Err(format!(
            "@{} takes {} operands, the call passes {}",
            callee.name,
            body.params.len(),
            call.operands.len()
        ));
    }
    let mut map: FxHashMap<ValueId, ValueId> = body
        .params
        .iter()
        .map(|p| p.id)
        .zip(call.operands.iter().copied())
        .collect();
    let defined: rustc_hash::FxHashSet<ValueId> = body.insts.iter().map(|i| i.result).collect();
    // A single result computed by the body is defined directly under the call's id.
    let direct = match body.results.as_slice() {
        [r] if defined.contains(r) => {
            map.insert(*r, call.result);
            true
        }
        _ => false,
    };
    let mut out = Vec::with_capacity(body.insts.len() + 1);
    for i in &body.insts {
        out.push(rename(i, &mut map, cx)?);
    }
    if direct {
        // The definition of the call's id must come last: move it there (its users in the
        // body, if any, come after it already, and nothing uses it before).
        if let Some(k) = out.iter().position(|i| i.result == call.result) {
            if out[k + 1..]
                .iter()
                .any(|i| i.operands.contains(&call.result))
            {
                // Used inside the body after its definition: keep the order, copy at the end.
                let fresh = cx.fresh();
                out[k].result = fresh;
                for i in &mut out[k + 1..] {
                    for o in &mut i.operands {
                        if *o == call.result {
                            *o = fresh;
                        }
                    }
                }
                out.push(copy(call, vec![fresh]));
            } else {
                let last = out.remove(k);
                out.push(last);
            }
        }
    } else {
        let results = body
            .results
            .iter()
            .map(|r| map.get(r).copied().ok_or(format!("{r} is not defined")))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(copy(call, results));
    }
    Ok(out)
}

/// Defines `call.result` from `values`: a tuple of several, an identity reshape of one.
fn copy(call: &Instruction, values: Vec<ValueId>) -> Instruction {
    let op = if values.len() == 1 && matches!(call.ty, Type::Tensor(_)) {
        Op::Reshape
    } else {
        Op::Tuple
    };
    Instruction {
        result: call.result,
        ty: call.ty.clone(),
        op,
        operands: values,
    }
}

/// `inst` with fresh ids for its result and every value nested in its regions, and operands
/// renamed through `map`.
fn rename(
    inst: &Instruction,
    map: &mut FxHashMap<ValueId, ValueId>,
    cx: &mut RewriteContext<'_>,
) -> Result<Instruction, String> {
    let mut out = inst.clone();
    for o in &mut out.operands {
        *o = *map.get(o).ok_or_else(|| format!("{o} is not defined"))?;
    }
    for r in out.op.regions_mut() {
        rename_region(r, map, cx)?;
    }
    let result = *map.entry(inst.result).or_insert_with(|| cx.fresh());
    out.result = result;
    Ok(out)
}

fn rename_region(
    r: &mut Region,
    map: &mut FxHashMap<ValueId, ValueId>,
    cx: &mut RewriteContext<'_>,
) -> Result<(), String> {
    for p in &mut r.params {
        let fresh = cx.fresh();
        map.insert(p.id, fresh);
        p.id = fresh;
    }
    for i in &mut r.insts {
        *i = rename(i, map, cx)?;
    }
    for v in &mut r.results {
        *v = *map.get(v).ok_or_else(|| format!("{v} is not defined"))?;
    }
    Ok(())
}

/// Computes an arithmetic op on a converted dtype (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct ComputeInConvertedType;

impl ConversionPattern for ComputeInConvertedType {
    fn name(&self) -> &str {
        "compute-in-converted-type"
    }

    fn root(&self) -> Option<OpKey> {
        None
    }

    fn rewrite(
        &self,
        inst: &Instruction,
        cx: &mut RewriteContext<'_>,
    ) -> Result<Option<Vec<Instruction>>, String> {
        let arithmetic = matches!(
            inst.op.key(),
            OpKey::Unary(_)
                | OpKey::Binary(_)
                | OpKey::Compare(_)
                | OpKey::Select
                | OpKey::Reduce(_)
                | OpKey::DotGeneral
        );
        if !arithmetic || cx.converter.is_empty() {
            return Ok(None);
        }
        let mut out = Vec::new();
        let mut operands = Vec::with_capacity(inst.operands.len());
        let mut types = Vec::with_capacity(inst.operands.len());
        let mut changed = false;
        for &v in &inst.operands {
            let ty = cx.type_of(v).cloned().ok_or(format!("{v} has no type"))?;
            match cx.converter.convert(&ty) {
                Some(to) => {
                    let cast = cx.fresh();
                    out.push(cx.converter.materialize(cast, v, to.clone()));
                    operands.push(cast);
                    types.push(to);
                    changed = true;
                }
                None => {
                    operands.push(v);
                    types.push(ty);
                }
            }
        }
        let converted_result = cx.converter.convert(&inst.ty);
        if !changed && converted_result.is_none() {
            return Ok(None);
        }
        let ty = converted_result.clone().unwrap_or_else(|| inst.ty.clone());
        let refs: Vec<&Type> = types.iter().collect();
        let icx = InferContext {
            annotated: Some(&ty),
            callee: None,
            region_results: &[],
        };
        if infer_type(&inst.op, &refs, &icx).is_err() {
            return Ok(None);
        }
        let result = match converted_result {
            Some(_) => cx.fresh(),
            None => inst.result,
        };
        out.push(Instruction {
            result,
            ty,
            op: inst.op.clone(),
            operands,
        });
        if result != inst.result {
            out.push(
                cx.converter
                    .materialize(inst.result, result, inst.ty.clone()),
            );
        }
        Ok(Some(out))
    }
}
