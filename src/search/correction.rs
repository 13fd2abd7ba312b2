//! Correction history: learns, per pawn structure, how far the static evaluation tends to be
//! from what the search finds, and corrects the evaluation by that much.
//!
//! The evaluation has blind spots that depend on the pawns (a blockade it does not see, a
//! shelter worth more than its terms say). Every node whose search result is trustworthy
//! relative to its static evaluation (an exact score, or a bound on the side the evaluation
//! missed) moves the entry of its pawn structure towards the difference, weighted by depth.
//! The search then prunes on `raw + correction` instead of `raw`.
//!
//! The table is indexed by side to move and the pawn-only key (the pawn-king key with the two
//! kings taken out), so that king walks in an endgame still share their pawn structure's entry.
//! Entries are kept in 1/`GRAIN` centipawns so that small, repeated updates are not rounded away.
//!
//! A second table, indexed by the move that led to the node (its piece and target square),
//! learns the same difference for what the evaluation misses right after a kind of move (a
//! piece landing on an outpost, a threat it does not score); it counts half as much as the
//! pawn entry, since a move says less about a position than its whole pawn structure.

use crate::position::Position;
use crate::types::{Color, Piece, PieceType};
use crate::zobrist::pawn_king_key;

use super::history::CONTINUATION_BLOCK;
use super::params::SearchParams;

const ENTRIES: usize = 16384;
/// Entry units per centipawn.
const GRAIN: i32 = 256;
/// Weights are out of this.
const WEIGHT_SCALE: i32 = 256;

pub struct CorrectionHistory {
    table: Vec<i32>,
    continuation: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory::new()
    }
}

/// The pawn-only key: the incremental pawn-king key without the two kings.
#[inline(always)]
fn pawn_key(pos: &Position) -> u64 {
    let white_king = Piece::new(Color::White, PieceType::King);
    let black_king = Piece::new(Color::Black, PieceType::King);
    pos.pawn_king_key()
        ^ pawn_king_key(white_king, pos.king_square(Color::White))
        ^ pawn_king_key(black_king, pos.king_square(Color::Black))
}

#[inline(always)]
fn index(pos: &Position) -> usize {
    let key = pawn_key(pos) as usize % ENTRIES;
    pos.side_to_move().index() * ENTRIES + key
}

#[inline(always)]
fn continuation_index(pos: &Position, context: usize) -> usize {
    pos.side_to_move().index() * CONTINUATION_BLOCK + context
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            table: vec![0; 2 * ENTRIES],
            continuation: vec![0; 2 * CONTINUATION_BLOCK],
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
        self.continuation.fill(0);
    }

    /// The correction for `pos` reached by the move whose `piece_to` is `context` (`None`
    /// after a null move or at the root), in centipawns.
    #[inline(always)]
    pub fn correction(&self, pos: &Position, context: Option<usize>) -> i32 {
        let continuation = context.map_or(0, |context| {
            self.continuation[continuation_index(pos, context)]
        });
        (self.table[index(pos)] + continuation / 2) / GRAIN
    }

    /// Moves the entries of `pos` (and of `context`) towards `difference` (search score
    /// minus raw static evaluation), the more the deeper the search was. The parameter table
    /// bounds the correction (`correction_limit`) and the weight of one update
    /// (`correction_max_weight`).
    pub fn update(
        &mut self,
        pos: &Position,
        context: Option<usize>,
        depth: i32,
        difference: i32,
        params: &SearchParams,
    ) {
        let limit = params.correction_limit;
        let weight = (depth + 1).min(params.correction_max_weight);
        let target = difference.clamp(-2 * limit, 2 * limit) * GRAIN;
        let blend = |entry: &mut i32| {
            let blended = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
            *entry = blended.clamp(-limit * GRAIN, limit * GRAIN);
        };
        blend(&mut self.table[index(pos)]);
        if let Some(context) = context {
            blend(&mut self.continuation[continuation_index(pos, context)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let pos = Position::startpos();
        let mut history = CorrectionHistory::new();
        assert_eq!(history.correction(&pos, None), 0);
        for _ in 0..200 {
            history.update(&pos, None, 10, 20, &SearchParams::DEFAULT);
        }
        assert!((18..=20).contains(&history.correction(&pos, None)));
        for _ in 0..200 {
            history.update(&pos, None, 10, -1000, &SearchParams::DEFAULT);
        }
        assert_eq!(
            history.correction(&pos, None),
            -SearchParams::DEFAULT.correction_limit
        );
        // The other side to move has its own entry.
        let black = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
            .expect("valid FEN");
        assert_eq!(history.correction(&black, None), 0);
    }

    #[test]
    fn the_previous_move_adds_half_its_own_entry() {
        let pos = Position::startpos();
        let mut history = CorrectionHistory::new();
        for _ in 0..400 {
            history.update(&pos, Some(100), 10, 20, &SearchParams::DEFAULT);
        }
        // Pawn entry near 20, the move's entry near 20 at half weight.
        assert!((27..=30).contains(&history.correction(&pos, Some(100))));
        assert!((18..=20).contains(&history.correction(&pos, Some(101))));
        assert!((18..=20).contains(&history.correction(&pos, None)));
    }

    #[test]
    fn king_moves_keep_the_pawn_structure_entry() {
        let a = Position::from_fen("8/5k2/8/3p4/3P4/8/2K5/8 w - - 0 1").expect("valid FEN");
        let b = Position::from_fen("8/8/4k3/3p4/3P4/8/8/6K1 w - - 0 1").expect("valid FEN");
        assert_eq!(pawn_key(&a), pawn_key(&b));
        assert_ne!(a.pawn_king_key(), b.pawn_king_key());
    }
}
