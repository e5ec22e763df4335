//! A corpus of bad input, class by class, through the real binary in one session. After
//! every line the engine must answer `isready` and then play a legal move; where the line is
//! wrong it must say so in an `info string`, and it never prints anything but UCI lines.

mod common;

use common::{Engine, bestmove, play_line};
use shakmaty::Chess;

/// What the engine must answer to a line, besides staying alive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// An `info string` that names the problem: it contains this text, the bad token (as
    /// the engine quotes it, control characters shown as `?`) or what is wrong with it.
    Names(&'static str),
    /// Nothing: the line is odd but means something (whitespace, defaults).
    Silent,
}

use Answer::{Names, Silent};

/// The table: class, line (without its newline), expected answer. `S` is the start
/// position's board, `R` its side, castling, en passant and counters (`w KQkq - 0 1`).
#[rustfmt::skip]
const CORPUS: &[(&str, &str, Answer)] = &[
    // FEN: fields.
    ("fen: too few fields", "position fen S", Names("of its 6 fields")),
    ("fen: too few fields", "position fen S w KQkq", Names("read as '- 0 1'")),
    ("fen: too many fields", "position fen S R extra", Names("7 fields, 6 expected")),
    ("fen: too many fields", "position fen S R 0 1", Names("8 fields, 6 expected")),
    // FEN: the board.
    ("fen: bad piece letter", "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBXKBNR R", Names("RNBXKBNR")),
    ("fen: bad piece letter", "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0 R", Names("RNBQKBN0")),
    ("fen: rank of 9 squares", "position fen rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR R", Names("8p/")),
    ("fen: rank of 9 squares", "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR R", Names("/9/")),
    ("fen: rank of 7 squares", "position fen rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR R", Names("/ppppppp/")),
    ("fen: rank of 7 squares", "position fen rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR R", Names("/7/")),
    ("fen: too many ranks", "position fen rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR R", Names("9th rank")),
    ("fen: too many ranks", "position fen S/Q R", Names("9th rank")),
    ("fen: too few ranks", "position fen rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR R", Names("board part")),
    ("fen: variant fields", "position fen S[Qq] R", Names("pockets")),
    ("fen: variant fields", "position fen S w KQkq - 3+3 0 1", Names("three-check")),
    ("fen: missing king", "position fen rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", Names("missing king")),
    ("fen: missing king", "position fen 8/8/8/8/8/8/8/8 w - - 0 1", Names("missing king")),
    ("fen: two white kings", "position fen 4k3/8/8/8/8/8/8/3KK3 w - - 0 1", Names("too many kings")),
    ("fen: pawn on the 1st rank", "position fen 4k3/8/8/8/8/8/8/P3K3 w - - 0 1", Names("pawns on backrank")),
    ("fen: pawn on the 8th rank", "position fen p3k3/8/8/8/8/8/8/4K3 w - - 0 1", Names("pawns on backrank")),
    ("fen: too much material", "position fen QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/K6k w - - 0 1", Names("too much material")),
    // FEN: side to move, castling, en passant, counters, checks.
    ("fen: side to move", "position fen 4k3/8/8/8/8/8/8/4K3 x - - 0 1", Names("K3 x -")),
    ("fen: side to move", "position fen 4k3/8/8/8/8/8/8/4K3 white - - 0 1", Names("white")),
    ("fen: bad castling field", "position fen S w KQkz - 0 1", Names("KQkz")),
    ("fen: bad castling field", "position fen S w KQkq3 - 0 1", Names("KQkq3")),
    ("fen: repeated castling right", "position fen S w KQkqK - 0 1", Silent),
    ("fen: castling without the rook", "position fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1", Names("h1")),
    ("fen: castling without the rook", "position fen r3k3/8/8/8/8/8/8/4K3 b kq - 0 1", Names("h8")),
    ("fen: castling without the rook", "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", Names("f1 h1 f8 h8")),
    ("fen: bad en passant square", "position fen S w KQkq z9 0 1", Names("z9")),
    ("fen: bad en passant square", "position fen S w KQkq e9 0 1", Names("e9")),
    ("fen: en passant on the wrong rank", "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", Names("e4")),
    ("fen: en passant on the wrong rank", "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", Names("e3")),
    ("fen: en passant without the pawn", "position fen S w KQkq e6 0 1", Names("e6")),
    ("fen: negative counter", "position fen S w KQkq - -1 1", Names("-1")),
    ("fen: negative counter", "position fen S w KQkq - 0 -5", Names("-5")),
    ("fen: overflowing counter", "position fen S w KQkq - 99999999999 1", Names("99999999999")),
    ("fen: overflowing counter", "position fen S w KQkq - 0 99999999999", Names("99999999999")),
    ("fen: zero fullmove number", "position fen S w KQkq - 0 0", Names("fullmove number '0'")),
    ("fen: counter not a number", "position fen S w KQkq - x 1", Names("halfmove clock")),
    ("fen: side not to move in check", "position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", Names("opposite check")),
    ("fen: impossible check", "position fen 4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", Names("impossible check")),
    ("fen: empty", "position fen", Names("needs a FEN")),
    ("fen: empty", "position fen    ", Names("needs a FEN")),
    // Moves after `position startpos moves`.
    ("moves: illegal", "position startpos moves e2e5", Names("e2e5")),
    ("moves: illegal", "position startpos moves e2e4 e2e4", Names("move 2 of 2")),
    ("moves: illegal", "position startpos moves e1g1", Names("e1g1")),
    ("moves: illegal", "position startpos moves a7a8q", Names("a7a8q")),
    ("moves: illegal", "position startpos moves e2e4 e7e5 e1e1", Names("e1e1")),
    ("moves: illegal", "position startpos moves 0000", Names("0000")),
    ("moves: illegal", "position startpos moves P@e4", Names("P@e4")),
    ("moves: unparsable", "position startpos moves zz99", Names("zz99")),
    ("moves: unparsable", "position startpos moves e2e4x", Names("e2e4x")),
    ("moves: unparsable", "position startpos moves e2", Names("'e2'")),
    ("moves: unparsable", "position startpos moves E2E4", Names("E2E4")),
    ("moves: none after 'moves'", "position startpos moves", Silent),
    ("position: syntax", "position startpos e2e4", Names("e2e4")),
    ("position: syntax", "position", Names("startpos")),
    ("position: syntax", "position sideways", Names("sideways")),
    // Numbers in `go` (each `go` is followed by `stop`).
    ("go: overflowing number", "go wtime 99999999999999999999999", Names("wtime")),
    ("go: overflowing number", "go movetime 99999999999999999999999", Names("movetime")),
    ("go: overflowing number", "go depth 4294967296", Names("4294967296")),
    ("go: overflowing number", "go nodes 99999999999999999999999", Names("nodes")),
    ("go: negative number", "go depth -1", Names("depth -1")),
    ("go: negative number", "go nodes -5", Names("nodes -5")),
    ("go: negative number", "go winc -100 wtime 1000", Names("winc -100")),
    ("go: negative number", "go mate -2", Names("'-2'")),
    ("go: negative number", "go movestogo -3 wtime 1000", Names("'-3'")),
    ("go: negative number", "go wtime -1000 btime -1000", Names("-1000")),
    // `go` flags without values.
    ("go: flag without value", "go wtime", Names("wtime")),
    ("go: flag without value", "go depth", Names("depth")),
    ("go: flag without value", "go movetime", Names("movetime")),
    ("go: flag without value", "go searchmoves", Names("searchmoves")),
    ("go: flag without value", "go wtime btime 1000 depth", Names("wtime")),
    ("go: unknown parameter", "go fast", Names("fast")),
    // Options.
    ("setoption: out of range", "setoption name Hash value 0", Names("Hash")),
    ("setoption: out of range", "setoption name Hash value 99999999999", Names("99999999999")),
    ("setoption: out of range", "setoption name Hash value -5", Names("-5")),
    ("setoption: out of range", "setoption name MultiPV value 0", Names("MultiPV")),
    ("setoption: out of range", "setoption name Move Overhead value 99999999999999999999999", Names("Move Overhead")),
    ("setoption: bad value", "setoption name Hash value lots", Names("lots")),
    ("setoption: bad value", "setoption name UCI_Chess960 value yes", Names("yes")),
    ("setoption: bad value", "setoption name SearchMode value Fast", Names("Fast")),
    ("setoption: missing value", "setoption name Hash", Names("Hash")),
    ("setoption: missing value", "setoption name Hash value", Names("Hash")),
    ("setoption: unknown option", "setoption name Nope value 1", Names("Nope")),
    ("setoption: no name", "setoption", Names("name <option>")),
    ("setoption: no name", "setoption name", Names("no option name")),
    ("setoption: no name", "setoption name value 3", Names("no option name")),
    ("setoption: no name", "setoption value 3", Names("name <option>")),
    // Control characters and whitespace.
    ("control characters", "\x01", Names("'?'")),
    ("control characters", "\x1b[A", Names("'?[A'")),
    ("control characters", "\x1b[Aposition startpos", Names("?[Aposition")),
    ("control characters", "\x00\x00\x00", Names("'???'")),
    ("control characters", "position startpos moves e2e4\x07", Names("e2e4?")),
    ("control characters", "\t\t \t \x0b \x0c", Silent),
    ("control characters", "\tposition\t\tstartpos \t moves\te2e4\t", Silent),
    ("control characters", "position startpos\r", Silent),
    // Commands.
    ("unknown command", "jump", Names("jump")),
    ("unknown command", "POSITION startpos", Names("POSITION")),
    ("unknown command", "Go depth 1", Names("'Go'")),
    ("unknown command", "go2", Names("go2")),
    ("extra tokens", "isready now", Names("now")),
    ("extra tokens", "uci please", Names("please")),
    ("extra tokens", "stop now", Names("now")),
    ("extra tokens", "debug sometimes", Names("sometimes")),
    ("nothing to do", "ponderhit", Names("ponderhit")),
    ("ignored by design", "xboard", Silent),
];

/// The start position's board and the other fields, which the table writes `S` and `R`.
const START_BOARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
const START_REST: &str = "w KQkq - 0 1";

/// A table line with `S` and `R` written out (they stand alone or before `/`, `[`).
fn expand(line: &str) -> String {
    line.split(' ')
        .map(|word| match word {
            "R" => START_REST.to_string(),
            _ if word.starts_with('S') && word[1..].chars().all(|c| "/Q[q]".contains(c)) => {
                format!("{START_BOARD}{}", &word[1..])
            }
            _ => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A line as bytes, with the class and the answer it must get.
struct Case {
    class: &'static str,
    line: Vec<u8>,
    answer: Answer,
}

/// Byte noise from a fixed linear congruential generator: every byte but the newline.
fn garbage(len: usize) -> Vec<u8> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            match (state >> 56) as u8 {
                b'\n' => b'?',
                byte => byte,
            }
        })
        .collect()
}

/// The table, then the lines that are too long or not UTF-8 to write in it.
fn corpus() -> Vec<Case> {
    let mut cases: Vec<Case> = CORPUS
        .iter()
        .map(|&(class, line, answer)| Case { class, line: expand(line).into_bytes(), answer })
        .collect();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let ten_thousand: Vec<&str> = shuffle.iter().cycle().take(10_000).copied().collect();
    let long_moves = format!("position startpos moves {}", ten_thousand.join(" "));
    let extra = vec![
        ("invalid UTF-8", b"position startpos moves \xff\xfe".to_vec(), Names("invalid move '\u{fffd}")),
        ("invalid UTF-8", b"\xc3\x28 \xe2\x82".to_vec(), Names("unknown command '\u{fffd}(")),
        ("very long line", garbage(100_000), Names("unknown command")),
        (
            "very long line",
            format!("position fen {}", "rnbqkbnr/".repeat(11_000)).into_bytes(),
            Names("invalid FEN 'rnbqkbnr/rnbqkbnr/"),
        ),
        ("very long line", long_moves.clone().into_bytes(), Silent),
        (
            "very long line",
            format!("{long_moves} e2e5").into_bytes(),
            Names("illegal move e2e5 (move 10001 of 10001)"),
        ),
        ("very long line", format!("go{}", " depth 1".repeat(12_500)).into_bytes(), Silent),
        (
            "very long line",
            format!("setoption name {} value 1", "x".repeat(100_000)).into_bytes(),
            Names("unknown option 'xxxx"),
        ),
    ];
    cases.extend(extra.into_iter().map(|(class, line, answer)| Case { class, line, answer }));
    cases
}

/// The words a UCI engine may begin a line with.
const UCI_WORDS: [&str; 8] =
    ["id", "uciok", "readyok", "bestmove", "copyprotection", "registration", "info", "option"];

/// A line a GUI can read: a UCI word first, no control characters, not absurdly long.
fn is_uci_line(line: &str) -> bool {
    let first = line.split(' ').next().unwrap_or("");
    UCI_WORDS.contains(&first) && !line.chars().any(char::is_control) && line.len() < 1_000
}

/// Every line of the corpus, in one session: the engine answers `isready`, complains where
/// the line is wrong, then plays a legal move from the position after 1. e4.
#[test]
fn every_bad_line_is_survived_and_named() {
    let after_e4 = play_line(&Chess::default(), &["e2e4"]);
    let mut e = Engine::start();
    e.send("uci");
    let mut output = e.until("uciok");
    e.send("position startpos moves e2e4");
    for case in corpus() {
        let shown = String::from_utf8_lossy(&case.line).chars().take(80).collect::<String>();
        let starts_search = case.line.starts_with(b"go ") || case.line == b"go";
        let mut bytes = case.line.clone();
        bytes.push(b'\n');
        e.send_bytes(&bytes);
        if starts_search {
            e.send("stop");
        }
        let lines = e.sync();
        let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string")).collect();
        match case.answer {
            Names(token) => assert!(
                infos.iter().any(|info| info.contains(token)),
                "{}: {shown:?} got no info string naming {token:?}: {lines:?}",
                case.class
            ),
            Silent => assert!(infos.is_empty(), "{}: {shown:?} is fine, yet: {infos:?}", case.class),
        }
        if starts_search {
            assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{shown:?}: {lines:?}");
            let best = lines.iter().find(|l| l.starts_with("bestmove")).unwrap();
            play_line(&after_e4, &[best.split_whitespace().nth(1).unwrap()]);
        }
        eprintln!("{}\t{shown:?}\t{}", case.class, infos.first().map_or("(silent)", |s| s.as_str()));
        output.extend(lines);
        e.send("position startpos moves e2e4");
        e.send("go depth 2");
        let lines = e.until("bestmove");
        assert!(lines.iter().all(|l| !l.starts_with("info string")), "after {shown:?}: {lines:?}");
        play_line(&after_e4, &[bestmove(&lines).as_str()]);
        output.extend(lines);
    }
    let strays: Vec<&String> = output.iter().filter(|l| !is_uci_line(l)).collect();
    assert!(strays.is_empty(), "lines that are not UCI: {strays:?}");
}

/// The engine's messages stay short enough for a GUI even when the bad token is huge.
#[test]
fn messages_about_huge_tokens_are_cut_short() {
    let mut e = Engine::start();
    e.send(&"x".repeat(100_000));
    e.send(&format!("position fen {}", "8/".repeat(30_000)));
    let lines = e.sync();
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string")).collect();
    assert_eq!(infos.len(), 2, "{lines:?}");
    let lengths: Vec<usize> = infos.iter().map(|l| l.len()).collect();
    assert!(lengths.iter().all(|&n| n < 1_000), "{lengths:?}");
}
