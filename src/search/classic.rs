//! The textbook searches with nothing added, for counting nodes: minimax
//! visits the whole tree to the depth; alpha-beta prunes in the order the
//! moves come (optionally sorted by a one-ply static score first).

use super::{ended_score, Position, Score, INFINITY};

/// Nodes visited (every position entered, root included) and leaves
/// evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Positions visited.
    pub nodes: u64,
    /// Positions evaluated.
    pub leaves: u64,
}

/// Negamax to `depth` plies (a finished game stops earlier).
pub fn minimax<P: Position>(p: &mut P, depth: u32, count: &mut Count) -> Score {
    negamax(p, depth, 0, -INFINITY, INFINITY, false, false, count)
}

/// Alpha-beta in generation order, or with the moves sorted by the static
/// evaluation of the position after each (best for the mover first).
pub fn alpha_beta<P: Position>(p: &mut P, depth: u32, sorted: bool, count: &mut Count) -> Score {
    negamax(p, depth, 0, -INFINITY, INFINITY, true, sorted, count)
}

#[allow(clippy::too_many_arguments)]
fn negamax<P: Position>(
    p: &mut P,
    depth: u32,
    ply: u32,
    mut alpha: Score,
    beta: Score,
    prune: bool,
    sorted: bool,
    count: &mut Count,
) -> Score {
    count.nodes += 1;
    if let Some(e) = p.ended() {
        count.leaves += 1;
        return ended_score(e, ply);
    }
    if depth == 0 {
        count.leaves += 1;
        return p.evaluate();
    }
    let mut moves = Vec::new();
    p.moves(&mut moves);
    if sorted {
        let mut keyed: Vec<(Score, P::Move)> = moves
            .iter()
            .map(|&m| {
                p.make(m);
                let s = match p.ended() {
                    Some(e) => ended_score(e, 1),
                    None => p.evaluate(),
                };
                p.unmake(m);
                (-s, m)
            })
            .collect();
        // Stable: ties keep generation order.
        keyed.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        moves = keyed.into_iter().map(|(_, m)| m).collect();
    }
    let mut best = -INFINITY;
    for m in moves {
        p.make(m);
        let s = -negamax(p, depth - 1, ply + 1, -beta, -alpha, prune, sorted, count);
        p.unmake(m);
        best = best.max(s);
        if prune {
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// Knuth and Moore's minimal tree: the leaves alpha-beta must examine in a
/// uniform tree of branching `b` and depth `d` with perfect ordering,
/// b^⌈d/2⌉ + b^⌊d/2⌋ − 1.
pub fn minimal_leaves(b: u64, d: u32) -> u64 {
    b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1
}
