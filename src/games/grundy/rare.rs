//! Rare and common values (Winning Ways ch. 4): a value is rare when its
//! bits above the lowest one have even parity. Parity is linear under XOR,
//! so a common value is only reached from a split with a rare part, the
//! fact the sparse-space method (`sparse`) and its split targets
//! (`targets`) both rest on.

/// Whether `v` is a rare value.
pub fn is_rare_value(v: u16) -> bool {
    (v >> 1).count_ones().is_multiple_of(2)
}
