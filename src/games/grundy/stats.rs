//! What a Grundy values table records about its build.

/// Statistics recorded in the table metadata.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GrundyStats {
    /// The largest heap solved.
    pub bound: u64,
    /// The largest value seen.
    pub max_value: u16,
    /// The first heap with that value.
    pub max_value_first_heap: u64,
    /// Heaps n ≥ 0 (heap 0 included, as in Flammenkamp's list) with a rare value.
    pub rare_count: u64,
    /// The largest heap with a rare value.
    pub last_rare_heap: u64,
    /// Heaps of value 0 (P-positions).
    pub zero_count: u64,
    /// The largest heap of value 0.
    pub last_zero_heap: u64,
    /// Step-2 splits marked or tried, summed over heaps (a cost indicator:
    /// in block mode, every part of the block pass counts for every heap).
    /// Depends on the solver version, never on the thread count.
    pub scan_steps: u64,
    /// Heaps where the scan had to run to the end (exact fallback).
    pub full_scans: u64,
    /// Every value that occurs, with the first heap that has it, in heap
    /// order. A one-byte table stores a heap's value as its position in
    /// this list.
    #[serde(default)]
    pub first_heaps: Vec<FirstHeap>,
}

/// A value and the first heap that has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FirstHeap {
    /// The value.
    pub value: u16,
    /// The first heap with that value.
    pub heap: u64,
}

/// Tracks which values have occurred, to extend `first_heaps`.
#[derive(Clone)]
pub(super) struct Occurred(Vec<u64>);

impl Occurred {
    /// The values in `first` have occurred.
    pub(super) fn of(first: &[FirstHeap]) -> Self {
        let mut o = Occurred(vec![0; (1 << 16) / 64]);
        for f in first {
            o.set(f.value);
        }
        o
    }

    fn set(&mut self, value: u16) {
        self.0[usize::from(value >> 6)] |= 1 << (value & 63);
    }

    /// Whether `value` has occurred.
    pub(super) fn has(&self, value: u16) -> bool {
        self.0[usize::from(value >> 6)] & (1 << (value & 63)) != 0
    }

    /// Records `value` at heap `n`, listing it in `first` the first time.
    #[inline]
    pub(super) fn record(&mut self, value: u16, n: u64, first: &mut Vec<FirstHeap>) {
        if !self.has(value) {
            self.set(value);
            first.push(FirstHeap { value, heap: n });
        }
    }
}
