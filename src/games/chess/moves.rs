//! Legal moves of a `Board`: making a move, pins, legality, generation
//! (all moves, conversions only, pseudo-legal), en passant captures at the
//! probe, and the quiet-move count the solver's counters start from.

use super::bitboard::*;
use super::board::*;
use std::ops::ControlFlow;

/// Pins and check of the side to move (see `Board::pins`).
#[derive(Clone, Copy, Debug)]
pub struct Pins {
    king: u8,
    pinned: Bitboard,
    in_check: bool,
}

impl Pins {
    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.in_check
    }

    /// `targets` of the piece on `from`, kept to the line through the king
    /// when that piece is pinned.
    #[inline]
    fn along_pin(&self, from: u8, targets: Bitboard) -> Bitboard {
        if self.pinned & bit(from) != 0 {
            targets & line(self.king, from)
        } else {
            targets
        }
    }
}
impl Board {
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

    /// [`Board::is_legal_with`] for the moves of one position: a king's
    /// move is tested against every square the other side attacks, its
    /// sliders seen through the king's square, computed at the first king
    /// move (`danger`) instead of one attack test per king move.
    #[inline]
    fn is_legal_among(&self, m: &Move, p: &Pins, danger: &mut Option<Bitboard>) -> bool {
        if m.role != Role::King {
            return self.is_legal_with(m, p);
        }
        let attacked = *danger.get_or_insert_with(|| self.king_danger(p));
        attacked & bit(m.to) == 0
    }

    /// Every legal move of the side to move, appended to `out`.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.pseudo_moves(out);
        let pins = self.pins();
        let mut danger = None;
        let mut keep = start;
        for i in start..out.len() {
            let m = out[i];
            if self.is_legal_among(&m, &pins, &mut danger) {
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
        let mut danger = None;
        self.each_pseudo_move(&mut |m| {
            if !self.is_legal_among(&m, &pins, &mut danger) || f(&m) {
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
    /// bitboards (king steps against one map of the attacked squares).
    pub fn quiet_move_count(&self, p: &Pins) -> u32 {
        self.quiet_moves_and_double_pushes(p).0
    }

    /// `quiet_move_count`, and how many of those moves are double pawn
    /// pushes (the moves after which the stored position, kept without an
    /// en passant right, may not be the position reached).
    pub fn quiet_moves_and_double_pushes(&self, p: &Pins) -> (u32, u32) {
        let us = self.turn;
        let mut n = self.quiet_king_targets(p).count_ones();
        let allowed = self.quiet_targets(p);
        if allowed == 0 {
            return (n, 0);
        }
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in squares(self.pieces(us, role)) {
                n += self
                    .quiet_piece_targets(p, allowed, role, from)
                    .count_ones();
            }
        }
        let mut doubles = 0;
        for from in squares(self.pieces(us, Role::Pawn)) {
            let (single, double) = self.quiet_pushes(from);
            let t = p.along_pin(from, (single | double) & allowed);
            n += t.count_ones();
            doubles += (t & double != 0) as u32;
        }
        (n, doubles)
    }

    /// The squares a pawn on `from` may push to without promoting, pins and
    /// check aside: one step ahead if empty (not onto the last rank), and
    /// two steps from its first rank if both are empty.
    fn quiet_pushes(&self, from: u8) -> (Bitboard, Bitboard) {
        let us = self.turn;
        let occ = self.occupied();
        let forward: i8 = if us == Color::White { 8 } else { -8 };
        let start_rank = if us == Color::White { 1 } else { 6 };
        let last_rank = if us == Color::White { 7 } else { 0 };
        let one = (from as i8 + forward) as u8;
        if occ & bit(one) != 0 || rank_of(one) == last_rank {
            return (0, 0);
        }
        let two = (one as i8 + forward) as u8;
        let double = rank_of(from) == start_rank && occ & bit(two) == 0;
        (bit(one), if double { bit(two) } else { 0 })
    }

    /// The squares a quiet move of the side to move must reach to be
    /// legal, pins aside: any empty square, only the squares between the
    /// king and its one checker in check, none in double check.
    pub fn quiet_targets(&self, p: &Pins) -> Bitboard {
        let occ = self.occupied();
        if !p.in_check {
            return !occ;
        }
        let checkers = self.attackers(p.king, self.turn.other(), occ);
        if checkers.count_ones() > 1 {
            return 0;
        }
        between(p.king, checkers.trailing_zeros() as u8)
    }

    /// Where the piece on `from` (not a king) may legally go without
    /// capturing, given `quiet_targets`.
    #[inline]
    pub fn quiet_piece_targets(
        &self,
        p: &Pins,
        allowed: Bitboard,
        role: Role,
        from: u8,
    ) -> Bitboard {
        let t = piece_attacks(role, from, self.occupied()) & allowed;
        if p.pinned & bit(from) != 0 {
            t & line(p.king, from)
        } else {
            t
        }
    }

    /// Every square the other side attacks, its sliders seen through the
    /// king of the side to move (so the king cannot step back along a
    /// checking line): the squares that king may not move to.
    pub fn king_danger(&self, p: &Pins) -> Bitboard {
        self.attacked_by(self.turn.other(), self.occupied() ^ bit(p.king))
    }

    /// The squares the king of the side to move may step to without
    /// capturing.
    pub fn quiet_king_targets(&self, p: &Pins) -> Bitboard {
        KING[p.king as usize] & !self.occupied() & !self.king_danger(p)
    }

    /// Whether the side to move has a legal move that neither captures
    /// nor moves a pawn (pieces first: the king's test needs every attack).
    pub fn has_piece_move(&self, p: &Pins) -> bool {
        let us = self.turn;
        let allowed = self.quiet_targets(p);
        if allowed != 0 {
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                for from in squares(self.pieces(us, role)) {
                    if self.quiet_piece_targets(p, allowed, role, from) != 0 {
                        return true;
                    }
                }
            }
        }
        self.quiet_king_targets(p) != 0
    }

    /// Calls `f` with every legal pawn move that neither captures nor
    /// promotes (single and double pushes).
    pub fn each_legal_push(&self, p: &Pins, mut f: impl FnMut(Move) -> bool) -> bool {
        for from in squares(self.pieces(self.turn, Role::Pawn)) {
            let (single, double) = self.quiet_pushes(from);
            for to in squares(single | double) {
                let m = Move {
                    role: Role::Pawn,
                    from,
                    to,
                    capture: None,
                    promotion: None,
                    en_passant: false,
                };
                if self.is_legal_with(&m, p) && !f(m) {
                    return false;
                }
            }
        }
        true
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
}
