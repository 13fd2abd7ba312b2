//! Time management: turns the clock into soft and hard deadlines for one search.
//!
//! (Skeleton: the UCI work fills in `TimeManager::from_clock`; the search only calls
//! `hard_limit_reached` every few thousand nodes and `soft_limit_reached` between iterations.)

use std::time::{Duration, Instant};

/// What the search tells the time manager after each completed iteration.
#[derive(Clone, Debug, Default)]
pub struct IterationOutcome {
    pub depth: i32,
    /// How many times the best root move changed in this iteration.
    pub best_move_changes: u32,
    /// Score of this iteration minus the previous one (negative: it dropped), centipawns.
    pub score_change: i32,
    pub legal_moves: usize,
}

#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// No time limit at all (`go infinite`, `go depth`, `go nodes`).
    pub fn infinite() -> TimeManager {
        TimeManager {
            start: Instant::now(),
            soft: None,
            hard: None,
        }
    }

    /// Exactly this long (`go movetime`).
    pub fn fixed(duration: Duration) -> TimeManager {
        TimeManager {
            start: Instant::now(),
            soft: Some(duration),
            hard: Some(duration),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when there is no limit (the search must then wait for `stop`).
    pub fn is_infinite(&self) -> bool {
        self.hard.is_none()
    }

    /// Polled inside the search: stop now, whatever the iteration.
    pub fn hard_limit_reached(&self) -> bool {
        self.hard.is_some_and(|hard| self.start.elapsed() >= hard)
    }

    /// Asked between iterations: is it time to stop deepening?
    pub fn soft_limit_reached(&self, _outcome: &IterationOutcome) -> bool {
        self.soft.is_some_and(|soft| self.start.elapsed() >= soft)
    }
}
