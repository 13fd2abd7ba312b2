//! 0x88 geometry: move offsets and the two difference tables.
//!
//! For on-board squares `a` and `b`, `b - a + 119` lies in 0..239 and identifies the
//! (rank delta, file delta) pair uniquely. Two tables indexed that way answer, without
//! looking at the board:
//! - `STEP`: the unit step (+-1, +-16, +-15, +-17) that walks from `a` towards `b` when they
//!   share a rank, file or diagonal, else 0;
//! - `ATTACKERS`: a bit set of the piece kinds that could attack from `a` to `b` on an empty
//!   board (bit `1 << PieceType as u8`). Sliders still need the squares between to be empty.
//!
//! Both are built at compile time.

use crate::types::{Color, PieceType, Square, on_board, to_64};

pub const KNIGHT_OFFSETS: [i32; 8] = [33, 31, 18, 14, -33, -31, -18, -14];
pub const KING_OFFSETS: [i32; 8] = [1, -1, 16, -16, 15, 17, -15, -17];
pub const BISHOP_DIRECTIONS: [i32; 4] = [15, 17, -15, -17];
pub const ROOK_DIRECTIONS: [i32; 4] = [1, -1, 16, -16];

const TABLE_SIZE: usize = 240;

const fn bit(kind: PieceType) -> u8 {
    1 << kind as u8
}

const fn build_step() -> [i8; TABLE_SIZE] {
    let mut table = [0i8; TABLE_SIZE];
    let mut d = 0;
    while d < 8 {
        let step = KING_OFFSETS[d];
        let mut distance = 1;
        while distance < 8 {
            table[(step * distance + 119) as usize] = step as i8;
            distance += 1;
        }
        d += 1;
    }
    table
}

const fn build_attackers() -> [u8; TABLE_SIZE] {
    let mut table = [0u8; TABLE_SIZE];
    let mut i = 0;
    while i < 8 {
        table[(KNIGHT_OFFSETS[i] + 119) as usize] |= bit(PieceType::Knight);
        table[(KING_OFFSETS[i] + 119) as usize] |= bit(PieceType::King);
        i += 1;
    }
    let mut d = 0;
    while d < 4 {
        let mut distance = 1;
        while distance < 8 {
            let diagonal = (BISHOP_DIRECTIONS[d] * distance + 119) as usize;
            table[diagonal] |= bit(PieceType::Bishop) | bit(PieceType::Queen);
            let straight = (ROOK_DIRECTIONS[d] * distance + 119) as usize;
            table[straight] |= bit(PieceType::Rook) | bit(PieceType::Queen);
            distance += 1;
        }
        d += 1;
    }
    table
}

/// The dense bit (`1 << to_64(square)`) of every 0x88 index; 0 for the off-board ones.
const fn build_bits() -> [u64; 128] {
    let mut table = [0u64; 128];
    let mut square = 0;
    while square < 128 {
        if on_board(square as i32) {
            table[square] = 1 << to_64(square as Square);
        }
        square += 1;
    }
    table
}

/// For every 0x88 square, the dense mask of the squares one of `offsets` away.
const fn build_leaps(offsets: &[i32]) -> [u64; 128] {
    let bits = build_bits();
    let mut table = [0u64; 128];
    let mut square = 0;
    while square < 128 {
        if on_board(square as i32) {
            let mut i = 0;
            while i < offsets.len() {
                let target = square as i32 + offsets[i];
                if on_board(target) {
                    table[square] |= bits[target as usize];
                }
                i += 1;
            }
        }
        square += 1;
    }
    table
}

static BITS: [u64; 128] = build_bits();
static KNIGHT_LEAPS: [u64; 128] = build_leaps(&KNIGHT_OFFSETS);
static KING_LEAPS: [u64; 128] = build_leaps(&KING_OFFSETS);
static PAWN_CAPTURES: [[u64; 128]; 2] = [build_leaps(&[15, 17]), build_leaps(&[-15, -17])];

/// The dense bit of an on-board square (`1 << to_64(square)`).
#[inline(always)]
pub fn square_bit(square: Square) -> u64 {
    BITS[square as usize & 0x7F]
}

/// The squares a knight on `square` attacks, as a dense mask.
#[inline(always)]
pub fn knight_leaps(square: Square) -> u64 {
    KNIGHT_LEAPS[square as usize & 0x7F]
}

/// The squares a king on `square` attacks, as a dense mask.
#[inline(always)]
pub fn king_leaps(square: Square) -> u64 {
    KING_LEAPS[square as usize & 0x7F]
}

/// The squares a pawn of `color` on `square` attacks, as a dense mask.
#[inline(always)]
pub fn pawn_captures(color: Color, square: Square) -> u64 {
    PAWN_CAPTURES[color.index()][square as usize & 0x7F]
}

static STEP: [i8; TABLE_SIZE] = build_step();
static ATTACKERS: [u8; TABLE_SIZE] = build_attackers();

#[inline(always)]
fn index(from: Square, to: Square) -> usize {
    (to as i32 - from as i32 + 119) as usize
}

/// Unit step from `from` towards `to` along a line, or 0 if they share none.
#[inline(always)]
pub fn step_between(from: Square, to: Square) -> i32 {
    STEP[index(from, to)] as i32
}

/// Could a piece of `kind` on `from` attack `to` on an otherwise empty board?
/// (Not meaningful for pawns, whose attacks depend on colour.)
#[inline(always)]
pub fn can_attack(kind: PieceType, from: Square, to: Square) -> bool {
    ATTACKERS[index(from, to)] & bit(kind) != 0
}

/// Chebyshev (king-move) distance between two squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    let file = (a as i32 & 7) - (b as i32 & 7);
    let rank = (a as i32 >> 4) - (b as i32 >> 4);
    file.abs().max(rank.abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::parse_square;

    fn sq(name: &str) -> Square {
        parse_square(name).expect("test square")
    }

    fn dense(names: &[&str]) -> u64 {
        names
            .iter()
            .map(|&name| 1u64 << crate::types::to_64(sq(name)))
            .sum()
    }

    #[test]
    fn leap_masks_stay_on_the_board() {
        assert_eq!(knight_leaps(sq("a1")), dense(&["b3", "c2"]));
        assert_eq!(
            knight_leaps(sq("e4")),
            dense(&["d6", "f6", "c5", "g5", "c3", "g3", "d2", "f2"])
        );
        assert_eq!(king_leaps(sq("h8")), dense(&["g8", "g7", "h7"]));
        assert_eq!(pawn_captures(Color::White, sq("a2")), dense(&["b3"]));
        assert_eq!(pawn_captures(Color::Black, sq("e7")), dense(&["d6", "f6"]));
        assert_eq!(pawn_captures(Color::White, sq("h8")), 0);
        for index in 0..64 {
            let square = crate::types::from_64(index);
            assert_eq!(square_bit(square), 1 << index);
        }
    }

    #[test]
    fn steps_and_attackers() {
        assert_eq!(step_between(sq("a1"), sq("h8")), 17);
        assert_eq!(step_between(sq("h8"), sq("a1")), -17);
        assert_eq!(step_between(sq("e1"), sq("e8")), 16);
        assert_eq!(step_between(sq("a1"), sq("b3")), 0);
        assert!(can_attack(PieceType::Knight, sq("g1"), sq("f3")));
        assert!(!can_attack(PieceType::Knight, sq("g1"), sq("g3")));
        assert!(can_attack(PieceType::Queen, sq("d1"), sq("h5")));
        assert!(!can_attack(PieceType::Rook, sq("d1"), sq("h5")));
        assert!(can_attack(PieceType::King, sq("e1"), sq("f2")));
        assert_eq!(distance(sq("a1"), sq("h8")), 7);
    }
}
