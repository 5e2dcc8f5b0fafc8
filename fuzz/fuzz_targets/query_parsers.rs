//! Arbitrary query arguments (split on whitespace) for every game must give an
//! answer or an error, never a panic. Queries run against an empty data
//! directory, so table lookups fail cleanly; the formula games answer.
#![no_main]
use libfuzzer_sys::fuzz_target;
use nimrod::games::{self, QueryContext};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let args: Vec<String> = text.split_whitespace().map(String::from).collect();
    let ctx = QueryContext { data_dir: std::env::temp_dir().join("nimrod-fuzz-empty") };
    for g in games::registry() {
        let _ = games::query::ask(*g, &args, &ctx);
    }
    let _ = nimrod::games::octal::code::OctalCode::parse(text);
    let _ = nimrod::games::chess::board::Board::from_fen_with_en_passant(text);
    let _ = nimrod::games::chess::material::Material::parse(text);
    let _ = nimrod::games::klondike::parse_rules(text);
    let _ = nimrod::pipeline::Config::parse("fuzz.toml", text).map(|c| nimrod::pipeline::plan(&c, &games::planners()));
});
