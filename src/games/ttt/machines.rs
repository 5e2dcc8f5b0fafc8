//! The classic noughts-and-crosses machines, played against the solved 3x3
//! table: Michie's product-score rule and the line-scoring evaluation as
//! one-ply players (every opponent reply explored), and MENACE trained by
//! self-play (see `menace`). Cells are numbered 1-9 row-major in reports.

use super::board::{render, Geometry, Position};
use super::menace::{self, Opponent};
use super::report;
use super::solve::{self, Solved};
use crate::pipeline::JobContext;
use crate::table::writer::write_ranked;
use crate::table::Table;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A deterministic one-ply player: the cell it marks.
pub type Rule = fn(&Geometry, Position) -> usize;

/// Michie's rule: weight 6 for an own mark, 1 for an empty cell, −4 for an
/// opponent's; a line scores the product of its cells; a cell scores the
/// sum over the lines through it. Largest score wins, lowest cell on ties.
pub fn product_rule(g: &Geometry, p: Position) -> usize {
    let (own, opp) = p.sides();
    best_cell(g, p, |cell| {
        g.lines
            .iter()
            .filter(|&&l| l >> cell & 1 == 1)
            .map(|&l| {
                (0..g.cells())
                    .filter(|i| l >> i & 1 == 1)
                    .map(|i| {
                        if own >> i & 1 == 1 {
                            6
                        } else if opp >> i & 1 == 1 {
                            -4
                        } else {
                            1
                        }
                    })
                    .product::<i64>()
            })
            .sum()
    })
}

/// Line scoring: after the move, y1 + 5·y2 + 25·y3 where y_j counts lines
/// free of opponent marks with j own marks. Largest wins, lowest cell on ties.
pub fn line_scoring(g: &Geometry, p: Position) -> usize {
    let (own, opp) = p.sides();
    best_cell(g, p, |cell| {
        let mine = own | 1 << cell;
        g.lines
            .iter()
            .filter(|&&l| l & opp == 0)
            .map(|&l| match (l & mine).count_ones() {
                1 => 1,
                2 => 5,
                3 => 25,
                _ => 0,
            })
            .sum()
    })
}

fn best_cell(g: &Geometry, p: Position, score: impl Fn(usize) -> i64) -> usize {
    let mut best = (i64::MIN, 0);
    for cell in 0..g.cells() {
        if p.occupied() >> cell & 1 == 0 {
            let s = score(cell);
            if s > best.0 {
                best = (s, cell);
            }
        }
    }
    best.1
}

/// A position where the machine's move lowers its game value.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Mistake {
    /// The position, as a 9-character board (x, o, .).
    pub board: String,
    /// The cell the machine chose (1-9, row-major).
    pub chose: usize,
    /// The optimal cells (1-9).
    pub optimal: Vec<usize>,
    /// The game value before, for the machine (+1 win, 0 draw, -1 loss).
    pub value_before: i8,
    /// The game value after its move.
    pub value_after: i8,
}

/// Statistics of `ttt/machines`: the classic machines' games and the
/// MENACE learning curves.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MachinesStats {
    /// Each classic machine, playing X and playing O.
    pub machines: Vec<MachineReport>,
    /// MENACE's learning curves and milestones.
    pub menace: MenaceReport,
}

/// MENACE's learning curves and Michie's milestones, per opponent.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MenaceReport {
    /// A learning curve per opponent (perfect, random).
    pub curves: Vec<super::menace::CurveSummary>,
    /// By opponent id (`perfect`, `perfect_fixed`, `random`,
    /// `tries_each_reply`).
    pub milestones: std::collections::BTreeMap<String, super::menace::Milestones>,
}

/// 2: the report holds Michie's milestones per opponent
/// (`menace.milestones`), and the curves moved to `menace.curves`.
pub const REPORT_VERSION: u32 = 2;

/// Every game of a machine against all opponent replies.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct MachineReport {
    /// The machine's name.
    pub machine: String,
    /// Which side it plays ("X" or "O").
    pub plays: String,
    /// Games played (every opponent reply tried).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Every lost game as its cell sequence (1-9, both sides' moves).
    pub losing_lines: Vec<String>,
    /// Distinct positions where its move throws away value.
    pub mistakes: Vec<Mistake>,
}

fn value_of(solved: &HashMap<u64, Solved>, g: &Geometry, p: Position) -> Solved {
    solved[&g.canonical(p).0.key()]
}

/// Explores every game in which `rule` moves for one side and the other
/// side tries every legal move.
pub fn analyse(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    name: &str,
    rule: Rule,
    plays_x: bool,
) -> MachineReport {
    let mut r = MachineReport {
        machine: name.into(),
        plays: if plays_x { "X (first)" } else { "O (second)" }.into(),
        ..Default::default()
    };
    let mut seen_mistakes = std::collections::HashSet::new();
    let mut line = Vec::new();
    explore(
        g,
        solved,
        rule,
        plays_x,
        Position::default(),
        &mut line,
        &mut r,
        &mut seen_mistakes,
    );
    r.losing_lines.sort();
    r.mistakes.sort_by(|a, b| a.board.cmp(&b.board));
    r
}

#[allow(clippy::too_many_arguments)]
fn explore(
    g: &Geometry,
    solved: &HashMap<u64, Solved>,
    rule: Rule,
    plays_x: bool,
    p: Position,
    line: &mut Vec<usize>,
    r: &mut MachineReport,
    seen: &mut std::collections::HashSet<u64>,
) {
    if solve::is_terminal(g, p) {
        r.games += 1;
        let machine_marks = if plays_x { p.x } else { p.o };
        let other = if plays_x { p.o } else { p.x };
        if g.has_line(machine_marks) {
            r.wins += 1;
        } else if g.has_line(other) {
            r.losses += 1;
            r.losing_lines.push(
                line.iter()
                    .map(|c| (c + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        } else {
            r.draws += 1;
        }
        return;
    }
    if p.x_to_move() == plays_x {
        let cell = rule(g, p);
        let before = value_of(solved, g, p);
        let after = value_of(solved, g, p.play(cell));
        if -after.value < before.value && seen.insert(p.key()) {
            let (_, sym) = g.canonical(p);
            let best = g.untransform(sym, before.best);
            r.mistakes.push(Mistake {
                board: render(g, p),
                chose: cell + 1,
                optimal: (0..g.cells())
                    .filter(|i| best >> i & 1 == 1)
                    .map(|i| i + 1)
                    .collect(),
                value_before: before.value,
                value_after: -after.value,
            });
        }
        line.push(cell);
        explore(g, solved, rule, plays_x, p.play(cell), line, r, seen);
        line.pop();
    } else {
        for cell in 0..g.cells() {
            if p.occupied() >> cell & 1 == 0 {
                line.push(cell);
                explore(g, solved, rule, plays_x, p.play(cell), line, r, seen);
                line.pop();
            }
        }
    }
}

/// The `ttt/machines` job: machine reports and MENACE learning curves in the
/// table metadata; the curves as the payload (f64 shares, per opponent,
/// block of 10 games, outcome) and as CSV and SVG files beside the table.
/// The parameters of the `ttt/machines` job (hashed into its table's header).
#[derive(Serialize)]
pub struct MachinesJob {
    /// Seeded MENACE runs per opponent.
    pub menace_runs: u64,
    /// Training games per run.
    pub menace_games: u64,
    /// The 3x3 solver's version (the machines read its table).
    pub solver: u32,
    /// The report's version (`REPORT_VERSION`).
    pub report: u32,
}

/// The parameters the machines table records: the job's without the
/// solver version (kept so the table's bytes stay as they were).
#[derive(Serialize)]
struct MachinesTable {
    menace_runs: u64,
    menace_games: u64,
    report: u32,
}

/// Builds `ttt/machines`: every classic machine against all replies, MENACE's curves and milestones.
pub fn build(ctx: &JobContext, runs: u64, games: u64) -> Result<()> {
    let stage = ctx
        .progress
        .stage(ctx.id, "classic machines and MENACE", 4 * runs);
    let table = ctx.open("ttt/3x3k3")?;
    let g = super::table_geometry(&table)?;
    let solved = load(&table)?;
    let mut reports = Vec::new();
    for (name, rule) in [
        ("product rule (Michie)", product_rule as Rule),
        ("line scoring y1+5y2+25y3", line_scoring as Rule),
    ] {
        for plays_x in [true, false] {
            reports.push(analyse(&g, &solved, name, rule, plays_x));
        }
    }
    let mut curves = Vec::new();
    let mut entries = Vec::new();
    for opponent in [Opponent::Perfect, Opponent::Random] {
        let curve = menace::learning_curve(&g, &solved, opponent, runs, games, |n| stage.inc(n));
        for b in &curve.blocks {
            entries.extend_from_slice(&[b.wins, b.draws, b.losses]);
        }
        curves.push(curve);
    }
    let milestones = Opponent::ALL
        .iter()
        .map(|&who| {
            let m = menace::milestones(&g, &solved, who, runs, games, menace::EmptyBox::Resign);
            stage.inc(runs / 2);
            (who.id().to_string(), m)
        })
        .collect();
    let csv = report::curves_csv(&curves);
    let svg = report::curves_svg(&curves)?;
    let dir = ctx.output.parent().context("output has a directory")?;
    crate::table::pack::write_atomic(&dir.join("menace.csv"), csv.as_bytes())?;
    crate::table::pack::write_atomic(&dir.join("menace.svg"), svg.as_bytes())?;
    write_ranked(
        &ctx.output,
        &entries,
        &crate::table::TableMeta::new(
            "ttt",
            "machines",
            serde_json::to_value(MachinesTable {
                menace_runs: runs,
                menace_games: games,
                report: REPORT_VERSION,
            })?,
            "opponent (0 perfect, 1 random) x block of 10 games x outcome (win, draw, loss)",
            "f64 share of MENACE's games in that block with that outcome, averaged over the runs",
            serde_json::to_value(MachinesStats {
                machines: reports,
                menace: MenaceReport {
                    curves: curves.iter().map(|c| c.summary()).collect(),
                    milestones,
                },
            })?,
        )
        .stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    stage.finish();
    Ok(())
}

/// The whole 3x3 table as a map from template key to solution.
pub fn load(t: &Table) -> Result<HashMap<u64, Solved>> {
    let mut m = HashMap::new();
    for slot in 0..t.len() {
        let s = Solved::decode(t.get::<u32>(slot)?).context("corrupt ttt entry")?;
        m.insert(t.key_at(slot)?, s);
    }
    Ok(m)
}
