//! Chess for the generic search (`crate::search`): full rules (castling, en
//! passant, fifty moves, repetition, bare material), a simple evaluation
//! (material and piece-square bonuses), captures for quiescence, null
//! moves, and exact probes of our endgame tables when the material has one.

use super::bitboard::*;
use super::board::{Color, Move, Role};
use super::full::FullPosition;
use super::probe::Tablebase;
use super::value::Value;
use crate::rng::SplitMix64;
use crate::search::{self, Ended, Score, WIN};
use std::sync::OnceLock;

const PIECE_VALUE: [Score; 6] = [100, 320, 330, 500, 900, 0];

/// Zobrist keys: (colour, role, square), castling rights, en passant file,
/// side to move; fixed by a seeded generator, so keys never change.
struct Zobrist {
    pieces: [[[u64; 64]; 6]; 2],
    castling: [u64; 16],
    en_passant: [u64; 8],
    black: u64,
}

fn zobrist() -> &'static Zobrist {
    static Z: OnceLock<Zobrist> = OnceLock::new();
    Z.get_or_init(|| {
        let mut r = SplitMix64::new(0x6e69_6d72_6f64_7a6f);
        let mut z = Zobrist {
            pieces: [[[0; 64]; 6]; 2],
            castling: [0; 16],
            en_passant: [0; 8],
            black: 0,
        };
        for c in &mut z.pieces {
            for role in c.iter_mut() {
                for sq in role.iter_mut() {
                    *sq = r.next_u64();
                }
            }
        }
        z.castling.iter_mut().for_each(|k| *k = r.next_u64());
        z.en_passant.iter_mut().for_each(|k| *k = r.next_u64());
        z.black = r.next_u64();
        z
    })
}

/// A game being searched: the current position and the ones before it
/// (for repetitions and unmaking), each with its Zobrist key, computed
/// once when the position is reached.
pub struct ChessSearch<'t> {
    game: FullPosition,
    key: u64,
    history: Vec<(FullPosition, u64)>,
    /// Positions before the root (a game's moves so far), for repetitions.
    earlier: Vec<u64>,
    tables: Option<&'t Tablebase>,
    /// Pieces on the board up to which `tables` holds every material.
    table_pieces: u32,
}

impl<'t> ChessSearch<'t> {
    /// A search position at `game`, probing `tables` for positions of at most `table_pieces` pieces.
    pub fn new(
        game: FullPosition,
        tables: Option<&'t Tablebase>,
        table_pieces: u32,
    ) -> ChessSearch<'t> {
        ChessSearch {
            game,
            key: Self::key_of(&game),
            history: Vec::with_capacity(128),
            earlier: Vec::new(),
            tables,
            table_pieces,
        }
    }

    fn key_of(g: &FullPosition) -> u64 {
        let z = zobrist();
        let b = &g.board;
        let mut k = 0;
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                for sq in squares(b.pieces(color, role)) {
                    k ^= z.pieces[color.index()][role as usize][sq as usize];
                }
            }
        }
        k ^= z.castling[g.castling as usize];
        if let Some(p) = g.pushed {
            k ^= z.en_passant[file_of(p) as usize];
        }
        if b.turn == Color::Black {
            k ^= z.black;
        }
        k
    }

    #[cfg(any(test, feature = "internals"))]
    /// The position being searched.
    pub fn game(&self) -> &FullPosition {
        &self.game
    }

    fn enter(&mut self, next: FullPosition) {
        self.history.push((self.game, self.key));
        self.game = next;
        self.key = Self::key_of(&next);
    }

    fn leave(&mut self) {
        (self.game, self.key) = self.history.pop().expect("a move to unmake");
    }

    fn repeated(&self) -> bool {
        // Only positions since the last capture or pawn move can repeat.
        let window = self.game.halfmove as usize;
        let recent = self.history.iter().rev().take(window).map(|&(_, k)| k);
        let before = self
            .earlier
            .iter()
            .rev()
            .take(window.saturating_sub(self.history.len()))
            .copied();
        recent
            .chain(before)
            .skip(1)
            .step_by(2)
            .any(|k| k == self.key)
    }

    fn bare(&self) -> bool {
        let b = &self.game.board;
        let heavy = b.by_role[Role::Pawn as usize]
            | b.by_role[Role::Rook as usize]
            | b.by_role[Role::Queen as usize];
        heavy == 0
            && (b.by_role[Role::Knight as usize] | b.by_role[Role::Bishop as usize]).count_ones()
                <= 1
    }
}

impl search::Position for ChessSearch<'_> {
    type Move = Move;

    fn moves(&self, out: &mut Vec<Move>) {
        self.game.legal_moves(out);
    }
    fn make(&mut self, m: Move) {
        self.enter(self.game.play(&m));
    }
    fn unmake(&mut self, _m: Move) {
        self.leave();
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn ended(&self) -> Option<Ended> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        if moves.is_empty() {
            return Some(if self.game.board.in_check(self.game.turn()) {
                Ended::Lost
            } else {
                Ended::Drawn
            });
        }
        if self.game.halfmove >= 100 || self.bare() || self.repeated() {
            return Some(Ended::Drawn);
        }
        None
    }
    fn evaluate(&self) -> Score {
        let b = &self.game.board;
        let mut score = 0;
        for color in [Color::White, Color::Black] {
            let sign = if color == b.turn { 1 } else { -1 };
            for role in Role::ALL {
                for sq in squares(b.pieces(color, role)) {
                    let (file, rank) = (file_of(sq) as Score, rank_of(sq) as Score);
                    let advance = if color == Color::White {
                        rank
                    } else {
                        7 - rank
                    };
                    let centre = 6 - ((2 * file - 7).abs() + (2 * rank - 7).abs()) / 2;
                    let bonus = match role {
                        Role::Pawn => 5 * advance,
                        Role::Knight | Role::Bishop => 4 * centre,
                        Role::Queen => centre,
                        _ => 0,
                    };
                    score += sign * (PIECE_VALUE[role as usize] + bonus);
                }
            }
        }
        score
    }
    fn move_slot(&self, m: Move) -> usize {
        m.from as usize * 64 + m.to as usize
    }
    fn move_slots(&self) -> usize {
        64 * 64
    }
    fn probe(&self) -> Option<Score> {
        let t = self.tables?;
        let g = &self.game;
        if g.castling != 0 || g.board.piece_count() > self.table_pieces {
            return None;
        }
        let v = t.value_with_en_passant(&g.board, g.pushed).ok()?;
        Some(match v {
            Value::Draw => 0,
            v => {
                let plies = v.plies()? as Score;
                if v.wdl() > 0 {
                    WIN - plies
                } else {
                    -(WIN - plies)
                }
            }
        })
    }
    fn null_move_allowed(&self) -> bool {
        let b = &self.game.board;
        let us = b.turn;
        let pieces = b.by_color[us.index()]
            & !b.by_role[Role::Pawn as usize]
            & !b.by_role[Role::King as usize];
        !b.in_check(us) && pieces != 0
    }
    fn make_null(&mut self) {
        let mut passed = self.game;
        passed.board.turn = passed.board.turn.other();
        passed.pushed = None;
        passed.halfmove += 1;
        self.enter(passed);
    }
    fn unmake_null(&mut self) {
        self.leave();
    }
    fn noisy_moves(&self, out: &mut Vec<Move>) {
        let mut all = Vec::new();
        self.game.legal_moves(&mut all);
        // Most valuable victim first, then least valuable attacker.
        all.retain(|m| m.capture.is_some() || m.promotion.is_some());
        all.sort_by_key(|m| {
            let victim = m.capture.map_or(0, |r| PIECE_VALUE[r as usize]);
            std::cmp::Reverse(victim * 10 - PIECE_VALUE[m.role as usize] / 10)
        });
        out.extend(all);
    }
    fn order_hint(&self, m: Move) -> Score {
        m.capture.map_or(0, |r| {
            PIECE_VALUE[r as usize] * 10 - PIECE_VALUE[m.role as usize] / 10
        }) + m.promotion.map_or(0, |r| PIECE_VALUE[r as usize])
    }
}

/// Sets the positions of the game before the root (oldest first), for
/// repetition draws.
pub fn with_earlier<'t>(mut s: ChessSearch<'t>, earlier: &[FullPosition]) -> ChessSearch<'t> {
    s.earlier = earlier.iter().map(ChessSearch::key_of).collect();
    s
}
