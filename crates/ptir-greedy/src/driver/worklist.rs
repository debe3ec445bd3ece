//! The worklist: LIFO with set semantics, as MLIR's `Worklist`.
//!
//! Pushing an op that is already queued does nothing; removing one leaves a hole that `pop`
//! skips. Positions are kept in a dense table indexed by instruction id, so every operation
//! is O(1) without hashing.

use crate::ir::NONE;
use ptir_ir::InstId;

#[derive(Debug, Default)]
pub(crate) struct Worklist {
    /// Queued ops, `NONE` for holes; popped from the back.
    list: Vec<u32>,
    /// For each instruction id, its index in `list` (or `NONE`).
    pos: Vec<u32>,
}

impl Worklist {
    pub fn push(&mut self, id: InstId) {
        let i = id.0 as usize;
        if self.pos.len() <= i {
            self.pos.resize(i + 1, NONE);
        }
        if self.pos[i] != NONE {
            return;
        }
        self.pos[i] = self.list.len() as u32;
        self.list.push(id.0);
    }

    pub fn pop(&mut self) -> Option<InstId> {
        let id = self.list.pop()?;
        self.pos[id as usize] = NONE;
        while self.list.last() == Some(&NONE) {
            self.list.pop();
        }
        Some(InstId(id))
    }

    pub fn remove(&mut self, id: InstId) {
        let Some(&p) = self.pos.get(id.0 as usize) else {
            return;
        };
        if p != NONE {
            self.list[p as usize] = NONE;
            self.pos[id.0 as usize] = NONE;
            while self.list.last() == Some(&NONE) {
                self.list.pop();
            }
        }
    }

    pub fn reverse(&mut self) {
        self.list.reverse();
        for (k, &id) in self.list.iter().enumerate() {
            if id != NONE {
                self.pos[id as usize] = k as u32;
            }
        }
    }

    pub fn clear(&mut self) {
        for &id in &self.list {
            if id != NONE {
                self.pos[id as usize] = NONE;
            }
        }
        self.list.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    #[cfg(test)]
    pub fn contents(&self) -> Vec<InstId> {
        self.list
            .iter()
            .filter(|&&i| i != NONE)
            .map(|&i| InstId(i))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifo_with_set_semantics_and_holes() {
        let mut w = Worklist::default();
        for i in [1, 2, 3, 2] {
            w.push(InstId(i));
        }
        assert_eq!(w.contents(), [InstId(1), InstId(2), InstId(3)]);
        w.remove(InstId(2));
        assert_eq!(w.pop(), Some(InstId(3)));
        assert_eq!(w.pop(), Some(InstId(1)));
        assert_eq!(w.pop(), None);
        w.push(InstId(2));
        w.push(InstId(5));
        w.reverse();
        assert_eq!(w.pop(), Some(InstId(2)));
        w.clear();
        assert!(w.is_empty());
        w.push(InstId(5));
        assert_eq!(w.pop(), Some(InstId(5)));
    }
}
