//! Quiescence search: at the horizon, play out captures (and queen promotions) until the
//! position is quiet, so the static evaluation is never taken in the middle of an exchange.
//!
//! The side to move may "stand pat" on the static evaluation (it is never forced to capture),
//! except in check, where every evasion is searched and having none is mate. Captures that
//! lose material by static exchange, or that cannot lift the score to alpha even if the piece
//! came for free (delta pruning), are skipped.

use crate::moves::Move;
use crate::tt::Bound;
use crate::types::PieceType;

use super::movepick::{MovePicker, captured_kind};
use super::see::{see_ge, see_value};
use super::worker::{DRAW, Worker, sharpened};
use super::{MATE, MATE_BOUND, MAX_PLY, Shared};

/// Margin of delta pruning: positional gain a capture may bring beyond the victim's value.
const DELTA_MARGIN: i32 = 150;

impl Worker {
    pub(super) fn qsearch(
        &mut self,
        shared: &Shared,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll(shared);
            if self.stopped {
                return 0;
            }
        }
        self.pv_length[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        if self.pos.is_repetition(ply) || self.pos.is_insufficient_material() {
            return DRAW;
        }
        if self.pos.halfmove_clock() >= 100 && !(in_check && self.pos.has_no_legal_move()) {
            return DRAW;
        }
        if ply >= MAX_PLY {
            return if in_check { DRAW } else { self.evaluate() };
        }
        let pv_node = beta - alpha > 1;

        let key = self.pos.key();
        let hit = shared.tt.probe(key, ply);
        if let Some(hit) = hit
            && !pv_node
            && match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.score >= beta,
                Bound::Upper => hit.score <= alpha,
            }
        {
            return hit.score;
        }
        let tt_move = hit.map_or(Move::NULL, |hit| hit.mv);

        // Stand pat on the static evaluation (not in check: there every evasion counts).
        let raw_eval;
        let mut best_score;
        if in_check {
            raw_eval = super::worker::NO_EVAL;
            best_score = -MATE + ply as i32;
        } else {
            raw_eval = match hit {
                Some(hit) if hit.eval.abs() < MATE_BOUND => hit.eval,
                _ => self.evaluate(),
            };
            let static_eval = self.corrected(raw_eval);
            best_score = sharpened(hit, static_eval);
            if best_score >= beta {
                if hit.is_none() {
                    shared
                        .tt
                        .store(key, ply, Move::NULL, best_score, raw_eval, 0, Bound::Lower);
                }
                return best_score;
            }
            alpha = alpha.max(best_score);
        }
        let stand_pat = best_score;

        let contexts = self.contexts(ply);
        let mut picker = MovePicker::quiescence(tt_move, in_check, contexts);
        let mut best_move = Move::NULL;
        let original_alpha = alpha;
        while let Some(mv) = picker.next(&self.pos, &self.history) {
            shared.tt.prefetch(self.pos.key_after(mv));
            if !in_check {
                if mv.is_promotion() && mv.promotion_piece() != PieceType::Queen {
                    continue;
                }
                // Delta pruning: even winning the victim for free stays below alpha.
                if !mv.is_promotion()
                    && stand_pat + see_value(captured_kind(&self.pos, mv)) + DELTA_MARGIN <= alpha
                {
                    continue;
                }
                // SEE pruning: captures that lose material are not worth a look here.
                if !see_ge(&self.pos, mv, 0) {
                    continue;
                }
            }
            self.make_move(shared, mv, ply);
            let score = -self.qsearch(shared, -beta, -alpha, ply + 1);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if pv_node && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        shared
            .tt
            .store(key, ply, best_move, best_score, raw_eval, 0, bound);
        best_score
    }
}
