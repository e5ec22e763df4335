//! Evaluation weights in the `params` layout, written by `principia tune`; do not edit by hand.
//!
//! Tuned on 1869755 positions from 26877 self-play games (dg0-s1.txt, dg0-s2.txt, dg1-s11.txt, dg1-s12.txt, dg2-s21.txt, dg2-s22.txt), Adam (learning rate 1, L2 0),
//! K = 2.6134; the weights of epoch 72 of 300, where the loss on every tenth game's 206255 positions
//! (held out) was lowest: loss 0.107154 -> 0.105667, held-out loss 0.107878 -> 0.106693.

use super::Score as S;
use super::params::COUNT;

/// Middlegame/endgame value of every evaluation term.
#[rustfmt::skip]
pub static WEIGHTS: [S; COUNT] = [
    // material
    S::new(46, 88), S::new(291, 313), S::new(296, 332), S::new(394, 591), S::new(966, 1005),
    // pst
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(-2, 7), S::new(17, -1), S::new(3, 22), S::new(-5, 24),
    S::new(2, 4), S::new(11, 3), S::new(-1, 7), S::new(1, 19),
    S::new(-12, 23), S::new(-9, 17), S::new(-6, 6), S::new(11, 5),
    S::new(-2, 28), S::new(6, 8), S::new(-12, 8), S::new(9, 3),
    S::new(2, 35), S::new(46, 30), S::new(10, 34), S::new(-7, 44),
    S::new(53, 12), S::new(-14, 80), S::new(-7, 108), S::new(83, 66),
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(-35, -45), S::new(-23, -21), S::new(8, -38), S::new(-27, -30),
    S::new(-40, -21), S::new(-13, 0), S::new(-1, -29), S::new(-6, -1),
    S::new(-28, -38), S::new(-5, -5), S::new(-8, -9), S::new(9, -1),
    S::new(-19, -4), S::new(20, -13), S::new(-2, 25), S::new(0, 26),
    S::new(10, -5), S::new(4, 0), S::new(10, 34), S::new(7, 24),
    S::new(-17, 16), S::new(16, -1), S::new(1, 21), S::new(19, 12),
    S::new(-63, -4), S::new(-64, 20), S::new(-8, -9), S::new(-39, 21),
    S::new(-75, -62), S::new(-56, -32), S::new(-63, -11), S::new(3, -9),
    S::new(-7, -32), S::new(32, -19), S::new(-9, 1), S::new(-56, 10),
    S::new(-35, -34), S::new(5, -27), S::new(-2, -11), S::new(5, -6),
    S::new(-1, -29), S::new(1, 4), S::new(6, 0), S::new(-10, 21),
    S::new(-26, -23), S::new(-11, 12), S::new(11, 17), S::new(18, 14),
    S::new(-8, -25), S::new(4, 3), S::new(-8, 2), S::new(33, 14),
    S::new(2, 1), S::new(-17, 8), S::new(10, 13), S::new(40, -10),
    S::new(-54, 34), S::new(-27, 22), S::new(-31, 17), S::new(-51, 23),
    S::new(-58, 35), S::new(-26, -6), S::new(-60, -21), S::new(-35, 15),
    S::new(-11, -21), S::new(-15, -2), S::new(8, -18), S::new(14, -20),
    S::new(-35, -9), S::new(-38, -8), S::new(-31, 11), S::new(-11, -6),
    S::new(-16, -12), S::new(-27, 13), S::new(-17, 0), S::new(-16, 14),
    S::new(-25, 8), S::new(-43, 29), S::new(-32, 21), S::new(18, 9),
    S::new(-18, 15), S::new(-26, 25), S::new(33, 9), S::new(-1, 12),
    S::new(-13, 23), S::new(32, 16), S::new(41, 6), S::new(25, 13),
    S::new(-16, 34), S::new(-1, 20), S::new(28, 9), S::new(19, 11),
    S::new(7, 33), S::new(24, 17), S::new(28, 19), S::new(-31, 31),
    S::new(-12, 5), S::new(16, -64), S::new(14, -60), S::new(5, -56),
    S::new(-11, -54), S::new(-8, -47), S::new(17, -55), S::new(4, 7),
    S::new(-21, -17), S::new(5, -48), S::new(4, 9), S::new(-7, 27),
    S::new(-11, -43), S::new(-8, -14), S::new(-10, 27), S::new(-7, 52),
    S::new(-14, 31), S::new(-14, 24), S::new(-4, 52), S::new(-11, 65),
    S::new(-17, -10), S::new(2, 29), S::new(19, 15), S::new(-4, 47),
    S::new(-11, 13), S::new(-9, -14), S::new(-11, 44), S::new(13, 18),
    S::new(15, -56), S::new(-41, -32), S::new(-14, 16), S::new(15, 2),
    S::new(-2, -53), S::new(23, -47), S::new(3, -40), S::new(-1, -32),
    S::new(-23, -29), S::new(4, -21), S::new(-15, -12), S::new(-34, -8),
    S::new(6, -41), S::new(11, -8), S::new(-24, -2), S::new(-38, 0),
    S::new(-22, -30), S::new(-47, 2), S::new(-20, 1), S::new(-36, 2),
    S::new(-46, -15), S::new(-17, 11), S::new(-33, 14), S::new(-10, 0),
    S::new(-44, 2), S::new(-36, 24), S::new(-25, 37), S::new(-37, 22),
    S::new(-48, 14), S::new(-42, 41), S::new(-34, 49), S::new(-38, 41),
    S::new(-58, -15), S::new(-85, -37), S::new(-71, 21), S::new(-72, 21),
    // mobility_knight
    S::new(-24, -56), S::new(-14, -19), S::new(-6, 4), S::new(-5, 10), S::new(-1, 9), S::new(0, 23), S::new(3, 29), S::new(11, 19),
    S::new(12, 12),
    // mobility_bishop
    S::new(-23, -58), S::new(-15, -7), S::new(-8, -18), S::new(-5, 8), S::new(-1, 17), S::new(-2, 23), S::new(-1, 31), S::new(4, 27),
    S::new(-2, 36), S::new(-4, 36), S::new(-5, 35), S::new(-3, 34), S::new(-10, 25), S::new(8, 20),
    // mobility_rook
    S::new(-42, -63), S::new(-31, -34), S::new(-27, -20), S::new(-20, -11), S::new(-16, -2), S::new(-15, 6), S::new(-16, 15), S::new(-10, 21),
    S::new(-12, 26), S::new(-1, 30), S::new(-5, 29), S::new(-3, 36), S::new(-2, 39), S::new(-7, 35), S::new(39, 21),
    // mobility_queen
    S::new(-29, 28), S::new(-26, -52), S::new(-20, -39), S::new(-15, -51), S::new(-11, -51), S::new(-12, -41), S::new(-4, -12), S::new(-1, -30),
    S::new(-2, 21), S::new(3, 21), S::new(1, 34), S::new(-1, 46), S::new(3, 37), S::new(12, 32), S::new(11, 41), S::new(19, 37),
    S::new(27, 41), S::new(20, 36), S::new(26, 40), S::new(49, 25), S::new(38, 19), S::new(59, 3), S::new(39, 15), S::new(38, -42),
    S::new(24, -31), S::new(-25, -50), S::new(-20, -33), S::new(-26, -43),
    // isolated
    S::new(0, -14),
    // doubled
    S::new(2, -11),
    // backward
    S::new(-5, -10),
    // connected
    S::new(0, 0), S::new(0, 6), S::new(4, 7), S::new(12, 3), S::new(15, 10), S::new(51, 44), S::new(39, 53), S::new(0, 0),
    // passed
    S::new(0, 0), S::new(21, 21), S::new(38, 24), S::new(-6, 34), S::new(12, 42), S::new(20, -19), S::new(28, -25), S::new(0, 0),
    // passed_free
    S::new(0, 0), S::new(-12, 14), S::new(-1, 4), S::new(-32, 16), S::new(6, 27), S::new(34, 40), S::new(59, 29), S::new(0, 0),
    // passed_own_king
    S::new(0, 0), S::new(-7, 0), S::new(6, -4), S::new(9, -11), S::new(2, -13), S::new(2, -7), S::new(4, -11), S::new(0, 0),
    // passed_their_king
    S::new(0, 0), S::new(0, -1), S::new(-17, 5), S::new(-12, 16), S::new(-4, 21), S::new(-8, 37), S::new(-6, 48), S::new(0, 0),
    // king_attack
    S::new(11, -9), S::new(13, -3), S::new(10, -3), S::new(11, 18),
    // king_attackers
    S::new(-13, -2), S::new(0, -6), S::new(20, 5), S::new(35, -39), S::new(-28, -10), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    // shield
    S::new(14, -14), S::new(3, -9),
    // storm
    S::new(10, -2), S::new(-18, 3), S::new(1, -1), S::new(1, -3),
    // king_open
    S::new(-22, -14), S::new(-10, 11),
    // bishop_pair
    S::new(9, 50),
    // rook_open
    S::new(33, -14), S::new(13, 7),
    // queen_open
    S::new(3, -2), S::new(2, 8),
    // threat_by_pawn
    S::new(40, 30), S::new(44, 28), S::new(50, 15), S::new(33, -19),
    // threat_by_minor
    S::new(43, 10), S::new(36, 16),
    // threat_by_rook
    S::new(41, 30),
    // hanging
    S::new(16, 18),
    // tempo
    S::new(15, 4),
];
