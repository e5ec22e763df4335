//! Iterative deepening: depth 1, 2, 3, ... until a limit, each iteration searched in an
//! aspiration window around the last score, with MultiPV lines and an `info` line each.

use super::params::{ASPIRATION_DEPTH, ASPIRATION_GIVE_UP, aspiration_delta};
use super::tb_search::with_root_score;
use super::time::TimeManager;
use super::{Counters, Limits, SearchControl, SearchInfo, SearchMode, SearchResult, SearchStats, Searcher};
use crate::eval::Accumulator;
use crate::game::Game;
use crate::score::{INFINITY, MATE_BOUND, MAX_PLY, mate_in};
use crate::tt::Bound;
use shakmaty::{Chess, MoveList};
use std::sync::Arc;

/// Fail-high and fail-low lines are reported only after this many milliseconds.
const BOUND_REPORT_MS: u64 = 1_000;

impl Searcher {
    /// Searches `game` within `limits`, calling `report` after every iteration.
    pub fn search(
        &mut self,
        game: &Game,
        limits: Limits,
        control: Arc<SearchControl>,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.prepare(game, limits, control);
        let root = game.position();
        // With the root in the tables, only the moves keeping their best outcome are searched
        // and the tables' score is reported (unless the search finds a mate).
        let tb_score = self.restrict_root_moves(root);
        let report = &mut |info: &SearchInfo| match tb_score {
            Some(tb) => report(&with_root_score(info, tb)),
            None => report(info),
        };
        let mut result = SearchResult::default();
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            self.root.depth = depth;
            self.counts.seldepth = 0;
            let lines = self.search_lines(root, depth, &result, report);
            let stopped = self.stopped;
            let best = self.finish_iteration(&mut result, lines, report);
            if stopped {
                // Stopped in mid-iteration with nothing new to show: the last line again,
                // with the counters brought up to date, so the GUI ends on them.
                if best.is_none()
                    && let Some(last) = &result.info
                {
                    report(&self.brought_up_to_date(last));
                }
                break;
            }
            self.stats.iteration_nodes.push(self.counts.nodes);
            // No score: there is no legal move.
            if best.is_none_or(|score| self.iteration_ends_search(score)) {
                break;
            }
        }
        if result.best_move.is_none() {
            // No legal move: report the root's status (mated or stalemate) at depth 0.
            let score = self.search_root(root, 1, -INFINITY, INFINITY, false);
            self.root.depth = 0;
            result.info = Some(self.info(score));
        }
        self.publish_nodes();
        if let (Some(tb), Some(info)) = (tb_score, result.info.as_mut()) {
            *info = with_root_score(info, tb);
        }
        self.stats.total_nodes = self.counts.nodes;
        result.stats = std::mem::take(&mut self.stats);
        result
    }

    /// One iteration: the best root move, then (MultiPV) the best of the moves not yet
    /// chosen, until `multi_pv` lines are found, the moves run out or the search stops.
    fn search_lines(
        &mut self,
        root: &Chess,
        depth: u32,
        result: &SearchResult,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<SearchInfo> {
        self.root.taken.clear();
        let mut lines = Vec::with_capacity(self.config.multi_pv);
        for line in 0..self.config.multi_pv.max(1) {
            let score = if line == 0 {
                let previous = result.info.as_ref().map_or(0, |info| info.score);
                self.aspiration(root, depth, previous, report)
            } else {
                self.trace_root_search();
                self.search_root(root, depth as i32, -INFINITY, INFINITY, false)
            };
            if self.stopped {
                // A later root move that beat the PV move was searched in full: trust it
                // (unless the stop came as a new window began and emptied the PV).
                let info = self.info(self.root.score);
                if line == 0 && self.root.best_changed && !info.pv.is_empty() {
                    lines.push(info);
                }
                break;
            }
            let info = self.info(score);
            let Some(&first) = info.pv.first() else {
                break;
            };
            self.root.taken.push(first);
            lines.push(info);
        }
        lines
    }

    /// Searches the root in a window around the previous score (strong search, from
    /// `ASPIRATION_DEPTH`), widening it after a fail high or low until the score falls inside.
    fn aspiration(
        &mut self,
        root: &Chess,
        depth: u32,
        previous: i32,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> i32 {
        let mut delta = aspiration_delta();
        let narrow = self.config.mode == SearchMode::Strong
            && depth >= ASPIRATION_DEPTH
            && previous.abs() < MATE_BOUND;
        let (mut alpha, mut beta) =
            if narrow { (previous - delta, previous + delta) } else { (-INFINITY, INFINITY) };
        // Each fail high searches again a ply shallower (down to depth 1): the move that
        // failed high is still first and settles sooner; a fail low goes back to full depth.
        let mut fail_highs = 0;
        loop {
            // Only a later move that beats the PV move in this window may stand for it at a stop.
            self.root.best_changed = false;
            self.trace_root_search();
            let searched = (depth as i32 - fail_highs).max(1);
            let score = self.search_root(root, searched, alpha, beta, true);
            if self.stopped {
                return score;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                fail_highs = 0;
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                fail_highs += 1;
                Bound::Lower
            } else {
                return score;
            };
            self.report_bound(score, bound, report);
            delta += delta / 2;
            if delta > ASPIRATION_GIVE_UP || score.abs() >= MATE_BOUND {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// Searches the root with the strong search, or with the classic algorithm that
    /// `SearchMode` names (`classic.rs`).
    fn search_root(&mut self, root: &Chess, depth: i32, alpha: i32, beta: i32, on_pv: bool) -> i32 {
        match self.config.mode {
            SearchMode::Strong => self.negamax(root, depth, 0, alpha, beta, on_pv),
            _ => self.classic(root, depth, 0, alpha, beta, on_pv),
        }
    }

    /// Records, in test builds, the node count as a search of the root begins.
    #[inline]
    fn trace_root_search(&mut self) {
        #[cfg(test)]
        self.stats.trace.root_starts.push(self.counts.nodes);
    }

    /// Reports a fail high or low of the root window, once a search has run long
    /// enough for a GUI to show it (and only with a move to show).
    fn report_bound(&self, score: i32, bound: Bound, report: &mut dyn FnMut(&SearchInfo)) {
        if self.control.elapsed_ms() >= BOUND_REPORT_MS {
            let info = SearchInfo { bound, ..self.info(score) };
            if !info.pv.is_empty() {
                report(&info);
            }
        }
    }

    /// Starts a search: limits and control, the game's keys, counters and the stack reset;
    /// the main thread ages the hash table and every thread halves its history.
    fn prepare(&mut self, game: &Game, limits: Limits, control: Arc<SearchControl>) {
        self.limits = limits;
        // With one move to play, the search is only for the score and line it shows.
        if self.limits.root_moves(game.position()).len() == 1 {
            self.limits.time = self.limits.time.map(TimeManager::single_move);
        }
        self.control = control;
        self.stack.new_search(game.keys());
        self.stack.set_root_accumulator(Accumulator::refresh(&self.net, game.position()));
        self.root.prev_pv.clear();
        self.root.progress = Default::default();
        self.root.move_nodes.clear();
        self.counts = Default::default();
        self.counts.stop_at = self.limits.nodes.map_or(u64::MAX, |limit| self.node_stop(limit));
        self.stopped = false;
        self.stats = SearchStats::default();
        self.reset_live();
        // A tuning build's LMR parameters may have changed since the last search.
        #[cfg(feature = "tune")]
        {
            self.lmr = super::lmr::LmrTable::default();
        }
        if self.uses_tt() {
            if !self.helper {
                self.tt.new_search();
            }
            self.history.new_search();
        }
    }

    /// Ranks and reports an iteration's lines; the best becomes the result and the PV to
    /// follow next. Returns its score, or `None` when there was no line (no legal move).
    fn finish_iteration(
        &mut self,
        result: &mut SearchResult,
        mut lines: Vec<SearchInfo>,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Option<i32> {
        lines.retain(|info| !info.pv.is_empty());
        lines.sort_by_key(|info| std::cmp::Reverse(info.score));
        let numbered = self.config.multi_pv > 1;
        for (rank, info) in lines.iter_mut().enumerate() {
            info.multipv = numbered.then_some(rank + 1);
            report(info);
        }
        if !self.stopped {
            result.lines.clone_from(&lines);
        }
        let best = lines.into_iter().next()?;
        self.track_progress(result, &best);
        if self.config.pv_first {
            self.root.prev_pv.clear();
            self.root.prev_pv.extend_from_slice(&best.pv);
        }
        result.best_move = best.pv.first().copied();
        result.ponder_move = best.pv.get(1).copied();
        let score = best.score;
        result.info = Some(best);
        Some(score)
    }

    /// Compares an iteration's best line with the last one, for the time budget.
    fn track_progress(&mut self, last: &SearchResult, best: &SearchInfo) {
        let Some(previous) = &last.info else {
            return;
        };
        let progress = &mut self.root.progress;
        let stable = last.best_move == best.pv.first().copied();
        progress.stable_iterations = if stable { progress.stable_iterations + 1 } else { 0 };
        progress.score_drop = (previous.score - best.score).max(0);
        let best_nodes = best.pv.first().map_or(0, |&mv| self.root_move_nodes(mv));
        let share = best_nodes * 1_000 / self.counts.nodes.max(1);
        self.root.progress.best_move_share = Some(share as u32);
        log::debug!("depth {} best move share {share}", self.root.depth);
    }

    /// The `info` of the search so far with `score` and the root's PV.
    fn info(&self, score: i32) -> SearchInfo {
        SearchInfo {
            depth: self.root.depth,
            score,
            counters: self.counters(),
            bound: Bound::Exact,
            multipv: None,
            pv: self.pv.root_line().collect(),
        }
    }

    /// `info` with this search's counters as they are now.
    fn brought_up_to_date(&self, info: &SearchInfo) -> SearchInfo {
        let counters = self.counters();
        let seldepth = counters.seldepth.max(info.counters.seldepth);
        SearchInfo { counters: Counters { seldepth, ..counters }, ..info.clone() }
    }

    /// After a completed iteration: is the search done?
    fn iteration_ends_search(&self, score: i32) -> bool {
        if self.control.is_stopped() {
            return true;
        }
        let mated = |moves: u32| mate_in(score).is_some_and(|n| n > 0 && n <= moves as i32);
        if self.limits.mate.is_some_and(mated) {
            return true;
        }
        let reached = |n: u64| self.total_nodes() >= n;
        if self.limits.nodes.is_some_and(reached) || self.limits.soft_nodes.is_some_and(reached) {
            return true;
        }
        match self.limits.time {
            Some(tm) if !self.control.is_pondering() => {
                !tm.may_start_iteration(self.control.clock_ms(), self.root.progress)
            }
            _ => false,
        }
    }

    /// Legal root moves, restricted to `searchmoves` when given, less the moves that earlier
    /// MultiPV lines of this iteration took.
    pub(super) fn root_moves(&self, pos: &Chess) -> MoveList {
        let mut moves = self.limits.root_moves(pos);
        if !self.root.taken.is_empty() {
            moves.retain(|m| !self.root.taken.contains(m));
        }
        moves
    }

    /// True when the position at `ply`, `halfmoves` after the last capture or pawn move,
    /// repeats an earlier one (see `Stack::is_repetition`).
    pub(super) fn is_repetition(&self, ply: usize, halfmoves: u32) -> bool {
        self.stack.is_repetition(ply, halfmoves)
    }
}
