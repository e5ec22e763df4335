//! Syzygy endgame tablebases: the tables found in the `SyzygyPath` directories, the WDL
//! probe the search makes right after captures and pawn moves, and the DTZ ranking that
//! decides which root moves keep the best outcome and make progress.

use crate::game::zobrist;
use crate::score::{DRAW, MATE_BOUND, TB_WIN};
use crate::tt::Bound;
use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Dtz, Syzygy, Tablebase};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Win, draw or loss for the side to move, as the WDL tables give it.
pub use shakmaty_syzygy::Wdl;

/// Plies added to the depth of a tablebase result stored in the hash table: the result
/// holds at any depth, so ordinary searches of the position should not replace it.
pub const TB_STORE_DEPTH_BONUS: i32 = 6;

/// Root ranks run within plus or minus this, above any DTZ the tables hold.
const MAX_DTZ: i32 = 1 << 18;

/// A win whose zeroing move comes within this many plies of the last one (clock
/// included) is safe from the fifty-move rule, with a ply to spare for DTZ rounding.
const SAFE_PLIES: i32 = 99;

/// How the search uses the tables: the `SyzygyProbeDepth` and `Syzygy50MoveRule` options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeSettings {
    /// With as many pieces as the largest tables, probe only at this remaining depth or more.
    pub probe_depth: i32,
    /// Wins and losses that the fifty-move rule turns into draws (cursed, blessed) count as draws.
    pub rule50: bool,
}

impl Default for ProbeSettings {
    fn default() -> Self {
        ProbeSettings { probe_depth: 1, rule50: true }
    }
}

/// Loaded tables, shared read-only by every search thread.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    files: usize,
    warned: AtomicBool,
}

/// What loading a `SyzygyPath` gave: the tables, if any file was found, and what to tell the user.
pub struct Loaded {
    /// The tables; `None` when the path is empty or no usable table file was found.
    pub tables: Option<Tablebases>,
    /// One line per problem (a directory that cannot be read, a bad file), then a summary.
    pub messages: Vec<String>,
}

/// The tables' verdict on the root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// The root moves that keep the best outcome, at the best DTZ rank: the moves to search.
    pub moves: Vec<Move>,
    /// The root's outcome as a score for the side to move (0 for a draw, `TB_WIN` for a win).
    pub score: i32,
    /// Table probes made.
    pub probes: u64,
}

/// Loads every table file in `dirs`. No directory loads nothing; a problem is reported
/// in `messages`, never fatal.
pub fn load<P: AsRef<Path>>(dirs: &[P]) -> Loaded {
    let mut messages = Vec::new();
    if dirs.is_empty() {
        return Loaded { tables: None, messages };
    }
    let mut tables = Tablebase::new();
    let mut names = BTreeSet::new();
    for dir in dirs {
        add_directory(&mut tables, dir.as_ref(), &mut names, &mut messages);
    }
    let shown: Vec<String> = dirs.iter().map(|dir| dir.as_ref().display().to_string()).collect();
    let shown = shown.join(if cfg!(windows) { ";" } else { ":" });
    if names.is_empty() {
        messages.push(format!("found no tablebase files in {shown}"));
        return Loaded { tables: None, messages };
    }
    let files = names.len();
    messages.push(format!("found {files} tablebase files (up to {} pieces) in {shown}", tables.max_pieces()));
    Loaded { tables: Some(Tablebases { tables, files, warned: AtomicBool::new(false) }), messages }
}

/// The directories of a `SyzygyPath` value, separated by `;` on Windows and `:` elsewhere.
/// The other separator is accepted too, except the colon of a Windows drive (`C:\tb`).
pub fn split_paths(spec: &str) -> Vec<PathBuf> {
    split_paths_for(spec, cfg!(windows)).into_iter().map(PathBuf::from).collect()
}

fn split_paths_for(spec: &str, windows: bool) -> Vec<String> {
    let spec = spec.trim();
    let mut dirs = Vec::new();
    if spec.is_empty() {
        return dirs;
    }
    let mut current = String::new();
    let mut finish = |current: &mut String| {
        let dir = current.trim();
        if !dir.is_empty() {
            dirs.push(dir.to_string());
        }
        current.clear();
    };
    for c in spec.chars() {
        let start = current.trim_start();
        let drive = windows && c == ':' && start.len() == 1 && start.chars().all(|d| d.is_ascii_alphabetic());
        if (c == ';' || c == ':') && !drive {
            finish(&mut current);
        } else {
            current.push(c);
        }
    }
    finish(&mut current);
    dirs
}

/// Adds the table files of `dir` whose header is right; reports the others.
fn add_directory(
    tables: &mut Tablebase<Chess>,
    dir: &Path,
    names: &mut BTreeSet<OsString>,
    messages: &mut Vec<String>,
) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            return messages.push(format!("SyzygyPath: cannot read directory '{}': {e}", dir.display()));
        }
    };
    let mut paths: Vec<PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| is_table(p)).collect();
    paths.sort();
    for path in paths {
        match check_header(&path).and_then(|()| tables.add_file(&path)) {
            Ok(()) => {
                names.insert(path.file_name().unwrap_or_default().to_os_string());
            }
            Err(e) => messages.push(format!("SyzygyPath: skipping '{}': {}", path.display(), describe(&e))),
        }
    }
}

/// True for a file named like a table (`.rtbw` or `.rtbz`).
fn is_table(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str());
    ext == Some(Chess::TBW.ext) || ext == Some(Chess::TBZ.ext)
}

/// Reads the four magic bytes that open every table of its kind.
fn check_header(path: &Path) -> io::Result<()> {
    let want = if path.extension().and_then(|e| e.to_str()) == Some(Chess::TBW.ext) {
        Chess::TBW.magic
    } else {
        Chess::TBZ.magic
    };
    let mut magic = [0; 4];
    File::open(path)?.read_exact(&mut magic)?;
    if magic == want {
        Ok(())
    } else {
        Err(io::Error::new(io::ErrorKind::InvalidData, "not a Syzygy table (bad header)"))
    }
}

fn describe(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::InvalidInput => "not a table name (like KRvK.rtbw) of 3 to 7 pieces".to_string(),
        io::ErrorKind::UnexpectedEof => "file too short for a table".to_string(),
        _ => e.to_string(),
    }
}

impl Tablebases {
    /// The most pieces of any loaded table.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// Number of table files loaded.
    pub fn files(&self) -> usize {
        self.files
    }

    /// True when `pos` may be in the tables: no more pieces than the largest, no castling rights.
    pub fn covers(&self, pos: &Chess) -> bool {
        pos.board().occupied().count() <= self.max_pieces() && pos.castles().is_empty()
    }

    /// The outcome for the side to move, assuming `pos` was reached by a capture or pawn
    /// move; `None` when the tables do not have it (a missing or unreadable table).
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        self.tables.probe_wdl_after_zeroing(pos).map_err(|e| self.warn(&e)).ok()
    }

    /// The search's probe below the root: at a position right after a capture or pawn
    /// move, covered by the tables, with depth left at least `probe_depth` (or fewer pieces
    /// than the largest tables). Gives the score at `ply` and the bound it proves.
    #[inline]
    pub fn probe_search(
        &self,
        pos: &Chess,
        depth: i32,
        ply: usize,
        settings: ProbeSettings,
    ) -> Option<(i32, Bound)> {
        if pos.halfmoves() != 0 || pos.castles().any() {
            return None;
        }
        let (pieces, max) = (pos.board().occupied().count(), self.max_pieces());
        if pieces > max || (pieces == max && depth < settings.probe_depth) {
            return None;
        }
        self.probe_wdl(pos).map(|wdl| score_wdl(wdl, ply, settings.rule50))
    }

    /// Ranks the root's `moves` by the DTZ tables (by the WDL tables when a DTZ table is
    /// missing) and keeps those of the best rank. `keys` are the Zobrist keys of the game,
    /// the root's last: a threefold repetition is a draw, and once a position has repeated
    /// since the last capture or pawn move only the fastest wins are kept.
    pub fn rank_root(&self, pos: &Chess, moves: &[Move], keys: &[u64], rule50: bool) -> Option<RootRanking> {
        if moves.is_empty() || !self.covers(pos) {
            return None;
        }
        let window = &keys[keys.len().saturating_sub(pos.halfmoves() as usize + 1)..];
        let ranked =
            self.rank_by_dtz(pos, moves, window, rule50).or_else(|| self.rank_by_wdl(pos, moves, rule50))?;
        Some(best_ranked(moves, &ranked))
    }

    /// Each move's rank and score by its DTZ; `None` if a table is missing.
    fn rank_by_dtz(
        &self,
        pos: &Chess,
        moves: &[Move],
        window: &[u64],
        rule50: bool,
    ) -> Option<Vec<(i32, i32)>> {
        // A clock past any game's (a FEN may say anything) must not wrap.
        let (halfmoves, repeated) = (pos.halfmoves().min(1_000) as i32, has_repeated(window));
        let rank = |mv| {
            let rank = dtz_rank(self.root_dtz(pos, mv, window)?, halfmoves, repeated);
            Some((rank, rank_score(rank, rule50)))
        };
        moves.iter().map(|&mv| rank(mv)).collect()
    }

    /// Each move's rank and score by its WDL alone; `None` if a table is missing.
    fn rank_by_wdl(&self, pos: &Chess, moves: &[Move], rule50: bool) -> Option<Vec<(i32, i32)>> {
        let rank = |mv| self.root_wdl(pos, mv).map(|wdl| (wdl_rank(wdl), score_wdl(wdl, 0, rule50).0));
        moves.iter().map(|&mv| rank(mv)).collect()
    }

    /// Plies to the next capture or pawn move after `mv`, counted from the root: positive
    /// when the side to move wins, negative when it loses, 0 for a draw.
    fn root_dtz(&self, pos: &Chess, mv: Move, window: &[u64]) -> Option<i32> {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        if child.is_checkmate() {
            return Some(1);
        }
        if child.halfmoves() == 0 {
            return Some(Dtz::before_zeroing(-self.probe_wdl(&child)?).0);
        }
        let key = zobrist(&child);
        if child.halfmoves() >= 100 || window.iter().filter(|&&k| k == key).count() >= 2 {
            return Some(0);
        }
        let dtz = -self.tables.probe_dtz(&child).map_err(|e| self.warn(&e)).ok()?.ignore_rounding().0;
        Some(dtz + dtz.signum())
    }

    /// The outcome of `mv` for the side to move at the root, by the WDL tables alone.
    fn root_wdl(&self, pos: &Chess, mv: Move) -> Option<Wdl> {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        if child.is_checkmate() {
            return Some(Wdl::Win);
        }
        self.probe_wdl(&child).map(|wdl| -wdl)
    }

    /// Logs the first failed probe (a missing or corrupt table); later ones stay quiet.
    fn warn(&self, error: &shakmaty_syzygy::SyzygyError) {
        if !self.warned.swap(true, Ordering::Relaxed) {
            log::warn!("tablebase probe failed: {error}");
        }
    }
}

/// The search's score for a tablebase outcome found at `ply`, and the bound it is: a win
/// just below the mate range, shorter from nearer the root; with `rule50`, cursed wins
/// and blessed losses are draws (one centipawn either way), otherwise wins and losses.
pub fn score_wdl(wdl: Wdl, ply: usize, rule50: bool) -> (i32, Bound) {
    let win = TB_WIN - ply as i32;
    match wdl {
        Wdl::Win => (win, Bound::Lower),
        Wdl::CursedWin if !rule50 => (win, Bound::Lower),
        Wdl::CursedWin => (DRAW + 1, Bound::Exact),
        Wdl::Draw => (DRAW, Bound::Exact),
        Wdl::BlessedLoss if rule50 => (DRAW - 1, Bound::Exact),
        Wdl::BlessedLoss | Wdl::Loss => (-win, Bound::Upper),
    }
}

/// The score to report at a root the tables know: theirs, unless the search found a mate.
pub fn reported_score(tb_score: i32, search_score: i32) -> i32 {
    if search_score.abs() > MATE_BOUND { search_score } else { tb_score }
}

/// True when a position of `window` (the keys since the last capture or pawn move) repeats.
fn has_repeated(window: &[u64]) -> bool {
    window.iter().enumerate().any(|(i, key)| window[i + 1..].contains(key))
}

/// The rank of a root move (higher is better) from its DTZ and the root's clock: wins
/// safe from the fifty-move rule rank equally, so the search picks among them, unless a
/// position has repeated, when the shortest DTZ ranks first; other wins rank by DTZ;
/// losses rank equally unless a fifty-move draw is in sight, when the longest DTZ is best.
fn dtz_rank(dtz: i32, halfmoves: i32, repeated: bool) -> i32 {
    if dtz > 0 {
        if dtz + halfmoves <= SAFE_PLIES && !repeated { MAX_DTZ } else { MAX_DTZ / 2 - (dtz + halfmoves) }
    } else if dtz < 0 {
        if -2 * dtz + halfmoves < 100 { -MAX_DTZ } else { -MAX_DTZ / 2 + (-dtz + halfmoves) }
    } else {
        0
    }
}

/// The score of a root rank: a win when the zeroing move comes by the hundredth ply (any
/// win without `rule50`), one centipawn for a cursed win, the same below zero for losses.
fn rank_score(rank: i32, rule50: bool) -> i32 {
    let bound = if rule50 { MAX_DTZ / 2 - 100 } else { 1 };
    match rank {
        r if r >= bound => TB_WIN,
        r if r > 0 => DRAW + 1,
        0 => DRAW,
        r if r > -bound => DRAW - 1,
        _ => -TB_WIN,
    }
}

/// The rank of a root move known by its WDL only.
fn wdl_rank(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Loss => -MAX_DTZ,
        Wdl::BlessedLoss => -MAX_DTZ + 101,
        Wdl::Draw => 0,
        Wdl::CursedWin => MAX_DTZ - 101,
        Wdl::Win => MAX_DTZ,
    }
}

/// The moves of the best rank, with that rank's score.
fn best_ranked(moves: &[Move], ranked: &[(i32, i32)]) -> RootRanking {
    let (best, score) = ranked.iter().copied().max_by_key(|&(rank, _)| rank).unwrap_or((0, DRAW));
    let kept = moves.iter().zip(ranked).filter(|(_, (rank, _))| *rank == best).map(|(&mv, _)| mv);
    RootRanking { moves: kept.collect(), score, probes: moves.len() as u64 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

    const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

    fn tables() -> Tablebases {
        load(&[DIR]).tables.expect("the test tables load")
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn uci(pos: &Chess, text: &str) -> Move {
        text.parse::<UciMove>().unwrap().to_move(pos).unwrap()
    }

    fn rank(tables: &Tablebases, fen: &str, keys: &[u64], rule50: bool) -> RootRanking {
        let pos = position(fen);
        let moves = pos.legal_moves();
        let mut keys = keys.to_vec();
        keys.push(zobrist(&pos));
        tables.rank_root(&pos, &moves, &keys, rule50).expect("the root is in the tables")
    }

    #[test]
    fn paths_split_on_the_platform_separator_and_the_other_one() {
        assert_eq!(split_paths_for("/tb/wdl:/tb/dtz", false), ["/tb/wdl", "/tb/dtz"]);
        assert_eq!(split_paths_for(" /a ; /b :: ", false), ["/a", "/b"]);
        assert_eq!(split_paths_for(r"C:\tb;D:\more", true), [r"C:\tb", r"D:\more"]);
        assert_eq!(split_paths_for(r"C:\tb:d:\more", true), [r"C:\tb", r"d:\more"]);
        assert_eq!(split_paths_for(r"tables; E:\x", true), ["tables", r"E:\x"]);
        assert!(split_paths_for("  ", true).is_empty());
    }

    #[test]
    fn the_test_tables_load_and_say_what_they_hold() {
        let loaded = load(&[DIR]);
        assert_eq!(loaded.messages, [format!("found 10 tablebase files (up to 3 pieces) in {DIR}")]);
        let tables = loaded.tables.unwrap();
        assert_eq!((tables.files(), tables.max_pieces()), (10, 3));
        let none = load::<&str>(&[]);
        assert!(none.tables.is_none() && none.messages.is_empty());
    }

    #[test]
    fn a_missing_directory_is_reported_and_the_others_still_load() {
        let loaded = load(&["/no/such/syzygy/dir"]);
        assert!(loaded.tables.is_none());
        assert!(loaded.messages[0].starts_with("SyzygyPath: cannot read directory '/no/such/syzygy/dir'"));
        assert_eq!(loaded.messages[1], "found no tablebase files in /no/such/syzygy/dir");
        let loaded = load(&["/no/such/syzygy/dir", DIR]);
        assert_eq!(loaded.tables.unwrap().files(), 10);
    }

    #[test]
    fn bad_files_are_reported_and_corrupt_ones_never_panic() {
        let dir = std::env::temp_dir().join(format!("principia-syzygy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["KQvK.rtbw", "KQvK.rtbz"] {
            std::fs::copy(Path::new(DIR).join(name), dir.join(name)).unwrap();
        }
        // Right header, garbage body: accepted, and probing it must still not panic.
        let mut corrupt = Chess::TBW.magic.to_vec();
        corrupt.resize(80, 0xAB);
        std::fs::write(dir.join("KRvK.rtbw"), corrupt).unwrap();
        std::fs::write(dir.join("KNvK.rtbw"), [0u8; 80]).unwrap();
        std::fs::write(dir.join("KBvK.rtbz"), &Chess::TBZ.magic[..]).unwrap();
        let mut misnamed = Chess::TBW.magic.to_vec();
        misnamed.resize(80, 0);
        std::fs::write(dir.join("notes.rtbw"), misnamed).unwrap();
        let loaded = load(&[&dir]);
        let text = loaded.messages.join("\n");
        assert!(text.contains("KNvK.rtbw': not a Syzygy table (bad header)"), "{text}");
        assert!(text.contains("KBvK.rtbz': unexpected file size"), "{text}");
        assert!(text.contains("notes.rtbw': not a table name"), "{text}");
        let summary = format!("found 3 tablebase files (up to 3 pieces) in {}", dir.display());
        assert!(text.ends_with(&summary), "{text}");
        let tables = loaded.tables.unwrap();
        let krk = position("8/8/8/8/8/1k6/8/R3K3 w - - 0 1");
        let _ = tables.probe_wdl(&krk);
        let _ = tables.rank_root(&krk, &krk.legal_moves(), &[zobrist(&krk)], true);
        assert_eq!(tables.probe_wdl(&position("8/8/8/8/8/1k6/8/Q3K3 w - - 0 1")), Some(Wdl::Win));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn without_dtz_tables_the_root_is_ranked_by_wdl() {
        let dir = std::env::temp_dir().join(format!("principia-syzygy-wdl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(Path::new(DIR).join("KRvK.rtbw"), dir.join("KRvK.rtbw")).unwrap();
        let tables = load(&[&dir]).tables.unwrap();
        let ranking = rank(&tables, "8/8/8/8/8/1k6/8/R3K3 w - - 0 1", &[], true);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((ranking.score, ranking.moves.len()), (TB_WIN, 12));
    }

    #[test]
    fn wdl_of_known_endings() {
        let tables = tables();
        for (fen, wdl) in [
            ("8/8/8/8/8/1k6/8/R3K3 w - - 0 1", Wdl::Win),
            ("8/8/8/8/8/1k6/8/R3K3 b - - 0 1", Wdl::Loss),
            ("8/8/8/8/8/8/1k6/R3K3 b - - 0 1", Wdl::Draw), // Kxa1
            ("8/8/8/8/8/1k6/8/Q3K3 w - - 0 1", Wdl::Win),
            ("k7/8/8/8/8/8/P7/K7 w - - 0 1", Wdl::Draw), // the rook pawn and the corner
            ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", Wdl::Draw), // the defender takes the opposition
            ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Wdl::Win),
            ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Wdl::Win),
        ] {
            assert_eq!(tables.probe_wdl(&position(fen)), Some(wdl), "{fen}");
        }
    }

    #[test]
    fn the_search_probes_only_after_zeroing_without_castling_and_deep_enough() {
        let tables = tables();
        let settings = ProbeSettings::default();
        let krk = position("8/8/8/8/8/2k5/8/R3K3 w - - 0 1");
        assert_eq!(tables.probe_search(&krk, 1, 3, settings), Some((TB_WIN - 3, Bound::Lower)));
        assert_eq!(tables.probe_search(&krk, 0, 3, settings), None, "3 pieces: below SyzygyProbeDepth");
        let deep = ProbeSettings { probe_depth: 5, ..settings };
        assert_eq!(tables.probe_search(&krk, 4, 3, deep), None);
        let lost = position("8/8/8/8/8/2k5/8/R3K3 b - - 0 1");
        assert_eq!(tables.probe_search(&lost, 5, 2, deep), Some((-(TB_WIN - 2), Bound::Upper)));
        let later = position("8/8/8/8/8/2k5/8/R3K3 w - - 7 12");
        assert_eq!(tables.probe_search(&later, 1, 3, settings), None, "the clock is not zero");
        let castling = position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert!(!tables.covers(&castling));
        assert_eq!(tables.probe_search(&castling, 1, 3, settings), None);
        let draw = position("k7/8/8/8/8/8/P7/K7 w - - 0 1");
        assert_eq!(tables.probe_search(&draw, 1, 1, settings), Some((DRAW, Bound::Exact)));
    }

    #[test]
    fn fifty_move_spoilt_results_are_draws_only_under_the_rule() {
        assert_eq!(score_wdl(Wdl::CursedWin, 4, true), (DRAW + 1, Bound::Exact));
        assert_eq!(score_wdl(Wdl::BlessedLoss, 4, true), (DRAW - 1, Bound::Exact));
        assert_eq!(score_wdl(Wdl::CursedWin, 4, false), (TB_WIN - 4, Bound::Lower));
        assert_eq!(score_wdl(Wdl::BlessedLoss, 4, false), (-(TB_WIN - 4), Bound::Upper));
        const { assert!(TB_WIN - 4 < MATE_BOUND && TB_WIN - 4 > crate::score::TB_WIN_BOUND) };
    }

    #[test]
    fn root_keeps_the_winning_moves_and_drops_the_ones_that_hang_the_rook() {
        let tables = tables();
        let fen = "8/8/8/8/8/1k6/8/R3K3 w - - 0 1";
        let pos = position(fen);
        let ranking = rank(&tables, fen, &[], true);
        assert_eq!(ranking.score, TB_WIN);
        assert_eq!((ranking.moves.len(), ranking.probes), (12, 15));
        for hanging in ["a1a2", "a1a3", "a1a4"] {
            assert!(!ranking.moves.contains(&uci(&pos, hanging)), "{hanging} lets Kxa");
        }
        for &mv in &ranking.moves {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            assert_eq!(tables.tables.probe_wdl(&child).unwrap().after_zeroing(), Wdl::Loss);
        }
    }

    #[test]
    fn after_a_repetition_only_the_fastest_wins_are_kept() {
        let tables = tables();
        let fen = "8/8/8/8/8/1k6/8/R3K3 w - - 4 3";
        let pos = position(fen);
        let ranking = rank(&tables, fen, &[11, 22, 11, 22], true);
        assert_eq!(ranking.score, TB_WIN);
        assert!(!ranking.moves.is_empty() && ranking.moves.len() < 12, "{:?}", ranking.moves);
        let (best, dtz) = tables.tables.best_move(&pos).unwrap().unwrap();
        assert!(ranking.moves.contains(&best), "the tables' own choice is kept");
        for &mv in &ranking.moves {
            assert_eq!(tables.root_dtz(&pos, mv, &[]), Some(-dtz.ignore_rounding().0 + 1));
        }
    }

    #[test]
    fn a_win_the_fifty_move_rule_spoils_is_a_draw_only_under_the_rule() {
        let tables = tables();
        let fen = "8/8/8/8/8/1k6/8/R3K3 w - - 95 60";
        let spoilt = rank(&tables, fen, &[], true);
        assert_eq!((spoilt.score, spoilt.moves.len()), (DRAW + 1, 1), "the shortest try is kept");
        assert_eq!(rank(&tables, fen, &[], false).score, TB_WIN);
    }

    #[test]
    fn root_of_pawn_endings() {
        let tables = tables();
        let draw = rank(&tables, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", &[], true);
        assert_eq!((draw.score, draw.moves.len()), (DRAW, 3), "{:?}", draw.moves);
        let win = rank(&tables, "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", &[], true);
        assert_eq!(win.score, TB_WIN);
        let pos = position("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1");
        assert_eq!(win.moves, [uci(&pos, "e6d6"), uci(&pos, "e6f6")], "Kd5 and Kf5 give up the opposition");
        let lost = rank(&tables, "4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", &[], true);
        assert_eq!(lost.score, -TB_WIN);
    }

    #[test]
    fn a_checkmate_at_the_root_move_ranks_first() {
        let tables = tables();
        let fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1";
        let pos = position(fen);
        let ranking = rank(&tables, fen, &[], true);
        assert_eq!(ranking.score, TB_WIN);
        assert!(ranking.moves.contains(&uci(&pos, "h1h8")));
        assert_eq!(tables.root_dtz(&pos, uci(&pos, "h1h8"), &[]), Some(1));
    }

    #[test]
    fn tables_are_shared_across_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Tablebases>();
    }
}
