//! The sweep engine's state between two plies, saved to disk so that a
//! killed build of a big pawnless table (six pieces: ~15.5 G slots, hours
//! of CPU) resumes at the ply it had reached instead of from nothing.
//!
//! Between plies the state is the bytes (white to move, then black; an
//! illegal slot holds its own code), the window and the two-byte values
//! it moved aside, the horizon and the next ply; no candidate is marked
//! there. Any
//! correct solve of the same table has that same state at that ply, so a
//! resumed solve writes the same bytes as one never stopped.
//!
//! File: a 64-byte header (magic, format, the job's parameter hash, slots
//! per side, next ply, window, horizon, whether two-byte values follow,
//! how many waiting first-pass values follow), the bytes, the two-byte
//! values if any, the waiting values (slot as u64, value as u16, little
//! endian); `pipeline::checkpoint` compresses it, checksums it, writes it
//! to `PATH.tmp`, syncs and renames it, so a kill leaves the previous
//! checkpoint whole (the build's lock removes a stale `.tmp`). A file whose checksum, size or
//! identity does not match is not used; the solve says why and starts over.

use super::value::Value;
use crate::pipeline::checkpoint::{StateReader, StateWriter};
use anyhow::{bail, Context, Result};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

const MAGIC: &[u8; 8] = b"NMSWEEP\0";
/// Bumped whenever what a saved byte means changes (encoding, window).
/// Format 2: illegal slots are a code in the bytes (format 1 had a bitmap).
/// Format 3: the first-pass values still waiting for their ply follow.
/// Format 4: like pieces out of order hold no position (ILLEGAL).
const FORMAT: u32 = 4;
const HEADER: usize = 64;
/// Bytes hashed and written or read at a time.
const BLOCK: usize = 1 << 24;

/// Where and how often a solve saves its state.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The file (its `.tmp` sibling while it is written).
    pub path: PathBuf,
    /// What the state belongs to (the job's parameter hash): a checkpoint
    /// of any other job or parameters is not used.
    pub key: u64,
    /// A save, between plies (the first pass counting as one), once this
    /// long has passed since the last or since the solve began.
    pub every: Duration,
    /// Tests: stop the solve with an error right after the save made
    /// before this ply, as a killed build would.
    pub stop_before: Option<u32>,
}

/// The values decided before the window moved, two bytes a slot: in
/// memory, or in a file when the slice's bytes already fill the machine (a
/// six-piece slice is 15.5 G slots: 28.9 GiB more in memory, which no 24
/// GiB machine has; on disk they are page cache the kernel may drop).
pub(super) enum Exact {
    Memory(Vec<u16>),
    File(ExactFile),
}

/// [`Exact`] on disk: a file of little-endian u16, removed when dropped.
pub(super) struct ExactFile {
    file: std::fs::File,
    path: PathBuf,
    len: usize,
}

impl Drop for ExactFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Slots an [`Exact`] file is read and written by at a time (8 MiB).
const EXACT_BLOCK: usize = 1 << 22;

impl Exact {
    /// `len` zeros, in a file at `file` if one is given.
    pub fn zeroed(len: usize, file: Option<&Path>) -> Result<Exact> {
        let Some(path) = file else {
            return Ok(Exact::Memory(vec![0; len]));
        };
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        let file = ExactFile {
            file: f,
            path: path.to_path_buf(),
            len,
        };
        // Sparse: unwritten blocks read as zeros and take no disk.
        file.file
            .set_len(2 * len as u64)
            .with_context(|| format!("cannot size {}", path.display()))?;
        Ok(Exact::File(file))
    }

    pub fn len(&self) -> usize {
        match self {
            Exact::Memory(v) => v.len(),
            Exact::File(f) => f.len,
        }
    }

    /// Copies slots `at..at + out.len()` into `out`.
    pub fn read(&self, at: usize, out: &mut [u16]) -> Result<()> {
        match self {
            Exact::Memory(v) => out.copy_from_slice(&v[at..at + out.len()]),
            Exact::File(f) => {
                let mut bytes = vec![0u8; 2 * out.len()];
                f.file
                    .read_exact_at(&mut bytes, 2 * at as u64)
                    .with_context(|| format!("cannot read {}", f.path.display()))?;
                for (x, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
                    *x = u16::from_le_bytes([b[0], b[1]]);
                }
            }
        }
        Ok(())
    }

    /// Stores `values` at slots `at..`.
    pub fn write(&mut self, at: usize, values: &[u16]) -> Result<()> {
        match self {
            Exact::Memory(v) => v[at..at + values.len()].copy_from_slice(values),
            Exact::File(f) => {
                let bytes: Vec<u8> = values.iter().flat_map(|x| x.to_le_bytes()).collect();
                f.file
                    .write_all_at(&bytes, 2 * at as u64)
                    .with_context(|| format!("cannot write {}", f.path.display()))?;
            }
        }
        Ok(())
    }

    /// Runs `update(start, values)` over every slot, a block at a time
    /// (the whole array at once in memory), storing what it leaves.
    pub fn update(&mut self, mut update: impl FnMut(usize, &mut [u16])) -> Result<()> {
        if let Exact::Memory(v) = self {
            update(0, v);
            return Ok(());
        }
        let mut buf = vec![0u16; EXACT_BLOCK];
        for start in (0..self.len()).step_by(EXACT_BLOCK) {
            let n = EXACT_BLOCK.min(self.len() - start);
            self.read(start, &mut buf[..n])?;
            update(start, &mut buf[..n]);
            self.write(start, &buf[..n])?;
        }
        Ok(())
    }

    /// The whole array in memory.
    pub fn into_vec(self) -> Result<Vec<u16>> {
        if let Exact::Memory(v) = self {
            return Ok(v);
        }
        let mut v = vec![0u16; self.len()];
        self.read(0, &mut v)?;
        Ok(v)
    }
}

/// What a checkpoint holds.
pub(super) struct State {
    /// The ply to run next.
    pub ply: u32,
    /// The window's shift, wins and losses.
    pub window: (u32, u32),
    pub horizon: u32,
    pub cells: Vec<u8>,
    pub exact: Option<Exact>,
    /// First-pass values waiting for their ply: (slot, value).
    pub late: Vec<(usize, Value)>,
}

/// The state to save, borrowed from the solve.
pub(super) struct Snapshot<'a> {
    pub ply: u32,
    pub window: (u32, u32),
    pub horizon: u32,
    pub cells: &'a [u8],
    pub exact: Option<&'a Exact>,
    pub late: &'a [(usize, Value)],
}

/// The state's bytes for `s`, before compression.
fn bytes_of(s: &Snapshot) -> u64 {
    let exact = s.exact.map_or(0, |e| 2 * e.len());
    (HEADER + s.cells.len() + exact + 10 * s.late.len()) as u64
}

/// Saves `s` (slots per side `size`) atomically; returns the file's bytes.
pub(super) fn save(c: &Checkpoint, size: u64, s: &Snapshot) -> Result<u64> {
    let mut w = StateWriter::create(&c.path)?;
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    let fields = [
        u64::from(FORMAT),
        c.key,
        size,
        u64::from(s.ply),
        u64::from(s.window.0) | u64::from(s.window.1) << 32,
        u64::from(s.horizon) | u64::from(s.exact.is_some()) << 32,
        s.late.len() as u64,
    ];
    for (k, f) in fields.iter().enumerate() {
        header[8 + 8 * k..16 + 8 * k].copy_from_slice(&f.to_le_bytes());
    }
    w.put(&header)?;
    for block in s.cells.chunks(BLOCK) {
        w.put(block)?;
    }
    let mut buf = Vec::with_capacity(BLOCK);
    if let Some(exact) = s.exact {
        let mut values = vec![0u16; BLOCK / 2];
        for start in (0..exact.len()).step_by(BLOCK / 2) {
            let values = &mut values[..(BLOCK / 2).min(exact.len() - start)];
            exact.read(start, values)?;
            buf.clear();
            buf.extend(values.iter().flat_map(|x| x.to_le_bytes()));
            w.put(&buf)?;
        }
    }
    buf.clear();
    for &(slot, v) in s.late {
        let x = v.encode_wide().context("a waiting value past two bytes")?;
        buf.extend((slot as u64).to_le_bytes());
        buf.extend(x.to_le_bytes());
    }
    w.put(&buf)?;
    debug_assert_eq!(
        w.state_bytes(),
        bytes_of(s),
        "the layout the header describes"
    );
    w.commit()
}

/// The state saved at `c.path` for a solve of `size` slots per side:
/// `Ok(None)` when there is none, an error saying why when there is one
/// that cannot be used (another job's, another size, damaged, cut short).
/// Two-byte values go to a file at `exact_file` if one is given.
pub(super) fn load(c: &Checkpoint, size: u64, exact_file: Option<&Path>) -> Result<Option<State>> {
    let Some(mut r) = StateReader::open(&c.path)? else {
        return Ok(None);
    };
    let name = r.name().to_string();
    let mut header = [0u8; HEADER];
    r.take(&mut header)?;
    let field = |k: usize| u64::from_le_bytes(header[8 + 8 * k..16 + 8 * k].try_into().expect("8"));
    if &header[..8] != MAGIC {
        bail!("{name}: not a sweep checkpoint");
    }
    if field(0) != u64::from(FORMAT) {
        bail!(
            "{name}: checkpoint format {}, this nimrod writes {FORMAT}",
            field(0)
        );
    }
    if field(1) != c.key {
        bail!(
            "{name}: saved by a job of other parameters (hash {:016x}, this one {:016x})",
            field(1),
            c.key
        );
    }
    if field(2) != size {
        bail!("{name}: {} slots a side, this table has {size}", field(2));
    }
    let (ply, window, horizon) = (field(3) as u32, field(4), field(5));
    let slots = usize::try_from(2 * size).context("slots")?;
    let mut cells = vec![0u8; slots];
    r.take(&mut cells)?;
    let mut buf = vec![0u8; BLOCK];
    let exact = if horizon >> 32 == 1 {
        let mut exact = Exact::zeroed(slots, exact_file)?;
        let mut values = vec![0u16; BLOCK / 2];
        for start in (0..slots).step_by(BLOCK / 2) {
            let values = &mut values[..(BLOCK / 2).min(slots - start)];
            let bytes = &mut buf[..2 * values.len()];
            r.take(bytes)?;
            for (x, b) in values.iter_mut().zip(bytes.chunks_exact(2)) {
                *x = u16::from_le_bytes([b[0], b[1]]);
            }
            exact.write(start, values)?;
        }
        Some(exact)
    } else {
        None
    };
    let waiting = field(6);
    if waiting > 2 * size {
        bail!("{name}: {waiting} waiting values for {} slots", 2 * size);
    }
    let mut late = Vec::with_capacity(waiting as usize);
    let mut entry = [0u8; 10];
    for _ in 0..waiting {
        r.take(&mut entry)?;
        let slot = u64::from_le_bytes(entry[..8].try_into().expect("8"));
        if slot >= 2 * size {
            bail!("{name}: a waiting value at slot {slot}, past the table");
        }
        late.push((
            slot as usize,
            Value::decode_wide(u16::from_le_bytes([entry[8], entry[9]])),
        ));
    }
    r.finish()?;
    Ok(Some(State {
        ply,
        window: (window as u32, (window >> 32) as u32),
        horizon: horizon as u32,
        cells,
        exact,
        late,
    }))
}
