//! `bench`: a fixed set of positions searched to a fixed depth with fresh state.
//! The total node count is the signature of the search; the speed is in nps.

use crate::eval::Network;
use crate::game::Game;
use crate::search::{Limits, STACK_SIZE, SearchConfig, SearchControl, Searcher, search_threads};
use crate::stdio::send;
use shakmaty::{CastlingMode, fen::Fen};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 9;

/// Opening, middlegame, endgame and tactical positions (mostly from the classic test suites).
pub const POSITIONS: [&str; 36] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp3ppp/4pn2/2pp4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 0 5",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r4rk1/p1B1bpp1/1p2pn1p/8/2PP4/3B1P2/qP2QP1P/3R1RK1 w - - 0 1",
    "4r1k1/p1qr1p2/2pb1Bp1/1p5p/3P1n1R/1B3P2/PP3PK1/2Q4R w - - 0 1",
    "2rqrn1k/pb4pp/1p2pp2/n2P4/2P3N1/P2B2Q1/1B3PPP/2R1R1K1 w - - 0 1",
    "1rbq1rk1/p1b1nppp/1p2p3/8/1B1pN3/P2B4/1P3PPP/2RQ1R1K w - - 0 1",
    "3r2k1/p2r1p1p/1p2p1p1/q4n2/3P4/PQ5P/1P1RNPP1/3R2K1 b - - 0 1",
    "r1b1r1k1/1ppn1p1p/3pnqp1/8/p1P1P3/5P2/PbNQNBPP/1R2RB1K w - - 0 1",
    "8/k1b5/P4p2/1Pp2p1p/K1P2P1P/8/3B4/8 w - - 0 1",
    "2b5/1r6/2kBp1p1/p2pP1P1/2pP4/1pP3K1/1R3P2/8 b - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/8/1p1k4/1P6/2K5/8/8/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "7k/8/8/8/8/8/8/KQ6 w - - 0 1",
];

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes over all positions: the search signature.
    pub nodes: u64,
    /// Nodes per second of search time (allocating the tables is not counted).
    pub nps: u64,
}

/// Searches every bench position to `depth` with fresh searchers on `threads` threads and
/// the built-in network, printing one line per position and the final `N nodes M nps`
/// line. The node count is the search's signature with one thread; with more it varies from
/// run to run.
pub fn run(depth: u32, config: SearchConfig, threads: usize) -> BenchResult {
    run_with(depth, config, threads, &crate::eval::embedded(), false)
}

/// [`run`] with the network `net`, printing before the last line the nodes of each
/// iteration summed over the positions and the effective branching factor (each
/// iteration's nodes over the last's) when `ebf` is set.
pub fn run_with(
    depth: u32,
    config: SearchConfig,
    threads: usize,
    net: &Arc<Network>,
    ebf: bool,
) -> BenchResult {
    let net = Arc::clone(net);
    std::thread::Builder::new()
        .name("bench".into())
        .stack_size(STACK_SIZE)
        .spawn(move || run_here(depth, config, threads.max(1), &net, ebf))
        .expect("bench thread")
        .join()
        .expect("bench finished")
}

fn run_here(depth: u32, config: SearchConfig, threads: usize, net: &Arc<Network>, ebf: bool) -> BenchResult {
    let mut searching = Duration::ZERO;
    let mut nodes = 0;
    let mut per_iteration = vec![0u64; depth as usize];
    #[cfg(feature = "stats")]
    let mut prune = crate::search::prune_stats::PruneStats::default();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let fen: Fen = fen.parse().expect("bench FEN");
        let game = Game::from_fen(fen, CastlingMode::Standard).expect("bench position");
        let mut searchers: Vec<Searcher> = (0..threads).map(|_| Searcher::new(config)).collect();
        let tt = searchers[0].tt();
        searchers.iter_mut().for_each(|s| {
            s.set_tt(Arc::clone(&tt));
            s.set_network(Arc::clone(net));
        });
        let (main, helpers) = searchers.split_first_mut().expect("a main searcher");
        let control = Arc::new(SearchControl::new(false));
        // Only the search is timed: clearing a fresh 16 MB table would dominate small searches.
        let start = Instant::now();
        let result = search_threads(main, helpers, &game, Limits::depth(depth), control, &mut |_| {}, |_| {});
        let took = start.elapsed();
        searching += took;
        let mut previous = 0;
        for (d, &cumulative) in result.stats.iteration_nodes.iter().enumerate() {
            per_iteration[d] += cumulative - previous;
            previous = cumulative;
        }
        #[cfg(feature = "stats")]
        prune.add(&result.stats.prune);
        let n = result.info.map_or(0, |info| info.counters.nodes);
        let ms = took.as_millis();
        send(&format!("position {:>2}/{}: {n} nodes {ms} ms", i + 1, POSITIONS.len()));
        nodes += n;
    }
    let millis = searching.as_millis().max(1) as u64;
    let nps = nodes * 1000 / millis;
    if threads > 1 {
        send(&format!("{threads} threads: {millis} ms to depth {depth}"));
    }
    if ebf {
        for (d, pair) in per_iteration.windows(2).enumerate() {
            let ratio = pair[1] as f64 / pair[0].max(1) as f64;
            send(&format!("depth {:>2}: {:>10} nodes, EBF {ratio:.2}", d + 2, pair[1]));
        }
    }
    #[cfg(feature = "stats")]
    prune.report().iter().for_each(|line| send(line));
    send(&format!("{nodes} nodes {nps} nps"));
    BenchResult { nodes, nps }
}
