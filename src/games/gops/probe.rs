//! Reading GOPS tables: which built level answers a game, the stored
//! value of a pattern, and the matrix game after an upcard from the values
//! below it. The query, the exploit search and play all read through here.

use super::level::Level;
use super::pattern::{Pattern, MAX_CARDS};
use super::win::{WinLevel, WinLookup};
use super::{level_id, win_level_id};
use crate::games::query::{open_table, QueryContext};
use crate::lp::MatrixGame;
use crate::pipeline::job::table_path;
use crate::table::Table;
use anyhow::{bail, Result};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
/// What a GOPS table optimises.
pub enum Objective {
    /// The expected score difference.
    Score,
    /// Winning the whole game: payoff +1, 0 or −1 on the sign of the final score difference.
    Win,
}

pub(super) fn members(mask: u32) -> Vec<u32> {
    (0..32)
        .filter(|b| mask >> b & 1 == 1)
        .map(|b| b + 1)
        .collect()
}

/// The tables that answer a game of `cards` cards at hand size k: those of
/// the smallest built N ≥ cards (every smaller game is a subgame).
pub(super) struct Tables {
    /// The N the tables were built for (≥ the game's).
    pub(super) built_for: usize,
    /// The level of the game's hand size.
    pub(super) level: Table,
    /// The level below it (none at k = 1).
    pub(super) below: Option<Table>,
}

pub(super) fn find_tables(
    ctx: &QueryContext,
    objective: Objective,
    cards: usize,
    k: usize,
) -> Result<Tables> {
    let level_id = match objective {
        Objective::Score => level_id,
        Objective::Win => win_level_id,
    };
    for built_for in cards..=MAX_CARDS {
        let id = level_id(built_for, k);
        let raw = table_path(&ctx.data_dir, &id);
        let packed = crate::table::job::packed_path(&raw);
        if raw.exists() || packed.exists() {
            let level = open_table(&ctx.data_dir, &id)?;
            let below = if k > 1 {
                Some(open_table(&ctx.data_dir, &level_id(built_for, k - 1))?)
            } else {
                None
            };
            return Ok(Tables {
                built_for,
                level,
                below,
            });
        }
    }
    let key = match objective {
        Objective::Score => "cards",
        Objective::Win => "win_cards",
    };
    Err(crate::games::error::NoTableFor {
        message: format!(
            "no GOPS table covers N = {cards} with {k} cards per hand in {}",
            ctx.data_dir.display()
        ),
        ids: (cards..=MAX_CARDS).map(|n| level_id(n, k)).collect(),
        data_dir: ctx.data_dir.clone(),
        otherwise: format!(
            "no shipped config builds it: write a config FILE with [gops] {key} = {cards} (or more) and run: nimrod build --config FILE --only gops --data {}",
            ctx.data_dir.display()
        ),
    }
    .into())
}

pub(super) fn stored(table: &Table, level: &Level, p: &Pattern, prizes: u32) -> Result<f64> {
    let Some((slot, negate)) = level.locate(p, prizes as u64) else {
        bail!("pattern {p} is not in {}", table.path().display());
    };
    let v = table.get::<f64>(slot)?;
    Ok(if negate { -v } else { v })
}

pub(super) fn stored_win(
    table: Option<&Table>,
    level: &WinLevel,
    p: &Pattern,
    prizes: u32,
    d: i32,
) -> Result<f64> {
    match level.locate(p, prizes as u64, d) {
        None => bail!("pattern {p} is not in the win tables"),
        Some(WinLookup::Decided(v)) => Ok(v),
        Some(WinLookup::Stored { slot, negate }) => {
            let Some(t) = table else {
                bail!("no win table holds pattern {p}");
            };
            let v = t.get::<f64>(slot)?;
            Ok(if negate { -v } else { v })
        }
    }
}

/// The bid matrix of a state: entry (i, j) from the child position after
/// player one bids his i-th card and player two her j-th, and the sign of
/// the comparison.
fn bid_matrix(
    mine: u32,
    theirs: u32,
    mut entry: impl FnMut(&Pattern, i32) -> Result<f64>,
) -> Result<MatrixGame> {
    let (my, their) = (members(mine), members(theirs));
    let mut g = MatrixGame::new(my.len(), their.len());
    for (i, &v) in my.iter().enumerate() {
        for (j, &y) in their.iter().enumerate() {
            let child = Pattern::from_hands(mine & !(1 << (v - 1)), theirs & !(1 << (y - 1)));
            g.set(i, j, entry(&child, (v as i32 - y as i32).signum())?);
        }
    }
    Ok(g)
}

/// The win-objective matrix game after `upcard` is turned.
pub(super) fn upcard_win_game(
    t: &Tables,
    mine: u32,
    theirs: u32,
    prizes: u32,
    d: i32,
    upcard: u32,
) -> Result<MatrixGame> {
    let rest = prizes & !(1 << (upcard - 1));
    let below = WinLevel::new(t.built_for, mine.count_ones() as usize - 1);
    bid_matrix(mine, theirs, |child, sign| {
        stored_win(
            t.below.as_ref(),
            &below,
            child,
            rest,
            d + sign * upcard as i32,
        )
    })
}

/// The matrix game after `upcard` is turned, payoffs to player one.
pub(super) fn upcard_game(
    t: &Tables,
    mine: u32,
    theirs: u32,
    prizes: u32,
    upcard: u32,
) -> Result<MatrixGame> {
    let rest = prizes & !(1 << (upcard - 1));
    let below = Level::new(t.built_for, mine.count_ones() as usize - 1);
    bid_matrix(mine, theirs, |child, sign| {
        let after = match &t.below {
            None => 0.0,
            Some(table) => stored(table, &below, child, rest)?,
        };
        Ok(sign as f64 * upcard as f64 + after)
    })
}
