//! Builds driven by Slurm: the plan of a config written as plain sbatch
//! scripts (one job per table, a job array of parts and a merge job for a
//! split job, `--dependency=afterok` along the job graph) and a
//! `submit.sh` that submits them in order. Every task is an ordinary
//! `nimrod build`, so a failed or cancelled run is resumed by submitting
//! again: finished tables and parts are skipped.

use super::runner::{opens_current, PlannedJob};
use super::{Job, MAX_SHARDS};
use anyhow::{bail, Context, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The most CPUs a task asks for.
pub const MAX_CPUS_PER_TASK: u32 = 1024;

/// What `nimrod slurm` writes scripts for.
#[derive(Clone, Debug)]
pub struct SlurmPlan {
    /// The jobs of the config, in dependency order.
    pub jobs: Vec<PlannedJob>,
    /// The config's text, written beside the scripts so that every task
    /// reads the same config.
    pub config_text: String,
    /// The data directory every task builds into (absolute).
    pub data_dir: PathBuf,
    /// The nimrod binary the tasks run (absolute).
    pub nimrod: PathBuf,
    /// Parts per shardable job (1: none split).
    pub shards: u32,
    /// Slurm partition (`--partition`), if not the default.
    pub partition: Option<String>,
    /// Slurm time limit per task (`--time`), as Slurm writes it.
    pub time: Option<String>,
    /// Memory per part task (`--mem`); default from the job's estimate.
    pub mem_per_part: Option<String>,
    /// Memory per whole-job task; default from the job's estimate.
    pub mem: Option<String>,
    /// CPUs per task (`--cpus-per-task`), also nimrod's `--threads`.
    pub cpus_per_task: u32,
}

/// One script `nimrod slurm` wrote, and the job (or parts) it builds.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Script {
    /// The job's id.
    pub job: String,
    /// `Some(S)` for the array of S parts, None for the whole job or the merge.
    pub parts: Option<u32>,
    /// The script.
    pub file: PathBuf,
    /// Shell variable submit.sh keeps its Slurm id in.
    pub var: String,
    /// The scripts whose Slurm jobs must succeed first (`afterok`).
    pub after: Vec<String>,
}

/// Checks a value that goes into a script line: 1 to 64 characters, digits,
/// letters where `letters`, and the characters of `punctuation`.
fn check_token(what: &str, v: &str, letters: bool, punctuation: &str) -> Result<()> {
    let allowed = |c: char| {
        c.is_ascii_digit() || (letters && c.is_ascii_alphabetic()) || punctuation.contains(c)
    };
    if v.is_empty() || v.len() > 64 || !v.chars().all(allowed) {
        bail!(
            "slurm: {what} {v:?} is not valid (1 to 64 characters: digits{}, and any of {punctuation:?})",
            if letters { ", letters" } else { "" }
        );
    }
    Ok(())
}

/// Checks a `--mem` value as Slurm takes it: a number of megabytes, or a
/// number with K, M, G or T.
pub fn check_mem(what: &str, v: &str) -> Result<()> {
    let digits = v.trim_end_matches(['K', 'M', 'G', 'T']);
    if digits.is_empty()
        || digits.len() > 12
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || v.len() - digits.len() > 1
        || digits.bytes().all(|b| b == b'0')
    {
        bail!("slurm: {what} {v:?} is not a memory size (like 4000M or 8G)");
    }
    Ok(())
}

impl SlurmPlan {
    /// Checks every user-given value that goes into a script.
    pub fn check(&self) -> Result<()> {
        if !(1..=MAX_SHARDS).contains(&self.shards) {
            bail!(
                "slurm: --shards {} is out of range: 1 to {MAX_SHARDS}",
                self.shards
            );
        }
        if !(1..=MAX_CPUS_PER_TASK).contains(&self.cpus_per_task) {
            bail!(
                "slurm: --cpus-per-task {} is out of range: 1 to {MAX_CPUS_PER_TASK}",
                self.cpus_per_task
            );
        }
        if let Some(p) = &self.partition {
            check_token("--partition", p, true, "_-.,")?;
        }
        if let Some(t) = &self.time {
            check_token("--time", t, false, "-:")?;
        }
        if let Some(m) = &self.mem_per_part {
            check_mem("--mem-per-part", m)?;
        }
        if let Some(m) = &self.mem {
            check_mem("--mem", m)?;
        }
        for p in [&self.data_dir, &self.nimrod] {
            let s = p.to_string_lossy();
            if !p.is_absolute() || s.contains(['\n', '"', '$', '`', '\\']) {
                bail!(
                    "slurm: path {s:?} must be absolute and free of newlines, quotes, $, ` and \\"
                );
            }
        }
        Ok(())
    }

    fn split(&self, job: &PlannedJob) -> Option<u32> {
        (job.shardable && self.shards > 1).then_some(self.shards)
    }

    /// `--mem` of a task: the flag, else the estimate with room for working
    /// sets (and 1 GiB of headroom), else 2 GiB.
    fn mem_for(&self, job: &PlannedJob, parts: Option<u32>) -> String {
        let given = if parts.is_some() {
            &self.mem_per_part
        } else {
            &self.mem
        };
        if let Some(m) = given {
            return m.clone();
        }
        let estimate = job
            .estimate
            .as_ref()
            .map(|e| e.memory_bytes / parts.unwrap_or(1) as u64);
        let mb = estimate.map_or(2048, |b| b.saturating_mul(5) / 4 / (1 << 20) + 1024);
        format!("{mb}M")
    }

    fn script(&self, dir: &Path, job: &PlannedJob, parts: Option<u32>, merge: bool) -> String {
        let name = job.id.replace('/', "-");
        let mut s = String::from("#!/bin/bash\n");
        let tag = match (parts, merge) {
            (Some(_), _) => "parts",
            (None, true) => "merge",
            (None, false) => "build",
        };
        let _ = writeln!(s, "# nimrod: {tag} {}", job.id);
        let _ = writeln!(s, "#SBATCH --job-name=nimrod-{name}-{tag}");
        let log = dir.join("logs").join(if parts.is_some() {
            format!("{name}-{tag}-%A_%a.out")
        } else {
            format!("{name}-{tag}-%j.out")
        });
        let _ = writeln!(s, "#SBATCH --output={}", log.display());
        if let Some(n) = parts {
            let _ = writeln!(s, "#SBATCH --array=1-{n}");
        }
        let _ = writeln!(
            s,
            "#SBATCH --cpus-per-task={}",
            if merge { 1 } else { self.cpus_per_task }
        );
        let mem = if merge {
            "1024M".to_string()
        } else {
            self.mem_for(job, parts)
        };
        let _ = writeln!(s, "#SBATCH --mem={mem}");
        let _ = writeln!(s, "#SBATCH --kill-on-invalid-dep=yes");
        if let Some(p) = &self.partition {
            let _ = writeln!(s, "#SBATCH --partition={p}");
        }
        if let Some(t) = &self.time {
            let _ = writeln!(s, "#SBATCH --time={t}");
        }
        s.push_str("set -euo pipefail\n");
        let _ = write!(
            s,
            "exec \"{}\" build --config \"{}\" --data \"{}\" --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" --only {}",
            self.nimrod.display(),
            dir.join("config.toml").display(),
            self.data_dir.display(),
            job.id
        );
        if let Some(n) = parts {
            let _ = write!(s, " --shard \"$SLURM_ARRAY_TASK_ID/{n}\"");
        }
        s.push('\n');
        s
    }

    /// Writes `config.toml`, one script per job (two for a split job: its
    /// array of parts and its merge) and `submit.sh` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<Vec<Script>> {
        self.check()?;
        std::fs::create_dir_all(dir.join("logs"))
            .with_context(|| format!("cannot create {}", dir.join("logs").display()))?;
        let dir = std::fs::canonicalize(dir)
            .with_context(|| format!("cannot resolve {}", dir.display()))?;
        let write = |name: &str, text: &str| -> Result<PathBuf> {
            let p = dir.join(name);
            std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
            Ok(p)
        };
        write("config.toml", &self.config_text)?;
        let mut scripts: Vec<Script> = Vec::new();
        let mut var_of: std::collections::BTreeMap<&str, String> = Default::default();
        for (n, job) in self.jobs.iter().enumerate() {
            let name = job.id.replace('/', "-");
            let var = format!("J{:04}", n + 1);
            let after: Vec<String> = job
                .deps
                .iter()
                .map(|d| var_of[d.as_str()].clone())
                .collect();
            // A split job: its array of parts after the dependencies, then
            // the merge after the parts. A whole job: one script.
            let steps = match self.split(job) {
                Some(parts) => vec![
                    (Some(parts), false, format!("{var}P"), after),
                    (None, true, var.clone(), vec![format!("{var}P")]),
                ],
                None => vec![(None, false, var.clone(), after)],
            };
            for (parts, merge, step_var, after) in steps {
                let suffix = if parts.is_some() { ".parts" } else { "" };
                let file = write(
                    &format!("{:04}-{name}{suffix}.sbatch", n + 1),
                    &self.script(&dir, job, parts, merge),
                )?;
                scripts.push(Script {
                    job: job.id.clone(),
                    parts,
                    file,
                    var: step_var,
                    after,
                });
            }
            var_of.insert(&job.id, var);
        }
        let mut submit = String::from(
            "#!/bin/bash\n\
             # Submits nimrod's build to Slurm in dependency order (written by `nimrod slurm`).\n\
             # Submitting again resumes a failed or cancelled run: finished tables and parts\n\
             # are skipped. Prints one line per Slurm job: `submitted <script> <id>`.\n\
             set -euo pipefail\n\
             cd \"$(dirname \"$0\")\"\n\
             sb() { local out; out=$(sbatch --parsable \"$@\") || exit 1; echo \"${out%%;*}\"; }\n",
        );
        for s in &scripts {
            let file = s.file.file_name().expect("a file").to_string_lossy();
            let dep = if s.after.is_empty() {
                String::new()
            } else {
                format!(
                    "--dependency=afterok:{} ",
                    s.after
                        .iter()
                        .map(|v| format!("${v}"))
                        .collect::<Vec<_>>()
                        .join(":")
                )
            };
            let _ = writeln!(
                submit,
                "{}=$(sb {dep}{file}); echo \"submitted {file} ${}\"",
                s.var, s.var
            );
        }
        let p = write("submit.sh", &submit)?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("cannot make {} executable", p.display()))?;
        Ok(scripts)
    }
}

/// Runs `dir/submit.sh`; returns the Slurm job ids it printed, by script.
pub fn submit(dir: &Path) -> Result<Vec<(String, u64)>> {
    let script = dir.join("submit.sh");
    let out = Command::new("bash")
        .arg(&script)
        .output()
        .with_context(|| format!("cannot run {}", script.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    // sbatch's own words, kept for every failure below: they say why
    // (an unknown partition, a memory request the cluster cannot meet).
    let said = String::from_utf8_lossy(&out.stderr);
    let said = said.trim();
    let mut ids = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("submitted ") {
            if let Some((file, id)) = rest.rsplit_once(' ') {
                let Ok(id) = id.parse::<u64>() else {
                    bail!(
                        "{}: sbatch gave no job id for {file} (it printed {id:?}) after {} jobs were submitted; sbatch said: {}",
                        script.display(),
                        ids.len(),
                        if said.is_empty() { "nothing" } else { said }
                    );
                };
                ids.push((file.to_string(), id));
            }
        }
    }
    if !out.status.success() {
        bail!(
            "{} failed after submitting {} jobs; sbatch said: {}",
            script.display(),
            ids.len(),
            if said.is_empty() { "nothing" } else { said }
        );
    }
    Ok(ids)
}

/// Waits until none of `ids` is pending or running (polling squeue), at
/// most `limit`.
pub fn wait(ids: &[u64], limit: Duration) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let list = ids
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let start = Instant::now();
    loop {
        let out = Command::new("squeue")
            .args(["-h", "-o", "%i %T %r", "-j", &list])
            .output()
            .context("cannot run squeue")?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        // squeue fails for ids that have all left the queue.
        if !out.status.success() || text.trim().is_empty() {
            return Ok(());
        }
        if start.elapsed() > limit {
            bail!(
                "slurm: still queued after {} s:\n{}{}\nthey stay queued; `scancel {}` cancels them",
                limit.as_secs(),
                text.trim(),
                others_running(ids),
                ids.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The jobs running on the cluster that are not `ids`, one a line after
/// a heading, or nothing: a job pending for "Resources" waits on them (one
/// CI run waited 1500 s behind a 21 GB build left in the queue).
fn others_running(ids: &[u64]) -> String {
    let Ok(out) = Command::new("squeue")
        .args([
            "-h",
            "-t",
            "RUNNING",
            "-o",
            "%A %j %C CPUs %m memory %M running",
        ])
        .output()
    else {
        return String::new();
    };
    let others: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .and_then(|id| id.parse::<u64>().ok())
                .is_some_and(|id| !ids.contains(&id))
        })
        .map(|l| format!("  {}", l.trim()))
        .collect();
    if others.is_empty() {
        String::new()
    } else {
        format!(
            "\nmeanwhile the cluster ran other jobs:\n{}",
            others.join("\n")
        )
    }
}

/// Per job: whether its table is in `data_dir` and current (the checked
/// open, as a dependency is checked).
pub fn tables_done(jobs: &[Job], data_dir: &Path) -> Vec<(String, bool)> {
    jobs.iter()
        .map(|j| {
            (
                j.id.clone(),
                opens_current(&j.output(data_dir), j.param_hash()),
            )
        })
        .collect()
}
