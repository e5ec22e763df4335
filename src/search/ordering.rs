//! What both move pickers know of a move before any search: whether it is noisy (a capture
//! or a queen promotion, searched in the capture stages and by quiescence) or quiet
//! (everything else, non-capturing underpromotions included: the search's one meaning of
//! "quiet", for LMR, pruning, killers and history), and its MVV-LVA score (most valuable
//! victim, least valuable attacker).

use super::params::MVV_LVA_VALUE;
use shakmaty::{Move, Role, Square};

/// Score of captures and promotions above every quiet move.
const CAPTURE_BASE: i32 = 100_000;

/// True for the moves of the noisy stages: captures and queen promotions.
#[inline]
pub fn is_noisy(mv: Move) -> bool {
    mv.is_capture() || mv.promotion() == Some(Role::Queen)
}

/// True for every move that is not noisy (non-capturing underpromotions included).
#[inline]
pub fn is_quiet(mv: Move) -> bool {
    !is_noisy(mv)
}

/// True for a move that captures nothing and promotes to nothing: the material stays as
/// it was (an underpromotion is quiet, but changes the material).
#[inline]
pub fn keeps_material(mv: Move) -> bool {
    !mv.is_capture() && mv.promotion().is_none()
}

fn value(role: Role) -> i32 {
    MVV_LVA_VALUE[role as usize - 1]
}

/// What the orderings read of a move, taken apart at once: the moving role, the target
/// square (castling: the rook's), the captured role and the promotion.
#[inline(always)]
pub fn parts(mv: Move) -> (Role, Square, Option<Role>, Option<Role>) {
    match mv {
        Move::Normal { role, capture, to, promotion, .. } => (role, to, capture, promotion),
        Move::EnPassant { to, .. } => (Role::Pawn, to, Some(Role::Pawn), None),
        Move::Castle { rook, .. } => (Role::King, rook, None, None),
        Move::Put { role, to } => (role, to, None, None),
    }
}

/// MVV-LVA score of a capture or promotion, 0 for a move that keeps the material.
#[inline(always)]
pub fn mvv_lva(mv: Move) -> i32 {
    let (role, _, capture, promotion) = parts(mv);
    let victim = capture.map_or(0, value);
    let promotion = promotion.map_or(0, value);
    if victim == 0 && promotion == 0 {
        return 0;
    }
    CAPTURE_BASE + (victim + promotion) * 100 - value(role)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};

    #[test]
    fn quiet_is_not_noisy_and_an_underpromotion_is_quiet_but_changes_material() {
        let p: Chess = "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mv = |uci: &str| uci.parse::<UciMove>().unwrap().to_move(&p).unwrap();
        for m in p.legal_moves() {
            assert_eq!(is_quiet(m), !is_noisy(m));
        }
        let (queen, knight, takes_rook, king) = (mv("b7b8q"), mv("b7b8n"), mv("b7a8n"), mv("e1e2"));
        assert!(is_noisy(queen) && is_noisy(takes_rook));
        assert!(is_quiet(knight) && !keeps_material(knight));
        assert!(is_quiet(king) && keeps_material(king) && mvv_lva(king) == 0);
        assert!(mvv_lva(queen) > mvv_lva(takes_rook) && mvv_lva(takes_rook) > mvv_lva(knight));
    }
}
