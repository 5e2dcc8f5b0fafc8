//! The matrix-game solver on degenerate games — repeated rows and columns,
//! all-equal payoffs, dominated strategies, low rank, GOPS-like near ties —
//! against an independent LP (good_lp with microlp) and the exact rational
//! simplex, and the certificate that every answer carries. Also the games
//! that once came out wrong.

mod lp_reference;
use lp_reference::lp_value;
use nimrod::lp::exact;
use nimrod::lp::{MatrixGame, Method, GAP_TOLERANCE, MAX_DIM};
use nimrod::rng::SplitMix64;

/// The certificate, recomputed here from scratch: probability vectors
/// whose guarantees meet at the value, and the value agreeing with good_lp
/// and with the exact solver.
fn check(g: &MatrixGame, what: &str) -> Method {
    let s = g.solve();
    let (m, n) = (g.rows(), g.cols());
    let tol = GAP_TOLERANCE * g.scale();
    for (name, p, len) in [("row", &s.row, m), ("column", &s.col, n)] {
        assert!(p[..len].iter().all(|&x| x >= 0.0), "{what}: {name} {p:?}");
        assert!(p[len..].iter().all(|&x| x == 0.0), "{what}: {name} tail");
        let sum: f64 = p[..len].iter().sum();
        assert!((sum - 1.0).abs() <= 1e-12, "{what}: {name} sums to {sum}");
    }
    let (lo, hi) = (g.row_guarantee(&s.row), g.col_guarantee(&s.col));
    assert!(hi - lo <= tol, "{what}: gap {}", hi - lo);
    assert!(s.value >= lo - tol && s.value <= hi + tol, "{what}: value");
    let lp = lp_value(g);
    assert!(
        (s.value - lp).abs() <= 1e-8 * g.scale(),
        "{what}: ours {} good_lp {lp}",
        s.value
    );
    let payoffs: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..n).map(|j| g.get(i, j)).collect())
        .collect();
    let ex = exact::to_f64(&exact::solve_f64_game(&payoffs).value);
    assert!(
        (s.value - ex).abs() <= tol,
        "{what}: ours {} exact {ex}",
        s.value
    );
    s.method
}

fn uniform(rng: &mut SplitMix64, lo: f64, hi: f64) -> f64 {
    lo + (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
}

/// One degenerate game of the given kind.
fn degenerate(rng: &mut SplitMix64, kind: u64) -> (MatrixGame, &'static str) {
    let m = 2 + rng.below(12) as usize;
    let n = if kind.is_multiple_of(2) {
        m
    } else {
        2 + rng.below(12) as usize
    };
    let mut g = MatrixGame::new(m, n);
    let name = match kind % 6 {
        0 => {
            // Continuous payoffs with repeated rows and columns.
            for i in 0..m {
                for j in 0..n {
                    g.set(i, j, uniform(rng, -40.0, 40.0));
                }
            }
            for _ in 0..1 + rng.below(4) {
                let (a, b) = (rng.below(m as u64) as usize, rng.below(m as u64) as usize);
                for j in 0..n {
                    g.set(b, j, g.get(a, j));
                }
                let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                for i in 0..m {
                    g.set(i, b, g.get(i, a));
                }
            }
            "repeated rows and columns"
        }
        1 => {
            let v = uniform(rng, -10.0, 10.0);
            for i in 0..m {
                for j in 0..n {
                    g.set(i, j, v);
                }
            }
            "all-equal payoffs"
        }
        2 => {
            // Each row after the first is dominated by (or equal to) a
            // mixture of earlier ones minus a little.
            for j in 0..n {
                g.set(0, j, uniform(rng, -20.0, 20.0));
            }
            for i in 1..m {
                let a = rng.below(i as u64) as usize;
                let d = [0.0, 1e-13, 0.5][rng.below(3) as usize];
                for j in 0..n {
                    g.set(i, j, g.get(a, j) - d * uniform(rng, 0.0, 1.0));
                }
            }
            "dominated rows"
        }
        3 => {
            // Rank one or two plus a constant: u v' (+ w z').
            let r2 = rng.below(2) == 1;
            let (u, v): (Vec<f64>, Vec<f64>) = (
                (0..m).map(|_| uniform(rng, -3.0, 3.0)).collect(),
                (0..n).map(|_| uniform(rng, -3.0, 3.0)).collect(),
            );
            let (w, z): (Vec<f64>, Vec<f64>) = (
                (0..m).map(|_| uniform(rng, -3.0, 3.0)).collect(),
                (0..n).map(|_| uniform(rng, -3.0, 3.0)).collect(),
            );
            for i in 0..m {
                for j in 0..n {
                    g.set(i, j, u[i] * v[j] + if r2 { w[i] * z[j] } else { 0.0 } + 5.0);
                }
            }
            "rank one or two"
        }
        4 => {
            // GOPS-like: ±prize plus child values that share most digits
            // and repeat (equal cards in effect), as in the N = 12 failure.
            let prize = 1.0 + rng.below(13) as f64;
            let base = uniform(rng, -30.0, 30.0);
            let rows: Vec<f64> = (0..m).map(|_| uniform(rng, -1.0, 1.0)).collect();
            let cols: Vec<f64> = (0..n).map(|_| uniform(rng, -1.0, 1.0)).collect();
            for i in 0..m {
                for j in 0..n {
                    let sign = (i as i64 - j as i64).signum() as f64;
                    let child = base + rows[i / 2 * 2] * 1e-3 + cols[j / 2 * 2] * 1e-3;
                    g.set(i, j, sign * prize + child);
                }
            }
            "GOPS-like near ties"
        }
        _ => {
            // {-1, 0, 1} payoffs: ties everywhere.
            for i in 0..m {
                for j in 0..n {
                    g.set(i, j, rng.below(3) as f64 - 1.0);
                }
            }
            "payoffs in {-1, 0, 1}"
        }
    };
    (g, name)
}

#[test]
fn degenerate_games_agree_with_good_lp_and_exact_rationals() {
    let mut rng = SplitMix64::new(15);
    let mut per_kind = [0u32; 6];
    let mut fallbacks = 0;
    for case in 0..1200u64 {
        let kind = case % 6;
        let (g, name) = degenerate(&mut rng, kind);
        let method = check(
            &g,
            &format!("case {case}: {name} ({}x{})", g.rows(), g.cols()),
        );
        fallbacks += method.is_fallback() as u32;
        per_kind[kind as usize] += 1;
    }
    eprintln!(
        "degenerate games checked per kind: {per_kind:?}, {fallbacks} answered by a fallback"
    );
    assert!(per_kind.iter().all(|&c| c == 200));
}

fn game_from_bits(rows: &[[u64; 7]]) -> MatrixGame {
    let mut g = MatrixGame::new(rows.len(), 7);
    for (i, r) in rows.iter().enumerate() {
        for (j, &b) in r.iter().enumerate() {
            g.set(i, j, f64::from_bits(b));
        }
    }
    g
}

/// N = 12, mine 1,3,4,5,8,10,11, theirs 2,3,6,7,8,9,12, prizes
/// 1,4,6,7,9,10,11, upcard 11 (payoffs from the N = 12 level-6 table):
/// the simplex used to stop at −10.740 with a column strategy summing to
/// 0.62 (a rounding residue of 1e-17 on a repeated row won a ratio test).
/// HiGHS gives −5.747.
const N12_EXAMPLE: [[u64; 7]; 7] = [
    [
        0xc02f187bae29ad1a,
        0xc02f16340b3905ce,
        0xc029310d05846eac,
        0xc029310d05846eac,
        0xc0264e53f4adf5a0,
        0xc02374bfabb017e0,
        0x3ff16d94511165a0,
    ],
    [
        0x401992fc185f6a5f,
        0xc0126d03e7a095a1,
        0xc02a4a2e411b65b6,
        0xc02a4a2e411b65b6,
        0xc0275d6e2558d46d,
        0xc02482bac20e7d8f,
        0x3fe63325906313d0,
    ],
    [
        0x4018c785331a2c01,
        0x401992fc185f6a5f,
        0xc02b453077e19fc8,
        0xc02b453077e19fc8,
        0xc0285498218462e3,
        0xc0257b982d4a4ee8,
        0x3fcebf96ace74c00,
    ],
    [
        0x4018c785331a2c01,
        0x401992fc185f6a5f,
        0xc02b453077e19fc8,
        0xc02b453077e19fc8,
        0xc0285498218462e3,
        0xc0257b982d4a4ee8,
        0x3fcebf96ace74c00,
    ],
    [
        0x3fe107be6746fbc0,
        0x3fe1448ad3cf22d0,
        0x40128b5d7cb4b6eb,
        0x40128b5d7cb4b6eb,
        0xc01974a2834b4915,
        0xc0315d28a0d2d245,
        0xc01828bf33932928,
    ],
    [
        0xc014550b2a02affc,
        0xc0144f4317db51fc,
        0xbfe57860ae5a8d10,
        0xbfe57860ae5a8d10,
        0x3fee72acd9fca530,
        0x40042af72a555c6c,
        0xc02a0c81d7594651,
    ],
    [
        0xc014550b2a02affc,
        0xc0144f4317db51fc,
        0xbfe57860ae5a8d10,
        0xbfe57860ae5a8d10,
        0x3fee72acd9fca530,
        0x40042af72a555c6c,
        0xc02a0c81d7594651,
    ],
];

/// Games of the N = 12 level 7 whose first simplex answer failed its
/// certificate (by 1e-8 in a strategy's sum) after the pivot fix.
const N12_HARD: [&[[u64; 7]]; 3] = [
    &[
        [
            0xc035d12ab43c34b8,
            0xc038ced8f7854eb3,
            0xc0375e7a88059419,
            0xc0375e7a88059419,
            0xc035d0d79250c15b,
            0xc034490df93257fe,
            0xc034490df93257fe,
        ],
        [
            0xc031d12ab43c34b8,
            0xc038ced8f7854eb3,
            0xc0375e7a88059419,
            0xc0375e7a88059419,
            0xc035d0d7925cbe17,
            0xc034490df93257fe,
            0xc034490df93257fe,
        ],
        [
            0xc031d12ab43c34b8,
            0xc038ced8f7854eb3,
            0xc0375e7a88059419,
            0xc0375e7a88059419,
            0xc035d0d7925cbe17,
            0xc034490df93257fe,
            0xc034490df93257fe,
        ],
        [
            0xc031d12ab43c34b8,
            0xc038ced8f7854eb3,
            0xc0375e7a88059419,
            0xc0375e7a88059419,
            0xc035d0d7925cbe17,
            0xc034490df93257fe,
            0xc034490df93257fe,
        ],
        [
            0xc031d12ab43c34b8,
            0xc038ced8f7854eb3,
            0xc0375e7a88059419,
            0xc0375e7a88059419,
            0xc035d0d7925cbe17,
            0xc034490df93257fe,
            0xc034490df93257fe,
        ],
        [
            0xc032ae4bdc7d84b0,
            0xc030ced8f7854eb3,
            0xc038ced8f7854eb3,
            0xc038ced8f7854eb3,
            0xc037308f9f8a02af,
            0xc035b8cb1e5338a0,
            0xc035b8cb1e5338a0,
        ],
        [
            0xc0361e3c78f1e3c8,
            0xc035000000000000,
            0xc0337a4f9a590cb7,
            0xc0337a4f9a590cb7,
            0xc0377a4f9a590cb7,
            0xc03b7a4f9a590cb7,
            0xc03b7a4f9a590cb7,
        ],
    ],
    &[
        [
            0xc0401752b2520467,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc041d6a42d8c6bae,
            0xc0411262eaba1c38,
            0xc0411262eaba1c38,
        ],
        [
            0xc0372ea564a408ce,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc041d6a42d90aeae,
            0xc0411262eaba1c38,
            0xc0411262eaba1c38,
        ],
        [
            0xc0372ea564a408ce,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc041d6a42d90aeae,
            0xc0411262eaba1c38,
            0xc0411262eaba1c38,
        ],
        [
            0xc0372ea564a408ce,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc041d6a42d90aeae,
            0xc0411262eaba1c38,
            0xc0411262eaba1c38,
        ],
        [
            0xc0372ea564a408ce,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc041d6a42d90aeae,
            0xc0411262eaba1c38,
            0xc0411262eaba1c38,
        ],
        [
            0xc0372ea564a408ce,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc042b77a48013826,
            0xc041d6a42d90aeae,
            0xc0411262eaba1c38,
            0xc0411262eaba1c38,
        ],
        [
            0xc03e000000000000,
            0xc03a000000000000,
            0xc03a000000000000,
            0xc03a000000000000,
            0xc041800000000000,
            0xc046000000000000,
            0xc046000000000000,
        ],
    ],
    &[
        [
            0xc0416d5f9e290902,
            0xc0412cbde20cdeb0,
            0xc0412cbde20cdeb0,
            0xc0407d908f443552,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
        ],
        [
            0xc03fdabf3c521204,
            0xc0412cbde20cdeae,
            0xc0412cbde20cdeae,
            0xc0407d908f4d31a2,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
        ],
        [
            0xc03fdabf3c521204,
            0xc0412cbde20cdeae,
            0xc0412cbde20cdeae,
            0xc0407d908f4d31a2,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
        ],
        [
            0xc03fdabf3c521204,
            0xc0412cbde20cdeae,
            0xc0412cbde20cdeae,
            0xc0407d908f4d31a2,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
        ],
        [
            0xc03fdabf3c521204,
            0xc0412cbde20cdeae,
            0xc0412cbde20cdeae,
            0xc0407d908f4d31a2,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
        ],
        [
            0xc03fdabf3c521204,
            0xc0412cbde20cdeae,
            0xc0412cbde20cdeae,
            0xc0407d908f4d31a2,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
            0xc03fbafee38fe65d,
        ],
        [
            0xc042000000000000,
            0xc040000000000000,
            0xc040000000000000,
            0xc041800000000000,
            0xc043000000000000,
            0xc043000000000000,
            0xc043000000000000,
        ],
    ],
];

#[test]
fn the_n12_example_is_solved() {
    let g = game_from_bits(&N12_EXAMPLE);
    check(&g, "N = 12 example");
    let s = g.solve();
    assert!((s.value - (-5.746994105079521)).abs() < 1e-9, "{}", s.value);
    assert!(s.row[..7].iter().chain(&s.col[..7]).all(|&p| p >= 0.0));
    for (i, g) in N12_HARD.iter().enumerate() {
        check(&game_from_bits(g), &format!("hard game {i}"));
    }
}

/// The certificate rejects what the old solver returned: a strategy with a
/// negative entry, one that does not sum to 1, and a value outside what
/// the strategies prove.
#[test]
fn the_certificate_rejects_non_solutions() {
    let g = game_from_bits(&N12_EXAMPLE);
    let good = g.solve();
    let mut row = good.row;
    let mut col = good.col;
    g.certificate(good.value, &mut row, &mut col).unwrap();
    let mut bad_col = [0.0; MAX_DIM];
    bad_col[..3].copy_from_slice(&[0.7, -0.077, -0.003]);
    assert!(g
        .certificate(good.value, &mut good.row.clone(), &mut bad_col)
        .is_err());
    let mut short = good.col;
    short[0] += 0.1;
    assert!(g
        .certificate(good.value, &mut good.row.clone(), &mut short)
        .is_err());
    assert!(g
        .certificate(-10.740223, &mut good.row.clone(), &mut good.col.clone())
        .is_err());
    // Pure strategies far from optimal: the guarantees do not meet.
    let mut pure_row = [0.0; MAX_DIM];
    pure_row[0] = 1.0;
    let mut pure_col = [0.0; MAX_DIM];
    pure_col[0] = 1.0;
    assert!(g
        .certificate(good.value, &mut pure_row, &mut pure_col)
        .is_err());
}
