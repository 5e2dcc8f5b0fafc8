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

/// Misère Nim_k (Moore 1910): when no heap exceeds 1, P iff the number of
/// 1-heaps is 1 mod k + 1; otherwise as in normal play.
pub fn is_p_misere(heaps: &[u64], k: usize) -> bool {
    if heaps.iter().all(|&h| h <= 1) {
        heaps.iter().filter(|&&h| h == 1).count() % (k + 1) == 1
    } else {
        is_p(heaps, k)
    }
}

/// The most work (heap subsets of size s, times 4^s digit choices)
/// `winning_moves` takes on before it declines to list.
pub const MAX_WORK: u128 = 5_000_000;

/// Every winning move (new heap sizes, in order of the heaps changed) of
/// Nim_k, normal or misère: the first `limit` of them and how many there
/// are in all. None when there are too many heap subsets to examine
/// (`MAX_WORK`); a P-position has none.
pub fn winning_moves(
    heaps: &[u64],
    k: usize,
    misere: bool,
    limit: usize,
) -> Option<(Vec<Vec<u64>>, u128)> {
    let n = heaps.len();
    let k = k.min(n).max(1);
    // Work: every subset of at most k heaps, times the digit choices of
    // its heaps per state (2^s) and its tight states (2^s).
    let mut work: u128 = 0;
    let mut c: u128 = 1;
    for s in 1..=k {
        c = c * (n - s + 1) as u128 / s as u128;
        work = work.saturating_add(c.saturating_mul(1u128 << (2 * s).min(120)));
        if work > MAX_WORK {
            return None;
        }
    }
    let target_p = |h: &[u64]| {
        if misere {
            is_p_misere(h, k)
        } else {
            is_p(h, k)
        }
    };
    let mut list = Vec::new();
    let mut total: u128 = 0;
    let all_small_after = |s: &[usize]| (0..n).all(|i| s.contains(&i) || heaps[i] <= 1);
    let mut subset: Vec<usize> = Vec::new();
    // Subsets of non-empty heaps, lexicographic.
    fn next_subset(subset: &mut Vec<usize>, n: usize, k: usize) -> bool {
        if subset.len() < k {
            let start = subset.last().map_or(0, |&l| l + 1);
            if start < n {
                subset.push(start);
                return true;
            }
        }
        while let Some(last) = subset.pop() {
            if last + 1 < n {
                subset.push(last + 1);
                return true;
            }
        }
        false
    }
    while next_subset(&mut subset, n, k) {
        if subset.iter().any(|&i| heaps[i] == 0) {
            continue;
        }
        let normal = DigitCount::new(heaps, &subset, k);
        // Normal-play targets (every heap of the subset strictly lower).
        let mut count = normal.count();
        let small = if misere && all_small_after(&subset) {
            zero_one_targets(heaps, &subset)
        } else {
            Vec::new()
        };
        // Targets where every heap ends at 0 or 1 are P in one game and not
        // the other: they are counted apart, by brute force.
        for t in &small {
            count -= u128::from(is_p(t, k));
            count += u128::from(is_p_misere(t, k));
        }
        total += count;
        if list.len() < limit && count > 0 {
            normal.list(&mut |t: &[u64]| {
                if !misere || t.iter().any(|&h| h > 1) {
                    list.push(t.to_vec());
                }
                list.len() < limit
            });
            for t in small {
                if is_p_misere(&t, k) && list.len() < limit {
                    list.push(t);
                }
            }
        }
    }
    debug_assert!(list.iter().all(|t| target_p(t)));
    Some((list, total))
}

/// The moves of `subset`'s heaps to 0 or 1 each (every one strictly
/// lower), as the heaps after the move.
fn zero_one_targets(heaps: &[u64], subset: &[usize]) -> Vec<Vec<u64>> {
    (0u64..1 << subset.len())
        .filter_map(|bits| {
            let mut t = heaps.to_vec();
            for (j, &i) in subset.iter().enumerate() {
                t[i] = bits >> j & 1;
                if t[i] >= heaps[i] {
                    return None;
                }
            }
            Some(t)
        })
        .collect()
}

/// The normal-play targets of one subset of heaps: the new values of the
/// subset's heaps, each strictly lower, that make every binary column's
/// count of ones divisible by k + 1. Digit by digit from the top, with the
/// heaps still equal to their old value so far ("tight") as the state.
struct DigitCount<'a> {
    heaps: &'a [u64],
    subset: &'a [usize],
    /// Ones each column needs from the subset.
    need: Vec<u32>,
    top: u32,
}

impl<'a> DigitCount<'a> {
    fn new(heaps: &'a [u64], subset: &'a [usize], k: usize) -> DigitCount<'a> {
        let top = heaps
            .iter()
            .map(|h| 64 - h.leading_zeros())
            .max()
            .unwrap_or(0);
        let m = (k + 1) as u32;
        let need = (0..top)
            .map(|bit| {
                let others = (0..heaps.len())
                    .filter(|i| !subset.contains(i) && heaps[*i] >> bit & 1 == 1)
                    .count() as u32;
                (m - others % m) % m
            })
            .collect();
        DigitCount {
            heaps,
            subset,
            need,
            top,
        }
    }

    /// How many targets there are.
    fn count(&self) -> u128 {
        let mut memo = std::collections::HashMap::new();
        let all = (1u64 << self.subset.len()) - 1;
        self.count_from(self.top, all, &mut memo)
    }

    fn choices(&self, bit: u32, tight: u64) -> Vec<(u64, u64)> {
        // (ones assigned as a mask over the subset, the new tight mask).
        let s = self.subset.len();
        let need = self.need[bit as usize];
        let mut out = Vec::new();
        if need as usize > s {
            return out;
        }
        for ones in 0u64..1 << s {
            if ones.count_ones() != need {
                continue;
            }
            let mut next = 0u64;
            let mut ok = true;
            for j in 0..s {
                let old = self.heaps[self.subset[j]] >> bit & 1;
                let new = ones >> j & 1;
                if tight >> j & 1 == 1 {
                    if new > old {
                        ok = false;
                        break;
                    }
                    if new == old {
                        next |= 1 << j;
                    }
                }
            }
            if ok {
                out.push((ones, next));
            }
        }
        out
    }

    fn count_from(
        &self,
        bit: u32,
        tight: u64,
        memo: &mut std::collections::HashMap<(u32, u64), u128>,
    ) -> u128 {
        if bit == 0 {
            return u128::from(tight == 0);
        }
        if let Some(&c) = memo.get(&(bit, tight)) {
            return c;
        }
        let c = self
            .choices(bit - 1, tight)
            .into_iter()
            .map(|(_, next)| self.count_from(bit - 1, next, memo))
            .sum();
        memo.insert((bit, tight), c);
        c
    }

    /// Calls `emit` with every target, in order, while it returns true.
    fn list(&self, emit: &mut dyn FnMut(&[u64]) -> bool) {
        let mut values = vec![0u64; self.subset.len()];
        let all = (1u64 << self.subset.len()) - 1;
        let mut memo = std::collections::HashMap::new();
        self.list_from(self.top, all, &mut values, emit, &mut memo);
    }

    /// False once `emit` has asked to stop. Branches without a target are
    /// skipped by their count, so the walk costs only what it lists.
    fn list_from(
        &self,
        bit: u32,
        tight: u64,
        values: &mut [u64],
        emit: &mut dyn FnMut(&[u64]) -> bool,
        memo: &mut std::collections::HashMap<(u32, u64), u128>,
    ) -> bool {
        if bit == 0 {
            if tight != 0 {
                return true;
            }
            let mut t = self.heaps.to_vec();
            for (j, &i) in self.subset.iter().enumerate() {
                t[i] = values[j];
            }
            return emit(&t);
        }
        for (ones, next) in self.choices(bit - 1, tight) {
            if self.count_from(bit - 1, next, memo) == 0 {
                continue;
            }
            for (j, v) in values.iter_mut().enumerate() {
                *v = *v & !(1 << (bit - 1)) | (ones >> j & 1) << (bit - 1);
            }
            if !self.list_from(bit - 1, next, values, emit, memo) {
                return false;
            }
        }
        true
    }
}
