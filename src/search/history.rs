//! What the search learns about moves while it runs, for move ordering and reductions:
//! - butterfly history: `[colour][threat][from][to]`, how often a quiet move caused a beta
//!   cutoff (and, from `alphabeta`'s step 5b, what it did to the static evaluation). `threat`
//!   says whether the opponent attacks the move's origin and its destination (the node's
//!   threat map, `Position::attacked_by`): stepping out of an attack and stepping into one
//!   are different moves however alike their squares, so each of the four cases learns apart;
//! - continuation history: `[previous piece][previous to][piece][to]`, the same but in the
//!   context of the move one or two plies earlier (counter-move and follow-up history);
//! - capture history: `[piece][to][captured kind]`, for ordering captures of equal victim;
//! - counter moves: `[previous piece][previous to]`, the quiet move that refuted it last time.
//!
//! Killers are not here: they are per ply, in the search stack (`Frame.killers` in
//! `thread.rs`), and `alphabeta` updates them.
//!
//! Every table entry moves by "gravity": `entry += bonus - entry * |bonus| / MAX`, which keeps
//! it inside `-MAX..=MAX` and lets old knowledge fade as new evidence arrives.

use crate::moves::Move;
use crate::position::attacks::ThreatMap;
use crate::types::{Color, Piece, PieceType};

pub const HISTORY_MAX: i32 = 16384;

/// Contexts: one per `piece_to` pair.
pub const CONTINUATION_BLOCK: usize = 16 * 64;

/// Index of a (piece, destination) pair, the unit all the contextual tables use.
#[inline(always)]
pub fn piece_to(piece: Piece, mv: Move) -> usize {
    piece.index() * 64 + mv.to_dense()
}

#[inline(always)]
fn butterfly_index(color: Color, mv: Move, threats: ThreatMap) -> usize {
    let from_attacked = (threats.all >> mv.from_dense() & 1) as usize;
    let to_attacked = (threats.all >> mv.to_dense() & 1) as usize;
    ((color.index() * 4 + from_attacked * 2 + to_attacked) << 12) + (mv.0 & 0xFFF) as usize
}

#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let value = *entry as i32;
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

pub struct History {
    butterfly: Vec<i16>,
    /// Block `c` (of `CONTINUATION_BLOCK` entries) answers for context `c = piece_to(...)`.
    continuation: Vec<i16>,
    capture: Vec<i16>,
    counter: Vec<Move>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * 4 * 4096],
            continuation: vec![0; CONTINUATION_BLOCK * CONTINUATION_BLOCK],
            capture: vec![0; 16 * 64 * 8],
            counter: vec![Move::NULL; CONTINUATION_BLOCK],
        }
    }

    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
        self.counter.fill(Move::NULL);
    }

    /// Ordering score of a quiet move: butterfly (under the node's threats) plus the
    /// continuation entries of the contexts one and two plies back (`None` where there is no
    /// such move).
    #[inline(always)]
    pub fn quiet_score(
        &self,
        color: Color,
        mv: Move,
        piece: Piece,
        contexts: [Option<usize>; 2],
        threats: ThreatMap,
    ) -> i32 {
        let target = piece_to(piece, mv);
        let mut score = self.butterfly[butterfly_index(color, mv, threats)] as i32;
        for context in contexts.into_iter().flatten() {
            score += self.continuation[context * CONTINUATION_BLOCK + target] as i32;
        }
        score
    }

    /// Rewards `mv` by `bonus` (negative: punishes) in every quiet table.
    pub fn update_quiet(
        &mut self,
        color: Color,
        mv: Move,
        piece: Piece,
        contexts: [Option<usize>; 2],
        threats: ThreatMap,
        bonus: i32,
    ) {
        self.update_butterfly(color, mv, threats, bonus);
        let target = piece_to(piece, mv);
        for context in contexts.into_iter().flatten() {
            gravity(
                &mut self.continuation[context * CONTINUATION_BLOCK + target],
                bonus,
            );
        }
    }

    /// Rewards `mv` by `bonus` in the butterfly table only (no context).
    pub fn update_butterfly(&mut self, color: Color, mv: Move, threats: ThreatMap, bonus: i32) {
        gravity(
            &mut self.butterfly[butterfly_index(color, mv, threats)],
            bonus,
        );
    }

    #[inline(always)]
    fn capture_index(piece: Piece, mv: Move, captured: PieceType) -> usize {
        piece_to(piece, mv) * 8 + captured as usize
    }

    #[inline(always)]
    pub fn capture_score(&self, piece: Piece, mv: Move, captured: PieceType) -> i32 {
        self.capture[History::capture_index(piece, mv, captured)] as i32
    }

    pub fn update_capture(&mut self, piece: Piece, mv: Move, captured: PieceType, bonus: i32) {
        gravity(
            &mut self.capture[History::capture_index(piece, mv, captured)],
            bonus,
        );
    }

    #[inline(always)]
    pub fn counter_move(&self, context: Option<usize>) -> Move {
        context.map_or(Move::NULL, |context| self.counter[context])
    }

    pub fn set_counter_move(&mut self, context: Option<usize>, mv: Move) {
        if let Some(context) = context {
            self.counter[context] = mv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::types::to_64;

    #[test]
    fn butterfly_update_moves_only_that_colour_move_and_threat() {
        let pos = Position::startpos();
        let moves = pos.legal_moves();
        let (first, second) = (moves[0], moves[1]);
        let piece = pos.piece_at(first.from());
        let none = ThreatMap::default();
        let only = |all| ThreatMap {
            all,
            ..ThreatMap::default()
        };
        let mut history = History::new();
        history.update_butterfly(Color::White, first, none, 1000);
        let score = |history: &History, color, mv, threats| {
            history.quiet_score(color, mv, piece, [None, None], threats)
        };
        assert_eq!(score(&history, Color::White, first, none), 1000);
        assert_eq!(score(&history, Color::Black, first, none), 0);
        assert_eq!(score(&history, Color::White, second, none), 0);
        // The same move with its origin, its destination or both attacked is another entry;
        // threats elsewhere on the board change nothing.
        let from = 1u64 << to_64(first.from());
        let to = 1u64 << to_64(first.to());
        for threats in [from, to, from | to] {
            assert_eq!(score(&history, Color::White, first, only(threats)), 0);
        }
        let elsewhere = !(from | to);
        assert_eq!(score(&history, Color::White, first, only(elsewhere)), 1000);
        history.update_butterfly(Color::White, first, only(to), -500);
        assert_eq!(score(&history, Color::White, first, only(to)), -500);
        assert_eq!(score(&history, Color::White, first, none), 1000);
        // Gravity keeps a repeated bonus inside the table's range.
        for _ in 0..100 {
            history.update_butterfly(Color::White, first, none, -HISTORY_MAX);
        }
        assert_eq!(score(&history, Color::White, first, none), -HISTORY_MAX);
    }
}
