//! Property tests of the engine's edge: no input line, soup of UCI tokens or mutated FEN
//! makes the command parser or the position setup panic. Lines that parse are applied the
//! way the engine applies them (`Game::from_fen` and `play_uci`, `Options::set`, the time
//! budgets of `go`), and every position that sets up is evaluated and searched briefly.

use principia::engine::options::Options;
use principia::eval;
use principia::game::Game;
use principia::search::time::{Clock, TimeManager};
use principia::search::{Limits, SearchConfig, SearchControl, Searcher};
use principia::tt::TranspositionTable;
use principia::uci::{Command, Go};
use proptest::prelude::*;
use proptest::sample::select;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, EnPassantMode, Position, fen::Fen};
use std::cell::RefCell;
use std::sync::Arc;

const MODES: [CastlingMode; 2] = [CastlingMode::Standard, CastlingMode::Chess960];

/// Real FENs the mutations start from: the classic perft positions, en passant, Chess960
/// (Shredder-FEN), endgames and a promotion race.
const FENS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "8/8/8/3k4/8/8/8/KQ6 w - - 0 1",
    "7k/P7/8/8/8/8/p7/K7 b - - 99 120",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
];

/// Words of the protocol, the soup's main ingredient.
const KEYWORDS: [&str; 36] = [
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "setoption",
    "name",
    "value",
    "Hash",
    "MultiPV",
    "UCI_Chess960",
    "Move",
    "Overhead",
    "SearchMode",
    "Clear",
    "uci",
    "isready",
    "ucinewgame",
    "stop",
    "debug",
    "on",
    "bench",
    "quit",
];

/// Numbers at the edges of every integer type the parser meets.
const EDGE_NUMBERS: [&str; 16] = [
    "0",
    "-0",
    "+5",
    "-1",
    "1",
    "127",
    "128",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999",
    "1e3",
    "0x10",
];

/// Move-like strings: legal, illegal, castling both ways, drops, null moves and nonsense.
const MOVE_WORDS: [&str; 14] = [
    "e2e4", "e7e5", "g1f3", "a7a8q", "a2a1n", "e1g1", "e1h1", "e8c8", "zz99", "0000", "P@e4", "e2e4x",
    "E2E4", "e2",
];

/// FEN fragments, so that soups sometimes hold something close to a FEN.
const FEN_WORDS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "4k3/8/8/8/8/8/8/4K3",
    "8/8/8/8/8/8/8/8",
    "w",
    "b",
    "KQkq",
    "HAha",
    "-",
    "e3",
    "e6",
    "0",
    "1",
];

/// Characters that break naive parsers: controls, odd whitespace, a byte-order mark.
const NASTY_CHARS: [char; 12] =
    ['\0', '\t', '\n', '\r', '\x0b', '\x0c', '\x1b', '\x7f', '\u{a0}', '\u{2028}', '\u{3000}', '\u{feff}'];

/// Characters a FEN is made of, and a few it is not.
const FEN_CHARS: &str = "pnbrqkPNBRQK123456789/ 0-wbKQkqAHahxe9";

/// `cases` for the everyday run, times `PRINCIPIA_FUZZ_SCALE` when it is set: the soak
/// (`PRINCIPIA_FUZZ_SCALE=43`, over a million cases in all) runs the same properties longer.
fn config(cases: u32) -> ProptestConfig {
    let scale = std::env::var("PRINCIPIA_FUZZ_SCALE").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(1);
    ProptestConfig {
        cases: cases.saturating_mul(scale.max(1)),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn nasty_char() -> impl Strategy<Value = char> {
    prop_oneof![3 => any::<char>(), 1 => select(&NASTY_CHARS[..])]
}

fn text(max_len: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(nasty_char(), 0..max_len).prop_map(|chars| chars.into_iter().collect())
}

/// One token of a soup.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => select(&KEYWORDS[..]).prop_map(String::from),
        2 => select(&EDGE_NUMBERS[..]).prop_map(String::from),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        3 => select(&MOVE_WORDS[..]).prop_map(String::from),
        1 => "[a-i][0-9][a-i][0-9][qrbnkp]?",
        2 => select(&FEN_WORDS[..]).prop_map(String::from),
        1 => text(6),
    ]
}

/// A thread's searcher on a small table, made once: a fresh one per case would spend the
/// time allocating tables.
fn with_searcher(f: impl FnOnce(&mut Searcher)) {
    thread_local! {
        static SEARCHER: RefCell<Searcher> = RefCell::new(Searcher::with_tt(
            SearchConfig::default(),
            Arc::new(TranspositionTable::new(1).expect("1 MB table")),
        ));
    }
    SEARCHER.with(|s| f(&mut s.borrow_mut()));
}

/// What the engine does with a game it accepted: evaluate it, list and replay its moves,
/// write its FEN, and (when `depth` > 0) search it.
fn exercise(game: &Game, mode: CastlingMode, depth: u32) {
    let pos = game.position();
    eval::Network::embedded().evaluate_position(pos);
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    assert!(fen.parse::<Fen>().is_ok(), "the engine's own FEN reads back: {fen}");
    for mv in pos.legal_moves() {
        let mut next = game.clone();
        next.play_uci(&mv.to_uci(mode)).expect("a legal move written in UCI plays");
    }
    if depth > 0 {
        with_searcher(|searcher| {
            let control = Arc::new(SearchControl::new(false));
            let result = searcher.search(game, Limits::depth(depth), control, &mut |_| {});
            if let Some(best) = result.best_move {
                assert!(pos.is_legal(best), "search returned an illegal move in {fen}");
            } else {
                assert!(pos.legal_moves().is_empty(), "no best move with legal moves in {fen}");
            }
        });
    }
}

/// Sets up `fen` (or the start position) and plays `moves` as the engine's `position` does
/// (`Game::from_fen_noting`, then `play_uci`): the first refused move ends the line.
fn set_up(fen: Option<&Fen>, moves: &[UciMove], mode: CastlingMode, depth: u32) {
    let mut game = match fen {
        None => Game::default(),
        Some(fen) => match Game::from_fen_noting(fen.clone(), mode) {
            Ok((game, notes)) => {
                assert!(
                    notes.iter().all(|note| names_a_square(note)),
                    "a note names what it dropped: {notes:?}"
                );
                game
            }
            Err(message) => {
                assert!(refused_by_the_rules(fen, mode), "{fen} refused, yet it is a position: {message}");
                return;
            }
        },
    };
    for mv in moves {
        if game.play_uci(mv).is_err() {
            return;
        }
    }
    exercise(&game, mode, depth);
}

/// True when `text` names a square (`e6`, `h1`).
fn names_a_square(text: &str) -> bool {
    text.as_bytes().windows(2).any(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]))
}

/// True when `fen` is no chess position: a variant's fields, or a board and side to move
/// the rules refuse even with its castling rights and en passant square dropped.
fn refused_by_the_rules(fen: &Fen, mode: CastlingMode) -> bool {
    let setup = fen.as_setup();
    let variant = setup.pockets.is_some() || setup.remaining_checks.is_some();
    let lenient = fen
        .clone()
        .into_position::<shakmaty::Chess>(mode)
        .or_else(shakmaty::PositionError::ignore_invalid_castling_rights)
        .or_else(shakmaty::PositionError::ignore_invalid_ep_square);
    variant || lenient.is_err()
}

/// The time budgets the engine derives from `go`, for every overhead the option allows.
fn budgets(go: &Go) {
    for overhead in [0, 30, 5000] {
        if let Some(movetime) = go.movetime {
            TimeManager::from_movetime(movetime, overhead);
        }
        for (time, inc) in [(go.wtime, go.winc), (go.btime, go.binc)] {
            if let Some(time_ms) = time {
                let clock = Clock { time_ms, inc_ms: inc.unwrap_or(0), moves_to_go: go.movestogo };
                let tm = TimeManager::from_clock(clock, overhead);
                assert!(tm.soft_ms <= tm.hard_ms && tm.hard_ms <= time_ms, "{go:?}");
            }
        }
    }
}

/// Applies a parsed command as the engine would, short of printing and searching on a thread.
fn apply(command: &Command, depth: u32) {
    match command {
        Command::Position { fen, moves, .. } => {
            for mode in MODES {
                set_up(fen.as_ref(), moves, mode, depth);
            }
        }
        Command::SetOption { name, value } => {
            let mut options = Options::default();
            if options.set(name, value.as_deref()).is_err() {
                assert_eq!(options, Options::default(), "a refused option changes nothing");
            }
        }
        Command::Go(go) => budgets(go),
        _ => {}
    }
}

/// Parses `line` as the engine does (after trimming) and applies it.
fn parse_and_apply(line: &str, depth: u32) {
    match line.trim().parse::<Command>() {
        Ok(command) => apply(&command, depth),
        // A refused line is named: the message quotes one of its words (the command's at least).
        Err(e) => assert!(
            line.split_whitespace().any(|word| e.0.contains(word)) || line.trim().is_empty(),
            "{line:?}: {e}"
        ),
    }
}

/// A random walk of legal moves from `start` (one index byte per ply), in UCI notation.
fn walk(start: &Game, mode: CastlingMode, picks: &[u8]) -> Vec<String> {
    let mut game = start.clone();
    let mut line = Vec::new();
    for &pick in picks {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(pick) % moves.len()];
        line.push(mv.to_uci(mode).to_string());
        game.play(mv);
    }
    line
}

/// One edit of a FEN's text.
#[derive(Clone, Debug)]
enum Edit {
    /// Replace the character at (index modulo length).
    Replace(usize, char),
    /// Insert a character before (index modulo length + 1).
    Insert(usize, char),
    /// Delete the character at (index modulo length).
    Delete(usize),
    /// Swap two characters (indices modulo length).
    SwapChars(usize, usize),
    /// Replace the (index modulo count)-th piece letter with another piece letter, which
    /// keeps the board readable and moves the edit to the position's own rules.
    SetPiece(usize, char),
    /// Swap two space-separated fields.
    SwapFields(usize, usize),
    /// Replace a field with a token (a huge number, a keyword, another field).
    SetField(usize, String),
    /// Remove a field.
    DropField(usize),
    /// Repeat a field.
    RepeatField(usize),
    /// Replace one rank of the board with another string.
    SetRank(usize, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    let fen_char = prop_oneof![4 => select(FEN_CHARS.chars().collect::<Vec<_>>()), 1 => nasty_char()];
    let field = prop_oneof![
        select(&EDGE_NUMBERS[..]).prop_map(String::from),
        select(&FEN_WORDS[..]).prop_map(String::from),
        "[a-z][0-9]",
        "[KQkqA-Ha-h-]{0,6}",
        "[wbx]",
    ];
    let rank = prop_oneof!["[pnbrqkPNBRQK1-9]{0,10}", Just(String::from("ppppppppp")), Just(String::new())];
    prop_oneof![
        3 => (any::<usize>(), fen_char.clone()).prop_map(|(i, c)| Edit::Replace(i, c)),
        2 => (any::<usize>(), fen_char).prop_map(|(i, c)| Edit::Insert(i, c)),
        2 => any::<usize>().prop_map(Edit::Delete),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::SwapChars(i, j)),
        6 => (any::<usize>(), select("pnbrqkPNBRQK".chars().collect::<Vec<_>>()))
            .prop_map(|(i, c)| Edit::SetPiece(i, c)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Edit::SwapFields(i, j)),
        2 => (any::<usize>(), field).prop_map(|(i, f)| Edit::SetField(i, f)),
        1 => any::<usize>().prop_map(Edit::DropField),
        1 => any::<usize>().prop_map(Edit::RepeatField),
        2 => (any::<usize>(), rank).prop_map(|(i, r)| Edit::SetRank(i, r)),
    ]
}

fn apply_edit(fen: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    // Splitting on ' ' always gives at least one field, and a board at least one rank.
    let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
    let n = fields.len();
    match edit {
        Edit::Replace(i, c) => {
            if !chars.is_empty() {
                let at = i % chars.len();
                chars[at] = *c;
            }
        }
        Edit::Insert(i, c) => chars.insert(i % (chars.len() + 1), *c),
        Edit::Delete(i) => {
            if !chars.is_empty() {
                chars.remove(i % chars.len());
            }
        }
        Edit::SwapChars(i, j) => {
            if !chars.is_empty() {
                let len = chars.len();
                chars.swap(i % len, j % len);
            }
        }
        Edit::SetPiece(i, c) => {
            let board_len = fields[0].chars().count();
            let pieces: Vec<usize> = (0..board_len).filter(|&k| chars[k].is_ascii_alphabetic()).collect();
            if !pieces.is_empty() {
                chars[pieces[i % pieces.len()]] = *c;
            }
        }
        Edit::SwapFields(i, j) => fields.swap(i % n, j % n),
        Edit::SetField(i, f) => fields[i % n] = f.clone(),
        Edit::DropField(i) => {
            fields.remove(i % n);
        }
        Edit::RepeatField(i) => {
            let f = fields[i % n].clone();
            fields.insert(i % n, f);
        }
        Edit::SetRank(i, r) => {
            let mut ranks: Vec<&str> = fields[0].split('/').collect();
            let at = i % ranks.len();
            ranks[at] = r.as_str();
            fields[0] = ranks.join("/");
        }
    }
    match edit {
        Edit::Replace(..) | Edit::Insert(..) | Edit::Delete(_) | Edit::SwapChars(..) | Edit::SetPiece(..) => {
            chars.into_iter().collect()
        }
        _ => fields.join(" "),
    }
}

proptest! {
    #![proptest_config(config(5000))]

    /// (a) Any string at all, short: controls, non-ASCII, newlines inside.
    #[test]
    fn any_short_line_parses_or_is_refused(line in text(120)) {
        parse_and_apply(&line, 0);
    }

    /// (a) Any string after a real command word, so the command's own parser runs.
    #[test]
    fn any_arguments_to_a_command_word(word in select(&KEYWORDS[..]), rest in text(80)) {
        parse_and_apply(&format!("{word} {rest}"), 0);
    }
}

proptest! {
    #![proptest_config(config(40))]

    /// (a) Very long lines, of random characters and of repeated tokens.
    #[test]
    fn very_long_lines(line in text(20_000), word in select(&KEYWORDS[..]), reps in 1000usize..20_000) {
        parse_and_apply(&line, 0);
        parse_and_apply(&format!("{word} {}", "e2e4 9 - ".repeat(reps)), 0);
    }
}

proptest! {
    #![proptest_config(config(4000))]

    /// (b) Soups of protocol words, numbers, move-like strings and FEN fragments behind each
    /// command that takes arguments.
    #[test]
    fn token_soups(
        head in select(&["position", "position startpos moves", "position fen", "go", "go searchmoves",
            "setoption", "setoption name", "go perft", "bench", "debug"][..]),
        tokens in prop::collection::vec(token(), 0..30),
        separators in prop::collection::vec(select(&[" ", "  ", "\t", " \t "][..]), 30),
    ) {
        let mut line = String::from(head);
        for (token, sep) in tokens.iter().zip(&separators) {
            line.push_str(sep);
            line.push_str(token);
        }
        parse_and_apply(&line, 0);
    }
}

proptest! {
    #![proptest_config(config(600))]

    /// (b) A legal game from a real FEN, with junk tokens spliced in or appended: every move
    /// up to the first bad one is played, and the position reached is searched.
    #[test]
    fn legal_walks_with_junk(
        fen in select(&FENS[..]),
        chess960 in any::<bool>(),
        picks in prop::collection::vec(any::<u8>(), 0..80),
        junk in prop::collection::vec((any::<usize>(), token()), 0..3),
    ) {
        let mode = CastlingMode::from_chess960(chess960);
        let start = Game::from_fen(fen.parse::<Fen>().unwrap(), mode).unwrap();
        let mut moves = walk(&start, mode, &picks);
        for (at, word) in junk {
            moves.insert(at % (moves.len() + 1), word);
        }
        let line = format!("position fen {fen} moves {}", moves.join(" "));
        parse_and_apply(&line, 2);
    }
}

proptest! {
    #![proptest_config(config(5000))]

    /// (c) Real FENs with characters replaced, inserted or deleted, fields swapped, dropped,
    /// repeated or replaced (huge numbers among them), ranks rewritten. Whatever parses is set
    /// up in both castling modes, and what sets up is evaluated, replayed and searched.
    #[test]
    fn mutated_fens(fen in select(&FENS[..]), edits in prop::collection::vec(edit(), 1..5)) {
        let mutated = edits.iter().fold(fen.to_string(), |text, e| apply_edit(&text, e));
        if let Ok(parsed) = mutated.parse::<Fen>() {
            for mode in MODES {
                set_up(Some(&parsed), &[], mode, 1);
            }
        }
        parse_and_apply(&format!("position fen {mutated} moves e2e4 e7e5"), 0);
    }
}

/// A FEN board from 64 squares, a8 first, runs of empty squares counted.
fn board_text(squares: &[Option<char>]) -> String {
    let mut text = String::new();
    for (rank, row) in squares.chunks(8).enumerate() {
        if rank > 0 {
            text.push('/');
        }
        let mut empty = 0;
        for square in row {
            match square {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(*piece);
                }
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
    }
    text
}

proptest! {
    #![proptest_config(config(4000))]

    /// (c) Random boards (two kings placed, a few pieces, now and then a third king), random side, castling
    /// and en passant fields, and counters: the position's own rules (kings, back-rank pawns,
    /// checks, material, castling and en passant consistency) are reached far more often than
    /// by text edits. What sets up is evaluated, replayed and searched.
    #[test]
    fn random_positions(
        mut squares in prop::collection::vec(
            prop_oneof![
                360 => Just(None),
                45 => select("pnbrqPNBRQ".chars().collect::<Vec<_>>()).prop_map(Some),
                1 => select(&['k', 'K'][..]).prop_map(Some),
            ],
            64,
        ),
        kings in (0usize..64, 0usize..64),
        turn in select(&["w", "b"][..]),
        castling in "[KQA-H][kqa-h]?|[kqa-h]|[KQ]{2}[kq]{2}|-",
        ep in prop_oneof![Just(String::from("-")), "[a-h][1-8]"],
        halfmoves in prop_oneof![0u32..120, any::<u32>()],
        fullmoves in prop_oneof![1u32..300, any::<u32>()],
    ) {
        squares[kings.0] = Some('K');
        squares[kings.1] = Some('k');
        let fen = format!("{} {turn} {castling} {ep} {halfmoves} {fullmoves}", board_text(&squares));
        let parsed = fen.parse::<Fen>();
        prop_assert!(parsed.is_ok(), "a well-formed FEN reads: {fen}");
        for mode in MODES {
            set_up(parsed.as_ref().ok(), &[], mode, 2);
        }
    }
}
