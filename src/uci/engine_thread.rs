//! The engine thread: it owns the `Searcher` (table, histories) and runs jobs from a channel
//! one at a time, in the order the main thread sent them. So a `setoption name Hash` or a
//! `ucinewgame` sent during a search takes effect after it, and `isready` sent while idle
//! (`Job::Ping`) is answered only once everything before it is done.
//!
//! Every `Job::Go` ends with exactly one `bestmove`, printed here once the search returns (the
//! search itself holds its result back while `go infinite` or `go ponder` forbid it).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::output::{Output, bestmove_line, current_move_line, iteration_line};
use crate::nnue::Network;
use crate::perft::divide;
use crate::position::Position;
use crate::random::Rng;
use crate::search::{
    Bound, Limits, PvLine, Report, SearchParams, SearchSignals, Searcher, TablebaseUse,
};
use crate::strength::Strength;

/// One search, with everything the engine thread needs to print its result.
pub struct GoJob {
    pub position: Position,
    pub limits: Limits,
    /// `stop` and `ponderhit`, raised by the main thread.
    pub signals: Arc<SearchSignals>,
    pub strength: Strength,
    pub show_wdl: bool,
    /// The endgame tables and their settings for this search (None: none).
    pub tablebases: Option<TablebaseUse>,
}

pub enum Job {
    Go(Box<GoJob>),
    Perft {
        position: Box<Position>,
        depth: u32,
    },
    Bench {
        depth: Option<i32>,
    },
    NewGame,
    ResizeHash(usize),
    ClearHash,
    SetThreads(usize),
    SetSearchParams(SearchParams),
    /// `EvalFile` loaded a net: searches from now on evaluate with it.
    SetNetwork(Arc<Network>),
    /// `isready` while idle: print `readyok` once the jobs before it are done.
    Ping,
    Quit,
}

impl Job {
    /// Jobs that may run long; `isready` is answered at once while one is pending.
    fn is_long(&self) -> bool {
        matches!(self, Job::Go(_) | Job::Perft { .. } | Job::Bench { .. })
    }
}

/// The main thread's handle on the engine thread.
pub struct EngineThread {
    jobs: Sender<Job>,
    /// Long jobs sent and not yet finished.
    busy: Arc<AtomicUsize>,
    finished: Receiver<()>,
}

impl EngineThread {
    pub fn spawn(hash_mb: usize, output: Output) -> EngineThread {
        let (jobs, receiver) = crossbeam_channel::unbounded::<Job>();
        let (finished_sender, finished) = crossbeam_channel::bounded(1);
        let busy = Arc::new(AtomicUsize::new(0));
        let thread_busy = Arc::clone(&busy);
        thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let mut state = JobRunner {
                    searcher: Searcher::new(hash_mb),
                    output,
                    rng: Rng::from_time(),
                };
                for job in receiver {
                    let long = job.is_long();
                    if !state.run(job) {
                        break;
                    }
                    if long {
                        thread_busy.fetch_sub(1, Ordering::AcqRel);
                    }
                }
                let _ = finished_sender.send(());
            })
            .expect("the operating system can start the engine thread");
        EngineThread {
            jobs,
            busy,
            finished,
        }
    }

    pub fn send(&self, job: Job) {
        if job.is_long() {
            self.busy.fetch_add(1, Ordering::AcqRel);
        }
        // The receiver lives as long as the thread; a send can only fail after `Quit`.
        let _ = self.jobs.send(job);
    }

    /// True while a search, perft or bench is queued or running.
    pub fn is_busy(&self) -> bool {
        self.busy.load(Ordering::Acquire) > 0
    }

    /// Sends `Quit` and waits up to `patience` for the thread to finish its current job.
    pub fn shut_down(self, patience: Duration) {
        let _ = self.jobs.send(Job::Quit);
        match self.finished.recv_timeout(patience) {
            Ok(()) | Err(RecvTimeoutError::Disconnected) | Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

/// The engine thread's state between jobs.
struct JobRunner {
    searcher: Searcher,
    output: Output,
    rng: Rng,
}

impl JobRunner {
    /// Runs one job; false on `Quit`.
    fn run(&mut self, job: Job) -> bool {
        match job {
            Job::Go(go) => self.go(*go),
            Job::Perft {
                mut position,
                depth,
            } => self.perft(&mut position, depth),
            Job::Bench { depth } => run_bench(depth, &self.output),
            Job::NewGame | Job::ClearHash => self.searcher.clear(),
            Job::ResizeHash(mb) => {
                if let Err(error) = self.searcher.resize_hash(mb) {
                    self.output.info_string(&error);
                }
            }
            Job::SetThreads(threads) => self.searcher.set_threads(threads),
            Job::SetSearchParams(params) => self.searcher.set_params(params),
            Job::SetNetwork(network) => self.searcher.set_network(network),
            Job::Ping => self.output.line("readyok"),
            Job::Quit => return false,
        }
        true
    }

    fn perft(&self, position: &mut Position, depth: u32) {
        let chess960 = position.is_chess960();
        let mut total = 0;
        for (mv, nodes) in divide(position, depth.max(1)) {
            self.output
                .line(&format!("{}: {nodes}", mv.to_uci(chess960)));
            total += nodes;
        }
        self.output.line("");
        self.output.line(&format!("Nodes searched: {total}"));
    }

    fn go(&mut self, job: GoJob) {
        let GoJob {
            position,
            mut limits,
            signals,
            strength,
            show_wdl,
            tablebases,
        } = job;
        self.searcher.set_tablebases(tablebases);
        let output = &self.output;
        let chess960 = position.is_chess960();
        strength.restrict(&mut limits);
        let show_multipv = limits.multipv > 1;
        let mut report = |report: &Report| match report {
            Report::Iteration { progress, lines } => {
                for line in lines {
                    output.line(&iteration_line(
                        progress,
                        line,
                        show_multipv,
                        show_wdl,
                        chess960,
                    ));
                }
            }
            Report::CurrentMove { depth, mv, number } => {
                output.line(&current_move_line(*depth, *mv, *number, chess960));
            }
        };
        let result = self
            .searcher
            .search(&position, &limits, &signals, &mut report);

        let Some((best, ponder)) = strength.pick(&position, &result, &mut self.rng) else {
            let score = if position.in_check() {
                "mate 0"
            } else {
                "cp 0"
            };
            output.line(&format!("info depth 0 score {score}"));
            signals.bestmove_sent();
            output.line(&bestmove_line(None, None, chess960));
            return;
        };
        // The final info describes the move played: its line from the last completed
        // iteration, else a bare line.
        let line = result
            .lines
            .iter()
            .find(|line| line.moves.first() == Some(&best))
            .cloned()
            .unwrap_or_else(|| PvLine {
                multipv: 1,
                score: result.score,
                value: 0,
                bound: Bound::Exact,
                moves: std::iter::once(best).chain(ponder).collect(),
            });
        output.line(&iteration_line(
            &result.progress,
            &line,
            show_multipv,
            show_wdl,
            chess960,
        ));
        // Marked before it is written, so a GUI that has read it finds it marked.
        signals.bestmove_sent();
        output.line(&bestmove_line(Some(best), ponder, chess960));
    }
}

/// `bench [depth]` from the UCI loop: the positions and node count of `engine bench`, with
/// the signature line `<nodes> nodes <nps> nps` last.
fn run_bench(depth: Option<i32>, output: &Output) {
    let depth = depth.unwrap_or(crate::bench::DEFAULT_DEPTH);
    let (total, lines) = crate::bench::run_positions(depth);
    let elapsed: Duration = lines.iter().map(|line| line.time).sum();
    output.line(&format!(
        "info string bench: {} positions, depth {depth}, {} ms",
        lines.len(),
        elapsed.as_millis()
    ));
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    output.line(&format!("{total} nodes {nps} nps"));
}
