//! Klondike solitaire: the rules, reproducible deals, the classic greedy
//! player and its batch statistics, and a solver that decides whether a
//! deal could be won with every card visible.
//!
//! Jobs per rule set R: `klondike/greedy-R` (cards home per deal and greedy
//! variant, 52 = won), `klondike/solver-R` (verdict per deal, compared with
//! the greedy games of the same deals); `klondike/report` gathers them into
//! the win-rate table with intervals, paired variant comparisons, a CSV and
//! an SVG chart.

pub mod cards;
pub mod greedy;
pub mod independent;
pub mod pile;
pub mod query;
pub mod records;
pub mod relaxed;
pub mod report;
pub mod solver;
pub mod state;
pub mod stats;

use super::query::{Answer, QueryContext};
use super::Game;
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_ranked;
use crate::table::TableMeta;
use anyhow::{bail, ensure, Context, Result};
use greedy::Player;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use solver::{RelaxedVerdict, Verdict};
use state::{Redeal, Rules};

/// 3: the greedy table holds six players per deal (the seed's list and the
/// strong list joined the four classic variants).
const VERSION: u32 = 3;

/// The solver's version, in the solver and report jobs' parameters (so a
/// solver that decides differently at the same budget rebuilds them, and
/// leaves the greedy tables alone). 4: the relaxed-game proof of loss.
/// 5: two unsound cuts of the normal form removed (a king sent home from
/// an empty base, which these rules cannot worry back; a pending step
/// that must be used by the very next step, where a step can need two),
/// and talon cards sent home under draw one when no line needs the card
/// under them back. 6: a second preparing step only after a worry-back,
/// and only one that can start preparing the card the pair is for.
/// 7: a second round past 10^6 nodes, with three win-finding searches
/// (budgets up to 10^6 decide every deal as version 6 did). 8: the second
/// round resumes the first round's depth-first searches instead of
/// starting them afresh (the same verdicts up to 10^6). 9: other rule
/// sets read the verdicts of draw one with unlimited redeals when the
/// config builds it, instead of searching that relaxation themselves.
/// 10: the relaxed game reaches a talon card only when the talon can bring
/// it to the waste's top (drawing three, or with no redeal left).
/// 11: in the relaxed game a card whose twin (same rank and colour) covers
/// it leaves for a holder only once both holders have been tops, unless
/// the twin went home (`relaxed::TwinsAbove`). 12: at the deal, the
/// relaxed game also counts empty columns: each king placed in one holds
/// it until it goes home (`relaxed::may_win_counting_kings`).
/// 13: drawing three, a dominated waste card is no longer sent home
/// without branching (taking it out of the talon shifts every later group
/// of three; 42 draw-3 deals of 0-9,999 called lost were wins), and with
/// worrying back a king may come back from its foundation into an empty
/// column (Solvitaire's rule).
pub const SOLVER_VERSION: u32 = 13;

/// The most deals a greedy table holds (six bytes each).
pub const MAX_GREEDY_DEALS: u64 = 100_000_000;

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
    /// solver, when the config builds it (see `solver::solve_knowing_relaxed`).
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
}

/// Players per deal in a greedy table.
pub const PLAYERS: usize = Player::ALL.len();

pub struct Klondike;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KlondikeParams {
    /// Rule sets as "DRAW/REDEAL[/noworry]": DRAW 1 or 3, REDEAL none,
    /// unlimited or a number of passes; "/noworry" forbids worrying back
    /// ("3/unlimited", "1/none", "3/3", "3/unlimited/noworry").
    pub rules: Vec<String>,
    pub greedy_deals: u64,
    pub solver_deals: u64,
    /// Search nodes per deal before the solver reports "unknown".
    pub solver_budget: u64,
}

pub fn parse_rules(s: &str) -> Result<Rules> {
    let mut parts = s.split('/');
    let (Some(d), Some(r)) = (parts.next(), parts.next()) else {
        bail!("rule set \"{s}\": expected DRAW/REDEAL[/noworry], like 3/unlimited");
    };
    let worry_back = match parts.next() {
        None => true,
        Some("noworry") => false,
        Some(other) => {
            bail!("rule set \"{s}\": the third part may only be noworry (no worrying back), not \"{other}\"")
        }
    };
    ensure!(
        parts.next().is_none(),
        "rule set \"{s}\": expected DRAW/REDEAL[/noworry]"
    );
    let draw: u8 = match d {
        "1" => 1,
        "3" => 3,
        _ => bail!("rule set \"{s}\": draw must be 1 or 3"),
    };
    let redeal = match r {
        "none" => Redeal::None,
        "unlimited" => Redeal::Unlimited,
        n => match n.parse::<u32>() {
            Ok(p) if p >= 1 => Redeal::Passes(p),
            _ => {
                bail!("rule set \"{s}\": redeal must be none, unlimited or a number of passes >= 1")
            }
        },
    };
    Ok(Rules {
        draw,
        redeal,
        worry_back,
    })
}

/// "d3-unlimited", "d1-none", "d3-passes3", "d3-unlimited-noworry".
pub fn rules_id(r: &Rules) -> String {
    let redeal = match r.redeal {
        Redeal::None => "none".to_string(),
        Redeal::Unlimited => "unlimited".to_string(),
        Redeal::Passes(n) => format!("passes{n}"),
    };
    let worry = if r.worry_back { "" } else { "-noworry" };
    format!("d{}-{redeal}{worry}", r.draw)
}

impl Planner for Klondike {
    fn name(&self) -> &'static str {
        "klondike"
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
        // greedy table holds six bytes a deal, the solver about 16 bytes a
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
            .contains(&solver::RELAXED)
            .then(|| format!("klondike/solver-{}", rules_id(&solver::RELAXED)));
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
            let relaxed_from = relaxed_job.clone().filter(|_| rules != solver::RELAXED);
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
        }
        let deps: Vec<String> = ids
            .iter()
            .flat_map(|id| {
                [
                    format!("klondike/greedy-{id}"),
                    format!("klondike/solver-{id}"),
                ]
            })
            .collect();
        jobs.push(Job {
            id: "klondike/report".into(),
            deps,
            params: serde_json::to_value(ReportJob {
                rules: all_rules.clone(),
                greedy_deals: p.greedy_deals,
                solver_deals: p.solver_deals,
                budget: p.solver_budget,
                version: SOLVER_VERSION,
            })?,
            run: Box::new(move |ctx| report::build(ctx, &all_rules)),
            parts: None,
        });
        Ok(jobs)
    }
}

impl Game for Klondike {
    fn summary(&self) -> &'static str {
        "Klondike solitaire: the greedy player's win rates and which deals were winnable"
    }

    fn query_command(&self) -> clap::Command {
        <query::KlondikeQuery as clap::CommandFactory>::command()
    }

    fn query(&self, args: &clap::ArgMatches, ctx: &QueryContext) -> Result<Answer> {
        query::answer(args, ctx)
    }

    fn verify(&self, table: &crate::table::Table) -> Result<()> {
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

    fn play_command(&self) -> Option<clap::Command> {
        Some(<query::KlondikeQuery as clap::CommandFactory>::command())
    }

    fn play(
        &self,
        args: &clap::ArgMatches,
        _ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<()> {
        query::play(args, input, output)
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

/// Solver verdict codes in the table.
pub const LOST: u8 = 0;
pub const WON: u8 = 1;
pub const UNKNOWN: u8 = 2;

/// The relaxed rule set's verdict per deal, from its solver table, checked
/// to be this solver's version, at a budget at least `job`'s, over at least
/// its deals.
fn relaxed_verdicts(ctx: &JobContext, job: &SolverJob, id: &str) -> Result<Vec<RelaxedVerdict>> {
    let table = ctx.open(id)?;
    let theirs: SolverJob = serde_json::from_value(table.meta().params.clone())
        .with_context(|| format!("{}: the parameters of {id}", ctx.id))?;
    ensure!(
        theirs.rules == solver::RELAXED
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
        .map(|(deal, code)| match code {
            WON => Ok(RelaxedVerdict::Won),
            LOST => Ok(RelaxedVerdict::Lost),
            UNKNOWN => Ok(RelaxedVerdict::Unknown),
            other => bail!("{}: {id}, deal {deal}: verdict code {other}", ctx.id),
        })
        .collect()
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
                let s = match &relaxed {
                    Some(known) => {
                        solver::solve_knowing_relaxed(deal, &rules, budget, known[deal as usize])
                    }
                    None => solver::solve(deal, &rules, budget),
                };
                let code = match &s.verdict {
                    Verdict::Won(line) => {
                        solver::check_win(deal, &rules, line).map_err(anyhow::Error::msg)?;
                        WON
                    }
                    Verdict::Lost => LOST,
                    Verdict::Unknown => UNKNOWN,
                };
                (code, s.nodes, true)
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
    let mut nodes: Vec<u64> = results
        .iter()
        .filter(|r| r.2 && r.0 != UNKNOWN)
        .map(|r| r.1)
        .collect();
    nodes.sort_unstable();
    let pct = |q: f64| {
        nodes
            .get(((nodes.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0)
    };
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
        nodes_decided: records::NodeQuantiles {
            median: pct(0.5),
            p90: pct(0.9),
            p99: pct(0.99),
            max: nodes.last().copied().unwrap_or(0),
        },
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_sets_parse_and_name_themselves() {
        let r = parse_rules("3/unlimited/noworry").unwrap();
        assert_eq!(
            (r.draw, r.redeal, r.worry_back),
            (3, Redeal::Unlimited, false)
        );
        assert_eq!(rules_id(&r), "d3-unlimited-noworry");
        assert!(r.label().ends_with("no worrying back"));
        let r = parse_rules("1/2").unwrap();
        assert_eq!((r.redeal, r.worry_back), (Redeal::Passes(2), true));
        assert_eq!(rules_id(&r), "d1-passes2");
        for (bad, says) in [
            ("3/unlimited/worry", "may only be noworry"),
            ("3/unlimited/noworry/x", "expected DRAW/REDEAL"),
            ("3", "expected DRAW/REDEAL"),
            ("2/none", "draw must be 1 or 3"),
            ("1/0", "redeal must be"),
        ] {
            let e = parse_rules(bad).unwrap_err().to_string();
            assert!(e.contains(says) && e.contains(bad), "{bad}: {e}");
        }
    }
}
