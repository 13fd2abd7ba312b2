//! Zobrist keys, generated at compile time from a fixed seed.
//!
//! A position's key is the XOR of one key per (piece, square), one for black to move, one for
//! the castling-rights mask (4 bits: white king side, white queen side, black king side,
//! black queen side) and one for the en passant file. By convention the en passant square is
//! only set — and so only hashed — when a pawn of the side to move stands next to the pawn that
//! just made a double step (a pseudo-legal capture exists). That keeps transpositions that
//! differ only by a useless en passant square equal, as repetition rules want.

use crate::types::{Piece, PieceType, Square, to_64};

pub struct Keys {
    pub pieces: [[u64; 64]; 16],
    pub black_to_move: u64,
    pub castling: [u64; 16],
    pub en_passant_file: [u64; 8],
}

/// SplitMix64: a fine, fast generator for fixed tables.
const fn split_mix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build_keys() -> Keys {
    let mut state = 0x0088_0088_C0FF_EE00u64;
    let mut pieces = [[0u64; 64]; 16];
    let mut piece = 0;
    while piece < 16 {
        let mut square = 0;
        while square < 64 {
            let (next, value) = split_mix(state);
            state = next;
            pieces[piece][square] = value;
            square += 1;
        }
        piece += 1;
    }
    let (next, black_to_move) = split_mix(state);
    state = next;
    let mut castling = [0u64; 16];
    let mut mask = 1;
    while mask < 16 {
        let (next, value) = split_mix(state);
        state = next;
        castling[mask] = value;
        mask += 1;
    }
    let mut en_passant_file = [0u64; 8];
    let mut file = 0;
    while file < 8 {
        let (next, value) = split_mix(state);
        state = next;
        en_passant_file[file] = value;
        file += 1;
    }
    Keys {
        pieces,
        black_to_move,
        castling,
        en_passant_file,
    }
}

pub static KEYS: Keys = build_keys();

#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][to_64(sq)]
}

/// `piece_key` for pawns and kings, 0 for every other piece: the pieces that make up the
/// pawn-king key.
#[inline(always)]
pub fn pawn_king_key(piece: Piece, sq: Square) -> u64 {
    match piece.kind() {
        PieceType::Pawn | PieceType::King => piece_key(piece, sq),
        _ => 0,
    }
}
