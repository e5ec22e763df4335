//! `convert`: games of PGN files (our matches, cutechess-cli, fastchess and OpenBench) as
//! game records (`games.rs`), so `train` learns from them as from `datagen`'s games.
//!
//! The PGN is read with the `pgn-reader` crate. A game starts from its `FEN` tag (X-FEN or
//! Shredder-FEN castling; Chess960 with `[Variant "Chess960"]` or `"fischerandom"`), else
//! from the standard position; its result is the `Result` tag (or, without one, the result
//! at the end of the moves). Each ply's score is the one its move's comment reports, which
//! is the mover's search score of the position before the move: the record wants exactly
//! that, turned to White's side. The comments read are
//!
//! | writer | comment | score |
//! |---|---|---|
//! | cutechess-cli | `{+0.18/12 0.091s}`, `{-M4/20 0.1s}`, `{book}` | pawns / depth; `M` plies to mate |
//! | fastchess (OpenBench) | `{+0.18/12 0.091s, n=..., sd=...}`, `{0.00/9 ...}` | the same |
//! | OpenBench's uploads | `{+0.18/12}`, `{+0.18/12 0.091s, n=..., sd=...}`, `{unknown}` | the same |
//! | `match.py` | `{ +0.18/0.09s }`, `{ +999.97/0.05s }` | pawns / time; python-chess's mates as ±(1000 - moves) pawns |
//!
//! and any other comment, or none, leaves the ply without a score (`games::NO_SCORE`,
//! which `train` skips). Principia reports normalised centipawns (`wdl.rs`), so `run` turns
//! the scores back into the engine's units at each position's material, unless told the
//! PGN's scores are raw ones already (`--raw-scores`: older PGNs).
//!
//! `match.py` writes each game twice: a mainline without comments, and the scored game as a
//! variation of the first move that replays the whole mainline. So the scores come from
//! the mainline's comments, and a ply whose mainline move has none takes the score of the
//! same move in a first-level variation that branches at that ply or before and replays
//! the mainline move for move up to it. Variations that leave the mainline lend nothing.
//!
//! A game writes no record, and is counted by why, when it is unfinished (`*`), was lost by
//! forfeit (time, abandoned, illegal move, a crash: see `FORFEITS`), is of another variant,
//! has a start position that is no legal one, has a move that is illegal or unreadable in
//! its position, or has no scored ply.

use super::games::{self, GameRecord, NO_SCORE};
use crate::score::{MATE, MATE_BOUND, MAX_PLY};
use crate::wdl;
use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Color, Move, Position, fen::Fen};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

/// What a `convert` run does.
#[derive(Clone, Debug)]
pub struct ConvertConfig {
    /// PGN files to read, in order.
    pub pgns: Vec<PathBuf>,
    /// Game-record file the games are appended to (created if missing).
    pub out: PathBuf,
    /// The comments' scores are in the engine's own units (PGNs written before Principia
    /// reported normalised scores, 2026-11-26), not normalised ones to convert back.
    pub raw_scores: bool,
}

/// Why a game of a PGN file wrote no record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// The result is `*` (or there is none): the game did not finish.
    Unfinished,
    /// A `Termination` tag of a forfeit (see `FORFEITS`): the result is not the board's.
    Forfeit,
    /// A variant other than standard chess and Chess960.
    Variant,
    /// A `FEN` tag that is no legal position, or Chess960 without one.
    BadStart,
    /// A move that is illegal, ambiguous or unreadable in its position.
    IllegalMove,
    /// No ply carries a score.
    NoScores,
    /// More plies than a record holds (65,535).
    TooLong,
}

impl SkipReason {
    /// Every reason, in the order the summary lists them.
    pub const ALL: [SkipReason; 7] = [
        SkipReason::Unfinished,
        SkipReason::Forfeit,
        SkipReason::Variant,
        SkipReason::BadStart,
        SkipReason::IllegalMove,
        SkipReason::NoScores,
        SkipReason::TooLong,
    ];

    /// The reason in a few words, as the summary prints it.
    pub fn name(self) -> &'static str {
        match self {
            SkipReason::Unfinished => "unfinished",
            SkipReason::Forfeit => "forfeit",
            SkipReason::Variant => "other variant",
            SkipReason::BadStart => "bad start position",
            SkipReason::IllegalMove => "illegal move",
            SkipReason::NoScores => "no scores",
            SkipReason::TooLong => "too long",
        }
    }
}

/// Words of a `Termination` tag (any case) that mark a forfeit: cutechess-cli's and
/// fastchess's `time forfeit`, `abandoned`, `stalled connection`, `illegal move`, lichess's
/// `rules infraction`, and `match.py`'s `time forfeit (hang)`, `crash`, `illegal move or
/// protocol error`.
pub const FORFEITS: [&str; 8] =
    ["forfeit", "abandon", "stalled", "disconnect", "illegal", "infraction", "crash", "protocol"];

/// One game converted: its record and where its scores came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Converted {
    /// The game record (unscored plies hold `NO_SCORE`).
    pub record: GameRecord,
    /// Plies with a score.
    pub scored: usize,
    /// Of those, plies whose score came from a variation replaying the mainline.
    pub from_variations: usize,
}

/// What a run read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read.
    pub read: u64,
    /// Games written as records.
    pub written: u64,
    /// Games skipped, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Plies written.
    pub plies: u64,
    /// Plies written with a score.
    pub scored: u64,
    /// Scored plies whose score came from a variation replaying the mainline.
    pub from_variations: u64,
}

impl Summary {
    /// Counts one game read: written, or skipped for a reason.
    pub fn add(&mut self, game: &Result<Converted, SkipReason>) {
        self.read += 1;
        match game {
            Ok(converted) => {
                self.written += 1;
                self.plies += converted.record.plies.len() as u64;
                self.scored += converted.scored as u64;
                self.from_variations += converted.from_variations as u64;
            }
            Err(reason) => *self.skipped.entry(*reason).or_default() += 1,
        }
    }

    /// Games skipped for `reason`.
    pub fn skipped(&self, reason: SkipReason) -> u64 {
        self.skipped.get(&reason).copied().unwrap_or(0)
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let skipped: u64 = self.skipped.values().sum();
        let reasons: Vec<String> =
            SkipReason::ALL.iter().map(|&r| format!("{} {}", self.skipped(r), r.name())).collect();
        write!(
            f,
            "{} games read, {} written, {skipped} skipped ({}); {} plies, {} with scores ({} from variations)",
            self.read,
            self.written,
            reasons.join(", "),
            self.plies,
            self.scored,
            self.from_variations
        )
    }
}

/// Converts the games of every PGN file of `config`, appending their records to its `out`
/// file, and prints the summary on stderr. A partial record at the end of `out` (an
/// interrupted run) is cut off first; a file that is no game-record file is an error.
pub fn run(config: &ConvertConfig) -> Result<Summary, String> {
    let out_name = config.out.display();
    if let Ok(bytes) = std::fs::read(&config.out) {
        let (_, whole) = games::complete_len(&bytes).map_err(|e| format!("{out_name}: {e}"))?;
        if whole < bytes.len() {
            let file = OpenOptions::new().write(true).open(&config.out).map_err(|e| e.to_string())?;
            file.set_len(whole as u64).map_err(|e| format!("{out_name}: {e}"))?;
            eprintln!(
                "convert: cut off {} bytes of a partial game at the end of {out_name}",
                bytes.len() - whole
            );
        }
    }
    let file = OpenOptions::new()
        .append(true)
        .create(true)
        .open(&config.out)
        .map_err(|e| format!("{out_name}: {e}"))?;
    let mut out = BufWriter::new(file);
    let mut summary = Summary::default();
    for path in &config.pgns {
        let pgn = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        read_games(pgn, |game| {
            summary.add(&game);
            match game {
                Ok(mut converted) => {
                    if !config.raw_scores {
                        to_engine_units(&mut converted.record);
                    }
                    out.write_all(&converted.record.encode()).map_err(|e| format!("{out_name}: {e}"))
                }
                Err(_) => Ok(()),
            }
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    out.flush().map_err(|e| format!("{out_name}: {e}"))?;
    eprintln!("convert: {summary}");
    Ok(summary)
}

/// Turns a record's scores from normalised centipawns, as Principia reports them, back into
/// the engine's units at each position's material (`wdl.rs`); mates stay as they are.
pub fn to_engine_units(record: &mut GameRecord) {
    let mut pos = record.start.clone();
    for (mv, score) in &mut record.plies {
        if *score != NO_SCORE {
            let engine = wdl::engine_score(i32::from(*score), wdl::material(pos.board()));
            *score = engine.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16;
        }
        pos.play_unchecked(*mv);
    }
}

/// Reads every game of a PGN text, handing each to `visit` converted or with why not;
/// stops at the first error `visit` returns or the reader meets.
pub fn read_games(
    pgn: impl Read,
    mut visit: impl FnMut(Result<Converted, SkipReason>) -> Result<(), String>,
) -> Result<(), String> {
    let mut reader = Reader::new(pgn);
    while let Some(game) = reader.read_game(&mut GameReader).map_err(|e| e.to_string())? {
        visit(game)?;
    }
    Ok(())
}

/// The score a move's comment reports, from the mover's side, in the engine's units
/// (centipawns, or `MATE - plies` for a mate): see the module's table. `None` for a comment
/// that holds no score (`book`, free text, an empty score).
pub fn mover_score(comment: &str) -> Option<i32> {
    let first = comment.split(|c: char| c.is_whitespace() || c == ',').find(|w| !w.is_empty())?;
    let (score, after) = first.split_once('/')?;
    let depth = after.parse::<u32>().is_ok();
    let time = after.strip_suffix('s').is_some_and(|t| t.parse::<f64>().is_ok_and(|t| t >= 0.0));
    if !(depth || time) {
        return None;
    }
    let (negative, magnitude) = match score.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, score.strip_prefix('+').unwrap_or(score)),
    };
    let signed = |value: i32| if negative { -value } else { value };
    if let Some(plies) = magnitude.strip_prefix('M') {
        // cutechess-cli and fastchess count plies to mate (mate in n moves is M(2n - 1)).
        let plies = plies.parse::<u32>().ok()?.clamp(1, MAX_PLY as u32 - 1) as i32;
        return Some(signed(MATE - plies));
    }
    if !magnitude.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let pawns: f64 = magnitude.parse().ok().filter(|p: &f64| p.is_finite())?;
    let centipawns = (pawns * 100.0).round();
    if (PYTHON_CHESS_MATE - 9_999.0..PYTHON_CHESS_MATE).contains(&centipawns) {
        // python-chess's `score(mate_score=100000)`: mate in n moves is 100000 - n.
        let moves = (PYTHON_CHESS_MATE - centipawns) as i32;
        let plies = if negative { 2 * moves } else { 2 * moves - 1 };
        return Some(signed(MATE - plies.min(MAX_PLY as i32 - 1)));
    }
    // A larger score than any evaluation stays short of the mate range.
    Some(signed(centipawns.min(f64::from(MATE_BOUND - 1)) as i32))
}

/// The centipawns python-chess gives a mate at the root in `match.py`'s scores.
const PYTHON_CHESS_MATE: f64 = 100_000.0;

/// True when a `Termination` tag names a forfeit (see `FORFEITS`).
pub fn is_forfeit(termination: &str) -> bool {
    let text = termination.to_ascii_lowercase();
    FORFEITS.iter().any(|word| text.contains(word))
}

/// Whether a game is Chess960 by its `Variant` tag; an error for any other variant.
fn is_chess960(variant: Option<&str>) -> Result<bool, SkipReason> {
    let name: String = variant
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match name.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" => Ok(false),
        "chess960" | "fischerandom" | "fischerrandom" | "frc" | "960" => Ok(true),
        _ => Err(SkipReason::Variant),
    }
}

/// The start position from the `FEN` tag (or the standard one), in the variant's castling.
fn start_position(fen: Option<&str>, chess960: bool) -> Result<Chess, SkipReason> {
    let Some(text) = fen else {
        return if chess960 { Err(SkipReason::BadStart) } else { Ok(Chess::default()) };
    };
    let fen = Fen::from_ascii(text.trim().as_bytes()).map_err(|_| SkipReason::BadStart)?;
    let modes: &[CastlingMode] =
        if chess960 { &[CastlingMode::Chess960] } else { &[CastlingMode::Standard, CastlingMode::Chess960] };
    modes.iter().find_map(|&mode| fen.clone().into_position(mode).ok()).ok_or(SkipReason::BadStart)
}

/// The tags that matter here, as read.
#[derive(Default)]
struct Tags {
    fen: Option<String>,
    variant: Option<String>,
    result: Option<String>,
    termination: Option<String>,
}

/// A game's start and result, once its tags pass.
struct Header {
    start: Chess,
    /// The `Result` tag's outcome; `None` without a tag.
    result: Option<Outcome>,
}

impl Header {
    /// The header of a game with these tags, or why the game is skipped.
    fn parse(tags: &Tags) -> Result<Header, SkipReason> {
        let result = match tags.result.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(Outcome::from_ascii(text.as_bytes()).map_err(|_| SkipReason::Unfinished)?),
        };
        if result == Some(Outcome::Unknown) {
            return Err(SkipReason::Unfinished);
        }
        if tags.termination.as_deref().is_some_and(is_forfeit) {
            return Err(SkipReason::Forfeit);
        }
        let chess960 = is_chess960(tags.variant.as_deref())?;
        Ok(Header { start: start_position(tags.fen.as_deref(), chess960)?, result })
    }
}

/// A move as read: its SAN and the score its comment reports (the mover's side).
struct ReadMove {
    san: SanPlus,
    score: Option<i32>,
}

/// A first-level variation: moves replacing the mainline's from ply `from` on.
struct Variation {
    from: usize,
    moves: Vec<ReadMove>,
}

/// What is kept of a game's moves while they are read.
struct Movetext {
    header: Header,
    mainline: Vec<ReadMove>,
    variations: Vec<Variation>,
    /// How deep in variations the reader is (0: the mainline).
    depth: usize,
    /// The result written after the moves.
    outcome: Option<Outcome>,
}

impl Movetext {
    /// The line moves are being read into now.
    fn line(&mut self) -> Option<&mut Vec<ReadMove>> {
        match self.depth {
            0 => Some(&mut self.mainline),
            1 => self.variations.last_mut().map(|v| &mut v.moves),
            _ => None,
        }
    }

    /// The game as a record, or why not.
    fn convert(self) -> Result<Converted, SkipReason> {
        let winner = match self.header.result.or(self.outcome) {
            Some(Outcome::Known(known)) => known.winner(),
            _ => return Err(SkipReason::Unfinished),
        };
        // Replay the mainline: each ply's position and move.
        let mut pos = self.header.start.clone();
        let mut before = Vec::with_capacity(self.mainline.len());
        let mut moves: Vec<Move> = Vec::with_capacity(self.mainline.len());
        for read in &self.mainline {
            let mv = read.san.san.to_move(&pos).map_err(|_| SkipReason::IllegalMove)?;
            before.push(pos.clone());
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        if moves.len() > usize::from(u16::MAX) {
            return Err(SkipReason::TooLong);
        }
        let mut scores: Vec<Option<i32>> = self.mainline.iter().map(|m| m.score).collect();
        let mut from_variations = 0;
        for variation in &self.variations {
            let Some(mut pos) = before.get(variation.from).cloned() else { continue };
            for (ply, read) in (variation.from..moves.len()).zip(&variation.moves) {
                match read.san.san.to_move(&pos) {
                    Ok(mv) if mv == moves[ply] => pos.play_unchecked(mv),
                    _ => break,
                }
                if scores[ply].is_none() && read.score.is_some() {
                    scores[ply] = read.score;
                    from_variations += 1;
                }
            }
        }
        let scored = scores.iter().flatten().count();
        if scored == 0 {
            return Err(SkipReason::NoScores);
        }
        let plies = moves
            .into_iter()
            .zip(&before)
            .zip(scores)
            .map(|((mv, pos), score)| {
                let white = score.map_or(NO_SCORE, |s| {
                    let s = if pos.turn() == Color::White { s } else { -s };
                    s.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
                });
                (mv, white)
            })
            .collect();
        let record = GameRecord { start: self.header.start, winner, plies };
        Ok(Converted { record, scored, from_variations })
    }
}

/// The `pgn-reader` visitor that turns one game into a record or a reason to skip it.
struct GameReader;

impl Visitor for GameReader {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Result<Converted, SkipReason>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let slot = match name {
            b"FEN" => &mut tags.fen,
            b"Variant" => &mut tags.variant,
            b"Result" => &mut tags.result,
            b"Termination" => &mut tags.termination,
            _ => return ControlFlow::Continue(()),
        };
        *slot = Some(value.decode_utf8_lossy().into_owned());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Movetext> {
        match Header::parse(&tags) {
            Ok(header) => ControlFlow::Continue(Movetext {
                header,
                mainline: Vec::new(),
                variations: Vec::new(),
                depth: 0,
                outcome: None,
            }),
            Err(reason) => ControlFlow::Break(Err(reason)),
        }
    }

    fn san(&mut self, movetext: &mut Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        if let Some(line) = movetext.line() {
            line.push(ReadMove { san, score: None });
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, movetext: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        let score = std::str::from_utf8(comment.as_bytes()).ok().and_then(mover_score);
        if let Some(last) = movetext.line().and_then(|line| line.last_mut()) {
            last.score = last.score.or(score);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, movetext: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        movetext.depth += 1;
        // Only first-level variations can replay the mainline; deeper ones are skipped.
        if movetext.depth == 1 && !movetext.mainline.is_empty() {
            let from = movetext.mainline.len() - 1;
            movetext.variations.push(Variation { from, moves: Vec::new() });
            return ControlFlow::Continue(Skip(false));
        }
        ControlFlow::Continue(Skip(true))
    }

    fn end_variation(&mut self, movetext: &mut Movetext) -> ControlFlow<Self::Output> {
        movetext.depth = movetext.depth.saturating_sub(1);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, movetext: &mut Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        if movetext.depth == 0 {
            movetext.outcome = Some(outcome);
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Movetext) -> Self::Output {
        movetext.convert()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games of a PGN text, converted or not.
    fn convert(pgn: &str) -> Vec<Result<Converted, SkipReason>> {
        let mut games = Vec::new();
        read_games(pgn.as_bytes(), |game| {
            games.push(game);
            Ok(())
        })
        .unwrap();
        games
    }

    #[test]
    fn normalised_scores_go_back_to_the_engines_units_and_mates_stay() {
        let pgn = "[Result \"1-0\"]\n\n1. e4 { +1.00/0.1s } e5 { -2.50/0.1s } 2. Qh5 { +M5/9 0.1s } 1-0\n";
        let mut records = Vec::new();
        read_games(pgn.as_bytes(), |game| {
            records.push(game.expect("a game").record);
            Ok(())
        })
        .unwrap();
        let mut record = records.pop().unwrap();
        assert_eq!(record.plies[0].1, 100);
        to_engine_units(&mut record);
        let start = wdl::material(Chess::default().board());
        assert_eq!(i32::from(record.plies[0].1), wdl::engine_score(100, start));
        assert_eq!(i32::from(record.plies[1].1), wdl::engine_score(250, start), "White's side");
        assert_eq!(i32::from(record.plies[2].1), MATE - 5);
    }

    #[test]
    fn comments_of_each_writer_give_the_movers_score() {
        // cutechess-cli: pawns/depth time, mates in plies, book moves without a score.
        assert_eq!(mover_score("+0.18/12 0.091s"), Some(18));
        assert_eq!(mover_score("-1.25/20 1.2s"), Some(-125));
        assert_eq!(mover_score("0.00/5 0s"), Some(0));
        assert_eq!(mover_score("+M5/20 0.1s"), Some(MATE - 5));
        assert_eq!(mover_score("-M4/18 0.25s, Black mates"), Some(-(MATE - 4)));
        assert_eq!(mover_score("book"), None);
        assert_eq!(mover_score("0.091s"), None, "cutechess at depth 0 writes no score");
        // fastchess: the same, then more fields after commas.
        assert_eq!(mover_score("+0.18/12 0.091s, tl=9.909s, n=12345, sd=15"), Some(18));
        assert_eq!(mover_score("/12 0.091s, n=1"), None, "an empty score");
        // OpenBench's uploads keep score/depth only, or write `unknown`.
        assert_eq!(mover_score("-0.50/10"), Some(-50));
        assert_eq!(mover_score("+0.18/12, line=hello"), Some(18));
        assert_eq!(mover_score("unknown"), None);
        // match.py: pawns/time, spaces inside the braces, python-chess's mate scores.
        assert_eq!(mover_score(" +0.18/0.09s "), Some(18));
        assert_eq!(mover_score(" -2.50/1.20s "), Some(-250));
        assert_eq!(mover_score(" +999.97/0.05s "), Some(MATE - 5), "mate in 3 moves");
        assert_eq!(mover_score(" -999.97/0.05s "), Some(-(MATE - 6)), "mated in 3 moves");
        assert_eq!(crate::score::mate_in(mover_score("+999.97/0.05s").unwrap()), Some(3));
        assert_eq!(crate::score::mate_in(mover_score("-M4/9 0.1s").unwrap()), Some(-2));
        // No score: free text, a slash that is no score, a huge number stays short of mate.
        for text in ["good move", "1.e4/e5", "+0.18/deep", "nan/3 1s", "M/3 1s", ""] {
            assert_eq!(mover_score(text), None, "{text}");
        }
        assert_eq!(mover_score("+400.00/30 1s"), Some(MATE_BOUND - 1));
    }

    #[test]
    fn forfeits_are_told_from_results_of_the_board() {
        for forfeit in ["time forfeit", "Time forfeit", "abandoned", "stalled connection", "illegal move"] {
            assert!(is_forfeit(forfeit), "{forfeit}");
        }
        for forfeit in ["rules infraction", "time forfeit (hang)", "crash", "illegal move or protocol error"]
        {
            assert!(is_forfeit(forfeit), "{forfeit}");
        }
        for result in
            ["normal", "adjudication", "checkmate", "threefold_repetition", "adjudication: resign score"]
        {
            assert!(!is_forfeit(result), "{result}");
        }
    }

    #[test]
    fn variants_are_standard_chess960_or_skipped() {
        assert_eq!(is_chess960(None), Ok(false));
        assert_eq!(is_chess960(Some("Standard")), Ok(false));
        assert_eq!(is_chess960(Some("From Position")), Ok(false));
        assert_eq!(is_chess960(Some("Chess960")), Ok(true));
        assert_eq!(is_chess960(Some("fischerandom")), Ok(true));
        assert_eq!(is_chess960(Some("Atomic")), Err(SkipReason::Variant));
    }

    #[test]
    fn a_game_keeps_its_moves_and_turns_scores_to_whites_side() {
        let pgn = "[Result \"0-1\"]\n\n1. e4 {book} e5 {+0.20/10 0.1s} 2. Nf3 {+0.30/11 0.1s} Nc6 0-1\n";
        let games = convert(pgn);
        let Ok(converted) = &games[0] else { panic!("{games:?}") };
        let record = &converted.record;
        assert_eq!(record.winner, Some(Color::Black));
        let uci: Vec<String> =
            record.plies.iter().map(|(m, _)| m.to_uci(CastlingMode::Standard).to_string()).collect();
        assert_eq!(uci, ["e2e4", "e7e5", "g1f3", "b8c6"]);
        let scores: Vec<i16> = record.plies.iter().map(|&(_, s)| s).collect();
        assert_eq!(scores, [NO_SCORE, -20, 30, NO_SCORE], "Black's +0.20 is White's -20");
        assert_eq!((converted.scored, converted.from_variations), (2, 0));
    }

    #[test]
    fn a_variation_replaying_the_mainline_lends_its_scores_and_others_do_not() {
        // match.py's layout: the scored game as a variation of the first move.
        let pgn = "[Result \"1/2-1/2\"]\n\n1. d4 ( 1. d4 { +0.18/0.09s } 1... d5 { -0.25/0.10s } \
                   2. c4 { +0.24/0.04s } ) 1... d5 ( 1... Nf6 { -0.90/0.1s } ) 2. c4 1/2-1/2\n";
        let games = convert(pgn);
        let Ok(converted) = &games[0] else { panic!("{games:?}") };
        let scores: Vec<i16> = converted.record.plies.iter().map(|&(_, s)| s).collect();
        assert_eq!(scores, [18, 25, 24]);
        assert_eq!((converted.scored, converted.from_variations), (3, 3));
        // A variation that leaves the mainline lends nothing from where it leaves.
        let pgn = "[Result \"1-0\"]\n\n1. e4 ( 1. e4 { +0.30/0.1s } 1... c5 { -0.40/0.1s } ) e5 1-0\n";
        let Ok(converted) = &convert(pgn)[0] else { panic!() };
        let scores: Vec<i16> = converted.record.plies.iter().map(|&(_, s)| s).collect();
        assert_eq!(scores, [30, NO_SCORE]);
    }

    #[test]
    fn games_that_cannot_train_are_skipped_with_their_reason() {
        let scored = "1. e4 {+0.20/10 0.1s} e5 {-0.20/10 0.1s}";
        let game = |tags: &str, moves: &str, result: &str| format!("{tags}\n\n{moves} {result}\n\n");
        let pgn = [
            game("[Result \"*\"]", scored, "*"),
            game("[Result \"1-0\"]\n[Termination \"time forfeit\"]", scored, "1-0"),
            game("[Result \"1-0\"]\n[Variant \"Atomic\"]", scored, "1-0"),
            game("[Result \"1-0\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]", scored, "1-0"),
            game("[Result \"1-0\"]", "1. e4 {+0.20/10 0.1s} e5 2. Ke3 {+0.1/9 0.1s}", "1-0"),
            game("[Result \"1-0\"]", "1. e4 {book} e5", "1-0"),
            game("", scored, "1/2-1/2"),
        ]
        .concat();
        let reasons: Vec<_> = convert(&pgn).into_iter().map(|g| g.map(|c| c.record.plies.len())).collect();
        let expected = [
            Err(SkipReason::Unfinished),
            Err(SkipReason::Forfeit),
            Err(SkipReason::Variant),
            Err(SkipReason::BadStart),
            Err(SkipReason::IllegalMove),
            Err(SkipReason::NoScores),
            Ok(2),
        ];
        assert_eq!(reasons, expected, "the last game takes its result from the moves' end");
    }

    #[test]
    fn the_summary_counts_games_plies_and_reasons() {
        let mut summary = Summary::default();
        let pgn = "[Result \"1-0\"]\n\n1. e4 {+0.20/10 0.1s} e5 1-0\n\n[Result \"*\"]\n\n1. e4 *\n";
        convert(pgn).iter().for_each(|g| summary.add(g));
        assert_eq!((summary.read, summary.written, summary.plies, summary.scored), (2, 1, 2, 1));
        assert_eq!(summary.skipped(SkipReason::Unfinished), 1);
        let line = summary.to_string();
        assert!(line.starts_with("2 games read, 1 written, 1 skipped (1 unfinished, 0 forfeit"), "{line}");
        assert!(line.ends_with("; 2 plies, 1 with scores (0 from variations)"), "{line}");
    }
}
