//! From `position` text to a `Position`, and back to text for `d`.
//!
//! Moves arrive as UCI text and are matched against the legal moves of the position by
//! `Position::find_uci_move` (castling in both spellings), so nothing illegal ever reaches
//! `make_move`.

use crate::json::Json;
use crate::position::Position;
use crate::position::fen::START_FEN;
use crate::types::{make_square, square_name};

/// The outcome of a `position` command: the position to use and what was dropped from the
/// FEN on the way (one message per dropped castling right or en passant square).
pub struct Setup {
    pub position: Position,
    pub problems: Vec<String>,
}

/// Builds the position for `position startpos|fen … moves …`.
///
/// The FEN is read leniently (`Position::from_fen_lenient`): an impossible castling right or
/// en passant square is dropped and reported, and the position stands. A FEN that cannot be
/// accepted at all, or a move in the list that is not legal where it is played, refuses the
/// whole command (`Err`): the caller then holds no position, never the previous one nor the
/// part of the list before the bad move, so a later `go` cannot answer for another position.
pub fn setup(fen: Option<&str>, moves: &[String], chess960_option: bool) -> Result<Setup, String> {
    let (mut position, problems) =
        Position::from_fen_lenient(fen.unwrap_or(START_FEN)).map_err(|error| error.to_string())?;
    position.set_chess960(chess960_option || position.is_chess960());
    let chess960 = position.is_chess960();
    for (index, text) in moves.iter().enumerate() {
        match position.find_uci_move(text, chess960) {
            Some(mv) => position.make_move(mv),
            None => {
                return Err(format!(
                    "illegal or unknown move '{}' (move {} of the list) in {}",
                    super::command::quote(text),
                    index + 1,
                    position.to_fen()
                ));
            }
        }
    }
    Ok(Setup { position, problems })
}

/// A position without legal moves (a stalemate), for `go` when no valid position is set: the
/// search thread answers it with `bestmove (none)` like any position without moves.
pub fn no_legal_move_position() -> Position {
    Position::from_fen("k7/8/1Q6/8/8/8/8/K7 b - - 0 1").expect("the stalemate FEN is valid")
}

/// The `d` text: the board (white at the bottom), FEN, key and checkers.
/// `d json`: the board's ranks (8 to 1, FEN letters, `.` for empty), FEN, key, checkers.
pub fn display_json(pos: &Position) -> Json {
    let ranks = (0..8).rev().map(|rank| {
        let row: String = (0..8)
            .map(|file| {
                let piece = pos.piece_at(make_square(file, rank));
                if piece.is_none() {
                    '.'
                } else {
                    piece.fen_char()
                }
            })
            .collect();
        Json::from(row)
    });
    Json::object([
        ("fen", Json::from(pos.to_fen())),
        ("key", Json::from(format!("{:016X}", pos.key()))),
        (
            "checkers",
            Json::array(
                pos.checkers()
                    .into_iter()
                    .map(|sq| Json::from(square_name(sq))),
            ),
        ),
        ("side_to_move", Json::from(pos.side_to_move().name())),
        ("board", Json::array(ranks)),
    ])
}

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
    lines.push(format!("Side to move: {}", pos.side_to_move().name()));
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
    fn an_illegal_move_refuses_the_whole_position() {
        let moves = strings(&["e2e4", "e7e5", "e1e3", "d2d4"]);
        let error = setup(None, &moves, false).err().expect("refused");
        assert!(error.contains("'e1e3'"), "{error}");
        assert!(error.contains("move 3 of the list"), "{error}");
        for garbage in ["", "e2", "e2e9", "zzzz", "e7e8q", "0000"] {
            assert!(
                setup(None, &strings(&[garbage]), false).is_err(),
                "'{garbage}'"
            );
        }
    }

    #[test]
    fn impossible_castling_rights_and_en_passant_squares_are_dropped() {
        let result = setup(Some("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), &[], false).expect("accepted");
        assert_eq!(result.position.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(result.problems.len(), 1);
        assert!(result.problems[0].contains("'K'"), "{}", result.problems[0]);
        let result = setup(
            Some("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
            &strings(&["e1e2"]),
            false,
        )
        .expect("accepted");
        assert_eq!(result.position.to_fen(), "4k3/8/8/8/8/8/4K3/8 b - - 1 1");
        assert_eq!(result.problems.len(), 1);
        assert!(result.problems[0].contains("e6"), "{}", result.problems[0]);
    }

    #[test]
    fn the_stand_in_position_has_no_legal_move() {
        let position = no_legal_move_position();
        assert!(position.is_stalemate());
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
        assert!(setup(Some("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"), &[], false).is_err());
        assert!(setup(Some("4k2Q/8/8/8/8/8/8/4K3 w - - 0 1"), &[], false).is_err());
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
