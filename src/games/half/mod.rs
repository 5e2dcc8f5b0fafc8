//! The single-pile game where a move takes 1..=⌊n/2⌋ matches, in both
//! conventions. The table holds, per pile size, the smallest winning take
//! (0 for a safe position); the safe positions are read off the table.
//!
//! The folder: `jobs` (parameters, plan, the two tables), `query`,
//! `solve` (the solver and its reference).

mod jobs;
mod query;
internal_mod!(solve);

use super::error::GameError;
use super::game::{Game, Queries};
use super::query::{Answer, QueryContext};
use crate::table::Table;
use anyhow::{bail, ensure, Result};
pub use query::HalfQuery;
pub use solve::{brute_force, solve};

const SOLVER_VERSION: u32 = 1;
const MAX_BOUND: u64 = 1 << 32;
/// Safe positions listed in the statistics (they are sparse, so few).
const MAX_LISTED: usize = 200;

/// The take-at-most-half pile game (the registry's `half`).
pub struct Half;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// Who wins when no move is left.
pub enum Convention {
    /// Normal play: whoever cannot move loses.
    LastMoverWins,
    /// Misère play: whoever makes the last move loses.
    LastMoverLoses,
}

impl Convention {
    /// The job id (and table path) of this convention's table.
    pub fn table(self) -> &'static str {
        match self {
            Convention::LastMoverWins => "half/normal",
            Convention::LastMoverLoses => "half/last-loses",
        }
    }
}

impl Game for Half {
    fn name(&self) -> &'static str {
        "half"
    }

    fn planner(&self) -> Option<&dyn crate::pipeline::Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "single pile, take 1..⌊n/2⌋: safe positions in both conventions"
    }

    fn verify(&self, table: &Table) -> Result<(), GameError> {
        let check = || -> Result<()> {
            let conv = match table.meta().table.as_str() {
                "normal" => Convention::LastMoverWins,
                "last-loses" => Convention::LastMoverLoses,
                other => bail!("unknown half table {other:?}"),
            };
            let stored = table.read_range::<u32>(0, table.len())?;
            let check = stored.len().min(5000);
            let brute = brute_force(check as u64 - 1, conv);
            for n in 0..check {
                let safe = stored[n] == 0;
                ensure!(
                    safe == brute[n],
                    "pile {n}: table says safe={safe}, search says {}",
                    brute[n]
                );
            }
            Ok(())
        };
        check().map_err(GameError::from)
    }
}

impl Queries for Half {
    type Query = HalfQuery;

    fn query(&self, q: &HalfQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q, ctx).map_err(GameError::from)
    }
}
