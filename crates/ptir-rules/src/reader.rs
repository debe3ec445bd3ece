//! Splits a rule file into top-level forms with their line numbers and doc comments, and
//! reads each form with `symbolic_expressions`.
//!
//! `symbolic_expressions` reads one expression and has no comments, so this layer finds the
//! top-level `( ... )` forms itself (skipping `;` comments and `"strings"`), remembers the
//! line each starts on and the `;` comment lines just above it (the rule's doc), and blanks
//! comments out before handing the form over. `symbolic_expressions` recurses once per `(`,
//! so a form nested deeper than [`crate::RULE_DEPTH_LIMIT`] is an error here, before it is
//! read (as program files are bounded by the program parser's nesting limit).

use symbolic_expressions::Sexp;

/// One top-level form.
pub(crate) struct Form {
    /// 1-based line of its `(`.
    pub line: usize,
    /// The comment lines directly above it, without `;`.
    pub doc: String,
    /// Its text, comments blanked.
    pub text: String,
}

/// A syntax error at a line (1-based) of the file.
pub(crate) struct ReadError {
    pub line: usize,
    pub message: String,
}

/// Splits `src` into top-level forms.
pub(crate) fn forms(src: &str) -> Result<Vec<Form>, ReadError> {
    let mut out = Vec::new();
    let mut doc_lines: Vec<&str> = Vec::new();
    let mut current: Option<(usize, String, usize)> = None; // (line, text, depth)
    for (i, raw) in src.lines().enumerate() {
        let line_no = i + 1;
        let (code, comment) = split_comment(raw);
        if current.is_none() {
            let trimmed = code.trim();
            if trimmed.is_empty() {
                match comment {
                    Some(c) => doc_lines.push(c),
                    None => doc_lines.clear(),
                }
                continue;
            }
            if !trimmed.starts_with('(') {
                return Err(ReadError {
                    line: line_no,
                    message: format!(
                        "expected `(` to start a form, found `{}`",
                        first_word(trimmed)
                    ),
                });
            }
            current = Some((line_no, String::new(), 0));
        }
        if let Some((start, text, depth)) = &mut current {
            for c in code.chars() {
                if *depth == 0
                    && !c.is_whitespace()
                    && !text.trim().is_empty()
                    && text.trim_end().ends_with(')')
                {
                    return Err(ReadError {
                        line: line_no,
                        message: "a form must start on its own line".into(),
                    });
                }
                text.push(if c == '\t' { ' ' } else { c });
                match c {
                    '(' if *depth >= crate::RULE_DEPTH_LIMIT => {
                        return Err(ReadError {
                            line: line_no,
                            message: format!(
                                "nesting deeper than {} levels",
                                crate::RULE_DEPTH_LIMIT
                            ),
                        })
                    }
                    '(' => *depth += 1,
                    ')' if *depth == 0 => {
                        return Err(ReadError {
                            line: line_no,
                            message: "unbalanced `)`".into(),
                        })
                    }
                    ')' => *depth -= 1,
                    _ => {}
                }
            }
            text.push('\n');
            if *depth == 0 {
                let doc = doc_lines
                    .iter()
                    .map(|l| l.trim())
                    .collect::<Vec<_>>()
                    .join("\n");
                out.push(Form {
                    line: *start,
                    doc,
                    text: std::mem::take(text),
                });
                doc_lines.clear();
                current = None;
            }
        }
    }
    match current {
        Some((line, _, _)) => Err(ReadError {
            line,
            message: "this form is never closed: missing `)`".into(),
        }),
        None => Ok(out),
    }
}

fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or(s)
}

/// Splits a line into code and the text of a `;` comment (outside strings).
fn split_comment(line: &str) -> (&str, Option<&str>) {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            ';' if !in_string => {
                let comment = line[i..].trim_start_matches(';');
                return (&line[..i], Some(comment));
            }
            _ => {}
        }
    }
    (line, None)
}

/// Reads one form with `symbolic_expressions`.
pub(crate) fn read(form: &Form) -> Result<Sexp, ReadError> {
    symbolic_expressions::parser::parse_str(form.text.trim()).map_err(|e| ReadError {
        line: form.line,
        message: e.to_string(),
    })
}

/// 1-based line, within the file, of the first occurrence of `needle` in `form` (the form's
/// own line when it does not occur), for errors about one atom of a long rule.
pub(crate) fn line_of(form: &Form, needle: &str) -> usize {
    match form.text.find(needle) {
        Some(pos) => form.line + form.text[..pos].matches('\n').count(),
        None => form.line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_forms_with_lines_and_docs() {
        let src = "; header\n\n; x * 1 is x\n; exactly\n(rule a\n  (mul ?x (splat 1)) ; inline\n  => ?x)\n(rule b x)\n";
        let fs = forms(src).ok().unwrap();
        assert_eq!(fs.len(), 2);
        assert_eq!((fs[0].line, fs[0].doc.as_str()), (5, "x * 1 is x\nexactly"));
        assert_eq!((fs[1].line, fs[1].doc.as_str()), (8, ""));
        assert!(!fs[0].text.contains("inline"));
        assert_eq!(line_of(&fs[0], "=>"), 7);
    }

    #[test]
    fn deep_nesting_is_an_error_before_reading() {
        let deep = format!(
            "\n(rule r {}?x{} => ?x)",
            "(neg ".repeat(20_000),
            ")".repeat(20_000)
        );
        let e = forms(&deep).err().unwrap();
        assert_eq!(
            (e.line, e.message.as_str()),
            (2, "nesting deeper than 200 levels")
        );
    }

    #[test]
    fn unbalanced_forms_are_located() {
        assert_eq!(forms("(rule a\n (x)").err().map(|e| e.line), Some(1));
        assert_eq!(forms("\n)").err().map(|e| e.line), Some(2));
    }
}
