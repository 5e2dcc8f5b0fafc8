//! Golden tables: the smallest table of every kind, frozen in
//! tests/fixtures/golden/. A fresh build of tests/fixtures/golden.toml must
//! reproduce every one byte for byte, so no change to the code can move the
//! bytes of a table unnoticed. When a change is meant to (a format version
//! bump, a game's VERSION, a new crate version in the metadata), regenerate:
//!
//!     NIMROD_REGENERATE_GOLDEN=1 cargo test --test golden
//!
//! and say in the commit which bump it was.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn golden_dir() -> PathBuf {
    fixture("golden")
}

/// Every `.nmt` under `dir`, as paths relative to it, sorted.
fn tables(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("directory readable") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.extension().is_some_and(|x| x == "nmt") {
                out.push(p.strip_prefix(root).expect("under root").to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn a_fresh_build_reproduces_every_golden_table() {
    let d = tempfile::tempdir().unwrap();
    let data = d.path().join("data");
    let cfg = fixture("golden.toml");
    ok(&[
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    let built = tables(&data);
    let golden = golden_dir();
    if std::env::var_os("NIMROD_REGENERATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&golden);
        for t in &built {
            let to = golden.join(t);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(data.join(t), &to).unwrap();
        }
        eprintln!("regenerated {} golden tables", built.len());
        return;
    }
    let frozen = tables(&golden);
    assert_eq!(
        built, frozen,
        "the golden config now builds other tables than tests/fixtures/golden holds; regenerate (see tests/golden.rs)"
    );
    // Every kind of table is frozen: one at least per game the default
    // configuration builds.
    let default: toml::Table = nimrod::pipeline::config::DEFAULT_CONFIG.parse().unwrap();
    for game in default.keys() {
        assert!(
            frozen.iter().any(|t| t.starts_with(game)),
            "no golden table of {game}"
        );
    }
    let mut changed = Vec::new();
    for t in &frozen {
        let (new, old) = (
            std::fs::read(data.join(t)).unwrap(),
            std::fs::read(golden.join(t)).unwrap(),
        );
        if new != old {
            let at = new.iter().zip(&old).position(|(a, b)| a != b);
            changed.push(format!(
                "{} ({} bytes, was {}; first difference at byte {})",
                t.display(),
                new.len(),
                old.len(),
                at.map_or("end".to_string(), |a| a.to_string())
            ));
        }
    }
    assert!(
        changed.is_empty(),
        "table bytes changed without regenerating the golden tables:\n  {}\nIf a format or game version bump meant this, regenerate (see tests/golden.rs).",
        changed.join("\n  ")
    );
}

#[test]
fn every_golden_table_is_sound_and_of_this_format() {
    let golden = golden_dir();
    for t in tables(&golden) {
        let table = nimrod::table::Table::open(&golden.join(&t)).unwrap();
        table.verify().unwrap();
        assert_eq!(
            table.header().version,
            nimrod::table::FORMAT_VERSION,
            "{}: a golden table of another format version; regenerate",
            t.display()
        );
        let id = t.with_extension("");
        nimrod::table::check_identity(&table, &id.to_string_lossy()).unwrap();
    }
}
