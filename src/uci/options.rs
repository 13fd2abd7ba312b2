//! The UCI options: one table that both `uci` (the `option name …` lines) and `setoption`
//! (validation) read, and a typed `Options` struct that holds the current values.
//!
//! A `setoption` with a bad value is refused whole: the previous value stays and the caller
//! prints why. Names match case-insensitively, with runs of spaces treated as one.
//!
//! Built with the `spsa` feature, every search parameter (`search::params`) is one more spin
//! option, named as in its table, after the ones below; the normal build has none of them.

use crate::search::SearchParams;
use crate::strength::{MAX_ELO, MAX_SKILL_LEVEL, MIN_ELO, Strength};

/// The kind and range of one option, as `uci` announces it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    String { default: &'static str },
}

/// `EvalFile`'s value for the net built into the binary.
pub const EMBEDDED_NET: &str = "<embedded>";

/// `SyzygyPath`'s value for no tables (Stockfish's spelling).
pub const NO_TABLES: &str = "<empty>";
/// `Debug Log File`'s value for no log.
pub const NO_LOG: &str = "<empty>";

/// When the search probes the endgame tables (the `Syzygy*` options but the path).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SyzygySettings {
    pub probe_depth: i32,
    pub fifty_move_rule: bool,
    pub probe_limit: usize,
}

/// Every option, in the order `uci` lists them.
pub const OPTIONS: &[(&str, OptionKind)] = &[
    (
        "Hash",
        OptionKind::Spin {
            default: 16,
            min: 1,
            max: 65536,
        },
    ),
    ("Clear Hash", OptionKind::Button),
    (
        "Threads",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    ),
    (
        "MultiPV",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    ),
    ("Ponder", OptionKind::Check { default: false }),
    (
        "Move Overhead",
        OptionKind::Spin {
            default: 30,
            min: 0,
            max: 5000,
        },
    ),
    ("Adaptive Overhead", OptionKind::Check { default: true }),
    ("UCI_Chess960", OptionKind::Check { default: false }),
    ("UCI_ShowWDL", OptionKind::Check { default: false }),
    ("UCI_LimitStrength", OptionKind::Check { default: false }),
    (
        "UCI_Elo",
        OptionKind::Spin {
            default: MAX_ELO as i64,
            min: MIN_ELO as i64,
            max: MAX_ELO as i64,
        },
    ),
    (
        "Skill Level",
        OptionKind::Spin {
            default: MAX_SKILL_LEVEL as i64,
            min: 0,
            max: MAX_SKILL_LEVEL as i64,
        },
    ),
    (
        "EvalFile",
        OptionKind::String {
            default: EMBEDDED_NET,
        },
    ),
    ("SyzygyPath", OptionKind::String { default: NO_TABLES }),
    ("Debug Log File", OptionKind::String { default: NO_LOG }),
    (
        "SyzygyProbeDepth",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    ),
    ("Syzygy50MoveRule", OptionKind::Check { default: true }),
    (
        "SyzygyProbeLimit",
        OptionKind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
    ),
];

/// The `option name … type …` line for one table entry.
pub fn describe(name: &str, kind: OptionKind) -> String {
    match kind {
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Check { default } => {
            format!("option name {name} type check default {default}")
        }
        OptionKind::Button => format!("option name {name} type button"),
        OptionKind::String { default } => {
            format!("option name {name} type string default {default}")
        }
    }
}

/// The strength options as set; `strength()` folds them into one `Strength`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StrengthSettings {
    pub limit_strength: bool,
    pub elo: u32,
    pub skill_level: u32,
}

impl StrengthSettings {
    /// `UCI_LimitStrength` with `UCI_Elo` wins; otherwise `Skill Level` (20 is full strength).
    pub fn strength(&self) -> Strength {
        if self.limit_strength {
            Strength::from_elo(self.elo)
        } else {
            Strength::from_skill_level(self.skill_level)
        }
    }
}

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead_ms: i64,
    /// Raise the Move Overhead to the lag measured between the GUI's clock and ours.
    pub adaptive_overhead: bool,
    pub chess960: bool,
    pub show_wdl: bool,
    pub strength: StrengthSettings,
    /// The search parameters (changed only in an `spsa` build).
    pub search_params: SearchParams,
    /// The net file in use (`EMBEDDED_NET` for the built-in one); set by the session once
    /// the file has loaded.
    pub eval_file: String,
    /// The table directories in use (`NO_TABLES` for none); set by the session once they
    /// have been read.
    pub syzygy_path: String,
    pub syzygy: SyzygySettings,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 30,
            adaptive_overhead: true,
            chess960: false,
            show_wdl: false,
            strength: StrengthSettings {
                limit_strength: false,
                elo: MAX_ELO,
                skill_level: MAX_SKILL_LEVEL,
            },
            search_params: SearchParams::DEFAULT,
            eval_file: EMBEDDED_NET.to_string(),
            syzygy_path: NO_TABLES.to_string(),
            syzygy: SyzygySettings {
                probe_depth: 1,
                fifty_move_rule: true,
                probe_limit: 7,
            },
        }
    }
}

/// What the session or the search thread must do after an option changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    ResizeHash(usize),
    ClearHash,
    SetThreads(usize),
    /// An `spsa` build's search parameter changed: hand the whole table to the search.
    SetSearchParams(SearchParams),
    /// `EvalFile`: load this net file (or `EMBEDDED_NET`); the current net stays if it fails.
    LoadNetwork(String),
    /// `SyzygyPath`: read the tables in these directories (or `NO_TABLES`: drop them); the
    /// current tables stay if it fails.
    LoadTablebases(String),
    /// `Debug Log File`: log every line in and out to this file (or `NO_LOG`: stop).
    OpenLog(String),
}

/// Every option `uci` announces: the table above, then (in an `spsa` build) the search
/// parameters.
pub fn all_options() -> Vec<(&'static str, OptionKind)> {
    let mut options = OPTIONS.to_vec();
    if cfg!(feature = "spsa") {
        options.extend(SearchParams::TABLE.iter().map(|spec| {
            let kind = OptionKind::Spin {
                default: i64::from(spec.default),
                min: i64::from(spec.min),
                max: i64::from(spec.max),
            };
            (spec.name, kind)
        }));
    }
    options
}

/// Collapses runs of whitespace so `Move   Overhead` matches `Move Overhead`.
fn normalize(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Options {
    /// Applies `setoption name <name> [value <value>]`. On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let wanted = normalize(name);
        let value = value.map(str::trim).unwrap_or("");
        let Some(&(name, kind)) = OPTIONS
            .iter()
            .find(|(known, _)| known.eq_ignore_ascii_case(&wanted))
        else {
            return self.set_search_param(&wanted, value);
        };
        match kind {
            OptionKind::Button => {}
            OptionKind::String { default } => {
                let value = if value.is_empty() || value.eq_ignore_ascii_case("<empty>") {
                    default
                } else {
                    value
                };
                return match name {
                    "EvalFile" => Ok(Effect::LoadNetwork(value.to_string())),
                    "SyzygyPath" => Ok(Effect::LoadTablebases(value.to_string())),
                    "Debug Log File" => Ok(Effect::OpenLog(value.to_string())),
                    _ => Err(format!("option '{name}' is not wired up")),
                };
            }
            OptionKind::Check { .. } => {
                let flag = parse_check(name, value)?;
                match name {
                    "Ponder" => self.ponder = flag,
                    "Adaptive Overhead" => self.adaptive_overhead = flag,
                    "UCI_Chess960" => self.chess960 = flag,
                    "UCI_ShowWDL" => self.show_wdl = flag,
                    "UCI_LimitStrength" => self.strength.limit_strength = flag,
                    "Syzygy50MoveRule" => self.syzygy.fifty_move_rule = flag,
                    _ => return Err(format!("option '{name}' is not wired up")),
                }
            }
            OptionKind::Spin { min, max, .. } => {
                let number = parse_spin(name, value, min, max)?;
                // In range, so the casts below cannot wrap.
                match name {
                    "Hash" => {
                        self.hash_mb = number as usize;
                        return Ok(Effect::ResizeHash(self.hash_mb));
                    }
                    "Threads" => {
                        self.threads = number as usize;
                        return Ok(Effect::SetThreads(self.threads));
                    }
                    "MultiPV" => self.multipv = number as usize,
                    "Move Overhead" => self.move_overhead_ms = number,
                    "UCI_Elo" => self.strength.elo = number as u32,
                    "Skill Level" => self.strength.skill_level = number as u32,
                    "SyzygyProbeDepth" => self.syzygy.probe_depth = number as i32,
                    "SyzygyProbeLimit" => self.syzygy.probe_limit = number as usize,
                    _ => return Err(format!("option '{name}' is not wired up")),
                }
            }
        }
        Ok(match name {
            "Clear Hash" => Effect::ClearHash,
            _ => Effect::None,
        })
    }
}

impl Options {
    /// `setoption` for a name that is not in `OPTIONS`: a search parameter in an `spsa`
    /// build, else unknown.
    fn set_search_param(&mut self, wanted: &str, value: &str) -> Result<Effect, String> {
        let spec = SearchParams::TABLE
            .iter()
            .find(|spec| spec.name.eq_ignore_ascii_case(wanted))
            .filter(|_| cfg!(feature = "spsa"));
        let Some(spec) = spec else {
            return Err(format!("no such option '{wanted}'"));
        };
        let number = parse_spin(spec.name, value, i64::from(spec.min), i64::from(spec.max))?;
        // In range, so the cast cannot wrap and `set` accepts it.
        let accepted = self.search_params.set(spec.name, number as i32);
        debug_assert!(accepted, "{} accepts its own range", spec.name);
        Ok(Effect::SetSearchParams(self.search_params))
    }
}

fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    if value.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if value.eq_ignore_ascii_case("false") {
        Ok(false)
    } else {
        Err(format!(
            "option '{name}' needs value true or false, not '{value}'"
        ))
    }
}

fn parse_spin(name: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    match value.parse::<i64>() {
        Ok(number) if (min..=max).contains(&number) => Ok(number),
        Ok(number) => Err(format!(
            "option '{name}' value {number} is out of range {min}..{max}"
        )),
        Err(_) => Err(format!(
            "option '{name}' needs a whole number from {min} to {max}, not '{value}'"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_may_contain_spaces() {
        let mut options = Options::default();
        assert_eq!(options.set("move  overhead", Some("100")), Ok(Effect::None));
        assert_eq!(options.move_overhead_ms, 100);
        assert_eq!(options.set("hash", Some("64")), Ok(Effect::ResizeHash(64)));
        assert_eq!(options.hash_mb, 64);
        assert_eq!(options.set("CLEAR HASH", None), Ok(Effect::ClearHash));
        assert_eq!(options.set("threads", Some("4")), Ok(Effect::SetThreads(4)));
        assert_eq!(options.set("uci_chess960", Some("TRUE")), Ok(Effect::None));
        assert!(options.chess960);
        assert_eq!(
            options.set("evalfile", Some("/nets/my net.nnue")),
            Ok(Effect::LoadNetwork("/nets/my net.nnue".into()))
        );
        assert_eq!(
            options.set("EvalFile", Some("")),
            Ok(Effect::LoadNetwork(EMBEDDED_NET.into()))
        );
        assert_eq!(
            options.set("syzygypath", Some("/tb/wdl:/tb/dtz")),
            Ok(Effect::LoadTablebases("/tb/wdl:/tb/dtz".into()))
        );
        assert_eq!(
            options.set("SyzygyPath", Some("<empty>")),
            Ok(Effect::LoadTablebases(NO_TABLES.into()))
        );
        assert_eq!(options.set("syzygyprobedepth", Some("8")), Ok(Effect::None));
        assert_eq!(
            options.set("Syzygy50MoveRule", Some("false")),
            Ok(Effect::None)
        );
        assert_eq!(options.set("SyzygyProbeLimit", Some("5")), Ok(Effect::None));
        assert_eq!(
            options.syzygy,
            SyzygySettings {
                probe_depth: 8,
                fifty_move_rule: false,
                probe_limit: 5
            }
        );
        assert!(options.set("SyzygyProbeLimit", Some("8")).is_err());
        assert!(options.set("SyzygyProbeDepth", Some("0")).is_err());
    }

    #[test]
    fn bad_values_keep_the_previous_state() {
        let mut options = Options::default();
        let before = options.clone();
        assert!(options.set("Hash", Some("0")).is_err());
        assert!(options.set("Hash", Some("65537")).is_err());
        assert!(options.set("Hash", Some("lots")).is_err());
        assert!(options.set("Hash", None).is_err());
        assert!(options.set("MultiPV", Some("-3")).is_err());
        assert!(options.set("Ponder", Some("yes")).is_err());
        assert!(options.set("Nonsense", Some("1")).is_err());
        assert!(
            options
                .set("UCI_Elo", Some("99999999999999999999999"))
                .is_err()
        );
        assert_eq!(options, before);
    }

    #[test]
    fn strength_settings_fold_into_one_strength() {
        let mut options = Options::default();
        assert!(options.strength.strength().is_full());
        options.set("Skill Level", Some("0")).expect("in range");
        assert_eq!(options.strength.strength().elo(), MIN_ELO);
        options
            .set("UCI_LimitStrength", Some("true"))
            .expect("valid");
        options.set("UCI_Elo", Some("1500")).expect("in range");
        assert_eq!(options.strength.strength().elo(), 1500);
    }

    #[test]
    fn search_parameters_are_options_only_in_an_spsa_build() {
        let mut options = Options::default();
        let listed = all_options().iter().any(|&(name, _)| name == "rfp_margin");
        let result = options.set("RFP_Margin", Some("120"));
        if cfg!(feature = "spsa") {
            assert!(listed);
            let mut expected = SearchParams::DEFAULT;
            expected.rfp_margin = 120;
            assert_eq!(result, Ok(Effect::SetSearchParams(expected)));
            assert_eq!(options.search_params.rfp_margin, 120);
            assert!(options.set("rfp_margin", Some("100000")).is_err());
            assert_eq!(options.search_params.rfp_margin, 120);
            assert_eq!(
                all_options().len(),
                OPTIONS.len() + SearchParams::TABLE.len()
            );
        } else {
            assert!(!listed);
            assert!(result.is_err());
            assert_eq!(options.search_params, SearchParams::DEFAULT);
        }
    }

    #[test]
    fn every_option_is_described() {
        let lines: Vec<String> = OPTIONS
            .iter()
            .map(|&(name, kind)| describe(name, kind))
            .collect();
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".into()));
        assert!(lines.contains(&"option name Clear Hash type button".into()));
        assert!(lines.contains(&"option name Ponder type check default false".into()));
        assert!(
            lines.contains(&"option name UCI_Elo type spin default 2430 min 600 max 2430".into())
        );
        // Every listed option can be set to its default.
        let mut options = Options::default();
        for (name, kind) in all_options() {
            let value = match kind {
                OptionKind::Spin { default, .. } => Some(default.to_string()),
                OptionKind::Check { default } => Some(default.to_string()),
                OptionKind::Button => None,
                OptionKind::String { default } => Some(default.to_string()),
            };
            assert!(options.set(name, value.as_deref()).is_ok(), "{name}");
        }
    }
}
