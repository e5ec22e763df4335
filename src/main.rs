//! The command line: starts the UCI loop, or runs `bench` or `perft` and exits.

use clap::{Parser, Subcommand};
use principia::{
    bench, compare,
    engine::Engine,
    game::Game,
    output, perft,
    search::{SearchConfig, SearchMode},
};
use shakmaty::{CastlingMode, fen::Fen};
use std::path::PathBuf;
use std::process::ExitCode;

/// Principia, a UCI chess engine. With no command it speaks UCI on stdin/stdout.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Write every UCI line in and out, with timestamps, to this file.
    #[arg(long, value_name = "PATH", global = true)]
    log_file: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Search the bench positions to a fixed depth and print `N nodes M nps`.
    Bench {
        /// Depth of every search.
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search mode: Strong, PVS, AlphaBeta or Minimax.
        #[arg(long, default_value = "Strong", value_parser = parse_mode)]
        mode: SearchMode,
        /// Do not search the previous iteration's PV first.
        #[arg(long)]
        no_pv_first: bool,
    },
    /// Run minimax, alpha-beta and PVS (PV-first off and on) and the strong search side by side.
    Compare {
        /// Depth of every search.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Position to compare on (default: every bench position).
        #[arg(long)]
        fen: Option<String>,
        /// Minimax gives up on a position after this many nodes.
        #[arg(long, default_value_t = 5_000_000)]
        minimax_nodes: u64,
    },
    /// Count the leaf nodes of the legal move tree.
    Perft {
        /// Plies to count.
        depth: u32,
        /// Position to count from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Read castling in Chess960 (Shredder-FEN) style.
        #[arg(long)]
        chess960: bool,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    if let Some(path) = &cli.log_file
        && let Err(e) = output::open_log(path)
    {
        eprintln!("cannot open log file {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    match cli.command {
        None => {
            log::info!("Principia {} ready", env!("CARGO_PKG_VERSION"));
            Engine::new().run(std::io::stdin().lock());
            ExitCode::SUCCESS
        }
        Some(Cmd::Bench { depth, mode, no_pv_first }) => {
            bench::run(
                depth.max(1),
                SearchConfig { mode, pv_first: !no_pv_first, ..SearchConfig::default() },
            );
            ExitCode::SUCCESS
        }
        Some(Cmd::Perft { depth, fen, chess960 }) => run_perft(depth, fen.as_deref(), chess960),
        Some(Cmd::Compare { depth, fen, minimax_nodes }) => {
            let fens = match fen {
                Some(fen) => vec![fen],
                None => bench::POSITIONS.iter().map(|f| f.to_string()).collect(),
            };
            match compare::run(depth.max(1), fens, minimax_nodes) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("compare failed: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

fn parse_mode(name: &str) -> Result<SearchMode, String> {
    SearchMode::from_name(name)
        .ok_or_else(|| format!("'{name}' is not one of Strong, PVS, AlphaBeta, Minimax"))
}

fn run_perft(depth: u32, fen: Option<&str>, chess960: bool) -> ExitCode {
    let game = match fen {
        None => Game::default(),
        Some(text) => match text
            .parse::<Fen>()
            .map_err(|e| e.to_string())
            .and_then(|f| Game::from_fen(f, CastlingMode::from_chess960(chess960)))
        {
            Ok(game) => game,
            Err(e) => {
                eprintln!("invalid FEN '{text}': {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    println!("{}", perft::perft(game.position(), depth));
    ExitCode::SUCCESS
}
