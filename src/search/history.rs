//! What the search learns about moves across a search, each table updated with gravity
//! (a bonus moves a score toward its bound by less the closer it already is):
//! - quiet history, by side, from- and to-square and whether the opponent attacks each
//!   (a move out of an attack or into one is another move than the same one elsewhere);
//! - continuation history, by the piece and target square of the move one or two plies
//!   back and of this move: which replies work after which moves;
//! - capture history, by moving piece, target square and captured piece.
//!
//! Killers, learnt per ply, live on the stack.

use super::params::{HISTORY_BONUS_MAX, HISTORY_MAX, history_bonus_scale};
use crate::eval::zeroed;
use shakmaty::{Bitboard, Chess, Color, File, Move, Piece, Position, Role, attacks};

/// Pieces times squares: one row of the continuation table per earlier move.
const PIECE_SQUARES: usize = 12 * 64;

/// The continuation table's row for an earlier move: its piece and target square.
pub fn context(piece: Piece, to: shakmaty::Square) -> usize {
    piece_index(piece.color, piece.role) * 64 + to as usize
}

fn piece_index(color: Color, role: Role) -> usize {
    color as usize * 6 + role as usize - 1
}

/// What a quiet move's history is read and learnt by, besides the move itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct QuietContext {
    /// The continuation-history rows of the moves one and two plies back (see [`context`]).
    pub moves: [Option<usize>; 2],
    /// The squares the side not to move attacks (see [`threats`]).
    pub threats: Bitboard,
}

/// The squares the side not to move attacks in `pos`, its king's included.
pub fn threats(pos: &Chess) -> Bitboard {
    let (board, them) = (pos.board(), pos.them());
    let occupied = board.occupied();
    let pawns = board.pawns() & them;
    // The pawns' attacks by shifting all of them at once, never across the a- or h-file.
    let (west, east) = (pawns & !Bitboard::from(File::A), pawns & !Bitboard::from(File::H));
    let mut all = match pos.turn() {
        Color::White => west.shift(-9) | east.shift(-7),
        Color::Black => west.shift(7) | east.shift(9),
    };
    for sq in board.knights() & them {
        all |= attacks::knight_attacks(sq);
    }
    for sq in (board.bishops() | board.queens()) & them {
        all |= attacks::bishop_attacks(sq, occupied);
    }
    for sq in (board.rooks() | board.queens()) & them {
        all |= attacks::rook_attacks(sq, occupied);
    }
    for sq in board.kings() & them {
        all |= attacks::king_attacks(sq);
    }
    all
}

/// Entries of one side's quiet table: threat on the from- and on the to-square, from, to.
const QUIET_SIDE: usize = 4 * 64 * 64;

/// The entry of `mv` in its side's quiet table where the opponent attacks `threats`.
#[inline(always)]
fn quiet_index(mv: Move, threats: Bitboard) -> usize {
    let to = mv.to();
    let from = mv.from().unwrap_or(to);
    let threat = usize::from(threats.contains(from)) * 2 + usize::from(threats.contains(to));
    (threat * 64 + from as usize) * 64 + to as usize
}

/// The continuation row of a move that was not made (the root's, after a null move).
static NO_CONTINUATION: [i16; PIECE_SQUARES / 2] = [0; PIECE_SQUARES / 2];

/// Scores the quiet moves of one side in one context (see [`Histories::quiet_scorer`]).
pub struct QuietScorer<'a> {
    /// The side's part of the quiet table.
    quiet: &'a [i16; QUIET_SIDE],
    /// The side's half of the continuation rows of the moves one and two plies back. The
    /// tables' lengths are known here, so no index needs a bounds check.
    rows: [&'a [i16; PIECE_SQUARES / 2]; 2],
    /// The squares the opponent attacks.
    threats: Bitboard,
}

impl QuietScorer<'_> {
    /// The quiet and continuation histories of `mv`.
    #[inline(always)]
    pub fn score(&self, mv: Move) -> i32 {
        let (role, from, to) = match mv {
            Move::Normal { role, from, to, .. } => (role, from, to),
            Move::Castle { king, rook } => (Role::King, king, rook),
            Move::EnPassant { from, to } => (Role::Pawn, from, to),
            Move::Put { role, to } => (role, to, to),
        };
        let threat = usize::from(self.threats.contains(from)) * 2 + usize::from(self.threats.contains(to));
        let piece_square = (role as usize - 1) * 64 + to as usize;
        i32::from(self.quiet[(threat * 64 + from as usize) * 64 + to as usize])
            + i32::from(self.rows[0][piece_square])
            + i32::from(self.rows[1][piece_square])
    }
}

/// The history tables of one search thread.
pub struct Histories {
    /// In i16, as every table: gravity keeps each score within `HISTORY_MAX`.
    quiet: Box<[[i16; QUIET_SIDE]; 2]>,
    continuation: Box<[[i16; PIECE_SQUARES]; PIECE_SQUARES]>,
    capture: Box<[[i16; 6]; PIECE_SQUARES]>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories { quiet: zeroed(), continuation: zeroed(), capture: zeroed() }
    }
}

/// Moves `h` toward the sign of `bonus`; the closer it already is to the bound, the less.
#[inline]
fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

/// The bonus of a cutoff at `depth`: `history_bonus_scale()` times depth squared, at most
/// `HISTORY_BONUS_MAX`.
fn bonus(depth: i32) -> i32 {
    (history_bonus_scale() * depth * depth).min(HISTORY_BONUS_MAX)
}

impl Histories {
    /// Halves every score before a new search: the last search's lessons count less.
    pub fn new_search(&mut self) {
        halve(self.quiet.as_flattened_mut());
        halve(self.continuation.as_flattened_mut());
        self.capture.as_flattened_mut().iter_mut().for_each(|h| *h /= 2);
    }

    /// Score of the quiet move `mv` by `color` in `context` (the earlier moves one and two
    /// plies back, where there were such moves, and the opponent's threats): its quiet and
    /// continuation histories.
    #[inline(always)]
    pub fn quiet_score(&self, color: Color, mv: Move, context: QuietContext) -> i32 {
        self.quiet_scorer(color, context).score(mv)
    }

    /// [`Histories::quiet_score`] for many moves of one node: the side's rows looked up once.
    #[inline(always)]
    pub fn quiet_scorer(&self, color: Color, context: QuietContext) -> QuietScorer<'_> {
        let row = |m: Option<usize>| -> &[i16; PIECE_SQUARES / 2] {
            let Some(row) = m else { return &NO_CONTINUATION };
            // The side's pieces: Black's first, as `piece_index` numbers them.
            let halves = self.continuation[row].split_at(PIECE_SQUARES / 2);
            (if color == Color::Black { halves.0 } else { halves.1 }).try_into().expect("half a row")
        };
        QuietScorer {
            quiet: &self.quiet[color as usize],
            rows: [row(context.moves[0]), row(context.moves[1])],
            threats: context.threats,
        }
    }

    /// The quiet move `mv` failed high at `depth` in `context`: raise its histories and
    /// lower those of the quiet moves `tried` before it.
    pub fn on_quiet_cutoff(
        &mut self,
        color: Color,
        depth: i32,
        mv: Move,
        tried: &[Move],
        context: QuietContext,
    ) {
        let bonus = bonus(depth);
        self.update_quiet(color, mv, bonus, context);
        for &other in tried.iter().filter(|&&m| m != mv) {
            self.update_quiet(color, other, -bonus, context);
        }
    }

    fn update_quiet(&mut self, color: Color, mv: Move, bonus: i32, context: QuietContext) {
        let h = &mut self.quiet[color as usize][quiet_index(mv, context.threats)];
        *h = gravity(i32::from(*h), bonus) as i16;
        let piece_square = piece_index(color, mv.role()) * 64 + mv.to() as usize;
        for row in context.moves.into_iter().flatten() {
            let h = &mut self.continuation[row][piece_square];
            *h = gravity(i32::from(*h), bonus) as i16;
        }
    }

    /// Capture history of the capture (or promotion) `mv` by `color`.
    #[inline(always)]
    pub fn capture_score(&self, color: Color, mv: Move) -> i32 {
        let (piece_square, captured) = capture_index(color, mv);
        i32::from(self.capture[piece_square][captured])
    }

    /// The capture `mv` failed high at `depth`: raise its history and lower that of the
    /// captures `tried` before it.
    pub fn on_capture_cutoff(&mut self, color: Color, depth: i32, mv: Move, tried: &[Move]) {
        let bonus = bonus(depth);
        for (m, b) in
            std::iter::once((mv, bonus)).chain(tried.iter().filter(|&&m| m != mv).map(|&m| (m, -bonus)))
        {
            let (piece_square, captured) = capture_index(color, m);
            let h = &mut self.capture[piece_square][captured];
            *h = gravity(i32::from(*h), b) as i16;
        }
    }
}

/// The capture table's entry: moving piece, target square, captured role (a promotion
/// without a capture counts as capturing a pawn's worth of nothing: role 0).
#[inline(always)]
fn capture_index(color: Color, mv: Move) -> (usize, usize) {
    let (role, to, capture, _) = super::ordering::parts(mv);
    (piece_index(color, role) * 64 + to as usize, capture.map_or(0, |r| r as usize - 1))
}

/// Halves every score of `table` (toward zero); on x86-64 a copy compiled for AVX2 is
/// chosen at run time when the CPU has it (the continuation table is most of the cost of
/// starting a search at datagen's few thousand nodes a move).
fn halve(table: &mut [i16]) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::avx2() {
        // SAFETY: `simd::avx2` is true only where the CPU has AVX2.
        return unsafe { halve_avx2(table) };
    }
    halve_body(table);
}

/// [`halve`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn halve_avx2(table: &mut [i16]) {
    halve_body(table);
}

#[inline(always)]
fn halve_body(table: &mut [i16]) {
    table.iter_mut().for_each(|h| *h /= 2);
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Square, fen::Fen, uci::UciMove};

    fn mv(p: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>().unwrap().to_move(p).unwrap()
    }

    #[test]
    fn the_avx2_halving_equals_the_portable_one() {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::avx2() {
            let table: Vec<i16> = (i16::MIN..=i16::MAX).rev().step_by(3).collect();
            let (mut simd, mut portable) = (table.clone(), table);
            // SAFETY: `simd::avx2` is true only where the CPU has AVX2.
            unsafe { halve_avx2(&mut simd) };
            halve_body(&mut portable);
            assert_eq!(simd, portable);
        }
    }

    #[test]
    fn halving_rounds_every_score_toward_zero() {
        let mut table: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        halve(&mut table);
        assert!((i16::MIN..=i16::MAX).zip(&table).all(|(h, &halved)| halved == h / 2));
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn rook_ending() -> Chess {
        position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    }

    #[test]
    fn cutoffs_move_the_quiet_history_within_its_bound() {
        let p = rook_ending();
        let mut h = Histories::default();
        let (a, b, c) = (mv(&p, "a1a7"), mv(&p, "e1d2"), mv(&p, "a1a2"));
        let none = QuietContext::default();
        h.on_quiet_cutoff(Color::White, 4, a, &[c], none);
        h.on_quiet_cutoff(Color::White, 6, b, &[], none);
        assert_eq!(h.quiet_score(Color::White, a, none), 512, "a bonus of 32 times depth squared");
        assert!(h.quiet_score(Color::White, b, none) > h.quiet_score(Color::White, a, none));
        assert_eq!(h.quiet_score(Color::White, c, none), -512, "c was tried before the cutoff");
        assert_eq!(h.quiet_score(Color::Black, a, none), 0, "each side has its own history");
        for _ in 0..10_000 {
            h.on_quiet_cutoff(Color::White, 60, a, &[c], none);
        }
        let (high, low) = (h.quiet_score(Color::White, a, none), h.quiet_score(Color::White, c, none));
        assert!(high <= HISTORY_MAX && high > HISTORY_MAX / 2, "{high}");
        assert!((-HISTORY_MAX..-HISTORY_MAX / 2).contains(&low), "{low}");
        h.new_search();
        assert_eq!(h.quiet_score(Color::White, a, none), high / 2);
    }

    #[test]
    fn threats_are_every_attack_of_the_side_not_to_move() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
            "8/p6P/1p4k1/8/8/6K1/P6p/8 w - - 0 1",
            "8/p6P/1p4k1/8/8/6K1/P6p/8 b - - 0 1",
        ] {
            let p = position(fen);
            let board = p.board();
            let slow = p.them().into_iter().fold(Bitboard::EMPTY, |all, sq| all | board.attacks_from(sq));
            assert_eq!(threats(&p), slow, "{fen}");
        }
    }

    #[test]
    fn a_move_out_of_an_attack_has_its_own_history() {
        let p = position("4k3/8/8/3r4/8/8/8/R2NK3 w - - 0 1");
        let threats = threats(&p);
        assert!(
            threats.contains(Square::D1) && threats.contains(Square::D7) && !threats.contains(Square::A1)
        );
        assert!(threats.contains(Square::F7), "the king's squares count");
        let mut h = Histories::default();
        let knight_out = mv(&p, "d1c3");
        let attacked = QuietContext { moves: [None; 2], threats };
        h.on_quiet_cutoff(Color::White, 4, knight_out, &[], attacked);
        assert_eq!(h.quiet_score(Color::White, knight_out, attacked), 512);
        assert_eq!(
            h.quiet_score(Color::White, knight_out, QuietContext::default()),
            0,
            "no attack on d1: another entry"
        );
    }

    #[test]
    fn continuation_history_belongs_to_the_move_before() {
        let p = rook_ending();
        let mut h = Histories::default();
        let a = mv(&p, "a1a7");
        let after_check = context(Piece { color: Color::Black, role: Role::King }, Square::D8);
        let after_other = context(Piece { color: Color::Black, role: Role::King }, Square::F8);
        let after = |moves| QuietContext { moves, threats: Bitboard::EMPTY };
        h.on_quiet_cutoff(Color::White, 10, a, &[], after([Some(after_check), None]));
        let with = h.quiet_score(Color::White, a, after([Some(after_check), None]));
        let without = h.quiet_score(Color::White, a, after([Some(after_other), None]));
        assert_eq!(
            (with, without),
            (6_400, 3_200),
            "the quiet history and, after Kd8 only, the continuation"
        );
        for _ in 0..10_000 {
            h.on_quiet_cutoff(Color::White, 60, a, &[], after([Some(after_check), Some(after_other)]));
        }
        assert!(
            h.quiet_score(Color::White, a, after([Some(after_check), Some(after_other)])) <= 3 * HISTORY_MAX
        );
    }

    #[test]
    fn capture_history_rises_for_the_capture_that_cut_off() {
        let p = position("4k3/8/8/3q1r2/4P3/2N5/8/4K3 w - - 0 1");
        let mut h = Histories::default();
        let (pxq, nxq, pxr) = (mv(&p, "e4d5"), mv(&p, "c3d5"), mv(&p, "e4f5"));
        h.on_capture_cutoff(Color::White, 5, nxq, &[pxq, pxr]);
        assert_eq!(h.capture_score(Color::White, nxq), 800);
        assert_eq!((h.capture_score(Color::White, pxq), h.capture_score(Color::White, pxr)), (-800, -800));
        assert_eq!(h.capture_score(Color::Black, nxq), 0);
    }
}
