//! White's pairing strategy (Gross's kind): an opening, then every other
//! site paired with one partner; when Black takes one site of a pair, White
//! takes the other.
//!
//! The pairs here are a staircase, one pair at every inner Black dot. The
//! dot in Black's row j (1..n) and column i (1..=n) pairs two of its four
//! Black edges: down and right when i ≤ j, up and down when i = j + 1, left
//! and up when i > j + 1. The opening is the top edge of dot (1, 1), the
//! site h1,1. Every site is then in exactly one pair (checked, not assumed).
//!
//! Why it wins (the structural check below): Black holds at most one site
//! of every pair, so a Black crossing from T to B never runs through both
//! paired edges at a dot. The check searches every walk of Black's graph
//! that obeys this rule, over states (dot, edge it arrived by); if none
//! reaches B, then no simple crossing does either, every blocking set of
//! Black contains a whole pair, and since a full board always has a winner,
//! White connects.

use super::board::Board;
use super::strategy::Strategy;
use std::collections::VecDeque;

#[derive(Clone, Debug, PartialEq, Eq)]
/// A pairing strategy: White's opening and each other site's partner.
pub struct Pairing {
    /// White's first site.
    pub opening: usize,
    /// Each site's partner; None for the opening.
    pub partner: Vec<Option<usize>>,
}

/// What the structural check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StructuralProof {
    /// Black's walks can never cross from T to B.
    pub blocked: bool,
    /// (dot, arriving edge) states the search visited.
    pub states: u64,
}

impl Pairing {
    /// The staircase pairing for a board of any size.
    pub fn staircase(b: &Board) -> Pairing {
        let n = b.n;
        let down = |i: usize, j: usize| j * n + (i - 1);
        let up = |i: usize, j: usize| (j - 1) * n + (i - 1);
        let right = |i: usize, j: usize| n * n + (j - 1) * (n - 1) + (i - 1);
        let left = |i: usize, j: usize| n * n + (j - 1) * (n - 1) + (i - 2);
        let mut partner = vec![None; b.sites()];
        for j in 1..n {
            for i in 1..=n {
                let (a, c) = if i <= j {
                    (down(i, j), right(i, j))
                } else if i == j + 1 {
                    (up(i, j), down(i, j))
                } else {
                    (left(i, j), up(i, j))
                };
                partner[a] = Some(c);
                partner[c] = Some(a);
            }
        }
        Pairing {
            opening: 0,
            partner,
        }
    }

    /// Every site but the opening has a partner, partners are mutual, and
    /// the two sites of a pair meet at an inner Black dot.
    pub fn is_well_formed(&self, b: &Board) -> bool {
        self.partner.len() == b.sites()
            && self.partner[self.opening].is_none()
            && (0..b.sites()).all(|s| {
                s == self.opening
                    || matches!(self.partner[s], Some(p) if p != s
                        && p != self.opening
                        && self.partner[p] == Some(s)
                        && b.shared_black_dot(s, p).is_some())
            })
    }

    /// The pairs, each once, lower site first.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        (0..self.partner.len())
            .filter_map(|s| self.partner[s].filter(|&p| s < p).map(|p| (s, p)))
            .collect()
    }

    /// The search described in the module comment. Requires a well-formed
    /// pairing (partners share a Black dot).
    pub fn structural_check(&self, b: &Board) -> StructuralProof {
        let mut adjacent: Vec<Vec<(usize, usize)>> = vec![Vec::new(); b.black_vertices];
        for (site, &(p, q)) in b.black_edges.iter().enumerate() {
            if site != self.opening {
                adjacent[p].push((site, q));
                adjacent[q].push((site, p));
            }
        }
        let mut seen = vec![false; b.sites() * b.black_vertices];
        let mut queue = VecDeque::new();
        let mut states = 0u64;
        let mut visit = |dot: usize, by: usize, queue: &mut VecDeque<(usize, usize)>| {
            let k = by * b.black_vertices + dot;
            if !seen[k] {
                seen[k] = true;
                states += 1;
                queue.push_back((dot, by));
            }
        };
        for &(site, dot) in &adjacent[0] {
            if dot == 1 {
                return StructuralProof {
                    blocked: false,
                    states,
                };
            }
            visit(dot, site, &mut queue);
        }
        while let Some((dot, by)) = queue.pop_front() {
            for &(site, next) in &adjacent[dot] {
                if site == by || self.partner[by] == Some(site) || next == 0 {
                    continue;
                }
                if next == 1 {
                    return StructuralProof {
                        blocked: false,
                        states,
                    };
                }
                visit(next, site, &mut queue);
            }
        }
        StructuralProof {
            blocked: true,
            states,
        }
    }
}

impl Strategy for Pairing {
    fn opening(&self) -> usize {
        self.opening
    }

    /// The partner if free, else the lowest free site (never needed in a
    /// game from the start: pairs are always taken together).
    fn reply(&self, _: &Board, white: &[bool], black: &[bool], site: usize) -> Option<usize> {
        let free = |s: usize| !white[s] && !black[s];
        self.partner[site]
            .filter(|&p| free(p))
            .or_else(|| (0..white.len()).find(|&s| free(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_staircase_is_a_perfect_pairing_that_blocks_black() {
        for n in 2..=30 {
            let b = Board::new(n);
            let p = Pairing::staircase(&b);
            assert!(p.is_well_formed(&b), "n = {n}");
            assert_eq!(p.pairs().len(), n * (n - 1));
            assert!(p.structural_check(&b).blocked, "n = {n}");
        }
    }
}
