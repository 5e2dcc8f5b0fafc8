//! The octal jobs: parameters, plan, one table of values per code.

use super::code::OctalCode;
use super::period::{self};
use super::sparse::{self, Checkpoint};
use super::{Octal, MAX_BOUND, SOLVER_VERSION};
use crate::pipeline::checkpoint;
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, OnDisk, Planner, Resume};
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
        crate::games::game::Game::name(self)
    }
    /// The values are held in memory as they are computed (two bytes a
    /// heap). The time depends on how sparse the code's values are, which
    /// the parameters do not tell: no time is estimated.
    fn estimate(&self, job: &Job) -> Option<crate::pipeline::Estimate> {
        let bound = job.params.get("bound")?.as_u64()?;
        let heaps = bound.checked_add(1)?;
        Some(crate::pipeline::Estimate {
            entries: heaps,
            output_bytes: heaps.saturating_mul(2),
            memory_bytes: heaps.saturating_mul(2),
            work: heaps,
            work_unit: "heaps".into(),
            cpu_seconds: None,
        })
    }
    /// A build goes on from its saved state when it is of this code and
    /// solver and within the bound (read through its checksum: a state of
    /// 2^32 heaps is 8 GiB of values, some seconds).
    fn on_disk(&self, job: &Job, output: &std::path::Path) -> Option<OnDisk> {
        let code = job.params.get("code")?.as_str()?;
        let bound = job.params.get("bound")?.as_u64()?;
        let saving = saving_for(output, code).ok()?;
        let name = saving.path.display().to_string();
        let resumes = sparse::read_saving(&saving).and_then(|saved| {
            saved
                .map(|s| sparse::check_within(&name, s.next_heap, bound).map(|()| s.next_heap))
                .transpose()
        });
        Some(match resumes {
            Ok(Some(next)) => OnDisk::Started(Resume {
                work_done: next,
                from: format!("its saved state at heap {next} ({name})"),
                cpu_seconds_left: None,
            }),
            Ok(None) => OnDisk::NotStarted { why: None },
            Err(e) => OnDisk::NotStarted {
                why: Some(format!("saved state not used: {e:#}")),
            },
        })
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

/// Where and under which key the build of `code` (canonical) to `output`
/// saves its state.
fn saving_for(output: &std::path::Path, code: &str) -> Result<checkpoint::Saving> {
    checkpoint::Saving::beside(
        output,
        crate::pipeline::param_hash(
            "octal sparse-space state",
            &json!({"code": code, "solver": SOLVER_VERSION}),
        ),
    )
}

/// The parameters of one `octal/CODE` job (hashed into its table's
/// header, and recorded as the table's parameters).
#[derive(Serialize)]
struct OctalJob {
    code: String,
    bound: u64,
    solver: u32,
}

/// From this many values on, a build may stop short of its bound at a
/// power of two: once a period is proved (the rest follows from it), or
/// when the values are not sparse (the method would cost n² / 64 and more).
/// Below it a build always reaches its bound: a period proved earlier
/// fills the values in to the bound, the same values a mex would give.
pub(super) const EARLY_STOP_FROM: u64 = 1 << 20;

/// A build stops as not sparse when more than 1/`NOT_SPARSE` of the
/// heaps so far are rare under the best mask.
const NOT_SPARSE: u64 = 64;

fn build(ctx: &JobContext, code: &OctalCode, bound: u64) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "sparse-space values", bound + 1);
    let mut stopped: Option<String> = None;
    // The state at a heap does not depend on the bound: a stopped solve to
    // 2^32 resumes as part of one to a larger bound.
    let saving = saving_for(&ctx.output, &code.canonical())?;
    let say = |line: String| ctx.progress.println(&format!("{}: {line}", ctx.id));
    let (g, sparse_stats) = sparse::values_resumable(
        code,
        bound,
        Some(&saving),
        |k| stage.inc(k),
        |g, st| {
            let n = g.len() as u64;
            if let Some(p) = period::find(g, code.max_removal()) {
                let to = bound.min(n.max(EARLY_STOP_FROM));
                if to < bound {
                    stopped = Some(format!(
                        "period {} from heap {} proved with {n} values",
                        p.period, p.preperiod
                    ));
                }
                return Checkpoint::Periodic {
                    period: p.period,
                    preperiod: p.preperiod.max(1),
                    to,
                };
            }
            if n >= EARLY_STOP_FROM && (st.dense || st.rare_heaps > n / NOT_SPARSE) {
                stopped = Some(if st.dense {
                    format!("values not sparse: over an eighth of {n} heaps rare under every mask")
                } else {
                    format!(
                        "values not sparse: {} of {n} heaps rare under the best mask",
                        st.rare_heaps
                    )
                });
                return Checkpoint::Stop;
            }
            Checkpoint::Continue
        },
        &mut |step| say(step.line("heap")),
    )?;
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
            "computed_to": g.len() as u64 - 1,
            "stopped": stopped,
            "sparse": sparse_stats,
        }),
        job: Some(ctx.stamp()),
    };
    write_ranked(&ctx.output, &g, &meta, ctx.param_hash)?;
    if let Some(line) = checkpoint::remove_beside(&ctx.output) {
        say(line);
    }
    stage.finish();
    Ok(())
}
