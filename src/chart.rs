//! The one frame every report chart is drawn in (an SVG of 900 x 520 with
//! a caption, labelled axes and a legend), so that the games' reports look
//! alike and only their series differ.

use anyhow::Result;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// A chart's captions.
pub struct Frame<'a> {
    /// The title above the plot.
    pub caption: &'a str,
    /// The horizontal axis' label.
    pub x_desc: &'a str,
    /// The vertical axis' label.
    pub y_desc: &'a str,
    /// Vertical grid lines (off for a categorical horizontal axis).
    pub x_mesh: bool,
}

/// The plotting area a chart's series are drawn on.
pub type Plot<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

/// A plot over `x` and `y`, framed as `frame` says, with the series `draw`
/// adds (each with its legend entry), as SVG text.
pub fn svg<X, Y, F>(frame: &Frame, x: X, y: Y, draw: F) -> Result<String>
where
    X: AsRangedCoord,
    Y: AsRangedCoord,
    X::CoordDescType: ValueFormatter<<X::CoordDescType as Ranged>::ValueType>,
    Y::CoordDescType: ValueFormatter<<Y::CoordDescType as Ranged>::ValueType>,
    F: for<'a, 'b> FnOnce(&mut Plot<'a, 'b, X::CoordDescType, Y::CoordDescType>) -> Result<()>,
{
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(frame.caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(x, y)?;
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(frame.x_desc).y_desc(frame.y_desc);
        if !frame.x_mesh {
            mesh.disable_x_mesh();
        }
        mesh.draw()?;
        draw(&mut chart)?;
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

/// A vertical bar in `color` for each point's interval (a 95% interval of
/// a rate): `(x, y, (low, high))`.
pub fn intervals(
    plot: &mut Plot<'_, '_, RangedCoordf64, RangedCoordf64>,
    points: &[(f64, f64, (f64, f64))],
    color: RGBColor,
) -> Result<()> {
    for &(x, _, (lo, hi)) in points {
        plot.draw_series(std::iter::once(PathElement::new(
            vec![(x, lo), (x, hi)],
            color,
        )))?;
    }
    Ok(())
}

/// A dot in `color` at each point, labelled `label` in the legend.
pub fn dots(
    plot: &mut Plot<'_, '_, RangedCoordf64, RangedCoordf64>,
    points: &[(f64, f64, (f64, f64))],
    color: RGBColor,
    label: &str,
) -> Result<()> {
    plot.draw_series(
        points
            .iter()
            .map(|&(x, y, _)| Circle::new((x, y), 4, color.filled())),
    )?
    .label(label.to_string())
    .legend(move |(x, y)| Circle::new((x + 8, y), 4, color.filled()));
    Ok(())
}
