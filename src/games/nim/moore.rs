//! Moore's Nim_k: a move takes from between 1 and k heaps. P iff, in every
//! binary digit position, the number of heaps with a 1 there is divisible by
//! k + 1.

/// Moore's rule: safe iff every binary digit column sums to 0 mod k + 1.
pub fn is_p(heaps: &[u64], k: usize) -> bool {
    (0..64).all(|bit| heaps.iter().filter(|&&h| h >> bit & 1 == 1).count() % (k + 1) == 0)
}

/// A move to a P-position from an N-position (new heap sizes), following
/// Moore's proof: go from the highest digit down; heaps already reduced are
/// free in lower digits; at each digit either set free heaps' digits to make
/// the count divisible by k + 1 or reduce r more heaps that have a 1 there.
/// Returns None for a P-position.
pub fn winning_move(heaps: &[u64], k: usize) -> Option<Vec<u64>> {
    if is_p(heaps, k) {
        return None;
    }
    let m = k + 1;
    let mut new = heaps.to_vec();
    let mut free = vec![false; heaps.len()];
    let top = heaps
        .iter()
        .map(|h| 64 - h.leading_zeros())
        .max()
        .unwrap_or(0);
    for bit in (0..top).rev() {
        let b = 1u64 << bit;
        let ones = (0..heaps.len())
            .filter(|&i| !free[i] && heaps[i] & b != 0)
            .count();
        let r = ones % m;
        let nfree = free.iter().filter(|&&f| f).count();
        // Free heaps start the digit at 0.
        for i in 0..heaps.len() {
            if free[i] {
                new[i] &= !b;
            }
        }
        if r == 0 {
            continue;
        }
        if nfree >= m - r {
            // Set this digit in m − r free heaps.
            for i in (0..heaps.len()).filter(|&i| free[i]).take(m - r) {
                new[i] |= b;
            }
        } else {
            // nfree + r ≤ k: reduce r more heaps that have this digit set.
            let chosen: Vec<usize> = (0..heaps.len())
                .filter(|&i| !free[i] && heaps[i] & b != 0)
                .take(r)
                .collect();
            for i in chosen {
                free[i] = true;
                new[i] = heaps[i] & !(2 * b - 1); // keep higher digits, clear this one
            }
        }
    }
    Some(new)
}
