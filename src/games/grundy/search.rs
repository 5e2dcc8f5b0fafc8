//! Grundy's game for the generic search (`crate::search`): the heaps that
//! can still be split, as a sorted list. Used for the node-count
//! experiments and checked against the Sprague-Grundy values.

use crate::search::{self, Ended, Score};

/// Largest total this adapter takes: parts of at least 3 below 32, at most
/// ten of them, so that the key packs the position exactly in 50 bits.
pub const MAX_TOTAL: u32 = 30;

/// A position: the heaps of three or more (smaller ones cannot be split
/// and never matter again), ascending.
#[derive(Clone, Debug)]
pub struct Heaps {
    heaps: Vec<u8>,
    /// Heaps removed by each move, to undo it.
    undo: Vec<(u8, u8)>,
}

/// A move: split heap `heap` into `part` and `heap - part`, part < heap/2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// The heap's size.
    pub heap: u8,
    /// The smaller part.
    pub part: u8,
}

impl Heaps {
    /// The position of these heaps (sizes below 3 dropped), or an error beyond `MAX_TOTAL`.
    pub fn new(heaps: &[u32]) -> anyhow::Result<Heaps> {
        let total: u32 = heaps.iter().sum();
        anyhow::ensure!(
            total <= MAX_TOTAL,
            "heaps totalling {total} are beyond the search adapter's {MAX_TOTAL}"
        );
        let mut h: Vec<u8> = heaps
            .iter()
            .filter(|&&x| x >= 3)
            .map(|&x| x as u8)
            .collect();
        h.sort_unstable();
        Ok(Heaps {
            heaps: h,
            undo: Vec::new(),
        })
    }

    fn insert(&mut self, x: u8) {
        if x >= 3 {
            let at = self.heaps.partition_point(|&h| h < x);
            self.heaps.insert(at, x);
        }
    }

    fn remove(&mut self, x: u8) {
        if x >= 3 {
            let at = self.heaps.partition_point(|&h| h < x);
            self.heaps.remove(at);
        }
    }
}

impl search::Position for Heaps {
    type Move = Split;

    fn moves(&self, out: &mut Vec<Split>) {
        let mut last = 0;
        for &h in &self.heaps {
            if h == last {
                continue; // equal heaps give the same moves
            }
            last = h;
            for part in 1..h.div_ceil(2) {
                out.push(Split { heap: h, part });
            }
        }
    }
    fn make(&mut self, m: Split) {
        self.remove(m.heap);
        self.insert(m.part);
        self.insert(m.heap - m.part);
        self.undo.push((m.part, m.heap - m.part));
    }
    fn unmake(&mut self, m: Split) {
        let (a, b) = self.undo.pop().expect("a move to undo");
        self.remove(a);
        self.remove(b);
        self.insert(m.heap);
    }
    fn key(&self) -> u64 {
        // Exact: up to ten parts of five bits, ascending.
        self.heaps.iter().fold(0u64, |k, &h| k << 5 | u64::from(h))
            | (self.heaps.len() as u64) << 56
    }
    fn ended(&self) -> Option<Ended> {
        self.heaps.is_empty().then_some(Ended::Lost)
    }
    fn evaluate(&self) -> Score {
        0
    }
    fn move_slot(&self, m: Split) -> usize {
        m.heap as usize * 16 + m.part as usize
    }
    fn move_slots(&self) -> usize {
        (MAX_TOTAL as usize + 1) * 16
    }
}
