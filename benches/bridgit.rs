//! Bridg-it proof costs per board size: the pairing's structural check and
//! its search over every Black choice, the tree strategy's search over every
//! Black reply sequence, and random games for both.
//! Usage: cargo bench --bench bridgit [-- MAX_PAIR_SEARCH MAX_TREE_SEARCH]
//! (default 5 4; the pairing search at n = 6 and the tree search at n = 5
//! are the expensive ones).

use nimrod::games::bridgit::board::Board;
use nimrod::games::bridgit::pairing::Pairing;
use nimrod::games::bridgit::proof::{every_pair_choice, every_reply_sequence, random_games};
use nimrod::games::bridgit::trees::TreeStrategy;
use std::time::Instant;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let max_pair = args.first().copied().unwrap_or(5);
    let max_tree = args.get(1).copied().unwrap_or(4);
    for n in [2, 3, 4, 5, 6, 7, 8, 10, 15, 20, 30] {
        let b = Board::new(n);
        let p = Pairing::staircase(&b);
        let t = Instant::now();
        let structural = p.structural_check(&b);
        let structural_s = t.elapsed().as_secs_f64();
        let mut line = format!(
            "n = {n:>2}: {} sites; structural check {} ({} states, {:.3} ms)",
            b.sites(),
            if structural.blocked {
                "passed"
            } else {
                "FAILED"
            },
            structural.states,
            structural_s * 1e3
        );
        if n <= max_pair {
            let t = Instant::now();
            let s = every_pair_choice(&b, &p);
            line += &format!(
                "; every pair choice {} ({} positions, {:.2} s)",
                if s.white_always_wins { "won" } else { "LOST" },
                s.positions,
                t.elapsed().as_secs_f64()
            );
        }
        let trees = TreeStrategy::find(&b).expect("a split exists");
        if n <= max_tree {
            let t = Instant::now();
            let s = every_reply_sequence(&b, &trees);
            line += &format!(
                "; trees, every reply sequence {} ({} positions, {:.2} s)",
                if s.white_always_wins { "won" } else { "LOST" },
                s.positions,
                t.elapsed().as_secs_f64()
            );
        }
        let games = 1000;
        let t = Instant::now();
        let wins = random_games(&b, &p, games, 1) + random_games(&b, &trees, games, 1);
        line += &format!(
            "; {wins}/{} random games won ({:.1} ms)",
            2 * games,
            t.elapsed().as_secs_f64() * 1e3
        );
        println!("{line}");
    }
}
