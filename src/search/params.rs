//! Search parameters: the margins, depths and divisors the search prunes, reduces, extends
//! and orders with, each with why it exists. Tuning works on this file.

// Iterative deepening.

/// Aspiration windows from this depth on: shallower scores move too much to aim at.
pub const ASPIRATION_DEPTH: u32 = 5;
/// First half-width of the aspiration window, in centipawns (it grows by half on each fail).
pub const ASPIRATION_DELTA: i32 = 25;
/// Past this half-width the window opens fully: the score is far from where it was.
pub const ASPIRATION_GIVE_UP: i32 = 600;

// Whole-node pruning and reductions.

/// Internal iterative reduction from this depth: a node with no hash move is searched a ply
/// shallower, as its move ordering is a guess.
pub const IIR_DEPTH: i32 = 4;
/// Reverse futility pruning up to this depth: near the horizon a quiet position far above
/// beta rarely falls below it...
pub const RFP_DEPTH: i32 = 6;
/// ...when the static evaluation beats beta by this much per ply of depth.
pub const RFP_MARGIN: i32 = 80;
/// Razoring tries quiescence at nodes up to this depth...
pub const RAZOR_DEPTH: i32 = 3;
/// ...whose evaluation is below alpha by more than this per ply of depth.
pub const RAZOR_MARGIN: i32 = 250;
/// Null move from this depth: shallower, the reduced search would be quiescence alone.
pub const NMP_DEPTH: i32 = 3;
/// Null-move reduction: this many plies...
pub const NMP_BASE: i32 = 3;
/// ...and one more for every this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 6;

// Move pruning (non-PV nodes, not in check, a move already searched, checks kept).

/// Late move, futility and SEE pruning apply up to this depth.
pub const PRUNE_DEPTH: i32 = 6;
/// Late move pruning keeps `LMP_BASE + depth * depth` quiet moves: later ones rarely matter.
pub const LMP_BASE: i32 = 3;
/// Futility pruning skips quiet moves when the static evaluation plus
/// `FUTILITY_BASE + FUTILITY_MARGIN * depth` stays at or below alpha.
pub const FUTILITY_BASE: i32 = 100;
/// The part of the futility margin that grows with depth.
pub const FUTILITY_MARGIN: i32 = 80;
/// Captures losing more than this per ply of depth by SEE are skipped.
pub const SEE_CAPTURE_MARGIN: i32 = 100;

// Late move reductions.

/// Quiet moves are reduced from this depth: shallower, there is nothing to save.
pub const LMR_DEPTH: i32 = 3;
/// The first this many moves are never reduced (one more at PV nodes): they are the best guesses.
pub const LMR_FIRST_MOVES: usize = 2;
/// Reduction `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR`, less one at PV nodes.
pub const LMR_BASE: f64 = 0.75;
/// Larger divisors reduce less.
pub const LMR_DIVISOR: f64 = 2.25;

// Extensions.

/// Checks (and singular hash moves) are extended a ply while the path is shorter than this
/// many times the iteration's depth: they are forcing and often hide tactics, but they must
/// not extend forever.
pub const EXTENSION_PLY_FACTOR: usize = 2;
/// Singular extension from this depth: shallower, the extra search costs more than it finds...
pub const SE_DEPTH: i32 = 7;
/// ...when the hash move's score was searched at most this many plies shallower...
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// ...and every other move, searched to half the depth, stays this much per ply below it.
pub const SE_MARGIN: i32 = 2;

// Quiet move history.

/// History scores stay within this bound (the update pulls them back toward zero).
pub const HISTORY_MAX: i32 = 16_384;
/// The history bonus of a cutoff is this times depth squared...
pub const HISTORY_BONUS_SCALE: i32 = 32;
/// ...at most this: one cutoff near the horizon moves a score a few percent of its range,
/// so shallow nodes, most of the tree, teach the ordering too.
pub const HISTORY_BONUS_MAX: i32 = HISTORY_MAX / 4;
/// Capture history adds at most `HISTORY_MAX / CAPTURE_HISTORY_DIVISOR` to MVV-LVA's
/// steps of 100 per victim: it orders captures of the same victim, rarely across victims.
pub const CAPTURE_HISTORY_DIVISOR: i32 = 64;
/// LMR reduces a ply less per this much quiet history (quiet plus two continuations,
/// each at most `HISTORY_MAX`), a ply more per this much below zero.
pub const LMR_HISTORY_DIVISOR: i32 = 8_192;

// Correction history.

/// Corrections are kept in this many parts of a centipawn, so small errors add up.
pub const CORRECTION_GRAIN: i32 = 256;
/// A correction moves the evaluation at most this many centipawns: it fixes a bias, it
/// does not replace the network.
pub const CORRECTION_MAX: i32 = 32;
/// A search to depth `d` moves its entry `min(d + 1, this)` 256ths of the way to its error.
pub const CORRECTION_WEIGHT_MAX: i32 = 16;

// Piece values for ordering and exchanges (pawn .. king).

/// Victim and attacker values for MVV-LVA: the most valuable victim first, the least
/// valuable attacker among equals.
pub const MVV_LVA_VALUE: [i32; 6] = [1, 3, 3, 5, 9, 20];
/// Piece values for static exchange evaluation, in centipawns.
pub const SEE_VALUE: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

// Live output of long searches (not search parameters, but timings a GUI user sees).

/// `currmove` lines only after this many milliseconds of search (short searches stay quiet)...
pub const LIVE_CURRMOVE_AFTER_MS: u64 = 3_000;
/// ...and at most one every this many milliseconds (GUIs hang on floods).
pub const LIVE_CURRMOVE_GAP_MS: u64 = 250;
/// A progress line (nodes, nps, time, hashfull) about this often, from this long on.
pub const LIVE_PROGRESS_EVERY_MS: u64 = 1_000;
