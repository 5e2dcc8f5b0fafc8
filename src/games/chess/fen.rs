//! FEN in and out for a `Board` (no castling rights; an en passant square
//! is resolved to the pawn that just advanced).

use super::bitboard::*;
use super::board::*;

/// A FEN the tables cannot answer, with the FEN and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("FEN \"{fen}\": {kind}")]
pub struct FenError {
    /// The FEN as given.
    pub fen: String,
    /// What is wrong with it.
    pub kind: FenErrorKind,
}

/// What is wrong with a FEN (see [`FenError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenErrorKind {
    #[error("expected placement and side to move (and optionally castling, en passant, counters)")]
    Fields,
    #[error("side to move \"{0}\" is neither w nor b")]
    SideToMove(String),
    #[error("placement has {0} ranks, not 8")]
    RankCount(usize),
    #[error("bad empty-square count '{0}'")]
    EmptyCount(char),
    #[error("unknown piece letter '{0}'")]
    PieceLetter(char),
    #[error("rank {0} has more than 8 squares")]
    RankTooLong(u8),
    #[error("rank {rank} has {squares} squares, not 8")]
    RankTooShort {
        /// The rank, from 1.
        rank: u8,
        /// The squares it describes.
        squares: u8,
    },
    #[error("castling rights \"{0}\" — the tables hold no castling (use -)")]
    Castling(String),
    #[error("en passant square \"{0}\" is not a square")]
    EnPassantSquare(String),
    #[error("en passant square {0} does not follow a pawn's two-square advance")]
    EnPassantWithoutAdvance(String),
    #[error("an en passant square — the tables hold positions without that right")]
    EnPassantRight,
    #[error("field {field} \"{text}\" is not a move counter")]
    Counter {
        /// The field's place, from 1.
        field: usize,
        /// The field.
        text: String,
    },
    #[error("each side needs exactly one king")]
    KingCount,
    #[error("a pawn stands on rank 1 or 8")]
    PawnOnBackRank,
    #[error("illegal — the side not to move ({0}) is in check")]
    OpponentInCheck(&'static str),
    #[error("two pieces on one square")]
    Overlap,
}

impl Board {
    /// Parses a FEN without an en passant square (the tables hold no such
    /// right; `from_fen_with_en_passant` resolves one at the probe).
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        match Board::from_fen_with_en_passant(fen)? {
            (b, None) => Ok(b),
            (_, Some(_)) => Err(FenError {
                fen: fen.to_string(),
                kind: FenErrorKind::EnPassantRight,
            }),
        }
    }

    /// Parses a FEN; castling rights are rejected (the tables hold none).
    /// Move counters are optional and ignored. Returns the square of the
    /// pawn that has just advanced two squares when the FEN names an en
    /// passant square, after checking that such a pawn is there.
    pub fn from_fen_with_en_passant(fen: &str) -> Result<(Board, Option<u8>), FenError> {
        use FenErrorKind as K;
        let err = |kind| FenError {
            fen: fen.to_string(),
            kind,
        };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(err(K::Fields));
        }
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(err(K::SideToMove(other.to_string()))),
        };
        let mut b = Board::empty(turn);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(err(K::RankCount(ranks.len())));
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(err(K::EmptyCount(c)));
                    }
                    file += d as u8;
                } else {
                    let role = Role::from_letter(c).ok_or_else(|| err(K::PieceLetter(c)))?;
                    if file >= 8 {
                        return Err(err(K::RankTooLong(rank + 1)));
                    }
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    b.put(color, role, square(file, rank));
                    file += 1;
                }
                if file > 8 {
                    return Err(err(K::RankTooLong(rank + 1)));
                }
            }
            if file != 8 {
                return Err(err(K::RankTooShort {
                    rank: rank + 1,
                    squares: file,
                }));
            }
        }
        if let Some(&c) = fields.get(2) {
            if c != "-" {
                return Err(err(K::Castling(c.to_string())));
            }
        }
        let mut pushed = None;
        if let Some(&ep) = fields.get(3).filter(|&&e| e != "-") {
            let sq = parse_square(ep).ok_or_else(|| err(K::EnPassantSquare(ep.to_string())))?;
            let (ep_rank, pawn_sq, origin) = if turn == Color::White {
                (5, sq.wrapping_sub(8), sq + 8)
            } else {
                (2, sq + 8, sq.wrapping_sub(8))
            };
            if !(rank_of(sq) == ep_rank
                && b.occupied() & (bit(sq) | bit(origin)) == 0
                && b.pieces(turn.other(), Role::Pawn) & bit(pawn_sq) != 0)
            {
                return Err(err(K::EnPassantWithoutAdvance(ep.to_string())));
            }
            pushed = Some(pawn_sq);
        }
        for (i, f) in fields.iter().enumerate().skip(4) {
            if f.parse::<u32>().is_err() {
                return Err(err(K::Counter {
                    field: i + 1,
                    text: f.to_string(),
                }));
            }
        }
        match b.broken() {
            None => Ok((b, pushed)),
            Some(Broken::KingCount) => Err(err(K::KingCount)),
            Some(Broken::PawnOnBackRank) => Err(err(K::PawnOnBackRank)),
            Some(Broken::OpponentInCheck) => {
                Err(err(K::OpponentInCheck(if turn == Color::White {
                    "black"
                } else {
                    "white"
                })))
            }
            Some(Broken::Overlap) => Err(err(K::Overlap)),
        }
    }

    /// The position as FEN (no castling, no en passant square, counters 0 1).
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(square(file, rank)) {
                    None => empty += 1,
                    Some((c, r)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let l = r.letter();
                        s.push(if c == Color::White {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.turn == Color::White {
            " w - - 0 1"
        } else {
            " b - - 0 1"
        });
        s
    }
}
