//! The per-ply stack: what each node on the current search path knows about itself.
//! Entry `ply` belongs to the node at that ply; making a move fills entry `ply + 1`.

use crate::eval::{Accumulator, Network, changes, king_buckets};
use crate::score::{INFINITY, MAX_PLY};
use shakmaty::{Board, Chess, Move, Piece, Position};
use std::ops::{Index, IndexMut};

/// One ply of the search path.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlyEntry {
    /// Static evaluation of the position (`-INFINITY` in check or when not computed).
    pub static_eval: i32,
    /// The move that reached this ply (`None` at the root and after a null move).
    pub mv: Option<Move>,
    /// The piece that made `mv`.
    pub piece: Option<Piece>,
    /// Plies since the last null move on the path (0 when one reached this ply,
    /// `u32::MAX` when none): no repetition reaches back past it.
    since_null: u32,
    /// Quiet moves that caused a cutoff at this ply, most recent first.
    pub killers: [Option<Move>; 2],
    /// The hash move that the singular extension search (`singular.rs`) leaves out of
    /// this node, to see whether any other move comes near its score.
    pub excluded: Option<Move>,
    /// Singular moves extended two plies on the path to this ply (`singular.rs`): each
    /// deepens the whole line, so a line may have only a few.
    pub double_extensions: u8,
    /// The network's hidden layers for this position, once `acc_ready` (until then, the
    /// parent's with what `mv` changed, computed when something evaluates the position:
    /// a child cut off before that costs nothing).
    acc: Accumulator,
    /// True once `acc` holds this position's layers.
    acc_ready: bool,
}

/// The search path's entries, one per ply, and the Zobrist keys of the game's positions
/// followed by the path's (apart from the entries, so that the repetition check reads
/// them from a few cache lines).
pub struct Stack {
    entries: Vec<PlyEntry>,
    keys: Vec<u64>,
    /// Index in `keys` of the root's key.
    root: usize,
    /// How many of `keys` fall in each bucket of [`bucket`]: a key alone in its bucket
    /// repeats nothing, which settles most repetition checks without a walk.
    buckets: Box<[u32; BUCKETS]>,
}

/// Buckets of the repetition filter: few enough (2 KB of counts) to stay in the first-level
/// cache; more keys share a bucket, but a shared one only costs the walk it would have saved.
const BUCKETS: usize = 512;

/// The filter bucket of `key`.
#[inline]
fn bucket(key: u64) -> usize {
    key as usize % BUCKETS
}

impl Default for Stack {
    fn default() -> Self {
        let (entries, keys) = (vec![PlyEntry::default(); MAX_PLY + 1], vec![0; MAX_PLY + 1]);
        let mut buckets = Box::new([0; BUCKETS]);
        buckets[0] = keys.len() as u32;
        Stack { entries, keys, root: 0, buckets }
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

impl PlyEntry {
    /// True when a null move reached this ply.
    #[inline]
    pub fn null_move(&self) -> bool {
        self.since_null == 0
    }
}

impl Stack {
    /// True when the static evaluation at `ply` beats that of this side's last turn that had
    /// one (two plies back, or four past a check); true with none to compare, false in check.
    #[inline]
    pub fn improving(&self, ply: usize) -> bool {
        let eval = self.entries[ply].static_eval;
        if eval == -INFINITY {
            return false;
        }
        [2, 4]
            .into_iter()
            .filter(|&back| back <= ply)
            .map(|back| self.entries[ply - back].static_eval)
            .find(|&earlier| earlier != -INFINITY)
            .is_none_or(|earlier| eval > earlier)
    }

    /// Empties every entry for a new search of a game whose positions' keys are
    /// `game_keys`, oldest first, the root's last.
    pub fn new_search(&mut self, game_keys: &[u64]) {
        self.entries.fill(PlyEntry::default());
        self.entries[0].since_null = u32::MAX;
        self.root = game_keys.len() - 1;
        self.keys.clear();
        self.keys.extend_from_slice(game_keys);
        self.keys.resize(self.root + MAX_PLY + 1, 0);
        self.buckets.fill(0);
        for &key in &self.keys {
            self.buckets[bucket(key)] += 1;
        }
    }

    /// Zobrist key of the position at `ply`.
    #[inline]
    pub fn key(&self, ply: usize) -> u64 {
        self.keys[self.root + ply]
    }

    /// Keys of the game's positions, oldest first, up to the root's.
    pub fn game_keys(&self) -> &[u64] {
        &self.keys[..=self.root]
    }

    /// Fills the entry after `ply` for the position `key`, reached by `mv` made by `piece`
    /// (both `None` for a null move); its hidden layers wait until they are asked for.
    #[inline(always)]
    pub fn enter(&mut self, ply: usize, key: u64, made: Option<(Move, Piece)>) {
        let slot = &mut self.keys[self.root + ply + 1];
        self.buckets[bucket(*slot)] -= 1;
        self.buckets[bucket(key)] += 1;
        *slot = key;
        let since_null = if made.is_some() { self.entries[ply].since_null.saturating_add(1) } else { 0 };
        let double_extensions = self.entries[ply].double_extensions;
        let child = &mut self.entries[ply + 1];
        child.since_null = since_null;
        child.double_extensions = double_extensions;
        child.mv = made.map(|(mv, _)| mv);
        child.piece = made.map(|(_, piece)| piece);
        child.acc_ready = false;
    }

    /// The root's hidden layers, computed from scratch.
    pub fn set_root_accumulator(&mut self, acc: Accumulator) {
        let root = &mut self.entries[0];
        (root.acc, root.acc_ready) = (acc, true);
    }

    /// After a king move to the child of `ply` (`enter`ed): where the king changed its
    /// bucket of `net` (see `eval::king_bucket`), no column of the parent's layers serves
    /// its side, so the child's are computed from its board now, and a later update starts
    /// from them.
    #[inline(always)]
    pub fn after_king_move(&mut self, ply: usize, net: &Network, parent: &Chess, child: &Chess) {
        if net.king_buckets > 1 {
            self.refresh_if_king_changed_bucket(ply, net, parent, child);
        }
    }

    /// [`Stack::after_king_move`] for a net with king buckets.
    fn refresh_if_king_changed_bucket(&mut self, ply: usize, net: &Network, parent: &Chess, child: &Chess) {
        if king_buckets(net.king_buckets, parent.board()) != king_buckets(net.king_buckets, child.board()) {
            let entry = &mut self.entries[ply + 1];
            (entry.acc, entry.acc_ready) = (Accumulator::refresh(net, child), true);
        }
    }

    /// The hidden layers of the position at `ply`, whose pieces are on `board`, brought up
    /// to date from the nearest ply above it that has them by the moves made since (every
    /// ply on the path was entered by `enter`, and each king move by `after_king_move`: the
    /// kings' buckets are then the same all the way).
    #[inline]
    pub fn accumulator(&mut self, ply: usize, net: &Network, board: &Board) -> &Accumulator {
        let buckets = king_buckets(net.king_buckets, board);
        let ready = (0..=ply).rev().find(|&p| self.entries[p].acc_ready).expect("the root's layers");
        for p in ready + 1..=ply {
            let (parents, children) = self.entries.split_at_mut(p);
            let (parent, child) = (&parents[p - 1].acc, &mut children[0]);
            match (child.mv, child.piece) {
                (Some(mv), Some(piece)) => {
                    child.acc.update_from(parent, net, &changes(piece.color, mv), buckets);
                }
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
    /// or twice among the game's positions before the root. Only the last `halfmoves`
    /// plies (since the last capture or pawn move) can hold a repetition, and none before
    /// a null move on the path: passing is no move, so what came before it cannot be
    /// reached again by moves.
    #[inline]
    pub fn is_repetition(&self, ply: usize, halfmoves: u32) -> bool {
        let now = self.root + ply;
        if self.buckets[bucket(self.keys[now])] < 2 {
            return false;
        }
        let reach = halfmoves.min(self.entries[ply].since_null) as usize;
        repeats(&self.keys, self.root, now, reach)
    }
}

/// [`Stack::is_repetition`] over `keys`, the game's positions with the root at `root`,
/// for the position at `now`, looking back at most `reach` plies.
fn repeats(keys: &[u64], root: usize, now: usize, reach: usize) -> bool {
    let key = keys[now];
    let reach = reach.min(now);
    if reach < 4 {
        return false;
    }
    // The same side is to move only an even number of plies back, and four at least.
    let mut seen = 0;
    for i in (now - reach..=now - 4).rev().step_by(2) {
        if keys[i] == key {
            seen += 1;
            if i >= root || seen >= 2 {
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

    /// Ng1-f3 and the white knight that makes it.
    fn knight_to_f3() -> (Move, Piece) {
        let mv = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        (mv, Piece { color: Color::White, role: Role::Knight })
    }

    fn rep(path: &[u64], before_root: &[u64], halfmoves: u32) -> bool {
        let keys = [before_root, path].concat();
        repeats(&keys, before_root.len(), keys.len() - 1, halfmoves as usize)
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
        let made = Some(knight_to_f3());
        // The path 1 2 3 4 1 from the root (the game's last key), with a null move reaching
        // the plies in `nulls`.
        let path = |game: &[u64], nulls: &[usize]| {
            let mut stack = Stack::default();
            stack.new_search(game);
            for (ply, key) in [2, 3, 4, 1].into_iter().enumerate() {
                stack.enter(ply, key, made.filter(|_| !nulls.contains(&(ply + 1))));
            }
            stack
        };
        assert!(path(&[1], &[]).is_repetition(4, 10), "the root's key reached again by moves repeats");
        assert!(!path(&[1], &[3]).is_repetition(4, 10), "not across the null move at ply 3");
        assert!(
            !path(&[1, 9, 1, 1], &[1]).is_repetition(4, 10),
            "nor across one at ply 1, to the root or the game"
        );
        let game = path(&[5, 9, 5, 9, 1], &[]);
        assert_eq!(game.game_keys(), [5, 9, 5, 9, 1]);
        assert!(game.is_repetition(4, 10) && game.key(4) == 1 && game.key(0) == 1);
    }

    #[test]
    fn layers_brought_up_to_date_equal_a_refresh_across_king_buckets() {
        use crate::eval::{INPUTS, KING_BUCKETS};
        // The built-in net in four king buckets, each but the first changed so they differ.
        let mut net = (*crate::eval::embedded()).clone();
        net.king_buckets = KING_BUCKETS;
        for bucket in 1..KING_BUCKETS {
            for input in 0..INPUTS {
                let column = net.feature_weights[input].map(|w| w / 2 + 3 * bucket as i16);
                net.feature_weights[bucket * INPUTS + input] = column;
            }
        }
        let mut rng = crate::rng::Rng::new(17);
        let (mut stack, mut crossings) = (Stack::default(), 0);
        for _ in 0..40 {
            let mut path = vec![Chess::default()];
            stack.new_search(&[0]);
            stack.set_root_accumulator(Accumulator::refresh(&net, &path[0]));
            for ply in 0..120 {
                let pos = path[ply].clone();
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Kings walk often, so they change buckets often.
                let kings: Vec<Move> = moves.iter().copied().filter(|m| m.role() == Role::King).collect();
                let pool = if kings.is_empty() || rng.below(2) == 0 { &moves[..] } else { &kings[..] };
                let mv = pool[rng.below(pool.len())];
                let mut child = pos.clone();
                child.play_unchecked(mv);
                stack.enter(ply, ply as u64 + 1, Some((mv, Piece { color: pos.turn(), role: mv.role() })));
                if mv.role() == Role::King {
                    crossings += usize::from(king_buckets(4, pos.board()) != king_buckets(4, child.board()));
                    stack.after_king_move(ply, &net, &pos, &child);
                }
                // Asked for now and then, as the search evaluates: several plies at once.
                if rng.below(4) == 0 {
                    let acc = *stack.accumulator(ply + 1, &net, child.board());
                    assert_eq!(acc, Accumulator::refresh(&net, &child), "after {mv:?}");
                }
                path.push(child);
            }
        }
        assert!(crossings > 100, "{crossings} king bucket changes");
    }

    #[test]
    fn the_bucket_filter_never_changes_the_answer() {
        let made = Some(knight_to_f3());
        let mut rng = crate::rng::Rng::new(42);
        // Few keys, two of them sharing a bucket, so repetitions and collisions are common.
        let pick = |rng: &mut crate::rng::Rng| [1, 2, 3, 1 + BUCKETS as u64][rng.below(4)];
        let mut stack = Stack::default();
        for _ in 0..200 {
            let game: Vec<u64> = (0..1 + rng.below(12)).map(|_| pick(&mut rng)).collect();
            stack.new_search(&game);
            let mut ply = 0;
            for _ in 0..60 {
                // Up and down the path, as a search goes, leaving deeper keys behind.
                ply = if ply > 0 && rng.below(3) == 0 { ply - 1 - rng.below(ply) } else { ply };
                let null = rng.below(5) == 0;
                stack.enter(ply, pick(&mut rng), made.filter(|_| !null));
                ply += 1;
                let halfmoves = rng.below(20) as u32;
                let reach = halfmoves.min(stack[ply].since_null) as usize;
                let walked = repeats(&stack.keys, stack.root, stack.root + ply, reach);
                assert_eq!(stack.is_repetition(ply, halfmoves), walked);
            }
        }
    }

    #[test]
    fn improving_compares_with_this_sides_last_evaluation() {
        let mut stack = Stack::default();
        stack.new_search(&[1]);
        let evals = |stack: &mut Stack, evals: &[i32]| {
            for (ply, &eval) in evals.iter().enumerate() {
                stack[ply].static_eval = eval;
            }
        };
        evals(&mut stack, &[10, 0, 20]);
        assert!(stack.improving(0) && stack.improving(1), "nothing to compare with: improving");
        assert!(stack.improving(2), "20 beats 10, two plies back");
        evals(&mut stack, &[10, 0, 10]);
        assert!(!stack.improving(2), "an equal evaluation is not improving");
        evals(&mut stack, &[30, 0, -INFINITY, 0, 20]);
        assert!(!stack.improving(2), "in check: not improving");
        assert!(!stack.improving(4), "past a check, four plies back: 20 does not beat 30");
        evals(&mut stack, &[-INFINITY, 0, -INFINITY, 0, 5]);
        assert!(stack.improving(4), "no evaluation of this side to compare with: improving");
    }

    #[test]
    fn entering_a_ply_records_the_move_and_killers_keep_the_last_two() {
        let mut stack = Stack::default();
        stack.new_search(&[7]);
        let (mv, knight) = knight_to_f3();
        stack.enter(0, 8, Some((mv, knight)));
        stack.enter(1, 9, None);
        assert_eq!((stack.key(0), stack.key(1), stack.key(2)), (7, 8, 9));
        assert_eq!((stack[1].mv, stack[1].piece, stack[1].null_move()), (Some(mv), Some(knight), false));
        assert!(stack[2].null_move() && stack[2].mv.is_none());
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
        stack.new_search(&[1]);
        assert_eq!(stack[3].killers, [None, None]);
    }
}
