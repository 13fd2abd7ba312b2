//! From `position` text to a `Position`, and back to text for `d`.
//!
//! Moves arrive as UCI text and are matched against the legal moves of the position, so
//! nothing illegal ever reaches `make_move`. Castling is accepted in both spellings: the one
//! the current mode writes (`e1g1`, or king-takes-rook `e1h1` under UCI_Chess960) first, the
//! other as a fallback for castling moves only, so a GUI that mixes them still works and an
//! ordinary king move is never mistaken for castling.

use crate::moves::Move;
use crate::position::Position;
use crate::position::fen::START_FEN;
use crate::types::{Color, make_square, square_name};

/// The legal move written `text` here, if any.
pub fn find_move(pos: &Position, text: &str, chess960: bool) -> Option<Move> {
    let text = text.to_ascii_lowercase();
    let legal = pos.legal_moves();
    legal
        .iter()
        .find(|mv| mv.to_uci(chess960) == text)
        .or_else(|| {
            legal
                .iter()
                .find(|mv| mv.is_castle() && mv.to_uci(!chess960) == text)
        })
        .copied()
}

/// The outcome of a `position` command: the position to use and what went wrong on the way.
pub struct Setup {
    pub position: Position,
    pub problems: Vec<String>,
}

/// Builds the position for `position startpos|fen … moves …`.
///
/// A bad FEN gives `Err` (the caller keeps its previous position). A bad move ends the replay
/// there: the position before it stands, and the problem is reported.
pub fn setup(fen: Option<&str>, moves: &[String], chess960_option: bool) -> Result<Setup, String> {
    let mut position =
        Position::from_fen(fen.unwrap_or(START_FEN)).map_err(|error| error.to_string())?;
    position.set_chess960(chess960_option || position.is_chess960());
    let chess960 = position.is_chess960();
    let mut problems = Vec::new();
    for (index, text) in moves.iter().enumerate() {
        match find_move(&position, text, chess960) {
            Some(mv) => position.make_move(mv),
            None => {
                problems.push(format!(
                    "illegal or unknown move '{}' (move {} of the list) in {}; the position \
                     before it is kept",
                    super::command::quote(text),
                    index + 1,
                    position.to_fen()
                ));
                break;
            }
        }
    }
    Ok(Setup { position, problems })
}

/// The `d` text: the board (white at the bottom), FEN, key and checkers.
pub fn display(pos: &Position) -> Vec<String> {
    let separator = " +---+---+---+---+---+---+---+---+".to_string();
    let mut lines = vec![String::new(), separator.clone()];
    for rank in (0..8).rev() {
        let mut row = String::from(" |");
        for file in 0..8 {
            let piece = pos.piece_at(make_square(file, rank));
            let letter = if piece.is_none() {
                ' '
            } else {
                piece.fen_char()
            };
            row.push_str(&format!(" {letter} |"));
        }
        row.push_str(&format!(" {}", rank + 1));
        lines.push(row);
        lines.push(separator.clone());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_string());
    lines.push(String::new());
    lines.push(format!("Fen: {}", pos.to_fen()));
    lines.push(format!("Key: {:016X}", pos.key()));
    let checkers: Vec<String> = pos.checkers().into_iter().map(square_name).collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    lines.push(format!(
        "Side to move: {}",
        match pos.side_to_move() {
            Color::White => "white",
            Color::Black => "black",
        }
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|text| text.to_string()).collect()
    }

    #[test]
    fn replays_moves_and_keeps_history() {
        let moves = strings(&[
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ]);
        let result = setup(None, &moves, false).expect("start position");
        assert!(result.problems.is_empty());
        assert_eq!(result.position.history().len(), 8);
        assert!(result.position.is_threefold());
    }

    #[test]
    fn an_illegal_move_stops_the_replay() {
        let moves = strings(&["e2e4", "e7e5", "e1e3", "d2d4"]);
        let result = setup(None, &moves, false).expect("start position");
        assert_eq!(result.problems.len(), 1);
        assert!(
            result.problems[0].contains("'e1e3'"),
            "{}",
            result.problems[0]
        );
        assert_eq!(
            result.position.to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        for garbage in ["", "e2", "e2e9", "zzzz", "e7e8q", "0000"] {
            let result = setup(None, &strings(&[garbage]), false).expect("start position");
            assert_eq!(result.problems.len(), 1, "'{garbage}'");
            assert_eq!(result.position.history().len(), 0);
        }
    }

    #[test]
    fn bad_fens_are_errors() {
        assert!(setup(Some("8/8/8/8 w - -"), &[], false).is_err());
        assert!(
            setup(
                Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
                &[],
                false
            )
            .is_err()
        );
        assert!(setup(Some("8/8/8/8/8/8/8/8 w - - 0 1"), &[], false).is_err());
        let four_fields = setup(Some("4k3/8/8/8/8/8/8/4K2R w K -"), &[], false);
        assert!(four_fields.is_ok());
    }

    #[test]
    fn castling_in_both_spellings() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let standard = setup(Some(fen), &strings(&["e1g1", "e8c8"]), false).expect("fen");
        assert!(standard.problems.is_empty());
        let king_takes_rook = setup(Some(fen), &strings(&["e1h1", "e8a8"]), true).expect("fen");
        assert!(king_takes_rook.problems.is_empty());
        assert_eq!(
            standard.position.to_fen(),
            king_takes_rook.position.to_fen()
        );
        // Either spelling is understood in either mode.
        let mixed = setup(Some(fen), &strings(&["e1h1", "e8c8"]), false).expect("fen");
        assert!(mixed.problems.is_empty());
        assert_eq!(mixed.position.to_fen(), standard.position.to_fen());
        // Promotion letters in upper case are forgiven.
        let promotion = setup(
            Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
            &strings(&["a7a8Q"]),
            false,
        )
        .expect("fen");
        assert!(promotion.problems.is_empty());
    }

    #[test]
    fn checkers_and_display() {
        let double = Position::from_fen("4k3/8/8/8/7b/8/4r3/4K3 w - - 0 1").expect("fen");
        // The rook on e2 checks; the bishop on h4 checks along h4-e1.
        let names: Vec<String> = double.checkers().into_iter().map(square_name).collect();
        assert_eq!(names, vec!["e2", "h4"]);
        let pawn = Position::from_fen("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1").expect("fen");
        assert_eq!(pawn.checkers().len(), 1);
        let lines = display(&Position::startpos());
        assert!(lines.contains(&" | r | n | b | q | k | b | n | r | 8".to_string()));
        assert!(
            lines
                .iter()
                .any(|line| line == &format!("Fen: {START_FEN}"))
        );
        assert!(lines.iter().any(|line| line == "Checkers: "));
    }
}
