//! `build --only JOB --shard I/S`: a GOPS level built in parts, each its
//! own checked file, merged by a plain build into the bytes of a whole
//! build whatever the part count; missing parts built by the merge, parts
//! of two shards built at once, bad part numbers and damaged parts refused.

mod common;
use common::*;
use std::path::Path;

const GOPS: &str = "[gops]\ncards = 8\nwin_cards = 5\n";

fn config(dir: &Path, text: &str) -> std::path::PathBuf {
    let p = dir.join("config.toml");
    std::fs::write(&p, text).unwrap();
    p
}

fn job_ids(cfg: &Path) -> Vec<String> {
    let plan = json(&ok(&["plan", "--config", cfg.to_str().unwrap(), "--json"]));
    plan["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            assert_eq!(j["shardable"], true, "{j}");
            j["id"].as_str().unwrap().to_string()
        })
        .collect()
}

fn part_files(data: &Path) -> Vec<String> {
    if !data.exists() {
        return Vec::new();
    }
    files_with_extension(data, "nmt")
        .into_iter()
        .map(|p| p.strip_prefix(data).unwrap().display().to_string())
        .filter(|p| p.contains(".part-"))
        .collect()
}

/// Every level of both objectives, each built as S parts (S = 1, 2, 3, 7
/// and 20, more parts than the top levels have states, so some parts are
/// empty) and merged level by level: the same bytes as one whole build.
#[test]
fn levels_built_in_parts_merge_to_the_bytes_of_a_whole_build() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), GOPS);
    let whole = tmp.path().join("whole");
    build_json(&cfg, &whole, &[]);
    let expected = snapshot(&whole);
    assert_eq!(expected.len(), 13);
    for parts in [1u32, 2, 3, 7, 20] {
        let data = tmp.path().join(format!("parts-{parts}"));
        for id in job_ids(&cfg) {
            for i in 1..=parts {
                build_json(
                    &cfg,
                    &data,
                    &["--only", &id, "--shard", &format!("{i}/{parts}")],
                );
            }
            let stem = id.rsplit('/').next().unwrap();
            let here = part_files(&data);
            assert_eq!(
                here.iter().filter(|p| p.contains(stem)).count(),
                parts as usize,
                "{id}: {here:?}"
            );
            build_json(&cfg, &data, &["--only", &id]);
            assert_eq!(part_files(&data), Vec::<String>::new(), "{id}: parts left");
        }
        assert_eq!(snapshot(&data), expected, "{parts} parts");
    }
}

/// A plain build that finds some parts of a level builds the missing ones
/// itself, merges, and removes every part, those of another count too; a
/// part rebuilt with the table in place is skipped.
#[test]
fn a_plain_build_completes_missing_parts_and_removes_all_parts() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), GOPS);
    let whole = tmp.path().join("whole");
    build_json(&cfg, &whole, &[]);
    let data = tmp.path().join("data");
    build_json(&cfg, &data, &["--only", "gops/n08/k05", "--shard", "1/4"]);
    build_json(&cfg, &data, &["--only", "gops/n08/k05", "--shard", "3/4"]);
    build_json(&cfg, &data, &["--only", "gops/n08/k05", "--shard", "2/3"]);
    assert_eq!(part_files(&data).len(), 3);
    let report = build_json(&cfg, &data, &[]);
    assert_eq!(report["ok"], true);
    assert_eq!(part_files(&data), Vec::<String>::new());
    assert_eq!(snapshot(&data), snapshot(&whole));
    let again = build_json(&cfg, &data, &["--only", "gops/n08/k05", "--shard", "2/4"]);
    assert!(
        again["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|j| j["state"] == "skipped"),
        "{again}"
    );
    assert_eq!(part_files(&data), Vec::<String>::new());
}

/// Two shards of one level built at the same time into one directory (as
/// two Slurm array tasks) both finish; the same part twice at once is
/// refused, naming the other builder.
#[test]
fn two_parts_of_one_level_build_at_once_and_one_part_twice_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), "[gops]\ncards = 10\n");
    let data = tmp.path().join("data");
    build_json(&cfg, &data, &["--only", "gops/n10/k05"]);
    let args = |part: &str| {
        vec![
            "build".to_string(),
            "--config".into(),
            cfg.to_str().unwrap().into(),
            "--data".into(),
            data.to_str().unwrap().into(),
            "--threads".into(),
            "1".into(),
            "--only".into(),
            "gops/n10/k06".into(),
            "--shard".into(),
            part.into(),
        ]
    };
    let mut first = nimrod()
        .args(args("1/2"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(150));
    let twice = nimrod().args(args("1/2")).output().unwrap();
    let second = nimrod().args(args("2/2")).output().unwrap();
    let still_running = first.try_wait().unwrap().is_none();
    assert!(first.wait().unwrap().success());
    assert!(second.status.success(), "{}", stderr(&second));
    if still_running {
        assert!(!twice.status.success(), "the same part built twice at once");
        assert!(
            stderr(&twice).contains("is being built by another nimrod build (pid"),
            "{}",
            stderr(&twice)
        );
    }
    assert_eq!(part_files(&data).len(), 2);
    build_json(&cfg, &data, &["--only", "gops/n10/k06"]);
    let whole = tmp.path().join("whole");
    build_json(&cfg, &whole, &["--only", "gops/n10/k06"]);
    assert_eq!(snapshot(&data), snapshot(&whole));
}

/// A part whose payload was damaged after it was written is refused when
/// the parts are merged, naming the part's file; no table is written.
#[test]
fn a_damaged_part_stops_the_merge_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), GOPS);
    let data = tmp.path().join("data");
    for i in 1..=2 {
        build_json(
            &cfg,
            &data,
            &["--only", "gops/n08/k04", "--shard", &format!("{i}/2")],
        );
    }
    let part = data.join("gops/n08/k04.part-0002-of-0002.nmt");
    let t = nimrod::table::Table::open(&part).unwrap();
    let at = t.header().payload.offset as usize + 100;
    drop(t);
    let mut bytes = std::fs::read(&part).unwrap();
    bytes[at] ^= 0x40;
    std::fs::write(&part, bytes).unwrap();
    let o = run(&[
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--only",
        "gops/n08/k04",
    ]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("k04.part-0002-of-0002.nmt"), "{err}");
    assert!(!data.join("gops/n08/k04.nmt").exists());
}

#[test]
fn bad_shard_requests_are_refused_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(
        tmp.path(),
        &format!("{GOPS}[octal]\ngames = [\"0.77\"]\nbound = 100\n"),
    );
    let data = tmp.path().join("data");
    let (c, d) = (cfg.to_str().unwrap(), data.to_str().unwrap());
    for (shard, reason) in [
        ("0/4", "the part number must be 1 to 4"),
        ("5/4", "the part number must be 1 to 4"),
        ("1/0", "shard count 0 is out of range: 1 to 4096"),
        ("1/5000", "shard count 5000 is out of range: 1 to 4096"),
        ("x/4", "part \"x\" is not a number"),
        ("3", "expected I/S"),
    ] {
        let err = usage_fails(&[
            "build",
            "--config",
            c,
            "--data",
            d,
            "--only",
            "gops/n08/k04",
            "--shard",
            shard,
        ]);
        assert!(err.contains(reason), "{shard}: {err}");
    }
    let err = fails(&[
        "build",
        "--config",
        c,
        "--data",
        d,
        "--only",
        "octal/0.77",
        "--shard",
        "1/2",
    ]);
    assert!(err.contains("job octal/0.77 cannot be split"), "{err}");
    let err = fails(&[
        "build",
        "--config",
        c,
        "--data",
        d,
        "--only",
        "gops/n08/k04",
        "--only",
        "gops/n08/k05",
        "--shard",
        "1/2",
    ]);
    assert!(
        err.contains("--only must name exactly one job (it names 2"),
        "{err}"
    );
    let err = usage_fails(&["build", "--config", c, "--data", d, "--shard", "1/2"]);
    assert!(err.contains("--only"), "{err}");
    assert!(!data.join("octal").exists() && part_files(&data).is_empty());
}

/// A table packed with `pack --remove` is built: a rebuild skips it and
/// the jobs above read it packed; a damaged packed table is rebuilt raw.
#[test]
fn packed_tables_count_as_built_and_are_read_as_dependencies() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), "[gops]\ncards = 6\n");
    let data = tmp.path().join("data");
    build_json(&cfg, &data, &[]);
    let expected = snapshot(&data);
    let level = |k: u32| data.join(format!("gops/n06/k{k:02}.nmt"));
    ok(&[
        "pack",
        level(3).to_str().unwrap(),
        level(6).to_str().unwrap(),
        "--remove",
    ]);
    // k04 read the packed k03 when it was rebuilt from scratch.
    std::fs::remove_file(level(4)).unwrap();
    let report = build_json(&cfg, &data, &[]);
    for j in report["jobs"].as_array().unwrap() {
        let id = j["job"].as_str().unwrap();
        let expect = if id == "gops/n06/k04" {
            "built"
        } else {
            "skipped"
        };
        assert_eq!(j["state"], expect, "{j}");
    }
    assert!(
        !level(3).exists() && !level(6).exists(),
        "a packed table was rebuilt raw"
    );
    assert_eq!(
        std::fs::read(level(4)).unwrap(),
        expected[3].1,
        "k04 from the packed k03"
    );
    // A packed table whose bytes are damaged is not built: rebuilt raw.
    let packed = data.join("gops/n06/k06.nmt.zst");
    let mut bytes = std::fs::read(&packed).unwrap();
    let n = bytes.len();
    bytes[n / 2] ^= 0x40;
    std::fs::write(&packed, bytes).unwrap();
    build_json(&cfg, &data, &[]);
    assert_eq!(std::fs::read(level(6)).unwrap(), expected[5].1);
}
