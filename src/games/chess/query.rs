//! `nimrod query chess "<FEN>"`: value, distance to mate, every move with
//! its value, and a principal variation; `--stats KQvKR` prints a table's
//! statistics.

use super::bitboard::square_name;
use super::board::{Board, Color, Move};
use super::material::Material;
use super::probe::{table_id, Tablebase};
use super::solve::TableStats;
use super::value::Value;
use super::MAX_PIECES;
use crate::games::query::{open_table, table_stats, Answer, QueryContext};
use anyhow::{bail, Context, Result};
use serde::Serialize;

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(feature = "cli", command(
    after_help = "Examples:\n  nimrod query chess \"8/8/8/8/2r5/8/2k5/K6Q w - - 0 1\"\n  nimrod query chess --stats KQvKR\n  nimrod query chess --sample 10 --table KQvKR --seed 1\n  nimrod query chess --fens positions.txt --json\n  nimrod query chess --search \"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\""
))]
#[cfg_attr(feature = "cli", command(about = "Chess endgames: value, distance to mate, moves, principal variation"))]
/// The arguments of `nimrod query chess` (a library caller fills it in).
#[derive(Clone, Debug, PartialEq)]
pub struct ChessQuery {
    /// Position in FEN: castling "-" (use --search for positions with castling rights); an en passant square is taken into account.
    pub fen: Option<String>,
    /// Answer every FEN of a file, one a line ("-" reads standard input):
    /// one line of output per line of input, in order (with --json one JSON
    /// object a line, the fields of a single query; a line without an
    /// answer gives an error object and the exit status is 1 at the end).
    #[cfg_attr(feature = "cli", arg(long, value_name = "FILE", conflicts_with_all = ["fen", "stats", "sample", "search"]))]
    pub fens: Option<String>,
    /// Print the statistics of one table (e.g. KQvKR) instead.
    #[cfg_attr(feature = "cli", arg(long))]
    pub stats: Option<String>,
    /// Print this many positions drawn at random (seeded) from a table,
    /// with their DTM, for comparison with other tablebases.
    #[cfg_attr(feature = "cli", arg(long, requires = "table"))]
    pub sample: Option<u64>,
    /// The table to sample (e.g. KQvKR).
    #[cfg_attr(feature = "cli", arg(long))]
    pub table: Option<String>,
    /// Seed of the sample.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// Search the position (any legal position, castling and en passant
    /// included) instead of reading it from a table: a proven result (mate
    /// in n, or table-backed) or "unknown within budget".
    #[cfg_attr(feature = "cli", arg(long))]
    pub search: bool,
    /// Node budget of --search.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 5_000_000, value_parser = clap::value_parser!(u64).range(1..=MAX_SEARCH_NODES)))]
    pub nodes: u64,
    /// Deepest iteration of --search, in plies.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=MAX_SEARCH_DEPTH as i64)))]
    pub depth: u32,
}

/// The command line's defaults, so that a library caller's
/// `ChessQuery { .., ..Default::default() }` asks what the command would.
impl Default for ChessQuery {
    fn default() -> Self {
        ChessQuery {
            fen: None,
            fens: None,
            stats: None,
            sample: None,
            table: None,
            seed: 1,
            search: false,
            nodes: 5_000_000,
            depth: 64,
        }
    }
}

/// The most nodes `--search` may spend.
pub const MAX_SEARCH_NODES: u64 = 10_000_000_000;
/// The deepest iteration `--search` may run, in plies.
pub const MAX_SEARCH_DEPTH: u32 = 200;

/// Signed distance to mate in plies, positive when the side to move wins
/// (as Gaviota reports it); 0 for draws and for a side already mated.
pub fn dtm_plies(v: Value) -> i64 {
    match v {
        Value::Win(m) => 2 * m as i64 - 1,
        Value::Loss(m) => -2 * m as i64,
        _ => 0,
    }
}

/// One move of a position and what it leads to.
pub struct Line {
    /// The move.
    pub mv: Move,
    /// The move in SAN.
    pub san: String,
    /// Value for the side that plays the move.
    pub value: Value,
}

/// Every legal move with its value for the mover, best first (faster wins,
/// then draws, then slower losses; generation order breaks ties, so the
/// same position always lists the same way). `pushed` is the square of a
/// pawn that has just advanced two squares, when en passant is allowed.
pub fn rated_moves(tb: &Tablebase, b: &Board, pushed: Option<u8>) -> Result<Vec<Line>> {
    Ok(tb
        .best_moves(b, pushed)?
        .into_iter()
        .map(|(mv, value)| Line {
            san: b.san(&mv),
            mv,
            value,
        })
        .collect())
}

/// Value for the side to move, with an en passant right when `pushed` is
/// given (the stored value is for the position without it).
pub fn position_value(tb: &Tablebase, b: &Board, pushed: Option<u8>) -> Result<Value> {
    tb.value_with_en_passant(b, pushed)
}

/// Best play from `b` until mate (empty for draws), both sides choosing
/// the first of their rated moves.
pub fn principal_variation(tb: &Tablebase, b: &Board, pushed: Option<u8>) -> Result<Vec<Line>> {
    let mut pv = Vec::new();
    let mut pos = *b;
    let mut pushed = pushed;
    if position_value(tb, &pos, pushed)?.wdl() == 0 {
        return Ok(pv);
    }
    for _ in 0..600 {
        let mut lines = rated_moves(tb, &pos, pushed)?;
        if lines.is_empty() {
            break;
        }
        let best = lines.swap_remove(0);
        pushed = best.mv.is_double_push().then_some(best.mv.to);
        pos = pos.play(&best.mv);
        pv.push(best);
    }
    Ok(pv)
}

/// The answer to `query chess` (a table look-up, `--stats`, or `--search`).
pub fn answer(q: &ChessQuery, ctx: &QueryContext) -> Result<Answer> {
    if let Some(name) = &q.stats {
        return stats(name, ctx);
    }
    if let Some(source) = &q.fens {
        return Ok(super::bulk::answer(source, &ctx.data_dir));
    }
    if let (Some(count), Some(name)) = (q.sample, &q.table) {
        return sample(name, count, q.seed, ctx);
    }
    let Some(fen) = &q.fen else {
        crate::bail_input!("query chess: give a position as FEN, or --stats MATERIAL");
    };
    if q.search {
        // The command line's ranges, held for library callers too.
        crate::ensure_input!(
            (1..=MAX_SEARCH_NODES).contains(&q.nodes),
            "query chess: --nodes {} is out of range (1 ..= {MAX_SEARCH_NODES})",
            q.nodes
        );
        crate::ensure_input!(
            (1..=MAX_SEARCH_DEPTH).contains(&q.depth),
            "query chess: --depth {} is out of range (1 ..= {MAX_SEARCH_DEPTH})",
            q.depth
        );
        return searched(fen, q.nodes, q.depth, ctx);
    }
    let (board, pushed, canonical) = parse_position(fen)?;
    let tb = open_for(&ctx.data_dir, canonical)?;
    Ok(Answer::of(&position_answer(&board, pushed, canonical, &tb)?))
}

/// A FEN read for a table look-up: the board, the square of a pawn that
/// has just advanced two squares when the FEN gives an en passant square,
/// and the canonical material of the table it needs.
pub(super) fn parse_position(fen: &str) -> Result<(Board, Option<u8>, Material)> {
    let (board, pushed) =
        Board::from_fen_with_en_passant(fen).map_err(crate::games::error::bad_input)?;
    if board.piece_count() > MAX_PIECES {
        crate::bail_input!(
            "FEN \"{fen}\": {} pieces; the tables go up to {MAX_PIECES} pieces, kings included",
            board.piece_count()
        );
    }
    Ok((board, pushed, Material::of(&board).canonical()))
}

/// The tables a position of `canonical` material needs (its own and those
/// its captures and promotions lead to); none for bare kings.
pub(super) fn open_for(data_dir: &std::path::Path, canonical: Material) -> Result<Tablebase> {
    if canonical.pieces() == 2 {
        return Ok(Tablebase::default());
    }
    // The table error stays in the chain: the boundary reads its kind
    // (missing or damaged) from it.
    // WDL-form tables answer too, as win/draw/loss (`position_answer`).
    let tb = Tablebase::open_closure_any(data_dir, canonical).with_context(|| {
        format!(
            "the position needs table {} and those it converts to",
            table_id(&canonical)
        )
    })?;
    // A query probes a few hundred positions: pages, not read-ahead.
    tb.advise_random();
    Ok(tb)
}

/// Everything `query chess FEN` says about a position, from open tables.
pub(super) fn position_answer(
    board: &Board,
    pushed: Option<u8>,
    canonical: Material,
    tb: &Tablebase,
) -> Result<PositionAnswer> {
    if tb.is_wdl_only() {
        return wdl_answer(board, pushed, canonical, tb);
    }
    let value = position_value(tb, board, pushed)?;
    let lines = rated_moves(tb, board, pushed)?;
    let pv = principal_variation(tb, board, pushed)?;
    let turn = turn_name(board);
    let shown = shown_fen(board, pushed);
    let rated = |l: &Line| RatedMove {
        uci: l.mv.uci(),
        san: l.san.clone(),
        wdl: l.value.wdl(),
        dtm_plies: Some(dtm_plies(l.value)),
        value: l.value.describe(),
    };
    Ok(PositionAnswer {
        fen: shown,
        table: canonical.name(),
        turn,
        wdl: value.wdl(),
        dtm_plies: Some(dtm_plies(value)),
        dtm_moves: Some(match value {
            Value::Win(m) => m as i64,
            Value::Loss(m) => -(m as i64),
            _ => 0,
        }),
        value: value.describe(),
        moves: lines.iter().map(rated).collect(),
        pv: pv.iter().map(|l| l.san.clone()).collect(),
        pv_uci: pv.iter().map(|l| l.mv.uci()).collect(),
    })
}

/// [`position_answer`] from a tablebase with a WDL-form table open: win,
/// draw or loss for the position and each move, no distances (null) and
/// no line of best play (without distances a "best" line need not end).
fn wdl_answer(
    board: &Board,
    pushed: Option<u8>,
    canonical: Material,
    tb: &Tablebase,
) -> Result<PositionAnswer> {
    let word = |wdl: i32| match wdl {
        1 => "win",
        0 => "draw",
        _ => "loss",
    };
    let wdl = position_value(tb, board, pushed)?.wdl();
    let moves = tb
        .best_moves_wdl(board, pushed)?
        .into_iter()
        .map(|(mv, w)| RatedMove {
            uci: mv.uci(),
            san: board.san(&mv),
            wdl: w,
            dtm_plies: None,
            value: word(w).to_string(),
        })
        .collect();
    Ok(PositionAnswer {
        fen: shown_fen(board, pushed),
        table: canonical.name(),
        turn: turn_name(board),
        wdl,
        dtm_plies: None,
        dtm_moves: None,
        value: word(wdl).to_string(),
        moves,
        pv: Vec::new(),
        pv_uci: Vec::new(),
    })
}

fn turn_name(board: &Board) -> &'static str {
    if board.turn == Color::White {
        "white"
    } else {
        "black"
    }
}

/// The position's FEN, with the en passant square when a right exists.
fn shown_fen(board: &Board, pushed: Option<u8>) -> String {
    match pushed {
        Some(sq) => {
            let ep = if board.turn == Color::White {
                sq + 8
            } else {
                sq - 8
            };
            board
                .fen()
                .replacen(" - - ", &format!(" - {} ", square_name(ep)), 1)
        }
        None => board.fen(),
    }
}

/// One legal move with its value for the mover.
#[derive(Serialize)]
pub(super) struct RatedMove {
    uci: String,
    pub(super) san: String,
    wdl: i32,
    /// None (null) from a WDL-form table.
    dtm_plies: Option<i64>,
    value: String,
}

/// `nimrod query chess FEN`.
#[derive(Serialize)]
pub(super) struct PositionAnswer {
    pub(super) fen: String,
    /// The table's material, stronger side first.
    pub(super) table: String,
    turn: &'static str,
    /// +1 win, 0 draw, -1 loss for the side to move.
    pub(super) wdl: i32,
    /// Signed plies to mate; None (null) from a WDL-form table.
    pub(super) dtm_plies: Option<i64>,
    dtm_moves: Option<i64>,
    pub(super) value: String,
    /// Every legal move, best first.
    pub(super) moves: Vec<RatedMove>,
    /// Best play to mate, in SAN and UCI.
    pv: Vec<String>,
    pv_uci: Vec<String>,
}

impl std::fmt::Display for PositionAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let turn = self.turn;
        writeln!(f, "position  {}", self.fen)?;
        writeln!(f, "table     {} ({turn} to move)", self.table)?;
        match self.dtm_plies {
            Some(d) => writeln!(
                f,
                "value     {} for {turn}; DTM {}",
                self.value,
                crate::search::plies(d as i32)
            )?,
            None => writeln!(
                f,
                "value     {} for {turn}; DTM not stored (a WDL-form table)",
                self.value
            )?,
        }
        writeln!(f, "moves     {} legal, best first:", self.moves.len())?;
        for m in &self.moves {
            writeln!(f, "  {:<8} {:<6} {}", m.san, m.uci, m.value)?;
        }
        if !self.pv.is_empty() {
            // Move numbers: a line that starts with black opens "1... ".
            let white_first = turn == "white";
            let mut s = String::new();
            let mut number = 1;
            for (i, san) in self.pv.iter().enumerate() {
                if i == 0 && !white_first {
                    s.push_str("1... ");
                    number = 2;
                } else if (i % 2 == 0) == white_first {
                    s.push_str(&format!("{number}. "));
                    number += 1;
                }
                s.push_str(san);
                s.push(' ');
            }
            writeln!(f, "pv        {}", s.trim_end())?;
        }
        Ok(())
    }
}

fn stats(name: &str, ctx: &QueryContext) -> Result<Answer> {
    let m = Material::parse(name)
        .map_err(crate::games::error::bad_input)?
        .canonical();
    let t = open_table(&ctx.data_dir, &table_id(&m))?;
    let stats: TableStats = table_stats(&t)?;
    Ok(Answer::of(&StatsAnswer {
        table: m.name(),
        stats,
    }))
}

/// `nimrod query chess --stats MATERIAL`.
#[derive(Serialize)]
struct StatsAnswer {
    table: String,
    stats: TableStats,
}

impl std::fmt::Display for StatsAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = &self.stats;
        writeln!(
            f,
            "table {}  ({} plies of retrograde analysis)",
            self.table, s.plies
        )?;
        writeln!(
            f,
            "{:<14} {:>12} {:>12} {:>12} {:>12} {:>12}  {:<22} {:<22}",
            "side to move",
            "legal",
            "stored",
            "wins",
            "draws",
            "losses",
            "longest win (positions)",
            "longest loss (positions)"
        )?;
        for (label, r) in [("white", &s.white_to_move), ("black", &s.black_to_move)] {
            writeln!(
                f,
                "{:<14} {:>12} {:>12} {:>12} {:>12} {:>12}  {:<22} {:<22}",
                label,
                r.legal,
                r.stored,
                r.wins,
                r.draws,
                r.losses,
                format!("mate in {} ({})", r.longest_win, r.longest_win_positions),
                format!("mated in {} ({})", r.longest_loss, r.longest_loss_positions),
            )?;
        }
        writeln!(
            f,
            "mutual zugzwangs: {} both lose, {} white to move draws / black to move loses, {} black to move draws / white to move loses",
            s.mutual_zugzwang_both_lose, s.mutual_zugzwang_white_draws, s.mutual_zugzwang_black_draws
        )?;
        writeln!(
            f,
            "(legal counts every board; stored counts positions up to symmetry)"
        )
    }
}

/// The materials of the chess tables in a data directory (raw or packed),
/// canonical, each once, by name.
pub fn table_materials(data_dir: &std::path::Path) -> Vec<Material> {
    let mut materials = Vec::new();
    if let Ok(dir) = std::fs::read_dir(data_dir.join("chess")) {
        for e in dir.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(m) = name
                .strip_suffix(".nmt.zst")
                .or_else(|| name.strip_suffix(".nmt"))
                .and_then(|n| Material::parse(n).ok())
            {
                materials.push(m.canonical());
            }
        }
    }
    materials.sort_by_key(|m| m.name());
    materials.dedup_by_key(|m| m.name());
    materials
}

/// Every chess table in the data directory (raw or packed), and how many.
pub fn all_tables(data_dir: &std::path::Path) -> Result<(Tablebase, usize)> {
    let materials = table_materials(data_dir);
    let n = materials.len();
    Ok((Tablebase::open(data_dir, &materials)?, n))
}

/// `--search`: the engine in its exact mode (no null-move pruning) with
/// every table in the data directory as exact leaves. Only a proven score
/// is reported as a result; otherwise the answer says "unknown" and labels
/// the best move found and its evaluation as a guess.
fn searched(fen: &str, nodes: u64, depth: u32, ctx: &QueryContext) -> Result<Answer> {
    use super::engine::ChessSearch;
    use super::full::FullPosition;
    use crate::search::{describe, describe_bound, Engine, Options};
    let game = FullPosition::from_fen(fen).map_err(crate::games::error::bad_input)?;
    let (tb, loaded) = all_tables(&ctx.data_dir)?;
    let mut p = ChessSearch::new(game, Some(&tb), MAX_PIECES);
    let mut opts = Options::exact(22);
    opts.node_budget = Some(nodes);
    let mut r = Engine::new(opts).search(&mut p, depth);
    // The root itself in a table: its value is proven, draws included (a
    // draw found by search alone is only an evaluation of 0).
    let table_backed = crate::search::Position::probe(&p);
    if let Some(s) = table_backed {
        r.score = s;
    }
    let best = r.best.map(|m| game.board.san(&m));
    let proven = r.proven() || table_backed.is_some();
    // A mate found through a table probe beyond the depth searched in full
    // is proven, but a shorter one may exist: its distance is a bound.
    let distance_exact = table_backed.is_some() || r.distance_exact();
    let result = |score| {
        if score == 0 {
            "draw".to_string()
        } else if distance_exact {
            describe(score)
        } else {
            describe_bound(score)
        }
    };
    let verdict = if proven {
        format!(
            "proven{}: {} for the side to move{}",
            if table_backed.is_some() {
                " (table-backed)"
            } else {
                ""
            },
            result(r.score),
            if distance_exact {
                String::new()
            } else {
                format!(
                    " (the distance is an upper bound: the search covered {} plies in full, nodes ran out before it proved no shorter line)",
                    r.depth
                )
            }
        )
    } else {
        format!(
            "unknown within budget ({} nodes, depth {} searched): no proven result",
            r.stats.nodes, r.depth
        )
    };
    Ok(Answer::of(&SearchAnswer {
        fen: fen.to_string(),
        proven,
        distance_exact: proven && distance_exact,
        score: r.score,
        result: proven.then(|| result(r.score)),
        best,
        depth: r.depth,
        complete: r.complete,
        stats: r.stats,
        verdict,
        tables_loaded: loaded,
    }))
}

/// `nimrod query chess FEN --search`.
#[derive(Serialize)]
struct SearchAnswer {
    fen: String,
    /// Whether the result is proven (a mate found, or a table's value).
    proven: bool,
    /// Whether a proven result's distance is exact; false: it is an upper
    /// bound ("mate in at most").
    distance_exact: bool,
    score: crate::search::Score,
    result: Option<String>,
    /// The best move found: proven when `proven`, a labelled guess if not.
    best: Option<String>,
    depth: u32,
    complete: bool,
    stats: crate::search::engine::Stats,
    #[serde(skip)]
    verdict: String,
    #[serde(skip)]
    tables_loaded: usize,
}

impl std::fmt::Display for SearchAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "position  {}", self.fen)?;
        writeln!(f, "search    {}", self.verdict)?;
        if let Some(b) = &self.best {
            if self.proven {
                writeln!(f, "best      {b}")?;
            } else {
                writeln!(
                    f,
                    "guess     {b} (evaluation {:+} centipawns at depth {}; not exact)",
                    self.score, self.depth
                )?;
            }
        }
        writeln!(
            f,
            "nodes     {} (table probes {}, transposition cut-offs {}, tables loaded {})",
            self.stats.nodes, self.stats.table_probes, self.stats.tt_cutoffs, self.tables_loaded
        )
    }
}

/// Positions one `--sample` query prints (the text and JSON are held in
/// memory; more positions come from more seeds).
pub const MAX_SAMPLE: u64 = 100_000;

/// Positions drawn uniformly (seeded) from a table's legal stored
/// positions, both sides to move, with their values.
fn sample(name: &str, count: u64, seed: u64, ctx: &QueryContext) -> Result<Answer> {
    crate::ensure_input!(
        count >= 1,
        "query chess: --sample 0 asks for no positions (1 ..= {MAX_SAMPLE})"
    );
    crate::ensure_input!(
        count <= MAX_SAMPLE,
        "query chess: --sample {count} is more than the {MAX_SAMPLE} positions one query prints; run several queries with different --seed values"
    );
    let m = Material::parse(name)
        .map_err(crate::games::error::bad_input)?
        .canonical();
    let tb = Tablebase::open(&ctx.data_dir, &[m])?;
    let t = tb.get(&m).expect("opened above");
    let mut rng = crate::rng::SplitMix64::new(seed);
    let mut rows = Vec::new();
    let mut drawn = 0;
    let mut tries = 0u64;
    while drawn < count {
        tries += 1;
        if tries > count.saturating_mul(1000).max(1_000_000) {
            bail!("table {m}: too few legal positions to sample {count}");
        }
        let turn = if rng.next_u64() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let Some(b) = t.layout.legal_board(rng.below(t.layout.positions), turn) else {
            continue;
        };
        let v = tb.value_in(t, &b)?;
        rows.push(SampledPosition {
            fen: b.fen(),
            dtm_plies: dtm_plies(v),
            wdl: v.wdl(),
        });
        drawn += 1;
    }
    Ok(Answer::of(&SampleAnswer {
        table: m.name(),
        seed,
        positions: rows,
    }))
}

/// One position drawn by `--sample`, with its stored value.
#[derive(Serialize)]
struct SampledPosition {
    fen: String,
    dtm_plies: i64,
    wdl: i32,
}

/// `nimrod query chess --table MATERIAL --sample N [--seed S]`.
#[derive(Serialize)]
struct SampleAnswer {
    table: String,
    seed: u64,
    positions: Vec<SampledPosition>,
}

impl std::fmt::Display for SampleAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for p in &self.positions {
            writeln!(f, "{} dtm {}", p.fen, p.dtm_plies)?;
        }
        Ok(())
    }
}
