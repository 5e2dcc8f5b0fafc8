//! Issue 59: a library caller's query struct means what the command line
//! means. `Default` gives the command's defaults (checked against clap's
//! own parse of the required arguments alone), and the ranges the command
//! line enforces are refused in the library too, as bad input.

use clap::Parser;
use nimrod::games::{
    bridgit, chess, gops, grundy, guessit, half, klondike, knight, nim, octal, ttt, ErrorKind,
    GameError, Plays, Queries, QueryContext,
};

/// `T::default()` with the required arguments filled equals what clap
/// parses from those arguments alone.
fn same<T: Parser + PartialEq + std::fmt::Debug>(args: &[&str], filled: T) {
    let parsed = T::try_parse_from(std::iter::once("nimrod").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    assert_eq!(parsed, filled, "{args:?}");
}

#[test]
fn defaults_are_the_command_line_s() {
    same(
        &["5"],
        grundy::GrundyQuery {
            heap: 5,
            ..Default::default()
        },
    );
    same(
        &["5", "5"],
        guessit::GuessItQuery {
            mine: Some(5),
            theirs: Some(5),
            ..Default::default()
        },
    );
    same(
        &["5"],
        half::HalfQuery {
            pile: 5,
            ..Default::default()
        },
    );
    same(
        &["0.77", "5"],
        octal::OctalQuery {
            code: "0.77".into(),
            heap: 5,
        },
    );
    same(
        &["--cards", "5", "--first-move"],
        gops::GopsQuery {
            cards: 5,
            first_move: true,
            ..Default::default()
        },
    );
    same(
        &["1", "2"],
        nim::NimQuery {
            heaps: vec![1, 2],
            ..Default::default()
        },
    );
    same(
        &["8/8/8/8/8/2k5/8/KQ6 w - - 0 1"],
        chess::ChessQuery {
            fen: Some("8/8/8/8/8/2k5/8/KQ6 w - - 0 1".into()),
            ..Default::default()
        },
    );
    same(
        &["--deal", "3"],
        klondike::KlondikeQuery {
            deal: Some(klondike::DealId::Ours(3)),
            ..Default::default()
        },
    );
    same(
        &["--deal", "3"],
        klondike::KlondikePlay {
            deal: Some(klondike::DealId::Ours(3)),
            ..Default::default()
        },
    );
    same(&[], knight::KnightQuery::default());
    same(
        &["........."],
        ttt::TttQuery {
            board: Some(".........".into()),
            ..Default::default()
        },
    );
    same(
        &["--size", "5"],
        bridgit::BridgitQuery {
            size: 5,
            ..Default::default()
        },
    );
    same(&[], chess::ChessPlay::default());
    same(
        &["--cards", "4"],
        gops::GopsPlay {
            cards: 4,
            ..Default::default()
        },
    );
    same(
        &["1", "2"],
        nim::NimPlay {
            heaps: vec![1, 2],
            ..Default::default()
        },
    );
    same(&[], ttt::TttPlay::default());
    same(&[], bridgit::BridgitPlay::default());
    same(&[], guessit::GuessItPlay::default());
}

/// One game played on empty input, as a closure.
type PlayOn<'a> =
    dyn Fn(&mut dyn std::io::BufRead, &mut dyn std::io::Write) -> Result<(), GameError> + 'a;

#[test]
fn the_command_line_s_ranges_hold_for_library_callers() {
    let empty = tempfile::tempdir().unwrap();
    let ctx = QueryContext {
        data_dir: empty.path().to_path_buf(),
    };
    let fen = Some("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".to_string());
    for q in [
        chess::ChessQuery {
            fen: fen.clone(),
            search: true,
            depth: u32::MAX,
            ..Default::default()
        },
        chess::ChessQuery {
            fen: fen.clone(),
            search: true,
            depth: 0,
            ..Default::default()
        },
        chess::ChessQuery {
            fen: fen.clone(),
            search: true,
            nodes: 0,
            ..Default::default()
        },
        chess::ChessQuery {
            fen: fen.clone(),
            search: true,
            nodes: u64::MAX,
            ..Default::default()
        },
    ] {
        match chess::Chess.query(&q, &ctx) {
            Err(e) => assert_eq!(e.kind(), ErrorKind::Input, "{q:?}: {e}"),
            Ok(_) => panic!("{q:?} was attempted"),
        }
    }
    for q in [
        knight::KnightQuery {
            trials: Some(0),
            ..Default::default()
        },
        knight::KnightQuery {
            trials: Some(u64::MAX),
            ..Default::default()
        },
        knight::KnightQuery {
            compare: true,
            ..Default::default()
        },
    ] {
        match knight::Knight.query(&q, &ctx) {
            Err(e) => assert_eq!(e.kind(), ErrorKind::Input, "{q:?}: {e}"),
            Ok(_) => panic!("{q:?} was attempted"),
        }
    }
    let play = |p: &PlayOn| {
        let mut out = Vec::new();
        p(&mut std::io::empty(), &mut out)
    };
    for p in [
        chess::ChessPlay {
            nodes: 0,
            ..Default::default()
        },
        chess::ChessPlay {
            nodes: u64::MAX,
            ..Default::default()
        },
        chess::ChessPlay {
            move_time_ms: Some(0),
            ..Default::default()
        },
        chess::ChessPlay {
            move_time_ms: Some(u64::MAX),
            ..Default::default()
        },
        chess::ChessPlay {
            side: "green".into(),
            ..Default::default()
        },
    ] {
        let r = play(&|i, o| chess::Chess.play(&p, &ctx, i, o));
        assert_eq!(r.map_err(|e| e.kind()), Err(ErrorKind::Input), "{p:?}");
    }
    for k in [0, 65, u64::MAX] {
        let p = nim::NimPlay {
            heaps: vec![3, 4],
            k,
            ..Default::default()
        };
        let r = play(&|i, o| nim::Nim.play(&p, &ctx, i, o));
        assert_eq!(r.map_err(|e| e.kind()), Err(ErrorKind::Input), "{p:?}");
    }
    // Within range, the same structs are answered (or fail for another
    // reason than their input).
    let ok = chess::ChessQuery {
        fen,
        search: true,
        nodes: 10_000,
        depth: 3,
        ..Default::default()
    };
    assert!(chess::Chess.query(&ok, &ctx).is_ok());
}
