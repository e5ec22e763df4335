//! The command line: starts the UCI loop, runs UCI commands given as arguments (OpenBench),
//! or runs one of the tools and exits.

use clap::{Parser, Subcommand};
use principia::{
    engine::Engine,
    eval::{self, Network},
    game::Game,
    search::{SearchConfig, SearchMode},
    stdio,
    tools::{
        self, bench, compare,
        convert::{self, ConvertConfig},
        datagen::{self, DEFAULT_HARD_NODES_FACTOR, DatagenConfig},
        perft,
        train::{self, TrainConfig},
        wdlfit::{self, WdlFitConfig},
    },
};
use shakmaty::{CastlingMode, fen::Fen};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

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
        /// Search threads (the node count is the signature only with one).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Also print each iteration's nodes and the effective branching factor.
        #[arg(long)]
        ebf: bool,
        /// Evaluate with the network in this file instead of the built-in one.
        #[arg(long, value_name = "PATH")]
        eval_file: Option<PathBuf>,
        /// Check every Nth cutoff of each whole-node pruning step by a search without it
        /// (`stats` builds; this adds nodes).
        #[cfg(feature = "stats")]
        #[arg(long, default_value_t = 0)]
        verify_every: u64,
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
        /// Also draw the nodes per depth of each algorithm to this SVG file (log scale).
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
    },
    /// Print the network's evaluation of a position, piece by piece.
    Eval {
        /// Position to evaluate (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Network file to use (default: the one built in).
        #[arg(long)]
        net: Option<PathBuf>,
    },
    /// Self-play games at a soft node budget, written as game records for training.
    Datagen {
        /// File to append to (an existing one is resumed).
        #[arg(long)]
        out: PathBuf,
        /// Games in the whole run.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Soft node budget per move: no iteration starts past it.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Hard node budget per move: the running iteration stops here (default: 8 times --nodes).
        #[arg(long)]
        hard_nodes: Option<u64>,
        /// Random plies before the engine takes over (this many or one more).
        #[arg(long, default_value_t = 8)]
        random_plies: u32,
        /// Seed: the same seed writes the same games, whatever the thread count.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Append the games of PGN files (cutechess-cli, fastchess, match.py) as game records.
    Convert {
        /// PGN files to read.
        #[arg(required = true)]
        pgns: Vec<PathBuf>,
        /// Game-record file to append to (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// The scores are in the engine's units (PGNs from before 2026-11-26, when
        /// Principia began to report normalised centipawns), not to be converted back.
        #[arg(long)]
        raw_scores: bool,
    },
    /// Train the network on datagen games (on the CPU) and write it quantised.
    Train(TrainConfig),
    /// Fit the win/draw/loss model (`UCI_ShowWDL`, normalised `score cp`) on the results of
    /// scored games and print it, with the constants `src/wdl.rs` takes.
    WdlFit {
        /// Game files written by datagen or convert.
        #[arg(required = true)]
        data: Vec<PathBuf>,
        /// Leave out scores beyond this many engine centipawns (the result is certain there).
        #[arg(long, default_value_t = 1500)]
        max_score: i32,
    },
    /// Opening FENs for OpenBench: `genfens N seed S book <None|FILE>`, as the UCI command.
    Genfens {
        /// N seed S book <None|FILE>
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        words: Vec<String>,
    },
    /// Print the tunable search parameters as OpenBench's SPSA reads them (a build with
    /// `--features tune` offers each as a UCI option).
    Tunables,
    /// Count the leaf nodes of the legal move tree.
    Perft {
        /// Plies to count (at most 20).
        #[arg(value_parser = clap::value_parser!(u32).range(..=i64::from(perft::MAX_DEPTH)))]
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
    if let Some(commands) = uci_arguments() {
        // OpenBench's way: each argument is a UCI command, run in order, then the engine exits.
        let input = commands.join("\n") + "\n";
        Engine::new().run(std::io::Cursor::new(input));
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse();
    if let Some(path) = &cli.log_file
        && let Err(e) = stdio::open_log(path)
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
        Some(Cmd::Bench {
            depth,
            mode,
            no_pv_first,
            threads,
            ebf,
            eval_file,
            #[cfg(feature = "stats")]
            verify_every,
        }) => {
            let net = match eval_file.as_deref().map(Network::load) {
                None => eval::embedded(),
                Some(Ok(net)) => Arc::new(net),
                Some(Err(e)) => {
                    eprintln!("bench: {e}");
                    return ExitCode::FAILURE;
                }
            };
            bench::run_with(
                depth.max(1),
                SearchConfig {
                    mode,
                    pv_first: !no_pv_first,
                    #[cfg(feature = "stats")]
                    verify_every,
                    ..SearchConfig::default()
                },
                threads.clamp(1, principia::search::MAX_THREADS),
                &net,
                ebf,
            );
            ExitCode::SUCCESS
        }
        Some(Cmd::Train(config)) => exit_code("train", train::run(&config)),
        Some(Cmd::Datagen { out, games, nodes, hard_nodes, random_plies, seed, threads }) => {
            let nodes = nodes.max(1);
            let hard_nodes = hard_nodes.unwrap_or(nodes.saturating_mul(DEFAULT_HARD_NODES_FACTOR)).max(nodes);
            let config = DatagenConfig { out, games, nodes, hard_nodes, random_plies, seed, threads };
            exit_code("datagen", datagen::run(config))
        }
        Some(Cmd::Convert { pgns, out, raw_scores }) => {
            exit_code("convert", convert::run(&ConvertConfig { pgns, out, raw_scores }))
        }
        Some(Cmd::WdlFit { data, max_score }) => exit_code(
            "wdl-fit",
            wdlfit::run(&WdlFitConfig { data, max_score: max_score.clamp(1, 20_000) })
                .map(|report| print!("{report}")),
        ),
        Some(Cmd::Genfens { words }) => {
            Engine::new().run(std::io::Cursor::new(format!("genfens {}\n", words.join(" "))));
            ExitCode::SUCCESS
        }
        Some(Cmd::Tunables) => {
            principia::search::params::TUNABLES.iter().for_each(|t| println!("{}", t.spsa_line()));
            ExitCode::SUCCESS
        }
        Some(Cmd::Perft { depth, fen, chess960 }) => run_perft(depth, fen.as_deref(), chess960),
        Some(Cmd::Eval { fen, net }) => exit_code(
            "eval",
            game_from(fen.as_deref(), false).and_then(|game| {
                let net = match net {
                    Some(path) => Network::load(&path).map_err(|e| e.to_string())?,
                    None => Network::embedded(),
                };
                let pos = game.position();
                println!("{}", eval::explain(&net, pos));
                let material = principia::wdl::material(shakmaty::Position::board(pos));
                println!("{}", principia::uci::format_evaluation(net.evaluate_position(pos), material));
                Ok(())
            }),
        ),
        Some(Cmd::Compare { depth, fen, minimax_nodes, plot }) => {
            let fens = match fen {
                Some(fen) => vec![fen],
                None => bench::POSITIONS.iter().map(|f| f.to_string()).collect(),
            };
            let positions = fens.len();
            let result = compare::run(depth.max(1), fens, minimax_nodes).and_then(|totals| match plot {
                Some(path) => {
                    let finished = totals.positions_where_minimax_completed;
                    tools::plot::nodes_per_depth(&path, &totals, finished.min(positions))
                }
                None => Ok(()),
            });
            exit_code("compare", result)
        }
    }
}

/// The arguments, when they are UCI commands rather than a subcommand: the first holds a
/// space (`"genfens 10 seed 1 book None"`) or is a word only UCI knows (`setoption`, `quit`).
fn uci_arguments() -> Option<Vec<String>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let first = args.first()?;
    let uci_word =
        ["uci", "setoption", "position", "go", "quit", "isready", "ucinewgame"].contains(&first.as_str());
    (first.trim().contains(char::is_whitespace) || uci_word).then_some(args)
}

fn parse_mode(name: &str) -> Result<SearchMode, String> {
    SearchMode::from_name(name)
        .ok_or_else(|| format!("'{name}' is not one of Strong, PVS, AlphaBeta, Minimax"))
}

/// Success, or the error reported on stderr as what `command` failed with.
fn exit_code<T>(command: &str, result: Result<T, String>) -> ExitCode {
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{command} failed: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The start position, or the game set up from `fen`.
fn game_from(fen: Option<&str>, chess960: bool) -> Result<Game, String> {
    let Some(text) = fen else {
        return Ok(Game::default());
    };
    text.parse::<Fen>()
        .map_err(|e| e.to_string())
        .and_then(|f| Game::from_fen(f, CastlingMode::from_chess960(chess960)))
        .map_err(|e| format!("invalid FEN '{text}': {e}"))
}

fn run_perft(depth: u32, fen: Option<&str>, chess960: bool) -> ExitCode {
    let game = match game_from(fen, chess960) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{}", perft::perft(game.position(), depth));
    ExitCode::SUCCESS
}
