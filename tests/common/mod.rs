//! What the integration tests share: the real `principia` binary driven over pipes, as a
//! GUI does, or run once as a command; positions and lines read from text; temp paths.

#![allow(dead_code)]

use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Long enough for any search a test asks for; tests never assert speed.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running engine with its output arriving line by line.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the binary with extra command-line arguments.
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_principia"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines: rx }
    }

    /// Starts the binary in UCI mode.
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("engine reads");
        stdin.flush().unwrap();
    }

    /// Sends raw bytes (for control characters and invalid UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Closes stdin (EOF).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Collects lines until one starts with `prefix`; returns all of them, that one last.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(e) => panic!("no line starting with '{prefix}' ({e:?}); got {seen:#?}"),
            }
        }
    }

    /// The next line if one arrives within `wait`.
    pub fn next_within(&mut self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// Sends `isready` and returns the lines up to `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok")
    }

    /// Waits for the process to end, returning true if it did within `wait`.
    pub fn exits_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if self.child.try_wait().expect("wait").is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    /// All lines printed before the output closes.
    pub fn rest(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
            lines.push(line);
        }
        lines
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the program `exe` with `args` to its end, checks that it succeeded, and returns
/// what it printed.
pub fn run(exe: &Path, args: &[&str]) -> Output {
    let out = Command::new(exe).args(args).output().expect("the program runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Runs the `principia` binary of this build with `args` (see `run`).
pub fn principia(args: &[&str]) -> Output {
    run(Path::new(env!("CARGO_BIN_EXE_principia")), args)
}

/// A path in the temp directory for this test process, `principia-<pid>-<name>`, with no
/// file left there from before.
pub fn temp_path(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("principia-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// A net file at `temp_path(name)`: the built-in net with its output negated, so it scores
/// every position the other way round and searches another tree.
pub fn reversed_net_file(name: &str) -> PathBuf {
    let file = temp_path(name);
    let mut reversed = principia::eval::Network::embedded();
    reversed.output_weights.iter_mut().flatten().for_each(|w| *w = -*w);
    std::fs::write(&file, reversed.to_bytes()).unwrap();
    file
}

/// The word after `name` in an `info` line (`nodes`, `multipv`, ...).
pub fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == name)?;
    words.next()
}

/// Parses a FEN (standard castling).
pub fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

/// Plays `moves` (UCI notation) from `pos`, panicking on an illegal one.
pub fn play_line(pos: &Chess, moves: &[&str]) -> Chess {
    let mut pos = pos.clone();
    for m in moves {
        let mv = m
            .parse::<UciMove>()
            .unwrap_or_else(|_| panic!("'{m}' is not UCI notation"))
            .to_move(&pos)
            .unwrap_or_else(|_| {
                panic!("{m} is illegal in {}", Fen::from_position(&pos, shakmaty::EnPassantMode::Legal))
            });
        pos.play_unchecked(mv);
    }
    pos
}

/// The move in a `bestmove` line.
pub fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("a bestmove line");
    last.split_whitespace().nth(1).expect("bestmove has a move").to_string()
}

/// Checks every `info ... pv ...` line is legal from `root` and returns the `pv` moves of each.
pub fn check_pvs(root: &Chess, lines: &[String]) -> Vec<Vec<String>> {
    lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" pv "))
        .map(|l| {
            let pv: Vec<String> =
                l.split(" pv ").nth(1).unwrap().split_whitespace().map(String::from).collect();
            let refs: Vec<&str> = pv.iter().map(String::as_str).collect();
            play_line(root, &refs);
            pv
        })
        .collect()
}
