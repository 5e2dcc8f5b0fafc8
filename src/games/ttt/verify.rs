//! What `nimrod verify` checks in a ttt board table beyond its checksums.

use super::board::Position;
use super::solve::{self, Solved, TreeStats};
use super::{lookup, table_geometry};
use crate::table::Table;
use anyhow::{bail, ensure, Context, Result};

pub(super) fn verify_board(t: &Table) -> Result<()> {
    let g = table_geometry(t)?;
    let stored: TreeStats =
        serde_json::from_value(t.meta().stats.clone()).context("ttt statistics are malformed")?;
    ensure!(
        stored.templates == t.len(),
        "statistics say {} templates, the table has {}",
        stored.templates,
        t.len()
    );
    // Every entry is consistent with its children one ply down.
    for slot in 0..t.len() {
        let p = Position::from_key(t.key_at(slot)?);
        let Some(s) = Solved::decode(t.get::<u32>(slot)?) else {
            bail!("slot {slot}: undecodable entry");
        };
        if solve::is_terminal(&g, p) {
            ensure!(
                s.distance == 0 && s.best == 0,
                "terminal slot {slot} has moves"
            );
            continue;
        }
        let mut empty = g.full() & !p.occupied();
        let mut best = (i8::MIN, 0u8);
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let (_, _, _, c) = lookup(t, &g, p.play(cell))?;
            let cand = (-c.value, c.distance + 1);
            if s.best >> cell & 1 == 1 {
                ensure!(
                    cand == (s.value, s.distance),
                    "slot {slot}: optimal move {cell} leads to {cand:?}, entry says {:?}",
                    (s.value, s.distance)
                );
            }
            if cand.0 > best.0 {
                best = cand;
            }
        }
        ensure!(
            best.0 == s.value,
            "slot {slot}: value {} but the best child gives {}",
            s.value,
            best.0
        );
    }
    Ok(())
}
