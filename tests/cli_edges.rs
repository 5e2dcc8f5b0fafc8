//! The command line's edges: per-game help and whole usage errors, JSON
//! errors, special files at table paths, bounded user counts, and crafted
//! files that must not make the tool allocate what they claim.

mod common;
use common::*;
use std::path::Path;
use std::time::{Duration, Instant};

#[test]
fn every_game_has_help_with_examples_that_parse() {
    let empty = tempfile::tempdir().unwrap();
    let games = nimrod::games::names();
    assert!(games.len() >= 10);
    for game in &games {
        let help = ok(&["query", game, "--help"]);
        assert!(
            help.contains(&format!("Usage: nimrod query {game}")),
            "{help}"
        );
        let examples: Vec<&str> = help
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with(&format!("nimrod query {game}")))
            .collect();
        assert!(
            !examples.is_empty(),
            "{game} --help has no examples:\n{help}"
        );
        for ex in examples {
            let mut args = split_example(ex);
            args.remove(0);
            args.extend(["--data".into(), empty.path().display().to_string()]);
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = run(&refs);
            // No tables here: an example may fail for that, never for its arguments.
            assert_ne!(o.status.code(), Some(2), "{ex}: {}", stderr(&o));
            assert!(!stderr(&o).contains("panicked"), "{ex}");
        }
    }
    let play = ok(&["play", "gops", "--help"]);
    assert!(
        play.contains("Usage: nimrod play gops") && play.contains("Examples:"),
        "{play}"
    );
    let general = ok(&["query", "--help"]);
    assert!(
        general.contains("GAME --help") && general.contains("chess"),
        "{general}"
    );
}

#[test]
fn usage_errors_name_every_missing_argument_and_json_errors_are_json() {
    let err = usage_fails(&["query", "gops"]);
    assert!(err.contains("--cards <CARDS>"), "{err}");
    assert!(err.contains("Usage: nimrod query gops"), "{err}");
    let o = run(&["query", "gops", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let v = json(stderr(&o).trim());
    assert!(
        v["usage"].as_str().unwrap().contains("--cards <CARDS>"),
        "{v}"
    );
    let empty = tempfile::tempdir().unwrap();
    let o = run(&[
        "query",
        "grundy",
        "5",
        "--json",
        "--data",
        empty.path().to_str().unwrap(),
    ]);
    // A missing table has its own exit code and JSON kind (issue 59).
    assert_eq!(o.status.code(), Some(4));
    assert!(o.stdout.is_empty());
    let v = json(stderr(&o).trim());
    assert!(v["error"].as_str().unwrap().contains("not found"), "{v}");
    assert_eq!(v["kind"], "table_missing", "{v}");
    let o = run(&["frobnicate", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(json(stderr(&o).trim())["error"]
        .as_str()
        .unwrap()
        .contains("frobnicate"));
}

#[test]
fn fifos_and_directories_at_table_paths_are_errors_not_hangs() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("grundy")).unwrap();
    let fifo = d.path().join("grundy/values.nmt");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("SKIPPED the FIFO case: mkfifo is not available");
    } else {
        for args in [
            vec!["query", "grundy", "5", "--data", d.path().to_str().unwrap()],
            vec!["info", fifo.to_str().unwrap()],
            vec!["verify", d.path().to_str().unwrap()],
        ] {
            let mut child = nimrod()
                .args(&args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let start = Instant::now();
            while child.try_wait().unwrap().is_none() {
                if start.elapsed() > Duration::from_secs(20) {
                    child.kill().unwrap();
                    panic!("nimrod {args:?} blocked on a FIFO");
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let o = child.wait_with_output().unwrap();
            assert!(!o.status.success(), "{args:?}");
            let text = format!("{}{}", stdout(&o), stderr(&o));
            assert!(text.contains("FIFO"), "{args:?}: {text}");
        }
    }
    let e = fails(&["info", d.path().to_str().unwrap()]);
    assert!(e.contains("is a directory"), "{e}");
    let missing = d.path().join("missing.nmt");
    let e = fails(&["info", missing.to_str().unwrap()]);
    assert_eq!(e.matches("os error 2").count(), 1, "{e}");
}

#[test]
fn user_counts_are_bounded_before_anything_is_allocated() {
    let empty = tempfile::tempdir().unwrap();
    let dd = empty.path().to_str().unwrap();
    let e = fails(&[
        "query",
        "gops",
        "--cards",
        "4",
        "--objective",
        "win",
        "--mine",
        "2,3",
        "--theirs",
        "1,4",
        "--prizes",
        "1,2",
        "--diff=2147483646",
        "--data",
        dd,
    ]);
    assert!(
        e.contains("--diff 2147483646 is impossible") && e.contains("-10 and 10"),
        "{e}"
    );
    let e = fails(&[
        "query", "chess", "--sample", "1000000", "--table", "KQvK", "--data", dd,
    ]);
    assert!(e.contains("100000"), "{e}");
    let built = tempfile::tempdir().unwrap();
    build_small(built.path());
    let start = Instant::now();
    let e = fails(&[
        "query",
        "guessit",
        "--tables",
        "1000000000",
        "--data",
        built.path().to_str().unwrap(),
    ]);
    assert!(e.contains("beyond the table (max_hand = 5)"), "{e}");
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "refused only after laying out the table"
    );
    let cfg = empty.path().join("big.toml");
    std::fs::write(&cfg, "[grundy]\nbound = 1099511627776\n").unwrap();
    let e = fails(&["build", "--config", cfg.to_str().unwrap(), "--data", dd]);
    assert!(e.contains("2^40 - 1"), "{e}");
}

/// A packed file whose seek table claims a 4 GiB frame: refused by its
/// size before anything is allocated (it used to abort with exit 134).
#[test]
fn unpack_refuses_a_seek_table_that_claims_huge_frames() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("t.nmt");
    let meta = nimrod::table::TableMeta::new(
        "t",
        "t",
        serde_json::json!({}),
        "test",
        "u8",
        serde_json::json!({}),
    );
    nimrod::table::writer::write_ranked(&p, &vec![7u8; 100_000], &meta, 1).unwrap();
    let raw = std::fs::read(&p).unwrap();
    let mut packed = nimrod::table::pack::pack_bytes(&raw, 3, 1 << 16).unwrap();
    // Footer: count u32, descriptor u8, magic u32; entries of 12 bytes before it.
    let n = packed.len();
    let count = u32::from_le_bytes(packed[n - 9..n - 5].try_into().unwrap()) as usize;
    let first_entry = n - 9 - 12 * count;
    packed[first_entry + 4..first_entry + 8].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    let z = d.path().join("huge.nmt.zst");
    std::fs::write(&z, &packed).unwrap();
    let e = fails(&["unpack", z.to_str().unwrap()]);
    assert!(e.contains("claims a frame of 4294967280 bytes"), "{e}");
    assert!(!Path::new(&d.path().join("huge.nmt")).exists());
    // A frame whose own header disagrees with a plausible claim.
    let mut packed = nimrod::table::pack::pack_bytes(&raw, 3, 1 << 16).unwrap();
    packed[first_entry + 4..first_entry + 8].copy_from_slice(&(1u32 << 20).to_le_bytes());
    std::fs::write(&z, &packed).unwrap();
    let e = fails(&["unpack", z.to_str().unwrap()]);
    assert!(e.contains("seek table says"), "{e}");
}

/// Damage to a perfect-hash index is reported as damage, not as a
/// position that cannot arise.
#[test]
fn a_damaged_ttt_index_is_reported_as_damage() {
    let d = tempfile::tempdir().unwrap();
    build_small(d.path());
    let p = d.path().join("ttt/3x3k3.nmt");
    let t = nimrod::table::Table::open(&p).unwrap();
    let index = t.header().index;
    drop(t);
    let mut b = std::fs::read(&p).unwrap();
    b[(index.offset + index.len / 2) as usize] ^= 0x08;
    std::fs::write(&p, &b).unwrap();
    let e = fails(&[
        "query",
        "ttt",
        "xo..x....",
        "--data",
        d.path().to_str().unwrap(),
    ]);
    assert!(e.contains("checksum") && !e.contains("cannot arise"), "{e}");
    let mut longer = std::fs::read(d.path().join("ttt/2x2k2.nmt")).unwrap();
    longer.extend_from_slice(b"appended");
    let q = d.path().join("ttt/2x2k2.nmt");
    std::fs::write(&q, &longer).unwrap();
    let o = run(&["verify", q.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stdout(&o).contains("appended"), "{}", stdout(&o));
}

/// The largest unsigned number a user can type: every count it could
/// reach is bounded, with an error naming the argument and its limit, or
/// (Moore's k) answered by the rule it stands for, never a panic or a hang.
#[test]
fn the_largest_numbers_are_refused_or_answered_never_a_panic_or_a_hang() {
    const MAX: &str = "18446744073709551615";
    // k at least the heap count is taking from every heap: 1 2 3 -> 0 0 0.
    let out = ok(&["query", "nim", "1", "2", "3", "--k", MAX]);
    assert!(
        out.contains("unsafe (N)")
            && out.contains("winning moves: 1\n")
            && out
                .contains("1 -> 0 on the 1st heap, 2 -> 0 on the 2nd heap, 3 -> 0 on the 3rd heap"),
        "{out}"
    );
    let scratch = tempfile::tempdir().unwrap();
    let dd = scratch.path().to_str().unwrap();
    let err = fails(&["build", "--threads", MAX, "--only", "half", "--data", dd]);
    assert!(err.contains("--threads") && err.contains("1024"), "{err}");
    let err = fails(&["build", "--threads", "0", "--only", "half", "--data", dd]);
    assert!(err.contains("--threads 0"), "{err}");
    for (m, why) in [
        (MAX, "out of range"),
        ("20 G", "not a memory size"),
        ("4096T", "out of range: 1K to 1024T"),
        ("0", "out of range"),
    ] {
        let err = fails(&["build", "--memory", m, "--only", "half", "--data", dd]);
        assert!(
            err.contains(&format!("--memory {m:?}")) && err.contains(why),
            "{err}"
        );
    }
    let err = fails(&["query", "klondike", "--deal", "284", "--budget", MAX]);
    assert!(
        err.contains("--budget") && err.contains("1000000000"),
        "{err}"
    );
}

/// Config counts are bounded too: a Klondike greedy_deals of 2^63 - 1 used
/// to abort in the thread pool, a solver_budget of 2^63 - 1 was accepted.
#[test]
fn huge_klondike_config_counts_are_refused_naming_the_key() {
    let d = tempfile::tempdir().unwrap();
    for (key, line) in [
        (
            "greedy_deals",
            "greedy_deals = 9223372036854775807\nsolver_deals = 10\nsolver_budget = 1000",
        ),
        (
            "solver_budget",
            "greedy_deals = 10\nsolver_deals = 10\nsolver_budget = 9223372036854775807",
        ),
    ] {
        let cfg = d.path().join("c.toml");
        std::fs::write(
            &cfg,
            format!("[klondike]\nrules = [\"1/unlimited\"]\n{line}\n"),
        )
        .unwrap();
        let data = d.path().join("data");
        let e = fails(&[
            "build",
            "--config",
            cfg.to_str().unwrap(),
            "--data",
            data.to_str().unwrap(),
        ]);
        assert!(
            e.contains(&format!(
                "[klondike] {key} = 9223372036854775807 is out of range"
            )),
            "{e}"
        );
    }
}

/// Global options before the game's name work as help says they do, and
/// `NIMROD_DATA` is the default data directory.
#[test]
fn global_options_go_before_or_after_the_game_and_nimrod_data_is_the_default() {
    let empty = tempfile::tempdir().unwrap();
    let d = empty.path().to_str().unwrap();
    let before = ok(&["query", "--json", "nim", "1", "2", "3"]);
    let after = ok(&["query", "nim", "1", "2", "3", "--json"]);
    assert_eq!(before, after);
    assert_eq!(json(&before)["safe"], true, "{before}");
    let o = run(&["query", "--data", d, "--json", "grundy", "5"]);
    assert!(
        stderr(&o).contains(&format!("not found in {d}")),
        "{}",
        stderr(&o)
    );
    let o = nimrod()
        .args(["query", "grundy", "5"])
        .env("NIMROD_DATA", d)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains(&format!("not found in {d}")),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("--data DIR or NIMROD_DATA=DIR"),
        "{}",
        stderr(&o)
    );
    let o = nimrod()
        .args(["list"])
        .env("NIMROD_DATA", d)
        .output()
        .unwrap();
    assert!(
        o.status.success() && stdout(&o).contains("no tables"),
        "{}",
        stderr(&o)
    );
    // `query` alone: the games, and the usage exit code.
    let o = run(&["query"]);
    assert_eq!(o.status.code(), Some(2));
    for g in nimrod::games::names() {
        assert!(stderr(&o).contains(g), "{g} missing from:\n{}", stderr(&o));
    }
}

/// A missing table's hint is the command that builds it, from the configs
/// that ship: the default, config/big.toml, or neither.
#[test]
fn a_missing_table_says_which_command_builds_it() {
    let empty = tempfile::tempdir().unwrap();
    let d = empty.path().to_str().unwrap();
    let err = |args: &[&str]| {
        let mut a = args.to_vec();
        a.extend(["--data", d]);
        let o = run(&a);
        assert!(!o.status.success());
        stderr(&o)
    };
    let e = err(&["query", "grundy", "5"]);
    assert!(
        e.contains(&format!(
            "to build it: nimrod build --only grundy/values --data {d}"
        )),
        "{e}"
    );
    // A 5-piece table is only in config/big.toml.
    let e = err(&["query", "chess", "8/8/8/4k3/8/8/4P3/KRR5 w - - 0 1"]);
    assert!(
        e.contains("to build it: nimrod build --config config/big.toml --only chess/KRRPvK"),
        "{e}"
    );
    assert_eq!(e.matches("nimrod build").count(), 1, "one command: {e}");
    let e = err(&["query", "octal", "0.123", "5"]);
    assert!(e.contains("no shipped config builds octal/0.123"), "{e}");
}

#[test]
fn wording_an_empty_config_and_a_file_given_as_the_data_directory() {
    let text = ok(&["query", "nim", "1", "3", "5", "7", "11"]);
    assert!(
        text.contains("take 11 from the 5th heap (11 -> 0)"),
        "{text}"
    );
    let text = ok(&[
        "query",
        "chess",
        "--search",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--nodes",
        "20000",
    ]);
    assert!(
        text.contains("win in 1 ply") && !text.contains("1 plies"),
        "{text}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("empty.toml");
    std::fs::write(&cfg, "# nothing\n").unwrap();
    let e = fails(&[
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(e.contains("the config defines no jobs"), "{e}");
    let e = fails(&["list", "--data", cfg.to_str().unwrap()]);
    assert!(e.contains("is a file, not a data directory"), "{e}");
    std::fs::create_dir_all(tmp.path().join("d/x.nmt")).unwrap();
    let text = ok(&["list", "--data", tmp.path().join("d").to_str().unwrap()]);
    assert!(
        text.contains("x.nmt") && text.contains("is a directory"),
        "{text}"
    );
}

/// For one query of every game that reads tables, against an empty data
/// directory: the hint's command names a config whose plan has the job it
/// names (so following it builds the table the query asked for).
#[test]
fn every_game_s_build_hint_names_a_job_its_config_plans() {
    let empty = tempfile::tempdir().unwrap();
    let d = empty.path().to_str().unwrap();
    let queries: &[&[&str]] = &[
        &["grundy", "5"],
        &["grundy", "5", "--misere"],
        &["octal", "0.77", "5"],
        &["half", "5"],
        &["half", "5", "--last-loses"],
        &["ttt", "........."],
        &["ttt", "--size", "4x3", "--k", "3", "............"],
        &["ttt", "--size", "3x5", "--k", "3", "..............."],
        &["guessit", "1", "1"],
        &["bridgit", "--size", "5"],
        &["bridgit", "--size", "5", "--strategy", "trees"],
        &["chess", "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"],
        &["chess", "8/8/8/4k3/8/8/4P3/KRR5 w - - 0 1"],
        &["klondike", "--report"],
    ];
    let mut plans = std::collections::HashMap::new();
    for q in queries {
        let mut args = vec!["query"];
        args.extend_from_slice(q);
        args.extend(["--data", d]);
        let o = run(&args);
        assert!(
            !o.status.success(),
            "{q:?} answered from an empty directory"
        );
        let e = stderr(&o);
        let Some(at) = e.find("to build it: nimrod build ") else {
            panic!("{q:?}: no build hint: {e}");
        };
        let cmd: Vec<&str> = e[at + "to build it: nimrod build ".len()..]
            .split_whitespace()
            .collect();
        let config = (cmd[0] == "--config").then(|| cmd[1].to_string());
        let only = cmd[cmd.iter().position(|&w| w == "--only").unwrap() + 1].to_string();
        let jobs = plans.entry(config.clone()).or_insert_with(|| {
            let mut p = vec!["plan", "--json"];
            if let Some(c) = &config {
                p.extend(["--config", c.as_str()]);
            }
            let v = json(&ok(&p));
            v["jobs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|j| j["id"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        });
        assert!(
            jobs.contains(&only),
            "{q:?}: the hint builds {only} with {config:?}, whose plan has no such job"
        );
    }
}

/// Issue 54: products of user numbers are checked, not wrapped. MENACE's
/// runs x games at 2^32 x 2^32 wrapped to 0 and `build` tried to allocate
/// 137 GB; at 2^63 - 1 it panicked. A board of 2^32 x 2^32 cells wrapped
/// to 0 cells and planning it never ended.
#[test]
fn products_of_config_numbers_are_checked_not_wrapped() {
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("c.toml");
    let data = d.path().join("data");
    for v in ["4294967296", "9223372036854775807"] {
        std::fs::write(
            &cfg,
            format!("[ttt]\nall_boards_up_to = 3\nmenace_runs = {v}\nmenace_games = {v}\n"),
        )
        .unwrap();
        for cmd in ["plan", "build"] {
            let mut args = vec![cmd, "--config", cfg.to_str().unwrap()];
            if cmd == "build" {
                args.extend(["--data", data.to_str().unwrap()]);
            }
            let e = fails(&args);
            assert!(
                e.contains(&format!("[ttt] menace_runs x menace_games = {v} x {v}")),
                "{cmd} {v}: {e}"
            );
        }
    }
    std::fs::write(&cfg, "[ttt]\nboards = [\"4294967296x4294967296k3\"]\n").unwrap();
    let start = Instant::now();
    let e = fails(&["plan", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("out of range (at most"), "{e}");
    assert!(start.elapsed() < Duration::from_secs(10));
    let e = fails(&[
        "query",
        "ttt",
        "--size",
        "4294967296x4294967296",
        "--k",
        "3",
        ".",
    ]);
    assert!(e.contains("out of range (at most"), "{e}");
}

/// Every numeric key of every game's config section at 2^32, 2^63 - 1 and
/// -1: planned (a value in range) or refused naming the section, never a
/// panic or a hang.
#[test]
fn every_numeric_config_key_at_its_extremes_is_planned_or_refused_by_name() {
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("c.toml");
    let keys = [
        ("grundy", "bound", ""),
        ("grundy", "misere_bound", ""),
        ("octal", "bound", "games = [\"0.77\"]"),
        ("half", "bound", ""),
        ("gops", "cards", ""),
        ("gops", "win_cards", "cards = 3"),
        ("ttt", "all_boards_up_to", ""),
        ("ttt", "menace_runs", ""),
        ("ttt", "menace_games", ""),
        ("guessit", "max_hand", ""),
        ("bridgit", "exhaustive_up_to", ""),
        ("bridgit", "trees_exhaustive_up_to", ""),
        ("bridgit", "random_games", ""),
        ("klondike", "greedy_deals", "rules = [\"1/unlimited\"]"),
        ("klondike", "solver_deals", "rules = [\"1/unlimited\"]"),
        ("klondike", "solver_budget", "rules = [\"1/unlimited\"]"),
        (
            "klondike",
            "nopeek_deals",
            "rules = [\"1/unlimited\"]\ngreedy_deals = 10\nsolver_deals = 1\nsolver_budget = 10",
        ),
        (
            "klondike",
            "nopeek_samples",
            "rules = [\"1/unlimited\"]\ngreedy_deals = 10\nsolver_deals = 1\nsolver_budget = 10\nnopeek_deals = 5",
        ),
        (
            "klondike",
            "nopeek_budget",
            "rules = [\"1/unlimited\"]\ngreedy_deals = 10\nsolver_deals = 1\nsolver_budget = 10\nnopeek_deals = 5",
        ),
    ];
    for (section, key, rest) in keys {
        for v in ["4294967296", "9223372036854775807", "-1"] {
            std::fs::write(&cfg, format!("[{section}]\n{key} = {v}\n{rest}\n")).unwrap();
            let start = Instant::now();
            let o = run(&["plan", "--config", cfg.to_str().unwrap()]);
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "[{section}] {key} = {v}: slow"
            );
            let err = stderr(&o);
            assert!(!err.contains("panicked"), "[{section}] {key} = {v}: {err}");
            if !o.status.success() {
                assert_eq!(o.status.code(), Some(3), "[{section}] {key} = {v}: {err}");
                assert!(
                    err.contains(&format!("[{section}]")),
                    "[{section}] {key} = {v}: {err}"
                );
            }
        }
    }
}

/// Issue 54, smaller frictions: each used to be accepted, misleading or
/// silent.
#[test]
fn frictions_of_the_command_line_are_errors_that_name_the_problem() {
    let d = tempfile::tempdir().unwrap();
    let dd = d.path().to_str().unwrap();
    // play has no --json (it was accepted and ignored).
    let o = run(&["play", "nim", "1", "2", "3", "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("'--json'"), "{}", stderr(&o));
    // play klondike has no --report or --budget (listed, did nothing).
    let help = ok(&["play", "klondike", "--help"]);
    assert!(
        !help.contains("--report") && !help.contains("--budget"),
        "{help}"
    );
    // query klondike --report refuses rule flags it would ignore.
    let o = run(&["query", "klondike", "--report", "--draw", "3", "--data", dd]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--draw"), "{}", stderr(&o));
    // Empty answers with exit 0.
    let e = fails(&[
        "query", "chess", "--sample", "0", "--table", "KQvK", "--data", dd,
    ]);
    assert!(e.contains("--sample 0"), "{e}");
    let e = fails(&["query", "guessit", "--tables", "0", "--data", dd]);
    assert!(e.contains("--tables 0"), "{e}");
    // An empty NIMROD_DATA is named, not --data.
    let o = nimrod()
        .args(["query", "grundy", "5"])
        .env("NIMROD_DATA", "")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("NIMROD_DATA is set but empty"),
        "{}",
        stderr(&o)
    );
    // MENACE moves first without being told to.
    let o = run_with_input(
        &["play", "ttt", "--machine", "menace", "--menace-games", "10"],
        "quit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("you play O"), "{}", stdout(&o));
    // pack refuses a packed file (it wrote an unreadable .zst.zst).
    let z = d.path().join("t.nmt.zst");
    std::fs::write(&z, b"whatever").unwrap();
    let e = fails(&["pack", z.to_str().unwrap()]);
    assert!(e.contains("is already packed"), "{e}");
    assert!(!d.path().join("t.nmt.zst.zst").exists());
}

/// End of input in `play` is exit 1, naming the game, for every game that
/// plays (it was 0 for chess and Klondike, 1 for the others).
#[test]
fn end_of_input_in_play_is_the_same_error_for_every_game() {
    let built = tempfile::tempdir().unwrap();
    build_small(built.path());
    let dd = built.path().to_str().unwrap();
    for args in [
        vec!["play", "nim", "3", "4", "5"],
        vec!["play", "ttt"],
        vec!["play", "gops", "--cards", "3", "--data", dd],
        vec![
            "play", "guessit", "--mine", "2", "--theirs", "2", "--data", dd,
        ],
        vec!["play", "bridgit", "--size", "3"],
        vec![
            "play",
            "chess",
            "--fen",
            "8/8/8/8/8/2k5/8/K5Q1 w - - 0 1",
            "--data",
            dd,
        ],
        vec!["play", "klondike", "--deal", "3"],
    ] {
        let o = run_with_input(&args, "");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("input ended before the game did"),
            "{args:?}: {err}"
        );
    }
}

/// A table copied over another's path: the hint names the data directory
/// (it said only `nimrod build --only ID --force`).
#[test]
fn a_swapped_table_s_hint_names_the_data_directory() {
    let built = tempfile::tempdir().unwrap();
    let d = built.path();
    build_json(&fixture("small.toml"), d, &["--only", "half"]);
    std::fs::copy(d.join("half/normal.nmt"), d.join("half/last-loses.nmt")).unwrap();
    let e = fails(&[
        "query",
        "half",
        "47",
        "--last-loses",
        "--data",
        d.to_str().unwrap(),
    ]);
    assert!(
        e.contains("holds the table of half/normal, not half/last-loses")
            && e.contains(&format!(
                "rebuild it: nimrod build --force --only half/last-loses --data {}",
                d.display()
            )),
        "{e}"
    );
}

/// The build hints lead somewhere: a GOPS size beyond the default names the
/// config that builds it, and `--only` of a job the config does not plan
/// names the shipped config that does (it listed 120 ids).
#[test]
fn hints_name_the_config_that_builds_what_is_missing() {
    let d = tempfile::tempdir().unwrap();
    let dd = d.path().to_str().unwrap();
    let e = fails(&[
        "query",
        "gops",
        "--cards",
        "12",
        "--first-move",
        "--data",
        dd,
    ]);
    assert!(
        e.contains(&format!(
            "nimrod build --config config/big.toml --only gops/n13/k12 --data {dd}"
        )),
        "{e}"
    );
    let e = fails(&[
        "query",
        "gops",
        "--cards",
        "16",
        "--first-move",
        "--data",
        dd,
    ]);
    assert!(
        e.contains("[gops] cards = 16") && e.contains("nimrod build --config FILE"),
        "{e}"
    );
    let e = fails(&["build", "--only", "chess/KRRvKR", "--data", dd]);
    assert!(
        e.contains("--only chess/KRRvKR: not a job of this config")
            && e.contains(&format!(
                "nimrod build --config config/big.toml --only chess/KRRvKR --data {dd}"
            )),
        "{e}"
    );
    assert!(!e.contains("grundy/values"), "lists ids: {e}");
}

/// `info` on a chess table states what byte 255 means (the stored
/// description calls it "no position").
#[test]
fn info_states_the_chess_encoding_from_code() {
    let built = tempfile::tempdir().unwrap();
    let d = built.path();
    build_json(&fixture("small.toml"), d, &["--only", "chess/KQvK"]);
    let t = d.join("chess/KQvK.nmt");
    let text = ok(&["info", t.to_str().unwrap()]);
    assert!(
        text.contains("255 mated in 127") && !text.contains("255 no position"),
        "{text}"
    );
    let v = json(&ok(&["info", t.to_str().unwrap(), "--json"]));
    assert!(
        v["entry"].as_str().unwrap().contains("255 mated in 127"),
        "{v}"
    );
}

/// `slurm --submit` shows sbatch's own error (it said "cannot parse
/// integer from empty string").
#[test]
fn a_failing_sbatch_s_own_words_are_shown() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let sbatch = bin.join("sbatch");
    std::fs::write(
        &sbatch,
        "#!/bin/sh\necho 'sbatch: error: invalid partition specified: nowhere' >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cfg = d.path().join("c.toml");
    std::fs::write(&cfg, "[half]\nbound = 100\n").unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let o = nimrod()
        .args([
            "slurm",
            "--config",
            cfg.to_str().unwrap(),
            "--data",
            d.path().join("data").to_str().unwrap(),
            "--partition",
            "nowhere",
            "--submit",
        ])
        .env("PATH", path)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("invalid partition specified: nowhere"),
        "{err}"
    );
    assert!(!err.contains("cannot parse integer"), "{err}");
}

/// A packed table with one damaged frame: `list` said `ok` (it only opened
/// it); after the build repaired it as a raw table, the damaged `.zst`
/// stayed beside it and `verify` of the directory stayed red.
#[test]
fn a_repaired_table_leaves_no_damaged_packed_copy_and_list_agrees_with_verify() {
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("h.toml");
    std::fs::write(&cfg, "[half]\nbound = 1048576\n").unwrap();
    let data = d.path().join("data");
    let dd = data.to_str().unwrap();
    build_json(&cfg, &data, &[]);
    let raw = data.join("half/normal.nmt");
    ok(&["pack", "--remove", raw.to_str().unwrap()]);
    let packed = data.join("half/normal.nmt.zst");
    let mut bytes = std::fs::read(&packed).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&packed, &bytes).unwrap();
    let row = |args: &[&str]| -> serde_json::Value {
        json(&ok(args))
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["path"] == "half/normal.nmt.zst")
            .cloned()
            .unwrap()
    };
    assert_eq!(row(&["list", "--data", dd, "--json"])["state"], "bad");
    assert_eq!(
        row(&["list", "--data", dd, "--json", "--quick"])["state"],
        "opens"
    );
    assert!(!run(&["verify", "--data", dd]).status.success());
    let out = nimrod()
        .args(["build", "--config", cfg.to_str().unwrap(), "--data", dd])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("removed") && stderr(&out).contains("normal.nmt.zst"),
        "{}",
        stderr(&out)
    );
    assert!(raw.exists() && !packed.exists());
    ok(&["verify", "--data", dd]);
}

/// Issue 59: a game's failure says what kind it is, by exit code and by a
/// JSON `kind`: bad input 3, a missing table 4, a damaged (or swapped)
/// table 5, anything else 1 (usage errors stay clap's 2).
#[test]
fn error_kinds_have_their_own_exit_codes_and_json_kinds() {
    let built = tempfile::tempdir().unwrap();
    let d = built.path();
    build_json(&fixture("small.toml"), d, &["--only", "half"]);
    let data = d.to_str().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let none = empty.path().to_str().unwrap();
    let cases: &[(&[&str], u8, &str, &str)] = &[
        (
            &["query", "nim", "1", "2", "--k", "0"],
            3,
            "input",
            "--k must be at least 1",
        ),
        (
            &["query", "half", "999999999", "--data", data],
            3,
            "input",
            "beyond the",
        ),
        (
            &["query", "chess", "8/8/8/8/8/8/8/8 w - - 0 1"],
            3,
            "input",
            "FEN",
        ),
        (
            &["query", "half", "5", "--data", none],
            4,
            "table_missing",
            "to build it",
        ),
        (
            &["query", "grundy", "5", "--data", none],
            4,
            "table_missing",
            "not found",
        ),
    ];
    for (args, code, kind, needle) in cases {
        let o = run(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(i32::from(*code)), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        let mut with_json = args.to_vec();
        with_json.push("--json");
        let o = run(&with_json);
        assert_eq!(o.status.code(), Some(i32::from(*code)), "{args:?} --json");
        let v = json(stderr(&o).trim());
        assert_eq!(v["kind"], *kind, "{args:?}: {v}");
    }
    // A config the planners refuse, or no config at all, is bad input for
    // every command that reads one.
    let cfg = empty.path().join("bad.toml");
    std::fs::write(&cfg, "[chess]\npieces = [9]\n").unwrap();
    let (cfg, missing) = (
        cfg.to_str().unwrap(),
        empty.path().join("none.toml").display().to_string(),
    );
    for (args, needle) in [
        (vec!["plan", "--config", cfg], "[chess] pieces = 9"),
        (
            vec!["build", "--config", cfg, "--data", none],
            "[chess] pieces = 9",
        ),
        (
            vec!["slurm", "--config", cfg, "--data", none],
            "[chess] pieces = 9",
        ),
        (vec!["plan", "--config", &missing], "cannot read config"),
    ] {
        let o = run(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // A table in another job's place is damaged for this one.
    std::fs::copy(d.join("half/normal.nmt"), d.join("half/last-loses.nmt")).unwrap();
    let o = run(&[
        "query",
        "half",
        "47",
        "--last-loses",
        "--data",
        data,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    let v = json(stderr(&o).trim());
    assert_eq!(v["kind"], "table_damaged", "{v}");
    assert!(v["error"].as_str().unwrap().contains("rebuild it"), "{v}");
    // Damaged bytes: the payload's checksum catches them.
    let mut bytes = std::fs::read(d.join("half/normal.nmt")).unwrap();
    let at = bytes.len() - 9;
    bytes[at] ^= 0x10;
    std::fs::write(d.join("half/normal.nmt"), &bytes).unwrap();
    let o = run(&["query", "half", "47", "--data", data, "--json"]);
    let v = json(stderr(&o).trim());
    assert_eq!(o.status.code(), Some(5), "{v}");
    assert_eq!(v["kind"], "table_damaged", "{v}");
}
