//! A fixed-size transposition table: 2^bits buckets of two entries, the
//! first kept for the deeper search, the second always replaced. Allocated
//! once; a probe or store allocates nothing. Entries are trusted only on a
//! full 64-bit key match, so a collision of bucket indexes is harmless.

use super::{Score, WIN_BOUND};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// What a stored score says about the true score.
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (every move failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
/// One stored search result.
pub struct Entry<M> {
    /// The position's full key.
    pub key: u64,
    /// The score, proven scores counted from this position (`to_stored`).
    pub score: Score,
    /// The depth searched.
    pub depth: u32,
    /// What the score is.
    pub bound: Bound,
    /// The best move found, if any.
    pub best: Option<M>,
}

/// The transposition table (see the module).
pub struct Table<M> {
    buckets: Vec<[Option<Entry<M>>; 2]>,
    mask: usize,
}

/// Proven scores count plies from the root; stored, they count from the
/// entry's own position, so that they are right wherever it is reached.
pub fn to_stored(score: Score, ply: u32) -> Score {
    if score >= WIN_BOUND {
        score + ply as Score
    } else if score <= -WIN_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of `to_stored`: a stored score as seen `ply` plies from the root.
pub fn from_stored(score: Score, ply: u32) -> Score {
    if score >= WIN_BOUND {
        score - ply as Score
    } else if score <= -WIN_BOUND {
        score + ply as Score
    } else {
        score
    }
}

impl<M: Copy> Table<M> {
    /// A table of 2^`bits` buckets.
    pub fn new(bits: u32) -> Table<M> {
        let n = 1usize << bits;
        Table {
            buckets: vec![[None, None]; n],
            mask: n - 1,
        }
    }

    fn index(&self, key: u64) -> usize {
        // Fibonacci hashing spreads keys that differ only in high bits.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask
    }

    /// The entry of `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.buckets[self.index(key)]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// Stores an entry (see the module for replacement).
    pub fn store(&mut self, e: Entry<M>) {
        let i = self.index(e.key);
        let b = &mut self.buckets[i];
        match b[0] {
            Some(old) if old.key != e.key && old.depth > e.depth => b[1] = Some(e),
            _ => b[0] = Some(e),
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [None, None]);
    }

    #[cfg(any(test, feature = "internals"))]
    /// Entries in use (for reports).
    pub fn used(&self) -> usize {
        self.buckets.iter().flatten().flatten().count()
    }
}
