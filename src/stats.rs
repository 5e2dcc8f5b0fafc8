//! Interval and test for rates: Wilson's 95% score interval, and the
//! McNemar test for two players measured on the same deals or games (only
//! those where they differ carry information). Used by the Klondike report,
//! the knight's tour and the defensive noughts-and-crosses machine.

/// The 97.5% quantile of the standard normal (two-sided 95%).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wilson score interval for `wins` of `n` at 95%.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = wins as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 or n wins the bound is exactly 0 or 1; computed, it can miss by
    // a rounding error and leave the observed rate outside its interval.
    let low = if wins == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if wins as f64 == n { 1.0 } else { (centre + half).min(1.0) };
    (low, high)
}

/// Complementary error function (Numerical Recipes' erfcc, relative error
/// below 1.2e-7 everywhere).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Paired comparison of A and B on the same deals: `only_a` deals won by
/// A alone, `only_b` by B alone. Returns the difference in win rate over
/// `n` deals, its 95% interval (normal approximation for paired
/// proportions) and McNemar's two-sided p-value (continuity-corrected).
pub fn paired(only_a: u64, only_b: u64, n: u64) -> (f64, (f64, f64), f64) {
    let nf = n.max(1) as f64;
    let (b, c) = (only_a as f64, only_b as f64);
    let diff = (b - c) / nf;
    let var = ((b + c) / nf - diff * diff) / nf;
    let half = Z95 * var.max(0.0).sqrt();
    let p = if only_a + only_b == 0 {
        1.0
    } else {
        let chi = ((b - c).abs() - 1.0).max(0.0) / (b + c).sqrt();
        erfc(chi / std::f64::consts::SQRT_2)
    };
    (diff, (diff - half, diff + half), p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ends_of_the_range_are_exact() {
        for n in [1u64, 7, 300, 20_000] {
            assert_eq!(wilson(0, n).0, 0.0, "0 of {n}");
            assert_eq!(wilson(n, n).1, 1.0, "{n} of {n}");
        }
    }

    #[test]
    fn known_values() {
        // Wilson interval for 8 of 10: 0.490 .. 0.943.
        let (lo, hi) = wilson(8, 10);
        assert!(
            (lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert!((erfc(0.0) - 1.0).abs() < 1e-7);
        assert!((erfc(1.0) - 0.157_299_207).abs() < 1e-6);
        // chi = 1.96 gives p = 0.05.
        assert!((erfc(Z95 / std::f64::consts::SQRT_2) - 0.05).abs() < 1e-6);
        let (d, _, p) = paired(30, 10, 1000);
        assert!((d - 0.02).abs() < 1e-12);
        assert!(p < 0.01 && p > 0.001, "{p}");
        assert_eq!(paired(5, 5, 100).2, erfc(0.0));
    }
}
