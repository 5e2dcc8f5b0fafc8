mod build;
mod explorer;
mod files;
mod query;
mod reports;
mod serve;
mod slurm;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "nimrod",
    version,
    about = "Exact game solutions as precomputed lookup tables"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The job graph of a config (default: the embedded one): each job's
    /// dependencies, whether it can be split into parts, and its estimated
    /// entries, output size, memory and work.
    Plan {
        /// TOML config; without it the embedded default is used.
        #[arg(long)]
        config: Option<PathBuf>,
        /// Also say what this data directory holds of each job: its table
        /// built, or the saved state or smaller table a build goes on from
        /// and the time left.
        #[arg(long)]
        data: Option<PathBuf>,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Run the jobs of a config (default: the embedded config/default.toml).
    Build(build::BuildArgs),
    /// Write sbatch scripts for a config's plan (a job array of parts and a
    /// merge job per split job, afterok dependencies along the job graph);
    /// with --submit, submit them; with --wait, wait and report.
    Slurm(slurm::SlurmArgs),
    /// List the tables under a data directory with size and state: `ok`
    /// when every checksum holds (header, index and payload), `bad` naming
    /// the damage otherwise.
    List {
        /// Only open each table (header, metadata and index checked, the
        /// payload not read): its state is then `opens`, not `ok`.
        #[arg(long)]
        quick: bool,
        #[command(flatten)]
        data: DataArg,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Header, metadata and statistics of one table file.
    Info {
        /// A table file, raw (.nmt) or packed (.nmt.zst).
        file: PathBuf,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Check checksums, structure and game-specific invariants.
    Verify {
        /// Files or directories (default: the data directory).
        paths: Vec<PathBuf>,
        #[command(flatten)]
        data: DataArg,
        #[command(flatten)]
        json: JsonArg,
        /// Re-derive every stored entry where a game can (GOPS re-solves
        /// every matrix game of a level); default: a seeded sample.
        #[arg(long)]
        all_entries: bool,
        /// Entries per table to re-derive when --all-entries is absent.
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(0..=1_000_000_000))]
        sample: u64,
        /// Seed of the sample.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Compress tables into the zstd seekable format (FILE -> FILE.zst).
    Pack {
        /// Raw table files (.nmt); each is written beside itself as FILE.zst.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// zstd level (1-22).
        #[arg(long, default_value_t = nimrod::table::pack::DEFAULT_LEVEL)]
        level: i32,
        /// Delete the raw file after a verified pack.
        #[arg(long)]
        remove: bool,
        /// Replace an existing FILE.zst (refused otherwise, as gzip and zstd do).
        #[arg(long)]
        force: bool,
        /// Raw bytes per compressed block (4096 ..= 67108864). The zstd
        /// form's default is the game's: 4 KiB for chess (probed at random:
        /// a probe decompresses one frame), 256 KiB otherwise. A chess
        /// table's shipping form uses 1 MiB blocks with `--codec lzma`, 16
        /// KiB with `--codec zstd`. Larger blocks pack smaller.
        #[arg(long, value_parser = clap::value_parser!(u64).range(4096..=nimrod::table::pack::MAX_FRAME_LEN as u64))]
        frame_size: Option<u64>,
        /// Write the zstd-seekable form (which `zstd -d` restores) even for a
        /// game with a shipping form (chess): larger, faster to probe.
        #[arg(long)]
        seekable: bool,
        /// How a shipping form's blocks are compressed: `lzma`, the
        /// smallest (a probe that misses the block cache decodes 1 MiB,
        /// milliseconds), or `zstd` (level 19, 16 KiB blocks: about a third
        /// larger, a miss costs tens of microseconds).
        #[arg(long, value_enum, default_value_t = CodecArg::Lzma, conflicts_with = "seekable")]
        codec: CodecArg,
        /// Chess: keep only each position's win, draw or loss (no
        /// distances), for engines that search; much smaller. Such a file
        /// answers win/draw/loss and cannot restore the raw table, so the
        /// raw file is kept.
        #[arg(long, conflicts_with_all = ["seekable", "remove"])]
        wdl: bool,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Restore raw tables from packed ones (FILE.zst -> FILE).
    Unpack {
        /// Packed table files (.nmt.zst); each is restored beside itself.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Replace an existing FILE (refused otherwise, as gzip and zstd do).
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Ask a game: nimrod query GAME ARGS… [--data DIR] [--json]
    /// (`nimrod query GAME --help` shows a game's arguments and examples).
    #[command(disable_help_flag = true)]
    Query {
        /// Game name; `nimrod query list` lists them.
        #[arg(allow_hyphen_values = true)]
        game: Option<String>,
        /// Game arguments, plus --data DIR and --json.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Serve the tables over HTTP: chess in the lichess tablebase API's
    /// shape (/standard, /standard/mainline), every game as `nimrod query
    /// GAME ARGS --json` answers it (/api/GAME?args=ARGS), /health, and a
    /// web explorer at / (see docs/serve.md).
    Serve(serve::ServeArgs),
    /// Play against a stored strategy: nimrod play GAME ARGS… [--data DIR]
    /// (`nimrod play GAME --help` shows a game's arguments).
    #[command(disable_help_flag = true)]
    Play {
        /// Game name (`nimrod query list` lists them; not every game plays).
        #[arg(allow_hyphen_values = true)]
        game: Option<String>,
        /// Game arguments, plus --data DIR.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// `--data DIR`, where the tables are: one definition for every command
/// that reads or writes them.
#[derive(clap::Args, Clone, Debug)]
pub struct DataArg {
    /// Directory of the tables (default: $NIMROD_DATA, else ./data).
    #[arg(
        long = "data",
        env = "NIMROD_DATA",
        hide_env_values = true,
        default_value = "data"
    )]
    pub dir: PathBuf,
}

/// `--json`: one JSON document instead of text, for every command that
/// reports.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct JsonArg {
    /// Print one JSON document instead of text.
    #[arg(long = "json")]
    pub on: bool,
}

/// Prints a typed answer (see `reports`): its JSON on request, its text
/// otherwise.
fn show(json: bool, answer: &nimrod::games::Answer) {
    emit(json, answer.json(), answer.text());
}

/// Prints an answer: JSON on request, text otherwise. A reader that closed
/// the pipe early (`nimrod query … | head`) has all it wanted: that ends
/// the output quietly instead of panicking as `print!` does.
fn emit(json: bool, value: &serde_json::Value, text: &str) {
    use std::io::Write;
    let body = if json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(value).expect("JSON value")
        )
    } else {
        text.to_string()
    };
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(body.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: writing the answer to standard output: {e}");
            std::process::exit(1);
        }
    }
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Build(args) => build::run(args),
        Command::Slurm(args) => slurm::run(args),
        Command::Plan { config, data, json } => build::plan(config, data, json.on),
        Command::List { data, json, quick } => files::list(&data.dir, json.on, quick),
        Command::Info { file, json } => files::info(&file, json.on),
        Command::Verify {
            paths,
            data,
            json,
            all_entries,
            sample,
            seed,
        } => files::verify(
            paths,
            &data.dir,
            json.on,
            &nimrod::games::VerifyDepth {
                all: all_entries,
                sample,
                seed,
            },
        ),
        Command::Pack {
            files,
            level,
            remove,
            force,
            frame_size,
            seekable,
            codec,
            wdl,
            json,
        } => files::pack(
            &files,
            files::PackOptions {
                level,
                remove,
                force,
                frame_size,
                seekable,
                codec: codec.into(),
                wdl,
            },
            json.on,
        ),
        Command::Unpack { files, force, json } => files::unpack(&files, force, json.on),
        Command::Query { game, args } => query::run(game, args),
        Command::Play { game, args } => query::play(game, args),
        Command::Serve(args) => serve::run(args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Arguments without help text, in `cmd` and its subcommands.
    fn undocumented(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        let path = format!("{path} {}", cmd.get_name());
        for a in cmd.get_arguments() {
            let id = a.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            if a.get_help().is_none_or(|h| h.to_string().trim().is_empty()) {
                out.push(format!("{path} <{id}>"));
            }
        }
        for s in cmd.get_subcommands() {
            undocumented(s, &path, out);
        }
    }

    /// `info FILE`, `pack FILE`, `unpack FILE` and `slurm --partition` once
    /// showed an empty help line.
    #[test]
    fn every_argument_of_every_command_has_help() {
        let mut missing = Vec::new();
        undocumented(&super::Cli::command(), "", &mut missing);
        for kind in [super::query::Kind::Query, super::query::Kind::Play] {
            undocumented(&super::query::command(kind), "", &mut missing);
        }
        assert!(missing.is_empty(), "no help for: {missing:?}");
    }
}

/// `nimrod pack --codec`: the table crate's [`nimrod::table::shipped::Codec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CodecArg {
    /// LZMA, the smallest.
    Lzma,
    /// zstd, faster to probe.
    Zstd,
}

impl From<CodecArg> for nimrod::table::shipped::Codec {
    fn from(c: CodecArg) -> Self {
        match c {
            CodecArg::Lzma => nimrod::table::shipped::Codec::Lzma,
            CodecArg::Zstd => nimrod::table::shipped::Codec::Zstd,
        }
    }
}
