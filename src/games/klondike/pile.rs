//! A pile of cards held inline, bottom first. The solver copies a position
//! at every node it searches; with fixed-size piles a position is `Copy`,
//! so that copy is one memcpy with no allocation.

use super::cards::Card;
use std::ops::Deref;

/// Room for the 24-card stock of the deal; a column holds at most 6
/// face-down cards under a run of 13.
const ROOM: usize = 24;

#[derive(Clone, Copy)]
/// A pile of at most 24 cards, inline (so a position is `Copy`).
pub struct Pile {
    len: u8,
    cards: [Card; ROOM],
}

impl Pile {
    /// An empty pile.
    pub const fn new() -> Pile {
        Pile {
            len: 0,
            cards: [0; ROOM],
        }
    }

    /// Panics past 24 cards: no legal Klondike position has such a pile.
    pub fn push(&mut self, c: Card) {
        self.cards[self.len as usize] = c;
        self.len += 1;
    }

    /// Takes the top card off.
    pub fn pop(&mut self) -> Option<Card> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.cards[self.len as usize])
    }

    /// Keeps the bottom `n` cards.
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n as u8);
    }

    /// Puts `cards` on top, the last on top.
    pub fn extend_from_slice(&mut self, cards: &[Card]) {
        let at = self.len as usize;
        self.cards[at..at + cards.len()].copy_from_slice(cards);
        self.len += cards.len() as u8;
    }

    /// Empties the pile.
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for Pile {
    fn default() -> Pile {
        Pile::new()
    }
}

impl Deref for Pile {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

impl std::ops::DerefMut for Pile {
    fn deref_mut(&mut self) -> &mut [Card] {
        &mut self.cards[..self.len as usize]
    }
}

impl<'a> IntoIterator for &'a Pile {
    type Item = &'a Card;
    type IntoIter = std::slice::Iter<'a, Card>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl FromIterator<Card> for Pile {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Pile {
        let mut p = Pile::new();
        for c in iter {
            p.push(c);
        }
        p
    }
}

// Equality and hashing see the cards in the pile, not the unused room.
impl PartialEq for Pile {
    fn eq(&self, other: &Pile) -> bool {
        **self == **other
    }
}

impl Eq for Pile {}

impl std::hash::Hash for Pile {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h)
    }
}

impl std::fmt::Debug for Pile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pile_behaves_as_a_vector_of_its_cards() {
        let mut p: Pile = [3, 1, 4].into_iter().collect();
        let mut v = vec![3u8, 1, 4];
        p.push(1);
        v.push(1);
        p.extend_from_slice(&[5, 9]);
        v.extend_from_slice(&[5, 9]);
        assert_eq!(p.pop(), v.pop());
        p.truncate(2);
        v.truncate(2);
        assert_eq!(&*p, &v[..]);
        let mut q = p;
        q.push(7);
        q.pop();
        q.cards[10] = 42; // room beyond the pile is not part of it
        assert_eq!(p, q);
        q.clear();
        assert_eq!(q.pop(), None);
        assert!(q.is_empty());
    }
}
