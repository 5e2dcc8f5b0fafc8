//! The table file: one format for every game (header, metadata, optional
//! perfect-hash index, fixed-width payload), its writer, its readers (raw
//! mmap or zstd-seekable packed) and the index schemes.

#![warn(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

#[cfg(target_endian = "big")]
compile_error!(
    "nimrod's table files are little-endian and read zero-copy; big-endian hosts are not supported"
);

/// [`TableError`]: every way a table file can be unusable.
pub mod error;
/// The on-disk layout: header, sections, metadata.
pub mod format;
/// A table's identity: its path, parameter hash and the checked open.
pub mod job;
/// The minimal perfect hash for sparse key sets.
pub mod mph;
/// The zstd-seekable packed form and atomic writes.
pub mod pack;
/// Closed-form rankings shared by games.
pub mod rank;
/// [`Table`]: opening, checking and reading a table.
pub mod reader;
/// Bytes shared between threads while a table is computed.
pub mod shared;
/// The shipping form: part of a payload stored, the rest restored by
/// its game.
pub mod shipped;
/// Where a table's bytes come from (memory, a map, a packed file).
pub mod source;
/// [`TableWriter`] and [`writer::write_ranked`]: writing a table atomically.
pub mod writer;

pub use error::TableError;
pub use format::{EntryKind, Header, IndexKind, JobStamp, TableMeta, FORMAT_VERSION};
pub use job::{
    check_identity, check_identity_of, open_job_table, open_job_table_unpacked, param_hash,
    table_path,
};
pub use mph::PerfectHash;
pub use reader::Table;
pub use shipped::ShippedTable;
pub use writer::TableWriter;
