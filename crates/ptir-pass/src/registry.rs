//! [`PassRegistry`]: pass names to constructors (MLIR's `PassRegistry`), and pipeline text.
//!
//! Pipeline text is `mlir-opt --pass-pipeline`'s, flat: pass names separated by commas,
//! spaces allowed around them, each optionally followed by its options in braces, written
//! `key=value` and separated by spaces (`canonicalize{test-convergence=true},cse`).

use crate::error::PipelineError;
use crate::manager::PassManager;
use crate::pass::Pass;
use indexmap::IndexMap;

/// The options of one pass in pipeline text (`name{key=value ...}`), in the order written.
///
/// ```
/// let registry = {
///     let mut r = ptir_pass::PassRegistry::new();
///     r.register("p", "a pass", |o: &ptir_pass::PassOptions| {
///         o.expect_only("p", &["level"])?;
///         assert_eq!(o.get("level"), Some("3"));
///         Err("it is only an example".to_string())
///     });
///     r
/// };
/// let err = registry.parse("p{level=3}").unwrap_err();
/// assert!(err.to_string().ends_with("pass `p` at column 1: it is only an example"), "{err}");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassOptions {
    values: IndexMap<String, String>,
}

impl PassOptions {
    /// The value of option `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// The boolean option `key` (`true` or `false`; absent is `None`).
    pub fn bool(&self, key: &str) -> Result<Option<bool>, String> {
        match self.get(key) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(v) => Err(format!("option `{key}` takes true or false, not `{v}`")),
        }
    }

    /// The count option `key` (a non-negative integer; absent is `None`).
    pub fn usize(&self, key: &str) -> Result<Option<usize>, String> {
        self.get(key)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("option `{key}` takes a count (0, 1, 2, ...), not `{v}`"))
            })
            .transpose()
    }

    /// An error naming the first option given that is not one of `known` (pass `pass`'s).
    pub fn expect_only(&self, pass: &str, known: &[&str]) -> Result<(), String> {
        match self.values.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) if known.is_empty() => Err(format!("`{pass}` takes no options (got `{k}`)")),
            Some(k) => Err(format!(
                "`{pass}` has no option `{k}` (options: {})",
                known.join(", ")
            )),
        }
    }

    /// An error if any option is given: pass `pass` takes none.
    pub fn expect_none(&self, pass: &str) -> Result<(), String> {
        self.expect_only(pass, &[])
    }

    /// Reads `key=value key=value` (the text between a pass's braces).
    fn parse(text: &str) -> Result<Self, String> {
        let mut values = IndexMap::new();
        for item in text.split_whitespace() {
            let Some((key, value)) = item.split_once('=') else {
                return Err(format!("option `{item}` is not `key=value`"));
            };
            if key.is_empty() || value.is_empty() {
                return Err(format!("option `{item}` is not `key=value`"));
            }
            if values.insert(key.to_string(), value.to_string()).is_some() {
                return Err(format!("option `{key}` given twice"));
            }
        }
        Ok(PassOptions { values })
    }
}

/// How a registered pass is made from its options; an error is a message saying what is
/// wrong with them.
pub type PassConstructor = Box<dyn Fn(&PassOptions) -> Result<Box<dyn Pass>, String>>;

/// Named pass constructors. Each engine registers its passes (the greedy engine
/// `canonicalize`, `cse`, `dce`; the e-graph engine `eqsat`), with what they need captured
/// in the constructor (rules, limits, cost model); [`parse`](Self::parse) builds a
/// [`PassManager`] from pipeline text.
///
/// ```
/// use ptir_pass::{PassOptions, PassRegistry, PipelineError};
/// # use ptir_pass::{Pass, PassError, PassReport};
/// # struct Noop;
/// # impl Pass for Noop {
/// #     fn name(&self) -> &str { "noop" }
/// #     fn run(&self, _: &mut ptir_ir::Program) -> Result<PassReport, PassError> {
/// #         Ok(PassReport::new("noop", false, 0))
/// #     }
/// # }
/// let mut registry = PassRegistry::new();
/// registry.register("noop", "does nothing", |o: &PassOptions| {
///     o.expect_none("noop")?;
///     Ok(Box::new(Noop))
/// });
/// assert_eq!(registry.parse(" noop, noop").unwrap().names(), ["noop", "noop"]);
/// let err = registry.parse("noop,licm").unwrap_err();
/// assert!(matches!(err, PipelineError::UnknownPass { col: 6, .. }), "{err}");
/// assert!(registry.parse("noop{x=1}").is_err());
/// ```
#[derive(Default)]
pub struct PassRegistry {
    passes: IndexMap<String, (String, PassConstructor)>,
}

impl std::fmt::Debug for PassRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.passes.keys()).finish()
    }
}

impl PassRegistry {
    /// A registry with no pass.
    pub fn new() -> Self {
        PassRegistry::default()
    }

    /// Registers pass `name` (described by `description`), made by `make` from its options;
    /// a pass registered again under a name replaces the earlier one.
    pub fn register(
        &mut self,
        name: &str,
        description: &str,
        make: impl Fn(&PassOptions) -> Result<Box<dyn Pass>, String> + 'static,
    ) -> &mut Self {
        self.passes
            .insert(name.to_string(), (description.to_string(), Box::new(make)));
        self
    }

    /// The registered passes' names, in the order registered.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.passes.keys().map(String::as_str)
    }

    /// The description of pass `name`.
    pub fn description(&self, name: &str) -> Option<&str> {
        self.passes.get(name).map(|(d, _)| d.as_str())
    }

    /// Is there a pass `name`?
    pub fn contains(&self, name: &str) -> bool {
        self.passes.contains_key(name)
    }

    /// Makes pass `name` with `options`.
    pub fn make(&self, name: &str, options: &PassOptions) -> Option<Result<Box<dyn Pass>, String>> {
        self.passes.get(name).map(|(_, make)| make(options))
    }

    /// The pipeline `text` (see the module docs): a [`PassManager`] with one pass per name,
    /// in order.
    pub fn parse(&self, text: &str) -> Result<PassManager, PipelineError> {
        let mut pm = PassManager::new();
        let mut col = 1;
        for piece in split_top_level(text) {
            let at = col + piece.chars().take_while(|c| c.is_whitespace()).count();
            col += piece.chars().count() + 1;
            let piece = piece.trim();
            let (name, options) = match piece.split_once('{') {
                None => (piece, ""),
                Some((name, rest)) => (name.trim_end(), rest),
            };
            let options_error = |message: String| PipelineError::Options {
                pipeline: text.to_string(),
                name: name.to_string(),
                col: at,
                message,
            };
            if name.is_empty() {
                return Err(PipelineError::EmptyPass {
                    pipeline: text.to_string(),
                    col: at,
                });
            }
            let options = if piece.contains('{') {
                let inner = options
                    .strip_suffix('}')
                    .filter(|o| !o.contains(['{', '}']))
                    .ok_or_else(|| options_error("options are `{key=value ...}`".into()))?;
                PassOptions::parse(inner).map_err(options_error)?
            } else if piece.contains('}') {
                return Err(options_error("`}` without `{`".into()));
            } else {
                PassOptions::default()
            };
            match self.make(name, &options) {
                Some(pass) => {
                    pm.push(pass.map_err(options_error)?);
                }
                None => {
                    let known: Vec<&str> = self.names().collect();
                    return Err(PipelineError::UnknownPass {
                        pipeline: text.to_string(),
                        name: name.to_string(),
                        col: at,
                        known: known.join(", "),
                    });
                }
            }
        }
        Ok(pm)
    }
}

/// `text` split at the commas outside braces.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    pieces
}
