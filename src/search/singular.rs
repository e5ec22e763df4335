//! The singular extension: a hash move that beats every other move by a margin, in a
//! shallower search that leaves it out, is forced, and searched deeper.

use super::Searcher;
use super::negamax::Node;
use super::params::*;
use super::picker::legal_tt_move;
use crate::score::TB_WIN_BOUND;
use crate::tt::{Bound, TtHit};
use shakmaty::{Chess, MoveList};
use std::ops::ControlFlow;

impl Searcher {
    /// How much deeper the hash move of `pos` is searched: a ply when the others fall short
    /// of the hash score less a margin (two off the PV when they fall far short, a few times
    /// a line), a ply less when they do not but the hash move only beat beta, none where
    /// the test does not apply. `Break` with the node's score when the others beat beta too
    /// (multi-cut), or with 0 when the search stopped.
    #[inline]
    pub(super) fn singular_extension(
        &mut self,
        pos: &Chess,
        moves: Option<&MoveList>,
        tt_hit: Option<TtHit>,
        node: Node,
    ) -> ControlFlow<i32, i32> {
        let Node { depth, ply, alpha, beta, .. } = node;
        let Some(hit) = tt_hit else {
            return ControlFlow::Continue(0);
        };
        // A deep enough lower or exact bound, not from a mate or the tablebases, not at the
        // root, not inside another singular search, and only as deep as extensions may go.
        let applies = ply > 0
            && depth >= se_depth()
            && self.stack[ply].excluded.is_none()
            && hit.depth >= depth - SE_TT_DEPTH_MARGIN
            && hit.bound != Bound::Upper
            && hit.score.abs() < TB_WIN_BOUND
            && ply < EXTENSION_PLY_FACTOR * self.root.depth as usize;
        let Some(mv) = hit.mv.filter(|_| applies).and_then(|t| legal_tt_move(pos, moves, t)) else {
            return ControlFlow::Continue(0);
        };
        let singular_beta = hit.score - se_margin() * depth;
        self.stack[ply].excluded = Some(mv);
        let score = self.negamax(pos, (depth - 1) / 2, ply, singular_beta - 1, singular_beta, false);
        self.stack[ply].excluded = None;
        // That search ran at this ply: its line must not pass for this node's.
        self.pv.clear(ply);
        if self.stopped {
            return ControlFlow::Break(0);
        }
        if score < singular_beta {
            let pv_node = beta - alpha > 1;
            let far = score < singular_beta - DOUBLE_EXTENSION_MARGIN;
            let room = self.stack[ply].double_extensions < DOUBLE_EXTENSION_MAX;
            ControlFlow::Continue(1 + i32::from(!pv_node && far && room))
        } else if singular_beta >= beta {
            ControlFlow::Break(singular_beta)
        } else {
            ControlFlow::Continue(-i32::from(hit.score >= beta))
        }
    }
}
