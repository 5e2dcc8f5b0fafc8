//! The build promises: determinism across thread counts, resumption after
//! SIGKILL without rebuilding finished tables, atomic writes, --force.

mod common;
use common::*;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[test]
fn one_and_two_threads_give_identical_bytes() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let cfg = fixture("small.toml");
    for (dir, t) in [(a.path(), "1"), (b.path(), "2")] {
        ok(&[
            "build",
            "--config",
            cfg.to_str().unwrap(),
            "--data",
            dir.to_str().unwrap(),
            "--threads",
            t,
        ]);
    }
    let (sa, sb) = (snapshot(a.path()), snapshot(b.path()));
    assert_eq!(
        sa.len(),
        47,
        "{:?}",
        sa.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    assert_eq!(sa, sb);
    // Under a memory budget smaller than any estimate, every job with one
    // runs alone (beside jobs without one): the same bytes, and the build
    // says which job waited.
    let budgeted = |dir: &Path, threads: &str| {
        let o = run(&[
            "build",
            "--config",
            cfg.to_str().unwrap(),
            "--data",
            dir.to_str().unwrap(),
            "--threads",
            threads,
            "--memory",
            "1K",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(sa, snapshot(dir));
        stderr(&o)
    };
    let c = tempfile::tempdir().unwrap();
    let err = budgeted(c.path(), "2");
    assert!(
        err.contains("octal/0.137: waits for memory: its estimate is 3.9 KiB"),
        "{err}"
    );
    // With one thread a job queued behind a running one waits for the
    // thread, not for memory, and is not said to.
    let d = tempfile::tempdir().unwrap();
    let err = budgeted(d.path(), "1");
    assert!(!err.contains("waits for memory"), "{err}");
    let e = fails(&[
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        c.path().to_str().unwrap(),
        "--memory",
        "20GB",
    ]);
    assert!(e.contains("--memory \"20GB\" is not a memory size"), "{e}");
}

#[test]
fn rerun_skips_current_tables_and_force_rebuilds_them() {
    let d = tempfile::tempdir().unwrap();
    build_small(d.path());
    let again = ok(&[
        "build",
        "--config",
        fixture("small.toml").to_str().unwrap(),
        "--data",
        d.path().to_str().unwrap(),
        "--json",
    ]);
    let v = json(&again);
    assert!(
        v["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|j| j["state"] == "skipped"),
        "{again}"
    );
    let v = build_json(
        &fixture("small.toml"),
        d.path(),
        &["--force", "--only", "octal/0.77"],
    );
    assert_eq!(v["jobs"].as_array().unwrap().len(), 1);
    assert_eq!(v["jobs"][0]["state"], "built");
}

#[test]
fn only_pulls_in_dependencies() {
    let d = tempfile::tempdir().unwrap();
    let ids: Vec<String> = build_json(&fixture("small.toml"), d.path(), &["--only", "grundy/rare"])
        ["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["job"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["grundy/values", "grundy/rare"]);
}

#[test]
fn a_changed_parameter_invalidates_only_its_tables() {
    let d = tempfile::tempdir().unwrap();
    build_small(d.path());
    let cfg = d.path().join("changed.toml");
    let text = std::fs::read_to_string(fixture("small.toml"))
        .unwrap()
        .replace("bound = 10000", "bound = 10001");
    std::fs::write(&cfg, text).unwrap();
    let v = json(&ok(&[
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        d.path().to_str().unwrap(),
        "--json",
    ]));
    for j in v["jobs"].as_array().unwrap() {
        let expect = if j["job"].as_str().unwrap().starts_with("half/") {
            "built"
        } else {
            "skipped"
        };
        assert_eq!(j["state"], expect, "{j}");
    }
}

fn inode_and_mtime(p: &Path) -> (u64, i64, i64) {
    let m = std::fs::metadata(p).unwrap();
    (m.ino(), m.mtime(), m.mtime_nsec())
}

#[test]
fn killed_build_resumes_to_identical_tables_without_redoing_finished_ones() {
    let cfg = fixture("slow.toml");
    let reference = tempfile::tempdir().unwrap();
    ok(&[
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        reference.path().to_str().unwrap(),
        "--threads",
        "2",
    ]);
    let expected = snapshot(reference.path());
    assert_eq!(expected.len(), 8);

    let d = tempfile::tempdir().unwrap();
    let mut child = nimrod()
        .args([
            "build",
            "--config",
            cfg.to_str().unwrap(),
            "--data",
            d.path().to_str().unwrap(),
            "--threads",
            "1",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill as soon as some table is finished while the slow one is not.
    let values = d.path().join("grundy/values.nmt");
    let start = Instant::now();
    loop {
        let done = snapshot_names(d.path());
        if !done.is_empty() && !values.exists() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "build never reached a midway state"
        );
        assert!(
            child.try_wait().unwrap().is_none() || values.exists(),
            "build ended too early"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // SIGKILL: no chance to clean up.
    child.kill().unwrap();
    child.wait().unwrap();
    let finished = snapshot_names(d.path());
    assert!(
        !finished.is_empty() && finished.len() < expected.len(),
        "killed midway: {finished:?}"
    );
    let stamps: Vec<_> = finished
        .iter()
        .map(|n| inode_and_mtime(&d.path().join(n)))
        .collect();
    for (name, bytes) in snapshot(d.path()) {
        // Whatever exists under a final name is complete and correct.
        assert_eq!(
            Some(&bytes),
            expected.iter().find(|e| e.0 == name).map(|e| &e.1),
            "{name}"
        );
    }

    let out = ok(&[
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        d.path().to_str().unwrap(),
        "--threads",
        "2",
        "--json",
    ]);
    let v = json(&out);
    for j in v["jobs"].as_array().unwrap() {
        let name = format!("{}.nmt", j["job"].as_str().unwrap());
        let expect = if finished.contains(&name) {
            "skipped"
        } else {
            "built"
        };
        assert_eq!(j["state"], expect, "{name}: {out}");
    }
    for (n, s) in finished.iter().zip(&stamps) {
        assert_eq!(&inode_and_mtime(&d.path().join(n)), s, "{n} was rewritten");
    }
    assert_eq!(snapshot(d.path()), expected);
}

fn snapshot_names(dir: &Path) -> Vec<String> {
    snapshot(dir).into_iter().map(|(n, _)| n).collect()
}

#[test]
fn a_second_build_of_a_job_waits_for_the_first_and_a_killed_build_leaves_no_temporaries() {
    let cfg = fixture("slow.toml");
    let d = tempfile::tempdir().unwrap();
    let args = [
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        d.path().to_str().unwrap(),
        "--threads",
        "1",
    ];
    let mut first = nimrod()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The slow job's lock: the first build is building it.
    let lock = d.path().join(".locks/grundy/values.lock");
    let start = Instant::now();
    while std::fs::read_to_string(&lock).map_or(true, |s| s.trim().is_empty()) {
        assert!(start.elapsed() < Duration::from_secs(60), "no lock taken");
        std::thread::sleep(Duration::from_millis(5));
    }
    // The second plain build waits for the job the first holds (both
    // used to fail, each on the other's job), saying so and naming it.
    let mut second = nimrod()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let said = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let said = said.clone();
        let mut err = second.stderr.take().unwrap();
        std::thread::spawn(move || {
            use std::io::Read;
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                said.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        })
    };
    let waiting = format!(
        "job grundy/values in {} is being built by another nimrod build (pid {}); waiting for it",
        d.path().display(),
        first.id()
    );
    let start = Instant::now();
    while !said.lock().unwrap().contains(&waiting) {
        assert!(
            second.try_wait().unwrap().is_none(),
            "the second build ended instead of waiting: {}",
            said.lock().unwrap()
        );
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no wait announced: {}",
            said.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first build finished before the second waited: the test checks nothing"
    );
    // The first is killed mid-job: the kernel frees its lock, and the
    // waiting build takes the job over and finishes it.
    first.kill().unwrap();
    first.wait().unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = second.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the second build hangs"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    reader.join().unwrap();
    assert!(status.success(), "{}", said.lock().unwrap());
    ok(&["verify", d.path().to_str().unwrap()]);
    // Those two rebuilt below by a build that finds their temporaries.
    for t in ["half/normal.nmt", "grundy/values.nmt"] {
        std::fs::remove_file(d.path().join(t)).unwrap();
    }
    // What a killed writer leaves, plus a leftover of a failed pack.
    std::fs::create_dir_all(d.path().join("half")).unwrap();
    let stale = [
        d.path().join("half/normal.nmt.tmp"),
        d.path().join("grundy/values.nmt.tmp"),
    ];
    for s in &stale {
        std::fs::create_dir_all(s.parent().unwrap()).unwrap();
        std::fs::write(s, b"NIMRODTB half-written").unwrap();
    }
    let mut rerun = args[..5].to_vec();
    rerun.extend(["--threads", "2", "--json"]);
    let v = json(&ok(&rerun));
    let removed: Vec<&str> = v["removed_temporaries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    for s in &stale {
        assert!(removed.contains(&s.to_str().unwrap()), "{removed:?}");
    }
    let left = files_with_extension(d.path(), "tmp");
    assert!(left.is_empty(), "temporaries left: {left:?}");
    ok(&["verify", d.path().to_str().unwrap()]);
}

#[test]
fn force_with_only_rebuilds_the_named_job_alone_unless_asked_for_its_dependencies() {
    let d = tempfile::tempdir().unwrap();
    let small = fixture("small.toml");
    build_json(&small, d.path(), &["--only", "grundy/rare"]);
    let states = |extra: &[&str]| -> Vec<(String, String)> {
        build_outcomes(&small, d.path(), extra)
            .into_iter()
            .map(|(job, state, _)| (job, state))
            .collect()
    };
    let pair = |a: &str, b: &str| {
        vec![
            ("grundy/values".to_string(), a.to_string()),
            ("grundy/rare".to_string(), b.to_string()),
        ]
    };
    assert_eq!(
        states(&["--force", "--only", "grundy/rare"]),
        pair("skipped", "built")
    );
    assert_eq!(
        states(&["--force", "--force-deps", "--only", "grundy/rare"]),
        pair("built", "built")
    );
    // A dependency is opened (header, metadata and block sums checked), not
    // read in full: a damaged payload byte surfaces when the job reads its
    // block, as a failure naming the table, never as a wrong table.
    let values = d.path().join("grundy/values.nmt");
    let h = nimrod::table::Table::open(&values)
        .unwrap()
        .header()
        .clone();
    let mut bytes = std::fs::read(&values).unwrap();
    bytes[h.payload.offset as usize + 3] ^= 0x40;
    std::fs::write(&values, &bytes).unwrap();
    let o = run(&[
        "build",
        "--config",
        small.to_str().unwrap(),
        "--data",
        d.path().to_str().unwrap(),
        "--force",
        "--only",
        "grundy/rare",
    ]);
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!o.status.success(), "{all}");
    assert!(all.contains("grundy/values"), "{all}");
    assert!(!all.contains("panicked"), "{all}");
}

/// Two builds of different jobs share one data directory (as two Slurm
/// array tasks would): both finish, and the tables are those of one build.
#[test]
fn two_builds_of_different_jobs_run_at_once_in_one_directory() {
    let cfg = fixture("slow.toml");
    let d = tempfile::tempdir().unwrap();
    let args = |only: &'static str| {
        vec![
            "build".to_string(),
            "--config".into(),
            cfg.to_str().unwrap().into(),
            "--data".into(),
            d.path().to_str().unwrap().into(),
            "--threads".into(),
            "1".into(),
            "--only".into(),
            only.into(),
        ]
    };
    let mut slow = nimrod().args(args("grundy")).spawn().unwrap();
    let quick = nimrod().args(args("octal")).output().unwrap();
    assert!(
        slow.try_wait().unwrap().is_none(),
        "the slow build finished first: the test checks nothing"
    );
    assert!(quick.status.success(), "{}", stderr(&quick));
    assert!(slow.wait().unwrap().success());
    let together = snapshot(d.path());
    let apart = tempfile::tempdir().unwrap();
    build_json(&cfg, apart.path(), &["--only", "grundy", "--only", "octal"]);
    assert_eq!(together, snapshot(apart.path()));
}

/// `nimrod plan`: the jobs in dependency order, and where a job has an
/// estimate, its entries and output bytes are those of the table the build
/// then writes (GOPS score levels and chess tables).
#[test]
fn plan_lists_the_jobs_in_order_with_estimates_the_build_meets() {
    let small = fixture("small.toml");
    let plan = json(&ok(&[
        "plan",
        "--config",
        small.to_str().unwrap(),
        "--json",
    ]));
    let jobs = plan["jobs"].as_array().unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for j in jobs {
        for d in j["deps"].as_array().unwrap() {
            assert!(
                seen.contains(d.as_str().unwrap()),
                "{j} before its dependency"
            );
        }
        seen.insert(j["id"].as_str().unwrap().to_string());
        let id = j["id"].as_str().unwrap();
        let splits = id.starts_with("gops/") || id.starts_with("klondike/solvitaire-");
        assert_eq!(
            j["shardable"], splits,
            "{j}: only GOPS levels and Solvitaire seed ranges split"
        );
    }
    let d = tempfile::tempdir().unwrap();
    build_small(d.path());
    let mut checked = 0;
    for j in jobs.iter().filter(|j| !j["estimate"].is_null()) {
        let id = j["id"].as_str().unwrap();
        let t = nimrod::table::Table::open(&d.path().join(format!("{id}.nmt"))).unwrap();
        assert_eq!(j["estimate"]["entries"], t.len(), "{id}");
        assert_eq!(
            j["estimate"]["output_bytes"],
            t.header().payload.len,
            "{id}"
        );
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} estimates checked");
    let text = ok(&["plan", "--config", small.to_str().unwrap()]);
    assert!(
        text.contains("gops/n06/k03") && text.contains("matrix games of 3 x 3"),
        "{text}"
    );
}

/// A dependency is needed only when a job that runs reads it: once a level
/// is built, the levels below it may be deleted to free disk, and building
/// the levels above does not bring them back. A plain build (every job
/// asked for) does.
#[test]
fn a_deleted_level_below_a_current_one_is_not_rebuilt_for_the_levels_above() {
    let d = tempfile::tempdir().unwrap();
    let small = fixture("small.toml");
    // (job, "state: detail"), for prefix checks.
    let states = |extra: &[&str]| -> Vec<(String, String)> {
        build_outcomes(&small, d.path(), extra)
            .into_iter()
            .map(|(job, state, detail)| (job, format!("{state}: {detail}")))
            .collect()
    };
    build_json(&small, d.path(), &["--only", "gops/n06/k06"]);
    let level = |k: u32| d.path().join(format!("gops/n06/k{k:02}.nmt"));
    let top = std::fs::read(level(6)).unwrap();
    for k in [1, 2, 3, 6] {
        std::fs::remove_file(level(k)).unwrap();
    }
    let got = states(&["--only", "gops/n06/k06"]);
    let state = |id: &str| got.iter().find(|(j, _)| j == id).unwrap().1.clone();
    assert!(state("gops/n06/k06").starts_with("built:"), "{got:?}");
    assert!(
        state("gops/n06/k05").starts_with("skipped: up to date"),
        "{got:?}"
    );
    for k in ["k01", "k02", "k03", "k04"] {
        assert!(
            state(&format!("gops/n06/{k}")).starts_with("skipped: not needed"),
            "{got:?}"
        );
    }
    assert!(!level(1).exists() && !level(2).exists() && !level(3).exists());
    assert_eq!(
        std::fs::read(level(6)).unwrap(),
        top,
        "the rebuilt level differs"
    );
    // A level whose readers are current is not needed even when asked for
    // the level above, current itself: nothing is opened below it.
    std::fs::remove_file(level(5)).unwrap();
    let got = states(&["--only", "gops/n06/k06"]);
    assert!(
        got.iter().all(
            |(id, s)| id == "gops/n06/k06" && s.starts_with("skipped: up to date")
                || s.starts_with("skipped: not needed")
        ),
        "{got:?}"
    );
    // Every job asked for: the missing levels are built again, same bytes.
    let every_level: Vec<String> = (1..=6).map(|k| format!("gops/n06/k{k:02}")).collect();
    let mut args = Vec::new();
    for id in &every_level {
        args.extend(["--only", id.as_str()]);
    }
    let got = states(&args);
    for k in [1, 2, 3, 5] {
        assert!(level(k).exists(), "level {k} not rebuilt: {got:?}");
    }
    let fresh = tempfile::tempdir().unwrap();
    build_json(&small, fresh.path(), &["--only", "gops/n06/k06"]);
    assert_eq!(
        snapshot(&d.path().join("gops/n06")),
        snapshot(&fresh.path().join("gops/n06"))
    );
}

/// `nimrod build --only id` of `cfg` into `dir`, saving its state every
/// `minutes` (0: as often as it can).
fn build_saving_every(
    cfg: &Path,
    dir: &Path,
    id: &str,
    threads: &str,
    minutes: &str,
) -> std::process::Command {
    let mut c = nimrod();
    c.args(["build", "--config", cfg.to_str().unwrap(), "--data"])
        .arg(dir)
        .args(["--only", id, "--threads", threads])
        .env("NIMROD_CHECKPOINT_MINUTES", minutes);
    c
}

/// Spawns `build` (saving as often as it can) and SIGKILLs it once a state
/// has been saved and some more values computed; returns the state's path.
fn kill_after_a_save(mut build: std::process::Command, table: &Path, id: &str) -> PathBuf {
    let state = nimrod::pipeline::checkpoint::path_beside(table);
    let mut child = build
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Ok(m) = std::fs::metadata(&state) {
            if m.modified().unwrap().elapsed().unwrap_or_default() > Duration::from_millis(30) {
                break;
            }
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "{id}: the build ended before it was killed"
        );
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{id}: no state saved"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!table.exists(), "{id}: killed after it finished");
    assert!(state.exists(), "{id}: no state");
    state
}

/// Builds `id` of the config `toml` once in one go, then again killed
/// (SIGKILL) after its first saves and rerun: the rerun resumes from the
/// checkpoint, writes the same bytes, and leaves no state behind. `also`
/// names files besides the checkpoint the killed build must have left.
fn a_killed_build_resumes(toml: &str, id: &str, table: &str, also: &[&str]) {
    let cfgdir = tempfile::tempdir().unwrap();
    let cfg = cfgdir.path().join("c.toml");
    std::fs::write(&cfg, toml).unwrap();
    let build = |dir: &Path, threads: &str, minutes: &str| {
        build_saving_every(&cfg, dir, id, threads, minutes)
    };
    let reference = tempfile::tempdir().unwrap();
    let o = build(reference.path(), "1", "600").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let expected = std::fs::read(reference.path().join(table)).unwrap();

    let d = tempfile::tempdir().unwrap();
    let table = d.path().join(table);
    let state = kill_after_a_save(build(d.path(), "2", "0"), &table, id);
    for f in also {
        assert!(d.path().join(f).exists(), "{id}: {f} missing");
    }

    let o = build(d.path(), "1", "600").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let log = format!("{}{}", stdout(&o), stderr(&o));
    assert!(log.contains("resumed at heap"), "{log}");
    assert!(
        std::fs::read(&table).unwrap() == expected,
        "{id}: the resumed table differs from one built in one go"
    );
    assert!(!state.exists(), "{id}: the state outlives the table");
    for f in also {
        assert!(!d.path().join(f).exists(), "{id}: {f} outlives the table");
    }
    ok(&["verify", d.path().to_str().unwrap()]);
}

#[test]
fn a_killed_streaming_grundy_build_resumes_from_its_checkpoint_to_the_same_bytes() {
    a_killed_build_resumes(
        "[grundy]\nbound = 3000000\nmode = \"streaming\"\nwindow = 131072\n",
        "grundy/values",
        "grundy/values.nmt",
        &["grundy/values.nmt.partial"],
    );
}

/// `nimrod info` of a killed streaming build's state gives the statistics
/// of the heaps it holds, as counted from the finished table's values.
#[test]
fn info_on_a_saved_grundy_state_shows_what_it_has_solved() {
    let cfgdir = tempfile::tempdir().unwrap();
    let cfg = cfgdir.path().join("c.toml");
    std::fs::write(
        &cfg,
        "[grundy]\nbound = 3000000\nmode = \"streaming\"\nwindow = 131072\n",
    )
    .unwrap();
    let id = "grundy/values";
    let reference = tempfile::tempdir().unwrap();
    let o = build_saving_every(&cfg, reference.path(), id, "1", "600")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let t = nimrod::Table::open(&reference.path().join("grundy/values.nmt")).unwrap();
    let all = nimrod::games::grundy::GrundyValues::new(&t)
        .unwrap()
        .read(0, t.len())
        .unwrap()
        .into_owned();

    let d = tempfile::tempdir().unwrap();
    let table = d.path().join("grundy/values.nmt");
    let state = kill_after_a_save(build_saving_every(&cfg, d.path(), id, "2", "0"), &table, id);
    let path = state.to_str().unwrap();
    let j: serde_json::Value = serde_json::from_str(&ok(&["info", path, "--json"])).unwrap();
    let next = j["next_heap"].as_u64().unwrap();
    assert!((4096..3_000_000).contains(&next), "resumes at {next}");
    let held = &all[..next as usize];
    let max = *held.iter().max().unwrap();
    let first_max = held.iter().position(|&v| v == max).unwrap();
    let rare: Vec<usize> = (0..held.len())
        .filter(|&n| nimrod::games::grundy::rare::is_rare_value(held[n]))
        .collect();
    let zeros: Vec<usize> = (0..held.len()).filter(|&n| held[n] == 0).collect();
    let mut distinct = held.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let stats = &j["stats"];
    assert_eq!(stats["bound"], next - 1);
    assert_eq!(stats["max_value"], max);
    assert_eq!(stats["max_value_first_heap"], first_max);
    assert_eq!(stats["rare_count"], rare.len());
    assert_eq!(stats["last_rare_heap"], *rare.last().unwrap());
    assert_eq!(stats["zero_count"], zeros.len());
    assert_eq!(stats["last_zero_heap"], *zeros.last().unwrap());
    assert_eq!(
        stats["first_heaps"].as_array().unwrap().len(),
        distinct.len()
    );
    let text = ok(&["info", path]);
    assert!(
        text.contains(&format!("resumes at heap {next}"))
            && text.contains(&format!("value {max}, first at heap {first_max}")),
        "{text}"
    );
    // `nimrod plan --data` says a build goes on from that heap, and what
    // is left; with another window, that the state is not used.
    let values = plan_on_disk(&cfg, d.path(), "grundy/values");
    assert_eq!(values["on_disk"]["state"], "started", "{values}");
    assert_eq!(values["on_disk"]["work_done"], next, "{values}");
    let from = values["on_disk"]["from"].as_str().unwrap();
    assert!(
        from.starts_with(&format!("its saved state at heap {next}")),
        "{from}"
    );
    let left = values["on_disk"]["cpu_seconds_left"]["typical"]
        .as_f64()
        .unwrap();
    let whole = values["estimate"]["cpu_seconds"]["typical"]
        .as_f64()
        .unwrap();
    assert!(left > 0.0 && left < whole, "{values}");
    let misere = plan_on_disk(&cfg, d.path(), "grundy/misere");
    assert_eq!(misere["on_disk"]["state"], "not_started", "{misere}");
    let text = ok(&[
        "plan",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        d.path().to_str().unwrap(),
    ]);
    assert!(
        text.contains(&format!(
            "on disk: goes on from its saved state at heap {next}"
        )) && text.contains("left to build: 3 of 3 jobs (1 of them started)"),
        "{text}"
    );
    let wider = cfgdir.path().join("wider.toml");
    std::fs::write(
        &wider,
        "[grundy]\nbound = 3000000\nmode = \"streaming\"\nwindow = 262144\n",
    )
    .unwrap();
    let values = plan_on_disk(&wider, d.path(), "grundy/values");
    assert_eq!(values["on_disk"]["state"], "not_started", "{values}");
    let why = values["on_disk"]["why"].as_str().unwrap();
    assert!(
        why.starts_with("saved state not used") && why.contains("other parameters"),
        "{why}"
    );
    let err = fails(&["plan", "--data", "/nonexistent/nimrod-data"]);
    assert!(err.contains("/nonexistent/nimrod-data"), "{err}");

    // A damaged state is refused, named; so is a file of another kind.
    info_refuses_a_damaged_copy(&state, d.path());
    let other = d.path().join("other.checkpoint");
    std::fs::write(&other, [&b"NMFOREIG"[..], &[0u8; 32]].concat()).unwrap();
    let err = fails(&["info", other.to_str().unwrap()]);
    assert!(
        err.contains("other.checkpoint") && err.contains("not a saved state"),
        "{err}"
    );
    // An octal state cut short is refused as such, named.
    let short = d.path().join("short.checkpoint");
    std::fs::write(&short, b"NMOCTSPA and more").unwrap();
    let err = fails(&["info", short.to_str().unwrap()]);
    assert!(
        err.contains("short.checkpoint") && err.contains("cut short"),
        "{err}"
    );
}

/// `nimrod info` of a killed octal build's state gives the statistics of
/// the heaps it holds, as counted from the finished table's values.
#[test]
fn info_on_a_saved_octal_state_shows_what_it_has_solved() {
    let cfgdir = tempfile::tempdir().unwrap();
    let cfg = cfgdir.path().join("c.toml");
    // 0.161 stays sparse (no period): the solve runs to the bound.
    std::fs::write(&cfg, "[octal]\ngames = [\"0.161\"]\nbound = 1000000\n").unwrap();
    let id = "octal/0.161";
    let reference = tempfile::tempdir().unwrap();
    let o = build_saving_every(&cfg, reference.path(), id, "1", "600")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let t = nimrod::Table::open(&reference.path().join("octal/0.161.nmt")).unwrap();
    let all = t.read_range::<u16>(0, t.len()).unwrap();

    let d = tempfile::tempdir().unwrap();
    let table = d.path().join("octal/0.161.nmt");
    let state = kill_after_a_save(build_saving_every(&cfg, d.path(), id, "1", "0"), &table, id);
    let path = state.to_str().unwrap();
    let j: serde_json::Value = serde_json::from_str(&ok(&["info", path, "--json"])).unwrap();
    assert_eq!(j["job"], id);
    assert_eq!(j["code"], "0.161");
    let next = j["next_heap"].as_u64().unwrap();
    assert!((65_536..1_000_000).contains(&next), "resumes at {next}");
    // `nimrod plan --data`: a build goes on from that heap; to a bound
    // below it, the state is not used.
    let planned = plan_on_disk(&cfg, d.path(), id);
    assert_eq!(planned["on_disk"]["state"], "started", "{planned}");
    assert_eq!(planned["on_disk"]["work_done"], next, "{planned}");
    let short = cfgdir.path().join("short.toml");
    std::fs::write(
        &short,
        format!("[octal]\ngames = [\"0.161\"]\nbound = {}\n", next - 1),
    )
    .unwrap();
    let planned = plan_on_disk(&short, d.path(), id);
    assert_eq!(planned["on_disk"]["state"], "not_started", "{planned}");
    assert!(
        planned["on_disk"]["why"]
            .as_str()
            .unwrap()
            .contains(&format!("saved at heap {next}, past what this solve")),
        "{planned}"
    );
    let held = &all[..next as usize];
    let stats = &j["stats"];
    let max = *held.iter().max().unwrap();
    assert_eq!(stats["mex_heaps"], next);
    assert_eq!(stats["max_value"], max);
    assert_eq!(
        stats["max_value_first_heap"],
        held.iter().position(|&v| v == max).unwrap()
    );
    let zeros: Vec<usize> = (0..held.len()).filter(|&n| held[n] == 0).collect();
    assert_eq!(stats["zero_count"], zeros.len());
    assert_eq!(j["last_zero_heap"], *zeros.last().unwrap());
    let mut distinct = held.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(j["values"], distinct.len());
    // Rare under the saved mask: the masked value's parity is 0 (range
    // kind), or that of n − 2 (domain kind; 0.161 splits only after
    // taking 2).
    let mask = stats["mask"].as_u64().unwrap() as u16;
    let domain = stats["domain"].as_bool().unwrap();
    assert!(mask != 0 && stats["dense"] == false, "{stats}");
    let rare: Vec<usize> = (1..held.len())
        .filter(|&n| {
            let p = (held[n] & mask).count_ones() as usize % 2;
            p == if domain { n % 2 } else { 0 }
        })
        .collect();
    assert_eq!(stats["rare_heaps"], rare.len());
    assert_eq!(stats["last_rare_heap"], *rare.last().unwrap());
    let text = ok(&["info", path]);
    assert!(
        text.contains("saved state of octal/0.161")
            && text.contains(&format!("resumes at heap {next}"))
            && text.contains(&format!("{} heaps under mask {mask}", rare.len())),
        "{text}"
    );

    info_refuses_a_damaged_copy(&state, d.path());
}

/// `nimrod info` of `state` with one bit flipped mid-file fails, naming it.
fn info_refuses_a_damaged_copy(state: &Path, dir: &Path) {
    let mut bytes = std::fs::read(state).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    let damaged = dir.join("damaged.checkpoint");
    std::fs::write(&damaged, &bytes).unwrap();
    let err = fails(&["info", damaged.to_str().unwrap()]);
    assert!(err.contains("damaged.checkpoint"), "{err}");
}

#[test]
fn a_killed_octal_build_resumes_from_its_checkpoint_to_the_same_bytes() {
    // 0.161 stays sparse (no period): the solve runs to the bound.
    a_killed_build_resumes(
        "[octal]\ngames = [\"0.161\"]\nbound = 1000000\n",
        "octal/0.161",
        "octal/0.161.nmt",
        &[],
    );
}

#[test]
fn a_killed_one_byte_grundy_build_resumes_with_the_same_codes() {
    // The codes are the values' order of first appearance: the resumed
    // build must recover that order from the saved statistics.
    a_killed_build_resumes(
        "[grundy]\nbound = 3000000\nmode = \"streaming\"\nwindow = 131072\nwidth = 8\n",
        "grundy/values",
        "grundy/values.nmt",
        &["grundy/values.nmt.partial"],
    );
}

/// A finished streaming build keeps the last state it could resume from;
/// a build of the same data directory to a larger bound goes on from it
/// instead of starting over, and writes the bytes a build to that bound in
/// one go writes. A kept state of other parameters (another window) is
/// not used.
#[test]
fn a_finished_streaming_grundy_table_extends_to_a_larger_bound_to_the_same_bytes() {
    let cfgdir = tempfile::tempdir().unwrap();
    let config = |name: &str, bound: u64, window: u64| {
        let cfg = cfgdir.path().join(format!("{name}.toml"));
        std::fs::write(
            &cfg,
            format!(
                "[grundy]\nbound = {bound}\nmode = \"streaming\"\nwindow = {window}\nwidth = 8\n"
            ),
        )
        .unwrap();
        cfg
    };
    let (small, big) = (
        config("small", 1_000_000, 131072),
        config("big", 3_000_000, 131072),
    );
    let build = |cfg: &Path, dir: &Path| {
        let o = build_saving_every(cfg, dir, "grundy/values", "2", "600")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        format!("{}{}", stdout(&o), stderr(&o))
    };
    let reference = tempfile::tempdir().unwrap();
    build(&big, reference.path());
    let expected = std::fs::read(reference.path().join("grundy/values.nmt")).unwrap();

    let d = tempfile::tempdir().unwrap();
    let table = d.path().join("grundy/values.nmt");
    let kept = d.path().join("grundy/values.nmt.extend");
    let log = build(&small, d.path());
    assert!(
        log.contains("last state before the end saved at heap"),
        "{log}"
    );
    assert!(
        kept.exists(),
        "no state kept beside the finished table: {log}"
    );
    assert!(!nimrod::pipeline::checkpoint::path_beside(&table).exists());
    let small_len = nimrod::Table::open(&table).unwrap().len();
    assert_eq!(small_len, 1_000_001);
    // The kept state is at the start of the last block planned (64 heaps).
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["info", kept.to_str().unwrap(), "--json"])).unwrap();
    let next = j["next_heap"].as_u64().unwrap();
    assert!(next + 64 <= small_len && next + 128 > small_len, "{j}");
    // A packed copy answers while the larger build runs; it goes once the
    // larger table is written.
    ok(&["pack", table.to_str().unwrap()]);
    let packed = d.path().join("grundy/values.nmt.zst");
    assert!(packed.exists());

    // `nimrod plan --data` reads the same decision without moving anything:
    // the small config's table is built, the big one extends it.
    let small_values = plan_on_disk(&small, d.path(), "grundy/values");
    assert_eq!(small_values["on_disk"]["state"], "built", "{small_values}");
    let big_values = plan_on_disk(&big, d.path(), "grundy/values");
    assert_eq!(big_values["on_disk"]["state"], "started", "{big_values}");
    assert_eq!(big_values["on_disk"]["work_done"], next, "{big_values}");
    let from = big_values["on_disk"]["from"].as_str().unwrap();
    assert!(
        from.starts_with("the finished table of heaps 0..=1000000")
            && from.ends_with(&format!("extended from its kept state at heap {next}")),
        "{from}"
    );
    assert!(table.exists() && kept.exists());

    let log = build(&big, d.path());
    assert!(
        log.contains("extending the finished table of heaps 0..=1000000 to 3000000")
            && log.contains("resumed at heap"),
        "{log}"
    );
    assert!(
        std::fs::read(&table).unwrap() == expected,
        "the extended table differs from one built to 3,000,000 in one go"
    );
    assert!(!nimrod::pipeline::checkpoint::path_beside(&table).exists());
    assert!(kept.exists(), "the extended build keeps its own last state");
    assert!(
        !packed.exists(),
        "the smaller table's packed copy outlives it"
    );
    ok(&["verify", d.path().to_str().unwrap()]);

    // A kept state of another window: refused, the build starts over.
    let e = tempfile::tempdir().unwrap();
    build(&small, e.path());
    let other = config("other", 3_000_000, 262144);
    let planned = plan_on_disk(&other, e.path(), "grundy/values");
    assert_eq!(planned["on_disk"]["state"], "not_started", "{planned}");
    assert!(
        planned["on_disk"]["why"]
            .as_str()
            .unwrap()
            .starts_with("kept state not used: "),
        "{planned}"
    );
    let log = build(&other, e.path());
    assert!(
        !log.contains("extending") && log.contains("kept state not used, starting over: "),
        "{log}"
    );
    let fresh = tempfile::tempdir().unwrap();
    build(&other, fresh.path());
    assert!(
        std::fs::read(e.path().join("grundy/values.nmt")).unwrap()
            == std::fs::read(fresh.path().join("grundy/values.nmt")).unwrap()
    );
}

/// `nimrod plan --data`: a current table is built (a build skips it), a
/// table of other parameters is not, and a saved state of a game whose
/// planner does not read states is named as there.
#[test]
fn plan_with_a_data_directory_says_what_is_built_and_what_is_saved() {
    let cfgdir = tempfile::tempdir().unwrap();
    let cfg = cfgdir.path().join("c.toml");
    std::fs::write(&cfg, "[guessit]\nmax_hand = 3\n\n[chess]\npieces = [3]\n").unwrap();
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_str().unwrap();
    ok(&[
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        dir,
        "--only",
        "guessit",
    ]);
    let j: serde_json::Value = serde_json::from_str(&ok(&[
        "plan",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        dir,
        "--json",
    ]))
    .unwrap();
    let jobs = j["jobs"].as_array().unwrap();
    let (guessit, chess): (Vec<_>, Vec<_>) = jobs
        .iter()
        .partition(|job| job["id"].as_str().unwrap().starts_with("guessit/"));
    assert!(!guessit.is_empty() && !chess.is_empty(), "{j}");
    for job in &guessit {
        assert_eq!(job["on_disk"]["state"], "built", "{job}");
    }
    for job in &chess {
        assert_eq!(job["on_disk"]["state"], "not_started", "{job}");
    }
    // A saved state beside a chess table.
    let id = chess[0]["id"].as_str().unwrap();
    let state = d.path().join(format!("{id}.nmt.checkpoint"));
    std::fs::create_dir_all(state.parent().unwrap()).unwrap();
    std::fs::write(&state, b"a state").unwrap();
    let planned = plan_on_disk(&cfg, d.path(), id);
    assert_eq!(planned["on_disk"]["state"], "saved", "{planned}");
    assert_eq!(planned["on_disk"]["path"], state.to_str().unwrap());
    // Another bound: the guessit tables on disk are not current.
    std::fs::write(&cfg, "[guessit]\nmax_hand = 4\n").unwrap();
    let text = ok(&["plan", "--config", cfg.to_str().unwrap(), "--data", dir]);
    assert!(
        !text.contains("on disk: built") && text.contains("on disk: not started"),
        "{text}"
    );
    let left = format!(
        "left to build: {n} of {n} jobs (0 of them started)",
        n = text.lines().filter(|l| l.contains("on disk:")).count()
    );
    assert!(text.contains(&left), "{text}");
}

/// Job `id` of `nimrod plan --config CFG --data DIR --json`.
fn plan_on_disk(cfg: &Path, dir: &Path, id: &str) -> serde_json::Value {
    let j: serde_json::Value = serde_json::from_str(&ok(&[
        "plan",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        dir.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    j["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|job| job["id"] == id)
        .unwrap_or_else(|| panic!("no job {id} in {j}"))
        .clone()
}

/// Builds a config of `[grundy]` `body` (written as `NAME.toml` in
/// `cfgdir`) into a fresh data directory, with `extra` build arguments.
fn build_grundy(cfgdir: &Path, name: &str, body: &str, extra: &[&str]) -> tempfile::TempDir {
    let cfg = cfgdir.join(format!("{name}.toml"));
    std::fs::write(&cfg, format!("[grundy]\n{body}")).unwrap();
    let d = tempfile::tempdir().unwrap();
    let mut args = vec![
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        d.path().to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok(&args);
    d
}

#[test]
fn a_one_byte_grundy_table_answers_as_the_two_byte_one_in_half_the_bytes() {
    let cfgdir = tempfile::tempdir().unwrap();
    let tables: Vec<(tempfile::TempDir, &str)> = [
        "mode = \"full\"\n",
        "mode = \"full\"\nwidth = 8\n",
        "mode = \"streaming\"\nwindow = 131072\nwidth = 8\n",
    ]
    .into_iter()
    .enumerate()
    .map(|(i, extra)| {
        let body = format!("bound = 400000\nmisere_bound = 10\n{extra}");
        (
            build_grundy(cfgdir.path(), &i.to_string(), &body, &[]),
            extra,
        )
    })
    .collect();
    let open = |d: &Path| nimrod::Table::open(&d.join("grundy/values.nmt")).unwrap();
    let wide = open(tables[0].0.path());
    let wide_values = nimrod::games::grundy::GrundyValues::new(&wide).unwrap();
    assert_eq!(wide_values.width(), 2);
    let all = wide_values.read(0, wide.len()).unwrap().into_owned();
    for (d, extra) in &tables[1..] {
        let t = open(d.path());
        let v = nimrod::games::grundy::GrundyValues::new(&t).unwrap();
        assert_eq!(v.width(), 1, "{extra}");
        assert!(v.read(0, t.len()).unwrap() == all, "{extra}: values differ");
        let (w, n) = (
            std::fs::metadata(d.path().join("grundy/values.nmt"))
                .unwrap()
                .len(),
            std::fs::metadata(tables[0].0.path().join("grundy/values.nmt"))
                .unwrap()
                .len(),
        );
        assert!(w * 100 < n * 52, "{extra}: {w} bytes against {n}");
        ok(&["verify", d.path().to_str().unwrap()]);
    }
    let query = |d: &Path, heap: &str| {
        ok(&[
            "query",
            "grundy",
            heap,
            "--all",
            "--json",
            "--data",
            d.to_str().unwrap(),
        ])
    };
    let heaps = ["0", "5", "1222", "123456", "399999", "400000"];
    let expected: Vec<String> = heaps.iter().map(|h| query(tables[0].0.path(), h)).collect();
    let narrow = tables[1].0.path();
    for (h, e) in heaps.iter().zip(&expected) {
        assert_eq!(&query(narrow, h), e, "heap {h}");
    }
    // Packed, the one-byte table answers the same.
    ok(&[
        "pack",
        "--remove",
        narrow.join("grundy/values.nmt").to_str().unwrap(),
    ]);
    assert!(!narrow.join("grundy/values.nmt").exists());
    for (h, e) in heaps.iter().zip(&expected) {
        assert_eq!(&query(narrow, h), e, "heap {h}, packed");
    }
    ok(&["verify", narrow.to_str().unwrap()]);

    let cfg = cfgdir.path().join("bad.toml");
    std::fs::write(&cfg, "[grundy]\nbound = 1000\nwidth = 12\n").unwrap();
    let e = fails(&["plan", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("[grundy] width = 12 must be 8 or 16"), "{e}");
}

#[test]
fn every_shipped_config_plans_and_the_record_run_is_one_byte_a_heap() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("config");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let plan = json(&ok(&["plan", "--config", path.to_str().unwrap(), "--json"]));
        let jobs = plan["jobs"].as_array().unwrap();
        assert!(!jobs.is_empty(), "{}", path.display());
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        // The record run, and the run past it that extends its table.
        let record = [("record.toml", 35), ("record36.toml", 36)];
        if let Some(&(_, power)) = record.iter().find(|(n, _)| *n == name) {
            let values = jobs.iter().find(|j| j["id"] == "grundy/values").unwrap();
            let heaps = (1u64 << power) + 1;
            assert_eq!(values["estimate"]["entries"], heaps);
            assert_eq!(values["estimate"]["output_bytes"], heaps, "one byte a heap");
        }
        seen.push(name);
    }
    seen.sort();
    assert!(
        seen.starts_with(&["big.toml".to_string(), "big6.toml".to_string()]),
        "{seen:?}"
    );
    assert!(seen.contains(&"record.toml".to_string()), "{seen:?}");
    assert!(seen.contains(&"record36.toml".to_string()), "{seen:?}");
}

/// `scripts/octal_mex_check.py` (the plain mex over every move of the
/// code, from the stored values) agrees with sparse-space octal tables at
/// the heaps their statistics name and at random ones, and names a heap
/// whose stored value was changed.
#[test]
fn the_octal_mex_script_checks_stored_heaps_and_names_a_changed_one() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/octal_mex_check.py");
    let cfgdir = tempfile::tempdir().unwrap();
    let cfg = cfgdir.path().join("octal.toml");
    std::fs::write(
        &cfg,
        "[octal]\ngames = [\"0.161\", \"0.4\"]\nbound = 20000\n",
    )
    .unwrap();
    let d = tempfile::tempdir().unwrap();
    let data = d.path().to_str().unwrap();
    ok(&[
        "build",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        data,
        "--only",
        "octal",
    ]);
    for code in ["0.161", "0.4"] {
        let table = d.path().join(format!("octal/{code}.nmt"));
        let out = std::process::Command::new("python3")
            .arg(&script)
            .arg(&table)
            .args(["19999", "--named", "--random", "25"])
            .output()
            .expect("python3 runs the script");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{code}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let checked = text.matches(": same").count();
        assert!(checked >= 27, "{code}: {text}");
        assert!(
            text.contains(&format!("{checked} heaps checked, 0 differ")),
            "{code}: {text}"
        );
    }
    // Heap 19998 of 0.161 holds another value: no longer the mex.
    let table = d.path().join("octal/0.161.nmt");
    let mut bytes = std::fs::read(&table).unwrap();
    let payload = u64::from_le_bytes(bytes[80..88].try_into().unwrap()) as usize;
    let at = payload + 2 * 19998;
    bytes[at] ^= 1;
    let changed = table.with_file_name("changed.nmt");
    std::fs::write(&changed, &bytes).unwrap();
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(&changed)
        .args(["19997", "19998"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.lines().next().unwrap().ends_with(": same"), "{text}");
    assert!(
        text.lines().nth(1).unwrap().contains("heap 19998: ") && text.contains("DIFFERENT"),
        "{text}"
    );
}

/// `scripts/grundy_mex_check.py` (the plain mex over every split, from
/// the stored values; no code shared with the solver) agrees with one- and
/// two-byte tables at the heaps their statistics name and at random ones,
/// and names a heap whose stored value was changed.
#[test]
fn the_plain_mex_script_checks_stored_heaps_and_names_a_changed_one() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/grundy_mex_check.py");
    let cfgdir = tempfile::tempdir().unwrap();
    let mut one_byte = None;
    for width in [16, 8] {
        let body = format!("bound = 30000\nmisere_bound = 10\nmode = \"full\"\nwidth = {width}\n");
        let d = build_grundy(
            cfgdir.path(),
            &width.to_string(),
            &body,
            &["--only", "grundy/values"],
        );
        let table = d.path().join("grundy/values.nmt");
        let out = std::process::Command::new("python3")
            .arg(&script)
            .arg(&table)
            .args(["29999", "--named", "--random", "25"])
            .output()
            .expect("python3 runs the script");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "width {width}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("29 heaps checked, 0 differ"),
            "width {width}: {text}"
        );
        assert_eq!(text.matches(": same").count(), 29, "width {width}: {text}");
        if width == 8 {
            one_byte = Some((d, table));
        }
    }
    // Heap 29998 holds another code: its stored value is no longer the mex.
    let (_d, table) = one_byte.unwrap();
    let mut bytes = std::fs::read(&table).unwrap();
    let payload = u64::from_le_bytes(bytes[80..88].try_into().unwrap()) as usize;
    let at = payload + 29998;
    bytes[at] = if bytes[at] == 1 { 2 } else { 1 };
    let changed = table.with_file_name("changed.nmt");
    std::fs::write(&changed, &bytes).unwrap();
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(&changed)
        .args(["29997", "29998"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("heap 29997: ") && text.lines().next().unwrap().ends_with(": same"),
        "{text}"
    );
    assert!(
        text.lines().nth(1).unwrap().starts_with("heap 29998: ") && text.contains("DIFFERENT"),
        "{text}"
    );
    assert!(text.contains("2 heaps checked, 1 differ"), "{text}");
}

#[test]
fn a_two_byte_grundy_state_is_refused_by_a_one_byte_build() {
    // The partial table's bytes are entries of the width it was started
    // with: a state of the other width must not be resumed.
    let cfgdir = tempfile::tempdir().unwrap();
    let config = |width: u8| {
        let cfg = cfgdir.path().join(format!("{width}.toml"));
        std::fs::write(
            &cfg,
            format!("[grundy]\nbound = 3000000\nmode = \"streaming\"\nwindow = 131072\nwidth = {width}\n"),
        )
        .unwrap();
        cfg
    };
    let build = |width: u8, dir: &Path, threads: &str, minutes: &str| {
        build_saving_every(&config(width), dir, "grundy/values", threads, minutes)
    };
    let reference = tempfile::tempdir().unwrap();
    let o = build(8, reference.path(), "1", "600").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let d = tempfile::tempdir().unwrap();
    let table = d.path().join("grundy/values.nmt");
    kill_after_a_save(build(16, d.path(), "2", "0"), &table, "width 16");
    let o = build(8, d.path(), "1", "600").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let log = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!log.contains("resumed at heap"), "{log}");
    assert!(log.contains("other parameters"), "{log}");
    assert!(
        std::fs::read(&table).unwrap()
            == std::fs::read(reference.path().join("grundy/values.nmt")).unwrap(),
        "the one-byte table differs from one built in one go"
    );
}
