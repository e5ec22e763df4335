//! The engine's UCI options, typed: each option is one variant of [`UciOption`], whose
//! name, kind and effect are exhaustive matches, so a new option that lacks one of them
//! does not compile. `setoption` is parsed here into an option and a typed value; the
//! words `<default>` and `<empty>` of the string options stay on the wire.

use super::skill::{MAX_ELO, MAX_LEVEL, MIN_ELO, Skill};
use crate::search::{DEFAULT_HASH_MB, MAX_THREADS, SearchConfig, SearchMode};
use crate::syzygy::split_paths;
use std::fmt;
use std::path::PathBuf;

/// The `EvalFile` value that means the network built into the binary.
const EMBEDDED_NET: &str = "<default>";
/// The `SyzygyPath` value that means no tables.
const EMPTY_PATH: &str = "<empty>";

/// The network `EvalFile` asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum NetChoice {
    /// The network built into the binary.
    #[default]
    Embedded,
    /// The net file at this path.
    File(PathBuf),
}

impl NetChoice {
    /// Reads an `EvalFile` value: `<default>` or nothing means the network built in.
    fn parse(text: &str) -> NetChoice {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case(EMBEDDED_NET) {
            NetChoice::Embedded
        } else {
            NetChoice::File(PathBuf::from(text))
        }
    }
}

/// The directories of a `SyzygyPath` value (see `split_paths`); `<empty>` or nothing is none.
fn tablebase_directories(text: &str) -> Vec<PathBuf> {
    if text.trim().eq_ignore_ascii_case(EMPTY_PATH) {
        return Vec::new();
    }
    split_paths(text)
}

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

impl fmt::Display for OptionKind {
    /// The kind as `option name N type ...` writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Spin { default, min, max } => write!(f, "spin default {default} min {min} max {max}"),
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } => write!(f, "string default {default}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
        }
    }
}

/// A value for an option, checked against its kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    /// For a spin: a number within its limits.
    Spin(i64),
    /// For a check.
    Check(bool),
    /// For a combo: one of its words, as the option spells it.
    Combo(&'static str),
    /// For `EvalFile`: the network asked for.
    Net(NetChoice),
    /// For `SyzygyPath`: the directories of the tables (none: no tables).
    Directories(Vec<PathBuf>),
    /// For a button: pressed.
    Press,
}

/// Declares the options: the enum and the list of all of them, which cannot disagree.
macro_rules! uci_options {
    ($($variant:ident),* $(,)?) => {
        /// Every option the engine offers.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum UciOption {
            $(
                #[allow(missing_docs)]
                $variant,
            )*
        }

        impl UciOption {
            /// Every option, in the order `uci` lists them.
            pub const ALL: &[UciOption] = &[$(UciOption::$variant),*];
        }
    };
}

uci_options!(
    Hash,
    ClearHash,
    Threads,
    MoveOverhead,
    Ponder,
    MultiPv,
    ShowWdl,
    Chess960,
    SearchMode,
    PvFirst,
    SyzygyPath,
    SyzygyProbeDepth,
    Syzygy50MoveRule,
    EvalFile,
    LimitStrength,
    Elo,
    SkillLevel,
);

/// Names of the search modes offered by the `SearchMode` option.
const SEARCH_MODES: [&str; 4] = [
    SearchMode::ALL[0].name(),
    SearchMode::ALL[1].name(),
    SearchMode::ALL[2].name(),
    SearchMode::ALL[3].name(),
];

impl UciOption {
    /// The name as announced; `setoption` matches it without case.
    pub const fn name(self) -> &'static str {
        match self {
            UciOption::Hash => "Hash",
            UciOption::ClearHash => "Clear Hash",
            UciOption::Threads => "Threads",
            UciOption::MoveOverhead => "Move Overhead",
            UciOption::Ponder => "Ponder",
            UciOption::MultiPv => "MultiPV",
            UciOption::ShowWdl => "UCI_ShowWDL",
            UciOption::Chess960 => "UCI_Chess960",
            UciOption::SearchMode => "SearchMode",
            UciOption::PvFirst => "PVFirst",
            UciOption::SyzygyPath => "SyzygyPath",
            UciOption::SyzygyProbeDepth => "SyzygyProbeDepth",
            UciOption::Syzygy50MoveRule => "Syzygy50MoveRule",
            UciOption::EvalFile => "EvalFile",
            UciOption::LimitStrength => "UCI_LimitStrength",
            UciOption::Elo => "UCI_Elo",
            UciOption::SkillLevel => "Skill Level",
        }
    }

    /// The kind, default and limits.
    pub const fn kind(self) -> OptionKind {
        match self {
            UciOption::Hash => OptionKind::Spin { default: DEFAULT_HASH_MB as i64, min: 1, max: 1 << 20 },
            UciOption::ClearHash => OptionKind::Button,
            UciOption::Threads => OptionKind::Spin { default: 1, min: 1, max: MAX_THREADS as i64 },
            UciOption::MoveOverhead => OptionKind::Spin { default: 30, min: 0, max: 5000 },
            UciOption::Ponder => OptionKind::Check { default: false },
            UciOption::MultiPv => OptionKind::Spin { default: 1, min: 1, max: 256 },
            UciOption::ShowWdl => OptionKind::Check { default: false },
            UciOption::Chess960 => OptionKind::Check { default: false },
            UciOption::SearchMode => OptionKind::Combo { default: "Strong", vars: &SEARCH_MODES },
            UciOption::PvFirst => OptionKind::Check { default: true },
            UciOption::SyzygyPath => OptionKind::String { default: EMPTY_PATH },
            UciOption::SyzygyProbeDepth => OptionKind::Spin { default: 1, min: 1, max: 100 },
            UciOption::Syzygy50MoveRule => OptionKind::Check { default: true },
            UciOption::EvalFile => OptionKind::String { default: EMBEDDED_NET },
            UciOption::LimitStrength => OptionKind::Check { default: false },
            UciOption::Elo => OptionKind::Spin { default: MIN_ELO, min: MIN_ELO, max: MAX_ELO },
            UciOption::SkillLevel => {
                OptionKind::Spin { default: MAX_LEVEL as i64, min: 0, max: MAX_LEVEL as i64 }
            }
        }
    }

    /// The option called `name` (case-insensitive), if there is one.
    pub fn from_name(name: &str) -> Option<UciOption> {
        UciOption::ALL.iter().copied().find(|o| o.name().eq_ignore_ascii_case(name))
    }

    /// Reads `value` as a value of this option's kind, or says why it cannot be one.
    pub fn parse_value(self, value: Option<&str>) -> Result<OptionValue, String> {
        let name = self.name();
        match (self.kind(), value) {
            (OptionKind::Button, _) => Ok(OptionValue::Press),
            // No value is the default (for SyzygyPath: no tables).
            (OptionKind::String { default }, text) => Ok(self.read_text(text.unwrap_or(default))),
            (_, None) => Err(format!("option '{name}' needs a value")),
            (OptionKind::Spin { min, max, .. }, Some(text)) => {
                let n: i64 =
                    text.parse().map_err(|_| format!("invalid value '{text}' for option '{name}'"))?;
                if n < min || n > max {
                    return Err(format!("value {n} for option '{name}' is outside {min}..{max}"));
                }
                Ok(OptionValue::Spin(n))
            }
            (OptionKind::Check { .. }, Some(text)) => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(format!("option '{name}' expects true or false, not '{text}'")),
            },
            (OptionKind::Combo { vars, .. }, Some(text)) => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(text))
                .map(|v| OptionValue::Combo(v))
                .ok_or_else(|| format!("invalid value '{text}' for option '{name}'")),
        }
    }

    /// The typed value of a string option's text.
    fn read_text(self, text: &str) -> OptionValue {
        match self {
            UciOption::EvalFile => OptionValue::Net(NetChoice::parse(text)),
            UciOption::SyzygyPath => OptionValue::Directories(tablebase_directories(text)),
            other => unreachable!("{other:?} is not a string option"),
        }
    }
}

/// Current option values, typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Milliseconds kept back from every move for the GUI and the pipe.
    pub move_overhead_ms: u64,
    /// Read and write castling as king-takes-rook.
    pub chess960: bool,
    /// Add `wdl W D L` to every `info` line with a score.
    pub show_wdl: bool,
    /// The search variant.
    pub search: SearchConfig,
    /// Directories of Syzygy tables (none: no tables).
    pub syzygy_dirs: Vec<PathBuf>,
    /// The network to evaluate with.
    pub eval_file: NetChoice,
    /// Play at `elo` rather than at `skill_level`.
    pub limit_strength: bool,
    /// The strength asked for with `limit_strength`.
    pub elo: i64,
    /// The playing level, 0 to 20 (full strength).
    pub skill_level: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            move_overhead_ms: 30,
            chess960: false,
            show_wdl: false,
            search: SearchConfig::default(),
            syzygy_dirs: Vec::new(),
            eval_file: NetChoice::Embedded,
            limit_strength: false,
            elo: MIN_ELO,
            skill_level: MAX_LEVEL,
        }
    }
}

impl Options {
    /// The playing level the options ask for.
    pub fn skill(&self) -> Skill {
        Skill::new(self.limit_strength, self.elo, self.skill_level)
    }

    /// Sets the option `name` from `value` and returns which option it was, or says why
    /// it cannot be set (the values stay as they were).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<UciOption, String> {
        let option = UciOption::from_name(name).ok_or_else(|| format!("unknown option '{name}'"))?;
        let value = option.parse_value(value)?;
        self.apply(option, value);
        Ok(option)
    }

    /// Stores a value that `parse_value` gave for `option`.
    fn apply(&mut self, option: UciOption, value: OptionValue) {
        let spin = |v: &OptionValue| if let OptionValue::Spin(n) = *v { n } else { unreachable!("{v:?}") };
        let check = |v: &OptionValue| if let OptionValue::Check(b) = *v { b } else { unreachable!("{v:?}") };
        match option {
            UciOption::Hash => self.hash_mb = spin(&value) as usize,
            UciOption::Threads => self.threads = spin(&value) as usize,
            UciOption::MoveOverhead => self.move_overhead_ms = spin(&value) as u64,
            UciOption::MultiPv => self.search.multi_pv = spin(&value) as usize,
            UciOption::SyzygyProbeDepth => self.search.syzygy.probe_depth = spin(&value) as i32,
            UciOption::ShowWdl => self.show_wdl = check(&value),
            UciOption::Chess960 => self.chess960 = check(&value),
            UciOption::PvFirst => self.search.pv_first = check(&value),
            UciOption::Syzygy50MoveRule => self.search.syzygy.rule50 = check(&value),
            UciOption::LimitStrength => self.limit_strength = check(&value),
            UciOption::Elo => self.elo = spin(&value),
            UciOption::SkillLevel => self.skill_level = spin(&value) as u8,
            UciOption::SearchMode => {
                if let OptionValue::Combo(word) = value {
                    self.search.mode = SearchMode::from_name(word).expect("a listed mode");
                }
            }
            UciOption::SyzygyPath => {
                if let OptionValue::Directories(dirs) = value {
                    self.syzygy_dirs = dirs;
                }
            }
            UciOption::EvalFile => {
                if let OptionValue::Net(net) = value {
                    self.eval_file = net;
                }
            }
            // The GUI may send `go ponder`, which is always understood; buttons are
            // pressed by the engine, which sees the option come back from `set`.
            UciOption::Ponder | UciOption::ClearHash => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_without_case() {
        let mut o = Options::default();
        assert_eq!(o.set("move overhead", Some("100")), Ok(UciOption::MoveOverhead));
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
        assert_eq!(o.syzygy_dirs, [PathBuf::from("/tb/wdl"), PathBuf::from("/tb/dtz")]);
        o.set("SyzygyProbeDepth", Some("4")).unwrap();
        assert_eq!(o.search.syzygy.probe_depth, 4);
        o.set("Syzygy50MoveRule", Some("false")).unwrap();
        assert!(!o.search.syzygy.rule50);
        o.set("PVFirst", Some("false")).unwrap();
        assert!(!o.search.pv_first);
        o.set("skill level", Some("5")).unwrap();
        assert_eq!(o.skill().tenths(), 50);
        o.set("uci_limitstrength", Some("true")).unwrap();
        o.set("UCI_Elo", Some(&MAX_ELO.to_string())).unwrap();
        assert!(o.skill().is_full(), "with UCI_LimitStrength the level comes from UCI_Elo");
        o.set("SyzygyPath", None).unwrap();
        assert!(o.syzygy_dirs.is_empty());
        assert_eq!(o.set("clear hash", None), Ok(UciOption::ClearHash));
    }

    #[test]
    fn each_option_sets_only_its_own_value() {
        // A value for one option must not land in another's field (a catch-all arm did once).
        for &option in UciOption::ALL {
            let value = match option.kind() {
                OptionKind::Spin { default, min, max } => {
                    Some(if default == max { min } else { max }.to_string())
                }
                OptionKind::Check { default } => Some((!default).to_string()),
                OptionKind::Combo { vars, .. } => Some(vars[vars.len() - 1].to_string()),
                OptionKind::String { .. } => Some("/somewhere".to_string()),
                OptionKind::Button => None,
            };
            let mut o = Options::default();
            o.set(option.name(), value.as_deref()).unwrap();
            let changed = [
                o.hash_mb != Options::default().hash_mb,
                o.threads != 1,
                o.move_overhead_ms != 30,
                o.chess960,
                o.show_wdl,
                o.search.mode != SearchMode::Strong,
                !o.search.pv_first,
                o.search.multi_pv != 1,
                o.search.syzygy != SearchConfig::default().syzygy,
                !o.syzygy_dirs.is_empty(),
                o.eval_file != NetChoice::Embedded,
                o.limit_strength,
                o.elo != MIN_ELO,
                o.skill_level != MAX_LEVEL,
            ];
            let expected = usize::from(!matches!(option, UciOption::Ponder | UciOption::ClearHash));
            assert_eq!(changed.iter().filter(|&&c| c).count(), expected, "{option:?}: {o:?}");
        }
    }

    #[test]
    fn every_option_has_a_name_of_its_own_that_setoption_finds() {
        for (i, &option) in UciOption::ALL.iter().enumerate() {
            assert_eq!(UciOption::from_name(option.name()), Some(option));
            assert_eq!(UciOption::from_name(&option.name().to_uppercase()), Some(option));
            let later = &UciOption::ALL[i + 1..];
            assert!(
                later.iter().all(|other| !other.name().eq_ignore_ascii_case(option.name())),
                "{option:?}: two options answer to '{}'",
                option.name()
            );
        }
        assert_eq!(UciOption::SkillLevel.kind().to_string(), "spin default 20 min 0 max 20");
        assert_eq!(UciOption::Hash.kind().to_string(), "spin default 16 min 1 max 1048576");
        assert_eq!(
            UciOption::SearchMode.kind().to_string(),
            "combo default Strong var Strong var PVS var AlphaBeta var Minimax"
        );
    }

    #[test]
    fn the_words_on_the_wire_are_read_into_typed_values() {
        let mut o = Options::default();
        o.set("EvalFile", Some("/nets/strong.nnue")).unwrap();
        assert_eq!(o.eval_file, NetChoice::File(PathBuf::from("/nets/strong.nnue")));
        for word in [Some("<default>"), Some(""), None] {
            o.set("EvalFile", Some("/nets/strong.nnue")).unwrap();
            o.set("EvalFile", word).unwrap();
            assert_eq!(o.eval_file, NetChoice::Embedded, "{word:?}");
        }
        for word in [Some("<empty>"), Some(" <EMPTY> "), Some(""), Some(" : "), None] {
            o.set("SyzygyPath", Some("/tb")).unwrap();
            o.set("SyzygyPath", word).unwrap();
            assert!(o.syzygy_dirs.is_empty(), "{word:?}: {:?}", o.syzygy_dirs);
        }
        assert_eq!(UciOption::EvalFile.kind().to_string(), "string default <default>");
        assert_eq!(UciOption::SyzygyPath.kind().to_string(), "string default <empty>");
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
        assert!(o.set("SearchMode", Some("Fastest")).is_err());
        assert_eq!(o, Options::default());
    }
}
