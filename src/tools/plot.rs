//! `compare --plot`: the nodes each classic algorithm searches per iteration, on a
//! log-scale chart (SVG), drawn with the `plotters` crate.

use super::compare::{Totals, VARIANTS, label};
use plotters::prelude::*;
use std::path::Path;

/// Draws the nodes per iteration of every variant of `totals` (over the positions where
/// minimax finished) to the SVG file `path`.
pub fn nodes_per_depth(path: &Path, totals: &Totals, positions: usize) -> Result<(), String> {
    draw(path, totals, positions).map_err(|e| format!("{}: {e}", path.display()))
}

fn draw(path: &Path, totals: &Totals, positions: usize) -> Result<(), Box<dyn std::error::Error>> {
    let series = &totals.per_depth_where_minimax_completed;
    let depths = series.iter().map(Vec::len).max().unwrap_or(0).max(1) as u32;
    let most = series.iter().flatten().copied().max().unwrap_or(1).max(10);
    let least = series.iter().flatten().copied().filter(|&n| n > 0).min().unwrap_or(1);
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let caption = format!("Nodes per iteration, {positions} positions where minimax finished");
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(1u32..depths, ((least / 2).max(1)..most * 3).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("depth")
        .y_desc("nodes (log scale)")
        .x_labels(depths as usize)
        .y_label_formatter(&|n| format!("{n:.0e}"))
        .draw()?;
    for (i, (&(mode, pv_first), nodes)) in VARIANTS.iter().zip(series).enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let points: Vec<(u32, u64)> =
            nodes.iter().enumerate().filter(|&(_, &n)| n > 0).map(|(d, &n)| (d as u32 + 1, n)).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?
            .label(label(mode, pv_first))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(2)));
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .border_style(BLACK)
        .background_style(WHITE.mix(0.9))
        .draw()?;
    root.present()?;
    Ok(())
}
