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

use super::certificate::{clean, CertificateError};

/// `self.f::<S>(args…)` with S the game's size when it is square and
/// 3..=13 (a copy of `f` compiled for that size), else S = 0 (the copy that
/// reads the size at run time).
macro_rules! by_square_size {
    ($self:ident . $f:ident ( $($arg:expr),* )) => {
        match ($self.rows == $self.cols).then_some($self.rows) {
            Some(3) => $self.$f::<3>($($arg),*),
            Some(4) => $self.$f::<4>($($arg),*),
            Some(5) => $self.$f::<5>($($arg),*),
            Some(6) => $self.$f::<6>($($arg),*),
            Some(7) => $self.$f::<7>($($arg),*),
            Some(8) => $self.$f::<8>($($arg),*),
            Some(9) => $self.$f::<9>($($arg),*),
            Some(10) => $self.$f::<10>($($arg),*),
            Some(11) => $self.$f::<11>($($arg),*),
            Some(12) => $self.$f::<12>($($arg),*),
            Some(13) => $self.$f::<13>($($arg),*),
            _ => $self.$f::<0>($($arg),*),
        }
    };
}

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
    /// Row `i` of the payoffs, to fill in place.
    pub fn row_mut(&mut self, i: usize) -> &mut [f64] {
        &mut self.a[i][..self.cols]
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
        let mut a = Attempt::new();
        match self.certified_attempts(ws, &mut a) {
            Some(gap) => Solution {
                value: a.value,
                row: a.row,
                col: a.col,
                method: a.method,
                gap,
            },
            None => self.solve_exactly(),
        }
    }

    /// The fast attempt, then Bland's rule from scratch: the certificate
    /// gap of the first that holds (its answer in `a`), or `None`.
    #[inline]
    fn certified_attempts(&self, ws: &mut Workspace, a: &mut Attempt) -> Option<f64> {
        if let Some(gap) = self.attempt(ws, Rule::Fast, a) {
            return Some(gap);
        }
        let gap = self.attempt(ws, Rule::BlandFromStart, a)?;
        if let Method::Simplex { pivots } = a.method {
            a.method = Method::BlandRestart { pivots };
        }
        Some(gap)
    }

    /// The value alone and how it was found; the same certified answer as
    /// `solve`.
    #[inline]
    pub fn value_with(&self, ws: &mut Workspace) -> (f64, Method) {
        let (value, method, _) = self.certified_value_with(ws);
        (value, method)
    }

    /// The value, how it was found and its certificate gap: the answer of
    /// `solve`, without copying out the strategies (the hot path of solvers
    /// that store values only).
    #[inline]
    pub fn certified_value_with(&self, ws: &mut Workspace) -> (f64, Method, f64) {
        let mut a = Attempt::new();
        match self.certified_attempts(ws, &mut a) {
            Some(gap) => (a.value, a.method, gap),
            None => {
                let s = self.solve_exactly();
                (s.value, s.method, s.gap)
            }
        }
    }

    /// One f64 attempt, certified: strategies as the tableau gives them,
    /// cleaned of rounding (tiny negatives to 0, rescaled to sum 1) and
    /// checked. The certificate gap, or `None` when the check fails.
    #[inline]
    fn attempt(&self, ws: &mut Workspace, rule: Rule, a: &mut Attempt) -> Option<f64> {
        a.method = self.run(ws, rule, a);
        match a.method {
            // Certified by construction: the pure strategies guarantee
            // their row's minimum and concede their column's maximum, which
            // the saddle test found within EPS · (1 + |value|), far inside
            // the tolerance, with the value between them. The full check
            // gives these very numbers (debug builds compare).
            Method::Saddle => {
                debug_assert_eq!(
                    self.certificate(a.value, &mut a.row, &mut a.col)
                        .map(|c| c.gap()),
                    Ok(a.saddle_gap)
                );
                Some(a.saddle_gap)
            }
            _ => self
                .certificate_at_scale(a.value, &mut a.row, &mut a.col, a.scale)
                .ok()
                .map(|c| c.gap()),
        }
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
    fn run(&self, ws: &mut Workspace, rule: Rule, a: &mut Attempt) -> Method {
        by_square_size!(self.run_sized(ws, rule, a))
    }

    /// The strategies cleaned (`certificate::clean`), then in one pass over
    /// the payoffs what row strategy `x` guarantees (its worst column) and
    /// what column strategy `y` concedes (its worst row). Compiled per
    /// square size like the simplex, since it runs on every game: with the
    /// size a constant, the cleaning loops unroll too (they were a third of
    /// the check's instructions at run-time length).
    pub(super) fn cleaned_guarantees(
        &self,
        x: &mut [f64; MAX_DIM],
        y: &mut [f64; MAX_DIM],
    ) -> Result<(f64, f64), CertificateError> {
        by_square_size!(self.cleaned_guarantees_sized(x, y))
    }

    #[inline]
    fn cleaned_guarantees_sized<const SQUARE: usize>(
        &self,
        x: &mut [f64; MAX_DIM],
        y: &mut [f64; MAX_DIM],
    ) -> Result<(f64, f64), CertificateError> {
        let (m, n) = self.dims::<SQUARE>();
        clean("row", &mut x[..m])?;
        clean("column", &mut y[..n])?;
        Ok(self.guarantees_sized::<SQUARE>(x, y))
    }

    #[inline]
    fn guarantees_sized<const SQUARE: usize>(
        &self,
        x: &[f64; MAX_DIM],
        y: &[f64; MAX_DIM],
    ) -> (f64, f64) {
        let (m, n) = self.dims::<SQUARE>();
        let mut earned = [0.0f64; MAX_DIM];
        let mut upper = f64::NEG_INFINITY;
        for (row, &xi) in self.a[..m].iter().zip(&x[..m]) {
            let mut conceded = 0.0;
            for j in 0..n {
                let v = row[j];
                earned[j] += xi * v;
                conceded += v * y[j];
            }
            // NaN-propagating on purpose: a NaN must fail the certificate.
            upper = upper.max(conceded);
            if conceded.is_nan() {
                upper = f64::NAN;
            }
        }
        // NaN-propagating on purpose, as above, without a branch per entry.
        let mut lower = f64::INFINITY;
        let mut nan = false;
        for &b in &earned[..n] {
            nan |= b.is_nan();
            lower = if b < lower { b } else { lower };
        }
        if nan {
            lower = f64::NAN;
        }
        (lower, upper)
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

    /// Fills `a` (value, strategies, the payoff scale) and says how.
    #[inline]
    fn run_sized<const SQUARE: usize>(
        &self,
        ws: &mut Workspace,
        rule: Rule,
        a: &mut Attempt,
    ) -> Method {
        let (m, n) = self.dims::<SQUARE>();
        a.row[..m].fill(0.0);
        a.col[..n].fill(0.0);
        let shape = self.saddle::<SQUARE>();
        a.scale = shape.scale;
        let minimax_col = match shape.saddle {
            Saddle::At(i, j) => {
                a.value = self.a[i][j];
                a.row[i] = 1.0;
                a.col[j] = 1.0;
                a.saddle_gap = shape.minimax - shape.maximin;
                return Method::Saddle;
            }
            Saddle::None { minimax_col } => minimax_col,
        };
        if self.rows == 2 && self.cols == 2 {
            let [p, q] = [self.a[0][0], self.a[0][1]];
            let [r, t] = [self.a[1][0], self.a[1][1]];
            // No saddle point, so the denominator is bounded away from zero.
            let den = p - q - r + t;
            let x = (t - r) / den;
            let y = (t - q) / den;
            a.value = (p * t - q * r) / den;
            a.row[0] = x;
            a.row[1] = 1.0 - x;
            a.col[0] = y;
            a.col[1] = 1.0 - y;
            return Method::TwoByTwo;
        }
        self.simplex::<SQUARE>(ws, rule, shape.lowest, minimax_col, a)
    }

    /// One pass over the payoffs: a pure saddle point (an entry that is the
    /// minimum of its row and the maximum of its column) or else the
    /// minimax column, and the smallest payoff (the simplex's shift) and
    /// max(1, max |payoff|) (the certificate's scale).
    #[inline]
    fn saddle<const SQUARE: usize>(&self) -> Shape {
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
        let (minimax, highest) = col_max[..n]
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &b| {
                (if b < lo { b } else { lo }, if b > hi { b } else { hi })
            });
        // max(|lowest|, |highest|) = max(−lowest, highest) as lowest ≤ highest.
        let scale = [-lowest, highest]
            .into_iter()
            .fold(1.0, |s, v| if v > s { v } else { s });
        let saddle = if minimax - maximin > EPS * (1.0 + maximin.abs()) {
            Saddle::None {
                minimax_col: (0..n).find(|&j| col_max[j] == minimax).unwrap_or(0),
            }
        } else {
            let row_min = |i: usize| self.a[i][..n].iter().fold(f64::INFINITY, |a, &b| a.min(b));
            // A maximin row against a minimax column: each guarantees the value.
            let i = (0..m).find(|&i| row_min(i) == maximin).unwrap_or(0);
            let j = (0..n).find(|&j| col_max[j] == minimax).unwrap_or(0);
            Saddle::At(i, j)
        };
        Shape {
            saddle,
            maximin,
            minimax,
            lowest,
            scale,
        }
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
        a: &mut Attempt,
    ) -> Method {
        let (m, n) = self.dims::<SQUARE>();
        let shift = 1.0 - lowest;
        // Constraint rows i < m hold the shifted payoffs, `rhs` the right-hand
        // sides, `cost` the reduced costs and `corner` the objective.
        // Labels: >= 0 is a row strategy index (x_i), < 0 is !j for a column
        // strategy index (y_j).
        // Row operations run over `w` columns, `n` rounded up to whole
        // vectors of four: the columns past `n` hold 0 and stay 0 (0 − f·0),
        // and each column's arithmetic is its own, so the numbers are those
        // of an update over `n` columns, without a scalar tail per row.
        let w = n.div_ceil(4) * 4;
        let Workspace { t, rhs, cost } = ws;
        for i in 0..m {
            for j in 0..n {
                t[i][j] = self.a[i][j] + shift;
            }
            t[i][n..w].fill(0.0);
            rhs[i] = 1.0;
        }
        for c in &mut cost[..n] {
            *c = -1.0;
        }
        cost[n..w].fill(0.0);
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
            } else if bland {
                pc = (0..n).find(|&j| cost[j] < best).unwrap_or(usize::MAX);
            } else {
                // The most negative reduced cost, lowest index on ties,
                // without a branch per column.
                for j in 0..n {
                    let better = cost[j] < best;
                    pc = if better { j } else { pc };
                    best = if better { cost[j] } else { best };
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
            for (p, &v) in pivot_row[..w].iter_mut().zip(&t[pr][..w]) {
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
                    for (x, &p) in t[i][..w].iter_mut().zip(&pivot_row[..w]) {
                        *x -= f * p;
                    }
                    // Right-hand sides are ≥ 0 in exact arithmetic; a
                    // degenerate row (rhs 0) that rounds below 0 would
                    // win the next ratio test with a negative ratio and a
                    // tiny pivot, which wrecks the tableau.
                    let r = rhs[i] - f * pivot_rhs;
                    rhs[i] = if r < 0.0 { 0.0 } else { r };
                    t[i][pc] = -f * inv;
                }
            }
            let f = cost[pc];
            if f != 0.0 {
                for (x, &p) in cost[..w].iter_mut().zip(&pivot_row[..w]) {
                    *x -= f * p;
                }
                corner -= f * pivot_rhs;
                cost[pc] = -f * inv;
            }
            t[pr][..w].copy_from_slice(&pivot_row[..w]);
            rhs[pr] = pivot_rhs;
            t[pr][pc] = inv;
            std::mem::swap(&mut row_label[pr], &mut col_label[pc]);
            pivots += 1;
        }
        a.value = 1.0 / corner - shift;
        for j in 0..n {
            if col_label[j] >= 0 {
                a.row[col_label[j] as usize] = cost[j] / corner;
            }
        }
        for i in 0..m {
            if row_label[i] < 0 {
                a.col[!row_label[i] as usize] = rhs[i] / corner;
            }
        }
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
    /// max(1, max |payoff|).
    scale: f64,
    /// Minimax less maximin, for a saddle point.
    saddle_gap: f64,
}

impl Attempt {
    fn new() -> Attempt {
        Attempt {
            value: 0.0,
            row: [0.0; MAX_DIM],
            col: [0.0; MAX_DIM],
            method: Method::Saddle,
            scale: 1.0,
            saddle_gap: 0.0,
        }
    }
}

/// What the first pass over the payoffs finds.
struct Shape {
    saddle: Saddle,
    maximin: f64,
    minimax: f64,
    lowest: f64,
    scale: f64,
}

enum Saddle {
    /// A saddle point at (row, column).
    At(usize, usize),
    /// None; the simplex starts with this column.
    None { minimax_col: usize },
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
                let mut a = Attempt::new();
                let m = g.run(&mut ws, Rule::Fast, &mut a);
                push_bits(&a, &mut sized);
                collect(m, &mut sized);
                let mut general = Vec::new();
                let mut a = Attempt::new();
                let m = g.run_sized::<0>(&mut ws, Rule::Fast, &mut a);
                push_bits(&a, &mut general);
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

    /// A saddle point skips the full certificate: its gap is minimax less
    /// maximin, which must be the very number the full check gives for the
    /// same pure strategies (and the check must pass), on planted saddles
    /// of every size, with ties and negative payoffs.
    #[test]
    fn a_saddle_point_is_certified_by_construction() {
        let mut rng = crate::rng::SplitMix64::new(0x5eed);
        let mut next = move || rng.next_f64();
        let (mut saddles, mut nonzero_gaps) = (0, 0);
        for size in 1..=13 {
            for round in 0..300 {
                let mut g = MatrixGame::new(size, size);
                let (si, sj) = ((next() * size as f64) as usize, (next() * size as f64) as usize);
                let v = (next() - 0.5) * 40.0;
                for i in 0..size {
                    for j in 0..size {
                        // Row si at least v, column sj at most v; some
                        // rounds tie the whole row at v.
                        let x = if i == si && j == sj {
                            v
                        } else if i == si {
                            if round % 5 == 0 { v } else { v + next() * 10.0 }
                        } else if j == sj && round % 7 == 3 && i == (si + 1) % size {
                            // A near-tie the saddle test accepts (within
                            // EPS): the gap is then not zero.
                            v + 1e-12 * (1.0 + v.abs())
                        } else if j == sj {
                            v - next() * 10.0
                        } else {
                            (next() - 0.5) * 60.0
                        };
                        g.set(i, j, x);
                    }
                }
                let s = g.solve();
                if s.method != Method::Saddle {
                    continue;
                }
                saddles += 1;
                nonzero_gaps += (s.gap != 0.0) as u32;
                let (mut row, mut col) = (s.row, s.col);
                let full = g.certificate(s.value, &mut row, &mut col).unwrap();
                assert_eq!(s.gap.to_bits(), full.gap().to_bits(), "size {size}");
                assert_eq!((row, col), (s.row, s.col));
                assert_eq!(g.row_guarantee(&s.row).to_bits(), full.lower.to_bits());
            }
        }
        assert!(saddles > 3000, "only {saddles} saddle points");
        assert!(nonzero_gaps > 300, "only {nonzero_gaps} saddles with a gap");
    }

    fn push_bits(a: &Attempt, v: &mut Vec<u64>) {
        v.extend(
            [a.value, a.scale, a.saddle_gap]
                .iter()
                .chain(&a.row)
                .chain(&a.col)
                .map(|x| x.to_bits()),
        );
    }
}
