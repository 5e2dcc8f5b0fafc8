//! `nimrod serve` as a client sees it: the server started on a loopback
//! port, asked over plain HTTP/1.1, its answers compared field by field
//! with the library's (chess) and with `nimrod query GAME ARGS --json`
//! (every game); bad requests get a JSON error and the right status; the
//! web explorer is loaded in headless Chromium and its rendered DOM read.

mod common;
use common::*;
use nimrod::games::chess::board::Board;
use nimrod::games::chess::index::Layout;
use nimrod::games::chess::material::Material;
use nimrod::games::chess::probe::Tablebase;
use nimrod::games::chess::query::{position_value, principal_variation, rated_moves};
use nimrod::games::chess::value::Value;
use nimrod::rng::SplitMix64;
use serde_json::Value as Json;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The small config's tables plus KQvKR and KPvKP (en passant) and their
/// closures, built once per run.
fn data() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let small = std::fs::read_to_string(fixture("small.toml")).unwrap();
        let cfg = small.replace(
            "[chess]\npieces = [3]",
            "[chess]\ntables = [\"KQvKR\", \"KPvKP\"]",
        );
        assert_ne!(cfg, small, "small.toml's chess section moved");
        let path = dir.path().join("serve.toml");
        std::fs::write(&path, cfg).unwrap();
        ok(&[
            "build",
            "--config",
            path.to_str().unwrap(),
            "--data",
            dir.path().to_str().unwrap(),
        ]);
        dir
    })
    .path()
}

/// GET `target` over HTTP/1.1: the status and the body.
fn get(s: &Server, target: &str) -> (u16, String) {
    let mut c = TcpStream::connect(&s.addr).unwrap();
    c.set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    write!(
        c,
        "GET {target} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    )
    .unwrap();
    let mut raw = Vec::new();
    c.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8(raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a header and a body");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        unchunk(body)
    } else {
        body.to_string()
    };
    (status, body)
}

fn unchunk(mut s: &str) -> String {
    let mut out = String::new();
    loop {
        let (size, rest) = s.split_once("\r\n").unwrap();
        let n = usize::from_str_radix(size.trim(), 16).unwrap();
        if n == 0 {
            return out;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
}

fn get_json(s: &Server, target: &str) -> (u16, Json) {
    let (status, body) = get(s, target);
    let json = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{target}: {e}: {body}"));
    (status, json)
}

fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// DTM as the lichess API gives it: signed plies, 0 for a draw, null when
/// already mated (an independent restatement of the rule, from `Value`).
fn expected_dtm(v: Value) -> Json {
    match v {
        Value::Draw => Json::from(0),
        Value::Loss(0) => Json::Null,
        Value::Win(m) => Json::from(2 * m as i64 - 1),
        Value::Loss(m) => Json::from(-2 * m as i64),
    }
}

fn category(v: Value) -> &'static str {
    match v {
        Value::Win(_) => "win",
        Value::Draw => "draw",
        Value::Loss(_) => "loss",
    }
}

/// Positions drawn from a table, seeded: a sample of its legal slots.
fn sample(name: &str, count: usize, seed: u64) -> Vec<String> {
    let layout = Layout::new(Material::parse(name).unwrap().canonical());
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let i = rng.next_u64() % layout.positions;
        let turn = if rng.next_u64().is_multiple_of(2) {
            nimrod::games::chess::Color::White
        } else {
            nimrod::games::chess::Color::Black
        };
        if let Some(b) = layout.board(i, turn) {
            if !b.in_check(turn.other()) {
                out.push(b.fen());
            }
        }
    }
    out
}

#[test]
fn standard_answers_every_field_as_the_library_rates_the_position() {
    let data = data();
    let server = serve(data);
    let mut fens = sample("KQvKR", 150, 1);
    fens.extend(sample("KPvKP", 150, 2));
    // En passant: the double push just played, the capture available.
    fens.push("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1".into());
    // Mated and stalemated.
    fens.push("4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1".into());
    fens.push("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1".into());
    let tb = Tablebase::open_closure(data, Material::parse("KQvKR").unwrap()).unwrap();
    let tb_pawns = Tablebase::open_closure(data, Material::parse("KPvKP").unwrap()).unwrap();
    let mut compared = 0;
    for fen in &fens {
        let (board, pushed) = Board::from_fen_with_en_passant(fen).unwrap();
        let tb = if board.pieces(
            nimrod::games::chess::Color::White,
            nimrod::games::chess::Role::Pawn,
        ) != 0
        {
            &tb_pawns
        } else {
            &tb
        };
        let (status, a) = get_json(
            &server,
            &format!("/standard?fen={}", enc(&fen.replace(' ', "_"))),
        );
        assert_eq!(status, 200, "{fen}: {a}");
        let value = position_value(tb, &board, pushed).unwrap();
        let lines = rated_moves(tb, &board, pushed).unwrap();
        let in_check = board.in_check(board.turn);
        assert_eq!(a["category"], category(value), "{fen}");
        assert_eq!(a["dtm"], expected_dtm(value), "{fen}");
        assert_eq!(a["dtz"], Json::Null, "{fen}");
        assert_eq!(a["precise_dtz"], Json::Null, "{fen}");
        assert_eq!(a["checkmate"], lines.is_empty() && in_check, "{fen}");
        assert_eq!(a["stalemate"], lines.is_empty() && !in_check, "{fen}");
        assert_eq!(a["variant_win"], false);
        let moves = a["moves"].as_array().unwrap();
        assert_eq!(moves.len(), lines.len(), "{fen}");
        for (m, l) in moves.iter().zip(&lines) {
            assert_eq!(m["uci"], l.mv.uci(), "{fen}");
            assert_eq!(m["san"], l.san, "{fen}");
            // The position reached, probed on its own.
            let child = board.play(&l.mv);
            let reached =
                position_value(tb, &child, l.mv.is_double_push().then_some(l.mv.to)).unwrap();
            assert_eq!(m["category"], category(reached), "{fen} {}", l.san);
            assert_eq!(m["dtm"], expected_dtm(reached), "{fen} {}", l.san);
            assert_eq!(
                m["zeroing"],
                l.mv.capture.is_some() || l.mv.role == nimrod::games::chess::Role::Pawn,
                "{fen} {}",
                l.san
            );
            assert_eq!(m["checkmate"], l.san.ends_with('#'), "{fen} {}", l.san);
            compared += 1;
        }
        // The mainline: best play to mate, each step's dtm one ply closer.
        let (status, line) = get_json(&server, &format!("/standard/mainline?fen={}", enc(fen)));
        assert_eq!(status, 200);
        let pv = principal_variation(tb, &board, pushed).unwrap();
        let steps = line["mainline"].as_array().unwrap();
        assert_eq!(steps.len(), pv.len(), "{fen}");
        for (s, l) in steps.iter().zip(&pv) {
            assert_eq!(s["uci"], l.mv.uci());
        }
        if let Some(plies) = value.plies() {
            assert_eq!(
                steps.len() as u32,
                plies,
                "{fen}: the mainline is the DTM line"
            );
            let winner = match (value, board.turn) {
                (Value::Win(_), nimrod::games::chess::Color::White)
                | (Value::Loss(_), nimrod::games::chess::Color::Black) => "w",
                _ => "b",
            };
            assert_eq!(line["winner"], winner, "{fen}");
        } else {
            assert_eq!(line["winner"], Json::Null, "{fen}");
        }
    }
    assert!(compared > 2000, "{compared} moves compared");
    eprintln!(
        "{} positions, {compared} moves: every field as the library says",
        fens.len()
    );
}

/// Every game's route answers the document `nimrod query GAME ARGS --json`
/// prints (one code path for both).
#[test]
fn every_game_route_answers_what_the_command_line_prints() {
    let data = data();
    let server = serve(data);
    let d = data.to_str().unwrap();
    for (game, args) in [
        ("grundy", vec!["20"]),
        ("grundy", vec!["20", "--misere"]),
        ("octal", vec!["0.137", "200"]),
        ("nim", vec!["1", "3", "5", "7", "11", "--k", "2"]),
        ("half", vec!["47"]),
        ("gops", vec!["--cards", "5", "--first-move"]),
        ("ttt", vec!["xo..x...."]),
        ("guessit", vec!["5", "5"]),
        ("bridgit", vec!["--size", "5", "--moves", "h1,1 h1,2"]),
        ("chess", vec!["8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"]),
        ("chess", vec!["--stats", "KQvKR"]),
    ] {
        let mut cli = vec!["query", game];
        cli.extend(&args);
        cli.extend(["--data", d, "--json"]);
        let expected = json(&ok(&cli));
        // Arguments with spaces travel quoted, as on a command line.
        let line = args
            .iter()
            .map(|a| {
                if a.contains(' ') {
                    format!("'{a}'")
                } else {
                    a.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        let (status, got) = get_json(&server, &format!("/api/{game}?args={}", enc(&line)));
        assert_eq!(status, 200, "{game} {line}: {got}");
        assert_eq!(got, expected, "{game} {line}");
    }
    let (status, list) = get_json(&server, "/api");
    assert_eq!(status, 200);
    assert_eq!(
        list["games"].as_array().unwrap().len(),
        nimrod::games::registry().len()
    );
}

#[test]
fn bad_requests_get_a_json_error_naming_the_problem_and_the_server_goes_on() {
    let data = data();
    let server = serve(data);
    let long = format!("/standard?fen={}", "x".repeat(10_000));
    let cases: Vec<(String, u16, &str)> = vec![
        ("/standard?fen=junk".into(), 400, "FEN"),
        ("/standard".into(), 400, "missing parameter fen"),
        (
            "/standard?fen=rnbqkbnr/8/8/8/8/8/8/4K3_w_-_-_0_1".into(),
            400,
            "pieces",
        ),
        (
            "/standard?fen=r3k3/8/8/8/8/8/8/4K3_b_q_-_0_1".into(),
            400,
            "castl",
        ),
        (
            "/standard?fen=4k3/8/8/8/8/8/8/2QRK3_w_-_-_0_1".into(),
            404,
            "nimrod build",
        ),
        (
            "/standard/mainline?fen=4k3/8/8/8/8/8/8/2QRK3_w_-_-_0_1".into(),
            404,
            "chess/KQRvK",
        ),
        (long, 414, "at most"),
        ("/api/nope".into(), 404, "grundy"),
        ("/api/grundy?args=-5".into(), 400, ""),
        ("/api/grundy?args=abc".into(), 400, "abc"),
        ("/api/grundy?args=%2720".into(), 400, "not closed"),
        ("/api/grundy?args=20%20--data%20/etc".into(), 400, "--data"),
        ("/api/chess?args=--fens%20/etc/passwd".into(), 400, "--fens"),
        ("/api/grundy?args=999999999999".into(), 400, ""),
        ("/no/such/route".into(), 404, "no such route"),
    ];
    for (target, status, says) in &cases {
        let (got, body) = get(&server, target);
        let short: String = target.chars().take(80).collect();
        assert_eq!(got, *status, "{short}: {body}");
        let j: Json =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{short}: {e}: {body}"));
        let msg = j["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{short}: no error field: {body}"));
        assert!(msg.contains(says), "{short}: {msg}");
    }
    let (status, h) = get_json(&server, "/health");
    assert_eq!(
        (status, h["status"].as_str()),
        (200, Some("ok")),
        "still serving"
    );
}

/// A damaged table: named at start, answered 500 with why, and every other
/// table still served.
#[test]
fn a_damaged_table_answers_500_with_the_reason_and_the_rest_still_answer() {
    let src = data();
    let dir = tempfile::tempdir().unwrap();
    let chess = dir.path().join("chess");
    std::fs::create_dir(&chess).unwrap();
    for e in std::fs::read_dir(src.join("chess")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), chess.join(e.file_name())).unwrap();
    }
    let victim = chess.join("KQvKR.nmt");
    let mut bytes = std::fs::read(&victim).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 0x40;
    std::fs::write(&victim, bytes).unwrap();
    let server = serve(dir.path());
    let (status, a) = get_json(&server, "/standard?fen=4k3/8/8/8/2r5/8/8/4KQ2_w_-_-_0_1");
    assert_eq!(status, 500, "{a}");
    assert!(a["error"].as_str().unwrap().contains("KQvKR"), "{a}");
    let (status, a) = get_json(&server, "/standard?fen=4k3/8/8/8/8/8/8/4KQ2_w_-_-_0_1");
    assert_eq!((status, a["category"].as_str()), (200, Some("win")), "{a}");
    let (status, _) = get_json(&server, "/health");
    assert_eq!(status, 200);
    eprintln!("{}", server.startup.trim());
}

fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn render(url: &str, screenshot: Option<&Path>) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(chromium().unwrap());
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1200,900",
        "--virtual-time-budget=10000",
    ])
    .arg(format!("--user-data-dir={}", profile.path().display()));
    match screenshot {
        Some(p) => cmd.arg(format!("--screenshot={}", p.display())),
        None => cmd.arg("--dump-dom"),
    };
    let out = cmd.arg(url).output().unwrap();
    assert!(out.status.success(), "chromium: {}", stderr(&out));
    stdout(&out)
}

/// The explorer as a person sees it: Chromium loads `/?fen=…` from the
/// server, runs its script, and the rendered page shows the position's
/// verdict, every move grouped with its value, and the mainline.
#[test]
fn the_explorer_shows_the_moves_and_mainline_in_a_real_browser() {
    if chromium().is_none() {
        // CI installs it (.ci/run): there a missing browser is a failure.
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI=true but no chromium"
        );
        eprintln!("SKIPPED: no chromium (.ci/run installs Debian's chromium)");
        return;
    }
    let data = data();
    let server = serve(data);
    let fen = "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1";
    let url = format!("http://{}/?fen={}", server.addr, enc(fen));
    let dom = render(&url, None);
    let (_, expected) = get_json(&server, &format!("/standard?fen={}", enc(fen)));
    let moves = expected["moves"].as_array().unwrap();
    for m in moves {
        let uci = m["uci"].as_str().unwrap();
        let needle = format!(
            "data-uci=\"{uci}\" data-category=\"{}\"",
            m["category"].as_str().unwrap()
        );
        assert!(dom.contains(&needle), "the page lacks {needle}");
    }
    assert_eq!(dom.matches("class=\"move\"").count(), moves.len());
    assert!(dom.contains("White to move"), "no verdict");
    assert!(dom.contains("data-piece=\"Q\""), "no board");
    let (_, line) = get_json(&server, &format!("/standard/mainline?fen={}", enc(fen)));
    let first = line["mainline"][0]["san"].as_str().unwrap();
    assert!(
        dom.contains(&format!("1. {first}")),
        "no mainline starting 1. {first}"
    );
    // The other games' pages fill from their routes too.
    let dom = render(&format!("http://{}/#gops", server.addr), None);
    assert!(dom.contains("data-probability"), "no GOPS heat map");
    let dom = render(&format!("http://{}/#ttt", server.addr), None);
    assert_eq!(
        dom.matches("data-value=").count(),
        9,
        "every empty cell valued"
    );
    let dom = render(&format!("http://{}/#grundy", server.addr), None);
    assert!(dom.contains("Grundy value"), "no Grundy value");
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explorer.png");
    render(&url, Some(&shot));
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "screenshot {}",
        shot.display()
    );
    eprintln!("screenshot: {}", shot.display());
}

/// The chess `curl` examples of README.md and docs/serve.md (which the
/// examples test leaves to the default build) against this server: the
/// line shown under each is the answer, or its start when it ends in " …".
#[test]
fn the_chess_curl_examples_in_the_docs_show_real_answers() {
    let server = serve(data());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for file in ["README.md", "docs/serve.md"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let Some(url) = l
                .strip_prefix("    $ curl -s 'http://127.0.0.1:9000")
                .and_then(|r| r.strip_suffix('\''))
            else {
                continue;
            };
            if !url.starts_with("/standard") {
                continue;
            }
            let (status, body) = get(&server, url);
            assert_eq!(status, 200, "{file}:{}: {body}", i + 1);
            let shown = lines[i + 1].trim_start();
            let ok = match shown.strip_suffix(" …") {
                Some(prefix) => body.starts_with(prefix),
                None => body == shown,
            };
            assert!(ok, "{file}:{}: shown\n{shown}\nreal\n{body}", i + 1);
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} chess curl examples found");
}
