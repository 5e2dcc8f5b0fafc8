//! GOPS (Goofspiel), solved bottom-up by hand size. Level k holds f(V, Y, P)
//! for every canonical hand pattern and every k-subset P of prizes; each
//! level is one table (and one checkpoint), and splits into parts.
//! Strategies are not stored: a query re-solves the one matrix game per
//! upcard from the stored values of level k − 1.
//!
//! The folder: `jobs` (parameters, plan, building a level whole or in
//! parts, the merge), `level` and `win` (the solve of one level, by
//! objective), `pattern` (hand patterns and their ranking), `query`,
//! `play`, `verify` (a table's invariants), `recheck` (re-solving stored
//! games).

internal_mod!(exploit);
mod jobs;
internal_mod!(level);
internal_mod!(pattern);
mod play;
mod probe;
mod query;
internal_mod!(recheck);
mod verify;
internal_mod!(win);

use super::error::GameError;
use super::game::{Game, PlayCommand, Plays, Queries, VerifyDepth, VerifyNote};
use super::query::{Answer, QueryContext};
use crate::table::Table;
use anyhow::Result;
pub use jobs::{level_id, win_level_id, GopsParams};
pub use level::solve_all;
pub use play::GopsPlay;
pub use probe::Objective;
pub use query::GopsQuery;

/// Bumped whenever the solver's output could change; part of the parameter hash.
/// Version 2: every matrix game certified, with fallbacks (issue 15).
const SOLVER_VERSION: u32 = 2;
/// GOPS (Goofspiel) (the registry's `gops`).
pub struct Gops;

impl Game for Gops {
    fn name(&self) -> &'static str {
        "gops"
    }

    fn planner(&self) -> Option<&dyn crate::pipeline::Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "GOPS (Goofspiel): expected score difference and optimal mixed bids for every subgame"
    }

    fn verify(&self, table: &Table) -> Result<(), GameError> {
        verify::verify_level(table).map_err(GameError::from)
    }

    fn verify_deep(
        &self,
        table: &Table,
        depth: &VerifyDepth,
    ) -> Result<Option<VerifyNote>, GameError> {
        verify::verify_level(table)?;
        let report = verify::recheck_level(table, depth)?;
        Ok(Some(VerifyNote {
            text: report.to_string(),
            json: serde_json::to_value(&report).map_err(anyhow::Error::from)?,
        }))
    }
}

impl Queries for Gops {
    type Query = query::GopsQuery;

    fn query(&self, q: &query::GopsQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q, ctx).map_err(GameError::from)
    }

    fn player(&self) -> Option<&dyn PlayCommand> {
        Some(self)
    }
}

impl Plays for Gops {
    type Play = play::GopsPlay;

    fn play(
        &self,
        p: &play::GopsPlay,
        ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), GameError> {
        play::play(p, ctx, input, output).map_err(GameError::from)
    }
}
