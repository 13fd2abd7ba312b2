//! Evaluation weights. Written by hand first; `engine tune` prints a replacement for this
//! file from labelled positions (see README, "Tuning").

use crate::score::S;

/// Piece values: pawn, knight, bishop, rook, queen, king.
pub const MATERIAL: [S; 6] = [
    S::new(80, 100),
    S::new(320, 290),
    S::new(330, 310),
    S::new(460, 530),
    S::new(940, 960),
    S::new(0, 0),
];

/// Piece-square bonuses from white's side, written rank 8 first (as a board is read).
#[rustfmt::skip]
pub const PIECE_SQUARE: [[S; 64]; 6] = [
    // Pawn
    [
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(20, 75), S::new(20, 75), S::new(20, 75), S::new(20, 75), S::new(20, 75), S::new(20, 75), S::new(20, 75), S::new(20, 75),
        S::new(16, 48), S::new(16, 48), S::new(16, 48), S::new(16, 48), S::new(16, 48), S::new(16, 48), S::new(16, 48), S::new(16, 48),
        S::new(12, 27), S::new(12, 27), S::new(12, 27), S::new(22, 27), S::new(22, 27), S::new(12, 27), S::new(12, 27), S::new(12, 27),
        S::new(8, 12), S::new(8, 12), S::new(8, 12), S::new(18, 12), S::new(18, 12), S::new(8, 12), S::new(8, 12), S::new(8, 12),
        S::new(4, 3), S::new(4, 3), S::new(4, 3), S::new(4, 3), S::new(4, 3), S::new(4, 3), S::new(4, 3), S::new(4, 3),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(-5, 0), S::new(-5, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    ],
    // Knight
    [
        S::new(-24, -18), S::new(-16, -12), S::new(-8, -6), S::new(0, 0), S::new(0, 0), S::new(-8, -6), S::new(-16, -12), S::new(-24, -18),
        S::new(-16, -12), S::new(-8, -6), S::new(0, 0), S::new(8, 6), S::new(8, 6), S::new(0, 0), S::new(-8, -6), S::new(-16, -12),
        S::new(-8, -6), S::new(0, 0), S::new(8, 6), S::new(16, 12), S::new(16, 12), S::new(8, 6), S::new(0, 0), S::new(-8, -6),
        S::new(0, 0), S::new(8, 6), S::new(16, 12), S::new(24, 18), S::new(24, 18), S::new(16, 12), S::new(8, 6), S::new(0, 0),
        S::new(0, 0), S::new(8, 6), S::new(16, 12), S::new(24, 18), S::new(24, 18), S::new(16, 12), S::new(8, 6), S::new(0, 0),
        S::new(-8, -6), S::new(0, 0), S::new(8, 6), S::new(16, 12), S::new(16, 12), S::new(8, 6), S::new(0, 0), S::new(-8, -6),
        S::new(-16, -12), S::new(-8, -6), S::new(0, 0), S::new(8, 6), S::new(8, 6), S::new(0, 0), S::new(-8, -6), S::new(-16, -12),
        S::new(-24, -18), S::new(-16, -12), S::new(-8, -6), S::new(0, 0), S::new(0, 0), S::new(-8, -6), S::new(-16, -12), S::new(-24, -18),
    ],
    // Bishop
    [
        S::new(-10, -12), S::new(-6, -8), S::new(-2, -4), S::new(2, 0), S::new(2, 0), S::new(-2, -4), S::new(-6, -8), S::new(-10, -12),
        S::new(-6, -8), S::new(-2, -4), S::new(2, 0), S::new(6, 4), S::new(6, 4), S::new(2, 0), S::new(-2, -4), S::new(-6, -8),
        S::new(-2, -4), S::new(2, 0), S::new(6, 4), S::new(10, 8), S::new(10, 8), S::new(6, 4), S::new(2, 0), S::new(-2, -4),
        S::new(2, 0), S::new(6, 4), S::new(10, 8), S::new(14, 12), S::new(14, 12), S::new(10, 8), S::new(6, 4), S::new(2, 0),
        S::new(2, 0), S::new(6, 4), S::new(10, 8), S::new(14, 12), S::new(14, 12), S::new(10, 8), S::new(6, 4), S::new(2, 0),
        S::new(-2, -4), S::new(2, 0), S::new(6, 4), S::new(10, 8), S::new(10, 8), S::new(6, 4), S::new(2, 0), S::new(-2, -4),
        S::new(-6, -8), S::new(-2, -4), S::new(2, 0), S::new(6, 4), S::new(6, 4), S::new(2, 0), S::new(-2, -4), S::new(-6, -8),
        S::new(-10, -12), S::new(-6, -8), S::new(-2, -4), S::new(2, 0), S::new(2, 0), S::new(-2, -4), S::new(-6, -8), S::new(-10, -12),
    ],
    // Rook
    [
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(3, 0), S::new(3, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(10, 0), S::new(10, 0), S::new(10, 0), S::new(13, 0), S::new(13, 0), S::new(10, 0), S::new(10, 0), S::new(10, 0),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(3, 0), S::new(3, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(3, 0), S::new(3, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(3, 0), S::new(3, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(3, 0), S::new(3, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(3, 0), S::new(3, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(3, 0), S::new(3, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    ],
    // Queen
    [
        S::new(-6, -15), S::new(-4, -10), S::new(-2, -5), S::new(0, 0), S::new(0, 0), S::new(-2, -5), S::new(-4, -10), S::new(-6, -15),
        S::new(-4, -10), S::new(-2, -5), S::new(0, 0), S::new(2, 5), S::new(2, 5), S::new(0, 0), S::new(-2, -5), S::new(-4, -10),
        S::new(-2, -5), S::new(0, 0), S::new(2, 5), S::new(4, 10), S::new(4, 10), S::new(2, 5), S::new(0, 0), S::new(-2, -5),
        S::new(0, 0), S::new(2, 5), S::new(4, 10), S::new(6, 15), S::new(6, 15), S::new(4, 10), S::new(2, 5), S::new(0, 0),
        S::new(0, 0), S::new(2, 5), S::new(4, 10), S::new(6, 15), S::new(6, 15), S::new(4, 10), S::new(2, 5), S::new(0, 0),
        S::new(-2, -5), S::new(0, 0), S::new(2, 5), S::new(4, 10), S::new(4, 10), S::new(2, 5), S::new(0, 0), S::new(-2, -5),
        S::new(-4, -10), S::new(-2, -5), S::new(0, 0), S::new(2, 5), S::new(2, 5), S::new(0, 0), S::new(-2, -5), S::new(-4, -10),
        S::new(-6, -15), S::new(-4, -10), S::new(-2, -5), S::new(0, 0), S::new(0, 0), S::new(-2, -5), S::new(-4, -10), S::new(-6, -15),
    ],
    // King
    [
        S::new(-84, -20), S::new(-84, -12), S::new(-84, -4), S::new(-84, 4), S::new(-84, 4), S::new(-84, -4), S::new(-84, -12), S::new(-84, -20),
        S::new(-72, -12), S::new(-72, -4), S::new(-72, 4), S::new(-72, 12), S::new(-72, 12), S::new(-72, 4), S::new(-72, -4), S::new(-72, -12),
        S::new(-60, -4), S::new(-60, 4), S::new(-60, 12), S::new(-60, 20), S::new(-60, 20), S::new(-60, 12), S::new(-60, 4), S::new(-60, -4),
        S::new(-48, 4), S::new(-48, 12), S::new(-48, 20), S::new(-48, 28), S::new(-48, 28), S::new(-48, 20), S::new(-48, 12), S::new(-48, 4),
        S::new(-36, 4), S::new(-36, 12), S::new(-36, 20), S::new(-36, 28), S::new(-36, 28), S::new(-36, 20), S::new(-36, 12), S::new(-36, 4),
        S::new(-24, -4), S::new(-24, 4), S::new(-24, 12), S::new(-24, 20), S::new(-24, 20), S::new(-24, 12), S::new(-24, 4), S::new(-24, -4),
        S::new(-12, -12), S::new(-12, -4), S::new(-12, 4), S::new(-12, 12), S::new(-12, 12), S::new(-12, 4), S::new(-12, -4), S::new(-12, -12),
        S::new(0, -20), S::new(20, -12), S::new(20, -4), S::new(0, 4), S::new(0, 4), S::new(0, -4), S::new(20, -12), S::new(0, -20),
    ],
];
