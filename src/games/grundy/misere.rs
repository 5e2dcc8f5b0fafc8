//! Misère Grundy's game (the player who cannot move wins) by exhaustive
//! search over multisets of heaps. There is no Sprague–Grundy shortcut in
//! misère play, so positions are whole multisets; heaps of 1 and 2 admit no
//! move and are dropped, which loses nothing.

use std::collections::HashMap;

/// Largest single heap the search accepts: the number of multisets grows
/// like the partition numbers.
pub const MAX_HEAP: u64 = 100;

/// Misère outcomes of multisets of heaps, memoised.
pub struct MisereSolver {
    /// Sorted multiset of live heaps (≥ 3) → does the player to move win?
    memo: HashMap<Vec<u8>, bool>,
}

impl Default for MisereSolver {
    fn default() -> Self {
        Self::new()
    }
}

/// Heaps after splitting `pos[i]` into `a` and `pos[i] - a`, dead parts dropped.
fn split(pos: &[u8], i: usize, a: u8) -> Vec<u8> {
    let b = pos[i] - a;
    let mut next: Vec<u8> = pos
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != i)
        .map(|(_, &h)| h)
        .collect();
    next.extend([a, b].into_iter().filter(|&h| h >= 3));
    next.sort_unstable();
    next
}

impl MisereSolver {
    /// An empty memo.
    pub fn new() -> Self {
        MisereSolver {
            memo: HashMap::new(),
        }
    }

    /// Positions in the memo.
    pub fn positions_solved(&self) -> usize {
        self.memo.len()
    }

    /// True when the player to move wins `pos` (an N-position). A position
    /// without moves is won by the player to move.
    pub fn wins(&mut self, pos: &[u8]) -> bool {
        if pos.is_empty() {
            return true;
        }
        if let Some(&w) = self.memo.get(pos) {
            return w;
        }
        let mut win = false;
        'moves: for i in 0..pos.len() {
            if i > 0 && pos[i] == pos[i - 1] {
                continue;
            }
            for a in 1..pos[i].div_ceil(2) {
                if !self.wins(&split(pos, i, a)) {
                    win = true;
                    break 'moves;
                }
            }
        }
        self.memo.insert(pos.to_vec(), win);
        win
    }

    /// Outcome of a single heap n and the smallest winning split (smaller
    /// part), if the player to move wins by moving.
    pub fn single_heap(&mut self, n: u8) -> (bool, Option<u8>) {
        if n < 3 {
            return (true, None);
        }
        for a in 1..n.div_ceil(2) {
            if !self.wins(&split(&[n], 0, a)) {
                return (true, Some(a));
            }
        }
        (false, None)
    }
}

/// Table entry for a single heap: 0 = P-position; bit 31 set = the player to
/// move wins, with the smaller part of a winning split in the low bits (0 when
/// the win is by having no move at all).
pub fn encode(win: bool, split: Option<u8>) -> u32 {
    if win {
        0x8000_0000 | split.unwrap_or(0) as u32
    } else {
        0
    }
}

/// The inverse of `encode`: (the player to move wins, the smaller part of a winning split).
pub fn decode(e: u32) -> (bool, Option<u64>) {
    let win = e & 0x8000_0000 != 0;
    let a = (e & 0x7fff_ffff) as u64;
    (win, (win && a > 0).then_some(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent reference: plain game tree over unsorted heap lists,
    /// keeping dead heaps, no memo.
    fn brute_wins(heaps: &[u8]) -> bool {
        for i in 0..heaps.len() {
            for a in 1..heaps[i].div_ceil(2) {
                let mut next = heaps.to_vec();
                let b = next[i] - a;
                next[i] = a;
                next.push(b);
                if !brute_wins(&next) {
                    return true;
                }
            }
        }
        heaps.iter().all(|&h| h < 3)
    }

    #[test]
    fn memoised_search_matches_plain_tree() {
        let mut s = MisereSolver::new();
        for n in 1..=17u8 {
            assert_eq!(s.single_heap(n).0, brute_wins(&[n]), "heap {n}");
        }
        for (x, y) in [(3u8, 4u8), (5, 7), (6, 6), (4, 9)] {
            let mut pos = vec![x, y];
            pos.sort_unstable();
            assert_eq!(s.wins(&pos), brute_wins(&[x, y]), "heaps {x},{y}");
        }
    }

    #[test]
    fn winning_splits_lead_to_losing_positions() {
        let mut s = MisereSolver::new();
        for n in 3..=40u8 {
            if let (true, Some(a)) = s.single_heap(n) {
                assert!(!s.wins(&split(&[n], 0, a)));
            }
        }
    }
}
