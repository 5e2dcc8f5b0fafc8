//! Isaacs' Guess It by the recursion over hand sizes.
//!
//! State (m, n): the player to move holds m cards, the opponent n; the
//! hidden card is one of the n + 1 cards the mover has not seen. The mover
//! guesses (right with probability 1/(n+1)), asks honestly for one of those
//! n + 1 cards, or bluffs (asks for one of his own). An ask the opponent can
//! answer discards a card: the opponent moves in (n − 1, m). An ask answered
//! "no" is either honest (the card is the hidden one) or a bluff; the
//! opponent calls (names the card as hidden: he wins against an honest ask,
//! loses against a bluff) or passes (an honest asker then knows the hidden
//! card and wins at his next turn; after a bluff the opponent knows one of
//! the mover's cards and moves in (n, m − 1)).
//!
//! One matrix game per state, rows guess / ask / bluff, columns call / pass,
//! payoff the mover's winning probability:
//!     guess  1/(n+1)              1/(n+1)
//!     ask    n/(n+1)·(1 − P(n−1,m))   n/(n+1)·(1 − P(n−1,m)) + 1/(n+1)
//!     bluff  1                    1 − P(n, m−1)          (only when m ≥ 1)
//! with P(m, 0) = 1 (the mover knows the hidden card). Solved exactly over
//! the rationals: the column player's call probability y minimises the
//! upper envelope of the rows, a convex piecewise-linear function of y.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// The solution of one state, exact.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Probability that the player to move wins.
    pub value: BigRational,
    /// Mover's probabilities: guess, honest ask, bluff.
    pub guess: BigRational,
    /// Probability of an honest ask (naming a card the mover does not hold).
    pub ask: BigRational,
    /// Probability of a bluff (naming a card of the mover's own hand).
    pub bluff: BigRational,
    /// Opponent's probability of calling an answered "no" a genuine ask.
    pub call: BigRational,
}

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// The three rows (guess, ask, bluff) as (payoff if called, if passed).
pub fn rows(
    m: usize,
    n: usize,
    p: &impl Fn(usize, usize) -> BigRational,
) -> Vec<(BigRational, BigRational)> {
    let unseen = (n + 1) as i64;
    let guess = q(1, unseen);
    let mut out = vec![(guess.clone(), guess)];
    let keep = q(n as i64, unseen) * (BigRational::one() - p(n - 1, m));
    out.push((keep.clone(), keep + q(1, unseen)));
    if m >= 1 {
        out.push((BigRational::one(), BigRational::one() - p(n, m - 1)));
    }
    out
}

/// Exact solution of a k×2 game (rows maximise): the column mixture
/// y = P(column 0) minimising the upper envelope, the lowest such y; the row
/// mixture from the two envelope rows that meet there (lowest indices).
pub fn solve_k_by_2(
    rows: &[(BigRational, BigRational)],
) -> (BigRational, Vec<BigRational>, BigRational) {
    let at = |r: &(BigRational, BigRational), y: &BigRational| {
        &r.0 * y + &r.1 * (BigRational::one() - y)
    };
    let envelope = |y: &BigRational| rows.iter().map(|r| at(r, y)).max().expect("rows");
    let mut candidates = vec![BigRational::zero(), BigRational::one()];
    for i in 0..rows.len() {
        for j in i + 1..rows.len() {
            // a_i y + b_i (1 − y) = a_j y + b_j (1 − y)
            let den = (&rows[i].0 - &rows[i].1) - (&rows[j].0 - &rows[j].1);
            if !den.is_zero() {
                let y = (&rows[j].1 - &rows[i].1) / den;
                if !y.is_negative() && y <= BigRational::one() {
                    candidates.push(y);
                }
            }
        }
    }
    candidates.sort();
    candidates.dedup();
    let mut best: Option<(BigRational, BigRational)> = None;
    for y in candidates {
        let v = envelope(&y);
        if best.as_ref().is_none_or(|(bv, _)| v < *bv) {
            best = Some((v, y));
        }
    }
    let (value, y) = best.expect("a candidate");
    let active: Vec<usize> = (0..rows.len())
        .filter(|&i| at(&rows[i], &y) == value)
        .collect();
    let slope = |i: usize| &rows[i].0 - &rows[i].1;
    let mut x = vec![BigRational::zero(); rows.len()];
    // Tie-break among optimal row strategies, for a strategy card that is
    // followed literally: the card gives the bluff rate and a player asks
    // honestly otherwise, so a mixture of ask (row 1) and bluff (row 2) is
    // preferred when it is optimal. At one card each, guessing at once and
    // asking 2/3 / bluffing 1/3 are both optimal (value 1/2); a card showing
    // the pure guess as "bluff 0%" would be read as "always ask", which
    // wins only 1/4 against a caller.
    let guarantees = |i: usize| rows[i].0 >= value && rows[i].1 >= value;
    let mix = |i: usize, j: usize| -> Option<BigRational> {
        let (si, sj) = (slope(i), slope(j));
        if si.is_positive() != sj.is_positive() && !(si.is_zero() && sj.is_zero()) {
            Some(&sj / (&sj - &si))
        } else {
            None
        }
    };
    if rows.len() == 3 && active.contains(&1) && active.contains(&2) {
        if let Some(w) = mix(1, 2) {
            x[1] = w.clone();
            x[2] = BigRational::one() - w;
            return (value, x, y);
        }
    }
    // A single active row, or one with zero slope, is optimal on its own
    // whenever it guarantees the value against both columns.
    if let Some(&i) = active.iter().find(|&&i| guarantees(i)) {
        x[i] = BigRational::one();
        return (value, x, y);
    }
    for (a, &i) in active.iter().enumerate() {
        for &j in &active[a + 1..] {
            if let Some(w) = mix(i, j) {
                x[i] = w.clone();
                x[j] = BigRational::one() - w;
                return (value, x, y);
            }
        }
    }
    unreachable!("the minimum of a convex envelope is met by rows of opposite slopes")
}

/// Every state with m ≤ max_m, n ≤ max_n: `table[m][n]`.
pub fn solve_all(max_m: usize, max_n: usize) -> Vec<Vec<State>> {
    // P(a, b) needs (b − 1, a) and (b, a − 1): fill by a + b.
    let size = max_m.max(max_n);
    let mut t: Vec<Vec<Option<State>>> = vec![vec![None; size + 1]; size + 1];
    for total in 0..=2 * size {
        for m in 0..=size.min(total) {
            let n = total - m;
            if n > size {
                continue;
            }
            let s = if n == 0 {
                State {
                    value: BigRational::one(),
                    guess: BigRational::one(),
                    ask: BigRational::zero(),
                    bluff: BigRational::zero(),
                    call: BigRational::zero(),
                }
            } else {
                let p = |a: usize, b: usize| t[a][b].as_ref().expect("smaller state").value.clone();
                let r = rows(m, n, &p);
                let (value, x, y) = solve_k_by_2(&r);
                State {
                    value,
                    guess: x[0].clone(),
                    ask: x[1].clone(),
                    bluff: x.get(2).cloned().unwrap_or_else(BigRational::zero),
                    call: y,
                }
            };
            t[m][n] = Some(s);
        }
    }
    t.into_iter()
        .take(max_m + 1)
        .map(|row| {
            row.into_iter()
                .take(max_n + 1)
                .map(|s| s.expect("filled"))
                .collect()
        })
        .collect()
}

/// The nearest f64 to an exact rational (for tables and printing).
pub fn to_f64(r: &BigRational) -> f64 {
    r.to_f64().unwrap_or(f64::NAN)
}

/// The same recursion in f64 (for the table; checked against the exact one).
pub fn value_f64(max_m: usize, max_n: usize) -> Vec<Vec<f64>> {
    let size = max_m.max(max_n);
    let mut t = vec![vec![f64::NAN; size + 1]; size + 1];
    for total in 0..=2 * size {
        for m in 0..=size.min(total) {
            let n = total - m;
            if n > size {
                continue;
            }
            t[m][n] = if n == 0 {
                1.0
            } else {
                let u = (n + 1) as f64;
                let mut g = crate::lp::MatrixGame::new(if m >= 1 { 3 } else { 2 }, 2);
                let keep = n as f64 / u * (1.0 - t[n - 1][m]);
                g.set(0, 0, 1.0 / u);
                g.set(0, 1, 1.0 / u);
                g.set(1, 0, keep);
                g.set(1, 1, keep + 1.0 / u);
                if m >= 1 {
                    g.set(2, 0, 1.0);
                    g.set(2, 1, 1.0 - t[n][m - 1]);
                }
                g.value()
            };
        }
    }
    t.truncate(max_m + 1);
    for row in &mut t {
        row.truncate(max_n + 1);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_and_f64_recursions_agree() {
        let exact = solve_all(10, 10);
        let fast = value_f64(10, 10);
        for m in 0..=10 {
            for n in 0..=10 {
                let e = &exact[m][n];
                assert!((to_f64(&e.value) - fast[m][n]).abs() < 1e-12, "({m},{n})");
                let total = &e.guess + &e.ask + &e.bluff;
                assert!(total.is_one());
                assert!(!e.call.is_negative() && e.call <= BigRational::one());
            }
        }
    }

    #[test]
    fn one_card_each_by_hand() {
        // (1,1): guess 1/2; ask: 1/2·(1 − P(0,1)) called, +1/2 passed;
        // bluff: 1 called, 1 − P(1,0) = 0 passed.
        let t = solve_all(1, 1);
        assert_eq!(t[0][1].value, q(1, 2));
        let s = &t[1][1];
        let p01 = &t[0][1].value;
        let ask = (
            q(1, 2) * (BigRational::one() - p01),
            q(1, 2) * (BigRational::one() - p01) + q(1, 2),
        );
        let rows = [
            (q(1, 2), q(1, 2)),
            ask,
            (BigRational::one(), BigRational::zero()),
        ];
        // The value guarantees: the row mixture against both columns, the
        // column mixture against every row.
        let x = [&s.guess, &s.ask, &s.bluff];
        for col in 0..2 {
            let pay: BigRational = rows
                .iter()
                .zip(x)
                .map(|(r, w)| if col == 0 { &r.0 * w } else { &r.1 * w })
                .sum();
            assert!(pay >= s.value);
        }
        for r in &rows {
            assert!(&r.0 * &s.call + &r.1 * (BigRational::one() - &s.call) <= s.value);
        }
    }

    /// The strategy card prints the bluff rate and means "ask honestly the
    /// rest of the time": wherever the stored strategy never guesses, that
    /// literal reading must guarantee the value against a caller and a
    /// passer alike (exactly). At one card each this is the classic 1/3.
    #[test]
    fn the_card_followed_literally_is_optimal() {
        let t = solve_all(10, 10);
        let mut literal = 0;
        for m in 1..=10 {
            for n in 1..=10 {
                let s = &t[m][n];
                let p = |a: usize, b: usize| t[a][b].value.clone();
                let r = rows(m, n, &p);
                if !s.guess.is_zero() {
                    continue;
                }
                let x = [
                    BigRational::zero(),
                    BigRational::one() - &s.bluff,
                    s.bluff.clone(),
                ];
                for col in 0..2 {
                    let pay: BigRational = r
                        .iter()
                        .zip(&x)
                        .map(|(row, w)| if col == 0 { &row.0 * w } else { &row.1 * w })
                        .sum();
                    assert!(pay >= s.value, "({m},{n}) column {col}");
                }
                literal += 1;
            }
        }
        // The card's columns start at one own card (with none there is
        // nothing to bluff with); every one of its cells is a mixture.
        assert_eq!(literal, 100, "every card cell is an ask/bluff mixture");
        assert_eq!(t[1][1].bluff, q(1, 3));
        assert_eq!(t[1][1].value, q(1, 2));
    }
}
