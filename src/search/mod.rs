//! Search: the interface the UCI loop, `bench` and `play` drive, and the thread pool behind it.
//!
//! A `Searcher` owns what survives between searches: the transposition table (shared by all
//! threads through atomic entries) and one `Worker` per thread (position copy, search stack,
//! history tables). `search` runs Lazy SMP: the main worker (index 0) deepens, reports and
//! decides; helper workers search the same root at slightly varied depths in scoped threads,
//! feeding the shared table, until the main worker raises the internal abort flag.
//!
//! Module map: `worker` (iterative deepening, aspiration windows, root moves, MultiPV),
//! `alphabeta` (the PVS negamax with its numbered steps), `qsearch`, `movepick` (staged
//! ordering), `history` (killers, counter moves, history tables), `correction` (evaluation
//! correction by pawn structure), `see` (static exchange).

mod alphabeta;
mod correction;
mod history;
mod movepick;
mod qsearch;
pub mod see;
mod worker;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::moves::Move;
use crate::position::Position;
use crate::time::TimeManager;
pub use crate::tt::Bound;
use crate::tt::TranspositionTable;

use worker::Worker;

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

    /// True when nothing but `stop` may end the search (`go infinite`, pondering).
    pub fn waits_for_stop(&self) -> bool {
        self.time.is_infinite()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
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

/// What every thread of one search sees.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// Raised by the caller (`stop`, `quit`).
    pub stop: &'a AtomicBool,
    /// Raised by the main worker when it is done, to end the helpers.
    pub abort: AtomicBool,
    pub limits: &'a Limits,
    /// Node counts published by each worker every few thousand nodes.
    pub node_counts: Vec<AtomicU64>,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|count| count.load(Ordering::Relaxed))
            .sum()
    }
}

/// Owns everything that survives between searches: the transposition table, histories, threads.
pub struct Searcher {
    tt: TranspositionTable,
    workers: Vec<Worker>,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            workers: vec![Worker::new(0)],
        }
    }

    /// Resizes (and clears) the transposition table. When the memory cannot be had, the
    /// table keeps its previous size and the error says so.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), String> {
        let previous_mb = (self.tt.size_bytes() / (1024 * 1024)).max(1);
        // Free the old table first: two large tables need not fit in memory at once.
        self.tt = TranspositionTable::new(1);
        match TranspositionTable::try_new(mb) {
            Ok(table) => {
                self.tt = table;
                Ok(())
            }
            Err(error) => {
                self.tt = TranspositionTable::try_new(previous_mb)
                    .unwrap_or_else(|_| TranspositionTable::new(1));
                Err(format!("{error}; keeping {previous_mb} MB"))
            }
        }
    }

    /// Forgets everything learned (`ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for worker in &mut self.workers {
            worker.clear();
        }
    }

    /// Number of search threads (at least 1). Helpers start with empty histories.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.workers.truncate(threads);
        while self.workers.len() < threads {
            self.workers.push(Worker::new(self.workers.len()));
        }
    }

    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Transposition table occupancy in per mille (entries written by the latest search).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` within `limits` until done or `stop` is raised. Reports go to `report`.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            stop: stop.as_ref(),
            abort: AtomicBool::new(false),
            limits,
            node_counts: (0..self.workers.len()).map(|_| AtomicU64::new(0)).collect(),
        };
        let (main, helpers) = self
            .workers
            .split_first_mut()
            .expect("a searcher always has a main worker");
        for worker in std::iter::once(&mut *main).chain(helpers.iter_mut()) {
            worker.prepare(pos, limits);
        }
        if helpers.is_empty() {
            return main.run_main(&shared, report);
        }
        std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                let shared = &shared;
                scope.spawn(move || helper.run_helper(shared));
            }
            let result = main.run_main(&shared, report);
            shared.abort.store(true, Ordering::Relaxed);
            result
        })
    }
}
