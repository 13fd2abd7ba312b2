//! King shelter of one side: the pawn shield in front of the king and the enemy pawn storm.
//!
//! On each of the three files around the king (shifted inwards on the a- and h-files), the
//! nearest own pawn ahead of the king's rank (1, 2, 3+ ranks, or none) picks a `PAWN_SHIELD`
//! entry and the nearest enemy pawn ahead (1, 2, 3, further or none) a `PAWN_STORM` entry.
//! Both come from one pass over the pawn lists (at most 16 pawns), cheaper than scanning
//! the three files square by square. Pieces attacking the king zone are counted in `pieces`, where the
//! moves are walked anyway.

use super::Sink;
use super::params::Term;
use crate::position::Position;
use crate::types::{Color, PieceType};
use crate::weights::{PAWN_SHIELD, PAWN_STORM};

pub(crate) fn evaluate<T: Sink>(pos: &Position, color: Color, sink: &mut T) {
    let king = pos.king_square(color);
    let king_rank = color.relative_rank(king) as i32;
    let first_file = (king & 7).clamp(1, 6) as i32 - 1;

    // Index 3 is "none"; a nearer pawn always has a smaller index, so `min` keeps the nearest.
    let mut shield = [3usize; 3];
    let mut storm = [3usize; 3];
    for (side, slots, cap) in [(color, &mut shield, 2), (color.flip(), &mut storm, 3)] {
        for &sq in pos.squares(side, PieceType::Pawn) {
            let column = (sq & 7) as i32 - first_file;
            let ahead = color.relative_rank(sq) as i32 - king_rank;
            if (0..3).contains(&column) && ahead >= 1 {
                let slot = &mut slots[column as usize];
                *slot = (*slot).min((ahead as usize - 1).min(cap));
            }
        }
    }
    for column in 0..3 {
        sink.add(
            color,
            Term::PawnShield,
            shield[column],
            PAWN_SHIELD[shield[column]],
            1,
        );
        sink.add(
            color,
            Term::PawnStorm,
            storm[column],
            PAWN_STORM[storm[column]],
            1,
        );
    }
}
