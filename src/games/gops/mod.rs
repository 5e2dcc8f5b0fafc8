//! GOPS (Goofspiel), the expected-score objective, solved bottom-up by hand
//! size. Level k holds f(V, Y, P) for every canonical hand pattern and every
//! k-subset P of prizes; each level is one table (and one checkpoint).
//! Strategies are not stored: a query re-solves the one matrix game per
//! upcard from the stored values of level k − 1.

pub mod level;
pub mod pattern;
mod play;
mod query;
pub mod recheck;
pub mod win;

use super::query::{from_matches, Answer, QueryContext};
use super::{Game, VerifyDepth, VerifyNote};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_ranked;
use crate::table::{Table, TableMeta};
use anyhow::{ensure, Context, Result};
use level::{Level, LevelStats};
use pattern::{Pattern, MAX_CARDS};
use query::Objective;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Bumped whenever the solver's output could change; part of the parameter hash.
/// Version 2: every matrix game certified, with fallbacks (issue 15).
const SOLVER_VERSION: u32 = 2;

pub struct Gops;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GopsParams {
    /// N: each player holds 1..N and the prize deck is 1..N. Every smaller
    /// game is a subgame of it, so one chain of levels answers all N' ≤ N.
    pub cards: usize,
    /// N for the win-probability objective (absent: not built). Its tables
    /// carry the score difference, so they are far larger per N.
    #[serde(default)]
    pub win_cards: Option<usize>,
}

pub fn level_id(cards: usize, k: usize) -> String {
    format!("gops/n{cards:02}/k{k:02}")
}

pub fn win_level_id(cards: usize, k: usize) -> String {
    format!("gops/win-n{cards:02}/k{k:02}")
}

/// The parameters of one GOPS level job (hashed into its table's header,
/// and recorded as the table's parameters). The score objective is the
/// default and is not written, so its tables keep their bytes.
#[derive(Serialize, Deserialize)]
struct LevelJob {
    cards: usize,
    k: usize,
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
    fn of(t: &Table) -> Result<LevelJob> {
        let job: LevelJob = super::query::table_params(t)?;
        ensure!(
            (1..=MAX_CARDS).contains(&job.cards) && (1..=job.cards).contains(&job.k),
            "{}: GOPS level parameters N = {}, k = {} name no level",
            t.path().display(),
            job.cards,
            job.k
        );
        Ok(job)
    }

    fn wins(&self) -> bool {
        self.objective == Some(Objective::Win)
    }
}

impl Planner for Gops {
    fn name(&self) -> &'static str {
        "gops"
    }
    /// Score level k: one k x k matrix game per state, one f64 per state,
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
            work: states,
            work_unit: format!("matrix games of {k} x {k}", k = p.k),
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
    type Build = fn(&JobContext, usize, usize) -> Result<()>;
    let (id, build, objective): (fn(usize, usize) -> String, Build, _) = if win {
        (win_level_id, build_win_level, Some(Objective::Win))
    } else {
        (level_id, build_level, None)
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
        run: Box::new(move |ctx| build(ctx, cards, k)),
    })
}

impl Game for Gops {
    fn summary(&self) -> &'static str {
        "GOPS (Goofspiel): expected score difference and optimal mixed bids for every subgame"
    }

    fn query_command(&self) -> clap::Command {
        <query::GopsQuery as clap::CommandFactory>::command()
    }

    fn query(&self, args: &clap::ArgMatches, ctx: &QueryContext) -> Result<Answer> {
        let q: query::GopsQuery = from_matches(args)?;
        query::answer(&q, ctx)
    }

    fn play_command(&self) -> Option<clap::Command> {
        Some(<play::GopsPlay as clap::CommandFactory>::command())
    }

    fn play(
        &self,
        args: &clap::ArgMatches,
        ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<()> {
        play::play(args, ctx, input, output)
    }

    fn verify(&self, table: &Table) -> Result<()> {
        verify_level(table)
    }

    fn verify_deep(&self, table: &Table, depth: &VerifyDepth) -> Result<Option<VerifyNote>> {
        verify_level(table)?;
        let report = recheck_level(table, depth)?;
        Ok(Some(VerifyNote {
            text: report.to_string(),
            json: serde_json::to_value(&report)?,
        }))
    }
}

/// Re-solves (a sample of) the level's matrix games from the level below,
/// which must sit beside it (`kKK.nmt` next to `k(KK-1).nmt`, raw or packed).
fn recheck_level(t: &Table, depth: &VerifyDepth) -> Result<recheck::RecheckReport> {
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
        let below = super::query::open_table(data_dir, &id).with_context(|| {
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

/// Values of the level below, from its table (level 0 is the single 0).
fn load_below(ctx: &JobContext, cards: usize, k: usize) -> Result<(Option<Table>, Vec<f64>)> {
    if k == 1 {
        return Ok((None, vec![0.0]));
    }
    let id = level_id(cards, k - 1);
    let t = ctx.open(&id)?;
    ensure!(
        t.len() == Level::new(cards, k - 1).len(),
        "{id} has {} entries, expected {}",
        t.len(),
        Level::new(cards, k - 1).len()
    );
    if t.entries::<f64>()?.is_some() {
        return Ok((Some(t), Vec::new()));
    }
    let owned = t.read_range::<f64>(0, t.len())?;
    Ok((None, owned))
}

fn build_level(ctx: &JobContext, cards: usize, k: usize) -> Result<()> {
    let level = Level::new(cards, k);
    let stage = ctx
        .progress
        .stage(ctx.id, "matrix games by prize set", level.prize_sets);
    let (mapped, owned) = load_below(ctx, cards, k)?;
    let prev: &[f64] = match &mapped {
        Some(t) => t
            .entries::<f64>()?
            .context("level below is not an f64 table")?,
        None => &owned,
    };
    let (values, stats) = level::solve_level(&level, prev, &|n| stage.inc(n));
    drop(mapped);
    let full_hands = (1u32 << k) - 1;
    let all_prizes = (1u64 << cards) - 1;
    let stats_json = json!({
        "cards": cards,
        "k": k,
        "patterns": level.patterns.len(),
        "prize_sets": level.prize_sets,
        "solve": stats,
        "full_game_value": (k == cards).then(|| {
            let (slot, _) = level.locate(&Pattern::from_hands(full_hands, full_hands), all_prizes).expect("full game");
            values[slot as usize]
        }),
    });
    write_ranked(
        &ctx.output,
        &values,
        &TableMeta::new(
            "gops",
            &format!("level{k:02}"),
            ctx.params.clone(),
            "prize_rank * patterns + pattern_rank: prize set ranked in the combinatorial number system (bit p-1 = prize p), canonical hand pattern ranked by m = unshared cards, then C^j A w by j and the lexicographic rank of w",
            "f64 expected score difference (player one minus player two) before the upcard, both playing optimally",
            stats_json,
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    stage.finish();
    Ok(())
}

fn build_win_level(ctx: &JobContext, cards: usize, k: usize) -> Result<()> {
    let level = win::WinLevel::new(cards, k);
    let stage = ctx.progress.stage(
        ctx.id,
        "win-objective games by prize set",
        level.base.prize_sets,
    );
    let below = if k > 1 {
        let id = win_level_id(cards, k - 1);
        let t = ctx.open(&id)?;
        let expect = win::WinLevel::new(cards, k - 1).len();
        ensure!(
            t.len() == expect,
            "{id} has {} entries, expected {expect}",
            t.len()
        );
        t.read_range::<f64>(0, t.len())?
    } else {
        Vec::new()
    };
    let (values, stats) = win::solve_level(&level, &below, &|n| stage.inc(n));
    drop(below);
    let all = (1u64 << cards) - 1;
    let full = (1u32 << k) - 1;
    let stats_json = json!({
        "cards": cards,
        "k": k,
        "patterns": level.base.patterns.len(),
        "prize_sets": level.base.prize_sets,
        "solve": stats,
        "full_game_value": (k == cards).then(|| {
            level.value(|s| values[s as usize], &Pattern::from_hands(full, full), all, 0)
        }),
    });
    write_ranked(
        &ctx.output,
        &values,
        &TableMeta::new(
            "gops",
            &format!("win-level{k:02}"),
            ctx.params.clone(),
            "per prize set (rank order) a block of patterns x (2*sum(P)+1): slot = block + pattern_rank*(2S+1) + (d+S); states with |d| > S are decided (sign d) and not stored",
            "f64 P(player one wins) - P(player two wins) under optimal play for that objective",
            stats_json,
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    stage.finish();
    Ok(())
}

fn verify_level(t: &Table) -> Result<()> {
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
