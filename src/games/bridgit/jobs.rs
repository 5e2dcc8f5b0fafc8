//! The Bridg-it jobs: per board size, the pairing strategy's table and
//! the two spanning trees' table, each proved and played before it is
//! written.

use super::board::Board;
use super::pairing::Pairing;
use super::proof::{
    every_pair_choice, every_reply_sequence, random_games, shortest_crossing_games,
    MAX_SEQUENCE_SEARCH,
};
use super::strategy::Strategy;
use super::trees::TreeStrategy;
use super::{Bridgit, MAX_PAIR_SEARCH, MAX_SIZE, PAIRING_TABLE, SOLVER_VERSION};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::{write_ranked, Entry};
use crate::table::TableMeta;
use anyhow::{ensure, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
/// The `[bridgit]` config section.
pub struct BridgitParams {
    /// Board sizes n to build.
    pub sizes: Vec<usize>,
    /// The pairing strategy is searched against every Black choice for
    /// sizes up to this one.
    #[serde(default = "default_exhaustive")]
    pub exhaustive_up_to: usize,
    /// The tree strategy is searched against every Black reply sequence for
    /// sizes up to this one.
    #[serde(default = "default_trees_exhaustive")]
    pub trees_exhaustive_up_to: usize,
    /// Seeded games per size, strategy and kind of Black player (random;
    /// always on a shortest crossing).
    #[serde(default = "default_random")]
    pub random_games: u64,
}

fn default_exhaustive() -> usize {
    5
}
fn default_trees_exhaustive() -> usize {
    3
}
fn default_random() -> u64 {
    1000
}

/// Job ids of the two tables for size n.
pub fn pairing_id(n: usize) -> String {
    format!("bridgit/n{n:02}")
}
/// The job id of the two-trees table of size `n`.
pub fn trees_id(n: usize) -> String {
    format!("bridgit/trees-n{n:02}")
}

impl Planner for Bridgit {
    fn name(&self) -> &'static str {
        crate::games::game::Game::name(self)
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: BridgitParams = game_params(source, "bridgit", section)?;
        ensure!(
            p.exhaustive_up_to <= MAX_PAIR_SEARCH,
            "{source}: [bridgit] exhaustive_up_to = {} is out of range (0 ..= {MAX_PAIR_SEARCH})",
            p.exhaustive_up_to
        );
        ensure!(
            p.trees_exhaustive_up_to <= MAX_SEQUENCE_SEARCH,
            "{source}: [bridgit] trees_exhaustive_up_to = {} is out of range (0 ..= {MAX_SEQUENCE_SEARCH})",
            p.trees_exhaustive_up_to
        );
        let mut jobs = Vec::new();
        for &n in &p.sizes {
            ensure!(
                (2..=MAX_SIZE).contains(&n),
                "{source}: [bridgit] size {n} is out of range (2 ..= {MAX_SIZE})"
            );
            let games = p.random_games;
            let ex = n <= p.exhaustive_up_to;
            jobs.push(Job {
                id: pairing_id(n),
                deps: vec![],
                params: SizeJob::value(n, ex, games)?,
                run: Box::new(move |ctx| build_pairing(ctx, n, ex, games)),
                parts: None,
            });
            let ex = n <= p.trees_exhaustive_up_to;
            jobs.push(Job {
                id: trees_id(n),
                deps: vec![],
                params: SizeJob::value(n, ex, games)?,
                run: Box::new(move |ctx| build_trees(ctx, n, ex, games)),
                parts: None,
            });
        }
        Ok(jobs)
    }
}

/// Seeded games against a random Black and against a Black who always
/// plays on a shortest crossing; White must win them all.
fn play_games(b: &Board, s: &impl Strategy, n: usize, games: u64) -> Result<serde_json::Value> {
    let random = random_games(b, s, games, n as u64);
    let shortest = shortest_crossing_games(b, s, games, n as u64);
    ensure!(
        random == games && shortest == games,
        "White lost {} of {games} random games and {} of {games} games against shortest crossings on n = {n}",
        games - random,
        games - shortest
    );
    Ok(json!({"random_black": games, "shortest_crossing_black": games, "white_won_all": true}))
}

fn build_pairing(ctx: &JobContext, n: usize, exhaustive: bool, games: u64) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "pairing and proofs", 1);
    let b = Board::new(n);
    let p = Pairing::staircase(&b);
    ensure!(
        p.is_well_formed(&b),
        "the pairing is not a perfect pairing of the sites"
    );
    let structural = p.structural_check(&b);
    ensure!(
        structural.blocked,
        "Black crosses the board through the pairing on n = {n}"
    );
    let search = if exhaustive {
        let s = every_pair_choice(&b, &p);
        ensure!(
            s.white_always_wins,
            "Black found a winning choice against the pairing on n = {n}"
        );
        json!({"every_black_choice": true, "positions": s.positions})
    } else {
        json!({"every_black_choice": false})
    };
    let played = play_games(&b, &p, n, games)?;
    // Entry per site: the partner's site number, 0 for White's opening.
    let entries: Vec<u16> = p
        .partner
        .iter()
        .map(|q| q.map_or(0, |q| q as u16 + 1))
        .collect();
    let stats = json!({"n": n, "sites": b.sites(), "pairs": p.pairs().len(), "opening": b.labels[p.opening],
                       "structural_check": {"black_blocked": true, "states": structural.states},
                       "search": search, "games": played});
    let entry =
        "u16: the partner's site number (White answers Black's site with it); 0 = White's opening";
    write_strategy(ctx, n, &entries, PAIRING_TABLE, entry, stats)?;
    stage.inc(1);
    stage.finish();
    Ok(())
}

/// The parameters of one `bridgit/pairing-N` or `bridgit/trees-N` job
/// (hashed into its table's header).
#[derive(Serialize)]
struct SizeJob {
    n: usize,
    exhaustive: bool,
    random_games: u64,
    solver: u32,
}

impl SizeJob {
    fn value(n: usize, exhaustive: bool, random_games: u64) -> Result<serde_json::Value> {
        Ok(serde_json::to_value(SizeJob {
            n,
            exhaustive,
            random_games,
            solver: SOLVER_VERSION,
        })?)
    }
}

/// The parameters a strategy table records: what the strategy is for,
/// not how hard the build tried to refute it.
#[derive(Serialize, Deserialize)]
pub(super) struct SizeTable {
    pub(super) n: usize,
    solver: u32,
}

fn write_strategy<T: Entry>(
    ctx: &JobContext,
    n: usize,
    entries: &[T],
    table: &str,
    entry: &str,
    stats: serde_json::Value,
) -> Result<()> {
    let index = "site number - 1 (horizontal White bridges row by row, then vertical ones)";
    let params = serde_json::to_value(SizeTable {
        n,
        solver: SOLVER_VERSION,
    })?;
    let meta = TableMeta::new("bridgit", table, params, index, entry, stats).stamped(ctx.stamp());
    write_ranked(&ctx.output, entries, &meta, ctx.param_hash)?;
    Ok(())
}

fn build_trees(ctx: &JobContext, n: usize, exhaustive: bool, games: u64) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "spanning trees and proofs", 1);
    let b = Board::new(n);
    let s =
        TreeStrategy::find(&b).context("no opening splits the board into two spanning trees")?;
    ensure!(s.check(&b), "the two trees failed the spanning check");
    let search = if exhaustive {
        let r = every_reply_sequence(&b, &s);
        ensure!(
            r.white_always_wins,
            "Black found a winning line against the tree strategy on n = {n}"
        );
        json!({"every_reply_sequence": true, "positions": r.positions})
    } else {
        json!({"every_reply_sequence": false})
    };
    let played = play_games(&b, &s, n, games)?;
    // Entry per site: 2 = White's opening, 0/1 = its tree.
    let entries: Vec<u8> = (0..b.sites())
        .map(|i| {
            if i == s.first {
                2
            } else {
                s.tree[i].unwrap_or(3)
            }
        })
        .collect();
    let stats = json!({"n": n, "sites": b.sites(), "opening": b.labels[s.first], "spanning_trees_checked": true,
                       "search": search, "games": played});
    let entry = "u8: 2 = White's opening, 0 or 1 = the spanning tree the site belongs to";
    write_strategy(ctx, n, &entries, "spanning-tree strategy", entry, stats)?;
    stage.inc(1);
    stage.finish();
    Ok(())
}
