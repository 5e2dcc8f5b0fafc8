//! Runs a plan: dependency order, independent jobs in parallel, each job
//! skipped when its table is already complete with the same parameter hash.

use super::config::Config;
use super::job::{table_path, Job, JobContext, Shard};
use super::lock::JobLock;
use super::progress::Progress;
use crate::table::Table;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::Mutex;
use std::time::Instant;

/// The most worker threads a build takes (each has a stack, and past the
/// cores they only wait).
pub const MAX_THREADS: usize = 1024;

/// What `run_build` builds and how.
pub struct BuildOptions {
    /// Where the tables go.
    pub data_dir: PathBuf,
    /// Only these jobs (and what they need); empty for all.
    pub only: Vec<String>,
    /// Rebuild the jobs asked for (all, or those `only` names) even when
    /// their tables are current.
    pub force: bool,
    /// With `force` and `only`: rebuild the jobs they depend on too.
    pub force_dependencies: bool,
    /// Worker threads (default: every core).
    pub threads: Option<usize>,
    /// Build only this part of the one job `only` names (`--shard I/S`).
    pub shard: Option<Shard>,
    /// Bytes the jobs running at once may hold, by their estimates (see
    /// `Admission`); None for the memory available when the build starts.
    pub memory_budget: Option<u64>,
}

/// The smallest and largest `--memory` a build takes.
pub const MEMORY_BUDGET_RANGE: std::ops::RangeInclusive<u64> = (1 << 10)..=(1 << 50);

/// Reads a memory size as `--memory` takes it: bytes, or a number with K,
/// M, G or T (powers of 1024), within `MEMORY_BUDGET_RANGE`.
pub fn parse_memory_size(what: &str, v: &str) -> Result<u64> {
    let (digits, shift) = match v.as_bytes().last() {
        Some(b'K' | b'k') => (&v[..v.len() - 1], 10),
        Some(b'M' | b'm') => (&v[..v.len() - 1], 20),
        Some(b'G' | b'g') => (&v[..v.len() - 1], 30),
        Some(b'T' | b't') => (&v[..v.len() - 1], 40),
        _ => (v, 0),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        bail!("{what} {v:?} is not a memory size (like 512M or 20G)");
    }
    let out_of_range = || {
        format!(
            "{what} {v:?} is out of range: 1K to {}T",
            MEMORY_BUDGET_RANGE.end() >> 40
        )
    };
    let bytes = digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .filter(|b| MEMORY_BUDGET_RANGE.contains(b))
        .with_context(out_of_range)?;
    Ok(bytes)
}

/// The memory the kernel says is available now (MemAvailable), if it says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Which ready jobs may start, under a memory budget. A job starts when
/// nothing else runs, or when its estimate fits beside the running jobs'
/// estimates; ready jobs are taken in the order they became ready, and one
/// that does not fit lets a smaller one behind it start. Starting is
/// decided when a job becomes ready or one finishes, never by a task that
/// waits: a rayon worker blocked on a condition could be the one holding,
/// lower on its stack, the job it waits for.
#[derive(Debug)]
struct Admission {
    budget: u64,
    /// The pool's threads: a job held while every thread has a job would
    /// wait for a thread anyway, and is not reported as waiting for memory.
    threads: usize,
    in_use: u64,
    running: usize,
    queue: std::collections::VecDeque<(usize, u64)>,
    /// Jobs already reported as waiting (reported once each).
    reported: BTreeSet<usize>,
}

impl Admission {
    fn new(budget: u64, threads: usize) -> Admission {
        Admission {
            budget,
            threads,
            in_use: 0,
            running: 0,
            queue: Default::default(),
            reported: BTreeSet::new(),
        }
    }

    fn ready(&mut self, job: usize, bytes: u64) {
        self.queue.push_back((job, bytes));
    }

    fn finished(&mut self, bytes: u64) {
        self.running -= 1;
        self.in_use -= bytes;
    }

    /// The queued jobs that start now, and those that wait for memory
    /// while a thread is free and were not reported before (with their
    /// estimate).
    fn admit(&mut self) -> (Vec<usize>, Vec<(usize, u64)>) {
        let mut start = Vec::new();
        let mut held = Vec::new();
        let mut k = 0;
        while k < self.queue.len() {
            let (job, bytes) = self.queue[k];
            if self.running == 0 || self.in_use.saturating_add(bytes) <= self.budget {
                self.queue.remove(k);
                self.running += 1;
                self.in_use += bytes;
                start.push(job);
            } else {
                if self.running < self.threads && self.reported.insert(job) {
                    held.push((job, bytes));
                }
                k += 1;
            }
        }
        (start, held)
    }
}

/// A byte count as a person reads it (4002 -> "3.9 KiB").
fn size_text(bytes: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut unit = 0;
    while unit + 1 < units.len() && bytes >= 1 << (10 * (unit + 1)) {
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{:.1} {}", bytes as f64 / (1u64 << (10 * unit)) as f64, units[unit])
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
/// What became of one job.
pub enum JobOutcome {
    /// Built now.
    Built {
        /// How long it took.
        seconds_millis: u128,
    },
    /// Its table was already current.
    UpToDate,
    /// It failed, with the error.
    Failed(String),
    /// A job it needs failed.
    DependencyFailed,
    /// Not asked for, and every job of this build that reads it is
    /// current: it was not opened, so it may be absent (deleted to free
    /// disk once the jobs above it were built).
    NotNeeded,
}

/// What `run_build` did.
pub struct BuildReport {
    /// Every job's outcome, by id.
    pub outcomes: Vec<(String, JobOutcome)>,
    /// Temporary files of earlier killed or failed builds, removed at start.
    pub removed_temporaries: Vec<PathBuf>,
    /// The whole build's wall time.
    pub wall_seconds: f64,
}

impl BuildReport {
    /// Whether every job was built, current, or not needed.
    pub fn ok(&self) -> bool {
        self.outcomes.iter().all(|(_, o)| {
            matches!(
                o,
                JobOutcome::Built { .. } | JobOutcome::UpToDate | JobOutcome::NotNeeded
            )
        })
    }
}

/// What turns a config section into jobs. The pipeline knows no game: the
/// caller (the CLI) hands it the planners, one per section name.
pub trait Planner: Sync + Send {
    /// The config section it reads (`[grundy]`) and the job ids' prefix.
    fn name(&self) -> &'static str;
    /// Expands its config section into jobs.
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>>;
    /// What building `job` (one of its own) will take, where the planner
    /// can tell from the parameters alone; None where it cannot.
    fn estimate(&self, _job: &Job) -> Option<Estimate> {
        None
    }
    /// What a build of `job` (one of its own, not yet built) would go on
    /// from at `output` (a saved state, a smaller table it extends), read
    /// without changing anything; None where it keeps no such state.
    fn on_disk(&self, _job: &Job, _output: &Path) -> Option<OnDisk> {
        None
    }
}

/// What a data directory holds of a job (`nimrod plan --data`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum OnDisk {
    /// Its table is there and current: a build skips it.
    Built,
    /// A build goes on from what an earlier one left.
    Started(Resume),
    /// A saved state is there, which its game's planner does not read: a
    /// build goes on from it if it fits.
    Saved {
        /// The state's file.
        path: String,
    },
    /// A build starts from nothing; `why` names what is there and not used.
    NotStarted {
        /// What a build finds and will not use, if anything.
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
}

/// Where a build goes on from, and what is left.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Resume {
    /// Units of the job's work (its estimate's `work`) already done.
    pub work_done: u64,
    /// What it goes on from ("its saved state at heap 27271884672").
    pub from: String,
    /// One core's time for the rest, where the planner can tell.
    pub cpu_seconds_left: Option<CpuSeconds>,
}

/// A job's size before it runs, from its parameters.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// Entries of its table.
    pub entries: u64,
    /// Bytes of its table's payload.
    pub output_bytes: u64,
    /// Bytes it holds in memory at its peak (its table and the inputs it
    /// maps), a lower bound: working sets come on top.
    pub memory_bytes: u64,
    /// Units of work, and what a unit is ("matrix games of 5 x 5").
    pub work: u64,
    /// What a unit of work is.
    pub work_unit: String,
    /// One core's time for the job, from measured per-unit costs, where
    /// the game has measured them.
    pub cpu_seconds: Option<CpuSeconds>,
}

/// An expected time from measured per-unit costs: the median unit cost
/// times the units, and the spread the measurements showed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CpuSeconds {
    /// At the median measured cost a unit.
    pub typical: f64,
    /// At the 10th and 90th percentile costs.
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// Where the unit costs were measured (machine, date, what).
    pub basis: String,
}

/// One job of `nimrod plan`: its dependencies, whether it can be split
/// into parts, and its estimate.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlannedJob {
    /// The job's id.
    pub id: String,
    /// The jobs whose tables it reads.
    pub deps: Vec<String>,
    /// Whether `build --shard` can split it.
    pub shardable: bool,
    /// Its size, where the planner can tell.
    pub estimate: Option<Estimate>,
    /// What the data directory holds of it, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_disk: Option<OnDisk>,
}

/// The job graph of `config` in dependency order, with each job's estimate
/// and, given a data directory, what it holds of each job.
pub fn plan_report(
    config: &Config,
    planners: &[&dyn Planner],
    data_dir: Option<&Path>,
) -> Result<Vec<PlannedJob>> {
    let jobs = plan(config, planners)?;
    let mut out = Vec::new();
    for wave in waves(jobs)? {
        for job in wave {
            out.push(PlannedJob {
                estimate: estimate_of(planners, &job),
                on_disk: data_dir.map(|d| on_disk_of(planners, &job, d)),
                shardable: job.parts.is_some(),
                id: job.id,
                deps: job.deps,
            });
        }
    }
    Ok(out)
}

/// What the planner of `job` (the one its id's prefix names) estimates.
fn estimate_of(planners: &[&dyn Planner], job: &Job) -> Option<Estimate> {
    planners
        .iter()
        .find(|p| job.id.split('/').next() == Some(p.name()))
        .and_then(|p| p.estimate(job))
}

/// What `data_dir` holds of `job`: its current table (raw or packed), or
/// what its planner says a build would go on from.
fn on_disk_of(planners: &[&dyn Planner], job: &Job, data_dir: &Path) -> OnDisk {
    let output = job.output(data_dir);
    if current_raw_or_packed(&output, job.param_hash(), opens_current) {
        return OnDisk::Built;
    }
    planners
        .iter()
        .find(|p| job.id.split('/').next() == Some(p.name()))
        .and_then(|p| p.on_disk(job, &output))
        .unwrap_or_else(|| {
            let saved = super::checkpoint::path_beside(&output);
            if saved.exists() {
                OnDisk::Saved {
                    path: saved.display().to_string(),
                }
            } else {
                OnDisk::NotStarted { why: None }
            }
        })
}

/// Expands the config into jobs (every section through its planner).
pub fn plan(config: &Config, planners: &[&dyn Planner]) -> Result<Vec<Job>> {
    let mut jobs = Vec::new();
    for (name, section) in &config.sections {
        let planner = planners
            .iter()
            .find(|p| p.name() == name)
            .with_context(|| {
                let known: Vec<&str> = planners.iter().map(|p| p.name()).collect();
                format!(
                    "{}: unknown game [{name}] (known: {})",
                    config.source,
                    known.join(", ")
                )
            })?;
        jobs.extend(planner.plan(&config.source, section)?);
    }
    if jobs.is_empty() {
        bail!(
            "{}: the config defines no jobs (no game section such as [grundy]; known: {})",
            config.source,
            planners
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let mut seen = BTreeSet::new();
    for j in &jobs {
        if !seen.insert(j.id.clone()) {
            bail!("{}: job {} is defined twice", config.source, j.id);
        }
    }
    for j in &jobs {
        for d in &j.deps {
            if !seen.contains(d) {
                bail!(
                    "{}: job {} needs {d}, which the config does not build",
                    config.source,
                    j.id
                );
            }
        }
    }
    Ok(jobs)
}

/// Keeps the jobs named by `only` (exact id or game name) and everything
/// they depend on; also returns the ids `only` named (all, without it).
fn select(jobs: Vec<Job>, only: &[String]) -> Result<(Vec<Job>, BTreeSet<String>)> {
    if only.is_empty() {
        let all = jobs.iter().map(|j| j.id.clone()).collect();
        return Ok((jobs, all));
    }
    let by_id: BTreeMap<&str, &Job> = jobs.iter().map(|j| (j.id.as_str(), j)).collect();
    let mut wanted = BTreeSet::new();
    let mut stack: Vec<String> = Vec::new();
    for o in only {
        let matches: Vec<&str> = jobs
            .iter()
            .filter(|j| j.is_selected_by(o))
            .map(|j| j.id.as_str())
            .collect();
        if matches.is_empty() {
            bail!(
                "--only {o}: no such job (jobs: {})",
                jobs.iter()
                    .map(|j| j.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        stack.extend(matches.into_iter().map(String::from));
    }
    let targets: BTreeSet<String> = stack.iter().cloned().collect();
    while let Some(id) = stack.pop() {
        if wanted.insert(id.clone()) {
            stack.extend(by_id[id.as_str()].deps.iter().cloned());
        }
    }
    let jobs = jobs
        .into_iter()
        .filter(|j| wanted.contains(&j.id))
        .collect();
    Ok((jobs, targets))
}

/// Groups jobs into waves: every job's dependencies are in earlier waves.
fn waves(jobs: Vec<Job>) -> Result<Vec<Vec<Job>>> {
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut rest = jobs;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let (ready, blocked): (Vec<Job>, Vec<Job>) = rest
            .into_iter()
            .partition(|j| j.deps.iter().all(|d| done.contains(d)));
        if ready.is_empty() {
            bail!(
                "dependency cycle among jobs: {}",
                blocked
                    .iter()
                    .map(|j| j.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        done.extend(ready.iter().map(|j| j.id.clone()));
        out.push(ready);
        rest = blocked;
    }
    Ok(out)
}

/// True when `path` holds a complete, uncorrupted table built with `hash`
/// (the full check: every payload byte read).
pub fn is_current(path: &Path, hash: u64) -> bool {
    match Table::open(path) {
        Ok(t) => t.header().param_hash == hash && t.verify().is_ok(),
        // The shipping form holds the raw header: its blocks are what can
        // be damaged.
        Err(crate::table::TableError::Shipped { .. }) => {
            crate::table::ShippedTable::open(path)
                .is_ok_and(|s| s.header().param_hash == hash && s.verify().is_ok())
        }
        Err(_) => false,
    }
}

/// True when `path` opens as a table built with `hash`: the checked open
/// (header, metadata, index, keys and block-sum checksums), not the payload,
/// whose blocks are checked as the jobs reading it read them. What a
/// dependency of the jobs asked for needs: re-reading every byte of a big
/// level for each job that reads a few blocks of it is the cost this saves.
pub fn opens_current(path: &Path, hash: u64) -> bool {
    match Table::open(path) {
        Ok(t) => t.header().param_hash == hash,
        Err(crate::table::TableError::Shipped { .. }) => crate::table::ShippedTable::open(path)
            .is_ok_and(|s| s.header().param_hash == hash),
        Err(_) => false,
    }
}

/// The table at `raw` passes `check`, or, when there is no raw table, its
/// packed form does (`nimrod pack --remove` leaves only that: a packed
/// table is built, and jobs read it as they read a raw one).
fn current_raw_or_packed(raw: &Path, hash: u64, check: fn(&Path, u64) -> bool) -> bool {
    match raw.try_exists() {
        Ok(true) => check(raw, hash),
        Ok(false) => check(&crate::table::job::packed_path(raw), hash),
        Err(_) => false,
    }
}

/// Plans `config` with `planners` and builds what `opts` asks for: jobs in dependency waves, current tables skipped, parts merged (see the module).
pub fn run_build(
    config: &Config,
    planners: &[&dyn Planner],
    opts: &BuildOptions,
) -> Result<BuildReport> {
    let (jobs, targets) = select(plan(config, planners)?, &opts.only)?;
    if let Some(shard) = opts.shard {
        let [target] = targets.iter().collect::<Vec<_>>()[..] else {
            bail!(
                "build --shard {}/{}: --only must name exactly one job (it names {}: {})",
                shard.index,
                shard.count,
                targets.len(),
                targets.iter().cloned().collect::<Vec<_>>().join(", ")
            );
        };
        let job = jobs.iter().find(|j| &j.id == target).expect("selected");
        if job.parts.is_none() {
            bail!(
                "build --shard: job {target} cannot be split into parts; build it whole (nimrod plan shows which jobs are shardable)"
            );
        }
    }
    let waves = waves(jobs)?;
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = opts.threads {
        if !(1..=MAX_THREADS).contains(&n) {
            bail!("build: --threads {n} is out of range: 1 to {MAX_THREADS}");
        }
        builder = builder.num_threads(n);
    }
    let pool = builder.build().context("cannot start the thread pool")?;
    std::fs::create_dir_all(&opts.data_dir)
        .with_context(|| format!("cannot create data directory {}", opts.data_dir.display()))?;
    let visits = pool.install(|| visits(&waves, &targets, opts));
    let budget = opts
        .memory_budget
        .or_else(available_memory)
        .unwrap_or(u64::MAX);
    let removed_temporaries = Mutex::new(Vec::new());
    let progress = Progress::new();
    let start = Instant::now();
    // Jobs start as soon as their own dependencies are done, not when the
    // whole previous wave is (a GOPS level used to wait for an unrelated
    // chess table). FIFO spawns keep one thread's order the config's.
    let jobs: Vec<&Job> = waves.iter().flatten().collect();
    let index: BTreeMap<&str, usize> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| (j.id.as_str(), i))
        .collect();
    let deps: Vec<Vec<usize>> = jobs
        .iter()
        .map(|j| j.deps.iter().map(|d| index[d.as_str()]).collect())
        .collect();
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); jobs.len()];
    for (i, ds) in deps.iter().enumerate() {
        for &d in ds {
            dependents[d].push(i);
        }
    }
    // Only a job that runs holds memory; one unknown to its planner counts
    // nothing (as every job did before estimates were used here).
    let memory: Vec<u64> = jobs
        .iter()
        .map(|job| {
            if visits[&job.id] != Visit::Run {
                return 0;
            }
            estimate_of(planners, job).map_or(0, |e| e.memory_bytes)
        })
        .collect();
    let schedule = Schedule {
        jobs: &jobs,
        memory: &memory,
        admission: Mutex::new(Admission::new(budget, pool.current_num_threads())),
        deps: &deps,
        dependents: &dependents,
        waiting: jobs.iter().map(|j| AtomicUsize::new(j.deps.len())).collect(),
        outcomes: Mutex::new(vec![None; jobs.len()]),
        visits: &visits,
        targets: &targets,
        opts,
        progress: &progress,
        removed_temporaries: &removed_temporaries,
    };
    pool.install(|| {
        rayon::scope_fifo(|scope| {
            let ready: Vec<usize> = (0..jobs.len())
                .filter(|&i| jobs[i].deps.is_empty())
                .collect();
            schedule.start(ready, None, scope);
        })
    });
    let outcomes = schedule
        .outcomes
        .into_inner()
        .expect("no job panics holding it");
    let order: Vec<String> = jobs.iter().map(|j| j.id.clone()).collect();
    let outcomes: BTreeMap<String, JobOutcome> = order
        .iter()
        .cloned()
        .zip(outcomes.into_iter().map(|o| o.expect("every job ran")))
        .collect();
    Ok(BuildReport {
        outcomes: order
            .into_iter()
            .map(|id| {
                let o = outcomes[&id].clone();
                (id, o)
            })
            .collect(),
        removed_temporaries: {
            let mut removed = removed_temporaries
                .into_inner()
                .expect("no job panics holding it");
            removed.sort();
            removed
        },
        wall_seconds: start.elapsed().as_secs_f64(),
    })
}

/// The jobs of one build and what is known of them while it runs.
struct Schedule<'a> {
    jobs: &'a [&'a Job],
    /// Each job's estimated peak memory (0 for a job that does not run).
    memory: &'a [u64],
    admission: Mutex<Admission>,
    /// Each job's dependencies, as positions in `jobs`.
    deps: &'a [Vec<usize>],
    dependents: &'a [Vec<usize>],
    /// Dependencies of each job not yet finished.
    waiting: Vec<AtomicUsize>,
    outcomes: Mutex<Vec<Option<JobOutcome>>>,
    visits: &'a BTreeMap<String, Visit>,
    targets: &'a BTreeSet<String>,
    opts: &'a BuildOptions,
    progress: &'a Progress,
    removed_temporaries: &'a Mutex<Vec<PathBuf>>,
}

impl Schedule<'_> {
    /// Runs job `i` (its dependencies are done and it was admitted), then
    /// readies every job whose last dependency it was.
    fn run<'s>(&'s self, i: usize, scope: &rayon::ScopeFifo<'s>) {
        let outcome = self.outcome(i);
        self.outcomes.lock().expect("no job panics holding it")[i] = Some(outcome);
        let ready: Vec<usize> = self.dependents[i]
            .iter()
            .copied()
            .filter(|&d| self.waiting[d].fetch_sub(1, AtomicOrdering::AcqRel) == 1)
            .collect();
        self.start(ready, Some(i), scope);
    }

    /// Queues the jobs in `ready`, releases the memory of the job that
    /// `finished`, and spawns every queued job that now fits.
    fn start<'s>(
        &'s self,
        ready: Vec<usize>,
        finished: Option<usize>,
        scope: &rayon::ScopeFifo<'s>,
    ) {
        let (start, held, in_use, budget) = {
            let mut admission = self.admission.lock().expect("no job panics holding it");
            if let Some(f) = finished {
                admission.finished(self.memory[f]);
            }
            for d in ready {
                admission.ready(d, self.memory[d]);
            }
            let (start, held) = admission.admit();
            (start, held, admission.in_use, admission.budget)
        };
        for (job, bytes) in held {
            self.progress.println(&format!(
                "{}: waits for memory: its estimate is {}, the running jobs' {} of a {} budget (--memory)",
                self.jobs[job].id,
                size_text(bytes),
                size_text(in_use),
                size_text(budget)
            ));
        }
        for j in start {
            scope.spawn_fifo(move |scope| self.run(j, scope));
        }
    }

    fn outcome(&self, i: usize) -> JobOutcome {
        let job = self.jobs[i];
        let verified = match self.visits[&job.id] {
            Visit::NotNeeded => return JobOutcome::NotNeeded,
            Visit::Current => return JobOutcome::UpToDate,
            Visit::Kept => true,
            Visit::Run => false,
        };
        // A kept table reads nothing: its dependencies were not visited.
        if !verified {
            let outcomes = self.outcomes.lock().expect("no job panics holding it");
            let failed_dep = self.deps[i].iter().any(|&d| {
                !matches!(
                    outcomes[d],
                    Some(JobOutcome::Built { .. } | JobOutcome::UpToDate)
                )
            });
            if failed_dep {
                return JobOutcome::DependencyFailed;
            }
        }
        run_one(
            job,
            self.targets.contains(&job.id),
            verified,
            self.opts,
            self.progress,
            self.removed_temporaries,
        )
    }
}

/// What a build does with one job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Visit {
    /// Runs it: a target to build (or merge), or a dependency to build.
    Run,
    /// A target (or its part) found current by the full check: kept, and
    /// what it depends on is not needed.
    Kept,
    /// A dependency whose table opens current: read as it is.
    Current,
    /// A dependency no running job reads.
    NotNeeded,
}

/// Decides, from the last wave back, which jobs a build visits. A target
/// runs unless the full check finds it current; a dependency is needed only
/// when a job that runs reads it, and then runs only if its table does not
/// open current (or dependencies are forced). So a current table shields
/// what lies below it, and a level deleted after the one above it was built
/// is not rebuilt. The checks of one wave run in parallel.
fn visits(
    waves: &[Vec<Job>],
    targets: &BTreeSet<String>,
    opts: &BuildOptions,
) -> BTreeMap<String, Visit> {
    let mut read_by_runner: BTreeSet<String> = BTreeSet::new();
    let mut out = BTreeMap::new();
    for wave in waves.iter().rev() {
        let decided: Vec<(&Job, Visit)> = wave
            .par_iter()
            .map(|job| (job, visit(job, targets, &read_by_runner, opts)))
            .collect();
        for (job, visit) in decided {
            if visit == Visit::Run {
                read_by_runner.extend(job.deps.iter().cloned());
            }
            out.insert(job.id.clone(), visit);
        }
    }
    out
}

fn visit(
    job: &Job,
    targets: &BTreeSet<String>,
    read_by_runner: &BTreeSet<String>,
    opts: &BuildOptions,
) -> Visit {
    let output = job.output(&opts.data_dir);
    let hash = job.param_hash();
    if targets.contains(&job.id) {
        let current = !opts.force
            && match opts.shard {
                Some(shard) => {
                    opens_current(&output, hash)
                        || is_current(
                            &table_path(&opts.data_dir, &shard.part_id(&job.id)),
                            job.part_param_hash(shard),
                        )
                }
                None => current_raw_or_packed(&output, hash, is_current),
            };
        if current {
            Visit::Kept
        } else {
            Visit::Run
        }
    } else if !read_by_runner.contains(&job.id) {
        Visit::NotNeeded
    } else if (opts.force && opts.force_dependencies)
        || !current_raw_or_packed(&output, hash, opens_current)
    {
        Visit::Run
    } else {
        Visit::Current
    }
}

/// Takes the lock of job (or part) `id` and removes the temporaries its
/// killed builds left, recording them.
fn lock_job(
    data_dir: &Path,
    id: &str,
    output: &Path,
    progress: &Progress,
    removed_temporaries: &Mutex<Vec<PathBuf>>,
    wait: bool,
) -> Result<JobLock> {
    let lock = if wait {
        JobLock::acquire_waiting(data_dir, id, &|why| progress.println(why))?
    } else {
        JobLock::acquire(data_dir, id)?
    };
    let removed = lock.remove_stale_temporaries(output)?;
    for p in &removed {
        progress.println(&format!("removed stale temporary {}", p.display()));
    }
    removed_temporaries
        .lock()
        .expect("no job panics holding it")
        .extend(removed);
    Ok(lock)
}

/// Runs `job` unless its table is current: a job asked for (`target`) is
/// checked in full (unless `verified` says that was done when the build
/// planned its visits), a dependency only opened; `force` rebuilds targets,
/// and dependencies only with `force_dependencies`. With `opts.shard`, the
/// target builds that part only; a job that can be split and finds parts
/// of itself merges them (building any part missing first).
fn run_one(
    job: &Job,
    target: bool,
    verified: bool,
    opts: &BuildOptions,
    progress: &Progress,
    removed_temporaries: &Mutex<Vec<PathBuf>>,
) -> JobOutcome {
    let output = job.output(&opts.data_dir);
    let hash = job.param_hash();
    let forced = opts.force && (target || opts.force_dependencies);
    // A current dependency is used without its lock: tables are only ever
    // replaced whole by a rename, and the parts of one level all read the
    // level below at once.
    if !target && !forced && current_raw_or_packed(&output, hash, opens_current) {
        return JobOutcome::UpToDate;
    }
    let started = Instant::now();
    let result = match (target, opts.shard) {
        (true, Some(shard)) => run_part(job, shard, verified, opts, progress, removed_temporaries),
        _ => run_whole(job, target && !verified, forced, opts, progress, removed_temporaries),
    };
    match result {
        Ok(false) => JobOutcome::UpToDate,
        Ok(true) => JobOutcome::Built {
            seconds_millis: started.elapsed().as_millis(),
        },
        Err(e) => {
            progress.println(&format!("error: {}: {e:#}", job.id));
            JobOutcome::Failed(format!("{e:#}"))
        }
    }
}

/// Builds (or merges) the whole table of `job` under its lock; false when
/// it was already current (by the full check with `check_in_full`, else
/// by the checked open).
fn run_whole(
    job: &Job,
    check_in_full: bool,
    forced: bool,
    opts: &BuildOptions,
    progress: &Progress,
    removed_temporaries: &Mutex<Vec<PathBuf>>,
) -> Result<bool> {
    let output = job.output(&opts.data_dir);
    let hash = job.param_hash();
    // The job's lock, held until it returns: one builder per job.
    let _lock = lock_job(
        &opts.data_dir,
        &job.id,
        &output,
        progress,
        removed_temporaries,
        true,
    )?;
    let current = || {
        let check = if check_in_full { is_current } else { opens_current };
        current_raw_or_packed(&output, hash, check)
    };
    let parts = match &job.parts {
        Some(_) => existing_parts(&opts.data_dir, &job.id)?,
        None => Vec::new(),
    };
    if !forced && current() {
        remove_parts(&parts)?;
        return Ok(false);
    }
    let ctx = JobContext {
        id: &job.id,
        params: &job.params,
        data_dir: &opts.data_dir,
        output: output.clone(),
        param_hash: hash,
        progress,
    };
    match (&job.parts, most_common_count(&parts)) {
        // Parts of one count only: the count most parts were built at.
        (Some(split), Some(count)) if !forced => {
            let mut tables = Vec::new();
            let mut locks = Vec::new();
            for index in 1..=count {
                let shard = Shard::new(index, count)?;
                let part_id = shard.part_id(&job.id);
                let part_out = table_path(&opts.data_dir, &part_id);
                locks.push(lock_job(
                    &opts.data_dir,
                    &part_id,
                    &part_out,
                    progress,
                    removed_temporaries,
                    true,
                )?);
                let part_hash = job.part_param_hash(shard);
                let found = Table::open(&part_out)
                    .ok()
                    .filter(|t| t.header().param_hash == part_hash);
                let t = match found {
                    Some(t) => t,
                    None => {
                        progress.println(&format!("{}: building missing part {part_id}", job.id));
                        build_part(job, shard, opts, progress)?
                    }
                };
                super::job::check_identity(&t, &part_id)?;
                tables.push(t);
            }
            split.merge(&ctx, &tables)?;
            drop(tables);
            check_written(&format!("job {}", job.id), &output, hash)?;
            // Those found and those built here.
            remove_parts(&existing_parts(&opts.data_dir, &job.id)?)?;
        }
        _ => {
            (job.run)(&ctx)?;
            check_written(&format!("job {}", job.id), &output, hash)?;
            remove_parts(&parts)?;
        }
    }
    remove_damaged_packed_copy(&output, hash, progress)?;
    Ok(true)
}

/// After the raw table at `raw` was (re)built, a packed copy beside it that
/// does not pass the full check is the damaged or stale table the build
/// replaced: left there, `verify` of the directory stays red while queries
/// read the good raw file. It is removed, and said so. A packed copy that
/// passes is the same table (builds are deterministic) and stays.
fn remove_damaged_packed_copy(raw: &Path, hash: u64, progress: &Progress) -> Result<()> {
    let packed = crate::table::job::packed_path(raw);
    if packed.is_file() && !is_current(&packed, hash) {
        std::fs::remove_file(&packed)
            .with_context(|| format!("cannot remove the superseded {}", packed.display()))?;
        progress.println(&format!(
            "removed {}: damaged or of other parameters, superseded by the rebuilt {}",
            packed.display(),
            raw.display()
        ));
    }
    Ok(())
}

/// Builds part `shard` of `job` under the part's lock; false when the part,
/// or the whole table, is already there.
fn run_part(
    job: &Job,
    shard: Shard,
    verified: bool,
    opts: &BuildOptions,
    progress: &Progress,
    removed_temporaries: &Mutex<Vec<PathBuf>>,
) -> Result<bool> {
    let part_id = shard.part_id(&job.id);
    let part_out = table_path(&opts.data_dir, &part_id);
    let _lock = lock_job(
        &opts.data_dir,
        &part_id,
        &part_out,
        progress,
        removed_temporaries,
        false,
    )?;
    let part_check = if verified { opens_current } else { is_current };
    if !opts.force
        && (opens_current(&job.output(&opts.data_dir), job.param_hash())
            || part_check(&part_out, job.part_param_hash(shard)))
    {
        return Ok(false);
    }
    build_part(job, shard, opts, progress)?;
    Ok(true)
}

/// Builds part `shard` of `job` (the caller holds the part's lock) and
/// returns the part's table, checked to be the one it wrote.
fn build_part(job: &Job, shard: Shard, opts: &BuildOptions, progress: &Progress) -> Result<Table> {
    let split = job.parts.as_ref().context("job cannot be split")?;
    let part_id = shard.part_id(&job.id);
    let part_out = table_path(&opts.data_dir, &part_id);
    let part_hash = job.part_param_hash(shard);
    let ctx = JobContext {
        id: &part_id,
        params: &job.params,
        data_dir: &opts.data_dir,
        output: part_out.clone(),
        param_hash: part_hash,
        progress,
    };
    split.build_part(&ctx, shard)?;
    check_written(&format!("part {part_id}"), &part_out, part_hash)
}

/// Opens what a job (or part: `who`) wrote and checks it carries `hash`.
fn check_written(who: &str, output: &Path, hash: u64) -> Result<Table> {
    let t = Table::open(output).with_context(|| format!("{who} did not leave a readable table"))?;
    if t.header().param_hash != hash {
        bail!("{who} wrote a table with the wrong parameter hash");
    }
    Ok(t)
}

/// The part files of job `id` in `data_dir` (any part count), sorted.
fn existing_parts(data_dir: &Path, id: &str) -> Result<Vec<(Shard, PathBuf)>> {
    let table = table_path(data_dir, id);
    let (Some(dir), Some(stem)) = (table.parent(), table.file_stem()) else {
        return Ok(Vec::new());
    };
    let stem = stem.to_string_lossy();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", dir.display())),
    };
    let mut out = Vec::new();
    for e in entries {
        let e = e.with_context(|| format!("cannot read {}", dir.display()))?;
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(shard) = name
            .strip_suffix(".nmt")
            .and_then(|s| Shard::from_stem(&stem, s))
        {
            out.push((shard, e.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// The part count most of `parts` were built with (the larger on a tie).
fn most_common_count(parts: &[(Shard, PathBuf)]) -> Option<u32> {
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for (s, _) in parts {
        *counts.entry(s.count).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|&(count, n)| (n, count))
        .map(|(count, _)| count)
}

/// Removes part files once the whole table is in place.
fn remove_parts(parts: &[(Shard, PathBuf)]) -> Result<()> {
    for (_, p) in parts {
        match std::fs::remove_file(p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("cannot remove part {}", p.display())),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `jobs` (estimate, length in steps) through an `Admission` of
    /// `budget`, finishing the oldest running job each step; returns the
    /// start order and the most memory held at once by two or more jobs.
    fn simulate(budget: u64, jobs: &[(u64, u32)]) -> (Vec<usize>, u64) {
        let mut a = Admission::new(budget, 4);
        for (i, &(bytes, _)) in jobs.iter().enumerate() {
            a.ready(i, bytes);
        }
        let mut running: std::collections::VecDeque<(usize, u32)> = Default::default();
        let mut order = Vec::new();
        let mut most_shared = 0;
        loop {
            let (start, _) = a.admit();
            for j in start {
                order.push(j);
                running.push_back((j, jobs[j].1));
            }
            if running.len() > 1 {
                most_shared = most_shared.max(a.in_use);
            }
            assert_eq!(a.in_use, running.iter().map(|&(j, _)| jobs[j].0).sum::<u64>());
            let Some((j, left)) = running.pop_front() else {
                break;
            };
            if left > 1 {
                running.push_front((j, left - 1));
            } else {
                a.finished(jobs[j].0);
            }
        }
        (order, most_shared)
    }

    #[test]
    fn admission_keeps_jobs_that_run_together_within_the_budget() {
        let jobs = [(18, 3), (17, 3), (2, 1), (3, 2), (25, 1), (1, 1)];
        let (order, most_shared) = simulate(22, &jobs);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4, 5], "every job starts once");
        assert!(most_shared <= 22, "{most_shared} bytes held at once");
        // The 17 waits for the 18 (together 35) and the 3 for the 2 and
        // the 1 beside it (18 + 2 + 1 + 3 is 24); the 25 is over the
        // budget and starts alone, last.
        assert_eq!(order, vec![0, 2, 5, 1, 3, 4]);
        // Without a budget every job starts at once, in order.
        assert_eq!(simulate(u64::MAX, &jobs).0, vec![0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_waiting_job_is_reported_once_and_only_while_a_thread_is_free() {
        let mut a = Admission::new(10, 2);
        a.ready(0, 6);
        a.ready(1, 6);
        assert_eq!(a.admit(), (vec![0], vec![(1, 6)]));
        a.ready(2, 4);
        assert_eq!(a.admit(), (vec![2], vec![]), "6 + 4 fits in 10");
        a.finished(4);
        assert_eq!(a.admit(), (vec![], vec![]), "6 + 6 is over 10");
        a.finished(6);
        assert_eq!(a.admit(), (vec![1], vec![]));
        assert_eq!((a.running, a.in_use), (1, 6));

        // One thread: the job behind a running one waits for the thread
        // too, so it is not said to wait for memory.
        let mut a = Admission::new(10, 1);
        a.ready(0, 6);
        a.ready(1, 6);
        assert_eq!(a.admit(), (vec![0], vec![]));
        a.finished(6);
        assert_eq!(a.admit(), (vec![1], vec![]));
    }

    #[test]
    fn sizes_read_as_a_person_reads_them() {
        assert_eq!(size_text(96), "96 bytes");
        assert_eq!(size_text(4002), "3.9 KiB");
        assert_eq!(size_text(18 << 30), "18.0 GiB");
        assert_eq!(size_text(u64::MAX), "16384.0 PiB");
    }

    #[test]
    fn memory_sizes_are_read_and_bounded() {
        assert_eq!(parse_memory_size("--memory", "20G").unwrap(), 20 << 30);
        assert_eq!(parse_memory_size("--memory", "512m").unwrap(), 512 << 20);
        assert_eq!(parse_memory_size("--memory", "1024").unwrap(), 1 << 10);
        assert_eq!(parse_memory_size("--memory", "1024T").unwrap(), 1 << 50);
        for bad in ["", "G", "-1G", "1.5G", "20GB", "0", "1023", "1025T", "99999999999999999999999T"] {
            let e = parse_memory_size("--memory", bad).unwrap_err().to_string();
            assert!(e.contains("--memory") && e.contains(&format!("{bad:?}")), "{e}");
        }
    }

    #[test]
    fn most_parts_decide_the_count() {
        let p = |i, n| (Shard::new(i, n).unwrap(), PathBuf::new());
        assert_eq!(most_common_count(&[]), None);
        assert_eq!(most_common_count(&[p(1, 4), p(2, 4), p(1, 2)]), Some(4));
        assert_eq!(most_common_count(&[p(1, 4), p(1, 2)]), Some(4));
        assert_eq!(most_common_count(&[p(1, 3), p(2, 3), p(1, 7)]), Some(3));
    }
}
