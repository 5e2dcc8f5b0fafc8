//! Octal games by code: values to a bound and a proved period.

pub mod code;
pub mod period;
pub mod solve;

use super::query::{open_table, Answer, QueryContext};
use super::{Game, Queries};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_ranked;
use crate::table::{Table, TableMeta};
use anyhow::{bail, ensure, Context, Result};
use code::OctalCode;
use period::Period;
use serde::{Deserialize, Serialize};
use serde_json::json;

const SOLVER_VERSION: u32 = 1;
const MAX_BOUND: u64 = 1 << 20;

pub struct Octal;

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

impl Game for Octal {
    fn summary(&self) -> &'static str {
        "octal games by code (0.77 Kayles, 0.137 Dawson's chess, …): values and proved periods"
    }

    fn verify(&self, table: &Table) -> Result<()> {
        let code = OctalCode::parse(&table.meta().table)?;
        let g = table.read_range::<u16>(0, table.len())?;
        let check = g.len().min(3000);
        ensure!(
            solve::values(&code, check - 1, || {}) == g[..check],
            "values differ from a fresh computation"
        );
        let stored: Option<Period> = serde_json::from_value(table.meta().stats["period"].clone())
            .context("period statistics are malformed")?;
        ensure!(
            stored == period::find(&g, code.max_removal()),
            "stored period is not the one the values prove"
        );
        Ok(())
    }
}

impl Queries for Octal {
    type Query = OctalQuery;

    fn query(&self, q: &OctalQuery, ctx: &QueryContext) -> Result<Answer> {
        query(&OctalCode::parse(&q.code)?, q.heap, ctx)
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

#[derive(clap::Parser)]
#[command(
    after_help = "Examples:\n  nimrod query octal 0.137 200\n  nimrod query octal 0.77 1000 --json"
)]
pub struct OctalQuery {
    /// Octal code, e.g. 0.137.
    pub code: String,
    /// Heap size.
    pub heap: u64,
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

fn query(code: &OctalCode, heap: u64, ctx: &QueryContext) -> Result<Answer> {
    let id = format!("octal/{}", code.canonical());
    let t = open_table(&ctx.data_dir, &id)?;
    let bound = t.len() - 1;
    let period: Option<Period> = serde_json::from_value(t.meta().stats["period"].clone())
        .with_context(|| format!("{id}: period statistics are malformed"))?;
    let (value, via) = if heap <= bound {
        (t.get::<u16>(heap)?, None)
    } else if let Some(p) = &period {
        let n0 = p.preperiod.max(1);
        let m = n0 + (heap - n0) % p.period;
        (t.get::<u16>(m)?, Some(m))
    } else {
        bail!("heap {heap} is beyond the {id} table (bound {bound}) and no period is proved; raise [octal] bound");
    };
    Ok(Answer::of(&OctalAnswer {
        game: "octal",
        code: code.canonical(),
        heap,
        value,
        outcome: if value == 0 { "P" } else { "N" },
        period,
        reduced_heap: via,
        table_bound: bound,
    }))
}

/// `nimrod query octal CODE HEAP`.
#[derive(Serialize)]
struct OctalAnswer {
    game: &'static str,
    code: String,
    heap: u64,
    value: u16,
    /// "P": the previous player wins; "N": the next player wins.
    outcome: &'static str,
    period: Option<Period>,
    /// The heap within the table whose value a heap beyond it takes, by
    /// the proved period.
    reduced_heap: Option<u64>,
    table_bound: u64,
}

impl std::fmt::Display for OctalAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (heap, value) = (self.heap, self.value);
        write!(
            f,
            "octal game {}, heap {heap}\n  value    G({heap}) = {value}",
            self.code
        )?;
        if let Some(m) = self.reduced_heap {
            write!(f, "  (= G({m}) by the proved period)")?;
        }
        write!(
            f,
            "\n  outcome  {}\n",
            if value == 0 {
                "P (previous player wins)"
            } else {
                "N (next player wins)"
            }
        )?;
        match &self.period {
            Some(p) => writeln!(
                f,
                "  period   {} from heap {} (proved by the Guy–Smith theorem with values to {})",
                p.period, p.preperiod, p.certified_with_values_to
            ),
            None => writeln!(
                f,
                "  period   none proved with values to {}",
                self.table_bound
            ),
        }
    }
}
