//! `nimrod play ttt`: noughts and crosses against the machines of the
//! text: the perfect player (the solved game, a random choice among optimal
//! moves), Michie's product rule, the line-scoring machine, or a MENACE
//! trained for a number of games; on the board or as the 15 game (pick
//! numbers 1–9, three summing to 15 win: the magic square in disguise).

use super::board::{Geometry, Position};
use super::machines::{line_scoring, product_rule};
use super::menace::{Opponent, TrainedMenace};
use super::query::MAGIC;
use super::solve::{self, Solved};
use crate::games::query::read_answer;
use crate::rng::SplitMix64;
use anyhow::{ensure, Result};
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// The most training games `play ttt --machine menace` accepts.
pub const MAX_MENACE_GAMES: u64 = 1_000_000;

/// Which machine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Machine {
    /// The solved game: a random move among the optimal ones.
    Perfect,
    /// Michie's product rule (one ply, lowest cell on ties).
    Product,
    /// The line-scoring evaluation (one ply, lowest cell on ties).
    Lines,
    /// MENACE, trained against the perfect player first (it plays X only).
    Menace,
    /// The games chapter's defensive machine (it plays O only: the
    /// opponent always moves first). Cells as the text numbers them are
    /// in `docs/machines.md`; the board here is numbered row by row.
    Defensive,
}

/// `nimrod play ttt`.
#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        about = "Play noughts and crosses (or the 15 game) against a machine",
        after_help = "Examples:\n  nimrod play ttt\n  nimrod play ttt --machine product --machine-first\n  nimrod play ttt --machine menace --menace-games 220 --machine-first --seed 1961\n  nimrod play ttt --machine defensive\n  nimrod play ttt --fifteen\n\nCells are numbered 1-9 row by row; in the 15 game you pick numbers 1-9.\n'quit' ends the game."
    )
)]
#[derive(Clone, Debug, PartialEq)]
pub struct TttPlay {
    /// The machine.
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value = "perfect"))]
    pub machine: Machine,
    /// The machine moves first (plays X); implied for MENACE, which plays X only.
    #[cfg_attr(feature = "cli", arg(long))]
    pub machine_first: bool,
    /// Seed of the machine's choices (and of MENACE's training).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1961))]
    pub seed: u64,
    /// Games MENACE is trained for against the perfect player.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 220))]
    pub menace_games: u64,
    /// The 15 game: the same game with the cells as the numbers of a magic square.
    #[cfg_attr(feature = "cli", arg(long))]
    pub fifteen: bool,
}

/// The command line's defaults, so that a library caller's
/// `TttPlay { .., ..Default::default() }` asks what the command would.
impl Default for TttPlay {
    fn default() -> Self {
        TttPlay {
            machine: Machine::Perfect,
            machine_first: false,
            seed: 1961,
            menace_games: 220,
            fifteen: false,
        }
    }
}

/// A machine ready to move.
enum Player {
    Perfect(HashMap<u64, Solved>),
    Rule(fn(&Geometry, Position) -> usize),
    Menace(Box<TrainedMenace>),
    Defensive,
}

impl Player {
    /// Its cell, or None when it resigns (an empty MENACE box).
    fn choose(&mut self, g: &Geometry, p: Position, rng: &mut SplitMix64) -> Option<usize> {
        match self {
            Player::Perfect(solved) => {
                let (canon, sym) = g.canonical(p);
                let best = g.untransform(sym, solved[&canon.key()].best);
                let cells: Vec<usize> = (0..g.cells()).filter(|i| best >> i & 1 == 1).collect();
                Some(cells[rng.below(cells.len() as u64) as usize])
            }
            Player::Rule(rule) => Some(rule(g, p)),
            Player::Menace(m) => m.choose(g, p, rng),
            Player::Defensive => Some(super::defensive::choose(g, p, rng)),
        }
    }
}

fn show(g: &Geometry, p: Position, fifteen: bool, human_x: bool) -> String {
    if fifteen {
        let picks = |marks: u32| {
            let mut v: Vec<u32> = (0..9)
                .filter(|i| marks >> i & 1 == 1)
                .map(|i| MAGIC[i])
                .collect();
            v.sort_unstable();
            v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
        };
        let (mine, theirs) = if human_x { (p.x, p.o) } else { (p.o, p.x) };
        let left = g.full() & !p.occupied();
        return format!(
            "yours: [{}]  machine's: [{}]  left: [{}]",
            picks(mine),
            picks(theirs),
            picks(left)
        );
    }
    let mut s = String::new();
    for r in 0..3 {
        s.push_str("  ");
        for c in 0..3 {
            let i = r * 3 + c;
            s.push(if p.x >> i & 1 == 1 {
                'X'
            } else if p.o >> i & 1 == 1 {
                'O'
            } else {
                char::from(b'1' + i as u8)
            });
        }
        if r < 2 {
            s.push('\n');
        }
    }
    s
}

/// The cell a human's answer names, or why it names none.
fn parse_cell(line: &str, p: Position, fifteen: bool) -> Result<usize, String> {
    let n: u32 = line
        .parse()
        .ok()
        .filter(|n| (1..=9).contains(n))
        .ok_or_else(|| format!("\"{line}\" is not a number from 1 to 9"))?;
    let cell = if fifteen {
        MAGIC
            .iter()
            .position(|&m| m == n)
            .expect("1..=9 is on the square")
    } else {
        n as usize - 1
    };
    if p.occupied() >> cell & 1 == 1 {
        return Err(if fifteen {
            format!("{n} has been picked")
        } else {
            format!("cell {n} is taken")
        });
    }
    Ok(cell)
}

pub(super) fn play(t: &TttPlay, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    ensure!(
        t.menace_games <= MAX_MENACE_GAMES,
        "play ttt: --menace-games {} is above {MAX_MENACE_GAMES}",
        t.menace_games
    );
    let g = Geometry::new(3, 3, 3)?;
    let mut rng = SplitMix64::new(t.seed);
    let mut machine = match t.machine {
        Machine::Perfect => Player::Perfect(solve::solve(&g)),
        Machine::Product => Player::Rule(product_rule),
        Machine::Lines => Player::Rule(line_scoring),
        Machine::Menace => {
            let solved = solve::solve(&g);
            let m = TrainedMenace::train(&g, &solved, Opponent::Perfect, t.menace_games, t.seed);
            writeln!(
                out,
                "MENACE trained for {} games against the perfect player: {} won, {} drawn, {} lost",
                t.menace_games, m.record[0], m.record[1], m.record[2]
            )?;
            Player::Menace(Box::new(m))
        }
        Machine::Defensive => {
            ensure!(
                !t.machine_first,
                "play ttt: the defensive machine plays second (\"the opponent always played first\"); drop --machine-first"
            );
            Player::Defensive
        }
    };
    // MENACE plays X only, so it always moves first (--machine-first is
    // implied rather than demanded).
    let machine_first = t.machine_first || matches!(t.machine, Machine::Menace);
    let human_x = !machine_first;
    writeln!(
        out,
        "{}; you play {}",
        if t.fifteen {
            "the 15 game: take turns picking 1-9; three of yours summing to 15 win"
        } else {
            "noughts and crosses"
        },
        if human_x { "X (first)" } else { "O (second)" }
    )?;
    let mut p = Position::default();
    loop {
        writeln!(out, "{}", show(&g, p, t.fifteen, human_x))?;
        let last_x = !p.x_to_move();
        if g.has_line(p.x) || g.has_line(p.o) {
            let human_won = last_x == human_x;
            writeln!(
                out,
                "{}",
                if human_won {
                    "you win"
                } else {
                    "the machine wins"
                }
            )?;
            return Ok(());
        }
        if p.occupied() == g.full() {
            writeln!(out, "a draw")?;
            return Ok(());
        }
        if p.x_to_move() == human_x {
            let line = read_answer(input, out, "your move> ", "ttt")?;
            let line = line.as_str();
            if line == "quit" || line == "q" {
                writeln!(out, "you resign")?;
                return Ok(());
            }
            match parse_cell(line, p, t.fifteen) {
                Ok(cell) => p = p.play(cell),
                Err(why) => writeln!(out, "illegal: {why}")?,
            }
        } else {
            match machine.choose(&g, p, &mut rng) {
                Some(cell) => {
                    if t.fifteen {
                        writeln!(out, "the machine picks {}", MAGIC[cell])?;
                    } else {
                        writeln!(out, "the machine plays {}", cell + 1)?;
                    }
                    p = p.play(cell);
                }
                None => {
                    writeln!(out, "MENACE's box for this position is empty: it resigns")?;
                    writeln!(out, "you win")?;
                    return Ok(());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_perfect_machine_never_loses_to_any_line() {
        // Every sequence of human moves (as X and as O) against the perfect
        // machine with several seeds ends in a draw or a machine win:
        // checked by exhaustive enumeration of the human's choices.
        let g = Geometry::new(3, 3, 3).unwrap();
        let solved = solve::solve(&g);
        fn walk(g: &Geometry, m: &mut Player, p: Position, human_x: bool, seed: u64) -> u64 {
            if g.has_line(p.x) || g.has_line(p.o) {
                let last_x = !p.x_to_move();
                assert!(last_x != human_x, "the human won: {p:?}");
                return 1;
            }
            if p.occupied() == g.full() {
                return 1;
            }
            if p.x_to_move() == human_x {
                (0..9)
                    .filter(|c| p.occupied() >> c & 1 == 0)
                    .map(|c| walk(g, m, p.play(c), human_x, seed))
                    .sum()
            } else {
                let mut rng = SplitMix64::new(seed ^ p.key());
                let c = m.choose(g, p, &mut rng).unwrap();
                walk(g, m, p.play(c), human_x, seed)
            }
        }
        let mut m = Player::Perfect(solved);
        for seed in 0..4 {
            let games = walk(&g, &mut m, Position::default(), true, seed)
                + walk(&g, &mut m, Position::default(), false, seed);
            assert!(games > 500, "every human line was walked: {games}");
        }
    }

    #[test]
    fn fifteen_picks_are_the_magic_square() {
        // Every line of the board sums to 15 on the square, and no other
        // triple of cells does: the two games are one.
        let g = Geometry::new(3, 3, 3).unwrap();
        for mask in 0u32..1 << 9 {
            if mask.count_ones() != 3 {
                continue;
            }
            let sum: u32 = (0..9)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| MAGIC[i])
                .sum();
            assert_eq!(g.has_line(mask), sum == 15, "{mask:09b}");
        }
        let p = Position::default().play(4);
        assert_eq!(parse_cell("5", p, true).unwrap_err(), "5 has been picked");
        assert_eq!(parse_cell("5", p, false).unwrap_err(), "cell 5 is taken");
        assert_eq!(parse_cell("2", p, true), Ok(0));
        assert!(parse_cell("0", p, false).is_err());
        assert!(parse_cell("x", p, false).is_err());
    }
}
