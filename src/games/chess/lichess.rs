//! A position's answer in the shape of the lichess tablebase API
//! (`GET /standard`, `GET /standard/mainline`), so that a client written
//! for that service reads nimrod's tables unchanged. Its fields and signs
//! are that API's; what differs (no DTZ, the mainline is the DTM line) is
//! in docs/serve.md.

use super::board::{Board, Color, Role};
use super::material::Material;
use super::probe::{table_id, Tablebase};
use super::query::{dtm_plies, position_value, principal_variation, rated_moves};
use super::value::Value;
use super::MAX_PIECES;
use serde::Serialize;

/// Why a position got no answer: the request's fault (a malformed FEN, a
/// position the tables do not cover) or a table's (missing, damaged).
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// The FEN does not parse, or is not a position the tables hold
    /// (castling rights, too many pieces).
    #[error("{0}")]
    BadPosition(String),
    /// A table the position needs (`chess/KQRvKR`) is not in the data
    /// directory.
    #[error("table {0} is not in the data directory")]
    MissingTable(String),
    /// A table could not be read.
    #[error("{0}")]
    Table(String),
}

/// The outcome for the side to move, as the API names it (without the
/// 50-move rule every win is a `win`: the `cursed-win`, `blessed-loss` and
/// `maybe-*` categories never occur).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// The side to move mates.
    Win,
    /// Neither side can force mate.
    Draw,
    /// The side to move is mated.
    Loss,
}

impl Category {
    fn of(v: Value) -> Category {
        match v {
            Value::Win(_) => Category::Win,
            Value::Draw => Category::Draw,
            Value::Loss(_) => Category::Loss,
        }
    }
}

/// What the API says of a position, the one asked about or one a move
/// reaches (flattened into both, as the API lays them out).
#[derive(Debug, Serialize)]
pub struct PositionInfo {
    /// Distance to zeroing: null, nimrod stores none.
    pub dtz: Option<i32>,
    /// Null, as `dtz`.
    pub precise_dtz: Option<i32>,
    /// Plies to mate with best play, positive when the side to move wins,
    /// negative when it loses; 0 for a draw, null when already mated.
    pub dtm: Option<i64>,
    /// The side to move is mated.
    pub checkmate: bool,
    /// The side to move has no move and is not in check.
    pub stalemate: bool,
    /// Always false (standard chess).
    pub variant_win: bool,
    /// Always false (standard chess).
    pub variant_loss: bool,
    /// Neither side has mating material.
    pub insufficient_material: bool,
    /// The outcome for the side to move.
    pub category: Category,
}

/// `GET /standard`: the position and each legal move.
#[derive(Debug, Serialize)]
pub struct Standard {
    /// The position.
    #[serde(flatten)]
    pub position: PositionInfo,
    /// Every legal move, best first for the side to move.
    pub moves: Vec<StandardMove>,
}

/// One move of [`Standard`]: the position it leads to, for the side to
/// move there (a winning move is a `loss` for the opponent).
#[derive(Debug, Serialize)]
pub struct StandardMove {
    /// The move in UCI (`h7h8q`).
    pub uci: String,
    /// The move in SAN (`h8=Q+`).
    pub san: String,
    /// A capture or a pawn move (resets the 50-move count).
    pub zeroing: bool,
    /// The position reached, for the side then to move.
    #[serde(flatten)]
    pub reached: PositionInfo,
}

/// `GET /standard/mainline`: best play to mate.
#[derive(Debug, Serialize)]
pub struct Mainline {
    /// Null (no DTZ stored).
    pub dtz: Option<i32>,
    /// Null (no DTZ stored).
    pub precise_dtz: Option<i32>,
    /// Plies to mate from the position, signed as in [`Standard`].
    pub dtm: Option<i64>,
    /// The moves of the DTM line (empty for a draw), each with the
    /// position's `dtm` after it.
    pub mainline: Vec<MainlineMove>,
    /// `"w"`, `"b"`, or null for a draw.
    pub winner: Option<&'static str>,
}

/// One move of a [`Mainline`].
#[derive(Debug, Serialize)]
pub struct MainlineMove {
    /// UCI.
    pub uci: String,
    /// SAN.
    pub san: String,
    /// Null (no DTZ stored).
    pub dtz: Option<i32>,
    /// Null (no DTZ stored).
    pub precise_dtz: Option<i32>,
    /// Plies to mate after the move, signed for the side then to move (an
    /// addition to the API's fields).
    pub dtm: Option<i64>,
}

/// The value of the position a move reaches, for the side to move there,
/// from the move's value for the mover (the inverse of `before_move`).
fn reached(for_mover: Value) -> Value {
    match for_mover {
        Value::Win(m) => Value::Loss(m - 1),
        Value::Loss(m) => Value::Win(m),
        Value::Draw => Value::Draw,
    }
}

/// DTM as the API gives it (from Gaviota's tables): signed plies, 0 for a
/// draw, null for a position already mated (Gaviota keeps 0 for draws).
fn dtm(v: Value) -> Option<i64> {
    match v {
        Value::Draw => Some(0),
        Value::Loss(0) => None,
        v => Some(dtm_plies(v)),
    }
}

/// Neither side can mate: bare kings, or kings with one knight or bishop,
/// or kings with bishops all on squares of one colour.
pub fn insufficient_material(b: &Board) -> bool {
    let heavy = [Role::Pawn, Role::Rook, Role::Queen]
        .iter()
        .any(|&r| b.by_role[r as usize] != 0);
    if heavy {
        return false;
    }
    let knights = b.by_role[Role::Knight as usize];
    let bishops = b.by_role[Role::Bishop as usize];
    const LIGHT: u64 = 0x55aa_55aa_55aa_55aa;
    match (knights.count_ones(), bishops.count_ones()) {
        (0, 0) | (1, 0) | (0, 1) => true,
        (0, _) => bishops & LIGHT == 0 || bishops & !LIGHT == 0,
        _ => false,
    }
}

/// Parses a FEN as the API takes it (underscores for spaces) and opens
/// nothing: the board, the double push it allows en passant after, and
/// the canonical material.
fn position(fen: &str) -> Result<(Board, Option<u8>), LookupError> {
    let fen = fen.replace('_', " ");
    let (board, pushed) = Board::from_fen_with_en_passant(fen.trim())
        .map_err(|e| LookupError::BadPosition(format!("{e:#}")))?;
    if board.piece_count() > MAX_PIECES {
        return Err(LookupError::BadPosition(format!(
            "FEN \"{fen}\": {} pieces; the tables go up to {MAX_PIECES} pieces, kings included",
            board.piece_count()
        )));
    }
    Ok((board, pushed))
}

/// Maps a probe's failure: a table missing from `tb` names the table and
/// how to build it; anything else is a table that could not be read.
fn probe_error(tb: &Tablebase, b: &Board, e: anyhow::Error) -> LookupError {
    // The position's own table first, then those it converts to.
    let all = super::closure(&[Material::of(b)]);
    match all
        .iter()
        .rev()
        .find(|m| m.pieces() > 2 && tb.get(m).is_none())
    {
        Some(m) => LookupError::MissingTable(table_id(m)),
        None => LookupError::Table(format!("{e:#}")),
    }
}

/// The answer of `GET /standard?fen=FEN` from the tables in `tb`.
pub fn standard(tb: &Tablebase, fen: &str) -> Result<Standard, LookupError> {
    let (b, pushed) = position(fen)?;
    let err = |e| probe_error(tb, &b, e);
    let value = position_value(tb, &b, pushed).map_err(err)?;
    let lines = rated_moves(tb, &b, pushed).map_err(err)?;
    let mut moves = Vec::with_capacity(lines.len());
    for l in &lines {
        let child = b.play(&l.mv);
        let pushed = l.mv.is_double_push().then_some(l.mv.to);
        moves.push(StandardMove {
            uci: l.mv.uci(),
            san: l.san.clone(),
            zeroing: l.mv.capture.is_some() || l.mv.role == Role::Pawn,
            reached: info(&child, pushed, reached(l.value)),
        });
    }
    Ok(Standard {
        position: info(&b, pushed, value),
        moves,
    })
}

/// A position's [`PositionInfo`] given its value.
fn info(b: &Board, pushed: Option<u8>, value: Value) -> PositionInfo {
    let no_moves = super::probe::legal_moves(b, pushed).is_empty();
    let in_check = b.in_check(b.turn);
    PositionInfo {
        dtz: None,
        precise_dtz: None,
        dtm: dtm(value),
        checkmate: no_moves && in_check,
        stalemate: no_moves && !in_check,
        variant_win: false,
        variant_loss: false,
        insufficient_material: insufficient_material(b),
        category: Category::of(value),
    }
}

/// The answer of `GET /standard/mainline?fen=FEN`: the principal
/// variation to mate (each side plays its first-listed best move).
pub fn mainline(tb: &Tablebase, fen: &str) -> Result<Mainline, LookupError> {
    let (b, pushed) = position(fen)?;
    let err = |e| probe_error(tb, &b, e);
    let value = position_value(tb, &b, pushed).map_err(err)?;
    let pv = principal_variation(tb, &b, pushed).map_err(err)?;
    let winner = match (value, b.turn) {
        (Value::Draw, _) => None,
        (Value::Win(_), Color::White) | (Value::Loss(_), Color::Black) => Some("w"),
        _ => Some("b"),
    };
    Ok(Mainline {
        dtz: None,
        precise_dtz: None,
        dtm: dtm(value),
        mainline: pv
            .iter()
            .map(|l| MainlineMove {
                uci: l.mv.uci(),
                san: l.san.clone(),
                dtz: None,
                precise_dtz: None,
                dtm: dtm(reached(l.value)),
            })
            .collect(),
        winner,
    })
}
