//! A solved table's statistics, and the forward check of a table's every
//! value from its moves (`verify --all-entries`).

use super::board::{Board, Color, Move};
use super::index::Layout;
use super::probe::{after_move, Tablebase};
use super::value::{Value, Values, DRAW};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

const SIDES: [Color; 2] = [Color::White, Color::Black];

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
/// One side to move's counts in a table.
pub struct SideStats {
    /// Legal positions, every board counted (symmetric images included).
    pub legal: u64,
    /// Legal positions up to symmetry (stored slots).
    pub stored: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Longest mate for the side to move, in moves, and how many positions
    /// attain it.
    pub longest_win: u32,
    /// How many positions attain the longest win.
    pub longest_win_positions: u64,
    /// Longest loss for the side to move, in moves.
    pub longest_loss: u32,
    /// How many positions attain it.
    pub longest_loss_positions: u64,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
/// A table's statistics (in its metadata).
pub struct TableStats {
    /// White to move.
    pub white_to_move: SideStats,
    /// Black to move.
    pub black_to_move: SideStats,
    /// Mutual zugzwangs: whoever is to move loses; white to move draws but
    /// black to move loses; black to move draws but white to move loses.
    pub mutual_zugzwang_both_lose: u64,
    /// Positions white to move draws and black to move loses.
    pub mutual_zugzwang_white_draws: u64,
    /// Positions black to move draws and white to move loses.
    pub mutual_zugzwang_black_draws: u64,
    /// Plies the retrograde solve ran.
    pub plies: u32,
}

/// A solved table: its values and statistics.
pub struct Solved {
    /// White to move for every index, then black to move.
    pub values: Values,
    /// Its statistics.
    pub stats: TableStats,
}

/// Boards a stored slot stands for: the size of its orbit under the
/// table's symmetries (8 without pawns, the a↔h mirror as well with them),
/// which is the group's size over the number of symmetries that leave the
/// board as it is. A board is fixed by a diagonal mirror not only when every
/// piece is on the diagonal but also when the mirror swaps two like pieces
/// (KNNvK with the knights on b1 and a2), so the weight is counted, not
/// read off the occupancy.
pub(crate) fn images(layout: &Layout, b: &Board) -> u64 {
    let group: u8 = if layout.material.has_pawns() { 2 } else { 8 };
    let fixing = (0..group).filter(|&s| b.transformed(s) == *b).count() as u64;
    u64::from(group) / fixing
}

/// The statistics of a table's values (`plies` the solve ran), `legal`
/// holding a bit per slot (white to move, then black to move) for the
/// legal positions stored. A slot's weight (`images`) needs its board only
/// when a symmetry other than the identity fixes its two kings: otherwise
/// none fixes the board, and the weight is the group's size (8 without
/// pawns, 2 with them). So a board is decoded only for those king pairs
/// (the kings on the long diagonal), not for every slot.
#[cfg(any(test, feature = "internals"))]
pub fn statistics(layout: &Layout, values: &Values, legal: &[u64], plies: u32) -> TableStats {
    let n = layout.positions as usize;
    let is_legal = |slot: usize| legal[slot / 64] >> (slot % 64) & 1 == 1;
    let mut tally = Tally::default();
    tally.add(
        layout,
        0,
        n,
        |side, i| values.get(side * n + i),
        |side, i| is_legal(side * n + i),
    );
    tally.stats(plies)
}

/// [`statistics`] gathered a stretch of slots at a time (a table written
/// block by block); the sums and maxima do not depend on the order.
#[derive(Default)]
pub struct Tally {
    white: SideStats,
    black: SideStats,
    zugzwangs: [u64; 3],
}

impl Tally {
    /// Adds the slots of indices `first..first + len`: `value(side, k)` and
    /// `legal(side, k)` for index `first + k`.
    pub fn add(
        &mut self,
        layout: &Layout,
        first: usize,
        len: usize,
        value: impl Fn(usize, usize) -> Value + Sync,
        legal: impl Fn(usize, usize) -> bool + Sync,
    ) {
        let group: u64 = if layout.material.has_pawns() { 2 } else { 8 };
        const CHUNK: usize = 1 << 16;
        let (white, black, zugzwangs) = (0..len.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                // Plain loops over a chunk with local tallies: a fold over
                // single slots would move the tallies at every step.
                let (mut white, mut black, mut zz) =
                    (SideStats::default(), SideStats::default(), [0u64; 3]);
                for k in chunk * CHUNK..((chunk + 1) * CHUNK).min(len) {
                    let i = first + k;
                    let legal = [legal(0, k), legal(1, k)];
                    if legal == [false, false] {
                        continue;
                    }
                    let w = if layout.kings_have_a_second_canonical_image(i as u64) {
                        match layout.board(i as u64, Color::White) {
                            Some(board) => images(layout, &board),
                            None => unreachable!("a legal slot decodes"),
                        }
                    } else {
                        group
                    };
                    let mut v = [Value::Draw; 2];
                    for (side, s) in [&mut white, &mut black].into_iter().enumerate() {
                        if !legal[side] {
                            continue;
                        }
                        v[side] = value(side, k);
                        s.stored += 1;
                        s.legal += w;
                        match v[side] {
                            Value::Win(m) => {
                                s.wins += w;
                                note_longest(&mut s.longest_win, &mut s.longest_win_positions, m, w);
                            }
                            Value::Loss(m) => {
                                s.losses += w;
                                note_longest(&mut s.longest_loss, &mut s.longest_loss_positions, m, w);
                            }
                            _ => s.draws += w,
                        }
                    }
                    if legal == [true, true] {
                        match (v[0], v[1]) {
                            (Value::Loss(_), Value::Loss(_)) => zz[0] += w,
                            (Value::Draw, Value::Loss(_)) => zz[1] += w,
                            (Value::Loss(_), Value::Draw) => zz[2] += w,
                            _ => {}
                        }
                    }
                }
                (white, black, zz)
            })
            .reduce(
                || (SideStats::default(), SideStats::default(), [0u64; 3]),
                |a, b| {
                    (
                        merge(a.0, b.0),
                        merge(a.1, b.1),
                        [a.2[0] + b.2[0], a.2[1] + b.2[1], a.2[2] + b.2[2]],
                    )
                },
            );
        self.white = merge(std::mem::take(&mut self.white), white);
        self.black = merge(std::mem::take(&mut self.black), black);
        for (t, z) in self.zugzwangs.iter_mut().zip(zugzwangs) {
            *t += z;
        }
    }

    /// Adds slots given by their one-byte codes ([`Value::decode`]),
    /// `white[k]` and `black[k]` the two sides of one slot, each legal
    /// position standing for `weight` boards; code `illegal` marks a side
    /// that holds no position. The same sums as [`Tally::add`] for such
    /// slots, counted from histograms of the codes rather than value by
    /// value: a pawnless table's statistics took 2.6 s of KQRvKR's 39 s
    /// that way (a weight is the same for every slot of a king pair whose
    /// kings no symmetry fixes, which is all but a few pairs).
    pub fn add_codes(&mut self, weight: u64, white: &[u8], black: &[u8], illegal: u8) {
        assert_eq!(white.len(), black.len(), "one code a side for each slot");
        const CHUNK: usize = 1 << 16;
        type Counts = (Box<[[u64; 256]; 2]>, [u64; 3]);
        let fresh = || -> Counts { (Box::new([[0; 256]; 2]), [0; 3]) };
        let (hist, zz) = white
            .par_chunks(CHUNK)
            .zip(black.par_chunks(CHUNK))
            .map(|(w, b)| {
                let (mut hist, mut zz) = fresh();
                for (side, codes) in [w, b].into_iter().enumerate() {
                    // Four interleaved histograms: consecutive equal codes
                    // would otherwise chain each increment to the last.
                    let mut part = [[0u32; 256]; 4];
                    let quads = codes.chunks_exact(4);
                    for &c in quads.remainder() {
                        part[0][c as usize] += 1;
                    }
                    for q in quads {
                        for (p, &c) in part.iter_mut().zip(q) {
                            p[c as usize] += 1;
                        }
                    }
                    for p in &part {
                        for (h, &n) in hist[side].iter_mut().zip(p) {
                            *h += u64::from(n);
                        }
                    }
                }
                // Loss codes are 128 and up, a draw is 0; `illegal` is
                // neither, so both sides hold a position where it counts.
                for (&x, &y) in w.iter().zip(b) {
                    let (xl, yl) = (u64::from(x >> 7), u64::from(y >> 7));
                    let (xd, yd) = (u64::from(x == DRAW), u64::from(y == DRAW));
                    zz[0] += xl & yl;
                    zz[1] += xd & yl;
                    zz[2] += xl & yd;
                }
                (hist, zz)
            })
            .reduce(fresh, |(mut h, mut z), (h2, z2)| {
                for (a, b) in h.iter_mut().flatten().zip(h2.iter().flatten()) {
                    *a += b;
                }
                for (a, b) in z.iter_mut().zip(z2) {
                    *a += b;
                }
                (h, z)
            });
        debug_assert!(illegal != DRAW && illegal < 128, "the illegal code is a win code");
        for (side, s) in [&mut self.white, &mut self.black].into_iter().enumerate() {
            let mut add = SideStats::default();
            for (code, &n) in hist[side].iter().enumerate() {
                if code == illegal as usize || n == 0 {
                    continue;
                }
                add.stored += n;
                add.legal += n * weight;
                match Value::decode(code as u8) {
                    Value::Win(m) => {
                        add.wins += n * weight;
                        note_longest(&mut add.longest_win, &mut add.longest_win_positions, m, n * weight);
                    }
                    Value::Loss(m) => {
                        add.losses += n * weight;
                        note_longest(&mut add.longest_loss, &mut add.longest_loss_positions, m, n * weight);
                    }
                    Value::Draw => add.draws += n * weight,
                }
            }
            *s = merge(std::mem::take(s), add);
        }
        for (t, z) in self.zugzwangs.iter_mut().zip(zz) {
            *t += z * weight;
        }
    }

    /// The statistics of every slot added, for a solve of `plies` plies.
    pub fn stats(self, plies: u32) -> TableStats {
        TableStats {
            white_to_move: self.white,
            black_to_move: self.black,
            mutual_zugzwang_both_lose: self.zugzwangs[0],
            mutual_zugzwang_white_draws: self.zugzwangs[1],
            mutual_zugzwang_black_draws: self.zugzwangs[2],
            plies,
        }
    }
}

/// Keeps the longest distance seen and how many positions attain it.
fn note_longest(longest: &mut u32, positions: &mut u64, moves: u32, weight: u64) {
    if moves > *longest {
        *longest = moves;
        *positions = 0;
    }
    if moves == *longest {
        *positions += weight;
    }
}

fn merge(mut a: SideStats, b: SideStats) -> SideStats {
    a.legal += b.legal;
    a.stored += b.stored;
    a.wins += b.wins;
    a.draws += b.draws;
    a.losses += b.losses;
    note_longest(
        &mut a.longest_win,
        &mut a.longest_win_positions,
        b.longest_win,
        b.longest_win_positions,
    );
    note_longest(
        &mut a.longest_loss,
        &mut a.longest_loss_positions,
        b.longest_loss,
        b.longest_loss_positions,
    );
    a
}

/// A stored value its moves one ply down do not give (see [`check`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// A smaller table could not be read.
    #[error("{0}")]
    Probe(String),
    /// The value stored at `slot` (both sides' halves, white to move first).
    #[error("{material} slot {slot}: stored {stored:?}, its moves give {expected:?}")]
    Mismatch {
        /// The table.
        material: String,
        /// The slot.
        slot: usize,
        /// The value stored.
        stored: Value,
        /// The value its moves give.
        expected: Value,
    },
}

/// Re-derives every stored value from its moves one ply down (the table's
/// own values and the smaller tables'): the first disagreement, if any.
pub fn check(layout: &Layout, values: &Values, probe: &Tablebase) -> Result<(), CheckError> {
    let n = layout.positions as usize;
    // Chunks of slots in order, each walked with a cursor; the first
    // chunk with a disagreement gives the first one.
    const CHUNK: usize = 1 << 12;
    let bad = (0..(2 * n).div_ceil(CHUNK))
        .into_par_iter()
        .map_init(Vec::new, |moves, chunk| {
            let (first, end) = (chunk * CHUNK, (chunk * CHUNK + CHUNK).min(2 * n));
            legal_boards(layout, first..end).find_map(|(slot, side, board)| {
                check_slot(layout, values, probe, moves, slot, side, board)
            })
        })
        .find_map_first(|bad| bad);
    match bad {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Slots `slots` (both sides' halves, white to move first) in order, each
/// with its side and its legal board if it holds one, decoded by a cursor
/// (`Layout::cursor`) that moves on to the black half where it starts.
pub(super) fn legal_boards(
    layout: &Layout,
    slots: std::ops::Range<usize>,
) -> impl Iterator<Item = (usize, usize, Option<Board>)> + '_ {
    let n = layout.positions as usize;
    let mut side = slots.start / n;
    let mut cursor = layout.cursor((slots.start % n) as u64);
    slots.map(move |slot| {
        if slot / n != side {
            side = slot / n;
            cursor = layout.cursor(0);
        }
        let board = cursor.legal_board(SIDES[side]);
        cursor.advance();
        (slot, side, board)
    })
}

/// The disagreement at one slot, if any (see [`check`]).
fn check_slot(
    layout: &Layout,
    values: &Values,
    probe: &Tablebase,
    moves: &mut Vec<Move>,
    slot: usize,
    side: usize,
    board: Option<Board>,
) -> Option<CheckError> {
    let n = layout.positions as usize;
    let stored = values.get(slot);
    let expect = match board {
        None => Value::Draw,
        Some(b) => {
            moves.clear();
            b.legal_moves(moves);
            if moves.is_empty() {
                if b.in_check(b.turn) {
                    Value::Loss(0)
                } else {
                    Value::Draw
                }
            } else {
                let mut best: Option<Value> = None;
                for m in moves.iter() {
                    let c = b.play(m);
                    let v = if m.converts() {
                        match probe.value(&c) {
                            Ok(v) => v,
                            Err(e) => return Some(CheckError::Probe(e.to_string())),
                        }
                    } else {
                        let stored = values.get((1 - side) * n + layout.index(&c) as usize);
                        after_move(&c, m, stored, &mut |x| {
                            probe.value(x).unwrap_or(Value::Draw)
                        })
                    }
                    .before_move();
                    if best.is_none_or(|b| v.preference() > b.preference()) {
                        best = Some(v);
                    }
                }
                best.unwrap_or(Value::Draw)
            }
        }
    };
    (stored != expect).then(|| CheckError::Mismatch {
        material: layout.material.to_string(),
        slot,
        stored,
        expected: expect,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::material::Material;

    /// The histogram tally gives the slot-by-slot tally's sums for slots
    /// of one weight, on codes of every kind (wins, losses, mates, draws,
    /// the illegal code) spread over both sides, and tells a change apart.
    #[test]
    fn counting_codes_by_histogram_equals_counting_slot_by_slot() {
        let layout = Layout::new(Material::parse("KRvK").unwrap().canonical());
        let n = layout.positions as usize;
        const ILLEGAL: u8 = 127;
        // Pairs whose kings a symmetry fixes weigh less than 8: left out.
        let plain: Vec<usize> = (0..n).filter(|&i| !layout.kings_have_a_second_canonical_image(i as u64)).collect();
        assert!(plain.len() > n / 2);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let codes = [0u8, 1, 2, 5, 30, 126, ILLEGAL, 128, 129, 140, 200, 255];
        let white: Vec<u8> = plain.iter().map(|_| codes[next() as usize % codes.len()]).collect();
        let mut black: Vec<u8> = plain.iter().map(|_| codes[next() as usize % codes.len()]).collect();
        let by_slot = |white: &[u8], black: &[u8]| {
            let mut t = Tally::default();
            for (k, &i) in plain.iter().enumerate() {
                t.add(
                    &layout,
                    i,
                    1,
                    |side, _| Value::decode([white, black][side][k]),
                    |side, _| [white, black][side][k] != ILLEGAL,
                );
            }
            t.stats(9)
        };
        let by_codes = |white: &[u8], black: &[u8]| {
            let mut t = Tally::default();
            t.add_codes(8, white, black, ILLEGAL);
            t.stats(9)
        };
        let want = by_slot(&white, &black);
        assert!(want.mutual_zugzwang_both_lose > 0 && want.mutual_zugzwang_white_draws > 0);
        assert_eq!(want.white_to_move.longest_loss, 127);
        assert_eq!(by_codes(&white, &black), want);
        // One mate turned into a draw moves the counts.
        let k = black.iter().position(|&c| c == 128).unwrap();
        black[k] = 0;
        let changed = by_codes(&white, &black);
        assert_ne!(changed, want);
        assert_eq!(changed, by_slot(&white, &black));
    }
}
