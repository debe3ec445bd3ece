//! The printer: [`Program`] to `.ptir` text. [`crate::parse`] reads back exactly what it writes.

use crate::ops::Op;
use crate::program::{ExternDecl, Function, Instruction, Param, Program, Region, ValueId};
use crate::tensor::{Data, Literal, ScalarIn};
use crate::types::{DType, Type};
use std::fmt::{self, Write};

/// Prints a program in the text format.
///
/// ```
/// let text = "func @f(%0: f32[2]) -> (f32[2]) {\n  %1 = exp %0 : f32[2]\n  return %1\n}\n";
/// let p = ptir_ir::parse(text).unwrap();
/// assert_eq!(ptir_ir::print(&p), text);
/// ```
pub fn print(program: &Program) -> String {
    program.to_string()
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.externs {
            writeln!(f, "{e}")?;
        }
        for (i, func) in self.functions.iter().enumerate() {
            if i > 0 || !self.externs.is_empty() {
                writeln!(f)?;
            }
            write!(f, "{func}")?;
        }
        Ok(())
    }
}

impl fmt::Display for ExternDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "extern @{}", self.name)?;
        if let Some(sig) = &self.signature {
            write!(f, "(")?;
            comma_list(f, &sig.params, |f, t| write!(f, "{t}"))?;
            write!(f, ") -> (")?;
            comma_list(f, &sig.results, |f, t| write!(f, "{t}"))?;
            write!(f, ")")?;
        }
        write!(f, " {}", if self.pure { "pure" } else { "impure" })
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "func @{}(", self.name)?;
        comma_list(f, &self.body.params, write_param)?;
        write!(f, ") -> (")?;
        comma_list(f, &self.result_types, |f, t| write!(f, "{t}"))?;
        writeln!(f, ") {{")?;
        write_block_body(f, &self.body, 1, "return")?;
        writeln!(f, "}}")
    }
}

fn write_param(f: &mut fmt::Formatter<'_>, p: &Param) -> fmt::Result {
    write!(f, "{}: {}", p.id, p.ty)
}

fn comma_list<T>(
    f: &mut fmt::Formatter<'_>,
    items: &[T],
    mut each: impl FnMut(&mut fmt::Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        each(f, x)?;
    }
    Ok(())
}

fn indent(f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    for _ in 0..depth {
        f.write_str("  ")?;
    }
    Ok(())
}

fn write_block_body(
    f: &mut fmt::Formatter<'_>,
    r: &Region,
    depth: usize,
    terminator: &str,
) -> fmt::Result {
    for inst in &r.insts {
        write_inst(f, inst, depth)?;
    }
    indent(f, depth)?;
    f.write_str(terminator)?;
    for (i, v) in r.results.iter().enumerate() {
        f.write_str(if i == 0 { " " } else { ", " })?;
        write!(f, "{v}")?;
    }
    writeln!(f)
}

fn write_region(f: &mut fmt::Formatter<'_>, r: &Region, depth: usize) -> fmt::Result {
    writeln!(f, "{{")?;
    if !r.params.is_empty() {
        indent(f, depth)?;
        f.write_str("^(")?;
        comma_list(f, &r.params, write_param)?;
        writeln!(f, "):")?;
    }
    write_block_body(f, r, depth + 1, "yield")?;
    indent(f, depth)?;
    f.write_str("}")
}

fn write_operands(f: &mut fmt::Formatter<'_>, operands: &[ValueId]) -> fmt::Result {
    for (i, v) in operands.iter().enumerate() {
        f.write_str(if i == 0 { " " } else { ", " })?;
        write!(f, "{v}")?;
    }
    Ok(())
}

fn write_usizes(f: &mut fmt::Formatter<'_>, name: &str, xs: &[usize]) -> fmt::Result {
    write!(f, " {name}=[")?;
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{x}")?;
    }
    f.write_str("]")
}

fn write_literal(f: &mut fmt::Formatter<'_>, lit: &Literal, dtype: DType) -> fmt::Result {
    match lit {
        Literal::Splat(s) => write!(f, " splat({})", ScalarIn(dtype, *s)),
        Literal::Dense(d) => {
            f.write_str(" dense([")?;
            write_data(f, d, dtype)?;
            f.write_str("])")
        }
    }
}

fn write_data(f: &mut fmt::Formatter<'_>, d: &Data, dtype: DType) -> fmt::Result {
    for (i, s) in d.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}", ScalarIn(dtype, s))?;
    }
    Ok(())
}

/// Writes `%r = op operands attrs : type regions`.
fn write_inst(f: &mut fmt::Formatter<'_>, inst: &Instruction, depth: usize) -> fmt::Result {
    indent(f, depth)?;
    write!(f, "{} = {}", inst.result, inst.op.name())?;
    match &inst.op {
        Op::Call { callee } => {
            write!(f, " @{callee}(")?;
            comma_list(f, &inst.operands, |f, v| write!(f, "{v}"))?;
            f.write_str(")")?;
        }
        Op::Constant(lit) => {
            let dtype = match &inst.ty {
                Type::Tensor(t) => t.dtype,
                Type::Tuple(_) => DType::F64,
            };
            write_literal(f, lit, dtype)?;
        }
        Op::Rng { dist } => write!(f, " {dist}")?,
        _ => write_operands(f, &inst.operands)?,
    }
    write_attrs(f, &inst.op)?;
    write!(f, " : {}", inst.ty)?;
    for r in inst.op.regions() {
        f.write_str(" ")?;
        write_region(f, r, depth)?;
    }
    writeln!(f)
}

fn write_attrs(f: &mut fmt::Formatter<'_>, op: &Op) -> fmt::Result {
    match op {
        Op::Transpose { perm } => write_usizes(f, "perm", perm),
        Op::Broadcast { dims } => write_usizes(f, "dims", dims),
        Op::Slice {
            start,
            limit,
            stride,
        } => {
            write_usizes(f, "start", start)?;
            write_usizes(f, "limit", limit)?;
            write_usizes(f, "stride", stride)
        }
        Op::Concat { axis } => write!(f, " axis={axis}"),
        Op::DotGeneral(d) => {
            if !d.lhs_batch.is_empty() || !d.rhs_batch.is_empty() {
                write_usizes(f, "lhs_batch", &d.lhs_batch)?;
                write_usizes(f, "rhs_batch", &d.rhs_batch)?;
            }
            write_usizes(f, "lhs_contract", &d.lhs_contract)?;
            write_usizes(f, "rhs_contract", &d.rhs_contract)
        }
        Op::Reduce {
            axes, keep_dims, ..
        } => {
            write_usizes(f, "axes", axes)?;
            write!(f, " keep_dims={keep_dims}")
        }
        Op::Scan {
            num_carry, length, ..
        } => write!(f, " num_carry={num_carry} length={length}"),
        Op::TupleGet { index } => write!(f, " index={index}"),
        _ => Ok(()),
    }
}

/// Prints one instruction (with its regions) on its own, as it appears in a block.
pub fn print_inst(inst: &Instruction) -> String {
    struct One<'a>(&'a Instruction);
    impl fmt::Display for One<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_inst(f, self.0, 0)
        }
    }
    let mut s = String::new();
    let _ = write!(s, "{}", One(inst));
    s.truncate(s.trim_end().len());
    s
}
