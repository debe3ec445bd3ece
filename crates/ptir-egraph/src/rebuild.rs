//! [`rebuild`]: egg's `EGraph::rebuild` without the clock calibration it would start.
//!
//! egg times every rebuild for a log line with `quanta::Instant`, and the first such reading in
//! a process calibrates the CPU's time-stamp counter against the OS clock: a spin of half a
//! millisecond on a quiet machine and up to quanta's bound of 200 ms on a loaded one, paid by
//! every optimizer run whatever its size. Nothing here reads egg's timings (deadlines and phase
//! times use `std::time::Instant`), so rebuilds run under quanta's mocked clock, which needs no
//! calibration. Every rebuild of the crate goes through here (clippy's `disallowed-methods`
//! says so at the call sites).

use egg::{Analysis, EGraph, Language};

thread_local! {
    /// A clock that never calibrates (and never advances: egg's rebuild log says 0 s).
    static UNCALIBRATED: quanta::Clock = quanta::Clock::mock().0;
}

/// Restores the e-graph's invariants (`EGraph::rebuild`); returns the number of unions.
pub(crate) fn rebuild<L: Language, N: Analysis<L>>(egraph: &mut EGraph<L, N>) -> usize {
    #[allow(clippy::disallowed_methods)] // The one call: see the module docs.
    UNCALIBRATED.with(|clock| quanta::with_clock(clock, || egraph.rebuild()))
}
