//! Noughts and crosses and the m,n,k-games: every position reachable in
//! play, reduced to canonical templates under the board's symmetries and
//! solved by memoised minimax; one perfect-hashed table per board. The
//! classic machines (Michie's product rule, line scoring, MENACE) are
//! measured against the 3x3 table by the `ttt/machines` job.

pub mod board;
pub mod machines;
pub mod menace;
pub mod pairing;
mod query;
pub mod search;
pub mod solve;

use super::query::{Answer, QueryContext};
use super::{Game, Queries};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_hashed;
use crate::table::{Table, TableMeta};
use anyhow::{bail, ensure, Context, Result};
use board::{Geometry, Position};
pub use query::TttQuery;
use serde::{Deserialize, Serialize};
use serde_json::json;
use solve::{Solved, TreeStats};

/// Bumped whenever the solver's output could change; part of the parameter hash.
const SOLVER_VERSION: u32 = 1;

pub struct Ttt;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TttParams {
    /// Every board rows ≤ cols ≤ this size, all k (e.g. 4 for "up to 4x4").
    #[serde(default = "default_up_to")]
    pub all_boards_up_to: usize,
    /// More boards by name, e.g. ["4x5k4"].
    #[serde(default)]
    pub boards: Vec<String>,
    /// MENACE training: independent seeded runs and games per run.
    #[serde(default = "default_runs")]
    pub menace_runs: u64,
    #[serde(default = "default_games")]
    pub menace_games: u64,
}

fn default_up_to() -> usize {
    4
}
fn default_runs() -> u64 {
    100
}
fn default_games() -> u64 {
    500
}

pub fn board_id(g: &Geometry) -> String {
    format!("ttt/{}", g.name())
}

impl Planner for Ttt {
    fn name(&self) -> &'static str {
        "ttt"
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: TttParams = game_params(source, "ttt", section)?;
        ensure!(
            (3..=5).contains(&p.all_boards_up_to),
            "{source}: [ttt] all_boards_up_to = {} is out of range (3 ..= 5)",
            p.all_boards_up_to
        );
        let mut boards: Vec<Geometry> = Vec::new();
        for cols in 1..=p.all_boards_up_to {
            for rows in 1..=cols {
                for k in 1..=cols {
                    boards.push(Geometry::new(rows, cols, k)?);
                }
            }
        }
        for name in &p.boards {
            let g =
                Geometry::parse_name(name).with_context(|| format!("{source}: [ttt] boards"))?;
            if !boards.iter().any(|b| b.name() == g.name()) {
                boards.push(g);
            }
        }
        if !boards.iter().any(|b| b.name() == "3x3k3") {
            boards.push(Geometry::new(3, 3, 3)?);
        }
        let mut jobs: Vec<Job> = boards
            .into_iter()
            .map(|g| {
                Ok(Job {
                    id: board_id(&g),
                    deps: vec![],
                    params: serde_json::to_value(BoardJob {
                        board: g.name(),
                        solver: SOLVER_VERSION,
                    })?,
                    run: Box::new(move |ctx| build_board(ctx, &g)),
                    parts: None,
                })
            })
            .collect::<Result<_>>()?;
        let (runs, games) = (p.menace_runs, p.menace_games);
        ensure!(
            runs >= 1 && games >= 10 && runs * games <= 100_000_000,
            "{source}: [ttt] menace_runs x menace_games must be between 10 and 1e8 games, at least 10 per run"
        );
        jobs.push(Job {
            id: "ttt/machines".into(),
            deps: vec!["ttt/3x3k3".into()],
            params: serde_json::to_value(machines::MachinesJob {
                menace_runs: runs,
                menace_games: games,
                solver: SOLVER_VERSION,
            })?,
            run: Box::new(move |ctx| machines::build(ctx, runs, games)),
            parts: None,
        });
        Ok(jobs)
    }
}

impl Game for Ttt {
    fn summary(&self) -> &'static str {
        "noughts and crosses and m,n,k-games: value, distance and optimal moves of every reachable position; classic machines"
    }

    fn verify(&self, table: &Table) -> Result<()> {
        if table.meta().table == "machines" {
            return Ok(());
        }
        verify_board(table)
    }
}

impl Queries for Ttt {
    type Query = query::TttQuery;

    fn query(&self, q: &query::TttQuery, ctx: &QueryContext) -> Result<Answer> {
        query::answer(q, ctx)
    }
}

/// The parameters of one `ttt/BOARD` job (hashed into its table's header).
#[derive(Serialize)]
struct BoardJob {
    board: String,
    solver: u32,
}

/// The parameters a board table records: the job's, with the geometry
/// spelled out so a reader need not parse the board name.
#[derive(Serialize, Deserialize)]
struct BoardTable {
    board: String,
    rows: usize,
    cols: usize,
    k: usize,
    solver: u32,
}

fn build_board(ctx: &JobContext, g: &Geometry) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "memoised minimax", 1);
    let solved = solve::solve(g);
    let stats = solve::tree_stats(g, &solved);
    let mut keys: Vec<u64> = solved.keys().copied().collect();
    keys.sort_unstable();
    let entries: Vec<u32> = keys.iter().map(|k| solved[k].encode()).collect();
    write_hashed(
        &ctx.output,
        &keys,
        &entries,
        &TableMeta::new(
            "ttt",
            "board",
            serde_json::to_value(BoardTable {
                board: g.name(),
                rows: g.rows,
                cols: g.cols,
                k: g.k,
                solver: SOLVER_VERSION,
            })?,
            "minimal perfect hash over canonical templates; key = X mask | O mask << 32 (cell r*cols+c), the symmetric image with the smallest key",
            "u32: bits 0-1 value+1 for the side to move (0 loss, 1 draw, 2 win), bits 2-6 distance to the end in plies, bits 7-31 mask of every optimal move (template orientation)",
            json!(stats),
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    stage.inc(1);
    stage.finish();
    Ok(())
}

/// The geometry a board table was built for.
pub fn table_geometry(t: &Table) -> Result<Geometry> {
    let p: BoardTable = super::query::table_params(t)?;
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

fn verify_board(t: &Table) -> Result<()> {
    let g = table_geometry(t)?;
    let stored: TreeStats =
        serde_json::from_value(t.meta().stats.clone()).context("ttt statistics are malformed")?;
    ensure!(
        stored.templates == t.len(),
        "statistics say {} templates, the table has {}",
        stored.templates,
        t.len()
    );
    // Every entry is consistent with its children one ply down.
    for slot in 0..t.len() {
        let p = Position::from_key(t.key_at(slot)?);
        let Some(s) = Solved::decode(t.get::<u32>(slot)?) else {
            bail!("slot {slot}: undecodable entry");
        };
        if solve::is_terminal(&g, p) {
            ensure!(
                s.distance == 0 && s.best == 0,
                "terminal slot {slot} has moves"
            );
            continue;
        }
        let mut empty = g.full() & !p.occupied();
        let mut best = (i8::MIN, 0u8);
        while empty != 0 {
            let cell = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let (_, _, _, c) = lookup(t, &g, p.play(cell))?;
            let cand = (-c.value, c.distance + 1);
            if s.best >> cell & 1 == 1 {
                ensure!(
                    cand == (s.value, s.distance),
                    "slot {slot}: optimal move {cell} leads to {cand:?}, entry says {:?}",
                    (s.value, s.distance)
                );
            }
            if cand.0 > best.0 {
                best = cand;
            }
        }
        ensure!(
            best.0 == s.value,
            "slot {slot}: value {} but the best child gives {}",
            s.value,
            best.0
        );
    }
    Ok(())
}
