//! Runs the sparse-space solver from heap 0 to a bound, keeping either every
//! value (`values`) or two fixed windows of them (`stream`).

use super::block::{mark_piece, MarkBuffer, MarkJob, BLOCK, PIECES};
use super::crew::Crew;
use super::rare::is_rare_value;
use super::sparse::SparseState;
use super::stats::GrundyStats;
use super::values::{Cursor, Storage};
use anyhow::{bail, Result};
use std::sync::{Arc, PoisonError, RwLock};

/// Below this heap the per-heap method is used: it is cheap there, and a
/// block needs room below it for its parts.
const BLOCKS_FROM: u64 = 4096;
/// Streamed output goes out in chunks of this many values.
const OUTPUT_CHUNK: usize = 1 << 16;

/// What happens to values once solved, besides being kept for the solver.
trait Output {
    /// Called with heaps from..cursor.next_heap() once they are solved, in
    /// order, before older values may be dropped from the storage.
    fn solved(&mut self, storage: &Storage, cursor: &Cursor, from: u64) -> Result<()>;
    fn finish(&mut self) -> Result<()>;
}

/// Solves heaps 0..=bound in order into `storage`. `scan_limit` bounds the
/// split parts used (the streaming window). With more than one thread in
/// the current pool, a helper thread marks the next block while this one
/// solves the current block; the values and statistics are the same.
fn solve(
    bound: u64,
    storage: &Storage,
    cursor: &mut Cursor,
    scan_limit: u64,
    output: &mut impl Output,
) -> Result<GrundyStats> {
    let marking = Marking {
        crew: Crew::new(PIECES),
        jobs: Default::default(),
        buffers: Default::default(),
    };
    std::thread::scope(|scope| {
        if rayon::current_num_threads() > 1 {
            scope.spawn(|| {
                marking
                    .crew
                    .help(&|&slot, piece| marking.mark(storage, slot, piece))
            });
        }
        // Stops the helper however this thread leaves, a panic included.
        let _stop = marking.crew.stopper();
        solve_in_order(bound, storage, cursor, scan_limit, output, &marking)
    })
}

/// The marking of blocks: shared with the helper thread, if any. Blocks
/// alternate between two job slots and two mark buffers.
struct Marking {
    crew: Crew<usize>,
    jobs: [RwLock<MarkJob>; 2],
    buffers: [MarkBuffer; 2],
}

impl Marking {
    fn mark(&self, storage: &Storage, slot: usize, piece: usize) {
        let job = self.jobs[slot]
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        mark_piece(storage, &self.buffers[slot], &job, piece)
    }

    /// Plans the marking of the block at n0 into `slot` and offers it to
    /// the helper; `finish` completes it.
    fn start(
        &self,
        st: &mut SparseState,
        slot: usize,
        n0: u64,
        storage: &Storage,
        cursor: &Cursor,
        scan_limit: u64,
    ) {
        {
            let mut job = self.jobs[slot]
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            st.plan_block(&mut job, n0, storage, cursor, scan_limit);
        }
        self.crew.publish(Arc::new(slot));
    }

    fn finish(&self, storage: &Storage) {
        self.crew
            .take_pieces(&|&slot, piece| self.mark(storage, slot, piece));
        self.crew.wait();
    }

    fn solve(
        &self,
        st: &mut SparseState,
        slot: usize,
        storage: &Storage,
        cursor: &mut Cursor,
        scan_limit: u64,
    ) -> Result<()> {
        let job = self.jobs[slot]
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        st.solve_block(&job, &self.buffers[slot], storage, cursor, scan_limit)
    }
}

fn solve_in_order(
    bound: u64,
    storage: &Storage,
    cursor: &mut Cursor,
    scan_limit: u64,
    output: &mut impl Output,
    marking: &Marking,
) -> Result<GrundyStats> {
    let mut st = SparseState::new();
    while cursor.next_heap() <= bound.min(BLOCKS_FROM - 1) {
        one_heap(&mut st, storage, cursor, scan_limit, output)?;
    }
    let blocks = (bound + 1 - cursor.next_heap()) / BLOCK as u64;
    let mut planned = false;
    for k in 0..blocks {
        let n0 = cursor.next_heap();
        let slot = k as usize % 2;
        if !planned {
            marking.start(&mut st, slot, n0, storage, cursor, scan_limit);
            marking.finish(storage);
        }
        planned = k + 1 < blocks;
        if planned {
            marking.start(
                &mut st,
                1 - slot,
                n0 + BLOCK as u64,
                storage,
                cursor,
                scan_limit,
            );
        }
        let solved = marking.solve(&mut st, slot, storage, cursor, scan_limit);
        if planned {
            marking.finish(storage);
        }
        solved?;
        // Only now, with the helper idle, may old values move.
        output.solved(storage, cursor, n0)?;
        storage.compact(cursor, BLOCK);
    }
    while cursor.next_heap() <= bound {
        one_heap(&mut st, storage, cursor, scan_limit, output)?;
    }
    output.finish()?;
    Ok(st.stats)
}

/// Solves the next heap by the per-heap method.
fn one_heap(
    st: &mut SparseState,
    storage: &Storage,
    cursor: &mut Cursor,
    scan_limit: u64,
    output: &mut impl Output,
) -> Result<()> {
    let n = cursor.next_heap();
    let view = storage.view(cursor);
    let v = st.next(n, |m| view.get(m), scan_limit)?;
    storage.push(cursor, v);
    output.solved(storage, cursor, n)?;
    storage.compact(cursor, BLOCK);
    Ok(())
}

/// Full mode: every value stays in the storage; only progress is reported.
struct Progress<P>(P);

impl<P: FnMut(u64)> Output for Progress<P> {
    fn solved(&mut self, _: &Storage, cursor: &Cursor, from: u64) -> Result<()> {
        (self.0)(cursor.next_heap() - from);
        Ok(())
    }
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
}

/// All values G(0..=bound), 2 bytes per heap. `on_progress` is called with
/// the number of heaps done since its last call.
pub fn values(bound: u64, on_progress: impl FnMut(u64)) -> Result<(Vec<u16>, GrundyStats)> {
    let (storage, mut cursor) = Storage::keep_all(bound)?;
    let stats = solve(
        bound,
        &storage,
        &mut cursor,
        u64::MAX,
        &mut Progress(on_progress),
    )?;
    Ok((storage.into_values(&cursor), stats))
}

/// Streaming mode: values go to the sink in chunks, and a rare value
/// beyond the window is an error (the solver could not find it as a part).
struct Streamed<S> {
    window: u64,
    out: Vec<u16>,
    sink: S,
}

impl<S: FnMut(&[u16]) -> Result<()>> Output for Streamed<S> {
    fn solved(&mut self, storage: &Storage, cursor: &Cursor, from: u64) -> Result<()> {
        let view = storage.view(cursor);
        for n in from..cursor.next_heap() {
            let value = view.get(n);
            if is_rare_value(value) && n >= self.window && n > 0 {
                bail!(
                    "heap {n} has a rare value beyond the streaming window of {}; raise `window`",
                    self.window
                );
            }
            self.out.push(value);
        }
        if self.out.len() >= OUTPUT_CHUNK {
            self.finish()?;
        }
        Ok(())
    }
    fn finish(&mut self) -> Result<()> {
        (self.sink)(&self.out)?;
        self.out.clear();
        Ok(())
    }
}

/// Streaming computation: working memory is two windows of `window` values
/// (the first heaps and the most recent ones), whatever the bound. Values are
/// handed to `sink` in order, in chunks. Fails with a clear error (never a
/// wrong value) if a rare heap or a split scan falls outside the windows.
pub fn stream(
    bound: u64,
    window: u64,
    sink: impl FnMut(&[u16]) -> Result<()>,
) -> Result<GrundyStats> {
    if window < BLOCK as u64 {
        bail!("window must be at least {BLOCK} heaps");
    }
    let (storage, mut cursor) = Storage::windows(usize::try_from(window)?, BLOCK);
    let mut output = Streamed {
        window,
        out: Vec::with_capacity(OUTPUT_CHUNK + BLOCK),
        sink,
    };
    solve(bound, &storage, &mut cursor, window, &mut output)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-heap method alone, as the reference for the blocked one.
    fn per_heap(bound: u64) -> (Vec<u16>, GrundyStats) {
        let mut st = SparseState::new();
        let mut g = Vec::new();
        for n in 0..=bound {
            let v = st.next(n, |m| g[m as usize], u64::MAX).unwrap();
            g.push(v);
        }
        (g, st.stats)
    }

    #[test]
    fn sparse_matches_naive_mex() {
        let bound = 3000;
        let (fast, stats) = values(bound, |_| {}).unwrap();
        assert_eq!(fast, super::super::naive::values(bound as usize));
        assert!(stats.rare_count > 0 && stats.zero_count > 0);
    }

    #[test]
    fn bounds_around_the_first_blocks_match_naive_mex() {
        let naive = super::super::naive::values(4096 + 200);
        for bound in [
            4095,
            4096,
            4096 + 62,
            4096 + 63,
            4096 + 64,
            4096 + 127,
            4096 + 128,
            4096 + 200,
        ] {
            let (fast, _) = values(bound, |_| {}).unwrap();
            assert_eq!(fast[..], naive[..=bound as usize], "bound {bound}");
        }
    }

    #[test]
    fn blocks_match_the_per_heap_method() {
        // Past the last rare heap (82,860), with a bound that leaves a tail
        // shorter than a block.
        let bound = 150_000 + 17;
        let (blocked, stats) = values(bound, |_| {}).unwrap();
        let (reference, ref_stats) = per_heap(bound);
        assert_eq!(blocked, reference);
        let facts = |s: &GrundyStats| {
            (
                s.bound,
                s.max_value,
                s.max_value_first_heap,
                s.rare_count,
                s.last_rare_heap,
                s.zero_count,
                s.last_zero_heap,
            )
        };
        assert_eq!(facts(&stats), facts(&ref_stats));
    }

    #[test]
    fn thread_count_changes_nothing() {
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| values(120_000, |_| {}).unwrap())
        };
        let (one, two) = (run(1), run(2));
        assert_eq!(one.0, two.0);
        assert_eq!(one.1, two.1);
    }

    #[test]
    fn stream_matches_full() {
        // Rare heaps run to 82,860, so the window must exceed that; the bound
        // is large enough for the recent-values window to be compacted.
        let bound = 300_000;
        let (full, stats) = values(bound, |_| {}).unwrap();
        let mut got = Vec::new();
        let s2 = stream(bound, 1 << 17, |c| {
            got.extend_from_slice(c);
            Ok(())
        })
        .unwrap();
        assert_eq!(got, full);
        assert_eq!(s2, stats);
    }

    #[test]
    fn stream_window_too_small_is_an_error() {
        assert!(stream(20_000, 64, |_| Ok(())).is_err());
        assert!(stream(20_000, 63, |_| Ok(())).is_err());
        // In block mode, with the helper running: the rare heap 82,860 is
        // beyond a window of 70,000.
        let err = stream(100_000, 70_000, |_| Ok(())).unwrap_err();
        assert!(err.to_string().contains("heap 82860"), "{err}");
    }
}
