//! The engine's UCI options: what exists, its limits, and the current values.

use crate::search::{DEFAULT_HASH_MB, MAX_THREADS, SearchConfig, SearchMode};
use crate::syzygy::EMPTY_PATH;

/// The kind and limits of an option, as `uci` announces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Value at start-up.
        default: i64,
        /// Smallest value accepted.
        min: i64,
        /// Largest value accepted.
        max: i64,
    },
    /// A boolean.
    Check {
        /// Value at start-up.
        default: bool,
    },
    /// An action with no value.
    Button,
    /// One of a fixed list of words.
    Combo {
        /// Value at start-up.
        default: &'static str,
        /// The words accepted.
        vars: &'static [&'static str],
    },
    /// Free text (`<empty>` for none).
    String {
        /// Value at start-up.
        default: &'static str,
    },
}

/// One option: its name and kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSpec {
    /// Name as announced; matched case-insensitively.
    pub name: &'static str,
    /// Kind and limits.
    pub kind: OptionKind,
}

/// Names of the search modes offered by the `SearchMode` option.
const SEARCH_MODES: [&str; 4] = [
    SearchMode::ALL[0].name(),
    SearchMode::ALL[1].name(),
    SearchMode::ALL[2].name(),
    SearchMode::ALL[3].name(),
];

/// Every option the engine offers.
pub const OPTIONS: [OptionSpec; 13] = [
    OptionSpec {
        name: "Hash",
        kind: OptionKind::Spin { default: DEFAULT_HASH_MB as i64, min: 1, max: 1 << 20 },
    },
    OptionSpec { name: "Clear Hash", kind: OptionKind::Button },
    OptionSpec { name: "Threads", kind: OptionKind::Spin { default: 1, min: 1, max: MAX_THREADS as i64 } },
    OptionSpec { name: "Move Overhead", kind: OptionKind::Spin { default: 30, min: 0, max: 5000 } },
    OptionSpec { name: "Ponder", kind: OptionKind::Check { default: false } },
    OptionSpec { name: "MultiPV", kind: OptionKind::Spin { default: 1, min: 1, max: 256 } },
    OptionSpec { name: "UCI_ShowWDL", kind: OptionKind::Check { default: false } },
    OptionSpec { name: "UCI_Chess960", kind: OptionKind::Check { default: false } },
    OptionSpec { name: "SearchMode", kind: OptionKind::Combo { default: "Strong", vars: &SEARCH_MODES } },
    OptionSpec { name: "PVFirst", kind: OptionKind::Check { default: true } },
    OptionSpec { name: "SyzygyPath", kind: OptionKind::String { default: EMPTY_PATH } },
    OptionSpec { name: "SyzygyProbeDepth", kind: OptionKind::Spin { default: 1, min: 1, max: 100 } },
    OptionSpec { name: "Syzygy50MoveRule", kind: OptionKind::Check { default: true } },
];

/// Current option values, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Milliseconds kept back from every move for the GUI and the pipe.
    pub move_overhead_ms: u64,
    /// The GUI may send `go ponder` (informational).
    pub ponder: bool,
    /// Read and write castling as king-takes-rook.
    pub chess960: bool,
    /// Add `wdl W D L` to every `info` line with a score.
    pub show_wdl: bool,
    /// The search variant.
    pub search: SearchConfig,
    /// Directories of Syzygy tables, as given (`<empty>` for none).
    pub syzygy_path: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            move_overhead_ms: 30,
            ponder: false,
            chess960: false,
            show_wdl: false,
            search: SearchConfig::default(),
            syzygy_path: EMPTY_PATH.to_string(),
        }
    }
}

impl Options {
    /// Sets the option `name` from `value`, or says why it cannot be set.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let spec = OPTIONS
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown option '{name}'"))?;
        if spec.kind == OptionKind::Button {
            return Ok(());
        }
        if let OptionKind::String { .. } = spec.kind {
            // The only string option is SyzygyPath; no value is no path.
            self.syzygy_path = value.unwrap_or(EMPTY_PATH).to_string();
            return Ok(());
        }
        let value = value.ok_or_else(|| format!("option '{}' needs a value", spec.name))?;
        match &spec.kind {
            OptionKind::Button | OptionKind::String { .. } => {}
            OptionKind::Spin { min, max, .. } => {
                let n: i64 = value
                    .parse()
                    .map_err(|_| format!("invalid value '{value}' for option '{}'", spec.name))?;
                if n < *min || n > *max {
                    return Err(format!("value {n} for option '{}' is outside {min}..{max}", spec.name));
                }
                self.set_spin(spec.name, n as u64);
            }
            OptionKind::Check { .. } => {
                let b = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!("option '{}' expects true or false, not '{value}'", spec.name));
                    }
                };
                self.set_check(spec.name, b);
            }
            OptionKind::Combo { .. } => {
                // The only combo is SearchMode; its vars are the modes' names.
                self.search.mode = SearchMode::from_name(value)
                    .ok_or_else(|| format!("invalid value '{value}' for option '{}'", spec.name))?;
            }
        }
        Ok(())
    }

    fn set_spin(&mut self, name: &str, n: u64) {
        match name {
            "Hash" => self.hash_mb = n as usize,
            "Threads" => self.threads = n as usize,
            "MultiPV" => self.search.multi_pv = n as usize,
            "SyzygyProbeDepth" => self.search.syzygy.probe_depth = n as i32,
            _ => self.move_overhead_ms = n,
        }
    }

    fn set_check(&mut self, name: &str, b: bool) {
        match name {
            "Ponder" => self.ponder = b,
            "UCI_Chess960" => self.chess960 = b,
            "UCI_ShowWDL" => self.show_wdl = b,
            "Syzygy50MoveRule" => self.search.syzygy.rule50 = b,
            _ => self.search.pv_first = b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_without_case() {
        let mut o = Options::default();
        o.set("move overhead", Some("100")).unwrap();
        assert_eq!(o.move_overhead_ms, 100);
        o.set("uci_chess960", Some("true")).unwrap();
        assert!(o.chess960);
        o.set("SearchMode", Some("minimax")).unwrap();
        assert_eq!(o.search.mode, SearchMode::Minimax);
        o.set("multipv", Some("3")).unwrap();
        assert_eq!(o.search.multi_pv, 3);
        o.set("UCI_ShowWDL", Some("true")).unwrap();
        assert!(o.show_wdl);
        o.set("threads", Some("4")).unwrap();
        assert_eq!(o.threads, 4);
        o.set("syzygypath", Some("/tb/wdl:/tb/dtz")).unwrap();
        assert_eq!(o.syzygy_path, "/tb/wdl:/tb/dtz");
        o.set("SyzygyProbeDepth", Some("4")).unwrap();
        assert_eq!(o.search.syzygy.probe_depth, 4);
        o.set("Syzygy50MoveRule", Some("false")).unwrap();
        assert!(!o.search.syzygy.rule50);
        o.set("SyzygyPath", None).unwrap();
        assert_eq!(o.syzygy_path, "<empty>");
    }

    #[test]
    fn bad_values_keep_the_old_value() {
        let mut o = Options::default();
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("lots")).is_err());
        assert!(o.set("Ponder", Some("maybe")).is_err());
        assert!(o.set("Colour", Some("blue")).is_err());
        assert!(o.set("Hash", None).is_err());
        assert!(o.set("MultiPV", Some("0")).is_err());
        assert!(o.set("MultiPV", Some("257")).is_err());
        assert!(o.set("Threads", Some("0")).is_err());
        assert!(o.set("Threads", Some("100000")).is_err());
        assert!(o.set("SyzygyProbeDepth", Some("0")).is_err());
        assert!(o.set("SyzygyProbeDepth", Some("101")).is_err());
        assert!(o.set("Syzygy50MoveRule", Some("yes")).is_err());
        assert_eq!(o, Options::default());
    }
}
