//! The search thread: it owns the `Searcher` (table, histories) and runs jobs from a channel
//! one at a time, in the order the main thread sent them. So a `setoption name Hash` or a
//! `ucinewgame` sent during a search takes effect after it, and `isready` sent while idle
//! (`Job::Ping`) is answered only once everything before it is done.
//!
//! Every `Job::Go` ends with exactly one `bestmove`. `go infinite` and `go ponder` searches
//! that finish on their own (a depth limit, a proven mate) hold their `bestmove` back until
//! `stop`, or for ponder until `ponderhit`, as the protocol requires.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::output::{Output, Progress, bestmove_line, current_move_line, iteration_line};
use crate::moves::Move;
use crate::perft::divide;
use crate::position::Position;
use crate::search::{Bound, Limits, PvLine, Report, SearchResult, Searcher};
use crate::strength::{Rng, Strength};
use crate::time::PonderSignal;

/// One search, with everything the search thread needs to print its result.
pub struct GoJob {
    pub position: Position,
    pub limits: Limits,
    pub stop: Arc<AtomicBool>,
    /// Present for `go ponder`: `bestmove` waits for `ponderhit` or `stop`.
    pub ponder: Option<Arc<PonderSignal>>,
    /// `go infinite`: `bestmove` waits for `stop`.
    pub infinite: bool,
    pub strength: Strength,
    pub show_wdl: bool,
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

/// The main thread's handle on the search thread.
pub struct Worker {
    jobs: Sender<Job>,
    /// Long jobs sent and not yet finished.
    busy: Arc<AtomicUsize>,
    finished: Receiver<()>,
}

impl Worker {
    pub fn spawn(hash_mb: usize, output: Output) -> Worker {
        let (jobs, receiver) = crossbeam_channel::unbounded::<Job>();
        let (finished_sender, finished) = crossbeam_channel::bounded(1);
        let busy = Arc::new(AtomicUsize::new(0));
        let thread_busy = Arc::clone(&busy);
        thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let mut state = SearchThread {
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
            .expect("the operating system can start the search thread");
        Worker {
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

struct SearchThread {
    searcher: Searcher,
    output: Output,
    rng: Rng,
}

impl SearchThread {
    /// Runs one job; false on `Quit`.
    fn run(&mut self, job: Job) -> bool {
        match job {
            Job::Go(go) => self.go(*go),
            Job::Perft {
                mut position,
                depth,
            } => self.perft(&mut position, depth),
            Job::Bench { depth } => run_bench(depth, self.output),
            Job::NewGame | Job::ClearHash => self.searcher.clear(),
            Job::ResizeHash(mb) => {
                if let Err(error) = self.searcher.resize_hash(mb) {
                    self.output.info_string(&error);
                }
            }
            Job::SetThreads(threads) => self.searcher.set_threads(threads),
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
            stop,
            ponder,
            infinite,
            strength,
            show_wdl,
        } = job;
        let output = self.output;
        let chess960 = position.is_chess960();
        strength.restrict(&mut limits);
        let show_multipv = limits.multipv > 1;
        let legal = position.legal_moves();

        let mut last: Option<(Progress, PvLine)> = None;
        let result = if legal.is_empty() {
            None
        } else {
            let mut report = |report: &Report| match report {
                Report::Iteration {
                    depth,
                    seldepth,
                    nodes,
                    time,
                    hashfull,
                    lines,
                } => {
                    let progress = Progress {
                        depth: *depth,
                        seldepth: *seldepth,
                        nodes: *nodes,
                        time: *time,
                        hashfull: *hashfull,
                    };
                    for line in lines {
                        output.line(&iteration_line(
                            &progress,
                            line,
                            show_multipv,
                            show_wdl,
                            chess960,
                        ));
                    }
                    if let Some(first) = lines.iter().min_by_key(|line| line.multipv) {
                        last = Some((progress, first.clone()));
                    }
                }
                Report::CurrentMove { depth, mv, number } => {
                    output.line(&current_move_line(*depth, *mv, *number, chess960));
                }
            };
            Some(self.searcher.search(&position, &limits, &stop, &mut report))
        };

        wait_for_release(&stop, ponder.as_deref(), infinite);

        let Some(result) = result else {
            let score = if position.in_check() {
                "mate 0"
            } else {
                "cp 0"
            };
            output.line(&format!("info depth 0 score {score}"));
            output.line(&bestmove_line(None, None, chess960));
            return;
        };
        let (best, ponder_move) = self.choose_move(&position, &legal, &result, strength);
        // The final info describes the move played: its line from the last completed
        // iteration, else the last reported line if it starts with it, else a bare line.
        let played_line = |line: &&PvLine| line.moves.first() == Some(&best);
        let line = result
            .lines
            .iter()
            .find(played_line)
            .or(last.as_ref().map(|(_, line)| line).filter(played_line))
            .cloned()
            .unwrap_or_else(|| PvLine {
                multipv: 1,
                score: result.score,
                value: 0,
                bound: Bound::Exact,
                moves: std::iter::once(best).chain(ponder_move).collect(),
            });
        let reported = last.map(|(progress, _)| progress);
        let progress = Progress {
            depth: match result.depth {
                0 => reported.map_or(0, |progress| progress.depth),
                depth => depth,
            },
            seldepth: reported.map_or(result.depth, |progress| progress.seldepth),
            nodes: result
                .nodes
                .max(reported.map_or(0, |progress| progress.nodes)),
            time: limits.time.elapsed(),
            hashfull: reported.map_or(0, |progress| progress.hashfull),
        };
        output.line(&iteration_line(
            &progress,
            &line,
            show_multipv,
            show_wdl,
            chess960,
        ));
        output.line(&bestmove_line(Some(best), ponder_move, chess960));
    }

    /// The move to play and the one to ponder on, both checked legal. A search that returned
    /// nothing usable (stopped before its first iteration) still yields a legal move.
    fn choose_move(
        &mut self,
        position: &Position,
        legal: &[Move],
        result: &SearchResult,
        strength: Strength,
    ) -> (Move, Option<Move>) {
        let searched = result.best.filter(|mv| legal.contains(mv));
        let mut best = match searched {
            Some(mv) => mv,
            None => {
                if result.best.is_some() {
                    self.output
                        .info_string("the search returned an illegal move; playing a legal one");
                }
                legal[0]
            }
        };
        // The search's ponder move, else the reply in its principal variation.
        let reply_in_pv = result
            .lines
            .first()
            .filter(|line| line.moves.first() == Some(&best))
            .and_then(|line| line.moves.get(1).copied());
        let mut ponder = result
            .ponder
            .or(reply_in_pv)
            .filter(|_| searched == Some(best));
        if !strength.is_full()
            && let Some(chosen) = strength.choose_in(position, &result.lines, &mut self.rng)
            && chosen != best
            && legal.contains(&chosen)
        {
            best = chosen;
            ponder = None;
        }
        let ponder = ponder.filter(|&reply| {
            let mut after = position.clone();
            after.make_move(best);
            after.is_legal(reply)
        });
        (best, ponder)
    }
}

/// Blocks while the protocol forbids `bestmove`: during `go infinite` until `stop`, during
/// `go ponder` until `ponderhit` or `stop`.
fn wait_for_release(stop: &AtomicBool, ponder: Option<&PonderSignal>, infinite: bool) {
    loop {
        if stop.load(Ordering::Acquire) {
            return;
        }
        let pondering = ponder.is_some_and(PonderSignal::is_pondering);
        if !infinite && !pondering {
            return;
        }
        thread::sleep(Duration::from_millis(1));
    }
}

/// `bench [depth]` from the UCI loop: the positions and node count of `engine bench`, with
/// the signature line `<nodes> nodes <nps> nps` last.
fn run_bench(depth: Option<i32>, output: Output) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn release_waits_for_stop_or_ponderhit() {
        let stop = AtomicBool::new(false);
        // Nothing to wait for.
        wait_for_release(&stop, None, false);
        let signal = PonderSignal::new(Instant::now());
        signal.hit();
        wait_for_release(&stop, Some(&signal), false);
        stop.store(true, Ordering::Release);
        wait_for_release(&stop, None, true);
    }

    #[test]
    fn a_ponder_search_waits_until_ponderhit() {
        let stop = Arc::new(AtomicBool::new(false));
        let signal = PonderSignal::new(Instant::now());
        let waiter = {
            let stop = Arc::clone(&stop);
            let signal = Arc::clone(&signal);
            thread::spawn(move || wait_for_release(&stop, Some(&signal), false))
        };
        thread::sleep(Duration::from_millis(20));
        assert!(!waiter.is_finished());
        signal.hit();
        waiter.join().expect("the waiter returns after ponderhit");
    }
}
