//! `klondike/nopeek-R-sS`: the no-peek player's games on deals
//! `0..nopeek_deals` under rule set R with S samples a decision, built
//! whole or in parts (`nimrod build --only klondike/nopeek-R-sS --shard
//! I/P`: the deals cut into contiguous ranges, merged without replaying).
//! The report compares them with the strong priority list on the same
//! deals and with the solver's verdicts.

use super::cards::shuffled;
use super::nopeek::{self, NoPeek, NoPeekGame};
use super::parts::PartKind;
use super::state::{Rules, State};
use super::{rules_id, stats, MAX_GREEDY_DEALS};
use crate::pipeline::{Job, JobContext, JobParts, Shard};
use crate::table::writer::write_ranked;
use crate::table::{Table, TableMeta};
use anyhow::{ensure, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The player's version, in the job's parameters: a player that chooses
/// differently rebuilds its tables. 1: hindsight optimisation over
/// reveals (`nopeek`). 2: a candidate that can no longer beat the best is
/// not played out further (the same moves, fewer solves recorded), and a
/// sample's solve stores at most 2*10^4 classes (was 2*10^5).
pub const NOPEEK_VERSION: u32 = 2;

/// The parameters of `klondike/nopeek-R-sS` (hashed into its header).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoPeekJob {
    /// The rule set.
    pub rules: Rules,
    /// Deals `0..deals`.
    pub deals: u64,
    /// Samples a decision.
    pub samples: u32,
    /// Classes a sample's solve may store.
    pub budget: u64,
    /// Candidates played out on every won sample.
    pub candidates: usize,
    /// Seeds the samples, with each view.
    pub seed: u64,
    /// The player's version.
    pub version: u32,
}

/// Samples a decision when the config names deals but no count.
pub const DEFAULT_SAMPLES: u32 = 16;

/// The seed of every build's samples (a fixed number: the same config
/// gives the same games).
pub const SEED: u64 = 1951;

/// The job id of rule set `rules` at `samples` samples.
pub fn job_id(rules: &Rules, samples: u32) -> String {
    format!("klondike/nopeek-{}-s{samples}", rules_id(rules))
}

/// Checks the config's no-peek keys.
pub fn check(source: &str, deals: u64, samples: &[u32]) -> Result<()> {
    ensure!(
        deals <= MAX_GREEDY_DEALS,
        "{source}: [klondike] nopeek_deals = {deals} is out of range (0 ..= {MAX_GREEDY_DEALS})"
    );
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    ensure!(
        sorted.len() == samples.len(),
        "{source}: [klondike] nopeek_samples {samples:?} names a count twice"
    );
    Ok(())
}

/// The job of one rule set and sample count, each sample's solve storing
/// at most `budget` classes (the player's default when None).
pub fn job(rules: Rules, deals: u64, samples: u32, budget: Option<u64>) -> Result<Job> {
    let mut player = NoPeek::with_samples(samples);
    if let Some(b) = budget {
        player.budget = b;
    }
    let params = NoPeekJob {
        rules,
        deals,
        samples,
        budget: player.budget,
        candidates: player.candidates,
        seed: SEED,
        version: NOPEEK_VERSION,
    };
    let whole = params.clone();
    Ok(Job {
        id: job_id(&rules, samples),
        deps: vec![],
        params: serde_json::to_value(&params)?,
        run: Box::new(move |ctx| {
            let games = whole.play(ctx, 0..whole.deals);
            whole.write(ctx, &games)
        }),
        parts: Some(Arc::new(params)),
    })
}

/// What `nimrod plan` says of a no-peek job: a game a deal, each decision
/// solving its samples a thread at a time (about 12.5 bytes a class).
pub fn estimate(j: &NoPeekJob) -> crate::pipeline::Estimate {
    crate::pipeline::Estimate {
        entries: j.deals,
        output_bytes: j.deals * 8,
        memory_bytes: j.budget.saturating_mul(25) / 2,
        work: j.deals,
        work_unit: format!(
            "games, {} samples a decision, at most {} classes a sample",
            j.samples, j.budget
        ),
        cpu_seconds: None,
    }
}

/// A game packed as a table keeps it: cards home, then moves, decisions
/// and solves (each saturated to its field).
fn pack(g: &NoPeekGame) -> u64 {
    u64::from(g.home) | (g.line.len() as u64).min(0xFFFF) << 8 | u64::from(g.decisions.min(0xFFFF)) << 24 | g.solves.min(0xFF_FFFF) << 40
}

/// Cards home of a packed game.
pub fn home_of(packed: u64) -> u8 {
    packed as u8
}

fn field(packed: u64, shift: u32, bits: u32) -> u64 {
    packed >> shift & ((1 << bits) - 1)
}

impl NoPeekJob {
    /// The table's name ("nopeek-d3-unlimited-s64").
    fn table_name(&self) -> String {
        format!("nopeek-{}-s{}", rules_id(&self.rules), self.samples)
    }

    fn player(&self) -> NoPeek {
        NoPeek {
            samples: self.samples,
            budget: self.budget,
            candidates: self.candidates,
        }
    }

    /// Plays deals `range`.
    fn play(&self, ctx: &JobContext, range: std::ops::Range<u64>) -> Vec<u64> {
        let stage = ctx
            .progress
            .stage(ctx.id, "no-peek games", range.end - range.start);
        let player = self.player();
        let games = range
            .into_par_iter()
            .map(|deal| {
                let g = nopeek::play_game(
                    State::from_deck(&shuffled(deal)),
                    &self.rules,
                    &player,
                    self.seed,
                );
                stage.inc(1);
                pack(&g)
            })
            .collect();
        stage.finish();
        games
    }

    /// The table: a packed game a deal, the statistics over all of them.
    fn write(&self, ctx: &JobContext, games: &[u64]) -> Result<()> {
        let deals = games.len() as u64;
        let wins = games.iter().filter(|&&g| home_of(g) == 52).count() as u64;
        let mean = |shift, bits| {
            games.iter().map(|&g| field(g, shift, bits)).sum::<u64>() as f64 / deals.max(1) as f64
        };
        let record = NoPeekStats {
            rules: self.rules.label(),
            player: label(self.samples),
            deals,
            wins,
            win_rate: wins as f64 / deals.max(1) as f64,
            ci95: stats::wilson(wins, deals),
            mean_moves: mean(8, 16),
            mean_decisions: mean(24, 16),
            mean_solves: mean(40, 24),
        };
        write_ranked(
            &ctx.output,
            games,
            &TableMeta::new(
                "klondike",
                &self.table_name(),
                ctx.params.clone(),
                "deal",
                "u64: cards home (52 = won) | moves << 8 | decisions << 24 | solves << 40",
                serde_json::to_value(&record)?,
            )
            .stamped(ctx.stamp()),
            ctx.param_hash,
        )?;
        Ok(())
    }
}

/// The report's name for the player at `samples` samples.
pub fn label(samples: u32) -> String {
    format!("no-peek search, {samples} samples")
}

/// Statistics of `klondike/nopeek-R-sS`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoPeekStats {
    /// The rule set in words.
    pub rules: String,
    /// "no-peek search, S samples".
    pub player: String,
    /// Deals played.
    pub deals: u64,
    /// Deals won.
    pub wins: u64,
    /// Wins over deals.
    pub win_rate: f64,
    /// Its 95% Wilson interval.
    pub ci95: (f64, f64),
    /// Moves a game.
    pub mean_moves: f64,
    /// Decisions (plans chosen) a game.
    pub mean_decisions: f64,
    /// Solves of samples a game.
    pub mean_solves: f64,
}

/// The no-peek jobs' part tables.
const PARTS: PartKind = PartKind {
    items: "deals",
    index: "deal - the part's first deal",
    entry: "u64: a packed game, as the whole table",
};

impl JobParts for NoPeekJob {
    fn build_part(&self, ctx: &JobContext, part: Shard) -> Result<()> {
        let range = part.range(self.deals);
        let games = self.play(ctx, range.clone());
        PARTS.write(ctx, &self.table_name(), part, range, &games)
    }

    fn merge(&self, ctx: &JobContext, parts: &[Table]) -> Result<()> {
        let games = PARTS.merged(parts, 0, self.deals)?;
        self.write(ctx, &games)
    }
}
