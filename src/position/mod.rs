//! The position: a 0x88 mailbox with piece lists, Zobrist keys and the evaluation network's
//! accumulators, plus make/unmake with one undo record per ply.
//!
//! Invariants (checked by `Position::verify` in tests):
//! - `board[sq]` and the piece lists agree: `lists[piece][index[sq]] == sq` for every occupied
//!   square, and `counts[piece]` is the list length. The king of each side is always present.
//! - `key` is the XOR of the Zobrist keys of everything on the board, side, castling rights and
//!   en passant file (see `zobrist` for the en passant convention); `pawn_king_key` is the
//!   same XOR over pawns and kings only (the correction history's key). Both are updated only
//!   by `put_piece`, `remove_piece` and `move_piece` (and the state changes in `make_move`),
//!   so they cannot drift apart from the board.
//! - `accumulators[..=acc_top]` holds the evaluation network's first layer (`nnue`) for the
//!   board as it is and for each position in `history`: one slot per ply, `acc_top ==
//!   history.len()` (slots above `acc_top` are spare, kept so that a search reuses them).
//!   The sums are lazy: `make_move` only records in its slot which pieces went on and off
//!   (the primitives write the `Delta`), and the sums are brought up to date, parent plus
//!   delta in one pass, when the position is evaluated (`evaluate_network`). Many nodes never
//!   are (table cutoffs, nodes in check, draws), and they pay no network arithmetic. Slot 0 is
//!   always up to date, so a walk back always finds a start. `unmake_move` steps back a slot
//!   and restores the board with `BOARD_ONLY` primitives.
//! - Castling rights are a 4-bit mask (`WHITE_KING_SIDE` ...) plus, for each right, the square
//!   of the rook that castles; that is how Chess960 and standard chess share one code path.
//!   `castle_mask[sq]` is the set of rights that survive a move touching `sq`.
//!
//! The position's other concerns live beside it and use its private layout from inside:
//! FEN in and out in `fen.rs`, the one attack scan along 0x88 rays in `attacks.rs`, legal
//! move generation in `movegen.rs`, draw rules in `draws.rs`, the from-scratch recomputations
//! used by tests in `verify.rs`.

use std::sync::Arc;

use crate::moves::{Move, flag};
use crate::nnue::{Accumulator, Delta, Network, default_network};
use crate::types::{Color, NO_SQUARE, Piece, PieceType, Square, file_of, on_board, to_64};
use crate::zobrist::{KEYS, pawn_king_key, piece_key};

pub mod attacks;
mod draws;
pub mod fen;
pub mod movegen;
mod verify;
#[cfg(test)]
pub(crate) use verify::suite_positions;

pub const WHITE_KING_SIDE: u8 = 1;
pub const WHITE_QUEEN_SIDE: u8 = 2;
pub const BLACK_KING_SIDE: u8 = 4;
pub const BLACK_QUEEN_SIDE: u8 = 8;

/// The most pieces of one kind and colour (2 knights + 8 promoted pawns).
const LIST_CAPACITY: usize = 10;

/// Primitive variants: `WITH_NET` also updates the top accumulator, `BOARD_ONLY` does not
/// (for `unmake_move`, which pops the accumulator instead, and for FEN parsing, which sums it
/// once at the end).
const WITH_NET: bool = true;
pub(super) const BOARD_ONLY: bool = false;

/// One ply's first-layer sums: up to date when `computed`, else `delta` applied to the
/// parent slot's sums gives them.
#[derive(Clone, Copy)]
pub(crate) struct AccumulatorSlot {
    pub(crate) acc: Accumulator,
    pub(crate) computed: bool,
    pub(crate) delta: Delta,
}

/// What `unmake_move` needs to restore, one record per ply (also the game history used for
/// repetition detection).
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    pub mv: Move,
    pub captured: Piece,
    pub castling: u8,
    pub en_passant: Square,
    pub halfmove_clock: u16,
    pub fullmove_number: u16,
    /// The key of the position before the move.
    pub key: u64,
}

// 9 bytes of state and the 8-byte key: 24 bytes a ply, so a deep search path stays small.
const _: () = assert!(std::mem::size_of::<Undo>() == 24);

#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Piece; 128],
    pub(crate) lists: [[Square; LIST_CAPACITY]; 16],
    pub(crate) counts: [u8; 16],
    index: [u8; 128],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    /// Rook square for each castling right, indexed by the right's bit number.
    pub(crate) castle_rooks: [Square; 4],
    pub(crate) castle_mask: [u8; 128],
    pub(crate) en_passant: Square,
    pub(crate) halfmove_clock: u16,
    pub(crate) fullmove_number: u16,
    pub(crate) key: u64,
    /// Zobrist key of the pawns and kings alone: the key of the correction history.
    pub(crate) pawn_king_key: u64,
    pub(crate) chess960: bool,
    pub(crate) history: Vec<Undo>,
    pub(crate) net: Arc<Network>,
    pub(crate) accumulators: Vec<AccumulatorSlot>,
    /// The slot of the board as it is (see the module doc).
    pub(crate) acc_top: usize,
}

impl Position {
    /// An empty board (no kings yet); only FEN parsing builds on it.
    pub(crate) fn empty() -> Position {
        Position {
            board: [Piece::NONE; 128],
            lists: [[NO_SQUARE; LIST_CAPACITY]; 16],
            counts: [0; 16],
            index: [0; 128],
            side: Color::White,
            castling: 0,
            castle_rooks: [NO_SQUARE; 4],
            castle_mask: [0x0F; 128],
            en_passant: NO_SQUARE,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            pawn_king_key: 0,
            chess960: false,
            history: Vec::with_capacity(256),
            accumulators: Vec::with_capacity(256),
            acc_top: 0,
            net: default_network(),
        }
    }

    pub fn startpos() -> Position {
        Position::from_fen(fen::START_FEN).expect("the start position is valid")
    }

    // ---- Accessors ------------------------------------------------------------------------

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board[sq as usize]
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key of the pawns and kings only (no side, rights or en passant).
    #[inline(always)]
    pub fn pawn_king_key(&self) -> u64 {
        self.pawn_king_key
    }

    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.lists[Piece::new(color, PieceType::King).index()][0]
    }

    /// Squares of all pieces of one kind and colour.
    #[inline(always)]
    pub fn squares(&self, color: Color, kind: PieceType) -> &[Square] {
        let piece = Piece::new(color, kind).index();
        &self.lists[piece][..self.counts[piece] as usize]
    }

    #[inline(always)]
    pub fn count(&self, color: Color, kind: PieceType) -> i32 {
        self.counts[Piece::new(color, kind).index()] as i32
    }

    /// Pieces on the board, kings included.
    #[inline(always)]
    pub fn piece_total(&self) -> usize {
        self.counts.iter().map(|&count| count as usize).sum()
    }

    pub fn en_passant_square(&self) -> Option<Square> {
        (self.en_passant != NO_SQUARE).then_some(self.en_passant)
    }

    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Chess960 changes only how castling is written (king takes rook), never the rules.
    pub fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
    }

    /// Moves played since this position was set up (game history plus search path).
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// The last move made, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|undo| undo.mv)
    }

    /// Forget the game history (the root of a new search keeps only what repetition needs).
    pub fn clear_history(&mut self) {
        self.history.clear();
        self.update_accumulators();
        self.accumulators.swap(0, self.acc_top);
        self.accumulators.truncate(1);
        self.acc_top = 0;
    }

    // ---- The evaluation network -----------------------------------------------------------

    /// The network's evaluation of the position, side to move's point of view, centipawns.
    /// Leaves the stored sums as they are (see `evaluate_network` for the search's path).
    pub fn network_eval(&self) -> i32 {
        self.net
            .evaluate(&self.accumulator(), self.side, self.piece_total())
    }

    /// The network's evaluation, after bringing the stored sums up to date (the search's
    /// path: the next evaluation further down the line starts from them).
    #[inline(always)]
    pub fn evaluate_network(&mut self) -> i32 {
        self.update_accumulators();
        self.net.evaluate(
            &self.accumulators[self.acc_top].acc,
            self.side,
            self.piece_total(),
        )
    }

    /// The first-layer sums of the board as it is (from the stored slots, without storing).
    pub fn accumulator(&self) -> Accumulator {
        let first = self.first_pending_slot();
        let mut acc = self.accumulators[first - 1].acc;
        for slot in &self.accumulators[first..=self.acc_top] {
            let parent = acc;
            self.net.apply(&parent, &slot.delta, &mut acc);
        }
        acc
    }

    /// Brings every slot up to the top up to date, each from its parent.
    #[inline(always)]
    fn update_accumulators(&mut self) {
        if self.accumulators[self.acc_top].computed {
            return;
        }
        for index in self.first_pending_slot()..=self.acc_top {
            let (done, rest) = self.accumulators.split_at_mut(index);
            let parent = &done[index - 1].acc;
            let slot = &mut rest[0];
            self.net.apply(parent, &slot.delta, &mut slot.acc);
            slot.computed = true;
        }
    }

    /// The lowest slot not up to date above the last one that is (`acc_top + 1` when the top
    /// is up to date). Slot 0 always is.
    fn first_pending_slot(&self) -> usize {
        let mut index = self.acc_top + 1;
        while !self.accumulators[index - 1].computed {
            index -= 1;
        }
        index
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Every piece with its dense square, for summing an accumulator from scratch.
    pub(crate) fn pieces_dense(&self) -> impl Iterator<Item = (Piece, usize)> + '_ {
        (1..16).flat_map(move |p| {
            self.lists[p][..self.counts[p] as usize]
                .iter()
                .map(move |&sq| (Piece(p as u8), to_64(sq)))
        })
    }

    /// The accumulator of the board as it stands, summed from scratch.
    pub fn computed_accumulator(&self) -> Accumulator {
        self.net.refresh(self.pieces_dense())
    }

    /// Evaluates with `net` from now on; every stored accumulator (the game's history too, so
    /// that taking moves back stays right) is summed again under it.
    pub fn set_network(&mut self, net: Arc<Network>) {
        if Arc::ptr_eq(&self.net, &net) {
            return;
        }
        // The walk back through the history keeps the old net, so its own accumulators stay
        // consistent (debug builds verify every unmake); only its boards are read.
        let mut walk = self.clone();
        self.net = net;
        self.accumulators.truncate(self.acc_top + 1);
        for index in (0..self.accumulators.len()).rev() {
            let slot = &mut self.accumulators[index];
            slot.acc = self.net.refresh(walk.pieces_dense());
            slot.computed = true;
            if index > 0 {
                match walk.history.last().map(|undo| undo.mv) {
                    Some(Move::NULL) => walk.unmake_null_move(),
                    Some(_) => walk.unmake_move(),
                    None => break,
                }
            }
        }
    }

    /// Sums the top accumulator from scratch (after building a board with `BOARD_ONLY`).
    pub(crate) fn refresh_accumulator(&mut self) {
        let slot = AccumulatorSlot {
            acc: self.computed_accumulator(),
            computed: true,
            delta: Delta::EMPTY,
        };
        match self.accumulators.get_mut(self.acc_top) {
            Some(top) => *top = slot,
            None => self.accumulators.push(slot),
        }
    }

    /// The top slot's delta, which the `WITH_NET` primitives write.
    #[inline(always)]
    fn top_delta(&mut self) -> &mut Delta {
        let slot = &mut self.accumulators[self.acc_top];
        debug_assert!(!slot.computed, "a net update outside make_move");
        &mut slot.delta
    }

    /// Non-pawn, non-king material count of one side (for the null-move zugzwang guard).
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        self.count(color, PieceType::Knight)
            + self.count(color, PieceType::Bishop)
            + self.count(color, PieceType::Rook)
            + self.count(color, PieceType::Queen)
            > 0
    }

    // ---- The three primitives -------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put_piece<const NET: bool>(&mut self, piece: Piece, sq: Square) {
        if NET {
            self.top_delta().add(piece, to_64(sq));
        }
        let p = piece.index();
        self.board[sq as usize] = piece;
        self.index[sq as usize] = self.counts[p];
        self.lists[p][self.counts[p] as usize] = sq;
        self.counts[p] += 1;
        self.key ^= piece_key(piece, sq);
        self.pawn_king_key ^= pawn_king_key(piece, sq);
    }

    #[inline(always)]
    pub(crate) fn remove_piece<const NET: bool>(&mut self, sq: Square) -> Piece {
        let piece = self.board[sq as usize];
        if NET {
            self.top_delta().remove(piece, to_64(sq));
        }
        let p = piece.index();
        self.board[sq as usize] = Piece::NONE;
        self.counts[p] -= 1;
        let last = self.lists[p][self.counts[p] as usize];
        let slot = self.index[sq as usize];
        self.lists[p][slot as usize] = last;
        self.index[last as usize] = slot;
        self.key ^= piece_key(piece, sq);
        self.pawn_king_key ^= pawn_king_key(piece, sq);
        piece
    }

    #[inline(always)]
    pub(crate) fn move_piece<const NET: bool>(&mut self, from: Square, to: Square) {
        let piece = self.board[from as usize];
        if NET {
            let delta = self.top_delta();
            delta.add(piece, to_64(to));
            delta.remove(piece, to_64(from));
        }
        self.board[from as usize] = Piece::NONE;
        self.board[to as usize] = piece;
        let slot = self.index[from as usize];
        self.index[to as usize] = slot;
        self.lists[piece.index()][slot as usize] = to;
        self.key ^= piece_key(piece, from) ^ piece_key(piece, to);
        self.pawn_king_key ^= pawn_king_key(piece, from) ^ pawn_king_key(piece, to);
    }

    // ---- Make / unmake --------------------------------------------------------------------

    /// What every ply (a move or a null move) starts with: the undo record of the state as it
    /// is, the en passant square cleared and the fifty-move clock advanced.
    #[inline(always)]
    fn begin_ply(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            mv,
            captured: Piece::NONE,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
            key: self.key,
        };
        self.acc_top += 1;
        match self.accumulators.get_mut(self.acc_top) {
            Some(slot) => {
                slot.computed = false;
                slot.delta = Delta::EMPTY;
            }
            None => self.accumulators.push(AccumulatorSlot {
                acc: Accumulator::ZERO,
                computed: false,
                delta: Delta::EMPTY,
            }),
        }
        if self.en_passant != NO_SQUARE {
            self.key ^= KEYS.en_passant_file[file_of(self.en_passant) as usize];
            self.en_passant = NO_SQUARE;
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        undo
    }

    /// The key after `mv`, as far as the moving and captured pieces, the side and the old
    /// en passant square decide it: exact for ordinary moves and captures, approximate for
    /// castling, promotions, en passant, new en passant squares and lost castling rights.
    /// The search uses it to prefetch the child's table bucket before it makes the move.
    #[inline(always)]
    pub fn key_after(&self, mv: Move) -> u64 {
        let from = mv.from();
        let to = mv.to();
        let moving = self.board[from as usize];
        let mut key =
            self.key ^ KEYS.black_to_move ^ piece_key(moving, from) ^ piece_key(moving, to);
        let captured = self.board[to as usize];
        if mv.is_capture() && !captured.is_none() {
            key ^= piece_key(captured, to);
        }
        if self.en_passant != NO_SQUARE {
            key ^= KEYS.en_passant_file[file_of(self.en_passant) as usize];
        }
        key
    }

    /// Plays a legal move (from this position's generator). Pushes one undo record.
    pub fn make_move(&mut self, mv: Move) {
        let us = self.side;
        let from = mv.from();
        let to = mv.to();
        let moving = self.board[from as usize];
        let mut undo = self.begin_ply(mv);

        match mv.flag() {
            flag::CASTLE => {
                let king_to = mv.castle_king_target();
                let rook_to = mv.castle_rook_target();
                let king = self.remove_piece::<WITH_NET>(from);
                let rook = self.remove_piece::<WITH_NET>(to);
                self.put_piece::<WITH_NET>(king, king_to);
                self.put_piece::<WITH_NET>(rook, rook_to);
            }
            flag::EN_PASSANT => {
                let victim = (to as i32 - us.forward()) as Square;
                undo.captured = self.remove_piece::<WITH_NET>(victim);
                self.move_piece::<WITH_NET>(from, to);
                self.halfmove_clock = 0;
            }
            _ => {
                if mv.is_capture() {
                    undo.captured = self.remove_piece::<WITH_NET>(to);
                    self.halfmove_clock = 0;
                }
                if mv.is_promotion() {
                    self.remove_piece::<WITH_NET>(from);
                    self.put_piece::<WITH_NET>(Piece::new(us, mv.promotion_piece()), to);
                } else {
                    self.move_piece::<WITH_NET>(from, to);
                }
                if moving.kind() == PieceType::Pawn {
                    self.halfmove_clock = 0;
                    if mv.flag() == flag::DOUBLE_PUSH {
                        self.set_en_passant_if_capturable(from, to);
                    }
                }
            }
        }

        let rights =
            self.castling & self.castle_mask[from as usize] & self.castle_mask[to as usize];
        if rights != self.castling {
            self.key ^= KEYS.castling[self.castling as usize] ^ KEYS.castling[rights as usize];
            self.castling = rights;
        }
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = us.flip();
        self.key ^= KEYS.black_to_move;
        self.history.push(undo);
        self.debug_verify("make_move", mv);
    }

    /// After a double push, records the en passant square only if an enemy pawn could take.
    #[inline(always)]
    fn set_en_passant_if_capturable(&mut self, from: Square, to: Square) {
        let enemy_pawn = Piece::new(self.side.flip(), PieceType::Pawn);
        let left = to as i32 - 1;
        let right = to as i32 + 1;
        let capturable = (on_board(left) && self.board[left as usize] == enemy_pawn)
            || (on_board(right) && self.board[right as usize] == enemy_pawn);
        if capturable {
            self.en_passant = ((from as i32 + to as i32) / 2) as Square;
            self.key ^= KEYS.en_passant_file[file_of(to) as usize];
        }
    }

    /// Takes back the last move made with `make_move`.
    pub fn unmake_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_move without a move to take back");
        self.acc_top -= 1;
        let mv = undo.mv;
        self.side = self.side.flip();
        let us = self.side;
        let from = mv.from();
        let to = mv.to();

        match mv.flag() {
            flag::CASTLE => {
                let king = self.remove_piece::<BOARD_ONLY>(mv.castle_king_target());
                let rook = self.remove_piece::<BOARD_ONLY>(mv.castle_rook_target());
                self.put_piece::<BOARD_ONLY>(king, from);
                self.put_piece::<BOARD_ONLY>(rook, to);
            }
            flag::EN_PASSANT => {
                self.move_piece::<BOARD_ONLY>(to, from);
                let victim = (to as i32 - us.forward()) as Square;
                self.put_piece::<BOARD_ONLY>(undo.captured, victim);
            }
            _ => {
                if mv.is_promotion() {
                    self.remove_piece::<BOARD_ONLY>(to);
                    self.put_piece::<BOARD_ONLY>(Piece::new(us, PieceType::Pawn), from);
                } else {
                    self.move_piece::<BOARD_ONLY>(to, from);
                }
                if !undo.captured.is_none() {
                    self.put_piece::<BOARD_ONLY>(undo.captured, to);
                }
            }
        }
        self.castling = undo.castling;
        self.en_passant = undo.en_passant;
        self.halfmove_clock = undo.halfmove_clock;
        self.fullmove_number = undo.fullmove_number;
        self.key = undo.key;
        self.debug_verify("unmake_move", mv);
    }

    /// Passes the move (null-move pruning). Must not be called in check.
    pub fn make_null_move(&mut self) {
        let undo = self.begin_ply(Move::NULL);
        self.history.push(undo);
        self.side = self.side.flip();
        self.key ^= KEYS.black_to_move;
        self.debug_verify("make_null_move", Move::NULL);
    }

    pub fn unmake_null_move(&mut self) {
        let undo = self
            .history
            .pop()
            .expect("unmake_null_move without a null move");
        self.acc_top -= 1;
        self.side = self.side.flip();
        self.en_passant = undo.en_passant;
        self.halfmove_clock = undo.halfmove_clock;
        self.fullmove_number = undo.fullmove_number;
        self.key = undo.key;
        self.debug_verify("unmake_null_move", Move::NULL);
    }

    /// Does `mv` (legal here) give check? Answered by playing it, which is exact and cheap
    /// enough for SAN and for ordering decisions outside the hot path.
    pub fn gives_check(&mut self, mv: Move) -> bool {
        self.make_move(mv);
        let check = self.in_check();
        self.unmake_move();
        check
    }
}

impl PartialEq for Position {
    /// Two positions are equal when board, side, rights, en passant and clocks agree
    /// (history is not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.castling == other.castling
            && self.castle_rooks == other.castle_rooks
            && self.en_passant == other.en_passant
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
            && self.key == other.key
            && self.pawn_king_key == other.pawn_king_key
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
