//! nimrod: exact solutions of classic games, precomputed into perfect-hashed,
//! memory-mapped table files, and the library that reads them.
//!
//! Open a table with [`table::Table::open`] (raw or packed), read entries with
//! `get`/`read_range`/`entries`, look up sparse keys with `get_by_key`.

#[cfg(target_endian = "big")]
compile_error!(
    "nimrod's table files are little-endian and read zero-copy; big-endian hosts are not supported"
);

pub mod games;
pub mod lp;
pub mod pipeline;
pub mod rng;
pub mod search;
pub mod table;

pub use table::Table;
