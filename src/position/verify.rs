//! From-scratch recomputation of the incremental state, for tests and debugging: the Zobrist
//! key and the piece-square sum are rebuilt from the board and compared with what make/unmake
//! maintained.

use super::Position;
use crate::psqt;
use crate::score::S;
use crate::types::{Color, NO_SQUARE, Piece, PieceType, Square, file_of, make_square, on_board};
use crate::zobrist::{KEYS, piece_key};

impl Position {
    /// Every piece on the board with its square, read from the board itself (not the lists).
    fn occupied_squares(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..8)
            .flat_map(|rank| (0..8).map(move |file| make_square(file, rank)))
            .map(|sq| (sq, self.board[sq as usize]))
            .filter(|(_, piece)| !piece.is_none())
    }

    /// Recomputes the Zobrist key from the board and state.
    pub fn compute_key(&self) -> u64 {
        let mut key = self
            .occupied_squares()
            .fold(0, |key, (sq, piece)| key ^ piece_key(piece, sq));
        if self.side == Color::Black {
            key ^= KEYS.black_to_move;
        }
        key ^= KEYS.castling[self.castling as usize];
        if self.en_passant != NO_SQUARE {
            key ^= KEYS.en_passant_file[file_of(self.en_passant) as usize];
        }
        key
    }

    /// Recomputes the pawn-king key from the board.
    pub fn compute_pawn_king_key(&self) -> u64 {
        self.occupied_squares()
            .filter(|(_, piece)| matches!(piece.kind(), PieceType::Pawn | PieceType::King))
            .fold(0, |key, (sq, piece)| key ^ piece_key(piece, sq))
    }

    /// Recomputes the material + piece-square sum from the board.
    pub fn compute_psq(&self) -> S {
        let mut sum = S::ZERO;
        for (sq, piece) in self.occupied_squares() {
            sum += psqt::value(piece, sq);
        }
        sum
    }

    /// Checks every invariant in the module doc; returns a description of the first broken one.
    pub fn verify(&self) -> Result<(), String> {
        if self.key != self.compute_key() {
            return Err(format!(
                "key {:016x} != recomputed {:016x}",
                self.key,
                self.compute_key()
            ));
        }
        if self.pawn_king_key != self.compute_pawn_king_key() {
            return Err(format!(
                "pawn-king key {:016x} != recomputed {:016x}",
                self.pawn_king_key,
                self.compute_pawn_king_key()
            ));
        }
        if self.psq != self.compute_psq() {
            return Err(format!(
                "psq {:?} != recomputed {:?}",
                self.psq,
                self.compute_psq()
            ));
        }
        let mut listed = 0;
        for piece in 1..16 {
            for slot in 0..self.counts[piece] as usize {
                let sq = self.lists[piece][slot];
                if self.board[sq as usize].index() != piece
                    || self.index[sq as usize] as usize != slot
                {
                    return Err(format!(
                        "piece list {piece} slot {slot} disagrees with the board"
                    ));
                }
                listed += 1;
            }
        }
        let on_board = (0..128u8)
            .filter(|&sq| on_board(sq as i32) && !self.board[sq as usize].is_none())
            .count();
        if listed != on_board {
            return Err(format!("{listed} pieces listed, {on_board} on the board"));
        }
        for color in [Color::White, Color::Black] {
            if self.count(color, PieceType::King) != 1 {
                return Err(format!(
                    "{color:?} has {} kings",
                    self.count(color, PieceType::King)
                ));
            }
        }
        Ok(())
    }
}
