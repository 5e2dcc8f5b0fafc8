//! Lehman's strategy for the connector in a Shannon switching game: after
//! White's first move, the remaining sites split into two edge-disjoint
//! spanning trees of White's graph (with the claimed edges contracted).
//! When Black deletes an edge of one tree, White claims an edge of the other
//! tree that reconnects it; both trees stay spanning, so White connects.
//!
//! The split is found by matroid partition (Edmonds): grow two forests,
//! inserting each edge along a shortest exchange path.

use super::board::{Board, UnionFind};
use super::strategy::Strategy;
use std::collections::VecDeque;

/// Edges of forest `f` as an adjacency list over contracted vertices.
fn forest_path(
    b: &Board,
    rep: &[usize],
    member: &[Option<u8>],
    f: u8,
    from: usize,
    to: usize,
) -> Option<Vec<usize>> {
    let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); b.vertices];
    for (i, &(x, y)) in b.edges.iter().enumerate() {
        if member[i] == Some(f) {
            let (x, y) = (rep[x], rep[y]);
            adj[x].push((y, i));
            adj[y].push((x, i));
        }
    }
    let mut back: Vec<Option<(usize, usize)>> = vec![None; b.vertices];
    let mut seen = vec![false; b.vertices];
    let mut q = VecDeque::from([from]);
    seen[from] = true;
    while let Some(v) = q.pop_front() {
        if v == to {
            let mut path = Vec::new();
            let mut at = to;
            while let Some((p, e)) = back[at] {
                path.push(e);
                at = p;
            }
            return Some(path);
        }
        for &(w, e) in &adj[v] {
            if !seen[w] {
                seen[w] = true;
                back[w] = Some((v, e));
                q.push_back(w);
            }
        }
    }
    None
}

/// Splits the edges in `pool` into two forests (contracted by `rep`),
/// maximising how many are placed. Returns each edge's forest.
pub fn partition(b: &Board, rep: &[usize], pool: &[usize]) -> Vec<Option<u8>> {
    let mut member: Vec<Option<u8>> = vec![None; b.sites()];
    for &e in pool {
        // BFS over edges that need a forest; parent links record exchanges.
        let mut parent: Vec<Option<(usize, u8)>> = vec![None; b.sites()];
        let mut visited = vec![false; b.sites()];
        let mut q = VecDeque::from([e]);
        visited[e] = true;
        let mut done: Option<(usize, u8)> = None;
        'bfs: while let Some(x) = q.pop_front() {
            for f in 0..2u8 {
                if member[x] == Some(f) {
                    continue;
                }
                let (u, v) = (rep[b.edges[x].0], rep[b.edges[x].1]);
                if u == v {
                    continue;
                }
                match forest_path(b, rep, &member, f, u, v) {
                    None => {
                        done = Some((x, f));
                        break 'bfs;
                    }
                    Some(cycle) => {
                        for y in cycle {
                            if !visited[y] {
                                visited[y] = true;
                                parent[y] = Some((x, f));
                                q.push_back(y);
                            }
                        }
                    }
                }
            }
        }
        // Apply the exchanges back along the path: each edge moves into
        // the forest recorded for it, displacing the next one.
        if let Some((mut x, mut f)) = done {
            loop {
                let displaced_by = parent[x];
                member[x] = Some(f);
                match displaced_by {
                    None => break,
                    Some((px, pf)) => {
                        // x was displaced from forest pf by px.
                        x = px;
                        f = pf;
                    }
                }
            }
        }
    }
    member
}

/// White's opening and two spanning trees of the rest, if one exists.
#[derive(Clone, Debug)]
pub struct TreeStrategy {
    /// White's first site.
    pub first: usize,
    /// Tree (0 or 1) of every other site.
    pub tree: Vec<Option<u8>>,
}

impl TreeStrategy {
    /// The lowest-numbered opening after which the rest splits into two
    /// spanning trees.
    pub fn find(b: &Board) -> Option<TreeStrategy> {
        for first in 0..b.sites() {
            let mut uf = UnionFind::new(b.vertices);
            uf.union(b.edges[first].0, b.edges[first].1);
            let rep: Vec<usize> = (0..b.vertices).map(|v| uf.find(v)).collect();
            let pool: Vec<usize> = (0..b.sites()).filter(|&e| e != first).collect();
            let tree = partition(b, &rep, &pool);
            let placed = tree.iter().filter(|t| t.is_some()).count();
            if placed == pool.len() && placed == 2 * (b.vertices - 2) {
                return Some(TreeStrategy { first, tree });
            }
        }
        None
    }

    /// Both trees are spanning trees of White's graph with the opening
    /// contracted (the structural proof that the strategy wins).
    pub fn check(&self, b: &Board) -> bool {
        (0..2u8).all(|t| {
            let mut uf = UnionFind::new(b.vertices);
            uf.union(b.edges[self.first].0, b.edges[self.first].1);
            let mut count = 0;
            for (i, &(x, y)) in b.edges.iter().enumerate() {
                if self.tree[i] == Some(t) {
                    if !uf.union(x, y) {
                        return false;
                    }
                    count += 1;
                }
            }
            count == b.vertices - 2
        })
    }
}

impl Strategy for TreeStrategy {
    fn opening(&self) -> usize {
        self.first
    }

    /// Black took a site of tree t: White claims a free edge of the other
    /// tree that rejoins t's two parts (White's edges contracted).
    fn reply(&self, b: &Board, white: &[bool], black: &[bool], site: usize) -> Option<usize> {
        let free = |i: usize| !white[i] && !black[i];
        let lowest_free = || (0..b.sites()).find(|&i| free(i));
        // A site outside the trees cannot be free in a game from the start.
        let Some(t) = self.tree[site] else {
            return lowest_free();
        };
        let mut uf = UnionFind::new(b.vertices);
        for (i, &(x, y)) in b.edges.iter().enumerate() {
            if white[i] || (self.tree[i] == Some(t) && free(i)) {
                uf.union(x, y);
            }
        }
        (0..b.sites())
            .find(|&i| {
                self.tree[i] == Some(1 - t) && free(i) && {
                    let (x, y) = b.edges[i];
                    uf.find(x) != uf.find(y)
                }
            })
            .or_else(lowest_free)
    }
}
