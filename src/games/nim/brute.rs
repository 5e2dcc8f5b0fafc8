//! The slow obvious reference for the Nim family: outcome of every position
//! of up to `piles` heaps of at most `max` tokens by plain search over the
//! game graph (no digit rule), for Nim_k in normal or misère play.
//!
//! Positions are ordered tuples, indexed in mixed radix. A position is N iff
//! some move (reduce 1..=k heaps) reaches a P-position; "some P-position
//! strictly below on a set T of heaps, equal elsewhere" is answered by a
//! prefix-OR table per T, filled in index order.

/// The outcome of every position of up to `piles` heaps of at most `radix - 1` tokens.
pub struct Outcomes {
    /// Heaps per position.
    pub piles: usize,
    /// Largest heap + 1 (the index's radix).
    pub radix: usize,
    /// `p[idx]` = true when the position is a P-position.
    pub p: Vec<bool>,
}

impl Outcomes {
    /// A position's index (heaps as digits, first heap most significant).
    pub fn index(&self, heaps: &[u64]) -> usize {
        heaps.iter().fold(0, |a, &h| a * self.radix + h as usize)
    }
    /// The position at an index.
    pub fn heaps(&self, mut idx: usize) -> Vec<u64> {
        let mut h = vec![0u64; self.piles];
        for i in (0..self.piles).rev() {
            h[i] = (idx % self.radix) as u64;
            idx /= self.radix;
        }
        h
    }
    /// Whether a position is a P-position (the player to move loses).
    pub fn is_p(&self, heaps: &[u64]) -> bool {
        self.p[self.index(heaps)]
    }
}

/// Every position's outcome by plain search (see the module).
pub fn solve(piles: usize, max: u64, k: usize, misere: bool) -> Outcomes {
    let radix = max as usize + 1;
    let total = radix.pow(piles as u32);
    let stride: Vec<usize> = (0..piles)
        .map(|i| radix.pow((piles - 1 - i) as u32))
        .collect();
    let subsets: Vec<u32> = (1u32..1 << piles)
        .filter(|t| t.count_ones() as usize <= k)
        .collect();
    // below[s][idx]: some P-position y with y ≤ x on subset s, y = x elsewhere.
    let mut below: Vec<Vec<bool>> = vec![vec![false; total]; subsets.len()];
    let mut p = vec![false; total];
    let mut digits = vec![0usize; piles];
    for idx in 0..total {
        let mut n_pos = misere && idx == 0;
        for (s, &t) in subsets.iter().enumerate() {
            if n_pos {
                break;
            }
            // A move on exactly the heaps of t reduces each by at least one.
            if (0..piles).all(|i| t >> i & 1 == 0 || digits[i] > 0) {
                let off: usize = (0..piles)
                    .filter(|&i| t >> i & 1 == 1)
                    .map(|i| stride[i])
                    .sum();
                n_pos = below[s][idx - off];
            }
        }
        p[idx] = !n_pos;
        for (s, &t) in subsets.iter().enumerate() {
            let mut v = p[idx];
            for i in 0..piles {
                if !v && t >> i & 1 == 1 && digits[i] > 0 {
                    v = below[s][idx - stride[i]];
                }
            }
            below[s][idx] = v;
        }
        for i in (0..piles).rev() {
            digits[i] += 1;
            if digits[i] < radix {
                break;
            }
            digits[i] = 0;
        }
    }
    Outcomes { piles, radix, p }
}
