//! The optimality certificate of a matrix-game answer. By the minimax
//! theorem, for any probability vectors x and y,
//! min_j Σ_i x_i a_ij ≤ value ≤ max_i Σ_j a_ij y_j, so a pair whose two
//! guarantees (nearly) meet proves the value without trusting how x and y
//! were found. This check is what stands between a simplex that stopped
//! early and a stored table entry.

use super::matrix_game::{MatrixGame, MAX_DIM};
use std::fmt;

/// Largest gap, relative to max(1, max |payoff|), between the two
/// guarantees (and between the value and either of them) that a solution
/// may have. Entries of a strategy may be negative or sum away from 1 by at
/// most the same relative amount before they are cleaned.
pub const GAP_TOLERANCE: f64 = 1e-9;

/// What a certified pair of strategies proves: the value lies in
/// [lower, upper].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Certificate {
    /// What the row strategy guarantees (its worst column).
    pub lower: f64,
    /// What the column strategy concedes at most (its worst row).
    pub upper: f64,
}

impl Certificate {
    /// What the column strategy concedes beyond what the row strategy guarantees (≥ 0 up to rounding).
    pub fn gap(&self) -> f64 {
        self.upper - self.lower
    }
}

/// Why an answer is not certified.
#[derive(Debug, Clone, PartialEq)]
pub enum CertificateError {
    /// A strategy entry is negative or not finite (player, index, entry).
    NotAProbability(&'static str, usize, f64),
    /// A strategy's entries do not sum to 1 (player, sum).
    BadSum(&'static str, f64),
    /// The guarantees are too far apart.
    Gap {
        /// The row strategy's guarantee.
        lower: f64,
        /// The column strategy's concession.
        upper: f64,
        /// The largest gap allowed.
        tolerance: f64,
    },
    /// The value lies outside what the strategies prove.
    ValueOutside {
        /// The value claimed.
        value: f64,
        /// The row strategy's guarantee.
        lower: f64,
        /// The column strategy's concession.
        upper: f64,
    },
}

impl fmt::Display for CertificateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertificateError::NotAProbability(who, i, v) => {
                write!(f, "{who} strategy entry {i} is {v}, not a probability")
            }
            CertificateError::BadSum(who, s) => {
                write!(f, "{who} strategy sums to {s}, not 1")
            }
            CertificateError::Gap {
                lower,
                upper,
                tolerance,
            } => write!(
                f,
                "guarantees {lower} (row) and {upper} (column) differ by {} > {tolerance}",
                upper - lower
            ),
            CertificateError::ValueOutside {
                value,
                lower,
                upper,
            } => write!(
                f,
                "value {value} outside the proven range [{lower}, {upper}]"
            ),
        }
    }
}

impl std::error::Error for CertificateError {}

impl MatrixGame {
    /// Largest absolute payoff, at least 1: the scale of every tolerance.
    pub fn scale(&self) -> f64 {
        let mut s = 1.0f64;
        for i in 0..self.rows() {
            for j in 0..self.cols() {
                s = s.max(self.get(i, j).abs());
            }
        }
        s
    }

    /// Checks `value` with strategies `row` and `col`, cleaning them in place
    /// first (entries in [−tol, 0) become 0, then each is rescaled to sum 1),
    /// so that the guarantees are computed from true probability vectors.
    pub fn certificate(
        &self,
        value: f64,
        row: &mut [f64; MAX_DIM],
        col: &mut [f64; MAX_DIM],
    ) -> Result<Certificate, CertificateError> {
        self.certificate_at_scale(value, row, col, self.scale())
    }

    /// `certificate` with the payoffs' scale (`scale()`) already known:
    /// the solver finds it in its first pass over the payoffs.
    pub(super) fn certificate_at_scale(
        &self,
        value: f64,
        row: &mut [f64; MAX_DIM],
        col: &mut [f64; MAX_DIM],
        scale: f64,
    ) -> Result<Certificate, CertificateError> {
        debug_assert_eq!(scale.to_bits(), self.scale().to_bits());
        let (lower, upper) = self.cleaned_guarantees(row, col)?;
        let tol = GAP_TOLERANCE * scale;
        let c = Certificate { lower, upper };
        // Written so that a NaN gap fails too.
        let within = c.gap() <= tol;
        if !within {
            return Err(CertificateError::Gap {
                lower: c.lower,
                upper: c.upper,
                tolerance: tol,
            });
        }
        let inside = value >= c.lower - tol && value <= c.upper + tol;
        if !inside {
            return Err(CertificateError::ValueOutside {
                value,
                lower: c.lower,
                upper: c.upper,
            });
        }
        Ok(c)
    }
}

/// Cleans a strategy in place (entries in [−tol, 0) become 0, then the
/// whole is rescaled to sum 1), or says why it is not a probability vector.
#[inline(always)]
pub(super) fn clean(who: &'static str, p: &mut [f64]) -> Result<(), CertificateError> {
    let tol = GAP_TOLERANCE;
    let cleaned = |x: f64| if x < 0.0 { 0.0 } else { x };
    // Branch-free passes (this runs twice per matrix game); the first bad
    // entry is looked for only when there is one.
    let mut all_ok = true;
    let mut sum = 0.0;
    for &x in p.iter() {
        all_ok &= (x >= -tol) & (x <= f64::MAX);
        sum += cleaned(x);
    }
    if !all_ok {
        let (i, &x) = p
            .iter()
            .enumerate()
            .find(|(_, x)| !x.is_finite() || **x < -tol)
            .expect("a bad entry");
        return Err(CertificateError::NotAProbability(who, i, x));
    }
    let sums_to_one = (sum - 1.0).abs() <= tol;
    if !sums_to_one {
        return Err(CertificateError::BadSum(who, sum));
    }
    if sum != 1.0 {
        for x in p.iter_mut() {
            *x = cleaned(*x) / sum;
        }
    } else {
        for x in p.iter_mut() {
            *x = cleaned(*x);
        }
    }
    Ok(())
}
