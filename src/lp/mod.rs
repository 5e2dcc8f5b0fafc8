//! Linear programming shared by the games that need mixed strategies. Knows
//! no game.

internal_mod!(certificate);
pub mod exact;
internal_mod!(matrix_game);

pub use certificate::{Certificate, CertificateError, GAP_TOLERANCE};
pub use matrix_game::{MatrixGame, Method, Solution, Workspace, MAX_DIM};
