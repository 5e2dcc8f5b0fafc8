//! Any text given to the Klondike rule-set parser must give rules or an
//! error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/common/parsers.rs"]
mod parsers;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        parsers::klondike_rules(text);
    }
});
