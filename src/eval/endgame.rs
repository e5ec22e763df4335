//! Endgame knowledge in place of the network: against a bare king, the score is the
//! material plus a bonus that drives the king to the edge (or to the right corner against
//! bishop and knight) and the winning king toward it, so the search finds the mate.
//! Self-play rarely reaches these endings, and the network's score there is too uneven
//! from square to square to lead the search to the mate.

use shakmaty::{Bitboard, Board, Color, Position, Role, Square};

/// Material of the winning side, in centipawns, by role (pawn .. king).
const MATERIAL: [i32; 6] = [100, 300, 300, 500, 900, 0];

/// The score of `pos` from the side to move's point of view when one side has only its
/// king and the other mating material without pawns (0 when neither can mate); `None` otherwise.
#[inline]
pub fn mop_up_score(pos: &impl Position) -> Option<i32> {
    let board = pos.board();
    // Nearly every position has more than a king on each side: one test settles it.
    if board.white().more_than_one() && board.black().more_than_one() {
        return None;
    }
    // A bare king against a king, a knight or a bishop: no mate is possible, the score is a draw.
    if pos.is_insufficient_material() {
        return Some(0);
    }
    [Color::White, Color::Black].into_iter().find_map(|winner| {
        let bonus = mop_up(board, winner)?;
        let material: i32 = Role::ALL
            .iter()
            .map(|&role| {
                MATERIAL[role as usize - 1] * (board.by_role(role) & board.by_color(winner)).count() as i32
            })
            .sum();
        let score = material + bonus;
        Some(if winner == pos.turn() { score } else { -score })
    })
}

/// Bonus (from `winner`'s side) that drives a bare king to the edge and the winning king toward it,
/// when `winner` has mating material and no pawns; `None` in every other position.
pub fn mop_up(board: &Board, winner: Color) -> Option<i32> {
    if (board.by_color(!winner) & !board.kings()).any() || (board.pawns() & board.by_color(winner)).any() {
        return None;
    }
    let s = board.material_side(winner);
    let bishop_knight = s.bishop == 1 && s.knight == 1 && s.rook == 0 && s.queen == 0;
    let mating = s.queen > 0 || s.rook > 0 || s.bishop >= 2 || bishop_knight;
    if !mating {
        return None;
    }
    let (strong_king, weak_king) = (board.king_of(winner)?, board.king_of(!winner)?);
    let closeness = 7 - strong_king.distance(weak_king) as i32;
    let drive = if bishop_knight {
        let light = (board.bishops() & board.by_color(winner) & Bitboard::LIGHT_SQUARES).any();
        let corners: [Square; 2] = if light { [Square::H1, Square::A8] } else { [Square::A1, Square::H8] };
        let corner = corners.iter().map(|&c| c.distance(weak_king)).min().unwrap_or(0) as i32;
        40 * (7 - corner)
    } else {
        40 * centre_distance(weak_king)
    };
    Some(200 + drive + 10 * closeness)
}

/// Manhattan distance of `sq` from the four centre squares (0..6).
fn centre_distance(sq: Square) -> i32 {
    let (file, rank) = ((sq.to_usize() % 8) as i32, (sq.to_usize() / 8) as i32);
    (3 - file).max(file - 4) + (3 - rank).max(rank - 4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn mop_up_prefers_the_bare_king_on_the_edge() {
        let centre = mop_up(&board("8/8/8/3k4/8/8/8/KQ6 w - - 0 1"), Color::White).unwrap();
        let edge = mop_up(&board("3k4/8/8/8/8/8/8/KQ6 w - - 0 1"), Color::White).unwrap();
        assert!(edge > centre);
        assert_eq!(mop_up(&board("3k4/8/8/8/8/8/P7/KQ6 w - - 0 1"), Color::White), None);
    }

    #[test]
    fn bishop_and_knight_drive_to_the_bishops_corner() {
        // Light-squared bishop (f1): the right corners are h1 and a8.
        let right = mop_up(&board("k7/8/8/8/8/8/8/4KBN1 w - - 0 1"), Color::White).unwrap();
        let wrong = mop_up(&board("7k/8/8/8/8/8/8/4KBN1 w - - 0 1"), Color::White).unwrap();
        assert!(right > wrong);
    }

    #[test]
    fn a_bare_king_against_a_minor_piece_is_a_draw() {
        for fen in
            ["8/8/8/3k4/8/8/8/KN6 w - - 0 1", "8/8/8/3k4/8/8/8/KB6 b - - 0 1", "8/8/8/3k4/8/8/8/K7 w - - 0 1"]
        {
            let pos: shakmaty::Chess =
                fen.parse::<Fen>().unwrap().into_position(shakmaty::CastlingMode::Standard).unwrap();
            assert_eq!(mop_up_score(&pos), Some(0), "{fen}");
        }
    }
}
