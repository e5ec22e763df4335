//! Evaluation weights in the `params` layout, written by `principia tune`; do not edit by hand.
//!
//! Tuned on 669927 positions from 9561 self-play games (dg0-s1.txt, dg0-s2.txt, dg1-s11.txt, dg1-s12.txt), Adam (learning rate 1, L2 0.0003),
//! K = 2.3478; the weights of epoch 83 of 400, where the loss on every tenth game's 71208 positions
//! (held out) was lowest: loss 0.113184 -> 0.107696, held-out loss 0.110953 -> 0.106486.

use super::Score as S;
use super::params::COUNT;

/// Middlegame/endgame value of every evaluation term.
#[rustfmt::skip]
pub static WEIGHTS: [S; COUNT] = [
    // material
    S::new(55, 98), S::new(325, 302), S::new(333, 330), S::new(447, 552), S::new(962, 1009),
    // pst
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(-6, 5), S::new(2, -5), S::new(0, 13), S::new(-12, 2),
    S::new(0, -2), S::new(7, -2), S::new(10, 1), S::new(7, 14),
    S::new(-10, 14), S::new(-4, 16), S::new(1, 7), S::new(18, 4),
    S::new(7, 30), S::new(9, 19), S::new(3, 21), S::new(26, 17),
    S::new(12, 39), S::new(27, 55), S::new(20, 53), S::new(22, 48),
    S::new(17, 56), S::new(19, 82), S::new(23, 82), S::new(37, 79),
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(-21, -17), S::new(-26, -29), S::new(-13, -12), S::new(-26, -19),
    S::new(-19, -16), S::new(-11, -7), S::new(-14, -8), S::new(-2, -9),
    S::new(-26, -20), S::new(-7, -3), S::new(-7, -5), S::new(-2, 1),
    S::new(-22, -14), S::new(-9, -7), S::new(1, 5), S::new(2, 14),
    S::new(-17, -14), S::new(-2, -5), S::new(6, 6), S::new(11, 12),
    S::new(-18, -13), S::new(-6, -4), S::new(1, 0), S::new(5, 4),
    S::new(-23, -14), S::new(-12, -9), S::new(-7, -6), S::new(-9, -4),
    S::new(-21, -16), S::new(-20, -15), S::new(-21, -15), S::new(-19, -14),
    S::new(-5, -7), S::new(-5, -10), S::new(-9, -13), S::new(-13, -10),
    S::new(-9, -11), S::new(7, -14), S::new(-10, -11), S::new(7, -4),
    S::new(1, -11), S::new(-1, 1), S::new(4, 2), S::new(-7, 11),
    S::new(-9, -10), S::new(-4, -3), S::new(10, 15), S::new(17, 12),
    S::new(-2, -9), S::new(3, -1), S::new(0, -3), S::new(18, 15),
    S::new(-4, -10), S::new(6, 0), S::new(6, 6), S::new(6, 2),
    S::new(-6, -8), S::new(1, -2), S::new(-1, -1), S::new(0, -1),
    S::new(-4, -7), S::new(-5, -8), S::new(-6, -9), S::new(-4, -7),
    S::new(-14, -11), S::new(-6, -1), S::new(12, -7), S::new(17, -5),
    S::new(-22, -4), S::new(-6, -3), S::new(-4, 2), S::new(3, -6),
    S::new(-10, -7), S::new(-5, 1), S::new(-2, -3), S::new(-2, 2),
    S::new(-5, 2), S::new(0, 3), S::new(-4, -1), S::new(9, 4),
    S::new(2, 0), S::new(3, 4), S::new(6, 6), S::new(9, 3),
    S::new(0, 2), S::new(4, 5), S::new(3, 2), S::new(7, 2),
    S::new(17, 18), S::new(16, 8), S::new(19, 13), S::new(19, 8),
    S::new(0, 5), S::new(2, 2), S::new(3, 4), S::new(7, 4),
    S::new(-4, -10), S::new(-3, -11), S::new(-4, -12), S::new(-6, -15),
    S::new(-5, -11), S::new(-5, -7), S::new(2, -4), S::new(-2, -2),
    S::new(-7, -10), S::new(-3, -7), S::new(4, 2), S::new(-5, 4),
    S::new(-4, -11), S::new(-5, -6), S::new(-1, 1), S::new(9, 11),
    S::new(-8, -10), S::new(0, -3), S::new(2, 5), S::new(4, 11),
    S::new(-2, -10), S::new(-5, -5), S::new(4, 3), S::new(5, 5),
    S::new(-4, -9), S::new(-7, -6), S::new(-1, -3), S::new(0, -3),
    S::new(-6, -11), S::new(-9, -11), S::new(-4, -9), S::new(-3, -8),
    S::new(11, -22), S::new(27, -35), S::new(5, -29), S::new(12, -19),
    S::new(-3, -23), S::new(6, -10), S::new(-3, -11), S::new(-26, -8),
    S::new(-40, -18), S::new(-36, -1), S::new(-41, 2), S::new(-37, 4),
    S::new(-50, -21), S::new(-49, -4), S::new(-48, 10), S::new(-52, 5),
    S::new(-60, -20), S::new(-59, -1), S::new(-59, 8), S::new(-59, 12),
    S::new(-70, -20), S::new(-69, -4), S::new(-68, 11), S::new(-69, 6),
    S::new(-80, -19), S::new(-80, -7), S::new(-79, -5), S::new(-79, -6),
    S::new(-90, -19), S::new(-90, -20), S::new(-90, -20), S::new(-90, -19),
    // mobility_knight
    S::new(-15, -4), S::new(-9, -7), S::new(2, -7), S::new(0, -3), S::new(2, -4), S::new(4, 6), S::new(6, 13), S::new(9, 5),
    S::new(5, 3),
    // mobility_bishop
    S::new(-23, -8), S::new(-8, 1), S::new(0, -16), S::new(-1, -6), S::new(3, 0), S::new(2, 4), S::new(1, 7), S::new(11, 4),
    S::new(6, 10), S::new(5, 11), S::new(2, 3), S::new(3, 6), S::new(0, -1), S::new(0, -2),
    // mobility_rook
    S::new(-28, -17), S::new(-19, -17), S::new(-13, -10), S::new(-7, -5), S::new(-3, 0), S::new(0, -4), S::new(3, -1), S::new(5, 4),
    S::new(5, 8), S::new(11, 9), S::new(4, 11), S::new(9, 15), S::new(5, 9), S::new(1, 4), S::new(2, 6),
    // mobility_queen
    S::new(-9, 0), S::new(-11, -1), S::new(-2, -1), S::new(-2, -2), S::new(-4, -2), S::new(-2, -2), S::new(3, -2), S::new(0, -4),
    S::new(0, 0), S::new(4, 1), S::new(3, 1), S::new(1, 2), S::new(2, 1), S::new(7, 2), S::new(4, 2), S::new(2, 1),
    S::new(1, 1), S::new(1, 1), S::new(3, 2), S::new(1, 0), S::new(1, 1), S::new(1, 0), S::new(0, 0), S::new(0, -1),
    S::new(0, 0), S::new(0, -1), S::new(0, 0), S::new(0, 0),
    // isolated
    S::new(3, -13),
    // doubled
    S::new(-5, -15),
    // backward
    S::new(-3, -7),
    // connected
    S::new(0, 0), S::new(2, 5), S::new(2, 3), S::new(7, -6), S::new(10, 4), S::new(17, 17), S::new(1, 4), S::new(0, 0),
    // passed
    S::new(0, 0), S::new(4, 3), S::new(3, 5), S::new(0, 8), S::new(3, 7), S::new(3, 5), S::new(3, -1), S::new(0, 0),
    // passed_free
    S::new(0, 0), S::new(0, 2), S::new(-1, 0), S::new(-6, -1), S::new(5, 9), S::new(5, 9), S::new(5, 3), S::new(0, 0),
    // passed_own_king
    S::new(0, 0), S::new(-4, -6), S::new(2, -3), S::new(7, -7), S::new(2, -6), S::new(2, -4), S::new(7, -9), S::new(0, 0),
    // passed_their_king
    S::new(0, 0), S::new(3, 5), S::new(-6, 9), S::new(-12, 18), S::new(-3, 21), S::new(5, 27), S::new(9, 32), S::new(0, 0),
    // king_attack
    S::new(9, -2), S::new(14, -2), S::new(13, -3), S::new(13, 12),
    // king_attackers
    S::new(-6, 0), S::new(1, 3), S::new(4, 2), S::new(1, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    // shield
    S::new(11, -6), S::new(4, -7),
    // storm
    S::new(1, 7), S::new(-4, -1), S::new(5, -5), S::new(3, -2),
    // king_open
    S::new(-17, -11), S::new(-5, 15),
    // bishop_pair
    S::new(8, 18),
    // rook_open
    S::new(27, 0), S::new(17, 10),
    // queen_open
    S::new(6, 2), S::new(1, 1),
    // threat_by_pawn
    S::new(21, 2), S::new(14, 3), S::new(4, 2), S::new(5, 1),
    // threat_by_minor
    S::new(14, 5), S::new(12, 1),
    // threat_by_rook
    S::new(5, 1),
    // hanging
    S::new(21, 12),
    // tempo
    S::new(12, 2),
];
