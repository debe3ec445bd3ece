//! How rules name callees: the one definition of which program callee a call pattern's
//! callee matches ([`callee_matches`]), read by the rule set, the pattern index, the
//! reference externs and the cost models. A leaf: it imports nothing from the crate.

/// Does a call pattern's callee `pattern` match the program's callee `actual`: equal, or
/// `actual` is `pattern` followed by `_` and decimal digits (call-prefix matching:
/// `@foo` matches `@foo_0`, a function extracted or specialized by composition)? The one
/// definition both engines match calls by.
pub fn callee_matches(pattern: &str, actual: &str) -> bool {
    actual == pattern
        || actual
            .strip_prefix(pattern)
            .and_then(|r| r.strip_prefix('_'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}
