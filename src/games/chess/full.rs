//! Chess with every rule of the game that matters to move generation:
//! castling and en passant rights on top of the table board (`board.rs`,
//! which holds neither, as the endgame tables do). Used by perft and by
//! search beyond the tables.

use super::bitboard::*;
use super::board::{Board, Color, Move, Role};
use anyhow::{bail, ensure, Result};

/// Castling rights: white king side, white queen side, black king side,
/// black queen side.
pub const WHITE_SHORT: u8 = 1;
/// White may castle queen side.
pub const WHITE_LONG: u8 = 2;
/// Black may castle king side.
pub const BLACK_SHORT: u8 = 4;
/// Black may castle queen side.
pub const BLACK_LONG: u8 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// A chess position under every rule: the board plus castling rights and
/// the en passant square (the tables' `Board` holds neither).
pub struct FullPosition {
    /// The pieces and the side to move.
    pub board: Board,
    /// Castling rights (WHITE_SHORT | …).
    pub castling: u8,
    /// The pawn that has just advanced two squares, which the side to move
    /// may capture en passant.
    pub pushed: Option<u8>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove: u32,
}

const E1: u8 = 4;
const E8: u8 = 60;
const H1: u8 = 7;
const A1: u8 = 0;
const H8: u8 = 63;
const A8: u8 = 56;

/// The right lost when a piece leaves or is captured on a square.
fn rights_touched(sq: u8) -> u8 {
    match sq {
        E1 => WHITE_SHORT | WHITE_LONG,
        H1 => WHITE_SHORT,
        A1 => WHITE_LONG,
        E8 => BLACK_SHORT | BLACK_LONG,
        H8 => BLACK_SHORT,
        A8 => BLACK_LONG,
        _ => 0,
    }
}

impl FullPosition {
    /// The starting position's FEN.
    pub const START: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// Parses a full FEN; castling rights must match kings and rooks on
    /// their home squares.
    pub fn from_fen(fen: &str) -> Result<FullPosition> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        ensure!(
            fields.len() >= 2,
            "FEN \"{fen}\": expected placement and side to move"
        );
        let castling = fields.get(2).copied().unwrap_or("-");
        let mut table_fen = vec![fields[0], fields[1], "-"];
        table_fen.extend(fields.iter().skip(3).take(1));
        let (board, pushed) = Board::from_fen_with_en_passant(&table_fen.join(" "))
            .map_err(|e| anyhow::anyhow!("{}", e.to_string().replace(&table_fen.join(" "), fen)))?;
        let mut rights = 0;
        if castling != "-" {
            for c in castling.chars() {
                let (right, king, rook, color) = match c {
                    'K' => (WHITE_SHORT, E1, H1, Color::White),
                    'Q' => (WHITE_LONG, E1, A1, Color::White),
                    'k' => (BLACK_SHORT, E8, H8, Color::Black),
                    'q' => (BLACK_LONG, E8, A8, Color::Black),
                    _ => bail!("FEN \"{fen}\": castling field \"{castling}\" holds '{c}'"),
                };
                ensure!(
                    board.pieces(color, Role::King) & bit(king) != 0
                        && board.pieces(color, Role::Rook) & bit(rook) != 0,
                    "FEN \"{fen}\": castling right '{c}' without the king and rook on their squares"
                );
                rights |= right;
            }
        }
        let halfmove = match fields.get(4) {
            Some(h) => h.parse().map_err(|_| {
                anyhow::anyhow!("FEN \"{fen}\": half-move clock \"{h}\" is not a number")
            })?,
            None => 0,
        };
        Ok(FullPosition {
            board,
            castling: rights,
            pushed,
            halfmove,
        })
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board.turn
    }

    /// Every legal move, appended to `out`.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        self.board.legal_moves(out);
        if let Some(p) = self.pushed {
            self.board.en_passant_captures(p, out);
        }
        self.castles(out);
    }

    fn castles(&self, out: &mut Vec<Move>) {
        let us = self.board.turn;
        let (short, long, king) = match us {
            Color::White => (WHITE_SHORT, WHITE_LONG, E1),
            Color::Black => (BLACK_SHORT, BLACK_LONG, E8),
        };
        if self.castling & (short | long) == 0 {
            return;
        }
        let occ = self.board.occupied();
        let them = us.other();
        let attacked = |sq: u8| self.board.attackers(sq, them, occ) != 0;
        if attacked(king) {
            return;
        }
        // (right, squares that must be empty, squares the king crosses or lands on, target)
        let sides = [
            (
                short,
                bit(king + 1) | bit(king + 2),
                [king + 1, king + 2],
                king + 2,
            ),
            (
                long,
                bit(king - 1) | bit(king - 2) | bit(king - 3),
                [king - 1, king - 2],
                king - 2,
            ),
        ];
        for (right, empty, path, to) in sides {
            if self.castling & right != 0 && occ & empty == 0 && !path.iter().any(|&s| attacked(s))
            {
                out.push(Move {
                    role: Role::King,
                    from: king,
                    to,
                    capture: None,
                    promotion: None,
                    en_passant: false,
                });
            }
        }
    }

    /// The game after the legal move `m`.
    pub fn play(&self, m: &Move) -> FullPosition {
        let mut board = self.board.play(m);
        if m.role == Role::King && m.from.abs_diff(m.to) == 2 {
            // Castling: the rook jumps over the king.
            let (rook_from, rook_to) = if m.to > m.from {
                (m.from + 3, m.from + 1)
            } else {
                (m.from - 4, m.from - 1)
            };
            let us = self.board.turn.index();
            let r = bit(rook_from) | bit(rook_to);
            board.by_role[Role::Rook as usize] ^= r;
            board.by_color[us] ^= r;
        }
        let castling = self.castling & !rights_touched(m.from) & !rights_touched(m.to);
        let pushed = m.is_double_push().then_some(m.to);
        let halfmove = if m.role == Role::Pawn || m.capture.is_some() {
            0
        } else {
            self.halfmove + 1
        };
        FullPosition {
            board,
            castling,
            // Kept only when a capture is possible, so that equal positions
            // compare equal.
            pushed: pushed.filter(|&p| {
                let mut v = Vec::new();
                board.en_passant_captures(p, &mut v);
                !v.is_empty()
            }),
            halfmove,
        }
    }

    #[cfg(any(test, feature = "internals"))]
    /// Leaf positions `depth` plies ahead (the standard move-generator
    /// test).
    pub fn perft(&self, depth: u32) -> u64 {
        let mut moves = Vec::with_capacity(64);
        self.legal_moves(&mut moves);
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
