//! The talon (stock and waste) as one sequence in dealing order with a
//! split: the first `offset` remaining cards are the waste (its top is
//! the last of them), the rest the stock. Dealing moves the split forward
//! by the draw (at most to the end); turning the waste over puts it back
//! to 0 and begins a pass. Neither changes the sequence, so a talon is the
//! set of its 24 deal-order places still holding a card, the split, and
//! the passes begun.
//!
//! A talon move takes the card on the waste's top after some deals (and
//! turns of the waste) as one step. The places reachable are:
//! - without a new pass: the waste's top, and the top after each deal up
//!   to the end of the stock (split `offset + k·draw`, at most the end);
//! - with one new pass, when the rules allow it: the top after each deal
//!   from split 0 (`k·draw`, at most the end). A second new pass reaches
//!   nothing the first did not, so no step takes two.
//!
//! A place reachable both ways is taken without the new pass: the result
//! differs only in passes left, and more passes left never hurt.
//!
//! With unlimited redeals the passes are not counted, and every split
//! that is a multiple of the draw, or the end, is one state: dealing and
//! turning the waste lead from each of them to every other and touch
//! nothing else. Such a split is stored as 0. Drawing one, every split is
//! of that kind.

use super::bits::mask;
use crate::games::klondike::cards::Card;
use crate::games::klondike::state::{Redeal, Rules};

/// The talon of a position (see the module).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Talon {
    /// Deal-order places still holding a card (bit i: place i).
    pub(super) left: u32,
    /// Remaining cards in the waste.
    pub(super) offset: u8,
    /// Passes begun (1 at the deal); not counted with unlimited redeals.
    pub(super) passes: u32,
}

/// A card the talon can bring to the waste's top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reach {
    /// Its deal-order place.
    pub(super) place: u8,
    /// Whether reaching it begins a new pass.
    pub(super) new_pass: bool,
    /// Whether it is reached only by turning the waste over (a new pass,
    /// counted or not).
    pub(super) after_turn: bool,
}

/// The cards a talon can bring to the waste's top (`Talon::reachable`),
/// as card masks: a talon step's list is made from these and the position's
/// masks, and a search keeps them while the talon does not change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TalonReach {
    /// Every card reachable.
    pub(super) cards: u64,
    /// Those reached only by turning the waste over.
    pub(super) after_turn: u64,
}

impl Reach {
    /// The card at deal-order `place`, reached by turning the waste over
    /// or not: turning it begins a new pass, counted unless redeals are
    /// unlimited.
    pub(super) fn new(place: u8, after_turn: bool, rules: &Rules) -> Reach {
        Reach {
            place,
            new_pass: after_turn && rules.redeal != Redeal::Unlimited,
            after_turn,
        }
    }
}

impl Talon {
    /// Cards left.
    pub(super) fn len(&self) -> u8 {
        self.left.count_ones() as u8
    }

    /// The deal-order places of the remaining cards, in order.
    fn places(&self) -> ([u8; 24], u8) {
        let mut out = [0u8; 24];
        let mut m = self.left;
        let mut n = 0;
        while m != 0 {
            out[n] = m.trailing_zeros() as u8;
            m &= m - 1;
            n += 1;
        }
        (out, n as u8)
    }

    /// Calls `f` once for every card the talon can bring to the waste's
    /// top (see the module), each place once.
    pub(super) fn reachable(&self, rules: &Rules, mut f: impl FnMut(Reach)) {
        let (places, len) = self.places();
        if len == 0 {
            return;
        }
        let step = rules.draw;
        let mut seen: u32 = 0;
        // `after_turn`: reached by turning the waste over.
        let mut emit = |index: u8, after_turn: bool| {
            if seen & (1 << index) == 0 {
                seen |= 1 << index;
                f(Reach::new(places[index as usize], after_turn, rules));
            }
        };
        if self.offset > 0 {
            emit(self.offset - 1, false);
        }
        let mut split = self.offset;
        while split < len {
            split = (split + step).min(len);
            emit(split - 1, false);
        }
        if rules.redeal == Redeal::Unlimited || rules.may_redeal(self.passes) {
            let mut split = 0;
            while split < len {
                split = (split + step).min(len);
                emit(split - 1, true);
            }
        }
    }

    /// `reachable` as masks of the cards at the places reached, `cards`
    /// being the talon's cards in dealing order.
    pub(super) fn reach(&self, cards: &[Card], rules: &Rules) -> TalonReach {
        let mut out = TalonReach {
            cards: 0,
            after_turn: 0,
        };
        self.reachable(rules, |reach| {
            let m = mask(cards[reach.place as usize]);
            out.cards |= m;
            if reach.after_turn {
                out.after_turn |= m;
            }
        });
        out
    }

    /// The deal-order place of the talon's last card (the stock's bottom,
    /// or the waste's top once the stock is empty).
    pub(super) fn last_place(&self) -> Option<u8> {
        (self.left != 0).then(|| 31 - self.left.leading_zeros() as u8)
    }

    /// Whether the split is where taking the last card leaves it: at the
    /// end (the stock empty) or, with unlimited redeals, anywhere in the
    /// dealing cycle's class of the end (stored as 0, see the module).
    pub(super) fn split_at_end(&self, rules: &Rules) -> bool {
        self.offset == self.len() || (rules.redeal == Redeal::Unlimited && self.offset == 0)
    }

    /// The talon after the card at deal-order `place` is taken from the
    /// waste's top, reached as `reach` says.
    pub(super) fn take(&self, reach: Reach, rules: &Rules) -> Talon {
        let below = (self.left & ((1u32 << reach.place) - 1)).count_ones() as u8;
        let mut t = Talon {
            left: self.left & !(1 << reach.place),
            offset: below,
            passes: self.passes + reach.new_pass as u32,
        };
        t.normalise(rules);
        t
    }

    /// Stores an unlimited-redeal split of the dealing cycle as 0 (see the
    /// module).
    pub(super) fn normalise(&mut self, rules: &Rules) {
        if rules.redeal == Redeal::Unlimited {
            self.passes = 0;
            if self.offset.is_multiple_of(rules.draw) || self.offset == self.len() {
                self.offset = 0;
            }
        }
    }
}
