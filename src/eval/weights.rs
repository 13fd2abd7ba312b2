//! Evaluation weights: every tuned number of the evaluation, in one generated file.
//!
//! Written by `engine tune` (Texel's method on self-play positions from `engine datagen`);
//! regenerate rather than edit by hand. Each `S` is a (middle game, end game) pair in
//! centipawns, white's point of view; `eval::params` lists these tables in order for the tuner.
//! Origin of these values: `engine tune all.epd` (102543 training + 11272 validation positions, iteration 500 of 500, K = 1.112, validation error 0.08540 -> 0.08524).

use crate::score::S;

/// Piece values: pawn, knight, bishop, rook, queen, king.
#[rustfmt::skip]
pub const MATERIAL: [S; 6] = [
    S::new(63, 92), S::new(322, 318), S::new(315, 336), S::new(475, 554), S::new(979, 1005), S::new(0, 0),
];

/// Piece-square bonuses from white's side, written rank 8 first (as a board is read).
#[rustfmt::skip]
pub const PIECE_SQUARE: [[S; 64]; 6] = [
    // Pawn
    [
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(20, 94), S::new(30, 45), S::new(1, 36), S::new(26, 83), S::new(26, 83), S::new(1, 36), S::new(30, 45), S::new(20, 94),
        S::new(36, 35), S::new(-6, 33), S::new(40, 36), S::new(22, 38), S::new(22, 38), S::new(40, 36), S::new(-6, 33), S::new(36, 35),
        S::new(30, 22), S::new(-20, 37), S::new(0, 22), S::new(-1, 15), S::new(-1, 15), S::new(0, 22), S::new(-20, 37), S::new(30, 22),
        S::new(22, 1), S::new(0, 11), S::new(13, 20), S::new(20, -4), S::new(20, -4), S::new(13, 20), S::new(0, 11), S::new(22, 1),
        S::new(22, 20), S::new(-4, 21), S::new(1, 7), S::new(4, 22), S::new(4, 22), S::new(1, 7), S::new(-4, 21), S::new(22, 20),
        S::new(16, 13), S::new(-12, 18), S::new(-1, 15), S::new(-21, 12), S::new(-21, 12), S::new(-1, 15), S::new(-12, 18), S::new(16, 13),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    ],
    // Knight
    [
        S::new(-48, -23), S::new(-17, -16), S::new(-1, 6), S::new(3, 13), S::new(3, 13), S::new(-1, 6), S::new(-17, -16), S::new(-48, -23),
        S::new(-24, -17), S::new(-17, -6), S::new(-16, -6), S::new(19, 10), S::new(19, 10), S::new(-16, -6), S::new(-17, -6), S::new(-24, -17),
        S::new(-18, -26), S::new(28, 12), S::new(36, 5), S::new(31, 23), S::new(31, 23), S::new(36, 5), S::new(28, 12), S::new(-18, -26),
        S::new(26, 8), S::new(23, -5), S::new(16, 28), S::new(13, 21), S::new(13, 21), S::new(16, 28), S::new(23, -5), S::new(26, 8),
        S::new(14, 2), S::new(-2, 28), S::new(10, 25), S::new(13, 16), S::new(13, 16), S::new(10, 25), S::new(-2, 28), S::new(14, 2),
        S::new(-27, -12), S::new(-4, -5), S::new(0, 9), S::new(21, 1), S::new(21, 1), S::new(0, 9), S::new(-4, -5), S::new(-27, -12),
        S::new(-24, 0), S::new(-24, -15), S::new(4, -1), S::new(0, 7), S::new(0, 7), S::new(4, -1), S::new(-24, -15), S::new(-24, 0),
        S::new(-22, -18), S::new(-25, -28), S::new(25, -5), S::new(-9, -3), S::new(-9, -3), S::new(25, -5), S::new(-25, -28), S::new(-22, -18),
    ],
    // Bishop
    [
        S::new(0, -8), S::new(-6, -14), S::new(7, 6), S::new(4, 7), S::new(4, 7), S::new(7, 6), S::new(-6, -14), S::new(0, -8),
        S::new(-22, -14), S::new(-3, 5), S::new(19, 14), S::new(15, 23), S::new(15, 23), S::new(19, 14), S::new(-3, 5), S::new(-22, -14),
        S::new(-25, -6), S::new(7, -6), S::new(18, 21), S::new(18, 27), S::new(18, 27), S::new(18, 21), S::new(7, -6), S::new(-25, -6),
        S::new(-32, 7), S::new(11, 15), S::new(10, 13), S::new(-8, 42), S::new(-8, 42), S::new(10, 13), S::new(11, 15), S::new(-32, 7),
        S::new(-11, -22), S::new(-2, 27), S::new(13, -9), S::new(24, 13), S::new(24, 13), S::new(13, -9), S::new(-2, 27), S::new(-11, -22),
        S::new(-9, -6), S::new(21, -15), S::new(19, -24), S::new(23, -3), S::new(23, -3), S::new(19, -24), S::new(21, -15), S::new(-9, -6),
        S::new(-19, -22), S::new(5, 2), S::new(-12, -22), S::new(1, -8), S::new(1, -8), S::new(-12, -22), S::new(5, 2), S::new(-19, -22),
        S::new(-10, -14), S::new(-5, 10), S::new(-8, 0), S::new(3, -15), S::new(3, -15), S::new(-8, 0), S::new(-5, 10), S::new(-10, -14),
    ],
    // Rook
    [
        S::new(5, 18), S::new(-3, -8), S::new(8, 23), S::new(11, 5), S::new(11, 5), S::new(8, 23), S::new(-3, -8), S::new(5, 18),
        S::new(27, 5), S::new(16, 9), S::new(10, 6), S::new(23, 19), S::new(23, 19), S::new(10, 6), S::new(16, 9), S::new(27, 5),
        S::new(-5, 9), S::new(4, 8), S::new(9, 2), S::new(41, 23), S::new(41, 23), S::new(9, 2), S::new(4, 8), S::new(-5, 9),
        S::new(-1, 16), S::new(-3, -1), S::new(10, 5), S::new(8, 8), S::new(8, 8), S::new(10, 5), S::new(-3, -1), S::new(-1, 16),
        S::new(-17, 5), S::new(-7, -15), S::new(-4, 15), S::new(-2, -15), S::new(-2, -15), S::new(-4, 15), S::new(-7, -15), S::new(-17, 5),
        S::new(-2, -16), S::new(15, -24), S::new(-32, 11), S::new(0, 15), S::new(0, 15), S::new(-32, 11), S::new(15, -24), S::new(-2, -16),
        S::new(-12, -13), S::new(-2, -21), S::new(-36, -4), S::new(2, -5), S::new(2, -5), S::new(-36, -4), S::new(-2, -21), S::new(-12, -13),
        S::new(0, -9), S::new(-4, -32), S::new(13, -13), S::new(3, 0), S::new(3, 0), S::new(13, -13), S::new(-4, -32), S::new(0, -9),
    ],
    // Queen
    [
        S::new(-36, -21), S::new(-10, -11), S::new(-9, -13), S::new(9, 1), S::new(9, 1), S::new(-9, -13), S::new(-10, -11), S::new(-36, -21),
        S::new(-8, -8), S::new(8, -2), S::new(18, 8), S::new(5, 10), S::new(5, 10), S::new(18, 8), S::new(8, -2), S::new(-8, -8),
        S::new(-12, -10), S::new(1, 2), S::new(3, 1), S::new(24, 15), S::new(24, 15), S::new(3, 1), S::new(1, 2), S::new(-12, -10),
        S::new(-5, -1), S::new(-19, 17), S::new(13, 11), S::new(32, 33), S::new(32, 33), S::new(13, 11), S::new(-19, 17), S::new(-5, -1),
        S::new(-12, 16), S::new(21, 9), S::new(-8, 15), S::new(8, 44), S::new(8, 44), S::new(-8, 15), S::new(21, 9), S::new(-12, 16),
        S::new(8, 2), S::new(12, -6), S::new(-3, 7), S::new(-12, 27), S::new(-12, 27), S::new(-3, 7), S::new(12, -6), S::new(8, 2),
        S::new(-5, -7), S::new(11, 3), S::new(14, -22), S::new(8, 14), S::new(8, 14), S::new(14, -22), S::new(11, 3), S::new(-5, -7),
        S::new(-5, -13), S::new(-18, -21), S::new(-12, -3), S::new(15, -53), S::new(15, -53), S::new(-12, -3), S::new(-18, -21), S::new(-5, -13),
    ],
    // King
    [
        S::new(-87, -48), S::new(-85, -14), S::new(-83, 0), S::new(-84, 7), S::new(-84, 7), S::new(-83, 0), S::new(-85, -14), S::new(-87, -48),
        S::new(-74, -24), S::new(-70, 6), S::new(-71, -9), S::new(-69, 26), S::new(-69, 26), S::new(-71, -9), S::new(-70, 6), S::new(-74, -24),
        S::new(-60, 3), S::new(-59, 10), S::new(-57, 22), S::new(-59, 25), S::new(-59, 25), S::new(-57, 22), S::new(-59, 10), S::new(-60, 3),
        S::new(-47, -3), S::new(-43, 21), S::new(-47, 27), S::new(-47, 38), S::new(-47, 38), S::new(-47, 27), S::new(-43, 21), S::new(-47, -3),
        S::new(-41, 1), S::new(-38, 17), S::new(-32, 28), S::new(-25, 33), S::new(-25, 33), S::new(-32, 28), S::new(-38, 17), S::new(-41, 1),
        S::new(-22, -3), S::new(-24, 7), S::new(-10, -2), S::new(-47, 8), S::new(-47, 8), S::new(-10, -2), S::new(-24, 7), S::new(-22, -3),
        S::new(-21, 2), S::new(-19, -1), S::new(-10, 1), S::new(-6, 3), S::new(-6, 3), S::new(-10, 1), S::new(-19, -1), S::new(-21, 2),
        S::new(17, -39), S::new(22, -2), S::new(-8, -2), S::new(-9, -9), S::new(-9, -9), S::new(-8, -2), S::new(22, -2), S::new(17, -39),
    ],
];

/// Knight: bonus by the number of safe squares it reaches (not own pieces, not attacked by enemy pawns).
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [S; 9] = [
    S::new(-6, -44), S::new(-15, -14), S::new(-5, -15), S::new(2, -11), S::new(6, 4), S::new(10, 13), S::new(13, 12), S::new(17, 25),
    S::new(10, 25),
];

/// Bishop: bonus by the number of safe squares it reaches.
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [S; 14] = [
    S::new(-20, -51), S::new(-10, 4), S::new(-4, -6), S::new(7, -18), S::new(13, -5), S::new(16, 8), S::new(14, 20), S::new(13, 26),
    S::new(17, 18), S::new(22, 14), S::new(26, 19), S::new(7, 22), S::new(33, 35), S::new(31, 39),
];

/// Rook: bonus by the number of safe squares it reaches.
#[rustfmt::skip]
pub const ROOK_MOBILITY: [S; 15] = [
    S::new(-20, -23), S::new(-10, -37), S::new(-7, -8), S::new(-5, 13), S::new(-4, 12), S::new(1, 16), S::new(6, 16), S::new(1, 33),
    S::new(13, 30), S::new(19, 37), S::new(21, 42), S::new(38, 47), S::new(9, 49), S::new(29, 38), S::new(11, 39),
];

/// Queen: bonus by the number of safe squares it reaches.
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [S; 28] = [
    S::new(-11, -30), S::new(-26, -17), S::new(-21, -20), S::new(-12, -13), S::new(-10, -18), S::new(-9, -16), S::new(-1, 6), S::new(1, 6),
    S::new(6, 7), S::new(16, -4), S::new(11, 10), S::new(1, 32), S::new(12, 37), S::new(21, 28), S::new(14, 37), S::new(22, 33),
    S::new(21, 29), S::new(14, 29), S::new(25, 36), S::new(7, 22), S::new(19, 40), S::new(16, 35), S::new(16, 34), S::new(18, 36),
    S::new(17, 39), S::new(19, 39), S::new(20, 44), S::new(20, 45),
];

/// Passed pawn by relative rank (rank 1 first).
#[rustfmt::skip]
pub const PASSED_PAWN: [S; 8] = [
    S::new(0, 0), S::new(-4, -2), S::new(8, 49), S::new(4, 32), S::new(13, 38), S::new(46, 52), S::new(66, 88), S::new(0, 0),
];

/// Passed pawn whose path to promotion is empty, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [S; 8] = [
    S::new(0, 0), S::new(-2, 2), S::new(4, 11), S::new(-12, 11), S::new(15, 22), S::new(25, 29), S::new(22, 44), S::new(0, 0),
];

/// Passed pawn: per step of king distance from its own king to the stop square, by rank.
#[rustfmt::skip]
pub const PASSED_OWN_KING_DISTANCE: [S; 8] = [
    S::new(0, 0), S::new(-4, -5), S::new(17, -15), S::new(-4, -12), S::new(12, -17), S::new(8, -14), S::new(0, -18), S::new(0, 0),
];

/// Passed pawn: per step of king distance from the enemy king to the stop square, by rank.
#[rustfmt::skip]
pub const PASSED_ENEMY_KING_DISTANCE: [S; 8] = [
    S::new(0, 0), S::new(8, 4), S::new(-19, 6), S::new(4, 19), S::new(-16, 27), S::new(-19, 39), S::new(16, 34), S::new(0, 0),
];

/// A passer the enemy king cannot catch (rule of the square) when the enemy has only pawns.
pub const UNSTOPPABLE_PASSER: S = S::new(0, 303);

/// Pawn with no own pawn on either neighbouring file.
pub const ISOLATED_PAWN: S = S::new(-12, -17);

/// Pawn with an own pawn ahead of it on the same file.
pub const DOUBLED_PAWN: S = S::new(6, -29);

/// Pawn behind its neighbours whose stop square an enemy pawn attacks.
pub const BACKWARD_PAWN: S = S::new(-9, -19);

/// Pawn defended by a pawn or standing beside one, by relative rank.
#[rustfmt::skip]
pub const CONNECTED_PAWN: [S; 8] = [
    S::new(0, 0), S::new(5, -2), S::new(9, 0), S::new(4, 2), S::new(22, 10), S::new(14, 14), S::new(42, 53), S::new(0, 0),
];

/// Per king-zone square attacked, by attacker kind: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const KING_ATTACK_WEIGHT: [S; 4] = [
    S::new(9, 4), S::new(11, 1), S::new(-6, 2), S::new(5, 16),
];

/// By the number of pieces attacking the enemy king zone (7 or more in the last slot).
#[rustfmt::skip]
pub const KING_ATTACKERS: [S; 8] = [
    S::new(0, 0), S::new(-6, -1), S::new(17, -7), S::new(28, 11), S::new(47, 2), S::new(58, 0), S::new(70, 0), S::new(80, 0),
];

/// Per file next to the king: nearest own pawn ahead 1, 2, 3+ ranks away, or none.
#[rustfmt::skip]
pub const PAWN_SHIELD: [S; 4] = [
    S::new(12, 1), S::new(3, 3), S::new(3, -9), S::new(-22, 4),
];

/// Per file next to the king: nearest enemy pawn ahead 1, 2, 3 ranks away, or further/none.
#[rustfmt::skip]
pub const PAWN_STORM: [S; 4] = [
    S::new(-1, 6), S::new(-6, -1), S::new(-12, -3), S::new(-8, -2),
];

/// Two or more bishops.
pub const BISHOP_PAIR: S = S::new(49, 47);

/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: S = S::new(45, -8);

/// Rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: S = S::new(18, 8);

/// Enemy knight, bishop, rook or queen attacked by one of our pawns.
pub const THREAT_BY_PAWN: S = S::new(45, 23);

/// Side to move.
pub const TEMPO: S = S::new(11, 0);
