//! A helper thread that takes pieces of a job while the solving thread does
//! other work, then helps with whatever pieces are left.
//!
//! Hand-over costs a few atomic operations, not a thread wake-up: a block of
//! heaps is ~100 µs of work, and waking a sleeping rayon worker for each one
//! cost about 40 µs on the 2-core machine. The helper spins while work comes
//! often and sleeps in short naps when it stops coming. The solving thread
//! takes pieces itself too, so nothing ever waits for the helper to wake.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Pieces per job; the low bits of `next` count them.
const PIECE_BITS: u32 = 8;
/// Spins before the idle helper starts napping.
const SPINS_BEFORE_NAP: u32 = 1 << 16;
/// A spinning thread yields its core this often: on a machine with more
/// runnable threads than cores, the thread it waits for may be the one
/// kept off the core by its spinning.
const SPINS_BEFORE_YIELD: u32 = 1 << 10;
const NAP: Duration = Duration::from_micros(50);

/// Keeps what the helper spins on apart from everything the solving thread
/// writes: sharing a cache line with, say, a vector's length made every
/// push of the solver wait for the line to come back from the spinning core.
#[repr(align(128))]
struct Apart<T>(T);

impl<T> std::ops::Deref for Apart<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The pieces of one job at a time, shared between the solving thread and
/// at most one helper thread.
pub struct Crew<J> {
    job: Mutex<Option<Arc<J>>>,
    /// Job number in the high bits, next unclaimed piece in the low bits: a
    /// piece is claimed by compare-and-swap, so a thread still holding an
    /// old job can never claim a piece of a newer one.
    next: Apart<AtomicU64>,
    done: Apart<AtomicUsize>,
    pieces: usize,
    quit: Apart<AtomicBool>,
    /// Set if the helper panicked: its piece will never be done, and the
    /// marks it left are incomplete.
    failed: AtomicBool,
}

/// One spin of a wait, every `SPINS_BEFORE_YIELD`th a yield of the core.
#[inline]
fn spin_or_yield(spins: &mut u32) {
    // Wrapping: a wait on a helper kept off its core for long must not
    // overflow the count.
    *spins = spins.wrapping_add(1);
    if (*spins).is_multiple_of(SPINS_BEFORE_YIELD) {
        std::thread::yield_now();
    } else {
        std::hint::spin_loop();
    }
}

/// Raises `failed` if the helper unwinds.
struct FailFlag<'a>(&'a AtomicBool);

impl Drop for FailFlag<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
    }
}

impl<J> Crew<J> {
    /// A crew for jobs of `pieces` pieces each (fewer than 256).
    pub fn new(pieces: usize) -> Self {
        assert!(pieces < 1 << PIECE_BITS);
        Crew {
            job: Mutex::new(None),
            next: Apart(AtomicU64::new(0)),
            done: Apart(AtomicUsize::new(0)),
            pieces,
            quit: Apart(AtomicBool::new(false)),
            failed: AtomicBool::new(false),
        }
    }

    /// Pieces a job has.
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// Offers a new job; the previous one must be finished (`wait`).
    pub fn publish(&self, job: Arc<J>) {
        *self.job.lock().unwrap_or_else(PoisonError::into_inner) = Some(job);
        self.done.store(0, Ordering::Relaxed);
        let epoch = (self.next.load(Ordering::Relaxed) >> PIECE_BITS) + 1;
        self.next.store(epoch << PIECE_BITS, Ordering::Release);
    }

    /// Does unclaimed pieces of the current job until none is left.
    pub fn take_pieces(&self, work: &impl Fn(&J, usize)) {
        let epoch = self.next.load(Ordering::Acquire) >> PIECE_BITS;
        let Some(job) = self
            .job
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
        else {
            return;
        };
        loop {
            let cur = self.next.load(Ordering::Acquire);
            let piece = (cur & ((1 << PIECE_BITS) - 1)) as usize;
            if cur >> PIECE_BITS != epoch || piece >= self.pieces {
                return;
            }
            if self
                .next
                .compare_exchange(cur, cur + 1, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                work(&job, piece);
                self.done.fetch_add(1, Ordering::Release);
            }
        }
    }

    /// Waits until every piece of the current job is done.
    pub fn wait(&self) {
        let mut spins = 0u32;
        while self.done.load(Ordering::Acquire) < self.pieces {
            assert!(
                !self.failed.load(Ordering::Acquire),
                "the marking helper thread panicked"
            );
            spin_or_yield(&mut spins);
        }
    }

    /// Takes back the finished job (after `wait`) and, once the helper has
    /// let go of its handle, what it holds: a job can carry its owner's
    /// data to the helper and back, moved rather than copied.
    pub fn reclaim(&self) -> Option<J> {
        let mut job = self
            .job
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()?;
        let mut spins = 0u32;
        loop {
            match Arc::try_unwrap(job) {
                Ok(owned) => return Some(owned),
                // The helper drops its handle as it leaves `take_pieces`.
                Err(shared) => job = shared,
            }
            spin_or_yield(&mut spins);
        }
    }

    /// The helper thread's loop, until `stop`.
    pub fn help(&self, work: &impl Fn(&J, usize)) {
        let _flag = FailFlag(&self.failed);
        let mut idle = 0u32;
        while !self.quit.load(Ordering::Relaxed) {
            let cur = self.next.load(Ordering::Acquire);
            if ((cur & ((1 << PIECE_BITS) - 1)) as usize) < self.pieces && cur >> PIECE_BITS != 0 {
                self.take_pieces(work);
                idle = 0;
            } else if idle < SPINS_BEFORE_NAP {
                spin_or_yield(&mut idle);
            } else {
                std::thread::sleep(NAP);
            }
        }
    }

    /// Stops the helper when dropped.
    pub fn stopper(&self) -> impl Drop + '_ {
        struct Stopper<'a>(&'a AtomicBool);
        impl Drop for Stopper<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        Stopper(&self.quit)
    }
}
