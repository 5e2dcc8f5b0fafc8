//! GOPS and its matrix-game solver against independent references: a
//! general LP solver (good_lp with the pure-Rust microlp backend), and a
//! plain solve over (V, Y, P) triples without the pattern reduction.

mod common;
mod lp_reference;
use common::*;
use lp_reference::lp_value;
use nimrod::games::gops::level::{fill_matrix, solve_all, Level};
use nimrod::games::gops::pattern::Pattern;
use nimrod::games::gops::win::{self, WinLevel};
use nimrod::lp::MatrixGame;
use nimrod::rng::SplitMix64;
use std::collections::HashMap;

/// Our value equals the LP's, and both returned strategies guarantee it
/// (each is a certificate of optimality on its own).
fn check_game(g: &MatrixGame, what: &str) {
    let s = g.solve();
    let lp = lp_value(g);
    let tol = 1e-9 * (1.0 + lp.abs());
    assert!(
        (s.value - lp).abs() <= tol,
        "{what}: ours {} LP {lp}",
        s.value
    );
    let (m, n) = (g.rows(), g.cols());
    for (name, probs) in [("row", &s.row[..m]), ("col", &s.col[..n])] {
        assert!(
            probs.iter().all(|&p| p >= -1e-12),
            "{what}: {name} {probs:?}"
        );
        assert!(
            (probs.iter().sum::<f64>() - 1.0).abs() < 1e-9,
            "{what}: {name} sum"
        );
    }
    assert!(
        (g.row_guarantee(&s.row) - lp).abs() <= tol,
        "{what}: row strategy not optimal"
    );
    assert!(
        (g.col_guarantee(&s.col) - lp).abs() <= tol,
        "{what}: column strategy not optimal"
    );
}

#[test]
fn matrix_solver_agrees_with_good_lp_on_random_games() {
    let mut rng = SplitMix64::new(2012);
    for case in 0..600 {
        let (m, n) = if case % 3 == 0 {
            let k = 2 + (case / 3) % 12;
            (k as usize, k as usize)
        } else {
            (1 + rng.below(13) as usize, 1 + rng.below(13) as usize)
        };
        let mut g = MatrixGame::new(m, n);
        // Thirds: continuous payoffs, small integers (ties, degenerate
        // pivots), and {-1, 0, 1} (heavily degenerate).
        for i in 0..m {
            for j in 0..n {
                let v = match case % 3 {
                    0 => (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 40.0 - 20.0,
                    1 => rng.below(9) as f64 - 4.0,
                    _ => rng.below(3) as f64 - 1.0,
                };
                g.set(i, j, v);
            }
        }
        check_game(&g, &format!("random game {case} ({m}x{n})"));
    }
}

#[test]
fn every_matrix_game_of_seven_cards_agrees_with_good_lp() {
    let cards = 7;
    let levels = solve_all(cards);
    let mut games = 0;
    for k in 1..=cards {
        let (level, below) = (Level::new(cards, k), Level::new(cards, k - 1));
        for prize_rank in 0..level.prize_sets {
            let prizes = nimrod::table::rank::unrank_subset(prize_rank, k as u32);
            for r in 0..level.patterns.len() {
                let pattern = level.patterns.unrank(r);
                let mut sum = 0.0;
                for bit in (0..cards).filter(|b| prizes >> b & 1 == 1) {
                    let rest = prizes & !(1 << bit);
                    let mut g = MatrixGame::new(k, k);
                    fill_matrix(&mut g, &pattern, bit as u32 + 1, |child| {
                        let (slot, neg) = below.locate(child, rest).unwrap();
                        let v = levels[k - 1][slot as usize];
                        if neg {
                            -v
                        } else {
                            v
                        }
                    });
                    check_game(
                        &g,
                        &format!("{pattern} prizes {prizes:#b} upcard {}", bit + 1),
                    );
                    sum += g.solve().value;
                    games += 1;
                }
                let stored = levels[k][level.slot(r, prizes) as usize];
                assert!(
                    (stored - sum / k as f64).abs() < 1e-9,
                    "{pattern} {prizes:#b}"
                );
            }
        }
    }
    let expect: u64 = (1..=cards)
        .map(|k| Level::new(cards, k).len() * k as u64)
        .sum();
    assert_eq!(games, expect);
}

/// f(V, Y, P) over plain bitmask triples, every matrix game solved by the LP.
fn plain_value(v: u32, y: u32, p: u32, memo: &mut HashMap<(u32, u32, u32), f64>) -> f64 {
    if p == 0 {
        return 0.0;
    }
    if let Some(&f) = memo.get(&(v, y, p)) {
        return f;
    }
    let cards = |m: u32| {
        (0..32)
            .filter(move |b| m >> b & 1 == 1)
            .collect::<Vec<u32>>()
    };
    let (vs, ys) = (cards(v), cards(y));
    let k = vs.len();
    let mut total = 0.0;
    for up in cards(p) {
        let mut g = MatrixGame::new(k, k);
        for (i, &a) in vs.iter().enumerate() {
            for (j, &b) in ys.iter().enumerate() {
                let child = plain_value(v & !(1 << a), y & !(1 << b), p & !(1 << up), memo);
                g.set(
                    i,
                    j,
                    (a as i32 - b as i32).signum() as f64 * (up + 1) as f64 + child,
                );
            }
        }
        total += lp_value(&g);
    }
    let f = total / k as f64;
    memo.insert((v, y, p), f);
    f
}

/// A subgame's value depends only on the cards left: every state of the
/// N = 8 tables whose cards all lie in 1..7 has the very bits of the same
/// state in a direct N = 7 solve (what `scripts/gops_cross_n.sh` samples
/// for N = 15 against 14). Different slots, different pattern spaces, the
/// same numbers.
#[test]
fn a_state_has_the_same_bits_whatever_n_holds_it() {
    let (small, big) = (solve_all(7), solve_all(8));
    let subsets = |k: usize| (0u32..1 << 7).filter(move |m| m.count_ones() as usize == k);
    let mut checked = 0;
    for k in 1..=7 {
        let (l7, l8) = (Level::new(7, k), Level::new(8, k));
        for v in subsets(k) {
            for y in subsets(k) {
                for p in subsets(k).step_by(3) {
                    let pattern = Pattern::from_hands(v, y);
                    let at = |level: &Level, values: &[f64]| {
                        let (slot, neg) = level.locate(&pattern, p as u64).unwrap();
                        let x = values[slot as usize];
                        if neg {
                            -x
                        } else {
                            x
                        }
                    };
                    let (a, b) = (at(&l7, &small[k]), at(&l8, &big[k]));
                    assert_eq!(
                        a.to_bits(),
                        b.to_bits(),
                        "k={k} V={v:#b} Y={y:#b} P={p:#b}: N=7 {a}, N=8 {b}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 30_000, "{checked}");
}

#[test]
fn pattern_reduction_agrees_with_plain_triples() {
    for cards in [4usize, 6] {
        let levels = solve_all(cards);
        let mut memo = HashMap::new();
        let subsets = |k: usize| (0u32..1 << cards).filter(move |m| m.count_ones() as usize == k);
        let mut checked = 0;
        for (k, values) in levels.iter().enumerate().skip(1) {
            let level = Level::new(cards, k);
            for v in subsets(k) {
                for y in subsets(k) {
                    for p in subsets(k) {
                        let plain = plain_value(v, y, p, &mut memo);
                        let (slot, neg) =
                            level.locate(&Pattern::from_hands(v, y), p as u64).unwrap();
                        let ours = values[slot as usize] * if neg { -1.0 } else { 1.0 };
                        assert!(
                            (plain - ours).abs() < 1e-8,
                            "N={cards}: V={v:#b} Y={y:#b} P={p:#b}: plain {plain}, table {ours}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        let expect: u64 = (1..=cards as u64)
            .map(|k| {
                nimrod::table::rank::binomial(cards as u64, k)
                    .unwrap()
                    .pow(3)
            })
            .sum();
        assert_eq!(checked, expect);
    }
}

fn built() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let cfg = d.path().join("gops.toml");
        std::fs::write(&cfg, "[gops]\ncards = 6\nwin_cards = 5\n").unwrap();
        build_json(&cfg, d.path(), &[]);
        d
    })
    .path()
}

fn query(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["query", "gops"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--json", "--data", built().to_str().unwrap()]);
    json(&ok(&a))
}

fn probabilities(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c["probability"].as_f64().unwrap())
        .collect()
}

#[test]
fn first_move_query_gives_a_strategy_per_upcard() {
    for cards in [3, 5, 6] {
        let n = cards.to_string();
        let v = query(&["--cards", &n, "--first-move"]);
        assert!(v["value"].as_f64().unwrap().abs() < 1e-9);
        let ups = v["upcards"].as_array().unwrap();
        assert_eq!(ups.len(), cards);
        for u in ups {
            for side in ["player_one", "player_two"] {
                let p = probabilities(&u[side]);
                assert_eq!(p.len(), cards);
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            }
            // Equal hands: the upcard game is symmetric, worth the upcard's
            // share of nothing.
            assert!(u["value"].as_f64().unwrap().abs() < 1e-9);
        }
        let text = ok(&[
            "query",
            "gops",
            "--cards",
            &n,
            "--first-move",
            "--data",
            built().to_str().unwrap(),
        ]);
        assert!(text.contains("bid\\up"), "{text}");
    }
}

#[test]
fn state_query_matches_the_plain_solve() {
    // Hands {2,5,6} and {1,3,6}, prizes {1,4,5} in a 6-card game.
    let v = query(&[
        "--cards", "6", "--mine", "2,5,6", "--theirs", "1,3,6", "--prizes", "1,4,5",
    ]);
    let mask = |c: &[u32]| c.iter().fold(0u32, |m, &x| m | 1 << (x - 1));
    let plain = plain_value(
        mask(&[2, 5, 6]),
        mask(&[1, 3, 6]),
        mask(&[1, 4, 5]),
        &mut HashMap::new(),
    );
    let value = v["value"].as_f64().unwrap();
    assert!((value - plain).abs() < 1e-9, "{value} vs {plain}");
    let ups = v["upcards"].as_array().unwrap();
    let mean = ups
        .iter()
        .map(|u| u["value"].as_f64().unwrap())
        .sum::<f64>()
        / 3.0;
    assert!((mean - value).abs() < 1e-9);
    // A 4-card game is a subgame of the 6-card tables.
    let v4 = query(&[
        "--cards", "4", "--mine", "1,4", "--theirs", "2,3", "--prizes", "3,4", "--upcard", "4",
    ]);
    assert_eq!(v4["tables_for"], 6);
    assert_eq!(v4["upcards"].as_array().unwrap().len(), 1);
}

#[test]
fn bad_gops_queries_are_clear_errors() {
    let d = built().to_str().unwrap();
    let base = ["query", "gops", "--data", d];
    for (args, expect) in [
        (
            vec![
                "--cards", "6", "--mine", "1,1", "--theirs", "2,3", "--prizes", "1,2",
            ],
            "twice",
        ),
        (
            vec![
                "--cards", "6", "--mine", "1,7", "--theirs", "2,3", "--prizes", "1,2",
            ],
            "outside 1..=6",
        ),
        (
            vec![
                "--cards", "6", "--mine", "1", "--theirs", "2,3", "--prizes", "1,2",
            ],
            "same size",
        ),
        (
            vec![
                "--cards", "6", "--mine", "1,2", "--theirs", "2,3", "--prizes", "1,2", "--upcard",
                "5",
            ],
            "--upcard 5",
        ),
        (vec!["--cards", "0", "--first-move"], "out of range"),
        (vec!["--cards", "8", "--first-move"], "nimrod build"),
        (vec!["--cards", "6"], "--first-move or --mine"),
    ] {
        let mut a = base.to_vec();
        a.extend_from_slice(&args);
        let e = fails(&a);
        assert!(e.contains(expect), "{args:?}: {e}");
    }
    // A malformed argument is a usage error, reported whole (exit 2).
    let mut a = base.to_vec();
    a.extend_from_slice(&["--cards", "6", "--mine", "x"]);
    let e = usage_fails(&a);
    assert!(e.contains("invalid value 'x' for '--mine <MINE>'"), "{e}");
}

/// W(V, Y, P, d) over plain triples and the difference, by the LP.
fn plain_win(v: u32, y: u32, p: u32, d: i32, memo: &mut HashMap<(u32, u32, u32, i32), f64>) -> f64 {
    if p == 0 {
        return d.signum() as f64;
    }
    if let Some(&f) = memo.get(&(v, y, p, d)) {
        return f;
    }
    let cards = |m: u32| {
        (0..32)
            .filter(move |b| m >> b & 1 == 1)
            .collect::<Vec<u32>>()
    };
    let (vs, ys) = (cards(v), cards(y));
    let k = vs.len();
    let mut total = 0.0;
    for up in cards(p) {
        let mut g = MatrixGame::new(k, k);
        for (i, &a) in vs.iter().enumerate() {
            for (j, &b) in ys.iter().enumerate() {
                let nd = d + (a as i32 - b as i32).signum() * (up as i32 + 1);
                g.set(
                    i,
                    j,
                    plain_win(v & !(1 << a), y & !(1 << b), p & !(1 << up), nd, memo),
                );
            }
        }
        total += lp_value(&g);
    }
    let f = total / k as f64;
    memo.insert((v, y, p, d), f);
    f
}

#[test]
fn win_objective_agrees_with_plain_triples() {
    let cards = 5;
    let levels = win::solve_all(cards);
    let mut memo = HashMap::new();
    let subsets = |k: usize| (0u32..1 << cards).filter(move |m| m.count_ones() as usize == k);
    let mut checked = 0;
    for (k, values) in levels.iter().enumerate().skip(1) {
        let level = WinLevel::new(cards, k);
        assert_eq!(values.len() as u64, level.len());
        for v in subsets(k) {
            for y in subsets(k) {
                for p in subsets(k) {
                    let sum = win::prize_sum(p as u64);
                    // One step past the stored range on each side: decided.
                    for d in -sum - 1..=sum + 1 {
                        let plain = plain_win(v, y, p, d, &mut memo);
                        let ours = level
                            .value(
                                |s| values[s as usize],
                                &Pattern::from_hands(v, y),
                                p as u64,
                                d,
                            )
                            .unwrap();
                        assert!(
                            (plain - ours).abs() < 1e-8,
                            "V={v:#b} Y={y:#b} P={p:#b} d={d}: plain {plain}, table {ours}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    let expect: u64 = (1..=cards)
        .map(|k| {
            let hands = subsets(k).count() as u64;
            hands
                * hands
                * subsets(k)
                    .map(|p| 2 * win::prize_sum(p as u64) as u64 + 3)
                    .sum::<u64>()
        })
        .sum();
    assert_eq!(checked, expect);
    // Equal hands, nothing played yet: a symmetric game is worth 0.
    let full = (1u32 << cards) - 1;
    let top = WinLevel::new(cards, cards);
    let v = top
        .value(
            |s| levels[cards][s as usize],
            &Pattern::from_hands(full, full),
            full as u64,
            0,
        )
        .unwrap();
    assert!(v.abs() < 1e-9);
}

#[test]
fn win_objective_queries() {
    let one = |mine: &str, theirs: &str, diff: &str| {
        let v = query(&[
            "--cards",
            "5",
            "--mine",
            mine,
            "--theirs",
            theirs,
            "--prizes",
            "3",
            "--objective",
            "win",
            "--diff",
            diff,
        ]);
        v["value"].as_f64().unwrap()
    };
    // Last round, prize 3: the higher card takes it.
    assert_eq!(one("2", "1", "-1"), 1.0);
    assert_eq!(one("1", "2", "-1"), -1.0);
    assert_eq!(one("1", "2", "3"), 0.0);
    assert_eq!(one("1", "2", "5"), 1.0);
    assert_eq!(one("2", "2", "0"), 0.0);
    let v = query(&["--cards", "5", "--first-move", "--objective", "win"]);
    assert!(v["value"].as_f64().unwrap().abs() < 1e-9);
    assert_eq!(v["objective"], "win");
    for u in v["upcards"].as_array().unwrap() {
        let p = probabilities(&u["player_one"]);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
    let d = built().to_str().unwrap();
    let e = fails(&[
        "query",
        "gops",
        "--data",
        d,
        "--cards",
        "6",
        "--first-move",
        "--objective",
        "win",
    ]);
    // The default config builds the win levels to N = 8: the hint is its
    // command (with the data directory), not an edit of a config.
    assert!(
        e.contains(&format!(
            "to build it: nimrod build --only gops/win-n08/k06 --data {d}"
        )),
        "{e}"
    );
    let e = fails(&[
        "query",
        "gops",
        "--data",
        d,
        "--cards",
        "9",
        "--first-move",
        "--objective",
        "win",
    ]);
    assert!(
        e.contains("--config config/big.toml --only gops/win-n11/k09"),
        "{e}"
    );
    let e = fails(&[
        "query",
        "gops",
        "--data",
        d,
        "--cards",
        "5",
        "--first-move",
        "--diff",
        "2",
    ]);
    assert!(e.contains("--diff"), "{e}");
}

fn play(input: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["play", "gops", "--data", built().to_str().unwrap()];
    args.extend_from_slice(extra);
    run_with_input(&args, input)
}

#[test]
fn play_against_the_stored_strategy() {
    // Bid 1, 2, 3 in order; "9" is refused and asked again.
    let out = play("1\n9\n2\n3\n", &["--cards", "3", "--seed", "7"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    assert!(text.contains("\"9\" is not a card in your hand"), "{text}");
    assert_eq!(text.matches("Round ").count(), 3, "{text}");
    // The final score adds up to the prizes won, at most 1 + 2 + 3.
    let last = text
        .lines()
        .rev()
        .find(|l| l.starts_with("Final score"))
        .unwrap();
    let nums: Vec<i32> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(nums[0] + nums[1] <= 6, "{last}");
    // The same seed replays the same game.
    let again = play("1\n9\n2\n3\n", &["--cards", "3", "--seed", "7"]);
    assert_eq!(again.stdout, out.stdout);
    // Input that ends early is one clear error, not a panic.
    let short = play("1\n", &["--cards", "3"]);
    assert!(!short.status.success());
    let err = String::from_utf8_lossy(&short.stderr);
    assert!(
        err.contains("input ended") && !err.contains("panicked"),
        "{err}"
    );
}

/// `verify --all-entries` re-solves every matrix game of every level (score
/// and win objectives) and reports the count; a value that is wrong but
/// carries valid checksums (rewritten through the table writer) fails it.
#[test]
fn verify_re_solves_every_matrix_game_and_catches_a_wrong_value() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("gops.toml");
    std::fs::write(&cfg, "[gops]\ncards = 6\nwin_cards = 4\n").unwrap();
    build_json(&cfg, dir.path(), &[]);
    let gops = dir.path().join("gops");
    let out = json(&ok(&[
        "verify",
        gops.to_str().unwrap(),
        "--all-entries",
        "--json",
    ]));
    let tables = out["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 10);
    let mut games = 0;
    for t in tables {
        let r = &t["recheck"];
        assert_eq!(t["ok"], true, "{t}");
        assert_eq!(r["sampled"], false, "{t}");
        assert_eq!(r["states_checked"], r["states_in_level"], "{t}");
        assert!(r["worst_gap"].as_f64().unwrap() <= 1e-9, "{t}");
        assert_eq!(r["worst_difference"].as_f64().unwrap(), 0.0, "{t}");
        games += r["games_checked"].as_u64().unwrap();
    }
    let expect: u64 = (1..=6)
        .map(|k| Level::new(6, k).len() * k as u64)
        .sum::<u64>()
        + (1..=4)
            .map(|k| WinLevel::new(4, k).len() * k as u64)
            .sum::<u64>();
    assert_eq!(games, expect);

    // Level 4 with one value nudged by 0.01, checksums rewritten.
    let path = gops.join("n06/k04.nmt");
    let t = nimrod::table::Table::open(&path).unwrap();
    let mut values = t.read_range::<f64>(0, t.len()).unwrap();
    let slot = values.len() / 2;
    values[slot] += 0.01;
    let (meta, hash) = (t.meta().clone(), t.header().param_hash);
    drop(t);
    nimrod::table::writer::write_ranked(&path, &values, &meta, hash).unwrap();
    // Checksums and ranges hold (no entry re-solved)…
    ok(&["verify", path.to_str().unwrap(), "--sample", "0"]);
    let o = run(&["verify", path.to_str().unwrap(), "--all-entries"]);
    assert!(!o.status.success());
    let text = stdout(&o);
    assert!(
        text.contains(&format!("slot {slot}: stored value")) && text.contains("outside"),
        "{text}"
    );
}

/// `--against`: against a bidder that bids the upcard's value, the best
/// reply is "one higher", which takes every prize but the top one:
/// N(N−1)/2 − N. Against one that always bids its highest card, one
/// higher loses only the first prize: N(N+1)/2 − (N+1) on average. The
/// stored optimal strategy earns at least the game's value (0) against
/// every bidder, and never more than the best reply.
#[test]
fn fixed_bidders_are_exploited_by_the_closed_forms() {
    for n in [4u32, 6] {
        let cards = n.to_string();
        let of = |against: &str| query(&["--cards", &cards, "--first-move", "--against", against]);
        let m = of("match");
        let expect = (n * (n - 1) / 2 - n) as f64;
        assert!(
            (m["best_reply_earns"].as_f64().unwrap() - expect).abs() < 1e-9,
            "{m}"
        );
        assert!(
            (m["one_higher_earns"].as_f64().unwrap() - expect).abs() < 1e-9,
            "{m}"
        );
        let h = of("highest");
        let expect = (n * (n + 1) / 2) as f64 - (n + 1) as f64;
        assert!(
            (h["one_higher_earns"].as_f64().unwrap() - expect).abs() < 1e-9,
            "{h}"
        );
        for e in [m, h, of("lowest")] {
            let (value, optimal, best) = (
                e["value"].as_f64().unwrap(),
                e["optimal_earns"].as_f64().unwrap(),
                e["best_reply_earns"].as_f64().unwrap(),
            );
            assert!(value.abs() < 1e-9, "{e}");
            assert!(optimal >= value - 1e-9 && optimal <= best + 1e-9, "{e}");
            assert!(
                e["one_higher_earns"].as_f64().unwrap() <= best + 1e-9,
                "{e}"
            );
        }
    }
    let err = fails(&[
        "query",
        "gops",
        "--cards",
        "6",
        "--first-move",
        "--against",
        "match",
        "--objective",
        "win",
        "--data",
        built().to_str().unwrap(),
    ]);
    assert!(err.contains("--against takes the score objective"), "{err}");
}
