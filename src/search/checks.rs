//! Whether a move gives check, without making it: the search decides to prune a move
//! before paying for the copy-make.

use super::movegen::pinned;
use shakmaty::{Bitboard, CastlingSide, Chess, Move, Position, Role, Square, attacks};

/// Our pieces by role after a move, and the occupancy after it.
struct After {
    roles: [Bitboard; 6],
    occupied: Bitboard,
}

impl After {
    /// Moves our piece of `role` from `from` to `to` as `to_role` (a promotion changes it).
    fn shift(&mut self, role: Role, from: Square, to: Square, to_role: Role) {
        self.roles[role as usize - 1].discard(from);
        self.roles[to_role as usize - 1].add(to);
        self.occupied.discard(from);
        self.occupied.add(to);
    }

    fn of(&self, role: Role) -> Bitboard {
        self.roles[role as usize - 1]
    }
}

/// What a move of the side to move must do to check the opponent's king, found once for
/// a node so each of its moves is judged by a lookup or two.
pub struct CheckSquares {
    /// The opponent's king (none in positions without one: no move checks there).
    king: Option<Square>,
    /// Squares from which our piece of each role (pawn .. king) would attack that king.
    by_role: [Bitboard; 6],
    /// Our pieces that alone stand between one of our sliders and that king.
    discoverers: Bitboard,
}

impl CheckSquares {
    /// The check squares of `pos`'s side to move.
    pub fn new(pos: &Chess) -> Self {
        let board = pos.board();
        let us = pos.turn();
        let Some(king) = board.king_of(!us) else {
            return CheckSquares { king: None, by_role: [Bitboard::EMPTY; 6], discoverers: Bitboard::EMPTY };
        };
        let occupied = board.occupied();
        let (diagonal, straight) =
            (attacks::bishop_attacks(king, occupied), attacks::rook_attacks(king, occupied));
        let by_role = [
            attacks::pawn_attacks(!us, king),
            attacks::knight_attacks(king),
            diagonal,
            straight,
            diagonal | straight,
            Bitboard::EMPTY,
        ];
        // Our pieces that our sliders pin to the enemy king.
        let discoverers = pinned(board, pos.us(), king) & pos.us();
        CheckSquares { king: Some(king), by_role, discoverers }
    }

    /// True when `mv`, legal in `pos` (the position these squares are of), gives check: a
    /// plain move by the lookups, promotions, en passant and castling as [`gives_check`].
    #[inline]
    pub fn gives_check(&self, pos: &Chess, mv: Move) -> bool {
        match (mv, self.king) {
            (Move::Normal { role, from, to, promotion: None, .. }, Some(king)) => {
                self.by_role[role as usize - 1].contains(to)
                    || (self.discoverers.contains(from) && !attacks::aligned(from, to, king))
            }
            (_, None) => false,
            _ => gives_check(pos, mv),
        }
    }
}

/// True when `mv`, legal in `pos`, leaves the opponent's king attacked.
pub fn gives_check(pos: &Chess, mv: Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let ours = board.by_color(us);
    let mut after = After { roles: Role::ALL.map(|r| board.by_role(r) & ours), occupied: board.occupied() };
    match mv {
        Move::Normal { role, from, to, promotion, .. } => {
            after.shift(role, from, to, promotion.unwrap_or(role))
        }
        Move::EnPassant { from, to } => {
            after.shift(Role::Pawn, from, to, Role::Pawn);
            after.occupied.discard(Square::from_coords(to.file(), from.rank()));
        }
        Move::Castle { king: king_from, rook } => {
            let side = CastlingSide::from_queen_side(rook < king_from);
            let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
            after.occupied = after.occupied.without(king_from).without(rook).with(king_to).with(rook_to);
            after.roles[Role::Rook as usize - 1] = after.of(Role::Rook).without(rook).with(rook_to);
        }
        Move::Put { .. } => return false,
    }
    let occupied = after.occupied;
    let diagonal = after.of(Role::Bishop) | after.of(Role::Queen);
    let straight = after.of(Role::Rook) | after.of(Role::Queen);
    (attacks::pawn_attacks(!us, king) & after.of(Role::Pawn)).any()
        || (attacks::knight_attacks(king) & after.of(Role::Knight)).any()
        || (attacks::bishop_attacks(king, occupied) & diagonal).any()
        || (attacks::rook_attacks(king, occupied) & straight).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use shakmaty::{CastlingMode, fen::Fen};

    fn assert_agrees(pos: &Chess) {
        let squares = CheckSquares::new(pos);
        for mv in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let fen = Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
            assert_eq!(gives_check(pos, mv), child.is_check(), "{mv:?} in {fen}");
            assert_eq!(squares.gives_check(pos, mv), child.is_check(), "{mv:?} in {fen} (check squares)");
        }
    }

    #[test]
    fn agrees_with_making_the_move() {
        let fens = [
            // Discovered checks, promotions with check, an en passant capture that uncovers a rook.
            "4k3/8/8/8/8/8/4B3/4R1K1 w - - 0 1",
            "3k4/1P6/8/8/8/8/8/6K1 w - - 0 1",
            "8/8/8/1k1pP2R/8/8/8/6K1 w - d6 0 1",
            "8/8/8/K2pP2q/8/8/8/6k1 w - d6 0 1",
            // A knight, a king and a bishop uncovering checks; a pawn pushed along the line does not.
            "4k3/8/8/4N3/8/8/8/K3R3 w - - 0 1",
            "7k/8/8/8/3K4/8/8/B7 w - - 0 1",
            "4k3/8/8/8/8/4P3/8/4R1K1 w - - 0 1",
            "k7/8/8/8/B7/8/8/R5K1 w - - 0 1",
            // A promotion that checks through the square the pawn leaves.
            "8/P7/8/k7/8/8/8/6K1 w - - 0 1",
            // Castling that checks with the rook.
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
        ];
        for fen in fens {
            assert_agrees(&fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap());
        }
        // Chess960: the king lands where the rook stood, and the rook checks along the rank.
        for fen in ["5k2/8/8/8/8/8/8/4K1R1 w G - 0 1", "8/8/8/8/8/8/8/1RK2k2 w B - 0 1"] {
            assert_agrees(&fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap());
        }
    }

    #[test]
    fn agrees_along_random_games() {
        let mut rng = Rng::new(2026);
        for _ in 0..200 {
            let mut pos = Chess::default();
            for _ in 0..80 {
                assert_agrees(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
    }
}
