//! What a pattern read: the key of the driver's failure cache.
//!
//! A failed match attempt is a function of the IR it inspected. The driver turns the read set
//! into a stamp — each value read with the version of what was read (its definition or its use
//! list) — and skips the same pattern on the same root while the stamp still holds. Reads that
//! have no version (listing a block, order queries) make the attempt uncacheable.

use super::arena::Arena;
use ptir_ir::ValueId;
use smallvec::SmallVec;
use std::cell::{Cell, RefCell};

/// Tag bit of a read key: the use list was read (otherwise the definition).
const USES: u32 = 1;

/// The reads of the current attempt (only recorded while `on`).
#[derive(Debug, Default)]
pub(crate) struct ReadLog {
    on: Cell<bool>,
    uncacheable: Cell<bool>,
    keys: RefCell<Vec<u32>>,
}

/// The versions of everything a failed attempt read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stamp(SmallVec<[(u32, u32); 4]>);

impl ReadLog {
    fn record(&self, key: u32) {
        if self.on.get() {
            self.keys.borrow_mut().push(key);
        }
    }

    /// The definition of `v` (its op, operands, type) was read.
    pub fn def(&self, v: ValueId) {
        self.record(v.0 << 1);
    }

    /// The use list of `v` was read.
    pub fn uses(&self, v: ValueId) {
        self.record(v.0 << 1 | USES);
    }

    /// Something without a version was read.
    pub fn uncacheable(&self) {
        if self.on.get() {
            self.uncacheable.set(true);
        }
    }

    /// Starts recording an attempt.
    pub fn start(&self) {
        self.keys.borrow_mut().clear();
        self.uncacheable.set(false);
        self.on.set(true);
    }

    /// Stops recording.
    pub fn stop(&self) {
        self.on.set(false);
    }

    /// The stamp of what the last attempt read, if it can be cached.
    pub fn stamp(&self, arena: &Arena) -> Option<Stamp> {
        if self.uncacheable.get() {
            return None;
        }
        let mut keys = self.keys.borrow_mut();
        keys.sort_unstable();
        keys.dedup();
        Some(Stamp(
            keys.iter().map(|&k| (k, version(arena, k))).collect(),
        ))
    }
}

fn version(arena: &Arena, key: u32) -> u32 {
    let (def, uses) = arena.versions(ValueId(key >> 1));
    if key & USES != 0 {
        uses
    } else {
        def
    }
}

impl Stamp {
    /// Does everything the attempt read still have the same version?
    pub fn holds(&self, arena: &Arena) -> bool {
        self.0.iter().all(|&(k, v)| version(arena, k) == v)
    }
}
