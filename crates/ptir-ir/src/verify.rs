//! The verifier: the one definition of a well-formed program.
//!
//! It checks SSA (every value defined once, defined before use, visible from the use's region),
//! names (functions and externs unique, callees declared), and types: every instruction's
//! annotated type must equal what [`crate::infer`] derives, region parameters and results must
//! match their op, functions must return their declared types. It reports every problem it
//! finds, each naming the function, the instruction and the rule broken.

use crate::infer::{check_inferred_type, region_param_types, InferContext};
use crate::ops::Op;
use crate::program::{Function, Instruction, Program, Region, Signature, ValueId};
use crate::types::Type;
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
    /// The value it is about, when it is about one use (an operand or a returned value that
    /// is not visible): where a source map places it.
    pub value: Option<ValueId>,
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

pub use crate::infer::check_literal;

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
        operand_types: Vec::new(),
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
    /// A buffer for the operand types of the instruction being checked, reused.
    operand_types: Vec<&'p Type>,
}

/// The values of one function: which ids were ever defined (SSA: once), and which are visible
/// at the current point with their types.
///
/// Ids are usually compact (`0..n`), so they index dense tables. The tables grow with the ids
/// actually seen, up to a limit proportional to the number of values in the function (never to
/// an id itself); larger ids go to hash tables. Values of the function's own block stay
/// visible until the function ends, when the tables are dropped whole; values of nested blocks
/// are recorded in `nested` and hidden again when their block ends.
struct Scope<'p> {
    /// Dense: the visible type of each id (`None`: not visible).
    visible: Vec<Option<&'p Type>>,
    /// Dense: was the id ever defined?
    defined: Vec<bool>,
    /// Ids at or above `dense_limit`.
    sparse_visible: FxHashMap<ValueId, &'p Type>,
    sparse_defined: FxHashSet<ValueId>,
    dense_limit: usize,
    /// The function body, counted to raise `dense_limit` the first time an id reaches it.
    body: Option<&'p Region>,
    /// Values defined by the open nested blocks, innermost last.
    nested: Vec<ValueId>,
    /// How many nested blocks are open.
    depth: usize,
}

impl<'p> Scope<'p> {
    fn new(body: &'p Region) -> Self {
        Scope {
            visible: Vec::new(),
            defined: Vec::new(),
            sparse_visible: FxHashMap::default(),
            sparse_defined: FxHashSet::default(),
            dense_limit: dense_limit(body.params.len() + body.insts.len()),
            body: Some(body),
            nested: Vec::new(),
            depth: 0,
        }
    }

    /// The dense index of `v`, or `None` if `v` lives in the sparse tables.
    fn dense(&mut self, v: ValueId) -> Option<usize> {
        let i = v.0 as usize;
        if i >= self.dense_limit {
            // The first id past the first estimate: count every value of the function, nested
            // ones included, once. Nothing is in the sparse tables yet, so the limit may move.
            if let Some(body) = self.body.take() {
                self.dense_limit = self.dense_limit.max(dense_limit(count_values(body)));
            }
            if i >= self.dense_limit {
                return None;
            }
        }
        Some(i)
    }

    /// The dense index of `v`, growing the tables to hold it.
    fn dense_mut(&mut self, v: ValueId) -> Option<usize> {
        let i = self.dense(v)?;
        if i >= self.visible.len() {
            let len = (self.visible.len() * 2)
                .max(64)
                .min(self.dense_limit)
                .max(i + 1);
            self.visible.resize(len, None);
            self.defined.resize(len, false);
        }
        Some(i)
    }

    /// Defines `v` with type `ty` (visible from now on); `false` if it was defined before.
    fn define(&mut self, v: ValueId, ty: &'p Type) -> bool {
        let fresh = match self.dense_mut(v) {
            Some(i) => {
                self.visible[i] = Some(ty);
                !std::mem::replace(&mut self.defined[i], true)
            }
            None => {
                self.sparse_visible.insert(v, ty);
                self.sparse_defined.insert(v)
            }
        };
        if self.depth > 0 {
            self.nested.push(v);
        }
        fresh
    }

    /// The type of `v` if it is visible.
    fn visible(&mut self, v: ValueId) -> Option<&'p Type> {
        match self.dense(v) {
            Some(i) => self.visible.get(i).copied().flatten(),
            None => self.sparse_visible.get(&v).copied(),
        }
    }

    fn was_defined(&mut self, v: ValueId) -> bool {
        match self.dense(v) {
            Some(i) => self.defined.get(i).copied().unwrap_or(false),
            None => self.sparse_defined.contains(&v),
        }
    }

    /// Hides the values defined by the nested block that began at `mark` in `nested`.
    fn end_nested_block(&mut self, mark: usize) {
        let mut nested = std::mem::take(&mut self.nested);
        for &v in &nested[mark..] {
            match self.dense(v) {
                Some(i) => {
                    if let Some(slot) = self.visible.get_mut(i) {
                        *slot = None;
                    }
                }
                None => {
                    self.sparse_visible.remove(&v);
                }
            }
        }
        nested.truncate(mark);
        self.nested = nested;
    }
}

/// How many ids the dense tables may hold for a function of `values` values.
fn dense_limit(values: usize) -> usize {
    values.saturating_mul(2).saturating_add(64)
}

/// The number of values a region defines, nested regions included.
fn count_values(region: &Region) -> usize {
    let mut n = region.params.len() + region.insts.len();
    for inst in &region.insts {
        for r in inst.op.regions() {
            n += count_values(r);
        }
    }
    n
}

impl<'p> Verifier<'p> {
    fn error(&mut self, inst: Option<&Instruction>, message: String) {
        self.diagnostics.push(Diagnostic {
            function: self.function.clone(),
            inst: inst.map(|i| i.result),
            op: inst.map(|i| i.op.name()),
            value: None,
            message,
        });
    }

    /// Reports a problem with the use of `value` (by `inst`, or by a block's terminator).
    fn use_error(&mut self, inst: Option<&Instruction>, value: ValueId, message: String) {
        self.error(inst, message);
        if let Some(d) = self.diagnostics.last_mut() {
            d.value = Some(value);
        }
    }

    fn collect_signatures(&mut self, program: &'p Program) {
        for e in &program.externs {
            let sig_types = e
                .signature
                .iter()
                .flat_map(|s| s.params.iter().chain(&s.results));
            if let Some(m) = sig_types.filter_map(|t| t.check_size().err()).next() {
                self.function.clone_from(&e.name);
                self.error(None, m);
            }
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
        let mut scope = Scope::new(&f.body);
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
        let mark = scope.nested.len();
        for p in &region.params {
            self.define(p.id, &p.ty, scope, owner);
        }
        for inst in &region.insts {
            self.instruction(inst, scope);
        }
        let mut results = Vec::new();
        for r in &region.results {
            match scope.visible(*r) {
                Some(t) => results.push(t.clone()),
                None => {
                    self.use_error(owner, *r, format!("returns {r}, which is not visible here"))
                }
            }
        }
        if scope.depth > 0 {
            scope.end_nested_block(mark);
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
        if !scope.define(v, ty) {
            self.error(at, format!("{v} is defined more than once"));
        }
        if let Err(m) = ty.check_size() {
            self.error(at, format!("{v}: {m}"));
        }
    }

    fn instruction(&mut self, inst: &'p Instruction, scope: &mut Scope<'p>) {
        let mut operand_types = std::mem::take(&mut self.operand_types);
        operand_types.clear();
        for &v in &inst.operands {
            match scope.visible(v) {
                Some(t) => operand_types.push(t),
                None if scope.was_defined(v) => self.use_error(
                    Some(inst),
                    v,
                    format!("uses {v}, which is not visible from this region"),
                ),
                None => self.use_error(Some(inst), v, format!("uses {v} before its definition")),
            }
        }
        if operand_types.len() == inst.operands.len() {
            self.check_type(inst, &operand_types, scope);
        }
        operand_types.clear();
        self.operand_types = operand_types;
        self.define(inst.result, &inst.ty, scope, Some(inst));
    }

    fn check_type(&mut self, inst: &'p Instruction, operands: &[&'p Type], scope: &mut Scope<'p>) {
        let region_results = match self.regions(inst, operands, scope) {
            Some(r) => r,
            None => return,
        };
        let callee = match &inst.op {
            Op::Call { callee } => match self.signatures.get(callee.as_str()) {
                Some(sig) => sig.as_ref(),
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
            callee,
            region_results: &region_results,
        };
        if let Err(e) = check_inferred_type(&inst.op, operands, &cx) {
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
            scope.depth += 1;
            results.push(self.block(region, scope, Some(inst)));
            scope.depth -= 1;
        }
        Some(results)
    }
}

fn type_list(ts: &[Type]) -> String {
    let items: Vec<String> = ts.iter().map(Type::to_string).collect();
    format!("({})", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TensorType;

    /// A `while` whose regions define values of their own; `ids` gives the 11 value numbers,
    /// `ret` the index of the returned one.
    fn looped(ids: &[u32; 11], ret: usize) -> String {
        let v = |i: usize| format!("%{}", ids[i]);
        format!(
            "func @f({a}: f32[8], {b}: i32[]) -> (f32[8]) {{\n  \
             {c} = while {a}, {b} : (f32[8], i32[]) {{\n  ^({d}: f32[8], {e}: i32[]):\n    \
             {f} = constant splat(10) : i32[]\n    {g} = lt {e}, {f} : bool[]\n    yield {g}\n  \
             }} {{\n  ^({h}: f32[8], {i}: i32[]):\n    {j} = neg {h} : f32[8]\n    \
             yield {j}, {i}\n  }}\n  {k} = tuple_get {c} index=0 : f32[8]\n  return {r}\n}}\n",
            a = v(0),
            b = v(1),
            c = v(2),
            d = v(3),
            e = v(4),
            f = v(5),
            g = v(6),
            h = v(7),
            i = v(8),
            j = v(9),
            k = v(10),
            r = v(ret),
        )
    }

    fn check(text: &str) -> Result<(), String> {
        verify(&crate::parse(text).unwrap()).map_err(|e| e.to_string())
    }

    #[test]
    fn scopes_do_not_depend_on_how_values_are_numbered() {
        let compact = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        let spread = compact.map(|i| i * 100_003 + 5);
        let huge = compact.map(|i| 2_000_000_000 + i);
        let mixed = compact.map(|i| if i % 2 == 0 { i } else { 1_500_000_000 + i });
        // Region values far above what the function's own block suggests.
        let nested_high = [0, 1, 2, 900, 901, 902, 903, 904, 905, 906, 3];
        for ids in [compact, spread, huge, mixed, nested_high] {
            assert_eq!(check(&looped(&ids, 10)), Ok(()), "{ids:?}");
            let (f, j) = (ids[5], ids[9]);
            // A region's value is not visible after the region ...
            assert_eq!(
                check(&looped(&ids, 9)),
                Err(format!(
                    "in @f: returns %{j}, which is not visible here\n\
                     in @f: returns () but is declared to return (f32[8])"
                )),
                "{ids:?}"
            );
            // ... nor from a sibling region.
            let text = looped(&ids, 10).replace(&format!("neg %{}", ids[7]), &format!("neg %{f}"));
            assert_eq!(
                check(&text),
                Err(format!(
                    "in @f, instruction %{j} = neg: uses %{f}, which is not visible from this \
                     region"
                )),
                "{ids:?}"
            );
        }
    }

    #[test]
    fn redefinitions_are_reported_for_any_numbering() {
        // The parser rejects redefinitions, so they are made in the program itself: the last
        // instruction and a value of the loop body redefine parameters of the function.
        for base in [0u32, 70, 1_000_000, 2_000_000_000] {
            let ids = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(|i| base + i);
            let mut p = crate::parse(&looped(&ids, 10)).unwrap();
            let body = &mut p.functions[0].body;
            body.insts[1].result = ValueId(base + 1);
            body.results = vec![ValueId(base + 1)];
            if let Op::While { body: b, .. } = &mut body.insts[0].op {
                b.insts[0].result = ValueId(base);
                b.results[0] = ValueId(base);
            }
            assert_eq!(
                verify(&p).unwrap_err().to_string(),
                format!(
                    "in @f, instruction %{0} = neg: %{0} is defined more than once\n\
                     in @f, instruction %{1} = tuple_get: %{1} is defined more than once",
                    base,
                    base + 1
                )
            );
        }
    }

    #[test]
    fn types_above_the_size_limit_are_reported() {
        let ok = "func @f(%0: f32[2]) -> (f32[2]) {\n  %1 = reshape %0 : f32[2]\n  return %1\n}";
        let mut p = crate::parse(ok).unwrap();
        let huge: Type = TensorType::new(crate::DType::F32, vec![1 << 32, 1 << 32, 1 << 32]).into();
        p.functions[0].body.params[0].ty = huge.clone();
        p.functions[0].body.insts[0].ty = huge.clone();
        p.functions[0].result_types = vec![huge];
        let err = verify(&p).unwrap_err().to_string();
        assert!(
            err.contains("in @f: %0: type f32[4294967296,4294967296,4294967296] is too large"),
            "{err}"
        );
        assert!(
            err.contains("in @f, instruction %1 = reshape: the element count of"),
            "{err}"
        );
        let ext = "extern @g(f64[2]) -> (f32[]) pure\nfunc @f() -> () {\n  return\n}";
        let mut p = crate::parse(ext).unwrap();
        if let Some(sig) = &mut p.externs[0].signature {
            sig.params[0] = TensorType::new(crate::DType::F64, vec![1 << 62]).into();
        }
        let err = verify(&p).unwrap_err().to_string();
        assert!(
            err.starts_with("in @g: type f64[4611686018427387904] is too large"),
            "{err}"
        );
    }
}
