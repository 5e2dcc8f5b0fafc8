use super::reports::{BuildRow, BuildSummary, PlanAnswer};
use super::show;
use anyhow::{bail, Result};
use nimrod::games::{Answer, GameError};
use nimrod::pipeline::{run_build, BuildOptions, Config, JobOutcome, Shard};
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
    #[command(flatten)]
    data: super::DataArg,
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
    /// Memory the jobs running at once may hold by their estimates (like
    /// 20G; default: what the kernel says is available at the start). A
    /// job that does not fit waits for running ones to finish; one larger
    /// than the budget runs alone.
    #[arg(long, value_name = "SIZE")]
    memory: Option<String>,
    #[command(flatten)]
    json: super::JsonArg,
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
        memory,
        json: super::JsonArg { on: json },
    } = args;
    let memory_budget = memory
        .map(|m| nimrod::pipeline::parse_memory_size("build: --memory", &m))
        .transpose()
        .map_err(GameError::input)?;
    let data = data.dir;
    let config = match config {
        Some(p) => Config::load(&p).map_err(GameError::input)?,
        None => Config::embedded_default()?,
    };
    // A job this config does not plan may be in a shipped one: say which
    // (the pipeline, knowing no game or config, could only list every id).
    let planned =
        nimrod::pipeline::plan(&config, &nimrod::games::planners()).map_err(GameError::input)?;
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
            memory_budget,
        },
    )?;
    let jobs = report
        .outcomes
        .iter()
        .map(|(id, o)| {
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
            BuildRow {
                job: id.clone(),
                state,
                detail,
            }
        })
        .collect();
    show(
        json,
        &Answer::of(&BuildSummary {
            config: config.source.clone(),
            ok: report.ok(),
            wall_seconds: report.wall_seconds,
            jobs,
            removed_temporaries: report
                .removed_temporaries
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
        }),
    );
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `nimrod plan`: the jobs in dependency order with their estimates.
pub fn plan(config: Option<PathBuf>, data: Option<PathBuf>, json: bool) -> Result<ExitCode> {
    let config = match config {
        Some(p) => Config::load(&p).map_err(GameError::input)?,
        None => Config::embedded_default()?,
    };
    if let Some(d) = &data {
        if !d.is_dir() {
            return Err(GameError::input(anyhow::anyhow!(
                "--data {}: not a directory",
                d.display()
            ))
            .into());
        }
    }
    let jobs = nimrod::pipeline::plan_report(&config, &nimrod::games::planners(), data.as_deref())
        .map_err(GameError::input)?;
    show(json, &Answer::of(&PlanAnswer { jobs }));
    Ok(ExitCode::SUCCESS)
}
