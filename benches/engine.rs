//! Criterion benches, one group per thing measured:
//! `search` (fixed depth per mode), `perft` (bulk and plain), `eval`,
//! `movegen` (legal moves plus ordering) and `tt` (probe and store).
//! Run one group with `cargo bench -- <group>`, e.g. `cargo bench -- perft`.

use criterion::{Criterion, criterion_group, criterion_main};
use principia::search::{ClassicPicker, Limits, SearchConfig, SearchControl, SearchMode, Searcher};
use principia::tt::{Bound, TranspositionTable, TtRecord};
use principia::{
    eval,
    game::Game,
    tools::{bench::POSITIONS, perft},
};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

fn games() -> Vec<Game> {
    POSITIONS
        .iter()
        .map(|fen| Game::from_fen(fen.parse::<Fen>().unwrap(), CastlingMode::Standard).unwrap())
        .collect()
}

/// Every bench position searched to `depth` with a fresh searcher.
fn search_all(games: &[Game], mode: SearchMode, depth: u32) -> u64 {
    games
        .iter()
        .map(|game| {
            let mut searcher =
                Searcher::new(SearchConfig { mode, pv_first: true, ..SearchConfig::default() });
            let control = Arc::new(SearchControl::new(false));
            let result = searcher.search(game, Limits::depth(depth), control, &mut |_| {});
            result.info.map_or(0, |i| i.counters.nodes)
        })
        .sum()
}

fn search(c: &mut Criterion) {
    let games = games();
    let mut group = c.benchmark_group("search");
    group.sample_size(10).measurement_time(Duration::from_secs(6));
    for mode in [SearchMode::Strong, SearchMode::Pvs, SearchMode::AlphaBeta] {
        group.bench_function(format!("{}_depth_4", mode.name()), |b| b.iter(|| search_all(&games, mode, 4)));
    }
    // Minimax explodes quickly: depth 2 over the bench positions.
    group.bench_function("Minimax_depth_2", |b| b.iter(|| search_all(&games, SearchMode::Minimax, 2)));
    group.finish();
}

fn perft_group(c: &mut Criterion) {
    let pos = Chess::default();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("bulk_startpos_depth_4", |b| b.iter(|| perft::perft(black_box(&pos), 4)));
    group.bench_function("plain_startpos_depth_4", |b| b.iter(|| perft::perft_unbulked(black_box(&pos), 4)));
    group.finish();
}

fn evaluation(c: &mut Criterion) {
    let games = games();
    let net = eval::Network::embedded();
    c.bench_function("eval/refresh_and_evaluate", |b| {
        b.iter(|| games.iter().map(|g| net.evaluate_position(black_box(g.position()))).sum::<i32>())
    });
}

fn movegen(c: &mut Criterion) {
    let games = games();
    c.bench_function("movegen/legal_and_ordered", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|g| ClassicPicker::new(&mut g.position().legal_moves(), None, None).count())
                .sum::<usize>()
        })
    });
}

fn tt(c: &mut Criterion) {
    let table = TranspositionTable::new(16).unwrap();
    let keys: Vec<u64> = (1..=4096u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
    let mut group = c.benchmark_group("tt");
    group.bench_function("store_4096", |b| {
        b.iter(|| {
            for (i, &key) in keys.iter().enumerate() {
                table.store(
                    key,
                    0,
                    TtRecord {
                        mv: None,
                        score: i as i32,
                        eval: 0,
                        depth: (i % 20) as i32,
                        bound: Bound::Exact,
                    },
                );
            }
        })
    });
    group.bench_function("probe_4096", |b| {
        b.iter(|| keys.iter().filter(|&&key| table.probe(black_box(key), 0, 0).is_some()).count())
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = search, perft_group, evaluation, movegen, tt
}
criterion_main!(benches);
