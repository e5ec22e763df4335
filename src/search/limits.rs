//! What a search is asked to do: typed limits built from `go` by the engine.

use super::time::TimeManager;
use shakmaty::{Chess, Move, MoveList, Position};

/// Limits of one search; `None` means no limit of that kind.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration to run.
    pub depth: Option<u32>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Start no new iteration after this many nodes (the running one finishes).
    pub soft_nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is proven.
    pub mate: Option<u32>,
    /// Soft and hard time budgets.
    pub time: Option<TimeManager>,
    /// Only these root moves are searched, if not empty.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// Limits for a fixed-depth search, as used by `bench` and tests.
    pub fn depth(depth: u32) -> Self {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// The legal moves of `root` that `searchmoves` lets the search play (all of them
    /// when it names none).
    pub(super) fn root_moves(&self, root: &Chess) -> MoveList {
        let mut moves = root.legal_moves();
        if !self.searchmoves.is_empty() {
            moves.retain(|m| self.searchmoves.contains(m));
        }
        moves
    }
}
