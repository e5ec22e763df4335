//! Static evaluation: tapered material and piece-square tables, from the side to move's view.

pub mod pst;

use pst::{PHASE, PHASE_MAX, Score, TABLE};
use shakmaty::{Chess, Color, Position};

/// Bonus for having the move, in centipawns.
pub const TEMPO: i32 = 10;

/// Index of a role in the tables (pawn 0 .. king 5).
fn role_index(role: shakmaty::Role) -> usize {
    role as usize - 1
}

/// The midgame/endgame score from White's side, and the game phase (0 = bare endgame).
pub fn material_and_pst(pos: &Chess) -> (Score, i32) {
    let mut score = Score::default();
    let mut phase = 0;
    for (sq, piece) in pos.board() {
        let role = role_index(piece.role);
        phase += PHASE[role];
        match piece.color {
            Color::White => score += TABLE[role][sq.to_usize()],
            Color::Black => score -= TABLE[role][sq.flip_vertical().to_usize()],
        }
    }
    (score, phase.min(PHASE_MAX))
}

/// Blends a middlegame/endgame pair by phase.
pub fn taper(score: Score, phase: i32) -> i32 {
    (score.mg * phase + score.eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Evaluates `pos` in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    let (score, phase) = material_and_pst(pos);
    let white = taper(score, phase);
    let relative = if pos.turn() == Color::White { white } else { -white };
    relative + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, EnPassantMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn start_position_is_level_but_for_tempo() {
        assert_eq!(evaluate(&Chess::default()), TEMPO);
    }

    #[test]
    fn colour_flip_gives_the_same_score() {
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        for fen in fens {
            let p = pos(fen);
            let mut setup = p.to_setup(EnPassantMode::Legal);
            setup.mirror();
            let flipped: Chess = setup.position(CastlingMode::Standard).unwrap();
            assert_eq!(evaluate(&p), evaluate(&flipped), "{fen}");
        }
    }

    #[test]
    fn extra_queen_is_winning() {
        let p = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(evaluate(&p) > 900);
    }
}
