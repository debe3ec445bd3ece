//! The driver's loops: iterations, seeding, and the processing of one op.

use super::hooks::Hooks;
use super::log::Step;
use super::{
    GreedyConfig, GreedyError, GreedyReport, GreedyStats, Strictness, Traversal, Violation,
};
use crate::fold::Fold;
use crate::ir::{stamp_holds, BlockId, ReadLog, StampEntry, WalkOrder, NONE};
use crate::pattern::{ApplyOrder, Candidates, FrozenPatternSet, PatternId};
use crate::rewriter::ProgramRewriter;
use ptir_ir::analysis::speculation::SPECULATION_BYTE_LIMIT;
use ptir_ir::{InstId, Literal, Op, OpKey, Scalar, Type};
use ptir_pass::explain::{CSE_STEP, FOLD_STEP};
use ptir_pass::StopReason;
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

pub(crate) struct Driver<'p> {
    patterns: &'p FrozenPatternSet,
    config: &'p GreedyConfig,
    /// Successes per pattern id.
    rewrites: Vec<usize>,
    /// Successes over the run (what [`GreedyConfig::max_rewrites`] counts).
    total_rewrites: usize,
    stats: GreedyStats,
    failures: FailureCache,
    /// The patterns that may match the op being processed (reused).
    candidates: Candidates,
}

type Outcome<T> = Result<T, GreedyError>;

/// The failure cache's pattern id for "the pattern index found no candidate".
const INDEX_QUERY: PatternId = u32::MAX as PatternId;

/// Ops processed between two looks at the clock (each takes well under a microsecond to a
/// few microseconds, so the deadline is overshot by far less than a millisecond).
const OPS_PER_CLOCK_CHECK: usize = 32;

/// The failure cache: for each instruction, the patterns that failed on it with the stamp of
/// what they read (a list per instruction, in a dense table: no hashing on the hot path). The
/// stamps are slices of one pool, so that a record is 16 bytes and a stamp takes no more than
/// its reads (most ops end with a record: the index query's empty answer).
#[derive(Debug, Default)]
struct FailureCache {
    /// Per instruction id, the first record (`NONE`: none).
    head: Vec<u32>,
    records: Vec<FailureRecord>,
    /// The stamps of the records, one after the other (a stamp replaced by a longer one
    /// leaves its old entries unused).
    stamps: Vec<StampEntry>,
}

/// One pattern that failed on one instruction.
#[derive(Clone, Copy, Debug)]
struct FailureRecord {
    pattern: u32,
    /// The next record of the same instruction (`NONE`: none).
    next: u32,
    /// Its stamp: `stamps[start..start + len]`.
    start: u32,
    len: u32,
}

impl FailureCache {
    /// Makes room for the records of a function with ids below `ids` (about one record per
    /// op: most ops end with the index query's empty answer cached), so that the tables do not
    /// regrow (copies into fresh pages) as the run goes.
    fn reserve(&mut self, ids: usize) {
        if self.head.len() < ids {
            self.head.resize(ids, NONE);
        }
        self.records.reserve(ids.saturating_sub(self.records.len()));
    }

    fn find(&self, op: InstId, pid: PatternId) -> Option<usize> {
        let mut r = *self.head.get(op.0 as usize)?;
        while r != NONE {
            let record = &self.records[r as usize];
            if record.pattern as usize == pid {
                return Some(r as usize);
            }
            r = record.next;
        }
        None
    }

    /// Did `pid` fail on `op` before, with everything it read unchanged since?
    fn holds(&self, op: InstId, pid: PatternId, arena: &crate::ir::Arena) -> bool {
        self.find(op, pid).is_some_and(|r| {
            let FailureRecord { start, len, .. } = self.records[r];
            stamp_holds(&self.stamps[start as usize..(start + len) as usize], arena)
        })
    }

    /// Records that `pid` failed on `op`, with the stamp of what the attempt logged in
    /// `reads` read; nothing if that cannot be cached.
    fn insert(&mut self, op: InstId, pid: PatternId, reads: &ReadLog, arena: &crate::ir::Arena) {
        let start = self.stamps.len();
        if !reads.stamp_into(arena, &mut self.stamps) {
            return;
        }
        let len = (self.stamps.len() - start) as u32;
        if let Some(r) = self.find(op, pid) {
            let old = self.records[r];
            if len <= old.len {
                // Over the old stamp, which is long enough.
                let at = old.start as usize;
                self.stamps.copy_within(start.., at);
                self.stamps.truncate(start);
                self.records[r].len = len;
            } else {
                self.records[r].start = start as u32;
                self.records[r].len = len;
            }
            return;
        }
        let i = op.0 as usize;
        if self.head.len() <= i {
            self.head.resize(i + 1, NONE);
        }
        self.records.push(FailureRecord {
            pattern: pid as u32,
            next: self.head[i],
            start: start as u32,
            len,
        });
        self.head[i] = (self.records.len() - 1) as u32;
    }
}

impl<'p> Driver<'p> {
    pub fn new(patterns: &'p FrozenPatternSet, config: &'p GreedyConfig) -> Self {
        Driver {
            patterns,
            config,
            rewrites: vec![0; patterns.len()],
            total_rewrites: 0,
            stats: GreedyStats::default(),
            failures: FailureCache::default(),
            candidates: Candidates::default(),
        }
    }

    fn install(&mut self, rw: &mut ProgramRewriter<'_>, scope: BlockId) {
        if self.config.failure_cache {
            self.failures.reserve(rw.arena().id_bound());
        }
        let c = self.config;
        rw.hooks = Some(Box::new(Hooks::new(scope, c.strictness, c.log)));
    }

    /// Collects the counters and the log, and detaches the hooks.
    fn report(
        mut self,
        rw: &mut ProgramRewriter<'_>,
        stop: StopReason,
        edits: u64,
    ) -> GreedyReport {
        let converged = stop == StopReason::Converged;
        let hooks = rw.hooks.take();
        for (id, &n) in self.rewrites.iter().enumerate() {
            if n > 0 {
                *self
                    .stats
                    .rewrites
                    .entry(self.patterns.name(id).to_string())
                    .or_insert(0) += n;
            }
        }
        if let Some(h) = &hooks {
            self.stats.erased = h.erased;
            self.stats.inserted = h.inserted;
        }
        self.stats.converged = converged;
        GreedyReport {
            converged,
            stop,
            changed: rw.edit_count() != edits,
            stats: self.stats,
            log: hooks.and_then(|h| h.log),
        }
    }

    /// `applyPatternsGreedily` on the whole function.
    pub fn run_region(mut self, rw: &mut ProgramRewriter<'_>) -> Outcome<GreedyReport> {
        let edits = rw.edit_count();
        let body = rw.body();
        self.install(rw, body);
        if self.config.strictness != Strictness::AnyOp {
            let ops = rw.walk(WalkOrder::PreOrder);
            let h = hooks(rw);
            ops.into_iter().for_each(|i| h.allow(i));
        }
        let result = self.iterate(rw);
        let stop = match result {
            Ok(stop) => stop,
            Err(e) => {
                rw.hooks = None;
                return Err(e);
            }
        };
        Ok(self.report(rw, stop, edits))
    }

    /// The iterations, until one changes nothing or a limit is reached.
    fn iterate(&mut self, rw: &mut ProgramRewriter<'_>) -> Outcome<StopReason> {
        let mut iteration = 0;
        loop {
            if let Some(limit) = self.config.max_iterations.filter(|&m| iteration >= m) {
                return Ok(StopReason::IterationLimit { limit });
            }
            if let Some(stop) = self.limit_reached(true) {
                return Ok(stop);
            }
            iteration += 1;
            self.stats.iterations = iteration;
            hooks(rw).step(|| Step::Iteration(iteration));
            self.seed(rw);
            let (mut changed, cut) = self.process_worklist(rw)?;
            if self.config.region_simplification {
                changed |= crate::dead::sweep(rw) > 0;
            }
            if let Some(stop) = cut {
                return Ok(stop);
            }
            if !changed {
                return Ok(StopReason::Converged);
            }
        }
    }

    /// The rewrite limit or (if `clock`) the deadline, if reached.
    fn limit_reached(&self, clock: bool) -> Option<StopReason> {
        if let Some(limit) = self
            .config
            .max_rewrites
            .filter(|&m| self.total_rewrites >= m)
        {
            return Some(StopReason::RewriteLimit { limit });
        }
        self.config
            .deadline
            .filter(|d| clock && d.passed())
            .map(|d| d.stop_reason())
    }

    /// `applyOpPatternsGreedily`.
    pub fn run_ops(
        mut self,
        rw: &mut ProgramRewriter<'_>,
        ops: &[InstId],
    ) -> Outcome<GreedyReport> {
        let edits = rw.edit_count();
        let scope = common_block(rw, ops);
        self.install(rw, scope);
        let h = hooks(rw);
        for &op in ops {
            h.allow(op);
            h.add_single(op);
        }
        self.stats.iterations = 1;
        let stop = match self.process_worklist(rw) {
            Ok((_, Some(stop))) => stop,
            Ok((_, None)) => StopReason::Converged,
            Err(e) => {
                rw.hooks = None;
                return Err(e);
            }
        };
        Ok(self.report(rw, stop, edits))
    }

    /// Refills the worklist from a walk, deduplicating constants.
    fn seed(&mut self, rw: &mut ProgramRewriter<'_>) {
        hooks(rw).worklist.clear();
        let order = match self.config.traversal {
            Traversal::BottomUp => WalkOrder::PostOrder,
            Traversal::TopDown => WalkOrder::PreOrder,
        };
        let mut known = KnownConstants::default();
        for op in rw.walk(order) {
            if !rw.contains(op) {
                continue;
            }
            if self.config.cse_constants && !known.insert(rw, op) {
                self.stats.constants_deduplicated += 1;
                continue;
            }
            with_hooks(rw, |h, ir| h.add_to_worklist(ir, op));
        }
        if self.config.traversal == Traversal::TopDown {
            hooks(rw).worklist.reverse();
        }
    }

    /// Pops ops until the worklist is empty or a limit is reached; returns whether anything
    /// changed, and the limit that cut the worklist short, if one did.
    fn process_worklist(
        &mut self,
        rw: &mut ProgramRewriter<'_>,
    ) -> Outcome<(bool, Option<StopReason>)> {
        let mut changed = false;
        for popped in 0usize.. {
            if let Some(stop) = self.limit_reached(popped % OPS_PER_CLOCK_CHECK == 0) {
                let left = !hooks(rw).worklist.is_empty();
                return Ok((changed, left.then_some(stop)));
            }
            let Some(op) = hooks(rw).worklist.pop() else {
                break;
            };
            if !rw.contains(op) {
                continue;
            }
            self.log_processing(rw, op);
            if rw.is_trivially_dead(op) {
                rw.erase_inst(op);
                changed = true;
                self.done(rw, true, "operation is trivially dead");
                continue;
            }
            if self.config.fold && self.try_fold(rw, op)? {
                changed = true;
                self.done(rw, true, "operation was folded");
                continue;
            }
            if self.apply_patterns(rw, op)? {
                changed = true;
                self.total_rewrites += 1;
                self.done(rw, true, "pattern matched");
            } else {
                self.done(rw, false, "pattern failed to match");
            }
        }
        Ok((changed, None))
    }

    fn log_processing(&self, rw: &mut ProgramRewriter<'_>, op: InstId) {
        if hooks(rw).logging() {
            let text = rw.print_inst(op);
            let name = rw.op(op).name();
            hooks(rw).step(|| Step::Processing {
                inst: op,
                op: name,
                text,
            });
        }
    }

    fn done(&self, rw: &mut ProgramRewriter<'_>, success: bool, reason: &'static str) {
        hooks(rw).step(|| Step::Done { success, reason });
    }

    /// Folds `op` if it is not a constant; returns whether it changed.
    fn try_fold(&mut self, rw: &mut ProgramRewriter<'_>, op: InstId) -> Outcome<bool> {
        let folded = self.config.ops.fold(rw, op);
        if matches!(folded, Fold::None) {
            return Ok(false);
        }
        rw.begin_step(op, FOLD_STEP);
        match folded {
            Fold::None => {}
            Fold::Value(v) => rw.replace_op(op, v),
            Fold::Constant(lit) => {
                let ty = rw.ty(op).clone();
                let c = rw.materialize_constant(op, lit, ty);
                rw.replace_op(op, c.value());
            }
            Fold::InPlace { operands } => rw.modify_in_place(op, |e| *e.operands = operands),
        }
        rw.end_step();
        self.stats.folds += 1;
        if self.config.expensive_checks {
            self.verify(rw, || format!("folding {op}"))?;
        }
        Ok(true)
    }

    fn verify(&self, rw: &ProgramRewriter<'_>, after: impl FnOnce() -> String) -> Outcome<()> {
        rw.verify().map_err(|error| GreedyError::Verify {
            function: rw.function_name().to_string(),
            after: after(),
            error,
        })
    }

    /// Tries the patterns for `op` in order; returns whether one applied.
    fn apply_patterns(&mut self, rw: &mut ProgramRewriter<'_>, op: InstId) -> Outcome<bool> {
        let Some(key) = rw.op_key(op) else {
            return Ok(false);
        };
        let mut candidates = std::mem::take(&mut self.candidates);
        let specific = if self.config.pattern_index {
            if !self.query(rw, op, &mut candidates) {
                self.candidates = candidates;
                return Ok(false);
            }
            candidates.ids()
        } else {
            self.patterns.for_root(key)
        };
        let outcome = self.try_in_order(rw, op, specific);
        self.candidates = candidates;
        outcome
    }

    /// The pattern index's candidates for `op`, into `out`; false if nothing can match `op`,
    /// as the index answered when it last looked at the same IR (the failure cache, keyed by
    /// what the query read, with [`INDEX_QUERY`] for pattern). An op that no pattern can
    /// match (most ops of most programs) is re-queried only after its neighbourhood changes,
    /// not at every visit.
    fn query(&mut self, rw: &ProgramRewriter<'_>, op: InstId, out: &mut Candidates) -> bool {
        // Any-op patterns are tried at every op whatever the index says: with them, an empty
        // answer does not end the op's turn, and caching it would be dead weight.
        if !self.config.failure_cache || !self.patterns.any_op().is_empty() {
            self.patterns.candidates(rw, op, out);
            return true;
        }
        if self.failures.holds(op, INDEX_QUERY, rw.arena()) {
            return false;
        }
        rw.reads.start();
        rw.reads.def(op.value());
        self.patterns.candidates(rw, op, out);
        rw.reads.stop();
        if out.ids().is_empty() {
            self.failures.insert(op, INDEX_QUERY, &rw.reads, rw.arena());
        }
        true
    }

    /// Tries `specific` (patterns rooted at `op`'s kind) and the any-op patterns, by benefit.
    fn try_in_order(
        &mut self,
        rw: &mut ProgramRewriter<'_>,
        op: InstId,
        specific: &[PatternId],
    ) -> Outcome<bool> {
        let mut order = ApplyOrder::default();
        while let Some(pid) = order.next_in(self.patterns, specific) {
            if let Some(applied) = self.try_one(rw, op, pid)? {
                return Ok(applied);
            }
        }
        Ok(false)
    }

    /// Tries pattern `pid` at `op`: `Some(true)` if it applied, `Some(false)` if nothing more
    /// can be tried at `op`, `None` to go on with the next pattern.
    fn try_one(
        &mut self,
        rw: &mut ProgramRewriter<'_>,
        op: InstId,
        pid: PatternId,
    ) -> Outcome<Option<bool>> {
        if !self.can_apply(rw, op, pid) {
            return Ok(None);
        }
        if self.attempt(rw, op, pid)? {
            return Ok(Some(true));
        }
        // A pattern erased the root and returned failure (caught by the expensive checks
        // when they are on): there is nothing left to try.
        Ok((!rw.contains(op)).then_some(false))
    }

    /// The recursion guard and the failure cache.
    fn can_apply(&mut self, rw: &mut ProgramRewriter<'_>, op: InstId, pid: PatternId) -> bool {
        let skip = if !self.patterns.has_bounded_recursion(pid)
            && hooks(rw).origin.get(&op.0) == Some(&pid)
        {
            self.stats.recursion_skips += 1;
            Some("recursive application to its own result")
        } else if self.config.failure_cache && self.failures.holds(op, pid, rw.arena()) {
            self.stats.cache_hits += 1;
            Some("failed before on this IR")
        } else {
            None
        };
        if let Some(reason) = skip {
            let pattern = self.patterns.name(pid);
            hooks(rw).step(|| Step::Skipped {
                pattern: pattern.to_string(),
                reason,
            });
        }
        skip.is_none()
    }

    /// One call of `match_and_rewrite`, with the checks and the bookkeeping around it.
    fn attempt(
        &mut self,
        rw: &mut ProgramRewriter<'_>,
        op: InstId,
        pid: PatternId,
    ) -> Outcome<bool> {
        self.stats.attempts += 1;
        let (name, root) = (self.patterns.name(pid), rw.op(op).name());
        hooks(rw).step(|| Step::PatternBegin {
            pattern: name.to_string(),
            root,
        });
        let before = self
            .config
            .expensive_checks
            .then(|| (rw.fingerprint(), root_state(rw, op)));
        hooks(rw).current = Some(pid);
        if self.config.failure_cache {
            rw.reads.start();
            // The driver read the root's kind to pick the pattern.
            rw.reads.def(op.value());
        }
        rw.begin_step(op, name);
        let ok = self.patterns.pattern(pid).match_and_rewrite(op, rw);
        rw.end_step();
        hooks(rw).current = None;
        rw.reads.stop();
        if let Some(message) = rw.take_rule_error() {
            return Err(GreedyError::Rule {
                function: rw.function_name().to_string(),
                pattern: self.patterns.name(pid).to_string(),
                inst: op,
                message,
            });
        }
        if let Some(fp) = before {
            self.check_contract(rw, op, pid, ok, fp)?;
        }
        if ok {
            self.rewrites[pid] += 1;
            hooks(rw).step(|| Step::PatternEnd {
                success: true,
                reason: "pattern applied successfully",
            });
        } else {
            if self.config.failure_cache {
                self.failures.insert(op, pid, &rw.reads, rw.arena());
            }
            hooks(rw).step(|| Step::PatternEnd {
                success: false,
                reason: "pattern failed to match",
            });
        }
        Ok(ok)
    }

    fn check_contract(
        &self,
        rw: &ProgramRewriter<'_>,
        op: InstId,
        pid: PatternId,
        ok: bool,
        (before, root_before): (u64, RootState),
    ) -> Outcome<()> {
        let changed = rw.fingerprint() != before;
        let violation = match (ok, changed) {
            (true, false) => Some(Violation::SuccessWithoutChange),
            (false, true) => Some(Violation::FailureWithChange),
            (true, true) if root_state(rw, op) == root_before => Some(Violation::RootUnchanged),
            _ => None,
        };
        let pattern = self.patterns.name(pid);
        if let Some(violation) = violation {
            return Err(GreedyError::Contract {
                function: rw.function_name().to_string(),
                pattern: pattern.to_string(),
                inst: op,
                violation,
            });
        }
        if ok {
            self.verify(rw, || format!("pattern `{pattern}` on {op}"))?;
        }
        Ok(())
    }
}

/// What the rewrite contract asks a successful pattern to change at its root: the op itself
/// (printed: kind, attributes, operands, type, regions), or its uses (a replacement moves them),
/// or its existence (erased: `None`).
type RootState = Option<(String, usize)>;

fn root_state(rw: &ProgramRewriter<'_>, op: InstId) -> RootState {
    rw.contains(op)
        .then(|| (rw.print_inst(op), rw.num_uses(rw.value_of(op))))
}

fn hooks<'a>(rw: &'a mut ProgramRewriter<'_>) -> &'a mut Hooks {
    match rw.hooks.as_deref_mut() {
        Some(h) => h,
        None => unreachable!("the driver installs its hooks before running"),
    }
}

fn with_hooks(rw: &mut ProgramRewriter<'_>, f: impl FnOnce(&mut Hooks, &crate::ir::Ir<'_>)) {
    let (h, ir) = rw.hooks_and_ir();
    if let Some(h) = h {
        f(h, ir);
    }
}

/// The innermost block enclosing every op of `ops` (the function body if they share none).
fn common_block(rw: &ProgramRewriter<'_>, ops: &[InstId]) -> BlockId {
    let chain = |i: InstId| {
        let mut out = Vec::new();
        let mut b = rw.arena().block_of(i);
        while let Some(block) = b {
            out.push(block);
            b = rw.parent_op(block).and_then(|p| rw.arena().block_of(p));
        }
        out
    };
    let mut common: Option<Vec<BlockId>> = None;
    for &op in ops.iter().filter(|&&i| rw.contains(i)) {
        let c = chain(op);
        common = Some(match common {
            None => c,
            Some(prev) => prev.into_iter().filter(|b| c.contains(b)).collect(),
        });
    }
    common
        .and_then(|c| c.first().copied())
        .unwrap_or_else(|| rw.body())
}

/// The constants seen while seeding (MLIR's `OperationFolder`): the first of each value and
/// type is kept and hoisted to the front of the function body; later ones are replaced by it.
/// Constants larger than [`SPECULATION_BYTE_LIMIT`] are left where they are: hoisting one
/// out of a branch would materialize it on runs that never needed it.
#[derive(Default)]
struct KnownConstants {
    /// Hash of (value, type) → the kept constants with that hash.
    by_hash: FxHashMap<u64, SmallVec<[InstId; 1]>>,
    owned: FxHashSet<InstId>,
}

/// The splat a literal stands for, if all its elements are equal.
fn splat_of(lit: &Literal) -> Option<Scalar> {
    match lit {
        Literal::Splat(s) => Some(*s),
        Literal::Dense(_) => lit.splat_value(),
    }
}

/// Do two constants hold the same value of the same type (a dense literal of equal elements
/// equals the splat of that element)?
fn same_constant(a: (&Literal, &Type), b: (&Literal, &Type)) -> bool {
    a.1 == b.1
        && match (splat_of(a.0), splat_of(b.0)) {
            (Some(x), Some(y)) => x == y,
            (None, None) => a.0 == b.0,
            _ => false,
        }
}

fn constant_hash(lit: &Literal, ty: &Type) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    ty.hash(&mut h);
    match splat_of(lit) {
        Some(s) => s.hash(&mut h),
        None => lit.hash(&mut h),
    }
    h.finish()
}

impl KnownConstants {
    /// Returns false if `op` was a duplicate constant (now erased).
    fn insert(&mut self, rw: &mut ProgramRewriter<'_>, op: InstId) -> bool {
        if rw.op_key(op) != Some(OpKey::Constant) {
            return true;
        }
        let (hash, existing) = match rw.inst(op) {
            Some(ptir_ir::Instruction {
                op: Op::Constant(lit),
                ty,
                ..
            }) if ty.size_bytes() > SPECULATION_BYTE_LIMIT => {
                // Too large to compute where the input did not: a constant folded from a
                // huge broadcast in a branch not taken stays in that branch.
                return true;
            }
            Some(ptir_ir::Instruction {
                op: Op::Constant(lit),
                ty,
                ..
            }) => {
                let hash = constant_hash(lit, ty);
                let same = |c: &InstId| match rw.inst(*c) {
                    Some(x) => match &x.op {
                        Op::Constant(l) => same_constant((l, &x.ty), (lit, ty)),
                        _ => false,
                    },
                    None => false,
                };
                let existing = self
                    .by_hash
                    .get(&hash)
                    .and_then(|b| b.iter().copied().find(same));
                (hash, existing)
            }
            _ => return true,
        };
        if let Some(existing) = existing {
            rw.record_step(existing, CSE_STEP);
            rw.replace_op(op, existing.value());
            return false;
        }
        let body = rw.body();
        let meta = rw.arena().meta(op);
        let (block, prev) = meta.map_or((body, NONE), |m| (m.block, m.prev));
        let after_other = prev != NONE && !self.owned.contains(&InstId(prev));
        if block != body || after_other {
            rw.hoist_to_front(op, body);
        }
        self.by_hash.entry(hash).or_default().push(op);
        self.owned.insert(op);
        true
    }
}
