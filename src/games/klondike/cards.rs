//! Cards and the reproducible deal. A card is 0..52: suit · 13 + rank − 1,
//! suits in the order clubs, diamonds, hearts, spades (black, red, red,
//! black), ranks ace (1) to king (13).
//!
//! Deal number d means, forever: start from the ordered deck 0..52, run
//! SplitMix64 seeded with d, and for i = 51 down to 1 swap card i with card
//! j = below(i + 1) (Fisher–Yates; `below` rejects to stay unbiased). Then
//! deal as at a table: row r = 0..7 puts one card on each column r..7, left
//! to right; the last card of each column is face up; the 24 cards left are
//! the stock, the deck's last card on top.

use crate::rng::SplitMix64;

/// A card, 0..52 (see the module).
pub type Card = u8;

/// The suit: 0 clubs, 1 diamonds, 2 hearts, 3 spades.
pub fn suit(c: Card) -> u8 {
    c / 13
}
/// The rank, 1 (ace) to 13 (king).
pub fn rank(c: Card) -> u8 {
    c % 13 + 1
}
/// Diamonds and hearts.
pub fn is_red(c: Card) -> bool {
    matches!(suit(c), 1 | 2)
}
/// The card of a suit and rank.
pub fn card(suit: u8, rank: u8) -> Card {
    suit * 13 + rank - 1
}
/// The other card of the same rank and colour (clubs and spades,
/// diamonds and hearts): it is built on the same two cards.
pub fn twin(c: Card) -> Card {
    card(3 - suit(c), rank(c))
}

/// The card's name ("10h", "As").
pub fn name(c: Card) -> String {
    const RANKS: [&str; 13] = [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
    ];
    const SUITS: [char; 4] = ['c', 'd', 'h', 's'];
    format!("{}{}", RANKS[rank(c) as usize - 1], SUITS[suit(c) as usize])
}

/// The shuffled deck of deal `deal`.
pub fn shuffled(deal: u64) -> [Card; 52] {
    let mut deck: [Card; 52] = std::array::from_fn(|i| i as Card);
    let mut rng = SplitMix64::new(deal);
    for i in (1..52usize).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        deck.swap(i, j);
    }
    deck
}

/// The largest Solvitaire seed (its seeds are a C++ `int`).
pub const MAX_SOLVITAIRE_SEED: u32 = i32::MAX as u32;

/// Solvitaire's deal for `seed`, as a deck dealt our way (see the module).
/// Solvitaire orders a fresh deck by rank, then suit (clubs, hearts,
/// spades, diamonds), shuffles it with `std::mt19937(seed)` (for i = 51 down
/// to 1, swap card i with card `uniform_int_distribution(0, i)` as Boost
/// draws it), then takes cards from the deck's end: 24 onto the stock
/// (the last of them its top, dealt first), then the tableau row by row
/// from the right, row r stopping at column r.
pub fn solvitaire_deck(seed: u32) -> [Card; 52] {
    const SUITS: [u8; 4] = [0, 2, 3, 1]; // clubs, hearts, spades, diamonds
    let mut deck: Vec<Card> = (1..=13u8)
        .flat_map(|r| SUITS.iter().map(move |&s| card(s, r)))
        .collect();
    let mut rng = crate::rng::Mt19937::new(seed);
    for i in (1..52usize).rev() {
        let j = rng.boost_uniform(i as u32) as usize;
        deck.swap(i, j);
    }
    // The stock, bottom first: the first card taken is its bottom.
    let stock: Vec<Card> = (0..24).map(|_| deck.pop().expect("52 cards")).collect();
    let mut columns: [Vec<Card>; 7] = Default::default();
    for row in 0..7 {
        for col in (row..7).rev() {
            columns[col].push(deck.pop().expect("52 cards"));
        }
    }
    let mut ours = [0; 52];
    let mut next = 0;
    for row in 0..7 {
        for col in &columns[row..] {
            ours[next] = col[row];
            next += 1;
        }
    }
    // Our deck's last card is the stock's top.
    for (i, &c) in stock.iter().enumerate() {
        ours[28 + i] = c;
    }
    ours
}

/// A deal by its number in some numbering: ours (`N`, see the module) or
/// Solvitaire's seeds (`solvitaire:S`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealId {
    /// Our numbering.
    Ours(u64),
    /// Solvitaire's seed (0 ..= 2^31 − 1).
    Solvitaire(u32),
}

impl DealId {
    /// The deck, to be dealt our way.
    pub fn deck(self) -> [Card; 52] {
        match self {
            DealId::Ours(n) => shuffled(n),
            DealId::Solvitaire(s) => solvitaire_deck(s),
        }
    }
}

impl std::fmt::Display for DealId {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            DealId::Ours(n) => write!(f, "{n}"),
            DealId::Solvitaire(s) => write!(f, "solvitaire:{s}"),
        }
    }
}

/// A deal that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("deal \"{0}\": give a deal number (0 ..= {max}) or solvitaire:SEED (0 ..= {MAX_SOLVITAIRE_SEED})", max = u64::MAX)]
pub struct DealIdError(pub String);

impl std::str::FromStr for DealId {
    type Err = DealIdError;
    fn from_str(s: &str) -> Result<DealId, DealIdError> {
        let bad = || DealIdError(s.to_string());
        match s.strip_prefix("solvitaire:") {
            Some(seed) => match seed.parse::<u32>() {
                Ok(n) if n <= MAX_SOLVITAIRE_SEED && !seed.starts_with('+') => {
                    Ok(DealId::Solvitaire(n))
                }
                _ => Err(bad()),
            },
            None if !s.starts_with('+') => s.parse().map(DealId::Ours).map_err(|_| bad()),
            None => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_is_a_permutation_and_fixed_forever() {
        let d = shuffled(42);
        let mut sorted = d;
        sorted.sort();
        assert_eq!(sorted, std::array::from_fn(|i| i as Card));
        assert_ne!(shuffled(42), shuffled(43));
        assert_eq!(name(card(2, 12)), "Qh");
        assert!(is_red(card(1, 5)) && !is_red(card(3, 5)));
        assert_eq!(name(twin(card(0, 11))), "Js");
        assert_eq!(name(twin(card(2, 1))), "Ad");
    }

    #[test]
    fn solvitaire_seeds_deal_as_an_independent_implementation_prints_them() {
        let text = include_str!("../../../tests/fixtures/solvitaire_deals.txt");
        let mut checked = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (seed, rest) = line.split_once(": ").unwrap();
            let (cols, stock) = rest.split_once(" | ").unwrap();
            let deck = solvitaire_deck(seed.parse().unwrap());
            let mut next = 0;
            let mut columns: [Vec<String>; 7] = Default::default();
            for row in 0..7 {
                for col in columns.iter_mut().skip(row) {
                    col.push(name(deck[next]));
                    next += 1;
                }
            }
            let ours_cols: Vec<String> = columns.iter().map(|c| c.join(" ")).collect();
            assert_eq!(ours_cols.join(" / "), cols, "seed {seed}: columns");
            let ours_stock: Vec<String> = deck[28..].iter().rev().map(|&c| name(c)).collect();
            assert_eq!(ours_stock.join(" "), stock, "seed {seed}: stock");
            checked += 1;
        }
        assert_eq!(checked, 10);
    }

    #[test]
    fn deal_ids_parse_both_numberings_and_name_what_is_wrong() {
        assert_eq!("42".parse::<DealId>(), Ok(DealId::Ours(42)));
        assert_eq!("solvitaire:7".parse::<DealId>(), Ok(DealId::Solvitaire(7)));
        assert_eq!(DealId::Solvitaire(7).to_string(), "solvitaire:7");
        assert_eq!(DealId::Ours(3).deck(), shuffled(3));
        for bad in [
            "",
            "x",
            "-1",
            "+3",
            "solvitaire:",
            "solvitaire:2147483648",
            "greenfelt:3",
        ] {
            let e = bad.parse::<DealId>().unwrap_err().to_string();
            assert!(
                e.contains(&format!("\"{bad}\"")) && e.contains("solvitaire:SEED"),
                "{e}"
            );
        }
    }
}
