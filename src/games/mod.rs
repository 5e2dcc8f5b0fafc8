//! One module per game. Each owns its rules, indexing, solver and query; this
//! file only knows the `Game` trait and the registry (one line per game).

pub mod bridgit;
pub mod chess;
pub mod gops;
pub mod grundy;
pub mod guessit;
pub mod half;
pub mod klondike;
pub mod nim;
pub mod octal;
pub mod query;
pub mod ttt;

use crate::pipeline::Planner;
use crate::table::Table;
use anyhow::Result;
pub use query::{Answer, QueryContext};

/// A game: its planner (`Planner::name` is the name used in configs
/// (`[grundy]`), job ids and `nimrod query NAME`; `Planner::plan` expands its
/// config section into jobs), its query, play and verification.
pub trait Game: Planner {
    /// One line for `nimrod query list`.
    fn summary(&self) -> &'static str;
    /// The arguments, help and examples of `nimrod query NAME` (the CLI
    /// names it and adds `--data` and `--json`).
    fn query_command(&self) -> clap::Command;
    /// Answers `nimrod query NAME ARGS…`, parsed by `query_command`.
    fn query(&self, args: &clap::ArgMatches, ctx: &QueryContext) -> Result<Answer>;
    /// The arguments of `nimrod play NAME`, if the game can be played.
    fn play_command(&self) -> Option<clap::Command> {
        None
    }
    /// `nimrod play NAME ARGS…` (parsed by `play_command`): an interactive
    /// game on `input`/`output` against the stored strategy.
    fn play(
        &self,
        _args: &clap::ArgMatches,
        _ctx: &QueryContext,
        _input: &mut dyn std::io::BufRead,
        _output: &mut dyn std::io::Write,
    ) -> Result<()> {
        anyhow::bail!("{} has no interactive play", self.name())
    }
    /// Game-specific invariants checked by `nimrod verify` (beyond checksums).
    fn verify(&self, _table: &Table) -> Result<()> {
        Ok(())
    }
    /// `verify` plus re-deriving stored values where a game can (GOPS
    /// re-solves matrix games): a one-line report and its JSON, if any.
    fn verify_deep(&self, table: &Table, _depth: &VerifyDepth) -> Result<Option<VerifyNote>> {
        self.verify(table).map(|_| None)
    }
}

/// How much of a table `nimrod verify` re-derives.
#[derive(Clone, Copy, Debug)]
pub struct VerifyDepth {
    /// Every entry.
    pub all: bool,
    /// Otherwise a seeded sample of this many entries.
    pub sample: u64,
    pub seed: u64,
}

/// What a deep verification checked, as text and JSON.
pub struct VerifyNote {
    pub text: String,
    pub json: serde_json::Value,
}

static REGISTRY: &[&dyn Game] = &[
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
];

pub fn registry() -> &'static [&'static dyn Game] {
    REGISTRY
}

pub fn find(name: &str) -> Option<&'static dyn Game> {
    REGISTRY.iter().copied().find(|g| g.name() == name)
}

/// Every game as the pipeline's planner, for `run_build`.
pub fn planners() -> Vec<&'static dyn Planner> {
    REGISTRY.iter().map(|&g| g as &dyn Planner).collect()
}

pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|g| g.name()).collect()
}
