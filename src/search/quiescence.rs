//! The quiescence search below the horizon: captures until the position is quiet.

use super::Searcher;
use super::correction::CorrectionKeys;
use super::movegen::add_evasions;
use super::picker::{StagedPicker, legal_tt_move};
use crate::score::{DRAW, INFINITY, MATE, MAX_PLY};
use crate::tt::{Bound, TtRecord};
use shakmaty::{Chess, MoveList, Position};

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
        // A capture can leave a dead position: a draw, whatever the evaluation says.
        if pos.is_insufficient_material() {
            return DRAW;
        }

        // 2. Hash table: a stored bound that settles the window ends the node (quiescence
        //    keeps no PV, so any node may take it); its static evaluation saves evaluating.
        let key = self.stack.key(ply);
        let tt_hit = self.tt.probe(key, ply, pos.halfmoves());
        if let Some(hit) = tt_hit
            && hit.settles(alpha, beta)
        {
            return hit.score;
        }

        // 3. Stand pat: out of check, the side to move may decline every capture (at the
        //    static evaluation as corrected; the table keeps the network's).
        let in_check = pos.is_check();
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut raw_eval = -INFINITY;
        if !in_check {
            raw_eval = match tt_hit {
                Some(hit) if hit.eval > -INFINITY => hit.eval,
                _ => self.evaluate(pos, ply),
            };
            best = self.correction.correct(raw_eval, pos.turn(), &CorrectionKeys::of(pos));
            if best >= beta {
                if tt_hit.is_none() {
                    self.tt.store(
                        key,
                        ply,
                        TtRecord { mv: None, score: best, eval: raw_eval, depth: 0, bound: Bound::Lower },
                    );
                }
                return best;
            }
            alpha = alpha.max(best);
        }

        // 4. In check every evasion is searched (none: mate), ordered as the main search
        //    orders moves; otherwise the captures and queen promotions that do not lose
        //    material by SEE, the hash move first, the others by MVV-LVA and capture history.
        let mut all = None;
        if in_check {
            add_evasions(pos, all.insert(MoveList::new()));
        }
        if all.as_ref().is_some_and(MoveList::is_empty) {
            return -MATE + ply as i32;
        }
        let tt_move = tt_hit.and_then(|hit| hit.mv).and_then(|t| legal_tt_move(pos, all.as_ref(), t));
        let mut picker = match &all {
            Some(all) => {
                StagedPicker::new(pos, Some(all), None, tt_move, [None; 2], self.continuation_rows(ply))
            }
            None => StagedPicker::captures(pos, tt_move),
        };
        let mut best_move = None;
        while let Some(mv) = picker.next(&self.history) {
            let child = self.play(pos, ply, mv);
            let score = -self.quiescence(&child, ply + 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }

        // 5. Remember the result at depth 0 (below every search of the main tree).
        let bound = Bound::of(best, alpha_before, beta);
        self.tt.store(key, ply, TtRecord { mv: best_move, score: best, eval: raw_eval, depth: 0, bound });
        best
    }
}
