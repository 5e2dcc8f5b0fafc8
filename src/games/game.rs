//! The traits every game implements, and the command line's view of them.
//! This file names no game: games import it, the registry (registry.rs)
//! lists the games.

use super::error::GameError;
use super::query::{Answer, QueryContext};
#[cfg(feature = "cli")]
use super::query::{QueryError, Usage};
use crate::pipeline::Planner;
use crate::table::Table;
use anyhow::Result;
use std::path::Path;

/// A game: its name, its planner if it builds tables, and its
/// verification. What it answers is [`Queries`], what it plays [`Plays`];
/// the command line reaches both through [`CommandLine`], the one place
/// clap meets a game.
pub trait Game: Sync {
    /// The name used in configs (`[grundy]`), job ids and `nimrod query
    /// NAME`. A game that builds tables plans them under the same name
    /// (`Planner::name`).
    fn name(&self) -> &'static str;
    /// What expands its config section into jobs; None for a game that
    /// builds nothing (Nim is answered by formula).
    fn planner(&self) -> Option<&dyn Planner> {
        None
    }
    /// One line for `nimrod query list`.
    fn summary(&self) -> &'static str;
    /// Game-specific invariants checked by `nimrod verify` (beyond checksums).
    fn verify(&self, _table: &Table) -> Result<(), GameError> {
        Ok(())
    }
    /// `verify` plus re-deriving stored values where a game can (GOPS
    /// re-solves matrix games): a one-line report and its JSON, if any.
    fn verify_deep(
        &self,
        table: &Table,
        _depth: &VerifyDepth,
    ) -> Result<Option<VerifyNote>, GameError> {
        self.verify(table).map(|_| None)
    }
    /// What one entry means, for `nimrod info`: the table's own description
    /// unless the game knows a stored one to be wrong.
    fn entry_description(&self, table: &Table) -> String {
        table.meta().entry.clone()
    }
    /// Raw bytes per zstd frame when `nimrod pack` compresses this game's
    /// tables: a read decompresses a whole frame, so a game whose tables
    /// are probed at random wants small ones.
    fn packed_frame_size(&self) -> usize {
        crate::table::pack::DEFAULT_FRAME_SIZE
    }
    /// Writes this game's shipping form of `table` to `out` (blocks of
    /// `block` raw bytes compressed by `codec`; `reduced`: the game's
    /// reduced form, which cannot
    /// restore the table) and says what it kept; None when the game has no
    /// shipping form (`nimrod pack` then writes the zstd-seekable form).
    fn ship(
        &self,
        _table: &Table,
        _out: &Path,
        _block: usize,
        _codec: crate::table::shipped::Codec,
        _reduced: bool,
    ) -> Option<Result<String>> {
        None
    }
    /// The raw payload of a shipped table of this game, restored.
    fn restore(&self, shipped: &crate::table::ShippedTable) -> Result<Vec<u8>> {
        anyhow::bail!(
            "{}: a shipped table of {}, which has no shipping form",
            shipped.path().display(),
            shipped.meta().game
        )
    }
}

/// A game's query with typed arguments: a library caller fills the struct,
/// the command line parses it (`nimrod query NAME ARGS…`; the struct's
/// clap derive gives the arguments, help and examples).
///
/// ```
/// use nimrod::games::{nim::{Nim, NimQuery}, Queries, QueryContext};
/// let ctx = QueryContext { data_dir: "data".into() };
/// let q = NimQuery { heaps: vec![3, 4, 5], k: 1, misere: false };
/// let answer = Nim.query(&q, &ctx).unwrap();
/// assert_eq!(answer.json()["safe"], false);
/// ```
pub trait Queries: Game {
    /// The arguments of `nimrod query NAME`.
    #[cfg(feature = "cli")]
    type Query: clap::Parser;
    /// The arguments of `nimrod query NAME`.
    #[cfg(not(feature = "cli"))]
    type Query;
    /// The answer to one query.
    fn query(&self, q: &Self::Query, ctx: &QueryContext) -> Result<Answer, GameError>;
    /// This game's interactive play, if it has one (return `Some(self)`
    /// from a game that implements [`Plays`]).
    fn player(&self) -> Option<&dyn PlayCommand> {
        None
    }
}

/// An interactive game against the stored strategy (`nimrod play NAME`),
/// with typed arguments, on any input and output (so a script can play).
pub trait Plays: Queries {
    /// The arguments of `nimrod play NAME`.
    #[cfg(feature = "cli")]
    type Play: clap::Parser;
    /// The arguments of `nimrod play NAME`.
    #[cfg(not(feature = "cli"))]
    type Play;
    /// Plays one game on `input`/`output`.
    fn play(
        &self,
        p: &Self::Play,
        ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), GameError>;
}

/// A game as the command line sees it: its commands, and its typed query
/// run on clap's parse. Implemented once, for every [`Queries`] game.
pub trait CommandLine: Game {
    /// The arguments, help and examples of `nimrod query NAME` (the CLI
    /// names it and adds `--data` and `--json`).
    #[cfg(feature = "cli")]
    fn query_command(&self) -> clap::Command;
    /// Answers `nimrod query NAME ARGS…`, parsed by `query_command`.
    #[cfg(feature = "cli")]
    fn query_matches(&self, m: &clap::ArgMatches, ctx: &QueryContext)
        -> Result<Answer, QueryError>;
    /// `nimrod play NAME`, if the game can be played.
    fn play_command(&self) -> Option<&dyn PlayCommand>;
}

impl<G: Queries> CommandLine for G {
    #[cfg(feature = "cli")]
    fn query_command(&self) -> clap::Command {
        <G::Query as clap::CommandFactory>::command()
    }

    #[cfg(feature = "cli")]
    fn query_matches(
        &self,
        m: &clap::ArgMatches,
        ctx: &QueryContext,
    ) -> Result<Answer, QueryError> {
        let q: G::Query = typed_args(m)?;
        self.query(&q, ctx).map_err(QueryError::Game)
    }

    fn play_command(&self) -> Option<&dyn PlayCommand> {
        self.player()
    }
}

/// The typed arguments clap parsed; a value the struct cannot hold is a
/// usage error.
#[cfg(feature = "cli")]
fn typed_args<T: clap::FromArgMatches>(m: &clap::ArgMatches) -> Result<T, QueryError> {
    T::from_arg_matches(m).map_err(|e| QueryError::Usage(Usage::from(e)))
}

/// A game's play as the command line sees it (see [`CommandLine`]).
pub trait PlayCommand {
    /// The arguments, help and examples of `nimrod play NAME`.
    #[cfg(feature = "cli")]
    fn command(&self) -> clap::Command;
    /// Plays `nimrod play NAME ARGS…`, parsed by `command`.
    #[cfg(feature = "cli")]
    fn play_matches(
        &self,
        m: &clap::ArgMatches,
        ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), QueryError>;
}

impl<G: Plays> PlayCommand for G {
    #[cfg(feature = "cli")]
    fn command(&self) -> clap::Command {
        <G::Play as clap::CommandFactory>::command()
    }

    #[cfg(feature = "cli")]
    fn play_matches(
        &self,
        m: &clap::ArgMatches,
        ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<(), QueryError> {
        let p: G::Play = typed_args(m)?;
        self.play(&p, ctx, input, output).map_err(QueryError::Game)
    }
}

/// How much of a table `nimrod verify` re-derives.
#[derive(Clone, Copy, Debug)]
pub struct VerifyDepth {
    /// Every entry.
    pub all: bool,
    /// Otherwise a seeded sample of this many entries.
    pub sample: u64,
    /// Seed of the sample.
    pub seed: u64,
}

/// What a deep verification checked, as text and JSON.
pub struct VerifyNote {
    /// One line for people.
    pub text: String,
    /// The same as JSON.
    pub json: serde_json::Value,
}

/// Asks `game` what `nimrod query GAME ARGS…` would, from a program that has
/// the arguments as strings (with the typed struct, call
/// [`Queries::query`] instead): they are parsed by
/// the game's own command.
#[cfg(feature = "cli")]
pub fn ask(
    game: &dyn CommandLine,
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
