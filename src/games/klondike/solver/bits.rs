//! Cards as bits of a `u64`, laid out so that the tableau's relations are
//! shifts.
//!
//! A card's bit is `4·(rank − 1) + 2·k + t`, where `k` is its colour
//! (red 1, black 0) exclusive-or the parity of its rank, and `t` tells the
//! two suits of one colour apart (clubs and diamonds 0, spades and hearts
//! 1). Two cards of one rank and one colour (twins) share a *pair*
//! (`bit / 2`). The cards a card may rest on (one rank higher, the other
//! colour) are the pair two above its own: flipping the colour and the
//! rank's parity together leaves `k` unchanged. So "the holders of pair
//! p" is pair `p + 2`, and a mask shifted left by 4 moves every card onto
//! its holders' places.

use crate::games::klondike::cards::{card, Card};
#[cfg(test)]
use crate::games::klondike::cards::{is_red, rank, suit};

/// Every card's bit.
pub(super) const ALL: u64 = (1 << 52) - 1;
/// The lower bit of every pair.
pub(super) const PAIR_LOW: u64 = 0x5_5555_5555_5555 & ALL;
/// The four kings.
pub(super) const KINGS: u64 = 0xF << 48;

/// The bit of a card (see the module).
pub(super) const fn bit_of(c: Card) -> u8 {
    let r = c % 13 + 1;
    let s = c / 13;
    let red = (s == 1 || s == 2) as u8;
    let k = red ^ (r & 1);
    let t = (s == 2 || s == 3) as u8;
    4 * (r - 1) + 2 * k + t
}

/// The card of each bit.
pub(super) const CARD_OF: [Card; 52] = {
    let mut out = [0u8; 52];
    let mut c = 0u8;
    while c < 52 {
        out[bit_of(c) as usize] = c;
        c += 1;
    }
    out
};

/// The card of a bit.
pub(super) fn card_of(bit: u32) -> Card {
    CARD_OF[bit as usize]
}

/// The mask of one card.
pub(super) fn mask(c: Card) -> u64 {
    1 << bit_of(c)
}

/// How many cards of each pair `m` holds, as a two-bit count at the
/// pair's lower bit.
pub(super) const fn pair_counts(m: u64) -> u64 {
    (m & PAIR_LOW) + ((m >> 1) & PAIR_LOW)
}

/// Both bits of every pair whose two-bit field in `counts` is not zero.
pub(super) const fn nonzero_pairs(counts: u64) -> u64 {
    ((counts | (counts >> 1)) & PAIR_LOW) * 3
}

/// The cards that may rest on some card of `holders`: a card one rank
/// lower of the other colour.
pub(super) const fn children_of(holders: u64) -> u64 {
    holders >> 4
}

/// Iterates the cards of a mask, lowest bit first.
pub(super) fn cards(mut m: u64) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let b = m.trailing_zeros();
        m &= m - 1;
        Some(card_of(b))
    })
}

/// A card's next card home in its suit, when `home` are home.
pub(super) fn next_home(home: &[u8; 4]) -> u64 {
    let mut m = 0;
    for s in 0..4u8 {
        if home[s as usize] < 13 {
            m |= mask(card(s, home[s as usize] + 1));
        }
    }
    m
}

/// The top card of each foundation.
pub(super) fn foundation_tops(home: &[u8; 4]) -> u64 {
    let mut m = 0;
    for s in 0..4u8 {
        if home[s as usize] > 0 {
            m |= mask(card(s, home[s as usize]));
        }
    }
    m
}

/// Whether `c` may rest on `d` by the rules (a check of the layout).
#[cfg(test)]
pub(super) fn rests_on(c: Card, d: Card) -> bool {
    rank(d) == rank(c) + 1 && is_red(c) != is_red(d) && suit(c) < 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holders_are_the_pair_two_above_and_twins_share_a_pair() {
        for c in 0..52u8 {
            let b = bit_of(c) as u32;
            assert_eq!(card_of(b), c);
            for d in 0..52u8 {
                let bd = bit_of(d) as u32;
                assert_eq!(rests_on(c, d), bd / 2 == b / 2 + 2, "{c} on {d}");
                let twins = rank(c) == rank(d) && is_red(c) == is_red(d) && c != d;
                assert_eq!(twins, bd / 2 == b / 2 && bd != b);
            }
        }
        assert_eq!(cards(KINGS).filter(|&c| rank(c) == 13).count(), 4);
        assert_eq!(pair_counts(mask(0) | mask(39)), 2 << (bit_of(0) & !1));
    }
}
