//! The engine: owns the game, the options and the search thread, and answers
//! each parsed command. The thread reading stdin runs `Engine::run`, so
//! `isready` and `stop` are answered while a search runs on its own thread.

pub mod options;
pub mod skill;
#[cfg(feature = "tune")]
mod tune;

use crate::eval::{self, Network};
use crate::game::Game;
use crate::rng::Rng;
use crate::search::time::{Clock, TimeManager};
use crate::search::{
    Limits, LiveLine, LiveOutput, STACK_SIZE, SearchConfig, SearchControl, SearchInfo, SearchResult,
    Searcher, search_threads,
};
use crate::stdio::{info_string, send};
use crate::syzygy::{self, Tablebases};
use crate::tools::{bench, genfens, perft};
use crate::tt::TranspositionTable;
use crate::uci::{
    Command, Go, format_bestmove, format_evaluation, format_info, format_live, format_move, format_reported,
};
use crate::wdl;
use options::{NetChoice, Options, UciOption};
use shakmaty::{CastlingMode, Color, Position, fen::Fen};
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A search running on its own thread; the thread hands the searchers back when done.
struct Job {
    control: Arc<SearchControl>,
    /// Set as `bestmove` is sent: the thread is about to end.
    answered: Arc<AtomicBool>,
    /// `go infinite`: only `stop` ends it.
    infinite: bool,
    handle: JoinHandle<Vec<Searcher>>,
}

/// The UCI engine.
pub struct Engine {
    game: Game,
    options: Options,
    tt: Arc<TranspositionTable>,
    tablebases: Option<Arc<Tablebases>>,
    net: Arc<Network>,
    /// Where `net` came from.
    loaded_net: NetChoice,
    /// One searcher per thread, the main one first; empty while a search runs.
    searchers: Vec<Searcher>,
    job: Option<Job>,
    /// Chooses the moves of the playing levels below full strength.
    rng: Rng,
    /// The network changed or `Clear Hash` came during a search: the table is cleared
    /// before the next one.
    tt_stale: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position with default options.
    pub fn new() -> Self {
        let options = Options::default();
        let tt = TranspositionTable::new(options.hash_mb).expect("default hash table");
        let tt = Arc::new(tt);
        let net = eval::embedded();
        let loaded_net = NetChoice::Embedded;
        Engine {
            game: Game::default(),
            options,
            tt,
            tablebases: None,
            net,
            loaded_net,
            searchers: Vec::new(),
            job: None,
            rng: Rng::new(seed_from_clock()),
            tt_stale: false,
        }
    }

    /// Reads commands until `quit` or the end of input.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => {
                    // End of input: a search that ends by itself (piped commands, or a
                    // ponder search after `ponderhit`) may finish.
                    if self.job.as_ref().is_some_and(|job| !job.infinite && !job.control.is_pondering()) {
                        self.join();
                    }
                    break;
                }
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&bytes);
            let line = line.trim();
            crate::stdio::received(line);
            if line.is_empty() {
                continue;
            }
            match line.parse::<Command>() {
                Ok(Command::Quit) => break,
                Ok(command) => self.handle(command),
                Err(e) => info_string(&e.0),
            }
        }
        self.quit();
    }

    /// Answers one command.
    pub fn handle(&mut self, command: Command) {
        self.reap();
        match command {
            Command::Uci => self.uci(),
            Command::IsReady => send("readyok"),
            Command::Debug(_) | Command::Xboard => {}
            Command::SetOption { name, value } => self.setoption(&name, value.as_deref()),
            Command::UciNewGame => self.new_game(),
            Command::Position { fen, moves, warnings } => self.position(fen, &moves, &warnings),
            Command::Go(go) => self.go(go),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => self.quit(),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(depth) => self.bench(depth),
            Command::GenFens { count, seed, book } => self.genfens(count, seed, book.as_deref()),
            Command::Help => help(),
        }
    }

    /// Forgets everything learnt: the hash table and each thread's histories.
    fn new_game(&mut self) {
        if self.searching() {
            return info_string("ucinewgame during a search ignored");
        }
        self.game = Game::default();
        self.tt.clear();
        self.searchers.clear();
    }

    /// Prints the evaluation term by term, then the score from the side to move.
    fn eval(&self) {
        let pos = self.game.position();
        for line in eval::explain(&self.net, pos).lines() {
            send(line);
        }
        send(&format_evaluation(self.net.evaluate_position(pos), wdl::material(pos.board())));
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        #[cfg(feature = "tune")]
        if let Some(result) = tune::set(name, value) {
            if let Err(e) = result {
                info_string(&e);
            }
            return;
        }
        let old_hash = self.options.hash_mb;
        match self.options.set(name, value) {
            Err(e) => info_string(&e),
            Ok(UciOption::ClearHash) => self.clear_hash(),
            Ok(UciOption::SyzygyPath) => {
                self.load_tablebases();
                // The table holds the old tables' results (stored deeper than searched).
                self.clear_hash();
            }
            Ok(UciOption::Syzygy50MoveRule) => self.clear_hash(),
            Ok(UciOption::EvalFile) => self.load_network(),
            Ok(UciOption::Hash) if self.options.hash_mb != old_hash => self.resize_hash(old_hash),
            Ok(_) => {}
        }
    }

    /// Empties the hash table; during a search, before the next one (the running search
    /// keeps what it found).
    fn clear_hash(&mut self) {
        if self.searching() {
            self.tt_stale = true;
        } else {
            self.tt.clear();
        }
    }

    /// Frees the old table before allocating the new one (both at once may not fit in
    /// memory); when the new size cannot be had, the old size is allocated again.
    fn resize_hash(&mut self, old_mb: usize) {
        if self.searching() {
            self.options.hash_mb = old_mb;
            return info_string("Hash cannot change during a search; unchanged");
        }
        // The idle threads hold the table too; their histories go with it, as at a new game.
        self.searchers.clear();
        self.tt = Arc::new(TranspositionTable::new(1).expect("1 MB for the hash table"));
        match TranspositionTable::new(self.options.hash_mb) {
            Ok(tt) => self.tt = Arc::new(tt),
            Err(e) => {
                // Failing that too, the 1 MB table stays.
                let mb = match TranspositionTable::new(old_mb) {
                    Ok(tt) => {
                        self.tt = Arc::new(tt);
                        old_mb
                    }
                    Err(_) => 1,
                };
                self.options.hash_mb = mb;
                info_string(&format!("{e}; keeping {mb} MB"));
            }
        }
    }

    /// Loads the tables of `SyzygyPath` (a running search keeps the ones it started with).
    fn load_tablebases(&mut self) {
        let loaded = syzygy::load(&self.options.syzygy_dirs);
        for message in &loaded.messages {
            info_string(message);
        }
        if loaded.tables.is_none() && self.tablebases.is_some() {
            info_string("tablebases unloaded");
        }
        self.tablebases = loaded.tables.map(Arc::new);
    }

    /// Loads the network of `EvalFile` (the built-in one, or a file); a file that cannot
    /// be used is named in an `info string` and the network in use stays.
    fn load_network(&mut self) {
        let choice = self.options.eval_file.clone();
        let loaded = match &choice {
            NetChoice::Embedded => Ok(eval::embedded()),
            NetChoice::File(path) => Network::load(path).map(Arc::new),
        };
        match loaded {
            Ok(net) => {
                self.net = net;
                // Scores the hash table holds came from the old network (a running search
                // keeps its network: the table is cleared before the next one).
                self.clear_hash();
                if let NetChoice::File(path) = &choice {
                    info_string(&format!("network loaded from {}", path.display()));
                }
                self.loaded_net = choice;
            }
            Err(e) => {
                self.options.eval_file = self.loaded_net.clone();
                info_string(&format!("{e}; the network in use stays"));
            }
        }
    }

    fn castling_mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.options.chess960)
    }

    /// Takes back the searcher of a search that has answered (its thread is ending).
    fn reap(&mut self) {
        if self.job.as_ref().is_some_and(|job| job.answered.load(Ordering::Acquire)) {
            self.join();
        }
    }

    fn join(&mut self) {
        if let Some(job) = self.job.take() {
            self.searchers = job.handle.join().unwrap_or_default();
        }
    }

    fn searching(&self) -> bool {
        self.job.is_some()
    }

    fn uci(&self) {
        send(&format!("id name Principia {}", env!("CARGO_PKG_VERSION")));
        send("id author the Principia developers");
        for option in UciOption::ALL {
            send(&format!("option name {} type {}", option.name(), option.kind()));
        }
        #[cfg(feature = "tune")]
        tune::announce();
        send("uciok");
    }

    fn position(&mut self, fen: Option<Fen>, moves: &[shakmaty::uci::UciMove], warnings: &[String]) {
        for warning in warnings {
            info_string(warning);
        }
        let mut game = match fen {
            None => Game::default(),
            Some(fen) => match Game::from_fen_noting(fen, self.castling_mode()) {
                Ok((game, notes)) => {
                    notes.iter().for_each(|note| info_string(note));
                    game
                }
                Err(e) => return info_string(&format!("{e}; position unchanged")),
            },
        };
        for (i, mv) in moves.iter().enumerate() {
            if let Err(e) = game.play_uci(mv) {
                return info_string(&format!("{e} (move {} of {}); position unchanged", i + 1, moves.len()));
            }
        }
        self.game = game;
    }

    fn go(&mut self, go: Go) {
        if self.searching() {
            return info_string("a search is already running; go ignored");
        }
        for warning in &go.warnings {
            info_string(warning);
        }
        let skill = self.options.skill();
        let mut limits = self.limits(&go);
        // A weakened search that stops at its node budget then waits out a normal move's time.
        let mut wait_ms = None;
        if let Some(budget) = skill.node_budget() {
            limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
            wait_ms = limits.time.map(|tm| tm.soft_ms);
        }
        let mut rng = Rng::new(self.rng.next_u64());
        let infinite = go.infinite;
        let control = Arc::new(SearchControl::new(go.ponder));
        let answered = Arc::new(AtomicBool::new(false));
        let thread_answered = Arc::clone(&answered);
        if std::mem::take(&mut self.tt_stale) {
            self.tt.clear();
        }
        let mut searchers = self.take_searchers();
        let live_mode = self.castling_mode();
        let live: LiveOutput = Box::new(move |line: &LiveLine| send(&format_live(line, live_mode)));
        searchers[0].set_live_output(Some(live));
        let game = self.game.clone();
        let mode = self.castling_mode();
        let show_wdl = self.options.show_wdl;
        let material = wdl::material(self.game.position().board());
        let thread_control = Arc::clone(&control);
        let spawned =
            std::thread::Builder::new().name("search".into()).stack_size(STACK_SIZE).spawn(move || {
                let c = thread_control;
                let (main, helpers) = searchers.split_first_mut().expect("a main searcher");
                let mut report = |info: &SearchInfo| send(&format_info(info, mode, show_wdl, material));
                // The answer goes out as soon as the main thread has it; helpers are joined after.
                let answer = |result: &SearchResult| {
                    // `go infinite` and `go ponder` wait for `stop` (or `ponderhit`) before answering.
                    let waits = |c: &SearchControl| {
                        infinite || c.is_pondering() || wait_ms.is_some_and(|ms| c.elapsed_ms() < ms)
                    };
                    while !c.is_stopped() && waits(&c) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    if let (None, Some(info)) = (result.best_move, &result.info) {
                        send(&format!("info depth 0 score {}", format_reported(info.score, material)));
                    }
                    // A level with a random bonus plays the line it picks among the finished
                    // lines; the others play as full strength does (the best line, multipv 1).
                    let line = if skill.picks_lines() { skill.choose(&result.lines, &mut rng) } else { None };
                    let (best, ponder) = match line {
                        Some(line) => (line.pv.first().copied(), line.pv.get(1).copied()),
                        None => (result.best_move, result.ponder_move),
                    };
                    thread_answered.store(true, Ordering::Release);
                    send(&format_bestmove(best, ponder, mode));
                };
                search_threads(main, helpers, &game, limits, Arc::clone(&c), &mut report, answer);
                searchers
            });
        match spawned {
            Ok(handle) => {
                self.job = Some(Job { control, answered, infinite, handle });
            }
            Err(e) => {
                info_string(&format!("could not start the search thread: {e}"));
                send("bestmove 0000");
            }
        }
    }

    /// One searcher per thread, set up for the current options and table. A playing level
    /// below full strength searches with one thread, so it plays alike whatever `Threads` is.
    fn take_searchers(&mut self) -> Vec<Searcher> {
        let threads = if self.options.skill().is_full() { self.options.threads } else { 1 };
        let mut searchers = std::mem::take(&mut self.searchers);
        searchers.truncate(threads);
        while searchers.len() < threads {
            searchers.push(Searcher::with_tt(self.options.search, Arc::clone(&self.tt)));
        }
        let multi_pv = self.options.skill().lines(self.options.search.multi_pv);
        for searcher in &mut searchers {
            searcher.set_config(SearchConfig { multi_pv, ..self.options.search });
            searcher.set_tt(Arc::clone(&self.tt));
            searcher.set_tablebases(self.tablebases.clone());
            searcher.set_network(Arc::clone(&self.net));
        }
        searchers
    }

    /// Turns `go` into search limits for the side to move.
    fn limits(&self, go: &Go) -> Limits {
        let pos = self.game.position();
        let overhead = self.options.move_overhead_ms;
        let (time, inc) = match pos.turn() {
            Color::White => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        // A clock given for the other side only: ours has run out (as Stockfish reads it).
        let clocked = go.movetime.is_none() && !go.infinite && go.wtime.or(go.btime).is_some();
        let time = if time.is_none() && clocked {
            info_string(&format!("go gives no clock for {}: searching as if none were left", pos.turn()));
            Some(0)
        } else {
            time
        };
        let time = match (go.movetime, time) {
            (Some(movetime), _) => Some(TimeManager::from_movetime(movetime, overhead)),
            (None, Some(time_ms)) => Some(TimeManager::from_clock(
                Clock { time_ms, inc_ms: inc.unwrap_or(0), moves_to_go: go.movestogo },
                overhead,
            )),
            (None, None) => None,
        };
        let mut searchmoves = Vec::new();
        for uci in &go.searchmoves {
            match uci.to_move(pos) {
                Ok(mv) => searchmoves.push(mv),
                Err(_) => info_string(&format!("searchmoves: illegal move {uci} ignored")),
            }
        }
        Limits {
            depth: go.depth.map(|d| d.max(1)),
            nodes: go.nodes,
            soft_nodes: None,
            mate: go.mate,
            time: if go.infinite { None } else { time },
            searchmoves,
        }
    }

    fn stop(&mut self) {
        if let Some(job) = &self.job {
            job.control.stop();
            self.join();
        }
    }

    fn ponderhit(&mut self) {
        match &self.job {
            Some(job) if job.control.is_pondering() => {
                job.control.ponderhit();
            }
            _ => info_string("ponderhit without a ponder search ignored"),
        }
    }

    /// Ends any search without printing anything more.
    fn quit(&mut self) {
        crate::stdio::mute();
        if let Some(job) = &self.job {
            job.control.stop();
        }
        self.join();
    }

    fn display(&self) {
        let pos = self.game.position();
        let board = pos.board();
        send(" +---+---+---+---+---+---+---+---+");
        for rank in shakmaty::Rank::ALL.into_iter().rev() {
            let mut row = String::from(" |");
            for file in shakmaty::File::ALL {
                let sq = shakmaty::Square::from_coords(file, rank);
                let c = board.piece_at(sq).map_or(' ', |p| p.char());
                row.push_str(&format!(" {c} |"));
            }
            send(&format!("{row} {}", rank.char()));
            send(" +---+---+---+---+---+---+---+---+");
        }
        send("   a   b   c   d   e   f   g   h");
        let fen = Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
        send(&format!("Fen: {fen}"));
        send(&format!("Key: {:016X}", crate::game::zobrist(pos)));
        let checkers: Vec<String> = pos.checkers().into_iter().map(|sq| sq.to_string()).collect();
        send(&format!("Checkers: {}", checkers.join(" ")));
    }

    fn perft(&self, depth: u32) {
        if self.searching() {
            return info_string("perft refused while a search is running");
        }
        if depth > perft::MAX_DEPTH {
            return info_string(&format!("perft depth {depth} is beyond {}", perft::MAX_DEPTH));
        }
        let start = Instant::now();
        let mut total = 0;
        for (mv, count) in perft::divide(self.game.position(), depth.max(1)) {
            send(&format!("{}: {count}", format_move(mv, self.castling_mode())));
            total += count;
        }
        send("");
        send(&format!("Nodes searched: {total} ({} ms)", start.elapsed().as_millis()));
    }

    /// `bench`, with the options and the network in use.
    fn bench(&self, depth: Option<u32>) {
        if self.searching() {
            return info_string("bench refused while a search is running");
        }
        let depth = depth.unwrap_or(bench::DEFAULT_DEPTH).max(1);
        bench::run_with(depth, self.options.search, self.options.threads, &self.net, false);
    }
}

impl Engine {
    /// Prints `info string genfens <FEN>` for each opening position asked for.
    fn genfens(&self, count: usize, seed: u64, book: Option<&str>) {
        if self.searching() {
            return info_string("genfens refused while a search is running");
        }
        match genfens::generate(count, seed, book.map(std::path::Path::new)) {
            Ok(fens) => fens.iter().for_each(|fen| send(&format!("info string genfens {fen}"))),
            Err(e) => info_string(&format!("genfens: {e}")),
        }
    }
}

fn help() {
    for line in [
        "Principia speaks UCI. Commands:",
        "  uci | isready | ucinewgame | setoption name <N> [value <V>] | debug on|off",
        "  position startpos|fen <FEN> [moves <m1> <m2> ...]",
        "  go [wtime|btime|winc|binc|movestogo|depth|nodes|mate|movetime <n>] [infinite] [ponder] [searchmoves <m> ...]",
        "  stop | ponderhit | quit",
        "Terminal extras:",
        "  d            print the board, FEN and key",
        "  eval         print the static evaluation",
        "  go perft <n> count leaf nodes per root move",
        "  bench [n]    search the bench positions to depth n and print 'nodes nps'",
        "  genfens <n> seed <s> book <None|file>   n opening FENs for OpenBench",
    ] {
        send(line);
    }
}

/// A seed that differs from run to run, so weakened play does not repeat game after game.
fn seed_from_clock() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
