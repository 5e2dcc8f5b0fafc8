use super::progress::Progress;
use crate::table::Table;
use anyhow::Result;
use std::path::{Path, PathBuf};

pub type JobFn = Box<dyn Fn(&JobContext) -> Result<()> + Send + Sync>;

/// One unit of work that produces one table file.
pub struct Job {
    /// Unique id, also the table path without extension: "grundy/values".
    pub id: String,
    /// Jobs whose tables this job reads.
    pub deps: Vec<String>,
    /// Everything that determines the output bytes; hashed into the header.
    pub params: serde_json::Value,
    pub run: JobFn,
}

impl Job {
    pub fn output(&self, data_dir: &Path) -> PathBuf {
        table_path(data_dir, &self.id)
    }
    pub fn param_hash(&self) -> u64 {
        param_hash(&self.id, &self.params)
    }
}

pub use crate::table::job::{param_hash, table_path};

pub struct JobContext<'a> {
    pub id: &'a str,
    /// The job's parameters (what `param_hash` hashes with the id).
    pub params: &'a serde_json::Value,
    pub data_dir: &'a Path,
    pub output: PathBuf,
    pub param_hash: u64,
    pub progress: &'a Progress,
}

/// Checks that `t` is the table job `id` wrote: its metadata names the job,
/// and the job's id and recorded parameters hash to the header's parameter
/// hash. A table renamed or copied over another's path (KQvK over KRvK,
/// octal 0.137 over 0.77), or with its job parameters edited, is refused.
pub use crate::table::job::check_identity;

impl JobContext<'_> {
    /// Opens the table of a dependency, checking it is the one asked for.
    pub fn open(&self, id: &str) -> anyhow::Result<Table> {
        let t = Table::open(&self.table(id))?;
        check_identity(&t, id)?;
        Ok(t)
    }

    /// This job's identity, for the metadata of the table it writes.
    pub fn stamp(&self) -> crate::table::JobStamp {
        crate::table::JobStamp {
            id: self.id.to_string(),
            params: self.params.clone(),
        }
    }

    /// Path of another job's table (a dependency).
    pub fn table(&self, id: &str) -> PathBuf {
        table_path(self.data_dir, id)
    }
}
