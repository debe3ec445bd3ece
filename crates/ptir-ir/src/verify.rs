//! The verifier: the one definition of a well-formed program.
//!
//! It checks SSA (every value defined once, defined before use, visible from the use's region),
//! names (functions and externs unique, callees declared), and types: every instruction's
//! annotated type must equal what [`crate::infer`] derives, region parameters and results must
//! match their op, functions must return their declared types. It reports every problem it
//! finds, each naming the function, the instruction and the rule broken.

use crate::infer::{infer_type, region_param_types, InferContext};
use crate::ops::Op;
use crate::program::{Function, Instruction, Program, Region, Signature, ValueId};
use crate::tensor::{Data, Literal};
use crate::types::{TensorType, Type};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The function (or extern) it is in.
    pub function: String,
    /// The instruction, if it is about one.
    pub inst: Option<ValueId>,
    /// The op name of that instruction.
    pub op: Option<&'static str>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "in @{}", self.function)?;
        if let (Some(v), Some(op)) = (self.inst, self.op) {
            write!(f, ", instruction {v} = {op}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Every problem the verifier found (at least one).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct VerifyError {
    /// The problems, in program order.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

/// Checks that `lit` is a valid payload for a constant of type `ty`.
pub fn check_literal(lit: &Literal, ty: &TensorType) -> Result<(), String> {
    let fits_all = |d: &Data| d.iter().all(|s| s.fits(ty.dtype));
    match lit {
        Literal::Splat(s) if !s.fits(ty.dtype) => {
            Err(format!("splat value {s} is not a {}", ty.dtype))
        }
        Literal::Dense(d) if d.len() != ty.num_elements() => Err(format!(
            "dense literal has {} elements, {ty} needs {}",
            d.len(),
            ty.num_elements()
        )),
        Literal::Dense(d) if !fits_all(d) => {
            Err(format!("dense literal elements are not all {}", ty.dtype))
        }
        _ => Ok(()),
    }
}

/// Verifies a whole program.
///
/// ```
/// let p = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[2]) {\n  %1 = exp %0 : f32[2]\n  return %1\n}\n").unwrap();
/// assert!(ptir_ir::verify(&p).is_ok());
/// let bad = ptir_ir::parse("func @f(%0: f32[2]) -> (f32[3]) {\n  return %0\n}\n").unwrap();
/// let err = ptir_ir::verify(&bad).unwrap_err();
/// assert!(err.to_string().contains("returns (f32[2]) but is declared to return (f32[3])"));
/// ```
pub fn verify(program: &Program) -> Result<(), VerifyError> {
    let mut v = Verifier {
        signatures: FxHashMap::default(),
        diagnostics: Vec::new(),
        function: String::new(),
    };
    v.collect_signatures(program);
    for f in &program.functions {
        v.function.clone_from(&f.name);
        v.function_body(f);
    }
    if v.diagnostics.is_empty() {
        Ok(())
    } else {
        Err(VerifyError {
            diagnostics: v.diagnostics,
        })
    }
}

struct Verifier<'p> {
    /// Callee name -> its signature (`None` for a polymorphic extern).
    signatures: FxHashMap<&'p str, Option<Signature>>,
    diagnostics: Vec<Diagnostic>,
    function: String,
}

/// The values of one function: which ids were ever defined (SSA: once), and which are visible
/// at the current point with their types. `scopes` records, per open block, the values it
/// defined, so they stop being visible when the block ends.
#[derive(Default)]
struct Scope<'p> {
    defined: FxHashSet<ValueId>,
    visible: FxHashMap<ValueId, &'p Type>,
    scopes: Vec<Vec<ValueId>>,
}

impl<'p> Verifier<'p> {
    fn error(&mut self, inst: Option<&Instruction>, message: String) {
        self.diagnostics.push(Diagnostic {
            function: self.function.clone(),
            inst: inst.map(|i| i.result),
            op: inst.map(|i| i.op.name()),
            message,
        });
    }

    fn collect_signatures(&mut self, program: &'p Program) {
        for e in &program.externs {
            if self
                .signatures
                .insert(&e.name, e.signature.clone())
                .is_some()
            {
                self.function.clone_from(&e.name);
                self.error(None, format!("@{} is declared twice", e.name));
            }
        }
        for f in &program.functions {
            let sig = Signature {
                params: f.param_types(),
                results: f.result_types.clone(),
            };
            if self.signatures.insert(&f.name, Some(sig)).is_some() {
                self.function.clone_from(&f.name);
                self.error(None, format!("@{} is defined twice", f.name));
            }
        }
    }

    fn function_body(&mut self, f: &'p Function) {
        let mut scope = Scope::default();
        let results = self.block(&f.body, &mut scope, None);
        if results != f.result_types {
            self.error(
                None,
                format!(
                    "returns {} but is declared to return {}",
                    type_list(&results),
                    type_list(&f.result_types)
                ),
            );
        }
    }

    /// Checks a block; returns the types of its results (unknown results are skipped after
    /// being reported).
    fn block(
        &mut self,
        region: &'p Region,
        scope: &mut Scope<'p>,
        owner: Option<&Instruction>,
    ) -> Vec<Type> {
        scope.scopes.push(Vec::new());
        for p in &region.params {
            self.define(p.id, &p.ty, scope, owner);
        }
        for inst in &region.insts {
            self.instruction(inst, scope);
        }
        let mut results = Vec::new();
        for r in &region.results {
            match scope.visible.get(r) {
                Some(t) => results.push((*t).clone()),
                None => self.error(owner, format!("returns {r}, which is not visible here")),
            }
        }
        for v in scope.scopes.pop().unwrap_or_default() {
            scope.visible.remove(&v);
        }
        results
    }

    fn define(
        &mut self,
        v: ValueId,
        ty: &'p Type,
        scope: &mut Scope<'p>,
        at: Option<&Instruction>,
    ) {
        if !scope.defined.insert(v) {
            self.error(at, format!("{v} is defined more than once"));
        }
        scope.visible.insert(v, ty);
        if let Some(s) = scope.scopes.last_mut() {
            s.push(v);
        }
    }

    fn instruction(&mut self, inst: &'p Instruction, scope: &mut Scope<'p>) {
        let mut operand_types = Vec::with_capacity(inst.operands.len());
        for v in &inst.operands {
            match scope.visible.get(v) {
                Some(t) => operand_types.push(*t),
                None if scope.defined.contains(v) => self.error(
                    Some(inst),
                    format!("uses {v}, which is not visible from this region"),
                ),
                None => self.error(Some(inst), format!("uses {v} before its definition")),
            }
        }
        if operand_types.len() == inst.operands.len() {
            self.check_type(inst, &operand_types, scope);
        }
        self.define(inst.result, &inst.ty, scope, Some(inst));
    }

    fn check_type(&mut self, inst: &'p Instruction, operands: &[&'p Type], scope: &mut Scope<'p>) {
        let region_results = match self.regions(inst, operands, scope) {
            Some(r) => r,
            None => return,
        };
        let callee = match &inst.op {
            Op::Call { callee } => match self.signatures.get(callee.as_str()) {
                Some(sig) => sig.clone(),
                None => {
                    return self.error(
                        Some(inst),
                        format!("calls @{callee}, which is not declared"),
                    )
                }
            },
            _ => None,
        };
        let cx = InferContext {
            annotated: Some(&inst.ty),
            callee: callee.as_ref(),
            region_results: &region_results,
        };
        if let Err(e) = infer_type(&inst.op, operands, &cx) {
            self.error(Some(inst), e);
        }
    }

    /// Checks the regions of a region op and returns their result types (`None` if the op's
    /// operands already make the regions uncheckable).
    fn regions(
        &mut self,
        inst: &'p Instruction,
        operands: &[&'p Type],
        scope: &mut Scope<'p>,
    ) -> Option<Vec<Vec<Type>>> {
        let regions = inst.op.regions();
        if regions.is_empty() {
            return Some(Vec::new());
        }
        let expected = match region_param_types(&inst.op, operands) {
            Ok(e) => e,
            Err(e) => {
                self.error(Some(inst), e);
                return None;
            }
        };
        let mut results = Vec::new();
        for (i, (region, params)) in regions.into_iter().zip(expected).enumerate() {
            let declared: Vec<Type> = region.params.iter().map(|p| p.ty.clone()).collect();
            if declared != params {
                self.error(
                    Some(inst),
                    format!(
                        "region {i} takes {} but must take {}",
                        type_list(&declared),
                        type_list(&params)
                    ),
                );
            }
            results.push(self.block(region, scope, Some(inst)));
        }
        Some(results)
    }
}

fn type_list(ts: &[Type]) -> String {
    let items: Vec<String> = ts.iter().map(Type::to_string).collect();
    format!("({})", items.join(", "))
}
