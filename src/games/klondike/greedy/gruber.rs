//! Gruber's `next_move()` (PC Techniques 1996, Figure 3 of
//! `../shared/seeds/004_aa1d0da9705a8a9b.txt`), ported as written: the same
//! tests in the same order, every scan over the columns from 7 down to 1,
//! the same `vacant` / `king_waiting` flags, the same conditions on each
//! move, the deal from the deck, the "one last try" and the give-up.
//!
//! The article's board: `column[row][col]` with rows from 1, `top[col]` the
//! row of the column's first face-up card (0 for an empty column, 1 when no
//! card lies face down above it), `bottom[col]` the row of its last card
//! (0 when empty). So, with our columns 0-6 for its 1-7:
//! `top == 0` / `bottom == 0` is an empty column; `top == 1` a column with
//! no face-down card; `column[top]` the base of the face-up run;
//! `column[bottom]` the exposed card; `bottom == 1` a column of one card;
//! `bottom > 1` more than one card; `top == bottom` one face-up card.
//!
//! Where the article depends on what it does not show, the plain reading:
//! - `get_card_value`: rank 1-13, suit, colour; `pile[suit]` the rank on
//!   that suit's foundation (0 when empty).
//! - `move_column(col1, col2)`: the whole face-up run of col1 onto col2
//!   (the face-down card it uncovers is turned, as every move here does).
//! - `stack_to_column`, `stack_to_pile`, `column_to_pile`: the stack is the
//!   waste, its top card moves; a column's exposed card goes home.
//! - `deck_to_stack()`: one card, or three, as the rules draw. It is only
//!   called while the deck holds cards, and nothing in the function turns
//!   the stack over, so the player makes one pass through the deck
//!   whatever redeals the rules allow: when the deck is spent it tries its
//!   last column-to-pile moves and gives up. That is the literal port
//!   (`Gruber 1996, literal`). The other reading, that `deck_to_stack`
//!   turns the stack over when the deck is empty (as a click on an empty
//!   deck does in many solitaire programs), is its own player (`Gruber
//!   1996, stack turned over`): the same function, with the stack turned
//!   over while the rules allow and the last pass made some other move.
//! - The prose says a card must not go home while it may still be needed
//!   to hold a lower card ("if the red twos have already been put on the
//!   piles ... we can remove the black fours"); the code has no such test.
//!   Its only column-to-pile moves are the ones below (a lone face-up card
//!   over face-down ones, a column's only card when a king waits, a twin
//!   of the stack's or of such a card, and the last try), and the port
//!   keeps the code.
//!
//! It reads what a person at the table sees: face-up cards, which columns
//! hold face-down cards, the stack's top card, the piles, and whether the
//! deck is empty.

use super::super::cards::{is_red, rank, suit, Card};
use super::super::state::{Move, State};

/// The article's columns 7 down to 1, as our 0-6.
const SEVEN_TO_ONE: [usize; 7] = [6, 5, 4, 3, 2, 1, 0];

/// `top[col] == 1`: a non-empty column with no face-down card.
fn top_is_one(s: &State, col: usize) -> bool {
    !s.columns[col].is_empty() && s.hidden[col] == 0
}

/// `column[top[col]][col]`: the first face-up card.
fn top_card(s: &State, col: usize) -> Option<Card> {
    s.run(col).first().copied()
}

/// `value1 == pile[suit1] + 1`.
fn fits_pile(s: &State, c: Card) -> bool {
    rank(c) == s.foundations[suit(c) as usize] + 1
}

/// `color1 != color2 && value2 == value1 + 1`: c goes on `onto`.
fn fits_on(c: Card, onto: Card) -> bool {
    is_red(c) != is_red(onto) && rank(onto) == rank(c) + 1
}

/// `color1 == color2 && value1 == value2`: the same-colour twin.
fn twins(a: Card, b: Card) -> bool {
    is_red(a) == is_red(b) && rank(a) == rank(b)
}

fn move_column(s: &State, col1: usize, col2: usize) -> Move {
    Move::ColumnToColumn {
        from: col1 as u8,
        to: col2 as u8,
        count: s.run(col1).len() as u8,
    }
}

/// Whether `deck_to_stack` turns the stack over when the deck is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deck {
    /// As printed: one pass through the deck.
    OnePass,
    /// The stack turned over while `rules` allow and `stalled` (the last
    /// pass made no other move) does not hold.
    TurnedOver {
        /// Whether another pass is allowed.
        may_redeal: bool,
        /// The last pass made no other move.
        stalled: bool,
    },
}

/// The article's `next_move()`: its move, or None where it sets `no_moves`.
// The nesting is the article's, kept so the port reads against it.
#[allow(clippy::collapsible_if, clippy::collapsible_else_if)]
pub fn next_move(s: &State, deck: Deck) -> Option<Move> {
    // check if a king is waiting for a vacant column
    let mut vacant = false;
    let mut king_waiting = false;
    for i in SEVEN_TO_ONE {
        if s.columns[i].is_empty() {
            vacant = true;
        } else if !top_is_one(s, i) {
            if top_card(s, i).is_some_and(|c| rank(c) == 13) {
                king_waiting = true;
            }
        }
    }
    if s.waste.last().is_some_and(|&c| rank(c) == 13) {
        king_waiting = true;
    }

    // try to move column to column without leaving a vacant column
    for col1 in SEVEN_TO_ONE {
        if !s.columns[col1].is_empty() && !top_is_one(s, col1) {
            let card1 = top_card(s, col1).expect("a face-up card");
            for col2 in SEVEN_TO_ONE {
                if col1 == col2 {
                    continue;
                }
                match s.top(col2) {
                    // move a king to an empty column
                    None => {
                        if rank(card1) == 13 {
                            return Some(move_column(s, col1, col2));
                        }
                    }
                    // move col1 to bottom of col2
                    Some(card2) => {
                        if fits_on(card1, card2) {
                            return Some(move_column(s, col1, col2));
                        }
                    }
                }
            }
        }
    }

    // leave a vacant column only if there is a king waiting for it
    for col1 in SEVEN_TO_ONE {
        if top_is_one(s, col1) {
            let card1 = top_card(s, col1).expect("a face-up card");
            if rank(card1) != 13 {
                for col2 in SEVEN_TO_ONE {
                    if col1 == col2 {
                        continue;
                    }
                    if let Some(card2) = s.top(col2) {
                        // only move the top of column if a king is waiting
                        if fits_on(card1, card2) && !vacant && king_waiting {
                            return Some(move_column(s, col1, col2));
                        }
                    }
                }
            }
        }
    }

    // couldn't move column to column, try stack to column
    if let Some(&card1) = s.waste.last() {
        for col2 in SEVEN_TO_ONE {
            match s.top(col2) {
                None => {
                    if rank(card1) == 13 {
                        return Some(Move::WasteToColumn(col2 as u8));
                    }
                }
                Some(card2) => {
                    if fits_on(card1, card2) {
                        return Some(Move::WasteToColumn(col2 as u8));
                    }
                }
            }
        }
        // couldn't move stack to column, try stack to the pile
        if fits_pile(s, card1) {
            return Some(Move::WasteToFoundation);
        }
        // couldn't put stack on column or pile, put matching card on pile?
        for col2 in SEVEN_TO_ONE {
            if s.columns[col2].len() > 1 {
                let card2 = s.top(col2).expect("cards");
                if twins(card1, card2) && fits_pile(s, card2) {
                    return Some(Move::ColumnToFoundation(col2 as u8));
                }
            }
        }
    }

    // if a card is the only card on a column, try to move it to a pile
    for col1 in SEVEN_TO_ONE {
        let len = s.columns[col1].len();
        if len == 0 {
            continue;
        }
        if len == 1 {
            if king_waiting {
                let card1 = s.top(col1).expect("one card");
                if fits_pile(s, card1) {
                    return Some(Move::ColumnToFoundation(col1 as u8));
                }
            }
        } else if s.run(col1).len() == 1 {
            let card1 = s.top(col1).expect("one face-up card");
            if fits_pile(s, card1) {
                return Some(Move::ColumnToFoundation(col1 as u8));
            }
            // can't put it on pile, put matching card on pile?
            for col2 in SEVEN_TO_ONE {
                if col1 != col2 && s.columns[col2].len() > 1 {
                    let card2 = s.top(col2).expect("cards");
                    if twins(card1, card2) && fits_pile(s, card2) {
                        return Some(Move::ColumnToFoundation(col2 as u8));
                    }
                }
            }
        }
    }

    // couldn't move any cards, take one off deck
    if !s.stock.is_empty() {
        return Some(Move::Deal);
    }
    if let Deck::TurnedOver {
        may_redeal: true,
        stalled: false,
    } = deck
    {
        if !s.waste.is_empty() {
            return Some(Move::Redeal);
        }
    }

    // no more cards on deck, try to move a card to the pile
    for col1 in SEVEN_TO_ONE {
        if let Some(card1) = s.top(col1) {
            if fits_pile(s, card1) {
                return Some(Move::ColumnToFoundation(col1 as u8));
            }
        }
    }

    // give up -- there's nothing we can do
    None
}

#[cfg(test)]
mod tests {
    use super::super::super::cards::card;
    use super::super::super::pile::Pile;
    use super::*;

    const C: u8 = 0; // clubs
    const D: u8 = 1; // diamonds
    const H: u8 = 2; // hearts
    const S: u8 = 3; // spades

    /// A position: per column (article's 1-7 = our 0-6) its face-down
    /// cards and face-up run; the stack (waste, top last), the deck
    /// (stock) and the ranks home per suit. Unused cards need not appear.
    fn position(
        cols: [(&[Card], &[Card]); 7],
        stack: &[Card],
        deck: &[Card],
        home: [u8; 4],
    ) -> State {
        let mut s = State::deal(0);
        for (i, (down, up)) in cols.iter().enumerate() {
            s.columns[i] = down.iter().chain(up.iter()).copied().collect::<Pile>();
            s.hidden[i] = down.len() as u8;
        }
        s.waste = stack.iter().copied().collect();
        s.stock = deck.iter().copied().collect();
        s.foundations = home;
        s
    }

    const NONE: (&[Card], &[Card]) = (&[], &[]);

    #[test]
    fn the_article_s_order_of_tests_on_hand_checked_positions() {
        let x = card(C, 2); // a face-down filler
        // Column to column: a run over face-down cards moves first, and
        // the scan runs from column 7 down: black 6 in columns 2 and 6 fit
        // on the red 7 in column 4; column 6 is tried first.
        let s = position(
            [
                NONE,
                (&[x], &[card(S, 6)]),
                NONE,
                (&[], &[card(H, 7)]),
                NONE,
                (&[x], &[card(C, 6)]),
                NONE,
            ],
            &[card(D, 5)],
            &[card(D, 9)],
            [0; 4],
        );
        assert_eq!(
            next_move(&s, Deck::OnePass),
            Some(Move::ColumnToColumn {
                from: 5,
                to: 3,
                count: 1
            })
        );
        // Without face-down cards under them, the same runs move only when
        // no column is vacant and a king waits: here column 1 is vacant, so
        // the stack's 5 of diamonds goes on a black 6 (column 7 scanned
        // first: the 6 of clubs in column 6).
        let s = position(
            [
                NONE,
                (&[], &[card(S, 6)]),
                (&[x], &[card(S, 13)]),
                (&[], &[card(H, 7)]),
                (&[x], &[card(H, 10)]),
                (&[], &[card(C, 6)]),
                (&[x], &[card(H, 4)]),
            ],
            &[card(D, 5)],
            &[card(D, 9)],
            [0; 4],
        );
        // The king of spades over a face-down card goes to the vacant
        // column first: column-to-column comes before everything. (With a
        // red queen over face-down cards in column 7, that queen would go
        // onto the king first: column 7 is scanned first.)
        assert_eq!(
            next_move(&s, Deck::OnePass),
            Some(Move::ColumnToColumn {
                from: 2,
                to: 0,
                count: 1
            })
        );
        // No vacant column, a king waiting on the stack: a whole column
        // (the 6 of clubs alone in column 6) moves onto the red 7.
        let s = position(
            [
                (&[x], &[card(H, 9)]),
                (&[], &[card(S, 6)]),
                (&[x], &[card(H, 10)]),
                (&[], &[card(H, 7)]),
                (&[x], &[card(H, 11)]),
                (&[], &[card(C, 6)]),
                (&[x], &[card(H, 12)]),
            ],
            &[card(D, 13)],
            &[card(D, 9)],
            [0; 4],
        );
        assert_eq!(
            next_move(&s, Deck::OnePass),
            Some(Move::ColumnToColumn {
                from: 5,
                to: 3,
                count: 1
            })
        );
        // No king waiting: no whole column moves. When the stack's 5 of
        // diamonds fits nowhere and is not next home, its twin, the 5 of
        // hearts on column 5 (two cards), goes home when hearts stand at 4:
        // the code does not ask whether that frees anything.
        let s = position(
            [
                (&[x], &[card(H, 9)]),
                (&[], &[card(S, 6)]),
                (&[x], &[card(H, 10)]),
                (&[], &[card(H, 7)]),
                (&[x], &[card(H, 11)]),
                (&[], &[card(C, 6)]),
                (&[x], &[card(H, 12)]),
            ],
            &[card(D, 5)],
            &[card(D, 9)],
            [0, 0, 4, 0],
        );
        // First the stack's 5 of diamonds goes on the black 6 (column 6).
        assert_eq!(next_move(&s, Deck::OnePass), Some(Move::WasteToColumn(5)));
        let s = position(
            [
                (&[x], &[card(H, 9)]),
                (&[], &[card(D, 6)]),
                (&[x], &[card(H, 10)]),
                (&[], &[card(H, 7)]),
                (&[x], &[card(H, 5)]),
                (&[], &[card(D, 8)]),
                (&[x], &[card(H, 12)]),
            ],
            &[card(D, 5)],
            &[card(D, 9)],
            [0, 0, 4, 0],
        );
        assert_eq!(next_move(&s, Deck::OnePass), Some(Move::ColumnToFoundation(4)));
        // A lone face-up card over face-down ones goes home before a deal;
        // a column's only card goes home only when a king waits.
        let s = position(
            [
                (&[], &[card(C, 1)]),
                (&[x], &[card(S, 1)]),
                NONE,
                NONE,
                NONE,
                NONE,
                NONE,
            ],
            &[],
            &[card(D, 9)],
            [0; 4],
        );
        assert_eq!(next_move(&s, Deck::OnePass), Some(Move::ColumnToFoundation(1)));
        let s = position(
            [(&[], &[card(C, 1)]), NONE, NONE, NONE, NONE, NONE, NONE],
            &[],
            &[card(D, 9)],
            [0; 4],
        );
        assert_eq!(next_move(&s, Deck::OnePass), Some(Move::Deal), "no king waits");
        // The deck spent: one last try sends any exposed card home, from
        // column 7 down; nothing left, it gives up and never turns the
        // stack over.
        let s = position(
            [
                (&[], &[card(C, 1)]),
                NONE,
                NONE,
                NONE,
                NONE,
                NONE,
                (&[], &[card(H, 13), card(S, 12), card(D, 1)]),
            ],
            &[card(D, 9)],
            &[],
            [0; 4],
        );
        assert_eq!(next_move(&s, Deck::OnePass), Some(Move::ColumnToFoundation(6)));
        let s = position(
            [NONE, NONE, NONE, NONE, NONE, NONE, (&[], &[card(H, 13)])],
            &[card(D, 9)],
            &[],
            [0; 4],
        );
        assert_eq!(next_move(&s, Deck::OnePass), None);
        // The other reading turns the stack over first, while allowed.
        let over = |may_redeal, stalled| Deck::TurnedOver {
            may_redeal,
            stalled,
        };
        assert_eq!(next_move(&s, over(true, false)), Some(Move::Redeal));
        assert_eq!(next_move(&s, over(false, false)), None);
        assert_eq!(next_move(&s, over(true, true)), None);
    }
}
