//! The hidden layer of both sides, kept per ply: built from the board at the root and
//! updated by each move's few changed inputs below it (a king move into another king
//! bucket builds its side again instead).

use super::features::{Change, feature_index, king_buckets};
use super::{HIDDEN, Network};
use shakmaty::{Board, Chess, Color, Piece, Position, Square};

/// Both sides' hidden layers before activation, in the network's integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    white: [i16; HIDDEN],
    black: [i16; HIDDEN],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator { white: [0; HIDDEN], black: [0; HIDDEN] }
    }
}

impl Accumulator {
    /// The accumulator of `pos` computed from scratch: the bias plus every piece's column.
    pub fn refresh(net: &Network, pos: &Chess) -> Self {
        Accumulator::from_board(net, pos.board())
    }

    /// The accumulator of the pieces on `board`, whatever else holds (tools take pieces off).
    pub fn from_board(net: &Network, board: &Board) -> Self {
        let mut acc = Accumulator { white: net.feature_bias, black: net.feature_bias };
        let [white_bucket, black_bucket] = king_buckets(net.king_buckets, board);
        let (white, black) = (net.bucket_columns(white_bucket), net.bucket_columns(black_bucket));
        let mut halves = [(Color::White, white, &mut acc.white), (Color::Black, black, &mut acc.black)];
        for (square, piece) in board {
            for (color, columns, half) in &mut halves {
                let column = &columns[feature_index(*color, piece, square)];
                half.iter_mut().zip(column).for_each(|(a, w)| *a += w);
            }
        }
        acc
    }

    /// Becomes `parent` with `change` applied: the columns of the pieces put on the board
    /// added, those of the pieces taken off subtracted, in one pass per side, specialised
    /// by the move's shape (a quiet move, a capture, castling). `buckets` are each side's
    /// king bucket, White's then Black's, the same before the move and after it.
    #[inline]
    pub fn update_from(&mut self, parent: &Accumulator, net: &Network, change: &Change, buckets: [usize; 2]) {
        let b = buckets;
        match (change.added, change.removed) {
            ([Some(a), None], [Some(r), None]) => self.apply(parent, net, b, [a], [r]),
            ([Some(a), None], [Some(r0), Some(r1)]) => self.apply(parent, net, b, [a], [r0, r1]),
            ([Some(a0), Some(a1)], [Some(r0), Some(r1)]) => self.apply(parent, net, b, [a0, a1], [r0, r1]),
            // No move makes another shape; pieces put on or taken off one at a time.
            (added, removed) => {
                *self = *parent;
                for a in added.into_iter().flatten() {
                    let copy = *self;
                    self.apply(&copy, net, b, [a], []);
                }
                for r in removed.into_iter().flatten() {
                    let copy = *self;
                    self.apply(&copy, net, b, [], [r]);
                }
            }
        }
    }

    /// Becomes `parent` with the pieces `added` put on and `removed` taken off.
    #[inline]
    fn apply<const A: usize, const R: usize>(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        [white_bucket, black_bucket]: [usize; 2],
        added: [(Piece, Square); A],
        removed: [(Piece, Square); R],
    ) {
        let columns = |color, bucket| {
            let columns = net.bucket_columns(bucket);
            let column =
                move |(piece, square): (Piece, Square)| &columns[feature_index(color, piece, square)];
            (added.map(column), removed.map(column))
        };
        let (white_added, white_removed) = columns(Color::White, white_bucket);
        let (black_added, black_removed) = columns(Color::Black, black_bucket);
        add_columns(&mut self.white, &parent.white, white_added, white_removed);
        add_columns(&mut self.black, &parent.black, black_added, black_removed);
    }

    /// The hidden layer of `color`'s side.
    #[inline]
    pub fn side(&self, color: Color) -> &[i16; HIDDEN] {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// `to = from + added - removed`, column by column; an AVX2 copy is chosen at run time.
#[inline]
fn add_columns<const A: usize, const R: usize>(
    to: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: [&[i16; HIDDEN]; A],
    removed: [&[i16; HIDDEN]; R],
) {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::avx2() {
        // SAFETY: `simd::avx2` is true only where the CPU has AVX2.
        return unsafe { add_columns_avx2(to, from, added, removed) };
    }
    add_columns_body(to, from, added, removed);
}

/// [`add_columns`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_columns_avx2<const A: usize, const R: usize>(
    to: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: [&[i16; HIDDEN]; A],
    removed: [&[i16; HIDDEN]; R],
) {
    add_columns_body(to, from, added, removed);
}

#[inline(always)]
fn add_columns_body<const A: usize, const R: usize>(
    to: &mut [i16; HIDDEN],
    from: &[i16; HIDDEN],
    added: [&[i16; HIDDEN]; A],
    removed: [&[i16; HIDDEN]; R],
) {
    for i in 0..HIDDEN {
        let mut v = from[i];
        for a in added {
            v += a[i];
        }
        for r in removed {
            v -= r[i];
        }
        to[i] = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_avx2_column_sums_equal_the_portable_ones() {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::avx2() {
            let mut rng = crate::rng::Rng::new(7);
            let mut column = || -> [i16; HIDDEN] { std::array::from_fn(|_| rng.below(2_001) as i16 - 1_000) };
            let (from, a, b, c, d) = (column(), column(), column(), column(), column());
            let (mut simd, mut portable) = ([0; HIDDEN], [0; HIDDEN]);
            // SAFETY: `simd::avx2` is true only where the CPU has AVX2.
            unsafe { add_columns_avx2(&mut simd, &from, [&a], [&b]) };
            add_columns_body(&mut portable, &from, [&a], [&b]);
            assert_eq!(simd, portable);
            // SAFETY: as above.
            unsafe { add_columns_avx2(&mut simd, &from, [&a, &c], [&b, &d]) };
            add_columns_body(&mut portable, &from, [&a, &c], [&b, &d]);
            assert_eq!(simd, portable);
        }
    }
}
