//! Static evaluation: a tapered sum of tuned terms, scaled in drawish endgames,
//! from the side to move's point of view.

pub mod endgame;
pub mod params;
mod pawn_cache;
pub mod terms;
mod weights;

use endgame::{PHASE_MAX, SCALE_NORMAL};
use params::Section;
pub use pawn_cache::PawnCache;
use shakmaty::{Bitboard, Board, Chess, Color, Position};
use terms::Sink;
pub use weights::WEIGHTS;

/// A middlegame/endgame pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Value when all pieces are on the board.
    pub mg: i32,
    /// Value when only kings and pawns are left.
    pub eg: i32,
}

impl Score {
    /// Makes a pair from its two halves.
    pub const fn new(mg: i32, eg: i32) -> Self {
        Score { mg, eg }
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.mg += other.mg;
        self.eg += other.eg;
    }
}

impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, other: Score) -> Score {
        Score::new(self.mg - other.mg, self.eg - other.eg)
    }
}

/// Sums the weights of the terms, White's minus Black's, taking the pawn-only terms from
/// a cache when it has one.
#[derive(Default)]
struct Scorer<'a> {
    score: Score,
    pawns: Option<&'a mut PawnCache>,
}

impl Sink for Scorer<'_> {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let w = WEIGHTS[index];
        let count = if color == Color::White { count } else { -count };
        self.score.mg += w.mg * count;
        self.score.eg += w.eg * count;
    }

    fn pawn_structure(&mut self, board: &Board) -> [Bitboard; 2] {
        let (score, passers) = match self.pawns.as_deref_mut() {
            Some(cache) => cache.get(board, pawn_score),
            None => pawn_score(board),
        };
        self.score += score;
        passers
    }
}

/// The pawn-only terms of `board` summed (White minus Black), and the passed pawns.
fn pawn_score(board: &Board) -> (Score, [Bitboard; 2]) {
    let mut scorer = Scorer::default();
    let passers = terms::pawn_terms(board, &mut scorer);
    (scorer.score, passers)
}

/// How a position's terms add up to its score, from White's side.
#[derive(Clone, Debug, Default)]
pub struct Breakdown {
    /// White's and Black's sum per section, in `Section::ALL` order.
    pub sections: [[Score; 2]; 9],
    /// Game phase, 0 (bare endgame) to `PHASE_MAX`.
    pub phase: i32,
    /// Scale out of `SCALE_NORMAL` (drawish endgames score less).
    pub scale: i32,
    /// Bonus for driving a bare king to mate, from White's side.
    pub mop_up: i32,
    /// The final score from White's side.
    pub white: i32,
}

impl Sink for Breakdown {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let section = params::group_of(index).section;
        let row = Section::ALL.iter().position(|&s| s == section).expect("section listed");
        let w = WEIGHTS[index];
        let side = if color == Color::White { 0 } else { 1 };
        self.sections[row][side] += Score::new(w.mg * count, w.eg * count);
    }
}

/// Every term's count, White's minus Black's: the evaluation as a linear function of the weights.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Count per weight index.
    pub counts: [i32; params::COUNT],
    /// Game phase, 0 (bare endgame) to `PHASE_MAX`.
    pub phase: i32,
    /// Scale out of `SCALE_NORMAL`, with the current weights.
    pub scale: i32,
    /// Whether a mop-up bonus (not tuned) applies.
    pub mop_up: bool,
}

impl Sink for Trace {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.counts[index] += if color == Color::White { count } else { -count };
    }
}

/// The term counts of `pos`, with its phase and scale.
pub fn trace(pos: &Chess) -> Trace {
    let mut t = Trace { counts: [0; params::COUNT], phase: 0, scale: 0, mop_up: false };
    terms::terms(pos, &mut t);
    let mut scorer = Scorer::default();
    terms::terms(pos, &mut scorer);
    let (_, phase, scale, mop_up) = finish(pos, scorer.score);
    (t.phase, t.scale, t.mop_up) = (phase, scale, mop_up != 0);
    t
}

/// Blends a middlegame/endgame pair by phase, then scales it (drawish endgames).
pub fn taper(score: Score, phase: i32, scale: i32) -> i32 {
    (score.mg * phase + score.eg * (PHASE_MAX - phase)) / PHASE_MAX * scale / SCALE_NORMAL
}

/// Phase, scale and mop-up bonus applied to a White-minus-Black sum: the score from White's side.
fn finish(pos: &Chess, score: Score) -> (i32, i32, i32, i32) {
    let board = pos.board();
    let phase = endgame::phase(board);
    let strong = if score.eg >= 0 { Color::White } else { Color::Black };
    let scale = endgame::scale(board, strong);
    let mop_up = endgame::mop_up(board, strong).map_or(0, |b| if strong == Color::White { b } else { -b });
    (taper(score, phase, scale) + mop_up, phase, scale, mop_up)
}

/// Evaluates `pos` in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Chess) -> i32 {
    score(pos, Scorer::default())
}

/// Evaluates `pos` as [`evaluate`] does, with the pawn-only terms kept in `pawns`.
pub fn evaluate_cached(pos: &Chess, pawns: &mut PawnCache) -> i32 {
    score(pos, Scorer { score: Score::default(), pawns: Some(pawns) })
}

fn score(pos: &Chess, mut scorer: Scorer) -> i32 {
    terms::terms(pos, &mut scorer);
    let (white, ..) = finish(pos, scorer.score);
    if pos.turn() == Color::White { white } else { -white }
}

/// The evaluation of `pos` term group by term group.
pub fn breakdown(pos: &Chess) -> Breakdown {
    let mut b = Breakdown::default();
    terms::terms(pos, &mut b);
    let total = b.sections.iter().fold(Score::default(), |mut t, [w, k]| {
        t += *w - *k;
        t
    });
    (b.white, b.phase, b.scale, b.mop_up) = finish(pos, total);
    b
}

impl std::fmt::Display for Breakdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{:>14} | {:>13} | {:>13} | {:>13}", "term", "White", "Black", "Total")?;
        writeln!(
            f,
            "{:>14} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
            "", "mg", "eg", "mg", "eg", "mg", "eg"
        )?;
        for (section, [w, b]) in Section::ALL.iter().zip(&self.sections) {
            let t = *w - *b;
            writeln!(
                f,
                "{:>14} | {:>6} {:>6} | {:>6} {:>6} | {:>6} {:>6}",
                section.name(),
                w.mg,
                w.eg,
                b.mg,
                b.eg,
                t.mg,
                t.eg
            )?;
        }
        writeln!(
            f,
            "phase {}/{PHASE_MAX}, scale {}/{SCALE_NORMAL}, mop-up {}",
            self.phase, self.scale, self.mop_up
        )?;
        write!(f, "Final evaluation: {} (White's side)", self.white)
    }
}

#[cfg(test)]
mod tests;
