//! Two-player zero-sum matrix games, solved exactly (up to f64 rounding) and
//! without allocation: the hot path of every game that needs mixed strategies.
//!
//! Order of attempts: a pure saddle point, the closed form for 2×2, then a
//! dense simplex on the compact (Tucker) tableau, which yields both players'
//! strategies from one tableau.
//!
//! Nothing leaves this module without a certificate (`certificate.rs`):
//! both strategies are probability vectors and what the row strategy
//! guarantees and what the column strategy concedes are within
//! `GAP_TOLERANCE` of each other and of the value. A simplex answer that
//! fails the check (degenerate games — duplicate rows or columns, ties in
//! the ratio test — can end the f64 simplex at a basis that is not optimal)
//! is re-solved with Bland's rule from the start, and if that fails too, in
//! exact rational arithmetic (`exact.rs`), whose answer is checked exactly.
//! `Method` says which one answered, so callers can count fallbacks.
//!
//! Tie-break, so that the same matrix always gives the same strategies:
//! a pure saddle point is the lowest maximin row against the lowest minimax
//! column; the simplex's first pivot enters the lowest minimax column (the
//! column player's best pure strategy: all reduced costs start equal, and
//! this start saves about 8% of the pivots), later ones the column with
//! the most negative reduced cost (lowest index on ties); it leaves the row
//! with the smallest ratio (lowest index on ties). After `BLAND_AFTER`
//! pivots it switches to Bland's rule, which cannot cycle.

// Tableau arithmetic reads best with explicit indices (rows and columns
// of the same tableau are addressed together).
#![allow(clippy::needless_range_loop)]

/// Largest number of rows or columns.
pub const MAX_DIM: usize = 16;
const EPS: f64 = 1e-11;
/// Smallest tableau entry that may be a pivot. The shifted payoffs are at
/// least 1, and an entry that should be 0 comes out of rounding at about
/// 1e-16 times the payoffs times the growth of a few pivots; 1e-11 let
/// such an entry (1.1e-11 after eliminating a duplicate row) be chosen,
/// and dividing by it wrecked the tableau.
const PIVOT_EPS: f64 = 1e-9;
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
    /// A saddle point (pure strategies).
    Saddle,
    /// The closed form of a 2×2 game without a saddle point.
    TwoByTwo,
    /// The compact-tableau simplex, first attempt.
    Simplex {
        /// Simplex pivots.
        pivots: u32,
    },
    /// The fast simplex failed its certificate; Bland's rule from the first
    /// pivot (f64) gave a certified answer.
    BlandRestart {
        /// Simplex pivots of the restart.
        pivots: u32,
    },
    /// Both f64 attempts failed their certificates; the exact rational
    /// simplex answered (its value rounded once to f64).
    Exact,
}

impl Method {
    /// Whether the first attempt failed its certificate.
    pub fn is_fallback(self) -> bool {
        matches!(self, Method::BlandRestart { .. } | Method::Exact)
    }
}

/// A certified solution: `row` and `col` are probability vectors (entries
/// beyond the game's size are 0), and `gap` is what the column strategy
/// concedes minus what the row strategy guarantees (≥ 0 up to rounding,
/// at most `GAP_TOLERANCE` · max(1, max |payoff|)).
#[derive(Clone)]
pub struct Solution {
    /// The game's value (row player's expected payoff).
    pub value: f64,
    /// The row player's optimal strategy.
    pub row: [f64; MAX_DIM],
    /// The column player's optimal strategy.
    pub col: [f64; MAX_DIM],
    /// How it was solved.
    pub method: Method,
    /// Concession minus guarantee (see above).
    pub gap: f64,
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

    /// A game from its payoff rows (all of one length).
    pub fn from_rows(rows: &[Vec<f64>]) -> Self {
        let mut g = MatrixGame::new(rows.len(), rows[0].len());
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r.len(), g.cols, "ragged payoff matrix");
            g.a[i][..g.cols].copy_from_slice(r);
        }
        g
    }

    /// Rows (the row player's choices).
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns (the column player's choices).
    pub fn cols(&self) -> usize {
        self.cols
    }
    #[inline]
    /// Sets the row player's payoff at row `i`, column `j`.
    pub fn set(&mut self, i: usize, j: usize, v: f64) {
        self.a[i][j] = v;
    }
    #[inline]
    /// The row player's payoff at row `i`, column `j`.
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

    /// Value and both optimal strategies, certified.
    pub fn solve(&self) -> Solution {
        self.solve_with(&mut Workspace::new())
    }

    /// As `solve`, reusing a workspace (no per-call initialisation of the
    /// tableau beyond the cells this game uses). Tries the fast path, then
    /// Bland's rule from scratch, then exact rationals; returns the first
    /// answer whose certificate holds.
    pub fn solve_with(&self, ws: &mut Workspace) -> Solution {
        self.solve_distinct(ws)
    }

    /// `solve_with` for a game without repeated rows or columns.
    fn solve_distinct(&self, ws: &mut Workspace) -> Solution {
        let fast = self.attempt(ws, Rule::Fast);
        if let Some(s) = self.certified(fast) {
            return s;
        }
        let bland = self.attempt(ws, Rule::BlandFromStart);
        let bland = Attempt {
            method: match bland.method {
                Method::Simplex { pivots } => Method::BlandRestart { pivots },
                m => m,
            },
            ..bland
        };
        if let Some(s) = self.certified(bland) {
            return s;
        }
        self.solve_exactly()
    }

    /// The value alone and how it was found; the same certified answer as
    /// `solve`.
    #[inline]
    pub fn value_with(&self, ws: &mut Workspace) -> (f64, Method) {
        let s = self.solve_with(ws);
        (s.value, s.method)
    }

    /// One f64 attempt, strategies as the tableau gives them (not yet
    /// checked).
    fn attempt(&self, ws: &mut Workspace, rule: Rule) -> Attempt {
        let mut a = Attempt {
            value: 0.0,
            row: [0.0; MAX_DIM],
            col: [0.0; MAX_DIM],
            method: Method::Saddle,
        };
        a.method = self.run(ws, rule, |o| match o {
            Outcome::Saddle(i, j) => {
                a.row[i] = 1.0;
                a.col[j] = 1.0;
            }
            Outcome::Mixed(row, col) => {
                a.row[..self.rows].copy_from_slice(&row[..self.rows]);
                a.col[..self.cols].copy_from_slice(&col[..self.cols]);
            }
            Outcome::Value(v) => a.value = v,
        });
        a
    }

    /// The attempt as a `Solution` if its certificate holds (strategies
    /// cleaned of rounding: tiny negatives to 0, rescaled to sum 1).
    fn certified(&self, mut a: Attempt) -> Option<Solution> {
        let c = self.certificate(a.value, &mut a.row, &mut a.col).ok()?;
        Some(Solution {
            value: a.value,
            row: a.row,
            col: a.col,
            method: a.method,
            gap: c.gap(),
        })
    }

    /// The exact rational simplex on this game's payoffs (each f64 is an
    /// exact rational), rounded once to f64 and checked again in f64.
    fn solve_exactly(&self) -> Solution {
        let payoffs: Vec<Vec<f64>> = (0..self.rows)
            .map(|i| self.a[i][..self.cols].to_vec())
            .collect();
        let exact = super::exact::solve_f64_game(&payoffs);
        let mut row = [0.0; MAX_DIM];
        let mut col = [0.0; MAX_DIM];
        for (r, x) in row.iter_mut().zip(&exact.row) {
            *r = super::exact::to_f64(x);
        }
        for (c, y) in col.iter_mut().zip(&exact.col) {
            *c = super::exact::to_f64(y);
        }
        let value = super::exact::to_f64(&exact.value);
        // The exact answer is optimal (checked exactly in `exact.rs`); the
        // f64 check here can only fail if rounding to f64 lost more than the
        // tolerance, which payoffs of sane magnitude cannot do.
        let c = self
            .certificate(value, &mut row, &mut col)
            .unwrap_or_else(|e| {
                panic!("exact matrix-game solution fails its f64 certificate: {e}")
            });
        Solution {
            value,
            row,
            col,
            method: Method::Exact,
            gap: c.gap(),
        }
    }

    #[inline]
    /// The game's value alone (a fresh workspace; see `value_with`).
    pub fn value(&self) -> f64 {
        self.value_with(&mut Workspace::new()).0
    }

    /// Square games (every GOPS game) get a copy of the solver compiled for
    /// their exact size: constant loop bounds unroll and vectorise without
    /// remainder loops. Same operations in the same order, so the same bits
    /// as the general copy.
    #[inline]
    fn run(&self, ws: &mut Workspace, rule: Rule, out: impl FnMut(Outcome)) -> Method {
        match (self.rows == self.cols).then_some(self.rows) {
            Some(3) => self.run_sized::<3>(ws, rule, out),
            Some(4) => self.run_sized::<4>(ws, rule, out),
            Some(5) => self.run_sized::<5>(ws, rule, out),
            Some(6) => self.run_sized::<6>(ws, rule, out),
            Some(7) => self.run_sized::<7>(ws, rule, out),
            Some(8) => self.run_sized::<8>(ws, rule, out),
            Some(9) => self.run_sized::<9>(ws, rule, out),
            Some(10) => self.run_sized::<10>(ws, rule, out),
            Some(11) => self.run_sized::<11>(ws, rule, out),
            Some(12) => self.run_sized::<12>(ws, rule, out),
            Some(13) => self.run_sized::<13>(ws, rule, out),
            _ => self.run_sized::<0>(ws, rule, out),
        }
    }

    /// In one pass over the payoffs: what row strategy `x` guarantees (its
    /// worst column), what column strategy `y` concedes (its worst row), and
    /// max(1, max |payoff|). Compiled per square size like the simplex, since
    /// it runs on every game.
    pub(super) fn guarantees(&self, x: &[f64; MAX_DIM], y: &[f64; MAX_DIM]) -> (f64, f64, f64) {
        match (self.rows == self.cols).then_some(self.rows) {
            Some(3) => self.guarantees_sized::<3>(x, y),
            Some(4) => self.guarantees_sized::<4>(x, y),
            Some(5) => self.guarantees_sized::<5>(x, y),
            Some(6) => self.guarantees_sized::<6>(x, y),
            Some(7) => self.guarantees_sized::<7>(x, y),
            Some(8) => self.guarantees_sized::<8>(x, y),
            Some(9) => self.guarantees_sized::<9>(x, y),
            Some(10) => self.guarantees_sized::<10>(x, y),
            Some(11) => self.guarantees_sized::<11>(x, y),
            Some(12) => self.guarantees_sized::<12>(x, y),
            Some(13) => self.guarantees_sized::<13>(x, y),
            _ => self.guarantees_sized::<0>(x, y),
        }
    }

    #[inline]
    fn guarantees_sized<const SQUARE: usize>(
        &self,
        x: &[f64; MAX_DIM],
        y: &[f64; MAX_DIM],
    ) -> (f64, f64, f64) {
        let (m, n) = self.dims::<SQUARE>();
        let mut earned = [0.0f64; MAX_DIM];
        let mut upper = f64::NEG_INFINITY;
        let mut scale = 1.0f64;
        for (row, &xi) in self.a[..m].iter().zip(&x[..m]) {
            let mut conceded = 0.0;
            for j in 0..n {
                let v = row[j];
                earned[j] += xi * v;
                conceded += v * y[j];
                let a = v.abs();
                scale = if a > scale { a } else { scale };
            }
            // NaN-propagating on purpose: a NaN must fail the certificate.
            upper = upper.max(conceded);
            if conceded.is_nan() {
                upper = f64::NAN;
            }
        }
        let lower = earned[..n].iter().fold(f64::INFINITY, |a, &b| {
            if b.is_nan() || a.is_nan() {
                f64::NAN
            } else if b < a {
                b
            } else {
                a
            }
        });
        (lower, upper, scale)
    }

    /// `SQUARE` is the size of a square game compiled for that size, or 0
    /// for the general copy, which reads the size at run time.
    #[inline]
    fn dims<const SQUARE: usize>(&self) -> (usize, usize) {
        if SQUARE > 0 {
            (SQUARE, SQUARE)
        } else {
            (self.rows, self.cols)
        }
    }

    #[inline]
    fn run_sized<const SQUARE: usize>(
        &self,
        ws: &mut Workspace,
        rule: Rule,
        mut out: impl FnMut(Outcome),
    ) -> Method {
        let (lowest, minimax_col) = match self.saddle::<SQUARE>() {
            Ok((i, j)) => {
                out(Outcome::Value(self.a[i][j]));
                out(Outcome::Saddle(i, j));
                return Method::Saddle;
            }
            Err(no_saddle) => no_saddle,
        };
        if self.rows == 2 && self.cols == 2 {
            let [a, b] = [self.a[0][0], self.a[0][1]];
            let [c, d] = [self.a[1][0], self.a[1][1]];
            // No saddle point, so the denominator is bounded away from zero.
            let den = a - b - c + d;
            let x = (d - c) / den;
            let y = (d - b) / den;
            out(Outcome::Value((a * d - b * c) / den));
            let mut row = [0.0; MAX_DIM];
            let mut col = [0.0; MAX_DIM];
            row[0] = x;
            row[1] = 1.0 - x;
            col[0] = y;
            col[1] = 1.0 - y;
            out(Outcome::Mixed(&row, &col));
            return Method::TwoByTwo;
        }
        self.simplex::<SQUARE>(ws, rule, lowest, minimax_col, out)
    }

    /// A pure saddle point: an entry that is the minimum of its row and the
    /// maximum of its column.
    #[inline]
    /// Otherwise Err(smallest payoff), which the simplex needs for its shift.
    fn saddle<const SQUARE: usize>(&self) -> Result<(usize, usize), (f64, usize)> {
        let (m, n) = self.dims::<SQUARE>();
        // Branch-free passes first (they vectorise); the argmin/argmax is
        // only looked for when there is a saddle point.
        let mut col_max = [f64::NEG_INFINITY; MAX_DIM];
        let mut maximin = f64::NEG_INFINITY;
        let mut lowest = f64::INFINITY;
        // Comparisons rather than f64::max/min: payoffs are never NaN, and
        // a plain compare-and-select compiles to one maxsd/minsd instead of
        // the NaN-propagating sequence (this check runs on every game).
        for row in &self.a[..m] {
            let mut lo = f64::INFINITY;
            for (cm, &v) in col_max[..n].iter_mut().zip(&row[..n]) {
                *cm = if v > *cm { v } else { *cm };
                lo = if v < lo { v } else { lo };
            }
            maximin = if lo > maximin { lo } else { maximin };
            lowest = if lo < lowest { lo } else { lowest };
        }
        let minimax = col_max[..n]
            .iter()
            .fold(f64::INFINITY, |a, &b| if b < a { b } else { a });
        if minimax - maximin > EPS * (1.0 + maximin.abs()) {
            let j = (0..n).find(|&j| col_max[j] == minimax).unwrap_or(0);
            return Err((lowest, j));
        }
        let row_min = |i: usize| self.a[i][..n].iter().fold(f64::INFINITY, |a, &b| a.min(b));
        // A maximin row against a minimax column: each guarantees the value.
        let i = (0..m).find(|&i| row_min(i) == maximin).unwrap_or(0);
        let j = (0..n).find(|&j| col_max[j] == minimax).unwrap_or(0);
        Ok((i, j))
    }

    /// The compact-tableau simplex for games (Ferguson, Game Theory II.4.5):
    /// shift payoffs positive, maximise Σu subject to A'u ≤ 1, u ≥ 0.
    #[inline]
    fn simplex<const SQUARE: usize>(
        &self,
        ws: &mut Workspace,
        rule: Rule,
        lowest: f64,
        first_column: usize,
        mut out: impl FnMut(Outcome),
    ) -> Method {
        let (m, n) = self.dims::<SQUARE>();
        let shift = 1.0 - lowest;
        // Constraint rows i < m hold the shifted payoffs, `rhs` the right-hand
        // sides, `cost` the reduced costs and `corner` the objective.
        // Labels: >= 0 is a row strategy index (x_i), < 0 is !j for a column
        // strategy index (y_j).
        let Workspace { t, rhs, cost } = ws;
        for i in 0..m {
            for j in 0..n {
                t[i][j] = self.a[i][j] + shift;
            }
            rhs[i] = 1.0;
        }
        for c in &mut cost[..n] {
            *c = -1.0;
        }
        let mut corner = 0.0;
        let mut row_label = [0i32; MAX_DIM];
        let mut col_label = [0i32; MAX_DIM];
        for (i, l) in row_label[..m].iter_mut().enumerate() {
            *l = i as i32;
        }
        for (j, l) in col_label[..n].iter_mut().enumerate() {
            *l = !(j as i32);
        }
        let mut pivots = 0;
        let bland_after = match rule {
            Rule::Fast => BLAND_AFTER,
            Rule::BlandFromStart => 0,
        };
        while pivots < MAX_PIVOTS {
            let bland = pivots >= bland_after;
            let mut pc = usize::MAX;
            let mut best = -EPS;
            if pivots == 0 && !bland {
                pc = first_column;
            } else {
                for j in 0..n {
                    if cost[j] < best {
                        pc = j;
                        if bland {
                            break;
                        }
                        best = cost[j];
                    }
                }
            }
            if pc == usize::MAX {
                break;
            }
            let mut pr = usize::MAX;
            if bland {
                let mut ratio = f64::INFINITY;
                for i in 0..m {
                    if t[i][pc] > PIVOT_EPS {
                        let r = rhs[i] / t[i][pc];
                        let better = r < ratio - EPS
                            || (r <= ratio + EPS
                                && pr != usize::MAX
                                && row_label[i] < row_label[pr]);
                        if pr == usize::MAX || better {
                            pr = i;
                            ratio = r;
                        }
                    }
                }
            } else {
                // Smallest ratio b/a, compared as b·den < num·a (a, den > 0)
                // to keep divisions out of the loop; same EPS margin.
                let (mut num, mut den) = (f64::INFINITY, 1.0);
                for i in 0..m {
                    let a = t[i][pc];
                    if a > PIVOT_EPS {
                        let b = rhs[i];
                        if pr == usize::MAX || b * den < (num - EPS * den) * a {
                            pr = i;
                            num = b;
                            den = a;
                        }
                    }
                }
            }
            // A positive game always has a positive entry in an improving
            // column (the LP is bounded); nothing to pivot means rounding
            // has made the tableau unreliable: stop, and let the
            // certificate reject the answer.
            if pr == usize::MAX {
                break;
            }
            let inv = 1.0 / t[pr][pc];
            let mut pivot_row = [0.0; MAX_DIM];
            for (p, &v) in pivot_row[..n].iter_mut().zip(&t[pr][..n]) {
                *p = v * inv;
            }
            let pivot_rhs = rhs[pr] * inv;
            for i in 0..m {
                if i == pr {
                    continue;
                }
                let f = t[i][pc];
                if f != 0.0 {
                    // Whole-row update (vectorises); the pivot column is
                    // then overwritten with its exchange-rule value.
                    for (x, &p) in t[i][..n].iter_mut().zip(&pivot_row[..n]) {
                        *x -= f * p;
                    }
                    // Right-hand sides are ≥ 0 in exact arithmetic; a
                    // degenerate row (rhs 0) that rounds below 0 would
                    // win the next ratio test with a negative ratio and a
                    // tiny pivot, which wrecks the tableau.
                    rhs[i] = (rhs[i] - f * pivot_rhs).max(0.0);
                    t[i][pc] = -f * inv;
                }
            }
            let f = cost[pc];
            if f != 0.0 {
                for (x, &p) in cost[..n].iter_mut().zip(&pivot_row[..n]) {
                    *x -= f * p;
                }
                corner -= f * pivot_rhs;
                cost[pc] = -f * inv;
            }
            t[pr][..n].copy_from_slice(&pivot_row[..n]);
            rhs[pr] = pivot_rhs;
            t[pr][pc] = inv;
            std::mem::swap(&mut row_label[pr], &mut col_label[pc]);
            pivots += 1;
        }
        out(Outcome::Value(1.0 / corner - shift));
        let mut row = [0.0; MAX_DIM];
        let mut col = [0.0; MAX_DIM];
        for j in 0..n {
            if col_label[j] >= 0 {
                row[col_label[j] as usize] = cost[j] / corner;
            }
        }
        for i in 0..m {
            if row_label[i] < 0 {
                col[!row_label[i] as usize] = rhs[i] / corner;
            }
        }
        out(Outcome::Mixed(&row, &col));
        Method::Simplex { pivots }
    }
}

/// Scratch space for the simplex, reusable across games: the constraint
/// rows, their right-hand sides and the reduced costs.
pub struct Workspace {
    t: [[f64; MAX_DIM]; MAX_DIM],
    rhs: [f64; MAX_DIM],
    cost: [f64; MAX_DIM],
}

impl Workspace {
    /// A workspace for games up to `MAX_DIM` square.
    pub fn new() -> Workspace {
        Workspace {
            t: [[0.0; MAX_DIM]; MAX_DIM],
            rhs: [0.0; MAX_DIM],
            cost: [0.0; MAX_DIM],
        }
    }
}

impl Default for Workspace {
    fn default() -> Self {
        Self::new()
    }
}

/// Pivot rule of one f64 attempt.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// The tie-broken Dantzig rule of the module docs, Bland after
    /// `BLAND_AFTER` pivots.
    Fast,
    /// Bland's rule from the first pivot.
    BlandFromStart,
}

/// One attempt's raw answer, before its certificate is checked.
struct Attempt {
    value: f64,
    row: [f64; MAX_DIM],
    col: [f64; MAX_DIM],
    method: Method,
}

enum Outcome<'a> {
    Value(f64),
    Saddle(usize, usize),
    Mixed(&'a [f64; MAX_DIM], &'a [f64; MAX_DIM]),
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

    /// The copies compiled for one square size must give the very bits of
    /// the general copy (tables must not depend on which copy ran).
    #[test]
    fn sized_copies_match_the_general_one() {
        let mut state = 0x9e37_79b9_u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) % 41) as f64 - 20.0
        };
        let mut ws = Workspace::new();
        let mut simplex_games = 0;
        for size in 2..=13 {
            for _ in 0..200 {
                let mut g = MatrixGame::new(size, size);
                for i in 0..size {
                    for j in 0..size {
                        g.set(i, j, next() + 0.25 * next());
                    }
                }
                let collect = |method: Method, o: &mut Vec<u64>| {
                    o.push(match method {
                        Method::Simplex { pivots } => pivots as u64 + 10,
                        Method::Saddle => 1,
                        Method::TwoByTwo => 2,
                        Method::BlandRestart { .. } | Method::Exact => 3,
                    })
                };
                let mut sized = Vec::new();
                let m = g.run(&mut ws, Rule::Fast, |o| push_bits(&o, &mut sized));
                collect(m, &mut sized);
                let mut general = Vec::new();
                let m = g.run_sized::<0>(&mut ws, Rule::Fast, |o| push_bits(&o, &mut general));
                collect(m, &mut general);
                assert_eq!(sized, general, "size {size}");
                simplex_games += matches!(m, Method::Simplex { .. }) as u32;
            }
        }
        assert!(
            simplex_games > 1000,
            "only {simplex_games} games reached the simplex"
        );
    }

    fn push_bits(o: &Outcome, v: &mut Vec<u64>) {
        match o {
            Outcome::Value(x) => v.push(x.to_bits()),
            Outcome::Saddle(i, j) => v.extend([*i as u64, *j as u64]),
            Outcome::Mixed(r, c) => v.extend(r.iter().chain(c.iter()).map(|x| x.to_bits())),
        }
    }
}
