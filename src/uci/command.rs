//! Text to typed `UciCommand`: the one place that looks at the words of a UCI line.
//!
//! Parsing is forgiving where the protocol asks for it: words are split on any whitespace
//! (tabs, CR of CRLF), an unknown leading word is skipped to the next known command
//! ("joho debug on" switches debug on), and inside `go` an unknown word or a missing or
//! non-numeric value is skipped with a warning while the rest of the line still counts.
//! Whatever cannot be understood at all becomes a `ParseError`, which the loop reports as an
//! `info string`. Nothing here knows the position: moves stay text until the loop checks them
//! against the legal moves.

use std::fmt;
use std::str::FromStr;

use crate::types::Color;

/// One line from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    Uci,
    IsReady,
    UciNewGame,
    /// `position startpos|fen <FEN> [moves …]`; `fen` is `None` for the start position.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoCommand),
    Stop,
    PonderHit,
    Quit,
    /// `setoption name <name> [value <value>]`, both possibly containing spaces.
    SetOption {
        name: String,
        value: Option<String>,
    },
    Debug(bool),
    /// `d [json]`: draw the board, FEN, key and checkers.
    Display {
        json: bool,
    },
    /// `eval [json]`: the network's evaluation and each piece's contribution.
    Eval {
        json: bool,
    },
    /// `analyze [json]`: the control map, hanging and pinned pieces, material, moves.
    Analyze {
        json: bool,
    },
    /// `bench [depth]`.
    Bench {
        depth: Option<i32>,
    },
    /// Words skipped before a known command (reported), then that command.
    Skipped {
        skipped: String,
        command: Box<UciCommand>,
    },
}

/// The arguments of `go`, still unrelated to any position or option.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<i64>,
    pub mate: Option<i32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// `go perft N` (an extension): count leaf nodes instead of searching.
    pub perft: Option<u32>,
    /// What was skipped, one message per problem, for `info string` lines.
    pub warnings: Vec<String>,
}

impl GoCommand {
    /// `side`'s clock as `go` gives it: remaining time and increment, in ms.
    pub fn clock(&self, side: Color) -> (Option<i64>, Option<i64>) {
        match side {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A blank line: not an error worth reporting.
    Empty,
    Unknown(String),
    Invalid(String),
    /// A malformed `position` command: the session then holds no position.
    Position(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty line"),
            ParseError::Unknown(word) => write!(f, "unknown command '{word}'"),
            ParseError::Invalid(message) | ParseError::Position(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Longest excerpt of user text quoted back in a message (lines may be 100 000 bytes long).
const QUOTE_LIMIT: usize = 60;

/// `text` cut to `QUOTE_LIMIT` characters, with an ellipsis when cut.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_LIMIT) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

const COMMAND_WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "setoption",
    "debug",
    "d",
    "eval",
    "analyze",
    "bench",
];

impl FromStr for UciCommand {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<UciCommand, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return Err(ParseError::Empty);
        };
        if COMMAND_WORDS.contains(&first) {
            return parse_words(&words);
        }
        match words.iter().position(|word| COMMAND_WORDS.contains(word)) {
            Some(index) => Ok(UciCommand::Skipped {
                skipped: quote(&words[..index].join(" ")),
                command: Box::new(parse_words(&words[index..])?),
            }),
            None => Err(ParseError::Unknown(quote(first))),
        }
    }
}

/// Parses words whose first one is a command word.
fn parse_words(words: &[&str]) -> Result<UciCommand, ParseError> {
    let arguments = &words[1..];
    let no_arguments = |command: UciCommand| Ok(command);
    match words[0] {
        "uci" => no_arguments(UciCommand::Uci),
        "isready" => no_arguments(UciCommand::IsReady),
        "ucinewgame" => no_arguments(UciCommand::UciNewGame),
        "stop" => no_arguments(UciCommand::Stop),
        "ponderhit" => no_arguments(UciCommand::PonderHit),
        "quit" => no_arguments(UciCommand::Quit),
        "d" => json_flag(words).map(|json| UciCommand::Display { json }),
        "eval" => json_flag(words).map(|json| UciCommand::Eval { json }),
        "analyze" => json_flag(words).map(|json| UciCommand::Analyze { json }),
        "position" => parse_position(arguments),
        "go" => Ok(UciCommand::Go(parse_go(arguments))),
        "setoption" => parse_setoption(arguments),
        "debug" => match arguments.first() {
            Some(&"on") => Ok(UciCommand::Debug(true)),
            Some(&"off") => Ok(UciCommand::Debug(false)),
            _ => Err(ParseError::Invalid("debug needs 'on' or 'off'".into())),
        },
        "bench" => match arguments.first() {
            None => Ok(UciCommand::Bench { depth: None }),
            Some(text) => match text.parse::<i32>() {
                Ok(depth) if (1..=64).contains(&depth) => {
                    Ok(UciCommand::Bench { depth: Some(depth) })
                }
                _ => Err(ParseError::Invalid(format!(
                    "bench depth must be a number from 1 to 64, not '{}'",
                    quote(text)
                ))),
            },
        },
        other => Err(ParseError::Unknown(quote(other))),
    }
}

/// The one optional word of `d`, `eval` and `analyze`: `json` for a JSON document.
fn json_flag(words: &[&str]) -> Result<bool, ParseError> {
    match &words[1..] {
        [] => Ok(false),
        ["json"] => Ok(true),
        _ => Err(ParseError::Invalid(format!(
            "{} takes no argument or the word 'json', not '{}'",
            words[0],
            quote(&words[1..].join(" "))
        ))),
    }
}

fn parse_position(arguments: &[&str]) -> Result<UciCommand, ParseError> {
    let moves_at = arguments.iter().position(|&word| word == "moves");
    let (setup, moves) = match moves_at {
        Some(index) => (&arguments[..index], &arguments[index + 1..]),
        None => (arguments, &[][..]),
    };
    let moves = moves.iter().map(|word| word.to_string()).collect();
    match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Ok(UciCommand::Position { fen: None, moves }),
        Some(&"startpos") => Err(ParseError::Position(format!(
            "position startpos: unexpected '{}' (moves must follow the word 'moves')",
            quote(&setup[1..].join(" "))
        ))),
        Some(&"fen") if setup.len() > 1 => Ok(UciCommand::Position {
            fen: Some(setup[1..].join(" ")),
            moves,
        }),
        Some(&"fen") => Err(ParseError::Position(
            "position fen: the FEN is missing".into(),
        )),
        Some(other) => Err(ParseError::Position(format!(
            "position needs 'startpos' or 'fen <FEN>', not '{}'",
            quote(other)
        ))),
        None => Err(ParseError::Position(
            "position needs 'startpos' or 'fen <FEN>'".into(),
        )),
    }
}

fn parse_setoption(arguments: &[&str]) -> Result<UciCommand, ParseError> {
    if arguments.first() != Some(&"name") {
        return Err(ParseError::Invalid(
            "setoption needs 'name <name> [value <value>]'".into(),
        ));
    }
    let rest = &arguments[1..];
    let (name, value) = match rest.iter().position(|&word| word == "value") {
        Some(index) => (&rest[..index], Some(rest[index + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(ParseError::Invalid(
            "setoption: the option name is missing".into(),
        ));
    }
    Ok(UciCommand::SetOption {
        name: name.join(" "),
        value,
    })
}

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// The value after a `go` keyword, or a warning. Never consumes a following keyword.
fn take_number<T: FromStr>(
    keyword: &str,
    words: &[&str],
    index: &mut usize,
    warnings: &mut Vec<String>,
) -> Option<T> {
    let Some(text) = words
        .get(*index + 1)
        .filter(|word| !GO_KEYWORDS.contains(word))
    else {
        warnings.push(format!("go: '{keyword}' needs a number, ignored"));
        return None;
    };
    *index += 1;
    match text.parse() {
        Ok(value) => Some(value),
        Err(_) => {
            warnings.push(format!(
                "go: '{keyword} {}' is not a valid number, ignored",
                quote(text)
            ));
            None
        }
    }
}

fn parse_go(words: &[&str]) -> GoCommand {
    let mut go = GoCommand::default();
    let mut warnings = Vec::new();
    let mut index = 0;
    while index < words.len() {
        let word = words[index];
        let warnings = &mut warnings;
        match word {
            "wtime" => go.wtime = take_number(word, words, &mut index, warnings),
            "btime" => go.btime = take_number(word, words, &mut index, warnings),
            "winc" => go.winc = take_number(word, words, &mut index, warnings),
            "binc" => go.binc = take_number(word, words, &mut index, warnings),
            "movestogo" => go.movestogo = take_number(word, words, &mut index, warnings),
            "depth" => go.depth = take_number(word, words, &mut index, warnings),
            "nodes" => go.nodes = take_number(word, words, &mut index, warnings),
            "movetime" => go.movetime = take_number(word, words, &mut index, warnings),
            "mate" => go.mate = take_number(word, words, &mut index, warnings),
            "perft" => go.perft = take_number(word, words, &mut index, warnings),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(&next) = words.get(index + 1) {
                    if GO_KEYWORDS.contains(&next) {
                        break;
                    }
                    go.searchmoves.push(next.to_string());
                    index += 1;
                }
            }
            other => warnings.push(format!("go: unknown word '{}' ignored", quote(other))),
        }
        index += 1;
    }
    go.warnings = warnings;
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<UciCommand, ParseError> {
        line.parse()
    }

    fn go(line: &str) -> GoCommand {
        match parse(line) {
            Ok(UciCommand::Go(go)) => go,
            other => panic!("expected go from '{line}', got {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(UciCommand::Uci));
        assert_eq!(parse("isready\r"), Ok(UciCommand::IsReady));
        assert_eq!(parse("  \tquit  "), Ok(UciCommand::Quit));
        assert_eq!(parse("ucinewgame"), Ok(UciCommand::UciNewGame));
        assert_eq!(parse("ponderhit"), Ok(UciCommand::PonderHit));
        assert_eq!(parse("debug on"), Ok(UciCommand::Debug(true)));
        assert_eq!(parse("d"), Ok(UciCommand::Display { json: false }));
        assert_eq!(parse("d json"), Ok(UciCommand::Display { json: true }));
        assert_eq!(parse("eval json"), Ok(UciCommand::Eval { json: true }));
        assert_eq!(parse("analyze"), Ok(UciCommand::Analyze { json: false }));
        assert!(matches!(parse("analyze xml"), Err(ParseError::Invalid(_))));
        assert_eq!(parse("bench 5"), Ok(UciCommand::Bench { depth: Some(5) }));
        assert!(parse("bench 0").is_err());
        assert!(parse("debug maybe").is_err());
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert_eq!(parse(" \t\r"), Err(ParseError::Empty));
        assert_eq!(parse("xyzzy"), Err(ParseError::Unknown("xyzzy".into())));
    }

    #[test]
    fn unknown_leading_words_are_skipped() {
        assert_eq!(
            parse("joho debug on"),
            Ok(UciCommand::Skipped {
                skipped: "joho".into(),
                command: Box::new(UciCommand::Debug(true))
            })
        );
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(UciCommand::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - -\tmoves a1a2"),
            Ok(UciCommand::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - -".into()),
                moves: vec!["a1a2".into()]
            })
        );
        assert_eq!(
            parse("position startpos moves"),
            Ok(UciCommand::Position {
                fen: None,
                moves: vec![]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position fen moves e2e4").is_err());
        assert!(parse("position startpos e2e4").is_err());
        assert!(parse("position somewhere").is_err());
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name Book File value /tmp/my book.bin"),
            Ok(UciCommand::SetOption {
                name: "Book File".into(),
                value: Some("/tmp/my book.bin".into())
            })
        );
        assert!(parse("setoption Hash 16").is_err());
        assert!(parse("setoption name").is_err());
        assert!(parse("setoption name value 3").is_err());
    }

    #[test]
    fn go_in_any_order_and_subset() {
        let full = go(
            "go wtime 1000 btime -50 winc 10 binc 0 movestogo 40 depth 7 nodes 123456 \
             movetime 500 mate 3 infinite ponder",
        );
        assert_eq!(full.wtime, Some(1000));
        assert_eq!(full.btime, Some(-50));
        assert_eq!((full.winc, full.binc), (Some(10), Some(0)));
        assert_eq!(full.movestogo, Some(40));
        assert_eq!(full.depth, Some(7));
        assert_eq!(full.nodes, Some(123456));
        assert_eq!(full.movetime, Some(500));
        assert_eq!(full.mate, Some(3));
        assert!(full.infinite && full.ponder);
        assert!(full.warnings.is_empty());

        let reordered = go("go ponder binc 5 btime 100 wtime 200");
        assert_eq!(
            (reordered.wtime, reordered.btime, reordered.binc),
            (Some(200), Some(100), Some(5))
        );
        assert!(reordered.ponder && !reordered.infinite);

        assert_eq!(go("go"), GoCommand::default());
        assert_eq!(go("go perft 3").perft, Some(3));
    }

    #[test]
    fn searchmoves_run_to_the_next_keyword() {
        let parsed = go("go searchmoves e2e4 d2d4 depth 3");
        assert_eq!(parsed.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(parsed.depth, Some(3));
        let last = go("go depth 2 searchmoves g1f3");
        assert_eq!(last.searchmoves, vec!["g1f3"]);
    }

    #[test]
    fn bad_go_values_are_skipped_with_warnings() {
        let parsed = go("go depth x wtime 10.5 banana movestogo -1 btime 300 nodes");
        assert_eq!(parsed.depth, None);
        assert_eq!(parsed.wtime, None);
        assert_eq!(parsed.movestogo, None);
        assert_eq!(parsed.btime, Some(300));
        assert_eq!(parsed.nodes, None);
        assert_eq!(parsed.warnings.len(), 5, "{:?}", parsed.warnings);
        // A missing value does not swallow the next keyword.
        let parsed = go("go depth infinite");
        assert!(parsed.infinite);
        assert_eq!(parsed.depth, None);
        let huge = go("go wtime 99999999999999999999999");
        assert_eq!(huge.wtime, None);
    }

    #[test]
    fn long_words_are_quoted_short() {
        let long = "x".repeat(100_000);
        match parse(&long) {
            Err(ParseError::Unknown(word)) => assert_eq!(word.len(), QUOTE_LIMIT + 3),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            quote("é".repeat(100).as_str()).chars().count(),
            QUOTE_LIMIT + 3
        );
    }
}
