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
