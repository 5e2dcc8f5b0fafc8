use super::progress::Progress;
use crate::table::Table;
use anyhow::{bail, Result};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A job's body: builds its table at `ctx.output`.
pub type JobFn = Box<dyn Fn(&JobContext) -> Result<()> + Send + Sync>;

/// The most parts a job may be split into (`build --shard I/S`, S at most
/// this): every part is a file and a lock, and a cluster array of more
/// tasks than this is beyond any level we build.
pub const MAX_SHARDS: u32 = 4096;

/// Part `index` (1-based) of `count` of a job split into parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shard {
    /// Which part, from 1.
    pub index: u32,
    /// How many parts.
    pub count: u32,
}

impl Shard {
    /// A checked part number: 1 ≤ index ≤ count ≤ [`MAX_SHARDS`].
    pub fn new(index: u32, count: u32) -> Result<Shard> {
        if !(1..=MAX_SHARDS).contains(&count) {
            bail!("shard count {count} is out of range: 1 to {MAX_SHARDS}");
        }
        if !(1..=count).contains(&index) {
            bail!("shard {index}/{count}: the part number must be 1 to {count}");
        }
        Ok(Shard { index, count })
    }

    /// The units of work `0..units` that this part covers: the parts cut
    /// them into `count` contiguous ranges of sizes differing by at most
    /// one, in order (a part may be empty when there are fewer units than
    /// parts).
    pub fn range(&self, units: u64) -> Range<u64> {
        let cut = |i: u32| (units as u128 * i as u128 / self.count as u128) as u64;
        cut(self.index - 1)..cut(self.index)
    }

    /// The job id of this part of job `id` (also its table path without
    /// extension): `gops/n12/k08.part-0003-of-0004`.
    pub fn part_id(&self, id: &str) -> String {
        format!("{id}.part-{:04}-of-{:04}", self.index, self.count)
    }

    /// Parses a part file's name stem (`k08.part-0003-of-0004`) back, given
    /// the job's stem (`k08`); None for any other name.
    pub fn from_stem(job_stem: &str, stem: &str) -> Option<Shard> {
        let rest = stem.strip_prefix(job_stem)?.strip_prefix(".part-")?;
        let (i, s) = rest.split_once("-of-")?;
        let ok = |t: &str| t.len() == 4 && t.bytes().all(|b| b.is_ascii_digit());
        if !ok(i) || !ok(s) {
            return None;
        }
        Shard::new(i.parse().ok()?, s.parse().ok()?).ok()
    }
}

impl std::str::FromStr for Shard {
    type Err = anyhow::Error;
    /// `I/S`, as `build --shard` takes it.
    fn from_str(s: &str) -> Result<Shard> {
        let Some((i, n)) = s.split_once('/') else {
            bail!("--shard {s}: expected I/S, part I of S (like 2/4)");
        };
        let parse = |t: &str, what: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| anyhow::anyhow!("--shard {s}: {what} {t:?} is not a number"))
        };
        Shard::new(parse(i, "part")?, parse(n, "part count")?)
            .map_err(|e| anyhow::anyhow!("--shard {s}: {e}"))
    }
}

/// How a job that can be split builds one part and merges the parts. A part
/// is a checked table of its own (job id [`Shard::part_id`]); the merge
/// reads the parts, computes nothing, and writes bytes identical to those
/// of the job built whole, whatever the number of parts.
pub trait JobParts: Send + Sync {
    /// Builds `part` into `ctx.output` (`ctx.id` is the part's id).
    fn build_part(&self, ctx: &JobContext, part: Shard) -> Result<()>;
    /// Writes the job's table to `ctx.output` from its parts, in order
    /// (`parts[i]` is part i + 1, each opened and identity-checked).
    fn merge(&self, ctx: &JobContext, parts: &[Table]) -> Result<()>;
}

/// One unit of work that produces one table file.
pub struct Job {
    /// Unique id, also the table path without extension: "grundy/values".
    pub id: String,
    /// Jobs whose tables this job reads.
    pub deps: Vec<String>,
    /// Everything that determines the output bytes; hashed into the header.
    pub params: serde_json::Value,
    /// Builds the table.
    pub run: JobFn,
    /// Present when the job can be built in parts (`build --shard I/S`).
    pub parts: Option<Arc<dyn JobParts>>,
}

impl Job {
    /// Whether `build --only ONLY` names this job: its id, or its game.
    pub fn is_selected_by(&self, only: &str) -> bool {
        self.id == only || self.id.split('/').next() == Some(only)
    }

    /// Where the job's table goes under `data_dir`.
    pub fn output(&self, data_dir: &Path) -> PathBuf {
        table_path(data_dir, &self.id)
    }
    /// The hash of the job's id and parameters, written into its table's header.
    pub fn param_hash(&self) -> u64 {
        param_hash(&self.id, &self.params)
    }
    /// The parameter hash of one part's table: the part's id with the
    /// job's parameters.
    pub fn part_param_hash(&self, shard: Shard) -> u64 {
        param_hash(&shard.part_id(&self.id), &self.params)
    }
}

pub use crate::table::job::{param_hash, table_path};

/// What a running job knows: who it is, where it reads and writes.
pub struct JobContext<'a> {
    /// The job's id (`gops/n10/k05`).
    pub id: &'a str,
    /// The job's parameters (what `param_hash` hashes with the id).
    pub params: &'a serde_json::Value,
    /// The data directory (its dependencies' tables are there).
    pub data_dir: &'a Path,
    /// Where to write the table (a temporary name, renamed on success).
    pub output: PathBuf,
    /// To write into the table's header.
    pub param_hash: u64,
    /// Where to report the stages and their progress.
    pub progress: &'a Progress,
}

/// Checks that `t` is the table job `id` wrote: its metadata names the job,
/// and the job's id and recorded parameters hash to the header's parameter
/// hash. A table renamed or copied over another's path (KQvK over KRvK,
/// octal 0.137 over 0.77), or with its job parameters edited, is refused.
pub use crate::table::job::check_identity;

impl JobContext<'_> {
    /// Opens the table of a dependency, raw or else packed, checking it is
    /// the one asked for.
    pub fn open(&self, id: &str) -> anyhow::Result<Table> {
        Ok(crate::table::open_job_table(self.data_dir, id)?)
    }

    /// As [`JobContext::open`], with a packed dependency decompressed whole
    /// into memory: for jobs that read a dependency all over (see
    /// `table::open_job_table_unpacked`).
    pub fn open_unpacked(&self, id: &str) -> anyhow::Result<Table> {
        Ok(crate::table::open_job_table_unpacked(self.data_dir, id)?)
    }

    /// This job's identity, for the metadata of the table it writes.
    pub fn stamp(&self) -> crate::table::JobStamp {
        crate::table::JobStamp {
            id: self.id.to_string(),
            params: self.params.clone(),
        }
    }
}
