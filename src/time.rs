//! Time management: turns the clock into soft and hard deadlines for one search.
//!
//! Two deadlines, both measured from the moment our clock started running (the `go`, or the
//! `ponderhit` when pondering):
//! - the *soft* deadline is asked between iterations: "is another depth worth starting?". It
//!   stretches when the best move keeps changing, the score drops or the other root moves take
//!   a large share of the nodes, and shrinks while the best move stays the same; with a single
//!   legal move the search stops after its first iteration.
//! - the *hard* deadline is polled inside the search every few thousand nodes and ends it at
//!   once. It never exceeds the remaining clock minus the Move Overhead (the time the GUI, the
//!   pipes and the operating system need), except for a floor of `MINIMUM_THINK` so that even a
//!   nearly empty clock still gets a legal move out of a depth-1 search.
//!
//! `TimeLimit` is what `go` says, as plain data; the search builds its `TimeManager` from it
//! when it starts. While pondering there are no deadlines at all: the manager reads the
//! moment of `ponderhit` (set by the UCI loop in the search's signals) and counts from then.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The least time any timed search gets, however empty the clock: a depth-1 search fits.
pub const MINIMUM_THINK: Duration = Duration::from_millis(2);
/// How many moves a clock without `movestogo` is spread over (sudden death).
pub const SUDDEN_DEATH_HORIZON: u32 = 30;
/// `movestogo` beyond this is treated as this (GUIs send huge numbers for "the rest").
pub const MAX_HORIZON: u32 = 50;
/// The hard deadline is at most this many soft budgets.
const HARD_TO_SOFT: u32 = 5;
/// The share of each future increment counted as thinking time for the moves to come.
const INCREMENT_SHARE: f64 = 0.8;

/// What the search tells the time manager after each completed iteration.
#[derive(Clone, Debug, Default)]
pub struct IterationOutcome {
    pub depth: i32,
    /// How many times the best root move changed in this iteration.
    pub best_move_changes: u32,
    /// Completed iterations in a row, this one included, whose best move did not change.
    pub stable_iterations: u32,
    /// Score of this iteration minus the previous one (negative: it dropped), centipawns.
    pub score_change: i32,
    pub legal_moves: usize,
    /// The share of the search's nodes spent below the best move, in 0..=1: near 1 when
    /// every other move was refuted at once, lower while the others keep the search busy.
    pub best_move_node_share: f64,
}

/// The clock as `go` gives it, for the side to move, in milliseconds. Negative times happen
/// (a GUI that lets a clock run below zero) and are treated as zero.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockReading {
    pub remaining_ms: i64,
    pub increment_ms: i64,
    pub moves_to_go: Option<u32>,
    pub overhead_ms: i64,
}

/// How long one search may think, as `go` says it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum TimeLimit {
    /// No deadline (`go infinite`, `go depth`, `go nodes`, a bare `go`).
    #[default]
    None,
    /// `go movetime`, less the Move Overhead (at most half of it).
    MoveTime { ms: i64, overhead_ms: i64 },
    /// `go wtime … btime … [winc binc movestogo]`: deadlines that adapt to the search.
    Clock(ClockReading),
}

/// One search's deadlines, built when the search starts.
#[derive(Debug)]
pub struct TimeManager<'a> {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// A clock search adapts its soft deadline to the search; `movetime` does not.
    adaptive: bool,
    /// For a pondering search: when `ponderhit` came (unset until then).
    ponderhit: Option<&'a OnceLock<Instant>>,
}

impl<'a> TimeManager<'a> {
    /// The deadlines for `limit`, counted from `start` (the moment `go` arrived), or from
    /// `ponderhit` when it is given (a `go ponder` search).
    pub fn new(
        limit: TimeLimit,
        start: Instant,
        ponderhit: Option<&'a OnceLock<Instant>>,
    ) -> TimeManager<'a> {
        let (soft, hard, adaptive) = match limit {
            TimeLimit::None => (None, None, false),
            TimeLimit::MoveTime { ms, overhead_ms } => {
                let movetime = ms.max(0);
                let budget = movetime - overhead_ms.clamp(0, movetime / 2);
                let duration = Duration::from_millis(budget as u64).max(MINIMUM_THINK);
                (Some(duration), Some(duration), false)
            }
            TimeLimit::Clock(clock) => {
                let (soft, hard) = clock_budget(clock);
                (Some(soft), Some(hard), true)
            }
        };
        TimeManager {
            start,
            soft,
            hard,
            adaptive,
            ponderhit,
        }
    }

    /// The soft budget before any adjustment (`None`: unlimited).
    pub fn soft_budget(&self) -> Option<Duration> {
        self.soft
    }

    /// The hard budget (`None`: unlimited).
    pub fn hard_budget(&self) -> Option<Duration> {
        self.hard
    }

    /// Time since the `go` (for `info time` and nps).
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time our clock has been running: since the `go`, or since `ponderhit`. `None` while
    /// pondering.
    fn clock_elapsed(&self) -> Option<Duration> {
        match self.ponderhit {
            Some(ponderhit) => ponderhit.get().map(Instant::elapsed),
            None => Some(self.start.elapsed()),
        }
    }

    /// Polled inside the search: stop now, whatever the iteration.
    pub fn hard_limit_reached(&self) -> bool {
        let Some(hard) = self.hard else {
            return false;
        };
        self.clock_elapsed().is_some_and(|elapsed| elapsed >= hard)
    }

    /// Asked between iterations: is it time to stop deepening?
    pub fn soft_limit_reached(&self, outcome: &IterationOutcome) -> bool {
        let (Some(soft), Some(hard)) = (self.soft, self.hard) else {
            return false;
        };
        let Some(elapsed) = self.clock_elapsed() else {
            return false;
        };
        if !self.adaptive {
            return elapsed >= soft;
        }
        if outcome.legal_moves == 1 && outcome.depth >= 1 {
            return true;
        }
        let target = soft.mul_f64(soft_scale(outcome)).min(hard);
        elapsed >= target
    }
}

/// How much of the soft budget this iteration deserves, in 0.4..=2.5: more while the best
/// move changes, the score falls or the best move gets a small share of the nodes (the
/// alternatives are hard to refute), less while the best move stays put.
fn soft_scale(outcome: &IterationOutcome) -> f64 {
    let instability = 1.0 + 0.5 * outcome.best_move_changes.min(3) as f64;
    let stability = 1.0 - 0.1 * outcome.stable_iterations.min(5) as f64;
    let falling = if outcome.score_change < -15 {
        1.0 + (-outcome.score_change).min(100) as f64 / 100.0
    } else {
        1.0
    };
    let contested = (1.6 - outcome.best_move_node_share.clamp(0.0, 1.0)) * 1.4;
    (instability * stability * falling * contested).clamp(0.4, 2.5)
}

/// Soft and hard budgets for a clock.
///
/// Every move costs more than its thinking time: the GUI, the pipes and the scheduler add a
/// latency the engine cannot see. So the clock is spread over the moves to go (`horizon`)
/// after taking out the Move Overhead once (the margin for this move) and an expected latency
/// of a third of it for every move of the horizon; the increments still to come are added at
/// `INCREMENT_SHARE`. The clock settles where a move's share equals the increment: with the
/// full increments counted that was a reserve of only about 4 increments (a clock of 62 ms
/// was seen at 10+0.1), with 80 % it is about 10 (about 1 s at 10+0.1), so one slow answer
/// from a loaded machine does not flag.
///
/// The soft budget is that share, at most half of `safe` = remaining minus overhead (80% with
/// one move to go); the hard budget is a few soft budgets, at most 75% of `safe` (90% with one
/// move to go). Both are floored at `MINIMUM_THINK`.
fn clock_budget(clock: ClockReading) -> (Duration, Duration) {
    let remaining = clock.remaining_ms.max(0) as f64;
    let increment = clock.increment_ms.max(0) as f64;
    let overhead = clock.overhead_ms.max(0) as f64;
    let safe = (remaining - overhead).max(0.0);
    // `movestogo 0` is nonsense; reading it as "last move" would spend most of the clock.
    let horizon = clock
        .moves_to_go
        .filter(|&moves| moves > 0)
        .map_or(SUDDEN_DEATH_HORIZON, |moves| moves.min(MAX_HORIZON));
    let last_move = horizon == 1;
    let latency = overhead / 3.0;
    let moves = f64::from(horizon);
    let future_increments = INCREMENT_SHARE * increment * (moves - 1.0);
    let pool = (remaining + future_increments - overhead - latency * moves).max(0.0);
    let soft_cap = if last_move { 0.8 } else { 0.5 };
    let hard_cap = if last_move { 0.9 } else { 0.75 };
    let soft = (pool / moves).min(safe * soft_cap);
    let hard = (soft * f64::from(HARD_TO_SOFT)).min(safe * hard_cap);
    let as_duration = |ms: f64| Duration::from_micros((ms * 1000.0) as u64).max(MINIMUM_THINK);
    (as_duration(soft), as_duration(hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budgets(remaining: i64, increment: i64, moves_to_go: Option<u32>) -> (u64, u64) {
        let clock = ClockReading {
            remaining_ms: remaining,
            increment_ms: increment,
            moves_to_go,
            overhead_ms: 30,
        };
        let manager = TimeManager::new(TimeLimit::Clock(clock), Instant::now(), None);
        let soft = manager.soft_budget().expect("a clock has a soft budget");
        let hard = manager.hard_budget().expect("a clock has a hard budget");
        assert!(soft <= hard, "soft {soft:?} must not exceed hard {hard:?}");
        (soft.as_millis() as u64, hard.as_millis() as u64)
    }

    #[test]
    fn hard_deadline_leaves_the_overhead() {
        for remaining in [40, 50, 60, 100, 200, 1_000, 10_000, 60_000, 3_600_000] {
            for increment in [0, 10, 100, 1_000] {
                for moves_to_go in [None, Some(1), Some(2), Some(40), Some(1_000)] {
                    let (_, hard) = budgets(remaining, increment, moves_to_go);
                    let limit = (remaining - 30).max(MINIMUM_THINK.as_millis() as i64) as u64;
                    assert!(
                        hard <= limit,
                        "{remaining}+{increment}/{moves_to_go:?}: {hard}"
                    );
                }
            }
        }
    }

    #[test]
    fn tiny_and_broken_clocks_still_get_the_floor() {
        assert_eq!(budgets(50, 0, None), (2, 2));
        for remaining in [0, -500, 10, 30] {
            let (soft, hard) = budgets(remaining, 0, None);
            assert_eq!((soft, hard), (2, 2), "remaining {remaining}");
        }
        // An increment larger than the clock is not spent before it arrives.
        let (soft, _) = budgets(100, 1_000, None);
        assert!(soft <= 35, "soft {soft}");
    }

    #[test]
    fn moves_to_go_divides_the_clock() {
        // (10 030 - 30 - 40 x 10) / 40
        let (soft_40, _) = budgets(10_030, 0, Some(40));
        assert_eq!(soft_40, 240);
        let (soft_1, hard_1) = budgets(1_030, 0, Some(1));
        assert_eq!((soft_1, hard_1), (800, 900));
        // A huge movestogo is capped, not a near-zero budget.
        let (soft_huge, _) = budgets(10_030, 0, Some(1_000_000));
        assert_eq!(soft_huge, 190);
        assert_eq!(budgets(10_030, 0, Some(0)), budgets(10_030, 0, None));
    }

    #[test]
    fn sudden_death_with_increment() {
        // 1 s + 10 ms: (1000 + 0.8 x 29 x 10 - 30 - 30 x 10) / 30 = 30 ms soft, 5x that hard.
        let (soft, hard) = budgets(1_000, 10, None);
        assert_eq!((soft, hard), (30, 150));
        // At 10+0.1 a move's share equals the increment only once the clock is down to 1 s.
        assert_eq!(budgets(1_010, 100, None).0, 100);
        assert!(budgets(800, 100, None).0 < 100);
        // Low on the clock the budget shrinks below the increment, so the clock recovers.
        let (soft, _) = budgets(150, 10, None);
        assert!(soft < 5, "soft {soft}");
    }

    #[test]
    fn overhead_comes_off_movetime() {
        let manager = TimeManager::new(
            TimeLimit::MoveTime {
                ms: 1_000,
                overhead_ms: 30,
            },
            Instant::now(),
            None,
        );
        assert_eq!(manager.hard_budget(), Some(Duration::from_millis(970)));
        let short = TimeManager::new(
            TimeLimit::MoveTime {
                ms: 40,
                overhead_ms: 30,
            },
            Instant::now(),
            None,
        );
        assert_eq!(short.hard_budget(), Some(Duration::from_millis(20)));
        let zero = TimeManager::new(
            TimeLimit::MoveTime {
                ms: 0,
                overhead_ms: 30,
            },
            Instant::now(),
            None,
        );
        assert_eq!(zero.hard_budget(), Some(MINIMUM_THINK));
    }

    #[test]
    fn infinite_never_stops() {
        let manager = TimeManager::new(TimeLimit::None, Instant::now(), None);
        assert_eq!(manager.hard_budget(), None);
        assert!(!manager.hard_limit_reached());
        assert!(!manager.soft_limit_reached(&IterationOutcome {
            depth: 50,
            legal_moves: 1,
            ..Default::default()
        }));
    }

    #[test]
    fn single_legal_move_stops_after_one_iteration() {
        let clock = ClockReading {
            remaining_ms: 60_000,
            overhead_ms: 30,
            ..Default::default()
        };
        let manager = TimeManager::new(TimeLimit::Clock(clock), Instant::now(), None);
        let only_move = IterationOutcome {
            depth: 1,
            legal_moves: 1,
            ..Default::default()
        };
        assert!(manager.soft_limit_reached(&only_move));
        let many_moves = IterationOutcome {
            depth: 1,
            legal_moves: 20,
            ..Default::default()
        };
        assert!(!manager.soft_limit_reached(&many_moves));
    }

    #[test]
    fn scale_grows_with_changes_and_drops() {
        let calm = IterationOutcome::default();
        let changing = IterationOutcome {
            best_move_changes: 2,
            ..Default::default()
        };
        let falling = IterationOutcome {
            score_change: -80,
            ..Default::default()
        };
        let stable = IterationOutcome {
            stable_iterations: 5,
            ..Default::default()
        };
        assert!(soft_scale(&stable) < soft_scale(&calm));
        assert!(soft_scale(&changing) > soft_scale(&calm));
        assert!(soft_scale(&falling) > soft_scale(&calm));
        assert!(soft_scale(&stable) >= 0.4);
    }

    #[test]
    fn scale_grows_when_the_best_move_gets_fewer_nodes() {
        let clear = IterationOutcome {
            best_move_node_share: 0.95,
            ..Default::default()
        };
        let contested = IterationOutcome {
            best_move_node_share: 0.4,
            ..Default::default()
        };
        assert!(soft_scale(&contested) > soft_scale(&clear));
        assert!(soft_scale(&clear) < 1.0);
    }

    #[test]
    fn pondering_has_no_deadline_until_ponderhit() {
        let start = Instant::now() - Duration::from_secs(10);
        let ponderhit = OnceLock::new();
        let limit = TimeLimit::MoveTime {
            ms: 100,
            overhead_ms: 0,
        };
        let manager = TimeManager::new(limit, start, Some(&ponderhit));
        assert!(
            !manager.hard_limit_reached(),
            "10 s of ponder must not count"
        );
        ponderhit.set(Instant::now()).expect("set once");
        assert!(
            !manager.hard_limit_reached(),
            "the clock starts at ponderhit"
        );
        let plain = TimeManager::new(limit, start, None);
        assert!(plain.hard_limit_reached());
        let hit_long_ago = OnceLock::new();
        hit_long_ago.set(start).expect("set once");
        assert!(TimeManager::new(limit, start, Some(&hit_long_ago)).hard_limit_reached());
    }
}
