//! The solver (one pass, keeping the largest safe pile) and the reference
//! (every take tried).

use super::Convention;

/// Smallest winning take for every pile 0..=bound (0 = safe: every move
/// loses, or in last-loses play the pile admits no move).
pub fn solve(bound: u64, conv: Convention) -> Vec<u32> {
    let mut best = vec![0u32; bound as usize + 1];
    // Largest safe pile seen so far: a take wins iff it lands on a safe pile
    // in [n − ⌊n/2⌋, n − 1]; the largest safe pile below n is the only
    // candidate needed for the smallest take.
    let mut safe: Vec<u64> = Vec::new();
    for n in 0..=bound {
        let lo = n - n / 2;
        let no_moves = n / 2 == 0;
        let win_take = if no_moves {
            match conv {
                Convention::LastMoverWins => None,
                Convention::LastMoverLoses => Some(0),
            }
        } else {
            safe.last().filter(|&&s| s >= lo).map(|&s| n - s)
        };
        match win_take {
            None => {
                safe.push(n);
                best[n as usize] = 0;
            }
            Some(t) => best[n as usize] = t as u32,
        }
    }
    // Piles without moves in last-loses play are wins with no take; they are
    // marked by u32::MAX so that 0 keeps meaning "safe".
    if conv == Convention::LastMoverLoses {
        for n in 0..=bound.min(1) {
            best[n as usize] = u32::MAX;
        }
    }
    best
}

/// Reference: `safe[n]` by trying every take (O(n²)).
pub fn brute_force(bound: u64, conv: Convention) -> Vec<bool> {
    let mut safe = vec![false; bound as usize + 1];
    for n in 0..=bound as usize {
        let moves: Vec<usize> = (1..=n / 2).map(|k| n - k).collect();
        safe[n] = if moves.is_empty() {
            conv == Convention::LastMoverWins
        } else {
            moves.iter().all(|&m| !safe[m])
        };
    }
    safe
}
