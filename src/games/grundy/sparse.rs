//! Grundy's game by the sparse-space method (Winning Ways ch. 4; Flammenkamp).
//!
//! Split values by the parity of their bits above the lowest one: "rare"
//! values have even parity, "common" ones odd. Parity is linear under XOR, so
//! a common value can only be reached as rare ⊕ common, i.e. from a split
//! with one part among the few heaps whose value is rare. For heap n:
//!   1. mark G(r) ⊕ G(n−r) for every rare heap r: this finds *every* common
//!      option, so c = the smallest unmarked common value is exact;
//!   2. G(n) = c unless some rare value below c is not an option. Rare
//!      options come from common ⊕ common splits and are abundant, so try
//!      splits until every rare value below c has been seen: parts in an
//!      order of diverse values, or (in block mode, see `block`) the parts
//!      most likely to reach each missing value (`targets`). When they run
//!      out, every split is scanned, which gives the exact mex.
//!
//! Nothing is assumed: every value is the exact mex. This file also holds
//! the per-heap method itself, used below heap 4,096 and as the reference.

use super::rare::is_rare_value;
use super::stats::{FirstHeap, GrundyStats, Occurred};
use super::targets::Targets;
use crate::pipeline::checkpoint::{StateReader, StateWriter};
use anyhow::{bail, ensure, Result};
use std::sync::Arc;

/// A rare heap and its value.
#[derive(Clone, Copy)]
pub struct RarePart {
    /// The heap.
    pub heap: u64,
    /// Its value.
    pub value: u16,
}

/// Reusable per-heap state: the option bitset and the rare-heap list.
pub struct SparseState {
    pub(super) seen: Vec<u64>,
    /// The heaps with a rare value, in order. Shared with the block
    /// marking (copied on write, which happens only when one is found).
    pub(super) rare: Arc<Vec<RarePart>>,
    pub(super) value_bits: u32,
    /// Split parts to try first, ordered so that consecutive ones have
    /// different values (round robin over values): sequential small parts
    /// repeat the same option values, diverse ones cover the targets in far
    /// fewer steps. Holds parts below `order_limit`.
    pub(super) scan_order: Vec<u32>,
    order_limit: u64,
    /// The parts of the scan order grouped by value.
    pub(super) by_value: Vec<Vec<u32>>,
    pub(super) targets: Targets,
    lanes: Vec<u64>,
    need: Vec<u64>,
    /// Candidate parts near remembered witnesses (scratch).
    near: Vec<u32>,
    /// Step-2 parts of the next block plan (scratch).
    pub(super) step2_scratch: Vec<u32>,
    /// What the solve records.
    pub stats: GrundyStats,
    /// The values in `stats.first_heaps`.
    occurred: Occurred,
}

impl Default for SparseState {
    fn default() -> Self {
        Self::new()
    }
}

impl SparseState {
    /// A fresh state (heap 0).
    pub fn new() -> Self {
        SparseState {
            seen: vec![0; 1],
            rare: Arc::default(),
            value_bits: 6,
            scan_order: Vec::new(),
            order_limit: 0,
            by_value: Vec::new(),
            targets: Targets::default(),
            lanes: Vec::new(),
            need: Vec::new(),
            near: Vec::new(),
            step2_scratch: Vec::new(),
            stats: GrundyStats::default(),
            occurred: Occurred::of(&[]),
        }
    }

    /// The number of rare heaps (of n ≥ 1) below n.
    pub(super) fn rare_below(&self, n: u64) -> usize {
        self.rare.partition_point(|r| r.heap < n)
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

    pub(super) fn record(&mut self, n: u64, value: u16) -> Result<()> {
        self.targets.count(value);
        let s = &mut self.stats;
        s.bound = n;
        self.occurred.record(value, n, &mut s.first_heaps);
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
                Arc::make_mut(&mut self.rare).push(RarePart { heap: n, value });
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
        self.refresh_order(n, scan_limit, g);
        self.seen.fill(0);
        self.clear_lanes();
        // Step 1: every split with a rare-valued part.
        self.mark_rare_splits(n, 0..self.rare_below(n), g);
        self.conclude(n, g, scan_limit, 0, false)
    }

    /// Extends the diverse scan order when heap `n` allows parts twice as
    /// large as those it holds.
    pub(super) fn refresh_order(&mut self, n: u64, scan_limit: u64, g: &impl Fn(u64) -> u16) {
        let want = ((n - 1) / 2)
            .min(MAX_ORDERED_PART)
            .min(scan_limit.saturating_sub(1));
        if want >= 2 * self.order_limit.max(32) {
            self.rebuild_order(want, g);
        }
    }

    pub(super) fn clear_lanes(&mut self) {
        self.lanes.resize(LANES * self.seen.len(), 0);
        self.lanes.fill(0);
    }

    /// Marks G(r) ⊕ G(n − r) for the rare heaps r with index in `range`
    /// (all below n), skipping the equal split.
    pub(super) fn mark_rare_splits(
        &mut self,
        n: u64,
        range: std::ops::Range<usize>,
        g: &impl Fn(u64) -> u16,
    ) {
        let words = self.seen.len();
        // Marks go to LANES interleaved bitsets and are OR-ed afterwards, so
        // consecutive marks do not wait on each other's read-modify-write.
        let lanes = &mut self.lanes;
        for j in range {
            let RarePart { heap: r, value: gr } = self.rare[j];
            if 2 * r != n {
                mark(lanes, words, j, gr ^ g(n - r));
            }
        }
        fold_lanes(lanes, &mut self.seen);
    }

    /// Given every split with a rare part marked in `seen` (plus any other
    /// true options), finds the exact mex: the smallest unmarked common value
    /// c, once every rare value below c is seen as an option. With
    /// `targeted`, first searches each missing rare value on its own (near
    /// remembered witnesses, along its list, then the diverse order from
    /// `order_from`); then scans the diverse order from `order_from`, then
    /// every split.
    pub(super) fn conclude(
        &mut self,
        n: u64,
        g: &impl Fn(u64) -> u16,
        scan_limit: u64,
        order_from: usize,
        targeted: bool,
    ) -> Result<u16> {
        let words = self.seen.len();
        let seen = &mut self.seen;
        let lanes = &mut self.lanes;
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
        // Step 2, targeted: for each rare value still missing, the parts
        // most likely to reach it (see `targets`).
        if targeted {
            let half = ((n - 1) / 2).min(scan_limit.saturating_sub(1)) as u32;
            let rest = self.scan_order.get(order_from..).unwrap_or(&[]);
            for w in 0..words {
                let mut missing = need[w] & !seen[w];
                while missing != 0 {
                    let v = w as u32 * 64 + missing.trailing_zeros();
                    missing &= missing - 1;
                    if is_set(seen, v) {
                        continue;
                    }
                    let near = &mut self.near;
                    near.clear();
                    for a in self.targets.remembered(v) {
                        if a != 0 {
                            near.extend(a.saturating_sub(NEAR).max(1)..=(a + NEAR).min(half));
                        }
                    }
                    let list = self.targets.list(v);
                    let mut steps = 0;
                    let mut found = None;
                    for parts in [&near[..], list, rest] {
                        let (k, hit) = seek(seen, parts, n, v, g);
                        steps += k;
                        if let Some(a) = hit {
                            found = Some(a);
                            break;
                        }
                    }
                    if let Some(a) = found {
                        self.targets.remember(v, a);
                    }
                    self.stats.scan_steps += steps;
                }
            }
            if covered(seen) {
                return Ok(common as u16);
            }
        }
        // Step 2a: parts in diverse-value order (all are ≤ (n-1)/2 and
        // inside the streaming window, see `rebuild_order`).
        let order = self.scan_order.get(order_from..).unwrap_or(&[]);
        for block in order.chunks(SCAN_BLOCK) {
            for (j, &a) in block.iter().enumerate() {
                mark(lanes, words, j, g(a as u64) ^ g(n - a as u64));
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
                mark(lanes, words, b as usize, g(b) ^ g(n - b));
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

impl SparseState {
    /// Saves what the solve has learnt so far (the scratch buffers are
    /// refilled before each use and are not saved).
    pub fn save(&self, w: &mut StateWriter) -> Result<()> {
        w.u64s(self.rare.iter().map(|r| r.heap))?;
        w.u16s(self.rare.iter().map(|r| r.value))?;
        w.u64(u64::from(self.value_bits))?;
        w.u32s(self.scan_order.iter().copied())?;
        w.u64(self.order_limit)?;
        w.u64(self.by_value.len() as u64)?;
        for heaps in &self.by_value {
            w.u32s(heaps.iter().copied())?;
        }
        self.targets.save(w)?;
        let s = &self.stats;
        w.u64s(
            [
                s.bound,
                u64::from(s.max_value),
                s.max_value_first_heap,
                s.rare_count,
                s.last_rare_heap,
                s.zero_count,
                s.last_zero_heap,
                s.scan_steps,
                s.full_scans,
            ]
            .into_iter(),
        )?;
        w.u16s(s.first_heaps.iter().map(|f| f.value))?;
        w.u64s(s.first_heaps.iter().map(|f| f.heap))
    }

    /// Reads what `save` wrote.
    pub fn restore(r: &mut StateReader) -> Result<SparseState> {
        let heaps = r.u64s()?;
        let values = r.u16s()?;
        ensure!(
            heaps.len() == values.len() && heaps.windows(2).all(|w| w[0] < w[1]),
            "{}: the rare heaps are malformed",
            r.name()
        );
        let value_bits = r.u64()?;
        ensure!(
            (6..=15).contains(&value_bits),
            "{}: {value_bits} value bits",
            r.name()
        );
        let value_bits = value_bits as u32;
        let scan_order = r.u32s()?;
        let order_limit = r.u64()?;
        let classes = r.u64()?;
        ensure!(
            classes <= 1 << value_bits,
            "{}: {classes} value classes",
            r.name()
        );
        let by_value = (0..classes).map(|_| r.u32s()).collect::<Result<Vec<_>>>()?;
        let targets = Targets::restore(r)?;
        let s = r.u64s()?;
        ensure!(s.len() == 9, "{}: {} statistics", r.name(), s.len());
        let (first_values, first_heaps) = (r.u16s()?, r.u64s()?);
        ensure!(
            first_values.len() == first_heaps.len()
                && first_heaps.windows(2).all(|w| w[0] < w[1])
                && first_heaps.first().is_none_or(|&h| h == 0)
                && first_heaps.last().is_none_or(|&h| h <= s[0]),
            "{}: the first heaps of the values are malformed",
            r.name()
        );
        let first_heaps: Vec<FirstHeap> = first_values
            .into_iter()
            .zip(first_heaps)
            .map(|(value, heap)| FirstHeap { value, heap })
            .collect();
        let occurred = Occurred::of(&first_heaps);
        ensure!(
            (0..=u16::MAX).filter(|&v| occurred.has(v)).count() == first_heaps.len(),
            "{}: a value is listed twice among the first heaps",
            r.name()
        );
        let stats = GrundyStats {
            bound: s[0],
            max_value: u16::try_from(s[1])?,
            max_value_first_heap: s[2],
            rare_count: s[3],
            last_rare_heap: s[4],
            zero_count: s[5],
            last_zero_heap: s[6],
            scan_steps: s[7],
            full_scans: s[8],
            first_heaps,
        };
        let mut st = SparseState::new();
        st.rare = Arc::new(
            heaps
                .into_iter()
                .zip(values)
                .map(|(heap, value)| RarePart { heap, value })
                .collect(),
        );
        st.value_bits = value_bits;
        st.seen = vec![0; (1usize << value_bits).div_ceil(64)];
        st.scan_order = scan_order;
        st.order_limit = order_limit;
        st.by_value = by_value;
        st.targets = targets;
        st.stats = stats;
        st.occurred = occurred;
        Ok(st)
    }
}

/// Tries `parts` in order, eight at a time, until one reaches v; marks every
/// option met. Returns the parts tried and the one that reached v.
#[inline]
fn seek(
    seen: &mut [u64],
    parts: &[u32],
    n: u64,
    v: u32,
    g: &impl Fn(u64) -> u16,
) -> (u64, Option<u32>) {
    let mut tried = 0;
    for chunk in parts.chunks(8) {
        let mut options = [0u16; 8];
        for (o, &a) in options.iter_mut().zip(chunk) {
            *o = g(u64::from(a)) ^ g(n - u64::from(a));
        }
        let options = &options[..chunk.len()];
        for &o in options {
            seen[usize::from(o >> 6)] |= 1u64 << (o & 63);
        }
        if let Some(i) = options.iter().position(|&o| u32::from(o) == v) {
            return (tried + i as u64 + 1, Some(chunk[i]));
        }
        tried += chunk.len() as u64;
    }
    (tried, None)
}

#[inline]
fn mark(lanes: &mut [u64], words: usize, j: usize, v: u16) {
    lanes[(j % LANES) * words + (v >> 6) as usize] |= 1u64 << (v & 63)
}

const LANES: usize = 4;
/// Witness neighbourhood: parts within this distance of a remembered
/// witness are tried first (witnesses of a hard value come in clusters).
const NEAR: u32 = 16;
/// Bit b set when value b is rare. For v = 64w + b, the bits of v above the
/// lowest are those of b above the lowest plus those of w, so the rare values
/// of word w are RARE_MASK when w has even parity and its complement when odd.
const RARE_MASK: u64 = {
    let mut m = 0u64;
    let mut b = 0;
    while b < 64 {
        if ((b >> 1) as u32).count_ones().is_multiple_of(2) {
            m |= 1 << b;
        }
        b += 1;
    }
    m
};

fn rare_mask(word: usize) -> u64 {
    if word.count_ones().is_multiple_of(2) {
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
        let by_value = &mut self.by_value;
        by_value.clear();
        by_value.resize(1 << self.value_bits, Vec::new());
        for a in 1..=limit {
            by_value[g(a) as usize].push(a as u32);
        }
        self.scan_order.clear();
        let rounds = by_value.iter().map(Vec::len).max().unwrap_or(0);
        for r in 0..rounds {
            for heaps in by_value.iter() {
                if let Some(&a) = heaps.get(r) {
                    self.scan_order.push(a);
                }
            }
        }
        self.order_limit = limit;
    }
}
