//! The game being played: the current position and the Zobrist keys of every
//! position before it, for repetition detection.

use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Position, PositionError, Role, Square,
    fen::Fen,
    uci::UciMove,
    zobrist::{Zobrist64, ZobristValue},
};

/// Zobrist key of a position (en passant counted only when it is legal).
pub fn zobrist(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Zobrist key of `child`, reached from `pos` (whose key is `key`) by `mv`: the key updated
/// by the pieces, castling rights and en passant file the move changes, equal to
/// `zobrist(child)` (shakmaty's own update gives up on king moves, castling rights and en
/// passant, which then cost a fresh hash of the whole board).
pub fn key_after(pos: &Chess, key: u64, mv: Move, child: &Chess) -> u64 {
    let us = pos.turn();
    let piece = |square, role: Role, color| Zobrist64::zobrist_for_piece(square, role.of(color)).0;
    let moved = match mv {
        Move::Normal { role, from, capture, to, promotion } => {
            piece(from, role, us)
                ^ piece(to, promotion.unwrap_or(role), us)
                ^ capture.map_or(0, |taken| piece(to, taken, !us))
        }
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            piece(from, Role::Pawn, us) ^ piece(to, Role::Pawn, us) ^ piece(taken, Role::Pawn, !us)
        }
        Move::Castle { king, rook } => {
            let side = mv.castling_side().expect("castling has a side");
            piece(king, Role::King, us)
                ^ piece(rook, Role::Rook, us)
                ^ piece(side.king_to(us), Role::King, us)
                ^ piece(side.rook_to(us), Role::Rook, us)
        }
        Move::Put { .. } => 0,
    };
    let castling = if pos.castles().castling_rights() == child.castles().castling_rights() {
        0
    } else {
        castling_key(pos) ^ castling_key(child)
    };
    key ^ Zobrist64::zobrist_for_white_turn().0
        ^ moved
        ^ castling
        ^ en_passant_key(pos)
        ^ en_passant_key(child)
}

/// The castling rights' share of a key.
fn castling_key(pos: &Chess) -> u64 {
    let castles = pos.castles();
    let rights = Color::ALL.into_iter().flat_map(|color| CastlingSide::ALL.map(|side| (color, side)));
    rights
        .filter(|&(color, side)| castles.has(color, side))
        .fold(0, |key, (color, side)| key ^ Zobrist64::zobrist_for_castling_right(color, side).0)
}

/// The en passant file's share of a key (counted only when the capture is legal).
fn en_passant_key(pos: &Chess) -> u64 {
    match pos.maybe_ep_square() {
        Some(_) => pos.legal_ep_square().map_or(0, |sq| Zobrist64::zobrist_for_en_passant_file(sq.file()).0),
        None => 0,
    }
}

/// Zobrist key after a null move from `pos`, whose key is `key`: the other side to move
/// and no en passant square (`pos.swap_turn()` hashed afresh, without hashing the board).
pub fn null_move_key(pos: &Chess, key: u64) -> u64 {
    key ^ Zobrist64::zobrist_for_white_turn().0 ^ en_passant_key(pos)
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

    /// Sets up a game from a FEN, accepting Shredder-FEN and X-FEN castling and refusing the
    /// fields of variants (pockets, remaining checks).
    /// Castling rights or an en passant square that the board cannot have are dropped.
    pub fn from_fen(fen: Fen, mode: CastlingMode) -> Result<Self, String> {
        Game::from_fen_noting(fen, mode).map(|(game, _)| game)
    }

    /// Sets up a game as [`Game::from_fen`] does, with a message for what was dropped.
    pub fn from_fen_noting(fen: Fen, mode: CastlingMode) -> Result<(Self, Vec<String>), String> {
        let setup = fen.as_setup();
        if setup.pockets.is_some() {
            return Err("FEN has crazyhouse pockets (a 9th rank or [...]): not a chess position".into());
        }
        if setup.remaining_checks.is_some() {
            return Err("FEN has three-check counters: not a chess position".into());
        }
        let (rights, ep_square) = (setup.castling_rights, setup.ep_square);
        let position: Chess = fen
            .into_position(mode)
            .or_else(PositionError::ignore_invalid_castling_rights)
            .or_else(PositionError::ignore_invalid_ep_square)
            .map_err(|e| e.to_string())?;
        let mut notes = Vec::new();
        let dropped = rights & !position.castles().castling_rights();
        if dropped.any() {
            let rooks: Vec<String> = dropped.into_iter().map(|sq| sq.to_string()).collect();
            notes.push(format!(
                "castling rights for the rooks on {} dropped: no king and rook in place to castle",
                rooks.join(" ")
            ));
        }
        if let Some(square) = ep_square.filter(|&sq| position.ep_square(EnPassantMode::Always) != Some(sq)) {
            notes.push(format!(
                "en passant square {square} dropped: no pawn of the side not to move just passed it"
            ));
        }
        Ok((Game::new(position), notes))
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
    fn the_key_after_a_move_is_the_key_of_the_new_position() {
        let mut rng = crate::rng::Rng::new(42);
        let starts = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
            ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
        ];
        let (mut compared, mut castles, mut en_passant) = (0, 0, 0);
        for game in 0..300 {
            let (fen, mode) = starts[game % starts.len()];
            let mut pos: Chess = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
            for _ in 0..100 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // En passant is rare in random games: take it whenever it is there.
                let capture = moves.iter().copied().find(|m| m.is_en_passant());
                let mv = capture.unwrap_or_else(|| moves[rng.below(moves.len())]);
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                assert_eq!(key_after(&pos, zobrist(&pos), mv, &child), zobrist(&child), "{mv:?} in {fen}");
                (compared, castles, en_passant) = (
                    compared + 1,
                    castles + usize::from(mv.is_castle()),
                    en_passant + usize::from(mv.is_en_passant()),
                );
                pos = child;
            }
        }
        assert!(
            compared > 20_000 && castles > 50 && en_passant > 5,
            "{compared}, {castles} castles, {en_passant} en passant"
        );
    }

    #[test]
    fn the_null_move_key_is_the_key_of_the_swapped_position() {
        let mut rng = crate::rng::Rng::new(41);
        let (mut compared, mut en_passant) = (0, 0);
        for _ in 0..200 {
            let mut pos = Chess::default();
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if let Ok(null) = pos.clone().swap_turn() {
                    assert_eq!(
                        null_move_key(&pos, zobrist(&pos)),
                        zobrist(&null),
                        "{}",
                        Fen::from_position(&pos, EnPassantMode::Legal)
                    );
                    compared += 1;
                    en_passant += usize::from(pos.legal_ep_square().is_some());
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(compared > 10_000 && en_passant > 20, "{compared} positions, {en_passant} with en passant");
    }

    #[test]
    fn illegal_move_is_refused_and_the_game_kept() {
        let mut game = Game::default();
        let before = game.position().clone();
        assert!(game.play_uci(&"e2e5".parse().unwrap()).is_err());
        assert_eq!(game.position(), &before);
        assert_eq!(game.keys().len(), 1);
    }

    fn notes(fen: &str, mode: CastlingMode) -> Result<Vec<String>, String> {
        Game::from_fen_noting(fen.parse().unwrap(), mode).map(|(_, notes)| notes)
    }

    #[test]
    fn dropped_castling_rights_and_en_passant_squares_are_noted() {
        let std = CastlingMode::Standard;
        assert_eq!(notes("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", std), Ok(vec![]));
        let dropped = notes("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", std).unwrap();
        assert_eq!(dropped.len(), 1);
        assert!(dropped[0].contains("a1"), "{dropped:?}");
        let ep = notes("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", std).unwrap();
        assert!(ep.len() == 1 && ep[0].contains("e6"), "{ep:?}");
        // A Chess960 start read without Chess960 castling loses its rights, and says so.
        let frc = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert_eq!(notes(frc, CastlingMode::Chess960), Ok(vec![]));
        assert_eq!(notes(frc, std).unwrap().len(), 1);
    }

    #[test]
    fn variant_fens_are_refused() {
        let std = CastlingMode::Standard;
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert!(notes(&format!("{start}/Q w KQkq - 0 1"), std).unwrap_err().contains("pockets"));
        assert!(notes(&format!("{start}[Qq] w KQkq - 0 1"), std).unwrap_err().contains("pockets"));
        assert!(notes(&format!("{start} w KQkq - 3+3 0 1"), std).unwrap_err().contains("three-check"));
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
