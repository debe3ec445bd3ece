//! The one error type of rule loading: located at a file and line, naming the rule.

use std::fmt;

/// A problem in a rule file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RuleError {
    /// The file, as given to the loader.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// The rule it is in, when it is in one.
    pub rule: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl RuleError {
    pub(crate) fn new(
        file: &str,
        line: usize,
        rule: Option<String>,
        message: impl Into<String>,
    ) -> Self {
        RuleError {
            file: file.to_string(),
            line,
            rule,
            message: message.into(),
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        if let Some(r) = &self.rule {
            write!(f, "in rule `{r}`: ")?;
        }
        f.write_str(&self.message)
    }
}
