//! Runs the sparse-space solver from heap 0 to a bound, keeping either every
//! value (`values`) or two fixed windows of them (`stream`).

use super::block::{
    mark_piece, restore_planned, save_planned, MarkBuffer, MarkJob, BLOCK, PIECES,
};
use crate::pipeline::crew::Crew;
use super::rare::is_rare_value;
use super::sparse::SparseState;
use super::stats::GrundyStats;
use super::values::{Cursor, Storage};
use crate::pipeline::checkpoint::{self, Saving, Step};
use anyhow::{bail, ensure, Result};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Instant;

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
    /// Hands on every value solved so far and makes it durable, before a
    /// checkpoint that counts them is saved.
    fn sync(&mut self) -> Result<()>;
}

/// Solves heaps 0..=bound in order into `storage`, from heap 0 or from a
/// restored state. `scan_limit` bounds the split parts used (the streaming
/// window). With more than one thread in the current pool, a helper thread
/// marks the next block while this one solves the current block; the values
/// and statistics are the same.
fn solve(
    bound: u64,
    storage: &Storage,
    cursor: &mut Cursor,
    scan_limit: u64,
    output: &mut impl Output,
    start: Start,
    saves: Option<&mut Saves>,
) -> Result<GrundyStats> {
    let (st, planned, job, buffer) = match start {
        Start::Fresh => (
            SparseState::new(),
            false,
            MarkJob::default(),
            MarkBuffer::default(),
        ),
        Start::Restored { st, job, buffer } => (*st, true, *job, buffer),
    };
    let marking = Marking {
        crew: Crew::new(PIECES),
        jobs: [RwLock::new(job), Default::default()],
        buffers: [buffer, Default::default()],
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
        solve_in_order(
            bound, storage, cursor, scan_limit, output, &marking, st, planned, saves,
        )
    })
}

/// Where a solve begins: heap 0, or a saved state whose next block is
/// planned and marked (it goes into job slot 0).
enum Start {
    Fresh,
    Restored {
        st: Box<SparseState>,
        job: Box<MarkJob>,
        buffer: MarkBuffer,
    },
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

#[allow(clippy::too_many_arguments)]
fn solve_in_order(
    bound: u64,
    storage: &Storage,
    cursor: &mut Cursor,
    scan_limit: u64,
    output: &mut impl Output,
    marking: &Marking,
    mut st: SparseState,
    mut planned: bool,
    mut saves: Option<&mut Saves>,
) -> Result<GrundyStats> {
    while cursor.next_heap() <= bound.min(BLOCKS_FROM - 1) {
        one_heap(&mut st, storage, cursor, scan_limit, output)?;
    }
    // Whole blocks while one fits below the bound; the block in `slot` is
    // planned and marked when `planned` holds.
    let mut slot = 0;
    while cursor.next_heap() + BLOCK as u64 <= bound + 1 {
        let n0 = cursor.next_heap();
        if !planned {
            marking.start(&mut st, slot, n0, storage, cursor, scan_limit);
            marking.finish(storage);
        }
        planned = n0 + 2 * BLOCK as u64 <= bound + 1;
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
        slot = 1 - slot;
        // The planned block is the last one planned: a longer solve would
        // resume here (see `resumes_at`).
        let last_planned = planned && cursor.next_heap() + 2 * BLOCK as u64 > bound + 1;
        if let Some(saves) = saves.as_deref_mut().filter(|_| planned) {
            let (due, last) = (saves.due(cursor), last_planned && saves.keeps_last());
            if due || last {
                output.sync()?;
                let job = marking.jobs[slot]
                    .read()
                    .unwrap_or_else(PoisonError::into_inner);
                let state = SolveState {
                    st: &st,
                    storage,
                    cursor,
                    job: &job,
                    buffer: &marking.buffers[slot],
                };
                if due {
                    saves.save(&state)?;
                }
                if last {
                    saves.save_last(&state);
                }
            }
        }
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
    fn sync(&mut self) -> Result<()> {
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
        Start::Fresh,
        None,
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

/// Where streamed values go.
pub trait Sink {
    /// Takes the next values, in heap order.
    fn write(&mut self, values: &[u16]) -> Result<()>;
    /// Makes every value taken so far durable (a checkpoint will count them).
    fn sync(&mut self) -> Result<()>;
}

/// A closure taking the values, for solves that are never saved.
impl<F: FnMut(&[u16]) -> Result<()>> Sink for F {
    fn write(&mut self, values: &[u16]) -> Result<()> {
        self(values)
    }
    fn sync(&mut self) -> Result<()> {
        Ok(())
    }
}

impl<S: Sink> Output for Streamed<S> {
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
        self.sink.write(&self.out)?;
        self.out.clear();
        Ok(())
    }
    fn sync(&mut self) -> Result<()> {
        self.finish()?;
        self.sink.sync()
    }
}

#[cfg(any(test, feature = "internals"))]
/// Streaming computation: working memory is two windows of `window` values
/// (the first heaps and the most recent ones), whatever the bound. Values are
/// handed to `sink` in order, in chunks. Fails with a clear error (never a
/// wrong value) if a rare heap or a split scan falls outside the windows.
pub fn stream(bound: u64, window: u64, sink: impl Sink) -> Result<GrundyStats> {
    stream_resumable(bound, window, None, |_, _| Ok(sink), &mut |_| {}).map(|(stats, _)| stats)
}

/// At least this many heaps between two saves, whatever the interval.
const SAVE_SPACING: u64 = 1 << 16;
const MAGIC: &[u8; 8] = b"NMGRUNDY";
/// Bumped whenever what a saved value means changes.
/// 2: the statistics carry each value's first heap.
const FORMAT: u64 = 2;

/// What a saved state of a streaming solve says of the heaps it holds,
/// read without resuming it (`nimrod info FILE.checkpoint`): a run of days
/// shows what it has found so far.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SavedProgress {
    /// The heap the solve resumes at: every heap below it is solved.
    pub next_heap: u64,
    /// The solve's window (config `window`).
    pub window: u64,
    /// The statistics of heaps 0 .. next_heap − 1.
    pub stats: GrundyStats,
    /// How many distinct rare values occur among them.
    pub rare_values: usize,
}

/// Whether a solve to `bound` can resume from a state saved at heap `next`
/// (one whose next block is planned, and the block after it too).
pub fn resumes_at(next: u64, bound: u64) -> bool {
    next >= BLOCKS_FROM && next + 2 * BLOCK as u64 <= bound + 1
}

/// Reads the saved state at `path` through to its checksum: `Ok(None)`
/// when it is not a Grundy state, an error when it is damaged or of
/// another format.
pub fn read_saved(path: &std::path::Path) -> Result<Option<SavedProgress>> {
    let Some(r) = checkpoint::StateReader::open_kind(path, MAGIC, "Grundy", FORMAT)? else {
        return Ok(None);
    };
    progress_of(r).map(Some)
}

/// [`read_saved`] of `c`'s file, its key checked too: `Ok(None)` when there
/// is none, an error when it cannot be used by a solve that saves as `c`.
pub fn read_saving(c: &Saving) -> Result<Option<SavedProgress>> {
    let Some(r) = c.open(MAGIC, "a Grundy", FORMAT)? else {
        return Ok(None);
    };
    progress_of(r).map(Some)
}

/// The heap a solve to `bound` with `window` would resume at from `c`'s
/// file, read through its checksum without resuming: `Ok(None)` when there
/// is none, an error saying why it would not be used (as `restore` says).
pub fn would_resume_from(c: &Saving, window: u64, bound: u64) -> Result<Option<u64>> {
    let Some(saved) = read_saving(c)? else {
        return Ok(None);
    };
    let name = c.path.display().to_string();
    check_window(&name, saved.window, window)?;
    check_resumes(&name, saved.next_heap, bound)?;
    Ok(Some(saved.next_heap))
}

/// A state saved with `saved` as its window is of a solve with `window`.
fn check_window(name: &str, saved: u64, window: u64) -> Result<()> {
    ensure!(
        saved == window,
        "{name}: saved with a window of {saved}, this solve has {window}"
    );
    Ok(())
}

/// A solve to `bound` can resume from a state saved at heap `next`.
fn check_resumes(name: &str, next: u64, bound: u64) -> Result<()> {
    ensure!(
        resumes_at(next, bound),
        "{name}: saved at heap {next}, past what this solve to {bound} would save"
    );
    Ok(())
}

fn progress_of(mut r: checkpoint::StateReader) -> Result<SavedProgress> {
    let window = r.u64()?;
    let next_heap = Storage::skip_saved(&mut r)?;
    let (st, _, _) = read_solve_state(r, next_heap)?;
    let rare_values = (st.stats.first_heaps.iter())
        .filter(|v| is_rare_value(v.value))
        .count();
    Ok(SavedProgress {
        next_heap,
        window,
        stats: st.stats,
        rare_values,
    })
}

/// `stream`, saving its state as `checkpoint` says and resuming from a
/// saved state when one fits. `open_sink(h, stats)` gives the sink for
/// heaps h onwards: h is 0, or the heap a saved state resumes at (the sink
/// must then drop anything it holds past h); `stats` are those of heaps
/// below h. The values and statistics are those
/// of a solve never stopped. Returns the statistics and the sink.
pub fn stream_resumable<S: Sink>(
    bound: u64,
    window: u64,
    checkpoint: Option<&Saving>,
    open_sink: impl FnOnce(u64, &GrundyStats) -> Result<S>,
    on_step: &mut dyn FnMut(Step),
) -> Result<(GrundyStats, S)> {
    if window < BLOCK as u64 {
        bail!("window must be at least {BLOCK} heaps");
    }
    let window_len = usize::try_from(window)?;
    let (mut storage, mut cursor) = Storage::windows(window_len, BLOCK);
    let mut start = Start::Fresh;
    if let Some(c) = checkpoint {
        match restore(c, window, bound, &storage, &mut cursor) {
            Ok(None) => {}
            Ok(Some(restored)) => {
                on_step(Step::Resumed {
                    at: cursor.next_heap(),
                });
                start = restored;
            }
            Err(why) => {
                on_step(Step::Refused {
                    why: format!("{why:#}"),
                });
                (storage, cursor) = Storage::windows(window_len, BLOCK);
            }
        }
    }
    let sink = match &start {
        Start::Fresh => open_sink(cursor.next_heap(), &GrundyStats::default())?,
        Start::Restored { st, .. } => open_sink(cursor.next_heap(), &st.stats)?,
    };
    let mut output = Streamed {
        window,
        out: Vec::with_capacity(OUTPUT_CHUNK + BLOCK),
        sink,
    };
    let mut saves = checkpoint.map(|c| Saves {
        checkpoint: c,
        window,
        since: Instant::now(),
        last_heap: cursor.next_heap(),
        on_step: &mut *on_step,
    });
    let stats = solve(
        bound,
        &storage,
        &mut cursor,
        window,
        &mut output,
        start,
        saves.as_mut(),
    )?;
    Ok((stats, output.sink))
}

/// Reads a saved state into `storage` and `cursor`: `Ok(None)` when there
/// is none; an error saying why one cannot be used (the checksum is
/// checked before anything restored is used).
fn restore(
    c: &Saving,
    window: u64,
    bound: u64,
    storage: &Storage,
    cursor: &mut Cursor,
) -> Result<Option<Start>> {
    let Some(mut r) = c.open(MAGIC, "a Grundy", FORMAT)? else {
        return Ok(None);
    };
    let saved_window = r.u64()?;
    check_window(r.name(), saved_window, window)?;
    storage.restore(cursor, &mut r)?;
    let next = cursor.next_heap();
    check_resumes(r.name(), next, bound)?;
    let (st, job, buffer) = read_solve_state(r, next)?;
    Ok(Some(Start::Restored {
        st: Box::new(st),
        job: Box::new(job),
        buffer,
    }))
}

/// Reads what a saved state holds after the values that end at heap
/// `next`: the solve's state and its planned block, through the checksum.
fn read_solve_state(
    mut r: checkpoint::StateReader,
    next: u64,
) -> Result<(SparseState, MarkJob, MarkBuffer)> {
    let st = SparseState::restore(&mut r)?;
    ensure!(
        st.stats.bound + 1 == next,
        "{}: the statistics end at heap {}, the values at {}",
        r.name(),
        st.stats.bound,
        next - 1
    );
    let (mut job, buffer) = (MarkJob::default(), MarkBuffer::default());
    restore_planned(&st, &mut job, &buffer, &mut r)?;
    ensure!(
        job.n0() == next,
        "{}: the planned block starts at {}, the values end at {}",
        r.name(),
        job.n0(),
        next - 1
    );
    r.finish()?;
    Ok((st, job, buffer))
}

/// What a save writes: the solve's state between two blocks.
struct SolveState<'a> {
    st: &'a SparseState,
    storage: &'a Storage,
    cursor: &'a Cursor,
    /// The next block's plan and its marks.
    job: &'a MarkJob,
    buffer: &'a MarkBuffer,
}

/// The saving side of a resumable solve.
struct Saves<'a> {
    checkpoint: &'a Saving,
    window: u64,
    since: Instant,
    last_heap: u64,
    on_step: &'a mut dyn FnMut(Step),
}

impl Saves<'_> {
    fn due(&self, cursor: &Cursor) -> bool {
        cursor.next_heap() >= self.last_heap + SAVE_SPACING
            && self.since.elapsed() >= self.checkpoint.every
    }

    fn keeps_last(&self) -> bool {
        self.checkpoint.last_state.is_some()
    }

    /// Writes the state to `c`'s file.
    fn write(&self, c: &Saving, state: &SolveState) -> Result<u64> {
        checkpoint::check_room(&c.path)?;
        let mut w = c.create(MAGIC, FORMAT)?;
        w.u64(self.window)?;
        state.storage.save(state.cursor, &mut w)?;
        state.st.save(&mut w)?;
        save_planned(state.job, state.buffer, &mut w)?;
        w.commit()
    }

    /// Saves the last state before the end to `last_state` (the same
    /// bytes a save there would write): like any save, one that cannot be
    /// made is reported and the solve goes on.
    fn save_last(&mut self, state: &SolveState) {
        let Some(path) = self.checkpoint.last_state.clone() else {
            return;
        };
        let c = Saving {
            path: path.clone(),
            ..self.checkpoint.clone()
        };
        let at = state.cursor.next_heap();
        let step = match self.write(&c, state) {
            Ok(bytes) => Step::SavedLast { at, bytes, path },
            Err(e) => Step::Skipped {
                at,
                why: format!("{e:#}"),
            },
        };
        (self.on_step)(step);
    }

    fn save(&mut self, state: &SolveState) -> Result<()> {
        let began = Instant::now();
        let c = self.checkpoint;
        // A save is for resuming, not for the values: one that cannot be
        // made (no room, a failed write) is reported and the run goes on.
        let saved = self.write(c, state);
        let heap = state.cursor.next_heap();
        self.since = Instant::now();
        let bytes = match saved {
            Ok(bytes) => bytes,
            Err(e) => {
                (self.on_step)(Step::Skipped {
                    at: heap,
                    why: format!("{e:#}"),
                });
                return Ok(());
            }
        };
        (self.on_step)(Step::Saved {
            at: heap,
            bytes,
            seconds: began.elapsed().as_secs_f64(),
        });
        self.last_heap = heap;
        if c.stop_after.is_some_and(|h| heap >= h) {
            bail!("stopped after saving the state at heap {heap} (as asked)");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
        let s2 = stream(bound, 1 << 17, |c: &[u16]| {
            got.extend_from_slice(c);
            Ok(())
        })
        .unwrap();
        assert_eq!(got, full);
        assert_eq!(s2, stats);
    }

    /// A sink keeping its values where a test can read them after a
    /// stopped solve, and how many of them were made durable.
    #[derive(Clone, Default)]
    struct Kept(Arc<std::sync::Mutex<(Vec<u16>, usize)>>);

    impl Sink for Kept {
        fn write(&mut self, values: &[u16]) -> Result<()> {
            self.0.lock().unwrap().0.extend_from_slice(values);
            Ok(())
        }
        fn sync(&mut self) -> Result<()> {
            let mut k = self.0.lock().unwrap();
            k.1 = k.0.len();
            Ok(())
        }
    }

    fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(f)
    }

    /// Runs a resumable solve into `kept`, which the sink cuts back to
    /// the heap it is opened at; returns its result and steps.
    fn run(
        bound: u64,
        c: &Saving,
        kept: &Kept,
        threads: usize,
    ) -> (Result<GrundyStats>, Vec<Step>) {
        let mut steps = Vec::new();
        let result = in_pool(threads, || {
            stream_resumable(
                bound,
                1 << 17,
                Some(c),
                |from, at: &GrundyStats| {
                    let mut k = kept.0.lock().unwrap();
                    assert!(from as usize <= k.1, "resumed past the durable values");
                    // The sink is told the statistics of the heaps before it.
                    assert!(from == 0 || at.bound + 1 == from);
                    let mut first = Vec::new();
                    let mut seen = std::collections::HashSet::new();
                    for (n, &v) in k.0[..from as usize].iter().enumerate() {
                        if seen.insert(v) {
                            first.push(super::super::stats::FirstHeap { value: v, heap: n as u64 });
                        }
                    }
                    assert_eq!(at.first_heaps, first, "first heaps at {from}");
                    k.0.truncate(from as usize);
                    k.1 = k.0.len();
                    Ok(kept.clone())
                },
                &mut |s| steps.push(s),
            )
            .map(|(stats, _)| stats)
        });
        (result, steps)
    }

    #[test]
    fn a_stopped_stream_resumes_to_the_same_values_and_statistics() {
        let bound = 400_000;
        let (full, stats) = values(bound, |_| {}).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let c = Saving {
            path: dir.path().join("values.nmt.checkpoint"),
            key: 7,
            every: Duration::ZERO,
            stop_after: Some(150_000),
            last_state: None,
        };
        for (first, then) in [(2, 1), (1, 2)] {
            let _ = std::fs::remove_file(&c.path);
            let kept = Kept::default();
            let (stopped, steps) = run(bound, &c, &kept, first);
            let err = stopped.unwrap_err().to_string();
            assert!(err.contains("stopped after saving"), "{err}");
            let Some(Step::Saved { at: saved, .. }) = steps.last().cloned() else {
                panic!("no save: {steps:?}")
            };
            assert!(saved >= 150_000 && steps.len() >= 2, "{steps:?}");
            // The values written after the save are dropped on resume.
            assert!(kept.0.lock().unwrap().0.len() as u64 >= saved);
            let resume = Saving {
                stop_after: None,
                last_state: None,
                ..c.clone()
            };
            let (done, steps) = run(bound, &resume, &kept, then);
            assert_eq!(steps[0], Step::Resumed { at: saved });
            assert_eq!(done.unwrap(), stats, "statistics after resuming");
            assert!(kept.0.lock().unwrap().0 == full, "values after resuming");
        }

        // Another solve's state, or a damaged one, is refused, and the
        // solve starts over from heap 0 to the same values.
        let other = Saving {
            key: 8,
            stop_after: None,
            last_state: None,
            // No save of its own, so the file stays the first solve's.
            every: Duration::from_secs(3600),
            ..c.clone()
        };
        let kept = Kept::default();
        let (done, steps) = run(bound, &other, &kept, 2);
        let Step::Refused { why } = &steps[0] else {
            panic!("{steps:?}")
        };
        assert!(why.contains("other parameters"), "{why}");
        assert_eq!(done.unwrap(), stats);
        let mut bytes = std::fs::read(&c.path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 1;
        std::fs::write(&c.path, &bytes).unwrap();
        let kept = Kept::default();
        let resume = Saving {
            stop_after: None,
            last_state: None,
            ..c.clone()
        };
        let (done, steps) = run(bound, &resume, &kept, 2);
        let Step::Refused { why } = &steps[0] else {
            panic!("{steps:?}")
        };
        assert!(why.contains("damaged") || why.contains("malformed"), "{why}");
        assert_eq!(done.unwrap(), stats);
        assert!(kept.0.lock().unwrap().0 == full);
    }

    #[test]
    fn stream_window_too_small_is_an_error() {
        assert!(stream(20_000, 64, |_: &[u16]| Ok(())).is_err());
        assert!(stream(20_000, 63, |_: &[u16]| Ok(())).is_err());
        // In block mode, with the helper running: the rare heap 82,860 is
        // beyond a window of 70,000.
        let err = stream(100_000, 70_000, |_: &[u16]| Ok(())).unwrap_err();
        assert!(err.to_string().contains("heap 82860"), "{err}");
    }
}
