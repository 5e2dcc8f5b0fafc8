//! Linear programming shared by the games that need mixed strategies. Knows
//! no game.

pub mod matrix_game;

pub use matrix_game::{MatrixGame, Method, Solution, Workspace, MAX_DIM};
