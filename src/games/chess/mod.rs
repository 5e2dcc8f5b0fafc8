//! Chess endgame tables by retrograde analysis: every position of a material
//! signature with both sides to move, exact distance to mate, one byte each.
//! No castling and no en passant (as in the public tablebases).

pub mod bitboard;
pub mod board;
mod cells;
pub mod engine;
mod fen;
pub mod full;
pub mod index;
pub mod material;
mod moves;
pub mod play;
pub mod probe;
pub mod query;
mod san;
pub mod solve;
mod unmoves;
pub mod value;

use super::query::{Answer, QueryContext};
use super::{Game, PlayCommand, Plays, Queries};
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::write_ranked;
use crate::table::{Table, TableMeta};
use anyhow::{anyhow, ensure, Context, Result};
use index::Layout;
use material::Material;
pub use play::ChessPlay;
use probe::{table_id, Tablebase};
pub use query::ChessQuery;
use serde::Deserialize;

const SOLVER_VERSION: u32 = 2;
pub const MAX_PIECES: u32 = 5;

pub struct Chess;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChessParams {
    /// Build every endgame with these piece counts (kings included).
    #[serde(default)]
    pub pieces: Vec<u32>,
    /// Extra endgames by name ("KRPvKR"); their dependencies come along.
    #[serde(default)]
    pub tables: Vec<String>,
}

/// The requested signatures plus everything their captures and promotions
/// lead to, smallest first.
pub fn closure(wanted: &[Material]) -> Vec<Material> {
    let mut all: Vec<Material> = Vec::new();
    let mut stack: Vec<Material> = wanted.iter().map(|m| m.canonical()).collect();
    while let Some(m) = stack.pop() {
        if !all.contains(&m) {
            stack.extend(m.successors());
            all.push(m);
        }
    }
    all.sort_by_key(|m| (m.pieces(), m.name()));
    all
}

/// The parameters of one `chess/MATERIAL` job (hashed into its table's
/// header, and recorded as the table's parameters).
#[derive(serde::Serialize, serde::Deserialize)]
struct TableJob {
    material: String,
    solver: u32,
}

impl Planner for Chess {
    fn name(&self) -> &'static str {
        "chess"
    }
    /// One byte per slot, both sides to move; every slot is visited by the
    /// retrograde passes; the tables of its successors are mapped beside it.
    fn estimate(&self, job: &Job) -> Option<crate::pipeline::Estimate> {
        let p: TableJob = serde_json::from_value(job.params.clone()).ok()?;
        let m = Material::parse(&p.material).ok()?;
        let slots = 2 * index::Layout::new(m).positions;
        let inputs: u64 = m
            .successors()
            .iter()
            .map(|s| 2 * index::Layout::new(*s).positions)
            .sum();
        Some(crate::pipeline::Estimate {
            entries: slots,
            output_bytes: slots,
            memory_bytes: slots.saturating_add(inputs),
            work: slots,
            work_unit: "slots (positions x sides to move)".into(),
        })
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: ChessParams = game_params(source, "chess", section)?;
        let mut wanted = Vec::new();
        for &n in &p.pieces {
            ensure!(
                (3..=MAX_PIECES).contains(&n),
                "{source}: [chess] pieces = {n} is out of range (3 ..= {MAX_PIECES}, kings included)"
            );
            wanted.extend(Material::all_with(n));
        }
        for name in &p.tables {
            let m = Material::parse(name).with_context(|| format!("{source}: [chess] tables"))?;
            ensure!(
                (3..=MAX_PIECES).contains(&m.pieces()),
                "{source}: [chess] table {name} has {} pieces (3 ..= {MAX_PIECES})",
                m.pieces()
            );
            wanted.push(m);
        }
        Ok(closure(&wanted)
            .into_iter()
            .map(|m| {
                let deps: Vec<String> = m.successors().iter().map(table_id).collect();
                Job {
                    id: table_id(&m),
                    deps,
                    params: serde_json::to_value(TableJob {
                        material: m.name(),
                        solver: SOLVER_VERSION,
                    })
                    .expect("plain struct"),
                    run: Box::new(move |ctx| build(ctx, m)),
                    parts: None,
                }
            })
            .collect())
    }
}

impl Game for Chess {
    fn summary(&self) -> &'static str {
        "chess endgames by retrograde analysis: win/draw/loss and distance to mate, both sides to move"
    }

    fn verify(&self, table: &Table) -> Result<()> {
        let job: TableJob = super::query::table_params(table)?;
        let m = Material::parse(&job.material)?;
        let layout = Layout::new(m);
        let data_dir = table
            .path()
            .parent()
            .and_then(|p| p.parent())
            .ok_or_else(|| {
                anyhow!(
                    "cannot locate the data directory of {}",
                    table.path().display()
                )
            })?;
        let probe = Tablebase::open(data_dir, &m.successors())?;
        let values = table.read_range::<u8>(0, table.len())?;
        Ok(solve::check(&layout, &values, &probe)?)
    }
}

impl Queries for Chess {
    type Query = query::ChessQuery;

    fn query(&self, q: &query::ChessQuery, ctx: &QueryContext) -> Result<Answer> {
        query::answer(q, ctx)
    }

    fn player(&self) -> Option<&dyn PlayCommand> {
        Some(self)
    }
}

impl Plays for Chess {
    type Play = play::ChessPlay;

    fn play(
        &self,
        p: &play::ChessPlay,
        ctx: &QueryContext,
        input: &mut dyn std::io::BufRead,
        output: &mut dyn std::io::Write,
    ) -> Result<()> {
        play::play(p, ctx, input, output)
    }
}

fn build(ctx: &JobContext, m: Material) -> Result<()> {
    let layout = Layout::new(m);
    let probe = Tablebase::open_with(&m.successors(), |id| ctx.open(id))?;
    // One progress line per phase, each with its time. Steps are reported
    // from the solving thread only, so a RefCell holds the current stage.
    let stage = std::cell::RefCell::new(ctx.progress.stage(
        ctx.id,
        "first pass (blocks of 2^24 slots)",
        (2 * layout.positions).div_ceil(solve::INIT_BLOCK as u64),
    ));
    let next = |name: &str, total: u64| {
        stage
            .replace(ctx.progress.stage(ctx.id, name, total))
            .finish()
    };
    let solved = solve::solve(&layout, &probe, &|step| match step {
        solve::Step::FirstPassBlock { done, of } => {
            stage.borrow().inc(1);
            if done == of {
                next("retrograde, plies (of <= 255)", 255);
            }
        }
        solve::Step::Ply { .. } => stage.borrow().inc(1),
        solve::Step::Plies => next("statistics", 1),
    })?;
    stage.into_inner().finish();
    write_ranked(
        &ctx.output,
        &solved.values,
        &TableMeta::new(
            "chess",
            &m.name(),
            ctx.params.clone(),
            &format!(
                "side * {} + index; side 0 = white to move; index = {}",
                layout.positions,
                layout.description()
            ),
            "u8 for the side to move: 0 draw, 1..=127 mate in m moves, 128+m mated in m moves, 255 no position",
            serde_json::to_value(&solved.stats)?,
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    Ok(())
}
