//! The solver's value bytes, shared between threads: one byte per position
//! and side, held eight to an atomic word.
//!
//! Why words rather than one atomic per byte: the solver scans every byte
//! once per ply looking for the positions decided at that ply, and atomic
//! bytes can only be loaded one at a time. Eight at a time, compared in one
//! step (SWAR), makes the scan several times cheaper. Byte `k` is byte
//! `k % 8` of word `k / 8` in memory order, so the finished words viewed as
//! bytes are the table.

use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

pub struct Cells {
    words: Vec<AtomicU64>,
    len: usize,
}

const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Shift of byte `k` (0..8, memory order) inside a word.
#[inline]
fn shift(k: usize) -> u32 {
    if cfg!(target_endian = "little") {
        8 * k as u32
    } else {
        8 * (7 - k as u32)
    }
}

/// Memory-order positions (0..8) of the bytes of `word` equal to `byte`.
#[inline]
pub(crate) fn matches(word: u64, byte: u8) -> impl Iterator<Item = usize> {
    let x = word ^ (byte as u64 * 0x0101_0101_0101_0101);
    // High bit of each byte set when that byte of x is non-zero; no carry
    // crosses a byte, so the answer is exact per byte.
    let mut zero = !(((x & LOW7) + LOW7) | x) & HIGH;
    std::iter::from_fn(move || {
        if zero == 0 {
            return None;
        }
        let bit = zero.trailing_zeros();
        zero &= zero - 1;
        let k = (bit / 8) as usize;
        Some(if cfg!(target_endian = "little") {
            k
        } else {
            7 - k
        })
    })
}

impl Cells {
    /// `len` bytes, all `fill`.
    pub fn new(len: usize, fill: u8) -> Cells {
        let word = fill as u64 * 0x0101_0101_0101_0101;
        Cells {
            words: (0..len.div_ceil(8)).map(|_| AtomicU64::new(word)).collect(),
            len,
        }
    }

    #[cfg(any(test, feature = "internals"))]
    #[inline]
    pub fn load(&self, slot: usize) -> u8 {
        (self.words[slot / 8].load(Relaxed) >> shift(slot % 8)) as u8
    }

    /// Replaces the byte with `f(byte)` unless that is None; true if it did.
    #[inline]
    pub fn update(&self, slot: usize, f: impl Fn(u8) -> Option<u8>) -> bool {
        let s = shift(slot % 8);
        self.words[slot / 8]
            .fetch_update(Relaxed, Relaxed, |w| {
                let new = f((w >> s) as u8)?;
                Some(w & !(0xff << s) | (new as u64) << s)
            })
            .is_ok()
    }

    #[inline]
    pub fn store(&self, slot: usize, byte: u8) {
        self.update(slot, |_| Some(byte));
    }

    #[cfg(any(test, feature = "internals"))]
    /// Sets the bytes of word `w` (slots `8w..8w + 8`, those below `len`).
    pub fn store_word(&self, w: usize, bytes: [u8; 8]) {
        self.words[w].store(u64::from_ne_bytes(bytes), Relaxed);
    }

    #[cfg(any(test, feature = "internals"))]
    /// Calls `f(slot)` for each slot of `slots` whose byte is `byte`.
    #[inline]
    pub fn scan(&self, slots: std::ops::Range<usize>, byte: u8, mut f: impl FnMut(usize)) {
        let end = slots.end.min(self.len);
        for w in slots.start / 8..end.div_ceil(8) {
            let base = w * 8;
            for k in matches(self.words[w].load(Relaxed), byte) {
                let slot = base + k;
                if slots.start <= slot && slot < end {
                    f(slot);
                }
            }
        }
    }

    pub fn into_bytes(self) -> Bytes {
        Bytes::Words {
            // Same size and alignment: collected in place.
            words: self.words.into_iter().map(AtomicU64::into_inner).collect(),
            len: self.len,
        }
    }
}

/// The finished bytes: still in their words (no copy at the peak), or a
/// plain vector.
pub enum Bytes {
    /// The words of a `Cells`, the first `len` bytes in memory order.
    Words {
        /// The words.
        words: Vec<u64>,
        /// Bytes in use.
        len: usize,
    },
    /// A vector of bytes.
    Plain(Vec<u8>),
    /// Zeroed pages of their own (page-aligned, untouched until written):
    /// a solve whose first pass leaves whole pages unwritten.
    Pages(memmap2::MmapMut),
}

impl Bytes {
    /// `len` zeroed bytes on pages of their own: a page never written is
    /// never brought into memory (an allocator's block starts a few bytes
    /// into its first page, so its pages straddle any aligned stretch).
    pub fn zeroed_pages(len: usize) -> std::io::Result<Bytes> {
        if len == 0 {
            return Ok(Bytes::Plain(Vec::new()));
        }
        Ok(Bytes::Pages(memmap2::MmapMut::map_anon(len)?))
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Bytes {
        Bytes::Plain(v)
    }
}

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Words { words, len } => &bytemuck::cast_slice(words)[..*len],
            Bytes::Plain(v) => v,
            Bytes::Pages(m) => &m[..],
        }
    }
}

impl std::ops::DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            Bytes::Words { words, len } => &mut bytemuck::cast_slice_mut(words)[..*len],
            Bytes::Plain(v) => v,
            Bytes::Pages(m) => &mut m[..],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_scan_finds_exactly_the_matches() {
        let n = 77;
        let cells = Cells::new(n, 3);
        let pattern = |i: usize| ((i * 37) % 11) as u8 * 23;
        for i in 0..n {
            cells.store(i, pattern(i));
        }
        for i in 0..n {
            assert_eq!(cells.load(i), pattern(i));
        }
        for byte in [0u8, 23, 46, 230, 3, 255] {
            let mut found = Vec::new();
            cells.scan(0..n, byte, |s| found.push(s));
            let expect: Vec<usize> = (0..n).filter(|&i| pattern(i) == byte).collect();
            assert_eq!(found, expect, "byte {byte}");
            let mut part = Vec::new();
            cells.scan(13..50, byte, |s| part.push(s));
            let expect: Vec<usize> = expect
                .into_iter()
                .filter(|s| (13..50).contains(s))
                .collect();
            assert_eq!(part, expect, "byte {byte} in 13..50");
        }
        assert!(!cells.update(5, |_| None));
        assert!(cells.update(5, |b| Some(b + 1)));
        assert_eq!(cells.load(5), pattern(5) + 1);
        let bytes = cells.into_bytes();
        assert_eq!(bytes.len(), n);
        assert_eq!(bytes[5], pattern(5) + 1);
        assert!((0..n).filter(|&i| i != 5).all(|i| bytes[i] == pattern(i)));
    }

    #[test]
    fn swar_match_has_no_false_positives() {
        // Bytes next to a match that differ from the target by one bit or
        // by a borrow must not be reported.
        for byte in [0u8, 1, 0x7f, 0x80, 0xff] {
            for other in [0u8, 1, 2, 0x7f, 0x80, 0x81, 0xfe, 0xff] {
                let mut w = [other; 8];
                w[3] = byte;
                let found: Vec<usize> = matches(u64::from_ne_bytes(w), byte).collect();
                let expect: Vec<usize> = (0..8).filter(|&k| w[k] == byte).collect();
                assert_eq!(found, expect, "byte {byte:#x} among {other:#x}");
            }
        }
    }
}
