//! Closed-form rankings shared by games: bijections from canonical positions
//! to 0..len with no stored structure.

/// Binomial coefficient C(n, k) in u64 (None on overflow).
pub fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * (n - i) as u128 / (i + 1) as u128;
        if r > u64::MAX as u128 {
            return None;
        }
    }
    Some(r as u64)
}

/// Rank of a k-subset of 0..n (given as a sorted bitmask) in the
/// combinatorial number system: sum of C(c_i, i+1) over its elements c_0 < c_1 < ….
pub fn rank_subset(mask: u64) -> u64 {
    let mut r = 0;
    let mut m = mask;
    let mut i = 1;
    while m != 0 {
        let c = m.trailing_zeros() as u64;
        r += binomial(c, i).unwrap_or(0);
        i += 1;
        m &= m - 1;
    }
    r
}

/// Inverse of `rank_subset` for k-subsets.
pub fn unrank_subset(mut rank: u64, k: u32) -> u64 {
    let mut mask = 0u64;
    for i in (1..=k as u64).rev() {
        let mut c = i - 1;
        while binomial(c + 1, i).unwrap_or(u64::MAX) <= rank {
            c += 1;
        }
        rank -= binomial(c, i).unwrap_or(0);
        mask |= 1 << c;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_ranking_is_a_bijection() {
        for k in 0..=5u32 {
            let n = 10u32;
            let total = binomial(n as u64, k as u64).unwrap();
            let mut ranks: Vec<u64> = (0u64..1 << n)
                .filter(|m| m.count_ones() == k)
                .map(rank_subset)
                .collect();
            ranks.sort_unstable();
            assert_eq!(ranks, (0..total).collect::<Vec<_>>());
            for r in 0..total {
                assert_eq!(rank_subset(unrank_subset(r, k)), r);
            }
        }
    }
}
