//! The hidden layer of both sides, kept per ply: built from the board at the root and
//! updated by each move's few changed inputs below it.

use super::features::{Change, feature_index};
use super::{HIDDEN, Network};
use shakmaty::{Board, Chess, Color, Piece, Position, Square};

/// A hidden column of zeros, standing in for a change a move does not make.
static ZERO: [i16; HIDDEN] = [0; HIDDEN];

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
        for (square, piece) in board {
            for (color, half) in [(Color::White, &mut acc.white), (Color::Black, &mut acc.black)] {
                let column = &net.feature_weights[feature_index(color, piece, square)];
                half.iter_mut().zip(column).for_each(|(a, w)| *a += w);
            }
        }
        acc
    }

    /// Becomes `parent` with `change` applied: the columns of the pieces put on the board
    /// added, those of the pieces taken off subtracted, in one pass per side, specialised
    /// by the move's shape (a quiet move, a capture, castling).
    #[inline]
    pub fn update_from(&mut self, parent: &Accumulator, net: &Network, change: &Change) {
        for color in [Color::White, Color::Black] {
            let column =
                |(piece, square): (Piece, Square)| &net.feature_weights[feature_index(color, piece, square)];
            let (from, to) = match color {
                Color::White => (&parent.white, &mut self.white),
                Color::Black => (&parent.black, &mut self.black),
            };
            match (change.added, change.removed) {
                ([Some(a), None], [Some(r), None]) => add_columns(to, from, [column(a)], [column(r)]),
                ([Some(a), None], [Some(r0), Some(r1)]) => {
                    add_columns(to, from, [column(a)], [column(r0), column(r1)])
                }
                ([Some(a0), Some(a1)], [Some(r0), Some(r1)]) => {
                    add_columns(to, from, [column(a0), column(a1)], [column(r0), column(r1)])
                }
                (added, removed) => {
                    let column = |entry: Option<(Piece, Square)>| entry.map_or(&ZERO, column);
                    let added = [column(added[0]), column(added[1])];
                    add_columns(to, from, added, [column(removed[0]), column(removed[1])]);
                }
            }
        }
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
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
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
