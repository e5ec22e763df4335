//! The moves quiescence searches (captures and queen promotions), generated directly instead
//! of filtered out of every legal move: most of a position's moves are quiet.

use shakmaty::{
    Bitboard, Board, CastlingSide, Chess, Color, File, Move, MoveList, Position, Rank, Role, Square, attacks,
};

/// The legal captures and queen promotions of `pos`, which must not be in check, listed in
/// the order `Position::legal_moves` lists them (so ties in move ordering fall the same way).
pub fn noisy_moves(pos: &Chess) -> MoveList {
    let mut moves = MoveList::new();
    add_noisy_moves(pos, &mut moves);
    moves
}

/// [`noisy_moves`], appended to `moves` (a move list is too large to return cheaply).
pub fn add_noisy_moves(pos: &Chess, moves: &mut MoveList) {
    if pos.maybe_ep_square().is_some() {
        moves.extend(pos.en_passant_moves());
    }
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return;
    };
    let them = pos.them();
    pawn_moves(board, us, them, moves);
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_role(role) & pos.us() {
            let targets = attacks::attacks(from, role.of(us), board.occupied()) & them;
            push_captures(board, role, from, targets, moves);
        }
    }
    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !us, board.occupied()).is_empty() {
            push_captures(board, Role::King, king, Bitboard::from_square(to), moves);
        }
    }
    // A pinned piece may only move along its pin (en passant moves come checked already).
    let pinned = pinned(board, them, king);
    if pinned.any() {
        moves.retain(|m| match *m {
            Move::Normal { from, to, .. } => !pinned.contains(from) || attacks::aligned(from, to, king),
            _ => true,
        });
    }
}

/// The legal move of `pos`, which must not be in check, from `from` to `to` (promoting to
/// `promotion`), if there is one: a hash move or a killer checked without generating the
/// position's moves (castling and en passant through shakmaty). Castling is king takes rook.
pub fn legal_move(pos: &Chess, from: Square, to: Square, promotion: Option<Role>) -> Option<Move> {
    let board = pos.board();
    let us = pos.turn();
    let role = board.piece_at(from).filter(|p| p.color == us)?.role;
    if promotion.is_some_and(|p| matches!(p, Role::Pawn | Role::King)) {
        return None;
    }
    if role == Role::King && board.piece_at(to) == Some(Role::Rook.of(us)) {
        let side = if to.file() > from.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
        return pos.castling_moves(side).into_iter().find(|mv| mv.to() == to && promotion.is_none());
    }
    if pos.us().contains(to) {
        return None;
    }
    let capture = board.role_at(to);
    let reaches = if role == Role::Pawn {
        if capture.is_none() && Some(to) == pos.maybe_ep_square() {
            let en_passant = |mv: &Move| mv.from() == Some(from) && promotion.is_none();
            return pos.en_passant_moves().into_iter().find(en_passant);
        }
        let push = if us == Color::White { 8 } else { -8 };
        let start = if us == Color::White { Rank::Second } else { Rank::Seventh };
        let pushed = |n| from.offset(push * n) == Some(to);
        let promotes = Bitboard::BACKRANKS.contains(to);
        promotes == promotion.is_some()
            && match capture {
                Some(_) => attacks::pawn_attacks(us, from).contains(to),
                None => {
                    pushed(1)
                        || (from.rank() == start
                            && pushed(2)
                            && !board.occupied().contains(from.offset(push).expect("on the board")))
                }
            }
    } else {
        promotion.is_none() && attacks::attacks(from, role.of(us), board.occupied()).contains(to)
    };
    if !reaches {
        return None;
    }
    let king = board.king_of(us)?;
    let safe = if role == Role::King {
        board.attacks_to(to, !us, board.occupied() ^ Bitboard::from_square(from)).is_empty()
    } else {
        !pinned(board, pos.them(), king).contains(from) || attacks::aligned(from, to, king)
    };
    safe.then_some(Move::Normal { role, from, capture, to, promotion })
}

/// True when `pos`, not in check, surely has a legal move: a piece other than the king,
/// not pinned, with a square to go to. False when that finds none (generate to be sure).
pub fn surely_has_move(pos: &Chess) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return false;
    };
    let (ours, free) = (pos.us(), !board.occupied());
    let movers = ours & !board.kings() & !pinned(board, pos.them(), king);
    let pawns = movers & board.pawns();
    let push = if us == Color::White { 8 } else { -8 };
    if (pawns.shift(push) & free).any() {
        return true;
    }
    pawns.into_iter().any(|from| (attacks::pawn_attacks(us, from) & pos.them()).any())
        || (movers & !board.pawns()).into_iter().any(|from| (board.attacks_from(from) & !ours).any())
}

/// Pawn captures toward file a, then toward file h (each without promotion, then with every
/// promotion), then pushes that promote to a queen.
fn pawn_moves(board: &Board, us: Color, them: Bitboard, moves: &mut MoveList) {
    let pawns = board.pawns() & board.by_color(us);
    let (left, right, push): (i32, i32, i32) = if us == Color::White { (7, 9, 8) } else { (-9, -7, -8) };
    let not_on = |file| !Bitboard::from_file(file);
    for (by, from_mask) in [(left, not_on(File::A)), (right, not_on(File::H))] {
        let targets = (pawns & from_mask).shift(by) & them;
        for to in targets & !Bitboard::BACKRANKS {
            let from = pawn_from(to, by);
            moves.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
        for to in targets & Bitboard::BACKRANKS {
            let (from, capture) = (pawn_from(to, by), board.role_at(to));
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(promotion) });
            }
        }
    }
    for to in pawns.shift(push) & !board.occupied() & Bitboard::BACKRANKS {
        let from = pawn_from(to, push);
        moves.push(Move::Normal { role: Role::Pawn, from, capture: None, to, promotion: Some(Role::Queen) });
    }
}

/// The square a pawn came from when it moved `by` squares to `to`.
fn pawn_from(to: Square, by: i32) -> Square {
    Square::new((to.to_u32() as i32 - by) as u32)
}

/// A capture by the `role` on `from` of each piece on `targets`.
fn push_captures(board: &Board, role: Role, from: Square, targets: Bitboard, moves: &mut MoveList) {
    for to in targets {
        moves.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
    }
}

/// Pieces that alone stand between `king` and an enemy slider aiming at it.
fn pinned(board: &Board, enemy: Bitboard, king: Square) -> Bitboard {
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers & enemy {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            pinned |= between;
        }
    }
    pinned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use shakmaty::{CastlingMode, fen::Fen};

    /// Compares with the filtered legal moves; returns the moves compared.
    fn assert_same(pos: &Chess) -> MoveList {
        if pos.is_check() {
            return MoveList::new();
        }
        let mut expected = pos.legal_moves();
        expected.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        assert_eq!(noisy_moves(pos), expected, "{}", Fen::from_position(pos, shakmaty::EnPassantMode::Legal));
        expected
    }

    #[test]
    fn pins_promotions_and_en_passant() {
        for fen in [
            // A pinned knight, a pinned bishop that may capture along its pin, promotions.
            "4k3/8/8/b7/7b/2N3p1/5B2/r1R1K3 w - - 0 1",
            "1r2k2n/P5P1/8/8/8/8/p5p1/R3K1NR b - - 0 1",
            "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ] {
            assert_same(&fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap());
        }
    }

    /// Visits every position of 300 random games of up to 120 plies from the start.
    fn along_random_games(seed: u64, mut visit: impl FnMut(&Chess)) {
        let mut rng = Rng::new(seed);
        for _ in 0..300 {
            let mut pos = Chess::default();
            for _ in 0..120 {
                visit(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures so the games reach sparse, tactical endings.
                let captures: MoveList = moves.iter().copied().filter(|m| m.is_capture()).collect();
                let pool = if captures.is_empty() || rng.below(3) == 0 { &moves } else { &captures };
                pos.play_unchecked(pool[rng.below(pool.len())]);
            }
        }
    }

    #[test]
    fn same_as_filtering_legal_moves_along_random_games() {
        let (mut promotions, mut en_passant) = (0, 0);
        along_random_games(2026, |pos| {
            let noisy = assert_same(pos);
            promotions += noisy.iter().filter(|m| m.is_promotion()).count();
            en_passant += noisy.iter().filter(|m| m.is_en_passant()).count();
        });
        assert!(promotions > 200 && en_passant > 20, "{promotions} promotions, {en_passant} en passant");
    }

    #[test]
    fn a_sure_move_is_always_legal_and_seldom_missed() {
        let (mut positions, mut sure) = (0, 0);
        along_random_games(7, |pos| {
            if pos.is_check() {
                return;
            }
            let piece_moves = pos.legal_moves().iter().filter(|m| m.role() != Role::King).count();
            let found = surely_has_move(pos);
            assert!(!found || piece_moves > 0, "{}", Fen::from_position(pos, shakmaty::EnPassantMode::Legal));
            // Only the king can move in the bare-king endings these games often reach.
            if piece_moves > 0 {
                positions += 1;
                sure += usize::from(found);
            }
        });
        assert!(sure * 100 >= positions * 99, "{sure} of {positions}");
        for fen in [
            // Stalemates: a bare king; a king, a pinned knight, blocked pawns, a boxed rook and bishop.
            "7k/5Q2/8/8/8/8/8/K7 b - - 0 1",
            "5Rnk/7p/7P/8/4K3/8/p1p5/rbB5 b - - 0 1",
            // Only the king or a piece along its pin can move: the moves must be generated.
            "7k/8/8/8/8/8/8/K7 w - - 0 1",
            "4k3/8/8/4r3/8/8/8/4R2K b - - 0 1",
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            assert!(!surely_has_move(&pos), "{fen}");
        }
    }
}
