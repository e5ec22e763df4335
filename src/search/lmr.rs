//! Late move reductions: how many plies shallower a late quiet move is searched first.

use super::params::{LMR_FIRST_MOVES, lmr_base, lmr_divisor};

/// Depths and move numbers beyond these share the last entry.
const SIZE: usize = 64;

/// Reductions by depth and move number: `lmr_base + ln(depth) * ln(move) / lmr_divisor`
/// (both in hundredths), rounded down.
pub struct LmrTable {
    table: [[u8; SIZE]; SIZE],
}

impl Default for LmrTable {
    fn default() -> Self {
        let (base, divisor) = (f64::from(lmr_base()) / 100.0, f64::from(lmr_divisor()) / 100.0);
        let mut table = [[0; SIZE]; SIZE];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                let value = base + (depth as f64).ln() * (index as f64).ln() / divisor;
                *r = value as u8;
            }
        }
        LmrTable { table }
    }
}

impl LmrTable {
    /// Plies to reduce the move at `index` (0 = first) at `depth`; less at PV nodes,
    /// and never so much that the reduced search drops straight into quiescence.
    pub fn reduction(&self, depth: i32, index: usize, pv_node: bool) -> i32 {
        if index < LMR_FIRST_MOVES + usize::from(pv_node) {
            return 0;
        }
        let r = i32::from(self.table[(depth as usize).min(SIZE - 1)][index.min(SIZE - 1)]);
        (r - i32::from(pv_node)).clamp(0, depth - 2)
    }
}

#[cfg(test)]
mod tests {
    use super::LmrTable;

    #[test]
    fn reductions_grow_with_depth_and_move_number_and_stay_above_the_horizon() {
        let lmr = LmrTable::default();
        assert_eq!(lmr.reduction(10, 0, false), 0, "the first move is never reduced");
        assert_eq!(lmr.reduction(10, 1, false), 0);
        assert!(lmr.reduction(10, 30, false) > lmr.reduction(4, 30, false));
        assert!(lmr.reduction(10, 30, false) > lmr.reduction(10, 3, false));
        assert!(lmr.reduction(10, 30, true) < lmr.reduction(10, 30, false), "PV nodes reduce less");
        for depth in 3..60 {
            for index in 0..200 {
                assert!(depth - 1 - lmr.reduction(depth, index, false) >= 1);
            }
        }
    }
}
