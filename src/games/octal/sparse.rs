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
//!      abundant, so splits are scanned (parts in an order of diverse
//!      values first, then every part in turn) until every one is seen; a
//!      scan that runs out of splits has marked every option and gives the
//!      exact mex.
//!
//! From heap 2^12 on, heaps go in blocks of 64 (as Grundy's game does): for
//! a part a ≥ 128 the other parts of a block's heaps are a run of
//! consecutive heaps below the block, so one pass marks a's option in every
//! heap's row. A block marks its rare parts and the first `reach` parts of
//! the diverse order; each heap then adds its row, the rare splits the
//! block left out, and concludes as above. `reach` grows when over a
//! quarter of a block's heaps scan past it and shrinks when under an
//! eighth do. Every mark is a true option and every rare split is marked,
//! so the values are the same; only the scan statistics differ.
//!
//! Nothing is assumed: m and e only decide how fast heaps go. They are
//! chosen at each power of two from 2^10 on, as the pair with the fewest
//! rare heaps so far; before 2^10, and while more than an eighth of the
//! heaps would be rare (dense values), every heap is a full scan. This file
//! shares no code with `solve` (the second opinion checks it).

use super::code::OctalCode;
use crate::pipeline::checkpoint::{self, Saving, StateReader, Step};
use crate::pipeline::crew::Crew;
use anyhow::{bail, ensure, Context, Result};
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
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
    /// Heaps solved in blocks (`Solver::mark_block`), the rest one by one.
    pub block_heaps: u64,
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
/// Bumped whenever what a saved value means changes (2: the block reach;
/// 3: the code, so that `nimrod info` can name what a state holds).
const FORMAT: u64 = 3;
/// The longest code text a state may hold.
const MAX_CODE_TEXT: usize = 64;

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
    let mut s = Solver::new(code, bound);
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
                s = Solver::new(code, bound);
            }
        }
    }
    // With more than one thread in the pool, a helper thread takes pieces
    // of each block's marking (the marks, values and statistics are the
    // same either way).
    let helped = rayon::current_num_threads() > 1 && bound >= BLOCK_FROM;
    let crew = Crew::new(if helped { HELPER_PIECES } else { 1 });
    let stats = std::thread::scope(|scope| {
        if helped {
            scope.spawn(|| crew.help(&BlockMarking::mark_piece));
        }
        // Stops the helper however this thread leaves, a panic included.
        let _stop = crew.stopper();
        solve_from(&mut s, bound, saving, &mut on_heaps, &mut at_power_of_two, on_step, &crew)
    })?;
    Ok((s.g, stats))
}

/// Solves heaps from `s.g.len()` to `bound` (see [`values_resumable`]),
/// saving on the way; returns the statistics (those at the proof when a
/// period fills in the rest).
fn solve_from(
    s: &mut Solver,
    bound: u64,
    saving: Option<&Saving>,
    on_heaps: &mut dyn FnMut(u64),
    at_power_of_two: &mut dyn FnMut(&[u16], &SparseStats) -> Checkpoint,
    on_step: &mut dyn FnMut(Step),
    crew: &Crew<BlockMarking>,
) -> Result<SparseStats> {
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
            s.rebuild_order(n);
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
        s.next(n, crew);
        since_report += 1;
        if since_report == 1 << 12 {
            on_heaps(since_report);
            since_report = 0;
        }
    }
    on_heaps(since_report);
    Ok(stats.unwrap_or_else(|| s.stats_now()))
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
    /// The code's canonical text (saved with the state).
    code: String,
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
    /// `LANES` interleaved bitsets the marks go to before they are OR-ed
    /// into `seen`: consecutive marks then do not wait on one another's
    /// read-modify-write.
    lanes: Vec<u64>,
    /// Step-2 parts to try first, so that consecutive ones have different
    /// values (round robin over the values of the parts, see
    /// `rebuild_order`): small parts taken in turn repeat the same few
    /// values, diverse ones reach the missing values in far fewer splits.
    scan_order: Vec<u32>,
    /// One byte per (heap of the block, value), a buffer per piece of the
    /// block: set when the value is an option of that heap.
    /// Bytes, not bits: a mark is a plain store (bits, a read-modify-write
    /// each, measured 30 % slower on 0.6).
    marks: Vec<Vec<u8>>,
    /// The block the marks are for.
    block: Option<Block>,
    /// Leading parts of the scan order the block marking covers; adapted
    /// after each block (saved: it decides the scan statistics).
    reach: usize,
    stats: SparseStats,
}

/// A block of `BLOCK` heaps whose marks are made.
#[derive(Clone, Copy)]
struct Block {
    n0: u64,
    /// Values a heap's row of marks covers.
    row: usize,
    /// Heaps each buffer of marks holds.
    piece_rows: usize,
    /// Rare heaps below `MIN_PART` (the first in the rare list): each heap
    /// marks their splits itself.
    first_big: usize,
    /// Step-2 splits the block marked for each heap.
    step2: u64,
    /// Heaps of the block that scanned past the marked parts.
    beyond_reach: usize,
}

/// A block's marking while the crew works on it: what it reads, moved out
/// of the solver and back (no copy), and each piece's buffer of marks.
struct BlockMarking {
    n0: u64,
    row: usize,
    /// Heaps a piece marks.
    piece_rows: usize,
    /// Step-2 splits marked for each heap (every piece counts the same;
    /// the first one says).
    step2: AtomicU64,
    first_big: usize,
    reach: usize,
    lent: Lent,
    marks: Vec<Mutex<Vec<u8>>>,
}

/// The solver's fields a block's marking reads: lent to the crew for the
/// block by move and given back (`Solver::lend`, `Solver::take_back`).
struct Lent {
    splits: Vec<usize>,
    g: Vec<u16>,
    rare: Vec<(u64, u16)>,
    scan_order: Vec<u32>,
}

impl BlockMarking {
    /// Marks the rows of heaps `piece · piece_rows ..` (see `mark_block`).
    fn mark_piece(&self, piece: usize) {
        let mut marks = self.marks[piece]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        marks.clear();
        marks.resize(self.piece_rows * self.row, 0);
        let first_row = piece * self.piece_rows;
        let Lent {
            splits,
            g,
            rare,
            scan_order,
        } = &self.lent;
        let others = |x: u64| &g[x as usize + first_row..][..self.piece_rows];
        let mut step2 = 0;
        for &removal in splits {
            // The rest of heap n0 after the removal; heap n0 + h has base + h.
            let base = self.n0 - removal as u64;
            for &(r, gr) in &rare[self.first_big..] {
                if r >= base {
                    break;
                }
                mark_rows(&mut marks, self.row, gr, others(base - r));
            }
            for &a in &scan_order[..self.reach] {
                let a = u64::from(a);
                if a >= MIN_PART && 2 * a <= base {
                    mark_rows(&mut marks, self.row, g[a as usize], others(base - a));
                    step2 += 1;
                }
            }
        }
        if piece == 0 {
            self.step2.store(step2, Ordering::Relaxed);
        }
    }
}

fn parity(v: u16, mask: u16) -> u8 {
    ((v & mask).count_ones() & 1) as u8
}

/// Interleaved bitsets for marks (see `Solver::lanes`).
const LANES: usize = 4;
/// Splits marked between two checks of whether step 2 is done.
const SCAN_CHUNK: usize = 32;
/// Largest part placed in the diverse scan order.
const MAX_ORDERED_PART: u64 = 1 << 16;

/// Heaps solved together from `BLOCK_FROM` on (see `Solver::mark_block`).
const BLOCK: usize = 64;
/// Parts below this are left to each heap: the other part reaches into
/// the block.
const MIN_PART: u64 = 2 * BLOCK as u64;
/// The first heap solved in blocks (a multiple of `BLOCK` and of the save
/// check, so a save falls between blocks).
const BLOCK_FROM: u64 = 1 << 12;

/// Pieces of a block's marking (each a run of its heaps) with a helper
/// thread, which takes pieces while the solving thread takes the others.
/// Each piece walks the whole list of parts again, so more pieces cost more
/// (0.6 to 2^22 on two threads: 9.7-10.4 s of wall with two, 12.6-13.4
/// with four), and the solving thread alone marks a block as one.
const HELPER_PIECES: usize = 2;

/// Sets the mark of G(a) ⊕ G(x) in the row of each heap of a block, the
/// other parts x of its heaps being `others`.
#[inline]
fn mark_rows(marks: &mut [u8], row: usize, ga: u16, others: &[u16]) {
    for (line, &x) in marks.chunks_exact_mut(row).zip(others) {
        line[usize::from(ga ^ x)] = 1;
    }
}

#[inline]
fn mark_lane(lanes: &mut [u64], words: usize, j: usize, v: u16) {
    lanes[(j % LANES) * words + (v >> 6) as usize] |= 1u64 << (v & 63);
}

/// ORs the lanes into `seen` and clears them.
fn fold_lanes(lanes: &mut [u64], seen: &mut [u64]) {
    let words = seen.len();
    for (w, s) in seen.iter_mut().enumerate() {
        for l in 0..LANES {
            *s |= std::mem::take(&mut lanes[l * words + w]);
        }
    }
}

/// The masked parity a rare heap x has: 0 for the range kind, the parity
/// of x − t for the domain kind (only x's parity matters).
fn rare_parity(domain: bool, x: u64, t: u64) -> u8 {
    (domain as u64 * (x.wrapping_sub(t) & 1)) as u8
}

/// Whether heap x of value v is rare under mask `mask` of the kind
/// `domain` (t: the first split removal).
#[inline]
fn is_rare_under(mask: u16, domain: bool, t: u64, x: u64, v: u16) -> bool {
    parity(v, mask) == rare_parity(domain, x, t)
}

impl SparseStats {
    /// Counts heap n of value v into the largest value and the zeros.
    #[inline]
    fn count_value(&mut self, n: u64, v: u16) {
        if v > self.max_value || n == 0 {
            self.max_value = v;
            self.max_value_first_heap = n;
        }
        if v == 0 {
            self.zero_count += 1;
        }
    }
}

impl Solver {
    fn new(code: &OctalCode, bound: u64) -> Solver {
        let mut s = Solver {
            code: code.canonical(),
            moves: Moves::of(code),
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
            lanes: Vec::new(),
            scan_order: Vec::new(),
            marks: Vec::new(),
            block: None,
            reach: 0,
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
        self.lanes = vec![0; LANES * words];
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
        is_rare_under(self.mask, self.domain, self.moves.t, x, v)
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

    fn next(&mut self, n: u64, crew: &Crew<BlockMarking>) {
        let value = if self.moves.split.is_empty() {
            self.clear_and_mark_one_heap_options(n);
            self.first_unmarked(None) as u16
        } else if self.mask == 0 {
            self.full_mex(n)
        } else {
            if n >= BLOCK_FROM && n.is_multiple_of(BLOCK as u64) {
                self.mark_block(n, crew);
            }
            match self.block {
                Some(b) if n >= b.n0 && n < b.n0 + BLOCK as u64 => self.block_mex(n, b),
                _ => self.sparse_mex(n),
            }
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
            self.mark_rare_splits(rest, 0..self.rare.len());
        }
        self.conclude(n, 0, 0).0
    }

    /// Marks G(r) ⊕ G(rest − r) for the rare heaps r < rest with index in
    /// `range` of the rare list.
    #[inline]
    fn mark_rare_splits(&mut self, rest: u64, range: std::ops::Range<usize>) {
        let words = self.seen.len();
        let lanes = &mut self.lanes;
        for (j, &(r, gr)) in self.rare[range].iter().enumerate() {
            if r >= rest {
                break;
            }
            mark_lane(lanes, words, j, gr ^ self.g[(rest - r) as usize]);
        }
        fold_lanes(&mut self.lanes, &mut self.seen);
    }

    /// Given every one-heap option and every split with a rare part marked
    /// in `seen` (plus any other true options, among them the splits off
    /// the first `order_from` parts of the scan order, `scanned` of them),
    /// the exact mex: the smallest unmarked value c of the parity only
    /// rare splits give, once every value of the other parity below c is
    /// seen. Scans the order from `order_from`, then every split. Also
    /// says whether it had to scan.
    fn conclude(&mut self, n: u64, order_from: usize, mut scanned: u64) -> (u16, bool) {
        let words = self.seen.len();
        // Splits of two parts of one class give options of parity
        // e·((n − t) mod 2), which is the rare parity at heap n.
        let same_class_parity = rare_parity(self.domain, n, self.moves.t) as usize;
        let exhaustive_parity = 1 - same_class_parity;
        let c = self.first_unmarked(Some(&self.parity_words[exhaustive_parity]));
        // Step 2: values of the other parity below c that are not yet seen.
        for w in 0..words {
            let below = if (w + 1) * 64 <= c {
                u64::MAX
            } else if w * 64 >= c {
                0
            } else {
                (1u64 << (c - w * 64)) - 1
            };
            self.need[w] = self.parity_words[same_class_parity][w] & below;
        }
        let mut done = self.covered();
        let scanning = !done;
        // Parts in the diverse order first, then every part in turn (the
        // exact fallback: marking a split twice changes nothing), a chunk
        // at a time, checking after each chunk.
        let order = std::mem::take(&mut self.scan_order);
        for chunk in order.get(order_from..).unwrap_or(&[]).chunks(SCAN_CHUNK) {
            if done {
                break;
            }
            scanned += self.mark_splits(n, chunk.iter().map(|&a| a as u64));
            done = self.covered();
        }
        self.scan_order = order;
        let half = n.saturating_sub(self.moves.min_split) / 2;
        let mut a = 1;
        while !done && a <= half {
            let end = (a + SCAN_CHUNK as u64 - 1).min(half);
            scanned += self.mark_splits(n, a..=end);
            done = self.covered();
            a = end + 1;
        }
        let st = &mut self.stats;
        st.scanned_splits += scanned;
        if scanned > st.longest_scan {
            st.longest_scan = scanned;
            st.longest_scan_heap = n;
        }
        if done {
            (c as u16, scanning)
        } else {
            st.full_scans += 1;
            (self.first_unmarked(None) as u16, scanning)
        }
    }

    /// Marks, for each heap of the block from n0, the splits whose parts
    /// are all below n0 and whose one part is at least `MIN_PART`: with a
    /// rare part up to the heap's rest, and with the first `reach` parts
    /// of the scan order. For part a, the other parts of the block's heaps
    /// are a run of consecutive heaps, read in one pass. The pieces go to
    /// `crew` (and its helper thread, if any): what they read is moved to
    /// it and back, and the marks are the same however they are shared.
    fn mark_block(&mut self, n0: u64, crew: &Crew<BlockMarking>) {
        // Every value so far is below this power of two, and so is every
        // XOR of two of them.
        let row = (usize::from(self.stats.max_value) + 1).next_power_of_two().max(64);
        let first_big = self.rare.partition_point(|&(r, _)| r < MIN_PART);
        let reach = self.reach.min(self.scan_order.len());
        self.marks.resize_with(crew.pieces(), Vec::new);
        let piece_rows = BLOCK / crew.pieces();
        crew.publish(Arc::new(BlockMarking {
            n0,
            row,
            piece_rows,
            first_big,
            reach,
            step2: AtomicU64::new(0),
            lent: self.lend(),
            marks: std::mem::take(&mut self.marks)
                .into_iter()
                .map(Mutex::new)
                .collect(),
        }));
        crew.take_pieces(&BlockMarking::mark_piece);
        crew.wait();
        let done = crew
            .reclaim()
            .expect("the block's marking was published above");
        let step2 = done.step2.into_inner();
        self.take_back(done.lent);
        self.marks = done
            .marks
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner))
            .collect();
        self.block = Some(Block {
            n0,
            row,
            piece_rows,
            first_big,
            step2,
            beyond_reach: 0,
        });
    }

    fn lend(&mut self) -> Lent {
        Lent {
            splits: std::mem::take(&mut self.moves.split),
            g: std::mem::take(&mut self.g),
            rare: std::mem::take(&mut self.rare),
            scan_order: std::mem::take(&mut self.scan_order),
        }
    }

    fn take_back(&mut self, lent: Lent) {
        self.moves.split = lent.splits;
        self.g = lent.g;
        self.rare = lent.rare;
        self.scan_order = lent.scan_order;
    }

    /// G(n) for a heap of the marked block: its row of marks, the rare
    /// splits the block left out (a part below `MIN_PART`, or at least the
    /// block's rest), then `conclude` from the block's reach.
    fn block_mex(&mut self, n: u64, b: Block) -> u16 {
        let h = (n - b.n0) as usize;
        self.clear_and_mark_one_heap_options(n);
        let within = h % b.piece_rows;
        let line = &self.marks[h / b.piece_rows][within * b.row..(within + 1) * b.row];
        for (s, bytes) in self.seen.iter_mut().zip(line.chunks_exact(64)) {
            *s |= bytes
                .iter()
                .enumerate()
                .fold(0u64, |bits, (i, &m)| bits | (u64::from(m != 0) << i));
        }
        for k in 0..self.moves.split.len() {
            let removal = self.moves.split[k] as u64;
            let rest = n - removal;
            self.mark_rare_splits(rest, 0..b.first_big);
            let base = b.n0 - removal;
            let from = self.rare.partition_point(|&(r, _)| r < base);
            self.mark_rare_splits(rest, from..self.rare.len());
        }
        self.stats.block_heaps += 1;
        let (value, scanned) = self.conclude(n, self.reach, b.step2);
        if let Some(block) = self.block.as_mut() {
            block.beyond_reach += usize::from(scanned);
            if h == BLOCK - 1 {
                // Aim at about one heap in six needing parts past the reach.
                let beyond = block.beyond_reach;
                let longest = self.scan_order.len();
                if beyond > BLOCK / 4 {
                    self.reach = (self.reach + self.reach / 4 + 16).min(longest);
                } else if beyond < BLOCK / 8 {
                    self.reach -= self.reach / 8;
                }
            }
        }
        value
    }

    /// Marks the options of heap n from splitting off each of `parts`
    /// (those small enough for a split removal's rest); returns how many.
    #[inline]
    fn mark_splits(&mut self, n: u64, parts: impl Iterator<Item = u64>) -> u64 {
        let words = self.seen.len();
        let mut marked = 0;
        for (j, a) in parts.enumerate() {
            for k in 0..self.moves.split.len() {
                let rest = n.saturating_sub(self.moves.split[k] as u64);
                if 2 * a <= rest {
                    let v = self.g[a as usize] ^ self.g[(rest - a) as usize];
                    mark_lane(&mut self.lanes, words, j, v);
                    marked += 1;
                }
            }
        }
        fold_lanes(&mut self.lanes, &mut self.seen);
        marked
    }

    /// Whether every value in `need` has been seen.
    #[inline]
    fn covered(&self) -> bool {
        self.need.iter().zip(&self.seen).all(|(n, s)| n & !s == 0)
    }

    /// Orders the parts from `MIN_PART` to a quarter of heap `p` (at most
    /// `MAX_ORDERED_PART`) round robin over their values. A function of the
    /// values and p alone, so a resumed solve rebuilds the same order.
    fn rebuild_order(&mut self, p: u64) {
        let limit = (p / 4).min(MAX_ORDERED_PART).min(self.g.len() as u64 - 1);
        let mut by_value: Vec<Vec<u32>> = vec![Vec::new(); self.value_span];
        // From MIN_PART: a block marks no smaller part, and each heap's
        // fallback scan starts with the small parts anyway.
        for a in MIN_PART..=limit {
            by_value[self.g[a as usize] as usize].push(a as u32);
        }
        self.scan_order.clear();
        let rounds = by_value.iter().map(Vec::len).max().unwrap_or(0);
        for r in 0..rounds {
            for parts in &by_value {
                if let Some(&a) = parts.get(r) {
                    self.scan_order.push(a);
                }
            }
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
        self.stats.count_value(n, value);
        // XORs of values below 2^b stay below 2^b, and a mex is at most
        // one past the options: the bitsets cover twice the largest value.
        let span = ((value as usize + 1) * 2).next_power_of_two().max(64);
        if span > self.value_span {
            self.widen(span);
        }
    }

    /// Writes the state between two blocks: the values so far, the mask in
    /// force, the block reach, and the counters that are not a function of
    /// the values.
    fn save(&self, c: &Saving) -> Result<u64> {
        let mut w = c.create(MAGIC, FORMAT)?;
        let st = &self.stats;
        w.text(&self.code)?;
        w.u64(self.mask as u64)?;
        w.u64(self.domain as u64)?;
        w.u64(st.dense as u64)?;
        w.u64(self.reach as u64)?;
        w.u64(st.scanned_splits)?;
        w.u64(st.full_scans)?;
        w.u64(st.block_heaps)?;
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
        let saved = SavedSolve::read(&mut r)?;
        r.u16s_into(&mut self.g)?;
        let name = r.name().to_string();
        r.finish()?;
        ensure!(
            saved.code == self.code,
            "{name}: a state of {}, not of {}",
            saved.code,
            self.code
        );
        let n = self.g.len() as u64;
        check_within(&name, n, bound)?;
        self.reach = saved.reach;
        self.mask = saved.mask;
        self.domain = saved.domain;
        self.stats = saved.stats;
        self.refresh_parity_words();
        for x in 0..n {
            self.account(x, self.g[x as usize]);
        }
        if n >= FIRST_CHOICE {
            // The order the solve built at the last power of two.
            self.rebuild_order(1 << n.ilog2());
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

/// What a state holds before its values: the code, the mask in force,
/// the block reach, and the counters that are not a function of the values
/// (in `stats`, the rest of it default).
struct SavedSolve {
    code: String,
    mask: u16,
    domain: bool,
    reach: usize,
    stats: SparseStats,
}

impl SavedSolve {
    /// Reads what `Solver::save` wrote after the header, up to the values.
    fn read(r: &mut StateReader) -> Result<SavedSolve> {
        let code = r.text(MAX_CODE_TEXT)?;
        let mask = r.u64()?;
        let (domain, dense) = (r.u64()?, r.u64()?);
        let reach = r.u64()?;
        let name = r.name();
        ensure!(
            mask <= u16::MAX as u64 && domain <= 1 && dense <= 1,
            "{name}: malformed (mask {mask}, kinds {domain}/{dense})"
        );
        ensure!(
            reach <= MAX_ORDERED_PART,
            "{name}: malformed (a block reach of {reach} parts)"
        );
        let mut stats = SparseStats {
            dense: dense == 1,
            ..SparseStats::default()
        };
        [
            stats.scanned_splits,
            stats.full_scans,
            stats.block_heaps,
            stats.longest_scan_heap,
            stats.longest_scan,
        ] = [r.u64()?, r.u64()?, r.u64()?, r.u64()?, r.u64()?];
        Ok(SavedSolve {
            code,
            mask: mask as u16,
            domain: domain == 1,
            reach: reach as usize,
            stats,
        })
    }
}

/// What a saved state of a sparse-space solve says of the heaps it holds,
/// read without resuming it (`nimrod info FILE.checkpoint`): a run of hours
/// shows what it has found so far.
#[derive(Clone, Debug, Serialize)]
pub struct SavedOctal {
    /// The game's code (canonical).
    pub code: String,
    /// The heap the solve resumes at: every heap below it is solved.
    pub next_heap: u64,
    /// The statistics of heaps 0 .. next_heap − 1, as the solve would
    /// report them there (`mex_heaps` = next_heap; rare heaps under the mask
    /// in force).
    pub stats: SparseStats,
    /// The last heap of value 0.
    pub last_zero_heap: u64,
    /// How many distinct values occur.
    pub values: usize,
}

/// Reads the saved state at `path` through to its checksum, its values a
/// block at a time (a state of 2^32 heaps is 8 GiB of values): `Ok(None)`
/// when it is not an octal sparse-space state, an error when it is damaged
/// or of another format.
pub fn read_saved(path: &std::path::Path) -> Result<Option<SavedOctal>> {
    let Some(r) = StateReader::open_kind(path, MAGIC, "octal", FORMAT)? else {
        return Ok(None);
    };
    saved_of(r).map(Some)
}

/// A solve to `bound` can resume from a state of `n` values.
pub fn check_within(name: &str, n: u64, bound: u64) -> Result<()> {
    ensure!(
        n >= 1 && n <= bound,
        "{name}: saved at heap {n}, past what this solve to {bound} would save"
    );
    Ok(())
}

/// [`read_saved`] of `c`'s file, its key checked too: `Ok(None)` when there
/// is none, an error when a solve that saves as `c` could not use it.
pub fn read_saving(c: &Saving) -> Result<Option<SavedOctal>> {
    let Some(r) = c.open(MAGIC, "an octal", FORMAT)? else {
        return Ok(None);
    };
    saved_of(r).map(Some)
}

fn saved_of(mut r: StateReader) -> Result<SavedOctal> {
    let saved = SavedSolve::read(&mut r)?;
    let code = OctalCode::parse(&saved.code)
        .with_context(|| format!("{}: malformed (code {:?})", r.name(), saved.code))?;
    let t = Moves::of(&code).t;
    let mut st = saved.stats;
    let (mut n, mut last_zero) = (0u64, 0u64);
    let mut seen = vec![false; 1 << 16];
    r.u16s_each(|values| {
        for &v in values {
            if n >= 1 && saved.mask != 0 && is_rare_under(saved.mask, saved.domain, t, n, v) {
                st.rare_heaps += 1;
                st.last_rare_heap = n;
            }
            st.count_value(n, v);
            if v == 0 {
                last_zero = n;
            }
            seen[usize::from(v)] = true;
            n += 1;
        }
    })?;
    let name = r.name().to_string();
    r.finish()?;
    ensure!(n >= 1, "{name}: malformed (no values)");
    st.mex_heaps = n;
    st.mask = saved.mask;
    st.domain = saved.domain;
    Ok(SavedOctal {
        code: saved.code,
        next_heap: n,
        stats: st,
        last_zero_heap: last_zero,
        values: seen.iter().filter(|&&s| s).count(),
    })
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
    fn the_block_path_agrees_with_the_plain_mex_past_where_it_starts() {
        // Sparse codes of both kinds (0.106 is of the domain kind), with
        // one or several split removals; 20,000 heaps are 256 blocks. On
        // one thread, then with the helper thread marking pieces of each
        // block: the same values and statistics (a piece marked wrong
        // would change a value, one left unmarked the scan counts).
        let bound = 20_000;
        let in_pool = |threads: usize, code: &OctalCode| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| values(code, bound, |_| {}, |_, _| Checkpoint::Continue))
        };
        for c in ["0.6", "0.161", "0.167", "0.106", "0.16", "0.1777", "0.165"] {
            let code = OctalCode::parse(c).unwrap();
            let (g, st) = in_pool(1, &code);
            let plain = crate::games::octal::solve::values(&code, bound as usize, || {});
            assert!(g == plain, "{c}: the block path's values differ from the plain mex");
            let (g2, st2) = in_pool(2, &code);
            assert!(g2 == g, "{c}: two threads' values differ from one thread's");
            assert_eq!(st2, st, "{c}: two threads' statistics differ from one thread's");
            // Heaps from the first power of two where the values were found
            // sparse (0.6: 2^14) are solved in blocks.
            assert!(st.block_heaps >= 3_000, "{c}: {st:?}");
            assert!(st.mask != 0, "{c}: {st:?}");
        }
    }

    #[test]
    fn the_sparse_path_does_the_work_and_a_proved_period_fills_in_the_mex_values() {
        let code = OctalCode::parse("0.16").unwrap();
        let (g, st) = values(&code, 40_000, |_| {}, |_, _| Checkpoint::Continue);
        assert_eq!(g, crate::games::octal::solve::values(&code, 40_000, || {}));
        assert!(st.mask != 0 && st.rare_heaps < 400, "{st:?}");
        // A full mex looks at about 40,000² / 4 = 4·10^8 splits (the
        // block path marks a few hundred a heap, some more than it needs).
        assert!(st.full_scans < 100 && st.scanned_splits < 20_000_000, "{st:?}");
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
            last_state: None,
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
            last_state: None,
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
