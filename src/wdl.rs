//! The win/draw/loss model: the chance of each result for a score at a given material,
//! fitted on games by `principia wdl-fit` (`tools/wdlfit.rs`), as Stockfish's model is.
//!
//! At material `m` (pawn 1, knight and bishop 3, rook 5, queen 9, both sides, held within
//! 17..=78) the side to move wins with chance `1 / (1 + exp((a - score) / b))` and loses
//! with the same curve at `-score`; a draw is the rest. `a` and `b` are cubics in `m / 58`.
//! `a` is the score that wins as often as not, so `100 * score / a` is the score in
//! normalised centipawns: +100 is a 50% win whichever net is loaded. Only what is printed
//! is normalised; the search keeps its own units.

use crate::score::{TB_WIN_BOUND, mate_in};
use shakmaty::Board;

/// Material below this counts as this much (the fit has too few games below it).
pub const MIN_MATERIAL: i32 = 17;
/// Material above this counts as this much (the start position has 78).
pub const MAX_MATERIAL: i32 = 78;
/// Material is fed to the cubics as `m / MATERIAL_UNIT`.
pub const MATERIAL_UNIT: f64 = 58.0;

/// The cubic for `a`, the score of an even chance to win (highest power first).
pub const MIDPOINT: [f64; 4] = [-284.891, 831.271, -824.042, 367.526];
/// The cubic for `b`, the spread of the win curve (highest power first).
pub const SPREAD: [f64; 4] = [-20.448, 73.620, -73.799, 77.498];

/// The model's material count of a position: pawn 1, minor 3, rook 5, queen 9, both sides.
pub fn material(board: &Board) -> i32 {
    let count = |bb: shakmaty::Bitboard| bb.count() as i32;
    count(board.pawns())
        + 3 * count(board.knights() | board.bishops())
        + 5 * count(board.rooks())
        + 9 * count(board.queens())
}

/// A cubic with coefficients `c` (highest power first) at `t`.
pub fn cubic(c: &[f64; 4], t: f64) -> f64 {
    ((c[0] * t + c[1]) * t + c[2]) * t + c[3]
}

/// The model's `(a, b)` at `material`: the even-chance score and the spread, in the
/// engine's centipawns.
pub fn params(material: i32) -> (f64, f64) {
    let t = f64::from(material.clamp(MIN_MATERIAL, MAX_MATERIAL)) / MATERIAL_UNIT;
    (cubic(&MIDPOINT, t).max(1.0), cubic(&SPREAD, t).max(1.0))
}

/// The chance to win with `score` (engine centipawns) for the curve `(a, b)`.
pub fn win_chance(score: f64, (a, b): (f64, f64)) -> f64 {
    1.0 / (1.0 + ((a - score) / b).exp())
}

/// Win, draw and loss chances in per mille for `score` at `material`; mates are certain.
pub fn wdl(score: i32, material: i32) -> (u32, u32, u32) {
    match mate_in(score) {
        Some(n) if n > 0 => return (1000, 0, 0),
        Some(_) => return (0, 0, 1000),
        None => {}
    }
    let curve = params(material);
    let per_mille = |s: i32| (1000.0 * win_chance(f64::from(s), curve)).round() as u32;
    let (w, l) = (per_mille(score), per_mille(-score));
    (w, 1000 - w - l, l)
}

/// `score` in normalised centipawns (+100: a 50% win) at `material`; tablebase wins and
/// mates are left as they are, and no other score is scaled into their range.
pub fn normalised_cp(score: i32, material: i32) -> i32 {
    if score.abs() >= TB_WIN_BOUND {
        return score;
    }
    let (a, _) = params(material);
    let bound = f64::from(TB_WIN_BOUND - 1);
    (100.0 * f64::from(score) / a).round().clamp(-bound, bound) as i32
}

/// The engine's score for normalised centipawns `cp` at `material`: the inverse of
/// `normalised_cp`, for reading scores back from games (`convert`).
pub fn engine_score(cp: i32, material: i32) -> i32 {
    if cp.abs() >= TB_WIN_BOUND {
        return cp;
    }
    let (a, _) = params(material);
    (f64::from(cp) * a / 100.0).round().clamp(f64::from(-TB_WIN_BOUND + 1), f64::from(TB_WIN_BOUND - 1))
        as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{MATE, TB_WIN};
    use shakmaty::{Chess, Position};

    #[test]
    fn material_counts_the_start_position_as_78() {
        assert_eq!(material(Chess::default().board()), MAX_MATERIAL);
    }

    #[test]
    fn wdl_is_a_symmetric_per_mille_model_at_every_material() {
        for m in [4, MIN_MATERIAL, 40, MAX_MATERIAL] {
            for cp in [-900, -250, -40, 0, 1, 40, 250, 900] {
                let (w, d, l) = wdl(cp, m);
                assert_eq!(w + d + l, 1000, "{cp} at {m}");
                assert_eq!(wdl(-cp, m), (l, d, w), "{cp} at {m}");
            }
            assert!(wdl(100, m).0 < wdl(300, m).0);
            assert_eq!(wdl(MATE - 3, m), (1000, 0, 0));
            assert_eq!(wdl(-MATE + 2, m), (0, 0, 1000));
        }
        let (w, d, l) = wdl(0, MAX_MATERIAL);
        assert!(w == l && d > w, "an equal position is drawn more often than won");
    }

    #[test]
    fn normalised_hundred_is_an_even_chance_to_win() {
        for m in [MIN_MATERIAL, 30, 50, MAX_MATERIAL] {
            let (a, b) = params(m);
            let score = engine_score(100, m);
            assert!((win_chance(f64::from(score), (a, b)) - 0.5).abs() < 0.01, "{m}");
            // One engine centipawn is more than one normalised one where `a` is below 100.
            assert!((normalised_cp(score, m) - 100).abs() <= 1, "{m}");
            assert_eq!(normalised_cp(-score, m), -normalised_cp(score, m), "{m}");
        }
        assert_eq!(normalised_cp(0, 40), 0);
        assert_eq!(normalised_cp(TB_WIN - 5, 40), TB_WIN - 5, "tablebase wins keep their distance");
        assert_eq!(engine_score(-(TB_WIN - 5), 40), -(TB_WIN - 5));
        // A huge evaluation (a loaded net's) is not scaled into the tablebase or mate range.
        let huge = TB_WIN_BOUND - 1;
        assert_eq!(normalised_cp(huge, MAX_MATERIAL), huge);
        assert_eq!(normalised_cp(-huge, MAX_MATERIAL), -huge);
    }

    #[test]
    fn normalising_and_back_lands_within_a_centipawn_step() {
        for m in [MIN_MATERIAL, 45, MAX_MATERIAL] {
            let (a, _) = params(m);
            for score in (-2000..=2000).step_by(37) {
                let back = engine_score(normalised_cp(score, m), m);
                assert!(f64::from((back - score).abs()) <= a / 200.0 + 1.0, "{score} at {m}: {back}");
            }
        }
    }
}
