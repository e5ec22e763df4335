//! A cache of the terms that depend on the pawns alone. Pawns move rarely, so most positions
//! a search evaluates share their pawns with one it has already scored.

use super::Score;
use shakmaty::{Bitboard, Board};

/// log2 of the number of entries (8192 entries of 48 bytes: 384 KB per search thread).
const BITS: u32 = 13;

/// One pawn formation: the pawns themselves (so a hit is never a collision), their score
/// and the passed pawns.
#[derive(Clone, Copy)]
struct Entry {
    white: Bitboard,
    black: Bitboard,
    score: Score,
    passers: [Bitboard; 2],
}

/// Pawn-only scores (White minus Black) and passed pawns of recently seen pawn formations.
pub struct PawnCache {
    entries: Box<[Entry]>,
}

impl Default for PawnCache {
    fn default() -> Self {
        // The empty entry is right for a board without pawns: score 0, no passed pawns.
        let empty = Entry {
            white: Bitboard::EMPTY,
            black: Bitboard::EMPTY,
            score: Score::default(),
            passers: [Bitboard::EMPTY; 2],
        };
        PawnCache { entries: vec![empty; 1 << BITS].into_boxed_slice() }
    }
}

impl PawnCache {
    /// The pawn-only score of `board` (White minus Black) and the passed pawns by colour index,
    /// computed by `score` when the formation is not cached.
    pub fn get(
        &mut self,
        board: &Board,
        score: impl FnOnce(&Board) -> (Score, [Bitboard; 2]),
    ) -> (Score, [Bitboard; 2]) {
        let (white, black) = (board.pawns() & board.white(), board.pawns() & board.black());
        let hash = white.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.0.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let entry = &mut self.entries[(hash >> (64 - BITS)) as usize];
        if entry.white != white || entry.black != black {
            let (score, passers) = score(board);
            *entry = Entry { white, black, score, passers };
        }
        (entry.score, entry.passers)
    }
}
