//! Solved values, shared between the solving thread and the marking helper.
//!
//! Atomics, so that the helper can read values below the block being solved
//! while the solver writes the block: relaxed loads and stores compile to
//! plain moves, and each hand-over of work (a mutex and an acquire/release
//! counter, see `crew`) orders them.

use crate::pipeline::checkpoint::{StateReader, StateWriter};
use anyhow::{ensure, Context, Result};
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

/// Where values live: every value (`keep_all`), or the first `window` and
/// the recent ones (streaming). The layout never changes after creation, so
/// it can be shared for the whole solve; `Cursor` says what is filled.
pub struct Storage {
    prefix: Vec<AtomicU16>,
    recent: Vec<AtomicU16>,
}

/// The solving thread's bookkeeping over a `Storage`.
#[derive(Clone)]
pub struct Cursor {
    /// Values in `recent`, which holds heaps base .. base + len.
    len: usize,
    base: u64,
    prefix_len: usize,
    /// Streaming window; `None` keeps every value.
    window: Option<usize>,
}

/// Read access to the values below some heap.
#[derive(Clone, Copy)]
pub struct View<'a> {
    prefix: &'a [AtomicU16],
    recent: &'a [AtomicU16],
    base: u64,
}

fn zeroed(len: usize) -> Vec<AtomicU16> {
    std::iter::repeat_with(|| AtomicU16::new(0))
        .take(len)
        .collect()
}

/// `zeroed`, but an allocation the machine cannot give is an error naming
/// the size, not an abort.
fn try_zeroed(len: usize) -> anyhow::Result<Vec<AtomicU16>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        anyhow::anyhow!(
            "cannot allocate {:.1} GiB for the values of heaps 0..{len} (mode = \"full\" keeps every value); use mode = \"streaming\" or a smaller bound",
            len as f64 * 2.0 / (1u64 << 30) as f64
        )
    })?;
    v.extend(std::iter::repeat_with(|| AtomicU16::new(0)).take(len));
    Ok(v)
}

impl Storage {
    /// Room for heaps 0..=bound, 2 bytes each.
    pub fn keep_all(bound: u64) -> anyhow::Result<(Storage, Cursor)> {
        let len = usize::try_from(bound + 1)?;
        let storage = Storage {
            prefix: Vec::new(),
            recent: try_zeroed(len)?,
        };
        let cursor = Cursor {
            len: 0,
            base: 0,
            prefix_len: 0,
            window: None,
        };
        Ok((storage, cursor))
    }

    /// The first `window` values and at least the last `window`, in
    /// 3·window + `slack` values whatever the bound.
    pub fn windows(window: usize, slack: usize) -> (Storage, Cursor) {
        let storage = Storage {
            prefix: zeroed(window),
            recent: zeroed(2 * window + slack),
        };
        let cursor = Cursor {
            len: 0,
            base: 0,
            prefix_len: 0,
            window: Some(window),
        };
        (storage, cursor)
    }

    /// A read-only view of the values below `cursor`.
    pub fn view(&self, cursor: &Cursor) -> View<'_> {
        View {
            prefix: &self.prefix[..cursor.prefix_len],
            recent: &self.recent,
            base: cursor.base,
        }
    }

    /// Stores G(n) for the next heap n.
    pub fn push(&self, cursor: &mut Cursor, value: u16) {
        if cursor.prefix_len < self.prefix.len() {
            self.prefix[cursor.prefix_len].store(value, Relaxed);
            cursor.prefix_len += 1;
        }
        self.recent[cursor.len].store(value, Relaxed);
        cursor.len += 1;
    }

    /// Streaming: before `room` more pushes would pass twice the window,
    /// keeps only the last window of recent values. Only while no helper
    /// reads (between blocks); `room` is at most the `slack` of `windows`.
    pub fn compact(&self, cursor: &mut Cursor, room: usize) {
        let Some(w) = cursor.window else { return };
        if cursor.len + room <= 2 * w {
            return;
        }
        let drop = cursor.len - w;
        for i in 0..w {
            self.recent[i].store(self.recent[i + drop].load(Relaxed), Relaxed);
        }
        cursor.len = w;
        cursor.base += drop as u64;
    }

    /// Every value, when all were kept.
    pub fn into_values(self, cursor: &Cursor) -> Vec<u16> {
        let mut v: Vec<u16> = self.recent.into_iter().map(AtomicU16::into_inner).collect();
        v.truncate(cursor.len);
        v
    }
}

impl Storage {
    /// Saves the values held and where they stand (streaming only).
    pub fn save(&self, cursor: &Cursor, w: &mut StateWriter) -> Result<()> {
        w.u64(cursor.base)?;
        let load = |x: &AtomicU16| x.load(Relaxed);
        w.u16s(self.prefix[..cursor.prefix_len].iter().map(load))?;
        w.u16s(self.recent[..cursor.len].iter().map(load))
    }

    /// Reads past what `save` wrote, returning the heap it would resume
    /// at (`nimrod info` of a checkpoint, which resumes nothing).
    pub fn skip_saved(r: &mut StateReader) -> Result<u64> {
        let base = r.u64()?;
        r.u16s_each(|_| {})?;
        let recent = r.u16s_each(|_| {})?;
        Ok(base + recent)
    }

    /// Puts back what `save` wrote into storage of the same window.
    pub fn restore(&self, cursor: &mut Cursor, r: &mut StateReader) -> Result<()> {
        let base = r.u64()?;
        let prefix = r.u16s()?;
        let recent = r.u16s()?;
        let window = cursor.window.context("only a streaming solve is saved")?;
        ensure!(
            prefix.len() <= self.prefix.len()
                && recent.len() <= self.recent.len()
                && recent.len() >= window.min(prefix.len())
                && (prefix.len() == window || base == 0 && prefix.len() == recent.len()),
            "{}: {} first and {} recent values do not fit a window of {window}",
            r.name(),
            prefix.len(),
            recent.len()
        );
        for (slot, v) in self.prefix.iter().zip(&prefix) {
            slot.store(*v, Relaxed);
        }
        for (slot, v) in self.recent.iter().zip(&recent) {
            slot.store(*v, Relaxed);
        }
        cursor.base = base;
        cursor.prefix_len = prefix.len();
        cursor.len = recent.len();
        Ok(())
    }
}

impl Cursor {
    /// The next heap to be stored.
    pub fn next_heap(&self) -> u64 {
        self.base + self.len as u64
    }
}

impl<'a> View<'a> {
    #[inline]
    /// The value of heap `m` (below the view's end).
    pub fn get(&self, m: u64) -> u16 {
        if m >= self.base {
            self.recent[(m - self.base) as usize].load(Relaxed)
        } else {
            // Streaming: only split parts below the window (the scan limit)
            // and rare heaps (checked when stored) reach here.
            self.prefix[m as usize].load(Relaxed)
        }
    }

    /// G(start .. start + len). Runs start at n0 − a for a part a below the
    /// window, and `recent` holds at least the last window of values before
    /// n0, so a run never straddles the two.
    #[inline]
    pub fn run(&self, start: u64, len: usize) -> &'a [AtomicU16] {
        if start >= self.base {
            let s = (start - self.base) as usize;
            &self.recent[s..s + len]
        } else {
            &self.prefix[start as usize..start as usize + len]
        }
    }
}
