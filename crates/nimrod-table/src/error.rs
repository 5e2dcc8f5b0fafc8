use std::path::PathBuf;

/// Every way a table file can be unusable. Each variant names the file so
/// that a command-line user sees which file is at fault.
///
/// `Corrupt` and `Truncated` always mean the file is damaged; a caller's
/// mistake (a wrong entry type, a slot past the end, a key lookup on a
/// ranked table) is `Request`, so a program can tell the two apart.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The OS error is part of the message, not a chained source, so that
    /// a chain printed with `{:#}` says it once.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        error: std::io::Error,
    },
    /// The path exists but is a directory or another non-file.
    #[error("{path} is {what}, not a table file")]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead ("a directory", …).
        what: &'static str,
    },
    /// The file does not start with a table's or a packed table's magic.
    #[error("{path}: not a nimrod table (bad magic; expected NIMRODTB or a packed .zst table)")]
    Foreign {
        /// The file.
        path: PathBuf,
    },
    /// A shipped table opened as a plain one.
    #[error("{path}: a shipped table (the shipping form `nimrod pack` writes for some games): its game restores its values; read it through that game's queries, or restore the raw table with `nimrod unpack`")]
    Shipped {
        /// The file.
        path: PathBuf,
    },
    /// A format version this build does not read.
    #[error("{path}: unsupported format version {found} (this build reads version {expected})")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// The file ends before its sections do.
    #[error("{path}: truncated: {what}")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Which part is missing.
        what: String,
    },
    /// A checksum or a structural check failed: the bytes are damaged.
    #[error("{path}: corrupt: {what}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Which check failed.
        what: String,
    },
    /// The file is a sound table, but not the one asked for.
    #[error("{what}")]
    Identity {
        /// The file.
        path: PathBuf,
        /// Whose table it is instead, or what does not match.
        what: String,
    },
    /// No table of the job under the data directory, raw or packed.
    #[error("table {id} not found in {} (neither {} nor its .zst)", data_dir.display(), raw.display())]
    Missing {
        /// The job id.
        id: String,
        /// Where it was looked for.
        data_dir: PathBuf,
        /// The raw path tried (the packed one adds `.zst`).
        raw: PathBuf,
    },
    /// The caller asked for something the table does not hold; the file is
    /// fine.
    #[error("{path}: {what}")]
    Request {
        /// The file.
        path: PathBuf,
        /// What was asked and why it cannot be answered.
        what: String,
    },
}

impl TableError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        TableError::Io {
            path: path.into(),
            error,
        }
    }
    /// Damage found in `path`.
    pub fn corrupt(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        TableError::Corrupt {
            path: path.into(),
            what: what.into(),
        }
    }
    /// `path` ends too early.
    pub fn truncated(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        TableError::Truncated {
            path: path.into(),
            what: what.into(),
        }
    }
    /// A caller's request `path` cannot answer.
    pub fn request(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        TableError::Request {
            path: path.into(),
            what: what.into(),
        }
    }
}
