//! The quiescence search below the horizon: captures until the position is quiet.

use super::movegen::noisy_moves;
use super::see::see_ge;
use super::{MovePicker, SearchMode, Searcher};
use crate::score::{INFINITY, MATE, MAX_PLY};
use shakmaty::{Chess, Position};

impl Searcher {
    /// Searches captures and queen promotions of `pos`, the position at `ply` (every
    /// evasion when in check), until the position is quiet.
    pub(super) fn quiescence(&mut self, pos: &Chess, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        // 1. Count the node; quiescence adds nothing to the PV.
        if self.enter_node(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }

        // 2. Stand pat: out of check, the side to move may decline every capture.
        let in_check = pos.is_check();
        let mut best = -INFINITY;
        if !in_check {
            best = self.evaluate(pos, ply);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }

        // 3. In check every evasion is searched (none: mate); otherwise captures and queen promotions.
        let mut moves = if in_check { pos.legal_moves() } else { noisy_moves(pos) };
        if in_check && moves.is_empty() {
            return -MATE + ply as i32;
        }

        // 4. Best capture first; the strong search skips captures that lose material by SEE.
        //    The classic modes share the plain alpha-beta version of this quiescence: a
        //    minimax over all capture sequences explodes, and its value is the same.
        let prune = !in_check && self.config.mode == SearchMode::Strong;
        let mut picker = MovePicker::new(&mut moves, None, None);
        for mv in &mut picker {
            if prune && !see_ge(pos, mv, 0) {
                continue;
            }
            let child = self.play(pos, ply, mv);
            let score = -self.quiescence(&child, ply + 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}
