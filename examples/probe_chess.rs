//! Probes the chess endgame tables from a program: the value of a position
//! and every legal move rated, best first, then the line of best play.
//!
//!     cargo run --release -- build --only chess            # the default 3- and 4-piece tables
//!     cargo run --release --example probe_chess -- data "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"
//!
//! Every table the position can lead to (captures, promotions) is opened and
//! checked to be the one its name says before the first probe.

use nimrod::games::chess::board::Board;
use nimrod::games::chess::material::Material;
use nimrod::games::chess::probe::Tablebase;
use nimrod::games::chess::query::{position_value, principal_variation, rated_moves};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, fen] = args.as_slice() else {
        eprintln!("usage: probe_chess DATA_DIR FEN");
        return ExitCode::from(2);
    };
    match run(Path::new(dir), fen) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("probe_chess: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(dir: &Path, fen: &str) -> anyhow::Result<()> {
    let (board, pushed) = Board::from_fen_with_en_passant(fen)?;
    let material = Material::of(&board);
    let tables = if material.pieces() == 2 {
        Tablebase::default() // bare kings: a draw, no table needed
    } else {
        Tablebase::open_closure(dir, material.canonical())?
    };
    println!(
        "{fen}: {}",
        position_value(&tables, &board, pushed)?.describe()
    );
    for line in rated_moves(&tables, &board, pushed)? {
        println!("  {:<8} {}", line.san, line.value.describe());
    }
    let pv: Vec<String> = principal_variation(&tables, &board, pushed)?
        .into_iter()
        .map(|l| l.san)
        .collect();
    if !pv.is_empty() {
        println!("best play: {}", pv.join(" "));
    }
    Ok(())
}
