//! `nimrod query grundy`: a heap's value and winning splits, or its misère outcome.

use super::coding::GrundyValues;
use super::misere;
use super::rare::is_rare_value;
use crate::games::query::{open_table, Answer, QueryContext};
use crate::table::Table;
use anyhow::{ensure, Result};
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
#[derive(Clone, Debug, PartialEq, Default)]
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
        crate::bail_input!(
            "heap {heap} is beyond the {what} table (bound {}); raise the bound in the config and rebuild",
            t.len().saturating_sub(1)
        );
    }
    Ok(())
}

/// Heaps up to this list every winning split, as they always have; past
/// it, without `--all`, the scan stops at the first 20 (a complete list
/// reads the whole table: seconds at 2^32).
const COMPLETE_SPLITS_UP_TO: u64 = 1 << 24;

/// Splits shown, and found before the scan stops past `COMPLETE_SPLITS_UP_TO`.
const SHOWN_SPLITS: usize = 20;

fn query_normal(heap: u64, all: bool, ctx: &QueryContext) -> Result<Answer> {
    let t = open_table(&ctx.data_dir, "grundy/values")?;
    heap_in_table(&t, heap, "grundy/values")?;
    let values = GrundyValues::new(&t)?;
    let value = values.get(heap)?;
    let complete = all || heap <= COMPLETE_SPLITS_UP_TO;
    let splits = winning_splits(
        &values,
        heap,
        if complete { usize::MAX } else { SHOWN_SPLITS },
    )?;
    let complete = complete || splits.len() < SHOWN_SPLITS;
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
        winning_splits_complete: complete,
        list_all: all,
    }))
}

/// The splits a + b = heap (a < b) to a zero position, G(a) = G(b), smallest
/// a first, at most `most`. Reads the table in growing chunks from both
/// ends, so the first few of a big heap cost microseconds, not a scan.
fn winning_splits(t: &GrundyValues, heap: u64, most: usize) -> Result<Vec<(u64, u64)>> {
    let mut out = Vec::new();
    let end = heap.div_ceil(2); // a < end, so a < heap − a
    let mut lo = 1u64;
    let mut chunk = 1u64 << 12;
    while lo < end && out.len() < most {
        let hi = end.min(lo + chunk);
        let low = t.read(lo, hi - lo)?;
        // The partners heap − a, from heap − hi + 1 up to heap − lo: the
        // partner of a sits at hi − 1 − a in this view.
        let high = t.read(heap - hi + 1, hi - lo)?;
        for a in lo..hi {
            if low[(a - lo) as usize] == high[(hi - 1 - a) as usize] {
                out.push((a, heap - a));
                if out.len() == most {
                    break;
                }
            }
        }
        lo = hi;
        chunk = (chunk * 2).min(1 << 24);
    }
    Ok(out)
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
    /// Splits to a zero position, smallest part first: every one when
    /// `winning_splits_complete`, else the first 20 (heaps past 2^24
    /// without `--all`). The text shows the first 20.
    winning_splits: Vec<[u64; 2]>,
    winning_splits_complete: bool,
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
        if self.winning_splits_complete {
            writeln!(f, "  winning splits (to a zero position): {}", splits.len())?;
        } else {
            writeln!(
                f,
                "  winning splits (to a zero position): at least {}",
                splits.len()
            )?;
        }
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
        } else if !self.winning_splits_complete {
            writeln!(
                f,
                "    … the first {shown}; --all finds every one (a scan of the whole table)"
            )?;
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
