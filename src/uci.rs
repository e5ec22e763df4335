//! The UCI protocol at the edge: text commands parsed into typed values, and
//! search results formatted as text. Nothing here knows how the search works.

use crate::score::mate_in;
use crate::search::{Counters, LiveLine, SearchInfo};
use crate::tt::Bound;
use crate::wdl;
use shakmaty::{CastlingMode, Move, fen::Fen, uci::UciMove};
use std::fmt;
use std::num::IntErrorKind;
use std::str::FromStr;

/// A command from the GUI (or a person at a terminal).
#[derive(Debug)]
pub enum Command {
    /// `uci`: identify and list options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answered with `readyok` at once.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption {
        /// Option name as sent (matched case-insensitively).
        name: String,
        /// The value, if any (buttons have none).
        value: Option<String>,
    },
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen F [moves ...]`.
    Position {
        /// The FEN, or `None` for the start position.
        fen: Option<Fen>,
        /// Moves played from it.
        moves: Vec<UciMove>,
        /// Oddities of the FEN that are read anyway (missing fields, clamped counters).
        warnings: Vec<String>,
    },
    /// `go ...` (except `go perft`).
    Go(Go),
    /// `go perft N`: count leaf nodes per root move.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `xboard`, sent by Arena's protocol detection; ignored.
    Xboard,
    /// `d`: print the board.
    Display,
    /// `eval`: print the static evaluation.
    Eval,
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `genfens N seed S book <None|FILE> [extra ...]`: opening positions for OpenBench.
    GenFens {
        /// How many positions.
        count: usize,
        /// Seed of the random plies.
        seed: u64,
        /// A book of FEN or EPD lines to start from, or `None` for the start position.
        book: Option<String>,
    },
    /// `help`.
    Help,
}

/// The parameters of `go`, typed. Bad tokens are skipped and described in `warnings`,
/// so that every `go` still searches and answers with a `bestmove`.
#[derive(Debug, Default, PartialEq)]
pub struct Go {
    /// White's clock in ms (negative clocks become 0; clocks past 64 bits, `u64::MAX`).
    pub wtime: Option<u64>,
    /// Black's clock in ms.
    pub btime: Option<u64>,
    /// White's increment in ms.
    pub winc: Option<u64>,
    /// Black's increment in ms.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Exact time for this move in ms.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves.
    pub searchmoves: Vec<UciMove>,
    /// Problems found while parsing, one message per bad token.
    pub warnings: Vec<String>,
}

/// Why a command line could not be understood; the message names the bad token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(message: String) -> Result<T, ParseError> {
    Err(ParseError(message))
}

impl FromStr for Command {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Command, ParseError> {
        let mut tokens = line.split_whitespace();
        let Some(word) = tokens.next() else {
            return err("empty command".into());
        };
        let rest: Vec<&str> = tokens.collect();
        let no_args = |cmd: Command| {
            if let Some(extra) = rest.first() {
                err(format!("unexpected token '{extra}' after '{word}'"))
            } else {
                Ok(cmd)
            }
        };
        match word {
            "uci" => no_args(Command::Uci),
            "isready" => no_args(Command::IsReady),
            "ucinewgame" => no_args(Command::UciNewGame),
            "stop" => no_args(Command::Stop),
            "ponderhit" => no_args(Command::PonderHit),
            "quit" => Ok(Command::Quit),
            "xboard" => Ok(Command::Xboard),
            "d" => no_args(Command::Display),
            "eval" => no_args(Command::Eval),
            "help" => Ok(Command::Help),
            "debug" => match rest.as_slice() {
                ["on"] => Ok(Command::Debug(true)),
                ["off"] => Ok(Command::Debug(false)),
                [other, ..] => err(format!("debug expects 'on' or 'off', not '{other}'")),
                [] => err("debug expects 'on' or 'off'".into()),
            },
            "setoption" => parse_setoption(&rest),
            "position" => parse_position(&rest),
            "go" => parse_go(&rest),
            "bench" => match rest.as_slice() {
                [] => Ok(Command::Bench(None)),
                [depth] => number(depth, "bench depth").map(|d| Command::Bench(Some(d))),
                [_, extra, ..] => err(format!("unexpected token '{extra}' after bench depth")),
            },
            "genfens" => parse_genfens(&rest),
            other => err(format!("unknown command '{other}' (type 'help' for the list)")),
        }
    }
}

fn number<T: FromStr>(token: &str, what: &str) -> Result<T, ParseError> {
    token.parse().map_err(|_| ParseError(format!("invalid {what} '{token}'")))
}

/// `genfens N seed S book <None|FILE>`; words after the book (OpenBench's extra
/// arguments) are ignored.
fn parse_genfens(tokens: &[&str]) -> Result<Command, ParseError> {
    let [count, "seed", seed, "book", book, ..] = tokens else {
        return err("genfens expects 'N seed S book <None|FILE>'".into());
    };
    let book = (!book.eq_ignore_ascii_case("none")).then(|| book.to_string());
    Ok(Command::GenFens { count: number(count, "genfens count")?, seed: number(seed, "genfens seed")?, book })
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, ParseError> {
    if tokens.first() != Some(&"name") {
        return err("setoption expects 'name <option> [value <value>]'".into());
    }
    let body = &tokens[1..];
    let split = body.iter().position(|t| *t == "value");
    let (name, value) = match split {
        Some(i) => (&body[..i], Some(body[i + 1..].join(" "))),
        None => (body, None),
    };
    if name.is_empty() {
        return err("setoption has no option name".into());
    }
    Ok(Command::SetOption { name: name.join(" "), value })
}

fn parse_position(tokens: &[&str]) -> Result<Command, ParseError> {
    let moves_at = tokens.iter().position(|t| *t == "moves").unwrap_or(tokens.len());
    let (setup, moves) = (&tokens[..moves_at], tokens.get(moves_at + 1..).unwrap_or(&[]));
    let mut warnings = Vec::new();
    let fen = match setup {
        ["startpos"] => None,
        ["startpos", extra, ..] => {
            return err(format!("unexpected token '{extra}' after startpos"));
        }
        ["fen"] => return err("position fen needs a FEN".into()),
        ["fen", fields @ ..] => {
            let text = fields.join(" ");
            match text.parse::<Fen>() {
                Ok(fen) => {
                    warnings = fen_warnings(fields, &fen);
                    Some(fen)
                }
                Err(e) if fields.len() > 6 => {
                    return err(format!("invalid FEN '{text}': {e} ({} fields, 6 expected)", fields.len()));
                }
                Err(e) => return err(format!("invalid FEN '{text}': {e}")),
            }
        }
        [other, ..] => {
            return err(format!("position expects 'startpos' or 'fen', not '{other}'"));
        }
        [] => return err("position expects 'startpos' or 'fen'".into()),
    };
    let moves = moves
        .iter()
        .map(|m| m.parse::<UciMove>().map_err(|_| ParseError(format!("invalid move '{m}'"))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Command::Position { fen, moves, warnings })
}

/// What a FEN that parsed was read as where its text says otherwise: fields left out (read
/// as `w - - 0 1` would have them) and counters out of range.
fn fen_warnings(fields: &[&str], fen: &Fen) -> Vec<String> {
    const DEFAULTS: [&str; 5] = ["w", "-", "-", "0", "1"];
    let mut warnings = Vec::new();
    match fields.len() {
        n @ 1..6 => warnings.push(format!(
            "FEN has {n} of its 6 fields; the missing ones are read as '{}'",
            DEFAULTS[n - 1..].join(" ")
        )),
        6 => {
            let setup = fen.as_setup();
            if fields[4].parse() != Ok(setup.halfmoves) {
                warnings.push(format!("FEN halfmove clock '{}' read as {}", fields[4], setup.halfmoves));
            }
            if fields[5].parse() != Ok(setup.fullmoves.get()) {
                warnings.push(format!("FEN fullmove number '{}' read as {}", fields[5], setup.fullmoves));
            }
        }
        _ => {}
    }
    warnings
}

/// The `go` keywords that take a value.
const GO_VALUE_KEYS: [&str; 9] =
    ["wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime"];

fn parse_go(tokens: &[&str]) -> Result<Command, ParseError> {
    if tokens.first() == Some(&"perft") {
        return match tokens.get(1) {
            Some(depth) => number(depth, "perft depth").map(Command::Perft),
            None => err("go perft needs a depth".into()),
        };
    }
    let mut go = Go::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        i += 1;
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                let listed = go.searchmoves.len();
                while let Some(mv) = tokens.get(i).and_then(|t| t.parse::<UciMove>().ok()) {
                    go.searchmoves.push(mv);
                    i += 1;
                }
                if go.searchmoves.len() == listed {
                    go.warnings.push("go searchmoves lists no move; every move is searched".into());
                }
            }
            k if GO_VALUE_KEYS.contains(&k) => {
                let Some(&value) = tokens.get(i).filter(|v| !is_go_keyword(v)) else {
                    go.warnings.push(format!("go {k} needs a value"));
                    continue;
                };
                i += 1;
                if let Err(message) = go.set(k, value) {
                    go.warnings.push(message);
                }
            }
            other => go.warnings.push(format!("unknown go parameter '{other}' ignored")),
        }
    }
    Ok(Command::Go(go))
}

fn is_go_keyword(token: &str) -> bool {
    GO_VALUE_KEYS.contains(&token) || matches!(token, "infinite" | "ponder" | "searchmoves")
}

impl Go {
    /// Sets `key` to `value`. An `Err` is a warning to show: the value was dropped, or
    /// (for a number out of range) read as the nearest value that makes sense.
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let bad = || format!("invalid value '{value}' for go {key} ignored");
        // Clocks, depth and nodes: a negative number reads as 0, an overflowing one as the largest.
        let n = match value.parse::<i64>() {
            Ok(n) => n.max(0) as u64,
            Err(e) if *e.kind() == IntErrorKind::PosOverflow => u64::MAX,
            Err(e) if *e.kind() == IntErrorKind::NegOverflow => 0,
            Err(_) => return Err(bad()),
        };
        match key {
            "wtime" => self.wtime = Some(n),
            "btime" => self.btime = Some(n),
            "winc" => self.winc = Some(n),
            "binc" => self.binc = Some(n),
            "movetime" => self.movetime = Some(n),
            "depth" => self.depth = Some(u32::try_from(n).unwrap_or(u32::MAX)),
            "nodes" => self.nodes = Some(n),
            "movestogo" => self.movestogo = Some(value.parse().map_err(|_| bad())?),
            "mate" => self.mate = Some(value.parse().map_err(|_| bad())?),
            _ => unreachable!("only GO_VALUE_KEYS reach here"),
        }
        let too_large = n == u64::MAX || (key == "depth" && n > u64::from(u32::MAX));
        match key {
            "wtime" | "btime" | "movetime" if n == 0 => {
                Err(format!("go {key} {value} is not positive: searching as if no time were left"))
            }
            "depth" if n == 0 && value.starts_with('-') => {
                Err(format!("go depth {value} is negative: searching depth 1"))
            }
            "winc" | "binc" | "nodes" if n == 0 && value.starts_with('-') => {
                Err(format!("go {key} {value} is negative: read as 0"))
            }
            "movestogo" | "mate" => Ok(()),
            _ if too_large => Err(format!("go {key} {value} is too large: read as the largest value")),
            _ => Ok(()),
        }
    }
}

/// A move in UCI notation (`e1g1` castling, or `e1h1` in Chess960 mode).
pub fn format_move(mv: Move, mode: CastlingMode) -> String {
    mv.to_uci(mode).to_string()
}

/// `cp X` or `mate N`, as UCI writes a score, in the engine's own units.
pub fn format_score(score: i32) -> String {
    match mate_in(score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {score}"),
    }
}

/// A score as reported to the user: `cp` normalised at the root's `material` (+100 is an
/// even chance to win, `wdl.rs`), or `mate N`.
pub fn format_reported(score: i32, material: i32) -> String {
    format_score(wdl::normalised_cp(score, material))
}

/// The last line of `eval`: the network's `score` for the side to move, normalised at the
/// position's `material` and in the engine's units.
pub fn format_evaluation(score: i32, material: i32) -> String {
    format!("Evaluation: {} (side to move; {score} in the engine's units)", format_reported(score, material))
}

/// The `info` line for a finished iteration, the score normalised at the root's `material`
/// (with `wdl W D L` when `show_wdl`).
pub fn format_info(info: &SearchInfo, mode: CastlingMode, show_wdl: bool, material: i32) -> String {
    let mut line = format!("info depth {} seldepth {}", info.depth, info.counters.seldepth);
    if let Some(rank) = info.multipv {
        line.push_str(&format!(" multipv {rank}"));
    }
    line.push_str(&format!(" score {}", format_reported(info.score, material)));
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => line.push_str(" lowerbound"),
        Bound::Upper => line.push_str(" upperbound"),
    }
    if show_wdl {
        let (w, d, l) = wdl::wdl(info.score, material);
        line.push_str(&format!(" wdl {w} {d} {l}"));
    }
    push_counters(&mut line, &info.counters);
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for &mv in &info.pv {
            line.push(' ');
            line.push_str(&format_move(mv, mode));
        }
    }
    line
}

/// A live line of a long search.
pub fn format_live(line: &LiveLine, mode: CastlingMode) -> String {
    match line {
        LiveLine::CurrMove { depth, mv, number } => {
            format!("info depth {depth} currmove {} currmovenumber {number}", format_move(*mv, mode))
        }
        LiveLine::Progress { depth, counters } => {
            let mut text = format!("info depth {depth} seldepth {}", counters.seldepth);
            push_counters(&mut text, counters);
            text
        }
    }
}

/// Appends ` nodes N nps X time T`, then `hashfull` and `tbhits` where they are known.
fn push_counters(line: &mut String, counters: &Counters) {
    let Counters { nodes, time_ms, .. } = counters;
    line.push_str(&format!(" nodes {nodes} nps {} time {time_ms}", counters.nps()));
    if let Some(hashfull) = counters.hashfull {
        line.push_str(&format!(" hashfull {hashfull}"));
    }
    if let Some(tbhits) = counters.tbhits {
        line.push_str(&format!(" tbhits {tbhits}"));
    }
}

/// `bestmove X [ponder Y]`, or `bestmove 0000` when there is no legal move.
pub fn format_bestmove(best: Option<Move>, ponder: Option<Move>, mode: CastlingMode) -> String {
    match (best, ponder) {
        (Some(best), Some(ponder)) => {
            format!("bestmove {} ponder {}", format_move(best, mode), format_move(ponder, mode))
        }
        (Some(best), None) => format!("bestmove {}", format_move(best, mode)),
        (None, _) => "bestmove 0000".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Go {
        match line.parse::<Command>() {
            Ok(Command::Go(go)) => go,
            other => panic!("not a go: {other:?}"),
        }
    }

    #[test]
    fn go_with_a_clock() {
        let g = go("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
        assert_eq!(
            (g.wtime, g.btime, g.winc, g.binc, g.movestogo),
            (Some(1000), Some(2000), Some(10), Some(20), Some(5))
        );
        assert!(g.warnings.is_empty());
    }

    #[test]
    fn go_garbage_is_skipped_with_a_warning() {
        let g = go("go depth x12 wtime -50 nodes");
        assert_eq!(g.depth, None);
        assert_eq!(g.wtime, Some(0));
        assert_eq!(g.warnings.len(), 3, "{:?}", g.warnings);
        assert!(g.warnings[0].contains("x12"));
    }

    #[test]
    fn go_clocks_past_64_bits_are_clamped_and_named() {
        let g = go("go wtime 99999999999999999999 btime -99999999999999999999 winc 99999999999999999999");
        assert_eq!((g.wtime, g.btime, g.winc), (Some(u64::MAX), Some(0), Some(u64::MAX)));
        assert_eq!(g.warnings.len(), 3, "{:?}", g.warnings);
        assert!(g.warnings.iter().all(|w| w.contains("99999999999999999999")), "{:?}", g.warnings);
    }

    #[test]
    fn go_searchmoves_stops_at_the_next_keyword() {
        let g = go("go searchmoves e2e4 d2d4 depth 3");
        assert_eq!(g.searchmoves.len(), 2);
        assert_eq!(g.depth, Some(3));
    }

    #[test]
    fn go_perft_is_its_own_command() {
        assert!(matches!("go perft 3".parse::<Command>(), Ok(Command::Perft(3))));
    }

    #[test]
    fn position_with_fen_and_moves() {
        let cmd = "position fen 8/8/8/8/8/8/4k3/4K2R w K - 0 1 moves e1g1".parse::<Command>();
        match cmd {
            Ok(Command::Position { fen: Some(_), moves, warnings }) => {
                assert_eq!(moves.len(), 1);
                assert!(warnings.is_empty(), "{warnings:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_positions_name_the_bad_token() {
        for (line, token) in [
            ("position fen 9/8 w - - 0 1", "9/8"),
            ("position startpos moves e2e4 e7e9x", "e7e9x"),
            ("position somewhere", "somewhere"),
        ] {
            let e = line.parse::<Command>().unwrap_err();
            assert!(e.0.contains(token), "{line}: {e}");
        }
    }

    fn position_warnings(line: &str) -> Vec<String> {
        match line.parse::<Command>() {
            Ok(Command::Position { warnings, .. }) => warnings,
            other => panic!("not a position: {other:?}"),
        }
    }

    #[test]
    fn fens_read_with_defaults_or_clamped_counters_say_so() {
        let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert!(position_warnings(&format!("position fen {board} w KQkq - 0 1")).is_empty());
        let short = position_warnings(&format!("position fen {board} b"));
        assert!(
            short.len() == 1 && short[0].contains("2 of its 6") && short[0].contains("'- - 0 1'"),
            "{short:?}"
        );
        let counters = position_warnings(&format!("position fen {board} w KQkq - 99999999999 0"));
        assert_eq!(counters.len(), 2, "{counters:?}");
        assert!(counters[0].contains("99999999999") && counters[1].contains("'0' read as 1"), "{counters:?}");
        let long = format!("position fen {board} w KQkq - 0 1 extra").parse::<Command>().unwrap_err();
        assert!(long.0.contains("7 fields, 6 expected"), "{long}");
    }

    #[test]
    fn go_searchmoves_without_a_move_warns() {
        let g = go("go searchmoves depth 3");
        assert_eq!((g.searchmoves.len(), g.depth), (0, Some(3)));
        assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
    }

    #[test]
    fn setoption_names_with_spaces() {
        match "setoption name Move Overhead value 30".parse::<Command>() {
            Ok(Command::SetOption { name, value }) => {
                assert_eq!(name, "Move Overhead");
                assert_eq!(value.as_deref(), Some("30"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unknown_command_is_named() {
        assert!("jump now".parse::<Command>().unwrap_err().0.contains("jump"));
    }

    #[test]
    fn scores_are_written_as_uci_wants() {
        use crate::score::MATE;
        assert_eq!(format_score(35), "cp 35");
        assert_eq!(format_score(MATE - 1), "mate 1");
        assert_eq!(format_score(MATE - 3), "mate 2");
        assert_eq!(format_score(-MATE + 2), "mate -1");
        assert_eq!(format_score(-MATE), "mate 0");
    }

    #[test]
    fn fail_high_and_low_lines_say_which_bound() {
        let mut info = SearchInfo {
            depth: 7,
            score: 40,
            counters: Counters { seldepth: 9, nodes: 1000, time_ms: 10, hashfull: None, tbhits: None },
            bound: Bound::Lower,
            multipv: None,
            pv: Vec::new(),
        };
        let cp = wdl::normalised_cp(40, 78);
        let line = |info: &SearchInfo, show_wdl| format_info(info, CastlingMode::Standard, show_wdl, 78);
        assert!(
            line(&info, false)
                .starts_with(&format!("info depth 7 seldepth 9 score cp {cp} lowerbound nodes"))
        );
        info.bound = Bound::Upper;
        assert!(line(&info, false).contains(&format!("score cp {cp} upperbound nodes")));
        info.bound = Bound::Exact;
        assert!(line(&info, false).contains(&format!("score cp {cp} nodes")));
        info.multipv = Some(2);
        let (w, d, l) = wdl::wdl(40, 78);
        let expected = format!("info depth 7 seldepth 9 multipv 2 score cp {cp} wdl {w} {d} {l} nodes");
        assert!(line(&info, true).starts_with(&expected), "{}", line(&info, true));
    }

    #[test]
    fn reported_scores_are_normalised_and_mates_are_not() {
        use crate::score::MATE;
        for material in [10, 40, 78] {
            for cp in [100, -250] {
                let score = wdl::engine_score(cp, material);
                let reported = wdl::normalised_cp(score, material);
                assert_eq!(format_reported(score, material), format!("cp {reported}"));
                assert!((reported - cp).abs() <= 1, "{cp} at {material}: {reported}");
            }
            assert_eq!(format_reported(MATE - 3, material), "mate 2");
            assert_eq!(format_reported(0, material), "cp 0");
        }
    }

    #[test]
    fn iteration_and_progress_lines_write_the_counters_alike() {
        let counters =
            Counters { seldepth: 12, nodes: 5000, time_ms: 250, hashfull: Some(31), tbhits: Some(4) };
        let info =
            SearchInfo { depth: 9, score: -15, counters, bound: Bound::Exact, multipv: None, pv: Vec::new() };
        let common = " nodes 5000 nps 20000 time 250 hashfull 31 tbhits 4";
        let info_line = format_info(&info, CastlingMode::Standard, false, 78);
        let cp = wdl::normalised_cp(-15, 78);
        assert_eq!(info_line, format!("info depth 9 seldepth 12 score cp {cp}{common}"));
        let live = format_live(&LiveLine::Progress { depth: 9, counters }, CastlingMode::Standard);
        assert_eq!(live, format!("info depth 9 seldepth 12{common}"));
        let bare = Counters { hashfull: None, tbhits: None, ..counters };
        let live = format_live(&LiveLine::Progress { depth: 9, counters: bare }, CastlingMode::Standard);
        assert_eq!(live, "info depth 9 seldepth 12 nodes 5000 nps 20000 time 250");
    }
}
