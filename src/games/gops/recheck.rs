//! `nimrod verify` for GOPS levels: re-solves the matrix games of stored
//! states from the level below and checks each answer's certificate
//! independently (the strategies' guarantees computed here, not taken from
//! the solver), and that the stored value lies in the range the
//! certificates prove. Every state with `--all`, else a seeded sample.

use super::level::Level;
use super::pattern::Pattern;
use super::win::WinLevel;
use crate::lp::{MatrixGame, Workspace, GAP_TOLERANCE};
use crate::rng::SplitMix64;
use crate::table::rank::unrank_subset;
use crate::table::Table;
use anyhow::{bail, ensure, Result};
use rayon::prelude::*;
use serde::Serialize;
use std::cell::RefCell;

/// Which states `verify` re-solves.
#[derive(Clone, Copy, Debug)]
pub struct RecheckScope {
    /// Every state of the level.
    pub all: bool,
    /// Otherwise this many states drawn with replacement…
    pub sample: u64,
    /// …by SplitMix64 from this seed.
    pub seed: u64,
}

/// What a re-check found (all within tolerance, or it is an error).
#[derive(Clone, Debug, Default, Serialize)]
pub struct RecheckReport {
    /// States re-solved.
    pub states_checked: u64,
    /// States in the level.
    pub states_in_level: u64,
    /// Whether a sample was checked (not every state).
    pub sampled: bool,
    /// The sample's seed.
    pub seed: u64,
    /// Matrix games re-solved.
    pub games_checked: u64,
    /// Largest column guarantee minus row guarantee over the games.
    pub worst_gap: f64,
    /// Largest |stored value − re-solved value| over the states.
    pub worst_difference: f64,
}

impl std::fmt::Display for RecheckReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let scope = if self.sampled {
            format!(
                "a sample drawn from {} states, seed {}",
                self.states_in_level, self.seed
            )
        } else {
            "every state".to_string()
        };
        write!(
            f,
            "re-solved {} matrix games of {} states ({scope}); worst certificate gap {:.3e}, worst |stored - re-solved| {:.3e}",
            self.games_checked, self.states_checked, self.worst_gap, self.worst_difference
        )
    }
}

/// The objective a level solves, with its shape and that of the level
/// below (built once: a level's shape holds ranking tables).
pub enum Objective {
    /// The score objective: this level and the one below.
    Score(Level, Level),
    /// The win objective: this level and the one below.
    Win(WinLevel, WinLevel),
}

impl Objective {
    /// The score objective at level k of N cards.
    pub fn score(cards: usize, k: usize) -> Objective {
        Objective::Score(Level::new(cards, k), Level::new(cards, k - 1))
    }
    /// The win objective at level k of N cards.
    pub fn win(cards: usize, k: usize) -> Objective {
        Objective::Win(WinLevel::new(cards, k), WinLevel::new(cards, k - 1))
    }
}

/// Re-solves the chosen states of `level` (values in `t`) from `below`
/// (None at k = 1, whose children are all final).
pub fn recheck(
    t: &Table,
    below: Option<&Table>,
    objective: &Objective,
    scope: RecheckScope,
) -> Result<RecheckReport> {
    let len = t.len();
    let slots: Vec<u64> = if scope.all || scope.sample >= len {
        (0..len).collect()
    } else {
        let mut rng = SplitMix64::new(scope.seed);
        (0..scope.sample).map(|_| rng.below(len)).collect()
    };
    let per_state = slots
        .par_chunks(4096)
        .map(|chunk| -> Result<RecheckReport> {
            let mut r = RecheckReport::default();
            let mut ws = Workspace::new();
            for &slot in chunk {
                let stored = t.get::<f64>(slot)?;
                let (lo, hi, value, games, gap) = match objective {
                    Objective::Score(level, prev) => {
                        score_state(level, prev, below, slot, &mut ws)?
                    }
                    Objective::Win(level, prev) => win_state(level, prev, below, slot, &mut ws)?,
                };
                let tol = GAP_TOLERANCE * (1.0 + stored.abs().max(value.abs()));
                ensure!(
                    stored >= lo - tol && stored <= hi + tol,
                    "slot {slot}: stored value {stored} lies outside [{lo}, {hi}], the range its re-solved matrix games prove (re-solved value {value})"
                );
                r.states_checked += 1;
                r.games_checked += games;
                r.worst_gap = r.worst_gap.max(gap);
                r.worst_difference = r.worst_difference.max((stored - value).abs());
            }
            Ok(r)
        })
        .collect::<Result<Vec<_>>>()?;
    let mut report = RecheckReport {
        states_in_level: len,
        sampled: !(scope.all || scope.sample >= len),
        seed: scope.seed,
        ..Default::default()
    };
    for r in per_state {
        report.states_checked += r.states_checked;
        report.games_checked += r.games_checked;
        report.worst_gap = report.worst_gap.max(r.worst_gap);
        report.worst_difference = report.worst_difference.max(r.worst_difference);
    }
    Ok(report)
}

/// Solves `g` and checks the answer independently: returns (what the row
/// strategy guarantees, what the column strategy concedes, value).
fn certified(
    g: &MatrixGame,
    ws: &mut Workspace,
    what: &dyn Fn() -> String,
) -> Result<(f64, f64, f64)> {
    let s = g.solve_with(ws);
    let (m, n) = (g.rows(), g.cols());
    for (who, p) in [("row", &s.row[..m]), ("column", &s.col[..n])] {
        let sum: f64 = p.iter().sum();
        ensure!(
            p.iter().all(|&x| x >= 0.0) && (sum - 1.0).abs() <= GAP_TOLERANCE,
            "{}: the {who} strategy is not a probability vector ({p:?})",
            what()
        );
    }
    let (lo, hi) = (g.row_guarantee(&s.row), g.col_guarantee(&s.col));
    let tol = GAP_TOLERANCE * g.scale();
    ensure!(
        hi - lo <= tol && s.value >= lo - tol && s.value <= hi + tol,
        "{}: certificate fails: row guarantee {lo}, column guarantee {hi}, value {}",
        what(),
        s.value
    );
    Ok((lo, hi, s.value))
}

/// A state's re-check: (lower, upper, value) averaged over its upcards,
/// games solved, worst gap.
type StateCheck = (f64, f64, f64, u64, f64);

/// Sums the certified (lower, upper, value) of a state's upcard games.
#[derive(Default)]
struct UpcardSum {
    lower: f64,
    upper: f64,
    value: f64,
    worst_gap: f64,
}

impl UpcardSum {
    fn add(&mut self, (lower, upper, value): (f64, f64, f64)) {
        self.lower += lower;
        self.upper += upper;
        self.value += value;
        self.worst_gap = self.worst_gap.max(upper - lower);
    }
    /// The state's average over its k upcards.
    fn mean(&self, k: usize) -> StateCheck {
        let kf = k as f64;
        (
            self.lower / kf,
            self.upper / kf,
            self.value / kf,
            k as u64,
            self.worst_gap,
        )
    }
}

fn score_state(
    level: &Level,
    prev: &Level,
    below: Option<&Table>,
    slot: u64,
    ws: &mut Workspace,
) -> Result<StateCheck> {
    let np = level.patterns.len();
    let (prize_rank, r) = (slot / np, slot % np);
    let k = level.k;
    let prizes = unrank_subset(prize_rank, k as u32);
    let pattern = level.patterns.unrank(r);
    let mut g = MatrixGame::new(k, k);
    let mut sum = UpcardSum::default();
    for bit in (0..level.cards).filter(|b| prizes >> b & 1 == 1) {
        let rest = prizes & !(1 << bit);
        // fill_matrix takes an infallible closure; the first read error is
        // kept aside and returned after it.
        let failed = RefCell::new(None);
        super::level::fill_matrix(&mut g, &pattern, bit as u32 + 1, |child| {
            child_value(below, prev, child, rest).unwrap_or_else(|e| {
                *failed.borrow_mut() = Some(e);
                0.0
            })
        });
        if let Some(e) = failed.into_inner() {
            return Err(e);
        }
        let what = || format!("{pattern}, prizes {prizes:#b}, upcard {}", bit + 1);
        sum.add(certified(&g, ws, &what)?);
    }
    Ok(sum.mean(k))
}

fn child_value(below: Option<&Table>, prev: &Level, child: &Pattern, prizes: u64) -> Result<f64> {
    let Some(t) = below else { return Ok(0.0) };
    let Some((slot, negate)) = prev.locate(child, prizes) else {
        bail!("pattern {child} has no slot in the level below");
    };
    let v = t.get::<f64>(slot)?;
    Ok(if negate { -v } else { v })
}

fn win_state(
    level: &WinLevel,
    prev: &WinLevel,
    below: Option<&Table>,
    slot: u64,
    ws: &mut Workspace,
) -> Result<StateCheck> {
    let (prize_rank, r, d) = level.state_at(slot);
    let k = level.base.k;
    let prizes = unrank_subset(prize_rank, k as u32);
    let pattern = level.base.patterns.unrank(r);
    let (one, two) = pattern.positions();
    let mut g = MatrixGame::new(k, k);
    let mut sum = UpcardSum::default();
    for bit in (0..level.base.cards).filter(|b| prizes >> b & 1 == 1) {
        let rest = prizes & !(1 << bit);
        let prize = bit as i32 + 1;
        for (i, &a) in one[..k].iter().enumerate() {
            for (j, &b) in two[..k].iter().enumerate() {
                let child = pattern.without(a as usize, b as usize);
                let nd = d + (a as i32 - b as i32).signum() * prize;
                let err = RefCell::new(None);
                let v = prev.value(
                    |s| match below {
                        Some(t) => t.get::<f64>(s).unwrap_or_else(|e| {
                            *err.borrow_mut() = Some(anyhow::Error::from(e));
                            0.0
                        }),
                        None => {
                            *err.borrow_mut() =
                                Some(anyhow::anyhow!("level 0 of the win objective has no table"));
                            0.0
                        }
                    },
                    &child,
                    rest,
                    nd,
                );
                if let Some(e) = err.into_inner() {
                    return Err(e);
                }
                let Some(v) = v else {
                    bail!("pattern {child} has no slot in the level below");
                };
                g.set(i, j, v);
            }
        }
        let what = || format!("{pattern}, prizes {prizes:#b}, difference {d}, upcard {prize}");
        sum.add(certified(&g, ws, &what)?);
    }
    Ok(sum.mean(k))
}
