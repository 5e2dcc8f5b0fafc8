//! Bytes shared between threads while a table is computed.

use std::sync::atomic::AtomicU8;

/// An exclusively borrowed byte slice as atomic bytes, so that threads can
/// read and write it together for the length of the borrow (what the
/// standard library's unstable `AtomicU8::from_mut_slice` does). A relaxed
/// load or store of an `AtomicU8` is a plain byte access on the common
/// targets, with no lock and no fence: the solvers write one byte where a
/// compare-and-swap on its word would serialise the memory accesses around
/// it.
pub fn atomic_bytes(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the same size and alignment as `u8` (it is
    // documented to have the same in-memory representation), so the slice
    // pointer cast keeps the length and every element's address valid. The
    // exclusive borrow is held for the returned lifetime, so no non-atomic
    // access to these bytes can happen while the atomic view exists.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// Asks the processor to bring the cache line holding `x` close, without
/// waiting for it: a prefetch retires at once, so a solver that knows the
/// scattered bytes it will touch a little later can have many of their
/// cache misses in flight while it computes, where a load would hold the
/// processor's reorder window until its line arrived. A hint only: on
/// targets without the instruction it does nothing.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of the x86_64 baseline, so the instruction
        // exists on every processor this code runs on; a prefetch never
        // faults and does not access memory architecturally, and the
        // address comes from a live reference anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(x as *const T as *const i8) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Of 64 bytes, the bits (bit `k` for `line[k]`) of those in `lo..=hi`
/// (none when `hi < lo`) and of those equal to `eq`: a retrograde sweep's
/// test of every move of one piece at once, when the positions those moves
/// reach are consecutive bytes. With AVX2, eight vector instructions and
/// four byte masks; elsewhere a plain loop.
#[inline]
pub fn byte_masks(line: &[u8; 64], lo: u8, hi: u8, eq: u8) -> (u64, u64) {
    if hi < lo {
        return (0, equal_mask(line, eq));
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        use std::arch::x86_64::*;
        // SAFETY: AVX2 is enabled for the whole build (the cfg above), so
        // the instructions exist on every processor this code runs on; the
        // two unaligned 32-byte loads read `line[0..32]` and `line[32..64]`,
        // inside the borrowed array.
        unsafe {
            let span = _mm256_set1_epi8((hi - lo) as i8);
            let (lo, eq) = (_mm256_set1_epi8(lo as i8), _mm256_set1_epi8(eq as i8));
            let half = |at: usize| {
                let v = _mm256_loadu_si256(line.as_ptr().add(at) as *const __m256i);
                let x = _mm256_sub_epi8(v, lo);
                let inside = _mm256_cmpeq_epi8(_mm256_max_epu8(x, span), span);
                let same = _mm256_cmpeq_epi8(v, eq);
                (
                    _mm256_movemask_epi8(inside) as u32 as u64,
                    _mm256_movemask_epi8(same) as u32 as u64,
                )
            };
            let (a, b) = (half(0), half(32));
            (a.0 | b.0 << 32, a.1 | b.1 << 32)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        let mut inside = 0u64;
        for (k, &c) in line.iter().enumerate() {
            inside |= u64::from(c.wrapping_sub(lo) <= hi - lo) << k;
        }
        (inside, equal_mask(line, eq))
    }
}

fn equal_mask(line: &[u8; 64], eq: u8) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        use std::arch::x86_64::*;
        // SAFETY: AVX2 is enabled for the whole build (the cfg above), so
        // the instructions exist on every processor this code runs on; the
        // two unaligned 32-byte loads read `line[0..32]` and `line[32..64]`,
        // inside the borrowed array.
        unsafe {
            let eq = _mm256_set1_epi8(eq as i8);
            let half = |at: usize| {
                let v = _mm256_loadu_si256(line.as_ptr().add(at) as *const __m256i);
                _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, eq)) as u32 as u64
            };
            half(0) | half(32) << 32
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        let mut same = 0u64;
        for (k, &c) in line.iter().enumerate() {
            same |= u64::from(c == eq) << k;
        }
        same
    }
}

/// `len` zeroed atomic bytes owned by the caller. The zeroed allocation
/// comes from the system as untouched pages, so a large buffer that is
/// written sparsely (a cache of resolved values) costs only the pages it
/// touches.
pub fn zeroed_atomic_bytes(len: usize) -> Box<[AtomicU8]> {
    let bytes: Box<[u8]> = vec![0u8; len].into_boxed_slice();
    let raw = Box::into_raw(bytes);
    // SAFETY: `AtomicU8` has the same size, alignment and in-memory
    // representation as `u8`, so the allocation of `len` bytes is a valid
    // allocation of `len` atomics and is freed with the same layout. The
    // box is consumed: no non-atomic reference to the bytes remains.
    unsafe { Box::from_raw(raw as *mut [AtomicU8]) }
}

/// Keeps glibc's allocator from holding on to freed memory (a no-op with
/// other C libraries). By default glibc raises its mapping threshold to
/// the size of the largest mapped block freed so far (up to 32 MiB), and
/// its heap's trim threshold to twice that, so up to 64 MiB of freed heap
/// stays resident: a chess build with pawns allocates a 28 MiB block per
/// slice it writes, and KRPvKR peaked at 180-213 MB where 152 MB is live.
/// Fixing the threshold (at 4 MiB: blocks that large are each their own
/// mapping, returned when freed) turns the adjustment off and leaves the
/// heap trimmed as it shrinks. Call it once at start-up.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a tunable of glibc's allocator, under
    // the allocator's own lock; blocks already allocated stay valid and are
    // freed as they were allocated (glibc marks each mapped block).
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 4 << 20);
    }
}

/// `len` zeroed bytes backed, where the kernel allows, by transparent huge
/// pages (see [`advise_huge_pages`]). Not one byte is touched here.
pub fn huge_zeroed_bytes(len: usize) -> Vec<u8> {
    let v = vec![0u8; len];
    advise_huge_pages(&v);
    v
}

/// Asks the kernel to back the whole pages of `s` with transparent huge
/// pages (Linux `MADV_HUGEPAGE`; a no-op elsewhere, and when the kernel
/// refuses). A solver that reads and writes a table of hundreds of
/// megabytes at random pays a page-table walk for nearly every access
/// with 4 KiB pages; a 2 MiB page covers 512 times as much per TLB entry.
/// Advice given before the pages are first touched takes effect at once.
/// (Syzygy's generator asks the same; on the 2-core VM of
/// `benches/results/chess/` no speed-up of a chess build could be measured.)
pub fn advise_huge_pages<T>(s: &[T]) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf only reads a system constant.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let page = if page > 0 { page as usize } else { 4096 };
        let start = s.as_ptr() as usize;
        let end = start + std::mem::size_of_val(s);
        let (lo, hi) = (start.div_ceil(page) * page, end / page * page);
        if hi > lo {
            // SAFETY: [lo, hi) lies within the live allocation behind `s`
            // (rounded inwards to whole pages), and MADV_HUGEPAGE changes
            // only how the kernel backs those pages, never their contents
            // or their mapping's permissions, so no Rust reference is
            // invalidated. A failure (e.g. huge pages disabled) is harmless
            // and ignored.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = s;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn byte_masks_agree_with_a_plain_loop() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..2000 {
            let mut line = [0u8; 64];
            for b in line.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Small codes often, so that ranges and equality both hit.
                *b = if round % 2 == 0 {
                    (x % 8) as u8
                } else {
                    x as u8
                };
            }
            let (lo, hi, eq) = (
                (x >> 8) as u8 % 9,
                (x >> 16) as u8 % 12,
                (x >> 24) as u8 % 8,
            );
            let (mut inside, mut same) = (0u64, 0u64);
            for (k, &c) in line.iter().enumerate() {
                if lo <= c && c <= hi {
                    inside |= 1 << k;
                }
                if c == eq {
                    same |= 1 << k;
                }
            }
            assert_eq!(
                byte_masks(&line, lo, hi, eq),
                (inside, same),
                "{line:?} {lo} {hi} {eq}"
            );
        }
        let top = [255u8; 64];
        assert_eq!(byte_masks(&top, 200, 255, 255), (u64::MAX, u64::MAX));
        assert_eq!(byte_masks(&top, 0, 254, 0), (0, 0));
    }

    #[test]
    fn zeroed_atomic_bytes_start_at_zero_and_keep_writes() {
        let a = zeroed_atomic_bytes(5000);
        assert!(a.iter().all(|b| b.load(Relaxed) == 0));
        a[4999].store(7, Relaxed);
        assert_eq!(a[4999].load(Relaxed), 7);
    }

    #[test]
    fn huge_zeroed_buffers_start_at_zero_and_keep_writes() {
        let len = 3 << 20;
        let bytes = huge_zeroed_bytes(len);
        assert_eq!(bytes.len(), len);
        assert!(bytes.iter().all(|&b| b == 0));
        let mut bytes = bytes;
        bytes[len - 1] = 9;
        assert_eq!(bytes[len - 1], 9);
        advise_huge_pages(&bytes[1..2]);
    }

    #[test]
    fn writes_through_the_view_are_the_bytes() {
        let mut v = vec![0u8; 1000];
        std::thread::scope(|s| {
            let a = atomic_bytes(&mut v);
            for t in 0..4usize {
                s.spawn(move || {
                    for i in (t..1000).step_by(4) {
                        a[i].store((i % 251) as u8, Relaxed);
                    }
                });
            }
        });
        assert!(v.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
    }
}
