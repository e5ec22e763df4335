//! What OpenBench needs of an engine: `make EXE=<path>` builds it, `<exe> bench` ends with
//! `N nodes M nps` (the same N every run), and `genfens` prints opening FENs, with the
//! arguments as UCI commands the way OpenBench passes them.

mod common;

use common::{position, run, temp_path};
use shakmaty::Position;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the engine with `make EXE=...` into a target directory of its own (cargo's own
/// build of the tests holds the usual one), or `None` when this machine has no `make`.
fn build_with_make() -> Option<PathBuf> {
    if Command::new("make").arg("--version").output().is_err() {
        eprintln!("no make on this machine: the makefile build is not tested here (CI installs make)");
        return None;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = root.join("target").join("openbench");
    let exe = temp_path("openbench");
    let status = Command::new("make")
        .current_dir(root)
        .arg(format!("EXE={}", exe.display()))
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("make runs");
    assert!(status.success(), "make EXE=... failed");
    Some(exe)
}

/// What `exe` prints when run with `args`.
fn printed(exe: &Path, args: &[&str]) -> String {
    String::from_utf8(run(exe, args).stdout).unwrap()
}

#[test]
fn make_builds_an_engine_whose_bench_and_genfens_openbench_can_read() {
    let Some(exe) = build_with_make() else {
        return;
    };
    // bench: the last line is `N nodes M nps`, N the same every run.
    let nodes = |text: String| {
        let last = text.lines().last().unwrap().to_string();
        let words: Vec<&str> = last.split_whitespace().collect();
        assert!(words.len() == 4 && words[1] == "nodes" && words[3] == "nps", "{last}");
        assert!(words[2].parse::<u64>().is_ok(), "{last}");
        words[0].parse::<u64>().unwrap()
    };
    assert_eq!(nodes(printed(&exe, &["bench"])), nodes(printed(&exe, &["bench"])));
    // genfens, as OpenBench calls it: each argument a command.
    let fens = |seed: u32| -> Vec<String> {
        let text = printed(&exe, &[&format!("genfens 6 seed {seed} book None extra"), "quit"]);
        text.lines().filter_map(|l| l.strip_prefix("info string genfens ")).map(String::from).collect()
    };
    let first = fens(11);
    assert_eq!(first.len(), 6);
    assert_eq!(first, fens(11), "the same seed, the same positions");
    assert_ne!(first, fens(12));
    for fen in &first {
        assert!(!position(fen).legal_moves().is_empty(), "{fen}");
    }
    // And as a subcommand.
    let text = printed(&exe, &["genfens", "2", "seed", "11", "book", "None"]);
    assert_eq!(text.lines().filter(|l| l.starts_with("info string genfens ")).count(), 2, "{text}");
    let _ = std::fs::remove_file(&exe);
}
