//! The report over all rule sets: greedy win rates with 95% intervals,
//! paired differences of each variant against the first (same deals), the
//! solver's winnable share, as a table's statistics, `report.csv` and
//! `report.svg`.

use super::greedy::Player;
use super::records::{self, ReportRow, ReportSolver, ReportStats, SolverStats, VsFirst};
use super::state::Rules;
use super::{greedy_outcomes, rules_id, stats, PLAYERS};
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

/// Builds the report table from the greedy and solver tables of rule sets `all`.
pub fn build(ctx: &JobContext, all: &[Rules]) -> Result<()> {
    let mut rows = Vec::new();
    let mut solver = Vec::new();
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
            r.rules,
            r.variant,
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

/// Win rate with its 95% interval per rule set and variant.
fn chart(rows: &[Row], rule_sets: usize) -> Result<String> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let top = rows.iter().map(|r| r.ci.1).fold(0.05, f64::max) * 1.15;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Klondike greedy players: win rate and 95% interval",
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5f64..(rule_sets as f64 - 0.5), 0f64..top)?;
        chart
            .configure_mesh()
            .x_desc("rule set (left to right as configured)")
            .y_desc("win rate")
            .disable_x_mesh()
            .draw()?;
        let colors = [BLUE, RED, GREEN, MAGENTA, BLACK, CYAN];
        let step = 0.8 / PLAYERS as f64;
        for (v, color) in colors.iter().enumerate() {
            let color = *color;
            let points: Vec<(f64, &Row)> = rows
                .iter()
                .skip(v)
                .step_by(PLAYERS)
                .enumerate()
                .map(|(i, r)| (i as f64 - 0.4 + step * (v as f64 + 0.5), r))
                .collect();
            for (x, r) in &points {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(*x, r.ci.0), (*x, r.ci.1)],
                    color,
                )))?;
            }
            chart
                .draw_series(points.iter().map(|(x, r)| {
                    Circle::new((*x, r.wins as f64 / r.deals as f64), 4, color.filled())
                }))?
                .label(Player::ALL[v].label())
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}
