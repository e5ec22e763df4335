//! The per-ply stack: what each node on the current search path knows about itself.
//! Entry `ply` belongs to the node at that ply; making a move fills entry `ply + 1`.

use crate::eval::{Accumulator, Network, changes};
use crate::score::MAX_PLY;
use shakmaty::{Move, Piece};
use std::ops::{Index, IndexMut};

/// One ply of the search path.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlyEntry {
    /// Zobrist key of the position.
    pub key: u64,
    /// Static evaluation of the position (`-INFINITY` in check or when not computed).
    pub static_eval: i32,
    /// The move that reached this ply (`None` at the root and after a null move).
    pub mv: Option<Move>,
    /// The piece that made `mv`.
    pub piece: Option<Piece>,
    /// True when a null move reached this ply.
    pub null_move: bool,
    /// Quiet moves that caused a cutoff at this ply, most recent first.
    pub killers: [Option<Move>; 2],
    /// The hash move that the singular extension search (negamax step 10b) leaves out of
    /// this node, to see whether any other move comes near its score.
    pub excluded: Option<Move>,
    /// The network's hidden layers for this position, once `acc_ready` (until then, the
    /// parent's with what `mv` changed, computed when something evaluates the position:
    /// a child cut off before that costs nothing).
    acc: Accumulator,
    /// True once `acc` holds this position's layers.
    acc_ready: bool,
}

/// The search path's entries, one per ply.
pub struct Stack {
    entries: Vec<PlyEntry>,
}

impl Default for Stack {
    fn default() -> Self {
        Stack { entries: vec![PlyEntry::default(); MAX_PLY + 1] }
    }
}

impl Index<usize> for Stack {
    type Output = PlyEntry;

    #[inline]
    fn index(&self, ply: usize) -> &PlyEntry {
        &self.entries[ply]
    }
}

impl IndexMut<usize> for Stack {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut PlyEntry {
        &mut self.entries[ply]
    }
}

impl Stack {
    /// Empties every entry for a new search from the root whose key is `root_key`.
    pub fn new_search(&mut self, root_key: u64) {
        self.entries.fill(PlyEntry::default());
        self.entries[0].key = root_key;
    }

    /// Fills the entry after `ply` for the position `key`, reached by `mv` made by `piece`
    /// (both `None` for a null move); its hidden layers wait until they are asked for.
    #[inline]
    pub fn enter(&mut self, ply: usize, key: u64, made: Option<(Move, Piece)>) {
        let child = &mut self.entries[ply + 1];
        child.key = key;
        child.mv = made.map(|(mv, _)| mv);
        child.piece = made.map(|(_, piece)| piece);
        child.null_move = made.is_none();
        child.acc_ready = false;
    }

    /// The root's hidden layers, computed from scratch.
    pub fn set_root_accumulator(&mut self, acc: Accumulator) {
        let root = &mut self.entries[0];
        (root.acc, root.acc_ready) = (acc, true);
    }

    /// The hidden layers of the position at `ply`, brought up to date from the nearest ply
    /// above it that has them by the moves made since (every ply on the path was entered
    /// by `enter`).
    #[inline]
    pub fn accumulator(&mut self, ply: usize, net: &Network) -> &Accumulator {
        let ready = (0..=ply).rev().find(|&p| self.entries[p].acc_ready).expect("the root's layers");
        for p in ready + 1..=ply {
            let (parents, children) = self.entries.split_at_mut(p);
            let (parent, child) = (&parents[p - 1].acc, &mut children[0]);
            match (child.mv, child.piece) {
                (Some(mv), Some(piece)) => child.acc.update_from(parent, net, &changes(piece.color, mv)),
                // A null move: the same pieces.
                _ => child.acc = *parent,
            }
            child.acc_ready = true;
        }
        &self.entries[ply].acc
    }

    /// Makes the quiet move `mv` the first killer at `ply`.
    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let killers = &mut self.entries[ply].killers;
        if killers[0] != Some(mv) {
            *killers = [Some(mv), killers[0]];
        }
    }

    /// True when the position at `ply` repeats an earlier one: once on the search path,
    /// or twice among the game's positions `before_root` (oldest first). Only the last
    /// `halfmoves` plies (since the last capture or pawn move) can hold a repetition, and
    /// none before a null move on the path: passing is no move, so what came before it
    /// cannot be reached again by moves.
    pub fn is_repetition(&self, before_root: &[u64], ply: usize, halfmoves: u32) -> bool {
        let reach = (halfmoves as usize).min(ply);
        let reach = match (ply + 1 - reach..=ply).rev().find(|&i| self.entries[i].null_move) {
            Some(null) => ply - null,
            None => halfmoves as usize,
        };
        repeats(|i| self.entries[i].key, before_root, ply, reach as u32)
    }
}

/// [`Stack::is_repetition`] over `path`, the keys from the root to `ply`.
fn repeats(path: impl Fn(usize) -> u64, before_root: &[u64], ply: usize, halfmoves: u32) -> bool {
    let key = path(ply);
    let reach = (halfmoves as usize).min(ply + before_root.len());
    let mut seen = 0;
    // The same side is to move only an even number of plies back, and four at least.
    for back in (4..=reach).step_by(2) {
        if back <= ply {
            if path(ply - back) == key {
                return true;
            }
        } else if before_root[before_root.len() - (back - ply)] == key {
            seen += 1;
            if seen >= 2 {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Role, Square};

    fn rep(path: &[u64], before_root: &[u64], halfmoves: u32) -> bool {
        repeats(|i| path[i], before_root, path.len() - 1, halfmoves)
    }

    #[test]
    fn one_repetition_inside_the_search_is_a_draw() {
        assert!(rep(&[1, 2, 3, 4, 1], &[], 4), "the root recurs in the search");
        assert!(!rep(&[1], &[1, 2, 3, 4], 4), "a single earlier occurrence in the game is not enough");
    }

    #[test]
    fn two_earlier_occurrences_in_the_game_are_a_draw() {
        assert!(rep(&[1], &[1, 2, 3, 4, 1, 2, 3, 4], 8));
        assert!(rep(&[3, 4, 1], &[1, 2, 3, 4, 1, 2], 8), "the path and the game together");
    }

    #[test]
    fn positions_before_an_irreversible_move_do_not_count() {
        assert!(!rep(&[1, 2, 3, 4, 1], &[], 3));
        assert!(!rep(&[1, 2, 1], &[], 2), "two plies back is the other side to move");
    }

    #[test]
    fn no_repetition_reaches_back_across_a_null_move() {
        let mut stack = Stack::default();
        stack.new_search(1);
        for (ply, key) in [2, 3, 4, 1].into_iter().enumerate() {
            stack.enter(ply, key, None);
            stack[ply + 1].null_move = false;
        }
        assert!(stack.is_repetition(&[], 4, 10), "the root's key reached again by moves repeats");
        stack[3].null_move = true;
        assert!(!stack.is_repetition(&[], 4, 10), "not across the null move at ply 3");
        stack[3].null_move = false;
        stack[1].null_move = true;
        assert!(!stack.is_repetition(&[1, 9, 1], 4, 10), "nor across one at ply 1, to the root or the game");
    }

    #[test]
    fn entering_a_ply_records_the_move_and_killers_keep_the_last_two() {
        let mut stack = Stack::default();
        stack.new_search(7);
        let mv = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        let knight = Piece { color: Color::White, role: Role::Knight };
        stack.enter(0, 8, Some((mv, knight)));
        stack.enter(1, 9, None);
        assert_eq!((stack[0].key, stack[1].key, stack[2].key), (7, 8, 9));
        assert_eq!((stack[1].mv, stack[1].piece, stack[1].null_move), (Some(mv), Some(knight), false));
        assert!(stack[2].null_move && stack[2].mv.is_none());
        let other = Move::Normal {
            role: Role::Knight,
            from: Square::B1,
            capture: None,
            to: Square::C3,
            promotion: None,
        };
        stack.add_killer(3, mv);
        stack.add_killer(3, mv);
        assert_eq!(stack[3].killers, [Some(mv), None], "a killer is not kept twice");
        stack.add_killer(3, other);
        assert_eq!(stack[3].killers, [Some(other), Some(mv)]);
        stack.new_search(1);
        assert_eq!(stack[3].killers, [None, None]);
    }
}
