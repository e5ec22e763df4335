//! The triangular principal-variation table.
//!
//! Row `ply` holds the best line found so far from the node at `ply`, in
//! `moves[ply][ply..len[ply]]`. When a move raises alpha at `ply`, it goes to
//! `moves[ply][ply]` and the child's row is copied behind it, so the root row
//! `moves[0]` ends up holding the whole principal variation.

use crate::score::MAX_PLY;
use shakmaty::Move;

/// Triangular array of best lines, one row per ply.
pub struct PvTable {
    moves: Vec<[Option<Move>; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl Default for PvTable {
    fn default() -> Self {
        PvTable { moves: vec![[None; MAX_PLY + 1]; MAX_PLY + 1], len: [0; MAX_PLY + 1] }
    }
}

impl PvTable {
    /// Empties the line at `ply`; called on entering a node.
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// Stores `mv` as the best move at `ply`, followed by the child's line.
    #[inline]
    pub fn update(&mut self, ply: usize, mv: Move) {
        let child_len = self.len[ply + 1].max(ply + 1);
        let (head, tail) = self.moves.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[ply] = Some(mv);
        row[ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.len[ply] = child_len;
    }

    /// The best line from the root, as found by the last update.
    pub fn root_line(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[0][..self.len[0]].iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    fn quiet(from: Square, to: Square) -> Move {
        Move::Normal { role: Role::Knight, from, capture: None, to, promotion: None }
    }

    #[test]
    fn child_line_is_copied_behind_the_move() {
        let mut pv = PvTable::default();
        let (a, b, c) =
            (quiet(Square::G1, Square::F3), quiet(Square::G8, Square::F6), quiet(Square::B1, Square::C3));
        pv.clear(0);
        pv.clear(1);
        pv.clear(2);
        pv.clear(3);
        pv.update(2, c);
        pv.update(1, b);
        pv.update(0, a);
        assert_eq!(pv.root_line().collect::<Vec<_>>(), vec![a, b, c]);
    }

    #[test]
    fn a_leaf_update_gives_a_line_of_one() {
        let mut pv = PvTable::default();
        let a = quiet(Square::G1, Square::F3);
        pv.clear(0);
        pv.clear(1);
        pv.update(0, a);
        assert_eq!(pv.root_line().collect::<Vec<_>>(), vec![a]);
    }
}
