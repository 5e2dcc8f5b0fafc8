//! The half jobs: parameters, plan, one table per convention.

use super::solve::solve;
use super::{Convention, Half, MAX_BOUND, MAX_LISTED, SOLVER_VERSION};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_ranked;
use crate::table::TableMeta;
use anyhow::{ensure, Result};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HalfParams {
    bound: u64,
}

impl Planner for Half {
    fn name(&self) -> &'static str {
        crate::games::game::Game::name(self)
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

/// The parameters of a `half/…` job (hashed into its table's header, and
/// recorded as the table's parameters).
#[derive(Serialize)]
struct HalfJob {
    bound: u64,
    solver: u32,
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
