use super::progress::Progress;
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
    pub data_dir: &'a Path,
    pub output: PathBuf,
    pub param_hash: u64,
    pub progress: &'a Progress,
}

impl JobContext<'_> {
    /// Path of another job's table (a dependency).
    pub fn table(&self, id: &str) -> PathBuf {
        table_path(self.data_dir, id)
    }
}
