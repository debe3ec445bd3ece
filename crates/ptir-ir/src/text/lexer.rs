//! The lexer: bytes to tokens with byte offsets. It never fails: bytes that start no token
//! become [`Tok::Unknown`], which the parser reports with its position.

/// A token kind. Names (`%x`, `@f`, identifiers, numbers) borrow the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok<'s> {
    /// `%name` (the text after `%`).
    Value(&'s str),
    /// `@name` (the text after `@`).
    Symbol(&'s str),
    /// A keyword, op name, dtype or attribute name.
    Ident(&'s str),
    /// A number: optional `-`, digits, optional fraction and exponent.
    Number(&'s str),
    /// One of `= , : ( ) [ ] { } ^`.
    Punct(u8),
    /// `->`.
    Arrow,
    /// A byte that starts no token.
    Unknown(u8),
    /// End of input.
    Eof,
}

impl Tok<'_> {
    /// How the token is named in "expected X, found Y" messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Value(s) => format!("`%{s}`"),
            Tok::Symbol(s) => format!("`@{s}`"),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Number(s) => format!("number `{s}`"),
            Tok::Punct(c) => format!("`{}`", *c as char),
            Tok::Arrow => "`->`".into(),
            Tok::Unknown(c) if c.is_ascii_graphic() => {
                format!("unexpected character `{}`", *c as char)
            }
            Tok::Unknown(c) => format!("unexpected byte 0x{c:02x}"),
            Tok::Eof => "end of input".into(),
        }
    }
}

/// A token and the byte offset where it starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spanned<'s> {
    pub tok: Tok<'s>,
    pub pos: usize,
}

pub(crate) struct Lexer<'s> {
    src: &'s str,
    pos: usize,
}

/// Byte classes, looked up in [`CLASS`]: one load per byte instead of a chain of range tests.
const NAME: u8 = 1;
/// `u8::is_ascii_whitespace`.
const SPACE: u8 = 2;
/// `u8::is_ascii_digit`.
const DIGIT: u8 = 4;
/// `u8::is_ascii_alphabetic`.
const ALPHA: u8 = 8;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let mut k = 0;
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$' {
            k |= NAME;
        }
        if b.is_ascii_whitespace() {
            k |= SPACE;
        }
        if b.is_ascii_digit() {
            k |= DIGIT;
        }
        if b.is_ascii_alphabetic() {
            k |= ALPHA;
        }
        t[c] = k;
        c += 1;
    }
    t
};

#[inline(always)]
fn class(c: u8) -> u8 {
    CLASS[c as usize]
}

/// A byte of a name: ASCII alphanumeric, `_`, `.` or `$`.
#[inline(always)]
fn is_name_byte(c: u8) -> bool {
    class(c) & NAME != 0
}

impl<'s> Lexer<'s> {
    pub(crate) fn new(src: &'s str) -> Self {
        Lexer { src, pos: 0 }
    }

    fn bytes(&self) -> &'s [u8] {
        self.src.as_bytes()
    }

    #[inline(always)]
    fn skip_trivia(&mut self) {
        let b = self.bytes();
        let mut p = self.pos;
        loop {
            while p < b.len() && class(b[p]) & SPACE != 0 {
                p += 1;
            }
            if p + 1 < b.len() && b[p] == b'/' && b[p + 1] == b'/' {
                while p < b.len() && b[p] != b'\n' {
                    p += 1;
                }
            } else {
                self.pos = p;
                return;
            }
        }
    }

    /// Advances over name bytes from `start` and returns them (always on char boundaries,
    /// since name bytes are ASCII).
    #[inline(always)]
    fn name(&mut self, start: usize) -> &'s str {
        let b = self.bytes();
        let mut p = start;
        while p < b.len() && is_name_byte(b[p]) {
            p += 1;
        }
        self.pos = p;
        self.src.get(start..p).unwrap_or("")
    }

    /// The text of a quoted symbol `@"..."` from `start` (after the opening quote) to the
    /// closing quote, escapes kept as written (`\"` and `\\` do not close it); the
    /// position moves past the closing quote. An unterminated quote runs to the end of the
    /// input, which then fails to parse where the symbol was expected to end.
    fn quoted(&mut self, start: usize) -> &'s str {
        let b = self.bytes();
        let mut p = start;
        while p < b.len() && b[p] != b'"' {
            p += if b[p] == b'\\' { 2 } else { 1 };
        }
        let end = p.min(b.len());
        self.pos = (end + 1).min(b.len());
        self.src.get(start..end).unwrap_or("")
    }

    fn number(&mut self, start: usize) -> &'s str {
        let b = self.bytes();
        let mut p = start;
        if b.get(p) == Some(&b'-') {
            p += 1;
        }
        let digits = |p: &mut usize| {
            while *p < b.len() && class(b[*p]) & DIGIT != 0 {
                *p += 1;
            }
        };
        digits(&mut p);
        if b.get(p) == Some(&b'.') {
            p += 1;
            digits(&mut p);
        }
        if matches!(b.get(p), Some(b'e' | b'E')) {
            let mut q = p + 1;
            if matches!(b.get(q), Some(b'+' | b'-')) {
                q += 1;
            }
            if b.get(q).is_some_and(u8::is_ascii_digit) {
                p = q;
                digits(&mut p);
            }
        }
        self.pos = p;
        self.src.get(start..p).unwrap_or("")
    }

    /// The fast path for the dims of a shape: if the text right after a `[` token (which this
    /// lexer has just passed) is `]` or `N,N,...,N]` with plain decimal numbers that fit a
    /// `usize` and nothing else in between, consumes it and returns the dims (allocated to
    /// their exact number). Otherwise consumes nothing: the token path then reads the shape
    /// and reports what is wrong with it.
    pub(crate) fn plain_dims(&mut self) -> Option<Vec<usize>> {
        let b = self.bytes();
        let mut p = self.pos;
        let mut count = 0;
        if b.get(p) != Some(&b']') {
            loop {
                let start = p;
                while p < b.len() && class(b[p]) & DIGIT != 0 {
                    p += 1;
                }
                if p == start {
                    return None;
                }
                count += 1;
                match b.get(p) {
                    Some(b',') => p += 1,
                    Some(b']') => break,
                    _ => return None,
                }
            }
        }
        let mut dims = Vec::with_capacity(count);
        let mut n: usize = 0;
        for &c in &b[self.pos..p] {
            if c == b',' {
                dims.push(n);
                n = 0;
            } else {
                n = n.checked_mul(10)?.checked_add(usize::from(c - b'0'))?;
            }
        }
        if count > 0 {
            dims.push(n);
        }
        self.pos = p + 1;
        Some(dims)
    }

    #[inline]
    pub(crate) fn next_token(&mut self) -> Spanned<'s> {
        self.skip_trivia();
        let start = self.pos;
        let b = self.bytes();
        let Some(&c) = b.get(start) else {
            return Spanned {
                tok: Tok::Eof,
                pos: start,
            };
        };
        let tok = match c {
            b'%' => Tok::Value(self.name(start + 1)),
            b'@' if b.get(start + 1) == Some(&b'"') => Tok::Symbol(self.quoted(start + 2)),
            b'@' => Tok::Symbol(self.name(start + 1)),
            b'-' if b.get(start + 1) == Some(&b'>') => {
                self.pos = start + 2;
                Tok::Arrow
            }
            b'-' if b.get(start + 1).is_some_and(u8::is_ascii_alphabetic) => {
                // `-inf`
                self.name(start + 1);
                Tok::Number(self.src.get(start..self.pos).unwrap_or(""))
            }
            b'-' | b'0'..=b'9' => Tok::Number(self.number(start)),
            b'=' | b',' | b':' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'^' => {
                self.pos = start + 1;
                Tok::Punct(c)
            }
            c if class(c) & ALPHA != 0 || c == b'_' => Tok::Ident(self.name(start)),
            _ => {
                // Skip the whole UTF-8 character so positions stay on char boundaries.
                let len = self
                    .src
                    .get(start..)
                    .and_then(|s| s.chars().next())
                    .map_or(1, char::len_utf8);
                self.pos = start + len;
                Tok::Unknown(c)
            }
        };
        Spanned { tok, pos: start }
    }
}

/// 1-based line and column (in characters) of byte offset `pos` in `src`.
pub(crate) fn line_col(src: &str, pos: usize) -> (usize, usize) {
    let before = src.get(..pos).unwrap_or(src);
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok<'_>> {
        let mut l = Lexer::new(s);
        let mut out = vec![];
        loop {
            let t = l.next_token().tok;
            if t == Tok::Eof {
                return out;
            }
            out.push(t);
        }
    }

    #[test]
    fn lexes_instruction() {
        assert_eq!(
            toks("%1 = add %0, %x : f32[2] // note\n-> -1.5e3 -inf"),
            vec![
                Tok::Value("1"),
                Tok::Punct(b'='),
                Tok::Ident("add"),
                Tok::Value("0"),
                Tok::Punct(b','),
                Tok::Value("x"),
                Tok::Punct(b':'),
                Tok::Ident("f32"),
                Tok::Punct(b'['),
                Tok::Number("2"),
                Tok::Punct(b']'),
                Tok::Arrow,
                Tok::Number("-1.5e3"),
                Tok::Number("-inf"),
            ]
        );
    }

    #[test]
    fn unknown_multibyte_char_keeps_boundaries() {
        assert_eq!(toks("é%1"), vec![Tok::Unknown(0xc3), Tok::Value("1")]);
        assert_eq!(line_col("ab\ncé", 5), (2, 3));
    }
}
