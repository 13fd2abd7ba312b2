//! Legal move generation.
//!
//! Checks and pins are found once per node (`Context`), by looking from our king at each
//! enemy slider the difference tables say is aligned with it. Then every generated move is
//! legal without making it:
//! - a pinned piece moves only along its pin line (a pinned knight never moves);
//! - in single check, non-king moves must capture the checker or land between it and the king;
//!   in double check only the king moves;
//! - king moves are tested with the king lifted off the board (so it cannot hide behind itself);
//! - en passant, whose two vanishing pawns can uncover the king along a rank, gets an exact
//!   test of its own; castling tests each square the king crosses with king and rook lifted.
//!
//! Square sets are `u128` bit masks over 0x88 indices (bit `sq` for square `sq`).

use arrayvec::ArrayVec;

use super::attacks::between;
use super::{BLACK_KING_SIDE, Position, WHITE_KING_SIDE};
use crate::geometry::{
    BISHOP_DIRECTIONS, KING_OFFSETS, KNIGHT_OFFSETS, ROOK_DIRECTIONS, can_attack, step_between,
};
use crate::moves::{Move, MoveList, flag};
use crate::types::{Color, NO_SQUARE, Piece, PieceType, Square, on_board};

/// Which moves to generate. `Noisy` is captures (en passant included) and all promotions;
/// `Quiet` is everything else (castling included); `All` is both.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenType {
    All,
    Noisy,
    Quiet,
}

/// Where generated moves go: a `MoveList`, or a counter when only the number matters.
pub trait MoveSink {
    fn add(&mut self, mv: Move);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves instead of storing them.
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn add(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Check and pin information for the side to move, computed once per node: a caller that
/// generates in stages (the search's move picker) asks for it once (`move_context`) and hands
/// it to `generate_in` and `is_legal_in`.
#[derive(Clone, Debug)]
pub struct Context {
    us: Color,
    them: Color,
    king: Square,
    checkers: u32,
    /// Squares a non-king move may land on: everything, or the checker and the squares between.
    targets: u128,
    pinned: u128,
    /// (pinned square, step from the king towards the pinner)
    pins: ArrayVec<(Square, i32), 8>,
}

impl Context {
    #[inline(always)]
    fn pin_step(&self, sq: Square) -> i32 {
        if self.pinned & bit(sq) == 0 {
            return 0;
        }
        self.pins
            .iter()
            .find(|&&(pinned, _)| pinned == sq)
            .map_or(0, |&(_, step)| step)
    }
}

#[inline(always)]
const fn bit(sq: Square) -> u128 {
    1u128 << sq
}

impl Position {
    /// All legal moves of the kind asked for, appended to `list`.
    pub fn generate(&self, kind: GenType, list: &mut MoveList) {
        self.generate_in(&self.context(), kind, list);
    }

    /// `generate` with this position's `move_context` already at hand.
    pub fn generate_in(&self, context: &Context, kind: GenType, list: &mut MoveList) {
        debug_assert_eq!(context.king, self.king_square(self.side));
        match kind {
            GenType::All => self.generate_into::<true, true, _>(context, list),
            GenType::Noisy => self.generate_into::<false, true, _>(context, list),
            GenType::Quiet => self.generate_into::<true, false, _>(context, list),
        }
    }

    /// The checks and pins of the side to move (see `Context`).
    #[inline]
    pub fn move_context(&self) -> Context {
        self.context()
    }

    /// The number of legal moves, without storing them (perft's last ply).
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate_into::<true, true, _>(&self.context(), &mut counter);
        counter.0
    }

    /// The generator itself, specialised at compile time on which moves are wanted and on
    /// where they go.
    fn generate_into<const QUIET: bool, const NOISY: bool, S: MoveSink>(
        &self,
        context: &Context,
        list: &mut S,
    ) {
        match context.checkers {
            0 => self.generate_pieces::<QUIET, NOISY, false, S>(context, list),
            1 => self.generate_pieces::<QUIET, NOISY, true, S>(context, list),
            _ => {}
        }
        self.generate_king::<QUIET, NOISY, S>(context, list);
    }

    /// Moves of everything but the king; `CHECKED` adds the "capture or block" filter.
    #[inline(always)]
    fn generate_pieces<const QUIET: bool, const NOISY: bool, const CHECKED: bool, S: MoveSink>(
        &self,
        context: &Context,
        list: &mut S,
    ) {
        self.generate_pawns::<QUIET, NOISY, CHECKED, S>(context, list);
        for &from in self.squares(context.us, PieceType::Knight) {
            if context.pinned & bit(from) == 0 {
                self.generate_knight::<QUIET, NOISY, CHECKED, S>(context, from, list);
            }
        }
        for &from in self.squares(context.us, PieceType::Bishop) {
            self.generate_slider::<QUIET, NOISY, CHECKED, S>(
                context,
                from,
                &BISHOP_DIRECTIONS,
                list,
            );
        }
        for &from in self.squares(context.us, PieceType::Rook) {
            self.generate_slider::<QUIET, NOISY, CHECKED, S>(context, from, &ROOK_DIRECTIONS, list);
        }
        for &from in self.squares(context.us, PieceType::Queen) {
            self.generate_slider::<QUIET, NOISY, CHECKED, S>(context, from, &KING_OFFSETS, list);
        }
    }

    /// Convenience: every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list
    }

    /// Is `mv` a legal move here? Used to vet moves from the transposition table or killer
    /// slots, which may come from another position. Generates only the moving piece's moves.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv.is_null() {
            return false;
        }
        self.is_legal_in(&self.context(), mv)
    }

    /// `is_legal` with this position's `move_context` already at hand.
    pub fn is_legal_in(&self, context: &Context, mv: Move) -> bool {
        debug_assert_eq!(context.king, self.king_square(self.side));
        if mv.is_null() {
            return false;
        }
        let from = mv.from();
        let piece = self.board[from as usize];
        if piece.is_none() || piece.color() != self.side {
            return false;
        }
        let mut list = MoveList::new();
        match piece.kind() {
            PieceType::King => self.generate_king::<true, true, _>(context, &mut list),
            _ if context.checkers >= 2 => {}
            PieceType::Pawn => self.generate_pawn::<true, true, true, _>(context, from, &mut list),
            PieceType::Knight if context.pinned & bit(from) == 0 => {
                self.generate_knight::<true, true, true, _>(context, from, &mut list)
            }
            PieceType::Bishop => self.generate_slider::<true, true, true, _>(
                context,
                from,
                &BISHOP_DIRECTIONS,
                &mut list,
            ),
            PieceType::Rook => self.generate_slider::<true, true, true, _>(
                context,
                from,
                &ROOK_DIRECTIONS,
                &mut list,
            ),
            PieceType::Queen => {
                self.generate_slider::<true, true, true, _>(context, from, &KING_OFFSETS, &mut list)
            }
            _ => {}
        }
        list.contains(&mv)
    }

    /// True when the side to move has no legal move (checkmate or stalemate).
    pub fn has_no_legal_move(&self) -> bool {
        self.legal_moves().is_empty()
    }

    pub fn is_checkmate(&self) -> bool {
        self.in_check() && self.has_no_legal_move()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && self.has_no_legal_move()
    }

    fn context(&self) -> Context {
        let us = self.side;
        let them = us.flip();
        let king = self.king_square(us);
        let mut context = Context {
            us,
            them,
            king,
            checkers: 0,
            targets: 0,
            pinned: 0,
            pins: ArrayVec::new(),
        };
        for kind in [PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
            for &slider in self.squares(them, kind) {
                if !can_attack(kind, slider, king) {
                    continue;
                }
                let mut blockers =
                    between(king, slider).filter(|&sq| !self.board[sq as usize].is_none());
                let blocker = blockers.next();
                if blocker.is_some() && blockers.next().is_some() {
                    continue;
                }
                match blocker {
                    None => {
                        context.checkers += 1;
                        // The checker and every square between it and the king.
                        context.targets |= bit(slider);
                        for sq in between(king, slider) {
                            context.targets |= bit(sq);
                        }
                    }
                    Some(blocker) if self.board[blocker as usize].color() == us => {
                        context.pinned |= bit(blocker);
                        context.pins.push((blocker, step_between(king, slider)));
                    }
                    Some(_) => {}
                }
            }
        }
        for &knight in self.squares(them, PieceType::Knight) {
            if can_attack(PieceType::Knight, knight, king) {
                context.checkers += 1;
                context.targets |= bit(knight);
            }
        }
        let enemy_pawn = Piece::new(them, PieceType::Pawn);
        for side_step in [-1, 1] {
            let sq = king as i32 + us.forward() + side_step;
            if on_board(sq) && self.board[sq as usize] == enemy_pawn {
                context.checkers += 1;
                context.targets |= bit(sq as Square);
            }
        }
        if context.checkers == 0 {
            context.targets = !0;
        }
        context
    }

    fn generate_pawns<const QUIET: bool, const NOISY: bool, const CHECKED: bool, S: MoveSink>(
        &self,
        context: &Context,
        list: &mut S,
    ) {
        for &from in self.squares(context.us, PieceType::Pawn) {
            self.generate_pawn::<QUIET, NOISY, CHECKED, S>(context, from, list);
        }
    }

    #[inline(always)]
    fn generate_pawn<const QUIET: bool, const NOISY: bool, const CHECKED: bool, S: MoveSink>(
        &self,
        context: &Context,
        from: Square,
        list: &mut S,
    ) {
        let us = context.us;
        let forward = us.forward();
        let pin_step = context.pin_step(from);
        let allowed = |to: Square| -> bool {
            (!CHECKED || context.targets & bit(to) != 0)
                && (pin_step == 0 || step_between(context.king, to) == pin_step)
        };
        let promotes = us.relative_rank(from) == 6;

        // Pushes.
        let one = (from as i32 + forward) as Square;
        if self.board[one as usize].is_none() {
            if promotes {
                if NOISY && allowed(one) {
                    push_promotions(list, from, one, false);
                }
            } else if QUIET {
                if allowed(one) {
                    list.add(Move::new(from, one, flag::QUIET));
                }
                if us.relative_rank(from) == 1 {
                    let two = (one as i32 + forward) as Square;
                    if self.board[two as usize].is_none() && allowed(two) {
                        list.add(Move::new(from, two, flag::DOUBLE_PUSH));
                    }
                }
            }
        }

        // Captures.
        if !NOISY {
            return;
        }
        for side_step in [-1, 1] {
            let target = from as i32 + forward + side_step;
            if !on_board(target) {
                continue;
            }
            let to = target as Square;
            let victim = self.board[to as usize];
            if !victim.is_none() && victim.color() == context.them {
                if allowed(to) {
                    if promotes {
                        push_promotions(list, from, to, true);
                    } else {
                        list.add(Move::new(from, to, flag::CAPTURE));
                    }
                }
            } else if to == self.en_passant && self.en_passant_is_legal(context, from, to) {
                list.add(Move::new(from, to, flag::EN_PASSANT));
            }
        }
    }

    /// En passant removes two pawns from one rank at once, so it is tested exactly: does any
    /// enemy piece attack our king once `from` and the captured pawn are gone and `to` is
    /// filled?
    fn en_passant_is_legal(&self, context: &Context, from: Square, to: Square) -> bool {
        let victim = (to as i32 - context.us.forward()) as Square;
        let empty = |sq: Square| {
            sq == from || sq == victim || (sq != to && self.board[sq as usize].is_none())
        };
        !self.scan_attackers(context.king, context.them, empty, |_, _| true)
    }

    #[inline(always)]
    fn generate_knight<const QUIET: bool, const NOISY: bool, const CHECKED: bool, S: MoveSink>(
        &self,
        context: &Context,
        from: Square,
        list: &mut S,
    ) {
        for offset in KNIGHT_OFFSETS {
            let target = from as i32 + offset;
            if !on_board(target) {
                continue;
            }
            let to = target as Square;
            if CHECKED && context.targets & bit(to) == 0 {
                continue;
            }
            let victim = self.board[to as usize];
            if victim.is_none() {
                if QUIET {
                    list.add(Move::new(from, to, flag::QUIET));
                }
            } else if victim.color() == context.them && NOISY {
                list.add(Move::new(from, to, flag::CAPTURE));
            }
        }
    }

    #[inline(always)]
    fn generate_slider<const QUIET: bool, const NOISY: bool, const CHECKED: bool, S: MoveSink>(
        &self,
        context: &Context,
        from: Square,
        directions: &[i32],
        list: &mut S,
    ) {
        let pin_step = context.pin_step(from);
        for &step in directions {
            if pin_step != 0 && step != pin_step && step != -pin_step {
                continue;
            }
            let mut target = from as i32 + step;
            while on_board(target) {
                let to = target as Square;
                let victim = self.board[to as usize];
                if victim.is_none() {
                    if QUIET && (!CHECKED || context.targets & bit(to) != 0) {
                        list.add(Move::new(from, to, flag::QUIET));
                    }
                } else {
                    if victim.color() == context.them
                        && NOISY
                        && (!CHECKED || context.targets & bit(to) != 0)
                    {
                        list.add(Move::new(from, to, flag::CAPTURE));
                    }
                    break;
                }
                target += step;
            }
        }
    }

    fn generate_king<const QUIET: bool, const NOISY: bool, S: MoveSink>(
        &self,
        context: &Context,
        list: &mut S,
    ) {
        let from = context.king;
        for offset in KING_OFFSETS {
            let target = from as i32 + offset;
            if !on_board(target) {
                continue;
            }
            let to = target as Square;
            let victim = self.board[to as usize];
            let is_capture = !victim.is_none();
            if is_capture && victim.color() == context.us {
                continue;
            }
            if (is_capture && !NOISY) || (!is_capture && !QUIET) {
                continue;
            }
            if !self.attacked_without(to, context.them, from, NO_SQUARE) {
                let kind_flag = if is_capture {
                    flag::CAPTURE
                } else {
                    flag::QUIET
                };
                list.add(Move::new(from, to, kind_flag));
            }
        }
        if QUIET && context.checkers == 0 {
            self.generate_castling(context, list);
        }
    }

    fn generate_castling<S: MoveSink>(&self, context: &Context, list: &mut S) {
        let (first_bit, first_slot) = match context.us {
            Color::White => (WHITE_KING_SIDE, 0),
            Color::Black => (BLACK_KING_SIDE, 2),
        };
        let king = context.king;
        for side in 0..2 {
            if self.castling & (first_bit << side) == 0 {
                continue;
            }
            let rook = self.castle_rooks[first_slot + side];
            let castle = Move::new(king, rook, flag::CASTLE);
            let king_to = castle.castle_king_target();
            let rook_to = castle.castle_rook_target();
            // Every square either piece passes over or lands on must be empty, apart from the
            // king and the castling rook themselves.
            let low = king.min(rook).min(king_to).min(rook_to);
            let high = king.max(rook).max(king_to).max(rook_to);
            let path_clear = (low..=high)
                .all(|sq| sq == king || sq == rook || self.board[sq as usize].is_none());
            if !path_clear {
                continue;
            }
            // The king may not cross or land on an attacked square. Lifting the rook too catches
            // the Chess960 case of a rook that shielded the king's target square.
            let (start, end) = (king.min(king_to), king.max(king_to));
            let safe = (start..=end).all(|sq| !self.attacked_without(sq, context.them, king, rook));
            if safe {
                list.add(castle);
            }
        }
    }
}

fn push_promotions<S: MoveSink>(list: &mut S, from: Square, to: Square, capture: bool) {
    for piece in [
        PieceType::Queen,
        PieceType::Knight,
        PieceType::Rook,
        PieceType::Bishop,
    ] {
        list.add(Move::promotion(from, to, piece, capture));
    }
}
