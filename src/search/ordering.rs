//! Move ordering for the classic searches: the previous iteration's PV move first, the
//! hash move, captures and promotions by MVV-LVA (most valuable victim, least valuable
//! attacker), then the quiet moves. Moves are picked lazily, best first. The strong search
//! orders by stages, with what it learns (`picker.rs`).

use super::params::MVV_LVA_VALUE;
use crate::tt::PackedMove;
use shakmaty::{Move, MoveList, Role};

/// Score given to the PV move so it is always searched first.
const PV_SCORE: i32 = 1_000_000;

/// Score of the hash move, searched right after the PV move.
const TT_SCORE: i32 = PV_SCORE - 1;

/// Score of captures and promotions above every quiet move.
const CAPTURE_BASE: i32 = 100_000;

/// True for a move that neither captures nor promotes.
pub fn is_quiet(mv: Move) -> bool {
    !mv.is_capture() && mv.promotion().is_none()
}

fn value(role: Role) -> i32 {
    MVV_LVA_VALUE[role as usize - 1]
}

/// MVV-LVA score of a capture or promotion, 0 for a quiet move.
pub fn mvv_lva(mv: Move) -> i32 {
    let victim = mv.capture().map_or(0, value);
    let promotion = mv.promotion().map_or(0, value);
    if victim == 0 && promotion == 0 {
        return 0;
    }
    CAPTURE_BASE + (victim + promotion) * 100 - value(mv.role())
}

/// A move list with ordering scores, handing out the best remaining move first.
/// It borrows the list (and reorders it in place) rather than copying it.
pub struct MovePicker<'a> {
    moves: &'a mut MoveList,
    scores: [i32; 256],
    next: usize,
}

impl<'a> MovePicker<'a> {
    /// Scores `moves`: `pv_move` first, then the hash move, then captures and promotions by
    /// MVV-LVA, then the quiet moves in the order they were generated.
    pub fn new(moves: &'a mut MoveList, pv_move: Option<Move>, tt_move: Option<PackedMove>) -> Self {
        let mut scores = [0; 256];
        for (score, &mv) in scores.iter_mut().zip(moves.iter()) {
            *score = if Some(mv) == pv_move {
                PV_SCORE
            } else if tt_move.is_some_and(|t| t.matches(mv)) {
                TT_SCORE
            } else {
                mvv_lva(mv)
            };
        }
        MovePicker { moves, scores, next: 0 }
    }
}

impl Iterator for MovePicker<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        // The first of the highest scores; a slice and a running maximum keep the scan tight.
        let mut best = self.next;
        let mut best_score = self.scores[best];
        for (i, &score) in self.scores[..n].iter().enumerate().skip(self.next + 1) {
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn mv(p: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>().unwrap().to_move(p).unwrap()
    }

    #[test]
    fn pv_move_comes_first_then_captures_by_mvv_lva() {
        // Pawn or knight can take the queen, the pawn can take the rook.
        let p = pos("4k3/8/8/3q1r2/4P3/2N5/8/4K3 w - - 0 1");
        let pv = mv(&p, "e1e2");
        let order: Vec<Move> = MovePicker::new(&mut p.legal_moves(), Some(pv), None).collect();
        assert_eq!(order[0], pv);
        assert_eq!(order[1], mv(&p, "e4d5"), "pawn takes queen");
        assert_eq!(order[2], mv(&p, "c3d5"), "knight takes queen");
        assert_eq!(order[3], mv(&p, "e4f5"), "pawn takes rook");
        assert!(order[4..].iter().all(|m| !m.is_capture()));
    }

    #[test]
    fn without_pv_move_captures_lead() {
        let p = pos("4k3/8/8/3q1r2/4P3/2N5/8/4K3 w - - 0 1");
        let order: Vec<Move> = MovePicker::new(&mut p.legal_moves(), None, None).collect();
        assert_eq!(order[0], mv(&p, "e4d5"));
        assert!(order[..3].iter().all(|m| m.is_capture()));
        assert!(!order[3].is_capture());
    }
}
