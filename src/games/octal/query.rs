//! `nimrod query octal CODE HEAP`.

use super::code::OctalCode;
use super::period::Period;
use crate::games::query::{open_table, Answer, QueryContext};
use anyhow::{Context, Result};
use serde::Serialize;

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        after_help = "Examples:\n  nimrod query octal 0.137 200\n  nimrod query octal 0.77 1000 --json"
    )
)]
/// The arguments of `nimrod query octal`.
#[cfg_attr(
    feature = "cli",
    command(
        about = "octal games by code (0.77 Kayles, 0.137 Dawson's chess, …): values and proved periods"
    )
)]
#[derive(Clone, Debug, PartialEq, Default)]
pub struct OctalQuery {
    /// Octal code, e.g. 0.137.
    pub code: String,
    /// Heap size.
    pub heap: u64,
}

/// The value of `heap` in game `code`, and the moves that win.
pub(super) fn answer(code: &OctalCode, heap: u64, ctx: &QueryContext) -> Result<Answer> {
    let id = format!("octal/{}", code.canonical());
    let t = open_table(&ctx.data_dir, &id)?;
    let bound = t.len() - 1;
    let period: Option<Period> = serde_json::from_value(t.meta().stats["period"].clone())
        .with_context(|| format!("{id}: period statistics are malformed"))?;
    let (value, via) = if heap <= bound {
        (t.get::<u16>(heap)?, None)
    } else if let Some(p) = &period {
        let n0 = p.preperiod.max(1);
        let m = n0 + (heap - n0) % p.period;
        (t.get::<u16>(m)?, Some(m))
    } else {
        crate::bail_input!("heap {heap} is beyond the {id} table (bound {bound}) and no period is proved; raise [octal] bound");
    };
    Ok(Answer::of(&OctalAnswer {
        game: "octal",
        code: code.canonical(),
        heap,
        value,
        outcome: if value == 0 { "P" } else { "N" },
        period,
        reduced_heap: via,
        table_bound: bound,
    }))
}

/// `nimrod query octal CODE HEAP`.
#[derive(Serialize)]
struct OctalAnswer {
    game: &'static str,
    code: String,
    heap: u64,
    value: u16,
    /// "P": the previous player wins; "N": the next player wins.
    outcome: &'static str,
    period: Option<Period>,
    /// The heap within the table whose value a heap beyond it takes, by
    /// the proved period.
    reduced_heap: Option<u64>,
    table_bound: u64,
}

impl std::fmt::Display for OctalAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (heap, value) = (self.heap, self.value);
        write!(
            f,
            "octal game {}, heap {heap}\n  value    G({heap}) = {value}",
            self.code
        )?;
        if let Some(m) = self.reduced_heap {
            write!(f, "  (= G({m}) by the proved period)")?;
        }
        write!(
            f,
            "\n  outcome  {}\n",
            if value == 0 {
                "P (previous player wins)"
            } else {
                "N (next player wins)"
            }
        )?;
        match &self.period {
            Some(p) => writeln!(
                f,
                "  period   {} from heap {} (proved by the Guy–Smith theorem with values to {})",
                p.period, p.preperiod, p.certified_with_values_to
            ),
            None => writeln!(
                f,
                "  period   none proved with values to {}",
                self.table_bound
            ),
        }
    }
}
