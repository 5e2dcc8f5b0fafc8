//! Builds through a real Slurm: `nimrod slurm --submit --wait` for a split
//! GOPS build and the 3- and 4-piece chess tables, and array tasks building
//! into one data directory at once. They need a running cluster
//! (`scripts/slurm/local-cluster.sh start`, which `.ci/run` does); without
//! one they are skipped with a message, unless NIMROD_REQUIRE_SLURM=1
//! (set by `.ci/run`) makes that a failure.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

fn cluster_up() -> bool {
    let up = Command::new("scontrol")
        .arg("ping")
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("UP"));
    if !up {
        assert!(
            std::env::var("NIMROD_REQUIRE_SLURM").is_err(),
            "NIMROD_REQUIRE_SLURM is set but no Slurm cluster answers `scontrol ping`"
        );
        eprintln!(
            "skipped: no Slurm cluster answers `scontrol ping` (start one with scripts/slurm/local-cluster.sh start)"
        );
    }
    up
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
    if !cluster_up() {
        return;
    }
    let (tmp, cfg) = gops_and_chess();
    let (slurm, whole) = (tmp.path().join("slurm"), tmp.path().join("whole"));
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
        "1800",
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
    if !cluster_up() {
        return;
    }
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
        let o = Command::new("sbatch")
            .args(["--wait", "--array", tasks])
            .arg(s)
            .output()
            .unwrap();
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
