//! Retrograde analysis by sweeps over a plain arithmetic index: the engine
//! that builds the chess tables (values position for position those of
//! the older count-down solver in `solve`, which stays as a cross-check).
//!
//! **Slices.** A table with pawns is cut by where its pawns stand: within
//! a slice only the kings and pieces move, and a pawn push leads to a
//! slice whose pawns are further up the board (white's) or down (black's).
//! Slices are solved from the most advanced down, so a push is, like a
//! capture or a promotion, a move whose value is already known: en passant
//! is settled exactly where the double push is played, from the solved
//! slice and the smaller table the capture leads to. A pawnless table is
//! one slice.
//!
//! **Index.** Within a slice, `pair · 64^k + Σ square_j · 64^(k−1−j)`:
//! the kings' pair (462 pairs up to symmetry without pawns; the raw 64 × 64
//! with pawns, whose slice fixes the mirror), then each piece's square,
//! like pieces one field each. Overlapping, illegal and duplicate
//! placements keep their slots (a superset of the positions, not a
//! ranking), so a predecessor's index is the index with one field
//! replaced. A position whose kings sit on a diagonal's axis has two
//! slots (its two canonical images); both are solved, and an update
//! reaches both.
//!
//! **Plies.** One byte per position and side, in the table's own encoding
//! (`value`) while the plies fit it, so the bytes are final as they are
//! written. Past 126 moves a [`Window`] moves the byte's origin: positions
//! decided before the current ply keep only "won" or "lost" in the byte,
//! their exact value moving to a two-byte array. Ply `n` sweeps
//! each side for the positions decided at `n`: a loss makes every
//! predecessor a win at `n + 1` unless it wins sooner; a win marks each
//! undecided predecessor as a candidate, and a second sweep checks each
//! candidate once by its moves (every move leads to a win for the
//! opponent in at most `n` plies, or to a conversion the opponent wins),
//! which decides it lost one ply after the slowest of them. Writes of a
//! phase go to one side and reads to the other, and every write is
//! idempotent, so the bytes are the same for any thread count.

use super::bitboard::{bit, file_of, rank_of, squares, transform, transform_bb, Bitboard};
use super::bitboard::{between, bishop_steps, knight_steps, line, rook_steps, KING, PAWN_ATTACKS};
use super::board::{piece_attacks, Board, Color, Move, Role};
use super::cells::{matches, Bytes, Cells};
use super::checkpoint::{self, Exact, Snapshot};
use crate::pipeline::checkpoint as pipeline_checkpoint;
pub use super::checkpoint::Checkpoint;
use super::index::{KingPairs, Layout};
use super::material::Material;
use super::probe::{after_move, Loaded, Tablebase};
use super::solve::{Solved, TableStats, Tally};
use super::value::{Value, Values, DRAW};
use anyhow::{bail, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::ops::ControlFlow;
use nimrod_table::shared::{atomic_bytes, byte_masks, huge_zeroed_bytes, prefetch};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

const SIDES: [Color; 2] = [Color::White, Color::Black];
/// Pieces other than kings and pawns a table may hold (six pieces).
const MAX_FIELDS: usize = 4;
/// The a↔h mirror among `transform`'s symmetries.
const MIRROR: u8 = 1;

/// The highest code of a window a ply may need before the window moves on
/// (the one-byte encoding's own limit: a window is moved only when a
/// table's distances pass it).
pub const WINDOW: u32 = 127;

/// Codes a solve keeps for itself and never gives a value: a slot that
/// holds no legal position (two pieces on a square, or the side not to
/// move in check), and an undecided position marked as a candidate loss
/// in the current ply. Keeping both in the byte, as Syzygy's generator
/// keeps its illegal positions, makes a move's check one load where a
/// separate bitmap made it two cache misses, and spares the bitmaps'
/// memory. They are the wins' two highest codes (a win in 126 or 127
/// moves), which the window never gives a value ([`WIN_CODES`]); they
/// leave the bytes before the solve returns them.
const ILLEGAL: u8 = 127;
const CANDIDATE: u8 = 126;
/// During the first pass (no candidate exists yet), CANDIDATE's code marks
/// a legal position whose squares did not show a quiet move: it is
/// settled once every slot's legality is known ([`Work::settle_pending`]).
const PENDING: u8 = CANDIDATE;
/// Codes the window gives wins: 1..=125.
const WIN_CODES: u32 = 125;
const WIN_CODES_U8: u8 = WIN_CODES as u8;

/// An undecided position that failed its last check keeps a hint of the
/// move that saved it: a hash of the slot that move reaches, coded
/// `floor..=WIN_CODES` (see [`witness`]; by default 64 codes from
/// [`WITNESS`], [`Options::witness_codes`]). Until that slot is won the
/// position cannot be lost, so a newly won slot whose hash differs need not
/// mark it a candidate again: a DTM solve re-checks a position at every ply
/// one more of its moves is won, and most of those checks stopped at the
/// same unresolved move. The codes are the window's far wins, which no ply
/// writes while the hints are kept (see [`Engine::plies`]), and every
/// reader already takes them for "not won by this ply" and "a slower win
/// than any offer". DRAW stays the hint-less undecided code (checked at
/// every mark), so dropping hints is always safe: they go before the window
/// moves, before a checkpoint and when the plies end.
const WITNESS: u8 = WIN_CODES_U8 + 1 - 64;

/// The hint code of a witness move reaching slot `i`: one of the codes
/// `floor + 1..=WIN_CODES`, by a multiplicative hash of `i`. The lowest
/// hint code, `floor` itself, is [`saved_for_good`]'s: no slot hashes to it.
/// With no hints kept (`floor` past [`WIN_CODES`]) the code is never
/// compared and there are no codes to hash to.
#[inline]
fn witness(i: usize, floor: u8) -> u8 {
    let h = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    let codes = u64::from(WIN_CODES_U8.saturating_sub(floor));
    floor + 1 + ((h * codes) >> 32) as u8
}

/// The hint of a position a move leaving the slice saves (a capture,
/// push or promotion that draws or wins for the side to move): that move's
/// value is final, so no newly won slot can make the position lost, and no
/// mark takes it for a candidate while hints are kept. The first pass,
/// which probes every capture anyway, gives it; without it such a position
/// was checked at every ply a hint-less mark or a matching one reached it
/// (KQRvKR: 0.94x the CPU with the code, `benches/results/chess/README.md`,
/// 2026-12-04).
#[inline]
fn saved_for_good(floor: u8) -> u8 {
    floor
}

/// Whether `c` is a hint code (from `floor` to the wins' last), while
/// hints are kept.
#[inline]
fn is_hint(c: u8, floor: u8) -> bool {
    (floor..=WIN_CODES_U8).contains(&c)
}

/// What a byte means during a solve: the table's encoding shifted by
/// `wins` moves for wins and `losses` for losses. Once shifted, code 1
/// stands for every win decided before the current ply and code 128 for
/// every such loss (their exact values are kept aside); the sweeps never
/// look for either again, and for every other use ("won within the
/// plies done", "already wins sooner than this offer") they compare like
/// the values they stand for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Window {
    wins: u32,
    losses: u32,
}

impl Window {
    #[inline]
    fn decode(self, c: u8) -> Value {
        match c {
            DRAW => Value::Draw,
            1..=127 => Value::Win(self.wins + c as u32),
            _ => Value::Loss(self.losses + (c - 128) as u32),
        }
    }

    #[inline]
    fn encode(self, v: Value) -> Option<u8> {
        // A shifted window keeps its lowest codes for decided positions.
        let (low_win, low_loss) = (1 + u32::from(self.wins > 0), u32::from(self.losses > 0));
        match v {
            Value::Draw => Some(DRAW),
            Value::Win(m) => {
                let c = m.checked_sub(self.wins)?;
                (low_win..=WIN_CODES).contains(&c).then_some(c as u8)
            }
            Value::Loss(m) => {
                let c = m.checked_sub(self.losses)?;
                (low_loss..=127).contains(&c).then_some(128 + c as u8)
            }
        }
    }

    /// Whether `c` is a shifted window's "decided before" code.
    #[inline]
    fn is_past(self, c: u8) -> bool {
        (c == 1 && self.wins > 0) || (c == 128 && self.losses > 0)
    }

    /// Whether ply `ply` or the next may need a code past `limit`.
    fn is_full(self, ply: u32, limit: u32) -> bool {
        ply / 2 + 2 > self.wins + limit.min(WIN_CODES) || ply / 2 + 1 > self.losses + limit
    }

    /// The window from ply `ply` on: wins and losses decided before it
    /// (wins in at most ⌊ply/2⌋ moves, losses in at most ⌊(ply−1)/2⌋) take
    /// the codes 1 and 128.
    fn at(ply: u32) -> Window {
        Window {
            wins: (ply / 2).saturating_sub(1),
            losses: ply.saturating_sub(1) / 2,
        }
    }
}

/// Progress of a solve, for the build's progress lines.
pub enum Step {
    /// A slice (one placement of the pawns; the whole table without them) is done.
    Slice,
    /// Every slice is solved; the statistics are next.
    Slices,
    /// The state was saved before ply `ply` (`bytes` on disk, in `seconds`).
    Saved {
        /// The ply a resumed solve runs next.
        ply: u32,
        /// The checkpoint's size.
        bytes: u64,
        /// How long the save took.
        seconds: f64,
    },
    /// The solve resumed from a checkpoint, at ply `ply`.
    Resumed {
        /// The ply run next.
        ply: u32,
    },
    /// Ply `ply` of a slice is done: `decided` positions got their value
    /// in it (a pawnless table is one slice of hundreds of plies, hours at
    /// six pieces: this is its only sign of life between saves).
    Ply {
        /// The ply just done (0 is the first after the first pass).
        ply: u32,
        /// Positions decided in it.
        decided: u64,
    },
    /// A checkpoint was found but not used (why), and the solve starts over.
    Refused {
        /// What is wrong with it.
        why: String,
    },
    /// The state could not be saved before ply `ply` (why): the solve goes
    /// on, and a kill resumes from the last save, if any.
    Skipped {
        /// The ply a resumed solve would have run next.
        ply: u32,
        /// Why (no room on the disk, a failed write).
        why: String,
    },
}

/// A position within a slice: the kings and each piece's square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Squares {
    wk: u8,
    bk: u8,
    sq: [u8; MAX_FIELDS],
}

impl Squares {
    /// The king of side `side` (0 white) and the other king.
    fn kings(&self, side: usize) -> (u8, u8) {
        if side == 0 {
            (self.wk, self.bk)
        } else {
            (self.bk, self.wk)
        }
    }
}

/// The index of one table's slices.
struct Geometry {
    pawns: bool,
    /// The pieces other than kings and pawns, in the layout's group order.
    fields: Vec<(Color, Role)>,
    kings: &'static KingPairs,
    /// King pairs: 462 without pawns, 4096 (raw) with them.
    pairs: usize,
    /// Slots per side of a slice.
    size: usize,
    /// Each stored king pair's steps of either king, so that a king's move
    /// or unmove is a table walk rather than a pair re-ranked.
    steps: KingSteps,
    /// For each field, the first field and the number of fields of its
    /// group of like pieces (same colour and role; adjacent in `fields`).
    /// A placement of like pieces is stored once, their squares rising
    /// with the field (the order the layout ranks and `squares_of` reads):
    /// the other orders' slots hold no position, so a group of three like
    /// pieces is solved once instead of six times.
    span: [(u8, u8); MAX_FIELDS],
    /// Whether any group has two or more like pieces.
    like: bool,
}

/// A king's step from a stored pair to another: the square it steps to,
/// the pair reached and the symmetries that bring that pair into the
/// stored set (two with both kings on a diagonal's axis).
#[derive(Clone, Copy, Debug)]
struct KingStep {
    to: u8,
    syms: [u8; 2],
    count: u8,
    pair: u32,
}

/// The steps of each side's king from each stored pair: for pair `p` and
/// side `s`, `steps[start[2 * p + s]..start[2 * p + s + 1]]`. Steps next
/// to the other king are left out: without pawns such a pair is not
/// stored, and with them its slot holds no legal position.
#[derive(Debug)]
struct KingSteps {
    start: Vec<u32>,
    steps: Vec<KingStep>,
}

impl KingSteps {
    fn new(pawns: bool, kings: &KingPairs, pairs: usize) -> KingSteps {
        let mut start = vec![0];
        let mut steps = Vec::new();
        for pair in 0..pairs {
            let (wk, bk) = if pawns {
                ((pair >> 6) as u8, (pair & 63) as u8)
            } else {
                kings.pairs[pair]
            };
            for side in 0..2 {
                let (king, other) = if side == 0 { (wk, bk) } else { (bk, wk) };
                for to in squares(KING[king as usize] & !KING[other as usize] & !bit(other)) {
                    let (w, b) = if side == 0 { (to, bk) } else { (wk, to) };
                    let step = if pawns {
                        KingStep {
                            to,
                            syms: [0, 0],
                            count: 1,
                            pair: (w as u32) << 6 | b as u32,
                        }
                    } else {
                        let Some(rank) = kings.image_rank(w, b) else {
                            continue;
                        };
                        let syms = kings.symmetries(w, b);
                        KingStep {
                            to,
                            syms: [syms[0], *syms.last().expect("a symmetry")],
                            count: syms.len() as u8,
                            pair: rank as u32,
                        }
                    };
                    steps.push(step);
                }
                start.push(steps.len() as u32);
            }
        }
        KingSteps { start, steps }
    }
}

impl Geometry {
    fn new(layout: &Layout) -> Result<Geometry> {
        let m = &layout.material;
        let pawns = m.has_pawns();
        let mut fields = Vec::new();
        for color in SIDES {
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                for _ in 0..m.counts[color.index()][role as usize] {
                    fields.push((color, role));
                }
            }
        }
        if fields.len() > MAX_FIELDS {
            bail!("{m}: {} pieces besides kings and pawns (at most {MAX_FIELDS})", fields.len());
        }
        let kings = KingPairs::get(false);
        let pairs = if pawns { 4096 } else { kings.pairs.len() };
        // Without pawns a table has a piece besides the kings, so each
        // side's slots are a multiple of 64 either way (the first pass
        // relies on it).
        debug_assert!(pawns || !fields.is_empty());
        let mut span = [(0, 1); MAX_FIELDS];
        for j in 0..fields.len() {
            let start = (0..=j).rev().take_while(|&x| fields[x] == fields[j]).last().unwrap_or(j);
            let len = (start..fields.len()).take_while(|&x| fields[x] == fields[j]).count();
            span[j] = (start as u8, len as u8);
        }
        Ok(Geometry {
            pawns,
            size: pairs << (6 * fields.len()),
            steps: KingSteps::new(pawns, kings, pairs),
            like: span.iter().any(|&(_, len)| len > 1),
            span,
            fields,
            kings,
            pairs,
        })
    }

    /// Whether a placement with these kings has two slots (no pawns, the
    /// kings on a diagonal's axis).
    #[inline]
    fn has_twin(&self, wk: u8, bk: u8) -> bool {
        !self.pawns && self.kings.symmetries(wk, bk).len() > 1
    }

    fn shift(&self, j: usize) -> u32 {
        6 * (self.fields.len() - 1 - j) as u32
    }

    /// Slot `i` with the squares of field `j`'s group of like pieces put in
    /// rising order (the slot that stores the placement); `i` itself when
    /// the piece has no like piece.
    #[inline]
    fn canon_field(&self, j: usize, i: usize) -> usize {
        if self.span[j].1 == 1 {
            i
        } else {
            self.sort_group(j, i)
        }
    }

    /// [`Geometry::canon_field`] for a piece with like pieces: out of line,
    /// so that the hot loops of tables without them stay as small as they
    /// were.
    #[inline(never)]
    fn sort_group(&self, j: usize, i: usize) -> usize {
        let (start, len) = (self.span[j].0 as usize, self.span[j].1 as usize);
        let mut sq = [0; MAX_FIELDS];
        for (x, q) in sq[..len].iter_mut().enumerate() {
            *q = (i >> self.shift(start + x)) & 63;
        }
        sq[..len].sort_unstable();
        let mut out = i;
        for (x, &q) in sq[..len].iter().enumerate() {
            let sh = self.shift(start + x);
            out = out & !(63 << sh) | q << sh;
        }
        out
    }

    /// Slot `i` with every group of like pieces in rising order.
    #[inline]
    fn canon(&self, i: usize) -> usize {
        if self.like {
            self.sort_groups(i)
        } else {
            i
        }
    }

    #[inline(never)]
    fn sort_groups(&self, i: usize) -> usize {
        let mut out = i;
        let mut j = 0;
        while j < self.fields.len() {
            out = self.canon_field(j, out);
            j += self.span[j].1 as usize;
        }
        out
    }

    /// Whether placement `s` stores its like pieces in rising order,
    /// field `skip`'s square left out of the comparison (a capture's
    /// victim, whose square is not yet set).
    fn is_canonical(&self, s: &Squares, skip: Option<usize>) -> bool {
        if !self.like {
            return true;
        }
        let mut last: Option<(usize, u8)> = None;
        for j in 0..self.fields.len() {
            if Some(j) == skip {
                continue;
            }
            if let Some((k, q)) = last {
                if self.span[k].0 == self.span[j].0 && q >= s.sq[j] {
                    return false;
                }
            }
            last = Some((j, s.sq[j]));
        }
        true
    }

    /// The slots among the 64 from `first` (which differ only in the last
    /// field's square, bit `x` for square `x`) that store no placement:
    /// their like pieces are out of order.
    fn out_of_order(&self, first: usize) -> Bitboard {
        if !self.like {
            return 0;
        }
        let s = self.decode(first);
        let k = self.fields.len();
        if !self.is_canonical(&s, Some(k - 1)) {
            return !0;
        }
        if k >= 2 && self.span[k - 2].0 == self.span[k - 1].0 {
            // Squares up to the previous like piece's are out of order.
            (1u64 << s.sq[k - 2] << 1).wrapping_sub(1)
        } else {
            0
        }
    }

    fn decode(&self, i: usize) -> Squares {
        let k = self.fields.len();
        let pair = i >> (6 * k);
        let (wk, bk) = if self.pawns {
            ((pair >> 6) as u8, (pair & 63) as u8)
        } else {
            self.kings.pairs[pair]
        };
        // The squares gathered in a register: stored a byte at a time and
        // read back whole, they stalled every decode on a failed store
        // forward (6 % of KQRvKR's build on one line).
        let mut packed = 0u32;
        let mut rest = i;
        for j in (0..k).rev() {
            packed |= ((rest & 63) as u32) << (8 * j);
            rest >>= 6;
        }
        Squares {
            wk,
            bk,
            sq: packed.to_le_bytes(),
        }
    }

    /// Calls `f` with the slot of each stored image of a legal placement:
    /// one, or two when a pawnless position's kings are on a diagonal's axis
    /// (its like pieces in any order: each image's are put in order).
    #[inline]
    fn images_of<const LIKE: bool>(&self, s: &Squares, mut f: impl FnMut(usize)) {
        let k = self.fields.len();
        if self.pawns {
            let mut i = (s.wk as usize) << 6 | s.bk as usize;
            for &q in &s.sq[..k] {
                i = i << 6 | q as usize;
            }
            f(if LIKE { self.canon(i) } else { i });
            return;
        }
        let Some(pair) = self.kings.image_rank(s.wk, s.bk) else {
            return;
        };
        for &sym in self.kings.symmetries(s.wk, s.bk) {
            let mut i = pair;
            if sym == 0 {
                for &q in &s.sq[..k] {
                    i = i << 6 | q as usize;
                }
            } else {
                for &q in &s.sq[..k] {
                    i = i << 6 | transform(sym, q) as usize;
                }
            }
            f(if LIKE { self.canon(i) } else { i });
        }
    }

    /// [`Geometry::images_of`] for any table.
    #[inline]
    fn images(&self, s: &Squares, f: impl FnMut(usize)) {
        self.images_of::<true>(s, f)
    }

    fn first_image(&self, s: &Squares) -> usize {
        let mut first = usize::MAX;
        self.images(s, |i| first = first.min(i));
        first
    }

    /// The shift of the blocks no position can fill: without pawns and with
    /// two or more fields, the slots whose highest field's piece stands on
    /// a king's square form whole blocks of `1 << shift` slots (4 KiB pages
    /// from three fields on). The first pass leaves them unwritten (DRAW,
    /// their pages never touched), and whatever reads a slot as a position
    /// skips them: no move, unmove or capture reaches them, as no piece
    /// moves onto a king.
    fn unwritten_shift(&self) -> Option<u32> {
        (!self.pawns && self.fields.len() >= 2).then(|| self.shift(0))
    }

    /// Whether slot `i` lies in a block [`Geometry::unwritten_shift`] names.
    #[inline]
    fn unwritten(&self, i: usize) -> bool {
        let Some(shift) = self.unwritten_shift() else {
            return false;
        };
        let (wk, bk) = self.kings.pairs[i >> (6 * self.fields.len())];
        let top = ((i >> shift) & 63) as u8;
        top == wk || top == bk
    }

    /// For slot `i` of a pawnless pair whose kings a diagonal mirror fixes
    /// (two images a placement): None when it stores no position the
    /// layout keeps (pieces overlap, like pieces out of order, or its
    /// twin's slot is the lower, which `Layout::index` takes), else whether
    /// the mirror maps the placement onto itself (a board that stands for
    /// 4 boards rather than 8).
    fn twin_class(&self, i: usize) -> Option<bool> {
        let s = self.decode(i);
        let mut occ = bit(s.wk) | bit(s.bk);
        for &q in &s.sq[..self.fields.len()] {
            if occ & bit(q) != 0 {
                return None;
            }
            occ |= bit(q);
        }
        let (mut images, mut count) = ([usize::MAX; 2], 0);
        self.images(&s, |x| {
            images[count.min(1)] = x;
            count += 1;
        });
        debug_assert_eq!(count, 2, "a pair the mirror fixes has two images");
        (images[0].min(images[1]) == i).then_some(images[0] == images[1])
    }

    /// The steps of side `side`'s king from the pair of slot `i`.
    #[inline]
    fn king_steps(&self, i: usize, side: usize) -> &[KingStep] {
        let at = 2 * (i >> (6 * self.fields.len())) + side;
        let (a, b) = (self.steps.start[at], self.steps.start[at + 1]);
        &self.steps.steps[a as usize..b as usize]
    }

    /// Calls `f` with each stored image of the placement `s` (slot `i`)
    /// with a king stepped by `step`: the other pieces stay on their
    /// squares, seen through the step's symmetries.
    ///
    /// (`LIKE` false: for a table without like pieces, which skips the
    /// check that would put them in order.)
    #[inline]
    fn step_images<const LIKE: bool>(
        &self,
        step: &KingStep,
        i: usize,
        s: &Squares,
        mut f: impl FnMut(usize),
    ) {
        let k = self.fields.len();
        let low = i & ((1 << (6 * k)) - 1);
        for &sym in &step.syms[..step.count as usize] {
            if sym == 0 {
                f((step.pair as usize) << (6 * k) | low);
            } else {
                let mut x = step.pair as usize;
                for &q in &s.sq[..k] {
                    x = x << 6 | transform(sym, q) as usize;
                }
                f(if LIKE { self.canon(x) } else { x });
            }
        }
    }

    /// The squares of a board of this table (its pawns in the slice's
    /// frame), like pieces taken lowest square first.
    fn squares_of(&self, b: &Board) -> Squares {
        let mut sq = [0; MAX_FIELDS];
        let mut taken: Bitboard = 0;
        for (j, &(color, role)) in self.fields.iter().enumerate() {
            let s = (b.pieces(color, role) & !taken).trailing_zeros() as u8;
            taken |= bit(s);
            sq[j] = s;
        }
        Squares {
            wk: b.king(Color::White),
            bk: b.king(Color::Black),
            sq,
        }
    }
}

/// One placement of the pawns (none for a pawnless table), in the frame
/// that makes it canonical (see [`canonical`]).
#[derive(Clone, Copy, Debug)]
struct Slice {
    white_pawns: Bitboard,
    black_pawns: Bitboard,
    /// White pawns' ranks plus black pawns' distances from their last
    /// rank: every push raises it, so slices are solved highest first.
    advancement: u32,
}

/// Whether a placement of pawns is in its canonical frame: not above its
/// a↔h mirror image. A placement equal to its mirror image holds both
/// mirror images of each position (both are solved).
fn canonical(white: Bitboard, black: Bitboard) -> bool {
    (white, black) <= (transform_bb(MIRROR, white), transform_bb(MIRROR, black))
}

fn advancement(white: Bitboard, black: Bitboard) -> u32 {
    squares(white).map(|s| rank_of(s) as u32).sum::<u32>()
        + squares(black).map(|s| 7 - rank_of(s) as u32).sum::<u32>()
}

/// Every set of `count` squares among the pawns' 48 (ranks 2 to 7).
fn pawn_sets(count: u32) -> Vec<Bitboard> {
    let mut sets = vec![0u64];
    for _ in 0..count {
        let mut next = Vec::new();
        for &s in &sets {
            // Squares above the set's highest, so each set comes once.
            let from = if s == 0 { 8 } else { 64 - s.leading_zeros() as u8 };
            for q in from.max(8)..56 {
                next.push(s | bit(q));
            }
        }
        sets = next;
    }
    sets
}

/// How many slices a table is solved in.
pub fn slice_count(layout: &Layout) -> usize {
    slices_of(layout).len()
}

fn slices_of(layout: &Layout) -> Vec<Slice> {
    let m = &layout.material;
    let (w, b) = (
        m.counts[0][Role::Pawn as usize] as u32,
        m.counts[1][Role::Pawn as usize] as u32,
    );
    let mut out = Vec::new();
    for &white in &pawn_sets(w) {
        for &black in &pawn_sets(b) {
            if white & black == 0 && canonical(white, black) {
                out.push(Slice {
                    white_pawns: white,
                    black_pawns: black,
                    advancement: advancement(white, black),
                });
            }
        }
    }
    // Most advanced first; within a level, in a fixed order.
    out.sort_by_key(|s| (std::cmp::Reverse(s.advancement), s.white_pawns, s.black_pawns));
    out
}

/// Where a capture of one field's piece leads, found once rather than
/// per probe (a board's material counted, its colours compared and the
/// tables searched made a third of a pawnless candidate's capture check).
#[derive(Clone, Copy)]
enum Captured<'a> {
    /// Bare kings: a draw.
    Draw,
    /// This table, the position colour-flipped first when `true`.
    In(&'a Loaded, bool),
    /// No such table is loaded: the probe says so when it is asked.
    Unknown,
}

/// The table being built and what its slices share.
struct Engine<'a> {
    layout: &'a Layout,
    geo: Geometry,
    probe: &'a Tablebase,
    slices: Vec<Slice>,
    by_pawns: HashMap<(Bitboard, Bitboard), usize>,
    options: Options,
    /// For each field, where a capture of its piece leads (see
    /// [`Captured`]).
    captured: Vec<Captured<'a>>,
    /// `NIMROD_SWEEP_TRACE` is set: each slice's first-pass parts and each
    /// ply's count and time go to standard error (for
    /// `benches/chess_side_by_side.sh`). Read once, at the start.
    trace: bool,
    /// Whether the sweeps take a line of 64 positions together where they
    /// can ([`Work::line_predecessors`], [`Work::verify_line`]); off with
    /// `NIMROD_SWEEP_LINES=0`, to compare the two (same bytes either way).
    lines: bool,
}

impl<'a> Engine<'a> {
    fn new(layout: &'a Layout, probe: &'a Tablebase, options: Options) -> Result<Engine<'a>> {
        let geo = Geometry::new(layout)?;
        let slices = slices_of(layout);
        let by_pawns = slices
            .iter()
            .enumerate()
            .map(|(i, s)| ((s.white_pawns, s.black_pawns), i))
            .collect();
        let captured = geo
            .fields
            .iter()
            .map(|&(color, role)| {
                let mut m = layout.material;
                m.counts[color.index()][role as usize] -= 1;
                if m.pieces() == 2 {
                    return Captured::Draw;
                }
                let flip = m.white_is_weaker();
                match probe.get(&if flip { m.flipped() } else { m }) {
                    Some(table) => Captured::In(table, flip),
                    None => Captured::Unknown,
                }
            })
            .collect();
        Ok(Engine {
            layout,
            geo,
            probe,
            slices,
            by_pawns,
            options,
            captured,
            trace: std::env::var_os("NIMROD_SWEEP_TRACE").is_some(),
            lines: std::env::var_os("NIMROD_SWEEP_LINES").is_none_or(|v| v != "0"),
        })
    }
}

/// The best of the moves that leave the slice, for the side to move.
#[derive(Default)]
struct Best {
    any: bool,
    win: Option<u32>,
    slowest_loss: u32,
    draw: bool,
}

impl Best {
    fn note(&mut self, v: Value) {
        self.any = true;
        match v {
            Value::Win(w) => self.win = Some(self.win.map_or(w, |x| x.min(w))),
            Value::Loss(l) => self.slowest_loss = self.slowest_loss.max(l),
            Value::Draw => self.draw = true,
        }
    }
}

impl Engine<'_> {
    /// The board of a placement, None when two pieces share a square.
    fn board(&self, slice: &Slice, s: &Squares, turn: Color) -> Option<Board> {
        let mut b = Board::empty(turn);
        let mut used = slice.white_pawns | slice.black_pawns;
        let mut put = |color: Color, role: Role, sq: u8| {
            if used & bit(sq) != 0 {
                return false;
            }
            used |= bit(sq);
            b.put(color, role, sq);
            true
        };
        if !put(Color::White, Role::King, s.wk) || !put(Color::Black, Role::King, s.bk) {
            return None;
        }
        for (j, &(color, role)) in self.geo.fields.iter().enumerate() {
            if !put(color, role, s.sq[j]) {
                return None;
            }
        }
        b.by_color[0] |= slice.white_pawns;
        b.by_color[1] |= slice.black_pawns;
        b.by_role[Role::Pawn as usize] |= slice.white_pawns | slice.black_pawns;
        Some(b)
    }
}

/// What [`Work::first_look`] makes of a position from its squares.
enum FirstLook {
    Illegal,
    Undecided,
    Pending,
}

/// One slice's solve.
struct Work<'a> {
    engine: &'a Engine<'a>,
    slice: &'a Slice,
    /// The final bytes of the slices solved before (None once let go, or
    /// not yet solved).
    solved: &'a [Option<Done>],
    /// With pawns, what each position's moves that leave the slice give
    /// the side to move (both sides' index; see [`OUT_SAVED`]), gathered by
    /// the first pass so that a candidate's check needs no board. Empty
    /// without pawns (captures are rarer there than the memory is cheap).
    outside: Vec<AtomicU8>,
    /// A flag per chunk of one side's slots: it holds a candidate loss of
    /// the current ply (so the verification skips the others). The bytes
    /// themselves are passed to each phase, split by side (see
    /// [`Work::ply`]).
    dirty: Vec<AtomicBool>,
    /// What the bytes mean in the current ply.
    window: Window,
    /// Whether undecided positions keep witness hints in this ply (see
    /// [`WITNESS`]).
    witnesses: bool,
    /// The hints' lowest code (past [`WIN_CODES`] when the options keep none).
    floor: u8,
    horizon: AtomicU32,
    /// First-pass values the window cannot code yet or that pass the
    /// options' window (a conversion or push that wins or loses slowly),
    /// each with its slot (both sides' index): written at the ply that
    /// needs it ([`Work::apply_late`]), the slot undecided until then.
    late: Mutex<Vec<(usize, Value)>>,
    /// For each side, whether its first-pass offers leave the horizon to
    /// [`Work::horizon_by_best`]: a side with a pawn about to promote,
    /// whose first pass was a board per position (the best of its moves
    /// leaving the slice extending the horizon, as the count-down solver
    /// does) until its promotions went by lines. Each offer extending it,
    /// a slow underpromotion's win among them, made KBPvK's solve run 67
    /// plies where the count-down solver runs 65 (a table statistic).
    horizon_by_best: [bool; 2],
    error: Mutex<Option<String>>,
}

const CHUNK: usize = 1 << 12;

/// A promotion [`Work::promotion_line`] plays: by side `side` to `to`,
/// to a `role`, taking field `victim`'s piece or none, in lines of field
/// `lowest`'s squares; the pawns but the promoting one (white, black).
struct Promotion {
    side: usize,
    to: u8,
    role: Role,
    victim: Option<usize>,
    lowest: usize,
    pawns: (Bitboard, Bitboard),
}

/// The squares a pawn promotes on, both sides'.
const LAST_RANKS: Bitboard = 0xff << 56 | 0xff;

/// A pawn slice's summary of a position's moves that leave the slice
/// (pushes, promotions, captures), the highest noted: none; the slowest
/// loss among them, in moves (1..=253), when each loses; one loses in 254
/// moves or more (a candidate's check builds a board); or one does not
/// lose. One `fetch_max` per move whatever the order, so the same bytes
/// for any thread count.
const OUT_NONE: u8 = 0;
const OUT_BOARD: u8 = 254;
const OUT_SAVED: u8 = 255;

/// How many positions' predecessors are in flight in [`Work::retro`].
const PIPELINE: usize = 3;

/// King pairs a pawnless solve's probes of the smaller tables run through
/// before it lets their mapped pages go ([`Tablebase::release_resident_pages`]).
const RELEASE_PAIRS: usize = 1;

/// CHUNKs of one side a pawnless solve's settling and candidate checks run
/// through before they let the smaller tables' pages go (two king pairs at
/// five pieces): every 16 held KQRvKR's peak no lower and cost a second of
/// system time re-mapping the pages.
const RELEASE_CHUNKS: usize = 128;

impl Work<'_> {
    fn fail(&self, msg: String) {
        let mut e = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if e.is_none() {
            *e = Some(msg);
        }
    }

    fn size(&self) -> usize {
        self.engine.geo.size
    }

    /// Saves the state before ply `ply` (see `checkpoint`); with the
    /// checkpoint's test stop at that ply, stops as a killed build would.
    fn save(
        &self,
        c: &Checkpoint,
        report: &dyn Fn(Step),
        cells: &[u8],
        exact: Option<&Exact>,
        ply: u32,
    ) -> Result<()> {
        let t = std::time::Instant::now();
        let mut late = self.late.lock().unwrap_or_else(|p| p.into_inner()).clone();
        // In a fixed order whatever the threads (applying them is not
        // order-dependent; the file is then the same for any thread count).
        late.sort_unstable_by_key(|&(slot, v)| (slot, v.encode_wide()));
        let snapshot = Snapshot {
            ply,
            window: (self.window.wins, self.window.losses),
            horizon: self.horizon.load(Relaxed),
            cells,
            exact,
            late: &late,
        };
        // A save is for resuming, not for the result: one that cannot be
        // made (no room, a failed write) is reported and the solve goes on.
        let saved = pipeline_checkpoint::check_room(&c.path)
            .and_then(|()| checkpoint::save(c, self.size() as u64, &snapshot));
        match saved {
            Ok(bytes) => {
                report(Step::Saved {
                    ply,
                    bytes,
                    seconds: t.elapsed().as_secs_f64(),
                })
            }
            Err(e) => {
                report(Step::Skipped {
                    ply,
                    why: format!("{e:#}"),
                });
                return Ok(());
            }
        }
        if c.stop_before == Some(ply) {
            bail!("stopped after the checkpoint before ply {ply} (a test's stop)");
        }
        Ok(())
    }

    fn extend_horizon(&self, plies: u32) {
        if plies > self.horizon.load(Relaxed) {
            self.horizon.fetch_max(plies, Relaxed);
        }
    }

    fn encode(&self, v: Value, b: &Board) -> u8 {
        if let Some(p) = v.plies() {
            self.extend_horizon(p);
        }
        self.window.encode(v).unwrap_or_else(|| {
            self.fail(format!(
                "{}: {v:?} in {} is outside the solve's window {:?}",
                self.engine.layout.material,
                b.fen(),
                self.window
            ));
            DRAW
        })
    }

    fn table_value(&self, b: &Board) -> Value {
        self.engine.probe.value(b).unwrap_or_else(|e| {
            self.fail(format!("{}: {e}", self.engine.layout.material));
            Value::Draw
        })
    }

    /// The value of a position of this table in a slice solved before
    /// (reached by a pawn push), without an en passant right.
    fn pushed(&self, child: &Board) -> Value {
        let e = self.engine;
        let (w, b) = (
            child.pieces(Color::White, Role::Pawn),
            child.pieces(Color::Black, Role::Pawn),
        );
        let (board, key) = if canonical(w, b) {
            (*child, (w, b))
        } else {
            (
                child.transformed(MIRROR),
                (transform_bb(MIRROR, w), transform_bb(MIRROR, b)),
            )
        };
        let solved = e
            .by_pawns
            .get(&key)
            .and_then(|&id| self.solved[id].as_ref())
            .map(|done| &done.values);
        let Some(bytes) = solved else {
            self.fail(format!(
                "{}: the slice of {} is not solved",
                e.layout.material,
                child.fen()
            ));
            return Value::Draw;
        };
        let i = e.geo.first_image(&e.geo.squares_of(&board));
        bytes.get(board.turn.index() * e.geo.size + i)
    }

    /// The value, for the side to move in the position reached, of a move
    /// that leaves the slice.
    fn outside(&self, b: &Board, m: &Move) -> Value {
        let child = b.play(m);
        if m.converts() {
            return self.table_value(&child);
        }
        let stored = self.pushed(&child);
        after_move(&child, m, stored, &mut |c| self.table_value(c))
    }

    /// The first byte of a legal position (`slot`, both sides' index):
    /// mated, stalemate, the best conversion's win (the final value unless
    /// a move within the slice wins sooner), the exact value when every
    /// move leaves the slice, or undecided (0).
    fn initial(&self, b: &Board, slot: usize) -> u8 {
        let pins = b.pins();
        let mut best = Best::default();
        let _ = b.each_conversion(&mut |m| {
            if b.is_legal_with(&m, &pins) {
                let v = self.outside(b, &m).before_move();
                self.note_outside(slot, v);
                best.note(v);
            }
            ControlFlow::Continue(())
        });
        b.each_legal_push(&pins, |m| {
            let v = self.outside(b, &m).before_move();
            self.note_outside(slot, v);
            best.note(v);
            true
        });
        let within = b.has_piece_move(&pins);
        if !best.any && !within {
            return if pins.in_check() {
                self.encode(Value::Loss(0), b)
            } else {
                DRAW
            };
        }
        match best.win {
            Some(w) => self.first_code(slot, Value::Win(w), b),
            None if !within && !best.draw => {
                self.first_code(slot, Value::Loss(best.slowest_loss), b)
            }
            None if best.draw => self.first_saved().unwrap_or(DRAW),
            None => DRAW,
        }
    }

    /// Notes a move that leaves the slice from `slot` (both sides' index),
    /// `v` its value for the side that plays it (see [`OUT_SAVED`]).
    #[inline]
    fn note_outside(&self, slot: usize, v: Value) {
        if let Some(out) = self.outside.get(slot) {
            let code = match v {
                Value::Loss(w) => w.clamp(1, OUT_BOARD as u32) as u8,
                _ => OUT_SAVED,
            };
            if out.load(Relaxed) < code {
                out.fetch_max(code, Relaxed);
            }
        }
    }

    /// Whether the first pass leaves value `v` for its ply
    /// ([`Work::defer`]): past the options' window, or past the codes of
    /// the first window, or (a win) on the witness hints' codes, which
    /// hold no value while hints are kept.
    fn is_late(&self, v: Value) -> bool {
        let limit = self.engine.options.window;
        match v {
            Value::Win(w) if w >= u32::from(self.floor) => true,
            Value::Win(w) => w > limit.min(WIN_CODES),
            Value::Loss(l) => l > limit,
            Value::Draw => false,
        }
    }

    /// The first pass's code of value `v` at `slot`: its own, or undecided
    /// until the ply that needs it.
    fn first_code(&self, slot: usize, v: Value, b: &Board) -> u8 {
        if self.is_late(v) {
            self.defer(slot, v);
            DRAW
        } else {
            self.encode(v, b)
        }
    }

    /// Leaves value `v` of `slot` (both sides' index) for its ply.
    fn defer(&self, slot: usize, v: Value) {
        if let Some(p) = v.plies().filter(|_| !self.horizon_by_best[slot / self.size()]) {
            self.extend_horizon(p);
        }
        self.late
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((slot, v));
    }

    /// Writes the first-pass values left for ply `ply`: a win in `w` at
    /// ply 2w − 2, when the sweeps offer such wins (unless the slot wins
    /// sooner by then), a loss in `l` before ply 2l reads it. Neither slot
    /// is reached by the sweeps before: a slot with a winning move leaving
    /// the slice never verifies lost, and a slot all of whose moves leave
    /// the slice is no predecessor within it.
    fn apply_late(&self, cells: &mut [u8], ply: u32) {
        let mut late = self.late.lock().unwrap_or_else(|p| p.into_inner());
        if late.is_empty() {
            return;
        }
        let window = self.window;
        let mut failed = None;
        late.retain(|&(slot, v)| {
            let due = match v {
                Value::Win(w) => 2 * w - 2,
                Value::Loss(l) => 2 * l,
                Value::Draw => ply,
            };
            if due != ply {
                return true;
            }
            let Some(code) = window.encode(v) else {
                failed = Some(v);
                return false;
            };
            let cur = cells[slot];
            match v {
                Value::Win(_) if cur == DRAW || (code < cur && cur <= WIN_CODES as u8) => {
                    cells[slot] = code
                }
                Value::Loss(_) if cur == DRAW || (self.witnesses && is_hint(cur, self.floor)) => {
                    cells[slot] = code
                }
                Value::Loss(_) => failed = Some(v),
                _ => {}
            }
            false
        });
        if let Some(v) = failed {
            self.fail(format!(
                "{}: a first-pass {v:?} could not be written at ply {ply} (window {:?})",
                self.engine.layout.material, window
            ));
        }
    }

    fn first_pass(&self, cells: &mut [u8]) {
        let e = self.engine;
        // Most positions are settled from their squares, the moves that
        // leave the slice offered from the positions they reach.
        let quick = self.quick_sides();
        let slow = quick != [true, true];
        // A slice that builds a board per slot probes a larger table's
        // pages all over (a promotion's): a few hundred MB of the mapped
        // tables would stay resident until the slice is done. Let them go
        // every BATCH slots: consecutive slots share their king pair, and
        // so do the positions their promotions reach.
        const BATCH: usize = 1 << 18;
        let batch = if slow { BATCH } else { cells.len() };
        let trace = e.trace;
        let mut parts = Vec::new();
        let mut t = std::time::Instant::now();
        let mut lap = |name: &'static str| {
            if trace {
                parts.push(format!("{name} {:.3}", t.elapsed().as_secs_f64()));
                t = std::time::Instant::now();
            }
        };
        for (b, cells) in cells.chunks_mut(batch).enumerate() {
            self.first_look_all(cells, b * batch, quick);
            // A pawn slice's probes are let go by its caller, slice by
            // slice; a pawnless table's look leaves a megabyte of them.
            if slow || !e.geo.pawns {
                e.probe.release_resident_pages();
            }
        }
        lap("look");
        if quick != [false, false] {
            self.settle_pending(cells);
            lap("settle");
            self.capture_wins(cells, quick);
            lap("captures");
            if self.pawns() != 0 {
                self.pawn_capture_wins(cells, quick);
                lap("pawn-captures");
                self.push_wins(cells, quick);
                lap("pushes");
                self.promotion_wins(cells, quick);
                lap("promotions");
            }
        }
        self.horizon_by_best(cells);
        if trace {
            eprintln!("first-pass parts (s): {}", parts.join(", "));
        }
    }

    /// Extends the horizon, for each side of [`Work::horizon_by_best`],
    /// by each position's best move leaving the slice: the win its byte
    /// holds (offers keep the fastest), or else the best of the values
    /// left for their ply.
    fn horizon_by_best(&self, cells: &[u8]) {
        let n = self.size();
        let is_win = |c: u8| (1..=WIN_CODES_U8).contains(&c) && c < self.floor;
        for side in (0..2).filter(|&side| self.horizon_by_best[side]) {
            let bytes = &cells[side * n..(side + 1) * n];
            let slowest = bytes
                .par_chunks(1 << 16)
                .map(|c| c.iter().filter(|&&c| is_win(c)).max().copied().unwrap_or(0))
                .max()
                .unwrap_or(0);
            if slowest > 0 {
                if let Some(p) = self.window.decode(slowest).plies() {
                    self.extend_horizon(p);
                }
            }
            let mut late: Vec<(usize, Value)> = (self.late.lock().unwrap_or_else(|p| p.into_inner()))
                .iter()
                .filter(|&&(slot, _)| slot / n == side && !is_win(bytes[slot % n]))
                .copied()
                .collect();
            late.sort_by_key(|&(slot, v)| (slot, -v.preference()));
            late.dedup_by_key(|&mut (slot, _)| slot);
            for (_, v) in late {
                if let Some(p) = v.plies() {
                    self.extend_horizon(p);
                }
            }
        }
    }

    /// The first pass's look at slots `from..from + cells.len()` (see
    /// [`Work::first_pass`]).
    fn first_look_all(&self, cells: &mut [u8], from: usize, quick: [bool; 2]) {
        let (n, e) = (self.size(), self.engine);
        debug_assert_eq!(from % 64, 0);
        cells
            .par_chunks_mut(64)
            .enumerate()
            .with_min_len(1 << 6)
            .for_each(|(word, bytes)| {
                let word = from / 64 + word;
                // A side's slots are a multiple of 64, so a chunk is of one side.
                let (side, first) = (word * 64 / n, word * 64 % n);
                if e.geo.unwritten(first) {
                    return;
                }
                let quick = quick[side];
                if quick && !e.geo.fields.is_empty() {
                    // The 64 slots differ only in the last piece's square.
                    let (illegal, pending) = self.first_look_run(&e.geo.decode(first), side);
                    #[cfg(debug_assertions)]
                    for k in 0..64 {
                        let want = match self.first_look(&e.geo.decode(first + k), side) {
                            FirstLook::Illegal => (1, 0),
                            FirstLook::Undecided => (0, 0),
                            FirstLook::Pending => (0, 1),
                        };
                        let got = ((illegal >> k) & 1, (pending >> k) & 1);
                        assert_eq!(got, want, "first look of slot {} side {side}", first + k);
                    }
                    let illegal = illegal | e.geo.out_of_order(first);
                    for k in squares(illegal) {
                        bytes[k as usize] = ILLEGAL;
                    }
                    for k in squares(pending & !illegal) {
                        bytes[k as usize] = PENDING;
                    }
                    return;
                }
                for (k, byte) in bytes.iter_mut().enumerate() {
                    let s = e.geo.decode(first + k);
                    if !e.geo.is_canonical(&s, None) {
                        *byte = ILLEGAL;
                        continue;
                    }
                    if quick {
                        match self.first_look(&s, side) {
                            FirstLook::Illegal => {
                                *byte = ILLEGAL;
                                continue;
                            }
                            // The byte is already DRAW (undecided).
                            FirstLook::Undecided => continue,
                            FirstLook::Pending => {
                                *byte = PENDING;
                                continue;
                            }
                        }
                    }
                    *byte = match e.board(self.slice, &s, SIDES[side]) {
                        Some(b) if !b.in_check(SIDES[side].other()) => {
                            self.initial(&b, word * 64 + k)
                        }
                        _ => ILLEGAL,
                    };
                }
            });
    }

    /// The slice's pawns, both colours.
    fn pawns(&self) -> Bitboard {
        self.slice.white_pawns | self.slice.black_pawns
    }

    /// The slice's pawns of side `side`, and the other side's.
    fn pawns_of(&self, side: usize) -> (Bitboard, Bitboard) {
        if side == 0 {
            (self.slice.white_pawns, self.slice.black_pawns)
        } else {
            (self.slice.black_pawns, self.slice.white_pawns)
        }
    }

    /// For each side to move, whether the slice's first pass goes by
    /// squares ([`Work::first_look`]) with every move that leaves the slice
    /// offered from the position it reaches (captures, pushes, promotions):
    /// not when one of that side's double pushes may be answered en
    /// passant (the stored value of the position it reaches is not the
    /// move's). Those positions build a board per slot ([`Work::initial`]).
    /// Promotions were also done so until [`Work::promotion_line`] read
    /// them a line at a time: a board per slot was 3 s of each of KRPvKR's
    /// four slices with a pawn on the seventh rank (0.9 s by lines).
    fn quick_sides(&self) -> [bool; 2] {
        const RANK_2: Bitboard = 0xff00;
        const RANK_7: Bitboard = 0xff << 48;
        let (w, b) = (self.slice.white_pawns, self.slice.black_pawns);
        let beside = |to: u8| -> Bitboard {
            let mut x = 0;
            if file_of(to) > 0 {
                x |= bit(to - 1);
            }
            if file_of(to) < 7 {
                x |= bit(to + 1);
            }
            x
        };
        let all = w | b;
        let white_answered = squares(w & RANK_2)
            .any(|p| all & (bit(p + 8) | bit(p + 16)) == 0 && b & beside(p + 16) != 0);
        let black_answered = squares(b & RANK_7)
            .any(|p| all & (bit(p - 8) | bit(p - 16)) == 0 && w & beside(p - 16) != 0);
        [!white_answered, !black_answered]
    }

    /// Settles the positions the first look left pending, now that every
    /// slot's legality is known: one with a legal move within the slice
    /// (a move is legal exactly when the position it reaches is) is
    /// undecided but for its captures, which [`Work::capture_wins`]
    /// offers; the rest (mated, stalemated, or only captures to play)
    /// get their value from a board, as [`Work::initial`] gives it.
    fn settle_pending(&self, cells: &mut [u8]) {
        let (n, e) = (self.size(), self.engine);
        // Settling a position probes its captures: the smaller tables'
        // pages are let go as the pairs go by.
        let release_every = self.release_every();
        for (side, &turn) in SIDES.iter().enumerate() {
            let (white, black) = cells.split_at_mut(n);
            let (mine, theirs) = if side == 0 {
                (white, &*black)
            } else {
                (black, &*white)
            };
            mine.par_chunks_mut(CHUNK)
                .enumerate()
                .for_each(|(chunk, bytes)| {
                    if (chunk + 1) % release_every == 0 {
                        e.probe.release_resident_pages();
                    }
                    let base = chunk * CHUNK;
                    let mut pending = Vec::new();
                    each_match(bytes, PENDING, |k| pending.push(k));
                    for k in pending {
                        let s = e.geo.decode(base + k);
                        bytes[k] = if self.king_can_step(&s, side)
                            || self.has_move_within(side, base + k, &s, theirs)
                        {
                            DRAW
                        } else {
                            match e.board(self.slice, &s, turn) {
                                Some(b) => self.initial(&b, side * n + base + k),
                                None => ILLEGAL,
                            }
                        };
                    }
                });
        }
    }

    /// Every how many CHUNKs of one side a pawnless solve lets the smaller
    /// tables' pages go (every [`RELEASE_CHUNKS`]; never with pawns, whose
    /// slices release theirs as they go).
    fn release_every(&self) -> usize {
        let geo = &self.engine.geo;
        if geo.pawns {
            return usize::MAX;
        }
        RELEASE_CHUNKS
    }

    /// Whether side `side`'s king (squares `s`, a legal position) can step
    /// to an empty square none of the other side's men attacks, their
    /// sliders seen through our king's square: a legal move within the
    /// slice, found from the squares alone. Most positions left pending
    /// are in check, and most of those have such a step, so they need not
    /// read the other side's bytes, scattered over the table.
    fn king_can_step(&self, s: &Squares, side: usize) -> bool {
        let fields = &self.engine.geo.fields[..];
        let us = SIDES[side];
        let (our_king, their_king) = s.kings(side);
        let occ = self.occupied(s);
        let mut free = KING[our_king as usize] & !occ & !KING[their_king as usize];
        if free == 0 {
            return false;
        }
        let (_, their_pawns) = self.pawns_of(side);
        let through = occ & !bit(our_king);
        for (j, &(color, role)) in fields.iter().enumerate() {
            if color != us {
                free &= !piece_attacks(role, s.sq[j], through);
            }
        }
        squares(free).any(|to| PAWN_ATTACKS[side][to as usize] & their_pawns == 0)
    }

    /// Whether the position at slot `i` of side `side` (squares `s`) has a
    /// legal move within the slice, read from the other side's bytes
    /// `theirs` (a reached slot is ILLEGAL exactly when the move is).
    fn has_move_within(&self, side: usize, i: usize, s: &Squares, theirs: &[u8]) -> bool {
        !self.all_moves_within::<true>(side, i, s, |to| theirs[to] == ILLEGAL)
    }

    /// Whether `f` holds for the slot (of the other side) that each move
    /// within the slice of the position at slot `i` of side `side`
    /// (squares `s`) reaches, legal or not, stopping at the first that
    /// fails. A piece's move reaches the identity image (with the kings
    /// on a diagonal's axis the table holds both, so either serves); a
    /// king's, the first image of the new pair (a step next to the other
    /// king has no pair and is left out: it is illegal).
    fn all_moves_within<const LIKE: bool>(
        &self,
        side: usize,
        i: usize,
        s: &Squares,
        f: impl FnMut(usize) -> bool,
    ) -> bool {
        self.moves_within_but::<LIKE>(side, i, s, usize::MAX, f)
    }

    /// [`Work::all_moves_within`] but the moves of field `skip`.
    #[inline]
    fn moves_within_but<const LIKE: bool>(
        &self,
        side: usize,
        i: usize,
        s: &Squares,
        skip: usize,
        mut f: impl FnMut(usize) -> bool,
    ) -> bool {
        let geo = &self.engine.geo;
        let occ = self.occupied(s);
        let empty = !occ;
        for (j, &(color, role)) in geo.fields.iter().enumerate() {
            if color != SIDES[side] || j == skip {
                continue;
            }
            let (from, shift) = (s.sq[j], geo.shift(j));
            let base = i - ((from as usize) << shift);
            let like = LIKE && geo.span[j].1 > 1;
            for to in squares(piece_attacks(role, from, occ) & empty) {
                let x = base + ((to as usize) << shift);
                if !f(if like { geo.sort_group(j, x) } else { x }) {
                    return false;
                }
            }
        }
        for step in geo.king_steps(i, side) {
            if empty & bit(step.to) == 0 {
                continue;
            }
            let mut first = usize::MAX;
            geo.step_images::<LIKE>(step, i, s, |x| first = first.min(x));
            if !f(first) {
                return false;
            }
        }
        true
    }

    /// Gives each pawnless position settled by its squares alone (see
    /// [`Work::first_look`]) the best win its captures offer, from the
    /// smaller tables' side: for each piece that can be captured, each
    /// placement of the others is probed once (the position after the
    /// capture), and a win there for the capturer is offered to every
    /// position that captures into it, the capturer stepped back to each
    /// square it could have come from. So a table is probed once per
    /// placement and victim rather than once per capture of every
    /// position. Positions that needed a board already hold their best
    /// capture, and get nothing better here. A capture that draws gives
    /// an undecided capturer the [`saved_for_good`] hint (it can never be
    /// lost, so it is never a candidate); captures that lose are left to
    /// [`Work::verify`], which probes them when every other move is won.
    fn capture_wins(&self, cells: &mut [u8], quick: [bool; 2]) {
        let (n, geo) = (self.size(), &self.engine.geo);
        let cells = atomic_bytes(cells);
        for (side, &us) in SIDES.iter().enumerate() {
            if !quick[side] {
                continue;
            }
            let bytes = &cells[side * n..(side + 1) * n];
            for (victim, &(color, _)) in geo.fields.iter().enumerate() {
                // Of like victims the first stands for all: its placements
                // are every placement of the others (put in order after).
                if color == us || geo.span[victim].0 as usize != victim {
                    continue;
                }
                let low = geo.shift(victim);
                // A capture by a piece keeps the king pair, so the smaller
                // table is probed a pair at a time: its pages are let go
                // every RELEASE_PAIRS pairs (it would otherwise stay
                // resident beside the whole table, 5.7 MiB of KQRvKR's peak).
                let per_pair = (n >> 6) / geo.pairs;
                // A pawn slice lets its probes go as a whole (a release a
                // pair tripled KRPvKR's system time).
                let step = if geo.pawns { geo.pairs } else { RELEASE_PAIRS };
                for first in (0..geo.pairs).step_by(step) {
                    let end = (first + step).min(geo.pairs);
                    (first * per_pair..end * per_pair)
                        .into_par_iter()
                        .with_min_len(1 << 10)
                        .for_each(|t| {
                            let slot = with_field(t, low, 0);
                            self.capture_into(side, victim, slot, bytes);
                        });
                    self.engine.probe.release_resident_pages();
                }
            }
        }
    }

    /// [`Work::capture_wins`] for one placement: the squares of `slot` of
    /// side `side` but the victim field's, which is the capture's square.
    fn capture_into(&self, side: usize, victim: usize, slot: usize, bytes: &[AtomicU8]) {
        let geo = &self.engine.geo;
        let s = geo.decode(slot);
        if !geo.is_canonical(&s, Some(victim)) {
            // The same placement as one in order, which offers the same.
            return;
        }
        let (white, black) = (self.slice.white_pawns, self.slice.black_pawns);
        let Some((after, occ)) = self.after_capture(side, &s, Some(victim), white, black) else {
            return;
        };
        let v = self.table_value(&after).before_move();
        if self.outside.is_empty() && matches!(v, Value::Loss(_)) {
            return;
        }
        let empty = !occ;
        let us = SIDES[side];
        let victim_shift = geo.shift(victim);
        for (j, &(color, role)) in geo.fields.iter().enumerate() {
            if color != us || j == victim {
                continue;
            }
            let (to, shift) = (s.sq[j], geo.shift(j));
            let base = slot - ((to as usize) << shift) + ((to as usize) << victim_shift);
            for from in squares(piece_attacks(role, to, occ) & empty) {
                self.first_move(bytes, side, geo.canon(base + ((from as usize) << shift)), v);
            }
        }
        let (king, their_king) = s.kings(side);
        for from in squares(KING[king as usize] & empty & !KING[their_king as usize]) {
            let mut q = s;
            q.sq[victim] = king;
            if side == 0 {
                q.wk = from;
            } else {
                q.bk = from;
            }
            geo.images(&q, |i| self.first_move(bytes, side, i, v));
        }
    }

    /// A move leaving the slice from slot `q` of side `side` (`bytes`, that
    /// side's), `v` its value for that side: noted ([`Work::note_outside`])
    /// and, a win, offered ([`Work::first_offer`]).
    #[inline]
    fn first_move(&self, bytes: &[AtomicU8], side: usize, q: usize, v: Value) {
        self.note_outside(side * self.size() + q, v);
        match v {
            Value::Win(moves) => self.first_offer(bytes, side, q, moves),
            Value::Draw => {
                if let Some(saved) = self.first_saved() {
                    // Only an undecided slot: a win (offered before or
                    // after, by this move or another) stays or replaces it.
                    let _ = bytes[q].compare_exchange(DRAW, saved, Relaxed, Relaxed);
                }
            }
            Value::Loss(_) => {}
        }
    }

    /// The code the first pass gives an undecided position a move leaving
    /// the slice saves ([`saved_for_good`]), when the solve keeps hints.
    fn first_saved(&self) -> Option<u8> {
        (self.engine.options.witness_codes > 0).then(|| saved_for_good(self.floor))
    }

    /// The position after a capture by side `side`: the squares `s` but
    /// field `skip`'s (the victim, or none), the pawns `white` and
    /// `black`, the other side to move; with its occupancy. None when two
    /// pieces share a square or the capturer's king is left attacked (or
    /// beside the other king).
    fn after_capture(
        &self,
        side: usize,
        s: &Squares,
        skip: Option<usize>,
        white: Bitboard,
        black: Bitboard,
    ) -> Option<(Board, Bitboard)> {
        self.after_leaving(side, s, skip, white, black, None)
    }

    /// [`Work::after_capture`] with a piece `promoted` (its role and
    /// square) of side `side` put on too: the position after a promotion.
    fn after_leaving(
        &self,
        side: usize,
        s: &Squares,
        skip: Option<usize>,
        white: Bitboard,
        black: Bitboard,
        promoted: Option<(Role, u8)>,
    ) -> Option<(Board, Bitboard)> {
        let pawns = white | black;
        let geo = &self.engine.geo;
        let us = SIDES[side];
        let mut after = Board::empty(us.other());
        let mut occ = pawns;
        let mut put = |color: Color, role: Role, sq: u8| {
            let overlap = occ & bit(sq) != 0;
            occ |= bit(sq);
            after.put(color, role, sq);
            !overlap
        };
        if !put(Color::White, Role::King, s.wk) || !put(Color::Black, Role::King, s.bk) {
            return None;
        }
        for (j, &(color, role)) in geo.fields.iter().enumerate() {
            if Some(j) != skip && !put(color, role, s.sq[j]) {
                return None;
            }
        }
        if let Some((role, sq)) = promoted {
            if !put(us, role, sq) {
                return None;
            }
        }
        after.by_color[0] |= white;
        after.by_color[1] |= black;
        after.by_role[Role::Pawn as usize] |= pawns;
        let (king, their_king) = s.kings(side);
        if KING[king as usize] & bit(their_king) != 0 || after.in_check(us) {
            return None;
        }
        Some((after, occ))
    }

    /// Offers slot `q` of side `side` (`bytes`, that side's) a win in
    /// `moves` in the first pass: unless it holds no position or wins
    /// sooner; past the window, at its ply ([`Work::defer`]).
    fn first_offer(&self, bytes: &[AtomicU8], side: usize, q: usize, moves: u32) {
        let v = Value::Win(moves);
        if self.is_late(v) {
            // Offered at its ply (an illegal slot ignores it then).
            self.defer(side * self.size() + q, v);
            return;
        }
        let Some(win) = self.window.encode(v) else {
            self.fail(format!(
                "{}: a first-pass win in {moves} is outside the solve's window {:?}",
                self.engine.layout.material, self.window
            ));
            return;
        };
        if !self.horizon_by_best[side] {
            self.extend_horizon(2 * moves - 1);
        }
        let _ = bytes[q].fetch_update(Relaxed, Relaxed, |cur| {
            let better = match cur {
                DRAW => true,
                1..=WIN_CODES_U8 => cur > win,
                _ => false,
            };
            better.then_some(win)
        });
    }

    /// Gives every quick pawn slice's position the captures that involve
    /// a pawn (they leave the slice for a smaller table; see
    /// [`Work::first_move`]): a piece or king taking one of the other
    /// side's pawns, from the positions after it (each probed once, given
    /// to every square the capturer came from), and a pawn taking a piece
    /// or a pawn, probed per position where it can (the pawn's origin is
    /// fixed by the slice).
    fn pawn_capture_wins(&self, cells: &mut [u8], quick: [bool; 2]) {
        let (n, geo) = (self.size(), &self.engine.geo);
        let k = geo.fields.len();
        let cells = atomic_bytes(cells);
        for (side, &us) in SIDES.iter().enumerate() {
            if !quick[side] {
                continue;
            }
            let bytes = &cells[side * n..(side + 1) * n];
            let (ours, theirs) = self.pawns_of(side);
            let (white, black) = (self.slice.white_pawns, self.slice.black_pawns);
            for p in squares(theirs) {
                let (white, black) = (white & !bit(p), black & !bit(p));
                for (j, &(color, role)) in geo.fields.iter().enumerate() {
                    if color != us {
                        continue;
                    }
                    let low = geo.shift(j);
                    (0..n >> 6).into_par_iter().with_min_len(1 << 10).for_each(|t| {
                        let slot = with_field(t, low, p);
                        let s = geo.decode(slot);
                        if !geo.is_canonical(&s, Some(j)) {
                            return;
                        }
                        let Some((after, occ)) = self.after_capture(side, &s, None, white, black) else {
                            return;
                        };
                        let v = self.table_value(&after).before_move();
                        let base = slot - ((p as usize) << low);
                        for from in squares(piece_attacks(role, p, occ) & !occ) {
                            let q = geo.canon_field(j, base + ((from as usize) << low));
                            self.first_move(bytes, side, q, v);
                        }
                    });
                }
                // The king takes it: the positions after, with our king on p.
                let high = 6 * k as u32;
                (0..n >> 6).into_par_iter().with_min_len(1 << 10).for_each(|t| {
                    let slot = if side == 0 {
                        (p as usize) << (high + 6) | t
                    } else {
                        ((t >> high) << 6 | p as usize) << high | (t & ((1 << high) - 1))
                    };
                    let s = geo.decode(slot);
                    if !geo.is_canonical(&s, None) {
                        return;
                    }
                    let Some((after, occ)) = self.after_capture(side, &s, None, white, black) else {
                        return;
                    };
                    let v = self.table_value(&after).before_move();
                    let their_king = s.kings(side).1;
                    for from in squares(KING[p as usize] & !occ & !KING[their_king as usize]) {
                        let mut q = s;
                        if side == 0 {
                            q.wk = from;
                        } else {
                            q.bk = from;
                        }
                        geo.images(&q, |i| self.first_move(bytes, side, i, v));
                    }
                });
            }
            for p in squares(ours) {
                // A capture onto the last rank promotes (Work::promotion_wins).
                for to in squares(PAWN_ATTACKS[side][p as usize] & !LAST_RANKS) {
                    let moved = |x: Bitboard| x & !bit(p) | bit(to);
                    let (white, black) = if side == 0 {
                        (moved(white), black & !bit(to))
                    } else {
                        (white & !bit(to), moved(black))
                    };
                    if theirs & bit(to) != 0 {
                        // A pawn takes a pawn: every position of the slice can.
                        (0..n).into_par_iter().with_min_len(1 << 10).for_each(|slot| {
                            if bytes[slot].load(Relaxed) == ILLEGAL {
                                return;
                            }
                            let s = geo.decode(slot);
                            let Some((after, _)) = self.after_capture(side, &s, None, white, black)
                            else {
                                return;
                            };
                            let v = self.table_value(&after).before_move();
                            self.first_move(bytes, side, slot, v);
                        });
                        continue;
                    }
                    for (v, &(color, _)) in geo.fields.iter().enumerate() {
                        if color == us {
                            continue;
                        }
                        let low = geo.shift(v);
                        (0..n >> 6).into_par_iter().with_min_len(1 << 10).for_each(|t| {
                            let slot = with_field(t, low, to);
                            if bytes[slot].load(Relaxed) == ILLEGAL {
                                return;
                            }
                            let s = geo.decode(slot);
                            let Some((after, _)) =
                                self.after_capture(side, &s, Some(v), white, black)
                            else {
                                return;
                            };
                            let v = self.table_value(&after).before_move();
                            self.first_move(bytes, side, slot, v);
                        });
                    }
                }
            }
        }
    }

    /// Gives every quick pawn slice's position its pawn pushes (see
    /// [`Work::first_move`]), from the solved slice each push reaches: a
    /// position there has the push's value, seen from the other side, for
    /// every position here that pushes into it (the same squares but the
    /// pawn's, in this slice's frame); a position there lost for the side
    /// to move is a win here, one move more.
    fn push_wins(&self, cells: &mut [u8], quick: [bool; 2]) {
        let (n, e) = (self.size(), self.engine);
        let cells = atomic_bytes(cells);
        for (side, &us) in SIDES.iter().enumerate() {
            if !quick[side] {
                continue;
            }
            let bytes = &cells[side * n..(side + 1) * n];
            let ours = self.pawns_of(side).0;
            let all = self.pawns();
            for p in squares(ours) {
                let step = |sq: u8| if us == Color::White { sq + 8 } else { sq - 8 };
                let one = step(p);
                if all & bit(one) != 0 || LAST_RANKS & bit(one) != 0 {
                    // Blocked, or a promotion (Work::promotion_wins).
                    continue;
                }
                let start = if us == Color::White { 1 } else { 6 };
                let mut pushes = vec![(one, None)];
                if rank_of(p) == start && all & bit(step(one)) == 0 {
                    pushes.push((step(one), Some(one)));
                }
                for (to, through) in pushes {
                    let (w, b) = if side == 0 {
                        (self.slice.white_pawns & !bit(p) | bit(to), self.slice.black_pawns)
                    } else {
                        (self.slice.white_pawns, self.slice.black_pawns & !bit(p) | bit(to))
                    };
                    let mirrored = !canonical(w, b);
                    let key = if mirrored {
                        (transform_bb(MIRROR, w), transform_bb(MIRROR, b))
                    } else {
                        (w, b)
                    };
                    let Some(child) =
                        e.by_pawns.get(&key).and_then(|&id| self.solved[id].as_ref())
                    else {
                        self.fail(format!(
                            "{}: the slice a push from {:?} reaches is not solved",
                            e.layout.material, self.slice
                        ));
                        return;
                    };
                    if through.is_none() && !e.geo.like {
                        // The same squares are the same slot here (the
                        // pawns are the slice's, not the index's), each
                        // digit's file flipped in the mirror image: one
                        // pass over the reached slice's legal bits.
                        let digits = e.geo.fields.len() + 2;
                        let flip = if mirrored { (0..digits).fold(0, |m, d| m | 7 << (6 * d)) } else { 0 };
                        (0..n / 64).into_par_iter().with_min_len(1 << 6).for_each(|w| {
                            let at = (1 - side) * n + w * 64;
                            for k in squares(child.legal[at / 64]) {
                                let j = w * 64 + k as usize;
                                let v = child.values.get(at + k as usize).before_move();
                                #[cfg(debug_assertions)]
                                {
                                    let mut s = e.geo.decode(j);
                                    if mirrored {
                                        s.wk = transform(MIRROR, s.wk);
                                        s.bk = transform(MIRROR, s.bk);
                                        for q in &mut s.sq[..e.geo.fields.len()] {
                                            *q = transform(MIRROR, *q);
                                        }
                                    }
                                    e.geo.images(&s, |i| debug_assert_eq!(i, j ^ flip, "a push's slot"));
                                }
                                self.first_move(bytes, side, j ^ flip, v);
                            }
                        });
                        continue;
                    }
                    (0..n).into_par_iter().with_min_len(1 << 12).for_each(|j| {
                        let at = (1 - side) * n + j;
                        if child.legal[at / 64] >> (at % 64) & 1 == 0 {
                            // No position there: the push is illegal (or blocked).
                            return;
                        }
                        let v = child.values.get(at).before_move();
                        let mut s = e.geo.decode(j);
                        if mirrored {
                            s.wk = transform(MIRROR, s.wk);
                            s.bk = transform(MIRROR, s.bk);
                            for q in &mut s.sq[..e.geo.fields.len()] {
                                *q = transform(MIRROR, *q);
                            }
                        }
                        if let Some(mid) = through {
                            // `mid` holds no pawn (checked above), so the
                            // slice's pawns in the occupancy change nothing.
                            if self.occupied(&s) & bit(mid) != 0 {
                                return;
                            }
                        }
                        e.geo.images(&s, |i| self.first_move(bytes, side, i, v));
                    });
                }
            }
        }
    }

    /// Gives every quick pawn slice's position its promotions (see
    /// [`Work::first_move`]), each probed per position that can play it:
    /// the push where its square is empty, a capture where a piece of the
    /// other side stands on its square (no pawn stands on a last rank),
    /// each to the four pieces.
    fn promotion_wins(&self, cells: &mut [u8], quick: [bool; 2]) {
        let (n, geo) = (self.size(), &self.engine.geo);
        let cells = atomic_bytes(cells);
        let all = self.pawns();
        for (side, &us) in SIDES.iter().enumerate() {
            if !quick[side] {
                continue;
            }
            let bytes = &cells[side * n..(side + 1) * n];
            for p in squares(self.pawns_of(side).0) {
                let push = if us == Color::White { p + 8 } else { p - 8 };
                if LAST_RANKS & bit(push) == 0 {
                    continue;
                }
                let (white, black) = if side == 0 {
                    (self.slice.white_pawns & !bit(p), self.slice.black_pawns)
                } else {
                    (self.slice.white_pawns, self.slice.black_pawns & !bit(p))
                };
                let mut moves = Vec::new();
                if all & bit(push) == 0 {
                    moves.push((push, None));
                }
                for to in squares(PAWN_ATTACKS[side][p as usize]) {
                    for (v, &(color, _)) in geo.fields.iter().enumerate() {
                        if color != us {
                            moves.push((to, Some(v)));
                        }
                    }
                }
                // The field whose square tells a line's 64 slots apart.
                let lowest = (0..geo.fields.len()).find(|&j| geo.shift(j) == 0);
                for (to, victim) in moves {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        let promote = |slot: usize| {
                            if bytes[slot].load(Relaxed) == ILLEGAL {
                                return;
                            }
                            let s = geo.decode(slot);
                            let Some((after, _)) =
                                self.after_leaving(side, &s, victim, white, black, Some((role, to)))
                            else {
                                return;
                            };
                            let v = self.table_value(&after).before_move();
                            self.first_move(bytes, side, slot, v);
                        };
                        let by_line = |line: usize| {
                            let lowest = lowest.expect("a line has a lowest field");
                            let promotion = Promotion {
                                side,
                                to,
                                role,
                                victim,
                                lowest,
                                pawns: (white, black),
                            };
                            if !self.promotion_line(bytes, line, &promotion) {
                                (line << 6..(line + 1) << 6).for_each(promote);
                            }
                        };
                        // Lines of 2^18 slots a batch: the larger table's pages
                        // are let go after each.
                        const BATCH: usize = 1 << 12;
                        match victim {
                            _ if lowest.is_none() || victim == lowest => {
                                let slots: Vec<usize> = match victim {
                                    None => (0..n).collect(),
                                    Some(v) => (0..n >> 6).map(|t| with_field(t, geo.shift(v), to)).collect(),
                                };
                                for batch in slots.chunks(BATCH << 6) {
                                    batch.par_iter().with_min_len(1 << 10).for_each(|&slot| promote(slot));
                                    self.engine.probe.release_resident_pages();
                                }
                            }
                            None => {
                                for first in (0..n >> 6).step_by(BATCH) {
                                    (first..(first + BATCH).min(n >> 6))
                                        .into_par_iter()
                                        .with_min_len(1 << 4)
                                        .for_each(by_line);
                                    self.engine.probe.release_resident_pages();
                                }
                            }
                            Some(v) => {
                                let low = geo.shift(v) - 6;
                                for first in (0..n >> 12).step_by(BATCH) {
                                    (first..(first + BATCH).min(n >> 12))
                                        .into_par_iter()
                                        .with_min_len(1 << 4)
                                        .for_each(|u| by_line(with_field(u, low, to)));
                                    self.engine.probe.release_resident_pages();
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// [`Work::promotion_wins`] for the 64 slots of line `line` (the same
    /// squares but the lowest field's), by one ranking of the position
    /// after: with the kings in one frame of the larger table, the lowest
    /// field's piece is a lone piece's digit there, so each slot's value
    /// is one read. Which slots can promote is a mask: the square empty,
    /// and the promoting side's king not attacked after the move (a check
    /// the piece blocks, or one it gives when it is the other side's).
    /// False, nothing done, when the line does not have that shape (two
    /// frames for the kings, like pieces, a shipped table).
    fn promotion_line(&self, bytes: &[AtomicU8], line: usize, p: &Promotion) -> bool {
        let (geo, probe) = (&self.engine.geo, self.engine.probe);
        let us = SIDES[p.side];
        let s = geo.decode(line << 6);
        let mut after = Board::empty(us.other());
        let mut occ = p.pawns.0 | p.pawns.1;
        let mut put = |color: Color, role: Role, sq: u8| {
            let overlap = occ & bit(sq) != 0;
            occ |= bit(sq);
            after.put(color, role, sq);
            !overlap
        };
        let mut clear = put(Color::White, Role::King, s.wk) && put(Color::Black, Role::King, s.bk);
        for (j, &(color, role)) in geo.fields.iter().enumerate() {
            if j != p.lowest && Some(j) != p.victim {
                clear &= put(color, role, s.sq[j]);
            }
        }
        clear &= put(us, p.role, p.to);
        let (king, their_king) = s.kings(p.side);
        if !clear || KING[king as usize] & bit(their_king) != 0 {
            // No slot of the line holds a position that can promote so.
            return true;
        }
        after.by_color[0] |= p.pawns.0;
        after.by_color[1] |= p.pawns.1;
        after.by_role[Role::Pawn as usize] |= p.pawns.0 | p.pawns.1;
        let mut can = !occ;
        for checker in squares(after.attackers(king, us.other(), occ)) {
            can &= between(checker, king);
        }
        let (color, role) = geo.fields[p.lowest];
        if color != us {
            can &= !piece_attacks(role, king, occ);
        }
        let Some(x0) = squares(can).next() else {
            return true;
        };
        let mut with = after;
        with.put(color, role, x0);
        let m = Material::of(&with);
        let flip = m.white_is_weaker();
        let (m, with, color) = if flip {
            (m.flipped(), with.color_flipped(), color.other())
        } else {
            (m, with, color)
        };
        let Some(table) = probe.get(&m).filter(|t| t.table().is_some()) else {
            return false;
        };
        let kings = (with.king(Color::White), with.king(Color::Black));
        let Some(digit) = table.layout.lone_line(kings, |c, r| with.pieces(c, r), (color, role)) else {
            return false;
        };
        let first = if with.turn == Color::White { 0 } else { table.layout.positions };
        for x in squares(can) {
            let slot = line << 6 | x as usize;
            if bytes[slot].load(Relaxed) == ILLEGAL {
                continue;
            }
            let index = first + digit.index(if flip { x ^ 56 } else { x });
            let v = match table.value_at(index) {
                Ok(v) => v.before_move(),
                Err(e) => {
                    self.fail(format!("{}: {e}", self.engine.layout.material));
                    return true;
                }
            };
            #[cfg(debug_assertions)]
            {
                let mut b = after;
                b.put(geo.fields[p.lowest].0, role, x);
                debug_assert!(!b.in_check(us), "a promotion the mask lets through is legal");
                debug_assert_eq!(v, self.table_value(&b).before_move(), "slot {slot}: promotion by line");
            }
            self.first_move(bytes, p.side, slot, v);
        }
        true
    }

    /// What a pawnless position's squares alone say of it (side `side` to
    /// move): illegal (two pieces on a square, or the side not to move in
    /// check), or undecided but for its captures (not in check, and a
    /// piece that is surely not pinned has a quiet move: [`Work::initial`]
    /// would give DRAW or a capture's win, which [`Work::capture_wins`]
    /// offers), or pending: in check, or no quiet move is sure from the
    /// squares ([`Work::settle_pending`] looks again once every slot's
    /// legality is known).
    #[inline]
    fn first_look(&self, s: &Squares, side: usize) -> FirstLook {
        let geo = &self.engine.geo;
        let fields = &geo.fields[..];
        let us = SIDES[side];
        let (our_king, their_king) = s.kings(side);
        let mut occ = self.pawns();
        for q in [s.wk, s.bk].into_iter().chain(s.sq[..fields.len()].iter().copied()) {
            if occ & bit(q) != 0 {
                return FirstLook::Illegal;
            }
            occ |= bit(q);
        }
        if KING[our_king as usize] & bit(their_king) != 0 {
            return FirstLook::Illegal;
        }
        let (our_pawns, their_pawns) = self.pawns_of(side);
        if PAWN_ATTACKS[1 - side][their_king as usize] & our_pawns != 0 {
            return FirstLook::Illegal;
        }
        let mut reach = [0; MAX_FIELDS];
        for (j, &(color, role)) in fields.iter().enumerate() {
            reach[j] = piece_attacks(role, s.sq[j], occ);
            if color == us && reach[j] & bit(their_king) != 0 {
                return FirstLook::Illegal;
            }
        }
        // In check, or a piece of ours between our king and one of their
        // sliders on a line (perhaps pinned): the board decides.
        if PAWN_ATTACKS[side][our_king as usize] & their_pawns != 0 {
            return FirstLook::Pending;
        }
        let mut shadow = 0;
        for (j, &(color, role)) in fields.iter().enumerate() {
            if color == us {
                continue;
            }
            if reach[j] & bit(our_king) != 0 {
                return FirstLook::Pending;
            }
            if role != Role::Knight {
                shadow |= between(our_king, s.sq[j]);
            }
        }
        for (j, &(color, _)) in fields.iter().enumerate() {
            if color == us && shadow & bit(s.sq[j]) == 0 && reach[j] & !occ != 0 {
                return FirstLook::Undecided;
            }
        }
        FirstLook::Pending
    }

    /// [`Work::first_look`] of the 64 placements that differ from `s` only
    /// in the last piece's square `x`, at once: bit `x` of the first
    /// board is set where the placement is illegal, of the second where it
    /// is pending (neither: undecided). The other pieces' attacks are
    /// computed once, and what the last piece changes is a mask: on a
    /// square between a slider and a king it blocks the check; from `x` it
    /// checks a king exactly when the king, as that piece, would reach `x`;
    /// a piece of ours keeps a quiet move unless `x` takes the only empty
    /// first step it has; a slider of theirs shadows the squares between
    /// our king and `x`.
    fn first_look_run(&self, s: &Squares, side: usize) -> (Bitboard, Bitboard) {
        const ALL: Bitboard = !0;
        let fields = &self.engine.geo.fields[..];
        let last = fields.len() - 1;
        let us = SIDES[side];
        let (our_king, their_king) = s.kings(side);
        let mut occ = self.pawns();
        for q in [s.wk, s.bk].into_iter().chain(s.sq[..last].iter().copied()) {
            if occ & bit(q) != 0 {
                return (ALL, 0);
            }
            occ |= bit(q);
        }
        let (our_pawns, their_pawns) = self.pawns_of(side);
        if KING[our_king as usize] & bit(their_king) != 0
            || PAWN_ATTACKS[1 - side][their_king as usize] & our_pawns != 0
        {
            return (ALL, 0);
        }
        let (last_color, last_role) = fields[last];
        let mut illegal = occ;
        let mut check = if PAWN_ATTACKS[side][our_king as usize] & their_pawns != 0 {
            ALL
        } else {
            0
        };
        let mut shadow = 0;
        let mut reach = [0; MAX_FIELDS];
        for (j, &(color, role)) in fields[..last].iter().enumerate() {
            reach[j] = piece_attacks(role, s.sq[j], occ);
            if color == us {
                if reach[j] & bit(their_king) != 0 {
                    illegal |= !between(s.sq[j], their_king);
                }
            } else {
                if reach[j] & bit(our_king) != 0 {
                    check |= !between(s.sq[j], our_king);
                }
                if role != Role::Knight {
                    shadow |= between(our_king, s.sq[j]);
                }
            }
        }
        let empty = !occ;
        let mut quiet = 0;
        if last_color == us {
            illegal |= piece_attacks(last_role, their_king, occ);
            let steps = match last_role {
                Role::Knight => knight_steps(empty),
                Role::Bishop => bishop_steps(empty),
                Role::Rook => rook_steps(empty),
                _ => rook_steps(empty) | bishop_steps(empty),
            };
            quiet |= steps & !shadow;
        } else {
            check |= piece_attacks(last_role, our_king, occ);
        }
        let last_shadows = last_color != us && last_role != Role::Knight;
        for (j, &(color, role)) in fields[..last].iter().enumerate() {
            let sq = s.sq[j];
            if color != us || shadow & bit(sq) != 0 {
                continue;
            }
            let first_steps = if role == Role::Knight {
                reach[j] & empty
            } else {
                reach[j] & empty & KING[sq as usize]
            };
            let mut has = match first_steps.count_ones() {
                0 => 0,
                1 => !first_steps,
                _ => ALL,
            };
            if last_shadows {
                // x shadows `sq` when `sq` is between our king and x.
                for x in squares(line(our_king, sq)) {
                    if between(our_king, x) & bit(sq) != 0 {
                        has &= !bit(x);
                    }
                }
            }
            quiet |= has;
        }
        (illegal, !illegal & (check | !quiet))
    }

    /// The slots before each unmove that stays in the slice, of the
    /// position at slot `i` of `side` (squares `s`): every square a piece
    /// of the side that just moved could have come from, with no board
    /// built and no legality test (the caller drops slots that hold no
    /// legal position, by their byte).
    ///
    /// (`LIKE` false only for a table without like pieces: no code to put
    /// them in order is compiled into the sweeps of such a table.)
    ///
    /// A piece's unmove keeps the king pair, so its slot lies in the same
    /// pair's block as `i` (a few hundred KiB at most, read moments ago):
    /// `out(q, true)`. A king's unmove, or any unmove of a position with
    /// two images, may reach any block: `out(q, false)`.
    #[inline]
    fn predecessors<const LIKE: bool>(
        &self,
        side: usize,
        i: usize,
        s: &Squares,
        mut out: impl FnMut(usize, bool),
    ) {
        let geo = &self.engine.geo;
        let mover = SIDES[1 - side];
        let occ = self.occupied(s);
        let empty = !occ;
        // With the kings on a diagonal's axis a position has two slots.
        let twin = geo.has_twin(s.wk, s.bk);
        for (j, &(color, role)) in geo.fields.iter().enumerate() {
            if color != mover {
                continue;
            }
            let (to, shift) = (s.sq[j], geo.shift(j));
            let base = i - ((to as usize) << shift);
            // A like piece's unmove may pass another: put them in order.
            let like = LIKE && geo.span[j].1 > 1;
            for from in squares(piece_attacks(role, to, occ) & empty) {
                if twin {
                    let mut q = *s;
                    q.sq[j] = from;
                    geo.images_of::<LIKE>(&q, |x| out(x, false));
                } else {
                    let x = base + ((from as usize) << shift);
                    out(if like { geo.sort_group(j, x) } else { x }, true);
                }
            }
        }
        for step in geo.king_steps(i, 1 - side) {
            if empty & bit(step.to) != 0 {
                geo.step_images::<LIKE>(step, i, s, |x| out(x, false));
            }
        }
    }

    /// The squares a placement of this slice occupies (its pawns included).
    fn occupied(&self, s: &Squares) -> Bitboard {
        let k = self.engine.geo.fields.len();
        let mut occ = bit(s.wk) | bit(s.bk) | self.pawns();
        for &q in &s.sq[..k] {
            occ |= bit(q);
        }
        occ
    }

    /// For each position of side `side` (bytes `read`) whose byte is
    /// `target`, a value's code (so a legal position), calls `act(q, h)`
    /// for each slot `q` of the other side's bytes `write` before it (see
    /// [`Work::predecessors`]), `h` the position's [`witness`] code;
    /// returns how many positions. The bytes are scanned a line of 64 at
    /// a time, and a line's positions are taken together
    /// ([`Work::line_predecessors`]) where its slots have one image each
    /// and its lowest field no like piece. Otherwise one at a time: a piece's
    /// unmove stays in the position's pair block, most likely in cache, and
    /// is acted on at once; a king's reaches another block, so those are
    /// prefetched when the position is found and acted on [`PIPELINE`]
    /// positions later: the cache misses of several positions are in
    /// flight together while the next ones are computed.
    fn retro<const LIKE: bool>(
        &self,
        side: usize,
        read: &[u8],
        target: u8,
        write: &[AtomicU8],
        act: impl Fn(usize, u8) + Sync,
    ) -> u64 {
        let e = self.engine;
        let geo = &e.geo;
        let by_lines = geo.fields.last().is_some()
            && geo.span[geo.fields.len() - 1].1 == 1
            && e.lines;
        read.par_chunks(CHUNK)
            .enumerate()
            .map(|(chunk, bytes)| {
                let mut ring: [Slots; PIPELINE] = std::array::from_fn(|_| Slots::new());
                let mut found = 0;
                let mut total = 0;
                let mut far_ring = [FarLines::new(), FarLines::new()];
                let mut lines = 0;
                let base = chunk * CHUNK;
                let mut one = |i: usize| {
                    let slots = &mut ring[found % PIPELINE];
                    if found >= PIPELINE {
                        slots.as_slice().iter().for_each(|&q| act(q, slots.witness));
                    }
                    slots.witness = witness(i, self.floor);
                    // The count in a local, not the ring's field: a push
                    // through memory chained each store to the last.
                    let mut len = 0;
                    let buf = &mut slots.slots;
                    let hint = slots.witness;
                    self.predecessors::<LIKE>(side, i, &geo.decode(i), |q, near| {
                        // A slot in this pair's block is most likely in
                        // cache: acting at once cut the even plies' offers
                        // by about 15 % against the ring's prefetch and
                        // second pass, and left the odd plies' marks as
                        // they were (KQRvKR, benches/results/chess/README.md).
                        if near {
                            act(q, hint);
                        } else {
                            prefetch(&write[q]);
                            buf[len] = q;
                            len += 1;
                        }
                    });
                    slots.len = len;
                    found += 1;
                };
                debug_assert_eq!(bytes.len() % 64, 0, "a side's slots are whole lines");
                for (b, block) in bytes.chunks_exact(64).enumerate() {
                    let block: &[u8; 64] = block.try_into().expect("64 bytes");
                    let mask = byte_masks(block, 1, 0, target).1;
                    if mask == 0 {
                        continue;
                    }
                    total += u64::from(mask.count_ones());
                    let line = base + 64 * b;
                    if by_lines && self.line_alone(line) {
                        let far = &mut far_ring[lines % 2];
                        far.act(self.floor, &act);
                        self.line_predecessors::<LIKE>(side, line, mask, write, &act, far);
                        lines += 1;
                    } else {
                        for k in squares(mask) {
                            one(line + k as usize);
                        }
                    }
                }
                for k in found.saturating_sub(PIPELINE)..found {
                    let slots = &ring[k % PIPELINE];
                    slots.as_slice().iter().for_each(|&q| act(q, slots.witness));
                }
                for far in &mut far_ring {
                    far.act(self.floor, &act);
                }
                total
            })
            .sum()
    }

    /// Whether the 64 slots from `line` (one placement but for the lowest
    /// field's square) have one image each: every pawn slice, and a
    /// pawnless pair whose kings no diagonal mirror fixes.
    #[inline]
    fn line_alone(&self, line: usize) -> bool {
        let geo = &self.engine.geo;
        if geo.pawns {
            return true;
        }
        let (wk, bk) = geo.kings.pairs[line >> (6 * geo.fields.len())];
        !geo.has_twin(wk, bk)
    }

    /// [`Work::retro`]'s acts for the positions `mask` names among the 64
    /// slots from `line` (bit `x`: the lowest field's piece on `x`), all
    /// at once: the positions differ only in that piece's square, so each
    /// unmove of another piece or of the king reaches one line of 64 slots
    /// for them all, the lowest piece's square seen only in whether it
    /// blocks the unmove or stands where the piece or king comes from. The
    /// attacks are computed once a line, not once a position (a ply's
    /// positions come about nine to a line: KQRvKR's even plies). The
    /// lowest field's own unmoves stay in the line, one position at a time.
    /// A line has one image a slot ([`Work::line_alone`]) and its lowest
    /// field no like piece.
    #[inline]
    fn line_predecessors<const LIKE: bool>(
        &self,
        side: usize,
        line: usize,
        mask: Bitboard,
        write: &[AtomicU8],
        act: &impl Fn(usize, u8),
        far: &mut FarLines,
    ) {
        let geo = &self.engine.geo;
        let mover = SIDES[1 - side];
        let s = geo.decode(line);
        let k = geo.fields.len();
        let low = k - 1;
        let mut occ = bit(s.wk) | bit(s.bk) | self.pawns();
        for &q in &s.sq[..low] {
            occ |= bit(q);
        }
        let empty = !occ;
        let floor = self.floor;
        let hint = |x: u8| witness(line + x as usize, floor);
        // The king's unmoves reach other pairs' lines: fetched now, acted
        // on by the caller a line later.
        far.from = line;
        far.len = 0;
        for step in geo.king_steps(line, 1 - side) {
            if occ & bit(step.to) != 0 {
                continue;
            }
            let valid = mask & !bit(step.to);
            if valid == 0 {
                continue;
            }
            for &sym in &step.syms[..step.count as usize] {
                let to_line = if sym == 0 {
                    (step.pair as usize) << (6 * k) | (line & ((1 << (6 * k)) - 1))
                } else {
                    let mut x = step.pair as usize;
                    for &q in &s.sq[..low] {
                        x = x << 6 | transform(sym, q) as usize;
                    }
                    x <<= 6;
                    if LIKE {
                        geo.canon(x)
                    } else {
                        x
                    }
                };
                prefetch(&write[to_line]);
                far.lines[far.len] = (to_line, sym, valid);
                far.len += 1;
            }
        }
        for (j, &(color, role)) in geo.fields.iter().enumerate() {
            if color != mover {
                continue;
            }
            if j == low {
                for x in squares(mask) {
                    let h = hint(x);
                    for from in squares(piece_attacks(role, x, occ) & empty) {
                        act(line + from as usize, h);
                    }
                }
                continue;
            }
            let (to, shift) = (s.sq[j], geo.shift(j));
            let rest = line - ((to as usize) << shift);
            let like = LIKE && geo.span[j].1 > 1;
            for from in squares(piece_attacks(role, to, occ) & empty) {
                // The lowest piece may stand between, or on `from`.
                let valid = mask & !(between(to, from) | bit(from));
                if valid == 0 {
                    continue;
                }
                let to_line = rest + ((from as usize) << shift);
                let to_line = if like { geo.sort_group(j, to_line) } else { to_line };
                for x in squares(valid) {
                    act(to_line + x as usize, hint(x));
                }
            }
        }
    }

    /// The byte of candidate `q` (side `side`, squares `s`, undecided):
    /// lost if every move leads to a win for the opponent, known by ply
    /// `ply`, else undecided (DRAW). Moves within the slice first, with no
    /// board (a move is legal exactly when the position it reaches is: the
    /// mover's king is not attacked there), then pushes and conversions (a
    /// board, probes), reached only when every move within the slice is
    /// won.
    fn verify<const LIKE: bool>(
        &self,
        side: usize,
        read: &[u8],
        q: usize,
        s: &Squares,
        ply: u32,
    ) -> u8 {
        let e = self.engine;
        let occ = self.occupied(s);
        let mut slowest = 0;
        let window = self.window;
        let mut saver = None;
        let saved = if self.witnesses {
            saved_for_good(self.floor)
        } else {
            DRAW
        };
        // A pawn slice knows from its first pass whether a move leaving
        // the slice saves the position: then no move within need be read.
        let out = self.outside.get(side * self.size() + q).map(|o| o.load(Relaxed));
        if out == Some(OUT_SAVED) {
            return saved;
        }
        // The lowest field's moves reach the 64 bytes of one cache line:
        // tested at once, when that piece is the side's and has no like
        // piece (whose moves may reach slots put in order elsewhere).
        let geo = &e.geo;
        let low = geo.fields.len().wrapping_sub(1);
        let mut skip = usize::MAX;
        if geo.fields.get(low).is_some_and(|f| f.0 == SIDES[side]) && geo.span[low].1 == 1 {
            skip = low;
            let from = s.sq[low];
            let base = q - from as usize;
            let line: &[u8; 64] = read[base..base + 64].try_into().expect("64 bytes");
            let moves = piece_attacks(geo.fields[low].1, from, occ) & !occ;
            // Won by this ply: codes 1..=last (a win in at most ply/2
            // moves, rounded up), or no position at all.
            let last = (ply.div_ceil(2)).saturating_sub(window.wins).min(WIN_CODES);
            let (won_line, illegal) = byte_masks(line, 1, last as u8, ILLEGAL);
            let open = moves & !(won_line | illegal);
            if open != 0 {
                return self.hint(base + open.trailing_zeros() as usize);
            }
            for to in squares(moves & won_line) {
                slowest = slowest.max(2 * (window.wins + u32::from(line[to as usize])) - 1);
            }
        }
        // Whether the move to slot `i` (of the opponent) does not save the
        // candidate: it is illegal, or the opponent wins by this ply.
        let mut won = |i: usize| {
            let code = read[i];
            if code == ILLEGAL {
                return true;
            }
            match window.decode(code) {
                Value::Win(w) if 2 * w - 1 <= ply => {
                    slowest = slowest.max(2 * w - 1);
                    true
                }
                _ => {
                    saver = Some(i);
                    false
                }
            }
        };
        if !self.moves_within_but::<LIKE>(side, q, s, skip, &mut won) {
            return saver.map_or(DRAW, |i| self.hint(i));
        }
        if let Some(out) = out {
            match out {
                OUT_BOARD => {}
                code => {
                    if code != OUT_NONE {
                        slowest = slowest.max(2 * code as u32 - 1);
                    }
                    return self.lost_by(slowest, q);
                }
            }
        }
        if self.pawns() == 0 {
            // Pawnless: the only moves leaving the slice are captures.
            return if self.captures_lose(s, side, occ, &mut slowest) {
                self.lost_by(slowest, q)
            } else {
                saved
            };
        }
        let Some(b) = e.board(self.slice, s, SIDES[side]) else {
            return DRAW;
        };
        let pins = b.pins();
        let mut lose = |v: Value| match v {
            Value::Win(w) => {
                slowest = slowest.max(2 * w - 1);
                true
            }
            _ => false,
        };
        if !b.each_legal_push(&pins, |m| lose(self.outside(&b, &m))) {
            return saved;
        }
        let converts_lose = b
            .each_conversion(&mut |m| {
                if !b.is_legal_with(&m, &pins) || lose(self.outside(&b, &m)) {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            })
            .is_continue();
        if converts_lose {
            self.encode(Value::Loss(slowest.div_ceil(2)), &b)
        } else {
            saved
        }
    }

    /// [`Work::verify`] for the candidates `mask` names among the 64 slots
    /// from `line` of side `side` (a table whose lowest field is that
    /// side's, with no like piece; one image a slot), their bytes
    /// written to `out`. The candidates differ only in the lowest piece's
    /// square, so each move of another piece or of the king reaches one
    /// line of the opponent's bytes for them all: its won and illegal
    /// bytes are found once a line, and each candidate needs only a bit of
    /// them, the lowest piece's square seen in whether it blocks the move
    /// or stands on the square moved to. A candidate no move within the
    /// slice saves goes on to its captures as in [`Work::verify`] (in a
    /// pawn slice, to the whole of `verify`: pushes, promotions and
    /// captures leave the slice).
    fn verify_line<const LIKE: bool>(
        &self,
        side: usize,
        read: &[u8],
        line: usize,
        mask: Bitboard,
        ply: u32,
        out: &mut [u8; 64],
    ) {
        let geo = &self.engine.geo;
        let us = SIDES[side];
        let s = geo.decode(line);
        let k = geo.fields.len();
        let low = k - 1;
        let mut occ = bit(s.wk) | bit(s.bk) | self.pawns();
        for &q in &s.sq[..low] {
            occ |= bit(q);
        }
        let empty = !occ;
        let wins = self.window.wins;
        // Won by this ply: codes 1..=last, as in `verify`.
        let last = (ply.div_ceil(2)).saturating_sub(wins).min(WIN_CODES) as u8;
        let mut slowest = [0u32; 64];
        let saved = if self.witnesses {
            saved_for_good(self.floor)
        } else {
            DRAW
        };
        // A pawn slice knows from its first pass which positions a move
        // leaving the slice saves.
        let mut mask = mask;
        if !self.outside.is_empty() {
            let at = side * self.size() + line;
            for x in squares(mask) {
                if self.outside[at + x as usize].load(Relaxed) == OUT_SAVED {
                    out[x as usize] = saved;
                    mask &= !bit(x);
                }
            }
        }
        let mut rest = mask;
        // The lowest piece's moves stay in this line.
        let own: &[u8; 64] = read[line..line + 64].try_into().expect("64 bytes");
        let (won, illegal) = byte_masks(own, 1, last, ILLEGAL);
        let low_role = geo.fields[low].1;
        for x in squares(mask) {
            let moves = piece_attacks(low_role, x, occ) & empty;
            let open = moves & !(won | illegal);
            if open != 0 {
                out[x as usize] = self.hint(line + open.trailing_zeros() as usize);
                rest &= !bit(x);
                continue;
            }
            for to in squares(moves & won) {
                slowest[x as usize] = slowest[x as usize].max(2 * (wins + u32::from(own[to as usize])) - 1);
            }
        }
        if rest == 0 {
            return;
        }
        // Each line reached: its first slot, the symmetry that maps the
        // lowest piece's square into it, and the candidates whose move
        // it is (`valid`).
        let each_line = |to_line: usize,
                         sym: u8,
                         valid: Bitboard,
                         rest: &mut Bitboard,
                         out: &mut [u8; 64],
                         slowest: &mut [u32; 64]| {
            let valid = valid & *rest;
            if valid == 0 {
                return;
            }
            let bytes: &[u8; 64] = read[to_line..to_line + 64].try_into().expect("64 bytes");
            let (won, illegal) = byte_masks(bytes, 1, last, ILLEGAL);
            for x in squares(valid) {
                let y = if sym == 0 { x } else { transform(sym, x) };
                if (won | illegal) & bit(y) == 0 {
                    out[x as usize] = self.hint(to_line + y as usize);
                    *rest &= !bit(x);
                } else if won & bit(y) != 0 {
                    let w = 2 * (wins + u32::from(bytes[y as usize])) - 1;
                    slowest[x as usize] = slowest[x as usize].max(w);
                }
            }
        };
        for (j, &(color, role)) in geo.fields[..low].iter().enumerate() {
            if color != us {
                continue;
            }
            let (from, shift) = (s.sq[j], geo.shift(j));
            let base = line - ((from as usize) << shift);
            let like = LIKE && geo.span[j].1 > 1;
            for to in squares(piece_attacks(role, from, occ) & empty) {
                let to_line = base + ((to as usize) << shift);
                let to_line = if like { geo.sort_group(j, to_line) } else { to_line };
                // The lowest piece may stand between, or on `to`.
                let valid = !(between(from, to) | bit(to));
                each_line(to_line, 0, valid, &mut rest, out, &mut slowest);
            }
        }
        for step in geo.king_steps(line, side) {
            if rest == 0 {
                return;
            }
            if occ & bit(step.to) != 0 {
                continue;
            }
            if step.count > 1 {
                // A pair with two images: each candidate reads the lower
                // of its two slots, as `verify` does.
                for x in squares(rest & !bit(step.to)) {
                    let mut sx = s;
                    sx.sq[low] = x;
                    let mut first = usize::MAX;
                    geo.step_images::<LIKE>(step, line + x as usize, &sx, |q| first = first.min(q));
                    let code = read[first];
                    if code == ILLEGAL {
                        continue;
                    }
                    if (1..=last).contains(&code) {
                        let w = 2 * (wins + u32::from(code)) - 1;
                        slowest[x as usize] = slowest[x as usize].max(w);
                    } else {
                        out[x as usize] = self.hint(first);
                        rest &= !bit(x);
                    }
                }
                continue;
            }
            let sym = step.syms[0];
            let to_line = if sym == 0 {
                (step.pair as usize) << (6 * k) | (line & ((1 << (6 * k)) - 1))
            } else {
                let mut x = step.pair as usize;
                for &q in &s.sq[..low] {
                    x = x << 6 | transform(sym, q) as usize;
                }
                x <<= 6;
                if LIKE {
                    geo.canon(x)
                } else {
                    x
                }
            };
            each_line(to_line, sym, !bit(step.to), &mut rest, out, &mut slowest);
        }
        for x in squares(rest) {
            let mut sx = s;
            sx.sq[low] = x;
            if self.pawns() != 0 {
                // Pushes, promotions and captures leave the slice: the
                // whole check, its moves within now in cache.
                out[x as usize] = self.verify::<LIKE>(side, read, line + x as usize, &sx, ply);
                continue;
            }
            let mut slow = slowest[x as usize];
            out[x as usize] = if self.captures_lose(&sx, side, occ | bit(x), &mut slow) {
                self.lost_by(slow, line + x as usize)
            } else {
                saved
            };
        }
    }

    /// Turns every hint back into plain DRAW, if hints are kept, and keeps
    /// none from here on (until the plies' loop takes them up again).
    fn drop_witnesses(&mut self, cells: &mut [u8]) {
        if !std::mem::take(&mut self.witnesses) {
            return;
        }
        let floor = self.floor;
        cells
            .par_chunks_mut(CHUNK)
            .for_each(|codes| replace_where(codes, |c| is_hint(c, floor), DRAW));
    }

    /// The undecided code of a position saved (for now) by its move to the
    /// opponent's slot `i`: that slot's [`witness`] hint, or plain DRAW
    /// when hints are not kept or the position reached has two slots (its
    /// kings on a diagonal's axis: the other image may be the one won).
    fn hint(&self, i: usize) -> u8 {
        let geo = &self.engine.geo;
        if !self.witnesses {
            return DRAW;
        }
        if !geo.pawns {
            let (wk, bk) = geo.kings.pairs[i >> (6 * geo.fields.len())];
            if geo.has_twin(wk, bk) {
                return DRAW;
            }
        }
        witness(i, self.floor)
    }

    /// The code of a candidate (slot `q`) whose slowest move lets the
    /// opponent mate in `slowest` plies (perhaps past this ply: a move
    /// leaving the slice loses slowly, and the sweeps go on to it).
    fn lost_by(&self, slowest: u32, q: usize) -> u8 {
        let moves = slowest.div_ceil(2);
        self.extend_horizon(2 * moves);
        self.window.encode(Value::Loss(moves)).unwrap_or_else(|| {
            self.fail(format!(
                "{}: a loss in {moves} at slot {q} is outside the solve's window {:?}",
                self.engine.layout.material, self.window
            ));
            DRAW
        })
    }

    /// Whether every capture side `side` can play in the pawnless
    /// placement `s` (occupancy `occ`) loses, each slower mate's plies
    /// noted in `slowest`. The captures are found from the squares and each
    /// position after one built and probed as the first pass's are
    /// ([`Work::after_capture`]): no board of the position itself, no
    /// generation of its other moves (a candidate gets here only once
    /// every move within the slice is won; by a board and its conversions
    /// this was a third of KQRvKR's checks' time).
    fn captures_lose(&self, s: &Squares, side: usize, occ: Bitboard, slowest: &mut u32) -> bool {
        let fields = &self.engine.geo.fields;
        let us = SIDES[side];
        let king = s.kings(side).0;
        // Whether the capture leading to `after` (the capturer on the
        // victim's square, the victim `victim`) is illegal or loses.
        let mut loses = |after: &Squares, victim: usize| {
            let Some((board, _)) = self.after_capture(side, after, Some(victim), 0, 0) else {
                return true;
            };
            let value = match self.engine.captured[victim] {
                Captured::Draw => Value::Draw,
                Captured::In(table, flip) => {
                    let board = if flip { board.color_flipped() } else { board };
                    let probe = self.engine.probe;
                    probe.value_in(table, &board).unwrap_or_else(|e| {
                        self.fail(format!("{}: {e}", self.engine.layout.material));
                        Value::Draw
                    })
                }
                Captured::Unknown => self.table_value(&board),
            };
            match value {
                Value::Win(w) => {
                    *slowest = (*slowest).max(2 * w - 1);
                    true
                }
                _ => false,
            }
        };
        for (victim, &(color, _)) in fields.iter().enumerate() {
            if color == us {
                continue;
            }
            let target = s.sq[victim];
            if KING[king as usize] & bit(target) != 0 {
                let mut after = *s;
                if side == 0 {
                    after.wk = target;
                } else {
                    after.bk = target;
                }
                if !loses(&after, victim) {
                    return false;
                }
            }
            for (j, &(c, role)) in fields.iter().enumerate() {
                if c == us && piece_attacks(role, s.sq[j], occ) & bit(target) != 0 {
                    let mut after = *s;
                    after.sq[j] = target;
                    if !loses(&after, victim) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Processes the positions of both sides decided at `ply` (`cells`:
    /// white to move, then black); returns how many. Each phase reads one
    /// side (plain bytes) and writes the other: atomic bytes where any
    /// slot may be written, plain chunks where each candidate writes only
    /// its own byte.
    fn ply(&self, cells: &mut [u8], ply: u32) -> u64 {
        // The sweeps of a table without like pieces are compiled without
        // the code that puts them in order (it cost such tables about 5 %
        // more instructions).
        if self.engine.geo.like {
            self.ply_of::<true>(cells, ply)
        } else {
            self.ply_of::<false>(cells, ply)
        }
    }

    fn ply_of<const LIKE: bool>(&self, cells: &mut [u8], ply: u32) -> u64 {
        let n = self.size();
        // The positions decided at this ply: losses at even plies, wins at
        // odd ones.
        let decided = if ply.is_multiple_of(2) {
            Value::Loss(ply / 2)
        } else {
            Value::Win(ply.div_ceil(2))
        };
        let Some(target) = self.window.encode(decided) else {
            self.fail(format!("ply {ply} outside the window {:?}", self.window));
            return 0;
        };
        let mut found = 0;
        for side in 0..2 {
            let other = 1 - side;
            let (white, black) = cells.split_at_mut(n);
            let (read, written) = if side == 0 {
                (&*white, black)
            } else {
                (&*black, white)
            };
            if ply.is_multiple_of(2) {
                let moves = ply / 2 + 1;
                let Some(win) = self.window.encode(Value::Win(moves)) else {
                    self.fail(format!(
                        "{}: ply {ply} offers a win in {moves}, outside the solve's window {:?}",
                        self.engine.layout.material, self.window
                    ));
                    return found;
                };
                let write = atomic_bytes(written);
                let lost =
                    self.retro::<LIKE>(side, read, target, write, |q, _| offer_win(write, q, win));
                if lost > 0 {
                    self.extend_horizon(2 * moves - 1);
                }
                found += lost;
                continue;
            }
            let write = atomic_bytes(written);
            let witnesses = self.witnesses;
            // A candidate whose side has a piece tries a piece's move
            // first, which stays in its pair's block (most likely in
            // cache): it is verified where it is found. A lone king's
            // first move reaches another block: prefetched, verified
            // PIPELINE candidates later.
            let verify_at_once = self.engine.geo.fields.iter().any(|&(c, _)| c == SIDES[other]);
            found += self.retro::<LIKE>(side, read, target, write, |q, hint| {
                // Every store of the phase is the same code, so threads
                // racing on a slot agree. A position whose hint names
                // another slot still has that move unresolved.
                let cur = write[q].load(Relaxed);
                if cur == DRAW || (witnesses && cur == hint) {
                    write[q].store(CANDIDATE, Relaxed);
                    let dirty = &self.dirty[q / CHUNK];
                    if !dirty.load(Relaxed) {
                        dirty.store(true, Relaxed);
                    }
                }
            });
            // A table whose candidates' side owns the lowest field
            // verifies a line's candidates together.
            let geo = &self.engine.geo;
            let low = geo.fields.len().wrapping_sub(1);
            let by_lines = geo.fields.get(low).is_some_and(|f| f.0 == SIDES[other])
                && geo.span[low].1 == 1
                && self.engine.lines;
            // A check that reaches a capture probes a smaller table:
            // without pawns, those pages are let go every RELEASE_CHUNKS.
            let release_every = self.release_every();
            written
                .par_chunks_mut(CHUNK)
                .zip(&self.dirty)
                .enumerate()
                .for_each(|(chunk, (bytes, dirty))| {
                    if (chunk + 1) % release_every == 0 {
                        self.engine.probe.release_resident_pages();
                    }
                    if !dirty.swap(false, Relaxed) {
                        return;
                    }
                    let base = chunk * CHUNK;
                    let e = self.engine;
                    if verify_at_once {
                        for (b, block) in bytes.chunks_exact_mut(64).enumerate() {
                            let block: &mut [u8; 64] = block.try_into().expect("64 bytes");
                            let mask = byte_masks(block, 1, 0, CANDIDATE).1;
                            if mask == 0 {
                                continue;
                            }
                            let line = base + 64 * b;
                            if by_lines && self.line_alone(line) {
                                self.verify_line::<LIKE>(other, read, line, mask, ply, block);
                                continue;
                            }
                            for k in squares(mask) {
                                let q = line + k as usize;
                                let s = e.geo.decode(q);
                                block[k as usize] = self.verify::<LIKE>(other, read, q, &s, ply);
                            }
                        }
                        return;
                    }
                    let mut marked = Vec::new();
                    each_match(bytes, CANDIDATE, |k| marked.push(k));
                    let count = marked.len();
                    // Each candidate's first move's byte is prefetched
                    // when it is reached, and it is verified PIPELINE
                    // candidates later: most candidates are saved by their
                    // first move, and a king's reaches another pair's
                    // block. (Prefetching every move cost more than it hid.)
                    let mut ring = [(0, Squares::default()); PIPELINE];
                    for (found, &k) in marked.iter().enumerate() {
                        let (waiting, s) = &mut ring[found % PIPELINE];
                        if found >= PIPELINE {
                            bytes[*waiting] =
                                self.verify::<LIKE>(other, read, base + *waiting, s, ply);
                        }
                        *waiting = k;
                        *s = e.geo.decode(base + k);
                        self.all_moves_within::<LIKE>(other, base + k, s, |i| {
                            prefetch(&read[i]);
                            false
                        });
                    }
                    for found in count.saturating_sub(PIPELINE)..count {
                        let (k, s) = &ring[found % PIPELINE];
                        bytes[*k] = self.verify::<LIKE>(other, read, base + k, s, ply);
                    }
                });
        }
        found
    }
}

/// The slot of placement `t` (every field but the one at shift `low`)
/// with that field on square `sq`.
#[inline]
fn with_field(t: usize, low: u32, sq: u8) -> usize {
    (t >> low) << (low + 6) | (sq as usize) << low | (t & ((1 << low) - 1))
}

/// Offers slot `q` the win coded `win` unless it already wins sooner, is
/// lost (it cannot have reached a lost position) or holds no position.
///
/// Every offer of a phase is the same win, and nothing else writes that
/// side in the phase, so a plain load and store decide it whatever the
/// order of the threads.
#[inline]
fn offer_win(write: &[AtomicU8], q: usize, win: u8) {
    let cur = write[q].load(Relaxed);
    // Win codes run 1..=WIN_CODES from the soonest; loss codes, ILLEGAL
    // and CANDIDATE (none in this phase) are above them.
    if cur == DRAW || (win < cur && cur <= WIN_CODES as u8) {
        write[q].store(win, Relaxed);
    }
}

/// Sets every byte of `codes` for which `is` holds to `to`, writing only
/// the 64-byte blocks that hold one: the plain loop compiles to a vector
/// store of every block, which would bring into memory the pages no
/// position fills ([`Geometry::unwritten_shift`]).
fn replace_where(codes: &mut [u8], is: impl Fn(u8) -> bool, to: u8) {
    for block in codes.chunks_mut(64) {
        if block.iter().fold(false, |any, &c| any | is(c)) {
            for c in block.iter_mut().filter(|c| is(**c)) {
                *c = to;
            }
        }
    }
}

/// Calls `f(k)` for each `k` with `bytes[k] == target`: 64 bytes are
/// tested at once (a fold the compiler turns into two vector compares and
/// a mask), and only a block that holds a match is looked at eight bytes
/// at a time. Most blocks hold none: a ply's positions are a few in a
/// million late in a solve, and every ply scans both sides.
#[inline]
fn each_match(bytes: &[u8], target: u8, mut f: impl FnMut(usize)) {
    let blocks = bytes.chunks_exact(64);
    let tail = blocks.remainder();
    for (b, block) in blocks.enumerate() {
        let block: &[u8; 64] = block.try_into().expect("64 bytes");
        if block.iter().fold(0u8, |any, &x| any | u8::from(x == target)) == 0 {
            continue;
        }
        for (w, word) in block.chunks_exact(8).enumerate() {
            let word = u64::from_ne_bytes(word.try_into().expect("8 bytes"));
            for k in matches(word, target) {
                f(64 * b + 8 * w + k);
            }
        }
    }
    let tail_base = bytes.len() - tail.len();
    for (k, &b) in tail.iter().enumerate() {
        if b == target {
            f(tail_base + k);
        }
    }
}

/// The slots one position reaches by its moves or unmoves, kept on the
/// stack: at most four pieces and a king of one side move, each to at
/// most 27 squares, each slot with at most two images.
struct Slots {
    len: usize,
    /// The [`witness`] code of the position they come from.
    witness: u8,
    slots: [usize; Slots::CAPACITY],
}

impl Slots {
    const CAPACITY: usize = 2 * (MAX_FIELDS * 27 + 8);

    #[inline]
    fn new() -> Slots {
        Slots {
            len: 0,
            witness: DRAW,
            slots: [0; Slots::CAPACITY],
        }
    }

    #[inline]
    fn as_slice(&self) -> &[usize] {
        &self.slots[..self.len]
    }
}

/// The lines a line of positions reaches by its king's unmoves (see
/// [`Work::line_predecessors`]): each line's first slot, the symmetry
/// that maps the lowest piece's square into it, and the positions (bits
/// of the line `from`) that reach it.
struct FarLines {
    from: usize,
    len: usize,
    lines: [(usize, u8, Bitboard); 16],
}

impl FarLines {
    fn new() -> FarLines {
        FarLines {
            from: 0,
            len: 0,
            lines: [(0, 0, 0); 16],
        }
    }

    /// Acts on every slot, and empties the list.
    #[inline]
    fn act(&mut self, floor: u8, act: &impl Fn(usize, u8)) {
        for &(to_line, sym, valid) in &self.lines[..self.len] {
            for x in squares(valid) {
                let y = if sym == 0 { x } else { transform(sym, x) };
                act(to_line + y as usize, witness(self.from + x as usize, floor));
            }
        }
        self.len = 0;
    }
}

/// A solved slice as the slices below it read it: its values (white to
/// move, then black) and legal bits.
struct Done {
    values: Values,
    legal: Vec<u64>,
}

/// A slice after its plies: ILLEGAL still marks the slots that hold no
/// position; `exact` holds the values decided before `window` if it moved.
struct Plied {
    cells: Bytes,
    exact: Option<Exact>,
    window: Window,
    plies: u32,
}

impl Plied {
    /// The slots that hold no position taken out of the bytes into legal
    /// bits, and the values (two bytes wide if the window moved and
    /// `narrow` is off or some value needs them).
    fn into_solved(self, narrow: bool) -> Result<SolvedSlice> {
        let Plied {
            mut cells,
            exact,
            window,
            plies,
        } = self;
        let legal = take_illegal(&mut cells);
        let values = match exact {
            None => Values::Narrow(cells),
            Some(exact) => exact_values(cells, exact.into_vec()?, window, narrow),
        };
        Ok(SolvedSlice {
            values,
            legal,
            plies,
        })
    }
}

/// A solved slice: its values (white to move, then black), legal bits and
/// the plies it ran.
struct SolvedSlice {
    values: Values,
    legal: Vec<u64>,
    plies: u32,
}

/// Moves the window on at ply `ply`: the values of positions decided
/// before it go to `exact` (two bytes a slot, made at the first move), and
/// their bytes to the new window's "decided" codes.
/// `exact_file`: where `exact` is kept if not in memory.
fn shift_window(
    cells: &mut [u8],
    exact: &mut Option<Exact>,
    from: Window,
    ply: u32,
    exact_file: Option<&std::path::Path>,
) -> Result<Window> {
    let to = Window::at(ply);
    debug_assert!(to.wins > 0 && to.losses > 0, "a window moves from ply 14 on");
    if exact.is_none() {
        *exact = Some(Exact::zeroed(cells.len(), exact_file)?);
    }
    let exact = exact.as_mut().expect("made above");
    exact.update(|start, exact| {
        cells[start..start + exact.len()]
        .par_chunks_mut(CHUNK)
        .zip(exact.par_chunks_mut(CHUNK))
        .for_each(|(codes, exact)| {
            for (c, x) in codes.iter_mut().zip(exact) {
                if *c == DRAW || *c == ILLEGAL {
                    continue;
                }
                if from.is_past(*c) {
                    // Decided in an earlier window: its value is kept.
                    continue;
                }
                let v = from.decode(*c);
                *c = match v {
                    Value::Win(m) if 2 * m - 1 < ply => 1,
                    Value::Loss(m) if 2 * m < ply => 128,
                    _ => to.encode(v).expect("a narrower window holds what is still to come"),
                };
                if to.is_past(*c) {
                    *x = v.encode_wide().expect("within a solve's plies");
                }
            }
        });
    })?;
    Ok(to)
}

/// The legal bits of a solve's bytes (white to move, then black), each
/// illegal slot's byte set to DRAW as the table stores it.
fn take_illegal(cells: &mut [u8]) -> Vec<u64> {
    cells
        .par_chunks_mut(64)
        .map(|bytes| {
            let mut legal = 0;
            for (k, b) in bytes.iter_mut().enumerate() {
                debug_assert_ne!(*b, CANDIDATE, "no candidate outlives its ply");
                if *b == ILLEGAL {
                    *b = DRAW;
                } else {
                    legal |= 1 << k;
                }
            }
            legal
        })
        .collect()
}

/// The exact values of a solve whose window moved: the kept ones where the
/// byte says "decided before", the byte's own elsewhere.
fn exact_values(cells: Bytes, mut exact: Vec<u16>, window: Window, narrow: bool) -> Values {
    cells
        .par_chunks(CHUNK)
        .zip(exact.par_chunks_mut(CHUNK))
        .for_each(|(codes, exact)| {
            for (&c, x) in codes.iter().zip(exact) {
                if !window.is_past(c) {
                    *x = window
                        .decode(c)
                        .encode_wide()
                        .expect("within a solve's plies");
                }
            }
        });
    if narrow {
        Values::Wide(exact).narrowed()
    } else {
        Values::Wide(exact)
    }
}

impl<'a> Engine<'a> {
    /// Solves one slice, its bytes as the plies left them; `report` (the
    /// pawnless table's one slice) turns the options' checkpoint on, and
    /// hears of its saves.
    fn plies(
        &'a self,
        slice: &'a Slice,
        solved: &'a [Option<Done>],
        report: Option<&dyn Fn(Step)>,
    ) -> Result<Plied> {
        let n = self.geo.size;
        let saving = report.zip(self.options.checkpoint.as_ref());
        let mut work = Work {
            engine: self,
            slice,
            solved,
            dirty: (0..n.div_ceil(CHUNK)).map(|_| AtomicBool::new(false)).collect(),
            outside: if self.geo.pawns {
                (0..2 * n).map(|_| AtomicU8::new(OUT_NONE)).collect()
            } else {
                Vec::new()
            },
            window: Window::default(),
            witnesses: false,
            // Two codes at least: one for positions saved for good, one
            // for a witness.
            floor: WIN_CODES_U8
                + 1
                - match self.options.witness_codes {
                    0 => 0,
                    c => c.clamp(2, WIN_CODES_U8 - 1),
                },
            horizon: AtomicU32::new(0),
            late: Mutex::new(Vec::new()),
            horizon_by_best: [false; 2],
            error: Mutex::new(None),
        };
        let quick = work.quick_sides();
        let promoting = [slice.white_pawns & 0xff << 48 != 0, slice.black_pawns & 0xff00 != 0];
        work.horizon_by_best = [0, 1].map(|side| quick[side] && promoting[side]);
        let resumed = match saving {
            Some((report, c)) => match checkpoint::load(c, n as u64, self.exact_file()) {
                Ok(state) => state,
                Err(e) => {
                    report(Step::Refused {
                        why: format!("{e:#}"),
                    });
                    None
                }
            },
            None => None,
        };
        let trace = self.trace;
        let (mut cells, mut exact, mut ply);
        let mut last_save = std::time::Instant::now();
        match resumed {
            Some(state) => {
                cells = state.cells.into();
                exact = state.exact;
                ply = state.ply;
                work.window = Window {
                    wins: state.window.0,
                    losses: state.window.1,
                };
                work.horizon = AtomicU32::new(state.horizon);
                work.late = Mutex::new(state.late);
                if let Some((report, _)) = saving {
                    report(Step::Resumed { ply });
                }
            }
            None => {
                // Zeroed pages are DRAW and untouched until written.
                const _: () = assert!(DRAW == 0);
                // Blocks of a page or more that no position fills stay
                // untouched only with small pages (a huge page would back
                // them as soon as a neighbour is written): 3 % of a
                // five-piece pawnless table's memory.
                cells = match self.geo.unwritten_shift() {
                    Some(shift) if shift >= 12 => Bytes::zeroed_pages(2 * n)?,
                    _ => huge_zeroed_bytes(2 * n).into(),
                };
                exact = None;
                ply = 0;
                let t0 = std::time::Instant::now();
                // The smaller tables were read whole when opened (their
                // checksums): let those pages go before the first pass
                // fills this table, and again after it.
                self.probe.release_resident_pages();
                work.first_pass(&mut cells);
                self.probe.release_resident_pages();
                // The first pass may have left positions saved for good:
                // hint codes, dropped like the others.
                work.witnesses = work.first_saved().is_some();
                if trace {
                    eprintln!("first pass {:?}", t0.elapsed());
                }
                if let Some(e) = work.error.lock().unwrap_or_else(|p| p.into_inner()).take() {
                    bail!(e);
                }
                if let Some((report, c)) = saving {
                    if last_save.elapsed() >= c.every || c.stop_before == Some(0) {
                        work.drop_witnesses(&mut cells);
                        work.save(c, report, &cells, exact.as_ref(), ply)?;
                        last_save = std::time::Instant::now();
                    }
                }
            }
        }
        if slice.advancement == 0 && !self.layout.material.has_pawns() {
            // Conversions probe the smaller tables all over; let their
            // pages go before the plies.
            self.probe.release_resident_pages();
        }
        loop {
            if work.window.is_full(ply, self.options.window) {
                work.drop_witnesses(&mut cells);
                work.window =
                    shift_window(&mut cells, &mut exact, work.window, ply, self.exact_file())?;
                if trace {
                    eprintln!("ply {ply}: window {:?}", work.window);
                }
            }
            // The hints stay while this ply's wins code below them.
            let keep = self.options.witness_codes > 0
                && (ply / 2 + 1).saturating_sub(work.window.wins) < u32::from(work.floor);
            if !keep {
                work.drop_witnesses(&mut cells);
            }
            work.witnesses = keep;
            work.apply_late(&mut cells, ply);
            let t = std::time::Instant::now();
            let found = work.ply(&mut cells, ply);
            if trace {
                eprintln!("ply {ply}: {found} in {:?}", t.elapsed());
            }
            if let Some(e) = work.error.lock().unwrap_or_else(|p| p.into_inner()).take() {
                bail!(e);
            }
            if let Some(report) = report {
                report(Step::Ply {
                    ply,
                    decided: found,
                });
            }
            if found == 0 && ply >= work.horizon.load(Relaxed) {
                break;
            }
            ply += 1;
            if let Some((report, c)) = saving {
                if last_save.elapsed() >= c.every || c.stop_before == Some(ply) {
                    // A checkpoint holds no hints: whatever resumes it
                    // (another build, other options) reads plain codes.
                    work.drop_witnesses(&mut cells);
                    work.save(c, report, &cells, exact.as_ref(), ply)?;
                    last_save = std::time::Instant::now();
                }
            }
        }
        work.drop_witnesses(&mut cells);
        Ok(Plied {
            cells,
            exact,
            window: work.window,
            plies: ply,
        })
    }

    /// [`Engine::plies`] with the slots that hold no position taken out of
    /// the bytes into legal bits.
    fn solve_slice(
        &'a self,
        slice: &'a Slice,
        solved: &'a [Option<Done>],
        report: Option<&dyn Fn(Step)>,
    ) -> Result<SolvedSlice> {
        self.plies(slice, solved, report)?
            .into_solved(self.options.narrow)
    }

    /// Where the values the window moves aside are kept on disk: a
    /// pawnless table, whose copy into the layout reads them a run at a
    /// time ([`Engine::write_pairs`]), given a file. (A slice with pawns
    /// holds them in memory: a slice is at most 1/24 of its table.)
    fn exact_file(&self) -> Option<&std::path::Path> {
        self.options
            .exact_file
            .as_deref()
            .filter(|_| !self.geo.pawns)
    }

    /// Whether the slots are the layout's own (no pawns, no like pieces):
    /// then the solved slice is the table, once the duplicate images are
    /// cleared.
    fn is_layout(&self) -> bool {
        !self.geo.pawns && self.layout.positions as usize == self.geo.size
    }

    /// Copies a solved slice into the table's layout: `put(side, index,
    /// slot)` for each legal slot, `index` its place in the layout.
    fn transcribe(&self, slice: &Slice, s: &SolvedSlice, put: &(dyn Fn(usize, usize, usize) + Sync)) {
        self.transcribe_words(slice, &|w| s.legal[w], 0..s.legal.len(), put)
    }

    /// [`Engine::transcribe`] for the slots of words `words` (64 slots a
    /// word) only, `legal(w)` giving word `w`'s legal bits.
    fn transcribe_words(
        &self,
        slice: &Slice,
        legal: &(dyn Fn(usize) -> u64 + Sync),
        words: std::ops::Range<usize>,
        put: &(dyn Fn(usize, usize, usize) + Sync),
    ) {
        let n = self.geo.size;
        let symmetric = self.geo.pawns
            && transform_bb(MIRROR, slice.white_pawns) == slice.white_pawns
            && transform_bb(MIRROR, slice.black_pawns) == slice.black_pawns;
        // The pawns' groups are the slice's; each slot adds its pieces.
        let mut pawn_groups = [[0; 5]; 2];
        pawn_groups[0][Role::Pawn as usize] = slice.white_pawns;
        pawn_groups[1][Role::Pawn as usize] = slice.black_pawns;
        // With pawns and lone pieces a slot's piece digits are the
        // layout's: its index is the king pair's rank and the low digits,
        // each square's file flipped (x ^ 7) in the mirror image.
        let lone = self.geo.pawns && self.layout.pieces_are_lone();
        let low_bits = 6 * self.geo.fields.len();
        let mirror_low = (0..self.geo.fields.len()).fold(0, |m, j| m | 7 << (6 * j));
        let blocks = [
            self.layout.block_of_pawns(slice.white_pawns, slice.black_pawns),
            self.layout.block_of_pawns(
                transform_bb(MIRROR, slice.white_pawns),
                transform_bb(MIRROR, slice.black_pawns),
            ),
        ];
        let lone_index = |i: usize| -> Option<u64> {
            let (pair, low) = (i >> low_bits, (i & ((1 << low_bits) - 1)) as u64);
            let (wk, bk) = ((pair >> 6) as u8, (pair & 63) as u8);
            if file_of(wk) <= 3 {
                self.layout.index_of_lone(blocks[0], wk, bk, low)
            } else {
                self.layout.index_of_lone(blocks[1], wk ^ 7, bk ^ 7, low ^ mirror_low)
            }
        };
        words.into_par_iter().for_each(|w| {
            for k in squares(legal(w)) {
                let slot = w * 64 + k as usize;
                let (side, i) = (slot / n, slot % n);
                if symmetric && (i >> (low_bits + 6)) & 7 > 3 {
                    // The white king on files e-h: the mirror image, which
                    // the slice holds too.
                    continue;
                }
                if let Some(index) = lone.then(|| lone_index(i)).flatten() {
                    debug_assert_eq!(
                        Some(index),
                        self.board(slice, &self.geo.decode(i), SIDES[side])
                            .map(|b| self.layout.index(&b))
                    );
                    put(side, index as usize, slot);
                    continue;
                }
                let sq = self.geo.decode(i);
                // The placement's groups, read from its squares: ranking
                // them needs no board (this runs for every legal slot).
                let mut groups = pawn_groups;
                for (j, &(color, role)) in self.geo.fields.iter().enumerate() {
                    groups[color.index()][role as usize] |= bit(sq.sq[j]);
                }
                let index = self
                    .layout
                    .index_of((sq.wk, sq.bk), |color, role| groups[color.index()][role as usize]);
                debug_assert_eq!(
                    Some(index),
                    self.board(slice, &sq, SIDES[side]).map(|b| self.layout.index(&b))
                );
                put(side, index as usize, slot);
            }
        });
    }

    /// The slices a push from `slice` leads to (its pawns' one- and
    /// two-square pushes onto squares no pawn holds).
    fn pushed_into(&self, slice: &Slice) -> Vec<usize> {
        pushed_into(slice, &self.by_pawns)
    }
}

/// The slices a push from `slice` leads to (its pawns' one- and two-square
/// pushes onto squares no pawn holds), `by_pawns` finding each.
fn pushed_into(slice: &Slice, by_pawns: &HashMap<(Bitboard, Bitboard), usize>) -> Vec<usize> {
    let mut out = Vec::new();
    for (side, &us) in SIDES.iter().enumerate() {
        let ours = if side == 0 { slice.white_pawns } else { slice.black_pawns };
        let all = slice.white_pawns | slice.black_pawns;
        let step = |sq: u8| if us == Color::White { sq + 8 } else { sq - 8 };
        let start = if us == Color::White { 1 } else { 6 };
        for p in squares(ours) {
            let mut to = p;
            for _ in 0..if rank_of(p) == start { 2 } else { 1 } {
                to = step(to);
                if all & bit(to) != 0 || !(8..56).contains(&to) {
                    break;
                }
                let (w, b) = if side == 0 {
                    (slice.white_pawns & !bit(p) | bit(to), slice.black_pawns)
                } else {
                    (slice.white_pawns, slice.black_pawns & !bit(p) | bit(to))
                };
                let key = if canonical(w, b) {
                    (w, b)
                } else {
                    (transform_bb(MIRROR, w), transform_bb(MIRROR, b))
                };
                if let Some(&id) = by_pawns.get(&key) {
                    out.push(id);
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The order slices are solved in, and the waves of them solved side
/// by side: a slice comes after every slice it pushes into, and the
/// order keeps few solved slices waiting for the slices that push
/// into them (each is let go once the last of those is solved). Among
/// the slices whose pushes are all solved, the next is the one that
/// leaves the fewest waiting (ties: the least advanced, so that the
/// order goes down as far as it can before it starts elsewhere): a table
/// with one pawn goes down one file at a time and keeps at most three
/// slices waiting, where going down rank by rank kept two ranks.
/// A wave is up to `width` consecutive slices of that order none of
/// which pushes into another.
fn schedule(children: &[Vec<usize>], width: usize) -> Vec<Vec<usize>> {
    use std::cmp::Reverse;
    use std::collections::BTreeSet;
    let count = children.len();
    let mut parents_of: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (id, kids) in children.iter().enumerate() {
        for &c in kids {
            parents_of[c].push(id);
        }
    }
    // Parents not yet solved, children not yet solved.
    let mut parents_left: Vec<usize> = parents_of.iter().map(Vec::len).collect();
    let mut waiting_on: Vec<usize> = children.iter().map(Vec::len).collect();
    let mut done = vec![false; count];
    // Solving `id` makes it wait (if a slice pushes into it) and lets go
    // of the children it is the last parent of: the change, offset by
    // `count` to stay unsigned. The ready set is ordered by it, then by
    // the least advanced (the highest id), each entry's key kept to find it.
    let key = |id: usize, parents_left: &[usize]| {
        let freed = children[id].iter().filter(|&&c| parents_left[c] == 1).count();
        ((parents_left[id] > 0) as usize + count - freed, Reverse(id))
    };
    let mut keys = vec![(0, Reverse(0)); count];
    let mut ready = BTreeSet::new();
    for id in (0..count).filter(|&id| waiting_on[id] == 0) {
        keys[id] = key(id, &parents_left);
        ready.insert(keys[id]);
    }
    let mut order = Vec::with_capacity(count);
    while let Some((_, Reverse(next))) = ready.pop_first() {
        order.push(next);
        done[next] = true;
        for &c in &children[next] {
            parents_left[c] -= 1;
            if parents_left[c] == 1 {
                // Its last parent now frees it: that parent's key drops.
                let last = parents_of[c].iter().copied().find(|&p| !done[p]);
                if let Some(p) = last.filter(|&p| ready.remove(&keys[p])) {
                    keys[p] = key(p, &parents_left);
                    ready.insert(keys[p]);
                }
            }
        }
        for &p in &parents_of[next] {
            waiting_on[p] -= 1;
            if waiting_on[p] == 0 {
                keys[p] = key(p, &parents_left);
                ready.insert(keys[p]);
            }
        }
    }
    debug_assert_eq!(order.len(), count, "pushes only ever advance");
    let mut waves: Vec<Vec<usize>> = Vec::new();
    for id in order {
        match waves.last_mut() {
            Some(w)
                if w.len() < width.max(1)
                    && w.iter().all(|&o| !children[id].contains(&o)) =>
            {
                w.push(id)
            }
            _ => waves.push(vec![id]),
        }
    }
    waves
}

/// The bytes a solve holds at its peak. Without pawns: the slice's bytes
/// (illegal slots and candidates are codes in them; a table without like
/// pieces is finished in them), and for a table with like pieces the
/// slice's legal bits and the layout's bytes and bits while it
/// transcribes. With pawns (the table goes to its file block by block, never
/// whole): each wave of [`schedule`] (as many slices as `threads`) solving
/// side by side (bytes, the summary of their moves leaving the slice,
/// legal bits), the slices solved before it that a slice still to solve
/// pushes into (values and legal bits), and one slice's blocks being
/// transcribed. A table whose window moves (distances past 125 moves)
/// holds two bytes a slot more. None for tables with too many pieces.
pub fn memory_bytes(layout: &Layout, threads: usize) -> Option<u64> {
    let geo = Geometry::new(layout).ok()?;
    let size = geo.size as u64;
    if layout.material.has_pawns() {
        let kept = 2 * size + 2 * size / 8;
        let solving = 4 * size + 2 * size / 8;
        let block = layout.pawn_block();
        let blocks = 4 * block + 4 * block / 8;
        let slices = slices_of(layout);
        let by_pawns = slices
            .iter()
            .enumerate()
            .map(|(i, s)| ((s.white_pawns, s.black_pawns), i))
            .collect();
        let children: Vec<Vec<usize>> = slices.iter().map(|s| pushed_into(s, &by_pawns)).collect();
        let mut parents = vec![0usize; slices.len()];
        for kids in &children {
            for &c in kids {
                parents[c] += 1;
            }
        }
        let (mut live, mut peak) = (0u64, 0u64);
        for wave in schedule(&children, threads) {
            let n = wave.len() as u64;
            peak = peak.max(live * kept + n * (solving + kept) + blocks);
            for &id in &wave {
                live += (parents[id] > 0) as u64;
            }
            for &id in &wave {
                for &c in &children[id] {
                    parents[c] -= 1;
                    live -= (parents[c] == 0) as u64;
                }
            }
        }
        return Some(peak);
    }
    if layout.positions == size {
        // Solved and finished in its own bytes (`finish_in_place`): a byte
        // a slot, no legal bits. A table whose window moves (distances
        // past 126 moves, which no plan knows beforehand) keeps the
        // values decided before it in a file and is copied out a run of
        // king pairs at a time (`write_plied`): about 100 MiB more.
        return Some(2 * size);
    }
    // Like pieces: the slice's bytes, and one run of king pairs of the
    // layout at a time (`Engine::write_pairs`).
    let inner = layout.positions / geo.pairs as u64;
    let run = 2 * inner * pairs_a_run(inner as usize, geo.pairs) as u64;
    Some(2 * size + run + run / 8)
}

/// King pairs a run of [`Engine::write_pairs`] copies, `inner` positions
/// a pair: about 32 MiB of one-byte values (both sides), at least a pair.
fn pairs_a_run(inner: usize, pairs: usize) -> usize {
    ((1usize << 25) / (2 * inner)).clamp(1, pairs)
}

/// The slots the sweeps visit for `layout`, both sides to move: each
/// slice's superset index (every piece on any square, like pieces
/// counted apart), so more than the layout's positions for a table with
/// like pieces. The build's time goes with this, not with the layout.
pub fn slots_swept(layout: &Layout) -> Option<u64> {
    let geo = Geometry::new(layout).ok()?;
    let slices = if layout.material.has_pawns() {
        slices_of(layout).len() as u64
    } else {
        1
    };
    Some(2 * geo.size as u64 * slices)
}

/// How many slots of the superset index hold one placement of the
/// pieces besides kings and pawns: the product of k! over the groups of k
/// like pieces. The sweeps solve one of them and skip the others' bytes.
pub fn orders_of_like_pieces(layout: &Layout) -> Option<u64> {
    let geo = Geometry::new(layout).ok()?;
    Some((0..geo.fields.len()).map(|j| (j - geo.span[j].0 as usize + 1) as u64).product())
}

/// How a solve counts past one byte, and where it saves its state.
#[derive(Clone, Debug)]
pub struct Options {
    /// The window moves on whenever a ply may need a code past this
    /// (8..=[`WINDOW`]; tests pass a small one to move it often).
    pub window: u32,
    /// Values come out one byte wide when every distance fits (false: two
    /// bytes whenever the window moved, for tests of the two-byte path).
    pub narrow: bool,
    /// Save the state between plies, and resume from it (pawnless tables:
    /// the one slice is the whole table; a table with pawns resumes
    /// table by table). The file is left for the caller to remove once
    /// the table is stored.
    pub checkpoint: Option<Checkpoint>,
    /// How many of the far win codes undecided positions may use for a hint
    /// of the move that saved them, so that most marks need no check (see
    /// [`WITNESS`]): 64 by default, at least 2 (one is [`saved_for_good`]'s)
    /// and at most 124 (tests take many, so that
    /// the hints make way for the wins early and often); 0 keeps none and
    /// re-checks every position at every ply a move of it is won (the same
    /// bytes, slower; a build takes 0 when `NIMROD_NO_WITNESSES` is set, for
    /// side-by-side measurements).
    pub witness_codes: u8,
    /// A file for the two-byte values the window moves aside, for a
    /// pawnless table with like pieces (None, or any other table: in
    /// memory). A six-piece slice's are 28.9 GiB, beside its 14.4 GiB of
    /// bytes. The file is removed when the solve is done with it.
    pub exact_file: Option<std::path::PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            window: WINDOW,
            narrow: true,
            checkpoint: None,
            witness_codes: WIN_CODES_U8 + 1 - WITNESS,
            exact_file: None,
        }
    }
}

#[cfg(any(test, feature = "internals"))]
/// Solves `layout` given the tables of every capture and promotion.
pub fn solve(layout: &Layout, probe: &Tablebase, on_step: &dyn Fn(Step)) -> Result<Solved> {
    solve_with(layout, probe, on_step, Options::default())
}

/// [`solve`] with its window chosen, the table held in memory.
#[cfg(any(test, feature = "internals"))]
pub fn solve_with(
    layout: &Layout,
    probe: &Tablebase,
    on_step: &dyn Fn(Step),
    options: Options,
) -> Result<Solved> {
    let window = options.window;
    if !(8..=WINDOW).contains(&window) {
        bail!("sweep window {window} is outside 8..={WINDOW}");
    }
    let engine = Engine::new(layout, probe, options)?;
    // The checkpoint stays until the caller has stored the table (a kill
    // while the statistics run or the table is written would otherwise
    // lose the whole solve).
    if engine.is_layout() {
        let plied = engine.plies(&engine.slices[0], &[], Some(on_step))?;
        on_step(Step::Slice);
        on_step(Step::Slices);
        if plied.exact.is_none() {
            return finish_in_place(&engine, plied);
        }
        let mut sink = InMemory::new(2 * layout.positions);
        let stats = write_plied(&engine, plied, &mut sink)?;
        return Ok(Solved {
            values: sink.values,
            stats,
        });
    }
    let mut sink = InMemory::new(2 * layout.positions);
    let stats = solve_blocks(&engine, &mut sink, on_step)?;
    Ok(Solved {
        values: sink.values,
        stats,
    })
}

/// [`solve_with`], the table written into `sink` (a build's table file)
/// rather than returned whole: its statistics. A table with pawns is
/// written slice by slice; a pawnless one with like pieces, or whose
/// window moved, a run of king pairs at a time (its values decided before
/// the window moved read back from the exact file); any other is finished
/// in the solve's own bytes and written at once.
pub fn solve_into(
    layout: &Layout,
    probe: &Tablebase,
    on_step: &dyn Fn(Step),
    options: Options,
    sink: &mut dyn Sink,
) -> Result<TableStats> {
    if !(8..=WINDOW).contains(&options.window) {
        bail!("sweep window {} is outside 8..={WINDOW}", options.window);
    }
    let engine = Engine::new(layout, probe, options)?;
    solve_blocks(&engine, sink, on_step)
}

/// A table solved and written to `sink`.
fn solve_blocks(engine: &Engine, sink: &mut dyn Sink, on_step: &dyn Fn(Step)) -> Result<TableStats> {
    if engine.geo.pawns {
        return solve_pawns(engine, sink, on_step);
    }
    let plied = engine.plies(&engine.slices[0], &[], Some(on_step))?;
    on_step(Step::Slice);
    on_step(Step::Slices);
    if engine.is_layout() && plied.exact.is_none() {
        let started = std::time::Instant::now();
        let Solved { values, stats } = finish_in_place(engine, plied)?;
        let counted = started.elapsed();
        match &values {
            Values::Narrow(bytes) => sink.put_narrow(0, bytes)?,
            Values::Wide(wide) => sink.put_wide(0, wide)?,
        }
        if engine.trace {
            eprintln!("statistics {counted:?}, stored {:?}", started.elapsed() - counted);
        }
        return Ok(stats);
    }
    write_plied(engine, plied, sink)
}

/// A pawnless table's plied slice copied into `sink` in its layout's
/// order, a run of king pairs at a time.
fn write_plied(engine: &Engine, plied: Plied, sink: &mut dyn Sink) -> Result<TableStats> {
    let Plied {
        cells,
        exact,
        window,
        plies,
    } = plied;
    // The bytes as the plies left them, ILLEGAL still in them: no legal
    // bits beside the slice (2n/8 bytes, 1.8 GiB at six pieces).
    let n = engine.geo.size;
    let legal = |w: usize| -> u64 {
        if engine.geo.unwritten(w * 64 % n) {
            return 0;
        }
        let bytes = &cells[w * 64..(w + 1) * 64];
        (0..64).fold(0, |bits, k| bits | ((bytes[k] != ILLEGAL) as u64) << k)
    };
    let Some(exact) = exact else {
        return engine.write_pairs(Source::Narrow(&cells), &legal, plies, sink);
    };
    // The window moved: a slot's value is its byte's in the last window,
    // or kept aside if decided before it; written two bytes wide, then
    // one if every value fits.
    let source = Source::Windowed {
        cells: &cells,
        exact: &exact,
        window,
    };
    let stats = engine.write_pairs(source, &legal, plies, sink)?;
    // The kept values' file goes before the table may be copied narrower.
    drop(exact);
    if engine.options.narrow {
        sink.narrow()?;
    }
    Ok(stats)
}

/// A solved slice's values, one byte or two a slot.
enum Source<'a> {
    Narrow(&'a [u8]),
    /// The bytes as the last window codes them, and the values decided
    /// before it (where a byte says so).
    Windowed {
        cells: &'a [u8],
        exact: &'a Exact,
        window: Window,
    },
}

/// Where a table with pawns goes, one block of slots at a time (one
/// placement of the pawns, one side to move: see `Layout::pawn_block`).
/// Slots never written hold 0 (a draw, or no position).
pub trait Sink {
    /// Stores one-byte values from slot `at` on.
    fn put_narrow(&mut self, at: u64, values: &[u8]) -> Result<()>;
    /// Stores two-byte values from slot `at` on.
    fn put_wide(&mut self, at: u64, values: &[u16]) -> Result<()>;
    /// Whether values are stored two bytes wide.
    fn is_wide(&self) -> bool;
    /// Stores every value two bytes wide from now on, those already
    /// stored too.
    fn widen(&mut self) -> Result<()>;
    /// Stores every value one byte wide again, if every one fits (false
    /// when one does not, and then nothing changes).
    fn narrow(&mut self) -> Result<bool>;
}

/// A [`Sink`] in memory: the values a caller of [`solve_with`] gets.
#[cfg(any(test, feature = "internals"))]
struct InMemory {
    values: Values,
}

#[cfg(any(test, feature = "internals"))]
impl InMemory {
    fn new(slots: u64) -> InMemory {
        InMemory {
            values: Values::Narrow(huge_zeroed_bytes(slots as usize).into()),
        }
    }
}

#[cfg(any(test, feature = "internals"))]
impl Sink for InMemory {
    fn put_narrow(&mut self, at: u64, values: &[u8]) -> Result<()> {
        match &mut self.values {
            Values::Narrow(bytes) => {
                bytes[at as usize..at as usize + values.len()].copy_from_slice(values)
            }
            Values::Wide(_) => bail!("one-byte values written to two-byte storage"),
        }
        Ok(())
    }

    fn put_wide(&mut self, at: u64, values: &[u16]) -> Result<()> {
        match &mut self.values {
            Values::Wide(wide) => {
                wide[at as usize..at as usize + values.len()].copy_from_slice(values)
            }
            Values::Narrow(_) => bail!("two-byte values written to one-byte storage"),
        }
        Ok(())
    }

    fn is_wide(&self) -> bool {
        matches!(self.values, Values::Wide(_))
    }

    fn widen(&mut self) -> Result<()> {
        if let Values::Narrow(bytes) = &self.values {
            self.values = Values::Wide(
                bytes
                    .par_iter()
                    .map(|&b| Value::decode(b).encode_wide().expect("a byte's value"))
                    .collect(),
            );
        }
        Ok(())
    }

    fn narrow(&mut self) -> Result<bool> {
        let values = std::mem::replace(&mut self.values, Values::Wide(Vec::new()));
        self.values = values.narrowed();
        Ok(!self.is_wide())
    }
}

/// The slices of a table with pawns solved in [`Engine::schedule`]'s
/// waves, each copied into its blocks of the layout and written to `sink`
/// as it is solved, and let go once no slice left to solve pushes into it.
fn solve_pawns(engine: &Engine, sink: &mut dyn Sink, on_step: &dyn Fn(Step)) -> Result<TableStats> {
    let children: Vec<Vec<usize>> = engine.slices.iter().map(|s| engine.pushed_into(s)).collect();
    let mut parents_left = vec![0usize; engine.slices.len()];
    for kids in &children {
        for &c in kids {
            parents_left[c] += 1;
        }
    }
    let mut solved: Vec<Option<Done>> = (0..engine.slices.len()).map(|_| None).collect();
    let mut tally = Tally::default();
    let mut plies = 0;
    for wave in schedule(&children, rayon::current_num_threads()) {
        let results: Vec<Result<SolvedSlice>> = wave
            .par_iter()
            .map(|&id| engine.solve_slice(&engine.slices[id], &solved, None))
            .collect();
        for (&id, r) in wave.iter().zip(results) {
            let mut r = r?;
            if matches!(r.values, Values::Wide(_)) && !sink.is_wide() {
                sink.widen()?;
            }
            engine.write_blocks(&engine.slices[id], &r, sink, &mut tally)?;
            plies = plies.max(r.plies);
            if parents_left[id] > 0 {
                solved[id] = Some(Done {
                    values: std::mem::replace(&mut r.values, Values::Wide(Vec::new())),
                    legal: std::mem::take(&mut r.legal),
                });
            }
            on_step(Step::Slice);
        }
        for &id in &wave {
            for &c in &children[id] {
                parents_left[c] -= 1;
                if parents_left[c] == 0 {
                    solved[c] = None;
                }
            }
        }
        engine.probe.release_resident_pages();
    }
    drop(solved);
    on_step(Step::Slices);
    if sink.is_wide() && engine.options.narrow {
        sink.narrow()?;
    }
    Ok(tally.stats(plies))
}

impl Engine<'_> {
    /// Copies a solved slice into the layout's blocks its positions fall
    /// in (its pawns', and their mirror image's unless they are their own)
    /// and writes them to `sink`, adding them to `tally`.
    fn write_blocks(
        &self,
        slice: &Slice,
        s: &SolvedSlice,
        sink: &mut dyn Sink,
        tally: &mut Tally,
    ) -> Result<()> {
        let layout = self.layout;
        let (block, positions) = (layout.pawn_block() as usize, layout.positions as usize);
        let mut ids: Vec<usize> = Vec::with_capacity(2);
        for (w, b) in [
            (slice.white_pawns, slice.black_pawns),
            (transform_bb(MIRROR, slice.white_pawns), transform_bb(MIRROR, slice.black_pawns)),
        ] {
            let id = self.block_of(w, b);
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        let count = ids.len();
        let place = |side: usize, index: usize| -> usize {
            let which = if ids[0] == index / block { 0 } else { 1 };
            debug_assert_eq!(ids[which], index / block, "a slice's block");
            (side * count + which) * block + index % block
        };
        // (Without pieces a king pair's run is one slot: nothing to copy whole.)
        if let (false, true, false, Values::Narrow(bytes)) = (
            sink.is_wide(),
            layout.pieces_are_lone(),
            self.geo.fields.is_empty(),
            &s.values,
        ) {
            return self.write_lone_blocks(&ids, bytes, &s.legal, sink, tally);
        }
        let legal: Vec<AtomicU64> = (0..(2 * count * block).div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect();
        let mark = |at: usize| {
            legal[at / 64].fetch_or(1 << (at % 64), Relaxed);
            at
        };
        let is_legal = |at: usize| legal[at / 64].load(Relaxed) >> (at % 64) & 1 == 1;
        let out = if sink.is_wide() {
            let out: Vec<AtomicU16> = (0..2 * count * block).map(|_| AtomicU16::new(0)).collect();
            self.transcribe(slice, s, &|side, index, slot| {
                let x = s.values.get(slot).encode_wide().expect("a solve's distance");
                out[mark(place(side, index))].store(x, Relaxed)
            });
            Values::Wide(out.into_iter().map(AtomicU16::into_inner).collect())
        } else {
            let Values::Narrow(bytes) = &s.values else {
                unreachable!("the sink was widened for a two-byte slice")
            };
            let out = Cells::new(2 * count * block, DRAW);
            self.transcribe(slice, s, &|side, index, slot| {
                out.store(mark(place(side, index)), bytes[slot])
            });
            Values::Narrow(out.into_bytes())
        };
        for (which, &id) in ids.iter().enumerate() {
            let at = |side: usize| (side * count + which) * block;
            tally.add(
                layout,
                id * block,
                block,
                |side, k| out.get(at(side) + k),
                |side, k| is_legal(at(side) + k),
            );
            for side in 0..2 {
                let to = (side * positions + id * block) as u64;
                match &out {
                    Values::Narrow(b) => sink.put_narrow(to, &b[at(side)..at(side) + block])?,
                    Values::Wide(w) => sink.put_wide(to, &w[at(side)..at(side) + block])?,
                }
            }
        }
        Ok(())
    }

    /// [`Engine::write_blocks`] for a table with pawns whose pieces are
    /// lone, one byte a value: a king pair's slots in the slice are its
    /// positions in the layout in the same order (in the mirror image each
    /// square's file flipped), so each pair's run is copied whole rather
    /// than ranked slot by slot, and the statistics come from histograms
    /// of the codes ([`Tally::add_codes`]), every position weighing 2 (it
    /// and its mirror image: with pawns no position is its own). Ranking
    /// and tallying slot by slot were 15 % of KRPvKR's build.
    fn write_lone_blocks(
        &self,
        ids: &[usize],
        bytes: &[u8],
        legal: &[u64],
        sink: &mut dyn Sink,
        tally: &mut Tally,
    ) -> Result<()> {
        let layout = self.layout;
        let pairs = layout.king_pairs();
        let (block, positions, n) = (layout.pawn_block() as usize, layout.positions as usize, self.geo.size);
        let inner = block / pairs.len();
        let fields = self.geo.fields.len();
        assert!(
            self.geo.pawns && inner == 1 << (6 * fields) && n == 64 * 64 * inner && inner.is_multiple_of(64),
            "a lone-piece slice is a king pair's run of the layout's positions"
        );
        let count = ids.len();
        // The mirror flips each square's file: the bytes of each rank of a
        // line (the lowest piece's 64 squares) reverse, and the other
        // pieces' digits move the line.
        let mirror_lines = (1..fields).fold(0, |m, j| m | 7 << (6 * j - 6));
        let mut out = vec![DRAW; 2 * count * block];
        let mut out_legal = vec![0u64; out.len() / 64];
        out.par_chunks_mut(inner)
            .zip(out_legal.par_chunks_mut(inner / 64))
            .enumerate()
            .for_each(|(c, (dst, dst_legal))| {
                let (side, which, rank) = (c / (count * pairs.len()), c / pairs.len() % count, c % pairs.len());
                let (wk, bk) = pairs[rank];
                // The second block is the mirror image's.
                let flip = which == 1;
                let (wk, bk) = if flip { (wk ^ 7, bk ^ 7) } else { (wk, bk) };
                let from = side * n + ((wk as usize) << 6 | bk as usize) * inner;
                let (src, src_legal) = (&bytes[from..from + inner], &legal[from / 64..(from + inner) / 64]);
                if !flip {
                    dst.copy_from_slice(src);
                    dst_legal.copy_from_slice(src_legal);
                    return;
                }
                for (line, (s, &l)) in src.chunks_exact(64).zip(src_legal).enumerate() {
                    let to = line ^ mirror_lines;
                    for (d, s) in dst[to * 64..to * 64 + 64].chunks_exact_mut(8).zip(s.chunks_exact(8)) {
                        let rank = u64::from_le_bytes(s.try_into().expect("eight bytes"));
                        d.copy_from_slice(&rank.swap_bytes().to_le_bytes());
                    }
                    dst_legal[to] = l.reverse_bits().swap_bytes();
                }
            });
        // Every legal slot of the slice found its place: those of white
        // kings on files a-d, and the others' too unless the pawns are
        // their own mirror image (then the slice holds each position twice).
        let kept = |side: usize, west: bool| -> u64 {
            (0..64 * 64)
                .filter(|p| (file_of((p >> 6) as u8) <= 3) == west)
                .map(|p| {
                    let from = (side * n + p * inner) / 64;
                    legal[from..from + inner / 64].iter().map(|w| u64::from(w.count_ones())).sum::<u64>()
                })
                .sum()
        };
        let placed: u64 = out_legal.iter().map(|w| u64::from(w.count_ones())).sum();
        let want: u64 = (0..2).map(|side| kept(side, true) + if count == 2 { kept(side, false) } else { 0 }).sum();
        if placed != want {
            bail!(
                "{}: {placed} positions placed in the layout's blocks {ids:?}, {want} legal in the slice",
                layout.material
            );
        }
        let mark = |out: &mut [u8], code: u8| {
            out.par_chunks_mut(64).zip(&out_legal[..]).for_each(|(line, &l)| {
                for k in squares(!l) {
                    line[k as usize] = code;
                }
            })
        };
        // ILLEGAL marks the slots that hold no position while they are
        // tallied; stored, they are DRAW.
        mark(&mut out, ILLEGAL);
        for which in 0..count {
            let at = |side: usize| (side * count + which) * block;
            tally.add_codes(2, &out[at(0)..at(0) + block], &out[at(1)..at(1) + block], ILLEGAL);
        }
        mark(&mut out, DRAW);
        for (which, &id) in ids.iter().enumerate() {
            let at = |side: usize| (side * count + which) * block;
            for side in 0..2 {
                let to = (side * positions + id * block) as u64;
                sink.put_narrow(to, &out[at(side)..at(side) + block])?;
            }
        }
        Ok(())
    }

    /// A pawnless table with like pieces, whose layout ranks each set of
    /// them once: the solved slice copied into the layout a run of king
    /// pairs at a time (a king pair's slots and its positions are each one
    /// stretch, in the same order of pairs), each run written to `sink` and
    /// tallied as it is made. So the layout is never held whole beside the
    /// slice: KQQQvKB's build peaked at 18.9 GiB when it was.
    fn write_pairs(
        &self,
        values: Source,
        legal_word: &(dyn Fn(usize) -> u64 + Sync),
        plies: u32,
        sink: &mut dyn Sink,
    ) -> Result<TableStats> {
        let (layout, slice) = (self.layout, &self.slices[0]);
        let (n, pairs) = (self.geo.size, self.geo.pairs);
        let positions = layout.positions as usize;
        let (per_pair, inner) = (n / pairs, positions / pairs);
        debug_assert_eq!((per_pair * pairs, inner * pairs), (n, positions));
        debug_assert_eq!(per_pair % 64, 0, "like pieces make at least two fields");
        if !matches!(values, Source::Narrow(_)) && !sink.is_wide() {
            sink.widen()?;
        }
        let run = pairs_a_run(inner, pairs);
        let mut tally = Tally::default();
        for first in (0..pairs).step_by(run) {
            let count = run.min(pairs - first);
            let len = count * inner;
            let legal: Vec<AtomicU64> = (0..(2 * len).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect();
            // Where position `index` goes in the run; an index outside
            // the run's pairs fails the bounds check of `legal`.
            let mark = |side: usize, index: usize| {
                let at = side * len + index.wrapping_sub(first * inner);
                legal[at / 64].fetch_or(1 << (at % 64), Relaxed);
                at
            };
            let is_legal = |at: usize| legal[at / 64].load(Relaxed) >> (at % 64) & 1 == 1;
            let words = |side: usize| {
                (side * n + first * per_pair) / 64..(side * n + (first + count) * per_pair) / 64
            };
            let out = match values {
                Source::Narrow(bytes) => {
                    let out = Cells::new(2 * len, DRAW);
                    for side in 0..2 {
                        self.transcribe_words(slice, legal_word, words(side), &|side, index, slot| {
                            out.store(mark(side, index), bytes[slot])
                        });
                    }
                    Values::Narrow(out.into_bytes())
                }
                Source::Windowed {
                    cells,
                    exact,
                    window,
                } => {
                    let out: Vec<AtomicU16> = (0..2 * len).map(|_| AtomicU16::new(0)).collect();
                    for side in 0..2 {
                        // The run's slots of this side are one stretch.
                        let from = side * n + first * per_pair;
                        let mut kept = vec![0u16; count * per_pair];
                        exact.read(from, &mut kept)?;
                        self.transcribe_words(slice, legal_word, words(side), &|side, index, slot| {
                            let c = cells[slot];
                            let x = if window.is_past(c) {
                                kept[slot - from]
                            } else {
                                window.decode(c).encode_wide().expect("within a solve's plies")
                            };
                            out[mark(side, index)].store(x, Relaxed)
                        });
                    }
                    Values::Wide(out.into_iter().map(AtomicU16::into_inner).collect())
                }
            };
            tally.add(
                layout,
                first * inner,
                len,
                |side, k| out.get(side * len + k),
                |side, k| is_legal(side * len + k),
            );
            for side in 0..2 {
                let to = (side * positions + first * inner) as u64;
                let stretch = side * len..(side + 1) * len;
                match &out {
                    Values::Narrow(b) => sink.put_narrow(to, &b[stretch])?,
                    Values::Wide(w) => sink.put_wide(to, &w[stretch])?,
                }
            }
        }
        Ok(tally.stats(plies))
    }

    /// The layout's block of a placement of the pawns (in either frame).
    fn block_of(&self, white: Bitboard, black: Bitboard) -> usize {
        self.layout.block_of_pawns(white, black) as usize
    }
}

/// A pawnless table without like pieces: the slice is the table once each
/// position's second image (kings on a diagonal's axis) is cleared. A
/// table of one-byte values is finished in its own bytes, ILLEGAL read as
/// "no position": legal bits (2n/8 bytes more, KQRvKR's 30 MB) would raise
/// the build's peak memory, which is the solve's bytes and this.
fn finish_in_place(engine: &Engine, plied: Plied) -> Result<Solved> {
    // A window that moved is finished by `write_plied`, from its file.
    debug_assert!(plied.exact.is_none());
    let Plied {
        mut cells, plies, ..
    } = plied;
    let (layout, n) = (engine.layout, engine.geo.size);
    let (geo, pairs) = (&engine.geo, engine.geo.pairs);
    let per_pair = n / pairs;
    // Runs of king pairs whose kings no symmetry fixes are counted from
    // their codes' histograms, every position weighing the group's 8
    // boards. A pair whose kings the diagonal mirror fixes stores each
    // placement twice: the higher twin is made ILLEGAL (the layout keeps
    // the lower), and a placement the mirror maps onto itself weighs 4.
    let mut tally = Tally::default();
    let fixed = |pair: usize| layout.kings_have_a_second_canonical_image((pair * per_pair) as u64);
    let mut pair = 0;
    while pair < pairs {
        let end = (pair..pairs).find(|&p| fixed(p) != fixed(pair)).unwrap_or(pairs);
        let (from, to) = (pair * per_pair, end * per_pair);
        if !fixed(pair) {
            // Each pair's blocks no position fills are left out, unread.
            let mut segments = Vec::new();
            match geo.unwritten_shift() {
                None => segments.push((from, to)),
                Some(shift) => {
                    for p in pair..end {
                        let base = p * per_pair;
                        let (wk, bk) = geo.kings.pairs[p];
                        let (a, b) = (wk.min(bk) as usize, wk.max(bk) as usize);
                        let block = |sq: usize| base + (sq << shift);
                        for (lo, hi) in [(base, block(a)), (block(a + 1), block(b)), (block(b + 1), base + per_pair)] {
                            if lo < hi {
                                segments.push((lo, hi));
                            }
                        }
                    }
                }
            }
            for (lo, hi) in segments {
                tally.add_codes(8, &cells[lo..hi], &cells[n + lo..n + hi], ILLEGAL);
            }
            pair = end;
            continue;
        }
        // A few pages at a time, in buffers reused throughout: a pair's
        // worth of classes and of each side's kept codes (768 KiB at five
        // pieces) was the solve's last rise of its peak memory.
        const PIECE: usize = 1 << 12;
        let mut class = vec![0u8; PIECE];
        let mut only = [vec![0u8; PIECE], vec![0u8; PIECE]];
        for p in pair..end {
            let (from, to) = (p * per_pair, (p + 1) * per_pair);
            for start in (from..to).step_by(PIECE) {
                let len = PIECE.min(to - start);
                let class = &mut class[..len];
                for (k, c) in class.iter_mut().enumerate() {
                    *c = match geo.twin_class(start + k) {
                        None => 0,
                        Some(false) => 8,
                        Some(true) => 4,
                    };
                }
                // A slot holding no kept position reads as a draw in the
                // file; one already DRAW is not written (an unwritten block
                // stays untouched).
                for side in 0..2 {
                    let block = &mut cells[side * n + start..side * n + start + len];
                    for (b, &c) in block.iter_mut().zip(&*class) {
                        if c == 0 && *b != DRAW {
                            *b = ILLEGAL;
                        }
                    }
                }
                for weight in [8, 4] {
                    for (side, only) in only.iter_mut().enumerate() {
                        let block = &cells[side * n + start..side * n + start + len];
                        for ((o, &b), &c) in only.iter_mut().zip(block).zip(&*class) {
                            *o = if c == weight { b } else { ILLEGAL };
                        }
                    }
                    tally.add_codes(u64::from(weight), &only[0][..len], &only[1][..len], ILLEGAL);
                }
            }
        }
        pair = end;
    }
    cells.par_chunks_mut(1 << 16).for_each(|chunk| {
        debug_assert!(!chunk.contains(&CANDIDATE), "no candidate outlives its ply");
        replace_where(chunk, |b| b == ILLEGAL, DRAW);
    });
    Ok(Solved {
        values: Values::Narrow(cells),
        stats: tally.stats(plies),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::material::Material;

    #[test]
    fn pawn_sets_are_every_subset_once() {
        assert_eq!(pawn_sets(1).len(), 48);
        assert_eq!(pawn_sets(2).len(), 48 * 47 / 2);
        let mut sets = pawn_sets(3);
        let all = sets.len();
        sets.sort_unstable();
        sets.dedup();
        assert_eq!((sets.len(), all), (48 * 47 * 46 / 6, 48 * 47 * 46 / 6));
        assert!(sets.iter().all(|s| s.count_ones() == 3 && s & 0xff00_0000_0000_00ff == 0));
    }

    /// A king's steps read from the table reach the slots that moving the
    /// king and ranking the pair again reaches.
    #[test]
    fn king_steps_reach_the_images_of_the_stepped_placement() {
        for name in ["KQvK", "KPvK", "KRvKN"] {
            let layout = Layout::new(Material::parse(name).unwrap().canonical());
            let geo = Geometry::new(&layout).unwrap();
            let mut steps = 0;
            for i in (0..geo.size).step_by(7) {
                let s = geo.decode(i);
                for side in 0..2 {
                    let (king, other) = s.kings(side);
                    let mut by_table = Vec::new();
                    for step in geo.king_steps(i, side) {
                        geo.step_images::<true>(step, i, &s, |x| by_table.push((step.to, x)));
                    }
                    // The slow way: move the king, rank the pair again.
                    let mut by_squares = Vec::new();
                    for to in squares(KING[king as usize] & !KING[other as usize] & !bit(other)) {
                        let mut c = s;
                        if side == 0 {
                            c.wk = to;
                        } else {
                            c.bk = to;
                        }
                        geo.images(&c, |x| by_squares.push((to, x)));
                    }
                    by_table.sort_unstable();
                    by_squares.sort_unstable();
                    assert_eq!(by_table, by_squares, "{name} slot {i} side {side}");
                    steps += by_table.len();
                }
            }
            assert!(steps > 1000, "{name}: {steps} steps");
        }
    }

    /// `each_match` against a plain filter, on lengths around its 64-byte
    /// blocks and 8-byte words.
    #[test]
    fn each_match_finds_exactly_the_matching_bytes() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for len in [0, 1, 7, 8, 63, 64, 65, 130, 4096 + 17] {
            // Bytes from a small alphabet, so each target matches often.
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    [0, 1, 126, 127, 200][(x % 5) as usize]
                })
                .collect();
            for target in [0, 1, 126, 127, 200, 5] {
                let mut found = Vec::new();
                each_match(&bytes, target, |k| found.push(k));
                let want: Vec<usize> = (0..len).filter(|&k| bytes[k] == target).collect();
                assert_eq!(found, want, "length {len}, target {target}");
            }
        }
    }

    /// Every slot of a slice decodes to squares whose first image is the
    /// slot itself, or (kings on a diagonal's axis) its twin; every legal
    /// board of the layout has a slot in its slice.
    #[test]
    fn every_slot_walks_back_to_itself() {
        for name in ["KQvK", "KRvKN", "KPvK", "KBNvK", "KPvKP", "KRRvK"] {
            let layout = Layout::new(Material::parse(name).unwrap().canonical());
            let geo = Geometry::new(&layout).unwrap();
            let mut twins = 0;
            for i in 0..geo.size {
                let s = geo.decode(i);
                let mut images = Vec::new();
                geo.images(&s, |x| images.push(x));
                if s.wk == s.bk || (!geo.pawns && images.is_empty()) {
                    continue;
                }
                // A placement whose like pieces are out of order is
                // stored in order.
                assert!(images.contains(&geo.canon(i)), "{name} slot {i}: {images:?}");
                assert!(images.iter().all(|&x| geo.canon(x) == x), "{name} slot {i}: {images:?}");
                twins += (images.len() == 2) as u64;
            }
            assert_eq!(twins > 0, !geo.pawns, "{name}");
        }
    }

    #[test]
    fn like_pieces_are_stored_once_in_rising_order() {
        for name in ["KRRvK", "KNNvKB", "KRRRvK", "KQvKRR", "KRRvKNN"] {
            let layout = Layout::new(Material::parse(name).unwrap().canonical());
            let geo = Geometry::new(&layout).unwrap();
            let (k, mut stored, mut runs) = (geo.fields.len(), 0u64, 0u64);
            // Every run of 64 of the first 40,000, and a spread of the rest.
            let step = (geo.size / 64 / 40_000).max(1);
            for run in (0..geo.size / 64).step_by(step).chain(0..(40_000).min(geo.size / 64)) {
                let first = run * 64;
                let out = geo.out_of_order(first);
                for x in 0..64 {
                    let i = first + x;
                    let s = geo.decode(i);
                    let rising = (1..k).all(|j| geo.fields[j] != geo.fields[j - 1] || s.sq[j - 1] < s.sq[j]);
                    assert_eq!(geo.is_canonical(&s, None), rising, "{name} slot {i}");
                    assert_eq!(out >> x & 1 == 0, rising, "{name} slot {i}");
                    let c = geo.canon(i);
                    let t = geo.decode(c);
                    // The same squares, each group in rising order.
                    let mut a = s.sq[..k].to_vec();
                    let mut b = t.sq[..k].to_vec();
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!((a, s.wk, s.bk), (b, t.wk, t.bk), "{name} slot {i}");
                    if rising {
                        assert_eq!(c, i, "{name} slot {i}");
                        stored += 1;
                    } else {
                        let distinct = (1..k).all(|j| geo.fields[j] != geo.fields[j - 1] || s.sq[j - 1] != s.sq[j]);
                        assert!(!distinct || geo.canon(c) == c && c != i, "{name} slot {i}");
                    }
                    for j in 0..k {
                        let moved = geo.canon_field(j, i);
                        let (start, len) = geo.span[j];
                        let mut u = geo.decode(moved);
                        let mut v = s;
                        u.sq[start as usize..(start + len) as usize].sort_unstable();
                        v.sq[start as usize..(start + len) as usize].sort_unstable();
                        assert_eq!(u, v, "{name} slot {i} field {j}");
                    }
                }
                runs += 1;
            }
            assert!(stored > 0 && stored < runs * 64, "{name}");
        }
    }

    /// The most solved slices waiting at once for a slice that pushes
    /// into them, solving `waves` in turn.
    fn most_waiting(children: &[Vec<usize>], waves: &[Vec<usize>]) -> usize {
        let mut parents = vec![0usize; children.len()];
        for kids in children {
            for &c in kids {
                parents[c] += 1;
            }
        }
        let (mut live, mut most) = (0usize, 0usize);
        for wave in waves {
            live += wave.iter().filter(|&&id| parents[id] > 0).count();
            most = most.max(live);
            for &id in wave {
                for &c in &children[id] {
                    parents[c] -= 1;
                    live -= (parents[c] == 0) as usize;
                }
            }
        }
        most
    }

    #[test]
    fn the_schedule_solves_each_slice_after_its_pushes_and_keeps_fewer_waiting_than_levels() {
        for name in ["KPvK", "KRPvKR", "KPPvK", "KPvKP", "KPPvKP", "KPPPvK"] {
            let layout = Layout::new(Material::parse(name).unwrap());
            let slices = slices_of(&layout);
            let by_pawns = slices
                .iter()
                .enumerate()
                .map(|(i, s)| ((s.white_pawns, s.black_pawns), i))
                .collect();
            let children: Vec<Vec<usize>> =
                slices.iter().map(|s| pushed_into(s, &by_pawns)).collect();
            // A push raises the advancement by one or two.
            for (id, kids) in children.iter().enumerate() {
                for &c in kids {
                    let rise = slices[c].advancement - slices[id].advancement;
                    assert!(rise == 1 || rise == 2, "{name}: {:?} -> {:?}", slices[id], slices[c]);
                }
            }
            for width in [1, 2, 3] {
                let waves = schedule(&children, width);
                let mut done = vec![false; slices.len()];
                for wave in &waves {
                    assert!(!wave.is_empty() && wave.len() <= width, "{name}");
                    for &id in wave {
                        assert!(children[id].iter().all(|&c| done[c]), "{name}: {id} before its pushes");
                    }
                    for &id in wave {
                        assert!(!done[id], "{name}: {id} twice");
                        done[id] = true;
                    }
                }
                assert!(done.iter().all(|&d| d), "{name}: a slice left out");
            }
            // Against solving level by level (the order before), one at a time.
            let levels: Vec<Vec<usize>> = (0..slices.len()).map(|id| vec![id]).collect();
            let (ours, by_level) = (
                most_waiting(&children, &schedule(&children, 1)),
                most_waiting(&children, &levels),
            );
            assert!(ours <= by_level, "{name}: {ours} waiting, {by_level} by levels");
            if name == "KRPvKR" || name == "KPvK" {
                assert!(ours <= 3, "{name}: one pawn goes down a file: {ours}");
            }
        }
    }

    #[test]
    fn slices_cover_every_placement_of_the_pawns_once_up_to_the_mirror() {
        for name in ["KPvK", "KPvKP", "KPPvK", "KPPvKP"] {
            let layout = Layout::new(Material::parse(name).unwrap().canonical());
            let slices = slices_of(&layout);
            let m = &layout.material;
            let (w, b) = (m.counts[0][Role::Pawn as usize] as u32, m.counts[1][Role::Pawn as usize] as u32);
            let mut raw = 0;
            for &white in &pawn_sets(w) {
                for &black in &pawn_sets(b) {
                    if white & black != 0 {
                        continue;
                    }
                    raw += 1;
                    let key = if canonical(white, black) {
                        (white, black)
                    } else {
                        (transform_bb(MIRROR, white), transform_bb(MIRROR, black))
                    };
                    assert!(slices.iter().any(|s| (s.white_pawns, s.black_pawns) == key));
                }
            }
            let symmetric = slices
                .iter()
                .filter(|s| transform_bb(MIRROR, s.white_pawns) == s.white_pawns && transform_bb(MIRROR, s.black_pawns) == s.black_pawns)
                .count();
            assert_eq!(2 * slices.len() - symmetric, raw, "{name}");
            assert!(slices.windows(2).all(|p| p[0].advancement >= p[1].advancement));
        }
    }
}
