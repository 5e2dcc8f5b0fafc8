use super::emit;
use anyhow::{bail, Result};
use nimrod::games::query::Usage;
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

/// The subcommand's own help, for `nimrod query --help` (the subcommand
/// passes --help through so that `nimrod query GAME --help` reaches the game).
fn subcommand_help(name: &str) -> Result<ExitCode> {
    use clap::CommandFactory;
    let mut cli = super::Cli::command();
    let mut sub = cli
        .find_subcommand_mut(name)
        .expect("subcommand exists")
        .clone()
        .bin_name(format!("nimrod {name}"));
    let help = sub.render_long_help().to_string();
    let games = games::names().join(", ");
    super::emit(false, &json!(null), &format!("{help}\nGames: {games}\n"));
    Ok(ExitCode::SUCCESS)
}

/// Prints a game's help page or usage error whole (see `Usage`).
fn usage(u: &Usage, json: bool) -> ExitCode {
    if u.help {
        emit(false, &json!(null), &u.text);
        return ExitCode::SUCCESS;
    }
    if json {
        eprintln!(
            "{}",
            json!({"error": u.text.lines().next().unwrap_or("").trim_start_matches("error: "), "usage": u.text.trim_end()})
        );
    } else {
        eprint!("{}", u.text);
    }
    ExitCode::from(2)
}

fn is_help(game: &str) -> bool {
    game == "--help" || game == "-h" || game == "help"
}

pub fn run(game: &str, args: Vec<String>) -> Result<ExitCode> {
    if is_help(game) {
        return subcommand_help("query");
    }
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
    let answer = match g.query(&args, &QueryContext { data_dir }) {
        Ok(a) => a,
        Err(e) => match e.downcast_ref::<Usage>() {
            Some(u) => return Ok(usage(u, json)),
            None => return Err(e),
        },
    };
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
    if is_help(game) {
        return subcommand_help("play");
    }
    let (args, json, data_dir) = split_common(args)?;
    let g = find(game)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    match g.play(&args, &QueryContext { data_dir }, &mut input, &mut output) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => match e.downcast_ref::<Usage>() {
            Some(u) => Ok(usage(u, json)),
            // The reader went away (`… | head`): the game just ends.
            None if e
                .downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
            {
                Ok(ExitCode::SUCCESS)
            }
            None => Err(e),
        },
    }
}
