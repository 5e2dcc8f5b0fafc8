//! Table files through the CLI: queries, info/list/verify, pack/unpack, and
//! every kind of bad input giving one clear error line.

mod common;
use common::*;
use std::path::Path;
use std::sync::OnceLock;

/// One small build shared by the tests of this file (read-only use).
fn data() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        build_small(d.path());
        d
    })
    .path()
}

fn q(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["query"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--json", "--data", data().to_str().unwrap()]);
    json(&ok(&a))
}

#[test]
fn grundy_queries_answer_from_the_tables() {
    let v = q(&["grundy", "20"]);
    assert_eq!(v["value"], 0);
    assert_eq!(v["outcome"], "P");
    let v = q(&["grundy", "1000"]);
    let g = nimrod::games::grundy::naive::values(1000);
    assert_eq!(v["value"], g[1000]);
    let splits = v["winning_splits"].as_array().unwrap();
    let expect: Vec<u64> = (1..500)
        .filter(|&a| g[a as usize] == g[1000 - a as usize])
        .collect();
    assert_eq!(splits.len(), expect.len());
    assert_eq!(v["winning_splits_complete"], true);
    // Heaps whose splits span the query's chunks (4,096 parts, then 8,192).
    let g = nimrod::games::grundy::naive::values(20000);
    for heap in [19999u64, 20000, 8193] {
        let v = q(&["grundy", &heap.to_string()]);
        let got: Vec<u64> = v["winning_splits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s[0].as_u64().unwrap())
            .collect();
        let expect: Vec<u64> = (1..heap.div_ceil(2))
            .filter(|&a| g[a as usize] == g[(heap - a) as usize])
            .collect();
        assert_eq!(got, expect, "heap {heap}");
    }
    let v = q(&["grundy", "1000"]);
    let g = nimrod::games::grundy::naive::values(1000);
    assert_eq!(
        v["rare"],
        nimrod::games::grundy::rare::is_rare_value(g[1000])
    );
    // A misère query: the winning split must lead to a P-position.
    let v = q(&["grundy", "20", "--misere"]);
    if v["outcome"] == "N" {
        let a = v["winning_split"][0].as_u64().unwrap() as u8;
        let mut s = nimrod::games::grundy::misere::MisereSolver::new();
        let mut next: Vec<u8> = [a, 20 - a].into_iter().filter(|&h| h >= 3).collect();
        next.sort_unstable();
        assert!(!s.wins(&next));
    }
}

#[test]
fn octal_query_uses_the_proved_period_beyond_the_table() {
    let v = q(&["octal", "0.77", "1000000000"]);
    assert_eq!(v["period"]["period"], 12);
    let reduced = v["reduced_heap"].as_u64().unwrap();
    let w = q(&["octal", "0.77", &reduced.to_string()]);
    assert_eq!(v["value"], w["value"]);
}

#[test]
fn nim_and_half_queries() {
    let v = q(&["nim", "1", "3", "5", "7", "11"]);
    assert_eq!(v["safe"], false); // 1^3^5^7^11 = 11
    for m in v["winning_moves"].as_array().unwrap() {
        let t = &m["takes"][0];
        let (from, to) = (t["from"].as_u64().unwrap(), t["to"].as_u64().unwrap());
        assert!(to < from);
        assert_eq!(m["takes"].as_array().unwrap().len(), 1);
    }
    let v1 = v;
    let v = q(&["nim", "1", "3", "5", "7", "11", "--k", "2"]);
    // One shape whatever k is: the same keys, each winning move as the
    // heaps after it and what it takes.
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(&v1), keys(&v));
    assert_eq!(keys(&v1["winning_moves"][0]), keys(&v["winning_moves"][0]));
    let new: Vec<u64> = serde_json::from_value(v["winning_move"].clone()).unwrap();
    assert!(nimrod::games::nim::moore::is_p(&new, 2));
    // Every winning move, the text's 6, 6 on the two largest among them.
    assert_eq!(v["winning_move_count"], 4);
    let all: Vec<Vec<u64>> = v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| serde_json::from_value(m["after"].clone()).unwrap())
        .collect();
    assert!(all.contains(&vec![1, 3, 5, 6, 6]), "{all:?}");
    assert!(all.iter().all(|m| nimrod::games::nim::moore::is_p(m, 2)));
    // Misère Nim_k, and 100 heaps of up to 10^9.
    let v = q(&["nim", "1", "1", "2", "--k", "2", "--misere"]);
    assert_eq!(v["winning_move_count"], 2);
    let many: Vec<String> = (999_999_900u64..1_000_000_000)
        .map(|h| h.to_string())
        .collect();
    let mut args = vec!["nim", "--k", "2"];
    args.extend(many.iter().map(String::as_str));
    let v = q(&args);
    assert_eq!(v["heaps"].as_array().unwrap().len(), 100);
    assert!(v["winning_move_count"].as_u64().unwrap() > 0);
    let v = q(&["half", "47"]);
    assert_eq!(v["safe"], false);
    assert_eq!(v["winning_takes"], serde_json::json!([16]));
    assert_eq!(q(&["half", "63"])["safe"], true);
    assert_eq!(q(&["half", "47", "--last-loses"])["safe"], true);
}

#[test]
fn list_info_and_verify_report_on_the_tables() {
    let out = ok(&["list", "--data", data().to_str().unwrap(), "--json"]);
    let rows = json(&out);
    assert_eq!(rows.as_array().unwrap().len(), 47);
    assert!(rows.as_array().unwrap().iter().all(|r| r["state"] == "ok"));
    let v = json(&ok(&[
        "info",
        data().join("grundy/values.nmt").to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["entries"], 20001);
    assert_eq!(v["meta"]["stats"]["last_zero_heap"], 1222);
    let out = ok(&["verify", "--data", data().to_str().unwrap()]);
    assert!(out.contains("47 of 47 tables verified"), "{out}");
}

fn copy_tables(to: &Path) {
    for (name, bytes) in snapshot(data()) {
        let p = to.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

#[test]
fn packed_tables_answer_queries_and_unpack_byte_for_byte() {
    let d = tempfile::tempdir().unwrap();
    copy_tables(d.path());
    let raw = d.path().join("grundy/values.nmt");
    let original = std::fs::read(&raw).unwrap();
    ok(&["pack", raw.to_str().unwrap(), "--remove"]);
    let packed = d.path().join("grundy/values.nmt.zst");
    assert!(!raw.exists() && packed.exists());
    let v = json(&ok(&[
        "query",
        "grundy",
        "19999",
        "--json",
        "--data",
        d.path().to_str().unwrap(),
    ]));
    let g = nimrod::games::grundy::naive::values(19999);
    assert_eq!(v["value"], g[19999]);
    ok(&["verify", packed.to_str().unwrap()]);
    // A standard zstd decoder restores the raw file.
    let plain = zstd_decode(&std::fs::read(&packed).unwrap());
    assert_eq!(plain, original);
    if let Ok(o) = std::process::Command::new("zstd")
        .args(["-d", "-c", "-q"])
        .arg(&packed)
        .output()
    {
        if o.status.success() {
            assert_eq!(o.stdout, original, "zstd -d output differs");
        }
    }
    ok(&["unpack", packed.to_str().unwrap()]);
    assert_eq!(std::fs::read(&raw).unwrap(), original);
    // Neither replaces an existing output without --force, as gzip and zstd.
    std::fs::write(&raw, b"mine").unwrap();
    let e = fails(&["unpack", packed.to_str().unwrap()]);
    assert!(e.contains("already exists") && e.contains("--force"), "{e}");
    assert_eq!(std::fs::read(&raw).unwrap(), b"mine");
    ok(&["unpack", packed.to_str().unwrap(), "--force"]);
    assert_eq!(std::fs::read(&raw).unwrap(), original);
    let packed_bytes = std::fs::read(&packed).unwrap();
    let e = fails(&["pack", raw.to_str().unwrap()]);
    assert!(e.contains("values.nmt.zst already exists"), "{e}");
    ok(&["pack", raw.to_str().unwrap(), "--force"]);
    assert_eq!(std::fs::read(&packed).unwrap(), packed_bytes);
}

/// `verify` reports per file on stdout and exits non-zero on any failure.
fn verify_fails(p: &Path, expect: &str) {
    let o = run(&["verify", p.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(!o.status.success(), "verify accepted {}", p.display());
    assert!(!stderr(&o).contains("panicked"));
    assert!(out.contains("FAILED") && out.contains(expect), "{out}");
}

fn zstd_decode(b: &[u8]) -> Vec<u8> {
    let t = nimrod::table::pack::PackedFile::new(b).unwrap();
    t.unpack_all().unwrap()
}

#[test]
fn damaged_files_are_clear_errors() {
    let d = tempfile::tempdir().unwrap();
    let good = std::fs::read(data().join("half/normal.nmt")).unwrap();
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty.nmt", vec![], "empty"),
        ("short.nmt", good[..100].to_vec(), "truncated"),
        ("cut.nmt", good[..good.len() - 5000].to_vec(), "truncated"),
        (
            "foreign.nmt",
            b"PK\x03\x04 this is a zip file, not a table".to_vec(),
            "not a nimrod table",
        ),
        (
            "version.nmt",
            {
                let mut b = good.clone();
                b[8] = 9;
                b
            },
            "version",
        ),
        (
            "header.nmt",
            {
                let mut b = good.clone();
                b[30] ^= 1;
                b
            },
            "corrupt",
        ),
    ];
    for (name, bytes, expect) in cases {
        let p = d.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let e = fails(&["info", p.to_str().unwrap()]);
        assert!(e.contains(name) && e.contains(expect), "{name}: {e}");
        verify_fails(&p, expect);
    }
    // Payload corruption passes the cheap open but not verify (nor a read
    // from the damaged block).
    let p = d.path().join("payload.nmt");
    let mut b = good.clone();
    b[4096 + 10] ^= 0x55;
    std::fs::write(&p, &b).unwrap();
    ok(&["info", p.to_str().unwrap()]);
    verify_fails(&p, "payload block 0 (entries 0..");
    // A plain zstd file without a seek table.
    let p = d.path().join("plain.nmt.zst");
    std::fs::write(&p, zstd::encode_all(&good[..], 3).unwrap()).unwrap();
    let e = fails(&["info", p.to_str().unwrap()]);
    assert!(e.contains("seek table"), "{e}");
}

#[test]
fn bad_queries_and_configs_are_clear_errors() {
    let dd = data().to_str().unwrap();
    let e = fails(&["query", "chesss", "x", "--data", dd]);
    assert!(e.contains("unknown game"), "{e}");
    let e = usage_fails(&["query", "grundy", "abc", "--data", dd]);
    assert!(e.contains("abc"), "{e}");
    let e = fails(&["query", "grundy", "20001", "--data", dd]);
    assert!(e.contains("beyond") && e.contains("20000"), "{e}");
    let e = fails(&["query", "octal", "0.78", "5", "--data", dd]);
    assert!(e.contains("octal digit"), "{e}");
    let e = fails(&["query", "octal", "0.16", "5", "--data", dd]);
    assert!(e.contains("not found") && e.contains("nimrod build"), "{e}");
    let e = fails(&["query", "nim", "1", "2", "--k", "0", "--data", dd]);
    assert!(e.contains("--k"), "{e}");
    let empty = tempfile::tempdir().unwrap();
    let e = fails(&[
        "query",
        "grundy",
        "5",
        "--data",
        empty.path().to_str().unwrap(),
    ]);
    assert!(
        e.contains("grundy/values") && e.contains("not found"),
        "{e}"
    );

    let cfg = empty.path().join("bad.toml");
    for (text, expect) in [
        ("[checkers]\nx = 1\n", "unknown game"),
        ("[grundy]\nbound = 1\n", "out of range"),
        ("[grundy]\nbound = 100\nbogus = 3\n", "bogus"),
        ("[octal]\ngames = [\"0.9\"]\nbound = 100\n", "octal digit"),
        ("[grundy\n", "invalid TOML"),
    ] {
        std::fs::write(&cfg, text).unwrap();
        let e = fails(&[
            "build",
            "--config",
            cfg.to_str().unwrap(),
            "--data",
            empty.path().to_str().unwrap(),
        ]);
        assert!(e.contains(expect) && e.contains("bad.toml"), "{text}: {e}");
    }
}

/// A reader that closes the pipe before the answer is written (`nimrod
/// query … | head`) ends the output quietly: exit 0, no panic (it used to
/// panic with exit 101 in `print!`).
#[test]
fn a_closed_pipe_ends_the_output_without_a_panic() {
    for json in [false, true] {
        let mut cmd = nimrod();
        cmd.args(["query", "nim", "3", "4", "5"]);
        if json {
            cmd.arg("--json");
        }
        let mut child = cmd
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(out.status.code(), Some(0), "{err}");
    }
}

/// Tables swapped under each other's names (raw and packed) are refused by
/// query and verify, naming the table found; they used to answer for the
/// other game (`query octal 0.77` answered for 0.137).
#[test]
fn swapped_tables_are_refused_by_query_and_verify() {
    let d = tempfile::tempdir().unwrap();
    copy_tables(d.path());
    let swap = |a: &str, b: &str| {
        let (pa, pb, t) = (d.path().join(a), d.path().join(b), d.path().join("t"));
        std::fs::rename(&pa, &t).unwrap();
        std::fs::rename(&pb, &pa).unwrap();
        std::fs::rename(&t, &pb).unwrap();
    };
    swap("octal/0.77.nmt", "octal/0.137.nmt");
    swap("chess/KQvK.nmt", "chess/KRvK.nmt");
    let dir = d.path().to_str().unwrap();
    let e = fails(&["query", "octal", "0.77", "200", "--data", dir]);
    assert!(
        e.contains("holds the table of octal/0.137, not octal/0.77"),
        "{e}"
    );
    let e = fails(&[
        "query",
        "chess",
        "8/8/8/8/8/2k5/8/K6Q w - - 0 1",
        "--data",
        dir,
    ]);
    assert!(
        e.contains("holds the table of chess/KRvK, not chess/KQvK"),
        "{e}"
    );
    verify_fails(
        &d.path().join("octal/0.77.nmt"),
        "holds the table of octal/0.137",
    );
    verify_fails(
        &d.path().join("chess/KRvK.nmt"),
        "holds the table of chess/KQvK",
    );
    // Packed: the identity travels inside the file.
    let p = d.path().join("octal/0.137.nmt");
    ok(&["pack", p.to_str().unwrap(), "--remove"]);
    let e = fails(&["query", "octal", "0.137", "200", "--data", dir]);
    assert!(e.contains("holds the table of octal/0.77"), "{e}");
    verify_fails(
        &d.path().join("octal/0.137.nmt.zst"),
        "holds the table of octal/0.77",
    );
    // Swapped back, everything answers again.
    swap("octal/0.77.nmt", "octal/0.137.nmt.zst");
    swap("chess/KQvK.nmt", "chess/KRvK.nmt");
}

/// Metadata edited into other valid JSON (guessit's max_hand 5 -> 4) is
/// caught at open by the metadata checksum, before any answer: it used to
/// make `query guessit 5 5` print a wrong probability.
#[test]
fn edited_metadata_is_refused_at_open() {
    let d = tempfile::tempdir().unwrap();
    copy_tables(d.path());
    let p = d.path().join("guessit/values.nmt");
    let mut bytes = std::fs::read(&p).unwrap();
    let needle = b"\"max_hand\": 5";
    let at = bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("max_hand in the metadata");
    bytes[at + needle.len() - 1] = b'4';
    std::fs::write(&p, &bytes).unwrap();
    let e = fails(&[
        "query",
        "guessit",
        "4",
        "4",
        "--data",
        d.path().to_str().unwrap(),
    ]);
    assert!(e.contains("metadata/index checksum mismatch"), "{e}");
    verify_fails(&p, "metadata/index checksum mismatch");
}

/// Alignment padding is covered by no checksum, so `verify` requires it to
/// be zero: a changed padding byte (before the 4 KiB-aligned payload of
/// guessit/values) is reported with its offset, though answers are
/// unaffected.
#[test]
fn verify_requires_zero_padding() {
    let d = tempfile::tempdir().unwrap();
    copy_tables(d.path());
    let p = d.path().join("guessit/values.nmt");
    let h = nimrod::table::Table::open(&p).unwrap().header().clone();
    let mut sections = [h.meta, h.index, h.keys, h.payload, h.block_sums];
    sections.sort_by_key(|s| s.offset);
    let ends_before_payload = sections
        .iter()
        .filter(|s| s.len > 0 && s.offset < h.payload.offset)
        .map(|s| s.offset + s.len)
        .max()
        .unwrap_or(160);
    assert!(
        ends_before_payload < h.payload.offset,
        "no padding to alter"
    );
    let at = h.payload.offset - 1;
    let mut bytes = std::fs::read(&p).unwrap();
    assert_eq!(bytes[at as usize], 0);
    bytes[at as usize] = 0x5a;
    std::fs::write(&p, &bytes).unwrap();
    verify_fails(&p, &format!("padding byte at offset {at} is 0x5a"));
}
