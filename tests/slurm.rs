//! Builds through a real Slurm: `nimrod slurm --submit --wait` for a split
//! GOPS build and the 3- and 4-piece chess tables, and array tasks building
//! into one data directory at once. They need a running cluster
//! (`scripts/slurm/local-cluster.sh start`, which `.ci/run` does); without
//! one they say SKIPPED on standard error, and fail instead under `CI=true`
//! (set by `.ci/run`) or NIMROD_REQUIRE_SLURM=1. A test leases the machine's
//! cluster for its run (an flock that the cluster script's `stop` also
//! respects), and every wait on the cluster is bounded.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

/// Whether a missing cluster is a failure rather than a skip: under CI
/// (`CI=true`, which `.ci/run` sets after starting the cluster) or when
/// NIMROD_REQUIRE_SLURM=1.
fn cluster_required() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
        || std::env::var("NIMROD_REQUIRE_SLURM").is_ok_and(|v| v == "1")
}

/// Says a test was skipped where a person sees it: the test harness hides
/// `eprintln!` of passing tests, so this writes to the process's standard
/// error directly (a skipped test used to print only `ok`).
fn say_skipped(test: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// Held while a test uses the machine's cluster: one test (of this run or
/// of another run on the machine) at a time, and
/// `scripts/slurm/local-cluster.sh stop` refuses to stop the cluster under
/// it. The lock is an flock, released by the kernel if the test dies.
struct ClusterLease {
    _file: std::fs::File,
}

/// Where the lease lives: beside the local cluster's state.
fn lease_path() -> std::path::PathBuf {
    let state =
        std::env::var("NIMROD_SLURM_STATE").unwrap_or_else(|_| "/var/lib/nimrod-slurm".into());
    if Path::new(&state).is_dir() {
        Path::new(&state).join("in-use.lock")
    } else {
        // A cluster that is not the local script's: the lease still
        // serialises this machine's test runs.
        std::env::temp_dir().join("nimrod-slurm-in-use.lock")
    }
}

/// The cluster, leased for one test, or None (skipped, said so) when no
/// cluster answers and none is required.
fn lease_cluster(test: &str) -> Option<ClusterLease> {
    let up = Command::new("timeout")
        .args(["20", "scontrol", "ping"])
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("UP"));
    if !up {
        assert!(
            !cluster_required(),
            "CI=true or NIMROD_REQUIRE_SLURM=1, but no Slurm cluster answers `scontrol ping`"
        );
        say_skipped(
            test,
            "no Slurm cluster answers `scontrol ping` (start one with scripts/slurm/local-cluster.sh start)",
        );
        return None;
    }
    let path = lease_path();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("cannot open the cluster lease {}: {e}", path.display()));
    // Bounded: a test holding the lease ends within its own bounds.
    let start = std::time::Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(std::fs::TryLockError::WouldBlock) => {
                assert!(
                    start.elapsed() < std::time::Duration::from_secs(WAIT_SECONDS),
                    "the Slurm cluster stayed leased by another test for {WAIT_SECONDS} s ({})",
                    path.display()
                );
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
            Err(std::fs::TryLockError::Error(e)) => panic!("cannot lock {}: {e}", path.display()),
        }
    }
    Some(ClusterLease { _file: file })
}

/// The longest any wait on the cluster may last.
const WAIT_SECONDS: u64 = 1500;

/// `sbatch --wait ARGS`, bounded: past `WAIT_SECONDS` the job (named
/// uniquely) is cancelled and the test fails, instead of waiting forever
/// on a cluster stopped under it (seen: 7.5 min, killed by hand).
fn sbatch_wait(name: &str, args: &[&str], script: &Path) -> std::process::Output {
    let job_name = format!("nimrod-test-{}-{name}", std::process::id());
    let mut child = Command::new("sbatch")
        .args(["--wait", "--job-name", &job_name])
        .args(args)
        .arg(script)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(WAIT_SECONDS) {
            let _ = child.kill();
            let _ = Command::new("scancel").args(["--name", &job_name]).status();
            panic!(
                "sbatch --wait for {} ran past {WAIT_SECONDS} s; cancelled",
                script.display()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    child.wait_with_output().unwrap()
}

/// Cancels, when dropped, every job still queued whose working directory
/// lies under `dir` (`submit.sh` runs sbatch from the scripts' directory): a `nimrod slurm --submit --wait` that fails (its wait
/// limit passed) leaves its jobs queued, and a later run waits behind them.
struct CancelJobsUnder<'a>(&'a Path);

impl Drop for CancelJobsUnder<'_> {
    fn drop(&mut self) {
        let Ok(out) = Command::new("squeue").args(["-h", "-o", "%A %Z"]).output() else {
            return;
        };
        let ids: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_once(' '))
            .filter(|(_, workdir)| Path::new(workdir.trim()).starts_with(self.0))
            .map(|(id, _)| id.to_string())
            .collect();
        if !ids.is_empty() {
            let _ = Command::new("scancel").args(&ids).status();
        }
    }
}

/// A temporary directory with the config both tests build: GOPS N = 10
/// and every 3- and 4-piece chess table.
fn gops_and_chess() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("config.toml");
    std::fs::write(&cfg, "[gops]\ncards = 10\n\n[chess]\npieces = [3, 4]\n").unwrap();
    (tmp, cfg)
}

fn sha256_of_tables(dir: &Path) -> Vec<(String, String)> {
    use std::io::Write;
    snapshot(dir)
        .into_iter()
        .map(|(name, bytes)| {
            let mut child = Command::new("sha256sum")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(&bytes).unwrap();
            let out = child.wait_with_output().unwrap();
            let sum = String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .next()
                .unwrap()
                .to_string();
            (name, sum)
        })
        .collect()
}

/// GOPS N = 10 with every level split in 4 parts, and every 3- and
/// 4-piece chess table, built by Slurm jobs (parts as array tasks, merges,
/// afterok along the job graph): every table has the sha256 of a
/// one-process build, and no part is left behind.
#[test]
fn a_slurm_build_with_split_levels_matches_a_one_process_build() {
    let Some(_lease) = lease_cluster("a_slurm_build_with_split_levels_matches_a_one_process_build")
    else {
        return;
    };
    let (tmp, cfg) = gops_and_chess();
    let (slurm, whole) = (tmp.path().join("slurm"), tmp.path().join("whole"));
    let _cancel = CancelJobsUnder(tmp.path());
    let report = json(&ok(&[
        "slurm",
        "--config",
        cfg.to_str().unwrap(),
        "--data",
        slurm.to_str().unwrap(),
        "--shards",
        "4",
        "--mem-per-part",
        "512M",
        "--submit",
        "--wait",
        "--wait-limit",
        "1500",
        "--json",
    ]));
    assert_eq!(report["ok"], true, "{report}");
    // 10 levels as 4 parts and a merge, 35 chess tables.
    assert_eq!(report["submitted"].as_array().unwrap().len(), 20 + 35);
    build_json(&cfg, &whole, &[]);
    let (a, b) = (sha256_of_tables(&slurm), sha256_of_tables(&whole));
    assert_eq!(a.len(), 45);
    assert_eq!(a, b);
}

/// The reproduction: four chess tables as the four tasks of one
/// Slurm array into one data directory (two failed on the data-directory
/// lock before), then the two parts of one GOPS level as a two-task array.
#[test]
fn array_tasks_build_into_one_data_directory_at_once() {
    let Some(_lease) = lease_cluster("array_tasks_build_into_one_data_directory_at_once") else {
        return;
    };
    let (tmp, cfg) = gops_and_chess();
    let data = tmp.path().join("data");
    let nimrod = env!("CARGO_BIN_EXE_nimrod");
    let script = |name: &str, body: &str| {
        let p = tmp.path().join(name);
        std::fs::write(
            &p,
            format!(
                "#!/bin/bash\n#SBATCH --output={}/{name}-%a.out\n#SBATCH --mem=512M\n#SBATCH --cpus-per-task=1\nset -eu\n{body}\n",
                tmp.path().display()
            ),
        )
        .unwrap();
        p
    };
    let build = format!(
        "\"{nimrod}\" build --config \"{}\" --data \"{}\" --threads 1",
        cfg.display(),
        data.display()
    );
    let chess = script(
        "chess",
        &format!(
            "tables=(x KQvK KRvK KBBvK KQRvK)\n{build} --only chess/${{tables[$SLURM_ARRAY_TASK_ID]}}"
        ),
    );
    let parts = script(
        "parts",
        &format!("{build} --only gops/n10/k06 --shard $SLURM_ARRAY_TASK_ID/2"),
    );
    build_json(&cfg, &data, &["--only", "gops/n10/k05"]);
    for (s, tasks) in [(&chess, "1-4"), (&parts, "1-2")] {
        let name = s.file_name().unwrap().to_string_lossy().into_owned();
        let o = sbatch_wait(&name, &["--array", tasks], s);
        let logs: String = (1..=4)
            .filter_map(|i| {
                std::fs::read_to_string(tmp.path().join(format!(
                    "{}-{i}.out",
                    s.file_name().unwrap().to_string_lossy()
                )))
                .ok()
            })
            .collect();
        assert!(
            o.status.success(),
            "{}: {}\n{logs}",
            s.display(),
            stderr(&o)
        );
    }
    for t in ["KQvK", "KRvK", "KBBvK", "KQRvK"] {
        assert!(data.join(format!("chess/{t}.nmt")).exists(), "{t}");
    }
    assert!(data.join("gops/n10/k06.part-0001-of-0002.nmt").exists());
    assert!(data.join("gops/n10/k06.part-0002-of-0002.nmt").exists());
    build_json(&cfg, &data, &["--only", "gops/n10/k06"]);
    let whole = tmp.path().join("whole");
    build_json(
        &cfg,
        &whole,
        &[
            "--only",
            "gops/n10/k06",
            "--only",
            "chess/KQRvK",
            "--only",
            "chess/KBBvK",
        ],
    );
    let pick = |d: &Path| {
        sha256_of_tables(d)
            .into_iter()
            .filter(|(n, _)| n.contains("k06") || n.contains("KQRvK") || n.contains("KBBvK"))
            .collect::<Vec<_>>()
    };
    assert_eq!(pick(&data).len(), 3);
    assert_eq!(pick(&data), pick(&whole));
}
