//! The search: iterative deepening over negamax with alpha-beta and PVS,
//! quiescence at the horizon, and the principal variation in a triangular table.

mod checks;
mod history;
mod limits;
mod lmr;
mod movegen;
mod negamax;
mod ordering;
mod pv;
mod see;
mod smp;
mod tablebase;
pub mod time;

pub use limits::Limits;
pub use ordering::{MovePicker, is_quiet, mvv_lva};
pub use pv::PvTable;
pub use see::{see, see_ge};
pub use smp::{MAX_THREADS, search_threads};

use crate::eval::PawnCache;
use crate::game::Game;
use crate::syzygy::{ProbeSettings, Tablebases};
use crate::tt::{Bound, TranspositionTable};
use shakmaty::{Chess, Move, MoveList, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Deepest ply the search reaches (search path plus quiescence).
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// Score of mating at the root; mate at ply `n` scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Score of a drawn position.
pub const DRAW: i32 = 0;
/// Score of a tablebase win at the root, below the mate range; found at ply `n`, `TB_WIN - n`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this are tablebase wins or mates (and below its negation, losses).
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Hash table size in MB when none is given.
pub const DEFAULT_HASH_MB: usize = 16;

/// Stack size for search threads: deep recursion with a move list per ply.
pub const STACK_SIZE: usize = 64 << 20;

/// Half-width of the first aspiration window, in centipawns.
const ASPIRATION_DELTA: i32 = 25;

/// Past this half-width the aspiration window opens fully.
const ASPIRATION_GIVE_UP: i32 = 600;

/// Fail-high and fail-low lines are reported only after this many milliseconds.
const BOUND_REPORT_MS: u64 = 1_000;

/// Entries in each searcher's evaluation cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 16;

/// How often (in nodes) the clock and the stop flag are polled.
const POLL_INTERVAL: u64 = 2048;

/// Which search runs: the engine's strong search, or one of the classic algorithms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SearchMode {
    /// PVS with the transposition table and every pruning and ordering heuristic.
    #[default]
    Strong,
    /// Plain principal variation search: null windows after the first move.
    Pvs,
    /// Plain alpha-beta with the window passed down.
    AlphaBeta,
    /// Every move with the full window, no cutoffs: the whole tree.
    Minimax,
}

impl SearchMode {
    /// Every mode, strongest first.
    pub const ALL: [SearchMode; 4] =
        [SearchMode::Strong, SearchMode::Pvs, SearchMode::AlphaBeta, SearchMode::Minimax];

    /// The mode's name as the `SearchMode` option and `compare` write it.
    pub const fn name(self) -> &'static str {
        match self {
            SearchMode::Strong => "Strong",
            SearchMode::Pvs => "PVS",
            SearchMode::AlphaBeta => "AlphaBeta",
            SearchMode::Minimax => "Minimax",
        }
    }

    /// The mode called `name` (case-insensitive), if there is one.
    pub fn from_name(name: &str) -> Option<SearchMode> {
        SearchMode::ALL.into_iter().find(|m| m.name().eq_ignore_ascii_case(name))
    }
}

/// Switches that select the search variant; the default is the engine's real search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// The search at every node.
    pub mode: SearchMode,
    /// Search the previous iteration's PV first along its path.
    pub pv_first: bool,
    /// Number of best root moves to search and report, each with its own line (MultiPV).
    pub multi_pv: usize,
    /// How the search uses the Syzygy tables, when there are any.
    pub syzygy: ProbeSettings,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            mode: SearchMode::Strong,
            pv_first: true,
            multi_pv: 1,
            syzygy: ProbeSettings::default(),
        }
    }
}

/// Flags shared between the engine thread and a running search.
#[derive(Debug)]
pub struct SearchControl {
    started: Instant,
    stop: AtomicBool,
    pondering: AtomicBool,
    ponderhit_ms: AtomicU64,
    answered: AtomicBool,
    finished: AtomicBool,
    nodes: AtomicU64,
    tbhits: AtomicU64,
}

impl SearchControl {
    /// Control for a new search, whose clock starts now (as `go` arrives); `pondering`
    /// holds the clock until `ponderhit`.
    pub fn new(pondering: bool) -> Self {
        SearchControl {
            started: Instant::now(),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            ponderhit_ms: AtomicU64::new(0),
            answered: AtomicBool::new(false),
            finished: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once `stop` has been called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Milliseconds since the search was asked for.
    pub fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Turns a ponder search into a normal one whose clock starts now.
    pub fn ponderhit(&self) {
        self.ponderhit_ms.store(self.elapsed_ms(), Ordering::Relaxed);
        self.pondering.store(false, Ordering::Release);
    }

    /// True while the search ponders (the clock does not run).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Marks the search as answered: its `bestmove` is about to be sent.
    pub fn mark_answered(&self) {
        self.answered.store(true, Ordering::Release);
    }

    /// True once the search has answered; its thread is about to end.
    pub fn is_answered(&self) -> bool {
        self.answered.load(Ordering::Acquire)
    }

    /// The main thread has its result: helper threads stop.
    fn finish(&self) {
        self.finished.store(true, Ordering::Relaxed);
    }

    /// True once the main thread has its result.
    fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Relaxed)
    }

    /// Adds a thread's nodes and table hits to the shared counts.
    fn add_nodes(&self, nodes: u64, tbhits: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        if tbhits > 0 {
            self.tbhits.fetch_add(tbhits, Ordering::Relaxed);
        }
    }

    /// Nodes every thread has added so far.
    fn shared_nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Table hits every thread has added so far.
    fn shared_tbhits(&self) -> u64 {
        self.tbhits.load(Ordering::Relaxed)
    }

    /// Milliseconds on our clock: since `go`, or since `ponderhit` after pondering.
    fn clock_ms(&self) -> u64 {
        self.elapsed_ms().saturating_sub(self.ponderhit_ms.load(Ordering::Relaxed))
    }
}

/// What one iteration found, as reported in an `info` line.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Score in centipawns from the side to move, or a mate score.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Permille of the hash table in use, when the search uses one.
    pub hashfull: Option<u32>,
    /// Tablebase probes that gave a result so far, when tables are loaded.
    pub tbhits: Option<u64>,
    /// Exact, or the bound the score is when the root window failed high or low.
    pub bound: Bound,
    /// Rank of this line among the best root moves, when more than one is asked for.
    pub multipv: Option<usize>,
    /// The principal variation.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Moves to mate (positive: we mate, negative: we are mated), for a mate score.
pub fn mate_in(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// Counters that describe how the search went, for tests and `compare`.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    /// PVS null-window searches that failed high inside the window and were searched again.
    pub researches: u64,
    /// The first root move searched in each iteration.
    pub root_first_moves: Vec<Move>,
    /// Node counts at the end of each completed iteration.
    pub iteration_nodes: Vec<u64>,
    /// Nodes searched in all, an unfinished iteration included.
    pub total_nodes: u64,
    /// Nodes searched before each search of the root (every aspiration window, every line).
    pub root_starts: Vec<u64>,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best_move: Option<Move>,
    /// The reply we expect, to ponder on.
    pub ponder_move: Option<Move>,
    /// The last reported iteration (or the root's status when there was no move).
    pub info: Option<SearchInfo>,
    /// How the search went.
    pub stats: SearchStats,
}

/// One search thread's state: the PV table, key stack and counters.
pub struct Searcher {
    config: SearchConfig,
    limits: Limits,
    control: Arc<SearchControl>,
    pv: PvTable,
    prev_pv: Vec<Move>,
    keys: Vec<u64>,
    root_index: usize,
    nodes: u64,
    published: u64,
    helper: bool,
    seldepth: usize,
    depth: u32,
    stopped: bool,
    root_score: i32,
    root_best_changed: bool,
    progress: time::Progress,
    stats: SearchStats,
    tt: Arc<TranspositionTable>,
    lmr: lmr::LmrTable,
    after_null: [bool; MAX_PLY + 1],
    quiet: Box<history::QuietHistory>,
    excluded: Vec<Move>,
    eval_cache: Box<[(u64, i32)]>,
    pawns: PawnCache,
    tablebases: Option<Arc<Tablebases>>,
    tbhits: u64,
    tb_published: u64,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(SearchConfig::default())
    }
}

impl Searcher {
    /// A searcher running the given variant, with a fresh hash table of the default size.
    pub fn new(config: SearchConfig) -> Self {
        let tt = TranspositionTable::new(DEFAULT_HASH_MB).expect("default hash table");
        Searcher::with_tt(config, Arc::new(tt))
    }

    /// A searcher running the given variant on a (possibly shared) hash table.
    pub fn with_tt(config: SearchConfig, tt: Arc<TranspositionTable>) -> Self {
        Searcher {
            tt,
            lmr: lmr::LmrTable::default(),
            after_null: [false; MAX_PLY + 1],
            quiet: Box::default(),
            excluded: Vec::with_capacity(256),
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE].into_boxed_slice(),
            pawns: PawnCache::default(),
            tablebases: None,
            tbhits: 0,
            tb_published: 0,
            config,
            limits: Limits::default(),
            control: Arc::new(SearchControl::new(false)),
            pv: PvTable::default(),
            prev_pv: Vec::with_capacity(MAX_PLY),
            keys: Vec::new(),
            root_index: 0,
            nodes: 0,
            published: 0,
            helper: false,
            seldepth: 0,
            depth: 0,
            stopped: false,
            root_score: 0,
            root_best_changed: false,
            progress: time::Progress::default(),
            stats: SearchStats::default(),
        }
    }

    /// Changes the search variant for the next search.
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    /// The hash table this searcher uses.
    pub fn tt(&self) -> Arc<TranspositionTable> {
        Arc::clone(&self.tt)
    }

    /// Uses `tt` from the next search on.
    pub fn set_tt(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

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
            Some(tb) => report(&tablebase::with_root_score(info, tb)),
            None => report(info),
        };
        let mut result = SearchResult::default();
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            self.depth = depth;
            self.seldepth = 0;
            let lines = self.search_lines(root, depth, &result, report);
            let stopped = self.stopped;
            let best = self.finish_iteration(&mut result, lines, report);
            if stopped {
                break;
            }
            self.stats.iteration_nodes.push(self.nodes);
            // No score: there is no legal move.
            if best.is_none_or(|score| self.iteration_ends_search(score)) {
                break;
            }
        }
        if result.best_move.is_none() {
            // No legal move: report the root's status (mated or stalemate) at depth 0.
            let score = self.negamax(root, 1, 0, -INFINITY, INFINITY, false);
            self.depth = 0;
            result.info = Some(self.info(score));
        }
        self.publish_nodes();
        if let (Some(tb), Some(info)) = (tb_score, result.info.as_mut()) {
            *info = tablebase::with_root_score(info, tb);
        }
        self.stats.total_nodes = self.nodes;
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
        self.excluded.clear();
        let mut lines = Vec::with_capacity(self.config.multi_pv);
        for line in 0..self.config.multi_pv.max(1) {
            self.root_best_changed = false;
            let score = if line == 0 {
                let previous = result.info.as_ref().map_or(0, |info| info.score);
                self.aspiration(root, depth, previous, report)
            } else {
                self.stats.root_starts.push(self.nodes);
                self.negamax(root, depth as i32, 0, -INFINITY, INFINITY, false)
            };
            if self.stopped {
                // A later root move that beat the PV move was searched in full: trust it
                // (unless the stop came as a new window began and emptied the PV).
                let info = self.info(self.root_score);
                if line == 0 && self.root_best_changed && !info.pv.is_empty() {
                    lines.push(info);
                }
                break;
            }
            let info = self.info(score);
            let Some(&first) = info.pv.first() else {
                break;
            };
            self.excluded.push(first);
            lines.push(info);
        }
        lines
    }

    /// Searches the root in a window around the previous score (strong search, from
    /// depth 5), widening it after a fail high or low until the score falls inside.
    fn aspiration(
        &mut self,
        root: &Chess,
        depth: u32,
        previous: i32,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> i32 {
        let mut delta = ASPIRATION_DELTA;
        let narrow = self.config.mode == SearchMode::Strong && depth >= 5 && previous.abs() < MATE_BOUND;
        let (mut alpha, mut beta) =
            if narrow { (previous - delta, previous + delta) } else { (-INFINITY, INFINITY) };
        loop {
            self.stats.root_starts.push(self.nodes);
            let score = self.negamax(root, depth as i32, 0, alpha, beta, true);
            if self.stopped {
                return score;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
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

    fn prepare(&mut self, game: &Game, limits: Limits, control: Arc<SearchControl>) {
        self.limits = limits;
        self.control = control;
        self.keys.clear();
        self.keys.extend_from_slice(game.keys());
        self.keys.reserve(MAX_PLY + 1);
        self.root_index = self.keys.len() - 1;
        self.prev_pv.clear();
        self.nodes = 0;
        self.published = 0;
        self.tbhits = 0;
        self.tb_published = 0;
        self.progress = time::Progress::default();
        self.stopped = false;
        self.stats = SearchStats::default();
        if self.uses_tt() {
            if !self.helper {
                self.tt.new_search();
            }
            self.quiet.new_search();
        }
    }

    /// Only the strong search uses the hash table; the classic modes search the bare tree.
    fn uses_tt(&self) -> bool {
        self.config.mode == SearchMode::Strong
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
        let best = lines.into_iter().next()?;
        self.track_progress(result, &best);
        self.prev_pv.clear();
        self.prev_pv.extend_from_slice(&best.pv);
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
        let stable = last.best_move == best.pv.first().copied();
        self.progress.stable_iterations = if stable { self.progress.stable_iterations + 1 } else { 0 };
        self.progress.score_drop = (previous.score - best.score).max(0);
    }

    fn info(&self, score: i32) -> SearchInfo {
        SearchInfo {
            depth: self.depth,
            seldepth: self.seldepth as u32,
            score,
            nodes: self.total_nodes(),
            time_ms: self.control.elapsed_ms(),
            hashfull: self.uses_tt().then(|| self.tt.hashfull()),
            tbhits: self.tablebases.is_some().then(|| self.total_tbhits()),
            bound: Bound::Exact,
            multipv: None,
            pv: self.pv.root_line().collect(),
        }
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
                !tm.may_start_iteration(self.clock_ms(), self.progress)
            }
            _ => false,
        }
    }

    fn clock_ms(&self) -> u64 {
        self.control.clock_ms()
    }

    /// The static evaluation of `pos`, whose key is the last on the key stack; positions met
    /// again (the next iteration, transpositions) are looked up instead of evaluated.
    #[inline]
    fn evaluate(&mut self, pos: &Chess) -> i32 {
        let key = *self.keys.last().expect("current key");
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let score = crate::eval::evaluate_cached(pos, &mut self.pawns);
        *slot = (key, score);
        score
    }

    /// Polls the limits; depth 1 always completes so there is always a move.
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped || self.depth <= 1 {
            return self.stopped;
        }
        let poll = self.nodes.is_multiple_of(POLL_INTERVAL);
        if let Some(limit) = self.limits.nodes {
            // A node limit counts every thread's nodes, so they are shared at once.
            self.publish_nodes();
            self.stopped = self.total_nodes() >= limit;
        } else if poll {
            self.publish_nodes();
        }
        if poll && !self.stopped {
            let out_of_time = match self.limits.time {
                Some(tm) if !self.control.is_pondering() => tm.must_stop(self.clock_ms()),
                _ => false,
            };
            let released = self.helper && self.control.is_finished();
            self.stopped = out_of_time || released || self.control.is_stopped();
        }
        self.stopped
    }

    /// Adds the nodes searched since the last call to the count shared by all threads.
    fn publish_nodes(&mut self) {
        self.control.add_nodes(self.nodes - self.published, self.tbhits - self.tb_published);
        self.published = self.nodes;
        self.tb_published = self.tbhits;
    }

    /// Table hits of all threads, this one's counted exactly.
    fn total_tbhits(&self) -> u64 {
        self.control.shared_tbhits() + self.tbhits - self.tb_published
    }

    /// Nodes searched by all threads, this one's counted exactly.
    fn total_nodes(&self) -> u64 {
        self.control.shared_nodes() + self.nodes - self.published
    }

    /// Legal root moves, restricted to `searchmoves` when given, less the moves that earlier
    /// MultiPV lines of this iteration took.
    fn root_moves(&self, pos: &Chess) -> MoveList {
        let mut moves = pos.legal_moves();
        if !self.limits.searchmoves.is_empty() {
            moves.retain(|m| self.limits.searchmoves.contains(m));
        }
        if !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(m));
        }
        moves
    }

    fn is_repetition(&self, halfmoves: u32) -> bool {
        is_repetition(&self.keys, self.root_index, halfmoves)
    }
}

/// True when the last of `keys` repeats an earlier position: once at or after
/// `root_index` (inside the search), or twice counting the game history.
/// Only the last `halfmoves` plies can hold a repetition.
fn is_repetition(keys: &[u64], root_index: usize, halfmoves: u32) -> bool {
    let last = keys.len() - 1;
    let key = keys[last];
    let reach = (halfmoves as usize).min(last);
    let mut seen = 0;
    for back in (4..=reach).step_by(2) {
        let index = last - back;
        if keys[index] == key {
            if index >= root_index {
                return true;
            }
            seen += 1;
            if seen >= 2 {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::is_repetition;

    #[test]
    fn one_repetition_inside_the_search_is_a_draw() {
        let keys = [1, 2, 3, 4, 1];
        assert!(is_repetition(&keys, 0, 4), "the root recurs in the search");
        assert!(!is_repetition(&keys, 4, 4), "a single earlier occurrence in the game is not enough");
    }

    #[test]
    fn two_earlier_occurrences_in_the_game_are_a_draw() {
        let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1];
        assert!(is_repetition(&keys, 8, 8));
    }

    #[test]
    fn positions_before_an_irreversible_move_do_not_count() {
        let keys = [1, 2, 3, 4, 1];
        assert!(!is_repetition(&keys, 0, 3));
        assert!(!is_repetition(&[1, 2, 1], 0, 2), "two plies back is the other side to move");
    }
}
