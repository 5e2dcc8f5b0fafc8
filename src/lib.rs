//! nimrod: exact solutions of classic games, precomputed into perfect-hashed,
//! memory-mapped table files, and the library that reads them.
//!
//! The surface, by task:
//! - build tables from a config: [`pipeline::Config`], [`pipeline::run_build`]
//!   with [`games::planners`];
//! - ask a game: each game's registry struct implements [`games::Queries`]
//!   with a typed argument struct (`games::grundy::GrundyQuery`, …), and
//!   `games::query::ask` takes the command line's strings (with the `cli`
//!   feature, on by default; without it the library does not need clap);
//! - read a table: [`Table::open`] (raw or packed), then
//!   `get`/`read_range`/`entries`, or `get_by_key` for sparse keys; a
//!   program that only reads tables can depend on the `nimrod-table` crate
//!   alone;
//! - the solvers themselves: [`lp`] (matrix games with certificates),
//!   [`search`] (game-tree search), and each game's entry points
//!   re-exported from its module ([`games::klondike::solve`],
//!   [`games::ttt::solve`], [`games::gops::solve_all`],
//!   [`games::octal::values`], [`games::nim::winning_moves`], …). The other
//!   modules are internal (`pub(crate)`; see ARCHITECTURE.md).
//!
//! Build the values of Grundy's game to heap 1,000 from a config written in
//! code, open the table and ask a question:
//!
//! ```
//! use nimrod::games::grundy::{Grundy, GrundyQuery};
//! use nimrod::games::{Queries, QueryContext};
//! use nimrod::pipeline::{run_build, BuildOptions, Config};
//!
//! let data = tempfile::tempdir()?;
//! let config = Config::parse("example", "[grundy]\nbound = 1000\nmisere_bound = 20\n")?;
//! let options = BuildOptions {
//!     data_dir: data.path().to_path_buf(),
//!     only: vec![],
//!     force: false,
//!     force_dependencies: false,
//!     threads: Some(1),
//!     shard: None,
//!     memory_budget: None,
//! };
//! let report = run_build(&config, &nimrod::games::planners(), &options)?;
//! assert!(report.ok());
//!
//! // The table itself: one u16 Sprague-Grundy value per heap.
//! let table = nimrod::Table::open(&data.path().join("grundy/values.nmt"))?;
//! assert_eq!(table.get::<u16>(5)?, 2);
//!
//! // The game's query, typed.
//! let ctx = QueryContext { data_dir: data.path().to_path_buf() };
//! let q = GrundyQuery { heap: 5, misere: false, all: false, lecture: false };
//! let answer = Grundy.query(&q, &ctx)?;
//! assert_eq!(answer.json()["value"], 2);
//! println!("{}", answer.text());
//! # Ok::<(), anyhow::Error>(())
//! ```
// Every unsafe block lives in the table crate (the memory maps).
#![deny(unsafe_code)]
#![warn(missing_docs)]

/// Declares a module outside the library's surface: `pub(crate)`, or `pub`
/// with the `internals` feature, which only the crate's own integration
/// tests, benches and fuzz targets enable (to check fast paths against slow
/// ones from outside). What a game offers a library user is re-exported
/// from the game's module.
macro_rules! internal_mod {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        #[cfg(feature = "internals")]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
    };
}

/// Declares a module that only tests, benches and fuzz targets use (a slow
/// obvious solver a fast path is checked against): `pub` with the
/// `internals` feature, compiled into the crate's own unit tests, and
/// absent from every other build.
macro_rules! oracle_mod {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        #[cfg(feature = "internals")]
        pub mod $name;
        $(#[$attr])*
        #[cfg(all(test, not(feature = "internals")))]
        pub(crate) mod $name;
    };
}

pub mod games;
pub mod lp;
pub mod pipeline;
internal_mod!(
    /// The frame of the reports' charts.
    chart
);
internal_mod!(rng);
pub mod search;
internal_mod!(
    /// Rates with intervals and paired tests, shared by the games' reports.
    stats
);
/// The table file layer, its own crate (`nimrod-table`) so that a program
/// that only reads tables needs none of the solvers or the CLI.
pub use nimrod_table as table;

pub use table::Table;
