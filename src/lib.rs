//! nimrod: exact solutions of classic games, precomputed into perfect-hashed,
//! memory-mapped table files, and the library that reads them.
//!
//! Open a table with [`table::Table::open`] (raw or packed), read entries with
//! `get`/`read_range`/`entries`, look up sparse keys with `get_by_key`.

// Every unsafe block lives in the table crate (the memory maps).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod games;
pub mod lp;
pub mod pipeline;
pub mod rng;
pub mod search;
/// The table file layer, its own crate (`nimrod-table`) so that a program
/// that only reads tables needs none of the solvers or the CLI.
pub use nimrod_table as table;

pub use table::Table;
