//! The classic algorithms as the textbooks write them: minimax, alpha-beta and principal
//! variation search (PVS), each collecting the principal variation in the triangular
//! table and, with `PVFirst`, searching the previous iteration's PV first along its path.
//!
//! They search the bare tree: no hash table, no pruning, no reductions, no extensions, no
//! learnt ordering (the PV move, then captures by MVV-LVA); Syzygy tables, where loaded,
//! end a line as they do for the strong search. They share with the strong
//! search only the board and the network (`play`, `evaluate`), the PV table and the node
//! counter (`enter_node`), so `compare` can measure what each classic idea saves.
//! `SearchMode` picks one; iterative deepening drives them as it drives the strong search.

use super::movegen::noisy_moves;
use super::{ClassicPicker, SearchMode, Searcher};
use crate::score::{DRAW, INFINITY, MATE, MAX_PLY};
use shakmaty::{Chess, Position};

impl Searcher {
    /// Scores `pos`, the position at `ply`, to `depth` plies with the classic algorithm
    /// `SearchMode` names, inside the window `(alpha, beta)`. `on_pv` is true while the
    /// node lies on the previous iteration's PV.
    pub(super) fn classic(
        &mut self,
        pos: &Chess,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        on_pv: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.classic_quiescence(pos, ply, alpha, beta);
        }
        if self.enter_node(ply) {
            return 0;
        }
        if ply > 0 && (self.is_repetition(ply, pos.halfmoves()) || pos.is_insufficient_material()) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        let mut moves = if ply == 0 { self.root_moves(pos) } else { pos.legal_moves() };
        if moves.is_empty() {
            return if pos.is_check() { -MATE + ply as i32 } else { DRAW };
        }
        // Syzygy tables, where they are loaded, know the outcome (`tb_search.rs`).
        if ply > 0
            && let Some(score) = self.probe_tablebases(pos, depth, ply)
        {
            return score;
        }
        if ply > 0 && pos.halfmoves() >= 100 {
            return DRAW;
        }

        let pv_move = self.pv_move(ply, on_pv);
        let mut best = -INFINITY;
        for (index, mv) in ClassicPicker::new(&mut moves, pv_move, None).enumerate() {
            if ply == 0 {
                self.root_move_begins(mv, index);
            }
            let child = self.play(pos, ply, mv);
            let child_on_pv = pv_move == Some(mv);
            let (d, p) = (depth - 1, ply + 1);
            let score = match self.config.mode {
                // Minimax: every move with the full window, so nothing is ever cut off.
                SearchMode::Minimax => -self.classic(&child, d, p, -INFINITY, INFINITY, child_on_pv),
                // PVS: after the first move, a null window proves a move no better than
                // alpha; one that fails high inside the window is searched again in full.
                SearchMode::Pvs if index > 0 => {
                    let score = -self.classic(&child, d, p, -alpha - 1, -alpha, child_on_pv);
                    if score > alpha && score < beta && !self.stopped {
                        self.stats.researches += 1;
                        -self.classic(&child, d, p, -beta, -alpha, child_on_pv)
                    } else {
                        score
                    }
                }
                // Alpha-beta, and the first move of PVS: the window passed down.
                _ => -self.classic(&child, d, p, -beta, -alpha, child_on_pv),
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.new_pv_move(ply, mv, score, index);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Plain alpha-beta over captures and queen promotions (every evasion in check) below
    /// the horizon, with the static evaluation as the score of declining them. The
    /// classic algorithms share it: minimax over every capture sequence explodes, and its
    /// value is the same.
    fn classic_quiescence(&mut self, pos: &Chess, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if self.enter_node(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        let in_check = pos.is_check();
        let mut best = -INFINITY;
        if !in_check {
            best = self.evaluate(pos, ply);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = if in_check { pos.legal_moves() } else { noisy_moves(pos) };
        if in_check && moves.is_empty() {
            return -MATE + ply as i32;
        }
        for mv in ClassicPicker::new(&mut moves, None, None) {
            let child = self.play(pos, ply, mv);
            let score = -self.classic_quiescence(&child, ply + 1, -beta, -alpha);
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
