//! The shipping form: a table that stores only part of its payload, the
//! rest being restored by its game (a chess table keeps one side to move;
//! the other side is a one-ply search away). The stored entries may differ
//! from the table's where the game marks them free (a value a probe
//! restores anyway), so they are only ever read through the game.
//!
//! What it keeps, so that the raw table comes back byte for byte: the raw
//! file's bytes before the payload (header, index, keys: zstd) and its
//! metadata, verbatim. The block sums are recomputed from the restored
//! payload, and [`ShippedTable::restore`] checks the result against the
//! raw header's checksums before it renames it into place.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "NIMRODSH"
//!      8     4  version (1)
//!     12     4  codec (1: raw LZMA1, lc 0, lp 0, pb 0, dictionary = block;
//!                  2: zstd frames, one a block)
//!     16     8  raw bytes per block (the last block may be shorter)
//!     24     8  first stored entry      32  8  stored entry count
//!     40     8  head length (raw bytes before the payload)
//!     48     8  head's compressed length (zstd)
//!     56     8  metadata length         64  8  block count
//!     72     8  raw file length         80  8  content (0 the entries, 1 reduced)
//!     88     8  xxh3-64 of bytes 0..88, the head, the metadata, the block list
//! then the head (zstd), the metadata (JSON), the block list (per block:
//! compressed length u32, low 32 bits of the XXH64 of its raw bytes) and
//! the compressed blocks, in order.
//! ```

use crate::format::{block_count, Header, HEADER_LEN};
use crate::pack::{write_checked, FrameCache};
use crate::writer::Entry;
use crate::{TableError, TableMeta};
#[cfg(feature = "parallel")]
use rayon::prelude::*;
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use xxhash_rust::xxh3::Xxh3;

/// The first eight bytes of a shipped table.
pub const SHIPPED_MAGIC: [u8; 8] = *b"NIMRODSH";
const VERSION: u32 = 1;
const CODEC_LZMA1: u32 = 1;
const CODEC_ZSTD: u32 = 2;
/// The zstd level of [`Codec::Zstd`] blocks: past it (22) blocks of 16 KiB
/// shrank under 1 % and packed at two thirds of the speed.
const ZSTD_LEVEL: i32 = 19;

/// How a shipped table's blocks are compressed: the trade between bytes
/// and what a probe that misses the block cache pays. On a 34 MiB sample
/// of KRPvKR's stored side (`vm`, 2026-12-01): LZMA in 1 MiB blocks is the
/// smallest (1.00) and decodes a block in 6.3 ms; zstd in 16 KiB blocks
/// takes 1.34x the bytes and decodes one in about 22 µs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// Raw LZMA1 (lc 0, lp 0, pb 0, the dictionary one block): the smallest.
    Lzma,
    /// zstd (level 19), a frame a block: larger, decoded about 5x faster a
    /// byte, and meant for small blocks, so a probe's miss costs
    /// microseconds rather than milliseconds.
    Zstd,
}

impl Codec {
    /// Raw bytes per block `nimrod pack` uses with this codec unless told.
    pub fn default_block(self) -> usize {
        match self {
            Codec::Lzma => DEFAULT_SHIPPED_BLOCK,
            Codec::Zstd => 16 << 10,
        }
    }

    /// Its name, as `nimrod pack --codec` and `nimrod info` give it.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Lzma => "lzma",
            Codec::Zstd => "zstd",
        }
    }

    fn code(self) -> u32 {
        match self {
            Codec::Lzma => CODEC_LZMA1,
            Codec::Zstd => CODEC_ZSTD,
        }
    }

    fn of_code(code: u32) -> Option<Codec> {
        match code {
            CODEC_LZMA1 => Some(Codec::Lzma),
            CODEC_ZSTD => Some(Codec::Zstd),
            _ => None,
        }
    }
}
const FIXED_LEN: usize = 96;
/// The content field: the stored entries are the raw table's (free ones
/// aside), or the game's reduced form of them.
const CONTENT_ENTRIES: u64 = 0;
const CONTENT_REDUCED: u64 = 1;
/// Raw bytes per block `nimrod pack` uses for a shipped table: 1 MiB,
/// where LZMA's ratio levels off (64 KiB blocks were 25% larger on the
/// 3-4 piece chess set).
pub const DEFAULT_SHIPPED_BLOCK: usize = 1 << 20;
/// Block sizes a shipped table may use (4 KiB ..= 64 MiB).
pub const SHIPPED_BLOCKS: std::ops::RangeInclusive<usize> = 4096..=(64 << 20);
const MAX_HEAD_LEN: u64 = 1 << 30;
const MAX_META_LEN: u64 = 16 << 20;

/// Whether `bytes` start like a shipped table.
pub fn is_shipped(bytes: &[u8]) -> bool {
    bytes.starts_with(&SHIPPED_MAGIC)
}

fn invalid(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

fn block_checksum(data: &[u8]) -> u32 {
    xxhash_rust::xxh64::xxh64(data, 0) as u32
}

/// LZMA1 options for chess-like entries. Entries are bytes with no
/// alignment structure: literal and position contexts only dilute the
/// statistics (lc 0 / pb 0 measured 0.1-1% smaller than the defaults on
/// chess values); the dictionary is one block.
fn lzma_options(preset: u32, block: usize) -> io::Result<liblzma::stream::LzmaOptions> {
    let mut opts = liblzma::stream::LzmaOptions::new_preset(preset).map_err(io::Error::other)?;
    opts.literal_context_bits(0)
        .literal_position_bits(0)
        .position_bits(0)
        .dict_size((block as u32).max(4096));
    Ok(opts)
}

/// The filter chain every block is written and read with.
fn lzma_filters(block: usize) -> io::Result<liblzma::stream::Filters> {
    let mut filters = liblzma::stream::Filters::new();
    filters.lzma1(&lzma_options(9 | liblzma::stream::PRESET_EXTREME, block)?);
    Ok(filters)
}

/// About how many bytes `stored` takes in blocks of `block` raw bytes, for
/// choosing between candidate streams: a faster LZMA setting (preset 6)
/// on every `stride`-th block. Comparable between streams of one length.
pub fn estimate_shipped_len(stored: &[u8], block: usize, stride: usize) -> io::Result<u64> {
    let blocks: Vec<&[u8]> = stored.chunks(block.max(1)).step_by(stride.max(1)).collect();
    let one = |c: &&[u8]| -> io::Result<u64> {
        let mut filters = liblzma::stream::Filters::new();
        filters.lzma1(&lzma_options(6, block)?);
        Ok(compress_with(c, &filters)?.len() as u64)
    };
    #[cfg(feature = "parallel")]
    let sizes = blocks
        .par_iter()
        .map(one)
        .collect::<io::Result<Vec<u64>>>()?;
    #[cfg(not(feature = "parallel"))]
    let sizes = blocks.iter().map(one).collect::<io::Result<Vec<u64>>>()?;
    Ok(sizes.iter().sum())
}

fn compress_block(raw: &[u8], block: usize, codec: Codec) -> io::Result<Vec<u8>> {
    match codec {
        Codec::Lzma => compress_with(raw, &lzma_filters(block)?),
        Codec::Zstd => zstd::bulk::compress(raw, ZSTD_LEVEL),
    }
}

fn compress_with(raw: &[u8], filters: &liblzma::stream::Filters) -> io::Result<Vec<u8>> {
    let mut enc = liblzma::stream::Stream::new_raw_encoder(filters).map_err(io::Error::other)?;
    let mut out = Vec::with_capacity(raw.len() / 4 + 64);
    let mut input = raw;
    loop {
        if out.capacity() - out.len() < 4096 {
            out.reserve(out.capacity().max(4096));
        }
        let before = enc.total_in();
        let status = enc
            .process_vec(input, &mut out, liblzma::stream::Action::Finish)
            .map_err(io::Error::other)?;
        input = &input[(enc.total_in() - before) as usize..];
        if status == liblzma::stream::Status::StreamEnd {
            return Ok(out);
        }
    }
}

fn decompress_block(z: &[u8], raw_len: usize, block: usize, codec: Codec) -> io::Result<Vec<u8>> {
    if codec == Codec::Zstd {
        return crate::pack::decompress_exact(z, raw_len).map_err(invalid);
    }
    let mut dec = liblzma::stream::Stream::new_raw_decoder(&lzma_filters(block)?)
        .map_err(io::Error::other)?;
    let mut out = Vec::with_capacity(raw_len);
    let mut input = z;
    // A raw LZMA1 stream has no end marker here: it ends when the block's
    // bytes are out. Extra input or a short output is damage.
    while out.len() < raw_len {
        let before = dec.total_in();
        let produced = out.len();
        dec.process_vec(input, &mut out, liblzma::stream::Action::Run)
            .map_err(|e| invalid(format!("does not decompress: {e}")))?;
        input = &input[(dec.total_in() - before) as usize..];
        if out.len() == produced && dec.total_in() == before {
            return Err(invalid("ends before its bytes do"));
        }
    }
    Ok(out)
}

/// Writes the shipped form of the raw table `raw` to `out` (atomically):
/// entries `kept` of its payload, as `stored` gives them (little-endian,
/// `kept` entries' width each), in blocks of `block` raw bytes compressed
/// by `codec`;
/// `reduced` when they are the game's reduced form (see the module doc).
/// Returns the shipped file's length.
pub fn write_shipped(
    raw: &crate::Table,
    out: &Path,
    kept: Range<u64>,
    stored: &[u8],
    block: usize,
    codec: Codec,
    reduced: bool,
) -> Result<u64, TableError> {
    let h = raw.header();
    let width = h.entry_kind.width() as u64;
    if !SHIPPED_BLOCKS.contains(&block) {
        return Err(TableError::request(
            out,
            format!("block size {block} is outside 4096 ..= 64 MiB"),
        ));
    }
    if kept.end > h.entry_count || stored.len() as u64 != (kept.end - kept.start) * width {
        return Err(TableError::request(
            out,
            "the stored entries do not match the kept range",
        ));
    }
    let path = raw.path();
    let mut head = vec![0u8; h.payload.offset as usize];
    raw.read_prefix(&mut head)?;
    let head_z = zstd::bulk::compress(&head, 19).map_err(|e| TableError::io(path, e))?;
    let meta_bytes = raw.meta_bytes()?;
    let raw_file_len = h.meta.offset + h.meta.len;
    #[cfg(feature = "parallel")]
    let chunks = stored.par_chunks(block);
    #[cfg(not(feature = "parallel"))]
    let chunks = stored.chunks(block);
    let blocks: Vec<(Vec<u8>, u32)> = chunks
        .map(|c| Ok((compress_block(c, block, codec)?, block_checksum(c))))
        .collect::<io::Result<_>>()
        .map_err(|e| TableError::io(out, e))?;
    let mut list = Vec::with_capacity(blocks.len() * 8);
    for (z, sum) in &blocks {
        list.extend_from_slice(&(z.len() as u32).to_le_bytes());
        list.extend_from_slice(&sum.to_le_bytes());
    }
    let mut fixed = vec![0u8; FIXED_LEN];
    fixed[0..8].copy_from_slice(&SHIPPED_MAGIC);
    fixed[8..12].copy_from_slice(&VERSION.to_le_bytes());
    fixed[12..16].copy_from_slice(&codec.code().to_le_bytes());
    for (at, v) in [
        (16, block as u64),
        (24, kept.start),
        (32, kept.end - kept.start),
        (40, head.len() as u64),
        (48, head_z.len() as u64),
        (56, meta_bytes.len() as u64),
        (64, blocks.len() as u64),
        (72, raw_file_len),
        (
            80,
            if reduced {
                CONTENT_REDUCED
            } else {
                CONTENT_ENTRIES
            },
        ),
    ] {
        fixed[at..at + 8].copy_from_slice(&v.to_le_bytes());
    }
    let mut sum = Xxh3::new();
    sum.update(&fixed[..88]);
    sum.update(&head_z);
    sum.update(&meta_bytes);
    sum.update(&list);
    fixed[88..96].copy_from_slice(&sum.digest().to_le_bytes());

    // Read back before the rename: a shipped file that does not open, or
    // whose blocks do not decompress to their sums, is never put in place.
    write_checked(
        out,
        |w, tmp| {
            let io = |e| TableError::io(tmp, e);
            w.write_all(&fixed).map_err(io)?;
            w.write_all(&head_z).map_err(io)?;
            w.write_all(&meta_bytes).map_err(io)?;
            w.write_all(&list).map_err(io)?;
            for (z, _) in &blocks {
                w.write_all(z).map_err(io)?;
            }
            Ok(())
        },
        |tmp| ShippedTable::open(tmp)?.verify(),
    )
}

struct Block {
    at: usize,
    len: usize,
    raw_len: usize,
    sum: u32,
}

/// A shipped table, open: the raw table's header and metadata, and its
/// stored entries through a cache of decompressed blocks.
pub struct ShippedTable {
    path: PathBuf,
    map: memmap2::Mmap,
    header: Header,
    meta: TableMeta,
    head: Vec<u8>,
    meta_bytes: Vec<u8>,
    kept: Range<u64>,
    reduced: bool,
    block_bytes: usize,
    codec: Codec,
    blocks: Vec<Block>,
    cache: FrameCache,
}

impl std::fmt::Debug for ShippedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShippedTable")
            .field("path", &self.path)
            .field("kept", &self.kept)
            .finish()
    }
}

impl ShippedTable {
    /// Opens a shipped table and checks everything but its blocks (each is
    /// checked when it is first decompressed).
    pub fn open(path: &Path) -> Result<ShippedTable, TableError> {
        let map = crate::reader::map_file(path)?;
        let corrupt = |what: String| TableError::corrupt(path, what);
        if map.len() < FIXED_LEN {
            return Err(TableError::truncated(
                path,
                format!(
                    "{} bytes is shorter than a shipped table's header",
                    map.len()
                ),
            ));
        }
        if !is_shipped(&map) {
            return Err(TableError::Foreign {
                path: path.to_path_buf(),
            });
        }
        let u32_at = |i: usize| u32::from_le_bytes(map[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(map[i..i + 8].try_into().expect("8 bytes"));
        if u32_at(8) != VERSION {
            return Err(corrupt(format!(
                "shipped-table version {} (this build reads {VERSION})",
                u32_at(8)
            )));
        }
        let Some(codec) = Codec::of_code(u32_at(12)) else {
            return Err(corrupt(format!("unknown codec {}", u32_at(12))));
        };
        let block_bytes = u64_at(16);
        let (first, count) = (u64_at(24), u64_at(32));
        let (head_len, head_z, meta_len, nblocks) =
            (u64_at(40), u64_at(48), u64_at(56), u64_at(64));
        let raw_file_len = u64_at(72);
        let reduced = match u64_at(80) {
            CONTENT_ENTRIES => false,
            CONTENT_REDUCED => true,
            other => return Err(corrupt(format!("unknown content kind {other}"))),
        };
        if !SHIPPED_BLOCKS.contains(&(block_bytes as usize)) {
            return Err(corrupt(format!("block size {block_bytes} out of range")));
        }
        if head_len > MAX_HEAD_LEN || head_len < HEADER_LEN as u64 || meta_len > MAX_META_LEN {
            return Err(corrupt("implausible section sizes".into()));
        }
        let list_at = (FIXED_LEN as u64)
            .checked_add(head_z)
            .and_then(|x| x.checked_add(meta_len))
            .ok_or_else(|| corrupt("section sizes overflow".into()))?;
        let data_at = nblocks
            .checked_mul(8)
            .and_then(|l| l.checked_add(list_at))
            .filter(|&d| d <= map.len() as u64)
            .ok_or_else(|| TableError::truncated(path, "the block list runs past the end"))?;
        let mut sum = Xxh3::new();
        sum.update(&map[..88]);
        sum.update(&map[FIXED_LEN..data_at as usize]);
        if sum.digest() != u64_at(88) {
            return Err(corrupt("header checksum mismatch".into()));
        }
        let head_bytes = &map[FIXED_LEN..FIXED_LEN + head_z as usize];
        let head = zstd::bulk::decompress(head_bytes, head_len as usize)
            .map_err(|e| corrupt(format!("head does not decompress: {e}")))?;
        if head.len() as u64 != head_len {
            return Err(corrupt("head has the wrong length".into()));
        }
        let meta_at = FIXED_LEN + head_z as usize;
        let meta_bytes = map[meta_at..meta_at + meta_len as usize].to_vec();
        let header = Header::decode(&head, raw_file_len)
            .map_err(|p| corrupt(format!("the raw header is not valid: {p:?}")))?;
        let meta: TableMeta = serde_json::from_slice(&meta_bytes)
            .map_err(|e| corrupt(format!("metadata is not valid: {e}")))?;
        let width = header.entry_kind.width() as u64;
        if header.payload.offset != head_len
            || first
                .checked_add(count)
                .is_none_or(|e| e > header.entry_count)
            || header.meta.len != meta_len
        {
            return Err(corrupt(
                "the stored range does not fit the raw header".into(),
            ));
        }
        let stored_len = count * width;
        if nblocks != stored_len.div_ceil(block_bytes) {
            return Err(corrupt(format!(
                "{nblocks} blocks for {stored_len} stored bytes in blocks of {block_bytes}"
            )));
        }
        let mut blocks = Vec::with_capacity(nblocks as usize);
        let mut at = data_at as usize;
        for i in 0..nblocks as usize {
            let e = list_at as usize + 8 * i;
            let len = u32::from_le_bytes(map[e..e + 4].try_into().expect("4 bytes")) as usize;
            let s = u32::from_le_bytes(map[e + 4..e + 8].try_into().expect("4 bytes"));
            let raw_len = (stored_len - i as u64 * block_bytes).min(block_bytes) as usize;
            blocks.push(Block {
                at,
                len,
                raw_len,
                sum: s,
            });
            at = at
                .checked_add(len)
                .filter(|&a| a <= map.len())
                .ok_or_else(|| {
                    TableError::truncated(path, format!("block {i} runs past the end"))
                })?;
        }
        if at != map.len() {
            return Err(corrupt(format!(
                "{} bytes after the last block",
                map.len() - at
            )));
        }
        let cache = FrameCache::new(block_bytes as usize, blocks.len());
        Ok(ShippedTable {
            path: path.to_path_buf(),
            map,
            header,
            meta,
            head,
            meta_bytes,
            kept: first..first + count,
            reduced,
            block_bytes: block_bytes as usize,
            codec,
            blocks,
            cache,
        })
    }

    fn corrupt(&self, what: impl Into<String>) -> TableError {
        TableError::corrupt(&self.path, what)
    }

    /// The file it was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// The raw table's header.
    pub fn header(&self) -> &Header {
        &self.header
    }
    /// The raw table's metadata.
    pub fn meta(&self) -> &TableMeta {
        &self.meta
    }
    /// Entries of the raw table.
    pub fn len(&self) -> u64 {
        self.header.entry_count
    }
    /// Whether the raw table has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// How its blocks are compressed.
    pub fn codec(&self) -> Codec {
        self.codec
    }
    /// Raw bytes per block (the last may be shorter).
    pub fn block_bytes(&self) -> usize {
        self.block_bytes
    }
    /// Whether it holds the game's reduced form of its entries (which
    /// cannot restore the raw table).
    pub fn is_reduced(&self) -> bool {
        self.reduced
    }
    /// The entries it stores.
    pub fn kept(&self) -> Range<u64> {
        self.kept.clone()
    }
    /// See `ByteSource::advise_random`.
    pub fn advise_random(&self) {
        crate::source::Advise::advise_random(&self.map);
    }

    fn block(&self, i: usize) -> io::Result<Arc<Vec<u8>>> {
        self.cache.get(i, || self.decode_block(i))
    }

    /// Block `i` decompressed and checked against its length and sum.
    fn decode_block(&self, i: usize) -> io::Result<Vec<u8>> {
        let b = &self.blocks[i];
        let data = decompress_block(
            &self.map[b.at..b.at + b.len],
            b.raw_len,
            self.block_bytes,
            self.codec,
        )
        .map_err(|e| invalid(format!("block {i} {e}")))?;
        if data.len() != b.raw_len || block_checksum(&data) != b.sum {
            return Err(invalid(format!("block {i} checksum mismatch")));
        }
        Ok(data)
    }

    /// The stored entry at `slot` (in the kept range): the game decides
    /// what it means.
    pub fn stored<T: Entry>(&self, slot: u64) -> Result<T, TableError> {
        if T::KIND != self.header.entry_kind {
            return Err(TableError::request(
                &self.path,
                format!(
                    "entries are {}, not {}",
                    self.header.entry_kind.name(),
                    T::KIND.name()
                ),
            ));
        }
        if !self.kept.contains(&slot) {
            return Err(TableError::request(
                &self.path,
                format!("entry {slot} is not stored (stored: {:?})", self.kept),
            ));
        }
        let width = std::mem::size_of::<T>();
        let at = (slot - self.kept.start) as usize * width;
        let (i, from) = (at / self.block_bytes, at % self.block_bytes);
        let data = self.block(i).map_err(|e| self.corrupt(e.to_string()))?;
        Ok(bytemuck::pod_read_unaligned(&data[from..from + width]))
    }

    /// Decompresses every block and checks it against its sum (without
    /// filling the cache).
    pub fn verify(&self) -> Result<(), TableError> {
        for i in 0..self.blocks.len() {
            self.decode_block(i)
                .map_err(|e| self.corrupt(e.to_string()))?;
        }
        Ok(())
    }

    /// The raw table file's bytes given its whole `payload` (restored by
    /// the game): the kept head and metadata, the payload and its block
    /// sums. Unchecked: see `restore_table` and `restore`.
    fn raw_bytes(&self, payload: &[u8]) -> Result<Vec<u8>, TableError> {
        let h = &self.header;
        if payload.len() as u64 != h.payload.len {
            return Err(self.corrupt(format!(
                "restored payload of {} bytes, the table has {}",
                payload.len(),
                h.payload.len
            )));
        }
        let shift = h.block_shift;
        let sums: Vec<u8> = payload
            .chunks(1 << shift)
            .flat_map(|c| xxhash_rust::xxh3::xxh3_64(c).to_le_bytes())
            .collect();
        debug_assert_eq!(
            sums.len() as u64,
            8 * block_count(payload.len() as u64, shift)
        );
        let payload_end = h.payload.offset + h.payload.len;
        let mut out = Vec::with_capacity((h.meta.offset + h.meta.len) as usize);
        out.extend_from_slice(&self.head);
        out.extend_from_slice(payload);
        out.resize(h.block_sums.offset.max(payload_end) as usize, 0);
        out.extend_from_slice(&sums);
        out.resize(h.meta.offset.max(out.len() as u64) as usize, 0);
        out.extend_from_slice(&self.meta_bytes);
        Ok(out)
    }

    fn refuse_reduced(&self) -> Result<(), TableError> {
        if self.reduced {
            return Err(TableError::request(
                &self.path,
                "holds a reduced form of its table's values (e.g. a chess table's win/draw/loss only), from which the raw table cannot be restored; restore from the full shipped form or rebuild it",
            ));
        }
        Ok(())
    }

    fn refused(&self, e: TableError) -> TableError {
        self.corrupt(format!("the restored table does not check: {e}"))
    }

    /// The raw table, in memory, given its whole `payload` (restored by the
    /// game), fully verified against the raw header's payload and metadata
    /// checksums: a wrong restore is an error, never a table.
    pub fn restore_table(&self, payload: &[u8]) -> Result<crate::Table, TableError> {
        self.refuse_reduced()?;
        let t = crate::Table::from_bytes(&self.path, self.raw_bytes(payload)?)
            .map_err(|e| self.refused(e))?;
        t.verify().map_err(|e| self.refused(e))?;
        Ok(t)
    }

    /// Writes the raw table to `out` (atomically) given its whole
    /// `payload`; the file is opened and fully verified, as by
    /// `restore_table`, before the rename. Returns its length.
    pub fn restore(&self, out: &Path, payload: &[u8]) -> Result<u64, TableError> {
        self.refuse_reduced()?;
        let bytes = self.raw_bytes(payload)?;
        write_checked(
            out,
            |w, tmp| w.write_all(&bytes).map_err(|e| TableError::io(tmp, e)),
            |tmp| {
                crate::Table::open(tmp)
                    .and_then(|t| t.verify())
                    .map_err(|e| self.refused(e))
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The container alone, with each codec: a table with half its entries
    /// stored comes back byte for byte given the other half, refuses a
    /// wrong restore, and is not mistaken for a plain table.
    #[test]
    fn a_shipped_table_restores_exactly_and_refuses_a_wrong_payload() {
        for codec in [Codec::Lzma, Codec::Zstd] {
            restores_exactly_and_refuses_a_wrong_payload(codec);
        }
    }

    fn restores_exactly_and_refuses_a_wrong_payload(codec: Codec) {
        let dir = tempfile::tempdir().unwrap();
        let raw = dir.path().join("t.nmt");
        let entries: Vec<u8> = (0..20_000u32).map(|i| ((i / 13) % 7) as u8).collect();
        let meta = TableMeta::new(
            "demo",
            "t",
            serde_json::json!({}),
            "identity",
            "u8",
            serde_json::json!({}),
        );
        crate::writer::write_ranked(&raw, &entries, &meta, 1).unwrap();
        let table = crate::Table::open(&raw).unwrap();
        let out = dir.path().join("t.nmt.zst");
        write_shipped(
            &table,
            &out,
            10_000..20_000,
            &entries[10_000..],
            4096,
            codec,
            false,
        )
        .unwrap();
        assert!(matches!(
            crate::Table::open(&out),
            Err(TableError::Shipped { .. })
        ));
        let s = ShippedTable::open(&out).unwrap();
        assert_eq!(s.codec(), codec);
        assert_eq!(s.kept(), 10_000..20_000);
        assert_eq!(s.stored::<u8>(12_345).unwrap(), entries[12_345]);
        assert!(s.stored::<u8>(5).is_err(), "not stored");
        assert!(s.stored::<u16>(12_345).is_err(), "wrong entry type");
        let back = dir.path().join("back.nmt");
        s.restore(&back, &entries).unwrap();
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&raw).unwrap());
        let mut wrong = entries.clone();
        wrong[3] ^= 1;
        let e = s
            .restore(&dir.path().join("wrong.nmt"), &wrong)
            .unwrap_err();
        assert!(e.to_string().contains("does not check"), "{e}");
        assert!(!dir.path().join("wrong.nmt").exists());
        // A flipped byte in a block is found when that block is read.
        let mut bytes = std::fs::read(&out).unwrap();
        let at = bytes.len() - 10;
        bytes[at] ^= 0x40;
        std::fs::write(&out, &bytes).unwrap();
        let s = ShippedTable::open(&out).unwrap();
        assert!(s.verify().is_err());
        assert!(s.stored::<u8>(19_999).is_err());
    }

    /// A reduced file says so, answers its stored entries, and refuses to
    /// restore the raw table even from the right payload.
    #[test]
    fn a_reduced_shipped_table_refuses_to_restore() {
        let dir = tempfile::tempdir().unwrap();
        let raw = dir.path().join("t.nmt");
        let entries: Vec<u8> = (0..8_192u32).map(|i| (i % 5) as u8).collect();
        let meta = TableMeta::new(
            "demo",
            "t",
            serde_json::json!({}),
            "identity",
            "u8",
            serde_json::json!({}),
        );
        crate::writer::write_ranked(&raw, &entries, &meta, 1).unwrap();
        let table = crate::Table::open(&raw).unwrap();
        let out = dir.path().join("t.nmt.zst");
        let coarse: Vec<u8> = entries.iter().map(|&e| e.min(1)).collect();
        write_shipped(&table, &out, 0..8_192, &coarse, 4096, Codec::Lzma, true).unwrap();
        let s = ShippedTable::open(&out).unwrap();
        assert!(s.is_reduced());
        assert_eq!(s.stored::<u8>(7).unwrap(), 1);
        let e = s
            .restore(&dir.path().join("back.nmt"), &entries)
            .unwrap_err();
        assert!(e.to_string().contains("reduced"), "{e}");
        assert!(!dir.path().join("back.nmt").exists());
        // An unknown content kind is damage, named as such (the header sum
        // is recomputed so that only the field is wrong).
        let mut bytes = std::fs::read(&out).unwrap();
        bytes[80] = 7;
        let list_end = bytes.len() - s.blocks.iter().map(|b| b.len).sum::<usize>();
        let mut sum = Xxh3::new();
        sum.update(&bytes[..88]);
        sum.update(&bytes[FIXED_LEN..list_end]);
        bytes[88..96].copy_from_slice(&sum.digest().to_le_bytes());
        std::fs::write(&out, &bytes).unwrap();
        let e = ShippedTable::open(&out).unwrap_err();
        assert!(e.to_string().contains("unknown content kind 7"), "{e}");
    }

    #[test]
    fn blocks_round_trip_and_damage_is_refused() {
        let raw: Vec<u8> = (0..300_000u32).map(|i| ((i / 37) % 11) as u8).collect();
        for codec in [Codec::Lzma, Codec::Zstd] {
            let z = compress_block(&raw, 1 << 20, codec).unwrap();
            assert!(z.len() < raw.len() / 10, "{codec:?}");
            assert_eq!(
                decompress_block(&z, raw.len(), 1 << 20, codec).unwrap(),
                raw
            );
            let short = &z[..z.len() / 2];
            assert!(
                decompress_block(short, raw.len(), 1 << 20, codec).is_err(),
                "{codec:?}"
            );
            // A block read as the other codec's, or as a longer one, is damage.
            let other = if codec == Codec::Lzma {
                Codec::Zstd
            } else {
                Codec::Lzma
            };
            assert!(
                decompress_block(&z, raw.len(), 1 << 20, other).is_err(),
                "{codec:?}"
            );
            assert!(
                decompress_block(&z, raw.len() + 1, 1 << 20, codec).is_err(),
                "{codec:?}"
            );
        }
    }
}
