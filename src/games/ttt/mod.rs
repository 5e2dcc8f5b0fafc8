//! Noughts and crosses and the m,n,k-games: every position reachable in
//! play, reduced to canonical templates under the board's symmetries and
//! solved by memoised minimax; one perfect-hashed table per board. The
//! classic machines (Michie's product rule, line scoring, MENACE) are
//! measured against the 3x3 table by the `ttt/machines` job.
//!
//! The folder: `jobs` (parameters, plan, the board tables), `query`
//! (positions, the 15 game, the machines report; table look-up), `play`,
//! `verify`, `board` (geometry, symmetries), `solve` (memoised minimax),
//! `search` (boards for the generic search engine; tests and benches
//! only), `pairing` (Hales–Jewett
//! pairings), `machines` and `menace` (the classic machines), `report`
//! (MENACE's learning curves as CSV and chart).

internal_mod!(board);
internal_mod!(defensive);
mod jobs;
internal_mod!(machines);
internal_mod!(menace);
internal_mod!(pairing);
mod play;
mod query;
mod report;
oracle_mod!(search);
internal_mod!(solve);
mod verify;

use super::error::GameError;
use super::game::{Game, PlayCommand, Plays, Queries};
use super::query::{Answer, QueryContext};
use crate::table::Table;
use anyhow::Result;
pub use board::{parse_board, render, Geometry, Position};
pub use jobs::{board_id, TttParams};
pub use play::{Machine, TttPlay};
pub use query::{lookup, table_geometry, TttQuery};
pub use solve::{solve, Solved};

/// Bumped whenever the solver's output could change; part of the parameter hash.
const SOLVER_VERSION: u32 = 1;

/// Noughts and crosses and the m,n,k-games (the registry's `ttt`).
pub struct Ttt;

impl Game for Ttt {
    fn name(&self) -> &'static str {
        "ttt"
    }

    fn planner(&self) -> Option<&dyn crate::pipeline::Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "noughts and crosses and m,n,k-games: value, distance and optimal moves of every reachable position; classic machines"
    }

    fn verify(&self, table: &Table) -> Result<(), GameError> {
        let check = || -> Result<()> {
            if table.meta().table == "machines" {
                return Ok(());
            }
            verify::verify_board(table)
        };
        check().map_err(GameError::from)
    }
}

impl Queries for Ttt {
    type Query = query::TttQuery;

    fn query(&self, q: &query::TttQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q, ctx).map_err(GameError::from)
    }

    fn player(&self) -> Option<&dyn PlayCommand> {
        Some(self)
    }
}

impl Plays for Ttt {
    type Play = TttPlay;

    fn play(
        &self,
        p: &TttPlay,
        _ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), GameError> {
        play::play(p, input, output).map_err(GameError::from)
    }
}
