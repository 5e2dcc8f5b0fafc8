//! The Nim family: Bouton's Nim (normal and misère, all winning moves) and
//! Moore's Nim_k, answered from their proved digit rules (checked
//! exhaustively against `brute` in the tests). The take-at-most-half pile
//! game, which is tabulated, is its own game in `games/half`.
//!
//! The folder: `query`, `play` (NIMROD's rule), `bouton`, `moore`,
//! `brute` (the reference search).

internal_mod!(bouton);
oracle_mod!(brute);
internal_mod!(moore);
mod play;
mod query;

use super::error::GameError;
use super::game::{Game, PlayCommand, Plays, Queries};
use super::query::{Answer, QueryContext};
use anyhow::Result;
pub use bouton::{is_p, winning_moves};
pub use play::NimPlay;
pub use query::NimQuery;

/// The Nim family (the registry's `nim`): answered by formula, no tables.
pub struct Nim;

const MAX_HEAPS: usize = 100;

impl Game for Nim {
    fn name(&self) -> &'static str {
        "nim"
    }

    fn summary(&self) -> &'static str {
        "Bouton's Nim (normal, misère) and Moore's Nim_k: safe or not, winning moves"
    }
}

impl Queries for Nim {
    type Query = NimQuery;

    fn query(&self, q: &NimQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q, ctx).map_err(GameError::from)
    }

    fn player(&self) -> Option<&dyn PlayCommand> {
        Some(self)
    }
}

impl Plays for Nim {
    type Play = NimPlay;

    fn play(
        &self,
        p: &NimPlay,
        _ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), GameError> {
        play::play(p, input, output).map_err(GameError::from)
    }
}
