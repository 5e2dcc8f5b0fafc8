//! Noughts and crosses against published counts and an independent plain
//! minimax (no symmetry reduction, no memo), m,n,k values against the
//! literature, the classic machines' reports replayed, and the CLI.

mod common;
use common::*;
use nimrod::games::ttt::board::{Geometry, Position};
use nimrod::games::ttt::machines::{analyse, line_scoring, product_rule, Rule};
use nimrod::games::ttt::menace::{self, Opponent};
use nimrod::games::ttt::solve::{self, Solved};
use std::collections::HashMap;

fn three() -> (Geometry, HashMap<u64, Solved>) {
    let g = Geometry::new(3, 3, 3).unwrap();
    let s = solve::solve(&g);
    (g, s)
}

#[test]
fn three_by_three_counts_match_the_published_ones() {
    let (g, solved) = three();
    let st = solve::tree_stats(&g, &solved);
    // 5,478 legal positions, 765 up to symmetry, 958 terminal (138 up to
    // symmetry), 255,168 games: 131,184 X wins, 77,904 O wins, 46,080 draws;
    // Michie's MENACE had 304 matchboxes.
    assert_eq!(st.positions, 5478);
    assert_eq!(st.templates, 765);
    assert_eq!(st.terminal_positions, 958);
    assert_eq!(st.terminal_templates, 138);
    assert_eq!(st.games, 255_168);
    assert_eq!(st.games_first_player_wins, 131_184);
    assert_eq!(st.games_second_player_wins, 77_904);
    assert_eq!(st.games_drawn, 46_080);
    assert_eq!(st.first_player_choice_templates, 304);
    assert_eq!((st.empty_board_value, st.empty_board_distance), (0, 9));
}

/// Plain negamax over the full tree: (value, distance) for the side to move.
fn plain(g: &Geometry, p: Position) -> (i8, u8) {
    let (_, opp) = p.sides();
    if g.has_line(opp) {
        return (-1, 0);
    }
    if p.occupied() == g.full() {
        return (0, 0);
    }
    let mut best: Option<(i8, u8)> = None;
    for cell in 0..g.cells() {
        if p.occupied() >> cell & 1 == 0 {
            let (v, d) = plain(g, p.play(cell));
            let cand = (-v, d + 1);
            let key = |(v, d): (i8, u8)| match v {
                1 => 1000 - d as i32,
                -1 => -1000 + d as i32,
                _ => 0,
            };
            if best.is_none_or(|b| key(cand) > key(b)) {
                best = Some(cand);
            }
        }
    }
    best.unwrap()
}

#[test]
fn every_template_agrees_with_plain_minimax_in_every_orientation() {
    let (g, solved) = three();
    for (&key, s) in &solved {
        let p = Position::from_key(key);
        for sym in 0..8 {
            let q = Position {
                x: g.transform(sym, p.x),
                o: g.transform(sym, p.o),
            };
            assert_eq!(plain(&g, q), (s.value, s.distance), "{key:x} sym {sym}");
            // The optimal moves, mapped to q, are exactly those whose
            // plain value achieves the optimum.
            let (_, back) = g.canonical(q);
            let moves = g.untransform(back, s.best);
            for cell in 0..9 {
                if q.occupied() >> cell & 1 == 0 {
                    let (v, d) = plain(&g, q.play(cell));
                    let optimal = (-v, d + 1) == (s.value, s.distance);
                    assert_eq!(
                        moves >> cell & 1 == 1,
                        optimal,
                        "{key:x} sym {sym} cell {cell}"
                    );
                }
            }
        }
    }
}

#[test]
fn mnk_values_match_the_literature() {
    // m,n,k-games: 3,3,3 draw; 3,4,3 (4,3,3) first-player win; 4,4,3 win;
    // 4,4,4 draw; k = 1 and 2 on any board with room are first-player wins.
    for (r, c, k, value) in [
        (3, 3, 3, 0),
        (3, 4, 3, 1),
        (4, 4, 3, 1),
        (4, 4, 4, 0),
        (3, 3, 2, 1),
        (2, 2, 2, 1),
        (1, 1, 1, 1),
        (2, 3, 3, 0),
    ] {
        let g = Geometry::new(r, c, k).unwrap();
        let s = solve::solve(&g);
        let st = solve::tree_stats(&g, &s);
        assert_eq!(st.empty_board_value, value, "{r}x{c} k={k}");
    }
}

fn replay_is_o_win(g: &Geometry, line: &str, machine_first: bool) -> bool {
    let mut p = Position::default();
    for c in line.split(' ') {
        p = p.play(c.parse::<usize>().unwrap() - 1);
    }
    let loser = if machine_first { p.x } else { p.o };
    let winner = if machine_first { p.o } else { p.x };
    g.has_line(winner) && !g.has_line(loser)
}

#[test]
fn machine_reports_replay() {
    let (g, solved) = three();
    for (name, rule) in [
        ("product", product_rule as Rule),
        ("lines", line_scoring as Rule),
    ] {
        for first in [true, false] {
            let r = analyse(&g, &solved, name, rule, first);
            assert_eq!(r.games, r.wins + r.draws + r.losses);
            assert_eq!(r.losses as usize, r.losing_lines.len());
            for l in &r.losing_lines {
                assert!(replay_is_o_win(&g, l, first), "{name}: {l}");
            }
            // A machine that never errs cannot lose from a drawn start.
            if r.mistakes.is_empty() {
                assert_eq!(r.losses, 0, "{name}");
            }
            for m in &r.mistakes {
                assert!(m.value_after < m.value_before);
                assert!(!m.optimal.contains(&m.chose));
            }
        }
    }
}

#[test]
fn menace_opens_at_most_the_matchboxes_michie_built() {
    let (g, solved) = three();
    let (boxes, opening) = menace::boxes_after(&g, &solved, Opponent::Random, 1, 2000);
    assert_eq!(opening, 3, "corner, edge, centre");
    assert!(boxes <= 304 && boxes > 100, "{boxes}");
    let c = menace::learning_curve(&g, &solved, Opponent::Perfect, 8, 200, |_| {});
    // Against a perfect player MENACE can never win.
    assert!(c.blocks.iter().all(|b| b.wins == 0.0));
    for b in &c.blocks {
        assert!((b.wins + b.draws + b.losses - 1.0).abs() < 1e-12);
    }
}

fn built() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let cfg = d.path().join("ttt.toml");
        std::fs::write(&cfg, "[ttt]\nall_boards_up_to = 3\nboards = [\"4x4k3\"]\nmenace_runs = 4\nmenace_games = 100\n").unwrap();
        build_json(&cfg, d.path(), &[]);
        d
    })
    .path()
}

fn query(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["query", "ttt"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--json", "--data", built().to_str().unwrap()]);
    json(&ok(&a))
}

#[test]
fn ttt_queries() {
    // X (1, 5) threatens 1-5-9; O (2) must block at 9, then X forks at 7
    // (1-4-7 and 3-5-7) and wins on the fourth ply.
    let v = query(&["xo..x...."]);
    assert_eq!(v["to_move"], "O");
    assert_eq!(
        (v["value"].as_i64(), v["distance"].as_i64()),
        (Some(-1), Some(4))
    );
    assert_eq!(v["optimal_moves"], serde_json::json!([9]));
    let v = query(&["x.o.x...."]);
    assert_eq!(v["value"], 0, "a single threat is blocked");
    let v = query(&["........."]);
    assert_eq!(
        (v["value"].as_i64(), v["distance"].as_i64()),
        (Some(0), Some(9))
    );
    assert_eq!(v["optimal_moves"].as_array().unwrap().len(), 9);
    // X to move with a win in one.
    let v = query(&["xx.oo...."]);
    assert_eq!(
        (v["value"].as_i64(), v["distance"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(v["optimal_moves"], serde_json::json!([3]));
    let v = query(&["--size", "4x4", "--k", "3", "................"]);
    assert_eq!(v["value"], 1);
    // The 15 game: the first player holds 2 and 6 (2 + 7 + 6 = 15 is a
    // line), the second holds 5 and must take 7 to block.
    let v = query(&["--fifteen", "--first", "2,6", "--second", "5"]);
    assert_eq!(v["to_move"], "O");
    assert_eq!(v["optimal_picks"], serde_json::json!([7]));
    let d = built().to_str().unwrap();
    for (args, expect) in [
        (vec!["xx......."], "mark counts"),
        (vec!["xxxooo..."], "both"),
        (vec!["xxxoo.o.."], "in a row but O"),
        (vec!["x.o"], "cells"),
        (vec!["--size", "4x4", "................"], "--k"),
        (vec!["--size", "5x5", "--k", "4", "x"], "cells"),
        (vec!["--fifteen", "--first", "2,2"], "twice"),
        (vec!["--fifteen", "--first", "10"], "1..9"),
    ] {
        let mut a = vec!["query", "ttt", "--data", d];
        a.extend_from_slice(&args);
        let e = fails(&a);
        assert!(e.contains(expect), "{args:?}: {e}");
    }
    let report = ok(&["query", "ttt", "--report", "--data", d]);
    assert!(
        report.contains("product rule") && report.contains("MENACE vs perfect"),
        "{report}"
    );
    assert!(built().join("ttt/menace.svg").exists() && built().join("ttt/menace.csv").exists());
    let out = ok(&["verify", "--data", d]);
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn a_tall_board_is_answered_from_the_wide_table_transposed() {
    // 4x3 k3 is not stored: the 3x4k3 table answers it transposed. Every
    // reachable 4x3 position's value, distance and optimal cells equal a
    // direct memoised solve of the 4x3 board itself.
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("t.toml");
    std::fs::write(
        &cfg,
        "[ttt]\nall_boards_up_to = 3\nboards = [\"3x4k3\"]\nmenace_runs = 1\nmenace_games = 10\n",
    )
    .unwrap();
    build_json(&cfg, d.path(), &[]);
    let dd = d.path().to_str().unwrap();
    let g = Geometry::new(4, 3, 3).unwrap();
    let direct = solve::solve(&g);
    let mut rng = nimrod::rng::SplitMix64::new(12);
    let mut checked = 0;
    for _ in 0..40 {
        // A random reachable position: random legal moves until the game
        // ends or a random length.
        let mut p = Position::default();
        let len = rng.below(9);
        for _ in 0..len {
            if g.has_line(p.x) || g.has_line(p.o) || p.occupied() == g.full() {
                break;
            }
            let free: Vec<usize> = (0..12).filter(|c| p.occupied() >> c & 1 == 0).collect();
            p = p.play(free[rng.below(free.len() as u64) as usize]);
        }
        let board: String = (0..12)
            .map(|c| {
                if p.x >> c & 1 == 1 {
                    'x'
                } else if p.o >> c & 1 == 1 {
                    'o'
                } else {
                    '.'
                }
            })
            .collect();
        let v = json(&ok(&[
            "query", "ttt", "--size", "4x3", "--k", "3", &board, "--json", "--data", dd,
        ]));
        assert_eq!(v["transposed_from"], "3x4k3");
        let (canon, sym) = g.canonical(p);
        let s = direct[&canon.key()];
        assert_eq!(v["value"], s.value, "{board}");
        assert_eq!(v["distance"], s.distance, "{board}");
        let best = g.untransform(sym, s.best);
        let want: Vec<usize> = (0..12)
            .filter(|i| best >> i & 1 == 1)
            .map(|c| c + 1)
            .collect();
        let got: Vec<usize> = serde_json::from_value(v["optimal_moves"].clone()).unwrap();
        assert_eq!(got, want, "{board}");
        checked += 1;
    }
    assert_eq!(checked, 40);
    // A wide board's answer does not say it was transposed.
    let v = json(&ok(&[
        "query",
        "ttt",
        "--size",
        "3x4",
        "--k",
        "3",
        "x...........",
        "--json",
        "--data",
        dd,
    ]));
    assert!(v["transposed_from"].is_null());
}

#[test]
fn the_defensive_machine_s_report_gives_its_loophole_and_losses_with_intervals() {
    let out = ok(&[
        "query",
        "ttt",
        "--defensive",
        "--trials",
        "20000",
        "--seed",
        "7",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["loophole_plays"], serde_json::json!([3, 5, 8]));
    assert_eq!(v["loophole_losing_plays"], serde_json::json!([8]));
    let e = &v["loophole_error_rate"];
    assert!((e["exact"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    let (lo, hi) = (
        e["interval_95"][0].as_f64().unwrap(),
        e["interval_95"][1].as_f64().unwrap(),
    );
    assert!(lo < 1.0 / 3.0 && 1.0 / 3.0 < hi, "{e}");
    let opponents = v["opponents"].as_array().unwrap();
    assert_eq!(opponents.len(), 3);
    for o in opponents {
        let l = &o["losses"];
        assert_eq!(l["trials"], 20000);
        let exact = l["exact"].as_f64().unwrap();
        let rate = l["rate"].as_f64().unwrap();
        // Five standard errors: a simulation that drifted from the exact
        // probability fails; chance alone almost never does.
        let se = (exact * (1.0 - exact) / 20000.0).sqrt();
        assert!((rate - exact).abs() <= 5.0 * se + 1e-9, "{o}");
        let (lo, hi) = (
            l["interval_95"][0].as_f64().unwrap(),
            l["interval_95"][1].as_f64().unwrap(),
        );
        assert!(lo <= rate && rate <= hi, "{o}");
    }
    assert_eq!(opponents[1]["opponent"], "loophole");
    assert!((opponents[1]["losses"]["exact"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    let bad = fails(&["query", "ttt", "--defensive", "--trials", "0"]);
    assert!(bad.contains("--trials 0 is out of range"), "{bad}");
}
