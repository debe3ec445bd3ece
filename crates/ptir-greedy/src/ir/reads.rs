//! What a pattern read: the key of the driver's failure cache.
//!
//! A failed match attempt is a function of the IR it inspected. The driver turns the read set
//! into a stamp — each value read with the version of what was read (its definition or its use
//! list) — and skips the same pattern on the same root while the stamp still holds. Reads that
//! have no version (listing a block, order queries) make the attempt uncacheable.

use super::arena::Arena;
use ptir_ir::ValueId;
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

/// The versions of everything a failed attempt read: (read key, version) pairs, as
/// [`ReadLog::stamp_into`] writes them.
pub(crate) type StampEntry = (u32, u32);

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

    /// Appends the stamp of what the last attempt read to `out`, if it can be cached;
    /// returns whether it could.
    pub fn stamp_into(&self, arena: &Arena, out: &mut Vec<StampEntry>) -> bool {
        if self.uncacheable.get() {
            return false;
        }
        let mut keys = self.keys.borrow_mut();
        keys.sort_unstable();
        keys.dedup();
        out.extend(keys.iter().map(|&k| (k, version(arena, k))));
        true
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

/// Does everything a stamp's attempt read still have the same version?
pub(crate) fn stamp_holds(stamp: &[StampEntry], arena: &Arena) -> bool {
    stamp.iter().all(|&(k, v)| version(arena, k) == v)
}
