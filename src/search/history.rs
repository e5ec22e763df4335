//! What the search learns about quiet moves across a search: a history score per side,
//! piece and target square, raised for moves that cut off and lowered for the quiet moves
//! tried before them. (Killers, learnt per ply, live on the stack.)

use super::params::{HISTORY_BONUS_MAX, HISTORY_MAX};
use shakmaty::{Color, Move};

/// The history scores of one search thread.
pub struct QuietHistory {
    table: [[[i32; 64]; 6]; 2],
}

impl Default for QuietHistory {
    fn default() -> Self {
        QuietHistory { table: [[[0; 64]; 6]; 2] }
    }
}

impl QuietHistory {
    /// Halves every score before a new search: the last search's lessons count less.
    pub fn new_search(&mut self) {
        self.table.iter_mut().flatten().flatten().for_each(|h| *h /= 2);
    }

    /// History score of the quiet move `mv` by `color`.
    pub fn score(&self, color: Color, mv: Move) -> i32 {
        self.table[color as usize][mv.role() as usize - 1][mv.to() as usize]
    }

    /// The quiet move `mv` failed high at `depth`: raise its history and lower the history
    /// of the quiet moves `tried` before it.
    pub fn on_cutoff(&mut self, color: Color, depth: i32, mv: Move, tried: &[Move]) {
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        self.update(color, mv, bonus);
        for &other in tried.iter().filter(|&&m| m != mv) {
            self.update(color, other, -bonus);
        }
    }

    /// Moves a score toward `bonus`'s sign; the closer it already is to the bound, the less.
    fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let h = &mut self.table[color as usize][mv.role() as usize - 1][mv.to() as usize];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};

    fn mv(p: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>().unwrap().to_move(p).unwrap()
    }

    #[test]
    fn cutoffs_move_the_history_within_its_bound() {
        let p: Chess = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut h = QuietHistory::default();
        let (a, b, c) = (mv(&p, "a1a7"), mv(&p, "e1d2"), mv(&p, "a1a2"));
        h.on_cutoff(Color::White, 4, a, &[c]);
        h.on_cutoff(Color::White, 6, b, &[]);
        assert_eq!(h.score(Color::White, a), 16, "a bonus of depth squared");
        assert!(h.score(Color::White, b) > h.score(Color::White, a));
        assert_eq!(h.score(Color::White, c), -16, "c was tried before the cutoff");
        assert_eq!(h.score(Color::Black, a), 0, "each side has its own history");
        for _ in 0..10_000 {
            h.on_cutoff(Color::White, 60, a, &[c]);
        }
        assert!(h.score(Color::White, a) <= HISTORY_MAX && h.score(Color::White, a) > HISTORY_MAX / 2);
        assert!(h.score(Color::White, c) >= -HISTORY_MAX && h.score(Color::White, c) < -HISTORY_MAX / 2);
        let before = h.score(Color::White, a);
        h.new_search();
        assert_eq!(h.score(Color::White, a), before / 2);
        let _ = p.legal_moves();
    }
}
