//! Drawing the board as text, with the move list beside it.
//!
//! Two styles: colour (Unicode pieces on ANSI-coloured squares, the last move tinted and a
//! checked king on red) for terminals, and plain (ASCII letters, no escape codes) for
//! `--no-color`, pipes and scripts. Plain mode marks the last move's squares with `[ ]` and
//! a checked king with `( )`, and says both in words under the board, so nothing is lost.
//!
//! ```text
//!      a  b  c  d  e  f  g  h
//!   8  r  n  b  q  k  b  n  r  8     1. e4 e5
//!   7  p  p  p  p [.] p  p  p  7     2. Nf3 Nc6
//!   ...
//!      a  b  c  d  e  f  g  h
//! ```

use crate::position::Position;
use crate::types::{Color, PieceType, Square, make_square, square_name};

const RESET: &str = "\x1b[0m";
const LIGHT_SQUARE: &str = "\x1b[48;5;180m";
const DARK_SQUARE: &str = "\x1b[48;5;137m";
const LIGHT_LAST_MOVE: &str = "\x1b[48;5;186m";
const DARK_LAST_MOVE: &str = "\x1b[48;5;143m";
const CHECKED_KING: &str = "\x1b[48;5;160m";
const WHITE_PIECE: &str = "\x1b[1;97m";
const BLACK_PIECE: &str = "\x1b[1;30m";

/// Rows of the drawing (file letters, eight ranks, file letters) the move list can sit beside.
const ROWS: usize = 10;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    Colour,
    Plain,
}

/// The board from `bottom`'s side, with `side_lines` (e.g. the numbered moves, the latest
/// last) beside it; when there are more than fit, the latest are shown.
pub fn draw(pos: &Position, bottom: Color, style: Style, side_lines: &[String]) -> String {
    let last_move = pos.last_move().map(|mv| {
        let to = if mv.is_castle() {
            mv.castle_king_target()
        } else {
            mv.to()
        };
        (mv.from(), to)
    });
    let checked_king = pos.in_check().then(|| pos.king_square(pos.side_to_move()));
    let files: Vec<u8> = match bottom {
        Color::White => (0..8).collect(),
        Color::Black => (0..8).rev().collect(),
    };
    let ranks: Vec<u8> = match bottom {
        Color::White => (0..8).rev().collect(),
        Color::Black => (0..8).collect(),
    };
    let letters: String = files
        .iter()
        .map(|&file| format!(" {} ", (b'a' + file) as char))
        .collect();
    // As wide as a rank row, so the move list beside the board lines up.
    let edge = format!("    {letters}   ");

    let mut rows = vec![edge.clone()];
    for &rank in &ranks {
        let mut row = format!(" {}  ", rank + 1);
        for &file in &files {
            let sq = make_square(file, rank);
            let marked_last = last_move.is_some_and(|(from, to)| sq == from || sq == to);
            let marked_check = checked_king == Some(sq);
            row.push_str(&cell(pos, sq, marked_last, marked_check, style));
        }
        row.push_str(&format!("  {}", rank + 1));
        rows.push(row);
    }
    rows.push(edge);

    let skip = side_lines.len().saturating_sub(ROWS);
    let mut text = String::new();
    for (index, row) in rows.iter().enumerate() {
        match side_lines.get(skip + index) {
            Some(line) => {
                text.push_str(row);
                text.push_str("   ");
                text.push_str(line);
            }
            None => text.push_str(row.trim_end()),
        }
        text.push('\n');
    }
    text.push_str(&notes(pos, last_move, checked_king, style));
    text
}

fn cell(pos: &Position, sq: Square, marked_last: bool, marked_check: bool, style: Style) -> String {
    let piece = pos.piece_at(sq);
    match style {
        Style::Plain => {
            let symbol = if piece.is_none() {
                '.'
            } else {
                piece.fen_char()
            };
            let (open, close) = if marked_check {
                ('(', ')')
            } else if marked_last {
                ('[', ']')
            } else {
                (' ', ' ')
            };
            format!("{open}{symbol}{close}")
        }
        Style::Colour => {
            let light = (sq >> 4) % 2 != (sq & 7) % 2;
            let background = match (marked_check, marked_last, light) {
                (true, _, _) => CHECKED_KING,
                (false, true, true) => LIGHT_LAST_MOVE,
                (false, true, false) => DARK_LAST_MOVE,
                (false, false, true) => LIGHT_SQUARE,
                (false, false, false) => DARK_SQUARE,
            };
            if piece.is_none() {
                format!("{background}   {RESET}")
            } else {
                let foreground = match piece.color() {
                    Color::White => WHITE_PIECE,
                    Color::Black => BLACK_PIECE,
                };
                let glyph = solid_glyph(piece.kind());
                format!("{background}{foreground} {glyph} {RESET}")
            }
        }
    }
}

/// The filled chess symbols, told apart by colour (they read better than the outline set).
fn solid_glyph(kind: PieceType) -> char {
    match kind {
        PieceType::King => '♚',
        PieceType::Queen => '♛',
        PieceType::Rook => '♜',
        PieceType::Bishop => '♝',
        PieceType::Knight => '♞',
        PieceType::Pawn | PieceType::None => '♟',
    }
}

/// Lines under the board saying in words what the highlights show.
fn notes(
    pos: &Position,
    last_move: Option<(Square, Square)>,
    checked_king: Option<Square>,
    style: Style,
) -> String {
    let mut text = String::new();
    if style == Style::Plain
        && let Some((from, to)) = last_move
    {
        text.push_str(&format!(
            "Last move: {}-{} [marked]\n",
            square_name(from),
            square_name(to)
        ));
    }
    if let Some(king) = checked_king {
        let side = match pos.side_to_move() {
            Color::White => "White",
            Color::Black => "Black",
        };
        let mark = if style == Style::Plain {
            " (marked)"
        } else {
            ""
        };
        text.push_str(&format!(
            "{side} is in check: king on {}{mark}\n",
            square_name(king)
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_plain_board_with_marks() {
        let mut pos = Position::startpos();
        for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let mv = pos
                .legal_moves()
                .into_iter()
                .find(|mv| mv.to_uci(false) == uci)
                .expect("legal");
            pos.make_move(mv);
        }
        let lines = vec!["1. f3 e5".to_string(), "2. g4 Qh4#".to_string()];
        let text = draw(&pos, Color::White, Style::Plain, &lines);
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[0], "     a  b  c  d  e  f  g  h       1. f3 e5");
        assert_eq!(rows[1], " 8   r  n  b [.] k  b  n  r   8   2. g4 Qh4#");
        assert_eq!(rows[2], " 7   p  p  p  p  .  p  p  p   7");
        assert_eq!(rows[5], " 4   .  .  .  .  .  .  P [q]  4");
        assert_eq!(rows[8], " 1   R  N  B  Q (K) B  N  R   1");
        assert!(text.contains("Last move: d8-h4"));
        assert!(text.contains("White is in check: king on e1"));
        assert!(!text.contains('\x1b'));

        let flipped = draw(&pos, Color::Black, Style::Plain, &[]);
        let rows: Vec<&str> = flipped.lines().collect();
        assert_eq!(rows[0].trim(), "h  g  f  e  d  c  b  a");
        assert_eq!(rows[1], " 1   R  N  B (K) Q  B  N  R   1");
    }

    #[test]
    fn colour_board_uses_unicode() {
        let text = draw(&Position::startpos(), Color::White, Style::Colour, &[]);
        assert!(text.contains('♚') && text.contains("\x1b["));
    }
}
