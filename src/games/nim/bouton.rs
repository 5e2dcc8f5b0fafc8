//! Bouton's Nim: any number taken from one heap. Normal play: P iff the XOR
//! of the heaps is 0. Misère: the same, except when every heap is ≤ 1, where
//! P iff the number of 1-heaps is odd.

/// A move: heap index and the size it is reduced to.
pub type Move = (usize, u64);

/// Bouton's rule: safe (a P-position) iff the nim-sum is 0, except in misère play when every heap is 0 or 1 (then iff the count of ones is odd).
pub fn is_p(heaps: &[u64], misere: bool) -> bool {
    let x = heaps.iter().fold(0, |a, &h| a ^ h);
    if misere && heaps.iter().all(|&h| h <= 1) {
        x == 1
    } else {
        x == 0
    }
}

/// Every move to a P-position.
pub fn winning_moves(heaps: &[u64], misere: bool) -> Vec<Move> {
    let x = heaps.iter().fold(0, |a, &h| a ^ h);
    let big = heaps.iter().filter(|&&h| h > 1).count();
    let mut moves = Vec::new();
    if misere && big <= 1 {
        // With at most one big heap, the winner leaves an odd number of
        // 1-heaps and nothing bigger.
        let ones = heaps.iter().filter(|&&h| h == 1).count() as u64;
        for (i, &h) in heaps.iter().enumerate() {
            if big == 1 && h <= 1 {
                continue;
            }
            let others = ones - u64::from(h == 1);
            for target in [0u64, 1] {
                if target < h && (others + target) % 2 == 1 {
                    moves.push((i, target));
                }
            }
        }
        return moves;
    }
    for (i, &h) in heaps.iter().enumerate() {
        if h ^ x < h {
            moves.push((i, h ^ x));
        }
    }
    moves
}
