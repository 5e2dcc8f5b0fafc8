//! MENACE's learning curves as files: the CSV of shares per block of games,
//! and the chart (drawn in the reports' shared frame, `crate::chart`).

use super::menace::{Curve, BLOCK};
use crate::chart;
use anyhow::Result;

/// The learning curves as CSV: opponent, first game of the block, shares won, drawn, lost.
pub fn curves_csv(curves: &[Curve]) -> String {
    let mut s = String::from("opponent,first_game,wins,draws,losses\n");
    for c in curves {
        for b in &c.blocks {
            s.push_str(&format!(
                "{},{},{:.6},{:.6},{:.6}\n",
                c.opponent, b.first_game, b.wins, b.draws, b.losses
            ));
        }
    }
    s
}

/// The learning curves as an SVG line chart (share per block of 10 games).
pub fn curves_svg(curves: &[Curve]) -> Result<String> {
    use plotters::prelude::*;
    let games = curves.iter().map(|c| c.games).max().unwrap_or(10);
    let frame = chart::Frame {
        caption: "MENACE (X) learning curves, share per block of 10 games",
        x_desc: "games played",
        y_desc: "share of games",
        x_mesh: true,
    };
    chart::svg(&frame, 0u64..games, 0f64..1f64, |plot| {
        let series: [(&str, usize, RGBColor); 4] = [
            ("perfect", 1, BLUE),
            ("perfect", 2, RED),
            ("random", 0, GREEN),
            ("random", 1, MAGENTA),
        ];
        for (opp, outcome, color) in series {
            let Some(c) = curves.iter().find(|c| c.opponent == opp) else {
                continue;
            };
            let label = format!("vs {opp}: {}", ["wins", "draws", "losses"][outcome]);
            plot.draw_series(LineSeries::new(
                c.blocks.iter().map(|b| {
                    (
                        b.first_game + BLOCK / 2,
                        [b.wins, b.draws, b.losses][outcome],
                    )
                }),
                color,
            ))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color));
        }
        Ok(())
    })
}
