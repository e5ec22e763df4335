//! The network's inputs: which (own or enemy, role, square) each piece is from each side's
//! point of view, in which king bucket, and which inputs a move turns on and off.

use shakmaty::{Board, Color, File, Move, Piece, Rank, Role, Square};

/// The input of `piece` on `square` seen from `perspective`: own pieces first, Black's
/// board flipped so each side sees itself at the bottom.
#[inline]
pub fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    let (side, square) = match perspective {
        Color::White => (usize::from(piece.color != Color::White), square as usize),
        Color::Black => (usize::from(piece.color != Color::Black), square as usize ^ 56),
    };
    side * 384 + (piece.role as usize - 1) * 64 + square
}

/// The king bucket of a side whose king stands on `king`, seen from its own side (Black's
/// board flipped), in a net of `buckets` (1, 2 or 4): 2 split the board between the queen's
/// and the king's wing (files a-d, e-h); 4 split each wing again between the back rank and
/// the rest. Each layout refines the one before it (bucket `b` of 4 lies within bucket
/// `b % 2` of 2), so a net grows its buckets by copying the old ones.
#[inline]
pub fn king_bucket(buckets: usize, king: Square) -> usize {
    let wing = usize::from(king.file() >= File::E);
    match buckets {
        1 => 0,
        2 => wing,
        _ => wing + 2 * usize::from(king.rank() != Rank::First),
    }
}

/// Each side's king bucket on `board` in a net of `buckets`, White's then Black's (the first
/// for a side without a king, as a tool's board may be).
#[inline]
pub fn king_buckets(buckets: usize, board: &Board) -> [usize; 2] {
    if buckets == 1 {
        return [0, 0];
    }
    [Color::White, Color::Black]
        .map(|color| board.king_of(color).map_or(0, |sq| king_bucket(buckets, relative(color, sq))))
}

/// `square` as `color` sees it: Black's board flipped vertically.
#[inline]
fn relative(color: Color, square: Square) -> Square {
    match color {
        Color::White => square,
        Color::Black => square.flip_vertical(),
    }
}

/// The pieces a move takes off and puts on the board: at most two of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// Pieces leaving a square.
    pub removed: [Option<(Piece, Square)>; 2],
    /// Pieces arriving on a square.
    pub added: [Option<(Piece, Square)>; 2],
}

/// What `mv`, made by `us`, changes on the board: the mover leaves its square and arrives
/// (promoted) on its target; a captured piece leaves (beside the target for en passant);
/// castling moves the king and the rook (in Chess960 one may land where the other was).
#[inline]
pub fn changes(us: Color, mv: Move) -> Change {
    let piece = |role| Piece { color: us, role };
    match mv {
        Move::Normal { role, from, capture, to, promotion } => Change {
            removed: [Some((piece(role), from)), capture.map(|c| (Piece { color: !us, role: c }, to))],
            added: [Some((piece(promotion.unwrap_or(role)), to)), None],
        },
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            Change {
                removed: [
                    Some((piece(Role::Pawn), from)),
                    Some((Piece { color: !us, role: Role::Pawn }, taken)),
                ],
                added: [Some((piece(Role::Pawn), to)), None],
            }
        }
        Move::Castle { king, rook } => {
            let side = mv.castling_side().expect("castling has a side");
            Change {
                removed: [Some((piece(Role::King), king)), Some((piece(Role::Rook), rook))],
                added: [
                    Some((piece(Role::King), side.king_to(us))),
                    Some((piece(Role::Rook), side.rook_to(us))),
                ],
            }
        }
        Move::Put { .. } => Change::default(),
    }
}
