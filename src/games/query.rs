//! Shared plumbing for `nimrod query`: argument parsing through clap with
//! one-line errors, locating tables (raw or packed), the answer type.

use crate::pipeline::job::table_path;
use crate::table::Table;
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};

pub struct QueryContext {
    pub data_dir: PathBuf,
}

/// What a query prints: aligned text for people, one JSON document for
/// programs (`--json`).
pub struct Answer {
    pub text: String,
    pub json: serde_json::Value,
}

/// Parses a game's query arguments; a clap error becomes one line.
pub fn parse_args<T: clap::Parser>(game: &str, args: &[String]) -> Result<T> {
    T::try_parse_from(std::iter::once(game.to_string()).chain(args.iter().cloned())).map_err(|e| {
        let msg = e.to_string();
        let first = msg
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("invalid arguments")
            .trim_start_matches("error: ");
        anyhow::anyhow!("query {game}: {first}")
    })
}

/// Opens the table of job `id` under the data directory, raw or packed.
pub fn open_table(data_dir: &Path, id: &str) -> Result<Table> {
    let raw = table_path(data_dir, id);
    let mut packed = raw.clone().into_os_string();
    packed.push(".zst");
    let packed = PathBuf::from(packed);
    for p in [&raw, &packed] {
        if p.exists() {
            let t = Table::open(p)?;
            crate::pipeline::job::check_identity(&t, id)?;
            return Ok(t);
        }
    }
    let game = id.split('/').next().unwrap_or(id);
    bail!(
        "table {id} not found in {} (neither {} nor its .zst); build it with: nimrod build --only {game} --data {}",
        data_dir.display(),
        raw.display(),
        data_dir.display()
    )
}
