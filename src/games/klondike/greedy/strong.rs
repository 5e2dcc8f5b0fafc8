//! A stronger priority player in the manner of the published rule-based
//! players: it sends home only cards that no longer hold anything, spends
//! its moves on turning face-down cards (the column with the most of them
//! first), keeps empty columns for kings that free something, and moves
//! part of a run when that bares a card that could go home.
//!
//! Like the seed's player it sees only what a person at the table sees:
//! face-up cards, how many cards lie face down, the waste's top card, the
//! foundations and whether the stock is empty.
//!
//! Every move it makes other than dealing sends a card home, turns a
//! face-down card, takes a card off the talon, empties a column for a
//! waiting king (rule 5), or moves part of a run (rule 6). Rule 6 does not
//! undo itself (it never moves onto a card that could go home, and the card
//! it bares could), and the play loop stops turning the stock over once a
//! whole pass has made no other move; a batch asserts the longest game.

use super::super::cards::{rank, Card};
use super::super::state::{stacks, Move, Rules, State};
use super::{deal_or_last_resort, king_waits, safe_home, twin_move};

/// A card that no card still in play can need as a holder: aces and twos
/// (an ace never waits on a tableau card), or both other-colour cards one
/// rank lower already home.
fn dominated(s: &State, c: Card) -> bool {
    s.to_foundation(c) && (rank(c) <= 2 || safe_home(s, c))
}

/// Columns with face-down cards, most face-down cards first.
fn by_hidden_desc(s: &State) -> Vec<usize> {
    let mut cols: Vec<usize> = (0..7).filter(|&c| s.hidden[c] > 0).collect();
    cols.sort_by_key(|&c| (std::cmp::Reverse(s.hidden[c]), c));
    cols
}

/// Where a run headed by `base` may go: a column it stacks on, preferring
/// one whose own face-down cards are fewest (it will be buried longer).
fn target(s: &State, base: Card, from: usize) -> Option<usize> {
    (0..7)
        .filter(|&to| to != from && stacks(base, s.top(to)))
        .min_by_key(|&to| (s.hidden[to], to))
}

/// The move the strong priority list makes, or None when it gives up.
pub fn next_move(s: &State, rules: &Rules, stalled: bool) -> Option<Move> {
    let hidden_first = by_hidden_desc(s);

    // 1. A card that holds nothing goes home: from a column that it turns
    //    a card in first, then other columns, then the waste.
    let order: Vec<usize> = hidden_first
        .iter()
        .copied()
        .chain((0..7).filter(|&c| s.hidden[c] == 0))
        .collect();
    for &col in &order {
        if s.top(col).is_some_and(|c| dominated(s, c)) {
            return Some(Move::ColumnToFoundation(col as u8));
        }
    }
    if s.waste.last().is_some_and(|&w| dominated(s, w)) {
        return Some(Move::WasteToFoundation);
    }

    // 2. Turn a face-down card by moving the run above it, the column with
    //    most face-down cards first (a king's run needs an empty column).
    for &from in &hidden_first {
        let base = s.run(from)[0];
        if let Some(to) = target(s, base, from) {
            return Some(Move::ColumnToColumn {
                from: from as u8,
                to: to as u8,
                count: s.run(from).len() as u8,
            });
        }
    }

    // 3. Turn a face-down card by sending home the single face-up card on
    //    it, even though that card might still have held something.
    for &col in &hidden_first {
        if s.run(col).len() == 1 && s.top(col).is_some_and(|c| s.to_foundation(c)) {
            return Some(Move::ColumnToFoundation(col as u8));
        }
    }

    // 4. A king from the waste into an empty column.
    let empty = (0..7).find(|&c| s.columns[c].is_empty());
    if let (Some(to), Some(&w)) = (empty, s.waste.last()) {
        if rank(w) == 13 {
            return Some(Move::WasteToColumn(to as u8));
        }
    }

    // 5. No empty column but a king waits: empty the shortest column whose
    //    cards are all face up onto other columns.
    if empty.is_none() && king_waits(s) {
        let mut full_runs: Vec<usize> = (0..7)
            .filter(|&c| s.hidden[c] == 0 && !s.columns[c].is_empty())
            .collect();
        full_runs.sort_by_key(|&c| (s.columns[c].len(), c));
        for from in full_runs {
            let base = s.columns[from][0];
            if rank(base) == 13 {
                continue;
            }
            if let Some(to) = target(s, base, from) {
                return Some(Move::ColumnToColumn {
                    from: from as u8,
                    to: to as u8,
                    count: s.columns[from].len() as u8,
                });
            }
        }
    }

    // 6. Move part of a run onto another column when that bares a card
    //    that could go home. The bared card stays as a landing place until
    //    nothing needs it (rule 1) or play stalls (rule 10). Never onto a
    //    card that could go home itself: from there rule 6 would move the
    //    run straight back.
    for from in 0..7 {
        let run = s.run(from);
        for i in 1..run.len() {
            if !s.to_foundation(run[i - 1]) {
                continue;
            }
            let Some(to) = target(s, run[i], from) else {
                continue;
            };
            if s.top(to).is_some_and(|c| s.to_foundation(c)) {
                continue;
            }
            return Some(Move::ColumnToColumn {
                from: from as u8,
                to: to as u8,
                count: (run.len() - i) as u8,
            });
        }
    }

    // 7. The waste card onto a column (a king only into an empty one, done
    //    above), then home even if it might hold something.
    if let Some(&w) = s.waste.last() {
        if let Some(to) = (0..7).find(|&to| !s.columns[to].is_empty() && stacks(w, s.top(to))) {
            return Some(Move::WasteToColumn(to as u8));
        }
        if s.to_foundation(w) {
            return Some(Move::WasteToFoundation);
        }
        // 8. A same-colour twin goes home when the waste card can then take
        //    its place.
        if let Some(m) = twin_move(s, w) {
            return Some(m);
        }
    }

    // 9. Deal; turn the waste over while a pass still changes something.
    // 10. With the talon spent: any card home, else give up.
    deal_or_last_resort(s, rules, stalled)
}
