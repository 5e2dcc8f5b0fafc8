//! What `nimrod verify` checks in a GOPS level: its size, its counters,
//! every value's range and the equal-hands zeros; deep, it re-solves the
//! level's matrix games from the level below (`recheck`).

use super::jobs::LevelJob;
use super::level::{Level, LevelStats};
use super::pattern::Pattern;
use super::{level_id, recheck, win, win_level_id};
use crate::games::game::VerifyDepth;
use crate::table::Table;
use anyhow::{ensure, Context, Result};

/// Re-solves (a sample of) the level's matrix games from the level below,
/// which must sit beside it (`kKK.nmt` next to `k(KK-1).nmt`, raw or packed).
pub(super) fn recheck_level(t: &Table, depth: &VerifyDepth) -> Result<recheck::RecheckReport> {
    let job = LevelJob::of(t)?;
    let (win, cards, k) = (job.wins(), job.cards, job.k);
    let below = if k > 1 {
        let id = if win {
            win_level_id(cards, k - 1)
        } else {
            level_id(cards, k - 1)
        };
        let data_dir = t
            .path()
            .ancestors()
            .nth(3)
            .context("table path has no data directory above it")?;
        let below = crate::games::query::open_table(data_dir, &id).with_context(|| {
            format!("re-solving its matrix games needs the level below, {id}, beside it")
        })?;
        let bp = LevelJob::of(&below)?;
        ensure!(
            bp.cards == cards && bp.k == k - 1 && bp.wins() == win,
            "{} is not level {} of the same GOPS build (parameters {})",
            below.path().display(),
            k - 1,
            below.meta().params
        );
        Some(below)
    } else {
        None
    };
    let objective = if win {
        recheck::Objective::win(cards, k)
    } else {
        recheck::Objective::score(cards, k)
    };
    recheck::recheck(
        t,
        below.as_ref(),
        &objective,
        recheck::RecheckScope {
            all: depth.all,
            sample: depth.sample,
            seed: depth.seed,
        },
    )
}

pub(super) fn verify_level(t: &Table) -> Result<()> {
    let job = LevelJob::of(t)?;
    if job.wins() {
        return verify_win_level(t, job);
    }
    let (cards, k) = (job.cards, job.k);
    let level = Level::new(cards, k);
    ensure!(
        t.len() == level.len(),
        "{} entries, expected {} for N = {cards}, k = {k}",
        t.len(),
        level.len()
    );
    let np = level.patterns.len();
    let stored: LevelStats = serde_json::from_value(t.meta().stats["solve"].clone())
        .context("GOPS solve statistics are malformed")?;
    ensure!(
        stored.states == level.len() && stored.matrix_games == level.len() * k as u64,
        "statistics count {} states and {} games, the level has {} and {}",
        stored.states,
        stored.matrix_games,
        level.len(),
        level.len() * k as u64
    );
    for prize_rank in 0..level.prize_sets {
        let prizes = crate::table::rank::unrank_subset(prize_rank, k as u32);
        let total: u32 = (0..cards as u32)
            .filter(|b| prizes >> b & 1 == 1)
            .map(|b| b + 1)
            .sum();
        let row = t.read_range::<f64>(prize_rank * np, np)?;
        for (r, &v) in row.iter().enumerate() {
            ensure!(
                v.is_finite() && v.abs() <= total as f64 + 1e-9,
                "pattern {} with prizes {prizes:#b}: value {v} outside ±{total}",
                level.patterns.unrank(r as u64)
            );
        }
        ensure!(
            row[0].abs() < 1e-9,
            "equal hands with prizes {prizes:#b} are worth {} (must be 0)",
            row[0]
        );
    }
    Ok(())
}

fn verify_win_level(t: &Table, job: LevelJob) -> Result<()> {
    let (cards, k) = (job.cards, job.k);
    let level = win::WinLevel::new(cards, k);
    ensure!(
        t.len() == level.len(),
        "{} entries, expected {} for the win objective at N = {cards}, k = {k}",
        t.len(),
        level.len()
    );
    // Equal hands with nothing scored yet are worth 0 for every prize set.
    let hands = (1u32 << k) - 1;
    for r in 0..level.base.prize_sets {
        let prizes = crate::table::rank::unrank_subset(r, k as u32);
        if let Some(win::WinLookup::Stored { slot, .. }) =
            level.locate(&Pattern::from_hands(hands, hands), prizes, 0)
        {
            let v = t.get::<f64>(slot)?;
            ensure!(
                v.abs() < 1e-9,
                "equal hands, prizes {prizes:#b}, difference 0: win value {v} (must be 0)"
            );
        }
    }
    const CHUNK: u64 = 1 << 20;
    let mut start = 0;
    while start < t.len() {
        let n = CHUNK.min(t.len() - start);
        for (i, v) in t.read_range::<f64>(start, n)?.into_iter().enumerate() {
            ensure!(
                v.is_finite() && v.abs() <= 1.0 + 1e-9,
                "slot {}: win value {v} outside [-1, 1]",
                start + i as u64
            );
        }
        start += n;
    }
    Ok(())
}
