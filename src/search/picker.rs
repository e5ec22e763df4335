//! The strong search's staged move picker: each move is found, checked and scored only
//! when the search gets that far, so a node that the first move settles generates
//! nothing else.
//!
//! Stages, in order: the previous iteration's PV move; the hash move; captures and queen
//! promotions by MVV-LVA and capture history, each checked by SEE as it comes up (one
//! that loses material is put aside); the two killers; the remaining moves (quiet moves
//! by their histories, underpromotions last); the captures put aside. Every move is
//! handed out once, and a move is handed out only if it is legal.

use super::history::{Histories, QuietContext, threats};
use super::movegen::{add_noisy_moves, add_quiet_moves, legal_move};
use super::ordering::{is_noisy, mvv_lva};
use super::params::CAPTURE_HISTORY_DIVISOR;
use super::see::see_ge;
use crate::tt::PackedMove;
use arrayvec::ArrayVec;
use shakmaty::{Bitboard, Chess, Move, MoveList, Position};

/// Underpromotions that capture nothing come after every quiet move.
const UNDERPROMOTION_SCORE: i32 = -1_000_000;

/// Where the picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    PvMove,
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    FirstKiller,
    SecondKiller,
    GenerateQuiets,
    Quiets,
    BadNoisy,
    Done,
}

/// Hands out the moves of one node, best first (see the module's stages).
pub struct StagedPicker<'a> {
    pos: &'a Chess,
    /// Every legal move, where the node has them already (the root, in check): the
    /// stages then take their moves from it instead of generating.
    all: Option<&'a MoveList>,
    stage: Stage,
    pv_move: Option<Move>,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    /// What the quiet histories are read by; its threats only once `threats_known`.
    context: QuietContext,
    threats_known: bool,
    moves: MoveList,
    /// The score of each move in `moves`, at the same index (filled as they are generated).
    scores: ArrayVec<i32, 256>,
    next: usize,
    bad: MoveList,
    next_bad: usize,
    handed_out: usize,
    /// Quiescence out of check: only the captures that do not lose material by SEE.
    captures_only: bool,
    /// Late move pruning has begun: the quiet moves left come as they lie, unordered.
    quiets_unordered: bool,
}

impl<'a> StagedPicker<'a> {
    /// A picker for `pos`. `all` holds every legal move where the node generated them
    /// (the root's, less those `searchmoves` and MultiPV leave out); `tt_move` must be one
    /// of them (see `legal_tt_move`); `pv_move` and the `killers` are checked here.
    /// `rows` are the continuation-history rows the quiet histories are read by (see
    /// `Histories::quiet_score`); the opponent's threats are found when first needed.
    pub fn new(
        pos: &'a Chess,
        all: Option<&'a MoveList>,
        pv_move: Option<Move>,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        rows: [Option<usize>; 2],
    ) -> Self {
        let pv_move = pv_move.filter(|&mv| legal(pos, all, mv));
        StagedPicker {
            pos,
            all,
            stage: Stage::PvMove,
            pv_move,
            tt_move: tt_move.filter(|&mv| Some(mv) != pv_move),
            killers,
            context: QuietContext { moves: rows, threats: Bitboard::EMPTY },
            threats_known: false,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            bad: MoveList::new(),
            next_bad: 0,
            handed_out: 0,
            captures_only: false,
            quiets_unordered: false,
        }
    }

    /// A picker for quiescence out of check: the hash move when it is a capture or queen
    /// promotion that does not lose material by SEE, then the other such captures, best
    /// first. `tt_move` must be legal (see `legal_tt_move`).
    pub fn captures(pos: &'a Chess, tt_move: Option<Move>) -> Self {
        let tt_move = tt_move.filter(|&mv| is_noisy(mv) && see_ge(pos, mv, 0));
        StagedPicker {
            captures_only: true,
            ..StagedPicker::new(pos, None, None, tt_move, [None; 2], [None; 2])
        }
    }

    /// Late move pruning skips the quiet moves from here on (but checks): the rest of them
    /// need no ordering.
    pub fn stop_ordering_quiets(&mut self) {
        self.quiets_unordered = true;
    }

    /// What this node's quiet histories are read and learnt by. The opponent's threats
    /// are found the first time they are asked for: most nodes end before a quiet move.
    pub fn quiet_context(&mut self) -> QuietContext {
        if !self.threats_known {
            self.context.threats = threats(self.pos);
            self.threats_known = true;
        }
        self.context
    }

    /// How many moves have been handed out so far.
    pub fn handed_out(&self) -> usize {
        self.handed_out
    }

    /// The next move, or `None` when every legal move has been handed out. `history` scores
    /// the captures and quiet moves as their stages begin.
    pub fn next(&mut self, history: &Histories) -> Option<Move> {
        let mv = self.find(history)?;
        self.handed_out += 1;
        Some(mv)
    }

    /// The stages in order, each falling through to the next once it has no move left:
    /// tested one after another, not dispatched by a jump table, whose one indirect jump
    /// mispredicted about twice a node.
    fn find(&mut self, history: &Histories) -> Option<Move> {
        if self.stage == Stage::PvMove {
            self.stage = Stage::TtMove;
            if self.pv_move.is_some() {
                return self.pv_move;
            }
        }
        if self.stage == Stage::TtMove {
            self.stage = Stage::GenerateNoisy;
            if self.tt_move.is_some() {
                return self.tt_move;
            }
        }
        if self.stage == Stage::GenerateNoisy {
            self.generate_noisy(history);
            self.stage = Stage::GoodNoisy;
        }
        if self.stage == Stage::GoodNoisy {
            while let Some(mv) = self.best_left() {
                if see_ge(self.pos, mv, 0) {
                    return Some(mv);
                }
                // A capture that loses material waits for the last stage.
                self.bad.push(mv);
            }
            self.stage = if self.captures_only { Stage::Done } else { Stage::FirstKiller };
        }
        if self.stage == Stage::FirstKiller {
            self.stage = Stage::SecondKiller;
            if let Some(killer) = self.fresh_killer(0) {
                return Some(killer);
            }
        }
        if self.stage == Stage::SecondKiller {
            self.stage = Stage::GenerateQuiets;
            if let Some(killer) = self.fresh_killer(1) {
                return Some(killer);
            }
        }
        if self.stage == Stage::GenerateQuiets {
            self.generate_quiets(history);
            self.stage = Stage::Quiets;
        }
        if self.stage == Stage::Quiets {
            let mv = if self.quiets_unordered { self.next_as_listed() } else { self.best_left() };
            if mv.is_some() {
                return mv;
            }
            self.stage = Stage::BadNoisy;
        }
        if self.stage == Stage::BadNoisy {
            if let Some(&mv) = self.bad.get(self.next_bad) {
                self.next_bad += 1;
                return Some(mv);
            }
            self.stage = Stage::Done;
        }
        None
    }

    /// The next move of the current list as it lies, unordered.
    #[inline(always)]
    fn next_as_listed(&mut self) -> Option<Move> {
        let mv = self.moves.get(self.next).copied();
        self.next += usize::from(mv.is_some());
        mv
    }

    /// True for a move handed out in the first two stages.
    fn is_first(&self, mv: Move) -> bool {
        Some(mv) == self.pv_move || Some(mv) == self.tt_move
    }

    /// The `i`th killer, if it was not handed out yet and is a legal quiet move here.
    fn fresh_killer(&self, i: usize) -> Option<Move> {
        let killer = self.killers[i]?;
        let repeated = i == 1 && self.killers[0] == Some(killer);
        if repeated || self.is_first(killer) || is_noisy(killer) {
            return None;
        }
        legal(self.pos, self.all, killer).then_some(killer)
    }

    /// Captures and queen promotions, less those already handed out, scored by MVV-LVA
    /// and capture history.
    fn generate_noisy(&mut self, history: &Histories) {
        self.moves.clear();
        self.next = 0;
        match self.all {
            Some(all) => self.moves.extend(all.iter().copied().filter(|&mv| is_noisy(mv))),
            None => add_noisy_moves(self.pos, &mut self.moves),
        }
        self.drop_handed_out([self.pv_move, self.tt_move, None, None], true);
        let color = self.pos.turn();
        self.scores.clear();
        let score = |mv| mvv_lva(mv) + history.capture_score(color, mv) / CAPTURE_HISTORY_DIVISOR;
        self.scores.extend(self.moves.iter().map(|&mv| score(mv)));
    }

    /// Every legal move not handed out yet and not noisy: quiet moves by their histories,
    /// underpromotions last.
    fn generate_quiets(&mut self, history: &Histories) {
        self.moves.clear();
        self.scores.clear();
        self.next = 0;
        match self.all {
            Some(all) => self.moves.extend(all.iter().copied().filter(|&mv| !is_noisy(mv))),
            None => add_quiet_moves(self.pos, &mut self.moves),
        }
        self.drop_handed_out([self.pv_move, self.tt_move, self.killers[0], self.killers[1]], false);
        let context = self.quiet_context();
        let scorer = history.quiet_scorer(self.pos.turn(), context);
        let score = |mv: Move| if mv.is_promotion() { UNDERPROMOTION_SCORE } else { scorer.score(mv) };
        self.scores.extend(self.moves.iter().map(|&mv| score(mv)));
    }

    /// Takes the moves of `handed` (the first stages' moves of the list's kind, noisy or
    /// not) out of the list just generated, keeping the others' order.
    fn drop_handed_out(&mut self, handed: [Option<Move>; 4], noisy: bool) {
        let handed: ArrayVec<Move, 4> =
            handed.into_iter().flatten().filter(|&mv| is_noisy(mv) == noisy).collect();
        if handed.is_empty() {
            return;
        }
        // Most moves start from or go to a square none of them does: that settles them cheaply.
        let from: Bitboard = handed.iter().filter_map(|mv| mv.from()).collect();
        let to: Bitboard = handed.iter().map(|mv| mv.to()).collect();
        self.moves.retain(|mv| {
            let near = to.contains(mv.to()) && mv.from().is_some_and(|sq| from.contains(sq));
            !near || !handed.contains(mv)
        });
    }

    /// The best-scored move left in the current list (the first of equals), taken out of it.
    #[inline(always)]
    fn best_left(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let best = self.next + first_best(&self.scores[self.next..n]);
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

/// The index of the first of the highest `scores` (0 for none). Long lists go to a copy
/// compiled for AVX2 where the CPU has it: x86-64's baseline, SSE2, has no `pmaxsd`.
#[inline(always)]
fn first_best(scores: &[i32]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if scores.len() >= FIRST_BEST_AVX2_LEN && crate::simd::avx2() {
        // SAFETY: `simd::avx2` is true only where the CPU has AVX2.
        return unsafe { first_best_avx2(scores) };
    }
    first_best_body(scores)
}

/// Lists at least this long are searched by the AVX2 copy: shorter, the call costs more
/// (callgrind on datagen: 4 beat 2, 8 and 16).
#[cfg(target_arch = "x86_64")]
const FIRST_BEST_AVX2_LEN: usize = 4;

/// [`first_best`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn first_best_avx2(scores: &[i32]) -> usize {
    first_best_body(scores)
}

/// The first of the highest scores in one pass without branches: each score is packed with
/// its place, counted down from 255, into one key, so the highest key is the first of the
/// highest scores. A list holds at most 256 moves, and every score the picker gives lies
/// within 2^23 of zero (histories, MVV-LVA, the underpromotions' -1,000,000).
#[inline(always)]
fn first_best_body(scores: &[i32]) -> usize {
    debug_assert!(scores.len() <= 256 && scores.iter().all(|s| s.abs() < 1 << 23));
    if scores.is_empty() {
        return 0;
    }
    let best = scores.iter().zip(0..).map(|(&score, i)| (score << 8) | (255 - i)).fold(i32::MIN, i32::max);
    255 - (best & 255) as usize
}

/// True when `mv` is a legal move of `pos`: one of `all`, where the node has them.
fn legal(pos: &Chess, all: Option<&MoveList>, mv: Move) -> bool {
    match (all, mv.from()) {
        (Some(all), _) => all.contains(&mv),
        (None, Some(from)) => legal_move(pos, from, mv.to(), mv.promotion()) == Some(mv),
        (None, None) => false,
    }
}

/// The legal move of `pos` that the hash move `packed` names, if there is one (a hash
/// move may come from another position with the same key): looked up in `all`, every
/// legal move, where the node has them (in check they always do).
pub fn legal_tt_move(pos: &Chess, all: Option<&MoveList>, packed: PackedMove) -> Option<Move> {
    match all {
        Some(all) => all.iter().copied().find(|&mv| packed.matches(mv)),
        None => {
            let (from, to, promotion) = packed.squares();
            legal_move(pos, from, to, promotion)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn the_avx2_first_best_equals_the_portable_one() {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::avx2() {
            let mut rng = Rng::new(11);
            for len in 0..80 {
                // Few distinct scores, so ties for the best are common.
                let scores: Vec<i32> = (0..len).map(|_| rng.below(7) as i32 * 1_000 - 3_000).collect();
                // SAFETY: `simd::avx2` is true only where the CPU has AVX2.
                let simd = unsafe { first_best_avx2(&scores) };
                assert_eq!(simd, first_best_body(&scores), "{scores:?}");
            }
        }
    }
    use shakmaty::{CastlingMode, Role, Square, fen::Fen};

    const STARTS: [(&str, CastlingMode); 4] = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
        ("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", CastlingMode::Chess960),
    ];

    /// Visits the positions of random games from each start (captures preferred, so they
    /// reach promotions, en passant and checks), with a move of an earlier position.
    fn along_random_games(seed: u64, mut visit: impl FnMut(&Chess, Move)) {
        let mut rng = Rng::new(seed);
        for (fen, mode) in STARTS {
            let start: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
            for _ in 0..60 {
                // A move of the same side two plies back: often still legal, often not.
                let (mut pos, mut stale) = (start.clone(), [None, None]);
                for _ in 0..100 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    if let Some(other) = stale[0] {
                        visit(&pos, other);
                    }
                    let captures: MoveList = moves.iter().copied().filter(|m| m.is_capture()).collect();
                    let pool = if captures.is_empty() || rng.below(3) == 0 { &moves } else { &captures };
                    let mv = pool[rng.below(pool.len())];
                    stale = [stale[1], Some(moves[rng.below(moves.len())])];
                    pos.play_unchecked(mv);
                }
            }
        }
    }

    /// Every move `picker` hands out, in order.
    fn drain(mut picker: StagedPicker) -> Vec<Move> {
        let history = Histories::default();
        std::iter::from_fn(|| picker.next(&history)).collect()
    }

    #[test]
    fn legal_move_finds_exactly_the_legal_moves() {
        let mut checked = 0;
        along_random_games(11, |pos, stale| {
            if pos.is_check() {
                return;
            }
            let legal = pos.legal_moves();
            for &mv in legal.iter().chain([stale].iter()) {
                let from = mv.from().expect("a board move");
                let found = legal_move(pos, from, mv.to(), mv.promotion());
                assert_eq!(found.is_some_and(|m| m == mv), legal.contains(&mv), "{mv:?} in {}", fen(pos));
                if let Some(found) = found {
                    assert!(legal.contains(&found), "{found:?} in {}", fen(pos));
                }
                checked += 1;
            }
        });
        assert!(checked > 100_000, "{checked}");
    }

    #[test]
    fn legal_move_agrees_with_the_legal_moves_on_every_square_pair() {
        let mut seen = 0;
        along_random_games(15, |pos, _| {
            if pos.is_check() || seen > 3_000 {
                return;
            }
            seen += 1;
            let legal = pos.legal_moves();
            let promotions =
                [None, Some(Role::Queen), Some(Role::Rook), Some(Role::Knight), Some(Role::King)];
            for from in pos.us() {
                for to in Square::ALL {
                    for promotion in promotions {
                        let expected = legal
                            .iter()
                            .copied()
                            .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == promotion);
                        assert_eq!(
                            legal_move(pos, from, to, promotion),
                            expected,
                            "{from}{to} {promotion:?} in {}",
                            fen(pos)
                        );
                    }
                }
            }
        });
        assert!(seen > 1_000, "{seen}");
    }

    fn fen(pos: &Chess) -> String {
        Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
    }

    #[test]
    fn every_legal_move_once_with_the_hash_move_first_only_when_legal() {
        along_random_games(12, |pos, stale| {
            let legal = pos.legal_moves();
            let all = pos.is_check().then_some(&legal);
            let packed = PackedMove::new(stale);
            let tt_move = legal_tt_move(pos, all, packed);
            let named = legal.iter().copied().find(|&m| packed.matches(m));
            assert_eq!(tt_move, named, "{stale:?} in {}", fen(pos));
            let killers = [Some(stale), legal.first().copied()];
            let handed = drain(StagedPicker::new(pos, all, None, tt_move, killers, [None; 2]));
            if let Some(tt_move) = tt_move {
                assert_eq!(handed[0], tt_move, "{}", fen(pos));
            }
            let mut sorted = handed.clone();
            sorted.sort_by_key(|m| format!("{m:?}"));
            sorted.dedup();
            assert_eq!(sorted.len(), handed.len(), "a move twice in {}: {handed:?}", fen(pos));
            assert_eq!(handed.len(), legal.len(), "{}: {handed:?}", fen(pos));
            assert!(handed.iter().all(|m| legal.contains(m)));
        });
    }

    #[test]
    fn captures_only_hands_out_the_captures_that_keep_material() {
        along_random_games(13, |pos, stale| {
            if pos.is_check() {
                return;
            }
            let tt_move = legal_tt_move(pos, None, PackedMove::new(stale));
            let handed = drain(StagedPicker::captures(pos, tt_move));
            let mut expected: Vec<Move> =
                pos.legal_moves().into_iter().filter(|&m| is_noisy(m) && see_ge(pos, m, 0)).collect();
            assert_eq!(handed.len(), expected.len(), "{}", fen(pos));
            expected.retain(|m| !handed.contains(m));
            assert!(expected.is_empty(), "{}: {expected:?} missing", fen(pos));
        });
    }

    #[test]
    fn stages_order_pv_hash_captures_killers_quiets_then_losing_captures() {
        // The knight takes a free pawn on a4; rook or knight taking the pawn on d5 loses.
        let pos: Chess = "4k3/8/4p3/3p4/p7/2N5/8/3RK3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mv = |uci: &str| uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
        let (pv, tt, killer) = (mv("e1e2"), mv("d1d2"), mv("c3b5"));
        let handed =
            drain(StagedPicker::new(&pos, None, Some(pv), Some(tt), [Some(killer), None], [None; 2]));
        assert_eq!(handed[..4], [pv, tt, mv("c3a4"), killer]);
        assert!(handed[4..handed.len() - 2].iter().all(|&m| !is_noisy(m)));
        assert_eq!(handed[handed.len() - 2..], [mv("c3d5"), mv("d1d5")], "losing captures last, by MVV-LVA");
    }

    #[test]
    fn first_best_finds_the_first_of_the_highest_scores_in_lists_of_any_length() {
        let mut rng = Rng::new(16);
        for len in 0..80 {
            for _ in 0..50 {
                // Few distinct scores, so the highest is often shared.
                let scores: Vec<i32> = (0..len).map(|_| rng.below(7) as i32 * 1000 - 3000).collect();
                let expected = scores.iter().enumerate().max_by_key(|&(i, &s)| (s, std::cmp::Reverse(i)));
                assert_eq!(first_best(&scores), expected.map_or(0, |(i, _)| i), "{scores:?}");
                assert_eq!(first_best(&scores), first_best_body(&scores));
            }
        }
        assert_eq!(first_best(&[UNDERPROMOTION_SCORE; 20]), 0);
    }

    #[test]
    fn unordered_quiets_are_still_every_quiet_move() {
        along_random_games(14, |pos, _| {
            let legal = pos.legal_moves();
            let all = pos.is_check().then_some(&legal);
            let mut picker = StagedPicker::new(pos, all, None, None, [None; 2], [None; 2]);
            let history = Histories::default();
            let mut handed = Vec::new();
            while let Some(mv) = picker.next(&history) {
                if !is_noisy(mv) {
                    picker.stop_ordering_quiets();
                }
                handed.push(mv);
            }
            assert_eq!(handed.len(), legal.len(), "{}", fen(pos));
        });
    }
}
