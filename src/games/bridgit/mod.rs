//! Gale's Bridg-it: White's (first player's) winning strategy for boards of
//! any size, from two edge-disjoint spanning trees (Lehman), with proofs:
//! the structural check for every size, an exhaustive search over every
//! Black reply sequence for small boards, and seeded random games.

pub mod board;
pub mod trees;

use super::query::{open_table, parse_args, Answer, QueryContext};
use super::Game;
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext};
use crate::rng::SplitMix64;
use crate::table::writer::write_ranked;
use crate::table::{Table, TableMeta};
use anyhow::{bail, ensure, Context, Result};
use board::{Board, Player};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashSet;
use trees::{Play, TreeStrategy};

const SOLVER_VERSION: u32 = 1;
/// Sites must fit a u64 mask for the exhaustive search: n ≤ 6.
const MAX_EXHAUSTIVE: usize = 6;
const MAX_SIZE: usize = 30;

pub struct Bridgit;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BridgitParams {
    /// Board sizes n to build.
    pub sizes: Vec<usize>,
    /// Exhaustive proof for sizes up to this one.
    #[serde(default = "default_exhaustive")]
    pub exhaustive_up_to: usize,
    /// Seeded random games per size.
    #[serde(default = "default_random")]
    pub random_games: u64,
}

fn default_exhaustive() -> usize {
    3
}
fn default_random() -> u64 {
    1000
}

impl Game for Bridgit {
    fn name(&self) -> &'static str {
        "bridgit"
    }
    fn summary(&self) -> &'static str {
        "Gale's Bridg-it: the first player's winning strategy for any board size, proved"
    }

    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: BridgitParams = game_params(source, "bridgit", section)?;
        ensure!(
            p.exhaustive_up_to <= MAX_EXHAUSTIVE,
            "{source}: [bridgit] exhaustive_up_to = {} is out of range (0 ..= {MAX_EXHAUSTIVE})",
            p.exhaustive_up_to
        );
        let mut jobs = Vec::new();
        for &n in &p.sizes {
            ensure!(
                (2..=MAX_SIZE).contains(&n),
                "{source}: [bridgit] size {n} is out of range (2 ..= {MAX_SIZE})"
            );
            let (ex, games) = (p.exhaustive_up_to, p.random_games);
            jobs.push(Job {
                id: format!("bridgit/n{n:02}"),
                deps: vec![],
                params: json!({"n": n, "exhaustive": n <= ex, "random_games": games, "solver": SOLVER_VERSION}),
                run: Box::new(move |ctx| build(ctx, n, n <= ex, games)),
            });
        }
        Ok(jobs)
    }

    fn query(&self, args: &[String], ctx: &QueryContext) -> Result<Answer> {
        let q: BridgitQuery = parse_args("bridgit", args)?;
        answer(&q, ctx)
    }
}

/// Every Black reply sequence against the strategy: true if White always
/// wins. Positions are memoised by the two claimed sets.
pub fn exhaustive(b: &Board, s: &TreeStrategy) -> (bool, u64) {
    fn mask(v: &[bool]) -> u64 {
        v.iter()
            .enumerate()
            .fold(0, |m, (i, &x)| m | (x as u64) << i)
    }
    fn go(b: &Board, p: &Play, seen: &mut HashSet<(u64, u64)>) -> bool {
        if !seen.insert((mask(&p.white), mask(&p.black))) {
            return true;
        }
        for site in 0..b.sites() {
            if p.white[site] || p.black[site] {
                continue;
            }
            let mut q = p.clone();
            if q.reply(b, site).is_none() {
                // Black took the last site: White must have won already.
                return b.winner(&q.white, &q.black) == Some(Player::White);
            }
            match b.winner(&q.white, &q.black) {
                Some(Player::White) => continue,
                Some(Player::Black) => return false,
                None => {
                    if !go(b, &q, seen) {
                        return false;
                    }
                }
            }
        }
        true
    }
    let mut seen = HashSet::new();
    let ok = go(b, &Play::start(b, s), &mut seen);
    (ok, seen.len() as u64)
}

/// Seeded games with uniformly random Black moves; returns White's wins.
pub fn random_games(b: &Board, s: &TreeStrategy, games: u64, seed: u64) -> u64 {
    let mut rng = SplitMix64::new(seed);
    let mut wins = 0;
    for _ in 0..games {
        let mut p = Play::start(b, s);
        loop {
            if let Some(w) = b.winner(&p.white, &p.black) {
                wins += (w == Player::White) as u64;
                break;
            }
            let free: Vec<usize> = (0..b.sites())
                .filter(|&i| !p.white[i] && !p.black[i])
                .collect();
            if free.is_empty() {
                break;
            }
            let site = free[rng.below(free.len() as u64) as usize];
            p.reply(b, site);
        }
    }
    wins
}

fn build(ctx: &JobContext, n: usize, exhaustive_proof: bool, games: u64) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "spanning trees and proofs", 1);
    let b = Board::new(n);
    let s =
        TreeStrategy::find(&b).context("no opening splits the board into two spanning trees")?;
    ensure!(s.check(&b), "the two trees failed the spanning check");
    let proof = if exhaustive_proof {
        let (ok, positions) = exhaustive(&b, &s);
        ensure!(
            ok,
            "Black found a winning line against the strategy on n = {n}"
        );
        json!({"exhaustive": true, "positions": positions})
    } else {
        json!({"exhaustive": false})
    };
    let wins = random_games(&b, &s, games, n as u64);
    ensure!(
        wins == games,
        "White lost {} of {games} random games on n = {n}",
        games - wins
    );
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
    write_ranked(
        &ctx.output,
        &entries,
        &TableMeta::new(
            "bridgit",
            "strategy",
            json!({"n": n, "solver": SOLVER_VERSION}),
            "site number - 1 (horizontal White edges row by row, then vertical ones)",
            "u8: 2 = White's first move, 0 or 1 = the spanning tree the site belongs to",
            json!({"n": n, "sites": b.sites(), "first_move": b.labels[s.first], "spanning_trees_checked": true,
                   "proof": proof, "random_games": games, "random_games_won": wins}),
        ),
        ctx.param_hash,
    )?;
    stage.inc(1);
    stage.finish();
    Ok(())
}

#[derive(clap::Parser)]
#[command(about = "Bridg-it: White's reply under the stored winning strategy")]
struct BridgitQuery {
    #[arg(long)]
    size: usize,
    /// Moves so far, White first, alternating: site numbers or labels such
    /// as h3,2 (separated by spaces).
    #[arg(long, default_value = "")]
    moves: String,
}

fn load(t: &Table, b: &Board) -> Result<TreeStrategy> {
    ensure!(
        t.len() as usize == b.sites(),
        "{} has {} sites, expected {}",
        t.path().display(),
        t.len(),
        b.sites()
    );
    let mut first = None;
    let mut tree = vec![None; b.sites()];
    for (i, slot) in tree.iter_mut().enumerate() {
        match t.get::<u8>(i as u64)? {
            2 => first = Some(i),
            x @ (0 | 1) => *slot = Some(x),
            x => bail!("{}: site {} has entry {x}", t.path().display(), i + 1),
        }
    }
    Ok(TreeStrategy {
        first: first.context("no first move stored")?,
        tree,
    })
}

fn answer(q: &BridgitQuery, ctx: &QueryContext) -> Result<Answer> {
    ensure!(
        (2..=MAX_SIZE).contains(&q.size),
        "query bridgit: --size {} is out of range (2..={MAX_SIZE})",
        q.size
    );
    let b = Board::new(q.size);
    let t = open_table(&ctx.data_dir, &format!("bridgit/n{:02}", q.size))?;
    let s = load(&t, &b)?;
    let moves: Vec<usize> = q
        .moves
        .split_whitespace()
        .map(|m| {
            b.parse_site(m).with_context(|| {
                format!(
                    "query bridgit: no site {m:?} on a size-{} board (1..={} or h/v labels)",
                    q.size,
                    b.sites()
                )
            })
        })
        .collect::<Result<_>>()?;
    let mut p = Play::start(&b, &s);
    let mut text = String::new();
    if moves.is_empty() {
        text.push_str(&format!(
            "White opens with {} (site {})\n",
            b.labels[s.first],
            s.first + 1
        ));
    } else if moves[0] != s.first {
        bail!(
            "query bridgit: the strategy opens with {}, not {}",
            b.labels[s.first],
            b.labels[moves[0]]
        );
    }
    let mut reply = None;
    let after_opening: Vec<usize> = moves.iter().skip(1).copied().collect();
    for (k, pair) in after_opening.chunks(2).enumerate() {
        let black = pair[0];
        ensure!(
            !p.white[black] && !p.black[black],
            "query bridgit: site {} is already taken (move {})",
            b.labels[black],
            2 * k + 2
        );
        if b.winner(&p.white, &p.black).is_some() {
            bail!(
                "query bridgit: the game was already over before move {}",
                2 * k + 2
            );
        }
        let r = p.reply(&b, black);
        if let Some(&white) = pair.get(1) {
            ensure!(
                Some(white) == r,
                "query bridgit: White's move {} is {}, but the strategy answered {}",
                2 * k + 3,
                b.labels[white],
                r.map(|x| b.labels[x].as_str()).unwrap_or("nothing")
            );
        } else {
            reply = r;
        }
    }
    let winner = b.winner(&p.white, &p.black);
    if let Some(r) = reply {
        text.push_str(&format!("White replies {} (site {})\n", b.labels[r], r + 1));
    }
    text.push_str(&match winner {
        Some(Player::White) => "White has connected: White wins\n".to_string(),
        Some(Player::Black) => "Black has connected: Black wins\n".to_string(),
        None => "no winner yet\n".to_string(),
    });
    Ok(Answer {
        text,
        json: json!({
            "game": "bridgit", "size": q.size,
            "reply": reply.map(|r| b.labels[r].clone()),
            "opening": b.labels[s.first],
            "winner": winner.map(|w| if w == Player::White { "white" } else { "black" }),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategies_exist_and_win() {
        for n in 2..=7 {
            let b = Board::new(n);
            let s = TreeStrategy::find(&b).expect("a split exists");
            assert!(s.check(&b), "n = {n}");
            assert_eq!(random_games(&b, &s, 200, n as u64), 200, "n = {n}");
        }
        for n in 2..=3 {
            let b = Board::new(n);
            let s = TreeStrategy::find(&b).unwrap();
            assert!(exhaustive(&b, &s).0, "n = {n}");
        }
    }

    #[test]
    fn the_search_catches_a_broken_strategy() {
        // Everything in one "tree": White's replies fall back to the lowest
        // free site, which Black can beat.
        let b = Board::new(3);
        let mut s = TreeStrategy::find(&b).unwrap();
        for t in s.tree.iter_mut().flatten() {
            *t = 0;
        }
        assert!(!s.check(&b));
        assert!(!exhaustive(&b, &s).0);
    }
}
