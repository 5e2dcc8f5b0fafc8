//! The second objective: maximise the chance of winning the whole game.
//! Payoff +1 / 0 / −1 on the sign of the final score difference, so the
//! state carries the difference d so far: W(V, Y, P, d). A state whose
//! outcome is decided (|d| > ΣP: the remaining prizes cannot change the sign)
//! is not stored, its value is sign(d).
//!
//! Layout of a level: for each prize set (in rank order) a block of
//! patterns × (2ΣP + 1) values, d running from −ΣP to ΣP fastest.
//! Swapping the players maps (pattern, d) to (swapped, −d) and negates W.

use super::level::{children, segments, Child, Level, LevelStats};
use super::pattern::{Pattern, MAX_CARDS};
use crate::lp::{MatrixGame, Workspace};
use crate::table::rank::{rank_subset, unrank_subset};
use rayon::prelude::*;
use std::ops::Range;

/// The sum of a prize set's prizes (bit p-1 for prize p).
pub fn prize_sum(prizes: u64) -> i32 {
    (0..64)
        .filter(|b| prizes >> b & 1 == 1)
        .map(|b| b + 1)
        .sum()
}

/// Shape of one level of the win objective.
#[derive(Clone, Debug)]
pub struct WinLevel {
    /// The score level's shape (patterns and prize sets).
    pub base: Level,
    /// Start of each prize set's block; one extra entry holds the length.
    offsets: Vec<u64>,
}

impl WinLevel {
    /// Level k of N cards of the win objective.
    pub fn new(cards: usize, k: usize) -> WinLevel {
        let base = Level::new(cards, k);
        let np = base.patterns.len();
        let mut offsets = Vec::with_capacity(base.prize_sets as usize + 1);
        let mut at = 0;
        for r in 0..base.prize_sets {
            offsets.push(at);
            at += np * (2 * prize_sum(unrank_subset(r, k as u32)) as u64 + 1);
        }
        offsets.push(at);
        WinLevel { base, offsets }
    }
    /// Slots: per prize set, patterns x (2 x prize sum + 1) differences.
    pub fn len(&self) -> u64 {
        *self.offsets.last().expect("offsets")
    }
    #[cfg(any(test, feature = "internals"))]
    /// Whether the level has no slot.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where W(p, prizes, d) lives, or its value when the state is decided.
    pub fn locate(&self, p: &Pattern, prizes: u64, d: i32) -> Option<WinLookup> {
        let sum = prize_sum(prizes);
        if d.abs() > sum || prizes == 0 {
            return Some(WinLookup::Decided(d.signum() as f64));
        }
        let (canon, negate) = p.canonical();
        let r = self.base.patterns.rank(&canon)?;
        let d = if negate { -d } else { d };
        let width = 2 * sum as u64 + 1;
        let slot = self.offsets[rank_subset(prizes) as usize] + r * width + (d + sum) as u64;
        Some(WinLookup::Stored { slot, negate })
    }

    /// The state stored at `slot`: (prize-set rank, pattern rank, score
    /// difference). `slot` must be below `len()`.
    pub fn state_at(&self, slot: u64) -> (u64, u64, i32) {
        let prize_rank = self.offsets.partition_point(|&o| o <= slot) as u64 - 1;
        let sum = prize_sum(unrank_subset(prize_rank, self.base.k as u32));
        let width = 2 * sum as u64 + 1;
        let within = slot - self.offsets[prize_rank as usize];
        (prize_rank, within / width, (within % width) as i32 - sum)
    }

    /// W for any pattern, prizes and difference (decided states included).
    pub fn value(
        &self,
        values: impl Fn(u64) -> f64,
        p: &Pattern,
        prizes: u64,
        d: i32,
    ) -> Option<f64> {
        Some(match self.locate(p, prizes, d)? {
            WinLookup::Decided(v) => v,
            WinLookup::Stored { slot, negate } => {
                let v = values(slot);
                if negate {
                    -v
                } else {
                    v
                }
            }
        })
    }
}

/// Where a win-objective value is.
pub enum WinLookup {
    /// Decided by the state alone (the difference outweighs the prizes left): the value.
    Decided(f64),
    /// Stored in the level's table.
    Stored {
        /// The slot.
        slot: u64,
        /// Whether the stored value is negated (the pattern was mirrored).
        negate: bool,
    },
}

#[cfg(any(test, feature = "internals"))]
/// Level k of the win objective from level k − 1 (`prev`, in its layout).
pub fn solve_level(
    level: &WinLevel,
    prev: &[f64],
    progress: &(impl Fn(u64) + Sync),
) -> (Vec<f64>, LevelStats) {
    let k = level.base.k;
    let below = WinLevel::new(level.base.cards, k - 1);
    let rows: Vec<&[f64]> = if k > 1 {
        assert_eq!(prev.len() as u64, below.len(), "level {} size", k - 1);
        (0..below.base.prize_sets as usize)
            .map(|r| &prev[below.offsets[r] as usize..below.offsets[r + 1] as usize])
            .collect()
    } else {
        vec![&[]]
    };
    solve_units(level, 0..level.base.len(), &rows, progress)
}

impl WinLevel {
    /// The first slot of unit `u` (unit = prize_rank · patterns +
    /// pattern_rank: one pattern of one prize set, every score difference);
    /// `u` = the number of units gives the length.
    pub fn unit_start(&self, u: u64) -> u64 {
        let np = self.base.patterns.len();
        let r = u / np;
        if r >= self.base.prize_sets {
            return self.len();
        }
        let width = 2 * prize_sum(unrank_subset(r, self.base.k as u32)) as u64 + 1;
        self.offsets[r as usize] + (u % np) * width
    }

    /// The slots of prize-set rank `r`'s block.
    pub fn block(&self, r: u64) -> Range<u64> {
        self.offsets[r as usize]..self.offsets[r as usize + 1]
    }
}

/// The values of the units `units` of level k of the win objective (their
/// slots `unit_start(units.start)..unit_start(units.end)`), from the level
/// below by prize set: `below[r]` is the block of prize-set rank r of level
/// k − 1 (empty where `level::rows_needed` is false, and for k = 1).
pub fn solve_units(
    level: &WinLevel,
    units: Range<u64>,
    below: &[&[f64]],
    progress: &(impl Fn(u64) + Sync),
) -> (Vec<f64>, LevelStats) {
    let k = level.base.k;
    let cards = level.base.cards;
    assert!((1..=MAX_CARDS).contains(&k));
    assert!(units.start <= units.end && units.end <= level.base.len());
    let below_level = Level::new(cards, k - 1);
    let np = level.base.patterns.len();
    let kids: Vec<Child> = (0..np)
        .into_par_iter()
        .flat_map_iter(|r| children(&level.base.patterns.unrank(r), &below_level.patterns))
        .collect();
    let first = level.unit_start(units.start);
    let mut values = vec![0.0f64; (level.unit_start(units.end) - first) as usize];
    let mut work: Vec<(u64, Range<u64>, &mut [f64])> = Vec::new();
    let mut rest: &mut [f64] = &mut values;
    for (prize_rank, patterns) in segments(&level.base, units) {
        let u = prize_rank * np;
        let size = level.unit_start(u + patterns.end) - level.unit_start(u + patterns.start);
        let (out, tail) = rest.split_at_mut(size as usize);
        work.push((prize_rank, patterns, out));
        rest = tail;
    }
    let stats = work
        .into_par_iter()
        .map(|(prize_rank, patterns, out)| {
            let mut st = LevelStats::default();
            let prizes = unrank_subset(prize_rank, k as u32);
            let sum = prize_sum(prizes);
            let width = 2 * sum as usize + 1;
            // Per upcard: its value, the remaining prizes' sum, and their
            // block in level k − 1.
            let mut upcards: [(i32, i32, &[f64]); MAX_CARDS] = [(0, 0, &[]); MAX_CARDS];
            let mut m = prizes;
            for u in upcards.iter_mut().take(k) {
                let bit = m.trailing_zeros();
                let rest = prizes & !(1 << bit);
                *u = (
                    bit as i32 + 1,
                    prize_sum(rest),
                    below[rank_subset(rest) as usize],
                );
                m &= m - 1;
            }
            let mut game = MatrixGame::new(k, k);
            let mut ws = Workspace::new();
            for (at, r) in (patterns.start as usize..patterns.end as usize).enumerate() {
                let cells = &kids[r * k * k..(r + 1) * k * k];
                for di in 0..width {
                    let d = di as i32 - sum;
                    let mut total = 0.0;
                    for &(p, rest_sum, block) in &upcards[..k] {
                        let rest_width = 2 * rest_sum as usize + 1;
                        for (i, row) in cells.chunks_exact(k).enumerate() {
                            for (j, c) in row.iter().enumerate() {
                                let nd = d + c.sign as i32 * p;
                                let v = if nd.abs() > rest_sum || k == 1 {
                                    nd.signum() as f64
                                } else {
                                    let (nd, s) = if c.negate { (-nd, -1.0) } else { (nd, 1.0) };
                                    s * block
                                        [c.rank as usize * rest_width + (nd + rest_sum) as usize]
                                };
                                game.set(i, j, v);
                            }
                        }
                        let (value, method, gap) = game.certified_value_with(&mut ws);
                        st.count(method, gap);
                        total += value;
                    }
                    out[at * width + di] = total / k as f64;
                    st.states += 1;
                }
            }
            progress(1);
            st
        })
        .reduce(LevelStats::default, LevelStats::add);
    (values, stats)
}

#[cfg(any(test, feature = "internals"))]
/// Every level 0..=cards in memory (tests, small N).
pub fn solve_all(cards: usize) -> Vec<Vec<f64>> {
    let mut levels = vec![vec![]];
    for k in 1..=cards {
        let (v, _) = solve_level(&WinLevel::new(cards, k), &levels[k - 1], &|_| {});
        levels.push(v);
    }
    levels
}
