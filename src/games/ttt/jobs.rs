//! The ttt jobs: parameters, plan, and one perfect-hashed table per board.

use super::board::Geometry;
use super::machines;
use super::solve::{self};
use super::{Ttt, SOLVER_VERSION};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_hashed;
use crate::table::TableMeta;
use anyhow::{ensure, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
/// The `[ttt]` config section.
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
    /// MENACE training: games per run.
    pub menace_games: u64,
}

fn default_up_to() -> usize {
    4
}

fn default_runs() -> u64 {
    100
}

/// The most MENACE training games one `ttt/machines` job plays in all.
const MAX_MENACE_TOTAL: u64 = 100_000_000;

fn default_games() -> u64 {
    500
}

/// The job id of a board's table (`ttt/3x3k3`).
pub fn board_id(g: &Geometry) -> String {
    format!("ttt/{}", g.name())
}

impl Planner for Ttt {
    fn name(&self) -> &'static str {
        crate::games::game::Game::name(self)
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
        // Checked: both numbers come from the user, and a wrapping product
        // of two huge counts can land inside the range.
        let total = runs.checked_mul(games);
        ensure!(
            runs >= 1 && games >= 10 && total.is_some_and(|t| t <= MAX_MENACE_TOTAL),
            "{source}: [ttt] menace_runs x menace_games = {runs} x {games} must be between 10 and 1e8 games, at least 10 per run"
        );
        jobs.push(Job {
            id: "ttt/machines".into(),
            deps: vec!["ttt/3x3k3".into()],
            params: serde_json::to_value(machines::MachinesJob {
                menace_runs: runs,
                menace_games: games,
                solver: SOLVER_VERSION,
                report: machines::REPORT_VERSION,
            })?,
            run: Box::new(move |ctx| machines::build(ctx, runs, games)),
            parts: None,
        });
        Ok(jobs)
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
pub(super) struct BoardTable {
    pub(super) board: String,
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) k: usize,
    pub(super) solver: u32,
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
