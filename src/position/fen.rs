//! FEN in and out, with Shredder-FEN and X-FEN castling for Chess960.
//!
//! Parsing validates everything a GUI or a person could get wrong and reports it as a typed
//! `FenError` naming the problem; it never panics. Accepted: 4 fields (no clocks), 5 or 6
//! fields; castling as `KQkq`, as rook file letters (`HAha`, Shredder-FEN) or a mix (X-FEN:
//! `K` means the outermost rook on the king side).
//!
//! `from_fen` is strict (the CLI, tools, tests); `from_fen_lenient`, for the UCI `position`
//! command, drops an impossible castling right or en passant square as Stockfish does and
//! lists what it dropped.

use std::fmt;

use super::{
    BLACK_KING_SIDE, BLACK_QUEEN_SIDE, BOARD_ONLY, Position, WHITE_KING_SIDE, WHITE_QUEEN_SIDE,
};
use crate::types::{
    Color, NO_SQUARE, Piece, PieceType, Square, file_of, make_square, parse_square, rank_of,
    square_name,
};
use crate::zobrist::KEYS;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    FieldCount(usize),
    RankCount(usize),
    RankLength { rank: u8, squares: usize },
    BadPiece(char),
    KingCount { color: Color, count: usize },
    TooManyPieces(Color),
    PawnOnBackRank(String),
    SideToMove(String),
    Castling(String),
    CastlingWithoutRook(char),
    EnPassant(String),
    OpponentInCheck,
    Clock(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(count) => {
                write!(f, "FEN needs 4 to 6 space-separated fields, found {count}")
            }
            FenError::RankCount(count) => {
                write!(f, "FEN board needs 8 ranks separated by '/', found {count}")
            }
            FenError::RankLength { rank, squares } => {
                write!(
                    f,
                    "FEN rank {rank} describes {squares} squares instead of 8"
                )
            }
            FenError::BadPiece(letter) => {
                write!(f, "FEN board has an unknown piece letter '{letter}'")
            }
            FenError::KingCount { color, count } => {
                write!(
                    f,
                    "FEN has {count} {} kings, exactly one is needed",
                    color.name()
                )
            }
            FenError::TooManyPieces(color) => {
                write!(f, "FEN has too many {} pieces", color.name())
            }
            FenError::PawnOnBackRank(square) => {
                write!(f, "FEN has a pawn on {square}, on the first or last rank")
            }
            FenError::SideToMove(text) => {
                write!(f, "FEN side to move must be 'w' or 'b', not '{text}'")
            }
            FenError::Castling(text) => write!(f, "FEN castling field '{text}' is not valid"),
            FenError::CastlingWithoutRook(letter) => {
                write!(
                    f,
                    "FEN castling right '{letter}' has no rook or king where it needs them"
                )
            }
            FenError::EnPassant(text) => write!(f, "FEN en passant square '{text}' is impossible"),
            FenError::OpponentInCheck => write!(
                f,
                "FEN position is illegal: the side not to move is in check"
            ),
            FenError::Clock(text) => write!(f, "FEN move counter '{text}' is not a valid number"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses a FEN strictly: every problem is an error (for the CLI, tools and tests).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        parse(fen, false).map(|(pos, _)| pos)
    }

    /// Parses a FEN as a GUI sends it, as Stockfish does: a castling right whose king or
    /// rook is not where it needs to be, and an en passant square that no pawn can just have
    /// double-stepped past, are dropped, each with a message saying so. Everything else that
    /// `from_fen` refuses (unreadable fields, a missing or extra king, pawns on the back
    /// ranks, the side not to move in check ...) is still an error.
    pub fn from_fen_lenient(fen: &str) -> Result<(Position, Vec<String>), FenError> {
        parse(fen, true)
    }

    pub fn to_fen(&self) -> String {
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let piece = self.board[make_square(file, rank) as usize];
                if piece.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    fen.push_str(&empty.to_string());
                    empty = 0;
                }
                fen.push(piece.fen_char());
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(if self.side == Color::White { 'w' } else { 'b' });
        fen.push(' ');
        fen.push_str(&self.castling_text());
        fen.push(' ');
        match self.en_passant_square() {
            Some(sq) => fen.push_str(&square_name(sq)),
            None => fen.push('-'),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        fen
    }

    /// `KQkq` (X-FEN: the outermost rook on that side) outside Chess960 mode, Shredder-FEN
    /// file letters in Chess960 mode or for an inner rook.
    fn castling_text(&self) -> String {
        let rights = [
            (WHITE_KING_SIDE, 'K', 0),
            (WHITE_QUEEN_SIDE, 'Q', 1),
            (BLACK_KING_SIDE, 'k', 2),
            (BLACK_QUEEN_SIDE, 'q', 3),
        ];
        let mut text = String::new();
        for (bit, letter, slot) in rights {
            if self.castling & bit == 0 {
                continue;
            }
            let rook = self.castle_rooks[slot];
            let color = if slot < 2 { Color::White } else { Color::Black };
            let king_side = slot % 2 == 0;
            if !self.chess960 && self.is_outermost_rook(color, rook, king_side) {
                text.push(letter);
            } else {
                let file = (b'a' + file_of(rook)) as char;
                text.push(if color == Color::White {
                    file.to_ascii_uppercase()
                } else {
                    file
                });
            }
        }
        if text.is_empty() {
            text.push('-');
        }
        text
    }

    fn is_outermost_rook(&self, color: Color, rook: Square, king_side: bool) -> bool {
        let rook_piece = Piece::new(color, PieceType::Rook);
        let rank = rank_of(rook);
        let beyond: Vec<u8> = if king_side {
            (file_of(rook) + 1..8).collect()
        } else {
            (0..file_of(rook)).collect()
        };
        beyond
            .into_iter()
            .all(|file| self.board[make_square(file, rank) as usize] != rook_piece)
    }
}

/// The FEN parser; with `lenient`, impossible castling rights and en passant squares are
/// dropped (and listed) instead of refused.
fn parse(fen: &str, lenient: bool) -> Result<(Position, Vec<String>), FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()));
    }
    let mut dropped = Vec::new();
    let mut pos = Position::empty();
    parse_board(&mut pos, fields[0])?;

    pos.side = match fields[1] {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => return Err(FenError::SideToMove(other.to_string())),
    };
    parse_castling(&mut pos, fields[2], lenient, &mut dropped)?;
    parse_en_passant(&mut pos, fields[3], lenient, &mut dropped)?;
    if let Some(text) = fields.get(4) {
        pos.halfmove_clock = text
            .parse()
            .map_err(|_| FenError::Clock(text.to_string()))?;
    }
    if let Some(text) = fields.get(5) {
        let number: u16 = text
            .parse()
            .map_err(|_| FenError::Clock(text.to_string()))?;
        pos.fullmove_number = number.max(1);
    }

    if pos.is_attacked(pos.king_square(pos.side.flip()), pos.side) {
        return Err(FenError::OpponentInCheck);
    }
    if pos.side == Color::Black {
        pos.key ^= KEYS.black_to_move;
    }
    pos.key ^= KEYS.castling[pos.castling as usize];
    if pos.en_passant != NO_SQUARE {
        pos.key ^= KEYS.en_passant_file[file_of(pos.en_passant) as usize];
    }
    pos.refresh_accumulator();
    Ok((pos, dropped))
}

fn parse_board(pos: &mut Position, text: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - row as u8;
        let mut file: usize = 0;
        for letter in rank_text.chars() {
            if let Some(skip) = letter.to_digit(10) {
                if !(1..=8).contains(&skip) {
                    return Err(FenError::BadPiece(letter));
                }
                file += skip as usize;
                continue;
            }
            let piece = Piece::from_fen_char(letter).ok_or(FenError::BadPiece(letter))?;
            if file >= 8 {
                return Err(FenError::RankLength {
                    rank: rank + 1,
                    squares: file + 1,
                });
            }
            let sq = make_square(file as u8, rank);
            if piece.kind() == PieceType::Pawn && (rank == 0 || rank == 7) {
                return Err(FenError::PawnOnBackRank(square_name(sq)));
            }
            if pos.counts[piece.index()] as usize >= 10 {
                return Err(FenError::TooManyPieces(piece.color()));
            }
            pos.put_piece::<BOARD_ONLY>(piece, sq);
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    for color in [Color::White, Color::Black] {
        let kings = pos.count(color, PieceType::King) as usize;
        if kings != 1 {
            return Err(FenError::KingCount {
                color,
                count: kings,
            });
        }
        let total: i32 = PieceType::ALL
            .iter()
            .map(|&kind| pos.count(color, kind))
            .sum();
        if total > 16 || pos.count(color, PieceType::Pawn) > 8 {
            return Err(FenError::TooManyPieces(color));
        }
    }
    Ok(())
}

/// With `lenient`, a right whose king or rook is missing goes to `dropped` instead of failing.
fn parse_castling(
    pos: &mut Position,
    text: &str,
    lenient: bool,
    dropped: &mut Vec<String>,
) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    if text.is_empty() || text.len() > 4 {
        return Err(FenError::Castling(text.to_string()));
    }
    for letter in text.chars() {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back_rank = if color == Color::White { 0 } else { 7 };
        let king = pos.king_square(color);
        let rook_piece = Piece::new(color, PieceType::Rook);
        let lower = letter.to_ascii_lowercase();
        if !matches!(lower, 'k' | 'q' | 'a'..='h') {
            return Err(FenError::Castling(text.to_string()));
        }
        let rook = match lower {
            _ if rank_of(king) != back_rank => None,
            'k' => (file_of(king) + 1..8)
                .rev()
                .map(|file| make_square(file, back_rank))
                .find(|&sq| pos.board[sq as usize] == rook_piece),
            'q' => (0..file_of(king))
                .map(|file| make_square(file, back_rank))
                .find(|&sq| pos.board[sq as usize] == rook_piece),
            file_letter @ 'a'..='h' => {
                let sq = make_square(file_letter as u8 - b'a', back_rank);
                (pos.board[sq as usize] == rook_piece && sq != king).then_some(sq)
            }
            _ => return Err(FenError::Castling(text.to_string())),
        };
        let Some(rook) = rook else {
            if !lenient {
                return Err(FenError::CastlingWithoutRook(letter));
            }
            dropped.push(format!(
                "castling right '{letter}' dropped: the {} king or its rook is not where it needs them",
                color.name()
            ));
            continue;
        };
        let king_side = rook > king;
        let (bit, slot) = match (color, king_side) {
            (Color::White, true) => (WHITE_KING_SIDE, 0),
            (Color::White, false) => (WHITE_QUEEN_SIDE, 1),
            (Color::Black, true) => (BLACK_KING_SIDE, 2),
            (Color::Black, false) => (BLACK_QUEEN_SIDE, 3),
        };
        if pos.castling & bit != 0 {
            return Err(FenError::Castling(text.to_string()));
        }
        pos.castling |= bit;
        pos.castle_rooks[slot] = rook;
        pos.castle_mask[rook as usize] &= !bit;
        let king_bits = if color == Color::White {
            WHITE_KING_SIDE | WHITE_QUEEN_SIDE
        } else {
            BLACK_KING_SIDE | BLACK_QUEEN_SIDE
        };
        pos.castle_mask[king as usize] &= !king_bits;
        // A rook not on the a/h file, or a king not on e, only happens in Chess960.
        if file_of(king) != 4 || (file_of(rook) != 0 && file_of(rook) != 7) {
            pos.chess960 = true;
        }
    }
    Ok(())
}

/// With `lenient`, a well-formed square that no pawn can just have passed goes to `dropped`
/// instead of failing.
fn parse_en_passant(
    pos: &mut Position,
    text: &str,
    lenient: bool,
    dropped: &mut Vec<String>,
) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    let invalid = || FenError::EnPassant(text.to_string());
    let sq: Square = parse_square(text).ok_or_else(invalid)?;
    if !en_passant_is_possible(pos, sq) {
        if !lenient {
            return Err(invalid());
        }
        dropped.push(format!(
            "en passant square {text} dropped: no pawn can just have double-stepped past it"
        ));
        return Ok(());
    }
    // Same convention as make_move: keep it only when one of our pawns can take.
    let pawn_square = (sq as i32 - pos.side.forward()) as Square;
    let our_pawn = Piece::new(pos.side, PieceType::Pawn);
    let capturable = [-1, 1].iter().any(|side_step| {
        let beside = pawn_square as i32 + side_step;
        crate::types::on_board(beside) && pos.board[beside as usize] == our_pawn
    });
    if capturable {
        pos.en_passant = sq;
    }
    Ok(())
}

/// Could the side not to move just have double-stepped past `sq`?
fn en_passant_is_possible(pos: &Position, sq: Square) -> bool {
    let us = pos.side;
    let them = us.flip();
    // The square must be on the sixth rank (from the mover's side), empty, with the enemy pawn
    // that just double-stepped in front of it and its start square empty.
    if us.relative_rank(sq) != 5 {
        return false;
    }
    let pawn_square = (sq as i32 - us.forward()) as Square;
    let start_square = (sq as i32 + us.forward()) as Square;
    pos.board[pawn_square as usize] == Piece::new(them, PieceType::Pawn)
        && pos.board[sq as usize].is_none()
        && pos.board[start_square as usize].is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for fen in [
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let pos = Position::from_fen(fen).expect(fen);
            assert_eq!(pos.to_fen(), fen);
            pos.verify().expect("consistent");
        }
    }

    #[test]
    fn four_field_fen_gets_default_clocks() {
        let pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - -").expect("valid");
        assert_eq!(pos.to_fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
    }

    #[test]
    fn useless_en_passant_square_is_dropped() {
        let pos = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2")
            .expect("valid");
        assert_eq!(pos.en_passant_square(), None);
    }

    #[test]
    fn malformed_fens_are_named() {
        type Expectation = fn(&FenError) -> bool;
        let cases: [(&str, Expectation); 14] = [
            ("8/8/8/8/8/8/8/K6k", |e| {
                matches!(e, FenError::FieldCount(1))
            }),
            ("8/8/8/8/8/8/8/K6k w - - 0 1 extra", |e| {
                matches!(e, FenError::FieldCount(7))
            }),
            ("8/8/8/8/8/8/K6k w - - 0 1", |e| {
                matches!(e, FenError::RankCount(7))
            }),
            ("8/8/8/8/8/8/8/8/K6k w - - 0 1", |e| {
                matches!(e, FenError::RankCount(9))
            }),
            ("9/8/8/8/8/8/8/K6k w - - 0 1", |e| {
                matches!(e, FenError::BadPiece('9'))
            }),
            ("8/8/8/8/8/8/8/K7k w - - 0 1", |e| {
                matches!(e, FenError::RankLength { .. })
            }),
            ("8/8/8/8/8/8/8/K5k w - - 0 1", |e| {
                matches!(e, FenError::RankLength { .. })
            }),
            ("8/8/8/8/8/8/8/K5xk w - - 0 1", |e| {
                matches!(e, FenError::BadPiece('x'))
            }),
            ("8/8/8/8/8/8/8/K7 w - - 0 1", |e| {
                matches!(e, FenError::KingCount { .. })
            }),
            ("8/8/8/8/8/8/8/KK5k w - - 0 1", |e| {
                matches!(e, FenError::KingCount { .. })
            }),
            ("k7/8/8/8/8/8/8/K6R b - - 0 1", |_| false),
            ("k6R/8/8/8/8/8/8/K7 w - - 0 1", |e| {
                matches!(e, FenError::OpponentInCheck)
            }),
            ("P6k/8/8/8/8/8/8/K7 w - - 0 1", |e| {
                matches!(e, FenError::PawnOnBackRank(_))
            }),
            ("r3k2r/8/8/8/8/8/8/4K3 b KQ - 0 1", |e| {
                matches!(e, FenError::CastlingWithoutRook('K'))
            }),
        ];
        for (fen, expected) in cases {
            match Position::from_fen(fen) {
                Ok(_) => assert!(fen.starts_with("k7/"), "{fen} should be rejected"),
                Err(error) => {
                    assert!(expected(&error), "{fen}: unexpected {error:?}");
                    assert!(!error.to_string().is_empty());
                }
            }
        }
    }

    #[test]
    fn impossible_fields_are_rejected() {
        for fen in [
            "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w KQZ - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 -3",
            "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",
        ] {
            assert!(Position::from_fen(fen).is_err(), "{fen} should be rejected");
        }
    }

    #[test]
    fn lenient_parsing_drops_impossible_castling_rights() {
        let cases = [
            (
                "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                vec!['K'],
            ),
            (
                "r3k3/8/8/8/8/8/8/R3K3 w KQkq - 0 1",
                "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1",
                vec!['K', 'k'],
            ),
            // The white king is off its back rank, so neither right can stay.
            (
                "4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1",
                "4k3/8/8/8/8/8/4K3/R6R w - - 0 1",
                vec!['K', 'Q'],
            ),
        ];
        for (fen, expected, letters) in cases {
            let (pos, dropped) = Position::from_fen_lenient(fen).expect(fen);
            assert_eq!(pos.to_fen(), expected);
            assert_eq!(pos, Position::from_fen(expected).expect(expected), "{fen}");
            pos.verify().expect("consistent");
            assert_eq!(dropped.len(), letters.len(), "{fen}: {dropped:?}");
            for (message, letter) in dropped.iter().zip(letters) {
                assert!(message.contains(&format!("'{letter}'")), "{message}");
            }
            assert!(matches!(
                Position::from_fen(fen),
                Err(FenError::CastlingWithoutRook(_))
            ));
        }
    }

    #[test]
    fn lenient_parsing_drops_impossible_en_passant_squares() {
        for (fen, square) in [
            // No black pawn on d5 that could just have come from d7.
            ("4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", "d6"),
            // The wrong rank for white to move.
            ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "e3"),
            // The start square of the double step is occupied.
            ("4k3/3b4/8/3pP3/8/8/8/4K3 w - d6 0 1", "d6"),
        ] {
            let (pos, dropped) = Position::from_fen_lenient(fen).expect(fen);
            assert_eq!(pos.en_passant_square(), None);
            assert_eq!(dropped.len(), 1, "{fen}: {dropped:?}");
            assert!(dropped[0].contains(square), "{}", dropped[0]);
            pos.verify().expect("consistent");
            assert!(Position::from_fen(fen).is_err(), "{fen} is strict-invalid");
        }
        // A possible square is kept, and nothing is reported.
        let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        let (pos, dropped) = Position::from_fen_lenient(fen).expect(fen);
        assert!(dropped.is_empty());
        assert_eq!(pos.to_fen(), fen);
    }

    #[test]
    fn lenient_parsing_still_refuses_what_cannot_be_a_position() {
        for fen in [
            "8/8/8/8/8/8/8/K6k",
            "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
            "4k3/8/8/8/8/8/8/4K3 w KZ - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",
            "4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
            "4k3/8/8/8/8/8/8/8 w - - 0 1",
            "k6R/8/8/8/8/8/8/K7 w - - 0 1",
            "P6k/8/8/8/8/8/8/K7 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
        ] {
            assert!(
                Position::from_fen_lenient(fen).is_err(),
                "{fen} should be refused"
            );
        }
        for fen in [
            START_FEN,
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            let (pos, dropped) = Position::from_fen_lenient(fen).expect(fen);
            assert!(dropped.is_empty());
            assert_eq!(pos, Position::from_fen(fen).expect(fen));
        }
    }
}
