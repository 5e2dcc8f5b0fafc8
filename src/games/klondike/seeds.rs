//! `klondike/solvitaire-R`: the solver's verdict on a range of Solvitaire's
//! numbered deals (`solvitaire_seeds = [FIRST, LAST]` in `[klondike]`, seed
//! LAST excluded), every card visible, built whole or in parts (`nimrod
//! build --only klondike/solvitaire-R --shard I/S`: the seeds cut into
//! contiguous ranges, merged without recomputing). Its statistics give the
//! winnable share with a Wilson interval beside Solvitaire's published share
//! for the same rules, so the two can be read side by side.

use super::cards::{solvitaire_deck, MAX_SOLVITAIRE_SEED};
use super::independent::rules::Table as IndependentTable;
use super::parts::PartKind;
use super::records::NodeQuantiles;
use super::solver;
use super::state::{Redeal, Rules, State};
use super::verdict::{Verdict, LOST, UNKNOWN, WON};
use super::{rules_id, stats, SOLVER_VERSION};
use crate::pipeline::{Job, JobContext, JobParts, Shard};
use crate::table::writer::write_ranked;
use crate::table::{Table, TableMeta};
use anyhow::{ensure, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most seeds one config may ask for: a byte a seed in the table, and
/// at the measured ~0.1 s a seed, about a CPU-day.
pub const MAX_SEEDS: u64 = 1_000_000;

/// The parameters of `klondike/solvitaire-R` (hashed into its header).
#[derive(Clone, Serialize, Deserialize)]
pub(super) struct SeedsJob {
    rules: Rules,
    /// First seed.
    first: u64,
    /// One past the last seed.
    last: u64,
    budget: u64,
    version: u32,
}

/// The seed range of the config, checked: `[FIRST, LAST]`, seed LAST
/// excluded, at most [`MAX_SEEDS`] seeds, every seed a Solvitaire seed.
pub(super) fn seed_range(source: &str, range: &[u64]) -> Result<(u64, u64)> {
    ensure!(
        range.len() == 2,
        "{source}: [klondike] solvitaire_seeds = {range:?}: give [FIRST, LAST] (seed LAST excluded)"
    );
    let (first, last) = (range[0], range[1]);
    ensure!(
        first < last && last <= MAX_SOLVITAIRE_SEED as u64 + 1 && last - first <= MAX_SEEDS,
        "{source}: [klondike] solvitaire_seeds = [{first}, {last}] is out of range: FIRST < LAST <= {}, at most {MAX_SEEDS} seeds",
        MAX_SOLVITAIRE_SEED as u64 + 1
    );
    Ok((first, last))
}

/// The seeds and the budget of a `klondike/solvitaire-R` job's
/// parameters (None for any other job's).
pub(super) fn deals_and_budget(params: &serde_json::Value) -> Option<(u64, u64)> {
    let j: SeedsJob = serde_json::from_value(params.clone()).ok()?;
    Some((j.seeds(), j.budget))
}

/// The job of one rule set over seeds `first..last`.
pub(super) fn job(rules: Rules, first: u64, last: u64, budget: u64) -> Result<Job> {
    let params = SeedsJob {
        rules,
        first,
        last,
        budget,
        version: SOLVER_VERSION,
    };
    let whole = params.clone();
    Ok(Job {
        id: format!("klondike/solvitaire-{}", rules_id(&rules)),
        deps: vec![],
        params: serde_json::to_value(&params)?,
        run: Box::new(move |ctx| {
            let found = whole.solve(ctx, whole.first..whole.last)?;
            whole.write(ctx, &found)
        }),
        parts: Some(Arc::new(params)),
    })
}

/// Solvitaire's published winnable share for these rules (Blake and
/// Gent, 2019: 10^6 seeds, draw one or three, unlimited redeals, worrying
/// back allowed), as (share %, ± %).
pub fn published_share(rules: &Rules) -> Option<(f64, f64)> {
    match (rules.draw, rules.redeal, rules.worry_back) {
        (1, Redeal::Unlimited, true) => Some((90.480, 0.116)),
        (3, Redeal::Unlimited, true) => Some((81.945, 0.084)),
        _ => None,
    }
}

/// A seed's verdict code and the classes its search stored, packed as a
/// part table keeps them: code | classes << 8.
fn pack(code: u8, classes: u64) -> u64 {
    code as u64 | classes << 8
}

impl SeedsJob {
    /// Decides seeds `range`: a win replayed by the rules engine (inside
    /// the solver) and by the independent one before it counts.
    fn solve(&self, ctx: &JobContext, range: std::ops::Range<u64>) -> Result<Vec<u64>> {
        let stage = ctx
            .progress
            .stage(ctx.id, "Solvitaire seeds", range.end - range.start);
        let found = range
            .into_par_iter()
            .map(|seed| {
                let deck = solvitaire_deck(seed as u32);
                let start = State::from_deck(&deck);
                let out = solver::solve_from(&start, &self.rules, self.budget);
                if let Verdict::Won(line) = &out.verdict {
                    IndependentTable::from_deck(&deck)
                        .replay_win(line, &self.rules)
                        .map_err(|e| anyhow::anyhow!("solvitaire:{seed}: {}", e.0))?;
                }
                stage.inc(1);
                Ok(pack(out.verdict.code(), out.classes))
            })
            .collect::<Result<Vec<u64>>>()
            .with_context(|| format!("{}: a winning line failed its replay", ctx.id))?;
        stage.finish();
        Ok(found)
    }

    /// The table: a verdict byte a seed, the statistics over all of them.
    fn write(&self, ctx: &JobContext, found: &[u64]) -> Result<()> {
        let codes: Vec<u8> = found.iter().map(|&x| x as u8).collect();
        let count = |c: u8| codes.iter().filter(|&&x| x == c).count() as u64;
        let (won, lost, unknown) = (count(WON), count(LOST), count(UNKNOWN));
        let decided = won + lost;
        let classes = NodeQuantiles::of(
            found
                .iter()
                .filter(|&&x| x as u8 != UNKNOWN)
                .map(|&x| x >> 8)
                .collect(),
        );
        let share = |n: u64| 100.0 * n as f64 / decided.max(1) as f64;
        let (lo, hi) = stats::wilson(won, decided);
        let record = SeedStats {
            rules: self.rules.label(),
            first_seed: self.first,
            last_seed_excluded: self.last,
            budget: self.budget,
            winnable: won,
            not_winnable: lost,
            unknown,
            winnable_percent_of_decided: share(won),
            ci95_percent: (100.0 * lo, 100.0 * hi),
            bounds_percent_if_unknowns_lost_or_won: (
                100.0 * won as f64 / codes.len().max(1) as f64,
                100.0 * (won + unknown) as f64 / codes.len().max(1) as f64,
            ),
            solvitaire_published_percent: published_share(&self.rules),
            classes_decided: classes,
        };
        write_ranked(
            &ctx.output,
            &codes,
            &TableMeta::new(
                "klondike",
                &format!("solvitaire-{}", rules_id(&self.rules)),
                ctx.params.clone(),
                "seed - first_seed",
                "u8 verdict with every card visible: 0 not winnable, 1 winnable, 2 unknown (over the budget)",
                serde_json::to_value(&record)?,
            )
            .stamped(ctx.stamp()),
            ctx.param_hash,
        )?;
        Ok(())
    }

    fn seeds(&self) -> u64 {
        self.last - self.first
    }
}

/// The Solvitaire jobs' part tables.
const PARTS: PartKind = PartKind {
    items: "seeds",
    index: "seed - the part's first seed",
    entry: "u64: verdict code | classes stored << 8",
};

impl JobParts for SeedsJob {
    fn build_part(&self, ctx: &JobContext, part: Shard) -> Result<()> {
        let r = part.range(self.seeds());
        let range = self.first + r.start..self.first + r.end;
        let found = self.solve(ctx, range.clone())?;
        PARTS.write(
            ctx,
            &format!("solvitaire-{}", rules_id(&self.rules)),
            part,
            range,
            &found,
        )
    }

    fn merge(&self, ctx: &JobContext, parts: &[Table]) -> Result<()> {
        let found = PARTS.merged(parts, self.first, self.seeds())?;
        self.write(ctx, &found)
    }
}

/// Statistics of `klondike/solvitaire-R`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedStats {
    /// The rule set in words.
    pub rules: String,
    /// First seed.
    pub first_seed: u64,
    /// One past the last seed.
    pub last_seed_excluded: u64,
    /// Classes per seed before "unknown".
    pub budget: u64,
    /// Seeds proved winnable.
    pub winnable: u64,
    /// Seeds proved not winnable.
    pub not_winnable: u64,
    /// Seeds over the budget.
    pub unknown: u64,
    /// Winnable over decided, in percent.
    pub winnable_percent_of_decided: f64,
    /// Its 95% Wilson interval, in percent.
    pub ci95_percent: (f64, f64),
    /// Winnable over all seeds if every unknown were lost, or won.
    pub bounds_percent_if_unknowns_lost_or_won: (f64, f64),
    /// Solvitaire's published share and its ± for the same rules (10^6
    /// seeds), when it published one.
    pub solvitaire_published_percent: Option<(f64, f64)>,
    /// Classes stored by the searches of decided seeds.
    pub classes_decided: NodeQuantiles,
}
