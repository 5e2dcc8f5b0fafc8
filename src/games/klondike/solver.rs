//! Open-information ("thoughtful") Klondike: every card is visible, and the
//! question is whether some sequence of legal moves wins. Depth-first
//! search with
//! - a transposition table of the positions already searched (128-bit
//!   hashes of a canonical encoding; a collision is about 10^-20 likely
//!   over a whole run, so a "no" is as good as exhaustive),
//! - symmetry: columns are interchangeable, so the encoding sorts them,
//! - dominance: a card whose holders are no longer needed (both
//!   other-colour cards one lower home, and its same-colour twin two lower
//!   home) goes to its foundation without branching.
//!
//! A node budget per deal bounds the work: a deal over budget is reported
//! unknown, never guessed.

use super::cards::{card, is_red, rank, suit, Card};
use super::state::{Move, Redeal, Rules, State};
use std::collections::HashSet;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Winnable; the moves of one winning game.
    Won(Vec<Move>),
    /// Every line searched and none wins.
    Lost,
    /// The node budget ran out first.
    Unknown,
}

impl Verdict {
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Won(_) => "winnable",
            Verdict::Lost => "not winnable",
            Verdict::Unknown => "unknown (over budget)",
        }
    }
}

pub struct Solved {
    pub verdict: Verdict,
    pub nodes: u64,
}

/// A card nothing can need any more on the tableau.
fn dominated(s: &State, c: Card) -> bool {
    let r = rank(c);
    if r <= 2 {
        return true;
    }
    let twin = [3u8, 2, 1, 0][suit(c) as usize];
    (0..4u8)
        .filter(|&o| is_red(card(o, 1)) != is_red(c))
        .all(|o| s.foundations[o as usize] >= r - 1)
        && s.foundations[twin as usize] >= r - 2
}

struct Search<'a> {
    rules: &'a Rules,
    budget: u64,
    nodes: u64,
    seen: HashSet<u128>,
    line: Vec<Move>,
}

impl Search<'_> {
    fn key(&self, s: &State) -> u128 {
        let mut cols: Vec<(u8, &[Card])> =
            (0..7).map(|i| (s.hidden[i], &s.columns[i][..])).collect();
        cols.sort();
        let mut bytes = Vec::with_capacity(96);
        for (h, c) in cols {
            bytes.push(h);
            bytes.push(c.len() as u8);
            bytes.extend_from_slice(c);
        }
        bytes.push(0xfe);
        bytes.extend_from_slice(&s.stock);
        bytes.push(0xfe);
        bytes.extend_from_slice(&s.waste);
        bytes.extend_from_slice(&s.foundations);
        if self.rules.redeal != Redeal::Unlimited {
            bytes.extend_from_slice(&s.passes.to_le_bytes());
        }
        xxhash_rust::xxh3::xxh3_128(&bytes)
    }

    /// Plays every dominated foundation move; returns how many.
    fn autoplay(&mut self, s: &mut State) -> usize {
        let mut n = 0;
        loop {
            let m = (0..7u8)
                .find(|&c| {
                    s.top(c as usize)
                        .is_some_and(|t| s.to_foundation(t) && dominated(s, t))
                })
                .map(Move::ColumnToFoundation)
                .or_else(|| {
                    s.waste
                        .last()
                        .filter(|&&w| s.to_foundation(w) && dominated(s, w))
                        .map(|_| Move::WasteToFoundation)
                });
            match m {
                Some(m) => {
                    s.apply(m, self.rules);
                    self.line.push(m);
                    n += 1;
                }
                None => return n,
            }
        }
    }

    fn order(m: &Move) -> u8 {
        match m {
            Move::ColumnToFoundation(_) | Move::WasteToFoundation => 0,
            Move::ColumnToColumn { .. } => 1,
            Move::WasteToColumn(_) => 2,
            Move::Deal => 3,
            Move::Redeal => 4,
            Move::FoundationToColumn { .. } => 5,
        }
    }

    /// A position's moves, best kinds first. Dealing is folded into the
    /// play of the card it uncovers: "deal (and turn the waste over) until
    /// card X is on top, then play X" is one step. Deals that play nothing
    /// are never needed (they touch only the stock, so they commute with
    /// every other move up to the next waste play), and the folding spares
    /// the search the long chains of single deals.
    fn moves(&self, s: &State) -> Vec<Vec<Move>> {
        let mut single = Vec::new();
        s.legal_moves(self.rules, &mut single);
        single.retain(|m| !matches!(m, Move::Deal | Move::Redeal));
        single.sort_by_key(Self::order);
        // The greedy player's choice first: ordering only, so no verdict
        // changes, but its sense of progress finds wins sooner.
        let hint = super::greedy::next_move(s, self.rules, &super::greedy::Variant::ALL[1], false);
        if let Some(i) = hint.and_then(|h| single.iter().position(|&m| m == h)) {
            let h = single.remove(i);
            single.insert(0, h);
        }
        let mut out: Vec<Vec<Move>> = single.into_iter().map(|m| vec![m]).collect();
        let mut t = s.clone();
        let mut deals = Vec::new();
        let mut plays = Vec::new();
        // Talon configurations met so far: the stock and waste hold the
        // same cards in the same cyclic order throughout, so the split
        // point (and the pass, when passes are limited) identifies one.
        let config = |t: &State| {
            let pass = if self.rules.redeal == Redeal::Unlimited {
                0
            } else {
                t.passes
            };
            (t.stock.len(), pass)
        };
        let mut met = vec![config(&t)];
        loop {
            let m = if !t.stock.is_empty() {
                Move::Deal
            } else if !t.waste.is_empty() && self.rules.may_redeal(t.passes) {
                Move::Redeal
            } else {
                break;
            };
            t.apply(m, self.rules);
            deals.push(m);
            if met.contains(&config(&t)) {
                break;
            }
            met.push(config(&t));
            if let Some(&w) = t.waste.last() {
                plays.clear();
                if t.to_foundation(w) {
                    plays.push(Move::WasteToFoundation);
                }
                for to in 0..7u8 {
                    if super::state::stacks(w, t.top(to as usize)) {
                        plays.push(Move::WasteToColumn(to));
                    }
                }
                for &p in &plays {
                    let mut seq = deals.clone();
                    seq.push(p);
                    out.push(seq);
                }
            }
        }
        out
    }

    /// Some(true) won, Some(false) exhausted, None over budget. An explicit
    /// stack: winning lines run to hundreds of moves.
    fn dfs(&mut self, root: State) -> Option<bool> {
        struct Frame {
            state: State,
            moves: Vec<Vec<Move>>,
            next: usize,
            line_start: usize,
        }
        let mut s = root;
        self.nodes += 1;
        self.autoplay(&mut s);
        if s.is_won() {
            return Some(true);
        }
        self.seen.insert(self.key(&s));
        let mut stack = vec![Frame {
            moves: self.moves(&s),
            state: s,
            next: 0,
            line_start: 0,
        }];
        while let Some(frame) = stack.last_mut() {
            if frame.next == frame.moves.len() {
                let start = frame.line_start;
                stack.pop();
                self.line.truncate(start);
                continue;
            }
            let step = std::mem::take(&mut frame.moves[frame.next]);
            frame.next += 1;
            let mut child = frame.state.clone();
            let before = self.line.len();
            for m in step {
                child.apply(m, self.rules);
                self.line.push(m);
            }
            self.nodes += 1;
            if self.nodes > self.budget {
                return None;
            }
            self.autoplay(&mut child);
            if child.is_won() {
                return Some(true);
            }
            if !self.seen.insert(self.key(&child)) {
                self.line.truncate(before);
                continue;
            }
            stack.push(Frame {
                moves: self.moves(&child),
                state: child,
                next: 0,
                line_start: before,
            });
        }
        Some(false)
    }
}

/// Decides whether `deal` can be won with every card visible, within
/// `budget` search nodes.
pub fn solve(deal: u64, rules: &Rules, budget: u64) -> Solved {
    let mut search = Search {
        rules,
        budget,
        nodes: 0,
        seen: HashSet::new(),
        line: Vec::new(),
    };
    let verdict = match search.dfs(State::deal(deal)) {
        Some(true) => Verdict::Won(search.line),
        Some(false) => Verdict::Lost,
        None => Verdict::Unknown,
    };
    Solved {
        verdict,
        nodes: search.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_lines_replay_to_a_win() {
        let rules = Rules {
            draw: 1,
            redeal: Redeal::Unlimited,
        };
        let mut won = 0;
        for deal in 0..20 {
            if let Verdict::Won(line) = solve(deal, &rules, 200_000).verdict {
                let mut s = State::deal(deal);
                let mut legal = Vec::new();
                for m in line {
                    s.legal_moves(&rules, &mut legal);
                    assert!(legal.contains(&m), "deal {deal}: {m:?}");
                    s.apply(m, &rules);
                }
                assert!(s.is_won());
                won += 1;
            }
        }
        assert!(won >= 10, "only {won} of 20 deals solved");
    }
}
