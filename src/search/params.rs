//! Search parameters: the margins, depths and divisors the search prunes, reduces, extends
//! and orders with, each with why it exists. Tuning works on this file.
//!
//! The parameters a tuner may move are declared with `tunables!`: each is a function that
//! is a constant in a normal build. A build with the `tune` feature offers each as a UCI
//! spin option of the same name instead, so SPSA games (OpenBench's, for one) can set them.

/// One tunable parameter as a tuner sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tunable {
    /// The parameter's name, which is also its UCI option's name in a `tune` build.
    pub name: &'static str,
    /// The value the search uses unless a `tune` build is told otherwise.
    pub default: i32,
    /// Smallest value a tuner may try.
    pub min: i32,
    /// Largest value a tuner may try.
    pub max: i32,
}

impl Tunable {
    /// The line OpenBench's SPSA reads: `name, int, default, min, max, c_end, r_end`, with
    /// the final step a twentieth of the range (at least 1) and the usual learning rate.
    pub fn spsa_line(&self) -> String {
        let c_end = (f64::from(self.max - self.min) / 20.0).max(1.0);
        format!("{}, int, {}, {}, {}, {}, 0.002", self.name, self.default, self.min, self.max, c_end)
    }
}

/// Declares the tunable parameters: a function for each, and [`TUNABLES`] listing them all.
macro_rules! tunables {
    ($($(#[doc = $doc:expr])* $name:ident: $default:literal in $min:literal..=$max:literal;)*) => {
        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                TUNED.$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// Every tunable parameter, with its default and the range a tuner may try.
        pub const TUNABLES: &[Tunable] =
            &[$(Tunable { name: stringify!($name), default: $default, min: $min, max: $max }),*];

        /// The values a `tune` build searches with.
        #[cfg(feature = "tune")]
        struct Tuned {
            $($name: std::sync::atomic::AtomicI32,)*
        }

        #[cfg(feature = "tune")]
        static TUNED: Tuned = Tuned { $($name: std::sync::atomic::AtomicI32::new($default),)* };

        /// Sets the tunable parameter `tunable` to `value`, which the caller has checked
        /// against its range.
        #[cfg(feature = "tune")]
        pub fn set_tunable(tunable: &Tunable, value: i32) {
            use std::sync::atomic::Ordering::Relaxed;
            match tunable.name {
                $(stringify!($name) => TUNED.$name.store(value, Relaxed),)*
                _ => unreachable!("{} is not in TUNABLES", tunable.name),
            }
        }
    };
}

tunables! {
    // Iterative deepening.

    /// First half-width of the aspiration window, in centipawns (it grows by half on each fail).
    aspiration_delta: 25 in 10..=60;

    // Whole-node pruning and reductions.

    /// Internal iterative reduction from this depth: a node with no hash move is searched a
    /// ply shallower, as its move ordering is a guess.
    iir_depth: 4 in 2..=8;
    /// Reverse futility pruning up to this depth: near the horizon a quiet position far above
    /// beta rarely falls below it...
    rfp_depth: 6 in 3..=10;
    /// ...when the static evaluation beats beta by this much per ply of depth.
    rfp_margin: 80 in 40..=160;
    /// Razoring tries quiescence at nodes up to this depth...
    razor_depth: 3 in 1..=6;
    /// ...whose evaluation is below alpha by more than this per ply of depth.
    razor_margin: 250 in 100..=500;
    /// Null-move reduction: this many plies...
    nmp_base: 3 in 2..=5;
    /// ...and one more for every this many plies of depth.
    nmp_depth_divisor: 6 in 3..=10;
    /// Null move needs the evaluation this far above beta: closer, passing gives the
    /// opponent the tempo that the evaluation's lead was, and the search nearly always fails.
    nmp_margin: 25 in 0..=80;

    // Move pruning (non-PV nodes, not in check, a move already searched, checks kept).

    /// Late move, futility and SEE pruning apply up to this depth.
    prune_depth: 6 in 3..=10;
    /// Late move pruning keeps `lmp_base + depth * depth` quiet moves: later ones rarely matter.
    lmp_base: 3 in 1..=8;
    /// Futility pruning skips quiet moves when the static evaluation plus
    /// `futility_base + futility_margin * depth` stays at or below alpha.
    futility_base: 100 in 0..=250;
    /// The part of the futility margin that grows with depth.
    futility_margin: 80 in 30..=160;
    /// Captures losing more than this per ply of depth by SEE are skipped.
    see_capture_margin: 100 in 30..=200;
    /// Quiet moves losing more than this per ply of (reduced) depth by SEE are skipped.
    see_quiet_margin: 60 in 20..=150;

    // Late move reductions.

    /// Reduction `lmr_base + ln(depth) * ln(move number) / lmr_divisor`, both in hundredths,
    /// less one at PV nodes.
    lmr_base: 75 in 25..=150;
    /// Larger divisors reduce less.
    lmr_divisor: 225 in 150..=350;
    /// LMR reduces a ply less per this much quiet history (quiet plus two continuations,
    /// each at most `HISTORY_MAX`), a ply more per this much below zero.
    lmr_history_divisor: 8192 in 2048..=16384;

    // Extensions.

    /// Singular extension from this depth: shallower, the extra search costs more than it finds...
    se_depth: 7 in 5..=10;
    /// ...and every other move, searched to half the depth, must stay this much per ply below
    /// the hash move's score.
    se_margin: 2 in 1..=4;

    // Quiet move history.

    /// The history bonus of a cutoff is this times depth squared (at most `HISTORY_BONUS_MAX`).
    history_bonus_scale: 32 in 8..=64;
}

// Fixed parameters: structural, or too coarse for a tuner to move usefully.

/// Aspiration windows from this depth on: shallower scores move too much to aim at.
pub const ASPIRATION_DEPTH: u32 = 5;
/// Past this half-width the window opens fully: the score is far from where it was.
pub const ASPIRATION_GIVE_UP: i32 = 600;
/// Null move from this depth: shallower, the reduced search would be quiescence alone.
pub const NMP_DEPTH: i32 = 3;
/// Quiet moves are reduced from this depth: shallower, there is nothing to save.
pub const LMR_DEPTH: i32 = 3;
/// The first this many moves are never reduced (one more at PV nodes): they are the best guesses.
pub const LMR_FIRST_MOVES: usize = 2;
/// Checks (and singular hash moves) are extended a ply while the path is shorter than this
/// many times the iteration's depth: they are forcing and often hide tactics, but they must
/// not extend forever.
pub const EXTENSION_PLY_FACTOR: usize = 2;
/// Checks are extended only from this depth: nearer the horizon quiescence sees them, and
/// extending them there fills check-rich trees with nodes that decide little.
pub const CHECK_EXTENSION_DEPTH: i32 = 8;
/// The singular extension needs the hash move's score searched at most this many plies
/// shallower than the node.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// A singular hash move is extended two plies when every other move stays this many
/// centipawns below the singular bound (off the PV)...
pub const DOUBLE_EXTENSION_MARGIN: i32 = 20;
/// ...and the path holds fewer than this many double extensions already.
pub const DOUBLE_EXTENSION_MAX: u8 = 6;

/// History scores stay within this bound (the update pulls them back toward zero).
pub const HISTORY_MAX: i32 = 16_384;
/// A cutoff's history bonus is at most this: one cutoff near the horizon moves a score a
/// few percent of its range, so shallow nodes, most of the tree, teach the ordering too.
pub const HISTORY_BONUS_MAX: i32 = HISTORY_MAX / 4;
/// Capture history adds at most `HISTORY_MAX / CAPTURE_HISTORY_DIVISOR` to MVV-LVA's
/// steps of 100 per victim: it orders captures of the same victim, rarely across victims.
pub const CAPTURE_HISTORY_DIVISOR: i32 = 64;

// Correction history.

/// Corrections are kept in this many parts of a centipawn, so small errors add up.
pub const CORRECTION_GRAIN: i32 = 256;
/// A correction moves the evaluation at most this many centipawns: it fixes a bias, it
/// does not replace the network.
pub const CORRECTION_MAX: i32 = 32;
/// A search to depth `d` moves its entry `min(d + 1, this)` 256ths of the way to its error.
pub const CORRECTION_WEIGHT_MAX: i32 = 16;
/// One search's error counts for at most this many centipawns (four times the bound).
pub const CORRECTION_ERROR_MAX: i32 = 4 * CORRECTION_MAX;

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

#[cfg(test)]
mod tests {
    use super::TUNABLES;

    #[test]
    fn tunables_have_unique_names_and_defaults_inside_their_ranges() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(TUNABLES[..i].iter().all(|u| u.name != t.name), "{} twice", t.name);
        }
        let rfp = TUNABLES.iter().find(|t| t.name == "rfp_margin").expect("rfp_margin");
        assert_eq!(rfp.spsa_line(), "rfp_margin, int, 80, 40, 160, 6, 0.002");
    }
}
