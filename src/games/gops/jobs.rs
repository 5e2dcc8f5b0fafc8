//! The GOPS jobs: one per level and objective, each built whole or in
//! parts and merged.

use super::level::{self, Level, LevelStats};
use super::pattern::{Pattern, MAX_CARDS};
use super::probe::Objective;
use super::{win, Gops, SOLVER_VERSION};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner, Shard};
use crate::table::writer::write_ranked;
use crate::table::{Table, TableMeta};
use anyhow::{ensure, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
/// The `[gops]` config section.
pub struct GopsParams {
    /// N: each player holds 1..N and the prize deck is 1..N. Every smaller
    /// game is a subgame of it, so one chain of levels answers all N' ≤ N.
    pub cards: usize,
    /// N for the win-probability objective (absent: not built). Its tables
    /// carry the score difference, so they are far larger per N.
    #[serde(default)]
    pub win_cards: Option<usize>,
}

/// The job id of score level `k` of a `cards`-card game (`gops/n13/k05`).
pub fn level_id(cards: usize, k: usize) -> String {
    format!("gops/n{cards:02}/k{k:02}")
}

/// The job id of win-objective level `k` (`gops/win-n11/k05`).
pub fn win_level_id(cards: usize, k: usize) -> String {
    format!("gops/win-n{cards:02}/k{k:02}")
}

/// The parameters of one GOPS level job (hashed into its table's header,
/// and recorded as the table's parameters). The score objective is the
/// default and is not written, so its tables keep their bytes.
#[derive(Serialize, Deserialize)]
pub(super) struct LevelJob {
    pub(super) cards: usize,
    pub(super) k: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    objective: Option<Objective>,
    solver: u32,
}

impl LevelJob {
    fn json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("plain struct")
    }

    /// The parameters a level table records, checked to name a level that
    /// can exist.
    pub(super) fn of(t: &Table) -> Result<LevelJob> {
        let job: LevelJob = crate::games::query::table_params(t)?;
        ensure!(
            (1..=MAX_CARDS).contains(&job.cards) && (1..=job.cards).contains(&job.k),
            "{}: GOPS level parameters N = {}, k = {} name no level",
            t.path().display(),
            job.cards,
            job.k
        );
        Ok(job)
    }

    pub(super) fn wins(&self) -> bool {
        self.objective == Some(Objective::Win)
    }
}

impl Planner for Gops {
    fn name(&self) -> &'static str {
        crate::games::game::Game::name(self)
    }
    /// Score level k: k matrix games of k x k per state (one per upcard),
    /// one f64 per state,
    /// and the level below mapped beside it.
    fn estimate(&self, job: &Job) -> Option<crate::pipeline::Estimate> {
        let p: LevelJob = serde_json::from_value(job.params.clone()).ok()?;
        // Win-probability levels also index the score difference: no
        // estimate for them yet.
        if p.wins() {
            return None;
        }
        let states = level::Level::new(p.cards, p.k).len();
        let below = if p.k > 1 {
            level::Level::new(p.cards, p.k - 1).len()
        } else {
            0
        };
        Some(crate::pipeline::Estimate {
            entries: states,
            output_bytes: states.saturating_mul(8),
            memory_bytes: states.saturating_add(below).saturating_mul(8),
            work: states.saturating_mul(p.k as u64),
            work_unit: format!("matrix games of {k} x {k}", k = p.k),
            cpu_seconds: None,
        })
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: GopsParams = game_params(source, "gops", section)?;
        ensure!(
            (1..=MAX_CARDS).contains(&p.cards),
            "{source}: [gops] cards = {} is out of range (1 ..= {MAX_CARDS})",
            p.cards
        );
        let mut jobs: Vec<Job> = level_chain(p.cards, false).collect();
        if let Some(wc) = p.win_cards {
            ensure!(
                (1..=MAX_CARDS).contains(&wc),
                "{source}: [gops] win_cards = {wc} is out of range (1 ..= {MAX_CARDS})"
            );
            jobs.extend(level_chain(wc, true));
        }
        Ok(jobs)
    }
}

/// The jobs of levels k = 1..=cards, each built on the level below: the
/// score levels, or with `win` the win-probability levels.
fn level_chain(cards: usize, win: bool) -> impl Iterator<Item = Job> {
    let (id, objective): (fn(usize, usize) -> String, _) = if win {
        (win_level_id, Some(Objective::Win))
    } else {
        (level_id, None)
    };
    (1..=cards).map(move |k| Job {
        id: id(cards, k),
        deps: if k > 1 {
            vec![id(cards, k - 1)]
        } else {
            vec![]
        },
        params: LevelJob {
            cards,
            k,
            objective,
            solver: SOLVER_VERSION,
        }
        .json(),
        run: Box::new(move |ctx| build_level(ctx, cards, k, win)),
        parts: Some(std::sync::Arc::new(LevelParts { cards, k, win })),
    })
}

/// The shape of one level of either objective: what the build of a whole
/// level, of one part, and the merge of parts share.
enum Shape {
    Score(Level),
    Win(win::WinLevel),
}

impl Shape {
    fn new(cards: usize, k: usize, win: bool) -> Shape {
        if win {
            Shape::Win(win::WinLevel::new(cards, k))
        } else {
            Shape::Score(Level::new(cards, k))
        }
    }
    fn base(&self) -> &Level {
        match self {
            Shape::Score(l) => l,
            Shape::Win(w) => &w.base,
        }
    }
    fn is_win(&self) -> bool {
        matches!(self, Shape::Win(_))
    }
    fn id(&self, k: usize) -> String {
        let cards = self.base().cards;
        if self.is_win() {
            win_level_id(cards, k)
        } else {
            level_id(cards, k)
        }
    }
    /// Units of work: one per (prize set, pattern).
    fn units(&self) -> u64 {
        self.base().len()
    }
    /// The slots that the units `units` fill.
    fn slots(&self, units: &std::ops::Range<u64>) -> std::ops::Range<u64> {
        match self {
            Shape::Score(_) => units.clone(),
            Shape::Win(w) => w.unit_start(units.start)..w.unit_start(units.end),
        }
    }
    fn len(&self) -> u64 {
        match self {
            Shape::Score(l) => l.len(),
            Shape::Win(w) => w.len(),
        }
    }

    /// The slots of prize-set rank `r`'s row (all its patterns, and for
    /// the win objective every score difference).
    fn row_slots(&self, r: u64) -> std::ops::Range<u64> {
        match self {
            Shape::Score(l) => {
                let np = l.patterns.len();
                r * np..(r + 1) * np
            }
            Shape::Win(w) => w.block(r),
        }
    }

    /// Solves the units `units`, reading from the level below only the
    /// rows (prize sets) they need, each through a checked view.
    fn solve(
        &self,
        ctx: &JobContext,
        units: std::ops::Range<u64>,
        progress: &(impl Fn(u64) + Sync),
    ) -> Result<(Vec<f64>, LevelStats)> {
        let base = self.base();
        let (cards, k) = (base.cards, base.k);
        let needed = level::rows_needed(base, units.clone());
        let below = if k > 1 {
            let id = self.id(k - 1);
            let t = ctx.open(&id)?;
            let shape = Shape::new(cards, k - 1, self.is_win());
            ensure!(
                t.len() == shape.len(),
                "{id} has {} entries, expected {}",
                t.len(),
                shape.len()
            );
            Some((t, shape))
        } else {
            None
        };
        let rows: Vec<std::borrow::Cow<[f64]>> = match &below {
            None if self.is_win() => vec![std::borrow::Cow::Borrowed(&[])],
            None => vec![std::borrow::Cow::Owned(vec![0.0])],
            Some((t, shape)) => (0..shape.base().prize_sets)
                .map(|r| {
                    if !needed[r as usize] {
                        return Ok(std::borrow::Cow::Borrowed(&[][..]));
                    }
                    let slots = shape.row_slots(r);
                    t.view::<f64>(slots.start, slots.end - slots.start)
                        .map_err(anyhow::Error::from)
                })
                .collect::<Result<_>>()?,
        };
        let rows: Vec<&[f64]> = rows.iter().map(|r| r.as_ref()).collect();
        Ok(match self {
            Shape::Score(l) => level::solve_units(l, units, &rows, progress),
            Shape::Win(w) => win::solve_units(w, units, &rows, progress),
        })
    }

    /// The full game's value (k = N only), from any reader of the level.
    fn full_game_value(&self, value: impl Fn(u64) -> Result<f64>) -> Result<Option<f64>> {
        let base = self.base();
        let (cards, k) = (base.cards, base.k);
        if k != cards {
            return Ok(None);
        }
        let (all, full) = ((1u64 << cards) - 1, (1u32 << k) - 1);
        let p = Pattern::from_hands(full, full);
        Ok(Some(match self {
            Shape::Score(l) => {
                let (slot, _) = l.locate(&p, all).expect("full game");
                value(slot)?
            }
            Shape::Win(w) => match w.locate(&p, all, 0).expect("full game") {
                win::WinLookup::Decided(v) => v,
                win::WinLookup::Stored { slot, negate } => {
                    let v = value(slot)?;
                    if negate {
                        -v
                    } else {
                        v
                    }
                }
            },
        }))
    }

    /// The level table's metadata: the same whether built whole or merged.
    fn meta(
        &self,
        ctx: &JobContext,
        stats: &LevelStats,
        full_game_value: Option<f64>,
    ) -> TableMeta {
        let base = self.base();
        let k = base.k;
        let stats_json = json!({
            "cards": base.cards,
            "k": k,
            "patterns": base.patterns.len(),
            "prize_sets": base.prize_sets,
            "solve": stats,
            "full_game_value": full_game_value,
        });
        match self {
            Shape::Score(_) => TableMeta::new(
                "gops",
                &format!("level{k:02}"),
                ctx.params.clone(),
                "prize_rank * patterns + pattern_rank: prize set ranked in the combinatorial number system (bit p-1 = prize p), canonical hand pattern ranked by m = unshared cards, then C^j A w by j and the lexicographic rank of w",
                "f64 expected score difference (player one minus player two) before the upcard, both playing optimally",
                stats_json,
            ),
            Shape::Win(_) => TableMeta::new(
                "gops",
                &format!("win-level{k:02}"),
                ctx.params.clone(),
                "per prize set (rank order) a block of patterns x (2*sum(P)+1): slot = block + pattern_rank*(2S+1) + (d+S); states with |d| > S are decided (sign d) and not stored",
                "f64 P(player one wins) - P(player two wins) under optimal play for that objective",
                stats_json,
            ),
        }
        .stamped(ctx.stamp())
    }
}

fn build_level(ctx: &JobContext, cards: usize, k: usize, win: bool) -> Result<()> {
    let shape = Shape::new(cards, k, win);
    let stage = ctx.progress.stage(
        ctx.id,
        if win {
            "win-objective games by prize set"
        } else {
            "matrix games by prize set"
        },
        shape.base().prize_sets,
    );
    let (values, stats) = shape.solve(ctx, 0..shape.units(), &|n| stage.inc(n))?;
    let full = shape.full_game_value(|s| Ok(values[s as usize]))?;
    write_ranked(
        &ctx.output,
        &values,
        &shape.meta(ctx, &stats, full),
        ctx.param_hash,
    )?;
    stage.finish();
    Ok(())
}

/// What a part of a level records beside its values: which part, which
/// units and slots it holds, and its games' counters.
#[derive(Serialize, Deserialize)]
struct PartStats {
    part: u32,
    parts: u32,
    units: [u64; 2],
    slots: [u64; 2],
    solve: LevelStats,
    /// `solve.worst_gap`'s bits: a JSON float may parse back one unit in
    /// the last place off, and the merged metadata must be the whole
    /// build's to the byte.
    worst_gap_bits: u64,
}

/// Splits a level (either objective) into parts by (prize set, pattern)
/// units: part i of s holds a contiguous range of them, and so a
/// contiguous range of the level's slots.
struct LevelParts {
    cards: usize,
    k: usize,
    win: bool,
}

impl crate::pipeline::JobParts for LevelParts {
    fn build_part(&self, ctx: &JobContext, part: Shard) -> Result<()> {
        let shape = Shape::new(self.cards, self.k, self.win);
        let units = part.range(shape.units());
        let segments = level::segments(shape.base(), units.clone()).len() as u64;
        let stage = ctx
            .progress
            .stage(ctx.id, "prize sets (or parts of one)", segments);
        let (values, stats) = shape.solve(ctx, units.clone(), &|n| stage.inc(n))?;
        let slots = shape.slots(&units);
        let meta = TableMeta::new(
            "gops",
            &format!(
                "{}level{:02}-part",
                if self.win { "win-" } else { "" },
                self.k
            ),
            ctx.params.clone(),
            "slots stats.slots of the level, in order",
            "f64, as in the level",
            serde_json::to_value(PartStats {
                part: part.index,
                parts: part.count,
                units: [units.start, units.end],
                slots: [slots.start, slots.end],
                worst_gap_bits: stats.worst_gap.to_bits(),
                solve: stats,
            })?,
        )
        .stamped(ctx.stamp());
        write_ranked(&ctx.output, &values, &meta, ctx.param_hash)?;
        stage.finish();
        Ok(())
    }

    fn merge(&self, ctx: &JobContext, parts: &[Table]) -> Result<()> {
        let shape = Shape::new(self.cards, self.k, self.win);
        let count = parts.len() as u32;
        let mut stats = LevelStats::default();
        let mut starts = Vec::new();
        for (i, t) in parts.iter().enumerate() {
            let part = Shard::new(i as u32 + 1, count)?;
            let ps: PartStats =
                serde_json::from_value(t.meta().stats.clone()).with_context(|| {
                    format!("{}: part statistics are malformed", t.path().display())
                })?;
            let units = part.range(shape.units());
            let slots = shape.slots(&units);
            ensure!(
                ps.part == part.index
                    && ps.parts == count
                    && ps.units == [units.start, units.end]
                    && ps.slots == [slots.start, slots.end]
                    && t.len() == slots.end - slots.start,
                "{}: holds part {}/{} units {:?} ({} entries), expected part {}/{count} units {units:?}",
                t.path().display(),
                ps.part,
                ps.parts,
                ps.units,
                t.len(),
                part.index
            );
            stats = stats.add(LevelStats {
                worst_gap: f64::from_bits(ps.worst_gap_bits),
                ..ps.solve
            });
            starts.push(slots.start);
        }
        let value = |slot: u64| -> Result<f64> {
            let i = starts.partition_point(|&s| s <= slot) - 1;
            Ok(parts[i].get::<f64>(slot - starts[i])?)
        };
        let full = shape.full_game_value(value)?;
        let mut w =
            crate::table::writer::TableWriter::create(&ctx.output, crate::table::EntryKind::F64)?;
        const CHUNK: u64 = 1 << 20;
        for t in parts {
            let mut at = 0;
            while at < t.len() {
                let n = CHUNK.min(t.len() - at);
                w.write_entries(&t.view::<f64>(at, n)?)?;
                at += n;
            }
        }
        w.finish(&shape.meta(ctx, &stats, full), ctx.param_hash)?;
        Ok(())
    }
}
