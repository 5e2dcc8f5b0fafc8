//! `nimrod play gops`: you are player one against the stored optimal
//! strategy. The prize deck is shuffled and the computer's mixed bids are
//! drawn from a seeded generator, so a seed replays the same game.

use super::probe::{find_tables, members, upcard_game, upcard_win_game, Objective};
use crate::games::query::QueryContext;
use crate::rng::SplitMix64;
use anyhow::{ensure, Result};
use std::io::{BufRead, Write};

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        after_help = "Examples:\n  nimrod play gops --cards 6\n  nimrod play gops --cards 8 --objective win --seed 7\n"
    )
)]
#[cfg_attr(
    feature = "cli",
    command(about = "Play GOPS against the stored optimal strategy")
)]
/// The arguments of `nimrod play gops` (a library caller fills it in).
#[derive(Clone, Debug, PartialEq)]
pub struct GopsPlay {
    /// N: hands and prize deck 1..N.
    #[cfg_attr(feature = "cli", arg(long))]
    pub cards: usize,
    /// Seed for the deck and the computer's draws.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// What the computer optimises: score (expected difference) or win.
    #[cfg_attr(feature = "cli", arg(long, value_enum, default_value_t = Objective::Score))]
    pub objective: Objective,
}

/// The command line's defaults, so that a library caller's
/// `GopsPlay { .., ..Default::default() }` asks what the command would.
impl Default for GopsPlay {
    fn default() -> Self {
        GopsPlay {
            cards: 0,
            seed: 1,
            objective: Objective::Score,
        }
    }
}

fn list(mask: u32) -> String {
    members(mask)
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn play(
    p: &GopsPlay,
    ctx: &QueryContext,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    ensure!(
        (1..=super::pattern::MAX_CARDS).contains(&p.cards),
        "play gops: --cards {} is out of range (1..={})",
        p.cards,
        super::pattern::MAX_CARDS
    );
    let n = p.cards;
    // Fail before the first prompt if the tables are missing.
    find_tables(ctx, p.objective, n, n)?;
    let mut rng = SplitMix64::new(p.seed);
    let mut deck: Vec<u32> = (1..=n as u32).collect();
    rng.shuffle(&mut deck);
    let full = ((1u64 << n) - 1) as u32;
    let (mut mine, mut theirs, mut prizes) = (full, full, full);
    let (mut my_score, mut their_score) = (0i32, 0i32);
    writeln!(
        out,
        "GOPS with {n} cards (seed {}). You are player one; bid a card from your hand each round.",
        p.seed
    )?;
    for (round, &upcard) in deck.iter().enumerate() {
        let k = prizes.count_ones() as usize;
        let tables = find_tables(ctx, p.objective, n, k)?;
        let diff = my_score - their_score;
        let game = match p.objective {
            Objective::Score => upcard_game(&tables, mine, theirs, prizes, upcard)?,
            Objective::Win => upcard_win_game(&tables, mine, theirs, prizes, diff, upcard)?,
        };
        let sol = game.solve();
        writeln!(
            out,
            "\nRound {} of {n}: upcard {upcard}. Score: you {my_score}, computer {their_score}.",
            round + 1
        )?;
        writeln!(out, "Your hand: {}", list(mine))?;
        let bid = loop {
            let line = crate::games::query::read_answer(input, out, "Your bid: ", "gops")?;
            match line.trim().parse::<u32>() {
                Ok(b) if (1..=n as u32).contains(&b) && mine >> (b - 1) & 1 == 1 => break b,
                _ => writeln!(
                    out,
                    "{:?} is not a card in your hand ({})",
                    line.trim(),
                    list(mine)
                )?,
            }
        };
        let their_cards = members(theirs);
        let reply = their_cards[rng.pick(&sol.col[..k])];
        let outcome = match bid.cmp(&reply) {
            std::cmp::Ordering::Greater => {
                my_score += upcard as i32;
                "you take it"
            }
            std::cmp::Ordering::Less => {
                their_score += upcard as i32;
                "the computer takes it"
            }
            std::cmp::Ordering::Equal => "tie, the prize is discarded",
        };
        writeln!(
            out,
            "You bid {bid}, the computer bid {reply}: {outcome}. (value of the position for you before the bids: {:+.4})",
            sol.value
        )?;
        mine &= !(1 << (bid - 1));
        theirs &= !(1 << (reply - 1));
        prizes &= !(1 << (upcard - 1));
    }
    let verdict = match my_score.cmp(&their_score) {
        std::cmp::Ordering::Greater => "you win",
        std::cmp::Ordering::Less => "the computer wins",
        std::cmp::Ordering::Equal => "a draw",
    };
    writeln!(
        out,
        "\nFinal score: you {my_score}, computer {their_score}: {verdict}."
    )?;
    Ok(())
}
