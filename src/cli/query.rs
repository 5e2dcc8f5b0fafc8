use super::emit;
use anyhow::{bail, Result};
use nimrod::games::{self, QueryContext, QueryError, Usage};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Which of the two game-facing commands.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Query,
    Play,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Query => "query",
            Kind::Play => "play",
        }
    }
}

/// `nimrod query` or `nimrod play` as clap sees it: one subcommand per game
/// of the registry, each the game's own command (arguments, help,
/// examples), and `--data`/`--json` for every one of them.
pub(super) fn command(kind: Kind) -> clap::Command {
    use clap::{Arg, ArgAction, Command};
    let word = kind.word();
    let mut c = Command::new(word)
        .bin_name(format!("nimrod {word}"))
        .about(match kind {
            Kind::Query => "Ask a game about a position or a table",
            Kind::Play => "Play against a stored strategy",
        })
        .after_help(format!(
            "`nimrod {word} GAME --help` shows a game's arguments and examples."
        ))
        .subcommand_required(true)
        .disable_help_subcommand(true)
        .arg(
            Arg::new("data")
                .long("data")
                .value_name("DIR")
                .global(true)
                .env("NIMROD_DATA")
                .hide_env_values(true)
                .default_value("data")
                .value_parser(clap::value_parser!(PathBuf))
                .help("Directory holding the tables (default: $NIMROD_DATA, else ./data)"),
        );
    // `play` is a conversation in text: it has no --json (it used to take
    // the flag and ignore it).
    if let Kind::Query = kind {
        c = c
            .arg(
                Arg::new("json")
                    .long("json")
                    .global(true)
                    .action(ArgAction::SetTrue)
                    .help("One JSON document instead of text"),
            )
            .subcommand(Command::new("list").about("List the games"));
    }
    for g in games::registry() {
        let sub = match kind {
            Kind::Query => Some(g.query_command()),
            Kind::Play => g.play_command().map(|p| p.command()),
        };
        if let Some(mut sub) = sub.map(|s| s.name(g.name())) {
            if sub.get_about().is_none() {
                sub = sub.about(g.summary());
            }
            c = c.subcommand(sub);
        }
    }
    c
}

/// Parses `nimrod query|play GAME ARGS…`; a help request or usage error
/// comes back as `Usage`, printed whole.
fn parse(kind: Kind, game: &str, args: Vec<String>) -> Result<clap::ArgMatches, Usage> {
    let argv = [format!("nimrod {}", kind.word()), game.to_string()]
        .into_iter()
        .chain(args);
    command(kind)
        .try_get_matches_from(argv)
        .map_err(Usage::from)
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

/// A parsed command line ready for its game, or the exit code of one that
/// was already answered (help, `list`, a usage error).
enum Prepared {
    Ready {
        game: &'static dyn games::CommandLine,
        args: clap::ArgMatches,
        json: bool,
        data_dir: PathBuf,
    },
    Done(ExitCode),
}

/// Runs `nimrod query|play GAME ARGS…` up to the game's own code: the game
/// is found first (an unknown name is a plain error listing the known
/// ones), then the arguments are parsed by the game's command.
fn prepare(kind: Kind, game: &str, args: Vec<String>) -> Result<Prepared> {
    // Usage errors are printed as JSON when --json was asked for, whatever
    // else is wrong with the line.
    let json = matches!(kind, Kind::Query) && args.iter().any(|a| a == "--json");
    if is_help(game) {
        let help = command(kind).render_long_help().to_string();
        emit(false, &json!(null), &help);
        return Ok(Prepared::Done(ExitCode::SUCCESS));
    }
    let g = match (kind, game) {
        (Kind::Query, "list") => None,
        _ => Some(find(game)?),
    };
    let matches = match parse(kind, game, args) {
        Ok(m) => m,
        Err(u) => return Ok(Prepared::Done(usage(&u, json))),
    };
    let (_, sub) = matches.subcommand().expect("a subcommand is required");
    let json = matches!(sub.try_get_one::<bool>("json"), Ok(Some(true)));
    let data = sub
        .get_one::<PathBuf>("data")
        .cloned()
        .unwrap_or_else(|| PathBuf::from("data"));
    match g {
        Some(game) => Ok(Prepared::Ready {
            game,
            args: sub.clone(),
            json,
            data_dir: data,
        }),
        None => {
            let text: String = games::registry()
                .iter()
                .map(|g| format!("{:<8} {}\n", g.name(), g.summary()))
                .collect();
            let v = json!(games::registry()
                .iter()
                .map(|g| json!({"game": g.name(), "summary": g.summary()}))
                .collect::<Vec<_>>());
            emit(json, &v, &text);
            Ok(Prepared::Done(ExitCode::SUCCESS))
        }
    }
}

/// Moves the global options given before the game's name (`nimrod query
/// --json grundy 5`, `--data DIR`) behind it, where the game's command
/// takes them; None when no game name is left.
fn hoist_global_options(game: Option<String>, args: Vec<String>) -> Option<(String, Vec<String>)> {
    let mut all: std::collections::VecDeque<String> = game.into_iter().chain(args).collect();
    let mut lead = Vec::new();
    loop {
        match all.front().map(String::as_str) {
            Some("--json") => lead.extend(all.pop_front()),
            Some("--data") if all.len() >= 2 => lead.extend(all.drain(..2)),
            Some(a) if a.starts_with("--data=") => lead.extend(all.pop_front()),
            _ => break,
        }
    }
    let game = all.pop_front()?;
    Some((game, all.into_iter().chain(lead).collect()))
}

/// `nimrod query` or `nimrod play` without a game: the help, listing the
/// games, on standard error, and the usage exit code.
fn no_game(kind: Kind) -> ExitCode {
    eprint!("{}", command(kind).render_help());
    ExitCode::from(2)
}

pub fn run(game: Option<String>, args: Vec<String>) -> Result<ExitCode> {
    let Some((game, args)) = hoist_global_options(game, args) else {
        return Ok(no_game(Kind::Query));
    };
    let game = game.as_str();
    let (g, args, json, data_dir) = match prepare(Kind::Query, game, args)? {
        Prepared::Ready {
            game,
            args,
            json,
            data_dir,
        } => (game, args, json, data_dir),
        Prepared::Done(code) => return Ok(code),
    };
    let ctx = QueryContext { data_dir };
    let mut answer = match g.query_matches(&args, &ctx) {
        Ok(a) => a,
        Err(QueryError::Usage(u)) => return Ok(usage(&u, json)),
        Err(QueryError::Game(e)) => return Err(games::registry::with_hint(e, &ctx.data_dir).into()),
    };
    if let Some(stream) = answer.take_stream() {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        return match stream(&mut out, json) {
            Ok(()) => Ok(ExitCode::SUCCESS),
            // The reader went away (`… | head`): nothing more to say.
            Err(e) if is_broken_pipe(&e) => Ok(ExitCode::SUCCESS),
            Err(e) => Err(e),
        };
    }
    emit(json, answer.json(), answer.text());
    Ok(ExitCode::SUCCESS)
}

/// Whether writing stopped because the reader of standard output left.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

fn find(game: &str) -> Result<&'static dyn games::CommandLine> {
    match games::find(game) {
        Some(g) => Ok(g),
        None => bail!(
            "unknown game {game:?} (known: {})",
            games::names().join(", ")
        ),
    }
}

pub fn play(game: Option<String>, args: Vec<String>) -> Result<ExitCode> {
    let Some((game, args)) = hoist_global_options(game, args) else {
        return Ok(no_game(Kind::Play));
    };
    let game = game.as_str();
    if !is_help(game) && games::find(game).is_some_and(|g| g.play_command().is_none()) {
        bail!("{game} has no interactive play");
    }
    let (g, args, json, data_dir) = match prepare(Kind::Play, game, args)? {
        Prepared::Ready {
            game,
            args,
            json,
            data_dir,
        } => (game, args, json, data_dir),
        Prepared::Done(code) => return Ok(code),
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    let Some(player) = g.play_command() else {
        bail!("{} has no interactive play", g.name());
    };
    let ctx = QueryContext { data_dir };
    match player.play_matches(&args, &ctx, &mut input, &mut output) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(QueryError::Usage(u)) => Ok(usage(&u, json)),
        // The reader went away (`… | head`): the game just ends.
        Err(QueryError::Game(e)) if is_broken_pipe(e.error()) => Ok(ExitCode::SUCCESS),
        Err(QueryError::Game(e)) => Err(games::registry::with_hint(e, &ctx.data_dir).into()),
    }
}
