//! Writing a game as PGN (export format: the seven-tag roster first, SAN movetext wrapped
//! below 80 columns, the result last), and the numbered move list the board view shows.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::types::Color;

/// Movetext lines are wrapped before this column.
const LINE_WIDTH: usize = 79;

/// How a game ended, as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// Still going, or abandoned.
    Unfinished,
}

impl GameResult {
    pub fn as_pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Everything PGN needs of one game.
pub struct PgnGame<'a> {
    /// Tags in order of output, the seven-tag roster first.
    pub tags: Vec<(&'static str, String)>,
    pub sans: &'a [String],
    pub first_move_number: u16,
    pub first_mover: Color,
    pub result: GameResult,
}

impl PgnGame<'_> {
    pub fn write(&self) -> String {
        let mut text = String::new();
        for (name, value) in &self.tags {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            text.push_str(&format!("[{name} \"{escaped}\"]\n"));
        }
        text.push('\n');
        let mut tokens = movetext_tokens(self.first_move_number, self.first_mover, self.sans);
        tokens.push(self.result.as_pgn().to_string());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
                text.push_str(&line);
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        text.push_str(&line);
        text.push('\n');
        text
    }
}

/// `1.` `e4` `e5` `2.` … ; a game that starts with Black to move opens with `N...`.
fn movetext_tokens(first_move_number: u16, first_mover: Color, sans: &[String]) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut number = first_move_number;
    let mut mover = first_mover;
    for (index, san) in sans.iter().enumerate() {
        match mover {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if index == 0 => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(san.clone());
        if mover == Color::Black {
            number += 1;
        }
        mover = mover.flip();
    }
    tokens
}

/// One line per full move, e.g. `1. e4 e5`, `12... Kf8`, for the list beside the board.
pub fn numbered_lines(first_move_number: u16, first_mover: Color, sans: &[String]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for token in movetext_tokens(first_move_number, first_mover, sans) {
        if token.ends_with('.') {
            lines.push(token);
        } else {
            let line = lines.last_mut().expect("a move number comes first");
            line.push(' ');
            line.push_str(&token);
        }
    }
    lines
}

/// The PGN date of today (UTC), `YYYY.MM.DD`.
pub fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Days since 1970-01-01 to (year, month, day), the proleptic Gregorian calendar
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|san| san.to_string()).collect()
    }

    #[test]
    fn writes_movetext() {
        let moves = sans(&["f3", "e5", "g4", "Qh4#"]);
        let game = PgnGame {
            tags: vec![
                ("Event", "Test \"quoted\"".to_string()),
                ("Result", "0-1".to_string()),
            ],
            sans: &moves,
            first_move_number: 1,
            first_mover: Color::White,
            result: GameResult::BlackWins,
        };
        assert_eq!(
            game.write(),
            "[Event \"Test \\\"quoted\\\"\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
        );
        let black_first = sans(&["Kf8", "Qd8#"]);
        assert_eq!(
            numbered_lines(12, Color::Black, &black_first),
            vec!["12... Kf8", "13. Qd8#"]
        );
    }

    #[test]
    fn wraps_long_games() {
        let moves: Vec<String> = (0..200).map(|_| "Nf3".to_string()).collect();
        let game = PgnGame {
            tags: Vec::new(),
            sans: &moves,
            first_move_number: 1,
            first_mover: Color::White,
            result: GameResult::Unfinished,
        };
        let text = game.write();
        assert!(text.lines().all(|line| line.len() <= LINE_WIDTH));
        assert!(text.trim_end().ends_with("100. Nf3 Nf3 *"));
    }

    #[test]
    fn converts_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
    }
}
