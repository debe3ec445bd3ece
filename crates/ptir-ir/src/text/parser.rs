//! The parser: `.ptir` text to [`Program`], by recursive descent over [`Lexer`] tokens.
//!
//! It never panics, on any input: every failure is a [`ParseError`] with the line, the column
//! and what was expected. Nesting (regions, tuple types) is bounded by [`NESTING_LIMIT`] so that
//! hostile input cannot overflow the stack. The parser checks syntax and names; types and SSA
//! visibility are the verifier's job ([`crate::verify`]).
//!
//! Value names: `%N` (digits) is value number `N`, which is what the printer writes, so printed
//! programs read back identical. Other names (`%x`) are numbered after the largest `%N` of their
//! function, in order of first appearance.

use super::lexer::{line_col, Lexer, Spanned, Tok};
use super::printer::{CONV_DILATIONS, WINDOW_DILATIONS};
use super::source_map::{FunctionSource, InstSource, SourceLoc, SourceMap};
use crate::gather::{GatherDims, IndexDims};
use crate::ops::{DotDims, Op, OpKey, Precision, RngAlgorithm, RngDist};
use crate::program::{
    ExternDecl, Function, Instruction, Param, Program, Region, Signature, ValueId,
};
use crate::tensor::{int_from_i128, parse_float, Data, Literal, Scalar};
use crate::types::{DType, TensorType, Type};
use crate::window::{ConvDims, PadDims, ReduceWindowDims, Window};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::OnceLock;

pub use crate::types::NESTING_LIMIT;

/// Value numbers at or above this are reserved for named (`%x`) values while parsing.
const NAMED_BASE: u32 = 1 << 31;

/// A syntax error, located.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// What went wrong, usually "expected X, found Y".
    pub message: String,
}

/// Parses a program.
///
/// ```
/// let p = ptir_ir::parse("func @id(%x: f32[]) -> (f32[]) {\n  return %x\n}").unwrap();
/// assert_eq!(p.functions[0].name, "id");
/// let err = ptir_ir::parse("func @f() -> () {\n  %1 = frob : f32[]\n}").unwrap_err();
/// assert_eq!(err.to_string(), "2:8: unknown op `frob`");
/// ```
pub fn parse(src: &str) -> Result<Program, ParseError> {
    let mut p = Parser::new(src);
    p.program()
}

/// Parses a program and says where each of its functions, instructions and value uses is
/// written, and the names values were written with ([`SourceMap`]): what places verifier
/// diagnostics in the source.
///
/// ```
/// let src = "func @f(%x: f32[4]) -> (f32[4]) {\n  %a = exp %y : f32[4]\n  return %a\n}";
/// let (p, map) = ptir_ir::parse_with_source_map(src).unwrap();
/// let err = ptir_ir::verify(&p).unwrap_err();
/// assert_eq!(err.to_string(), "in @f, instruction %1 = exp: uses %2 before its definition");
/// let located = map.locate_all(&err);
/// assert_eq!(located[0].to_string(), "2:12: in @f, instruction %a = exp: uses %y before its definition");
/// ```
pub fn parse_with_source_map(src: &str) -> Result<(Program, SourceMap), ParseError> {
    let mut p = Parser::new(src);
    p.record = Some(Recorder::default());
    let program = p.program()?;
    Ok((program, p.record.map(|r| r.map).unwrap_or_default()))
}

/// What [`parse_with_source_map`] records while parsing.
#[derive(Default)]
struct Recorder {
    map: SourceMap,
    /// The function being parsed (value ids provisional until its end).
    function: FunctionSource,
    /// Value uses read since the current instruction or terminator began.
    uses: Vec<(ValueId, SourceLoc)>,
    /// Where the current instruction's result is written.
    inst_at: SourceLoc,
    /// The last position converted to a line and column, to convert the next from there
    /// (positions arrive in order, so the whole source is scanned once).
    cursor: (usize, SourceLoc),
}

impl Recorder {
    /// The line and column of byte `pos` of `src`.
    fn loc(&mut self, src: &str, pos: usize) -> SourceLoc {
        let (from, mut loc) = self.cursor;
        if pos < from || loc.line == 0 {
            let (line, col) = line_col(src, pos);
            loc = SourceLoc { line, col };
        } else {
            for c in src.get(from..pos).unwrap_or("").chars() {
                if c == '\n' {
                    loc.line += 1;
                    loc.col = 1;
                } else {
                    loc.col += 1;
                }
            }
        }
        self.cursor = (pos, loc);
        loc
    }
}
type PResult<T> = Result<T, ParseError>;

/// A parsed attribute value.
enum Attr<'s> {
    List(Vec<usize>),
    /// A list with a negative number (paddings).
    Signed(Vec<i64>),
    Int(usize),
    Bool(bool),
    Word(&'s str),
}

/// The attributes of one instruction, with their positions, consumed as the op is built.
struct Attrs<'s> {
    items: Vec<(&'s str, Attr<'s>, usize)>,
}

struct Parser<'s> {
    src: &'s str,
    lexer: Lexer<'s>,
    peeked: Spanned<'s>,
    depth: usize,
    /// Per function: named values (`%x`) and the provisional numbers they got.
    named: FxHashMap<&'s str, ValueId>,
    /// Per function: values defined so far, to report redefinitions where they happen.
    defined: DefinedSet,
    /// Per function: the largest `%N` seen.
    max_numbered: Option<u32>,
    /// The source map being recorded ([`parse_with_source_map`]).
    record: Option<Recorder>,
}

impl<'s> Parser<'s> {
    fn new(src: &'s str) -> Self {
        let mut lexer = Lexer::new(src);
        let peeked = lexer.next_token();
        Parser {
            src,
            lexer,
            peeked,
            depth: 0,
            named: FxHashMap::default(),
            defined: DefinedSet::new(src.len()),
            max_numbered: None,
            record: None,
        }
    }

    fn error_at(&self, pos: usize, message: impl Into<String>) -> ParseError {
        let (line, col) = line_col(self.src, pos);
        ParseError {
            line,
            col,
            message: message.into(),
        }
    }

    fn expected(&self, what: &str) -> ParseError {
        self.error_at(
            self.peeked.pos,
            format!("expected {what}, found {}", self.peeked.tok.describe()),
        )
    }

    #[inline]
    fn bump(&mut self) -> Spanned<'s> {
        std::mem::replace(&mut self.peeked, self.lexer.next_token())
    }

    #[inline]
    fn eat_punct(&mut self, c: u8) -> bool {
        if matches!(self.peeked.tok, Tok::Punct(p) if p == c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn punct(&mut self, c: u8) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{}`", c as char)))
        }
    }

    fn keyword(&mut self, kw: &str) -> PResult<()> {
        if self.peeked.tok == Tok::Ident(kw) {
            self.bump();
            Ok(())
        } else {
            Err(self.expected(&format!("`{kw}`")))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<(&'s str, usize)> {
        match self.peeked.tok {
            Tok::Ident(s) => Ok((s, self.bump().pos)),
            _ => Err(self.expected(what)),
        }
    }

    fn symbol(&mut self) -> PResult<String> {
        match self.peeked.tok {
            Tok::Symbol(s) if !s.is_empty() => {
                self.bump();
                Ok(s.to_string())
            }
            _ => Err(self.expected("a symbol like `@name`")),
        }
    }

    /// An integer of a list attribute: non-negative, or negative (paddings).
    fn list_lit(&mut self) -> PResult<i128> {
        match self.peeked.tok {
            Tok::Number(s) => {
                let (neg, digits) = match s.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, s),
                };
                match parse_usize(digits) {
                    Some(n) => {
                        self.bump();
                        Ok(if neg { -(n as i128) } else { n as i128 })
                    }
                    None => Err(self.expected("an integer")),
                }
            }
            _ => Err(self.expected("an integer")),
        }
    }

    fn usize_lit(&mut self) -> PResult<usize> {
        match self.peeked.tok {
            Tok::Number(s) => match parse_usize(s) {
                Some(n) => {
                    self.bump();
                    Ok(n)
                }
                None => Err(self.expected("a non-negative integer")),
            },
            _ => Err(self.expected("a non-negative integer")),
        }
    }

    /// Runs `f` one nesting level deeper, failing past [`NESTING_LIMIT`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= NESTING_LIMIT {
            return Err(self.error_at(
                self.peeked.pos,
                format!("nesting deeper than {NESTING_LIMIT} levels"),
            ));
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    /// Parses items separated by `,` until `close` (consumed).
    fn list<T>(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<T>> {
        let mut out = Vec::new();
        if self.eat_punct(close) {
            return Ok(out);
        }
        loop {
            out.push(item(self)?);
            if self.eat_punct(close) {
                return Ok(out);
            }
            if !self.eat_punct(b',') {
                return Err(self.expected(&format!("`,` or `{}`", close as char)));
            }
        }
    }

    // ---- program structure -------------------------------------------------------------

    fn program(&mut self) -> PResult<Program> {
        let mut program = Program::default();
        loop {
            match self.peeked.tok {
                Tok::Ident("extern") => program.externs.push(self.extern_decl()?),
                Tok::Ident("func") => program.functions.push(self.function()?),
                Tok::Eof => return Ok(program),
                _ => return Err(self.expected("`func`, `extern` or end of input")),
            }
        }
    }

    fn extern_decl(&mut self) -> PResult<ExternDecl> {
        self.keyword("extern")?;
        let name = self.symbol()?;
        let signature = if self.eat_punct(b'(') {
            let params = self.list(b')', Self::ty)?;
            self.arrow()?;
            self.punct(b'(')?;
            let results = self.list(b')', Self::ty)?;
            Some(Signature { params, results })
        } else {
            None
        };
        let pure = match self.ident("`pure` or `impure`")? {
            ("pure", _) => true,
            ("impure", _) => false,
            (_, pos) => {
                return Err(self.error_at(pos, "expected `pure` or `impure`"));
            }
        };
        Ok(ExternDecl {
            name,
            signature,
            pure,
        })
    }

    fn arrow(&mut self) -> PResult<()> {
        if self.peeked.tok == Tok::Arrow {
            self.bump();
            Ok(())
        } else {
            Err(self.expected("`->`"))
        }
    }

    fn function(&mut self) -> PResult<Function> {
        let at = self.peeked.pos;
        self.keyword("func")?;
        if let Some(r) = &mut self.record {
            r.function = FunctionSource {
                at: r.loc(self.src, at),
                ..FunctionSource::default()
            };
        }
        let name = self.symbol()?;
        self.named.clear();
        self.defined.clear();
        self.max_numbered = None;
        self.punct(b'(')?;
        let params = self.list(b')', Self::param)?;
        self.arrow()?;
        self.punct(b'(')?;
        let result_types = self.list(b')', Self::ty)?;
        self.punct(b'{')?;
        let mut body = self.block_body("return")?;
        body.params = params;
        self.punct(b'}')?;
        let base = self.max_numbered.map_or(0, |m| m + 1);
        if !self.named.is_empty() {
            renumber_named(&mut body, base);
        }
        if let Some(r) = &mut self.record {
            let mut f = std::mem::take(&mut r.function);
            f.renumber_named(base);
            for (n, v) in &self.named {
                f.names.insert(renumbered(*v, base), n.to_string());
            }
            r.map.functions.entry(name.clone()).or_insert(f);
        }
        Ok(Function {
            name,
            result_types,
            body,
        })
    }

    fn param(&mut self) -> PResult<Param> {
        let id = self.define_value()?;
        self.punct(b':')?;
        let ty = self.ty()?;
        Ok(Param { id, ty })
    }

    /// Instructions up to and including the terminator `yield`/`return` and its values.
    fn block_body(&mut self, terminator: &str) -> PResult<Region> {
        let mut region = Region::default();
        loop {
            match self.peeked.tok {
                Tok::Value(_) => self.instruction(&mut region.insts)?,
                Tok::Ident(t) if t == terminator => {
                    self.bump();
                    if let Some(r) = &mut self.record {
                        r.uses.clear();
                    }
                    region.results = self.terminator_values()?;
                    if let Some(r) = &mut self.record {
                        let uses = std::mem::take(&mut r.uses);
                        r.function.returned.extend(uses);
                    }
                    return Ok(region);
                }
                _ => return Err(self.expected(&format!("an instruction or `{terminator}`"))),
            }
        }
    }

    fn terminator_values(&mut self) -> PResult<Vec<ValueId>> {
        let mut values = Vec::new();
        if !matches!(self.peeked.tok, Tok::Value(_)) {
            return Ok(values);
        }
        loop {
            values.push(self.use_value()?);
            if !self.eat_punct(b',') {
                return Ok(values);
            }
        }
    }

    fn region(&mut self) -> PResult<Region> {
        self.punct(b'{')?;
        self.nested(|p| {
            let params = if p.eat_punct(b'^') {
                p.punct(b'(')?;
                let params = p.list(b')', Self::param)?;
                p.punct(b':')?;
                params
            } else {
                Vec::new()
            };
            let mut region = p.block_body("yield")?;
            region.params = params;
            p.punct(b'}')?;
            Ok(region)
        })
    }

    // ---- values and types --------------------------------------------------------------

    fn value_name(&mut self) -> PResult<(ValueId, usize)> {
        let Tok::Value(name) = self.peeked.tok else {
            return Err(self.expected("a value like `%0`"));
        };
        let pos = self.bump().pos;
        if name.is_empty() {
            return Err(self.error_at(pos, "expected a value name after `%`"));
        }
        if let Some(n) = digits_value(name) {
            return if n < u64::from(NAMED_BASE) {
                let n = n as u32;
                self.max_numbered = self.max_numbered.max(Some(n));
                Ok((ValueId(n), pos))
            } else {
                Err(self.error_at(pos, format!("value number %{name} is too large")))
            };
        }
        let next = ValueId(NAMED_BASE + self.named.len() as u32);
        if self.named.len() as u32 >= NAMED_BASE {
            return Err(self.error_at(pos, "too many named values"));
        }
        Ok((*self.named.entry(name).or_insert(next), pos))
    }

    fn use_value(&mut self) -> PResult<ValueId> {
        let (v, pos) = self.value_name()?;
        if let Some(r) = &mut self.record {
            let loc = r.loc(self.src, pos);
            r.uses.push((v, loc));
        }
        Ok(v)
    }

    /// Records where the instruction defining `result` is written and its operands (read
    /// since it began), before its regions are parsed.
    fn record_inst(&mut self, result: ValueId) {
        if let Some(r) = &mut self.record {
            let inst = InstSource {
                at: r.inst_at,
                operands: std::mem::take(&mut r.uses),
            };
            r.function.insts.insert(result, inst);
        }
    }

    fn define_value(&mut self) -> PResult<ValueId> {
        let (v, pos) = self.value_name()?;
        if !self.defined.insert(v.0) {
            let text = self
                .src
                .get(pos..)
                .and_then(|s| {
                    s.split(|c: char| c.is_whitespace() || c == ':' || c == ',' || c == ')')
                        .next()
                })
                .unwrap_or("");
            return Err(self.error_at(pos, format!("{text} is defined more than once")));
        }
        Ok(v)
    }

    fn ty(&mut self) -> PResult<Type> {
        if self.eat_punct(b'(') {
            return self.nested(|p| p.list(b')', Self::ty)).map(Type::Tuple);
        }
        self.tensor_type().map(Type::Tensor)
    }

    /// A tensor type; types above [`crate::TYPE_BYTES_LIMIT`] are refused at their position.
    fn tensor_type(&mut self) -> PResult<TensorType> {
        let (name, pos) = self.ident("a type like `f32[2,3]`")?;
        let dtype = dtype_from_name(name)
            .ok_or_else(|| self.error_at(pos, format!("unknown element type `{name}` (expected f16, bf16, f32, f64, i32, i64 or bool)")))?;
        let plain = if matches!(self.peeked.tok, Tok::Punct(b'[')) {
            self.lexer.plain_dims()
        } else {
            None
        };
        let shape = match plain {
            Some(shape) => {
                self.peeked = self.lexer.next_token();
                shape
            }
            None => {
                self.punct(b'[')?;
                self.list(b']', Self::usize_lit)?
            }
        };
        let ty = TensorType::new(dtype, shape);
        ty.check_size().map_err(|m| self.error_at(pos, m))?;
        Ok(ty)
    }

    // ---- instructions ------------------------------------------------------------------

    /// Parses an instruction and appends it to `insts` (built in place there, since an
    /// [`Instruction`] is large enough for moves to show).
    fn instruction(&mut self, insts: &mut Vec<Instruction>) -> PResult<()> {
        let at = self.peeked.pos;
        let result = self.define_value()?;
        if let Some(r) = &mut self.record {
            r.inst_at = r.loc(self.src, at);
            r.uses.clear();
        }
        self.punct(b'=')?;
        let (name, name_pos) = self.ident("an op name")?;
        match name {
            "constant" => {
                let inst = self.constant(result)?;
                self.record_inst(result);
                insts.push(inst);
                Ok(())
            }
            "call" => {
                let callee = self.symbol()?;
                self.punct(b'(')?;
                let operands = self.list(b')', Self::use_value)?;
                self.finish(insts, result, Op::Call { callee }, operands)
            }
            "rng" => {
                let (d, pos) = self.ident("a distribution (`uniform` or `normal`)")?;
                let dist = RngDist::from_name(d).ok_or_else(|| {
                    self.error_at(
                        pos,
                        format!("unknown distribution `{d}` (expected `uniform` or `normal`)"),
                    )
                })?;
                self.finish(insts, result, Op::Rng { dist }, Vec::new())
            }
            _ => {
                let key = op_key(name)
                    .ok_or_else(|| self.error_at(name_pos, format!("unknown op `{name}`")))?;
                let operands = self.operands()?;
                let mut attrs = self.attrs()?;
                let op = self.build_op(key, &mut attrs)?;
                if let Some((attr, _, pos)) = attrs.items.first() {
                    return Err(self.error_at(*pos, format!("`{name}` has no attribute `{attr}`")));
                }
                self.finish(insts, result, op, operands)
            }
        }
    }

    /// The `: type` and the regions that end an instruction.
    /// Appends the instruction to `insts` before parsing its regions into it: on an error the
    /// whole parse fails, so a half-built instruction is never seen.
    fn finish(
        &mut self,
        insts: &mut Vec<Instruction>,
        result: ValueId,
        op: Op,
        operands: Vec<ValueId>,
    ) -> PResult<()> {
        self.punct(b':')?;
        let ty = self.ty()?;
        let has_regions = matches!(op, Op::Cond { .. } | Op::While { .. } | Op::Scan { .. });
        self.record_inst(result);
        insts.push(Instruction {
            result,
            ty,
            op,
            operands,
        });
        if has_regions {
            if let Some(inst) = insts.last_mut() {
                for r in inst.op.regions_mut() {
                    *r = self.region()?;
                }
            }
        }
        Ok(())
    }

    fn operands(&mut self) -> PResult<Vec<ValueId>> {
        let mut operands = Vec::new();
        if !matches!(self.peeked.tok, Tok::Value(_)) {
            return Ok(operands);
        }
        loop {
            operands.push(self.use_value()?);
            if !self.eat_punct(b',') {
                return Ok(operands);
            }
        }
    }

    fn attrs(&mut self) -> PResult<Attrs<'s>> {
        let mut items = Vec::new();
        while let Tok::Ident(name) = self.peeked.tok {
            let pos = self.bump().pos;
            self.punct(b'=')?;
            let value = match self.peeked.tok {
                Tok::Punct(b'[') => {
                    self.bump();
                    let at = self.peeked.pos;
                    let xs = self.list(b']', Self::list_lit)?;
                    match xs.iter().map(|&x| usize::try_from(x)).collect() {
                        Ok(xs) => Attr::List(xs),
                        Err(_) => Attr::Signed(
                            xs.iter()
                                .map(|&x| i64::try_from(x))
                                .collect::<Result<_, _>>()
                                .map_err(|_| self.error_at(at, "a list element is out of range"))?,
                        ),
                    }
                }
                Tok::Ident("true") => {
                    self.bump();
                    Attr::Bool(true)
                }
                Tok::Ident("false") => {
                    self.bump();
                    Attr::Bool(false)
                }
                Tok::Ident(word) => {
                    self.bump();
                    Attr::Word(word)
                }
                _ => Attr::Int(self.usize_lit()?),
            };
            if items.iter().any(|(n, _, _)| *n == name) {
                return Err(self.error_at(pos, format!("attribute `{name}` is given twice")));
            }
            items.push((name, value, pos));
        }
        Ok(Attrs { items })
    }

    fn take(
        &self,
        attrs: &mut Attrs<'s>,
        name: &str,
        default: Option<Attr<'s>>,
    ) -> PResult<Attr<'s>> {
        match attrs.items.iter().position(|(n, _, _)| *n == name) {
            Some(i) => Ok(attrs.items.remove(i).1),
            None => default.ok_or_else(|| self.expected(&format!("attribute `{name}=`"))),
        }
    }

    fn list_attr(
        &self,
        attrs: &mut Attrs<'s>,
        name: &str,
        default: Option<Vec<usize>>,
    ) -> PResult<Vec<usize>> {
        let at = (attrs.items.iter().find(|(n, _, _)| *n == name)).map_or(self.peeked.pos, |a| a.2);
        match self.take(attrs, name, default.map(Attr::List))? {
            Attr::List(xs) => Ok(xs),
            _ => Err(self.error_at(at, format!("attribute `{name}` must be a list like [0,1]"))),
        }
    }

    /// A list attribute that may hold negative numbers (paddings); required without a default.
    fn signed_list_attr(
        &self,
        attrs: &mut Attrs<'s>,
        name: &str,
        default: Option<Vec<i64>>,
    ) -> PResult<Vec<i64>> {
        let Some(i) = attrs.items.iter().position(|(n, _, _)| *n == name) else {
            return default.ok_or_else(|| self.expected(&format!("attribute `{name}=`")));
        };
        let (_, value, pos) = attrs.items.remove(i);
        match value {
            Attr::Signed(xs) => Ok(xs),
            Attr::List(xs) => xs
                .into_iter()
                .map(|x| i64::try_from(x).map_err(|_| self.error_at(pos, "out of range")))
                .collect(),
            _ => Err(self.error_at(
                pos,
                format!("attribute `{name}` must be a list like [1,-1]"),
            )),
        }
    }

    /// The window attributes of a windowed op over `n` dims, the dilations under the op's own
    /// names; each defaults to the plain window's.
    fn window_attrs(
        &self,
        attrs: &mut Attrs<'s>,
        n: usize,
        dilations: [&str; 2],
    ) -> PResult<Window> {
        Ok(Window {
            strides: self.list_attr(attrs, "strides", Some(vec![1; n]))?,
            pad_low: self.signed_list_attr(attrs, "pad_low", Some(vec![0; n]))?,
            pad_high: self.signed_list_attr(attrs, "pad_high", Some(vec![0; n]))?,
            base_dilation: self.list_attr(attrs, dilations[0], Some(vec![1; n]))?,
            window_dilation: self.list_attr(attrs, dilations[1], Some(vec![1; n]))?,
        })
    }

    /// The window of a `reduce_window_*` or `select_and_scatter_*`.
    fn reduce_window_attrs(&self, attrs: &mut Attrs<'s>) -> PResult<ReduceWindowDims> {
        let size = self.list_attr(attrs, "window", None)?;
        let window = self.window_attrs(attrs, size.len(), WINDOW_DILATIONS)?;
        Ok(ReduceWindowDims { size, window })
    }

    /// The dimension numbers of a `gather` or `scatter_*` (the batching dims default to none).
    fn index_dims_attrs(&self, attrs: &mut Attrs<'s>) -> PResult<IndexDims> {
        Ok(IndexDims {
            window_dims: self.list_attr(attrs, "window_dims", None)?,
            collapsed_dims: self.list_attr(attrs, "collapsed_dims", None)?,
            operand_batching_dims: self.list_attr(attrs, "operand_batching_dims", Some(vec![]))?,
            indices_batching_dims: self.list_attr(attrs, "indices_batching_dims", Some(vec![]))?,
            start_index_map: self.list_attr(attrs, "start_index_map", None)?,
            index_vector_dim: self.int_attr(attrs, "index_vector_dim")?,
        })
    }

    fn convolution_attrs(&self, attrs: &mut Attrs<'s>) -> PResult<ConvDims> {
        let input = self.list_attr(attrs, "input", None)?;
        let n = input.len().saturating_sub(2);
        let reversed = self.list_attr(attrs, "reverse", Some(vec![]))?;
        Ok(ConvDims {
            input,
            kernel: self.list_attr(attrs, "kernel", None)?,
            output: self.list_attr(attrs, "output", None)?,
            window: self.window_attrs(attrs, n, CONV_DILATIONS)?,
            reverse: (0..n).map(|s| reversed.contains(&s)).collect(),
            feature_groups: self.int_attr_or(attrs, "feature_groups", 1)?,
            batch_groups: self.int_attr_or(attrs, "batch_groups", 1)?,
            result_dtype: self.dtype_attr(attrs, "result_dtype")?,
        })
    }

    fn int_attr_or(&self, attrs: &mut Attrs<'s>, name: &str, default: usize) -> PResult<usize> {
        if attrs.items.iter().any(|(n, _, _)| *n == name) {
            self.int_attr(attrs, name)
        } else {
            Ok(default)
        }
    }

    fn int_attr(&self, attrs: &mut Attrs<'s>, name: &str) -> PResult<usize> {
        match self.take(attrs, name, None)? {
            Attr::Int(n) => Ok(n),
            _ => Err(self.error_at(
                self.peeked.pos,
                format!("attribute `{name}` must be an integer"),
            )),
        }
    }

    /// The optional `lhs_precision=` and `rhs_precision=` of a `dot_general` (each `default`,
    /// `high` or `highest`; a missing one is `default`); `None` when both are `default`.
    fn precision_attrs(&self, attrs: &mut Attrs<'s>) -> PResult<Option<[Precision; 2]>> {
        let mut both = [Precision::Default; 2];
        for (side, name) in ["lhs_precision", "rhs_precision"].into_iter().enumerate() {
            let Some(i) = attrs.items.iter().position(|(n, _, _)| *n == name) else {
                continue;
            };
            let (_, value, pos) = attrs.items.remove(i);
            both[side] = match value {
                Attr::Word(w) => Precision::from_name(w),
                _ => None,
            }
            .ok_or_else(|| {
                self.error_at(
                    pos,
                    format!("attribute `{name}` must be `default`, `high` or `highest`"),
                )
            })?;
        }
        Ok(DotDims::precision_of(both))
    }

    /// An optional attribute naming a dtype (`result_dtype=f32`).
    fn dtype_attr(&self, attrs: &mut Attrs<'s>, name: &str) -> PResult<Option<DType>> {
        let Some(i) = attrs.items.iter().position(|(n, _, _)| *n == name) else {
            return Ok(None);
        };
        let (_, value, pos) = attrs.items.remove(i);
        match value {
            Attr::Word(w) => DType::from_name(w).map(Some).ok_or_else(|| {
                self.error_at(
                    pos,
                    format!("attribute `{name}` must be a dtype, found `{w}`"),
                )
            }),
            _ => Err(self.error_at(pos, format!("attribute `{name}` must be a dtype like f32"))),
        }
    }

    /// The attribute `algorithm=` of `rng_bit_generator` (`default`, `three_fry`, `philox`).
    fn algorithm_attr(&self, attrs: &mut Attrs<'s>) -> PResult<RngAlgorithm> {
        let name = "algorithm";
        let Some(i) = attrs.items.iter().position(|(n, _, _)| *n == name) else {
            return Ok(RngAlgorithm::Default);
        };
        let (_, value, pos) = attrs.items.remove(i);
        match value {
            Attr::Word(w) => RngAlgorithm::from_name(w),
            _ => None,
        }
        .ok_or_else(|| {
            self.error_at(
                pos,
                format!("attribute `{name}` must be `default`, `three_fry` or `philox`"),
            )
        })
    }

    fn bool_attr(&self, attrs: &mut Attrs<'s>, name: &str) -> PResult<bool> {
        match self.take(attrs, name, Some(Attr::Bool(false)))? {
            Attr::Bool(b) => Ok(b),
            _ => Err(self.error_at(
                self.peeked.pos,
                format!("attribute `{name}` must be true or false"),
            )),
        }
    }

    fn build_op(&self, key: OpKey, attrs: &mut Attrs<'s>) -> PResult<Op> {
        Ok(match key {
            OpKey::Unary(u) => Op::Unary(u),
            OpKey::Binary(b) => Op::Binary(b),
            OpKey::Compare(c) => Op::Compare(c),
            OpKey::Select => Op::Select,
            OpKey::Cast => Op::Cast,
            OpKey::Bitcast => Op::Bitcast,
            OpKey::BitcastResize => Op::BitcastResize,
            OpKey::Reshape => Op::Reshape,
            OpKey::Tuple => Op::Tuple,
            OpKey::OptimizationBarrier => Op::OptimizationBarrier,
            OpKey::Gather => Op::Gather(Box::new(GatherDims {
                dims: self.index_dims_attrs(attrs)?,
                slice_sizes: self.list_attr(attrs, "slice_sizes", None)?,
            })),
            OpKey::Scatter(kind) => Op::Scatter {
                kind,
                dims: Box::new(self.index_dims_attrs(attrs)?),
            },
            OpKey::DynamicSlice => Op::DynamicSlice {
                sizes: self.list_attr(attrs, "sizes", None)?,
            },
            OpKey::DynamicUpdateSlice => Op::DynamicUpdateSlice,
            OpKey::Iota => Op::Iota {
                dim: self.int_attr(attrs, "dim")?,
            },
            OpKey::Transpose => Op::Transpose {
                perm: self.list_attr(attrs, "perm", None)?,
            },
            OpKey::Broadcast => Op::Broadcast {
                dims: self.list_attr(attrs, "dims", None)?,
            },
            OpKey::Slice => crate::SliceDims::op(
                self.list_attr(attrs, "start", None)?,
                self.list_attr(attrs, "limit", None)?,
                self.list_attr(attrs, "stride", None)?,
            ),
            OpKey::Concat => Op::Concat {
                axis: self.int_attr(attrs, "axis")?,
            },
            OpKey::DotGeneral => Op::DotGeneral(Box::new(DotDims {
                lhs_batch: self.list_attr(attrs, "lhs_batch", Some(vec![]))?,
                rhs_batch: self.list_attr(attrs, "rhs_batch", Some(vec![]))?,
                lhs_contract: self.list_attr(attrs, "lhs_contract", None)?,
                rhs_contract: self.list_attr(attrs, "rhs_contract", None)?,
                result_dtype: self.dtype_attr(attrs, "result_dtype")?,
                precision: self.precision_attrs(attrs)?,
            })),
            OpKey::Convolution => Op::Convolution(Box::new(self.convolution_attrs(attrs)?)),
            OpKey::ReduceWindow(kind) => Op::ReduceWindow {
                kind,
                dims: Box::new(self.reduce_window_attrs(attrs)?),
            },
            OpKey::SelectAndScatter(select) => Op::SelectAndScatter {
                select,
                dims: Box::new(self.reduce_window_attrs(attrs)?),
            },
            OpKey::Pad => {
                let low = self.signed_list_attr(attrs, "low", None)?;
                let n = low.len();
                Op::Pad(Box::new(PadDims {
                    low,
                    high: self.signed_list_attr(attrs, "high", None)?,
                    interior: self.list_attr(attrs, "interior", Some(vec![0; n]))?,
                }))
            }
            OpKey::Reverse => Op::Reverse {
                dims: self.list_attr(attrs, "dims", None)?,
            },
            OpKey::ArgReduce(kind) => Op::ArgReduce {
                kind,
                axes: self.list_attr(attrs, "axes", None)?,
            },
            OpKey::Sort => Op::Sort {
                dim: self.int_attr(attrs, "dim")?,
                keys: self.int_attr_or(attrs, "keys", 1)?,
                descending: self.bool_attr(attrs, "descending")?,
                stable: self.bool_attr(attrs, "stable")?,
                total_order: self.bool_attr(attrs, "total_order")?,
            },
            OpKey::RngBitGenerator => Op::RngBitGenerator {
                algorithm: self.algorithm_attr(attrs)?,
            },
            OpKey::ReducePrecision => Op::ReducePrecision {
                exponent_bits: self.int_attr(attrs, "exponent_bits")?,
                mantissa_bits: self.int_attr(attrs, "mantissa_bits")?,
            },
            OpKey::TopK => Op::TopK {
                k: self.int_attr(attrs, "k")?,
            },
            OpKey::Reduce(kind) => Op::Reduce {
                kind,
                axes: self.list_attr(attrs, "axes", None)?,
                keep_dims: self.bool_attr(attrs, "keep_dims")?,
            },
            OpKey::MultiReduce(kind) => Op::MultiReduce {
                kind,
                axes: self.list_attr(attrs, "axes", None)?,
                keep_dims: self.bool_attr(attrs, "keep_dims")?,
            },
            OpKey::Scan => Op::Scan {
                num_carry: self.int_attr(attrs, "num_carry")?,
                length: self.int_attr(attrs, "length")?,
                body: Box::default(),
            },
            OpKey::TupleGet => Op::TupleGet {
                index: self.int_attr(attrs, "index")?,
            },
            OpKey::Cond => Op::Cond {
                then_region: Box::default(),
                else_region: Box::default(),
            },
            OpKey::While => Op::While {
                cond: Box::default(),
                body: Box::default(),
            },
            // Handled by `instruction` before dispatching here.
            OpKey::Constant | OpKey::Call | OpKey::Rng => {
                return Err(self.error_at(self.peeked.pos, format!("`{key}` has its own syntax")))
            }
        })
    }

    // ---- constants ---------------------------------------------------------------------

    fn literal_token(&mut self) -> PResult<(&'s str, usize)> {
        match self.peeked.tok {
            Tok::Number(s) | Tok::Ident(s) => Ok((s, self.bump().pos)),
            _ => Err(self.expected("a number, `true`, `false`, `nan` or `inf`")),
        }
    }

    fn constant(&mut self, result: ValueId) -> PResult<Instruction> {
        let (form, pos) = self.ident("`splat` or `dense`")?;
        self.punct(b'(')?;
        let (splat, raw) = match form {
            "splat" => (true, vec![self.literal_token()?]),
            "dense" => {
                self.punct(b'[')?;
                (false, self.list(b']', Self::literal_token)?)
            }
            _ => {
                return Err(
                    self.error_at(pos, format!("expected `splat` or `dense`, found `{form}`"))
                )
            }
        };
        self.punct(b')')?;
        self.punct(b':')?;
        let ty_pos = self.peeked.pos;
        let ty = self.ty()?;
        let Type::Tensor(tt) = &ty else {
            return Err(self.error_at(ty_pos, "a constant must have a tensor type"));
        };
        let scalars = raw
            .iter()
            .map(|&(text, pos)| self.scalar(tt.dtype, text, pos))
            .collect::<PResult<Vec<_>>>()?;
        let lit = if splat {
            Literal::Splat(scalars[0])
        } else {
            Literal::Dense(Data::from_scalars(tt.dtype, scalars))
        };
        Ok(Instruction {
            result,
            ty,
            op: Op::Constant(lit),
            operands: Vec::new(),
        })
    }

    fn scalar(&self, dtype: DType, text: &str, pos: usize) -> PResult<Scalar> {
        let bad = || self.error_at(pos, format!("`{text}` is not a valid {dtype} value"));
        if dtype.is_float() {
            parse_float(dtype, text).map(Scalar::Float).ok_or_else(bad)
        } else if dtype.is_int() {
            let (lo, hi) = dtype.int_range().unwrap_or((0, 0));
            match text.parse::<i128>() {
                Ok(i) if (lo..=hi).contains(&i) => Ok(Scalar::Int(int_from_i128(dtype, i))),
                _ => Err(bad()),
            }
        } else {
            match text {
                "true" => Ok(Scalar::Bool(true)),
                "false" => Ok(Scalar::Bool(false)),
                _ => Err(bad()),
            }
        }
    }
}

/// The value of a name made only of ASCII digits (saturating far above `u32::MAX`), or `None`
/// if it has any other character. Digits are read once, without a separate `str::parse`.
fn digits_value(name: &str) -> Option<u64> {
    let mut n: u64 = 0;
    for &b in name.as_bytes() {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = (n * 10 + u64::from(d)).min(1 << 40);
    }
    Some(n)
}

/// `s.parse::<usize>().ok()` for the texts of number tokens (which never start with `+`):
/// ASCII digits only, at least one, no overflow.
fn parse_usize(s: &str) -> Option<usize> {
    if s.is_empty() {
        return None;
    }
    let mut n: usize = 0;
    for &b in s.as_bytes() {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(usize::from(d))?;
    }
    Some(n)
}

/// [`DType::from_name`], as a direct match.
fn dtype_from_name(name: &str) -> Option<DType> {
    let d = match name {
        "f32" => DType::F32,
        "f16" => DType::F16,
        "bf16" => DType::BF16,
        "f64" => DType::F64,
        "i32" => DType::I32,
        "i64" => DType::I64,
        "bool" => DType::Bool,
        _ => return DType::from_name(name),
    };
    debug_assert_eq!(DType::from_name(name), Some(d));
    Some(d)
}

/// [`OpKey::from_name`] through a table built once from [`OpKey::all`] (which allocates, so
/// calling it per instruction dominated parsing).
fn op_key(name: &str) -> Option<OpKey> {
    static TABLE: OnceLock<FxHashMap<&'static str, OpKey>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            let mut t = FxHashMap::default();
            for k in OpKey::all() {
                t.entry(k.name()).or_insert(k);
            }
            t
        })
        .get(name)
        .copied()
}

/// The values a function has defined so far. Value numbers below a quarter of the source
/// length (a definition takes more than four bytes of text, so a compactly numbered program
/// stays below it) are kept in a dense table of generation stamps, which needs no clearing
/// between functions and at most as many bytes as the source; larger numbers, which only
/// hand-written input has, go to a hash set, so memory never grows with a number the user
/// wrote. Named values (numbers from [`NAMED_BASE`] on) are numbered densely in order of
/// appearance and get their own table.
struct DefinedSet {
    /// `stamps[n] == generation`: `%n` is defined in the current function.
    stamps: Vec<u32>,
    /// `named[k] == generation`: the `k`-th named value is defined.
    named: Vec<u32>,
    generation: u32,
    /// Numbers at or above `dense_limit` (and below [`NAMED_BASE`]).
    sparse: FxHashSet<u32>,
    dense_limit: usize,
}

impl DefinedSet {
    fn new(src_len: usize) -> Self {
        DefinedSet {
            stamps: Vec::new(),
            named: Vec::new(),
            generation: 1,
            sparse: FxHashSet::default(),
            dense_limit: src_len / 4 + 64,
        }
    }

    /// Forgets every value (a new function starts).
    fn clear(&mut self) {
        if self.generation == u32::MAX {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.named.iter_mut().for_each(|s| *s = 0);
            self.generation = 0;
        }
        self.generation += 1;
        if !self.sparse.is_empty() {
            self.sparse.clear();
        }
    }

    /// Marks `v` defined; `false` if it already was.
    fn insert(&mut self, v: u32) -> bool {
        let (table, i, cap) = if v >= NAMED_BASE {
            (&mut self.named, (v - NAMED_BASE) as usize, usize::MAX)
        } else if (v as usize) < self.dense_limit {
            (&mut self.stamps, v as usize, self.dense_limit)
        } else {
            return self.sparse.insert(v);
        };
        if i >= table.len() {
            let len = (table.len() * 2).max(64).min(cap).max(i + 1);
            table.resize(len, 0);
        }
        let fresh = table[i] != self.generation;
        table[i] = self.generation;
        fresh
    }
}

/// The final number of `v`: named values (provisional numbers at or above [`NAMED_BASE`])
/// get `base, base + 1, ...` in the order they were first seen.
fn renumbered(v: ValueId, base: u32) -> ValueId {
    if v.0 >= NAMED_BASE {
        ValueId(base.saturating_add(v.0 - NAMED_BASE))
    } else {
        v
    }
}

impl FunctionSource {
    /// Gives the named values their final numbers ([`renumbered`]).
    fn renumber_named(&mut self, base: u32) {
        let insts = std::mem::take(&mut self.insts);
        self.insts = insts
            .into_iter()
            .map(|(v, mut inst)| {
                for (o, _) in &mut inst.operands {
                    *o = renumbered(*o, base);
                }
                (renumbered(v, base), inst)
            })
            .collect();
        for (v, _) in &mut self.returned {
            *v = renumbered(*v, base);
        }
    }
}

/// Gives named values their final numbers ([`renumbered`]).
fn renumber_named(region: &mut Region, base: u32) {
    let map = |v: &mut ValueId| *v = renumbered(*v, base);
    renumber_region(region, &map);
}

fn renumber_region(region: &mut Region, map: &impl Fn(&mut ValueId)) {
    region.params.iter_mut().for_each(|p| map(&mut p.id));
    region.results.iter_mut().for_each(map);
    for inst in &mut region.insts {
        map(&mut inst.result);
        inst.operands.iter_mut().for_each(map);
        for r in inst.op.regions_mut() {
            renumber_region(r, map);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(src: &str) -> String {
        parse(src)
            .map(|_| String::new())
            .unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn errors_are_located_and_say_what_was_expected() {
        assert_eq!(
            err("func @f( -> () {}"),
            "1:10: expected a value like `%0`, found `->`"
        );
        assert_eq!(
            err("func @f() -> () {\n  %1 = exp %0 : f33[2]\n}"),
            "2:17: unknown element type `f33` (expected f16, bf16, f32, f64, i32, i64 or bool)"
        );
        assert_eq!(
            err("func @f() -> () {\n  %1 = transpose %0 : f32[2]\n  return\n}"),
            "2:21: expected attribute `perm=`, found `:`"
        );
        assert_eq!(
            err("func @f(%0: f32[]) -> () {\n  %0 = exp %0 : f32[]\n}"),
            "2:3: %0 is defined more than once"
        );
        assert_eq!(
            err("func @f() -> () {\n  %1 = constant splat(1.5) : i32[]\n}"),
            "2:23: `1.5` is not a valid i32 value"
        );
        assert_eq!(
            err("garbage"),
            "1:1: expected `func`, `extern` or end of input, found `garbage`"
        );
    }

    #[test]
    fn gather_round_trips_and_is_verified() {
        let src = "func @f(%0: f32[5,3], %1: i32[2,4]) -> (f32[2,4,3]) {\n  %2 = gather %0, %1 window_dims=[2] collapsed_dims=[0] start_index_map=[0] index_vector_dim=2 slice_sizes=[1,3] : f32[2,4,3]\n  return %2\n}\n";
        let p = parse(src).unwrap();
        assert_eq!(crate::print(&p), src);
        assert!(crate::verify(&p).is_ok());
        let bad = src.replace("i32[2,4]", "f32[2,4]");
        assert!(crate::verify(&parse(&bad).unwrap()).is_err());
    }

    #[test]
    fn windowed_ops_round_trip_and_are_verified() {
        let src = "func @f(%0: f32[8,9,9,3], %1: f32[3,3,1,6], %2: f32[]) -> (f32[8,5,3,6], f32[8,4,4,3]) {\n  \
            %3 = convolution %0, %1 input=[0,3,1,2] kernel=[3,2,0,1] output=[0,3,1,2] strides=[2,2] pad_low=[1,1] pad_high=[1,-1] rhs_dilation=[1,2] reverse=[1] feature_groups=3 : f32[8,5,4,6]\n  \
            %4 = reduce_window_max %0, %2 window=[1,3,3,1] strides=[1,2,2,1] pad_low=[0,0,0,0] pad_high=[0,1,1,0] base_dilation=[1,1,1,1] window_dilation=[1,1,1,1] : f32[8,4,4,3]\n  \
            return %3, %4\n}\n";
        let p = parse(src).unwrap();
        let printed = crate::print(&p);
        assert_eq!(parse(&printed).unwrap(), p);
        // Plain dilations are left unwritten, the rest as given.
        assert!(
            printed.contains("pad_high=[1,-1] rhs_dilation=[1,2] reverse=[1] feature_groups=3 :")
        );
        assert!(printed.contains("pad_high=[0,1,1,0] : f32[8,4,4,3]"));
        // The declared result type is checked against the inferred one.
        let e = crate::verify(&p).unwrap_err().to_string();
        assert!(
            e.contains("f32[8,5,3,6]") && e.contains("does not match"),
            "{e}"
        );
        let ok = src.replace(": f32[8,5,4,6]", ": f32[8,5,3,6]");
        assert!(crate::verify(&parse(&ok).unwrap()).is_ok());
        assert_eq!(
            err(&src.replace("strides=[2,2]", "strides=[2,-2]")),
            "2:77: attribute `strides` must be a list like [0,1]"
        );
    }

    #[test]
    fn pad_reverse_and_select_and_scatter_round_trip() {
        let src = "func @f(%0: f32[8,4,4,3], %1: f32[8,2,2,3], %2: f32[]) -> (f32[8,4,4,3], f32[8,8,3,3], f32[8,4,4,3]) {\n  \
            %3 = select_and_scatter_ge %0, %1, %2 window=[1,2,2,1] strides=[1,2,2,1] : f32[8,4,4,3]\n  \
            %4 = pad %0, %2 low=[0,1,-1,0] high=[0,0,0,0] interior=[0,1,0,0] : f32[8,8,3,3]\n  \
            %5 = reverse %0 dims=[2,1] : f32[8,4,4,3]\n  \
            return %3, %4, %5\n}\n";
        let p = parse(src).unwrap();
        let printed = crate::print(&p);
        assert_eq!(parse(&printed).unwrap(), p);
        assert!(crate::verify(&p).is_ok(), "{:?}", crate::verify(&p));
        // Zero interior padding is left unwritten; low and high are required.
        let plain = src.replace("interior=[0,1,0,0]", "interior=[0,0,0,0]");
        let plain = plain.replace("f32[8,8,3,3]", "f32[8,5,3,3]");
        let printed = crate::print(&parse(&plain).unwrap());
        assert!(
            printed.contains("high=[0,0,0,0] : f32[8,5,3,3]"),
            "{printed}"
        );
        assert_eq!(
            err(&src.replace(" high=[0,0,0,0]", "")),
            "3:53: expected attribute `high=`, found `:`"
        );
        // The declared result type is checked against the inferred one.
        let bad = src.replace("f32[8,8,3,3]\n", "f32[8,7,3,3]\n");
        let e = crate::verify(&parse(&bad).unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("f32[8,7,3,3]") && e.contains("does not match"),
            "{e}"
        );
    }

    #[test]
    fn named_values_are_numbered_after_the_largest_number() {
        let p = parse(
            "func @f(%x: f32[], %3: f32[]) -> (f32[]) {\n  %y = add %x, %3 : f32[]\n  return %y\n}",
        )
        .unwrap();
        let f = &p.functions[0];
        assert_eq!(f.body.params[0].id, ValueId(4));
        assert_eq!(f.body.insts[0].result, ValueId(5));
        assert_eq!(f.body.results, vec![ValueId(5)]);
    }

    #[test]
    fn value_numbers_are_checked_whatever_their_size() {
        // Small numbers use the dense table, numbers past the source length the sparse set.
        for n in ["3", "007", "2000000000", "2147483647"] {
            assert_eq!(
                err(&format!(
                    "func @f(%{n}: f32[]) -> () {{\n  %{n} = exp %{n} : f32[]\n}}"
                )),
                format!("2:3: %{n} is defined more than once")
            );
        }
        assert_eq!(
            err("func @f(%x: f32[], %7: f32[]) -> () {\n  %x = exp %7 : f32[]\n}"),
            "2:3: %x is defined more than once"
        );
        for n in ["2147483648", "4294967296", "99999999999999999999999"] {
            assert_eq!(
                err(&format!("func @f(%{n}: f32[]) -> () {{\n  return\n}}")),
                format!("1:9: value number %{n} is too large")
            );
        }
        // Leading zeros name the same value; each function has its own values.
        let p = parse(
            "func @f(%007: f32[]) -> (f32[]) {\n  return %7\n}\n\
             func @g(%7: f32[], %2000000000: f32[]) -> (f32[]) {\n  return %2000000000\n}",
        )
        .unwrap();
        assert_eq!(p.functions[0].body.results, vec![ValueId(7)]);
        assert_eq!(p.functions[1].body.results, vec![ValueId(2_000_000_000)]);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = format!("extern @e({}", "(".repeat(100_000));
        assert!(err(&src).contains("nesting deeper than"));
    }

    #[test]
    fn absurd_shapes_are_located_errors() {
        let src = "func @f(%x: f32[4294967296,4294967296,4294967296]) -> () {\n  return\n}";
        let err = parse(src).unwrap_err();
        assert_eq!((err.line, err.col), (1, 13), "{err}");
        assert!(err.message.contains("is too large"), "{err}");
        let src = "func @f() -> () {\n  %0 = constant splat(1.0) : f64[2305843009213693952, 8]\n  return\n}";
        let err = parse(src).unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        // Dims beyond usize are refused as numbers.
        assert!(parse("func @f(%x: f32[99999999999999999999999]) -> () {\n  return\n}").is_err());
    }
}
