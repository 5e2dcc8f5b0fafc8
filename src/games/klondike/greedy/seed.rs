//! The seed's `next_move` priorities, ported literally: the six rules of
//! the original specification (issue 7), in their order, each scanning the
//! columns left to right as written, with no tuning knob. Each rule is the
//! classic player's code for it (`super`), quoted beside the call.
//!
//! The classic variants grew out of the same list and added two knobs
//! (which column is scanned first, and whether the foundation rule comes
//! before the run and waste rules). This port keeps neither, so the report
//! measures what the list itself is worth. Where the text leaves a choice
//! open the port takes the narrowest reading and says so below.
//!
//! The player sees what a person at the table sees: face-up cards, how many
//! cards lie face down, the waste's top card, the foundations and whether
//! the stock is empty. It never reads a face-down card or the stock.

use super::super::state::{Move, Rules, State};
use super::{deal_or_last_resort, run_move, safe_foundation_move, waste_move, LEFT_TO_RIGHT};

/// The move the seed's priority list makes, or None when it gives up.
/// `stalled` says the last pass through the stock made no other move, so
/// turning the waste over again would only repeat it (the one addition to
/// the list: without it, unlimited redeals never end a lost game).
pub fn next_move(s: &State, rules: &Rules, stalled: bool) -> Option<Move> {
    // Rule 1: "note whether a column is empty and whether a king waits (at
    // the top of a column with cards beneath it, or on the waste)". The
    // cards beneath a face-up run are its face-down cards, so a king waits
    // when it heads a run over face-down cards, or is the waste's top card
    // (`king_waits`, consulted by rule 2).
    //
    // Rule 2: "move a whole face-up run from one column onto another (king
    // runs onto an empty column), preferring runs that uncover face-down
    // cards; move a run that would empty its column only when a king waits
    // for the space". First every run that uncovers, left to right; then,
    // when a king waits, the runs that would empty their column. A king
    // alone in its column moved to another empty column changes nothing;
    // the list cannot have meant it.
    run_move(s, &LEFT_TO_RIGHT)
        // Rule 3: "waste to column; waste to foundation; otherwise put on
        // the foundation a same-colour twin from a column when that enables
        // the waste card". The twin enables the waste card when the card
        // under the twin is face up and the waste card stacks on it.
        .or_else(|| waste_move(s))
        // Rule 4: "column to foundation, but only when the card is not
        // still needed to hold a lower card of the other colour that has
        // not reached its foundation (if the red twos are home, the black
        // threes may go)". A card of rank r can hold only the other
        // colour's r − 1s, so it is no longer needed once both of them are
        // home (`safe_home`).
        .or_else(|| safe_foundation_move(s, &LEFT_TO_RIGHT))
        // Rule 5: "deal from the stock (one or three cards)"; an empty
        // stock is turned over when the rules allow another pass. Rule 6:
        // "with the stock exhausted, any column-to-foundation move; else
        // give up".
        .or_else(|| deal_or_last_resort(s, rules, stalled))
}
