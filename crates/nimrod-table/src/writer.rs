//! Writes a table atomically: everything goes to `<name>.tmp`, which is
//! fsynced and renamed over the final name only once complete.

use crate::error::TableError;
use crate::format::{
    EntryKind, Header, IndexKind, Section, TableMeta, DEFAULT_BLOCK_SHIFT, FORMAT_VERSION,
    HEADER_LEN, PAYLOAD_ALIGN,
};
use crate::mph;
use std::fs::{self, File};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// A fixed-width payload entry. Tables are little-endian; the zero-copy read
/// path is only enabled on little-endian hosts.
pub trait Entry: bytemuck::Pod {
    /// The header code of this type.
    const KIND: EntryKind;
}
macro_rules! entry {
    ($($t:ty => $k:ident),*) => { $(impl Entry for $t { const KIND: EntryKind = EntryKind::$k; })* };
}
entry!(u8 => U8, u16 => U16, u32 => U32, u64 => U64, i8 => I8, i16 => I16, i32 => I32,
       i64 => I64, f32 => F32, f64 => F64);

/// `path` with `suffix` appended to its file name.
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The temporary name a table is written under before its rename.
pub fn tmp_path(path: &Path) -> PathBuf {
    with_suffix(path, ".tmp")
}

/// The name a resumable table is written under until it is finished.
pub fn partial_path(path: &Path) -> PathBuf {
    with_suffix(path, ".partial")
}

/// Where the keys and the payload start, after the header and an index
/// of `index_len` bytes and keys of `keys_len` bytes.
fn layout(index_len: usize, keys_len: usize) -> (u64, u64) {
    let keys_at = (HEADER_LEN as u64 + index_len as u64).next_multiple_of(8);
    let payload_at = (keys_at + keys_len as u64).next_multiple_of(PAYLOAD_ALIGN);
    (keys_at, payload_at)
}

/// Removes a temporary file unless disarmed: a writer dropped before
/// `finish` (a failed job) leaves nothing behind.
struct TmpGuard {
    path: PathBuf,
    armed: bool,
}

impl Drop for TmpGuard {
    fn drop(&mut self) {
        if self.armed {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Writes one table under a temporary name and renames it into place in
/// `finish`, so a killed build never leaves a half-written table.
pub struct TableWriter {
    path: PathBuf,
    tmp: PathBuf,
    guard: TmpGuard,
    out: BufWriter<File>,
    kind: EntryKind,
    index_kind: IndexKind,
    index: Vec<u8>,
    keys: Vec<u8>,
    payload_at: u64,
    sums: PayloadSums,
}

/// The payload's checksums as its bytes go by in order: the whole
/// payload's and each block's.
struct PayloadSums {
    len: u64,
    hasher: Xxh3,
    block: Xxh3,
    block_fill: u64,
    block_sums: Vec<u64>,
}

impl PayloadSums {
    fn new() -> PayloadSums {
        PayloadSums {
            len: 0,
            hasher: Xxh3::new(),
            block: Xxh3::new(),
            block_fill: 0,
            block_sums: Vec::new(),
        }
    }

    fn update(&mut self, bytes: &[u8]) {
        self.hasher.update(bytes);
        self.len += bytes.len() as u64;
        let block_len = 1u64 << DEFAULT_BLOCK_SHIFT;
        let mut rest = bytes;
        while !rest.is_empty() {
            let n = ((block_len - self.block_fill) as usize).min(rest.len());
            self.block.update(&rest[..n]);
            self.block_fill += n as u64;
            rest = &rest[n..];
            if self.block_fill == block_len {
                self.block_sums.push(self.block.digest());
                self.block.reset();
                self.block_fill = 0;
            }
        }
    }
}

/// What follows the payload, and the header: written once the payload is
/// complete and `out` stands at its end.
struct Tail<'a> {
    tmp: &'a Path,
    kind: EntryKind,
    index_kind: IndexKind,
    index: &'a [u8],
    keys: &'a [u8],
    payload_at: u64,
}

impl Tail<'_> {
    fn write(
        &self,
        out: &mut impl Write,
        mut sums: PayloadSums,
        meta: &TableMeta,
        param_hash: u64,
    ) -> Result<Header, TableError> {
        let io = |e| TableError::io(self.tmp, e);
        let entry_count = sums.len / self.kind.width() as u64;
        if sums.block_fill > 0 {
            sums.block_sums.push(sums.block.digest());
        }
        let block_sums: &[u8] = bytemuck::cast_slice(&sums.block_sums);
        let meta_bytes = serde_json::to_vec_pretty(meta).expect("metadata serialises");
        let payload_end = self.payload_at + sums.len;
        let sums_at = payload_end.next_multiple_of(8);
        let meta_at = sums_at + block_sums.len() as u64;
        out.write_all(&vec![0u8; (sums_at - payload_end) as usize])
            .map_err(io)?;
        out.write_all(block_sums).map_err(io)?;
        out.write_all(&meta_bytes).map_err(io)?;
        let mut aux = Xxh3::new();
        aux.update(&meta_bytes);
        aux.update(self.index);
        aux.update(self.keys);
        aux.update(block_sums);
        let (keys_at, _) = layout(self.index.len(), self.keys.len());
        let section = |offset: u64, len: usize| Section {
            offset: if len == 0 { 0 } else { offset },
            len: len as u64,
        };
        Ok(Header {
            version: FORMAT_VERSION,
            entry_kind: self.kind,
            index_kind: self.index_kind,
            entry_count,
            meta: section(meta_at, meta_bytes.len()),
            index: section(HEADER_LEN as u64, self.index.len()),
            keys: section(keys_at, self.keys.len()),
            payload: Section {
                offset: self.payload_at,
                len: sums.len,
            },
            block_sums: section(sums_at, block_sums.len()),
            block_shift: DEFAULT_BLOCK_SHIFT,
            param_hash,
            payload_checksum: sums.hasher.digest(),
            aux_checksum: aux.digest(),
        })
    }
}

/// Writes the header at the file's start, syncs the file and renames it
/// from `tmp` to `path`.
fn seal(mut file: File, header: &Header, tmp: &Path, path: &Path) -> Result<(), TableError> {
    let io = |e| TableError::io(tmp, e);
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    file.write_all(&header.encode()).map_err(io)?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(tmp, path).map_err(|e| TableError::io(path, e))?;
    sync_parent(path);
    Ok(())
}

impl TableWriter {
    /// A table whose slots come from a closed-form ranking.
    pub fn create(path: &Path, kind: EntryKind) -> Result<Self, TableError> {
        Self::start(path, kind, IndexKind::Ranking, Vec::new(), Vec::new())
    }

    /// A table over a sparse key set. Returns the slot of each key (input
    /// order); entries must then be written in slot order.
    pub fn create_hashed(
        path: &Path,
        kind: EntryKind,
        keys: &[u64],
    ) -> Result<(Self, Vec<u64>), TableError> {
        let built = mph::build(keys, mph::DEFAULT_SEED)
            .map_err(|e| TableError::corrupt(path, format!("cannot index keys: {e}")))?;
        let mut by_slot = vec![0u64; keys.len()];
        for (k, &s) in keys.iter().zip(&built.slots) {
            by_slot[s as usize] = *k;
        }
        let key_bytes = bytemuck::cast_slice::<u64, u8>(&by_slot).to_vec();
        let w = Self::start(path, kind, IndexKind::PerfectHash, built.section, key_bytes)?;
        Ok((w, built.slots))
    }

    /// A ranking table written over a long run that saves its progress:
    /// the temporary file stays when the writer is dropped unfinished (an
    /// error, a stop), so that `resume` can continue it.
    /// It is written under `PATH.partial` (see `partial_path`), which a
    /// build's clean-up of stale `.tmp` files leaves alone.
    pub fn create_resumable(path: &Path, kind: EntryKind) -> Result<Self, TableError> {
        let mut w = Self::start_at(
            path,
            partial_path(path),
            kind,
            IndexKind::Ranking,
            Vec::new(),
            Vec::new(),
        )?;
        w.guard.armed = false;
        Ok(w)
    }

    /// Continues the temporary file of `create_resumable` after its first
    /// `entries` entries (a checkpoint's count, made durable by `sync`
    /// before the checkpoint was saved): anything written after them is
    /// cut off, and the checksums are rebuilt by reading those entries back.
    pub fn resume(path: &Path, kind: EntryKind, entries: u64) -> Result<Self, TableError> {
        use std::io::Read;
        let tmp = partial_path(path);
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&tmp)
            .map_err(|e| TableError::io(&tmp, e))?;
        let (_, payload_at) = layout(0, 0);
        let payload_len = entries
            .checked_mul(kind.width() as u64)
            .ok_or_else(|| TableError::request(path, format!("{entries} entries overflow")))?;
        let have = file.metadata().map_err(|e| TableError::io(&tmp, e))?.len();
        if have < payload_at + payload_len {
            return Err(TableError::corrupt(
                &tmp,
                format!(
                    "holds {} bytes of entries, the checkpoint counts {payload_len}",
                    have.saturating_sub(payload_at)
                ),
            ));
        }
        file.set_len(payload_at + payload_len)
            .map_err(|e| TableError::io(&tmp, e))?;
        file.seek(SeekFrom::Start(payload_at))
            .map_err(|e| TableError::io(&tmp, e))?;
        let out = BufWriter::with_capacity(
            1 << 20,
            file.try_clone().map_err(|e| TableError::io(&tmp, e))?,
        );
        let mut w = Self::assemble(
            path,
            tmp.clone(),
            out,
            kind,
            IndexKind::Ranking,
            Vec::new(),
            Vec::new(),
        );
        w.guard.armed = false;
        let mut buf = vec![0u8; 1 << 22];
        let mut rest = payload_len;
        while rest > 0 {
            let n = rest.min(buf.len() as u64) as usize;
            file.read_exact(&mut buf[..n])
                .map_err(|e| TableError::io(&tmp, e))?;
            w.hash_payload(&buf[..n]);
            rest -= n as u64;
        }
        // The reads left the file's offset at the end of the kept entries,
        // where the writer's clone of it continues.
        Ok(w)
    }

    /// Makes every entry written so far durable (before a checkpoint that
    /// counts them is saved).
    pub fn sync(&mut self) -> Result<(), TableError> {
        self.out.flush().map_err(|e| TableError::io(&self.tmp, e))?;
        self.out
            .get_ref()
            .sync_data()
            .map_err(|e| TableError::io(&self.tmp, e))
    }

    /// Entries written so far.
    pub fn entries(&self) -> u64 {
        self.sums.len / self.kind.width() as u64
    }

    fn start(
        path: &Path,
        kind: EntryKind,
        index_kind: IndexKind,
        index: Vec<u8>,
        keys: Vec<u8>,
    ) -> Result<Self, TableError> {
        Self::start_at(path, tmp_path(path), kind, index_kind, index, keys)
    }

    fn start_at(
        path: &Path,
        tmp: PathBuf,
        kind: EntryKind,
        index_kind: IndexKind,
        index: Vec<u8>,
        keys: Vec<u8>,
    ) -> Result<Self, TableError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(|e| TableError::io(dir, e))?;
        }
        let file = File::create(&tmp).map_err(|e| TableError::io(&tmp, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let (keys_at, payload_at) = layout(index.len(), keys.len());
        let mut prefix = vec![0u8; payload_at as usize];
        prefix[HEADER_LEN..HEADER_LEN + index.len()].copy_from_slice(&index);
        prefix[keys_at as usize..keys_at as usize + keys.len()].copy_from_slice(&keys);
        out.write_all(&prefix)
            .map_err(|e| TableError::io(&tmp, e))?;
        Ok(Self::assemble(
            path, tmp, out, kind, index_kind, index, keys,
        ))
    }

    /// A writer over `out`, positioned at the payload's start, with nothing
    /// of the payload hashed yet; its temporary file is removed if it is
    /// dropped unfinished.
    fn assemble(
        path: &Path,
        tmp: PathBuf,
        out: BufWriter<File>,
        kind: EntryKind,
        index_kind: IndexKind,
        index: Vec<u8>,
        keys: Vec<u8>,
    ) -> TableWriter {
        let (_, payload_at) = layout(index.len(), keys.len());
        TableWriter {
            path: path.to_path_buf(),
            guard: TmpGuard {
                path: tmp.clone(),
                armed: true,
            },
            tmp,
            out,
            kind,
            index_kind,
            index,
            keys,
            payload_at,
            sums: PayloadSums::new(),
        }
    }

    /// Appends entries to the payload.
    pub fn write_entries<T: Entry>(&mut self, entries: &[T]) -> Result<(), TableError> {
        if T::KIND != self.kind {
            return Err(TableError::request(
                &self.path,
                format!(
                    "{} entries written to a table of {}",
                    T::KIND.name(),
                    self.kind.name()
                ),
            ));
        }
        let bytes: &[u8] = bytemuck::cast_slice(entries);
        self.hash_payload(bytes);
        self.out
            .write_all(bytes)
            .map_err(|e| TableError::io(&self.tmp, e))
    }

    fn hash_payload(&mut self, bytes: &[u8]) {
        self.sums.update(bytes);
    }

    /// Completes the file (metadata, header), fsyncs it and renames it into
    /// place. Until this returns, no file exists under the final name.
    pub fn finish(mut self, meta: &TableMeta, param_hash: u64) -> Result<(), TableError> {
        let tail = Tail {
            tmp: &self.tmp,
            kind: self.kind,
            index_kind: self.index_kind,
            index: &self.index,
            keys: &self.keys,
            payload_at: self.payload_at,
        };
        let header = tail.write(&mut self.out, self.sums, meta, param_hash)?;
        let file = self
            .out
            .into_inner()
            .map_err(|e| TableError::io(&self.tmp, e.into_error()))?;
        seal(file, &header, &self.tmp, &self.path)?;
        self.guard.armed = false;
        Ok(())
    }
}

/// A ranking table whose entries are written in any order, each range
/// once or more, straight into the file: a solver that finishes its table
/// piece by piece never holds it whole. Entries never written read as
/// zero. The checksums are made in `finish` by reading the payload back in
/// order, so the file is the same bytes as [`write_ranked`] of the same
/// entries.
pub struct PositionedWriter {
    path: PathBuf,
    tmp: PathBuf,
    guard: TmpGuard,
    file: File,
    kind: EntryKind,
    entries: u64,
    payload_at: u64,
}

impl PositionedWriter {
    /// A table of `entries` entries of `kind`, all zero, under a temporary
    /// name of its own (`PATH.<kind>.tmp`: a writer of another kind for
    /// the same table may exist beside it while one is copied into the
    /// other), renamed into place by `finish`.
    pub fn create(path: &Path, kind: EntryKind, entries: u64) -> Result<Self, TableError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(|e| TableError::io(dir, e))?;
        }
        let tmp = with_suffix(path, &format!(".{}.tmp", kind.name()));
        let (_, payload_at) = layout(0, 0);
        let len = entries
            .checked_mul(kind.width() as u64)
            .and_then(|n| n.checked_add(payload_at))
            .ok_or_else(|| TableError::request(path, format!("{entries} entries overflow")))?;
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)
            .map_err(|e| TableError::io(&tmp, e))?;
        let guard = TmpGuard {
            path: tmp.clone(),
            armed: true,
        };
        // A sparse file: the zeros cost no disk until written.
        file.set_len(len).map_err(|e| TableError::io(&tmp, e))?;
        Ok(PositionedWriter {
            path: path.to_path_buf(),
            tmp,
            guard,
            file,
            kind,
            entries,
            payload_at,
        })
    }

    /// Entries in the table.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// The entries' kind.
    pub fn kind(&self) -> EntryKind {
        self.kind
    }

    /// Where entries `first..first + count` are in the file, once their
    /// type and range are checked.
    fn span<T: Entry>(&self, first: u64, count: usize) -> Result<u64, TableError> {
        if T::KIND != self.kind {
            return Err(TableError::request(
                &self.path,
                format!(
                    "{} entries for a table of {}",
                    T::KIND.name(),
                    self.kind.name()
                ),
            ));
        }
        match first.checked_add(count as u64) {
            Some(end) if end <= self.entries => {
                Ok(self.payload_at + first * self.kind.width() as u64)
            }
            _ => Err(TableError::request(
                &self.path,
                format!(
                    "entries {first}..+{count} are past the table's {}",
                    self.entries
                ),
            )),
        }
    }

    /// Writes `entries` from entry `first` on.
    pub fn write_at<T: Entry>(&self, first: u64, entries: &[T]) -> Result<(), TableError> {
        use std::os::unix::fs::FileExt;
        let at = self.span::<T>(first, entries.len())?;
        self.file
            .write_all_at(bytemuck::cast_slice(entries), at)
            .map_err(|e| TableError::io(&self.tmp, e))
    }

    /// Reads entries from entry `first` on into `out`.
    pub fn read_at<T: Entry>(&self, first: u64, out: &mut [T]) -> Result<(), TableError> {
        use std::os::unix::fs::FileExt;
        let at = self.span::<T>(first, out.len())?;
        self.file
            .read_exact_at(bytemuck::cast_slice_mut(out), at)
            .map_err(|e| TableError::io(&self.tmp, e))
    }

    /// Checksums the payload, writes what follows it and the header, syncs
    /// the file and renames it into place.
    pub fn finish(mut self, meta: &TableMeta, param_hash: u64) -> Result<(), TableError> {
        use std::io::Read;
        let io = |e| TableError::io(&self.tmp, e);
        let mut sums = PayloadSums::new();
        self.file
            .seek(SeekFrom::Start(self.payload_at))
            .map_err(io)?;
        let mut rest = self.entries * self.kind.width() as u64;
        let mut buf = vec![0u8; 1 << 22];
        while rest > 0 {
            let n = rest.min(buf.len() as u64) as usize;
            self.file.read_exact(&mut buf[..n]).map_err(io)?;
            sums.update(&buf[..n]);
            rest -= n as u64;
        }
        let tail = Tail {
            tmp: &self.tmp,
            kind: self.kind,
            index_kind: IndexKind::Ranking,
            index: &[],
            keys: &[],
            payload_at: self.payload_at,
        };
        let mut out = BufWriter::new(&self.file);
        let header = tail.write(&mut out, sums, meta, param_hash)?;
        out.flush().map_err(io)?;
        drop(out);
        seal(self.file, &header, &self.tmp, &self.path)?;
        self.guard.armed = false;
        Ok(())
    }
}

/// Makes a rename durable. Failure only weakens crash durability, not
/// correctness (a lost rename means the table is rebuilt), so it is ignored.
pub fn sync_parent(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

/// Writes a whole ranking-indexed table in one call.
pub fn write_ranked<T: Entry>(
    path: &Path,
    entries: &[T],
    meta: &TableMeta,
    param_hash: u64,
) -> Result<(), TableError> {
    let mut w = TableWriter::create(path, T::KIND)?;
    w.write_entries(entries)?;
    w.finish(meta, param_hash)
}

/// Writes a whole perfect-hash table: `values[i]` belongs to `keys[i]`.
pub fn write_hashed<T: Entry>(
    path: &Path,
    keys: &[u64],
    values: &[T],
    meta: &TableMeta,
    param_hash: u64,
) -> Result<(), TableError> {
    if keys.len() != values.len() {
        return Err(TableError::request(
            path,
            format!("{} keys but {} values", keys.len(), values.len()),
        ));
    }
    let (mut w, slots) = TableWriter::create_hashed(path, T::KIND, keys)?;
    let mut by_slot = vec![T::zeroed(); values.len()];
    for (v, &s) in values.iter().zip(&slots) {
        by_slot[s as usize] = *v;
    }
    w.write_entries(&by_slot)?;
    w.finish(meta, param_hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> TableMeta {
        TableMeta::new(
            "t",
            "t",
            serde_json::json!({}),
            "test",
            "u16",
            serde_json::json!({}),
        )
    }

    #[test]
    fn a_table_written_out_of_order_is_the_same_bytes_as_one_written_at_once() {
        let dir = tempfile::tempdir().unwrap();
        // Past one checksum block, so the block sums are compared too.
        let n = (3usize << DEFAULT_BLOCK_SHIFT) / 2 + 12_345;
        let entries: Vec<u16> = (0..n).map(|i| (i % 7 * 3 + i / 1000) as u16).collect();
        let whole = dir.path().join("whole.nimrod");
        write_ranked(&whole, &entries, &meta(), 9).unwrap();
        let pieces = dir.path().join("pieces.nimrod");
        let w = PositionedWriter::create(&pieces, EntryKind::U16, n as u64).unwrap();
        // Backwards, in uneven ranges; the zeros are left unwritten.
        let mut end = n;
        while end > 0 {
            let start = end.saturating_sub(77_777);
            let part: Vec<u16> = entries[start..end].to_vec();
            let first_nonzero = part.iter().position(|&x| x != 0).unwrap_or(part.len());
            w.write_at((start + first_nonzero) as u64, &part[first_nonzero..])
                .unwrap();
            end = start;
        }
        let mut back = vec![0u16; 100];
        w.read_at(500, &mut back).unwrap();
        assert_eq!(back, entries[500..600]);
        assert!(
            w.write_at(n as u64 - 1, &[1u16, 2]).is_err(),
            "past the end"
        );
        assert!(w.write_at(0, &[1u8]).is_err(), "wrong kind");
        w.finish(&meta(), 9).unwrap();
        assert_eq!(fs::read(&whole).unwrap(), fs::read(&pieces).unwrap());
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 2, "no temporary file is left");
    }

    #[test]
    fn a_positioned_writer_dropped_unfinished_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.nimrod");
        let w = PositionedWriter::create(&path, EntryKind::U8, 1000).unwrap();
        w.write_at(10, &[3u8; 5]).unwrap();
        drop(w);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_resumed_table_is_the_same_bytes_as_one_written_at_once() {
        let dir = tempfile::tempdir().unwrap();
        // Past two checksum blocks, so the rebuilt block sums are tested.
        let values: Vec<u16> = (0..300_000u32).map(|i| (i * 7919 % 65521) as u16).collect();
        let whole = dir.path().join("whole.nmt");
        write_ranked(&whole, &values, &meta(), 9).unwrap();

        let path = dir.path().join("resumed.nmt");
        let cut = 150_001;
        {
            let mut w = TableWriter::create_resumable(&path, EntryKind::U16).unwrap();
            w.write_entries(&values[..cut]).unwrap();
            w.sync().unwrap();
            // Written after the checkpoint's count: cut off on resume.
            w.write_entries(&values[cut..cut + 777]).unwrap();
            w.sync().unwrap();
        }
        assert!(
            partial_path(&path).exists(),
            "an unfinished resumable table stays"
        );
        let mut w = TableWriter::resume(&path, EntryKind::U16, cut as u64).unwrap();
        assert_eq!(w.entries(), cut as u64);
        w.write_entries(&values[cut..]).unwrap();
        w.finish(&meta(), 9).unwrap();
        assert_eq!(
            std::fs::read(&whole).unwrap(),
            std::fs::read(&path).unwrap()
        );
        assert!(!partial_path(&path).exists());

        // A checkpoint counting more entries than the file holds is refused.
        let mut w = TableWriter::create_resumable(&path, EntryKind::U16).unwrap();
        w.write_entries(&values[..10]).unwrap();
        w.sync().unwrap();
        drop(w);
        let err = TableWriter::resume(&path, EntryKind::U16, 11)
            .err()
            .unwrap();
        assert!(
            err.to_string().contains("the checkpoint counts 22"),
            "{err}"
        );
    }
}
