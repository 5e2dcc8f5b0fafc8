//! The single-pile game where a move takes 1..=⌊n/2⌋ matches, in both
//! conventions. The table holds, per pile size, the smallest winning take
//! (0 for a safe position); the safe positions are read off the table.

use super::query::{open_table, Answer, QueryContext};
use super::{Game, Queries};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_ranked;
use crate::table::{Table, TableMeta};
use anyhow::{bail, ensure, Result};
use serde::{Deserialize, Serialize};
use serde_json::json;

const SOLVER_VERSION: u32 = 1;
const MAX_BOUND: u64 = 1 << 32;
/// Safe positions listed in the statistics (they are sparse, so few).
const MAX_LISTED: usize = 200;

pub struct Half;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HalfParams {
    bound: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    LastMoverWins,
    LastMoverLoses,
}

impl Convention {
    pub fn table(self) -> &'static str {
        match self {
            Convention::LastMoverWins => "half/normal",
            Convention::LastMoverLoses => "half/last-loses",
        }
    }
}

/// Smallest winning take for every pile 0..=bound (0 = safe: every move
/// loses, or in last-loses play the pile admits no move).
pub fn solve(bound: u64, conv: Convention) -> Vec<u32> {
    let mut best = vec![0u32; bound as usize + 1];
    // Largest safe pile seen so far: a take wins iff it lands on a safe pile
    // in [n − ⌊n/2⌋, n − 1]; the largest safe pile below n is the only
    // candidate needed for the smallest take.
    let mut safe: Vec<u64> = Vec::new();
    for n in 0..=bound {
        let lo = n - n / 2;
        let no_moves = n / 2 == 0;
        let win_take = if no_moves {
            match conv {
                Convention::LastMoverWins => None,
                Convention::LastMoverLoses => Some(0),
            }
        } else {
            safe.last().filter(|&&s| s >= lo).map(|&s| n - s)
        };
        match win_take {
            None => {
                safe.push(n);
                best[n as usize] = 0;
            }
            Some(t) => best[n as usize] = t as u32,
        }
    }
    // Piles without moves in last-loses play are wins with no take; they are
    // marked by u32::MAX so that 0 keeps meaning "safe".
    if conv == Convention::LastMoverLoses {
        for n in 0..=bound.min(1) {
            best[n as usize] = u32::MAX;
        }
    }
    best
}

impl Planner for Half {
    fn name(&self) -> &'static str {
        "half"
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: HalfParams = game_params(source, "half", section)?;
        ensure!(
            (1..=MAX_BOUND).contains(&p.bound),
            "{source}: [half] bound = {} is out of range (1 ..= {MAX_BOUND})",
            p.bound
        );
        Ok([Convention::LastMoverWins, Convention::LastMoverLoses]
            .into_iter()
            .map(|conv| {
                let bound = p.bound;
                Job {
                    id: conv.table().into(),
                    deps: vec![],
                    params: serde_json::to_value(HalfJob {
                        bound,
                        solver: SOLVER_VERSION,
                    })
                    .expect("plain struct"),
                    run: Box::new(move |ctx| build(ctx, bound, conv)),
                    parts: None,
                }
            })
            .collect())
    }
}

impl Game for Half {
    fn summary(&self) -> &'static str {
        "single pile, take 1..⌊n/2⌋: safe positions in both conventions"
    }

    fn verify(&self, table: &Table) -> Result<()> {
        let conv = match table.meta().table.as_str() {
            "normal" => Convention::LastMoverWins,
            "last-loses" => Convention::LastMoverLoses,
            other => bail!("unknown half table {other:?}"),
        };
        let stored = table.read_range::<u32>(0, table.len())?;
        let check = stored.len().min(5000);
        let brute = brute_force(check as u64 - 1, conv);
        for n in 0..check {
            let safe = stored[n] == 0;
            ensure!(
                safe == brute[n],
                "pile {n}: table says safe={safe}, search says {}",
                brute[n]
            );
        }
        Ok(())
    }
}

impl Queries for Half {
    type Query = HalfQuery;

    fn query(&self, q: &HalfQuery, ctx: &QueryContext) -> Result<Answer> {
        let conv = if q.last_loses {
            Convention::LastMoverLoses
        } else {
            Convention::LastMoverWins
        };
        let t = open_table(&ctx.data_dir, conv.table())?;
        if q.pile >= t.len() {
            bail!(
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
}

/// Reference: `safe[n]` by trying every take (O(n²)).
pub fn brute_force(bound: u64, conv: Convention) -> Vec<bool> {
    let mut safe = vec![false; bound as usize + 1];
    for n in 0..=bound as usize {
        let moves: Vec<usize> = (1..=n / 2).map(|k| n - k).collect();
        safe[n] = if moves.is_empty() {
            conv == Convention::LastMoverWins
        } else {
            moves.iter().all(|&m| !safe[m])
        };
    }
    safe
}

/// The parameters of a `half/…` job (hashed into its table's header, and
/// recorded as the table's parameters).
#[derive(Serialize)]
struct HalfJob {
    bound: u64,
    solver: u32,
}

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

#[derive(clap::Parser)]
#[command(after_help = "Examples:\n  nimrod query half 47\n  nimrod query half 47 --last-loses")]
pub struct HalfQuery {
    /// Pile size.
    pub pile: u64,
    /// The player who takes the last permitted move loses.
    #[arg(long)]
    pub last_loses: bool,
}

fn build(ctx: &JobContext, bound: u64, conv: Convention) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "positions", 1);
    let best = solve(bound, conv);
    let safe: Vec<u64> = (0..=bound).filter(|&n| best[n as usize] == 0).collect();
    let meta = TableMeta {
        game: "half".into(),
        table: conv.table().trim_start_matches("half/").into(),
        params: ctx.params.clone(),
        index: "pile-size".into(),
        entry: "u32 smallest winning take; 0 = safe position; u32::MAX = no move possible (a win in last-loses play)".into(),
        tool_version: env!("CARGO_PKG_VERSION").into(),
        stats: json!({
            "bound": bound,
            "safe_count": safe.len(),
            "safe_positions": &safe[..safe.len().min(MAX_LISTED)],
        }),
        job: Some(ctx.stamp()),
    };
    write_ranked(&ctx.output, &best, &meta, ctx.param_hash)?;
    stage.inc(1);
    stage.finish();
    Ok(())
}
