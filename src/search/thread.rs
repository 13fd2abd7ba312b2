//! One search thread's state and its iterative-deepening driver.
//!
//! The driver deepens 1, 2, 3 …; each depth searches every MultiPV slot inside an aspiration
//! window around the slot's previous score, widening on a fail. The root itself is a branch of
//! the main search (`alphabeta.rs`). Root moves are kept in a list re-sorted (stably) after
//! every search, so the previous best move is always searched first. A move that did not raise
//! alpha gets score `-INFINITE`, which keeps the sort meaningful: only moves proven better than
//! the first move's score can overtake it, and that is also why a stopped iteration may still
//! change the best move (a later move completed with a score above alpha) but never on a guess.
//!
//! Only the main thread (index 0) polls the clock and the node limit, reports, and decides;
//! helpers poll the stop and abort flags and otherwise just fill the shared table.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::moves::Move;
use crate::nnue::Network;
use crate::position::Position;
use crate::time::IterationOutcome;
use crate::tt::TtHit;
use crate::types::Piece;

use super::correction::CorrectionHistory;
use super::history::{History, piece_to};
use super::params::{DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY, NO_EVAL, SearchParams};
use super::{Bound, Limits, Progress, PvLine, Report, Score, SearchResult, Shared};
use crate::position::attacks::ThreatMap;

/// Nodes between two polls of the stop flag and the clock.
const POLL_INTERVAL: u64 = 2048;
/// The first second of a search stays free of `CurrentMove` and aspiration-fail reports.
pub(super) const QUIET_START: Duration = Duration::from_secs(1);

/// The static evaluation sharpened by a table score whose bound says the true score lies
/// beyond it on that side (an exact score always wins); mate scores are left out.
#[inline(always)]
pub(super) fn sharpened(hit: Option<TtHit>, static_eval: i32) -> i32 {
    match hit {
        Some(hit)
            if hit.score.abs() < MATE_BOUND
                && (hit.bound == Bound::Exact
                    || (hit.bound == Bound::Lower) == (hit.score > static_eval)) =>
        {
            hit.score
        }
        _ => static_eval,
    }
}

/// One ply of the search path.
#[derive(Copy, Clone)]
pub(super) struct Frame {
    pub static_eval: i32,
    pub mv: Move,
    /// `piece_to` of the move made at this ply (`None` for a null move): the context the
    /// continuation histories and counter moves of the next plies are keyed by.
    pub context: Option<usize>,
    /// The two quiet moves that last caused a cutoff at this ply (the picker's killer stage).
    pub killers: [Move; 2],
    /// Whether the side to move at this ply is in check; set by the parent, which learns it
    /// anyway when deciding on the check extension.
    pub in_check: bool,
    /// The move a singular-extension search leaves out (null: none).
    pub excluded: Move,
    /// Double extensions on the line from the root to this ply.
    pub double_extensions: i32,
    /// The squares the opponent attacks here (`Position::attacked_by`), set before the move
    /// loop: the butterfly history of this ply's quiet moves is keyed by it.
    pub threats: ThreatMap,
}

impl Frame {
    const EMPTY: Frame = Frame {
        static_eval: NO_EVAL,
        mv: Move::NULL,
        context: None,
        killers: [Move::NULL; 2],
        in_check: false,
        excluded: Move::NULL,
        double_extensions: 0,
        threats: ThreatMap::NONE,
    };
}

#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    /// Score of the latest search of this move, `-INFINITE` when it did not raise alpha.
    pub score: i32,
    /// Score at the end of the previous iteration (the aspiration window's centre).
    pub previous_score: i32,
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes spent below this move in the whole search so far (the time manager's measure of
    /// how contested the root is).
    pub nodes: u64,
}

pub(crate) struct SearchThread {
    pub(super) id: usize,
    /// The parameters this thread searches with: the defaults, except in an `spsa` build.
    #[cfg_attr(not(feature = "spsa"), allow(dead_code))]
    params: SearchParams,
    /// Late-move reductions in plies, by depth and move number (both capped at 63), from
    /// `params`.
    reductions: Box<[[i32; 64]; 64]>,
    pub(super) pos: Position,
    pub(super) nodes: u64,
    /// Endgame-table probes in the tree.
    pub(super) tb_hits: u64,
    pub(super) next_poll: u64,
    pub(super) stopped: bool,
    pub(super) seldepth: usize,
    pub(super) stack: Vec<Frame>,
    /// Triangular PV table: `pv[ply][..pv_length[ply]]` is the best line found from `ply`.
    pub(super) pv: Vec<[Move; MAX_PLY + 2]>,
    pub(super) pv_length: [usize; MAX_PLY + 2],
    pub(super) history: History,
    pub(super) correction: CorrectionHistory,
    pub(super) root_moves: Vec<RootMove>,
    /// The first root move of the MultiPV slot being searched (the earlier slots are done).
    pub(super) pv_index: usize,
    pub(super) root_depth: i32,
    pub(super) best_move_changes: u32,
}

impl SearchThread {
    pub fn new(id: usize, params: &SearchParams) -> SearchThread {
        let mut thread = SearchThread {
            id,
            params: *params,
            reductions: Box::new([[0; 64]; 64]),
            pos: Position::startpos(),
            nodes: 0,
            tb_hits: 0,
            next_poll: POLL_INTERVAL,
            stopped: false,
            seldepth: 0,
            stack: vec![Frame::EMPTY; MAX_PLY + 4],
            pv: vec![[Move::NULL; MAX_PLY + 2]; MAX_PLY + 2],
            pv_length: [0; MAX_PLY + 2],
            history: History::new(),
            correction: CorrectionHistory::new(),
            root_moves: Vec::new(),
            pv_index: 0,
            root_depth: 0,
            best_move_changes: 0,
        };
        thread.set_params(params);
        thread
    }

    pub fn set_params(&mut self, params: &SearchParams) {
        self.params = *params;
        *self.reductions = self.params().reduction_table();
    }

    /// The parameters to search with. The normal build reads the constant defaults, which
    /// the compiler folds into the code; an `spsa` build reads the tuner's values.
    #[inline(always)]
    pub(super) fn params(&self) -> &SearchParams {
        #[cfg(feature = "spsa")]
        {
            &self.params
        }
        #[cfg(not(feature = "spsa"))]
        {
            &SearchParams::DEFAULT
        }
    }

    /// The late-move reduction for the `number`th move at `depth`.
    #[inline(always)]
    pub(super) fn reduction(&self, depth: i32, number: usize) -> i32 {
        self.reductions[depth.clamp(0, 63) as usize][number.min(63)]
    }

    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
    }

    /// Sets up the root: position copy evaluated by `network`, root move list (restricted by
    /// `searchmoves`).
    pub fn prepare(&mut self, pos: &Position, limits: &Limits, network: &Arc<Network>) {
        self.pos = pos.clone();
        self.pos.set_network(network.clone());
        self.nodes = 0;
        self.tb_hits = 0;
        self.next_poll = limits
            .nodes
            .map_or(POLL_INTERVAL, |limit| limit.min(POLL_INTERVAL));
        self.stopped = false;
        self.seldepth = 0;
        self.stack.fill(Frame::EMPTY);
        let legal = pos.legal_moves();
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| limits.searchmoves.contains(mv))
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        self.root_moves = moves
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                bound: Bound::Upper,
                seldepth: 0,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();
    }

    /// Checks the flags, the clock (main thread) and the node limit; sets `stopped`.
    pub(super) fn poll(&mut self, shared: &Shared) {
        self.next_poll = self.nodes + POLL_INTERVAL;
        shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
        shared.tb_hit_counts[self.id].store(self.tb_hits, Ordering::Relaxed);
        if shared.signals.is_stopped() || shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id != 0 {
            return;
        }
        if shared.time.hard_limit_reached() {
            self.stopped = true;
            return;
        }
        if let Some(limit) = shared.limits.nodes {
            let total = shared.total_nodes();
            if total >= limit {
                self.stopped = true;
            } else {
                self.next_poll = self.next_poll.min(self.nodes + (limit - total));
            }
        }
    }

    /// Static evaluation kept clear of the mate range.
    #[inline(always)]
    pub(super) fn evaluate(&mut self) -> i32 {
        self.pos
            .evaluate_network()
            .clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// A raw static evaluation at `ply` corrected by the correction history, clear of the mate
    /// range.
    #[inline(always)]
    pub(super) fn corrected(&self, raw_eval: i32, ply: usize) -> i32 {
        let correction = self.correction.correction(&self.pos, self.contexts(ply)[0]);
        (raw_eval + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Plays `mv` at `ply`, recording it on the stack for histories and counter moves.
    #[inline(always)]
    pub(super) fn make_move(&mut self, shared: &Shared, mv: Move, ply: usize) {
        let piece: Piece = self.pos.piece_at(mv.from());
        let frame = &mut self.stack[ply];
        frame.mv = mv;
        frame.context = Some(piece_to(piece, mv));
        self.pos.make_move(mv);
        // The child probes the table first thing. The move loops already prefetched from
        // `key_after` when they picked the move; this exact key covers what that guess
        // misses (castling, promotions, en passant, lost rights) and the root's moves.
        shared.tt.prefetch(self.pos.key());
    }

    /// The continuation contexts of a node at `ply`: the moves one and two plies before.
    #[inline(always)]
    pub(super) fn contexts(&self, ply: usize) -> [Option<usize>; 2] {
        let back = |distance: usize| {
            if ply >= distance {
                self.stack[ply - distance].context
            } else {
                None
            }
        };
        [back(1), back(2)]
    }

    /// Copies the child's PV behind `mv` into this ply's PV.
    #[inline(always)]
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_length = self.pv_length[ply + 1];
        let (upper, lower) = self.pv.split_at_mut(ply + 1);
        let line = &mut upper[ply];
        line[0] = mv;
        line[1..=child_length].copy_from_slice(&lower[0][..child_length]);
        self.pv_length[ply] = child_length + 1;
    }

    fn sort_root_moves(&mut self, from: usize, to: usize) {
        self.root_moves[from..to].sort_by_key(|root_move| std::cmp::Reverse(root_move.score));
    }

    /// The PV lines of the first `count` slots.
    fn lines(&self, count: usize) -> Vec<PvLine> {
        self.root_moves
            .iter()
            .take(count)
            .enumerate()
            .map(|(index, root_move)| {
                let value = if root_move.score == -INFINITE {
                    root_move.previous_score
                } else {
                    root_move.score
                };
                PvLine {
                    multipv: index + 1,
                    score: Score::from_internal(value),
                    value,
                    bound: root_move.bound,
                    moves: root_move.pv.clone(),
                }
            })
            .collect()
    }

    /// The deepest ply the first `count` lines reached, at least the nominal depth.
    fn seldepth(&self, depth: i32, count: usize) -> i32 {
        let seldepth = self
            .root_moves
            .iter()
            .take(count)
            .map(|root_move| root_move.seldepth)
            .max()
            .unwrap_or(0);
        seldepth.max(depth as usize) as i32
    }

    /// The counters now, for `depth` and its first `count` lines.
    fn progress(&self, shared: &Shared, depth: i32, count: usize) -> Progress {
        Progress {
            depth,
            seldepth: self.seldepth(depth, count),
            nodes: self.total_nodes(shared),
            time: shared.time.elapsed(),
            hashfull: shared.tt.hashfull(),
            tbhits: self.total_tb_hits(shared),
        }
    }

    fn iteration_report(&self, shared: &Shared, depth: i32, count: usize) -> Report {
        Report::Iteration {
            progress: self.progress(shared, depth, count),
            lines: self.lines(count),
        }
    }

    fn total_tb_hits(&self, shared: &Shared) -> Option<u64> {
        shared.tb_hit_counts[self.id].store(self.tb_hits, Ordering::Relaxed);
        shared.total_tb_hits()
    }

    fn total_nodes(&self, shared: &Shared) -> u64 {
        shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
        shared.total_nodes()
    }

    /// One depth for every MultiPV slot, each inside its aspiration loop. Returns false when
    /// the search stopped before the depth was complete.
    fn search_depth(&mut self, shared: &Shared, depth: i32, multipv: usize) -> bool {
        let reports = self.id == 0;
        for root_move in &mut self.root_moves {
            if root_move.score != -INFINITE {
                root_move.previous_score = root_move.score;
            }
        }
        for pv_index in 0..multipv {
            let params = *self.params();
            let centre = self.root_moves[pv_index].previous_score;
            let mut delta =
                params.aspiration_delta + centre.abs() / params.aspiration_score_divisor;
            let (mut alpha, mut beta) =
                if depth >= params.aspiration_min_depth && centre.abs() < MATE_BOUND {
                    (
                        (centre - delta).max(-INFINITE),
                        (centre + delta).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
            // After a fail high the window is searched again a ply shallower (at most three
            // plies): the move that failed high is usually good, and the cheaper re-search
            // finds its score sooner.
            let mut search_depth = depth;
            loop {
                self.pv_index = pv_index;
                let score = self.search(shared, alpha, beta, search_depth, 0, false);
                let length = self.root_moves.len();
                self.sort_root_moves(pv_index, length);
                if self.stopped {
                    self.sort_root_moves(0, pv_index + 1);
                    return false;
                }
                let bound = if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITE);
                    search_depth = depth;
                    Bound::Upper
                } else if score >= beta {
                    beta = (score + delta).min(INFINITE);
                    search_depth = (search_depth - 1).max(depth - 3).max(1);
                    Bound::Lower
                } else {
                    break;
                };
                if reports && shared.time.elapsed() > QUIET_START {
                    let mut event = self.iteration_report(shared, depth, pv_index + 1);
                    if let Report::Iteration { lines, .. } = &mut event
                        && let Some(line) = lines.last_mut()
                    {
                        line.bound = bound;
                    }
                    shared.report(&event);
                }
                delta += delta / 2 + params.aspiration_widening;
            }
            self.sort_root_moves(0, pv_index + 1);
        }
        true
    }

    // ---- Drivers ------------------------------------------------------------------------

    /// The main thread: deepens, reports, decides, and returns the result.
    pub fn run_main(&mut self, shared: &Shared) -> SearchResult {
        let limits = shared.limits;
        let mut result = SearchResult {
            best: self.root_moves.first().map(|root_move| root_move.mv),
            ponder: None,
            score: Score::Centipawns(0),
            progress: Progress {
                tbhits: shared.total_tb_hits(),
                ..Progress::default()
            },
            lines: Vec::new(),
        };
        if self.root_moves.is_empty() {
            let value = if self.pos.in_check() { -MATE } else { DRAW };
            result.score = Score::from_internal(value);
            result.progress.time = shared.time.elapsed();
            return result;
        }
        let multipv = limits.multipv.clamp(1, self.root_moves.len());
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32)
            .clamp(1, MAX_PLY as i32);
        let mut previous_value: i32 = 0;
        let mut stable_iterations = 0;
        for depth in 1..=max_depth {
            self.root_depth = depth;
            self.best_move_changes = 0;
            let complete = self.search_depth(shared, depth, multipv);
            if !complete {
                // A move that completed above the old best's score is proven better.
                let first = &self.root_moves[0];
                if first.score != -INFINITE && result.best != Some(first.mv) {
                    result.best = Some(first.mv);
                    result.ponder = first.pv.get(1).copied();
                }
                break;
            }
            let lines = self.lines(multipv);
            let best_line = &lines[0];
            result.best = Some(self.root_moves[0].mv);
            result.ponder = best_line.moves.get(1).copied();
            result.score = best_line.score;
            result.progress.depth = depth;
            result.progress.seldepth = self.seldepth(depth, multipv);
            result.lines = lines.clone();
            let value = best_line.value;
            shared.report(&self.iteration_report(shared, depth, multipv));
            if let (Some(mate), Score::Mate(moves)) = (limits.mate, result.score)
                && moves > 0
                && moves <= mate
            {
                break;
            }
            stable_iterations = if self.best_move_changes == 0 {
                stable_iterations + 1
            } else {
                0
            };
            let outcome = IterationOutcome {
                depth,
                best_move_changes: self.best_move_changes,
                stable_iterations,
                score_change: if value.abs() < MATE_BOUND && previous_value.abs() < MATE_BOUND {
                    value - previous_value
                } else {
                    0
                },
                legal_moves: self.root_moves.len(),
                best_move_node_share: self.best_move_node_share(),
            };
            previous_value = value;
            if shared.time.soft_limit_reached(&outcome) {
                break;
            }
        }
        if result.ponder.is_none()
            && let Some(best) = result.best
        {
            result.ponder = self.ponder_from_table(shared, best);
        }
        // The counters at the end; the depth and seldepth stay the last completed iteration's.
        let progress = &mut result.progress;
        progress.nodes = self.total_nodes(shared);
        progress.time = shared.time.elapsed();
        progress.hashfull = shared.tt.hashfull();
        progress.tbhits = self.total_tb_hits(shared);
        result
    }

    /// The share of this thread's nodes spent below the current best root move (1.0 before
    /// any node was counted).
    fn best_move_node_share(&self) -> f64 {
        let total: u64 = self
            .root_moves
            .iter()
            .map(|root_move| root_move.nodes)
            .sum();
        if total == 0 {
            return 1.0;
        }
        self.root_moves[0].nodes as f64 / total as f64
    }

    /// The table's move for the position after `best`, if it is legal there.
    fn ponder_from_table(&mut self, shared: &Shared, best: Move) -> Option<Move> {
        self.pos.make_move(best);
        let reply = shared
            .tt
            .probe(self.pos.key(), 0)
            .map(|hit| hit.mv)
            .filter(|&mv| self.pos.is_legal(mv));
        self.pos.unmake_move();
        reply
    }

    /// A helper thread: deepens (odd helpers one ply ahead) until aborted.
    pub fn run_helper(&mut self, shared: &Shared) {
        if self.root_moves.is_empty() {
            return;
        }
        let max_depth = shared
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32)
            .clamp(1, MAX_PLY as i32);
        let mut depth = 1 + (self.id % 2) as i32;
        while depth <= max_depth && !self.stopped {
            self.root_depth = depth;
            if !self.search_depth(shared, depth, 1) {
                break;
            }
            depth += 1;
        }
        shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
    }
}
