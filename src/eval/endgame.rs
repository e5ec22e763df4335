//! Endgame knowledge outside the tuned weights: game phase, scaling drawish material toward
//! zero, and driving a bare king to the edge (or the right corner) so the search finds the mate.

use shakmaty::{Bitboard, Board, ByRole, Color, Square};

/// Phase of the starting position: 4 minors, 4 rooks and 2 queens.
pub const PHASE_MAX: i32 = 24;

/// Endgame scale of an ordinary position; the endgame score is multiplied by scale / this.
pub const SCALE_NORMAL: i32 = 128;

/// Game phase from the pieces left: `PHASE_MAX` with all of them, 0 with kings and pawns only.
pub fn phase(board: &Board) -> i32 {
    let minors = (board.knights() | board.bishops()).count() as i32;
    let rooks = board.rooks().count() as i32;
    let queens = board.queens().count() as i32;
    (minors + 2 * rooks + 4 * queens).min(PHASE_MAX)
}

fn piece_points(m: &ByRole<u8>) -> i32 {
    3 * i32::from(m.knight + m.bishop) + 5 * i32::from(m.rook) + 9 * i32::from(m.queen)
}

/// How much of the score counts (out of `SCALE_NORMAL`), given the side the endgame score favours.
pub fn scale(board: &Board, strong: Color) -> i32 {
    if (board.pawns() & board.by_color(strong)).is_empty() {
        let (s, w) = (board.material_side(strong), board.material_side(!strong));
        let (sp, wp) = (piece_points(&s), piece_points(&w));
        // A lone minor or two knights cannot force mate.
        if sp <= 3 || (s.knight == 2 && sp == 6) {
            return 0;
        }
        // A minor piece's edge (rook against minor, rook and minor against rook) rarely wins.
        if sp - wp <= 3 {
            return SCALE_NORMAL / 8;
        }
    }
    // Opposite-coloured bishops and nothing else but pawns.
    let bishops = board.bishops();
    let others = board.knights() | board.rooks() | board.queens();
    if others.is_empty()
        && bishops.count() == 2
        && (bishops & board.white()).count() == 1
        && (bishops & Bitboard::LIGHT_SQUARES).count() == 1
    {
        return SCALE_NORMAL / 2;
    }
    SCALE_NORMAL
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
    fn phase_counts_pieces() {
        assert_eq!(phase(&Board::new()), PHASE_MAX);
        assert_eq!(phase(&board("4k3/pppp4/8/8/8/8/4PPPP/4K3 w - - 0 1")), 0);
        assert_eq!(phase(&board("3qk3/8/8/8/8/8/8/R3K3 w - - 0 1")), 6);
    }

    #[test]
    fn drawn_material_scales_to_zero() {
        assert_eq!(scale(&board("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1"), Color::White), 0);
        assert_eq!(scale(&board("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1"), Color::White), 0);
        assert_eq!(scale(&board("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), Color::White), 0);
        assert_eq!(scale(&board("4kb2/8/8/8/8/8/8/R3K3 w - - 0 1"), Color::White), SCALE_NORMAL / 8);
        assert_eq!(scale(&board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), Color::White), SCALE_NORMAL);
    }

    #[test]
    fn opposite_bishops_scale_down_same_bishops_do_not() {
        let opposite = board("4k1b1/5p2/8/8/8/8/1PP5/2B1K3 w - - 0 1");
        let same = board("4kb2/5p2/8/8/8/8/1PP5/2B1K3 w - - 0 1");
        assert_eq!(scale(&opposite, Color::White), SCALE_NORMAL / 2);
        assert_eq!(scale(&same, Color::White), SCALE_NORMAL);
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
}
