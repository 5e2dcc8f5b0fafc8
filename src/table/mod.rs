//! The table file: one format for every game (header, metadata, optional
//! perfect-hash index, fixed-width payload), its writer, its readers (raw
//! mmap or zstd-seekable packed) and the index schemes.

pub mod error;
pub mod format;
pub mod mph;
pub mod pack;
pub mod rank;
pub mod reader;
pub mod source;
pub mod writer;

pub use error::TableError;
pub use format::{EntryKind, Header, IndexKind, JobStamp, TableMeta, FORMAT_VERSION};
pub use mph::PerfectHash;
pub use reader::Table;
pub use writer::TableWriter;
