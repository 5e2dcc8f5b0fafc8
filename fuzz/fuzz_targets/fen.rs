//! Any text given to the FEN parsers (the tables' `Board` and the full-rules
//! `Game`) must give a position or an error, never a panic; a position
//! parsed must print back to a FEN that parses to the same position.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/parsers.rs"]
mod parsers;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        parsers::fen(text);
    }
});
