//! `nimrod play guessit`: Guess It against the optimal mixed strategy.
//!
//! The game is the one `solve` models: the deck is 1..=m+n+1, the human
//! holds m cards, the machine n, one card is hidden. The player to move
//! either guesses the hidden card (right: wins; wrong: loses) or asks for a
//! card. A card the other holds is shown and put aside, and the other
//! moves. Otherwise the other says "no" and calls (names the asked card as
//! the hidden one: right, the caller wins; wrong, it was a bluff and the
//! asker wins) or passes (an honest asker now knows the hidden card and
//! wins; a bluffer's card is shown and put aside, and the other moves).
//! The machine draws its choices from the exact solution, with a seeded
//! generator, and shows its hand only at the end.

use super::solve::{solve_all, to_f64};
use crate::games::query::read_answer;
use crate::rng::SplitMix64;
use anyhow::{ensure, Result};
use std::io::{BufRead, Write};

/// The largest hand `play guessit` deals.
pub const MAX_PLAY_HAND: usize = 10;

/// `nimrod play guessit`.
#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        about = "Play Isaacs' Guess It against the optimal mixed strategy",
        after_help = "Examples:\n  nimrod play guessit\n  nimrod play guessit --mine 3 --theirs 5 --machine-first --seed 1955\n\nOn your turn: 'guess C' or 'ask C' (C a card number); when the machine's\nask is answered no: 'call' or 'pass'; 'quit' ends the game."
    )
)]
#[derive(Clone, Debug, PartialEq)]
pub struct GuessItPlay {
    /// Cards in your hand (1 to 10).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4))]
    pub mine: usize,
    /// Cards in the machine's hand (1 to 10).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4))]
    pub theirs: usize,
    /// The machine moves first.
    #[cfg_attr(feature = "cli", arg(long))]
    pub machine_first: bool,
    /// Seed of the deal and of the machine's choices.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1955))]
    pub seed: u64,
}

/// The command line's defaults, so that a library caller's
/// `GuessItPlay { .., ..Default::default() }` asks what the command would.
impl Default for GuessItPlay {
    fn default() -> Self {
        GuessItPlay {
            mine: 4,
            theirs: 4,
            machine_first: false,
            seed: 1955,
        }
    }
}

/// The optimal mixture of a state (mover holds a, the other b), in f64.
#[derive(Clone, Copy, Debug)]
struct Mix {
    guess: f64,
    ask: f64,
    bluff: f64,
    call: f64,
}

/// Every state's optimal mixture up to `max` cards a hand.
struct Strategy(Vec<Vec<Mix>>);

impl Strategy {
    fn new(max: usize) -> Strategy {
        Strategy(
            solve_all(max, max)
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|s| Mix {
                            guess: to_f64(&s.guess),
                            ask: to_f64(&s.ask),
                            bluff: to_f64(&s.bluff),
                            call: to_f64(&s.call),
                        })
                        .collect()
                })
                .collect(),
        )
    }

    fn mix(&self, mover: usize, other: usize) -> Mix {
        self.0[mover][other]
    }
}

const HUMAN: usize = 0;
const MACHINE: usize = 1;

/// A move of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    Guess(u32),
    Ask(u32),
}

/// What a move led to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// The game goes on with the other player to move.
    Next(String),
    /// The game is over: the winner (HUMAN or MACHINE) and why.
    Over(usize, String),
}

/// A deal in progress.
struct Deal {
    deck: u32,
    hidden: u32,
    hands: [Vec<u32>; 2],
    shown: Vec<u32>,
    to_move: usize,
}

impl Deal {
    fn new(mine: usize, theirs: usize, machine_first: bool, rng: &mut SplitMix64) -> Deal {
        let deck = (mine + theirs + 1) as u32;
        let mut cards: Vec<u32> = (1..=deck).collect();
        rng.shuffle(&mut cards);
        let mut human = cards[..mine].to_vec();
        let mut machine = cards[mine..mine + theirs].to_vec();
        human.sort_unstable();
        machine.sort_unstable();
        Deal {
            deck,
            hidden: cards[mine + theirs],
            hands: [human, machine],
            shown: Vec::new(),
            to_move: if machine_first { MACHINE } else { HUMAN },
        }
    }

    /// Why a move by the player to move is not legal, if it is not.
    fn illegal(&self, m: Move) -> Option<String> {
        let (Move::Guess(c) | Move::Ask(c)) = m;
        if !(1..=self.deck).contains(&c) {
            return Some(format!("the cards are 1 to {}", self.deck));
        }
        if self.shown.contains(&c) {
            return Some(format!("card {c} has been shown already"));
        }
        None
    }

    /// Cards the player `p` has not seen: neither in hand nor shown.
    fn unseen(&self, p: usize) -> Vec<u32> {
        (1..=self.deck)
            .filter(|c| !self.hands[p].contains(c) && !self.shown.contains(c))
            .collect()
    }

    fn name(p: usize) -> &'static str {
        if p == HUMAN {
            "you"
        } else {
            "the machine"
        }
    }

    /// Plays a legal move of the player to move; `calls` answers whether
    /// the other calls an ask it answered "no".
    fn play(&mut self, m: Move, calls: &mut dyn FnMut(&Deal, u32) -> Result<bool>) -> Result<Step> {
        let p = self.to_move;
        let other = 1 - p;
        match m {
            Move::Guess(c) => Ok(if c == self.hidden {
                Step::Over(p, format!("{} guessed {c}: right", Self::name(p)))
            } else {
                Step::Over(
                    other,
                    format!(
                        "{} guessed {c}: wrong, the hidden card is {}",
                        Self::name(p),
                        self.hidden
                    ),
                )
            }),
            Move::Ask(c) => {
                if let Some(i) = self.hands[other].iter().position(|&x| x == c) {
                    self.hands[other].remove(i);
                    self.shown.push(c);
                    self.to_move = other;
                    return Ok(Step::Next(format!(
                        "{} asked for {c}: yes, it is shown",
                        Self::name(p)
                    )));
                }
                let called = calls(self, c)?;
                let who = Self::name(other);
                if called {
                    Ok(if c == self.hidden {
                        Step::Over(other, format!("{who} called {c} the hidden card: right"))
                    } else {
                        Step::Over(
                            p,
                            format!("{who} called {c} the hidden card: wrong, it was a bluff"),
                        )
                    })
                } else if c == self.hidden {
                    Ok(Step::Over(
                        p,
                        format!(
                            "{who} passed: {c} is the hidden card, and {} it",
                            if p == HUMAN {
                                "you name"
                            } else {
                                "the machine names"
                            }
                        ),
                    ))
                } else {
                    let i = self.hands[p]
                        .iter()
                        .position(|&x| x == c)
                        .expect("a bluff names the asker's card");
                    self.hands[p].remove(i);
                    self.shown.push(c);
                    self.to_move = other;
                    Ok(Step::Next(format!(
                        "{who} passed: {c} was a bluff, it is shown"
                    )))
                }
            }
        }
    }

    /// The machine's move in its state, drawn from the optimal mixture.
    fn machine_move(&self, s: &Strategy, rng: &mut SplitMix64) -> Move {
        let mix = s.mix(self.hands[MACHINE].len(), self.hands[HUMAN].len());
        let unseen = self.unseen(MACHINE);
        let any = |v: &[u32], rng: &mut SplitMix64| v[rng.below(v.len() as u64) as usize];
        match rng.pick(&[mix.guess, mix.ask, mix.bluff]) {
            0 => Move::Guess(any(&unseen, rng)),
            1 => Move::Ask(any(&unseen, rng)),
            _ => Move::Ask(any(&self.hands[MACHINE], rng)),
        }
    }

    /// Whether the machine calls the human's ask answered "no".
    fn machine_calls(&self, s: &Strategy, rng: &mut SplitMix64) -> bool {
        let mix = s.mix(self.hands[HUMAN].len(), self.hands[MACHINE].len());
        rng.next_f64() < mix.call
    }
}

fn list(cards: &[u32]) -> String {
    if cards.is_empty() {
        return "none".into();
    }
    cards
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_move(line: &str) -> Result<Move, String> {
    let mut words = line.split_whitespace();
    let (Some(verb), Some(card), None) = (words.next(), words.next(), words.next()) else {
        return Err("say 'guess C' or 'ask C' (C a card number)".into());
    };
    let c: u32 = card
        .parse()
        .map_err(|_| format!("\"{card}\" is not a card number"))?;
    match verb {
        "guess" | "g" => Ok(Move::Guess(c)),
        "ask" | "a" => Ok(Move::Ask(c)),
        _ => Err(format!("\"{verb}\" is neither guess nor ask")),
    }
}

pub(super) fn play(p: &GuessItPlay, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    ensure!(
        (1..=MAX_PLAY_HAND).contains(&p.mine) && (1..=MAX_PLAY_HAND).contains(&p.theirs),
        "play guessit: --mine and --theirs must be 1 to {MAX_PLAY_HAND} (given {} and {})",
        p.mine,
        p.theirs
    );
    let strategy = Strategy::new(p.mine.max(p.theirs));
    let mut rng = SplitMix64::new(p.seed);
    let mut deal = Deal::new(p.mine, p.theirs, p.machine_first, &mut rng);
    writeln!(
        out,
        "Guess It: cards 1 to {}; you hold {}, the machine {}, one is hidden",
        deal.deck, p.mine, p.theirs
    )?;
    loop {
        writeln!(
            out,
            "your hand: {}   machine: {} card(s)   shown: {}",
            list(&deal.hands[HUMAN]),
            deal.hands[MACHINE].len(),
            list(&deal.shown)
        )?;
        let step = if deal.to_move == HUMAN {
            let line = read_answer(input, out, "your move> ", "guessit")?;
            if line == "quit" || line == "q" {
                writeln!(out, "you resign")?;
                return Ok(());
            }
            let m = match parse_move(&line) {
                Ok(m) => m,
                Err(why) => {
                    writeln!(out, "illegal: {why}")?;
                    continue;
                }
            };
            if let Some(why) = deal.illegal(m) {
                writeln!(out, "illegal: {why}")?;
                continue;
            }
            let mut calls = |d: &Deal, _c: u32| Ok(d.machine_calls(&strategy, &mut rng));
            deal.play(m, &mut calls)?
        } else {
            let m = deal.machine_move(&strategy, &mut rng);
            match m {
                Move::Guess(c) => writeln!(out, "the machine guesses {c}")?,
                Move::Ask(c) => writeln!(out, "the machine asks for {c}")?,
            }
            let mut calls = |_: &Deal, c: u32| -> Result<bool> {
                loop {
                    let line = read_answer(
                        input,
                        out,
                        &format!("you do not hold {c}: call or pass> "),
                        "guessit",
                    )?;
                    match line.as_str() {
                        "call" | "c" => return Ok(true),
                        "pass" | "p" => return Ok(false),
                        other => writeln!(out, "illegal: \"{other}\" is neither call nor pass")?,
                    }
                }
            };
            deal.play(m, &mut calls)?
        };
        match step {
            Step::Next(what) => writeln!(out, "{what}")?,
            Step::Over(winner, what) => {
                writeln!(out, "{what}")?;
                writeln!(
                    out,
                    "hidden card {}; the machine held {}",
                    deal.hidden,
                    list(&deal.hands[MACHINE])
                )?;
                writeln!(
                    out,
                    "{}",
                    if winner == HUMAN {
                        "you win"
                    } else {
                        "the machine wins"
                    }
                )?;
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `games` deals with both sides drawing from `human` and the
    /// machine's strategy; the machine's wins.
    fn machine_wins(
        m: usize,
        n: usize,
        machine_first: bool,
        games: u64,
        human_optimal: bool,
    ) -> u64 {
        let s = Strategy::new(m.max(n));
        let mut rng = SplitMix64::new(99);
        let mut human_rng = SplitMix64::new(7);
        let mut wins = 0;
        for _ in 0..games {
            let mut d = Deal::new(m, n, machine_first, &mut rng);
            loop {
                let step = if d.to_move == HUMAN {
                    // The human as the machine would play in its seat, or
                    // a naive human who always guesses at once.
                    let unseen = d.unseen(HUMAN);
                    let mv = if human_optimal {
                        let mix = s.mix(d.hands[HUMAN].len(), d.hands[MACHINE].len());
                        let pick =
                            |v: &[u32], r: &mut SplitMix64| v[r.below(v.len() as u64) as usize];
                        match human_rng.pick(&[mix.guess, mix.ask, mix.bluff]) {
                            0 => Move::Guess(pick(&unseen, &mut human_rng)),
                            1 => Move::Ask(pick(&unseen, &mut human_rng)),
                            _ => Move::Ask(pick(&d.hands[HUMAN], &mut human_rng)),
                        }
                    } else {
                        Move::Guess(unseen[0])
                    };
                    assert!(d.illegal(mv).is_none());
                    let mut calls = |d: &Deal, _| Ok(d.machine_calls(&s, &mut rng));
                    d.play(mv, &mut calls).unwrap()
                } else {
                    let mv = d.machine_move(&s, &mut rng);
                    assert!(d.illegal(mv).is_none(), "{mv:?}");
                    let mut calls = |d: &Deal, _| {
                        let mix = s.mix(d.hands[MACHINE].len(), d.hands[HUMAN].len());
                        Ok(human_optimal && human_rng.next_f64() < mix.call)
                    };
                    d.play(mv, &mut calls).unwrap()
                };
                if let Step::Over(w, _) = step {
                    wins += u64::from(w == MACHINE);
                    break;
                }
            }
        }
        wins
    }

    #[test]
    fn optimal_against_optimal_wins_at_the_solved_rate() {
        // Both seats drawing from the solution: the mover's win rate is the
        // state's value, within four standard errors.
        let games = 20_000u64;
        for (m, n) in [(1, 1), (2, 3), (4, 4), (3, 1)] {
            let exact = solve_all(m.max(n), m.max(n));
            let human_first = to_f64(&exact[m][n].value);
            let rate = 1.0 - machine_wins(m, n, false, games, true) as f64 / games as f64;
            let sigma = (human_first * (1.0 - human_first) / games as f64).sqrt();
            assert!(
                (rate - human_first).abs() < 4.0 * sigma + 1e-9,
                "({m}, {n}) human first: simulated {rate}, solved {human_first}"
            );
            let machine_first = to_f64(&exact[n][m].value);
            let rate = machine_wins(m, n, true, games, true) as f64 / games as f64;
            let sigma = (machine_first * (1.0 - machine_first) / games as f64).sqrt();
            assert!(
                (rate - machine_first).abs() < 4.0 * sigma + 1e-9,
                "({m}, {n}) machine first: simulated {rate}, solved {machine_first}"
            );
        }
    }

    #[test]
    fn a_human_who_guesses_at_once_loses_as_often_as_the_odds_say() {
        // Guessing at once from (m, n) wins 1/(n + 1): the machine wins the rest.
        let games = 20_000u64;
        let (m, n) = (3, 4);
        let rate = machine_wins(m, n, false, games, false) as f64 / games as f64;
        let want = n as f64 / (n as f64 + 1.0);
        let sigma = (want * (1.0 - want) / games as f64).sqrt();
        assert!((rate - want).abs() < 4.0 * sigma, "{rate} vs {want}");
    }

    #[test]
    fn moves_are_parsed_and_checked() {
        assert_eq!(parse_move("guess 3"), Ok(Move::Guess(3)));
        assert_eq!(parse_move("ask 10"), Ok(Move::Ask(10)));
        assert!(parse_move("ask").is_err());
        assert!(parse_move("take 3").is_err());
        assert!(parse_move("ask x").is_err());
        let mut rng = SplitMix64::new(1);
        let mut d = Deal::new(2, 2, false, &mut rng);
        assert!(d.illegal(Move::Ask(0)).is_some());
        assert!(d.illegal(Move::Ask(6)).is_some());
        let theirs = d.hands[MACHINE][0];
        let step = d.play(Move::Ask(theirs), &mut |_, _| Ok(false)).unwrap();
        assert!(matches!(step, Step::Next(_)));
        assert_eq!(d.to_move, MACHINE);
        d.to_move = HUMAN;
        assert!(d.illegal(Move::Guess(theirs)).unwrap().contains("shown"));
    }
}
