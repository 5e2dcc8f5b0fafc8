//! Klondike timings: greedy games per second (one thread) and solver time
//! per deal (median, 90th and 99th percentile, unknowns, decided share) for
//! draw 1 and draw 3 with unlimited redeals, and the first 20 "not
//! winnable" verdicts re-proved by the slower second search.
//! Usage: cargo bench --bench klondike [-- DEALS BUDGET]  (default 300 100000)

use nimrod::games::klondike::greedy::{self, Player};
use nimrod::games::klondike::parse_rules;
use nimrod::games::klondike::solver::{self, Verdict};
use std::time::Instant;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let deals = args.first().copied().unwrap_or(300);
    let budget = args.get(1).copied().unwrap_or(100_000);
    for text in ["1/unlimited", "3/unlimited", "1/none", "3/3"] {
        let rules = parse_rules(text).expect("valid rules");
        for player in Player::ALL {
            let t = Instant::now();
            let games = 10_000u64;
            let (mut wins, mut longest) = (0, 0);
            for deal in 0..games {
                let game = greedy::play(deal, &rules, &player);
                wins += game.won as u64;
                longest = longest.max(game.moves.len());
            }
            let per_s = games as f64 / t.elapsed().as_secs_f64();
            println!(
                "{:<28} {:<34} {per_s:>9.0} games/s (1 thread), {wins} wins of {games}, longest game {longest} moves",
                rules.label(),
                player.label()
            );
        }
    }
    for text in ["1/unlimited", "3/unlimited"] {
        if deals == 0 {
            break;
        }
        let rules = parse_rules(text).expect("valid rules");
        let mut times = Vec::new();
        let (mut won, mut lost, mut unknown) = (0, 0, 0);
        let mut lost_deals = Vec::new();
        for deal in 0..deals {
            let t = Instant::now();
            let s = solver::solve(deal, &rules, budget);
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            match s.verdict {
                Verdict::Won(_) => won += 1,
                Verdict::Lost => {
                    lost += 1;
                    lost_deals.push(deal);
                }
                Verdict::Unknown => unknown += 1,
            }
        }
        // The second opinion: the slower search without the normal form
        // (and under these rules, not the relaxed ones), ten times the
        // budget, on the first 20 losses.
        let (mut confirmed, mut too_big) = (0, 0);
        for &deal in lost_deals.iter().take(20) {
            match solver::reprove(deal, &rules, budget * 10).verdict {
                Verdict::Lost => confirmed += 1,
                Verdict::Unknown => too_big += 1,
                Verdict::Won(_) => {
                    panic!("deal {deal}: not winnable, yet the second search wins it")
                }
            }
        }
        times.sort_by(f64::total_cmp);
        let q = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
        println!(
            "{:<28} solver: {deals} deals, budget {budget}: {won} winnable, {lost} not, {unknown} unknown ({:.2}% decided); ms per deal median {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}; second search: {confirmed} losses re-proved, {too_big} beyond its budget",
            rules.label(),
            100.0 * (won + lost) as f64 / deals as f64,
            q(0.5),
            q(0.9),
            q(0.99),
            times[times.len() - 1]
        );
    }
}
