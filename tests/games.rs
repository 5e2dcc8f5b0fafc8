//! Game solvers against slow obvious references and published facts.

use nimrod::games::grundy::{driver, naive, rare};
use nimrod::games::half;
use nimrod::games::nim::{bouton, brute, moore};
use nimrod::games::octal::{code::OctalCode, period, solve};
use std::collections::HashMap;

#[test]
fn grundy_sparse_space_equals_naive_mex_to_20000() {
    let (fast, stats) = driver::values(20_000, |_| {}).unwrap();
    let slow = naive::values(20_000);
    assert_eq!(fast, slow);
    assert_eq!(stats.last_zero_heap, 1222);
    assert_eq!(
        stats.zero_count as usize,
        slow.iter().filter(|&&v| v == 0).count()
    );
}

#[test]
fn grundy_matches_published_values() {
    // OEIS A002188, first 105 terms.
    let a002188 = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
        3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
        2, 1, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3,
        7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3,
    ];
    let (g, _) = driver::values(300, |_| {}).unwrap();
    assert_eq!(&g[..a002188.len()], &a002188[..]);
    // Flammenkamp's list of sparse ("rare") values, first entries.
    let rare: Vec<(usize, u16)> = vec![
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 1),
        (4, 0),
        (6, 1),
        (7, 0),
        (9, 1),
        (10, 0),
        (12, 1),
        (15, 1),
        (20, 0),
        (23, 0),
        (26, 0),
        (28, 1),
        (31, 1),
        (34, 1),
        (37, 1),
        (40, 1),
        (43, 1),
        (46, 1),
        (49, 1),
        (50, 0),
        (52, 1),
        (53, 0),
        (55, 1),
        (58, 1),
        (61, 1),
        (87, 7),
        (90, 7),
        (93, 7),
        (146, 6),
        (149, 6),
        (152, 6),
        (158, 11),
        (161, 11),
        (164, 11),
        (167, 11),
        (176, 7),
        (179, 7),
        (181, 12),
        (182, 7),
        (185, 7),
        (188, 7),
        (190, 12),
        (193, 12),
        (196, 10),
        (231, 10),
    ];
    let ours: Vec<(usize, u16)> = (0..=231)
        .filter(|&n| rare::is_rare_value(g[n]))
        .map(|n| (n, g[n]))
        .collect();
    assert_eq!(ours, rare);
}

/// Independent octal reference: Grundy values of whole positions (multisets
/// of heaps) by mex over option positions, without the XOR rule.
fn multiset_grundy(code: &OctalCode, pos: Vec<u32>, memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    if let Some(&v) = memo.get(&pos) {
        return v;
    }
    let mut options = Vec::new();
    for (idx, &h) in pos.iter().enumerate() {
        let rest: Vec<u32> = pos
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != idx)
            .map(|(_, &x)| x)
            .collect();
        for (i, &d) in code.digits.iter().enumerate() {
            let i = i as u32;
            let mut push = |mut next: Vec<u32>| {
                next.retain(|&x| x > 0);
                next.sort_unstable();
                options.push(next);
            };
            if d & 1 != 0 && i > 0 && h == i {
                push(rest.clone());
            }
            if d & 2 != 0 && i > 0 && h > i {
                let mut n = rest.clone();
                n.push(h - i);
                push(n);
            }
            if d & 4 != 0 && h >= i + 2 {
                for a in 1..=(h - i) / 2 {
                    let mut n = rest.clone();
                    n.extend([a, h - i - a]);
                    push(n);
                }
            }
        }
    }
    let vals: Vec<u32> = options
        .into_iter()
        .map(|o| multiset_grundy(code, o, memo))
        .collect();
    let v = (0..).find(|v| !vals.contains(v)).unwrap();
    memo.insert(pos, v);
    v
}

#[test]
fn octal_values_match_a_sum_free_reference() {
    for c in ["0.77", "0.137", "0.07", "4.07", "0.51", "0.6", "0.16"] {
        let code = OctalCode::parse(c).unwrap();
        let g = solve::values(&code, 16, || {});
        let mut memo = HashMap::new();
        for n in 0..=16u32 {
            assert_eq!(
                g[n as usize] as u32,
                multiset_grundy(
                    &code,
                    vec![n].into_iter().filter(|&x| x > 0).collect(),
                    &mut memo
                ),
                "{c} heap {n}"
            );
        }
        // Two-heap positions confirm the XOR rule the fast solver relies on.
        for (x, y) in [(3u32, 5u32), (4, 4), (6, 9)] {
            let mut p = vec![x, y];
            p.sort_unstable();
            assert_eq!(
                (g[x as usize] ^ g[y as usize]) as u32,
                multiset_grundy(&code, p, &mut memo),
                "{c} {x}+{y}"
            );
        }
    }
}

#[test]
fn octal_periods_match_the_literature() {
    // Winning Ways: Kayles period 12 after the last exception at 70;
    // Dawson's chess (0.137) period 34 after 51; Dawson's Kayles (0.07) is
    // Dawson's chess shifted by one heap.
    for (c, p, pre) in [("0.77", 12, 71), ("0.137", 34, 52), ("0.07", 34, 53)] {
        let code = OctalCode::parse(c).unwrap();
        let g = solve::values(&code, 2000, || {});
        let got = period::find(&g, code.max_removal()).unwrap();
        assert_eq!((got.period, got.preperiod), (p, pre), "{c}");
    }
}

#[test]
fn moore_nim_k_rule_and_move_finder_match_brute_force() {
    for k in 1..=4usize {
        let b = brute::solve(5, 15, k, false);
        for idx in 0..b.p.len() {
            let heaps = b.heaps(idx);
            let p = b.p[idx];
            assert_eq!(moore::is_p(&heaps, k), p, "k={k} {heaps:?}");
            match moore::winning_move(&heaps, k) {
                None => assert!(p, "k={k} {heaps:?}: no move from an N-position"),
                Some(new) => {
                    assert!(!p);
                    let changed = heaps.iter().zip(&new).filter(|(a, b)| a != b).count();
                    assert!((1..=k).contains(&changed), "k={k} {heaps:?} -> {new:?}");
                    assert!(heaps.iter().zip(&new).all(|(a, b)| b <= a));
                    assert!(
                        b.is_p(&new),
                        "k={k} {heaps:?} -> {new:?} is not a P-position"
                    );
                }
            }
        }
    }
}

#[test]
fn moore_lists_every_winning_move_normal_and_misere() {
    // Against plain search (brute: no digit rule): every move of Nim_k
    // from every position of 4 heaps up to 7, normal and misère.
    for misere in [false, true] {
        for k in 1..=3usize {
            let b = brute::solve(4, 7, k, misere);
            for idx in 0..b.p.len() {
                let heaps = b.heaps(idx);
                if misere {
                    assert_eq!(moore::is_p_misere(&heaps, k), b.p[idx], "k={k} {heaps:?}");
                }
                // Every move: a subset of 1..=k heaps, each strictly lower.
                let mut want = Vec::new();
                let mut all_moves = |t: Vec<u64>| {
                    if b.is_p(&t) {
                        want.push(t);
                    }
                };
                let n = heaps.len();
                for mask in 1u32..1 << n {
                    if mask.count_ones() as usize > k
                        || (0..n).any(|i| mask >> i & 1 == 1 && heaps[i] == 0)
                    {
                        continue;
                    }
                    let idxs: Vec<usize> = (0..n).filter(|i| mask >> i & 1 == 1).collect();
                    let mut t = heaps.clone();
                    fn rec(
                        idxs: &[usize],
                        j: usize,
                        heaps: &[u64],
                        t: &mut Vec<u64>,
                        f: &mut dyn FnMut(Vec<u64>),
                    ) {
                        if j == idxs.len() {
                            f(t.clone());
                            return;
                        }
                        for v in 0..heaps[idxs[j]] {
                            t[idxs[j]] = v;
                            rec(idxs, j + 1, heaps, t, f);
                        }
                        t[idxs[j]] = heaps[idxs[j]];
                    }
                    rec(&idxs, 0, &heaps, &mut t, &mut all_moves);
                }
                let (mut got, total) = moore::winning_moves(&heaps, k, misere, usize::MAX).unwrap();
                assert_eq!(
                    total as usize,
                    want.len(),
                    "k={k} misère={misere} {heaps:?}"
                );
                got.sort();
                want.sort();
                assert_eq!(got, want, "k={k} misère={misere} {heaps:?}");
                // A limit lists a prefix of the same moves.
                let (some, total2) = moore::winning_moves(&heaps, k, misere, 2).unwrap();
                assert_eq!(total2, total);
                assert_eq!(some.len(), want.len().min(2));
            }
        }
    }
}

#[test]
fn bouton_lists_exactly_the_winning_moves() {
    for misere in [false, true] {
        let b = brute::solve(4, 15, 1, misere);
        for idx in 0..b.p.len() {
            let heaps = b.heaps(idx);
            assert_eq!(
                bouton::is_p(&heaps, misere),
                b.p[idx],
                "{heaps:?} misere={misere}"
            );
            let mut expect = Vec::new();
            for i in 0..heaps.len() {
                for to in 0..heaps[i] {
                    let mut n = heaps.clone();
                    n[i] = to;
                    if b.is_p(&n) {
                        expect.push((i, to));
                    }
                }
            }
            let mut got = bouton::winning_moves(&heaps, misere);
            got.sort_unstable();
            assert_eq!(got, expect, "{heaps:?} misere={misere}");
        }
    }
}

#[test]
fn half_game_table_matches_search_and_known_safe_positions() {
    use half::Convention::*;
    for conv in [LastMoverWins, LastMoverLoses] {
        let t = half::solve(5000, conv);
        let b = half::brute_force(5000, conv);
        for n in 0..=5000usize {
            assert_eq!(t[n] == 0, b[n], "{conv:?} pile {n}");
            if t[n] != 0 && t[n] != u32::MAX {
                assert!(b[n - t[n] as usize] && t[n] as usize <= n / 2);
            }
        }
        let safe: Vec<u64> = (0..=5000u64).filter(|&n| t[n as usize] == 0).collect();
        // Derived from the table, then compared with the classical forms.
        let form: Vec<u64> = match conv {
            LastMoverWins => (0..13)
                .map(|k| (1u64 << k) - 1)
                .filter(|&n| n <= 5000)
                .collect(),
            LastMoverLoses => (0..12)
                .map(|k| 3 * (1u64 << k) - 1)
                .filter(|&n| n <= 5000)
                .collect(),
        };
        assert_eq!(safe, form, "{conv:?}");
    }
}

#[test]
fn grundy_lecture_table_marks_the_heaps_won_in_both_games_and_the_two_slips() {
    use nimrod::games::grundy::misere::MisereSolver;
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("g.toml");
    std::fs::write(&cfg, "[grundy]\nbound = 1000\nmisere_bound = 30\n").unwrap();
    let dd = d.path().to_str().unwrap();
    let exe = env!("CARGO_BIN_EXE_nimrod");
    let run = |args: &[&str]| std::process::Command::new(exe).args(args).output().unwrap();
    assert!(
        run(&["build", "--config", cfg.to_str().unwrap(), "--data", dd])
            .status
            .success()
    );
    let o = run(&["query", "grundy", "20", "--lecture", "--json", "--data", dd]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // The "?" heaps, recomputed apart from the tables: the definition's
    // values (naive mex) and a plain misère search.
    let g = naive::values(20);
    let mut solver = MisereSolver::new();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    for (i, r) in rows.iter().enumerate() {
        let heap = i as u64 + 1;
        let normal = g[heap as usize] != 0;
        let misere = solver.single_heap(heap as u8).0;
        assert_eq!(r["heap"], heap);
        assert_eq!(r["normal"], if normal { "W" } else { "L" }, "heap {heap}");
        assert_eq!(r["misere"], if misere { "W" } else { "L" }, "heap {heap}");
        assert_eq!(r["both"], normal && misere, "heap {heap}");
        if let Some([a, b]) = r["normal_split"]
            .as_array()
            .map(|s| [s[0].as_u64().unwrap(), s[1].as_u64().unwrap()])
        {
            assert_eq!(
                g[a as usize], g[b as usize],
                "heap {heap}: {a}+{b} is not a normal-play win"
            );
        }
    }
    let both: Vec<u64> = rows
        .iter()
        .filter(|r| r["both"] == true)
        .map(|r| r["heap"].as_u64().unwrap())
        .collect();
    assert_eq!(both, [5, 8, 11, 13, 14, 16, 17, 19]);
    let slips = v["slips"].as_array().unwrap();
    assert!(
        slips[0]["truth"]
            .as_str()
            .unwrap()
            .contains("it is W: 20 -> 18 + 2"),
        "{slips:?}"
    );
    assert!(
        slips[1]["truth"]
            .as_str()
            .unwrap()
            .contains("13 -> 11 + 2 leaves the opponent a win in both games"),
        "{slips:?}"
    );
    // Bounds: at most 100 heaps, and not beyond the tables.
    let o = run(&["query", "grundy", "101", "--lecture", "--data", dd]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("heaps 1 to 100"));
    let o = run(&["query", "grundy", "40", "--lecture", "--data", dd]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("raise the bounds"));
}
