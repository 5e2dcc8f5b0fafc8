//! Any text given to the octal code parser must give a code or an error,
//! never a panic; a parsed code's canonical spelling parses to the same code.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/parsers.rs"]
mod parsers;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        parsers::octal_code(text);
    }
});
