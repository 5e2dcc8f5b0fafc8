//! Klondike greedy players: games per second (one thread), wins and the
//! longest game, per rule set and player, over deals 0..10,000.
//!
//! Usage:
//!   cargo bench --bench klondike
//!
//! The solver has its own bench, `klondike_quotient` (CPU per deal, peak
//! memory, losses re-proved by the independent search), and
//! `klondike_reference.sh` runs it beside lonelybot on the same deals.

use nimrod::games::klondike::greedy::{self, Player};
use nimrod::games::klondike::parse_rules;
use std::time::Instant;

fn main() {
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
}
