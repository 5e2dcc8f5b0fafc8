//! A chess position without castling or en passant (as in the public
//! tablebases): bitboards by role and colour plus the side to move; legal
//! moves, un-moves for retrograde analysis, FEN in and out.

use super::bitboard::*;
use anyhow::{bail, ensure, Result};
use std::ops::ControlFlow;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// The roles that move the same way forwards and backwards.
const PIECES: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Squares a piece (not a pawn) on `sq` attacks with the given occupancy.
fn piece_attacks(role: Role, sq: u8, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => KNIGHT[sq as usize],
        Role::Bishop => bishop_attacks(sq, occ),
        Role::Rook => rook_attacks(sq, occ),
        Role::Queen => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
        _ => KING[sq as usize],
    }
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    pub fn letter(self) -> char {
        ['P', 'N', 'B', 'R', 'Q', 'K'][self as usize]
    }
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
pub struct Move {
    pub role: Role,
    pub from: u8,
    pub to: u8,
    pub capture: Option<Role>,
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
    pub fn uci(&self) -> String {
        let mut s = format!("{}{}", square_name(self.from), square_name(self.to));
        if let Some(p) = self.promotion {
            s.push(p.letter().to_ascii_lowercase());
        }
        s
    }
}

/// Pins and check of the side to move (see `Board::pins`).
#[derive(Clone, Copy, Debug)]
pub struct Pins {
    king: u8,
    pinned: Bitboard,
    in_check: bool,
}

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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub by_role: [Bitboard; 6],
    pub by_color: [Bitboard; 2],
    pub turn: Color,
}

/// Why a set of pieces is not a position the tables hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broken {
    Overlap,
    KingCount,
    PawnOnBackRank,
    OpponentInCheck,
}

impl Board {
    pub fn empty(turn: Color) -> Board {
        Board {
            by_role: [0; 6],
            by_color: [0; 2],
            turn,
        }
    }

    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role as usize]
    }

    pub fn put(&mut self, color: Color, role: Role, sq: u8) {
        self.by_color[color.index()] |= bit(sq);
        self.by_role[role as usize] |= bit(sq);
    }

    fn remove(&mut self, sq: u8) {
        let m = !bit(sq);
        for b in self.by_role.iter_mut() {
            *b &= m;
        }
        for b in self.by_color.iter_mut() {
            *b &= m;
        }
    }

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

    /// Square of the piece `m` captures (differs from `to` en passant).
    fn captured_square(m: &Move) -> u8 {
        if m.en_passant {
            square(file_of(m.to), rank_of(m.from))
        } else {
            m.to
        }
    }

    /// The position after `m` (which must be legal or pseudo-legal here).
    pub fn play(&self, m: &Move) -> Board {
        let mut b = *self;
        let us = self.turn.index();
        if let Some(c) = m.capture {
            let sq = bit(Self::captured_square(m));
            b.by_role[c as usize] ^= sq;
            b.by_color[1 - us] ^= sq;
        }
        b.by_role[m.role as usize] ^= bit(m.from);
        b.by_role[m.promotion.unwrap_or(m.role) as usize] ^= bit(m.to);
        b.by_color[us] ^= bit(m.from) | bit(m.to);
        b.turn = self.turn.other();
        b
    }

    /// Whether the mover's king is safe after the pseudo-legal move `m`,
    /// without building the new position.
    fn leaves_king_safe(&self, m: &Move) -> bool {
        let us = self.turn;
        let them = us.other();
        let king = if m.role == Role::King {
            m.to
        } else {
            self.king(us)
        };
        let mut enemies = self.by_color[them.index()];
        let mut occ = self.occupied() ^ bit(m.from) | bit(m.to);
        if m.capture.is_some() {
            let sq = Self::captured_square(m);
            enemies &= !bit(sq);
            if m.en_passant {
                occ &= !bit(sq);
            }
        }
        let r = &self.by_role;
        let k = king as usize;
        if enemies
            & ((KING[k] & r[Role::King as usize])
                | (KNIGHT[k] & r[Role::Knight as usize])
                | (PAWN_ATTACKS[us.index()][k] & r[Role::Pawn as usize]))
            != 0
        {
            return false;
        }
        let diag = enemies & BISHOP_LINES[k] & (r[Role::Bishop as usize] | r[Role::Queen as usize]);
        let straight = enemies & ROOK_LINES[k] & (r[Role::Rook as usize] | r[Role::Queen as usize]);
        (diag == 0 || bishop_attacks(king, occ) & diag == 0)
            && (straight == 0 || rook_attacks(king, occ) & straight == 0)
    }

    /// What makes moves of the side to move illegal here: pieces pinned to
    /// its king, and whether it is in check. Computed once per position, it
    /// settles most moves without an attack test.
    pub fn pins(&self) -> Pins {
        let us = self.turn;
        let king = self.king(us);
        let own = self.by_color[us.index()];
        let enemies = self.by_color[us.other().index()];
        let occ = own | enemies;
        let r = &self.by_role;
        let k = king as usize;
        let diag = enemies & BISHOP_LINES[k] & (r[Role::Bishop as usize] | r[Role::Queen as usize]);
        let straight = enemies & ROOK_LINES[k] & (r[Role::Rook as usize] | r[Role::Queen as usize]);
        let mut pinned = 0;
        for s in squares(diag | straight) {
            let b = between(king, s) & occ;
            if b.count_ones() == 1 && b & own != 0 {
                pinned |= b;
            }
        }
        Pins {
            king,
            pinned,
            in_check: self.attackers(king, us.other(), occ) != 0,
        }
    }

    /// Whether the pseudo-legal move `m` is legal, given the position's pins:
    /// only king moves, moves out of check and en passant need an attack test.
    pub fn is_legal_with(&self, m: &Move, p: &Pins) -> bool {
        if m.role == Role::King || p.in_check || m.en_passant {
            return self.leaves_king_safe(m);
        }
        p.pinned & bit(m.from) == 0 || line(p.king, m.from) & bit(m.to) != 0
    }

    /// Every legal move of the side to move, appended to `out`.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.pseudo_moves(out);
        let pins = self.pins();
        let mut keep = start;
        for i in start..out.len() {
            let m = out[i];
            if self.is_legal_with(&m, &pins) {
                out[keep] = m;
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let _ = self.each_pseudo_move(&mut |m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` with every legal move until it breaks; true when it never
    /// did. Moves are generated piece by piece, so an early break saves the
    /// rest of the generation.
    pub fn all_legal_moves(&self, mut f: impl FnMut(&Move) -> bool) -> bool {
        let pins = self.pins();
        self.each_pseudo_move(&mut |m| {
            if !self.is_legal_with(&m, &pins) || f(&m) {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })
        .is_continue()
    }

    /// Calls `f` with every pseudo-legal capture and promotion (filter with
    /// `is_legal_with`) until it breaks: the moves that leave the material
    /// signature, in the order `each_pseudo_move` gives them.
    pub fn each_conversion(&self, f: &mut dyn FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
        self.each_pseudo(true, f)
    }

    /// The number of legal moves that neither capture nor promote, from
    /// bitboards: only king steps need an attack test each.
    pub fn quiet_move_count(&self, p: &Pins) -> u32 {
        let us = self.turn;
        let occ = self.occupied();
        let empty = !occ;
        let king = p.king;
        let mut n = 0;
        for to in squares(KING[king as usize] & empty) {
            let step = Move {
                role: Role::King,
                from: king,
                to,
                capture: None,
                promotion: None,
                en_passant: false,
            };
            n += self.leaves_king_safe(&step) as u32;
        }
        // In check, a quiet move of another piece must block the one
        // checker (a leaper's check cannot be blocked, nor a double check).
        let allowed = if p.in_check {
            let checkers = self.attackers(king, us.other(), occ);
            if checkers.count_ones() > 1 {
                return n;
            }
            between(king, checkers.trailing_zeros() as u8)
        } else {
            !0
        };
        let targets = |from: u8, t: Bitboard| {
            let t = t & empty & allowed;
            if p.pinned & bit(from) != 0 {
                t & line(king, from)
            } else {
                t
            }
        };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in squares(self.pieces(us, role)) {
                n += targets(from, piece_attacks(role, from, occ)).count_ones();
            }
        }
        let forward: i8 = if us == Color::White { 8 } else { -8 };
        let start_rank = if us == Color::White { 1 } else { 6 };
        let last_rank = if us == Color::White { 7 } else { 0 };
        for from in squares(self.pieces(us, Role::Pawn)) {
            let one = (from as i8 + forward) as u8;
            if occ & bit(one) != 0 || rank_of(one) == last_rank {
                continue;
            }
            let mut t = bit(one);
            let two = (one as i8 + forward) as u8;
            if rank_of(from) == start_rank && occ & bit(two) == 0 {
                t |= bit(two);
            }
            n += targets(from, t).count_ones();
        }
        n
    }

    /// Calls `f` with every pseudo-legal move (filter with `is_legal_with`)
    /// until it breaks.
    pub fn each_pseudo_move(&self, f: &mut dyn FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
        self.each_pseudo(false, f)
    }

    /// Every pseudo-legal move, or with `conversions_only` only the captures
    /// and promotions, in the same order.
    fn each_pseudo(
        &self,
        conversions_only: bool,
        f: &mut dyn FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let us = self.turn;
        let own = self.by_color[us.index()];
        let theirs = self.by_color[us.other().index()];
        let occ = own | theirs;
        let reach = if conversions_only { theirs } else { !own };
        for role in PIECES {
            for from in squares(self.pieces(us, role)) {
                let targets = piece_attacks(role, from, occ) & reach;
                for to in squares(targets) {
                    f(Move {
                        role,
                        from,
                        to,
                        capture: self.capture_at(to, theirs),
                        promotion: None,
                        en_passant: false,
                    })?;
                }
            }
        }
        let forward: i8 = if us == Color::White { 8 } else { -8 };
        let start_rank = if us == Color::White { 1 } else { 6 };
        let last_rank = if us == Color::White { 7 } else { 0 };
        for from in squares(self.pieces(us, Role::Pawn)) {
            let mut push = |to: u8, capture: Option<Role>| -> ControlFlow<()> {
                let promotions: &[Option<Role>] = if rank_of(to) == last_rank {
                    &[
                        Some(Role::Queen),
                        Some(Role::Rook),
                        Some(Role::Bishop),
                        Some(Role::Knight),
                    ]
                } else {
                    &[None]
                };
                for &promotion in promotions {
                    f(Move {
                        role: Role::Pawn,
                        from,
                        to,
                        capture,
                        promotion,
                        en_passant: false,
                    })?;
                }
                ControlFlow::Continue(())
            };
            let one = (from as i8 + forward) as u8;
            if occ & bit(one) == 0 {
                if !conversions_only || rank_of(one) == last_rank {
                    push(one, None)?;
                }
                let two = (one as i8 + forward) as u8;
                if !conversions_only && rank_of(from) == start_rank && occ & bit(two) == 0 {
                    push(two, None)?;
                }
            }
            for to in squares(PAWN_ATTACKS[us.index()][from as usize] & theirs) {
                push(to, self.capture_at(to, theirs))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The legal en passant captures in this position when the opponent's
    /// last move was a double push to `pushed_to`.
    pub fn en_passant_captures(&self, pushed_to: u8, out: &mut Vec<Move>) {
        let us = self.turn;
        let behind = if us == Color::White {
            pushed_to + 8
        } else {
            pushed_to - 8
        };
        let beside =
            (KING[pushed_to as usize] & (0xffu64 << (8 * rank_of(pushed_to)))) & !bit(pushed_to);
        for from in squares(beside & self.pieces(us, Role::Pawn)) {
            let m = Move {
                role: Role::Pawn,
                from,
                to: behind,
                capture: Some(Role::Pawn),
                promotion: None,
                en_passant: true,
            };
            if self.leaves_king_safe(&m) {
                out.push(m);
            }
        }
    }

    fn capture_at(&self, sq: u8, theirs: Bitboard) -> Option<Role> {
        if theirs & bit(sq) == 0 {
            return None;
        }
        self.piece_at(sq).map(|(_, r)| r)
    }

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

    pub fn piece_count(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// Standard notation, with check (+) and mate (#) marks.
    pub fn san(&self, m: &Move) -> String {
        let mut s = String::new();
        if m.role == Role::Pawn {
            if m.capture.is_some() {
                s.push((b'a' + file_of(m.from)) as char);
                s.push('x');
            }
            s.push_str(&square_name(m.to));
            if let Some(p) = m.promotion {
                s.push('=');
                s.push(p.letter());
            }
        } else {
            s.push(m.role.letter());
            if m.role != Role::King {
                let mut all = Vec::new();
                self.legal_moves(&mut all);
                let rivals: Vec<&Move> = all
                    .iter()
                    .filter(|o| o.role == m.role && o.to == m.to && o.from != m.from)
                    .collect();
                if !rivals.is_empty() {
                    if rivals.iter().all(|o| file_of(o.from) != file_of(m.from)) {
                        s.push((b'a' + file_of(m.from)) as char);
                    } else if rivals.iter().all(|o| rank_of(o.from) != rank_of(m.from)) {
                        s.push((b'1' + rank_of(m.from)) as char);
                    } else {
                        s.push_str(&square_name(m.from));
                    }
                }
            }
            if m.capture.is_some() {
                s.push('x');
            }
            s.push_str(&square_name(m.to));
        }
        let after = self.play(m);
        if after.in_check(after.turn) {
            let mut replies = Vec::new();
            after.legal_moves(&mut replies);
            s.push(if replies.is_empty() { '#' } else { '+' });
        }
        s
    }

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
