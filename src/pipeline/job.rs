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

pub fn table_path(data_dir: &Path, id: &str) -> PathBuf {
    data_dir.join(format!("{id}.nmt"))
}

/// Hash of the job id, the table format version and the parameters (JSON
/// with sorted keys, so the same parameters always hash the same).
pub fn param_hash(id: &str, params: &serde_json::Value) -> u64 {
    let doc = serde_json::json!({
        "id": id,
        "format": crate::table::FORMAT_VERSION,
        "params": params,
    });
    xxhash_rust::xxh3::xxh3_64(doc.to_string().as_bytes())
}

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
pub fn check_identity(t: &Table, id: &str) -> anyhow::Result<()> {
    let path = t.path().display();
    let Some(job) = &t.meta().job else {
        anyhow::bail!(
            "{path} does not record which job wrote it (built by an older nimrod?); rebuild it with: nimrod build --only {id} --force"
        );
    };
    anyhow::ensure!(
        job.id == id,
        "{path} holds the table of {}, not {id} (renamed or copied over it); rebuild it with: nimrod build --only {id} --force",
        job.id
    );
    anyhow::ensure!(
        param_hash(id, &job.params) == t.header().param_hash,
        "{path}: its recorded job parameters {} do not hash to its header's parameter hash (edited or damaged metadata); rebuild it with: nimrod build --only {id} --force",
        job.params
    );
    Ok(())
}

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
