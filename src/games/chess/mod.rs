//! Chess endgame tables by retrograde analysis: every position of a material
//! signature with both sides to move, exact distance to mate, one byte each
//! (two where a table's distances need it; see `value`).
//! No castling and no en passant (as in the public tablebases).
//!
//! The folder: `jobs` (parameters, plan, building a table), `query` and
//! `bulk` (a file of FENs), `play`, `verify`, the rules (`bitboard`,
//! `board`, `moves`, `unmoves`, `fen`, `san`, `full` for castling and en
//! passant), the tables
//! (`material`, `index`, `value`, `cells`, `solve`, `sweep` and its
//! `checkpoint`, `probe`) and `engine`
//! (search beyond the tables).

internal_mod!(bitboard);
internal_mod!(board);
internal_mod!(bulk);
mod cells;
mod checkpoint;
internal_mod!(engine);
mod fen;
internal_mod!(full);
internal_mod!(index);
mod jobs;
pub mod lichess;
internal_mod!(material);
mod moves;
internal_mod!(play);
internal_mod!(probe);
internal_mod!(query);
mod san;
pub mod ship;
internal_mod!(solve);
oracle_mod!(
    /// The count-down solver, the sweeps' second opinion.
    countdown
);
internal_mod!(sweep);
mod unmoves;
internal_mod!(value);
mod verify;

use super::error::GameError;
use super::game::{Game, PlayCommand, Plays, Queries};
use super::query::{Answer, QueryContext};
use crate::table::Table;
use anyhow::Result;
pub use board::{Board, Color, Role};
pub use jobs::{closure, ChessParams};
pub use material::{Material, MaterialError};
pub use play::ChessPlay;
pub use probe::{table_id, Tablebase};
pub use query::{table_materials, ChessQuery};
pub use value::Value;

const SOLVER_VERSION: u32 = 2;
/// The most pieces (kings included) a table may have.
pub const MAX_PIECES: u32 = 6;

/// Chess endgames (the registry's `chess`).
pub struct Chess;

impl Game for Chess {
    fn name(&self) -> &'static str {
        "chess"
    }

    fn planner(&self) -> Option<&dyn crate::pipeline::Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "chess endgames by retrograde analysis: win/draw/loss and distance to mate, both sides to move"
    }

    fn verify(&self, table: &Table) -> Result<(), GameError> {
        verify::verify_table(table).map_err(GameError::from)
    }

    /// A probe, and each move a query rates, lands anywhere in a table, and
    /// a miss decompresses a whole frame: on KQRvKR a random probe of a
    /// packed table takes about 14 µs with 4 KiB frames against 38 µs with
    /// 16 KiB and milliseconds with the default 256 KiB, for 22% more bytes
    /// than 256 KiB frames over the 3-5 piece tables measured
    /// (benches/results/chess/2026-11-29-bulk.txt).
    fn packed_frame_size(&self) -> usize {
        4 << 10
    }

    fn ship(
        &self,
        table: &Table,
        out: &std::path::Path,
        block: usize,
        codec: crate::table::shipped::Codec,
        reduced: bool,
    ) -> Option<Result<String>> {
        let form = if reduced {
            ship::Form::Wdl
        } else {
            ship::Form::Dtm
        };
        Some(ship::ship_table(table, out, block, codec, form).map(|s| {
            let side = if s.kept == Color::White {
                "white"
            } else {
                "black"
            };
            let fill = match s.fill {
                ship::Fill::Previous => "previous",
                ship::Fill::Up => "up",
            };
            let kept = match s.form {
                ship::Form::Dtm => "",
                ship::Form::Wdl => ", win/draw/loss only",
            };
            format!("{side} to move stored, {fill} fill{kept}")
        }))
    }

    fn restore(&self, shipped: &crate::table::ShippedTable) -> Result<Vec<u8>> {
        ship::restore_payload(shipped)
    }
}

impl Queries for Chess {
    type Query = query::ChessQuery;

    fn query(&self, q: &query::ChessQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q, ctx).map_err(GameError::from)
    }

    fn player(&self) -> Option<&dyn PlayCommand> {
        Some(self)
    }
}

impl Plays for Chess {
    type Play = play::ChessPlay;

    fn play(
        &self,
        p: &play::ChessPlay,
        ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), GameError> {
        play::play(p, ctx, input, output).map_err(GameError::from)
    }
}
