//! Gale's Bridg-it: White's (first player's) winning strategies for boards
//! of any size, each proved. Two tables per size:
//! - `bridgit/nNN`: the response table of a pairing strategy (Gross's kind,
//!   `pairing`), proved by the structural check for every size and by a
//!   search over every choice Black can make for small boards;
//! - `bridgit/trees-nNN`: Lehman's general strategy from two edge-disjoint
//!   spanning trees (`trees`), proved by the spanning check for every size
//!   and by a search over every Black reply sequence for small boards.
//!
//! Both are also played against seeded random Black players.

pub mod board;
pub mod pairing;
pub mod play;
pub mod proof;
mod query;
pub mod trees;

use super::query::{Answer, QueryContext};
use super::Game;
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::{write_ranked, Entry};
use crate::table::{Table, TableMeta};
use anyhow::{ensure, Context, Result};
use board::Board;
use pairing::Pairing;
use play::Strategy;
use proof::{
    every_pair_choice, every_reply_sequence, random_games, shortest_crossing_games,
    MAX_SEQUENCE_SEARCH,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use trees::TreeStrategy;

const SOLVER_VERSION: u32 = 2;
/// The search over pair choices doubles per pair: n = 6 has 30 pairs.
const MAX_PAIR_SEARCH: usize = 6;
const MAX_SIZE: usize = 30;
const PAIRING_TABLE: &str = "pairing strategy";

pub struct Bridgit;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
pub fn trees_id(n: usize) -> String {
    format!("bridgit/trees-n{n:02}")
}

impl Planner for Bridgit {
    fn name(&self) -> &'static str {
        "bridgit"
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

impl Game for Bridgit {
    fn summary(&self) -> &'static str {
        "Gale's Bridg-it: the first player's winning strategies for any board size, proved"
    }

    fn query_command(&self) -> clap::Command {
        <query::BridgitQuery as clap::CommandFactory>::command()
    }

    fn query(&self, args: &clap::ArgMatches, ctx: &QueryContext) -> Result<Answer> {
        query::answer(args, ctx)
    }

    /// Re-proves the stored strategy: the pairing's structural check, or
    /// the two trees' spanning check.
    fn verify(&self, table: &Table) -> Result<()> {
        let meta = table.meta();
        let n = super::query::table_params::<SizeTable>(table)?.n;
        ensure!(
            (2..=MAX_SIZE).contains(&n),
            "{}: bridgit size n = {n} is out of range (2 ..= {MAX_SIZE})",
            table.path().display()
        );
        let b = Board::new(n);
        if meta.table == PAIRING_TABLE {
            let p = query::load_pairing(table, &b)?;
            ensure!(
                p.structural_check(&b).blocked,
                "bridgit n = {n}: Black crosses through the stored pairing"
            );
        } else {
            let s = query::load_trees(table, &b)?;
            ensure!(
                s.check(&b),
                "bridgit n = {n}: the stored trees are not two spanning trees"
            );
        }
        Ok(())
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
struct SizeTable {
    n: usize,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_strategies_win_random_games_on_many_sizes() {
        for n in 2..=9 {
            let b = Board::new(n);
            let s = TreeStrategy::find(&b).expect("a split exists");
            assert!(s.check(&b), "n = {n}");
            assert_eq!(random_games(&b, &s, 200, n as u64), 200, "n = {n}");
            let p = Pairing::staircase(&b);
            assert_eq!(random_games(&b, &p, 200, n as u64), 200, "n = {n}");
        }
    }
}
