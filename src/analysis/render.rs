//! An `Analysis` as a person reads it (the board, then one labelled paragraph per concern and
//! the control map as a second board) and as one JSON document with the same figures.
//!
//! The control map's cell for a square is `white/black`: each side's number of attackers,
//! each followed by the letter of its cheapest attacker (upper case white, lower case black),
//! e.g. `2P/1n`: two white attackers, the cheapest a pawn; one black, a knight. In colour the
//! cell is tinted by the side with more attackers.

use std::fmt::Write;

use super::{Analysis, Material, PieceReport, SquareControl, reading_order};
use crate::board_view::{self, Style};
use crate::json::Json;
use crate::position::Position;
use crate::types::{Color, Piece, PieceType, Square, make_square, square_name};

const RESET: &str = "\x1b[0m";
const WHITE_HOLDS: &str = "\x1b[30;48;5;151m";
const BLACK_HOLDS: &str = "\x1b[30;48;5;181m";
const CONTESTED: &str = "\x1b[30;48;5;229m";
/// Width of one control-map cell: room for `10Q/10q`.
const CELL: usize = 7;

/// `Nf6` for a knight on f6 (pawns by their square alone).
fn piece_on(piece: Piece, square: Square) -> String {
    match piece.kind() {
        PieceType::Pawn => square_name(square),
        kind => format!("{}{}", kind.letter(), square_name(square)),
    }
}

fn material_text(material: &Material) -> String {
    let parts: Vec<String> = PieceType::ALL[..5]
        .iter()
        .enumerate()
        .filter(|&(index, _)| material.counts[index] > 0)
        .map(|(index, kind)| format!("{}{}", material.counts[index], kind.letter()))
        .collect();
    if parts.is_empty() {
        format!("{} (king only)", material.points)
    } else {
        format!("{} ({})", material.points, parts.join(" "))
    }
}

fn control_cell(control: &SquareControl) -> String {
    let side = |color: Color| {
        let count = control.attackers[color.index()];
        match control.lowest[color.index()] {
            Some(kind) => {
                let letter = kind.letter();
                let letter = match color {
                    Color::White => letter,
                    Color::Black => letter.to_ascii_lowercase(),
                };
                format!("{count}{letter}")
            }
            None => count.to_string(),
        }
    };
    format!("{}/{}", side(Color::White), side(Color::Black))
}

/// The state line: who moves, how many moves, check, mate, stalemate, draws by rule.
fn state_text(analysis: &Analysis, pos: &Position) -> String {
    let side = analysis.side_to_move.name();
    let mut text = if analysis.checkmate {
        format!("{side} is checkmated")
    } else if analysis.stalemate {
        format!("{side} to move is stalemated")
    } else {
        format!("{side} to move, {} legal moves", analysis.legal_moves)
    };
    if !analysis.checkers.is_empty() {
        let checkers: Vec<String> = analysis
            .checkers
            .iter()
            .map(|&sq| piece_on(pos.piece_at(sq), sq))
            .collect();
        let _ = write!(text, "; in check from {}", checkers.join(" and "));
    }
    if analysis.insufficient_material {
        text.push_str("; drawn: insufficient material");
    }
    if analysis.fifty_move_rule {
        text.push_str("; the fifty-move rule can be claimed");
    }
    text
}

fn list_or_none(items: Vec<String>, separator: &str) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(separator)
    }
}

/// The analysis as text: the board from white's side, then the paragraphs and the map.
pub fn text(analysis: &Analysis, pos: &Position, style: Style) -> String {
    let mut out = board_view::draw(pos, Color::White, style, &[]);
    let _ = writeln!(out, "FEN         {}", analysis.fen);
    out.push_str(&details(analysis, pos, style));
    out
}

/// Everything of `text` after the board and the FEN (what UCI `d` adds to its own board).
pub fn details(analysis: &Analysis, pos: &Position, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Material    white {}   black {}   balance {:+}",
        material_text(&analysis.material[0]),
        material_text(&analysis.material[1]),
        analysis.balance()
    );
    let _ = writeln!(out, "State       {}", state_text(analysis, pos));

    out.push_str(&hanging_line(analysis));
    let pinned: Vec<String> = analysis
        .pieces
        .iter()
        .filter_map(|piece| {
            let by = piece.pinned_by?;
            Some(format!(
                "{} {} by {}",
                piece.piece.color().name(),
                piece_on(piece.piece, piece.square),
                piece_on(pos.piece_at(by), by)
            ))
        })
        .collect();
    let _ = writeln!(out, "Pinned      {}", list_or_none(pinned, ", "));
    let reach: Vec<String> = [Color::White, Color::Black]
        .iter()
        .map(|&color| {
            let squares: Vec<String> = analysis.king_reach[color.index()]
                .iter()
                .map(|&sq| square_name(sq))
                .collect();
            format!(
                "{} K{}: {}",
                color.name(),
                square_name(pos.king_square(color)),
                list_or_none(squares, " ")
            )
        })
        .collect();
    let _ = writeln!(out, "King reach  {}", reach.join("   "));
    let moves: Vec<String> = analysis
        .pieces
        .iter()
        .filter(|piece| !piece.moves.is_empty())
        .map(|piece| {
            format!(
                "{}: {}",
                piece_on(piece.piece, piece.square),
                piece.moves.join(" ")
            )
        })
        .collect();
    let _ = writeln!(out, "Moves       {}", list_or_none(moves, " | "));
    out.push('\n');
    out.push_str(&control_map(analysis, style));
    out
}

/// `Hanging     ...`: the hanging pieces, with how often each is attacked and defended.
pub fn hanging_line(analysis: &Analysis) -> String {
    let hanging: Vec<String> = analysis
        .pieces
        .iter()
        .filter(|piece| piece.hanging)
        .map(|piece| {
            format!(
                "{} {} ({} attacked, {} defended)",
                piece.piece.color().name(),
                piece_on(piece.piece, piece.square),
                piece.attackers,
                piece.defenders
            )
        })
        .collect();
    format!("Hanging     {}\n", list_or_none(hanging, ", "))
}

/// The control map alone (also `engine play`'s `threats`).
pub fn control_map(analysis: &Analysis, style: Style) -> String {
    let mut out = String::from(
        "Control: attackers white/black on each square, with each side's cheapest attacker\n",
    );
    let mut letters = String::from("    ");
    for file in 0..8u8 {
        let _ = write!(letters, "{:^CELL$}", (b'a' + file) as char);
    }
    let _ = writeln!(out, "{}", letters.trim_end());
    for rank in (0..8u8).rev() {
        let _ = write!(out, " {}  ", rank + 1);
        for file in 0..8u8 {
            let control = analysis.control_at(make_square(file, rank));
            let cell = format!("{:^CELL$}", control_cell(control));
            match style {
                Style::Plain => out.push_str(&cell),
                Style::Colour => {
                    let tint = match control.holder() {
                        Some(Color::White) => WHITE_HOLDS,
                        Some(Color::Black) => BLACK_HOLDS,
                        None if control.attackers[0] > 0 => CONTESTED,
                        None => "",
                    };
                    if tint.is_empty() {
                        out.push_str(&cell);
                    } else {
                        let _ = write!(out, "{tint}{cell}{RESET}");
                    }
                }
            }
        }
        let _ = writeln!(out, "  {}", rank + 1);
    }
    let _ = writeln!(out, "{}", letters.trim_end());
    out
}

fn lowest_json(kind: Option<PieceType>) -> Json {
    kind.map_or(Json::Null, |kind| Json::from(kind.name()))
}

fn material_json(material: &Material) -> Json {
    let mut pairs: Vec<(String, Json)> = PieceType::ALL
        .iter()
        .enumerate()
        .map(|(index, &kind)| {
            (
                format!("{}s", kind.name()),
                Json::from(u32::from(material.counts[index])),
            )
        })
        .collect();
    pairs.push(("points".to_string(), Json::from(material.points)));
    Json::Object(pairs)
}

fn piece_json(piece: &PieceReport) -> Json {
    Json::object([
        ("square", Json::from(square_name(piece.square))),
        ("piece", Json::from(piece.piece.fen_char().to_string())),
        ("color", Json::from(piece.piece.color().name())),
        ("kind", Json::from(piece.piece.kind().name())),
        ("attackers", Json::from(u32::from(piece.attackers))),
        ("defenders", Json::from(u32::from(piece.defenders))),
        ("hanging", Json::from(piece.hanging)),
        ("pinned_by", Json::from(piece.pinned_by.map(square_name))),
        (
            "moves",
            Json::array(piece.moves.iter().map(|san| Json::from(san.as_str()))),
        ),
    ])
}

fn squares_json(squares: &[Square]) -> Json {
    Json::array(squares.iter().map(|&sq| Json::from(square_name(sq))))
}

/// The analysis as one JSON document (squares of the control map in a1, b1 .. h8 order).
pub fn json(analysis: &Analysis) -> Json {
    let control = (0..64).map(|index| {
        let square = crate::types::from_64(index);
        let entry = &analysis.control[index];
        Json::object([
            ("square", Json::from(square_name(square))),
            ("white", Json::from(u32::from(entry.attackers[0]))),
            ("black", Json::from(u32::from(entry.attackers[1]))),
            ("lowest_white", lowest_json(entry.lowest[0])),
            ("lowest_black", lowest_json(entry.lowest[1])),
        ])
    });
    Json::object([
        ("fen", Json::from(analysis.fen.as_str())),
        ("side_to_move", Json::from(analysis.side_to_move.name())),
        (
            "material",
            Json::object([
                ("white", material_json(&analysis.material[0])),
                ("black", material_json(&analysis.material[1])),
                ("balance", Json::from(analysis.balance())),
            ]),
        ),
        (
            "state",
            Json::object([
                ("legal_moves", Json::from(analysis.legal_moves)),
                ("check", Json::from(!analysis.checkers.is_empty())),
                ("checkers", squares_json(&analysis.checkers)),
                ("checkmate", Json::from(analysis.checkmate)),
                ("stalemate", Json::from(analysis.stalemate)),
                (
                    "insufficient_material",
                    Json::from(analysis.insufficient_material),
                ),
                ("fifty_move_rule", Json::from(analysis.fifty_move_rule)),
            ]),
        ),
        (
            "pieces",
            Json::array(analysis.pieces.iter().map(piece_json)),
        ),
        (
            "king_reach",
            Json::object([
                ("white", squares_json(&analysis.king_reach[0])),
                ("black", squares_json(&analysis.king_reach[1])),
            ]),
        ),
        ("control", Json::array(control)),
    ])
}

/// The squares in reading order with their cells, for tests and other renderers.
pub fn cells(analysis: &Analysis) -> Vec<(Square, String)> {
    reading_order()
        .map(|sq| (sq, control_cell(analysis.control_at(sq))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::parse_square;

    #[test]
    fn start_position_text_and_json() {
        let pos = Position::startpos();
        let analysis = Analysis::of(&pos);
        let text = text(&analysis, &pos, Style::Plain);
        assert!(
            text.contains("Material    white 39 (8P 2N 2B 2R 1Q)"),
            "{text}"
        );
        assert!(text.contains("State       white to move, 20 legal moves"));
        assert!(text.contains("Hanging     none"));
        assert!(text.contains("Ng1: Nf3 Nh3"));
        assert!(!text.contains('\x1b'));
        let f3 = cells(&analysis)
            .into_iter()
            .find(|(sq, _)| *sq == parse_square("f3").expect("square"))
            .expect("f3");
        assert_eq!(f3.1, "3P/0");
        let doc = json(&analysis).to_string();
        assert!(
            doc.starts_with(
                "{\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\""
            )
        );
        assert!(doc.contains(
            "{\"square\":\"f3\",\"white\":3,\"black\":0,\"lowest_white\":\"pawn\",\"lowest_black\":null}"
        ));
    }

    #[test]
    fn colour_map_tints_held_squares() {
        let pos = Position::startpos();
        let map = control_map(&Analysis::of(&pos), Style::Colour);
        assert!(map.contains(WHITE_HOLDS) && map.contains(BLACK_HOLDS));
    }
}
