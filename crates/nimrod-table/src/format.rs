//! On-disk layout of a table file. All integers are little-endian.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "NIMRODTB"
//!      8     4  format version (2)
//!     12     4  header length (160)
//!     16     1  entry kind (EntryKind)     17  1  entry width in bytes
//!     18     1  index kind (IndexKind)     19  1  log2 of the payload block size
//!     20     4  reserved (zero)
//!     24     8  entry count
//!     32    16  metadata   offset, length  (JSON, UTF-8)
//!     48    16  index      offset, length  (perfect-hash section, or 0,0)
//!     64    16  keys       offset, length  (u64 key per slot, or 0,0)
//!     80    16  payload    offset, length  (offset a multiple of 4096)
//!     96    16  block sums offset, length  (xxh3-64 of each payload block)
//!    112     8  parameter hash
//!    120     8  xxh3-64 of the payload
//!    128     8  xxh3-64 of metadata ‖ index ‖ keys ‖ block sums
//!    136    16  reserved (zero)
//!    152     8  xxh3-64 of header bytes 0..152
//! ```
//!
//! Sections never overlap and the last one ends at the end of the file.
//! The payload is cut into blocks of 2^shift bytes (the last one may be
//! shorter); a reader checks a block against its sum the first time it
//! reads from it, so no answer comes from a damaged block.

use serde::{Deserialize, Serialize};

/// The first eight bytes of every raw table file.
pub const MAGIC: [u8; 8] = *b"NIMRODTB";
/// The format version this build writes and reads; bumped whenever the
/// bytes of any table would change.
pub const FORMAT_VERSION: u32 = 2;
/// Bytes in the fixed header.
pub const HEADER_LEN: usize = 160;
/// The payload starts on a multiple of this (one page), so it can be
/// memory-mapped and cast to entries without copying.
pub const PAYLOAD_ALIGN: u64 = 4096;
/// Payload block size the writer uses: 4 KiB, one page, so that checking
/// a block the first time it is read costs about what faulting it in does.
/// (16 KiB blocks measured 2-4 ms slower on cold single queries: four
/// pages read where one was needed. The price is 8 bytes of sums per 4 KiB,
/// read and checked at open.)
pub const DEFAULT_BLOCK_SHIFT: u8 = 12;
/// Block sizes a reader accepts (4 KiB ..= 16 MiB).
pub const BLOCK_SHIFTS: std::ops::RangeInclusive<u8> = 12..=24;
const CHECKSUMMED_LEN: usize = HEADER_LEN - 8;

/// Type of one payload entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    /// Unsigned 8-bit.
    U8 = 1,
    /// Unsigned 16-bit.
    U16 = 2,
    /// Unsigned 32-bit.
    U32 = 3,
    /// Unsigned 64-bit.
    U64 = 4,
    /// Signed 8-bit.
    I8 = 5,
    /// Signed 16-bit.
    I16 = 6,
    /// Signed 32-bit.
    I32 = 7,
    /// Signed 64-bit.
    I64 = 8,
    /// IEEE 754 single precision.
    F32 = 9,
    /// IEEE 754 double precision.
    F64 = 10,
}

impl EntryKind {
    /// Bytes per entry.
    pub fn width(self) -> usize {
        match self {
            EntryKind::U8 | EntryKind::I8 => 1,
            EntryKind::U16 | EntryKind::I16 => 2,
            EntryKind::U32 | EntryKind::I32 | EntryKind::F32 => 4,
            EntryKind::U64 | EntryKind::I64 | EntryKind::F64 => 8,
        }
    }
    /// The kind stored as `code` in the header, if it is one.
    pub fn from_code(code: u8) -> Option<Self> {
        use EntryKind::*;
        Some(match code {
            1 => U8,
            2 => U16,
            3 => U32,
            4 => U64,
            5 => I8,
            6 => I16,
            7 => I32,
            8 => I64,
            9 => F32,
            10 => F64,
            _ => return None,
        })
    }
    /// The Rust type's name (`u8`, `f64`, …).
    pub fn name(self) -> &'static str {
        use EntryKind::*;
        match self {
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            F32 => "f32",
            F64 => "f64",
        }
    }
}

/// How a position finds its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IndexKind {
    /// A closed-form bijection owned by the game (named in the metadata).
    Ranking = 1,
    /// A minimal perfect hash stored in the file, with the key per slot.
    PerfectHash = 2,
}

impl IndexKind {
    /// The index kind stored as `code` in the header, if it is one.
    pub fn from_code(code: u8) -> Option<Self> {
        match code {
            1 => Some(IndexKind::Ranking),
            2 => Some(IndexKind::PerfectHash),
            _ => None,
        }
    }
}

/// A byte range of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Section {
    /// First byte.
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
}

impl Section {
    /// One past the last byte, or None if that overflows.
    pub fn end(&self) -> Option<u64> {
        self.offset.checked_add(self.len)
    }
}

/// The decoded fixed header (see the layout at the top of this module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version ([`FORMAT_VERSION`]).
    pub version: u32,
    /// Type of each payload entry.
    pub entry_kind: EntryKind,
    /// How positions find their slot.
    pub index_kind: IndexKind,
    /// Entries in the payload.
    pub entry_count: u64,
    /// JSON metadata ([`TableMeta`]).
    pub meta: Section,
    /// Perfect-hash section, empty for a ranking index.
    pub index: Section,
    /// One u64 key per slot, empty for a ranking index.
    pub keys: Section,
    /// The entries.
    pub payload: Section,
    /// One xxh3-64 per payload block.
    pub block_sums: Section,
    /// log2 of the payload block size.
    pub block_shift: u8,
    /// Hash of the build parameters the table was made from.
    pub param_hash: u64,
    /// xxh3-64 of the whole payload.
    pub payload_checksum: u64,
    /// xxh3-64 of metadata, index, keys and block sums.
    pub aux_checksum: u64,
}

/// Why a header could not be decoded; the reader turns it into a `TableError`
/// naming the file.
#[derive(Debug)]
pub enum HeaderProblem {
    /// Fewer bytes than a header.
    Short,
    /// Not a table file.
    Magic,
    /// A format version this build does not read.
    Version(u32),
    /// A section that ends past the end of the file (a cut-short file),
    /// with which one.
    PastEnd(String),
    /// Inconsistent fields, with what is wrong.
    Invalid(String),
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4-byte slice"))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8-byte slice"))
}

impl Header {
    /// Number of payload blocks (each with one u64 sum).
    pub fn block_count(&self) -> u64 {
        block_count(self.payload.len, self.block_shift)
    }

    /// The header's bytes, its own checksum included.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&self.version.to_le_bytes());
        b[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        b[16] = self.entry_kind as u8;
        b[17] = self.entry_kind.width() as u8;
        b[18] = self.index_kind as u8;
        b[19] = self.block_shift;
        b[24..32].copy_from_slice(&self.entry_count.to_le_bytes());
        let sections = [
            self.meta,
            self.index,
            self.keys,
            self.payload,
            self.block_sums,
        ];
        for (i, s) in sections.iter().enumerate() {
            let at = 32 + 16 * i;
            b[at..at + 8].copy_from_slice(&s.offset.to_le_bytes());
            b[at + 8..at + 16].copy_from_slice(&s.len.to_le_bytes());
        }
        b[112..120].copy_from_slice(&self.param_hash.to_le_bytes());
        b[120..128].copy_from_slice(&self.payload_checksum.to_le_bytes());
        b[128..136].copy_from_slice(&self.aux_checksum.to_le_bytes());
        let own = xxhash_rust::xxh3::xxh3_64(&b[..CHECKSUMMED_LEN]);
        b[CHECKSUMMED_LEN..].copy_from_slice(&own.to_le_bytes());
        b
    }

    /// Decodes and checks the header against itself and the file length.
    pub fn decode(b: &[u8], file_len: u64) -> Result<Header, HeaderProblem> {
        if b.len() < 8 {
            return Err(HeaderProblem::Short);
        }
        if b[0..8] != MAGIC {
            return Err(HeaderProblem::Magic);
        }
        if b.len() < 12 {
            return Err(HeaderProblem::Short);
        }
        let version = u32_at(b, 8);
        if version != FORMAT_VERSION {
            return Err(HeaderProblem::Version(version));
        }
        if b.len() < HEADER_LEN {
            return Err(HeaderProblem::Short);
        }
        let bad = |s: &str| Err(HeaderProblem::Invalid(s.to_string()));
        if xxhash_rust::xxh3::xxh3_64(&b[..CHECKSUMMED_LEN]) != u64_at(b, CHECKSUMMED_LEN) {
            return bad("header checksum mismatch");
        }
        if u32_at(b, 12) as usize != HEADER_LEN {
            return bad("header length field is not 160");
        }
        if b[20..24].iter().chain(&b[136..152]).any(|&x| x != 0) {
            return bad("reserved header bytes are not zero");
        }
        let Some(entry_kind) = EntryKind::from_code(b[16]) else {
            return bad(&format!("unknown entry kind {}", b[16]));
        };
        if b[17] as usize != entry_kind.width() {
            return bad("entry width does not match entry kind");
        }
        let Some(index_kind) = IndexKind::from_code(b[18]) else {
            return bad(&format!("unknown index kind {}", b[18]));
        };
        let section = |i: usize| Section {
            offset: u64_at(b, 32 + 16 * i),
            len: u64_at(b, 40 + 16 * i),
        };
        let h = Header {
            version,
            entry_kind,
            index_kind,
            entry_count: u64_at(b, 24),
            meta: section(0),
            index: section(1),
            keys: section(2),
            payload: section(3),
            block_sums: section(4),
            block_shift: b[19],
            param_hash: u64_at(b, 112),
            payload_checksum: u64_at(b, 120),
            aux_checksum: u64_at(b, 128),
        };
        if !BLOCK_SHIFTS.contains(&h.block_shift) {
            return Err(HeaderProblem::Invalid(format!(
                "payload block size 2^{} is outside 2^{}..=2^{}",
                h.block_shift,
                BLOCK_SHIFTS.start(),
                BLOCK_SHIFTS.end()
            )));
        }
        let named = [
            ("metadata", h.meta),
            ("index", h.index),
            ("keys", h.keys),
            ("payload", h.payload),
            ("block sums", h.block_sums),
        ];
        for (name, s) in named {
            match s.end() {
                Some(end) if end <= file_len => {}
                _ => {
                    return Err(HeaderProblem::PastEnd(format!(
                        "{name} section [{}, +{}) runs past the end of the file ({file_len} bytes)",
                        s.offset, s.len
                    )))
                }
            }
            if s.len > 0 && s.offset < HEADER_LEN as u64 {
                return Err(HeaderProblem::Invalid(format!(
                    "{name} section overlaps the header"
                )));
            }
        }
        // Sections in file order must not overlap and must cover the file up
        // to its end: bytes no checksum covers (appended garbage, a second
        // table glued on) make the file suspect.
        let mut in_order: Vec<(&str, Section)> =
            named.into_iter().filter(|(_, s)| s.len > 0).collect();
        in_order.sort_by_key(|(_, s)| s.offset);
        for pair in in_order.windows(2) {
            let ((a, sa), (b, sb)) = (pair[0], pair[1]);
            if sa.offset + sa.len > sb.offset {
                return Err(HeaderProblem::Invalid(format!(
                    "{a} section [{}, +{}) overlaps the {b} section at {}",
                    sa.offset, sa.len, sb.offset
                )));
            }
        }
        let end = in_order
            .last()
            .map_or(HEADER_LEN as u64, |(_, s)| s.offset + s.len);
        if end != file_len {
            return Err(HeaderProblem::Invalid(format!(
                "the sections end at byte {end} but the file holds {file_len} bytes{}",
                if file_len > end {
                    " (bytes appended after the table)"
                } else {
                    ""
                }
            )));
        }
        if h.block_sums.len != h.block_count().saturating_mul(8)
            || !h.block_sums.offset.is_multiple_of(8)
        {
            return bad("block sum section does not hold one aligned u64 per payload block");
        }
        if !h.payload.offset.is_multiple_of(PAYLOAD_ALIGN) {
            return bad("payload offset is not 4 KiB aligned");
        }
        match h.entry_count.checked_mul(entry_kind.width() as u64) {
            Some(n) if n == h.payload.len => {}
            _ => return bad("payload length does not equal entry count times entry width"),
        }
        match index_kind {
            IndexKind::Ranking => {
                if h.index.len != 0 || h.keys.len != 0 {
                    return bad("a ranking-indexed table carries perfect-hash sections");
                }
            }
            IndexKind::PerfectHash => {
                if h.keys.len != h.entry_count.saturating_mul(8) || !h.keys.offset.is_multiple_of(8)
                {
                    return bad("key section does not hold one aligned u64 key per entry");
                }
                if h.index.len == 0 || !h.index.offset.is_multiple_of(8) {
                    return bad("perfect-hash table without an aligned index section");
                }
            }
        }
        Ok(h)
    }
}

/// Number of blocks of 2^shift bytes covering `len` payload bytes.
pub fn block_count(len: u64, shift: u8) -> u64 {
    len.div_ceil(1u64 << shift)
}

/// Self-description of a table, stored as JSON (see ARCHITECTURE.md for why
/// JSON). Object keys serialise in sorted order, so the bytes are
/// deterministic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableMeta {
    /// The game that wrote the table (`grundy`, `chess`, …).
    pub game: String,
    /// The table's name within its game.
    pub table: String,
    /// The parameters the table was built from.
    pub params: serde_json::Value,
    /// Name of the closed-form ranking, or "perfect-hash".
    pub index: String,
    /// What one entry means, for `nimrod info` readers.
    pub entry: String,
    /// The writing crate's version.
    pub tool_version: String,
    /// Game-specific statistics gathered while building.
    #[serde(default)]
    pub stats: serde_json::Value,
    /// The build job that wrote the table: its id and parameters, which
    /// hash to the header's parameter hash. A reader that asked for a job id
    /// checks both, so a renamed or swapped table is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<JobStamp>,
}

/// A build job's identity as stamped into its table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobStamp {
    /// The job id, like `grundy/values`.
    pub id: String,
    /// The job's parameters.
    pub params: serde_json::Value,
}

impl TableMeta {
    /// Metadata stamped with this tool's version.
    pub fn new(
        game: &str,
        table: &str,
        params: serde_json::Value,
        index: &str,
        entry: &str,
        stats: serde_json::Value,
    ) -> TableMeta {
        TableMeta {
            game: game.into(),
            table: table.into(),
            params,
            index: index.into(),
            entry: entry.into(),
            tool_version: env!("CARGO_PKG_VERSION").into(),
            stats,
            job: None,
        }
    }

    /// The metadata with the writing job's identity.
    pub fn stamped(mut self, job: JobStamp) -> TableMeta {
        self.job = Some(job);
        self
    }
}
