//! The training-data file: fixed 32-byte records, one per position, appended game by game.
//!
//! ```text
//!   byte  0..8    occupancy   u64 LE, bit i set when square i is occupied (a1 = 0 .. h8 = 63)
//!   byte  8..24   pieces      32 nibbles, low nibble first: the `Piece` code (colour << 3 |
//!                             kind) of each occupied square, in ascending square order
//!   byte 24..26   score       i16 LE, the search's score, white's point of view, centipawns
//!                             (mate scores keep their size: |score| >= MATE_BOUND is a mate)
//!   byte 26..28   move        u16 LE, the move the search played, in `Move`'s own 16 bits
//!   byte 28       flags       bit 0 black to move; bits 1..4 castling rights (K Q k q);
//!                             bits 5..6 the game's result for white: 0 loss, 1 draw, 2 win
//!   byte 29       en passant  square 0..63, or 64 for none
//!   byte 30       halfmove    the fifty-move clock, saturated at 255
//!   byte 31       ply         plies since the game's first searched position, saturated at 255
//! ```
//!
//! Every position of every game is written, checks and captures included: what a trainer
//! keeps (not in check, quiet best move, from some ply on, no mate score) is its choice at
//! load time, so one file serves different filters. Records carry standard chess only
//! (castling rights as the four letters, no rook files).
//!
//! A file is a plain concatenation of records: appending is resuming, and a reader that
//! stops at the last whole record survives a run killed mid-write. A record that does not
//! decode to a legal position (bad nibble, a king missing, side not to move in check...) is
//! counted and skipped, never a failure.

use std::io::Read;

use crate::moves::Move;
use crate::position::{
    BLACK_KING_SIDE, BLACK_QUEEN_SIDE, Position, WHITE_KING_SIDE, WHITE_QUEEN_SIDE,
};
use crate::types::{Color, Piece, from_64, to_64};

pub const RECORD_BYTES: usize = 32;

/// Castling rights as the flags byte stores them, in FEN letter order.
const CASTLING: [(u8, char); 4] = [
    (WHITE_KING_SIDE, 'K'),
    (WHITE_QUEEN_SIDE, 'Q'),
    (BLACK_KING_SIDE, 'k'),
    (BLACK_QUEEN_SIDE, 'q'),
];

/// One labelled position, as read from or written to a data file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record(pub [u8; RECORD_BYTES]);

impl Record {
    /// Packs `pos` with the search's score (white's view), the move played, the game's result
    /// (white's view: 0 loss, 1 draw, 2 win) and the ply.
    pub fn pack(pos: &Position, score: i32, mv: Move, result: u8, ply: usize) -> Record {
        let mut bytes = [0u8; RECORD_BYTES];
        let mut occupancy = 0u64;
        let mut nibble = 0;
        for index in 0..64 {
            let piece = pos.piece_at(from_64(index));
            if piece.is_none() {
                continue;
            }
            occupancy |= 1 << index;
            bytes[8 + nibble / 2] |= piece.0 << (4 * (nibble % 2));
            nibble += 1;
        }
        bytes[0..8].copy_from_slice(&occupancy.to_le_bytes());
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        bytes[24..26].copy_from_slice(&score.to_le_bytes());
        bytes[26..28].copy_from_slice(&mv.0.to_le_bytes());
        let mut flags = (pos.side_to_move() == Color::Black) as u8;
        for (bit, (right, _)) in CASTLING.iter().enumerate() {
            if pos.castling_rights() & right != 0 {
                flags |= 2 << bit;
            }
        }
        flags |= result.min(2) << 5;
        bytes[28] = flags;
        bytes[29] = pos.en_passant_square().map_or(64, |sq| to_64(sq) as u8);
        bytes[30] = pos.halfmove_clock().min(255) as u8;
        bytes[31] = ply.min(255) as u8;
        Record(bytes)
    }

    pub fn occupancy(&self) -> u64 {
        u64::from_le_bytes(self.0[0..8].try_into().expect("8 bytes"))
    }

    /// The occupied squares (0..64) and their pieces, in ascending square order.
    pub fn pieces(&self) -> impl Iterator<Item = (usize, Piece)> + '_ {
        let mut occupancy = self.occupancy();
        let mut nibble = 0;
        std::iter::from_fn(move || {
            if occupancy == 0 || nibble >= 32 {
                return None;
            }
            let square = occupancy.trailing_zeros() as usize;
            occupancy &= occupancy - 1;
            let piece = Piece((self.0[8 + nibble / 2] >> (4 * (nibble % 2))) & 15);
            nibble += 1;
            Some((square, piece))
        })
    }

    pub fn score(&self) -> i32 {
        i16::from_le_bytes([self.0[24], self.0[25]]) as i32
    }

    pub fn best_move(&self) -> Move {
        Move(u16::from_le_bytes([self.0[26], self.0[27]]))
    }

    pub fn side_to_move(&self) -> Color {
        if self.0[28] & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The game's result for white: 0 loss, 1 draw, 2 win (3 only in a damaged record).
    pub fn result(&self) -> u8 {
        (self.0[28] >> 5) & 3
    }

    pub fn ply(&self) -> usize {
        self.0[31] as usize
    }

    /// The position, if the record holds a legal one (the FEN parser does the checking).
    pub fn position(&self) -> Option<Position> {
        if self.occupancy().count_ones() > 32 || self.result() > 2 {
            return None;
        }
        let mut board = [None; 64];
        for (square, piece) in self.pieces() {
            Piece::from_fen_char(piece.fen_char())?;
            board[square] = Some(piece);
        }
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            fen.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        fen.push(piece.fen_char());
                    }
                }
            }
            if empty > 0 {
                fen.push((b'0' + empty) as char);
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if self.side_to_move() == Color::White {
            " w "
        } else {
            " b "
        });
        let flags = self.0[28];
        let rights: String = CASTLING
            .iter()
            .enumerate()
            .filter(|(bit, _)| flags & (2 << bit) != 0)
            .map(|(_, (_, letter))| *letter)
            .collect();
        fen.push_str(if rights.is_empty() { "-" } else { &rights });
        fen.push(' ');
        match self.0[29] {
            64 => fen.push('-'),
            square @ 0..64 => fen.push_str(&crate::types::square_name(from_64(square as usize))),
            _ => return None,
        }
        fen.push_str(&format!(" {} 1", self.0[30]));
        Position::from_fen(&fen).ok()
    }
}

/// What reading a data file found.
#[derive(Default, Debug)]
pub struct ReadStats {
    pub records: u64,
    /// Bytes after the last whole record (a run stopped mid-write).
    pub tail_bytes: usize,
}

/// Reads every whole record of `reader`, handing each to `keep`; a partial record at the end
/// is counted in `tail_bytes` and ignored.
pub fn read_records(
    mut reader: impl Read,
    mut keep: impl FnMut(Record),
) -> std::io::Result<ReadStats> {
    let mut stats = ReadStats::default();
    let mut buffer = vec![0u8; RECORD_BYTES * 4096];
    let mut filled = 0;
    loop {
        let read = match reader.read(&mut buffer[filled..]) {
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        filled += read;
        let whole = filled / RECORD_BYTES * RECORD_BYTES;
        for chunk in buffer[..whole].chunks_exact(RECORD_BYTES) {
            keep(Record(chunk.try_into().expect("a whole record")));
            stats.records += 1;
        }
        buffer.copy_within(whole..filled, 0);
        filled -= whole;
        if read == 0 {
            stats.tail_bytes = filled;
            return Ok(stats);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(fen: &str) {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.legal_moves()[0];
        let record = Record::pack(&pos, -123, mv, 2, 17);
        let back = record.position().expect("a packed position decodes");
        // The fullmove number is not stored.
        let strip = |fen: String| fen.rsplit_once(' ').unwrap().0.to_string();
        assert_eq!(strip(back.to_fen()), strip(pos.to_fen()));
        assert_eq!(record.score(), -123);
        assert_eq!(record.best_move(), mv);
        assert_eq!(record.result(), 2);
        assert_eq!(record.ply(), 17);
        assert_eq!(record.side_to_move(), pos.side_to_move());
    }

    #[test]
    fn records_round_trip() {
        round_trip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        round_trip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        round_trip("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        round_trip("8/8/4k3/8/8/8/2K5/7q b - - 42 80");
    }

    #[test]
    fn a_damaged_tail_is_skipped_and_a_damaged_record_does_not_decode() {
        let pos = Position::startpos();
        let record = Record::pack(&pos, 5, pos.legal_moves()[0], 1, 0);
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&record.0);
        bytes.extend_from_slice(&record.0);
        bytes.extend_from_slice(&record.0[..13]);
        let mut seen = Vec::new();
        let stats = read_records(&bytes[..], |record| seen.push(record)).unwrap();
        assert_eq!((stats.records, stats.tail_bytes), (2, 13));
        assert_eq!(seen, vec![record, record]);

        let mut no_king = record;
        no_king.0[8 + 2] = 0x22; // the white king's nibble (e1 is the 5th piece) becomes a knight
        assert!(no_king.position().is_none());
        let mut bad_nibble = record;
        bad_nibble.0[8] = 0x77; // piece code 7 is no piece
        assert!(bad_nibble.position().is_none());
        let mut bad_ep = record;
        bad_ep.0[29] = 200;
        assert!(bad_ep.position().is_none());
    }
}
