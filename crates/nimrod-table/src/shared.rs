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
