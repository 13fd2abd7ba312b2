//! Attacks on a square: the one scan along 0x88 rays that the position (check), move
//! generation (king safety, castling, en passant, pins), static exchange evaluation and the
//! `d` command's checker list share.
//!
//! There are no attack bitboards on a 0x88 board. A piece attacks a square when the difference
//! table (`geometry::can_attack`) says its kind reaches it from where it stands and, for a
//! slider, every square `between` them is empty. What counts as empty is a parameter: callers
//! that play something out without touching the board (a king stepping away, castling with
//! king and rook lifted, en passant removing two pawns, the captures of an exchange) pass a
//! predicate that treats some squares as vacated or filled. A piece on a square the predicate
//! calls empty neither attacks nor blocks.
//!
//! The scan is generic and always inlined, so each caller's predicate and visitor compile
//! into a loop of its own, as tight as a hand-written one.
//!
//! The other direction, every square one side attacks (`attacked_by`), is the search's threat
//! map, built once per node: leaps (pawns, knights, king) from precomputed masks, sliders by
//! walking their rays. Its masks (one per tier of attacker value) are 64-bit masks over dense
//! square indices, since that is what the history tables index by.

use super::Position;
use crate::geometry::{
    BISHOP_DIRECTIONS, ROOK_DIRECTIONS, can_attack, king_leaps, knight_leaps, pawn_captures,
    square_bit, step_between,
};
use crate::moves::Move;
use crate::types::{Color, NO_SQUARE, Piece, PieceType, Square, on_board};

/// The squares strictly between `from` and `to`, walked from `from` towards `to`. The two
/// must share a rank, file or diagonal (`can_attack` for a slider says they do).
#[derive(Clone, Debug)]
pub struct Between {
    next: Square,
    /// The step as a wrapping byte: 0x88 squares fit a byte, so the walk stays in one.
    step: u8,
    end: Square,
}

/// The squares strictly between two aligned squares; see `Between`.
#[inline(always)]
pub fn between(from: Square, to: Square) -> Between {
    let step = step_between(from, to) as u8;
    debug_assert!(step != 0, "between needs two squares on one line");
    Between {
        next: from.wrapping_add(step),
        step,
        end: to,
    }
}

impl Iterator for Between {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.next == self.end {
            return None;
        }
        let square = self.next;
        self.next = self.next.wrapping_add(self.step);
        Some(square)
    }
}

/// The squares one side attacks (`Position::attacked_by`), as masks of dense indices, each
/// tier including the ones before it: attacked by a pawn; by a pawn or a minor piece; by
/// anything but a queen or the king; by anything.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreatMap {
    pub pawns: u64,
    pub minors: u64,
    pub rooks: u64,
    pub all: u64,
}

impl ThreatMap {
    /// No square attacked (a frame before its node has built its map).
    pub const NONE: ThreatMap = ThreatMap {
        pawns: 0,
        minors: 0,
        rooks: 0,
        all: 0,
    };

    /// The squares where a piece of `kind` can be taken by a less valuable attacker (none for
    /// pawns and kings).
    #[inline(always)]
    pub fn by_lesser(&self, kind: PieceType) -> u64 {
        match kind {
            PieceType::Knight | PieceType::Bishop => self.pawns,
            PieceType::Rook => self.minors,
            PieceType::Queen => self.rooks,
            _ => 0,
        }
    }
}

impl Position {
    /// Calls `visit(square, kind)` for each piece of `by` that attacks `target`, least valuable
    /// first (pawns, knights, bishops, rooks, queens, king), until `visit` returns true; says
    /// whether it did. `empty(square)` says whether a square counts as empty (see the module
    /// doc); on the board as it is, that is `piece_at(square).is_none()`.
    #[inline(always)]
    pub fn scan_attackers(
        &self,
        target: Square,
        by: Color,
        empty: impl Fn(Square) -> bool,
        mut visit: impl FnMut(Square, PieceType) -> bool,
    ) -> bool {
        let pawn = Piece::new(by, PieceType::Pawn);
        let back = target as i32 - by.forward();
        for side_step in [-1, 1] {
            let origin = back + side_step;
            if on_board(origin)
                && self.board[origin as usize] == pawn
                && !empty(origin as Square)
                && visit(origin as Square, PieceType::Pawn)
            {
                return true;
            }
        }
        for &origin in self.squares(by, PieceType::Knight) {
            if can_attack(PieceType::Knight, origin, target)
                && !empty(origin)
                && visit(origin, PieceType::Knight)
            {
                return true;
            }
        }
        for kind in [PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
            for &origin in self.squares(by, kind) {
                if can_attack(kind, origin, target)
                    && !empty(origin)
                    && between(origin, target).all(&empty)
                    && visit(origin, kind)
                {
                    return true;
                }
            }
        }
        let king = self.king_square(by);
        can_attack(PieceType::King, king, target) && !empty(king) && visit(king, PieceType::King)
    }

    /// Every square a piece of `by` attacks, as masks of dense indices (`to_64`): the
    /// search's threat map (quiet moves from or onto an attacked square keep their history
    /// apart, and a piece attacked by a lesser one is ordered away from it). Built piece by
    /// piece, least valuable first, each slider walking its rays up to the first piece.
    pub fn attacked_by(&self, by: Color) -> ThreatMap {
        let slide = |mask: &mut u64, kind: PieceType, directions: &[i32]| {
            for &slider in self.squares(by, kind) {
                for &direction in directions {
                    let mut square = slider as i32 + direction;
                    while on_board(square) {
                        *mask |= square_bit(square as Square);
                        if !self.board[square as usize].is_none() {
                            break;
                        }
                        square += direction;
                    }
                }
            }
        };
        let mut mask = 0u64;
        for &pawn in self.squares(by, PieceType::Pawn) {
            mask |= pawn_captures(by, pawn);
        }
        let pawns = mask;
        for &knight in self.squares(by, PieceType::Knight) {
            mask |= knight_leaps(knight);
        }
        slide(&mut mask, PieceType::Bishop, &BISHOP_DIRECTIONS);
        let minors = mask;
        slide(&mut mask, PieceType::Rook, &ROOK_DIRECTIONS);
        let rooks = mask;
        slide(&mut mask, PieceType::Queen, &BISHOP_DIRECTIONS);
        slide(&mut mask, PieceType::Queen, &ROOK_DIRECTIONS);
        mask |= king_leaps(self.king_square(by));
        ThreatMap {
            all: mask,
            pawns,
            minors,
            rooks,
        }
    }

    /// Is `sq` attacked by any piece of `by`? Uses the current board as it is.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked_without(sq, by, NO_SQUARE, NO_SQUARE)
    }

    /// `is_attacked` as if the squares `lifted_a` and `lifted_b` were empty.
    pub(crate) fn attacked_without(
        &self,
        sq: Square,
        by: Color,
        lifted_a: Square,
        lifted_b: Square,
    ) -> bool {
        let empty = |square: Square| {
            self.board[square as usize].is_none() || square == lifted_a || square == lifted_b
        };
        self.scan_attackers(sq, by, empty, |_, _| true)
    }

    /// Is the side to move in check?
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.king_square(self.side), self.side.flip())
    }

    /// `in_check` right after `mv` was made, found from the move alone (the search asks it
    /// after every move): before the move the side now to move was not in check, so a check
    /// can only come from the moved (or promoted) piece on its target, or from a slider
    /// uncovered on the line from the king through a square the move emptied (its origin, and
    /// for en passant the taken pawn's square). Castling asks `in_check` itself.
    #[inline]
    pub fn in_check_after(&self, mv: Move) -> bool {
        if mv.is_castle() {
            return self.in_check();
        }
        let mover = self.side.flip();
        let king = self.king_square(self.side);
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[to as usize];
        let kind = piece.kind();
        let direct = match kind {
            PieceType::Pawn => pawn_captures(mover, to) & square_bit(king) != 0,
            PieceType::Knight => can_attack(kind, to, king),
            PieceType::Bishop | PieceType::Rook | PieceType::Queen => {
                can_attack(kind, to, king)
                    && between(to, king).all(|sq| self.board[sq as usize].is_none())
            }
            _ => false,
        };
        direct
            || self.slider_behind(king, from, mover)
            || (mv.is_en_passant()
                && self.slider_behind(king, (to as i32 - mover.forward()) as Square, mover))
    }

    /// Does a slider of `by` attack `king` along the line from the king through `through`?
    /// (The first piece on that line, walking from the king, decides.)
    #[inline(always)]
    fn slider_behind(&self, king: Square, through: Square, by: Color) -> bool {
        let step = step_between(king, through);
        if step == 0 {
            return false;
        }
        let mut square = king as i32 + step;
        while on_board(square) {
            let piece = self.board[square as usize];
            if !piece.is_none() {
                let diagonal = matches!(step.abs(), 15 | 17);
                return piece.color() == by
                    && match piece.kind() {
                        PieceType::Queen => true,
                        PieceType::Bishop => diagonal,
                        PieceType::Rook => !diagonal,
                        _ => false,
                    };
            }
            square += step;
        }
        false
    }

    /// The squares of the pieces giving check to the side to move, in square order.
    pub fn checkers(&self) -> Vec<Square> {
        let us = self.side;
        let mut found = Vec::new();
        let empty = |square: Square| self.board[square as usize].is_none();
        self.scan_attackers(self.king_square(us), us.flip(), empty, |square, _| {
            found.push(square);
            false
        });
        found.sort_unstable();
        found
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::types::{Color, PieceType, Square, from_64};

    /// The threat map agrees with the square-by-square scan, for both colours, in positions
    /// with pins, batteries, promotions pending and pieces on the rim.
    #[test]
    fn attacked_by_matches_is_attacked() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "1q5k/8/8/3Q4/8/8/8/K6R b - - 0 1",
            "7k/P7/8/8/8/8/7p/K7 w - - 0 1",
        ];
        let check = |pos: &Position, fen: &str| {
            for by in [Color::White, Color::Black] {
                let map = pos.attacked_by(by);
                for index in 0..64 {
                    let square = from_64(index);
                    // The least valuable attacker, as the scan finds it first.
                    let mut least = None;
                    let empty = |square: Square| pos.piece_at(square).is_none();
                    pos.scan_attackers(square, by, empty, |_, kind| {
                        least = Some(kind);
                        true
                    });
                    let tiers = [
                        (map.pawns, PieceType::Pawn),
                        (map.minors, PieceType::Bishop),
                        (map.rooks, PieceType::Rook),
                        (map.all, PieceType::King),
                    ];
                    for (mask, up_to) in tiers {
                        let expected = least.is_some_and(|kind| kind <= up_to);
                        assert_eq!(
                            mask >> index & 1 == 1,
                            expected,
                            "{fen}: square {index} by {by:?}, tier up to {up_to:?}"
                        );
                    }
                }
            }
        };
        for fen in fens {
            let mut pos = Position::from_fen(fen).expect("test FEN parses");
            check(&pos, fen);
            // And every position one move on (captures open and close rays).
            for mv in pos.legal_moves() {
                pos.make_move(mv);
                check(&pos, fen);
                pos.unmake_move();
            }
        }
    }
}
