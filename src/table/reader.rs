//! Opening and reading a table. `open` is cheap and checks structure (magic,
//! version, header checksum, section bounds, metadata); `verify` also checks
//! the payload and auxiliary checksums and the perfect hash.

use super::error::TableError;
use super::format::{Header, HeaderProblem, IndexKind, TableMeta, HEADER_LEN};
use super::mph::PerfectHash;
use super::pack::{PackedFile, ZSTD_MAGIC};
use super::source::ByteSource;
use super::writer::Entry;
use std::fs::File;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// Metadata larger than this is treated as corruption rather than allocated.
const MAX_META_LEN: u64 = 64 << 20;

pub struct Table {
    path: PathBuf,
    src: Box<dyn ByteSource>,
    header: Header,
    meta: TableMeta,
    mph: Option<PerfectHash>,
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
    pub fn open(path: &Path) -> Result<Table, TableError> {
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
        let src: Box<dyn ByteSource> = if map.len() >= 4 && map[0..4] == ZSTD_MAGIC {
            Box::new(PackedFile::new(map).map_err(|e| TableError::corrupt(path, e.to_string()))?)
        } else {
            Box::new(map)
        };
        Table::from_source(path, src)
    }

    /// See `ByteSource::release_resident_pages`.
    pub fn release_resident_pages(&self) {
        self.src.release_resident_pages();
    }

    /// Reads a table held in memory; `name` is used in error messages.
    pub fn from_bytes(name: &Path, bytes: Vec<u8>) -> Result<Table, TableError> {
        if bytes.len() >= 4 && bytes[0..4] == ZSTD_MAGIC {
            let packed =
                PackedFile::new(bytes).map_err(|e| TableError::corrupt(name, e.to_string()))?;
            return Table::from_source(name, Box::new(packed));
        }
        Table::from_source(name, Box::new(bytes))
    }

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
            HeaderProblem::Magic => TableError::Foreign {
                path: path.to_path_buf(),
            },
            HeaderProblem::Version(v) => TableError::Version {
                path: path.to_path_buf(),
                found: v,
                expected: super::FORMAT_VERSION,
            },
            HeaderProblem::Invalid(what) if what.contains("past the end") => {
                TableError::truncated(path, what)
            }
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
        let table = Table {
            path: path.to_path_buf(),
            src,
            header,
            meta,
            mph,
        };
        // The metadata, index and keys are checked at every open (the
        // payload only by `verify`): they are small next to the payload, and
        // a reader trusts them for every answer (parameters, sizes, slots).
        let mut aux = Xxh3::new();
        aux.update(&meta_bytes);
        table.checksum(table.header.index.offset, table.header.index.len, &mut aux)?;
        table.checksum(table.header.keys.offset, table.header.keys.len, &mut aux)?;
        if aux.digest() != table.header.aux_checksum {
            return Err(table.corrupt("metadata/index checksum mismatch"));
        }
        Ok(table)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
    pub fn header(&self) -> &Header {
        &self.header
    }
    pub fn meta(&self) -> &TableMeta {
        &self.meta
    }
    pub fn len(&self) -> u64 {
        self.header.entry_count
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn storage(&self) -> &'static str {
        self.src.describe()
    }

    fn corrupt(&self, what: impl Into<String>) -> TableError {
        TableError::corrupt(&self.path, what)
    }

    fn check_kind<T: Entry>(&self) -> Result<(), TableError> {
        if T::KIND != self.header.entry_kind {
            return Err(self.corrupt(format!(
                "entries are {}, the reader expected {}",
                self.header.entry_kind.name(),
                T::KIND.name()
            )));
        }
        Ok(())
    }

    /// Entry at `slot`; an error (not a panic) when out of range.
    pub fn get<T: Entry>(&self, slot: u64) -> Result<T, TableError> {
        let v = self.read_range::<T>(slot, 1)?;
        Ok(v[0])
    }

    /// `count` entries from `start`, copied out.
    pub fn read_range<T: Entry>(&self, start: u64, count: u64) -> Result<Vec<T>, TableError> {
        self.check_kind::<T>()?;
        match start.checked_add(count) {
            Some(end) if end <= self.len() => {}
            _ => {
                return Err(self.corrupt(format!(
                    "entries {start}..{} requested, the table has {}",
                    start.saturating_add(count),
                    self.len()
                )))
            }
        }
        let width = std::mem::size_of::<T>() as u64;
        let mut out = vec![T::zeroed(); count as usize];
        self.src
            .read_at(
                self.header.payload.offset + start * width,
                bytemuck::cast_slice_mut(&mut out),
            )
            .map_err(|e| self.corrupt(e.to_string()))?;
        Ok(out)
    }

    /// Zero-copy view of every entry, when the table is memory-mapped (or in
    /// memory and aligned). Packed tables return None: use `read_range`.
    pub fn entries<T: Entry>(&self) -> Option<&[T]> {
        if T::KIND != self.header.entry_kind || cfg!(target_endian = "big") {
            return None;
        }
        let all = self.src.as_slice()?;
        let p = &all[self.header.payload.offset as usize..][..self.header.payload.len as usize];
        bytemuck::try_cast_slice(p).ok()
    }

    /// Slot of `key` in a perfect-hash table: None when the key is not a
    /// member (the stored key of the candidate slot differs).
    pub fn slot_of_key(&self, key: u64) -> Result<Option<u64>, TableError> {
        let Some(ph) = &self.mph else {
            return Err(self.corrupt("key lookup on a table without a perfect hash"));
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

    pub fn key_at(&self, slot: u64) -> Result<u64, TableError> {
        if slot >= self.len() || self.mph.is_none() {
            return Err(self.corrupt(format!("no key slot {slot}")));
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

    fn checksum(&self, offset: u64, len: u64, h: &mut Xxh3) -> Result<(), TableError> {
        if len == 0 {
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

    /// Full integrity check: checksums, and for perfect-hash tables that
    /// every stored key hashes to its own slot.
    pub fn verify(&self) -> Result<(), TableError> {
        let h = &self.header;
        let mut payload = Xxh3::new();
        self.checksum(h.payload.offset, h.payload.len, &mut payload)?;
        if payload.digest() != h.payload_checksum {
            return Err(self.corrupt("payload checksum mismatch"));
        }
        let mut aux = Xxh3::new();
        for s in [h.meta, h.index, h.keys] {
            self.checksum(s.offset, s.len, &mut aux)?;
        }
        if aux.digest() != h.aux_checksum {
            return Err(self.corrupt("metadata/index checksum mismatch"));
        }
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
