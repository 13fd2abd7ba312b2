//! Search: the interface the UCI loop, `bench` and `play` drive.
//!
//! (Skeleton: a plain iterative-deepening negamax on material so callers have something that
//! plays legal chess; the real search replaces the internals behind the same interface.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::moves::Move;
use crate::position::Position;
use crate::time::{IterationOutcome, TimeManager};

/// Mate scores are `MATE - ply`; anything beyond `MATE_BOUND` is a mate score.
pub const MATE: i32 = 32000;
pub const MATE_BOUND: i32 = MATE - 1000;
pub const MAX_PLY: usize = 128;

/// What to search and for how long. Built by the UCI loop from `go`, by `bench` and `play`.
#[derive(Clone, Debug)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// `go mate N`: stop once a mate in N moves (or shorter) is proven.
    pub mate: Option<i32>,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations to report (MultiPV), at least 1.
    pub multipv: usize,
    pub time: TimeManager,
}

impl Limits {
    /// A search bounded only by depth.
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::infinite()
        }
    }

    /// A search that runs until stopped.
    pub fn infinite() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            mate: None,
            searchmoves: Vec::new(),
            multipv: 1,
            time: TimeManager::infinite(),
        }
    }
}

/// A score as reported to the user.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Centipawns(i32),
    /// Mate in this many moves (negative: the side to move gets mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal search score.
    pub fn from_internal(value: i32) -> Score {
        if value >= MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_BOUND {
            Score::Mate(-(MATE + value) / 2)
        } else {
            Score::Centipawns(value)
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

/// One principal variation (one per MultiPV slot).
#[derive(Clone, Debug)]
pub struct PvLine {
    /// 1-based MultiPV index.
    pub multipv: usize,
    pub score: Score,
    /// Internal score, for callers that choose among lines (strength limiting).
    pub value: i32,
    pub bound: Bound,
    pub moves: Vec<Move>,
}

/// Progress reports, turned into `info` lines by the UCI layer.
#[derive(Clone, Debug)]
pub enum Report {
    /// A completed iteration (or an aspiration fail, with a bound), with all PV lines.
    Iteration {
        depth: i32,
        seldepth: i32,
        nodes: u64,
        time: Duration,
        hashfull: u32,
        lines: Vec<PvLine>,
    },
    /// The root move being searched (reported after the first second).
    CurrentMove { depth: i32, mv: Move, number: usize },
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when there is no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: i32,
    pub nodes: u64,
    /// The lines of the last completed iteration, best first.
    pub lines: Vec<PvLine>,
}

/// Owns everything that survives between searches: the transposition table, histories, threads.
pub struct Searcher {
    nodes: u64,
}

impl Searcher {
    pub fn new(_hash_mb: usize) -> Searcher {
        Searcher { nodes: 0 }
    }

    /// Resizes (and clears) the transposition table.
    pub fn resize_hash(&mut self, _mb: usize) {}

    /// Forgets everything learned (`ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {}

    pub fn set_threads(&mut self, _threads: usize) {}

    /// Searches `pos` within `limits` until done or `stop` is raised. Reports go to `report`.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        let mut pos = pos.clone();
        self.nodes = 0;
        let mut root_moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if !limits.searchmoves.is_empty() {
            root_moves.retain(|mv| limits.searchmoves.contains(mv));
        }
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ponder: None,
            score: Score::Centipawns(0),
            depth: 0,
            nodes: 0,
            lines: Vec::new(),
        };
        let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
        for depth in 1..=max_depth {
            let mut best = (i32::MIN, None);
            for &mv in &root_moves {
                pos.make_move(mv);
                let value = -self.negamax(&mut pos, depth - 1, -MATE, MATE, 1, stop, limits);
                pos.unmake_move();
                if value > best.0 {
                    best = (value, Some(mv));
                }
            }
            if stop.load(Ordering::Relaxed) || limits.time.hard_limit_reached() {
                break;
            }
            if let Some(mv) = best.1 {
                let line = PvLine {
                    multipv: 1,
                    score: Score::from_internal(best.0),
                    value: best.0,
                    bound: Bound::Exact,
                    moves: vec![mv],
                };
                result.best = Some(mv);
                result.score = line.score;
                result.depth = depth;
                result.lines = vec![line.clone()];
                report(&Report::Iteration {
                    depth,
                    seldepth: depth,
                    nodes: self.nodes,
                    time: limits.time.elapsed(),
                    hashfull: 0,
                    lines: vec![line],
                });
            }
            let outcome = IterationOutcome {
                depth,
                legal_moves: root_moves.len(),
                ..Default::default()
            };
            if limits.time.soft_limit_reached(&outcome) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        stop: &Arc<AtomicBool>,
        limits: &Limits,
    ) -> i32 {
        self.nodes += 1;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.in_check() { -MATE + ply } else { 0 };
        }
        if depth <= 0 || stop.load(Ordering::Relaxed) || limits.time.hard_limit_reached() {
            let value = pos.psq_score().mg();
            return if pos.side_to_move() == crate::types::Color::White {
                value
            } else {
                -value
            };
        }
        for mv in moves {
            pos.make_move(mv);
            let value = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, stop, limits);
            pos.unmake_move();
            if value >= beta {
                return value;
            }
            alpha = alpha.max(value);
        }
        alpha
    }
}
