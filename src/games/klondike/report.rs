//! The report over all rule sets: greedy win rates with 95% intervals,
//! paired differences of each variant against the first (same deals), the
//! solver's winnable share, as a table's statistics, `report.csv` and
//! `report.svg`.

use super::greedy::Player;
use super::nopeek_games::{self, NoPeekStats};
use super::records::{
    self, NoPeekRow, ReportRow, ReportSolver, ReportStats, SolverStats, VsFirst,
};
use super::verdict::{LOST, WON};
use super::state::Rules;
use super::{greedy_outcomes, rules_id, stats, PLAYERS};
use crate::chart;
use crate::pipeline::JobContext;
use crate::table::writer::write_ranked;
use crate::table::TableMeta;
use anyhow::{Context, Result};
use serde_json::json;
use std::fmt::Write;

/// One row of the report: a player's wins under one rule set.
pub struct Row {
    /// The rule set.
    pub rules: String,
    /// The player.
    pub variant: String,
    /// Deals played.
    pub deals: u64,
    /// Deals won.
    pub wins: u64,
    /// The 95% Wilson interval of the win rate.
    pub ci: (f64, f64),
    /// Against variant 0 on the same deals: difference, interval, p-value.
    pub paired: Option<(f64, (f64, f64), f64)>,
    /// Gruber's player as written against the earlier reading (the seed
    /// list), the same way.
    pub vs_earlier: Option<(f64, (f64, f64), f64)>,
}

/// Builds the report table from the greedy and solver tables of rule sets
/// `all`, and the no-peek tables at sample counts `nopeek`.
pub fn build(ctx: &JobContext, all: &[Rules], nopeek: &[u32]) -> Result<()> {
    let mut rows = Vec::new();
    let mut solver = Vec::new();
    let mut nopeek_rows = Vec::new();
    for rules in all {
        let id = rules_id(rules);
        let g = ctx.open(&format!("klondike/greedy-{id}"))?;
        let (deals, o) = greedy_outcomes(&g)?;
        let won = |d: u64, p: usize| o[d as usize * PLAYERS + p] == 52;
        for (p, player) in Player::ALL.iter().enumerate() {
            let wins = (0..deals).filter(|&d| won(d, p)).count() as u64;
            let against = |q: usize| {
                let only_p = (0..deals).filter(|&d| won(d, p) && !won(d, q)).count() as u64;
                let only_q = (0..deals).filter(|&d| won(d, q) && !won(d, p)).count() as u64;
                stats::paired(only_p, only_q, deals)
            };
            let paired = (p > 0).then(|| against(0));
            let earlier = Player::ALL.iter().position(|&q| q == Player::Seed);
            let vs_earlier = matches!(player, Player::Gruber | Player::GruberTurnedOver)
                .then_some(earlier)
                .flatten()
                .map(against);
            rows.push(Row {
                rules: rules.label(),
                variant: player.label(),
                deals,
                wins,
                ci: stats::wilson(wins, deals),
                paired,
                vs_earlier,
            });
        }
        let s = ctx.open(&format!("klondike/solver-{id}"))?;
        let strong = Player::ALL
            .iter()
            .position(|&q| q == Player::Strong)
            .expect("the strong list is a player");
        for &samples in nopeek {
            nopeek_rows.push(nopeek_row(ctx, rules, samples, &s, |d| {
                (d < deals).then(|| won(d, strong))
            })?);
        }
        solver.push(ReportSolver {
            rules: rules.label(),
            solver: records::read::<SolverStats>(&s)?,
        });
    }
    let mut csv = String::from("rules,variant,deals,wins,win_rate,ci_low,ci_high,diff_vs_first,diff_ci_low,diff_ci_high,mcnemar_p\n");
    for r in &rows {
        let _ = write!(
            csv,
            "{},{},{},{},{:.5},{:.5},{:.5}",
            csv_field(&r.rules),
            csv_field(&r.variant),
            r.deals,
            r.wins,
            r.wins as f64 / r.deals as f64,
            r.ci.0,
            r.ci.1
        );
        match r.paired {
            Some((d, (lo, hi), p)) => {
                let _ = writeln!(csv, ",{d:.5},{lo:.5},{hi:.5},{p:.4}");
            }
            None => csv.push_str(",,,,\n"),
        }
    }
    let svg = chart(&rows, all.len())?;
    let dir = ctx.output.parent().context("output has a directory")?;
    crate::table::pack::write_atomic(&dir.join("report.csv"), csv.as_bytes())?;
    crate::table::pack::write_atomic(&dir.join("report.svg"), svg.as_bytes())?;
    if !nopeek_rows.is_empty() {
        crate::table::pack::write_atomic(
            &dir.join("nopeek.csv"),
            nopeek_csv(&nopeek_rows).as_bytes(),
        )?;
        crate::table::pack::write_atomic(
            &dir.join("nopeek.svg"),
            nopeek_chart(&nopeek_rows)?.as_bytes(),
        )?;
    }
    let entries: Vec<u64> = rows.iter().flat_map(|r| [r.wins, r.deals]).collect();
    let recorded = ReportStats {
        greedy: rows
            .iter()
            .map(|r| ReportRow {
                rules: r.rules.clone(),
                variant: r.variant.clone(),
                deals: r.deals,
                wins: r.wins,
                win_rate: r.wins as f64 / r.deals as f64,
                ci95: r.ci,
                vs_first: r.paired.map(|(diff, ci95, mcnemar_p)| VsFirst {
                    diff,
                    ci95,
                    mcnemar_p,
                }),
                vs_earlier_reading: r.vs_earlier.map(|(diff, ci95, mcnemar_p)| VsFirst {
                    diff,
                    ci95,
                    mcnemar_p,
                }),
            })
            .collect(),
        solver,
        nopeek: nopeek_rows,
    };
    write_ranked(
        &ctx.output,
        &entries,
        &TableMeta::new(
            "klondike",
            "report",
            json!({"rules": all}),
            &format!("(rule set * {PLAYERS} + player) * 2 + field"),
            "u64 fields: greedy wins, deals",
            records::to_json(&recorded),
        )
        .stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    Ok(())
}

/// The no-peek player at `samples` samples under `rules`: its wins against
/// the strong list's (`strong_won(deal)`, None past the greedy table) and
/// the solver's verdicts (`solver`).
fn nopeek_row(
    ctx: &JobContext,
    rules: &Rules,
    samples: u32,
    solver: &crate::table::Table,
    strong_won: impl Fn(u64) -> Option<bool>,
) -> Result<NoPeekRow> {
    let id = nopeek_games::job_id(rules, samples);
    let t = ctx.open(&id)?;
    let stats: NoPeekStats = records::read(&t)?;
    let games = t.read_range::<u64>(0, t.len())?;
    let deals = games.len() as u64;
    let won: Vec<bool> = games.iter().map(|&g| nopeek_games::home_of(g) == 52).collect();
    let mut only = (0, 0);
    for (d, &w) in won.iter().enumerate() {
        let s = strong_won(d as u64)
            .with_context(|| format!("{}: {id} plays deal {d}, past the greedy table", ctx.id))?;
        match (w, s) {
            (true, false) => only.0 += 1,
            (false, true) => only.1 += 1,
            _ => {}
        }
    }
    let (diff, ci95, mcnemar_p) = stats::paired(only.0, only.1, deals);
    let covered = solver.len().min(deals);
    let verdicts = solver.read_range::<u8>(0, covered)?;
    let winnable: Vec<usize> = (0..covered as usize)
        .filter(|&d| verdicts[d] == WON)
        .collect();
    let impossible = (0..covered as usize)
        .filter(|&d| verdicts[d] == LOST && won[d])
        .count();
    anyhow::ensure!(
        impossible == 0,
        "{}: the no-peek player won {impossible} deals the solver calls unwinnable",
        ctx.id
    );
    let wins = won.iter().filter(|&&w| w).count() as u64;
    Ok(NoPeekRow {
        rules: rules.label(),
        player: nopeek_games::label(samples),
        samples,
        deals,
        wins,
        win_rate: wins as f64 / deals.max(1) as f64,
        ci95: stats::wilson(wins, deals),
        vs_strong: VsFirst {
            diff,
            ci95,
            mcnemar_p,
        },
        winnable: winnable.len() as u64,
        winnable_won: winnable.iter().filter(|&&d| won[d]).count() as u64,
        solver_deals: covered,
        mean_moves: stats.mean_moves,
        mean_decisions: stats.mean_decisions,
        mean_solves: stats.mean_solves,
    })
}

/// A CSV field: quoted (RFC 4180) when it holds a comma, quote or line
/// break, as rule sets and player names do ("draw 1, unlimited redeals").
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The no-peek rows as CSV, one per rule set and sample count.
fn nopeek_csv(rows: &[NoPeekRow]) -> String {
    let mut csv = String::from("rules,player,samples,deals,wins,win_rate,ci_low,ci_high,diff_vs_strong,diff_ci_low,diff_ci_high,mcnemar_p,solver_deals,winnable,winnable_won,mean_moves,mean_decisions,mean_solves\n");
    for r in rows {
        let v = &r.vs_strong;
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{:.5},{:.5},{:.5},{:.5},{:.5},{:.5},{:.4},{},{},{},{:.2},{:.3},{:.1}",
            csv_field(&r.rules),
            csv_field(&r.player),
            r.samples,
            r.deals,
            r.wins,
            r.win_rate,
            r.ci95.0,
            r.ci95.1,
            v.diff,
            v.ci95.0,
            v.ci95.1,
            v.mcnemar_p,
            r.solver_deals,
            r.winnable,
            r.winnable_won,
            r.mean_moves,
            r.mean_decisions,
            r.mean_solves
        );
    }
    csv
}

/// The no-peek player's win rate against samples a decision (log scale),
/// a line per rule set, with 95% intervals.
fn nopeek_chart(rows: &[NoPeekRow]) -> Result<String> {
    use plotters::prelude::*;
    let top = (rows.iter().map(|r| r.ci95.1).fold(0.05, f64::max) * 1.15).min(1.0);
    let most = rows.iter().map(|r| r.samples).max().unwrap_or(1).max(2);
    let right = f64::from(most).log2() + 0.5;
    let frame = chart::Frame {
        caption: "Klondike no-peek player: win rate against samples a decision, 95% interval",
        x_desc: "log2(samples a decision)",
        y_desc: "win rate",
        x_mesh: true,
    };
    chart::svg(&frame, -0.5f64..right, 0f64..top, |plot| {
        let colors = [BLUE, RED, GREEN, MAGENTA, BLACK, CYAN];
        let mut rule_sets: Vec<&str> = Vec::new();
        for r in rows {
            if !rule_sets.contains(&r.rules.as_str()) {
                rule_sets.push(&r.rules);
            }
        }
        for (i, rules) in rule_sets.iter().enumerate() {
            let color = colors[i % colors.len()];
            let mut points: Vec<(f64, f64, (f64, f64))> = rows
                .iter()
                .filter(|r| r.rules == *rules)
                .map(|r| (f64::from(r.samples).log2(), r.win_rate, r.ci95))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            chart::intervals(plot, &points, color)?;
            plot.draw_series(std::iter::once(PathElement::new(
                points.iter().map(|&(x, y, _)| (x, y)).collect::<Vec<_>>(),
                color,
            )))?;
            chart::dots(plot, &points, color, rules)?;
        }
        Ok(())
    })
}

/// Win rate with its 95% interval per rule set and variant.
fn chart(rows: &[Row], rule_sets: usize) -> Result<String> {
    use plotters::prelude::*;
    let top = rows.iter().map(|r| r.ci.1).fold(0.05, f64::max) * 1.15;
    let frame = chart::Frame {
        caption: "Klondike greedy players: win rate and 95% interval",
        x_desc: "rule set (left to right as configured)",
        y_desc: "win rate",
        x_mesh: false,
    };
    chart::svg(
        &frame,
        -0.5f64..(rule_sets as f64 - 0.5),
        0f64..top,
        |plot| {
            let colors = [BLUE, RED, GREEN, MAGENTA, BLACK, CYAN];
            let step = 0.8 / PLAYERS as f64;
            for (v, color) in colors.iter().enumerate() {
                let points: Vec<(f64, f64, (f64, f64))> = rows
                    .iter()
                    .skip(v)
                    .step_by(PLAYERS)
                    .enumerate()
                    .map(|(i, r)| {
                        let x = i as f64 - 0.4 + step * (v as f64 + 0.5);
                        (x, r.wins as f64 / r.deals as f64, r.ci)
                    })
                    .collect();
                chart::intervals(plot, &points, *color)?;
                chart::dots(plot, &points, *color, &Player::ALL[v].label())?;
            }
            Ok(())
        },
    )
}
