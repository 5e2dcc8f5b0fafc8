//! `nimrod query grundy`: a heap's value and winning splits, or its misère outcome.

use super::misere;
use super::rare::is_rare_value;
use crate::games::query::{open_table, Answer, QueryContext};
use crate::table::Table;
use anyhow::{bail, ensure, Result};
use serde::Serialize;

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        after_help = "Examples:\n  nimrod query grundy 1000000\n  nimrod query grundy 1000000 --all --json\n  nimrod query grundy 20 --misere\n  nimrod query grundy 20 --lecture"
    )
)]
#[cfg_attr(
    feature = "cli",
    command(about = "Grundy's game: value of a heap and its winning splits")
)]
/// The arguments of `nimrod query grundy` (a library caller fills it in).
pub struct GrundyQuery {
    /// Heap size.
    #[cfg_attr(feature = "cli", arg(allow_negative_numbers = true))]
    pub heap: u64,
    /// Misère play (the player who cannot move wins).
    #[cfg_attr(feature = "cli", arg(long))]
    pub misere: bool,
    /// List every winning split, not only the first 20.
    #[cfg_attr(feature = "cli", arg(long))]
    pub all: bool,
    /// The lecture's table of heaps 1..HEAP (HEAP at most 100): normal and
    /// misère outcomes, a winning move for each, the lecture's slips.
    #[cfg_attr(feature = "cli", arg(long, conflicts_with_all = ["misere", "all"]))]
    pub lecture: bool,
}

/// Answers a parsed `nimrod query grundy`.
pub(super) fn answer(q: &GrundyQuery, ctx: &QueryContext) -> Result<Answer> {
    if q.lecture {
        super::lecture::answer(q.heap, ctx)
    } else if q.misere {
        query_misere(q.heap, ctx)
    } else {
        query_normal(q.heap, q.all, ctx)
    }
}

fn heap_in_table(t: &Table, heap: u64, what: &str) -> Result<()> {
    if heap >= t.len() {
        bail!(
            "heap {heap} is beyond the {what} table (bound {}); raise the bound in the config and rebuild",
            t.len().saturating_sub(1)
        );
    }
    Ok(())
}

fn query_normal(heap: u64, all: bool, ctx: &QueryContext) -> Result<Answer> {
    let t = open_table(&ctx.data_dir, "grundy/values")?;
    heap_in_table(&t, heap, "grundy/values")?;
    let g = t.view::<u16>(0, heap + 1)?;
    let value = g[heap as usize];
    let splits: Vec<(u64, u64)> = (1..heap.div_ceil(2))
        .filter(|&a| g[a as usize] == g[(heap - a) as usize])
        .map(|a| (a, heap - a))
        .collect();
    let rare_table = open_table(&ctx.data_dir, "grundy/rare").ok();
    let rare = match &rare_table {
        Some(r) => {
            let stored = r.get_by_key::<u16>(heap)?;
            ensure!(
                stored.is_none_or(|v| v == value) && stored.is_some() == is_rare_value(value),
                "grundy/rare and grundy/values disagree at heap {heap}; run nimrod verify"
            );
            stored.is_some()
        }
        None => is_rare_value(value),
    };
    Ok(Answer::of(&NormalAnswer {
        game: "grundy",
        play: "normal",
        heap,
        value,
        outcome: if value == 0 { "P" } else { "N" },
        rare,
        winning_splits: splits.iter().map(|&(a, b)| [a, b]).collect(),
        list_all: all,
    }))
}

/// `nimrod query grundy HEAP`.
#[derive(Serialize)]
struct NormalAnswer {
    game: &'static str,
    play: &'static str,
    heap: u64,
    value: u16,
    /// "P": the previous player wins; "N": the next player wins.
    outcome: &'static str,
    rare: bool,
    /// Every split to a zero position (the text shows the first 20).
    winning_splits: Vec<[u64; 2]>,
    #[serde(skip)]
    list_all: bool,
}

impl std::fmt::Display for NormalAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (heap, value) = (self.heap, self.value);
        write!(
            f,
            "Grundy's game, heap {heap}, normal play\n  value    G({heap}) = {value}\n  outcome  {} ({})\n  class    {}\n",
            self.outcome,
            if value == 0 { "previous player wins" } else { "next player wins" },
            if self.rare { "rare (even parity above the lowest bit)" } else { "common" }
        )?;
        if value == 0 {
            return writeln!(f, "  no split reaches a zero position");
        }
        let splits = &self.winning_splits;
        writeln!(f, "  winning splits (to a zero position): {}", splits.len())?;
        let shown = if self.list_all {
            splits.len()
        } else {
            splits.len().min(20)
        };
        for [a, b] in &splits[..shown] {
            writeln!(f, "    {heap} -> {a} + {b}")?;
        }
        if shown < splits.len() {
            writeln!(f, "    … {} more (--all lists them)", splits.len() - shown)?;
        }
        Ok(())
    }
}

fn query_misere(heap: u64, ctx: &QueryContext) -> Result<Answer> {
    let t = open_table(&ctx.data_dir, "grundy/misere")?;
    heap_in_table(&t, heap, "grundy/misere")?;
    let (win, split) = misere::decode(t.get::<u32>(heap)?);
    ensure!(
        split.is_none_or(|a| a >= 1 && 2 * a < heap),
        "{}: heap {heap} stores the impossible split {split:?}; run nimrod verify",
        t.path().display()
    );
    Ok(Answer::of(&MisereAnswer {
        game: "grundy",
        play: "misere",
        heap,
        outcome: if win { "N" } else { "P" },
        winning_split: split.map(|a| [a, heap - a]),
    }))
}

/// `nimrod query grundy HEAP --misere`.
#[derive(Serialize)]
struct MisereAnswer {
    game: &'static str,
    play: &'static str,
    heap: u64,
    /// "N": the player to move wins; "P": the player to move loses.
    outcome: &'static str,
    winning_split: Option<[u64; 2]>,
}

impl std::fmt::Display for MisereAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let heap = self.heap;
        writeln!(f, "Grundy's game, heap {heap}, misère play")?;
        writeln!(f, "  outcome  {}", self.outcome)?;
        match (self.outcome, self.winning_split) {
            ("P", _) => writeln!(f, "  every split loses"),
            (_, None) => writeln!(
                f,
                "  no move is possible, so the player to move has already won"
            ),
            (_, Some([a, b])) => writeln!(f, "  winning split {heap} -> {a} + {b}"),
        }
    }
}
