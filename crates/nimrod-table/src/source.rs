//! Where a table's bytes come from: memory (tests, fuzzing), a read-only
//! memory map (raw files) or a packed file decompressed frame by frame.

use std::io;

/// Random access to a table's bytes.
pub trait ByteSource: Send + Sync {
    /// Bytes in the source.
    fn len(&self) -> u64;
    /// Whether the source holds no bytes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Fills `buf` from `offset`; an error if the range is out of bounds or
    /// the underlying data cannot be decoded.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()>;
    /// The whole file as one slice, when it is available without copying.
    fn as_slice(&self) -> Option<&[u8]> {
        None
    }
    /// Short description for `nimrod info`.
    fn describe(&self) -> &'static str;
    /// Lets go of the pages this process has touched, where that is
    /// possible without losing data (a read-only file map); the next read
    /// brings them back. Keeps a long probing job's resident set small.
    fn release_resident_pages(&self) {}
    /// Tells the system that reads will land at random: a page fault then
    /// reads the page, not the read-ahead window around it (8 MiB on some
    /// disks, which made one cold probe of a chess table take 9 ms instead
    /// of 0.08 ms). For probing; a reader that scans a whole table wants
    /// the read-ahead, so this is not the default.
    fn advise_random(&self) {}
}

/// Read-ahead advice for the bytes under a packed file (a map takes it;
/// bytes in memory ignore it).
pub trait Advise {
    /// See `ByteSource::advise_random`.
    fn advise_random(&self) {}
}

impl Advise for Vec<u8> {}
impl Advise for &[u8] {}

impl Advise for memmap2::Mmap {
    fn advise_random(&self) {
        // Advice only: a failure leaves the default read-ahead.
        let _ = self.advise(memmap2::Advice::Random);
    }
}

fn slice_read(data: &[u8], offset: u64, buf: &mut [u8]) -> io::Result<()> {
    let start = usize::try_from(offset).map_err(|_| out_of_range(offset, buf.len()))?;
    let end = start
        .checked_add(buf.len())
        .filter(|&e| e <= data.len())
        .ok_or_else(|| out_of_range(offset, buf.len()))?;
    buf.copy_from_slice(&data[start..end]);
    Ok(())
}

pub(crate) fn out_of_range(offset: u64, len: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!("read of {len} bytes at offset {offset} is past the end of the data"),
    )
}

impl ByteSource for Vec<u8> {
    fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        slice_read(self, offset, buf)
    }
    fn as_slice(&self) -> Option<&[u8]> {
        Some(self)
    }
    fn describe(&self) -> &'static str {
        "memory"
    }
}

impl ByteSource for memmap2::Mmap {
    fn len(&self) -> u64 {
        self[..].len() as u64
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        slice_read(self, offset, buf)
    }
    fn as_slice(&self) -> Option<&[u8]> {
        Some(self)
    }
    fn describe(&self) -> &'static str {
        "raw (memory-mapped)"
    }
    fn advise_random(&self) {
        Advise::advise_random(self);
    }
    fn release_resident_pages(&self) {
        // SAFETY: tables are mapped read-only and shared (`Mmap::map`) and
        // never modified in place (writers rename a new file over the old
        // name). MADV_DONTNEED then only drops this process's page-table
        // entries: the next access faults the same bytes back in from the
        // file, so every slice borrowed from the map stays valid. A failure
        // only means the pages stay resident.
        let _ = unsafe { self.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
    }
}
