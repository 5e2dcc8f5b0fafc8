//! Octal games by code: values to a bound and a proved period.
//!
//! The folder: `jobs` (parameters, plan, one table per code), `query`,
//! `code` (parsing codes), `solve` (the mex solver), `period` (the
//! Guy–Smith period certificate).

internal_mod!(code);
mod jobs;
internal_mod!(period);
mod query;
internal_mod!(solve);
internal_mod!(sparse);

use super::error::GameError;
use super::game::{Game, Queries};
use super::query::{Answer, QueryContext};
use crate::table::Table;
use anyhow::{ensure, Context, Result};
pub use code::{OctalCode, OctalCodeError};
use period::Period;
pub use query::OctalQuery;
pub use solve::values;
pub use sparse::{read_saved, SavedOctal};

/// 2: the sparse-space method (`sparse`), stopping at a power of two past
/// 2^20 once a period is proved or the values are not sparse. 3: step 2
/// scans parts in a diverse order, a chunk at a time (the values are the
/// same; the scan statistics are not).
const SOLVER_VERSION: u32 = 3;
/// Values are held in memory while they are computed: 2 bytes a heap.
const MAX_BOUND: u64 = 1 << 32;

/// Octal games (the registry's `octal`).
pub struct Octal;

impl Game for Octal {
    fn name(&self) -> &'static str {
        "octal"
    }

    fn planner(&self) -> Option<&dyn crate::pipeline::Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "octal games by code (0.77 Kayles, 0.137 Dawson's chess, …): values and proved periods"
    }

    fn verify(&self, table: &Table) -> Result<(), GameError> {
        let check = || -> Result<()> {
            let code = OctalCode::parse(&table.meta().table)?;
            let g = table.read_range::<u16>(0, table.len())?;
            let check = g.len().min(3000);
            ensure!(
                solve::values(&code, check - 1, || {}) == g[..check],
                "values differ from a fresh computation"
            );
            let stored: Option<Period> =
                serde_json::from_value(table.meta().stats["period"].clone())
                    .context("period statistics are malformed")?;
            ensure!(
                stored == period::find(&g, code.max_removal()),
                "stored period is not the one the values prove"
            );
            Ok(())
        };
        check().map_err(GameError::from)
    }
}

impl Queries for Octal {
    type Query = OctalQuery;

    fn query(&self, q: &OctalQuery, ctx: &QueryContext) -> Result<Answer, GameError> {
        let code = OctalCode::parse(&q.code).map_err(GameError::input)?;
        query::answer(&code, q.heap, ctx).map_err(GameError::from)
    }
}
