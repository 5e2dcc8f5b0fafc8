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

#[derive(Clone, Debug)]
pub struct Board {
    pub n: usize,
    /// Endpoints of each site's White edge (vertex 0 = L, 1 = R).
    pub edges: Vec<(usize, usize)>,
    pub labels: Vec<String>,
    pub vertices: usize,
}

impl Board {
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
        let mut edges = Vec::new();
        let mut labels = Vec::new();
        for r in 0..n {
            for c in 0..n {
                edges.push((vertex(r, c), vertex(r, c + 1)));
                labels.push(format!("h{},{}", r + 1, c + 1));
            }
        }
        for r in 0..n - 1 {
            for c in 1..n {
                edges.push((vertex(r, c), vertex(r + 1, c)));
                labels.push(format!("v{},{}", r + 1, c + 1));
            }
        }
        Board {
            n,
            edges,
            labels,
            vertices: 2 + n * (n - 1),
        }
    }

    pub fn sites(&self) -> usize {
        self.edges.len()
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
        let mut uf = UnionFind::new(self.vertices);
        for (i, &(a, b)) in self.edges.iter().enumerate() {
            if mask[i] {
                uf.union(a, b);
            }
        }
        uf.find(0) == uf.find(1)
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    White,
    Black,
}

#[derive(Clone, Debug)]
pub struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    pub fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n).collect(),
        }
    }
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
}
