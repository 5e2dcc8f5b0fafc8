//! Grundy's game: split one heap into two unequal heaps. Normal play by the
//! sparse-space method (values table + perfect-hashed table of rare heaps),
//! misère play by exhaustive search over multisets (single-heap table).
//!
//! The folder: `jobs` (parameters, plan, the values, rare and misère
//! tables), `query`, `lecture` (the lecture's table), `verify`, and the solver: `driver` (heap 0 to the
//! bound), `sparse` (the per-heap sparse-space method), `block` (64 heaps
//! at a time), `targets` (split parts to try first; the helper thread is
//! `crate::pipeline::crew`), `values` (value storage), `rare` (rare and common values),
//! `stats` (what a values table records), `coding` (one byte a heap),
//! `naive` (the reference),
//! `misere`, `search` (heaps for `crate::search`).

internal_mod!(block);
mod coding;
internal_mod!(driver);
mod jobs;
mod lecture;
internal_mod!(misere);
internal_mod!(naive);
mod query;
internal_mod!(rare);
oracle_mod!(search);
internal_mod!(sparse);
internal_mod!(stats);
mod targets;
internal_mod!(values);
mod verify;

use super::error::GameError;
use super::game::{Game, Queries};
use super::query::{Answer, QueryContext};
use crate::table::Table;
use anyhow::{bail, Result};
pub use coding::GrundyValues;
pub use driver::{read_saved, SavedProgress};
pub use jobs::{GrundyParams, Mode};
pub use query::GrundyQuery;

/// Bumped whenever the solver's output could change; part of the parameter hash.
const SOLVER_VERSION: u32 = 2;

/// Grundy's game (the registry's `grundy`).
pub struct Grundy;

impl Game for Grundy {
    fn name(&self) -> &'static str {
        "grundy"
    }

    fn planner(&self) -> Option<&dyn crate::pipeline::Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "Grundy's game: Sprague-Grundy values (normal play), single-heap outcomes (misère)"
    }

    fn verify(&self, table: &Table) -> Result<(), GameError> {
        let check = || -> Result<()> {
            match table.meta().table.as_str() {
                "values" => verify::verify_values(table),
                "rare" => verify::verify_rare(table),
                "misere" => verify::verify_misere(table),
                other => bail!("unknown grundy table {other:?}"),
            }
        };
        check().map_err(GameError::from)
    }
}

impl Queries for Grundy {
    type Query = query::GrundyQuery;

    fn query(&self, q: &query::GrundyQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        query::answer(q, ctx).map_err(GameError::from)
    }
}
