//! From a TOML config to finished tables: parse the config, expand it into
//! jobs with dependencies, run them in dependency order (independent jobs in
//! parallel), skip jobs whose table is already complete and current.

pub mod config;
/// Jobs, their parts and their parameter hashes.
pub mod job;
pub mod lock;
pub mod progress;
pub mod runner;
pub mod slurm;

pub use config::{Config, DEFAULT_CONFIG};
pub use job::{param_hash, Job, JobContext, JobParts, Shard, MAX_SHARDS};
pub use progress::{Progress, Stage};
pub use runner::{
    opens_current, plan, plan_report, run_build, BuildOptions, BuildReport, Estimate, JobOutcome,
    PlannedJob, Planner,
};
