//! The `nimrod` command line: parse, dispatch, print. All work lives in the
//! library; see ARCHITECTURE.md.

#![deny(unsafe_code)]

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    nimrod_table::shared::return_freed_memory();
    // Whether the caller asked for JSON, known before parsing so that even a
    // usage error comes back as JSON.
    let json = std::env::args().skip(1).any(|a| a == "--json");
    // clap reads an empty NIMROD_DATA as an empty --data and blames the
    // flag the user never gave: name the variable instead.
    if std::env::var_os("NIMROD_DATA").is_some_and(|v| v.is_empty())
        && !std::env::args().any(|a| a == "--data" || a.starts_with("--data="))
    {
        return environment_error(
            json,
            "NIMROD_DATA is set but empty: set it to the data directory, unset it (./data is then used), or give --data DIR",
        );
    }
    // The frame cache of packed tables, per table (random probes of a
    // packed table want more than the default).
    if let Some(v) = std::env::var_os("NIMROD_FRAME_CACHE_MIB") {
        let max = nimrod::table::pack::MAX_CACHE_BYTES >> 20;
        match v.to_str().and_then(|s| s.trim().parse::<usize>().ok()) {
            Some(mib) if (1..=max).contains(&mib) => {
                nimrod::table::pack::set_cache_budget(mib << 20)
            }
            _ => {
                return environment_error(
                    json,
                    &format!(
                        "NIMROD_FRAME_CACHE_MIB={}: give the MiB of decompressed frames each packed table keeps, 1 ..= {max}",
                        v.to_string_lossy()
                    ),
                )
            }
        }
    }
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) if !json || !e.use_stderr() => e.exit(),
        Err(e) => {
            let msg = e.to_string();
            let first = msg.lines().next().unwrap_or("invalid arguments");
            let error = first.trim_start_matches("error: ").to_string();
            eprintln!(
                "{}",
                serde_json::json!({"error": error, "usage": msg.trim_end()})
            );
            return ExitCode::from(2);
        }
    };
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            // A game's error carries its kind (input, table missing, table
            // damaged, failed) and exit code; anything else is a failure.
            let kind = e
                .downcast_ref::<nimrod::games::GameError>()
                .map_or(nimrod::games::ErrorKind::Failed, |g| g.kind());
            let msg = format!("{e:#}").replace('\n', " ");
            if json {
                eprintln!(
                    "{}",
                    serde_json::json!({"error": msg, "kind": kind.as_str()})
                );
            } else {
                eprintln!("error: {msg}");
            }
            ExitCode::from(kind.exit_code())
        }
    }
}

/// A bad environment variable: said once, as JSON when asked for, with the
/// usage exit code (it is checked before the arguments are parsed).
fn environment_error(json: bool, msg: &str) -> ExitCode {
    if json {
        eprintln!("{}", serde_json::json!({ "error": msg }));
    } else {
        eprintln!("error: {msg}");
    }
    ExitCode::from(2)
}
