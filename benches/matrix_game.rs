//! Matrix-game solver: ns per game by size 2..13, ours against good_lp with
//! the microlp backend on the same games (random payoffs, no saddle point
//! filtering: the mix a real solve sees is in the GOPS level statistics).
//! Whole GOPS solves (N = 8..13, threads, peak memory) are timed by
//! scripts/bench_gops.sh.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
#[path = "../tests/lp_reference/mod.rs"]
mod lp_reference;
use lp_reference::lp_value;
use nimrod::lp::{MatrixGame, Workspace};
use std::hint::black_box;

fn games(size: usize, count: usize) -> Vec<MatrixGame> {
    let mut state = 0x5eed_u64 + size as u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64 * 40.0 - 20.0
    };
    (0..count)
        .map(|_| {
            let mut g = MatrixGame::new(size, size);
            for i in 0..size {
                for j in 0..size {
                    g.set(i, j, next());
                }
            }
            g
        })
        .collect()
}

fn by_size(c: &mut Criterion) {
    let mut g = c.benchmark_group("matrix game");
    g.sample_size(20);
    for size in 2..=13 {
        let set = games(size, 64);
        g.bench_with_input(BenchmarkId::new("nimrod value", size), &set, |b, set| {
            let mut ws = Workspace::new();
            b.iter(|| {
                set.iter()
                    .map(|m| black_box(m).value_with(&mut ws).0)
                    .sum::<f64>()
            })
        });
        g.bench_with_input(
            BenchmarkId::new("nimrod strategies", size),
            &set,
            |b, set| {
                let mut ws = Workspace::new();
                b.iter(|| {
                    set.iter()
                        .map(|m| black_box(m).solve_with(&mut ws).value)
                        .sum::<f64>()
                })
            },
        );
        g.bench_with_input(BenchmarkId::new("good_lp microlp", size), &set, |b, set| {
            b.iter(|| set.iter().map(|m| lp_value(black_box(m))).sum::<f64>())
        });
    }
    g.finish();
}

criterion_group!(benches, by_size);
criterion_main!(benches);
