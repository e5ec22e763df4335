//! Playing levels: `Skill Level` 0-20, or `UCI_LimitStrength` with `UCI_Elo`. Below level
//! 20 the engine uses the clock as at full strength but stops after a node budget that
//! doubles every two levels, then waits out the time the move would take. Below level 16
//! it also searches [`SKILL_LINES`] lines and plays the one whose score plus a random bonus
//! is highest: the lower the level, the fewer the nodes and the larger the bonus.
//! `UCI_Elo` picks a level, tenths included, from [`CALIBRATION`]: matches at 10+0.1
//! against engines with known CCRL Blitz ratings.

use crate::rng::Rng;
use crate::search::SearchInfo;

/// Full strength: no weakening.
pub const MAX_LEVEL: u8 = 20;
/// The weakest `UCI_Elo`...
pub const MIN_ELO: i64 = 1400;
/// ...and the strongest (at or above it: full strength).
pub const MAX_ELO: i64 = 3361;
/// A level that plays a random bonus looks at this many root moves at least.
pub const SKILL_LINES: usize = 4;
/// Full strength in tenths of a level.
const FULL_TENTHS: u32 = MAX_LEVEL as u32 * 10;
/// The node budget at level 0...
const BUDGET_NODES: f64 = 1_000.0;
/// ...doubled every this many tenths of a level.
const BUDGET_DOUBLING: f64 = 20.0;
/// Levels below this (in tenths) add a random bonus to each line's score...
const BONUS_TENTHS: u32 = 160;
/// ...of at most 3/8 cp per tenth of a level below [`BONUS_TENTHS`] (60 cp at level 0).
const BONUS_PER_TENTH: (u32, u32) = (3, 8);

/// Measured strength, as (CCRL Blitz Elo, level in tenths), weakest first: each point is a
/// 10+0.1 match of network 19 against a rated engine (docs/strength.md, *Playing levels*);
/// full strength's is Reckless 0.6.0's rating plus the measured difference (-25). `UCI_Elo`
/// interpolates; below the first point it plays the first point's level.
pub const CALIBRATION: [(i64, u32); 7] =
    [(1548, 20), (1856, 50), (1982, 70), (2536, 100), (2689, 120), (3071, 150), (MAX_ELO, 200)];

/// A playing level: 0 (weakest) to 20 (full strength), in tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    tenths: u32,
}

impl Skill {
    /// The level the options ask for: `UCI_Elo` when `limit_strength` is set, else `level`.
    pub fn new(limit_strength: bool, elo: i64, level: u8) -> Skill {
        let tenths = if limit_strength { tenths_for_elo(elo) } else { u32::from(level) * 10 };
        Skill { tenths: tenths.min(FULL_TENTHS) }
    }

    /// The level in tenths, 0 to 200.
    pub fn tenths(self) -> u32 {
        self.tenths
    }

    /// True at full strength.
    pub fn is_full(self) -> bool {
        self.tenths >= FULL_TENTHS
    }

    /// True where the level plays a line of its choosing (with a random bonus), not the
    /// search's best move.
    pub fn picks_lines(self) -> bool {
        self.spread() > 0
    }

    /// Lines to search when the user asks for `multi_pv`.
    pub fn lines(self, multi_pv: usize) -> usize {
        if self.picks_lines() { multi_pv.max(SKILL_LINES) } else { multi_pv }
    }

    /// The node budget of a move below full strength: 1,000 at level 0, doubling every two
    /// levels (32,000 at level 10, about 724,000 at level 19).
    pub fn node_budget(self) -> Option<u64> {
        let doublings = f64::from(self.tenths) / BUDGET_DOUBLING;
        (!self.is_full()).then(|| (BUDGET_NODES * doublings.exp2()).round() as u64)
    }

    /// The largest random bonus, in centipawns: 60 at level 0, 30 at level 8, none from 16.
    fn spread(self) -> u32 {
        BONUS_TENTHS.saturating_sub(self.tenths) * BONUS_PER_TENTH.0 / BONUS_PER_TENTH.1
    }

    /// The line to play among `lines` (best first): the best where the level adds no bonus,
    /// else the highest score after each line gets a random bonus of up to [`Self::spread`].
    pub fn choose<'a>(self, lines: &'a [SearchInfo], rng: &mut Rng) -> Option<&'a SearchInfo> {
        let spread = self.spread() as usize;
        let mut best: Option<(i32, &SearchInfo)> = None;
        for info in lines.iter().filter(|info| !info.pv.is_empty()) {
            let bonus = if spread == 0 { 0 } else { rng.below(spread + 1) as i32 };
            let value = info.score.saturating_add(bonus);
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, info));
            }
        }
        best.map(|(_, info)| info)
    }
}

/// The level in tenths for `elo`: a straight line between the two [`CALIBRATION`] points
/// around it; below the first, its level; above the last, full strength.
pub fn tenths_for_elo(elo: i64) -> u32 {
    let (first, last) = (CALIBRATION[0], CALIBRATION[CALIBRATION.len() - 1]);
    if elo <= first.0 {
        return first.1;
    }
    if elo >= last.0 {
        return FULL_TENTHS;
    }
    let pair = CALIBRATION.windows(2).find(|w| elo < w[1].0).expect("elo lies inside the table");
    let ((e0, t0), (e1, t1)) = (pair[0], pair[1]);
    let (t0, t1) = (i64::from(t0), i64::from(t1));
    (t0 + (elo - e0) * (t1 - t0) / (e1 - e0)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Counters;
    use crate::tt::Bound;
    use shakmaty::{Chess, Move, Position};

    fn lines(scores: &[i32]) -> (Vec<SearchInfo>, Vec<Move>) {
        let moves: Vec<Move> = Chess::default().legal_moves().into_iter().take(scores.len()).collect();
        let infos = scores
            .iter()
            .zip(&moves)
            .map(|(&score, &mv)| SearchInfo {
                depth: 5,
                score,
                counters: Counters { seldepth: 5, ..Counters::default() },
                bound: Bound::Exact,
                multipv: None,
                pv: vec![mv],
            })
            .collect();
        (infos, moves)
    }

    #[test]
    fn elo_maps_onto_the_levels_and_limit_strength_decides() {
        assert_eq!(tenths_for_elo(MIN_ELO - 500), CALIBRATION[0].1);
        assert_eq!(tenths_for_elo(MAX_ELO), 200);
        assert!(CALIBRATION.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1), "rising");
        assert!(tenths_for_elo(2000) < tenths_for_elo(2500));
        assert_eq!(Skill::new(false, MIN_ELO, 7).tenths(), 70, "UCI_Elo counts only with UCI_LimitStrength");
        assert!(CALIBRATION.iter().all(|&(elo, tenths)| tenths_for_elo(elo) == tenths), "through each point");
        let middle = tenths_for_elo((CALIBRATION[1].0 + CALIBRATION[2].0) / 2);
        assert!(
            middle.abs_diff((CALIBRATION[1].1 + CALIBRATION[2].1) / 2) <= 1,
            "halfway, to a tenth: {middle}"
        );
        assert_eq!(Skill::new(true, MIN_ELO, 20).tenths(), tenths_for_elo(MIN_ELO));
        assert!(!Skill::new(true, MIN_ELO, 20).is_full());
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
        assert_eq!(Skill::new(false, 0, 0).node_budget(), Some(1_000));
        assert_eq!(Skill::new(false, 0, 4).node_budget(), Some(4_000));
        assert_eq!(Skill::new(false, 0, 10).node_budget(), Some(32_000));
        assert_eq!(Skill::new(false, 0, 16).lines(1), 1, "no bonus from level 16, so one line");
        assert!(Skill::new(false, 0, 15).picks_lines() && !Skill::new(false, 0, 16).picks_lines());
        assert!(!full.picks_lines());
    }

    #[test]
    fn lower_levels_play_worse_moves_more_often() {
        let (infos, moves) = lines(&[50, 40, 20, -150]);
        let mut rng = Rng::new(9);
        let mut not_best = [0; 3];
        for (i, level) in [0, 8, 16].into_iter().enumerate() {
            let skill = Skill::new(false, 0, level);
            for _ in 0..1_000 {
                let mv = skill.choose(&infos, &mut rng).unwrap().pv[0];
                assert!(moves.contains(&mv), "a move of one of the lines");
                not_best[i] += usize::from(mv != moves[0]);
            }
        }
        assert!(not_best[0] > not_best[1] && not_best[1] > not_best[2], "{not_best:?}");
        assert!(not_best[0] > 300, "level 0 often plays another line: {not_best:?}");
        assert_eq!(not_best[2], 0, "level 16 adds no bonus");
    }
}
