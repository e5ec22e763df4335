//! Playing levels: `Skill Level` 0-20, or `UCI_LimitStrength` with `UCI_Elo`. Below level
//! 20 the engine searches as usual, with the clock used as at full strength and at least
//! [`SKILL_LINES`] lines, then plays the line whose score plus a random bonus is highest:
//! the lower the level, the larger the bonus, so the more often a worse move. The lowest
//! levels also stop after a node budget and then wait out the time the move would take.

use crate::rng::Rng;
use crate::search::SearchInfo;

/// Full strength: no weakening.
pub const MAX_LEVEL: u8 = 20;
/// The weakest `UCI_Elo`...
pub const MIN_ELO: i64 = 1400;
/// ...and the strongest (at or above it: full strength).
pub const MAX_ELO: i64 = 2900;
/// A weakened search looks at this many root moves at least, to have some to choose from.
pub const SKILL_LINES: usize = 4;
/// The random bonus at level `L` is at most `(20 - L)` times this, in centipawns.
const BONUS_PER_LEVEL: i32 = 25;
/// Levels below this stop after a node budget...
const BUDGET_LEVELS: u8 = 10;
/// ...of this many nodes at level 0, doubled at each level above.
const BUDGET_NODES: u64 = 200;

/// A playing level: 0 (weakest) to 20 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u8,
}

impl Skill {
    /// The level the options ask for: `UCI_Elo` when `limit_strength` is set, else `level`.
    pub fn new(limit_strength: bool, elo: i64, level: u8) -> Skill {
        let level = if limit_strength { level_for_elo(elo) } else { level };
        Skill { level: level.min(MAX_LEVEL) }
    }

    /// The level, 0 to 20.
    pub fn level(self) -> u8 {
        self.level
    }

    /// True at full strength.
    pub fn is_full(self) -> bool {
        self.level >= MAX_LEVEL
    }

    /// Lines to search when the user asks for `multi_pv`.
    pub fn lines(self, multi_pv: usize) -> usize {
        if self.is_full() { multi_pv } else { multi_pv.max(SKILL_LINES) }
    }

    /// The node budget of a move, at the lowest levels.
    pub fn node_budget(self) -> Option<u64> {
        (self.level < BUDGET_LEVELS).then(|| BUDGET_NODES << self.level)
    }

    /// The line to play among `lines` (best first): the best at full strength, else the
    /// highest score after each line gets a random bonus of up to `(20 - level) * 25` cp.
    pub fn choose<'a>(self, lines: &'a [SearchInfo], rng: &mut Rng) -> Option<&'a SearchInfo> {
        let spread = i32::from(MAX_LEVEL - self.level) * BONUS_PER_LEVEL;
        let mut best: Option<(i32, &SearchInfo)> = None;
        for info in lines.iter().filter(|info| !info.pv.is_empty()) {
            let bonus = if spread == 0 { 0 } else { rng.below(spread as usize + 1) as i32 };
            let value = info.score.saturating_add(bonus);
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, info));
            }
        }
        best.map(|(_, info)| info)
    }
}

/// The level for `elo`: provisional, a straight line from level 0 at [`MIN_ELO`] to level
/// 20 at [`MAX_ELO`], until matches against rated engines calibrate it.
pub fn level_for_elo(elo: i64) -> u8 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    ((elo - MIN_ELO) * i64::from(MAX_LEVEL) / (MAX_ELO - MIN_ELO)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::Bound;
    use shakmaty::{Chess, Move, Position};

    fn lines(scores: &[i32]) -> (Vec<SearchInfo>, Vec<Move>) {
        let moves: Vec<Move> = Chess::default().legal_moves().into_iter().take(scores.len()).collect();
        let infos = scores
            .iter()
            .zip(&moves)
            .map(|(&score, &mv)| SearchInfo {
                depth: 5,
                seldepth: 5,
                score,
                nodes: 0,
                time_ms: 0,
                hashfull: None,
                tbhits: None,
                bound: Bound::Exact,
                multipv: None,
                pv: vec![mv],
            })
            .collect();
        (infos, moves)
    }

    #[test]
    fn elo_maps_onto_the_levels_and_limit_strength_decides() {
        assert_eq!(level_for_elo(MIN_ELO - 500), 0);
        assert_eq!(level_for_elo(MAX_ELO), MAX_LEVEL);
        assert!(level_for_elo(2000) < level_for_elo(2500));
        assert_eq!(Skill::new(false, MIN_ELO, 7).level(), 7, "UCI_Elo counts only with UCI_LimitStrength");
        assert_eq!(Skill::new(true, MIN_ELO, 20).level(), 0);
        assert!(Skill::new(false, MIN_ELO, 20).is_full());
    }

    #[test]
    fn full_strength_plays_the_best_line_and_searches_as_asked() {
        let (infos, moves) = lines(&[50, 40, -300]);
        let full = Skill::new(false, 0, MAX_LEVEL);
        let mut rng = Rng::new(1);
        assert!((0..100).all(|_| full.choose(&infos, &mut rng).map(|i| i.pv[0]) == Some(moves[0])));
        assert_eq!((full.lines(1), full.node_budget()), (1, None));
        let weak = Skill::new(false, 0, 3);
        assert_eq!((weak.lines(1), weak.lines(6)), (SKILL_LINES, 6));
        assert_eq!(weak.node_budget(), Some(BUDGET_NODES << 3));
        assert_eq!(Skill::new(false, 0, 12).node_budget(), None);
    }

    #[test]
    fn lower_levels_play_worse_moves_more_often() {
        let (infos, moves) = lines(&[50, 20, -40, -150]);
        let mut rng = Rng::new(9);
        let mut not_best = [0; 3];
        for (i, level) in [0, 10, 19].into_iter().enumerate() {
            let skill = Skill::new(false, 0, level);
            for _ in 0..1_000 {
                let mv = skill.choose(&infos, &mut rng).unwrap().pv[0];
                assert!(moves.contains(&mv), "a move of one of the lines");
                not_best[i] += usize::from(mv != moves[0]);
            }
        }
        assert!(not_best[0] > not_best[1] && not_best[1] > not_best[2], "{not_best:?}");
        assert!(not_best[0] > 400, "level 0 often plays another line: {not_best:?}");
    }
}
