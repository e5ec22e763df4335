//! `compare`: the classic search algorithms side by side on the same positions,
//! showing in numbers what the texts claim (alpha-beta and PVS find minimax's
//! score with far fewer nodes; searching the previous PV first cuts the tree).

use crate::game::Game;
use crate::search::{Limits, STACK_SIZE, SearchConfig, SearchControl, SearchMode, SearchResult, Searcher};
use crate::stdio::send;
use crate::uci::{format_move, format_score};
use shakmaty::{CastlingMode, fen::Fen};
use std::sync::Arc;
use std::time::Instant;

/// The variants compared, in the order printed.
pub const VARIANTS: [(SearchMode, bool); 6] = [
    (SearchMode::Minimax, false),
    (SearchMode::AlphaBeta, false),
    (SearchMode::AlphaBeta, true),
    (SearchMode::Pvs, false),
    (SearchMode::Pvs, true),
    (SearchMode::Strong, true),
];

/// One variant's run on one position.
#[derive(Clone, Debug)]
pub struct Run {
    /// Mode searched.
    pub mode: SearchMode,
    /// Whether the previous PV was searched first.
    pub pv_first: bool,
    /// Nodes at the end of each completed iteration (cumulative).
    pub iteration_nodes: Vec<u64>,
    /// Root score of the last completed iteration.
    pub score: i32,
    /// The principal variation, in UCI notation.
    pub pv: Vec<String>,
    /// PVS re-searches.
    pub researches: u64,
    /// Milliseconds taken.
    pub time_ms: u64,
    /// False when the node cap stopped the search before the full depth.
    pub complete: bool,
    /// Nodes searched, the unfinished iteration included.
    pub searched: u64,
}

impl Run {
    /// Nodes searched in all.
    pub fn nodes(&self) -> u64 {
        self.iteration_nodes.last().copied().unwrap_or(0)
    }

    /// Label such as `PVS +pv`.
    pub fn label(&self) -> String {
        label(self.mode, self.pv_first)
    }
}

/// Label of a variant, such as `PVS +pv` (the strong search always orders by the PV).
pub fn label(mode: SearchMode, pv_first: bool) -> String {
    let suffix = match (mode, pv_first) {
        (SearchMode::Strong, _) => "",
        (_, true) => " +pv",
        (_, false) => " -pv",
    };
    format!("{}{suffix}", mode.name())
}

/// Searches `game` to `depth` with one variant; minimax stops after `cap` nodes.
pub fn run_variant(game: &Game, depth: u32, mode: SearchMode, pv_first: bool, cap: u64) -> Run {
    let mut searcher = Searcher::new(SearchConfig { mode, pv_first, ..SearchConfig::default() });
    let nodes = (mode == SearchMode::Minimax).then_some(cap);
    let limits = Limits { depth: Some(depth), nodes, ..Limits::default() };
    let start = Instant::now();
    let result: SearchResult =
        searcher.search(game, limits, Arc::new(SearchControl::new(false)), &mut |_| {});
    let info = result.info.unwrap_or_else(|| panic!("a search always reports"));
    let complete = result.stats.iteration_nodes.len() == depth as usize;
    let searched = result.stats.total_nodes;
    Run {
        mode,
        pv_first,
        iteration_nodes: result.stats.iteration_nodes,
        score: info.score,
        pv: info.pv.iter().map(|&m| format_move(m, CastlingMode::Standard)).collect(),
        researches: result.stats.researches,
        time_ms: start.elapsed().as_millis() as u64,
        complete,
        searched,
    }
}

/// Runs every variant on `game`; an error if complete classic runs disagree on the score.
pub fn compare_position(game: &Game, depth: u32, cap: u64) -> Result<Vec<Run>, String> {
    let runs: Vec<Run> =
        VARIANTS.iter().map(|&(mode, pv_first)| run_variant(game, depth, mode, pv_first, cap)).collect();
    let classic: Vec<&Run> = runs.iter().filter(|r| r.mode != SearchMode::Strong && r.complete).collect();
    if let Some(first) = classic.first()
        && let Some(odd) = classic.iter().find(|r| r.score != first.score)
    {
        return Err(format!(
            "{} scored {} but {} scored {}",
            first.label(),
            first.score,
            odd.label(),
            odd.score
        ));
    }
    Ok(runs)
}

/// Node totals per variant over all positions, for ratios and branching factors.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    /// Per variant: nodes per iteration (not cumulative), summed over the positions
    /// where the variant reached the full depth.
    pub iteration_nodes: Vec<Vec<u64>>,
    /// Per variant: PVS re-searches summed.
    pub researches: Vec<u64>,
    /// Per variant: nodes on positions where minimax completed (for fair ratios).
    pub nodes_where_minimax_completed: Vec<u64>,
    /// Per variant: nodes per iteration (not cumulative) on the positions where minimax
    /// completed, so every variant counts the same positions (the chart's data).
    pub per_depth_where_minimax_completed: Vec<Vec<u64>>,
    /// Positions where minimax reached the full depth.
    pub positions_where_minimax_completed: usize,
}

fn add_to_totals(totals: &mut Totals, runs: &[Run], depth: u32) {
    let minimax_done = runs[0].complete;
    totals.iteration_nodes.resize(runs.len(), vec![0; depth as usize]);
    totals.researches.resize(runs.len(), 0);
    totals.nodes_where_minimax_completed.resize(runs.len(), 0);
    totals.per_depth_where_minimax_completed.resize(runs.len(), vec![0; depth as usize]);
    for (i, run) in runs.iter().enumerate() {
        // Branching factors only from runs that reached the full depth.
        let mut previous = 0;
        for (d, &cumulative) in run.iteration_nodes.iter().enumerate().filter(|_| run.complete) {
            totals.iteration_nodes[i][d] += cumulative - previous;
            previous = cumulative;
        }
        totals.researches[i] += run.researches;
        if minimax_done {
            totals.positions_where_minimax_completed += usize::from(i == 0);
            totals.nodes_where_minimax_completed[i] += run.nodes();
            let mut previous = 0;
            for (d, &cumulative) in run.iteration_nodes.iter().enumerate() {
                totals.per_depth_where_minimax_completed[i][d] += cumulative - previous;
                previous = cumulative;
            }
        }
    }
}

fn print_runs(runs: &[Run]) {
    send(&format!("  {:<14} {:>12} {:>8} {:>9} {:>6}  pv", "mode", "nodes", "ms", "score", "resrch"));
    for run in runs {
        let nodes = if run.complete { run.nodes().to_string() } else { format!(">{}", run.searched) };
        let score = if run.complete { format_score(run.score) } else { "-".to_string() };
        let pv = if run.complete { run.pv.join(" ") } else { "(node cap reached)".to_string() };
        send(&format!(
            "  {:<14} {:>12} {:>8} {:>9} {:>6}  {pv}",
            run.label(),
            nodes,
            run.time_ms,
            score,
            run.researches
        ));
    }
}

fn print_totals(totals: &Totals, depth: u32) {
    let labels: Vec<String> = VARIANTS.iter().map(|&(mode, pv_first)| label(mode, pv_first)).collect();
    send(&format!("totals at depth {depth} over the positions each variant finished (EBF per iteration):"));
    for (i, label) in labels.iter().enumerate() {
        let per_iteration = &totals.iteration_nodes[i];
        let ebf: Vec<String> = per_iteration
            .windows(2)
            .map(|w| if w[0] == 0 { "-".into() } else { format!("{:.2}", w[1] as f64 / w[0] as f64) })
            .collect();
        send(&format!(
            "  {:<14} nodes {:>12}  re-searches {:>8}  EBF {}",
            label,
            per_iteration.iter().sum::<u64>(),
            totals.researches[i],
            ebf.join(" ")
        ));
    }
    let n = &totals.nodes_where_minimax_completed;
    let ratio = |a: u64, b: u64| if b == 0 { "-".to_string() } else { format!("{:.4}", a as f64 / b as f64) };
    send(&format!("on positions where minimax finished ({} nodes):", n[0]));
    send(&format!("  alpha-beta / minimax   {} (-pv)  {} (+pv)", ratio(n[1], n[0]), ratio(n[2], n[0])));
    send(&format!("  PVS / alpha-beta       {} (-pv)  {} (+pv)", ratio(n[3], n[1]), ratio(n[4], n[2])));
    send(&format!(
        "  +pv / -pv              {} (alpha-beta)  {} (PVS)",
        ratio(n[2], n[1]),
        ratio(n[4], n[3])
    ));
}

/// Compares every variant on each FEN at `depth`, printing tables and totals.
/// Fails when the classic algorithms disagree on a root score.
pub fn run(depth: u32, fens: Vec<String>, minimax_cap: u64) -> Result<Totals, String> {
    std::thread::Builder::new()
        .name("compare".into())
        .stack_size(STACK_SIZE)
        .spawn(move || run_here(depth, &fens, minimax_cap))
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "compare thread panicked".to_string())?
}

fn run_here(depth: u32, fens: &[String], cap: u64) -> Result<Totals, String> {
    let mut totals = Totals::default();
    for (i, text) in fens.iter().enumerate() {
        let fen: Fen = text.parse().map_err(|e| format!("invalid FEN '{text}': {e}"))?;
        let game = Game::from_fen(fen, CastlingMode::Standard)?;
        send(&format!("position {}/{} depth {depth}: {text}", i + 1, fens.len()));
        let runs = compare_position(&game, depth, cap).map_err(|e| format!("{text}: {e}"))?;
        print_runs(&runs);
        add_to_totals(&mut totals, &runs, depth);
    }
    print_totals(&totals, depth);
    Ok(totals)
}
