//! Any text given to the material parser must give a signature or an
//! error, never a panic; a parsed signature's name parses to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/parsers.rs"]
mod parsers;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        parsers::material(text);
    }
});
