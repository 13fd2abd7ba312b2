//! Quiescence search: at the horizon, play out captures (and queen promotions) until the
//! position is quiet, so the static evaluation is never taken in the middle of an exchange.
//!
//! The side to move may "stand pat" on the static evaluation (it is never forced to capture),
//! except in check, where every evasion is searched and having none is mate. Captures that
//! lose material by static exchange, or that cannot lift the score to alpha even if the piece
//! came for free (delta pruning), are skipped.

use crate::moves::Move;
use crate::position::attacks::ThreatMap;
use crate::tt::Bound;
use crate::types::PieceType;

use super::Shared;
use super::alphabeta::{Best, Outcome, bound_decides};
use super::movepick::{MovePicker, captured_kind};
use super::params::{MATE, MATE_BOUND, NO_EVAL};
use super::see::{see_ge, see_value};
use super::thread::{SearchThread, sharpened};

impl SearchThread {
    pub(super) fn qsearch(
        &mut self,
        shared: &Shared,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        // Set by the caller, which looked after its move (search's gives-check, or below).
        let in_check = self.stack[ply].in_check;
        debug_assert_eq!(in_check, self.pos.in_check());
        if let Some(score) = self.enter_node(shared, ply, in_check) {
            return score;
        }
        let pv_node = beta - alpha > 1;

        let key = self.pos.key();
        let hit = shared.tt.probe(key, ply);
        if let Some(hit) = hit
            && !pv_node
            && bound_decides(&hit, alpha, beta)
        {
            return hit.score;
        }
        let tt_move = hit.map_or(Move::NULL, |hit| hit.mv);
        let tt_pv = pv_node || hit.is_some_and(|hit| hit.pv);

        // Stand pat on the static evaluation (not in check: there every evasion counts).
        let raw_eval;
        let stand_pat;
        if in_check {
            raw_eval = NO_EVAL;
            stand_pat = -MATE + ply as i32;
        } else {
            raw_eval = match hit {
                Some(hit) if hit.eval.abs() < MATE_BOUND => hit.eval,
                _ => self.evaluate(),
            };
            let static_eval = self.corrected(raw_eval, ply);
            stand_pat = sharpened(hit, static_eval);
            if stand_pat >= beta {
                if hit.is_none() {
                    shared.tt.store(
                        key,
                        ply,
                        Move::NULL,
                        stand_pat,
                        raw_eval,
                        0,
                        Bound::Lower,
                        tt_pv,
                    );
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }
        let delta_margin = self.params().qsearch_delta_margin;

        let contexts = self.contexts(ply);
        // Quiet moves come only as evasions: the threat map is needed only then.
        let threats = if in_check {
            self.pos.attacked_by(self.pos.side_to_move().flip())
        } else {
            ThreatMap::NONE
        };
        let mut picker = MovePicker::quiescence(tt_move, in_check, contexts, threats);
        let mut best = Best::new(stand_pat, alpha, beta);
        let original_alpha = alpha;
        while let Some(mv) = picker.next(&self.pos, &self.history) {
            shared.tt.prefetch(self.pos.key_after(mv));
            if !in_check {
                if mv.is_promotion() && mv.promotion_piece() != PieceType::Queen {
                    continue;
                }
                // Delta pruning: even winning the victim for free stays below alpha.
                if !mv.is_promotion()
                    && stand_pat + see_value(captured_kind(&self.pos, mv)) + delta_margin
                        <= best.alpha
                {
                    continue;
                }
                // SEE pruning: captures that lose material are not worth a look here.
                if !see_ge(&self.pos, mv, 0) {
                    continue;
                }
            }
            self.make_move(shared, mv, ply);
            self.stack[ply + 1].in_check = self.pos.in_check_after(mv);
            let score = -self.qsearch(shared, -beta, -best.alpha, ply + 1);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            let outcome = best.offer(mv, score);
            if outcome != Outcome::Worse && pv_node {
                self.update_pv(ply, mv);
            }
            if outcome == Outcome::Cutoff {
                break;
            }
        }

        let bound = if best.score >= beta {
            Bound::Lower
        } else if pv_node && best.score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        shared
            .tt
            .store(key, ply, best.mv, best.score, raw_eval, 0, bound, tt_pv);
        best.score
    }
}
