//! Arbitrary query arguments (split on whitespace) for every game must give an
//! answer or an error, never a panic. Queries run against an empty data
//! directory, so table lookups fail cleanly; the formula games answer. Each
//! parser also has its own target (fen, octal_code, material,
//! klondike_rules, config).
#![no_main]
use libfuzzer_sys::fuzz_target;
use nimrod::games::{self, QueryContext};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let args: Vec<String> = text.split_whitespace().map(String::from).collect();
    let ctx = QueryContext { data_dir: std::env::temp_dir().join("nimrod-fuzz-empty") };
    for g in games::registry() {
        let _ = games::ask(*g, &args, &ctx);
    }
});
