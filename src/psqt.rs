//! Material plus piece-square values, the part of the evaluation kept incrementally.
//!
//! `Position` adds `PSQT[piece][square]` when a piece is put on a square and subtracts it when
//! the piece leaves, so the sum over the board (white minus black) is always at hand. The
//! values themselves live in `weights` (tuned, see `engine tune`); this module only
//! lays them out per coloured piece: black reads the white table mirrored and negated.

use crate::tapered::S;
use crate::types::{Piece, PieceType, to_64};
use crate::weights::{MATERIAL, PIECE_SQUARE};

const fn build() -> [[S; 64]; 16] {
    let mut table = [[S::ZERO; 64]; 16];
    let mut kind = 1;
    while kind <= 6 {
        let material = MATERIAL[kind - 1];
        let mut index = 0;
        while index < 64 {
            // Tables are written rank 8 first (as you read a board), so a1 is row 7.
            let rank = index / 8;
            let file = index % 8;
            let written = (7 - rank) * 8 + file;
            let value = S::new(
                material.mg() + PIECE_SQUARE[kind - 1][written].mg(),
                material.eg() + PIECE_SQUARE[kind - 1][written].eg(),
            );
            table[kind][index] = value;
            let mirrored = index ^ 56;
            table[kind + 8][mirrored] = S::new(-value.mg(), -value.eg());
            index += 1;
        }
        kind += 1;
    }
    table
}

pub static PSQT: [[S; 64]; 16] = build();

#[inline(always)]
pub fn value(piece: Piece, sq: crate::types::Square) -> S {
    PSQT[piece.index()][to_64(sq)]
}

/// Material value of a piece kind in the middle game, for ordering and pruning margins.
pub const fn piece_value(kind: PieceType) -> i32 {
    match kind {
        PieceType::None => 0,
        PieceType::Pawn => 100,
        PieceType::Knight => 320,
        PieceType::Bishop => 330,
        PieceType::Rook => 500,
        PieceType::Queen => 950,
        PieceType::King => 20000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, parse_square};

    #[test]
    fn black_mirrors_white() {
        let e2 = parse_square("e2").expect("square");
        let e7 = parse_square("e7").expect("square");
        let white = value(Piece::new(Color::White, PieceType::Pawn), e2);
        let black = value(Piece::new(Color::Black, PieceType::Pawn), e7);
        assert_eq!(white.mg(), -black.mg());
        assert_eq!(white.eg(), -black.eg());
    }
}
