//! The fuzz targets' promise, checked on stable Rust with seeded mutations
//! (cargo-fuzz needs a nightly toolchain): damaged table files, raw or
//! packed, and arbitrary query arguments give a value or an error, never a
//! panic.

use nimrod::games::{self, QueryContext};
use nimrod::rng::SplitMix64;
use nimrod::table::pack::{pack_bytes, DEFAULT_LEVEL};
use nimrod::table::writer::{write_hashed, write_ranked};
use nimrod::table::{Table, TableMeta};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

fn meta() -> TableMeta {
    TableMeta {
        game: "fuzz".into(),
        table: "t".into(),
        params: serde_json::json!({"n": 1}),
        index: "test".into(),
        entry: "u16".into(),
        tool_version: "test".into(),
        stats: serde_json::json!({"a": [1, 2, 3]}),
        job: None,
    }
}

/// A ranked and a perfect-hashed table, each raw and packed.
fn originals() -> Vec<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let ranked = dir.path().join("ranked.nmt");
    let values: Vec<u16> = (0..3000u16).map(|i| i.wrapping_mul(7919)).collect();
    write_ranked(&ranked, &values, &meta(), 1).unwrap();
    let hashed = dir.path().join("hashed.nmt");
    let keys: Vec<u64> = (0..500u64).map(|i| i * i * 31 + 7).collect();
    let vals: Vec<u16> = (0..500u16).collect();
    write_hashed(&hashed, &keys, &vals, &meta(), 2).unwrap();
    let mut out = Vec::new();
    for p in [ranked, hashed] {
        let raw = std::fs::read(&p).unwrap();
        out.push(pack_bytes(&raw, DEFAULT_LEVEL, 4096).unwrap());
        out.push(raw);
    }
    out
}

fn mutate(rng: &mut SplitMix64, bytes: &mut Vec<u8>) {
    for _ in 0..=rng.below(4) {
        match rng.below(5) {
            0 | 1 => {
                let i = rng.below(bytes.len() as u64) as usize;
                bytes[i] ^= 1 << rng.below(8);
            }
            2 => {
                let i = rng.below(bytes.len() as u64) as usize;
                bytes[i] = rng.next_u64() as u8;
            }
            3 => {
                let keep = rng.below(bytes.len() as u64 + 1) as usize;
                bytes.truncate(keep.max(1));
            }
            _ => {
                // Overwrite a header field with an extreme value.
                let at = (rng.below(16) * 8) as usize;
                let v = [0u64, u64::MAX, 1 << 40, rng.next_u64()][rng.below(4) as usize];
                if at + 8 <= bytes.len() {
                    bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
}

fn exercise(bytes: Vec<u8>) {
    let Ok(t) = Table::from_bytes(Path::new("mutated.nmt"), bytes) else {
        return;
    };
    let _ = t.verify();
    let n = t.len();
    for slot in [0, 1, n / 2, n.saturating_sub(1), n, u64::MAX] {
        let _ = t.get::<u8>(slot);
        let _ = t.get::<u16>(slot);
        let _ = t.get::<u32>(slot);
        let _ = t.key_at(slot);
        let _ = t.read_range::<u16>(slot, 3);
    }
    for key in [0, 7, 38, 7751, u64::MAX] {
        let _ = t.slot_of_key(key);
        let _ = t.get_by_key::<u16>(key);
    }
}

#[test]
fn mutated_tables_never_panic() {
    let originals = originals();
    let mut rng = SplitMix64::new(0x6e696d726f64);
    let mut opened = 0;
    for round in 0..20_000 {
        let mut bytes = originals[round % originals.len()].clone();
        mutate(&mut rng, &mut bytes);
        if Table::from_bytes(Path::new("m.nmt"), bytes.clone()).is_ok() {
            opened += 1;
        }
        let result = catch_unwind(AssertUnwindSafe(|| exercise(bytes)));
        assert!(result.is_ok(), "panic on mutation round {round}");
    }
    // Some damage (in the payload or the statistics) still opens: the
    // checksums are checked by `verify`, which must then fail cleanly.
    eprintln!("{opened} of 20000 mutated tables opened");
    assert!(
        opened > 0,
        "no mutated table opened: the test exercises nothing past the header"
    );
}

#[test]
fn arbitrary_query_arguments_never_panic() {
    let words = [
        "grundy",
        "octal",
        "nim",
        "half",
        "gops",
        "ttt",
        "guessit",
        "bridgit",
        "chess",
        "klondike",
        "--misere",
        "--k",
        "--last-loses",
        "--all",
        "--json",
        "0",
        "1",
        "-1",
        "20",
        "0.137",
        "4.07",
        "0.",
        "9.9",
        "18446744073709551616",
        "4294967296",
        "1e9",
        "KQvK",
        "8/8/8/8/8/8/8/K1k4Q",
        "w",
        "b",
        "-",
        "x",
        "3x3",
        "3/unlimited",
        "",
        "--",
        "NaN",
        "½",
    ];
    let dir = tempfile::tempdir().unwrap();
    let ctx = QueryContext {
        data_dir: dir.path().to_path_buf(),
    };
    let mut rng = SplitMix64::new(42);
    for round in 0..3000 {
        let len = rng.below(7) as usize;
        let args: Vec<String> = (0..len)
            .map(|_| words[rng.below(words.len() as u64) as usize].to_string())
            .collect();
        for g in games::registry() {
            let result = catch_unwind(AssertUnwindSafe(|| {
                let _ = games::ask(*g, &args, &ctx);
            }));
            assert!(
                result.is_ok(),
                "{} panicked on {args:?} (round {round})",
                g.name()
            );
        }
    }
}

#[path = "common/parsers.rs"]
mod parsers;

/// The seeds of a parser's fuzz target (`fuzz/seeds/NAME.txt`, one per line).
fn seeds(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("fuzz/seeds/{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(String::from).collect()
}

/// A text mutation: a character replaced, inserted or removed, a piece
/// duplicated, or the text cut, over characters the parsers care about.
fn mutate_text(rng: &mut SplitMix64, text: &str) -> String {
    const ALPHABET: &[char] = &[
        '0', '1', '3', '4', '7', '8', '9', '.', '/', ' ', '-', 'k', 'K', 'q', 'Q', 'p', 'P', 'v',
        'w', 'b', 'e', 'x', '=', '[', ']', '"', '\n', 'é', '½',
    ];
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..=rng.below(3) {
        let pick = ALPHABET[rng.below(ALPHABET.len() as u64) as usize];
        let at = rng.below(chars.len() as u64 + 1) as usize;
        match rng.below(5) {
            0 if at < chars.len() => chars[at] = pick,
            1 => chars.insert(at, pick),
            2 if at < chars.len() => {
                chars.remove(at);
            }
            3 => {
                let piece: Vec<char> = chars[at..].iter().take(4).copied().collect();
                chars.splice(at..at, piece);
            }
            _ => chars.truncate(at),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_parser_inputs_never_panic_and_round_trip() {
    let configs: Vec<String> = [
        "config/default.toml",
        "config/big.toml",
        "tests/fixtures/small.toml",
    ]
    .iter()
    .map(|p| std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(p)).unwrap())
    .collect();
    type Target = (&'static str, fn(&str), Vec<String>);
    let targets: [Target; 5] = [
        ("fen", parsers::fen, seeds("fen")),
        ("octal_code", parsers::octal_code, seeds("octal_code")),
        ("material", parsers::material, seeds("material")),
        (
            "klondike_rules",
            parsers::klondike_rules,
            seeds("klondike_rules"),
        ),
        ("config", parsers::config, configs),
    ];
    let mut rng = SplitMix64::new(1951);
    for (name, check, seeds) in &targets {
        assert!(!seeds.is_empty(), "{name}: no seeds");
        for seed in seeds {
            check(seed);
            for round in 0..400 {
                let text = mutate_text(&mut rng, seed);
                let result = catch_unwind(AssertUnwindSafe(|| check(&text)));
                assert!(
                    result.is_ok(),
                    "{name} panicked on {text:?} (round {round})"
                );
            }
        }
    }
}
