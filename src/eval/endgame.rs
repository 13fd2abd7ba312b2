//! End-game knowledge the weighted terms cannot express.
//!
//! - `scale_factor` shrinks the end-game half of the score (out of 64) where material says
//!   "ahead" but the game is drawish: a stronger side without pawns that is at most a minor
//!   piece up (KR vs KB, KR vs KN, minor vs minor, KRB vs KR: 8/64) or has nothing that can
//!   mate (a lone minor, two knights against a bare king: 0), and opposite-coloured bishops
//!   (32/64 with only bishops and pawns, 48/64 with other pieces beside them); otherwise
//!   (36 + 7 per pawn of the stronger side)/64, at most 64, less 4 when all the pawns are
//!   on one flank: few pawns, few winning chances.
//! - `special` replaces the evaluation in won end games where the terms give the search no
//!   direction: KBN vs K (drive the king into a corner of the bishop's colour) and a bare
//!   king against a rook, queen or two bishops (drive it to the edge, bring the kings close).
//!
//! These are rules, not weights: the tuner skips positions `special` answers and takes the
//! scale factor as given.

use super::SCALE_NORMAL;
use crate::geometry::distance;
use crate::position::Position;
use crate::types::{Color, PieceType, Square, make_square};

/// Non-pawn material in the usual 3/3/5/9 units.
fn piece_units(pos: &Position, color: Color) -> i32 {
    3 * pos.count(color, PieceType::Knight)
        + 3 * pos.count(color, PieceType::Bishop)
        + 5 * pos.count(color, PieceType::Rook)
        + 9 * pos.count(color, PieceType::Queen)
}

/// 0 for dark squares (a1), 1 for light squares (h1).
#[inline(always)]
fn square_colour(sq: Square) -> u8 {
    ((sq >> 4) + (sq & 7)) & 1
}

/// The end-game scale (out of `SCALE_NORMAL`) when `strong` is the side the score favours.
pub fn scale_factor(pos: &Position, strong: Color) -> i32 {
    let weak = strong.flip();
    let strong_units = piece_units(pos, strong);
    let weak_units = piece_units(pos, weak);

    if pos.count(strong, PieceType::Pawn) == 0 {
        if strong_units <= 3 {
            return 0;
        }
        let two_knights = pos.count(strong, PieceType::Knight) == 2 && strong_units == 6;
        if two_knights && weak_units == 0 {
            return 0;
        }
        if strong_units - weak_units <= 3 {
            return SCALE_NORMAL / 8;
        }
    }

    let only_bishops = |color: Color| {
        pos.count(color, PieceType::Bishop) == 1
            && pos.count(color, PieceType::Knight) == 0
            && pos.count(color, PieceType::Queen) == 0
    };
    if only_bishops(Color::White) && only_bishops(Color::Black) {
        let white = pos.squares(Color::White, PieceType::Bishop)[0];
        let black = pos.squares(Color::Black, PieceType::Bishop)[0];
        if square_colour(white) != square_colour(black) {
            let rooks =
                pos.count(Color::White, PieceType::Rook) + pos.count(Color::Black, PieceType::Rook);
            return if rooks == 0 {
                SCALE_NORMAL / 2
            } else {
                SCALE_NORMAL * 3 / 4
            };
        }
    }

    // Otherwise the fewer pawns the stronger side has, the fewer ways it has to make
    // progress, and fewer still with every pawn on one flank.
    let pawns = pos.count(strong, PieceType::Pawn);
    let one_flank = !pawns_on_both_flanks(pos) as i32;
    (36 + 7 * pawns).min(SCALE_NORMAL) - 4 * one_flank
}

/// True when there are pawns (of either colour) on both the queen side (files a–d) and the
/// king side (files e–h).
fn pawns_on_both_flanks(pos: &Position) -> bool {
    let mut queen_side = false;
    let mut king_side = false;
    for color in [Color::White, Color::Black] {
        for &sq in pos.squares(color, PieceType::Pawn) {
            if sq & 7 < 4 {
                queen_side = true;
            } else {
                king_side = true;
            }
            if queen_side && king_side {
                return true;
            }
        }
    }
    false
}

/// True when `color` has nothing but its king.
fn bare(pos: &Position, color: Color) -> bool {
    pos.count(color, PieceType::Pawn) == 0 && piece_units(pos, color) == 0
}

/// Distance of a square from the board's centre, 0 (d4, e5 ...) to 3 (edge).
fn edge_closeness(sq: Square) -> i32 {
    let file = (sq & 7) as i32;
    let rank = (sq >> 4) as i32;
    (file - 3).max(4 - file) - 1 + (rank - 3).max(4 - rank) - 1
}

/// A known end game's score from white's point of view, or `None` to use the terms.
pub fn special(pos: &Position) -> Option<i32> {
    for strong in [Color::White, Color::Black] {
        let weak = strong.flip();
        if !bare(pos, weak) {
            continue;
        }
        let weak_king = pos.king_square(weak);
        let kings = distance(pos.king_square(strong), weak_king);
        let knights = pos.count(strong, PieceType::Knight);
        let bishops = pos.count(strong, PieceType::Bishop);
        let rooks = pos.count(strong, PieceType::Rook);
        let queens = pos.count(strong, PieceType::Queen);
        let pawns = pos.count(strong, PieceType::Pawn);

        let value = if knights == 1 && bishops == 1 && rooks + queens + pawns == 0 {
            // KBN vs K: only the two corners of the bishop's colour are mating corners.
            let bishop = pos.squares(strong, PieceType::Bishop)[0];
            let corners = if square_colour(bishop) == 0 {
                [make_square(0, 0), make_square(7, 7)]
            } else {
                [make_square(7, 0), make_square(0, 7)]
            };
            let corner = distance(weak_king, corners[0]).min(distance(weak_king, corners[1]));
            600 + 40 * (7 - corner) + 10 * (7 - kings)
        } else if rooks + queens > 0 || bishops >= 2 {
            let material = pos.psq_score().eg();
            let material = match strong {
                Color::White => material,
                Color::Black => -material,
            };
            material + 400 + 30 * edge_closeness(weak_king) + 10 * (7 - kings)
        } else {
            continue;
        };
        return Some(match strong {
            Color::White => value,
            Color::Black => -value,
        });
    }
    None
}
