//! The octal jobs: parameters, plan, one table of values per code.

use super::code::OctalCode;
use super::period::{self};
use super::{solve, Octal, MAX_BOUND, SOLVER_VERSION};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_ranked;
use crate::table::TableMeta;
use anyhow::{ensure, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OctalParams {
    /// Codes such as "0.77"; each becomes the table octal/<code>.
    games: Vec<String>,
    bound: u64,
}

impl Planner for Octal {
    fn name(&self) -> &'static str {
        "octal"
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: OctalParams = game_params(source, "octal", section)?;
        ensure!(
            (1..=MAX_BOUND).contains(&p.bound),
            "{source}: [octal] bound = {} is out of range (1 ..= {MAX_BOUND})",
            p.bound
        );
        let mut jobs = Vec::new();
        for g in &p.games {
            let code = OctalCode::parse(g).with_context(|| format!("{source}: [octal] games"))?;
            let bound = p.bound;
            let name = code.canonical();
            jobs.push(Job {
                id: format!("octal/{name}"),
                deps: vec![],
                params: serde_json::to_value(OctalJob {
                    code: name,
                    bound,
                    solver: SOLVER_VERSION,
                })?,
                run: Box::new(move |ctx| build(ctx, &code, bound)),
                parts: None,
            });
        }
        Ok(jobs)
    }
}

/// The parameters of one `octal/CODE` job (hashed into its table's
/// header, and recorded as the table's parameters).
#[derive(Serialize)]
struct OctalJob {
    code: String,
    bound: u64,
    solver: u32,
}

fn build(ctx: &JobContext, code: &OctalCode, bound: u64) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "values", bound + 1);
    let g = solve::values(code, bound as usize, || stage.inc(1));
    let period = period::find(&g, code.max_removal());
    let max = g.iter().copied().max().unwrap_or(0);
    let meta = TableMeta {
        game: "octal".into(),
        table: code.canonical(),
        params: ctx.params.clone(),
        index: "heap-size".into(),
        entry: "u16 Sprague-Grundy value G(n)".into(),
        tool_version: env!("CARGO_PKG_VERSION").into(),
        stats: json!({
            "bound": bound,
            "max_value": max,
            "max_removal": code.max_removal(),
            "period": period,
        }),
        job: Some(ctx.stamp()),
    };
    write_ranked(&ctx.output, &g, &meta, ctx.param_hash)?;
    stage.finish();
    Ok(())
}
