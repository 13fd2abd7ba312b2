//! Standard Algebraic Notation out and in, plus forgiving parsing of what people type.
//!
//! Output follows the PGN standard: `Nbd7`, `exd5`, `e8=Q+`, `O-O`, `Qh4#`, with file, rank or
//! both to disambiguate. Input accepts SAN as written by other programs and people: any case
//! where it is not ambiguous (`nf3`), missing or extra `x`, `+`, `#`, `!`, `?`, `=`, castling
//! with zeros, over-specified origins (`Ngf3`) and coordinate moves (`g1f3`, `e7e8q`).
//! Coordinate moves are read by `find_uci_move`, which the UCI loop uses too.

use crate::moves::{Move, file_letter};
use crate::position::Position;
use crate::types::{PieceType, rank_of, square_name};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not a move at all (no destination square could be read).
    Unreadable(String),
    /// Well formed, but no legal move matches.
    Illegal(String),
    /// Several legal moves match; they are listed.
    Ambiguous(Vec<Move>),
    /// A pawn reaches the last rank but no piece was named; the choices are listed.
    PromotionNeeded(Vec<Move>),
}

impl std::fmt::Display for SanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SanError::Unreadable(text) => write!(f, "'{text}' is not a move"),
            SanError::Illegal(text) => write!(f, "'{text}' is not a legal move here"),
            SanError::Ambiguous(moves) => write!(f, "ambiguous: {} moves match", moves.len()),
            SanError::PromotionNeeded(_) => {
                write!(f, "say which piece to promote to (q, r, b or n)")
            }
        }
    }
}

impl Position {
    /// SAN of a legal move in this position, with `+` or `#`.
    pub fn san(&mut self, mv: Move) -> String {
        let mut text = self.san_without_check(mv, Disambiguation::Minimal);
        self.make_move(mv);
        if self.in_check() {
            text.push(if self.has_no_legal_move() { '#' } else { '+' });
        }
        self.unmake_move();
        text
    }

    fn san_without_check(&self, mv: Move, style: Disambiguation) -> String {
        if mv.is_castle() {
            return if mv.to() > mv.from() { "O-O" } else { "O-O-O" }.to_string();
        }
        let from = mv.from();
        let to = mv.to();
        let kind = self.piece_at(from).kind();
        let mut text = String::new();
        if kind == PieceType::Pawn {
            if mv.is_capture() {
                text.push(file_letter(from));
            }
        } else {
            text.push(kind.letter());
            let rivals: Vec<Move> = self
                .legal_moves()
                .into_iter()
                .filter(|other| {
                    other.to() == to
                        && other.from() != from
                        && self.piece_at(other.from()).kind() == kind
                })
                .collect();
            let (file, rank) = match style {
                Disambiguation::Bare => (false, false),
                Disambiguation::Minimal if rivals.is_empty() => (false, false),
                Disambiguation::Minimal => {
                    if rivals.iter().all(|other| other.from() & 7 != from & 7) {
                        (true, false)
                    } else if rivals
                        .iter()
                        .all(|other| rank_of(other.from()) != rank_of(from))
                    {
                        (false, true)
                    } else {
                        (true, true)
                    }
                }
                Disambiguation::File => (true, false),
                Disambiguation::Rank => (false, true),
                Disambiguation::Square => (true, true),
            };
            let origin = square_name(from);
            if file {
                text.push_str(&origin[..1]);
            }
            if rank {
                text.push_str(&origin[1..]);
            }
        }
        if mv.is_capture() {
            text.push('x');
        }
        text.push_str(&square_name(to));
        if mv.is_promotion() {
            text.push('=');
            text.push(mv.promotion_piece().letter());
        }
        text
    }

    /// The legal move written `text` in UCI coordinates (`e2e4`, `e7e8q`, any case), if any.
    /// This is the one reader of coordinate moves: the UCI `position … moves` list,
    /// `searchmoves` and `parse_move_text` all go through it.
    ///
    /// Castling is accepted in both spellings: the one `chess960` asks for (`e1g1`, or
    /// king-takes-rook `e1h1` under Chess960) first, the other as a fallback for castling
    /// moves only, so input that mixes them still works and an ordinary king move is never
    /// mistaken for castling.
    pub fn find_uci_move(&self, text: &str, chess960: bool) -> Option<Move> {
        let text = text.to_ascii_lowercase();
        let legal = self.legal_moves();
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

    /// Reads a move typed as SAN or as coordinates; see the module doc for what is accepted.
    pub fn parse_move_text(&self, input: &str) -> Result<Move, SanError> {
        let text = normalize(input);
        if text.is_empty() {
            return Err(SanError::Unreadable(input.trim().to_string()));
        }
        let legal = self.legal_moves();

        // Coordinates, castling in both spellings (e1g1, e1h1). As written (lower case) they
        // come first; in other cases only after exact SAN, since `B2b3` is the bishop on the
        // second rank going to b3, not the pawn move b2b3.
        let coordinate = |candidate: &str| self.find_uci_move(candidate, self.is_chess960());
        if !text.bytes().any(|byte| byte.is_ascii_uppercase())
            && let Some(mv) = coordinate(&text)
        {
            return Ok(mv);
        }

        let mut exact = Vec::new();
        let mut folded = Vec::new();
        let mut unpromoted = Vec::new();
        for &mv in &legal {
            for style in Disambiguation::ALL {
                let form = normalize(&self.san_without_check(mv, style));
                if form == text && !exact.contains(&mv) {
                    exact.push(mv);
                }
                if form.eq_ignore_ascii_case(&text) && !folded.contains(&mv) {
                    folded.push(mv);
                }
                if mv.is_promotion() {
                    let bare = &form[..form.len() - 1];
                    if bare.eq_ignore_ascii_case(&text) && !unpromoted.contains(&mv) {
                        unpromoted.push(mv);
                    }
                }
            }
        }
        for (index, candidates) in [exact, folded].into_iter().enumerate() {
            match candidates.len() {
                0 => {}
                1 => return Ok(candidates[0]),
                _ => return Err(SanError::Ambiguous(candidates)),
            }
            if index == 0
                && let Some(mv) = coordinate(&text.to_ascii_lowercase())
            {
                return Ok(mv);
            }
        }
        if !unpromoted.is_empty() {
            let squares: Vec<(u8, u8)> = unpromoted.iter().map(|mv| (mv.from(), mv.to())).collect();
            if squares.iter().all(|&pair| pair == squares[0]) {
                return Err(SanError::PromotionNeeded(unpromoted));
            }
            return Err(SanError::Ambiguous(unpromoted));
        }
        let has_square = text.as_bytes().windows(2).any(|pair| {
            pair[0].to_ascii_lowercase().is_ascii_lowercase() && (b'1'..=b'8').contains(&pair[1])
        });
        if has_square || text.starts_with("O-O") {
            Err(SanError::Illegal(input.trim().to_string()))
        } else {
            Err(SanError::Unreadable(input.trim().to_string()))
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Disambiguation {
    /// No origin at all, even when needed: matching it finds ambiguous input.
    Bare,
    Minimal,
    File,
    Rank,
    Square,
}

impl Disambiguation {
    const ALL: [Disambiguation; 5] = [
        Disambiguation::Bare,
        Disambiguation::Minimal,
        Disambiguation::File,
        Disambiguation::Rank,
        Disambiguation::Square,
    ];
}

/// Strips decorations so SAN from any source compares equal: check marks, annotations, `x`,
/// `=`, `-` (outside castling), `e.p.`, and turns `0-0`/`o-o` into `O-O`.
fn normalize(input: &str) -> String {
    let trimmed = input.trim().trim_end_matches(['+', '#', '!', '?']);
    let trimmed = trimmed
        .trim_end_matches("e.p.")
        .trim_end_matches("ep")
        .trim();
    let castle = trimmed.replace(['0', 'o'], "O");
    if castle == "O-O" || castle == "OO" {
        return "O-O".to_string();
    }
    if castle == "O-O-O" || castle == "OOO" {
        return "O-O-O".to_string();
    }
    trimmed
        .chars()
        .filter(|&c| !matches!(c, 'x' | 'X' | ':' | '=' | '-' | '+' | '#' | ' ' | '(' | ')'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("test FEN")
    }

    fn san_of(position: &mut Position, uci: &str) -> String {
        let mv = position
            .legal_moves()
            .into_iter()
            .find(|mv| mv.to_uci(false) == uci)
            .expect("test move is legal");
        position.san(mv)
    }

    #[test]
    fn writes_san() {
        let mut start = Position::startpos();
        assert_eq!(san_of(&mut start, "g1f3"), "Nf3");
        assert_eq!(san_of(&mut start, "e2e4"), "e4");
        let mut rooks = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(san_of(&mut rooks, "e1g1"), "O-O");
        assert_eq!(san_of(&mut rooks, "e1c1"), "O-O-O");
        assert_eq!(san_of(&mut rooks, "a1d1"), "Rd1");
        let mut doubled = pos("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
        assert_eq!(san_of(&mut doubled, "a1d1"), "Rad1");
        let mut knights = pos("4k3/8/8/8/1N3N2/8/1N6/4K3 w - - 0 1");
        assert_eq!(san_of(&mut knights, "b4d3"), "Nb4d3");
        let mut same_file = pos("4k3/8/8/8/1N6/8/1N6/4K3 w - - 0 1");
        assert_eq!(san_of(&mut same_file, "b4d3"), "N4d3");
        assert_eq!(san_of(&mut knights, "f4d3"), "Nfd3");
        let mut queens = pos("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1");
        assert_eq!(san_of(&mut queens, "a4b3"), "Qa4b3");
        let mut promotion = pos("3r3k/2P5/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(san_of(&mut promotion, "c7d8q"), "cxd8=Q+");
        assert_eq!(san_of(&mut promotion, "c7c8n"), "c8=N");
        let mut fools = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
        assert_eq!(san_of(&mut fools, "d8h4"), "Qh4#");
    }

    #[test]
    fn san_with_a_rank_is_not_read_as_a_coordinate_move() {
        // Bishops on c2 and c4 both reach b3, so c2b3 is written B2b3; b2b3 is a pawn move.
        let position = pos("rnbq1k1r/pp1Pbppp/1rp5/8/2B5/4q3/PPB1NnPP/RNBQK2R w KQ - 1 8");
        let read = |text: &str| {
            position
                .parse_move_text(text)
                .map(|mv| mv.to_uci(false))
                .ok()
        };
        assert_eq!(read("B2b3").as_deref(), Some("c2b3"));
        assert_eq!(read("B2xb3").as_deref(), Some("c2b3"));
        assert_eq!(read("b2b3").as_deref(), Some("b2b3"));
        assert_eq!(read("E1F1").as_deref(), Some("e1f1"));
    }

    #[test]
    fn reads_forgiving_input() {
        let start = Position::startpos();
        for text in ["Nf3", "nf3", "Ng1f3", "g1f3", "Nf3!?", "N-f3"] {
            assert_eq!(
                start.parse_move_text(text).expect(text).to_uci(false),
                "g1f3",
                "{text}"
            );
        }
        let capture = pos("4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1");
        assert_eq!(
            capture.parse_move_text("bxc3").expect("pawn").to_uci(false),
            "b2c3"
        );
        assert_eq!(
            capture
                .parse_move_text("Bxc3")
                .expect("bishop")
                .to_uci(false),
            "d2c3"
        );
        let castle = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(
            castle.parse_move_text("0-0").expect("castle").to_uci(false),
            "e1g1"
        );
        assert_eq!(
            castle
                .parse_move_text("o-o-o")
                .expect("castle")
                .to_uci(false),
            "e1c1"
        );
        let promotion = pos("7k/2P5/8/8/8/8/8/4K3 w - - 0 1");
        assert!(
            matches!(promotion.parse_move_text("c8"), Err(SanError::PromotionNeeded(list)) if list.len() == 4)
        );
        assert_eq!(
            promotion
                .parse_move_text("c8=N")
                .expect("under")
                .promotion_piece(),
            PieceType::Knight
        );
        assert_eq!(
            promotion
                .parse_move_text("c8r")
                .expect("under")
                .promotion_piece(),
            PieceType::Rook
        );
        assert!(matches!(
            start.parse_move_text("Nf6"),
            Err(SanError::Illegal(_))
        ));
        assert!(matches!(
            start.parse_move_text("hello"),
            Err(SanError::Unreadable(_))
        ));
        let knights = pos("4k3/8/8/8/1N3N2/8/8/4K3 w - - 0 1");
        assert!(
            matches!(knights.parse_move_text("Nd3"), Err(SanError::Ambiguous(list)) if list.len() == 2)
        );
    }
}
