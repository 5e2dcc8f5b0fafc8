//! Eventual periodicity certified by the Guy–Smith periodicity theorem: for
//! an octal game whose largest removal is t, if G(n + p) = G(n) for all
//! n0 ≤ n < 2·n0 + p + t, then G(n + p) = G(n) for every n ≥ n0. (For
//! n ≥ 2·n0 + p + t every split of n + p − i has its larger part ≥ n0 + p, so
//! options of n and n + p correspond one to one.) The check needs values up
//! to 2·n0 + 2p + t − 1; the proof step uses n0 ≥ 1, so n0 = 0 is checked
//! as n0 = 1.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
/// A proved period: G(n + p) = G(n) for every n ≥ the pre-period.
pub struct Period {
    /// The period p.
    pub period: u64,
    /// Smallest n0 with G(n + p) = G(n) for all n ≥ n0.
    pub preperiod: u64,
    /// Largest heap the theorem's hypothesis needed (≤ the table bound).
    pub certified_with_values_to: u64,
}

/// The smallest period the computed values prove, if any.
pub fn find(g: &[u16], max_removal: usize) -> Option<Period> {
    let bound = g.len().checked_sub(1)? as u64;
    let t = max_removal as u64;
    for p in 1..=bound / 2 {
        // Smallest n0 such that G(n + p) = G(n) for all n0 ≤ n ≤ bound − p.
        let mut n0 = bound - p + 1;
        while n0 > 0 && g[(n0 - 1) as usize] == g[(n0 - 1 + p) as usize] {
            n0 -= 1;
        }
        let need = 2 * n0.max(1) + 2 * p + t - 1;
        if need <= bound {
            return Some(Period {
                period: p,
                preperiod: n0,
                certified_with_values_to: need,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_planted_period_and_refuses_short_evidence() {
        let mut g: Vec<u16> = (0..200).map(|n| [1u16, 2, 3][n % 3]).collect();
        g[10] = 9;
        let p = find(&g, 2).unwrap();
        assert_eq!((p.period, p.preperiod), (3, 11));
        assert!(p.certified_with_values_to <= 199);
        assert_eq!(find(&g[..28], 2), None);
    }
}
