//! MENACE's three milestones (corner openings only, draws against correct
//! play, punishes unsound play) with an empty box that resigns (the text
//! read literally) and with one that is refilled with its first beads,
//! against every training opponent: which rule the text leaves out.
//!
//!   cargo bench --bench menace_empty_box -- [RUNS] [GAMES]
//!
//! RUNS seeded runs (default 100, at most 10,000) of GAMES games each
//! (default 500, at most 100,000); the seeds are the report's.

use nimrod::games::ttt::board::Geometry;
use nimrod::games::ttt::menace::{milestones, EmptyBox, MilestoneSpread, Opponent};
use nimrod::games::ttt::solve::solve;

fn arg(i: usize, default: u64, max: u64, name: &str) -> u64 {
    match std::env::args().filter(|a| a != "--bench").nth(i) {
        None => default,
        Some(s) => match s.parse::<u64>() {
            Ok(v) if (1..=max).contains(&v) => v,
            _ => {
                eprintln!("menace_empty_box: {name} {s:?} is not a number from 1 to {max}");
                std::process::exit(2);
            }
        },
    }
}

fn shown(m: &Option<MilestoneSpread>, runs: u64) -> String {
    match m {
        None => format!("0/{runs} runs"),
        Some(s) => {
            let q = |x: Option<u64>| x.map_or("never".to_string(), |v| v.to_string());
            format!(
                "{}/{runs} runs, median {} [{}, {}]",
                s.runs_reached,
                q(s.median),
                q(s.lower_quartile),
                q(s.upper_quartile)
            )
        }
    }
}

fn main() {
    let runs = arg(1, 100, 10_000, "RUNS");
    let games = arg(2, 500, 100_000, "GAMES");
    let g = Geometry::new(3, 3, 3).expect("the 3x3 board");
    let solved = solve(&g);
    println!("MENACE milestones, {runs} runs x {games} games: the game after which each holds to the end (median [quartiles])");
    println!("| empty box | opponent | corner openings only | draws against correct play | punishes unsound play |");
    println!("| --- | --- | --- | --- | --- |");
    for empty_box in [EmptyBox::Resign, EmptyBox::Refill] {
        for who in Opponent::ALL {
            let m = milestones(&g, &solved, who, runs, games, empty_box);
            println!(
                "| {} | {} | {} | {} | {} |",
                empty_box.id(),
                who.id(),
                shown(&m.corner_only_from_game, runs),
                shown(&m.draws_vs_perfect_from_game, runs),
                shown(&m.punishes_unsound_from_game, runs)
            );
        }
    }
}
