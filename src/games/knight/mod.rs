//! The knight's tour by the rule of thumb the games chapter gives for a
//! person (`../shared/seeds/000_…`, Introduction): "Starting in a corner
//! move anticlockwise round the board, always moving to unvisited squares
//! as close to the edge as possible. At move (13-14) reverse to a
//! clockwise direction etc." The text says a person following it succeeds
//! about half the time; its Fig. 1.1 (a successful tour) is lost.
//!
//! The rule is "sloppy language" on purpose: `tour` makes it precise in
//! the few ways it can be read ([`Reading`]), and simulates each with
//! random tie-breaks beside Warnsdorff's rule and a random walk. Nothing
//! is built: the answers are simulations, seeded.
//!
//! The folder: `tour` (the board, the rules, one tour), `query`.

internal_mod!(tour);
mod query;

use super::error::GameError;
use super::game::{Game, Queries};
use super::query::{Answer, QueryContext};
use anyhow::Result;
pub use query::KnightQuery;
pub use tour::{Reading, Rule};

/// The knight's tour (the registry's `knight`): simulated, no tables.
pub struct Knight;

impl Game for Knight {
    fn name(&self) -> &'static str {
        "knight"
    }

    fn summary(&self) -> &'static str {
        "the knight's tour by the chapter's rule of thumb, Warnsdorff's rule or at random: a tour, or a success rate"
    }
}

impl Queries for Knight {
    type Query = KnightQuery;

    fn query(&self, q: &KnightQuery, _ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q).map_err(GameError::from)
    }
}
