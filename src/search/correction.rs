//! Correction history: how far searches found the static evaluation off, learnt by pawn
//! structure, by each side's other pieces, by the minor and by the major pieces. The
//! network misjudges some structures the same way wherever they occur (a blocked centre, a
//! passed pawn it underrates, a piece configuration); the searches below such nodes see it,
//! and the next node with the same pieces starts from a corrected evaluation.

use super::params::{CORRECTION_ERROR_MAX, CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_WEIGHT_MAX};
use crate::score::TB_WIN_BOUND;
use shakmaty::{Bitboard, Chess, Color, Position};

/// Entries per side and table (a power of two).
const SIZE: usize = 1 << 14;
/// The tables: pawns, White's other pieces, Black's other pieces, minor pieces, major pieces.
const TABLES: usize = 5;
/// Each table's weight in halves: the pawns' in full, the others' at half.
const WEIGHTS: [i32; TABLES] = [2, 1, 1, 1, 1];

/// The keys a node's corrections are read and learnt by, one a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionKeys([u64; TABLES]);

impl CorrectionKeys {
    /// The keys of `pos`'s pawns, each side's other pieces, its minor and its major pieces.
    #[inline]
    pub fn of(pos: &Chess) -> Self {
        let board = pos.board();
        let side = |color: Color| {
            let mine = board.by_color(color);
            [board.knights() & mine, board.bishops() & mine, board.rooks() & mine, board.queens() & mine]
        };
        let (white, black) = (side(Color::White), side(Color::Black));
        CorrectionKeys([
            pawn_key(pos),
            fold(white, board.kings() & board.white()),
            fold(black, board.kings() & board.black()),
            fold([white[0], white[1], black[0], black[1]], Bitboard::EMPTY),
            fold([white[2], white[3], black[2], black[3]], Bitboard::EMPTY),
        ])
    }
}

/// Four piece sets and a fifth folded into one key whose high bits depend on every square
/// of each (a multiplication by an odd constant carries each bit upward).
#[inline]
fn fold(sets: [Bitboard; 4], fifth: Bitboard) -> u64 {
    const K: [u64; 5] = [
        0x9e37_79b9_7f4a_7c15,
        0xbf58_476d_1ce4_e5b9,
        0x94d0_49bb_1331_11eb,
        0xd6e8_feb8_6659_fd93,
        0xa076_1d64_78bd_642f,
    ];
    let mut key = fifth.0.wrapping_mul(K[4]);
    for (set, k) in sets.iter().zip(K) {
        key ^= set.0.wrapping_mul(k).rotate_left(17);
    }
    mix(key)
}

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

/// One search thread's corrections, by table, side to move and key, in `CORRECTION_GRAIN`ths
/// of a centipawn (each entry at most `CORRECTION_MAX` centipawns: 8,192 grains, which i16
/// holds).
pub struct Correction(Box<[[[i16; SIZE]; 2]; TABLES]>);

const _: () = assert!(CORRECTION_MAX * CORRECTION_GRAIN <= i16::MAX as i32, "an entry fits i16");

impl Default for Correction {
    fn default() -> Self {
        Correction(vec![[[0; SIZE]; 2]; TABLES].into_boxed_slice().try_into().expect("five tables"))
    }
}

impl Correction {
    /// `eval`, the network's score for `color` to move, corrected by the tables' entries
    /// for `keys`, weighted (kept below the tablebase and mate range).
    #[inline]
    pub fn correct(&self, eval: i32, color: Color, keys: &CorrectionKeys) -> i32 {
        let mut sum = 0;
        for ((table, key), weight) in self.0.iter().zip(keys.0).zip(WEIGHTS) {
            sum += weight * i32::from(table[color as usize][key as usize & (SIZE - 1)]);
        }
        (eval + sum / (2 * CORRECTION_GRAIN)).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// A search to `depth` found `error` centipawns between its score and the corrected
    /// evaluation: move each table's entry toward it, deeper searches by more.
    pub fn update(&mut self, color: Color, keys: &CorrectionKeys, depth: i32, error: i32) {
        let weight = (depth + 1).min(CORRECTION_WEIGHT_MAX);
        // One search's error is clamped first, so a single deep node cannot set the entry alone.
        let target = error.clamp(-CORRECTION_ERROR_MAX, CORRECTION_ERROR_MAX) * CORRECTION_GRAIN;
        for (table, key) in self.0.iter_mut().zip(keys.0) {
            let entry = &mut table[color as usize][key as usize & (SIZE - 1)];
            let blended = (i32::from(*entry) * (256 - weight) + target * weight) / 256;
            *entry =
                blended.clamp(-CORRECTION_MAX * CORRECTION_GRAIN, CORRECTION_MAX * CORRECTION_GRAIN) as i16;
        }
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
    fn each_key_follows_its_own_pieces() {
        let a = CorrectionKeys::of(&position("3rk3/pp6/8/8/8/8/PP6/2N1K3 w - - 0 1")).0;
        let knight = CorrectionKeys::of(&position("3rk3/pp6/8/8/8/3N4/PP6/4K3 w - - 0 1")).0;
        let rook = CorrectionKeys::of(&position("2r1k3/pp6/8/8/8/8/PP6/2N1K3 w - - 0 1")).0;
        assert_eq!(a[0], knight[0], "pawns");
        assert_ne!(a[1], knight[1], "White's pieces");
        assert_eq!(a[2], knight[2], "Black's pieces");
        assert_ne!(a[3], knight[3], "minor pieces");
        assert_eq!(a[4], knight[4], "major pieces");
        assert_eq!((a[0], a[1], a[3]), (rook[0], rook[1], rook[3]));
        assert_ne!((a[2], a[4]), (rook[2], rook[4]));
    }

    #[test]
    fn corrections_follow_the_searches_error_within_their_bound() {
        let mut c = Correction::default();
        let keys = CorrectionKeys::of(&position("4k3/pp6/8/8/8/8/PP6/2N1K3 w - - 0 1"));
        assert_eq!(c.correct(50, Color::White, &keys), 50, "nothing learnt: the evaluation as it is");
        c.update(Color::White, &keys, 15, 100);
        // Each entry a sixteenth of the way to +100 at depth 15 (6.25), the pawns' in full and
        // four at half weight: 18.75.
        assert_eq!(c.correct(50, Color::White, &keys), 68);
        assert_eq!(c.correct(50, Color::Black, &keys), 50, "each side has its own entries");
        for _ in 0..1_000 {
            c.update(Color::White, &keys, 30, 10_000);
        }
        assert_eq!(c.correct(0, Color::White, &keys), 3 * CORRECTION_MAX, "at most the bound, each");
        for _ in 0..1_000 {
            c.update(Color::White, &keys, 1, -20);
        }
        let back = c.correct(0, Color::White, &keys);
        assert!((-60..=-57).contains(&back), "shallow searches pull it back too: {back}");
        assert_eq!(c.correct(TB_WIN_BOUND, Color::Black, &keys), TB_WIN_BOUND - 1);
    }
}
