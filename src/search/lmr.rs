//! Late move reductions: how many plies shallower a late quiet move is searched first.

use super::params::{LMR_FIRST_MOVES, lmr_base, lmr_divisor};

/// Depths and move numbers beyond these share the last entry.
const SIZE: usize = 64;

/// A ply in the table's units: reductions are kept in 1024ths of a ply, so that the
/// history's share (negamax's step 12) counts before anything is rounded.
pub const PLY: i32 = 1024;

/// Reductions by depth and move number: `lmr_base + ln(depth) * ln(move) / lmr_divisor`
/// (both in hundredths), in 1024ths of a ply.
pub struct LmrTable {
    table: [[i32; SIZE]; SIZE],
}

impl Default for LmrTable {
    fn default() -> Self {
        let (base, divisor) = (f64::from(lmr_base()) / 100.0, f64::from(lmr_divisor()) / 100.0);
        let mut table = [[0; SIZE]; SIZE];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                let value = base + (depth as f64).ln() * (index as f64).ln() / divisor;
                *r = (value * f64::from(PLY)) as i32;
            }
        }
        LmrTable { table }
    }
}

impl LmrTable {
    /// Plies to reduce the move at `index` (0 = first) at `depth`, a ply less at PV
    /// nodes, less `adjust` (in 1024ths of a ply: the move's history) before rounding down;
    /// never so much that the reduced search drops straight into quiescence.
    pub fn reduction(&self, depth: i32, index: usize, pv_node: bool, adjust: i32) -> i32 {
        if index < LMR_FIRST_MOVES + usize::from(pv_node) {
            return 0;
        }
        let r = self.table[(depth as usize).min(SIZE - 1)][index.min(SIZE - 1)];
        ((r - PLY * i32::from(pv_node) - adjust).max(0) / PLY).min(depth - 2)
    }
}

#[cfg(test)]
mod tests {
    use super::{LmrTable, PLY};

    #[test]
    fn reductions_grow_with_depth_and_move_number_and_stay_above_the_horizon() {
        let lmr = LmrTable::default();
        assert_eq!(lmr.reduction(10, 0, false, 0), 0, "the first move is never reduced");
        assert_eq!(lmr.reduction(10, 1, false, 0), 0);
        assert!(lmr.reduction(10, 30, false, 0) > lmr.reduction(4, 30, false, 0));
        assert!(lmr.reduction(10, 30, false, 0) > lmr.reduction(10, 3, false, 0));
        assert!(lmr.reduction(10, 30, true, 0) < lmr.reduction(10, 30, false, 0), "PV nodes reduce less");
        for depth in 3..60 {
            for index in 0..200 {
                assert!(depth - 1 - lmr.reduction(depth, index, false, -8 * PLY) >= 1);
            }
        }
    }

    #[test]
    fn history_counts_in_fractions_of_a_ply() {
        let lmr = LmrTable::default();
        let r = lmr.reduction(10, 20, false, 0);
        assert!(r >= 1);
        assert_eq!(lmr.reduction(10, 20, false, PLY), r - 1, "a ply of good history, a ply less");
        assert_eq!(lmr.reduction(10, 20, false, -PLY), r + 1, "a ply of bad history, a ply more");
        assert!(lmr.reduction(10, 2, false, -2 * PLY) >= 1, "bad history reduces a move the table leaves");
        assert_eq!(lmr.reduction(10, 20, false, 100 * PLY), 0, "never below zero");
    }
}
