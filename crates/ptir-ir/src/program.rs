//! The program structure: functions, regions (single blocks), instructions, SSA ids.
//!
//! A [`Program`] holds `extern` declarations and [`Function`]s. A function's body is a
//! [`Region`]: one block of [`Instruction`]s with parameters and results. Region ops (`cond`,
//! `while`, `scan`) own their nested regions, so the block tree is the ownership tree.
//!
//! Invariants (checked by [`crate::verify`]):
//! - Every instruction has exactly one result; its [`InstId`] is the number of that result's
//!   [`ValueId`], so an instruction keeps its identity as long as its result exists.
//! - Value ids are unique within a function, nested regions included (SSA).
//! - A nested region sees the values of the blocks enclosing it that are defined before the
//!   region op (it captures them, as MLIR regions do).

use crate::ops::Op;
use crate::types::Type;
use std::fmt;

/// An SSA value, unique within its function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// The identity of an instruction: the number of the value it defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstId(pub u32);

impl fmt::Display for ValueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl fmt::Display for InstId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

impl InstId {
    /// The value this instruction defines.
    pub fn value(self) -> ValueId {
        ValueId(self.0)
    }
}

impl ValueId {
    /// The instruction that defines this value, if it is not a parameter.
    pub fn inst(self) -> InstId {
        InstId(self.0)
    }
}

/// A block parameter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    /// The value it binds.
    pub id: ValueId,
    /// Its type.
    pub ty: Type,
}

/// One instruction: `result = op(operands) : ty`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The value it defines.
    pub result: ValueId,
    /// The type of the result.
    pub ty: Type,
    /// What it computes (with attributes and nested regions).
    pub op: Op,
    /// Its operands, in order.
    pub operands: Vec<ValueId>,
}

impl Instruction {
    /// The instruction's stable identity.
    pub fn id(&self) -> InstId {
        self.result.inst()
    }
}

/// A single block with parameters and results: a function body or the body of a region op.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Region {
    /// Block parameters.
    pub params: Vec<Param>,
    /// Instructions, in execution order.
    pub insts: Vec<Instruction>,
    /// Values returned (`return` in functions, `yield` in regions).
    pub results: Vec<ValueId>,
}

impl Region {
    /// Visits every instruction of this region and of the regions nested in it, in pre-order
    /// (an op before the instructions of its regions), with the nesting depth (0 = this block).
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Instruction, usize)) {
        self.walk_at(0, f)
    }

    fn walk_at<'a>(&'a self, depth: usize, f: &mut impl FnMut(&'a Instruction, usize)) {
        for inst in &self.insts {
            f(inst, depth);
            for r in inst.op.regions() {
                r.walk_at(depth + 1, f);
            }
        }
    }

    /// Number of instructions, nested ones included.
    pub fn num_insts(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |_, _| n += 1);
        n
    }

    /// The largest value id defined in this region or below (parameters included).
    pub fn max_value_id(&self) -> Option<u32> {
        let mut max = self.params.iter().map(|p| p.id.0).max();
        self.walk(&mut |inst, _| {
            max = max.max(Some(inst.result.0));
            for r in inst.op.regions() {
                max = max.max(r.params.iter().map(|p| p.id.0).max());
            }
        });
        max
    }
}

/// A function of the program.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Function {
    /// Name, without `@`.
    pub name: String,
    /// Declared result types (the types of `body.results`).
    pub result_types: Vec<Type>,
    /// The body.
    pub body: Region,
}

impl Function {
    /// The parameter types.
    pub fn param_types(&self) -> Vec<Type> {
        self.body.params.iter().map(|p| p.ty.clone()).collect()
    }

    /// A fresh value id: one past the largest used in the function.
    pub fn fresh_value_id(&self) -> ValueId {
        ValueId(self.body.max_value_id().map_or(0, |m| m + 1))
    }
}

/// A function signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    /// Parameter types.
    pub params: Vec<Type>,
    /// Result types.
    pub results: Vec<Type>,
}

/// A declared external function: implemented outside the program (by the interpreter's extern
/// registry, or a backend library).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExternDecl {
    /// Name, without `@`.
    pub name: String,
    /// The signature, or `None` for a shape-polymorphic extern whose calls annotate their
    /// result type (e.g. a fused `@softmax_fused` usable at any shape).
    pub signature: Option<Signature>,
    /// Has no side effects: calls may be merged, moved and deleted.
    pub pure: bool,
}

/// A whole program: extern declarations and functions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Program {
    /// Declared externs.
    pub externs: Vec<ExternDecl>,
    /// Functions.
    pub functions: Vec<Function>,
}

impl Program {
    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The extern named `name`.
    pub fn extern_decl(&self, name: &str) -> Option<&ExternDecl> {
        self.externs.iter().find(|e| e.name == name)
    }

    /// Number of instructions in all functions, nested ones included.
    pub fn num_insts(&self) -> usize {
        self.functions.iter().map(|f| f.body.num_insts()).sum()
    }

    /// The callee of every `call` of the program, nested regions included, in program order
    /// (first call first).
    ///
    /// ```
    /// let p = ptir_ir::parse(
    ///     "extern @e pure\nfunc @f(%x: f32[]) -> (f32[]) {\n  %y = call @e(%x) : f32[]\n  return %y\n}",
    /// )?;
    /// assert!(p.called_names().contains("e"));
    /// # Ok::<(), ptir_ir::ParseError>(())
    /// ```
    pub fn called_names(&self) -> indexmap::IndexSet<String> {
        let mut called = indexmap::IndexSet::new();
        for f in &self.functions {
            f.body.walk(&mut |i, _| {
                if let crate::ops::Op::Call { callee } = &i.op {
                    called.insert(callee.clone());
                }
            });
        }
        called
    }
}
