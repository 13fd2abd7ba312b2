//! The principal-variation negamax search below the root.
//!
//! PV nodes (open window) are searched exactly; every other node gets a null window and is
//! where the selectivity lives. Each step is numbered so that a change names the step it
//! touches. The margins are common first values, not yet tuned here; the singular extension
//! (step 12a) was measured in self-play: +56 +/- 44 Elo at 60k nodes per move, 100 games.

use arrayvec::ArrayVec;

use crate::moves::Move;
use crate::tt::Bound;
use crate::types::PieceType;

use super::history::stat_bonus;
use super::movepick::{MovePicker, captured_kind};
use super::see::see_ge;
use super::worker::{DRAW, INFINITE, NO_EVAL, REDUCTIONS, Worker, sharpened};
use super::{MATE, MATE_BOUND, MAX_PLY, Shared};

/// Quiet moves searched before late-move pruning cuts the rest, by depth (not improving /
/// improving).
fn late_move_count(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 }) as usize
}

impl Worker {
    /// Negamax with alpha-beta inside (alpha, beta) to `depth` plies at distance `ply` from
    /// the root. `cut_node`: a null-window node expected to fail high.
    pub(super) fn search(
        &mut self,
        shared: &Shared,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Horizon: quiescence search resolves the captures.
        if depth <= 0 {
            return self.qsearch(shared, alpha, beta, ply);
        }

        // Step 2. Node accounting; poll the stop flag, clock and node limit.
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
        let pv_node = beta - alpha > 1;
        self.pv_length[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.stack[ply].in_check;
        debug_assert_eq!(in_check, self.pos.in_check());

        // Step 3. Draws (repetition, insufficient material, fifty moves unless this is mate)
        // and the ply cap.
        if self.pos.is_repetition(ply) || self.pos.is_insufficient_material() {
            return DRAW;
        }
        if self.pos.halfmove_clock() >= 100 && !(in_check && self.pos.has_no_legal_move()) {
            return DRAW;
        }
        if ply >= MAX_PLY {
            return if in_check { DRAW } else { self.evaluate() };
        }

        // Step 4. Mate distance pruning: no line from here beats a mate found closer to the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 5. Transposition table probe (before any move generation); cut off at non-PV
        // nodes when the stored result is deep enough and its bound decides.
        let key = self.pos.key();
        let excluded = self.stack[ply].excluded;
        let hit = if excluded.is_null() {
            shared.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = hit.map_or(Move::NULL, |hit| hit.mv);
        if let Some(hit) = hit
            && !pv_node
            && hit.depth >= depth
            && match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.score >= beta,
                Bound::Upper => hit.score <= alpha,
            }
        {
            if hit.score >= beta && !tt_move.is_null() && !tt_move.is_noisy() {
                self.update_killers(ply, tt_move);
            }
            return hit.score;
        }

        // Step 6. Static evaluation, sharpened by the table score when its bound allows.
        // The table keeps the raw evaluation; the correction history adjusts it.
        let us = self.pos.side_to_move();
        let raw_eval;
        let static_eval;
        let eval;
        if in_check {
            raw_eval = NO_EVAL;
            static_eval = NO_EVAL;
            eval = NO_EVAL;
        } else {
            raw_eval = match hit {
                Some(hit) if hit.eval.abs() < MATE_BOUND => hit.eval,
                _ => self.evaluate(),
            };
            static_eval = self.corrected(raw_eval);
            eval = sharpened(hit, static_eval);
        }
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        self.stack[ply + 1].killers = [Move::NULL; 2];

        if !pv_node && !in_check && excluded.is_null() {
            // Step 7. Reverse futility pruning: far above beta at low depth, assume it holds.
            if depth <= 8
                && eval.abs() < MATE_BOUND
                && eval - 80 * (depth - improving as i32) >= beta
            {
                return eval;
            }

            // Step 8. Null-move pruning: if passing still fails high, a real move will too.
            // Not in pawn endings (zugzwang) and never twice in a row.
            if depth >= 3
                && eval >= beta
                && beta > -MATE_BOUND
                && ply >= 1
                && !self.stack[ply - 1].mv.is_null()
                && self.pos.has_non_pawn_material(us)
            {
                let reduction = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.stack[ply].mv = Move::NULL;
                self.stack[ply].context = None;
                self.stack[ply + 1].in_check = false;
                self.pos.make_null_move();
                shared.tt.prefetch(self.pos.key());
                let score = -self.search(
                    shared,
                    -beta,
                    -beta + 1,
                    depth - reduction,
                    ply + 1,
                    !cut_node,
                );
                self.pos.unmake_null_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Step 9. Internal iterative reduction: without a table move this node was never
        // searched; spend less on it now, the next iteration will have a move to try first.
        if depth >= 4 && tt_move.is_null() && (pv_node || cut_node) && excluded.is_null() {
            depth -= 1;
        }

        // Step 10. The move loop, best-first from the staged picker.
        let contexts = self.contexts(ply);
        let counter = self.history.counter_move(contexts[0]);
        let mut picker = MovePicker::new(tt_move, self.stack[ply].killers, counter, contexts);
        let mut best_score = -INFINITE;
        let mut best_move = Move::NULL;
        let mut moves_searched = 0usize;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let original_alpha = alpha;
        let has_pieces = self.pos.has_non_pawn_material(us);
        while let Some(mv) = picker.next(&self.pos, &self.history) {
            if mv == excluded {
                continue;
            }
            let quiet = !mv.is_noisy();
            // Start loading the child's table bucket while the pruning below decides.
            shared.tt.prefetch(self.pos.key_after(mv));

            // Step 11. Shallow-depth pruning, once a move has saved us from being mated.
            if best_score > -MATE_BOUND && has_pieces {
                if quiet {
                    // Step 11a. Late-move pruning: enough quiet moves tried at low depth.
                    if depth <= 8 && quiets_tried.len() >= late_move_count(depth, improving) {
                        picker.skip_quiets();
                        continue;
                    }
                    // Step 11b. Futility pruning: no quiet move lifts eval this far.
                    if !in_check && depth <= 8 && eval + 100 + 100 * depth <= alpha {
                        picker.skip_quiets();
                        continue;
                    }
                    // Step 11c. Quiet moves that hang material at low depth.
                    if depth <= 6 && !see_ge(&self.pos, mv, -25 * depth * depth) {
                        continue;
                    }
                } else if depth <= 6 && !see_ge(&self.pos, mv, -90 * depth) {
                    // Step 11d. Captures that lose too much by exchange.
                    continue;
                }
            }

            // Step 12a. Singular extension: when every move but the table move fails well
            // below its score, the table move is forced and gets a ply more. When even
            // without it the node fails high (multi-cut), the node is a cutoff.
            // Extensions stop at twice the root depth, so check sequences cannot explode.
            let may_extend = (ply as i32) < 2 * self.root_depth;
            let mut extension = 0;
            if let Some(hit) = hit
                && may_extend
                && mv == tt_move
                && depth >= 8
                && hit.depth >= depth - 3
                && hit.bound != Bound::Upper
                && hit.score.abs() < MATE_BOUND
            {
                let singular_beta = hit.score - 2 * depth;
                self.stack[ply].excluded = mv;
                let score = self.search(
                    shared,
                    singular_beta - 1,
                    singular_beta,
                    (depth - 1) / 2,
                    ply,
                    cut_node,
                );
                self.stack[ply].excluded = Move::NULL;
                if self.stopped {
                    return 0;
                }
                if score < singular_beta {
                    extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }

            let piece = self.pos.piece_at(mv.from());
            let captured = captured_kind(&self.pos, mv);
            self.make_move(shared, mv, ply);
            moves_searched += 1;
            let gives_check = self.pos.in_check();
            self.stack[ply + 1].in_check = gives_check;

            // Step 12b. Check extension.
            let new_depth = depth - 1 + extension.max((gives_check && may_extend) as i32);

            // Step 13. Late-move reductions, then the PVS re-search ladder.
            let mut score = -INFINITE;
            if depth >= 3 && moves_searched > 1 + pv_node as usize && (quiet || !gives_check) {
                let mut reduction = REDUCTIONS[depth.min(63) as usize][moves_searched.min(63)];
                if quiet {
                    reduction += !improving as i32;
                    reduction += cut_node as i32;
                    reduction -= pv_node as i32;
                    reduction -= picker.is_refutation(mv) as i32;
                    reduction -= gives_check as i32;
                    let history = self.history.quiet_score(us, mv, piece, contexts);
                    reduction -= history / 8192;
                } else {
                    reduction = (reduction - 1).max(0) - pv_node as i32;
                }
                let reduced = (new_depth - reduction).clamp(1, new_depth.max(1));
                score = -self.search(shared, -alpha - 1, -alpha, reduced, ply + 1, true);
                if score > alpha && reduced < new_depth {
                    score = -self.search(shared, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !pv_node || moves_searched > 1 {
                score = -self.search(shared, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            }
            if pv_node && (moves_searched == 1 || score > alpha) {
                score = -self.search(shared, -beta, -alpha, new_depth, ply + 1, false);
            }
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
            if quiet {
                let _ = quiets_tried.try_push(mv);
            } else if captured != PieceType::None {
                let _ = captures_tried.try_push(mv);
            }
        }

        // Step 14. No legal move: checkmate or stalemate.
        if moves_searched == 0 {
            if !excluded.is_null() {
                return alpha;
            }
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }

        // Step 15. Learn from a cutoff: reward the refutation, punish what was tried before.
        if best_score >= beta {
            self.reward_cutoff(
                ply,
                depth,
                best_move,
                &quiets_tried,
                &captures_tried,
                contexts,
            );
        }

        // Step 16. A search without the excluded move is not this position's result: neither
        // stored nor learnt from.
        if !excluded.is_null() {
            return best_score;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };

        // Step 17. Teach the correction history how far the static evaluation was off, when
        // the result is quiet (no capture decided it) and its bound says which way.
        if !in_check
            && (best_move.is_null() || !best_move.is_noisy())
            && best_score.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.correction
                .update(&self.pos, depth, best_score - raw_eval);
        }

        // Step 18. Store the result.
        shared
            .tt
            .store(key, ply, best_move, best_score, raw_eval, depth, bound);
        best_score
    }

    fn update_killers(&mut self, ply: usize, mv: Move) {
        let killers = &mut self.stack[ply].killers;
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
    }

    fn reward_cutoff(
        &mut self,
        ply: usize,
        depth: i32,
        best_move: Move,
        quiets_tried: &[Move],
        captures_tried: &[Move],
        contexts: [Option<usize>; 2],
    ) {
        let bonus = stat_bonus(depth);
        let us = self.pos.side_to_move();
        if !best_move.is_noisy() {
            self.update_killers(ply, best_move);
            self.history.set_counter_move(contexts[0], best_move);
            let piece = self.pos.piece_at(best_move.from());
            self.history
                .update_quiet(us, best_move, piece, contexts, bonus);
            for &mv in quiets_tried {
                let piece = self.pos.piece_at(mv.from());
                self.history.update_quiet(us, mv, piece, contexts, -bonus);
            }
        } else {
            let piece = self.pos.piece_at(best_move.from());
            let captured = captured_kind(&self.pos, best_move);
            self.history
                .update_capture(piece, best_move, captured, bonus);
        }
        for &mv in captures_tried {
            let piece = self.pos.piece_at(mv.from());
            let captured = captured_kind(&self.pos, mv);
            self.history.update_capture(piece, mv, captured, -bonus);
        }
    }
}
