//! The game being played: the current position and the Zobrist keys of every
//! position before it, for repetition detection.

use shakmaty::{
    CastlingMode, Chess, EnPassantMode, Position, PositionError, fen::Fen, uci::UciMove, zobrist::Zobrist64,
};

/// Zobrist key of a position (en passant counted only when it is legal).
pub fn zobrist(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// A position reached from a start position, with the keys of the positions on the way.
#[derive(Clone, Debug)]
pub struct Game {
    position: Chess,
    keys: Vec<u64>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Chess::default())
    }
}

impl Game {
    /// A game starting at `position` with no history.
    pub fn new(position: Chess) -> Self {
        let keys = vec![zobrist(&position)];
        Game { position, keys }
    }

    /// Sets up a game from a FEN, accepting Shredder-FEN and X-FEN castling.
    /// Castling rights or an en passant square that the board cannot have are dropped.
    pub fn from_fen(fen: Fen, mode: CastlingMode) -> Result<Self, String> {
        let position = fen
            .into_position(mode)
            .or_else(PositionError::ignore_invalid_castling_rights)
            .or_else(PositionError::ignore_invalid_ep_square)
            .map_err(|e| e.to_string())?;
        Ok(Game::new(position))
    }

    /// Plays a move given in UCI notation, or explains why it cannot be played.
    pub fn play_uci(&mut self, uci: &UciMove) -> Result<(), String> {
        let mv = uci.to_move(&self.position).map_err(|_| format!("illegal move {uci}"))?;
        self.play(mv);
        Ok(())
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: shakmaty::Move) {
        self.position.play_unchecked(mv);
        self.keys.push(zobrist(&self.position));
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// Keys of every position of the game, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_move_is_refused_and_the_game_kept() {
        let mut game = Game::default();
        let before = game.position().clone();
        assert!(game.play_uci(&"e2e5".parse().unwrap()).is_err());
        assert_eq!(game.position(), &before);
        assert_eq!(game.keys().len(), 1);
    }

    #[test]
    fn knight_shuffle_repeats_the_key() {
        let mut game = Game::default();
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            game.play_uci(&uci.parse().unwrap()).unwrap();
        }
        assert_eq!(game.keys()[0], game.keys()[4]);
    }
}
