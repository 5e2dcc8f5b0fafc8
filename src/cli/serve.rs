//! `nimrod serve`: the tables over HTTP. Chess in the shape of the lichess
//! tablebase API (`/standard`, `/standard/mainline`), every game as
//! `nimrod query GAME ARGS --json` answers it (`/api/GAME?args=ARGS`, the
//! same code path), `/health`, and the web explorer at `/`. Requests are
//! bounded in size, in time and in how many run at once; every error is a
//! JSON document with a 4xx (the request's fault) or 5xx (a table's).

use anyhow::{Context, Result};
use axum::extract::{Path as UrlPath, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use nimrod::games::chess::lichess::{self, LookupError};
use nimrod::games::chess::Tablebase;
use nimrod::games::{self, ErrorKind, QueryContext, QueryError};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// The longest request target accepted (path and query), in bytes.
const MAX_TARGET: usize = 8 * 1024;
/// Requests answered at once; more wait for a turn (bounded by `timeout`).
const MAX_IN_FLIGHT: usize = 64;

#[derive(clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    data: super::DataArg,
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:9000")]
    bind: std::net::SocketAddr,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Longest a request may take, in seconds (then 503).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    timeout: u64,
}

struct Server {
    data: PathBuf,
    chess: Tablebase,
    /// Chess tables found but not opened, with why (answered with 500).
    broken: BTreeMap<String, String>,
    tables: usize,
    timeout: Duration,
    slots: tokio::sync::Semaphore,
}

/// An error answer: a status and a JSON `{"error": ...}`.
struct Failure(StatusCode, String);

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl Server {
    /// A chess lookup's failure as an answer; a missing table with the
    /// command that builds it, as the command line says it.
    fn lookup_failure(&self, e: LookupError) -> Failure {
        match &e {
            LookupError::BadPosition(_) => Failure(StatusCode::BAD_REQUEST, e.to_string()),
            LookupError::MissingTable(id) => Failure(
                StatusCode::NOT_FOUND,
                format!("{e}; {}", games::registry::build_hint(&self.data, id)),
            ),
            LookupError::Table(_) => Failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        }
    }
}

pub fn run(args: ServeArgs) -> Result<ExitCode> {
    if !args.data.dir.is_dir() {
        anyhow::bail!(
            "--data {}: not a directory (build tables into it with `nimrod build --data {}`)",
            args.data.dir.display(),
            args.data.dir.display()
        );
    }
    let (chess, broken, opened) = open_chess(&args.data.dir)?;
    let tables = count_tables(&args.data.dir);
    let server = Arc::new(Server {
        data: args.data.dir.clone(),
        chess,
        broken,
        tables,
        timeout: Duration::from_secs(args.timeout),
        slots: tokio::sync::Semaphore::new(MAX_IN_FLIGHT),
    });
    let mut rt = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = args.threads {
        rt.worker_threads(n.into());
    }
    let rt = rt
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .with_context(|| format!("cannot listen on {}", args.bind))?;
        let addr = listener.local_addr()?;
        println!(
            "nimrod serve: http://{addr}/ data {} ({} tables, {opened} chess tables{})",
            server.data.display(),
            server.tables,
            if server.broken.is_empty() {
                String::new()
            } else {
                format!(", {} chess tables not usable", server.broken.len())
            }
        );
        for (name, why) in &server.broken {
            eprintln!("warning: chess/{name} not served: {why}");
        }
        use std::io::Write;
        std::io::stdout().flush().ok();
        axum::serve(listener, router(server))
            .await
            .context("the server stopped")
    })?;
    Ok(ExitCode::SUCCESS)
}

fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/health", get(health))
        .route("/standard", get(standard))
        .route("/standard/mainline", get(mainline))
        .route("/api", get(games_list))
        .route("/api/{game}", get(api))
        .route("/", get(super::explorer::index))
        .route("/explorer.js", get(super::explorer::script))
        .route("/explorer.css", get(super::explorer::style))
        .fallback(|| async {
            Failure(
                StatusCode::NOT_FOUND,
                "no such route; see /api and docs/serve.md".into(),
            )
        })
        .layer(axum::middleware::from_fn(bounded_target))
        .with_state(server)
}

/// Refuses request targets longer than [`MAX_TARGET`] (414).
async fn bounded_target(req: Request, next: Next) -> Response {
    let len = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if len > MAX_TARGET {
        return Failure(
            StatusCode::URI_TOO_LONG,
            format!("request target of {len} bytes; at most {MAX_TARGET}"),
        )
        .into_response();
    }
    next.run(req).await
}

/// Every chess table of the data directory that opens, and those that do
/// not with why: one damaged table must not keep the others from serving.
fn open_chess(data: &std::path::Path) -> Result<(Tablebase, BTreeMap<String, String>, usize)> {
    let mut good = Vec::new();
    let mut broken = BTreeMap::new();
    for m in nimrod::games::chess::table_materials(data) {
        match Tablebase::open(data, &[m]) {
            Ok(_) => good.push(m),
            Err(e) => {
                broken.insert(m.name(), format!("{e:#}"));
            }
        }
    }
    let n = good.len();
    let tb = Tablebase::open(data, &good)?;
    // Requests probe a few positions each, anywhere: pages, not read-ahead.
    tb.advise_random();
    Ok((tb, broken, n))
}

fn count_tables(data: &std::path::Path) -> usize {
    fn walk(dir: &std::path::Path, n: &mut usize) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, n);
            } else if p.to_string_lossy().ends_with(".nmt")
                || p.to_string_lossy().ends_with(".nmt.zst")
            {
                *n += 1;
            }
        }
    }
    let mut n = 0;
    walk(data, &mut n);
    n
}

/// Runs `f` off the async threads, bounded in time and in concurrency.
async fn bounded<T: Send + 'static>(
    server: &Arc<Server>,
    f: impl FnOnce(&Server) -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    let timeout = server.timeout;
    let work = async {
        let _turn = server
            .slots
            .acquire()
            .await
            .map_err(|_| Failure(StatusCode::SERVICE_UNAVAILABLE, "shutting down".into()))?;
        let s = Arc::clone(server);
        tokio::task::spawn_blocking(move || f(&s))
            .await
            .map_err(|e| {
                Failure(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("the request failed: {e}"),
                )
            })?
    };
    match tokio::time::timeout(timeout, work).await {
        Ok(r) => r,
        Err(_) => Err(Failure(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "no answer within {} s (nimrod serve --timeout)",
                timeout.as_secs()
            ),
        )),
    }
}

async fn health(State(server): State<Arc<Server>>) -> Json<serde_json::Value> {
    Json(json!({
        "status": "ok",
        "data": server.data.display().to_string(),
        "tables": server.tables,
        "chess_tables": server.tables_chess(),
        "chess_tables_not_usable": server.broken.keys().collect::<Vec<_>>(),
    }))
}

impl Server {
    fn tables_chess(&self) -> usize {
        self.chess.len()
    }

    /// A position's chess tables that were found damaged at start: their
    /// reason, answered as 500 rather than as a missing table.
    fn broken_for(&self, fen: &str) -> Option<String> {
        if self.broken.is_empty() {
            return None;
        }
        let fen = fen.replace('_', " ");
        let (board, _) = nimrod::games::chess::Board::from_fen_with_en_passant(fen.trim()).ok()?;
        let all = nimrod::games::chess::closure(&[nimrod::games::chess::Material::of(&board)]);
        all.iter().find_map(|m| {
            self.broken
                .get(&m.name())
                .map(|why| format!("chess/{}: {why}", m.name()))
        })
    }
}

/// The `fen` parameter, or a 400 naming it.
fn fen_param(
    q: Result<Query<HashMap<String, String>>, axum::extract::rejection::QueryRejection>,
) -> Result<String, Failure> {
    let Query(q) = q.map_err(|e| Failure(StatusCode::BAD_REQUEST, format!("query string: {e}")))?;
    q.get("fen").cloned().ok_or_else(|| {
        Failure(
            StatusCode::BAD_REQUEST,
            "missing parameter fen (e.g. /standard?fen=4k3/8/8/8/8/8/8/4KQ2_w_-_-_0_1)".into(),
        )
    })
}

/// A chess route: the `fen` parameter looked up by `answer`, unless a
/// table it needs was found damaged at start (500 with why).
async fn chess_route<T: serde::Serialize + Send + 'static>(
    server: Arc<Server>,
    q: Result<Query<HashMap<String, String>>, axum::extract::rejection::QueryRejection>,
    answer: fn(&Tablebase, &str) -> Result<T, LookupError>,
) -> Result<Json<T>, Failure> {
    let fen = fen_param(q)?;
    bounded(&server, move |s| {
        if let Some(why) = s.broken_for(&fen) {
            return Err(Failure(StatusCode::INTERNAL_SERVER_ERROR, why));
        }
        answer(&s.chess, &fen)
            .map(Json)
            .map_err(|e| s.lookup_failure(e))
    })
    .await
}

async fn standard(
    State(server): State<Arc<Server>>,
    q: Result<Query<HashMap<String, String>>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<lichess::Standard>, Failure> {
    chess_route(server, q, lichess::standard).await
}

async fn mainline(
    State(server): State<Arc<Server>>,
    q: Result<Query<HashMap<String, String>>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<lichess::Mainline>, Failure> {
    chess_route(server, q, lichess::mainline).await
}

async fn games_list() -> Json<serde_json::Value> {
    let games: Vec<_> = games::registry()
        .iter()
        .map(|g| json!({ "name": g.name(), "summary": g.summary(), "url": format!("/api/{}?args=", g.name()) }))
        .collect();
    Json(json!({ "games": games }))
}

/// `GET /api/GAME?args=ARGS`: what `nimrod query GAME ARGS --json` prints,
/// through the same library call.
async fn api(
    State(server): State<Arc<Server>>,
    UrlPath(game): UrlPath<String>,
    q: Result<Query<HashMap<String, String>>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, Failure> {
    let Query(q) = q.map_err(|e| Failure(StatusCode::BAD_REQUEST, format!("query string: {e}")))?;
    let Some(g) = games::find(&game) else {
        let names: Vec<_> = games::registry().iter().map(|g| g.name()).collect();
        return Err(Failure(
            StatusCode::NOT_FOUND,
            format!("no game {game:?}; the games: {}", names.join(", ")),
        ));
    };
    let args = split_args(q.get("args").map_or("", String::as_str))
        .map_err(|e| Failure(StatusCode::BAD_REQUEST, format!("args: {e}")))?;
    if let Some(bad) = args
        .iter()
        .find(|a| *a == "--data" || a.starts_with("--data=") || *a == "--json")
    {
        return Err(Failure(
            StatusCode::BAD_REQUEST,
            format!("args: {bad} is the server's to set (it serves one data directory, in JSON)"),
        ));
    }
    bounded(&server, move |s| {
        let ctx = QueryContext {
            data_dir: s.data.clone(),
        };
        match games::ask(g, &args, &ctx) {
            // A streamed answer (`--fens FILE`) reads its input only when
            // written, which the server never does: no file is opened.
            Ok(answer) if answer.is_streamed() => Err(Failure(
                StatusCode::BAD_REQUEST,
                "args: this query reads a file and answers line by line (--fens), which the server does not do; ask one position a request, or run `nimrod query chess --fens FILE` locally".into(),
            )),
            Ok(answer) => Ok(Json(answer.json().clone()).into_response()),
            Err(QueryError::Usage(u)) if u.help => {
                Ok(Json(json!({ "help": u.text })).into_response())
            }
            Err(QueryError::Usage(u)) => Err(Failure(StatusCode::BAD_REQUEST, u.to_string())),
            Err(QueryError::Game(e)) => {
                let e = games::registry::with_hint(e, &ctx.data_dir);
                let status = match e.kind() {
                    ErrorKind::TableDamaged => StatusCode::INTERNAL_SERVER_ERROR,
                    ErrorKind::TableMissing => StatusCode::NOT_FOUND,
                    // A game's own failure is most often its input's.
                    ErrorKind::Input | ErrorKind::Failed => StatusCode::BAD_REQUEST,
                };
                Err(Failure(status, e.to_string()))
            }
        }
    })
    .await
    .map(|mut r: Response| {
        r.headers_mut().insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static("no-store"),
        );
        r
    })
}

/// Splits a command line's arguments as a shell would for plain words and
/// quotes: whitespace separates, '…' and "…" group (a FEN is one quoted
/// argument), a backslash escapes the next character outside '…'.
pub fn split_args(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err("a ' is not closed".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x) => cur.push(x),
                            None => return Err("a \\ ends the arguments".into()),
                        },
                        Some(x) => cur.push(x),
                        None => return Err("a \" is not closed".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(x) => {
                    in_word = true;
                    cur.push(x)
                }
                None => return Err("a \\ ends the arguments".into()),
            },
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c)
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    if out.len() > 64 {
        return Err(format!("{} arguments; at most 64", out.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::split_args;

    #[test]
    fn arguments_split_as_a_shell_splits_words_and_quotes() {
        assert_eq!(split_args("20 --misere").unwrap(), ["20", "--misere"]);
        assert_eq!(
            split_args("'4k3/8/8/8/8/8/8/4KQ2 w - - 0 1' --x").unwrap(),
            ["4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", "--x"]
        );
        assert_eq!(
            split_args(r#"a\ b "c \"d\"" ''"#).unwrap(),
            ["a b", "c \"d\"", ""]
        );
        assert_eq!(split_args("  ").unwrap(), Vec::<String>::new());
        assert!(split_args("'open").unwrap_err().contains("not closed"));
        assert!(split_args(&"x ".repeat(65))
            .unwrap_err()
            .contains("at most 64"));
    }
}
