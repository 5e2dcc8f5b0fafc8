//! Any text given as a config must parse and plan, or fail with an error,
//! never panic (planning only: nothing is built).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/parsers.rs"]
mod parsers;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        parsers::config(text);
    }
});
