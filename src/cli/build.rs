use super::emit;
use anyhow::{bail, Result};
use nimrod::pipeline::{run_build, BuildOptions, Config, JobOutcome, Shard};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct BuildArgs {
    /// TOML config; without it the embedded default is used.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Build only these jobs (id like grundy/values, or a game name) and their dependencies.
    #[arg(long)]
    only: Vec<String>,
    /// Directory of the tables (default: $NIMROD_DATA, else ./data).
    #[arg(
        long,
        env = "NIMROD_DATA",
        hide_env_values = true,
        default_value = "data"
    )]
    data: PathBuf,
    /// Worker threads (default: all cores). Output bytes do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Rebuild tables even when they are complete and current (with
    /// --only, the jobs it names, not their dependencies).
    #[arg(long)]
    force: bool,
    /// With --force --only: rebuild the dependencies too.
    #[arg(long, requires = "force")]
    force_deps: bool,
    /// Build part I of S of the one job --only names (a job `nimrod plan`
    /// calls shardable), as its own checked file beside the table. Once
    /// every part exists, a build without --shard merges them into the
    /// table, byte-identical to a whole build, and removes them.
    #[arg(long, value_name = "I/S", requires = "only")]
    shard: Option<Shard>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: BuildArgs) -> Result<ExitCode> {
    let BuildArgs {
        config,
        only,
        data,
        threads,
        force,
        force_deps: force_dependencies,
        shard,
        json,
    } = args;
    let config = match config {
        Some(p) => Config::load(&p)?,
        None => Config::embedded_default()?,
    };
    // A job this config does not plan may be in a shipped one: say which
    // (the pipeline, knowing no game or config, could only list every id).
    let planned = nimrod::pipeline::plan(&config, &nimrod::games::planners())?;
    for o in &only {
        let known = planned.iter().any(|j| j.is_selected_by(o));
        if !known {
            let hint = if o.contains('/') {
                nimrod::games::registry::build_hint(&data, o)
            } else {
                format!(
                    "this config has no [{o}] section (`nimrod plan` lists its {} jobs)",
                    planned.len()
                )
            };
            bail!("--only {o}: not a job of this config; {hint}");
        }
    }
    // The CLI hands the pipeline its games: the pipeline knows none.
    let report = run_build(
        &config,
        &nimrod::games::planners(),
        &BuildOptions {
            data_dir: data,
            only,
            force,
            force_dependencies,
            threads,
            shard,
        },
    )?;
    let mut text = String::new();
    let mut rows = Vec::new();
    for (id, o) in &report.outcomes {
        let (state, detail) = match o {
            JobOutcome::Built { seconds_millis } => {
                ("built", format!("{:.2} s", *seconds_millis as f64 / 1000.0))
            }
            JobOutcome::UpToDate => ("skipped", "up to date".to_string()),
            JobOutcome::Failed(e) => ("failed", e.clone()),
            JobOutcome::DependencyFailed => ("not run", "a dependency failed".to_string()),
            JobOutcome::NotNeeded => (
                "skipped",
                "not needed: every job reading it is current".to_string(),
            ),
        };
        text.push_str(&format!("{state:<8} {id:<24} {detail}\n"));
        rows.push(json!({"job": id, "state": state, "detail": detail}));
    }
    let count = |s: &str| rows.iter().filter(|r| r["state"] == s).count();
    text.push_str(&format!(
        "build {}: {} built, {} up to date, {} failed, in {:.2} s wall\n",
        if report.ok() { "finished" } else { "FAILED" },
        count("built"),
        count("skipped"),
        count("failed") + count("not run"),
        report.wall_seconds
    ));
    emit(
        json,
        &json!({"config": config.source, "ok": report.ok(), "wall_seconds": report.wall_seconds, "jobs": rows,
                "removed_temporaries": report.removed_temporaries.iter().map(|p| p.display().to_string()).collect::<Vec<_>>()}),
        &text,
    );
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `nimrod plan`: the jobs in dependency order with their estimates.
pub fn plan(config: Option<PathBuf>, json: bool) -> Result<ExitCode> {
    let config = match config {
        Some(p) => Config::load(&p)?,
        None => Config::embedded_default()?,
    };
    let jobs = nimrod::pipeline::plan_report(&config, &nimrod::games::planners())?;
    let mut text = String::new();
    let mb = |b: u64| b as f64 / 1e6;
    for j in &jobs {
        let size = match &j.estimate {
            Some(e) => format!(
                "{} entries, {:.1} MB out, {:.1} MB memory, {} {}{}",
                e.entries,
                mb(e.output_bytes),
                mb(e.memory_bytes),
                e.work,
                e.work_unit,
                e.cpu_seconds.as_ref().map_or(String::new(), |c| format!(
                    ", about {} of one core ({} to {})",
                    duration(c.typical),
                    duration(c.low),
                    duration(c.high)
                ))
            ),
            None => "no estimate".to_string(),
        };
        text.push_str(&format!(
            "{:<28} {}  {}{}\n",
            j.id,
            if j.shardable {
                "shardable"
            } else {
                "whole    "
            },
            size,
            if j.deps.is_empty() {
                String::new()
            } else {
                format!("  after {}", j.deps.join(", "))
            }
        ));
    }
    let known: Vec<_> = jobs.iter().filter_map(|j| j.estimate.as_ref()).collect();
    text.push_str(&format!(
        "{} jobs; {} with estimates: {:.1} MB of tables in all, the largest job {:.1} MB of memory\n",
        jobs.len(),
        known.len(),
        mb(known.iter().map(|e| e.output_bytes).sum()),
        mb(known.iter().map(|e| e.memory_bytes).max().unwrap_or(0)),
    ));
    let timed: Vec<_> = known
        .iter()
        .filter_map(|e| e.cpu_seconds.as_ref())
        .collect();
    if let Some(first) = timed.first() {
        let sum = |f: fn(&&nimrod::pipeline::CpuSeconds) -> f64| timed.iter().map(f).sum::<f64>();
        text.push_str(&format!(
            "{} jobs with measured costs: about {} of one core ({} to {}); e.g. {}\n",
            timed.len(),
            duration(sum(|c| c.typical)),
            duration(sum(|c| c.low)),
            duration(sum(|c| c.high)),
            timed
                .iter()
                .max_by(|a, b| a.typical.total_cmp(&b.typical))
                .unwrap_or(first)
                .basis
        ));
    }
    emit(json, &json!({ "jobs": jobs }), &text);
    Ok(ExitCode::SUCCESS)
}

/// "45 s", "12 min", "3.4 h".
fn duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}
