//! Octal games by the sparse-space method (Winning Ways ch. 4, "Sparse
//! space spells speed"; Flammenkamp's octal pages), the fast path beside
//! the plain mex of `solve`.
//!
//! Pick a bit mask m and a kind e (0: the range kind, 1: the domain kind,
//! only when every split digit's removal has the same parity). A heap x is
//! *rare* when parity(G(x) & m) = e·((x − t) mod 2), t a split digit's
//! removal. For a split of n − i into parts a + b the option's parity is
//! class(a) ⊕ class(b) ⊕ e·((n − i) mod 2), where class(x) is parity(G(x) & m)
//! ⊕ e·(x mod 2). So an option of the parity P1 = 1 ⊕ e·((n − t) mod 2) comes
//! only from a split with one rare part. For heap n:
//!   1. mark every one-heap option and G(r) ⊕ G(n − i − r) for every rare
//!      heap r and split removal i: every option of parity P1 is now marked,
//!      so c = the smallest unmarked value of parity P1 is exact;
//!   2. G(n) = c unless a value of the other parity below c is not an
//!      option. Those come from splits with two parts of one class and are
//!      abundant, so splits are scanned (small parts first) until every one
//!      is seen; a scan that runs out of splits has marked every option and
//!      gives the exact mex.
//!
//! Nothing is assumed: m and e only decide how fast heaps go. They are
//! chosen at each power of two from 2^10 on, as the pair with the fewest
//! rare heaps so far; before 2^10, and while more than an eighth of the
//! heaps would be rare (dense values), every heap is a full scan. This file
//! shares no code with `solve` (the second opinion checks it).

use super::code::OctalCode;
use crate::pipeline::checkpoint::{self, Saving, Step};
use anyhow::{bail, ensure, Result};
use serde::Serialize;
use std::time::Instant;

/// The first heap at which a mask is chosen (below it, full scans).
const FIRST_CHOICE: u64 = 1 << 10;

/// Values count as dense, and every heap is a full scan, while more than
/// 1/`DENSE` of the heaps so far would be rare under the best mask.
const DENSE: u64 = 8;

/// Mask bits searched when choosing (values above them are ignored by
/// the mask, which stays exact, only slower if they matter).
const MASK_BITS_SEARCHED: u32 = 12;

/// What the sparse solve records.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct SparseStats {
    /// Heaps computed by mex (0 ..); any after them follow from a period.
    pub mex_heaps: u64,
    /// The mask in force at the end.
    pub mask: u16,
    /// Whether the sparse set is of the domain kind (heap parity counts).
    pub domain: bool,
    /// Whether the last choice found the values dense (no mask leaves
    /// fewer than an eighth of the heaps rare): every heap a full scan.
    pub dense: bool,
    /// Rare heaps (≥ 1) under the final mask.
    pub rare_heaps: u64,
    /// The largest rare heap under the final mask (0: none).
    pub last_rare_heap: u64,
    /// The largest value and the first heap that has it.
    pub max_value: u16,
    /// See `max_value`.
    pub max_value_first_heap: u64,
    /// Heaps whose value is 0 (P-positions), heap 0 included.
    pub zero_count: u64,
    /// Split pairs looked at in step 2, over all heaps.
    pub scanned_splits: u64,
    /// Heaps whose step-2 scan ran through every split.
    pub full_scans: u64,
    /// The heap with the longest step-2 scan, and its length.
    pub longest_scan_heap: u64,
    /// See `longest_scan_heap`.
    pub longest_scan: u64,
}

/// What the caller decides at a power of two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checkpoint {
    /// Go on to the bound.
    Continue,
    /// Stop here: the values so far are the table.
    Stop,
    /// A period p is proved from heap n0 on: the values to `to` follow
    /// from it (G(n) = G(n − p) for n ≥ n0 + p), and the solve ends there.
    Periodic {
        /// The period.
        period: u64,
        /// The heap it holds from.
        preperiod: u64,
        /// The last heap to fill in (at most the bound).
        to: u64,
    },
}

/// G(0..=bound), or a prefix when `at_power_of_two` (called with G(0..n)
/// and the statistics each time n, the number of values, is a power of
/// two ≥ 2^10) says stop. `on_heaps(k)` reports k more heaps done.
#[cfg(any(test, feature = "internals"))]
pub fn values(
    code: &OctalCode,
    bound: u64,
    on_heaps: impl FnMut(u64),
    at_power_of_two: impl FnMut(&[u16], &SparseStats) -> Checkpoint,
) -> (Vec<u16>, SparseStats) {
    values_resumable(code, bound, None, on_heaps, at_power_of_two, &mut |_| {})
        .expect("a solve that neither saves nor restores has no error to return")
}

/// At least this many heaps between two saves, whatever the interval.
const SAVE_SPACING: u64 = 1 << 16;
/// Saves are looked at every this many heaps.
const SAVE_CHECK: u64 = 1 << 12;
const MAGIC: &[u8; 8] = b"NMOCTSPA";
/// Bumped whenever what a saved value means changes.
const FORMAT: u64 = 1;

/// [`values`], saving its state as `saving` says and resuming from a saved
/// state when one fits (the values so far and the counters that are not a
/// function of them; the rest is rebuilt from the values). The values and
/// statistics are those of a solve never stopped.
pub fn values_resumable(
    code: &OctalCode,
    bound: u64,
    saving: Option<&Saving>,
    mut on_heaps: impl FnMut(u64),
    mut at_power_of_two: impl FnMut(&[u16], &SparseStats) -> Checkpoint,
    on_step: &mut dyn FnMut(Step),
) -> Result<(Vec<u16>, SparseStats)> {
    let mut s = Solver::new(Moves::of(code), bound);
    if let Some(c) = saving {
        match s.restore(c, bound) {
            Ok(false) => {}
            Ok(true) => {
                on_heaps(s.g.len() as u64);
                on_step(Step::Resumed {
                    at: s.g.len() as u64,
                });
            }
            Err(why) => {
                on_step(Step::Refused {
                    why: format!("{why:#}"),
                });
                s = Solver::new(Moves::of(code), bound);
            }
        }
    }
    let start = s.g.len() as u64;
    let mut last_save = (Instant::now(), start);
    let mut since_report = 0;
    let mut stats = None;
    for n in start..=bound {
        if let Some(c) = saving.filter(|_| n % SAVE_CHECK == 0) {
            if n >= last_save.1 + SAVE_SPACING && last_save.0.elapsed() >= c.every {
                on_heaps(since_report);
                since_report = 0;
                let began = Instant::now();
                // For resuming only: a save that cannot be made (no room,
                // a failed write) is reported and the run goes on.
                match checkpoint::check_room(&c.path).and_then(|()| s.save(c)) {
                    Ok(bytes) => {
                        on_step(Step::Saved {
                            at: n,
                            bytes,
                            seconds: began.elapsed().as_secs_f64(),
                        });
                        last_save = (Instant::now(), n);
                        if c.stop_after.is_some_and(|h| n >= h) {
                            bail!("stopped after saving the state at heap {n} (as asked)");
                        }
                    }
                    Err(e) => {
                        on_step(Step::Skipped {
                            at: n,
                            why: format!("{e:#}"),
                        });
                        last_save.0 = Instant::now();
                    }
                }
            }
        }
        if n >= FIRST_CHOICE && n.is_power_of_two() {
            s.choose_mask();
            match at_power_of_two(&s.g, &s.stats_now()) {
                Checkpoint::Continue => {}
                Checkpoint::Stop => break,
                Checkpoint::Periodic {
                    period,
                    preperiod,
                    to,
                } => {
                    ensure!(
                        period >= 1 && preperiod + period <= n && to <= bound,
                        "a period is filled in only past its proof"
                    );
                    stats = Some(s.stats_now());
                    for m in n..=to {
                        let v = s.g[(m - period) as usize];
                        s.g.push(v);
                    }
                    on_heaps(to + 1 - n);
                    break;
                }
            }
        }
        s.next(n);
        since_report += 1;
        if since_report == 1 << 12 {
            on_heaps(since_report);
            since_report = 0;
        }
    }
    on_heaps(since_report);
    let stats = stats.unwrap_or_else(|| s.stats_now());
    Ok((s.g, stats))
}

/// An octal code read as move lists.
struct Moves {
    /// Removals that leave nothing (the heap had exactly i).
    take_all: Vec<usize>,
    /// Removals (≥ 1) that leave one heap.
    take_leave_one: Vec<usize>,
    /// Removals that leave two non-empty heaps.
    split: Vec<usize>,
    /// t: the first split removal, whose parity the domain kind uses (all
    /// split removals share it there); 0 when there is none.
    t: u64,
    /// The smallest split removal (0 when there is none).
    min_split: u64,
}

impl Moves {
    fn of(code: &OctalCode) -> Moves {
        let with = |bit: u8| -> Vec<usize> {
            (0..code.digits.len())
                .filter(|&i| code.digits[i] & bit != 0)
                .collect()
        };
        let split = with(4);
        Moves {
            take_all: with(1).into_iter().filter(|&i| i > 0).collect(),
            take_leave_one: with(2).into_iter().filter(|&i| i > 0).collect(),
            t: split.first().map_or(0, |&i| i as u64),
            min_split: split.iter().min().map_or(0, |&i| i as u64),
            split,
        }
    }

    /// Whether the domain kind applies: every split removal has one parity.
    fn domain_allowed(&self) -> bool {
        !self.split.is_empty() && self.split.iter().all(|&i| i % 2 == self.split[0] % 2)
    }
}

struct Solver {
    moves: Moves,
    g: Vec<u16>,
    mask: u16,
    domain: bool,
    /// Rare heaps and their values, in order.
    rare: Vec<(u64, u16)>,
    /// Heaps by value and heap parity: `census[v][x % 2]` (x ≥ 1).
    census: Vec<[u64; 2]>,
    seen: Vec<u64>,
    need: Vec<u64>,
    /// `parity_words[p][w]`: the values in word w whose masked parity is p.
    parity_words: [Vec<u64>; 2],
    /// Bits the value bitsets cover (a power of two, above every value).
    value_span: usize,
    stats: SparseStats,
}

fn parity(v: u16, mask: u16) -> u8 {
    ((v & mask).count_ones() & 1) as u8
}

/// The masked parity a rare heap x has: 0 for the range kind, the parity
/// of x − t for the domain kind (only x's parity matters).
fn rare_parity(domain: bool, x: u64, t: u64) -> u8 {
    (domain as u64 * (x.wrapping_sub(t) & 1)) as u8
}

impl Solver {
    fn new(moves: Moves, bound: u64) -> Solver {
        let mut s = Solver {
            moves,
            // Reserved, not touched: pages are committed as values arrive.
            g: Vec::with_capacity(bound as usize + 1),
            mask: 0,
            domain: false,
            rare: Vec::new(),
            census: Vec::new(),
            seen: Vec::new(),
            need: Vec::new(),
            parity_words: [Vec::new(), Vec::new()],
            value_span: 0,
            stats: SparseStats::default(),
        };
        s.widen(64);
        s
    }

    /// Sizes the bitsets to `span` values (a multiple of 64).
    fn widen(&mut self, span: usize) {
        self.value_span = span;
        let words = span / 64;
        self.seen.resize(words, 0);
        self.need.resize(words, 0);
        self.refresh_parity_words();
    }

    fn refresh_parity_words(&mut self) {
        let words = self.value_span / 64;
        for p in 0..2u8 {
            self.parity_words[p as usize] = (0..words)
                .map(|w| {
                    (0..64).fold(0u64, |acc, b| {
                        let v = (w * 64 + b) as u16;
                        acc | (((parity(v, self.mask) == p) as u64) << b)
                    })
                })
                .collect();
        }
    }

    fn is_rare(&self, x: u64, v: u16) -> bool {
        parity(v, self.mask) == rare_parity(self.domain, x, self.moves.t)
    }

    /// Chooses the mask and kind with the fewest rare heaps so far (ties:
    /// the smaller mask, range kind first), and rebuilds the rare list.
    fn choose_mask(&mut self) {
        if self.moves.split.is_empty() {
            return;
        }
        let bits = (16 - self.stats.max_value.leading_zeros()).clamp(1, MASK_BITS_SEARCHED);
        let kinds: &[bool] = if self.moves.domain_allowed() {
            &[false, true]
        } else {
            &[false]
        };
        let mut best = (u64::MAX, 0u16, false);
        for m in 1..(1u32 << bits) {
            let m = m as u16;
            for &e in kinds {
                let mut rare = 0u64;
                for (v, by_parity) in self.census.iter().enumerate() {
                    for (xp, &count) in by_parity.iter().enumerate() {
                        if parity(v as u16, m) == rare_parity(e, xp as u64, self.moves.t) {
                            rare += count;
                        }
                    }
                }
                if rare < best.0 {
                    best = (rare, m, e);
                }
            }
        }
        if best.0 > self.g.len() as u64 / DENSE {
            // Dense values: step 1 would walk most heaps and step 2 scan
            // anyway; the plain mex is cheaper.
            self.mask = 0;
            self.rare.clear();
            self.stats.dense = true;
            return;
        }
        self.stats.dense = false;
        if (best.1, best.2) != (self.mask, self.domain) || self.mask == 0 {
            self.mask = best.1;
            self.domain = best.2;
            self.refresh_parity_words();
            let rare: Vec<(u64, u16)> = (1..self.g.len() as u64)
                .filter(|&x| self.is_rare(x, self.g[x as usize]))
                .map(|x| (x, self.g[x as usize]))
                .collect();
            self.rare = rare;
        }
    }

    fn mark(&mut self, v: u16) {
        self.seen[(v >> 6) as usize] |= 1 << (v & 63);
    }

    /// The smallest value not in `seen` among those `allowed` lets through.
    fn first_unmarked(&self, allowed: Option<&[u64]>) -> usize {
        for (w, &s) in self.seen.iter().enumerate() {
            let open = !s & allowed.map_or(u64::MAX, |a| a[w]);
            if open != 0 {
                return w * 64 + open.trailing_zeros() as usize;
            }
        }
        self.value_span
    }

    fn next(&mut self, n: u64) {
        let value = if self.moves.split.is_empty() {
            self.clear_and_mark_one_heap_options(n);
            self.first_unmarked(None) as u16
        } else if self.mask == 0 {
            self.full_mex(n)
        } else {
            self.sparse_mex(n)
        };
        self.record(n, value);
    }

    fn clear_and_mark_one_heap_options(&mut self, n: u64) {
        self.seen.iter_mut().for_each(|w| *w = 0);
        for k in 0..self.moves.take_all.len() {
            if n == self.moves.take_all[k] as u64 {
                self.mark(0);
            }
        }
        for k in 0..self.moves.take_leave_one.len() {
            let i = self.moves.take_leave_one[k] as u64;
            if n > i {
                self.mark(self.g[(n - i) as usize]);
            }
        }
    }

    /// Every option marked: the plain mex (below the first mask choice).
    fn full_mex(&mut self, n: u64) -> u16 {
        self.clear_and_mark_one_heap_options(n);
        for k in 0..self.moves.split.len() {
            let rest = n.saturating_sub(self.moves.split[k] as u64);
            for a in 1..=rest / 2 {
                let v = self.g[a as usize] ^ self.g[(rest - a) as usize];
                self.mark(v);
            }
        }
        self.first_unmarked(None) as u16
    }

    fn sparse_mex(&mut self, n: u64) -> u16 {
        self.clear_and_mark_one_heap_options(n);
        // Step 1: every split with a rare part.
        for k in 0..self.moves.split.len() {
            let rest = n.saturating_sub(self.moves.split[k] as u64);
            for j in 0..self.rare.len() {
                let (r, gr) = self.rare[j];
                if r >= rest {
                    break;
                }
                let v = gr ^ self.g[(rest - r) as usize];
                self.mark(v);
            }
        }
        // Splits of two parts of one class give options of parity
        // e·((n − t) mod 2), which is the rare parity at heap n.
        let same_class_parity = rare_parity(self.domain, n, self.moves.t) as usize;
        let exhaustive_parity = 1 - same_class_parity;
        let c = self.first_unmarked(Some(&self.parity_words[exhaustive_parity]));
        // Step 2: values of the other parity below c that are not yet seen.
        let mut missing = 0u32;
        for w in 0..self.need.len() {
            let below = if (w + 1) * 64 <= c {
                u64::MAX
            } else if w * 64 >= c {
                0
            } else {
                (1u64 << (c - w * 64)) - 1
            };
            self.need[w] = !self.seen[w] & self.parity_words[same_class_parity][w] & below;
            missing += self.need[w].count_ones();
        }
        if missing == 0 {
            return c as u16;
        }
        let mut scanned = 0u64;
        let longest_rest = n.saturating_sub(self.moves.min_split);
        'scan: for a in 1..=longest_rest / 2 {
            for k in 0..self.moves.split.len() {
                let rest = n.saturating_sub(self.moves.split[k] as u64);
                if a > rest / 2 {
                    continue;
                }
                let v = self.g[a as usize] ^ self.g[(rest - a) as usize];
                scanned += 1;
                let (w, bit) = ((v >> 6) as usize, 1u64 << (v & 63));
                self.seen[w] |= bit;
                if self.need[w] & bit != 0 {
                    self.need[w] &= !bit;
                    missing -= 1;
                    if missing == 0 {
                        break 'scan;
                    }
                }
            }
        }
        let st = &mut self.stats;
        st.scanned_splits += scanned;
        if scanned > st.longest_scan {
            st.longest_scan = scanned;
            st.longest_scan_heap = n;
        }
        if missing == 0 {
            c as u16
        } else {
            st.full_scans += 1;
            self.first_unmarked(None) as u16
        }
    }

    fn record(&mut self, n: u64, value: u16) {
        self.g.push(value);
        self.account(n, value);
    }

    /// Everything `record` keeps besides the value itself: the census,
    /// the rare list, the statistics that follow from the values, and the
    /// bitsets' span.
    fn account(&mut self, n: u64, value: u16) {
        if n >= 1 {
            let v = value as usize;
            if self.census.len() <= v {
                self.census.resize(v + 1, [0; 2]);
            }
            self.census[v][(n & 1) as usize] += 1;
            if self.mask != 0 && self.is_rare(n, value) {
                self.rare.push((n, value));
            }
        }
        let st = &mut self.stats;
        if value > st.max_value || n == 0 {
            st.max_value = value;
            st.max_value_first_heap = n;
        }
        if value == 0 {
            st.zero_count += 1;
        }
        // XORs of values below 2^b stay below 2^b, and a mex is at most
        // one past the options: the bitsets cover twice the largest value.
        let span = ((value as usize + 1) * 2).next_power_of_two().max(64);
        if span > self.value_span {
            self.widen(span);
        }
    }

    /// Writes the state between two heaps: the values so far, the mask in
    /// force, and the counters that are not a function of the values.
    fn save(&self, c: &Saving) -> Result<u64> {
        let mut w = c.create(MAGIC, FORMAT)?;
        let st = &self.stats;
        w.u64(self.mask as u64)?;
        w.u64(self.domain as u64)?;
        w.u64(st.dense as u64)?;
        w.u64(st.scanned_splits)?;
        w.u64(st.full_scans)?;
        w.u64(st.longest_scan_heap)?;
        w.u64(st.longest_scan)?;
        w.u16s(self.g.iter().copied())?;
        w.commit()
    }

    /// Reads a saved state into this fresh solver: `Ok(false)` when there
    /// is none; an error saying why one cannot be used (the checksum is
    /// checked before anything read is used).
    fn restore(&mut self, c: &Saving, bound: u64) -> Result<bool> {
        let Some(mut r) = c.open(MAGIC, "an octal", FORMAT)? else {
            return Ok(false);
        };
        let mask = r.u64()?;
        let (domain, dense) = (r.u64()?, r.u64()?);
        let counters = [r.u64()?, r.u64()?, r.u64()?, r.u64()?];
        r.u16s_into(&mut self.g)?;
        let name = r.name().to_string();
        r.finish()?;
        let n = self.g.len() as u64;
        ensure!(
            n >= 1 && n <= bound,
            "{name}: saved at heap {n}, past what this solve to {bound} would save"
        );
        ensure!(
            mask <= u16::MAX as u64 && domain <= 1 && dense <= 1,
            "{name}: malformed (mask {mask}, kinds {domain}/{dense})"
        );
        self.mask = mask as u16;
        self.domain = domain == 1;
        self.stats.dense = dense == 1;
        [
            self.stats.scanned_splits,
            self.stats.full_scans,
            self.stats.longest_scan_heap,
            self.stats.longest_scan,
        ] = counters;
        self.refresh_parity_words();
        for x in 0..n {
            self.account(x, self.g[x as usize]);
        }
        Ok(true)
    }

    fn stats_now(&self) -> SparseStats {
        SparseStats {
            mask: self.mask,
            domain: self.domain,
            mex_heaps: self.g.len() as u64,
            rare_heaps: self.rare.len() as u64,
            last_rare_heap: self.rare.last().map_or(0, |r| r.0),
            ..self.stats.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sparse(code: &str, bound: u64) -> Vec<u16> {
        values(&OctalCode::parse(code).unwrap(), bound, |_| {}, |_, _| Checkpoint::Continue).0
    }

    #[test]
    fn agrees_with_the_plain_mex_on_every_two_digit_code_and_the_config_codes() {
        let mut codes: Vec<String> = Vec::new();
        for d1 in 0..8 {
            for d2 in 0..8 {
                codes.push(format!("0.{d1}{d2}"));
                codes.push(format!("4.{d1}{d2}"));
            }
        }
        for c in ["0.137", "0.07", "4.07", "0.51", "0.6", "0.16", "0.106", "0.007", "0.4", "0.04", "0.161", "0.167", "0.2", "0.3"] {
            codes.push(c.to_string());
        }
        let bound = 3000;
        let mut checked = 0;
        for c in &codes {
            let Ok(code) = OctalCode::parse(c) else { continue };
            let plain = crate::games::octal::solve::values(&code, bound, || {});
            assert_eq!(sparse(c, bound as u64), plain, "{c}");
            checked += 1;
        }
        assert!(checked > 120, "{checked}");
    }

    #[test]
    fn the_sparse_path_does_the_work_and_a_proved_period_fills_in_the_mex_values() {
        let code = OctalCode::parse("0.16").unwrap();
        let (g, st) = values(&code, 40_000, |_| {}, |_, _| Checkpoint::Continue);
        assert_eq!(g, crate::games::octal::solve::values(&code, 40_000, || {}));
        assert!(st.mask != 0 && st.rare_heaps < 400, "{st:?}");
        // A full mex looks at about 40,000² / 4 = 4·10^8 splits.
        assert!(st.full_scans < 100 && st.scanned_splits < 8_000_000, "{st:?}");
        // Dawson's chess: the period (34) is proved early and the rest of
        // the values follow from it, equal to the mex's.
        let code = OctalCode::parse("0.137").unwrap();
        let (g, st) = values(&code, 30_000, |_| {}, |g, _| {
            match crate::games::octal::period::find(g, code.max_removal()) {
                Some(p) => Checkpoint::Periodic {
                    period: p.period,
                    preperiod: p.preperiod.max(1),
                    to: 30_000,
                },
                None => Checkpoint::Continue,
            }
        });
        assert_eq!(st.mex_heaps, 1024);
        assert_eq!(g, crate::games::octal::solve::values(&code, 30_000, || {}));
    }

    fn resumable(
        code: &OctalCode,
        bound: u64,
        c: &Saving,
    ) -> (Result<(Vec<u16>, SparseStats)>, Vec<Step>) {
        let mut steps = Vec::new();
        let mut done = 0;
        let r = values_resumable(
            code,
            bound,
            Some(c),
            |k| done += k,
            |_, _| Checkpoint::Continue,
            &mut |s| steps.push(s),
        );
        if let Ok((g, _)) = &r {
            assert_eq!(done, g.len() as u64, "heaps reported");
        }
        (r, steps)
    }

    #[test]
    fn a_stopped_solve_resumes_to_the_same_values_and_statistics() {
        // 0.161 is sparse from 2^10 on with a mask of several bits: the
        // rare list, the census and the span are all rebuilt on resume.
        let code = OctalCode::parse("0.161").unwrap();
        let bound = 300_000;
        let (full, stats) = values(&code, bound, |_| {}, |_, _| Checkpoint::Continue);
        assert!(stats.mask != 0 && stats.rare_heaps > 100, "{stats:?}");
        let dir = tempfile::tempdir().unwrap();
        let c = Saving {
            path: dir.path().join("0.161.nmt.checkpoint"),
            key: 7,
            every: std::time::Duration::ZERO,
            stop_after: Some(150_000),
        };
        let (stopped, steps) = resumable(&code, bound, &c);
        let err = stopped.unwrap_err().to_string();
        assert!(err.contains("stopped after saving"), "{err}");
        let Some(Step::Saved { at: saved, .. }) = steps.last().cloned() else {
            panic!("no save: {steps:?}")
        };
        assert!(saved >= 150_000 && steps.len() >= 2, "{steps:?}");
        let resume = Saving {
            stop_after: None,
            ..c.clone()
        };
        let (done, steps) = resumable(&code, bound, &resume);
        assert_eq!(steps[0], Step::Resumed { at: saved });
        let (g, st) = done.unwrap();
        assert!(g == full, "values after resuming");
        assert_eq!(st, stats, "statistics after resuming");

        // Another solve's state, or a damaged one, is refused, and the
        // solve starts over to the same values.
        let other = Saving {
            key: 8,
            every: std::time::Duration::from_secs(3600),
            ..resume.clone()
        };
        let (done, steps) = resumable(&code, bound, &other);
        let Step::Refused { why } = &steps[0] else {
            panic!("{steps:?}")
        };
        assert!(why.contains("other parameters"), "{why}");
        assert!(done.unwrap() == (full.clone(), stats.clone()));
        let mut bytes = std::fs::read(&c.path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 1;
        std::fs::write(&c.path, &bytes).unwrap();
        // The damaged one, under its own key: the checksum refuses it.
        let damaged = Saving { key: 7, ..other };
        let (done, steps) = resumable(&code, bound, &damaged);
        let Step::Refused { why } = &steps[0] else {
            panic!("{steps:?}")
        };
        assert!(why.contains("damaged"), "{why}");
        assert!(done.unwrap() == (full, stats));
    }

    /// Gangolli and Plambeck (1989): 0.16 is periodic with period 149,459,
    /// the last exception at heap 105,350 (OEIS A071430).
    #[test]
    fn octal_016_has_the_published_period() {
        let code = OctalCode::parse("0.16").unwrap();
        let mut proved = None;
        values(&code, 1 << 20, |_| {}, |g, _| {
            if g.len() == 1 << 20 {
                proved = crate::games::octal::period::find(g, code.max_removal());
            }
            Checkpoint::Continue
        });
        let p = proved.expect("a period with 2^20 values");
        assert_eq!((p.period, p.preperiod), (149_459, 105_351));
    }
}
