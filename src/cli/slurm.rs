//! `nimrod slurm`: sbatch scripts for a config's plan, and with --submit
//! (and --wait) the run on a Slurm cluster.

use super::reports::{SlurmAnswer, Submitted};
use super::show;
use anyhow::{bail, Context, Result};
use nimrod::games::{Answer, GameError};
use nimrod::pipeline::slurm::{self, SlurmPlan};
use nimrod::pipeline::{plan, plan_report, Config, DEFAULT_CONFIG};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The longest `--wait` waits, in seconds (30 days).
const MAX_WAIT_SECONDS: u64 = 30 * 24 * 3600;

#[derive(clap::Args)]
pub struct SlurmArgs {
    /// TOML config; without it the embedded default is used. Its text is
    /// copied beside the scripts, so every task reads the same config.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The data directory the tasks build into (on the filesystem every
    /// node shares).
    #[arg(long)]
    data: PathBuf,
    /// Where the scripts go (default: DATA/slurm).
    #[arg(long)]
    scripts: Option<PathBuf>,
    /// Parts per shardable job: an array of S tasks and a merge job each.
    #[arg(long, default_value_t = 1)]
    shards: u32,
    /// Slurm partition for every job (sbatch --partition); default: the
    /// cluster's default partition.
    #[arg(long)]
    partition: Option<String>,
    /// Time limit per task, as sbatch takes it (like 2:00:00 or 1-00:00:00).
    #[arg(long)]
    time: Option<String>,
    /// Memory per part task (like 8G); default from the job's estimate.
    #[arg(long)]
    mem_per_part: Option<String>,
    /// Memory per whole-job task (like 8G); default from the job's estimate, else 2G.
    #[arg(long)]
    mem: Option<String>,
    /// CPUs per task (the build's --threads).
    #[arg(long, default_value_t = 1)]
    cpus_per_task: u32,
    /// The nimrod binary the tasks run (default: this one).
    #[arg(long)]
    nimrod: Option<PathBuf>,
    /// Submit the scripts (runs the written submit.sh).
    #[arg(long)]
    submit: bool,
    /// With --submit: wait for every job to leave the queue, then report
    /// which tables are built; fails when one is missing.
    #[arg(long, requires = "submit")]
    wait: bool,
    /// With --wait: give up after this many seconds.
    #[arg(long, default_value_t = MAX_WAIT_SECONDS, requires = "wait")]
    wait_limit: u64,
    #[command(flatten)]
    json: super::JsonArg,
}

fn absolute(p: &std::path::Path) -> Result<PathBuf> {
    Ok(if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .context("cannot read the current directory")?
            .join(p)
    })
}

pub fn run(args: SlurmArgs) -> Result<ExitCode> {
    if !(1..=MAX_WAIT_SECONDS).contains(&args.wait_limit) {
        bail!(
            "slurm: --wait-limit {} is out of range: 1 to {MAX_WAIT_SECONDS} seconds",
            args.wait_limit
        );
    }
    let (config, text) = match &args.config {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read config {}", p.display()))
                .map_err(GameError::input)?;
            let config =
                Config::parse(&p.display().to_string(), &text).map_err(GameError::input)?;
            (config, text)
        }
        None => (Config::embedded_default()?, DEFAULT_CONFIG.to_string()),
    };
    let planners = nimrod::games::planners();
    let jobs = plan_report(&config, &planners, None).map_err(GameError::input)?;
    std::fs::create_dir_all(&args.data)
        .with_context(|| format!("cannot create data directory {}", args.data.display()))?;
    let data_dir = std::fs::canonicalize(&args.data)
        .with_context(|| format!("cannot resolve {}", args.data.display()))?;
    let nimrod_bin = match &args.nimrod {
        Some(p) => absolute(p)?,
        None => std::env::current_exe().context("cannot find this nimrod binary")?,
    };
    let dir = match &args.scripts {
        Some(p) => p.clone(),
        None => data_dir.join("slurm"),
    };
    let scripts = SlurmPlan {
        jobs,
        config_text: text,
        data_dir: data_dir.clone(),
        nimrod: nimrod_bin,
        shards: args.shards,
        partition: args.partition.clone(),
        time: args.time.clone(),
        mem_per_part: args.mem_per_part.clone(),
        mem: args.mem.clone(),
        cpus_per_task: args.cpus_per_task,
    }
    .write(&dir)?;
    let dir = std::fs::canonicalize(&dir)?;
    let mut answer = SlurmAnswer {
        scripts_dir: dir.clone(),
        scripts,
        submitted: None,
        wall_seconds: None,
        ok: None,
        missing: None,
        tables: 0,
    };
    if !args.submit {
        show(args.json.on, &Answer::of(&answer));
        return Ok(ExitCode::SUCCESS);
    }
    let start = Instant::now();
    let ids = slurm::submit(&dir)?;
    answer.submitted = Some(
        ids.iter()
            .map(|(f, id)| Submitted {
                script: f.clone(),
                id: *id,
            })
            .collect(),
    );
    if !args.wait {
        show(args.json.on, &Answer::of(&answer));
        return Ok(ExitCode::SUCCESS);
    }
    let id_list: Vec<u64> = ids.iter().map(|(_, id)| *id).collect();
    slurm::wait(&id_list, Duration::from_secs(args.wait_limit))?;
    let wall = start.elapsed().as_secs_f64();
    let done = slurm::tables_done(&plan(&config, &planners)?, &data_dir);
    let missing: Vec<String> = done
        .iter()
        .filter(|(_, ok)| !ok)
        .map(|(id, _)| id.clone())
        .collect();
    answer.tables = done.len();
    answer.wall_seconds = Some(wall);
    answer.ok = Some(missing.is_empty());
    answer.missing = Some(missing.clone());
    show(args.json.on, &Answer::of(&answer));
    Ok(if missing.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
