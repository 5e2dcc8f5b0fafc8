#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn nimrod() -> Command {
    Command::new(env!("CARGO_BIN_EXE_nimrod"))
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

pub fn run(args: &[&str]) -> Output {
    nimrod().args(args).output().expect("nimrod runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs with `input` on standard input (for `nimrod play`).
pub fn run_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = nimrod()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("nimrod runs");
    // A game may end before all the input is read (a machine that resigns
    // at once): the pipe is then closed, which is no failure of the run.
    if let Err(e) = child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input.as_bytes())
    {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "input written: {e}"
        );
    }
    child.wait_with_output().expect("nimrod finishes")
}

/// Runs and expects success; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        o.status.success(),
        "nimrod {args:?} failed:\n{}\n{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

/// Runs and expects a clean failure: non-zero exit, one `error:` line, no panic.
pub fn fails(args: &[&str]) -> String {
    let o = run(args);
    let err = stderr(&o);
    assert!(!o.status.success(), "nimrod {args:?} should fail");
    assert!(!err.contains("panicked"), "nimrod {args:?} panicked: {err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "expected one error line, got {lines:?}");
    assert!(lines[0].starts_with("error: "), "{err}");
    lines[0].to_string()
}

pub fn build_small(dir: &Path) {
    ok(&[
        "build",
        "--config",
        fixture("small.toml").to_str().unwrap(),
        "--data",
        dir.to_str().unwrap(),
    ]);
}

/// Every file under `dir` (recursively) whose extension is `ext`, sorted.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every table file under `dir` with its bytes, sorted by relative path.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_with_extension(dir, "nmt")
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            (rel, std::fs::read(&p).unwrap())
        })
        .collect()
}

pub fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

/// `nimrod build --config CFG --data DIR --json EXTRA…`, expected to succeed; the JSON report.
pub fn build_json(config: &Path, dir: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "build",
        "--config",
        config.to_str().unwrap(),
        "--data",
        dir.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    json(&ok(&args))
}

/// `build_json`'s jobs as (job, state, detail), in the report's order.
pub fn build_outcomes(config: &Path, dir: &Path, extra: &[&str]) -> Vec<(String, String, String)> {
    build_json(config, dir, extra)["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            let field = |k: &str| j[k].as_str().unwrap().to_string();
            (field("job"), field("state"), field("detail"))
        })
        .collect()
}

/// Runs and expects a usage error as clap reports it, whole: exit 2, the
/// error first, then the usage or a pointer to --help. Returns stderr.
pub fn usage_fails(args: &[&str]) -> String {
    let o = run(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "nimrod {args:?}: {err}");
    assert!(!err.contains("panicked"), "nimrod {args:?} panicked: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains("Usage: nimrod ") || err.contains("--help"),
        "{err}"
    );
    err
}

/// Splits an example command line at spaces outside double quotes.
pub fn split_example(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A running `nimrod serve` on a free loopback port, stopped when dropped.
pub struct Server {
    pub child: std::process::Child,
    /// host:port it listens on.
    pub addr: String,
    /// The line it printed when it started.
    pub startup: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `nimrod serve` on `data` (two threads, a port the system picks)
/// and reads its address from the startup line.
pub fn serve(data: &Path) -> Server {
    use std::io::BufRead;
    let mut child = nimrod()
        .args(["serve", "--bind", "127.0.0.1:0", "--threads", "2", "--data"])
        .arg(data)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("nimrod serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("piped stdout"))
        .read_line(&mut line)
        .expect("the startup line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no address in the startup line {line:?}"))
        .to_string();
    Server {
        child,
        addr,
        startup: line,
    }
}
