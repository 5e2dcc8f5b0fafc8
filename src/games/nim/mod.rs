//! The Nim family: Bouton's Nim (normal and misère, all winning moves) and
//! Moore's Nim_k, answered from their proved digit rules (checked
//! exhaustively against `brute` in the tests). The take-at-most-half pile
//! game, which is tabulated, is its own game in `games/half`.
//!
//! The folder: `query`, `play` (NIMROD's rule), `bouton`, `moore`,
//! `brute` (the reference search).

internal_mod!(bouton);
internal_mod!(brute);
internal_mod!(moore);
mod play;
mod query;

use super::query::{Answer, QueryContext};
use super::{Game, PlayCommand, Plays, Queries};
use crate::pipeline::Job;
use crate::pipeline::Planner;
use anyhow::{bail, Result};
pub use bouton::{is_p, winning_moves};
pub use play::NimPlay;
pub use query::NimQuery;

/// The Nim family (the registry's `nim`): answered by formula, no tables.
pub struct Nim;

const MAX_HEAPS: usize = 100;

impl Planner for Nim {
    fn name(&self) -> &'static str {
        "nim"
    }
    fn plan(&self, source: &str, _section: &toml::Table) -> Result<Vec<Job>> {
        bail!(
            "{source}: [nim] has nothing to build: Nim is answered by formula (nimrod query nim …)"
        )
    }
}

impl Game for Nim {
    fn summary(&self) -> &'static str {
        "Bouton's Nim (normal, misère) and Moore's Nim_k: safe or not, winning moves"
    }
}

impl Queries for Nim {
    type Query = NimQuery;

    fn query(&self, q: &NimQuery, ctx: &QueryContext) -> Result<Answer> {
        query::answer(q, ctx)
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
    ) -> Result<()> {
        play::play(p, input, output)
    }
}
