//! Unit tests that watch the root from inside (`SearchStats::trace`); the search's
//! behaviour through its public interface is tested in `tests/search.rs`.

use super::{Limits, SearchConfig, SearchControl, SearchInfo, SearchResult, Searcher};
use crate::game::Game;
use shakmaty::{CastlingMode, fen::Fen};
use std::sync::Arc;

fn game(fen: &str) -> Game {
    Game::from_fen(fen.parse::<Fen>().unwrap(), CastlingMode::Standard).unwrap()
}

fn search_with(searcher: &mut Searcher, game: &Game, limits: Limits) -> (SearchResult, Vec<SearchInfo>) {
    let mut infos = Vec::new();
    let control = Arc::new(SearchControl::new(false));
    let result = searcher.search(game, limits, control, &mut |info| infos.push(info.clone()));
    (result, infos)
}

const QUIET: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp3ppp/4pn2/2pp4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 0 5",
];

#[test]
fn the_previous_pv_move_is_searched_first() {
    for fen in QUIET {
        // Below the aspiration depth each iteration searches the root once.
        let (result, infos) = search_with(&mut Searcher::default(), &game(fen), Limits::depth(4));
        let firsts = &result.stats.trace.first_moves;
        assert_eq!(firsts.len(), 4, "{fen}");
        for d in 1..infos.len() {
            assert_eq!(firsts[d], infos[d - 1].pv[0], "{fen}: iteration {}", d + 1);
        }
    }
}

#[test]
fn a_stop_as_any_root_search_begins_still_leaves_a_move() {
    // Every search of the root (each aspiration window, each MultiPV line) empties the root
    // PV as it starts. Stopping on exactly that node must keep the last good move.
    for fen in [QUIET[1], QUIET[2], "r1b1r1k1/1ppn1p1p/3pnqp1/8/p1P1P3/5P2/PbNQNBPP/1R2RB1K w - - 0 1"] {
        for multi_pv in [1, 3] {
            let config = SearchConfig { multi_pv, ..SearchConfig::default() };
            let (full, _) = search_with(&mut Searcher::new(config), &game(fen), Limits::depth(8));
            let starts = &full.stats.trace.root_starts;
            assert!(starts.len() >= 8 * multi_pv, "{fen}: every iteration, line and window is traced");
            for &start in starts.iter().filter(|&&n| n > 0) {
                let limits = Limits { nodes: Some(start + 1), ..Limits::default() };
                let (result, _) = search_with(&mut Searcher::new(config), &game(fen), limits);
                assert!(
                    result.best_move.is_some(),
                    "{fen} MultiPV {multi_pv}: stopped at node {}",
                    start + 1
                );
            }
        }
    }
}

#[test]
fn the_tables_keep_the_moves_that_throw_the_win_away_out_of_the_root_and_give_the_score() {
    // Kb3 attacks a2, a3 and a4: those rook moves throw the win away, so no search of the
    // root may even start with one of them.
    let mut searcher = Searcher::default();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    searcher.set_tablebases(crate::syzygy::load(&[dir]).tables.map(Arc::new));
    let (result, infos) =
        search_with(&mut searcher, &game("8/8/8/8/8/1k6/8/R3K3 w - - 0 1"), Limits::depth(6));
    assert!(infos.iter().all(|info| info.score == crate::score::TB_WIN), "the tables' score: {infos:?}");
    let firsts: Vec<String> = result
        .stats
        .trace
        .first_moves
        .iter()
        .map(|mv| mv.to_uci(CastlingMode::Standard).to_string())
        .collect();
    assert!(firsts.len() >= 6);
    assert!(firsts.iter().all(|mv| !["a1a2", "a1a3", "a1a4"].contains(&mv.as_str())), "{firsts:?}");
}

#[test]
fn a_root_with_one_legal_move_is_searched_at_most_half_a_second_on_any_clock() {
    use super::time::{Clock, TimeManager};
    let clock = Clock { time_ms: 600_000, inc_ms: 5_000, moves_to_go: None };
    let limits = |depth| Limits {
        depth: Some(depth),
        time: Some(TimeManager::from_clock(clock, 10)),
        ..Limits::default()
    };
    // Kxb2 is White's only move.
    let mut searcher = Searcher::default();
    let (result, _) = search_with(&mut searcher, &game("k7/8/8/8/8/8/1r6/K7 w - - 0 1"), limits(2));
    assert_eq!(result.best_move.map(|mv| mv.to_uci(CastlingMode::Standard).to_string()), Some("a1b2".into()));
    assert!(
        searcher.limits.time.is_some_and(|tm| tm.hard_ms <= 500 && !tm.flexible),
        "{:?}",
        searcher.limits.time
    );
    search_with(&mut searcher, &game(QUIET[0]), limits(2));
    assert_eq!(
        searcher.limits.time,
        Some(TimeManager::from_clock(clock, 10)),
        "many moves: the clock's budgets"
    );
}
