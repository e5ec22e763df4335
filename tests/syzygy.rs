//! Syzygy tablebases through the real binary: the options, loading (and failing to load)
//! the tables, the moves and scores they give, and an ending played out with them.

mod common;

use common::{Engine, bestmove, check_pvs, play_line, position, temp_path};
use principia::syzygy::{self, Wdl};
use shakmaty::{Chess, Position};

/// The small tables shipped for the tests (the engine runs in the package root).
const TABLES: &str = "tests/data/syzygy";

/// An engine with the test tables loaded.
fn engine_with_tables() -> Engine {
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {TABLES}"));
    let lines = e.sync();
    assert_eq!(lines[0], format!("info string found 10 tablebase files (up to 3 pieces) in {TABLES}"));
    e
}

/// Searches `fen` to `depth`; returns every line up to `bestmove`, after checking the PVs.
fn go(e: &mut Engine, fen: &str, depth: u32) -> Vec<String> {
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go depth {depth}"));
    let lines = e.until("bestmove");
    check_pvs(&position(fen), &lines);
    lines
}

/// The `score ...` of the last `info` line with one, as `cp N` or `mate N`.
fn last_score(lines: &[String]) -> String {
    let info = lines.iter().rev().find(|l| l.contains(" score ")).expect("an info line with a score");
    info.split(" score ").nth(1).unwrap().split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// The outcome for the side to move after `mv` is played in `fen`, by the test tables.
fn outcome_after(fen: &str, mv: &str) -> Wdl {
    let tables = syzygy::load(&[TABLES]).tables.unwrap();
    tables.probe_wdl(&play_line(&position(fen), &[mv])).expect("in the tables")
}

#[test]
fn uci_lists_the_syzygy_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    for option in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option} in {lines:#?}");
    }
    e.send("setoption name SyzygyProbeDepth value 4");
    e.send("setoption name Syzygy50MoveRule value false");
    e.send("setoption name SyzygyPath value <empty>");
    assert_eq!(e.sync(), vec!["readyok"], "accepted silently");
}

#[test]
fn a_won_rook_ending_keeps_the_win_and_reports_tbhits() {
    let mut e = engine_with_tables();
    // The black king attacks a2, a3 and a4: the rook must not go there.
    let fen = "8/8/8/8/8/1k6/8/R3K3 w - - 0 1";
    let lines = go(&mut e, fen, 8);
    let best = bestmove(&lines);
    assert_eq!(outcome_after(fen, &best), Wdl::Loss, "{best} keeps the win");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(infos.iter().all(|l| l.contains(" tbhits ")), "{infos:#?}");
    assert!(last_score(&lines) == "cp 30871" || last_score(&lines).starts_with("mate "), "{lines:#?}");
}

#[test]
fn pawn_endings_drawn_and_won_are_recognised() {
    let mut e = engine_with_tables();
    // The defending king in front of the pawn, and with the opposition: a draw.
    let draw = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
    let lines = go(&mut e, draw, 10);
    assert_eq!(last_score(&lines), "cp 0");
    assert_eq!(outcome_after(draw, &bestmove(&lines)), Wdl::Draw);
    // The king on the sixth rank in front of its pawn: a win, but not after Kd5 or Kf5.
    let win = "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1";
    let lines = go(&mut e, win, 10);
    assert_eq!(last_score(&lines), "cp 30871");
    assert!(["e6d6", "e6f6"].contains(&bestmove(&lines).as_str()), "{lines:#?}");
}

#[test]
fn a_bad_path_or_a_bad_file_is_reported_and_the_engine_keeps_working() {
    let mut e = Engine::start();
    e.send("setoption name SyzygyPath value /no/such/syzygy/dir");
    let lines = e.sync();
    assert!(lines[0].starts_with("info string SyzygyPath: cannot read directory '/no/such/syzygy/dir'"));
    assert_eq!(lines[1], "info string found no tablebase files in /no/such/syzygy/dir");
    assert_eq!(lines[2], "readyok");
    let lines = go(&mut e, "8/8/8/8/8/1k6/8/R3K3 w - - 0 1", 5);
    assert!(lines.iter().all(|l| !l.contains("tbhits")), "no tables, no tbhits");
    play_line(&position("8/8/8/8/8/1k6/8/R3K3 w - - 0 1"), &[bestmove(&lines).as_str()]);

    // A table that is not one, beside a good one.
    let dir = temp_path("uci-syzygy");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("KRvK.rtbw"), [7u8; 80]).unwrap();
    std::fs::copy(format!("{TABLES}/KQvK.rtbw"), dir.join("KQvK.rtbw")).unwrap();
    e.send(&format!("setoption name SyzygyPath value {}", dir.display()));
    let lines = e.sync();
    assert!(lines[0].contains("KRvK.rtbw': not a Syzygy table (bad header)"), "{lines:#?}");
    assert_eq!(
        lines[1],
        format!("info string found 1 tablebase files (up to 3 pieces) in {}", dir.display())
    );
    let lines = go(&mut e, "8/8/8/8/8/1k6/8/R3K3 w - - 0 1", 5);
    std::fs::remove_dir_all(&dir).unwrap();
    play_line(&position("8/8/8/8/8/1k6/8/R3K3 w - - 0 1"), &[bestmove(&lines).as_str()]);
}

#[test]
fn an_empty_path_unloads_the_tables() {
    let mut e = engine_with_tables();
    e.send("setoption name SyzygyPath value <empty>");
    assert_eq!(e.sync(), vec!["info string tablebases unloaded", "readyok"]);
    let lines = go(&mut e, "8/8/8/8/8/1k6/8/R3K3 w - - 0 1", 4);
    assert!(lines.iter().all(|l| !l.contains("tbhits")));
}

#[test]
fn a_rook_ending_played_out_with_tables_mates_within_the_fifty_move_rule() {
    let mut e = engine_with_tables();
    // The bare king in the centre, the longest kind of KRvK.
    let start = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";
    let mut pos: Chess = position(start);
    let mut moves: Vec<String> = Vec::new();
    while !pos.is_game_over() && pos.halfmoves() < 100 {
        e.send(&format!("position fen {start} moves {}", moves.join(" ")));
        e.send("go nodes 20000");
        let best = bestmove(&e.until("bestmove"));
        pos = play_line(&pos, &[best.as_str()]);
        moves.push(best);
    }
    assert!(pos.is_checkmate(), "no mate after {} plies: {}", moves.len(), moves.join(" "));
    assert!(moves.len() < 100, "mate came after the fifty-move rule: {}", moves.len());
}
