//! Static evaluation. (Skeleton: tapered material + piece-square only.)

pub mod weights;

use crate::position::Position;
use crate::types::{Color, PieceType};

/// Game phase from 0 (bare kings and pawns) to `PHASE_MAX` (all pieces on the board).
pub const PHASE_MAX: i32 = 24;

pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for color in [Color::White, Color::Black] {
        phase += pos.count(color, PieceType::Knight) + pos.count(color, PieceType::Bishop);
        phase += 2 * pos.count(color, PieceType::Rook) + 4 * pos.count(color, PieceType::Queen);
    }
    phase.min(PHASE_MAX)
}

/// Centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let score = pos.psq_score();
    let phase = phase(pos);
    let white = (score.mg() * phase + score.eg() * (PHASE_MAX - phase)) / PHASE_MAX;
    if pos.side_to_move() == Color::White { white } else { -white }
}

/// A human-readable breakdown of the evaluation by term (the UCI `eval` command).
pub fn describe(pos: &Position) -> String {
    format!("Total (side to move): {} cp\n", evaluate(pos))
}
