//! The generic search against the solved m,n,k tables: minimax, alpha-beta
//! (plain and sorted) and the engine (PVS, transposition table, ordering,
//! aspiration) must all give every position's exact value and distance.

use nimrod::games::ttt::board::{Geometry, Position as Board};
use nimrod::games::ttt::search::{lookahead_move, scorecard, solve_exact, Mnk};
use nimrod::games::ttt::solve::{self, Solved};
use nimrod::search::classic::{alpha_beta, minimal_leaves, minimax, Count};
use nimrod::search::{Engine, Options, Score, WIN, WIN_BOUND};
use std::collections::HashMap;

fn expected(s: &Solved) -> Score {
    match s.value {
        1 => WIN - s.distance as Score,
        -1 => -(WIN - s.distance as Score),
        _ => 0,
    }
}

#[test]
fn every_3x3_position_gets_its_table_value_from_every_search() {
    let g = Geometry::new(3, 3, 3).unwrap();
    let solved = solve::solve(&g);
    assert_eq!(
        solved.len(),
        765,
        "canonical positions of noughts and crosses"
    );
    for (&key, s) in &solved {
        let b = Board::from_key(key);
        let left = (g.cells() - b.occupied().count_ones() as usize) as u32;
        let want = expected(s);
        let mut p = Mnk::new(&g, b);
        let mut c = Count::default();
        assert_eq!(minimax(&mut p, left, &mut c), want, "minimax {b:?}");
        assert_eq!(
            alpha_beta(&mut p, left, false, &mut c),
            want,
            "alpha-beta {b:?}"
        );
        assert_eq!(alpha_beta(&mut p, left, true, &mut c), want, "sorted {b:?}");
        for pairing in [false, true] {
            let r = solve_exact(&g, b, 12, None, pairing);
            if solve::is_terminal(&g, b) {
                continue;
            }
            assert_eq!(r.score, want, "engine {b:?}");
            assert!(r.complete);
            // The engine's move keeps the value.
            let after = b.play(r.best.unwrap() as usize);
            let v = expected(&solved[&g.canonical(after).0.key()]);
            // One ply further from a finished game: a win or loss one later.
            let seen = if v >= WIN_BOUND {
                -v + 1
            } else if v <= -WIN_BOUND {
                -v - 1
            } else {
                -v
            };
            assert_eq!(seen, want, "engine move {b:?}");
        }
        // The engine with each technique alone agrees too.
        for opts in [
            Options::default(),
            Options {
                pvs: true,
                ..Options::default()
            },
            Options {
                tt_bits: Some(8),
                ..Options::default()
            },
            Options {
                ordering: true,
                ..Options::default()
            },
        ] {
            let r = Engine::new(opts).search(&mut p, left);
            assert_eq!(r.score, want, "{b:?}");
        }
    }
}

#[test]
fn node_counts_follow_the_textbook_order() {
    let g = Geometry::new(3, 3, 3).unwrap();
    let mut p = Mnk::new(&g, Board::default());
    let mut mm = Count::default();
    assert_eq!(minimax(&mut p, 9, &mut mm), 0);
    // The full game tree of noughts and crosses: 549,946 nodes, 255,168 games.
    assert_eq!((mm.nodes, mm.leaves), (549_946, 255_168));
    let mut ab = Count::default();
    alpha_beta(&mut p, 9, false, &mut ab);
    let mut sorted = Count::default();
    alpha_beta(&mut p, 9, true, &mut sorted);
    let full = Engine::new(Options::all(16)).search(&mut p, 9);
    assert_eq!(full.score, 0);
    assert!(ab.nodes < mm.nodes / 10, "{ab:?}");
    assert!(full.stats.nodes < ab.nodes, "{:?} vs {ab:?}", full.stats);
    assert_eq!(minimal_leaves(9, 4), 9 * 9 + 9 * 9 - 1);
    assert_eq!(minimal_leaves(3, 3), 9 + 3 - 1);
}

#[test]
fn bigger_boards_match_their_tables_and_budgets_say_when_they_run_out() {
    for (r, c, k) in [(3, 4, 3), (4, 4, 3), (2, 4, 2)] {
        let g = Geometry::new(r, c, k).unwrap();
        let solved = solve::solve(&g);
        let mut keys: Vec<u64> = solved.keys().copied().collect();
        keys.sort();
        let step = (keys.len() / 150).max(1);
        for &key in keys.iter().step_by(step).chain([&0u64]) {
            let b = Board::from_key(key);
            if solve::is_terminal(&g, b) {
                continue;
            }
            for pairing in [false, true] {
                let res = solve_exact(&g, b, 16, None, pairing);
                assert_eq!(
                    res.score,
                    expected(&solved[&key]),
                    "{r}x{c}k{k} {b:?} pairing {pairing}"
                );
            }
        }
    }
    let g = Geometry::new(4, 4, 4).unwrap();
    let cut = solve_exact(&g, Board::default(), 12, Some(500), false);
    assert!(!cut.complete && !cut.proven(), "{:?}", cut.stats);
    let again = solve_exact(&g, Board::default(), 12, Some(500), false);
    assert_eq!(
        (cut.score, cut.best, cut.depth),
        (again.score, again.best, again.depth)
    );
}

#[test]
fn lookahead_fixes_the_one_ply_line_scorer() {
    let g = Geometry::new(3, 3, 3).unwrap();
    let solved: HashMap<u64, Solved> = solve::solve(&g);
    let one = |b: Board| nimrod::games::ttt::machines::line_scoring(&g, b) as u8;
    let literal_x = scorecard(&g, &solved, true, &one);
    let literal_o = scorecard(&g, &solved, false, &one);
    // It counts only its own lines, so it does not block and can be beaten.
    assert!(literal_x.losses + literal_o.losses > 0);
    let deep = |b: Board| lookahead_move(&g, b, 9);
    for as_x in [true, false] {
        let card = scorecard(&g, &solved, as_x, &deep);
        assert_eq!(
            (card.losses, card.value_losing),
            (0, 0),
            "full lookahead {card:?}"
        );
    }
}

#[test]
fn grundy_game_outcomes_by_search_match_the_sprague_grundy_values() {
    use nimrod::games::grundy::search::Heaps;
    let g = nimrod::games::grundy::naive::values(30);
    let cases: Vec<Vec<u32>> = (3..=22)
        .map(|n| vec![n])
        .chain([
            vec![5, 7],
            vec![4, 6, 9],
            vec![10, 11],
            vec![3, 8, 13],
            vec![7, 7, 7],
        ])
        .collect();
    for heaps in cases {
        let nim_sum = heaps.iter().fold(0, |s, &h| s ^ g[h as usize]);
        let total: u32 = heaps.iter().sum();
        let mut p = Heaps::new(&heaps).unwrap();
        let r = Engine::new(Options::all(16)).search(&mut p, total);
        assert_eq!(r.score > 0, nim_sum != 0, "{heaps:?}: {}", r.score);
        assert!(r.proven() && r.complete, "{heaps:?}");
        if total <= 14 {
            let mut c = Count::default();
            assert_eq!(minimax(&mut p, total, &mut c), r.score, "{heaps:?}");
            assert_eq!(
                alpha_beta(&mut p, total, false, &mut c),
                r.score,
                "{heaps:?}"
            );
        }
    }
    assert!(Heaps::new(&[20, 11]).is_err());
}

#[test]
fn pairing_draws_keep_4x4k4_values_and_save_nodes() {
    // No pairing exists on the empty 4x4 board (10 lines need 20 cells of
    // 16), so every pairing draw below is found inside the search.
    let g = Geometry::new(4, 4, 4).unwrap();
    let solved = solve::solve(&g);
    let mut keys: Vec<u64> = solved.keys().copied().collect();
    keys.sort();
    let step = (keys.len() / 120).max(1);
    let (mut plain_nodes, mut paired_nodes) = (0, 0);
    for &key in keys.iter().step_by(step).chain([&0u64]) {
        let b = Board::from_key(key);
        if solve::is_terminal(&g, b) {
            continue;
        }
        let want = expected(&solved[&key]);
        let plain = solve_exact(&g, b, 16, None, false);
        let paired = solve_exact(&g, b, 16, None, true);
        assert_eq!(plain.score, want, "{b:?}");
        assert_eq!(paired.score, want, "{b:?} with pairing draws");
        let after = b.play(paired.best.expect("a move") as usize);
        let v = expected(&solved[&g.canonical(after).0.key()]);
        assert_eq!(-v + v.signum(), want, "pairing move from {b:?}");
        plain_nodes += plain.stats.nodes;
        paired_nodes += paired.stats.nodes;
    }
    assert!(
        paired_nodes * 2 < plain_nodes,
        "pairing draws should cut the search: {paired_nodes} vs {plain_nodes} nodes"
    );
}
