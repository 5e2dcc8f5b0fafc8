//! The parsers' promise, shared by the fuzz targets (`fuzz/fuzz_targets/`,
//! which include this file) and the stable mutation test
//! (`tests/mutation.rs`): any text gives a value or an error, never a
//! panic, and what parses prints back to text that parses to the same value.

#![allow(dead_code)]

use nimrod::games::chess::{board::Board, full, material::Material};
use nimrod::games::octal::code::OctalCode;

pub fn fen(text: &str) {
    if let Ok((b, _)) = Board::from_fen_with_en_passant(text) {
        let again = Board::from_fen(&b.fen()).expect("a printed FEN parses");
        assert_eq!(again.fen(), b.fen(), "FEN {text:?}");
    }
    let _ = full::FullPosition::from_fen(text);
}

pub fn octal_code(text: &str) {
    if let Ok(c) = OctalCode::parse(text) {
        let again = OctalCode::parse(&c.canonical()).expect("a canonical code parses");
        assert_eq!(again, c, "octal code {text:?}");
    }
}

pub fn material(text: &str) {
    if let Ok(m) = Material::parse(text) {
        let again = Material::parse(&m.name()).expect("a material name parses");
        assert_eq!(again, m, "material {text:?}");
    }
}

pub fn klondike_rules(text: &str) {
    if let Ok(r) = nimrod::games::klondike::parse_rules(text) {
        assert!(r.draw == 1 || r.draw == 3, "rules {text:?}");
    }
}

pub fn config(text: &str) {
    if let Ok(c) = nimrod::pipeline::Config::parse("fuzz.toml", text) {
        let _ = nimrod::pipeline::plan(&c, &nimrod::games::planners());
    }
}
