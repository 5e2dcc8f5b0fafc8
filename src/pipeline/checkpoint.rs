//! Saved state of a long job, so that a killed build resumes where it was
//! instead of from nothing (a six-piece chess table's sweeps, Grundy's game
//! to 2^32 and past). What the state is belongs to the job; this module
//! gives the file its guarantees:
//!
//! - written to `PATH.tmp`, synced and renamed, so a kill leaves the
//!   previous checkpoint whole (the build's lock removes a stale `.tmp`);
//! - compressed (one zstd frame at level 1: a six-piece chess state of
//!   15.5 GB is mostly runs of a few byte values and takes about a tenth),
//!   then a 24-byte trailer: the state's length, an xxh3-64 of the state's
//!   bytes, and an xxh3-64 of those 16 bytes. A reader checks the trailer
//!   first, the state's checksum at the end, and that nothing follows,
//!   before the state is used. A save stops (and removes its `.tmp`)
//!   rather than leave the filesystem less than `SPARE_BYTES` free;
//! - a length read from the state is checked against the state's bytes
//!   left before anything is allocated for it, so a damaged file is an
//!   error, not an allocation of whatever its bytes say;
//! - the uncompressed form written before (the state, then its xxh3-64)
//!   still loads: a file that does not begin with zstd's magic number is
//!   read as that.

use crate::table::writer::{sync_parent, tmp_path, with_suffix};
use anyhow::{bail, ensure, Context, Result};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// Bytes hashed and written or read at a time.
const BLOCK: usize = 1 << 24;

/// zstd's level for saves: the fastest, since a save holds up the job.
const LEVEL: i32 = 1;

/// How the first four bytes of a compressed checkpoint read (zstd's frame
/// magic number); no uncompressed state begins with them (each begins with
/// its job's ASCII magic).
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The compressed form's trailer: state length, state checksum, and the
/// checksum of those two.
const TRAILER: u64 = 24;

/// Compressed bytes written between two checks of the free space.
const ROOM_CHECK_EVERY: u64 = 1 << 26;

/// Where a table's saved state lives while it builds: beside the table
/// (`KQRvKRB.nmt.checkpoint`); the job removes it once the table is written.
pub fn path_beside(output: &Path) -> PathBuf {
    with_suffix(output, ".checkpoint")
}

/// Where a finished table keeps the last state its build could resume from
/// (`values.nmt.extend`), for a later build of the same job to a larger
/// bound to go on from instead of starting over.
pub fn path_for_extending(output: &Path) -> PathBuf {
    with_suffix(output, ".extend")
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
    /// Where to save, as well, the last state a solve can resume from
    /// before it ends (whatever the interval): kept beside the finished
    /// table, it lets a build to a larger bound go on from there.
    pub last_state: Option<PathBuf>,
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
            last_state: None,
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
        let saved = r.header()?;
        ensure!(&saved.magic == magic, "{}: not {kind} checkpoint", r.name());
        ensure!(
            saved.format == format,
            "{}: checkpoint format {}, this nimrod writes {format}",
            r.name(),
            saved.format
        );
        ensure!(
            saved.key == self.key,
            "{}: saved by a solve of other parameters (hash {:016x}, this one {:016x})",
            r.name(),
            saved.key,
            self.key
        );
        Ok(Some(r))
    }
}

/// What [`Saving::create`] writes first.
pub struct Header {
    /// The job kind's magic.
    pub magic: [u8; 8],
    /// The format of what follows.
    pub format: u64,
    /// The saving's key (a hash of the job's parameters).
    pub key: u64,
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
    /// The last state the solve can resume from before its end was saved
    /// for extending the finished table later.
    SavedLast {
        /// Where a longer solve would resume.
        at: u64,
        /// The state's size.
        bytes: u64,
        /// Where it is.
        path: PathBuf,
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
            Step::SavedLast { at, bytes, path } => format!(
                "last state before the end saved at {unit} {at} ({:.1} MB, {}): a build to a larger bound goes on from it",
                *bytes as f64 / 1e6,
                path.display()
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
/// checkpoint the size of the one already there (which stays until the new
/// one is whole; a state's compressed size changes slowly from save to
/// save) and `SPARE_BYTES` more: a save that filled the disk would fail and
/// make every other writer fail meanwhile. The writer checks again as it
/// goes, since a first save has nothing to go by.
pub fn check_room(path: &Path) -> Result<()> {
    let previous = std::fs::metadata(path).map_or(0, |m| m.len());
    ensure_free(path, previous)
}

/// The nearest existing folder of `path` (a save creates the missing ones):
/// it is on the same filesystem.
fn existing_folder(path: &Path) -> &Path {
    path.ancestors()
        .skip(1)
        .find(|d| !d.as_os_str().is_empty() && d.exists())
        .unwrap_or(Path::new("."))
}

/// Fails unless the filesystem of `path` has `bytes` and `SPARE_BYTES`
/// more free.
fn ensure_free(path: &Path, bytes: u64) -> Result<()> {
    let dir = existing_folder(path);
    let needed = bytes.saturating_add(SPARE_BYTES);
    let fs = rustix::fs::statvfs(dir)
        .with_context(|| format!("cannot read the free space of {}", dir.display()))?;
    let free = fs.f_bavail.saturating_mul(fs.f_frsize);
    ensure!(
        free >= needed,
        "{} has {:.1} GB free, a save needs {:.1} GB ({:.1} GB for the state and {:.1} GB left for others)",
        dir.display(),
        free as f64 / 1e9,
        needed as f64 / 1e9,
        bytes as f64 / 1e9,
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

/// Writes one checkpoint: bytes in, compressed, trailer and rename in
/// `commit`. Dropped before `commit` (a failed write), it removes its
/// `.tmp`, so a save that ran out of room gives the room back at once.
pub struct StateWriter {
    path: PathBuf,
    tmp: PathBuf,
    unfinished: Unfinished,
    inner: zstd::stream::write::Encoder<'static, RoomKept>,
    hash: Xxh3,
    /// The state's bytes so far (uncompressed).
    len: u64,
    buf: Vec<u8>,
}

/// The file under the compressor: counts what is written and stops a
/// save that would leave its filesystem less than `SPARE_BYTES` free.
struct RoomKept {
    file: BufWriter<File>,
    tmp: PathBuf,
    written: u64,
    next_check: u64,
}

impl Write for RoomKept {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written >= self.next_check {
            self.next_check = self.written + ROOM_CHECK_EVERY;
            ensure_free(&self.tmp, ROOM_CHECK_EVERY)
                .map_err(|e| std::io::Error::other(format!("{e:#}; the save stopped")))?;
        }
        let n = self.file.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
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
        let unfinished = Unfinished(Some(tmp.clone()));
        let kept = RoomKept {
            file: BufWriter::with_capacity(BLOCK, file),
            tmp: tmp.clone(),
            written: 0,
            next_check: 0,
        };
        let inner = zstd::stream::write::Encoder::new(kept, LEVEL)
            .with_context(|| format!("cannot start compressing {}", tmp.display()))?;
        Ok(StateWriter {
            path: path.to_path_buf(),
            unfinished,
            tmp,
            inner,
            hash: Xxh3::new(),
            len: 0,
            buf: Vec::new(),
        })
    }

    /// The state's bytes so far, uncompressed.
    pub fn state_bytes(&self) -> u64 {
        self.len
    }

    /// Appends bytes.
    pub fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.hash.update(bytes);
        self.len += bytes.len() as u64;
        self.inner
            .write_all(bytes)
            .with_context(|| format!("cannot write checkpoint {}", self.tmp.display()))
    }

    /// Appends a little-endian u64.
    pub fn u64(&mut self, x: u64) -> Result<()> {
        self.put(&x.to_le_bytes())
    }

    /// Appends a short text: its length, then its UTF-8 bytes.
    pub fn text(&mut self, text: &str) -> Result<()> {
        self.u64(text.len() as u64)?;
        self.put(text.as_bytes())
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

    /// Ends the compressed state, writes the trailer, syncs the file and
    /// renames it over the previous checkpoint. Returns the file's bytes.
    pub fn commit(mut self) -> Result<u64> {
        let mut trailer = [0u8; TRAILER as usize];
        trailer[..8].copy_from_slice(&self.len.to_le_bytes());
        trailer[8..16].copy_from_slice(&self.hash.digest().to_le_bytes());
        let check = xxh3_64(&trailer[..16]);
        trailer[16..].copy_from_slice(&check.to_le_bytes());
        let tmp = self.tmp.clone();
        let synced = (|| -> std::io::Result<u64> {
            let mut kept = self.inner.finish()?;
            kept.file.write_all(&trailer)?;
            let file = kept.file.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            Ok(kept.written + TRAILER)
        })();
        let bytes = synced.with_context(|| format!("cannot write checkpoint {}", tmp.display()))?;
        std::fs::rename(&tmp, &self.path).with_context(|| {
            format!("cannot rename {} to {}", tmp.display(), self.path.display())
        })?;
        self.unfinished.0 = None;
        sync_parent(&self.path);
        Ok(bytes)
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
    inner: Source,
    hash: Xxh3,
    /// State bytes not yet read, plus 8 (the uncompressed form's checksum).
    left: u64,
}

/// Where the state's bytes come from.
enum Source {
    /// The uncompressed form: the state, then its checksum.
    Plain(BufReader<File>),
    /// One zstd frame, its trailer already read and checked: the state's
    /// checksum is `sum`.
    Packed {
        stream: zstd::stream::read::Decoder<'static, BufReader<std::io::Take<File>>>,
        sum: u64,
    },
}

impl Source {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Source::Plain(r) => r.read(buf),
            Source::Packed { stream, .. } => stream.read(buf),
        }
    }

    fn read_exact(&mut self, buf: &mut [u8]) -> std::io::Result<()> {
        match self {
            Source::Plain(r) => r.read_exact(buf),
            Source::Packed { stream, .. } => stream.read_exact(buf),
        }
    }
}

impl StateReader {
    /// `Ok(None)` when there is no checkpoint at `path`.
    pub fn open(path: &Path) -> Result<Option<StateReader>> {
        let name = path.display().to_string();
        let mut file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("cannot open {name}")),
        };
        let len = file
            .metadata()
            .with_context(|| format!("cannot read {name}"))?
            .len();
        let mut magic = [0u8; 4];
        let packed =
            len >= 4 + TRAILER && file.read_exact(&mut magic).is_ok() && magic == ZSTD_MAGIC;
        file.seek(SeekFrom::Start(0))
            .with_context(|| format!("cannot read {name}"))?;
        if !packed {
            return Ok(Some(StateReader {
                name,
                inner: Source::Plain(BufReader::with_capacity(BLOCK, file)),
                hash: Xxh3::new(),
                left: len,
            }));
        }
        let mut trailer = [0u8; TRAILER as usize];
        file.seek(SeekFrom::Start(len - TRAILER))
            .and_then(|_| file.read_exact(&mut trailer))
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .with_context(|| format!("cannot read {name}"))?;
        let word = |k: usize| u64::from_le_bytes(trailer[8 * k..8 * k + 8].try_into().expect("8"));
        ensure!(
            word(2) == xxh3_64(&trailer[..16]),
            "{name}: cut short or damaged (its trailer does not check)"
        );
        let stream = zstd::stream::read::Decoder::new(file.take(len - TRAILER))
            .with_context(|| format!("cannot start decompressing {name}"))?;
        Ok(Some(StateReader {
            name,
            inner: Source::Packed {
                stream,
                sum: word(1),
            },
            hash: Xxh3::new(),
            left: word(0).saturating_add(8),
        }))
    }

    /// What a failed read of the state means: a plain file that ends early
    /// is cut short; a compressed one that does not decode is damaged.
    fn read_failed(&self, e: std::io::Error) -> anyhow::Error {
        match (&self.inner, e.kind()) {
            (Source::Plain(_), _) | (_, std::io::ErrorKind::UnexpectedEof) => {
                anyhow::anyhow!("{}: cut short", self.name)
            }
            _ => anyhow::anyhow!("{}: damaged (cannot decompress: {e})", self.name),
        }
    }

    /// Reads the header [`Saving::create`] wrote, unchecked: [`Saving::open`]
    /// checks it against the job's; a reader that resumes nothing (`nimrod
    /// info`) decides by the magic what the state is.
    pub fn header(&mut self) -> Result<Header> {
        let mut magic = [0u8; 8];
        self.take(&mut magic)?;
        Ok(Header {
            magic,
            format: self.u64()?,
            key: self.u64()?,
        })
    }

    /// Opens the state at `path` for a reader that resumes nothing (`nimrod
    /// info`): `Ok(None)` when its magic is not `magic` (a state of another
    /// kind), an error when there is no file or it is `kind`'s state of a
    /// format other than `format`. Positioned after the header.
    pub fn open_kind(
        path: &Path,
        magic: &[u8; 8],
        kind: &str,
        format: u64,
    ) -> Result<Option<StateReader>> {
        let Some(mut r) = StateReader::open(path)? else {
            bail!("{}: no such file", path.display());
        };
        let header = r.header()?;
        if &header.magic != magic {
            return Ok(None);
        }
        ensure!(
            header.format == format,
            "{}: {kind} checkpoint format {}, this nimrod reads {format}",
            r.name(),
            header.format
        );
        Ok(Some(r))
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
            if let Err(e) = self.inner.read_exact(block) {
                return Err(self.read_failed(e));
            }
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
        let mut reserved = false;
        self.word_blocks::<W>(|len, bytes| {
            if !reserved {
                out.reserve_exact(len as usize);
                reserved = true;
            }
            out.extend(
                bytes
                    .chunks_exact(W)
                    .map(|c| from(c.try_into().expect("W bytes"))),
            );
        })
        .map(|_| ())
    }

    /// Values written by `StateWriter::u16s`, handed to `each` a chunk at a
    /// time without being kept (a reader that only counts them needs no
    /// room for them); returns how many there were.
    pub fn u16s_each(&mut self, mut each: impl FnMut(&[u16])) -> Result<u64> {
        let mut values = Vec::new();
        self.word_blocks::<2>(|_, bytes| {
            values.clear();
            values.extend(
                bytes
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]])),
            );
            each(&values);
        })
    }

    /// A short text written by `StateWriter::text` (at most `max` bytes).
    pub fn text(&mut self, max: usize) -> Result<String> {
        let len = self.u64()?;
        ensure!(
            len <= max as u64,
            "{}: malformed (a text of {len} bytes where at most {max} fit)",
            self.name
        );
        let mut bytes = vec![0u8; len as usize];
        self.take(&mut bytes)?;
        String::from_utf8(bytes)
            .with_context(|| format!("{}: malformed (a text not in UTF-8)", self.name))
    }

    /// Reads a list's length, then its values of `W` bytes a block at a
    /// time, handing `each(length, bytes)` every block (whole values);
    /// returns the length.
    fn word_blocks<const W: usize>(&mut self, mut each: impl FnMut(u64, &[u8])) -> Result<u64> {
        let len = self.u64()?;
        let bytes = len
            .checked_mul(W as u64)
            .filter(|&b| b <= self.left.saturating_sub(8))
            .with_context(|| {
                format!(
                    "{}: a list of {len} values is longer than the state",
                    self.name
                )
            })?;
        let mut buf = vec![0u8; BLOCK.min(bytes as usize)];
        let mut rest = bytes as usize;
        while rest > 0 {
            let n = rest.min(BLOCK);
            self.take(&mut buf[..n])?;
            each(len, &buf[..n]);
            rest -= n;
        }
        Ok(len)
    }

    /// Checks the checksum and that nothing follows the state.
    pub fn finish(mut self) -> Result<()> {
        let sum = self.hash.digest();
        let stored = match &mut self.inner {
            Source::Plain(r) => {
                let mut stored = [0u8; 8];
                r.read_exact(&mut stored)
                    .with_context(|| format!("{}: cut short", self.name))?;
                u64::from_le_bytes(stored)
            }
            Source::Packed { sum, .. } => {
                ensure!(
                    self.left == 8,
                    "{}: {} bytes of the state not read",
                    self.name,
                    self.left - 8
                );
                *sum
            }
        };
        if stored != sum {
            bail!("{}: checksum mismatch (damaged)", self.name);
        }
        match self.inner.read(&mut [0u8; 1]) {
            Ok(0) => Ok(()),
            Ok(_) => bail!("{}: bytes after the state", self.name),
            Err(e) => Err(self.read_failed(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads the state `write_sample` writes, finishes (the checks a job
    /// relies on), then compares what was read.
    fn read_sample(path: &Path) -> Result<()> {
        let mut r = StateReader::open(path)?.expect("a checkpoint");
        let first = r.u64()?;
        let small = r.u16s()?;
        let none = r.u32s()?;
        let wide = r.u64s()?;
        let mut zeros = vec![1u8; 1 << 20];
        r.take(&mut zeros)?;
        r.finish()?;
        assert_eq!(
            (first, small, none, wide),
            (7, vec![1, 2, 65535], vec![], vec![u64::MAX])
        );
        assert!(
            zeros.iter().all(|&b| b == 0),
            "a finished read is what was written"
        );
        Ok(())
    }

    fn write_sample(path: &Path) -> u64 {
        let mut w = StateWriter::create(path).unwrap();
        w.u64(7).unwrap();
        w.u16s([1u16, 2, 65535].into_iter()).unwrap();
        w.u32s(std::iter::empty()).unwrap();
        w.u64s([u64::MAX].into_iter()).unwrap();
        w.put(&vec![0u8; 1 << 20]).unwrap();
        assert_eq!(w.state_bytes(), 8 + 8 + 6 + 8 + 8 + 8 + (1 << 20));
        w.commit().unwrap()
    }

    #[test]
    fn a_state_reads_back_compressed_and_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/t.checkpoint");
        let bytes = write_sample(&path);
        assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
        assert!(!tmp_path(&path).exists());
        assert!(
            bytes < 4096,
            "a mebibyte of zeros compressed: {bytes} bytes"
        );
        let saved = std::fs::read(&path).unwrap();
        assert_eq!(saved[..4], ZSTD_MAGIC);
        read_sample(&path).unwrap();

        // A flipped bit is refused wherever it changes the state: in the
        // frame's blocks (they do not decode, a length is past the state,
        // or the state's checksum does not match) or in the trailer (its
        // own checksum). In the frame's
        // header it may change nothing read (the window size): then the
        // state reads exactly, which `read_sample` checks.
        for at in 4..saved.len() {
            let mut bad = saved.clone();
            bad[at] ^= 4;
            std::fs::write(&path, &bad).unwrap();
            // An error is a refusal; `read_sample` panics on a state
            // accepted with other bytes than were written.
            if read_sample(&path).is_ok() {
                assert!(at < 6, "bit flipped at {at} not seen");
            }
        }
        // Cut short anywhere: refused.
        for keep in [saved.len() - 1, saved.len() - 24, saved.len() / 2, 30] {
            std::fs::write(&path, &saved[..keep]).unwrap();
            let err = format!("{:#}", read_sample(&path).unwrap_err());
            assert!(
                err.contains("cut short") || err.contains("damaged"),
                "{keep}: {err}"
            );
        }
        // Something after the trailer: its trailer no longer checks.
        let mut longer = saved.clone();
        longer.extend_from_slice(&[0; 8]);
        std::fs::write(&path, &longer).unwrap();
        assert!(read_sample(&path).is_err());

        // A length past the end of the state is refused before allocating.
        let mut w = StateWriter::create(&path).unwrap();
        w.u64(7).unwrap();
        w.u64(u64::MAX / 4).unwrap();
        w.commit().unwrap();
        let mut r = StateReader::open(&path).unwrap().unwrap();
        r.u64().unwrap();
        let err = r.u16s().unwrap_err().to_string();
        assert!(err.contains("longer than the state"), "{err}");

        assert!(StateReader::open(&dir.path().join("none"))
            .unwrap()
            .is_none());
    }

    /// Checkpoints saved before compression (the state, then its xxh3-64)
    /// still load, and their damage is still refused.
    #[test]
    fn an_uncompressed_state_of_the_earlier_form_still_loads() {
        let dir = tempfile::tempdir().unwrap();
        let packed = dir.path().join("packed");
        write_sample(&packed);
        let mut r = StateReader::open(&packed).unwrap().unwrap();
        let mut state = vec![0u8; r.left as usize - 8];
        r.take(&mut state).unwrap();
        r.finish().unwrap();
        let mut plain = state.clone();
        plain.extend_from_slice(&xxh3_64(&state).to_le_bytes());
        let path = dir.path().join("t.checkpoint");
        std::fs::write(&path, &plain).unwrap();
        read_sample(&path).unwrap();

        let mut flipped = plain.clone();
        flipped[100] ^= 4;
        std::fs::write(&path, &flipped).unwrap();
        let mut r = StateReader::open(&path).unwrap().unwrap();
        r.take(&mut state).unwrap();
        let err = r.finish().unwrap_err().to_string();
        assert!(err.contains("checksum mismatch"), "{err}");
        std::fs::write(&path, &plain[..plain.len() - 3]).unwrap();
        let err = format!("{:#}", read_sample(&path).unwrap_err());
        assert!(err.contains("cut short"), "{err}");
    }

    #[test]
    fn a_save_without_room_is_refused_before_writing_and_a_failed_one_leaves_no_tmp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.checkpoint");
        check_room(&path).unwrap();
        check_room(&dir.path().join("not/yet/made/t.checkpoint")).unwrap();
        let err = ensure_free(&path, u64::MAX / 4).unwrap_err().to_string();
        assert!(
            err.contains(&dir.path().display().to_string()) && err.contains("a save needs"),
            "{err}"
        );
        // The checkpoint already there counts: it stays until the new one is whole.
        std::fs::write(&path, b"old").unwrap();
        check_room(&path).unwrap();

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
