//! Time management as a pure struct: budgets from the clock, tested without a clock.

/// The side to move's clock as given by `go wtime/btime/winc/binc/movestogo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock, in milliseconds.
    pub time_ms: u64,
    /// Increment per move, in milliseconds.
    pub inc_ms: u64,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// Moves we plan to spread the clock over in sudden death. A move spends about 60% of
/// its aim, so the clock falls by about 4% a move and the opening moves, where a game is
/// shaped, get the most (at 5+0.05, 21% more in the first ten moves than with 20, and
/// about the same 71-74% of the clock spent in all; with 40 and half the increment, 46%
/// went unused).
const SUDDEN_DEATH_MOVES: u64 = 15;

/// A move never aims at more than this fraction of the clock it may budget (1/10) unless
/// few moves remain: with an increment the clock then settles where a tenth of it is
/// the increment's worth, not at the reserve.
const MAX_SHARE: u64 = 10;

/// Clock kept back from every budget: twenty increments, at least one second and at
/// most three, never more than half the clock. A stall of the machine or the GUI that
/// long never costs the game; with an increment, every move refills it.
const RESERVE_INCREMENTS: u64 = 20;
/// The least reserve, whatever the increment.
const RESERVE_MIN_MS: u64 = 1_000;
/// The largest reserve, whatever the increment.
const RESERVE_MAX_MS: u64 = 3_000;

/// The longest a move with no alternative is searched (Stockfish's cap): long enough for a
/// score and a line to show, and the clock is kept for the moves that need it.
const SINGLE_MOVE_MS: u64 = 500;

/// How the search has gone so far, for stretching or shrinking the soft budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Iterations in a row that ended with the same best move.
    pub stable_iterations: u32,
    /// How far the score fell in the last iteration, in centipawns (0 when it rose).
    pub score_drop: i32,
    /// The best move's share of the root's nodes so far, in thousandths (`None` before
    /// the first iteration has been compared).
    pub best_move_share: Option<u32>,
}

/// Soft and hard time budgets for one search, in milliseconds.
///
/// A move aims at a *target*: its share of the clock plus the increment, at most a tenth
/// of the clock it may budget. No iteration starts after 40% of the target (the next one
/// would take several times longer than all before it), scaled by the search's progress
/// (`soft_budget`), and the hard budget is twice the target, at most three quarters of
/// the clock it may budget. A reserve of twenty increments (one to three seconds, at most
/// half the clock) is kept out of every budget, so a move that runs to its hard budget
/// still leaves that reserve: a stall of the machine, the GUI or the pipe never costs
/// the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeManager {
    /// Do not start another iteration after this much time.
    pub soft_ms: u64,
    /// Abort the running iteration at this much time.
    pub hard_ms: u64,
    /// The soft budget follows the search's progress (not for `go movetime`).
    pub flexible: bool,
}

impl TimeManager {
    /// Budgets for a game clock, keeping `overhead_ms` back for the GUI and the pipe.
    pub fn from_clock(clock: Clock, overhead_ms: u64) -> Self {
        let reserve = (clock.inc_ms.saturating_mul(RESERVE_INCREMENTS))
            .clamp(RESERVE_MIN_MS, RESERVE_MAX_MS)
            .min(clock.time_ms / 2);
        let available = clock.time_ms.saturating_sub(overhead_ms).saturating_sub(reserve);
        // `movestogo 0` means no control ahead, as Stockfish reads it: sudden death.
        let moves = match clock.moves_to_go {
            Some(m) if m > 0 => u64::from(m.min(50)),
            _ => SUDDEN_DEATH_MOVES,
        };
        let cap = available / moves.min(MAX_SHARE);
        let target = (available / moves).saturating_add(clock.inc_ms).min(cap);
        let hard = target.saturating_mul(2).min(available / 4 * 3);
        TimeManager { soft_ms: target / 5 * 2, hard_ms: hard, flexible: true }
    }

    /// Budgets for `go movetime`: search exactly that long, less the overhead.
    pub fn from_movetime(movetime_ms: u64, overhead_ms: u64) -> Self {
        let t = movetime_ms.saturating_sub(overhead_ms).max(1);
        TimeManager { soft_ms: t, hard_ms: t, flexible: false }
    }

    /// These budgets for a root with a single legal move, where the search only finds the
    /// score and line to show: at most [`SINGLE_MOVE_MS`], not stretched by progress. A
    /// `go movetime` keeps its time.
    pub fn single_move(self) -> Self {
        if !self.flexible {
            return self;
        }
        let cap = |ms: u64| ms.min(SINGLE_MOVE_MS);
        TimeManager { soft_ms: cap(self.soft_ms), hard_ms: cap(self.hard_ms), flexible: false }
    }

    /// The soft budget given the search's progress: a best move that keeps changing or a
    /// falling score earns up to 2.56 times more, a move that stays best for several
    /// iterations settles for as little as 0.7 times; the best move's share of the nodes
    /// scales that again (`node_share_percent`); never more than the hard budget.
    pub fn soft_budget(&self, progress: Progress) -> u64 {
        if !self.flexible {
            return self.soft_ms;
        }
        let stability: u64 = match progress.stable_iterations {
            0 => 160,
            1 => 125,
            2 => 105,
            3..=5 => 90,
            _ => 70,
        };
        let drop = 100 + progress.score_drop.clamp(0, 60) as u64;
        let share = progress.best_move_share.map_or(100, node_share_percent);
        (self.soft_ms.saturating_mul(stability * drop * share) / 1_000_000).min(self.hard_ms)
    }

    /// True when there is time to begin another iteration after `elapsed_ms`.
    pub fn may_start_iteration(&self, elapsed_ms: u64, progress: Progress) -> bool {
        elapsed_ms < self.soft_budget(progress)
    }

    /// True when the search must stop at once after `elapsed_ms`.
    pub fn must_stop(&self, elapsed_ms: u64) -> bool {
        elapsed_ms >= self.hard_ms
    }
}

/// The soft budget's scale, in percent, for a best move that took `share` thousandths of
/// the root's nodes: 100 at 70%, less when the other moves were refuted cheaply (at least
/// 50, from 95%), more when they took work to refute (up to 200, at 20% and below).
fn node_share_percent(share: u32) -> u64 {
    let others = 1_000 - u64::from(share.min(1_000));
    (40 + others / 5).clamp(50, 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(time_ms: u64, inc_ms: u64, moves_to_go: Option<u32>) -> Clock {
        Clock { time_ms, inc_ms, moves_to_go }
    }

    /// The clock left after `moves` moves from `start` with increment `inc`, each move
    /// spending what `spent` says of its budgets.
    fn clock_after(start: u64, inc: u64, moves: u32, overhead: u64, spent: fn(&TimeManager) -> u64) -> u64 {
        let mut time = start;
        for _ in 0..moves {
            let tm = TimeManager::from_clock(clock(time, inc, None), overhead);
            time = time - spent(&tm) + inc;
        }
        time
    }

    /// A move runs to its hard budget.
    fn all_of_hard(tm: &TimeManager) -> u64 {
        tm.hard_ms
    }

    /// A move spends about 60% of its aim, as moves do: the soft budget is 40% of it and
    /// the running iteration ends past it.
    fn as_usual(tm: &TimeManager) -> u64 {
        (tm.soft_ms * 3 / 2).min(tm.hard_ms)
    }

    #[test]
    fn a_single_legal_move_gets_at_most_half_a_second_and_a_movetime_keeps_its_own() {
        for (time, inc) in [(300_000, 3_000), (10_000, 100), (1_000, 0)] {
            let tm = TimeManager::from_clock(clock(time, inc, None), 10);
            let single = tm.single_move();
            assert!(single.hard_ms <= SINGLE_MOVE_MS && single.hard_ms <= tm.hard_ms, "{single:?}");
            assert_eq!(single.soft_ms, tm.soft_ms.min(SINGLE_MOVE_MS));
            let stretched = Progress { stable_iterations: 0, score_drop: 60, best_move_share: Some(100) };
            assert!(single.soft_budget(stretched) <= single.hard_ms);
        }
        let movetime = TimeManager::from_movetime(5_000, 10);
        assert_eq!(movetime.single_move(), movetime);
    }

    #[test]
    fn sudden_death_spreads_the_clock() {
        let tm = TimeManager::from_clock(clock(60_000, 0, None), 10);
        assert!(tm.soft_ms > 500 && tm.soft_ms < 2_000, "{tm:?}");
        assert!(tm.hard_ms > tm.soft_ms && tm.hard_ms < 60_000 / 6, "{tm:?}");
    }

    #[test]
    fn the_clock_does_not_drain_on_increment_alone() {
        // Even spending the whole hard budget on every move keeps five increments.
        for (start, inc) in [(10_000, 100), (5_000, 50), (60_000, 0), (1_000, 1_000)] {
            let time = clock_after(start, inc, 300, 30, all_of_hard);
            assert!(time >= 5 * inc, "{start}+{inc}: {time}");
        }
    }

    #[test]
    fn a_game_of_seventy_moves_spends_most_of_its_clock() {
        // At 5+0.05 and 10+0.1 the clock left after 70 usual moves is the reserve and at
        // most a fifth of the rest.
        for (start, inc, reserve) in [(5_000, 50, 1_000), (10_000, 100, 2_000)] {
            let time = clock_after(start, inc, 70, 10, as_usual);
            let total = start + 70 * inc;
            assert!(time >= reserve && time - reserve <= (total - reserve) / 5, "{start}+{inc}: {time}");
        }
    }

    #[test]
    fn fast_games_keep_twenty_increments_in_reserve() {
        // 300 usual moves.
        for (start, inc, reserve) in [(5_000, 50, 1_000), (10_000, 100, 2_000), (60_000, 600, 3_000)] {
            let time = clock_after(start, inc, 300, 30, as_usual);
            assert!(time >= reserve, "{start}+{inc}: {time}");
        }
    }

    #[test]
    fn increment_adds_to_the_budget() {
        let without = TimeManager::from_clock(clock(10_000, 0, None), 10);
        let with = TimeManager::from_clock(clock(10_000, 1_000, None), 10);
        assert!(with.soft_ms > without.soft_ms);
    }

    #[test]
    fn one_move_to_go_never_uses_the_whole_clock() {
        let tm = TimeManager::from_clock(clock(1_000, 0, Some(1)), 10);
        assert!(tm.hard_ms < 1_000 - 10, "{tm:?}");
        assert!(tm.hard_ms >= 300, "{tm:?}");
    }

    #[test]
    fn tiny_clock_stays_inside_the_clock() {
        let tm = TimeManager::from_clock(clock(50, 0, None), 10);
        assert!(tm.hard_ms < 40, "{tm:?}");
        let zero = TimeManager::from_clock(clock(0, 0, None), 10);
        assert_eq!((zero.soft_ms, zero.hard_ms), (0, 0));
    }

    #[test]
    fn huge_clock_does_not_overflow() {
        // Wrapping arithmetic (which `--release` would not catch) would give other values.
        let tm = TimeManager::from_clock(clock(u64::MAX, u64::MAX / 2, Some(1)), 10);
        let available = u64::MAX - 10 - 3_000;
        assert_eq!((tm.soft_ms, tm.hard_ms), (available / 5 * 2, available / 4 * 3));
    }

    #[test]
    fn movestogo_zero_is_sudden_death() {
        let zero = TimeManager::from_clock(clock(60_000, 0, Some(0)), 10);
        assert_eq!(zero, TimeManager::from_clock(clock(60_000, 0, None), 10));
        // Read as one move to go, it allowed 44 s of the 60.
        assert!(zero.hard_ms < 60_000 / 4, "{zero:?}");
    }

    #[test]
    fn overhead_larger_than_clock_gives_no_time() {
        let tm = TimeManager::from_clock(clock(5, 0, Some(3)), 100);
        assert_eq!(tm.hard_ms, 0);
    }

    #[test]
    fn movetime_is_kept_less_overhead() {
        let tm = TimeManager::from_movetime(1_000, 10);
        assert_eq!((tm.soft_ms, tm.hard_ms), (990, 990));
        assert!(!tm.must_stop(989) && tm.must_stop(990));
        assert_eq!(TimeManager::from_movetime(5, 10).hard_ms, 1);
    }

    #[test]
    fn iterations_stop_at_soft_search_at_hard() {
        let tm = TimeManager { soft_ms: 100, hard_ms: 400, flexible: false };
        let any = Progress { stable_iterations: 0, score_drop: 50, best_move_share: None };
        assert!(tm.may_start_iteration(99, any) && !tm.may_start_iteration(100, any));
        assert!(!tm.must_stop(399) && tm.must_stop(400));
    }

    #[test]
    fn an_unsettled_search_gets_more_time_a_settled_one_less() {
        let tm = TimeManager::from_clock(clock(60_000, 600, None), 30);
        let settled = Progress { stable_iterations: 8, score_drop: 0, best_move_share: None };
        let base = Progress { stable_iterations: 2, score_drop: 0, best_move_share: None };
        let changed = Progress { stable_iterations: 0, score_drop: 0, best_move_share: None };
        let falling = Progress { stable_iterations: 0, score_drop: 80, best_move_share: None };
        let budgets = [settled, base, changed, falling].map(|p| tm.soft_budget(p));
        assert!(budgets.windows(2).all(|w| w[0] < w[1]), "{budgets:?}");
        assert!(budgets[3] <= tm.hard_ms);
        let movetime = TimeManager::from_movetime(1_000, 10);
        assert_eq!(movetime.soft_budget(falling), movetime.soft_budget(settled));
    }

    #[test]
    fn the_soft_budget_never_passes_the_hard_one() {
        let tm = TimeManager { soft_ms: 300, hard_ms: 400, flexible: true };
        assert_eq!(
            tm.soft_budget(Progress { stable_iterations: 0, score_drop: 500, best_move_share: None }),
            400
        );
    }

    #[test]
    fn a_best_move_that_took_most_nodes_gets_less_time() {
        let tm = TimeManager::from_clock(clock(60_000, 600, None), 30);
        let with = |share| Progress { stable_iterations: 2, score_drop: 0, best_move_share: share };
        let unknown = tm.soft_budget(with(None));
        assert_eq!(tm.soft_budget(with(Some(700))), unknown);
        let budgets = [990, 900, 700, 400, 100].map(|s| tm.soft_budget(with(Some(s))));
        assert!(budgets.windows(2).all(|w| w[0] < w[1]), "{budgets:?}");
        let near = |a: u64, b: u64| a.abs_diff(b) <= 1;
        assert!(near(budgets[0], unknown / 2) && near(budgets[4], (unknown * 2).min(tm.hard_ms)));
        assert_eq!(tm.soft_budget(with(Some(5_000))), budgets[0]);
    }
}
