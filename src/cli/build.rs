use super::emit;
use anyhow::Result;
use nimrod::pipeline::{run_build, BuildOptions, Config, JobOutcome};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(
    config: Option<PathBuf>,
    only: Vec<String>,
    data: PathBuf,
    threads: Option<usize>,
    force: bool,
    force_dependencies: bool,
    json: bool,
) -> Result<ExitCode> {
    let config = match config {
        Some(p) => Config::load(&p)?,
        None => Config::embedded_default()?,
    };
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
                "{} entries, {:.1} MB out, {:.1} MB memory, {} {}",
                e.entries,
                mb(e.output_bytes),
                mb(e.memory_bytes),
                e.work,
                e.work_unit
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
    emit(json, &json!({ "jobs": jobs }), &text);
    Ok(ExitCode::SUCCESS)
}
