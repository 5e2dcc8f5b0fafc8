//! Probing chess tables from a program: open the tables a position needs
//! once, then probe values and rate moves from any number of threads.
//!
//! cargo run --release --example probe_chess -- DATA_DIR [FEN]
//!
//! Raw tables are memory-mapped; packed ones (`nimrod pack`) are read a
//! frame at a time through a cache whose size `set_cache_budget` sets.

use anyhow::Result;
use nimrod::games::chess::{Board, Material, Tablebase};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let data = PathBuf::from(args.next().unwrap_or_else(|| "data".into()));
    let fen = args
        .next()
        .unwrap_or_else(|| "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1".into());
    // 64 MiB of decompressed frames per packed table opened after this.
    nimrod::table::pack::set_cache_budget(64 << 20);
    let board = Board::from_fen(&fen)?;
    // The position's table and every table its captures and promotions
    // lead to; an error names a missing one and how to build it.
    let tb = Tablebase::open_closure(&data, Material::of(&board))?;
    println!("{fen}: {}", tb.probe(&board)?.describe());
    for (m, v) in tb.best_moves(&board, None)?.iter().take(3) {
        println!("  {:<6} {}", m.uci(), v.describe());
    }
    // The same Tablebase from several threads at once.
    let wins = std::thread::scope(|s| {
        let handles: Vec<_> = tb
            .best_moves(&board, None)?
            .into_iter()
            .map(|(m, _)| {
                let (tb, board) = (&tb, &board);
                // After the move, en passant included when it allows one.
                s.spawn(move || tb.value_after(board, &m))
            })
            .collect();
        let mut wins = 0;
        for h in handles {
            // The mover wins when the side then to move loses.
            if h.join().expect("probe thread")?.wdl() < 0 {
                wins += 1;
            }
        }
        anyhow::Ok(wins)
    })?;
    println!("{wins} moves keep a win");
    Ok(())
}
