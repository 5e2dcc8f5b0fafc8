//! `nimrod query half PILE`.

use super::Convention;
use crate::games::query::{open_table, Answer, QueryContext};
use anyhow::Result;
use serde::Serialize;

/// `nimrod query half PILE`.
#[derive(Serialize)]
struct HalfAnswer {
    game: &'static str,
    pile: u64,
    convention: &'static str,
    safe: bool,
    /// Every take that leaves a safe pile.
    winning_takes: Vec<u64>,
    #[serde(skip)]
    no_move: bool,
}

impl std::fmt::Display for HalfAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "take at most half, pile {} ({})",
            self.pile, self.convention
        )?;
        writeln!(
            f,
            "  {}",
            if self.safe {
                "safe: the player to move loses"
            } else {
                "unsafe: the player to move wins"
            }
        )?;
        if self.no_move {
            writeln!(
                f,
                "  no move is possible, so the player to move has already won"
            )?;
        }
        for k in &self.winning_takes {
            writeln!(f, "  winning move: take {k}, leaving {}", self.pile - k)?;
        }
        Ok(())
    }
}

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(after_help = "Examples:\n  nimrod query half 47\n  nimrod query half 47 --last-loses")
)]
/// The arguments of `nimrod query half`.
#[cfg_attr(
    feature = "cli",
    command(about = "single pile, take 1..⌊n/2⌋: safe positions in both conventions")
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct HalfQuery {
    /// Pile size.
    pub pile: u64,
    /// The player who takes the last permitted move loses.
    #[cfg_attr(feature = "cli", arg(long))]
    pub last_loses: bool,
}

/// The answer to `query half`: safe or not, and every winning take.
pub(super) fn answer(q: &HalfQuery, ctx: &QueryContext) -> Result<Answer> {
    let conv = if q.last_loses {
        Convention::LastMoverLoses
    } else {
        Convention::LastMoverWins
    };
    let t = open_table(&ctx.data_dir, conv.table())?;
    if q.pile >= t.len() {
        crate::bail_input!(
            "pile {} is beyond the {} table (bound {}); raise [half] bound",
            q.pile,
            conv.table(),
            t.len() - 1
        );
    }
    let n = q.pile;
    let e = t.get::<u32>(n)?;
    // Every winning take: those landing on a safe pile.
    let mut takes = Vec::new();
    if e != 0 && e != u32::MAX {
        let lo = n - n / 2;
        let v = t.read_range::<u32>(lo, n - lo)?;
        for (i, &x) in v.iter().enumerate() {
            if x == 0 {
                takes.push(n - (lo + i as u64));
            }
        }
        takes.sort_unstable();
    }
    let safe = e == 0;
    let rule = match conv {
        Convention::LastMoverWins => "last mover wins",
        Convention::LastMoverLoses => "last mover loses",
    };
    Ok(Answer::of(&HalfAnswer {
        game: "half",
        pile: n,
        convention: rule,
        safe,
        winning_takes: takes,
        no_move: e == u32::MAX,
    }))
}
