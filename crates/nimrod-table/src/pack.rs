//! Packed tables in the zstd seekable format: the raw file cut into
//! independent zstd frames, followed by a skippable frame holding the seek
//! table. Plain `zstd -d` ignores the seek table and restores the raw file
//! byte for byte; `PackedFile` decompresses only the frames a read touches.
//!
//! Seek table (zstd contrib/seekable_format): skippable-frame magic
//! 0x184D2A5E, frame size, one (compressed size, decompressed size, low 32
//! bits of XXH64 of the decompressed frame) triple per frame, then the
//! footer: frame count, descriptor (bit 7: checksums present), magic
//! 0x8F92EAB1.

use crate::source::{out_of_range, ByteSource};
use crate::writer::{sync_parent, tmp_path};
#[cfg(feature = "parallel")]
use rayon::prelude::*;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};

/// The first four bytes of a zstd frame, and so of a packed table.
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];
const SKIPPABLE_MAGIC: u32 = 0x184D_2A5E;
const SEEKABLE_MAGIC: u32 = 0x8F92_EAB1;
const FOOTER_LEN: usize = 9;
const CHECKSUM_FLAG: u8 = 0x80;
/// Small enough that one query decompresses little, large enough for a good ratio.
pub const DEFAULT_FRAME_SIZE: usize = 256 << 10;
/// The zstd level `nimrod pack` uses.
pub const DEFAULT_LEVEL: i32 = 9;
/// Decompressed bytes each packed table keeps by default (see
/// [`set_cache_budget`]).
pub const DEFAULT_CACHE_BYTES: usize = 16 << 20;
/// The most decompressed bytes a packed table may be told to keep.
pub const MAX_CACHE_BYTES: usize = 1 << 30;
/// The most frames one table's cache holds, whatever its budget.
const MAX_CACHE_SLOTS: usize = 1 << 16;
static CACHE_BUDGET: AtomicUsize = AtomicUsize::new(DEFAULT_CACHE_BYTES);

/// Sets how many decompressed bytes each packed table opened from now on
/// keeps (its frame cache; at least one frame is always kept, and the
/// budget is capped at [`MAX_CACHE_BYTES`]). Tables already open keep
/// theirs. A program probing at random wants more; one reading a table
/// front to back needs one frame.
pub fn set_cache_budget(bytes: usize) {
    CACHE_BUDGET.store(bytes.min(MAX_CACHE_BYTES), AtomicOrdering::Relaxed);
}

/// The frame cache budget of packed tables opened now.
pub fn cache_budget() -> usize {
    CACHE_BUDGET.load(AtomicOrdering::Relaxed)
}
/// Largest decompressed frame a reader accepts (`nimrod pack` writes 256
/// KiB frames, 4 KiB for chess tables): a seek table claiming more is
/// damage, and is refused before anything is allocated for it.
pub const MAX_FRAME_LEN: usize = 64 << 20;

fn frame_checksum(data: &[u8]) -> u32 {
    xxhash_rust::xxh64::xxh64(data, 0) as u32
}

fn invalid(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

/// One frame: its compressed bytes, raw length and raw checksum.
fn pack_frame(chunk: &[u8], level: i32) -> io::Result<(Vec<u8>, u32, u32)> {
    let mut c = zstd::bulk::Compressor::new(level)?;
    c.include_checksum(true)?;
    c.include_contentsize(true)?;
    let z = c.compress(chunk)?;
    Ok((z, chunk.len() as u32, frame_checksum(chunk)))
}

/// Compresses `raw` into the seekable format. With the `parallel` feature
/// the frames are compressed on every core; either way they are laid out
/// in order, so the bytes do not depend on threads or features.
pub fn pack_bytes(raw: &[u8], level: i32, frame_size: usize) -> io::Result<Vec<u8>> {
    let frames = pack_batch(raw, level, frame_size.max(1))?;
    let mut out = Vec::with_capacity(raw.len() / 3);
    for (z, _, _) in &frames {
        out.extend_from_slice(z);
    }
    let index: Vec<_> = frames
        .iter()
        .map(|(z, dlen, sum)| (z.len() as u32, *dlen, *sum))
        .collect();
    out.extend_from_slice(&seek_table(&index));
    Ok(out)
}

/// Frames compressed together by `pack_file`: its memory is about this
/// many raw frames, twice, whatever the file's size.
const BATCH_FRAMES: usize = 64;

fn seek_table(frames: &[(u32, u32, u32)]) -> Vec<u8> {
    let n = frames.len() as u32;
    let mut out = Vec::with_capacity(frames.len() * 12 + 17);
    out.extend_from_slice(&SKIPPABLE_MAGIC.to_le_bytes());
    out.extend_from_slice(&(n * 12 + FOOTER_LEN as u32).to_le_bytes());
    for (zlen, dlen, sum) in frames {
        out.extend_from_slice(&zlen.to_le_bytes());
        out.extend_from_slice(&dlen.to_le_bytes());
        out.extend_from_slice(&sum.to_le_bytes());
    }
    out.extend_from_slice(&n.to_le_bytes());
    out.push(CHECKSUM_FLAG);
    out.extend_from_slice(&SEEKABLE_MAGIC.to_le_bytes());
    out
}

fn pack_batch(raw: &[u8], level: i32, frame_size: usize) -> io::Result<Vec<(Vec<u8>, u32, u32)>> {
    #[cfg(feature = "parallel")]
    let chunks = raw.par_chunks(frame_size);
    #[cfg(not(feature = "parallel"))]
    let chunks = raw.chunks(frame_size);
    chunks.map(|chunk| pack_frame(chunk, level)).collect()
}

/// Packs the file `raw` into `out`: the same bytes as `pack_bytes` on its
/// contents, but streamed, a batch of frames at a time, so that memory
/// stays at a few megabytes for a table of any size. The packed bytes go
/// to `out`'s temporary name, are fsynced, read back through
/// [`PackedFile`] and compared with `raw` batch by batch, and only then
/// renamed into place; on any failure nothing is left under either name.
/// Returns the raw and packed lengths.
pub fn pack_file(raw: &Path, out: &Path, level: i32, frame_size: usize) -> io::Result<(u64, u64)> {
    use std::io::Read;
    let named =
        |path: &Path, e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let frame_size = frame_size.clamp(1, MAX_FRAME_LEN);
    let batch_len = frame_size * BATCH_FRAMES;
    let tmp = tmp_path(out);
    let result = (|| -> io::Result<(u64, u64)> {
        let mut src = std::fs::File::open(raw).map_err(|e| named(raw, e))?;
        let mut w = io::BufWriter::new(std::fs::File::create(&tmp).map_err(|e| named(&tmp, e))?);
        // Held until the rename: a build of the same table that starts now
        // removes stale temporaries next to it, and leaves a locked one
        // alone (`pipeline::lock`).
        let in_use_lock = std::fs::File::open(&tmp).map_err(|e| named(&tmp, e))?;
        let _ = in_use_lock.try_lock();
        let mut index = Vec::new();
        let mut buf = vec![0u8; batch_len];
        let (mut raw_len, mut packed_len) = (0u64, 0u64);
        loop {
            let n = read_full(&mut src, &mut buf).map_err(|e| named(raw, e))?;
            if n == 0 {
                break;
            }
            for (z, dlen, sum) in pack_batch(&buf[..n], level, frame_size)? {
                w.write_all(&z).map_err(|e| named(&tmp, e))?;
                index.push((z.len() as u32, dlen, sum));
                packed_len += z.len() as u64;
            }
            raw_len += n as u64;
            if n < batch_len {
                break;
            }
        }
        let table = seek_table(&index);
        w.write_all(&table).map_err(|e| named(&tmp, e))?;
        packed_len += table.len() as u64;
        let file = w.into_inner().map_err(|e| named(&tmp, e.into_error()))?;
        file.sync_all().map_err(|e| named(&tmp, e))?;
        drop(file);

        // Read back what is on the disk, through the reader queries use.
        let file = std::fs::File::open(&tmp).map_err(|e| named(&tmp, e))?;
        // SAFETY: a read-only, private map of our own temporary file, which
        // nothing else writes (its name is ours until the rename below).
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| named(&tmp, e))?;
        let packed = PackedFile::new(&map[..]).map_err(|e| named(&tmp, e))?;
        if packed.raw_len != raw_len {
            return Err(invalid(format!(
                "{}: packed data does not round-trip ({} bytes back for {raw_len})",
                tmp.display(),
                packed.raw_len
            )));
        }
        let mut src = std::fs::File::open(raw).map_err(|e| named(raw, e))?;
        let mut back = vec![0u8; batch_len];
        let mut at = 0u64;
        while at < raw_len {
            let n = read_full(&mut src, &mut buf).map_err(|e| named(raw, e))?;
            packed
                .read_at(at, &mut back[..n])
                .map_err(|e| named(&tmp, e))?;
            if n == 0 || buf[..n] != back[..n] {
                return Err(invalid(format!(
                    "{}: packed data does not round-trip near byte {at}",
                    raw.display()
                )));
            }
            at += n as u64;
        }
        let mut rest = [0u8; 1];
        if src.read(&mut rest).map_err(|e| named(raw, e))? != 0 {
            return Err(invalid(format!(
                "{} grew while it was packed",
                raw.display()
            )));
        }
        std::fs::rename(&tmp, out).map_err(|e| named(out, e))?;
        Ok((raw_len, packed_len))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    } else {
        sync_parent(out);
    }
    result
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn read_full(r: &mut impl io::Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Writes `bytes` to `path` atomically (tmp, fsync, rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = tmp_path(path);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        // A full disk or a failed rename leaves no temporary behind, and
        // the error names the file it was writing.
        let _ = std::fs::remove_file(&tmp);
        return Err(io::Error::new(
            e.kind(),
            format!("cannot write {}: {e}", path.display()),
        ));
    }
    sync_parent(path);
    Ok(())
}

/// Unpacks the packed table `packed` into the raw table file `out`: frame by
/// frame into `out`'s temporary name, fsynced, opened and verified in full
/// as a table, then renamed into place. Returns the raw length. On any
/// failure no file is left under either name.
pub fn unpack_file(packed: &Path, out: &Path) -> Result<u64, crate::TableError> {
    use crate::TableError;
    let file = std::fs::File::open(packed).map_err(|e| TableError::io(packed, e))?;
    // SAFETY: a read-only, private map of a file nimrod never modifies in
    // place (pack writes a new file and renames it over the old one). If
    // another program truncates it while we read, the process gets SIGBUS;
    // that is the documented limit of every memory-mapped read here.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| TableError::io(packed, e))?;
    let p = PackedFile::new(&map[..])
        .map_err(|e| TableError::corrupt(packed, format!("not a valid packed table: {e}")))?;
    write_checked(
        out,
        |w, tmp| write_frames(&p, w, packed, tmp),
        |tmp| {
            crate::Table::open(tmp)
                .and_then(|t| t.verify())
                .map_err(|e| {
                    TableError::corrupt(
                        packed,
                        format!("the unpacked bytes are not a valid table: {e}"),
                    )
                })
        },
    )
}

/// Writes `out` atomically and checked: `write` fills its temporary name
/// (buffered; it is given that name for its errors), which is fsynced and
/// handed to `check` to be read back; only then is it renamed into place.
/// The temporary is held locked until the rename, so that a build of the
/// same table that starts meanwhile, which removes stale temporaries next
/// to it, leaves it alone (`pipeline::lock`). On any failure nothing is
/// left under either name. Returns the file's length.
pub(crate) fn write_checked(
    out: &Path,
    write: impl FnOnce(&mut io::BufWriter<std::fs::File>, &Path) -> Result<(), crate::TableError>,
    check: impl FnOnce(&Path) -> Result<(), crate::TableError>,
) -> Result<u64, crate::TableError> {
    use crate::TableError;
    let tmp = tmp_path(out);
    let result = (|| -> Result<u64, TableError> {
        let create = std::fs::File::create(&tmp).map_err(|e| TableError::io(&tmp, e))?;
        let in_use_lock = std::fs::File::open(&tmp).map_err(|e| TableError::io(&tmp, e))?;
        let _ = in_use_lock.try_lock();
        let mut w = io::BufWriter::new(create);
        write(&mut w, &tmp)?;
        let file = w
            .into_inner()
            .map_err(|e| TableError::io(&tmp, e.into_error()))?;
        file.sync_all().map_err(|e| TableError::io(&tmp, e))?;
        check(&tmp)?;
        let len = file.metadata().map_err(|e| TableError::io(&tmp, e))?.len();
        std::fs::rename(&tmp, out).map_err(|e| TableError::io(out, e))?;
        Ok(len)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    } else {
        sync_parent(out);
    }
    result
}

/// Writes every frame of `p` to `w`. A frame that does not decode is
/// damage in `packed`; a write that fails (a full disk) is an I/O error on
/// `tmp`, never reported as damage.
fn write_frames<B: AsRef<[u8]> + Send + Sync>(
    p: &PackedFile<B>,
    w: &mut impl Write,
    packed: &Path,
    tmp: &Path,
) -> Result<(), crate::TableError> {
    use crate::TableError;
    for i in 0..p.frames.len() {
        let data = p
            .frame(i)
            .map_err(|e| TableError::corrupt(packed, format!("not a valid packed table: {e}")))?;
        w.write_all(&data).map_err(|e| TableError::io(tmp, e))?;
    }
    Ok(())
}

struct Frame {
    compressed_at: usize,
    compressed_len: usize,
    raw_at: u64,
    raw_len: usize,
    checksum: Option<u32>,
}

thread_local! {
    /// A decompression context per thread: making one costs more than
    /// decompressing a small frame.
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// One frame's bytes (at most `capacity`), through this thread's context.
pub(crate) fn decompress(z: &[u8], capacity: usize) -> io::Result<Vec<u8>> {
    DECOMPRESSOR.with(|cell| {
        let mut cell = cell.borrow_mut();
        let d = match &mut *cell {
            Some(d) => d,
            none => none.insert(zstd::bulk::Decompressor::new()?),
        };
        d.decompress(z, capacity)
    })
}

/// One zstd frame that must hold exactly `raw_len` bytes, decompressed. The
/// frame's own header must give that size before it is trusted for an
/// allocation; a frame that says another size, has no header or ends
/// short is damage. The error says which, for the caller to name the frame.
pub(crate) fn decompress_exact(z: &[u8], raw_len: usize) -> Result<Vec<u8>, String> {
    match zstd::zstd_safe::get_frame_content_size(z) {
        Ok(Some(n)) if n == raw_len as u64 => {}
        Ok(Some(n)) => return Err(format!("holds {n} bytes")),
        _ => return Err("has no readable zstd frame header".into()),
    }
    let data = decompress(z, raw_len).map_err(|e| format!("does not decompress: {e}"))?;
    if data.len() == raw_len {
        Ok(data)
    } else {
        Err("ends before its bytes do".into())
    }
}

/// A frame cache slot: the frame it holds and its bytes.
type Slot = Mutex<Option<(usize, Arc<Vec<u8>>)>>;

/// Decompressed frames of one file, direct-mapped (frame i lives in slot
/// i mod slots, one lock each): a look-up costs one lock and one compare
/// whatever the budget, threads probing different frames rarely meet, and
/// a file read front to back streams through it.
pub(crate) struct FrameCache {
    slots: Vec<Slot>,
}

impl FrameCache {
    /// Slots for frames of up to `largest` bytes within the budget of
    /// [`cache_budget`], at least one, at most one per frame.
    pub(crate) fn new(largest: usize, frames: usize) -> FrameCache {
        let slots = (cache_budget().min(MAX_CACHE_BYTES) / largest.max(1))
            .clamp(1, MAX_CACHE_SLOTS.min(frames.max(1)));
        FrameCache::with_slots(slots)
    }

    fn with_slots(slots: usize) -> FrameCache {
        FrameCache {
            slots: (0..slots.max(1)).map(|_| Mutex::new(None)).collect(),
        }
    }

    pub(crate) fn slots(&self) -> usize {
        self.slots.len()
    }

    /// Frame `i`, decoded by `decode` unless the cache holds it.
    pub(crate) fn get(
        &self,
        i: usize,
        decode: impl FnOnce() -> io::Result<Vec<u8>>,
    ) -> io::Result<Arc<Vec<u8>>> {
        let slot = &self.slots[i % self.slots.len()];
        if let Some((f, data)) = &*slot.lock().unwrap_or_else(|p| p.into_inner()) {
            if *f == i {
                return Ok(data.clone());
            }
        }
        let data = Arc::new(decode()?);
        *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some((i, data.clone()));
        Ok(data)
    }
}

/// Random access to a packed table through a cache of decompressed frames
/// (`FrameCache`).
pub struct PackedFile<B: AsRef<[u8]> + Send + Sync> {
    bytes: B,
    frames: Vec<Frame>,
    raw_len: u64,
    cache: FrameCache,
}

impl<B: AsRef<[u8]> + Send + Sync> PackedFile<B> {
    /// Reads and checks the seek table of packed `bytes`; the frame cache
    /// gets the budget of [`cache_budget`].
    pub fn new(bytes: B) -> io::Result<Self> {
        Self::with_cache_budget(bytes, cache_budget())
    }

    /// As [`PackedFile::new`], with a frame cache of `budget` decompressed
    /// bytes (at least one frame).
    pub fn with_cache_budget(bytes: B, budget: usize) -> io::Result<Self> {
        let b = bytes.as_ref();
        if b.len() < FOOTER_LEN + 8 {
            return Err(invalid("packed file too short to hold a seek table"));
        }
        let foot = &b[b.len() - FOOTER_LEN..];
        let u32_at = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().unwrap());
        if u32_at(foot, 5) != SEEKABLE_MAGIC {
            return Err(invalid(
                "zstd file without a seek table (not written by `nimrod pack`)",
            ));
        }
        let count = u32_at(foot, 0) as usize;
        let descriptor = foot[4];
        if descriptor & 0x7f != 0 {
            return Err(invalid("seek table descriptor has reserved bits set"));
        }
        let entry = if descriptor & CHECKSUM_FLAG != 0 {
            12
        } else {
            8
        };
        let table_len = count
            .checked_mul(entry)
            .and_then(|t| t.checked_add(FOOTER_LEN))
            .filter(|&t| t + 8 <= b.len())
            .ok_or_else(|| invalid("seek table larger than the file"))?;
        let skip_at = b.len() - table_len - 8;
        if u32_at(b, skip_at) != SKIPPABLE_MAGIC || u32_at(b, skip_at + 4) as usize != table_len {
            return Err(invalid("seek table frame header is damaged"));
        }
        let mut frames = Vec::with_capacity(count);
        let (mut c_at, mut r_at) = (0usize, 0u64);
        for i in 0..count {
            let e = &b[skip_at + 8 + i * entry..];
            let (clen, rlen) = (u32_at(e, 0) as usize, u32_at(e, 4) as usize);
            if rlen > MAX_FRAME_LEN {
                return Err(invalid(format!(
                    "seek table entry {i} claims a frame of {rlen} bytes; this reader accepts at most {MAX_FRAME_LEN}"
                )));
            }
            frames.push(Frame {
                compressed_at: c_at,
                compressed_len: clen,
                raw_at: r_at,
                raw_len: rlen,
                checksum: (entry == 12).then(|| u32_at(e, 8)),
            });
            c_at = c_at
                .checked_add(clen)
                .ok_or_else(|| invalid("seek table sizes overflow"))?;
            r_at += rlen as u64;
        }
        if c_at != skip_at {
            return Err(invalid(format!(
                "seek table describes {c_at} compressed bytes, the file holds {skip_at}"
            )));
        }
        let largest = frames.iter().map(|f| f.raw_len).max().unwrap_or(1).max(1);
        let slots =
            (budget.min(MAX_CACHE_BYTES) / largest).clamp(1, MAX_CACHE_SLOTS.min(count.max(1)));
        Ok(PackedFile {
            bytes,
            frames,
            raw_len: r_at,
            cache: FrameCache::with_slots(slots),
        })
    }

    /// Frames in the file.
    pub fn frame_count(&self) -> usize {
        self.frames.len()
    }

    /// Frames the cache holds at most.
    pub fn cache_frames(&self) -> usize {
        self.cache.slots()
    }

    fn frame(&self, i: usize) -> io::Result<Arc<Vec<u8>>> {
        self.cache.get(i, || self.decode_frame(i))
    }

    fn decode_frame(&self, i: usize) -> io::Result<Vec<u8>> {
        let f = &self.frames[i];
        let z = &self.bytes.as_ref()[f.compressed_at..f.compressed_at + f.compressed_len];
        let data = decompress_exact(z, f.raw_len).map_err(|e| {
            invalid(format!(
                "frame {i} {e} (the seek table says {} bytes)",
                f.raw_len
            ))
        })?;
        if f.checksum.is_some_and(|c| c != frame_checksum(&data)) {
            return Err(invalid(format!("frame {i} checksum mismatch")));
        }
        Ok(data)
    }

    /// The whole raw file, frame by frame (used by `pack`'s round trip
    /// check; `unpack` streams with `unpack_to`).
    pub fn unpack_all(&self) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        self.unpack_to(&mut out)?;
        Ok(out)
    }

    /// Writes the raw file to `out` one frame at a time, so memory stays
    /// at one frame whatever the seek table claims.
    pub fn unpack_to(&self, out: &mut impl Write) -> io::Result<()> {
        for i in 0..self.frames.len() {
            out.write_all(&self.frame(i)?)?;
        }
        Ok(())
    }
}

impl<B: AsRef<[u8]> + Send + Sync + crate::source::Advise> ByteSource for PackedFile<B> {
    fn len(&self) -> u64 {
        self.raw_len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let end = offset
            .checked_add(buf.len() as u64)
            .filter(|&e| e <= self.raw_len)
            .ok_or_else(|| out_of_range(offset, buf.len()))?;
        let mut pos = offset;
        while pos < end {
            let i = self
                .frames
                .partition_point(|f| f.raw_at + f.raw_len as u64 <= pos);
            let f = &self.frames[i];
            let data = self.frame(i)?;
            let from = (pos - f.raw_at) as usize;
            let n = ((end - pos) as usize).min(f.raw_len - from);
            let dst = (pos - offset) as usize;
            buf[dst..dst + n].copy_from_slice(&data[from..from + n]);
            pos += n as u64;
        }
        Ok(())
    }
    fn describe(&self) -> &'static str {
        "packed (zstd seekable)"
    }
    fn advise_random(&self) {
        self.bytes.advise_random();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full disk while unpacking was reported as a corrupt packed table.
    #[test]
    fn a_full_disk_while_unpacking_is_an_io_error_not_damage() {
        struct FullDisk;
        impl Write for FullDisk {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(
                    io::ErrorKind::StorageFull,
                    "No space left on device",
                ))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let raw: Vec<u8> = (0..5000u32).map(|i| (i / 7) as u8).collect();
        let packed = pack_bytes(&raw, 3, 1000).unwrap();
        let p = PackedFile::new(&packed[..]).unwrap();
        let e = write_frames(
            &p,
            &mut FullDisk,
            Path::new("t.nmt.zst"),
            Path::new("t.nmt.tmp"),
        )
        .unwrap_err();
        assert!(matches!(e, crate::TableError::Io { .. }), "{e}");
        let text = e.to_string();
        assert!(
            text.contains("t.nmt.tmp") && text.contains("No space left"),
            "{text}"
        );
        assert!(
            !text.contains("corrupt") && !text.contains("not a valid"),
            "{text}"
        );
    }

    #[test]
    fn a_streamed_pack_is_the_in_memory_pack_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        // Several batches and a short last frame; compressible and not.
        for len in [0usize, 1, 999, 64_000, 200_123] {
            let raw: Vec<u8> = (0..len)
                .map(|i| {
                    if i % 3 == 0 {
                        (i * 7 + i / 11) as u8
                    } else {
                        (i / 97) as u8
                    }
                })
                .collect();
            let src = dir.path().join(format!("t{len}.nmt"));
            std::fs::write(&src, &raw).unwrap();
            let out = dir.path().join(format!("t{len}.nmt.zst"));
            let (raw_len, packed_len) = pack_file(&src, &out, 3, 1000).unwrap();
            let packed = std::fs::read(&out).unwrap();
            assert_eq!(packed, pack_bytes(&raw, 3, 1000).unwrap(), "length {len}");
            assert_eq!((raw_len, packed_len), (len as u64, packed.len() as u64));
            assert_eq!(
                PackedFile::new(&packed[..]).unwrap().unpack_all().unwrap(),
                raw
            );
            assert!(!tmp_path(&out).exists());
        }
    }

    #[test]
    fn a_failed_streamed_pack_names_its_file_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.nmt");
        let out = dir.path().join("missing.nmt.zst");
        let e = pack_file(&missing, &out, 3, 1000).unwrap_err();
        assert!(e.to_string().contains("missing.nmt"), "{e}");
        assert!(!out.exists() && !tmp_path(&out).exists());
        let src = dir.path().join("t.nmt");
        std::fs::write(&src, b"some table bytes").unwrap();
        let nowhere = dir.path().join("no-such-dir").join("t.nmt.zst");
        let e = pack_file(&src, &nowhere, 3, 1000).unwrap_err();
        assert!(e.to_string().contains("no-such-dir"), "{e}");
    }

    #[test]
    fn a_failed_atomic_write_names_its_file_and_leaves_no_temporary() {
        // The rename fails: a directory holds the name.
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("menace.svg");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("inside"), b"x").unwrap();
        let e = write_atomic(&target, b"<svg/>").unwrap_err();
        assert!(
            e.to_string().contains("cannot write") && e.to_string().contains("menace.svg"),
            "{e}"
        );
        assert!(!tmp_path(&target).exists(), "the temporary was left behind");
    }

    #[test]
    fn random_reads_match_the_raw_bytes() {
        let raw: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let packed = pack_bytes(&raw, 3, 4096).unwrap();
        let p = PackedFile::new(packed.clone()).unwrap();
        assert_eq!(p.len(), raw.len() as u64);
        for (off, len) in [(0u64, 10usize), (4090, 20), (123_456, 9000), (299_990, 10)] {
            let mut buf = vec![0u8; len];
            p.read_at(off, &mut buf).unwrap();
            assert_eq!(&buf[..], &raw[off as usize..off as usize + len]);
        }
        assert!(p.read_at(299_995, &mut [0u8; 10]).is_err());
        // A standard zstd decoder ignores the seek table.
        assert_eq!(zstd::stream::decode_all(&packed[..]).unwrap(), raw);
    }

    #[test]
    fn a_small_cache_shared_by_threads_reads_the_raw_bytes() {
        let raw: Vec<u8> = (0..200_000u32).map(|i| (i * 13 % 241) as u8).collect();
        let packed = pack_bytes(&raw, 3, 4096).unwrap();
        assert_eq!(
            PackedFile::with_cache_budget(&packed[..], 0)
                .unwrap()
                .cache_frames(),
            1
        );
        assert_eq!(
            PackedFile::with_cache_budget(&packed[..], usize::MAX)
                .unwrap()
                .cache_frames(),
            49
        );
        // Three slots for 49 frames: most reads evict, threads share slots.
        let p = PackedFile::with_cache_budget(&packed[..], 3 * 4096).unwrap();
        assert_eq!(p.cache_frames(), 3);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let (p, raw) = (&p, &raw);
                s.spawn(move || {
                    let mut x = t + 1;
                    for _ in 0..2000 {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let off = (x >> 33) % (raw.len() as u64 - 5000);
                        let len = 1 + (x >> 20) as usize % 5000;
                        let mut buf = vec![0u8; len];
                        p.read_at(off, &mut buf).unwrap();
                        assert_eq!(buf[..], raw[off as usize..off as usize + len]);
                    }
                });
            }
        });
    }

    #[test]
    fn damaged_frames_are_errors() {
        let raw = vec![42u8; 100_000];
        let mut packed = pack_bytes(&raw, 3, 8192).unwrap();
        packed[20] ^= 0xff;
        let p = PackedFile::new(packed).unwrap();
        assert!(p.read_at(0, &mut [0u8; 100]).is_err());
    }
}
