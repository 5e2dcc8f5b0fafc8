//! One module per game. Each owns its rules, indexing, solver and query; this
//! file only knows the traits a game implements and the registry (one line
//! per game).
//!
//! Every game's query is a struct literal away. Build a small config's
//! tables (a fraction of a second), then ask each game:
//!
//! ```
//! use nimrod::games::*;
//! use nimrod::pipeline::{run_build, BuildOptions, Config};
//!
//! let data = tempfile::tempdir()?;
//! let config = Config::parse("example", r#"
//!     [octal]
//!     games = ["0.77"]
//!     bound = 100
//!     [half]
//!     bound = 100
//!     [gops]
//!     cards = 3
//!     win_cards = 1
//!     [ttt]
//!     all_boards_up_to = 3
//!     menace_runs = 1
//!     menace_games = 10
//!     [guessit]
//!     max_hand = 2
//!     [bridgit]
//!     sizes = [3]
//!     exhaustive_up_to = 3
//!     trees_exhaustive_up_to = 3
//!     random_games = 10
//!     [chess]
//!     pieces = [3]
//!     [grundy]
//!     bound = 100
//!     misere_bound = 10
//! "#)?;
//! let options = BuildOptions {
//!     data_dir: data.path().to_path_buf(),
//!     only: vec![],
//!     force: false,
//!     force_dependencies: false,
//!     threads: Some(1),
//!     shard: None,
//! };
//! assert!(run_build(&config, &planners(), &options)?.ok());
//! let ctx = QueryContext { data_dir: data.path().to_path_buf() };
//!
//! // Kayles (0.77): G(4) = 1.
//! let q = octal::OctalQuery { code: "0.77".into(), heap: 4 };
//! assert_eq!(octal::Octal.query(&q, &ctx)?.json()["value"], 1);
//!
//! let q = grundy::GrundyQuery { heap: 5, misere: false, all: false, lecture: false };
//! assert_eq!(grundy::Grundy.query(&q, &ctx)?.json()["value"], 2);
//!
//! let q = half::HalfQuery { pile: 10, last_loses: false };
//! assert_eq!(half::Half.query(&q, &ctx)?.json()["safe"], false);
//!
//! let q = nim::NimQuery { heaps: vec![1, 2, 3], k: 1, misere: false };
//! assert_eq!(nim::Nim.query(&q, &ctx)?.json()["safe"], true);
//!
//! // GOPS with 3 cards is symmetric: value 0.
//! let q = gops::GopsQuery {
//!     cards: 3,
//!     first_move: true,
//!     mine: vec![],
//!     theirs: vec![],
//!     prizes: vec![],
//!     upcard: None,
//!     objective: gops::Objective::Score,
//!     diff: 0,
//!     against: None,
//! };
//! assert_eq!(gops::Gops.query(&q, &ctx)?.json()["value"], 0.0);
//!
//! // Noughts and crosses is a draw.
//! let q = ttt::TttQuery {
//!     board: Some(".........".into()),
//!     size: "3x3".into(),
//!     k: None,
//!     first: vec![],
//!     second: vec![],
//!     fifteen: false,
//!     report: false,
//!     defensive: false,
//!     trials: 0,
//!     seed: 0,
//! };
//! assert_eq!(ttt::Ttt.query(&q, &ctx)?.json()["value"], 0);
//!
//! let q = guessit::GuessItQuery {
//!     mine: Some(1),
//!     theirs: Some(1),
//!     tables: None,
//!     compare: None,
//! };
//! println!("{}", guessit::GuessIt.query(&q, &ctx)?.text());
//!
//! // The first player's opening under the stored pairing.
//! let q = bridgit::BridgitQuery {
//!     size: 3,
//!     moves: String::new(),
//!     strategy: bridgit::StrategyKind::Pairing,
//!     table: false,
//! };
//! assert!(bridgit::Bridgit.query(&q, &ctx)?.json()["opening"].is_string());
//!
//! // King and queen against king: a win for the queen's side.
//! let q = chess::ChessQuery {
//!     fen: Some("8/8/8/8/8/2k5/8/KQ6 w - - 0 1".into()),
//!     fens: None,
//!     stats: None,
//!     sample: None,
//!     table: None,
//!     seed: 1,
//!     search: false,
//!     nodes: 5_000_000,
//!     depth: 64,
//! };
//! assert_eq!(chess::Chess.query(&q, &ctx)?.json()["wdl"], 1);
//!
//! // Klondike deals are solved on the spot when no table holds them.
//! let q = klondike::KlondikeQuery {
//!     deal: Some(klondike::cards::DealId::Ours(0)),
//!     draw: 1,
//!     redeal: "unlimited".into(),
//!     no_worry: false,
//!     variant: 0,
//!     samples: 64,
//!     budget: 20_000,
//!     report: false,
//! };
//! println!("{}", klondike::Klondike.query(&q, &ctx)?.text());
//! # Ok::<(), anyhow::Error>(())
//! ```

pub mod bridgit;
pub mod chess;
pub mod gops;
pub mod grundy;
pub mod guessit;
pub mod half;
pub mod klondike;
pub mod knight;
pub mod nim;
pub mod octal;
pub mod query;
pub mod ttt;

use crate::pipeline::Planner;
use crate::table::Table;
use anyhow::Result;
pub use query::{Answer, QueryContext, QueryError, TableUnavailable, Usage};
use std::path::Path;

/// A game: its planner (`Planner::name` is the name used in configs
/// (`[grundy]`), job ids and `nimrod query NAME`; `Planner::plan` expands its
/// config section into jobs) and its verification. What it answers is
/// [`Queries`], what it plays [`Plays`]; the command line reaches both
/// through [`CommandLine`], the one place clap meets a game.
pub trait Game: Planner + Sync {
    /// One line for `nimrod query list`.
    fn summary(&self) -> &'static str;
    /// Game-specific invariants checked by `nimrod verify` (beyond checksums).
    fn verify(&self, _table: &Table) -> Result<()> {
        Ok(())
    }
    /// `verify` plus re-deriving stored values where a game can (GOPS
    /// re-solves matrix games): a one-line report and its JSON, if any.
    fn verify_deep(&self, table: &Table, _depth: &VerifyDepth) -> Result<Option<VerifyNote>> {
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
    /// `block` raw bytes) and says what it kept; None when the game has no
    /// shipping form (`nimrod pack` then writes the zstd-seekable form).
    fn ship(&self, _table: &Table, _out: &Path, _block: usize) -> Option<Result<String>> {
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
    fn query(&self, q: &Self::Query, ctx: &QueryContext) -> Result<Answer>;
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
    ) -> Result<()>;
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
        self.query(&q, ctx).map_err(QueryError::Failed)
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
        self.play(&p, ctx, input, output)
            .map_err(QueryError::Failed)
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

static REGISTRY: &[&dyn CommandLine] = &[
    &grundy::Grundy,
    &gops::Gops,
    &octal::Octal,
    &nim::Nim,
    &half::Half,
    &ttt::Ttt,
    &guessit::GuessIt,
    &bridgit::Bridgit,
    &chess::Chess,
    &klondike::Klondike,
    &knight::Knight,
];

/// Every game, in the order `nimrod query list` shows them.
pub fn registry() -> &'static [&'static dyn CommandLine] {
    REGISTRY
}

/// The game called `name` (`grundy`, `chess`, …).
pub fn find(name: &str) -> Option<&'static dyn CommandLine> {
    REGISTRY.iter().copied().find(|g| g.name() == name)
}

/// Every game as the pipeline's planner, for `run_build`.
pub fn planners() -> Vec<&'static dyn Planner> {
    REGISTRY.iter().map(|&g| g as &dyn Planner).collect()
}

/// Every game's name.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|g| g.name()).collect()
}
