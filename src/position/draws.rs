//! Draw rules: repetition (game history and search path), the fifty-move rule and
//! insufficient material.

use super::Position;
use crate::types::{Color, PieceType};

impl Position {
    /// Has the current position occurred before? `search_ply` is how many of the latest
    /// history entries belong to the search path: one repetition inside the path counts as a
    /// draw, an older one needs two (a true threefold repetition).
    pub fn is_repetition(&self, search_ply: usize) -> bool {
        let reach = (self.halfmove_clock as usize).min(self.history.len());
        let mut seen = 0;
        for distance in 1..=reach {
            let undo = &self.history[self.history.len() - distance];
            // A null move is no move of the game: nothing before it can repeat across it.
            if undo.mv.is_null() {
                return false;
            }
            if distance % 2 == 0 && distance >= 4 && undo.key == self.key {
                if distance <= search_ply {
                    return true;
                }
                seen += 1;
                if seen == 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Threefold repetition over the whole game history.
    pub fn is_threefold(&self) -> bool {
        self.is_repetition(0)
    }

    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock >= 100
    }

    /// Neither side can mate by any sequence of legal moves (bare kings, one minor, or
    /// bishops all on one colour).
    pub fn is_insufficient_material(&self) -> bool {
        let heavy_or_pawn = [PieceType::Pawn, PieceType::Rook, PieceType::Queen];
        for color in [Color::White, Color::Black] {
            if heavy_or_pawn
                .iter()
                .any(|&kind| self.count(color, kind) > 0)
            {
                return false;
            }
        }
        let knights = self.count(Color::White, PieceType::Knight)
            + self.count(Color::Black, PieceType::Knight);
        let bishops = self.count(Color::White, PieceType::Bishop)
            + self.count(Color::Black, PieceType::Bishop);
        if knights + bishops <= 1 {
            return true;
        }
        if knights > 0 {
            return false;
        }
        // Only bishops: a draw when they all stand on squares of one colour.
        let mut colours = [false; 2];
        for color in [Color::White, Color::Black] {
            for &sq in self.squares(color, PieceType::Bishop) {
                colours[((sq >> 4) + (sq & 7)) as usize & 1] = true;
            }
        }
        !(colours[0] && colours[1])
    }
}
