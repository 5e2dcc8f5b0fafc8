//! The Guess It job: the recursion over every pair of hand sizes, one table.

use super::{solve, GuessIt, FIELDS, MAX_HAND, SOLVER_VERSION};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_ranked;
use crate::table::TableMeta;
use anyhow::{ensure, Result};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
/// The `[guessit]` config section.
pub struct GuessItParams {
    /// Every state with m, n ≤ max_hand cards.
    pub max_hand: usize,
}

impl Planner for GuessIt {
    fn name(&self) -> &'static str {
        crate::games::game::Game::name(self)
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: GuessItParams = game_params(source, "guessit", section)?;
        ensure!(
            (1..=MAX_HAND).contains(&p.max_hand),
            "{source}: [guessit] max_hand = {} is out of range (1 ..= {MAX_HAND})",
            p.max_hand
        );
        let max = p.max_hand;
        Ok(vec![Job {
            id: "guessit/values".into(),
            deps: vec![],
            params: serde_json::to_value(TableParams {
                max_hand: max,
                solver: SOLVER_VERSION,
            })?,
            run: Box::new(move |ctx| build(ctx, max)),
            parts: None,
        }])
    }
}

fn build(ctx: &JobContext, max: usize) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "exact recursion", 1);
    let exact = solve::solve_all(max, max);
    let fast = solve::value_f64(max, max);
    let mut entries = Vec::with_capacity((max + 1) * (max + 1) * FIELDS);
    let mut rationals = Vec::new();
    for m in 0..=max {
        for n in 0..=max {
            let s = &exact[m][n];
            let v = solve::to_f64(&s.value);
            ensure!(
                (v - fast[m][n]).abs() < 1e-9,
                "({m},{n}): exact {v} and f64 {} disagree",
                fast[m][n]
            );
            entries.extend([
                v,
                solve::to_f64(&s.guess),
                solve::to_f64(&s.ask),
                solve::to_f64(&s.bluff),
                solve::to_f64(&s.call),
            ]);
            rationals.push(ExactEntry {
                m,
                n,
                value: s.value.to_string(),
                bluff: s.bluff.to_string(),
                call: s.call.to_string(),
            });
        }
    }
    write_ranked(
        &ctx.output,
        &entries,
        &TableMeta::new(
            "guessit",
            "values",
            ctx.params.clone(),
            "((m * (max_hand + 1)) + n) * 5 + field; m = mover's cards, n = opponent's",
            "f64 fields: win probability of the player to move, P(guess), P(honest ask), P(bluff), opponent's P(call an answered no genuine)",
            serde_json::to_value(GuessItStats {
                max_hand: max,
                exact: rationals,
            })?,
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    stage.inc(1);
    stage.finish();
    Ok(())
}

/// The parameters of the `guessit/values` job, which its table records
/// and a query reads back.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TableParams {
    pub(super) max_hand: usize,
    pub(super) solver: u32,
}

/// One position's exact rational values, as decimal fractions.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExactEntry {
    pub(super) m: usize,
    pub(super) n: usize,
    pub(super) value: String,
    pub(super) bluff: String,
    pub(super) call: String,
}

/// Statistics of `guessit/values`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GuessItStats {
    pub(super) max_hand: usize,
    pub(super) exact: Vec<ExactEntry>,
}
