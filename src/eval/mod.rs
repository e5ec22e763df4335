//! The neural evaluation (NNUE): a perspective network `(768 -> HIDDEN) x 2 -> 1 x 8`.
//!
//! Each side sees the board from its own side: input (own or enemy, piece, square), with
//! Black's board flipped vertically, 768 inputs. A net may also read them in 2 or 4 king
//! buckets, each with its own weights: each side's in the bucket of its own king's square
//! (`king_bucket`), so a king move into another bucket recomputes its side. A hidden layer
//! of `HIDDEN` neurons per side (the same weights for both) is kept as an accumulator that
//! a move updates by a few columns; the side to move's half comes first into the output
//! neuron through SCReLU (`clamp(x, 0, 1)^2`). There are eight output neurons (buckets);
//! the number of pieces on the board picks the one that counts (`output_bucket`), so each
//! stage of the game has its own weighing of the same hidden layer at no cost. The output
//! times `Network::scale` is the evaluation in centipawns, and `sigmoid(output)` the side
//! to move's expected result.
//! Weights are integers: hidden weights scaled by `QA`, output weights by `QB`.

mod accumulator;
mod endgame;
mod explain;
mod features;
mod network;
mod output_layer;
#[cfg(test)]
mod tests;

pub use accumulator::Accumulator;
use endgame::mop_up_score;
pub use explain::explain;
pub use features::Change;
pub(crate) use features::{changes, feature_index, king_bucket, king_buckets};
pub(crate) use network::fnv1a;
pub use network::{Columns, MAGIC, NetError, NetFileError, Network, zeroed};

use shakmaty::{Chess, Position};
use std::sync::{Arc, OnceLock};

/// The network built into the binary, read once and shared.
pub fn embedded() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    Arc::clone(NET.get_or_init(|| Arc::new(Network::embedded())))
}

/// The static evaluation of `pos` in centipawns from the side to move: the mop-up score
/// against a bare king, else the network's on the accumulator `acc` gives (asked for only
/// then, so a lazy one is not brought up to date for nothing).
#[inline]
pub fn evaluate<'a>(net: &Network, pos: &Chess, acc: impl FnOnce() -> &'a Accumulator) -> i32 {
    mop_up_score(pos)
        .unwrap_or_else(|| net.evaluate(acc(), pos.turn(), output_bucket(pos.board().occupied().count())))
}

/// The output layer for a board of `pieces` pieces, kings included: 2-5 pieces the first,
/// 6-9 the second, ..., 30-32 the eighth. Each stage of the game gets its own weighing of
/// the same hidden layer.
#[inline]
pub fn output_bucket(pieces: usize) -> usize {
    (pieces.saturating_sub(2) / 4).min(OUTPUT_BUCKETS - 1)
}

/// Inputs per side and king bucket: own or enemy, six roles, 64 squares.
pub const INPUTS: usize = 768;
/// The most king buckets a net may have (see `king_bucket`): each has its own `INPUTS` columns.
pub const KING_BUCKETS: usize = 4;
/// Output layers, one chosen by the number of pieces on the board.
pub const OUTPUT_BUCKETS: usize = 8;
/// Hidden neurons per side.
pub const HIDDEN: usize = 128;
/// Scale of the hidden layer's integers: 1.0 is `QA`, and SCReLU clamps at it.
pub const QA: i32 = 255;
/// Scale of the output weights' integers: 1.0 is `QB`.
pub const QB: i32 = 64;
