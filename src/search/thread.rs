//! One search thread's state: what it owns for a whole search (the histories, the caches,
//! the counters, the handles of the shared tables and the network), apart from what each ply owns (the
//! stack) and the best lines (the PV table).

use super::correction::Correction;
use super::history::{Histories, context};
use super::lmr::LmrTable;
use super::params::{LIVE_CURRMOVE_AFTER_MS, LIVE_CURRMOVE_GAP_MS, LIVE_PROGRESS_EVERY_MS};
use super::pv::PvTable;
use super::stack::Stack;
use super::time::Progress;
use super::{Counters, Limits, LiveLine, LiveOutput, SearchConfig, SearchControl, SearchStats};
use crate::eval::{self, Network};
use crate::game::key_after;
use crate::syzygy::Tablebases;
use crate::tt::TranspositionTable;
use shakmaty::{Chess, Move, Piece, Position, Role};
use std::sync::Arc;

/// Hash table size in MB when none is given.
pub const DEFAULT_HASH_MB: usize = 16;

/// Entries in each searcher's evaluation cache (a power of two): 256 KB, which keeps
/// nearly every hit of a table four times as large (its hits are recent positions).
const EVAL_CACHE_SIZE: usize = 1 << 14;

/// How often (in nodes) the clock and the stop flag are polled.
const POLL_INTERVAL: u64 = 2048;
/// Under a node limit each thread shares its count this often (an atomic add at every
/// node costs more than the node's bookkeeping); it always counts its own nodes exactly,
/// so one thread stops at the limit's very node and several overshoot by at most this
/// many nodes each.
const NODE_SHARE_INTERVAL: u64 = 64;

/// Static evaluations by key: positions met again (the next iteration, transpositions)
/// are looked up instead of evaluated.
pub(super) struct EvalCache(Box<[(u64, i32)]>);

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache(vec![(0, 0); EVAL_CACHE_SIZE].into_boxed_slice())
    }
}

impl EvalCache {
    /// The evaluation of the position `key`, computed by `evaluate` when not cached.
    #[inline]
    fn get_or(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.0[key as usize & (EVAL_CACHE_SIZE - 1)];
        if slot.0 == key && key != 0 {
            return slot.1;
        }
        let score = evaluate();
        *slot = (key, score);
        score
    }
}

/// This thread's node and table-hit counts, and how many of them the shared counts have.
#[derive(Default)]
pub(super) struct NodeCounts {
    /// Nodes this thread searched in this search.
    pub nodes: u64,
    /// Tablebase probes that gave a result.
    pub tbhits: u64,
    /// Deepest ply reached in this iteration, quiescence included.
    pub seldepth: usize,
    published: u64,
    tb_published: u64,
    /// Under a node limit, this thread's count at which the limit is reached, as the shared
    /// count stood when this thread last shared its own (the limit itself for one thread).
    pub(super) stop_at: u64,
}

/// What iterative deepening keeps between the searches of the root.
#[derive(Default)]
pub(super) struct RootState {
    /// Depth of the running iteration (0 when reporting a root with no move).
    pub depth: u32,
    /// Score of the best root move of the running search of the root.
    pub score: i32,
    /// True once a root move after the first has raised alpha in this search of the root.
    pub best_changed: bool,
    /// Root moves earlier MultiPV lines of this iteration took.
    pub taken: Vec<Move>,
    /// The previous iteration's PV, searched first along its path (empty without `PVFirst`).
    pub prev_pv: Vec<Move>,
    /// How the iterations have gone, for the time budget.
    pub progress: Progress,
    /// Nodes searched under each root move since the search began, for the time budget.
    pub move_nodes: Vec<(Move, u64)>,
}

/// One search thread.
pub struct Searcher {
    pub(super) config: SearchConfig,
    // Shared with the other threads.
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) tablebases: Option<Arc<Tablebases>>,
    pub(super) control: Arc<SearchControl>,
    pub(super) helper: bool,
    // Learnt and cached across searches.
    pub(super) history: Box<Histories>,
    pub(super) correction: Correction,
    pub(super) lmr: LmrTable,
    pub(super) net: Arc<Network>,
    eval_cache: EvalCache,
    // This search.
    pub(super) limits: Limits,
    pub(super) root: RootState,
    pub(super) counts: NodeCounts,
    pub(super) stopped: bool,
    pub(super) stack: Stack,
    pub(super) pv: PvTable,
    pub(super) stats: SearchStats,
    // Live output (the main thread of an engine search only).
    live: Option<LiveOutput>,
    /// When the next progress line is due, and when the last `currmove` line went out.
    live_next_ms: u64,
    live_currmove_ms: u64,
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
            config,
            tt,
            tablebases: None,
            control: Arc::new(SearchControl::new(false)),
            helper: false,
            history: Box::default(),
            correction: Correction::default(),
            lmr: LmrTable::default(),
            net: eval::embedded(),
            eval_cache: EvalCache::default(),
            limits: Limits::default(),
            root: RootState::default(),
            counts: NodeCounts::default(),
            stopped: false,
            stack: Stack::default(),
            pv: PvTable::default(),
            stats: SearchStats::default(),
            live: None,
            live_next_ms: 0,
            live_currmove_ms: 0,
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

    /// Evaluates with `net` from the next search on (another network empties the
    /// evaluation cache, which holds the old one's scores).
    pub fn set_network(&mut self, net: Arc<Network>) {
        if !Arc::ptr_eq(&self.net, &net) {
            self.eval_cache = EvalCache::default();
        }
        self.net = net;
    }

    /// Uses `tables` (or none) from the next search on.
    pub fn set_tablebases(&mut self, tables: Option<Arc<Tablebases>>) {
        self.tablebases = tables;
    }

    /// The continuation-history rows the quiet histories of the node at `ply` are read by:
    /// those of the moves one and two plies before it (none at the root, after a null
    /// move, or where there was no such move).
    #[inline]
    pub(super) fn continuation_rows(&self, ply: usize) -> [Option<usize>; 2] {
        let at = |p: Option<usize>| {
            let entry = &self.stack[p?];
            Some(context(entry.piece?, entry.mv?.to()))
        };
        [at(Some(ply)), at(ply.checked_sub(1))]
    }

    /// Sends live lines (`currmove`, progress) of long searches to `output`, or none.
    pub fn set_live_output(&mut self, output: Option<LiveOutput>) {
        self.live = output;
    }

    /// Starts the live output's clocks for a new search.
    pub(super) fn reset_live(&mut self) {
        self.live_next_ms = LIVE_PROGRESS_EVERY_MS;
        self.live_currmove_ms = 0;
    }

    /// Sends `currmove` for the root move `mv`, the `number`th searched, when the search
    /// has run long enough and the last such line is not too recent.
    #[inline]
    pub(super) fn live_currmove(&mut self, mv: Move, number: usize) {
        if self.live.is_none() {
            return;
        }
        let now = self.control.elapsed_ms();
        if now >= LIVE_CURRMOVE_AFTER_MS && now >= self.live_currmove_ms + LIVE_CURRMOVE_GAP_MS {
            self.live_currmove_ms = now;
            let line = LiveLine::CurrMove { depth: self.root.depth, mv, number };
            self.live.as_mut().expect("checked")(&line);
        }
    }

    /// Sends the counters about once a second.
    fn live_progress(&mut self) {
        let now = self.control.elapsed_ms();
        if now < self.live_next_ms {
            return;
        }
        self.live_next_ms = now + LIVE_PROGRESS_EVERY_MS;
        let line = LiveLine::Progress { depth: self.root.depth, counters: self.counters() };
        if let Some(live) = self.live.as_mut() {
            live(&line);
        }
    }

    /// The counters of an `info` line, as they are now.
    pub(super) fn counters(&self) -> Counters {
        Counters {
            seldepth: self.counts.seldepth as u32,
            nodes: self.total_nodes(),
            time_ms: self.control.elapsed_ms(),
            hashfull: self.uses_tt().then(|| self.tt.hashfull()),
            tbhits: self.tablebases.is_some().then(|| self.total_tbhits()),
        }
    }

    /// Only the strong search uses the hash table; the classic modes search the bare tree.
    pub(super) fn uses_tt(&self) -> bool {
        self.config.mode == super::SearchMode::Strong
    }

    /// The static evaluation of `pos`, the position at `ply`.
    #[inline]
    pub(super) fn evaluate(&mut self, pos: &Chess, ply: usize) -> i32 {
        let key = self.stack.key(ply);
        let (net, stack) = (&self.net, &mut self.stack);
        self.eval_cache
            .get_or(key, || eval::evaluate(net, pos, move || stack.accumulator(ply, net, pos.board())))
    }

    /// Makes `mv` on a copy of `pos`, the position at `ply`, and enters the child's ply.
    #[inline(always)]
    pub(super) fn play(&mut self, pos: &Chess, ply: usize, mv: Move) -> Chess {
        let key = self.stack.key(ply);
        let piece = Piece { color: pos.turn(), role: mv.role() };
        let mut child = pos.clone();
        child.play_unchecked(mv);
        let next = key_after(pos, key, mv, &child);
        self.tt.prefetch(next);
        self.stack.enter(ply, next, Some((mv, piece)));
        if piece.role == Role::King {
            self.stack.after_king_move(ply, &self.net, pos, &child);
        }
        child
    }

    /// The previous iteration's PV move at `ply`, for a node on that PV (`on_pv`).
    #[inline]
    pub(super) fn pv_move(&self, ply: usize, on_pv: bool) -> Option<Move> {
        if on_pv { self.root.prev_pv.get(ply).copied() } else { None }
    }

    /// A move that raised alpha at `ply`, the `index`th searched there, heads the node's
    /// line in the PV table; at the root it also becomes the root's best so far.
    #[inline]
    pub(super) fn new_pv_move(&mut self, ply: usize, mv: Move, score: i32, index: usize) {
        self.pv.update(ply, mv);
        if ply == 0 {
            self.root.score = score;
            self.root.best_changed |= index > 0;
        }
    }

    /// The search of the root move `mv`, the `index`th from 0, begins: a GUI may be
    /// told (`currmove`), and test builds note the first move of each search of the root.
    pub(super) fn root_move_begins(&mut self, mv: Move, index: usize) {
        #[cfg(test)]
        if index == 0 {
            self.stats.trace.first_moves.push(mv);
        }
        self.live_currmove(mv, index + 1);
    }

    /// Adds the nodes a root move's search took since `nodes_before` to its count.
    pub(super) fn root_move_ends(&mut self, mv: Move, nodes_before: u64) {
        let spent = self.counts.nodes - nodes_before;
        match self.root.move_nodes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, nodes)) => *nodes += spent,
            None => self.root.move_nodes.push((mv, spent)),
        }
    }

    /// The nodes searched under root move `mv` since the search began.
    pub(super) fn root_move_nodes(&self, mv: Move) -> u64 {
        self.root.move_nodes.iter().find(|(m, _)| *m == mv).map_or(0, |&(_, nodes)| nodes)
    }

    /// Counts a node at `ply` and polls the limits: true when the search must stop.
    #[inline]
    pub(super) fn enter_node(&mut self, ply: usize) -> bool {
        self.counts.nodes += 1;
        self.pv.clear(ply);
        self.counts.seldepth = self.counts.seldepth.max(ply);
        self.check_stop()
    }

    /// Polls the limits; depth 1 always completes so there is always a move. The node
    /// limit is checked at every node, the rest every `POLL_INTERVAL` nodes (out of line).
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped || self.root.depth <= 1 {
            return self.stopped;
        }
        if self.limits.nodes.is_some() {
            // A node limit counts every thread's nodes, so they are shared often; between
            // shares only this thread's count moves the total (as this thread sees it).
            if self.counts.nodes.is_multiple_of(NODE_SHARE_INTERVAL) {
                self.share_nodes();
            }
            self.stopped = self.counts.nodes >= self.counts.stop_at;
        }
        if self.counts.nodes.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
        self.stopped
    }

    /// Under a node limit, shares this thread's count and sees where the limit now lies.
    #[inline(never)]
    fn share_nodes(&mut self) {
        self.publish_nodes();
        if let Some(limit) = self.limits.nodes {
            self.counts.stop_at = self.node_stop(limit);
        }
    }

    /// The periodic poll: shares the count (a node limit shares it more often), reports
    /// progress to a live GUI, and reads the clock and the stop flag.
    #[inline(never)]
    fn poll(&mut self) {
        if self.limits.nodes.is_none() {
            self.publish_nodes();
        }
        if self.live.is_some() {
            self.live_progress();
        }
        if !self.stopped {
            let out_of_time = match self.limits.time {
                Some(tm) if !self.control.is_pondering() => tm.must_stop(self.control.clock_ms()),
                _ => false,
            };
            let released = self.helper && self.control.is_finished();
            self.stopped = out_of_time || released || self.control.is_stopped();
        }
    }

    /// Adds the nodes searched since the last call to the count shared by all threads.
    pub(super) fn publish_nodes(&mut self) {
        let c = &mut self.counts;
        self.control.add_nodes(c.nodes - c.published, c.tbhits - c.tb_published);
        c.published = c.nodes;
        c.tb_published = c.tbhits;
    }

    /// This thread's count at which all threads' nodes reach `limit`, as they stand now.
    pub(super) fn node_stop(&self, limit: u64) -> u64 {
        limit.saturating_add(self.counts.published).saturating_sub(self.control.shared_nodes())
    }

    /// Nodes searched by all threads, this one's counted exactly.
    pub(super) fn total_nodes(&self) -> u64 {
        self.control.shared_nodes() + self.counts.nodes - self.counts.published
    }

    /// Table hits of all threads, this one's counted exactly.
    pub(super) fn total_tbhits(&self) -> u64 {
        self.control.shared_tbhits() + self.counts.tbhits - self.counts.tb_published
    }
}
