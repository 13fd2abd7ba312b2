//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides always recapture with their least valuable piece and may stop at any time.
//!
//! On a 0x88 board there are no attack bitboards, so the exchange is played out with a set of
//! "lifted" squares (a `u128` mask over 0x88 indices): a lifted piece has already captured and
//! left, so it neither attacks nor blocks. That makes x-ray attackers behind it (a rook behind a
//! rook, a queen behind a bishop) join the exchange without special cases. Pins are ignored.
//! Finding the attackers is the position's one attack scan (`Position::scan_attackers`), with
//! lifted squares counted as empty.

use crate::geometry::step_between;
use crate::moves::Move;
use crate::position::Position;
use crate::position::attacks::ThreatMap;
use crate::types::{Color, Piece, PieceType, Square, on_board};

/// Exchange values in centipawns, indexed by `PieceType as usize`.
pub const SEE_VALUES: [i32; 7] = [0, 100, 320, 330, 500, 950, 20000];

#[inline(always)]
pub fn see_value(kind: PieceType) -> i32 {
    SEE_VALUES[kind as usize]
}

#[inline(always)]
fn bit(sq: Square) -> u128 {
    1u128 << sq
}

/// The value of what `mv` takes (a pawn for en passant, nothing for quiet moves), plus the
/// promotion gain.
pub fn capture_gain(pos: &Position, mv: Move) -> i32 {
    let mut gain = if mv.is_en_passant() {
        see_value(PieceType::Pawn)
    } else if mv.is_capture() {
        see_value(pos.piece_at(mv.to()).kind())
    } else {
        0
    };
    if mv.is_promotion() {
        gain += see_value(mv.promotion_piece()) - see_value(PieceType::Pawn);
    }
    gain
}

/// The square and kind of `by`'s least valuable piece attacking `to`, ignoring lifted pieces.
fn least_valuable_attacker(
    pos: &Position,
    to: Square,
    by: Color,
    lifted: u128,
) -> Option<(Square, PieceType)> {
    let empty = |square: Square| lifted & bit(square) != 0 || pos.piece_at(square).is_none();
    let mut found = None;
    pos.scan_attackers(to, by, empty, |square, kind| {
        found = Some((square, kind));
        true
    });
    found
}

/// Does `mv` win at least `threshold` centipawns by static exchange? (`see_ge(mv, 0)`: the
/// move does not lose material.) Castling is treated as a quiet move.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() {
        return threshold <= 0;
    }
    let from = mv.from();
    let to = mv.to();
    let mut swap = capture_gain(pos, mv) - threshold;
    if swap < 0 {
        return false;
    }
    let mover = if mv.is_promotion() {
        mv.promotion_piece()
    } else {
        pos.piece_at(from).kind()
    };
    swap = see_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut lifted = bit(from) | bit(to);
    if mv.is_en_passant() {
        let victim = (to as i32 - pos.side_to_move().forward()) as Square;
        lifted |= bit(victim);
    }
    let mut side = pos.side_to_move();
    // `result` is 1 when the side that made the last capture is winning the exchange so far.
    let mut result = 1;
    loop {
        side = side.flip();
        let Some((square, kind)) = least_valuable_attacker(pos, to, side, lifted) else {
            break;
        };
        result ^= 1;
        if kind == PieceType::King {
            // The king may only take last: if the other side still attacks, it cannot.
            if least_valuable_attacker(pos, to, side.flip(), lifted).is_some() {
                result ^= 1;
            }
            break;
        }
        swap = see_value(kind) - swap;
        if swap < result {
            break;
        }
        lifted |= bit(square);
    }
    result != 0
}

/// `see_ge` for a quiet move, with the node's threat map (`Position::attacked_by` of the
/// opponent) answering the common case at once: a quiet move to a square no enemy piece
/// attacks, with no enemy slider behind its origin on the line it leaves along, cannot be
/// taken, so it loses nothing (true exactly when `threshold <= 0`). Everything else goes to
/// `see_ge`; the answer is always `see_ge`'s (a test checks).
#[inline]
pub fn see_ge_quiet(pos: &Position, mv: Move, threshold: i32, threats: &ThreatMap) -> bool {
    let (from, to) = (mv.from(), mv.to());
    if threshold <= 0 && !mv.is_castle() && threats.all >> mv.to_dense() & 1 == 0 {
        // Only a slider behind the origin, on the line through `to`, gains `to` by the move.
        let step = step_between(to, from);
        if step == 0 {
            return true;
        }
        let mut square = from as i32 + step;
        while on_board(square) && pos.piece_at(square as Square).is_none() {
            square += step;
        }
        let diagonal = matches!(step.abs(), 15 | 17);
        let behind = if on_board(square) {
            pos.piece_at(square as Square)
        } else {
            Piece::NONE
        };
        let x_ray = !behind.is_none()
            && behind.color() != pos.side_to_move()
            && match behind.kind() {
                PieceType::Queen => true,
                PieceType::Bishop => diagonal,
                PieceType::Rook => !diagonal,
                _ => false,
            };
        if !x_ray {
            return true;
        }
    }
    see_ge(pos, mv, threshold)
}

/// The exchange value of `mv` itself, found by bisection over `see_ge` (for tests and tools).
pub fn see(pos: &Position, mv: Move) -> i32 {
    let (mut low, mut high) = (-20000i32, 20000i32);
    while low < high {
        let middle = (low + high + 1).div_euclid(2);
        if see_ge(pos, mv, middle) {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::suite_positions;

    /// The threat map's shortcut never changes an answer: every quiet move of the perft
    /// suites' positions and of the positions a few random plies from them, at thresholds on
    /// both sides of zero.
    #[test]
    fn the_quiet_shortcut_agrees_with_see_ge() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        let mut shortcut = 0;
        for mut pos in suite_positions() {
            for _ in 0..6 {
                let threats = pos.attacked_by(pos.side_to_move().flip());
                for mv in pos.legal_moves() {
                    if mv.is_noisy() {
                        continue;
                    }
                    for threshold in [-400, -100, -1, 0, 1, 100] {
                        let expected = see_ge(&pos, mv, threshold);
                        assert_eq!(
                            see_ge_quiet(&pos, mv, threshold, &threats),
                            expected,
                            "{} in {}",
                            mv.to_uci(pos.is_chess960()),
                            pos.to_fen()
                        );
                        checked += 1;
                        shortcut += (threats.all >> mv.to_dense() & 1 == 0) as usize;
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos.make_move(moves[(state % moves.len() as u64) as usize]);
            }
        }
        assert!(
            checked > 20_000 && shortcut > checked / 4,
            "{checked} / {shortcut}"
        );
    }
}
