//! Probing: the chess the tables leave out.
//!
//! The tables hold positions without castling rights, as if no en passant capture were
//! possible, and a table's value may be wrong where a capture is the best move (the
//! generator stores "don't care" values there to compress better). So every probe first
//! tries the captures, one ply at a time down to smaller tables (an alpha-beta search over
//! captures only), and takes the table's value only where no capture does better. En passant
//! captures are resolved on top, at the root of the probe.
//!
//! DTZ ("distance to zeroing": plies to the next capture or pawn move, with the 50-move
//! rule's cursed and blessed results counted past 100) uses the same conventions and the
//! same decisions as python-chess's `probe_dtz`, so the two compare value for value:
//! - a win by a capture or a pawn move is 1 (101 when cursed), a loss -1 (-101);
//! - a DTZ table stores one side to move; for the other side a one-ply search over the
//!   table's side gives the value (wins: the fastest non-zeroing move, plus one ply;
//!   losses: the slowest).
//!
//! Every function takes `&mut Position` to make and unmake moves and leaves it as it was.

use super::table::{Lookup, TableKind};
use super::{Tablebases, Wdl};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceType};

/// A root move with what the tables say about it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// The result after the move, for the side that plays it.
    pub wdl: Wdl,
    /// Plies to the next zeroing move counted from before this move, for the side that
    /// plays it (positive when winning): 1 for a winning zeroing move or mate, 0 for draws.
    pub dtz: i32,
}

impl RootMove {
    /// The move's class under the 50-move rule with `halfmove_clock` already played: 2 a win
    /// that zeroes in time, 1 a win that may not (or a cursed one), 0 a draw, -1 a loss the
    /// rule may still save, -2 a loss. Without the rule only the WDL counts.
    pub fn class(&self, halfmove_clock: u16, fifty_move_rule: bool) -> i32 {
        let clock = halfmove_clock as i32;
        let dtz = self.dtz;
        if !fifty_move_rule {
            self.wdl.value().signum() * 2
        } else if dtz > 0 {
            if dtz + clock <= 99 && self.wdl == Wdl::Win {
                2
            } else {
                1
            }
        } else if dtz < 0 {
            if -dtz * 2 + clock < 100 && self.wdl == Wdl::Loss {
                -2
            } else {
                -1
            }
        } else {
            0
        }
    }

    /// How good the move is by the tables, higher better: by class, then a shorter win or a
    /// longer loss. The command line's choice.
    pub fn rank(&self, halfmove_clock: u16, fifty_move_rule: bool) -> i32 {
        let class = self.class(halfmove_clock, fifty_move_rule);
        class * RANK_CLASS - self.dtz.clamp(-RANK_CLASS / 2, RANK_CLASS / 2)
    }

    /// The rank for a search, which picks among moves of equal rank itself: wins rank by
    /// distance (the fastest zeroing moves only, so a won ending always makes progress and
    /// cannot go round in circles); draws are one rank, and so are certain losses; losses the
    /// 50-move rule may still save rank by distance, as there the distance decides.
    pub fn search_rank(&self, halfmove_clock: u16, fifty_move_rule: bool) -> i32 {
        match self.class(halfmove_clock, fifty_move_rule) {
            class @ (0 | -2) => class * RANK_CLASS,
            _ => self.rank(halfmove_clock, fifty_move_rule),
        }
    }
}

/// Rank distance between two classes, more than any DTZ term.
const RANK_CLASS: i32 = 1000;

/// DTZ of a zeroing move that reaches `wdl` (for the side that made it).
fn dtz_of_zeroing(wdl: i32) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}

fn is_pawn_move(pos: &Position, mv: Move) -> bool {
    pos.piece_at(mv.from()).kind() == PieceType::Pawn
}

impl Tablebases {
    /// Win/draw/loss for the side to move, assuming the position was reached by a capture or
    /// pawn move (the 50-move counter is not looked at). None when a table is missing or
    /// damaged, the position has castling rights, or more pieces than the tables hold.
    pub fn probe_wdl(&self, pos: &mut Position) -> Option<Wdl> {
        if !self.can_probe(pos) {
            return None;
        }
        self.wdl_with_en_passant(pos).and_then(Wdl::from_value)
    }

    /// Distance to zeroing in plies, signed like the WDL (see the module doc), with the same
    /// values as python-chess's `probe_dtz`. Needs the WDL and DTZ tables. None as for
    /// [`Tablebases::probe_wdl`].
    pub fn probe_dtz(&self, pos: &mut Position) -> Option<i32> {
        if !self.can_probe(pos) {
            return None;
        }
        self.dtz_with_en_passant(pos)
    }

    /// Every legal move with its result, in the order of the move generator. None when any
    /// move cannot be probed.
    pub fn root_moves(&self, pos: &mut Position) -> Option<Vec<RootMove>> {
        if !self.can_probe(pos) {
            return None;
        }
        let mut moves = Vec::new();
        for mv in pos.legal_moves() {
            let zeroing = mv.is_capture() || is_pawn_move(pos, mv);
            pos.make_move(mv);
            let result = self.root_move_result(pos, zeroing);
            pos.unmake_move();
            let (wdl, dtz) = result?;
            moves.push(RootMove { mv, wdl, dtz });
        }
        Some(moves)
    }

    /// The best move by the tables: the highest [`RootMove::rank`]. None when there is no
    /// legal move or a probe fails.
    pub fn best_move(&self, pos: &mut Position, fifty_move_rule: bool) -> Option<RootMove> {
        let clock = pos.halfmove_clock();
        let moves = self.root_moves(pos)?;
        moves
            .into_iter()
            .max_by_key(|root| root.rank(clock, fifty_move_rule))
    }

    fn root_move_result(&self, pos: &mut Position, zeroing: bool) -> Option<(Wdl, i32)> {
        let wdl = Wdl::from_value(-self.wdl_with_en_passant(pos)?)?;
        let mut dtz = if zeroing {
            dtz_of_zeroing(wdl.value())
        } else {
            let after = -self.dtz_with_en_passant(pos)?;
            after + after.signum()
        };
        if dtz == 2 && pos.in_check() && pos.has_no_legal_move() {
            dtz = 1;
        }
        Some((wdl, dtz))
    }

    fn can_probe(&self, pos: &Position) -> bool {
        pos.castling_rights() == 0 && pos.piece_total() <= self.max_pieces
    }

    /// The WDL table's value, or 0 for the bare kings.
    fn wdl_table(&self, pos: &Position) -> Option<i32> {
        let only_kings = [Color::White, Color::Black].iter().all(|&color| {
            PieceType::ALL
                .iter()
                .all(|&kind| kind == PieceType::King || pos.count(color, kind) == 0)
        });
        if only_kings {
            return Some(0);
        }
        match self.probe_table(pos, TableKind::Wdl, 0)? {
            Lookup::Value(value) if (-2..=2).contains(&value) => Some(value),
            _ => None,
        }
    }

    /// Alpha-beta over captures (en passant left out) with the table at the leaves. Returns
    /// the value and how it was found: 1 the table decides, 2 a capture is (among) the best
    /// moves and it wins or draws at least as well as the table.
    fn search_captures(&self, pos: &mut Position, mut alpha: i32, beta: i32) -> Option<(i32, u8)> {
        if pos.castling_rights() != 0 {
            return None;
        }
        for mv in pos.legal_moves() {
            if !mv.is_capture() || mv.is_en_passant() {
                continue;
            }
            pos.make_move(mv);
            let result = self.search_captures(pos, -beta, -alpha);
            pos.unmake_move();
            let value = -result?.0;
            if value > alpha {
                if value >= beta {
                    return Some((value, 2));
                }
                alpha = value;
            }
        }
        let value = self.wdl_table(pos)?;
        if alpha >= value {
            Some((alpha, 1 + (alpha > 0) as u8))
        } else {
            Some((value, 1))
        }
    }

    /// The best value over the legal en passant captures, if there are any (the outer None:
    /// a probe failed).
    fn best_en_passant(&self, pos: &mut Position) -> Option<Option<i32>> {
        if pos.en_passant_square().is_none() {
            return Some(None);
        }
        let mut best = None;
        for mv in pos.legal_moves() {
            if !mv.is_en_passant() {
                continue;
            }
            pos.make_move(mv);
            let result = self.search_captures(pos, -2, 2);
            pos.unmake_move();
            let value = -result?.0;
            best = Some(best.map_or(value, |best: i32| best.max(value)));
        }
        Some(best)
    }

    /// True when every legal move is an en passant capture.
    fn only_en_passant(pos: &Position) -> bool {
        pos.legal_moves().iter().all(|mv| mv.is_en_passant())
    }

    fn wdl_with_en_passant(&self, pos: &mut Position) -> Option<i32> {
        let (mut value, _) = self.search_captures(pos, -2, 2)?;
        if pos.en_passant_square().is_none() {
            return Some(value);
        }
        if let Some(en_passant) = self.best_en_passant(pos)?
            && (en_passant >= value || (value == 0 && Self::only_en_passant(pos)))
        {
            value = en_passant;
        }
        Some(value)
    }

    fn dtz_with_en_passant(&self, pos: &mut Position) -> Option<i32> {
        let mut value = self.dtz_without_en_passant(pos)?;
        if pos.en_passant_square().is_none() {
            return Some(value);
        }
        let Some(en_passant) = self.best_en_passant(pos)? else {
            return Some(value);
        };
        let by_capture = dtz_of_zeroing(en_passant);
        let take = if value < -100 {
            by_capture >= 0
        } else if value < 0 {
            !(-100..0).contains(&by_capture)
        } else if value > 100 {
            by_capture > 0
        } else if value > 0 {
            by_capture == 1
        } else if by_capture >= 0 {
            true
        } else {
            Self::only_en_passant(pos)
        };
        if take {
            value = by_capture;
        }
        Some(value)
    }

    fn dtz_without_en_passant(&self, pos: &mut Position) -> Option<i32> {
        let (wdl, how) = self.search_captures(pos, -2, 2)?;
        if wdl == 0 {
            return Some(0);
        }
        if how == 2 {
            return Some(dtz_of_zeroing(wdl));
        }

        if wdl > 0 {
            // A pawn push that keeps the win zeroes at once.
            for mv in pos.legal_moves() {
                if mv.is_capture() || !is_pawn_move(pos, mv) {
                    continue;
                }
                pos.make_move(mv);
                let after = self.wdl_with_en_passant(pos);
                pos.unmake_move();
                if -after? == wdl {
                    return Some(if wdl == 2 { 1 } else { 101 });
                }
            }
        }

        match self.probe_table(pos, TableKind::Dtz, wdl)? {
            Lookup::Value(stored) => {
                let dtz = dtz_of_zeroing(wdl) + if wdl > 0 { stored } else { -stored };
                return Some(dtz);
            }
            Lookup::OtherSide => {}
        }

        // The table stores the other side to move: one ply down.
        if wdl > 0 {
            let mut best = 0xFFFF;
            for mv in pos.legal_moves() {
                if mv.is_capture() || is_pawn_move(pos, mv) {
                    continue;
                }
                pos.make_move(mv);
                let result = self.dtz_with_en_passant(pos);
                let mated = result == Some(-1) && pos.in_check() && pos.has_no_legal_move();
                pos.unmake_move();
                let value = -result?;
                if value == 1 && mated {
                    best = 1;
                } else if value > 0 && value + 1 < best {
                    best = value + 1;
                }
            }
            Some(best)
        } else {
            let mut best = -1;
            for mv in pos.legal_moves() {
                let zeroing = mv.is_capture() || is_pawn_move(pos, mv);
                pos.make_move(mv);
                let result = if zeroing {
                    if wdl == -2 {
                        Some(-1)
                    } else {
                        self.search_captures(pos, 1, 2)
                            .map(|(value, _)| if value == 2 { 0 } else { -101 })
                    }
                } else {
                    self.dtz_with_en_passant(pos).map(|dtz| -dtz - 1)
                };
                pos.unmake_move();
                best = best.min(result?);
            }
            Some(best)
        }
    }
}
