//! `datagen`: self-play at a fixed node budget from randomised openings, writing quiet
//! positions with the game's result for the tuner.
//!
//! Output is text, one position per line: `FEN | R` with R = 1.0, 0.5 or 0.0 from White's
//! side. After each game a line `# game N` is written, so a run can be resumed: games
//! already in the file are skipped, and every game's seed depends only on the run's seed
//! and the game's number, so a resumed run writes what an unbroken one would have.

use crate::game::Game;
use crate::search::{Limits, MATE_BOUND, STACK_SIZE, SearchConfig, SearchControl, Searcher, is_quiet};
use crate::tt::TranspositionTable;
use shakmaty::{Color, EnPassantMode, Position, fen::Fen};
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// What a datagen run does.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// File the positions are appended to.
    pub out: PathBuf,
    /// Games in the whole run (resumed runs count the games already written).
    pub games: u64,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random plies played from the start position before the engine takes over.
    pub random_plies: u32,
    /// Seed of the run.
    pub seed: u64,
}

/// A small deterministic generator (SplitMix64), enough for choosing opening moves.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Openings whose first search is more unbalanced than this are thrown away.
const OPENING_MAX_SCORE: i32 = 300;
/// A side is adjudicated the winner once every score for this many plies is this large.
const WIN_SCORE: i32 = 1000;
const WIN_PLIES: usize = 6;
/// A game is adjudicated drawn after this ply once scores stay this small for this many plies.
const DRAW_FROM_PLY: usize = 80;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 10;
/// Games are drawn at this ply at the latest.
const MAX_PLIES: usize = 400;

/// Runs (or resumes) the datagen described by `config`, reporting progress on stderr.
pub fn run(config: DatagenConfig) -> Result<(), String> {
    std::thread::Builder::new()
        .name("datagen".into())
        .stack_size(STACK_SIZE)
        .spawn(move || run_here(&config))
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "datagen thread panicked".to_string())?
}

fn run_here(config: &DatagenConfig) -> Result<(), String> {
    let done = resume_point(config)?;
    let mut file = OpenOptions::new()
        .append(true)
        .create(true)
        .open(&config.out)
        .map_err(|e| format!("{}: {e}", config.out.display()))?;
    let tt = Arc::new(TranspositionTable::new(8)?);
    let start = Instant::now();
    let mut positions = 0u64;
    for number in done..config.games {
        // A fresh table and fresh histories: a game depends only on its seed.
        tt.clear();
        let mut searcher = Searcher::with_tt(SearchConfig::default(), tt.clone());
        let mut rng = Rng::new(config.seed ^ number.wrapping_mul(0xA24B_AED4_963E_E407));
        let record = play_game(&mut searcher, config, &mut rng);
        let mut text = String::new();
        for fen in &record.fens {
            text.push_str(&format!("{fen} | {}\n", record.result));
        }
        text.push_str(&format!("# game {number}\n"));
        file.write_all(text.as_bytes()).and_then(|_| file.flush()).map_err(|e| e.to_string())?;
        positions += record.fens.len() as u64;
        let played = number + 1 - done;
        let rate = played as f64 / start.elapsed().as_secs_f64().max(1e-3);
        eprintln!(
            "game {}/{}: {} in {} plies, {} positions ({positions} this run, {rate:.2} games/s)",
            number + 1,
            config.games,
            record.result,
            record.plies,
            record.fens.len()
        );
    }
    Ok(())
}

/// Number of games already complete in the output file; cuts off a half-written game.
fn resume_point(config: &DatagenConfig) -> Result<u64, String> {
    let Ok(file) = std::fs::File::open(&config.out) else {
        return Ok(0);
    };
    let mut games = 0;
    let mut complete_len = 0u64;
    let mut len = 0u64;
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|e| e.to_string())?;
        len += line.len() as u64 + 1;
        if let Some(n) = line.strip_prefix("# game ") {
            games = n.trim().parse::<u64>().map_err(|e| e.to_string())? + 1;
            complete_len = len;
        }
    }
    if complete_len < len {
        let mut file = OpenOptions::new().write(true).open(&config.out).map_err(|e| e.to_string())?;
        file.set_len(complete_len).map_err(|e| e.to_string())?;
        file.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
    }
    if games > 0 {
        eprintln!("resuming after {games} games in {}", config.out.display());
    }
    Ok(games)
}

/// One finished self-play game: its quiet positions and result.
struct GameRecord {
    fens: Vec<String>,
    result: &'static str,
    plies: usize,
}

fn play_game(searcher: &mut Searcher, config: &DatagenConfig, rng: &mut Rng) -> GameRecord {
    let mut game = random_opening(searcher, config, rng);
    let mut fens = Vec::new();
    let mut white_scores: Vec<i32> = Vec::new();
    let result = loop {
        if let Some(result) = rule_result(&game, white_scores.len()) {
            break result;
        }
        let limits = Limits { nodes: Some(config.nodes), ..Limits::default() };
        let control = Arc::new(SearchControl::new(false));
        let found = searcher.search(&game, limits, control, &mut |_| {});
        let (Some(mv), Some(info)) = (found.best_move, found.info) else {
            break "0.5";
        };
        let pos = game.position();
        let white = if pos.turn() == Color::White { info.score } else { -info.score };
        // Quiet enough for the tuner: not in check, best move neither a capture nor a promotion.
        if info.score.abs() < MATE_BOUND && !pos.is_check() && is_quiet(mv) {
            fens.push(Fen::from_position(pos, EnPassantMode::Legal).to_string());
        }
        white_scores.push(white);
        if let Some(result) = adjudicate(&white_scores) {
            break result;
        }
        game.play(mv);
    };
    GameRecord { fens, result, plies: white_scores.len() }
}

/// The start position after `random_plies` random moves, re-drawn while the result is
/// over or too unbalanced for a useful game.
fn random_opening(searcher: &mut Searcher, config: &DatagenConfig, rng: &mut Rng) -> Game {
    loop {
        let mut game = Game::default();
        for _ in 0..config.random_plies {
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

/// The result by the rules (mate, stalemate, draws), from White's side.
fn rule_result(game: &Game, plies: usize) -> Option<&'static str> {
    let pos = game.position();
    if pos.is_checkmate() {
        return Some(if pos.turn() == Color::White { "0.0" } else { "1.0" });
    }
    let key = *game.keys().last().expect("current key");
    let repeated = game.keys().iter().filter(|&&k| k == key).count() >= 3;
    let drawn = pos.is_stalemate()
        || pos.is_insufficient_material()
        || pos.halfmoves() >= 100
        || repeated
        || plies >= MAX_PLIES;
    drawn.then_some("0.5")
}

/// Ends a game early once the scores (White's side, one per ply) leave no doubt.
fn adjudicate(white_scores: &[i32]) -> Option<&'static str> {
    let n = white_scores.len();
    if n >= WIN_PLIES {
        let last = &white_scores[n - WIN_PLIES..];
        if last.iter().all(|&s| s >= WIN_SCORE) {
            return Some("1.0");
        }
        if last.iter().all(|&s| s <= -WIN_SCORE) {
            return Some("0.0");
        }
    }
    if n >= DRAW_FROM_PLY && white_scores[n - DRAW_PLIES..].iter().all(|&s| s.abs() <= DRAW_SCORE) {
        return Some("0.5");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert_eq!(
            (0..5).map(|_| a.next_u64()).collect::<Vec<_>>(),
            (0..5).map(|_| b.next_u64()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn adjudication_needs_agreement() {
        assert_eq!(adjudicate(&[1200; 6]), Some("1.0"));
        assert_eq!(adjudicate(&[1200, 1200, 1200, 900, 1200, 1200]), None);
        assert_eq!(adjudicate(&[-1500; 6]), Some("0.0"));
        assert_eq!(adjudicate(&[0; 79]), None);
        assert_eq!(adjudicate(&[0; 80]), Some("0.5"));
    }
}
