//! FEN in and out for a `Board` (no castling rights; an en passant square
//! is resolved to the pawn that just advanced).

use super::bitboard::*;
use super::board::*;
use anyhow::{bail, ensure, Result};
impl Board {
    /// Parses a FEN without an en passant square (the tables hold no such
    /// right; `from_fen_with_en_passant` resolves one at the probe).
    pub fn from_fen(fen: &str) -> Result<Board> {
        match Board::from_fen_with_en_passant(fen)? {
            (b, None) => Ok(b),
            (_, Some(_)) => bail!(
                "FEN \"{fen}\": an en passant square — the tables hold positions without that right"
            ),
        }
    }

    /// Parses a FEN; castling rights are rejected (the tables hold none).
    /// Move counters are optional and ignored. Returns the square of the
    /// pawn that has just advanced two squares when the FEN names an en
    /// passant square, after checking that such a pawn is there.
    pub fn from_fen_with_en_passant(fen: &str) -> Result<(Board, Option<u8>)> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        ensure!(
            (2..=6).contains(&fields.len()),
            "FEN \"{fen}\": expected placement and side to move (and optionally castling, en passant, counters)"
        );
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => bail!("FEN \"{fen}\": side to move \"{other}\" is neither w nor b"),
        };
        let mut b = Board::empty(turn);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        ensure!(
            ranks.len() == 8,
            "FEN \"{fen}\": placement has {} ranks, not 8",
            ranks.len()
        );
        for (i, row) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    ensure!(
                        (1..=8).contains(&d),
                        "FEN \"{fen}\": bad empty-square count '{c}'"
                    );
                    file += d as u8;
                } else {
                    let role = Role::from_letter(c).ok_or_else(|| {
                        anyhow::anyhow!("FEN \"{fen}\": unknown piece letter '{c}'")
                    })?;
                    ensure!(
                        file < 8,
                        "FEN \"{fen}\": rank {} has more than 8 squares",
                        rank + 1
                    );
                    let color = if c.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    b.put(color, role, square(file, rank));
                    file += 1;
                }
                ensure!(
                    file <= 8,
                    "FEN \"{fen}\": rank {} has more than 8 squares",
                    rank + 1
                );
            }
            ensure!(
                file == 8,
                "FEN \"{fen}\": rank {} has {file} squares, not 8",
                rank + 1
            );
        }
        if let Some(&c) = fields.get(2) {
            ensure!(
                c == "-",
                "FEN \"{fen}\": castling rights \"{c}\" — the tables hold no castling (use -)"
            );
        }
        let mut pushed = None;
        if let Some(&ep) = fields.get(3).filter(|&&e| e != "-") {
            let sq = parse_square(ep).ok_or_else(|| {
                anyhow::anyhow!("FEN \"{fen}\": en passant square \"{ep}\" is not a square")
            })?;
            let (ep_rank, pawn_sq, origin) = if turn == Color::White {
                (5, sq.wrapping_sub(8), sq + 8)
            } else {
                (2, sq + 8, sq.wrapping_sub(8))
            };
            ensure!(
                rank_of(sq) == ep_rank
                    && b.occupied() & (bit(sq) | bit(origin)) == 0
                    && b.pieces(turn.other(), Role::Pawn) & bit(pawn_sq) != 0,
                "FEN \"{fen}\": en passant square {ep} does not follow a pawn's two-square advance"
            );
            pushed = Some(pawn_sq);
        }
        for (i, f) in fields.iter().enumerate().skip(4) {
            ensure!(
                f.parse::<u32>().is_ok(),
                "FEN \"{fen}\": field {} \"{f}\" is not a move counter",
                i + 1
            );
        }
        match b.broken() {
            None => Ok((b, pushed)),
            Some(Broken::KingCount) => bail!("FEN \"{fen}\": each side needs exactly one king"),
            Some(Broken::PawnOnBackRank) => bail!("FEN \"{fen}\": a pawn stands on rank 1 or 8"),
            Some(Broken::OpponentInCheck) => bail!(
                "FEN \"{fen}\": illegal — the side not to move ({}) is in check",
                if turn == Color::White {
                    "black"
                } else {
                    "white"
                }
            ),
            Some(Broken::Overlap) => bail!("FEN \"{fen}\": two pieces on one square"),
        }
    }

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
