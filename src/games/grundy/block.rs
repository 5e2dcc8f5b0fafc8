//! The sparse-space method over blocks of `BLOCK` consecutive heaps.
//!
//! For a split part a ≥ 2·BLOCK, the other parts of heaps n0 .. n0+BLOCK−1
//! are n0−a .. n0−a+BLOCK−1: contiguous, and all below n0 − BLOCK, so known
//! before the previous block is solved. One pass per part marks its option
//! in every heap of the block from a sequential run of values, with no
//! dependent random loads, and that marking (`plan_block`, `mark_piece`)
//! can run on a helper thread while the previous block is being solved.
//! It covers the rare parts in [2·BLOCK, n0 − BLOCK) (step 1), and for step 2
//! the first diverse parts and the parts that recently reached a rare value
//! a heap lacked (`targets`). Then `solve_block` takes each heap in turn,
//! adds the splits with the remaining rare parts (below 2·BLOCK, or found
//! since the plan), and concludes exactly as the per-heap method does,
//! searching further only for the rare values still missing.
//!
//! Every mark is a true option, and every split with a rare part is marked
//! before `conclude`, so the values are the exact mex (see `sparse`). The
//! plan depends only on the values, never on the thread count.

use super::sparse::{RarePart, SparseState};
use super::values::{Cursor, Storage, View};
use crate::pipeline::checkpoint::{StateReader, StateWriter};
use anyhow::{ensure, Result};
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};

/// Heaps solved together.
pub const BLOCK: usize = 64;
/// Parts below this are left to the per-heap pass: their runs reach into
/// the block before.
const MIN_PART: u64 = 2 * BLOCK as u64;
/// Rows of the block marked as one piece of work.
const PIECE_ROWS: usize = 16;
/// Pieces of work per block.
pub const PIECES: usize = BLOCK / PIECE_ROWS;
/// Diverse-order parts marked for every heap of a block, besides the
/// remembered witnesses. Near 2^22 the witnesses do most of the work; a few
/// diverse parts catch the common rare values cheaply.
const DIVERSE_PARTS: usize = 64;

/// The marking of one block, and what its solving pass needs to know of it.
/// Kept small: the helper reads it from the other core, and every cache
/// line the planner rewrites must first be taken back from there. Two are
/// reused in turn.
#[derive(Default)]
pub struct MarkJob {
    n0: u64,
    stride: usize,
    /// The values as they stood when the job was planned.
    at: Option<Cursor>,
    /// The rare heaps as planned (shared with the solver, which copies the
    /// list if it finds one more); those with index in
    /// `rare_from..rare_planned` are marked.
    rare: Arc<Vec<RarePart>>,
    rare_from: usize,
    rare_planned: usize,
    /// Step-2 parts: the first diverse parts and the remembered witnesses.
    step2: Vec<u32>,
    /// Where the diverse parts stopped in the scan order.
    order_end: usize,
}

impl MarkJob {
    /// The first heap of the block.
    pub fn n0(&self) -> u64 {
        self.n0
    }
}

/// Marks of a block, one byte per (heap, value): set when the value is an
/// option of that heap. Bytes, not bits: a mark is a plain store, so marks
/// for different heaps never wait on one another. Each piece of rows has its
/// own lock, taken once per piece by whoever marks it.
pub struct MarkBuffer {
    pieces: Vec<Mutex<Vec<u8>>>,
}

impl Default for MarkBuffer {
    fn default() -> Self {
        MarkBuffer {
            pieces: (0..PIECES).map(|_| Mutex::new(Vec::new())).collect(),
        }
    }
}

impl MarkBuffer {
    /// The marks of heap j of the block as a bitset (OR-ed into `seen`).
    fn load_into(&self, job: &MarkJob, j: usize, seen: &mut [u64]) {
        let piece = self.pieces[j / PIECE_ROWS]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let row = &piece[(j % PIECE_ROWS) * job.stride..][..job.stride];
        for (word, bytes) in seen.iter_mut().zip(row.chunks_exact(8 * 8)) {
            let mut bits = 0u64;
            for (k, eight) in bytes.chunks_exact(8).enumerate() {
                // Eight 0/1 bytes to eight bits: the multiply gathers bit 0
                // of each byte into the top byte.
                let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
                bits |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
            }
            *word |= bits;
        }
    }
}

/// Saves a planned and marked block, so a resumed solve takes up the
/// block where the stopped one would have: the plan was made before the
/// block ahead of it was solved, from what was known then.
pub fn save_planned(job: &MarkJob, buffer: &MarkBuffer, w: &mut StateWriter) -> Result<()> {
    for x in [
        job.n0,
        job.stride as u64,
        job.rare_from as u64,
        job.rare_planned as u64,
        job.order_end as u64,
    ] {
        w.u64(x)?;
    }
    w.u32s(job.step2.iter().copied())?;
    for piece in &buffer.pieces {
        let rows = piece.lock().unwrap_or_else(PoisonError::into_inner);
        w.u64(rows.len() as u64)?;
        w.put(&rows)?;
    }
    Ok(())
}

/// Reads what `save_planned` wrote, for the solve state `st`.
pub fn restore_planned(
    st: &SparseState,
    job: &mut MarkJob,
    buffer: &MarkBuffer,
    r: &mut StateReader,
) -> Result<()> {
    let mut next = || r.u64();
    let (n0, stride, rare_from, rare_planned, order_end) =
        (next()?, next()?, next()?, next()?, next()?);
    ensure!(
        stride == 1 << st.value_bits
            && rare_from <= rare_planned
            && rare_planned <= st.rare.len() as u64
            && order_end <= st.scan_order.len() as u64,
        "{}: the planned block at {n0} does not fit the saved state",
        r.name()
    );
    job.n0 = n0;
    job.stride = stride as usize;
    job.rare = st.rare.clone();
    job.rare_from = rare_from as usize;
    job.rare_planned = rare_planned as usize;
    job.order_end = order_end as usize;
    job.step2 = r.u32s()?;
    job.at = None;
    for piece in &buffer.pieces {
        let len = r.u64()?;
        ensure!(
            len == (PIECE_ROWS * job.stride) as u64,
            "{}: a piece of {len} marks, want {}",
            r.name(),
            PIECE_ROWS * job.stride
        );
        let mut rows = piece.lock().unwrap_or_else(PoisonError::into_inner);
        rows.clear();
        rows.resize(len as usize, 0);
        r.take(&mut rows)?;
    }
    Ok(())
}

/// Marks rows [PIECE_ROWS·piece, +PIECE_ROWS) of the job's block.
pub fn mark_piece(storage: &Storage, buffer: &MarkBuffer, job: &MarkJob, piece: usize) {
    let Some(at) = &job.at else { return };
    let mut rows = buffer.pieces[piece]
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    rows.clear();
    rows.resize(PIECE_ROWS * job.stride, 0);
    let view = storage.view(at);
    let first = piece * PIECE_ROWS;
    match job.stride {
        64 => mark_rows::<64>(&mut rows, job, view, first),
        128 => mark_rows::<128>(&mut rows, job, view, first),
        256 => mark_rows::<256>(&mut rows, job, view, first),
        512 => mark_rows::<512>(&mut rows, job, view, first),
        1024 => mark_rows::<1024>(&mut rows, job, view, first),
        2048 => mark_rows::<2048>(&mut rows, job, view, first),
        4096 => mark_rows::<4096>(&mut rows, job, view, first),
        8192 => mark_rows::<8192>(&mut rows, job, view, first),
        16384 => mark_rows::<16384>(&mut rows, job, view, first),
        32768 => mark_rows::<32768>(&mut rows, job, view, first),
        other => unreachable!("value stride {other} (values are at most 15 bits)"),
    }
}

/// With the row size S a constant, every index is provably in bounds and
/// the loop is loads, xors and byte stores only.
fn mark_rows<const S: usize>(bytes: &mut [u8], job: &MarkJob, view: View, first: usize) {
    let rows: &mut [[u8; S]] = bytemuck::cast_slice_mut(bytes);
    let rows: &mut [[u8; S]; PIECE_ROWS] = rows.try_into().expect("a piece of rows");
    let run = |part: u64| -> &[AtomicU16; PIECE_ROWS] {
        view.run(job.n0 - part + first as u64, PIECE_ROWS)
            .try_into()
            .expect("a run of values")
    };
    let mark = |rows: &mut [[u8; S]; PIECE_ROWS], x: u16, other: &[AtomicU16; PIECE_ROWS]| {
        for (row, o) in rows.iter_mut().zip(other) {
            row[usize::from(x ^ o.load(Relaxed)) & (S - 1)] = 1;
        }
    };
    for rare in &job.rare[job.rare_from..job.rare_planned] {
        // The split of heap 2r is into equal parts: not a move.
        let equal = (2 * rare.heap)
            .checked_sub(job.n0 + first as u64)
            .filter(|&j| j < PIECE_ROWS as u64);
        let other = run(rare.heap);
        match equal {
            None => mark(rows, rare.value, other),
            Some(k) => {
                for (j, (row, o)) in rows.iter_mut().zip(other).enumerate() {
                    if j as u64 != k {
                        row[usize::from(rare.value ^ o.load(Relaxed)) & (S - 1)] = 1;
                    }
                }
            }
        }
    }
    // Step-2 parts are at most (n0 − BLOCK − 1)/2: never an equal split.
    for &a in &job.step2 {
        mark(rows, view.get(a.into()), run(a.into()));
    }
}

/// Makes `dst` equal to `src`, writing only the entries that differ: the
/// helper thread read `dst` last, and each cache line written must first be
/// taken back from its core. The list changes little from block to block.
fn overwrite_changed(dst: &mut Vec<u32>, src: &[u32]) {
    dst.truncate(src.len());
    for (d, &s) in dst.iter_mut().zip(src) {
        if *d != s {
            *d = s;
        }
    }
    let kept = dst.len();
    dst.extend_from_slice(&src[kept..]);
}

impl SparseState {
    /// Plans the marking of the block at n0 from the values below n0 −
    /// BLOCK (all that is known while the block before is being solved).
    pub fn plan_block(
        &mut self,
        job: &mut MarkJob,
        n0: u64,
        storage: &Storage,
        cursor: &Cursor,
        scan_limit: u64,
    ) {
        let known = n0 - BLOCK as u64;
        debug_assert!(cursor.next_heap() >= known && known >= MIN_PART);
        let view = storage.view(cursor);
        let g = |m: u64| view.get(m);
        // The order serves the block before as well: its parts must stay
        // at most (known − 1)/2.
        self.refresh_order(known, scan_limit, &g);
        if self.targets.due() {
            self.targets.rebuild(&self.by_value, self.value_bits);
        }
        job.rare = self.rare.clone();
        job.rare_from = self.rare_below(MIN_PART);
        job.rare_planned = self.rare_below(known);
        let mut step2 = std::mem::take(&mut self.step2_scratch);
        step2.clear();
        job.order_end = 0;
        for &a in &self.scan_order {
            if step2.len() == DIVERSE_PARTS {
                break;
            }
            job.order_end += 1;
            if u64::from(a) >= MIN_PART {
                step2.push(a);
            }
        }
        step2.extend(
            self.targets
                .witnesses()
                .filter(|&a| u64::from(a) >= MIN_PART),
        );
        overwrite_changed(&mut job.step2, &step2);
        self.step2_scratch = step2;
        job.n0 = n0;
        job.stride = 1 << self.value_bits;
        job.at = Some(cursor.clone());
    }

    /// Solves the block at n0 = `cursor.next_heap()`, whose marking `job`
    /// is done, storing each value as it is found.
    pub fn solve_block(
        &mut self,
        job: &MarkJob,
        buffer: &MarkBuffer,
        storage: &Storage,
        cursor: &mut Cursor,
        scan_limit: u64,
    ) -> Result<()> {
        let small = self.rare_below(MIN_PART);
        for j in 0..BLOCK {
            let n = cursor.next_heap();
            let value = {
                let view = storage.view(cursor);
                let g = |m: u64| view.get(m);
                self.seen.fill(0);
                buffer.load_into(job, j, &mut self.seen);
                self.clear_lanes();
                let rare_below_n = self.rare_below(n);
                self.mark_rare_splits(n, 0..small, &g);
                self.mark_rare_splits(n, job.rare_planned..rare_below_n, &g);
                self.stats.scan_steps += job.step2.len() as u64;
                self.conclude(n, &g, scan_limit, job.order_end, true)?
            };
            storage.push(cursor, value);
            self.record(n, value)?;
        }
        Ok(())
    }
}
