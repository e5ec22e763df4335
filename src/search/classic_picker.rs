//! The classic searches' move ordering: the whole list scored at once and handed out best
//! first (the previous iteration's PV move, the hash move, captures and promotions by
//! MVV-LVA, then the quiet moves in generation order). The strong search orders by stages,
//! with what it learns (`picker.rs`).

use super::ordering::mvv_lva;
use crate::tt::PackedMove;
use shakmaty::{Move, MoveList};

/// Score given to the PV move so it is always searched first.
const PV_SCORE: i32 = 1_000_000;

/// Score of the hash move, searched right after the PV move.
const TT_SCORE: i32 = PV_SCORE - 1;

/// A move list with ordering scores, handing out the best remaining move first.
/// It borrows the list (and reorders it in place) rather than copying it.
pub struct ClassicPicker<'a> {
    moves: &'a mut MoveList,
    scores: [i32; 256],
    next: usize,
}

impl<'a> ClassicPicker<'a> {
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
        ClassicPicker { moves, scores, next: 0 }
    }
}

impl Iterator for ClassicPicker<'_> {
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
        let order: Vec<Move> = ClassicPicker::new(&mut p.legal_moves(), Some(pv), None).collect();
        assert_eq!(order[0], pv);
        assert_eq!(order[1], mv(&p, "e4d5"), "pawn takes queen");
        assert_eq!(order[2], mv(&p, "c3d5"), "knight takes queen");
        assert_eq!(order[3], mv(&p, "e4f5"), "pawn takes rook");
        assert!(order[4..].iter().all(|m| !m.is_capture()));
    }

    #[test]
    fn without_pv_move_captures_lead() {
        let p = pos("4k3/8/8/3q1r2/4P3/2N5/8/4K3 w - - 0 1");
        let order: Vec<Move> = ClassicPicker::new(&mut p.legal_moves(), None, None).collect();
        assert_eq!(order[0], mv(&p, "e4d5"));
        assert!(order[..3].iter().all(|m| m.is_capture()));
        assert!(!order[3].is_capture());
    }
}
