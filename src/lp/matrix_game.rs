//! Two-player zero-sum matrix games, solved exactly (up to f64 rounding) and
//! without allocation: the hot path of every game that needs mixed strategies.
//!
//! Order of attempts: a pure saddle point, the closed form for 2×2, then a
//! dense simplex on the compact (Tucker) tableau, which yields both players'
//! strategies from one tableau.
//!
//! Tie-break, so that the same matrix always gives the same strategies:
//! the saddle point is the lowest row among maximin rows, then the lowest
//! column among its minimising columns; the simplex enters the column with
//! the most negative reduced cost (lowest index on ties) and leaves the row
//! with the smallest ratio (lowest index on ties). After `BLAND_AFTER`
//! pivots it switches to Bland's rule, which cannot cycle.

/// Largest number of rows or columns.
pub const MAX_DIM: usize = 16;
const EPS: f64 = 1e-11;
const BLAND_AFTER: u32 = 64;
const MAX_PIVOTS: u32 = 10_000;

/// A payoff matrix for the row player (who maximises), stored densely.
#[derive(Clone)]
pub struct MatrixGame {
    rows: usize,
    cols: usize,
    a: [[f64; MAX_DIM]; MAX_DIM],
}

/// How a game was solved (for statistics).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Saddle,
    TwoByTwo,
    Simplex { pivots: u32 },
}

#[derive(Clone)]
pub struct Solution {
    pub value: f64,
    pub row: [f64; MAX_DIM],
    pub col: [f64; MAX_DIM],
    pub method: Method,
}

impl MatrixGame {
    /// A rows × cols game with all payoffs zero. Panics only on a size above
    /// `MAX_DIM`, which callers rule out when they validate their input.
    pub fn new(rows: usize, cols: usize) -> Self {
        assert!(
            (1..=MAX_DIM).contains(&rows) && (1..=MAX_DIM).contains(&cols),
            "matrix game size {rows}x{cols} outside 1..={MAX_DIM}"
        );
        MatrixGame {
            rows,
            cols,
            a: [[0.0; MAX_DIM]; MAX_DIM],
        }
    }

    pub fn from_rows(rows: &[Vec<f64>]) -> Self {
        let mut g = MatrixGame::new(rows.len(), rows[0].len());
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r.len(), g.cols, "ragged payoff matrix");
            g.a[i][..g.cols].copy_from_slice(r);
        }
        g
    }

    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn cols(&self) -> usize {
        self.cols
    }
    #[inline]
    pub fn set(&mut self, i: usize, j: usize, v: f64) {
        self.a[i][j] = v;
    }
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.a[i][j]
    }

    /// The expected payoff guaranteed by a row strategy (its worst column).
    pub fn row_guarantee(&self, x: &[f64]) -> f64 {
        (0..self.cols)
            .map(|j| (0..self.rows).map(|i| x[i] * self.a[i][j]).sum::<f64>())
            .fold(f64::INFINITY, f64::min)
    }

    /// The expected payoff a column strategy concedes at most (its worst row
    /// for the column player).
    pub fn col_guarantee(&self, y: &[f64]) -> f64 {
        (0..self.rows)
            .map(|i| (0..self.cols).map(|j| self.a[i][j] * y[j]).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Value and both optimal strategies.
    pub fn solve(&self) -> Solution {
        let mut s = Solution {
            value: 0.0,
            row: [0.0; MAX_DIM],
            col: [0.0; MAX_DIM],
            method: Method::Saddle,
        };
        if let Some((i, j)) = self.saddle() {
            s.value = self.a[i][j];
            s.row[i] = 1.0;
            s.col[j] = 1.0;
            return s;
        }
        if self.rows == 2 && self.cols == 2 {
            let [a, b] = [self.a[0][0], self.a[0][1]];
            let [c, d] = [self.a[1][0], self.a[1][1]];
            // No saddle point, so the denominator is bounded away from zero.
            let den = a - b - c + d;
            s.row[0] = (d - c) / den;
            s.row[1] = 1.0 - s.row[0];
            s.col[0] = (d - b) / den;
            s.col[1] = 1.0 - s.col[0];
            s.value = (a * d - b * c) / den;
            s.method = Method::TwoByTwo;
            return s;
        }
        self.simplex(&mut s);
        s
    }

    /// The value alone (same arithmetic as `solve`).
    #[inline]
    pub fn value(&self) -> f64 {
        self.solve().value
    }

    /// A pure saddle point: an entry that is the minimum of its row and the
    /// maximum of its column.
    fn saddle(&self) -> Option<(usize, usize)> {
        let mut best_row = 0;
        let mut maximin = f64::NEG_INFINITY;
        let mut best_col = 0;
        for i in 0..self.rows {
            let (mut m, mut at) = (f64::INFINITY, 0);
            for j in 0..self.cols {
                if self.a[i][j] < m {
                    m = self.a[i][j];
                    at = j;
                }
            }
            if m > maximin {
                maximin = m;
                best_row = i;
                best_col = at;
            }
        }
        let minimax = (0..self.cols)
            .map(|j| {
                (0..self.rows)
                    .map(|i| self.a[i][j])
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .fold(f64::INFINITY, f64::min);
        (minimax - maximin <= EPS * (1.0 + maximin.abs())).then_some((best_row, best_col))
    }

    /// The compact-tableau simplex for games (Ferguson, Game Theory II.4.5):
    /// shift payoffs positive, maximise Σu subject to A'u ≤ 1, u ≥ 0.
    fn simplex(&self, s: &mut Solution) {
        let (m, n) = (self.rows, self.cols);
        let lo = self.a[..m]
            .iter()
            .flat_map(|r| r[..n].iter())
            .fold(f64::INFINITY, |a, &b| a.min(b));
        let shift = 1.0 - lo;
        // t[i][j] for i < m, j < n: payoffs; column n: right-hand side;
        // row m: reduced costs. Labels: >= 0 is a row strategy index (x_i),
        // < 0 is !j for a column strategy index (y_j).
        let mut t = [[0.0f64; MAX_DIM + 1]; MAX_DIM + 1];
        for i in 0..m {
            for j in 0..n {
                t[i][j] = self.a[i][j] + shift;
            }
            t[i][n] = 1.0;
        }
        for j in 0..n {
            t[m][j] = -1.0;
        }
        let mut row_label = [0i32; MAX_DIM];
        let mut col_label = [0i32; MAX_DIM];
        for (i, l) in row_label[..m].iter_mut().enumerate() {
            *l = i as i32;
        }
        for (j, l) in col_label[..n].iter_mut().enumerate() {
            *l = !(j as i32);
        }
        let mut pivots = 0;
        while pivots < MAX_PIVOTS {
            let bland = pivots >= BLAND_AFTER;
            let mut pc = usize::MAX;
            let mut best = -EPS;
            for j in 0..n {
                if t[m][j] < best {
                    pc = j;
                    if bland {
                        break;
                    }
                    best = t[m][j];
                }
            }
            if pc == usize::MAX {
                break;
            }
            let mut pr = usize::MAX;
            let mut ratio = f64::INFINITY;
            for i in 0..m {
                if t[i][pc] > EPS {
                    let r = t[i][n] / t[i][pc];
                    let better = r < ratio - EPS
                        || (bland
                            && r <= ratio + EPS
                            && pr != usize::MAX
                            && row_label[i] < row_label[pr]);
                    if pr == usize::MAX || better {
                        pr = i;
                        ratio = r;
                    }
                }
            }
            // A positive game always has a positive entry in an improving
            // column (the LP is bounded); nothing to pivot means rounding
            // has made the tableau unreliable, so stop with what we have.
            if pr == usize::MAX {
                break;
            }
            let p = t[pr][pc];
            for i in 0..=m {
                if i == pr {
                    continue;
                }
                let c = t[i][pc];
                if c != 0.0 {
                    let f = c / p;
                    for j in 0..=n {
                        if j != pc {
                            t[i][j] -= t[pr][j] * f;
                        }
                    }
                    t[i][pc] = -f;
                }
            }
            for j in 0..=n {
                if j != pc {
                    t[pr][j] /= p;
                }
            }
            t[pr][pc] = 1.0 / p;
            std::mem::swap(&mut row_label[pr], &mut col_label[pc]);
            pivots += 1;
        }
        let corner = t[m][n];
        s.value = 1.0 / corner - shift;
        for j in 0..n {
            if col_label[j] >= 0 {
                s.row[col_label[j] as usize] = t[m][j] / corner;
            }
        }
        for i in 0..m {
            if row_label[i] < 0 {
                s.col[!row_label[i] as usize] = t[i][n] / corner;
            }
        }
        s.method = Method::Simplex { pivots };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both strategies guarantee the value: a certificate of optimality.
    fn check(rows: &[Vec<f64>], value: Option<f64>) {
        let g = MatrixGame::from_rows(rows);
        let s = g.solve();
        if let Some(v) = value {
            assert!((s.value - v).abs() < 1e-9, "{} vs {v}", s.value);
        }
        assert!((g.row_guarantee(&s.row) - s.value).abs() < 1e-9);
        assert!((g.col_guarantee(&s.col) - s.value).abs() < 1e-9);
        assert!((s.row[..g.rows()].iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((s.col[..g.cols()].iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn classic_games() {
        // Matching pennies.
        check(&[vec![1.0, -1.0], vec![-1.0, 1.0]], Some(0.0));
        // Rock, paper, scissors.
        check(
            &[
                vec![0.0, -1.0, 1.0],
                vec![1.0, 0.0, -1.0],
                vec![-1.0, 1.0, 0.0],
            ],
            Some(0.0),
        );
        // A saddle point.
        check(&[vec![3.0, 5.0], vec![1.0, 4.0]], Some(3.0));
        // 2x2 without saddle: value (ad - bc) / (a - b - c + d) = 6/4.
        check(&[vec![3.0, 1.0], vec![0.0, 2.0]], Some(1.5));
        // Rectangular, no saddle.
        check(&[vec![2.0, -1.0, 6.0], vec![0.0, 1.0, -1.0]], None);
        check(
            &[
                vec![2.0, -1.0],
                vec![0.0, 1.0],
                vec![-2.0, 2.0],
                vec![1.0, 0.5],
            ],
            None,
        );
    }
}
