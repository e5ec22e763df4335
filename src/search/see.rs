//! Static exchange evaluation: the material won by a capture sequence on one square when
//! both sides recapture with their least valuable piece and may stop whenever they like.

use super::params::SEE_VALUE;
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square, attacks};

fn value(role: Role) -> i32 {
    SEE_VALUE[role as usize - 1]
}

/// True when `mv` wins at least `threshold` by static exchange: the captures on its target
/// square, each side taking with its least valuable piece and free to stop, leave the mover
/// `threshold` or more. Castling, en passant and promotions count as even trades.
#[inline(always)]
pub fn see_ge(pos: &Chess, mv: Move, threshold: i32) -> bool {
    let Move::Normal { role, from, capture, to, promotion: None } = mv else {
        return threshold <= 0;
    };
    // The mover's margin over the threshold if nothing takes back: short of it, no exchange
    // can help.
    let mut balance = capture.map_or(0, value) - threshold;
    if balance < 0 {
        return false;
    }
    // The margin if the moved piece is taken back for nothing: still short of none, done.
    balance -= value(role);
    if balance >= 0 {
        return true;
    }
    let board = pos.board();
    let mut occupied = board.occupied() ^ Bitboard::from(from);
    // Knights, kings and pawns attack the square whatever leaves the board: only the
    // sliders' attacks are looked up again after each capture.
    let leapers = (attacks::knight_attacks(to) & board.knights())
        | (attacks::king_attacks(to) & board.kings())
        | (attacks::pawn_attacks(Color::Black, to) & board.pawns() & board.white())
        | (attacks::pawn_attacks(Color::White, to) & board.pawns() & board.black());
    // `side` is to take next and falls short of its goal unless it does; `balance` is the
    // margin of the side that took last, were its piece taken back for nothing.
    let mut side = !pos.turn();
    loop {
        let sliders = (attacks::rook_attacks(to, occupied) & board.rooks_and_queens())
            | (attacks::bishop_attacks(to, occupied) & board.bishops_and_queens());
        let attackers = (leapers | sliders) & occupied;
        let Some((attacker, square)) = next_taker(board, attackers, side) else {
            break;
        };
        occupied ^= Bitboard::from(square);
        side = !side;
        // The taker's margin: what the last taker lacked, less its own piece should it be
        // taken back (the 1 turns the other side's "at least" into "more than").
        balance = -balance - 1 - value(attacker);
        if balance >= 0 {
            break;
        }
    }
    // The side left to take is the one that falls short.
    side != pos.turn()
}

/// The least valuable of `side`'s pieces among `attackers` (of the target square) and its
/// square, unless none may take: none attacks, or only the king does and the other side
/// could take it back.
#[inline(always)]
fn next_taker(board: &Board, attackers: Bitboard, side: Color) -> Option<(Role, Square)> {
    let ours = attackers & board.by_color(side);
    let (role, square) =
        Role::ALL.into_iter().find_map(|r| (ours & board.by_role(r)).first().map(|sq| (r, sq)))?;
    if role == Role::King && (attackers & board.by_color(!side)).any() {
        return None;
    }
    Some((role, square))
}

#[cfg(test)]
mod tests {
    use super::{next_taker, see_ge, value};
    use crate::rng::Rng;
    use shakmaty::{Bitboard, CastlingMode, Chess, Move, Position, fen::Fen, uci::UciMove};

    /// Material `mv` wins (negative: loses) once the exchanges on its target square are
    /// played out, by the plain minimax over the list of captures: the reference `see_ge`
    /// is checked against.
    fn see(pos: &Chess, mv: Move) -> i32 {
        let Move::Normal { role, from, capture, to, promotion: None } = mv else {
            return 0;
        };
        let board = pos.board();
        // gain[d]: what the side making capture d wins if the sequence stopped after it.
        let mut gain = [0; 32];
        gain[0] = capture.map_or(0, value);
        let mut on_square = value(role);
        let mut occupied = board.occupied() ^ Bitboard::from(from);
        let mut side = !pos.turn();
        let mut d = 0;
        while d + 1 < gain.len() {
            let attackers =
                (board.attacks_to(to, side, occupied) | board.attacks_to(to, !side, occupied)) & occupied;
            let Some((attacker, square)) = next_taker(board, attackers, side) else {
                break;
            };
            d += 1;
            gain[d] = on_square - gain[d - 1];
            on_square = value(attacker);
            occupied ^= Bitboard::from(square);
            side = !side;
        }
        // Each side stops the sequence where continuing would cost it.
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        see(&pos, uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap())
    }

    #[test]
    fn exchanges_are_counted_to_the_end() {
        // A free pawn.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        // Rook takes a pawn defended by a pawn: loses the exchange for a pawn.
        assert_eq!(see_of("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100 - 500);
        // Pawn takes a knight defended by a pawn: wins a knight for a pawn.
        assert_eq!(see_of("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 300 - 100);
        // Two rooks against a rook and a defending pawn behind: x-ray rook counts.
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
        // A quiet move onto a square attacked by a pawn loses the piece.
        assert_eq!(see_of("4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1", "d1d5"), -900);
        // The king takes an undefended queen but not one the rook behind it defends.
        assert_eq!(see_of("4k3/8/8/7q/8/8/4P3/4K3 b - - 0 1", "h5e2"), 100 - 900);
        assert_eq!(see_of("4k3/4r3/8/7q/8/8/4P3/4K3 b - - 0 1", "h5e2"), 100);
    }

    #[test]
    fn see_ge_agrees_with_the_minimax_over_the_exchange() {
        let mut rng = Rng::new(7);
        let mut captures = 0;
        for _ in 0..100 {
            let mut pos = Chess::default();
            for _ in 0..100 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    for threshold in [
                        -1000, -900, -500, -301, -300, -200, -120, -1, 0, 1, 99, 100, 101, 200, 250, 500, 800,
                    ] {
                        assert_eq!(
                            see_ge(&pos, mv, threshold),
                            see(&pos, mv) >= threshold,
                            "{mv} {threshold}"
                        );
                    }
                    captures += usize::from(mv.is_capture());
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(captures > 10_000, "{captures} captures compared");
    }
}
