//! Nothing: this crate exists for its test, `tests/new_game.rs`.
