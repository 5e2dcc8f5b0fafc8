//! What `nimrod verify` checks in a chess table beyond its checksums.

use super::index::Layout;
use super::jobs::TableJob;
use super::material::Material;
use super::probe::{read_values, Tablebase};
use super::solve;
use crate::games::query::{open_table_unpacked, table_params};
use crate::table::Table;
use anyhow::Result;

/// Re-derives every stored value from its moves one ply down (the
/// table's own values and the smaller tables' it probes).
pub(super) fn verify_table(table: &Table) -> Result<()> {
    let job: TableJob = table_params(table)?;
    let values = read_values(table)?;
    let m = Material::parse(&job.material)?;
    let layout = Layout::new(m);
    let data_dir = super::ship::data_dir_of(table.path())?;
    // Probed all over: packed inputs are decompressed whole once rather than
    // a frame per probe (zstd took an eighth of KPvKP's check).
    let probe = Tablebase::open_with(&m.successors(), |id| {
        open_table_unpacked(&data_dir, id, &super::ship::restore_payload)
    })?;
    Ok(solve::check(&layout, &values, &probe)?)
}
