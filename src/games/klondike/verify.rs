//! What `nimrod verify` checks in the Klondike tables: every greedy entry
//! at most 52 cards home, every solver verdict a known code.

use super::verdict::UNKNOWN;
use anyhow::{bail, Result};

pub(super) fn verify(table: &crate::table::Table) -> Result<()> {
    let name = table.meta().table.clone();
    let limit = if name.starts_with("greedy-") {
        52
    } else if name.starts_with("solver-") {
        UNKNOWN
    } else {
        return Ok(());
    };
    let entries = table.read_range::<u8>(0, table.len())?;
    if let Some(i) = entries.iter().position(|&e| e > limit) {
        bail!(
            "klondike/{name}: entry {i} is {}, above {limit}",
            entries[i]
        );
    }
    Ok(())
}
