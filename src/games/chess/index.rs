//! Closed-form ranking of the positions of one material signature.
//!
//! Without pawns: index = king_pair · Π sizes + rank(group 1) · … , the
//! kings placed together (462 pairs up to the 8 board symmetries).
//! With pawns the pawns come first: index = (rank(pawns) · pairs +
//! king_pair) · Π piece sizes + rank(piece group 1) · …, the white king on
//! files a–d (1806 pairs), so that one placement of the pawns is one
//! contiguous block of slots (a solver writes a block at a time; a shipped
//! table compresses block by block). Each group of like pieces (same colour
//! and role) is an unordered set ranked in the combinatorial number system
//! over 64 squares (48 for pawns, ranks 2–7).
//! A position whose pieces overlap, or which a symmetry maps to a smaller
//! index (kings on the diagonal), is not canonical and holds no value.

use super::bitboard::*;
use super::board::{Board, Color, Move, Role};
use super::material::Material;
use std::sync::OnceLock;

const NO_PAIR: u16 = u16::MAX;

/// The index layout of tables with pawns, recorded in their parameters:
/// 2 ranks the pawns before the king pair (1 ranked the king pair first).
pub const PAWN_LAYOUT: u32 = 2;

/// The canonical (white king, black king) pairs under the board's symmetries, and their ranks.
pub struct KingPairs {
    /// Every canonical pair, in rank order.
    pub pairs: Vec<(u8, u8)>,
    index: Vec<u16>,
    /// For each raw (white king, black king): the symmetries that bring the
    /// pair into the canonical set (one, or two with kings on the diagonal).
    syms: Vec<[u8; 2]>,
    sym_count: Vec<u8>,
    /// For each raw pair: the rank of its canonical image (the same under
    /// each of its symmetries), NO_PAIR when it has none.
    image_rank: Vec<u16>,
}

fn adjacent_or_same(a: u8, b: u8) -> bool {
    a == b || KING[a as usize] & bit(b) != 0
}

impl KingPairs {
    fn build(pawns: bool) -> KingPairs {
        let canonical = |wk: u8, bk: u8| -> bool {
            if adjacent_or_same(wk, bk) {
                return false;
            }
            let (f, r) = (file_of(wk), rank_of(wk));
            if pawns {
                return f <= 3;
            }
            if f > 3 || r > f {
                return false;
            }
            r != f || rank_of(bk) <= file_of(bk)
        };
        let mut pairs = Vec::new();
        let mut index = vec![NO_PAIR; 64 * 64];
        for wk in 0..64u8 {
            for bk in 0..64u8 {
                if canonical(wk, bk) {
                    index[wk as usize * 64 + bk as usize] = pairs.len() as u16;
                    pairs.push((wk, bk));
                }
            }
        }
        let mut syms = vec![[0u8; 2]; 64 * 64];
        let mut sym_count = vec![0u8; 64 * 64];
        let allowed: &[u8] = if pawns {
            &[0, 1]
        } else {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        };
        for wk in 0..64u8 {
            for bk in 0..64u8 {
                let i = wk as usize * 64 + bk as usize;
                for &s in allowed {
                    if canonical(transform(s, wk), transform(s, bk)) {
                        let n = sym_count[i] as usize;
                        if n < 2 {
                            syms[i][n] = s;
                        }
                        sym_count[i] += 1;
                    }
                }
            }
        }
        let image_rank = (0..64 * 64)
            .map(|i| {
                let (wk, bk, s) = ((i / 64) as u8, (i % 64) as u8, syms[i][0]);
                if sym_count[i] == 0 {
                    NO_PAIR
                } else {
                    index[transform(s, wk) as usize * 64 + transform(s, bk) as usize]
                }
            })
            .collect();
        KingPairs {
            pairs,
            index,
            syms,
            sym_count,
            image_rank,
        }
    }

    /// The pairs for tables with pawns (one mirror) or without (the eight symmetries).
    pub fn get(pawns: bool) -> &'static KingPairs {
        static PAWNLESS: OnceLock<KingPairs> = OnceLock::new();
        static PAWNS: OnceLock<KingPairs> = OnceLock::new();
        if pawns {
            PAWNS.get_or_init(|| KingPairs::build(true))
        } else {
            PAWNLESS.get_or_init(|| KingPairs::build(false))
        }
    }

    /// The rank of a raw pair's canonical image, None when it has none
    /// (kings on one square or next to each other).
    #[inline]
    pub(crate) fn image_rank(&self, wk: u8, bk: u8) -> Option<usize> {
        let r = self.image_rank[wk as usize * 64 + bk as usize];
        (r != NO_PAIR).then_some(r as usize)
    }

    /// The symmetries (one, or two with both kings on a diagonal's axis)
    /// that bring a raw pair into the canonical set.
    pub(crate) fn symmetries(&self, wk: u8, bk: u8) -> &[u8] {
        let i = wk as usize * 64 + bk as usize;
        &self.syms[i][..self.sym_count[i].min(2) as usize]
    }
}

const fn binomials() -> [[u64; 8]; 65] {
    let mut t = [[0u64; 8]; 65];
    let mut n = 0;
    while n < 65 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}
static BINOM: [[u64; 8]; 65] = binomials();

fn rank_set(mask: u64) -> u64 {
    if mask & mask.wrapping_sub(1) == 0 {
        // One piece: its rank is its square.
        return mask.trailing_zeros() as u64;
    }
    let mut r = 0;
    for (i, s) in squares(mask).enumerate() {
        r += BINOM[s as usize][i + 1];
    }
    r
}

fn unrank_set(rank: u64, k: usize, universe: u8) -> u64 {
    match k {
        1 => 1 << rank,
        2 | 3 => unrank_table(k)[rank as usize],
        _ => unrank_by_scan(rank, k, universe),
    }
}

/// Every `k`-subset of the 64 squares by its rank, for `k` = 2 and 3 (16
/// KB and 333 KB): decoding a slot is on the solver's hot path, and the scan
/// costs up to 64 steps a piece. The colex rank of a set does not depend
/// on the universe, so the table serves the pawns' 48 squares too.
fn unrank_table(k: usize) -> &'static [u64] {
    static TABLES: [OnceLock<Vec<u64>>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[k - 2].get_or_init(|| {
        (0..BINOM[64][k])
            .map(|r| unrank_by_scan(r, k, 64))
            .collect()
    })
}

fn unrank_by_scan(mut rank: u64, k: usize, universe: u8) -> u64 {
    let mut mask = 0u64;
    let mut top = universe as usize;
    for i in (1..=k).rev() {
        let mut c = top - 1;
        while BINOM[c][i] > rank {
            c -= 1;
        }
        rank -= BINOM[c][i];
        mask |= 1 << c;
        top = c;
    }
    mask
}

#[derive(Clone, Debug)]
struct Group {
    color: Color,
    role: Role,
    count: usize,
    size: u64,
}

/// `(x / d, x % d)`, by shift and mask when `d` is a power of two (a lone
/// piece's 64 squares, and products of them): the decoder runs for every
/// slot in every pass, and a division costs tens of cycles.
#[inline]
fn div_rem(x: u64, d: u64) -> (u64, u64) {
    if d.is_power_of_two() {
        (x >> d.trailing_zeros(), x & (d - 1))
    } else {
        (x / d, x % d)
    }
}

/// See [`Layout::lone_line`].
#[derive(Clone, Copy, Debug)]
pub struct LoneLine {
    base: u64,
    weight: u64,
    sym: u8,
}

impl LoneLine {
    /// The index with the lone piece on `sq`.
    #[inline]
    pub fn index(&self, sq: u8) -> u64 {
        self.base + transform(self.sym, sq) as u64 * self.weight
    }
}

/// The ranking of one material signature (white = the stronger side).
#[derive(Clone)]
pub struct Layout {
    /// The material it ranks.
    pub material: Material,
    pawns: bool,
    /// The pawn groups (ranked before the king pair), then the pieces'.
    groups: Vec<Group>,
    /// How many of `groups` are pawns.
    pawn_groups: usize,
    kings: &'static KingPairs,
    /// Slots per king pair: the pieces' groups' sizes multiplied.
    inner: u64,
    /// Slots per side to move.
    pub positions: u64,
}

impl Layout {
    /// The ranking of `material`.
    pub fn new(material: Material) -> Layout {
        let pawns = material.has_pawns();
        let mut groups = Vec::new();
        let pawns_first = [(Color::White, Role::Pawn), (Color::Black, Role::Pawn)];
        let pieces = [Color::White, Color::Black].into_iter().flat_map(|color| {
            [Role::Queen, Role::Rook, Role::Bishop, Role::Knight].map(|role| (color, role))
        });
        for (color, role) in pawns_first.into_iter().chain(pieces) {
            {
                let count = material.counts[color.index()][role as usize] as usize;
                if count > 0 {
                    let universe = if role == Role::Pawn { 48 } else { 64 };
                    groups.push(Group {
                        color,
                        role,
                        count,
                        size: BINOM[universe][count],
                    });
                }
            }
        }
        let kings = KingPairs::get(pawns);
        let pawn_groups = groups.iter().filter(|g| g.role == Role::Pawn).count();
        let inner: u64 = groups[pawn_groups..].iter().map(|g| g.size).product();
        let outer: u64 = groups[..pawn_groups].iter().map(|g| g.size).product();
        Layout {
            material,
            pawns,
            groups,
            pawn_groups,
            kings,
            inner,
            positions: outer * kings.pairs.len() as u64 * inner,
        }
    }

    /// Slots between a position and the one with the last group's piece
    /// moved to the next square: the innermost digit's radix.
    pub fn innermost(&self) -> u64 {
        match &self.groups[self.pawn_groups..] {
            [] => self.kings.pairs.len() as u64,
            [.., last] => last.size,
        }
    }

    /// Slots in one placement of the pawns' block: every king pair with
    /// every placement of the pieces (the whole table without pawns).
    pub fn pawn_block(&self) -> u64 {
        self.kings.pairs.len() as u64 * self.inner
    }

    /// The block (see [`Layout::pawn_block`]) of the positions with these
    /// pawns, the white king on files a-d.
    pub fn block_of_pawns(&self, white: Bitboard, black: Bitboard) -> u64 {
        let mut r = 0;
        for g in &self.groups[..self.pawn_groups] {
            let pawns = if g.color == Color::White { white } else { black };
            r = r * g.size + rank_set(pawns >> 8);
        }
        r
    }

    /// The king pairs in the order of their ranks.
    pub fn king_pairs(&self) -> &[(u8, u8)] {
        &self.kings.pairs
    }

    /// Whether every group of pieces besides the pawns is a lone piece
    /// (no two alike): then a piece's digit is its square.
    pub fn pieces_are_lone(&self) -> bool {
        self.groups[self.pawn_groups..].iter().all(|g| g.count == 1)
    }

    /// For a table with pawns whose pieces are lone: the index of the
    /// position in the pawns' block `block` with kings `wk`, `bk` and the
    /// pieces' squares as the digits of `low` (six bits each, the first
    /// group highest). None unless the kings are a canonical pair (white's
    /// king on files a-d, apart from Black's).
    pub fn index_of_lone(&self, block: u64, wk: u8, bk: u8, low: u64) -> Option<u64> {
        let pair = self.kings.index[wk as usize * 64 + bk as usize];
        (self.pawns && pair != NO_PAIR && low < self.inner)
            .then(|| (block * self.kings.pairs.len() as u64 + pair as u64) * self.inner + low)
    }

    /// The king pair's rank at slot `index`.
    fn pair_at(&self, index: u64) -> usize {
        ((index / self.inner) % self.kings.pairs.len() as u64) as usize
    }

    /// One line: the material, its positions and how they are ranked.
    pub fn description(&self) -> String {
        let pair = format!(
            "king_pair ({} pairs{})",
            self.kings.pairs.len(),
            if self.pawns {
                ", white king on files a-d"
            } else {
                " up to symmetry"
            }
        );
        let mut s = String::new();
        for (i, g) in self.groups.iter().enumerate() {
            if i == self.pawn_groups {
                s.push_str(&pair);
                s.push_str(" x ");
            }
            s.push_str(&format!(
                "C({}, {}) {} {} x ",
                if g.role == Role::Pawn { 48 } else { 64 },
                g.count,
                if g.color == Color::White {
                    "white"
                } else {
                    "black"
                },
                g.role.letter()
            ));
        }
        if self.pawn_groups == self.groups.len() {
            s.push_str(&pair);
        } else {
            s.truncate(s.len() - " x ".len());
        }
        s
    }

    fn index_with(&self, b: &Board, sym: u8) -> u64 {
        let kings = (b.king(Color::White), b.king(Color::Black));
        self.index_of_parts(kings, |color, role| b.pieces(color, role), sym)
    }

    /// Index of a legal placement given by its kings (white, black) and
    /// each group's squares `pieces(color, role)`, seen through symmetry
    /// `sym`: what [`Layout::index`] gives for the board, with no board.
    #[inline]
    fn index_of_parts(
        &self,
        (wk, bk): (u8, u8),
        pieces: impl Fn(Color, Role) -> Bitboard,
        sym: u8,
    ) -> u64 {
        let wk = transform(sym, wk);
        let bk = transform(sym, bk);
        let pair = self.kings.index[wk as usize * 64 + bk as usize] as u64;
        let mut r = 0;
        for (i, g) in self.groups.iter().enumerate() {
            if i == self.pawn_groups {
                r = r * self.kings.pairs.len() as u64 + pair;
            }
            let pieces = pieces(g.color, g.role);
            let offset = if g.role == Role::Pawn { 8 } else { 0 };
            // A lone piece's rank is its square: one table lookup instead
            // of transforming the whole bitboard.
            let rank = if g.count == 1 {
                (transform(sym, pieces.trailing_zeros() as u8) - offset) as u64
            } else {
                rank_set(transform_bb(sym, pieces) >> offset)
            };
            r = r * g.size + rank;
        }
        if self.pawn_groups == self.groups.len() {
            r = r * self.kings.pairs.len() as u64 + pair;
        }
        r
    }

    /// The index of a placement as a function of one lone piece's square:
    /// for kings `kings` with a single symmetry and groups
    /// `pieces(color, role)`, of which `group` is one piece, the index is
    /// [`LoneLine::index`] of that piece's square, the others staying.
    /// None when the kings have two canonical images (the pieces then
    /// choose the frame) or the group is not a lone piece.
    pub fn lone_line(
        &self,
        kings: (u8, u8),
        pieces: impl Fn(Color, Role) -> Bitboard,
        (color, role): (Color, Role),
    ) -> Option<LoneLine> {
        let &[sym] = self.kings.symmetries(kings.0, kings.1) else {
            return None;
        };
        let g = self.groups.iter().position(|g| g.color == color && g.role == role)?;
        if g < self.pawn_groups || self.groups[g].count != 1 {
            return None;
        }
        // Piece groups are ranked after the king pair: only later groups'
        // sizes weigh on this one's digit.
        let weight: u64 = self.groups[g + 1..].iter().map(|h| h.size).product();
        let at = pieces(color, role).trailing_zeros() as u8;
        let index = self.index_of_parts(kings, &pieces, sym);
        Some(LoneLine {
            base: index - transform(sym, at) as u64 * weight,
            weight,
            sym,
        })
    }

    /// Index of a legal board of this material, in the table's colours.
    pub fn index(&self, b: &Board) -> u64 {
        let kings = (b.king(Color::White), b.king(Color::Black));
        self.index_of(kings, |color, role| b.pieces(color, role))
    }

    /// [`Layout::index`] of a legal placement given by its kings (white,
    /// black) and each group's squares `pieces(color, role)`.
    #[inline]
    pub fn index_of(&self, kings: (u8, u8), pieces: impl Fn(Color, Role) -> Bitboard) -> u64 {
        let mut best = u64::MAX;
        for &s in self.kings.symmetries(kings.0, kings.1) {
            best = best.min(self.index_of_parts(kings, &pieces, s));
        }
        best
    }

    /// Index of the position after the move `m` of the canonical board `b`
    /// at `index`, for a move that stays in the table (no capture, no
    /// promotion): [`Layout::index_after_unmove`] run forwards, from the
    /// parent's placement with the moving side not to move, so a move
    /// that keeps the frame costs one group's rank.
    pub fn index_after_move(&self, b: &Board, index: u64, m: &Move) -> u64 {
        debug_assert!(!m.converts());
        let mut parent = *b;
        parent.turn = b.turn.other();
        let after = self.index_after_unmove(&parent, index, m.role, m.to, m.from);
        debug_assert_eq!(after, self.index(&b.play(m)));
        after
    }

    /// Index of the position before the unmove `(role, from, to)` of the
    /// canonical board `b` at `index` (see `Board::each_unmove`). When the
    /// kings stay and their pair has a single symmetry, the board stays in
    /// its frame and only the moved group's rank changes; otherwise the
    /// board is ranked in full.
    pub fn index_after_unmove(&self, b: &Board, index: u64, role: Role, from: u8, to: u8) -> u64 {
        let (wk, bk) = (b.king(Color::White), b.king(Color::Black));
        let mover = b.turn.other();
        if role == Role::King {
            // The other pieces stay in their frame when the new king pair
            // is canonical as it stands and has no second symmetry.
            let (wk, bk) = if mover == Color::White {
                (from, bk)
            } else {
                (wk, from)
            };
            let pair = wk as usize * 64 + bk as usize;
            let rank = self.kings.index[pair];
            if rank != NO_PAIR && self.kings.sym_count[pair] == 1 {
                let now = self.pair_at(index) as u64;
                return index - now * self.inner + rank as u64 * self.inner;
            }
        } else if self.kings.sym_count[wk as usize * 64 + bk as usize] == 1 {
            // The king pair's digit sits below the first piece group.
            let mut weight = if self.pawn_groups == self.groups.len() {
                self.kings.pairs.len() as u64
            } else {
                1
            };
            for (i, g) in self.groups.iter().enumerate().rev() {
                if g.color == mover && g.role == role {
                    let offset = if role == Role::Pawn { 8 } else { 0 };
                    let (now, before) = if g.count == 1 {
                        ((to - offset) as u64, (from - offset) as u64)
                    } else {
                        let pieces = b.pieces(mover, role);
                        (
                            rank_set(pieces >> offset),
                            rank_set((pieces ^ bit(to) ^ bit(from)) >> offset),
                        )
                    };
                    return index - now * weight + before * weight;
                }
                weight *= g.size;
                if i == self.pawn_groups {
                    weight *= self.kings.pairs.len() as u64;
                }
            }
        }
        self.index(&b.unmoved(role, from, to))
    }

    /// The symmetry other than the identity that leaves the canonical board
    /// `b` as it is, if any (both kings on the axis of a diagonal mirror,
    /// the other pieces mirrored onto like pieces): then two symmetries give
    /// its index.
    pub fn symmetry_fixing(&self, b: &Board) -> Option<u8> {
        match self
            .kings
            .symmetries(b.king(Color::White), b.king(Color::Black))
        {
            [s, t] if self.index_with(b, *s) == self.index_with(b, *t) => {
                debug_assert_eq!(*s, 0, "not a canonical board: {}", b.fen());
                Some(*t)
            }
            _ => None,
        }
    }

    /// Whether the kings of slot `index` have more than one canonical
    /// image. When they have one, no symmetry but the identity maps them
    /// onto themselves (that image would be a second), so none fixes the
    /// board either.
    pub fn kings_have_a_second_canonical_image(&self, index: u64) -> bool {
        let (wk, bk) = self.kings.pairs[self.pair_at(index)];
        self.kings.sym_count[wk as usize * 64 + bk as usize] > 1
    }

    /// The board at `index` with `turn` to move, when its pieces do not
    /// overlap and it is the canonical representative; legality (check) is
    /// left to the caller.
    pub fn board(&self, index: u64, turn: Color) -> Option<Board> {
        self.cursor(index).board(turn)
    }

    /// The board at `index` when it is a legal position the table holds.
    pub fn legal_board(&self, index: u64, turn: Color) -> Option<Board> {
        self.board(index, turn).filter(|b| b.broken().is_none())
    }

    /// A cursor on slot `index` (below `positions`), for walking slots in
    /// order: see [`Cursor`].
    pub fn cursor(&self, index: u64) -> Cursor<'_> {
        let mut ranks = [0u64; 8];
        let mut rest = index;
        for i in (self.pawn_groups..self.groups.len()).rev() {
            (rest, ranks[i]) = div_rem(rest, self.groups[i].size);
        }
        let pair;
        (rest, pair) = div_rem(rest, self.kings.pairs.len() as u64);
        for i in (0..self.pawn_groups).rev() {
            (rest, ranks[i]) = div_rem(rest, self.groups[i].size);
        }
        let mut c = Cursor {
            layout: self,
            index,
            pair,
            ranks,
            masks: [0; 8],
        };
        for i in 0..self.groups.len() {
            c.unrank(i);
        }
        c
    }
}

/// Walks the slots of a layout in index order. Consecutive slots differ
/// in the last group's rank (and, on a carry, the ranks before it), so a
/// step unranks only the groups whose rank changed, with no division: the
/// first pass and the check decode every slot, and decoding each afresh
/// (an index divided by every group's size) was a sixth of a 5-piece
/// first pass.
pub struct Cursor<'a> {
    layout: &'a Layout,
    index: u64,
    pair: u64,
    ranks: [u64; 8],
    /// Each group's squares at its rank.
    masks: [u64; 8],
}

impl Cursor<'_> {
    fn unrank(&mut self, i: usize) {
        let g = &self.layout.groups[i];
        let pawn = g.role == Role::Pawn;
        let mask = unrank_set(self.ranks[i], g.count, if pawn { 48 } else { 64 });
        self.masks[i] = if pawn { mask << 8 } else { mask };
    }

    /// The slot the cursor is on.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// On to the next slot (the caller stops at `positions`).
    pub fn advance(&mut self) {
        self.index += 1;
        let (groups, pawn_groups) = (&self.layout.groups, self.layout.pawn_groups);
        for i in (pawn_groups..groups.len()).rev() {
            if self.step(i) {
                return;
            }
        }
        self.pair += 1;
        if self.pair < self.layout.kings.pairs.len() as u64 || pawn_groups == 0 {
            return;
        }
        self.pair = 0;
        for i in (0..pawn_groups).rev() {
            if self.step(i) {
                return;
            }
        }
        // Past the last slot: the pair is out of range, as without pawns.
        self.pair = self.layout.kings.pairs.len() as u64;
    }

    /// Steps group `i`'s rank: true when it did not wrap to 0.
    fn step(&mut self, i: usize) -> bool {
        self.ranks[i] += 1;
        let more = self.ranks[i] < self.layout.groups[i].size;
        if !more {
            self.ranks[i] = 0;
        }
        self.unrank(i);
        more
    }

    /// The board at the cursor's slot, when its pieces do not overlap and
    /// it is the canonical representative (see `Layout::board`).
    pub fn board(&self, turn: Color) -> Option<Board> {
        let layout = self.layout;
        let (wk, bk) = *layout.kings.pairs.get(self.pair as usize)?;
        let mut b = Board::empty(turn);
        b.put(Color::White, Role::King, wk);
        b.put(Color::Black, Role::King, bk);
        let mut used = bit(wk) | bit(bk);
        for (g, &mask) in layout.groups.iter().zip(&self.masks) {
            if mask & used != 0 {
                return None;
            }
            used |= mask;
            b.by_color[g.color.index()] |= mask;
            b.by_role[g.role as usize] |= mask;
        }
        if layout.kings.sym_count[wk as usize * 64 + bk as usize] > 1
            && layout.index(&b) != self.index
        {
            return None;
        }
        Some(b)
    }

    /// `Layout::legal_board` at the cursor's slot.
    pub fn legal_board(&self, turn: Color) -> Option<Board> {
        self.board(turn).filter(|b| b.broken().is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_stepped_along_decodes_each_slot_as_a_fresh_one() {
        for name in ["KQvK", "KPvK", "KRvKB", "KPvKP", "KBBvK", "KPPvK", "KNNNvK", "KRBvKP"] {
            let layout = Layout::new(Material::parse(name).unwrap());
            // Whole tables for the small ones, a stretch with carries
            // across king pairs for the larger.
            let n = layout.positions.min(3_000_000);
            for start in [0, layout.positions - n] {
                let mut c = layout.cursor(start);
                for index in start..start + n {
                    assert_eq!(c.index(), index);
                    for turn in [Color::White, Color::Black] {
                        assert_eq!(c.board(turn), layout.board(index, turn), "{name} slot {index}");
                    }
                    c.advance();
                }
            }
        }
    }

    #[test]
    fn a_lone_line_ranks_each_square_of_its_piece_as_the_whole_index_does() {
        // Every placement of a stretch of slots: each lone piece in turn
        // moved over every empty square, the line's index against the
        // whole ranking (which takes the least image over symmetries).
        let mut lines = 0;
        for name in ["KQRvKR", "KRBvKN", "KRPvKR", "KQvKP", "KRRvKR"] {
            let layout = Layout::new(Material::parse(name).unwrap());
            let step = (layout.positions / 5_000).max(1);
            for index in (0..layout.positions).step_by(step as usize) {
                let Some(b) = layout.board(index, Color::White) else {
                    continue;
                };
                let kings = (b.king(Color::White), b.king(Color::Black));
                for color in [Color::White, Color::Black] {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        let at = b.pieces(color, role);
                        let line = layout.lone_line(kings, |c, r| b.pieces(c, r), (color, role));
                        let lone = at.count_ones() == 1;
                        let single = layout.kings.symmetries(kings.0, kings.1).len() == 1;
                        assert_eq!(line.is_some(), lone && single, "{name} slot {index} {color:?} {role:?}");
                        let Some(line) = line else { continue };
                        lines += 1;
                        for sq in squares(!(b.occupied() & !at)) {
                            let mut moved = b;
                            moved.by_color[color.index()] = moved.by_color[color.index()] & !at | bit(sq);
                            moved.by_role[role as usize] = moved.by_role[role as usize] & !at | bit(sq);
                            assert_eq!(line.index(sq), layout.index(&moved), "{name} slot {index} to {sq}");
                        }
                    }
                }
            }
        }
        assert!(lines > 10_000, "{lines} lines");
    }

    #[test]
    fn one_placement_of_the_pawns_is_one_block_of_slots() {
        for name in ["KPvK", "KRPvKR", "KPPvKP", "KPvKP", "KQvK"] {
            let l = Layout::new(Material::parse(name).unwrap());
            let block = l.pawn_block();
            assert_eq!(l.positions % block, 0, "{name}");
            let mut pawns_of_block = vec![None; (l.positions / block) as usize];
            let mut seen = 0;
            for i in (0..l.positions).step_by(61) {
                let Some(b) = l.board(i, Color::White) else {
                    continue;
                };
                let pawns = (b.pieces(Color::White, Role::Pawn), b.pieces(Color::Black, Role::Pawn));
                if l.pawns {
                    assert_eq!(l.block_of_pawns(pawns.0, pawns.1), i / block, "{name} slot {i}");
                }
                let first = pawns_of_block[(i / block) as usize].get_or_insert(pawns);
                assert_eq!(*first, pawns, "{name} slot {i}");
                seen += 1;
            }
            assert!(seen > 100, "{name}: {seen}");
            if !l.pawns {
                assert_eq!(block, l.positions, "{name}");
            }
        }
    }

    /// A table with pawns and lone pieces: the arithmetic index (the pair's
    /// rank, the pieces' squares as digits) is the ranked one, and tables
    /// with like pieces or without pawns decline it.
    #[test]
    fn lone_pieces_index_by_their_squares() {
        for name in ["KRPvKR", "KPvKQ", "KBNPvK", "KPPvKN"] {
            let l = Layout::new(Material::parse(name).unwrap());
            assert!(l.pieces_are_lone(), "{name}");
            let mut seen = 0;
            for i in (0..l.positions).step_by(997) {
                let Some(b) = l.board(i, Color::White) else {
                    continue;
                };
                let low = l.groups[l.pawn_groups..].iter().fold(0, |low, g| {
                    low << 6 | b.pieces(g.color, g.role).trailing_zeros() as u64
                });
                let block = l.block_of_pawns(
                    b.pieces(Color::White, Role::Pawn),
                    b.pieces(Color::Black, Role::Pawn),
                );
                let (wk, bk) = (b.king(Color::White), b.king(Color::Black));
                assert_eq!(l.index_of_lone(block, wk, bk, low), Some(i), "{name} slot {i}");
                // The same placement with White's king on files e-h is no
                // canonical pair.
                assert_eq!(l.index_of_lone(block, wk ^ 7, bk ^ 7, low), None, "{name} slot {i}");
                seen += 1;
            }
            assert!(seen > 100, "{name}: {seen}");
        }
        assert!(!Layout::new(Material::parse("KRRPvK").unwrap()).pieces_are_lone());
        let pawnless = Layout::new(Material::parse("KRvKN").unwrap());
        assert_eq!(pawnless.index_of_lone(0, 0, 18, 0), None);
    }

    #[test]
    fn king_pair_counts() {
        assert_eq!(KingPairs::get(false).pairs.len(), 462);
        assert_eq!(KingPairs::get(true).pairs.len(), 1806);
    }

    #[test]
    fn unrank_tables_agree_with_the_scan() {
        for k in [2usize, 3] {
            for universe in [48u8, 64] {
                let sets = BINOM[universe as usize][k];
                for r in 0..sets {
                    assert_eq!(unrank_set(r, k, universe), unrank_by_scan(r, k, universe), "k {k} rank {r}");
                }
            }
        }
    }

    #[test]
    fn subset_ranking_round_trips() {
        for (k, row) in BINOM[48].iter().enumerate().take(4).skip(1) {
            let n = *row;
            for r in (0..n).step_by(97) {
                let m = unrank_set(r, k, 48);
                assert_eq!(m.count_ones() as usize, k);
                assert_eq!(rank_set(m), r);
            }
        }
    }

    #[test]
    fn unmove_indices_match_full_ranking() {
        for name in ["KQvK", "KRRvK", "KPPvK", "KBvKN", "KRvKP", "KNNvKB"] {
            let l = Layout::new(Material::parse(name).unwrap());
            let mut checked = 0;
            for i in (0..l.positions).step_by(13) {
                for turn in [Color::White, Color::Black] {
                    let Some(b) = l.legal_board(i, turn) else {
                        continue;
                    };
                    b.each_unmove(|role, from, to| {
                        let q = b.unmoved(role, from, to);
                        assert_eq!(
                            l.index_after_unmove(&b, i, role, from, to),
                            l.index(&q),
                            "{name}: {} back to {}",
                            b.fen(),
                            q.fen()
                        );
                        checked += 1;
                    });
                }
            }
            assert!(checked > 1000, "{name}: {checked}");
        }
    }

    #[test]
    fn conversions_and_quiet_counts_match_move_generation() {
        use std::ops::ControlFlow;
        for name in ["KQRvKR", "KPPvKR", "KRPvKB", "KNNvKP", "KQvKQ", "KBBvKN"] {
            let l = Layout::new(Material::parse(name).unwrap());
            let (mut boards, mut in_check) = (0, 0);
            for i in (0..l.positions).step_by((l.positions / 4000) as usize | 1) {
                for turn in [Color::White, Color::Black] {
                    let Some(b) = l.legal_board(i, turn) else {
                        continue;
                    };
                    let pins = b.pins();
                    let mut legal = Vec::new();
                    b.legal_moves(&mut legal);
                    let quiet = legal.iter().filter(|m| !m.converts()).count();
                    assert_eq!(b.quiet_move_count(&pins) as usize, quiet, "{}", b.fen());
                    let mut all = Vec::new();
                    let _ = b.each_pseudo_move(&mut |m| {
                        if m.converts() {
                            all.push(m);
                        }
                        ControlFlow::Continue(())
                    });
                    let mut conversions = Vec::new();
                    let _ = b.each_conversion(&mut |m| {
                        conversions.push(m);
                        ControlFlow::Continue(())
                    });
                    assert_eq!(conversions, all, "{}", b.fen());
                    boards += 1;
                    in_check += b.in_check(turn) as u32;
                }
            }
            assert!(
                boards > 1000 && in_check > 20,
                "{name}: {boards}, {in_check}"
            );
        }
    }

    #[test]
    fn every_canonical_board_ranks_to_its_index() {
        for name in ["KQvK", "KRvKB", "KPvKP", "KBBvK"] {
            let l = Layout::new(Material::parse(name).unwrap());
            let mut canonical = 0;
            for i in (0..l.positions).step_by(7) {
                if let Some(b) = l.board(i, Color::White) {
                    canonical += 1;
                    assert_eq!(l.index(&b), i, "{name} {}", b.fen());
                    for s in 0..8 {
                        let t = b.transformed(s);
                        if !l.pawns || s <= 1 {
                            assert_eq!(l.index(&t), i, "{name} sym {s} of {}", b.fen());
                        }
                    }
                }
            }
            assert!(canonical > 0);
        }
    }
}
