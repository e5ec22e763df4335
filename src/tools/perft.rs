//! Perft: counting the leaves of the legal move tree, to check move generation.

use shakmaty::{Chess, Move, Position};

/// The deepest count accepted: deeper ones never finish, and each ply is a stack frame
/// (a request for 100,000 plies would overflow the stack before counting anything).
pub const MAX_DEPTH: u32 = 20;

/// Number of leaf nodes `depth` plies below `pos` (bulk-counted at the last ply).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    match depth {
        0 => 1,
        1 => moves.len() as u64,
        _ => moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                child.play_unchecked(mv);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// The same count without bulk counting: every leaf move is made, as a search would.
pub fn perft_unbulked(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            perft_unbulked(&child, depth - 1)
        })
        .sum()
}

/// Leaf counts below each root move, as `go perft` prints them.
pub fn divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn count(fen: &str, mode: CastlingMode, depth: u32) -> u64 {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
        perft(&pos, depth)
    }

    #[test]
    fn standard_positions() {
        let std = CastlingMode::Standard;
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(count(start, std, 4), 197_281);
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(count(kiwipete, std, 3), 97_862);
        assert_eq!(count("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", std, 5), 674_624);
        let p4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
        assert_eq!(count(p4, std, 4), 422_333);
        let p5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
        assert_eq!(count(p5, std, 3), 62_379);
        let p6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
        assert_eq!(count(p6, std, 3), 89_890);
    }

    #[test]
    fn chess960_position() {
        // First position of the Chess960 perft suite (Shredder-FEN castling rights).
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert_eq!(count(fen, CastlingMode::Chess960, 1), 21);
        assert_eq!(count(fen, CastlingMode::Chess960, 3), 12_189);
    }

    #[test]
    fn unbulked_counts_agree() {
        let pos = Chess::default();
        assert_eq!(perft_unbulked(&pos, 3), perft(&pos, 3));
    }

    #[test]
    fn divide_sums_to_perft() {
        let pos = Chess::default();
        let total: u64 = divide(&pos, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, 8_902);
    }
}
