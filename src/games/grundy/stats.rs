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
}
