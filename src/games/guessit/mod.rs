//! Isaacs' Guess It (1955): the bluffing card game, solved exactly for all
//! hand sizes up to `max_hand` by the recursion over hand sizes. One table,
//! ranked by (m, n): f64 win probability, bluff and call probabilities; the
//! exact rationals are in the metadata.
//!
//! The folder: `jobs` (parameters, plan, the table), `query`, `play`
//! (against the optimal mixed strategy), `solve` (the recursion, exact and
//! f64).

mod jobs;
mod play;
mod query;
internal_mod!(solve);

use super::error::GameError;
use super::game::{Game, PlayCommand, Plays, Queries};
use super::query::{Answer, QueryContext};
use anyhow::Result;
pub use jobs::GuessItParams;
pub use play::GuessItPlay;
pub use query::GuessItQuery;
pub use solve::{solve_all, value_f64};

/// Version 2: ties between optimal strategies broken towards the ask/bluff
/// mixture that a strategy card describes (issue 15).
const SOLVER_VERSION: u32 = 2;
/// Largest hand size accepted: the exact rationals' digits grow so fast
/// that each extra card costs about 5x the time (13: 8 s, 14: ~40 s).
const MAX_HAND: usize = 16;

/// Isaacs' Guess It (the registry's `guessit`).
pub struct GuessIt;

/// Entries per state: value, guess, ask, bluff, call.
pub(super) const FIELDS: usize = 5;

impl Game for GuessIt {
    fn name(&self) -> &'static str {
        "guessit"
    }

    fn planner(&self) -> Option<&dyn crate::pipeline::Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "Isaacs' Guess It: win probability and optimal bluffing and calling for every pair of hand sizes"
    }
}

impl Queries for GuessIt {
    type Query = query::GuessItQuery;

    fn query(&self, q: &query::GuessItQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q, ctx).map_err(GameError::from)
    }

    fn player(&self) -> Option<&dyn PlayCommand> {
        Some(self)
    }
}

impl Plays for GuessIt {
    type Play = GuessItPlay;

    fn play(
        &self,
        p: &GuessItPlay,
        _ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), GameError> {
        play::play(p, input, output).map_err(GameError::from)
    }
}
