//! Probe latency of the chess tables through the library: a million random
//! legal positions of one table, value lookup (index + one byte read), and
//! the value after every legal move (what `query` does per position).
//! Reads tables from $NIMROD_DATA (default `data/`); skips when absent.
//! With COLD=N, then N cold probes: before each, the tables are closed and
//! every file of DATA/chess is dropped from the page cache
//! (posix_fadvise DONTNEED), the tables are opened again (not timed), and
//! one probe of a random position is timed (its page, or its packed frame,
//! read from the disk), the tables advised random as queries advise them
//! (READAHEAD=1: not, to see the read-ahead's cost). Prints the median
//! and the 90th percentile.
//! PROBES=N sets the number of positions (default 10^6);
//! NIMROD_FRAME_CACHE_MIB the frame cache of packed and shipped tables.
//! Usage: cargo bench --bench chess_probe [-- TABLE]

use nimrod::games::chess::board::{Board, Color};
use nimrod::games::chess::material::Material;
use nimrod::games::chess::probe::Tablebase;
use nimrod::rng::SplitMix64;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let data = PathBuf::from(std::env::var("NIMROD_DATA").unwrap_or_else(|_| "data".into()));
    // As the command line reads it: the decompressed bytes each packed or
    // shipped table keeps.
    if let Some(mib) = std::env::var("NIMROD_FRAME_CACHE_MIB")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        nimrod::table::pack::set_cache_budget(mib << 20);
    }
    let name = std::env::args()
        .skip(1)
        .find(|a| a.contains('v'))
        .unwrap_or_else(|| "KQvKR".into());
    let m = Material::parse(&name)
        .expect("a material like KQvKR")
        .canonical();
    let tb = match Tablebase::open_closure(&data, m) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("SKIPPED: {e} (build the tables first: cargo run --release -- build)");
            return;
        }
    };
    let layout = &tb.get(&m).expect("opened").layout;
    let mut rng = SplitMix64::new(5);
    let mut boards: Vec<Board> = Vec::new();
    let count: usize = std::env::var("PROBES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    while boards.len() < count {
        let turn = if rng.next_u64() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Some(b) = layout.legal_board(rng.below(layout.positions), turn) {
            boards.push(b);
        }
    }
    for round in 0..2 {
        let t = Instant::now();
        for b in &boards {
            black_box(tb.value(b).expect("probe"));
        }
        let per = t.elapsed().as_nanos() as f64 / boards.len() as f64;
        let t = Instant::now();
        let mut moves = Vec::new();
        let mut probes = 0;
        let rated = boards.len().min(10_000);
        for b in &boards[..rated] {
            moves.clear();
            b.legal_moves(&mut moves);
            for mv in &moves {
                black_box(tb.value_after(b, mv).expect("probe"));
                probes += 1;
            }
        }
        let all = t.elapsed().as_nanos() as f64 / rated as f64;
        println!(
            "{m} {}: {per:.0} ns per position probe ({} probes); {all:.0} ns to rate every move of a position ({:.1} moves on average)",
            if round == 0 { "first pass (first touch of each page and block)" } else { "second pass (warm)" },
            boards.len(),
            probes as f64 / rated as f64
        );
    }
    let cold: usize = std::env::var("COLD")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
        .min(100_000);
    if cold > 0 {
        drop(tb);
        let mut times = Vec::with_capacity(cold);
        for i in 0..cold {
            evict(&data.join("chess"));
            let tb = Tablebase::open_closure(&data, m).expect("reopen");
            if std::env::var_os("READAHEAD").is_none() {
                tb.advise_random();
            }
            let b = &boards[(i * 7919) % boards.len()];
            let t = Instant::now();
            black_box(tb.value(b).expect("probe"));
            times.push(t.elapsed().as_nanos() as f64 / 1000.0);
        }
        times.sort_by(|a, b| a.total_cmp(b));
        println!(
            "{m} cold: median {:.1} us, 90th percentile {:.1} us, max {:.1} us per probe ({cold} probes, page cache dropped before each)",
            times[cold / 2],
            times[cold * 9 / 10],
            times[cold - 1]
        );
    }
}

/// Drops every file of `dir` from the page cache (clean pages only, which
/// table files are: nimrod never writes them in place).
fn evict(dir: &std::path::Path) {
    use nix::fcntl::{posix_fadvise, PosixFadviseAdvice};
    for e in std::fs::read_dir(dir)
        .expect("the chess directory")
        .flatten()
    {
        if let Ok(f) = std::fs::File::open(e.path()) {
            posix_fadvise(&f, 0, 0, PosixFadviseAdvice::POSIX_FADV_DONTNEED).expect("fadvise");
        }
    }
}
