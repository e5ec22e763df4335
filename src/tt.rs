//! The transposition table: a shared, lock-free hash of search results.
//!
//! Each entry is two 64-bit words, the key XOR-ed with the data and the data itself;
//! a probe trusts an entry only when both words agree, so a torn write from another
//! thread reads as a miss. Four entries make a 64-byte bucket; a store replaces the
//! entry of the same position, or else the one least worth keeping (shallow, old).

use crate::score::{score_from_tt, score_to_tt};
use shakmaty::{Move, Role, Square};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true score is at least this (a fail high).
    Lower,
    /// The true score is at most this (a fail low).
    Upper,
}

impl Bound {
    /// What the result `best` of a node searched with the window `(alpha, beta)` proves.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// True when a score with this bound says more about the position than the
    /// evaluation `eval`: an exact score, a lower bound above it, or an upper bound below it.
    pub fn refines(self, score: i32, eval: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score > eval,
            Bound::Upper => score < eval,
        }
    }
}

/// A probe's result, with the score already made relative to the probing node's ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best move found, as from/to/promotion (match it against the legal moves).
    pub mv: Option<PackedMove>,
    /// The score, adjusted to the node's ply.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Depth the score was searched to.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
}

/// What a node stores: its best move, its score and the bound it proved at a depth, and
/// its static evaluation.
#[derive(Clone, Copy, Debug)]
pub struct TtRecord {
    /// Best move, if the node names one (none keeps the move the entry had).
    pub mv: Option<Move>,
    /// The score, relative to the root (`store` makes mate distances node-relative).
    pub score: i32,
    /// Static evaluation of the position (the network's, before any correction).
    pub eval: i32,
    /// Depth the score was searched to.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
}

impl TtHit {
    /// True when the stored score settles the window `(alpha, beta)`: an exact score, a
    /// lower bound at or above beta, or an upper bound at or below alpha.
    pub fn settles(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }

    /// True when the stored score says more about the position than the evaluation
    /// `eval` (`Bound::refines`).
    pub fn refines(&self, eval: i32) -> bool {
        self.bound.refines(self.score, eval)
    }
}

/// A move in 16 bits: from, to and promotion, enough to find it among the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedMove(u16);

impl PackedMove {
    /// Packs a move (castling is king-to-rook, as shakmaty keeps it).
    pub fn new(mv: Move) -> Self {
        let from = mv.from().map_or(0, |sq| sq as u16);
        let to = mv.to() as u16;
        let promotion = mv.promotion().map_or(0, |r| r as u16);
        PackedMove(from | to << 6 | promotion << 12)
    }

    /// True when `mv` is the packed move.
    pub fn matches(self, mv: Move) -> bool {
        PackedMove::new(mv) == self
    }

    /// The packed move from its 16 bits (0 is no move).
    pub fn from_bits(bits: u16) -> Option<Self> {
        (bits != 0).then_some(PackedMove(bits))
    }

    /// The move's from and to squares and promotion role.
    pub fn squares(self) -> (Square, Square, Option<Role>) {
        let square = |shift: u16| Square::new(u32::from(self.0 >> shift & 63));
        (square(0), square(6), Role::try_from(self.0 >> 12).ok())
    }

    /// The 16 bits: from | to << 6 | promotion role << 12.
    pub fn bits(self) -> u16 {
        self.0
    }
}

const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Entry; ENTRIES_PER_BUCKET]);

/// The table: buckets of entries, and the age of the current search.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU64,
}

// Data word layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | age 6.
fn pack(mv: Option<PackedMove>, score: i32, eval: i32, depth: i32, bound: Bound, age: u64) -> u64 {
    let bound = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(mv.map_or(0, |m| m.0))
        | u64::from(score as i16 as u16) << 16
        | u64::from(eval as i16 as u16) << 32
        | u64::from(depth.clamp(0, 255) as u8) << 48
        | bound << 56
        | (age & 63) << 58
}

fn data_depth(data: u64) -> i32 {
    i32::from((data >> 48) as u8)
}

fn data_age(data: u64) -> u64 {
    data >> 58
}

/// Megabytes to bucket count.
fn bucket_count(mb: usize) -> usize {
    (mb.max(1) << 20) / std::mem::size_of::<Bucket>()
}

impl TranspositionTable {
    /// A cleared table of `mb` megabytes, or an error if the memory cannot be had.
    pub fn new(mb: usize) -> Result<Self, String> {
        let count = bucket_count(mb);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate {mb} MB for the hash table"))?;
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable { buckets, age: AtomicU64::new(0) })
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Empties every entry (`ucinewgame`, `Clear Hash`).
    pub fn clear(&self) {
        for bucket in &self.buckets {
            for entry in &bucket.0 {
                entry.check.store(0, Ordering::Relaxed);
                entry.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let index = (u128::from(key) * self.buckets.len() as u128) >> 64;
        &self.buckets[index as usize]
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that the probe at the
    /// child node, a move and an accumulator update later, does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint that reads nothing; the address is a bucket's.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(self.bucket(key)).cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; the score comes back relative to `ply`, mates and tablebase wins
    /// read against the node's fifty-move counter `halfmoves` (`score_from_tt`).
    #[inline(always)]
    pub fn probe(&self, key: u64, ply: usize, halfmoves: u32) -> Option<TtHit> {
        for entry in &self.bucket(key).0 {
            let data = entry.data.load(Ordering::Relaxed);
            if data == 0 || entry.check.load(Ordering::Relaxed) ^ data != key {
                continue;
            }
            let bound = match (data >> 56) & 3 {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            };
            return Some(TtHit {
                mv: PackedMove::from_bits(data as u16),
                score: score_from_tt(i32::from((data >> 16) as u16 as i16), ply, halfmoves),
                eval: i32::from((data >> 32) as u16 as i16),
                depth: data_depth(data),
                bound,
            });
        }
        None
    }

    /// Stores a node's result for `key`, found at `ply` (mate scores are made node-relative).
    #[inline(always)]
    pub fn store(&self, key: u64, ply: usize, record: TtRecord) {
        let TtRecord { mv, score, eval, depth, bound } = record;
        let age = self.age.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for entry in &bucket.0 {
            let data = entry.data.load(Ordering::Relaxed);
            let same = data != 0 && entry.check.load(Ordering::Relaxed) ^ data == key;
            if data == 0 || same {
                // Keep a deeper result of the same position unless this one is exact.
                if same && bound != Bound::Exact && depth + 3 < data_depth(data) && data_age(data) == age {
                    return;
                }
                let mv = mv.map(PackedMove::new).or_else(|| PackedMove::from_bits(data as u16));
                self.write(entry, key, pack(mv, score_to_tt(score, ply), eval, depth, bound, age));
                return;
            }
            let stale = ((age + 64 - data_age(data)) & 63) as i32;
            let worth = data_depth(data) - 8 * stale;
            if worth < victim_worth {
                victim = entry;
                victim_worth = worth;
            }
        }
        let data = pack(mv.map(PackedMove::new), score_to_tt(score, ply), eval, depth, bound, age);
        self.write(victim, key, data);
    }

    fn write(&self, entry: &Entry, key: u64, data: u64) {
        entry.check.store(key ^ data, Ordering::Relaxed);
        entry.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                data != 0 && data_age(data) == age
            })
            .count();
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;
    use shakmaty::{Role, Square};

    #[test]
    fn a_result_proves_its_bound_and_a_bound_settles_only_its_side_of_the_window() {
        assert_eq!(Bound::of(50, 10, 50), Bound::Lower);
        assert_eq!(Bound::of(30, 10, 50), Bound::Exact);
        assert_eq!(Bound::of(10, 10, 50), Bound::Upper);
        let hit = |score, bound| TtHit { mv: None, score, eval: 0, depth: 1, bound };
        assert!(hit(30, Bound::Exact).settles(10, 50));
        assert!(hit(50, Bound::Lower).settles(10, 50) && !hit(49, Bound::Lower).settles(10, 50));
        assert!(hit(10, Bound::Upper).settles(10, 50) && !hit(11, Bound::Upper).settles(10, 50));
    }

    #[test]
    fn a_bound_refines_the_evaluation_only_on_its_side() {
        let hit = |score, bound| TtHit { mv: None, score, eval: 0, depth: 1, bound };
        assert!(hit(-40, Bound::Exact).refines(20));
        assert!(hit(21, Bound::Lower).refines(20) && !hit(20, Bound::Lower).refines(20));
        assert!(hit(19, Bound::Upper).refines(20) && !hit(80, Bound::Upper).refines(20));
    }

    fn knight_move() -> Move {
        Move::Normal { role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None }
    }

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(
            0xDEAD_BEEF,
            3,
            TtRecord { mv: Some(knight_move()), score: -57, eval: 12, depth: 7, bound: Bound::Lower },
        );
        let hit = tt.probe(0xDEAD_BEEF, 3, 0).unwrap();
        assert_eq!((hit.score, hit.eval, hit.depth, hit.bound), (-57, 12, 7, Bound::Lower));
        assert!(hit.mv.unwrap().matches(knight_move()));
        assert!(tt.probe(0xDEAD_BEEE, 3, 0).is_none());
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let tt = TranspositionTable::new(1).unwrap();
        // Mate in 5 plies from the root, found at ply 2: mate in 3 from the node.
        tt.store(42, 2, TtRecord { mv: None, score: MATE - 5, eval: 0, depth: 4, bound: Bound::Exact });
        assert_eq!(tt.probe(42, 2, 0).unwrap().score, MATE - 5);
        // Reached again at ply 6: the same mate is now 9 plies from the root.
        assert_eq!(tt.probe(42, 6, 0).unwrap().score, MATE - 9);
        tt.store(43, 1, TtRecord { mv: None, score: -MATE + 4, eval: 0, depth: 4, bound: Bound::Exact });
        assert_eq!(tt.probe(43, 3, 0).unwrap().score, -MATE + 6);
    }

    #[test]
    fn tablebase_wins_are_stored_relative_to_the_node_too() {
        use crate::score::TB_WIN;
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(44, 2, TtRecord { mv: None, score: TB_WIN - 2, eval: 0, depth: 7, bound: Bound::Lower });
        assert_eq!(tt.probe(44, 5, 0).unwrap().score, TB_WIN - 5);
        tt.store(45, 3, TtRecord { mv: None, score: -(TB_WIN - 6), eval: 0, depth: 7, bound: Bound::Upper });
        assert_eq!(tt.probe(45, 1, 0).unwrap().score, -(TB_WIN - 4));
    }

    #[test]
    fn a_full_bucket_replaces_the_shallowest_entry() {
        let tt = TranspositionTable::new(1).unwrap();
        let buckets = tt.buckets.len() as u64;
        // Keys whose top bits pick bucket 0.
        let keys: Vec<u64> = (1..=5).collect();
        assert!(keys.iter().all(|&k| (u128::from(k) * u128::from(buckets)) >> 64 == 0));
        for (i, &key) in keys[..4].iter().enumerate() {
            tt.store(
                key,
                0,
                TtRecord { mv: None, score: 0, eval: 0, depth: 10 - i as i32, bound: Bound::Exact },
            );
        }
        tt.store(keys[4], 0, TtRecord { mv: None, score: 0, eval: 0, depth: 9, bound: Bound::Exact });
        assert!(tt.probe(keys[3], 0, 0).is_none(), "depth 7 was the shallowest");
        for &key in &[keys[0], keys[1], keys[2], keys[4]] {
            assert!(tt.probe(key, 0, 0).is_some());
        }
    }

    #[test]
    fn old_entries_give_way_to_new_searches() {
        let tt = TranspositionTable::new(1).unwrap();
        for key in 1..=4 {
            tt.store(key, 0, TtRecord { mv: None, score: 0, eval: 0, depth: 20, bound: Bound::Exact });
        }
        tt.new_search();
        tt.store(5, 0, TtRecord { mv: None, score: 0, eval: 0, depth: 1, bound: Bound::Exact });
        assert!(tt.probe(5, 0, 0).is_some());
        assert_eq!((1..=4).filter(|&k| tt.probe(k, 0, 0).is_some()).count(), 3);
    }

    #[test]
    fn a_shallow_bound_does_not_overwrite_a_deep_result() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(9, 0, TtRecord { mv: None, score: 100, eval: 0, depth: 12, bound: Bound::Lower });
        tt.store(9, 0, TtRecord { mv: None, score: -5, eval: 0, depth: 2, bound: Bound::Upper });
        assert_eq!(tt.probe(9, 0, 0).unwrap().depth, 12);
        tt.store(9, 0, TtRecord { mv: None, score: 7, eval: 0, depth: 2, bound: Bound::Exact });
        assert_eq!(tt.probe(9, 0, 0).unwrap().score, 7);
    }

    #[test]
    fn sizes_are_as_asked_hashfull_counts_and_clear_empties_every_entry() {
        for mb in [1, 2, 64] {
            assert_eq!(TranspositionTable::new(mb).unwrap().size_mb(), mb);
        }
        let tt = TranspositionTable::new(2).unwrap();
        let buckets = tt.buckets.len() as u128;
        // One key in each of the 250 buckets hashfull samples: a quarter of their entries.
        let keys: Vec<u64> = (0..250u128).map(|b| ((b << 64).div_ceil(buckets)) as u64 | 1).collect();
        for &key in &keys {
            tt.store(key, 0, TtRecord { mv: None, score: 1, eval: 0, depth: 1, bound: Bound::Exact });
        }
        assert_eq!(tt.hashfull(), 250);
        assert!(keys.iter().all(|&key| tt.probe(key, 0, 0).is_some()));
        tt.clear();
        assert!(keys.iter().all(|&key| tt.probe(key, 0, 0).is_none()));
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn impossible_sizes_are_an_error_not_an_abort() {
        assert!(TranspositionTable::new(usize::MAX >> 21).is_err());
    }
}
