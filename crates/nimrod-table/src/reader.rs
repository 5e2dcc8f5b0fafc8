//! Opening and reading a table. `open` is cheap and checks structure (magic,
//! version, header checksum, section bounds and overlaps) and the checksum
//! of everything but the payload (metadata, index, keys, block sums). The
//! payload is checked lazily: the first read from a block checks that block
//! against its sum, once per block per open table, so an answer never comes
//! from damaged bytes and a query pays only for the blocks it touches.
//! `verify` checks everything, including that each key hashes to its slot.

use crate::error::TableError;
use crate::format::{Header, HeaderProblem, IndexKind, TableMeta, HEADER_LEN};
use crate::mph::PerfectHash;
use crate::pack::{PackedFile, ZSTD_MAGIC};
use crate::source::ByteSource;
use crate::writer::Entry;
use std::borrow::Cow;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use xxhash_rust::xxh3::Xxh3;

/// Metadata larger than this is treated as corruption rather than allocated.
const MAX_META_LEN: u64 = 64 << 20;

/// An open, checked table: header, metadata and index checked at open,
/// each payload block checked the first time it is read.
///
/// ```
/// use nimrod_table::{writer::write_ranked, Table, TableMeta};
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("squares.nmt");
/// let squares: Vec<u32> = (0..100).map(|i| i * i).collect();
/// let meta = TableMeta::new("demo", "squares", serde_json::json!({"n": 100}),
///     "identity", "u32 square of the slot", serde_json::json!({}));
/// write_ranked(&path, &squares, &meta, 1)?;
///
/// let table = Table::open(&path)?;
/// assert_eq!(table.get::<u32>(12)?, 144);
/// assert_eq!(table.meta().table, "squares");
/// // Asking for the wrong entry type is the caller's mistake, not damage.
/// assert!(matches!(table.get::<u8>(0), Err(nimrod_table::TableError::Request { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Table {
    path: PathBuf,
    src: Box<dyn ByteSource>,
    header: Header,
    meta: TableMeta,
    mph: Option<PerfectHash>,
    block_sums: BlockSums,
    /// One bit per payload block, set once the block matched its sum.
    checked: Vec<AtomicU64>,
}

/// Each payload block's checksum: read in place from a source that is one
/// slice (a mapped file: opening a table of 2^32 entries then copies none
/// of its 16 MiB of sums), else copied out once at open.
enum BlockSums {
    /// The little-endian sums start at this file offset.
    InPlace(usize),
    Copied(Vec<u64>),
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish()
    }
}

impl Table {
    /// Opens a raw table (memory-mapped) or a packed one (`nimrod pack`),
    /// recognised by its content, not its name.
    ///
    /// The file is memory-mapped. nimrod never changes a table file in
    /// place (a rebuild writes a new file and renames it over the name, and
    /// an open table keeps reading the old one), so the bytes cannot change
    /// under a reader. Another program that truncates or rewrites the file
    /// in place breaks that: reading past a truncation ends the process
    /// with SIGBUS, and bytes rewritten in place are caught by the block
    /// checksums only for blocks not yet checked. Replace tables by rename,
    /// as nimrod does, or read them with [`Table::from_bytes`].
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let map = map_file(path)?;
        let src: Box<dyn ByteSource> = if is_packed(&map) {
            Box::new(PackedFile::new(map).map_err(|e| TableError::corrupt(path, e.to_string()))?)
        } else {
            Box::new(map)
        };
        Table::from_source(path, src)
    }

    /// As [`Table::open`], but a packed table is decompressed whole into
    /// memory (each frame checked against its size and checksum as it is
    /// decompressed, as `unpack` does), so that random reads cost no
    /// decompression; a raw table is memory-mapped as by `open`. Memory:
    /// the table's raw size.
    pub fn open_unpacked(path: &Path) -> Result<Table, TableError> {
        let map = map_file(path)?;
        if !is_packed(&map) {
            return Table::from_source(path, Box::new(map));
        }
        let packed = PackedFile::new(map).map_err(|e| TableError::corrupt(path, e.to_string()))?;
        let mut raw = Vec::new();
        packed
            .unpack_to(&mut raw)
            .map_err(|e| TableError::corrupt(path, e.to_string()))?;
        Table::from_source(path, Box::new(raw))
    }

    /// See `ByteSource::advise_random`: for a reader that probes a few
    /// entries of a table that may not be in memory.
    pub fn advise_random(&self) {
        self.src.advise_random();
    }

    /// See `ByteSource::release_resident_pages`.
    pub fn release_resident_pages(&self) {
        self.src.release_resident_pages();
    }

    /// Reads a table held in memory; `name` is used in error messages.
    pub fn from_bytes(name: &Path, bytes: Vec<u8>) -> Result<Table, TableError> {
        if is_packed(&bytes) {
            let packed =
                PackedFile::new(bytes).map_err(|e| TableError::corrupt(name, e.to_string()))?;
            return Table::from_source(name, Box::new(packed));
        }
        Table::from_source(name, Box::new(bytes))
    }

    /// Opens a table from any byte source; `path` names it in errors.
    pub fn from_source(path: &Path, src: Box<dyn ByteSource>) -> Result<Table, TableError> {
        let file_len = src.len();
        let mut head = vec![0u8; (HEADER_LEN as u64).min(file_len) as usize];
        src.read_at(0, &mut head)
            .map_err(|e| TableError::corrupt(path, e.to_string()))?;
        let header = Header::decode(&head, file_len).map_err(|p| match p {
            HeaderProblem::Short => TableError::truncated(
                path,
                format!("{file_len} bytes is shorter than the {HEADER_LEN}-byte header"),
            ),
            HeaderProblem::Magic if crate::shipped::is_shipped(&head) => TableError::Shipped {
                path: path.to_path_buf(),
            },
            HeaderProblem::Magic => TableError::Foreign {
                path: path.to_path_buf(),
            },
            HeaderProblem::Version(v) => TableError::Version {
                path: path.to_path_buf(),
                found: v,
                expected: crate::FORMAT_VERSION,
            },
            HeaderProblem::PastEnd(what) => TableError::truncated(path, what),
            HeaderProblem::Invalid(what) => TableError::corrupt(path, what),
        })?;
        if header.meta.len > MAX_META_LEN {
            return Err(TableError::corrupt(
                path,
                "metadata section is implausibly large",
            ));
        }
        let mut meta_bytes = vec![0u8; header.meta.len as usize];
        src.read_at(header.meta.offset, &mut meta_bytes)
            .map_err(|e| TableError::corrupt(path, e.to_string()))?;
        let meta: TableMeta = serde_json::from_slice(&meta_bytes)
            .map_err(|e| TableError::corrupt(path, format!("metadata is not valid: {e}")))?;
        let mph = match header.index_kind {
            IndexKind::Ranking => None,
            IndexKind::PerfectHash => {
                let ph = PerfectHash::parse(src.as_ref(), header.index.offset, header.index.len)
                    .map_err(|e| TableError::corrupt(path, e.to_string()))?;
                if ph.key_count() != header.entry_count {
                    return Err(TableError::corrupt(
                        path,
                        "perfect hash key count differs from the entry count",
                    ));
                }
                Some(ph)
            }
        };
        let blocks = header.block_count();
        // A one-slice source keeps its sums where they lie; any other
        // copies them once (and the aux checksum hashes that copy).
        let (block_sums, copied_sums) = match src.as_slice() {
            Some(_) => (BlockSums::InPlace(header.block_sums.offset as usize), None),
            None => {
                let mut bytes = vec![0u8; header.block_sums.len as usize];
                src.read_at(header.block_sums.offset, &mut bytes)
                    .map_err(|e| TableError::corrupt(path, e.to_string()))?;
                let sums = bytes
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().expect("8-byte chunk")))
                    .collect();
                (BlockSums::Copied(sums), Some(bytes))
            }
        };
        let table = Table {
            path: path.to_path_buf(),
            src,
            header,
            meta,
            mph,
            block_sums,
            checked: (0..blocks.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        };
        // The metadata, index, keys and block sums are checked at every
        // open: they are small next to the payload, and a reader trusts them
        // for every answer (parameters, sizes, slots, the payload's sums).
        let mut aux = Xxh3::new();
        aux.update(&meta_bytes);
        table.checksum(table.header.index.offset, table.header.index.len, &mut aux)?;
        table.checksum(table.header.keys.offset, table.header.keys.len, &mut aux)?;
        match &copied_sums {
            Some(bytes) => aux.update(bytes),
            None => table.checksum(
                table.header.block_sums.offset,
                table.header.block_sums.len,
                &mut aux,
            )?,
        }
        if aux.digest() != table.header.aux_checksum {
            return Err(table.corrupt("metadata/index checksum mismatch"));
        }
        Ok(table)
    }

    /// The file's bytes before the payload (header, index, keys), read
    /// into `buf` (as long as the payload's offset).
    pub fn read_prefix(&self, buf: &mut [u8]) -> Result<(), TableError> {
        if buf.len() as u64 != self.header.payload.offset {
            return Err(self.request("the prefix is the bytes before the payload"));
        }
        self.src
            .read_at(0, buf)
            .map_err(|e| self.corrupt(e.to_string()))
    }

    /// The metadata section's bytes, as stored.
    pub fn meta_bytes(&self) -> Result<Vec<u8>, TableError> {
        let mut b = vec![0u8; self.header.meta.len as usize];
        self.src
            .read_at(self.header.meta.offset, &mut b)
            .map_err(|e| self.corrupt(e.to_string()))?;
        Ok(b)
    }

    /// The file the table was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// The decoded header.
    pub fn header(&self) -> &Header {
        &self.header
    }
    /// The metadata.
    pub fn meta(&self) -> &TableMeta {
        &self.meta
    }
    /// Entries in the table.
    pub fn len(&self) -> u64 {
        self.header.entry_count
    }
    /// Whether the table has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// How the bytes are held ("memory-mapped", "packed", …).
    pub fn storage(&self) -> &'static str {
        self.src.describe()
    }

    fn corrupt(&self, what: impl Into<String>) -> TableError {
        TableError::corrupt(&self.path, what)
    }

    fn request(&self, what: impl Into<String>) -> TableError {
        TableError::request(&self.path, what)
    }

    fn check_kind<T: Entry>(&self) -> Result<(), TableError> {
        if T::KIND != self.header.entry_kind {
            return Err(self.request(format!(
                "entries are {}, the reader expected {}",
                self.header.entry_kind.name(),
                T::KIND.name()
            )));
        }
        Ok(())
    }

    /// Checks, once per block per open table, the payload blocks holding
    /// payload bytes `start..end` against their sums.
    fn check_blocks(&self, start: u64, end: u64) -> Result<(), TableError> {
        if start >= end {
            return Ok(());
        }
        let shift = self.header.block_shift;
        for block in start >> shift..=(end - 1) >> shift {
            let (word, bit) = ((block / 64) as usize, 1u64 << (block % 64));
            if self.checked[word].load(Ordering::Acquire) & bit == 0 {
                self.check_block(block, None)?;
            }
        }
        Ok(())
    }

    /// Checks one payload block against its sum, feeding its bytes to
    /// `whole` too when given (so `verify` reads the payload once), and
    /// marks it checked.
    fn check_block(&self, block: u64, whole: Option<&mut Xxh3>) -> Result<(), TableError> {
        let shift = self.header.block_shift;
        let at = block << shift;
        let len = (1u64 << shift).min(self.header.payload.len - at);
        let offset = self.header.payload.offset + at;
        let owned;
        let bytes: &[u8] = match self.src.as_slice() {
            Some(all) => &all[offset as usize..(offset + len) as usize],
            None => {
                let mut buf = vec![0u8; len as usize];
                self.src
                    .read_at(offset, &mut buf)
                    .map_err(|e| self.corrupt(e.to_string()))?;
                owned = buf;
                &owned
            }
        };
        if let Some(h) = whole {
            h.update(bytes);
        }
        if xxhash_rust::xxh3::xxh3_64(bytes) != self.block_sum(block) {
            let width = self.header.entry_kind.width() as u64;
            return Err(self.corrupt(format!(
                "payload block {block} (entries {}..{}) does not match its checksum",
                at / width,
                (at + len) / width
            )));
        }
        let (word, bit) = ((block / 64) as usize, 1u64 << (block % 64));
        self.checked[word].fetch_or(bit, Ordering::Release);
        Ok(())
    }

    /// Payload byte range of entries `start..start + count`, checked.
    fn entry_bytes<T: Entry>(&self, start: u64, count: u64) -> Result<(u64, u64), TableError> {
        self.check_kind::<T>()?;
        match start.checked_add(count) {
            Some(end) if end <= self.len() => {}
            _ => {
                return Err(self.request(format!(
                    "entries {start}..{} requested, the table has {}",
                    start.saturating_add(count),
                    self.len()
                )))
            }
        }
        let width = std::mem::size_of::<T>() as u64;
        let (from, to) = (start * width, (start + count) * width);
        self.check_blocks(from, to)?;
        Ok((self.header.payload.offset + from, to - from))
    }

    /// Entry at `slot`; an error (not a panic) when out of range or when
    /// its block is damaged.
    pub fn get<T: Entry>(&self, slot: u64) -> Result<T, TableError> {
        let (at, len) = self.entry_bytes::<T>(slot, 1)?;
        if let Some(all) = self.src.as_slice() {
            // A plain load: a one-entry memcpy call costs several times
            // more than the read itself.
            return Ok(bytemuck::pod_read_unaligned(
                &all[at as usize..(at + len) as usize],
            ));
        }
        let mut v = T::zeroed();
        self.src
            .read_at(at, bytemuck::bytes_of_mut(&mut v))
            .map_err(|e| self.corrupt(e.to_string()))?;
        Ok(v)
    }

    /// `count` entries from `start`, copied out.
    pub fn read_range<T: Entry>(&self, start: u64, count: u64) -> Result<Vec<T>, TableError> {
        let (at, _) = self.entry_bytes::<T>(start, count)?;
        let mut out = vec![T::zeroed(); count as usize];
        self.src
            .read_at(at, bytemuck::cast_slice_mut(&mut out))
            .map_err(|e| self.corrupt(e.to_string()))?;
        Ok(out)
    }

    /// `count` entries from `start`: borrowed from the map when the table
    /// is memory-mapped (or in memory and aligned), copied otherwise.
    pub fn view<T: Entry>(&self, start: u64, count: u64) -> Result<Cow<'_, [T]>, TableError> {
        let (at, len) = self.entry_bytes::<T>(start, count)?;
        if let Some(all) = self
            .src
            .as_slice()
            .filter(|_| cfg!(target_endian = "little"))
        {
            if let Ok(s) = bytemuck::try_cast_slice(&all[at as usize..(at + len) as usize]) {
                return Ok(Cow::Borrowed(s));
            }
        }
        self.read_range(start, count).map(Cow::Owned)
    }

    /// Zero-copy view of every entry, when the table is memory-mapped (or in
    /// memory and aligned); checks every block not yet checked first. Packed
    /// tables give None: use `read_range` or `view`.
    pub fn entries<T: Entry>(&self) -> Result<Option<&[T]>, TableError> {
        if T::KIND != self.header.entry_kind || cfg!(target_endian = "big") {
            return Ok(None);
        }
        let Some(all) = self.src.as_slice() else {
            return Ok(None);
        };
        self.check_blocks(0, self.header.payload.len)?;
        let p = &all[self.header.payload.offset as usize..][..self.header.payload.len as usize];
        Ok(bytemuck::try_cast_slice(p).ok())
    }

    /// Slot of `key` in a perfect-hash table: None when the key is not a
    /// member (the stored key of the candidate slot differs).
    pub fn slot_of_key(&self, key: u64) -> Result<Option<u64>, TableError> {
        let Some(ph) = &self.mph else {
            return Err(self.request("key lookup on a table without a perfect hash"));
        };
        let Some(slot) = ph
            .candidate_slot(self.src.as_ref(), key)
            .map_err(|e| self.corrupt(e.to_string()))?
        else {
            return Ok(None);
        };
        Ok((self.key_at(slot)? == key).then_some(slot))
    }

    /// Value stored under `key` in a perfect-hash table.
    pub fn get_by_key<T: Entry>(&self, key: u64) -> Result<Option<T>, TableError> {
        match self.slot_of_key(key)? {
            Some(slot) => self.get(slot).map(Some),
            None => Ok(None),
        }
    }

    /// The key stored at `slot` of a perfect-hash table.
    pub fn key_at(&self, slot: u64) -> Result<u64, TableError> {
        if self.mph.is_none() {
            return Err(self.request("key lookup on a table without a perfect hash"));
        }
        if slot >= self.len() {
            return Err(self.request(format!(
                "no key slot {slot}: the table has {} slots",
                self.len()
            )));
        }
        let mut b = [0u8; 8];
        self.src
            .read_at(self.header.keys.offset + 8 * slot, &mut b)
            .map_err(|e| self.corrupt(e.to_string()))?;
        Ok(u64::from_le_bytes(b))
    }

    /// Every key of a perfect-hash table, in slot order.
    pub fn keys(&self) -> Result<Vec<u64>, TableError> {
        (0..self.len()).map(|s| self.key_at(s)).collect()
    }

    /// The stored checksum of payload block `block` (< the block count,
    /// which the header's section sizes were checked against at open).
    fn block_sum(&self, block: u64) -> u64 {
        match &self.block_sums {
            BlockSums::Copied(sums) => sums[block as usize],
            BlockSums::InPlace(at) => {
                let all = self
                    .src
                    .as_slice()
                    .expect("in-place sums need a slice source");
                let at = at + 8 * block as usize;
                u64::from_le_bytes(all[at..at + 8].try_into().expect("8 bytes"))
            }
        }
    }

    fn checksum(&self, offset: u64, len: u64, h: &mut Xxh3) -> Result<(), TableError> {
        if len == 0 {
            return Ok(());
        }
        if let Some(all) = self.src.as_slice() {
            // Hashed where it lies: no copy, and only the pages read.
            h.update(&all[offset as usize..(offset + len) as usize]);
            return Ok(());
        }
        let mut buf = vec![0u8; len.min(1 << 20) as usize];
        let mut done = 0;
        while done < len {
            let n = (len - done).min(buf.len() as u64) as usize;
            self.src
                .read_at(offset + done, &mut buf[..n])
                .map_err(|e| self.corrupt(e.to_string()))?;
            h.update(&buf[..n]);
            done += n as u64;
        }
        Ok(())
    }

    /// The bytes between the header and the sections and between sections
    /// (alignment padding, at most a few KiB) are zero, as the writer
    /// leaves them: no checksum covers them, so this is what accounts for
    /// every byte of the file.
    fn check_padding(&self) -> Result<(), TableError> {
        let h = &self.header;
        let mut sections: Vec<(u64, u64)> = [h.meta, h.index, h.keys, h.payload, h.block_sums]
            .iter()
            .filter(|s| s.len > 0)
            .map(|s| (s.offset, s.offset + s.len))
            .collect();
        sections.sort_unstable();
        let mut at = HEADER_LEN as u64;
        for (start, end) in sections {
            if start > at {
                let mut gap = vec![0u8; (start - at) as usize];
                self.src
                    .read_at(at, &mut gap)
                    .map_err(|e| self.corrupt(format!("cannot read bytes {at}..{start}: {e}")))?;
                if let Some(i) = gap.iter().position(|&b| b != 0) {
                    return Err(self.corrupt(format!(
                        "padding byte at offset {} is {:#04x}, not zero",
                        at + i as u64,
                        gap[i]
                    )));
                }
            }
            at = at.max(end);
        }
        Ok(())
    }

    /// Full integrity check: checksums, zero padding, and for perfect-hash
    /// tables that every stored key hashes to its own slot.
    pub fn verify(&self) -> Result<(), TableError> {
        // Metadata, index, keys and block sums were checked at open (the
        // only way to a `Table`); the payload is read here once, for both
        // its block sums and its whole checksum.
        let h = &self.header;
        let mut payload = Xxh3::new();
        for block in 0..h.block_count() {
            self.check_block(block, Some(&mut payload))?;
        }
        if payload.digest() != h.payload_checksum {
            return Err(self.corrupt("payload checksum mismatch"));
        }
        self.check_padding()?;
        if let Some(ph) = &self.mph {
            let ones = ph
                .ones(self.src.as_ref())
                .map_err(|e| self.corrupt(e.to_string()))?;
            if ones != self.len() {
                return Err(self.corrupt("perfect hash bit count differs from the entry count"));
            }
            for slot in 0..self.len() {
                let key = self.key_at(slot)?;
                if self.slot_of_key(key)? != Some(slot) {
                    return Err(self.corrupt(format!("key {key} does not hash to its slot {slot}")));
                }
            }
        }
        Ok(())
    }
}

/// Whether `bytes` are a packed table (`nimrod pack`): a zstd frame first.
fn is_packed(bytes: &[u8]) -> bool {
    bytes.starts_with(&ZSTD_MAGIC)
}

/// The file at `path`, memory-mapped read-only (see [`Table::open`] for why
/// that is sound), after checking it is a non-empty regular file.
pub(crate) fn map_file(path: &Path) -> Result<memmap2::Mmap, TableError> {
    // Checked before opening: opening a FIFO for reading blocks until
    // someone writes to it, and a directory opens but cannot be mapped.
    let kind = std::fs::metadata(path)
        .map_err(|e| TableError::io(path, e))?
        .file_type();
    if !kind.is_file() {
        let what = if kind.is_dir() {
            "a directory"
        } else {
            "a FIFO, socket or device"
        };
        return Err(TableError::NotAFile {
            path: path.to_path_buf(),
            what,
        });
    }
    let file = File::open(path).map_err(|e| TableError::io(path, e))?;
    let len = file.metadata().map_err(|e| TableError::io(path, e))?.len();
    if len == 0 {
        return Err(TableError::truncated(path, "the file is empty"));
    }
    // SAFETY: the map is read-only and tables are never modified in
    // place: writers create a new file and rename it over the old name,
    // so the mapped inode's contents do not change while we hold it.
    // Every read through the map is bounds-checked by `ByteSource`.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| TableError::io(path, e))?;
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::DEFAULT_BLOCK_SHIFT;
    use crate::writer::write_ranked;

    fn ranked_bytes(n: u32) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.nmt");
        let values: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        let meta = TableMeta::new(
            "t",
            "t",
            serde_json::json!({}),
            "test",
            "u32",
            serde_json::json!({}),
        );
        write_ranked(&p, &values, &meta, 7).unwrap();
        std::fs::read(p).unwrap()
    }

    #[test]
    fn a_damaged_block_fails_only_the_reads_that_touch_it() {
        let bytes = ranked_bytes(40_000);
        let t = Table::from_bytes(Path::new("t"), bytes.clone()).unwrap();
        let per_block = (1u64 << DEFAULT_BLOCK_SHIFT) / 4;
        assert!(t.header().block_count() >= 9);
        let mut bad = bytes;
        let at = t.header().payload.offset as usize + 4 * (2 * per_block as usize + 5);
        bad[at] ^= 0x10;
        let t = Table::from_bytes(Path::new("t"), bad).unwrap();
        assert_eq!(t.get::<u32>(3).unwrap(), 3u32.wrapping_mul(2_654_435_761));
        for slot in [2 * per_block, 2 * per_block + 5, 3 * per_block - 1] {
            let e = t.get::<u32>(slot).unwrap_err().to_string();
            assert!(e.contains("payload block 2 "), "{e}");
        }
        assert!(t.read_range::<u32>(per_block - 1, 2).is_ok());
        assert!(t.read_range::<u32>(per_block, per_block + 1).is_err());
        assert!(t.view::<u32>(0, 3 * per_block).is_err());
        assert!(t.entries::<u32>().is_err());
        assert!(t.verify().is_err());
        assert_eq!(
            t.get::<u32>(3 * per_block).unwrap(),
            (3 * per_block as u32).wrapping_mul(2_654_435_761)
        );
    }

    /// The block sums are read in place from a file map (or any one-slice
    /// source) and copied from a packed one: either way a changed sum is
    /// refused at open, and a sum read in place still catches its block.
    #[test]
    fn block_sums_in_place_or_copied_are_checked_at_open() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = ranked_bytes(40_000);
        let t = Table::from_bytes(Path::new("t"), bytes.clone()).unwrap();
        assert!(matches!(t.block_sums, BlockSums::InPlace(_)));
        let sums_at = t.header().block_sums.offset as usize;
        let per_block = (1u64 << DEFAULT_BLOCK_SHIFT) / 4;
        let mut bad_sum = bytes.clone();
        bad_sum[sums_at + 8 * 3 + 2] ^= 0x01;
        let raw_path = dir.path().join("t.nmt");
        std::fs::write(&raw_path, &bad_sum).unwrap();
        let e = Table::open(&raw_path).unwrap_err().to_string();
        assert!(
            e.contains("t.nmt") && e.contains("metadata/index checksum mismatch"),
            "{e}"
        );
        let packed = crate::pack::pack_bytes(&bad_sum, 3, 4096).unwrap();
        let e = Table::from_bytes(Path::new("p"), packed)
            .unwrap_err()
            .to_string();
        assert!(e.contains("metadata/index checksum mismatch"), "{e}");
        let good = Table::from_bytes(
            Path::new("p"),
            crate::pack::pack_bytes(&bytes, 3, 4096).unwrap(),
        )
        .unwrap();
        assert!(matches!(good.block_sums, BlockSums::Copied(_)));
        // Each block's sum, in place and copied, is the one it was written with.
        std::fs::write(&raw_path, &bytes).unwrap();
        let mapped = Table::open(&raw_path).unwrap();
        for block in 0..mapped.header().block_count() {
            assert_eq!(mapped.block_sum(block), good.block_sum(block));
        }
        assert!(mapped.verify().is_ok() && good.verify().is_ok());
        // A damaged payload block under in-place sums fails its reads.
        let mut bad_block = bytes;
        bad_block[t.header().payload.offset as usize + 4 * (3 * per_block as usize + 1)] ^= 0x40;
        std::fs::write(&raw_path, &bad_block).unwrap();
        let mapped = Table::open(&raw_path).unwrap();
        assert!(mapped
            .get::<u32>(3 * per_block)
            .unwrap_err()
            .to_string()
            .contains("payload block 3 "));
        assert!(mapped.get::<u32>(0).is_ok());
    }

    #[test]
    fn a_packed_table_opened_unpacked_reads_from_memory_and_a_bad_frame_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let raw_path = dir.path().join("t.nmt");
        let packed_path = dir.path().join("t.nmt.zst");
        let raw = ranked_bytes(40_000);
        std::fs::write(&raw_path, &raw).unwrap();
        let packed = crate::pack::pack_bytes(&raw, 3, 4096).unwrap();
        std::fs::write(&packed_path, &packed).unwrap();

        let mapped = Table::open_unpacked(&raw_path).unwrap();
        assert_eq!(mapped.storage(), "raw (memory-mapped)");
        let whole = Table::open_unpacked(&packed_path).unwrap();
        assert_eq!(whole.storage(), "memory");
        assert_eq!(
            Table::open(&packed_path).unwrap().storage(),
            "packed (zstd seekable)"
        );
        for slot in [0u64, 1, 9_999, 39_999] {
            assert_eq!(
                whole.get::<u32>(slot).unwrap(),
                mapped.get::<u32>(slot).unwrap()
            );
        }
        assert!(whole.verify().is_ok());

        // A byte in the middle of the compressed data changed: decompressing
        // the whole meets the damage at open, and the error names the file.
        let mut bad = packed;
        let at = bad.len() / 2;
        bad[at] ^= 0x5a;
        std::fs::write(&packed_path, &bad).unwrap();
        let e = Table::open_unpacked(&packed_path).unwrap_err().to_string();
        assert!(e.contains("t.nmt.zst") && e.contains("frame"), "{e}");
    }

    #[test]
    fn appended_bytes_and_overlapping_sections_are_refused() {
        let bytes = ranked_bytes(5000);
        let mut longer = bytes.clone();
        longer.extend_from_slice(b"garbage");
        let e = Table::from_bytes(Path::new("t"), longer)
            .unwrap_err()
            .to_string();
        assert!(e.contains("appended"), "{e}");
        let t = Table::from_bytes(Path::new("t"), bytes.clone()).unwrap();
        let mut h = t.header().clone();
        h.block_sums.offset = h.payload.offset + 8;
        let mut overlapping = bytes;
        overlapping[..HEADER_LEN].copy_from_slice(&h.encode());
        let e = Table::from_bytes(Path::new("t"), overlapping)
            .unwrap_err()
            .to_string();
        assert!(e.contains("overlaps"), "{e}");
    }
}
