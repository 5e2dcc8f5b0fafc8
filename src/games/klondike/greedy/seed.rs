//! The seed's `next_move` priorities, ported literally as one function: the
//! six rules of the original specification (issue 7), in their order, each
//! scanning the columns left to right as written, with no tuning knob.
//!
//! The classic variants in `super` grew out of the same list and added two
//! knobs (which column is scanned first, and whether the foundation rule
//! comes before the run and waste rules). This port keeps neither, so the
//! report measures what the list itself is worth. Where the text leaves a
//! choice open the port takes the narrowest reading and says so below.
//!
//! The player sees what a person at the table sees: face-up cards, how many
//! cards lie face down, the waste's top card, the foundations and whether
//! the stock is empty. It never reads a face-down card or the stock.

use super::super::cards::{card, is_red, rank, suit};
use super::super::state::{stacks, Move, Rules, State};

/// The move the seed's priority list makes, or None when it gives up.
/// `stalled` says the last pass through the stock made no other move, so
/// turning the waste over again would only repeat it (the one addition to
/// the list: without it, unlimited redeals never end a lost game).
pub fn next_move(s: &State, rules: &Rules, stalled: bool) -> Option<Move> {
    // Rule 1: "note whether a column is empty and whether a king waits (at
    // the top of a column with cards beneath it, or on the waste)". The
    // cards beneath a face-up run are its face-down cards, so a king waits
    // when it heads a run over face-down cards, or is the waste's top card.
    let king_on_waste = s.waste.last().is_some_and(|&c| rank(c) == 13);
    let king_buried =
        (0..7).any(|c| s.hidden[c] > 0 && s.run(c).first().is_some_and(|&k| rank(k) == 13));
    let king_waits = king_on_waste || king_buried;

    // Rule 2: "move a whole face-up run from one column onto another (king
    // runs onto an empty column), preferring runs that uncover face-down
    // cards; move a run that would empty its column only when a king waits
    // for the space". First every run that uncovers, left to right; then,
    // when a king waits, the runs that would empty their column.
    for uncovering in [true, false] {
        if !uncovering && !king_waits {
            break;
        }
        for from in 0..7 {
            let run = s.run(from);
            let Some(&base) = run.first() else { continue };
            if (s.hidden[from] > 0) != uncovering {
                continue;
            }
            for to in 0..7 {
                if to == from || !stacks(base, s.top(to)) {
                    continue;
                }
                // A king alone in its column moved to another empty column
                // changes nothing; the list cannot have meant it.
                if s.columns[to].is_empty() && !uncovering {
                    continue;
                }
                return Some(Move::ColumnToColumn {
                    from: from as u8,
                    to: to as u8,
                    count: run.len() as u8,
                });
            }
        }
    }

    // Rule 3: "waste to column; waste to foundation; otherwise put on the
    // foundation a same-colour twin from a column when that enables the
    // waste card". The twin enables the waste card when the card under the
    // twin is face up and the waste card stacks on it.
    if let Some(&w) = s.waste.last() {
        for to in 0..7 {
            if stacks(w, s.top(to)) {
                return Some(Move::WasteToColumn(to as u8));
            }
        }
        if s.to_foundation(w) {
            return Some(Move::WasteToFoundation);
        }
        let twin_suit = [3, 2, 1, 0][suit(w) as usize];
        let twin = card(twin_suit, rank(w));
        for col in 0..7 {
            let c = &s.columns[col];
            let enables = c.len() >= 2
                && s.hidden[col] as usize <= c.len() - 2
                && stacks(w, Some(c[c.len() - 2]));
            if c.last() == Some(&twin) && s.to_foundation(twin) && enables {
                return Some(Move::ColumnToFoundation(col as u8));
            }
        }
    }

    // Rule 4: "column to foundation, but only when the card is not still
    // needed to hold a lower card of the other colour that has not reached
    // its foundation (if the red twos are home, the black threes may go)".
    // A card of rank r can hold only the other colour's r − 1s, so it is no
    // longer needed once both of them are home.
    for col in 0..7 {
        let Some(c) = s.top(col) else { continue };
        let needed_by = rank(c) - 1;
        let others_home = (0..4u8)
            .filter(|&o| is_red(card(o, 1)) != is_red(c))
            .all(|o| s.foundations[o as usize] >= needed_by);
        if s.to_foundation(c) && others_home {
            return Some(Move::ColumnToFoundation(col as u8));
        }
    }

    // Rule 5: "deal from the stock (one or three cards)"; an empty stock is
    // turned over when the rules allow another pass.
    if !s.stock.is_empty() {
        return Some(Move::Deal);
    }
    if !s.waste.is_empty() && rules.may_redeal(s.passes) && !stalled {
        return Some(Move::Redeal);
    }

    // Rule 6: "with the stock exhausted, any column-to-foundation move;
    // else give up".
    (0..7).find_map(|col| {
        let c = s.top(col)?;
        s.to_foundation(c)
            .then_some(Move::ColumnToFoundation(col as u8))
    })
}
