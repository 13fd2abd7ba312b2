//! What the player types, read into a typed `PlayCommand` at the edge. Anything that is not one
//! of the command words is handed on as a move to be read by `Position::parse_move_text`.

use std::path::PathBuf;

use crate::strength::Strength;
use crate::types::{Square, parse_square};

/// One line the player typed in `engine play` (not `uci::command::UciCommand`).
#[derive(Clone, Debug, PartialEq)]
pub enum PlayCommand {
    /// An empty line.
    Nothing,
    Help,
    /// All legal moves, or those of the piece on a square.
    Moves(Option<Square>),
    Hint,
    Undo,
    Flip,
    Level(Strength),
    Fen,
    /// `analyze`: material, state, hanging and pinned pieces, king reach, control map.
    Analyze,
    /// `threats`: the control map and the hanging pieces alone.
    Threats,
    Pgn,
    Save(PathBuf),
    Resign,
    Draw,
    New,
    Quit,
    /// Not a command word: the text of a move (SAN or coordinates).
    Move(String),
}

/// The `help` text; the level range comes from `strength::level_choices`.
pub fn help() -> String {
    format!(
        "\
Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q; case, x, + and # are optional) or as
coordinates (e2e4, e7e8q). Commands:
  help            this text
  moves [SQUARE]  the legal moves (of the piece on SQUARE)
  hint            Ox88's suggestion for you
  undo            take back your last move and Ox88's reply
  flip            turn the board around
  level LEVEL     {levels}
  fen             the position as FEN
  analyze         who controls each square, hanging and pinned pieces, material
  threats         the control map and the hanging pieces
  pgn             the game so far as PGN
  save FILE       write the game as PGN to FILE
  draw            offer a draw
  resign          give up the game
  new             start a new game
  quit            leave",
        levels = crate::strength::level_choices()
    )
}

impl PlayCommand {
    /// Reads one input line. Errors are explanations for the player.
    pub fn parse(line: &str) -> Result<PlayCommand, String> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((word, rest)) => (word, rest.trim()),
            None => (line, ""),
        };
        let command = match word.to_ascii_lowercase().as_str() {
            "" => PlayCommand::Nothing,
            "help" | "?" => PlayCommand::Help,
            "moves" | "legal" => {
                if rest.is_empty() {
                    PlayCommand::Moves(None)
                } else {
                    let square = parse_square(rest)
                        .ok_or_else(|| format!("'{rest}' is not a square; try e.g. 'moves e2'"))?;
                    PlayCommand::Moves(Some(square))
                }
            }
            "hint" => PlayCommand::Hint,
            "undo" | "takeback" => PlayCommand::Undo,
            "flip" => PlayCommand::Flip,
            "level" => {
                if rest.is_empty() {
                    return Err(
                        "say which level: easy, normal, hard, extra, master or an Elo".to_string(),
                    );
                }
                PlayCommand::Level(Strength::from_level_name(rest)?)
            }
            "fen" => PlayCommand::Fen,
            "analyze" | "analyse" => PlayCommand::Analyze,
            "threats" => PlayCommand::Threats,
            "pgn" => PlayCommand::Pgn,
            "save" => {
                if rest.is_empty() {
                    return Err("say where: save FILE".to_string());
                }
                PlayCommand::Save(PathBuf::from(rest))
            }
            "resign" => PlayCommand::Resign,
            "draw" => PlayCommand::Draw,
            "new" => PlayCommand::New,
            "quit" | "exit" => PlayCommand::Quit,
            _ => PlayCommand::Move(line.to_string()),
        };
        if !rest.is_empty()
            && matches!(
                command,
                PlayCommand::Help
                    | PlayCommand::Hint
                    | PlayCommand::Undo
                    | PlayCommand::Flip
                    | PlayCommand::Fen
                    | PlayCommand::Analyze
                    | PlayCommand::Threats
                    | PlayCommand::Pgn
                    | PlayCommand::Resign
                    | PlayCommand::Draw
                    | PlayCommand::New
                    | PlayCommand::Quit
            )
        {
            return Err(format!("'{word}' takes no argument"));
        }
        Ok(command)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_gives_the_level_range() {
        let range = format!(
            "an Elo from {} to {}",
            crate::strength::MIN_ELO,
            crate::strength::MAX_ELO
        );
        assert!(help().contains(&range), "help must say {range}");
        assert!(!help().contains('{'), "every placeholder filled");
    }

    #[test]
    fn reads_commands_and_moves() {
        assert_eq!(PlayCommand::parse("  "), Ok(PlayCommand::Nothing));
        assert_eq!(PlayCommand::parse("HELP"), Ok(PlayCommand::Help));
        assert_eq!(PlayCommand::parse("analyse"), Ok(PlayCommand::Analyze));
        assert_eq!(PlayCommand::parse("threats"), Ok(PlayCommand::Threats));
        assert!(PlayCommand::parse("threats now").is_err());
        assert_eq!(PlayCommand::parse("moves"), Ok(PlayCommand::Moves(None)));
        assert_eq!(
            PlayCommand::parse("moves e2"),
            Ok(PlayCommand::Moves(Some(0x14)))
        );
        assert!(PlayCommand::parse("moves e9").is_err());
        assert_eq!(
            PlayCommand::parse("level hard"),
            Ok(PlayCommand::Level(Strength::from_elo(1600)))
        );
        assert_eq!(
            PlayCommand::parse("level 1850"),
            Ok(PlayCommand::Level(Strength::from_elo(1850)))
        );
        assert!(PlayCommand::parse("level").is_err());
        assert!(PlayCommand::parse("level 9000").is_err());
        assert_eq!(
            PlayCommand::parse("save game.pgn"),
            Ok(PlayCommand::Save(PathBuf::from("game.pgn")))
        );
        assert!(PlayCommand::parse("save").is_err());
        assert!(PlayCommand::parse("undo 3").is_err());
        assert_eq!(
            PlayCommand::parse("Nf3"),
            Ok(PlayCommand::Move("Nf3".to_string()))
        );
        assert_eq!(
            PlayCommand::parse("e2e4 "),
            Ok(PlayCommand::Move("e2e4".to_string()))
        );
        assert_eq!(PlayCommand::parse("quit"), Ok(PlayCommand::Quit));
    }
}
