//! The tools through the real binary: `eval`, `datagen`, `train`, `wdl-fit`, `compare`,
//! `bench --ebf`, `bench --eval-file` and `bench` on the portable SIMD path.

mod common;

use common::{principia, reversed_net_file, temp_path};
use principia::tools::games;
use std::path::PathBuf;

#[test]
fn eval_prints_each_pieces_share_and_the_score() {
    let out =
        principia(&["eval", "--fen", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("|   N   |") && text.contains("|   n   |"), "{text}");
    // Thirty pieces without the kings, each with its share in pawns.
    let shares = text.split('|').filter(|cell| cell.trim().parse::<f64>().is_ok()).count();
    assert_eq!(shares, 30, "{text}");
    assert!(text.lines().any(|l| l.starts_with("NNUE evaluation: ")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("Evaluation: ")), "{text}");
}

#[test]
fn datagen_is_deterministic_across_threads_and_resumes_after_an_interrupt() {
    let (whole, resumed) = (temp_path("dg-whole.bin"), temp_path("dg-resumed.bin"));
    let args = |path: &PathBuf, games: &str, threads: &str| {
        let path = path.to_str().unwrap();
        principia(&[
            "datagen",
            "--out",
            path,
            "--games",
            games,
            "--nodes",
            "300",
            "--seed",
            "9",
            "--threads",
            threads,
        ]);
    };
    args(&whole, "4", "2");
    args(&resumed, "1", "1");
    // An interrupt in the middle of the second game's record leaves its first bytes behind.
    let mut partial = std::fs::read(&resumed).unwrap();
    partial.extend_from_slice(&games::MAGIC);
    partial.extend_from_slice(&[1, 56, b'r']);
    std::fs::write(&resumed, &partial).unwrap();
    args(&resumed, "4", "1");
    let bytes = std::fs::read(&whole).unwrap();
    assert_eq!(bytes, std::fs::read(&resumed).unwrap(), "same games with 1 or 2 threads, resumed or not");
    let mut plies = 0;
    let count = games::for_each_game(&bytes, |game| {
        // Decoding replays every move, so each is legal in its position.
        assert!(!game.plies.is_empty());
        assert!(game.plies.iter().all(|&(_, score)| i32::from(score).abs() <= 31_000));
        plies += game.plies.len();
    });
    assert_eq!(count, Ok(4));
    assert!(plies > 40, "{plies} plies");
    let _ = (std::fs::remove_file(&whole), std::fs::remove_file(&resumed));
}

#[test]
fn wdl_fit_prints_the_model_as_constants_and_its_likelihood() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games_fixture.bin");
    let out = principia(&["wdl-fit", fixture]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("wdl-fit: ") && text.contains(" positions ("), "{text}");
    for constant in ["pub const MIDPOINT: [f64; 4] = [", "pub const SPREAD: [f64; 4] = ["] {
        assert!(text.lines().any(|l| l.starts_with(constant)), "{text}");
    }
    assert!(text.lines().any(|l| l.starts_with("mean log-likelihood: per material -")), "{text}");
}

#[test]
fn train_reports_each_epoch_and_writes_nets_the_engine_can_read() {
    let out = temp_path("train-out");
    let _ = std::fs::remove_dir_all(&out);
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games_fixture.bin");
    let args = ["train", fixture, "--out", out.to_str().unwrap(), "--epochs", "2", "--batch", "512"];
    let log = String::from_utf8(principia(&args).stderr).unwrap();
    assert!(log.contains("positions to train on") && log.contains("cp per output unit"), "{log}");
    for epoch in 1..=2 {
        assert!(log.lines().any(|l| l.starts_with(&format!("epoch {epoch}: loss "))), "{log}");
    }
    for net in ["epoch-1.nnue", "epoch-2.nnue", "best.nnue"] {
        let bytes = std::fs::read(out.join(net)).unwrap();
        assert!(principia::eval::Network::from_bytes(&bytes).is_ok(), "{net}");
    }
    // Two more epochs from the checkpoint.
    let resumed = [&args[..4], &["--epochs", "4", "--batch", "512", "--resume"]].concat();
    let log = String::from_utf8(principia(&resumed).stderr).unwrap();
    assert!(log.contains("resuming after epoch 2") && log.contains("epoch 4: loss"), "{log}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn compare_draws_the_nodes_per_depth_chart() {
    let svg = temp_path("nodes.svg");
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    principia(&["compare", "--depth", "3", "--fen", fen, "--plot", svg.to_str().unwrap()]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..text.len().min(200)]);
    for label in ["Minimax -pv", "AlphaBeta -pv", "AlphaBeta +pv", "PVS -pv", "PVS +pv", "nodes (log scale)"]
    {
        assert!(text.contains(label), "{label}");
    }
    let _ = std::fs::remove_file(&svg);
}

#[test]
fn bench_ebf_lists_each_iterations_nodes_before_the_total() {
    let out = principia(&["bench", "--depth", "4", "--ebf"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("depth ")).collect();
    assert_eq!(rows.len(), 3, "depths 2 to 4: {text}");
    let nodes = |row: &str| row.split_whitespace().nth(2).unwrap().parse::<u64>().unwrap();
    assert!(rows.iter().all(|r| r.contains(" EBF ") && nodes(r) > 0), "{rows:?}");
    let last = text.lines().last().unwrap();
    let total: u64 = last.split_whitespace().next().unwrap().parse().unwrap();
    assert!(last.ends_with(" nps") && rows.iter().map(|r| nodes(r)).sum::<u64>() < total, "{text}");
}

#[test]
fn bench_eval_file_searches_with_that_network_and_refuses_a_missing_one() {
    let nodes = |args: &[&str]| {
        let text = String::from_utf8(principia(args).stdout).unwrap();
        text.lines().last().unwrap().split_whitespace().next().unwrap().parse::<u64>().unwrap()
    };
    let file = reversed_net_file("bench-reversed.nnue");
    let built_in = nodes(&["bench", "--depth", "4"]);
    assert_ne!(nodes(&["bench", "--depth", "4", "--eval-file", file.to_str().unwrap()]), built_in);
    let missing = std::process::Command::new(env!("CARGO_BIN_EXE_principia"))
        .args(["bench", "--eval-file", "/no/such/net.nnue"])
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8(missing.stderr).unwrap().contains("cannot read"));
    let _ = std::fs::remove_file(&file);
}

#[test]
fn bench_counts_the_same_nodes_on_the_portable_path_as_on_the_cpus() {
    let nodes = |portable: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_principia"));
        command.args(["bench", "--depth", "6"]);
        if portable {
            command.env("PRINCIPIA_SIMD", "portable");
        }
        let text = String::from_utf8(command.output().unwrap().stdout).unwrap();
        text.lines().last().unwrap().split_whitespace().next().unwrap().parse::<u64>().unwrap()
    };
    assert_eq!(nodes(true), nodes(false), "the SIMD kernels and the portable ones disagree");
}
