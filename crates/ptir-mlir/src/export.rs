//! A PTIR [`Program`] to StableHLO MLIR text that `iree-compile --iree-input-type=stablehlo`
//! (and `stablehlo-opt`) accept.
//!
//! Elementwise ops, constants, `reshape` and `convert` use the pretty form; ops with
//! attributes or regions use the generic form (`"stablehlo.reduce"(...) <{...}> ({...})`),
//! which every StableHLO version reads the same way. Where PTIR and StableHLO differ:
//!
//! - `reduce_sum` / `reduce_max` become `stablehlo.reduce` with an `add` / `maximum` (`or` for
//!   bool) body and the identity as init; `keep_dims=true` adds a `reshape`.
//! - `reduce_window_sum` / `reduce_window_max` become `stablehlo.reduce_window` with the same
//!   bodies and their own init; `convolution` becomes `stablehlo.convolution` with compact
//!   dimension numbers (`#stablehlo.conv<[b, 0, f]x[o, i, 0]->[b, 0, f]>`). Window attributes
//!   at StableHLO's defaults are left out.
//! - `select_and_scatter_<dir>` becomes `stablehlo.select_and_scatter` with a select region
//!   `compare <DIR>` and an `add` scatter region; `pad` and `reverse` the same ops.
//! - `gather` and `scatter_<kind>` become `stablehlo.gather` and `stablehlo.scatter` with the
//!   same dimension numbers (the update
//!   region an `add`, `multiply`, `maximum`, `minimum`, or returning the update for `set`).
//! - `cond` / `while` become `stablehlo.if` / `stablehlo.while`; tuples are flattened into
//!   multi-result values (`%5:2`, used as `%5#1`).
//! - Calls of externs become private `func.func`s with the extern's defining body when the
//!   caller provides one ([`ExportOptions::extern_body`]), one per distinct signature;
//!   otherwise (or with [`ExportOptions::custom_calls`]) `stablehlo.custom_call`s.
//!
//! - With [`ExportOptions::source`] (what [`crate::import_with`] learnt of the text), values
//!   keep the names the text gave them (`%arg0`, `%cst_1`) and opaque ops print back as they
//!   came; every other value gets a fresh name that no name of the text takes (`%12`, or
//!   `%v12` where the text used `%12` for another value). A name is printed at most once per
//!   function.
//!
//! `scan` and `rng` have no export yet and are reported as [`MlirError::Export`].

pub(crate) mod indexing;

use crate::error::{MlirError, Result};
use crate::parse::{mlir_elem, NESTING_LIMIT};
use crate::source::{FunctionNames, SourceInfo};
use ptir_ir::{
    ArgKind, BinaryOp, CmpOp, ConvDims, DType, Function, Instruction, Literal, Op, Program,
    ReduceKind, ReduceWindowDims, Region, Scalar, SelectKind, TensorType, Type, UnaryOp, ValueId,
    Window,
};
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write as _;

/// Builds the defining body of an extern for one list of argument types: a program whose
/// function named like the extern computes it; `None` when the extern has no body.
pub type ExternBody<'a> = &'a dyn Fn(&str, &[Type]) -> Option<std::result::Result<Program, String>>;

/// How to export.
#[derive(Clone, Copy, Default)]
pub struct ExportOptions<'a> {
    /// Emit every extern call as `stablehlo.custom_call`, even when a body is available.
    pub custom_calls: bool,
    /// Where extern bodies come from (e.g. `ptir_rules::externs::idiom_program`).
    pub extern_body: Option<ExternBody<'a>>,
    /// The value names and opaque ops of the imported text ([`crate::import_with`]).
    pub source: Option<&'a SourceInfo>,
}

/// Prints `program` as a StableHLO module.
///
/// ```
/// let p = ptir_ir::parse("func @main(%0: f32[2]) -> (f32[2]) {\n  %1 = exp %0 : f32[2]\n  return %1\n}").unwrap();
/// let text = ptir_mlir::export(&p, &ptir_mlir::ExportOptions::default()).unwrap();
/// assert!(text.contains("%1 = stablehlo.exponential %0 : tensor<2xf32>"));
/// assert_eq!(ptir_mlir::import(&text).unwrap(), p);
/// ```
pub fn export(program: &Program, options: &ExportOptions) -> Result<String> {
    let mut ex = Exporter {
        program,
        options,
        out: String::new(),
        bodies: HashMap::new(),
        queue: VecDeque::new(),
        used_names: program.functions.iter().map(|f| f.name.clone()).collect(),
    };
    let called: HashSet<&str> = program
        .functions
        .iter()
        .flat_map(|f| {
            let mut callees = Vec::new();
            f.body.walk(&mut |inst, _| {
                if let Op::Call { callee } = &inst.op {
                    callees.push(callee.as_str());
                }
            });
            callees
        })
        .collect();
    ex.out.push_str("module {\n");
    // (called, private in the source) of each function. A function nothing calls is an entry
    // point (public) unless the source made it private: then it is a dead helper, left out
    // unless nothing else would be an entry point.
    let role = |f: &Function| {
        let private = options.source.is_some_and(|s| s.private.contains(&f.name));
        (called.contains(f.name.as_str()), private)
    };
    let drop_dead = program.functions.iter().any(|f| role(f) == (false, false));
    for f in &program.functions {
        let (is_called, private) = role(f);
        if drop_dead && private && !is_called {
            continue;
        }
        ex.function(f, &f.name, !is_called && !private)?;
    }
    while let Some((name, body)) = ex.queue.pop_front() {
        ex.function(&body, &name, false)?;
    }
    ex.out.push_str("}\n");
    Ok(ex.out)
}

struct Exporter<'p, 'o> {
    program: &'p Program,
    options: &'o ExportOptions<'o>,
    out: String,
    /// (extern, argument types) -> the name of its emitted body.
    bodies: HashMap<(String, Vec<Type>), String>,
    /// Extern bodies still to print.
    queue: VecDeque<(String, Function)>,
    used_names: HashSet<String>,
}

/// The printer of one function.
struct FnPrinter<'e, 'p, 'o> {
    ex: &'e mut Exporter<'p, 'o>,
    function: String,
    /// The MLIR names of each PTIR value (several for a tuple).
    names: HashMap<ValueId, Vec<String>>,
    types: HashMap<ValueId, Type>,
    /// The names the text gave this function's values, if it came from MLIR.
    given: Option<&'o FunctionNames>,
    /// Names printed so far (none twice).
    used: HashSet<String>,
    temps: usize,
    out: String,
}

/// The MLIR spelling of a tensor type: `tensor<4x8xf32>` for `f32[4,8]`, `i1` for `bool`.
///
/// ```
/// let t = ptir_ir::TensorType::new(ptir_ir::DType::Bool, vec![2, 3]);
/// assert_eq!(ptir_mlir::mlir_type(&t), "tensor<2x3xi1>");
/// ```
pub fn mlir_type(t: &TensorType) -> String {
    let mut s = String::from("tensor<");
    for d in &t.shape {
        let _ = write!(s, "{d}x");
    }
    s.push_str(mlir_elem(t.dtype));
    s.push('>');
    s
}

fn type_list(ts: &[TensorType]) -> String {
    ts.iter().map(mlir_type).collect::<Vec<_>>().join(", ")
}

fn array<T: std::fmt::Display>(xs: &[T]) -> String {
    if xs.is_empty() {
        return "array<i64>".into();
    }
    let items: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!("array<i64: {}>", items.join(", "))
}

/// The properties of a window other than the plain one's (StableHLO's defaults), the
/// dilations under the op's own names: `window_strides`, `padding`, and `dilations`.
fn window_props(w: &Window, dilations: [&str; 2]) -> Vec<String> {
    let n = w.strides.len();
    let mut props = Vec::new();
    if w.strides.iter().any(|&s| s != 1) {
        props.push(format!("window_strides = {}", array(&w.strides)));
    }
    if w.pad_low.iter().chain(&w.pad_high).any(|&p| p != 0) {
        let pairs: Vec<String> = (w.pad_low.iter().zip(&w.pad_high))
            .map(|(l, h)| format!("[{l}, {h}]"))
            .collect();
        props.push(format!(
            "padding = dense<[{}]> : tensor<{n}x2xi64>",
            pairs.join(", ")
        ));
    }
    for (name, xs) in dilations.iter().zip([&w.base_dilation, &w.window_dilation]) {
        if xs.iter().any(|&x| x != 1) {
            props.push(format!("{name} = {}", array(xs)));
        }
    }
    props
}

/// The properties of a `stablehlo.convolution`: its dimension numbers in the compact form
/// (`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`), groups and window.
fn convolution_props(c: &ConvDims) -> String {
    let labels = |layout: &[usize], [first, second]: [&str; 2]| {
        let mut out = vec![String::new(); layout.len()];
        for (role, &dim) in layout.iter().enumerate() {
            if let Some(slot) = out.get_mut(dim) {
                *slot = match role {
                    0 => first.to_string(),
                    1 => second.to_string(),
                    s => (s - 2).to_string(),
                };
            }
        }
        format!("[{}]", out.join(", "))
    };
    let mut props = vec![
        format!("batch_group_count = {} : i64", c.batch_groups),
        format!(
            "dimension_numbers = #stablehlo.conv<{}x{}->{}>",
            labels(&c.input, ["b", "f"]),
            labels(&c.kernel, ["o", "i"]),
            labels(&c.output, ["b", "f"])
        ),
        format!("feature_group_count = {} : i64", c.feature_groups),
    ];
    props.extend(window_props(&c.window, ["lhs_dilation", "rhs_dilation"]));
    if c.reverse.iter().any(|&r| r) {
        let flags: Vec<&str> = (c.reverse.iter())
            .map(|&r| if r { "true" } else { "false" })
            .collect();
        props.push(format!("window_reversal = array<i1: {}>", flags.join(", ")));
    }
    format!(" <{{{}}}>", props.join(", "))
}

/// The `compare_type` of a comparison of dtype `d`.
fn compare_type(d: DType) -> &'static str {
    match d {
        d if d.is_float() => "FLOAT",
        d if d == DType::Bool || d.is_unsigned() => "UNSIGNED",
        _ => "SIGNED",
    }
}

fn list(xs: &[usize]) -> String {
    let items: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// One element of a dense literal.
fn elem(s: Scalar, d: DType) -> String {
    match s {
        Scalar::Bool(b) => b.to_string(),
        Scalar::Int(i) => ptir_ir::int_value(d, i).to_string(),
        Scalar::Float(x) if x.is_finite() => {
            let text = if d == DType::F64 {
                format!("{x:e}")
            } else {
                format!("{:e}", x as f32)
            };
            // MLIR's float literals need a `.` in the mantissa.
            match text.split_once('e') {
                Some((m, e)) if !m.contains('.') => format!("{m}.0e{e}"),
                _ => text,
            }
        }
        Scalar::Float(x) => {
            let bits = match d {
                DType::F16 => half::f16::from_f64(x).to_bits() as u64,
                DType::BF16 => half::bf16::from_f64(x).to_bits() as u64,
                DType::F64 => x.to_bits(),
                _ => (x as f32).to_bits() as u64,
            };
            let digits = d.size_bytes() * 2;
            format!("0x{bits:0digits$X}")
        }
    }
}

/// `dense<...>` for a literal of type `t`, nested like the shape.
pub(crate) fn dense(lit: &Literal, t: &TensorType) -> String {
    let data = match lit {
        Literal::Splat(s) => return format!("dense<{}>", elem(*s, t.dtype)),
        Literal::Dense(data) => data,
    };
    if t.rank() == 0 {
        return format!("dense<{}>", elem(data.get(0), t.dtype));
    }
    let mut s = String::from("dense<");
    let n = data.len();
    if n == 0 {
        // What MLIR prints for any zero-size shape (`dense<[]>` is only for rank 1).
        s.push('>');
        return s;
    }
    // The elements of dim `d` come in blocks of `stride[d] * shape[d]`: a block starts with `[`
    // (outer dims first) and ends with `]` (inner dims first).
    let blocks: Vec<usize> = ptir_ir::strides(&t.shape)
        .iter()
        .zip(&t.shape)
        .map(|(st, sh)| (st * sh).max(1))
        .collect();
    for i in 0..n {
        for &b in &blocks {
            if i % b == 0 {
                s.push('[');
            }
        }
        s.push_str(&elem(data.get(i), t.dtype));
        for &b in blocks.iter().rev() {
            if (i + 1) % b == 0 {
                s.push(']');
            }
        }
        if i + 1 < n {
            s.push_str(", ");
        }
    }
    s.push('>');
    s
}

impl<'p, 'o> Exporter<'p, 'o> {
    fn function(&mut self, f: &Function, name: &str, public: bool) -> Result<()> {
        let options = self.options;
        let given = options
            .source
            .and_then(|s| s.functions.get(name))
            .filter(|_| self.program.function(name).is_some());
        let mut p = FnPrinter {
            ex: self,
            function: name.to_string(),
            names: HashMap::new(),
            types: HashMap::new(),
            given,
            used: HashSet::new(),
            temps: 0,
            out: String::new(),
        };
        let params = p.params(&f.body)?;
        let results: Vec<TensorType> = f
            .result_types
            .iter()
            .map(|t| p.tensor(t))
            .collect::<Result<_>>()?;
        let vis = if public { "public" } else { "private" };
        let _ = writeln!(
            p.out,
            "  func.func {vis} {}({}) -> ({}) {{",
            symbol(name),
            params.join(", "),
            type_list(&results)
        );
        p.block(&f.body, 2)?;
        let values = p.names_of(&f.body.results)?;
        if values.is_empty() {
            p.out.push_str("    func.return\n");
        } else {
            let _ = writeln!(
                p.out,
                "    func.return {} : {}",
                values.join(", "),
                type_list(&results)
            );
        }
        p.out.push_str("  }\n");
        let text = std::mem::take(&mut p.out);
        self.out.push_str(&text);
        Ok(())
    }

    /// The name of the emitted body of extern `callee` at these argument types, if any.
    fn extern_body(
        &mut self,
        callee: &str,
        args: &[Type],
    ) -> std::result::Result<Option<String>, String> {
        if self.options.custom_calls {
            return Ok(None);
        }
        let Some(body_of) = self.options.extern_body else {
            return Ok(None);
        };
        let key = (callee.to_string(), args.to_vec());
        if let Some(name) = self.bodies.get(&key) {
            return Ok(Some(name.clone()));
        }
        let program = match body_of(callee, args) {
            None => return Ok(None),
            Some(p) => p?,
        };
        let body = program
            .function(callee)
            .cloned()
            .ok_or_else(|| format!("the body of @{callee} has no function @{callee}"))?;
        let mut name = callee.to_string();
        let mut k = 0;
        while self.used_names.contains(&name) {
            k += 1;
            name = format!("{callee}_{k}");
        }
        self.used_names.insert(name.clone());
        self.bodies.insert(key, name.clone());
        self.queue.push_back((name.clone(), body));
        Ok(Some(name))
    }
}

impl FnPrinter<'_, '_, '_> {
    fn err(&self, message: impl Into<String>) -> MlirError {
        MlirError::Export {
            function: self.function.clone(),
            message: message.into(),
        }
    }

    /// Operand `i` of `inst` (an error, not a panic, on a malformed program).
    fn operand(&self, inst: &Instruction, i: usize) -> Result<ValueId> {
        inst.operands.get(i).copied().ok_or_else(|| {
            self.err(format!(
                "{}: `{}` lacks operand {i}",
                inst.result,
                inst.op.name()
            ))
        })
    }

    fn tensor(&self, t: &Type) -> Result<TensorType> {
        t.as_tensor().cloned().ok_or_else(|| {
            self.err(format!(
                "a value of tuple type {t} where a tensor is needed"
            ))
        })
    }

    fn bind(&mut self, v: ValueId, names: Vec<String>, t: Type) {
        self.names.insert(v, names);
        self.types.insert(v, t);
    }

    fn name(&self, v: ValueId) -> Result<String> {
        match self.names.get(&v).map(Vec::as_slice) {
            Some([n]) => Ok(n.clone()),
            Some(_) => Err(self.err(format!("{v} is a tuple where a tensor is needed"))),
            None => Err(self.err(format!("{v} is used before it is defined"))),
        }
    }

    fn ty(&self, v: ValueId) -> Result<TensorType> {
        let t = self
            .types
            .get(&v)
            .ok_or_else(|| self.err(format!("{v} is used before it is defined")))?;
        self.tensor(t)
    }

    /// A name no value of the text had and none printed yet.
    fn free(&self, name: &str) -> bool {
        !self.used.contains(name) && !self.given.is_some_and(|g| g.reserved.contains(name))
    }

    /// The name of value `v` where it is defined: the text's, else `%N`, else `%vN`, `%vN_1`, ...
    fn def_name(&mut self, v: ValueId) -> String {
        let given = self.given.and_then(|g| g.names.get(&v));
        let mut name = match given {
            Some(n) if !self.used.contains(n) => n.clone(),
            _ => format!("%{}", v.0),
        };
        if given != Some(&name) && !self.free(&name) {
            name = format!("%v{}", v.0);
            let mut k = 0;
            while !self.free(&name) {
                k += 1;
                name = format!("%v{}_{k}", v.0);
            }
        }
        self.used.insert(name.clone());
        name
    }

    /// A fresh name for a value PTIR does not have (`%t1`, ...).
    fn temp(&mut self) -> String {
        loop {
            self.temps += 1;
            let name = format!("%t{}", self.temps);
            if self.free(&name) {
                self.used.insert(name.clone());
                return name;
            }
        }
    }

    /// Binds the parameters of `region`; returns them as `%name: type`.
    fn params(&mut self, region: &Region) -> Result<Vec<String>> {
        let mut params = Vec::new();
        for p in &region.params {
            let t = self.tensor(&p.ty)?;
            let name = self.def_name(p.id);
            params.push(format!("{name}: {}", mlir_type(&t)));
            self.bind(p.id, vec![name], p.ty.clone());
        }
        Ok(params)
    }

    /// The names of `values`.
    fn names_of(&self, values: &[ValueId]) -> Result<Vec<String>> {
        values.iter().map(|v| self.name(*v)).collect()
    }

    /// The tensor types of `values`.
    fn types_of(&self, values: &[ValueId]) -> Result<Vec<TensorType>> {
        values.iter().map(|v| self.ty(*v)).collect()
    }

    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn block(&mut self, region: &Region, depth: usize) -> Result<()> {
        if depth > NESTING_LIMIT + 2 {
            return Err(self.err(format!("regions nested deeper than {NESTING_LIMIT}")));
        }
        for inst in &region.insts {
            self.inst(inst, depth)?;
        }
        Ok(())
    }

    /// A region `({ ^bb0(params): ... "stablehlo.return"(results) })` body, without parens.
    fn region(&mut self, region: &Region, depth: usize) -> Result<String> {
        let params = self.params(region)?;
        let saved = std::mem::take(&mut self.out);
        if !params.is_empty() {
            let _ = writeln!(self.out, "^bb0({}):", params.join(", "));
        }
        self.block(region, depth + 1)?;
        let names = self.names_of(&region.results)?;
        let types = self.types_of(&region.results)?;
        self.line(
            depth + 1,
            &format!(
                "\"stablehlo.return\"({}) : ({}) -> ()",
                names.join(", "),
                type_list(&types)
            ),
        );
        let body = std::mem::replace(&mut self.out, saved);
        Ok(body)
    }

    /// The result names of an op with `n` results bound to `v`: `(lhs, names)`.
    fn results(&mut self, v: ValueId, n: usize) -> (String, Vec<String>) {
        let name = self.def_name(v);
        if n == 1 {
            (name.clone(), vec![name])
        } else {
            (
                format!("{name}:{n}"),
                (0..n).map(|i| format!("{name}#{i}")).collect(),
            )
        }
    }

    fn inst(&mut self, inst: &Instruction, depth: usize) -> Result<()> {
        let v = inst.result;
        match &inst.op {
            Op::Reduce {
                kind,
                axes,
                keep_dims,
            } => return self.reduce(inst, *kind, axes, *keep_dims, depth),
            Op::MultiReduce {
                kind,
                axes,
                keep_dims,
            } => return self.multi_reduce(inst, *kind, axes, *keep_dims, depth),
            Op::Gather(g) => return self.gather(inst, g, depth),
            Op::Scatter { kind, dims } => return self.scatter(inst, *kind, dims, depth),
            Op::ReduceWindow { kind, dims } => return self.reduce_window(inst, *kind, dims, depth),
            Op::SelectAndScatter { select, dims } => {
                return self.select_and_scatter(inst, *select, dims, depth)
            }
            Op::Call { callee } => return self.call(inst, callee, depth),
            Op::ArgReduce { .. }
            | Op::Sort { .. }
            | Op::TopK { .. }
            | Op::RngBitGenerator { .. }
            | Op::OptimizationBarrier => return self.several_results_op(inst, depth),
            Op::Tuple => {
                let names = self.names_of(&inst.operands)?;
                self.bind(v, names, inst.ty.clone());
                return Ok(());
            }
            Op::TupleGet { index } => {
                let t = inst.operands.first().and_then(|o| self.names.get(o));
                let name = t
                    .and_then(|names| names.get(*index))
                    .cloned()
                    .ok_or_else(|| {
                        self.err(format!("{v}: tuple_get of something that is not a tuple"))
                    })?;
                self.bind(v, vec![name], inst.ty.clone());
                return Ok(());
            }
            Op::Cond {
                then_region,
                else_region,
            } => {
                let types = flat_types(&inst.ty, self)?;
                return self.region_op(inst, "if", &[then_region, else_region], &types, depth);
            }
            Op::While { cond, body } => {
                let types = self.types_of(&inst.operands)?;
                return self.region_op(inst, "while", &[cond, body], &types, depth);
            }
            Op::Scan { .. } => return Err(self.err("`scan` has no StableHLO export yet")),
            Op::Rng { .. } => {
                return Err(self.err("`rng` has no StableHLO export (its stream is PTIR's)"))
            }
            _ => {}
        }
        let ops = self.names_of(&inst.operands)?;
        let ots = self.types_of(&inst.operands)?;
        let t = self.tensor(&inst.ty)?;
        let r = self.def_name(v);
        let (args, ty) = (ops.join(", "), mlir_type(&t));
        // `name args : type`, `name args : (types) -> type`, `"name"(args) props : (types) -> type`.
        let short = |name: &str| format!("{r} = {name} {args} : {ty}");
        let functional =
            |name: &str| format!("{r} = {name} {args} : ({}) -> {ty}", type_list(&ots));
        let generic = |name: &str, props: &str| {
            format!(
                "{r} = \"{name}\"({args}){props} : ({}) -> {ty}",
                type_list(&ots)
            )
        };
        let text = match &inst.op {
            Op::Constant(lit) => format!("{r} = stablehlo.constant {} : {ty}", dense(lit, &t)),
            Op::Iota { dim } => format!("{r} = stablehlo.iota dim = {dim} : {ty}"),
            Op::DynamicSlice { sizes } => generic(
                "stablehlo.dynamic_slice",
                &format!(" <{{slice_sizes = {}}}>", array(sizes)),
            ),
            Op::DynamicUpdateSlice => generic("stablehlo.dynamic_update_slice", ""),
            Op::Unary(u) if chlo_unary(*u) => generic(&format!("chlo.{}", unary_name(*u)), ""),
            Op::Unary(UnaryOp::Square) => format!("{r} = stablehlo.multiply {args}, {args} : {ty}"),
            Op::Unary(u) => short(&format!("stablehlo.{}", unary_name(*u))),
            Op::Binary(b) if chlo_binary(*b) => generic(&format!("chlo.{}", binary_name(*b)), ""),
            Op::Binary(b) => short(&format!("stablehlo.{}", binary_name(*b))),
            Op::Compare(c) => {
                let kind = compare_type(ots.first().map_or(DType::I32, |t| t.dtype));
                format!(
                    "{r} = stablehlo.compare {}, {args}, {kind} : ({}) -> {ty}",
                    cmp_name(*c),
                    type_list(&ots)
                )
            }
            Op::Select => generic("stablehlo.select", ""),
            Op::Cast => functional("stablehlo.convert"),
            Op::Bitcast | Op::BitcastResize => functional("stablehlo.bitcast_convert"),
            Op::Reshape => functional("stablehlo.reshape"),
            Op::Transpose { perm } => generic(
                "stablehlo.transpose",
                &format!(" <{{permutation = {}}}>", array(perm)),
            ),
            Op::Broadcast { dims } => generic(
                "stablehlo.broadcast_in_dim",
                &format!(" <{{broadcast_dimensions = {}}}>", array(dims)),
            ),
            Op::Slice(slice) => generic(
                "stablehlo.slice",
                &format!(
                    " <{{start_indices = {}, limit_indices = {}, strides = {}}}>",
                    array(&slice.start),
                    array(&slice.limit),
                    array(&slice.stride)
                ),
            ),
            Op::Concat { axis } => generic(
                "stablehlo.concatenate",
                &format!(" <{{dimension = {axis} : i64}}>"),
            ),
            Op::DotGeneral(d) => {
                let mut fields = Vec::new();
                for (k, xs) in [
                    ("lhs_batching_dimensions", &d.lhs_batch),
                    ("rhs_batching_dimensions", &d.rhs_batch),
                    ("lhs_contracting_dimensions", &d.lhs_contract),
                    ("rhs_contracting_dimensions", &d.rhs_contract),
                ] {
                    if !xs.is_empty() {
                        fields.push(format!("{k} = {}", list(xs)));
                    }
                }
                let precision = match d.precision {
                    Some(both) => format!(
                        ", precision_config = [{}]",
                        both.map(|p| format!(
                            "#stablehlo<precision {}>",
                            p.name().to_ascii_uppercase()
                        ))
                        .join(", ")
                    ),
                    None => String::new(),
                };
                generic(
                    "stablehlo.dot_general",
                    &format!(
                        " <{{dot_dimension_numbers = #stablehlo.dot<{}>{precision}}}>",
                        fields.join(", ")
                    ),
                )
            }
            Op::Convolution(c) => generic("stablehlo.convolution", &convolution_props(c)),
            Op::Pad(p) => generic(
                "stablehlo.pad",
                &format!(
                    " <{{edge_padding_high = {}, edge_padding_low = {}, interior_padding = {}}}>",
                    array(&p.high),
                    array(&p.low),
                    array(&p.interior)
                ),
            ),
            Op::ReducePrecision {
                exponent_bits,
                mantissa_bits,
            } => generic(
                "stablehlo.reduce_precision",
                &format!(
                    " <{{exponent_bits = {exponent_bits} : i32, mantissa_bits = {mantissa_bits} : i32}}>"
                ),
            ),
            Op::Reverse { dims } => generic(
                "stablehlo.reverse",
                &format!(" <{{dimensions = {}}}>", array(dims)),
            ),
            _ => return Err(self.err(format!("{v}: `{}` is not exported here", inst.op.name()))),
        };
        self.line(depth, &text);
        self.bind(v, vec![r], inst.ty.clone());
        Ok(())
    }

    /// `stablehlo.if` / `stablehlo.while` with `regions`, results of `types`.
    fn region_op(
        &mut self,
        inst: &Instruction,
        name: &str,
        regions: &[&Region],
        types: &[TensorType],
        depth: usize,
    ) -> Result<()> {
        let operands = self.names_of(&inst.operands)?;
        let operand_types = self.types_of(&inst.operands)?;
        let pad = "  ".repeat(depth);
        let mut bodies = Vec::new();
        for region in regions {
            let body = self.region(region, depth)?;
            bodies.push(format!("{{\n{body}{pad}}}"));
        }
        let (lhs, names) = self.results(inst.result, types.len());
        let text = format!(
            "{lhs} = \"stablehlo.{name}\"({}) ({}) : ({}) -> ({})",
            operands.join(", "),
            bodies.join(", "),
            type_list(&operand_types),
            type_list(types)
        );
        self.line(depth, &text);
        self.bind(inst.result, names, inst.ty.clone());
        Ok(())
    }

    fn reduce(
        &mut self,
        inst: &Instruction,
        kind: ReduceKind,
        axes: &[usize],
        keep_dims: bool,
        depth: usize,
    ) -> Result<()> {
        let x = self.name(self.operand(inst, 0)?)?;
        let xt = self.ty(self.operand(inst, 0)?)?;
        let rt = self.tensor(&inst.ty)?;
        let d = xt.dtype;
        let scalar_t = mlir_type(&TensorType::new(d, vec![]));
        let (init, body) = (kind.identity(d), reducer_body(kind, d));
        let c = self.temp();
        self.line(
            depth,
            &format!(
                "{c} = stablehlo.constant dense<{}> : {scalar_t}",
                elem(init, d)
            ),
        );
        let mut sorted = axes.to_vec();
        sorted.sort_unstable();
        let squeezed = TensorType::new(d, ptir_ir::reduced_shape(&xt.shape, axes, false));
        let r = self.def_name(inst.result);
        let target = if keep_dims { self.temp() } else { r.clone() };
        let region = self.reducer_region(&body, d, depth);
        let text = format!(
            "{target} = \"stablehlo.reduce\"({x}, {c}) <{{dimensions = {}}}> {region} : ({}, {scalar_t}) -> {}",
            array(&sorted),
            mlir_type(&xt),
            mlir_type(&squeezed)
        );
        self.line(depth, &text);
        if keep_dims {
            self.line(
                depth,
                &format!(
                    "{r} = stablehlo.reshape {target} : ({}) -> {}",
                    mlir_type(&squeezed),
                    mlir_type(&rt)
                ),
            );
        }
        self.bind(inst.result, vec![r], inst.ty.clone());
        Ok(())
    }

    /// `multi_reduce_<kind>`: one `stablehlo.reduce` of all the operands, each from its
    /// identity, whose body combines each accumulator with its own element (then a reshape per
    /// result keeping the reduced dims).
    fn multi_reduce(
        &mut self,
        inst: &Instruction,
        kind: ReduceKind,
        axes: &[usize],
        keep_dims: bool,
        depth: usize,
    ) -> Result<()> {
        let names = self.names_of(&inst.operands)?;
        let types = self.types_of(&inst.operands)?;
        let kept = flat_types(&inst.ty, self)?;
        if types.is_empty() || kept.len() != types.len() {
            return Err(self.err(format!(
                "`{}` has {} operand(s) and {} result(s)",
                kind.multi_name(),
                types.len(),
                kept.len()
            )));
        }
        let scalars: Vec<String> = (types.iter())
            .map(|t| mlir_type(&TensorType::new(t.dtype, vec![])))
            .collect();
        let mut inits = Vec::with_capacity(types.len());
        for (t, scalar_t) in types.iter().zip(&scalars) {
            let c = self.temp();
            let init = elem(kind.identity(t.dtype), t.dtype);
            self.line(
                depth,
                &format!("{c} = stablehlo.constant dense<{init}> : {scalar_t}"),
            );
            inits.push(c);
        }
        let squeezed: Vec<TensorType> = (types.iter())
            .map(|t| TensorType::new(t.dtype, ptir_ir::reduced_shape(&t.shape, axes, false)))
            .collect();
        let (accs, elems): (Vec<String>, Vec<String>) =
            types.iter().map(|_| (self.temp(), self.temp())).unzip();
        let pad = "  ".repeat(depth);
        let mut block = String::from("{\n");
        let args: Vec<String> = (accs.iter().chain(&elems))
            .zip(scalars.iter().chain(&scalars))
            .map(|(a, t)| format!("{a}: {t}"))
            .collect();
        block.push_str(&format!("{pad}^bb0({}):\n", args.join(", ")));
        let mut sums = Vec::with_capacity(types.len());
        for (i, t) in types.iter().enumerate() {
            let s = self.temp();
            let body = reducer_body(kind, t.dtype);
            block.push_str(&format!(
                "{pad}  {s} = {body} {}, {} : {}\n",
                accs[i], elems[i], scalars[i]
            ));
            sums.push(s);
        }
        block.push_str(&format!(
            "{pad}  \"stablehlo.return\"({}) : ({}) -> ()\n{pad}}}",
            sums.join(", "),
            scalars.join(", ")
        ));
        let mut sorted = axes.to_vec();
        sorted.sort_unstable();
        let all: Vec<String> = names.iter().chain(&inits).cloned().collect();
        let in_types: Vec<String> = (types.iter().map(mlir_type))
            .chain(scalars.iter().cloned())
            .collect();
        let out_types: Vec<String> = squeezed.iter().map(mlir_type).collect();
        let (lhs, reduced) = match keep_dims {
            true => {
                let t = self.temp();
                let n = types.len();
                let parts = match n {
                    1 => vec![t.clone()],
                    _ => (0..n).map(|i| format!("{t}#{i}")).collect(),
                };
                (if n == 1 { t } else { format!("{t}:{n}") }, parts)
            }
            false => self.results(inst.result, types.len()),
        };
        self.line(
            depth,
            &format!(
                "{lhs} = \"stablehlo.reduce\"({}) <{{dimensions = {}}}> ({block}) : ({}) -> ({})",
                all.join(", "),
                array(&sorted),
                in_types.join(", "),
                out_types.join(", ")
            ),
        );
        let results = match keep_dims {
            false => reduced,
            true => {
                let mut results = Vec::with_capacity(reduced.len());
                for ((part, from), to) in reduced.iter().zip(&squeezed).zip(&kept) {
                    let r = self.temp();
                    self.line(
                        depth,
                        &format!(
                            "{r} = stablehlo.reshape {part} : ({}) -> {}",
                            mlir_type(from),
                            mlir_type(to)
                        ),
                    );
                    results.push(r);
                }
                results
            }
        };
        self.bind(inst.result, results, inst.ty.clone());
        Ok(())
    }

    /// The region of a `reduce` or `reduce_window` combining two scalars of dtype `d` with the
    /// op `body`: `({ ^bb0(%a, %b): %s = body %a, %b; return %s })`.
    fn reducer_region(&mut self, body: &str, d: DType, depth: usize) -> String {
        let scalar_t = mlir_type(&TensorType::new(d, vec![]));
        format!(
            "({})",
            self.scalar_block(d, depth, &scalar_t, |a, b| format!(
                "{body} {a}, {b} : {scalar_t}"
            ))
        )
    }

    /// A block of two scalar arguments of dtype `d` returning one value of type `result_t`,
    /// the op `op(a, b)` (its text after `=`): `{ ^bb0(%a, %b): %s = op; return %s }`.
    fn scalar_block(
        &mut self,
        d: DType,
        depth: usize,
        result_t: &str,
        op: impl FnOnce(&str, &str) -> String,
    ) -> String {
        let scalar_t = mlir_type(&TensorType::new(d, vec![]));
        let (a, b, s) = (self.temp(), self.temp(), self.temp());
        let pad = "  ".repeat(depth);
        let text = op(&a, &b);
        format!(
            "{{\n{pad}^bb0({a}: {scalar_t}, {b}: {scalar_t}):\n{pad}  {s} = {text}\n{pad}  \"stablehlo.return\"({s}) : ({result_t}) -> ()\n{pad}}}"
        )
    }

    /// `select_and_scatter_<select>(x, source, init)`: `stablehlo.select_and_scatter` whose
    /// select region compares by `select` and whose scatter region adds.
    fn select_and_scatter(
        &mut self,
        inst: &Instruction,
        select: SelectKind,
        dims: &ReduceWindowDims,
        depth: usize,
    ) -> Result<()> {
        let operands: Vec<ValueId> = (0..3)
            .map(|i| self.operand(inst, i))
            .collect::<Result<_>>()?;
        let names = self.names_of(&operands)?;
        let types = self.types_of(&operands)?;
        let d = types[0].dtype;
        let scalar_t = mlir_type(&TensorType::new(d, vec![]));
        let (dir, kind) = (cmp_name(select.compare()), compare_type(d));
        let select_block = self.scalar_block(d, depth, "tensor<i1>", |a, b| {
            format!("stablehlo.compare {dir}, {a}, {b}, {kind} : ({scalar_t}, {scalar_t}) -> tensor<i1>")
        });
        let scatter_block = self.scalar_block(d, depth, &scalar_t, |a, b| {
            format!("stablehlo.add {a}, {b} : {scalar_t}")
        });
        let mut props = vec![format!("window_dimensions = {}", array(&dims.size))];
        props.extend(window_props(
            &dims.window,
            ["base_dilations", "window_dilations"],
        ));
        let rt = self.tensor(&inst.ty)?;
        let r = self.def_name(inst.result);
        let text = format!(
            "{r} = \"stablehlo.select_and_scatter\"({}) <{{{}}}> ({select_block}, {scatter_block}) : ({}) -> {}",
            names.join(", "),
            props.join(", "),
            type_list(&types),
            mlir_type(&rt)
        );
        self.line(depth, &text);
        self.bind(inst.result, vec![r], inst.ty.clone());
        Ok(())
    }

    /// `reduce_arg*`, `sort` and `top_k`: `stablehlo.reduce` with JAX's argmax/argmin body,
    /// `stablehlo.sort` with a comparator on the keys (JAX's canonicalizing one for its order),
    /// `chlo.top_k`; and, an op of several results like them, `rng_bit_generator`.
    fn several_results_op(&mut self, inst: &Instruction, depth: usize) -> Result<()> {
        let names = self.names_of(&inst.operands)?;
        let types = self.types_of(&inst.operands)?;
        let result_types = flat_types(&inst.ty, self)?;
        let (lhs, results) = self.results(inst.result, result_types.len());
        let sig = format!("({}) -> ({})", type_list(&types), type_list(&result_types));
        let args = names.join(", ");
        let pad = "  ".repeat(depth);
        let text = match &inst.op {
            Op::RngBitGenerator { algorithm } => format!(
                "{lhs} = \"stablehlo.rng_bit_generator\"({args}) {{rng_algorithm = #stablehlo<rng_algorithm {}>}} : {sig}",
                algorithm.name().to_uppercase()
            ),
            Op::OptimizationBarrier => {
                format!("{lhs} = \"stablehlo.optimization_barrier\"({args}) : {sig}")
            }
            Op::TopK { k } => format!(
                "{lhs} = chlo.top_k({args}, k = {k}) : {} -> ({})",
                type_list(&types),
                type_list(&result_types)
            ),
            Op::ArgReduce { kind, axes } => {
                let [x, i, ..] = types.as_slice() else {
                    return Err(self.err("`reduce_arg*` needs its values and indices"));
                };
                let block = self.arg_reducer(*kind, x.dtype, i.dtype, depth);
                let mut sorted = axes.clone();
                sorted.sort_unstable();
                format!(
                    "{lhs} = \"stablehlo.reduce\"({args}) <{{dimensions = {}}}> ({block}\n{pad}}}) : {sig}",
                    array(&sorted)
                )
            }
            Op::Sort {
                dim,
                keys,
                descending,
                stable,
                total_order,
            } => {
                let block = self.comparator(&types, *keys, *descending, *total_order, depth);
                format!(
                    "{lhs} = \"stablehlo.sort\"({args}) <{{dimension = {dim} : i64, is_stable = {stable}}}> ({block}\n{pad}}}) : {sig}"
                )
            }
            _ => return Err(self.err(format!("`{}` is not an op of several results", inst.op.name()))),
        };
        self.line(depth, &text);
        self.bind(inst.result, results, inst.ty.clone());
        Ok(())
    }

    /// The lines of a region block: `{`, `^bb0(args):`, the ops, the return (without the
    /// closing `}`); `args` are `(name, type)`, `ops` the ops' texts, `ret` the returned names
    /// and their types.
    fn region_lines(
        &self,
        depth: usize,
        args: &[(String, String)],
        ops: &[String],
        ret: (&[String], &[String]),
    ) -> String {
        let pad = "  ".repeat(depth);
        let params: Vec<String> = args.iter().map(|(n, t)| format!("{n}: {t}")).collect();
        let mut text = format!("{{\n{pad}^bb0({}):", params.join(", "));
        for op in ops {
            text.push_str(&format!("\n{pad}  {op}"));
        }
        text.push_str(&format!(
            "\n{pad}  \"stablehlo.return\"({}) : ({}) -> ()",
            ret.0.join(", "),
            ret.1.join(", ")
        ));
        text
    }

    /// JAX's `argmax`/`argmin` reducer body (see `Op::ArgReduce`).
    fn arg_reducer(&mut self, kind: ArgKind, vd: DType, id: DType, depth: usize) -> String {
        let (vt, it) = (
            mlir_type(&TensorType::new(vd, vec![])),
            mlir_type(&TensorType::new(id, vec![])),
        );
        let [a, ai, b, bi] = [self.temp(), self.temp(), self.temp(), self.temp()];
        let [gt, ne, pick, eq, lt, tie, pick_i, v, i] = [(); 9].map(|()| self.temp());
        let cmp = |r: &str, dir: CmpOp, x: &str, y: &str, d: DType, t: &str| {
            format!(
                "{r} = stablehlo.compare {}, {x}, {y}, {} : ({t}, {t}) -> tensor<i1>",
                cmp_name(dir),
                compare_type(d)
            )
        };
        let ops = [
            cmp(&gt, kind.compare(), &a, &b, vd, &vt),
            cmp(&ne, CmpOp::Ne, &a, &a, vd, &vt),
            format!("{pick} = stablehlo.or {gt}, {ne} : tensor<i1>"),
            cmp(&eq, CmpOp::Eq, &a, &b, vd, &vt),
            cmp(&lt, CmpOp::Lt, &ai, &bi, id, &it),
            format!("{tie} = stablehlo.and {eq}, {lt} : tensor<i1>"),
            format!("{pick_i} = stablehlo.or {pick}, {tie} : tensor<i1>"),
            format!("{v} = stablehlo.select {pick}, {a}, {b} : tensor<i1>, {vt}"),
            format!("{i} = stablehlo.select {pick_i}, {ai}, {bi} : tensor<i1>, {it}"),
        ];
        let args = [
            (a, vt.clone()),
            (ai, it.clone()),
            (b, vt.clone()),
            (bi, it.clone()),
        ];
        self.region_lines(depth, &args, &ops, (&[v, i], &[vt, it]))
    }

    /// A `stablehlo.sort` comparator on the first `keys` of `types` (see `Op::Sort`), as JAX
    /// writes it: `LT` (or `GT` descending) of each key, `TOTALORDER` for floats, after JAX's
    /// canonicalization of `-0` and NaN unless `total_order`; several keys lexicographically,
    /// `lt(k1) || (eq(k1) && (lt(k2) || ...))`.
    fn comparator(
        &mut self,
        types: &[TensorType],
        keys: usize,
        descending: bool,
        total_order: bool,
        depth: usize,
    ) -> String {
        let mut args = Vec::new();
        for t in types {
            let st = mlir_type(&TensorType::new(t.dtype, vec![]));
            args.push((self.temp(), st.clone()));
            args.push((self.temp(), st));
        }
        let mut ops = Vec::new();
        // Each key's `less` and `equal` comparisons.
        let mut compares = Vec::new();
        for (i, t) in types.iter().take(keys.max(1)).enumerate() {
            let key = t.dtype;
            let kt = mlir_type(&TensorType::new(key, vec![]));
            let mut pair = [args[2 * i].0.clone(), args[2 * i + 1].0.clone()];
            if key.is_float() && !total_order {
                for k in &mut pair {
                    *k = self.jax_canonical(k, key, &kt, &mut ops);
                }
            }
            let kind = if key.is_float() {
                "TOTALORDER"
            } else {
                compare_type(key)
            };
            let [lt, eq] = [(); 2].map(|()| self.temp());
            let [l, r] = &pair;
            let dir = if descending { "GT" } else { "LT" };
            ops.push(format!(
                "{lt} = stablehlo.compare {dir}, {l}, {r}, {kind} : ({kt}, {kt}) -> tensor<i1>"
            ));
            if i + 1 < keys {
                ops.push(format!(
                    "{eq} = stablehlo.compare EQ, {l}, {r}, {kind} : ({kt}, {kt}) -> tensor<i1>"
                ));
            }
            compares.push((lt, eq));
        }
        let mut rest = compares.pop().map(|(lt, _)| lt).unwrap_or_default();
        while let Some((lt, eq)) = compares.pop() {
            let [tie, either] = [(); 2].map(|()| self.temp());
            ops.push(format!("{tie} = stablehlo.and {eq}, {rest} : tensor<i1>"));
            ops.push(format!("{either} = stablehlo.or {lt}, {tie} : tensor<i1>"));
            rest = either;
        }
        self.region_lines(depth, &args, &ops, (&[rest], &["tensor<i1>".to_string()]))
    }

    /// JAX's canonicalization of a float sort key `k` of dtype `key` (scalar type `kt`): -0
    /// becomes +0, every NaN the positive quiet NaN. Pushes its ops, returns its name.
    fn jax_canonical(&mut self, k: &str, key: DType, kt: &str, ops: &mut Vec<String>) -> String {
        let zero = elem(Scalar::zero(key), key);
        let nan = elem(Scalar::Float(f64::NAN), key);
        let [z, is_zero, nz, c_nan, is_nan, canon] = [(); 6].map(|()| self.temp());
        ops.push(format!("{z} = stablehlo.constant dense<{zero}> : {kt}"));
        ops.push(format!(
            "{is_zero} = stablehlo.compare EQ, {k}, {z}, FLOAT : ({kt}, {kt}) -> tensor<i1>"
        ));
        ops.push(format!(
            "{nz} = stablehlo.select {is_zero}, {z}, {k} : tensor<i1>, {kt}"
        ));
        ops.push(format!("{c_nan} = stablehlo.constant dense<{nan}> : {kt}"));
        ops.push(format!(
            "{is_nan} = stablehlo.compare NE, {k}, {k}, FLOAT : ({kt}, {kt}) -> tensor<i1>"
        ));
        ops.push(format!(
            "{canon} = stablehlo.select {is_nan}, {c_nan}, {nz} : tensor<i1>, {kt}"
        ));
        canon
    }

    /// `reduce_window_<kind>(x, init)`: `stablehlo.reduce_window` with an `add`, `maximum` (or
    /// for bool `or`) body.
    fn reduce_window(
        &mut self,
        inst: &Instruction,
        kind: ReduceKind,
        dims: &ReduceWindowDims,
        depth: usize,
    ) -> Result<()> {
        let (x, init) = (self.operand(inst, 0)?, self.operand(inst, 1)?);
        let (xt, it) = (self.ty(x)?, self.ty(init)?);
        let names = [self.name(x)?, self.name(init)?];
        let rt = self.tensor(&inst.ty)?;
        let body = reducer_body(kind, xt.dtype);
        let mut props = vec![format!("window_dimensions = {}", array(&dims.size))];
        props.extend(window_props(
            &dims.window,
            ["base_dilations", "window_dilations"],
        ));
        let region = self.reducer_region(&body, xt.dtype, depth);
        let r = self.def_name(inst.result);
        let text = format!(
            "{r} = \"stablehlo.reduce_window\"({}) <{{{}}}> {region} : ({}, {}) -> {}",
            names.join(", "),
            props.join(", "),
            mlir_type(&xt),
            mlir_type(&it),
            mlir_type(&rt)
        );
        self.line(depth, &text);
        self.bind(inst.result, vec![r], inst.ty.clone());
        Ok(())
    }

    fn call(&mut self, inst: &Instruction, callee: &str, depth: usize) -> Result<()> {
        let args = self.names_of(&inst.operands)?;
        let ats = self.types_of(&inst.operands)?;
        let result_types = flat_types(&inst.ty, self)?;
        let (lhs, names) = self.results(inst.result, result_types.len());
        let lhs = if result_types.is_empty() {
            String::new()
        } else {
            format!("{lhs} = ")
        };
        let sig = format!("({}) -> ({})", type_list(&ats), type_list(&result_types));
        // A custom call read from the source prints back as it was; an extern the program
        // declares with a signature is the user's own (a custom call's target, even one named
        // like a library extern), never given a library body; only a library extern (declared
        // shape-polymorphic, as rule results declare it) may be.
        let opaque = self.ex.options.source.and_then(|s| s.opaque.get(callee));
        let decl = self.ex.program.extern_decl(callee);
        let target = if self.ex.program.function(callee).is_some() {
            Some(callee.to_string())
        } else if opaque.is_some() || decl.is_some_and(|e| e.signature.is_some()) {
            None
        } else {
            let arg_types: Vec<Type> = ats.iter().map(|t| t.clone().into()).collect();
            self.ex
                .extern_body(callee, &arg_types)
                .map_err(|e| self.err(format!("the body of @{callee}: {e}")))?
        };
        let text = match (opaque, target) {
            (Some(op), _) => format!("{lhs}{}", op.with_operands(&args)),
            (None, Some(f)) => {
                format!("{lhs}func.call {}({}) : {sig}", symbol(&f), args.join(", "))
            }
            (None, None) => {
                let pure = decl.is_some_and(|e| e.pure);
                format!(
                    "{lhs}stablehlo.custom_call {}({}) {{has_side_effect = {}}} : {sig}",
                    symbol(callee),
                    args.join(", "),
                    !pure
                )
            }
        };
        self.line(depth, &text);
        self.bind(inst.result, names, inst.ty.clone());
        Ok(())
    }
}

/// The tensor types of a value: itself, or a tuple's elements.
fn flat_types(t: &Type, p: &FnPrinter) -> Result<Vec<TensorType>> {
    match t {
        Type::Tensor(t) => Ok(vec![t.clone()]),
        Type::Tuple(ts) => ts.iter().map(|t| p.tensor(t)).collect(),
    }
}

/// A symbol reference as MLIR writes it: `@name`, or `@"name"` when the name is not a bare
/// identifier (JAX's `@"<lambda>"`; escapes as they were read).
fn symbol(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 3);
    ptir_ir::write_symbol(&mut out, name);
    out
}

/// Is the unary op a CHLO op (`chlo.erf`, ...) rather than a StableHLO one?
pub(crate) fn chlo_unary(u: UnaryOp) -> bool {
    matches!(
        u,
        UnaryOp::Erf
            | UnaryOp::Erfc
            | UnaryOp::ErfInv
            | UnaryOp::Sinh
            | UnaryOp::Cosh
            | UnaryOp::Asin
            | UnaryOp::Acos
            | UnaryOp::Atan
            | UnaryOp::Asinh
            | UnaryOp::Acosh
            | UnaryOp::Atanh
            | UnaryOp::Lgamma
            | UnaryOp::Digamma
    )
}

/// Is the binary op a CHLO op (`chlo.next_after`) rather than a StableHLO one?
pub(crate) fn chlo_binary(b: BinaryOp) -> bool {
    b == BinaryOp::NextAfter
}

/// The StableHLO (or, for [`chlo_unary`] ops, CHLO) name of a unary op; the importer reads
/// the same table back. `square` is written as a `multiply`.
pub(crate) fn unary_name(u: UnaryOp) -> &'static str {
    match u {
        UnaryOp::Neg => "negate",
        UnaryOp::Exp => "exponential",
        UnaryOp::Log => "log",
        UnaryOp::Sqrt => "sqrt",
        UnaryOp::Rsqrt => "rsqrt",
        UnaryOp::Tanh => "tanh",
        UnaryOp::Erf => "erf",
        UnaryOp::Abs => "abs",
        UnaryOp::Logistic => "logistic",
        UnaryOp::Not => "not",
        UnaryOp::Square => "multiply",
        UnaryOp::Sin => "sine",
        UnaryOp::Cos => "cosine",
        UnaryOp::Tan => "tan",
        UnaryOp::Erfc => "erfc",
        UnaryOp::Log1p => "log_plus_one",
        UnaryOp::Expm1 => "exponential_minus_one",
        UnaryOp::Cbrt => "cbrt",
        UnaryOp::Floor => "floor",
        UnaryOp::Ceil => "ceil",
        UnaryOp::Round => "round_nearest_even",
        UnaryOp::RoundAfz => "round_nearest_afz",
        UnaryOp::Sign => "sign",
        UnaryOp::Popcnt => "popcnt",
        UnaryOp::Clz => "count_leading_zeros",
        UnaryOp::ErfInv => "erf_inv",
        UnaryOp::Sinh => "sinh",
        UnaryOp::Cosh => "cosh",
        UnaryOp::Asin => "asin",
        UnaryOp::Acos => "acos",
        UnaryOp::Atan => "atan",
        UnaryOp::Asinh => "asinh",
        UnaryOp::Acosh => "acosh",
        UnaryOp::Atanh => "atanh",
        UnaryOp::Lgamma => "lgamma",
        UnaryOp::Digamma => "digamma",
    }
}

/// The StableHLO (or, for [`chlo_binary`] ops, CHLO) name of a binary op; the importer reads
/// the same table back.
/// The op of a `reduce` or `reduce_window` body computing one step of `kind` on `d`.
fn reducer_body(kind: ReduceKind, d: DType) -> String {
    format!("stablehlo.{}", binary_name(kind.step(d)))
}

pub(crate) fn binary_name(b: BinaryOp) -> &'static str {
    match b {
        BinaryOp::Add => "add",
        BinaryOp::Sub => "subtract",
        BinaryOp::Mul => "multiply",
        BinaryOp::Div => "divide",
        BinaryOp::Rem => "remainder",
        BinaryOp::Max => "maximum",
        BinaryOp::Min => "minimum",
        BinaryOp::Pow => "power",
        BinaryOp::Xor => "xor",
        BinaryOp::Atan2 => "atan2",
        BinaryOp::NextAfter => "next_after",
        BinaryOp::Shl => "shift_left",
        BinaryOp::ShrArith => "shift_right_arithmetic",
        BinaryOp::ShrLogical => "shift_right_logical",
        BinaryOp::And => "and",
        BinaryOp::Or => "or",
    }
}

fn cmp_name(c: CmpOp) -> &'static str {
    match c {
        CmpOp::Eq => "EQ",
        CmpOp::Ne => "NE",
        CmpOp::Lt => "LT",
        CmpOp::Le => "LE",
        CmpOp::Gt => "GT",
        CmpOp::Ge => "GE",
    }
}
