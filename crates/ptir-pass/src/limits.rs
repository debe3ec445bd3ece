//! [`Limits`]: when a rewriting pass stops, for either engine.

use std::time::Duration;

/// The default time limit of a whole run (every function, every rewriting pass's share).
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(5);

/// The limits of a run, for either engine: the one type both read, each filling in its own
/// default where a limit is `None`. A run that reaches one stops with a correct, less
/// optimized program, and its report says which limit stopped it
/// ([`crate::StopReason`]). What only one engine reads and is not a limit (the
/// saturation scheduler, the pattern index, the extractor) is an option beside it.
///
/// ```
/// let limits = ptir_pass::Limits { iterations: Some(3), ..ptir_pass::Limits::default() };
/// assert_eq!(limits.iterations.unwrap_or(30), 3);
/// assert_eq!(limits.time, ptir_pass::DEFAULT_TIME_LIMIT);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Iterations per function; `None` takes the engine's default (saturation 30, or the
    /// depth of a deeper function; greedy 10, MLIR's).
    pub iterations: Option<usize>,
    /// Successful rewrites over a function's whole run; `None` takes the engine's default
    /// (greedy 100,000; saturation none, the node limit bounds it).
    pub rewrites: Option<usize>,
    /// E-nodes per function (saturation only); `None` takes the engine's default (50,000, or
    /// 4 times the lowered function if larger).
    pub nodes: Option<usize>,
    /// Time for the whole program, not for each function (default [`DEFAULT_TIME_LIMIT`]):
    /// each function rewrites until its equal share of the time left is used up (a function
    /// that finishes early leaves its time to the others), and the clock is read inside long
    /// searches. Extracting and lifting the last function come on top.
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            iterations: None,
            rewrites: None,
            nodes: None,
            time: DEFAULT_TIME_LIMIT,
        }
    }
}
