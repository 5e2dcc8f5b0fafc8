//! A winning line of search steps, turned into the moves of the rules
//! engine (`state.rs`): the deals and turns that bring a talon card up,
//! and, before a tableau card goes home from under a card, the move of
//! what rests on it onto its twin (see the module `solver`).

use super::position::{Layout, Step};
use crate::games::klondike::cards::{rank, suit, twin, Card};
use crate::games::klondike::pile::Pile;
use crate::games::klondike::state::{stacks, Move, Rules, State};

/// The position a deal's layout gives, in the rules engine: column c's
/// cards face down but the last.
pub(super) fn dealt(layout: &Layout) -> State {
    let mut columns: [Pile; 7] = Default::default();
    for (col, cards) in columns.iter_mut().zip(&layout.columns) {
        col.extend_from_slice(cards);
    }
    State {
        columns,
        hidden: std::array::from_fn(|c| layout.columns[c].len().saturating_sub(1) as u8),
        stock: layout.talon.iter().rev().copied().collect(),
        waste: Pile::new(),
        foundations: [0; 4],
        passes: 1,
    }
}

/// The moves of `steps` from `start`, each checked legal where it is made.
pub(super) fn moves(start: &State, steps: &[Step], rules: &Rules) -> Result<Vec<Move>, String> {
    let mut s = *start;
    let mut out = Vec::new();
    let mut legal = Vec::new();
    let mut play = |s: &mut State, m: Move, out: &mut Vec<Move>| -> Result<(), String> {
        s.legal_moves(rules, &mut legal);
        if !legal.contains(&m) {
            return Err(format!("{m:?} is not legal here"));
        }
        s.apply(m, rules);
        out.push(m);
        Ok(())
    };
    for (i, &step) in steps.iter().enumerate() {
        let fail = |e: String| format!("step {i} ({step:?}): {e}");
        match step {
            Step::Reveal(c) => {
                let (col, at) =
                    find(&s, c).ok_or_else(|| fail("card not on the tableau".into()))?;
                let to = holder(&s, c, col).ok_or_else(|| fail("no holder".into()))?;
                let count = (s.columns[col].len() - at) as u8;
                let m = Move::ColumnToColumn {
                    from: col as u8,
                    to: to as u8,
                    count,
                };
                play(&mut s, m, &mut out).map_err(fail)?;
            }
            Step::TableauHome(c) => {
                let (col, at) =
                    find(&s, c).ok_or_else(|| fail("card not on the tableau".into()))?;
                let above = s.columns[col].len() - at - 1;
                if above > 0 {
                    let to = (0..7)
                        .find(|&t| t != col && s.top(t) == Some(twin(c)))
                        .ok_or_else(|| fail("covered, and its twin is not a top".into()))?;
                    let m = Move::ColumnToColumn {
                        from: col as u8,
                        to: to as u8,
                        count: above as u8,
                    };
                    play(&mut s, m, &mut out).map_err(fail)?;
                }
                play(&mut s, Move::ColumnToFoundation(col as u8), &mut out).map_err(fail)?;
            }
            Step::TalonHome(c, _) | Step::TalonToTableau(c, _) => {
                let mut turns = 0;
                while s.waste.last() != Some(&c) {
                    turns += 1;
                    if turns > 60 {
                        return Err(fail("the talon never brings it up".into()));
                    }
                    let m = if s.stock.is_empty() {
                        Move::Redeal
                    } else {
                        Move::Deal
                    };
                    play(&mut s, m, &mut out).map_err(fail)?;
                }
                let m = if matches!(step, Step::TalonHome(..)) {
                    Move::WasteToFoundation
                } else {
                    let to = holder(&s, c, 7).ok_or_else(|| fail("no holder".into()))?;
                    Move::WasteToColumn(to as u8)
                };
                play(&mut s, m, &mut out).map_err(fail)?;
            }
            Step::WorryBack(c) => {
                let to = holder(&s, c, 7).ok_or_else(|| fail("no holder".into()))?;
                let m = Move::FoundationToColumn {
                    suit: suit(c),
                    to: to as u8,
                };
                play(&mut s, m, &mut out).map_err(fail)?;
            }
        }
    }
    debug_assert!(rank(0) == 1);
    Ok(out)
}

/// Where a face-up card is: its column and height.
fn find(s: &State, c: Card) -> Option<(usize, usize)> {
    (0..7).find_map(|col| {
        let h = s.hidden[col] as usize;
        s.columns[col][h..]
            .iter()
            .position(|&x| x == c)
            .map(|i| (col, h + i))
    })
}

/// A column other than `not` whose top card (or emptiness, for a king)
/// takes `c`: the leftmost.
fn holder(s: &State, c: Card, not: usize) -> Option<usize> {
    (0..7).find(|&t| t != not && stacks(c, s.top(t)))
}
