//! Evaluation weights: every tuned number of the evaluation, in one generated file.
//!
//! Written by `engine tune` (Texel's method on self-play positions from `engine datagen`);
//! regenerate rather than edit by hand. Each `S` is a (middle game, end game) pair in
//! centipawns, white's point of view; `eval::params` lists these tables in order for the tuner.
//! Origin of these values: `engine tune train.epd` (773723 training + 86134 validation positions, iteration 2000 of 2000, K = 1.194, validation error 0.08612 -> 0.08500).

use crate::tapered::S;

/// Piece values: pawn, knight, bishop, rook, queen, king.
#[rustfmt::skip]
pub const MATERIAL: [S; 6] = [
    S::new(59, 90), S::new(301, 377), S::new(286, 396), S::new(423, 659), S::new(1009, 1127), S::new(0, 0),
];

/// Piece-square bonuses from white's side, written rank 8 first (as a board is read).
#[rustfmt::skip]
pub const PIECE_SQUARE: [[S; 64]; 6] = [
    // Pawn
    [
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
        S::new(16, 24), S::new(32, 46), S::new(-2, 64), S::new(39, 60), S::new(39, 60), S::new(-2, 64), S::new(32, 46), S::new(16, 24),
        S::new(32, 31), S::new(-7, 45), S::new(33, 38), S::new(15, 30), S::new(15, 30), S::new(33, 38), S::new(-7, 45), S::new(32, 31),
        S::new(19, 19), S::new(-7, 26), S::new(6, 15), S::new(3, 4), S::new(3, 4), S::new(6, 15), S::new(-7, 26), S::new(19, 19),
        S::new(9, 7), S::new(-3, 17), S::new(15, 18), S::new(16, 0), S::new(16, 0), S::new(15, 18), S::new(-3, 17), S::new(9, 7),
        S::new(11, 20), S::new(-1, 24), S::new(7, 15), S::new(4, 34), S::new(4, 34), S::new(7, 15), S::new(-1, 24), S::new(11, 20),
        S::new(8, 19), S::new(3, 29), S::new(7, 29), S::new(-17, 34), S::new(-17, 34), S::new(7, 29), S::new(3, 29), S::new(8, 19),
        S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    ],
    // Knight
    [
        S::new(-79, -44), S::new(-19, -19), S::new(-25, -4), S::new(7, 18), S::new(7, 18), S::new(-25, -4), S::new(-19, -19), S::new(-79, -44),
        S::new(-24, -7), S::new(-24, -9), S::new(18, 12), S::new(4, 16), S::new(4, 16), S::new(18, 12), S::new(-24, -9), S::new(-24, -7),
        S::new(-4, -17), S::new(53, -27), S::new(58, -3), S::new(48, 24), S::new(48, 24), S::new(58, -3), S::new(53, -27), S::new(-4, -17),
        S::new(34, -4), S::new(13, 9), S::new(20, 33), S::new(13, 41), S::new(13, 41), S::new(20, 33), S::new(13, 9), S::new(34, -4),
        S::new(2, 7), S::new(10, 27), S::new(9, 34), S::new(7, 37), S::new(7, 37), S::new(9, 34), S::new(10, 27), S::new(2, 7),
        S::new(-26, -19), S::new(-8, -3), S::new(-3, 5), S::new(7, 14), S::new(7, 14), S::new(-3, 5), S::new(-8, -3), S::new(-26, -19),
        S::new(-9, 5), S::new(-8, 3), S::new(-11, -4), S::new(-2, 6), S::new(-2, 6), S::new(-11, -4), S::new(-8, 3), S::new(-9, 5),
        S::new(-22, -25), S::new(-26, -13), S::new(-12, -4), S::new(-17, -2), S::new(-17, -2), S::new(-12, -4), S::new(-26, -13), S::new(-22, -25),
    ],
    // Bishop
    [
        S::new(12, 6), S::new(-14, -6), S::new(4, 1), S::new(-6, 6), S::new(-6, 6), S::new(4, 1), S::new(-14, -6), S::new(12, 6),
        S::new(-41, -2), S::new(-20, 17), S::new(-1, -1), S::new(-2, 12), S::new(-2, 12), S::new(-1, -1), S::new(-20, 17), S::new(-41, -2),
        S::new(0, -8), S::new(12, -2), S::new(35, 12), S::new(3, 16), S::new(3, 16), S::new(35, 12), S::new(12, -2), S::new(0, -8),
        S::new(-21, 2), S::new(7, 5), S::new(12, 18), S::new(16, 37), S::new(16, 37), S::new(12, 18), S::new(7, 5), S::new(-21, 2),
        S::new(-4, -27), S::new(-6, 17), S::new(7, 9), S::new(19, 21), S::new(19, 21), S::new(7, 9), S::new(-6, 17), S::new(-4, -27),
        S::new(0, -12), S::new(1, 0), S::new(18, 2), S::new(9, 19), S::new(9, 19), S::new(18, 2), S::new(1, 0), S::new(0, -12),
        S::new(-3, -23), S::new(15, -14), S::new(-12, 9), S::new(1, -1), S::new(1, -1), S::new(-12, 9), S::new(15, -14), S::new(-3, -23),
        S::new(0, -6), S::new(-2, 0), S::new(-11, 0), S::new(-8, -23), S::new(-8, -23), S::new(-11, 0), S::new(-2, 0), S::new(0, -6),
    ],
    // Rook
    [
        S::new(12, 21), S::new(2, 13), S::new(17, 14), S::new(15, 11), S::new(15, 11), S::new(17, 14), S::new(2, 13), S::new(12, 21),
        S::new(22, 23), S::new(9, 15), S::new(25, 18), S::new(15, 19), S::new(15, 19), S::new(25, 18), S::new(9, 15), S::new(22, 23),
        S::new(-6, 22), S::new(23, 14), S::new(4, 19), S::new(24, 12), S::new(24, 12), S::new(4, 19), S::new(23, 14), S::new(-6, 22),
        S::new(-6, 18), S::new(-12, 29), S::new(6, 13), S::new(-1, 17), S::new(-1, 17), S::new(6, 13), S::new(-12, 29), S::new(-6, 18),
        S::new(-21, 13), S::new(-7, 0), S::new(-6, 11), S::new(-7, 5), S::new(-7, 5), S::new(-6, 11), S::new(-7, 0), S::new(-21, 13),
        S::new(-18, -13), S::new(5, -17), S::new(-16, 2), S::new(-5, -1), S::new(-5, -1), S::new(-16, 2), S::new(5, -17), S::new(-18, -13),
        S::new(-20, -18), S::new(-23, -21), S::new(-21, -4), S::new(5, -17), S::new(5, -17), S::new(-21, -4), S::new(-23, -21), S::new(-20, -18),
        S::new(-5, -20), S::new(-7, -24), S::new(8, -22), S::new(10, -19), S::new(10, -19), S::new(8, -22), S::new(-7, -24), S::new(-5, -20),
    ],
    // Queen
    [
        S::new(-42, -9), S::new(-8, -3), S::new(3, -4), S::new(17, 13), S::new(17, 13), S::new(3, -4), S::new(-8, -3), S::new(-42, -9),
        S::new(-3, 0), S::new(-10, 2), S::new(11, 13), S::new(3, 16), S::new(3, 16), S::new(11, 13), S::new(-10, 2), S::new(-3, 0),
        S::new(9, -10), S::new(16, 18), S::new(7, 14), S::new(20, 27), S::new(20, 27), S::new(7, 14), S::new(16, 18), S::new(9, -10),
        S::new(6, 12), S::new(-12, 37), S::new(2, 18), S::new(10, 40), S::new(10, 40), S::new(2, 18), S::new(-12, 37), S::new(6, 12),
        S::new(-8, 26), S::new(5, -1), S::new(-3, 32), S::new(7, 50), S::new(7, 50), S::new(-3, 32), S::new(5, -1), S::new(-8, 26),
        S::new(-9, 3), S::new(13, -15), S::new(0, 21), S::new(-3, 22), S::new(-3, 22), S::new(0, 21), S::new(13, -15), S::new(-9, 3),
        S::new(-10, -6), S::new(10, -12), S::new(17, -43), S::new(13, -9), S::new(13, -9), S::new(17, -43), S::new(10, -12), S::new(-10, -6),
        S::new(-2, -9), S::new(-8, -26), S::new(1, 0), S::new(12, -52), S::new(12, -52), S::new(1, 0), S::new(-8, -26), S::new(-2, -9),
    ],
    // King
    [
        S::new(-97, -82), S::new(-77, 14), S::new(-69, 39), S::new(-79, 12), S::new(-79, 12), S::new(-69, 39), S::new(-77, 14), S::new(-97, -82),
        S::new(-74, -21), S::new(-57, 50), S::new(-58, 30), S::new(-64, 36), S::new(-64, 36), S::new(-58, 30), S::new(-57, 50), S::new(-74, -21),
        S::new(-58, 17), S::new(-48, 36), S::new(-56, 41), S::new(-52, 34), S::new(-52, 34), S::new(-56, 41), S::new(-48, 36), S::new(-58, 17),
        S::new(-35, 12), S::new(-40, 17), S::new(-50, 34), S::new(-57, 29), S::new(-57, 29), S::new(-50, 34), S::new(-40, 17), S::new(-35, 12),
        S::new(-29, -15), S::new(-29, 14), S::new(-33, 11), S::new(-36, 19), S::new(-36, 19), S::new(-33, 11), S::new(-29, 14), S::new(-29, -15),
        S::new(-7, -26), S::new(-13, -8), S::new(-35, 2), S::new(-46, 6), S::new(-46, 6), S::new(-35, 2), S::new(-13, -8), S::new(-7, -26),
        S::new(-15, -18), S::new(-17, -11), S::new(-17, -11), S::new(-45, -1), S::new(-45, -1), S::new(-17, -11), S::new(-17, -11), S::new(-15, -18),
        S::new(0, -41), S::new(10, -24), S::new(-19, -24), S::new(-14, -42), S::new(-14, -42), S::new(-19, -24), S::new(10, -24), S::new(0, -41),
    ],
];

/// Knight: bonus by the number of safe squares it reaches (not own pieces, not attacked by enemy pawns).
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [S; 9] = [
    S::new(-21, -43), S::new(-12, -11), S::new(-2, -6), S::new(4, 4), S::new(6, 17), S::new(10, 21), S::new(12, 23), S::new(16, 26),
    S::new(-2, 24),
];

/// Bishop: bonus by the number of safe squares it reaches.
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [S; 14] = [
    S::new(-16, -30), S::new(-6, -8), S::new(5, -6), S::new(10, 3), S::new(17, 8), S::new(17, 23), S::new(21, 25), S::new(19, 28),
    S::new(25, 27), S::new(19, 31), S::new(28, 16), S::new(-14, 33), S::new(26, 5), S::new(-14, 29),
];

/// Rook: bonus by the number of safe squares it reaches.
#[rustfmt::skip]
pub const ROOK_MOBILITY: [S; 15] = [
    S::new(-26, -28), S::new(-15, -22), S::new(-13, -4), S::new(-12, 16), S::new(-13, 24), S::new(-6, 31), S::new(-5, 35), S::new(2, 37),
    S::new(5, 43), S::new(10, 48), S::new(10, 49), S::new(19, 51), S::new(13, 55), S::new(46, 31), S::new(35, 43),
];

/// Queen: bonus by the number of safe squares it reaches.
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [S; 28] = [
    S::new(-1, -31), S::new(-9, -17), S::new(-11, -26), S::new(-7, -19), S::new(-4, -24), S::new(-1, -22), S::new(-1, 8), S::new(1, 6),
    S::new(6, 16), S::new(7, 23), S::new(8, 23), S::new(5, 41), S::new(12, 36), S::new(9, 44), S::new(6, 61), S::new(20, 45),
    S::new(20, 49), S::new(20, 46), S::new(20, 40), S::new(17, 30), S::new(18, 47), S::new(13, 34), S::new(24, 41), S::new(22, 34),
    S::new(15, 36), S::new(11, 24), S::new(20, 44), S::new(17, 40),
];

/// Passed pawn by relative rank (rank 1 first).
#[rustfmt::skip]
pub const PASSED_PAWN: [S; 8] = [
    S::new(0, 0), S::new(-1, 17), S::new(19, 39), S::new(-49, 59), S::new(0, 60), S::new(79, 42), S::new(74, 25), S::new(0, 0),
];

/// Passed pawn whose path to promotion is empty, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [S; 8] = [
    S::new(0, 0), S::new(-15, 10), S::new(-7, 10), S::new(-18, 21), S::new(4, 25), S::new(23, 29), S::new(43, 50), S::new(0, 0),
];

/// Passed pawn: per step of king distance from its own king to the stop square, by rank.
#[rustfmt::skip]
pub const PASSED_OWN_KING_DISTANCE: [S; 8] = [
    S::new(0, 0), S::new(2, -6), S::new(15, -16), S::new(15, -21), S::new(10, -22), S::new(0, -19), S::new(-2, -15), S::new(0, 0),
];

/// Passed pawn: per step of king distance from the enemy king to the stop square, by rank.
#[rustfmt::skip]
pub const PASSED_ENEMY_KING_DISTANCE: [S; 8] = [
    S::new(0, 0), S::new(3, 1), S::new(-19, 11), S::new(-4, 22), S::new(-11, 34), S::new(-17, 52), S::new(6, 55), S::new(0, 0),
];

/// A passer the enemy king cannot catch (rule of the square) when the enemy has only pawns.
pub const UNSTOPPABLE_PASSER: S = S::new(0, 309);

/// Pawn with no own pawn on either neighbouring file.
pub const ISOLATED_PAWN: S = S::new(-10, -16);

/// Pawn with an own pawn ahead of it on the same file.
pub const DOUBLED_PAWN: S = S::new(-3, -15);

/// Pawn behind its neighbours whose stop square an enemy pawn attacks.
pub const BACKWARD_PAWN: S = S::new(-6, -22);

/// Pawn defended by a pawn or standing beside one, by relative rank.
#[rustfmt::skip]
pub const CONNECTED_PAWN: [S; 8] = [
    S::new(0, 0), S::new(3, -3), S::new(9, -1), S::new(8, 6), S::new(17, 21), S::new(26, 56), S::new(61, 90), S::new(0, 0),
];

/// Per king-zone square attacked, by attacker kind: knight, bishop, rook, queen.
#[rustfmt::skip]
pub const KING_ATTACK_WEIGHT: [S; 4] = [
    S::new(2, 1), S::new(5, 2), S::new(0, 1), S::new(1, 26),
];

/// By the number of pieces attacking the enemy king zone (7 or more in the last slot).
#[rustfmt::skip]
pub const KING_ATTACKERS: [S; 8] = [
    S::new(0, 0), S::new(-4, -5), S::new(11, -4), S::new(32, 18), S::new(53, 9), S::new(57, 0), S::new(70, 0), S::new(80, 0),
];

/// Per file next to the king: nearest own pawn ahead 1, 2, 3+ ranks away, or none.
#[rustfmt::skip]
pub const PAWN_SHIELD: [S; 4] = [
    S::new(13, 0), S::new(2, 1), S::new(-1, -6), S::new(-19, 4),
];

/// Per file next to the king: nearest enemy pawn ahead 1, 2, 3 ranks away, or further/none.
#[rustfmt::skip]
pub const PAWN_STORM: [S; 4] = [
    S::new(-6, 17), S::new(-11, -6), S::new(-6, -5), S::new(-3, -6),
];

/// Two or more bishops.
pub const BISHOP_PAIR: S = S::new(46, 56);

/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: S = S::new(36, -4);

/// Rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: S = S::new(15, 8);

/// Enemy knight, bishop, rook or queen attacked by one of our pawns.
pub const THREAT_BY_PAWN: S = S::new(48, 25);

/// Side to move.
pub const TEMPO: S = S::new(10, 2);
