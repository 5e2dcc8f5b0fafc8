//! Isaacs' Guess It (1955): the bluffing card game, solved exactly for all
//! hand sizes up to `max_hand` by the recursion over hand sizes. One table,
//! ranked by (m, n): f64 win probability, bluff and call probabilities; the
//! exact rationals are in the metadata.

mod jobs;
mod query;
pub mod solve;

use super::query::{from_matches, Answer, QueryContext};
use super::Game;
use anyhow::Result;
pub use jobs::GuessItParams;

/// Version 2: ties between optimal strategies broken towards the ask/bluff
/// mixture that a strategy card describes (issue 15).
const SOLVER_VERSION: u32 = 2;
/// Largest hand size accepted: the exact rationals' digits grow so fast
/// that each extra card costs about 5x the time (13: 8 s, 14: ~40 s).
const MAX_HAND: usize = 16;

pub struct GuessIt;

/// Entries per state: value, guess, ask, bluff, call.
pub(super) const FIELDS: usize = 5;

impl Game for GuessIt {
    fn summary(&self) -> &'static str {
        "Isaacs' Guess It: win probability and optimal bluffing and calling for every pair of hand sizes"
    }

    fn query_command(&self) -> clap::Command {
        <query::GuessItQuery as clap::CommandFactory>::command()
    }

    fn query(&self, args: &clap::ArgMatches, ctx: &QueryContext) -> Result<Answer> {
        query::answer(&from_matches(args)?, ctx)
    }
}
