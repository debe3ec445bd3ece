//! MLIR text to the syntax tree ([`crate::ast`]): `module`, `func.func`, ops in the pretty
//! form JAX prints and in the generic form (`"stablehlo.add"(%a, %b) : (...) -> ...`),
//! attributes, `dense<...>` literals and `tensor<...>` types. Locations (`loc(...)`) and
//! attribute aliases (`#loc1 = ...`) are skipped.
//!
//! The reader works on characters with one position (line, column) that every error carries.
//! Loops do the work; the only recursion is into regions, bounded by [`NESTING_LIMIT`], so
//! no input can overflow the stack.

use crate::ast::{Attr, Block, Dense, Elem, Func, Module, OpSyntax};
use crate::error::{MlirError, Pos, Result};
use ptir_ir::{DType, TensorType};

/// The deepest region nesting accepted (regions inside regions inside a function).
pub const NESTING_LIMIT: usize = 64;

/// Parses a whole module (or a sequence of `func.func` without `module`).
pub(crate) fn parse_module(src: &str) -> Result<Module> {
    let mut p = Reader::new(src);
    let mut module = Module::default();
    let mut in_module = false;
    loop {
        p.skip_ws();
        let pos = p.pos();
        match p.peek() {
            None => break,
            Some(b'#') => p.skip_alias()?,
            Some(b'"') => {
                let op = p.op(0)?;
                generic_funcs(op, &mut module.funcs)?;
            }
            Some(b'}') if in_module => {
                p.bump();
                in_module = false;
            }
            Some(_) => {
                let word = p.word();
                match word.as_str() {
                    "module" if !in_module => {
                        p.skip_ws();
                        if p.peek() == Some(b'@') {
                            p.symbol()?;
                        }
                        p.skip_ws();
                        if p.eat_word("attributes") {
                            p.skip_balanced()?;
                        }
                        p.expect(b'{')?;
                        in_module = true;
                    }
                    "func.func" | "func" => module.funcs.push(p.func(pos)?),
                    // Shardy's device mesh (`sdy.mesh @m = <[]> {...}`), which JAX declares for
                    // the sharding constraints it writes around typed PRNG keys: nothing to
                    // run on one device, and its constraints are the identity (see the import).
                    "sdy.mesh" => {
                        p.skip_ws();
                        p.symbol()?;
                        p.skip_ws();
                        p.expect(b'=')?;
                        p.skip_balanced()?;
                        p.skip_ws();
                        if p.peek() == Some(b'{') {
                            p.skip_balanced()?;
                        }
                    }
                    "" => {
                        return Err(pos.syntax(format!("expected `func.func`, found {}", p.found())))
                    }
                    other => return Err(pos.unsupported(format!("top-level op '{other}'"))),
                }
            }
        }
    }
    if in_module {
        return Err(p.pos().syntax("expected `}` closing the module"));
    }
    Ok(module)
}

/// The functions of a generic `"builtin.module"` or a generic `"func.func"` (iteratively:
/// modules nest only through their single region).
fn generic_funcs(op: OpSyntax, funcs: &mut Vec<Func>) -> Result<()> {
    let mut work = vec![op];
    while let Some(op) = work.pop() {
        match op.name.as_str() {
            "builtin.module" => {
                let mut ops: Vec<OpSyntax> = op.regions.into_iter().flat_map(|r| r.ops).collect();
                ops.reverse();
                work.extend(ops);
            }
            "func.func" => {
                let name = match op.attr("sym_name") {
                    Some(Attr::Str(s)) => s.clone(),
                    _ => return Err(op.pos.syntax("generic `func.func` without `sym_name`")),
                };
                let (param_types, results) = match op.attr("function_type") {
                    Some(Attr::FnType(a, r)) => (a.clone(), r.clone()),
                    _ => return Err(op.pos.syntax("generic `func.func` without `function_type`")),
                };
                let mut regions = op.regions.into_iter();
                let (params, body) = match regions.next() {
                    Some(region) => (
                        region.args,
                        Some(Block {
                            args: Vec::new(),
                            ops: region.ops,
                        }),
                    ),
                    None => (
                        param_types
                            .into_iter()
                            .enumerate()
                            .map(|(i, t)| (format!("%arg{i}"), t, op.pos))
                            .collect(),
                        None,
                    ),
                };
                funcs.push(Func {
                    pos: op.pos,
                    name,
                    params,
                    results,
                    body,
                    private: false,
                });
            }
            other => return Err(op.pos.unsupported(format!("top-level op '{other}'"))),
        }
    }
    Ok(())
}

struct Reader<'s> {
    src: &'s [u8],
    at: usize,
    line: u32,
    col: u32,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b'-')
}

impl<'s> Reader<'s> {
    fn new(src: &'s str) -> Self {
        Reader {
            src: src.as_bytes(),
            at: 0,
            line: 1,
            col: 1,
        }
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.at).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.src.get(self.at + k).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        if b == b'\n' {
            self.line += 1;
            self.col = 1;
        } else if b & 0xC0 != 0x80 {
            self.col += 1;
        }
        Some(b)
    }

    /// Skips blanks and `//` comments.
    fn skip_ws(&mut self) {
        while let Some(b) = self.peek() {
            if b.is_ascii_whitespace() {
                self.bump();
            } else if b == b'/' && self.peek_at(1) == Some(b'/') {
                while !matches!(self.peek(), None | Some(b'\n')) {
                    self.bump();
                }
            } else {
                break;
            }
        }
    }

    /// What is next, for error messages.
    fn found(&self) -> String {
        match self.peek() {
            None => "end of input".into(),
            Some(_) => {
                let rest = &self.src[self.at..];
                let end = rest
                    .iter()
                    .position(|b| b.is_ascii_whitespace())
                    .unwrap_or(rest.len())
                    .clamp(1, 20);
                format!("`{}`", String::from_utf8_lossy(&rest[..end]))
            }
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(b) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, b: u8) -> Result<()> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(self
                .pos()
                .syntax(format!("expected `{}`, found {}", b as char, self.found())))
        }
    }

    fn eat_arrow(&mut self) -> bool {
        self.skip_ws();
        if self.peek() == Some(b'-') && self.peek_at(1) == Some(b'>') {
            self.bump();
            self.bump();
            true
        } else {
            false
        }
    }

    /// A bare word (`[A-Za-z0-9_.$-]*` starting with a letter or `_`); empty if none.
    fn word(&mut self) -> String {
        self.skip_ws();
        let start = self.at;
        if self
            .peek()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        {
            while self.peek().is_some_and(is_word_byte) {
                // `->` ends a word (`tensor<f32>->` never happens in a word).
                if self.peek() == Some(b'-') && self.peek_at(1) == Some(b'>') {
                    break;
                }
                self.bump();
            }
        }
        String::from_utf8_lossy(&self.src[start..self.at]).into_owned()
    }

    fn peek_word(&mut self) -> String {
        let (at, line, col) = (self.at, self.line, self.col);
        let w = self.word();
        (self.at, self.line, self.col) = (at, line, col);
        w
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.peek_word() == w {
            self.word();
            true
        } else {
            false
        }
    }

    /// `%name` or `%name#3`, returned with the `%`.
    fn value_name(&mut self) -> Result<(String, Pos)> {
        self.skip_ws();
        let pos = self.pos();
        if self.peek() != Some(b'%') {
            return Err(pos.syntax(format!(
                "expected a value like `%0`, found {}",
                self.found()
            )));
        }
        let start = self.at;
        self.bump();
        while self.peek().is_some_and(|b| is_word_byte(b) || b == b'#') {
            self.bump();
        }
        if self.at == start + 1 {
            return Err(pos.syntax("expected a value name after `%`"));
        }
        Ok((
            String::from_utf8_lossy(&self.src[start..self.at]).into_owned(),
            pos,
        ))
    }

    /// `@name` or `@"name"`, returned without the `@`.
    fn symbol(&mut self) -> Result<String> {
        self.skip_ws();
        let pos = self.pos();
        if !self.eat(b'@') {
            return Err(pos.syntax(format!(
                "expected a symbol like `@f`, found {}",
                self.found()
            )));
        }
        if self.peek() == Some(b'"') {
            return self.string();
        }
        let start = self.at;
        while self.peek().is_some_and(is_word_byte) {
            self.bump();
        }
        if self.at == start {
            return Err(pos.syntax("expected a symbol name after `@`"));
        }
        Ok(String::from_utf8_lossy(&self.src[start..self.at]).into_owned())
    }

    /// A `"..."` string (escapes kept as written).
    fn string(&mut self) -> Result<String> {
        self.skip_ws();
        let pos = self.pos();
        if !self.eat(b'"') {
            return Err(pos.syntax(format!("expected a string, found {}", self.found())));
        }
        let start = self.at;
        loop {
            match self.bump() {
                None => return Err(pos.syntax("unterminated string")),
                Some(b'\\') => {
                    self.bump();
                }
                Some(b'"') => break,
                Some(_) => {}
            }
        }
        Ok(String::from_utf8_lossy(&self.src[start..self.at - 1]).into_owned())
    }

    /// An integer, possibly negative.
    fn int(&mut self) -> Result<i64> {
        self.skip_ws();
        let pos = self.pos();
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.bump();
        }
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.bump();
        }
        std::str::from_utf8(&self.src[start..self.at])
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| pos.syntax(format!("expected an integer, found {}", self.found())))
    }

    /// Skips one balanced item: a bracketed group (`(...)`, `[...]`, `{...}`, `<...>`, with
    /// strings and `->` inside), or a single word/number/value. Iterative.
    fn skip_balanced(&mut self) -> Result<()> {
        self.skip_ws();
        let pos = self.pos();
        let mut depth = 0usize;
        loop {
            match self.peek() {
                None => return Err(pos.syntax("unbalanced brackets")),
                Some(b'"') => {
                    self.string()?;
                }
                Some(b'-') if self.peek_at(1) == Some(b'>') => {
                    self.bump();
                    self.bump();
                }
                Some(b'(' | b'[' | b'{' | b'<') => {
                    self.bump();
                    depth += 1;
                }
                Some(b')' | b']' | b'}' | b'>') if depth > 0 => {
                    self.bump();
                    depth -= 1;
                }
                Some(_) if depth > 0 => {
                    self.bump();
                }
                Some(b) if is_word_byte(b) || matches!(b, b'%' | b'@' | b'#' | b'!' | b'^') => {
                    self.bump();
                    while self.peek().is_some_and(|b| is_word_byte(b) || b == b'#') {
                        if self.peek() == Some(b'-') && self.peek_at(1) == Some(b'>') {
                            break;
                        }
                        self.bump();
                    }
                    // A word may open a group: `loc(...)`, `array<...>`, `#foo<...>`.
                    if !matches!(self.peek(), Some(b'(' | b'<')) {
                        return Ok(());
                    }
                }
                Some(_) => return Err(pos.syntax(format!("unexpected {}", self.found()))),
            }
            if depth == 0 && !matches!(self.peek(), Some(b'(' | b'<')) {
                return Ok(());
            }
        }
    }

    /// `#alias = ...` at top level: skipped.
    fn skip_alias(&mut self) -> Result<()> {
        self.bump();
        self.word();
        self.expect(b'=')?;
        self.skip_balanced()
    }

    /// Skips a trailing `loc(...)`.
    fn skip_loc(&mut self) -> Result<()> {
        if self.peek_word() == "loc" {
            self.skip_balanced()?;
        }
        Ok(())
    }

    // ---- types -------------------------------------------------------------------------

    /// `tensor<4x8xf32>` / `tensor<f32>`.
    fn tensor_type(&mut self) -> Result<TensorType> {
        self.skip_ws();
        let pos = self.pos();
        if self.peek() == Some(b'!') {
            return self.shape_type(pos);
        }
        let w = self.word();
        if w != "tensor" {
            if w.is_empty() {
                return Err(pos.syntax(format!(
                    "expected a type like `tensor<4xf32>`, found {}",
                    self.found()
                )));
            }
            return Err(pos.unsupported(format!("type `{w}` (only static tensors are)")));
        }
        if self.peek() != Some(b'<') {
            return Err(self.pos().syntax("expected `<` after `tensor`"));
        }
        self.bump();
        let mut shape = Vec::new();
        loop {
            match self.peek() {
                Some(b) if b.is_ascii_digit() => {
                    let dpos = self.pos();
                    let start = self.at;
                    while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                        self.bump();
                    }
                    let n = std::str::from_utf8(&self.src[start..self.at])
                        .ok()
                        .and_then(|s| s.parse::<usize>().ok())
                        .ok_or_else(|| dpos.syntax("dimension too large"))?;
                    shape.push(n);
                    if self.peek() != Some(b'x') {
                        return Err(self.pos().syntax("expected `x` after a dimension"));
                    }
                    self.bump();
                }
                Some(b'?') => return Err(self.pos().unsupported("dynamic dimension `?`")),
                Some(b'*') => return Err(self.pos().unsupported("unranked tensor")),
                _ => break,
            }
        }
        let epos = self.pos();
        let elem = self.word();
        let dtype = dtype_of(&elem).ok_or_else(|| {
            if elem.is_empty() {
                epos.syntax(format!("expected an element type, found {}", self.found()))
            } else {
                epos.unsupported(format!("element type `{elem}`"))
            }
        })?;
        if self.peek() == Some(b',') {
            return Err(self.pos().unsupported("tensor encoding"));
        }
        if self.peek() != Some(b'>') {
            return Err(self
                .pos()
                .syntax(format!("expected `>`, found {}", self.found())));
        }
        self.bump();
        Ok(TensorType::new(dtype, shape))
    }

    /// `!tosa.shape<N>`, the operand type of `tosa.reshape`'s shape: read as `tensor<Nxi64>`
    /// (it is made by `tosa.const_shape`, a constant).
    fn shape_type(&mut self, pos: Pos) -> Result<TensorType> {
        self.bump();
        let w = self.word();
        if w != "tosa.shape" || !self.eat(b'<') {
            return Err(pos.unsupported(format!("type `!{w}` (only static tensors are)")));
        }
        let n = self.int()?;
        self.expect(b'>')?;
        let n = usize::try_from(n).map_err(|_| pos.syntax("a negative shape rank"))?;
        Ok(TensorType::new(DType::I64, vec![n]))
    }

    /// A comma-separated list of types, stopping at anything else.
    fn type_list(&mut self, out: &mut Vec<TensorType>) -> Result<()> {
        out.push(self.tensor_type()?);
        while self.eat(b',') {
            out.push(self.tensor_type()?);
        }
        Ok(())
    }

    /// Result types after `->`: `type`, `(types)` or `()`, each maybe followed by `{attrs}`.
    fn result_types(&mut self) -> Result<Vec<TensorType>> {
        let mut out = Vec::new();
        if self.eat(b'(') {
            if !self.eat(b')') {
                loop {
                    out.push(self.tensor_type()?);
                    self.skip_ws();
                    if self.peek() == Some(b'{') {
                        self.skip_balanced()?;
                    }
                    if !self.eat(b',') {
                        break;
                    }
                }
                self.expect(b')')?;
            }
        } else {
            out.push(self.tensor_type()?);
        }
        Ok(out)
    }

    // ---- functions and blocks ----------------------------------------------------------

    fn func(&mut self, pos: Pos) -> Result<Func> {
        let vis = self.peek_word();
        let private = vis == "private";
        if matches!(vis.as_str(), "public" | "private" | "nested") {
            self.word();
        }
        let name = self.symbol()?;
        self.expect(b'(')?;
        let mut params = Vec::new();
        if !self.eat(b')') {
            loop {
                let (v, vpos) = self.value_name()?;
                self.expect(b':')?;
                let t = self.tensor_type()?;
                self.skip_ws();
                if self.peek() == Some(b'{') {
                    self.skip_balanced()?;
                }
                self.skip_ws();
                self.skip_loc()?;
                params.push((v, t, vpos));
                if !self.eat(b',') {
                    break;
                }
            }
            self.expect(b')')?;
        }
        let results = if self.eat_arrow() {
            self.result_types()?
        } else {
            Vec::new()
        };
        if self.eat_word("attributes") {
            self.skip_balanced()?;
        }
        self.skip_ws();
        let body = if self.peek() == Some(b'{') {
            self.bump();
            let ops = self.ops(0)?;
            self.expect(b'}')?;
            Some(Block {
                args: Vec::new(),
                ops,
            })
        } else {
            None
        };
        self.skip_ws();
        self.skip_loc()?;
        Ok(Func {
            pos,
            name,
            params,
            results,
            body,
            private,
        })
    }

    /// Ops until `}` (not consumed).
    fn ops(&mut self, depth: usize) -> Result<Vec<OpSyntax>> {
        let mut ops = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'}') => return Ok(ops),
                None => return Err(self.pos().syntax("expected `}`, found end of input")),
                _ => ops.push(self.op(depth)?),
            }
        }
    }

    /// A region `{ [^bb0(args):] ops }`.
    fn region(&mut self, depth: usize) -> Result<Block> {
        self.skip_ws();
        let pos = self.pos();
        if depth + 1 > NESTING_LIMIT {
            return Err(pos.unsupported(format!("region nesting deeper than {NESTING_LIMIT}")));
        }
        self.expect(b'{')?;
        self.skip_ws();
        let mut args = Vec::new();
        if self.peek() == Some(b'^') {
            self.bump();
            self.word();
            if self.eat(b'(') && !self.eat(b')') {
                loop {
                    let (v, vpos) = self.value_name()?;
                    self.expect(b':')?;
                    let t = self.tensor_type()?;
                    self.skip_ws();
                    self.skip_loc()?;
                    args.push((v, t, vpos));
                    if !self.eat(b',') {
                        break;
                    }
                }
                self.expect(b')')?;
            }
            self.expect(b':')?;
        }
        let ops = self.ops(depth + 1)?;
        self.expect(b'}')?;
        Ok(Block { args, ops })
    }

    // ---- ops ---------------------------------------------------------------------------

    fn op(&mut self, depth: usize) -> Result<OpSyntax> {
        self.skip_ws();
        let mut op = OpSyntax {
            pos: self.pos(),
            ..OpSyntax::default()
        };
        // Results: `%a, %b:2 =`.
        if self.peek() == Some(b'%') {
            loop {
                let (name, _) = self.value_name()?;
                if self.eat(b':') {
                    let n = self.int()?;
                    if !(0..=1 << 20).contains(&n) {
                        return Err(self.pos().syntax("bad result count"));
                    }
                    op.results.extend((0..n).map(|i| format!("{name}#{i}")));
                } else {
                    op.results.push(name);
                }
                if !self.eat(b',') {
                    break;
                }
            }
            self.expect(b'=')?;
        }
        self.skip_ws();
        op.pos = self.pos();
        let start = self.at;
        if self.peek() == Some(b'"') {
            op.name = self.string()?;
            self.generic_op(&mut op, depth)?;
        } else {
            op.name = self.word();
            if op.name.is_empty() {
                return Err(op
                    .pos
                    .syntax(format!("expected an op, found {}", self.found())));
            }
            // An op whose custom syntax this reader does not know is named, not reported as a
            // syntax error in what may be valid MLIR.
            // A text that ends inside the op's line (no newline after it) was cut short: say so
            // rather than blame the op's syntax.
            let cut_short = !self.src[start..].contains(&b'\n');
            self.pretty_op(&mut op, depth).map_err(|e| match e {
                MlirError::Syntax { .. } if cut_short => op.pos.syntax(format!(
                    "the text ends inside `{}`: is the file cut short?",
                    op.name
                )),
                MlirError::Syntax { line, col, message } => op.pos.unsupported(format!(
                    "custom syntax of op '{}' ({line}:{col}: {message}); its generic form \
                     (`mlir-opt --mlir-print-op-generic`) can be read",
                    op.name
                )),
                other => other,
            })?;
        }
        op.span = (start, self.at);
        self.skip_ws();
        self.skip_loc()?;
        Ok(op)
    }

    /// `"name"(operands) [<{props}>] [(regions)] [{attrs}] : (types) -> types`.
    fn generic_op(&mut self, op: &mut OpSyntax, depth: usize) -> Result<()> {
        self.expect(b'(')?;
        if !self.eat(b')') {
            loop {
                op.operands.push(self.value_name()?);
                if !self.eat(b',') {
                    break;
                }
            }
            self.expect(b')')?;
        }
        self.skip_ws();
        if self.peek() == Some(b'[') {
            return Err(self.pos().unsupported("successors"));
        }
        if self.peek() == Some(b'<') {
            self.bump();
            self.attr_dict(&mut op.attrs)?;
            self.expect(b'>')?;
        }
        self.skip_ws();
        if self.peek() == Some(b'(') {
            self.bump();
            loop {
                op.regions.push(self.region(depth)?);
                if !self.eat(b',') {
                    break;
                }
            }
            self.expect(b')')?;
        }
        self.skip_ws();
        if self.peek() == Some(b'{') {
            self.attr_dict(&mut op.attrs)?;
        }
        self.expect(b':')?;
        self.functional_type(op)
    }

    /// `(types) -> type-or-(types)`.
    fn functional_type(&mut self, op: &mut OpSyntax) -> Result<()> {
        self.expect(b'(')?;
        if !self.eat(b')') {
            self.type_list(&mut op.operand_types)?;
            self.expect(b')')?;
        }
        if !self.eat_arrow() {
            return Err(self
                .pos()
                .syntax(format!("expected `->`, found {}", self.found())));
        }
        op.result_types = self.result_types()?;
        op.functional_type = true;
        Ok(())
    }

    /// `{k = v, ...}` (the braces included).
    fn attr_dict(&mut self, out: &mut Vec<(String, Attr)>) -> Result<()> {
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            self.skip_ws();
            let pos = self.pos();
            let key = if self.peek() == Some(b'"') {
                self.string()?
            } else {
                self.word()
            };
            if key.is_empty() {
                return Err(pos.syntax(format!(
                    "expected an attribute name, found {}",
                    self.found()
                )));
            }
            let value = if self.eat(b'=') {
                self.attr_value()?
            } else {
                Attr::Other
            };
            out.push((key, value));
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b'}')
    }

    /// One attribute value.
    fn attr_value(&mut self) -> Result<Attr> {
        self.skip_ws();
        let value = match self.peek() {
            Some(b'[') => {
                let save = (self.at, self.line, self.col);
                let ints = self.int_list()?;
                if ints.is_none() {
                    let end = (self.at, self.line, self.col);
                    (self.at, self.line, self.col) = save;
                    match self.word_list()? {
                        Some(words) => return Ok(Attr::Words(words)),
                        None => (self.at, self.line, self.col) = end,
                    }
                }
                match ints {
                    Some(xs) => {
                        if self.eat_word("x") {
                            let pos = self.pos();
                            let ys = self
                                .int_list()?
                                .ok_or_else(|| pos.syntax("expected a list of integers"))?;
                            Attr::Pairs(xs, ys)
                        } else {
                            Attr::Ints(xs)
                        }
                    }
                    None => Attr::Other,
                }
            }
            Some(b'#') => self.hash_attr()?,
            Some(b) if b == b'-' || b.is_ascii_digit() => {
                let n = self.int()?;
                // A float (`1.5`, `1e-3`, `-0.0`) or a hex bit pattern (`0x7FC00000 : f32`):
                // kept only to be ignored, as no op reads one.
                let float = matches!(self.peek(), Some(b'.' | b'e' | b'E' | b'x'));
                if float {
                    self.bump();
                    while (self.peek())
                        .is_some_and(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
                    {
                        self.bump();
                    }
                }
                self.typed_suffix()?;
                if float {
                    Attr::Other
                } else {
                    Attr::Int(n)
                }
            }
            Some(b'"') => Attr::Str(self.string()?),
            Some(b'@') => Attr::Symbol(self.symbol()?),
            Some(b'(') => {
                let save = (self.at, self.line, self.col);
                let mut op = OpSyntax::default();
                match self.functional_type(&mut op) {
                    Ok(()) => Attr::FnType(op.operand_types, op.result_types),
                    Err(_) => {
                        (self.at, self.line, self.col) = save;
                        self.skip_balanced()?;
                        Attr::Other
                    }
                }
            }
            _ => {
                let w = self.peek_word();
                match w.as_str() {
                    "dense" => {
                        self.word();
                        let d = self.dense()?;
                        let ty = if self.eat(b':') {
                            Some(self.tensor_type()?)
                        } else {
                            None
                        };
                        Attr::Dense(d, ty)
                    }
                    "array" => {
                        self.word();
                        self.expect(b'<')?;
                        let epos = self.pos();
                        let elem = self.word();
                        if elem == "i1" {
                            let flags = self.bool_items(b'>')?;
                            return Ok(Attr::Bools(flags));
                        }
                        if elem != "i64" && elem != "i32" {
                            return Err(epos.unsupported(format!("array of `{elem}`")));
                        }
                        let mut xs = Vec::new();
                        if self.eat(b':') {
                            loop {
                                xs.push(self.int()?);
                                if !self.eat(b',') {
                                    break;
                                }
                            }
                        }
                        self.expect(b'>')?;
                        Attr::Ints(xs)
                    }
                    "" => {
                        self.skip_balanced()?;
                        Attr::Other
                    }
                    _ => {
                        self.word();
                        if matches!(self.peek(), Some(b'<' | b'(')) {
                            self.skip_balanced()?;
                            Attr::Other
                        } else {
                            Attr::Word(w)
                        }
                    }
                }
            }
        };
        Ok(value)
    }

    /// ` : i64` after an integer attribute.
    fn typed_suffix(&mut self) -> Result<()> {
        self.skip_ws();
        if self.peek() == Some(b':') && self.peek_at(1) != Some(b':') {
            let save = (self.at, self.line, self.col);
            self.bump();
            let w = self.word();
            let typed = ["i", "f", "ui", "si", "bf16"]
                .iter()
                .any(|p| w.starts_with(p));
            if !typed {
                (self.at, self.line, self.col) = save;
            }
        }
        Ok(())
    }

    /// `[1, 2, 3]` as integers; `None` (and the list skipped) if it holds anything else.
    fn int_list(&mut self) -> Result<Option<Vec<i64>>> {
        self.skip_ws();
        let save = (self.at, self.line, self.col);
        self.expect(b'[')?;
        let mut xs = Vec::new();
        if self.eat(b']') {
            return Ok(Some(xs));
        }
        loop {
            self.skip_ws();
            if !self.peek().is_some_and(|b| b == b'-' || b.is_ascii_digit()) {
                (self.at, self.line, self.col) = save;
                self.skip_balanced()?;
                return Ok(None);
            }
            xs.push(self.int()?);
            if !self.eat(b',') {
                break;
            }
        }
        if !self.eat(b']') {
            // Floats or typed integers (`[1.5, 2.0]`, `[1 : i32]`): not a list of integers.
            (self.at, self.line, self.col) = save;
            self.skip_balanced()?;
            return Ok(None);
        }
        Ok(Some(xs))
    }

    /// `[A, B]` or `[#stablehlo<kind A>, ...]` as words; `None` if it holds anything else
    /// (the position is then left anywhere: the caller restores it).
    fn word_list(&mut self) -> Result<Option<Vec<String>>> {
        self.expect(b'[')?;
        let mut words = Vec::new();
        if self.eat(b']') {
            return Ok(Some(words));
        }
        loop {
            self.skip_ws();
            let word = match self.peek() {
                Some(b'#') => match self.hash_attr() {
                    Ok(Attr::Word(w)) => w,
                    _ => return Ok(None),
                },
                Some(b) if b.is_ascii_alphabetic() => self.word(),
                _ => return Ok(None),
            };
            words.push(word);
            if !self.eat(b',') {
                break;
            }
        }
        Ok(self.eat(b']').then_some(words))
    }

    /// `#stablehlo<comparison_direction LT>`, `#stablehlo.dot<k = v, ...>`, others skipped.
    fn hash_attr(&mut self) -> Result<Attr> {
        self.bump();
        let name = self.word();
        if self.peek() != Some(b'<') {
            return Ok(Attr::Word(name));
        }
        if name == "stablehlo" {
            self.bump();
            let _kind = self.word();
            let w = self.word();
            self.expect(b'>')?;
            return Ok(Attr::Word(w));
        }
        if name == "stablehlo.conv" && self.peek_at(1) == Some(b'[') {
            self.bump();
            let labels = self.conv_labels()?;
            self.expect(b'>')?;
            return Ok(labels);
        }
        if matches!(
            name.as_str(),
            "stablehlo.dot" | "stablehlo.gather" | "stablehlo.scatter" | "stablehlo.conv"
        ) {
            self.bump();
            // `#stablehlo.conv<raw input_batch_dimension = 0, ...>`.
            self.eat_word("raw");
            let mut fields = Vec::new();
            if !self.eat(b'>') {
                loop {
                    let key = self.word();
                    self.expect(b'=')?;
                    fields.push((key, self.attr_value()?));
                    if !self.eat(b',') {
                        break;
                    }
                }
                self.expect(b'>')?;
            }
            return Ok(Attr::Struct(fields));
        }
        self.skip_balanced()?;
        Ok(Attr::Other)
    }

    /// The `<...>` of `dense<...>`: nested lists flattened (iteratively), or a hex blob.
    fn dense(&mut self) -> Result<Dense> {
        self.expect(b'<')?;
        self.skip_ws();
        if self.peek() == Some(b'"') {
            let pos = self.pos();
            let s = self.string()?;
            let hex = s
                .strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .ok_or_else(|| pos.unsupported("dense string literal"))?;
            let bytes = hex_bytes(hex).ok_or_else(|| pos.syntax("bad hex in dense blob"))?;
            self.expect(b'>')?;
            return Ok(Dense::Bytes(bytes));
        }
        let mut elems = Vec::new();
        let mut open = 0usize;
        loop {
            self.skip_ws();
            let pos = self.pos();
            match self.peek() {
                Some(b'[') => {
                    self.bump();
                    open += 1;
                }
                Some(b']') if open > 0 => {
                    self.bump();
                    open -= 1;
                }
                Some(b',') if open > 0 => {
                    self.bump();
                }
                Some(b'>') if open == 0 => {
                    self.bump();
                    return Ok(Dense::Elems(elems));
                }
                Some(b'(') => return Err(pos.unsupported("complex dense literal")),
                Some(b) if b == b'-' || b == b'+' || b.is_ascii_digit() => {
                    let start = self.at;
                    self.bump();
                    while self.peek().is_some_and(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-')
                    }) {
                        // A sign is part of a number only right after an exponent marker.
                        if matches!(self.peek(), Some(b'+' | b'-'))
                            && !matches!(self.src[self.at - 1], b'e' | b'E')
                        {
                            break;
                        }
                        self.bump();
                    }
                    let text = String::from_utf8_lossy(&self.src[start..self.at]).into_owned();
                    let elem = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                        Some(h) => Elem::Hex(
                            u64::from_str_radix(h, 16)
                                .map_err(|_| pos.syntax(format!("bad hex literal `{text}`")))?,
                        ),
                        None => Elem::Num(text),
                    };
                    elems.push(elem);
                }
                _ => {
                    let w = self.word();
                    match w.as_str() {
                        "true" => elems.push(Elem::Bool(true)),
                        "false" => elems.push(Elem::Bool(false)),
                        _ => {
                            return Err(pos.syntax(format!(
                                "expected a dense element, found {}",
                                if w.is_empty() {
                                    self.found()
                                } else {
                                    format!("`{w}`")
                                }
                            )))
                        }
                    }
                }
            }
        }
    }

    /// The pretty form: positional parts until `:` at top level, then the types, then
    /// trailing regions (`cond {...} do {...}`).
    fn pretty_op(&mut self, op: &mut OpSyntax, depth: usize) -> Result<()> {
        let terminator = matches!(
            op.name.as_str(),
            "return" | "func.return" | "stablehlo.return"
        );
        let mut inits = Vec::new();
        // The operand just read was a value (`%a`): the next one needs a comma before it.
        let mut after_value = false;
        loop {
            self.skip_ws();
            let pos = self.pos();
            let at_value = self.peek() == Some(b'%');
            if at_value && after_value {
                return Err(pos.syntax(format!(
                    "expected `,` between the operands of `{}`, found {}",
                    op.name,
                    self.found()
                )));
            }
            after_value = at_value;
            match self.peek() {
                Some(b':') => {
                    self.bump();
                    op.operands.append(&mut inits);
                    break;
                }
                // A terminator without operands has no type.
                Some(b'}') if terminator => {
                    op.operands.append(&mut inits);
                    return Ok(());
                }
                Some(b'%') => op.operands.push(self.value_name()?),
                Some(b'@') => op.callee = Some(self.symbol()?),
                Some(b',') => {
                    self.bump();
                }
                Some(b'(') => self.paren_operands(op, &mut inits)?,
                Some(b'[') => {
                    let spec = self.slice_spec()?;
                    op.attrs.push(("slice".into(), spec));
                }
                Some(b'{') if self.attr_dict_ahead() => self.attr_dict(&mut op.attrs)?,
                Some(b'{') => op.regions.push(self.region(depth)?),
                // A Shardy sharding (`<@mesh, [{}, {"x"}]>`): nothing the import reads.
                Some(b'<') if op.name.starts_with("sdy.") => self.skip_balanced()?,
                Some(b'<') => {
                    self.bump();
                    self.attr_dict(&mut op.attrs)?;
                    self.expect(b'>')?;
                }
                None => return Err(pos.syntax("unexpected end of input in an op")),
                _ => {
                    let w = self.word();
                    if w.is_empty() {
                        return Err(pos.syntax(format!(
                            "unexpected {} in `{}`",
                            self.found(),
                            op.name
                        )));
                    }
                    if w == "dense" {
                        let d = self.dense()?;
                        op.attrs.push(("value".into(), Attr::Dense(d, None)));
                    } else if w == "dim_numbers" && self.eat(b'=') {
                        let labels = self.conv_labels()?;
                        op.attrs.push(("dimension_numbers".into(), labels));
                    } else if w == "window" && self.eat(b'=') {
                        self.conv_window(&mut op.attrs)?;
                    } else if w == "attributes" {
                        self.attr_dict(&mut op.attrs)?;
                    } else if self.eat(b'=') {
                        let v = self.attr_value()?;
                        op.attrs.push((w, v));
                    } else if w == "loc" {
                        return Err(pos.syntax("expected `:` before `loc`"));
                    } else {
                        op.words.push(w);
                    }
                }
            }
        }
        self.skip_ws();
        if self.peek() == Some(b'(') {
            self.functional_type(op)?;
        } else {
            let mut types = Vec::new();
            self.type_list(&mut types)?;
            if self.eat_arrow() {
                op.operand_types = types;
                op.result_types = self.result_types()?;
                op.functional_type = true;
            } else {
                op.operand_types = types;
            }
        }
        // Trailing regions: `cond { ... } do { ... }` of `stablehlo.while`.
        loop {
            let w = self.peek_word();
            if matches!(w.as_str(), "cond" | "do") {
                self.word();
                op.regions.push(self.region(depth)?);
            } else if w == "reducer" {
                self.word();
                op.regions.push(self.pretty_reducer(depth)?);
            } else {
                break;
            }
        }
        Ok(())
    }

    /// Does the `{` here open an attribute dictionary (`{}`, `{name = ...`, or a unit
    /// attribute: `{name, ...` or `{name}`), not a region? A region's first word followed by
    /// `}` is a terminator without operands (`{ stablehlo.return }`).
    fn attr_dict_ahead(&mut self) -> bool {
        let save = (self.at, self.line, self.col);
        self.bump();
        self.skip_ws();
        let ahead = if self.peek() == Some(b'}') {
            true
        } else {
            let word = self.word();
            self.skip_ws();
            !word.is_empty()
                && match self.peek() {
                    Some(b'=' | b',') => true,
                    Some(b'}') => {
                        !matches!(word.as_str(), "return" | "func.return" | "stablehlo.return")
                    }
                    _ => false,
                }
        };
        (self.at, self.line, self.col) = save;
        ahead
    }

    /// `(%x init: %c, ...)` of reduce (the inits go to `inits`, which the caller appends after
    /// every group's inputs: `(%x init: %c), (%i init: %j)` of a reduce of several operands),
    /// `(%a, %b)` of calls, `(%iterArg = %x, ...)` of while, `(%x, k = 2)` of `chlo.top_k`.
    fn paren_operands(&mut self, op: &mut OpSyntax, inits: &mut Vec<(String, Pos)>) -> Result<()> {
        self.expect(b'(')?;
        if !self.eat(b')') {
            loop {
                self.skip_ws();
                if self.peek() != Some(b'%') {
                    let pos = self.pos();
                    let w = self.word();
                    if w.is_empty() || !self.eat(b'=') {
                        return Err(pos.syntax(format!(
                            "expected a value or `name = attribute`, found {}",
                            self.found()
                        )));
                    }
                    let v = self.attr_value()?;
                    op.attrs.push((w, v));
                    if !self.eat(b',') {
                        break;
                    }
                    continue;
                }
                let (v, pos) = self.value_name()?;
                if self.eat(b'=') {
                    // `%iterArg = %init`: the region argument name, then the operand.
                    op.words.push(v);
                    op.operands.push(self.value_name()?);
                } else {
                    op.operands.push((v, pos));
                }
                if self.eat_word("init") {
                    self.expect(b':')?;
                    inits.push(self.value_name()?);
                }
                if !self.eat(b',') {
                    break;
                }
            }
            self.expect(b')')?;
        }
        Ok(())
    }

    /// The pretty reducer of a `stablehlo.reduce`: `reducer(%a0: T, %b0: T) (%a1: U, %b1: U)
    /// { ops }`, one group per operand (its accumulator and element), as the block of the
    /// generic form (`^bb0(%a0, %a1, %b0, %b1)`).
    fn pretty_reducer(&mut self, depth: usize) -> Result<Block> {
        let mut groups = Vec::new();
        loop {
            self.skip_ws();
            if !self.eat(b'(') {
                break;
            }
            let mut group = Vec::new();
            loop {
                let (v, vpos) = self.value_name()?;
                self.expect(b':')?;
                group.push((v, self.tensor_type()?, vpos));
                if !self.eat(b',') {
                    break;
                }
            }
            self.expect(b')')?;
            let pos = self.pos();
            let [a, b]: [_; 2] = group
                .try_into()
                .map_err(|_| pos.syntax("a reducer group has two arguments"))?;
            groups.push((a, b));
        }
        let mut block = self.region(depth)?;
        let (lhs, rhs): (Vec<_>, Vec<_>) = groups.into_iter().unzip();
        block.args = lhs.into_iter().chain(rhs).collect();
        Ok(block)
    }

    /// `true, false>` (after `array<i1:`) or `true, false]`: flags up to `close`, which is
    /// consumed; `0` and `1` are read as flags too.
    fn bool_items(&mut self, close: u8) -> Result<Vec<bool>> {
        let mut flags = Vec::new();
        if self.eat(b':') || close == b']' {
            loop {
                self.skip_ws();
                if self.peek() == Some(close) {
                    break;
                }
                let pos = self.pos();
                flags.push(match self.peek() {
                    Some(b'0' | b'1') => self.int()? == 1,
                    _ => match self.word().as_str() {
                        "true" => true,
                        "false" => false,
                        _ => {
                            return Err(pos.syntax(format!(
                                "expected `true` or `false`, found {}",
                                self.found()
                            )))
                        }
                    },
                });
                if !self.eat(b',') {
                    break;
                }
            }
        }
        self.expect(close)?;
        Ok(flags)
    }

    /// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`: a convolution's dimension labels.
    fn conv_labels(&mut self) -> Result<Attr> {
        let input = self.label_list()?;
        if !self.eat_word("x") {
            return Err(self
                .pos()
                .syntax(format!("expected `x`, found {}", self.found())));
        }
        let kernel = self.label_list()?;
        if !self.eat_arrow() {
            return Err(self
                .pos()
                .syntax(format!("expected `->`, found {}", self.found())));
        }
        let output = self.label_list()?;
        Ok(Attr::ConvLabels([input, kernel, output]))
    }

    /// `[b, 0, 1, f]`: words and numbers.
    fn label_list(&mut self) -> Result<Vec<String>> {
        self.expect(b'[')?;
        let mut labels = Vec::new();
        if self.eat(b']') {
            return Ok(labels);
        }
        loop {
            self.skip_ws();
            let pos = self.pos();
            let label = if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                self.int()?.to_string()
            } else {
                self.word()
            };
            if label.is_empty() {
                return Err(pos.syntax(format!(
                    "expected a dimension label, found {}",
                    self.found()
                )));
            }
            labels.push(label);
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        Ok(labels)
    }

    /// `{stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1],
    /// reverse = [false, false]}` of a pretty convolution, as the generic form's attributes.
    fn conv_window(&mut self, attrs: &mut Vec<(String, Attr)>) -> Result<()> {
        self.expect(b'{')?;
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            self.skip_ws();
            let pos = self.pos();
            let key = self.word();
            self.expect(b'=')?;
            let (name, value) = match key.as_str() {
                "stride" => ("window_strides", Attr::Ints(self.ints()?)),
                "lhs_dilate" => ("lhs_dilation", Attr::Ints(self.ints()?)),
                "rhs_dilate" => ("rhs_dilation", Attr::Ints(self.ints()?)),
                "reverse" => {
                    self.expect(b'[')?;
                    ("window_reversal", Attr::Bools(self.bool_items(b']')?))
                }
                "pad" => {
                    let mut flat = Vec::new();
                    self.expect(b'[')?;
                    if !self.eat(b']') {
                        loop {
                            let ppos = self.pos();
                            let pair = self.ints()?;
                            if pair.len() != 2 {
                                return Err(ppos.syntax("expected a padding pair `[low, high]`"));
                            }
                            flat.extend(pair);
                            if !self.eat(b',') {
                                break;
                            }
                        }
                        self.expect(b']')?;
                    }
                    ("padding", Attr::Ints(flat))
                }
                _ => return Err(pos.syntax(format!("unknown convolution window field `{key}`"))),
            };
            attrs.push((name.into(), value));
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b'}')
    }

    /// `[1, 2]`: integers only.
    fn ints(&mut self) -> Result<Vec<i64>> {
        self.skip_ws();
        let pos = self.pos();
        self.int_list()?
            .ok_or_else(|| pos.syntax("expected a list of integers"))
    }

    /// `[0:16, 2:8:2]`.
    fn slice_spec(&mut self) -> Result<Attr> {
        self.expect(b'[')?;
        let mut dims = Vec::new();
        if self.eat(b']') {
            return Ok(Attr::Slice(dims));
        }
        loop {
            let start = self.int()?;
            self.expect(b':')?;
            let limit = self.int()?;
            let stride = if self.eat(b':') { self.int()? } else { 1 };
            dims.push((start, limit, stride));
            if !self.eat(b',') {
                break;
            }
        }
        self.expect(b']')?;
        Ok(Attr::Slice(dims))
    }
}

/// The PTIR dtype of an MLIR element type.
fn dtype_of(elem: &str) -> Option<DType> {
    match elem {
        // `arith` / `tensor` index constants (TOSA shapes): 64-bit integers.
        "index" => Some(DType::I64),
        _ => DType::ALL.into_iter().find(|&d| mlir_elem(d) == elem),
    }
}

/// The MLIR element type of a PTIR dtype: PTIR's name, except `i1` for `bool` and `ui8` ..
/// `ui64` for `u8` .. `u64`.
pub(crate) fn mlir_elem(d: DType) -> &'static str {
    match d {
        DType::Bool => "i1",
        DType::U8 => "ui8",
        DType::U16 => "ui16",
        DType::U32 => "ui32",
        DType::U64 => "ui64",
        d => d.name(),
    }
}

fn hex_bytes(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pretty_and_generic_forms() {
        let m = parse_module(
            "module @m {\n  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = \"r\"}) {\n    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>\n    %1 = \"stablehlo.multiply\"(%0, %0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc(\"x\")\n    return %1 : tensor<4xf32>\n  }\n}\n",
        )
        .unwrap();
        let f = &m.funcs[0];
        let ops = &f.body.as_ref().unwrap().ops;
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[0].name, "stablehlo.add");
        assert_eq!(ops[0].operands.len(), 2);
        assert_eq!(ops[1].name, "stablehlo.multiply");
        assert_eq!(ops[1].result_types[0].to_string(), "f32[4]");
        assert_eq!(ops[2].pos, Pos { line: 5, col: 5 });
    }

    #[test]
    fn reduce_dot_and_dense() {
        let m = parse_module(
            "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2xf32> {\n  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>\n  %d = stablehlo.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>\n  %r = stablehlo.reduce(%d init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>\n  return %r : tensor<2xf32>\n}",
        )
        .unwrap();
        let ops = &m.funcs[0].body.as_ref().unwrap().ops;
        assert_eq!(
            ops[0].attr("value"),
            Some(&Attr::Dense(
                Dense::Elems(vec![Elem::Hex(0xFF800000)]),
                None
            ))
        );
        assert_eq!(
            ops[1].attr("contracting_dims"),
            Some(&Attr::Pairs(vec![1], vec![0]))
        );
        assert_eq!(ops[2].words, ["applies", "stablehlo.maximum", "across"]);
        assert_eq!(ops[2].attr("dimensions"), Some(&Attr::Ints(vec![1])));
        assert_eq!(ops[2].operands.len(), 2);
    }

    #[test]
    fn errors_are_located() {
        let e = parse_module("func.func @f(%a: tensor<?xf32>) {\n}").unwrap_err();
        assert_eq!(e.to_string(), "1:25: unsupported dynamic dimension `?`");
        let e = parse_module("func.func @f() {\n  %0 = stablehlo.add %a %b\n").unwrap_err();
        assert!(e.location().is_some(), "{e}");
        let deep = format!("func.func @f() {{\n{}", "%0 = \"x.y\"() ({".repeat(200));
        assert!(parse_module(&deep).is_err());
    }
}
