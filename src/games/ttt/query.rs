//! `nimrod query ttt`: value, distance and optimal moves of a board; the
//! 15 game through the same table; the classic-machines report.

use super::board::{self, parse_board, render, Geometry, Position};
use super::jobs::{board_id, BoardTable};
use super::machines::MachinesStats;
use super::solve::Solved;
use crate::games::query::{open_table, table_params, table_stats, Answer, QueryContext};
use crate::table::Table;
use anyhow::{bail, Context, Result};
use serde::Serialize;

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        after_help = "Examples:\n  nimrod query ttt \"xo..x....\"\n  nimrod query ttt --defensive --trials 10000\n  nimrod query ttt --size 4x4 --k 3 \"x...............\"\n  nimrod query ttt --fifteen --first 2,9 --second 5"
    )
)]
#[cfg_attr(
    feature = "cli",
    command(about = "noughts and crosses / m,n,k-games: value and optimal moves")
)]
/// The arguments of `nimrod query ttt` (a library caller fills it in).
#[derive(Clone, Debug, PartialEq)]
pub struct TttQuery {
    /// The board, rows concatenated: x, o and . (e.g. "x.o.x....").
    pub board: Option<String>,
    /// Board size ROWSxCOLS.
    #[cfg_attr(feature = "cli", arg(long, default_value = "3x3"))]
    pub size: String,
    /// Marks in a row to win (default 3 on 3x3; required otherwise).
    #[cfg_attr(feature = "cli", arg(long))]
    pub k: Option<usize>,
    /// The 15 game: numbers 1-9 taken by the first player (comma list).
    #[cfg_attr(
        feature = "cli",
        arg(long, value_delimiter = ',', requires = "fifteen")
    )]
    pub first: Vec<u32>,
    /// The 15 game: numbers taken by the second player.
    #[cfg_attr(
        feature = "cli",
        arg(long, value_delimiter = ',', requires = "fifteen")
    )]
    pub second: Vec<u32>,
    /// Answer a position of "pick three numbers summing to 15".
    #[cfg_attr(feature = "cli", arg(long))]
    pub fifteen: bool,
    /// The classic machines measured against the 3x3 table.
    #[cfg_attr(feature = "cli", arg(long))]
    pub report: bool,
    /// The games chapter's defensive machine: its loophole and its losses
    /// against three opponents, simulated and exact (no table needed).
    #[cfg_attr(feature = "cli", arg(long, conflicts_with_all = ["report", "fifteen", "board"]))]
    pub defensive: bool,
    /// Games per opponent (and loophole tries) for --defensive.
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value_t = 100_000, requires = "defensive")
    )]
    pub trials: u64,
    /// Seed of --defensive's simulated games.
    #[cfg_attr(
        feature = "cli",
        arg(long, default_value_t = 1961, requires = "defensive")
    )]
    pub seed: u64,
}

/// The command line's defaults, so that a library caller's
/// `TttQuery { .., ..Default::default() }` asks what the command would.
impl Default for TttQuery {
    fn default() -> Self {
        TttQuery {
            board: None,
            size: "3x3".into(),
            k: None,
            first: vec![],
            second: vec![],
            fifteen: false,
            report: false,
            defensive: false,
            trials: 100_000,
            seed: 1961,
        }
    }
}

/// The Lo Shu magic square: every line sums to 15, and the eight triples
/// of 1..9 summing to 15 are exactly its eight lines.
pub const MAGIC: [u32; 9] = [2, 7, 6, 9, 5, 1, 4, 3, 8];

fn cell_name(g: &Geometry, cell: usize) -> String {
    format!(
        "{} (row {}, col {})",
        cell + 1,
        cell / g.cols + 1,
        cell % g.cols + 1
    )
}

fn outcome(value: i8, to_move: char) -> String {
    let other = if to_move == 'X' { 'O' } else { 'X' };
    match value {
        1 => format!("win for {to_move} (the side to move)"),
        -1 => format!("loss for {to_move}: {other} wins"),
        _ => "draw".into(),
    }
}

pub fn answer(q: &TttQuery, ctx: &QueryContext) -> Result<Answer> {
    if q.report {
        return report(ctx);
    }
    if q.defensive {
        return Ok(Answer::of(&super::defensive::report(q.trials, q.seed)?));
    }
    let (rows, cols) = q
        .size
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
        .ok_or_else(|| {
            crate::games::error::bad_input(anyhow::anyhow!(
                "query ttt: --size {:?}: expected ROWSxCOLS, e.g. 4x4",
                q.size
            ))
        })?;
    let k = match q.k {
        Some(k) => k,
        None if rows == 3 && cols == 3 => 3,
        None => crate::bail_input!("query ttt: give --k for a {rows}x{cols} board"),
    };
    let g = Geometry::new(rows, cols, k)
        .map_err(|e| crate::games::error::bad_input(anyhow::anyhow!("query ttt: {e}")))?;
    let p = if q.fifteen {
        crate::ensure_input!(
            rows == 3 && cols == 3 && k == 3,
            "query ttt: --fifteen is the 3x3 game"
        );
        crate::ensure_input!(
            q.board.is_none(),
            "query ttt: --fifteen takes --first/--second, not a board"
        );
        let mut p = Position::default();
        for (list, is_first) in [(&q.first, true), (&q.second, false)] {
            for &n in list.iter() {
                let Some(cell) = MAGIC.iter().position(|&m| m == n) else {
                    crate::bail_input!("query ttt: number {n} is not in 1..9");
                };
                crate::ensure_input!(
                    p.occupied() >> cell & 1 == 0,
                    "query ttt: number {n} is taken twice"
                );
                if is_first {
                    p.x |= 1 << cell;
                } else {
                    p.o |= 1 << cell;
                }
            }
        }
        p
    } else {
        let Some(b) = &q.board else {
            crate::bail_input!(
                "query ttt: give a board (e.g. \"x.o.x....\"), --fifteen or --report"
            );
        };
        parse_board(&g, b)
            .map_err(|e| crate::games::error::bad_input(anyhow::anyhow!("query ttt: {e}")))?
    };
    // Tables hold boards with rows <= cols; a taller board is the stored
    // wide one transposed (the same game: lines map to lines).
    let transposed = g.rows > g.cols;
    let (tg, tp) = if transposed {
        let tg =
            Geometry::new(g.cols, g.rows, g.k).map_err(|e| anyhow::anyhow!("query ttt: {e}"))?;
        let tp = Position {
            x: transpose(p.x, g.rows, g.cols),
            o: transpose(p.o, g.rows, g.cols),
        };
        (tg, tp)
    } else {
        (g.clone(), p)
    };
    let t = open_table(&ctx.data_dir, &board_id(&tg))?;
    let (canon, sym, slot, s) =
        lookup(&t, &tg, tp).map_err(|e| anyhow::anyhow!("query ttt: {e}"))?;
    let mut best = tg.untransform(sym, s.best);
    if transposed {
        best = transpose(best, tg.rows, tg.cols);
    }
    let moves: Vec<usize> = (0..g.cells()).filter(|i| best >> i & 1 == 1).collect();
    let to_move = if p.x_to_move() { 'X' } else { 'O' };
    Ok(Answer::of(&TttAnswer {
        game: "ttt",
        board: render(&g, p),
        rows: g.rows,
        cols: g.cols,
        k: g.k,
        to_move: to_move.to_string(),
        value: s.value,
        distance: s.distance,
        optimal_moves: moves.iter().map(|c| c + 1).collect(),
        optimal_picks: q.fifteen.then(|| moves.iter().map(|&c| MAGIC[c]).collect()),
        template: slot,
        template_board: render(&tg, canon),
        transposed_from: transposed.then(|| tg.name()),
        symmetry: sym,
        outcome: outcome(s.value, to_move),
        move_names: moves.iter().map(|&c| cell_name(&g, c)).collect(),
        templates: t.len(),
    }))
}

/// `nimrod query ttt BOARD`.
#[derive(Serialize)]
struct TttAnswer {
    game: &'static str,
    board: String,
    rows: usize,
    cols: usize,
    k: usize,
    to_move: String,
    /// +1 the player to move wins, 0 draw, -1 loses.
    value: i8,
    /// Plies to the end under best play.
    distance: u8,
    /// Optimal cells, numbered from 1 row by row.
    optimal_moves: Vec<usize>,
    /// In the 15 game, the optimal numbers (null otherwise).
    optimal_picks: Option<Vec<u32>>,
    template: u64,
    template_board: String,
    symmetry: usize,
    /// The stored board this one was answered from, transposed (a board
    /// with more rows than columns), else null.
    transposed_from: Option<String>,
    #[serde(skip)]
    outcome: String,
    #[serde(skip)]
    move_names: Vec<String>,
    #[serde(skip)]
    templates: u64,
}

impl std::fmt::Display for TttAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fifteen = self.optimal_picks.is_some();
        if fifteen {
            writeln!(f, "the 15 game on the magic square  2 7 6 / 9 5 1 / 4 3 8  (a line = three numbers summing to 15)")?;
            writeln!(f, "  position as noughts and crosses: {}", self.board)?;
        } else {
            writeln!(
                f,
                "{}x{} board, {} in a row: {}",
                self.rows, self.cols, self.k, self.board
            )?;
        }
        let mover = match (fifteen, self.to_move.as_str()) {
            (true, "X") => "first player",
            (true, _) => "second player",
            (false, m) => m,
        };
        writeln!(f, "  to move   {mover}")?;
        writeln!(f, "  value     {}", self.outcome)?;
        writeln!(
            f,
            "  distance  {} to the end under best play",
            crate::search::plies(i32::from(self.distance))
        )?;
        match &self.optimal_picks {
            _ if self.optimal_moves.is_empty() => writeln!(f, "  the game is over")?,
            Some(picks) => {
                let picks: Vec<String> = picks.iter().map(u32::to_string).collect();
                writeln!(f, "  optimal picks: {}", picks.join(" "))?
            }
            None => writeln!(f, "  optimal moves: {}", self.move_names.join(", "))?,
        }
        writeln!(
            f,
            "  template  #{} of {} ({} under symmetry {})",
            self.template, self.templates, self.template_board, self.symmetry
        )?;
        if let Some(from) = &self.transposed_from {
            writeln!(f, "  answered from the {from} table, transposed")?;
        }
        Ok(())
    }
}

/// A board's cells transposed: cell (r, c) of a rows x cols board goes to
/// cell (c, r) of the cols x rows board.
fn transpose(mask: u32, rows: usize, cols: usize) -> u32 {
    let mut out = 0;
    for r in 0..rows {
        for c in 0..cols {
            if mask >> (r * cols + c) & 1 == 1 {
                out |= 1 << (c * rows + r);
            }
        }
    }
    out
}

fn report(ctx: &QueryContext) -> Result<Answer> {
    let t = open_table(&ctx.data_dir, "ttt/machines")?;
    let stats: MachinesStats = table_stats(&t)?;
    Ok(Answer::of(&MachinesAnswer(stats)))
}

/// `nimrod query ttt --report`: the stored statistics as they are.
#[derive(Serialize)]
#[serde(transparent)]
struct MachinesAnswer(MachinesStats);

impl std::fmt::Display for MachinesAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for m in &self.0.machines {
            writeln!(
                f,
                "{} as {}: {} games against every reply: {} won, {} drawn, {} lost",
                m.machine, m.plays, m.games, m.wins, m.draws, m.losses
            )?;
            for l in &m.losing_lines {
                writeln!(f, "    lost: {l}")?;
            }
            for e in &m.mistakes {
                let optimal = serde_json::to_string(&e.optimal).map_err(|_| std::fmt::Error)?;
                writeln!(
                    f,
                    "    mistake at {}: plays {}, optimal {optimal}, value {} -> {}",
                    e.board, e.chose, e.value_before, e.value_after
                )?;
            }
        }
        for c in &self.0.menace.curves {
            let (a, z) = (&c.first_10_games, &c.last_10_games);
            writeln!(
                f,
                "MENACE vs {} ({} runs x {} games): first 10 games win/draw/loss {:.3}/{:.3}/{:.3}, last 10 {:.3}/{:.3}/{:.3}",
                c.opponent, c.runs, c.games_per_run, a.wins, a.draws, a.losses, z.wins, z.draws, z.losses,
            )?;
        }
        writeln!(
            f,
            "MENACE milestones, games trained after which each holds to the end (median [quartiles] over the runs; Michie 1961, first series: 17, 20, 220):"
        )?;
        let show = |m: &Option<super::menace::MilestoneSpread>, runs: u64| match m {
            None => "never".to_string(),
            Some(s) => {
                let n = |x: Option<u64>| x.map_or("never".into(), |v| v.to_string());
                format!(
                    "{} [{}, {}], {} of {runs} runs",
                    n(s.median),
                    n(s.lower_quartile),
                    n(s.upper_quartile),
                    s.runs_reached
                )
            }
        };
        for m in self.0.menace.milestones.values() {
            writeln!(
                f,
                "  vs {} ({} runs x {} games): corner openings only {}; draws against correct play {}; punishes every unsound line {}",
                m.opponent,
                m.runs,
                m.games_per_run,
                show(&m.corner_only_from_game, m.runs),
                show(&m.draws_vs_perfect_from_game, m.runs),
                show(&m.punishes_unsound_from_game, m.runs),
            )?;
        }
        writeln!(
            f,
            "(cells 1-9 row-major; curves in menace.csv and menace.svg beside the table)"
        )
    }
}

/// The geometry a board table was built for.
pub fn table_geometry(t: &Table) -> Result<Geometry> {
    let p: BoardTable = table_params(t)?;
    Geometry::new(p.rows, p.cols, p.k)
        .with_context(|| format!("{}: ttt board parameters", t.path().display()))
}

/// Looks a position up: its canonical template, the symmetry that maps the
/// position onto it, the template's slot and solution.
pub fn lookup(t: &Table, g: &Geometry, p: Position) -> Result<(Position, usize, u64, Solved)> {
    board::check_legal(g, p)?;
    let (canon, sym) = g.canonical(p);
    let Some(slot) = t.slot_of_key(canon.key())? else {
        bail!(
            "position {} cannot arise in play (a finished game continued?)",
            board::render(g, p)
        );
    };
    let Some(s) = Solved::decode(t.get::<u32>(slot)?) else {
        bail!(
            "{}: corrupt entry at slot {slot}; run nimrod verify",
            t.path().display()
        );
    };
    Ok((canon, sym, slot, s))
}
