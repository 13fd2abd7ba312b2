//! Basic vocabulary: colours, pieces and 0x88 squares.
//!
//! A 0x88 square is `rank * 16 + file`. The board is a 128-entry array whose right half
//! (files 8..15) is never used, so `square & 0x88 != 0` tells at once that a step left the
//! board. The difference of two on-board squares, `to - from`, is unique for every
//! (rank delta, file delta) pair, which is what makes the attack and direction tables
//! in `geometry` work.
//!
//! ```text
//!   rank 8  0x70 0x71 .. 0x77 | 0x78 .. 0x7F  (off board)
//!   ...
//!   rank 1  0x00 0x01 .. 0x07 | 0x08 .. 0x0F  (off board)
//! ```

/// A 0x88 square index (0..128). Off-board squares have bit 0x88 set.
pub type Square = u8;

/// Marker for "no square" (en passant, missing castling rook). It is off the board.
pub const NO_SQUARE: Square = 0x88;

/// True when `sq` (an index possibly produced by adding an offset) lies on the board.
#[inline(always)]
pub const fn on_board(sq: i32) -> bool {
    sq & !0x77 == 0
}

#[inline(always)]
pub const fn file_of(sq: Square) -> u8 {
    sq & 7
}

#[inline(always)]
pub const fn rank_of(sq: Square) -> u8 {
    sq >> 4
}

#[inline(always)]
pub const fn make_square(file: u8, rank: u8) -> Square {
    rank * 16 + file
}

/// 0x88 square to the dense 0..64 index used by tables (a1 = 0, h8 = 63).
#[inline(always)]
pub const fn to_64(sq: Square) -> usize {
    ((sq + (sq & 7)) >> 1) as usize
}

/// Dense 0..64 index back to 0x88.
#[inline(always)]
pub const fn from_64(index: usize) -> Square {
    (index + (index & !7)) as Square
}

/// Mirror a square vertically (a1 <-> a8), used to read white tables for black.
#[inline(always)]
pub const fn flip_rank(sq: Square) -> Square {
    sq ^ 0x70
}

/// Algebraic name of a square, e.g. "e4".
pub fn square_name(sq: Square) -> String {
    let file = (b'a' + file_of(sq)) as char;
    let rank = (b'1' + rank_of(sq)) as char;
    format!("{file}{rank}")
}

/// Parses "e4" into a square.
pub fn parse_square(text: &str) -> Option<Square> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
    let rank = bytes[1].wrapping_sub(b'1');
    (file < 8 && rank < 8).then(|| make_square(file, rank))
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `white` or `black`, as messages, analysis and the JSON outputs write it.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// +16 for white pawns, -16 for black: one rank forward.
    #[inline(always)]
    pub const fn forward(self) -> i32 {
        match self {
            Color::White => 16,
            Color::Black => -16,
        }
    }

    /// Rank index as seen from this side (rank 1 for white is rank 8 for black).
    #[inline(always)]
    pub const fn relative_rank(self, sq: Square) -> u8 {
        match self {
            Color::White => rank_of(sq),
            Color::Black => 7 - rank_of(sq),
        }
    }
}

/// Piece kinds. `None` is used for empty squares and "no promotion".
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PieceType {
    None = 0,
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    #[inline(always)]
    pub const fn from_index(index: u8) -> PieceType {
        match index {
            1 => PieceType::Pawn,
            2 => PieceType::Knight,
            3 => PieceType::Bishop,
            4 => PieceType::Rook,
            5 => PieceType::Queen,
            6 => PieceType::King,
            _ => PieceType::None,
        }
    }

    /// The kind in words: `pawn` .. `king` (`piece` for `None`).
    pub const fn name(self) -> &'static str {
        match self {
            PieceType::Pawn => "pawn",
            PieceType::Knight => "knight",
            PieceType::Bishop => "bishop",
            PieceType::Rook => "rook",
            PieceType::Queen => "queen",
            PieceType::King => "king",
            PieceType::None => "piece",
        }
    }

    /// Upper-case letter (SAN and FEN for white).
    pub const fn letter(self) -> char {
        match self {
            PieceType::None => '?',
            PieceType::Pawn => 'P',
            PieceType::Knight => 'N',
            PieceType::Bishop => 'B',
            PieceType::Rook => 'R',
            PieceType::Queen => 'Q',
            PieceType::King => 'K',
        }
    }

    pub fn from_letter(letter: char) -> Option<PieceType> {
        match letter.to_ascii_uppercase() {
            'P' => Some(PieceType::Pawn),
            'N' => Some(PieceType::Knight),
            'B' => Some(PieceType::Bishop),
            'R' => Some(PieceType::Rook),
            'Q' => Some(PieceType::Queen),
            'K' => Some(PieceType::King),
            _ => None,
        }
    }
}

/// A coloured piece packed in one byte: bits 0..2 the type, bit 3 the colour.
///
/// ```text
///   bit  3   2 1 0
///        c   t t t      c: 0 white, 1 black;  ttt: PieceType (0 = empty)
/// ```
/// So white pieces are 1..=6, black pieces 9..=14 and 0 is an empty square. Tables indexed
/// by piece have 16 rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(pub u8);

impl Piece {
    pub const NONE: Piece = Piece(0);

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(((color as u8) << 3) | kind as u8)
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        PieceType::from_index(self.0 & 7)
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 8 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter: upper case for white, lower case for black.
    pub fn fen_char(self) -> char {
        let letter = self.kind().letter();
        match self.color() {
            Color::White => letter,
            Color::Black => letter.to_ascii_lowercase(),
        }
    }

    pub fn from_fen_char(letter: char) -> Option<Piece> {
        let kind = PieceType::from_letter(letter)?;
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_index_round_trip() {
        for index in 0..64 {
            let sq = from_64(index);
            assert!(on_board(sq as i32));
            assert_eq!(to_64(sq), index);
        }
        assert_eq!(parse_square("e4"), Some(0x34));
        assert_eq!(square_name(0x34), "e4");
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
        assert!(!on_board(0x08));
        assert!(!on_board(-1));
        assert!(!on_board(0x80));
    }

    #[test]
    fn piece_packing() {
        let piece = Piece::new(Color::Black, PieceType::Queen);
        assert_eq!(piece.0, 13);
        assert_eq!(piece.kind(), PieceType::Queen);
        assert_eq!(piece.color(), Color::Black);
        assert_eq!(piece.fen_char(), 'q');
        assert_eq!(
            Piece::from_fen_char('N'),
            Some(Piece::new(Color::White, PieceType::Knight))
        );
        assert_eq!(Piece::from_fen_char('x'), None);
    }
}
