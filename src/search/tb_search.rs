//! The search's use of the Syzygy tables (`crate::syzygy` loads and probes the files):
//! the root moves restricted to those that keep the tables' best outcome, and the WDL
//! probe below the root, stored in the hash table.

use super::{SearchInfo, Searcher};
use crate::syzygy::{self, TB_STORE_DEPTH_BONUS};
use crate::tt::TtRecord;
use shakmaty::Chess;

impl Searcher {
    /// With the root in the tables: restricts the root moves (as `searchmoves` does, within
    /// the ones asked for) to those that keep the best outcome at the best DTZ rank, and
    /// returns the tables' score for the root.
    pub(super) fn restrict_root_moves(&mut self, root: &Chess) -> Option<i32> {
        let moves = self.limits.root_moves(root);
        let rule50 = self.config.syzygy.rule50;
        let ranking = self.tablebases.as_deref()?.rank_root(root, &moves, self.stack.game_keys(), rule50)?;
        self.counts.tbhits += ranking.probes;
        self.limits.searchmoves = ranking.moves;
        Some(ranking.score)
    }

    /// The tables' score for `pos` at `ply`, when the search should probe there (see
    /// `Tablebases::probe_search`); the result is counted and stored in the hash table.
    #[inline]
    pub(super) fn probe_tablebases(&mut self, pos: &Chess, depth: i32, ply: usize) -> Option<i32> {
        let settings = self.config.syzygy;
        let (score, bound) = self.tablebases.as_deref()?.probe_search(pos, depth, ply, settings)?;
        self.counts.tbhits += 1;
        if self.uses_tt() {
            let eval = self.evaluate(pos, ply);
            let key = self.stack.key(ply);
            self.tt.store(
                key,
                ply,
                TtRecord { mv: None, score, eval, depth: depth + TB_STORE_DEPTH_BONUS, bound },
            );
        }
        Some(score)
    }
}

/// `info` with the tables' root score in place of the search's, unless that is a mate.
pub(super) fn with_root_score(info: &SearchInfo, tb_score: i32) -> SearchInfo {
    SearchInfo { score: syzygy::reported_score(tb_score, info.score), ..info.clone() }
}
