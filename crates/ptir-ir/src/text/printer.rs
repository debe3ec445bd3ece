//! The printer: [`Program`] to `.ptir` text. [`crate::parse`] reads back exactly what it writes.
//!
//! The text is appended to a `String` directly (numbers by a small decimal writer, types by
//! [`write_type`]) rather than through `fmt::Formatter`, whose per-piece dispatch dominated
//! printing large programs; the `Display` impls go through the same code.

use crate::ops::{Op, RngAlgorithm};
use crate::program::{ExternDecl, Function, Instruction, Param, Program, Region, ValueId};
use crate::tensor::{Data, Literal, ScalarIn};
use crate::types::{DType, Type};
use crate::window::Window;
use std::fmt::{self, Write};

/// Prints a program in the text format.
///
/// ```
/// let text = "func @f(%0: f32[2]) -> (f32[2]) {\n  %1 = exp %0 : f32[2]\n  return %1\n}\n";
/// let p = ptir_ir::parse(text).unwrap();
/// assert_eq!(ptir_ir::print(&p), text);
/// ```
pub fn print(program: &Program) -> String {
    let mut out = String::new();
    write_program(&mut out, program);
    out
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&print(self))
    }
}

impl fmt::Display for ExternDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_extern(&mut out, self);
        f.write_str(&out)
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_function(&mut out, self);
        f.write_str(&out)
    }
}

fn write_program(out: &mut String, program: &Program) {
    for e in &program.externs {
        write_extern(out, e);
        out.push('\n');
    }
    for (i, func) in program.functions.iter().enumerate() {
        if i > 0 || !program.externs.is_empty() {
            out.push('\n');
        }
        write_function(out, func);
    }
}

/// `@name`, quoted (`@"<lambda>"`, escapes as they were read) unless every byte of the name
/// is a name byte (ASCII alphanumeric, `_`, `.`, `$`) and it starts with a letter or `_`.
pub fn write_symbol(out: &mut String, name: &str) {
    out.push('@');
    if is_bare_symbol(name) {
        out.push_str(name);
    } else {
        out.push('"');
        out.push_str(name);
        out.push('"');
    }
}

/// Can `name` be written `@name` (in PTIR and in MLIR alike)?
pub fn is_bare_symbol(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && bytes.all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$'))
}

fn write_extern(out: &mut String, e: &ExternDecl) {
    out.push_str("extern ");
    write_symbol(out, &e.name);
    if let Some(sig) = &e.signature {
        out.push('(');
        comma_list(out, &sig.params, write_type);
        out.push_str(") -> (");
        comma_list(out, &sig.results, write_type);
        out.push(')');
    }
    out.push_str(if e.pure { " pure" } else { " impure" });
}

fn write_function(out: &mut String, func: &Function) {
    out.push_str("func ");
    write_symbol(out, &func.name);
    out.push('(');
    comma_list(out, &func.body.params, write_param);
    out.push_str(") -> (");
    comma_list(out, &func.result_types, write_type);
    out.push_str(") {\n");
    write_block_body(out, &func.body, 1, "return");
    out.push_str("}\n");
}

/// Appends the decimal digits of `n`.
fn write_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.reserve(buf.len() - i);
    for &b in &buf[i..] {
        out.push(char::from(b));
    }
}

fn write_usize(out: &mut String, n: usize) {
    write_u64(out, n as u64);
}

fn write_value(out: &mut String, v: &ValueId) {
    out.push('%');
    write_u64(out, u64::from(v.0));
}

/// Appends a type exactly as its `Display` impl writes it.
fn write_type(out: &mut String, t: &Type) {
    match t {
        Type::Tensor(t) => {
            out.push_str(t.dtype.name());
            out.push('[');
            for (i, &d) in t.shape.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_usize(out, d);
            }
            out.push(']');
        }
        Type::Tuple(ts) => {
            out.push('(');
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_type(out, t);
            }
            out.push(')');
        }
    }
}

fn write_param(out: &mut String, p: &Param) {
    write_value(out, &p.id);
    out.push_str(": ");
    write_type(out, &p.ty);
}

fn comma_list<T>(out: &mut String, items: &[T], mut each: impl FnMut(&mut String, &T)) {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        each(out, x);
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write_block_body(out: &mut String, r: &Region, depth: usize, terminator: &str) {
    for inst in &r.insts {
        write_inst(out, inst, depth);
    }
    indent(out, depth);
    out.push_str(terminator);
    for (i, v) in r.results.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        write_value(out, v);
    }
    out.push('\n');
}

fn write_region(out: &mut String, r: &Region, depth: usize) {
    out.push_str("{\n");
    if !r.params.is_empty() {
        indent(out, depth);
        out.push_str("^(");
        comma_list(out, &r.params, write_param);
        out.push_str("):\n");
    }
    write_block_body(out, r, depth + 1, "yield");
    indent(out, depth);
    out.push('}');
}

fn write_operands(out: &mut String, operands: &[ValueId]) {
    for (i, v) in operands.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        write_value(out, v);
    }
}

fn write_usizes(out: &mut String, name: &str, xs: &[usize]) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=[");
    for (i, &x) in xs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_usize(out, x);
    }
    out.push(']');
}

/// The dimension numbers of a `gather` or `scatter_*` (batching dims only when present).
fn write_index_dims(out: &mut String, d: &crate::gather::IndexDims) {
    write_usizes(out, "window_dims", &d.window_dims);
    write_usizes(out, "collapsed_dims", &d.collapsed_dims);
    if !d.operand_batching_dims.is_empty() || !d.indices_batching_dims.is_empty() {
        write_usizes(out, "operand_batching_dims", &d.operand_batching_dims);
        write_usizes(out, "indices_batching_dims", &d.indices_batching_dims);
    }
    write_usizes(out, "start_index_map", &d.start_index_map);
    out.push_str(" index_vector_dim=");
    write_usize(out, d.index_vector_dim);
}

fn write_i64s(out: &mut String, name: &str, xs: &[i64]) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=[");
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&x.to_string());
    }
    out.push(']');
}

/// The attributes of a window that differ from the plain one (stride 1, no padding, no
/// dilation), the dilations under the op's own names.
fn write_window(out: &mut String, w: &Window, dilations: [&str; 2]) {
    let n = w.strides.len();
    if w.strides.iter().any(|&x| x != 1) {
        write_usizes(out, "strides", &w.strides);
    }
    if w.pad_low.iter().chain(&w.pad_high).any(|&x| x != 0) {
        write_i64s(out, "pad_low", &w.pad_low);
        write_i64s(out, "pad_high", &w.pad_high);
    }
    for (name, xs) in dilations.iter().zip([&w.base_dilation, &w.window_dilation]) {
        if *xs != vec![1; n] {
            write_usizes(out, name, xs);
        }
    }
}

/// The text names of a convolution's dilations (lhs, rhs) and of a `reduce_window`'s.
pub(crate) const CONV_DILATIONS: [&str; 2] = ["lhs_dilation", "rhs_dilation"];
/// See [`CONV_DILATIONS`].
pub(crate) const WINDOW_DILATIONS: [&str; 2] = ["base_dilation", "window_dilation"];

fn write_literal(out: &mut String, lit: &Literal, dtype: DType) {
    match lit {
        Literal::Splat(s) => {
            // Writing to a `String` cannot fail.
            let _ = write!(out, " splat({})", ScalarIn(dtype, *s));
        }
        Literal::Dense(d) => {
            out.push_str(" dense([");
            write_data(out, d, dtype);
            out.push_str("])");
        }
    }
}

fn write_data(out: &mut String, d: &Data, dtype: DType) {
    for (i, s) in d.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{}", ScalarIn(dtype, s));
    }
}

/// Writes `%r = op operands attrs : type regions`.
fn write_inst(out: &mut String, inst: &Instruction, depth: usize) {
    indent(out, depth);
    write_value(out, &inst.result);
    out.push_str(" = ");
    out.push_str(inst.op.name());
    match &inst.op {
        Op::Call { callee } => {
            out.push(' ');
            write_symbol(out, callee);
            out.push('(');
            comma_list(out, &inst.operands, write_value);
            out.push(')');
        }
        Op::Constant(lit) => {
            let dtype = match &inst.ty {
                Type::Tensor(t) => t.dtype,
                Type::Tuple(_) => DType::F64,
            };
            write_literal(out, lit, dtype);
        }
        Op::Rng { dist } => {
            out.push(' ');
            out.push_str(dist.name());
        }
        _ => write_operands(out, &inst.operands),
    }
    write_attrs(out, &inst.op);
    out.push_str(" : ");
    write_type(out, &inst.ty);
    for r in inst.op.regions() {
        out.push(' ');
        write_region(out, r, depth);
    }
    out.push('\n');
}

fn write_attrs(out: &mut String, op: &Op) {
    match op {
        Op::Transpose { perm } => write_usizes(out, "perm", perm),
        Op::Broadcast { dims } => write_usizes(out, "dims", dims),
        Op::DynamicSlice { sizes } => write_usizes(out, "sizes", sizes),
        Op::Slice(slice) => {
            write_usizes(out, "start", &slice.start);
            write_usizes(out, "limit", &slice.limit);
            write_usizes(out, "stride", &slice.stride);
        }
        Op::Concat { axis } => {
            out.push_str(" axis=");
            write_usize(out, *axis);
        }
        // The implementation's choice is the default.
        Op::RngBitGenerator { algorithm } if *algorithm != RngAlgorithm::Default => {
            out.push_str(" algorithm=");
            out.push_str(algorithm.name());
        }
        Op::Iota { dim } => {
            out.push_str(" dim=");
            write_usize(out, *dim);
        }
        Op::Sort {
            dim,
            keys,
            descending,
            stable,
            total_order,
        } => {
            out.push_str(" dim=");
            write_usize(out, *dim);
            // One key is the default.
            if *keys != 1 {
                out.push_str(" keys=");
                write_usize(out, *keys);
            }
            // The flags default to false: only those set are written.
            for (name, set) in [
                (" descending=true", descending),
                (" stable=true", stable),
                (" total_order=true", total_order),
            ] {
                if *set {
                    out.push_str(name);
                }
            }
        }
        Op::TopK { k } => {
            out.push_str(" k=");
            write_usize(out, *k);
        }
        Op::ReducePrecision {
            exponent_bits,
            mantissa_bits,
        } => {
            out.push_str(" exponent_bits=");
            write_usize(out, *exponent_bits);
            out.push_str(" mantissa_bits=");
            write_usize(out, *mantissa_bits);
        }
        Op::ArgReduce { axes, .. } => write_usizes(out, "axes", axes),
        Op::DotGeneral(d) => {
            if !d.lhs_batch.is_empty() || !d.rhs_batch.is_empty() {
                write_usizes(out, "lhs_batch", &d.lhs_batch);
                write_usizes(out, "rhs_batch", &d.rhs_batch);
            }
            write_usizes(out, "lhs_contract", &d.lhs_contract);
            write_usizes(out, "rhs_contract", &d.rhs_contract);
            if let Some(dtype) = d.result_dtype {
                out.push_str(" result_dtype=");
                out.push_str(dtype.name());
            }
            if let Some([lhs, rhs]) = d.precision {
                out.push_str(" lhs_precision=");
                out.push_str(lhs.name());
                out.push_str(" rhs_precision=");
                out.push_str(rhs.name());
            }
        }
        Op::Convolution(c) => {
            write_usizes(out, "input", &c.input);
            write_usizes(out, "kernel", &c.kernel);
            write_usizes(out, "output", &c.output);
            write_window(out, &c.window, CONV_DILATIONS);
            if c.reverse.iter().any(|&r| r) {
                let reversed: Vec<usize> = (0..c.reverse.len()).filter(|&s| c.reverse[s]).collect();
                write_usizes(out, "reverse", &reversed);
            }
            for (name, n) in [
                ("feature_groups", c.feature_groups),
                ("batch_groups", c.batch_groups),
            ] {
                if n != 1 {
                    out.push(' ');
                    out.push_str(name);
                    out.push('=');
                    write_usize(out, n);
                }
            }
            if let Some(dtype) = c.result_dtype {
                out.push_str(" result_dtype=");
                out.push_str(dtype.name());
            }
        }
        Op::ReduceWindow { dims, .. } | Op::SelectAndScatter { dims, .. } => {
            write_usizes(out, "window", &dims.size);
            write_window(out, &dims.window, WINDOW_DILATIONS);
        }
        Op::Pad(p) => {
            write_i64s(out, "low", &p.low);
            write_i64s(out, "high", &p.high);
            if p.interior.iter().any(|&x| x != 0) {
                write_usizes(out, "interior", &p.interior);
            }
        }
        Op::Reverse { dims } => write_usizes(out, "dims", dims),
        Op::Gather(g) => {
            write_index_dims(out, &g.dims);
            write_usizes(out, "slice_sizes", &g.slice_sizes);
        }
        Op::Scatter { dims, .. } => write_index_dims(out, dims),
        Op::Reduce {
            axes, keep_dims, ..
        }
        | Op::MultiReduce {
            axes, keep_dims, ..
        } => {
            write_usizes(out, "axes", axes);
            out.push_str(if *keep_dims {
                " keep_dims=true"
            } else {
                " keep_dims=false"
            });
        }
        Op::Scan {
            num_carry, length, ..
        } => {
            out.push_str(" num_carry=");
            write_usize(out, *num_carry);
            out.push_str(" length=");
            write_usize(out, *length);
        }
        Op::TupleGet { index } => {
            out.push_str(" index=");
            write_usize(out, *index);
        }
        _ => {}
    }
}

/// An op applied to operands of the given types, with the value names left out:
/// `name attrs : operand types -> result type`. Two instructions with the same signature
/// compute the same function of their operands (regions, constants' values and callees
/// aside), so a signature names a one-op kernel (cost tables key their timings by it).
///
/// ```
/// use ptir_ir::{op_signature, Op, Type};
/// let p = ptir_ir::parse("func @f(%a: f32[2,3]) -> (f32[3,2]) {\n  %t = transpose %a perm=[1, 0] : f32[3,2]\n  return %t\n}").unwrap();
/// let inst = &p.functions[0].body.insts[0];
/// let a = &p.functions[0].body.params[0].ty;
/// assert_eq!(op_signature(&inst.op, &[a], &inst.ty), "transpose perm=[1,0] : f32[2,3] -> f32[3,2]");
/// ```
pub fn op_signature(op: &Op, operands: &[&Type], result: &Type) -> String {
    let mut out = String::from(op.name());
    if let Op::Call { callee } = op {
        out.push(' ');
        write_symbol(&mut out, callee);
    }
    write_attrs(&mut out, op);
    out.push_str(" :");
    for (i, t) in operands.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        write_type(&mut out, t);
    }
    out.push_str(" -> ");
    write_type(&mut out, result);
    out
}

/// Prints one instruction (with its regions) on its own, as it appears in a block.
pub fn print_inst(inst: &Instruction) -> String {
    let mut s = String::new();
    write_inst(&mut s, inst, 0);
    s.truncate(s.trim_end().len());
    s
}
