//! The evaluation tools through the real binary: `eval`, `datagen` and `tune`.

use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
use std::path::PathBuf;
use std::process::{Command, Output};

fn principia(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_principia")).args(args).output().expect("binary runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("principia-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn eval_prints_every_term_group_and_the_score() {
    let out =
        principia(&["eval", "--fen", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    for term in
        ["Material", "Placement", "Mobility", "Pawns", "Passed pawns", "King safety", "Threats", "Tempo"]
    {
        assert!(text.lines().any(|l| l.trim_start().starts_with(term)), "{term} missing:\n{text}");
    }
    assert!(text.lines().any(|l| l.starts_with("Evaluation: ")), "{text}");
}

#[test]
fn datagen_writes_quiet_positions_and_resumes_to_the_same_file() {
    let (whole, resumed) = (temp("dg-whole.txt"), temp("dg-resumed.txt"));
    let args = |path: &PathBuf, games: &str| {
        principia(&[
            "datagen",
            "--out",
            path.to_str().unwrap(),
            "--games",
            games,
            "--nodes",
            "300",
            "--seed",
            "9",
        ]);
    };
    args(&whole, "3");
    args(&resumed, "1");
    args(&resumed, "3");
    let text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(text, std::fs::read_to_string(&resumed).unwrap(), "a resumed run writes the same games");
    assert_eq!(text.lines().filter(|l| l.starts_with("# game")).count(), 3);
    let mut positions = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (fen, result) = line.split_once(" | ").expect("FEN | result");
        assert!(["1.0", "0.5", "0.0"].contains(&result), "{line}");
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        assert!(!pos.is_check(), "{line}");
        positions += 1;
    }
    assert!(positions > 0);
    let _ = (std::fs::remove_file(&whole), std::fs::remove_file(&resumed));
}

#[test]
fn tune_reports_the_loss_per_epoch_and_writes_weights_source() {
    let out_path = temp("weights.rs");
    let out = principia(&[
        "tune",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tune_fixture.txt"),
        "--epochs",
        "3",
        "--out",
        out_path.to_str().unwrap(),
    ]);
    let log = String::from_utf8(out.stderr).unwrap();
    for epoch in 1..=3 {
        assert!(log.lines().any(|l| l.starts_with(&format!("epoch {epoch}: loss "))), "{log}");
    }
    let source = std::fs::read_to_string(&out_path).unwrap();
    assert!(source.contains("pub static WEIGHTS: [S; COUNT]"), "{source}");
    assert!(source.contains("// passed") && source.contains("// king_attack"));
    let _ = std::fs::remove_file(&out_path);
}
