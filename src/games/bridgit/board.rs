//! Bridg-it (Gale's game) of size n as a Shannon switching game.
//!
//! White's dots form n rows × (n+1) columns; White joins the left column to
//! the right one. Black's dots form (n+1) rows × n columns, top to bottom.
//! Every bridge site is a White edge that crosses exactly one Black edge,
//! so Black claiming a site deletes that White edge. In White's graph the
//! left and right columns are contracted to two terminals L and R; White has
//! won when L and R are joined by White edges, Black when they no longer
//! can be (by planar duality: Black's bridges join top and bottom).
//!
//! Sites are numbered from 1: first the horizontal White edges
//! (row r, columns c–c+1) row by row, then the vertical ones (rows r–r+1 in
//! interior column c) row by row.
//!
//! On the drawn board (x, y in 0..=2n, x to the right, y down) White's dots
//! sit at (even, odd), Black's at (odd, even) and the sites at the points
//! with x + y even strictly inside. Black's dots: row 0 is the top terminal
//! T, row n the bottom terminal B; rows 1..n of n dots each lie between.

#[derive(Clone, Debug)]
/// The Bridg-it board of size n: White's and Black's graphs over the same sites.
pub struct Board {
    /// The board size (White has n x (n + 1) dots).
    pub n: usize,
    /// Endpoints of each site's White edge (vertex 0 = L, 1 = R).
    pub edges: Vec<(usize, usize)>,
    /// Each site's name on the drawn board ("a1" …).
    pub labels: Vec<String>,
    /// White's vertices (0 = L, 1 = R, then the inner dots).
    pub vertices: usize,
    /// Endpoints of each site's Black edge (vertex 0 = T, 1 = B, then the
    /// inner Black dots row by row).
    pub black_edges: Vec<(usize, usize)>,
    /// Black's vertices (0 = T, 1 = B, then the inner dots).
    pub black_vertices: usize,
    /// Each site's (x, y) on the drawn board.
    pub coords: Vec<(usize, usize)>,
}

impl Board {
    /// The board of size n (n >= 2).
    pub fn new(n: usize) -> Board {
        assert!(n >= 2, "Bridg-it needs n >= 2");
        let vertex = |r: usize, c: usize| -> usize {
            if c == 0 {
                0
            } else if c == n {
                1
            } else {
                2 + r * (n - 1) + (c - 1)
            }
        };
        // Black dot in row `row` (0..=n), column `col` (0..n).
        let black = |row: usize, col: usize| -> usize {
            if row == 0 {
                0
            } else if row == n {
                1
            } else {
                2 + (row - 1) * n + col
            }
        };
        let mut edges = Vec::new();
        let mut labels = Vec::new();
        let mut black_edges = Vec::new();
        let mut coords = Vec::new();
        for r in 0..n {
            for c in 0..n {
                edges.push((vertex(r, c), vertex(r, c + 1)));
                black_edges.push((black(r, c), black(r + 1, c)));
                labels.push(format!("h{},{}", r + 1, c + 1));
                coords.push((2 * c + 1, 2 * r + 1));
            }
        }
        for r in 0..n - 1 {
            for c in 1..n {
                edges.push((vertex(r, c), vertex(r + 1, c)));
                black_edges.push((black(r + 1, c - 1), black(r + 1, c)));
                labels.push(format!("v{},{}", r + 1, c + 1));
                coords.push((2 * c, 2 * r + 2));
            }
        }
        Board {
            n,
            edges,
            labels,
            vertices: 2 + n * (n - 1),
            black_edges,
            black_vertices: 2 + n * (n - 1),
            coords,
        }
    }

    /// The number of sites (a move claims one).
    pub fn sites(&self) -> usize {
        self.edges.len()
    }

    #[cfg(any(test, feature = "internals"))]
    /// The site at (x, y) on the drawn board.
    pub fn site_at(&self, x: usize, y: usize) -> Option<usize> {
        let n = self.n;
        if x == 0 || y == 0 || x >= 2 * n || y >= 2 * n || (x + y) % 2 == 1 {
            return None;
        }
        Some(if x % 2 == 1 {
            (y / 2) * n + x / 2
        } else {
            n * n + (y / 2 - 1) * (n - 1) + (x / 2 - 1)
        })
    }

    /// The inner Black dot both sites' Black edges meet at, if any.
    pub fn shared_black_dot(&self, a: usize, b: usize) -> Option<usize> {
        let (a0, a1) = self.black_edges[a];
        let (b0, b1) = self.black_edges[b];
        [a0, a1]
            .into_iter()
            .find(|&v| v >= 2 && (v == b0 || v == b1))
    }

    /// Site index from "17" (1-based) or a label such as "h3,2".
    pub fn parse_site(&self, s: &str) -> Option<usize> {
        if let Ok(i) = s.parse::<usize>() {
            return (1..=self.sites()).contains(&i).then(|| i - 1);
        }
        self.labels.iter().position(|l| l == s)
    }

    /// Whether the edges in `mask` join L and R.
    pub fn connects(&self, mask: &[bool]) -> bool {
        joins_first_two(self.vertices, &self.edges, mask)
    }

    #[cfg(any(test, feature = "internals"))]
    /// Whether the Black sites in `black` join T and B (read on Black's own
    /// graph, independently of White's).
    pub fn black_crosses(&self, black: &[bool]) -> bool {
        joins_first_two(self.black_vertices, &self.black_edges, black)
    }

    /// Coordinates of an inner Black dot on the drawn board.
    pub fn black_dot_coords(&self, dot: usize) -> (usize, usize) {
        let (row, col) = ((dot - 2) / self.n + 1, (dot - 2) % self.n);
        (2 * col + 1, 2 * row)
    }

    /// White has won; Black has won (White can no longer connect).
    pub fn winner(&self, white: &[bool], black: &[bool]) -> Option<Player> {
        if self.connects(white) {
            return Some(Player::White);
        }
        let open: Vec<bool> = black.iter().map(|b| !b).collect();
        (!self.connects(&open)).then_some(Player::Black)
    }
}

/// The drawn board without bridges: White's dots `o` at (even, odd),
/// Black's `•` at (odd, even), blanks elsewhere; `grid[y][x]`.
pub fn dot_grid(n: usize) -> Vec<Vec<char>> {
    (0..=2 * n)
        .map(|y| {
            (0..=2 * n)
                .map(|x| match (x % 2, y % 2) {
                    (0, 1) => 'o',
                    (1, 0) => '•',
                    _ => ' ',
                })
                .collect()
        })
        .collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// A side of Bridg-it.
pub enum Player {
    /// Joins left to right; moves first.
    White,
    /// Joins top to bottom.
    Black,
}

#[derive(Clone, Debug)]
/// Disjoint sets with path halving (connectivity of claimed edges).
pub struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// n singleton sets.
    pub fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n).collect(),
        }
    }
    /// The representative of `x`'s set.
    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }
    /// False when already joined (the edge would close a cycle).
    pub fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        self.parent[ra] = rb;
        true
    }
}

/// Whether the edges chosen by `mask` join vertex 0 to vertex 1 (the two
/// goal lines of either player's graph).
fn joins_first_two(vertices: usize, edges: &[(usize, usize)], mask: &[bool]) -> bool {
    let mut uf = UnionFind::new(vertices);
    for (i, &(a, b)) in edges.iter().enumerate() {
        if mask[i] {
            uf.union(a, b);
        }
    }
    uf.find(0) == uf.find(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commercial_board_has_41_sites() {
        let b = Board::new(5);
        assert_eq!(b.sites(), 41);
        assert_eq!(b.vertices, 22);
        assert_eq!(b.parse_site("h1,1"), Some(0));
        assert_eq!(b.parse_site("41"), Some(40));
        assert_eq!(b.parse_site("42"), None);
    }

    #[test]
    fn sites_cross_one_black_edge_and_sit_where_drawn() {
        for n in 2..=6 {
            let b = Board::new(n);
            for i in 0..b.sites() {
                let (x, y) = b.coords[i];
                assert_eq!(b.site_at(x, y), Some(i));
                for dot in [b.black_edges[i].0, b.black_edges[i].1] {
                    if dot >= 2 {
                        let (dx, dy) = b.black_dot_coords(dot);
                        assert_eq!(dx.abs_diff(x) + dy.abs_diff(y), 1, "n = {n}, site {i}");
                    }
                }
                // The Black edge runs across the White one: vertical for a
                // horizontal White bridge (odd x) and the other way round.
                let (p, q) = b.black_edges[i];
                assert_ne!(p, q);
                assert!(p < b.black_vertices && q < b.black_vertices);
            }
        }
    }

    /// Black's graph is the planar dual: on a full board exactly one player
    /// connects, so Black's sites join T and B exactly when White's do not
    /// join L and R.
    #[test]
    fn black_crossings_are_the_dual_of_white_connections() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for n in 2..=7 {
            let b = Board::new(n);
            for _ in 0..300 {
                let white: Vec<bool> = (0..b.sites()).map(|_| rng.below(2) == 1).collect();
                let black: Vec<bool> = white.iter().map(|w| !w).collect();
                assert_eq!(b.black_crosses(&black), !b.connects(&white), "n = {n}");
            }
        }
    }
}
