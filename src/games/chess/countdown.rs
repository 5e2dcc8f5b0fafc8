//! The count-down solver: the engine that built the chess tables before
//! the sweeps (`sweep`), kept as their second opinion: the tests compare
//! the two byte for byte on every 3- and 4-piece table.
//!
//! Retrograde analysis of one material signature, both sides to move, to
//! exact distance to mate.
//!
//! One byte per position and side (see `value`). The first pass, in blocks
//! of slots, marks broken slots and mates, probes the smaller tables for
//! the best capture or promotion (a tentative win, or the final value when
//! every move converts), and counts each position's quiet moves other than
//! double pawn pushes. Then ply by ply: a position lost in n plies makes
//! each predecessor a win in n + 1 (unless it already wins sooner); a
//! position won in n plies takes one off the count of each predecessor, and
//! a predecessor whose count runs out is lost in n + 1 (`count_down`).
//! Positions fixed by a symmetry, and positions that can also capture,
//! promote or push a pawn two squares, decide that loss with a forward
//! check instead (`try_loss`: every move now leads to a win for the
//! opponent in at most n plies), because their predecessors are not
//! one-to-one with their counted moves (a double push may give the
//! opponent an en passant capture that the stored position lacks; its
//! unmove calls the forward check directly). En passant options whose distance is not yet exact wait in a
//! recheck list for their ply. All wins and losses of fewer plies are final
//! when ply n is processed, which makes the distances exact. Writes of one
//! phase go to one side's array and reads to the other, and every write is
//! idempotent (counts only ever fall, a value is written once), so the
//! result is the same bytes for any thread count.

use super::bitboard::transform;
use super::board::{Board, Color, Move, Role};
use super::cells::Cells;
use super::index::Layout;
use super::probe::{en_passant_option, Tablebase};
use super::value::{Value, Values, DRAW};
use anyhow::{bail, Result};
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;
use super::solve::{legal_boards, statistics, Solved};

const SIDES: [Color; 2] = [Color::White, Color::Black];
/// A count meaning "check for a loss at every decrement" (a position fixed
/// by a symmetry; see `Work::count_down`).
const EVERY_TIME: u8 = u8::MAX;
/// Flag on a count: the position also has captures, promotions or double
/// pushes, so its loss needs the forward check when the count runs out.
const CONVERTS: u8 = 0x80;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Countdown {
    /// Some quiet move may still not lose.
    Open,
    /// Every move loses, the last just now: lost one ply later.
    Lost,
    /// Decide with the forward check (`try_loss`).
    Check,
}

struct Work<'a> {
    layout: &'a Layout,
    probe: &'a Tablebase,
    /// White to move for every index, then black to move: one allocation,
    /// so that the finished values are taken over in place (no copy at the
    /// peak of memory use).
    cells: Cells,
    error: Mutex<Option<String>>,
    /// Largest ply of any value written so far (losses and wins can be
    /// decided ahead of their ply).
    horizon: AtomicU32,
    /// Per position and side, the quiet moves (double pushes left out) not
    /// yet seen to lead to a win for the opponent, and a flag for positions
    /// that also have captures, promotions or double pushes. When the
    /// count runs out the position is lost, one ply after its slowest
    /// quiet move; see `count_down`.
    counts: Vec<AtomicU8>,
    /// One bit per position and side (cells order): legal and stored
    /// here, found by the first pass, so the statistics need not decode
    /// every board again to tell.
    legal: Vec<AtomicU64>,
    /// Positions to check again at a given ply: (ply, side, index). Only
    /// en passant options whose winning distance is not yet exact go here.
    recheck: Mutex<Vec<(u32, usize, u64)>>,
}

/// What a move does for the opponent of the mover, as far as known at the
/// current ply.
enum Reply {
    /// The opponent wins in exactly this many plies.
    WinsIn(u32),
    /// The opponent wins, in at most this many plies (more than the
    /// current ply), exactly known later.
    WinsWithin(u32),
    /// Not (yet) known to be a win for the opponent.
    Open,
}

impl<'a> Work<'a> {
    fn new(layout: &'a Layout, probe: &'a Tablebase) -> Work<'a> {
        let n = layout.positions as usize;
        Work {
            layout,
            probe,
            cells: Cells::new(2 * n, DRAW),
            counts: (0..2 * n).map(|_| AtomicU8::new(0)).collect(),
            legal: (0..(2 * n).div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
            error: Mutex::new(None),
            horizon: AtomicU32::new(0),
            recheck: Mutex::new(Vec::new()),
        }
    }

    /// The cell of a position and side to move.
    fn slot(&self, side: usize, index: u64) -> usize {
        side * self.layout.positions as usize + index as usize
    }

    fn fail(&self, msg: String) {
        let mut e = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if e.is_none() {
            *e = Some(msg);
        }
    }

    /// A read first: the horizon is shared by every thread and seldom
    /// grows, so an unconditional atomic update would bounce its cache line
    /// between cores on every write of a value.
    fn extend_horizon(&self, plies: u32) {
        if plies > self.horizon.load(Relaxed) {
            self.horizon.fetch_max(plies, Relaxed);
        }
    }

    fn encode(&self, v: Value, b: &Board) -> u8 {
        self.encode_with(v, || b.fen())
    }

    /// As `encode`, naming the position (`fen`) only if the value does not
    /// fit: callers on the hot path need not build a board for that.
    fn encode_with(&self, v: Value, fen: impl FnOnce() -> String) -> u8 {
        if let Some(p) = v.plies() {
            self.extend_horizon(p);
        }
        v.encode().unwrap_or_else(|| {
            self.fail(format!(
                "{}: distance to mate beyond the one-byte range in {}",
                self.layout.material,
                fen()
            ));
            DRAW
        })
    }

    fn probe(&self, child: &Board) -> Value {
        self.probe.value(child).unwrap_or_else(|e| {
            self.fail(format!("{}: {e}", self.layout.material));
            Value::Draw
        })
    }

    fn stored(&self, b: &Board) -> Value {
        Value::decode(
            self.cells
                .load(self.slot(b.turn as usize, self.layout.index(b))),
        )
    }

    fn en_passant(&self, child: &Board, m: &Move) -> Option<(Value, bool)> {
        if !m.is_double_push() {
            return None;
        }
        en_passant_option(child, m.to, &mut |c| self.probe(c))
    }

    /// Initial byte: mated, stalemate, best conversion (or the exact value
    /// when every move converts), or `None` for an illegal or duplicate
    /// slot (its byte stays 0), and the position's entry of `counts`.
    fn initial(&self, b: Board, turn: Color) -> (u8, u8) {
        let mut best_win: Option<u32> = None;
        let mut slowest_loss = 0;
        let mut draw = false;
        let mut converts = false;
        let pins = b.pins();
        let _ = b.each_conversion(&mut |m| {
            if !b.is_legal_with(&m, &pins) {
                return ControlFlow::Continue(());
            }
            converts = true;
            match self.probe(&b.play(&m)).before_move() {
                Value::Win(w) => best_win = Some(best_win.map_or(w, |x| x.min(w))),
                Value::Loss(l) => slowest_loss = slowest_loss.max(l),
                Value::Draw => draw = true,
            }
            ControlFlow::Continue(())
        });
        if let Some(w) = best_win {
            // Unlike `offer_win`, this encodes before a quiet move could
            // bring a faster win, so a conversion win of 128 would be
            // refused even if the position wins sooner. It cannot arise
            // within MAX_PIECES = 5: it needs a child lost in 127, and of
            // the tables up to 5 pieces only KPPvKP holds one, which no
            // conversion reaches (a capture into it starts from 6 pieces,
            // and a promotion leaves a piece KPPvKP lacks). Raising
            // MAX_PIECES needs the deferral `offer_win` has.
            // Never a loss, so its count is never needed.
            return (self.encode(Value::Win(w), &b), 0);
        }
        let (quiet_moves, double_pushes) = b.quiet_moves_and_double_pushes(&pins);
        let quiet = quiet_moves > 0;
        if !quiet && !converts {
            let v = if b.in_check(turn) {
                self.encode(Value::Loss(0), &b)
            } else {
                DRAW
            };
            return (v, 0);
        }
        let v = if !quiet && !draw {
            Value::Loss(slowest_loss)
        } else {
            Value::Draw
        };
        let count = if self.layout.symmetry_fixing(&b).is_some() {
            EVERY_TIME
        } else if quiet_moves >= (CONVERTS as u32) {
            self.fail(format!(
                "{}: {quiet_moves} quiet moves overflow the move counter in {}",
                self.layout.material,
                b.fen()
            ));
            EVERY_TIME
        } else if converts || double_pushes > 0 {
            // Double pushes are not counted: the position after one may
            // hold an en passant right that the stored one lacks, so they
            // are judged by the forward check (`predecessor`).
            (quiet_moves - double_pushes) as u8 | CONVERTS
        } else {
            quiet_moves as u8
        };
        (self.encode(v, &b), count)
    }

    /// Counts down `q` (side `side`, slot `index`), one of whose quiet moves
    /// was just seen to lead to a win for the opponent.
    ///
    /// Why the counts are exact: a position is processed once, at the ply
    /// of its final value. Processing the canonical board `b` meets each
    /// quiet move of `q` that leads to an image of `b` once per symmetry
    /// fixing `b`, as an unmove from `b` to an image of `q`, provided that
    /// only the identity fixes `q`. `process` skips the mirror image of each
    /// unmove of a board that a symmetry fixes, so each move is met once.
    /// Positions fixed by a symmetry (`EVERY_TIME`) are checked in full at
    /// every decrement instead.
    fn count_down(&self, side: usize, index: u64) -> Countdown {
        let cell = &self.counts[self.slot(side, index)];
        match cell.fetch_update(Relaxed, Relaxed, |c| {
            (c != EVERY_TIME && c & !CONVERTS != 0).then(|| c - 1)
        }) {
            Ok(before) if before & !CONVERTS > 1 => Countdown::Open,
            Ok(before) if before & CONVERTS == 0 => Countdown::Lost,
            _ => Countdown::Check,
        }
    }

    /// What the move `m` of `q` leads to, at ply `ply`.
    fn reply(&self, q: &Board, m: &Move, ply: u32) -> Reply {
        let child = q.play(m);
        if m.converts() {
            return match self.probe(&child) {
                Value::Win(w) => Reply::WinsIn(2 * w - 1),
                _ => Reply::Open,
            };
        }
        let stored = match self.stored(&child) {
            Value::Win(w) if 2 * w - 1 <= ply => Some(2 * w - 1),
            _ => None,
        };
        match self.en_passant(&child, m) {
            None => stored.map_or(Reply::Open, Reply::WinsIn),
            Some((Value::Win(e), others)) => {
                let e = 2 * e - 1;
                match stored {
                    Some(s) => Reply::WinsIn(s.min(e)),
                    None if e <= ply || !others => Reply::WinsIn(e),
                    None => Reply::WinsWithin(e),
                }
            }
            Some((_, false)) => Reply::Open,
            Some((_, true)) => stored.map_or(Reply::Open, Reply::WinsIn),
        }
    }

    /// Decides `q` (side to move `side`, undecided) lost if every move now
    /// leads to a known win for the opponent: the loss is one ply longer
    /// than the slowest of them (possibly beyond the current ply).
    fn try_loss(&self, q: &Board, side: usize, index: u64, ply: u32) {
        let (mut slowest, mut pending) = (0, 0);
        let all_lose = q.all_legal_moves(|m| match self.reply(q, m, ply) {
            Reply::WinsIn(p) => {
                slowest = slowest.max(p);
                true
            }
            Reply::WinsWithin(p) => {
                pending = pending.max(p);
                true
            }
            Reply::Open => false,
        });
        if !all_lose {
            return;
        }
        if pending > slowest {
            self.recheck
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push((pending, side, index));
            self.extend_horizon(pending);
            return;
        }
        let byte = self.encode(Value::Loss(slowest.div_ceil(2)), q);
        self.cells.store(self.slot(side, index), byte);
    }

    /// Offers `q` (to move, side `side`) a win in `moves_to_mate` unless it
    /// already has a faster one.
    ///
    /// The offer is encoded only if it would be taken: a position lost in
    /// the byte's longest loss (KPPvKP has them, 254 plies) offers each of
    /// its predecessors a win one move longer than the byte holds, and
    /// those predecessors have all won sooner; that is no overflow. The
    /// horizon is extended either way, as it always was, so that the plies
    /// run (a table statistic) do not depend on which offers were taken.
    fn offer_win(&self, side: usize, index: u64, moves_to_mate: u32) {
        self.extend_horizon(2 * moves_to_mate - 1);
        let slot = self.slot(side, index);
        let improves = |cur: u8| match Value::decode(cur) {
            Value::Draw => true,
            Value::Win(w) => w > moves_to_mate,
            Value::Loss(_) => false,
        };
        if !improves(self.cells.load(slot)) {
            return;
        }
        let win = self.encode_with(Value::Win(moves_to_mate), || {
            self.layout
                .board(index, SIDES[side])
                .map_or_else(|| format!("slot {index}"), |q| q.fen())
        });
        self.cells
            .update(slot, |cur| improves(cur).then_some(win));
    }

    /// Processes every position of `side` decided at `ply`; returns how many.
    fn process(&self, side: usize, ply: u32) -> u64 {
        let target = if ply.is_multiple_of(2) {
            Value::Loss(ply / 2)
        } else {
            Value::Win(ply.div_ceil(2))
        };
        let Some(target) = target.encode() else {
            return 0;
        };
        let found = AtomicU64::new(0);
        let other = 1 - side;
        const CHUNK: usize = 1 << 12;
        // Where each unmove leads is read from memory that is scattered over
        // the whole table: the unmoves of a position are ranked first and
        // their bytes loaded together, so that the cache misses overlap,
        // then acted on.
        let n = self.layout.positions as usize;
        let touch = |qi: u64| {
            let slot = self.slot(other, qi);
            if ply.is_multiple_of(2) {
                self.cells.load(slot)
            } else {
                self.counts[slot].load(Relaxed)
            }
        };
        let chunks = n.div_ceil(CHUNK);
        (0..chunks)
            .into_par_iter()
            .for_each_init(Vec::new, |unmoves, chunk| {
                // Counted per chunk: a shared counter bumped per position would
                // bounce between cores.
                let mut here = 0;
                let first = side * n + chunk * CHUNK;
                let last = (first + CHUNK).min((side + 1) * n);
                self.cells.scan(first..last, target, |slot| {
                    here += 1;
                    let i = (slot - side * n) as u64;
                    let Some(b) = self.layout.board(i, SIDES[side]) else {
                        return;
                    };
                    // A board fixed by a symmetry meets each predecessor move
                    // twice, as an unmove and as its mirror image: one of the
                    // two is enough (and needed by the counts).
                    let fixing = self.layout.symmetry_fixing(&b);
                    unmoves.clear();
                    b.each_unmove(|role, from, to| {
                        if let Some(s) = fixing {
                            if (from, to) > (transform(s, from), transform(s, to)) {
                                return;
                            }
                        }
                        let qi = self.layout.index_after_unmove(&b, i, role, from, to);
                        unmoves.push((role, from, to, qi));
                    });
                    // Independent loads in a tight loop, so that many misses
                    // are in flight at once.
                    std::hint::black_box(unmoves.iter().fold(0, |a, u| a ^ touch(u.3)));
                    for &(role, from, to, qi) in unmoves.iter() {
                        self.predecessor(&b, (role, from, to), qi, other, ply);
                    }
                });
                found.fetch_add(here, Relaxed);
            });
        found.into_inner()
    }

    /// The unmove `(role, from, to)` of `b`, just decided at `ply`, leads to
    /// slot `qi` of `side`.
    fn predecessor(&self, b: &Board, unmove: (Role, u8, u8), qi: u64, side: usize, ply: u32) {
        let (role, from, to) = unmove;
        if ply.is_multiple_of(2) {
            // b is lost: q wins by moving there, unless the move opens an
            // en passant capture that saves more.
            let mut lost_in = ply / 2;
            if role == Role::Pawn && from.abs_diff(to) == 16 {
                let m = Move {
                    role,
                    from,
                    to,
                    capture: None,
                    promotion: None,
                    en_passant: false,
                };
                match self.en_passant(b, &m) {
                    None => {}
                    Some((Value::Loss(e), others)) => {
                        lost_in = if others { lost_in.max(e) } else { e }
                    }
                    Some(_) => return,
                }
            }
            self.offer_win(side, qi, lost_in + 1);
        } else {
            // A double push is not in the count (see `initial`): the forward
            // check judges it, with its en passant right.
            let countdown = if role == Role::Pawn && from.abs_diff(to) == 16 {
                Countdown::Check
            } else {
                self.count_down(side, qi)
            };
            let slot = self.slot(side, qi);
            if countdown == Countdown::Open || self.cells.load(slot) != DRAW {
                return;
            }
            let q = b.unmoved(role, from, to);
            if countdown == Countdown::Lost {
                // Every quiet move now leads to a win, the slowest in `ply`
                // plies, and there is no other move.
                self.cells
                    .store(slot, self.encode(Value::Loss(ply.div_ceil(2)), &q));
            } else {
                self.try_loss(&q, side, qi, ply);
            }
        }
    }

    fn run_rechecks(&self, ply: u32) {
        let due: Vec<(u32, usize, u64)> = {
            let mut r = self.recheck.lock().unwrap_or_else(|p| p.into_inner());
            let (due, later) = r.drain(..).partition(|&(p, _, _)| p == ply);
            *r = later;
            due
        };
        for (_, side, index) in due {
            if self.cells.load(self.slot(side, index)) != DRAW {
                continue;
            }
            if let Some(q) = self.layout.board(index, SIDES[side]) {
                self.try_loss(&q, side, index, ply);
            }
        }
    }
}

/// Slots per block of the first pass.
pub const INIT_BLOCK: usize = 1 << 24;

/// Progress of a solve, for the build's progress lines.
pub enum Step {
    /// A block of the first pass (values from conversions, mates) is done.
    FirstPassBlock {
        /// Blocks done.
        done: u64,
        /// Blocks in all.
        of: u64,
    },
    /// A retrograde ply is done.
    Ply,
    /// The plies are done; the statistics are next.
    Plies,
}

/// Solves `layout` given the tables of every capture and promotion.
/// `on_step` reports progress.
pub fn solve(layout: &Layout, probe: &Tablebase, on_step: &dyn Fn(Step)) -> Result<Solved> {
    let n = layout.positions as usize;
    // Counts cost a byte per position and side: 0.24 GB for a pawnless
    // 5-piece table, 0.71 GB for one with a pawn, whose cells are as much
    // again. With pawns, double pushes stay out of the counts.
    let work = Work::new(layout, probe);
    // In blocks, letting go of the probed pages after each: the first pass
    // probes every capture and promotion, which would otherwise keep most of
    // the smaller tables resident beside the cells.
    let blocks = (2 * n).div_ceil(INIT_BLOCK) as u64;
    for (done, block) in (0..2 * n).step_by(INIT_BLOCK).enumerate() {
        // A task takes 64 slots (one word of legal bits, eight of cells)
        // and walks them with a cursor (`Layout::cursor`).
        let legal_words = block / 64..(block + INIT_BLOCK).min(2 * n).div_ceil(64);
        legal_words.into_par_iter().with_min_len(1 << 6).for_each(|lw| {
            let (first, end) = (lw * 64, (lw * 64 + 64).min(2 * n));
            let mut bytes = [DRAW; 64];
            let mut legal = 0u64;
            for (slot, side, board) in legal_boards(layout, first..end) {
                let Some(b) = board else {
                    continue;
                };
                let (value, moves) = work.initial(b, SIDES[side]);
                legal |= 1 << (slot - first);
                bytes[slot - first] = value;
                work.counts[slot].store(moves, Relaxed);
            }
            for (word, w) in bytes.chunks_exact(8).zip(first / 8..end.div_ceil(8)) {
                work.cells.store_word(w, word.try_into().expect("8 bytes"));
            }
            work.legal[lw].store(legal, Relaxed);
        });
        probe.release_resident_pages();
        on_step(Step::FirstPassBlock {
            done: done as u64 + 1,
            of: blocks,
        });
    }
    let mut ply = 0;
    loop {
        probe.release_resident_pages();
        let found = work.process(0, ply) + work.process(1, ply);
        work.run_rechecks(ply);
        if let Some(e) = work.error.lock().unwrap_or_else(|p| p.into_inner()).take() {
            bail!(e);
        }
        on_step(Step::Ply);
        if found == 0 && ply >= work.horizon.load(Relaxed) {
            break;
        }
        ply += 1;
    }
    on_step(Step::Plies);
    drop(work.counts);
    let legal: Vec<u64> = work.legal.into_iter().map(AtomicU64::into_inner).collect();
    let values = Values::Narrow(work.cells.into_bytes());
    let stats = statistics(layout, &values, &legal, ply);
    Ok(Solved { values, stats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::material::Material;

    fn error(work: &Work) -> Option<String> {
        work.error.lock().unwrap().clone()
    }

    /// A win one move beyond the byte, offered to a position that already
    /// wins sooner, is no error (KPPvKP was refused for that); offered to
    /// an undecided position it is, and nothing is stored.
    #[test]
    fn an_offer_beyond_the_byte_fails_only_if_it_would_be_taken() {
        let layout = Layout::new(Material::parse("KQvK").unwrap().canonical());
        let probe = Tablebase::default();
        let work = Work::new(&layout, &probe);
        let beyond = crate::games::chess::value::MAX_WIN + 1;
        let sooner = Value::Win(14).encode().unwrap();
        work.cells.store(work.slot(0, 5), sooner);
        work.offer_win(0, 5, beyond);
        assert_eq!(error(&work), None);
        assert_eq!(work.cells.load(work.slot(0, 5)), sooner);
        assert_eq!(work.horizon.load(Relaxed), 2 * beyond - 1);
        let lost = Value::Loss(3).encode().unwrap();
        work.cells.store(work.slot(1, 5), lost);
        work.offer_win(1, 5, beyond);
        assert_eq!(error(&work), None);
        assert_eq!(work.cells.load(work.slot(1, 5)), lost);
        work.offer_win(0, 6, beyond);
        let e = error(&work).expect("an undecided position cannot take the win");
        assert!(e.contains("beyond the one-byte range"), "{e}");
        assert_eq!(work.cells.load(work.slot(0, 6)), DRAW);
        work.offer_win(0, 7, 3);
        assert_eq!(work.cells.load(work.slot(0, 7)), Value::Win(3).encode().unwrap());
    }
}
