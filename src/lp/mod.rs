//! Linear programming shared by the games that need mixed strategies. Knows
//! no game.

pub mod certificate;
pub mod exact;
pub mod matrix_game;

pub use certificate::{Certificate, CertificateError, GAP_TOLERANCE};
pub use matrix_game::{MatrixGame, Method, Solution, Workspace, MAX_DIM};
