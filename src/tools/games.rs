//! The self-play game file that `datagen` writes and `train` reads.
//!
//! A file is a sequence of game records with no file header, so a run appends games
//! and a reader streams them. All integers are little-endian. One record:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `PRG1` |
//! | 1 | result from White's side: 0 Black won, 1 draw, 2 White won |
//! | 1 | length `L` of the start FEN |
//! | `L` | the start position as a FEN (ASCII; castling as X-FEN or Shredder-FEN) |
//! | 2 | number of plies `N` |
//! | `4 N` | per ply: the move played (u16: from, to << 6, promotion role << 12; castling is king to rook) and the search's score before it (i16, centipawns or mate score, **White's side**; `NO_SCORE` for none) |
//!
//! `NO_SCORE` (`i16::MIN`, -32768) marks a ply with no search score, such as a book move
//! of a converted PGN game (`convert.rs`); no search writes it (`datagen` clamps its
//! scores to ±32767), so files written before it existed read the same.
//! A record is written whole and then flushed, so an interrupted run leaves at most one
//! partial record at the end, which `complete_len` finds and a resumed run cuts off.
//! Every position of a game is there; which ones train a net (not in check, a quiet
//! move, no mate score) is the reader's choice.

use crate::tt::PackedMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, fen::Fen};

/// The four bytes that open every game record.
pub const MAGIC: [u8; 4] = *b"PRG1";

/// The score of a ply that has none (a book move, a move without a comment); never trained on.
pub const NO_SCORE: i16 = i16::MIN;

/// One self-play game: where it started, how it ended, and every move with its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The start position (after the random opening plies).
    pub start: Chess,
    /// The result: `Some(color)` won, `None` a draw.
    pub winner: Option<Color>,
    /// Each move played and the search score (White's side) of the position before it,
    /// or `NO_SCORE`.
    pub plies: Vec<(Move, i16)>,
}

impl GameRecord {
    /// The record's bytes, as described in the module documentation.
    pub fn encode(&self) -> Vec<u8> {
        let fen = Fen::from_position(&self.start, EnPassantMode::Legal).to_string();
        let fen = fen.as_bytes();
        let mut out = Vec::with_capacity(8 + fen.len() + 4 * self.plies.len());
        out.extend_from_slice(&MAGIC);
        out.push(result_byte(self.winner));
        out.push(u8::try_from(fen.len()).expect("a FEN is shorter than 256 bytes"));
        out.extend_from_slice(fen);
        let count = u16::try_from(self.plies.len()).expect("fewer than 65536 plies");
        out.extend_from_slice(&count.to_le_bytes());
        for &(mv, score) in &self.plies {
            out.extend_from_slice(&PackedMove::new(mv).bits().to_le_bytes());
            out.extend_from_slice(&score.to_le_bytes());
        }
        out
    }

    /// Reads the record at the start of `bytes`: the game and the bytes it took, `Ok(None)`
    /// when `bytes` ends before the record does, or an error for bytes that are no record.
    pub fn decode(bytes: &[u8]) -> Result<Option<(GameRecord, usize)>, String> {
        let Some(layout) = Layout::read(bytes)? else {
            return Ok(None);
        };
        let fen_text = std::str::from_utf8(&bytes[6..6 + layout.fen_len]).map_err(|e| e.to_string())?;
        let fen: Fen = fen_text.parse().map_err(|e| format!("bad FEN '{fen_text}': {e}"))?;
        let start: Chess = [CastlingMode::Standard, CastlingMode::Chess960]
            .into_iter()
            .find_map(|mode| fen.clone().into_position(mode).ok())
            .ok_or_else(|| format!("illegal start '{fen_text}'"))?;
        let mut pos = start.clone();
        let mut plies = Vec::with_capacity(layout.plies);
        for entry in bytes[layout.moves_at..layout.len].chunks_exact(4) {
            let bits = u16::from_le_bytes([entry[0], entry[1]]);
            let score = i16::from_le_bytes([entry[2], entry[3]]);
            let packed = PackedMove::from_bits(bits).ok_or("a null move in a game record")?;
            let mv = pos
                .legal_moves()
                .into_iter()
                .find(|&m| packed.matches(m))
                .ok_or_else(|| format!("move {bits:#06x} is illegal after ply {}", plies.len()))?;
            pos.play_unchecked(mv);
            plies.push((mv, score));
        }
        let winner = match bytes[4] {
            0 => Some(Color::Black),
            1 => None,
            2 => Some(Color::White),
            other => return Err(format!("result byte {other} is not 0, 1 or 2")),
        };
        Ok(Some((GameRecord { start, winner, plies }, layout.len)))
    }

    /// The result from White's side: 1 a White win, 0.5 a draw, 0 a Black win.
    pub fn white_result(&self) -> f32 {
        match self.winner {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        }
    }
}

/// The result byte of a game won by `winner` (`None`: drawn).
fn result_byte(winner: Option<Color>) -> u8 {
    match winner {
        Some(Color::Black) => 0,
        None => 1,
        Some(Color::White) => 2,
    }
}

/// Where a record's parts lie, read from its fixed fields.
struct Layout {
    fen_len: usize,
    moves_at: usize,
    plies: usize,
    len: usize,
}

impl Layout {
    /// The layout of the record at the start of `bytes`, `None` if `bytes` is cut short.
    fn read(bytes: &[u8]) -> Result<Option<Layout>, String> {
        if bytes.len() < 6 {
            return Ok(None);
        }
        if bytes[..4] != MAGIC {
            return Err("not a game record (bad magic)".into());
        }
        let fen_len = usize::from(bytes[5]);
        let moves_at = 6 + fen_len + 2;
        if bytes.len() < moves_at {
            return Ok(None);
        }
        let plies = usize::from(u16::from_le_bytes([bytes[moves_at - 2], bytes[moves_at - 1]]));
        let len = moves_at + 4 * plies;
        Ok((bytes.len() >= len).then_some(Layout { fen_len, moves_at, plies, len }))
    }
}

/// The number of whole records in `bytes` and the length they take: what a resumed run
/// keeps. Bytes after them (a record cut short by an interrupt) are to be cut off.
pub fn complete_len(bytes: &[u8]) -> Result<(u64, usize), String> {
    let (mut games, mut at) = (0, 0);
    while let Some(layout) = Layout::read(&bytes[at..])? {
        at += layout.len;
        games += 1;
    }
    Ok((games, at))
}

/// Every game in `bytes` (a whole file), each handed to `visit` as it is decoded.
pub fn for_each_game(bytes: &[u8], mut visit: impl FnMut(GameRecord)) -> Result<u64, String> {
    let mut at = 0;
    let mut games = 0;
    while at < bytes.len() {
        match GameRecord::decode(&bytes[at..])? {
            Some((game, len)) => {
                visit(game);
                at += len;
                games += 1;
            }
            None => break,
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random_game(seed: u64, plies: usize) -> GameRecord {
        let mut rng = Rng::new(seed);
        let start = Chess::default();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for i in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            pos.play_unchecked(mv);
            moves.push((mv, i as i16 * 7 - 300));
        }
        GameRecord { start, winner: Some(Color::Black), plies: moves }
    }

    #[test]
    fn records_round_trip_and_a_cut_record_is_found() {
        let games: Vec<GameRecord> = (0..20).map(|s| random_game(s, 150)).collect();
        let bytes: Vec<u8> = games.iter().flat_map(GameRecord::encode).collect();
        let mut read = Vec::new();
        assert_eq!(for_each_game(&bytes, |g| read.push(g)), Ok(20));
        assert_eq!(read, games);
        let cut = &bytes[..bytes.len() - 3];
        let (whole, len) = complete_len(cut).unwrap();
        assert_eq!(whole, 19);
        assert_eq!(len, bytes.len() - games[19].encode().len());
        assert!(complete_len(b"PRG0xxxxxxx").is_err(), "bad magic is an error, not a cut");
    }
}
