//! Negamax's pruning: the whole-node steps (reverse futility, razoring, null move), tried
//! before any move is searched, and the SEE test of the move loop's pruning.

use super::Searcher;
use super::negamax::{Node, stalemate};
use super::params::*;
use super::see::see_ge;
use crate::game::null_move_key;
use crate::score::{DRAW, MATE_BOUND, TB_WIN_BOUND};
use shakmaty::{Chess, MoveList, Position};

impl Searcher {
    /// The whole-node pruning of a non-PV node out of check that searches every move: the
    /// node's score when one of the steps ends it, in order reverse futility, razoring and
    /// null move (0 when the search stopped inside one). `eval` is the node's best guess
    /// of its worth, `key` its hash key.
    #[inline]
    pub(super) fn prune_node(
        &mut self,
        pos: &Chess,
        moves: &mut Option<MoveList>,
        node: Node,
        key: u64,
        eval: i32,
    ) -> Option<i32> {
        let Node { depth, alpha, beta, .. } = node;
        // Reverse futility: far enough above beta near the horizon, a quiet position will
        // not fall below it in a few plies; trust the evaluation.
        if depth <= rfp_depth() && beta.abs() < MATE_BOUND && eval - rfp_margin() * depth >= beta {
            if stalemate(pos, moves) {
                return Some(DRAW);
            }
            self.count_rfp_cut(pos, node);
            return Some(eval);
        }

        // Razoring: far enough below alpha near the horizon, only a capture can save the
        // node; when quiescence finds none that does, it fails low at once.
        if depth <= razor_depth()
            && alpha.abs() < MATE_BOUND
            && eval + razor_margin() * depth < alpha
            && !stalemate(pos, moves)
        {
            stat!(self, RazorTry, depth);
            let score = self.quiescence(pos, node.ply, alpha, alpha + 1);
            if self.stopped {
                return Some(0);
            }
            if score <= alpha {
                stat!(self, RazorCut, depth);
                verify!(self, Razor, pos, node);
                return Some(score);
            }
        }
        self.null_move(pos, moves, node, key, eval)
    }

    /// Null move: if passing still leaves us at or above beta, a real move would too. Not
    /// twice in a row, with only pawns left (zugzwang), when a mate is at stake, or when
    /// the evaluation is not clearly above beta.
    #[inline]
    fn null_move(
        &mut self,
        pos: &Chess,
        moves: &mut Option<MoveList>,
        node: Node,
        key: u64,
        eval: i32,
    ) -> Option<i32> {
        let Node { depth, ply, beta, .. } = node;
        if ply == 0
            || depth < NMP_DEPTH
            || beta.abs() >= MATE_BOUND
            || self.stack[ply].null_move()
            || !has_pieces(pos)
            || eval < beta + nmp_margin()
            || stalemate(pos, moves)
        {
            return None;
        }
        let null = pos.clone().swap_turn().ok()?;
        stat!(self, NullTry, depth);
        let reduction = nmp_base() + depth / nmp_depth_divisor();
        self.stack.enter(ply, null_move_key(pos, key), None);
        let score = -self.negamax(&null, depth - 1 - reduction, ply + 1, -beta, -beta + 1, false);
        if self.stopped {
            return Some(0);
        }
        #[cfg(feature = "stats")]
        self.stats.prune.null_margin(eval - beta, score >= beta);
        if score < beta {
            return None;
        }
        stat!(self, NullCut, depth);
        verify!(self, Null, pos, node);
        Some(if score >= TB_WIN_BOUND { beta } else { score })
    }

    /// True when the move loop skips `mv` for the material it loses by SEE: a quiet move
    /// beyond a margin that grows with the depth LMR would search it at (`lmr_depth`), a
    /// capture beyond one that grows with the node's depth.
    #[inline]
    pub(super) fn loses_by_see(
        &mut self,
        pos: &Chess,
        mv: shakmaty::Move,
        quiet: bool,
        depth: i32,
        lmr_depth: i32,
    ) -> bool {
        if quiet && !see_ge(pos, mv, -see_quiet_margin() * lmr_depth) {
            stat!(self, SeeQuietSkip, depth);
            return true;
        }
        if !quiet && !see_ge(pos, mv, -see_capture_margin() * depth) {
            stat!(self, SeeCaptureSkip, depth);
            return true;
        }
        false
    }

    /// Counts a reverse futility cut in `stats` builds (and whether null move could have
    /// had the node), and verifies a sample of them; nothing otherwise.
    #[inline(always)]
    fn count_rfp_cut(&mut self, _pos: &Chess, _node: Node) {
        #[cfg(feature = "stats")]
        {
            let (pos, node) = (_pos, _node);
            stat!(self, RfpCut, node.depth);
            let null_ready = node.ply > 0 && node.depth >= NMP_DEPTH && has_pieces(pos);
            if null_ready && !self.stack[node.ply].null_move() {
                stat!(self, RfpNullReady, node.depth);
            }
            verify!(self, Rfp, pos, node);
        }
    }
}

/// True when the side to move has a piece other than pawns and the king.
fn has_pieces(pos: &Chess) -> bool {
    let board = pos.board();
    (pos.us() & !board.pawns() & !board.kings()).any()
}

#[cfg(not(feature = "stats"))]
impl Searcher {
    /// Pruning is verified only in `stats` builds.
    #[inline(always)]
    pub(super) fn verifying_at(&mut self, _ply: usize) -> bool {
        false
    }
}
