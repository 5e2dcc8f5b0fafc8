//! The Klondike jobs: greedy games and solver verdicts per rule set, and
//! the report that gathers them.

use super::cards::shuffled;
use super::greedy::Player;
use super::independent::rules::Table;
use super::solver::{self, Layout};
use super::state::{Move, Rules};
use super::verdict::{self, RelaxedVerdict, Verdict, LOST, RELAXED, UNKNOWN, WON};
use super::{
    greedy, nopeek, nopeek_games, parse_rules, query, records, report, rules_id, seeds, stats,
    Klondike, MAX_GREEDY_DEALS, PLAYERS, SOLVER_VERSION, VERSION,
};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_ranked;
use crate::table::TableMeta;
use anyhow::{ensure, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The parameters of `klondike/greedy-R` (hashed into its table's header).
#[derive(Serialize)]
struct GreedyJob {
    rules: Rules,
    deals: u64,
    version: u32,
}

/// The parameters of `klondike/solver-R`.
#[derive(Serialize, Deserialize)]
struct SolverJob {
    rules: Rules,
    deals: u64,
    budget: u64,
    version: u32,
    /// The job whose verdicts this one reads: the relaxed rule set's
    /// solver, when the config builds it (a loss there is a loss here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    relaxed_from: Option<String>,
}

/// The parameters of `klondike/report`.
#[derive(Serialize)]
struct ReportJob {
    rules: Vec<Rules>,
    greedy_deals: u64,
    solver_deals: u64,
    budget: u64,
    version: u32,
    /// The no-peek jobs read (none: the field is left out, so a report
    /// without them keeps its hash).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    nopeek_samples: Vec<u32>,
    #[serde(skip_serializing_if = "is_zero")]
    nopeek_deals: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
/// The `[klondike]` config section.
pub struct KlondikeParams {
    /// Rule sets as "DRAW/REDEAL[/noworry]": DRAW 1 or 3, REDEAL none,
    /// unlimited or a number of passes; "/noworry" forbids worrying back
    /// ("3/unlimited", "1/none", "3/3", "3/unlimited/noworry").
    pub rules: Vec<String>,
    /// Deals the greedy players play, per rule set.
    pub greedy_deals: u64,
    /// Deals the solver decides, per rule set.
    pub solver_deals: u64,
    /// Search nodes per deal before the solver reports "unknown".
    pub solver_budget: u64,
    /// Solvitaire's seeds `[FIRST, LAST]` (LAST excluded) to decide per
    /// rule set, at the same budget (`klondike/solvitaire-R`, built in
    /// parts with `build --shard`); none when absent.
    #[serde(default)]
    pub solvitaire_seeds: Option<Vec<u64>>,
    /// Deals `0..nopeek_deals` the no-peek player plays per rule set and
    /// sample count (`klondike/nopeek-R-sS`, built in parts with `build
    /// --shard`); none when 0 or absent.
    #[serde(default)]
    pub nopeek_deals: u64,
    /// Samples of the unseen cards per decision: one count or a list (a
    /// job each, for the samples-vs-strength curve).
    #[serde(default)]
    pub nopeek_samples: Option<toml::Value>,
    /// Classes each sample's solve may store before it counts as not won
    /// (default 2*10^4).
    #[serde(default)]
    pub nopeek_budget: Option<u64>,
}

impl KlondikeParams {
    /// The no-peek sample counts the config asks for (none without deals),
    /// each checked to be a count in range.
    fn nopeek_samples(&self, source: &str) -> Result<Vec<u32>> {
        if self.nopeek_deals == 0 {
            return Ok(Vec::new());
        }
        let count = |v: &toml::Value| -> Result<u32> {
            v.as_integer()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| (1..=nopeek::MAX_SAMPLES).contains(n))
                .with_context(|| {
                    format!(
                        "{source}: [klondike] nopeek_samples: {v} is not a count in range (1 ..= {})",
                        nopeek::MAX_SAMPLES
                    )
                })
        };
        match &self.nopeek_samples {
            None => Ok(vec![nopeek_games::DEFAULT_SAMPLES]),
            Some(toml::Value::Array(list)) if list.is_empty() => Err(anyhow::anyhow!(
                "{source}: [klondike] nopeek_samples is an empty list: give a count or a list of counts"
            )),
            Some(toml::Value::Array(list)) => list.iter().map(count).collect(),
            Some(one) => Ok(vec![count(one)?]),
        }
    }
}

impl Planner for Klondike {
    fn name(&self) -> &'static str {
        crate::games::game::Game::name(self)
    }
    /// The solver jobs: a verdict byte a deal, and at their peak one full
    /// search per thread (about 12.5 bytes a class of the budget).
    fn estimate(&self, job: &Job) -> Option<crate::pipeline::Estimate> {
        if let Ok(j) = serde_json::from_value::<nopeek_games::NoPeekJob>(job.params.clone()) {
            return Some(nopeek_games::estimate(&j));
        }
        let (deals, budget) = match serde_json::from_value::<SolverJob>(job.params.clone()) {
            Ok(j) => (j.deals, j.budget),
            Err(_) => seeds::deals_and_budget(&job.params)?,
        };
        Some(crate::pipeline::Estimate {
            entries: deals,
            output_bytes: deals,
            memory_bytes: budget.saturating_mul(25) / 2,
            work: deals,
            work_unit: format!("deals searched, at most {budget} classes each"),
            cpu_seconds: None,
        })
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: KlondikeParams = game_params(source, "klondike", section)?;
        ensure!(!p.rules.is_empty(), "{source}: [klondike] rules is empty");
        ensure!(
            p.greedy_deals >= 1 && p.solver_deals <= p.greedy_deals,
            "{source}: [klondike] needs greedy_deals >= 1 and solver_deals <= greedy_deals"
        );
        ensure!(
            p.solver_budget >= 1,
            "{source}: [klondike] solver_budget must be >= 1"
        );
        // Bounds that keep a typo from allocating the machine away: the
        // greedy table holds a byte a deal per player, the solver about 12 bytes a
        // position of its budget.
        ensure!(
            p.greedy_deals <= MAX_GREEDY_DEALS,
            "{source}: [klondike] greedy_deals = {} is out of range (1 ..= {MAX_GREEDY_DEALS})",
            p.greedy_deals
        );
        ensure!(
            p.solver_budget <= query::MAX_BUDGET,
            "{source}: [klondike] solver_budget = {} is out of range (1 ..= {})",
            p.solver_budget,
            query::MAX_BUDGET
        );
        let parsed = p
            .rules
            .iter()
            .map(|text| parse_rules(text).with_context(|| format!("{source}: [klondike] rules")))
            .collect::<Result<Vec<Rules>>>()?;
        // Every other rule set reads the relaxed one's verdicts when the
        // config builds it too (same deals, same budget).
        let relaxed_job = parsed
            .contains(&RELAXED)
            .then(|| format!("klondike/solver-{}", rules_id(&RELAXED)));
        let nopeek = p.nopeek_samples(source)?;
        nopeek_games::check(source, p.nopeek_deals, &nopeek)?;
        if let Some(b) = p.nopeek_budget {
            ensure!(
                (1..=query::MAX_BUDGET).contains(&b),
                "{source}: [klondike] nopeek_budget = {b} is out of range (1 ..= {})",
                query::MAX_BUDGET
            );
        }
        ensure!(
            p.nopeek_deals <= p.greedy_deals,
            "{source}: [klondike] nopeek_deals = {} needs greedy_deals >= it (the report pairs the games with the strong list's)",
            p.nopeek_deals
        );
        let seeds = match &p.solvitaire_seeds {
            Some(range) => Some(seeds::seed_range(source, range)?),
            None => None,
        };
        let mut jobs = Vec::new();
        let mut ids = Vec::new();
        let mut all_rules = Vec::new();
        for (text, rules) in p.rules.iter().zip(parsed) {
            let id = rules_id(&rules);
            ensure!(
                !ids.contains(&id),
                "{source}: [klondike] rule set {text} given twice"
            );
            ids.push(id.clone());
            all_rules.push(rules);
            let deals = p.greedy_deals;
            jobs.push(Job {
                id: format!("klondike/greedy-{id}"),
                deps: vec![],
                params: serde_json::to_value(GreedyJob {
                    rules,
                    deals,
                    version: VERSION,
                })?,
                run: Box::new(move |ctx| build_greedy(ctx, rules, deals)),
                parts: None,
            });
            let (sdeals, budget) = (p.solver_deals, p.solver_budget);
            let relaxed_from = relaxed_job.clone().filter(|_| rules != RELAXED);
            let mut deps = vec![format!("klondike/greedy-{id}")];
            deps.extend(relaxed_from.clone());
            let job = SolverJob {
                rules,
                deals: sdeals,
                budget,
                version: SOLVER_VERSION,
                relaxed_from,
            };
            jobs.push(Job {
                id: format!("klondike/solver-{id}"),
                deps,
                params: serde_json::to_value(&job)?,
                run: Box::new(move |ctx| build_solver(ctx, &job)),
                parts: None,
            });
            if let Some((first, last)) = seeds {
                jobs.push(seeds::job(rules, first, last, p.solver_budget)?);
            }
            for &samples in &nopeek {
                jobs.push(nopeek_games::job(
                    rules,
                    p.nopeek_deals,
                    samples,
                    p.nopeek_budget,
                )?);
            }
        }
        let mut deps: Vec<String> = ids
            .iter()
            .flat_map(|id| {
                [
                    format!("klondike/greedy-{id}"),
                    format!("klondike/solver-{id}"),
                ]
            })
            .collect();
        for rules in &all_rules {
            deps.extend(nopeek.iter().map(|&s| nopeek_games::job_id(rules, s)));
        }
        jobs.push(Job {
            id: "klondike/report".into(),
            deps,
            params: serde_json::to_value(ReportJob {
                rules: all_rules.clone(),
                greedy_deals: p.greedy_deals,
                solver_deals: p.solver_deals,
                budget: p.solver_budget,
                version: SOLVER_VERSION,
                nopeek_samples: nopeek.clone(),
                nopeek_deals: if nopeek.is_empty() { 0 } else { p.nopeek_deals },
            })?,
            run: Box::new(move |ctx| report::build(ctx, &all_rules, &nopeek)),
            parts: None,
        });
        Ok(jobs)
    }
}

fn build_greedy(ctx: &JobContext, rules: Rules, deals: u64) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "greedy games", deals);
    let games: Vec<([u8; PLAYERS], usize)> = (0..deals)
        .into_par_iter()
        .map(|deal| {
            let played = Player::ALL.map(|p| greedy::play(deal, &rules, &p));
            stage.inc(1);
            (
                played.each_ref().map(|g| g.home as u8),
                played.iter().map(|g| g.moves.len()).max().unwrap_or(0),
            )
        })
        .collect();
    stage.finish();
    let longest = games.iter().map(|g| g.1).max().unwrap_or(0);
    ensure!(
        longest < greedy::MOVE_LIMIT,
        "{}: a greedy game reached the {}-move limit; a player loops",
        ctx.id,
        greedy::MOVE_LIMIT
    );
    let outcomes: Vec<[u8; PLAYERS]> = games.into_iter().map(|g| g.0).collect();
    let entries: Vec<u8> = outcomes.iter().flatten().copied().collect();
    let players: Vec<records::PlayerResult> = Player::ALL
        .iter()
        .enumerate()
        .map(|(p, player)| {
            let wins = outcomes.iter().filter(|o| o[p] == 52).count() as u64;
            records::PlayerResult {
                variant: player.label(),
                wins,
                deals,
                win_rate: wins as f64 / deals as f64,
                ci95: stats::wilson(wins, deals),
            }
        })
        .collect();
    let labels = player_labels();
    let recorded = records::GreedyStats {
        rules: rules.label(),
        players: labels.clone(),
        variants: players,
        longest_game: longest,
    };
    write_ranked(
        &ctx.output,
        &entries,
        &TableMeta::new(
            "klondike",
            &format!("greedy-{}", rules_id(&rules)),
            ctx.params.clone(),
            &format!("deal * {PLAYERS} + player; players: {}", labels.join(", ")),
            "u8 cards on the foundations at the end (52 = won)",
            records::to_json(&recorded),
        )
        .stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    Ok(())
}

/// The players' labels in table order, as a greedy table records them.
fn player_labels() -> Vec<String> {
    Player::ALL.iter().map(|p| p.label()).collect()
}

/// The greedy table of a rule set, checked to hold one entry per player
/// and deal for this build's players.
pub fn greedy_outcomes(table: &crate::table::Table) -> Result<(u64, Vec<u8>)> {
    let labels = player_labels();
    let stored = records::read::<records::GreedyStats>(table)?.players;
    ensure!(
        stored == labels,
        "klondike/{}: the table lists players {stored:?}, this build has {labels:?}; rebuild it",
        table.meta().table
    );
    let len = table.len();
    ensure!(
        len.is_multiple_of(PLAYERS as u64),
        "klondike/{}: {len} entries is not a whole number of deals",
        table.meta().table
    );
    Ok((len / PLAYERS as u64, table.read_range::<u8>(0, len)?))
}

/// The relaxed rule set's verdict per deal, from its solver table, checked
/// to be this solver's version, at a budget at least `job`'s, over at least
/// its deals.
fn relaxed_verdicts(ctx: &JobContext, job: &SolverJob, id: &str) -> Result<Vec<RelaxedVerdict>> {
    let table = ctx.open(id)?;
    let theirs: SolverJob = serde_json::from_value(table.meta().params.clone())
        .with_context(|| format!("{}: the parameters of {id}", ctx.id))?;
    ensure!(
        theirs.rules == RELAXED
            && theirs.version == SOLVER_VERSION
            && theirs.budget >= job.budget
            && theirs.deals >= job.deals
            && table.len() >= job.deals,
        "{}: {id} is not the relaxed rule set's table of this solver (version {}) at budget {} or more over {} deals or more",
        ctx.id,
        SOLVER_VERSION,
        job.budget,
        job.deals
    );
    table
        .read_range::<u8>(0, job.deals)?
        .into_iter()
        .enumerate()
        .map(|(deal, code)| {
            RelaxedVerdict::from_code(code)
                .with_context(|| format!("{}: {id}, deal {deal}: verdict code {code}", ctx.id))
        })
        .collect()
}

/// A winning line replayed by the independent rules engine
/// (`independent::rules`), which shares no move generation with the solver.
fn independent_check_win(deal: u64, rules: &Rules, line: &[Move]) -> Result<()> {
    Table::deal(deal)
        .replay_win(line, rules)
        .map_err(|e| anyhow::anyhow!("deal {deal}: {}", e.0))
}

fn build_solver(ctx: &JobContext, job: &SolverJob) -> Result<()> {
    let (rules, deals, budget) = (job.rules, job.deals, job.budget);
    let relaxed = match &job.relaxed_from {
        Some(id) => Some(relaxed_verdicts(ctx, job, id)?),
        None => None,
    };
    let greedy = ctx.open(&format!("klondike/greedy-{}", rules_id(&rules)))?;
    let (greedy_deals, outcomes) = greedy_outcomes(&greedy)?;
    ensure!(
        greedy_deals >= deals,
        "{}: the greedy table has {greedy_deals} deals, the solver needs {deals}",
        ctx.id
    );
    let stage = ctx.progress.stage(ctx.id, "solver", deals);
    // A deal some greedy variant won is winnable: its game is the proof,
    // and the search is skipped (searched deals are counted apart).
    let results: Vec<(u8, u64, bool)> = (0..deals)
        .into_par_iter()
        .map(|deal| {
            let greedy_won = (0..PLAYERS).any(|p| outcomes[deal as usize * PLAYERS + p] == 52);
            let r = if greedy_won {
                (WON, 0, false)
            } else {
                // Lost under draw one with unlimited redeals (which every
                // rule set relaxes to) is lost here.
                let known_lost = relaxed
                    .as_ref()
                    .is_some_and(|known| known[deal as usize] == RelaxedVerdict::Lost);
                let s = if known_lost {
                    solver::Outcome {
                        verdict: Verdict::Lost,
                        classes: 0,
                        relaxed: false,
                    }
                } else {
                    solver::solve(&Layout::from_deck(&shuffled(deal)), &rules, budget)
                };
                if let Verdict::Won(line) = &s.verdict {
                    verdict::check_win(deal, &rules, line)?;
                    independent_check_win(deal, &rules, line)?;
                }
                let code = s.verdict.code();
                (code, s.classes, true)
            };
            stage.inc(1);
            Ok(r)
        })
        .collect::<Result<_>>()
        .with_context(|| format!("{}: a winning line failed its replay", ctx.id))?;
    stage.finish();
    let searched = results.iter().filter(|r| r.2).count() as u64;
    let won_by_search = results.iter().filter(|r| r.2 && r.0 == WON).count() as u64;
    let codes: Vec<u8> = results.iter().map(|r| r.0).collect();
    let count = |c: u8| codes.iter().filter(|&&x| x == c).count() as u64;
    let (won, lost, unknown) = (count(WON), count(LOST), count(UNKNOWN));
    let decided = won + lost;
    let (lo, hi) = stats::wilson(won, decided);
    let nodes = records::NodeQuantiles::of(
        results
            .iter()
            .filter(|r| r.2 && r.0 != UNKNOWN)
            .map(|r| r.1)
            .collect(),
    );
    let won_by = |d: usize, p: usize| outcomes[d * PLAYERS + p] == 52;
    let lost_winnable: Vec<records::GreedyOnWinnable> = (0..PLAYERS)
        .map(|p| {
            let greedy_wins = (0..deals as usize).filter(|&d| won_by(d, p)).count() as u64;
            let lost = (0..deals as usize)
                .filter(|&d| codes[d] == WON && !won_by(d, p))
                .count() as u64;
            let impossible = (0..deals as usize)
                .filter(|&d| codes[d] == LOST && won_by(d, p))
                .count();
            ensure!(
                impossible == 0,
                "{}: the greedy player won {impossible} deals the solver calls unwinnable",
                ctx.id
            );
            Ok(records::GreedyOnWinnable {
                variant: Player::ALL[p].label(),
                greedy_wins,
                winnable_but_lost: lost,
            })
        })
        .collect::<Result<_>>()?;
    let recorded = records::SolverStats {
        rules: rules.label(),
        deals,
        budget,
        winnable: won,
        not_winnable: lost,
        unknown,
        searched,
        winnable_by_search: won_by_search,
        winnable_by_greedy_game: won - won_by_search,
        winnable_share_of_decided: if decided > 0 {
            won as f64 / decided as f64
        } else {
            0.0
        },
        ci95_of_decided: (lo, hi),
        bounds_if_unknowns_all_lost_or_won: (
            won as f64 / deals as f64,
            (won + unknown) as f64 / deals as f64,
        ),
        decided_share: decided as f64 / deals.max(1) as f64,
        ci95_winnable_if_unknowns_lost: stats::wilson(won, deals),
        ci95_winnable_if_unknowns_won: stats::wilson(won + unknown, deals),
        nodes_decided: nodes,
        greedy: lost_winnable,
    };
    write_ranked(
        &ctx.output,
        &codes,
        &TableMeta::new(
            "klondike",
            &format!("solver-{}", rules_id(&rules)),
            ctx.params.clone(),
            "deal",
            "u8 verdict with every card visible: 0 not winnable, 1 winnable (a greedy win or the search), 2 unknown (over the node budget)",
            records::to_json(&recorded),
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    Ok(())
}
