//! The conversion driver: legalizes a program for a target, all or nothing.
//!
//! The details are on [`apply_conversion`].

use crate::patterns::{ConversionPattern, RewriteContext};
use crate::target::{ConversionTarget, Legality};
use indexmap::IndexMap;
use ptir_ir::{print_inst, Function, Instruction, Program, Region, Type, ValueId};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::fmt;

/// How deep replacements of replacements may go before the driver gives up on an
/// instruction: a pattern set that keeps producing illegal ops (a cycle) fails there instead
/// of looping.
pub const CONVERSION_DEPTH_LIMIT: usize = 32;

/// Which conversion (see [`apply_conversion`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConversionMode {
    /// Illegal ops must go; unknown ones may stay.
    Partial,
    /// Every op must end legal.
    Full,
    /// Change nothing; report what would be legalized.
    Analysis,
}

/// An instruction that could not be legalized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalOp {
    /// The function it is in.
    pub function: String,
    /// Its result.
    pub value: ValueId,
    /// The instruction, printed.
    pub instruction: String,
    /// What the target said of it.
    pub legality: Legality,
    /// Why no pattern legalized it.
    pub reason: String,
}

impl fmt::Display for IllegalOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.legality {
            Legality::Illegal => "illegal",
            _ => "not known to be legal",
        };
        write!(
            f,
            "@{}: `{}` is {what}: {}",
            self.function,
            self.instruction.trim(),
            self.reason
        )
    }
}

/// Why a conversion failed (the program is unchanged).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConversionError {
    /// Some instructions could not be legalized.
    #[error("conversion to target `{target}` failed: {} op(s) could not be legalized:\n  {}", .ops.len(), .ops.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n  "))]
    Illegal {
        /// The target's name.
        target: String,
        /// Every instruction that could not be legalized, in program order.
        ops: Vec<IllegalOp>,
    },
    /// The converted program does not verify (a pattern bug).
    #[error("conversion to target `{target}` produced a program that does not verify: {message}")]
    Verify {
        /// The target's name.
        target: String,
        /// The verifier's diagnostics.
        message: String,
    },
}

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConversionReport {
    /// Rewrites per pattern, in first-use order.
    pub rewrites: IndexMap<String, usize>,
    /// Instructions that could not be legalized (only an [`ConversionMode::Analysis`] or a
    /// partial conversion with unknown ops reports any without failing).
    pub not_legalized: Vec<IllegalOp>,
}

impl ConversionReport {
    /// Total rewrites.
    pub fn total(&self) -> usize {
        self.rewrites.values().sum()
    }
}

/// Converts `program` for `target` with `patterns`.
///
/// The story, per function: walk every block in order (regions before the op that owns them);
/// for each instruction ask the target ([`ConversionTarget::legality`]); an illegal one (or an
/// unknown one, in a full conversion) is rewritten by the first pattern, by benefit, that
/// applies, and the replacement instructions are legalized in their turn, up to
/// [`CONVERSION_DEPTH_LIMIT`] rewrites deep. What no pattern legalizes is recorded.
///
/// The modes are MLIR's:
///
/// - [`ConversionMode::Full`]: every instruction must end legal; otherwise the program is left
///   untouched and the error lists every instruction that could not be legalized.
/// - [`ConversionMode::Partial`]: instructions the target calls illegal must be legalized;
///   unknown ones may stay. Failure leaves the program untouched, as above.
/// - [`ConversionMode::Analysis`]: nothing changes; the report says which instructions would be
///   legalized and which could not be.
///
/// Rollback is by construction: the driver converts a copy and commits it only when the
/// conversion succeeded and the result verifies. Extern declarations that only the converted
/// calls used are dropped.
///
/// ```
/// use ptir_convert::{apply_conversion, default_patterns, ConversionMode, ConversionTarget};
/// let mut p = ptir_ir::parse(
///     "extern @softmax_fused(f32[2,4]) -> (f32[2,4]) pure\n\
///      func @f(%x: f32[2,4]) -> (f32[2,4]) {\n  %y = call @softmax_fused(%x) : f32[2,4]\n  return %y\n}",
/// )?;
/// let target = ConversionTarget::bundled("portable").unwrap();
/// let report = apply_conversion(&mut p, &target, &default_patterns(), ConversionMode::Full)?;
/// assert_eq!(report.rewrites["expand-fused-call"], 1);
/// assert!(p.externs.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn apply_conversion(
    program: &mut Program,
    target: &ConversionTarget,
    patterns: &[Box<dyn ConversionPattern>],
    mode: ConversionMode,
) -> Result<ConversionReport, ConversionError> {
    let mut ordered: Vec<&dyn ConversionPattern> = patterns.iter().map(|p| p.as_ref()).collect();
    ordered.sort_by_key(|p| std::cmp::Reverse(p.benefit()));
    let mut out = program.clone();
    let mut report = ConversionReport::default();
    let mut failed = Vec::new();
    for f in &mut out.functions {
        let mut cv = Converter {
            program,
            target,
            patterns: &ordered,
            mode,
            types: FxHashMap::default(),
            next: f.fresh_value_id().0,
            function: f.name.clone(),
            report: &mut report,
            failed: &mut failed,
        };
        cv.function(f);
    }
    let fail = |ops| ConversionError::Illegal {
        target: target.name.clone(),
        ops,
    };
    match mode {
        ConversionMode::Analysis => {
            report.not_legalized = failed;
            return Ok(report);
        }
        ConversionMode::Full if !failed.is_empty() => return Err(fail(failed)),
        ConversionMode::Partial => {
            let (illegal, unknown): (Vec<_>, Vec<_>) = failed
                .into_iter()
                .partition(|o| o.legality == Legality::Illegal);
            if !illegal.is_empty() {
                return Err(fail(illegal));
            }
            report.not_legalized = unknown;
        }
        ConversionMode::Full => {}
    }
    drop_unused_illegal_externs(&mut out, target);
    ptir_ir::verify(&out).map_err(|e| ConversionError::Verify {
        target: target.name.clone(),
        message: e.to_string(),
    })?;
    *program = out;
    Ok(report)
}

/// Removes extern declarations the target makes illegal that nothing calls any more.
fn drop_unused_illegal_externs(program: &mut Program, target: &ConversionTarget) {
    let called = program.called_names();
    let unused: rustc_hash::FxHashSet<String> = program
        .externs
        .iter()
        .filter(|e| !called.contains(&e.name) && target.is_illegal_callee(&e.name, program))
        .map(|e| e.name.clone())
        .collect();
    program.externs.retain(|e| !unused.contains(&e.name));
}

struct Converter<'a> {
    /// The program as it was: what its functions are.
    program: &'a Program,
    target: &'a ConversionTarget,
    patterns: &'a [&'a dyn ConversionPattern],
    mode: ConversionMode,
    types: FxHashMap<ValueId, Type>,
    next: u32,
    function: String,
    report: &'a mut ConversionReport,
    failed: &'a mut Vec<IllegalOp>,
}

impl Converter<'_> {
    fn function(&mut self, f: &mut Function) {
        self.types = crate::outline::value_types(f);
        self.block(&mut f.body);
    }

    /// Legalizes the instructions of `region` (and of the regions nested in them).
    fn block(&mut self, region: &mut Region) {
        let mut queue: VecDeque<(Instruction, usize)> =
            region.insts.drain(..).map(|i| (i, 0)).collect();
        let mut out = Vec::with_capacity(queue.len());
        while let Some((mut inst, depth)) = queue.pop_front() {
            for r in inst.op.regions_mut() {
                self.block(r);
            }
            let legality = {
                let operands: Vec<&Type> = inst
                    .operands
                    .iter()
                    .filter_map(|v| self.types.get(v))
                    .collect();
                self.target.legality(&inst, &operands, self.program)
            };
            let must_convert = match legality {
                Legality::Legal => false,
                Legality::Illegal => true,
                Legality::Unknown => self.mode == ConversionMode::Full,
            };
            if !must_convert {
                out.push(inst);
                continue;
            }
            match self.rewrite(&inst, depth) {
                Ok(replacement) => {
                    for i in replacement.into_iter().rev() {
                        self.types.insert(i.result, i.ty.clone());
                        queue.push_front((i, depth + 1));
                    }
                }
                Err(reason) => {
                    if legality == Legality::Illegal || self.mode != ConversionMode::Partial {
                        self.failed.push(IllegalOp {
                            function: self.function.clone(),
                            value: inst.result,
                            instruction: print_inst(&inst),
                            legality,
                            reason,
                        });
                    }
                    out.push(inst);
                }
            }
        }
        region.insts = out;
    }

    /// The replacement of `inst` by the first pattern that applies.
    fn rewrite(&mut self, inst: &Instruction, depth: usize) -> Result<Vec<Instruction>, String> {
        if depth >= CONVERSION_DEPTH_LIMIT {
            return Err(format!(
                "still illegal after {CONVERSION_DEPTH_LIMIT} nested rewrites (do the patterns cycle?)"
            ));
        }
        let key = inst.op.key();
        let mut errors = Vec::new();
        for p in self.patterns {
            if p.root().is_some_and(|r| r != key) {
                continue;
            }
            let mut cx = RewriteContext::new(
                self.program,
                &self.types,
                &mut self.next,
                &self.target.type_converter,
            );
            match p.rewrite(inst, &mut cx) {
                Ok(Some(replacement)) => {
                    *self
                        .report
                        .rewrites
                        .entry(p.name().to_string())
                        .or_default() += 1;
                    return Ok(replacement);
                }
                Ok(None) => {}
                Err(e) => errors.push(format!("{}: {e}", p.name())),
            }
        }
        Err(if errors.is_empty() {
            "no pattern applies".to_string()
        } else {
            errors.join("; ")
        })
    }
}
