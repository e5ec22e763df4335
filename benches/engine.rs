//! Criterion benches: search to a fixed depth, perft and evaluation.

use criterion::{Criterion, criterion_group, criterion_main};
use principia::{bench::POSITIONS, eval, game::Game, perft, search};
use shakmaty::{CastlingMode, Chess, fen::Fen};
use std::hint::black_box;
use std::sync::Arc;

fn games() -> Vec<Game> {
    POSITIONS
        .iter()
        .map(|fen| Game::from_fen(fen.parse::<Fen>().unwrap(), CastlingMode::Standard).unwrap())
        .collect()
}

fn search_depth_4(c: &mut Criterion) {
    let games = games();
    c.bench_function("search/pvs_depth_4_bench_positions", |b| {
        b.iter(|| {
            for game in &games {
                let mut searcher = search::Searcher::default();
                let control = Arc::new(search::SearchControl::new(false));
                black_box(searcher.search(game, search::Limits::depth(4), control, &mut |_| {}));
            }
        })
    });
}

fn perft_start(c: &mut Criterion) {
    let pos = Chess::default();
    c.bench_function("perft/startpos_depth_4", |b| b.iter(|| perft::perft(black_box(&pos), 4)));
}

fn evaluation(c: &mut Criterion) {
    let games = games();
    c.bench_function("eval/bench_positions", |b| {
        b.iter(|| games.iter().map(|g| eval::evaluate(black_box(g.position()))).sum::<i32>())
    });
}

criterion_group!(benches, search_depth_4, perft_start, evaluation);
criterion_main!(benches);
