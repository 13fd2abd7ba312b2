//! Moves packed in 16 bits, and the move list.
//!
//! ```text
//!   15 14 13 12 | 11 10  9  8  7  6 |  5  4  3  2  1  0
//!      flag     |    to (0..64)     |   from (0..64)
//! ```
//! Squares are stored in the dense 0..64 form and converted back to 0x88 on access.
//! Castling is encoded as "king takes own rook": `to` is the rook's square. That is the same
//! for standard chess and Chess960, and UCI text converts it to `e1g1` where needed.
//! The all-zero value (a1a1, quiet) is never a legal move and serves as `Move::NULL`.

use arrayvec::ArrayVec;

use crate::types::{PieceType, Square, file_of, from_64, make_square, rank_of, square_name, to_64};

/// Enough for any legal position (the known maximum is 218).
pub const MAX_MOVES: usize = 256;
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

const _: () = assert!(std::mem::size_of::<Move>() == 2);

/// Move kinds, the top four bits of a `Move`.
pub mod flag {
    pub const QUIET: u16 = 0;
    pub const DOUBLE_PUSH: u16 = 1;
    pub const CASTLE: u16 = 2;
    pub const CAPTURE: u16 = 4;
    pub const EN_PASSANT: u16 = 5;
    /// Promotions: `PROMOTION | (kind - Knight)`, plus `CAPTURE` when taking.
    pub const PROMOTION: u16 = 8;
}

impl Move {
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub fn new(from: Square, to: Square, kind: u16) -> Move {
        Move((to_64(from) as u16) | ((to_64(to) as u16) << 6) | (kind << 12))
    }

    /// A promotion to `piece`, capturing or not.
    #[inline(always)]
    pub fn promotion(from: Square, to: Square, piece: PieceType, capture: bool) -> Move {
        let mut kind = flag::PROMOTION | (piece as u16 - PieceType::Knight as u16);
        if capture {
            kind |= flag::CAPTURE;
        }
        Move::new(from, to, kind)
    }

    #[inline(always)]
    pub fn from(self) -> Square {
        from_64((self.0 & 63) as usize)
    }

    #[inline(always)]
    pub fn to(self) -> Square {
        from_64(((self.0 >> 6) & 63) as usize)
    }

    /// `to_64(self.from())` without the round trip through the 0x88 square (the history
    /// tables and threat masks index by dense squares).
    #[inline(always)]
    pub fn from_dense(self) -> usize {
        (self.0 & 63) as usize
    }

    /// `to_64(self.to())`, as `from_dense`.
    #[inline(always)]
    pub fn to_dense(self) -> usize {
        ((self.0 >> 6) & 63) as usize
    }

    #[inline(always)]
    pub fn flag(self) -> u16 {
        self.0 >> 12
    }

    #[inline(always)]
    pub fn is_null(self) -> bool {
        self.0 == 0
    }

    /// Captures, en passant included.
    #[inline(always)]
    pub fn is_capture(self) -> bool {
        self.flag() & flag::CAPTURE != 0
    }

    #[inline(always)]
    pub fn is_promotion(self) -> bool {
        self.flag() & flag::PROMOTION != 0
    }

    #[inline(always)]
    pub fn is_en_passant(self) -> bool {
        self.flag() == flag::EN_PASSANT
    }

    #[inline(always)]
    pub fn is_castle(self) -> bool {
        self.flag() == flag::CASTLE
    }

    /// Captures and promotions: the moves quiescence search looks at.
    #[inline(always)]
    pub fn is_noisy(self) -> bool {
        self.flag() & (flag::CAPTURE | flag::PROMOTION) != 0
    }

    /// The piece a pawn becomes, or `PieceType::None`.
    #[inline(always)]
    pub fn promotion_piece(self) -> PieceType {
        if self.is_promotion() {
            PieceType::from_index((self.flag() & 3) as u8 + PieceType::Knight as u8)
        } else {
            PieceType::None
        }
    }

    /// For castling: where the king ends (g- or c-file of its rank).
    #[inline(always)]
    pub fn castle_king_target(self) -> Square {
        let file = if self.to() > self.from() { 6 } else { 2 };
        make_square(file, rank_of(self.from()))
    }

    /// For castling: where the rook ends (f- or d-file of its rank).
    #[inline(always)]
    pub fn castle_rook_target(self) -> Square {
        let file = if self.to() > self.from() { 5 } else { 3 };
        make_square(file, rank_of(self.from()))
    }

    /// UCI text. Castling is `e1g1` in standard chess and king-takes-rook in Chess960.
    pub fn to_uci(self, chess960: bool) -> String {
        if self.is_null() {
            return "0000".to_string();
        }
        let to = if self.is_castle() && !chess960 {
            self.castle_king_target()
        } else {
            self.to()
        };
        let mut text = format!("{}{}", square_name(self.from()), square_name(to));
        if self.is_promotion() {
            text.push(self.promotion_piece().letter().to_ascii_lowercase());
        }
        text
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_uci(true))
    }
}

/// The file letter of a square, for SAN and FEN.
pub fn file_letter(sq: Square) -> char {
    (b'a' + file_of(sq)) as char
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::parse_square;

    fn sq(name: &str) -> Square {
        parse_square(name).expect("test square")
    }

    #[test]
    fn packing_round_trip() {
        let m = Move::new(sq("e2"), sq("e4"), flag::DOUBLE_PUSH);
        assert_eq!(m.from(), sq("e2"));
        assert_eq!(m.to(), sq("e4"));
        assert_eq!(m.flag(), flag::DOUBLE_PUSH);
        assert_eq!(m.to_uci(false), "e2e4");
        let p = Move::promotion(sq("a7"), sq("b8"), PieceType::Knight, true);
        assert!(p.is_capture() && p.is_promotion());
        assert_eq!(p.promotion_piece(), PieceType::Knight);
        assert_eq!(p.to_uci(false), "a7b8n");
        let castle = Move::new(sq("e1"), sq("h1"), flag::CASTLE);
        assert_eq!(castle.to_uci(false), "e1g1");
        assert_eq!(castle.to_uci(true), "e1h1");
        let long = Move::new(sq("e8"), sq("a8"), flag::CASTLE);
        assert_eq!(long.to_uci(false), "e8c8");
        assert!(Move::NULL.is_null());
    }

    #[test]
    fn dense_squares_match_the_round_trip() {
        for from in (0..64).map(from_64) {
            for to in [from_64(0), from_64(27), from_64(63), from] {
                let mv = Move::new(from, to, flag::CAPTURE);
                assert_eq!(mv.from_dense(), to_64(mv.from()));
                assert_eq!(mv.to_dense(), to_64(mv.to()));
            }
        }
    }
}
