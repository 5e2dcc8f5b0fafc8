//! Reads Sprague–Grundy values of Grundy's game from a built table, with the
//! table crate alone (no solvers, no CLI).
//!
//!     cargo run --release -- build --only grundy          # writes data/grundy/values.nmt
//!     cargo run -p nimrod-table --example read_grundy -- data 1000 7250049
//!
//! Grundy's game: split a heap into two unequal heaps; the player who cannot
//! move loses. G(n) of a position of several heaps is the XOR of their G.

use nimrod_table::{open_job_table, TableError};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((dir, heaps)) = args.split_first() else {
        eprintln!("usage: read_grundy DATA_DIR HEAP [HEAP…]");
        return ExitCode::from(2);
    };
    match run(Path::new(dir), heaps) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("read_grundy: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(dir: &Path, heaps: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    // Checks the file is grundy/values, written with the parameters its
    // header hashes, before any entry is read.
    let table = open_job_table(dir, "grundy/values")?;
    let mut xor = 0u16;
    for heap in heaps {
        let n: u64 = heap
            .parse()
            .map_err(|_| format!("heap \"{heap}\" is not a whole number"))?;
        // Slot n holds G(n) (the "heap-size" ranking); a heap past the table
        // is the caller's mistake and comes back as TableError::Request.
        let g: u16 = match table.get(n) {
            Ok(g) => g,
            Err(TableError::Request { .. }) => {
                return Err(format!(
                    "heap {n} is beyond the table (it holds heaps 0..{})",
                    table.len()
                )
                .into())
            }
            Err(e) => return Err(e.into()),
        };
        println!("G({n}) = {g}");
        xor ^= g;
    }
    if heaps.len() > 1 {
        let verdict = if xor == 0 {
            "the player to move loses"
        } else {
            "the player to move wins"
        };
        println!("together: G = {xor}, {verdict}");
    }
    Ok(())
}
