//! Shared plumbing for `nimrod query`: argument parsing through clap with
//! one-line errors, locating tables (raw or packed), the answer type.

use super::error::GameError;
use crate::table::{Table, TableError};
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};

/// Where a query finds its tables.
pub struct QueryContext {
    /// The data directory (`--data`, `NIMROD_DATA`, else `./data`).
    pub data_dir: PathBuf,
}

/// What a query prints: aligned text for people, one JSON document for
/// programs (`--json`). Built only by [`Answer::of`] from a typed answer,
/// so the two cannot drift apart.
pub struct Answer {
    text: String,
    json: serde_json::Value,
    stream: Option<Stream>,
}

/// An answer too long to hold in memory (one line per input line, e.g.
/// `query chess --fens`): it writes itself, text or JSON lines, to the
/// writer it is given, and fails (after writing every line it could) when
/// some input had no answer.
pub type Stream = Box<dyn FnOnce(&mut dyn std::io::Write, bool) -> anyhow::Result<()> + Send>;

impl Answer {
    /// The answer of a typed result: its `Display` is the text and its
    /// `Serialize` the JSON, so the two cannot drift apart.
    pub fn of<T: serde::Serialize + std::fmt::Display>(value: &T) -> Answer {
        Answer {
            text: value.to_string(),
            json: serde_json::to_value(value).expect("answer structs serialise"),
            stream: None,
        }
    }

    /// An answer that writes itself line by line (see [`Stream`]); its
    /// `text` is empty and its `json` null.
    pub fn streamed(stream: Stream) -> Answer {
        Answer {
            text: String::new(),
            json: serde_json::Value::Null,
            stream: Some(stream),
        }
    }

    /// Whether the answer writes itself line by line (its `json` is null).
    pub fn is_streamed(&self) -> bool {
        self.stream.is_some()
    }

    /// The line-by-line writer of a streamed answer (taken once).
    pub fn take_stream(&mut self) -> Option<Stream> {
        self.stream.take()
    }

    /// The text, as `nimrod query` prints it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The JSON document, as `nimrod query --json` prints it.
    pub fn json(&self) -> &serde_json::Value {
        &self.json
    }
}

/// A help request or a usage error from a game's argument parser, kept
/// whole: the command line prints help on stdout (exit 0) and a usage error
/// with every missing or wrong argument on stderr (exit 2), as clap does.
#[derive(Debug)]
pub struct Usage {
    /// clap's full rendering: the help page, or the error with its usage.
    pub text: String,
    /// A help page (exit 0) rather than an error (exit 2).
    pub help: bool,
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text.trim_end().trim_start_matches("error: "))
    }
}

impl std::error::Error for Usage {}

#[cfg(feature = "cli")]
impl From<clap::Error> for Usage {
    fn from(e: clap::Error) -> Usage {
        let help = matches!(
            e.kind(),
            clap::error::ErrorKind::DisplayHelp
                | clap::error::ErrorKind::DisplayVersion
                | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        );
        Usage {
            text: e.render().to_string(),
            help,
        }
    }
}

/// Why a query or a game was not answered: its arguments (a help request
/// or a usage error, see [`Usage`]), or the game itself (a missing table, a
/// position out of range…: see [`GameError`]).
#[derive(Debug)]
pub enum QueryError {
    /// The arguments did not parse, or help was asked for.
    Usage(Usage),
    /// The game could not answer.
    Game(GameError),
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::Usage(u) => u.fmt(f),
            QueryError::Game(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for QueryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            QueryError::Usage(u) => Some(u),
            QueryError::Game(e) => Some(e),
        }
    }
}

/// A table's statistics as the game's typed struct, or an error naming the
/// table (a malformed or older table must not answer with zeros).
pub fn table_stats<T: serde::de::DeserializeOwned>(t: &Table) -> Result<T> {
    typed_meta(t.path(), t.meta(), "statistics", &t.meta().stats)
}

/// A table's parameters as the game's typed struct, or an error naming it.
pub fn table_params<T: serde::de::DeserializeOwned>(t: &Table) -> Result<T> {
    params_of(t.path(), t.meta())
}

/// [`table_params`] from a table's file and metadata (a shipped table has
/// no `Table`).
pub fn params_of<T: serde::de::DeserializeOwned>(
    path: &Path,
    meta: &crate::table::TableMeta,
) -> Result<T> {
    typed_meta(path, meta, "parameters", &meta.params)
}

fn typed_meta<T: serde::de::DeserializeOwned>(
    path: &Path,
    m: &crate::table::TableMeta,
    what: &str,
    value: &serde_json::Value,
) -> Result<T> {
    use anyhow::Context;
    serde_json::from_value(value.clone()).with_context(|| {
        format!(
            "{}: its {what} are not those of a {}/{} table of this version; rebuild it",
            path.display(),
            m.game,
            m.table
        )
    })
}

/// Opens the table of job `id` under the data directory, raw or packed,
/// checked to be that job's table. A missing one is `TableError::Missing`
/// (the registry adds the command that builds it at the boundary: see
/// `registry::hint`).
pub fn open_table(data_dir: &Path, id: &str) -> Result<Table, TableError> {
    crate::table::open_job_table(data_dir, id)
}

/// How a game restores the raw payload of one of its shipped tables
/// (`Game::restore`).
pub type Restore<'a> = &'a dyn Fn(&crate::table::ShippedTable) -> Result<Vec<u8>>;

/// As [`open_table`], but a packed table is decompressed whole into memory
/// (for a reader that probes all over it: see `Table::open_unpacked`), and
/// a shipped one is restored by `restore` (its game's).
pub fn open_table_unpacked(data_dir: &Path, id: &str, restore: Restore) -> Result<Table> {
    match crate::table::open_job_table_unpacked(data_dir, id) {
        Err(TableError::Shipped { path }) => restore_shipped(&path, id, restore),
        other => Ok(other?),
    }
}

/// The raw table of a shipped file of job `id`, restored into memory by
/// `restore` and checked against the raw table's checksums: for readers
/// that need every entry (a build's dependencies, `verify`).
pub fn restore_shipped(path: &Path, id: &str, restore: Restore) -> Result<Table> {
    let s = crate::table::ShippedTable::open(path)?;
    crate::table::check_identity_of(path, s.meta(), s.header(), id)?;
    Ok(s.restore_table(&restored_payload(&s, restore)?)?)
}

/// The whole payload of a shipped table, restored by `restore` (unchecked:
/// `ShippedTable::restore_table` and `restore` check it).
pub fn restored_payload(s: &crate::table::ShippedTable, restore: Restore) -> Result<Vec<u8>> {
    use anyhow::Context;
    restore(s).with_context(|| format!("{}: cannot restore", s.path().display()))
}

/// One answer of a person (or a script) playing `nimrod play GAME`: the
/// prompt, then a line read and trimmed. Input that ends before the game
/// does is an error naming the game.
pub fn read_answer(
    input: &mut dyn std::io::BufRead,
    out: &mut dyn std::io::Write,
    prompt: &str,
    game: &str,
) -> Result<String> {
    write!(out, "{prompt}")?;
    out.flush()?;
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        writeln!(out)?;
        bail!("play {game}: input ended before the game did");
    }
    Ok(line.trim().to_string())
}
