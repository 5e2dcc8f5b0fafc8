//! Un-moves for retrograde analysis: every position one move before a
//! `Board` (no uncaptures, no unpromotions), with the legality test that
//! keeps them cheap.

use super::bitboard::*;
use super::board::*;
/// The test that the side to move in a board was not in check before an
/// unmove (see `Board::each_unmove`): the pieces that would attack the king
/// once the moved piece has left `to` (found once per piece), each blocked
/// by it on `from`, and no attack from `from`. Without a check now and with
/// `to` off the king's lines, only `from` matters: most unmoves need a
/// lookup or two.
struct UnmoveLegality<'a> {
    board: &'a Board,
    has_king: bool,
    king: u8,
    occ: Bitboard,
    checked: bool,
    /// Every square on a line with the king.
    lines: Bitboard,
}

impl UnmoveLegality<'_> {
    /// The pieces of the side that moved, other than the one on `to`, that
    /// would attack the king if that piece were gone: the checkers now
    /// besides it, and the sliders behind it. None without a check when
    /// `to` is off the king's lines.
    #[inline]
    fn revealed_by(&self, to: u8) -> Bitboard {
        if !self.checked && self.lines & bit(to) == 0 {
            return 0;
        }
        let them = self.board.turn.other();
        self.board.attackers(self.king, them, self.occ ^ bit(to)) & !bit(to)
    }

    #[inline]
    fn allows(&self, role: Role, from: u8, to: u8, revealed: Bitboard) -> bool {
        if !self.has_king {
            return true;
        }
        let (king, them) = (self.king, self.board.turn.other());
        let before = self.occ ^ bit(to) ^ bit(from);
        // Each of those attacks must be blocked by the piece put back (which
        // a leaper's cannot be).
        for s in squares(revealed) {
            if between(king, s) & bit(from) == 0 {
                return false;
            }
        }
        let k = king as usize;
        // Sliders walk their rays only when lined up with the king.
        match role {
            Role::Pawn => PAWN_ATTACKS[them.index()][from as usize] & bit(king) == 0,
            Role::Knight => KNIGHT[k] & bit(from) == 0,
            Role::King => KING[k] & bit(from) == 0,
            _ if self.lines & bit(from) == 0 => true,
            _ => piece_attacks(role, from, before) & bit(king) == 0,
        }
    }
}

impl Board {
    /// Every position one move before this one (no uncaptures and no
    /// unpromotions: those belong to other tables), appended to `out`.
    pub fn unmoves(&self, out: &mut Vec<Board>) {
        self.each_unmove(|role, from, to| out.push(self.unmoved(role, from, to)));
    }

    /// Calls `f(role, from, to)` for every unmove: a piece of the side that
    /// just moved goes back from `to` to `from` (no uncaptures and no
    /// unpromotions), leaving a position where the side to move here was
    /// not in check.
    pub fn each_unmove(&self, mut f: impl FnMut(Role, u8, u8)) {
        let us = self.turn;
        let them = us.other();
        let occ = self.occupied();
        let legal = self.unmove_legality();
        for role in PIECES {
            for to in squares(self.pieces(them, role)) {
                let revealed = legal.revealed_by(to);
                // Piece moves are symmetric: the origins are the squares
                // the piece would attack from where it stands.
                let origins = piece_attacks(role, to, occ) & !occ;
                for from in squares(origins) {
                    if legal.allows(role, from, to, revealed) {
                        f(role, from, to);
                    }
                }
            }
        }
        let back: i8 = if them == Color::White { -8 } else { 8 };
        let double_rank = if them == Color::White { 3 } else { 4 };
        let first_rank = if them == Color::White { 1 } else { 6 };
        for to in squares(self.pieces(them, Role::Pawn)) {
            let one = to as i8 + back;
            if !(8..56).contains(&one) || occ & bit(one as u8) != 0 {
                continue;
            }
            let revealed = legal.revealed_by(to);
            if rank_of(one as u8) >= 1
                && rank_of(one as u8) <= 6
                && legal.allows(Role::Pawn, one as u8, to, revealed)
            {
                f(Role::Pawn, one as u8, to);
            }
            if rank_of(to) == double_rank {
                let two = (one + back) as u8;
                if rank_of(two) == first_rank
                    && occ & bit(two) == 0
                    && legal.allows(Role::Pawn, two, to, revealed)
                {
                    f(Role::Pawn, two, to);
                }
            }
        }
    }

    fn unmove_legality(&self) -> UnmoveLegality<'_> {
        let us = self.turn;
        let has_king = self.pieces(us, Role::King) != 0;
        let king = self.king(us);
        let occ = self.occupied();
        UnmoveLegality {
            board: self,
            has_king,
            king,
            occ,
            checked: has_king && self.attackers(king, us.other(), occ) != 0,
            lines: if has_king {
                ROOK_LINES[king as usize] | BISHOP_LINES[king as usize]
            } else {
                0
            },
        }
    }

    /// The board before the unmove `(role, from, to)` of the side that just
    /// moved (which is then to move).
    pub fn unmoved(&self, role: Role, from: u8, to: u8) -> Board {
        let mover = self.turn.other();
        let mut b = *self;
        b.remove(to);
        b.put(mover, role, from);
        b.turn = mover;
        b
    }
}
