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

/// A stored score back as a score from the root, for a node at `ply` whose fifty-move
/// counter stands at `halfmoves`. A mate or tablebase win farther from the node than the
/// counter leaves may be spoilt by the rule, so it reads as a plain win (Stockfish's rule).
pub fn score_from_tt(score: i32, ply: usize, halfmoves: u32) -> i32 {
    let distance = |s: i32| if s > MATE_BOUND { MATE - s } else { TB_WIN - s };
    let left = 100 - halfmoves.min(100) as i32;
    if score > TB_WIN_BOUND {
        if distance(score) > left { TB_WIN_BOUND - 1 } else { score - ply as i32 }
    } else if score < -TB_WIN_BOUND {
        if distance(-score) > left { -(TB_WIN_BOUND - 1) } else { score + ply as i32 }
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
        // Mates and tablebase wins found at ply 5, so at least 5 plies from the root.
        for score in [-MATE + 7, -TB_WIN + 8, -250, 0, 250, TB_WIN - 8, MATE - 7] {
            assert_eq!(score_from_tt(score_to_tt(score, 5), 5, 0), score);
        }
        assert_eq!(
            score_from_tt(score_to_tt(MATE - 9, 5), 2, 0),
            MATE - 6,
            "nearer the root, nearer the mate"
        );
    }

    #[test]
    fn a_stored_mate_beyond_the_fifty_move_rule_reads_as_a_plain_win() {
        // Mate in 4 plies from the node: sure with 96 halfmoves played, not with 97.
        assert_eq!(score_from_tt(MATE - 4, 3, 96), MATE - 7);
        assert_eq!(score_from_tt(MATE - 4, 3, 97), TB_WIN_BOUND - 1);
        assert_eq!(score_from_tt(-(MATE - 4), 3, 97), -(TB_WIN_BOUND - 1));
        assert_eq!(score_from_tt(TB_WIN - 10, 2, 91), TB_WIN_BOUND - 1);
        assert_eq!(score_from_tt(TB_WIN - 10, 2, 90), TB_WIN - 12);
        assert_eq!(score_from_tt(250, 2, 100), 250);
        const { assert!(TB_WIN_BOUND > MATE_BOUND - 2 * MAX_PLY as i32 && INFINITY > MATE) };
    }
}
