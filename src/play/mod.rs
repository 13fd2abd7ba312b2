//! `engine play`: a game against Ox88 in the terminal.
//!
//! This file reads the command line into checked `Settings` (bad values end the program with
//! one line on stderr and exit code 2, before anything is drawn); `session` runs the games.
//!
//! Module map: `session` (the loop, `PlaySession`), `game` (one game's state and rules of its
//! end, `PlayGame`), `commands` (typed input, `PlayCommand`), `explain` (refusals and move
//! lists in words), `engine` (Ox88 as a player), `clock`, `pgn`, `input` (stdin on a
//! thread); the board is drawn by `crate::board_view`, shared with `engine analyze`.

pub mod clock;
pub mod commands;
pub mod engine;
pub mod explain;
pub mod game;
pub mod input;
pub mod pgn;
pub mod session;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::play::clock::TimeControl;
use crate::position::Position;
use crate::position::fen::START_FEN;
use crate::strength::Strength;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Your colour: white, black or random.
    #[arg(long, default_value = "white")]
    pub color: String,
    // The help names the levels through `strength::level_choices`, so it follows MAX_ELO.
    #[arg(
        long,
        default_value = "normal",
        help = format!("Ox88's strength: {}.", crate::strength::level_choices())
    )]
    pub level: String,
    /// Clocks for both sides: MINUTES+SECONDS increment, e.g. 5+3. Default: no clock.
    #[arg(long)]
    pub time: Option<String>,
    /// Start from this position instead of the initial one.
    #[arg(long)]
    pub fen: Option<String>,
    /// Plain ASCII board without colours (also the default when stdout is not a terminal).
    #[arg(long)]
    pub no_color: bool,
    /// Save each game as PGN to this file when it ends.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Seed for the random colour and the engine's choices (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// The command line, checked.
pub struct Settings {
    pub color: ColorChoice,
    pub strength: Strength,
    pub time: Option<TimeControl>,
    pub start: Position,
    /// The `--fen` text, for the PGN `FEN` tag.
    pub setup_fen: Option<String>,
    /// Unicode pieces and ANSI colours.
    pub colour: bool,
    pub pgn_path: Option<PathBuf>,
    pub seed: Option<u64>,
}

impl Settings {
    pub fn from_args(args: &PlayArgs) -> Result<Settings, String> {
        let color = match args.color.trim().to_ascii_lowercase().as_str() {
            "white" | "w" => ColorChoice::White,
            "black" | "b" => ColorChoice::Black,
            "random" => ColorChoice::Random,
            other => {
                return Err(format!("bad --color '{other}': use white, black or random"));
            }
        };
        let strength = Strength::from_level_name(&args.level)
            .map_err(|reason| format!("bad --level: {reason}"))?;
        let time = args
            .time
            .as_deref()
            .map(TimeControl::parse)
            .transpose()
            .map_err(|why| format!("bad --time: {why}"))?;
        let (start, setup_fen) = match &args.fen {
            None => (Position::startpos(), None),
            Some(text) => {
                let position = Position::from_fen(text.trim())
                    .map_err(|error| format!("bad --fen: {error}"))?;
                let fen = position.to_fen();
                let setup = (fen != START_FEN).then_some(fen);
                (position, setup)
            }
        };
        let colour = !args.no_color
            && std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty());
        Ok(Settings {
            color,
            strength,
            time,
            start,
            setup_fen,
            colour,
            pgn_path: args.pgn.clone(),
            seed: args.seed,
        })
    }
}

pub fn run(args: &PlayArgs) -> ExitCode {
    match Settings::from_args(args) {
        Ok(settings) => session::PlaySession::new(settings).run(),
        Err(reason) => {
            eprintln!("engine: {reason}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PlayArgs;
    use crate::strength::{MAX_ELO, MIN_ELO};

    #[test]
    fn level_help_gives_the_range() {
        let command = <PlayArgs as clap::Args>::augment_args(clap::Command::new("play"));
        let level = command
            .get_arguments()
            .find(|argument| argument.get_id() == "level")
            .expect("a --level argument");
        let help = level.get_help().expect("help for --level").to_string();
        let range = format!("an Elo from {MIN_ELO} to {MAX_ELO}");
        assert!(
            help.contains(&range),
            "--level help {help:?} must say {range}"
        );
    }
}
