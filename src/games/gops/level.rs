//! One level of the bottom-up solve: every state with k cards per hand,
//! from the values of level k − 1.
//!
//! Layout of a level: slot = prize_rank · patterns + pattern_rank, where the
//! prize set (a k-subset of 1..N, bit p−1 for prize p) is ranked in the
//! combinatorial number system and the pattern by `PatternSpace`.

use super::pattern::{Pattern, PatternSpace, MAX_CARDS};
use crate::lp::{MatrixGame, Method, Workspace};
use crate::table::rank::{binomial, rank_subset, unrank_subset};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Shape of one level.
#[derive(Clone, Debug)]
pub struct Level {
    /// Cards per suit N.
    pub cards: usize,
    /// Cards per hand at this level.
    pub k: usize,
    /// The level's canonical patterns.
    pub patterns: PatternSpace,
    /// Prize sets: k-subsets of 1..N.
    pub prize_sets: u64,
}

impl Level {
    /// Level k of N cards.
    pub fn new(cards: usize, k: usize) -> Level {
        Level {
            cards,
            k,
            patterns: PatternSpace::new(cards, k),
            prize_sets: binomial(cards as u64, k as u64).expect("small binomial"),
        }
    }
    /// Slots: patterns x prize sets.
    pub fn len(&self) -> u64 {
        self.patterns.len() * self.prize_sets
    }
    #[cfg(any(test, feature = "internals"))]
    /// Whether the level has no slot.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    #[inline]
    /// The slot of a canonical pattern's rank and a prize set (bit p-1 for prize p).
    pub fn slot(&self, pattern_rank: u64, prizes: u64) -> u64 {
        rank_subset(prizes) * self.patterns.len() + pattern_rank
    }
    /// Slot of any (not necessarily canonical) pattern and whether its
    /// stored value must be negated.
    pub fn locate(&self, p: &Pattern, prizes: u64) -> Option<(u64, bool)> {
        let (canon, neg) = p.canonical();
        let r = self.patterns.rank(&canon)?;
        Some((self.slot(r, prizes), neg))
    }
}

/// Counters recorded in the table metadata.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LevelStats {
    /// States solved.
    pub states: u64,
    /// Matrix games solved (states that are not decided by their shape).
    pub matrix_games: u64,
    /// Games with a saddle point.
    pub saddle_points: u64,
    /// Games solved in closed form as 2 x 2.
    pub two_by_two: u64,
    /// Games solved by a simplex (fallbacks included).
    pub simplex: u64,
    /// Simplex pivots over the level.
    pub pivots: u64,
    /// Games whose fast simplex failed its certificate and that Bland's
    /// rule from scratch solved.
    #[serde(default)]
    pub fallback_bland: u64,
    /// Games that only the exact rational simplex solved.
    #[serde(default)]
    pub fallback_exact: u64,
    /// Largest certificate gap (column guarantee minus row guarantee) over
    /// the level's games.
    #[serde(default)]
    pub worst_gap: f64,
}

impl LevelStats {
    pub(super) fn add(mut self, o: LevelStats) -> LevelStats {
        self.states += o.states;
        self.matrix_games += o.matrix_games;
        self.saddle_points += o.saddle_points;
        self.two_by_two += o.two_by_two;
        self.simplex += o.simplex;
        self.pivots += o.pivots;
        self.fallback_bland += o.fallback_bland;
        self.fallback_exact += o.fallback_exact;
        self.worst_gap = self.worst_gap.max(o.worst_gap);
        self
    }
    pub(super) fn count(&mut self, m: Method, gap: f64) {
        self.matrix_games += 1;
        self.worst_gap = self.worst_gap.max(gap);
        match m {
            Method::Saddle => self.saddle_points += 1,
            Method::TwoByTwo => self.two_by_two += 1,
            Method::Simplex { pivots } => {
                self.simplex += 1;
                self.pivots += pivots as u64;
            }
            Method::BlandRestart { pivots } => {
                self.simplex += 1;
                self.pivots += pivots as u64;
                self.fallback_bland += 1;
            }
            Method::Exact => {
                self.simplex += 1;
                self.fallback_exact += 1;
            }
        }
    }
}

/// Per pattern and bid pair (i, j): the child pattern's rank in level k−1,
/// whether its value is negated, and sign(V_i − Y_j).
#[derive(Clone, Copy, Default)]
pub(super) struct Child {
    pub rank: u32,
    pub negate: bool,
    pub sign: i8,
}

/// A `Child` as the fill uses it (see `solve_units`).
#[derive(Clone, Copy, Default)]
struct Decoded {
    rank: u32,
    negate: u64,
    sign: f64,
}

/// The payoffs of one upcard's game (prize `p`, values `row_below` of the
/// level below) from a state's decoded cells. `K` is the hand size compiled
/// in (the loops unroll; the solver does the same per size), or 0 to read
/// it from the game.
#[inline(always)]
fn fill_sized<const K: usize>(game: &mut MatrixGame, decoded: &[Decoded], row_below: &[f64], p: f64) {
    let k = if K > 0 { K } else { game.rows() };
    for (i, row) in decoded[..k * k].chunks_exact(k).enumerate() {
        let payoffs = &mut game.row_mut(i)[..k];
        for j in 0..k {
            let d = row[j];
            let v = row_below[d.rank as usize];
            payoffs[j] = d.sign * p + f64::from_bits(v.to_bits() ^ d.negate);
        }
    }
}

/// The matrix game of one upcard: payoffs to player one.
pub fn fill_matrix(
    game: &mut MatrixGame,
    pattern: &Pattern,
    prize: u32,
    child_value: impl Fn(&Pattern) -> f64,
) {
    let (one, two) = pattern.positions();
    let k = pattern.hand_size();
    for (i, &a) in one[..k].iter().enumerate() {
        for (j, &b) in two[..k].iter().enumerate() {
            let (a, b) = (a as usize, b as usize);
            let sign = (a as i32 - b as i32).signum() as f64;
            game.set(
                i,
                j,
                sign * prize as f64 + child_value(&pattern.without(a, b)),
            );
        }
    }
}

pub(super) fn children(pattern: &Pattern, prev: &PatternSpace) -> Vec<Child> {
    let (one, two) = pattern.positions();
    let k = pattern.hand_size();
    let mut out = Vec::with_capacity(k * k);
    for &a in &one[..k] {
        for &b in &two[..k] {
            let (canon, negate) = pattern.without(a as usize, b as usize).canonical();
            let rank = prev
                .rank(&canon)
                .expect("a child of a level-k word is a level-(k-1) word");
            out.push(Child {
                rank: rank as u32,
                negate,
                sign: (a as i32 - b as i32).signum() as i8,
            });
        }
    }
    out
}

/// Values of level k from those of level k − 1 (`prev`, in its layout).
/// `progress` is called with the number of prize sets done.
pub fn solve_level(
    level: &Level,
    prev: &[f64],
    progress: &(impl Fn(u64) + Sync),
) -> (Vec<f64>, LevelStats) {
    let below = Level::new(level.cards, level.k - 1);
    assert_eq!(prev.len() as u64, below.len(), "level {} size", level.k - 1);
    let rows: Vec<&[f64]> = prev.chunks(below.patterns.len() as usize).collect();
    solve_units(level, 0..level.len(), &rows, progress)
}

/// The prize-set ranks of level k − 1 that the states `units` of `level`
/// read (`needed[r]`): each prize set P of the range needs P less one
/// upcard. A part of a level reads only these rows of the level below.
pub fn rows_needed(level: &Level, units: Range<u64>) -> Vec<bool> {
    let below_sets = binomial(level.cards as u64, level.k as u64 - 1).expect("small binomial");
    let mut needed = vec![false; below_sets as usize];
    for (prize_rank, _) in segments(level, units) {
        let prizes = unrank_subset(prize_rank, level.k as u32);
        let mut m = prizes;
        while m != 0 {
            let bit = m.trailing_zeros();
            needed[rank_subset(prizes & !(1 << bit)) as usize] = true;
            m &= m - 1;
        }
    }
    needed
}

/// The states `units` (unit = prize_rank · patterns + pattern_rank) cut by
/// prize set: (prize rank, pattern ranks).
pub(super) fn segments(level: &Level, units: Range<u64>) -> Vec<(u64, Range<u64>)> {
    let np = level.patterns.len();
    let mut out = Vec::new();
    let mut u = units.start;
    while u < units.end {
        let prize_rank = u / np;
        let end = units.end.min((prize_rank + 1) * np);
        out.push((prize_rank, u - prize_rank * np..end - prize_rank * np));
        u = end;
    }
    out
}

/// Values of the states `units` of level k (slot = unit) from the level
/// below, given by prize set: `below[r]` holds the values of prize-set
/// rank r of level k − 1 (it may be empty where `rows_needed` is false).
/// `progress` is called once per prize set (or part of one) done. The
/// values do not depend on the range: a state's value is the same whether
/// solved in a part or in the whole level.
pub fn solve_units(
    level: &Level,
    units: Range<u64>,
    below: &[&[f64]],
    progress: &(impl Fn(u64) + Sync),
) -> (Vec<f64>, LevelStats) {
    let k = level.k;
    assert!((1..=MAX_CARDS).contains(&k));
    assert!(units.start <= units.end && units.end <= level.len());
    let below_level = Level::new(level.cards, k - 1);
    let np = level.patterns.len() as usize;
    let kids: Vec<Child> = (0..np as u64)
        .into_par_iter()
        .flat_map_iter(|r| children(&level.patterns.unrank(r), &below_level.patterns))
        .collect();
    let mut values = vec![0.0f64; (units.end - units.start) as usize];
    let mut work: Vec<(u64, Range<u64>, &mut [f64])> = Vec::new();
    let mut rest: &mut [f64] = &mut values;
    for (prize_rank, patterns) in segments(level, units) {
        let (out, tail) = rest.split_at_mut((patterns.end - patterns.start) as usize);
        work.push((prize_rank, patterns, out));
        rest = tail;
    }
    let stats = work
        .into_par_iter()
        .map(|(prize_rank, patterns, out)| {
            let mut st = LevelStats::default();
            let prizes = unrank_subset(prize_rank, k as u32);
            let mut upcards: [(u32, &[f64]); MAX_CARDS] = [(0, &[]); MAX_CARDS];
            let mut m = prizes;
            for u in upcards.iter_mut().take(k) {
                let bit = m.trailing_zeros();
                *u = (bit + 1, below[rank_subset(prizes & !(1 << bit)) as usize]);
                m &= m - 1;
            }
            let mut game = MatrixGame::new(k, k);
            let mut ws = Workspace::new();
            // A state's cells, decoded once for its k upcards: the child's
            // rank, its sign bit when its value is negated (flipping the
            // bit is what `-v` does), and sign(V_i − Y_j) as a float.
            let mut decoded = [Decoded::default(); MAX_CARDS * MAX_CARDS];
            for (r, slot) in (patterns.start as usize..).zip(out.iter_mut()) {
                let cells = &kids[r * k * k..(r + 1) * k * k];
                for (d, c) in decoded.iter_mut().zip(cells) {
                    *d = Decoded {
                        rank: c.rank,
                        negate: u64::from(c.negate) << 63,
                        sign: c.sign as f64,
                    };
                }
                let mut total = 0.0;
                for &(prize, row_below) in &upcards[..k] {
                    let p = prize as f64;
                    match k {
                        4 => fill_sized::<4>(&mut game, &decoded, row_below, p),
                        5 => fill_sized::<5>(&mut game, &decoded, row_below, p),
                        6 => fill_sized::<6>(&mut game, &decoded, row_below, p),
                        7 => fill_sized::<7>(&mut game, &decoded, row_below, p),
                        8 => fill_sized::<8>(&mut game, &decoded, row_below, p),
                        9 => fill_sized::<9>(&mut game, &decoded, row_below, p),
                        10 => fill_sized::<10>(&mut game, &decoded, row_below, p),
                        11 => fill_sized::<11>(&mut game, &decoded, row_below, p),
                        12 => fill_sized::<12>(&mut game, &decoded, row_below, p),
                        13 => fill_sized::<13>(&mut game, &decoded, row_below, p),
                        _ => fill_sized::<0>(&mut game, &decoded, row_below, p),
                    }
                    let (value, method, gap) = game.certified_value_with(&mut ws);
                    st.count(method, gap);
                    total += value;
                }
                *slot = total / k as f64;
                st.states += 1;
            }
            progress(1);
            st
        })
        .reduce(LevelStats::default, LevelStats::add);
    (values, stats)
}

/// Every level 0..=cards in memory (for tests and small N).
pub fn solve_all(cards: usize) -> Vec<Vec<f64>> {
    let mut levels = vec![vec![0.0]];
    for k in 1..=cards {
        let (v, _) = solve_level(&Level::new(cards, k), &levels[k - 1], &|_| {});
        levels.push(v);
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_card_each() {
        // Level 1: a tie is worth 0; the higher card wins the prize.
        let levels = solve_all(4);
        let l1 = Level::new(4, 1);
        for prize in 1..=4u32 {
            for mine in 1..=4u32 {
                for theirs in 1..=4u32 {
                    let p = Pattern::from_hands(1 << (mine - 1), 1 << (theirs - 1));
                    let (slot, neg) = l1.locate(&p, 1 << (prize - 1)).unwrap();
                    let v = levels[1][slot as usize] * if neg { -1.0 } else { 1.0 };
                    let expect = (mine as i32 - theirs as i32).signum() as f64 * prize as f64;
                    assert_eq!(v, expect);
                }
            }
        }
    }

    #[test]
    fn equal_hands_are_worth_nothing() {
        let levels = solve_all(6);
        for (k, values) in levels.iter().enumerate().skip(1) {
            let l = Level::new(6, k);
            let all_c = l
                .patterns
                .rank(&Pattern::from_hands((1 << k) - 1, (1 << k) - 1));
            assert_eq!(all_c, Some(0));
            for prize_rank in 0..l.prize_sets {
                let v = values[(prize_rank * l.patterns.len()) as usize];
                assert!(v.abs() < 1e-9, "k={k}: {v}");
            }
        }
    }
}
