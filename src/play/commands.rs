//! What the player types, read into a typed `Command` at the edge. Anything that is not one
//! of the command words is handed on as a move to be read by `Position::parse_move_text`.

use std::path::PathBuf;

use crate::strength::Strength;
use crate::types::{Square, parse_square};

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
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
    Pgn,
    Save(PathBuf),
    Resign,
    Draw,
    New,
    Quit,
    /// Not a command word: the text of a move (SAN or coordinates).
    Move(String),
}

pub const HELP: &str = "\
Type a move in SAN (e4, Nf3, exd5, O-O, e8=Q; case, x, + and # are optional) or as
coordinates (e2e4, e7e8q). Commands:
  help            this text
  moves [SQUARE]  the legal moves (of the piece on SQUARE)
  hint            Ox88's suggestion for you
  undo            take back your last move and Ox88's reply
  flip            turn the board around
  level LEVEL     easy, normal, hard, extra, master, or an Elo from 600 to 2800
  fen             the position as FEN
  pgn             the game so far as PGN
  save FILE       write the game as PGN to FILE
  draw            offer a draw
  resign          give up the game
  new             start a new game
  quit            leave";

impl Command {
    /// Reads one input line. Errors are explanations for the player.
    pub fn parse(line: &str) -> Result<Command, String> {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((word, rest)) => (word, rest.trim()),
            None => (line, ""),
        };
        let command = match word.to_ascii_lowercase().as_str() {
            "" => Command::Nothing,
            "help" | "?" => Command::Help,
            "moves" | "legal" => {
                if rest.is_empty() {
                    Command::Moves(None)
                } else {
                    let square = parse_square(rest)
                        .ok_or_else(|| format!("'{rest}' is not a square; try e.g. 'moves e2'"))?;
                    Command::Moves(Some(square))
                }
            }
            "hint" => Command::Hint,
            "undo" | "takeback" => Command::Undo,
            "flip" => Command::Flip,
            "level" => {
                if rest.is_empty() {
                    return Err(
                        "say which level: easy, normal, hard, extra, master or an Elo".to_string(),
                    );
                }
                Command::Level(Strength::from_level_name(rest)?)
            }
            "fen" => Command::Fen,
            "pgn" => Command::Pgn,
            "save" => {
                if rest.is_empty() {
                    return Err("say where: save FILE".to_string());
                }
                Command::Save(PathBuf::from(rest))
            }
            "resign" => Command::Resign,
            "draw" => Command::Draw,
            "new" => Command::New,
            "quit" | "exit" => Command::Quit,
            _ => Command::Move(line.to_string()),
        };
        if !rest.is_empty()
            && matches!(
                command,
                Command::Help
                    | Command::Hint
                    | Command::Undo
                    | Command::Flip
                    | Command::Fen
                    | Command::Pgn
                    | Command::Resign
                    | Command::Draw
                    | Command::New
                    | Command::Quit
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
    fn reads_commands_and_moves() {
        assert_eq!(Command::parse("  "), Ok(Command::Nothing));
        assert_eq!(Command::parse("HELP"), Ok(Command::Help));
        assert_eq!(Command::parse("moves"), Ok(Command::Moves(None)));
        assert_eq!(Command::parse("moves e2"), Ok(Command::Moves(Some(0x14))));
        assert!(Command::parse("moves e9").is_err());
        assert_eq!(
            Command::parse("level hard"),
            Ok(Command::Level(Strength::from_elo(1600)))
        );
        assert_eq!(
            Command::parse("level 1850"),
            Ok(Command::Level(Strength::from_elo(1850)))
        );
        assert!(Command::parse("level").is_err());
        assert!(Command::parse("level 9000").is_err());
        assert_eq!(
            Command::parse("save game.pgn"),
            Ok(Command::Save(PathBuf::from("game.pgn")))
        );
        assert!(Command::parse("save").is_err());
        assert!(Command::parse("undo 3").is_err());
        assert_eq!(Command::parse("Nf3"), Ok(Command::Move("Nf3".to_string())));
        assert_eq!(
            Command::parse("e2e4 "),
            Ok(Command::Move("e2e4".to_string()))
        );
        assert_eq!(Command::parse("quit"), Ok(Command::Quit));
    }
}
