//! `genfens`: opening positions for OpenBench's data-generation workloads. Each is the
//! start position after 8 or 9 random plies (or a random line of a book, plus 0-1 random
//! plies), kept only when it is legal, not over and not decided: a short search of it
//! scores within `MAX_SCORE`. The same seed gives the same positions.

use crate::game::Game;
use crate::rng::Rng;
use crate::search::{Limits, SearchControl, Searcher};
use shakmaty::{CastlingMode, EnPassantMode, Position, fen::Fen};
use std::path::Path;
use std::sync::Arc;

/// Random plies from the start position (this many or one more).
const RANDOM_PLIES: usize = 8;
/// Positions a short search scores beyond this are decided and drawn again.
const MAX_SCORE: i32 = 400;
/// Nodes of the short search that judges a position.
const CHECK_NODES: u64 = 1_000;
/// Tries per position asked for before giving up (a book of finished games, say).
const MAX_TRIES: usize = 1_000;

/// `count` opening FENs for `seed`, from `book` (FEN or EPD lines) or the start position.
pub fn generate(count: usize, seed: u64, book: Option<&Path>) -> Result<Vec<String>, String> {
    let lines = match book {
        Some(path) => read_book(path)?,
        None => Vec::new(),
    };
    let mut rng = Rng::new(seed ^ 0x6A09_E667_F3BC_C909);
    let mut searcher = Searcher::default();
    let mut fens = Vec::with_capacity(count);
    let mut tries = 0;
    while fens.len() < count {
        tries += 1;
        if tries > MAX_TRIES * count.max(1) {
            return Err(format!("only {} of {count} positions found undecided", fens.len()));
        }
        let Some(game) = opening(&lines, &mut rng) else {
            continue;
        };
        let limits = Limits { nodes: Some(CHECK_NODES), ..Limits::default() };
        let found = searcher.search(&game, limits, Arc::new(SearchControl::new(false)), &mut |_| {});
        if found.info.is_some_and(|info| info.score.abs() <= MAX_SCORE) && found.best_move.is_some() {
            fens.push(Fen::from_position(game.position(), EnPassantMode::Legal).to_string());
        }
    }
    Ok(fens)
}

/// A random opening: a book line (when there is a book) and then random plies; `None`
/// when the line is unreadable or the game ends on the way.
fn opening(book: &[String], rng: &mut Rng) -> Option<Game> {
    let (mut game, plies) = if book.is_empty() {
        (Game::default(), RANDOM_PLIES + rng.below(2))
    } else {
        let line = &book[rng.below(book.len())];
        let fen: Fen = line.split_whitespace().take(6).collect::<Vec<_>>().join(" ").parse().ok()?;
        let game = Game::from_fen(fen.clone(), CastlingMode::Standard)
            .or_else(|_| Game::from_fen(fen, CastlingMode::Chess960))
            .ok()?;
        (game, rng.below(2))
    };
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.below(moves.len())]);
    }
    (!game.position().legal_moves().is_empty()).then_some(game)
}

/// The FENs of a book: one position per line (EPD operations after the four fields are
/// dropped, missing counters read as `0 1`).
fn read_book(path: &Path) -> Result<Vec<String>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read book {}: {e}", path.display()))?;
    let lines: Vec<String> = text
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            (fields.len() == 4).then(|| format!("{} 0 1", fields.join(" ")))
        })
        .collect();
    if lines.is_empty() {
        return Err(format!("book {} has no positions", path.display()));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    #[test]
    fn positions_are_legal_varied_undecided_and_the_same_for_a_seed() {
        let fens = generate(12, 5, None).unwrap();
        assert_eq!(fens.len(), 12);
        assert_eq!(fens, generate(12, 5, None).unwrap(), "the same seed, the same positions");
        assert_ne!(fens, generate(12, 6, None).unwrap());
        let distinct: std::collections::BTreeSet<&String> = fens.iter().collect();
        assert_eq!(distinct.len(), 12);
        for fen in &fens {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            assert!(!pos.legal_moves().is_empty(), "{fen}");
            assert!(pos.fullmoves().get() >= 5, "8 or 9 plies were played: {fen}");
        }
    }

    #[test]
    fn a_book_gives_its_lines_and_a_missing_one_is_an_error() {
        let path = std::env::temp_dir().join(format!("principia-book-{}.epd", std::process::id()));
        std::fs::write(&path, "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c0 \"x\";\n")
            .unwrap();
        let fens = generate(4, 1, Some(&path)).unwrap();
        assert!(
            fens.iter().all(|f| f.starts_with("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w")
                || f.contains("/5N2/")
                || f.contains("5n2")),
            "{fens:?}"
        );
        let _ = std::fs::remove_file(&path);
        assert!(generate(1, 1, Some(Path::new("/no/such/book.epd"))).unwrap_err().contains("cannot read"));
    }
}
