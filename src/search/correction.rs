//! Correction history: how far searches found the static evaluation off, learnt by pawn
//! structure. The network misjudges some structures the same way wherever they occur
//! (a blocked centre, a passed pawn it underrates); the searches below such nodes see it,
//! and the next node with the same pawns starts from a corrected evaluation.

use super::params::{CORRECTION_ERROR_MAX, CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_WEIGHT_MAX};
use crate::score::TB_WIN_BOUND;
use shakmaty::{Chess, Color, Position};

/// Entries per side (a power of two).
const SIZE: usize = 1 << 14;

/// The pawn structure's key: both sides' pawns mixed into one number.
#[inline]
pub fn pawn_key(pos: &Chess) -> u64 {
    let board = pos.board();
    let white = (board.pawns() & board.white()).0;
    let black = (board.pawns() & board.black()).0;
    mix(white ^ mix(black ^ 0x9e37_79b9_7f4a_7c15))
}

/// A 64-bit finaliser (splitmix64's): every input bit moves about half the output bits.
#[inline]
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// One search thread's corrections, by side to move and pawn key, in `CORRECTION_GRAIN`ths
/// of a centipawn (at most `CORRECTION_MAX` centipawns: 8,192 grains, which i16 holds).
pub struct Correction(Box<[[i16; SIZE]; 2]>);

const _: () = assert!(CORRECTION_MAX * CORRECTION_GRAIN <= i16::MAX as i32, "an entry fits i16");

impl Default for Correction {
    fn default() -> Self {
        Correction(vec![[0; SIZE]; 2].into_boxed_slice().try_into().expect("two sides"))
    }
}

impl Correction {
    /// `eval`, the network's score for `color` to move, corrected for the pawns `key`
    /// (kept below the tablebase and mate range).
    #[inline]
    pub fn correct(&self, eval: i32, color: Color, key: u64) -> i32 {
        let entry = i32::from(self.0[color as usize][key as usize & (SIZE - 1)]);
        (eval + entry / CORRECTION_GRAIN).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// A search to `depth` found `error` centipawns between its score and the corrected
    /// evaluation: move the entry toward it, deeper searches by more.
    pub fn update(&mut self, color: Color, key: u64, depth: i32, error: i32) {
        let entry = &mut self.0[color as usize][key as usize & (SIZE - 1)];
        let weight = (depth + 1).min(CORRECTION_WEIGHT_MAX);
        // One search's error is clamped first, so a single deep node cannot set the entry alone.
        let target = error.clamp(-CORRECTION_ERROR_MAX, CORRECTION_ERROR_MAX) * CORRECTION_GRAIN;
        let blended = (i32::from(*entry) * (256 - weight) + target * weight) / 256;
        *entry = blended.clamp(-CORRECTION_MAX * CORRECTION_GRAIN, CORRECTION_MAX * CORRECTION_GRAIN) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn the_pawn_key_depends_on_the_pawns_alone() {
        let a = position("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        let b = position("3rk3/pp6/8/8/8/8/PP6/2N1K3 b - - 0 1");
        let c = position("4k3/pp6/8/8/8/P7/1P6/4K3 w - - 0 1");
        let swapped = position("4k3/PP6/8/8/8/8/pp6/4K3 w - - 0 1");
        assert_eq!(pawn_key(&a), pawn_key(&b), "pieces and the side to move do not count");
        assert_ne!(pawn_key(&a), pawn_key(&c), "a pawn push changes it");
        assert_ne!(pawn_key(&a), pawn_key(&swapped), "whose pawns they are counts");
    }

    #[test]
    fn corrections_follow_the_searches_error_within_their_bound() {
        let mut c = Correction::default();
        let key = 12345;
        assert_eq!(c.correct(50, Color::White, key), 50, "nothing learnt: the evaluation as it is");
        c.update(Color::White, key, 15, 100);
        assert_eq!(c.correct(50, Color::White, key), 56, "a sixteenth of the way to +100 at depth 15");
        assert_eq!(c.correct(50, Color::Black, key), 50, "each side has its own entries");
        for _ in 0..1_000 {
            c.update(Color::White, key, 30, 10_000);
        }
        assert_eq!(c.correct(0, Color::White, key), CORRECTION_MAX, "at most the bound");
        for _ in 0..1_000 {
            c.update(Color::White, key, 1, -20);
        }
        let back = c.correct(0, Color::White, key);
        assert!((-20..=-19).contains(&back), "shallow searches pull it back too: {back}");
        assert_eq!(c.correct(TB_WIN_BOUND, Color::Black, key), TB_WIN_BOUND - 1);
    }
}
