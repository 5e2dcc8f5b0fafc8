//! Why a game did not answer, typed at the game boundary: a caller (the
//! command line, the server, a program) branches on the kind, not on the
//! message. Job and query bodies keep `anyhow` inside; the kind is read
//! from the error chain when a body's error crosses the boundary.

use crate::table::TableError;

/// What kind of failure a [`GameError`] is; each has its own exit code and
/// JSON `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input names no valid position, heap, deal or parameter.
    Input,
    /// A table the answer needs is not in the data directory.
    TableMissing,
    /// A table is there but damaged, of another format, or not the one
    /// asked for.
    TableDamaged,
    /// Anything else: the game could not answer (an I/O error, a search
    /// that ran out of budget, input that ended early).
    Failed,
}

impl ErrorKind {
    /// The command line's exit code (2 is clap's usage error, 1 the
    /// generic failure).
    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::Failed => 1,
            ErrorKind::Input => 3,
            ErrorKind::TableMissing => 4,
            ErrorKind::TableDamaged => 5,
        }
    }

    /// The JSON `kind` (`input`, `table_missing`, `table_damaged`, `failed`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Input => "input",
            ErrorKind::TableMissing => "table_missing",
            ErrorKind::TableDamaged => "table_damaged",
            ErrorKind::Failed => "failed",
        }
    }
}

/// A game's failure: its [`ErrorKind`], the error with its context, and a
/// hint of what to do (added where the registry is known: the command that
/// builds a missing table).
#[derive(Debug)]
pub struct GameError {
    kind: ErrorKind,
    error: anyhow::Error,
    hint: Option<String>,
}

impl GameError {
    /// Bad input, whatever the error says.
    pub fn input(error: impl Into<anyhow::Error>) -> GameError {
        GameError {
            kind: ErrorKind::Input,
            error: error.into(),
            hint: None,
        }
    }

    /// What kind of failure it is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The first `T` in the error's chain, looking inside a `GameError`
    /// that a body passed on through `anyhow` (its chain ends at it).
    fn find<T: std::error::Error + 'static>(&self) -> Option<&T> {
        self.error.chain().find_map(|c| {
            c.downcast_ref::<T>()
                .or_else(|| c.downcast_ref::<GameError>().and_then(|g| g.find::<T>()))
        })
    }

    /// The tables any of which would have answered, when none was there.
    pub fn no_table_for(&self) -> Option<&NoTableFor> {
        self.find::<NoTableFor>()
    }

    /// The table error behind a missing or damaged table (its path, the job
    /// id of a missing one).
    pub fn table_error(&self) -> Option<&TableError> {
        self.find::<TableError>()
    }

    /// The error itself, with its context.
    pub fn error(&self) -> &anyhow::Error {
        &self.error
    }

    /// What to do about it, if known (its own, or that of a `GameError`
    /// inside it, which its message already carries).
    pub fn hint(&self) -> Option<&str> {
        self.hint
            .as_deref()
            .or_else(|| self.find::<GameError>().and_then(|g| g.hint()))
    }

    /// The same error with `hint` appended to its message.
    pub fn with_hint(mut self, hint: String) -> GameError {
        self.hint = Some(hint);
        self
    }
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.error)?;
        if let Some(h) = &self.hint {
            write!(f, "; {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for GameError {}

/// Reads the kind from the chain: a `GameError` passed on keeps its kind
/// (its hint stays in its message, not copied: `hint()` finds it); an
/// [`InputError`] anywhere is bad input; else the first [`TableError`]
/// decides (missing, damaged, or a request the table cannot answer, which
/// is input); else it failed.
impl From<anyhow::Error> for GameError {
    fn from(error: anyhow::Error) -> GameError {
        if let Some(kind) = error.downcast_ref::<GameError>().map(|g| g.kind) {
            return GameError {
                kind,
                error,
                hint: None,
            };
        }
        let kind = if error.chain().any(|c| c.is::<InputError>()) {
            ErrorKind::Input
        } else if error.chain().any(|c| c.is::<NoTableFor>()) {
            ErrorKind::TableMissing
        } else {
            match error.chain().find_map(|c| c.downcast_ref::<TableError>()) {
                Some(TableError::Missing { .. }) => ErrorKind::TableMissing,
                Some(
                    TableError::Corrupt { .. }
                    | TableError::Truncated { .. }
                    | TableError::Identity { .. }
                    | TableError::Version { .. }
                    | TableError::Foreign { .. },
                ) => ErrorKind::TableDamaged,
                Some(TableError::Request { .. }) => ErrorKind::Input,
                _ => ErrorKind::Failed,
            }
        };
        GameError {
            kind,
            error,
            hint: None,
        }
    }
}

impl From<TableError> for GameError {
    fn from(e: TableError) -> GameError {
        anyhow::Error::from(e).into()
    }
}

/// Marks an error inside a query body as bad input (a position that cannot
/// occur, a heap past the table): see [`bad_input`].
#[derive(Debug)]
pub struct InputError(anyhow::Error);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for InputError {}

/// `error`, marked as bad input for the boundary ([`GameError`]'s kind is
/// then `Input`), for bodies that return `anyhow::Result`.
pub fn bad_input(error: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(InputError(error.into()))
}

/// Bails out of a body with bad input, formatted as `anyhow!` would.
#[macro_export]
macro_rules! bail_input {
    ($($arg:tt)*) => {
        return Err($crate::games::error::bad_input(anyhow::anyhow!($($arg)*)).into())
    };
}

/// No table in the data directory answers, though any of `ids` would
/// (the smallest first): the registry's hint builds the first a shipped
/// config plans, else says `otherwise`.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct NoTableFor {
    /// What was asked, and where the tables were looked for.
    pub message: String,
    /// The job ids that would answer, in the order to prefer them.
    pub ids: Vec<String>,
    /// The data directory searched.
    pub data_dir: std::path::PathBuf,
    /// What to do when no shipped config builds any of them.
    pub otherwise: String,
}

/// `ensure!` for bad input: bails out with [`bad_input`] unless `cond`.
#[macro_export]
macro_rules! ensure_input {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            $crate::bail_input!($($arg)*);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `GameError` a body passed on through `anyhow` keeps its kind, its
    /// table error and its hint, and says the hint once.
    #[test]
    fn a_game_error_passed_on_keeps_its_kind_and_says_its_hint_once() {
        let missing = TableError::Missing {
            id: "grundy/values".into(),
            data_dir: "d".into(),
            raw: "d/grundy/values.nmt".into(),
        };
        let inner = GameError::from(missing).with_hint("build it".into());
        assert_eq!(inner.kind(), ErrorKind::TableMissing);
        let outer = GameError::from(anyhow::Error::from(inner).context("the position needs it"));
        assert_eq!(outer.kind(), ErrorKind::TableMissing);
        assert_eq!(outer.hint(), Some("build it"));
        assert!(matches!(
            outer.table_error(),
            Some(TableError::Missing { .. })
        ));
        let text = outer.to_string();
        assert_eq!(text.matches("build it").count(), 1, "{text}");
        assert!(
            text.starts_with("the position needs it: table grundy/values"),
            "{text}"
        );
    }
}
