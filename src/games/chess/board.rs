//! A chess position without castling or en passant (as in the public
//! tablebases): bitboards by role and colour plus the side to move, and
//! the types around it (colours, roles, moves, pins). Its moves are in
//! `moves`, its un-moves for retrograde analysis in `unmoves`, FEN in `fen`
//! and standard notation in `san`.

#[cfg(any(test, feature = "internals"))]
pub use super::moves::Pins;

use super::bitboard::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
/// A side.
pub enum Color {
    /// White.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// 0 for White, 1 for Black (an index into per-side arrays).
    pub fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
/// A kind of piece.
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

#[cfg(any(test, feature = "internals"))]
/// What a pawn may promote to, strongest first.
pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// The roles that move the same way forwards and backwards.
pub(super) const PIECES: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Squares a piece (not a pawn) on `sq` attacks with the given occupancy.
/// Always inlined: the sweeps call it for every position they touch, and
/// a call (with the role's match) cost 7 % of a build in `perf`.
#[inline(always)]
pub(crate) fn piece_attacks(role: Role, sq: u8, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => KNIGHT[sq as usize],
        Role::Bishop => bishop_attacks(sq, occ),
        Role::Rook => rook_attacks(sq, occ),
        Role::Queen => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
        _ => KING[sq as usize],
    }
}

impl Role {
    /// Every role, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    /// The role's letter (P N B R Q K).
    pub fn letter(self) -> char {
        ['P', 'N', 'B', 'R', 'Q', 'K'][self as usize]
    }
    /// The role of a letter (upper or lower case), or None.
    pub fn from_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// A move of the tables' positions (no castling, no en passant).
pub struct Move {
    /// The piece that moves.
    pub role: Role,
    /// Its square.
    pub from: u8,
    /// The square it goes to.
    pub to: u8,
    /// What it captures, if anything.
    pub capture: Option<Role>,
    /// What a pawn promotes to, if it does.
    pub promotion: Option<Role>,
    /// An en passant capture: the captured pawn stands beside `from`, not
    /// on `to`.
    pub en_passant: bool,
}

impl Move {
    /// A pawn's two-square advance, after which the opponent may capture
    /// en passant.
    pub fn is_double_push(&self) -> bool {
        self.role == Role::Pawn && self.from.abs_diff(self.to) == 16
    }

    /// Leaves the material signature (and so the table).
    pub fn converts(&self) -> bool {
        self.capture.is_some() || self.promotion.is_some()
    }
    /// The move in UCI notation ("e7e8q").
    pub fn uci(&self) -> String {
        let mut s = format!("{}{}", square_name(self.from), square_name(self.to));
        if let Some(p) = self.promotion {
            s.push(p.letter().to_ascii_lowercase());
        }
        s
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// The pieces and the side to move (no castling rights, no en passant square).
pub struct Board {
    /// Squares per role (both sides).
    pub by_role: [Bitboard; 6],
    /// Squares per side.
    pub by_color: [Bitboard; 2],
    /// The side to move.
    pub turn: Color,
}

/// Why a set of pieces is not a position the tables hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broken {
    /// Two pieces on one square.
    Overlap,
    /// Not exactly one king a side.
    KingCount,
    /// A pawn on the first or last rank.
    PawnOnBackRank,
    /// The side not to move is in check.
    OpponentInCheck,
}

impl Board {
    /// No pieces, `turn` to move.
    pub fn empty(turn: Color) -> Board {
        Board {
            by_role: [0; 6],
            by_color: [0; 2],
            turn,
        }
    }

    /// Every occupied square.
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of one side's pieces of one role.
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role as usize]
    }

    /// Puts a piece on an empty square.
    pub fn put(&mut self, color: Color, role: Role, sq: u8) {
        self.by_color[color.index()] |= bit(sq);
        self.by_role[role as usize] |= bit(sq);
    }

    pub(super) fn remove(&mut self, sq: u8) {
        let m = !bit(sq);
        for b in self.by_role.iter_mut() {
            *b &= m;
        }
        for b in self.by_color.iter_mut() {
            *b &= m;
        }
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: u8) -> Option<(Color, Role)> {
        let b = bit(sq);
        let color = if self.by_color[0] & b != 0 {
            Color::White
        } else if self.by_color[1] & b != 0 {
            Color::Black
        } else {
            return None;
        };
        let role = Role::ALL
            .into_iter()
            .find(|&r| self.by_role[r as usize] & b != 0)?;
        Some((color, role))
    }

    /// The square of a side's king (the board has one).
    pub fn king(&self, color: Color) -> u8 {
        self.pieces(color, Role::King).trailing_zeros() as u8
    }

    /// Pieces of `by` attacking `sq` with the given occupancy.
    pub fn attackers(&self, sq: u8, by: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[by.index()];
        let r = &self.by_role;
        let s = sq as usize;
        let diag = them & BISHOP_LINES[s] & (r[Role::Bishop as usize] | r[Role::Queen as usize]);
        let straight = them & ROOK_LINES[s] & (r[Role::Rook as usize] | r[Role::Queen as usize]);
        let mut a = them
            & ((KING[s] & r[Role::King as usize])
                | (KNIGHT[s] & r[Role::Knight as usize])
                | (PAWN_ATTACKS[by.other().index()][s] & r[Role::Pawn as usize]));
        if diag != 0 {
            a |= bishop_attacks(sq, occupied) & diag;
        }
        if straight != 0 {
            a |= rook_attacks(sq, occupied) & straight;
        }
        a
    }

    /// Every square a side's pieces attack, with `occupied` as the
    /// blockers of its sliders.
    pub fn attacked_by(&self, by: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[by.index()];
        let r = &self.by_role;
        let mut a = 0;
        for s in squares(them & r[Role::Pawn as usize]) {
            a |= PAWN_ATTACKS[by.index()][s as usize];
        }
        for s in squares(them & r[Role::Knight as usize]) {
            a |= KNIGHT[s as usize];
        }
        for s in squares(them & r[Role::King as usize]) {
            a |= KING[s as usize];
        }
        for s in squares(them & (r[Role::Bishop as usize] | r[Role::Queen as usize])) {
            a |= bishop_attacks(s, occupied);
        }
        for s in squares(them & (r[Role::Rook as usize] | r[Role::Queen as usize])) {
            a |= rook_attacks(s, occupied);
        }
        a
    }

    /// Whether a side's king is attacked.
    pub fn in_check(&self, color: Color) -> bool {
        self.pieces(color, Role::King) != 0
            && self.attackers(self.king(color), color.other(), self.occupied()) != 0
    }

    /// Whether the tables can hold this position, and if not why.
    pub fn broken(&self) -> Option<Broken> {
        let mut seen = 0u64;
        for &b in &self.by_role {
            if seen & b != 0 {
                return Some(Broken::Overlap);
            }
            seen |= b;
        }
        if self.by_color[0] & self.by_color[1] != 0 || seen != self.occupied() {
            return Some(Broken::Overlap);
        }
        if self.pieces(Color::White, Role::King).count_ones() != 1
            || self.pieces(Color::Black, Role::King).count_ones() != 1
        {
            return Some(Broken::KingCount);
        }
        if self.by_role[Role::Pawn as usize] & 0xff00_0000_0000_00ff != 0 {
            return Some(Broken::PawnOnBackRank);
        }
        if self.in_check(self.turn.other()) {
            return Some(Broken::OpponentInCheck);
        }
        None
    }

    /// Colours swapped and ranks mirrored: the same game seen from the other
    /// side.
    pub fn color_flipped(&self) -> Board {
        let mut b = Board::empty(self.turn.other());
        for (i, &r) in self.by_role.iter().enumerate() {
            b.by_role[i] = r.swap_bytes();
        }
        b.by_color = [self.by_color[1].swap_bytes(), self.by_color[0].swap_bytes()];
        b
    }

    /// The board under one of the 8 symmetries of the square (0 is the identity).
    pub fn transformed(&self, sym: u8) -> Board {
        let mut b = *self;
        for r in b.by_role.iter_mut() {
            *r = transform_bb(sym, *r);
        }
        for c in b.by_color.iter_mut() {
            *c = transform_bb(sym, *c);
        }
        b
    }

    /// Pieces on the board.
    pub fn piece_count(&self) -> u32 {
        self.occupied().count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trip_and_moves() {
        let b = Board::from_fen("k7/7Q/1K6/8/8/8/8/8 w - - 0 1").unwrap();
        assert_eq!(b.fen(), "k7/7Q/1K6/8/8/8/8/8 w - - 0 1");
        let mut ms = Vec::new();
        b.legal_moves(&mut ms);
        let sans: Vec<String> = ms.iter().map(|m| b.san(m)).collect();
        for mate in ["Qa7#", "Qb7#", "Qg8#", "Qh8#", "Qh1+", "Qe4+", "Qc7"] {
            assert!(sans.contains(&mate.to_string()), "{mate} not in {sans:?}");
        }
        // b6 has 8 neighbours; a7 and b7 touch the black king.
        assert_eq!(ms.iter().filter(|m| m.role == Role::King).count(), 6);
        assert_eq!(ms.len(), 27);
    }

    #[test]
    fn unmoves_invert_moves() {
        let b = Board::from_fen("8/8/3k4/8/2P5/8/8/4K2R b - - 0 1").unwrap();
        let mut preds = Vec::new();
        b.unmoves(&mut preds);
        assert!(!preds.is_empty());
        for p in &preds {
            let mut ms = Vec::new();
            p.legal_moves(&mut ms);
            assert!(
                ms.iter().any(|m| !m.converts() && p.play(m) == b),
                "{} does not lead back",
                p.fen()
            );
        }
        // The same set as un-moving each piece and testing for check in
        // full, on positions with and without a check.
        for fen in [
            "8/8/3k4/8/2P5/8/8/4K2R b - - 0 1",
            "8/8/8/3k4/8/3R4/8/4K3 b - - 0 1",
            "4k3/8/8/8/1B6/8/8/4K2R b - - 0 1",
            "8/8/2k5/8/4Q3/8/1N6/K7 b - - 0 1",
            "8/2k5/8/8/8/8/5q2/K1r5 w - - 0 1",
            // Unmoves that would open a line onto the king.
            "8/8/8/3k4/8/3N4/8/3Q1K2 b - - 0 1",
            "k7/8/8/8/4B3/8/8/K6Q b - - 0 1",
            "8/8/8/8/2k1P2R/8/8/K7 b - - 0 1",
        ] {
            let b = Board::from_fen(fen).unwrap();
            let mut fast = Vec::new();
            b.each_unmove(|role, from, to| fast.push((role, from, to)));
            let mut slow = Vec::new();
            let them = b.turn.other();
            for role in Role::ALL {
                for to in squares(b.pieces(them, role)) {
                    for from in 0..64u8 {
                        if b.occupied() & bit(from) != 0 {
                            continue;
                        }
                        let q = b.unmoved(role, from, to);
                        // A pawn put on its back rank has no moves to test.
                        if q.broken().is_some() {
                            continue;
                        }
                        let mut ms = Vec::new();
                        q.legal_moves(&mut ms);
                        if ms.iter().any(|m| !m.converts() && q.play(m) == b) {
                            slow.push((role, from, to));
                        }
                    }
                }
            }
            fast.sort_by_key(|&(r, f, t)| (r as u8, f, t));
            slow.sort_by_key(|&(r, f, t)| (r as u8, f, t));
            assert_eq!(fast, slow, "{fen}");
        }
        // c4 came from c3 or c2.
        assert!(preds
            .iter()
            .any(|p| p.pieces(Color::White, Role::Pawn) == bit(10)));
    }

    #[test]
    fn bad_fens_are_named() {
        for (fen, needle) in [
            ("8/8/8/8/8/8/8/K1k5 w KQ - 0 1", "castling"),
            ("8/8/8/8/8/8/8/K1k5 w - e6 0 1", "two-square advance"),
            ("8/8/8/8/8/8/8/K1k5 w - z9 0 1", "not a square"),
            ("8/8/8/8/8/8/8/Kk6 w - - 0 1", "in check"),
            ("8/8/8/8/8/8/8/K7 w - - 0 1", "exactly one king"),
            ("P7/8/8/8/8/8/8/K1k5 w - - 0 1", "rank 1 or 8"),
            ("8/8/8/8/8/8/8/K1k4 w - -", "7 squares"),
            ("8/8/8/8/8/8/8/K1k5 x", "neither"),
        ] {
            let e = Board::from_fen(fen).unwrap_err().to_string();
            assert!(e.contains(needle), "{fen}: {e}");
        }
    }
}
