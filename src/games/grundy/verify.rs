//! What `nimrod verify` checks in the Grundy tables.

use super::jobs::for_each_value;
use super::rare::is_rare_value;
use super::stats::{GrundyStats, Occurred};
use super::{misere, naive};
use crate::table::Table;
use anyhow::{bail, ensure, Context, Result};

/// Heaps cross-checked against the naive mex by `nimrod verify`.
const VERIFY_NAIVE_HEAPS: u64 = 20_000;

pub(super) fn verify_values(t: &Table) -> Result<()> {
    let stored: GrundyStats = serde_json::from_value(t.meta().stats.clone())
        .context("grundy/values statistics are malformed")?;
    let check = (t.len()).min(VERIFY_NAIVE_HEAPS + 1);
    let naive = naive::values(check as usize - 1);
    let head = super::coding::GrundyValues::new(t)?.read(0, check)?;
    if let Some(n) = (0..check as usize).find(|&i| naive[i] != head[i]) {
        bail!(
            "G({n}) = {} in the table, the naive mex gives {}",
            head[n],
            naive[n]
        );
    }
    let mut s = GrundyStats {
        scan_steps: stored.scan_steps,
        full_scans: stored.full_scans,
        ..Default::default()
    };
    let mut occurred = Occurred::of(&[]);
    for_each_value(t, |n, v| {
        s.bound = n;
        occurred.record(v, n, &mut s.first_heaps);
        if v > s.max_value || n == 0 {
            s.max_value = v;
            s.max_value_first_heap = n;
        }
        if v == 0 {
            s.zero_count += 1;
            s.last_zero_heap = n;
        }
        if is_rare_value(v) {
            s.rare_count += 1;
            s.last_rare_heap = n;
        }
    })?;
    if stored.first_heaps.is_empty() && t.header().entry_kind == crate::table::EntryKind::U16 {
        // Tables built before the statistics listed first heaps.
        s.first_heaps.clear();
    }
    ensure!(
        s == stored,
        "statistics {stored:?} do not match the values ({s:?})"
    );
    Ok(())
}

pub(super) fn verify_rare(t: &Table) -> Result<()> {
    for slot in 0..t.len() {
        let v = t.get::<u16>(slot)?;
        ensure!(
            is_rare_value(v),
            "heap {} stored as rare with common value {v}",
            t.key_at(slot)?
        );
    }
    Ok(())
}

pub(super) fn verify_misere(t: &Table) -> Result<()> {
    let mut solver = misere::MisereSolver::new();
    for n in 0..t.len() {
        let expect = solver.single_heap(n as u8);
        let got = misere::decode(t.get::<u32>(n)?);
        ensure!(
            got.0 == expect.0 && got.1 == expect.1.map(u64::from),
            "misère heap {n}: table says {got:?}, search says {expect:?}"
        );
    }
    Ok(())
}
