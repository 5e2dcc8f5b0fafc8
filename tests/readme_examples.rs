//! Every `$ nimrod …` example in README.md and docs/*.md, run and compared
//! with the output shown under it: a stale example fails here.
//!
//! An example is an indented line `    $ COMMAND`, its expected output the
//! indented lines after it up to the next example or unindented text. The
//! command runs in `sh` from the project root with `nimrod` on the PATH and
//! `NIMROD_DATA` set. The test builds `tests/fixtures/examples.toml` and
//! runs the examples those tables answer; the others (named in
//! `NEEDS_DEFAULT`) need the default build and run in
//! `scripts/readme_examples.sh`, which sets `NIMROD_EXAMPLES_DATA` to it.

mod common;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Examples answered only from the default configuration's tables.
const NEEDS_DEFAULT: &[&str] = &[
    "nimrod query gops",
    "nimrod query chess",
    "nimrod query klondike --report",
    "curl -s 'http://127.0.0.1:9000/standard",
    "curl -s http://127.0.0.1:9000/health",
];

/// The address the docs' `curl` examples name; the test serves the data
/// on a free port and puts its address there.
const SHOWN_ADDRESS: &str = "127.0.0.1:9000";

/// A `nimrod serve` for the `curl` examples, started at the first one and
/// stopped when dropped.
#[derive(Default)]
struct Served(Option<common::Server>);

impl Served {
    fn address(&mut self, data: &Path) -> String {
        self.0
            .get_or_insert_with(|| common::serve(data))
            .addr
            .clone()
    }
}

struct Example {
    file: String,
    line: usize,
    command: String,
    expected: String,
}

fn examples() -> Vec<Example> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    files.extend(docs);
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let Some(command) = lines[i].strip_prefix("    $ ") else {
                i += 1;
                continue;
            };
            let start = i + 1;
            let mut j = start;
            while j < lines.len()
                && !lines[j].starts_with("    $ ")
                && (lines[j].starts_with("    ") || lines[j].is_empty())
            {
                j += 1;
            }
            let body: Vec<&str> = lines[start..j]
                .iter()
                .map(|l| l.strip_prefix("    ").unwrap_or(l).trim_end())
                .collect();
            let expected = body.join("\n").trim_end().to_string();
            out.push(Example {
                file: f.file_name().unwrap().to_string_lossy().into_owned(),
                line: i + 1,
                command: command.to_string(),
                expected,
            });
            i = j;
        }
    }
    out
}

/// Whether a real line is what a shown line shows: the same, or, when the
/// shown line ends in ` …`, a line that starts with what comes before it.
fn line_shows(shown: &str, real: &str) -> bool {
    match shown.strip_suffix(" …") {
        Some(prefix) => real.starts_with(prefix),
        None => shown == real,
    }
}

fn lines_show(shown: &[&str], real: &[&str]) -> bool {
    shown.len() == real.len() && shown.iter().zip(real).all(|(s, r)| line_shows(s, r))
}

/// Whether `got` is what `shown` shows: line for line (see `line_shows`),
/// except that a shown line `…` or `...` (alone, after its indentation)
/// stands for any number of lines, as in the README's shortened outputs.
fn shows(shown: &str, got: &str) -> bool {
    let got: Vec<&str> = got.lines().collect();
    let mut segments: Vec<Vec<&str>> = vec![Vec::new()];
    for line in shown.lines() {
        if matches!(line.trim(), "…" | "...") {
            segments.push(Vec::new());
        } else {
            segments.last_mut().unwrap().push(line);
        }
    }
    if segments.len() == 1 {
        return lines_show(&segments[0], &got);
    }
    // The first segment starts the output, the last ends it, the others
    // come in order between.
    let (first, last) = (&segments[0], &segments[segments.len() - 1]);
    if got.len() < first.len() + last.len()
        || !lines_show(first, &got[..first.len()])
        || !lines_show(last, &got[got.len() - last.len()..])
    {
        return false;
    }
    let mut at = first.len();
    let end = got.len() - last.len();
    for seg in &segments[1..segments.len() - 1] {
        if seg.len() > end - at {
            return false;
        }
        match (at..=end - seg.len()).find(|&i| lines_show(seg, &got[i..i + seg.len()])) {
            Some(i) => at = i + seg.len(),
            None => return false,
        }
    }
    at <= end
}

fn run(e: &Example, data: &Path, served: &mut Served) -> String {
    let command = if e.command.contains(SHOWN_ADDRESS) {
        e.command.replace(SHOWN_ADDRESS, &served.address(data))
    } else {
        e.command.clone()
    };
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_nimrod")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path)
        .env("NIMROD_DATA", data)
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
    if !o.status.success() {
        text.push_str(&String::from_utf8_lossy(&o.stderr));
    }
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
}

#[test]
fn readme_examples_show_real_output() {
    let all = examples();
    assert!(all.len() >= 20, "only {} examples found", all.len());
    let (data, everything) = match std::env::var_os("NIMROD_EXAMPLES_DATA") {
        Some(d) => (PathBuf::from(d), true),
        None => {
            let dir = tempfile::tempdir().unwrap().keep();
            let o = Command::new(env!("CARGO_BIN_EXE_nimrod"))
                .args([
                    "build",
                    "--config",
                    "tests/fixtures/examples.toml",
                    "--data",
                ])
                .arg(&dir)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            (dir, false)
        }
    };
    let shared = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .exists();
    let (mut ran, mut skipped, mut wrong) = (0, Vec::new(), Vec::new());
    let mut served = Served::default();
    for e in &all {
        let default_only = NEEDS_DEFAULT.iter().any(|p| e.command.starts_with(p));
        if (default_only && !everything) || (e.command.contains("../shared/") && !shared) {
            skipped.push(format!("{}:{} {}", e.file, e.line, e.command));
            continue;
        }
        ran += 1;
        let got = run(e, &data, &mut served);
        if !shows(&e.expected, &got) {
            wrong.push(format!(
                "{}:{}: $ {}\n--- shown\n{}\n--- real\n{}\n",
                e.file, e.line, e.command, e.expected, got
            ));
        }
    }
    eprintln!(
        "{ran} examples run, {} left to scripts/readme_examples.sh:\n  {}",
        skipped.len(),
        skipped.join("\n  ")
    );
    if !everything {
        let _ = std::fs::remove_dir_all(&data);
    }
    assert!(
        wrong.is_empty(),
        "{} of {ran} examples show stale output:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn elided_lines_match_any_lines_and_nothing_else_does() {
    assert!(shows("a\n…\nd", "a\nb\nc\nd"));
    assert!(shows("a\n...", "a\nb"));
    assert!(shows("a\n…\nc\n…", "a\nb\nc\nd"));
    assert!(!shows("a\n…\nd", "a\nb\nc"));
    assert!(!shows("a\n…\nx\n…", "a\nb\nc"));
    assert!(!shows("a\nb", "a\nb\nc"));
    assert!(!shows("a\n…\nb\nb", "a\nb"));
    assert!(shows("pv 1. e4 …", "pv 1. e4 e5 2. Nf3"));
    assert!(!shows("pv 1. d4 …", "pv 1. e4 e5"));
    assert!(!shows("a …", "b"));
}

#[test]
fn a_changed_output_is_caught() {
    // The comparison itself: an example whose shown output differs by one
    // character fails.
    let e = Example {
        file: "test".into(),
        line: 1,
        command: "nimrod query nim 1 2 3".into(),
        expected: "Nim 1 2 3 (normal play)\n  safe (P): the player to move loses".into(),
    };
    let data = tempfile::tempdir().unwrap();
    assert_eq!(run(&e, data.path(), &mut Served::default()), e.expected);
    let changed = e.expected.replace("loses", "wins");
    assert_ne!(run(&e, data.path(), &mut Served::default()), changed);
}
