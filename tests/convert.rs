//! `convert` on PGN fixtures of the writers we meet: cutechess-cli
//! (`tests/data/cutechess.pgn.txt`, hand-written to its comment format), fastchess as OpenBench
//! runs it (`fastchess.pgn.txt`, likewise), OpenBench's upload of those games (`openbench.pgn.txt`:
//! `fastchess.pgn.txt` passed through its client's `pgn_util.py --compact`), and our `match.py`
//! (`match_py.pgn.txt`: two games cut from a real SPRT file and a hand-written forfeit in the
//! same layout). The expected
//! positions, scores and counts were worked out with python-chess, apart from this code.

mod common;

use common::{principia, temp_path};
use principia::score::{MATE, mate_in};
use principia::tools::convert::{self, Converted, SkipReason, Summary};
use principia::tools::games::{self, GameRecord, NO_SCORE};
use principia::tools::train;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, fen::Fen};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// The games of a fixture that convert, and the summary of all of them.
fn convert_fixture(name: &str) -> (Vec<Converted>, Summary) {
    let (mut written, mut summary) = (Vec::new(), Summary::default());
    let file = std::fs::File::open(fixture(name)).unwrap();
    convert::read_games(file, |game| {
        summary.add(&game);
        written.extend(game.ok());
        Ok(())
    })
    .unwrap();
    (written, summary)
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The moves of a record in UCI (castling as `mode` writes it).
fn moves(record: &GameRecord, mode: CastlingMode) -> Vec<String> {
    record.plies.iter().map(|(m, _)| m.to_uci(mode).to_string()).collect()
}

/// The scores of a record, White's side, `None` where a ply has none.
fn scores(record: &GameRecord) -> Vec<Option<i32>> {
    record.plies.iter().map(|&(_, s)| (s != NO_SCORE).then_some(i32::from(s))).collect()
}

/// The position after the last move.
fn end(record: &GameRecord) -> Chess {
    let mut pos = record.start.clone();
    record.plies.iter().for_each(|&(m, _)| pos.play_unchecked(m));
    pos
}

#[test]
fn cutechess_games_keep_their_start_moves_scores_and_results() {
    let (games, summary) = convert_fixture("cutechess.pgn.txt");
    assert_eq!((summary.read, summary.written, games.len()), (7, 3, 3));
    for reason in [SkipReason::Forfeit, SkipReason::IllegalMove, SkipReason::NoScores, SkipReason::Unfinished]
    {
        assert_eq!(summary.skipped(reason), 1, "{reason:?}: {summary}");
    }
    assert_eq!((summary.plies, summary.scored, summary.from_variations), (27, 25, 0));

    // Book moves carry no score; -M2 is Black mated in two plies, White's +MATE-2.
    let mate = &games[0].record;
    assert_eq!(mate.winner, Some(Color::White));
    assert_eq!(mate.start, Chess::default());
    assert_eq!(moves(mate, CastlingMode::Standard), ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]);
    assert_eq!(scores(mate), [None, None, Some(31), Some(25), Some(40), Some(MATE - 2), Some(MATE - 1)]);
    assert_eq!(mate_in(MATE - 2), Some(1), "White mates in one move, as Black saw it");
    assert!(end(mate).is_checkmate());

    // A FEN start with Black to move: Black's scores change sign.
    let fen_game = &games[1].record;
    assert_eq!(fen(&fen_game.start), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    assert_eq!(fen_game.winner, None);
    let expected = [20, 25, 18, 22, 15, 21, 12, 0].map(Some);
    assert_eq!(scores(fen_game), expected);
    assert_eq!(fen(&end(fen_game)), "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 b kq - 5 6");

    // Chess960 ("fischerandom", Shredder-FEN castling): both sides castle king to rook.
    let frc = &games[2].record;
    let played = moves(frc, CastlingMode::Chess960);
    assert_eq!(played[..4], ["f1g1", "d7d5", "d2d4", "f8g8"]);
    assert_eq!(fen(&end(frc)), "bq1brrkn/ppp3pp/3n1p2/2N1p3/2pP4/6N1/PP2PPPP/BQ1BRRK1 w - - 0 7");
    assert_eq!(scores(frc), [30, 22, 28, 25, 26, 20, 24, 31, 35, 29, 2, 0].map(Some));
}

#[test]
fn fastchess_games_read_their_scores_before_the_extra_fields() {
    let (games, summary) = convert_fixture("fastchess.pgn.txt");
    assert_eq!((summary.read, summary.written), (5, 3));
    assert_eq!(summary.skipped(SkipReason::Forfeit), 1, "abandoned: {summary}");
    assert_eq!(summary.skipped(SkipReason::Variant), 1, "atomic: {summary}");

    let fools = &games[0].record;
    assert_eq!(fools.winner, Some(Color::Black));
    assert_eq!(scores(fools), [Some(-50), Some(-60), Some(-(MATE - 2)), Some(-(MATE - 1))]);
    assert!(end(fools).is_checkmate());

    let book = &games[1].record;
    assert_eq!(fen(&book.start), "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    assert_eq!(scores(book), [None, None, Some(22), Some(0), Some(18), Some(5), Some(0), Some(0)]);
    assert_eq!(fen(&end(book)), "r1bqk2r/2ppbppp/p1n2n2/1p2p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 w kq - 0 7");

    // Chess960 by fastchess's own name, castling rights in X-FEN.
    let frc = &games[2].record;
    assert_eq!(moves(frc, CastlingMode::Chess960), ["f1g1", "d7d5", "d2d4", "f8g8"]);
    assert_eq!(fen(&end(frc)), "bqnbrrkn/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/BQNBRRKN w - - 1 3");
}

#[test]
fn openbench_uploads_keep_the_scores_but_lose_the_termination() {
    let (uploaded, summary) = convert_fixture("openbench.pgn.txt");
    let (played, _) = convert_fixture("fastchess.pgn.txt");
    // The upload drops the Termination tag: the abandoned game can no longer be told apart.
    assert_eq!((summary.read, summary.written, summary.skipped(SkipReason::Variant)), (5, 4, 1));
    assert_eq!(summary.skipped(SkipReason::Forfeit), 0);
    let uploaded: Vec<_> = uploaded.iter().map(|c| &c.record).collect();
    assert_eq!([uploaded[0], uploaded[1], uploaded[3]], [0, 1, 2].map(|i| &played[i].record));
    assert_eq!(scores(uploaded[2]), [Some(25), Some(30), Some(28)]);
}

#[test]
fn match_py_scores_come_from_the_variation_that_replays_the_mainline() {
    let (games, summary) = convert_fixture("match_py.pgn.txt");
    assert_eq!((summary.read, summary.written), (3, 2));
    assert_eq!(summary.skipped(SkipReason::Forfeit), 1, "time forfeit (hang): {summary}");
    // The mainline has no comment: every score is the variation's.
    assert_eq!((summary.plies, summary.scored, summary.from_variations), (61, 61, 61));

    let draw = &games[0].record;
    assert_eq!(draw.winner, None);
    assert_eq!(fen(&draw.start), "r1bqkbnr/pppn1ppp/4p3/3p4/8/P1P2N2/1P1PPPPP/RNBQKB1R w KQkq - 0 4");
    let expected = [-8, -8, -9, -9, -6, -7, -1, 0, 9, -7, 46, 46, 42, 23, 26, 23, 23, 22, 19, 14];
    assert_eq!(scores(draw), expected.map(Some));
    assert_eq!(fen(&end(draw)), "r1bqk2r/1p1nbp1p/4p1p1/p1ppP2n/P7/1NPPBN2/1P3PPP/R2QKB1R w KQkq - 8 14");

    // Mates in python-chess's convention: Black's +999.92 is mate in 8 moves (15 plies).
    let resign = &games[1].record;
    assert_eq!(resign.winner, Some(Color::Black));
    let white = scores(resign);
    assert_eq!(white.len(), 41);
    assert_eq!(white[31..34], [Some(-86), Some(0), Some(-(MATE - 15))]);
    assert_eq!(white[40], Some(-(MATE - 8)), "-999.96: White mated in 4 moves");
    assert_eq!(mate_in(MATE - 15), Some(8));
    assert_eq!(fen(&end(resign)), "r5k1/1pp4p/4p1p1/4n3/pP6/P1Q1Pq2/1B3P1K/1R3R2 b - - 1 24");
}

#[test]
fn the_binary_appends_records_that_train_reads() {
    let out = temp_path("converted.bin");
    let pgns = ["cutechess.pgn.txt", "fastchess.pgn.txt", "match_py.pgn.txt"]
        .map(|f| fixture(f).display().to_string());
    let mut args = vec!["convert", "--out", out.to_str().unwrap()];
    args.extend(pgns.iter().map(String::as_str));
    let log = String::from_utf8(principia(&args).stderr).unwrap();
    let expected = "convert: 15 games read, 8 written, 7 skipped (1 unfinished, 3 forfeit, 1 other variant, \
                    0 bad start position, 1 illegal move, 1 no scores, 0 too long); \
                    104 plies, 100 with scores (61 from variations)";
    assert_eq!(log.trim_end(), expected);

    let bytes = std::fs::read(&out).unwrap();
    let mut unscored = 0;
    assert_eq!(
        games::for_each_game(&bytes, |g| unscored += scores(&g).iter().filter(|s| s.is_none()).count()),
        Ok(8)
    );
    assert_eq!(unscored, 4, "the book moves");
    // Positions that train: scored, not in check, quiet, no mate (cutechess 3 + 8 + 11 and 7
    // mirrored, fastchess 2 + 6 + 4, match.py 20 + 31); one game, of 21 positions (and 10
    // mirrors when it trains), is held out by its hash.
    let set = train::load(std::slice::from_ref(&out)).unwrap();
    assert_eq!((set.games, set.train.len(), set.held_out.len()), (8, 61, 21));

    // A second run appends, after cutting off a partial record an interrupt left.
    let mut cut = bytes.clone();
    cut.extend_from_slice(&games::MAGIC);
    cut.push(1);
    std::fs::write(&out, &cut).unwrap();
    principia(&["convert", "--out", out.to_str().unwrap(), &pgns[2]]);
    let appended = std::fs::read(&out).unwrap();
    assert_eq!(appended[..bytes.len()], bytes[..]);
    assert_eq!(games::for_each_game(&appended, |_| ()), Ok(10));

    // A file that is no game-record file is refused, not appended to.
    let not_records = temp_path("not-records.pgn");
    std::fs::copy(fixture("match_py.pgn.txt"), &not_records).unwrap();
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_principia"))
        .args(["convert", "--out", not_records.to_str().unwrap(), &pgns[0]])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a game record"), "{refused:?}");
    assert_eq!(std::fs::read(&not_records).unwrap(), std::fs::read(fixture("match_py.pgn.txt")).unwrap());
    let _ = (std::fs::remove_file(&out), std::fs::remove_file(&not_records));
}
