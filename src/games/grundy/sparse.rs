//! Grundy's game by the sparse-space method (Winning Ways ch. 4; Flammenkamp).
//!
//! Split values by the parity of their bits above the lowest one: "rare"
//! values have even parity, "common" ones odd. Parity is linear under XOR, so
//! a common value can only be reached as rare ⊕ common, i.e. from a split
//! with one part among the few heaps whose value is rare. For heap n:
//!   1. mark G(r) ⊕ G(n−r) for every rare heap r: this finds *every* common
//!      option, so c = the smallest unmarked common value is exact;
//!   2. G(n) = c unless some rare value below c is not an option. Rare
//!      options come from common ⊕ common splits and are abundant, so scan
//!      splits a = 1, 2, … until every rare value below c has been seen; in
//!      the rare case the scan runs out, the full scan gives the exact mex.
//!
//! Nothing is assumed: every value is the exact mex.

use anyhow::{bail, Result};

pub fn is_rare_value(v: u16) -> bool {
    (v >> 1).count_ones() % 2 == 0
}

/// Statistics recorded in the table metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GrundyStats {
    pub bound: u64,
    pub max_value: u16,
    pub max_value_first_heap: u64,
    /// Heaps n ≥ 0 (heap 0 included, as in Flammenkamp's list) with a rare value.
    pub rare_count: u64,
    pub last_rare_heap: u64,
    pub zero_count: u64,
    pub last_zero_heap: u64,
    /// Splits examined by the witness scans, summed (cost indicator).
    pub scan_steps: u64,
    /// Heaps where the scan had to run to the end (exact fallback).
    pub full_scans: u64,
}

/// Reusable per-heap state: the option bitset and the rare-heap list.
pub struct SparseState {
    seen: Vec<u64>,
    rare_heaps: Vec<u64>,
    rare_values: Vec<u16>,
    value_bits: u32,
    /// Split parts to try first, ordered so that consecutive ones have
    /// different values (round robin over values): sequential small parts
    /// repeat the same option values, diverse ones cover the targets in far
    /// fewer steps. Holds parts below `order_limit`.
    scan_order: Vec<u32>,
    order_limit: u64,
    lanes: Vec<u64>,
    need: Vec<u64>,
    pub stats: GrundyStats,
}

impl Default for SparseState {
    fn default() -> Self {
        Self::new()
    }
}

impl SparseState {
    pub fn new() -> Self {
        SparseState {
            seen: vec![0; 1],
            rare_heaps: Vec::new(),
            rare_values: Vec::new(),
            value_bits: 6,
            scan_order: Vec::new(),
            order_limit: 0,
            lanes: Vec::new(),
            need: Vec::new(),
            stats: GrundyStats::default(),
        }
    }

    pub fn rare_heaps(&self) -> &[u64] {
        &self.rare_heaps
    }

    /// Computes G(n) given `g(m)` for every m < n that it asks for, and
    /// records it. `scan_limit` bounds the split scan (streaming mode); a
    /// scan that would pass it is an error, never a guess.
    #[inline]
    pub fn next(&mut self, n: u64, g: impl Fn(u64) -> u16, scan_limit: u64) -> Result<u16> {
        let value = if n < 3 {
            0
        } else {
            self.mex(n, &g, scan_limit)?
        };
        self.record(n, value)?;
        Ok(value)
    }

    fn record(&mut self, n: u64, value: u16) -> Result<()> {
        let s = &mut self.stats;
        s.bound = n;
        if value > s.max_value || n == 0 {
            s.max_value = value;
            s.max_value_first_heap = n;
        }
        if value == 0 {
            s.zero_count += 1;
            s.last_zero_heap = n;
        }
        if is_rare_value(value) {
            s.rare_count += 1;
            s.last_rare_heap = n;
            if n > 0 {
                self.rare_heaps.push(n);
                self.rare_values.push(value);
            }
        }
        while (value as u64) >> self.value_bits != 0 {
            self.value_bits += 1;
            if self.value_bits > 15 {
                bail!("Grundy value {value} at heap {n} exceeds the 15-bit range of this table");
            }
        }
        let words = (1usize << self.value_bits).div_ceil(64);
        if self.seen.len() < words {
            self.seen.resize(words, 0);
        }

        Ok(())
    }

    #[inline]
    fn mex(&mut self, n: u64, g: &impl Fn(u64) -> u16, scan_limit: u64) -> Result<u16> {
        let want = ((n - 1) / 2)
            .min(MAX_ORDERED_PART)
            .min(scan_limit.saturating_sub(1));
        if want >= 2 * self.order_limit.max(32) {
            self.rebuild_order(want, g);
        }
        self.seen.fill(0);
        let words = self.seen.len();
        let lanes = &mut self.lanes;
        lanes.resize(LANES * words, 0);
        lanes.fill(0);
        // Marks go to LANES interleaved bitsets and are OR-ed afterwards, so
        // consecutive marks do not wait on each other's read-modify-write.
        let mark = |lanes: &mut [u64], j: usize, v: u16| {
            lanes[(j % LANES) * words + (v >> 6) as usize] |= 1u64 << (v & 63)
        };
        // Step 1: every split with a rare-valued part.
        for (j, (&r, &gr)) in self.rare_heaps.iter().zip(&self.rare_values).enumerate() {
            if r >= n {
                break;
            }
            if 2 * r != n {
                mark(lanes, j, gr ^ g(n - r));
            }
        }
        let seen = &mut self.seen;
        fold_lanes(lanes, seen);
        let limit = 1u32 << self.value_bits;
        let is_set = |seen: &[u64], v: u32| seen[(v >> 6) as usize] >> (v & 63) & 1 != 0;
        let common = (0..words)
            .find_map(|w| {
                let free = !seen[w] & !rare_mask(w);
                (free != 0).then(|| w as u32 * 64 + free.trailing_zeros())
            })
            .unwrap_or(limit);
        // Rare values below `common` that must still be seen as options.
        let need = &mut self.need;
        need.clear();
        need.extend((0..words).map(|w| {
            let lo = w as u32 * 64;
            let below = if common >= lo + 64 {
                u64::MAX
            } else if common <= lo {
                0
            } else {
                (1u64 << (common - lo)) - 1
            };
            rare_mask(w) & below
        }));
        let covered = |seen: &[u64]| need.iter().zip(seen).all(|(r, s)| r & !s == 0);
        if covered(seen) {
            return Ok(common as u16);
        }
        // Step 2a: parts in diverse-value order (all are ≤ (n-1)/2 and
        // inside the streaming window, see `rebuild_order`).
        for block in self.scan_order.chunks(SCAN_BLOCK) {
            for (j, &a) in block.iter().enumerate() {
                mark(lanes, j, g(a as u64) ^ g(n - a as u64));
            }
            fold_lanes(lanes, seen);
            self.stats.scan_steps += block.len() as u64;
            if covered(seen) {
                return Ok(common as u16);
            }
        }
        // Step 2b: every split, in order (exact fallback).
        let half = (n - 1) / 2;
        let mut a = 1;
        while a <= half {
            let end = (a + SCAN_BLOCK as u64 - 1).min(half);
            if end >= scan_limit {
                bail!(
                    "heap {n}: the split scan needs heap sizes beyond the streaming window of {scan_limit}; raise `window`"
                );
            }
            for b in a..=end {
                mark(lanes, b as usize, g(b) ^ g(n - b));
            }
            fold_lanes(lanes, seen);
            self.stats.scan_steps += end + 1 - a;
            if covered(seen) {
                return Ok(common as u16);
            }
            a = end + 1;
        }
        self.stats.full_scans += 1;
        Ok((0..limit).find(|&v| !is_set(seen, v)).unwrap_or(limit) as u16)
    }
}

const LANES: usize = 4;
/// Bit b set when value b is rare. For v = 64w + b, the bits of v above the
/// lowest are those of b above the lowest plus those of w, so the rare values
/// of word w are RARE_MASK when w has even parity and its complement when odd.
const RARE_MASK: u64 = {
    let mut m = 0u64;
    let mut b = 0;
    while b < 64 {
        if ((b >> 1) as u32).count_ones() % 2 == 0 {
            m |= 1 << b;
        }
        b += 1;
    }
    m
};

fn rare_mask(word: usize) -> u64 {
    if word.count_ones() % 2 == 0 {
        RARE_MASK
    } else {
        !RARE_MASK
    }
}
const SCAN_BLOCK: usize = 32;

/// ORs the interleaved lanes into `seen` and clears them.
fn fold_lanes(lanes: &mut [u64], seen: &mut [u64]) {
    let words = seen.len();
    for (w, s) in seen.iter_mut().enumerate() {
        for l in 0..LANES {
            *s |= std::mem::take(&mut lanes[l * words + w]);
        }
    }
}

/// Largest split part placed in the diverse scan order.
const MAX_ORDERED_PART: u64 = 1 << 16;

impl SparseState {
    fn rebuild_order(&mut self, limit: u64, g: &impl Fn(u64) -> u16) {
        let mut by_value: Vec<Vec<u32>> = vec![Vec::new(); 1 << self.value_bits];
        for a in 1..=limit {
            by_value[g(a) as usize].push(a as u32);
        }
        self.scan_order.clear();
        let rounds = by_value.iter().map(Vec::len).max().unwrap_or(0);
        for r in 0..rounds {
            for heaps in &by_value {
                if let Some(&a) = heaps.get(r) {
                    self.scan_order.push(a);
                }
            }
        }
        self.order_limit = limit;
    }
}

/// All values G(0..=bound), 2 bytes per heap. `on_block` is called with the
/// number of heaps done after each block (progress).
pub fn values(bound: u64, mut on_block: impl FnMut(u64)) -> Result<(Vec<u16>, GrundyStats)> {
    let len = usize::try_from(bound + 1)?;
    let mut g = vec![0u16; len];
    let mut st = SparseState::new();
    const BLOCK: u64 = 1 << 16;
    for n in 0..=bound {
        let v = {
            let gs = &g[..n as usize];
            st.next(n, |m| gs[m as usize], u64::MAX)?
        };
        g[n as usize] = v;
        if n % BLOCK == BLOCK - 1 {
            on_block(BLOCK);
        }
    }
    on_block((bound + 1) % BLOCK);
    Ok((g, st.stats))
}

/// Streaming computation: working memory is two windows of `window` values
/// (the first heaps and the most recent ones), whatever the bound. Values are
/// handed to `sink` in order, in chunks. Fails with a clear error (never a
/// wrong value) if a rare heap or a split scan falls outside the windows.
pub fn stream(
    bound: u64,
    window: u64,
    mut sink: impl FnMut(&[u16]) -> Result<()>,
) -> Result<GrundyStats> {
    if window < 64 {
        bail!("window must be at least 64 heaps");
    }
    let w = window as usize;
    let mut prefix: Vec<u16> = Vec::with_capacity(w);
    // `recent` holds values [base, n); it is compacted to its last `w`
    // values whenever it reaches 2w, so it never exceeds 2w entries.
    let mut recent: Vec<u16> = Vec::with_capacity(2 * w);
    let mut base = 0u64;
    let mut st = SparseState::new();
    let mut out: Vec<u16> = Vec::with_capacity(1 << 16);
    for n in 0..=bound {
        let v = {
            let (pre, rec) = (&prefix, &recent);
            st.next(
                n,
                |m| {
                    if m >= base {
                        rec[(m - base) as usize]
                    } else {
                        // Only split parts a < window (scan_limit) or rare
                        // heaps reach here; rare heaps are checked below.
                        pre[m as usize]
                    }
                },
                window,
            )?
        };
        if is_rare_value(v) && n >= window && n > 0 {
            bail!(
                "heap {n} has a rare value beyond the streaming window of {window}; raise `window`"
            );
        }
        if prefix.len() < w {
            prefix.push(v);
        }
        recent.push(v);
        if recent.len() == 2 * w {
            recent.drain(..w);
            base += w as u64;
        }
        out.push(v);
        if out.len() == out.capacity() {
            sink(&out)?;
            out.clear();
        }
    }
    sink(&out)?;
    Ok(st.stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_matches_naive_mex() {
        let bound = 3000;
        let (fast, stats) = values(bound, |_| {}).unwrap();
        assert_eq!(fast, super::super::naive::values(bound as usize));
        assert!(stats.rare_count > 0 && stats.zero_count > 0);
    }

    #[test]
    fn stream_matches_full() {
        // Rare heaps run to 82,860, so the window must exceed that; the bound
        // is large enough for the recent-values window to be compacted.
        let bound = 300_000;
        let (full, stats) = values(bound, |_| {}).unwrap();
        let mut got = Vec::new();
        let s2 = stream(bound, 1 << 17, |c| {
            got.extend_from_slice(c);
            Ok(())
        })
        .unwrap();
        assert_eq!(got, full);
        assert_eq!(s2, stats);
    }

    #[test]
    fn stream_window_too_small_is_an_error() {
        assert!(stream(20_000, 64, |_| Ok(())).is_err());
    }
}
