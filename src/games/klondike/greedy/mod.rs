//! The classic greedy next-move player: one move at a time from a fixed
//! priority list, so the same function gives a hint, a demo move or a
//! self-play move.
//!
//! 1. note whether a column is empty and whether a king waits (at the base
//!    of a face-up run with face-down cards under it, or on the waste);
//! 2. move a whole face-up run onto another column (a king's run onto an
//!    empty one), runs that uncover a face-down card first; a run that
//!    would empty its column only when a king waits for the space;
//! 3. waste to a column; waste to its foundation; else put a column's
//!    same-colour twin of the waste card on its foundation when that lets
//!    the waste card onto the card beneath;
//! 4. column to foundation, only when no lower card of the other colour
//!    still needs the card to hold it (both foundations of the other colour
//!    reach rank − 1);
//! 5. deal from the stock (turning the waste over when allowed);
//! 6. with the stock exhausted, any column-to-foundation move; else give up.
//!
//! Variants: source columns shortest or longest first; the foundation rule
//! (4) tried before or after the run and waste rules (2, 3).
//!
//! Besides these four, [`Player`] names three more: the seed's list ported
//! literally (`seed`, our earlier reading of Gruber's player from the
//! issue's fragments), a stronger priority list (`strong`), and Gruber's
//! `next_move()` as the article prints it (`gruber`). All of them
//! play through [`play`], so the batch job and the report treat them alike.

pub mod gruber;
pub mod seed;
pub mod strong;

use super::cards::{card, is_red, rank, suit, Card};
use super::state::{stacks, Move, Rules, State};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
/// Which column a classic player looks at first when several offer a move.
pub enum ColumnOrder {
    /// The column with the fewest cards.
    Shortest,
    /// The column with the most cards.
    Longest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
/// When a classic player sends a card home.
pub enum FoundationTiming {
    /// As soon as it can (before tableau moves).
    Early,
    /// Only when nothing else is left to do.
    Late,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
/// A classic greedy player: its column order and foundation timing.
pub struct Variant {
    /// Which column first.
    pub columns: ColumnOrder,
    /// When cards go home.
    pub foundation: FoundationTiming,
}

impl Variant {
    /// The four classic variants, in table order.
    pub const ALL: [Variant; 4] = [
        Variant {
            columns: ColumnOrder::Shortest,
            foundation: FoundationTiming::Late,
        },
        Variant {
            columns: ColumnOrder::Longest,
            foundation: FoundationTiming::Late,
        },
        Variant {
            columns: ColumnOrder::Shortest,
            foundation: FoundationTiming::Early,
        },
        Variant {
            columns: ColumnOrder::Longest,
            foundation: FoundationTiming::Early,
        },
    ];

    /// The variant in words ("shortest first, foundation late").
    pub fn label(&self) -> String {
        format!(
            "{} first, foundation {}",
            match self.columns {
                ColumnOrder::Shortest => "shortest",
                ColumnOrder::Longest => "longest",
            },
            match self.foundation {
                FoundationTiming::Early => "early",
                FoundationTiming::Late => "late",
            }
        )
    }
}

fn source_order(s: &State, v: &Variant) -> [usize; 7] {
    let mut cols = LEFT_TO_RIGHT;
    match v.columns {
        ColumnOrder::Shortest => cols.sort_by_key(|&c| (s.columns[c].len(), c)),
        ColumnOrder::Longest => cols.sort_by_key(|&c| (std::cmp::Reverse(s.columns[c].len()), c)),
    }
    cols
}

/// Rule 1: whether a king waits for an empty column.
fn king_waits(s: &State) -> bool {
    let on_waste = s.waste.last().is_some_and(|&c| rank(c) == 13);
    let buried =
        (0..7).any(|c| s.hidden[c] > 0 && s.run(c).first().is_some_and(|&k| rank(k) == 13));
    on_waste || buried
}

/// Columns in table order, left to right.
const LEFT_TO_RIGHT: [usize; 7] = [0, 1, 2, 3, 4, 5, 6];

/// Rule 2, scanning source columns in `order`: a whole face-up run onto
/// another column, runs that uncover a face-down card first; a run that
/// would empty its column only when a king waits for the space.
fn run_move(s: &State, order: &[usize; 7]) -> Option<Move> {
    let waits = king_waits(s);
    let try_pass = |uncovering: bool| -> Option<Move> {
        for &from in order {
            let run = s.run(from);
            let Some(&base) = run.first() else { continue };
            let uncovers = s.hidden[from] > 0;
            if uncovers != uncovering {
                continue;
            }
            for to in 0..7 {
                if to == from || !stacks(base, s.top(to)) {
                    continue;
                }
                // A king already at the bottom of its column stays there.
                if s.columns[to].is_empty() && !uncovers {
                    continue;
                }
                return Some(Move::ColumnToColumn {
                    from: from as u8,
                    to: to as u8,
                    count: run.len() as u8,
                });
            }
        }
        None
    };
    try_pass(true).or_else(|| if waits { try_pass(false) } else { None })
}

/// Rule 3: the waste card to a column, else to its foundation, else the
/// twin move below.
fn waste_move(s: &State) -> Option<Move> {
    let &w = s.waste.last()?;
    if let Some(to) = (0..7).find(|&to| stacks(w, s.top(to))) {
        return Some(Move::WasteToColumn(to as u8));
    }
    if s.to_foundation(w) {
        return Some(Move::WasteToFoundation);
    }
    twin_move(s, w)
}

/// The same-colour twin of waste card `w` goes home from a column when the
/// face-up card under it can then take `w`.
fn twin_move(s: &State, w: Card) -> Option<Move> {
    let twin: Card = card(twin_suit(suit(w)), rank(w));
    (0..7).find_map(|col| {
        let c = &s.columns[col];
        (c.last() == Some(&twin)
            && s.to_foundation(twin)
            && c.len() >= 2
            && s.hidden[col] as usize <= c.len() - 2
            && stacks(w, Some(c[c.len() - 2])))
        .then_some(Move::ColumnToFoundation(col as u8))
    })
}

/// The other suit of the same colour.
fn twin_suit(s: u8) -> u8 {
    [3, 2, 1, 0][s as usize]
}

/// Rule 4's test: every lower card of the other colour is home.
pub fn safe_home(s: &State, c: Card) -> bool {
    let need = rank(c).saturating_sub(1);
    (0..4u8)
        .filter(|&o| is_red(card(o, 1)) != is_red(c))
        .all(|o| s.foundations[o as usize] >= need)
}

/// Rule 4, scanning columns in `order`.
fn safe_foundation_move(s: &State, order: &[usize; 7]) -> Option<Move> {
    order.iter().find_map(|&col| {
        let c = s.top(col)?;
        (s.to_foundation(c) && safe_home(s, c)).then_some(Move::ColumnToFoundation(col as u8))
    })
}

/// Rules 5 and 6, the end of every list: deal; turn the waste over while a
/// pass still changes something (`stalled` says the last one did not);
/// with the talon spent, any card home; else give up.
fn deal_or_last_resort(s: &State, rules: &Rules, stalled: bool) -> Option<Move> {
    if !s.stock.is_empty() {
        return Some(Move::Deal);
    }
    if !s.waste.is_empty() && rules.may_redeal(s.passes) && !stalled {
        return Some(Move::Redeal);
    }
    (0..7).find_map(|col| {
        let c = s.top(col)?;
        s.to_foundation(c)
            .then_some(Move::ColumnToFoundation(col as u8))
    })
}

/// Every player the batch job runs, in table order: the four classic
/// variants, the seed's list ported literally, the strong priority list,
/// Gruber's `next_move()` as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// One of the four classic variants.
    Classic(Variant),
    /// The seed's priority list, ported literally (`seed.rs`).
    Seed,
    /// The strong priority list (`strong.rs`).
    Strong,
    /// Gruber's `next_move()` of 1996, ported as written (`gruber.rs`):
    /// one pass through the deck.
    Gruber,
    /// The same, reading `deck_to_stack` as turning the stack over when
    /// the deck is empty.
    GruberTurnedOver,
}

impl Player {
    /// Every player, in table order.
    pub const ALL: [Player; 8] = [
        Player::Classic(Variant::ALL[0]),
        Player::Classic(Variant::ALL[1]),
        Player::Classic(Variant::ALL[2]),
        Player::Classic(Variant::ALL[3]),
        Player::Seed,
        Player::Strong,
        Player::Gruber,
        Player::GruberTurnedOver,
    ];

    /// The player in words, as reports print it.
    pub fn label(&self) -> String {
        match self {
            Player::Classic(v) => v.label(),
            Player::Seed => "seed list, literal".to_string(),
            Player::Strong => "strong priority list".to_string(),
            Player::Gruber => "Gruber 1996, literal".to_string(),
            Player::GruberTurnedOver => "Gruber 1996, stack turned over".to_string(),
        }
    }

    /// The player's move, or None when it gives up (see the module's
    /// `next_move` for `stalled`).
    pub fn next_move(&self, s: &State, rules: &Rules, stalled: bool) -> Option<Move> {
        match self {
            Player::Classic(v) => next_move(s, rules, v, stalled),
            Player::Seed => seed::next_move(s, rules, stalled),
            Player::Strong => strong::next_move(s, rules, stalled),
            Player::Gruber => gruber::next_move(s, gruber::Deck::OnePass),
            Player::GruberTurnedOver => gruber::next_move(
                s,
                gruber::Deck::TurnedOver {
                    may_redeal: rules.may_redeal(s.passes),
                    stalled,
                },
            ),
        }
    }
}

#[cfg(feature = "cli")]
/// A player named on the command line: its number in [`Player::ALL`], or
/// one of the names `seed`, `strong`, `gruber`, `gruber-turned-over`.
pub fn parse_player(s: &str) -> Result<usize, String> {
    let n = Player::ALL.len();
    match s {
        "nopeek" => Ok(NOPEEK),
        "seed" => Ok(4),
        "strong" => Ok(5),
        "gruber" => Ok(6),
        "gruber-turned-over" => Ok(7),
        _ => s
            .parse::<usize>()
            .ok()
            .filter(|&v| v < n)
            .ok_or_else(|| {
                format!(
                    "\"{s}\" is not a player: a number 0 ..= {} or seed, strong, gruber, gruber-turned-over, nopeek",
                    n - 1
                )
            }),
    }
}

/// The number `parse_player` gives the no-peek player (`nopeek`), which is
/// no greedy player: one past them.
pub const NOPEEK: usize = Player::ALL.len();

/// The greedy player's move, or None when it gives up. `stalled` says the
/// last pass through the stock made no other move, so turning the waste
/// over again would loop.
pub fn next_move(s: &State, rules: &Rules, v: &Variant, stalled: bool) -> Option<Move> {
    let order = source_order(s, v);
    let early = v.foundation == FoundationTiming::Early;
    if early {
        if let Some(m) = safe_foundation_move(s, &order) {
            return Some(m);
        }
    }
    if let Some(m) = run_move(s, &order).or_else(|| waste_move(s)) {
        return Some(m);
    }
    if !early {
        if let Some(m) = safe_foundation_move(s, &order) {
            return Some(m);
        }
    }
    deal_or_last_resort(s, rules, stalled)
}

#[derive(Clone, Debug)]
/// A greedy game played to its end.
pub struct Played {
    /// Whether every card went home.
    pub won: bool,
    /// Cards home at the end.
    pub home: u32,
    /// The moves, in order.
    pub moves: Vec<Move>,
}

/// Moves a game may take before the player is stopped: a safety net, and
/// the batch job refuses a table in which a game reached it (a loop would
/// otherwise pass for a loss).
pub const MOVE_LIMIT: usize = 5000;

/// Self-play of one deal.
pub fn play(deal: u64, rules: &Rules, player: &Player) -> Played {
    play_from(State::deal(deal), rules, player)
}

/// The greedy game from any position (a deal of another numbering, say).
pub fn play_from(start: State, rules: &Rules, player: &Player) -> Played {
    let mut s = start;
    let mut moves = Vec::new();
    let mut moved_this_pass = false;
    while !s.is_won() && moves.len() < MOVE_LIMIT {
        let Some(mut m) = player.next_move(&s, rules, false) else {
            break;
        };
        if m == Move::Redeal && !moved_this_pass {
            // Another pass would repeat the last one.
            match player.next_move(&s, rules, true) {
                Some(other) => m = other,
                None => break,
            }
        }
        match m {
            Move::Deal => {}
            Move::Redeal => moved_this_pass = false,
            _ => moved_this_pass = true,
        }
        s.apply(m, rules);
        moves.push(m);
    }
    Played {
        won: s.is_won(),
        home: s.home(),
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::klondike::state::Redeal;

    #[test]
    fn every_greedy_move_is_legal_and_games_end() {
        let mut wins = 0;
        for (deal, rules) in (0..200).flat_map(|d| {
            [(1, Redeal::Unlimited), (3, Redeal::Passes(3))].map(|(draw, redeal)| {
                (
                    d,
                    Rules {
                        draw,
                        redeal,
                        worry_back: true,
                    },
                )
            })
        }) {
            for player in Player::ALL {
                let p = play(deal, &rules, &player);
                let s = State::replay(deal, &rules, &p.moves).unwrap();
                assert_eq!(s.is_won(), p.won);
                assert!(p.moves.len() < MOVE_LIMIT);
                wins += p.won as u32;
            }
        }
        assert!(wins > 0, "the greedy players never won in 2,400 games");
    }

    /// Shuffles the cards a player may not see (face-down cards and the
    /// stock) among their places.
    fn reshuffle_unseen(s: &State, seed: u64) -> State {
        let mut t = *s;
        let mut unseen: Vec<Card> = s.stock.to_vec();
        for c in 0..7 {
            unseen.extend_from_slice(&s.columns[c][..s.hidden[c] as usize]);
        }
        crate::rng::SplitMix64::new(seed).shuffle(&mut unseen);
        let mut next = unseen.into_iter();
        for c in t.stock.iter_mut() {
            *c = next.next().expect("same count");
        }
        for col in 0..7 {
            for i in 0..s.hidden[col] as usize {
                t.columns[col][i] = next.next().expect("same count");
            }
        }
        t
    }

    #[test]
    fn no_player_reads_a_face_down_card_or_the_stock() {
        let rules = Rules {
            draw: 3,
            redeal: Redeal::Unlimited,
            worry_back: true,
        };
        let mut compared = 0;
        for deal in 0..60 {
            for player in Player::ALL {
                let p = play(deal, &rules, &player);
                let mut s = State::deal(deal);
                for (i, &m) in p.moves.iter().enumerate() {
                    let blind = reshuffle_unseen(&s, deal * 1000 + i as u64);
                    if blind != s {
                        for stalled in [false, true] {
                            assert_eq!(
                                player.next_move(&s, &rules, stalled),
                                player.next_move(&blind, &rules, stalled),
                                "{}: deal {deal}, move {i} depends on unseen cards",
                                player.label()
                            );
                        }
                        compared += 1;
                    }
                    s.apply(m, &rules);
                }
            }
        }
        assert!(
            compared > 1000,
            "only {compared} positions had unseen cards"
        );
    }

    #[test]
    fn the_foundation_rule_waits_for_the_other_colour() {
        let mut s = State::deal(0);
        s.foundations = [2, 1, 1, 0];
        // Black three (clubs): red twos are not both home.
        assert!(!safe_home(&s, card(0, 3)));
        s.foundations = [2, 2, 2, 0];
        assert!(safe_home(&s, card(0, 3)));
        assert!(safe_home(&s, card(3, 1)));
    }
}
