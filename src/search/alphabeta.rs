//! The principal-variation negamax search, the root included.
//!
//! PV nodes (open window) are searched exactly; every other node gets a null window and is
//! where the selectivity lives. Each step is numbered so that a change names the step it
//! touches; every margin comes from the parameter table (`params.rs`).
//!
//! The root (ply 0) is a branch of this function, not a second copy: it takes its moves from
//! the driver's root-move list (from the current MultiPV slot on) instead of the picker, and
//! writes each move's score and line back to that list. It keeps the rules it always had,
//! each marked "root rule" where it differs: it is not counted as a node and makes no draw,
//! table, pruning or history decision (the driver owns those results), its static evaluation
//! is uncorrected, and its late-move reduction is its own milder one. Changing any of them
//! changes the bench signature and needs games.

use arrayvec::ArrayVec;

use crate::moves::Move;
use crate::tt::{Bound, TtHit};
use crate::types::PieceType;

use super::Report;
use super::Shared;
use super::movepick::{MovePicker, captured_kind};
use super::params::{DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY, NO_EVAL};
use super::see::{see_ge, see_ge_quiet};
use super::tablebase::wdl_score;
use super::thread::{QUIET_START, SearchThread, sharpened};

/// Quiet moves searched before late-move pruning cuts the rest, by depth (not improving /
/// improving).
#[inline(always)]
fn late_move_count(base: i32, depth: i32, improving: bool) -> usize {
    let count = base + depth * depth;
    (if improving { count } else { count / 2 }) as usize
}

/// Whether a table entry's bound decides the node's result inside (alpha, beta).
#[inline(always)]
pub(super) fn bound_decides(hit: &TtHit, alpha: i32, beta: i32) -> bool {
    match hit.bound {
        Bound::Exact => true,
        Bound::Lower => hit.score >= beta,
        Bound::Upper => hit.score <= alpha,
    }
}

/// What one searched move did to its node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Not better than the best so far.
    Worse,
    /// The new best move, inside the window: alpha rose.
    Raised,
    /// Beyond beta: the node is cut off.
    Cutoff,
}

/// A node's best result so far and the window it narrows, shared by search and quiescence.
pub(super) struct Best {
    pub score: i32,
    pub mv: Move,
    pub alpha: i32,
    beta: i32,
}

impl Best {
    pub fn new(score: i32, alpha: i32, beta: i32) -> Best {
        Best {
            score,
            mv: Move::NULL,
            alpha,
            beta,
        }
    }

    /// Takes a searched move's score: remembers a new best, raises alpha, detects a cutoff.
    #[inline(always)]
    pub fn offer(&mut self, mv: Move, score: i32) -> Outcome {
        if score <= self.score {
            return Outcome::Worse;
        }
        self.score = score;
        if score <= self.alpha {
            return Outcome::Worse;
        }
        self.mv = mv;
        if score >= self.beta {
            return Outcome::Cutoff;
        }
        self.alpha = score;
        Outcome::Raised
    }
}

impl SearchThread {
    /// Node entry, shared with quiescence: node count and polling, draws (repetition,
    /// insufficient material, fifty moves unless this is mate) and the ply cap. `Some(score)`
    /// ends the node with that score.
    #[inline(always)]
    pub(super) fn enter_node(
        &mut self,
        shared: &Shared,
        ply: usize,
        in_check: bool,
    ) -> Option<i32> {
        if self.stopped {
            return Some(0);
        }
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll(shared);
            if self.stopped {
                return Some(0);
            }
        }
        self.pv_length[ply] = 0;
        self.seldepth = self.seldepth.max(ply);
        if self.pos.is_repetition(ply) || self.pos.is_insufficient_material() {
            return Some(DRAW);
        }
        if self.pos.is_fifty_move_draw() && !(in_check && self.pos.has_no_legal_move()) {
            return Some(DRAW);
        }
        if ply >= MAX_PLY {
            return Some(if in_check { DRAW } else { self.evaluate() });
        }
        None
    }

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
        let root = ply == 0;
        let params = *self.params();

        // Step 1. Horizon: quiescence search resolves the captures.
        if depth <= 0 {
            return self.qsearch(shared, alpha, beta, ply);
        }

        // Step 2. Node entry: count and poll, draws and the ply cap (`enter_node`). Root
        // rule: the root is none of these; it resets its moves' scores instead.
        let pv_node = beta - alpha > 1;
        let in_check;
        if root {
            self.pv_length[0] = 0;
            in_check = self.pos.in_check();
            self.stack[0].in_check = in_check;
            let from = self.pv_index;
            for root_move in &mut self.root_moves[from..] {
                root_move.score = -INFINITE;
            }
        } else {
            in_check = self.stack[ply].in_check;
            debug_assert_eq!(in_check, self.pos.in_check());
            if let Some(score) = self.enter_node(shared, ply, in_check) {
                return score;
            }
        }

        // Step 3. Mate distance pruning: no line from here beats a mate found closer to the
        // root.
        if !root {
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 4. Transposition table probe (before any move generation); cut off at non-PV
        // nodes when the stored result is deep enough and its bound decides. Root rule: the
        // root's results live in the root-move list, not the table.
        let key = self.pos.key();
        let excluded = self.stack[ply].excluded;
        let hit = if excluded.is_null() && !root {
            shared.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = hit.map_or(Move::NULL, |hit| hit.mv);
        // On a principal variation now or when last searched: reduced less (step 12).
        let tt_pv = pv_node || hit.is_some_and(|hit| hit.pv);
        if let Some(hit) = hit
            && !pv_node
            && hit.depth >= depth
            && bound_decides(&hit, alpha, beta)
        {
            if hit.score >= beta && !tt_move.is_null() && !tt_move.is_noisy() {
                self.update_killers(ply, tt_move);
            }
            return hit.score;
        }

        // Step 4b. Endgame tables: right after a capture or pawn move (the tables assume a
        // fresh 50-move count), without castling rights, with few enough pieces and enough
        // depth left, WDL decides the node when its bound does; the result is stored deep in
        // the table. Root rule: the root's tables decision is the driver's root filter.
        if !root
            && excluded.is_null()
            && shared.probe_in_tree
            && let Some(tables) = shared.tablebases
            && self.pos.halfmove_clock() == 0
            && self.pos.castling_rights() == 0
        {
            let pieces = self.pos.piece_total();
            let cardinality = tables.cardinality();
            if pieces <= cardinality
                && (depth >= tables.probe_depth || pieces < cardinality)
                && let Some(wdl) = tables.tables.probe_wdl(&mut self.pos)
            {
                self.tb_hits += 1;
                let (score, bound) = wdl_score(wdl, ply, tables.fifty_move_rule);
                let decides = match bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if decides {
                    let stored_depth = (depth + 6).min(MAX_PLY as i32 - 1);
                    shared.tt.store(
                        key,
                        ply,
                        Move::NULL,
                        score,
                        NO_EVAL,
                        stored_depth,
                        bound,
                        tt_pv,
                    );
                    return score;
                }
            }
        }

        // Step 5. Static evaluation, sharpened by the table score when its bound allows.
        // The table keeps the raw evaluation; the correction history adjusts it (root rule:
        // not at the root).
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
            static_eval = if root {
                raw_eval
            } else {
                self.corrected(raw_eval, ply)
            };
            eval = sharpened(hit, static_eval);
        }
        self.stack[ply].static_eval = static_eval;
        // Step 5b. The opponent's quiet move is judged by what it did to the static
        // evaluation: one that left them worse than before it is worth less in ordering.
        if ply >= 1 && excluded.is_null() && static_eval != NO_EVAL {
            let previous = self.stack[ply - 1];
            if previous.static_eval != NO_EVAL && !previous.mv.is_null() && !previous.mv.is_noisy()
            {
                let bonus = (-(previous.static_eval + static_eval) * params.eval_history_mult)
                    .clamp(-params.eval_history_max, params.eval_history_max);
                self.history
                    .update_butterfly(us.flip(), previous.mv, previous.threats, bonus);
            }
        }
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;
        if !root {
            self.stack[ply + 1].killers = [Move::NULL; 2];
        }

        if !pv_node && !in_check && excluded.is_null() {
            // Step 6. Reverse futility pruning: far above beta at low depth, assume it holds.
            if depth <= params.rfp_max_depth
                && eval.abs() < MATE_BOUND
                && eval - params.rfp_margin * (depth - improving as i32) >= beta
            {
                return eval;
            }

            // Step 7. Null-move pruning: if passing still fails high, a real move will too.
            // Not in pawn endings (zugzwang) and never twice in a row.
            if depth >= params.nmp_min_depth
                && eval >= beta
                && beta > -MATE_BOUND
                && ply >= 1
                && !self.stack[ply - 1].mv.is_null()
                && self.pos.has_non_pawn_material(us)
            {
                let reduction = params.nmp_base
                    + depth / params.nmp_depth_divisor
                    + ((eval - beta) / params.nmp_eval_divisor).min(params.nmp_eval_cap);
                self.stack[ply].mv = Move::NULL;
                self.stack[ply].context = None;
                self.stack[ply + 1].in_check = false;
                self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
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

        // Step 8. Internal iterative reduction: without a table move this node was never
        // searched; spend less on it now, the next iteration will have a move to try first.
        // (Root rule: not at the root.)
        if !root
            && depth >= params.iir_min_depth
            && tt_move.is_null()
            && (pv_node || cut_node)
            && excluded.is_null()
        {
            depth -= 1;
        }

        // Step 9. The move loop: best-first from the staged picker, or at the root the
        // driver's list from the current MultiPV slot on.
        let contexts = self.contexts(ply);
        // The threat map: a singular-extension search (an excluded move) re-enters the same
        // node, whose map its outer search has already built.
        let threats = if excluded.is_null() {
            let threats = self.pos.attacked_by(us.flip());
            self.stack[ply].threats = threats;
            threats
        } else {
            self.stack[ply].threats
        };
        let counter = self.history.counter_move(contexts[0]);
        let mut picker =
            MovePicker::new(tt_move, self.stack[ply].killers, counter, contexts, threats);
        let mut root_index = self.pv_index;
        let mut best = Best::new(-INFINITE, alpha, beta);
        let mut moves_searched = 0usize;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let original_alpha = alpha;
        let has_pieces = self.pos.has_non_pawn_material(us);
        let tt_move_noisy = !tt_move.is_null() && tt_move.is_noisy();
        loop {
            let mv = if root {
                let Some(root_move) = self.root_moves.get(root_index) else {
                    break;
                };
                root_index += 1;
                root_move.mv
            } else {
                let Some(mv) = picker.next(&self.pos, &self.history) else {
                    break;
                };
                mv
            };
            if mv == excluded {
                continue;
            }
            let quiet = !mv.is_noisy();
            let piece = self.pos.piece_at(mv.from());
            // Start loading the child's table bucket while the pruning below decides.
            shared.tt.prefetch(self.pos.key_after(mv));

            // Step 10. Shallow-depth pruning, once a move has saved us from being mated.
            if !root && best.score > -MATE_BOUND && has_pieces {
                if quiet {
                    // The depth this move would be searched at after its late-move
                    // reduction: futility and exchange pruning judge a late quiet move by it.
                    let lmr_depth = (depth - 1 - self.reduction(depth, moves_searched + 1)).max(0);
                    // Step 10a. Late-move pruning: enough quiet moves tried at low depth.
                    if depth <= params.lmp_max_depth
                        && quiets_tried.len() >= late_move_count(params.lmp_base, depth, improving)
                    {
                        picker.skip_quiets();
                        continue;
                    }
                    // Step 10b. Futility pruning: no quiet move lifts eval this far.
                    if !in_check
                        && lmr_depth <= params.futility_max_depth
                        && eval + params.futility_base + params.futility_per_depth * lmr_depth
                            <= best.alpha
                    {
                        picker.skip_quiets();
                        continue;
                    }
                    // Step 10c. History pruning: a quiet move whose history says it keeps
                    // failing here is not worth a search at low depth.
                    if depth <= params.history_prune_max_depth
                        && !picker.is_refutation(mv)
                        && self.history.quiet_score(us, mv, piece, contexts, threats)
                            < -params.history_prune_margin * depth
                    {
                        continue;
                    }
                    // Step 10d. Quiet moves that hang material at low depth.
                    if lmr_depth <= params.see_max_depth
                        && !see_ge_quiet(
                            &self.pos,
                            mv,
                            -params.see_quiet_margin * lmr_depth * lmr_depth,
                            &threats,
                        )
                    {
                        continue;
                    }
                } else if depth <= params.see_max_depth
                    && !see_ge(&self.pos, mv, -params.see_capture_margin * depth)
                {
                    // Step 10e. Captures that lose too much by exchange.
                    continue;
                }
            }

            // Step 11a. Singular extension: when every move but the table move fails well
            // below its score, the table move is forced and gets a ply more (two outside PV
            // nodes when it is far below, a few times per line). When even without it the
            // node fails high (multi-cut), the node is a cutoff. (A negative extension, a ply
            // less when only the table's score says the node fails high, gained nothing in
            // games: README, search changes.) Extensions stop at twice the root depth, so check
            // sequences cannot explode.
            let may_extend = (ply as i32) < 2 * self.root_depth;
            let mut extension = 0;
            if let Some(hit) = hit
                && may_extend
                && mv == tt_move
                && depth >= params.singular_min_depth
                && hit.depth >= depth - params.singular_tt_depth_margin
                && hit.bound != Bound::Upper
                && hit.score.abs() < MATE_BOUND
            {
                let singular_beta = hit.score - params.singular_beta_margin * depth;
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
                    if !pv_node
                        && score < singular_beta - params.double_extension_margin
                        && self.stack[ply].double_extensions < params.double_extension_max
                    {
                        extension = 2;
                    }
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + (extension == 2) as i32;

            if root {
                if self.id == 0 && shared.time.elapsed() > QUIET_START {
                    shared.report(&Report::CurrentMove {
                        depth,
                        mv,
                        number: root_index,
                    });
                }
                self.seldepth = 0;
            }
            let captured = captured_kind(&self.pos, mv);
            let nodes_before = self.nodes;
            self.make_move(shared, mv, ply);
            moves_searched += 1;
            let gives_check = self.pos.in_check_after(mv);
            self.stack[ply + 1].in_check = gives_check;

            // Step 11b. Check extension.
            let new_depth = depth - 1 + extension.max((gives_check && may_extend) as i32);

            // Step 12. Late-move reductions, then the PVS re-search ladder. A late move is
            // first searched shallower with a null window; one that beats alpha there is
            // searched again at full depth, and in a PV node once more with the full window.
            let alpha = best.alpha;
            let mut score = -INFINITE;
            if !pv_node || moves_searched > 1 {
                let reduction = if root {
                    // Root rule: quiet, non-checking moves from the fourth on, one ply less
                    // than the table says, and nothing else.
                    (depth >= params.lmr_min_depth
                        && moves_searched > params.root_lmr_min_moves as usize
                        && quiet
                        && !gives_check)
                        .then(|| (self.reduction(depth, moves_searched - 1) - 1).max(0))
                } else if depth >= params.lmr_min_depth
                    && moves_searched > 1 + pv_node as usize
                    && (quiet || !gives_check)
                {
                    let mut reduction = self.reduction(depth, moves_searched);
                    if quiet {
                        reduction += !improving as i32;
                        reduction += cut_node as i32;
                        // A capture as the table move: the quiet alternatives are rarely
                        // better.
                        reduction += tt_move_noisy as i32;
                        reduction -= tt_pv as i32;
                        reduction -= picker.is_refutation(mv) as i32;
                        reduction -= gives_check as i32;
                        let history = self.history.quiet_score(us, mv, piece, contexts, threats);
                        reduction -= history / params.lmr_history_divisor;
                    } else {
                        reduction = (reduction - 1).max(0) - tt_pv as i32;
                    }
                    Some(reduction)
                } else {
                    None
                };
                match reduction {
                    Some(reduction) => {
                        let reduced = if root {
                            new_depth - reduction
                        } else {
                            (new_depth - reduction).clamp(1, new_depth.max(1))
                        };
                        score = -self.search(shared, -alpha - 1, -alpha, reduced, ply + 1, true);
                        // Root rule: the root's full-depth re-search expects no cutoff.
                        let research_cut_node = !cut_node && !root;
                        if score > alpha && reduced < new_depth {
                            // The re-search goes a ply deeper when the reduced search beat
                            // the best score by far, a ply shallower when only just (root
                            // rule: exactly to the full depth).
                            let mut research_depth = new_depth;
                            if !root {
                                if score > best.score + params.lmr_deeper_margin + 2 * new_depth {
                                    research_depth += 1;
                                } else if score < best.score + params.lmr_shallower_margin {
                                    research_depth -= 1;
                                }
                            }
                            if research_depth > reduced {
                                score = -self.search(
                                    shared,
                                    -alpha - 1,
                                    -alpha,
                                    research_depth,
                                    ply + 1,
                                    research_cut_node,
                                );
                            }
                        }
                    }
                    None => {
                        score =
                            -self.search(shared, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                    }
                }
            }
            // Root rule: a null-window result at or above beta is trusted there.
            if pv_node && (moves_searched == 1 || (score > alpha && (!root || score < beta))) {
                score = -self.search(shared, -beta, -alpha, new_depth, ply + 1, false);
            }
            self.pos.unmake_move();
            if root {
                self.root_moves[root_index - 1].nodes += self.nodes - nodes_before;
            }
            if self.stopped {
                return 0;
            }

            if root {
                self.record_root_move(root_index - 1, moves_searched, score, alpha, beta);
            }
            let outcome = best.offer(mv, score);
            if outcome != Outcome::Worse && pv_node {
                self.update_pv(ply, mv);
            }
            if outcome == Outcome::Cutoff {
                break;
            }
            if quiet {
                let _ = quiets_tried.try_push(mv);
            } else if captured != PieceType::None {
                let _ = captures_tried.try_push(mv);
            }
        }
        let best_score = best.score;
        let best_move = best.mv;

        // Step 13. No legal move: checkmate or stalemate.
        if moves_searched == 0 {
            if !excluded.is_null() {
                return best.alpha;
            }
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        // Root rule: the driver learns from the root's result; neither histories nor table do.
        if root {
            return best_score;
        }

        // Step 14. Learn from a cutoff: reward the refutation, punish what was tried before.
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

        // Step 14b. Learn from a fail low: every reply failed, so the opponent's quiet move
        // that led here was a good one; reward it in the parent's context.
        if best_score <= original_alpha && ply >= 2 && excluded.is_null() {
            let previous = self.stack[ply - 1].mv;
            if !previous.is_null() && !previous.is_noisy() {
                let bonus = params.history_bonus(depth) * params.prior_move_bonus / 64;
                let piece = self.pos.piece_at(previous.to());
                let contexts = self.contexts(ply - 1);
                let threats = self.stack[ply - 1].threats;
                self.history
                    .update_quiet(us.flip(), previous, piece, contexts, threats, bonus);
            }
        }

        // Step 15. A search without the excluded move is not this position's result: neither
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

        // Step 16. Teach the correction history how far the static evaluation was off, when
        // the result is quiet (no capture decided it) and its bound says which way.
        if !in_check
            && (best_move.is_null() || !best_move.is_noisy())
            && best_score.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.correction.update(
                &self.pos,
                contexts[0],
                depth,
                best_score - raw_eval,
                &params,
            );
        }

        // Step 17. Store the result.
        shared.tt.store(
            key, ply, best_move, best_score, raw_eval, depth, bound, tt_pv,
        );
        best_score
    }

    /// Writes a searched root move's result into the root-move list: the first move of the
    /// slot always, a later one only when it beat alpha (else it keeps `-INFINITE`, see
    /// `thread.rs`).
    fn record_root_move(
        &mut self,
        index: usize,
        moves_searched: usize,
        score: i32,
        alpha: i32,
        beta: i32,
    ) {
        if moves_searched > 1 && score <= alpha {
            return;
        }
        let child_length = self.pv_length[1];
        let seldepth = self.seldepth + 1;
        let root_move = &mut self.root_moves[index];
        root_move.score = score;
        root_move.seldepth = seldepth;
        root_move.bound = if score >= beta {
            Bound::Lower
        } else if score <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        root_move.pv.clear();
        root_move.pv.push(root_move.mv);
        root_move.pv.extend_from_slice(&self.pv[1][..child_length]);
        if moves_searched > 1 {
            self.best_move_changes += 1;
        }
    }

    pub(super) fn update_killers(&mut self, ply: usize, mv: Move) {
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
        let bonus = self.params().history_bonus(depth);
        let us = self.pos.side_to_move();
        let threats = self.stack[ply].threats;
        if !best_move.is_noisy() {
            self.update_killers(ply, best_move);
            self.history.set_counter_move(contexts[0], best_move);
            let piece = self.pos.piece_at(best_move.from());
            self.history
                .update_quiet(us, best_move, piece, contexts, threats, bonus);
            for &mv in quiets_tried {
                let piece = self.pos.piece_at(mv.from());
                self.history
                    .update_quiet(us, mv, piece, contexts, threats, -bonus);
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
