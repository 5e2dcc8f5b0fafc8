use std::path::PathBuf;

/// Every way a table file can be unusable. Each variant names the file so
/// that a command-line user sees which file is at fault.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The OS error is part of the message, not a chained source, so that
    /// a chain printed with `{:#}` says it once.
    #[error("{path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path} is {what}, not a table file")]
    NotAFile { path: PathBuf, what: &'static str },
    #[error("{path}: not a nimrod table (bad magic; expected NIMRODTB or a packed .zst table)")]
    Foreign { path: PathBuf },
    #[error("{path}: unsupported format version {found} (this build reads version {expected})")]
    Version {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    #[error("{path}: truncated: {what}")]
    Truncated { path: PathBuf, what: String },
    #[error("{path}: corrupt: {what}")]
    Corrupt { path: PathBuf, what: String },
}

impl TableError {
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        TableError::Io {
            path: path.into(),
            error,
        }
    }
    pub fn corrupt(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        TableError::Corrupt {
            path: path.into(),
            what: what.into(),
        }
    }
    pub fn truncated(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        TableError::Truncated {
            path: path.into(),
            what: what.into(),
        }
    }
}
