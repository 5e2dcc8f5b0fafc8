//! The Nim family: Bouton's Nim (normal and misère, all winning moves) and
//! Moore's Nim_k, answered from their proved digit rules (checked
//! exhaustively against `brute` in the tests). The take-at-most-half pile
//! game, which is tabulated, is its own game in `games/half`.

pub mod bouton;
pub mod brute;
pub mod moore;

use super::query::{from_matches, Answer, QueryContext};
use super::Game;
use crate::pipeline::Job;
use crate::pipeline::Planner;
use anyhow::{bail, ensure, Result};
use serde_json::json;

pub struct Nim;

const MAX_HEAPS: usize = 64;

#[derive(clap::Parser)]
#[command(
    after_help = "Examples:\n  nimrod query nim 1 3 5 7 11\n  nimrod query nim 1 3 5 7 11 --k 2\n  nimrod query nim 1 1 2 --misere"
)]
struct NimQuery {
    /// Heap sizes.
    #[arg(required = true)]
    heaps: Vec<u64>,
    /// Moore's Nim_k: a move takes from 1 to k heaps.
    #[arg(long, default_value_t = 1)]
    k: usize,
    /// Misère play: whoever takes the last token loses.
    #[arg(long)]
    misere: bool,
}

impl Planner for Nim {
    fn name(&self) -> &'static str {
        "nim"
    }
    fn plan(&self, source: &str, _section: &toml::Table) -> Result<Vec<Job>> {
        bail!(
            "{source}: [nim] has nothing to build: Nim is answered by formula (nimrod query nim …)"
        )
    }
}

impl Game for Nim {
    fn summary(&self) -> &'static str {
        "Bouton's Nim (normal, misère) and Moore's Nim_k: safe or not, winning moves"
    }

    fn query_command(&self) -> clap::Command {
        <NimQuery as clap::CommandFactory>::command()
    }

    fn query(&self, args: &clap::ArgMatches, _ctx: &QueryContext) -> Result<Answer> {
        let q: NimQuery = from_matches(args)?;
        ensure!(
            q.heaps.len() <= MAX_HEAPS,
            "query nim: at most {MAX_HEAPS} heaps"
        );
        ensure!(q.k >= 1, "query nim: --k must be at least 1");
        let heaps = &q.heaps;
        let list = |h: &[u64]| h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        if q.k == 1 {
            let safe = bouton::is_p(heaps, q.misere);
            let moves = bouton::winning_moves(heaps, q.misere);
            let play = if q.misere { "misère" } else { "normal" };
            let mut text = format!(
                "Nim {} ({play} play)\n  {}\n",
                list(heaps),
                if safe {
                    "safe (P): the player to move loses"
                } else {
                    "unsafe (N): the player to move wins"
                }
            );
            for &(i, to) in &moves {
                text.push_str(&format!(
                    "  take {} from heap {} ({} -> {to})\n",
                    heaps[i] - to,
                    i + 1,
                    heaps[i]
                ));
            }
            Ok(Answer {
                text,
                json: json!({
                    "game": "nim", "heaps": heaps, "k": 1, "misere": q.misere, "safe": safe,
                    "winning_moves": moves.iter().map(|&(i, to)| json!({"heap": i + 1, "from": heaps[i], "to": to})).collect::<Vec<_>>(),
                }),
            })
        } else {
            ensure!(
                !q.misere,
                "query nim: misère play is only supported for k = 1"
            );
            let safe = moore::is_p(heaps, q.k);
            let mv = moore::winning_move(heaps, q.k);
            let mut text = format!(
                "Moore's Nim_{} {}\n  {}\n",
                q.k,
                list(heaps),
                if safe {
                    "safe (P): the player to move loses"
                } else {
                    "unsafe (N): the player to move wins"
                }
            );
            if let Some(new) = &mv {
                text.push_str(&format!(
                    "  winning move: {} -> {}\n",
                    list(heaps),
                    list(new)
                ));
            }
            Ok(Answer {
                text,
                json: json!({"game": "nim", "heaps": heaps, "k": q.k, "misere": false, "safe": safe, "winning_move": mv}),
            })
        }
    }
}
