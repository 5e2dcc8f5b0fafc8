//! What the lazy block checks cost a library user: a million random
//! single-entry reads of one table through `Table::get` (bounds, block
//! check, copy), first pass (each 4 KiB block checked on first touch) and
//! warm, against indexing the zero-copy slice `Table::entries` gives after
//! checking every block. Also the open itself (header, metadata, index and
//! block-sum checksums): the first open, and the median of 21 more.
//! Usage: cargo bench --bench table_probe -- FILE.nmt [PROBES] [--make N]
//! `--make N` first writes FILE.nmt (if it is absent) as a u8 table of N
//! pseudo-random entries: `--make 8589934592` is the size of Grundy's game
//! to 2^32 (8.6 GB, 2^21 blocks, 16 MiB of block sums).

use nimrod::rng::SplitMix64;
use nimrod::table::{EntryKind, Table, TableMeta, TableWriter};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

/// Writes `n` pseudo-random u8 entries to `path`, a block at a time.
fn make(path: &std::path::Path, n: u64) {
    let mut w = TableWriter::create(path, EntryKind::U8).expect("create");
    let mut rng = SplitMix64::new(5);
    let mut buf = vec![0u8; 1 << 24];
    let mut done = 0;
    while done < n {
        let k = (n - done).min(buf.len() as u64) as usize;
        buf[..k]
            .iter_mut()
            .for_each(|b| *b = (rng.next_u64() >> 60) as u8);
        w.write_entries(&buf[..k]).expect("write");
        done += k as u64;
    }
    let meta = TableMeta::new(
        "bench",
        "table_probe",
        serde_json::json!({ "entries": n }),
        "identity",
        "u8, pseudo-random",
        serde_json::json!({}),
    );
    w.finish(&meta, 0).expect("finish");
}

fn main() {
    let all_args: Vec<String> = std::env::args().collect();
    let make_entries: Option<u64> = all_args.iter().position(|a| a == "--make").map(|i| {
        match all_args.get(i + 1).and_then(|n| n.parse().ok()) {
            Some(n) if (1..=1 << 36).contains(&n) => n,
            _ => {
                eprintln!("table_probe: --make takes an entry count, 1 to 2^36");
                std::process::exit(2);
            }
        }
    });
    // Positional arguments: not a flag, not the value after --make.
    let mut args = all_args
        .iter()
        .enumerate()
        .skip(1)
        .filter(|&(i, a)| !a.starts_with("--") && all_args[i - 1] != "--make")
        .map(|(_, a)| a.clone());
    let Some(path) = args.next().map(PathBuf::from) else {
        eprintln!("SKIPPED: give a table file (e.g. data/chess/KQvKR.nmt)");
        return;
    };
    let probes: usize = args
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or(1_000_000);
    if let Some(n) = make_entries {
        if !path.exists() {
            make(&path, n);
        }
    }
    let t0 = Instant::now();
    // A file was given: a bench that cannot measure it fails loudly.
    let t = match Table::open(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("table_probe: {e}");
            std::process::exit(1);
        }
    };
    let open_us = t0.elapsed().as_secs_f64() * 1e6;
    let mut opens: Vec<f64> = (0..21)
        .map(|_| {
            let s = Instant::now();
            black_box(Table::open(&path).expect("opened once already"));
            s.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    opens.sort_by(f64::total_cmp);
    let open_median_us = opens[10];
    if t.header().entry_kind != EntryKind::U8 {
        eprintln!(
            "table_probe: {} holds {} entries; this bench reads u8 tables",
            path.display(),
            t.header().entry_kind.name()
        );
        std::process::exit(1);
    }
    let mut rng = SplitMix64::new(11);
    let slots: Vec<u64> = (0..probes).map(|_| rng.below(t.len())).collect();
    let mut passes = Vec::new();
    for _ in 0..2 {
        let s = Instant::now();
        let mut acc = 0u64;
        for &slot in &slots {
            acc += u64::from(t.get::<u8>(slot).expect("read"));
        }
        black_box(acc);
        passes.push(s.elapsed().as_nanos() as f64 / probes as f64);
    }
    // A packed table has no zero-copy slice (it used to crash here): its
    // line says so instead of a slice figure.
    let s = Instant::now();
    let all = match t.entries::<u8>() {
        Ok(all) => all,
        Err(e) => {
            eprintln!("table_probe: {e}");
            std::process::exit(1);
        }
    };
    let check_all_ms = s.elapsed().as_secs_f64() * 1e3;
    let slice = all.map(|all| {
        let s = Instant::now();
        let mut acc = 0u64;
        for &slot in &slots {
            acc += u64::from(all[slot as usize]);
        }
        black_box(acc);
        format!(
            "slice index {:.1} ns; checking every block {check_all_ms:.2} ms",
            s.elapsed().as_nanos() as f64 / probes as f64
        )
    });
    println!(
        "{} ({}): {} entries, {} blocks; open {open_us:.0} us (then median {open_median_us:.0} us of 21); get: {:.1} ns first pass, {:.1} ns warm ({probes} random probes); {}",
        path.display(),
        t.storage(),
        t.len(),
        t.header().block_count(),
        passes[0],
        passes[1],
        slice.unwrap_or_else(|| "no slice (packed: entries are decompressed per frame)".into())
    );
}
