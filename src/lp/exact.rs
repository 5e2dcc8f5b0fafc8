//! Matrix games in exact rational arithmetic: the same compact-tableau
//! simplex as the f64 solver, with Bland's rule (which cannot cycle) and no
//! tolerances. Slow (big integers), so it is the last fallback of the f64
//! solver and the reference that small GOPS tables are compared against.
//! Every answer is checked exactly before it is returned: both strategies
//! are probability vectors and each guarantees exactly the value.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Value and optimal strategies of a matrix game, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactSolution {
    /// The game's value.
    pub value: BigRational,
    /// The row player's optimal strategy.
    pub row: Vec<BigRational>,
    /// The column player's optimal strategy.
    pub col: Vec<BigRational>,
}

/// Solves a game whose payoffs are f64 (each f64 is an exact rational).
/// Panics on a non-finite payoff or a ragged or empty matrix (callers
/// validate their input).
pub fn solve_f64_game(a: &[Vec<f64>]) -> ExactSolution {
    let exact: Vec<Vec<BigRational>> = a
        .iter()
        .map(|r| {
            r.iter()
                .map(|&v| BigRational::from_float(v).expect("finite payoff"))
                .collect()
        })
        .collect();
    solve(&exact)
}

/// Nearest f64 of a rational (falls back to the quotient of the parts'
/// approximations, which only very large numerators need).
pub fn to_f64(x: &BigRational) -> f64 {
    x.to_f64().unwrap_or_else(|| {
        x.numer().to_f64().unwrap_or(f64::NAN) / x.denom().to_f64().unwrap_or(f64::NAN)
    })
}

/// Solves the game with payoff matrix `a` (row player maximises).
pub fn solve(a: &[Vec<BigRational>]) -> ExactSolution {
    let m = a.len();
    assert!(m > 0 && !a[0].is_empty(), "empty payoff matrix");
    let n = a[0].len();
    assert!(a.iter().all(|r| r.len() == n), "ragged payoff matrix");
    let lowest = a.iter().flatten().min().expect("non-empty").clone();
    // Payoffs shifted to be ≥ 1, so the LP max Σu, A'u ≤ 1, u ≥ 0 is
    // bounded with a positive optimum.
    let shift = BigRational::one() - lowest;
    let mut t: Vec<Vec<BigRational>> = a
        .iter()
        .map(|r| r.iter().map(|v| v + &shift).collect())
        .collect();
    let mut rhs = vec![BigRational::one(); m];
    let mut cost = vec![-BigRational::one(); n];
    let mut corner = BigRational::zero();
    // Labels: >= 0 a row strategy index (x_i), < 0 is !j for y_j. Bland's
    // order: y_0 .. y_{n-1}, then x_0 .. x_{m-1}.
    let mut row_label: Vec<i32> = (0..m as i32).collect();
    let mut col_label: Vec<i32> = (0..n as i32).map(|j| !j).collect();
    let key = |l: i32| if l < 0 { !l as usize } else { n + l as usize };
    while let Some(pc) = (0..n)
        .filter(|&j| cost[j].is_negative())
        .min_by_key(|&j| key(col_label[j]))
    {
        let mut pr: Option<(usize, BigRational)> = None;
        for i in 0..m {
            if t[i][pc].is_positive() {
                let r = &rhs[i] / &t[i][pc];
                let better = match &pr {
                    None => true,
                    Some((p, best)) => {
                        r < *best || (r == *best && key(row_label[i]) < key(row_label[*p]))
                    }
                };
                if better {
                    pr = Some((i, r));
                }
            }
        }
        let (pr, _) = pr.expect("a bounded LP has a pivot row in every improving column");
        let inv = BigRational::one() / &t[pr][pc];
        let pivot_row: Vec<BigRational> = t[pr].iter().map(|v| v * &inv).collect();
        let pivot_rhs = &rhs[pr] * &inv;
        for i in 0..m {
            if i == pr || t[i][pc].is_zero() {
                continue;
            }
            let f = t[i][pc].clone();
            for j in 0..n {
                if j != pc {
                    let d = &f * &pivot_row[j];
                    t[i][j] -= d;
                }
            }
            rhs[i] -= &f * &pivot_rhs;
            t[i][pc] = -&f * &inv;
        }
        let f = cost[pc].clone();
        if !f.is_zero() {
            for j in 0..n {
                if j != pc {
                    let d = &f * &pivot_row[j];
                    cost[j] -= d;
                }
            }
            corner -= &f * &pivot_rhs;
            cost[pc] = -&f * &inv;
        }
        t[pr] = pivot_row;
        rhs[pr] = pivot_rhs;
        t[pr][pc] = inv;
        std::mem::swap(&mut row_label[pr], &mut col_label[pc]);
    }
    let mut row = vec![BigRational::zero(); m];
    let mut col = vec![BigRational::zero(); n];
    for j in 0..n {
        if col_label[j] >= 0 {
            row[col_label[j] as usize] = &cost[j] / &corner;
        }
    }
    for i in 0..m {
        if row_label[i] < 0 {
            col[!row_label[i] as usize] = &rhs[i] / &corner;
        }
    }
    let value = BigRational::one() / &corner - &shift;
    let s = ExactSolution { value, row, col };
    if let Err(e) = check(a, &s) {
        panic!("exact simplex produced a non-solution: {e}");
    }
    s
}

/// The exact certificate: both strategies are probability vectors, the row
/// strategy earns at least `value` against every column and the column
/// strategy concedes at most `value` against every row.
pub fn check(a: &[Vec<BigRational>], s: &ExactSolution) -> Result<(), ExactCheckError> {
    let one = BigRational::one();
    for (who, p) in [("row", &s.row), ("column", &s.col)] {
        if p.iter().any(|x| x.is_negative()) {
            return Err(ExactCheckError::NegativeEntry(who));
        }
        if p.iter().sum::<BigRational>() != one {
            return Err(ExactCheckError::SumNotOne(who));
        }
    }
    let n = s.col.len();
    for j in 0..n {
        let earned: BigRational = a.iter().zip(&s.row).map(|(r, x)| &r[j] * x).sum();
        if earned < s.value {
            return Err(ExactCheckError::RowEarnsLess { column: j, earned });
        }
    }
    for (i, r) in a.iter().enumerate() {
        let conceded: BigRational = r.iter().zip(&s.col).map(|(v, y)| v * y).sum();
        if conceded > s.value {
            return Err(ExactCheckError::ColumnConcedesMore { row: i, conceded });
        }
    }
    Ok(())
}

/// Why an exact solution is not optimal (see [`check`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExactCheckError {
    #[error("{0} strategy has a negative entry")]
    /// A strategy (row or column) has a negative entry.
    NegativeEntry(&'static str),
    #[error("{0} strategy does not sum to 1")]
    /// A strategy (row or column) does not sum to 1.
    SumNotOne(&'static str),
    #[error("row strategy earns {earned} < value against column {column}")]
    /// The row strategy earns less than the value against a column.
    RowEarnsLess {
        /// The column.
        column: usize,
        /// What the row strategy earns against it.
        earned: BigRational,
    },
    #[error("column strategy concedes {conceded} > value against row {row}")]
    /// The column strategy concedes more than the value against a row.
    ColumnConcedesMore {
        /// The row.
        row: usize,
        /// What the column strategy concedes against it.
        conceded: BigRational,
    },
}

/// An integer as a rational (for tests and callers building exact games).
pub fn int(v: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rows: &[&[i64]]) -> Vec<Vec<BigRational>> {
        rows.iter()
            .map(|r| r.iter().map(|&v| int(v)).collect())
            .collect()
    }

    #[test]
    fn classic_values_exactly() {
        // Matching pennies: 0; 2x2 (3 1; 0 2): 3/2; a saddle point: 3.
        let s = solve(&game(&[&[1, -1], &[-1, 1]]));
        assert_eq!(s.value, int(0));
        assert_eq!(s.row, vec![int(1) / int(2), int(1) / int(2)]);
        assert_eq!(solve(&game(&[&[3, 1], &[0, 2]])).value, int(3) / int(2));
        assert_eq!(solve(&game(&[&[3, 5], &[1, 4]])).value, int(3));
        // Rock, paper, scissors: uniform, value 0.
        let s = solve(&game(&[&[0, -1, 1], &[1, 0, -1], &[-1, 1, 0]]));
        assert_eq!(s.value, int(0));
        assert!(s.col.iter().all(|y| *y == int(1) / int(3)));
    }

    #[test]
    fn degenerate_games_exactly() {
        // All-equal payoffs, duplicate rows and columns, rank one.
        for a in [
            game(&[&[2, 2, 2], &[2, 2, 2]]),
            game(&[&[1, -1, 1], &[1, -1, 1], &[-1, 1, -1]]),
            game(&[&[1, 2, 3], &[2, 4, 6], &[3, 6, 9]]),
        ] {
            let s = solve(&a);
            check(&a, &s).unwrap();
        }
    }
}
