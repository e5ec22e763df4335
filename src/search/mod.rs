//! The search: iterative deepening over negamax with alpha-beta and PVS,
//! quiescence at the horizon, and the principal variation in a triangular table.

/// Counts a pruning event at a node of `depth` in `stats` builds; nothing otherwise.
macro_rules! stat {
    ($searcher:expr, $event:ident, $depth:expr) => {
        #[cfg(feature = "stats")]
        $searcher.stats.prune.count($crate::search::prune_stats::Event::$event, $depth);
    };
}

/// On a sample of cutoffs, checks one by a search without it in `stats` builds.
macro_rules! verify {
    ($searcher:expr, $cut:ident, $pos:expr, $node:expr) => {
        #[cfg(feature = "stats")]
        $searcher.verify_cut($crate::search::prune_stats::Cut::$cut, $pos, $node);
    };
}

mod checks;
mod classic;
mod classic_picker;
mod control;
mod correction;
mod deepening;
mod history;
mod limits;
mod lmr;
mod movegen;
mod negamax;
mod ordering;
pub mod params;
mod picker;
mod prune;
#[cfg(feature = "stats")]
pub mod prune_stats;
mod pv;
mod quiescence;
mod see;
mod singular;
mod smp;
mod stack;
mod tb_search;
#[cfg(test)]
mod tests;
mod thread;
pub mod time;

pub use classic_picker::ClassicPicker;
pub use control::SearchControl;
pub use limits::Limits;
pub use smp::{MAX_THREADS, search_threads};
pub use thread::{DEFAULT_HASH_MB, Searcher};

use crate::syzygy::ProbeSettings;
use crate::tt::Bound;
use shakmaty::Move;

/// Stack size for search threads: deep recursion with a move list per ply.
pub const STACK_SIZE: usize = 64 << 20;

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
    /// Verify every this many whole-node cutoffs of each kind (0: none; `stats` builds).
    #[cfg(feature = "stats")]
    pub verify_every: u64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            mode: SearchMode::Strong,
            pv_first: true,
            multi_pv: 1,
            syzygy: ProbeSettings::default(),
            #[cfg(feature = "stats")]
            verify_every: 0,
        }
    }
}

/// The counters every `info` line carries, an iteration's line and a live one alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Deepest ply reached in this iteration, quiescence included.
    pub seldepth: u32,
    /// Nodes of every thread so far.
    pub nodes: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Permille of the hash table in use, when the search uses one.
    pub hashfull: Option<u32>,
    /// Tablebase probes that gave a result so far, when tables are loaded.
    pub tbhits: Option<u64>,
}

impl Counters {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// What one iteration found, as reported in an `info` line.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Score in centipawns from the side to move, or a mate score.
    pub score: i32,
    /// Seldepth, nodes, time and the tables' use so far.
    pub counters: Counters,
    /// Exact, or the bound the score is when the root window failed high or low.
    pub bound: Bound,
    /// Rank of this line among the best root moves, when more than one is asked for.
    pub multipv: Option<usize>,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// A line a long search sends between iterations, so a GUI's display keeps moving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveLine {
    /// A root move's search begins: `info depth D currmove M currmovenumber N`.
    CurrMove {
        /// The iteration's depth.
        depth: u32,
        /// The root move.
        mv: Move,
        /// Its place in this search of the root, from 1.
        number: usize,
    },
    /// The counters so far: `info depth D seldepth S nodes N nps X time T hashfull H [tbhits K]`.
    Progress {
        /// The iteration's depth.
        depth: u32,
        /// Seldepth, nodes, time and the tables' use so far.
        counters: Counters,
    },
}

/// Where live lines go: set on the main searcher by the engine, none elsewhere (bench,
/// datagen and the tests print nothing of it).
pub type LiveOutput = Box<dyn FnMut(&LiveLine) + Send>;

/// Counters that describe how the search went, for `compare` and the tests.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    /// PVS null-window searches that failed high inside the window and were searched again.
    pub researches: u64,
    /// Node counts at the end of each completed iteration.
    pub iteration_nodes: Vec<u64>,
    /// Nodes searched in all, an unfinished iteration included.
    pub total_nodes: u64,
    /// How often each pruning step fired (`stats` builds).
    #[cfg(feature = "stats")]
    pub prune: prune_stats::PruneStats,
    /// What the unit tests watch at the root.
    #[cfg(test)]
    pub(crate) trace: RootTrace,
}

/// The root as the unit tests see it.
#[cfg(test)]
#[derive(Clone, Debug, Default)]
pub(crate) struct RootTrace {
    /// The first root move searched in each search of the root.
    pub first_moves: Vec<Move>,
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
    /// Every line of the last completed iteration, best first (MultiPV).
    pub lines: Vec<SearchInfo>,
    /// How the search went.
    pub stats: SearchStats,
}
