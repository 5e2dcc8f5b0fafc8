//! Shared plumbing for `nimrod query`: argument parsing through clap with
//! one-line errors, locating tables (raw or packed), the answer type.

use crate::table::Table;
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
/// position out of range…).
#[derive(Debug)]
pub enum QueryError {
    /// The arguments did not parse, or help was asked for.
    Usage(Usage),
    /// The game could not answer.
    Failed(anyhow::Error),
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::Usage(u) => u.fmt(f),
            QueryError::Failed(e) => write!(f, "{e:#}"),
        }
    }
}

impl std::error::Error for QueryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            QueryError::Usage(u) => Some(u),
            QueryError::Failed(e) => Some(e.as_ref()),
        }
    }
}

/// Asks `game` what `nimrod query GAME ARGS…` would, from a program that has
/// the arguments as strings (with the typed struct, call
/// [`Queries::query`](super::Queries::query) instead): they are parsed by
/// the game's own command.
#[cfg(feature = "cli")]
pub fn ask(
    game: &dyn super::CommandLine,
    args: &[String],
    ctx: &QueryContext,
) -> Result<Answer, QueryError> {
    let argv = std::iter::once(format!("nimrod query {}", game.name())).chain(args.iter().cloned());
    let m = game
        .query_command()
        .try_get_matches_from(argv)
        .map_err(|e| QueryError::Usage(Usage::from(e)))?;
    game.query_matches(&m, ctx)
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

/// Opens the table of job `id` under the data directory, raw or packed.
/// A missing table is an error that names the directory searched, how to
/// point at another, and the command that builds it (`build_hint`).
pub fn open_table(data_dir: &Path, id: &str) -> Result<Table> {
    open_table_with(data_dir, id, crate::table::open_job_table)
}

/// As [`open_table`], but a packed table is decompressed whole into memory
/// (for a reader that probes all over it: see `Table::open_unpacked`).
pub fn open_table_unpacked(data_dir: &Path, id: &str) -> Result<Table> {
    match open_table_with(data_dir, id, crate::table::open_job_table_unpacked) {
        Err(e) => match shipped_file(&e) {
            Some(path) => restore_shipped(path, id),
            None => Err(e),
        },
        ok => ok,
    }
}

/// The file of a shipped table that was opened as a plain one.
pub fn shipped_file(e: &anyhow::Error) -> Option<&Path> {
    e.chain()
        .find_map(|c| match c.downcast_ref::<crate::table::TableError>() {
            Some(crate::table::TableError::Shipped { path }) => Some(path.as_path()),
            _ => None,
        })
}

/// The raw table of a shipped file, restored into memory by its game and
/// checked against the raw table's checksums: for readers that need every
/// entry (a build's dependencies, `verify`).
pub fn restore_shipped(path: &Path, id: &str) -> Result<Table> {
    let s = crate::table::ShippedTable::open(path)?;
    crate::table::check_identity_of(path, s.meta(), s.header(), id)?;
    restore_file(&s)
}

/// The raw table of an open shipped file, restored into memory by its
/// game and checked against the raw table's checksums.
pub fn restore_file(s: &crate::table::ShippedTable) -> Result<Table> {
    Ok(s.restore_table(&restored_payload(s)?)?)
}

/// The whole payload of a shipped table, restored by its game (unchecked:
/// `ShippedTable::restore_table` and `restore` check it).
pub fn restored_payload(s: &crate::table::ShippedTable) -> Result<Vec<u8>> {
    use anyhow::Context;
    let path = s.path();
    let game = super::find(&s.meta().game)
        .ok_or_else(|| anyhow::anyhow!("{}: no game named {}", path.display(), s.meta().game))?;
    game.restore(s)
        .with_context(|| format!("{}: cannot restore", path.display()))
}

/// A table a query needs could not be used: missing from the data
/// directory, or damaged. The message says which table and what to do;
/// a server tells the two apart (404 and 500) by `damaged`.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct TableUnavailable {
    /// The table exists but is damaged or not the one asked for.
    pub damaged: bool,
    /// What happened and the command that builds or rebuilds it.
    pub message: String,
}

fn open_table_with(
    data_dir: &Path,
    id: &str,
    open: fn(&Path, &str) -> Result<Table, crate::table::TableError>,
) -> Result<Table> {
    match open(data_dir, id) {
        Err(e @ crate::table::TableError::Missing { .. }) => Err(TableUnavailable {
            damaged: false,
            message: format!("{e}; {}", missing_hint(data_dir, id)),
        }
        .into()),
        Err(
            e @ (crate::table::TableError::Corrupt { .. }
            | crate::table::TableError::Truncated { .. }
            | crate::table::TableError::Identity { .. }),
        ) => Err(TableUnavailable {
            damaged: true,
            message: format!(
                "{e}; rebuild it: nimrod build {}--force --only {id} --data {}",
                shipped_config_of(id)
                    .flatten()
                    .map(|n| format!("--config {n} "))
                    .unwrap_or_default(),
                data_dir.display()
            ),
        }
        .into()),
        other => Ok(other?),
    }
}

/// The shipped config whose plan has job `id`: `Some(None)` for the
/// embedded default, `Some(Some("config/big.toml"))`, or None.
pub(crate) fn shipped_config_of(id: &str) -> Option<Option<&'static str>> {
    let shipped = [
        (None, crate::pipeline::DEFAULT_CONFIG),
        (Some("config/big.toml"), crate::pipeline::config::BIG_CONFIG),
    ];
    shipped.into_iter().find_map(|(name, text)| {
        crate::pipeline::Config::parse(name.unwrap_or("default"), text)
            .map_err(anyhow::Error::from)
            .and_then(|c| crate::pipeline::plan(&c, &super::planners()))
            .is_ok_and(|jobs| jobs.iter().any(|j| j.id == id))
            .then_some(name)
    })
}

/// What to do about a table that is not in `data_dir`: look elsewhere, or
/// build it (see `build_hint`).
pub fn missing_hint(data_dir: &Path, id: &str) -> String {
    format!(
        "if the tables are elsewhere, say where with --data DIR or NIMROD_DATA=DIR; {}",
        build_hint(data_dir, id)
    )
}

/// The command that builds table `id`, found by planning the configs that
/// ship with nimrod: the embedded default first, then `config/big.toml`.
/// A table neither builds is said to need a config of its own.
pub fn build_hint(data_dir: &Path, id: &str) -> String {
    if let Some(config) = shipped_config_of(id) {
        return format!(
            "to build it: nimrod build {}--only {id} --data {}",
            config.map(|n| format!("--config {n} ")).unwrap_or_default(),
            data_dir.display()
        );
    }
    let game = id.split('/').next().unwrap_or(id);
    format!(
        "no shipped config builds {id}: add it to the [{game}] section of a config (see config/big.toml) and run nimrod build --config FILE --only {id} --data {}",
        data_dir.display()
    )
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
