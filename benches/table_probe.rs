//! What the lazy block checks cost a library user: a million random
//! single-entry reads of one table through `Table::get` (bounds, block
//! check, copy), first pass (each 4 KiB block checked on first touch) and
//! warm, against indexing the zero-copy slice `Table::entries` gives after
//! checking every block. Also the open itself (header, metadata, index and
//! block-sum checksums).
//! Usage: cargo bench --bench table_probe -- FILE.nmt [PROBES]

use nimrod::rng::SplitMix64;
use nimrod::table::{EntryKind, Table};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let Some(path) = args.next().map(PathBuf::from) else {
        eprintln!("SKIPPED: give a table file (e.g. data/chess/KQvKR.nmt)");
        return;
    };
    let probes: usize = args
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or(1_000_000);
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
        "{} ({}): {} entries, {} blocks; open {open_us:.0} us; get: {:.1} ns first pass, {:.1} ns warm ({probes} random probes); {}",
        path.display(),
        t.storage(),
        t.len(),
        t.header().block_count(),
        passes[0],
        passes[1],
        slice.unwrap_or_else(|| "no slice (packed: entries are decompressed per frame)".into())
    );
}
