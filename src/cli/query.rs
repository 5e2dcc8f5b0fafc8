use super::emit;
use anyhow::{bail, Result};
use nimrod::games::{self, QueryContext};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Takes the query-wide options (--json, --data DIR) out of a game's arguments.
fn split_common(args: Vec<String>) -> Result<(Vec<String>, bool, PathBuf)> {
    let (mut rest, mut json, mut data) = (Vec::new(), false, PathBuf::from("data"));
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        if a == "--json" {
            json = true;
        } else if a == "--data" {
            match it.next() {
                Some(d) => data = PathBuf::from(d),
                None => bail!("query: --data needs a directory"),
            }
        } else if let Some(d) = a.strip_prefix("--data=") {
            data = PathBuf::from(d);
        } else {
            rest.push(a);
        }
    }
    Ok((rest, json, data))
}

pub fn run(game: &str, args: Vec<String>) -> Result<ExitCode> {
    let (args, json, data_dir) = split_common(args)?;
    if game == "list" {
        let text: String = games::registry()
            .iter()
            .map(|g| format!("{:<8} {}\n", g.name(), g.summary()))
            .collect();
        let v = json!(games::registry()
            .iter()
            .map(|g| json!({"game": g.name(), "summary": g.summary()}))
            .collect::<Vec<_>>());
        emit(json, &v, &text);
        return Ok(ExitCode::SUCCESS);
    }
    let g = find(game)?;
    let answer = g.query(&args, &QueryContext { data_dir })?;
    emit(json, &answer.json, &answer.text);
    Ok(ExitCode::SUCCESS)
}

fn find(game: &str) -> Result<&'static dyn games::Game> {
    match games::find(game) {
        Some(g) => Ok(g),
        None => bail!(
            "unknown game {game:?} (known: {})",
            games::names().join(", ")
        ),
    }
}

pub fn play(game: &str, args: Vec<String>) -> Result<ExitCode> {
    let (args, _json, data_dir) = split_common(args)?;
    let g = find(game)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    g.play(&args, &QueryContext { data_dir }, &mut input, &mut output)?;
    Ok(ExitCode::SUCCESS)
}
