//! Scores: centipawns from the side to move, with mates and tablebase wins above every
//! evaluation. The ground floor of the crate: it uses nothing else of ours.

/// Deepest ply the search reaches (search path plus quiescence); mate distances fit below it.
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// Score of mating at the root; mate at ply `n` scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Score of a drawn position.
pub const DRAW: i32 = 0;
/// Score of a tablebase win at the root, below the mate range; found at ply `n`, `TB_WIN - n`.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this are tablebase wins or mates (and below its negation, losses).
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Moves to mate (positive: we mate, negative: we are mated), for a mate score.
pub fn mate_in(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// A score in its stored form: mate (and tablebase win) distances from the node at `ply`,
/// not from the root, so the entry holds wherever the position is met again.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > TB_WIN_BOUND {
        score + ply as i32
    } else if score < -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score back as a score from the root, for a node at `ply`.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > TB_WIN_BOUND {
        score - ply as i32
    } else if score < -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves_and_stored_scores_round_trip() {
        assert_eq!(mate_in(MATE - 1), Some(1));
        assert_eq!(mate_in(MATE - 4), Some(2));
        assert_eq!(mate_in(-MATE + 2), Some(-1));
        assert_eq!(mate_in(TB_WIN), None);
        assert_eq!(mate_in(250), None);
        for score in [-MATE + 7, -TB_WIN + 3, -250, 0, 250, TB_WIN - 3, MATE - 7] {
            assert_eq!(score_from_tt(score_to_tt(score, 9), 9), score);
        }
        assert_eq!(score_from_tt(score_to_tt(MATE - 9, 5), 2), MATE - 6, "nearer the root, nearer the mate");
        const { assert!(TB_WIN_BOUND > MATE_BOUND - 2 * MAX_PLY as i32 && INFINITY > MATE) };
    }
}
