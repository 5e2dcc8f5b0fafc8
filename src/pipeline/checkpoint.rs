//! Saved state of a long job, so that a killed build resumes where it was
//! instead of from nothing (a six-piece chess table's sweeps, Grundy's game
//! to 2^32 and past). What the state is belongs to the job; this module
//! gives the file its guarantees:
//!
//! - written to `PATH.tmp`, synced and renamed, so a kill leaves the
//!   previous checkpoint whole (the build's lock removes a stale `.tmp`);
//! - an xxh3-64 of every byte before it ends the file, and a reader checks
//!   it, and that nothing follows, before the state is used;
//! - a length read from the file is checked against the bytes left before
//!   anything is allocated for it, so a damaged file is an error, not an
//!   allocation of whatever its bytes say.

use crate::table::writer::{sync_parent, tmp_path, with_suffix};
use anyhow::{bail, ensure, Context, Result};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;
use xxhash_rust::xxh3::Xxh3;

/// Bytes hashed and written or read at a time.
const BLOCK: usize = 1 << 24;

/// Where a table's saved state lives while it builds: beside the table
/// (`KQRvKRB.nmt.checkpoint`); the job removes it once the table is written.
pub fn path_beside(output: &Path) -> PathBuf {
    with_suffix(output, ".checkpoint")
}

/// The environment variable that sets how often long jobs save their state.
pub const INTERVAL_VAR: &str = "NIMROD_CHECKPOINT_MINUTES";

/// How often a long job saves its state: `NIMROD_CHECKPOINT_MINUTES` (0:
/// at every chance; at most a week), 20 minutes when unset.
pub fn interval() -> Result<Duration> {
    let minutes = match std::env::var(INTERVAL_VAR) {
        Err(std::env::VarError::NotPresent) => 20,
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(m) if m <= 7 * 24 * 60 => m,
            _ => bail!("{INTERVAL_VAR}={v:?}: want whole minutes, 0 to 10080"),
        },
        Err(e) => bail!("{INTERVAL_VAR}: {e}"),
    };
    Ok(Duration::from_secs(60 * minutes))
}

/// Where and how often a resumable job saves its state.
#[derive(Clone, Debug)]
pub struct Saving {
    /// The file (its `.tmp` sibling while it is written).
    pub path: PathBuf,
    /// What the state belongs to (a hash of the job's parameters, those
    /// that do not change the state left out); a checkpoint of any other
    /// key is not used.
    pub key: u64,
    /// A save once this long has passed since the last or since the job
    /// began.
    pub every: Duration,
    /// Tests: stop the job with an error right after the first save at or
    /// past this point (a heap, a ply), as a killed build would.
    pub stop_after: Option<u64>,
}

impl Saving {
    /// The job's own saving: beside `output`, every
    /// `NIMROD_CHECKPOINT_MINUTES`, under `key`.
    pub fn beside(output: &Path, key: u64) -> Result<Saving> {
        Ok(Saving {
            path: path_beside(output),
            key,
            every: interval()?,
            stop_after: None,
        })
    }

    /// Starts a checkpoint with its header: the job kind's `magic`, the
    /// `format` of what follows, and this saving's key.
    pub fn create(&self, magic: &[u8; 8], format: u64) -> Result<StateWriter> {
        let mut w = StateWriter::create(&self.path)?;
        w.put(magic)?;
        w.u64(format)?;
        w.u64(self.key)?;
        Ok(w)
    }

    /// Opens the checkpoint and checks its header against `magic` (named
    /// `kind` in messages), `format` and this saving's key: `Ok(None)` when
    /// there is none, an error saying why one cannot be used.
    pub fn open(&self, magic: &[u8; 8], kind: &str, format: u64) -> Result<Option<StateReader>> {
        let Some(mut r) = StateReader::open(&self.path)? else {
            return Ok(None);
        };
        let mut saved = [0u8; 8];
        r.take(&mut saved)?;
        ensure!(&saved == magic, "{}: not {kind} checkpoint", r.name());
        let saved = r.u64()?;
        ensure!(
            saved == format,
            "{}: checkpoint format {saved}, this nimrod writes {format}",
            r.name()
        );
        let key = r.u64()?;
        ensure!(
            key == self.key,
            "{}: saved by a solve of other parameters (hash {key:016x}, this one {:016x})",
            r.name(),
            self.key
        );
        Ok(Some(r))
    }
}

/// What a resumable job reports besides its result.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The state was saved.
    Saved {
        /// Where the job would resume (the job's unit: a heap, a ply).
        at: u64,
        /// The checkpoint's size.
        bytes: u64,
        /// The time the save took.
        seconds: f64,
    },
    /// The job resumed from a saved state.
    Resumed {
        /// The first point done after resuming.
        at: u64,
    },
    /// A saved state was found and not used.
    Refused {
        /// Why.
        why: String,
    },
    /// The state could not be saved (no room, a failed write): the job
    /// goes on, and a kill now resumes from the last save, if any.
    Skipped {
        /// Where the job would have resumed.
        at: u64,
        /// Why.
        why: String,
    },
}

impl Step {
    /// The line a build's log shows, `unit` naming what `at` counts.
    pub fn line(&self, unit: &str) -> String {
        match self {
            Step::Saved { at, bytes, seconds } => format!(
                "state saved at {unit} {at} ({:.1} MB in {seconds:.1} s)",
                *bytes as f64 / 1e6
            ),
            Step::Resumed { at } => format!("resumed at {unit} {at} from its checkpoint"),
            Step::Refused { why } => format!("checkpoint not used, starting over: {why}"),
            Step::Skipped { at, why } => format!(
                "state not saved at {unit} {at}, the job goes on (a kill now resumes from the last save): {why}"
            ),
        }
    }
}

/// Space a save leaves free on its filesystem for everything else.
pub const SPARE_BYTES: u64 = 1 << 30;

/// Checks, before a save, that the filesystem of `path` has room for a
/// checkpoint of `bytes` (at least the size of the one already there, which
/// stays until the new one is whole) and `SPARE_BYTES` more: a save that
/// filled the disk would fail and make every other writer fail meanwhile.
pub fn check_room(path: &Path, bytes: u64) -> Result<()> {
    // The folder may not exist yet (a save creates it): its nearest
    // existing ancestor is on the same filesystem.
    let dir = path
        .ancestors()
        .skip(1)
        .find(|d| !d.as_os_str().is_empty() && d.exists())
        .unwrap_or(Path::new("."));
    let previous = std::fs::metadata(path).map_or(0, |m| m.len());
    let needed = bytes.max(previous).saturating_add(SPARE_BYTES);
    let fs = rustix::fs::statvfs(dir)
        .with_context(|| format!("cannot read the free space of {}", dir.display()))?;
    let free = fs.f_bavail.saturating_mul(fs.f_frsize);
    ensure!(
        free >= needed,
        "{} has {:.1} GB free, a save needs {:.1} GB ({:.1} GB of state and {:.1} GB left for others)",
        dir.display(),
        free as f64 / 1e9,
        needed as f64 / 1e9,
        bytes.max(previous) as f64 / 1e9,
        SPARE_BYTES as f64 / 1e9
    );
    Ok(())
}

/// Removes a table's checkpoint once the table is written; a failure is
/// returned as a line for the build's log (the table is already whole).
pub fn remove_beside(output: &Path) -> Option<String> {
    let path = path_beside(output);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Some(format!("cannot remove {}: {e}", path.display()))
        }
        _ => None,
    }
}

/// Writes one checkpoint: bytes in, checksum and rename in `commit`.
/// Dropped before `commit` (a failed write), it removes its `.tmp`, so a
/// save that ran out of room gives the room back at once.
pub struct StateWriter {
    path: PathBuf,
    tmp: PathBuf,
    unfinished: Unfinished,
    inner: BufWriter<File>,
    hash: Xxh3,
    buf: Vec<u8>,
}

impl StateWriter {
    /// Starts `PATH.tmp`, making the directory first (a new data
    /// directory's game folder may not exist yet).
    pub fn create(path: &Path) -> Result<StateWriter> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let tmp = tmp_path(path);
        let file =
            File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        Ok(StateWriter {
            path: path.to_path_buf(),
            unfinished: Unfinished(Some(tmp.clone())),
            tmp,
            inner: BufWriter::with_capacity(BLOCK, file),
            hash: Xxh3::new(),
            buf: Vec::new(),
        })
    }

    /// Appends bytes.
    pub fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.hash.update(bytes);
        self.inner
            .write_all(bytes)
            .with_context(|| format!("cannot write checkpoint {}", self.tmp.display()))
    }

    /// Appends a little-endian u64.
    pub fn u64(&mut self, x: u64) -> Result<()> {
        self.put(&x.to_le_bytes())
    }

    /// Appends a length, then the values, each little-endian.
    pub fn u16s(&mut self, xs: impl ExactSizeIterator<Item = u16>) -> Result<()> {
        self.words(xs.len(), xs.map(|x| x.to_le_bytes()))
    }

    /// Appends a length, then the values, each little-endian.
    pub fn u32s(&mut self, xs: impl ExactSizeIterator<Item = u32>) -> Result<()> {
        self.words(xs.len(), xs.map(|x| x.to_le_bytes()))
    }

    /// Appends a length, then the values, each little-endian.
    pub fn u64s(&mut self, xs: impl ExactSizeIterator<Item = u64>) -> Result<()> {
        self.words(xs.len(), xs.map(|x| x.to_le_bytes()))
    }

    fn words<const W: usize>(
        &mut self,
        len: usize,
        xs: impl Iterator<Item = [u8; W]>,
    ) -> Result<()> {
        self.u64(len as u64)?;
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        for x in xs {
            buf.extend_from_slice(&x);
            if buf.len() >= BLOCK {
                self.put(&buf)?;
                buf.clear();
            }
        }
        let done = self.put(&buf);
        self.buf = buf;
        done
    }

    /// Ends the file with its checksum, syncs it and renames it over the
    /// previous checkpoint. Returns the bytes written.
    pub fn commit(mut self) -> Result<u64> {
        let sum = self.hash.digest();
        let tmp = self.tmp.clone();
        let synced = (|| -> std::io::Result<()> {
            self.inner.write_all(&sum.to_le_bytes())?;
            let file = self.inner.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()
        })();
        synced.with_context(|| format!("cannot write checkpoint {}", tmp.display()))?;
        std::fs::rename(&tmp, &self.path).with_context(|| {
            format!("cannot rename {} to {}", tmp.display(), self.path.display())
        })?;
        self.unfinished.0 = None;
        sync_parent(&self.path);
        Ok(std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0))
    }
}

/// A checkpoint's `.tmp` not yet renamed: removed when dropped.
struct Unfinished(Option<PathBuf>);

impl Drop for Unfinished {
    fn drop(&mut self) {
        if let Some(tmp) = self.0.take() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Reads one checkpoint, hashing as it goes; `finish` checks the checksum.
pub struct StateReader {
    name: String,
    inner: BufReader<File>,
    hash: Xxh3,
    /// Bytes not yet read, the checksum included.
    left: u64,
}

impl StateReader {
    /// `Ok(None)` when there is no checkpoint at `path`.
    pub fn open(path: &Path) -> Result<Option<StateReader>> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("cannot open {}", path.display())),
        };
        let left = file
            .metadata()
            .with_context(|| format!("cannot read {}", path.display()))?
            .len();
        Ok(Some(StateReader {
            name: path.display().to_string(),
            inner: BufReader::with_capacity(BLOCK, file),
            hash: Xxh3::new(),
            left,
        }))
    }

    /// The file's name, for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Fills `buf` from the file.
    pub fn take(&mut self, buf: &mut [u8]) -> Result<()> {
        if buf.len() as u64 > self.left.saturating_sub(8) {
            bail!("{}: cut short", self.name);
        }
        for block in buf.chunks_mut(BLOCK) {
            self.inner
                .read_exact(block)
                .with_context(|| format!("{}: cut short", self.name))?;
            self.hash.update(block);
        }
        self.left -= buf.len() as u64;
        Ok(())
    }

    /// A little-endian u64.
    pub fn u64(&mut self) -> Result<u64> {
        let mut b = [0u8; 8];
        self.take(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// Values written by `StateWriter::u16s`.
    pub fn u16s(&mut self) -> Result<Vec<u16>> {
        self.words::<2, u16>(u16::from_le_bytes)
    }

    /// Values written by `StateWriter::u16s`, appended to `out` (which
    /// may already hold the room: a large list is not copied to grow).
    pub fn u16s_into(&mut self, out: &mut Vec<u16>) -> Result<()> {
        self.words_into::<2, u16>(u16::from_le_bytes, out)
    }

    /// Values written by `StateWriter::u32s`.
    pub fn u32s(&mut self) -> Result<Vec<u32>> {
        self.words::<4, u32>(u32::from_le_bytes)
    }

    /// Values written by `StateWriter::u64s`.
    pub fn u64s(&mut self) -> Result<Vec<u64>> {
        self.words::<8, u64>(u64::from_le_bytes)
    }

    fn words<const W: usize, T>(&mut self, from: fn([u8; W]) -> T) -> Result<Vec<T>> {
        let mut out = Vec::new();
        self.words_into(from, &mut out)?;
        Ok(out)
    }

    fn words_into<const W: usize, T>(
        &mut self,
        from: fn([u8; W]) -> T,
        out: &mut Vec<T>,
    ) -> Result<()> {
        let len = self.u64()?;
        let bytes = len
            .checked_mul(W as u64)
            .filter(|&b| b <= self.left.saturating_sub(8))
            .with_context(|| {
                format!(
                    "{}: a list of {len} values is longer than the file",
                    self.name
                )
            })?;
        out.reserve_exact(len as usize);
        let mut buf = vec![0u8; BLOCK.min(bytes as usize)];
        let mut rest = bytes as usize;
        while rest > 0 {
            let n = rest.min(BLOCK);
            self.take(&mut buf[..n])?;
            out.extend(
                buf[..n]
                    .chunks_exact(W)
                    .map(|c| from(c.try_into().expect("W bytes"))),
            );
            rest -= n;
        }
        Ok(())
    }

    /// Checks the checksum and that nothing follows it.
    pub fn finish(mut self) -> Result<()> {
        let sum = self.hash.digest();
        let mut stored = [0u8; 8];
        self.inner
            .read_exact(&mut stored)
            .with_context(|| format!("{}: cut short", self.name))?;
        if u64::from_le_bytes(stored) != sum {
            bail!("{}: checksum mismatch (damaged)", self.name);
        }
        if self.inner.read(&mut [0u8; 1])? != 0 {
            bail!("{}: bytes after the checksum", self.name);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_reads_back_and_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/t.checkpoint");
        let mut w = StateWriter::create(&path).unwrap();
        w.u64(7).unwrap();
        w.u16s([1u16, 2, 65535].into_iter()).unwrap();
        w.u32s(std::iter::empty()).unwrap();
        w.u64s([u64::MAX].into_iter()).unwrap();
        let bytes = w.commit().unwrap();
        assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
        assert!(!tmp_path(&path).exists());

        let mut r = StateReader::open(&path).unwrap().unwrap();
        assert_eq!(r.u64().unwrap(), 7);
        assert_eq!(r.u16s().unwrap(), [1, 2, 65535]);
        assert_eq!(r.u32s().unwrap(), Vec::<u32>::new());
        assert_eq!(r.u64s().unwrap(), [u64::MAX]);
        r.finish().unwrap();

        // One flipped bit: the values may read, the checksum does not.
        let mut raw = std::fs::read(&path).unwrap();
        raw[17] ^= 4;
        std::fs::write(&path, &raw).unwrap();
        let mut r = StateReader::open(&path).unwrap().unwrap();
        r.u64().unwrap();
        r.u16s().unwrap();
        r.u32s().unwrap();
        r.u64s().unwrap();
        let err = r.finish().unwrap_err().to_string();
        assert!(err.contains("checksum mismatch"), "{err}");

        // A length past the end of the file is refused before allocating.
        let mut raw = std::fs::read(&path).unwrap();
        raw[8..16].copy_from_slice(&(u64::MAX / 4).to_le_bytes());
        std::fs::write(&path, &raw).unwrap();
        let mut r = StateReader::open(&path).unwrap().unwrap();
        r.u64().unwrap();
        let err = r.u16s().unwrap_err().to_string();
        assert!(err.contains("longer than the file"), "{err}");

        assert!(StateReader::open(&dir.path().join("none"))
            .unwrap()
            .is_none());
    }

    #[test]
    fn a_save_without_room_is_refused_before_writing_and_a_failed_one_leaves_no_tmp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.checkpoint");
        check_room(&path, 0).unwrap();
        check_room(&dir.path().join("not/yet/made/t.checkpoint"), 0).unwrap();
        let err = check_room(&path, u64::MAX / 4).unwrap_err().to_string();
        assert!(
            err.contains(&dir.path().display().to_string()) && err.contains("a save needs"),
            "{err}"
        );
        // The checkpoint already there counts: it stays until the new one is whole.
        std::fs::write(&path, b"old").unwrap();
        check_room(&path, 0).unwrap();

        let mut w = StateWriter::create(&path).unwrap();
        w.u64(1).unwrap();
        assert!(tmp_path(&path).exists());
        drop(w);
        assert!(
            !tmp_path(&path).exists(),
            "a dropped writer removes its .tmp"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"old",
            "and leaves the last save"
        );
    }
}
