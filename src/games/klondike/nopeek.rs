//! The no-peek player: it chooses from what a person at the table sees
//! (a [`View`]: no face-down card, no stock card it has not seen) by
//! hindsight optimisation over samples of the unseen cards.
//!
//! # What it sees
//! A [`View`] holds the face-up cards, how many cards lie face down in
//! each column, the waste, the foundations, the passes begun, and the
//! stock's cards it has seen (the rest as unknown). It is built from the
//! true position and the set of cards ever shown ([`Table`]); nothing in it
//! holds a hidden card, so the player, which receives only a `View`, cannot
//! read one. With unlimited redeals every stock card counts as seen from
//! the start: dealing through the stock and turning it over gives back the
//! same position, so a person may look at the whole stock for nothing.
//! Drawing three, the cards of each deal are seen as they fan out.
//!
//! # How it chooses (hindsight optimisation)
//! Until a move shows a card it has not seen, the game is deterministic, so
//! the player plans up to and including the next such move (a *reveal*):
//! 1. deal the unseen cards at random into the unknown places, `samples`
//!    times, and solve each sample with every card visible (the quotient
//!    solver, at most `budget` classes; over budget counts as not won);
//! 2. each won sample proposes the prefix of its winning line up to its
//!    first reveal: the *candidate* is the position before the reveal (as a
//!    view) and the reveal;
//! 3. the most proposed candidates (at most `candidates`) are played out on
//!    every won sample and solved again; the candidate that wins the most
//!    samples is played (ties: more proposals, then proposed first).
//!
//! A sample lost from the current position is lost after every candidate,
//! so it is not solved again; a candidate stops being played out once it
//! can no longer win more samples than the best so far (the same choice,
//! fewer solves). When no sample is won the player resigns.
//! When no card is unseen, one solve decides the rest of the game.
//!
//! The samples come from a generator seeded by the caller's seed and the
//! view itself, so the same view gives the same move: a hint is the first
//! move of the plan, and the batch game plays the whole plan before
//! choosing again (no card is shown before its last move).

use super::cards::Card;
use super::solver::solve_from;
use super::state::{Move, Pile, Redeal, Rules, State};
use super::verdict::Verdict;
use crate::rng::SplitMix64;
use rayon::prelude::*;
use std::collections::HashMap;

/// Samples a candidate is played out on between checks that it can still
/// beat the best (a chunk is solved in parallel).
const EVALUATION_CHUNK: usize = 8;

/// Samples a decision may draw at most.
pub const MAX_SAMPLES: u32 = 4096;

/// The player's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoPeek {
    /// Samples of the unseen cards per decision.
    pub samples: u32,
    /// Classes each sample's solve may store before it counts as not won.
    pub budget: u64,
    /// Candidates played out on every won sample.
    pub candidates: usize,
}

impl NoPeek {
    /// The player with `samples` samples a decision and the default budget.
    pub fn with_samples(samples: u32) -> NoPeek {
        NoPeek {
            samples,
            // Measured on deals 0-99 drawing three, 16 samples: 2*10^5
            // classes won 43, 2*10^4 won 42 at 3.4x less CPU, 2*10^3 won
            // 39; at 64 samples 2*10^4 won 50 and 2*10^3 45.
            budget: 20_000,
            candidates: 8,
        }
    }
}

/// A bit per card: the cards a set holds.
type CardSet = u64;

fn bit(c: Card) -> CardSet {
    1 << c
}

/// What a person at the table sees of a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// Face-down cards per column.
    down: [u8; 7],
    /// The face-up cards of each column, bottom first.
    up: [Pile; 7],
    /// The stock, its top last: the cards seen, `None` for the others.
    stock: Vec<Option<Card>>,
    waste: Pile,
    foundations: [u8; 4],
    passes: u32,
    /// The cards shown nowhere in this view.
    unseen: CardSet,
}

/// The true game as the table holds it: the position and every card shown
/// so far. Only the game driver holds one; a player gets its [`View`].
#[derive(Clone, Debug)]
pub struct Table {
    state: State,
    shown: CardSet,
}

/// The cards face up in a position: the columns' runs, the waste and the
/// foundations.
fn face_up(s: &State) -> CardSet {
    let mut set = 0;
    for col in 0..7 {
        for &c in s.run(col) {
            set |= bit(c);
        }
    }
    for &c in s.waste.iter() {
        set |= bit(c);
    }
    for (suit, &n) in s.foundations.iter().enumerate() {
        for r in 0..n {
            set |= bit(suit as u8 * 13 + r);
        }
    }
    set
}

impl Table {
    /// A game from `start`: the face-up cards are shown, and with unlimited
    /// redeals the whole stock (see the module).
    pub fn new(start: State, rules: &Rules) -> Table {
        let mut shown = face_up(&start);
        if rules.redeal == Redeal::Unlimited {
            for &c in start.stock.iter() {
                shown |= bit(c);
            }
        }
        Table {
            state: start,
            shown,
        }
    }

    /// What the player sees.
    pub fn view(&self) -> View {
        let s = &self.state;
        let mut known = 0;
        let up: [Pile; 7] = std::array::from_fn(|col| s.run(col).iter().copied().collect());
        let stock: Vec<Option<Card>> = s
            .stock
            .iter()
            .map(|&c| (self.shown & bit(c) != 0).then_some(c))
            .collect();
        for p in &up {
            for &c in p.iter() {
                known |= bit(c);
            }
        }
        known |= face_up(s);
        for c in stock.iter().flatten() {
            known |= bit(*c);
        }
        View {
            down: s.hidden,
            up,
            stock,
            waste: s.waste,
            foundations: s.foundations,
            passes: s.passes,
            unseen: !known & ((1 << 52) - 1),
        }
    }

    /// Plays `m`, which must be legal; the cards it turns face up are shown.
    pub fn apply(&mut self, m: Move, rules: &Rules) -> Result<(), Move> {
        let mut legal = Vec::new();
        self.state.legal_moves(rules, &mut legal);
        if !legal.contains(&m) {
            return Err(m);
        }
        self.state.apply(m, rules);
        self.shown |= face_up(&self.state);
        Ok(())
    }

    #[cfg(any(test, feature = "internals"))]
    /// The position (for the driver's bookkeeping: cards home, won).
    pub fn state(&self) -> &State {
        &self.state
    }
}

impl View {
    /// A position consistent with the view: the unseen cards dealt at
    /// random into its unknown places (face down, then the stock's).
    pub fn sample(&self, rng: &mut SplitMix64) -> State {
        let mut unseen: Vec<Card> = (0..52).filter(|&c| self.unseen & bit(c) != 0).collect();
        rng.shuffle(&mut unseen);
        let mut deal = unseen.into_iter();
        let mut next = || deal.next().expect("as many unseen cards as unknown places");
        let columns = std::array::from_fn(|col| {
            let mut p = Pile::new();
            for _ in 0..self.down[col] {
                p.push(next());
            }
            p.extend_from_slice(&self.up[col]);
            p
        });
        let stock = self.stock.iter().map(|c| c.unwrap_or_else(&mut next)).collect();
        State {
            columns,
            hidden: self.down,
            stock,
            waste: self.waste,
            foundations: self.foundations,
            passes: self.passes,
        }
    }

    /// Whether every card is in view.
    pub fn all_seen(&self) -> bool {
        self.unseen == 0
    }

    #[cfg(any(test, feature = "internals"))]
    /// Cards not in view.
    pub fn unseen_count(&self) -> u32 {
        self.unseen.count_ones()
    }

    /// A 64-bit digest of the view, to seed its samples.
    fn digest(&self) -> u64 {
        let mut h = SplitMix64::new(self.unseen ^ u64::from(self.passes) << 52);
        let mut mix = |x: u64| {
            h = SplitMix64::new(h.next_u64() ^ x);
        };
        for col in 0..7 {
            mix(u64::from(self.down[col]) << 32 | self.up[col].len() as u64);
            for &c in self.up[col].iter() {
                mix(u64::from(c));
            }
        }
        for c in &self.stock {
            mix(c.map_or(64, u64::from));
        }
        for &c in self.waste.iter() {
            mix(u64::from(c) | 128);
        }
        for &f in &self.foundations {
            mix(u64::from(f) | 256);
        }
        h.next_u64()
    }
}

/// What the player decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play these moves: up to and including the next card shown (or to the
    /// end, when no card is unseen).
    Plan {
        /// The moves.
        moves: Vec<Move>,
        /// Samples the plan won, of `samples`.
        wins: u32,
        /// Samples drawn.
        samples: u32,
        /// Solves run to decide.
        solves: u32,
    },
    /// No sample could be won: the player gives up.
    Resign {
        /// Solves run to decide.
        solves: u32,
    },
}

impl Decision {
    /// The move a hint shows.
    pub fn first_move(&self) -> Option<Move> {
        match self {
            Decision::Plan { moves, .. } => moves.first().copied(),
            Decision::Resign { .. } => None,
        }
    }
}

/// Whether a solve of `s` within `budget` finds a win, and its line.
fn won_line(s: &State, rules: &Rules, budget: u64) -> Option<Vec<Move>> {
    match solve_from(s, rules, budget).verdict {
        Verdict::Won(line) => Some(line),
        Verdict::Lost | Verdict::Unknown => None,
    }
}

/// The prefix of `line` from `s` up to and including the first move that
/// turns up a card unseen in `view`, and the view before that move. Until
/// then no card has been shown, so the sample's view has `view`'s unseen
/// cards and is built once, at the end.
fn first_reveal(view: &View, s: &State, line: &[Move], rules: &Rules) -> (View, usize) {
    let mut state = *s;
    let mut len = line.len();
    for (i, &m) in line.iter().enumerate() {
        let mut after = state;
        after.apply(m, rules);
        if face_up(&after) & view.unseen != 0 {
            len = i + 1;
            break;
        }
        state = after;
    }
    let before = Table {
        state,
        shown: !view.unseen,
    };
    (before.view(), len)
}

/// Plays `moves` on `s`, which must all be legal there.
fn played(s: &State, moves: &[Move], rules: &Rules) -> Option<State> {
    let mut s = *s;
    let mut legal = Vec::new();
    for &m in moves {
        s.legal_moves(rules, &mut legal);
        if !legal.contains(&m) {
            return None;
        }
        s.apply(m, rules);
    }
    Some(s)
}

/// The player's choice from `view` (see the module).
pub fn decide(view: &View, rules: &Rules, player: &NoPeek, seed: u64) -> Decision {
    let mut rng = SplitMix64::new(seed ^ view.digest());
    if view.all_seen() {
        let s = view.sample(&mut rng);
        return match won_line(&s, rules, player.budget) {
            Some(moves) => Decision::Plan {
                moves,
                wins: 1,
                samples: 1,
                solves: 1,
            },
            None => Decision::Resign { solves: 1 },
        };
    }
    let samples: Vec<State> = (0..player.samples.max(1))
        .map(|_| view.sample(&mut rng))
        .collect();
    let lines: Vec<Option<Vec<Move>>> = samples
        .par_iter()
        .map(|s| won_line(s, rules, player.budget))
        .collect();
    let mut solves = samples.len() as u32;
    // Candidates in the order first proposed, with the samples proposing.
    let mut order: Vec<(View, Vec<Move>)> = Vec::new();
    let mut proposed: HashMap<(View, Move), (usize, Vec<usize>)> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(line) = line else { continue };
        let (before, len) = first_reveal(view, &samples[i], line, rules);
        let prefix = line[..len].to_vec();
        let key = (before.clone(), prefix[len - 1]);
        let entry = proposed.entry(key).or_insert_with(|| {
            order.push((before, prefix));
            (order.len() - 1, Vec::new())
        });
        entry.1.push(i);
    }
    if order.is_empty() {
        return Decision::Resign { solves };
    }
    let mut ranked: Vec<(usize, Vec<usize>)> = proposed.into_values().collect();
    ranked.sort_by_key(|(first, by)| (std::cmp::Reverse(by.len()), *first));
    ranked.truncate(player.candidates.max(1));
    let won: Vec<usize> = (0..samples.len()).filter(|&i| lines[i].is_some()).collect();
    // Candidates come most proposed first, so a later one beats the best so
    // far only with more wins (on a tie the earlier stays): once its wins
    // plus the samples left to try cannot pass the best, it is dropped.
    let mut best: Option<(u32, usize)> = None; // (wins, rank)
    for (rank, (first, by)) in ranked.iter().enumerate() {
        let plan = &order[*first].1;
        let mut wins = by.len() as u32;
        if ranked.len() > 1 {
            let others: Vec<usize> = won.iter().copied().filter(|i| !by.contains(i)).collect();
            let mut left = others.len() as u32;
            for chunk in others.chunks(EVALUATION_CHUNK) {
                if best.is_some_and(|(w, _)| wins + left <= w) {
                    break;
                }
                solves += chunk.len() as u32;
                left -= chunk.len() as u32;
                wins += chunk
                    .par_iter()
                    .filter(|&&i| {
                        played(&samples[i], plan, rules)
                            .is_some_and(|s| won_line(&s, rules, player.budget).is_some())
                    })
                    .count() as u32;
            }
        }
        if best.is_none_or(|(w, _)| wins > w) {
            best = Some((wins, rank));
        }
    }
    let (wins, rank) = best.expect("at least one candidate");
    Decision::Plan {
        moves: order[ranked[rank].0].1.clone(),
        wins,
        samples: samples.len() as u32,
        solves,
    }
}

/// One no-peek game's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoPeekGame {
    /// Cards home at the end (52: won).
    pub home: u32,
    /// Decisions taken.
    pub decisions: u32,
    /// Solves run.
    pub solves: u64,
    /// The moves, in order.
    pub line: Vec<Move>,
}

/// Moves a game may last before the driver stops it.
const MOVE_LIMIT: usize = 5_000;

/// Plays a whole game from `start` with `player`, seeded by `seed`.
pub fn play_game(start: State, rules: &Rules, player: &NoPeek, seed: u64) -> NoPeekGame {
    let mut table = Table::new(start, rules);
    let mut record = NoPeekGame {
        home: 0,
        decisions: 0,
        solves: 0,
        line: Vec::new(),
    };
    while !table.state.is_won() && record.line.len() < MOVE_LIMIT {
        let decision = decide(&table.view(), rules, player, seed);
        record.decisions += 1;
        let moves = match decision {
            Decision::Plan { moves, solves, .. } => {
                record.solves += u64::from(solves);
                moves
            }
            Decision::Resign { solves } => {
                record.solves += u64::from(solves);
                break;
            }
        };
        for m in moves {
            table
                .apply(m, rules)
                .unwrap_or_else(|m| panic!("no-peek plan move {m:?} is not legal"));
            record.line.push(m);
        }
    }
    record.home = table.state.home();
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::klondike::parse_rules;

    /// The true position with its unknown cards (face down, and stock
    /// cards never shown) dealt again at random: the same table to a
    /// person, another deal underneath.
    fn reshuffled(t: &Table, rng: &mut SplitMix64) -> Table {
        let view = t.view();
        let other = view.sample(rng);
        Table {
            state: other,
            shown: t.shown,
        }
    }

    /// A game some moves in: the player's own plans, cut after `moves`.
    fn some_moves_in(deal: u64, rules: &Rules, moves: usize) -> Table {
        let mut t = Table::new(State::deal(deal), rules);
        let player = NoPeek::with_samples(2);
        'game: while (t.state.home() as usize) < 52 {
            let Decision::Plan { moves: plan, .. } = decide(&t.view(), rules, &player, 5) else {
                break;
            };
            for m in plan {
                t.apply(m, rules).unwrap();
                if t.state.hidden.iter().map(|&h| h as usize).sum::<usize>() + moves < 21 {
                    break 'game;
                }
            }
        }
        t
    }

    #[test]
    fn the_player_never_reads_a_hidden_card() {
        // Drawing three with no redeal, stock cards not yet dealt are
        // unknown too; with unlimited redeals only face-down cards are.
        for text in ["3/unlimited", "3/none", "1/unlimited"] {
            let rules = parse_rules(text).unwrap();
            let player = NoPeek::with_samples(6);
            for deal in 0..4u64 {
                for depth in [0, 3] {
                    let t = some_moves_in(deal, &rules, depth);
                    let mut rng = SplitMix64::new(deal * 31 + depth as u64);
                    let mine = decide(&t.view(), &rules, &player, 7);
                    let mut differed = false;
                    for _ in 0..4 {
                        let other = reshuffled(&t, &mut rng);
                        differed |= other.state != t.state;
                        assert_eq!(other.view(), t.view(), "{text} deal {deal}");
                        assert_eq!(
                            decide(&other.view(), &rules, &player, 7),
                            mine,
                            "{text} deal {deal}, {depth} reveals in: the move changed with the hidden cards"
                        );
                    }
                    assert!(differed, "{text} deal {deal}: no hidden card was changed");
                    if text == "3/none" && depth == 0 {
                        assert!(t.view().stock.iter().all(Option::is_none));
                    }
                }
            }
        }
    }

    #[test]
    fn a_sample_keeps_every_card_the_view_shows() {
        let rules = parse_rules("3/none").unwrap();
        for deal in 0..20 {
            let t = some_moves_in(deal, &rules, 2);
            let view = t.view();
            let mut rng = SplitMix64::new(deal);
            for _ in 0..5 {
                let s = view.sample(&mut rng);
                let mut all: Vec<Card> = s.columns.iter().flat_map(|c| c.iter().copied()).collect();
                all.extend(s.stock.iter());
                all.extend(s.waste.iter());
                for (suit, &n) in s.foundations.iter().enumerate() {
                    all.extend((0..n).map(|r| suit as u8 * 13 + r));
                }
                all.sort_unstable();
                assert_eq!(all, (0..52).collect::<Vec<Card>>(), "deal {deal}");
                let again = Table {
                    state: s,
                    shown: !view.unseen,
                };
                assert_eq!(again.view(), view, "deal {deal}");
            }
        }
    }

    #[test]
    fn a_game_is_the_same_every_time_and_its_win_replays() {
        let rules = parse_rules("3/unlimited").unwrap();
        let player = NoPeek::with_samples(4);
        let mut won = 0;
        for deal in 0..6 {
            let a = play_game(State::deal(deal), &rules, &player, 11);
            let b = play_game(State::deal(deal), &rules, &player, 11);
            assert_eq!(a, b, "deal {deal}");
            let end = State::deal(deal).replay_from(&rules, &a.line).unwrap();
            assert_eq!(end.home(), a.home);
            if a.home == 52 {
                won += 1;
                crate::games::klondike::verdict::check_win(deal, &rules, &a.line).unwrap();
            }
        }
        assert!(won >= 1, "no deal of 0..6 won at 4 samples");
    }
}
