//! From a TOML config to finished tables: parse the config, expand it into
//! jobs with dependencies, run them in dependency order (independent jobs in
//! parallel), skip jobs whose table is already complete and current.

pub mod checkpoint;
internal_mod!(config);
internal_mod!(
    /// A helper thread for a solver's own pieces of work (Grundy's game
    /// and the octal games mark blocks of heaps with it).
    crew
);
internal_mod!(
    /// Jobs, their parts and their parameter hashes.
    job
);
internal_mod!(lock);
internal_mod!(progress);
internal_mod!(runner);
pub mod slurm;

pub use config::{game_params, Config, DEFAULT_CONFIG};
pub use job::{param_hash, Job, JobContext, JobParts, Shard, MAX_SHARDS};
pub use progress::{Progress, Stage};
pub use runner::{
    opens_current, parse_memory_size, plan, plan_report, run_build, BuildOptions, BuildReport,
    CpuSeconds, Estimate, JobOutcome, OnDisk, PlannedJob, Planner, Resume,
};
