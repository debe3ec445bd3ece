//! Why a rewrite run stopped: one vocabulary for both engines.
//!
//! The greedy driver and equality saturation both run rules in iterations until a fixpoint or
//! a limit. A fixpoint is a claim about the rules ([`StopReason::Converged`] for the greedy
//! driver: an iteration changed nothing; [`StopReason::Saturated`] for the e-graph: an
//! iteration found no new match for any rule, with every rule searched). Every other reason is
//! a limit, and says which one and its value, or (saturation) names the rule family stopped
//! for growing too fast; the run's own report holds the counts reached
//! (iterations, rewrites, e-graph size). Reaching a limit is not an error: the output computes
//! the same results, it is only less optimized than it could be.
//!
//! A [`Deadline`] is the time limit of a whole run: made once, shared by every function, and
//! checked by both engines inside their iterations. [`RunSummary`] is what a report says about
//! one function's run.
//!
//! ```
//! use ptir_pass::{RunSummary, StopReason};
//! use std::time::Duration;
//! assert!(StopReason::Converged.is_fixpoint());
//! let stop = StopReason::TimeLimit { limit: Duration::from_millis(500) };
//! assert!(!stop.is_fixpoint());
//! assert_eq!(stop.to_string(), "time limit (500.0ms)");
//! let run = RunSummary { stop, iterations: 3, rewrites: 1200, egraph: None };
//! assert_eq!(run.to_string(), "did not converge: time limit (500.0ms), after 3 iterations, 1200 rewrites");
//! ```

use std::fmt;
use std::time::{Duration, Instant};

/// Why a rewrite run (greedy or saturation) stopped. As JSON, the reason in kebab case with
/// its counts beside it (`{"reason": "node-limit", "limit": 50000, "nodes": 50213}`; times in
/// seconds).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum StopReason {
    /// Greedy driver: an iteration changed nothing.
    Converged,
    /// Equality saturation: an iteration found no new match for any rule, no rule was banned
    /// or its family held back, and the e-graph did not grow.
    Saturated,
    /// The iteration limit was reached.
    IterationLimit {
        /// The limit.
        limit: usize,
    },
    /// The rewrite limit (successful rule applications over the whole run) was reached.
    RewriteLimit {
        /// The limit.
        limit: usize,
    },
    /// The e-graph grew past the e-node limit.
    NodeLimit {
        /// The limit.
        limit: usize,
        /// E-nodes when the run stopped.
        nodes: usize,
    },
    /// The time limit (for the whole run, shared by every function) was reached.
    TimeLimit {
        /// The limit.
        #[serde(serialize_with = "seconds")]
        limit: Duration,
    },
    /// Equality saturation: a rule family (the rules that share their first label) was
    /// growing so fast that its next iteration would have passed the node limit, and was
    /// stopped; the other families ran on to their fixpoint.
    RunawayFamily {
        /// The family: the first label of its rules (a rule without labels is a family of
        /// its own, named by the rule).
        family: String,
        /// E-nodes its applications had added.
        nodes: usize,
        /// E-nodes it would have added in its next iteration at its rate.
        next: usize,
        /// E-nodes left under the node limit then.
        room: usize,
    },
}

impl StopReason {
    /// Did the run reach a fixpoint of its rules (rather than a limit)?
    pub fn is_fixpoint(&self) -> bool {
        matches!(self, StopReason::Converged | StopReason::Saturated)
    }

    /// The reason's kind, as in its JSON (`"saturated"`, `"node-limit"`, ...), for tallies.
    ///
    /// ```
    /// use ptir_pass::StopReason;
    /// assert_eq!(StopReason::IterationLimit { limit: 3 }.kind(), "iteration-limit");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            StopReason::Converged => "converged",
            StopReason::Saturated => "saturated",
            StopReason::IterationLimit { .. } => "iteration-limit",
            StopReason::RewriteLimit { .. } => "rewrite-limit",
            StopReason::NodeLimit { .. } => "node-limit",
            StopReason::TimeLimit { .. } => "time-limit",
            StopReason::RunawayFamily { .. } => "runaway-family",
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Converged => f.write_str("converged"),
            StopReason::Saturated => f.write_str("saturated"),
            StopReason::IterationLimit { limit } => write!(f, "iteration limit ({limit})"),
            StopReason::RewriteLimit { limit } => write!(f, "rewrite limit ({limit})"),
            StopReason::NodeLimit { limit, nodes } => {
                write!(f, "node limit ({limit}; {nodes} e-nodes)")
            }
            StopReason::TimeLimit { limit } => write!(f, "time limit ({limit:.1?})"),
            StopReason::RunawayFamily {
                family,
                nodes,
                next,
                room,
            } => write!(
                f,
                "runaway rule family `{family}` ({nodes} e-nodes added, {next} more in its \
                 next iteration at its rate, {room} left under the node limit)"
            ),
        }
    }
}

/// The time limit of a run, as an instant: made once and shared by every function of a
/// program, so that the limit bounds the whole run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// When it passes (`None`: the limit is too far in the future to represent).
    at: Option<Instant>,
    limit: Duration,
}

impl Deadline {
    /// The deadline `limit` from now.
    pub fn after(limit: Duration) -> Self {
        Deadline {
            at: Instant::now().checked_add(limit),
            limit,
        }
    }

    /// A deadline for one of `parts` pieces of work still to do: an equal share of the time
    /// left (so that work finishing early leaves its time to the rest), never later than
    /// `self`. Its [`limit`](Self::limit) stays the whole run's.
    pub fn share(&self, parts: usize) -> Deadline {
        let Some(at) = self.at else {
            return *self;
        };
        let now = Instant::now();
        let left = at.saturating_duration_since(now);
        let parts = u32::try_from(parts.max(1)).unwrap_or(u32::MAX);
        Deadline {
            at: Some(now + left / parts),
            limit: self.limit,
        }
    }

    /// The time left until it passes (`None`: too far in the future to represent).
    ///
    /// ```
    /// use ptir_pass::Deadline;
    /// use std::time::Duration;
    /// assert_eq!(Deadline::after(Duration::ZERO).left(), Some(Duration::ZERO));
    /// assert_eq!(Deadline::after(Duration::MAX).left(), None);
    /// ```
    pub fn left(&self) -> Option<Duration> {
        self.at
            .map(|at| at.saturating_duration_since(Instant::now()))
    }

    /// Has it passed?
    pub fn passed(&self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
    }

    /// The time limit it was made from.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// [`StopReason::TimeLimit`] with this deadline's limit.
    pub fn stop_reason(&self) -> StopReason {
        StopReason::TimeLimit { limit: self.limit }
    }
}

/// How one function's rewrite run ended: why, and the counts reached. As JSON, the stop
/// reason's fields inline, then the counts (the e-graph as `{"nodes": N, "classes": C}`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RunSummary {
    /// Why it stopped.
    #[serde(flatten)]
    pub stop: StopReason,
    /// Iterations run.
    pub iterations: usize,
    /// Successful rewrites (greedy: pattern applications; saturation: applications that
    /// changed the e-graph).
    pub rewrites: usize,
    /// E-nodes and e-classes at the end (saturation only).
    #[serde(serialize_with = "egraph_size")]
    pub egraph: Option<(usize, usize)>,
}

/// A duration as seconds, for JSON.
fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// E-nodes and e-classes as named fields, for JSON.
fn egraph_size<S: serde::Serializer>(
    size: &Option<(usize, usize)>,
    s: S,
) -> Result<S::Ok, S::Error> {
    #[derive(serde::Serialize)]
    struct Size {
        nodes: usize,
        classes: usize,
    }
    serde::Serialize::serialize(&size.map(|(nodes, classes)| Size { nodes, classes }), s)
}

impl fmt::Display for RunSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.stop.is_fixpoint() {
            write!(f, "{}", self.stop)?;
        } else if self.egraph.is_some() {
            write!(f, "did not saturate: {},", self.stop)?;
        } else {
            write!(f, "did not converge: {},", self.stop)?;
        }
        write!(
            f,
            " after {} iterations, {} rewrites",
            self.iterations, self.rewrites
        )?;
        if let Some((nodes, classes)) = self.egraph {
            write!(f, ", {nodes} e-nodes, {classes} e-classes")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_too_far_away_never_passes() {
        let d = Deadline::after(Duration::MAX);
        assert!(!d.passed());
        assert_eq!(d.limit(), Duration::MAX);
        assert!(Deadline::after(Duration::ZERO).passed());
        assert!(!d.share(8).passed());
    }

    #[test]
    fn a_share_ends_no_later_than_the_whole() {
        let d = Deadline::after(Duration::from_secs(80));
        let (Some(whole), Some(part)) = (d.at, d.share(8).at) else {
            panic!("both deadlines are representable");
        };
        assert!(part < whole);
        assert!(part <= Instant::now() + Duration::from_secs(10));
        assert!(d.share(1).at.is_some_and(|at| at <= whole));
        assert_eq!(d.share(0).limit(), Duration::from_secs(80));
    }

    #[test]
    fn every_kind_is_its_json_tag() {
        let stops = [
            StopReason::Converged,
            StopReason::Saturated,
            StopReason::IterationLimit { limit: 1 },
            StopReason::RewriteLimit { limit: 1 },
            StopReason::NodeLimit { limit: 1, nodes: 2 },
            StopReason::TimeLimit {
                limit: Duration::from_secs(1),
            },
            StopReason::RunawayFamily {
                family: "f".into(),
                nodes: 1,
                next: 2,
                room: 1,
            },
        ];
        for stop in stops {
            let json = serde_json::to_value(&stop).unwrap();
            assert_eq!(json["reason"], stop.kind(), "{stop}");
        }
    }

    #[test]
    fn a_runaway_family_is_named_with_its_growth_and_kind() {
        let stop = StopReason::RunawayFamily {
            family: "algebra".into(),
            nodes: 9_000,
            next: 72_000,
            room: 40_000,
        };
        assert_eq!(
            stop.to_string(),
            "runaway rule family `algebra` (9000 e-nodes added, 72000 more in its next \
             iteration at its rate, 40000 left under the node limit)"
        );
        let json = serde_json::to_value(&stop).unwrap();
        assert_eq!(json["reason"], stop.kind());
        assert_eq!(json["family"], "algebra");
        assert_eq!(json["next"], 72_000);
        assert!(!stop.is_fixpoint());
    }

    #[test]
    fn summaries_say_fixpoint_or_limit_with_the_counts() {
        let s = RunSummary {
            stop: StopReason::Saturated,
            iterations: 5,
            rewrites: 304,
            egraph: Some((462, 146)),
        };
        assert_eq!(
            s.to_string(),
            "saturated after 5 iterations, 304 rewrites, 462 e-nodes, 146 e-classes"
        );
        let s = RunSummary {
            stop: StopReason::NodeLimit {
                limit: 100,
                nodes: 120,
            },
            ..s
        };
        assert_eq!(
            s.to_string(),
            "did not saturate: node limit (100; 120 e-nodes), after 5 iterations, 304 rewrites, 462 e-nodes, 146 e-classes"
        );
    }
}
