//! `nimrod play chess`: a game against the engine from any legal position.
//! The engine searches with every technique (null move included) within a
//! node budget (so its moves are the same on every machine) and optionally
//! a time budget, with our endgame tables as exact leaves.

use super::board::{Color, Move, Role};
use super::engine::{with_earlier, ChessSearch};
use super::full::FullPosition;
use crate::games::query::QueryContext;
use crate::search::{self, describe, Engine, Options};
use anyhow::{bail, Result};
use std::io::{BufRead, Write};

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(feature = "cli", command(
    about = "Play chess against the engine from any position",
    after_help = "Examples:\n  nimrod play chess\n  nimrod play chess --fen \"8/8/8/8/2r5/8/2k5/K6Q w - - 0 1\" --as black --nodes 200000\n  nimrod play chess --movetime 500 --nodes 100000000\n\nMoves are read as UCI (e2e4, e7e8q) or SAN (Nf3, O-O); 'quit' ends the game."
))]
/// The arguments of `nimrod play chess` (a library caller fills it in).
#[derive(Clone, Debug, PartialEq)]
pub struct ChessPlay {
    /// Starting position (default: the initial position).
    #[cfg_attr(feature = "cli", arg(long, default_value = FullPosition::START))]
    pub fen: String,
    /// Your colour.
    #[cfg_attr(feature = "cli", arg(long = "as", default_value = "white", value_parser = ["white", "black"]))]
    pub side: String,
    /// Engine nodes per move.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 300_000, value_parser = clap::value_parser!(u64).range(1..=MAX_PLAY_NODES)))]
    pub nodes: u64,
    /// Also stop each engine move after this many milliseconds (the game
    /// then depends on the machine's speed; nodes alone are repeatable).
    #[cfg_attr(feature = "cli", arg(long = "movetime", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_MOVE_TIME_MS)))]
    pub move_time_ms: Option<u64>,
}

/// The command line's defaults, so that a library caller's
/// `ChessPlay { .., ..Default::default() }` asks what the command would.
impl Default for ChessPlay {
    fn default() -> Self {
        ChessPlay {
            fen: FullPosition::START.into(),
            side: "white".into(),
            nodes: 300_000,
            move_time_ms: None,
        }
    }
}

/// SAN with castling written as O-O / O-O-O.
pub fn san(g: &FullPosition, m: &Move) -> String {
    if m.role == Role::King && m.from.abs_diff(m.to) == 2 {
        let mut s = if m.to > m.from { "O-O" } else { "O-O-O" }.to_string();
        let after = g.play(m);
        let mut replies = Vec::new();
        after.legal_moves(&mut replies);
        if after.board.in_check(after.turn()) {
            s.push(if replies.is_empty() { '#' } else { '+' });
        }
        return s;
    }
    g.board.san(m)
}

fn parse_move(g: &FullPosition, text: &str) -> Option<Move> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let plain = |s: &str| s.trim_end_matches(['+', '#', '!', '?']).replace('0', "O");
    let want = plain(text.trim());
    moves
        .into_iter()
        .find(|m| m.uci() == text.trim() || plain(&san(g, m)) == want)
}

fn show(g: &FullPosition, out: &mut dyn Write) -> Result<()> {
    for rank in (0..8u8).rev() {
        let row: String = (0..8u8)
            .map(|file| match g.board.piece_at(rank * 8 + file) {
                Some((Color::White, r)) => r.letter(),
                Some((_, r)) => r.letter().to_ascii_lowercase(),
                None => '.',
            })
            .collect();
        writeln!(out, "  {} {row}", rank + 1)?;
    }
    writeln!(out, "    abcdefgh")?;
    Ok(())
}

/// The most nodes the machine may search a move.
pub const MAX_PLAY_NODES: u64 = 1_000_000_000;
/// The longest the machine may think a move, in milliseconds (an hour).
pub const MAX_MOVE_TIME_MS: u64 = 3_600_000;

/// Plays one game on `input`/`output` (see `ChessPlay`).
pub fn play(
    p: &ChessPlay,
    ctx: &QueryContext,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    // The command line's ranges, held for library callers too.
    crate::ensure_input!(
        (1..=MAX_PLAY_NODES).contains(&p.nodes),
        "play chess: --nodes {} is out of range (1 ..= {MAX_PLAY_NODES})",
        p.nodes
    );
    crate::ensure_input!(
        p.move_time_ms.is_none_or(|ms| (1..=MAX_MOVE_TIME_MS).contains(&ms)),
        "play chess: --movetime {} is out of range (1 ..= {MAX_MOVE_TIME_MS} ms)",
        p.move_time_ms.unwrap_or(0)
    );
    crate::ensure_input!(
        p.side == "white" || p.side == "black",
        "play chess: --as {:?}: white or black",
        p.side
    );
    let mut game = FullPosition::from_fen(&p.fen).map_err(crate::games::error::bad_input)?;
    let human = if p.side == "white" {
        Color::White
    } else {
        Color::Black
    };
    let tables = super::query::all_tables(&ctx.data_dir)?;
    let mut earlier: Vec<FullPosition> = Vec::new();
    writeln!(
        out,
        "You play {}. The engine searches {} nodes a move{}{}.",
        p.side,
        p.nodes,
        match p.move_time_ms {
            Some(ms) => format!(" or {ms} ms, whichever ends first"),
            None => String::new(),
        },
        if tables.1 > 0 {
            format!(", with {} endgame tables as exact leaves", tables.1)
        } else {
            String::new()
        }
    )?;
    loop {
        show(&game, out)?;
        let s = with_earlier(ChessSearch::new(game, Some(&tables.0), 5), &earlier);
        if let Some(end) = search::Position::ended(&s) {
            let text = match (end, game.turn() == human) {
                (search::Ended::Drawn, _) => "Draw.",
                (search::Ended::Lost, true) => "Checkmate: the engine wins.",
                (search::Ended::Lost, false) => "Checkmate: you win.",
            };
            writeln!(out, "{text}")?;
            return Ok(());
        }
        let m = if game.turn() == human {
            // End of input is an error here as in every game's play.
            let line = crate::games::query::read_answer(input, out, "your move> ", "chess")?;
            if line == "quit" {
                writeln!(out, "Game left unfinished.")?;
                return Ok(());
            }
            match parse_move(&game, &line) {
                Some(m) => m,
                None => {
                    writeln!(out, "'{}' is not a legal move here.", line.trim())?;
                    continue;
                }
            }
        } else {
            let mut s = s;
            // Every technique, null move included: playing strength, not
            // proof. A mate it sees is reported as the search's score;
            // `query chess --search` (no null move) is the proving mode.
            let mut o = Options::all(20);
            o.node_budget = Some(p.nodes);
            o.time_budget = p.move_time_ms.map(std::time::Duration::from_millis);
            let r = Engine::new(o).search(&mut s, 64);
            let Some(m) = r.best else {
                bail!("the engine found no move in {}", game.board.fen());
            };
            let how = if r.distance_exact() {
                format!("sees {}", describe(r.score))
            } else if r.proven() {
                format!("sees {}", crate::search::describe_bound(r.score))
            } else {
                format!("evaluation {:+}, depth {}", r.score, r.depth)
            };
            writeln!(out, "engine plays {} ({how})", san(&game, &m))?;
            m
        };
        earlier.push(game);
        game = game.play(&m);
    }
}
