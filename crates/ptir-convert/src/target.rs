//! Conversion targets: which ops, callees and dtypes are legal after a conversion.
//!
//! The details are on [`ConversionTarget`].

use crate::types::TypeConverter;
use indexmap::IndexSet;
use ptir_ir::{DType, Instruction, Op, OpKey, Program, Type};
use std::fmt;
use std::sync::Arc;

/// What a target says of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Legality {
    /// It may stay.
    Legal,
    /// It must be converted.
    Illegal,
    /// The target does not say: a partial conversion keeps it, a full one fails on it.
    Unknown,
}

/// A dynamic legality predicate: given the instruction and its operand types, `Some(legal)`
/// decides, `None` defers to the static rules.
pub type DynamicLegality = Arc<dyn Fn(&Instruction, &[&Type]) -> Option<bool> + Send + Sync>;

/// A set of names that may be "everything".
#[derive(Clone, Debug, PartialEq, Eq, Default)]
enum Names<T: std::hash::Hash + Eq> {
    #[default]
    Unset,
    All,
    Some(IndexSet<T>),
}

impl<T: std::hash::Hash + Eq> Names<T> {
    fn contains(&self, t: &T) -> bool {
        match self {
            Names::Unset => false,
            Names::All => true,
            Names::Some(s) => s.contains(t),
        }
    }

    fn insert(&mut self, t: T) {
        match self {
            Names::All => {}
            Names::Unset => *self = Names::Some(IndexSet::from([t])),
            Names::Some(s) => {
                s.insert(t);
            }
        }
    }
}

/// Which ops, callees and dtypes are legal.
///
/// A target says, for every instruction, whether it is [`Legality::Legal`], [`Legality::Illegal`]
/// or [`Legality::Unknown`] (neither: a partial conversion leaves it, a full one fails on it),
/// as MLIR's `ConversionTarget` does. Legality comes, in this order, from:
///
/// 1. dynamic predicates ([`ConversionTarget::add_dynamic`], MLIR's `addDynamicallyLegalOp`),
///    which may decide for the ops they are registered for;
/// 2. illegal op kinds and illegal callees;
/// 3. legal op kinds, provided every tensor the op reads or writes has a legal dtype (unless the
///    op kind is dtype-exempt: data movement, casts, calls and region ops).
///
/// A target is also a small text file a user can write ([`ConversionTarget::parse`]); the
/// bundled ones are in `crates/ptir-convert/targets/`:
///
/// ```text
/// # comments run to the end of the line
/// target f32                                # the name
/// legal-ops *                               # op kinds, by keyword, or * for all
/// illegal-ops rng                           # op kinds that must be converted away
/// illegal-calls fused my_extern             # callees; `fused` names every fused library extern
/// legal-dtypes f32 f64 i32 i64 bool         # or * for all
/// dtype-exempt-ops cast reshape             # op kinds legal whatever their dtypes
/// convert-dtype bf16 f32                    # the type converter: compute bf16 as f32
/// ```
///
/// ```
/// use ptir_convert::{ConversionTarget, Legality};
/// use ptir_ir::{Instruction, Op, Type, TensorType, DType, ValueId};
/// let target = ConversionTarget::bundled("portable").unwrap();
/// let call = Instruction {
///     result: ValueId(1),
///     ty: Type::Tensor(TensorType::new(DType::F32, vec![4])),
///     op: Op::Call { callee: "softmax_fused".into() },
///     operands: vec![ValueId(0)],
/// };
/// let f32s = call.ty.clone();
/// let program = ptir_ir::Program::default();
/// assert_eq!(target.legality(&call, &[&f32s], &program), Legality::Illegal);
/// ```
#[derive(Clone, Default)]
pub struct ConversionTarget {
    /// The target's name.
    pub name: String,
    legal_ops: Names<OpKey>,
    illegal_ops: IndexSet<OpKey>,
    illegal_calls: IndexSet<String>,
    illegal_fused_calls: bool,
    legal_dtypes: Names<DType>,
    dtype_exempt: IndexSet<OpKey>,
    dynamic: Vec<(Option<OpKey>, DynamicLegality)>,
    /// How values of illegal dtypes are converted (empty: no type conversion).
    pub type_converter: TypeConverter,
}

impl fmt::Debug for ConversionTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConversionTarget")
            .field("name", &self.name)
            .field("legal_ops", &self.legal_ops)
            .field("illegal_ops", &self.illegal_ops)
            .field("illegal_calls", &self.illegal_calls)
            .field("illegal_fused_calls", &self.illegal_fused_calls)
            .field("legal_dtypes", &self.legal_dtypes)
            .field("dynamic", &self.dynamic.len())
            .finish()
    }
}

/// The bundled targets: name and text.
pub const BUNDLED_TARGETS: &[(&str, &str)] = &[
    ("portable", include_str!("../targets/portable.target")),
    ("f32", include_str!("../targets/f32.target")),
];

/// A target file that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct TargetError {
    /// The file (or `<bundled NAME>`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl ConversionTarget {
    /// An empty target named `name`: nothing is legal or illegal.
    pub fn new(name: impl Into<String>) -> Self {
        ConversionTarget {
            name: name.into(),
            ..ConversionTarget::default()
        }
    }

    /// The bundled target `name` (`portable`, `f32`).
    pub fn bundled(name: &str) -> Option<ConversionTarget> {
        let (_, text) = BUNDLED_TARGETS.iter().find(|(n, _)| *n == name)?;
        ConversionTarget::parse(&format!("<bundled {name}>"), text).ok()
    }

    /// Marks every op kind legal (subject to dtypes).
    pub fn legal_all_ops(mut self) -> Self {
        self.legal_ops = Names::All;
        self
    }

    /// Marks op kind `key` legal (subject to dtypes).
    pub fn legal_op(mut self, key: OpKey) -> Self {
        self.legal_ops.insert(key);
        self
    }

    /// Marks op kind `key` illegal.
    pub fn illegal_op(mut self, key: OpKey) -> Self {
        self.illegal_ops.insert(key);
        self
    }

    /// Marks calls of `callee` illegal.
    pub fn illegal_call(mut self, callee: impl Into<String>) -> Self {
        self.illegal_calls.insert(callee.into());
        self
    }

    /// Marks calls of every fused library extern illegal (those with a reference body,
    /// [`ptir_rules::externs::reference_names`]).
    pub fn illegal_fused_calls(mut self) -> Self {
        self.illegal_fused_calls = true;
        self
    }

    /// Makes `dtype` legal (once any dtype is named, the others are not).
    pub fn legal_dtype(mut self, dtype: DType) -> Self {
        self.legal_dtypes.insert(dtype);
        self
    }

    /// Makes op kind `key` legal whatever its dtypes.
    pub fn dtype_exempt(mut self, key: OpKey) -> Self {
        self.dtype_exempt.insert(key);
        self
    }

    /// Registers a dynamic legality predicate for op kind `key` (`None`: every kind).
    pub fn add_dynamic(mut self, key: Option<OpKey>, predicate: DynamicLegality) -> Self {
        self.dynamic.push((key, predicate));
        self
    }

    /// Is `callee` an illegal callee in `program`? A function the program defines is never a
    /// fused library extern, whatever its name.
    pub fn is_illegal_callee(&self, callee: &str, program: &Program) -> bool {
        self.illegal_calls.contains(callee)
            || (self.illegal_fused_calls
                && ptir_rules::externs::has_reference(callee)
                && program.function(callee).is_none())
    }

    /// Do all tensors of `inst` (result and operands) have legal dtypes?
    pub fn dtypes_legal(&self, inst: &Instruction, operands: &[&Type]) -> bool {
        if matches!(self.legal_dtypes, Names::Unset | Names::All)
            || self.dtype_exempt.contains(&inst.op.key())
        {
            return true;
        }
        let mut ok = true;
        for t in std::iter::once(&inst.ty).chain(operands.iter().copied()) {
            each_dtype(t, &mut |d| ok &= self.legal_dtypes.contains(&d));
        }
        ok
    }

    /// What the target says of `inst`, an instruction of `program` whose operands have types
    /// `operands`.
    pub fn legality(&self, inst: &Instruction, operands: &[&Type], program: &Program) -> Legality {
        let key = inst.op.key();
        for (k, predicate) in &self.dynamic {
            if k.is_none_or(|k| k == key) {
                if let Some(legal) = predicate(inst, operands) {
                    return if legal {
                        Legality::Legal
                    } else {
                        Legality::Illegal
                    };
                }
            }
        }
        if self.illegal_ops.contains(&key) {
            return Legality::Illegal;
        }
        if let Op::Call { callee } = &inst.op {
            if self.is_illegal_callee(callee, program) {
                return Legality::Illegal;
            }
        }
        match (
            self.legal_ops.contains(&key),
            self.dtypes_legal(inst, operands),
        ) {
            (true, true) => Legality::Legal,
            (true, false) => Legality::Illegal,
            (false, _) => Legality::Unknown,
        }
    }

    /// Parses a target file (the syntax is in [`ConversionTarget`]'s docs).
    pub fn parse(file: &str, text: &str) -> Result<ConversionTarget, TargetError> {
        let mut target = ConversionTarget::default();
        let mut named = false;
        for (n, line) in text.lines().enumerate() {
            let code = line.split('#').next().unwrap_or("");
            let mut words = words_with_columns(code);
            let Some((col, key)) = words.next() else {
                continue;
            };
            let err = |column: usize, message: String| TargetError {
                file: file.to_string(),
                line: n + 1,
                column,
                message,
            };
            let args: Vec<(usize, &str)> = words.collect();
            let op = |(c, w): (usize, &str)| {
                OpKey::from_name(w).ok_or_else(|| err(c, format!("unknown op kind `{w}`")))
            };
            let dtype = |(c, w): (usize, &str)| {
                DType::from_name(w).ok_or_else(|| err(c, format!("unknown dtype `{w}`")))
            };
            let star = args.len() == 1 && args[0].1 == "*";
            match key {
                "target" => match args.as_slice() {
                    [(_, name)] => {
                        target.name = name.to_string();
                        named = true;
                    }
                    _ => return Err(err(col, "`target` takes one name".into())),
                },
                "legal-ops" if star => target.legal_ops = Names::All,
                "legal-ops" => {
                    for a in &args {
                        target.legal_ops.insert(op(*a)?);
                    }
                }
                "illegal-ops" => {
                    for a in &args {
                        target.illegal_ops.insert(op(*a)?);
                    }
                }
                "dtype-exempt-ops" => {
                    for a in &args {
                        target.dtype_exempt.insert(op(*a)?);
                    }
                }
                "illegal-calls" => {
                    for (_, w) in &args {
                        match *w {
                            "fused" => target.illegal_fused_calls = true,
                            w => {
                                target
                                    .illegal_calls
                                    .insert(w.trim_start_matches('@').into());
                            }
                        }
                    }
                }
                "legal-dtypes" if star => target.legal_dtypes = Names::All,
                "legal-dtypes" => {
                    for a in &args {
                        target.legal_dtypes.insert(dtype(*a)?);
                    }
                }
                "convert-dtype" => match args.as_slice() {
                    [from, to] => {
                        let (from, to) = (dtype(*from)?, dtype(*to)?);
                        if !from.embeds_exactly_in(to) {
                            return Err(err(
                                col,
                                format!(
                                    "`convert-dtype {from} {to}` would change values: not every \
                                     {from} is a {to} (convert to a dtype that holds them all)"
                                ),
                            ));
                        }
                        target.type_converter.add(from, to);
                    }
                    _ => {
                        return Err(err(
                            col,
                            "`convert-dtype` takes two dtypes: from and to".into(),
                        ))
                    }
                },
                other => {
                    return Err(err(
                        col,
                        format!(
                            "unknown directive `{other}` (expected target, legal-ops, \
                             illegal-ops, illegal-calls, legal-dtypes, dtype-exempt-ops or \
                             convert-dtype)"
                        ),
                    ))
                }
            }
        }
        if !named {
            return Err(TargetError {
                file: file.to_string(),
                line: 1,
                column: 1,
                message: "missing `target NAME`".into(),
            });
        }
        Ok(target)
    }
}

/// Calls `f` on the dtype of every tensor in `t`.
fn each_dtype(t: &Type, f: &mut impl FnMut(DType)) {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match t {
            Type::Tensor(t) => f(t.dtype),
            Type::Tuple(ts) => stack.extend(ts),
        }
    }
}

/// The whitespace-separated words of `line` with their 1-based columns.
fn words_with_columns(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split_whitespace().map(move |w| {
        let offset = w.as_ptr() as usize - line.as_ptr() as usize;
        (line[..offset].chars().count() + 1, w)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_targets_parse() {
        for (name, _) in BUNDLED_TARGETS {
            let t = ConversionTarget::bundled(name).unwrap();
            assert_eq!(t.name, *name);
        }
    }

    #[test]
    fn errors_are_located() {
        let e = ConversionTarget::parse("t.target", "target x\nlegal-ops add frob\n").unwrap_err();
        assert_eq!(e.to_string(), "t.target:2:15: unknown op kind `frob`");
        let e = ConversionTarget::parse("t.target", "legal-ops *\n").unwrap_err();
        assert!(e.to_string().contains("missing `target NAME`"), "{e}");
        let e = ConversionTarget::parse("t.target", "target x\n  legal-dtypes q8\n").unwrap_err();
        assert_eq!(e.to_string(), "t.target:2:16: unknown dtype `q8`");
        let e = ConversionTarget::parse("t.target", "target x\nfrobnicate\n").unwrap_err();
        assert!(
            e.to_string().starts_with("t.target:2:1: unknown directive"),
            "{e}"
        );
    }

    #[test]
    fn a_conversion_that_changes_values_is_refused() {
        // 16777217 is an i32 and no f32: computing i32 code in f32 would change results.
        let e =
            ConversionTarget::parse("t.target", "target x\nconvert-dtype i32 f32\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.target:2:1: `convert-dtype i32 f32` would change values: not every i32 is a f32 \
             (convert to a dtype that holds them all)"
        );
        for lossy in ["f32 bf16", "bf16 f16", "i64 f64", "i8 u64"] {
            let text = format!("target x\nconvert-dtype {lossy}\n");
            assert!(
                ConversionTarget::parse("t.target", &text).is_err(),
                "{lossy}"
            );
        }
        for exact in ["bf16 f32", "f16 f64", "i32 f64", "u8 i16", "i16 i32"] {
            let text = format!("target x\nconvert-dtype {exact}\n");
            assert!(
                ConversionTarget::parse("t.target", &text).is_ok(),
                "{exact}"
            );
        }
    }
}
