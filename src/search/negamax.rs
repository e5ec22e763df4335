//! Negamax with alpha-beta and PVS: one node's steps, in order. The whole-node pruning and
//! the move pruning are in `prune.rs`, the singular extension in `singular.rs`.

use super::Searcher;
use super::checks::CheckSquares;
use super::correction::CorrectionKeys;
use super::lmr::PLY as LMR_PLY;
use super::movegen::{add_evasions, surely_has_move};
use super::ordering::{is_quiet, keeps_material};
use super::params::*;
use super::picker::{StagedPicker, legal_tt_move};
use crate::score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, TB_WIN_BOUND};
use crate::tt::{Bound, TtRecord};
use shakmaty::{Chess, MoveList, Position};
use std::ops::ControlFlow;

/// A node's arguments besides its position, as the helpers of its steps take them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// Plies left to the horizon.
    pub depth: i32,
    /// Distance from the root.
    pub ply: usize,
    /// The window's lower bound.
    pub alpha: i32,
    /// The window's upper bound.
    pub beta: i32,
    /// True while the node lies on the previous iteration's PV (read when a `stats` build
    /// searches the node again).
    #[cfg_attr(not(feature = "stats"), allow(dead_code))]
    pub on_pv: bool,
}

/// How one child is searched (`search_move`).
#[derive(Clone, Copy, Debug)]
struct Child {
    /// The parent's depth with the move's extension; the child searches a ply less.
    depth: i32,
    /// Plies LMR takes off the first, null-window search.
    reduction: i32,
    /// The move's place in the order: the first is searched with the full window.
    index: usize,
    /// True when the move continues the previous iteration's PV.
    on_pv: bool,
}

impl Searcher {
    /// Scores `pos`, the position at `ply`, to `depth` plies inside the window
    /// `(alpha, beta)`. `on_pv` is true while the node lies on the previous iteration's PV.
    pub(super) fn negamax(
        &mut self,
        pos: &Chess,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        on_pv: bool,
    ) -> i32 {
        // 1. At the horizon, resolve captures before trusting the evaluation.
        if depth <= 0 {
            return self.quiescence(pos, ply, alpha, beta);
        }

        // 2. Count the node, empty its PV row, poll the clock and the stop flag. The
        //    children's killers start empty: they are shared by this node's children alone.
        if self.enter_node(ply) {
            return 0;
        }
        self.stack[ply + 1].killers = [None; 2];

        // 3. Repetitions and dead positions are draws at any node below the root; a node at
        //    the horizon goes to quiescence first, which leaves repetitions out (search.md).
        if ply > 0 && (self.is_repetition(ply, pos.halfmoves()) || pos.is_insufficient_material()) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // 3b. The fifty-move rule, before the hash table can answer: the key leaves out the
        //     halfmove clock, so an entry from the same position with fewer halfmoves would
        //     score a draw as a win. A mate on the hundredth halfmove still counts.
        if ply > 0 && pos.halfmoves() >= 100 && !(pos.is_check() && pos.legal_moves().is_empty()) {
            return DRAW;
        }

        // 4. Mate distance pruning: no line from here beats a mate already found nearer the root.
        if ply > 0 {
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // 5. Hash table: a deep enough result ends a non-PV node at once (PV nodes are
        //    searched in full so the triangular PV keeps its tail); its move is tried early.
        //    A search that leaves a move out (singular extension) shares the key but not the
        //    result, so it neither takes a cutoff nor stores one.
        let key = self.stack.key(ply);
        let pv_node = beta - alpha > 1;
        let excluded = self.stack[ply].excluded;
        let tt_hit = self.tt.probe(key, ply, pos.halfmoves());
        if let Some(hit) = tt_hit
            && !pv_node
            && excluded.is_none()
            && hit.depth >= depth
            && hit.settles(alpha, beta)
        {
            return hit.score;
        }

        // 6. No legal move: checkmate (scored by distance, so shorter mates win) or stalemate.
        //    Out of check only stalemate is possible: pruning below rules it out more cheaply,
        //    so the moves are generated only for the nodes it lets through.
        let in_check = pos.is_check();
        let mut moves = None;
        if ply == 0 {
            moves = Some(self.root_moves(pos));
        } else if in_check {
            add_evasions(pos, moves.insert(MoveList::new()));
        }
        if moves.as_ref().is_some_and(MoveList::is_empty) {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }

        // 6b. Tablebases (`tb_search.rs`): right after a capture or pawn move with few enough
        //     pieces, the WDL tables know the outcome.
        if ply > 0
            && let Some(score) = self.probe_tablebases(pos, depth, ply)
        {
            return score;
        }

        // 7. Internal iterative reduction: a node with no hash move was never searched or
        //    its move is unknown; search it a ply shallower and let the next iteration fix it.
        let tt_move = tt_hit.and_then(|hit| hit.mv);
        let pv_move = self.pv_move(ply, on_pv);
        if depth >= iir_depth() && tt_move.is_none() && pv_move.is_none() {
            depth -= 1;
        }

        // 8. The static evaluation (the network's, as the hash table keeps it, corrected
        //    by the correction history), and whether it beats this side's last turn's.
        let color = pos.turn();
        let keys = if in_check { CorrectionKeys::default() } else { CorrectionKeys::of(pos) };
        let raw_eval = match tt_hit {
            _ if in_check => -INFINITY,
            Some(hit) => hit.eval,
            None => self.evaluate(pos, ply),
        };
        let static_eval =
            if raw_eval == -INFINITY { raw_eval } else { self.correction.correct(raw_eval, color, &keys) };
        self.stack[ply].static_eval = static_eval;
        let improving = self.stack.improving(ply);
        // A hash score bounding the evaluation from the side it errs on is a better guess
        // of this node's worth; the pruning steps below go by it.
        let eval = match tt_hit {
            Some(hit)
                if static_eval > -INFINITY && hit.score.abs() < TB_WIN_BOUND && hit.refines(static_eval) =>
            {
                hit.score
            }
            _ => static_eval,
        };

        // 9. Whole-node pruning (`prune.rs`) at a non-PV node, not in check, that searches
        //    every move: reverse futility, razoring and null move.
        let node = Node { depth, ply, alpha, beta, on_pv };
        stat!(self, Node, depth);
        if !pv_node
            && !in_check
            && excluded.is_none()
            && !self.verifying_at(ply)
            && let Some(score) = self.prune_node(pos, &mut moves, node, key, eval)
        {
            return score;
        }

        // 10. Singular extension (`singular.rs`): how much deeper the hash move is searched,
        //     or a multi-cut's fail high.
        let singular = match self.singular_extension(pos, moves.as_ref(), tt_hit, node) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(extension) => extension,
        };

        // 11. Order (`picker.rs`): the previous iteration's PV move first, the hash move,
        //     captures by MVV-LVA and capture history, killers and quiet moves by history
        //     (both learnt as it goes), the captures that lose material by SEE last; each
        //     stage generated only when the search reaches it.
        let alpha_before = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let rows = self.continuation_rows(ply);
        let tt_legal = tt_move.and_then(|t| legal_tt_move(pos, moves.as_ref(), t));
        let killers = self.stack[ply].killers;
        let mut picker = StagedPicker::new(pos, moves.as_ref(), pv_move, tt_legal, killers, rows);
        let check_squares = CheckSquares::new(pos);
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        while let Some(mv) = picker.next(&self.history) {
            let index = picker.handed_out() - 1;
            if Some(mv) == excluded {
                continue;
            }
            if ply == 0 {
                self.root_move_begins(mv, index);
            }
            let gives_check = check_squares.gives_check(pos, mv);
            let quiet = is_quiet(mv);

            // 12. Late move reductions: quiet moves late in a well-ordered list rarely matter,
            //     so they are searched shallower first (and again in full if they beat alpha);
            //     a move with a good history less so, one with a bad history more.
            let reduction = if depth >= LMR_DEPTH && !in_check && quiet && !gives_check {
                let history = self.history.quiet_score(color, mv, picker.quiet_context());
                let adjust = history * LMR_PLY / lmr_history_divisor();
                self.lmr.reduction(depth, index, pv_node, adjust)
            } else {
                0
            };

            // 13. Near the horizon at non-PV nodes, once a move has been searched, skip moves
            //     that cannot matter: quiet moves beyond a count that grows with depth, halved
            //     when not improving (late move pruning), quiet moves that leave the evaluation
            //     far below alpha at the depth LMR would search them (futility), moves that
            //     lose material by SEE (`prune.rs`). Checks are kept; the move is not made
            //     until it is known to be searched.
            if !pv_node && !in_check && !gives_check && best > -MATE_BOUND && depth <= prune_depth() {
                let late = quiet
                    && quiets_tried.len() as i32 >= (lmp_base() + depth * depth) / (2 - i32::from(improving));
                if late {
                    picker.stop_ordering_quiets();
                    stat!(self, LmpSkip, depth);
                    continue;
                }
                let lmr_depth = depth - reduction;
                let futility = eval + futility_base() + futility_margin() * lmr_depth;
                if quiet && futility <= alpha {
                    // What the skipped move could reach bounds the node's fail low from below.
                    if best < futility && futility.abs() < TB_WIN_BOUND {
                        best = futility;
                    }
                    stat!(self, FutilitySkip, depth);
                    continue;
                }
                if self.loses_by_see(pos, mv, quiet, depth, lmr_depth) {
                    continue;
                }
            }
            let nodes_before = self.counts.nodes;
            let child = self.play(pos, ply, mv);

            // 14. Search the move (PVS, LMR's reduction first), the hash move as step 10
            //     found, others a ply deeper when they give check far enough from the
            //     horizon (checks are forcing and often hide tactics).
            let extension = if singular != 0 && tt_move.is_some_and(|t| t.matches(mv)) {
                singular
            } else {
                i32::from(
                    gives_check
                        && depth >= CHECK_EXTENSION_DEPTH
                        && ply < EXTENSION_PLY_FACTOR * self.root.depth as usize,
                )
            };
            if extension >= 2 {
                self.stack[ply + 1].double_extensions += 1;
            }
            let plan = Child { depth: depth + extension, reduction, index, on_pv: pv_move == Some(mv) };
            let score = self.search_move(&child, ply, alpha, beta, plan);
            if ply == 0 {
                self.root_move_ends(mv, nodes_before);
            }
            if self.stopped {
                return 0;
            }

            // 15. A new best move: raise alpha, store the line, cut off on a fail high
            //     (a quiet move that cuts off becomes a killer and gains history, a capture
            //     capture history; the moves tried before it lose some).
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.new_pv_move(ply, mv, score, index);
                    if score >= beta {
                        if quiet {
                            self.stack.add_killer(ply, mv);
                            let context = picker.quiet_context();
                            self.history.on_quiet_cutoff(color, depth, mv, &quiets_tried, context);
                        } else {
                            self.history.on_capture_cutoff(color, depth, mv, &captures_tried);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            } else {
                captures_tried.push(mv);
            }
        }

        // No legal move (out of check, as step 6 found every mate): stalemate.
        if picker.handed_out() == 0 {
            return DRAW;
        }

        // 16. Remember the result: exact inside the window, else the bound it proved (a
        //     fail low names no move: its best is noise, and the hash move found before
        //     stays); and how far the static evaluation was off, where the bound says (a
        //     best move that keeps the material: a capture's gain is no error of the
        //     evaluation).
        if excluded.is_none() {
            let bound = Bound::of(best, alpha_before, beta);
            let mv = best_move.filter(|_| bound != Bound::Upper);
            self.tt.store(key, ply, TtRecord { mv, score: best, eval: raw_eval, depth, bound });
            if !in_check
                && best_move.is_none_or(keeps_material)
                && best.abs() < TB_WIN_BOUND
                && bound.refines(best, static_eval)
            {
                self.correction.update(color, &keys, depth, best - static_eval);
            }
        }
        best
    }

    /// Searches one child: the first move with the full window; later ones with a null
    /// window, first `reduction` plies shallower and then at full depth if that beats alpha,
    /// and searched again with the full window when they fail high inside it (PVS).
    fn search_move(&mut self, child: &Chess, ply: usize, alpha: i32, beta: i32, plan: Child) -> i32 {
        let (d, p, on_pv) = (plan.depth - 1, ply + 1, plan.on_pv);
        if plan.index == 0 {
            return -self.negamax(child, d, p, -beta, -alpha, on_pv);
        }
        let mut score = -self.negamax(child, d - plan.reduction, p, -alpha - 1, -alpha, on_pv);
        if plan.reduction > 0 && score > alpha && !self.stopped {
            score = -self.negamax(child, d, p, -alpha - 1, -alpha, on_pv);
        }
        if score > alpha && score < beta && !self.stopped {
            self.stats.researches += 1;
            score = -self.negamax(child, d, p, -beta, -alpha, on_pv);
        }
        score
    }
}

/// True when `pos`, not in check, has no legal move. The moves are generated (and kept
/// in `moves`) only when a piece free to move is not found first.
pub(super) fn stalemate(pos: &Chess, moves: &mut Option<MoveList>) -> bool {
    if moves.is_none() && surely_has_move(pos) {
        return false;
    }
    moves.get_or_insert_with(|| pos.legal_moves()).is_empty()
}
