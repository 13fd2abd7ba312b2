//! Search: the interface the UCI loop, `bench`, `datagen` and `play` drive, and the thread
//! pool behind it.
//!
//! A `Searcher` owns what survives between searches: the transposition table (shared by all
//! threads through atomic entries), the parameter table and one `SearchThread` per thread
//! (position copy, search stack, history tables). `search` runs Lazy SMP: the main thread
//! (index 0) deepens, reports and decides; helper threads search the same root at slightly
//! varied depths in scoped threads, feeding the shared table, until the main thread raises the
//! internal abort flag.
//!
//! One `go` crosses this module once: the caller hands in plain-data `Limits` and the
//! `SearchSignals` it will raise (`stop`, `ponderhit`); the search builds its own
//! `TimeManager` from them, and it alone holds `bestmove` back while the protocol forbids it
//! (`go infinite` until `stop`, `go ponder` until `ponderhit` or `stop`). The `SearchResult`
//! carries everything the caller's final report needs.
//!
//! Module map: `params` (every margin and the score scale, one table), `thread` (iterative
//! deepening, aspiration windows, root moves, MultiPV), `alphabeta` (the PVS negamax with its
//! numbered steps, root included), `qsearch`, `movepick` (staged ordering), `history`
//! (counter moves and the history tables; the killers are per ply, in the search stack's
//! `Frame.killers` in `thread`), `correction` (evaluation correction by pawn structure and by
//! the previous move), `see` (static exchange), `tablebase` (where the Syzygy tables enter: the
//! root's move filter and the tree's WDL probes).

mod alphabeta;
mod correction;
mod history;
mod movepick;
pub mod params;
mod qsearch;
pub mod see;
mod tablebase;
mod thread;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::moves::Move;
use crate::nnue::{Network, default_network};
use crate::position::Position;
use crate::time::{TimeLimit, TimeManager};
pub use crate::tt::Bound;
use crate::tt::TranspositionTable;

pub use params::{MATE, MATE_BOUND, MAX_PLY, SearchParams, TB_WIN, TB_WIN_BOUND};
pub use tablebase::TablebaseUse;
use thread::SearchThread;

/// What to search and for how long: plain data, built by the UCI loop from `go`, by `bench`,
/// `datagen` and `play`.
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
    pub time: TimeLimit,
    /// When the `go` arrived: the clock and `info time` count from here.
    pub start: Instant,
    /// `go infinite`: the result waits for `stop`, whatever else ends the search.
    pub infinite: bool,
    /// `go ponder`: no deadline counts before `ponderhit`, and the result waits for it (or
    /// for `stop`).
    pub ponder: bool,
}

impl Limits {
    /// Nothing limits the search but the maximum depth and `stop`; it does not wait.
    pub fn new() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            mate: None,
            searchmoves: Vec::new(),
            multipv: 1,
            time: TimeLimit::None,
            start: Instant::now(),
            infinite: false,
            ponder: false,
        }
    }

    /// A search bounded only by depth.
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::new()
        }
    }

    /// A search bounded only by a node count (a soft one: checked every few thousand nodes).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::new()
        }
    }

    /// A search of exactly this long (no Move Overhead taken off).
    pub fn movetime(duration: Duration) -> Limits {
        Limits {
            time: TimeLimit::MoveTime {
                ms: duration.as_millis().min(i64::MAX as u128) as i64,
                overhead_ms: 0,
            },
            ..Limits::new()
        }
    }

    /// `go infinite`: runs, and holds its result back, until `stop`.
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::new()
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::new()
    }
}

/// What the caller raises during a search: `stop` and `ponderhit`. One per search, shared
/// (through an `Arc`) by the thread that reads the commands and the search.
#[derive(Debug, Default)]
pub struct SearchSignals {
    stop: AtomicBool,
    ponderhit: OnceLock<Instant>,
    bestmove: OnceLock<Instant>,
}

impl SearchSignals {
    pub fn new() -> SearchSignals {
        SearchSignals::default()
    }

    /// `stop` (and `quit`): end the search now; its result follows at once.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// `ponderhit`: our clock runs from now on. A second call keeps the first moment.
    pub fn ponderhit(&self) {
        let _ = self.ponderhit.set(Instant::now());
    }

    /// When `ponderhit` came, if it did.
    pub fn ponderhit_at(&self) -> Option<Instant> {
        self.ponderhit.get().copied()
    }

    /// The search's `bestmove` is being written (marked just before, so whoever has read it
    /// finds the mark).
    pub fn bestmove_sent(&self) {
        let _ = self.bestmove.set(Instant::now());
    }

    /// When the search's `bestmove` was written, if it was.
    pub fn bestmove_sent_at(&self) -> Option<Instant> {
        self.bestmove.get().copied()
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

/// The counters every iteration report and the final result carry.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The depth of the iteration (in a result: the last completed one, 0 if none).
    pub depth: i32,
    /// The deepest ply reached by the lines of that depth.
    pub seldepth: i32,
    pub nodes: u64,
    /// From the `go` (holding a result back not counted).
    pub time: Duration,
    /// Table occupancy in per mille.
    pub hashfull: u32,
    /// Endgame-table probes so far (None: the search has no tables).
    pub tbhits: Option<u64>,
}

/// Progress reports, turned into `info` lines by the UCI layer.
#[derive(Clone, Debug)]
pub enum Report {
    /// A completed iteration (or an aspiration fail, with a bound), with all PV lines.
    Iteration {
        progress: Progress,
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
    /// At the end of the search, for the last completed depth.
    pub progress: Progress,
    /// The lines of the last completed iteration, best first.
    pub lines: Vec<PvLine>,
}

/// The reports' destination. Only the main thread calls it.
type Reporter<'a> = &'a mut (dyn FnMut(&Report) + Send);

/// What every thread of one search sees.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// `stop` and `ponderhit`, raised by the caller.
    pub signals: &'a SearchSignals,
    /// Raised by the main thread when it is done, to end the helpers.
    pub abort: AtomicBool,
    pub limits: &'a Limits,
    pub time: TimeManager<'a>,
    /// Node counts published by each thread every few thousand nodes.
    pub node_counts: Vec<AtomicU64>,
    /// The tables and their settings, when the search has them.
    pub tablebases: Option<&'a TablebaseUse>,
    /// Whether nodes in the tree probe (off when the root's DTZ already decided).
    pub probe_in_tree: bool,
    /// Table probes: made at the root, and published by each thread with its node count.
    pub root_tb_hits: u64,
    pub tb_hit_counts: Vec<AtomicU64>,
    report: Mutex<Reporter<'a>>,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|count| count.load(Ordering::Relaxed))
            .sum()
    }

    /// Table probes so far, or None without tables.
    pub fn total_tb_hits(&self) -> Option<u64> {
        self.tablebases?;
        let tree: u64 = self
            .tb_hit_counts
            .iter()
            .map(|count| count.load(Ordering::Relaxed))
            .sum();
        Some(self.root_tb_hits + tree)
    }

    /// Hands a report to the caller's callback.
    pub fn report(&self, report: &Report) {
        let mut callback = self
            .report
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (*callback)(report);
    }
}

/// Owns everything that survives between searches: the transposition table, histories, threads.
pub struct Searcher {
    tt: TranspositionTable,
    threads: Vec<SearchThread>,
    params: SearchParams,
    network: Arc<Network>,
    tablebases: Option<TablebaseUse>,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            threads: vec![SearchThread::new(0, &SearchParams::DEFAULT)],
            params: SearchParams::DEFAULT,
            network: default_network(),
            tablebases: None,
        }
    }

    /// The endgame tables the next searches use, with their settings (`SyzygyPath` and the
    /// other `Syzygy*` options); None for none.
    pub fn set_tablebases(&mut self, tablebases: Option<TablebaseUse>) {
        self.tablebases = tablebases;
    }

    /// The evaluation network the next searches use (`EvalFile`).
    pub fn set_network(&mut self, network: Arc<Network>) {
        self.network = network;
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.network
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
        for thread in &mut self.threads {
            thread.clear();
        }
    }

    /// Number of search threads (at least 1). Helpers start with empty histories.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.threads.truncate(threads);
        while self.threads.len() < threads {
            let thread = SearchThread::new(self.threads.len(), &self.params);
            self.threads.push(thread);
        }
    }

    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Replaces the search parameters (`spsa` builds: the tuner's UCI options).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        for thread in &mut self.threads {
            thread.set_params(&params);
        }
    }

    /// Transposition table occupancy in per mille (entries written by the latest search).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` within `limits` until done or `signals` says stop, then holds the result
    /// back while `go infinite` or an unanswered `go ponder` forbid it. Reports go to
    /// `report`. With no legal move the result has no best move (after the same wait).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &SearchSignals,
        report: Reporter<'_>,
    ) -> SearchResult {
        self.tt.new_search();
        let ponderhit = limits.ponder.then_some(&signals.ponderhit);
        let tablebases = self
            .tablebases
            .as_ref()
            .filter(|tables| tables.cardinality() > 0);
        // A root in the tables: search only the moves that keep the best result. Moves the
        // caller restricted the root to stay restricted, unless none of them keeps it.
        let root_filter = tablebases.and_then(|tables| tablebase::filter_root(tables, pos));
        let filtered_limits;
        let limits = match &root_filter {
            Some(filter) => {
                let mut restricted = limits.clone();
                let kept: Vec<Move> = if limits.searchmoves.is_empty() {
                    filter.moves.clone()
                } else {
                    let both: Vec<Move> = filter
                        .moves
                        .iter()
                        .copied()
                        .filter(|mv| limits.searchmoves.contains(mv))
                        .collect();
                    if both.is_empty() {
                        limits.searchmoves.clone()
                    } else {
                        both
                    }
                };
                restricted.searchmoves = kept;
                filtered_limits = restricted;
                &filtered_limits
            }
            None => limits,
        };
        let shared = Shared {
            tt: &self.tt,
            signals,
            abort: AtomicBool::new(false),
            limits,
            time: TimeManager::new(limits.time, limits.start, ponderhit),
            node_counts: (0..self.threads.len()).map(|_| AtomicU64::new(0)).collect(),
            tablebases,
            probe_in_tree: tablebases.is_some()
                && !root_filter.as_ref().is_some_and(|filter| filter.by_dtz),
            root_tb_hits: root_filter.as_ref().map_or(0, |filter| filter.probes),
            tb_hit_counts: (0..self.threads.len()).map(|_| AtomicU64::new(0)).collect(),
            report: Mutex::new(report),
        };
        let (main, helpers) = self
            .threads
            .split_first_mut()
            .expect("a searcher always has a main thread");
        for thread in std::iter::once(&mut *main).chain(helpers.iter_mut()) {
            thread.prepare(pos, limits, &self.network);
        }
        let result = if helpers.is_empty() {
            main.run_main(&shared)
        } else {
            std::thread::scope(|scope| {
                for helper in helpers.iter_mut() {
                    let shared = &shared;
                    scope.spawn(move || helper.run_helper(shared));
                }
                let result = main.run_main(&shared);
                shared.abort.store(true, Ordering::Relaxed);
                result
            })
        };
        wait_for_release(&shared);
        result
    }
}

/// Blocks while the protocol forbids the result: during `go infinite` until `stop`, during
/// `go ponder` until `ponderhit` or `stop`. The one place a `bestmove` is held back.
fn wait_for_release(shared: &Shared) {
    let limits = shared.limits;
    let signals = shared.signals;
    while !signals.is_stopped()
        && (limits.infinite || (limits.ponder && signals.ponderhit_at().is_none()))
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}
