//! `datagen`: self-play games at a soft node budget from randomised openings, written as
//! game records (`games.rs`) for training the evaluation.
//!
//! Game `n` of a run depends only on the run's seed and `n`: its opening comes from its
//! own random generator and it is played with a fresh hash table and fresh histories.
//! Threads play games side by side and the games are written in their numbers' order, so
//! a run writes the same bytes whatever its thread count, and a run resumed after an
//! interrupt (the partial record at the end cut off) writes what an unbroken one would.

use super::games::{self, GameRecord};
use crate::game::Game;
use crate::rng::Rng;
use crate::score::TB_WIN_BOUND;
use crate::search::{Limits, STACK_SIZE, SearchConfig, SearchControl, Searcher};
use crate::tt::TranspositionTable;
use shakmaty::{Color, KnownOutcome, Position};
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// What a datagen run does.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// File the games are appended to.
    pub out: PathBuf,
    /// Games in the whole run (a resumed run counts the games already written).
    pub games: u64,
    /// Soft node budget of each move: no new iteration starts past it.
    pub nodes: u64,
    /// Hard node budget of each move: the running iteration is cut off here.
    pub hard_nodes: u64,
    /// Random plies from the start position (this many or one more) before the engine plays.
    pub random_plies: u32,
    /// Seed of the run.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
}

/// The hard budget, unless given, is this many times the soft budget.
pub const DEFAULT_HARD_NODES_FACTOR: u64 = 8;
/// Hash table of each datagen thread, in MB.
const HASH_MB: usize = 8;
/// Openings whose first search is more unbalanced than this are drawn again.
const OPENING_MAX_SCORE: i32 = 300;
/// A side is adjudicated the winner once every score for this many plies is this large.
const WIN_SCORE: i32 = 1000;
const WIN_PLIES: usize = 6;
/// A game is adjudicated drawn after this many searched plies (after the opening) once
/// scores stay this small for this many plies.
const DRAW_FROM_PLY: usize = 80;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 10;
/// Games are drawn after this many searched plies at the latest.
const MAX_PLIES: usize = 400;
/// Seconds between progress lines.
const PROGRESS_SECS: u64 = 10;

/// Runs (or resumes) the datagen described by `config`, reporting progress on stderr.
pub fn run(config: DatagenConfig) -> Result<(), String> {
    let done = resume_point(&config)?;
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .open(&config.out)
        .map_err(|e| format!("{}: {e}", config.out.display()))?;
    if done >= config.games {
        eprintln!("datagen: {} already holds {done} games", config.out.display());
        return Ok(());
    }
    let next = Arc::new(AtomicU64::new(done));
    let failed = Arc::new(AtomicBool::new(false));
    let (sender, games) = mpsc::channel();
    let mut workers = Vec::new();
    for i in 0..config.threads.max(1) {
        let (config, next, failed, sender) = (config.clone(), next.clone(), failed.clone(), sender.clone());
        let worker = std::thread::Builder::new()
            .name(format!("datagen {i}"))
            .stack_size(STACK_SIZE)
            .spawn(move || play_games(&config, &next, &failed, &sender))
            .map_err(|e| e.to_string())?;
        workers.push(worker);
    }
    drop(sender);
    let written = write_in_order(&config, done, &games, &mut file);
    if written.is_err() {
        failed.store(true, Ordering::Relaxed);
    }
    for worker in workers {
        worker.join().map_err(|_| "a datagen thread panicked".to_string())?;
    }
    written
}

/// Plays games, taking the next number each time, until the run has them all.
fn play_games(
    config: &DatagenConfig,
    next: &AtomicU64,
    failed: &AtomicBool,
    out: &mpsc::Sender<(u64, GameRecord)>,
) {
    let tt = Arc::new(TranspositionTable::new(HASH_MB).expect("datagen hash table"));
    while !failed.load(Ordering::Relaxed) {
        let number = next.fetch_add(1, Ordering::Relaxed);
        if number >= config.games {
            break;
        }
        let record = play_game(number, config, &tt);
        if out.send((number, record)).is_err() {
            break;
        }
    }
}

/// Writes the games as they arrive, each only after every game numbered before it.
fn write_in_order(
    config: &DatagenConfig,
    done: u64,
    games: &mpsc::Receiver<(u64, GameRecord)>,
    file: &mut std::fs::File,
) -> Result<(), String> {
    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut pending = BTreeMap::new();
    let (mut next, mut positions) = (done, 0u64);
    loop {
        let received = games.recv_timeout(Duration::from_secs(1));
        let disconnected = matches!(received, Err(mpsc::RecvTimeoutError::Disconnected));
        if let Ok((number, record)) = received {
            pending.insert(number, record);
        }
        while let Some(record) = pending.remove(&next) {
            file.write_all(&record.encode()).and_then(|_| file.flush()).map_err(|e| e.to_string())?;
            positions += record.plies.len() as u64;
            next += 1;
        }
        let finished = next >= config.games || disconnected;
        if finished || last_report.elapsed() >= Duration::from_secs(PROGRESS_SECS) {
            report_progress(config, done, next, positions, start.elapsed());
            last_report = Instant::now();
        }
        if finished {
            return Ok(());
        }
    }
}

/// One progress line on stderr: games, positions, positions per second and the time left.
fn report_progress(config: &DatagenConfig, done: u64, next: u64, positions: u64, took: Duration) {
    let secs = took.as_secs_f64().max(1e-3);
    let played = (next - done) as f64;
    let eta = if played > 0.0 { (config.games - next) as f64 * secs / played } else { 0.0 };
    let eta = eta as u64;
    eprintln!(
        "datagen: {next}/{} games, {positions} positions this run, {:.0} positions/s, ETA {}:{:02}:{:02}",
        config.games,
        positions as f64 / secs,
        eta / 3600,
        eta / 60 % 60,
        eta % 60
    );
}

/// Number of whole games already in the output file; a partial record at its end is cut off.
fn resume_point(config: &DatagenConfig) -> Result<u64, String> {
    let Ok(bytes) = std::fs::read(&config.out) else {
        return Ok(0);
    };
    let (games, len) = games::complete_len(&bytes).map_err(|e| format!("{}: {e}", config.out.display()))?;
    if len < bytes.len() {
        let file = OpenOptions::new().write(true).open(&config.out).map_err(|e| e.to_string())?;
        file.set_len(len as u64).map_err(|e| e.to_string())?;
        eprintln!("datagen: cut off {} bytes of a partial game", bytes.len() - len);
    }
    if games > 0 {
        eprintln!("datagen: resuming after {games} games in {}", config.out.display());
    }
    Ok(games)
}

/// Plays game `number` of the run: a random opening, then the engine against itself.
pub fn play_game(number: u64, config: &DatagenConfig, tt: &Arc<TranspositionTable>) -> GameRecord {
    // A cleared table and fresh histories: the game depends only on its number.
    tt.clear();
    let mut searcher = Searcher::with_tt(SearchConfig::default(), Arc::clone(tt));
    let mut rng = Rng::new(config.seed ^ number.wrapping_mul(0xA24B_AED4_963E_E407));
    let mut game = random_opening(&mut searcher, config, &mut rng);
    let start = game.position().clone();
    let mut plies = Vec::new();
    let mut white_scores = Vec::new();
    let limits =
        Limits { soft_nodes: Some(config.nodes), nodes: Some(config.hard_nodes), ..Limits::default() };
    let winner = loop {
        if let Some(outcome) = rule_outcome(&game, plies.len()) {
            break outcome.winner();
        }
        let control = Arc::new(SearchControl::new(false));
        let found = searcher.search(&game, limits.clone(), control, &mut |_| {});
        let (Some(mv), Some(info)) = (found.best_move, found.info) else {
            break None;
        };
        let white = if game.position().turn() == Color::White { info.score } else { -info.score };
        plies.push((mv, white.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16));
        white_scores.push(white);
        if let Some(outcome) = adjudicate(&white_scores) {
            break outcome.winner();
        }
        game.play(mv);
    };
    GameRecord { start, winner, plies }
}

/// The start position after the random plies (this many or one more, so either side may
/// start), drawn again while the game is over or the first search finds it too unbalanced.
fn random_opening(searcher: &mut Searcher, config: &DatagenConfig, rng: &mut Rng) -> Game {
    loop {
        let mut game = Game::default();
        let plies = config.random_plies + rng.below(2) as u32;
        for _ in 0..plies {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len())]);
        }
        if game.position().legal_moves().is_empty() {
            continue;
        }
        let limits = Limits { nodes: Some(config.nodes), ..Limits::default() };
        let found = searcher.search(&game, limits, Arc::new(SearchControl::new(false)), &mut |_| {});
        if found.info.is_some_and(|info| info.score.abs() <= OPENING_MAX_SCORE) {
            return game;
        }
    }
}

/// The outcome by the rules (mate, stalemate, draws), once the game is over.
fn rule_outcome(game: &Game, plies: usize) -> Option<KnownOutcome> {
    let pos = game.position();
    if pos.is_checkmate() {
        return Some(KnownOutcome::Decisive { winner: !pos.turn() });
    }
    let key = *game.keys().last().expect("current key");
    let repeated = game.keys().iter().filter(|&&k| k == key).count() >= 3;
    let drawn = pos.is_stalemate()
        || pos.is_insufficient_material()
        || pos.halfmoves() >= 100
        || repeated
        || plies >= MAX_PLIES;
    drawn.then_some(KnownOutcome::Draw)
}

/// Ends a game early once the scores (White's side, one per ply) leave no doubt.
fn adjudicate(white_scores: &[i32]) -> Option<KnownOutcome> {
    let n = white_scores.len();
    if n >= WIN_PLIES {
        let last = &white_scores[n - WIN_PLIES..];
        if last.iter().all(|&s| s >= WIN_SCORE) {
            return Some(KnownOutcome::Decisive { winner: Color::White });
        }
        if last.iter().all(|&s| s <= -WIN_SCORE) {
            return Some(KnownOutcome::Decisive { winner: Color::Black });
        }
    }
    if n >= DRAW_FROM_PLY && white_scores[n - DRAW_PLIES..].iter().all(|&s| s.abs() <= DRAW_SCORE) {
        return Some(KnownOutcome::Draw);
    }
    None
}

/// True when a recorded position suits training: a searched score (not `NO_SCORE`) short of
/// a mate or a tablebase win (those say who wins, not how much a position is worth), the
/// side to move not in check, and a quiet best move (the score is not a capture
/// still to come).
pub fn trains(pos: &impl Position, mv: shakmaty::Move, white_score: i16) -> bool {
    white_score != games::NO_SCORE
        && i32::from(white_score).abs() < TB_WIN_BOUND
        && !pos.is_check()
        && !mv.is_capture()
        && mv.promotion().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_needs_agreement() {
        let white = Some(KnownOutcome::Decisive { winner: Color::White });
        assert_eq!(adjudicate(&[1200; 6]), white);
        assert_eq!(adjudicate(&[1200, 1200, 1200, 900, 1200, 1200]), None);
        assert_eq!(adjudicate(&[-1500; 6]), Some(KnownOutcome::Decisive { winner: Color::Black }));
        assert_eq!(adjudicate(&[0; 79]), None);
        assert_eq!(adjudicate(&[0; 80]), Some(KnownOutcome::Draw));
    }

    #[test]
    fn a_ply_without_a_score_or_with_a_mate_or_tablebase_score_does_not_train() {
        let pos = shakmaty::Chess::default();
        let quiet = pos.legal_moves().into_iter().find(|m| m.to() == shakmaty::Square::E4).unwrap();
        assert!(trains(&pos, quiet, 35) && trains(&pos, quiet, -250));
        assert!(!trains(&pos, quiet, games::NO_SCORE));
        assert!(!trains(&pos, quiet, (crate::score::MATE - 3) as i16));
        assert!(!trains(&pos, quiet, (crate::score::TB_WIN - 5) as i16));
        assert!(!trains(&pos, quiet, -(crate::score::TB_WIN - 5) as i16));
    }
}
