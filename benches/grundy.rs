//! Criterion benches: the sparse-space solver against the naive mex, and
//! table probes raw vs packed. Whole-size timings (2^20 … 2^24, threads,
//! peak memory) are in scripts/bench_grundy.sh.

use criterion::{criterion_group, criterion_main, Criterion};
use nimrod::games::grundy::{driver, naive};
use nimrod::table::pack::{pack_bytes, DEFAULT_FRAME_SIZE, DEFAULT_LEVEL};
use nimrod::table::writer::write_ranked;
use nimrod::table::{Table, TableMeta};
use std::hint::black_box;

fn solvers(c: &mut Criterion) {
    let mut g = c.benchmark_group("grundy");
    g.sample_size(10);
    g.bench_function("sparse 2^16 heaps", |b| {
        b.iter(|| driver::values(black_box(1 << 16), |_| {}).unwrap())
    });
    g.bench_function("naive 2^12 heaps", |b| {
        b.iter(|| naive::values(black_box(1 << 12)))
    });
    g.bench_function("sparse 2^12 heaps", |b| {
        b.iter(|| driver::values(black_box(1 << 12), |_| {}).unwrap())
    });
    g.finish();
}

fn probes(c: &mut Criterion) {
    let (values, _) = driver::values(1 << 20, |_| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("values.nmt");
    let meta = TableMeta {
        game: "grundy".into(),
        table: "values".into(),
        params: serde_json::json!({}),
        index: "heap-size".into(),
        entry: "u16".into(),
        tool_version: "bench".into(),
        stats: serde_json::json!({}),
        job: None,
    };
    write_ranked(&path, &values, &meta, 0).unwrap();
    let raw = Table::open(&path).unwrap();
    let packed_bytes = pack_bytes(
        &std::fs::read(&path).unwrap(),
        DEFAULT_LEVEL,
        DEFAULT_FRAME_SIZE,
    )
    .unwrap();
    let packed = Table::from_bytes(&path, packed_bytes).unwrap();
    let mut i = 0u64;
    let mut next = move || {
        i = (i + 7_919) % (1 << 20);
        i
    };
    c.bench_function("probe raw (mmap)", |b| {
        b.iter(|| raw.get::<u16>(next()).unwrap())
    });
    let mut j = 0u64;
    c.bench_function("probe packed (frame cache)", |b| {
        b.iter(|| {
            j = (j + 7_919) % (1 << 20);
            packed.get::<u16>(j).unwrap()
        })
    });
}

criterion_group!(benches, solvers, probes);
criterion_main!(benches);
