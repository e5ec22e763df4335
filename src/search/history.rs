//! What the search learns about quiet moves: killers (quiet moves that caused a cutoff
//! at the same ply) and a history score per side, piece and target square.

use super::MAX_PLY;
use shakmaty::{Color, Move};

/// History scores stay within this bound (the update pulls them back toward zero).
pub const HISTORY_MAX: i32 = 16_384;

/// Killers and history of one search thread.
pub struct QuietHistory {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    history: [[[i32; 64]; 6]; 2],
}

impl Default for QuietHistory {
    fn default() -> Self {
        QuietHistory { killers: [[None; 2]; MAX_PLY + 1], history: [[[0; 64]; 6]; 2] }
    }
}

impl QuietHistory {
    /// Forgets the killers and halves the history before a new search.
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        self.history.iter_mut().flatten().flatten().for_each(|h| *h /= 2);
    }

    /// The killers at `ply`, most recent first.
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// History score of the quiet move `mv` by `color`.
    pub fn score(&self, color: Color, mv: Move) -> i32 {
        self.history[color as usize][mv.role() as usize - 1][mv.to() as usize]
    }

    /// The quiet move `mv` failed high at `ply`: make it a killer, raise its history and
    /// lower the history of the quiet moves `tried` before it.
    pub fn on_cutoff(&mut self, ply: usize, color: Color, depth: i32, mv: Move, tried: &[Move]) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply] = [Some(mv), self.killers[ply][0]];
        }
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        self.update(color, mv, bonus);
        for &other in tried.iter().filter(|&&m| m != mv) {
            self.update(color, other, -bonus);
        }
    }

    fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let h = &mut self.history[color as usize][mv.role() as usize - 1][mv.to() as usize];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, fen::Fen, uci::UciMove};

    fn mv(p: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>().unwrap().to_move(p).unwrap()
    }

    #[test]
    fn cutoffs_make_killers_and_move_the_history() {
        let p: Chess = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut h = QuietHistory::default();
        let (a, b, c) = (mv(&p, "a1a7"), mv(&p, "e1d2"), mv(&p, "a1a2"));
        h.on_cutoff(3, Color::White, 4, a, &[c]);
        h.on_cutoff(3, Color::White, 6, b, &[]);
        assert_eq!(h.killers(3), [Some(b), Some(a)]);
        assert_eq!(h.killers(4), [None, None]);
        assert!(h.score(Color::White, a) > 0 && h.score(Color::White, b) > h.score(Color::White, a));
        assert!(h.score(Color::White, c) < 0, "c was tried before the cutoff");
        assert_eq!(h.score(Color::Black, a), 0, "each side has its own history");
        for _ in 0..10_000 {
            h.on_cutoff(3, Color::White, 60, a, &[]);
        }
        assert!(h.score(Color::White, a) <= HISTORY_MAX);
        h.new_search();
        assert_eq!(h.killers(3), [None, None]);
    }
}
