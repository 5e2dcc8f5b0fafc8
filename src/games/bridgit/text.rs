//! The games chapter's Bridg-it machine (`../shared/seeds/000_…`, 1.2):
//! "The machine plays 1 as an opening. From now on the opponent's move is
//! reported as the number he crosses … The reply is looked up in the
//! table", with the printed tables for N = 5 and N = 4 and the remainder
//! rule that gives them for every size.
//!
//! **Reconstructed**: the board's numbering (Fig. 1.5, a picture, is
//! lost). The tables say which numbers answer which: 1 is the opening;
//! within each run of 2N numbers, `k` (k mod 2N in 2..N) answers
//! `k + N − 1`, and the run's last number answers the next run's first.
//! That is N answers per run of 2N, one per dot of a row of the
//! opponent's inner dots, so a run is a row of dots and an answer pair is
//! two crossings at one dot, as in every pairing strategy. The numbering
//! here is the one that puts the text's pairs on our staircase pairing
//! (`pairing`): run `j` is the opponent's dot row `j`; the dot at column
//! `j + 1` (where the staircase pairs the crossings above and below it)
//! takes the run's last number and the next run's first, the dots before
//! and after it, left to right, take `k` and `k + N − 1`, the crossing
//! listed first by the staircase the lower number; 1 is the top crossing
//! of the first dot (the staircase's opening). That the remainder rule
//! then answers every number with its partner, and that the pairs win, is
//! checked for every size, not assumed; the printed tables are compared
//! cell by cell. Which crossing of the lost figure carries which number
//! is not claimed: any numbering with these pairs plays the same game.

use super::board::Board;
use super::pairing::Pairing;

#[cfg(any(test, feature = "internals"))]
/// The text's N = 5 table, as printed: (opponent's move, answer).
pub const PRINTED_N5: [(u32, u32); 40] = [
    (2, 6), (3, 7), (4, 8), (5, 9), (6, 2), (7, 3), (8, 4), (9, 5), (10, 11), (11, 10),
    (12, 16), (13, 17), (14, 18), (15, 19), (16, 12), (17, 13), (18, 14), (19, 15), (20, 21), (21, 20),
    (22, 26), (23, 27), (24, 28), (25, 29), (26, 22), (27, 23), (28, 24), (29, 25), (30, 31), (31, 30),
    (32, 36), (33, 37), (34, 38), (35, 39), (36, 32), (37, 33), (38, 34), (39, 35), (40, 41), (41, 40),
];

#[cfg(any(test, feature = "internals"))]
/// The text's N = 4 table, as printed: (opponent's move, increment, answer).
pub const PRINTED_N4: [(u32, i32, u32); 24] = [
    (2, 3, 5), (3, 3, 6), (4, 3, 7), (5, -3, 2), (6, -3, 3), (7, -3, 4), (8, 1, 9), (9, -1, 8),
    (10, 3, 13), (11, 3, 14), (12, 3, 15), (13, -3, 10), (14, -3, 11), (15, -3, 12), (16, 1, 17), (17, -1, 16),
    (18, 3, 21), (19, 3, 22), (20, 3, 23), (21, -3, 18), (22, -3, 19), (23, -3, 20), (24, 1, 25), (25, -1, 24),
];

/// The numbers of a size-`n` board: 1 to n² + (n − 1)², one a crossing.
pub fn count(n: usize) -> u32 {
    (n * n + (n - 1) * (n - 1)) as u32
}

/// The text's remainder rule, as written: "Divide by 2N and look at the
/// remainder R … A := if R < 2 then (if R = 0 then OM + 1 else OM − 1)
/// else if R − N ≤ 0 then OM + N − 1 else OM − N + 1".
pub fn answer(n: usize, om: u32) -> u32 {
    let n = n as i64;
    let om = om as i64;
    let r = om % (2 * n);
    let a = if r < 2 {
        if r == 0 {
            om + 1
        } else {
            om - 1
        }
    } else if r - n <= 0 {
        om + n - 1
    } else {
        om - n + 1
    };
    a as u32
}

/// `numbering(b)[k − 1]` is the site that carries number k (see the
/// module comment: reconstructed).
pub fn numbering(b: &Board) -> Vec<usize> {
    let n = b.n;
    let staircase = Pairing::staircase(b);
    let mut site = vec![usize::MAX; count(n) as usize];
    site[0] = staircase.opening;
    // The staircase's pair at dot (i, j), the first-listed crossing first.
    let down = |i: usize, j: usize| j * n + (i - 1);
    let up = |i: usize, j: usize| (j - 1) * n + (i - 1);
    let right = |i: usize, j: usize| n * n + (j - 1) * (n - 1) + (i - 1);
    let left = |i: usize, j: usize| n * n + (j - 1) * (n - 1) + (i - 2);
    for j in 1..n {
        let base = 2 * n * (j - 1);
        site[base + 2 * n - 1] = up(j + 1, j);
        site[base + 2 * n] = down(j + 1, j);
        let others = (1..=n).filter(|&i| i != j + 1);
        for (k, i) in (1..).zip(others) {
            let (a, c) = if i <= j {
                (down(i, j), right(i, j))
            } else {
                (left(i, j), up(i, j))
            };
            site[base + k] = a;
            site[base + k + n - 1] = c;
        }
    }
    site
}

/// The text's machine on board `b` as a pairing: the opening is number 1,
/// and each number's partner is the rule's answer.
pub fn machine(b: &Board) -> Pairing {
    let site = numbering(b);
    let mut partner = vec![None; b.sites()];
    for om in 2..=count(b.n) {
        partner[site[om as usize - 1]] = Some(site[answer(b.n, om) as usize - 1]);
    }
    Pairing {
        opening: site[0],
        partner,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_gives_both_printed_tables_cell_by_cell() {
        for &(om, a) in &PRINTED_N5 {
            assert_eq!(answer(5, om), a, "N = 5, OM = {om}");
        }
        assert_eq!(PRINTED_N5.len() as u32, count(5) - 1, "every number but the opening");
        for &(om, i, a) in &PRINTED_N4 {
            assert_eq!(om as i32 + i, a as i32, "the printed sum at OM = {om}");
            assert_eq!(answer(4, om), a, "N = 4, OM = {om}");
        }
        assert_eq!(PRINTED_N4.len() as u32, count(4) - 1);
    }

    #[test]
    fn for_every_size_the_numbering_is_a_bijection_and_the_rule_a_winning_pairing() {
        for n in 2..=10 {
            let b = Board::new(n);
            let site = numbering(&b);
            let mut seen = vec![false; b.sites()];
            for &s in &site {
                assert!(s < b.sites() && !seen[s], "n = {n}: site {s} numbered twice or not a site");
                seen[s] = true;
            }
            assert_eq!(site.len(), b.sites(), "n = {n}");
            // The rule is an involution without fixed points on 2..=count.
            for om in 2..=count(n) {
                let a = answer(n, om);
                assert!((2..=count(n)).contains(&a) && a != om && answer(n, a) == om, "n = {n}, OM = {om}");
            }
            let m = machine(&b);
            assert!(m.is_well_formed(&b), "n = {n}: partners meet at a dot");
            assert!(m.structural_check(&b).blocked, "n = {n}: the pairs win");
            assert_eq!(m, Pairing::staircase(&b), "n = {n}: the staircase's pairs");
        }
    }
}
